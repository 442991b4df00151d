/*
 * The 3D draw methods: vertex streams between VERTEX_BEGIN and
 * VERTEX_END, run through vertex fetch (vfetch.c), the VP (vp.c),
 * primitive assembly (here) and clip/viewport/cull (clip.c) into
 * NV50PipePrims for the back end (pipe.h).  What Mesa 22.3's nv50_vbo.c
 * and nv50_push.c send; rnndb g80_3d.xml.
 *
 * - VERTEX_BEGIN_GL / _D3D: PRIMITIVE (GL's 14 types; D3D's 9 mapped
 *   onto them), INSTANCE_NEXT (InstanceID + 1, else 0), INSTANCE_CONT
 *   (G200+: unchanged).  The COND_MODE verdict is taken here: a skipped
 *   draw drops everything up to its END.  VERTEX_END_* runs the draw.
 * - Vertices: VERTEX_BUFFER_FIRST/COUNT (COUNT appends FIRST ..
 *   FIRST + COUNT - 1; VertexID = VERTEX_ID_BASE + i, + FIRST with
 *   VP_GP_BUILTIN_ATTR_EN VERTEX_ID_DRAW_ARRAYS_ADD_START); VB_ELEMENT_
 *   U32, U16 (two a word, low first) and U8 (four), the U16/U8 SETUP
 *   words (OFFSET: bytes of the first word to skip; COUNT: indices to
 *   take, the rest of the last word ignored; 0 resets); an index is
 *   fetched at index + VB_ELEMENT_BASE, VertexID index + VERTEX_ID_BASE
 *   (UNVERIFIED which base: Mesa writes both the same); VERTEX_DATA
 *   (inline vertices, vfetch.c's layout; VertexID counts from
 *   VERTEX_ID_BASE, re-read when it is written, as nv50_push.c
 *   expects); immediate mode: inside BEGIN/END the last word of a
 *   VTX_ATTR_* method of attribute 0 sends a vertex of every attribute's
 *   VTX_ATTR value (Mesa's blits; UNVERIFIED: GL's rule, which word
 *   provokes it).  VTX_ATTR_* values: vfetch.c's
 *   nv50_vfetch_vtx_attr.
 * - Primitive restart: PRIM_RESTART_ENABLE with an index equal to
 *   PRIM_RESTART_INDEX (before VB_ELEMENT_BASE); for VERTEX_BUFFER_*
 *   vertices only with PRIM_RESTART_WITH_DRAW_ARRAYS (Mesa sets it).
 * - The vertex cache (vcache.c): the stream is fetched and shaded in
 *   batches into a bounded ring of vertices as assembly asks for them;
 *   an index repeated while its vertex is cached runs the VP once.  A
 *   VP trap stops the draw at the primitive that needed that batch.
 * - Assembly: GL's rules for strips (odd triangles' first two vertices
 *   swapped), fans, quads and quad strips (two triangles), polygons,
 *   line loops; adjacency primitives draw their main vertices, a GP
 *   gets all (GL's table for triangle strips with adjacency).
 *   PROVOKING_VERTEX_LAST picks GL's last or first provoking vertex
 *   (quads: their 4th or 1st, polygons: the 1st).
 * - GP_ENABLE: the assembled primitives go to the GP (gp.c), whose
 *   output primitives go on in their place.  Then stream output
 *   (strmout.c, STRMOUT_ENABLE) and clipping.  RASTERIZE_ENABLE 0:
 *   vertices and primitives are counted and streamed out, nothing is
 *   drawn.
 * - Layers and viewports (clip.c: NV50PipePrim.layer, .viewport): the
 *   back end (the ROP and FP pair of pipe.h) is begun for LAYER.IDX and
 *   viewport 0 and begun afresh, after the last pair's end, whenever a
 *   primitive comes with another layer or viewport, so that the writes
 *   stay in API order.  A GP that alternates layers a primitive pays a
 *   back end's begin and end each.
 * - Counters (NV50Gr3dState.counter[]): VFETCH_VERTICES (vertices of
 *   the stream), VFETCH_PRIMITIVES (assembled), GENERATED_PRIMITIVES
 *   and RAST_PRIMITIVES_PRECLIP (after the GP, to stream output and
 *   the clipper), gp.c's and strmout.c's, VP_LAUNCHES (VP runs, one a
 *   vertex after the cache, again for one evicted and needed again;
 *   UNVERIFIED the hardware's unit),
 *   RAST_PRIMITIVES_POSTCLIP (primitives to the back end, after
 *   clipping and culling).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "hw/nv50/engine.h"
#include "vcache.h"

/*
 * A BEGIN/END's refs kept (16 bytes each with the cache's slot[]: 256
 * MiB at most); the shaded vertices are vcache.c's bounded ring.
 */
