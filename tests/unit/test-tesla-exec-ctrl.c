/*
 * Warp interpreter: control flow (divergence and reconvergence, loops,
 * calls, exit), barriers across warps, traps and the instruction budget.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "test-tesla-exec.h"

#define NONE ((TeslaOperand){ 0 })
#define DISC ((TeslaOperand){ .kind = TOPND_DISCARD })

enum { P_E = 0x02, P_LG = 0x05, P_L = 0x01 };

/* $c0 = flags of ($r0 & mask): e <=> bits clear */
static void test_bits(TProg *p, uint32_t mask)
{
    TeslaInsn *i = TP(p, TOP_LOGOP, DISC, R(0), IMM(mask));

    i->logop = TLOGOP_AND;
    i->cdst = 0;
}

static TeslaInsn *pred(TeslaInsn *i, unsigned p)
{
    i->pred = p;
    i->pred_c = 0;
    return i;
}

static void cp_init(TProg *p, unsigned threads)
{
    tp_init(p, TESLA_G84, TESLA_PROG_CP);
    p->launch.block[0] = threads;
}

START_TEST(if_else_join)
{
    TProg p;

    cp_init(&p, 64);
    TP(&p, TOP_JOINAT, NONE, TGT(14));                  /* 0 */
    test_bits(&p, 1);                                   /* 1 */
    pred(TP(&p, TOP_BRA, NONE, TGT(5)), P_E);           /* 2: even -> 5 */
    TP(&p, TOP_MOV, R(1), IMM(1));                      /* 3: odd */
    TP(&p, TOP_BRA, NONE, TGT(14));                     /* 4 */
    /* even: nested if on bit 1 */
    TP(&p, TOP_JOINAT, NONE, TGT(12));                  /* 5 */
    test_bits(&p, 2);                                   /* 6 */
    pred(TP(&p, TOP_BRA, NONE, TGT(10)), P_LG);         /* 7: bit1 -> 10 */
    TP(&p, TOP_MOV, R(1), IMM(2));                      /* 8 */
    TP(&p, TOP_BRA, NONE, TGT(12));                     /* 9 */
    TP(&p, TOP_MOV, R(1), IMM(3));                      /* 10 */
    TP0(&p, TOP_NOP);                                   /* 11 */
    TP0(&p, TOP_NOP)->post = TPOST_JOIN;                /* 12: inner join */
    TP(&p, TOP_IADD, R(3), R(1), IMM(100));             /* 13: even only */
    TP0(&p, TOP_NOP)->post = TPOST_JOIN;                /* 14: outer join */
    TP(&p, TOP_IADD, R(2), R(1), IMM(10));              /* 15: everyone */
    tp_exit(&p);                                        /* 16 */
    tp_run_ok(&p);
    for (unsigned t = 0; t < 64; t++) {
        uint32_t want = (t & 1) ? 1 : (t & 2) ? 3 : 2;

        ck_assert_uint_eq(tp_reg(&p, t, 1), want);
        ck_assert_uint_eq(tp_reg(&p, t, 2), want + 10);
        ck_assert_uint_eq(tp_reg(&p, t, 3), (t & 1) ? 0 : want + 100);
    }
    tp_done(&p);
}
END_TEST

/* Each thread loops tid times; brk leaves the loop per thread. */
START_TEST(loop_brk)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 32);
    TP(&p, TOP_PREBRK, NONE, TGT(6));                   /* 0 */
    i = TP(&p, TOP_IADD, DISC, R(1), R(0));             /* 1: r1 - tid */
    i->addop = TADDOP_SUB;
    i->cdst = 0;
    pred(TP0(&p, TOP_BRK), P_E);                        /* 2 */
    TP(&p, TOP_IADD, R(1), R(1), IMM(1));               /* 3 */
    TP(&p, TOP_IADD, R(4), R(4), IMM(1));               /* 4: iterations */
    TP(&p, TOP_BRA, NONE, TGT(1));                      /* 5 */
    TP(&p, TOP_IADD, R(2), R(1), IMM(100));             /* 6 */
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 1), t);
        ck_assert_uint_eq(tp_reg(&p, t, 2), t + 100);
        ck_assert_uint_eq(tp_reg(&p, t, 4), t);
    }
    tp_done(&p);
}
END_TEST

