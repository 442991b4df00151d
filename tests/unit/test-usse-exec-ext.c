/*
 * USSE interpreter: the instructions that trapped UNSUPPORTED before
 * (VDUAL, SOP3, RLP, indexed banks, FPMA, the control ops, per-channel
 * TEST modes, TESTMASK types, IMA16 modes) and the full constant ROM.
 * Expected values are worked out by hand from the semantics in
 * docs/devel/usse-exec.md (facts from Vita3K where it has them, the
 * documented UNVERIFIED choices elsewhere).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse/exec.h"
#include "test-usse-exec.h"
#include <check.h>

#define R(run, i, n)    usse_run_reg(run, i, USSE_BANK_TEMP, n)
#define O(run, i, n)    usse_run_reg(run, i, USSE_BANK_OUTPUT, n)
#define RF(run, i, n)   bitsf(R(run, i, n))
#define OF(run, i, n)   bitsf(O(run, i, n))
#define IF(run, i, n)   bitsf(usse_run_reg(run, i, USSE_BANK_FPI, n))

static UsseRun *run_pa(const char *src, const uint32_t *pa, unsigned n)
{
    UsseTestSetup ts = { .pa = pa, .pa_words = n };

    return ut_usse_run(src, &ts, USSE_RUN_DONE);
}

START_TEST(test_const_rom)
{
    uint32_t v;
    UsseRun *run = run_pa(
        "vmov.f32 r0.xyzw, c4.xyzw\n"       /* 2, 4, then entry 5: 8, 16 */
        "vmov.f32 r4.xy, c20.xyzw\n"        /* e, 1/e */
        "vmov.f32 r6.xy, c22.xyzw\n"        /* pi, pi/2 */
        "vmov.f16 r8.xyzw, c35.xyzw\n"      /* halves 2, 4, 8, 16 */
        "vmov.f16 r10.xyzw, c12.xyzw\n",    /* 0.5 (not 0), 1.75, 0, 1.625 */
        NULL, 0);

    ck_assert_float_eq(RF(run, 0, 0), 2.0f);
    ck_assert_float_eq(RF(run, 0, 1), 4.0f);
    ck_assert_float_eq(RF(run, 0, 2), 8.0f);
    ck_assert_float_eq(RF(run, 0, 3), 16.0f);
    ck_assert_float_eq_tol(RF(run, 0, 4), 2.7182818f, 1e-6);
    ck_assert_float_eq_tol(RF(run, 0, 5), 0.36787944f, 1e-6);
    ck_assert_float_eq_tol(RF(run, 0, 6), 3.14159265f, 1e-6);
    ck_assert_float_eq_tol(RF(run, 0, 7), 1.57079633f, 1e-6);
    ck_assert_uint_eq(R(run, 0, 8), 0x44004000);
    ck_assert_uint_eq(R(run, 0, 9), 0x4c004800);
    ck_assert_uint_eq(R(run, 0, 10), 0x3f003800);
    ck_assert_uint_eq(R(run, 0, 11), 0x3e800000);
    usse_run_free(run);

    ck_assert(usse_const_rom(63, 0, &v));
    ck_assert_uint_eq(v, 0x7fff7fff);
    ck_assert(!usse_const_rom(64, 0, &v));
}
END_TEST

/* i0..i2 from pa8.. (4 floats each). */
static const char set_gpi[] =
    "vmov.f32 i0.xyzw, pa8.xyzw\n"
    "vmov.f32 i1.xyzw, pa12.xyzw\n"
    "vmov.f32 i2.xyzw, pa16.xyzw\n";

static UsseRun *run_dual(const char *body, const float *pa)
{
    static uint32_t buf[20];
    g_autofree char *src = g_strconcat(set_gpi, body, NULL);

    for (unsigned i = 0; i < 20; i++) {
        buf[i] = fbits(pa[i]);
    }
    return run_pa(src, buf, 20);
}