#define MAX_DRAW_VERTS  (1u << 24)

/* methods only the trace point reads (rnndb g80_3d.xml) */
#define TRACE_RT_ADDRESS_HIGH0          0x0200
#define TRACE_RT_ADDRESS_LOW0           0x0204
#define TRACE_RT_FORMAT0                0x0208
#define TRACE_FP_RESULT_COUNT           0x1298
#define TRACE_SHADE_MODEL               0x12d4
#define TRACE_BLEND_ENABLE0             0x1360
#define TRACE_FP_START_ID               0x1414
#define TRACE_NOPERSPECTIVE_BITMAP      0x1540
#define TRACE_FP_INTERPOLANT_CTRL       0x1988
#define TRACE_FP_REG_ALLOC_TEMP         0x198c
#define TRACE_FP_CONTROL                0x19a8

struct NV50Draw {
    bool active;                /* between BEGIN and END */
    bool skipped;               /* COND_MODE said no */
    unsigned prim;              /* NV50_GL_* */
    uint32_t instance;          /* InstanceID */
    GArray *refs;               /* NV50VtxRef */
    GArray *words;              /* inline and immediate vertex words */
    unsigned inl_have;          /* words of the inline vertex so far */
    uint32_t vid;               /* next inline/immediate VertexID */
    unsigned skip[2];           /* U8, U16 SETUP: indices to skip */
    uint32_t count[2];          /* ... to take, 0: no limit */
    bool limited[2];
    uint32_t cur[NV50_VTX_ATTRIBS][4];  /* VTX_ATTR values */
    NV50PrimEmit emit;
    void *emit_opaque;
};

static NV50Draw *draw_get(NV50Gr3dState *st)
{
    if (!st->draw) {
        NV50Draw *d = g_new0(NV50Draw, 1);

        d->refs = g_array_new(false, false, sizeof(NV50VtxRef));
        d->words = g_array_new(false, false, sizeof(uint32_t));
        for (unsigned i = 0; i < NV50_VTX_ATTRIBS; i++) {
            d->cur[i][3] = f32_to_bits(1.0f);
        }
        st->draw = d;
    }
    return st->draw;
}

void nv50_3d_draw_free(NV50Gr3dState *st)
{
    NV50Draw *d = st->draw;

    if (d) {
        g_array_free(d->refs, true);
        g_array_free(d->words, true);
        g_free(d);
        st->draw = NULL;
    }
}

void nv50_3d_draw_set_emit(NV50Gr3dState *st, NV50PrimEmit emit,
                           void *opaque)
{
    NV50Draw *d = draw_get(st);

    d->emit = emit;
    d->emit_opaque = opaque;
}

/* --- the vertex stream --- */

static void add_ref(NV50Draw *d, NV50RefKind kind, uint32_t val,
                    uint32_t vid)
{
    NV50VtxRef r = { .kind = kind, .val = val, .vertex_id = vid };

    if (d->refs->len >= MAX_DRAW_VERTS) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-draw-big", 0, "nv50: 3D draw "
                      "of more than %u vertices: the rest is dropped\n",
                      MAX_DRAW_VERTS);
        return;
    }
    g_array_append_val(d->refs, r);
}

static void add_index(NV50Gr3dState *st, NV50Draw *d, uint32_t index)
{
    if ((nv50_st(st, NV50_3D_PRIM_RESTART_ENABLE) & 1) &&
        index == nv50_st(st, NV50_3D_PRIM_RESTART_INDEX)) {
        add_ref(d, NV50_REF_BREAK, 0, 0);
        return;
    }
    add_ref(d, NV50_REF_INDEX, index,
            index + nv50_st(st, NV50_3D_VERTEX_ID_BASE));
}

