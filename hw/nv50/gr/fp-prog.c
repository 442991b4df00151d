/*
 * The 3D back end's FP program (fp.h): its code, kept with its decode
 * caches across draws, its launch environment and c[], and the shading
 * of one batch of quads (a WorkJob: the engine thread's or a worker's).
 *
 * - Code: from FP_ADDRESS + FP_START_ID in DMA_CODE_CB, the pages from
 *   the entry's on, as far as the program goes (decoded up to an
 *   unconditional exit that no branch jumps past), FP_CODE_MAX bytes at
 *   most; the words before the entry's page stay 0 (a program does not
 *   branch out of itself).  At each draw's first primitive the pages
 *   read last time are read again and compared with the context's copy
 *   (NV50FpProg): the same words keep the decoded program (its decode
 *   caches, one per executor); anything else (another address, entry or
 *   DMA object, new words from M2MF, CB_DATA-like uploads, the CPU
 *   through a BAR, a page now unmapped) reads and scans the program
 *   afresh and empties the caches.  So a guest that rewrites its code
 *   between draws runs the new code; within a draw the FP sees its code
 *   as of the draw's first primitive (UNVERIFIED: the hardware's code
 *   cache may refetch within a draw).
 * - c[]: 256-byte lines read on first use in the draw, shared by the
 *   executors (published with release/acquire; loaded under cb_lock).
 * - Instruction budget (nv50_engine_set_insn_budget): the FP's runs of
 *   a draw share what was left at its first primitive, charged to the
 *   engine at the draw's end (the VP's and GP's as they run: with a
 *   GP, a draw may run twice what was left).  A batch is charged at
 *   retirement, in the batches' order, whatever thread shaded it: it
 *   runs on what was left as its thread last saw it, and one that ran
 *   past what was left at its turn is run again on exactly that, on
 *   the engine thread (no side effects: an FP writes no memory).  So
 *   the trap and the image do not depend on the threads.  The TIMEOUT
 *   trap ends the draw's FP: later batches are dropped, unreported; one
 *   that finds nothing left traps at the entry without a run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "fp.h"

/* 3D methods read here (rnndb g80_3d.xml) */
#define M_FP_RESULT_COUNT           0x1298
#define M_LOCAL_SIZE_LOG            0x12e0
#define M_ALPHA_TEST_ENABLE         0x12ec
#define M_FP_START_ID               0x1414
#define M_SAMPLECNT_ENABLE          0x1514
#define M_FP_INTERPOLANT_CTRL       0x1988
#define M_FP_REG_ALLOC_TEMP         0x198c
#define M_FP_CONTROL                0x19a8

#define FP_CONTROL_MULTIPLE_RESULTS 0x00000001u
#define FP_CONTROL_EXPORTS_Z        0x00000100u
#define FP_CONTROL_USES_KIL         0x00100000u

#define FP_CODE_SEGMENT     0x1000000u  /* 24-bit code addresses */
#define FP_CODE_MAX         0x10000u    /* code read past the entry */
#define FP_PAGE             0x1000u
#define FP_CB_LINE          256
#define FP_CB_LINES(size)   (((size) + FP_CB_LINE - 1) / FP_CB_LINE)

