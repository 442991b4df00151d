/*
 * SGX543 textures: the four SceGxmTexture control words, the memory
 * layouts (linear, strided, swizzled, tiled, cube; mip chains), the texel
 * formats and the sampler (point/bilinear filters, address modes, LOD
 * from the quad's coordinate differences, mip filtering).  Pure functions
 * over the texture's bytes, which the device maps for them; unit tests
 * call them on host buffers.
 *
 * The bit positions, enumeration values and layouts are facts from the
 * PS Vita SDK headers (vitasdk/vita-headers include/psp2/gxm.h: the enum
 * values) and Vita3K (vita3k/gxm/include/gxm/types.h: the SceGxmTexture
 * bitfields; gxm/src/textures.cpp and renderer/src/texture/cache.cpp:
 * sizes, mip chains, swizzle and tile orders).  What gemu guessed is
 * marked UNVERIFIED in texture.c and docs/devel/sgx543.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_TEXTURE_H
#define HW_SGX543_TEXTURE_H

#include "gemu/osdep.h"

/* Control word 0 */
#define SGX_TEXW0_VADDR(w)      (((w) >> 3) & 7)    /* SgxTexAddr */
#define SGX_TEXW0_UADDR(w)      (((w) >> 6) & 7)
#define SGX_TEXW0_MIP_FILTER(w) (((w) >> 9) & 1)    /* 1: between levels */
#define SGX_TEXW0_MIN_FILTER(w) (((w) >> 10) & 3)   /* SgxTexFilter */
#define SGX_TEXW0_MAG_FILTER(w) (((w) >> 12) & 3)
#define SGX_TEXW0_MIP_COUNT(w)  (((w) >> 17) & 15)  /* levels - 1; 15: none */
#define SGX_TEXW0_LOD_BIAS(w)   (((w) >> 21) & 63)  /* (v - 31) / 8 */
#define SGX_TEXW0_GAMMA(w)      (((w) >> 27) & 3)
#define SGX_TEXW0_FORMAT0(w)    ((w) >> 31)         /* format bit 31 */
/* LINEAR_STRIDED: bits 9..11 and 17..26 hold (stride / 4 - 1) */
#define SGX_TEXW0_STRIDE(w)     ((((w) >> 9) & 7) | (((w) >> 17) & 0x3ff) << 3)

/* Control word 1 */
#define SGX_TEXW1_HEIGHT(w)     ((w) & 0xfff)       /* height - 1 */
#define SGX_TEXW1_WIDTH(w)      (((w) >> 12) & 0xfff)   /* width - 1 */
#define SGX_TEXW1_HEIGHT_LOG2(w) ((w) & 15)         /* swizzled, cube */
#define SGX_TEXW1_WIDTH_LOG2(w) (((w) >> 16) & 15)
#define SGX_TEXW1_BASE_FORMAT(w) (((w) >> 24) & 31) /* format bits 24..28 */
#define SGX_TEXW1_TYPE(w)       ((w) >> 29)         /* SgxTexType */

/* Control word 2: data address (4-byte aligned), lod_min [1:0] */
#define SGX_TEXW2_LOD_MIN0(w)   ((w) & 3)
#define SGX_TEXW2_DATA(w)       ((w) & ~3u)

/* Control word 3 */
#define SGX_TEXW3_PALETTE(w)    (((w) & 0x3ffffff) << 6)
#define SGX_TEXW3_LOD_MIN1(w)   (((w) >> 26) & 3)   /* lod_min [3:2] */
#define SGX_TEXW3_SWIZZLE(w)    (((w) >> 28) & 7)   /* format bits 12..14 */
#define SGX_TEXW3_NORMALIZE(w)  ((w) >> 31)

/* SceGxmTextureType >> 29 */
typedef enum SgxTexType {
    SGX_TEXTYPE_SWIZZLED = 0,
    SGX_TEXTYPE_CUBE = 2,
    SGX_TEXTYPE_LINEAR = 3,
    SGX_TEXTYPE_TILED = 4,
    SGX_TEXTYPE_SWIZZLED_ARBITRARY = 5,
    SGX_TEXTYPE_LINEAR_STRIDED = 6,
    SGX_TEXTYPE_CUBE_ARBITRARY = 7,
} SgxTexType;

/*
 * Base formats: SceGxmTextureBaseFormat bits 24..28, and bit 31 as bit 5
 * (format0).  Those gemu decodes; the others (PVRTC-II, U2F10F10F10,
 * U32...) are refused as unsupported.
 */