/* VB_ELEMENT_U16 (@which 1) or U8 (0): @per indices of @bits a word */
static void add_packed(NV50Gr3dState *st, NV50Draw *d, unsigned which,
                       uint32_t data, unsigned per, unsigned bits)
{
    for (unsigned k = 0; k < per; k++) {
        if (d->skip[which]) {
            d->skip[which]--;
            continue;
        }
        if (d->limited[which]) {
            if (!d->count[which]) {
                return;
            }
            d->count[which]--;
        }
        add_index(st, d, (data >> (k * bits)) & ((1u << bits) - 1));
    }
}

static void add_arrays(NV50Gr3dState *st, NV50Draw *d, uint32_t count)
{
    uint32_t first = nv50_st(st, NV50_3D_VERTEX_BUFFER_FIRST);
    uint32_t vid0 = nv50_st(st, NV50_3D_VERTEX_ID_BASE);
    bool restart = (nv50_st(st, NV50_3D_PRIM_RESTART_ENABLE) & 1) &&
                   (nv50_st(st, NV50_3D_PRIM_RESTART_WITH_DRAW_ARRAYS) & 1);
    uint32_t ri = nv50_st(st, NV50_3D_PRIM_RESTART_INDEX);

    if (nv50_st(st, NV50_3D_VP_GP_BUILTIN_ATTR_EN) &
        NV50_3D_BUILTIN_VERTEX_ID_ADD_START) {
        vid0 += first;
    }
    count = MIN(count, MAX_DRAW_VERTS);
    for (uint32_t i = 0; i < count; i++) {
        if (restart && first + i == ri) {
            add_ref(d, NV50_REF_BREAK, 0, 0);
        } else {
            add_ref(d, NV50_REF_ARRAY, first + i, vid0 + i);
        }
    }
}

static void add_inline(NV50Gr3dState *st, NV50Draw *d, uint32_t data)
{
    unsigned per = nv50_vfetch_inline_words(st);

    if (!per) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-draw-inl0", 0, "nv50: 3D "
                      "VERTEX_DATA without a non-CONST VERTEX_ARRAY_ATTRIB "
                      "format: ignored\n");
        return;
    }
    g_array_append_val(d->words, data);
    if (++d->inl_have == per) {
        add_ref(d, NV50_REF_WORDS, d->words->len - per, d->vid++);
        d->inl_have = 0;
    }
}

/* --- assembly --- */

typedef struct DrawRun {
    NV50GrCall *c;
    NV50Gr3dState *st;
    NV50Draw *d;
    NV50Vcache *vc;             /* the shaded vertices (vcache.c) */
    bool draw;                  /* RASTERIZE_ENABLE */
    NV50Rop *rop;               /* the draw's render targets and zeta */
    NV50FpDraw *fp;             /* the draw's FP (code, c[]) */
    uint32_t layer;             /* rop's and fp's layer and viewport */
    unsigned viewport;
    NV50Gp *gp;                 /* GP_ENABLE: the draw's GP */
    NV50Strmout *so;            /* STRMOUT_ENABLE: stream output */
    uint64_t assembled, generated, emitted;
} DrawRun;

/*
 * The back end for primitives of @layer and @viewport (NV50PipePrim's):
 * the ROP's surfaces at that layer, that viewport's scissor.  A change
 * ends the back end of the last ones (their writes done, in order).
 */
static bool back_end_at(DrawRun *r, uint32_t layer, unsigned viewport)
{
    if (r->rop && r->layer == layer && r->viewport == viewport) {
        return true;
    }
    nv50_fp_end(r->fp);
    nv50_rop_end(r->rop);
    r->fp = NULL;
    r->layer = layer;
    r->viewport = viewport;
    r->rop = nv50_rop_begin_at(r->c, r->st, layer, viewport);
    if (r->rop) {
        r->fp = nv50_fp_begin(r->c, r->st, r->rop);
    }
    return r->rop != NULL;
}

/* The back end: coverage, FP, ROP (fp.c). */
static void emit_draw(void *opaque, const NV50PipePrim *p)
{
    DrawRun *r = opaque;

    if (back_end_at(r, p->layer, p->viewport)) {
        nv50_fp_prim(r->fp, p);
    }
}

