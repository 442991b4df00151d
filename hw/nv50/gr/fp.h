/*
 * The 3D back end's internals, shared by fp.c (coverage, early Z and
 * the filling of batches, on the engine thread), fp-retire.c (the
 * batches in flight and their retirement into the ROP, by screen tile
 * on the pool) and fp-prog.c (the FP program kept across draws, c[],
 * and the shading of a batch, on any executor of the pool).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_FP_H
#define HW_NV50_GR_FP_H

#include "gemu/workpool.h"
#include "pipe.h"
#include "tpc.h"

#define FP_BATCH_QUADS      256         /* 1024 threads, 32 warps */
#define FP_BATCH_PRIMS      128         /* primitives a batch's quads span */
#define FP_MAP_SLOTS        64          /* VP_RESULT_MAP entries */
#define FP_POS_SLOTS        4
#define FP_FACE_WORD        (0x3fc / 4)
#define FP_MAX_WORKERS      NV50_MPS    /* host threads: one an MP at most */
#define FP_EXECUTORS        (FP_MAX_WORKERS + 1)    /* + the engine thread */
#define FP_RING_MAX         (4 * FP_EXECUTORS)      /* batches in flight */
#define FP_LANES_MAX        FP_EXECUTORS            /* retire lanes */
#define FP_TILE_BITS        5           /* 32x32-pixel screen tiles */

/* Where a v[] word comes from. */
typedef enum FpSrc {
    SRC_POS_X,
    SRC_POS_Y,
    SRC_POS_Z,
    SRC_POS_W,
    SRC_INTERP,                 /* sum of bary * val[] */
    SRC_CONST,                  /* bits */
    SRC_SPRITE_S,
    SRC_SPRITE_T,
} FpSrc;

typedef struct FpSlot {
    FpSrc src;
    uint32_t bits;              /* SRC_CONST */
    float val[3];               /* SRC_INTERP: per vertex */
} FpSlot;

/* What a batch keeps of a primitive: enough for its quads' v[]. */
typedef struct FpPrim {
    uint64_t seq;               /* the draw's primitive number */
    RasterVert scr[3];
    unsigned nverts;
    bool front;
    bool sprite_ul;             /* POINT_SPRITE_CTRL origin upper left */
    float point_size;
    unsigned nslots;
    FpSlot slot[FP_POS_SLOTS + FP_MAP_SLOTS];
} FpPrim;

typedef struct FpQuad {
    int x, y;
    unsigned mask;              /* pixels with a surviving sample */
    uint8_t samples[4];         /* surviving samples of each pixel */
    uint8_t bcast[4];           /* early Z's nv50_rop_zs_broadcast */
    uint8_t prim;               /* in the batch's prim[] */
    float bary[4][3];           /* of the primitive's vertices */
    float z[4];                 /* at the pixel centres */
} FpQuad;

typedef struct NV50FpDraw FpDraw;

/* One FP launch: quads of one or more primitives, shaded as a job. */
typedef struct FpBatch {
    WorkJob job;                /* first */
    FpDraw *d;
    unsigned mp;                /* the MP it runs on ($physid) */
    unsigned nquads, nprims;
    FpQuad quad[FP_BATCH_QUADS];
    FpPrim prim[FP_BATCH_PRIMS];
    bool invisible[FP_BATCH_QUADS * 4];
    unsigned visible;
    /* the quads of each retire lane (by screen tile), in order */
    uint16_t lq[FP_LANES_MAX][FP_BATCH_QUADS];
    uint16_t nlq[FP_LANES_MAX];
    uint32_t *in;
    size_t in_cap;              /* words of in[] */
    /* the job's results */
    uint64_t budget;            /* the insn budget it ran on (0: none) */
    TeslaRun *run;              /* mem once launched, else NULL */
    TeslaRun *mem;              /* kept for the slot's next batches */
    char *err;                  /* tesla_run_renew's */
    /* by warp: threads invisible or killed, their registers' rows */
    uint32_t dead[FP_BATCH_QUADS * 4 / TESLA_WARP_SIZE];
    const uint32_t *rows[FP_BATCH_QUADS * 4 / TESLA_WARP_SIZE];
    unsigned stride;            /* words from a thread's row to the next */
    /* set by the engine thread once shaded, for the lanes */
    bool ok;                    /* its results go to the ROP */
    uint64_t stop_seq;          /* the draw's then */
} FpBatch;

/*
 * A retire lane: the quads of its screen tiles, batch after batch, on
 * its own lane of the ROP (nv50_rop_lanes); its job runs on any
 * executor, one at a time.
 */
typedef struct FpLane {
    WorkJob job;                /* first */
    FpDraw *d;
    NV50Rop *rop;
    unsigned idx;
    uint64_t next, to;          /* its job retires batches [next, to) */
    bool busy;                  /* submitted, not yet waited for */
    uint64_t samplecnt;         /* samples it wrote (SAMPLECNT) */
} FpLane;

/*
 * A 3D context's FP program, kept across draws: the code as last read,
 * its decode caches (one per executor) and the batches' memory.  The
 * code is read again at each draw's first primitive and compared: the
 * caches are kept only when the words are the same.
 */
