/*
 * Tesla warp interpreter: internal state shared by warp*.c, exec-*.c and
 * run.c.  Not for embedders (they use exec.h).
 *
 * Per-lane state is stored lane-contiguous (r[reg][lane]) so that every
 * operation is a 32-lane loop the compiler can vectorise.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_WARP_H
#define TARGET_TESLA_WARP_H

#include "target/tesla/exec.h"

#define WARP_FULL       0xffffffffu
#define WARP_ZERO_ROW   TESLA_MAX_GPRS
#define WARP_SINK_ROW   (TESLA_MAX_GPRS + 1)
#define TESLA_STACK_MAX 512
#define TESLA_NUM_BARRIERS 16

/* $c flag bits */
enum { TFL_Z = 1, TFL_S = 2, TFL_C = 4, TFL_O = 8 };

/* "true"/"false" as vote and ld lock write them to $c (UNVERIFIED). */
#define TFL_TRUE  TFL_S
#define TFL_FALSE TFL_Z

/* Control stack entry types (isa.rst "Other execution state"). */
typedef enum TeslaStackType {
    TSTK_BRANCH = 1,
    TSTK_CALL = 2,
    TSTK_CALL_LIM = 3,
    TSTK_PREBRK = 4,
    TSTK_QUADON = 5,
    TSTK_JOINAT = 6,
    TSTK_PRERET = 7,    /* not in the hardware list; acts like a call */
} TeslaStackType;

typedef struct TeslaStackEntry {
    uint32_t pc;
    uint32_t mask;
    uint32_t type;
    /* joinat: threads that already executed the join instruction, and
       the address after it */
    uint32_t arrived;
    uint32_t after;
} TeslaStackEntry;

/* Why tesla_warp_run() returned. */
typedef enum TeslaWarpStop {
    TWS_DONE,           /* every thread exited */
    TWS_SLICE,          /* ran its slice; still runnable */
    TWS_BARRIER,        /* waiting at a barrier */
    TWS_TRAP,           /* error: run->result filled */
    TWS_PAUSE,          /* trace hook asked to stop */
} TeslaWarpStop;

struct TeslaWarp {
    /* Hot state first. */
    /* $r0..$r127, then the row $rN >= gprs reads (always 0) and the row
       writes to them go to. */
    uint32_t r[TESLA_MAX_GPRS + 2][TESLA_WARP_SIZE];
    uint16_t a[8][TESLA_WARP_SIZE];     /* $a0..$a7; a[0], a[5], a[6] = 0 */
    uint8_t c[4][TESLA_WARP_SIZE];      /* $c0..$c3 */

    uint32_t pc;
    uint32_t insn_pc;       /* address of the last instruction issued */
    uint32_t mask;          /* threads running the current path */
    uint32_t valid;         /* threads that exist */
    uint32_t exited;        /* thread state 3 (exit; discard too) */
    uint32_t brk;           /* thread state 1 */
    uint32_t ret;           /* thread state 2 */
    uint32_t killed;        /* discarded (fragment) */
    uint32_t invisible;     /* helper pixels (fragment) */
    unsigned gprs;

    bool done;
    bool waiting;           /* at a barrier */
    uint8_t wait_bar;
    uint32_t wait_gen;      /* bar_gen[wait_bar] when it started waiting */
    unsigned quadon;        /* QUADON entries on the stack */

    unsigned nstack;
    TeslaStackEntry stack[TESLA_STACK_MAX];

    unsigned index;         /* warp index in its block (3D: in the launch) */
    unsigned first_thread;  /* run-wide thread number of lane 0 */
    unsigned block;         /* compute: linear block index */

    uint8_t *local;         /* l[]: lane l at local + l * local_bytes */
    uint32_t *out;          /* o[]: lane l at out + l * out_words */
    bool restart_pending[TESLA_WARP_SIZE];

    TeslaRun *run;
};

/*
 * The fast path: common instructions in a compact pre-resolved form, made
 * once per code address next to the decoded TeslaInsn (warp-classify.c),
 * run by the fast loop (warp-fast.c, warp-fast.h).  Register operands are
 * row indices already clamped to the GPR count.
 */