/* A primitive after the VP, or out of the GP: stream output, clipping. */
static void post_prim(DrawRun *r, NV50PrimKind kind,
                      const NV50PipeVertex *const *v, unsigned n,
                      unsigned edges, const NV50PipeVertex *provoking)
{
    r->generated++;
    if (r->so) {
        nv50_strmout_prim(r->so, v, n);
    }
    if (!r->draw) {
        return;
    }
    r->emitted += nv50_clip_prim(r->st, kind, v, edges, provoking,
                                 r->d->emit ? r->d->emit : emit_draw,
                                 r->d->emit ? r->d->emit_opaque : r);
}

static void gp_out(void *opaque, NV50PrimKind kind,
                   const NV50PipeVertex *const *v, unsigned n,
                   const NV50PipeVertex *provoking)
{
    post_prim(opaque, kind, v, n, NV50_EDGES_ALL, provoking);
}

/*
 * An assembled primitive of @n vertices (4, 6: with adjacency, whose
 * main vertices are 1, 2 and 0, 2, 4) to the GP, or on.
 */
static void prim_out(DrawRun *r, NV50PrimKind kind, uint32_t k0, unsigned n,
                     const unsigned *idx, unsigned edges, unsigned provoking)
{
    static const uint8_t main4[] = { 1, 2 }, main6[] = { 0, 2, 4 };
    const NV50PipeVertex *v[NV50_VCACHE_PINS], *m[3];
    uint32_t k[NV50_VCACHE_PINS];
    unsigned nm = n == 4 ? 2 : MIN(n, 3u);  /* main vertices */

    /* the vertices and the provoking one, cached together */
    for (unsigned i = 0; i < n; i++) {
        k[i] = k0 + idx[i];
    }
    k[n] = k0 + provoking;
    if (!nv50_vcache_get(r->vc, k, n + 1, v)) {
        return;                 /* the VP trapped: the draw stops */
    }
    r->assembled++;
    if (r->gp) {
        nv50_gp_prim(r->gp, v, n);
        return;
    }
    for (unsigned i = 0; i < nm; i++) {
        m[i] = n == 4 ? v[main4[i]] : n == 6 ? v[main6[i]] : v[i];
    }
    post_prim(r, kind, m, nm, edges, v[n]);
}

#define OUT1(a, pv) \
    do { unsigned i_[1] = { a }; prim_out(r, NV50_PRIM_POINTS, k0, 1, \
                                          i_, 0, pv); } while (0)
#define OUT2(a, b, pv) \
    do { unsigned i_[2] = { a, b }; prim_out(r, NV50_PRIM_LINES, k0, 2, \
                                             i_, 0, pv); } while (0)
/* a triangle of a polygon: @e its polygon edges (nv50_clip_prim) */
#define OUT3E(a, b, c_, e, pv) \
    do { unsigned i_[3] = { a, b, c_ }; prim_out(r, NV50_PRIM_TRIANGLES, \
                                                 k0, 3, i_, e, pv); \
    } while (0)
#define OUT3(a, b, c_, pv)  OUT3E(a, b, c_, NV50_EDGES_ALL, pv)
/* with adjacency: @k (4: lines, 6: triangles) vertices in GL's order */
#define OUTADJ(k, pv, ...) \
    do { unsigned i_[k] = { __VA_ARGS__ }; \
         prim_out(r, k == 4 ? NV50_PRIM_LINES : NV50_PRIM_TRIANGLES, \
                  k0, k, i_, NV50_EDGES_ALL, pv); } while (0)

/*
 * Triangle strips with adjacency: triangle i's vertices and the ones
 * across its three edges as GL's table has them (0-based; odd triangles
 * swap their first two), given as v0 a0 v1 a1 v2 a2.
 */
