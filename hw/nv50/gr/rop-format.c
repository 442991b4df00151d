/*
 * The render target formats of the ROP (rop.h): g80_defs.xml
 * G80_SURFACE_FORMAT as channels, and conversions between RGBA and the
 * stored bits (unorm, snorm, float 32/16/11/10, sint, uint, sRGB).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/half.h"
#include <math.h>
#include "rop.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define U NV50_ROP_UNORM
#define S NV50_ROP_SNORM
#define F NV50_ROP_FLOAT
#define I NV50_ROP_SINT
#define N NV50_ROP_UINT
#define R_ 0
#define G_ 1
#define B_ 2
#define A_ 3
#define X_ NV50_ROP_X

#define FMT(i, nm, b, k, n, b0, b1, b2, b3, c0, c1, c2, c3, sr) \
    { .id = (i), .name = (nm), .bpp = (b), .kind = (k), .nch = (n), \
      .bits = { b0, b1, b2, b3 }, .comp = { c0, c1, c2, c3 }, .srgb = (sr) }
#define C4(i, nm, b, k, w, c0, c1, c2, c3) \
    FMT(i, nm, b, k, 4, w, w, w, w, c0, c1, c2, c3, false)
#define C2(i, nm, b, k, w) FMT(i, nm, b, k, 2, w, w, 0, 0, R_, G_, 0, 0, false)
#define C1(i, nm, b, k, w) FMT(i, nm, b, k, 1, w, 0, 0, 0, R_, 0, 0, 0, false)

static const NV50RopFormat formats[] = {
    C4(0xc0, "RGBA32_FLOAT", 16, F, 32, R_, G_, B_, A_),
    C4(0xc1, "RGBA32_SINT", 16, I, 32, R_, G_, B_, A_),
    C4(0xc2, "RGBA32_UINT", 16, N, 32, R_, G_, B_, A_),
    C4(0xc3, "RGBX32_FLOAT", 16, F, 32, R_, G_, B_, X_),
    C4(0xc4, "RGBX32_SINT", 16, I, 32, R_, G_, B_, X_),
    C4(0xc5, "RGBX32_UINT", 16, N, 32, R_, G_, B_, X_),
    C4(0xc6, "RGBA16_UNORM", 8, U, 16, R_, G_, B_, A_),
    C4(0xc7, "RGBA16_SNORM", 8, S, 16, R_, G_, B_, A_),
    C4(0xc8, "RGBA16_SINT", 8, I, 16, R_, G_, B_, A_),
    C4(0xc9, "RGBA16_UINT", 8, N, 16, R_, G_, B_, A_),
    C4(0xca, "RGBA16_FLOAT", 8, F, 16, R_, G_, B_, A_),
    C2(0xcb, "RG32_FLOAT", 8, F, 32),
    C2(0xcc, "RG32_SINT", 8, I, 32),
    C2(0xcd, "RG32_UINT", 8, N, 32),
    C4(0xce, "RGBX16_FLOAT", 8, F, 16, R_, G_, B_, X_),
    C4(0xcf, "BGRA8_UNORM", 4, U, 8, B_, G_, R_, A_),
    FMT(0xd0, "BGRA8_SRGB", 4, U, 4, 8, 8, 8, 8, B_, G_, R_, A_, true),
    FMT(0xd1, "RGB10_A2_UNORM", 4, U, 4, 10, 10, 10, 2, R_, G_, B_, A_,
        false),
    FMT(0xd2, "RGB10_A2_UINT", 4, N, 4, 10, 10, 10, 2, R_, G_, B_, A_,
        false),
    C4(0xd5, "RGBA8_UNORM", 4, U, 8, R_, G_, B_, A_),
    FMT(0xd6, "RGBA8_SRGB", 4, U, 4, 8, 8, 8, 8, R_, G_, B_, A_, true),
    C4(0xd7, "RGBA8_SNORM", 4, S, 8, R_, G_, B_, A_),
    C4(0xd8, "RGBA8_SINT", 4, I, 8, R_, G_, B_, A_),
    C4(0xd9, "RGBA8_UINT", 4, N, 8, R_, G_, B_, A_),
    C2(0xda, "RG16_UNORM", 4, U, 16),
    C2(0xdb, "RG16_SNORM", 4, S, 16),
    C2(0xdc, "RG16_SINT", 4, I, 16),
    C2(0xdd, "RG16_UINT", 4, N, 16),
    C2(0xde, "RG16_FLOAT", 4, F, 16),
    FMT(0xdf, "BGR10_A2_UNORM", 4, U, 4, 10, 10, 10, 2, B_, G_, R_, A_,
        false),
    FMT(0xe0, "R11G11B10_FLOAT", 4, F, 3, 11, 11, 10, 0, R_, G_, B_, 0,
        false),
    C1(0xe3, "R32_SINT", 4, I, 32),
    C1(0xe4, "R32_UINT", 4, N, 32),
    C1(0xe5, "R32_FLOAT", 4, F, 32),
    C4(0xe6, "BGRX8_UNORM", 4, U, 8, B_, G_, R_, X_),
    FMT(0xe7, "BGRX8_SRGB", 4, U, 4, 8, 8, 8, 8, B_, G_, R_, X_, true),
    FMT(0xe8, "B5G6R5_UNORM", 2, U, 3, 5, 6, 5, 0, B_, G_, R_, 0, false),
    FMT(0xe9, "BGR5_A1_UNORM", 2, U, 4, 5, 5, 5, 1, B_, G_, R_, A_, false),
    C2(0xea, "RG8_UNORM", 2, U, 8),
    C2(0xeb, "RG8_SNORM", 2, S, 8),
    C2(0xec, "RG8_SINT", 2, I, 8),
    C2(0xed, "RG8_UINT", 2, N, 8),
    C1(0xee, "R16_UNORM", 2, U, 16),
    C1(0xef, "R16_SNORM", 2, S, 16),
    C1(0xf0, "R16_SINT", 2, I, 16),
    C1(0xf1, "R16_UINT", 2, N, 16),
    C1(0xf2, "R16_FLOAT", 2, F, 16),
    C1(0xf3, "R8_UNORM", 1, U, 8),
    C1(0xf4, "R8_SNORM", 1, S, 8),
    C1(0xf5, "R8_SINT", 1, I, 8),
    C1(0xf6, "R8_UINT", 1, N, 8),
    FMT(0xf7, "A8_UNORM", 1, U, 1, 8, 0, 0, 0, A_, 0, 0, 0, false),
    FMT(0xf8, "BGR5_X1_UNORM", 2, U, 4, 5, 5, 5, 1, B_, G_, R_, X_, false),
    C4(0xf9, "RGBX8_UNORM", 4, U, 8, R_, G_, B_, X_),
    FMT(0xfa, "RGBX8_SRGB", 4, U, 4, 8, 8, 8, 8, R_, G_, B_, X_, true),
    /* UNVERIFIED: the UNK variants store as their namesakes */
    FMT(0xfb, "BGR5_X1_UNORM_UNKFB", 2, U, 4, 5, 5, 5, 1, B_, G_, R_, X_,
        false),
    FMT(0xfc, "BGR5_X1_UNORM_UNKFC", 2, U, 4, 5, 5, 5, 1, B_, G_, R_, X_,
        false),
    C4(0xfd, "BGRX8_UNORM_UNKFD", 4, U, 8, B_, G_, R_, X_),
    C4(0xfe, "BGRX8_UNORM_UNKFE", 4, U, 8, B_, G_, R_, X_),
};

