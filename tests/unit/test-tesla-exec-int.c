/*
 * Warp interpreter: integer and data movement instructions, with the flag
 * results of the int.rst / seed pseudocode worked out by hand.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "test-tesla-exec.h"
#include "target/tesla/warp.h"

enum { Z = 1, S = 2, C = 4, O = 8 };

/*
 * Run "op $c0 $r3 $r1 $r2 [$r5]" on one compute warp with $r1 = a,
 * $r2 = b, $r5 = c, $c1 = cin; return $r3 and $c0 of thread 0.
 */
static void run_op(TeslaInsn proto, bool half, uint32_t a, uint32_t b,
                   uint32_t c, uint32_t cin, uint32_t *res, uint32_t *fl)
{
    TProg p;
    TeslaInsn *i;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    TP(&p, TOP_MOV, R(1), IMM(a));
    TP(&p, TOP_MOV, R(2), IMM(b));
    TP(&p, TOP_MOV, R(5), IMM(c));
    TP(&p, TOP_MOV, R(6), IMM(cin));
    i = TP(&p, TOP_MOV_TO_C, (TeslaOperand){ 0 }, R(6));
    i->cdst = 1;
    i = tp_add(&p, proto.op, half ? H(3, 0) : R(3), proto.nsrc, proto.src);
    i->mods = proto.mods;
    i->addop = proto.addop;
    i->logop = proto.logop;
    i->cmp = proto.cmp;
    i->stype = proto.stype;
    i->csrc = 1;
    i->cdst = 0;
    i = TP(&p, TOP_MOV_FROM_C, R(4));
    i->csrc = 0;
    tp_exit(&p);
    tp_run_ok(&p);
    *res = tp_reg(&p, 0, 3);
    *fl = tp_reg(&p, 0, 4);
    tp_done(&p);
}

static TeslaInsn proto(unsigned op, uint32_t mods, unsigned nsrc, bool half)
{
    TeslaInsn i = { .op = op, .mods = mods, .nsrc = nsrc };

    for (unsigned k = 0; k < nsrc; k++) {
        static const unsigned regs[] = { 1, 2, 5 };

        i.src[k] = half && k < 2 ? H(regs[k], 0) : R(regs[k]);
    }
    return i;
}

#define CHECK(res_, fl_, eres, efl) do { \
        ck_assert_msg((res_) == (eres), "result 0x%x, want 0x%x", \
                      (res_), (uint32_t)(eres)); \
        ck_assert_msg((fl_) == (efl), "flags 0x%x, want 0x%x", \
                      (fl_), (uint32_t)(efl)); \
    } while (0)