enum {
    TFK_NONE = 0,
    TFK_MOV,
    TFK_ADD, TFK_SUB, TFK_SUBR,
    TFK_ADD_CC, TFK_SUB_CC,
    TFK_AND, TFK_OR, TFK_XOR, TFK_MOV2,
    TFK_SHL, TFK_SHR, TFK_SAR,
    TFK_MUL24, TFK_MAD24,
    TFK_FADD, TFK_FMUL, TFK_FMAD,
    TFK_NOP, TFK_BRA, TFK_JOINAT,
    TFK_LD_G, TFK_ST_G,     /* b32 g[$r + off], flat g[] */
    TFK_LD_SL, TFK_ST_SL,   /* b32 s[] / l[] at $a + off (no post-incr.) */
    TFK_LD_C,               /* b32 c[off], flat c[] */
    TFK_INTERP,             /* interp v[off] (the launch's input words) */
    TFK_INTERP_MUL,         /* interp v[off] $b: times a register */
    TFK_RCP,                /* the SFU's rcp of a register */
    TFK_LD_A,               /* ld b32 a[off] (the launch's input words) */
    TFK_MOV_O,              /* mov b32 o[off] of a register or immediate,
                               st b32 o[off] of a register (space O) */
};

typedef struct TeslaFastInsn {
    uint8_t kind;           /* TFK_*; TFK_NONE: the general path */
    uint8_t len;
    uint8_t pred, pred_c;
    uint8_t post;
    uint8_t d, a, b, c;     /* rows */
    uint8_t bimm;           /* b is the immediate vector */
    uint8_t cdst;           /* $c written (TFK_*_CC) */
    uint8_t fmods;          /* f32: some source has abs/neg */
    uint8_t space;          /* memory: TSPACE_S or TSPACE_L */
    uint8_t areg;           /* memory: $a index of s[] l[] */
    uint8_t sidx;           /* memory: c/g space index */
    uint8_t bconst;         /* ALU: b is the word c[sidx][off], flat */
    /* per-kind parameters: f32 source and/xor masks (abs/neg), logop
       not masks (am/bm), shift count (am) */
    uint32_t am, ax, bm, bx, cm, cx;
    uint32_t off;           /* memory: byte offset */
    uint32_t target;        /* bra/joinat: code address */
    uint32_t imm[TESLA_WARP_SIZE] __attribute__((aligned(16)));
} TeslaFastInsn;

typedef struct TeslaLockEntry {
    uint32_t addr;
    unsigned warp, lane;
} TeslaLockEntry;

/*
 * A decode cache, one entry per code word, and what its entries depend
 * on besides the code words (tesla_fast_classify reads gprs and whether
 * c[]/g[] spaces are flat).
 */
struct TeslaCodeCache {
    TeslaInsn *icache;
    uint8_t *ivalid;
    TeslaFastInsn *fcache;  /* 64-byte aligned, inside fcache_mem */
    void *fcache_mem;
    size_t words;           /* entries allocated */
    /* the env it was filled for */
    TeslaVariant variant;
    TeslaProgType prog;
    const uint32_t *code;
    size_t code_words;
    unsigned gprs;
    uint32_t flat_c, flat_g;
    uint64_t decodes;
};

struct TeslaRun {
    TeslaEnv env;
    TeslaLaunch launch;
    uint32_t features;

    /* Decode cache: env.decoded's or own_cc; the arrays are its. */
    TeslaCodeCache *cc;
    TeslaInsn *icache;
    uint8_t *ivalid;
    TeslaFastInsn *fcache;

    /* Launch geometry. */
    bool compute;
    unsigned threads;       /* total threads of the launch */
    unsigned block_threads; /* compute: threads per block */
    unsigned nblocks;
    unsigned warps_per_unit;/* warps run together (a block, or 1) */
    unsigned nunits;        /* blocks, or 3D warps */
    unsigned block_step;    /* compute: grid blocks between two units */

    /* The unit being run. */
    unsigned unit;
    bool unit_live;
    unsigned sched_next;
    uint8_t *shared;        /* s[] of the block (NULL: none) */
    uint32_t bar_count[TESLA_NUM_BARRIERS];
    uint32_t bar_gen[TESLA_NUM_BARRIERS];   /* completions so far */