START_TEST(test_vdual_vec4)
{
    static const float pa[20] = {
        1, 2, 3, 4, 0, 0, 0, 0,
        4, 9, 16, 25,               /* i0 */
        10, 20, 30, 40,             /* i1 */
        0.5f, 0.25f, 1, 1 };        /* i2 */
    UsseRun *run = run_dual(
        "vdual.vec4 vmad o0.xy, pa0.xyzw, i1.xyzw, i2.xyzw | "
        "frsq i0.xyzw, i0.xxxx\n", pa);

    /* vmad: pa * i1 + i2, the unified store gets x and y */
    ck_assert_float_eq(OF(run, 0, 0), 10.5f);
    ck_assert_float_eq(OF(run, 0, 1), 40.25f);
    ck_assert_uint_eq(O(run, 0, 2), 0);
    /* frsq of i0.x to all of i0 */
    for (unsigned c = 0; c < 4; c++) {
        ck_assert_float_eq(IF(run, 0, c), 0.5f);
    }
    usse_run_free(run);
}
END_TEST

START_TEST(test_vdual_async)
{
    static const float pa[20] = {
        0, 0, 0, 0, 0, 0, 0, 0,
        4, 9, 16, 25, 10, 20, 30, 40, 0, 0, 0, 0 };
    /* op2 reads i1 (the unified slot aliasing it) while op1 writes it:
       it sees the old value */
    UsseRun *run = run_dual(
        "vdual.vec3.c2 vmul i1.xyz, i0.xyz, i1.xyz | vmov o4.xy, i1.xyz\n",
        pa);

    ck_assert_float_eq(OF(run, 0, 4), 10.0f);
    ck_assert_float_eq(OF(run, 0, 5), 20.0f);
    ck_assert_float_eq(IF(run, 0, 4), 40.0f);
    ck_assert_float_eq(IF(run, 0, 5), 180.0f);
    ck_assert_float_eq(IF(run, 0, 6), 480.0f);
    ck_assert_float_eq(IF(run, 0, 7), 40.0f);     /* vec3: w kept */
    usse_run_free(run);
}
END_TEST

START_TEST(test_vdual_scalar)
{
    static const float pa[20] = {
        3, 0, 0, 0, 0, 0, 0, 0,
        2.75f, 0, 0, 0,             /* i0 */
        0, -1.5f, 0, 0,             /* i1 */
        0, 0, 0, 0 };
    /* fexp is base 2; fsubflr = a - floor(b) */
    UsseRun *run = run_dual(
        "vdual.vec3 fexp r0.x, pa0.xxx | fsubflr i2.xyz, i0.xxx, i1.yyy\n"
        "p0 vdual.vec3 fexp r1.x, pa0.xxx | frcp i3.xyz, i0.xxx\n", pa);

    ck_assert_float_eq(RF(run, 0, 0), 8.0f);
    ck_assert_float_eq(IF(run, 0, 8), 4.75f);
    ck_assert_float_eq(IF(run, 0, 9), 4.75f);
    ck_assert_float_eq(IF(run, 0, 10), 4.75f);
    ck_assert_uint_eq(usse_run_reg(run, 0, USSE_BANK_FPI, 11), 0);
    /* p0 is false: nothing written */
    ck_assert_uint_eq(R(run, 0, 1), 0);
    ck_assert_uint_eq(usse_run_reg(run, 0, USSE_BANK_FPI, 12), 0);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vdual_f16)
{
    static const float pa[20] = {
        0, 0, 0, 0, 0, 0, 0, 0,
        8, 0, 0, 0,                 /* i0 */
        0.5f, 1, 2, 0.25f,          /* i1 */
        0, 0, 0, 0 };
    /* r0:r1 = halves (1, 2, 3, 4); vdp with i1 = 0.5 + 2 + 6 + 1 = 9.5
       (F16 0x48c0) in both halves of r2; flog2(8) = 3 to i3 */
    UsseRun *run = run_dual(
        "limm r0, 0x40003c00\n"
        "limm r1, 0x44004200\n"
        "vdual.vec4.f16 vdp r2.xy, r0.xyzw, i1.xyzw | flog i3.xyzw, i0.xxxx\n",
        pa);

    ck_assert_uint_eq(R(run, 0, 2), 0x48c048c0);
    for (unsigned c = 0; c < 4; c++) {
        ck_assert_float_eq(IF(run, 0, 12 + c), 3.0f);
    }
    usse_run_free(run);
}
END_TEST

