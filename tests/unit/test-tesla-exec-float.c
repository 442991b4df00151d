/*
 * Warp interpreter: f32, SFU, cvt, f64, quadop and interp, run through the
 * interpreter (the lane arithmetic itself is fpu.h's and tested there).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "test-tesla-exec.h"

enum { Z = 1, S = 2 };

#define F1   0x3f800000u
#define F2   0x40000000u
#define F3   0x40400000u
#define FM1  0xbf800000u

/* Run "op $c0 $r3 $r1 $r2 $r5" with the given inputs; thread 0. */
static void run_f(TeslaInsn proto, uint32_t a, uint32_t b, uint32_t c,
                  uint32_t *res, uint32_t *fl)
{
    TProg p;
    TeslaInsn *i;

    tp_init(&p, TESLA_G200, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    TP(&p, TOP_MOV, R(1), IMM(a));
    TP(&p, TOP_MOV, R(2), IMM(b));
    TP(&p, TOP_MOV, R(5), IMM(c));
    i = tp_add(&p, proto.op, proto.dst.kind ? proto.dst : R(3), proto.nsrc,
               proto.src);
    i->mods = proto.mods;
    i->rnd = proto.rnd;
    i->cmp = proto.cmp;
    i->dtype = proto.dtype;
    i->stype = proto.stype;
    i->cdst = 0;
    i = TP(&p, TOP_MOV_FROM_C, R(4));
    i->csrc = 0;
    tp_exit(&p);
    tp_run_ok(&p);
    *res = tp_reg(&p, 0, 3);
    *fl = tp_reg(&p, 0, 4);
    tp_done(&p);
}

static TeslaInsn fproto(unsigned op, unsigned nsrc)
{
    TeslaInsn i = { .op = op, .nsrc = nsrc, .rnd = TRND_RN };
    static const unsigned regs[] = { 1, 2, 5 };

    for (unsigned k = 0; k < nsrc; k++) {
        i.src[k] = R(regs[k]);
    }
    return i;
}

#define CHECK(res_, fl_, eres, efl) do { \
        ck_assert_msg((res_) == (eres), "result 0x%x, want 0x%x", \
                      (res_), (uint32_t)(eres)); \
        ck_assert_msg((fl_) == (efl), "flags 0x%x, want 0x%x", \
                      (fl_), (uint32_t)(efl)); \
    } while (0)

