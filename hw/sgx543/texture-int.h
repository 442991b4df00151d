/*
 * SGX543 texture internals shared by texture.c (the words, layouts and
 * addressing), texture-format.c (the format and swizzle tables, format
 * names), texture-texel.c (texel fetch and unpacking), texture-block.c
 * (BC, PVRTC and YUV texels) and texture-sample.c (the sampler).  The
 * facts they rest on, and gemu's UNVERIFIED choices: texture.c's head.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_TEXTURE_INT_H
#define HW_SGX543_TEXTURE_INT_H

#include "hw/sgx543/texture.h"

#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif

/* SgxTexFormatInfo.kind */
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

/* Swizzle map entries beyond the fields (0..3): constant 0 and 1 */
#define ZERO    4
#define ONE     5

static inline uint64_t sgx_tex_align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* @bytes (up to 8) little-endian bytes at @p */
static inline uint64_t sgx_tex_read_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* PVRTC1: words in Morton order whatever the layout, power-of-two grids */
static inline bool sgx_tex_is_pvrt(const SgxTexture *t)
{
    return t->fmt->kind == K_PVRT4 || t->fmt->kind == K_PVRT2;
}

static inline bool sgx_tex_is_yuv(const SgxTexture *t)
{
    return t->fmt->kind >= K_YUV420P2;
}

static inline bool sgx_tex_is_cube(const SgxTexture *t)
{
    return t->type == SGX_TEXTYPE_CUBE
           || t->type == SGX_TEXTYPE_CUBE_ARBITRARY;
}

/* --- texture-format.c --- */

/* The format with base code @code, or NULL if not supported. */
const SgxTexFormatInfo *sgx_tex_format_info(unsigned code);
/* Is swizzle @swz defined for @f? */
bool sgx_tex_swizzle_ok(const SgxTexFormatInfo *f, unsigned swz);
/* Does @swz read the fields in the reverse order of f->width? */
bool sgx_tex_fields_reversed(const SgxTexFormatInfo *f, unsigned swz);
/* For output R, G, B, A: the field read, or ZERO / ONE. */
const int8_t *sgx_tex_swizzle_map(unsigned comps, unsigned swz);

/* --- texture-block.c: texels as fields R G B A, before the swizzle --- */

/* Texel (x, y) (within the block) of the 4x4 BC1/2/3 block at @b. */
void sgx_tex_block_texel(unsigned kind, const uint8_t *b, unsigned x,
                         unsigned y, float c[4]);
/* Texel (x, y) of a PVRTC1 level (@data: the texture's bytes). */
void sgx_tex_pvrt_texel(const SgxTexture *t, const uint8_t *data,
                        unsigned face, unsigned level, int x, int y,
                        float out[4]);
/* Texel (x, y) of a YUV texture, as RGBA (the swizzle applied). */
void sgx_tex_yuv_texel(const SgxTexture *t, const uint8_t *data,
                       unsigned x, unsigned y, float rgba[4]);

#endif
