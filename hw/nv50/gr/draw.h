/*
 * The 3D pipeline's front end (pipe.h's first four stages), the
 * interfaces between them: 3d-draw.c (draw methods, vertex streams,
 * primitive assembly), vfetch.c (vertex attributes into VP inputs),
 * vp.c (VP warps on the MPs, the result map) and clip.c (clipping, the
 * perspective divide, viewport, depth range, culling), which hands
 * NV50PipePrims to an emit callback (the back end's nv50_fp_prim, or a
 * test's).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_DRAW_H
#define HW_NV50_GR_DRAW_H

#include "pipe.h"

#define NV50_VTX_ATTRIBS        16
/* a[] words a VP reads: 16 attributes x 4, VertexID, InstanceID, PrimID */
#define NV50_VP_IN_WORDS        (NV50_VTX_ATTRIBS * 4 + 3)

/* 3D methods the front end reads (rnndb g80_3d.xml) */
#define NV50_3D_VTX_ATTR_FIRST          0x0300
#define NV50_3D_VTX_ATTR_END            0x0900
#define NV50_3D_VERTEX_ARRAY_FETCH(i)   (0x0900 + (i) * 16)
#define NV50_3D_VERTEX_ARRAY_FETCH_ENABLE 0x20000000u
#define NV50_3D_VERTEX_ARRAY_START_HIGH(i) (0x0904 + (i) * 16)
#define NV50_3D_VERTEX_ARRAY_DIVISOR(i) (0x090c + (i) * 16)
#define NV50_3D_DMA_STRMOUT             0x01a8
#define NV50_3D_VIEWPORT_SCALE_X        0x0a00      /* viewport 0 */
#define NV50_3D_VIEWPORT_TRANSLATE_X    0x0a0c
#define NV50_3D_VIEWPORT_STRIDE         32          /* viewport i: + 32 i */
#define NV50_3D_DEPTH_RANGE_NEAR        0x0c08      /* viewport 0 */
#define NV50_3D_DEPTH_RANGE_FAR         0x0c0c
#define NV50_3D_DEPTH_RANGE_STRIDE      16          /* viewport i: + 16 i */
#define NV50_3D_VIEWPORTS               16
#define NV50_3D_DEPTH_CLIP_NEGATIVE_Z   0x0d7c
#define NV50_3D_STRMOUT_PARAMS_LATCH    0x0da4
#define NV50_3D_STRMOUT_PRIMITIVE_LIMIT 0x0da8
#define NV50_3D_PRIM_RESTART_WITH_DRAW_ARRAYS 0x0de8
#define NV50_3D_VERTEX_ARRAY_PER_INSTANCE(i) (0x1000 + (i) * 4)
#define NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(i) (0x1080 + (i) * 8)
#define NV50_3D_VERTEX_ID_BASE          0x1118
#define NV50_3D_STRMOUT_BUFFERS_CTRL    0x1294
#define NV50_3D_STRMOUT_BUFFERS_CTRL_INTERLEAVED        0x00000001u
#define NV50_3D_STRMOUT_BUFFERS_CTRL_LIMIT_MODE_OFFSET  0x00000002u
#define NV50_3D_LOCAL_SIZE_LOG          0x12e0
#define NV50_3D_VB_ELEMENT_U8_SETUP     0x1300
#define NV50_3D_SCREEN_Y_CONTROL        0x13ac
#define NV50_3D_LINE_WIDTH              0x13b0
#define NV50_3D_VP_START_ID             0x140c
#define NV50_3D_VB_ELEMENT_BASE         0x1434
#define NV50_3D_VB_INSTANCE_BASE        0x1438
#define NV50_3D_STRMOUT_MAP(i)          (0x1480 + (i) * 4)
#define NV50_3D_STRMOUT_MAP__LEN        32
#define NV50_3D_CLIP_DISTANCE_ENABLE    0x1510
#define NV50_3D_POINT_SIZE              0x1518
#define NV50_3D_LAYER                   0x15cc
#define NV50_3D_LAYER_IDX               0x0000ffffu
#define NV50_3D_LAYER_USE_GP            0x00010000u
#define NV50_3D_VB_ELEMENT_U16_SETUP    0x15ec
#define NV50_3D_PRIM_RESTART_ENABLE     0x1644
#define NV50_3D_PRIM_RESTART_INDEX      0x1648
#define NV50_3D_VP_GP_BUILTIN_ATTR_EN   0x164c
#define NV50_3D_VP_ATTR_EN(i)           (0x1650 + (i) * 4)
#define NV50_3D_PROVOKING_VERTEX_LAST   0x1684
#define NV50_3D_VERTEX_TWO_SIDE_ENABLE  0x1688
#define NV50_3D_VP_RESULT_MAP_SIZE      0x16ac
#define NV50_3D_VP_REG_ALLOC_TEMP       0x16b0
#define NV50_3D_VP_REG_ALLOC_RESULT     0x16b8
#define NV50_3D_VP_RESULT_MAP(i)        (0x16bc + (i) * 4)
#define NV50_3D_VP_RESULT_MAP__LEN      17
#define NV50_3D_GP_START_ID             0x1410
#define NV50_3D_GP_VERTEX_OUTPUT_COUNT  0x1420
#define NV50_3D_GP_ENABLE               0x1798
#define NV50_3D_GP_REG_ALLOC_TEMP       0x17a0
#define NV50_3D_GP_REG_ALLOC_RESULT     0x17a8
#define NV50_3D_GP_RESULT_MAP_SIZE      0x17ac
#define NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE 0x17b0
#define NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS         1
#define NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_LINE_STRIP     2
#define NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP 3
#define NV50_3D_GP_RESULT_MAP(i)        (0x17fc + (i) * 4)
#define NV50_3D_GP_RESULT_MAP__LEN      33
#define NV50_3D_RASTERIZE_ENABLE        0x17b4
#define NV50_3D_STRMOUT_ENABLE          0x17b8
#define NV50_3D_SEMANTIC_VIEWPORT       0x0fd4
#define NV50_3D_GP_VIEWPORT_ID_ENABLE   0x1900
#define NV50_3D_SEMANTIC_COLOR          0x1904
#define NV50_3D_SEMANTIC_CLIP           0x1908
#define NV50_3D_SEMANTIC_LAYER          0x190c
#define NV50_3D_SEMANTIC_PTSZ           0x1910
#define NV50_3D_CULL_FACE_ENABLE        0x1918
#define NV50_3D_FRONT_FACE              0x191c
#define NV50_3D_CULL_FACE               0x1920
#define NV50_3D_VIEWPORT_TRANSFORM_EN   0x192c
#define NV50_3D_VIEW_VOLUME_CLIP_CTRL   0x193c
#define NV50_3D_CLIP_DISTANCE_MODE      0x1940
#define NV50_3D_POLYGON_MODE_FRONT      0x0dac
#define NV50_3D_POLYGON_MODE_BACK       0x0db0
#define NV50_3D_POLYGON_OFFSET_POINT_ENABLE 0x0dc0
#define NV50_3D_POLYGON_OFFSET_LINE_ENABLE  0x0dc4
#define NV50_3D_POLYGON_OFFSET_FILL_ENABLE  0x0dc8
#define NV50_3D_ZETA_FORMAT             0x0fe8
#define NV50_3D_POLYGON_OFFSET_FACTOR   0x156c
#define NV50_3D_POLYGON_OFFSET_UNITS    0x15bc
#define NV50_3D_POLYGON_OFFSET_CLAMP    0x187c
#define NV50_3D_STRMOUT_ADDRESS_HIGH(i) (0x1a80 + (i) * 16)
#define NV50_3D_STRMOUT_ADDRESS_LOW(i)  (0x1a84 + (i) * 16)
#define NV50_3D_STRMOUT_NUM_ATTRIBS(i)  (0x1a88 + (i) * 16)
#define NV50_3D_STRMOUT_OFFSET_LIMIT(i) (0x1a8c + (i) * 16)    /* G200_3D- */
#define NV50_3D_VERTEX_ARRAY_ATTRIB(i)  (0x1ac0 + (i) * 4)