static inline uint32_t st_get(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

/* --- code ---------------------------------------------------------------- */

static bool insn_is_end(const TeslaInsn *insn, uint32_t max_target)
{
    if (insn->pred != TPRED_ALWAYS || insn->addr < max_target) {
        return false;
    }
    return insn->post == TPOST_EXIT || insn->op == TOP_RET;
}

static NV50CpSpace code_space(FpDraw *d)
{
    const NV50GrShared *sh = &d->c->ctx->shared;

    return (NV50CpSpace) {
        .dma = sh->dma_code_cb,
        .base = sh->code[NV50_GR_PROG_FP],
        .size = FP_CODE_SEGMENT,
    };
}

/* Read code page @addr to @dst (host-order words); false on a fault. */
static bool code_page(FpDraw *d, NV50CpSpace *sp, uint32_t addr,
                      uint32_t *dst, NV50Fault *f)
{
    if (!nv50_cp_space_rw(d->c, sp, addr, (uint8_t *)dst, FP_PAGE, false,
                          f)) {
        return false;
    }
    for (uint32_t i = 0; i < FP_PAGE / 4; i++) {
        dst[i] = GUINT32_FROM_LE(dst[i]);
    }
    return true;
}

/* The context's copy is still what the guest has at the same place. */
static bool code_unchanged(FpDraw *d, uint32_t entry)
{
    NV50FpProg *pr = d->prog;
    NV50CpSpace sp = code_space(d);
    g_autofree uint32_t *page = NULL;
    NV50Fault f;

    if (!pr->valid || pr->dma != sp.dma || pr->base != sp.base ||
        pr->entry != entry) {
        return false;
    }
    page = g_new(uint32_t, FP_PAGE / 4);
    for (uint32_t a = pr->first; a < pr->loaded; a += FP_PAGE) {
        if (!code_page(d, &sp, a, page, &f) ||
            memcmp(page, pr->code + a / 4, FP_PAGE)) {
            return false;
        }
    }
    return true;
}

/*
 * Read and scan the program into the context's copy; notes whether it
 * reads the face (v[0x3fc], or v[] through $a).  False (trapped) if not
 * even the entry's page can be read.
 */
static bool code_load(FpDraw *d, uint32_t entry)
{
    NV50FpProg *pr = d->prog;
    NV50CpSpace sp = code_space(d);
    uint32_t first = entry & ~(FP_PAGE - 1);
    uint32_t cap = MIN(first + FP_CODE_MAX, FP_CODE_SEGMENT);
    uint32_t loaded = first, pc = entry, max_target = entry;
    NV50Fault f;

    pr->valid = false;
    for (unsigned i = 0; i < FP_EXECUTORS; i++) {
        if (pr->cc[i]) {
            tesla_code_cache_invalidate(pr->cc[i]);
        }
    }
    if (pr->code_alloc < cap) {
        g_free(pr->code);
        pr->code = g_malloc0(cap);
        pr->code_alloc = cap;
    } else {
        memset(pr->code, 0, pr->code_alloc);
    }
    pr->face = false;
    pr->loads++;
    for (;;) {
        TeslaInsn insn;

        while (pc + 8 > loaded && loaded < cap) {
            if (!code_page(d, &sp, loaded, pr->code + loaded / 4, &f)) {
                if (loaded == first) {
                    nv50_gr_trap(d->c, NV50_GR_TRAP_CCACHE, 1, "FP code at "
                                 "0x%x (segment 0x%010" PRIx64 ") cannot be "
                                 "read (%s)", entry, sp.base,
                                 nv50_fault_name(f.reason));
                    return false;
                }
                cap = loaded;
                break;
            }
            loaded += FP_PAGE;
        }
        if (pc + 4 > loaded) {
            break;
        }
        tesla_decode(TESLA_G84, TESLA_PROG_FP, pr->code, loaded / 4, pc,
                     &insn);
        if (insn.op == TOP_INVALID) {
            break;
        }
        if (insn.op == TOP_INTERP && insn.src[0].kind == TOPND_MEM &&
            (insn.src[0].areg || insn.src[0].imm >= FP_FACE_WORD * 4)) {
            pr->face = true;
        }
        for (unsigned i = 0; i < insn.nsrc; i++) {
            if (insn.src[i].kind == TOPND_TARGET) {
                max_target = MAX(max_target, insn.src[i].imm);
            }
        }
        pc += insn.len;
        if (insn_is_end(&insn, max_target)) {
            break;
        }
    }
    pr->dma = sp.dma;
    pr->base = sp.base;
    pr->entry = entry;
    pr->first = first;
    pr->loaded = loaded;
    pr->valid = true;
    return true;
}

/* --- c[] ----------------------------------------------------------------- */

static const uint8_t *cb_line(FpDraw *d, FpCb *cb, unsigned idx,
                              uint32_t li)
{
    uint8_t *l = __atomic_load_n(&cb->line[li], __ATOMIC_ACQUIRE);
    uint64_t base = (uint64_t)li * FP_CB_LINE;
    size_t len;
    NV50Fault f;

    if (l) {
        return l;
    }
    g_mutex_lock(&d->cb_lock);
    l = cb->line[li];
    if (!l) {
        len = MIN((uint64_t)FP_CB_LINE, cb->sp.size - base);
        l = g_malloc0(FP_CB_LINE);
        if (!nv50_cp_space_rw(d->c, &cb->sp, base, l, len, false, &f)) {
            /* UNVERIFIED: reads 0, as tpc.c's c[] do */
            gemu_log_mask(LOG_GUEST_ERROR, "nv50 FP: c%u[0x%x] cannot be "
                          "read (%s)\n", idx, (unsigned)base,
                          nv50_fault_name(f.reason));
        }
        __atomic_store_n(&cb->line[li], l, __ATOMIC_RELEASE);
    }
    g_mutex_unlock(&d->cb_lock);
    return l;
}

static bool fp_cb_read(FpDraw *d, unsigned idx, uint32_t addr, void *buf,
                       unsigned size)
{
    FpCb *cb = &d->cb[idx & (TESLA_NUM_CSPACES - 1)];
    uint8_t *b = buf;

    if (!cb->sp.size || (uint64_t)addr + size > cb->sp.size) {
        return false;
    }
    while (size) {
        uint32_t li = addr / FP_CB_LINE, off = addr % FP_CB_LINE;
        unsigned n = MIN(size, FP_CB_LINE - off);

        memcpy(b, cb_line(d, cb, idx, li) + off, n);
        b += n;
        addr += n;
        size -= n;
    }
    return true;
}

static bool fp_mem_read(void *opaque, TeslaSpace space, unsigned idx,
                        uint32_t addr, void *buf, unsigned size)
{
    FpDraw *d = opaque;

    if (space == TSPACE_C) {
        return fp_cb_read(d, idx, addr, buf, size);
    }
    return false;               /* no g[] for an FP */
}

static bool fp_mem_write(void *opaque, TeslaSpace space, unsigned idx,
                         uint32_t addr, const void *buf, unsigned size)
{
    return false;
}

/* --- the draw's program -------------------------------------------------- */

static void fp_env(FpDraw *d)
{
    NV50GrCall *c = d->c;
    const NV50GrShared *sh = &c->ctx->shared;
    uint32_t fc = st_get(d->st, M_FP_CONTROL);
    uint32_t lsl = st_get(d->st, M_LOCAL_SIZE_LOG);

    d->results = MIN(st_get(d->st, M_FP_RESULT_COUNT),
                     (uint32_t)TESLA_MAX_GPRS);
    d->multiple = fc & FP_CONTROL_MULTIPLE_RESULTS;
    d->exports_z = fc & FP_CONTROL_EXPORTS_Z;
    d->alpha_test = st_get(d->st, M_ALPHA_TEST_ENABLE) & 1;
    d->samplecnt = st_get(d->st, M_SAMPLECNT_ENABLE) & 1;
    d->alpha_cov = nv50_rop_alpha_coverage_on(d->rop);
    d->late_z = d->exports_z || (fc & FP_CONTROL_USES_KIL) || d->alpha_test ||
                d->alpha_cov;

    d->env.variant = TESLA_G84;
    d->env.prog = TESLA_PROG_FP;
    d->env.gprs = MIN(MAX(st_get(d->st, M_FP_REG_ALLOC_TEMP), d->results),
                      (uint32_t)TESLA_MAX_GPRS);
    /* log2(bytes / 8), 0: no l[] (as compute's) */
    d->env.local_bytes = lsl ? MIN(8u << MIN(lsl, 13u), 0x10000u) : 0;
    d->env.mem_read = fp_mem_read;
    d->env.mem_write = fp_mem_write;
    d->env.tex = nv50_tex_sample;
    d->env.opaque = d;
    d->env.stop = nv50_engine_abort_flag(c->s);
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        const NV50GrCb *cb = nv50_gr_prog_cb(sh, NV50_GR_PROG_FP, i);

        if (cb) {
            d->cb[i].sp = (NV50CpSpace) {
                .dma = sh->dma_code_cb, .base = cb->addr, .size = cb->size,
            };
            d->cb[i].line = g_new0(uint8_t *, FP_CB_LINES(cb->size));
            d->env.c[i].size = cb->size;
        }
    }
    d->tex.c = c;
    d->tex.prog = NV50_GR_PROG_FP;
}