typedef enum SgxTexBase {
    SGX_TEXB_U8 = 0x00, SGX_TEXB_S8 = 0x01, SGX_TEXB_U4U4U4U4 = 0x02,
    SGX_TEXB_U1U5U5U5 = 0x04, SGX_TEXB_U5U6U5 = 0x05, SGX_TEXB_U8U8 = 0x07,
    SGX_TEXB_S8S8 = 0x08, SGX_TEXB_U16 = 0x09, SGX_TEXB_S16 = 0x0a,
    SGX_TEXB_F16 = 0x0b, SGX_TEXB_U8U8U8U8 = 0x0c, SGX_TEXB_S8S8S8S8 = 0x0d,
    SGX_TEXB_U2U10U10U10 = 0x0e, SGX_TEXB_U16U16 = 0x0f,
    SGX_TEXB_S16S16 = 0x10, SGX_TEXB_F16F16 = 0x11, SGX_TEXB_F32 = 0x12,
    SGX_TEXB_F32M = 0x13, SGX_TEXB_F16F16F16F16 = 0x1b,
    SGX_TEXB_U16U16U16U16 = 0x1c, SGX_TEXB_S16S16S16S16 = 0x1d,
    SGX_TEXB_F32F32 = 0x1e, SGX_TEXB_P4 = 0x34, SGX_TEXB_P8 = 0x35,
    SGX_TEXB_U8U8U8 = 0x38, SGX_TEXB_S8S8S8 = 0x39,
    /* packed floats */
    SGX_TEXB_SE5M9M9M9 = 0x19, SGX_TEXB_F11F11F10 = 0x1a,
    /* block-compressed: 4x4 texels a block (BC1..3 = DXT1/3/5) */
    SGX_TEXB_UBC1 = 0x25, SGX_TEXB_UBC2 = 0x26, SGX_TEXB_UBC3 = 0x27,
    /* PVRTC1: 8x4 (2bpp) or 4x4 (4bpp) texels a 64-bit word */
    SGX_TEXB_PVRT2BPP = 0x20, SGX_TEXB_PVRT4BPP = 0x21,
    /* YUV: linear only; the swizzle picks the byte order and the CSC */
    SGX_TEXB_YUV420P2 = 0x30, SGX_TEXB_YUV420P3 = 0x31,
    SGX_TEXB_YUV422 = 0x32,
} SgxTexBase;

/* SceGxmTextureGammaMode >> 27 (GAMMA_BGR is GAMMA_R) */
enum {
    SGX_TEX_GAMMA_NONE = 0, SGX_TEX_GAMMA_R = 1, SGX_TEX_GAMMA_GR = 3,
};

/* SceGxmTextureFormat from a base format and a swizzle (0..7) */
#define SGX_TEX_FORMAT(base, swz) \
    ((((uint32_t)(base) & 0x1f) << 24) | (((uint32_t)(base) >> 5) << 31) | \
     ((uint32_t)(swz) << 12))

/* SceGxmTextureAddrMode */
typedef enum SgxTexAddr {
    SGX_TEX_REPEAT = 0, SGX_TEX_MIRROR, SGX_TEX_CLAMP, SGX_TEX_MIRROR_CLAMP,
    SGX_TEX_REPEAT_IGNORE_BORDER, SGX_TEX_CLAMP_FULL_BORDER,
    SGX_TEX_CLAMP_IGNORE_BORDER, SGX_TEX_CLAMP_HALF_BORDER,
} SgxTexAddr;

/* SceGxmTextureFilter */
typedef enum SgxTexFilter {
    SGX_TEX_POINT = 0, SGX_TEX_LINEAR, SGX_TEX_MIPMAP_LINEAR,
    SGX_TEX_MIPMAP_POINT,
} SgxTexFilter;

#define SGX_TEX_MAX_SIZE    4096
#define SGX_TEX_MAX_LEVELS  13      /* 4096 .. 1 */

typedef struct SgxTexFormatInfo SgxTexFormatInfo;

/* Control words decoded, with the layout worked out. */
typedef struct SgxTexture {
    SgxTexType type;
    const SgxTexFormatInfo *fmt;
    unsigned base, swizzle;
    unsigned width, height;     /* level 0, texels */
    unsigned levels;            /* levels the sampler may use (>= 1) */
    unsigned bpp;               /* bits a texel */
    uint32_t data;              /* device address of level 0 (face 0) */
    uint32_t palette;           /* P4/P8: device address of the palette */
    unsigned palette_size;      /* bytes (64 or 1024), 0: no palette */
    SgxTexFilter min_filter, mag_filter;
    bool mip_linear;
    SgxTexAddr addr_u, addr_v;
    float lod_bias;
    unsigned lod_min;
    uint32_t stride;            /* LINEAR_STRIDED: bytes a row (of blocks) */
    unsigned gamma;             /* SGX_TEX_GAMMA_*: sRGB-decoded fields */
    unsigned block_w, block_h;  /* 1x1; 4x4, 8x4 compressed; 2x1 YUV422 */
    uint64_t level_offset[SGX_TEX_MAX_LEVELS];  /* bytes, within a face */
    uint64_t face_size;         /* cube: bytes from face to face */
    uint64_t size;              /* bytes spanned from data */
} SgxTexture;

