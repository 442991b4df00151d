/*
 * The VP stage: vertex programs as warps of 32 vertices on the G84's
 * MPs (target/tesla, TESLA_PROG_VP), and their o[] results through
 * VP_RESULT_MAP into NV50PipeVertex.
 *
 * - Code: the VP segment (VP_ADDRESS in DMA_CODE_CB, NV50GrShared),
 *   entry VP_START_ID, read from 0 to 64 KiB past the entry at each
 *   draw; the context keeps the words and their decoded form
 *   (NV50VpCode: the same words next time keep the decode, others
 *   replace it); registers VP_REG_ALLOC_TEMP, o[] words
 *   VP_REG_ALLOC_RESULT; l[] 8 << LOCAL_SIZE_LOG bytes a thread (as the
 *   compute class reads its LOCAL_SIZE_LOG; kept in host memory).
 * - c[]: the VP's SET_PROGRAM_CB slots (NV50GrShared), each bound
 *   buffer read whole from memory once per draw, before its first batch
 *   (flat c[] spaces for the run).
 * - Warps: vertex v is lane v % 32 of warp v / 32; warp w runs on MP
 *   w % 4 (TPC (w % 4) / 2), each MP one TeslaRun over its warps.
 *   UNVERIFIED: the hardware's VP warp distribution (no program can
 *   tell).  A trap ends the draw: PGRAPH TRAP_MP with the MP's bit in
 *   the MPC TRAP word (UNVERIFIED: the MP's ERROR_CODE words that
 *   tpc.c fills for compute are not written).
 * - Instruction budget (nv50_engine_set_insn_budget, shared with the
 *   compute launches): each VP and GP run (nv50_stage_exec) gets what
 *   is left and is charged what it ran; past it the run traps with
 *   TIMEOUT as above, and one that finds nothing left traps at its
 *   entry without running.
 * - Result map: VP_RESULT_MAP_SIZE bytes of VP_RESULT_MAP[], byte k
 *   naming the o[] word of result k; a byte past the program's o[]
 *   words (Mesa: 0x40) reads 0.0, with bit 0 set (0x41) 1.0
 *   (UNVERIFIED: inferred from Mesa filling unwritten HPOS.w with 0x41).
 *   Results 0-3 are the clip-space position (Mesa's map always starts
 *   with HPOS); SEMANTIC_PTSZ (enable, result id) the point size, else
 *   POINT_SIZE.  With GP_ENABLE the map feeds the GP instead (gp.c),
 *   which shares the code, c[] and result map helpers here
 *   (nv50_stage_*, nv50_result_map: GP_RESULT_MAP).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "hw/nv50/engine.h"
#include "draw.h"
#include "tpc.h"

#define CODE_WINDOW     0x10000u
#define CODE_SEGMENT    0x1000000u      /* 24-bit code addresses */
#define PAGE            4096u

bool nv50_stage_cb_read(void *opaque, TeslaSpace space, unsigned idx,
                        uint32_t addr, void *buf, unsigned size)
{
    NV50StageCb *r = opaque;

    if (space != TSPACE_C || idx >= TESLA_NUM_CSPACES) {
        return false;
    }
    if (!r->cb_loaded[idx]) {
        const NV50GrCb *cb = nv50_gr_prog_cb(r->sh, r->prog, idx);
        NV50CpSpace sp;
        NV50Fault f;

        r->cb_loaded[idx] = true;
        if (cb) {
            sp = (NV50CpSpace) {
                .dma = r->sh->dma_code_cb, .base = cb->addr, .size = cb->size,
            };
            r->cb_size[idx] = cb->size;
            r->cb[idx] = g_malloc0(cb->size);
            for (uint32_t o = 0; o < cb->size; o += PAGE) {
                unsigned n = MIN(PAGE, cb->size - o);

                if (!nv50_cp_space_rw(r->c, &sp, o, r->cb[idx] + o, n,
                                      false, &f)) {
                    memset(r->cb[idx] + o, 0, n);
                }
            }
        }
    }
    if (!r->cb[idx] || (uint64_t)addr + size > r->cb_size[idx]) {
        return false;
    }
    memcpy(buf, r->cb[idx] + addr, size);
    return true;
}

static bool vp_mem_write(void *opaque, TeslaSpace space, unsigned idx,
                         uint32_t addr, const void *buf, unsigned size)
{
    return false;
}

void nv50_stage_cb_free(NV50StageCb *cb)
{
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        g_free(cb->cb[i]);
        cb->cb[i] = NULL;
    }
}

