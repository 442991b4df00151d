/*
 * The G84's 3D pipeline inside hw/nv50/gr/: its stages, one file each,
 * and what they hand each other.  Everything runs on the engine thread,
 * from a 3D method (a draw, a clear), with the channel's state as the
 * 3D object (3d.c, NV50Gr3dState) and PGRAPH's shared state
 * (NV50GrShared) hold it.
 *
 *   3d-draw.c  the draw methods (VERTEX_BEGIN/END_GL/D3D, VERTEX_BUFFER_
 *              FIRST/COUNT, VB_ELEMENT_U8/U16/U32, VERTEX_DATA, instancing,
 *              primitive restart): vertex indices into primitives
 *   vfetch.c   vertex attributes (VERTEX_ARRAY_*, inline data, VertexID/
 *              InstanceID) into VP inputs
 *   vp.c       VP warps of 32 vertices on the TPC/MP model
 *              (tpc.c), their o[] outputs through VP_RESULT_MAP
 *   gp.c       GP warps of 32 input primitives (GP_ENABLE): emitted
 *              vertices through GP_RESULT_MAP into output primitives
 *   strmout.c  stream output (transform feedback) of the primitives
 *              after the VP or GP, before clipping
 *   clip.c     clipping (frustum, user planes, guard band), perspective
 *              divide, viewport and depth range, culling and front face:
 *              NV50PipeVertex -> NV50PipePrim
 *   fp.c       NV50PipePrim -> coverage (hw/core/raster.h) -> FP quads on
 *              the MPs (interpolation from the primitive's vertices) ->
 *              ROP
 *   rop.c      render targets and zeta: depth/stencil (rop-zs.c),
 *              blending, masks, logic ops (rop-color.c), formats
 *              (rop-format.c); CLEAR_BUFFERS (rop-clear.c)
 *   msaa.c     multisample modes (sample counts, positions, layout) and
 *              the coverage they add (alpha-to-coverage), for rop.c
 *   texture.c  TIC/TSC entries and sampling, for tex instructions
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_PIPE_H
#define HW_NV50_GR_PIPE_H

#include "3d.h"
#include "hw/core/raster.h"
#include "target/tesla/exec.h"

/* o[] words a VP may write (the result map's range) */
#define NV50_PIPE_OUT_WORDS     128
#define NV50_PIPE_RTS           8       /* render targets */

typedef enum NV50PrimKind {
    NV50_PRIM_POINTS,
    NV50_PRIM_LINES,
    NV50_PRIM_TRIANGLES,
} NV50PrimKind;

/*
 * A vertex after the VP (and GP): its clip-space position and every o[]
 * word the VP wrote, laid out as the FP's interpolants will read them
 * (the VP_RESULT_MAP applied).
 */
typedef struct NV50PipeVertex {
    float clip[4];              /* x, y, z, w */
    float point_size;           /* if the VP writes one, else the state's */
    uint32_t out[NV50_PIPE_OUT_WORDS];
    unsigned out_words;
} NV50PipeVertex;

/*
 * A primitive after clipping, the perspective divide, the viewport and
 * culling: what the back end draws.  scr[i].x/.y in pixels of the render
 * target, .z after the depth range (what ZROP compares), .inv_w = 1/w
 * of the clip position (for perspective-correct interpolation).
 */
typedef struct NV50PipePrim {
    NV50PrimKind kind;
    unsigned nverts;            /* 1, 2 or 3 */
    RasterVert scr[3];
    const NV50PipeVertex *v[3];
    const NV50PipeVertex *provoking;    /* for flat shading */
    bool front;                 /* front-facing (lines, points: true) */
    float width;                /* lines: width; points: size (pixels) */
    /*
     * The render target layer: the provoking vertex's SEMANTIC_LAYER
     * word with LAYER USE_GP, else LAYER.IDX; the viewport (transform,
     * depth range, scissor): its SEMANTIC_VIEWPORT word with
     * GP_VIEWPORT_ID_ENABLE, else 0 (clip.c).
     */
    uint32_t layer;
    unsigned viewport;
} NV50PipePrim;