static void assemble_strip_adj(DrawRun *r, uint32_t k0, unsigned n,
                               bool last)
{
    unsigned ntri = n >= 6 ? (n - 4) / 2 : 0;

    for (unsigned i = 0; i < ntri; i++) {
        unsigned p0 = (i & 1) ? 2 * i + 2 : 2 * i;
        unsigned p1 = (i & 1) ? 2 * i : 2 * i + 2;
        unsigned pv = last ? 2 * i + 4 : 2 * i;
        /* across p0-p1, p1-p2, p2-p0 */
        unsigned a0 = i == 0 ? 1 : 2 * i - 2;
        unsigned a1, a2;

        if (i + 1 == ntri) {
            a1 = (i & 1) ? 2 * i + 3 : 2 * i + 5;
            a2 = (i & 1) ? 2 * i + 5 : 2 * i + 3;
        } else {
            a1 = (i & 1) ? 2 * i + 3 : 2 * i + 6;
            a2 = (i & 1) ? 2 * i + 6 : 2 * i + 3;
        }
        OUTADJ(6, pv, p0, a0, p1, a1, 2 * i + 4, a2);
    }
}

/* One run of the stream between restarts: refs k0 .. k0 + n - 1. */
static void assemble(DrawRun *r, uint32_t k0, unsigned n)
{
    bool last = nv50_st(r->st, NV50_3D_PROVOKING_VERTEX_LAST) & 1;
    unsigned i;

    switch (r->d->prim) {
    case NV50_GL_POINTS:
        for (i = 0; i < n; i++) {
            OUT1(i, i);
        }
        break;
    case NV50_GL_LINES:
        for (i = 0; i + 1 < n; i += 2) {
            OUT2(i, i + 1, last ? i + 1 : i);
        }
        break;
    case NV50_GL_LINE_LOOP:
    case NV50_GL_LINE_STRIP:
        for (i = 0; i + 1 < n; i++) {
            OUT2(i, i + 1, last ? i + 1 : i);
        }
        if (r->d->prim == NV50_GL_LINE_LOOP && n >= 2) {
            OUT2(n - 1, 0, last ? 0 : n - 1);
        }
        break;
    case NV50_GL_TRIANGLES:
        for (i = 0; i + 2 < n; i += 3) {
            OUT3(i, i + 1, i + 2, last ? i + 2 : i);
        }
        break;
    case NV50_GL_TRIANGLE_STRIP:
        for (i = 0; i + 2 < n; i++) {
            if (i & 1) {
                OUT3(i + 1, i, i + 2, last ? i + 2 : i);
            } else {
                OUT3(i, i + 1, i + 2, last ? i + 2 : i);
            }
        }
        break;
    case NV50_GL_TRIANGLE_FAN:
        for (i = 1; i + 1 < n; i++) {
            OUT3(0, i, i + 1, last ? i + 1 : i);
        }
        break;
    case NV50_GL_POLYGON:
        /* a fan: its first and last edges and every outer one */
        for (i = 1; i + 1 < n; i++) {
            OUT3E(0, i, i + 1, 2u | (i == 1) | (i + 2 == n ? 4u : 0), 0);
        }
        break;
    case NV50_GL_QUADS:
        /* v0 v1 v2 and v0 v2 v3: the diagonal v0-v2 is not an edge */
        for (i = 0; i + 3 < n; i += 4) {
            OUT3E(i, i + 1, i + 2, 3u, last ? i + 3 : i);
            OUT3E(i, i + 2, i + 3, 6u, last ? i + 3 : i);
        }
        break;
    case NV50_GL_QUAD_STRIP:
        /* the quad v0 v1 v3 v2: the diagonal v0-v3 is not an edge */
        for (i = 0; i + 3 < n; i += 2) {
            OUT3E(i, i + 1, i + 3, 3u, last ? i + 3 : i);
            OUT3E(i, i + 3, i + 2, 6u, last ? i + 3 : i);
        }
        break;
    case NV50_GL_LINES_ADJ:
        for (i = 0; i + 3 < n; i += 4) {
            OUTADJ(4, last ? i + 2 : i + 1, i, i + 1, i + 2, i + 3);
        }
        break;
    case NV50_GL_LINE_STRIP_ADJ:
        for (i = 0; i + 3 < n; i++) {
            OUTADJ(4, last ? i + 2 : i + 1, i, i + 1, i + 2, i + 3);
        }
        break;
    case NV50_GL_TRIANGLES_ADJ:
        for (i = 0; i + 5 < n; i += 6) {
            OUTADJ(6, last ? i + 4 : i, i, i + 1, i + 2, i + 3, i + 4,
                   i + 5);
        }
        break;
    case NV50_GL_TRIANGLE_STRIP_ADJ:
        assemble_strip_adj(r, k0, n, last);
        break;
    }
}