#define NV50_3D_VVCC_DEPTH_CLAMP_NEAR   0x00000008u
#define NV50_3D_VVCC_DEPTH_CLAMP_FAR    0x00000010u
#define NV50_3D_FRONT_FACE_CW           0x0900
#define NV50_3D_FRONT_FACE_CCW          0x0901
#define NV50_3D_CULL_FACE_FRONT         0x0404
#define NV50_3D_CULL_FACE_BACK          0x0405
#define NV50_3D_CULL_FACE_FRONT_AND_BACK 0x0408
#define NV50_3D_BUILTIN_VERTEX_ID       0x0001u
#define NV50_3D_BUILTIN_INSTANCE_ID     0x0010u
#define NV50_3D_BUILTIN_PRIMITIVE_ID    0x0100u
#define NV50_3D_BUILTIN_VERTEX_ID_ADD_START 0x1000u

/* VERTEX_BEGIN_GL primitives (D3D's are mapped onto these) */
enum {
    NV50_GL_POINTS, NV50_GL_LINES, NV50_GL_LINE_LOOP, NV50_GL_LINE_STRIP,
    NV50_GL_TRIANGLES, NV50_GL_TRIANGLE_STRIP, NV50_GL_TRIANGLE_FAN,
    NV50_GL_QUADS, NV50_GL_QUAD_STRIP, NV50_GL_POLYGON,
    NV50_GL_LINES_ADJ, NV50_GL_LINE_STRIP_ADJ, NV50_GL_TRIANGLES_ADJ,
    NV50_GL_TRIANGLE_STRIP_ADJ,
    NV50_GL_PRIMS,
};

