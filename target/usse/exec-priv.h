/*
 * USSE interpreter internals shared by exec*.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_EXEC_PRIV_H
#define TARGET_USSE_EXEC_PRIV_H

#include <math.h>
#include "gemu/bitops.h"
#include "target/usse/exec.h"

/* One instance: all per-instance state, so that a quad can be snapshot. */
typedef struct UsseInst {
    uint32_t r[USSE_MAX_REGS];
    uint32_t pa[USSE_MAX_REGS];
    uint32_t o[USSE_MAX_REGS];
    uint32_t fpi[USSE_NUM_FPI * 4];
    uint32_t idx[2];
    uint8_t p[USSE_NUM_PREDS];
    uint32_t pc, link;
    bool done, killed, helper, has_depth;
    float depth;
    /* MOE state (SMLSI/SMBO), per operand slot */
    int16_t inc[USSE_NOPND];
    uint8_t incswz[USSE_NOPND];
    int16_t boff[USSE_NOPND];
} UsseInst;

struct UsseProgram {
    size_t n;
    UsseInsn *insn;
    bool *ok;               /* decoded */
    bool derivatives;       /* some instruction reads its quad (DSX/DSY) */
};

struct UsseRun {
    UsseEnv env;
    UsseLaunch launch;
    const UsseProgram *prog;
    unsigned n;
    UsseInst *inst;
    unsigned next_group;
    UsseResult res;
};

/* An operand resolved for one repeat iteration. */
typedef struct UsseRef {
    uint8_t bank;
    uint8_t mods;
    int num;                /* words (unified), register (FPI), value */
    const uint8_t *swz;
} UsseRef;

/* What an executor works on. */
typedef struct UsseCtx {
    UsseRun *run;
    UsseInst *in;
    const UsseInsn *insn;
    unsigned lane;          /* index in the quad */
    UsseInst *snap;         /* the quad before this instruction, or NULL */
    uint32_t next_pc;
    bool trapped;
} UsseCtx;

bool usse_trap(UsseCtx *c, UsseError e, const char *fmt, ...)
    GEMU_PRINTF(3, 4);

/* A trap raised while reading a quad neighbour: charge it to c->in. */
void usse_trap_fixup(UsseCtx *c);

/* The operand @slot for repeat iteration @iter (MOE applied). */
UsseRef usse_ref(UsseCtx *c, unsigned slot, unsigned iter);

/* A decoded operand without MOE (VDUAL's operands). */
UsseRef usse_ref_opnd(UsseCtx *c, const UsseOperand *o);

/* 32-bit word k of an operand (unified view; FPI: flat i-register word). */
bool usse_rdw(UsseCtx *c, const UsseRef *r, int k, uint32_t *v);
bool usse_wrw(UsseCtx *c, const UsseRef *r, int k, uint32_t v);

/* Element @ch (swizzle code: 4..7 are 0, 1, 2, 0.5) of format @fmt. */
bool usse_vget(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               float *v);
bool usse_vput(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               float v);
/* Raw element (U8/S8/O8 bytes, U16/S16/F16 halves, words, C10 fields). */
bool usse_eget(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               uint32_t *raw);
bool usse_eput(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               uint32_t raw);

/* Conversions between a format's raw element and its value. */
double usse_fmt_value(unsigned fmt, uint32_t raw, bool scale);
uint32_t usse_fmt_raw(unsigned fmt, double v, bool scale);
bool usse_fmt_is_float(unsigned fmt);

/* Source modifiers. */
static inline float usse_mod(float v, unsigned mods)
{
    if (mods & USSE_MOD_ABS) {
        v = fabsf(v);
    }
    if (mods & USSE_MOD_NEG) {
        v = -v;
    }
    return v;
}

static inline float usse_f(uint32_t w)
{
    return bits_to_f32(w);
}

static inline uint32_t usse_u(float f)
{
    return f32_to_bits(f);
}

/* Channel mask the predicate allows (0 = skip; per-channel: p0..p3). */
unsigned usse_pred_mask(const UsseInst *in, unsigned pred);

/* VMAD2's write mask @mask as the halves/words it writes (exec-vec.c). */
unsigned usse_vmad2_mask(unsigned fmt, unsigned bank, unsigned mask);
/* The channels of @mask a VPCK from format @sfmt converts (exec-vec.c). */
unsigned usse_vpck_mask(unsigned sfmt, unsigned mask);

/* The executors: true = go on, false = trapped. */
bool usse_exec_vector(UsseCtx *c);      /* op1 0..8 */
bool usse_exec_int(UsseCtx *c);         /* VTST, bitwise, SOP, IMA */
bool usse_exec_smp(UsseCtx *c);         /* exec-special.c: SMP */
bool usse_exec_ldst(UsseCtx *c, bool store);    /* LD, ST */
bool usse_exec_special(UsseCtx *c);     /* the SPECIAL group */

#endif