START_TEST(test_vtst_channels)
{
    static const float pa[16] = {
        1, -2, 0, 5, 0, 0, 0, 0,    /* pa0..3 tested against pa4..7 = 0 */
        0, 0, 7, 0, 7, 0, 0, 0 };   /* pa10 vs pa12 (vscomp) */
    static uint32_t buf[16];
    UsseRun *run;

    for (unsigned i = 0; i < 16; i++) {
        buf[i] = fbits(pa[i]);
    }
    run = run_pa(
        "vtst.fadd.sp.prec.all p0, r0, pa0, pa4\n"     /* not all > 0 */
        "vtst.fadd.sp.prec.any p1, r0, pa0, pa4\n"     /* some > 0 */
        "p1 limm r10, 0x7\n"
        "!p0 limm r11, 0x8\n"
        "vtst.fadd.sp.prec.pchan p0, r0, pa0, pa4\n"   /* p = 1 0 0 1 */
        /* channel z of pa8 against channel x of pa12: 7 - 7 == 0 */
        "vtst.fsub.z.prec.vscomp.chz p2, r0, pa8, pa12\n"
        "vtstmsk.fadd.sp.prec.mf32 r4, pa0, pa4\n"     /* 1 0 0 1 as F32 */
        "vtstmsk.fadd.sp.prec r12, pa0, pa4\n",        /* as U8 bytes */
        buf, 16);

    ck_assert_uint_eq(R(run, 0, 10), 7);
    ck_assert_uint_eq(R(run, 0, 11), 8);
    ck_assert(usse_run_pred(run, 0, 0));
    ck_assert(!usse_run_pred(run, 0, 1));
    ck_assert(usse_run_pred(run, 0, 2));
    ck_assert(usse_run_pred(run, 0, 3));
    ck_assert_uint_eq(R(run, 0, 4), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 5), 0);
    ck_assert_uint_eq(R(run, 0, 6), 0);
    ck_assert_uint_eq(R(run, 0, 7), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 12), 0xff0000ff);
    usse_run_free(run);
}
END_TEST

START_TEST(test_rlp)
{
    static const uint32_t pa[3] = { 0x80000001, 0x40000000, 0 };
    UsseRun *run = run_pa(
        "vtst.iadd32.z p1, r0, pa2, pa2\n"     /* p1 = 1 */
        "rlp r1, pa0, #1\n"                     /* 2 | 1; p1 = 1 */
        "rlp r2, pa1, #1\n"                     /* 0x80000000 | 1; p1 = 0 */
        "rlp r3, pa1, #1\n", pa, 3);            /* 0x80000000 | 0 */

    ck_assert_uint_eq(R(run, 0, 1), 3);
    ck_assert_uint_eq(R(run, 0, 2), 0x80000001);
    ck_assert_uint_eq(R(run, 0, 3), 0x80000000);
    ck_assert(!usse_run_pred(run, 0, 1));
    usse_run_free(run);
}
END_TEST

START_TEST(test_sop3)
{
    /* a lerp by src0's alpha t = 128/255: colour = src1 * (1 - t) +
       src2 * t; alpha = src1.a * t + src2.a * (1 - t) */
    static const uint32_t pa[3] = { 0x80000000, 0xff0000ff, 0x0000ff00 };
    UsseRun *run = run_pa(
        "sop3.add.add r0, pa0, pa1, pa2, csel1=6, cmod1=1, csel2=6, "
        "asel1=3\n"
        "sop3.sub.add r1, pa0, pa1, pa2, csel1=1, csel2=5, dmod=1\n",
        pa, 3);

    ck_assert_uint_eq(R(run, 0, 0), 0x8000807f);
    /* r: 1*1 - 0*0 = 1 -> dmod 0; g: 0 - 1*0 = 0 -> 255; b: 0 -> 255;
       alpha: asel1 0 -> A = 0: src2.a * 1 = 0 -> dmod 255 */
    ck_assert_uint_eq(R(run, 0, 1), 0xffffff00);
    usse_run_free(run);
}
END_TEST

