/*
 * Tesla shader core runtime: run one program launch (a batch of 3D threads,
 * or a compute grid) through the warp interpreter.
 *
 * The embedder (tools/gemu-shader, later hw/nv50/gr/) describes the program
 * and its memory spaces in a TeslaEnv and the launch in a TeslaLaunch, then:
 *
 *     TeslaRun *run = tesla_run_new(&env, &launch);
 *     TeslaRunStatus st = tesla_run_exec(run);
 *     ... tesla_run_result(), tesla_run_reg(), tesla_run_out(), ...
 *     tesla_run_free(run);
 *
 * Thread numbering (used by every per-thread input and result):
 * - vertex/geometry/fragment: thread t is lane t % 32 of warp t / 32.
 *   Fragment threads come in quads: threads 4q..4q+3 are UL UR LL LR.
 * - compute: thread t = block * block_threads + tid, where
 *     block_threads = block[0] * block[1] * block[2],
 *     block = bx + by * grid[0] + bz * grid[0] * grid[1],
 *     tid   = x + y * block[0] + z * block[0] * block[1];
 *   warp w of a block holds tid 32w .. 32w + 31.  Blocks run one after
 *   another (in block order); the warps of a block run together, so that
 *   bar works.
 *
 * target/ knows nothing of hw/: memory that is not a flat host buffer is
 * reached through TeslaEnv.mem_read/mem_write.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_EXEC_H
#define TARGET_TESLA_EXEC_H

#include "target/tesla.h"
#include "target/tesla/insn.h"

#define TESLA_WARP_SIZE     32
#define TESLA_MAX_GPRS      128
#define TESLA_NUM_CSPACES   16
#define TESLA_NUM_GSPACES   16

/*
 * One memory space.  data != NULL: a flat host buffer of size bytes (the
 * fast path).  data == NULL and size != 0: accesses go to env->mem_read /
 * mem_write with addresses below size.  size == 0: the space is not bound.
 * Out of range g[] (and s[] l[]) accesses trap with TESLA_ERR_MEMORY_FAULT;
 * out of range c[] reads return 0 (UNVERIFIED: hardware behaviour).
 */
typedef struct TeslaMemSpace {
    uint8_t *data;          /* little-endian bytes */
    uint64_t size;
} TeslaMemSpace;

typedef struct TeslaWarp TeslaWarp;
typedef struct TeslaRun TeslaRun;
typedef struct TeslaCodeCache TeslaCodeCache;

/*
 * Per-instruction hook, called before each instruction a warp issues (with
 * @insn already decoded).  Return false to pause: tesla_run_exec() then
 * returns TESLA_RUN_PAUSED with the warp about to execute @insn, and a later
 * tesla_run_exec() call resumes there.
 */
typedef bool (*TeslaTraceFn)(void *opaque, TeslaRun *run, TeslaWarp *warp,
                             const TeslaInsn *insn);

/*
 * Texture request of one warp instruction (TOP_TEX): the embedder samples.
 * coords[c][lane] are the source registers' values (insn->src[0] vector),
 * out[c][lane] receive up to 4 result components.  Only lanes in @mask are
 * to be computed.  Without a callback, results are 0 (logged as LOG_UNIMP).
 */
typedef void (*TeslaTexFn)(void *opaque, const TeslaInsn *insn,
                           uint32_t mask, uint32_t coords[][TESLA_WARP_SIZE],
                           unsigned ncoords,
                           uint32_t out[4][TESLA_WARP_SIZE]);

typedef struct TeslaEnv {
    TeslaVariant variant;
    TeslaProgType prog;

    /* Code space: words at byte address 0. */
    const uint32_t *code;
    size_t code_words;

    TeslaMemSpace c[TESLA_NUM_CSPACES];     /* read-only */
    TeslaMemSpace g[TESLA_NUM_GSPACES];     /* linear */

    /* Non-flat spaces (data == NULL); return false for a fault. */
    bool (*mem_read)(void *opaque, TeslaSpace space, unsigned idx,
                     uint32_t addr, void *buf, unsigned size);
    bool (*mem_write)(void *opaque, TeslaSpace space, unsigned idx,
                      uint32_t addr, const void *buf, unsigned size);
    void *opaque;           /* for mem_*, tex and trace */

    TeslaTexFn tex;
    TeslaTraceFn trace;

    unsigned gprs;          /* registers per thread; $rN for N >= gprs read
                               0 and ignore writes (0..128) */
    uint32_t local_bytes;   /* l[] per thread (<= 0x10000) */
    uint32_t shared_bytes;  /* s[] per block (<= 0x10000) */

    /* Instruction budget in warp-instructions; 0 = unlimited.  Exceeding
       it ends the run with TESLA_ERR_TIMEOUT. */
    uint64_t insn_budget;
    /*
     * The embedder's request to stop (another thread may set it): read
     * between warp slices; non-zero makes tesla_run_exec() return
     * TESLA_RUN_PAUSED.  NULL: never asked.
     */
    const int *stop;

    /* $physid bits 16-23 (MP and TPC index); $clock start value. */
    uint32_t mp_index, tpc_index;

    /*
     * Optional: a decode cache kept by the embedder across runs
     * (tesla_code_cache_new), so that a program launched again is not
     * decoded again.  One run at a time may use it.  The cache follows
     * the env on its own (variant, program type, code pointer and size,
     * gprs, which c[]/g[] spaces are flat: a change starts it afresh);
     * what it cannot see is new contents at the same code pointer: call
     * tesla_code_cache_invalidate() after changing the code words.
     * NULL: the run decodes into a cache of its own.
     */
    TeslaCodeCache *decoded;
} TeslaEnv;

