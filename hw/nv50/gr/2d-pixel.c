/*
 * G80_2D surface formats: the table of formats the 2D engine takes,
 * conversion between them through one colour representation, and the
 * ternary ROP.
 *
 * Formats: rnndb g80_defs.xml G80_SURFACE_FORMAT for ids and names,
 * nvhw/class/cl502d.h (Linux 6.1) for the ones 2D accepts (its names in
 * the comments), envytools docs/hw/memory/g80-surface.rst for the bit
 * layouts (components from the LSB of a little-endian element).  Mesa's
 * nv50_2d_format() adds RGBA32_FLOAT and RGBA16_FLOAT for raw copies.
 *
 * Conversion: a format converts to itself bit for bit (X bits too).
 * Between formats, UNORM channels become v / (2^n - 1) and are rounded
 * to nearest on the way back, floats are clamped to 0..1 for UNORM;
 * a missing alpha reads as 1, missing G and B as 0.  UNVERIFIED: X bits
 * written by a conversion are ones (zero for the Z1R5G5B5/Z8R8G8B8 and
 * the float X formats), sRGB formats are treated as UNORM (no sRGB
 * decode/encode), Y formats read as grey (R = G = B = Y) and write R.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "hw/nv50/gr/2d.h"

#include <math.h>

#define UN(id_, name_, bpp_, rs, rb, gs, gb, bs, bb, as, ab, y_, zx_) \
    { .id = id_, .name = name_, .bpp = bpp_, .kind = NV502D_KIND_UNORM, \
      .shift = { rs, gs, bs, as }, .bits = { rb, gb, bb, ab }, \
      .is_y = y_, .zero_x = zx_ }
#define FL(id_, name_, bpp_, w, nch, zx_) \
    { .id = id_, .name = name_, .bpp = bpp_, .kind = NV502D_KIND_FLOAT, \
      .shift = { 0, w, 2 * w, 3 * w }, \
      .bits = { w, nch > 1 ? w : 0, nch > 2 ? w : 0, nch > 3 ? w : 0 }, \
      .zero_x = zx_ }

static const NV502dFormat nv502d_formats[] = {
    FL(0xc0, "RGBA32_FLOAT", 16, 32, 4, false),
    FL(0xc3, "RGBX32_FLOAT", 16, 32, 3, true),
    FL(0xca, "RGBA16_FLOAT", 8, 16, 4, false),
    FL(0xcb, "RG32_FLOAT", 8, 32, 2, false),
    FL(0xce, "RGBX16_FLOAT", 8, 16, 3, true),
    /* A8R8G8B8 */
    UN(0xcf, "BGRA8_UNORM", 4, 16, 8, 8, 8, 0, 8, 24, 8, false, false),
    /* A8RL8GL8BL8 */
    UN(0xd0, "BGRA8_SRGB", 4, 16, 8, 8, 8, 0, 8, 24, 8, false, false),
    /* A2B10G10R10 */
    UN(0xd1, "RGB10_A2_UNORM", 4, 0, 10, 10, 10, 20, 10, 30, 2, false,
       false),
    /* A8B8G8R8 */
    UN(0xd5, "RGBA8_UNORM", 4, 0, 8, 8, 8, 16, 8, 24, 8, false, false),
    /* A8BL8GL8RL8 */
    UN(0xd6, "RGBA8_SRGB", 4, 0, 8, 8, 8, 16, 8, 24, 8, false, false),
    /* A2R10G10B10 */
    UN(0xdf, "BGR10_A2_UNORM", 4, 20, 10, 10, 10, 0, 10, 30, 2, false,
       false),
    /* RF32 */
    FL(0xe5, "R32_FLOAT", 4, 32, 1, false),
    /* X8R8G8B8 */
    UN(0xe6, "BGRX8_UNORM", 4, 16, 8, 8, 8, 0, 8, 0, 0, false, false),
    /* X8RL8GL8BL8 */
    UN(0xe7, "BGRX8_SRGB", 4, 16, 8, 8, 8, 0, 8, 0, 0, false, false),
    /* R5G6B5 */
    UN(0xe8, "B5G6R5_UNORM", 2, 11, 5, 5, 6, 0, 5, 0, 0, false, false),
    /* A1R5G5B5 */
    UN(0xe9, "BGR5_A1_UNORM", 2, 10, 5, 5, 5, 0, 5, 15, 1, false, false),
    /* Y16 */
    UN(0xee, "R16_UNORM", 2, 0, 16, 0, 0, 0, 0, 0, 0, true, false),
    /* RF16 */
    FL(0xf2, "R16_FLOAT", 2, 16, 1, false),
    /* Y8 */
    UN(0xf3, "R8_UNORM", 1, 0, 8, 0, 0, 0, 0, 0, 0, true, false),
    /* X1R5G5B5 */
    UN(0xf8, "BGR5_X1_UNORM", 2, 10, 5, 5, 5, 0, 5, 0, 0, false, false),
    /* X8B8G8R8 */
    UN(0xf9, "RGBX8_UNORM", 4, 0, 8, 8, 8, 16, 8, 0, 0, false, false),
    /* X8BL8GL8RL8 */
    UN(0xfa, "RGBX8_SRGB", 4, 0, 8, 8, 8, 16, 8, 0, 0, false, false),
    /* Z1R5G5B5 */
    UN(0xfb, "BGR5_X1_UNORM_UNKFB", 2, 10, 5, 5, 5, 0, 5, 0, 0, false,
       true),
    /* O1R5G5B5 */
    UN(0xfc, "BGR5_X1_UNORM_UNKFC", 2, 10, 5, 5, 5, 0, 5, 0, 0, false,
       false),
    /* Z8R8G8B8 */
    UN(0xfd, "BGRX8_UNORM_UNKFD", 4, 16, 8, 8, 8, 0, 8, 0, 0, false, true),
    /* O8R8G8B8 */
    UN(0xfe, "BGRX8_UNORM_UNKFE", 4, 16, 8, 8, 8, 0, 8, 0, 0, false,
       false),
    /* Y32 */
    UN(0xff, "Y32_UINT_UNKFF", 4, 0, 32, 0, 0, 0, 0, 0, 0, true, false),
};

