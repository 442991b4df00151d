/*
 * SGX543 textures (include/hw/sgx543/texture.h): SceGxmTexture control
 * words decoded and built, the layouts and texel addressing.  The
 * formats' tables are in texture-format.c, texel unpacking in
 * texture-texel.c and texture-block.c, the sampler in texture-sample.c
 * (their shared parts: texture-int.h).  Pure functions of their
 * arguments.
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
 * normalised), which fields the gamma modes decode (texture-texel.c,
 * gamma_fields), the layout of blocks in linear and strided textures
 * (rows of blocks, 8-texel aligned), Morton-ordered PVRTC words in
 * linear textures, 1BGR on UBC formats, PVRTC 2bpp interpolated
 * modulation next to a direct-mode word, the YUV matrices (CSC0 BT.601,
 * CSC1 BT.709, limited range), chroma siting and plane pitches.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "texture-int.h"

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

/* ---- decoding the words ---- */

unsigned sgx_tex_level_width(const SgxTexture *t, unsigned level)
{
    return MAX(t->width >> level, 1u);
}

unsigned sgx_tex_level_height(const SgxTexture *t, unsigned level)
{
    return MAX(t->height >> level, 1u);
}

/* The type, format and swizzle, and the layouts each format allows. */
static bool decode_format(const uint32_t w[4], SgxTexture *t,
                          const char **why)
{
    t->type = SGX_TEXW1_TYPE(w[1]);
    t->base = SGX_TEXW0_FORMAT0(w[0]) << 5 | SGX_TEXW1_BASE_FORMAT(w[1]);
    t->swizzle = SGX_TEXW3_SWIZZLE(w[3]);
    t->fmt = sgx_tex_format_info(t->base);
    if (t->type == 1) {
        *why = "texture type 1 is not defined";
        return false;
    }
    if (!t->fmt) {
        *why = "base format not supported (compressed, YUV, packed "
               "float or 32-bit integer)";
        return false;
    }
    if (!sgx_tex_swizzle_ok(t->fmt, t->swizzle)) {
        *why = "swizzle not defined for the base format";
        return false;
    }
    t->bpp = t->fmt->bpp;
    t->block_w = t->fmt->block ? t->fmt->block : 1;
    t->block_h = t->fmt->block ? t->fmt->block_h : 1;
    if (sgx_tex_is_yuv(t)
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
    if (sgx_tex_is_pvrt(t) && t->type == SGX_TEXTYPE_LINEAR_STRIDED) {
        *why = "PVRTC words are in Morton order, never strided";
        return false;
    }
    return true;
}

/* The size, the data and palette addresses. */
static bool decode_size(const uint32_t w[4], SgxTexture *t,
                        const char **why)
{
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
    if (sgx_tex_is_cube(t) && t->width != t->height) {
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
    return true;
}

/* LINEAR_STRIDED: the stride, one level, the mag filter for both. */
static bool decode_strided(const uint32_t w[4], SgxTexture *t,
                           const char **why)
{
    uint64_t row;

    t->min_filter = t->mag_filter = SGX_TEXW0_MAG_FILTER(w[0]);
    t->stride = (SGX_TEXW0_STRIDE(w[0]) + 1) * 4;
    t->levels = 1;
    /* block formats: the stride is from one row of blocks to the
       next (UNVERIFIED) */
    row = (uint64_t)sgx_tex_align_up(t->width, t->block_w) * t->block_h
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

static void decode_filters(const uint32_t w[4], SgxTexture *t)
{
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
}

/*
 * The mip chain (Vita3K renderer/src/texture/cache.cpp facts): the
 * levels' offsets, the cube faces' size and the bytes the texture spans.
 */
static void decode_chain(const uint32_t w[4], SgxTexture *t)
{
    unsigned field = SGX_TEXW0_MIP_COUNT(w[0]);
    unsigned lw0, lh0, aw = 1, ah = 1, chain, maxlev;
    uint64_t off = 0, row;
    bool pvrt = sgx_tex_is_pvrt(t), packed;

    maxlev = bit_width(MIN(t->width, t->height));
    t->levels = field == 15 ? 1 : MIN(field + 1, maxlev);
    packed = t->type == SGX_TEXTYPE_LINEAR && field == 15 && !pvrt;
    lw0 = packed ? t->width : sgx_pow2ceil(t->width);
    lh0 = packed ? t->height : sgx_pow2ceil(t->height);
    if (t->type == SGX_TEXTYPE_LINEAR && !pvrt) {
        aw = 8;
    } else if (t->type == SGX_TEXTYPE_TILED) {
        aw = ah = 32;
    }
    /* levels of block formats span whole blocks (8 is a multiple of 4) */
    aw = MAX(aw, t->block_w);
    ah = MAX(ah, t->block_h);
    chain = sgx_tex_is_cube(t) && field != 15 ? bit_width(MIN(lw0, lh0))
                                              : t->levels;
    for (unsigned l = 0; l < chain; l++) {
        uint64_t texels = sgx_tex_align_up(MAX(lw0 >> l, 1u), aw)
                          * sgx_tex_align_up(MAX(lh0 >> l, 1u), ah);
        if (l < t->levels) {
            t->level_offset[l] = off;
        }
        off += (texels * t->bpp + 7) / 8;
    }
    if (sgx_tex_is_cube(t)) {
        unsigned a = 4;
        if (field != 15
            && ((t->width >= 32 && t->bpp <= 8)
                || (t->width >= 16 && (t->bpp == 16 || t->bpp == 32))
                || (t->width >= 8 && t->bpp == 64))) {
            a = 2048;
        }
        t->face_size = sgx_tex_align_up(off, a);
        t->size = 5 * t->face_size + off;
    } else if (t->fmt->kind == K_YUV420P2 || t->fmt->kind == K_YUV420P3) {
        /* the luma plane (rows 8-byte aligned), then chroma at half
           resolution: one plane of U,V pairs (P2) or a U then a V plane
           at half the pitch (P3): as many bytes either way */
        row = sgx_tex_align_up(t->width, 8);
        t->size = row * t->height + row * DIV_ROUND_UP(t->height, 2);
    } else if (packed) {
        /* the last row (of blocks) need not be padded */
        row = sgx_tex_align_up(t->width, 8) * t->block_h * t->bpp;
        t->size = (row * (DIV_ROUND_UP(t->height, t->block_h) - 1)
                   + sgx_tex_align_up(t->width, t->block_w) * t->block_h
                     * t->bpp + 7) / 8;
    } else {
        t->size = off;
    }
}

bool sgx_tex_decode(const uint32_t w[4], SgxTexture *t, const char **why)
{
    memset(t, 0, sizeof(*t));
    if (!decode_format(w, t, why) || !decode_size(w, t, why)) {
        return false;
    }
    t->addr_u = SGX_TEXW0_UADDR(w[0]);
    t->addr_v = SGX_TEXW0_VADDR(w[0]);
    if (t->type == SGX_TEXTYPE_LINEAR_STRIDED) {
        return decode_strided(w, t, why);
    }
    decode_filters(w, t);
    decode_chain(w, t);
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
    if (sgx_tex_is_pvrt(t)) {
        /* PVRTC1's reflected Morton order (Khronos Data Format, PVRTC)
           is the swizzled order of words, whatever the texture type
           (UNVERIFIED for linear textures) */
        return base + sgx_swizzled_index(x, y, lw, lh) * bits;
    }
    switch (t->type) {
    case SGX_TEXTYPE_LINEAR_STRIDED:
        return base + (uint64_t)y * t->stride * 8 + x * bits;
    case SGX_TEXTYPE_LINEAR:
        idx = (uint64_t)y * (sgx_tex_align_up(lw * bw, 8) / bw) + x;
        break;
    case SGX_TEXTYPE_TILED:
        idx = sgx_tiled_index(x, y, sgx_tex_align_up(lw, 32) / 32);
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