/* --- ROP (rop.c) --- */

/*
 * The render targets, zeta buffer and per-fragment state of one draw or
 * clear, resolved from the 3D state once (surfaces through the channel's
 * VM or DMA objects, formats, tile modes, blend/depth/stencil state).
 */
typedef struct NV50Rop NV50Rop;

/* Resolve the state; NULL (with the error raised) if it is unusable. */
NV50Rop *nv50_rop_begin(NV50GrCall *c, NV50Gr3dState *st);
/*
 * nv50_rop_begin for primitives of NV50PipePrim.layer @layer and
 * .viewport @viewport: the surfaces at that layer (with LAYER USE_GP, a
 * layer past a surface's RT_ARRAY_MODE or ZETA_ARRAY_MODE LAYERS is
 * layer 0 of it), the scissor SCISSOR_*[@viewport].  nv50_rop_begin is
 * this with LAYER.IDX and viewport 0.
 */
NV50Rop *nv50_rop_begin_at(NV50GrCall *c, NV50Gr3dState *st, uint32_t layer,
                           unsigned viewport);
void nv50_rop_end(NV50Rop *r);  /* writes back what it buffered, frees */
/* The 3D state's spare ROP chunks (NV50Gr3dState.rop_pool), freed */
void nv50_rop_pool_free(struct NV50RopPool *p);
/*
 * Lanes: @n copies of the ROP (at most 8, made once a ROP; one lane is
 * the ROP itself: nothing made; the number there is returned), each
 * with its own memory cache and broadcast state, so that each may be
 * used by one thread while the others and the ROP itself are used by
 * others.  The callers keep every pixel's tests and writes in one of
 * them (e.g. by screen tile) and its order theirs.  nv50_rop_end, with
 * the lanes no longer in use, writes back theirs too.  A fault in any
 * ends the memory work of all (nothing written).
 */
unsigned nv50_rop_lanes(NV50Rop *r, unsigned n);
/* Lane @i of @r (@r itself without lanes). */
NV50Rop *nv50_rop_lane(NV50Rop *r, unsigned i);
/*
 * With the lanes not in use: write back theirs and the ROP's own
 * buffered writes, so that any lane or the ROP then reads them.
 */
void nv50_rop_lanes_sync(NV50Rop *r);

/*
 * Early or late depth/stencil test of one sample of pixel (x, y) at depth
 * @z for a primitive facing @front; updates zeta as the state says (the
 * stencil ops of a failing sample too).  True if the sample survives.
 */
bool nv50_rop_zs_test(NV50Rop *r, int x, int y, unsigned sample, float z,
                      bool front);
/*
 * True if nv50_rop_zs_test passes every sample the rasteriser gives in
 * nv50_rop_bounds() (no zeta, one sample, no clip rectangles): the test
 * may then be left out.
 */
bool nv50_rop_zs_passes(const NV50Rop *r);
/*
 * One sample rasterised on a multisample surface (broadcast: _broadcasts
 * says if so): the surface samples of pixel (x, y) its last
 * nv50_rop_zs_test let through (0xff if that test was of another
 * pixel), and the same set on @r (another lane; 0xff: every enabled
 * sample) for its nv50_rop_write of the pixel, so that an early test
 * on one lane and the writes on another write the same samples.
 */
bool nv50_rop_broadcasts(const NV50Rop *r);
uint8_t nv50_rop_zs_broadcast(const NV50Rop *r, int x, int y);
void nv50_rop_zs_broadcast_set(NV50Rop *r, int x, int y, uint8_t pass);
/*
 * True if writes of sample 0 go to one plain target (one sample, one
 * 8-bit UNORM RT written whole, no blending, logic op or clip
 * rectangles): nv50_rop_write_quad may then stand for nv50_rop_write.
 */
bool nv50_rop_quad_plain(const NV50Rop *r);
/* nv50_rop_write of sample 0 of the pixels of quad (x, y) in @mask
   (bit i: pixel (x + (i & 1), y + (i >> 1))), colour @col[i] each */
void nv50_rop_write_quad(NV50Rop *r, int x, int y, unsigned mask,
                         const float col[4][4]);