const NV50RopFormat *nv50_rop_format(uint32_t id)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(formats); i++) {
        if (formats[i].id == id) {
            return &formats[i];
        }
    }
    return NULL;
}

bool nv50_rop_format_named(uint32_t id)
{
    /* BITMAP, UNK1D, Y32_UINT_UNKFF: named, not modelled */
    return nv50_rop_format(id) || id == 0x1c || id == 0x1d || id == 0xff;
}

/* --- small floats --- */

/*
 * An unsigned float of @mbits mantissa bits and a 5-bit exponent (bias
 * 15), round to nearest even; negatives and NaN's sign go to 0, NaN
 * stays NaN, overflow goes to infinity (the D3D10 R11G11B10 rules).
 */
static uint32_t float_to_uf(float f, unsigned mbits)
{
    uint32_t u = f32_to_bits(f), exp_max = 0x1f << mbits;
    int e;
    uint32_t m;

    if (isnan(f)) {
        return exp_max | 1;
    }
    if (f <= 0) {
        return 0;
    }
    if (isinf(f)) {
        return exp_max;
    }
    e = (int)((u >> 23) & 0xff) - 127 + 15;
    m = (u & 0x7fffff) | 0x800000;           /* 24 bits, 1.23 */
    if (e <= 0) {
        /* denormal: value = m * 2^(e - 1 - 23) in units of 2^(-14-mbits) */
        unsigned sh = 23 - mbits + 1 - e;
        uint32_t r;

        if (sh > 24) {
            return 0;
        }
        r = m >> sh;
        if ((m & ((1u << sh) - 1)) > (1u << (sh - 1)) ||
            ((m & ((1u << sh) - 1)) == (1u << (sh - 1)) && (r & 1))) {
            r++;
        }
        return r;           /* may round up into the smallest normal */
    }
    {
        unsigned sh = 23 - mbits;
        uint32_t r = m >> sh, rem = m & ((1u << sh) - 1);
        uint32_t v;

        if (rem > (1u << (sh - 1)) || (rem == (1u << (sh - 1)) && (r & 1))) {
            r++;
        }
        if (r >> (mbits + 1)) {
            r >>= 1;
            e++;
        }
        if (e >= 31) {
            return exp_max;
        }
        v = ((uint32_t)e << mbits) | (r & ((1u << mbits) - 1));
        return v;
    }
}

