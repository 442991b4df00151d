/*
 * The 3D back end (pipe.h nv50_fp_begin/prim/end): one primitive after
 * clipping and the viewport -> coverage (hw/core/raster.h) -> early Z ->
 * FP quads on the TPC/MP model -> late Z -> ROP.  The FP program, c[]
 * and the shading of a batch are fp-prog.c's, the batches in flight
 * and their retirement fp-retire.c's.
 *
 * - Coverage: raster_triangle/line/point inside nv50_rop_bounds()'s
 *   rectangle and sample pattern, positions snapped to 1/256 pixel
 *   (UNVERIFIED: the G84's sub-pixel precision).  POLYGON_MODE LINE and
 *   POINT arrive as lines and points (clip.c makes them).
 * - Early Z: every covered sample goes through nv50_rop_zs_test()
 *   before the FP unless FP_CONTROL says the FP exports Z or uses KIL,
 *   or ALPHA_TEST_ENABLE is set (UNVERIFIED: the hardware's own choice
 *   also looks at the early-Z state of ZCULL).  A pixel none of whose
 *   samples survives becomes a helper; a quad with none left is not
 *   shaded.  Otherwise the test is late, after the FP, with the FP's Z
 *   ($r[FP_RESULT_COUNT - 1]) for every sample when it exports one; the
 *   alpha test (nv50_rop_alpha_test, colour output 0's alpha) comes
 *   first and drops the fragment before it touches zeta.
 * - FP launches: the draw's quads are batched, up to FP_BATCH_QUADS a
 *   launch (warps of 8 quads, threads UL UR LL LR) from up to
 *   FP_BATCH_PRIMS primitives, each batch on the next of the 4 MPs
 *   (UNVERIFIED: the hardware's distribution).  Uncovered pixels of a
 *   quad run as helpers (TeslaLaunch.invisible).  A trap is reported as
 *   PGRAPH TRAP_MP (MPC TRAP bit of the MP, UNVERIFIED: without the
 *   ERROR_CODE words tpc.c writes for compute) and drops the batch and
 *   the rest of its primitives; past the instruction budget the TIMEOUT
 *   trap ends the draw's FP (fp-prog.c fp_batch_budget).
 * - Host threads: a batch is shaded (its v[] words and its launch) as a
 *   job of a pool of host threads (util/workpool.c; GEMU_FP_THREADS=N,
 *   default one per host core but the engine thread's, at most one per
 *   MP; 0: everything on the engine thread), while the engine thread
 *   rasterises the next ones.  Results are retired by screen tile
 *   (fp-retire.c): each 32x32-pixel tile belongs to one retire lane,
 *   whose jobs (on the pool too) do late Z, the alpha test and the ROP
 *   writes of its quads batch after batch, on a ROP lane of its own, so
 *   every pixel's writes happen in API order whatever thread shaded or
 *   retired what, and the render targets do not depend on the host's
 *   timing or thread count.  Early Z is done on the engine thread as
 *   quads are made, in order too (a quad's early Z never waits for an
 *   earlier quad's colour: only late Z and colour come after the FP,
 *   and a draw with late Z does no early Z).  What the shading reads
 *   (code, c[] as of its first read in the draw, textures) is not
 *   written by the draw itself but for a texture that is also a render
 *   target (undefined in GL): its texels may then be read before or
 *   after the ROP's write-back.
 *   After a trap, the parallel path may have early-Z tested more of the
 *   trapped primitives' quads than the serial one (after the budget's
 *   TIMEOUT, of the primitives after them too).
 * - v[] (what `interp` returns), per FP_INTERPOLANT_CTRL as Mesa's nv50
 *   driver lays it out (nv50_fragprog_assign_slots): first the position
 *   components UMASK selects (x, y: the pixel centre; z: the depth
 *   after the viewport, screen-linear; w: 1/w, screen-linear: the FP
 *   takes its rcp), then COUNT interpolants, interpolant k from result
 *   map slot OFFSET + k of the vertices (NV50PipeVertex.out[]): those
 *   below COUNT_NONFLAT interpolated, perspective ones as attr * 1/w
 *   (the FP multiplies by w), NOPERSPECTIVE_BITMAP ones as attr, the
 *   rest the provoking vertex's.  v[0x3fc] is the face (~0 front, 0
 *   back: what Mesa's FP turns into +-1).  SEMANTIC_COLOR: a back
 *   face reads its COLR_NR colour words from BFC0_ID instead of FFC0_ID
 *   (two-sided lighting), CLMP_EN clamps them to [0, 1] and SHADE_MODEL
 *   FLAT makes them flat (UNVERIFIED, the three).  Points with
 *   POINT_SPRITE_ENABLE replace the map slots POINT_COORD_REPLACE_MAP
 *   names (4 bits a slot: 1 s, 2 t, 3 0, 4 1) by the sprite coordinate
 *   (POINT_SPRITE_CTRL: origin upper or lower left).
 * - Results: colour of RT i in $r(4i)..$r(4i + 3) with MULTIPLE_RESULTS,
 *   else $r0..$r3 for every RT (UNVERIFIED); written to each surviving
 *   sample with nv50_rop_write().
 * - Counters: FP_PIXELS counts the visible pixels shaded, samplecnt the
 *   samples written while SAMPLECNT_ENABLE is set (the occlusion
 *   query's SAMPLECNT: Mesa sets it only while a query is active).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "fp.h"

/* 3D methods the back end reads (rnndb g80_3d.xml) */
#define M_SHADE_MODEL               0x12d4
#define M_POINT_COORD_REPLACE_MAP   0x13c0      /* 16 words */
#define M_POINT_SPRITE_ENABLE       0x1520
#define M_NOPERSPECTIVE_BITMAP      0x1540      /* 4 words */
#define M_POINT_SPRITE_CTRL         0x1660
#define M_SEMANTIC_COLOR            0x1904
#define M_FP_INTERPOLANT_CTRL       0x1988

