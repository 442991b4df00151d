/*
 * The texture unit of hw/nv50/gr/ (texture.c, texture-tic.c,
 * texture-filter.c, texture-format.c): TIC and TSC entries decoded,
 * texels decoded by format, sampling.
 *
 * TIC (texture image control) and TSC (texture sampler control) entries
 * are 8 words each (rnndb graph/g80_texture.xml); the tables live at
 * TIC_ADDRESS / TSC_ADDRESS in DMA_TIC / DMA_TSC (32 bytes an entry),
 * BIND_TIC / BIND_TSC map a program type's $t / $s slots to entries.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_TEXTURE_H
#define HW_NV50_GR_TEXTURE_H

#include "pipe.h"
#include "hw/nv50/surface.h"

/* TIC word 0: COMPONENTS_SIZES (g80_texture.xml) */
enum {
    NV50_TF_R32_G32_B32_A32 = 0x01,
    NV50_TF_R16_G16_B16_A16 = 0x03,
    NV50_TF_R32_G32 = 0x04,
    NV50_TF_R32_B24G8 = 0x05,
    NV50_TF_X8B8G8R8 = 0x07,
    NV50_TF_A8B8G8R8 = 0x08,
    NV50_TF_A2B10G10R10 = 0x09,
    NV50_TF_R16_G16 = 0x0c,
    NV50_TF_G8R24 = 0x0d,
    NV50_TF_G24R8 = 0x0e,
    NV50_TF_R32 = 0x0f,
    NV50_TF_A4B4G4R4 = 0x12,
    NV50_TF_A5B5G5R1 = 0x13,
    NV50_TF_A1B5G5R5 = 0x14,
    NV50_TF_B5G6R5 = 0x15,
    NV50_TF_B6G5R5 = 0x16,
    NV50_TF_G8R8 = 0x18,
    NV50_TF_R16 = 0x1b,
    NV50_TF_Y8_VIDEO = 0x1c,
    NV50_TF_R8 = 0x1d,
    NV50_TF_G4R4 = 0x1e,
    NV50_TF_R1 = 0x1f,
    NV50_TF_E5B9G9R9 = 0x20,
    NV50_TF_BF10GF11RF11 = 0x21,
    NV50_TF_G8B8G8R8 = 0x22,
    NV50_TF_B8G8R8G8 = 0x23,
    NV50_TF_DXT1 = 0x24,
    NV50_TF_DXT23 = 0x25,
    NV50_TF_DXT45 = 0x26,
    NV50_TF_DXN1 = 0x27,
    NV50_TF_DXN2 = 0x28,
    NV50_TF_Z24S8 = 0x29,
    NV50_TF_X8Z24 = 0x2a,
    NV50_TF_S8Z24 = 0x2b,
    NV50_TF_ZF32 = 0x2f,
    NV50_TF_ZF32_X24S8 = 0x30,
    NV50_TF_Z16 = 0x3a,
};

/* TIC word 0: component data types (g80_defs.xml G80_TIC_TYPE) */
enum {
    NV50_TT_SNORM = 1,
    NV50_TT_UNORM = 2,
    NV50_TT_SINT = 3,
    NV50_TT_UINT = 4,
    NV50_TT_SNORM_FP16 = 5,
    NV50_TT_UNORM_FP16 = 6,
    NV50_TT_FLOAT = 7,
};

/* TIC word 0: X/Y/Z/W sources (G80_TIC_SOURCE) */
enum {
    NV50_TS_ZERO = 0,
    NV50_TS_R = 2,
    NV50_TS_G = 3,
    NV50_TS_B = 4,
    NV50_TS_A = 5,
    NV50_TS_ONE_INT = 6,
    NV50_TS_ONE_FLOAT = 7,
};

/* TIC word 2: TEXTURE_TYPE */
enum {
    NV50_TEX_1D = 0,
    NV50_TEX_2D = 1,
    NV50_TEX_3D = 2,
    NV50_TEX_CUBE = 3,
    NV50_TEX_1D_ARRAY = 4,
    NV50_TEX_2D_ARRAY = 5,
    NV50_TEX_1D_BUFFER = 6,
    NV50_TEX_2D_NO_MIPMAP = 7,
    NV50_TEX_CUBE_ARRAY = 8,
};

/* TSC word 0: wrap modes (G80_TSC_WRAP) */
enum {
    NV50_WRAP_REPEAT = 0,
    NV50_WRAP_MIRROR = 1,
    NV50_WRAP_CLAMP_EDGE = 2,
    NV50_WRAP_BORDER = 3,
    NV50_WRAP_CLAMP_OGL = 4,
    NV50_WRAP_MIRROR_ONCE_EDGE = 5,
    NV50_WRAP_MIRROR_ONCE_BORDER = 6,
    NV50_WRAP_MIRROR_ONCE_OGL = 7,
};

/* TSC word 0: MAX_ANISOTROPY (g80_max_anisotropy: 1, 2, 4, .. 12, 16) */
#define NV50_TSC_0_MAX_ANISOTROPY_SHIFT     20

/* TSC word 1 filters */
#define NV50_FILTER_NEAREST     1
#define NV50_FILTER_LINEAR      2
#define NV50_MIP_NONE           1
#define NV50_MIP_NEAREST        2
#define NV50_MIP_LINEAR         3

/*
 * TIC words 3 and 6: with USE_HEADER_OPT_CONTROL the header's own
 * MAX_ANISOTROPY (g80_max_anisotropy) instead of the TSC's; Mesa sets
 * it only in the view an 8x surface is resolved through.
 */
