/*
 * USSE rules read from programs run on a real PS Vita (the cases of
 * tests/data/usse-hw/, checked whole by tests/tools/usse-hw.sh): each
 * test states one rule on a small hand-made input, so that a change of
 * the rule fails here with its name.  docs/devel/usse-exec.md lists the
 * rules and the cases they come from.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "target/usse.h"
#include "target/usse/exec.h"
#include "test-usse-exec.h"
#include <check.h>

#define R(run, i, n)    usse_run_reg(run, i, USSE_BANK_TEMP, n)
#define PA(run, i, n)   usse_run_reg(run, i, USSE_BANK_PA, n)

static uint32_t h2(float lo, float hi)
{
    return gemu_float_to_half(lo) | (uint32_t)gemu_float_to_half(hi) << 16;
}

/*
 * VMAD2 is src0 * src1 + src2 (vmad16: `vmad.f16 pa0.xz, pa6, sa0, sa8`
 * gives pa6 * sa0 + sa8), F32 alike; on an F16 unified-store destination
 * mask bit x writes halves 0 and 1, bit z halves 2 and 3 (the same
 * instruction's .xz fills all four halves), bits y and w nothing.
 */
START_TEST(test_vmad2)
{
    static const uint32_t pa[10] = {
        0, 0, 0, 0,                         /* pa0..3: f16 a, b, c */
        0, 0,
        0x3fc00000, 0x40200000,             /* pa6, pa7: 1.5f, 2.5f */
        0x40000000, 0x40400000 };           /* pa8, pa9: 2.0f, 3.0f */
    uint32_t in[10];
    UsseTestSetup ts = { .pa = in, .pa_words = 10 };
    UsseRun *run;

    memcpy(in, pa, sizeof(in));
    in[0] = h2(1, 2);
    in[1] = h2(3, 4);
    in[2] = h2(2, 2);
    in[3] = h2(2, 2);
    in[4] = h2(0.5f, 0.5f);
    in[5] = h2(0.5f, 0.5f);
    run = ut_usse_run("vmad.f16 r0.xz, pa0.xyzw, pa2.xyzw, pa4.xyzw\n"
                      "vmad.f16 r2.yw, pa0.xyzw, pa2.xyzw, pa4.xyzw\n"
                      "vmad.f32 r4.xy, pa6.xyzw, pa8.xyzw, pa6.xyzw\n",
                      &ts, USSE_RUN_DONE);
    /* 2a + 0.5 in all four halves */
    ck_assert_uint_eq(R(run, 0, 0), h2(2.5f, 4.5f));
    ck_assert_uint_eq(R(run, 0, 1), h2(6.5f, 8.5f));
    /* y, w alone: nothing (UNVERIFIED, Vita3K's decoder) */
    ck_assert_uint_eq(R(run, 0, 2), 0);
    ck_assert_uint_eq(R(run, 0, 3), 0);
    /* 1.5 * 2 + 1.5, 2.5 * 3 + 2.5 */
    ck_assert_uint_eq(R(run, 0, 4), fbits(4.5f));
    ck_assert_uint_eq(R(run, 0, 5), fbits(10.0f));
    usse_run_free(run);
}
END_TEST

/*
 * VPCK from a packed (non-F32) source converts two channels:
 * `vpck.f16.u8 pa8.xyzw, pa4.xyzw, pa4` writes pa8 and leaves pa9
 * (vtstmsk_gt_mask0_reg); from F32 sources all four (p4gfrag1).
 */
START_TEST(test_vpck_packed_two)
{
    static const uint32_t pa[6] = {
        0x40302010,                         /* bytes 16 32 48 64 */
        0,
        0x3f800000, 0x40000000, 0x40400000, 0x40800000 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 6 };
    UsseRun *run = ut_usse_run("limm r1, 0x12345678\n"
                               "vpck.f16.u8 r0.xyzw, pa0.xyzw, pa0\n"
                               "vpck.f16.f32 r2.xyzw, pa2.xyzw, pa4\n",
                               &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), h2(16, 32));
    ck_assert_uint_eq(R(run, 0, 1), 0x12345678);
    ck_assert_uint_eq(R(run, 0, 2), h2(1, 2));
    ck_assert_uint_eq(R(run, 0, 3), h2(3, 4));
    usse_run_free(run);
}
END_TEST

/*
 * VMOVCU8 tests byte c of src0 for channel c and moves whole elements of
 * its data format: `vmovcu8.f32.nez pa8.x, pa4, c0.xxxx, pa24` writes 0
 * or pa24's word, chosen by pa4's byte 0 (vtstmsk_gt_mask0).
 */
