/*
 * Texture formats of the G84's texture unit: how the elements of each
 * COMPONENTS_SIZES value are stored, and their decoding into the four
 * components R, G, B, A by the TIC's per-component data types
 * (rnndb g80_texture.xml, g80_defs.xml).
 *
 * Component naming: a format's name lists its fields from the most
 * significant bit down (A8B8G8R8: R in bits 0-7, A in bits 24-31); Mesa
 * maps its own formats onto these with the TIC's X/Y/Z/W sources
 * (nv50_formats.c: B8G8R8A8_UNORM is A8B8G8R8 read B, G, R, A).  The
 * depth formats name the depth field Z and the stencil S the same way
 * (Z24S8: S is R in bits 0-7, Z is G in bits 8-31; S8Z24 the reverse).
 *
 * Compressed: DXT1 (BC1), DXT23 (BC2), DXT45 (BC3), DXN1 (BC4/RGTC1)
 * and DXN2 (BC5/RGTC2), 4x4 texels a block, decoded to floats; DXN's
 * R type SNORM selects the signed variant.  UNVERIFIED: the hardware's
 * interpolation rounding (gemu interpolates in float, as the D3D10
 * specification allows).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include <math.h>
#include "gemu/half.h"
#include "texture.h"

/* A field of a plain format: bit offset and width in the element. */
typedef struct TexField {
    uint8_t off, bits;
} TexField;

typedef struct TexLayout {
    uint8_t format;
    uint8_t bytes;
    bool depth;
    TexField f[4];              /* R, G, B, A; bits 0: absent */
} TexLayout;

static const TexLayout layouts[] = {
    { NV50_TF_R32_G32_B32_A32, 16, false,
      { { 0, 32 }, { 32, 32 }, { 64, 32 }, { 96, 32 } } },
    { NV50_TF_R16_G16_B16_A16, 8, false,
      { { 0, 16 }, { 16, 16 }, { 32, 16 }, { 48, 16 } } },
    { NV50_TF_R32_G32, 8, false, { { 0, 32 }, { 32, 32 } } },
    /* UNVERIFIED: G is word 1's low byte (the stencil), B its rest */
    { NV50_TF_R32_B24G8, 8, false, { { 0, 32 }, { 32, 8 }, { 40, 24 } } },
    { NV50_TF_X8B8G8R8, 4, false, { { 0, 8 }, { 8, 8 }, { 16, 8 } } },
    { NV50_TF_A8B8G8R8, 4, false,
      { { 0, 8 }, { 8, 8 }, { 16, 8 }, { 24, 8 } } },
    { NV50_TF_A2B10G10R10, 4, false,
      { { 0, 10 }, { 10, 10 }, { 20, 10 }, { 30, 2 } } },
    { NV50_TF_R16_G16, 4, false, { { 0, 16 }, { 16, 16 } } },
    { NV50_TF_G8R24, 4, false, { { 0, 24 }, { 24, 8 } } },
    { NV50_TF_G24R8, 4, false, { { 0, 8 }, { 8, 24 } } },
    { NV50_TF_R32, 4, false, { { 0, 32 } } },
    { NV50_TF_A4B4G4R4, 2, false,
      { { 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 } } },
    { NV50_TF_A5B5G5R1, 2, false,
      { { 0, 1 }, { 1, 5 }, { 6, 5 }, { 11, 5 } } },
    { NV50_TF_A1B5G5R5, 2, false,
      { { 0, 5 }, { 5, 5 }, { 10, 5 }, { 15, 1 } } },
    { NV50_TF_B5G6R5, 2, false, { { 0, 5 }, { 5, 6 }, { 11, 5 } } },
    { NV50_TF_B6G5R5, 2, false, { { 0, 5 }, { 5, 5 }, { 10, 6 } } },
    { NV50_TF_G8R8, 2, false, { { 0, 8 }, { 8, 8 } } },
    { NV50_TF_R16, 2, false, { { 0, 16 } } },
    { NV50_TF_Y8_VIDEO, 1, false, { { 0, 8 } } },     /* UNVERIFIED */
    { NV50_TF_R8, 1, false, { { 0, 8 } } },
    { NV50_TF_G4R4, 1, false, { { 0, 4 }, { 4, 4 } } },
    { NV50_TF_BF10GF11RF11, 4, false, { { 0, 11 }, { 11, 11 }, { 22, 10 } } },
    { NV50_TF_Z24S8, 4, true, { { 0, 8 }, { 8, 24 } } },
    { NV50_TF_X8Z24, 4, true, { { 0, 24 } } },
    { NV50_TF_S8Z24, 4, true, { { 0, 24 }, { 24, 8 } } },
    { NV50_TF_ZF32, 4, true, { { 0, 32 } } },
    { NV50_TF_ZF32_X24S8, 8, true, { { 0, 32 }, { 32, 8 } } },
    { NV50_TF_Z16, 2, true, { { 0, 16 } } },
};

static const TexLayout *layout_find(unsigned format)
{
    for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
        if (layouts[i].format == format) {
            return &layouts[i];
        }
    }
    return NULL;
}

