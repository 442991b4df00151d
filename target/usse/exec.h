/*
 * USSE (SGX543) interpreter: run one program over a batch of instances.
 *
 * The embedder (tools/gemu-shader, later hw/sgx543/) decodes a program
 * once (usse_program_new), describes the shared state in a UsseEnv and
 * the batch in a UsseLaunch, then:
 *
 *     UsseRun *run = usse_run_new(&env, prog, &launch, &err);
 *     UsseRunStatus st = usse_run_exec(run);
 *     ... usse_run_result(), usse_run_reg(), usse_run_killed(), ...
 *     usse_run_free(run);
 *
 * Instances are vertices or fragments.  Fragment instances come in 2x2
 * quads: instances 4q..4q+3 are upper-left, upper-right, lower-left,
 * lower-right; a quad runs in lock-step (DSX/DSY read the neighbours),
 * and helper instances (UsseLaunch.helper) run too but skip instructions
 * with the skipinv bit.  Vertices run one after another.
 *
 * A .gxp's secondary program runs once, before the primary program, as a
 * launch with .secondary set: one instance whose r/o/pa/sa operands all
 * address the shared SA bank (sgx543.md section 1.7 rule 4).
 *
 * Register banks per instance: r (temps), pa, o, i0..i3 (FP-internal,
 * 4 x 32 bits each), index registers, predicates p0..p3.  SA is shared
 * by the whole launch (UsseEnv.sa).  The special bank reads the constant
 * ROM (numbers < 0x40) or global data (reads 0, logged as unimplemented).
 *
 * target/ knows nothing of hw/: texture sampling and memory go through
 * callbacks of the embedder.  Semantics not verified on hardware are
 * marked UNVERIFIED in exec*.c and listed in docs/devel/usse-isa.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_EXEC_H
#define TARGET_USSE_EXEC_H

#include "target/usse.h"

#define USSE_MAX_REGS       128     /* r, pa, o, sa: 7-bit numbers */
#define USSE_NUM_FPI        4       /* i0..i3, 4 x 32 bits each */
#define USSE_NUM_PREDS      4
#define USSE_QUAD           4

/* A decoded program (immutable; one may serve many runs). */
typedef struct UsseProgram UsseProgram;

/*
 * Decode @n words (host order).  Words that do not decode are kept and
 * trap with USSE_ERR_ILLEGAL only if executed.
 */
UsseProgram *usse_program_new(const uint64_t *code, size_t n);
void usse_program_free(UsseProgram *prog);
size_t usse_program_len(const UsseProgram *prog);
const UsseInsn *usse_program_insn(const UsseProgram *prog, uint32_t pc);

/*
 * Texture sample request of one instance (SMP).  coord[] holds src0's
 * components as floats (dim of them), lod[] src2's (bias or LOD in [0];
 * gradients: d/dx in [0..2], d/dy in [3..5]), state[] the 4 texture
 * control words (src1's 4 registers).  For fragments, dx[]/dy[] are the
 * coordinate differences across the quad (what an automatic LOD needs);
 * for vertices they are 0.
 */
typedef struct UsseSample {
    unsigned instance;
    unsigned dim;           /* 1, 2, 3 */
    unsigned lod_mode;      /* 0 none, 1 bias, 2 replace, 3 gradients */
    unsigned sb_mode;       /* 0 normal, 1 gather4, 2 info, 3 gather4 uv */
    float coord[4];
    float lod[6];
    float dx[4], dy[4];
    uint32_t state[4];
} UsseSample;

/* Fill out[0..3] (r g b a as floats in the texture's range). */
typedef void (*UsseSampleFn)(void *opaque, const UsseSample *req,
                             float out[4]);

/* LD/ST: @size bytes at device address @addr; false = fault. */
typedef bool (*UsseMemFn)(void *opaque, bool write, uint32_t addr,
                          void *buf, unsigned size);

/* LDR: read global (device) register @reg; false = fault. */
typedef bool (*UsseCtrlRegFn)(void *opaque, uint32_t reg, uint32_t *val);

