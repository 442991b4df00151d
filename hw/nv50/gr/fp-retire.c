/*
 * The 3D back end's batches in flight and their retirement (fp.h): late
 * Z, the alpha test, the ROP writes and the counters of the shaded quads,
 * by screen tile on the FP pool.
 *
 * - Lanes: the screen is cut into 32x32-pixel tiles, dealt to the
 *   draw's retire lanes along the diagonals (fp_lane_of: one lane
 *   serially, one per executor with a pool).  A quad (on the even grid,
 *   so within one tile) goes to its tile's lane, which retires it on a
 *   lane of the ROP of its own (nv50_rop_lanes: its own chunk cache and
 *   broadcast state).  A lane's job retires its quads of a run of
 *   batches in the batches' order, and the next job of a lane is
 *   submitted only once the last one is done: every pixel's late Z,
 *   blending and writes follow API order (batch, then primitive, then
 *   quad) whatever thread runs which lane, so the render targets do not
 *   depend on the thread count or the host's timing.
 * - The engine thread rasterises, early-Z tests (on the ROP itself: its
 *   zeta writes are the only ones then, late Z being off for the whole
 *   draw), fills and submits batches, and collects each batch once
 *   shaded, in order (fp_collect: the budget, the trap or error report,
 *   FP_PIXELS, the stop_seq the batch's writes obey).  Early Z never
 *   waits for earlier quads' colour; with late Z (FP exports Z, KIL,
 *   alpha test or coverage) zeta is the lanes' alone.  So no draw needs
 *   a drain between its early and late tests.
 * - Counters: FP_PIXELS is added by the engine thread as it collects;
 *   each lane counts its SAMPLECNT samples, added at the draw's end (a
 *   sum: the same whatever the partition).
 * - Traps: a shading trap or error is reported as the batch is
 *   collected, in order; the batch is then not retired and the later
 *   batches' quads of its primitives are dropped (stop_seq, as it was
 *   when each was collected).  A ROP fault in any lane or the engine
 *   thread ends every lane's memory work (rop-mem.c); which lane's
 *   fault PFB's trap words keep may then depend on timing when two
 *   lanes fault at once.
 * - Memory: each lane's chunk cache is its own; the draw's end merges
 *   them into the ROP's and writes them back (nv50_rop_lanes_sync)
 *   before anything else may read the surfaces.  VRAM and the page
 *   tables are read by the lanes as by the texture unit (no cache).
 * - Ring: up to depth batches from the oldest a lane has not retired to
 *   the one filling; a slot is refilled only once every lane has
 *   retired its batch (its run's memory is kept for the next).  The
 *   engine thread waits for a job only when the ring is full or at the
 *   draw's end, and then runs it itself if no pool thread has started it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "fp.h"

#define FP_LANE_BATCHES     2   /* a lane's job while the ring has room */

/* --- a lane's quads (any executor) -------------------------------------- */

static void fp_output(FpLane *l, const uint32_t *reg, const FpQuad *q,
                      unsigned i, bool front)
{
    FpDraw *d = l->d;
    float color[NV50_PIPE_RTS][4];
    unsigned samples = q->samples[i];
    unsigned ncol = d->results;
    unsigned nout = d->outputs;
    unsigned nrt = d->multiple ? nout : 1;
    float zout = 0.0f;

    if (d->exports_z && d->results) {
        zout = bits_to_f32(reg[d->results - 1]);
        ncol = d->results - 1;
    }
    for (unsigned rt = 0; rt < nrt; rt++) {
        if (rt * 4 + 4 <= ncol) {
            /* the register bits as they are, in one store: the copies
               below then load what one store wrote */
            memcpy(color[rt], reg + rt * 4, sizeof(color[rt]));
            continue;
        }
        for (unsigned k = 0; k < 4; k++) {
            color[rt][k] = rt * 4 + k < ncol ? bits_to_f32(reg[rt * 4 + k])
                                             : 0.0f;
        }
    }
    for (unsigned rt = nrt; rt < nout; rt++) {
        memcpy(color[rt], color[0], sizeof(color[0]));
    }
    if (d->alpha_test && !nv50_rop_alpha_test(l->rop, color[0][3])) {
        return;
    }
    if (d->alpha_cov) {
        samples &= nv50_rop_alpha_coverage(l->rop, color[0][3]);
    }
    if (d->late_z && !d->zs_passes) {
        for (unsigned rest = samples; rest; rest &= rest - 1) {
            unsigned s = ctz32(rest);
            float z;

            z = d->exports_z ? zout : fp_sample_z(d, q, i, s);
            if (!nv50_rop_zs_test(l->rop, q->x + (i & 1), q->y + (i >> 1),
                                  s, z, front)) {
                samples &= ~(1u << s);
            }
        }
    }
    if (d->bcast && !d->late_z) {
        /* the samples early Z let through, on the engine thread's lane */
        nv50_rop_zs_broadcast_set(l->rop, q->x + (i & 1), q->y + (i >> 1),
                                  q->bcast[i]);
    }
    for (unsigned rest = samples & 0xff; rest; rest &= rest - 1) {
        nv50_rop_write(l->rop, q->x + (i & 1), q->y + (i >> 1), ctz32(rest),
                       color);
        l->samplecnt += d->samplecnt;
    }
}