/* v[] words a thread: fp.c's slots (UMASK, COUNT), or up to the face */
static unsigned in_words(const FpDraw *d)
{
    uint32_t ic = st_get(d->st, M_FP_INTERPOLANT_CTRL);
    unsigned count = ic & 0xff, offset = (ic >> 8) & 0xff;
    unsigned n = __builtin_popcount((ic >> 24) & 0xf);

    n += offset < FP_MAP_SLOTS ? MIN(count, FP_MAP_SLOTS - offset) : 0;
    return d->face ? MAX(n, FP_FACE_WORD + 1u) : n;
}

bool fp_prog_setup(FpDraw *d)
{
    NV50FpProg *pr = d->prog;
    uint32_t entry = st_get(d->st, M_FP_START_ID) & (FP_CODE_SEGMENT - 1);

    entry &= ~3u;
    fp_env(d);
    if (!code_unchanged(d, entry) && !code_load(d, entry)) {
        return false;
    }
    d->entry = entry;
    d->face = pr->face;
    d->in_words = in_words(d);
    d->env.code = pr->code;
    d->env.code_words = pr->loaded / 4;
    d->budgeted = nv50_engine_insn_budget(d->c->s, &d->budget_left);
    return true;
}

void fp_prog_teardown(FpDraw *d)
{
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        if (d->cb[i].line) {
            for (uint64_t l = 0; l < FP_CB_LINES(d->cb[i].sp.size); l++) {
                g_free(d->cb[i].line[l]);
            }
            g_free(d->cb[i].line);
        }
        d->cb[i] = (FpCb) { 0 };
    }
    d->env = (TeslaEnv) { 0 };
    d->face = false;
    d->loaded = false;
    if (d->budgeted) {
        nv50_engine_insn_charge(d->c->s, d->budget_used);
    }
    d->budgeted = d->budget_out = false;
    d->budget_left = d->budget_used = 0;
}