/* The code segment from 0 to CODE_WINDOW past @entry (words, LE). */
static uint32_t *load_code(NV50GrCall *c, const NV50GrShared *sh,
                           unsigned prog, uint32_t entry, size_t *nwords)
{
    NV50CpSpace sp = {
        .dma = sh->dma_code_cb, .base = sh->code[prog],
        .size = CODE_SEGMENT,
    };
    uint32_t end = MIN(entry + CODE_WINDOW, CODE_SEGMENT) & ~3u;
    uint32_t entry_page = entry & ~(PAGE - 1);
    uint8_t *b = g_malloc0(end);
    uint32_t *w = (uint32_t *)b;
    NV50Fault f;

    for (uint32_t a = 0; a < end; a += PAGE) {
        uint32_t n = MIN(PAGE, end - a);

        if (!nv50_cp_space_rw(c, &sp, a, b + a, n, false, &f)) {
            if (a == entry_page) {
                g_free(b);
                return NULL;
            }
            if (a > entry_page) {
                end = a;
                break;
            }
            memset(b + a, 0, n);
        }
    }
    *nwords = end / 4;
    for (size_t i = 0; i < *nwords; i++) {
        w[i] = GUINT32_FROM_LE(w[i]);
    }
    return w;
}

struct NV50VpCode {
    uint32_t *words;            /* as read at the last draw */
    size_t nwords;
    TeslaCodeCache *cc;         /* their decode (the engine thread's) */
};

void nv50_vp_code_free(NV50VpCode *vc)
{
    if (vc) {
        tesla_code_cache_free(vc->cc);
        g_free(vc->words);
        g_free(vc);
    }
}

/*
 * The context's copy of @code (@nwords read for this draw; taken over
 * when the copy differs, whose decode is then dropped).
 */
static NV50VpCode *vp_code_keep(NV50Gr3dState *st, uint32_t **code,
                                size_t nwords)
{
    NV50VpCode *vc = st->vp_code;

    if (!vc) {
        vc = st->vp_code = g_new0(NV50VpCode, 1);
        vc->cc = tesla_code_cache_new();
    }
    if (!vc->words || vc->nwords != nwords ||
        memcmp(vc->words, *code, nwords * 4)) {
        g_free(vc->words);
        vc->words = g_steal_pointer(code);
        vc->nwords = nwords;
        /* a new buffer may reuse the old one's address: drop explicitly */
        tesla_code_cache_invalidate(vc->cc);
    }
    return vc;
}

uint32_t *nv50_stage_code(NV50GrCall *c, unsigned prog, uint32_t entry,
                          size_t *nwords)
{
    return load_code(c, &c->ctx->shared, prog, entry, nwords);
}

void nv50_stage_env(NV50GrCall *c, NV50Gr3dState *st, unsigned prog,
                    unsigned gprs, NV50StageCb *cb, TeslaEnv *env)
{
    const NV50GrShared *sh = &c->ctx->shared;
    uint32_t lsl = nv50_st(st, NV50_3D_LOCAL_SIZE_LOG);

    memset(cb, 0, sizeof(*cb));
    cb->c = c;
    cb->sh = sh;
    cb->prog = prog;
    cb->tex = (NV50TexUnit) { .c = c, .prog = prog };
    memset(env, 0, sizeof(*env));
    env->variant = TESLA_G84;
    env->prog = prog == NV50_GR_PROG_GP ? TESLA_PROG_GP : TESLA_PROG_VP;
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        const NV50GrCb *b = nv50_gr_prog_cb(sh, prog, i);

        env->c[i].size = b ? b->size : 0;
    }
    env->mem_read = nv50_stage_cb_read;
    env->mem_write = vp_mem_write;
    env->tex = nv50_tex_sample;
    env->opaque = cb;
    env->stop = nv50_engine_abort_flag(c->s);
    env->gprs = MIN(gprs, (uint32_t)TESLA_MAX_GPRS);
    env->local_bytes = lsl ? MIN(8u << MIN(lsl, 13u), 0x10000u) : 0;
    env->shared_bytes = 0;
}

void nv50_result_map_prep(const NV50Gr3dState *st, uint32_t map_mthd,
                          unsigned size, unsigned out_words,
                          NV50ResultMap *m)
{
    uint32_t ptsz = nv50_st(st, NV50_3D_SEMANTIC_PTSZ);

    m->size = MIN(size, (unsigned)NV50_PIPE_OUT_WORDS);
    m->out_words = out_words;
    for (unsigned k = 0; k < m->size; k++) {
        unsigned w = nv50_st(st, map_mthd + 4 * (k / 4)) >> (8 * (k % 4)) &
                     0xff;

        m->src[k] = w < out_words ? w : NV50_RESULT_MAP_NONE;
        m->konst[k] = (w & 1) ? f32_to_bits(1.0f) : 0;
    }
    m->ptsz = (ptsz & 1) && ((ptsz >> 4) & 0xff) < m->size
              ? (int)((ptsz >> 4) & 0xff) : -1;
    m->point_size = nv50_stf(st, NV50_3D_POINT_SIZE);
}

