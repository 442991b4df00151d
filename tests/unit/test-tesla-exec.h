/*
 * Helpers for the warp interpreter tests: build programs from TeslaInsn
 * structs (or raw words), run them, read results.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_UNIT_TEST_TESLA_EXEC_H
#define TESTS_UNIT_TEST_TESLA_EXEC_H

#include "gemu/osdep.h"
#include "target/tesla/exec.h"
#include <check.h>

#define TP_MAX_INSNS 128

typedef struct TProg {
    TeslaEnv env;
    TeslaLaunch launch;
    TeslaInsn insn[TP_MAX_INSNS];
    unsigned n;
    uint32_t code[TP_MAX_INSNS * 2];
    unsigned nwords;        /* raw words (tp_word) */
    TeslaRun *run;
} TProg;

static inline void tp_init(TProg *p, TeslaVariant v, TeslaProgType prog)
{
    memset(p, 0, sizeof(*p));
    p->env.variant = v;
    p->env.prog = prog;
    p->env.gprs = 32;
    p->env.code = p->code;
    p->launch.keep_regs = true;
    p->launch.threads = 32;
}

/* Operands */
static inline TeslaOperand R(unsigned n)
{
    return (TeslaOperand){ .kind = TOPND_REG, .reg = n };
}

static inline TeslaOperand D(unsigned n)
{
    return (TeslaOperand){ .kind = TOPND_DREG, .reg = n };
}

static inline TeslaOperand Q(unsigned n)
{
    return (TeslaOperand){ .kind = TOPND_QREG, .reg = n };
}

static inline TeslaOperand H(unsigned n, unsigned half)
{
    return (TeslaOperand){ .kind = TOPND_HREG, .reg = n, .half = half };
}

static inline TeslaOperand IMM(uint32_t v)
{
    return (TeslaOperand){ .kind = TOPND_IMM, .imm = v };
}

static inline TeslaOperand TGT(unsigned insn_index)
{
    return (TeslaOperand){ .kind = TOPND_TARGET, .imm = insn_index * 8 };
}

static inline TeslaOperand MEM(unsigned space, unsigned idx, unsigned type,
                               unsigned areg, uint32_t off)
{
    return (TeslaOperand){ .kind = TOPND_MEM, .space = space,
                           .space_idx = idx, .mtype = type, .areg = areg,
                           .imm = off };
}

static inline TeslaOperand GMEM(unsigned idx, unsigned type, unsigned reg)
{
    return (TeslaOperand){ .kind = TOPND_MEM, .space = TSPACE_G,
                           .space_idx = idx, .mtype = type, .reg = reg };
}

static inline TeslaOperand AREG(unsigned n)
{
    return (TeslaOperand){ .kind = TOPND_AREG, .areg = n };
}

static inline TeslaOperand SREG(unsigned n)
{
    return (TeslaOperand){ .kind = TOPND_SREG, .reg = n };
}

/*
 * Append an instruction (8 bytes each, so instruction i is at 8 * i).
 * Defaults: always executed, no $c output, 32-bit.
 */
static inline TeslaInsn *tp_add(TProg *p, unsigned op, TeslaOperand dst,
                                unsigned nsrc, const TeslaOperand *src)
{
    TeslaInsn *i = &p->insn[p->n];

    ck_assert_uint_lt(p->n, TP_MAX_INSNS);
    memset(i, 0, sizeof(*i));
    i->addr = p->n * 8;
    i->len = 8;
    i->op = op;
    i->error = TESLA_ERR_NONE;
    i->pred = TPRED_ALWAYS;
    i->cdst = -1;
    i->mods = TMOD_B32;
    i->lanemask = 0xf;
    i->dst = dst;
    i->nsrc = nsrc;
    for (unsigned k = 0; k < nsrc; k++) {
        i->src[k] = src[k];
    }
    p->n++;
    return i;
}

#define TP(p, op, dst, ...) \
    tp_add((p), (op), (dst), \
           sizeof((TeslaOperand[]){ __VA_ARGS__ }) / sizeof(TeslaOperand), \
           (TeslaOperand[]){ __VA_ARGS__ })
#define TP0(p, op) tp_add((p), (op), (TeslaOperand){ 0 }, 0, NULL)

static inline TeslaInsn *tp_exit(TProg *p)
{
    TeslaInsn *i = TP0(p, TOP_NOP);

    i->post = TPOST_EXIT;
    return i;
}

/* Run the built program; returns the status. */
static inline TeslaRunStatus tp_run(TProg *p)
{
    char *err = NULL;
    TeslaRunStatus st;

    if (p->nwords) {
        p->env.code_words = p->nwords;
    } else {
        p->env.code_words = p->n * 2;
    }
    p->run = tesla_run_new(&p->env, &p->launch, &err);
    if (!p->run) {
        ck_abort_msg("tesla_run_new: %s", err);
    }
    for (unsigned k = 0; k < p->n && !p->nwords; k++) {
        tesla_run_set_insn(p->run, &p->insn[k]);
    }
    st = tesla_run_exec(p->run);
    return st;
}

static inline void tp_run_ok(TProg *p)
{
    TeslaRunStatus st = tp_run(p);

    if (st != TESLA_RUN_DONE) {
        const TeslaResult *r = tesla_run_result(p->run);

        ck_abort_msg("run failed: %s at 0x%x: %s",
                     tesla_error_name(r->error), r->pc, r->msg);
    }
}

static inline uint32_t tp_reg(TProg *p, unsigned t, unsigned r)
{
    return tesla_run_reg(p->run, t, r);
}

static inline void tp_done(TProg *p)
{
    tesla_run_free(p->run);
    p->run = NULL;
}

/* Raw instruction words (decode and execute together). */
static inline void tp_word(TProg *p, uint32_t w)
{
    p->code[p->nwords++] = w;
}

#endif