/* The registers of thread @t of batch @b. */
static inline const uint32_t *fp_regs(const FpBatch *b, unsigned t)
{
    return b->rows[t / TESLA_WARP_SIZE] + t % TESLA_WARP_SIZE * b->stride;
}

/*
 * fp_output for the 4 threads of quad @q from @t0 when d->quad_out
 * (early Z only, no alpha test or coverage, colour 0 in $r0-$r3 to one
 * plain target): the shaded pixels whose one sample survived go to
 * nv50_rop_write_quad, others (none expected) to fp_output.
 */
static void fp_output_quad(FpLane *l, const FpBatch *b, const FpQuad *q,
                           unsigned t0, unsigned live)
{
    float col[4][4];
    unsigned mask = 0, n = 0;

    for (unsigned i = 0; i < 4; i++) {
        if (!(live & (1u << i))) {
            continue;
        }
        if (q->samples[i] != 1) {
            fp_output(l, fp_regs(b, t0 + i), q, i, b->prim[q->prim].front);
            continue;
        }
        memcpy(col[i], fp_regs(b, t0 + i), sizeof(col[i]));
        mask |= 1u << i;
        n++;
    }
    if (mask) {
        nv50_rop_write_quad(l->rop, q->x, q->y, mask, col);
        l->samplecnt += l->d->samplecnt * n;
    }
}

/* Lane @l's quads of batch @b (shaded and collected). */
static void fp_lane_retire(FpLane *l, const FpBatch *b)
{
    const FpDraw *d = l->d;
    const uint16_t *lq = b->lq[l->idx];

    if (!b->ok) {
        return;
    }
    for (unsigned n = 0; n < b->nlq[l->idx]; n++) {
        unsigned t0 = lq[n] * 4;
        const FpQuad *q = &b->quad[lq[n]];
        unsigned live = ~b->dead[t0 / TESLA_WARP_SIZE] >>
                        (t0 % TESLA_WARP_SIZE) & 0xf;

        if (b->prim[q->prim].seq <= b->stop_seq) {
            continue;
        }
        if (d->quad_out) {
            fp_output_quad(l, b, q, t0, live);
            continue;
        }
        for (unsigned i = 0; i < 4; i++) {
            if (live & (1u << i)) {
                fp_output(l, fp_regs(b, t0 + i), q, i,
                          b->prim[q->prim].front);
            }
        }
    }
}

/* A lane's job (WorkJob.fn): batches [next, to). */
static void fp_lane_job(WorkJob *job, unsigned executor)
{
    FpLane *l = (FpLane *)job;
    FpDraw *d = l->d;

    for (uint64_t n = l->next; n < l->to; n++) {
        fp_lane_retire(l, d->prog->ring[n % d->depth]);
    }
}

/* --- the engine thread ---------------------------------------------------- */

static void fp_report_trap(FpDraw *d, unsigned mp, const TeslaResult *r)
{
    nv50_gr_trap(d->c, NV50_GR_TRAP_MP, NV50_MPC_TRAP_MP(mp % 2),
                 "FP on TP %u MP %u: %s at 0x%06x (warp %u): %s", mp / 2,
                 mp % 2, tesla_error_name(r->error), r->pc, r->warp, r->msg);
}

/* Batch @b, shaded, in the batches' order: what the lanes may write. */
static void fp_collect_one(FpDraw *d, FpBatch *b)
{
    uint64_t last = b->prim[b->nprims - 1].seq;
    const TeslaResult *r;

    b->ok = false;
    if (!fp_batch_budget(d, b)) {
        return;
    }
    if (!b->run) {
        nv50_gr_error(d->c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_VALUE, "FP launch: %s", b->err);
        g_free(b->err);
        b->err = NULL;
        d->stop_seq = MAX(d->stop_seq, last);
        return;
    }
    r = tesla_run_result(b->run);
    if (r->status == TESLA_RUN_PAUSED) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: FP launch on channel %d "
                      "abandoned (reset or teardown)\n", d->c->ctx->chid);
        d->stop_seq = MAX(d->stop_seq, last);
    } else if (r->status != TESLA_RUN_DONE) {
        fp_report_trap(d, b->mp, r);
        d->stop_seq = MAX(d->stop_seq, last);
    } else {
        d->st->counter[NV50_3D_COUNTER_FP_PIXELS] += b->visible;
        b->stop_seq = d->stop_seq;
        b->ok = true;
    }
}

/*
 * Collect shaded batches in order: waiting for those before @upto,
 * then as many as are done.
 */
static void fp_collect(FpDraw *d, uint64_t upto)
{
    while (d->shaded < d->made) {
        FpBatch *b = d->prog->ring[d->shaded % d->depth];

        if (d->shaded >= upto && !workpool_poll(d->pool, &b->job)) {
            return;
        }
        workpool_wait(d->pool, &b->job);
        fp_collect_one(d, b);
        d->shaded++;
    }
}