/* Per-instruction hook (called before each instance-group issue). */
typedef struct UsseRun UsseRun;
typedef bool (*UsseTraceFn)(void *opaque, UsseRun *run, unsigned instance,
                            uint32_t pc, const UsseInsn *insn);

typedef enum UsseStage {
    USSE_STAGE_VERTEX,
    USSE_STAGE_FRAGMENT,
} UsseStage;

typedef struct UsseEnv {
    UsseStage stage;
    uint32_t *sa;           /* shared SA bank, sa_count words (writable:
                               the secondary program fills it) */
    unsigned sa_count;      /* <= USSE_MAX_REGS; sa[n >= count] traps */

    UsseSampleFn sample;    /* NULL: SMP returns 0 (logged once) */
    UsseMemFn mem;          /* NULL: LD reads 0, ST is dropped (logged) */
    UsseTraceFn trace;
    void *opaque;

    /* Instance-instructions before a TIMEOUT trap; 0 = no limit. */
    uint64_t insn_budget;

    UsseCtrlRegFn ctrl_reg; /* NULL: LDR reads 0 (logged) */
} UsseEnv;

typedef struct UsseLaunch {
    unsigned instances;     /* fragments: a multiple of 4 */
    bool secondary;         /* run as the secondary program (1 instance) */

    /* Initial PA, instance-major: pa[i * pa_words + n] is pa[n] of
       instance i (the rest start at 0).  NULL: all 0. */
    const uint32_t *pa;
    unsigned pa_words;

    /* Fragment helper instances (fill a quad, results unused); NULL: none */
    const bool *helper;
} UsseLaunch;

typedef enum UsseRunStatus {
    USSE_RUN_DONE,          /* every instance reached the end */
    USSE_RUN_TRAP,          /* see usse_run_result */
    USSE_RUN_PAUSED,        /* the trace hook asked to stop */
} UsseRunStatus;

typedef enum UsseError {
    USSE_ERR_NONE = 0,
    USSE_ERR_ILLEGAL,       /* the word does not decode (or is reserved) */
    USSE_ERR_UNSUPPORTED,   /* decodes, but gemu does not model it */
    USSE_ERR_REGISTER,      /* register out of range / read-only bank */
    USSE_ERR_MEMORY,        /* LD/ST fault */
    USSE_ERR_TIMEOUT,       /* insn_budget exhausted */
} UsseError;

const char *usse_error_name(UsseError e);   /* "ILLEGAL_INSN", ... */

typedef struct UsseResult {
    UsseRunStatus status;
    UsseError error;
    uint32_t pc;            /* instruction address of the trap */
    unsigned instance;
    char msg[160];
    uint64_t insns;         /* instance-instructions executed */
} UsseResult;

/*
 * Create a run.  @env and @launch are copied; the buffers they point to
 * (and @prog) must outlive the run.  NULL with *errp set when the launch
 * is malformed.
 */
UsseRun *usse_run_new(const UsseEnv *env, const UsseProgram *prog,
                      const UsseLaunch *launch, char **errp);
void usse_run_free(UsseRun *run);
UsseRunStatus usse_run_exec(UsseRun *run);
const UsseResult *usse_run_result(const UsseRun *run);

/* Results; out of range -> 0 / false. */
unsigned usse_run_instances(const UsseRun *run);
/* bank: USSE_BANK_TEMP, _PA, _OUTPUT, _SA (shared), _FPI (num = 4 * i +
   channel), _INDEX. */
uint32_t usse_run_reg(const UsseRun *run, unsigned inst, UsseBank bank,
                      unsigned num);
bool usse_run_pred(const UsseRun *run, unsigned inst, unsigned p);
bool usse_run_killed(const UsseRun *run, unsigned inst);
/* DEPTHF: the depth the instance wrote, if it did. */
bool usse_run_depth(const UsseRun *run, unsigned inst, float *depth);

/* The constant ROM (special bank, number < 0x40): table 0/1 entry n. */
bool usse_const_rom(unsigned n, unsigned table, uint32_t *value);

#endif