START_TEST(test_vmovcu8)
{
    static const uint32_t pa[6] = {
        0x00ff00ff,                         /* bytes ff 00 ff 00 */
        0,
        0x3fc00000, 0x40200000,             /* src1: 1.5 2.5 */
        0x40e00000, 0x41000000 };           /* src2: 7 8 */
    UsseTestSetup ts = { .pa = pa, .pa_words = 6 };
    UsseRun *run = ut_usse_run("vmovcu8.f32.nez r0.xy, pa0, pa2.xyzw, pa4\n",
                               &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), fbits(1.5f));
    ck_assert_uint_eq(R(run, 0, 1), fbits(8.0f));
    usse_run_free(run);
}
END_TEST

/*
 * TESTMASK with a scalar operation (RCP, RSQ, LOG, EXP) computes it on
 * src1's channel x, and every channel gets that one outcome
 * (vtstmsk_log_mask2: i0.y follows pa16.x, not pa16.y).
 */
START_TEST(test_vtstmsk_scalar)
{
    static const uint32_t pa[8] = {
        0x40000000, 0x3f000000, 0x40800000, 0x3e800000,  /* 2 .5 4 .25 */
        0, 0, 0, 0 };
    static const uint32_t pb[8] = {
        0x3f000000, 0x40000000, 0x40800000, 0x3e800000,  /* .5 2 4 .25 */
        0, 0, 0, 0 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 8 };
    const char *src = "vtstmsk.flog.sp.nz.and.prec.mf32 r0, pa0, pa4\n";
    UsseRun *run = ut_usse_run(src, &ts, USSE_RUN_DONE);

    /* log2(2) = 1 > 0: all four, though log2(0.5) and log2(0.25) < 0 */
    for (unsigned c = 0; c < 4; c++) {
        ck_assert_uint_eq(R(run, 0, c), fbits(1.0f));
    }
    usse_run_free(run);
    ts.pa = pb;
    run = ut_usse_run(src, &ts, USSE_RUN_DONE);
    /* log2(0.5) < 0: none, though log2(2) and log2(4) > 0 */
    for (unsigned c = 0; c < 4; c++) {
        ck_assert_uint_eq(R(run, 0, c), 0);
    }
    usse_run_free(run);
}
END_TEST

/*
 * A vertex program that takes a derivative runs its vertices in groups
 * of four laid out as a fragment quad (0 1 above 2 3), and TEST's DSY
 * is the derivative of src2 (vtstmsk_dsy: the outcome follows pa20,
 * the second source).  A last group of fewer than four sees none.
 */
START_TEST(test_vtstmsk_dsy_vertex)
{
    /* per vertex: pa0 (src1) x, pa2 (src2) x */
    static const float s1[5] = { 3, 1, 1, 3, 9 }, s2[5] = { 1, 5, 3, 2, 9 };
    uint32_t pa[5 * 4] = { 0 };
    UsseTestSetup ts = { .stage = USSE_STAGE_VERTEX, .instances = 5,
                         .pa = pa, .pa_words = 4 };
    UsseRun *run;

    for (unsigned v = 0; v < 5; v++) {
        pa[v * 4] = fbits(s1[v]);
        pa[v * 4 + 2] = fbits(s2[v]);
    }
    run = ut_usse_run("vtstmsk.fdsy.sp.nz.and.prec r4, pa0, pa2\n",
                      &ts, USSE_RUN_DONE);
    /* dsy(src2): 3 - 1 > 0 for vertices 0 and 2, 2 - 5 < 0 for 1, 3
       (dsy(src1) would say the opposite); vertex 4: alone, 0 */
    ck_assert_uint_eq(R(run, 0, 4) & 0xff, 0xff);
    ck_assert_uint_eq(R(run, 2, 4) & 0xff, 0xff);
    ck_assert_uint_eq(R(run, 1, 4) & 0xff, 0);
    ck_assert_uint_eq(R(run, 3, 4) & 0xff, 0);
    ck_assert_uint_eq(R(run, 4, 4) & 0xff, 0);
    usse_run_free(run);
}
END_TEST

/* TEST/TESTMASK bit 54 is nosched, as in VPCK and VBW (every vtstmsk of
   the cases sets it; no effect on a result seen). */
START_TEST(test_vtst_nosched)
{
    g_autoptr(GString) s = g_string_new(NULL);

    usse_disasm_line(0, 0x78c08a82a053840aull, s);
    ck_assert_msg(strstr(s->str, ".nosched") && !strstr(s->str, "unk"),
                  "%s", s->str);
}
END_TEST

Suite *usse_hw_suite(void)
{
    Suite *s = suite_create("usse_hw");
    TCase *tc = tcase_create("rules");

    tcase_add_test(tc, test_vmad2);
    tcase_add_test(tc, test_vpck_packed_two);
    tcase_add_test(tc, test_vmovcu8);
    tcase_add_test(tc, test_vtstmsk_scalar);
    tcase_add_test(tc, test_vtstmsk_dsy_vertex);
    tcase_add_test(tc, test_vtst_nosched);
    suite_add_tcase(s, tc);
    return s;
}