/* call with a divergent ret inside the subroutine. */
START_TEST(call_ret)
{
    TProg p;

    cp_init(&p, 32);
    TP(&p, TOP_CALL, NONE, TGT(4));                     /* 0 */
    TP(&p, TOP_IADD, R(2), R(1), IMM(1));               /* 1 */
    tp_exit(&p);                                        /* 2 */
    TP0(&p, TOP_NOP);                                   /* 3 */
    TP(&p, TOP_MOV, R(1), IMM(5));                      /* 4 */
    test_bits(&p, 1);                                   /* 5 */
    pred(TP0(&p, TOP_RET), P_LG);                       /* 6: odd return */
    TP(&p, TOP_MOV, R(1), IMM(7));                      /* 7 */
    TP0(&p, TOP_RET);                                   /* 8 */
    tp_run_ok(&p);
    for (unsigned t = 0; t < 32; t++) {
        uint32_t want = (t & 1) ? 5 : 7;

        ck_assert_uint_eq(tp_reg(&p, t, 1), want);
        ck_assert_uint_eq(tp_reg(&p, t, 2), want + 1);
    }
    ck_assert(tesla_run_exited(p.run, 3));
    tp_done(&p);
}
END_TEST

/* Divergent exit; and exit on an instruction whose predicate is false. */
START_TEST(divergent_exit)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 32);
    test_bits(&p, 1);                                   /* 0 */
    pred(TP(&p, TOP_BRA, NONE, TGT(4)), P_LG);          /* 1: odd -> 4 */
    TP(&p, TOP_MOV, R(1), IMM(2));                      /* 2 */
    tp_exit(&p);                                        /* 3 */
    TP(&p, TOP_MOV, R(1), IMM(1));                      /* 4 */
    i = TP(&p, TOP_MOV, R(1), IMM(9));                  /* 5 */
    i->pred = 0;            /* never */
    i->post = TPOST_EXIT;
    TP(&p, TOP_MOV, R(1), IMM(8));                      /* 6: not reached */
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 1), (t & 1) ? 1 : 2);
        ck_assert(tesla_run_exited(p.run, t));
    }
    tp_done(&p);
}
END_TEST

/* A partial last warp: threads that do not exist never run. */
START_TEST(partial_warp)
{
    TProg p;

    tp_init(&p, TESLA_G80, TESLA_PROG_VP);
    p.launch.threads = 40;
    TP(&p, TOP_MOV_FROM_SR, R(1), SREG(0));
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(tesla_run_threads(p.run), 40);
    ck_assert_uint_eq(tp_reg(&p, 39, 1), 7 | 1 << 8);
    ck_assert(tesla_run_exited(p.run, 39));
    ck_assert(!tesla_run_exited(p.run, 40));
    tp_done(&p);
}
END_TEST

/* bar: the two warps of a block exchange data through s[]. */
START_TEST(bar_two_warps)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 64);
    p.env.shared_bytes = 0x200;
    TP(&p, TOP_SHL_A, AREG(1), R(0), IMM(2));                   /* 0 */
    i = TP(&p, TOP_ST, MEM(TSPACE_S, 0, TTYPE_B32, 1, 0x40), R(0));
    i = TP(&p, TOP_BAR, NONE);                                  /* 2 */
    i->mods |= TMOD_BAR_INC | TMOD_BAR_WAIT | TMOD_BAR_ALL;
    i = TP(&p, TOP_LOGOP, R(2), R(0), IMM(63));                 /* 3 */
    i->logop = TLOGOP_XOR;
    TP(&p, TOP_SHL_A, AREG(2), R(2), IMM(2));                   /* 4 */
    TP(&p, TOP_LD, R(3), MEM(TSPACE_S, 0, TTYPE_B32, 2, 0x40)); /* 5 */
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 64; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 3), 63 - t);
    }
    tp_done(&p);
}
END_TEST

/* Warps waiting at different barriers forever: a clear error. */
START_TEST(bar_deadlock)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 64);
    test_bits(&p, 32);                                  /* 0: warp 1? */
    pred(TP(&p, TOP_BRA, NONE, TGT(4)), P_LG);          /* 1 */
    i = TP(&p, TOP_BAR, NONE);                          /* 2 */
    i->mods |= TMOD_BAR_ALL | TMOD_BAR_INC | TMOD_BAR_WAIT;
    tp_exit(&p);                                        /* 3 */
    i = TP(&p, TOP_BAR, NONE);                          /* 4 */
    i->mods |= TMOD_BAR_ALL | TMOD_BAR_INC | TMOD_BAR_WAIT;
    i->bar = 1;
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_TIMEOUT);
    ck_assert(strstr(tesla_run_result(p.run)->msg, "deadlock"));
    tp_done(&p);
}
END_TEST

