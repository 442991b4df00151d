/*
 * SGX543 texels: fetching one texel of any format and unpacking
 * uncompressed fields (unorm, snorm, half, float, packed floats,
 * palettes) through the swizzle and gamma.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "texture-int.h"

#include <math.h>

/* ---- texels ---- */

/* A palette entry: U8U8U8U8 with the texture's swizzle */
static const SgxTexFormatInfo palette_entry = {
    "U8U8U8U8", SGX_TEXB_U8U8U8U8, 32, 4, K_UNORM, 4, { 8, 8, 8, 8 },
};

static float field_value(unsigned kind, uint64_t v, unsigned bits)
{
    switch (kind) {
    case K_SNORM: {
        int64_t s = (int64_t)(v << (64 - bits)) >> (64 - bits);
        return fmaxf((float)s / (float)((1ull << (bits - 1)) - 1), -1.0f);
    }
    case K_F16:
        return gemu_half_to_float(v);
    case K_UFLOAT: {
        /* no sign, 5-bit exponent biased by 15, bits - 5 of mantissa */
        unsigned mb = bits - 5, e = v >> mb;
        float m = (float)(v & ((1u << mb) - 1)) / (float)(1u << mb);

        if (e == 31) {
            return m ? NAN : INFINITY;
        }
        return e ? ldexpf(1.0f + m, (int)e - 15) : ldexpf(m, -14);
    }
    case K_F32:
    case K_F32M: {
        uint32_t u = v;
        float f;
        if (kind == K_F32M) {
            u &= 0x7fffffffu;       /* the sign is ignored */
        }
        memcpy(&f, &u, 4);
        return f;
    }
    default:
        return (float)((double)v / (double)((1ull << bits) - 1));
    }
}

/* sRGB to linear (IEC 61966-2-1) */
static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/*
 * The fields (bit k: field k) a gamma mode decodes: GAMMA_R the R field
 * of one- and two-component formats, GAMMA_BGR (the same value) the
 * fields that reach R, G and B of three- and four-component ones,
 * GAMMA_GR both fields of two-component formats.  UNVERIFIED: GAMMA_GR
 * on other formats as GAMMA_R/BGR; gamma applies to unorm fields only.
 */
static unsigned gamma_fields(const SgxTexFormatInfo *f, unsigned swz,
                             unsigned gamma)
{
    const int8_t *map;
    unsigned m = 0;

    if (!gamma || f->kind == K_SNORM || f->kind == K_F16
        || f->kind == K_F32 || f->kind == K_F32M || f->kind == K_UFLOAT
        || f->kind == K_SE5) {
        return 0;
    }
    if (f->comps <= 2) {
        return f->comps == 2 && gamma == SGX_TEX_GAMMA_GR ? 3 : 1;
    }
    map = sgx_tex_swizzle_map(f->comps, swz);
    for (int i = 0; i < 3; i++) {
        if (map[i] < ZERO) {
            m |= 1u << map[i];
        }
    }
    return m;
}

/* Fields c[] (0: the least significant) to RGBA through the swizzle. */
static void swizzle_out(const SgxTexFormatInfo *f, unsigned swz,
                        unsigned gamma, float c[4], float rgba[4])
{
    const int8_t *map = sgx_tex_swizzle_map(f->comps, swz);
    unsigned g = gamma_fields(f, swz, gamma);

    for (int k = 0; k < 4; k++) {
        if ((g >> k) & 1) {
            c[k] = srgb_to_linear(c[k]);
        }
    }
    for (int i = 0; i < 4; i++) {
        rgba[i] = map[i] == ZERO ? 0.0f : map[i] == ONE ? 1.0f : c[map[i]];
    }
}

static void unpack(const SgxTexFormatInfo *f, unsigned swz, unsigned gamma,
                   uint64_t raw, float rgba[4])
{
    /* RGBA-order swizzles of four-field formats reverse the field widths
       (U1U5U5U5_ABGR, but U5U5U5U1_RGBA), as RGB does F11F11F10's */
    bool rev = sgx_tex_fields_reversed(f, swz);
    float c[4] = { 0, 0, 0, 0 };
    unsigned shift = 0;

    if (f->kind == K_SE5) {
        /* mantissas in bits 0..8, 9..17, 18..26 with no implicit one,
           the exponent (bias 15) in 27..31: as GL's RGB9_E5 */
        int e = (int)(raw >> 27) - 15 - 9;

        for (int k = 0; k < 3; k++) {
            c[k] = ldexpf((float)((raw >> (9 * k)) & 0x1ff), e);
        }
        swizzle_out(f, swz, gamma, c, rgba);
        return;
    }
    for (unsigned k = 0; k < f->nfield; k++) {
        unsigned bits = rev ? f->width[k] : f->width[f->nfield - 1 - k];
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;

        c[k] = field_value(f->kind, (raw >> shift) & mask, bits);
        shift += bits;
    }
    swizzle_out(f, swz, gamma, c, rgba);
}

void sgx_tex_fetch(const SgxTexture *t, const uint8_t *data,
                   const uint8_t *palette, unsigned face, unsigned level,
                   unsigned x, unsigned y, float rgba[4])
{
    uint64_t bit = sgx_tex_texel_bit(t, face, level, x, y);
    unsigned bytes = (t->bpp * t->block_w * t->block_h + 7) / 8;
    uint64_t raw;

    if (bit / 8 + bytes > t->size) {
        memset(rgba, 0, 4 * sizeof(float));     /* cannot happen */
        return;
    }
    if (sgx_tex_is_yuv(t)) {
        sgx_tex_yuv_texel(t, data, x, y, rgba);
        return;
    }
    if (sgx_tex_is_pvrt(t)) {
        float c[4];

        sgx_tex_pvrt_texel(t, data, face, level, x, y, c);
        swizzle_out(t->fmt, t->swizzle, t->gamma, c, rgba);
        return;
    }
    if (t->fmt->block) {
        float c[4];

        sgx_tex_block_texel(t->fmt->kind, data + bit / 8, x, y, c);
        swizzle_out(t->fmt, t->swizzle, t->gamma, c, rgba);
        return;
    }
    raw = sgx_tex_read_le(data + bit / 8, bytes);
    if (t->bpp < 8) {
        /* UNVERIFIED: the first texel in the low nibble */
        raw = (raw >> (bit & 7)) & ((1u << t->bpp) - 1);
    }
    if (t->fmt->kind == K_PAL) {
        uint64_t entry = 0;
        if (palette && (raw + 1) * 4 <= t->palette_size) {
            entry = sgx_tex_read_le(palette + raw * 4, 4);
        }
        unpack(&palette_entry, t->swizzle, t->gamma, entry, rgba);
        return;
    }
    unpack(t->fmt, t->swizzle, t->gamma, raw, rgba);
}