bool nv50_tex_format_info(unsigned format, NV50TexFormat *f)
{
    const TexLayout *l = layout_find(format);

    memset(f, 0, sizeof(*f));
    f->bw = f->bh = 1;
    if (l) {
        f->bytes = l->bytes;
        f->depth = l->depth;
        return true;
    }
    switch (format) {
    case NV50_TF_E5B9G9R9:
        f->bytes = 4;
        return true;
    case NV50_TF_G8B8G8R8:
    case NV50_TF_B8G8R8G8:
        f->bytes = 4;
        f->bw = 2;
        return true;
    case NV50_TF_DXT1:
    case NV50_TF_DXN1:
        f->bytes = 8;
        break;
    case NV50_TF_DXT23:
    case NV50_TF_DXT45:
    case NV50_TF_DXN2:
        f->bytes = 16;
        break;
    default:
        return false;
    }
    f->bw = f->bh = 4;
    f->compressed = true;
    return true;
}

float nv50_srgb_to_linear(float c)
{
    if (c <= 0.04045f) {
        return c / 12.92f;
    }
    return powf((c + 0.055f) / 1.055f, 2.4f);
}

/* @bits bits from bit @off of the little-endian element @el */
static uint32_t field(const uint8_t *el, unsigned off, unsigned bits)
{
    uint64_t v = 0;
    unsigned b0 = off / 8, nb = (off % 8 + bits + 7) / 8;

    for (unsigned i = 0; i < nb; i++) {
        v |= (uint64_t)el[b0 + i] << (8 * i);
    }
    v >>= off % 8;
    return bits >= 32 ? (uint32_t)v : (uint32_t)v & ((1u << bits) - 1);
}

/* an unsigned float of @mbits mantissa bits and 5 exponent bits */
static float ufloat(uint32_t v, unsigned mbits)
{
    unsigned e = v >> mbits, m = v & ((1u << mbits) - 1);

    if (e == 0) {
        return ldexpf((float)m, -14 - (int)mbits);
    }
    if (e == 31) {
        return m ? NAN : INFINITY;
    }
    return ldexpf(1.0f + (float)m / (1u << mbits), (int)e - 15);
}

static uint64_t ld64(const uint8_t *b)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < 8; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