const NV502dFormat *nv502d_format(uint32_t id)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(nv502d_formats); i++) {
        if (nv502d_formats[i].id == id) {
            return &nv502d_formats[i];
        }
    }
    return NULL;
}

static uint32_t ld32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void st32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static uint32_t ld_word(const NV502dFormat *f, const uint8_t *px)
{
    switch (f->bpp) {
    case 1:
        return px[0];
    case 2:
        return px[0] | px[1] << 8;
    default:
        return ld32(px);
    }
}

static void st_word(const NV502dFormat *f, uint8_t *px, uint32_t v)
{
    switch (f->bpp) {
    case 1:
        px[0] = v;
        break;
    case 2:
        px[0] = v;
        px[1] = v >> 8;
        break;
    default:
        st32(px, v);
        break;
    }
}

static uint32_t field_mask(unsigned bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

static float ld_float(const uint8_t *px, unsigned shift, unsigned bits)
{
    const uint8_t *p = px + shift / 8;
    float v;

    if (bits == 16) {
        return gemu_half_to_float(p[0] | p[1] << 8);
    }
    {
        uint32_t x = ld32(p);

        memcpy(&v, &x, 4);
    }
    return v;
}

static void st_float(uint8_t *px, unsigned shift, unsigned bits, double v)
{
    uint8_t *p = px + shift / 8;
    float f = (float)v;

    if (bits == 16) {
        uint16_t h = gemu_float_to_half(f);

        p[0] = h;
        p[1] = h >> 8;
    } else {
        uint32_t x;

        memcpy(&x, &f, 4);
        st32(p, x);
    }
}

void nv502d_unpack(const NV502dFormat *f, const uint8_t *px,
                   NV502dColor *col)
{
    int i;

    col->c[0] = col->c[1] = col->c[2] = 0.0;
    col->c[3] = 1.0;
    if (f->kind == NV502D_KIND_FLOAT) {
        for (i = 0; i < 4; i++) {
            if (f->bits[i]) {
                col->c[i] = ld_float(px, f->shift[i], f->bits[i]);
            }
        }
        return;
    }
    {
        uint32_t w = ld_word(f, px);

        for (i = 0; i < 4; i++) {
            if (f->bits[i]) {
                uint32_t m = field_mask(f->bits[i]);

                col->c[i] = (double)((w >> f->shift[i]) & m) / (double)m;
            }
        }
    }
    if (f->is_y) {
        col->c[1] = col->c[2] = col->c[0];
    }
}

static uint32_t to_unorm(double v, uint32_t max)
{
    if (!(v > 0.0)) {           /* also NaN */
        return 0;
    }
    if (v >= 1.0) {
        return max;
    }
    return (uint32_t)floor(v * (double)max + 0.5);
}

void nv502d_pack(const NV502dFormat *f, const NV502dColor *col,
                 uint8_t *px)
{
    int i;

    if (f->kind == NV502D_KIND_FLOAT) {
        memset(px, 0, f->bpp);
        for (i = 0; i < 4; i++) {
            if (f->bits[i]) {
                st_float(px, f->shift[i], f->bits[i], col->c[i]);
            }
        }
        return;
    }
    {
        uint32_t w = 0, used = 0;
        uint32_t all = f->bpp >= 4 ? 0xffffffffu : (1u << (f->bpp * 8)) - 1;

        for (i = 0; i < 4; i++) {
            if (f->bits[i]) {
                uint32_t m = field_mask(f->bits[i]);

                w |= to_unorm(col->c[i], m) << f->shift[i];
                used |= m << f->shift[i];
            }
        }
        if (!f->zero_x) {
            w |= all & ~used;
        }
        st_word(f, px, w);
    }
}

bool nv502d_alpha_nonzero(const NV502dFormat *f, const uint8_t *px)
{
    if (!f->bits[3]) {
        return true;
    }
    if (f->kind == NV502D_KIND_FLOAT) {
        return ld_float(px, f->shift[3], f->bits[3]) != 0.0f;
    }
    return (ld_word(f, px) >> f->shift[3]) & field_mask(f->bits[3]);
}

void nv502d_convert(const NV502dFormat *sf, const uint8_t *src,
                    const NV502dFormat *df, uint8_t *dst, size_t n)
{
    NV502dColor col;
    size_t i;

    if (sf == df) {
        memcpy(dst, src, n * sf->bpp);
        return;
    }
    for (i = 0; i < n; i++) {
        nv502d_unpack(sf, src + i * sf->bpp, &col);
        nv502d_pack(df, &col, dst + i * df->bpp);
    }
}

static uint64_t rop64(uint8_t rop, uint64_t d, uint64_t s, uint64_t p)
{
    uint64_t r = 0;
    int i;

    /* the sum of the minterms the ROP selects */
    for (i = 0; i < 8; i++) {
        if (rop & (1u << i)) {
            r |= ((i & 1) ? d : ~d) & ((i & 2) ? s : ~s) &
                 ((i & 4) ? p : ~p);
        }
    }
    return r;
}

void nv502d_rop(uint8_t rop, const uint8_t *d, const uint8_t *s,
                const uint8_t *p, uint8_t *out, size_t len)
{
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t dw, sw, pw, r;

        memcpy(&dw, d + i, 8);
        memcpy(&sw, s + i, 8);
        memcpy(&pw, p + i, 8);
        r = rop64(rop, dw, sw, pw);
        memcpy(out + i, &r, 8);
    }
    for (; i < len; i++) {
        out[i] = (uint8_t)rop64(rop, d[i], s[i], p[i]);
    }
}