void nv50_fp_prog_free(NV50FpProg *pr)
{
    if (!pr) {
        return;
    }
    for (unsigned i = 0; i < FP_EXECUTORS; i++) {
        tesla_code_cache_free(pr->cc[i]);
    }
    for (unsigned i = 0; i < FP_RING_MAX; i++) {
        if (pr->ring[i]) {
            tesla_run_free(pr->ring[i]->mem);
            g_free(pr->ring[i]->in);
            g_free(pr->ring[i]);
        }
    }
    g_free(pr->code);
    g_free(pr);
}

uint64_t nv50_fp_prog_loads(const NV50FpProg *pr)
{
    return pr ? pr->loads : 0;
}

/* --- a batch's shading --------------------------------------------------- */

/* The v[] words of pixel @i of quad @q, word k to out[k * stride]. */
static void pixel_in(const FpDraw *d, const FpPrim *p, const FpQuad *q,
                     unsigned i, uint32_t *out, size_t stride)
{
    float px = q->x + (i & 1) + 0.5f, py = q->y + (i >> 1) + 0.5f;
    const float *b = q->bary[i];

    for (unsigned k = 0; k < p->nslots; k++) {
        const FpSlot *s = &p->slot[k];
        float v = 0.0f;

        switch (s->src) {
        case SRC_POS_X:
            v = px;
            break;
        case SRC_POS_Y:
            v = py;
            break;
        case SRC_POS_Z:
        case SRC_POS_W:
        case SRC_INTERP:
            if (p->nverts == 3) {
                /* the loop below, unrolled: the same sums in order */
                v = ((v + b[0] * s->val[0]) + b[1] * s->val[1]) +
                    b[2] * s->val[2];
                break;
            }
            for (unsigned j = 0; j < p->nverts; j++) {
                v += b[j] * s->val[j];
            }
            break;
        case SRC_CONST:
            out[k * stride] = s->bits;
            continue;
        case SRC_SPRITE_S:
            v = (px - (p->scr[0].x - p->point_size / 2)) / p->point_size;
            break;
        case SRC_SPRITE_T:
            v = (py - (p->scr[0].y - p->point_size / 2)) / p->point_size;
            if (!p->sprite_ul) {
                v = 1.0f - v;
            }
            break;
        }
        out[k * stride] = f32_to_bits(v);
    }
    if (d->face) {
        out[FP_FACE_WORD * stride] = p->front ? 0xffffffffu : 0;
    }
}