/*
 * Trace point nv50_3d_draw: what a draw runs with (the programs'
 * entries, the VP's inputs and outputs, the result map, the FP's
 * interpolants and results, RT 0).  The programs' code can then be
 * read at their entries (+ the code segment) and disassembled.
 */
static void trace_draw(NV50GrCall *c, NV50Gr3dState *st, unsigned refs,
                       unsigned in_words)
{
    const NV50GrShared *sh = &c->ctx->shared;
    unsigned size = MIN(nv50_st(st, NV50_3D_VP_RESULT_MAP_SIZE),
                        NV50_3D_VP_RESULT_MAP__LEN * 4u);
    char map[NV50_3D_VP_RESULT_MAP__LEN * 4 * 3 + 1] = "";

    for (unsigned k = 0; k < size; k++) {
        unsigned m = nv50_st(st, NV50_3D_VP_RESULT_MAP(k / 4)) >>
                     (8 * (k % 4)) & 0xff;

        snprintf(map + 3 * k, sizeof(map) - 3 * k, "%02x%s", m,
                 k + 1 < size ? "." : "");
    }
    gemu_trace(TRACE_NV50_3D_DRAW, "ch %d begin 0x%x vertices %u "
               "in-words %u vp 0x%010" PRIx64 "+0x%x "
               "attr-en 0x%08x.%08x builtin 0x%x regs %u results %u "
               "map[%u] %s fp 0x%010" PRIx64 "+0x%x interp 0x%08x "
               "color 0x%08x noperspective 0x%08x flat %u control 0x%08x "
               "regs %u results %u rt0 fmt 0x%x at 0x%02x%08x blend 0x%x",
               c->ctx->chid, nv50_st(st, NV50_3D_VERTEX_BEGIN_GL), refs,
               in_words, sh->code[NV50_GR_PROG_VP],
               nv50_st(st, NV50_3D_VP_START_ID),
               nv50_st(st, NV50_3D_VP_ATTR_EN(0)),
               nv50_st(st, NV50_3D_VP_ATTR_EN(1)),
               nv50_st(st, NV50_3D_VP_GP_BUILTIN_ATTR_EN),
               nv50_st(st, NV50_3D_VP_REG_ALLOC_TEMP),
               nv50_st(st, NV50_3D_VP_REG_ALLOC_RESULT), size, map,
               sh->code[NV50_GR_PROG_FP], nv50_st(st, TRACE_FP_START_ID),
               nv50_st(st, TRACE_FP_INTERPOLANT_CTRL),
               nv50_st(st, NV50_3D_SEMANTIC_COLOR),
               nv50_st(st, TRACE_NOPERSPECTIVE_BITMAP),
               nv50_st(st, TRACE_SHADE_MODEL) == 0x1d00,
               nv50_st(st, TRACE_FP_CONTROL),
               nv50_st(st, TRACE_FP_REG_ALLOC_TEMP),
               nv50_st(st, TRACE_FP_RESULT_COUNT),
               nv50_st(st, TRACE_RT_FORMAT0),
               nv50_st(st, TRACE_RT_ADDRESS_HIGH0) & 0xff,
               nv50_st(st, TRACE_RT_ADDRESS_LOW0),
               nv50_st(st, TRACE_BLEND_ENABLE0));
}