/*
 * Blend and write the FP's colour outputs (@color[rt] = RGBA floats, or
 * integers as float bits for integer formats) to sample @sample of pixel
 * (x, y) of every enabled render target, through the colour masks and
 * logic op.
 */
void nv50_rop_write(NV50Rop *r, int x, int y, unsigned sample,
                    const float color[NV50_PIPE_RTS][4]);
/* The scissor/clip rectangle and sample count fragments are bounded by. */
void nv50_rop_bounds(const NV50Rop *r, RasterParams *p);
/*
 * The alpha test (ALPHA_TEST_ENABLE/REF/FUNC) of colour output 0's
 * alpha, which the back end does before late Z: true if the fragment
 * survives (always, with the test off).
 */
bool nv50_rop_alpha_test(const NV50Rop *r, float alpha);
/*
 * MULTISAMPLE_CTRL ALPHA_TO_COVERAGE (msaa.h): the samples a fragment
 * whose colour output 0 has alpha @alpha keeps, bit s = sample s (all
 * with it off, or without MULTISAMPLE_ENABLE on a multisample surface).
 * _on: whether it may drop any (the back end then tests Z late).
 */
bool nv50_rop_alpha_coverage_on(const NV50Rop *r);
uint32_t nv50_rop_alpha_coverage(const NV50Rop *r, float alpha);
/* The colour outputs nv50_rop_write reads (the first n of color[]). */
unsigned nv50_rop_outputs(const NV50Rop *r);

/* CLEAR_BUFFERS (0x19d0): clear what @data selects, in the scissor. */
void nv50_rop_clear(NV50GrCall *c, NV50Gr3dState *st, uint32_t data);

/* --- the back end (fp.c) --- */

/*
 * One draw's back end: nv50_fp_begin next to nv50_rop_begin, then
 * nv50_fp_prim for every primitive, nv50_fp_end (before nv50_rop_end).
 * The FP's code, launch state and c[] lines are read at the first
 * primitive and kept for the draw.
 */
typedef struct NV50FpDraw NV50FpDraw;
typedef struct NV50FpProg NV50FpProg;

NV50FpDraw *nv50_fp_begin(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop);
/*
 * Draw one primitive: coverage, early Z where the FP allows it, FP
 * quads with interpolants from the primitive's vertices (perspective,
 * linear or flat as the FP's interpolation state says), late Z, ROP.
 */
void nv50_fp_prim(NV50FpDraw *d, const NV50PipePrim *prim);
void nv50_fp_end(NV50FpDraw *d);    /* frees; NULL: nothing */
/* One primitive as a draw of its own (begin, prim, end). */
void nv50_fp_draw(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop,
                  const NV50PipePrim *prim);
/*
 * A context's FP program kept across draws (NV50Gr3dState.fp_prog): its
 * code and decode caches, reused while the code words read at a draw's
 * first primitive are the same.  Freed with the 3D state.
 */
void nv50_fp_prog_free(NV50FpProg *pr);
/* How many times the program was read and scanned afresh (tests). */
uint64_t nv50_fp_prog_loads(const NV50FpProg *pr);
/*
 * Host threads shading FP batches beside the engine thread (0: serial),
 * at most one per MP; the default is GEMU_FP_THREADS, else one per host
 * core but one.  For tests and tools: no draw may be running.
 */
void nv50_fp_set_threads(unsigned n);

/* --- textures (texture.c) --- */

/*
 * The sampler a Tesla run calls for tex/texbias/texlod/texfetch/texsize
 * (TeslaEnv.tex with opaque = an NV50TexUnit), for program type @prog
 * (NV50_GR_PROG_*): TIC/TSC slots bound in NV50GrShared, entries read
 * from the TIC/TSC tables, texels through DMA_TEXTURE or the VM.
 */
typedef struct NV50TexUnit {
    NV50GrCall *c;
    unsigned prog;
} NV50TexUnit;

void nv50_tex_sample(void *opaque, const TeslaInsn *insn, uint32_t mask,
                     uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                     uint32_t out[4][TESLA_WARP_SIZE]);

#endif