static float uf_to_float(uint32_t v, unsigned mbits)
{
    uint32_t e = v >> mbits, m = v & ((1u << mbits) - 1);

    if (e == 0x1f) {
        return m ? NAN : INFINITY;
    }
    if (e == 0) {
        return ldexpf((float)m, -14 - (int)mbits);
    }
    return ldexpf((float)(m | (1u << mbits)), (int)e - 15 - (int)mbits);
}

/* --- sRGB --- */

float nv50_rop_srgb_encode(float l)
{
    if (!(l > 0)) {
        return 0;
    }
    if (l >= 1) {
        return 1;
    }
    if (l < 0.0031308f) {
        return l * 12.92f;
    }
    return 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

float nv50_rop_srgb_decode(float s)
{
    if (s <= 0.04045f) {
        return s / 12.92f;
    }
    return powf((s + 0.055f) / 1.055f, 2.4f);
}

/* --- channels --- */

/* @v to a UNORM channel of all-ones @mask: clamped, rounded to nearest */
static inline uint32_t encode_unorm(float v, uint32_t mask)
{
    if (!(v > 0)) {
        return 0;
    }
    if (v >= 1) {
        return mask;
    }
    /* floor of a positive value: the conversion's truncation */
    return (uint32_t)(v * mask + 0.5f);
}

static uint32_t encode_ch(const NV50RopFormat *f, unsigned ch, float v)
{
    unsigned bits = f->bits[ch];
    uint32_t mask = nv50_rop_ch_mask(f, ch);
    int64_t iv;

    switch (f->kind) {
    case NV50_ROP_UNORM:
        return encode_unorm(v, mask);
    case NV50_ROP_SNORM: {
        int32_t max = (1 << (bits - 1)) - 1;

        if (isnan(v)) {
            return 0;
        }
        v = MIN(MAX(v, -1.0f), 1.0f);
        return (uint32_t)(int32_t)lrintf(v * max) & mask;
    }
    case NV50_ROP_FLOAT:
        switch (bits) {
        case 32:
            return f32_to_bits(v);
        case 16:
            return gemu_float_to_half(v);
        default:
            return float_to_uf(v, bits - 5);
        }
    case NV50_ROP_SINT:
        iv = (int32_t)f32_to_bits(v);
        if (bits < 32) {
            iv = MIN(MAX(iv, -(1ll << (bits - 1))), (1ll << (bits - 1)) - 1);
        }
        return (uint32_t)iv & mask;
    case NV50_ROP_UINT:
        return MIN(f32_to_bits(v), mask);
    }
    return 0;
}

static float decode_ch(const NV50RopFormat *f, unsigned ch, uint32_t raw)
{
    unsigned bits = f->bits[ch];
    uint32_t mask = nv50_rop_ch_mask(f, ch);
    int32_t sv;

    switch (f->kind) {
    case NV50_ROP_UNORM:
        return (float)raw / (float)mask;
    case NV50_ROP_SNORM:
        sv = (int32_t)(raw << (32 - bits)) >> (32 - bits);
        return MAX((float)sv / (float)((1 << (bits - 1)) - 1), -1.0f);
    case NV50_ROP_FLOAT:
        switch (bits) {
        case 32:
            return bits_to_f32(raw);
        case 16:
            return gemu_half_to_float(raw);
        default:
            return uf_to_float(raw, bits - 5);
        }
    case NV50_ROP_SINT:
        sv = bits < 32 ? (int32_t)(raw << (32 - bits)) >> (32 - bits)
                       : (int32_t)raw;
        return bits_to_f32((uint32_t)sv);
    case NV50_ROP_UINT:
        return bits_to_f32(raw);
    }
    return 0;
}

static bool is_int(const NV50RopFormat *f)
{
    return f->kind == NV50_ROP_SINT || f->kind == NV50_ROP_UINT;
}

void nv50_rop_encode(const NV50RopFormat *f, const float rgba[4],
                     uint32_t raw[4])
{
    for (unsigned ch = 0; ch < f->nch; ch++) {
        unsigned comp = f->comp[ch];
        float v;

        if (comp == NV50_ROP_X) {
            v = is_int(f) ? bits_to_f32(1) : 1.0f;
        } else {
            v = rgba[comp];
            if (f->srgb && comp < 3) {
                v = nv50_rop_srgb_encode(v);
            }
        }
        raw[ch] = encode_ch(f, ch, v);
    }
}

bool nv50_rop_is_unorm8x4(const NV50RopFormat *f)
{
    return f->kind == NV50_ROP_UNORM && f->bpp == 4 && f->nch == 4 &&
           !f->srgb && f->bits[0] == 8 && f->bits[1] == 8 &&
           f->bits[2] == 8 && f->bits[3] == 8;
}

uint32_t nv50_rop_unorm8x4(const NV50RopFormat *f, const float rgba[4])
{
    uint32_t w = 0;
#ifdef __SSE2__
    /* the loop below, the four channels at once: MAXPS/MINPS take the
       second operand unless the first is greater/less, so NaN and v <= 0
       become 0 and v >= 1 becomes 1, as there; then the same product and
       sum, the lanes packed (saturating, in range already) as bytes */
    __m128 v = _mm_loadu_ps(rgba);
    __m128i i;
    uint32_t rgba8;

    v = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    v = _mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f));
    i = _mm_cvttps_epi32(v);
    i = _mm_packs_epi32(i, i);
    i = _mm_packus_epi16(i, i);
    rgba8 = (uint32_t)_mm_cvtsi128_si32(i);
    /* the channels' order (f->comp as a word): the common ones first */
    switch (ldn_le_p(f->comp, 4)) {
    case 0x03020100:                    /* RGBA */
        return rgba8;
    case 0x04020100:                    /* RGBX */
        return rgba8 | 0xff000000u;
    case 0x03000102:                    /* BGRA */
    case 0x04000102:                    /* BGRX */
        w = (rgba8 & 0xff00ff00u) | (rgba8 >> 16 & 0xff) |
            (rgba8 & 0xff) << 16;
        return f->comp[3] == NV50_ROP_X ? w | 0xff000000u : w;
    }
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned comp = f->comp[ch];

        w |= (comp == NV50_ROP_X ? 0xffu : (rgba8 >> (8 * comp)) & 0xff)
             << (8 * ch);
    }