    /* Results, per thread (NULL: not kept). */
    uint32_t *regs;         /* threads * gprs when keep_regs */
    uint32_t *outs;         /* threads * out_words */
    uint8_t *tstate;        /* TTS_* bits */
    uint32_t *emitted;      /* per thread, when launch.max_emits */
    unsigned threads_out;   /* threads whose regs and outs are written */

    uint64_t insns;
    uint64_t clock;
    bool skip_trace;        /* resuming after a pause: hook already ran */
    TeslaResult result;
    bool finished;

    /*
     * Memory kept across launches (tesla_run_renew), from here on: the
     * fields above are zeroed for each launch, the buffers below are
     * handed out again where they are big enough.
     */
    TeslaCodeCache own_cc;
    TeslaWarp **warps;      /* warps_alloc; a unit runs warps_per_unit */
    unsigned warps_alloc;
    uint32_t warps_local;   /* l[] bytes a lane their local was made for */
    uint32_t warps_out;     /* o[] words a lane their out was made for */
    GArray *locks;          /* TeslaLockEntry: s[] words locked (G200) */
    GArray *emits;          /* TeslaEmitRec */
    /* buffers of *_cap elements, for the pointers above */
    void *shared_mem, *regs_mem, *outs_mem, *emitted_mem, *tstate_mem;
    size_t shared_cap, regs_cap, outs_cap, emitted_cap, tstate_cap;
};

/* tstate bits */
enum { TTS_RAN = 1, TTS_EXITED = 2, TTS_KILLED = 4 };

/* --- register access ---------------------------------------------------- */

static inline const uint32_t *warp_rrow(const TeslaWarp *w, unsigned n)
{
    return n < w->gprs ? w->r[n] : w->r[WARP_ZERO_ROW];
}

static inline uint32_t *warp_wrow(TeslaWarp *w, unsigned n)
{
    return n < w->gprs ? w->r[n] : w->r[WARP_SINK_ROW];
}

/* Expand a lane mask into 32 all-ones/all-zero words. */
static inline void warp_lanemask(uint32_t m, uint32_t *lm)
{
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        lm[l] = -((m >> l) & 1u);
    }
}

/* dst[l] = res[l] for lanes in m. */
static inline void warp_blend(uint32_t *dst, const uint32_t *res, uint32_t m)
{
    if (m == WARP_FULL) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            dst[l] = res[l];
        }
    } else {
        uint32_t lm[TESLA_WARP_SIZE];

        warp_lanemask(m, lm);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            dst[l] = (dst[l] & ~lm[l]) | (res[l] & lm[l]);
        }
    }
}

static inline void warp_blend8(uint8_t *dst, const uint8_t *res, uint32_t m)
{
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            dst[l] = res[l];
        }
    }
}

/* Flags of a result: Z and S only. */
static inline uint8_t flags_zs32(uint32_t v)
{
    return (v == 0 ? TFL_Z : 0) | ((v >> 31) ? TFL_S : 0);
}

static inline uint8_t flags_zs16(uint32_t v)
{
    return ((v & 0xffff) == 0 ? TFL_Z : 0) | ((v >> 15) & 1 ? TFL_S : 0);
}

/* --- shared helpers (warp.c, warp-operand.c, warp-pred.c) -------------- */

/* Stop the warp with an error (fills run->result).  Returns false. */
bool tesla_warp_trap(TeslaWarp *w, TeslaError e, const char *fmt, ...)
    GEMU_PRINTF(3, 4);

/* Fetch a 32-bit-or-smaller source operand for lanes m; returns a 32-lane
   array (a register row or @buf).  NULL after a trap. */
const uint32_t *tesla_fetch(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                            uint32_t *buf);
/* Write a result to insn->dst for lanes m.  False after a trap. */
bool tesla_store_dst(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                     uint32_t m);
/* Write flags to insn->cdst (if any) for lanes m. */
void tesla_store_flags(TeslaWarp *w, const TeslaInsn *insn,
                       const uint8_t *fl, uint32_t m);