void nv50_result_map_apply(const NV50ResultMap *m, const uint32_t *o,
                           NV50PipeVertex *v)
{
    for (unsigned k = 0; k < m->size; k++) {
        unsigned w = m->src[k];

        v->out[k] = w != NV50_RESULT_MAP_NONE && o ? o[w] : m->konst[k];
    }
    v->out_words = m->size;
    for (unsigned i = 0; i < 4; i++) {
        v->clip[i] = i < m->size ? bits_to_f32(v->out[i])
                                 : (i == 3 ? 1.0f : 0.0f);
    }
    v->point_size = m->ptsz >= 0 ? bits_to_f32(v->out[m->ptsz])
                                 : m->point_size;
}

void nv50_result_map(const NV50Gr3dState *st, uint32_t map_mthd,
                     unsigned size, const uint32_t *o, unsigned out_words,
                     NV50PipeVertex *v)
{
    NV50ResultMap m;

    nv50_result_map_prep(st, map_mthd, size, out_words, &m);
    nv50_result_map_apply(&m, o, v);
}

/*
 * Trace point nv50_3d_vertex: vertex @v of a draw, its VP inputs (a[]
 * words) and its results after the map, as floats.
 */
static void trace_vertex(NV50GrCall *c, unsigned v, const uint32_t *in,
                         unsigned in_words, const NV50PipeVertex *out)
{
    g_autoptr(GString) s = g_string_new(NULL);

    g_string_append_printf(s, "ch %d v %u in", c->ctx->chid, v);
    for (unsigned i = 0; i < in_words; i++) {
        g_string_append_printf(s, " %g", bits_to_f32(in[i]));
    }
    g_string_append(s, " out");
    for (unsigned i = 0; i < out->out_words; i++) {
        g_string_append_printf(s, " %g", bits_to_f32(out->out[i]));
    }
    gemu_trace(TRACE_NV50_3D_VERTEX, "%s", s->str);
}

/* A trap of the MP @env names (PGRAPH TRAP_MP, as compute's). */
static void stage_trap(NV50GrCall *c, const char *stage, const TeslaEnv *env,
                       const TeslaResult *res)
{
    nv50_gr_trap(c, NV50_GR_TRAP_MP, NV50_MPC_TRAP_MP(env->mp_index),
                 "%s on TP %u MP %u: %s at 0x%06x (warp %u): %s", stage,
                 env->tpc_index, env->mp_index, tesla_error_name(res->error),
                 res->pc, res->warp, res->msg);
}

TeslaRun *nv50_stage_exec(NV50GrCall *c, const char *stage,
                          const TeslaEnv *env, const TeslaLaunch *tl,
                          TeslaRun **keep)
{
    g_autofree char *err = NULL;
    const TeslaResult *res;
    TeslaEnv e = *env;
    TeslaRun *run;
    uint64_t left;
    bool budgeted = nv50_engine_insn_budget(c->s, &left);

    if (budgeted && !left) {
        /* used up before this run (0 would be no bound): its TIMEOUT */
        TeslaResult r = {
            .status = TESLA_RUN_TRAP, .error = TESLA_ERR_TIMEOUT,
            .pc = tl->entry,
        };

        g_strlcpy(r.msg, "the instruction budget is used up",
                  sizeof(r.msg));
        stage_trap(c, stage, env, &r);
        return NULL;
    }
    if (budgeted) {
        e.insn_budget = left;
    }
    if (!*keep) {
        *keep = tesla_run_alloc();
    }
    run = *keep;
    if (!tesla_run_renew(run, &e, tl, &err)) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "%s launch: %s", stage, err);
        return NULL;
    }
    tesla_run_exec(run);
    res = tesla_run_result(run);
    if (budgeted) {
        nv50_engine_insn_charge(c->s, res->insns);
    }
    if (res->status == TESLA_RUN_PAUSED) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: 3D draw on channel %d "
                      "abandoned in the %s (reset or teardown)\n",
                      c->ctx->chid, stage);
    } else if (res->status != TESLA_RUN_DONE) {
        stage_trap(c, stage, env, res);
    } else {
        return run;
    }
    return NULL;
}

struct NV50VpDraw {
    NV50GrCall *c;
    NV50Gr3dState *st;
    uint32_t entry;
    unsigned out_words;
    NV50StageCb cb;             /* env's opaque: c[] read once a draw */
    TeslaEnv env;
    NV50ResultMap map;
    uint32_t *min;              /* an MP's inputs */
    size_t min_words;
};

/*
 * The VP's c[] buffers read now, whole, and handed to the run as flat
 * spaces (the fast loop then takes c[] operands itself; a VP's c[] is
 * read once a draw either way: at first use it read the whole buffer).
 */
