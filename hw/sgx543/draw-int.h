/*
 * SGX543 draw internals shared by draw.c (DRAW and CLEAR: checks,
 * shader runs, vertex fetch, the SMP callback, the MSAA resolve),
 * draw-prim.c (primitive assembly, clipping, triangles, lines, points)
 * and draw-frag.c (rasterised quads, depth/stencil, the fragment
 * program, blending and the store).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_DRAW_INT_H
#define HW_SGX543_DRAW_INT_H

#include "priv.h"

#define QUAD_BATCH      64
#define MAX_CLIP_VERTS  16
#define MAX_VARYINGS    (USSE_MAX_REGS - 4)

typedef struct ClipVert {
    float pos[4];
    float var[MAX_VARYINGS];
} ClipVert;

typedef struct DrawCtx {
    Sgx543State *s;
    SgxProgram *vp, *fp;
    uint32_t vsa[USSE_MAX_REGS], fsa[USSE_MAX_REGS];
    unsigned nvar;                  /* varyings per vertex (vout - 4) */
    bool late_z;
    bool abort;
    uint8_t *color;                 /* mapped colour surface */
    uint8_t *depth;                 /* mapped depth surface or NULL */
    unsigned bpp;

    /* textures: the last SMP words, and the units' mappings */
    bool smp_valid;
    uint32_t smp_w[4];
    SgxTexture smp_tex;
    const uint8_t *smp_data, *smp_pal;
    const uint8_t *unit_data[SGX_NUM_TEX], *unit_pal[SGX_NUM_TEX];

    /* the triangle being rasterised */
    RasterVert sv[3];
    const ClipVert *cv[3];

    /* the batch of quads waiting for the fragment program */
    unsigned nquads;
    RasterQuad quads[QUAD_BATCH];
    float qz[QUAD_BATCH][4][4];     /* depth per pixel and sample */
    uint32_t pa[QUAD_BATCH * 4 * USSE_MAX_REGS];
    unsigned pa_words;
    bool helper[QUAD_BATCH * 4];
} DrawCtx;

/* --- draw.c --- */

/* Run @prog; false (error raised) on a trap.  The caller frees *runp. */
bool sgx_draw_run_program(DrawCtx *c, UsseStage stage,
                          const UsseProgram *prog, uint32_t *sa,
                          const UsseLaunch *launch, UsseRun **runp);
/* A texture unit's mapping, made on its first use in the draw; NULL if
   the unit is unset or (c->abort set) its memory faults. */
const SgxTexture *sgx_draw_unit_texture(DrawCtx *c, unsigned unit,
                                        const uint8_t **data,
                                        const uint8_t **pal);

/* --- draw-prim.c --- */

/* Primitives from the vertices' outputs (@vstride floats each). */
void sgx_draw_assemble(DrawCtx *c, unsigned prim, const float *vout,
                       size_t vstride, uint32_t count);

/* --- draw-frag.c --- */

/* The rasteriser's callback: a quad of the triangle c->sv / c->cv. */
void sgx_draw_raster_quad(void *opaque, const RasterQuad *q);
/* Run the fragment program on the batched quads and store them. */
void sgx_draw_flush_quads(DrawCtx *c);

#endif