typedef struct TeslaLaunch {
    /* Vertex/geometry/fragment: thread count (fragment: multiple of 4). */
    unsigned threads;

    /* Per-thread input words, thread-major: in[t * in_words + i] is the
       word at byte 4 * i.  a[] for vertex/geometry, v[] for fragment (the
       value interp returns for that thread at that address).  in_stride
       not 0 (at least threads): word-major instead, in[i * in_stride +
       t] (a warp's words for one address side by side). */
    const uint32_t *in;
    unsigned in_words;
    unsigned in_stride;

    /* Geometry: p[] (one per MP, shared by all threads). */
    const uint32_t *p;
    unsigned p_words;

    /* o[] words per thread (vertex/geometry; 0 = none). */
    unsigned out_words;
    /* Geometry: emits kept per thread (0 = no limit); a thread's emits
       past it are dropped (the embedder's output vertex limit). */
    unsigned max_emits;

    /* Fragment: optional per-thread "invisible" flags (helper pixels that
       only fill a quad); NULL = all visible.  GT215 $sampleid value. */
    const bool *invisible;
    uint32_t sampleid;

    /* Compute: block size and grid size (0 counts as 1). */
    unsigned block[3];
    unsigned grid[3];
    /* Compute: user data copied to every block's s[] at shared_init_addr
       (0 counts as 0x14, after the launch header; the compute class puts
       its USER_PARAMs at 0x10, over the grid z words). */
    const uint8_t *shared_init;
    uint32_t shared_init_bytes;
    uint32_t shared_init_addr;
    /* Compute: s[0x0] of every block (16 bits: the grid id). */
    uint16_t gridid;
    /*
     * Compute: run only blocks block_first + k * block_step for k <
     * block_count (step 0 counts as 1; count 0: up to the end of the
     * grid), e.g. one MP's share of a grid.  Thread and unit numbers then
     * count the run's own blocks: the thread of tid in the run's k-th
     * block is k * block_threads + tid.  TeslaResult.block stays the
     * block's index in the grid.
     */
    unsigned block_first, block_step, block_count;

    /* The code address every thread starts at. */
    uint32_t entry;
    /* Leave l[] as the previous unit left it instead of clearing it (as
       the hardware's l[] memory does): a big l[] then costs only the
       pages a program touches. */
    bool local_uncleared;

    /* Keep every thread's $r after the run (for tesla_run_reg); without
       it tesla_run_reg returns 0. */
    bool keep_regs;
} TeslaLaunch;

/* Input word @i of thread @t of a launch's in[] (the caller checked t <
   threads and i < in_words). */
static inline uint32_t tesla_launch_in(const TeslaLaunch *l, unsigned t,
                                       unsigned i)
{
    return l->in_stride ? l->in[(size_t)i * l->in_stride + t]
                        : l->in[(size_t)t * l->in_words + i];
}

typedef enum TeslaRunStatus {
    TESLA_RUN_DONE,         /* every thread reached exit */
    TESLA_RUN_TRAP,         /* stopped on an error: see tesla_run_result */
    TESLA_RUN_PAUSED,       /* the trace hook or env.stop asked to stop */
} TeslaRunStatus;

typedef struct TeslaResult {
    TeslaRunStatus status;
    TeslaError error;       /* TESLA_ERR_NONE unless TRAP */
    uint32_t pc;            /* code address of the faulting instruction */
    unsigned warp;          /* warp index in its block (3D: in the launch) */
    unsigned block;         /* compute: linear block index */
    char msg[160];          /* human-readable detail */
    uint64_t insns;         /* warp-instructions executed */
} TeslaResult;