START_TEST(iadd_flags)
{
    TeslaInsn a = proto(TOP_IADD, TMOD_B32, 2, false);
    uint32_t r, f;

    run_op(a, false, 0x7fffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0x80000000, O | S);
    run_op(a, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0, C | Z);
    run_op(a, false, 0x80000000, 0x80000000, 0, 0, &r, &f);
    CHECK(r, f, 0, C | O | Z);
    /* sub 0 - 1: s2 = ~1, c = 1: no carry, S. */
    a.addop = TADDOP_SUB;
    run_op(a, false, 0, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    /* sub 5 - 3: 5 + 0xfffffffc + 1 carries out. */
    run_op(a, false, 5, 3, 0, 0, &r, &f);
    CHECK(r, f, 2, C);
    a.addop = TADDOP_SUBR;
    run_op(a, false, 5, 3, 0, 0, &r, &f);
    CHECK(r, f, 0xfffffffe, S);
    /* addc with carry in */
    a.addop = TADDOP_ADDC;
    run_op(a, false, 1, 2, 0, C, &r, &f);
    CHECK(r, f, 4, 0);
    run_op(a, false, 1, 2, 0, 0, &r, &f);
    CHECK(r, f, 3, 0);
    /* saturation */
    a.addop = TADDOP_ADD;
    a.mods |= TMOD_SAT;
    run_op(a, false, 0x7fffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0x7fffffff, O);
    run_op(a, false, 0x80000000, 0xffffffff, 0, 0, &r, &f);
    CHECK(r, f, 0x80000000, C | O | S);
}
END_TEST

START_TEST(iadd16)
{
    TeslaInsn a = proto(TOP_IADD, 0, 2, true);
    uint32_t r, f;

    run_op(a, true, 0x7fff, 1, 0, 0, &r, &f);
    CHECK(r & 0xffff, f, 0x8000, O | S);
    run_op(a, true, 0xffff, 1, 0, 0, &r, &f);
    CHECK(r & 0xffff, f, 0, C | Z);
    /* High halves are not touched by a write to $r3l... */
    ck_assert_uint_eq(r >> 16, 0);
    a.mods |= TMOD_SAT;
    run_op(a, true, 0x8000, 0x8000, 0, 0, &r, &f);
    CHECK(r & 0xffff, f, 0x8000, C | O | S);
}
END_TEST

START_TEST(imul)
{
    TeslaInsn m = proto(TOP_IMUL16, 0, 2, true);
    uint32_t r, f;

    /* u16 * u16 */
    run_op(m, false, 0xffff, 0xffff, 0, 0, &r, &f);
    CHECK(r, f, 0xfffe0001, S);
    /* s16 * s16: -1 * 2 */
    m.src[0].mtype = TTYPE_S16;
    m.src[1].mtype = TTYPE_S16;
    run_op(m, false, 0xffff, 2, 0, 0, &r, &f);
    CHECK(r, f, 0xfffffffe, S);
    /* s16 * u16 */
    m.src[1].mtype = TTYPE_U16;
    run_op(m, false, 0xffff, 0xffff, 0, 0, &r, &f);
    CHECK(r, f, 0xffff0001, S);

    m = proto(TOP_IMUL24, TMOD_B32, 2, false);
    run_op(m, false, 0xffffff, 0xffffff, 0, 0, &r, &f);
    CHECK(r, f, 0xfe000001, S);
    m.mods |= TMOD_HIGH;
    run_op(m, false, 0xffffff, 0xffffff, 0, 0, &r, &f);
    CHECK(r, f, 0xfffffe00, S);
    /* s24: -1 * -1 = 1; high part 0 */
    m.mods |= TMOD_SIGNED;
    run_op(m, false, 0xffffff, 0xffffff, 0, 0, &r, &f);
    CHECK(r, f, 0, Z);
    m.mods &= ~TMOD_HIGH;
    run_op(m, false, 0x00ffffff, 0x12000003, 0, 0, &r, &f);
    CHECK(r, f, 0xfffffffd, S);
}
END_TEST

START_TEST(imad)
{
    TeslaInsn m = proto(TOP_IMAD, TMOD_B32, 3, false);
    uint32_t r, f;

    m.stype = TTYPE_U24;
    run_op(m, false, 3, 4, 5, 0, &r, &f);
    CHECK(r, f, 17, 0);
    m.addop = TADDOP_SUB;
    run_op(m, false, 3, 4, 12, 0, &r, &f);
    CHECK(r, f, 0, C | Z);
    m.addop = TADDOP_SUBR;
    run_op(m, false, 3, 4, 20, 0, &r, &f);
    CHECK(r, f, 8, C);
    m.addop = TADDOP_ADDC;
    run_op(m, false, 3, 4, 5, C, &r, &f);
    CHECK(r, f, 18, 0);
    /* s24 high with sat: (0x7fffff * 0x7fffff) >> 16 = 0x3fffff00 */
    m.addop = TADDOP_ADD;
    m.stype = TTYPE_S24;
    m.mods |= TMOD_HIGH | TMOD_SIGNED | TMOD_SAT;
    run_op(m, false, 0x7fffff, 0x7fffff, 0x7fffffff, 0, &r, &f);
    CHECK(r, f, 0x7fffffff, O);
    /* 16-bit mul then 32-bit add */
    m = proto(TOP_IMAD, 0, 3, false);
    m.stype = TTYPE_U16;
    m.src[0] = H(1, 0);
    m.src[1] = H(2, 1);
    run_op(m, false, 0x1234ffff, 0x00020000, 1, 0, &r, &f);
    CHECK(r, f, 0x1ffff, 0);
}
END_TEST

START_TEST(sad_minmax_set)
{
    TeslaInsn s = proto(TOP_SAD, TMOD_B32, 3, false);
    uint32_t r, f;

    run_op(s, false, 5, 9, 10, 0, &r, &f);
    CHECK(r, f, 14, 0);
    s.mods |= TMOD_SIGNED;
    run_op(s, false, 0xfffffffe, 3, 0xfffffffb, 0, &r, &f);
    CHECK(r, f, 0, C | Z);

    s = proto(TOP_IMIN, TMOD_B32 | TMOD_SIGNED, 2, false);
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    s.mods &= ~TMOD_SIGNED;
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 1, 0);
    s.op = TOP_IMAX;
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);

    s = proto(TOP_ISET, TMOD_B32 | TMOD_SIGNED, 2, false);
    s.cmp = TCMP_L;
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    s.cmp = TCMP_G | TCMP_E;
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0, Z);
    s.mods &= ~TMOD_SIGNED;
    run_op(s, false, 0xffffffff, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    /* 16-bit set: 0xffff */
    s = proto(TOP_ISET, 0, 2, true);
    s.cmp = TCMP_E;
    run_op(s, true, 0x10007, 0x20007, 0, 0, &r, &f);
    CHECK(r & 0xffff, f, 0xffff, S);
}
END_TEST