START_TEST(traps)
{
    TProg p;
    const TeslaResult *r;

    /* trap: error and address */
    cp_init(&p, 32);
    TP(&p, TOP_MOV, R(1), IMM(1));
    TP0(&p, TOP_TRAP);
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    r = tesla_run_result(p.run);
    ck_assert_int_eq(r->error, TESLA_ERR_TRAP_INSTRUCTION);
    ck_assert_uint_eq(r->pc, 8);
    ck_assert_uint_eq(tp_reg(&p, 0, 1), 1);
    tp_done(&p);

    /* brk with no prebrk entry */
    cp_init(&p, 32);
    TP0(&p, TOP_BRK);
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error,
                     TESLA_ERR_STACK_UNDERFLOW);
    tp_done(&p);

    /* join reaching a call entry */
    cp_init(&p, 32);
    TP(&p, TOP_CALL, NONE, TGT(2));
    tp_exit(&p);
    TP0(&p, TOP_NOP)->post = TPOST_JOIN;
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error,
                     TESLA_ERR_STACK_MISMATCH);
    ck_assert_uint_eq(tesla_run_result(p.run)->pc, 16);
    tp_done(&p);

    /* brkpt stops the run (g84+) */
    cp_init(&p, 32);
    TP0(&p, TOP_BRKPT);
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_BREAKPOINT);
    tp_done(&p);

    /* a decode error traps with the decoder's error */
    cp_init(&p, 32);
    TP0(&p, TOP_INVALID)->error = TESLA_ERR_ILLEGAL_OPCODE;
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error,
                     TESLA_ERR_ILLEGAL_OPCODE);
    tp_done(&p);

    /* running off the end of the code */
    cp_init(&p, 32);
    TP(&p, TOP_MOV, R(1), IMM(1));
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_MEMORY_FAULT);
    tp_done(&p);
}
END_TEST

START_TEST(budget)
{
    TProg p;

    cp_init(&p, 32);
    p.env.insn_budget = 1000;
    TP(&p, TOP_IADD, R(1), R(1), IMM(1));
    TP(&p, TOP_BRA, NONE, TGT(0));
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_TIMEOUT);
    ck_assert_uint_eq(tesla_run_result(p.run)->insns, 1000);
    ck_assert_uint_eq(tp_reg(&p, 0, 1), 500);
    tp_done(&p);
}
END_TEST

/* discard_quadon's program: threads t % 4 != 0 discarded, $r3 1 else. */
static void discard_prog(TProg *p)
{
    TeslaInsn *i;

    TP(p, TOP_MOV_FROM_SR, R(0), SREG(0));              /* 0: lane */
    /* 1: normal floats, which mov2 (an f32 add of +0) keeps */
    TP(p, TOP_IADD, R(1), R(0), IMM(0x3f800000));
    test_bits(p, 3);                                    /* 2: lane % 4 */
    pred(TP0(p, TOP_DISCARD), P_LG);                    /* 3: keep UL */
    TP0(p, TOP_QUADON);                                 /* 4 */
    i = TP(p, TOP_QUADOP, R(2), R(1), R(1));            /* 5 */
    i->quad_src = 3;                                    /* read LR */
    i->quad_ops[0] = i->quad_ops[1] = TQOP_MOV2;
    i->quad_ops[2] = i->quad_ops[3] = TQOP_MOV2;
    TP0(p, TOP_QUADPOP);                                /* 6 */
    TP(p, TOP_IADD, R(3), R(3), IMM(1));                /* 7 */
    tp_exit(p);
}

/* Fragment: discard kills threads; quadon revives the quad for quadop. */
START_TEST(discard_quadon)
{
    TProg p;

    tp_init(&p, TESLA_G80, TESLA_PROG_FP);
    p.launch.threads = 8;
    discard_prog(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 8; t++) {
        ck_assert_int_eq(tesla_run_killed(p.run, t), (t & 3) != 0);
        ck_assert_uint_eq(tp_reg(&p, t, 3), (t & 3) == 0);
        /* quadon ran the quadop on the discarded threads too */
        ck_assert_uint_eq(tp_reg(&p, t, 2), t + 0x3f800000);
    }
    tp_done(&p);
}
END_TEST