typedef float FpV4f __attribute__((vector_size(16)));
typedef uint32_t FpV4u __attribute__((vector_size(16)));

/* Word @k of the four pixels (out[k * stride + i]). */
static inline void quad_word(uint32_t *out, size_t stride, unsigned k,
                             FpV4u v)
{
    memcpy(out + k * stride, &v, sizeof(v));
}

/*
 * The v[] words of quad @q's four pixels (word-major: word k of pixel i
 * at out[k * stride + i]): pixel_in's, a slot at a time for the four (a
 * triangle's interpolants in the same float sums, the four pixels as a
 * vector's lanes); sprites go to pixel_in.
 */
static void quad_in(const FpDraw *d, const FpPrim *p, const FpQuad *q,
                    uint32_t *out, size_t stride)
{
    /* vertex j's weights at the four pixels (lanes): IEEE lane by lane */
    FpV4f b[3];

    for (unsigned j = 0; j < 3; j++) {
        b[j] = (FpV4f) { q->bary[0][j], q->bary[1][j], q->bary[2][j],
                         q->bary[3][j] };
    }
    for (unsigned k = 0; k < p->nslots; k++) {
        const FpSlot *s = &p->slot[k];

        switch (s->src) {
        case SRC_POS_Z:
        case SRC_POS_W:
        case SRC_INTERP: {
            FpV4f v;

            if (p->nverts != 3) {
                goto pixels;
            }
            v = ((0.0f + b[0] * s->val[0]) + b[1] * s->val[1]) +
                b[2] * s->val[2];
            quad_word(out, stride, k, (FpV4u)v);
            break;
        }
        case SRC_CONST:
            quad_word(out, stride, k, (FpV4u) { 0 } + s->bits);
            break;
        case SRC_POS_X:
        case SRC_POS_Y: {
            float c = (s->src == SRC_POS_X ? q->x : q->y) + 0.5f;
            float c1 = (s->src == SRC_POS_X ? q->x : q->y) + 1 + 0.5f;

            quad_word(out, stride, k, (FpV4u)(s->src == SRC_POS_X
                                              ? (FpV4f) { c, c1, c, c1 }
                                              : (FpV4f) { c, c, c1, c1 }));
            break;
        }
        default:
            goto pixels;
        }
    }
    if (d->face) {
        quad_word(out, stride, FP_FACE_WORD,
                  (FpV4u) { 0 } + (p->front ? 0xffffffffu : 0));
    }
    return;
pixels:
    for (unsigned i = 0; i < 4; i++) {
        pixel_in(d, p, q, i, out + i, stride);
    }
}

/* What fp-retire.c reads of the run, by warp. */
static void fp_batch_warps(FpBatch *b)
{
    unsigned threads = b->nquads * 4;

    for (unsigned w = 0; w * TESLA_WARP_SIZE < threads; w++) {
        unsigned first = w * TESLA_WARP_SIZE;
        uint32_t m = tesla_run_killed_warp(b->run, first);

        for (unsigned l = 0; l < MIN(threads - first,
                                     (unsigned)TESLA_WARP_SIZE); l++) {
            m |= (uint32_t)b->invisible[first + l] << l;
        }
        b->dead[w] = m;
        b->rows[w] = tesla_run_regs_warp(b->run, first, &b->stride);
    }
}