static void vp_cb_flat(NV50StageCb *cb, TeslaEnv *env)
{
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        uint8_t none;

        if (env->c[i].size) {
            nv50_stage_cb_read(cb, TSPACE_C, i, 0, &none, 0);
            env->c[i].data = cb->cb[i];
        }
    }
}

NV50VpDraw *nv50_vp_begin(NV50GrCall *c, NV50Gr3dState *st)
{
    const NV50GrShared *sh = &c->ctx->shared;
    uint32_t entry = nv50_st(st, NV50_3D_VP_START_ID) & (CODE_SEGMENT - 1);
    unsigned map_size = MIN(nv50_st(st, NV50_3D_VP_RESULT_MAP_SIZE),
                            NV50_3D_VP_RESULT_MAP__LEN * 4u);
    g_autofree uint32_t *code = NULL;
    NV50VpDraw *vp;
    NV50VpCode *vc;
    size_t ncode;

    code = load_code(c, sh, NV50_GR_PROG_VP, entry, &ncode);
    if (!code) {
        nv50_gr_trap(c, NV50_GR_TRAP_CCACHE, 1, "VP code at 0x%x (segment "
                     "0x%010" PRIx64 ") cannot be read", entry,
                     sh->code[NV50_GR_PROG_VP]);
        return NULL;
    }
    vc = vp_code_keep(st, &code, ncode);
    vp = g_new0(NV50VpDraw, 1);
    vp->c = c;
    vp->st = st;
    vp->entry = entry;
    vp->out_words = MIN(nv50_st(st, NV50_3D_VP_REG_ALLOC_RESULT),
                        (uint32_t)NV50_PIPE_OUT_WORDS);
    nv50_stage_env(c, st, NV50_GR_PROG_VP,
                   nv50_st(st, NV50_3D_VP_REG_ALLOC_TEMP), &vp->cb,
                   &vp->env);
    vp_cb_flat(&vp->cb, &vp->env);
    vp->env.code = vc->words;
    vp->env.code_words = vc->nwords;
    vp->env.decoded = vc->cc;
    nv50_result_map_prep(st, NV50_3D_VP_RESULT_MAP(0), map_size,
                         vp->out_words, &vp->map);
    return vp;
}

void nv50_vp_end(NV50VpDraw *vp)
{
    if (vp) {
        nv50_stage_cb_free(&vp->cb);
        g_free(vp->min);
        g_free(vp);
    }
}

bool nv50_vp_run(NV50VpDraw *vp, const uint32_t *in, unsigned in_words,
                 unsigned n, NV50PipeVertex *const *out)
{
    NV50GrCall *c = vp->c;
    unsigned warps = (n + TESLA_WARP_SIZE - 1) / TESLA_WARP_SIZE;
    size_t min_words = (size_t)MAX(in_words, 1u) * n;
    bool ok = true;

    if (vp->min_words < min_words) {
        g_free(vp->min);
        vp->min = g_new0(uint32_t, min_words);
        vp->min_words = min_words;
    }
    for (unsigned mp = 0; mp < NV50_MPS && ok; mp++) {
        TeslaLaunch tl = { 0 };
        unsigned threads = 0;
        TeslaRun *run;

        /* this MP's warps: mp, mp + 4, ... */
        for (unsigned w = mp; w < warps; w += NV50_MPS) {
            unsigned first = w * TESLA_WARP_SIZE;
            unsigned cnt = MIN(n - first, (unsigned)TESLA_WARP_SIZE);

            memcpy(vp->min + (size_t)threads * in_words,
                   in + (size_t)first * in_words, 4ull * cnt * in_words);
            threads += cnt;
        }
        if (!threads) {
            break;
        }
        tl.threads = threads;
        tl.in = vp->min;
        tl.in_words = in_words;
        tl.out_words = MAX(vp->out_words, 1u);
        tl.entry = vp->entry;
        tl.local_uncleared = true;
        vp->env.tpc_index = mp / NV50_MPS_PER_TPC;
        vp->env.mp_index = mp % NV50_MPS_PER_TPC;
        run = nv50_stage_exec(c, "VP", &vp->env, &tl, &vp->st->vp_run);
        if (!run) {
            ok = false;
            break;
        }
        for (unsigned w = mp, t = 0; w < warps; w += NV50_MPS) {
            unsigned first = w * TESLA_WARP_SIZE;
            unsigned cnt = MIN(n - first, (unsigned)TESLA_WARP_SIZE);

            for (unsigned l = 0; l < cnt; l++, t++) {
                nv50_result_map_apply(&vp->map, tesla_run_out(run, t),
                                      out[first + l]);
            }
        }
    }
    for (unsigned v = 0; ok && trace_enabled(TRACE_NV50_3D_VERTEX) && v < n;
         v++) {
        trace_vertex(c, v, in + (size_t)v * in_words, in_words, out[v]);
    }
    return ok;
}