START_TEST(test_indexed)
{
    static const uint32_t pa[8] = { 11, 22, 33, 44, 55, 66, 77, 88 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 8 };
    UsseRun *run = run_pa(
        "limm idx0, 0x3\n"
        "limm idx1, 0x5\n"
        "or r0, pa[idx0+1], #0\n"           /* pa4 */
        "or r[idx1+2], pa0, #0\n"           /* r7 */
        "vmov.f32 r10.xy, pa[idx0+2].xyzw\n", pa, 8);  /* pa5, pa6 */

    ck_assert_uint_eq(usse_run_reg(run, 0, USSE_BANK_INDEX, 0), 3);
    ck_assert_uint_eq(R(run, 0, 0), 55);
    ck_assert_uint_eq(R(run, 0, 7), 11);
    ck_assert_uint_eq(R(run, 0, 10), 66);
    ck_assert_uint_eq(R(run, 0, 11), 77);
    usse_run_free(run);

    run = ut_usse_run("limm idx0, 0xc8\nor r0, pa[idx0+0], #0\n", &ts,
                      USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_REGISTER);
    ck_assert_uint_eq(usse_run_result(run)->pc, 1);
    usse_run_free(run);
}
END_TEST

START_TEST(test_ima16_modes)
{
    static const uint32_t pa[10] = {
        0x00050003, 4, 16, 0x400, 0xfffe, 7, 0, 0x8000, 0xff02, 0 };
    /* two 16-bit lanes: src0's halves times src1 plus src2 */
    UsseRun *run = run_pa(
        "ima16 r0, pa0, pa1, pa2\n"                     /* 3, 5 * 4 + 16 */
        "ima16 r1, pa3, pa3, pa2, mode=1\n"             /* 1024 * 1024 */
        "ima16 r2, pa4, pa5, pa2, mode=2\n"             /* -2, 0 * 7 + 16 */
        "ima16 r3, pa4, pa3, pa7, mode=3\n"             /* - 32768 */
        "ima16 r4, pa0, pa8, pa2, f1=1, sel1h=1\n"      /* * 255 */
        "ima16 r5, pa0, pa8, pa2, mode=2, f1=1, sel1h=1\n"  /* * -1 */
        "ima16 r6, pa3, pa3, pa2, orshift=1\n"          /* >> 8 */
        "ima16.abs r7, pa4, pa5, pa9, mode=2\n", pa, 10);   /* |-14| */

    ck_assert_uint_eq(R(run, 0, 0), 0x0024001c);       /* 36, 28 */
    ck_assert_uint_eq(R(run, 0, 1), 0x0010ffff);       /* 16, sat */
    ck_assert_uint_eq(R(run, 0, 2), 0x00100002);       /* 16, 2 */
    ck_assert_uint_eq(R(run, 0, 3), 0x80008000);       /* both sat */
    ck_assert_uint_eq(R(run, 0, 4), 0x050b030d);       /* 1291, 781 */
    ck_assert_uint_eq(R(run, 0, 5), 0x000b000d);       /* 11, 13 */
    ck_assert_uint_eq(R(run, 0, 6), 0x00001000);       /* 0, 4096 */
    ck_assert_uint_eq(R(run, 0, 7), 0x0000000e);
    usse_run_free(run);
}
END_TEST

START_TEST(test_fpma)
{
    /* per byte src1 * src2 / 255 (rounded) + src0 (IMA8's selectors) */
    static const uint32_t pa[3] = { 0x80ff4000, 0xff808080, 0x01010101 };
    UsseRun *run = run_pa("fpma r0, pa0, pa1, pa2\n"
                          "fpma.sat r1, pa0, pa1, pa2\n", pa, 3);

    /* 1 + 0, 1 + 0x40, 1 + 0xff wraps, 1 + 0x80 */
    ck_assert_uint_eq(R(run, 0, 0), 0x81004101);
    ck_assert_uint_eq(R(run, 0, 1), 0x81ff4101);
    usse_run_free(run);
}
END_TEST

START_TEST(test_ima8_sel)
{
    static const uint32_t pa[3] = { 0x04030201, 0x10020304, 0x01010102 };
    UsseRun *run = run_pa(
        /* multiplicand 1 = src1.a (16); addend = src1.a */
        "ima8 r0, pa0, pa1, pa2, csel0=3, csel1=1, asel0=1\n"
        /* src1 * src2 - src0, wrapping */
        "ima8 r1, pa0.neg, pa1, pa2\n"
        /* sn = 1: src2 goes through (Vita3K) */
        "ima32 r2, pa0, pa1, pa2, sn=1\n", pa, 3);

    ck_assert_uint_eq(R(run, 0, 0), 0x20202030);
    ck_assert_uint_eq(R(run, 0, 1), 0x0cff0107);
    ck_assert_uint_eq(R(run, 0, 2), 0x01010102);
    usse_run_free(run);
}
END_TEST

