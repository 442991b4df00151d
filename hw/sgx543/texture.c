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
 * - compressed formats: BC1/2/3 from Microsoft's "Texture Block
 *   Compression in Direct3D 11" and the Khronos Data Format spec (S3TC);
 *   PVRTC1 4bpp/2bpp from the Khronos Data Format spec (PVRTC); Morton
 *   order of compressed blocks in swizzled textures (Vita3K).  Packed
 *   floats as GL's R11F_G11F_B10F and RGB9_E5; sRGB as IEC 61966-2-1;
 *   YUV planes as Vita3K lays them out, BT.601/709 limited range.
 *
 * UNVERIFIED (gemu's choices): which of 2/4 component formats fill the
 * missing channels with 0 and 1 (here as GL: B = 0, A = 1), the order
 * of P4 nibbles (low nibble first), the border colour (transparent
 * black), MIPMAP_POINT/LINEAR filters acting as POINT/LINEAR, the mip
 * filter bit choosing linear blending between levels (else the nearest
 * level), cube face order and orientation (GL's), the order of explicit
 * gradients (dx then dy), normalize mode (integer formats always read as
 * normalised), which fields the gamma modes decode (texture.c,
 * gamma_fields), the layout of blocks in linear and strided textures
 * (rows of blocks, 8-texel aligned), Morton-ordered PVRTC words in
 * linear textures, 1BGR on UBC formats, PVRTC 2bpp interpolated
 * modulation next to a direct-mode word, the YUV matrices (CSC0 BT.601,
 * CSC1 BT.709, limited range), chroma siting and plane pitches.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "gemu/log.h"
#include "hw/sgx543/texture.h"
#include "target/usse/exec.h"

#include <math.h>

#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif

enum {
    K_UNORM, K_SNORM, K_F16, K_F32, K_F32M, K_PAL,
    K_UFLOAT,               /* unsigned 5-bit exponent floats (F11, F10) */
    K_SE5,                  /* three 9-bit mantissas, shared exponent */
    K_BC1, K_BC2, K_BC3,    /* 4x4 blocks */
    K_PVRT4, K_PVRT2,       /* PVRTC1 words, in Morton order */
    K_YUV420P2, K_YUV420P3, K_YUV422,
};

/* SgxTexFormatInfo.flags */
#define F_REV_RGB   1       /* the RGB swizzle reverses the field widths */
#define F_NAMED     2       /* the name is matched whole (UBC1, SE5M9M9M9) */
#define F_YUV       4       /* named by yuv_names only */

struct SgxTexFormatInfo {
    const char *name;
    uint8_t code;           /* SgxTexBase */
    uint8_t bpp;
    uint8_t comps;          /* swizzle class: 1..4 components */
    uint8_t kind;
    uint8_t nfield;
    uint8_t width[4];       /* field widths, most significant first */
    uint8_t block;          /* block-compressed: texels a block side */
    uint8_t flags;
    uint8_t swizzles;       /* if not 0, the mask of swizzles defined */
    uint8_t block_h;        /* block-compressed: texels a block column */
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
    /* F10F11F11_BGR: R in bits 0..10; F11F11F10_RGB: B in bits 0..9 */
    { "F10F11F11", SGX_TEXB_F11F11F10, 32, 3, K_UFLOAT, 3, { 10, 11, 11 },
      0, F_REV_RGB },
    { "SE5M9M9M9", SGX_TEXB_SE5M9M9M9, 32, 3, K_SE5, 3, { 9, 9, 9 },
      0, F_NAMED },
    /* bpp: bits a texel averaged over the block; only ABGR is named by
       the SDK, 1BGR is accepted as for PVRT (UNVERIFIED) */
    { "UBC1", SGX_TEXB_UBC1, 4, 4, K_BC1, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "UBC2", SGX_TEXB_UBC2, 8, 4, K_BC2, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "UBC3", SGX_TEXB_UBC3, 8, 4, K_BC3, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "PVRT4BPP", SGX_TEXB_PVRT4BPP, 4, 4, K_PVRT4, 0, { 0 }, 4, F_NAMED,
      0x11, 4 },
    { "PVRT2BPP", SGX_TEXB_PVRT2BPP, 2, 4, K_PVRT2, 0, { 0 }, 8, F_NAMED,
      0x11, 4 },
    /* YUV: bpp of the luma plane (420) or of a texel (422); named by
       yuv_names; swizzle: byte order (422) or U/V order (420), CSC */
    { "YUV420P2", SGX_TEXB_YUV420P2, 8, 4, K_YUV420P2, 0, { 0 }, 0, F_YUV,
      0x0f },
    { "YUV420P3", SGX_TEXB_YUV420P3, 8, 4, K_YUV420P3, 0, { 0 }, 0, F_YUV,
      0x0f },
    { "YUV422", SGX_TEXB_YUV422, 16, 4, K_YUV422, 0, { 0 }, 2, F_YUV, 0xff,
      1 },                  /* a 2x1 "block": Y0 U Y1 V in some order */
};

/* SceGxmTextureFormat names of the YUV formats (psp2/gxm.h) */
static const struct {
    const char *name;
    uint8_t code, swizzle;
} yuv_names[] = {
    { "YUV420P2_CSC0", SGX_TEXB_YUV420P2, 0 },
    { "YVU420P2_CSC0", SGX_TEXB_YUV420P2, 1 },
    { "YUV420P2_CSC1", SGX_TEXB_YUV420P2, 2 },
    { "YVU420P2_CSC1", SGX_TEXB_YUV420P2, 3 },
    { "YUV420P3_CSC0", SGX_TEXB_YUV420P3, 0 },
    { "YVU420P3_CSC0", SGX_TEXB_YUV420P3, 1 },
    { "YUV420P3_CSC1", SGX_TEXB_YUV420P3, 2 },
    { "YVU420P3_CSC1", SGX_TEXB_YUV420P3, 3 },
    { "YUYV422_CSC0", SGX_TEXB_YUV422, 0 },
    { "YVYU422_CSC0", SGX_TEXB_YUV422, 1 },
    { "UYVY422_CSC0", SGX_TEXB_YUV422, 2 },
    { "VYUY422_CSC0", SGX_TEXB_YUV422, 3 },
    { "YUYV422_CSC1", SGX_TEXB_YUV422, 4 },
    { "YVYU422_CSC1", SGX_TEXB_YUV422, 5 },
    { "UYVY422_CSC1", SGX_TEXB_YUV422, 6 },
    { "VYUY422_CSC1", SGX_TEXB_YUV422, 7 },
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

static bool swizzle_ok(const SgxTexFormatInfo *f, unsigned swz)
{
    return swz < swizzle_count[f->comps - 1]
           && (!f->swizzles || (f->swizzles >> swz) & 1);
}

/* Does @swz read the fields in the reverse order of f->width? */
static bool fields_reversed(const SgxTexFormatInfo *f, unsigned swz)
{
    return (f->comps == 4 && !f->block && (swz & 2))
           || ((f->flags & F_REV_RGB) && swz == 1);
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

/* PVRTC1: words in Morton order whatever the layout, power-of-two grids */
static bool is_pvrt(const SgxTexture *t)
{
    return t->fmt->kind == K_PVRT4 || t->fmt->kind == K_PVRT2;
}

static bool is_yuv(const SgxTexture *t)
{
    return t->fmt->kind >= K_YUV420P2;
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
    uint64_t off = 0, row;
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
    if (!swizzle_ok(t->fmt, t->swizzle)) {
        *why = "swizzle not defined for the base format";
        return false;
    }
    t->bpp = t->fmt->bpp;
    t->block_w = t->fmt->block ? t->fmt->block : 1;
    t->block_h = t->fmt->block ? t->fmt->block_h : 1;
    if (is_yuv(t)
        && !(t->type == SGX_TEXTYPE_LINEAR
             ? SGX_TEXW0_MIP_COUNT(w[0]) == 15
             : t->type == SGX_TEXTYPE_LINEAR_STRIDED
               && t->fmt->kind == K_YUV422)) {
        /* UNVERIFIED: what other layouts would do with the planes */
        *why = "YUV textures must be linear without mips (YUV422 may be "
               "strided)";
        return false;
    }
    if (t->fmt->block && t->type == SGX_TEXTYPE_TILED) {
        /* UNVERIFIED: how blocks sit in 32x32 tiles is not known */
        *why = "tiled block-compressed textures are not supported";
        return false;
    }
    if (is_pvrt(t) && t->type == SGX_TEXTYPE_LINEAR_STRIDED) {
        *why = "PVRTC words are in Morton order, never strided";
        return false;
    }
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
        /* block formats: the stride is from one row of blocks to the
           next (UNVERIFIED) */
        row = (uint64_t)align_up(t->width, t->block_w) * t->block_h
              * t->bpp;
        if ((uint64_t)t->stride * 8 < row) {
            *why = "stride shorter than a row";
            return false;
        }
        t->level_offset[0] = 0;
        t->size = (uint64_t)t->stride
                  * (DIV_ROUND_UP(t->height, t->block_h) - 1) + (row + 7) / 8;
        t->lod_bias = 0.0f;
        return true;
    }
    t->min_filter = SGX_TEXW0_MIN_FILTER(w[0]);
    t->mag_filter = SGX_TEXW0_MAG_FILTER(w[0]);
    t->mip_linear = SGX_TEXW0_MIP_FILTER(w[0]);
    t->lod_bias = ((int)SGX_TEXW0_LOD_BIAS(w[0]) - 31) / 8.0f;
    t->lod_min = SGX_TEXW2_LOD_MIN0(w[2]) | SGX_TEXW3_LOD_MIN1(w[3]) << 2;
    t->gamma = SGX_TEXW0_GAMMA(w[0]);
    if (t->gamma == 2) {
        /* not an SceGxmTextureGammaMode value */
        gemu_log_once(LOG_GUEST_ERROR, "sgx543-gamma", 0,
                      "sgx543: texture gamma mode 2 read as none\n");
        t->gamma = SGX_TEX_GAMMA_NONE;
    }

    /* the mip chain (Vita3K renderer/src/texture/cache.cpp facts) */
    maxlev = bit_width(MIN(t->width, t->height));
    t->levels = field == 15 ? 1 : MIN(field + 1, maxlev);
    packed = t->type == SGX_TEXTYPE_LINEAR && field == 15 && !is_pvrt(t);
    lw0 = packed ? t->width : sgx_pow2ceil(t->width);
    lh0 = packed ? t->height : sgx_pow2ceil(t->height);
    if (t->type == SGX_TEXTYPE_LINEAR && !is_pvrt(t)) {
        aw = 8;
    } else if (t->type == SGX_TEXTYPE_TILED) {
        aw = ah = 32;
    }
    /* levels of block formats span whole blocks (8 is a multiple of 4) */
    aw = MAX(aw, t->block_w);
    ah = MAX(ah, t->block_h);
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
    } else if (t->fmt->kind == K_YUV420P2 || t->fmt->kind == K_YUV420P3) {
        /* the luma plane (rows 8-byte aligned), then chroma at half
           resolution: one plane of U,V pairs (P2) or a U then a V plane
           at half the pitch (P3): as many bytes either way */
        row = align_up(t->width, 8);
        t->size = row * t->height + row * DIV_ROUND_UP(t->height, 2);
    } else if (packed) {
        /* the last row (of blocks) need not be padded */
        row = (uint64_t)align_up(t->width, 8) * t->block_h * t->bpp;
        t->size = (row * (DIV_ROUND_UP(t->height, t->block_h) - 1)
                   + (uint64_t)align_up(t->width, t->block_w) * t->block_h
                     * t->bpp + 7) / 8;
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
    unsigned bw = t->block_w, bh = t->block_h;
    unsigned lw = DIV_ROUND_UP(sgx_tex_level_width(t, level), bw);
    unsigned lh = DIV_ROUND_UP(sgx_tex_level_height(t, level), bh);
    uint64_t bits = (uint64_t)t->bpp * bw * bh;     /* a block */
    uint64_t idx;

    /* block formats: the layouts order blocks as they order texels
       (Vita3K: Morton order of blocks when swizzled; linear rows
       8-texel aligned) */
    x /= bw;
    y /= bh;
    if (is_pvrt(t)) {
        /* PVRTC1's reflected Morton order (Khronos Data Format, PVRTC)
           is the swizzled order of words, whatever the texture type
           (UNVERIFIED for linear textures) */
        return base + sgx_swizzled_index(x, y, lw, lh) * bits;
    }
    switch (t->type) {
    case SGX_TEXTYPE_LINEAR_STRIDED:
        return base + (uint64_t)y * t->stride * 8 + x * bits;
    case SGX_TEXTYPE_LINEAR:
        idx = (uint64_t)y * (align_up(lw * bw, 8) / bw) + x;
        break;
    case SGX_TEXTYPE_TILED:
        idx = sgx_tiled_index(x, y, align_up(lw, 32) / 32);
        break;
    default:
        idx = sgx_swizzled_index(x, y, lw, lh);
        break;
    }
    return base + idx * bits;
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

static uint64_t read_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

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
    map = swizzle_map(f->comps, swz);
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
    const int8_t *map = swizzle_map(f->comps, swz);
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
    bool rev = fields_reversed(f, swz);
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

/* ---- block-compressed texels ---- */

static void rgb565(uint32_t v, float c[3])
{
    c[0] = (float)(v >> 11) / 31.0f;
    c[1] = (float)((v >> 5) & 63) / 63.0f;
    c[2] = (float)(v & 31) / 31.0f;
}

/*
 * The colour half of a BC1/2/3 block (Microsoft's "Texture Block
 * Compression in Direct3D 11", the Khronos Data Format spec §S3TC):
 * two RGB565 endpoints, then 2-bit indices, texel i = 4y + x at bits
 * 2i.  BC1 with colour0 <= colour1 has the midpoint and transparent
 * black; otherwise (and always in BC2/3) the thirds.
 */
static void bc_colour(const uint8_t *b, bool bc1, unsigned i, float c[4])
{
    uint32_t c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
    uint32_t bits = b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24;
    unsigned idx = (bits >> (2 * i)) & 3;
    float e0[3], e1[3];

    rgb565(c0, e0);
    rgb565(c1, e1);
    c[3] = 1.0f;
    for (int k = 0; k < 3; k++) {
        switch (idx) {
        case 0:
            c[k] = e0[k];
            break;
        case 1:
            c[k] = e1[k];
            break;
        case 2:
            c[k] = !bc1 || c0 > c1 ? (2 * e0[k] + e1[k]) / 3.0f
                                   : (e0[k] + e1[k]) / 2.0f;
            break;
        default:
            if (!bc1 || c0 > c1) {
                c[k] = (e0[k] + 2 * e1[k]) / 3.0f;
            } else {
                c[k] = 0.0f;
                c[3] = 0.0f;
            }
            break;
        }
    }
}

/* BC3's alpha half: two 8-bit endpoints, 3-bit indices from bit 16 */
static float bc3_alpha(const uint8_t *b, unsigned i)
{
    uint64_t bits = read_le(b, 8) >> 16;
    unsigned idx = (bits >> (3 * i)) & 7;
    float a0 = b[0], a1 = b[1];

    switch (idx) {
    case 0:
        return a0 / 255.0f;
    case 1:
        return a1 / 255.0f;
    default:
        if (b[0] > b[1]) {
            /* six interpolated values */
            return ((8 - idx) * a0 + (idx - 1) * a1) / (7.0f * 255.0f);
        }
        if (idx == 6) {
            return 0.0f;
        }
        if (idx == 7) {
            return 1.0f;
        }
        /* four interpolated values, then 0 and 1 */
        return ((6 - idx) * a0 + (idx - 1) * a1) / (5.0f * 255.0f);
    }
}

/*
 * PVRTC1 (the Khronos Data Format spec, "PVRTC Compressed Texture Image
 * Formats"): 64-bit words in reflected Morton order, bits 0..31
 * modulation, bit 32 the modulation mode M, bits 33..47 colour A and
 * 48..63 colour B.  The colours of the four words around a texel are
 * interpolated bilinearly (each centred on its block, wrapping around
 * the image), then blended by the texel's modulation weight (/8).
 */
typedef struct PvrtLevel {
    const SgxTexture *t;
    const uint8_t *data;
    unsigned face, level;
    int gw, gh;                 /* words across and down (powers of 2) */
    int bw, bh;                 /* texels a word: 4x4 or 8x4 */
} PvrtLevel;

static uint64_t pvrt_word(const PvrtLevel *p, int x, int y)
{
    uint64_t bit;

    x = ((x % p->gw) + p->gw) % p->gw;
    y = ((y % p->gh) + p->gh) % p->gh;
    bit = sgx_tex_texel_bit(p->t, p->face, p->level, x * p->bw, y * p->bh);
    if (bit / 8 + 8 > p->t->size) {
        return 0;                               /* cannot happen */
    }
    return read_le(p->data + bit / 8, 8);
}

/* Colour A (@which 0) or B of a word as R G B (5 bits) and A (4 bits). */
static void pvrt_colour(uint64_t w, int which, int c[4])
{
    uint32_t v = (w >> (which ? 48 : 32)) & 0xffff;

    if (v & 0x8000) {                           /* opaque: 5 5 5 / 5 5 4 */
        c[0] = (v >> 10) & 31;
        c[1] = (v >> 5) & 31;
        c[2] = which ? (int)(v & 31)
                     : (int)(((v >> 1) & 15) << 1 | ((v >> 1) & 15) >> 3);
        c[3] = 15;
    } else {                                    /* 3 4 4 4 / 3 4 4 3 */
        unsigned r = (v >> 8) & 15, g = (v >> 4) & 15;

        c[0] = r << 1 | r >> 3;
        c[1] = g << 1 | g >> 3;
        if (which) {
            c[2] = (v & 15) << 1 | (v & 15) >> 3;
        } else {
            unsigned b = (v >> 1) & 7;
            c[2] = b << 2 | b >> 1;
        }
        c[3] = ((v >> 12) & 7) << 1;
    }
}

static const int pvrt_weights[4] = { 0, 4, 4, 8 };   /* M = 1 */

/* 2bpp: the weight of a texel whose modulation is stored in its word. */
static int pvrt2_stored(const PvrtLevel *p, int x, int y, bool *punch)
{
    int W = p->gw * 8, H = p->gh * 4;
    uint64_t w;
    unsigned xo, yo, v;

    x = ((x % W) + W) % W;
    y = ((y % H) + H) % H;
    w = pvrt_word(p, x / 8, y / 4);
    xo = x % 8;
    yo = y % 4;
    if (!((w >> 32) & 1)) {
        /* direct: one bit a texel, image A or B (UNVERIFIED: also as
           the neighbour of an interpolated texel) */
        return (w >> (8 * yo + xo)) & 1 ? 8 : 0;
    }
    if (xo == 0 && yo == 0) {
        v = (w >> 1) & 1 ? 3 : 0;               /* bit 0 is the mode */
    } else if ((w & 1) && xo == 4 && yo == 2) {
        v = (w >> 21) & 1 ? 3 : 0;              /* bit 20 is flag F */
    } else {
        v = (w >> (8 * yo + (xo & ~1u))) & 3;
    }
    if (punch) {
        *punch = v == 2;
    }
    return pvrt_weights[v];
}

/* The modulation weight (0..8) of texel (x, y), and punch-through. */
static int pvrt_modulation(const PvrtLevel *p, int x, int y, bool *punch)
{
    uint64_t w = pvrt_word(p, x / p->bw, y / p->bh);
    bool m = (w >> 32) & 1;
    unsigned xo = x % p->bw, yo = y % p->bh;

    *punch = false;
    if (p->bw == 4) {
        unsigned v = (w >> (2 * (4 * yo + xo))) & 3;
        static const int standard[4] = { 0, 3, 5, 8 };

        *punch = m && v == 2;
        return m ? pvrt_weights[v] : standard[v];
    }
    if (!m || !((xo + yo) & 1)) {
        return pvrt2_stored(p, x, y, punch);
    }
    /* 2bpp, interpolated: the mean of the stored neighbours' weights */
    if (!(w & 1)) {
        return (pvrt2_stored(p, x - 1, y, NULL) + pvrt2_stored(p, x, y - 1,
                NULL) + pvrt2_stored(p, x + 1, y, NULL)
                + pvrt2_stored(p, x, y + 1, NULL) + 2) / 4;
    }
    if ((w >> 20) & 1) {
        return (pvrt2_stored(p, x, y - 1, NULL)
                + pvrt2_stored(p, x, y + 1, NULL) + 1) / 2;
    }
    return (pvrt2_stored(p, x - 1, y, NULL) + pvrt2_stored(p, x + 1, y, NULL)
            + 1) / 2;
}

static void pvrt_texel(const SgxTexture *t, const uint8_t *data,
                       unsigned face, unsigned level, int x, int y,
                       float out[4])
{
    PvrtLevel p = {
        .t = t, .data = data, .face = face, .level = level,
        .bw = t->block_w, .bh = t->block_h,
    };
    int xx, yy, x0, y0, xr, yr, wgt[4], sum[2][4] = { { 0 } };
    int shift, weight;
    bool punch;

    p.gw = sgx_pow2ceil(DIV_ROUND_UP(sgx_tex_level_width(t, level), p.bw));
    p.gh = sgx_pow2ceil(DIV_ROUND_UP(sgx_tex_level_height(t, level), p.bh));
    /* the four words whose colour samples (at block centres) surround */
    xx = x - p.bw / 2;
    yy = y - p.bh / 2;
    x0 = xx >= 0 ? xx / p.bw : -1;
    y0 = yy >= 0 ? yy / p.bh : -1;
    xr = xx - p.bw * x0;
    yr = yy - p.bh * y0;
    wgt[0] = (p.bw - xr) * (p.bh - yr);
    wgt[1] = xr * (p.bh - yr);
    wgt[2] = (p.bw - xr) * yr;
    wgt[3] = xr * yr;
    for (int i = 0; i < 4; i++) {
        uint64_t w = pvrt_word(&p, x0 + (i & 1), y0 + (i >> 1));

        for (int ab = 0; ab < 2; ab++) {
            int c[4];

            pvrt_colour(w, ab, c);
            for (int k = 0; k < 4; k++) {
                sum[ab][k] += c[k] * wgt[i];
            }
        }
    }
    weight = pvrt_modulation(&p, x, y, &punch);
    shift = p.bw == 4 ? 0 : 1;                  /* 4.4 / 5.4 or .5 bits */
    for (int k = 0; k < 4; k++) {
        int v[2];

        for (int ab = 0; ab < 2; ab++) {
            int c = sum[ab][k] >> shift;
            /* to 8 bits: 5.4 as C/2 + C/64, 4.4 as C + C/16 */
            v[ab] = k < 3 ? c / 2 + c / 64 : c + c / 16;
        }
        out[k] = (float)((v[0] * (8 - weight) + v[1] * weight) / 8) / 255.0f;
    }
    if (punch) {
        out[3] = 0.0f;
    }
}

/* Texel (x, y) (within the block) of a 4x4 block, as fields R G B A. */
static void block_texel(unsigned kind, const uint8_t *b, unsigned x,
                        unsigned y, float c[4])
{
    unsigned i = 4 * (y & 3) + (x & 3);

    switch (kind) {
    case K_BC1:
        bc_colour(b, true, i, c);
        break;
    case K_BC2:
        /* explicit 4-bit alpha, texel i at bits 4i, then the colours */
        bc_colour(b + 8, false, i, c);
        c[3] = (float)((read_le(b, 8) >> (4 * i)) & 15) / 15.0f;
        break;
    default:
        bc_colour(b + 8, false, i, c);
        c[3] = bc3_alpha(b, i);
        break;
    }
}

/*
 * Y'CbCr (8-bit, limited range: Y 16..235, Cb/Cr 16..240) to RGB.  CSC0
 * is ITU-R BT.601, CSC1 BT.709.  UNVERIFIED: which matrices and ranges
 * SGX's CSC0/CSC1 are (Vita3K converts with BT.601 limited range).
 */
static void yuv_to_rgb(unsigned y, unsigned u, unsigned v, bool csc1,
                       float rgba[4])
{
    float yy = 1.164383f * ((float)y - 16.0f);
    float cb = (float)u - 128.0f, cr = (float)v - 128.0f;
    float c[3];

    if (csc1) {
        c[0] = yy + 1.792741f * cr;
        c[1] = yy - 0.213249f * cb - 0.532909f * cr;
        c[2] = yy + 2.112402f * cb;
    } else {
        c[0] = yy + 1.596027f * cr;
        c[1] = yy - 0.391762f * cb - 0.812968f * cr;
        c[2] = yy + 2.017232f * cb;
    }
    for (int k = 0; k < 3; k++) {
        rgba[k] = fminf(fmaxf(c[k] / 255.0f, 0.0f), 1.0f);
    }
    rgba[3] = 1.0f;
}

/*
 * YUV422: 4 bytes a pair of texels, in the swizzle's order (YUYV, YVYU,
 * UYVY, VYUY; swizzle 4..7 the same with CSC1).  YUV420: the luma plane
 * (rows 8-byte aligned), then at half resolution in both directions
 * interleaved U,V (P2) or a U plane then a V plane at half the pitch
 * (P3); swizzle bit 0 swaps U and V, bit 1 selects CSC1.  Chroma is not
 * interpolated (UNVERIFIED).  Layout facts: Vita3K's YUV conversion.
 */
static void yuv_texel(const SgxTexture *t, const uint8_t *data, unsigned x,
                      unsigned y, float rgba[4])
{
    unsigned swz = t->swizzle, yv, u, v;

    if (t->fmt->kind == K_YUV422) {
        const uint8_t *b = data + sgx_tex_texel_bit(t, 0, 0, x, y) / 8;
        static const uint8_t pos[4][4] = {      /* Y0 Y1 U V */
            { 0, 2, 1, 3 }, { 0, 2, 3, 1 }, { 1, 3, 0, 2 }, { 1, 3, 2, 0 },
        };
        const uint8_t *o = pos[swz & 3];

        yv = b[o[x & 1]];
        u = b[o[2]];
        v = b[o[3]];
        yuv_to_rgb(yv, u, v, swz >> 2, rgba);
        return;
    }
    {
        uint64_t pitch = align_up(t->width, 8), c = pitch * t->height;
        unsigned first, second;

        yv = data[y * pitch + x];
        if (t->fmt->kind == K_YUV420P2) {
            const uint8_t *b = data + c + (y / 2) * pitch + (x / 2) * 2;
            first = b[0];
            second = b[1];
        } else {
            uint64_t off = (y / 2) * (pitch / 2) + x / 2;
            first = data[c + off];
            second = data[c + pitch / 2 * DIV_ROUND_UP(t->height, 2) + off];
        }
        u = swz & 1 ? second : first;
        v = swz & 1 ? first : second;
        yuv_to_rgb(yv, u, v, swz >> 1, rgba);
    }
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
    if (is_yuv(t)) {
        yuv_texel(t, data, x, y, rgba);
        return;
    }
    if (is_pvrt(t)) {
        float c[4];

        pvrt_texel(t, data, face, level, x, y, c);
        swizzle_out(t->fmt, t->swizzle, t->gamma, c, rgba);
        return;
    }
    if (t->fmt->block) {
        float c[4];

        block_texel(t->fmt->kind, data + bit / 8, x, y, c);
        swizzle_out(t->fmt, t->swizzle, t->gamma, c, rgba);
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
        unpack(&palette_entry, t->swizzle, t->gamma, entry, rgba);
        return;
    }
    unpack(t->fmt, t->swizzle, t->gamma, raw, rgba);
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
    for (size_t i = 0; i < ARRAY_SIZE(yuv_names); i++) {
        if (!g_ascii_strcasecmp(name, yuv_names[i].name)) {
            *format = SGX_TEX_FORMAT(yuv_names[i].code, yuv_names[i].swizzle);
            return true;
        }
    }
    base = g_strndup(name, us - name);
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        const SgxTexFormatInfo *f = &formats[i];
        unsigned m = f->flags & F_YUV ? 0
                     : f->flags & F_NAMED
                     ? (g_ascii_strcasecmp(base, f->name) ? 0 : 3)
                     : base_name_matches(base, f->name);

        for (unsigned k = 0; m && k < swizzle_count[f->comps - 1]; k++) {
            /* RGBA-order swizzles of four-field formats name the fields
               the other way round */
            unsigned need = fields_reversed(f, k) ? 2 : 1;

            if (!swizzle_ok(f, k)) {
                continue;
            }

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