#define SHADE_MODEL_FLAT            0x1d00
#define POINT_SPRITE_UPPER_LEFT     0x00000010u
#define SEMANTIC_COLOR_CLMP_EN      0x01000000u

static inline uint32_t st_get(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

/* --- host threads -------------------------------------------------------- */

static WorkPool *fp_pool;
static GMutex fp_pool_lock;

static unsigned fp_default_threads(void)
{
    const char *e = g_getenv("GEMU_FP_THREADS");

    if (e && *e) {
        return MIN((unsigned)g_ascii_strtoull(e, NULL, 10),
                   (unsigned)FP_MAX_WORKERS);
    }
    /* the engine thread shades too: one worker per other host core */
    return MIN((unsigned)MAX(g_get_num_processors() - 1, 0),
               (unsigned)FP_MAX_WORKERS);
}

static WorkPool *fp_pool_get(void)
{
    WorkPool *p;

    g_mutex_lock(&fp_pool_lock);
    if (!fp_pool) {
        fp_pool = workpool_new("nv50-fp", fp_default_threads());
    }
    p = fp_pool;
    g_mutex_unlock(&fp_pool_lock);
    return p;
}

void nv50_fp_set_threads(unsigned n)
{
    g_mutex_lock(&fp_pool_lock);
    workpool_free(fp_pool);
    fp_pool = workpool_new("nv50-fp", MIN(n, (unsigned)FP_MAX_WORKERS));
    g_mutex_unlock(&fp_pool_lock);
}

/* --- interpolants -------------------------------------------------------- */

static float vert_word(const NV50PipeVertex *v, unsigned w)
{
    return v && w < v->out_words && w < NV50_PIPE_OUT_WORDS
           ? bits_to_f32(v->out[w]) : 0.0f;
}

/* A sprite coordinate or constant replacing map slot @ms; false: none. */
static bool sprite_slot(const NV50Gr3dState *st, unsigned ms, FpSlot *s)
{
    uint32_t map = st_get(st, M_POINT_COORD_REPLACE_MAP + ms / 8 * 4);

    switch ((map >> (ms % 8 * 4)) & 0xf) {
    case 1:
        s->src = SRC_SPRITE_S;
        return true;
    case 2:
        s->src = SRC_SPRITE_T;
        return true;
    case 3:
        s->src = SRC_CONST;
        s->bits = 0;
        return true;
    case 4:
        s->src = SRC_CONST;
        s->bits = f32_to_bits(1.0f);
        return true;
    }
    return false;
}

/* The v[] words of the primitive being drawn (see the header comment). */
static void fp_slots(FpDraw *d)
{
    const NV50Gr3dState *st = d->st;
    const NV50PipePrim *p = d->prim;
    uint32_t ic = st_get(st, M_FP_INTERPOLANT_CTRL);
    uint32_t sc = st_get(st, M_SEMANTIC_COLOR);
    unsigned count = ic & 0xff, offset = (ic >> 8) & 0xff;
    unsigned nonflat = (ic >> 16) & 0xff, umask = (ic >> 24) & 0xf;
    unsigned ffc = sc & 0xff, bfc = (sc >> 8) & 0xff;
    unsigned ncol = (sc >> 16) & 0xff;
    bool clamp = sc & SEMANTIC_COLOR_CLMP_EN;
    bool shade_flat = st_get(st, M_SHADE_MODEL) == SHADE_MODEL_FLAT;
    bool sprite = p->kind == NV50_PRIM_POINTS &&
                  (st_get(st, M_POINT_SPRITE_ENABLE) & 1);
    FpSlot *slot = d->cur.slot;
    unsigned n = 0;

    for (unsigned i = 0; i < FP_POS_SLOTS; i++) {
        if (umask & (1u << i)) {
            FpSlot *s = &slot[n++];

            s->src = SRC_POS_X + i;
            for (unsigned j = 0; j < p->nverts; j++) {
                s->val[j] = i == 2 ? p->scr[j].z : p->scr[j].inv_w;
            }
            if (i >= 2) {
                s->src = SRC_INTERP;
            }
        }
    }
    for (unsigned k = 0; k < count && offset + k < FP_MAP_SLOTS; k++) {
        unsigned ms = offset + k, word = ms;
        FpSlot *s = &slot[n++];
        bool colour = ms >= ffc && ms < ffc + ncol;
        bool flat = k >= nonflat || (colour && shade_flat);
        bool linear = st_get(st, M_NOPERSPECTIVE_BITMAP + ms / 32 * 4) &
                      (1u << (ms % 32));

        if (sprite && sprite_slot(st, ms, s)) {
            continue;
        }
        if (colour && !p->front && bfc != ffc) {
            word = bfc + (ms - ffc);
        }
        if (flat) {
            const NV50PipeVertex *pv = p->provoking ? p->provoking : p->v[0];

            s->src = SRC_CONST;
            s->bits = pv && word < pv->out_words ? pv->out[word] : 0;
            if (colour && clamp) {
                float f = bits_to_f32(s->bits);

                s->bits = f32_to_bits(MIN(MAX(f, 0.0f), 1.0f));
            }
            continue;
        }
        s->src = SRC_INTERP;
        for (unsigned j = 0; j < p->nverts; j++) {
            float a = vert_word(p->v[j], word);

            if (colour && clamp) {
                a = MIN(MAX(a, 0.0f), 1.0f);
            }
            s->val[j] = linear ? a : a * p->scr[j].inv_w;
        }
    }
    d->cur.nslots = n;
    d->cur.nverts = p->nverts;
    d->cur.front = p->front;
    d->cur.point_size = d->point_size;
    d->cur.sprite_ul = st_get(st, M_POINT_SPRITE_CTRL) &
                       POINT_SPRITE_UPPER_LEFT;
    memcpy(d->cur.scr, p->scr, sizeof(d->cur.scr));
    d->cur.seq = d->seq;
}

/* --- batches ------------------------------------------------------------- */

/* A quad's FpBatch.invisible by its mask of pixels. */
static const bool quad_invisible[16][4] = {
#define INV(m) { !((m) & 1), !((m) & 2), !((m) & 4), !((m) & 8) }
    INV(0), INV(1), INV(2), INV(3), INV(4), INV(5), INV(6), INV(7),
    INV(8), INV(9), INV(10), INV(11), INV(12), INV(13), INV(14), INV(15),
#undef INV
};

/* Quad @q (early Z done), the filling batch's next, into it. */
static void fp_batch_add(FpDraw *d, FpQuad *q)
{
    FpBatch *b = fp_fill(d);
    unsigned lane, mask;

    if (!d->cur_in_batch) {
        FpPrim *p = &b->prim[b->nprims++];

        /* field by field: the slots past nslots are never read */
        p->seq = d->cur.seq;
        p->nverts = d->cur.nverts;
        p->front = d->cur.front;
        p->sprite_ul = d->cur.sprite_ul;
        p->point_size = d->cur.point_size;
        p->nslots = d->cur.nslots;
        memcpy(p->scr, d->cur.scr, sizeof(p->scr));
        memcpy(p->slot, d->cur.slot, d->cur.nslots * sizeof(FpSlot));
        d->cur_in_batch = true;
    }
    q->prim = b->nprims - 1;
    lane = fp_lane_of(d, q->x, q->y);
    b->lq[lane][b->nlq[lane]++] = b->nquads;
    /* the four bools at once: stored one by one, each made q->mask and
       b->visible be reloaded and stored again */
    mask = q->mask & 0xf;
    memcpy(&b->invisible[b->nquads * 4], quad_invisible[mask],
           sizeof(quad_invisible[0]));
    b->visible += (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) +
                  (mask >> 3 & 1);
    if (++b->nquads == FP_BATCH_QUADS || b->nprims == FP_BATCH_PRIMS) {
        fp_submit(d);
    }
}

/*
 * fp_quad's quad @q from @rq for a triangle when no depth or stencil
 * work is done before shading (nothing tested, nothing broadcast):
 * what the loops of fp_quad_ztest come to, without their branches.
 */
static void fp_quad_plain(FpQuad *q, const RasterQuad *rq)
{
    const float *src = &rq->bary[0][0];
    float *dst = &q->bary[0][0];
    unsigned mask = 0;

    /* 0.0f + w: -0.0 becomes +0.0, as fp_quad_ztest's (a float at a
       time: the raster stored them so, a vector load would wait) */
    for (unsigned k = 0; k < 12; k++) {
        dst[k] = 0.0f + src[k];
    }
    for (unsigned i = 0; i < 4; i++) {
        uint8_t samples = (rq->mask & (1u << i)) ? rq->samples[i] : 0;

        q->samples[i] = samples;
        mask |= (unsigned)(samples != 0) << i;
    }
    memset(q->z, 0, sizeof(q->z));
    memset(q->bcast, 0xff, sizeof(q->bcast));
    q->mask = mask;     /* (not |= at each pixel: the bytes may alias) */
}

/* fp_quad's quad @q from @rq: early Z, the weights of every vertex. */
static void fp_quad_ztest(FpDraw *d, FpQuad *q, const RasterQuad *rq)
{
    const NV50PipePrim *p = d->prim;

    q->mask = 0;
    for (unsigned i = 0; i < 4; i++) {
        q->z[i] = 0.0f;
        if (d->nsub == 3) {
            /* a triangle's vertices map to themselves (fp_rasterise) */
            for (unsigned k = 0; k < 3; k++) {
                q->bary[i][k] = 0.0f + rq->bary[i][k];
            }
        } else {
            memset(q->bary[i], 0, sizeof(q->bary[i]));
            for (unsigned k = 0; k < d->nsub; k++) {
                q->bary[i][d->vidx[k]] += rq->bary[i][k];
            }
        }
        /* the depth is read only by the Z tests (fp_sample_z) */
        for (unsigned j = 0; j < p->nverts && !d->zs_passes; j++) {
            q->z[i] += q->bary[i][j] * p->scr[j].z;
        }
    }
    for (unsigned i = 0; i < 4; i++) {
        unsigned samples = (rq->mask & (1u << i)) ? rq->samples[i] : 0;

        if (!d->late_z && !d->zs_passes) {
            for (unsigned rest = samples & 0xff; rest; rest &= rest - 1) {
                unsigned s = ctz32(rest);

                if (!nv50_rop_zs_test(d->rop, q->x + (i & 1),
                                      q->y + (i >> 1), s,
                                      fp_sample_z(d, q, i, s), p->front)) {
                    samples &= ~(1u << s);
                }
            }
        }
        q->samples[i] = samples;
        q->bcast[i] = d->bcast && !d->late_z
                      ? nv50_rop_zs_broadcast(d->rop, q->x + (i & 1),
                                              q->y + (i >> 1))
                      : 0xff;
        if (samples) {
            q->mask |= 1u << i;
        }
    }
}

/* The rasteriser's callback: early Z, then into the batch. */
static void fp_quad(void *opaque, const RasterQuad *rq)
{
    FpDraw *d = opaque;
    FpBatch *b;
    FpQuad *q;

    if (d->seq <= d->stop_seq) {
        return;
    }
    /* made in its place in the filling batch (taken only if shaded) */
    b = fp_fill(d);
    q = &b->quad[b->nquads];
    q->x = rq->x;
    q->y = rq->y;
    if (d->nsub == 3 && d->zs_passes && !d->bcast) {
        fp_quad_plain(q, rq);
    } else {
        fp_quad_ztest(d, q, rq);
    }
    if (q->mask) {
        fp_batch_add(d, q);    /* else nothing left to shade */
    }
}

/* --- the primitive ------------------------------------------------------- */

static void fp_sub(FpDraw *d, unsigned n, unsigned a, unsigned b,
                   unsigned c)
{
    d->nsub = n;
    d->vidx[0] = a;
    d->vidx[1] = b;
    d->vidx[2] = c;
}

static void fp_rasterise(FpDraw *d)
{
    const NV50PipePrim *p = d->prim;
    const RasterParams *rp = &d->rp;

    switch (p->kind) {
    case NV50_PRIM_POINTS:
        fp_sub(d, 1, 0, 0, 0);
        raster_point(&p->scr[0], d->point_size, rp, fp_quad, d);
        return;
    case NV50_PRIM_LINES:
        fp_sub(d, 2, 0, 1, 0);
        raster_line(p->scr, p->width > 0 ? p->width : 1.0f, rp, fp_quad, d);
        return;
    case NV50_PRIM_TRIANGLES:
        fp_sub(d, 3, 0, 1, 2);
        raster_triangle(p->scr, rp, fp_quad, d);
        return;
    }
}

NV50FpDraw *nv50_fp_begin(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop)
{
    FpDraw *d = g_new0(FpDraw, 1);

    d->c = c;
    d->st = st;
    d->rop = rop;
    if (!st->fp_prog) {
        st->fp_prog = g_new0(NV50FpProg, 1);
    }
    d->prog = st->fp_prog;
    g_mutex_init(&d->cb_lock);
    nv50_rop_bounds(rop, &d->rp);
    d->outputs = MIN(nv50_rop_outputs(rop), (unsigned)NV50_PIPE_RTS);
    d->zs_passes = nv50_rop_zs_passes(rop);
    d->bcast = nv50_rop_broadcasts(rop);
    d->rp.subpixel_bits = 8;    /* UNVERIFIED for the G84 */
    d->pool = fp_pool_get();
    fp_batches_init(d);
    return d;
}

void nv50_fp_prim(NV50FpDraw *d, const NV50PipePrim *prim)
{
    if (!prim->nverts || prim->nverts > 3) {
        return;
    }
    if (!d->loaded) {
        fp_drain(d);            /* after a failed setup, nothing queued */
        if (!fp_prog_setup(d)) {
            fp_prog_teardown(d);    /* tried again at the next primitive */
            return;
        }
        d->loaded = true;
        /* colour 0 is $r0-$r3 and nothing but the write comes after */
        d->quad_out = !d->late_z && !d->alpha_test && !d->alpha_cov &&
                      !d->exports_z && d->results >= 4 &&
                      nv50_rop_quad_plain(d->rop);
    }
    d->prim = prim;
    d->seq++;
    d->cur_in_batch = false;
    d->point_size = prim->width > 0 ? prim->width : 1.0f;
    fp_slots(d);
    fp_rasterise(d);
}

void nv50_fp_end(NV50FpDraw *d)
{
    if (!d) {
        return;
    }
    fp_drain(d);
    fp_batches_end(d);
    fp_prog_teardown(d);
    g_mutex_clear(&d->cb_lock);
    g_free(d);
}

void nv50_fp_draw(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop,
                  const NV50PipePrim *prim)
{
    NV50FpDraw *d = nv50_fp_begin(c, st, rop);

    nv50_fp_prim(d, prim);
    nv50_fp_end(d);
}