/* One geometry emit: the o[] snapshot of @thread. */
typedef struct TeslaEmitRec {
    unsigned thread;
    bool restart;           /* a restart preceded it (new primitive) */
    uint32_t *out;          /* out_words words */
} TeslaEmitRec;

/*
 * Create a launch.  @env and @launch are copied (the buffers they point to
 * must live as long as the run).  Returns NULL with *errp set when the
 * launch itself is malformed (zero threads, bad sizes, ...).
 */
TeslaRun *tesla_run_new(const TeslaEnv *env, const TeslaLaunch *launch,
                        char **errp);
void tesla_run_free(TeslaRun *run);
/*
 * A run to tesla_run_renew, with no launch yet (a launch of no threads),
 * and the next launch of @run (finished or not): as tesla_run_free then
 * tesla_run_new, but with @run's memory (warps, l[], result buffers, its
 * own decode cache) kept where it fits.  Returns false with *errp set if
 * the launch is malformed: @run is then a launch of no threads.
 */
TeslaRun *tesla_run_alloc(void);
bool tesla_run_renew(TeslaRun *run, const TeslaEnv *env,
                     const TeslaLaunch *launch, char **errp);

/* Run until every thread exits, a trap, or a pause. */
TeslaRunStatus tesla_run_exec(TeslaRun *run);
const TeslaResult *tesla_run_result(const TeslaRun *run);

/* Results.  Thread numbers as above; out of range (or registers and o[]
   of a unit not finished) -> 0 / false / NULL. */
unsigned tesla_run_threads(const TeslaRun *run);
uint32_t tesla_run_reg(const TeslaRun *run, unsigned thread, unsigned reg);
/* The gprs registers of @thread (keep_regs; else, or out of range: 0s). */
const uint32_t *tesla_run_regs(const TeslaRun *run, unsigned thread);
const uint32_t *tesla_run_out(const TeslaRun *run, unsigned thread);
bool tesla_run_killed(const TeslaRun *run, unsigned thread);
/*
 * The same for the (up to) 32 threads of a warp from @first: bit l or
 * the row of thread first + l.  The rows are at rows + l * *stride, or
 * one row of 0s (*stride 0) unless every one of the threads (below the
 * launch's end) has its registers kept and written (a warp of a 3D
 * launch, or of a compute block, that finished).
 */
uint32_t tesla_run_killed_warp(const TeslaRun *run, unsigned first);
const uint32_t *tesla_run_regs_warp(const TeslaRun *run, unsigned first,
                                    unsigned *stride);
/* Whether the thread ran to exit (false if it never ran, trapped, or was
   discarded). */
bool tesla_run_exited(const TeslaRun *run, unsigned thread);
/* Geometry emits in execution order. */
const TeslaEmitRec *tesla_run_emits(const TeslaRun *run, unsigned *count);
/* s[] of the last block run (compute), for inspection. */
const uint8_t *tesla_run_shared(const TeslaRun *run, uint32_t *size);

/*
 * Code cache.  Instructions are decoded lazily once per address; call
 * tesla_run_invalidate() after changing the code words.  tesla_run_set_insn
 * puts an already decoded instruction at insn->addr (tests, tools).
 */
void tesla_run_invalidate(TeslaRun *run);
void tesla_run_set_insn(TeslaRun *run, const TeslaInsn *insn);

/*
 * A decode cache that outlives runs (TeslaEnv.decoded).  Not thread-safe:
 * give each thread that runs programs its own.  tesla_run_invalidate and
 * tesla_run_set_insn on a run that uses one change the cache.
 */
TeslaCodeCache *tesla_code_cache_new(void);
void tesla_code_cache_free(TeslaCodeCache *cc);
void tesla_code_cache_invalidate(TeslaCodeCache *cc);
/* Instructions decoded into @cc since it was made (for tests). */
uint64_t tesla_code_cache_decodes(const TeslaCodeCache *cc);

/*
 * Warp inspection, for the trace hook and debuggers.  Lanes 0..31; values
 * are the current state (before the instruction the hook is given).
 */
uint32_t tesla_warp_pc(const TeslaWarp *w);
uint32_t tesla_warp_active(const TeslaWarp *w);     /* active lane mask */
unsigned tesla_warp_index(const TeslaWarp *w);
unsigned tesla_warp_first_thread(const TeslaWarp *w); /* thread of lane 0 */
uint32_t tesla_warp_reg(const TeslaWarp *w, unsigned lane, unsigned reg);
uint32_t tesla_warp_areg(const TeslaWarp *w, unsigned lane, unsigned idx);
uint32_t tesla_warp_flags(const TeslaWarp *w, unsigned lane, unsigned c);
unsigned tesla_warp_stack_depth(const TeslaWarp *w);

#endif