static uint32_t ld32(const uint8_t *b)
{
    return (uint32_t)b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t ld16(const uint8_t *b)
{
    return b[0] | b[1] << 8;
}

static float round_half(float f)
{
    return gemu_half_to_float(gemu_float_to_half(f));
}

/* one field of @bits bits by data type @type */
static uint32_t convert(uint32_t v, unsigned bits, unsigned type)
{
    int32_t sv = bits >= 32 ? (int32_t)v :
                 (int32_t)(v << (32 - bits)) >> (32 - bits);
    float f;

    switch (type) {
    case NV50_TT_SINT:
        return (uint32_t)sv;
    case NV50_TT_UINT:
        return v;
    case NV50_TT_FLOAT:
        switch (bits) {
        case 32:
            return v;
        case 16:
            return f32_to_bits(gemu_half_to_float(v));
        case 11:
            return f32_to_bits(ufloat(v, 6));
        case 10:
            return f32_to_bits(ufloat(v, 5));
        }
        /* UNVERIFIED: other widths read as UNORM */
        /* fall through */
    case NV50_TT_UNORM:
    case NV50_TT_UNORM_FP16:
        f = (float)((double)v / (double)((1ull << bits) - 1));
        return f32_to_bits(type == NV50_TT_UNORM_FP16 ? round_half(f) : f);
    case NV50_TT_SNORM:
    case NV50_TT_SNORM_FP16:
        f = (float)MAX((double)sv / (double)((1ull << (bits - 1)) - 1),
                       -1.0);
        return f32_to_bits(type == NV50_TT_SNORM_FP16 ? round_half(f) : f);
    default:
        /* UNVERIFIED: type 0 (no rnndb name) reads as 0 */
        return 0;
    }
}

static uint32_t unorm8_table[256];

static gpointer unorm8_init(gpointer unused)
{
    for (unsigned i = 0; i < 256; i++) {
        unorm8_table[i] = convert(i, 8, NV50_TT_UNORM);
    }
    return unorm8_table;
}

void nv50_tex_decode_prep(const NV50TexView *v, NV50TexDecode *d)
{
    static GOnce once = G_ONCE_INIT;
    const TexLayout *l = v->fmt.compressed ? NULL : layout_find(v->format);

    memset(d, 0, sizeof(*d));
    if (!l) {
        return;
    }
    for (unsigned k = 0; k < 4; k++) {
        d->byte[k] = -1;
        if (!l->f[k].bits) {
            continue;
        }
        if (l->f[k].bits != 8 || l->f[k].off % 8 ||
            v->type[k] != NV50_TT_UNORM) {
            return;
        }
        d->byte[k] = l->f[k].off / 8;
    }
    d->unorm8 = g_once(&once, unorm8_init, NULL);
    d->plain8 = true;
}

/* --- compressed blocks --- */

static void rgb565(uint16_t c, float rgb[3])
{
    rgb[0] = (float)(c >> 11) / 31.0f;
    rgb[1] = (float)((c >> 5) & 0x3f) / 63.0f;
    rgb[2] = (float)(c & 0x1f) / 31.0f;
}

/* the colour half of a DXT block: R, G, B, A of texel @i (0..15) */
static void dxt_color(const uint8_t *b, unsigned i, bool four, float out[4])
{
    uint16_t c0 = ld16(b), c1 = ld16(b + 2);
    unsigned idx = (ld32(b + 4) >> (2 * i)) & 3;
    float p0[3], p1[3];

    rgb565(c0, p0);
    rgb565(c1, p1);
    out[3] = 1.0f;
    for (unsigned k = 0; k < 3; k++) {
        if (four || c0 > c1) {
            static const float w1[4] = { 0, 1, 1.0f / 3, 2.0f / 3 };
            out[k] = p0[k] + (p1[k] - p0[k]) * w1[idx];
        } else {
            static const float w1[4] = { 0, 1, 0.5f, 0 };
            out[k] = idx == 3 ? 0.0f : p0[k] + (p1[k] - p0[k]) * w1[idx];
        }
    }
    if (!four && c0 <= c1 && idx == 3) {
        out[3] = 0.0f;
    }
}

/* a BC4 (DXT5 alpha) block: the value of texel @i */
static float bc4(const uint8_t *b, unsigned i, bool is_signed)
{
    uint64_t bits = ld64(b) >> 16;
    unsigned idx = (bits >> (3 * i)) & 7;
    float a0, a1, lo = is_signed ? -1.0f : 0.0f;

    if (is_signed) {
        a0 = MAX((float)(int8_t)b[0] / 127.0f, -1.0f);
        a1 = MAX((float)(int8_t)b[1] / 127.0f, -1.0f);
    } else {
        a0 = b[0] / 255.0f;
        a1 = b[1] / 255.0f;
    }
    if (idx == 0) {
        return a0;
    }
    if (idx == 1) {
        return a1;
    }
    if (is_signed ? (int8_t)b[0] > (int8_t)b[1] : b[0] > b[1]) {
        return (a0 * (8 - idx) + a1 * (idx - 1)) / 7.0f;
    }
    if (idx == 6) {
        return lo;
    }
    if (idx == 7) {
        return 1.0f;
    }
    return (a0 * (6 - idx) + a1 * (idx - 1)) / 5.0f;
}

static void decode_compressed(const NV50TexView *v, const uint8_t *el,
                              unsigned i, uint32_t comp[4])
{
    bool sn = v->type[0] == NV50_TT_SNORM;
    float c[4] = { 0, 0, 0, 1 };

    switch (v->format) {
    case NV50_TF_DXT1:
        dxt_color(el, i, false, c);
        break;
    case NV50_TF_DXT23:
        dxt_color(el + 8, i, true, c);
        c[3] = (float)((ld64(el) >> (4 * i)) & 0xf) / 15.0f;
        break;
    case NV50_TF_DXT45:
        dxt_color(el + 8, i, true, c);
        c[3] = bc4(el, i, false);
        break;
    case NV50_TF_DXN1:
        c[0] = bc4(el, i, sn);
        c[1] = c[2] = 0.0f;
        break;
    case NV50_TF_DXN2:
        c[0] = bc4(el, i, sn);
        c[1] = bc4(el + 8, i, v->type[1] == NV50_TT_SNORM);
        c[2] = 0.0f;
        break;
    }
    for (unsigned k = 0; k < 4; k++) {
        comp[k] = f32_to_bits(c[k]);
    }
}

void nv50_tex_decode(const NV50TexView *v, const uint8_t *el, unsigned x,
                     unsigned y, uint32_t comp[4])
{
    const TexLayout *l;

    memset(comp, 0, 4 * sizeof(comp[0]));
    if (v->fmt.compressed) {
        decode_compressed(v, el, y * 4 + x, comp);
        return;
    }
    switch (v->format) {
    case NV50_TF_E5B9G9R9: {
        uint32_t w = ld32(el);
        int e = (int)(w >> 27) - 15 - 9;

        for (unsigned k = 0; k < 3; k++) {
            comp[k] = f32_to_bits(ldexpf((float)((w >> (9 * k)) & 0x1ff), e));
        }
        return;
    }
    case NV50_TF_G8B8G8R8:          /* bytes R, G0, B, G1 */
        comp[0] = convert(el[0], 8, v->type[0]);
        comp[1] = convert(el[x ? 3 : 1], 8, v->type[1]);
        comp[2] = convert(el[2], 8, v->type[2]);
        return;
    case NV50_TF_B8G8R8G8:          /* bytes G0, R, G1, B */
        comp[0] = convert(el[1], 8, v->type[0]);
        comp[1] = convert(el[x ? 2 : 0], 8, v->type[1]);
        comp[2] = convert(el[3], 8, v->type[2]);
        return;
    }
    l = layout_find(v->format);
    if (!l) {
        return;
    }
    for (unsigned k = 0; k < 4; k++) {
        if (l->f[k].bits) {
            comp[k] = convert(field(el, l->f[k].off, l->f[k].bits),
                              l->f[k].bits, v->type[k]);
        }
    }
}