/*
 * Give each idle lane the collected batches it has not retired, if at
 * least @min (fewer, larger jobs: each costs a wake-up).
 */
static void fp_kick(FpDraw *d, uint64_t min)
{
    for (unsigned i = 0; i < d->nlanes; i++) {
        FpLane *l = &d->lane[i];

        if (l->busy && workpool_poll(d->pool, &l->job)) {
            l->busy = false;
            l->next = l->to;
        }
        if (!l->busy && l->next < d->shaded && d->shaded - l->next >= min) {
            l->to = d->shaded;
            l->busy = true;
            workpool_submit(d->pool, &l->job);
        }
    }
}

/*
 * Idle lanes with about a batch to retire between them (a small draw's
 * end): retired here, sparing a worker's wake-up for each; false if
 * there is more.
 */
static bool fp_lanes_here(FpDraw *d)
{
    uint64_t pending = 0;

    for (unsigned i = 0; i < d->nlanes; i++) {
        FpLane *l = &d->lane[i];

        if (l->busy && workpool_poll(d->pool, &l->job)) {
            l->busy = false;
            l->next = l->to;
        }
        pending += l->busy ? 0 : d->shaded - l->next;
    }
    if (pending > d->nlanes) {
        return false;
    }
    for (unsigned i = 0; i < d->nlanes; i++) {
        FpLane *l = &d->lane[i];

        if (!l->busy && l->next < d->shaded) {
            l->to = d->shaded;
            fp_lane_job(&l->job, 0);    /* its last job is done */
            l->next = l->to;
        }
    }
    return true;
}

/* Return once every lane has retired the batches before @upto. */
static void fp_retired(FpDraw *d, uint64_t upto)
{
    bool again = true;

    fp_collect(d, upto);
    while (again) {
        again = false;
        if (!fp_lanes_here(d)) {
            fp_kick(d, 1);
        }
        for (unsigned i = 0; i < d->nlanes; i++) {
            FpLane *l = &d->lane[i];

            if (l->next < upto) {
                workpool_wait(d->pool, &l->job);    /* busy: kicked */
                l->busy = false;
                l->next = l->to;
                again |= l->next < upto;
            }
        }
    }
    for (; d->freed < upto; d->freed++) {
        FpBatch *b = d->prog->ring[d->freed % d->depth];

        b->run = NULL;          /* b->mem is kept for the slot's next */
    }
}

FpBatch *fp_fill(FpDraw *d)
{
    NV50FpProg *pr = d->prog;
    unsigned i = d->made % d->depth;

    if (!pr->ring[i]) {
        pr->ring[i] = g_new0(FpBatch, 1);
        pr->ring[i]->job.fn = fp_batch_shade;
    }
    return pr->ring[i];
}

static void fp_fill_reset(FpDraw *d)
{
    FpBatch *b = fp_fill(d);

    b->nquads = b->nprims = b->visible = 0;
    memset(b->nlq, 0, sizeof(b->nlq));
}

void fp_submit(FpDraw *d)
{
    FpBatch *b = fp_fill(d);
    size_t need = (size_t)b->nquads * 4 * d->in_words;

    if (!b->nquads) {
        return;
    }
    if (need > b->in_cap) {
        g_free(b->in);
        b->in = g_new(uint32_t, need);
        b->in_cap = need;
    }
    b->d = d;
    b->mp = d->mp_next++ % NV50_MPS;
    workpool_submit(d->pool, &b->job);
    d->made++;
    d->cur_in_batch = false;
    fp_collect(d, 0);
    fp_kick(d, FP_LANE_BATCHES);
    if (d->made - d->freed == d->depth) {
        fp_retired(d, d->freed + 1);    /* the slot that fills next */
    }
    fp_fill_reset(d);
}

void fp_drain(FpDraw *d)
{
    fp_submit(d);
    fp_retired(d, d->made);
}

void fp_batches_init(FpDraw *d)
{
    unsigned threads = workpool_threads(d->pool);

    /* serial: each batch retired as soon as it is full, as it was made */
    d->depth = threads ? MIN(4 * (threads + 1), FP_RING_MAX) : 1;
    d->nlanes = nv50_rop_lanes(d->rop, MIN(threads + 1,
                                           (unsigned)FP_LANES_MAX));
    d->nlanes = MIN(MAX(d->nlanes, 1u), (unsigned)FP_LANES_MAX);
    for (unsigned i = 0; i < d->nlanes; i++) {
        FpLane *l = &d->lane[i];

        l->job.fn = fp_lane_job;
        l->d = d;
        l->idx = i;
        l->rop = nv50_rop_lane(d->rop, i);
    }
    fp_fill_reset(d);
}

void fp_batches_end(FpDraw *d)
{
    for (unsigned i = 0; i < d->nlanes; i++) {
        d->st->samplecnt += d->lane[i].samplecnt;
        d->lane[i].samplecnt = 0;
    }
    nv50_rop_lanes_sync(d->rop);
}