/*
 * The per-warp results of @p's run of discard_prog (@threads of them)
 * agree with the per-thread ones and with the program; none past them.
 */
static void check_warps(TProg *p, unsigned threads)
{
    for (unsigned first = 0; first < 96; first += 32) {
        uint32_t killed = tesla_run_killed_warp(p->run, first);
        unsigned stride;
        const uint32_t *rows = tesla_run_regs_warp(p->run, first, &stride);

        ck_assert_uint_eq(stride, first < threads ? p->env.gprs : 0);
        for (unsigned l = 0; l < 32; l++) {
            unsigned t = first + l;
            bool ran = t < threads;

            ck_assert_int_eq((killed >> l) & 1, t < threads && (t & 3));
            ck_assert_int_eq(tesla_run_killed(p->run, t),
                             t < threads && (t & 3));
            ck_assert_uint_eq(tp_reg(p, t, 3), ran && !(t & 3));
            ck_assert_int_eq(tp_reg(p, t, 2) >= 0x3f800000, ran);
            for (unsigned r = 0; r < p->env.gprs && t < threads; r++) {
                ck_assert_uint_eq(rows[l * stride + r], tp_reg(p, t, r));
            }
        }
    }
}

/*
 * A run renewed for other launches: the same results as a new run's,
 * nothing of the last launch's left for threads not run (a trap), a
 * malformed launch refused and then a launch of no threads.
 */
START_TEST(run_renew)
{
    TProg p;
    char *err = NULL;

    tp_init(&p, TESLA_G80, TESLA_PROG_FP);
    p.launch.threads = 72;
    discard_prog(&p);
    tp_run_ok(&p);
    check_warps(&p, 72);
    p.launch.threads = 40;
    ck_assert(tesla_run_renew(p.run, &p.env, &p.launch, &err));
    ck_assert_int_eq(tesla_run_exec(p.run), TESLA_RUN_DONE);
    check_warps(&p, 40);
    /* the first warp times out: the second's results are not there */
    p.launch.threads = 64;
    p.env.insn_budget = 4;
    ck_assert(tesla_run_renew(p.run, &p.env, &p.launch, &err));
    ck_assert_int_eq(tesla_run_exec(p.run), TESLA_RUN_TRAP);
    ck_assert_uint_eq(tesla_run_killed_warp(p.run, 32), 0);
    ck_assert_uint_eq(tp_reg(&p, 36, 3), 0);
    ck_assert_uint_eq(tp_reg(&p, 33, 2), 0);
    p.launch.threads = 6;
    ck_assert(!tesla_run_renew(p.run, &p.env, &p.launch, &err));
    ck_assert_ptr_nonnull(strstr(err, "quads"));
    g_free(err);
    ck_assert_uint_eq(tesla_run_threads(p.run), 0);
    ck_assert_int_eq(tesla_run_exec(p.run), TESLA_RUN_DONE);
    ck_assert_int_eq(tesla_run_killed(p.run, 1), false);
    p.launch.threads = 96;
    p.env.insn_budget = 0;
    ck_assert(tesla_run_renew(p.run, &p.env, &p.launch, &err));
    ck_assert_int_eq(tesla_run_exec(p.run), TESLA_RUN_DONE);
    check_warps(&p, 96);
    tp_done(&p);
}
END_TEST

/* Pause from the trace hook and resume. */
static unsigned trace_count;

static bool trace_fn(void *opaque, TeslaRun *run, TeslaWarp *w,
                     const TeslaInsn *insn)
{
    trace_count++;
    return insn->addr != 8 || trace_count > 3;
}

START_TEST(trace_pause)
{
    TProg p;

    cp_init(&p, 32);
    p.env.trace = trace_fn;
    TP(&p, TOP_MOV, R(1), IMM(1));
    TP(&p, TOP_MOV, R(2), IMM(2));
    tp_exit(&p);
    trace_count = 0;
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_PAUSED);
    ck_assert_uint_eq(trace_count, 2);
    ck_assert_uint_eq(tp_reg(&p, 0, 2), 0);
    ck_assert_int_eq(tesla_run_exec(p.run), TESLA_RUN_DONE);
    ck_assert_uint_eq(trace_count, 3);
    ck_assert_uint_eq(tp_reg(&p, 0, 2), 2);
    tp_done(&p);
}
END_TEST