/* Batch @b's v[] words and its launch, on @budget insns (0: no bound). */
static void batch_run(FpBatch *b, unsigned executor, uint64_t budget)
{
    FpDraw *d = b->d;
    unsigned threads = b->nquads * 4;
    TeslaEnv env = d->env;
    TeslaLaunch tl = { 0 };

    if (d->in_words) {
        memset(b->in, 0, (size_t)threads * d->in_words * 4);
        for (unsigned qi = 0; qi < b->nquads; qi++) {
            const FpQuad *q = &b->quad[qi];

            quad_in(d, &b->prim[q->prim], q, b->in + (size_t)qi * 4,
                    threads);
        }
    }
    tl.threads = threads;
    tl.in = d->in_words ? b->in : NULL;
    tl.in_words = d->in_words;
    tl.in_stride = threads;         /* word-major: quad_in's */
    tl.invisible = b->invisible;
    tl.entry = d->entry;
    tl.local_uncleared = true;
    tl.keep_regs = true;
    env.tpc_index = b->mp / NV50_MPS_PER_TPC;
    env.mp_index = b->mp % NV50_MPS_PER_TPC;
    if (!d->prog->cc[executor]) {
        d->prog->cc[executor] = tesla_code_cache_new();
    }
    env.decoded = d->prog->cc[executor];
    env.insn_budget = budget;
    if (!b->mem) {
        b->mem = tesla_run_alloc();
    }
    b->run = tesla_run_renew(b->mem, &env, &tl, &b->err) ? b->mem : NULL;
    if (b->run) {
        tesla_run_exec(b->run);
        fp_batch_warps(b);
    }
}

void fp_batch_shade(WorkJob *job, unsigned executor)
{
    FpBatch *b = (FpBatch *)job;
    FpDraw *d = b->d;

    b->budget = 0;
    if (d->budgeted) {
        /* no later than this batch's turn: fp_batch_budget checks */
        b->budget = __atomic_load_n(&d->budget_left, __ATOMIC_RELAXED);
        if (!b->budget) {
            return;             /* used up: fp_batch_budget's trap */
        }
    }
    batch_run(b, executor, b->budget);
}

/* The budget was used up before batch @b: its TIMEOUT ends the FP. */
static void budget_trap(FpDraw *d, const FpBatch *b)
{
    nv50_gr_trap(d->c, NV50_GR_TRAP_MP, NV50_MPC_TRAP_MP(b->mp % 2),
                 "FP on TP %u MP %u: TIMEOUT at 0x%06x (warp 0): the "
                 "instruction budget is used up", b->mp / 2, b->mp % 2,
                 d->entry);
    d->budget_out = true;
    d->stop_seq = UINT64_MAX;
}

bool fp_batch_budget(FpDraw *d, FpBatch *b)
{
    uint64_t left = d->budget_left, used;
    const TeslaResult *r;

    if (!d->budgeted) {
        return true;
    }
    if (d->budget_out || !left) {
        if (!d->budget_out) {
            budget_trap(d, b);
        }
        b->run = NULL;
        g_free(b->err);
        b->err = NULL;
        return false;
    }
    if (!b->run) {
        return true;            /* a malformed launch: fp.c reports it */
    }
    r = tesla_run_result(b->run);
    if (r->status == TESLA_RUN_PAUSED) {
        return true;
    }
    if (b->budget != left && r->insns >= left) {
        /* ran on more than was left: what the batch does on just that */
        b->run = NULL;
        b->budget = left;
        batch_run(b, 0, left);
        if (!b->run) {
            return true;
        }
        r = tesla_run_result(b->run);
    }
    used = MIN(r->insns, left);
    d->budget_used += used;
    __atomic_store_n(&d->budget_left, left - used, __ATOMIC_RELAXED);
    if (used == left && r->status == TESLA_RUN_TRAP &&
        r->error == TESLA_ERR_TIMEOUT) {
        d->budget_out = true;   /* fp.c reports this trap */
        d->stop_seq = UINT64_MAX;
    }
    return true;
}