static bool ctrl_reg(void *opaque, uint32_t reg, uint32_t *val)
{
    *val = reg * 2;
    return reg != 0xdead;
}

START_TEST(test_control)
{
    static const uint32_t pa[8] = { 1, 2, 3, 4, 5, 6, 21, 0xdead };
    UsseTestSetup ts = { .pa = pa, .pa_words = 8 };
    UsseRun *run;

    ts.mem = NULL;
    run = ut_usse_run(
        "limm r0, 0x5\n"
        "setl r0\n"
        "savl r1\n"                     /* the link: 5 */
        "smlsi s1inc=2\n"
        "imo\n"                         /* src1 base offset += 2 */
        "vmov.f32 r2.xy, pa0.xyzw\n"    /* pa4, pa5 */
        "smbo\n"
        "smlsi dinc=1, s0inc=1, s1inc=1, s2inc=1\n"
        "lock r0, r0, r0, r0\n"
        "wop r0, r0, r0, r0\n"
        "smoa\nsmr\nsetfc\n"
        "ptctrl r0, r0, r0, r0\n"
        "ldr r6, r0, pa6, r0\n"         /* no callback: 0 */
        "limm r7, 0x1\n", &ts, USSE_RUN_DONE);
    ck_assert_uint_eq(R(run, 0, 1), 5);
    ck_assert_uint_eq(R(run, 0, 2), 5);
    ck_assert_uint_eq(R(run, 0, 3), 6);
    ck_assert_uint_eq(R(run, 0, 6), 0);
    ck_assert_uint_eq(R(run, 0, 7), 1);
    usse_run_free(run);

    /* LDR through the embedder's global registers */
    {
        UsseProgram *prog = ut_usse_prog("ldr r6, r0, pa6, r0\n"
                                         "ldr r7, r0, pa7, r0\n");
        UsseEnv env = { .ctrl_reg = ctrl_reg };
        UsseLaunch l = { .instances = 1, .pa = pa, .pa_words = 8 };
        g_autofree char *err = NULL;

        run = usse_run_new(&env, prog, &l, &err);
        ck_assert_int_eq(usse_run_exec(run), USSE_RUN_TRAP);
        ck_assert_uint_eq(R(run, 0, 6), 42);
        ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_MEMORY);
        ck_assert_uint_eq(usse_run_result(run)->pc, 1);
        usse_run_free(run);
        usse_program_free(prog);
    }
}
END_TEST

START_TEST(test_illegal_groups)
{
    UsseTestSetup ts = { 0 };

    /* 22..24 and invalid VDUAL pairs trap ILLEGAL_INSN with the address */
    for (unsigned g = 22; g <= 24; g++) {
        g_autofree char *src = g_strdup_printf(
            "nop\n.word 0x%016" PRIx64 "\n", (uint64_t)g << 59);
        UsseRun *run = ut_usse_run(src, &ts, USSE_RUN_TRAP);
        ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_ILLEGAL);
        ck_assert_uint_eq(usse_run_result(run)->pc, 1);
        usse_run_free(run);
    }
    {
        UsseRun *run = ut_usse_run("nop\nnop\n.word 0x2800000000040000\n",
                                   &ts, USSE_RUN_TRAP);
        ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_ILLEGAL);
        ck_assert_uint_eq(usse_run_result(run)->pc, 2);
        usse_run_free(run);
    }
}
END_TEST

Suite *usse_exec_ext_suite(void)
{
    Suite *s = suite_create("usse_exec_ext");
    TCase *tc = tcase_create("insn");

    tcase_add_test(tc, test_const_rom);
    tcase_add_test(tc, test_vdual_vec4);
    tcase_add_test(tc, test_vdual_async);
    tcase_add_test(tc, test_vdual_scalar);
    tcase_add_test(tc, test_vdual_f16);
    tcase_add_test(tc, test_vtst_channels);
    tcase_add_test(tc, test_rlp);
    tcase_add_test(tc, test_sop3);
    tcase_add_test(tc, test_indexed);
    tcase_add_test(tc, test_ima16_modes);
    tcase_add_test(tc, test_fpma);
    tcase_add_test(tc, test_ima8_sel);
    tcase_add_test(tc, test_control);
    tcase_add_test(tc, test_illegal_groups);
    suite_add_tcase(s, tc);
    return s;
}