/* The other side of a branch exits: threads that already executed the
   join instruction do not execute it again. */
START_TEST(join_after_exit)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 32);
    TP(&p, TOP_JOINAT, NONE, TGT(4));                   /* 0 */
    test_bits(&p, 1);                                   /* 1 */
    pred(TP(&p, TOP_BRA, NONE, TGT(6)), P_LG);          /* 2: odd -> 6 */
    TP(&p, TOP_MOV, R(1), IMM(5));                      /* 3 */
    i = TP(&p, TOP_IADD, R(2), R(2), IMM(1));           /* 4 */
    i->post = TPOST_JOIN;
    TP(&p, TOP_IADD, R(3), R(2), IMM(10));              /* 5 */
    tp_exit(&p);                                        /* 6 */
    tp_run_ok(&p);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 2), (t & 1) ? 0 : 1);
        ck_assert_uint_eq(tp_reg(&p, t, 3), (t & 1) ? 0 : 11);
    }
    tp_done(&p);
}
END_TEST

/* bar on a warp-count barrier: "bar sync 0 0x40" over two warps, with a
   loop around it. */
START_TEST(bar_loop)
{
    TProg p;
    TeslaInsn *i;

    cp_init(&p, 64);
    p.env.shared_bytes = 0x100;
    /* 3 rounds: s[tid*4] = round + tid; bar; r3 += s[(tid^63)*4]; bar */
    TP(&p, TOP_SHL_A, AREG(1), R(0), IMM(2));                   /* 0 */
    i = TP(&p, TOP_LOGOP, R(2), R(0), IMM(63));                 /* 1 */
    i->logop = TLOGOP_XOR;
    TP(&p, TOP_SHL_A, AREG(2), R(2), IMM(2));                   /* 2 */
    TP(&p, TOP_PREBRK, NONE, TGT(14));                          /* 3 */
    TP(&p, TOP_IADD, R(4), R(0), R(5));                         /* 4 */
    TP(&p, TOP_ST, MEM(TSPACE_S, 0, TTYPE_B32, 1, 0), R(4));    /* 5 */
    i = TP(&p, TOP_BAR, NONE);                                  /* 6 */
    i->mods |= TMOD_BAR_INC | TMOD_BAR_WAIT;
    i->src[0] = IMM(64);
    i->nsrc = 1;
    TP(&p, TOP_LD, R(6), MEM(TSPACE_S, 0, TTYPE_B32, 2, 0));    /* 7 */
    TP(&p, TOP_IADD, R(3), R(3), R(6));                         /* 8 */
    i = TP(&p, TOP_BAR, NONE);                                  /* 9 */
    i->mods |= TMOD_BAR_INC | TMOD_BAR_WAIT | TMOD_BAR_ALL;
    i = TP(&p, TOP_IADD, R(5), R(5), IMM(1));                   /* 10 */
    i = TP(&p, TOP_IADD, DISC, R(5), IMM(3));                   /* 11 */
    i->addop = TADDOP_SUB;
    i->cdst = 0;
    pred(TP0(&p, TOP_BRK), P_E);                                /* 12 */
    TP(&p, TOP_BRA, NONE, TGT(4));                             /* 13 */
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 64; t++) {
        /* sum over rounds 0..2 of (63 - t) + round */
        ck_assert_uint_eq(tp_reg(&p, t, 3), 3 * (63 - t) + 3);
    }
    tp_done(&p);
}
END_TEST

Suite *tesla_exec_ctrl_suite(void)
{
    Suite *s = suite_create("tesla_exec_ctrl");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, if_else_join);
    tcase_add_test(tc, loop_brk);
    tcase_add_test(tc, call_ret);
    tcase_add_test(tc, divergent_exit);
    tcase_add_test(tc, partial_warp);
    tcase_add_test(tc, bar_two_warps);
    tcase_add_test(tc, join_after_exit);
    tcase_add_test(tc, bar_loop);
    tcase_add_test(tc, bar_deadlock);
    tcase_add_test(tc, traps);
    tcase_add_test(tc, budget);
    tcase_add_test(tc, discard_quadon);
    tcase_add_test(tc, run_renew);
    tcase_add_test(tc, trace_pause);
    suite_add_tcase(s, tc);
    return s;
}