/* Apply $a post-increments of insn's memory operands for lanes m. */
void tesla_postinc(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);
/* The end of most instructions: post-increment, flags (if @fl), result. */
bool tesla_finish(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                  const uint8_t *fl, uint32_t m);
/* tesla_finish for an f32 result: sat (if @sat_ok and asked), f32 flags. */
bool tesla_finish_f32(TeslaWarp *w, const TeslaInsn *insn, uint32_t *res,
                      uint32_t m, bool sat_ok);
/* Per-lane evaluation of a predicate function on $c[c]. */
uint32_t tesla_pred_mask(const TeslaWarp *w, unsigned pred, unsigned c);
/* Fill the predicates' table (warp-pred.h tesla_pred_bytes). */
void tesla_pred_init(void);

/* --- memory (exec-mem.c) ------------------------------------------------ */

uint32_t tesla_mem_addr(const TeslaWarp *w, const TeslaOperand *o,
                        unsigned lane);
/* Read @size bytes (1, 2, 4, 8, 16) of a space for one lane. */
bool tesla_mem_read(TeslaWarp *w, unsigned space, unsigned idx,
                    uint32_t addr, unsigned size, unsigned lane, void *buf);
bool tesla_mem_write(TeslaWarp *w, unsigned space, unsigned idx,
                     uint32_t addr, unsigned size, unsigned lane,
                     const void *buf);
/* Read a memory operand of up to 32 bits, extended per its mtype. */
bool tesla_fetch_mem(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                     uint32_t *buf);
unsigned tesla_type_size(unsigned t);

/* --- instruction groups: return false after a trap ---------------------- */

bool tesla_exec_int(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);
bool tesla_exec_data(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);
bool tesla_exec_mem(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);
bool tesla_exec_float(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);
bool tesla_exec_misc(TeslaWarp *w, const TeslaInsn *insn, uint32_t m);

/* Control flow (exec-ctrl.c).  These set w->pc themselves. */
typedef enum TeslaCtrlResult {
    TCR_NEXT,           /* continue at pc + len */
    TCR_JUMPED,         /* pc already set */
    TCR_TRAP,
    TCR_BARRIER,        /* wait at a barrier (pc already advanced) */
} TeslaCtrlResult;

TeslaCtrlResult tesla_exec_ctrl(TeslaWarp *w, const TeslaInsn *insn,
                                uint32_t m);
/* Apply exit (all of w->mask) / join after the instruction. */
TeslaCtrlResult tesla_exec_post(TeslaWarp *w, const TeslaInsn *insn);
/* The current path has no thread left: resume another from the stack.
   Returns false after a trap; sets w->done when nothing is left. */
bool tesla_warp_path_end(TeslaWarp *w);

/* --- run.c helpers used by the interpreter ------------------------------ */

void tesla_run_barrier_arrive(TeslaRun *run, TeslaWarp *w,
                              const TeslaInsn *insn);
bool tesla_run_barrier_passed(TeslaRun *run, TeslaWarp *w);
TeslaWarpStop tesla_warp_run(TeslaWarp *w, uint64_t slice);
void tesla_warp_init_tables(void);

/* --- the fast path (warp-classify.c, warp-fast.c) ----------------------- */

/* Make run->fcache[idx] from run->icache[idx]. */
void tesla_fast_classify(TeslaRun *run, size_t idx);
/*
 * Run fast-path instructions from w->pc while there are any, counting
 * from @n up to @limit; returns the new count.  Sets *trap when an exit or
 * join trapped (run->result filled).
 */
typedef uint64_t TeslaFastRunFn(TeslaWarp *w, uint64_t n, uint64_t limit,
                                bool *trap);
/* The host's build of the fast loop, chosen by tesla_fast_init. */
extern TeslaFastRunFn *tesla_fast_run;
void tesla_fast_init(void);
/*
 * The fast loop's rcp of a warp's 32 lanes @x, in the portable build or
 * (@avx2) the AVX2 one; false if this host or compiler has no such build.
 * For tests against tesla_sfu_rcp.
 */
bool tesla_fast_rcp_lanes(bool avx2, const uint32_t *x, uint32_t *res);

#endif
