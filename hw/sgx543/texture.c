/*
 * SGX543 textures: SceGxmTexture control words, layouts, texel formats
 * and the sampler (include/hw/sgx543/texture.h).  Pure functions of
 * their arguments.
 *
 * Facts used (sources in texture.h):
 * - the word layout: w0 address modes V [5:3] and U [8:6], mip filter
 *   [9], min filter [11:10], mag filter [13:12], mip count - 1 [20:17]
 *   (15: no chain), LOD bias [26:21] as (v - 31) / 8, gamma [28:27],
 *   format bit 31 [31]; w1 height - 1 [11:0], width - 1 [23:12] (log2
 *   sizes in [3:0] and [19:16] for swizzled and cube textures), base
 *   format [28:24], type [31:29]; w2 data address [31:2], lod_min [1:0];
 *   w3 palette address / 64 [25:0], lod_min [27:26], swizzle [30:28],
 *   normalize [31].  LINEAR_STRIDED keeps (stride / 4 - 1) in w0
 *   [11:9] and [26:17] and uses the mag filter for both.
 * - layouts: linear rows are 8-texel aligned; tiled textures are 32x32
 *   texel tiles (1 KiB-texel blocks), row-major, each tile row-major;
 *   swizzled textures are Morton (Z) order in squares of the smaller
 *   dimension, y in the even bits and x in the odd ones, the squares
 *   following each other along the larger dimension; arbitrary ones
 *   round their sizes up to powers of two.  A mip chain follows level 0;
 *   each level spans (power-of-two layout size, aligned as above) and the
 *   layout halves per level (a linear texture without a chain is packed
 *   at its real size).  Cube faces hold a whole chain each, aligned to
 *   2 KiB for large faces, else 4 bytes.  Palettes: 32-bit entries at the
 *   palette address.
 *
 * UNVERIFIED (gemu's choices): which of 2/4 component formats fill the
 * missing channels with 0 and 1 (here as GL: B = 0, A = 1), the order
 * of P4 nibbles (low nibble first), the border colour (transparent
 * black), MIPMAP_POINT/LINEAR filters acting as POINT/LINEAR, the mip
 * filter bit choosing linear blending between levels (else the nearest
 * level), cube face order and orientation (GL's), the order of explicit
 * gradients (dx then dy), normalize mode (integer formats always read as
 * normalised), gamma (ignored, logged).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/sgx543/texture.h"
#include "target/usse/exec.h"

#include <math.h>

enum { K_UNORM, K_SNORM, K_F16, K_F32, K_F32M, K_PAL };

struct SgxTexFormatInfo {
    const char *name;
    uint8_t code;           /* SgxTexBase */
    uint8_t bpp;
    uint8_t comps;          /* swizzle class: 1..4 components */
    uint8_t kind;
    uint8_t nfield;
    uint8_t width[4];       /* field widths, most significant first */
};