typedef struct NV50FpProg {
    bool valid;
    uint32_t dma;               /* DMA_CODE_CB */
    uint64_t base;              /* FP_ADDRESS */
    uint32_t entry;             /* FP_START_ID, word-aligned */
    uint32_t first, loaded;     /* bytes [first, loaded) read */
    uint32_t *code;             /* FP_CODE_MAX-past-first words, host order */
    size_t code_alloc;          /* bytes of code */
    bool face;                  /* reads v[0x3fc] (or v[] through $a) */
    TeslaCodeCache *cc[FP_EXECUTORS];
    uint64_t loads;             /* code (re)read and scanned */
    FpBatch *ring[FP_RING_MAX];
} NV50FpProg;

/* A c[] slot: its window and the lines of it read so far. */
typedef struct FpCb {
    NV50CpSpace sp;
    uint8_t **line;             /* sp.size / FP_CB_LINE entries, lazily */
} FpCb;

struct NV50FpDraw {
    NV50TexUnit tex;            /* first: TeslaEnv.opaque for tex too */
    NV50GrCall *c;
    NV50Gr3dState *st;
    NV50Rop *rop;
    NV50FpProg *prog;
    RasterParams rp;
    /* the program */
    TeslaEnv env;
    uint32_t entry;
    unsigned results;
    bool multiple, exports_z, late_z, alpha_test;
    bool zs_passes;             /* nv50_rop_zs_passes: no Z test to do */
    bool bcast;                 /* nv50_rop_broadcasts */
    bool quad_out;              /* fp_output_quad may stand for fp_output */
    bool alpha_cov;             /* ALPHA_TO_COVERAGE (the ROP's) */
    bool samplecnt;             /* SAMPLECNT_ENABLE */
    unsigned outputs;           /* colours the ROP reads */
    unsigned in_words;          /* v[] words a thread (with the face) */
    bool face;
    FpCb cb[TESLA_NUM_CSPACES];
    GMutex cb_lock;             /* loading a c[] line (any executor) */
    bool loaded;                /* code, env and cb[] set up */
    /* the primitive being rasterised */
    const NV50PipePrim *prim;
    uint64_t seq;
    unsigned vidx[3], nsub;
    float point_size;
    FpPrim cur;                 /* its v[] slots */
    bool cur_in_batch;
    /*
     * batches by number: made are shaded or shading (ring[n % depth]),
     * the first shaded collected by the engine thread, the first freed
     * retired by every lane (their runs done with); batch made fills
     */
    WorkPool *pool;
    unsigned depth;
    uint64_t made, shaded, freed;
    unsigned nlanes;
    FpLane lane[FP_LANES_MAX];
    unsigned mp_next;
    uint64_t stop_seq;          /* primitives <= this are dropped (+1) */
    /* the instruction budget (fp_batch_budget) */
    bool budgeted;
    bool budget_out;            /* its TIMEOUT reported: the rest dropped */
    uint64_t budget_left;       /* written by the engine thread alone */
    uint64_t budget_used;       /* charged to the engine at the end */
};

/* The depth of sample @s of pixel @i (the plane through the centres). */
static inline float fp_sample_z(const FpDraw *d, const FpQuad *q,
                                unsigned i, unsigned s)
{
    const RasterSamples *rs = d->rp.samples;
    float dzdx, dzdy;

    if (!rs || s >= rs->count || (!rs->pos[s][0] && !rs->pos[s][1])) {
        return q->z[i];
    }
    dzdx = q->z[1] - q->z[0];
    dzdy = q->z[2] - q->z[0];
    return q->z[i] + dzdx * rs->pos[s][0] / 16.0f +
           dzdy * rs->pos[s][1] / 16.0f;
}

/* --- fp-retire.c --- */

/* Set the draw's lanes and ring up (nv50_fp_begin). */
void fp_batches_init(FpDraw *d);
/* The batch being filled. */
FpBatch *fp_fill(FpDraw *d);
/* The retire lane of quad (x, y) (quads are on the even grid). */
static inline unsigned fp_lane_of(const FpDraw *d, int x, int y)
{
    return d->nlanes < 2 ? 0
           : (((unsigned)x >> FP_TILE_BITS) + ((unsigned)y >> FP_TILE_BITS))
             % d->nlanes;
}
/* Hand the filling batch to the pool (a new one fills). */
void fp_submit(FpDraw *d);
/* fp_submit, then wait until every batch is retired. */
void fp_drain(FpDraw *d);
/* After fp_drain: the lanes' counters into the state, the ROP synced. */
void fp_batches_end(FpDraw *d);

/* --- fp-prog.c --- */

/* Set up d->env and d->cb[] from the state; false if the code traps. */
bool fp_prog_setup(FpDraw *d);
/* Free what fp_prog_setup made for the draw (c[] lines). */
void fp_prog_teardown(FpDraw *d);
/* The job of a batch: v[] words, the launch on an MP (WorkJob.fn). */
void fp_batch_shade(WorkJob *job, unsigned executor);
/*
 * The engine thread, batch @b shaded, in the batches' order: charge the
 * instruction budget; false if @b is dropped (its run freed) because
 * the budget's TIMEOUT has ended the draw's FP.
 */
bool fp_batch_budget(FpDraw *d, FpBatch *b);

#endif
