/*
 * The GP stage (GP_ENABLE): geometry programs as warps of 32 input
 * primitives on the G84's MPs (target/tesla, TESLA_PROG_GP), their
 * emitted vertices through GP_RESULT_MAP into the primitives stream
 * output and the clipper take.  What Mesa 22.3's nv50 sends
 * (nv50_shader_state.c nv50_gmtyprog_validate, nv50_gp_linkage_validate,
 * nv50_fp_linkage_validate) and its codegen reads (nv50_ir_emit_nv50.cpp
 * emitPFETCH, emitOUT; nv50_ir_target_nv50.cpp SV_PRIMITIVE_ID).
 *
 * - Inputs: one thread per input primitive (1, 2, 3 vertices; 4 and 6
 *   with adjacency, in GL's order, 3d-draw.c).  A vertex is the VP's
 *   o[] through VP_RESULT_MAP (which Mesa fills with the GP's inputs,
 *   packed), VP_RESULT_MAP_SIZE words, in p[] (one buffer per run,
 *   shared by its threads); a[4 * k] holds the byte address in p[] of
 *   the thread's vertex k (the codegen's PFETCH: `shl $a a[4k] 0`, then
 *   p[$a + slot * 4]); a[0x18] the primitive ID (its index in the draw,
 *   across restarts; UNVERIFIED).  UNVERIFIED: the hardware's p[]
 *   layout and batching (a program sees only the addresses).
 * - Code: the GP segment (GP_ADDRESS), entry GP_START_ID, registers
 *   GP_REG_ALLOC_TEMP, o[] words GP_REG_ALLOC_RESULT, c[] the GP's
 *   SET_PROGRAM_CB slots, l[] as for the VP (vp.c's nv50_stage_*).
 * - emit sends the thread's o[] as the next vertex of the current
 *   output primitive (and clears o[], target/tesla), restart ends the
 *   primitive; a thread's emits past GP_VERTEX_OUTPUT_COUNT (1-1024)
 *   are dropped (UNVERIFIED: the hardware's behaviour past the limit).
 *   GP_OUTPUT_PRIMITIVE_TYPE: POINTS (every vertex), LINE_STRIP,
 *   TRIANGLE_STRIP (GL's strip rules, odd triangles' first two vertices
 *   swapped); a strip cut short gives what it completed.  Output
 *   primitives keep the input primitives' order; PROVOKING_VERTEX_LAST
 *   picks the provoking vertex as for strips drawn without a GP.
 * - Result map: GP_RESULT_MAP_SIZE bytes of GP_RESULT_MAP[], as for the
 *   VP (results 0-3 the position, Mesa's 0x80 for an unwritten one
 *   reads 0.0, with bit 0 1.0).
 * - Warps run on MP (batch % 4), one TeslaRun each; a trap ends the
 *   draw (PGRAPH TRAP_MP, as the VP's).  Counters: GP_LAUNCHES (input
 *   primitives), GP_PRIMITIVES_OUT (output primitives; UNVERIFIED:
 *   primitives, not strips or vertices).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "hw/nv50/engine.h"
#include "draw.h"
#include "tpc.h"

#define CODE_SEGMENT    0x1000000u      /* 24-bit code addresses */
#define P_WORDS         0x4000u         /* p[]: 16-bit byte addresses */
#define A_WORDS         7               /* a[]: 6 vertex pointers, PrimID */
#define A_PRIMID        6
#define MAX_OUT_VERTS   1024u

struct NV50Gp {
    NV50GrCall *c;
    NV50Gr3dState *st;
    NV50GpOut out;
    void *opaque;
    TeslaEnv env;
    NV50StageCb cb;
    uint32_t *code;
    TeslaCodeCache *cc;
    unsigned out_words;         /* GP_REG_ALLOC_RESULT */
    unsigned map_size;          /* GP_RESULT_MAP_SIZE */
    unsigned prim_type;         /* GP_OUTPUT_PRIMITIVE_TYPE */
    unsigned max_verts;         /* GP_VERTEX_OUTPUT_COUNT */
    uint32_t entry;
    bool failed;                /* trapped: the rest is dropped */
    /* the batch being gathered */
    uint32_t in[TESLA_WARP_SIZE * A_WORDS];
    uint32_t *p;
    unsigned p_used;
    unsigned threads;
    unsigned batches;
    uint32_t prim_id;
};