static const SgxTexFormatInfo formats[] = {
    { "U8", SGX_TEXB_U8, 8, 1, K_UNORM, 1, { 8 } },
    { "S8", SGX_TEXB_S8, 8, 1, K_SNORM, 1, { 8 } },
    { "U4U4U4U4", SGX_TEXB_U4U4U4U4, 16, 4, K_UNORM, 4, { 4, 4, 4, 4 } },
    { "U1U5U5U5", SGX_TEXB_U1U5U5U5, 16, 4, K_UNORM, 4, { 1, 5, 5, 5 } },
    { "U5U6U5", SGX_TEXB_U5U6U5, 16, 3, K_UNORM, 3, { 5, 6, 5 } },
    { "U8U8", SGX_TEXB_U8U8, 16, 2, K_UNORM, 2, { 8, 8 } },
    { "S8S8", SGX_TEXB_S8S8, 16, 2, K_SNORM, 2, { 8, 8 } },
    { "U16", SGX_TEXB_U16, 16, 1, K_UNORM, 1, { 16 } },
    { "S16", SGX_TEXB_S16, 16, 1, K_SNORM, 1, { 16 } },
    { "F16", SGX_TEXB_F16, 16, 1, K_F16, 1, { 16 } },
    { "U8U8U8U8", SGX_TEXB_U8U8U8U8, 32, 4, K_UNORM, 4, { 8, 8, 8, 8 } },
    { "S8S8S8S8", SGX_TEXB_S8S8S8S8, 32, 4, K_SNORM, 4, { 8, 8, 8, 8 } },
    { "U2U10U10U10", SGX_TEXB_U2U10U10U10, 32, 4, K_UNORM, 4,
      { 2, 10, 10, 10 } },
    { "U16U16", SGX_TEXB_U16U16, 32, 2, K_UNORM, 2, { 16, 16 } },
    { "S16S16", SGX_TEXB_S16S16, 32, 2, K_SNORM, 2, { 16, 16 } },
    { "F16F16", SGX_TEXB_F16F16, 32, 2, K_F16, 2, { 16, 16 } },
    { "F32", SGX_TEXB_F32, 32, 1, K_F32, 1, { 32 } },
    { "F32M", SGX_TEXB_F32M, 32, 1, K_F32M, 1, { 32 } },
    { "F16F16F16F16", SGX_TEXB_F16F16F16F16, 64, 4, K_F16, 4,
      { 16, 16, 16, 16 } },
    { "U16U16U16U16", SGX_TEXB_U16U16U16U16, 64, 4, K_UNORM, 4,
      { 16, 16, 16, 16 } },
    { "S16S16S16S16", SGX_TEXB_S16S16S16S16, 64, 4, K_SNORM, 4,
      { 16, 16, 16, 16 } },
    { "F32F32", SGX_TEXB_F32F32, 64, 2, K_F32, 2, { 32, 32 } },
    { "P4", SGX_TEXB_P4, 4, 4, K_PAL, 1, { 4 } },
    { "P8", SGX_TEXB_P8, 8, 4, K_PAL, 1, { 8 } },
    { "U8U8U8", SGX_TEXB_U8U8U8, 24, 3, K_UNORM, 3, { 8, 8, 8 } },
    { "S8S8S8", SGX_TEXB_S8S8S8, 24, 3, K_SNORM, 3, { 8, 8, 8 } },
};

/* A palette entry: U8U8U8U8 with the texture's swizzle */
static const SgxTexFormatInfo palette_entry = {
    "U8U8U8U8", SGX_TEXB_U8U8U8U8, 32, 4, K_UNORM, 4, { 8, 8, 8, 8 },
};

/*
 * Swizzles: for output R, G, B, A, the field (0 = least significant)
 * or a constant.  The names read the output A B G R left to right for
 * four letters; shorter names list the fields most significant first.
 */
#define ZERO    4
#define ONE     5

static const int8_t swizzle1[8][4] = {
    { 0, ZERO, ZERO, ONE },     /* R (UNVERIFIED: G, B = 0, A = 1) */
    { 0, ZERO, ZERO, ZERO },    /* 000R */
    { 0, ONE, ONE, ONE },       /* 111R */
    { 0, 0, 0, 0 },             /* RRRR */
    { 0, 0, 0, ZERO },          /* 0RRR */
    { 0, 0, 0, ONE },           /* 1RRR */
    { ZERO, ZERO, ZERO, 0 },    /* R000 */
    { ONE, ONE, ONE, 0 },       /* R111 */
};
static const int8_t swizzle2[6][4] = {
    { 0, 1, ZERO, ONE },        /* GR (UNVERIFIED: B = 0, A = 1) */
    { 0, 1, ZERO, ZERO },       /* 00GR */
    { 0, 0, 0, 1 },             /* GRRR */
    { 1, 1, 1, 0 },             /* RGGG */
    { 0, 1, 0, 1 },             /* GRGR */
    { 1, 0, ZERO, ZERO },       /* 00RG */
};
static const int8_t swizzle3[2][4] = {
    { 0, 1, 2, ONE },           /* BGR */
    { 2, 1, 0, ONE },           /* RGB */
};
static const int8_t swizzle4[8][4] = {
    { 0, 1, 2, 3 },             /* ABGR */
    { 2, 1, 0, 3 },             /* ARGB */
    { 3, 2, 1, 0 },             /* RGBA */
    { 1, 2, 3, 0 },             /* BGRA */
    { 0, 1, 2, ONE },           /* 1BGR */
    { 2, 1, 0, ONE },           /* 1RGB */
    { 3, 2, 1, ONE },           /* RGB1 */
    { 1, 2, 3, ONE },           /* BGR1 */
};

