/*
 * The texture unit's state for one tex instruction, shared by its
 * files: texture.c (the instruction: entries, coordinates, LOD,
 * anisotropy, cube maps, texfetch and texsize) and texture-filter.c
 * (texel reads, depth compare, the sources, wrap modes, filtering).
 * texture-tic.c decodes the TIC and TSC entries, texture-format.c the
 * texels' formats (texture.h).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_TEXTURE_INT_H
#define HW_NV50_GR_TEXTURE_INT_H

#include "texture.h"
#include "tpc.h"

/* VM pages a texture instruction remembers (a bilinear quad: 4 texels) */
#define TEX_TLB_ENTRIES     8

#define TEX_SUBCLIENT           0       /* UNVERIFIED */

/* The LOD of a quad (texture.c's quad_lod) */
typedef struct TexQuadLod {
    unsigned key;               /* (quad + 1) * 8 + face, 0: none */
    float lambda;
    unsigned taps;
    float step[3];
} TexQuadLod;

/* What one tex instruction (a warp's lanes) works with */
typedef struct Tex {
    NV50GrCall *c;
    NV50TexView v;
    NV50TexSampler s;
    bool has_dma;
    NV50CtxDma dma;
    bool fault;
    bool int_chan[4];           /* output channels that are integers */
    bool any_int;               /* one of int_chan[] */
    bool srgb_chan[4];          /* output channels sRGB-converted */
    int8_t offs[3];             /* texel offsets of the instruction */
    /* the VM pages of this instruction's texels: it lasts one warp's tex
       instruction, during which the page tables are not written */
    NV50TlbEntry tlb[TEX_TLB_ENTRIES];
    NV50TexDecode dec;          /* the view's decoding shortcut */
    TexQuadLod quad;            /* the last quad's LOD */
    uint32_t walk_made;         /* levels whose walk[] is made */
    NV50SurfaceWalk walk[NV50_TEX_MAX_LEVELS];
} Tex;

/* A filter's sums: float channels weighted, integer ones the heaviest */
typedef struct TexAcc {
    float f[4];
    uint32_t bits[4];
    float best[4];
} TexAcc;

static inline unsigned coord_dims(unsigned kind)
{
    switch (kind) {
    case NV50_TEX_1D:
    case NV50_TEX_1D_ARRAY:
    case NV50_TEX_1D_BUFFER:
        return 1;
    case NV50_TEX_3D:
        return 3;
    default:
        return 2;
    }
}

static inline bool is_array(unsigned kind)
{
    return kind == NV50_TEX_1D_ARRAY || kind == NV50_TEX_2D_ARRAY ||
           kind == NV50_TEX_CUBE_ARRAY;
}

static inline bool is_cube(unsigned kind)
{
    return kind == NV50_TEX_CUBE || kind == NV50_TEX_CUBE_ARRAY;
}

/* --- texture-filter.c --- */

/*
 * Texel (@x, @y, @z) of level @l of subtexture @layer (in range), after
 * the compare (@cmp) and the sources.
 */
void nv50_tex_texel(Tex *t, unsigned l, int x, int y, int z, int layer,
                    bool cmp, float dref, uint32_t out[4]);
/*
 * Filter level @l at coordinates @c (normalised or texels, per the TIC)
 * into @a with weight @weight.
 */
void nv50_tex_filter_level(Tex *t, TexAcc *a, unsigned l, const float c[3],
                           int layer, bool linear, bool cmp, float dref,
                           float weight);

#endif