#else
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned comp = f->comp[ch];
        float v = comp == NV50_ROP_X ? 1.0f : rgba[comp];

        /* encode_unorm without branches: NaN and v <= 0 to 0, v >= 1 to
           1 (then 255.5, truncated to 255) */
        v = v > 0 ? v : 0.0f;
        v = v < 1 ? v : 1.0f;
        w |= (uint32_t)(int32_t)(v * 255 + 0.5f) << (8 * ch);
    }
#endif
    return w;
}

#ifdef __SSE2__
/* nv50_rop_unorm8x4's steps for a colour, its channels as 32-bit lanes */
static inline __m128i unorm8_lanes(const float rgba[4])
{
    __m128 c = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(rgba), _mm_setzero_ps()),
                          _mm_set1_ps(1.0f));

    return _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(c, _mm_set1_ps(255.0f)),
                                       _mm_set1_ps(0.5f)));
}
#endif

void nv50_rop_unorm8x4_quad(const NV50RopFormat *f, const float col[4][4],
                            uint32_t w[4])
{
#ifdef __SSE2__
    /* nv50_rop_unorm8x4's steps, a colour a vector, the words packed
       together; then its orders a word a lane */
    __m128i v;
    uint32_t order = ldn_le_p(f->comp, 4);
    /* (four names, not an array: a loop over one went through the
       stack) */
    __m128i i0 = unorm8_lanes(col[0]), i1 = unorm8_lanes(col[1]);
    __m128i i2 = unorm8_lanes(col[2]), i3 = unorm8_lanes(col[3]);

    v = _mm_packus_epi16(_mm_packs_epi32(i0, i1), _mm_packs_epi32(i2, i3));
    switch (order) {
    case 0x03020100:                    /* RGBA */
        break;
    case 0x04020100:                    /* RGBX */
        v = _mm_or_si128(v, _mm_set1_epi32((int)0xff000000u));
        break;
    case 0x03000102:                    /* BGRA */
    case 0x04000102:                    /* BGRX */
        v = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(v, _mm_set1_epi32((int)0xff00ff00u)),
                         _mm_and_si128(_mm_srli_epi32(v, 16),
                                       _mm_set1_epi32(0xff))),
            _mm_slli_epi32(_mm_and_si128(v, _mm_set1_epi32(0xff)), 16));
        if (f->comp[3] == NV50_ROP_X) {
            v = _mm_or_si128(v, _mm_set1_epi32((int)0xff000000u));
        }
        break;
    default:
        for (unsigned p = 0; p < 4; p++) {
            w[p] = nv50_rop_unorm8x4(f, col[p]);
        }
        return;
    }
    _mm_storeu_si128((__m128i *)w, v);