NV50Gp *nv50_gp_begin(NV50GrCall *c, NV50Gr3dState *st, NV50GpOut out,
                      void *opaque)
{
    const NV50GrShared *sh = &c->ctx->shared;
    unsigned type = nv50_st(st, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE);
    NV50Gp *g;
    size_t ncode;

    if (type < NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS ||
        type > NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "GP_OUTPUT_PRIMITIVE_TYPE 0x%x (UNVERIFIED error)",
                      type);
        return NULL;
    }
    g = g_new0(NV50Gp, 1);
    g->c = c;
    g->st = st;
    g->out = out;
    g->opaque = opaque;
    g->prim_type = type;
    g->entry = nv50_st(st, NV50_3D_GP_START_ID) & (CODE_SEGMENT - 1);
    g->code = nv50_stage_code(c, NV50_GR_PROG_GP, g->entry, &ncode);
    if (!g->code) {
        nv50_gr_trap(c, NV50_GR_TRAP_CCACHE, 1, "GP code at 0x%x (segment "
                     "0x%010" PRIx64 ") cannot be read", g->entry,
                     sh->code[NV50_GR_PROG_GP]);
        g_free(g);
        return NULL;
    }
    nv50_stage_env(c, st, NV50_GR_PROG_GP,
                   nv50_st(st, NV50_3D_GP_REG_ALLOC_TEMP), &g->cb, &g->env);
    g->env.code = g->code;
    g->env.code_words = ncode;
    g->cc = tesla_code_cache_new();
    g->env.decoded = g->cc;
    g->out_words = MIN(nv50_st(st, NV50_3D_GP_REG_ALLOC_RESULT),
                       (uint32_t)NV50_PIPE_OUT_WORDS);
    g->map_size = MIN(nv50_st(st, NV50_3D_GP_RESULT_MAP_SIZE),
                      NV50_3D_GP_RESULT_MAP__LEN * 4u);
    g->max_verts = CLAMP(nv50_st(st, NV50_3D_GP_VERTEX_OUTPUT_COUNT), 1u,
                         MAX_OUT_VERTS);
    g->p = g_new0(uint32_t, P_WORDS);
    return g;
}

/* --- the output --- */

/* The strips of one thread: its emits, in order, into primitives. */
typedef struct Strip {
    NV50Gp *g;
    NV50PipeVertex v[3];        /* vertex j at j % 3 */
    unsigned n;                 /* vertices of the current strip */
    uint64_t prims;
} Strip;

static void strip_vertex(Strip *s, const TeslaEmitRec *rec)
{
    NV50Gp *g = s->g;
    bool last = nv50_st(g->st, NV50_3D_PROVOKING_VERTEX_LAST) & 1;
    unsigned j, a, b;
    const NV50PipeVertex *v[3];

    if (rec->restart) {
        s->n = 0;
    }
    j = s->n++;
    nv50_result_map(g->st, NV50_3D_GP_RESULT_MAP(0), g->map_size, rec->out,
                    g->out_words, &s->v[j % 3]);
    switch (g->prim_type) {
    case NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS:
        v[0] = &s->v[j % 3];
        g->out(g->opaque, NV50_PRIM_POINTS, v, 1, v[0]);
        break;
    case NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_LINE_STRIP:
        if (j < 1) {
            return;
        }
        v[0] = &s->v[(j - 1) % 3];
        v[1] = &s->v[j % 3];
        g->out(g->opaque, NV50_PRIM_LINES, v, 2, v[last ? 1 : 0]);
        break;
    default:
        if (j < 2) {
            return;
        }
        a = (j & 1) ? j - 1 : j - 2;
        b = (j & 1) ? j - 2 : j - 1;
        v[0] = &s->v[a % 3];
        v[1] = &s->v[b % 3];
        v[2] = &s->v[j % 3];
        g->out(g->opaque, NV50_PRIM_TRIANGLES, v, 3,
               last ? v[2] : &s->v[(j - 2) % 3]);
        break;
    }
    s->prims++;
}