/* Fetch, shade and assemble the stream of one BEGIN/END. */
static void draw_run(NV50GrCall *c, NV50Gr3dState *st, NV50Draw *d)
{
    const NV50VtxRef *refs = (const NV50VtxRef *)d->refs->data;
    NV50VcacheSrc src = {
        .refs = refs, .nrefs = d->refs->len,
        .words = (const uint32_t *)d->words->data,
        .instance = d->instance, .cur = (const uint32_t (*)[4])d->cur,
    };
    DrawRun r = { .c = c, .st = st, .d = d };
    const NV50PipeVertex *v0;
    unsigned fetched = 0, nseg = 0;
    uint32_t k0 = src.nrefs;

    for (unsigned k = 0; k < src.nrefs; k++) {
        if (refs[k].kind != NV50_REF_BREAK) {
            k0 = MIN(k0, k);
            fetched++;
        }
    }
    if (!fetched) {
        return;
    }
    st->counter[NV50_3D_COUNTER_VFETCH_VERTICES] += fetched;
    r.vc = nv50_vcache_new(c, st, &src);
    /* the first batch through the VP before the later stages begin */
    if (!nv50_vcache_get(r.vc, &k0, 1, &v0)) {
        goto out;
    }
    if (trace_enabled(TRACE_NV50_3D_DRAW)) {
        trace_draw(c, st, fetched, nv50_vcache_in_words(r.vc));
    }
    if (nv50_st(st, NV50_3D_GP_ENABLE) & 1) {
        r.gp = nv50_gp_begin(c, st, gp_out, &r);
        if (!r.gp) {
            goto out;           /* error raised */
        }
    }
    r.so = nv50_strmout_begin(c, st);
    r.draw = nv50_st(st, NV50_3D_RASTERIZE_ENABLE) & 1;
    if (r.draw && !d->emit) {
        /* first as LAYER.IDX and viewport 0 have it */
        r.draw = back_end_at(&r, nv50_st(st, NV50_3D_LAYER) &
                                 NV50_3D_LAYER_IDX, 0);
    }
    /* a VP trap in a later batch stops the assembly (nv50_vcache_get) */
    for (unsigned k = 0; k <= src.nrefs; k++) {
        if (k == src.nrefs || refs[k].kind == NV50_REF_BREAK) {
            assemble(&r, k - nseg, nseg);
            nseg = 0;
        } else {
            nseg++;
        }
    }
    nv50_gp_end(r.gp);          /* runs the last batch */
    r.gp = NULL;
    st->counter[NV50_3D_COUNTER_VFETCH_PRIMITIVES] += r.assembled;
    st->counter[NV50_3D_COUNTER_GENERATED_PRIMITIVES] += r.generated;
    if (r.draw) {
        st->counter[NV50_3D_COUNTER_RAST_PRIMITIVES_PRECLIP] += r.generated;
        st->counter[NV50_3D_COUNTER_RAST_PRIMITIVES_POSTCLIP] += r.emitted;
    }
out:
    nv50_gp_end(r.gp);
    nv50_strmout_end(r.so);
    nv50_fp_end(r.fp);
    if (r.rop) {
        nv50_rop_end(r.rop);
    }
    nv50_vcache_free(r.vc);
}

/* --- methods --- */

static unsigned gl_prim(uint32_t mthd, uint32_t data)
{
    unsigned p = data & 0x0fffffff;

    if (mthd == NV50_3D_VERTEX_BEGIN_D3D) {
        static const uint8_t d3d[16] = {
            [1] = NV50_GL_POINTS, [2] = NV50_GL_LINES,
            [3] = NV50_GL_LINE_STRIP, [4] = NV50_GL_TRIANGLES,
            [5] = NV50_GL_TRIANGLE_STRIP, [0xa] = NV50_GL_LINES_ADJ,
            [0xb] = NV50_GL_LINE_STRIP_ADJ, [0xc] = NV50_GL_TRIANGLES_ADJ,
            [0xd] = NV50_GL_TRIANGLE_STRIP_ADJ,
        };

        if (p == 0 || (p > 5 && p < 0xa) || p > 0xd) {
            return NV50_GL_PRIMS;
        }
        return d3d[p];
    }
    return p < NV50_GL_PRIMS ? p : NV50_GL_PRIMS;
}