#define NV50_TIC_3_USE_HEADER_OPT_CONTROL   0x20000000u
#define NV50_TIC_6_MAX_ANISOTROPY_SHIFT     27
#define NV50_TIC_6_MAX_ANISOTROPY_MASK      7u

#define NV50_TEX_MAX_LEVELS     16

/* How a format's elements are stored. */
typedef struct NV50TexFormat {
    uint8_t bytes;              /* per element (block for compressed) */
    uint8_t bw, bh;             /* texels per element: 1x1, 2x1, 4x4 */
    bool compressed;            /* DXT / DXN */
    bool depth;                 /* a depth format (compare applies) */
} NV50TexFormat;

/* A TIC entry, decoded. */
typedef struct NV50TexView {
    uint32_t w[8];
    unsigned format;            /* COMPONENTS_SIZES */
    uint8_t type[4];            /* R, G, B, A data types */
    uint8_t src[4];             /* X, Y, Z, W sources */
    NV50TexFormat fmt;
    uint64_t addr;
    unsigned kind;              /* NV50_TEX_* */
    bool pitch_layout;
    bool srgb;
    bool normalized;
    uint32_t pitch;             /* pitch layout: bytes from row to row */
    uint8_t block_w, block_h, block_d;  /* level 0's, log2 GOBs */
    uint32_t width, height, depth;      /* level 0; depth: layers/cubes */
    unsigned min_level, max_level;      /* levels sampled */
    unsigned levels;            /* levels laid out (MAP_MIP_LEVEL + 1) */
    bool hdr_opt;               /* TIC_3 USE_HEADER_OPT_CONTROL */
    unsigned hdr_aniso;         /* the header's max ratio (1: isotropic) */
    unsigned layers;            /* subtextures (arrays: layers, cubes x6) */
    /* per level: size in texels, surface (auto-sized blocks), offset */
    uint32_t level_w[NV50_TEX_MAX_LEVELS];
    uint32_t level_h[NV50_TEX_MAX_LEVELS];
    uint32_t level_d[NV50_TEX_MAX_LEVELS];
    NV50Surface level_sf[NV50_TEX_MAX_LEVELS];
    uint64_t level_off[NV50_TEX_MAX_LEVELS];
    uint64_t layer_stride;      /* bytes from subtexture to subtexture */
} NV50TexView;

/* A TSC entry, decoded. */
typedef struct NV50TexSampler {
    uint32_t w[8];
    uint8_t wrap[3];
    bool compare;
    uint8_t compare_func;       /* 0 NEVER .. 7 ALWAYS (GL order) */
    bool srgb;                  /* SRGB_CONVERSION (allows TIC's) */
    unsigned max_aniso;         /* max ratio: 1 (isotropic) .. 16 */
    uint8_t mag, min, mip;      /* NV50_FILTER_*, NV50_MIP_* */
    float lod_bias, min_lod, max_lod;
    float border[4];            /* as floats (integer formats: bits) */
    uint32_t border_bits[4];
    float srgb_border[3];       /* linear values of the sRGB bytes */
} NV50TexSampler;

/*
 * A shortcut of nv50_tex_decode for the plain formats whose components
 * are each a whole byte of UNORM (A8B8G8R8, X8B8G8R8, G8R8, R8 as Mesa
 * uses them) or absent: the same bits from a table.
 */
typedef struct NV50TexDecode {
    bool plain8;                /* the shortcut applies */
    int8_t byte[4];             /* R, G, B, A: the element's byte, -1: 0 */
    const uint32_t *unorm8;     /* float bits of 0..255 / 255 */
} NV50TexDecode;

/* --- texture-format.c --- */

/* What format @format is, false if gemu does not know it. */
bool nv50_tex_format_info(unsigned format, NV50TexFormat *f);
/*
 * Decode texel (@x, @y) (0..bw-1, 0..bh-1) of the element @el of view
 * @v into the four components R, G, B, A (before the X/Y/Z/W sources):
 * float bits for normalised and float types, integers for SINT/UINT.
 * Components a format lacks are 0.
 */
void nv50_tex_decode(const NV50TexView *v, const uint8_t *el, unsigned x,
                     unsigned y, uint32_t comp[4]);
/* @d for view @v (d->plain8 false: use nv50_tex_decode) */
void nv50_tex_decode_prep(const NV50TexView *v, NV50TexDecode *d);

/* nv50_tex_decode of a view whose NV50TexDecode says plain8 */
static inline void nv50_tex_decode8(const NV50TexDecode *d,
                                    const uint8_t *el, uint32_t comp[4])
{
    for (unsigned k = 0; k < 4; k++) {
        comp[k] = d->byte[k] < 0 ? 0 : d->unorm8[el[d->byte[k]]];
    }
}

/* sRGB to linear, for values 0..1 */
float nv50_srgb_to_linear(float c);

/* --- texture-tic.c --- */

/* Decode the 8 words of a TIC / TSC entry. */
bool nv50_tic_decode(const uint32_t w[8], NV50TexView *v);
void nv50_tsc_decode(const uint32_t w[8], NV50TexSampler *s);

/* --- texture.c --- */

/*
 * The sampler proper: nv50_tex_sample() is this with @quads true for
 * the FP program type.  @quads: lanes 4q..4q+3 are a quad (UL, UR, LL,
 * LR) whose coordinates give implicit derivatives; false (VP, GP,
 * compute): implicit LOD is 0 unless the instruction says deriv.
 */
void nv50_tex_exec(NV50GrCall *c, unsigned prog, bool quads,
                   const TeslaInsn *insn, uint32_t mask,
                   uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                   uint32_t out[4][TESLA_WARP_SIZE]);

#endif