/* Describe a texture; false with *why set if the words are illegal or
   name something gemu does not decode. */
bool sgx_tex_decode(const uint32_t w[4], SgxTexture *t, const char **why);

/* Dimensions of @level (texels; at least 1). */
unsigned sgx_tex_level_width(const SgxTexture *t, unsigned level);
unsigned sgx_tex_level_height(const SgxTexture *t, unsigned level);

/*
 * Index of texel/pixel (x, y) in the tiled layout (32x32 tiles, @tiles_w
 * a row, each tile row-major) and in the swizzled one (Morton order, y in
 * the even bits, in squares of the smaller power-of-two side of w x h).
 * Textures and colour surfaces share them.
 */
uint64_t sgx_tiled_index(uint32_t x, uint32_t y, uint32_t tiles_w);
/* The smallest power of two >= @v (1 for 0). */
uint32_t sgx_pow2ceil(uint32_t v);
uint64_t sgx_swizzled_index(uint32_t x, uint32_t y, uint32_t w, uint32_t h);

/* Bit offset from t->data of texel (x, y) of @level of cube @face; for
   block-compressed formats, of the block holding the texel. */
uint64_t sgx_tex_texel_bit(const SgxTexture *t, unsigned face,
                           unsigned level, unsigned x, unsigned y);

/*
 * One texel as RGBA floats: @data is t->size bytes at t->data, @palette
 * t->palette_size bytes (or NULL).
 */
void sgx_tex_fetch(const SgxTexture *t, const uint8_t *data,
                   const uint8_t *palette, unsigned face, unsigned level,
                   unsigned x, unsigned y, float rgba[4]);

/*
 * Wrap texel coordinate @i into [0, n) per @mode; -1: outside, the
 * border colour (transparent black) is read.
 */
int sgx_tex_wrap(SgxTexAddr mode, int i, int n);

/* A lookup, as the USSE SMP instruction (or the non-dependent read) asks. */
typedef struct SgxTexLookup {
    unsigned dim;               /* 2; 3 for a cube (1: v = 0) */
    float coord[3];
    float dx[3], dy[3];         /* coordinate differences across the quad */
    unsigned lod_mode;          /* 0 from dx/dy, 1 + bias, 2 replace,
                                   3 gradients in lod[] */
    float lod[6];
} SgxTexLookup;

/* The level of detail before clamping (log2 of the texel footprint). */
float sgx_tex_lod(const SgxTexture *t, const SgxTexLookup *l);

void sgx_tex_sample(const SgxTexture *t, const uint8_t *data,
                    const uint8_t *palette, const SgxTexLookup *l,
                    float out[4]);

/* Building control words (scene files, tests). */
typedef struct SgxTexParams {
    uint32_t format;            /* SceGxmTextureFormat */
    SgxTexType type;
    unsigned width, height;
    uint32_t data, palette;
    unsigned levels;            /* 0: no mip chain (mip count field 15) */
    SgxTexFilter min_filter, mag_filter;
    bool mip_linear;
    SgxTexAddr addr_u, addr_v;
    unsigned lod_bias;          /* the raw field: 31 = no bias */
    unsigned lod_min;
    uint32_t stride;            /* LINEAR_STRIDED: bytes a row */
    unsigned gamma;
    bool normalize;
} SgxTexParams;

/* Defaults: U8U8U8U8_ABGR, linear, point, repeat, no mips, bias 31. */
void sgx_tex_params_init(SgxTexParams *p);
bool sgx_tex_encode(const SgxTexParams *p, uint32_t w[4], const char **why);

/*
 * "U8U8U8U8_ABGR", "U5U6U5_RGB", "P8_ABGR", "U8_1RRR" ... (the
 * SceGxmTextureFormat names without the prefix, any case) to a format.
 */
bool sgx_tex_format_parse(const char *name, uint32_t *format);
/* "linear", "swizzled", "tiled", "cube", "linear-strided", ... */
int sgx_tex_type_parse(const char *name);

#endif