static const char *const swizzle_names[4][8] = {
    { "R", "000R", "111R", "RRRR", "0RRR", "1RRR", "R000", "R111" },
    { "GR", "00GR", "GRRR", "RGGG", "GRGR", "00RG" },
    { "BGR", "RGB" },
    { "ABGR", "ARGB", "RGBA", "BGRA", "1BGR", "1RGB", "RGB1", "BGR1" },
};
static const unsigned swizzle_count[4] = { 8, 6, 2, 8 };

static const SgxTexFormatInfo *format_info(unsigned code)
{
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        if (formats[i].code == code) {
            return &formats[i];
        }
    }
    return NULL;
}

static const int8_t *swizzle_map(unsigned comps, unsigned swz)
{
    switch (comps) {
    case 1:
        return swizzle1[swz];
    case 2:
        return swizzle2[swz];
    case 3:
        return swizzle3[swz];
    default:
        return swizzle4[swz];
    }
}

uint32_t sgx_pow2ceil(uint32_t v)
{
    uint32_t p = 1;

    while (p < v) {
        p <<= 1;
    }
    return p;
}

static unsigned bit_width(unsigned v)
{
    unsigned n = 0;

    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* ---- decoding the words ---- */

unsigned sgx_tex_level_width(const SgxTexture *t, unsigned level)
{
    return MAX(t->width >> level, 1u);
}

unsigned sgx_tex_level_height(const SgxTexture *t, unsigned level)
{
    return MAX(t->height >> level, 1u);
}

static bool is_cube(const SgxTexture *t)
{
    return t->type == SGX_TEXTYPE_CUBE
           || t->type == SGX_TEXTYPE_CUBE_ARBITRARY;
}

bool sgx_tex_decode(const uint32_t w[4], SgxTexture *t, const char **why)
{
    unsigned field = SGX_TEXW0_MIP_COUNT(w[0]);
    unsigned lw0, lh0, aw = 1, ah = 1, chain, maxlev;
    uint64_t off = 0;
    bool packed;

    memset(t, 0, sizeof(*t));
    t->type = SGX_TEXW1_TYPE(w[1]);
    t->base = SGX_TEXW0_FORMAT0(w[0]) << 5 | SGX_TEXW1_BASE_FORMAT(w[1]);
    t->swizzle = SGX_TEXW3_SWIZZLE(w[3]);
    t->fmt = format_info(t->base);
    if (t->type == 1) {
        *why = "texture type 1 is not defined";
        return false;
    }
    if (!t->fmt) {
        *why = "base format not supported (compressed, YUV, packed "
               "float or 32-bit integer)";
        return false;
    }
    if (t->swizzle >= swizzle_count[t->fmt->comps - 1]) {
        *why = "swizzle not defined for the base format";
        return false;
    }
    t->bpp = t->fmt->bpp;
    if (t->type == SGX_TEXTYPE_SWIZZLED || t->type == SGX_TEXTYPE_CUBE) {
        unsigned wl = SGX_TEXW1_WIDTH_LOG2(w[1]);
        unsigned hl = SGX_TEXW1_HEIGHT_LOG2(w[1]);

        if (wl > 12 || hl > 12) {
            *why = "swizzled texture larger than 4096";
            return false;
        }
        t->width = 1u << wl;
        t->height = 1u << hl;
    } else {
        t->width = SGX_TEXW1_WIDTH(w[1]) + 1;
        t->height = SGX_TEXW1_HEIGHT(w[1]) + 1;
    }
    if (is_cube(t) && t->width != t->height) {
        *why = "cube faces must be square";
        return false;
    }
    t->data = SGX_TEXW2_DATA(w[2]);
    if (!t->data) {
        *why = "no data address";
        return false;
    }
    if (t->fmt->kind == K_PAL) {
        t->palette = SGX_TEXW3_PALETTE(w[3]);
        t->palette_size = t->base == SGX_TEXB_P4 ? 16 * 4 : 256 * 4;
        if (!t->palette) {
            *why = "paletted texture without a palette";
            return false;
        }
    }
    t->addr_u = SGX_TEXW0_UADDR(w[0]);
    t->addr_v = SGX_TEXW0_VADDR(w[0]);
    if (t->type == SGX_TEXTYPE_LINEAR_STRIDED) {
        t->min_filter = t->mag_filter = SGX_TEXW0_MAG_FILTER(w[0]);
        t->stride = (SGX_TEXW0_STRIDE(w[0]) + 1) * 4;
        t->levels = 1;
        if ((uint64_t)t->stride * 8 < (uint64_t)t->width * t->bpp) {
            *why = "stride shorter than a row";
            return false;
        }
        t->level_offset[0] = 0;
        t->size = (uint64_t)t->stride * (t->height - 1)
                  + ((uint64_t)t->width * t->bpp + 7) / 8;
        t->lod_bias = 0.0f;
        return true;
    }
    t->min_filter = SGX_TEXW0_MIN_FILTER(w[0]);
    t->mag_filter = SGX_TEXW0_MAG_FILTER(w[0]);
    t->mip_linear = SGX_TEXW0_MIP_FILTER(w[0]);
    t->lod_bias = ((int)SGX_TEXW0_LOD_BIAS(w[0]) - 31) / 8.0f;
    t->lod_min = SGX_TEXW2_LOD_MIN0(w[2]) | SGX_TEXW3_LOD_MIN1(w[3]) << 2;
    if (SGX_TEXW0_GAMMA(w[0])) {
        gemu_log_once(LOG_UNIMP, "sgx543-gamma", 0,
                      "sgx543: texture gamma modes are ignored\n");
    }

    /* the mip chain (Vita3K renderer/src/texture/cache.cpp facts) */
    maxlev = bit_width(MIN(t->width, t->height));
    t->levels = field == 15 ? 1 : MIN(field + 1, maxlev);
    packed = t->type == SGX_TEXTYPE_LINEAR && field == 15;
    lw0 = packed ? t->width : sgx_pow2ceil(t->width);
    lh0 = packed ? t->height : sgx_pow2ceil(t->height);
    if (t->type == SGX_TEXTYPE_LINEAR) {
        aw = 8;
    } else if (t->type == SGX_TEXTYPE_TILED) {
        aw = ah = 32;
    }
    chain = is_cube(t) && field != 15 ? bit_width(MIN(lw0, lh0))
                                      : t->levels;
    for (unsigned l = 0; l < chain; l++) {
        uint64_t texels = align_up(MAX(lw0 >> l, 1u), aw)
                          * align_up(MAX(lh0 >> l, 1u), ah);
        if (l < t->levels) {
            t->level_offset[l] = off;
        }
        off += (texels * t->bpp + 7) / 8;
    }
    if (is_cube(t)) {
        unsigned a = 4;
        if (field != 15
            && ((t->width >= 32 && t->bpp <= 8)
                || (t->width >= 16 && (t->bpp == 16 || t->bpp == 32))
                || (t->width >= 8 && t->bpp == 64))) {
            a = 2048;
        }
        t->face_size = align_up(off, a);
        t->size = 5 * t->face_size + off;
    } else if (packed) {
        /* the last row need not be padded */
        t->size = ((uint64_t)align_up(t->width, 8) * (t->height - 1)
                   * t->bpp + (uint64_t)t->width * t->bpp + 7) / 8;
    } else {
        t->size = off;
    }
    return true;
}

/* ---- addressing ---- */

static uint64_t spread_bits(uint32_t v)
{
    uint64_t x = v & 0xffff;

    x = (x | x << 8) & 0x00ff00ffu;
    x = (x | x << 4) & 0x0f0f0f0fu;
    x = (x | x << 2) & 0x33333333u;
    x = (x | x << 1) & 0x55555555u;
    return x;
}

uint64_t sgx_tiled_index(uint32_t x, uint32_t y, uint32_t tiles_w)
{
    return ((uint64_t)(x >> 5) + (uint64_t)tiles_w * (y >> 5)) << 10
           | (y & 31) << 5 | (x & 31);
}

uint64_t sgx_swizzled_index(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    /* Morton order in squares of the smaller side */
    unsigned sw = sgx_pow2ceil(w), sh = sgx_pow2ceil(h);
    unsigned m = MIN(sw, sh), k = bit_width(m) - 1;

    return spread_bits(y & (m - 1)) | spread_bits(x & (m - 1)) << 1
           | (uint64_t)((sw >= sh ? x : y) >> k) << (2 * k);
}

uint64_t sgx_tex_texel_bit(const SgxTexture *t, unsigned face,
                           unsigned level, unsigned x, unsigned y)
{
    uint64_t base = (face * t->face_size + t->level_offset[level]) * 8;
    unsigned lw = sgx_tex_level_width(t, level);
    unsigned lh = sgx_tex_level_height(t, level);
    uint64_t idx;

    switch (t->type) {
    case SGX_TEXTYPE_LINEAR_STRIDED:
        return base + (uint64_t)y * t->stride * 8 + (uint64_t)x * t->bpp;
    case SGX_TEXTYPE_LINEAR:
        idx = (uint64_t)y * align_up(lw, 8) + x;
        break;
    case SGX_TEXTYPE_TILED:
        idx = sgx_tiled_index(x, y, align_up(lw, 32) / 32);
        break;
    default:
        idx = sgx_swizzled_index(x, y, lw, lh);
        break;
    }
    return base + idx * t->bpp;
}

int sgx_tex_wrap(SgxTexAddr mode, int i, int n)
{
    switch (mode) {
    case SGX_TEX_CLAMP:
    case SGX_TEX_CLAMP_IGNORE_BORDER:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    case SGX_TEX_MIRROR: {
        int p = i % (2 * n);
        if (p < 0) {
            p += 2 * n;
        }
        return p < n ? p : 2 * n - 1 - p;
    }
    case SGX_TEX_MIRROR_CLAMP:
        /* mirrored once about 0, then clamped */
        if (i < 0) {
            i = -1 - i;
        }
        return i >= n ? n - 1 : i;
    case SGX_TEX_CLAMP_FULL_BORDER:
    case SGX_TEX_CLAMP_HALF_BORDER:
        /* UNVERIFIED: the border colour is transparent black */
        return i < 0 || i >= n ? -1 : i;
    default:                /* REPEAT, REPEAT_IGNORE_BORDER */
        return ((i % n) + n) % n;
    }
}

/* ---- texels ---- */

static float field_value(unsigned kind, uint64_t v, unsigned bits)
{
    switch (kind) {
    case K_SNORM: {
        int64_t s = (int64_t)(v << (64 - bits)) >> (64 - bits);
        return fmaxf((float)s / (float)((1ull << (bits - 1)) - 1), -1.0f);
    }
    case K_F16:
        return usse_f16_to_f32(v);
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

static void unpack(const SgxTexFormatInfo *f, unsigned swz, uint64_t raw,
                   float rgba[4])
{
    /* RGBA-order swizzles of four-field formats reverse the field widths
       (U1U5U5U5_ABGR, but U5U5U5U1_RGBA) */
    bool rev = f->comps == 4 && (swz & 2);
    const int8_t *map = swizzle_map(f->comps, swz);
    float c[4] = { 0, 0, 0, 0 };
    unsigned shift = 0;

    for (unsigned k = 0; k < f->nfield; k++) {
        unsigned bits = rev ? f->width[k] : f->width[f->nfield - 1 - k];
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;

        c[k] = field_value(f->kind, (raw >> shift) & mask, bits);
        shift += bits;
    }
    for (int i = 0; i < 4; i++) {
        rgba[i] = map[i] == ZERO ? 0.0f : map[i] == ONE ? 1.0f : c[map[i]];
    }
}

static uint64_t read_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

void sgx_tex_fetch(const SgxTexture *t, const uint8_t *data,
                   const uint8_t *palette, unsigned face, unsigned level,
                   unsigned x, unsigned y, float rgba[4])
{
    uint64_t bit = sgx_tex_texel_bit(t, face, level, x, y);
    unsigned bytes = (t->bpp + 7) / 8;
    uint64_t raw;

    if (bit / 8 + bytes > t->size) {
        memset(rgba, 0, 4 * sizeof(float));     /* cannot happen */
        return;
    }
    raw = read_le(data + bit / 8, bytes);
    if (t->bpp < 8) {
        /* UNVERIFIED: the first texel in the low nibble */
        raw = (raw >> (bit & 7)) & ((1u << t->bpp) - 1);
    }
    if (t->fmt->kind == K_PAL) {
        uint64_t entry = 0;
        if (palette && (raw + 1) * 4 <= t->palette_size) {
            entry = read_le(palette + raw * 4, 4);
        }
        unpack(&palette_entry, t->swizzle, entry, rgba);
        return;
    }
    unpack(t->fmt, t->swizzle, raw, rgba);
}

/* ---- sampling ---- */

/* GL's cube face selection: face 0..5 = +X -X +Y -Y +Z -Z. */
static unsigned cube_face(const float r[3], float *s, float *tc, float *ma)
{
    float ax = fabsf(r[0]), ay = fabsf(r[1]), az = fabsf(r[2]);
    float sc, tcc;
    unsigned face;

    if (ax >= ay && ax >= az) {
        face = r[0] >= 0 ? 0 : 1;
        sc = r[0] >= 0 ? -r[2] : r[2];
        tcc = -r[1];
        *ma = ax;
    } else if (ay >= az) {
        face = r[1] >= 0 ? 2 : 3;
        sc = r[0];
        tcc = r[1] >= 0 ? r[2] : -r[2];
        *ma = ay;
    } else {
        face = r[2] >= 0 ? 4 : 5;
        sc = r[2] >= 0 ? r[0] : -r[0];
        tcc = -r[1];
        *ma = az;
    }
    if (*ma > 0) {
        *s = (sc / *ma + 1.0f) * 0.5f;
        *tc = (tcc / *ma + 1.0f) * 0.5f;
    } else {
        *s = *tc = 0.5f;
    }
    return face;
}

static float safe(float v)
{
    return isfinite(v) ? fminf(fmaxf(v, -1e7f), 1e7f) : 0.0f;
}

float sgx_tex_lod(const SgxTexture *t, const SgxTexLookup *l)
{
    unsigned dim = MIN(MAX(l->dim, 1u), 3u);
    float dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };
    float rx, ry, rho, lod;

    if (l->lod_mode == 2) {
        return safe(l->lod[0]);
    }
    for (unsigned i = 0; i < dim; i++) {
        /* UNVERIFIED: explicit gradients as dx.. then dy.. */
        dx[i] = safe(l->lod_mode == 3 ? l->lod[i] : l->dx[i]);
        dy[i] = safe(l->lod_mode == 3 ? l->lod[dim + i] : l->dy[i]);
    }
    if (is_cube(t) && dim == 3) {
        float s, tc, ma;
        cube_face(l->coord, &s, &tc, &ma);
        ma = fmaxf(ma, 1e-20f);
        rx = sqrtf(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
        ry = sqrtf(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
        rho = fmaxf(rx, ry) * t->width * 0.5f / ma;
    } else {
        rx = hypotf(dx[0] * t->width, dx[1] * t->height);
        ry = hypotf(dy[0] * t->width, dy[1] * t->height);
        rho = fmaxf(rx, ry);
    }
    lod = rho > 0 ? log2f(rho) : -1000.0f;
    if (l->lod_mode == 1) {
        lod += safe(l->lod[0]);
    }
    return lod;
}

static void texel_wrapped(const SgxTexture *t, const uint8_t *data,
                          const uint8_t *palette, unsigned face,
                          unsigned level, int x, int y, float out[4])
{
    unsigned lw = sgx_tex_level_width(t, level);
    unsigned lh = sgx_tex_level_height(t, level);
    int xx = sgx_tex_wrap(is_cube(t) ? SGX_TEX_CLAMP : t->addr_u, x, lw);
    int yy = sgx_tex_wrap(is_cube(t) ? SGX_TEX_CLAMP : t->addr_v, y, lh);

    if (xx < 0 || yy < 0) {
        memset(out, 0, 4 * sizeof(float));
        return;
    }
    sgx_tex_fetch(t, data, palette, face, level, xx, yy, out);
}

static void sample_level(const SgxTexture *t, const uint8_t *data,
                         const uint8_t *palette, unsigned face,
                         unsigned level, SgxTexFilter filter, float s,
                         float tc, float out[4])
{
    float u = safe(s * sgx_tex_level_width(t, level));
    float v = safe(tc * sgx_tex_level_height(t, level));

    if (filter == SGX_TEX_POINT || filter == SGX_TEX_MIPMAP_POINT) {
        texel_wrapped(t, data, palette, face, level, (int)floorf(u),
                      (int)floorf(v), out);
    } else {
        float fu = u - 0.5f, fv = v - 0.5f;
        int x0 = (int)floorf(fu), y0 = (int)floorf(fv);
        float ax = fu - x0, ay = fv - y0;
        float c[4][4];

        for (int i = 0; i < 4; i++) {
            texel_wrapped(t, data, palette, face, level, x0 + (i & 1),
                          y0 + (i >> 1), c[i]);
        }
        for (int k = 0; k < 4; k++) {
            float top = c[0][k] + (c[1][k] - c[0][k]) * ax;
            float bot = c[2][k] + (c[3][k] - c[2][k]) * ax;
            out[k] = top + (bot - top) * ay;
        }
    }
}

void sgx_tex_sample(const SgxTexture *t, const uint8_t *data,
                    const uint8_t *palette, const SgxTexLookup *l,
                    float out[4])
{
    unsigned face = 0, maxl = t->levels - 1;
    float s, tc, lod;

    if (is_cube(t)) {
        float ma, r[3] = { safe(l->coord[0]), safe(l->coord[1]),
                           safe(l->coord[2]) };
        if (l->dim < 3) {
            gemu_log_once(LOG_GUEST_ERROR, "sgx543-cube", l->dim,
                          "sgx543: %uD lookup of a cube texture\n", l->dim);
            memset(out, 0, 4 * sizeof(float));
            return;
        }
        face = cube_face(r, &s, &tc, &ma);
    } else {
        s = l->coord[0];
        tc = l->dim >= 2 ? l->coord[1] : 0.0f;
    }
    lod = sgx_tex_lod(t, l) + t->lod_bias;
    lod = fmaxf(lod, (float)t->lod_min);
    if (lod <= 0.0f) {
        sample_level(t, data, palette, face, 0, t->mag_filter, s, tc, out);
    } else if (!maxl) {
        sample_level(t, data, palette, face, 0, t->min_filter, s, tc, out);
    } else if (t->mip_linear) {
        unsigned l0 = (unsigned)MIN(floorf(lod), (float)maxl);
        float f = lod - l0, a[4], b[4];

        if (l0 >= maxl) {
            sample_level(t, data, palette, face, maxl, t->min_filter, s, tc,
                         out);
            return;
        }
        sample_level(t, data, palette, face, l0, t->min_filter, s, tc, a);
        sample_level(t, data, palette, face, l0 + 1, t->min_filter, s, tc,
                     b);
        for (int k = 0; k < 4; k++) {
            out[k] = a[k] + (b[k] - a[k]) * f;
        }
    } else {
        /* the nearest level, as GL: ceil(lod + 1/2) - 1 */
        float n = lod > 0.5f ? ceilf(lod + 0.5f) - 1.0f : 0.0f;
        unsigned level = (unsigned)MIN(n, (float)maxl);

        sample_level(t, data, palette, face, level, t->min_filter, s, tc,
                     out);
    }
}

/* ---- building words ---- */

void sgx_tex_params_init(SgxTexParams *p)
{
    memset(p, 0, sizeof(*p));
    p->format = SGX_TEX_FORMAT(SGX_TEXB_U8U8U8U8, 0);
    p->type = SGX_TEXTYPE_LINEAR;
    p->width = p->height = 1;
    p->lod_bias = 31;
}

static int log2_exact(unsigned v)
{
    if (!v || (v & (v - 1))) {
        return -1;
    }
    return bit_width(v) - 1;
}

bool sgx_tex_encode(const SgxTexParams *p, uint32_t w[4], const char **why)
{
    SgxTexture t;
    unsigned field = p->levels ? p->levels - 1 : 15;

    if (p->format & ~0x9f007000u) {
        *why = "format value has bits outside the format fields";
        return false;
    }
    if (!p->width || !p->height || p->width > SGX_TEX_MAX_SIZE
        || p->height > SGX_TEX_MAX_SIZE) {
        *why = "size must be 1..4096";
        return false;
    }
    if (p->levels > 15 || p->lod_bias > 63 || p->lod_min > 15
        || p->min_filter > 3 || p->mag_filter > 3 || p->addr_u > 7
        || p->addr_v > 7 || p->gamma > 3 || p->type > 7) {
        *why = "field out of range";
        return false;
    }
    if ((p->data & 3) || (p->palette & 63)) {
        *why = "data must be 4-byte and palette 64-byte aligned";
        return false;
    }
    w[0] = p->addr_v << 3 | p->addr_u << 6 | p->gamma << 27
           | (p->format >> 31) << 31;
    if (p->type == SGX_TEXTYPE_LINEAR_STRIDED) {
        uint32_t s = p->stride / 4 - 1;

        if ((p->stride & 3) || !p->stride || s > 0x1fff) {
            *why = "stride must be a multiple of 4 up to 32768";
            return false;
        }
        w[0] |= (s & 7) << 9 | p->mag_filter << 12 | (s >> 3) << 17;
    } else {
        w[0] |= (uint32_t)p->mip_linear << 9 | p->min_filter << 10
                | p->mag_filter << 12 | field << 17 | p->lod_bias << 21;
    }
    if (p->type == SGX_TEXTYPE_SWIZZLED || p->type == SGX_TEXTYPE_CUBE) {
        int wl = log2_exact(p->width), hl = log2_exact(p->height);

        if (wl < 0 || hl < 0) {
            *why = "swizzled and cube sizes must be powers of two";
            return false;
        }
        w[1] = hl | wl << 16;
    } else {
        w[1] = (p->height - 1) | (p->width - 1) << 12;
    }
    w[1] |= ((p->format >> 24) & 31) << 24 | (uint32_t)p->type << 29;
    w[2] = p->data | (p->lod_min & 3);
    w[3] = p->palette >> 6 | (p->lod_min >> 2) << 26
           | ((p->format >> 12) & 7) << 28 | (uint32_t)p->normalize << 31;
    return sgx_tex_decode(w, &t, why);
}

/*
 * "X8U8U8U8" against "U8U8U8U8": fields by letter and width, X matching
 * any letter.  Bit 0: the fields match in order; bit 1: reversed (the
 * SDK names the RGBA-order layouts of U1U5U5U5 "U5U5U5U1").
 */
static unsigned base_name_matches(const char *given, const char *base)
{
    char g[8][2], b[8][2];
    unsigned ng = 0, nb = 0, m = 0;
    const char *s;
    char *end;

    for (s = given; *s && ng < 8; ng++) {
        g[ng][0] = g_ascii_toupper(*s++);
        g[ng][1] = (char)strtoul(s, &end, 10);
        s = end;
    }
    if (*s) {
        return 0;
    }
    for (s = base; *s && nb < 8; nb++) {
        b[nb][0] = *s++;
        b[nb][1] = (char)strtoul(s, &end, 10);
        s = end;
    }
    if (ng != nb) {
        return 0;
    }
    for (int rev = 0; rev < 2; rev++) {
        bool ok = true;
        for (unsigned i = 0; i < ng && ok; i++) {
            const char *x = b[rev ? nb - 1 - i : i];
            ok = g[i][1] == x[1] && (g[i][0] == x[0] || g[i][0] == 'X');
        }
        if (ok) {
            m |= 1u << rev;
        }
    }
    return m;
}

bool sgx_tex_format_parse(const char *name, uint32_t *format)
{
    const char *us = strrchr(name, '_');
    g_autofree char *base = NULL;

    if (!us) {
        return false;
    }
    base = g_strndup(name, us - name);
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        const SgxTexFormatInfo *f = &formats[i];
        unsigned m = base_name_matches(base, f->name);

        for (unsigned k = 0; m && k < swizzle_count[f->comps - 1]; k++) {
            /* RGBA-order swizzles of four-field formats name the fields
               the other way round */
            unsigned need = f->comps == 4 && (k & 2) ? 2 : 1;

            if ((m & need)
                && !g_ascii_strcasecmp(us + 1,
                                       swizzle_names[f->comps - 1][k])) {
                *format = SGX_TEX_FORMAT(f->code, k);
                return true;
            }
        }
    }
    return false;
}

int sgx_tex_type_parse(const char *name)
{
    static const char *const names[] = {
        [SGX_TEXTYPE_SWIZZLED] = "swizzled",
        [SGX_TEXTYPE_CUBE] = "cube",
        [SGX_TEXTYPE_LINEAR] = "linear",
        [SGX_TEXTYPE_TILED] = "tiled",
        [SGX_TEXTYPE_SWIZZLED_ARBITRARY] = "swizzled-arbitrary",
        [SGX_TEXTYPE_LINEAR_STRIDED] = "linear-strided",
        [SGX_TEXTYPE_CUBE_ARBITRARY] = "cube-arbitrary",
    };

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (names[i] && !g_ascii_strcasecmp(name, names[i])) {
            return i;
        }
    }
    return -1;
}