START_TEST(f32_arith)
{
    TeslaInsn i = fproto(TOP_FADD, 2);
    uint32_t r, f;

    run_f(i, F1, F2, 0, &r, &f);
    CHECK(r, f, F3, 0);
    run_f(i, F1, FM1, 0, &r, &f);
    CHECK(r, f, 0, Z);
    i.src[1].neg = 1;
    run_f(i, F1, F3, 0, &r, &f);
    CHECK(r, f, 0xc0000000, S);
    i.src[1].neg = 0;
    i.mods = TMOD_SAT;
    run_f(i, 0x3f400000, 0x3f000000, 0, &r, &f);    /* 0.75 + 0.5 */
    CHECK(r, f, F1, 0);

    /* 1.5 * (1 + 2^-23): a tie, rn rounds to even, rz down */
    i = fproto(TOP_FMUL, 2);
    run_f(i, 0x3fc00000, 0x3f800001, 0, &r, &f);
    CHECK(r, f, 0x3fc00002, 0);
    i.rnd = TRND_RZ;
    run_f(i, 0x3fc00000, 0x3f800001, 0, &r, &f);
    CHECK(r, f, 0x3fc00001, 0);

    i = fproto(TOP_FMAD, 3);
    run_f(i, F2, F3, F1, &r, &f);
    CHECK(r, f, 0x40e00000, 0);                     /* 7 */
    i.mods = TMOD_NEG_PROD;
    run_f(i, F2, F3, F1, &r, &f);
    CHECK(r, f, 0xc0a00000, S);                     /* -5 */

    i = fproto(TOP_FMIN, 2);
    run_f(i, 0x7fc00000, F1, 0, &r, &f);
    CHECK(r, f, F1, 0);
    i.op = TOP_FMAX;
    i.src[0].abs = 1;
    run_f(i, 0xc0400000, F2, 0, &r, &f);
    CHECK(r, f, F3, 0);

    i = fproto(TOP_FSET, 2);
    i.cmp = TCMP_L;
    run_f(i, F1, F2, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    i.cmp = TCMP_U;
    run_f(i, F1, 0x7fffffff, 0, &r, &f);
    CHECK(r, f, 0xffffffff, S);
    i.cmp = TCMP_L | TCMP_E | TCMP_G;
    run_f(i, F1, 0x7fffffff, 0, &r, &f);
    CHECK(r, f, 0, Z);

    i = fproto(TOP_FSLCT, 3);
    run_f(i, 0x11, 0x22, FM1, &r, &f);
    CHECK(r, f, 0x22, 0);
    run_f(i, 0x11, 0x22, 0x80000000, &r, &f);       /* -0 counts as >= 0 */
    CHECK(r, f, 0x11, 0);
    i.mods = TMOD_SLCT_NEG;
    run_f(i, 0x11, 0x22, F1, &r, &f);
    CHECK(r, f, 0x22, 0);
}
END_TEST

START_TEST(sfu_cvt)
{
    TeslaInsn i = fproto(TOP_RCP, 1);
    uint32_t r, f;

    run_f(i, F2, 0, 0, &r, &f);
    CHECK(r, f, 0x3f000000, 0);
    i.src[0].neg = 1;
    run_f(i, F2, 0, 0, &r, &f);
    CHECK(r, f, 0xbf000000, S);
    i = fproto(TOP_RSQRT, 1);
    run_f(i, 0x40800000, 0, 0, &r, &f);
    CHECK(r, f, 0x3f000000, 0);
    i = fproto(TOP_LG2, 1);
    run_f(i, 0x41000000, 0, 0, &r, &f);
    CHECK(r, f, F3, 0);

    i = fproto(TOP_CVT, 1);
    i.dtype = TTYPE_F32;
    i.stype = TTYPE_S32;
    run_f(i, (uint32_t)-3, 0, 0, &r, &f);
    CHECK(r, f, 0xc0400000, S);
    i.dtype = TTYPE_S32;
    i.stype = TTYPE_F32;
    i.rnd = TRND_RZI;
    run_f(i, 0xc02ccccd, 0, 0, &r, &f);             /* -2.7 -> -2 */
    CHECK(r, f, 0xfffffffe, S);
    i.rnd = TRND_RMI;
    run_f(i, 0xc02ccccd, 0, 0, &r, &f);
    CHECK(r, f, 0xfffffffd, S);
    /* integer destinations saturate */
    i.dtype = TTYPE_U8;
    i.stype = TTYPE_S32;
    i.rnd = TRND_RN;
    run_f(i, 300, 0, 0, &r, &f);
    CHECK(r, f, 255, 0);
    i.src[0].abs = 1;
    i.dtype = TTYPE_S32;
    run_f(i, (uint32_t)-5, 0, 0, &r, &f);
    CHECK(r, f, 5, 0);
}
END_TEST

START_TEST(f64)
{
    TProg p;
    TeslaInsn *i;

    tp_init(&p, TESLA_G200, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    TP(&p, TOP_MOV, R(2), IMM(0));
    TP(&p, TOP_MOV, R(3), IMM(0x3ff80000));         /* 1.5 */
    TP(&p, TOP_MOV, R(4), IMM(0));
    TP(&p, TOP_MOV, R(5), IMM(0x40020000));         /* 2.25 */
    i = TP(&p, TOP_DADD, D(6), D(2), D(4));
    i->cdst = 0;
    TP(&p, TOP_DMUL, D(8), D(2), D(4));
    TP(&p, TOP_DFMA, D(10), D(2), D(4), D(6));
    i = TP(&p, TOP_DSET, R(12), D(2), D(4));
    i->cmp = TCMP_L;
    i = TP(&p, TOP_CVT, R(13), D(6));
    i->dtype = TTYPE_F32;
    i->stype = TTYPE_F64;
    i = TP(&p, TOP_MOV_FROM_C, R(14));
    i->csrc = 0;
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(tp_reg(&p, 0, 7), 0x400e0000);   /* 3.75 */
    ck_assert_uint_eq(tp_reg(&p, 0, 6), 0);
    ck_assert_uint_eq(tp_reg(&p, 0, 9), 0x400b0000);   /* 3.375 */
    ck_assert_uint_eq(tp_reg(&p, 0, 11), 0x401c8000);  /* 7.125 */
    ck_assert_uint_eq(tp_reg(&p, 0, 12), 0xffffffff);
    ck_assert_uint_eq(tp_reg(&p, 0, 13), 0x40700000);
    ck_assert_uint_eq(tp_reg(&p, 0, 14), 0);
    tp_done(&p);
}
END_TEST

/* Fragment quads: dox differences, and interp with a multiplier. */
START_TEST(quad_interp)
{
    TProg p;
    TeslaInsn *i;
    uint32_t in[8];
    static const uint32_t vals[4] = { F1, F2, 0x40800000, 0x41000000 };

    tp_init(&p, TESLA_G80, TESLA_PROG_FP);
    p.launch.threads = 8;
    for (unsigned t = 0; t < 8; t++) {
        in[t] = vals[t & 3];
    }
    p.launch.in = in;
    p.launch.in_words = 1;
    TP(&p, TOP_INTERP, R(1), MEM(TSPACE_V, 0, TTYPE_B32, 0, 0));
    i = TP(&p, TOP_QUADOP, R(2), R(1), R(1));
    i->quad_src = 4;                /* dox */
    for (unsigned k = 0; k < 4; k++) {
        i->quad_ops[k] = TQOP_SUBR;
    }
    i = TP(&p, TOP_QUADOP, R(4), R(1), R(1));
    i->quad_src = 5;                /* doy */
    for (unsigned k = 0; k < 4; k++) {
        i->quad_ops[k] = TQOP_SUB;
    }
    TP(&p, TOP_MOV, R(5), IMM(F3));
    TP(&p, TOP_INTERP, R(3), MEM(TSPACE_V, 0, TTYPE_B32, 0, 0), R(5));
    tp_exit(&p);
    tp_run_ok(&p);
    /* subr: own - other lane; lanes 0..3 hold 1 2 4 8 */
    ck_assert_uint_eq(tp_reg(&p, 0, 2), FM1);
    ck_assert_uint_eq(tp_reg(&p, 1, 2), F1);
    ck_assert_uint_eq(tp_reg(&p, 6, 2), 0xc0800000);   /* 4 - 8 */
    ck_assert_uint_eq(tp_reg(&p, 7, 2), 0x40800000);
    /* sub: other - own, with lane ^ 2 */
    ck_assert_uint_eq(tp_reg(&p, 0, 4), F3);           /* 4 - 1 */
    ck_assert_uint_eq(tp_reg(&p, 3, 4), 0xc0c00000);   /* 2 - 8 */
    ck_assert_uint_eq(tp_reg(&p, 2, 3), 0x41400000);   /* 4 * 3 */
    tp_done(&p);
}
END_TEST

/*
 * quadop mov2 is SRC2 + 0 through the adder: -0 becomes +0, denormals
 * flush to zero (keeping no sign), NaNs come out canonical.
 */
START_TEST(quadop_mov2)
{
    TProg p;
    TeslaInsn *i;
    static const uint32_t in[8] = {
        0x80000000, 0x00000001, 0xffc00001, 0x3fc00000,
        0x807fffff, 0x7f800000, 0xff800000, 0x00800000,
    };
    static const uint32_t want[8] = {
        0x00000000, 0x00000000, 0x7fffffff, 0x3fc00000,
        0x00000000, 0x7f800000, 0xff800000, 0x00800000,
    };

    tp_init(&p, TESLA_G80, TESLA_PROG_FP);
    p.launch.threads = 8;
    p.launch.in = in;
    p.launch.in_words = 1;
    TP(&p, TOP_INTERP, R(1), MEM(TSPACE_V, 0, TTYPE_B32, 0, 0));
    i = TP(&p, TOP_QUADOP, R(2), R(1), R(1));
    i->quad_src = 0;
    for (unsigned k = 0; k < 4; k++) {
        i->quad_ops[k] = TQOP_MOV2;
    }
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 8; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 2), want[t]);
    }
    tp_done(&p);
}
END_TEST

Suite *tesla_exec_float_suite(void)
{
    Suite *s = suite_create("tesla_exec_float");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, f32_arith);
    tcase_add_test(tc, sfu_cvt);
    tcase_add_test(tc, f64);
    tcase_add_test(tc, quad_interp);
    tcase_add_test(tc, quadop_mov2);
    suite_add_tcase(s, tc);
    return s;
}