static void begin(NV50GrCall *c, NV50Gr3dState *st, NV50Draw *d,
                  uint32_t mthd, uint32_t data)
{
    if (d->active) {
        /* UNVERIFIED: the hardware's error for a BEGIN inside BEGIN */
        gemu_log_once(LOG_GUEST_ERROR, "nv50-draw-begin2", 0, "nv50: 3D "
                      "VERTEX_BEGIN inside BEGIN/END: the first is "
                      "dropped\n");
    }
    g_array_set_size(d->refs, 0);
    g_array_set_size(d->words, 0);
    d->inl_have = 0;
    d->active = true;
    st->in_begin = true;
    d->prim = gl_prim(mthd, data);
    d->vid = nv50_st(st, NV50_3D_VERTEX_ID_BASE);
    if (!(data & 0x40000000u) || c->class_id < 0x8397) {
        d->instance = (data & 0x10000000u) ? d->instance + 1 : 0;
    }
    d->skipped = !nv50_3d_cond_passes(c, st);
    if (d->skipped) {
        gemu_log_once(LOG_UNIMP, "nv50-3d-cond-skip", mthd, "nv50: 3D %s "
                      "skipped by COND_MODE %u\n",
                      mthd == NV50_3D_VERTEX_BEGIN_GL ? "VERTEX_BEGIN_GL"
                                                      : "VERTEX_BEGIN_D3D",
                      nv50_st(st, NV50_3D_COND_MODE));
    }
    if (d->prim == NV50_GL_PRIMS) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "VERTEX_BEGIN primitive 0x%x (UNVERIFIED error)",
                      data & 0x0fffffff);
        d->skipped = true;
    }
}

bool nv50_3d_draw_method(NV50GrCall *c, NV50Gr3dState *st, uint32_t mthd,
                         uint32_t data)
{
    NV50Draw *d;
    bool last;
    int a;

    switch (mthd) {
    case NV50_3D_VERTEX_BEGIN_GL:
    case NV50_3D_VERTEX_BEGIN_D3D:
        begin(c, st, draw_get(st), mthd, data);
        return true;
    case NV50_3D_VERTEX_END_GL:
    case NV50_3D_VERTEX_END_D3D:
        d = draw_get(st);
        st->in_begin = false;
        if (d->active && !d->skipped) {
            draw_run(c, st, d);
        }
        d->active = false;
        g_array_set_size(d->refs, 0);
        g_array_set_size(d->words, 0);
        return true;
    case NV50_3D_VERTEX_ID_BASE:
        draw_get(st)->vid = data;
        return false;           /* stored: an ordinary method too */
    case NV50_3D_VB_ELEMENT_U8_SETUP:
    case NV50_3D_VB_ELEMENT_U16_SETUP:
        d = draw_get(st);
        a = mthd == NV50_3D_VB_ELEMENT_U16_SETUP;
        d->skip[a] = (data >> 30) >> a;
        d->count[a] = data & 0x3fffffff;
        d->limited[a] = data != 0;
        return true;
    case NV50_3D_VB_ELEMENT_U32:
    case NV50_3D_VB_ELEMENT_U16:
    case NV50_3D_VB_ELEMENT_U8:
    case NV50_3D_VERTEX_BUFFER_FIRST:
    case NV50_3D_VERTEX_BUFFER_COUNT:
    case NV50_3D_VERTEX_DATA:
        break;
    default:
        if (mthd < NV50_3D_VTX_ATTR_FIRST || mthd >= NV50_3D_VTX_ATTR_END) {
            return false;
        }
        d = draw_get(st);
        a = nv50_vfetch_vtx_attr(d->cur, mthd, data, &last);
        if (a == 0 && last && d->active && !d->skipped) {
            g_array_append_vals(d->words, d->cur, NV50_VTX_ATTRIBS * 4);
            add_ref(d, NV50_REF_IMMEDIATE,
                    d->words->len - NV50_VTX_ATTRIBS * 4, d->vid++);
        }
        return true;
    }
    d = draw_get(st);
    if (!d->active) {
        /* UNVERIFIED: the hardware's error for vertices outside BEGIN */
        gemu_log_once(LOG_GUEST_ERROR, "nv50-draw-outside", mthd, "nv50: 3D "
                      "method 0x%04x outside VERTEX_BEGIN/END: ignored\n",
                      mthd);
        return true;
    }
    if (d->skipped) {
        return true;
    }
    switch (mthd) {
    case NV50_3D_VB_ELEMENT_U32:
        add_index(st, d, data);
        break;
    case NV50_3D_VB_ELEMENT_U16:
        add_packed(st, d, 1, data, 2, 16);
        break;
    case NV50_3D_VB_ELEMENT_U8:
        add_packed(st, d, 0, data, 4, 8);
        break;
    case NV50_3D_VERTEX_BUFFER_COUNT:
        add_arrays(st, d, data);
        break;
    case NV50_3D_VERTEX_DATA:
        add_inline(st, d, data);
        break;
    }
    return true;
}