START_TEST(logop_shift)
{
    TeslaInsn l = proto(TOP_LOGOP, TMOD_B32, 2, false);
    uint32_t r, f;

    l.logop = TLOGOP_AND;
    l.src[1].not_ = 1;
    run_op(l, false, 0xff00ff00, 0x0f0f0f0f, 0, 0, &r, &f);
    CHECK(r, f, 0xf000f000, S);
    l.logop = TLOGOP_XOR;
    l.src[1].not_ = 0;
    run_op(l, false, 0x1234, 0x1234, 0, 0, &r, &f);
    CHECK(r, f, 0, Z);
    l.logop = TLOGOP_MOV2;
    l.src[1].not_ = 1;
    run_op(l, false, 0x1234, 0, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);

    l = proto(TOP_SHL, TMOD_B32, 2, false);
    run_op(l, false, 0x80000001, 1, 0, 0, &r, &f);
    CHECK(r, f, 2, C | O);
    /* count 32: 0, and C is not set (count < size rule) */
    run_op(l, false, 1, 32, 0, 0, &r, &f);
    CHECK(r, f, 0, Z);
    run_op(l, false, 2, 31, 0, 0, &r, &f);
    CHECK(r, f, 0, C | Z);
    l.op = TOP_SHR;
    run_op(l, false, 3, 1, 0, 0, &r, &f);
    CHECK(r, f, 1, C);
    l.mods |= TMOD_SIGNED;
    run_op(l, false, 0x80000000, 4, 0, 0, &r, &f);
    CHECK(r, f, 0xf8000000, S);
    run_op(l, false, 0x80000000, 40, 0, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    run_op(l, false, 0x80000001, 1, 0, 0, &r, &f);
    CHECK(r, f, 0xc0000000, C | S);
    /* immediate count */
    l.src[1] = IMM(8);
    run_op(l, false, 0x12345678, 0, 0, 0, &r, &f);
    CHECK(r, f, 0x00123456, 0);
}
END_TEST

static void cp_init_int(TProg *p)
{
    tp_init(p, TESLA_G84, TESLA_PROG_CP);
    p->launch.block[0] = 64;
}

/* Registers at or beyond the allocated count read 0 and ignore writes. */
START_TEST(gpr_limit)
{
    TProg p;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.env.gprs = 4;
    p.launch.block[0] = 32;
    TP(&p, TOP_MOV, R(5), IMM(0x1234));
    TP(&p, TOP_MOV, R(1), IMM(7));
    TP(&p, TOP_IADD, R(2), R(1), R(5));
    TP(&p, TOP_IADD, R(3), R(63), IMM(9));
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(tp_reg(&p, 0, 2), 7);
    ck_assert_uint_eq(tp_reg(&p, 5, 3), 9);
    ck_assert_uint_eq(tp_reg(&p, 0, 5), 0);
    tp_done(&p);
}
END_TEST

/* mov with a lane mask; mov from/to $a, $sr; predicates. */
START_TEST(data_moves)
{
    TProg p;
    TeslaInsn *i;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 64;
    i = TP(&p, TOP_MOV, R(1), IMM(0x55));
    i->lanemask = 0x5;          /* lanes 0 and 2 of each quad */
    i = TP(&p, TOP_SHL_A, AREG(1), R(0), IMM(2));
    TP(&p, TOP_MOV_FROM_A, R(2), AREG(1));
    i = TP(&p, TOP_ADD_A, AREG(2), AREG(1), IMM(0x10));
    TP(&p, TOP_MOV_FROM_A, R(3), AREG(2));
    TP(&p, TOP_MOV_FROM_SR, R(4), SREG(0));
    TP(&p, TOP_MOV_FROM_SR, R(5), SREG(3));
    /* $c0 = flags of (tid - 3): e holds for tid 3 only */
    i = TP(&p, TOP_IADD, (TeslaOperand){ .kind = TOPND_DISCARD }, R(0),
           IMM(3));
    i->addop = TADDOP_SUB;
    i->cdst = 0;
    i = TP(&p, TOP_MOV, R(6), IMM(1));
    i->pred = 0x02;             /* e */
    i->pred_c = 0;
    i = TP(&p, TOP_MOV, R(7), IMM(1));
    i->pred = 0x01;             /* l: tid < 3 */
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 64; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 1), (t & 1) ? 0 : 0x55);
        ck_assert_uint_eq(tp_reg(&p, t, 2), t * 4);
        ck_assert_uint_eq(tp_reg(&p, t, 3), t * 4 + 0x10);
        ck_assert_uint_eq(tp_reg(&p, t, 4), (t % 32) | (t / 32) << 8);
        ck_assert_uint_eq(tp_reg(&p, t, 5), 0x20);
        ck_assert_uint_eq(tp_reg(&p, t, 6), t == 3);
        ck_assert_uint_eq(tp_reg(&p, t, 7), t < 3);
    }
    tp_done(&p);
}
END_TEST