#else
    for (unsigned p = 0; p < 4; p++) {
        w[p] = nv50_rop_unorm8x4(f, col[p]);
    }
#endif
}

void nv50_rop_decode(const NV50RopFormat *f, const uint32_t raw[4],
                     float rgba[4])
{
    bool ints = is_int(f);

    rgba[0] = rgba[1] = rgba[2] = ints ? bits_to_f32(0) : 0.0f;
    rgba[3] = ints ? bits_to_f32(1) : 1.0f;
    for (unsigned ch = 0; ch < f->nch; ch++) {
        unsigned comp = f->comp[ch];
        float v;

        if (comp == NV50_ROP_X) {
            continue;
        }
        v = decode_ch(f, ch, raw[ch]);
        if (f->srgb && comp < 3) {
            v = nv50_rop_srgb_decode(v);
        }
        rgba[comp] = v;
    }
}

void nv50_rop_pack(const NV50RopFormat *f, const uint32_t raw[4],
                   uint8_t *elem)
{
    if (f->bpp > 4) {
        /* 16- or 32-bit channels, each at its own bytes */
        unsigned bytes = f->bits[0] / 8;

        for (unsigned ch = 0; ch < f->nch; ch++) {
            stn_le_p(elem + ch * bytes, bytes, raw[ch]);
        }
        return;
    }
    {
        uint32_t w = 0;
        unsigned sh = 0;

        for (unsigned ch = 0; ch < f->nch; ch++) {
            w |= (raw[ch] & nv50_rop_ch_mask(f, ch)) << sh;
            sh += f->bits[ch];
        }
        stn_le_p(elem, f->bpp, w);
    }
}

void nv50_rop_unpack(const NV50RopFormat *f, const uint8_t *elem,
                     uint32_t raw[4])
{
    if (f->bpp > 4) {
        unsigned bytes = f->bits[0] / 8;

        for (unsigned ch = 0; ch < f->nch; ch++) {
            raw[ch] = (uint32_t)ldn_le_p(elem + ch * bytes, bytes);
        }
        return;
    }
    {
        uint32_t w = (uint32_t)ldn_le_p(elem, f->bpp);
        unsigned sh = 0;

        for (unsigned ch = 0; ch < f->nch; ch++) {
            raw[ch] = f->bits[ch] >= 32 ? w : (w >> sh) &
                      nv50_rop_ch_mask(f, ch);
            sh += f->bits[ch];
        }
    }
}