/* Every thread's emits, thread by thread (the input primitives' order). */
static void run_output(NV50Gp *g, TeslaRun *run)
{
    unsigned count;
    const TeslaEmitRec *rec = tesla_run_emits(run, &count);
    unsigned start[TESLA_WARP_SIZE + 1] = { 0 };
    unsigned fill[TESLA_WARP_SIZE];
    g_autofree unsigned *order = g_new(unsigned, MAX(count, 1u));
    Strip *s = g_new0(Strip, 1);

    s->g = g;
    for (unsigned i = 0; i < count; i++) {
        start[MIN(rec[i].thread, (unsigned)TESLA_WARP_SIZE - 1) + 1]++;
    }
    for (unsigned t = 0; t < TESLA_WARP_SIZE; t++) {
        start[t + 1] += start[t];
        fill[t] = start[t];
    }
    for (unsigned i = 0; i < count; i++) {
        order[fill[MIN(rec[i].thread, (unsigned)TESLA_WARP_SIZE - 1)]++] = i;
    }
    for (unsigned t = 0; t < g->threads; t++) {
        s->n = 0;
        for (unsigned k = start[t]; k < start[t + 1]; k++) {
            strip_vertex(s, &rec[order[k]]);
        }
    }
    g->st->counter[NV50_3D_COUNTER_GP_PRIMITIVES_OUT] += s->prims;
    g_free(s);
}

/* Run the gathered batch on its MP and hand on what it emitted. */
static void run_batch(NV50Gp *g)
{
    TeslaLaunch tl = {
        .threads = g->threads, .in = g->in, .in_words = A_WORDS,
        .p = g->p, .p_words = g->p_used, .out_words = MAX(g->out_words, 1u),
        .max_emits = g->max_verts, .entry = g->entry,
        .local_uncleared = true,
    };
    unsigned mp = g->batches++ % NV50_MPS;
    TeslaRun *run;

    g->st->counter[NV50_3D_COUNTER_GP_LAUNCHES] += g->threads;
    g->env.tpc_index = mp / NV50_MPS_PER_TPC;
    g->env.mp_index = mp % NV50_MPS_PER_TPC;
    run = nv50_stage_exec(g->c, "GP", &g->env, &tl, &g->st->gp_run);
    if (!run) {
        g->failed = true;
        return;
    }
    run_output(g, run);
}

static void flush(NV50Gp *g)
{
    if (g->threads && !g->failed) {
        run_batch(g);
    }
    g->threads = 0;
    g->p_used = 0;
}

void nv50_gp_prim(NV50Gp *g, const NV50PipeVertex *const *v, unsigned n)
{
    unsigned stride = MAX(v[0]->out_words, 1u);
    uint32_t *a;

    n = MIN(n, (unsigned)A_PRIMID);
    if (g->threads == TESLA_WARP_SIZE || g->p_used + n * stride > P_WORDS) {
        flush(g);
    }
    a = g->in + g->threads * A_WORDS;
    memset(a, 0, A_WORDS * 4);
    for (unsigned k = 0; k < n; k++) {
        unsigned have = MIN(stride, v[k]->out_words);

        a[k] = g->p_used * 4;
        memcpy(g->p + g->p_used, v[k]->out, 4 * have);
        memset(g->p + g->p_used + have, 0, 4 * (stride - have));
        g->p_used += stride;
    }
    a[A_PRIMID] = g->prim_id++;
    g->threads++;
}

bool nv50_gp_end(NV50Gp *g)
{
    bool ok;

    if (!g) {
        return true;
    }
    flush(g);
    ok = !g->failed;
    nv50_stage_cb_free(&g->cb);
    tesla_code_cache_free(g->cc);
    g_free(g->code);
    g_free(g->p);
    g_free(g);
    return ok;
}