/* Every predicate of isa.rst's table, against all 16 flag values. */
START_TEST(predicates)
{
    static const struct {
        unsigned pred;
        uint16_t truth;     /* bit f: true for flags f */
    } tab[] = {
        { 0x00, 0x0000 },
        { 0x0f, 0xffff },
    };
    TProg p;
    TeslaInsn *i;

    /* thread t (0..15) gets $c0 = t; r1 |= 1 << pred where true */
    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 16;
    i = TP(&p, TOP_MOV_TO_C, (TeslaOperand){ 0 }, R(0));
    i->cdst = 0;
    for (unsigned pr = 0; pr < 32; pr++) {
        i = TP(&p, TOP_LOGOP, R(1), R(1), IMM(1u << pr));
        i->logop = TLOGOP_OR;
        i->pred = pr;
    }
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned f = 0; f < 16; f++) {
        uint32_t got = tp_reg(&p, f, 1);
        bool z = f & Z, s = f & S, c = f & C, o = f & O;
        bool want[32] = {
            [0x01] = (s && !z) ^ o,
            [0x02] = z && !s,
            [0x03] = s ^ (z || o),
            [0x04] = !z && !(s ^ o),
            [0x05] = !z,
            [0x06] = !(s ^ o),
            [0x07] = !z || !s,
            [0x08] = z && s,
            [0x09] = s ^ o,
            [0x0a] = z,
            [0x0b] = z || (s ^ o),
            [0x0c] = !s ^ (z || o),
            [0x0d] = !z || s,
            [0x0e] = (!s || z) ^ o,
            [0x0f] = true,
            [0x10] = o,
            [0x11] = c,
            [0x12] = !z && c,
            [0x13] = s,
            [0x1c] = !s,
            [0x1d] = z || !c,
            [0x1e] = !c,
            [0x1f] = !o,
        };

        for (unsigned pr = 0; pr < 32; pr++) {
            ck_assert_msg(((got >> pr) & 1) == want[pr],
                          "pred 0x%x flags 0x%x", pr, f);
        }
        for (unsigned k = 0; k < ARRAY_SIZE(tab); k++) {
            ck_assert_uint_eq((got >> tab[k].pred) & 1,
                              (tab[k].truth >> f) & 1);
        }
    }
    tp_done(&p);
}
END_TEST

static bool trace_all(void *opaque, TeslaRun *run, TeslaWarp *w,
                      const TeslaInsn *insn)
{
    return true;
}

/*
 * The fast path (common ALU forms, vectorised) against the general path
 * (forced by a trace hook): same registers and flags, with bit patterns
 * that include NaNs, infinities and denormals as floats.
 */