static inline uint32_t nv50_st(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

static inline float nv50_stf(const NV50Gr3dState *st, uint32_t mthd)
{
    uint32_t u = st->mthd[mthd >> 2];
    float f;

    memcpy(&f, &u, 4);
    return f;
}

/* --- vfetch.c --- */

/* Where one vertex of the stream comes from. */
typedef enum NV50VtxSrc {
    NV50_VTX_ARRAY,         /* vertex arrays at an index */
    NV50_VTX_WORDS,         /* VERTEX_DATA words or a VTX_ATTR snapshot */
} NV50VtxSrc;

/*
 * One draw's view of the vertex arrays: the 16 attributes as
 * VERTEX_ARRAY_ATTRIB/FETCH/START/LIMIT/DIVISOR/PER_INSTANCE say, with a
 * small read cache per array.
 */
typedef struct NV50Vfetch NV50Vfetch;

NV50Vfetch *nv50_vfetch_begin(NV50GrCall *c, const NV50Gr3dState *st);
void nv50_vfetch_end(NV50Vfetch *vf);
/*
 * The VP inputs of one vertex (the enabled components of VP_ATTR_EN
 * packed, then VertexID and InstanceID as VP_GP_BUILTIN_ATTR_EN
 * enables them) into @in; returns the number of words.  @index: the
 * array index (base already added); @words: inline data (NV50_VTX_WORDS)
 * in the attributes' formats, or NULL; @cur: the VTX_ATTR values
 * (CONST attributes, 4 words each; @all_const: every attribute, for
 * an immediate-mode vertex).
 */
unsigned nv50_vfetch_vertex(NV50Vfetch *vf, uint32_t index,
                            const uint32_t *words, uint32_t vertex_id,
                            uint32_t instance_id,
                            const uint32_t cur[NV50_VTX_ATTRIBS][4],
                            bool all_const, uint32_t *in);
/* Words one inline vertex takes (the non-CONST attributes' sizes). */
unsigned nv50_vfetch_inline_words(const NV50Gr3dState *st);
/*
 * Decode one attribute of format word @attrib (VERTEX_ARRAY_ATTRIB)
 * from @bytes into 4 words (floats, or integers for UINT/SINT), the
 * missing components (0, 0, 0, 1); false if the format is invalid.
 * Exposed for tests.
 */
bool nv50_vfetch_decode(uint32_t attrib, const uint8_t *bytes,
                        uint32_t out[4]);
/* Bytes an attribute of format word @attrib takes (0: invalid format). */
unsigned nv50_vfetch_size(uint32_t attrib);
/*
 * A VTX_ATTR_* method word into the attributes' values @cur: returns the
 * attribute (or -1) and sets *@last when this word completes the
 * method's value.
 */
int nv50_vfetch_vtx_attr(uint32_t cur[NV50_VTX_ATTRIBS][4], uint32_t mthd,
                         uint32_t data, bool *last);

/* --- vp.c --- */

/* A context's VP code kept across draws (NV50Gr3dState.vp_code) */
typedef struct NV50VpCode NV50VpCode;
void nv50_vp_code_free(NV50VpCode *vc);

/*
 * A draw's VP: its code read (and the context's decode kept or
 * replaced), its c[] read at first use, its result map; NULL (a trap
 * raised) if the code cannot be read.  Batches run through it until
 * nv50_vp_end.
 */
typedef struct NV50VpDraw NV50VpDraw;
NV50VpDraw *nv50_vp_begin(NV50GrCall *c, NV50Gr3dState *st);
void nv50_vp_end(NV50VpDraw *vp);
/*
 * Run the VP over @n vertices (@in: in_words words each) as warps of
 * 32 spread over the MPs; *@out[i] gets vertex i's result words after
 * VP_RESULT_MAP (NV50PipeVertex: clip position, point size, out[]).
 * False (a trap raised) if the program trapped or cannot run.
 */
bool nv50_vp_run(NV50VpDraw *vp, const uint32_t *in, unsigned in_words,
                 unsigned n, NV50PipeVertex *const *out);

/*
 * What the VP and GP stages share.  The code segment of program @prog
 * (NV50_GR_PROG_VP or _GP) from 0 to 64 KiB past @entry, as words
 * (NULL if @entry's page cannot be read; g_free it).
 */
uint32_t *nv50_stage_code(NV50GrCall *c, unsigned prog, uint32_t entry,
                          size_t *nwords);
/*
 * c[] of program @prog: its SET_PROGRAM_CB buffers, read at first use;
 * and its textures (the TeslaEnv's opaque is this, the sampler's too).
 */
typedef struct NV50StageCb {
    NV50TexUnit tex;            /* first: nv50_tex_sample's opaque */
    NV50GrCall *c;
    const NV50GrShared *sh;
    unsigned prog;
    uint8_t *cb[TESLA_NUM_CSPACES];
    uint32_t cb_size[TESLA_NUM_CSPACES];
    bool cb_loaded[TESLA_NUM_CSPACES];
} NV50StageCb;
/* TeslaEnv.mem_read of such a c[] (opaque: the NV50StageCb). */
bool nv50_stage_cb_read(void *opaque, TeslaSpace space, unsigned idx,
                        uint32_t addr, void *buf, unsigned size);
void nv50_stage_cb_free(NV50StageCb *cb);
/*
 * A TeslaEnv for program @prog with @gprs registers, c[] and textures
 * through @cb (initialised here), l[] as LOCAL_SIZE_LOG says, the
 * engine's abort flag; the caller sets the code.
 */
void nv50_stage_env(NV50GrCall *c, NV50Gr3dState *st, unsigned prog,
                    unsigned gprs, NV50StageCb *cb, TeslaEnv *env);
/*
 * Run a launch of the VP or GP (@stage names it in messages) on the MP
 * @env names, in *@keep (allocated if NULL, renewed for each launch; its
 * owner frees it): *@keep when it ran to its end (the caller reads it
 * until its next launch), else NULL with the error raised the hardware's way
 * (DATA_ERROR for a malformed launch, TRAP_MP for a trap; an abandoned
 * run is logged).
 */
TeslaRun *nv50_stage_exec(NV50GrCall *c, const char *stage,
                          const TeslaEnv *env, const TeslaLaunch *tl,
                          TeslaRun **keep);
/*
 * o[] (@out_words words; NULL: none) of one vertex through the result
 * map at method @map_mthd (VP_RESULT_MAP(0) or GP_RESULT_MAP(0)), its
 * first @size bytes, into @v (clip position from results 0-3, point
 * size as SEMANTIC_PTSZ says).
 */
void nv50_result_map(const NV50Gr3dState *st, uint32_t map_mthd,
                     unsigned size, const uint32_t *o, unsigned out_words,
                     NV50PipeVertex *v);
/*
 * The same map read from the state once (a VP run's vertices share it):
 * result k is o[src[k]], or konst[k] where src[k] is NONE (a byte past
 * the o[] words).  Words of NV50PipeVertex.out past out_words are left
 * as they were (every reader stops at out_words).
 */
typedef struct NV50ResultMap {
    unsigned size, out_words;
    int ptsz;                   /* result of the point size, or -1 */
    float point_size;           /* else POINT_SIZE */
    uint8_t src[NV50_PIPE_OUT_WORDS];
    uint32_t konst[NV50_PIPE_OUT_WORDS];
} NV50ResultMap;
#define NV50_RESULT_MAP_NONE    0xff
void nv50_result_map_prep(const NV50Gr3dState *st, uint32_t map_mthd,
                          unsigned size, unsigned out_words,
                          NV50ResultMap *m);
void nv50_result_map_apply(const NV50ResultMap *m, const uint32_t *o,
                           NV50PipeVertex *v);

/* --- gp.c --- */

/* One draw's GP stage (GP_ENABLE). */
typedef struct NV50Gp NV50Gp;
/*
 * Where the GP's output primitives go: @n (1, 2, 3) vertices after
 * GP_RESULT_MAP, in strip order, @provoking among them.  The vertices
 * live until the call returns.
 */
typedef void (*NV50GpOut)(void *opaque, NV50PrimKind kind,
                          const NV50PipeVertex *const *v, unsigned n,
                          const NV50PipeVertex *provoking);
/*
 * The GP's code, c[] and output state read for a draw; NULL (an error
 * or trap raised) if it cannot run.
 */
NV50Gp *nv50_gp_begin(NV50GrCall *c, NV50Gr3dState *st, NV50GpOut out,
                      void *opaque);
/*
 * One input primitive: its @n vertices (the VP's, after VP_RESULT_MAP;
 * 4 or 6 with adjacency, in GL's order).  Primitives are run in warps
 * of 32 as they come; what they emit goes to the NV50GpOut in order.
 */
void nv50_gp_prim(NV50Gp *g, const NV50PipeVertex *const *v, unsigned n);
/* Run what is left, free; false if the GP trapped (NULL: true). */
bool nv50_gp_end(NV50Gp *g);

/* --- strmout.c --- */

/* One draw's stream output (STRMOUT_ENABLE). */
typedef struct NV50Strmout NV50Strmout;

/* The buffers and map read for a draw; NULL if STRMOUT_ENABLE is 0. */
NV50Strmout *nv50_strmout_begin(NV50GrCall *c, NV50Gr3dState *st);
/* One primitive's @n vertices (after the VP or GP) to the buffers. */
void nv50_strmout_prim(NV50Strmout *so, const NV50PipeVertex *const *v,
                       unsigned n);
void nv50_strmout_end(NV50Strmout *so);     /* frees; NULL: nothing */
/* STRMOUT_PARAMS_LATCH: write positions, count and overflow restart. */
void nv50_strmout_latch(NV50GrCall *c, NV50Gr3dState *st);

/* --- clip.c --- */

typedef void (*NV50PrimEmit)(void *opaque, const NV50PipePrim *prim);

/*
 * One assembled primitive (1, 2 or 3 vertices in the order of the
 * stream, @provoking its provoking vertex, for flat shading): clip,
 * divide, viewport, cull, then @emit each piece.  For a triangle, bit i
 * of @edges says that its edge v[i] -> v[(i + 1) % 3] is an edge of the
 * polygon it came from (a quad's or polygon's inner diagonals are not):
 * POLYGON_MODE LINE draws those, POINT their first vertices.  Returns
 * the number of primitives emitted.
 */
#define NV50_EDGES_ALL  7u
unsigned nv50_clip_prim(const NV50Gr3dState *st, NV50PrimKind kind,
                        const NV50PipeVertex *const *v, unsigned edges,
                        const NV50PipeVertex *provoking,
                        NV50PrimEmit emit, void *opaque);

/* --- 3d-draw.c --- */

/* The front end's per-channel state (NV50Gr3dState.draw). */
typedef struct NV50Draw NV50Draw;

/*
 * A method after 3d.c stored it in mthd[]: true if it is the front
 * end's (VERTEX_BEGIN/END_GL/D3D, VB_ELEMENT_*, VERTEX_BUFFER_FIRST/
 * COUNT, VERTEX_DATA, VTX_ATTR_*, VERTEX_ID_BASE) and is done.
 */
bool nv50_3d_draw_method(NV50GrCall *c, NV50Gr3dState *st, uint32_t mthd,
                         uint32_t data);
void nv50_3d_draw_free(NV50Gr3dState *st);

/*
 * Where assembled, clipped primitives go: by default the back end
 * (nv50_rop_begin, nv50_fp_begin, nv50_fp_prim per primitive,
 * nv50_fp_end, nv50_rop_end); a test may take them instead (NULL
 * restores the default).
 */
void nv50_3d_draw_set_emit(NV50Gr3dState *st, NV50PrimEmit emit,
                           void *opaque);

#endif