START_TEST(fast_path_matches)
{
    TProg p[2];
    unsigned nfast = 0;

    for (unsigned run = 0; run < 2; run++) {
        TProg *q = &p[run];
        TeslaInsn *i;

        cp_init_int(q);
        if (run) {
            q->env.trace = trace_all;
        }
        i = TP(q, TOP_IMUL24, R(2), R(0), IMM(0x9e3779));
        i = TP(q, TOP_LOGOP, R(3), R(2), IMM(0x5bd1e995));
        i->logop = TLOGOP_XOR;
        TP(q, TOP_SHL, R(4), R(3), IMM(7));
        TP(q, TOP_SHR, R(5), R(3), IMM(3));
        i = TP(q, TOP_SHR, R(6), R(3), IMM(5));
        i->mods |= TMOD_SIGNED;
        TP(q, TOP_IADD, R(7), R(2), R(3));
        i = TP(q, TOP_IADD, R(8), R(2), R(3));
        i->addop = TADDOP_SUB;
        i = TP(q, TOP_IADD, R(9), R(2), R(3));
        i->addop = TADDOP_SUBR;
        i = TP(q, TOP_IADD, R(10), R(3), R(4));
        i->cdst = 1;
        i = TP(q, TOP_IADD, R(11), R(3), R(5));
        i->addop = TADDOP_SUB;
        i->cdst = 2;
        i = TP(q, TOP_LOGOP, R(12), R(3), R(4));
        i->logop = TLOGOP_AND;
        i->src[0].not_ = 1;
        i = TP(q, TOP_LOGOP, R(13), R(3), R(4));
        i->logop = TLOGOP_OR;
        i->src[1].not_ = 1;
        i = TP(q, TOP_LOGOP, R(14), R(3), R(4));
        i->logop = TLOGOP_MOV2;
        i->src[1].not_ = 1;
        i = TP(q, TOP_IMAD, R(15), R(3), R(4), R(5));
        i->stype = TTYPE_U24;
        i = TP(q, TOP_IADD, R(16), R(3), IMM(1));
        i->pred = 0x01;         /* partial mask */
        i->pred_c = 1;
        i = TP(q, TOP_FADD, R(17), R(3), R(4));
        i = TP(q, TOP_FMUL, R(18), R(3), R(5));
        i->src[1].neg = 1;
        i = TP(q, TOP_FMAD, R(19), R(4), R(5), R(6));
        i->src[0].abs = 1;
        i = TP(q, TOP_FMAD, R(20), R(4), IMM(0x3fc00000), R(3));
        i->mods |= TMOD_NEG_ADD;
        i->pred = 0x0a;         /* eu */
        i->pred_c = 2;
        i = TP(q, TOP_FADD, R(21), R(17), IMM(0xbf800000));
        TP(q, TOP_MOV, R(22), R(19));
        TP(q, TOP_MOV, R(23), IMM(0x1234));
        i = TP(q, TOP_MOV_FROM_C, R(24));
        i->csrc = 1;
        i = TP(q, TOP_MOV_FROM_C, R(25));
        i->csrc = 2;
        /* fmad/fmul on small values: the exact fallback */
        i = TP(q, TOP_FMUL, R(26), R(4), IMM(0x00800000));
        i = TP(q, TOP_FMAD, R(27), R(4), IMM(0x00800000), IMM(0));
        i->src[2] = R(5);
        tp_exit(q);
        tp_run_ok(q);
    }
    for (unsigned k = 0; k < p[0].n; k++) {
        nfast += p[0].run->fcache[p[0].insn[k].addr / 4].kind != 0;
    }
    ck_assert_uint_ge(nfast, 24);
    for (unsigned t = 0; t < 64; t++) {
        for (unsigned r = 0; r < 28; r++) {
            ck_assert_msg(tp_reg(&p[0], t, r) == tp_reg(&p[1], t, r),
                          "thread %u $r%u: fast 0x%08x, general 0x%08x",
                          t, r, tp_reg(&p[0], t, r), tp_reg(&p[1], t, r));
        }
    }
    tp_done(&p[0]);
    tp_done(&p[1]);
}
END_TEST

Suite *tesla_exec_int_suite(void)
{
    Suite *s = suite_create("tesla_exec_int");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, iadd_flags);
    tcase_add_test(tc, iadd16);
    tcase_add_test(tc, imul);
    tcase_add_test(tc, imad);
    tcase_add_test(tc, sad_minmax_set);
    tcase_add_test(tc, logop_shift);
    tcase_add_test(tc, gpr_limit);
    tcase_add_test(tc, data_moves);
    tcase_add_test(tc, predicates);
    tcase_add_test(tc, fast_path_matches);
    suite_add_tcase(s, tc);
    return s;
}
