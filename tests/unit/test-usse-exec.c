/*
 * USSE interpreter: per-instruction vectors (assembled with
 * usse_assemble, expected values worked out from the encoding tables and
 * format rules of sgx543.md), quads and DSX/DSY, predicates, repeats and
 * MOE, traps.  The corpus programs are in test-usse-exec-corpus.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "target/usse/exec.h"
#include "test-usse-exec.h"
#include <check.h>

UsseProgram *ut_usse_prog(const char *src)
{
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
    g_autofree char *err = NULL;

    if (!usse_assemble(src, words, &err)) {
        ck_abort_msg("assembly failed: %s\n%s", err, src);
    }
    return usse_program_new((uint64_t *)words->data, words->len);
}

UsseRun *ut_usse_run(const char *src, const UsseTestSetup *ts,
                     UsseRunStatus want)
{
    UsseProgram *prog = ut_usse_prog(src);
    UsseEnv env = { 0 };
    UsseLaunch l = { 0 };
    g_autofree char *err = NULL;
    UsseRun *run;
    UsseRunStatus st;

    env.stage = ts->stage;
    env.sa = (uint32_t *)ts->sa;
    env.sa_count = ts->sa ? USSE_MAX_REGS : 0;
    env.sample = ts->sample;
    env.mem = ts->mem;
    env.opaque = ts->opaque;
    env.insn_budget = ts->budget ? ts->budget : 100000;
    l.instances = ts->instances ? ts->instances : 1;
    l.pa = ts->pa;
    l.pa_words = ts->pa_words;
    l.helper = ts->helper;
    run = usse_run_new(&env, prog, &l, &err);
    ck_assert_msg(run, "usse_run_new: %s", err);
    st = usse_run_exec(run);
    ck_assert_msg(st == want, "status %d (want %d): %s at %u: %s", st, want,
                  usse_error_name(usse_run_result(run)->error),
                  usse_run_result(run)->pc, usse_run_result(run)->msg);
    /* the program lives as long as the run in these tests */
    ut_usse_keep(prog);
    return run;
}

static GPtrArray *kept;

void ut_usse_keep(UsseProgram *p)
{
    if (!kept) {
        kept = g_ptr_array_new_with_free_func(
            (GDestroyNotify)usse_program_free);
    }
    g_ptr_array_add(kept, p);
}

uint32_t fbits(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

float bitsf(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

#define R(run, i, n)    usse_run_reg(run, i, USSE_BANK_TEMP, n)
#define O(run, i, n)    usse_run_reg(run, i, USSE_BANK_OUTPUT, n)
#define PA(run, i, n)   usse_run_reg(run, i, USSE_BANK_PA, n)
#define RF(run, i, n)   bitsf(R(run, i, n))

/* One vertex with pa[] = the given floats. */
static UsseRun *run1f(const char *src, const float *pa, unsigned n)
{
    static uint32_t buf[USSE_MAX_REGS];
    UsseTestSetup ts = { .pa = buf, .pa_words = n };

    for (unsigned i = 0; i < n; i++) {
        buf[i] = fbits(pa[i]);
    }
    return ut_usse_run(src, &ts, USSE_RUN_DONE);
}

START_TEST(test_vmad2_order)
{
    /* dst = src0 * src1 + src2 (hardware: the vmad16 cases, see
       test-usse-hw.c); c12.x = 0.5 */
    static const float pa[8] = { 1, 2, 3, 4, 10, 20, 30, 40 };
    UsseRun *run = run1f("vmad.f32 r0.xy, pa0.xyzw, c12.xxxx, pa4.xyzw\n"
                         "vmad.f32 r2.xy, pa2.xyzw, c12.xxxx, pa6.xyzw\n",
                         pa, 8);

    ck_assert_float_eq(RF(run, 0, 0), 10.5f);
    ck_assert_float_eq(RF(run, 0, 1), 21.0f);
    ck_assert_float_eq(RF(run, 0, 2), 31.5f);
    ck_assert_float_eq(RF(run, 0, 3), 42.0f);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vnmad_f32)
{
    static const float pa[8] = { 1.5f, -2, 3, 4, 2, 2, -1, 0.25f };
    UsseRun *run = run1f(
        "vmul.f32 r0.xyzw, pa0.xyzw, pa4.xyzw\n"
        "vadd.f32 r4.xyzw, pa0.xyzw, pa4.xyzw\n"
        "vmin.f32 r8.xyzw, pa0.xyzw, pa4.xyzw\n"
        "vmax.f32 r12.xyzw, pa0.xyzw, pa4.xyzw\n"
        "vfrc.f32 r16.xy, pa0.xyzw, pa0.xyzw\n"
        "vmul.f32 r20.xyzw, pa0.wzyx, pa4.xyzw\n"
        "vmul.f32 r24.xy, pa0.xyzw.neg, c1.yyyy\n"
        "vmul.f32 r26.xy, pa0.xyzw.abs, c1.yyyy\n", pa, 8);

    ck_assert_float_eq(RF(run, 0, 0), 3.0f);
    ck_assert_float_eq(RF(run, 0, 1), -4.0f);
    ck_assert_float_eq(RF(run, 0, 2), -3.0f);
    ck_assert_float_eq(RF(run, 0, 3), 1.0f);
    ck_assert_float_eq(RF(run, 0, 4), 3.5f);
    ck_assert_float_eq(RF(run, 0, 5), 0.0f);
    ck_assert_float_eq(RF(run, 0, 6), 2.0f);
    ck_assert_float_eq(RF(run, 0, 7), 4.25f);
    ck_assert_float_eq(RF(run, 0, 8), 1.5f);
    ck_assert_float_eq(RF(run, 0, 9), -2.0f);
    ck_assert_float_eq(RF(run, 0, 10), -1.0f);
    ck_assert_float_eq(RF(run, 0, 11), 0.25f);
    ck_assert_float_eq(RF(run, 0, 12), 2.0f);
    ck_assert_float_eq(RF(run, 0, 15), 4.0f);
    ck_assert_float_eq(RF(run, 0, 16), 0.5f);
    ck_assert_float_eq(RF(run, 0, 17), 0.0f);
    /* wzyx * xyzw */
    ck_assert_float_eq(RF(run, 0, 20), 8.0f);
    ck_assert_float_eq(RF(run, 0, 21), 6.0f);
    ck_assert_float_eq(RF(run, 0, 22), 2.0f);
    ck_assert_float_eq(RF(run, 0, 23), 0.375f);
    ck_assert_float_eq(RF(run, 0, 24), -1.5f);
    ck_assert_float_eq(RF(run, 0, 25), 2.0f);
    ck_assert_float_eq(RF(run, 0, 26), 1.5f);
    ck_assert_float_eq(RF(run, 0, 27), 2.0f);
    /* the write mask: r18, r19 untouched */
    ck_assert_uint_eq(R(run, 0, 18), 0);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vnmad_f16)
{
    /* pa0 = (1.5, 2.0) halves, pa1 = (-3, 0.5); pa2 = (2, 2), pa3 = (4, 1) */
    static const uint32_t pa[4] = {
        0x40003e00, 0x3800c200, 0x40004000, 0x3c004400 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 4 };
    UsseRun *run = ut_usse_run("vmul.f16 r0.xyzw, pa0.xyzw, pa2.xyzw\n"
                               "vadd.f16 r2.xy, pa0.xyzw, pa2.xyzw\n",
                               &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 0x44004200);    /* 3.0, 4.0 */
    ck_assert_uint_eq(R(run, 0, 1), 0x3800ca00);    /* -12, 0.5 */
    ck_assert_uint_eq(R(run, 0, 2), 0x44004300);    /* 3.5, 4.0 */
    ck_assert_uint_eq(R(run, 0, 3), 0);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vcomp)
{
    static const float pa[4] = { 4, 8, 3, -0.5f };
    UsseRun *run = run1f("vrcp.f32.f32 r0.x, pa0.x\n"
                         "vrsq.f32.f32 r2.x, pa0.x\n"
                         "vlog.f32.f32 r4.x, pa0.y\n"
                         "vexp.f32.f32 r6.xy, pa0.z\n"
                         "vexp.f32.f32 r8.x, pa0.w\n"
                         "vrcp.f16.f32 r10.xyzw, pa0.x\n", pa, 4);

    ck_assert_float_eq(RF(run, 0, 0), 0.25f);
    ck_assert_float_eq(RF(run, 0, 2), 0.5f);
    ck_assert_float_eq(RF(run, 0, 4), 3.0f);        /* log2(8) */
    ck_assert_float_eq(RF(run, 0, 6), 8.0f);        /* 2^3 */
    ck_assert_float_eq(RF(run, 0, 7), 8.0f);
    ck_assert_float_eq_tol(RF(run, 0, 8), 0.70710678f, 1e-6);
    ck_assert_uint_eq(R(run, 0, 10), 0x34003400);   /* 0.25 as f16 x2 */
    ck_assert_uint_eq(R(run, 0, 11), 0x34003400);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vmov)
{
    static const uint32_t pa[8] = {
        0x11, 0x22, 0x33, 0x44, 0x7fc00001, 0xaabbccdd, 0xaabbccdd, 0 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 8 };
    UsseRun *run = ut_usse_run(
        "vmov.i32 r0.xyzw, pa0.xyzw\n"
        "vmov.f32 r4.xy, pa4.xyzw\n"            /* bit exact (NaN kept) */
        "vmov.i8 r6.xyzw, pa6.zwzw\n"           /* bytes z w z w */
        "vmov.f32 r8.xyzw, pa0.xyz1\n"
        "vmov.f32.rpt2 o4.xy, pa0.xyzw\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 0x11);
    ck_assert_uint_eq(R(run, 0, 3), 0x44);
    ck_assert_uint_eq(R(run, 0, 4), 0x7fc00001);
    ck_assert_uint_eq(R(run, 0, 5), 0xaabbccdd);
    ck_assert_uint_eq(R(run, 0, 6), 0xaabbaabb);
    ck_assert_uint_eq(R(run, 0, 10), 0x33);
    ck_assert_uint_eq(R(run, 0, 11), 0x3f800000);
    /* repeat: 64-bit units, 2 registers an iteration */
    ck_assert_uint_eq(O(run, 0, 4), 0x11);
    ck_assert_uint_eq(O(run, 0, 5), 0x22);
    ck_assert_uint_eq(O(run, 0, 6), 0x33);
    ck_assert_uint_eq(O(run, 0, 7), 0x44);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vmovc)
{
    static const float pa[12] = { -1, 0, 1, 0, 10, 20, 30, 40, 5, 6, 7, 8 };
    UsseRun *run = run1f("vmovc.f32.ltz r0.xy, pa0, pa4.xyzw, pa8\n"
                         "vmovc.f32.eqz r2.xy, pa0, pa4.xyzw, pa8\n"
                         "vmovc.f32.lez r4.xy, pa2, pa6.xyzw, pa10\n",
                         pa, 12);

    ck_assert_float_eq(RF(run, 0, 0), 10.0f);
    ck_assert_float_eq(RF(run, 0, 1), 6.0f);
    ck_assert_float_eq(RF(run, 0, 2), 5.0f);
    ck_assert_float_eq(RF(run, 0, 3), 20.0f);
    ck_assert_float_eq(RF(run, 0, 4), 7.0f);       /* 1 <= 0 false */
    ck_assert_float_eq(RF(run, 0, 5), 40.0f);      /* 0 <= 0 */
    usse_run_free(run);
}
END_TEST

START_TEST(test_vpck)
{
    static const float pa[8] = { 1.0f, 0.5f, 0.0f, 2.0f, -1.0f, 0.25f,
                                 -300.0f, 1.0f };
    UsseRun *run = run1f(
        "vpck.u8.f32.scale r0.xyzw, pa0.xyzw, pa2\n"   /* clamp to [0,1] */
        "vpck.f16.f32 r1.xyzw, pa0.xyzw, pa2\n"
        "vpck.s8.f32.scale r3.xyzw, pa4.xyzw, pa6\n"
        "vpck.u16.f32 r4.xy, pa4.zwzw, pa6\n"          /* sel z w */
        "vpck.f32.f32 r6.xyzw, pa0.wzyx, pa2\n"
        /* a packed source converts two channels (test-usse-hw.c) */
        "vpck.f32.u8.scale r10.xy, r0.xyzw, r0\n"
        "vpck.f32.u8.scale r12.xy, r0.zwzw, r0\n"
        "vpck.s16.f32 r14.xy, pa6.xyzw, pa6\n"
        "vpck.c10.f32 r15.xyz, pa0.xyzw, pa2\n", pa, 8);

    ck_assert_uint_eq(R(run, 0, 0), 0xff0080ff);
    ck_assert_uint_eq(R(run, 0, 1), 0x38003c00);
    ck_assert_uint_eq(R(run, 0, 2), 0x40000000);
    /* -1 -> 0x81, 0.25 -> 32, -300 clamps to -1 -> 0x81, 1 -> 0x7f */
    ck_assert_uint_eq(R(run, 0, 3), 0x7f812081);
    /* u16 without scale: -300 -> 0, 1 -> 1 */
    ck_assert_uint_eq(R(run, 0, 4), 0x00010000);
    ck_assert_float_eq(RF(run, 0, 6), 2.0f);
    ck_assert_float_eq(RF(run, 0, 7), 0.0f);
    ck_assert_float_eq(RF(run, 0, 8), 0.5f);
    ck_assert_float_eq(RF(run, 0, 9), 1.0f);
    ck_assert_float_eq(RF(run, 0, 10), 1.0f);
    ck_assert_float_eq_tol(RF(run, 0, 11), 128 / 255.0f, 1e-6);
    ck_assert_float_eq(RF(run, 0, 12), 0.0f);
    ck_assert_float_eq(RF(run, 0, 13), 1.0f);
    /* s16: -300, 1 */
    ck_assert_uint_eq(R(run, 0, 14), 0x0001fed4);
    /* c10: 1.0 = 255, 0.5 = 128 (127.5 to even), 0 */
    ck_assert_uint_eq(R(run, 0, 15), 255 | 128 << 10);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vtst_pred)
{
    /* float tests: operands in 64-bit units, channel x */
    static const float pa[8] = { 1.0f, 0, -3.0f, 0, 2.0f, 0, 2.0f, 0 };
    UsseRun *run = run1f(
        "vtst.fadd.sn.prec p0, r0, pa0, pa2\n"     /* 1 + -3 < 0: true */
        "vtst.fsub.z.prec p1, r0, pa4, pa6\n"      /* 2 - 2 == 0 */
        "vtst.fsub.sp.prec p2, r0, pa0, pa4\n"     /* 1 - 2 > 0: false */
        "vtst.fsub.sp.z.prec p3, r0, pa6, pa0\n"   /* 2 - 1 > 0 or == 0 */
        "p0 limm r1, 0x1\n"
        "!p0 limm r2, 0x1\n"
        "p1 limm r3, 0x1\n"
        "p2 limm r4, 0x1\n"
        "p3 limm r5, 0x1\n"
        "!p1 limm r6, 0x1\n", pa, 8);

    ck_assert(usse_run_pred(run, 0, 0));
    ck_assert(usse_run_pred(run, 0, 1));
    ck_assert(!usse_run_pred(run, 0, 2));
    ck_assert(usse_run_pred(run, 0, 3));
    ck_assert_uint_eq(R(run, 0, 1), 1);
    ck_assert_uint_eq(R(run, 0, 2), 0);
    ck_assert_uint_eq(R(run, 0, 3), 1);
    ck_assert_uint_eq(R(run, 0, 4), 0);
    ck_assert_uint_eq(R(run, 0, 5), 1);
    ck_assert_uint_eq(R(run, 0, 6), 0);
    usse_run_free(run);
}
END_TEST

START_TEST(test_vtst_int)
{
    static const uint32_t pa[4] = { 5, 7, 0xfffffffe, 2 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 4 };
    UsseRun *run = ut_usse_run(
        "vtst.isub32.sn p0, r0, pa0, pa1\n"        /* 5 - 7 < 0 */
        "vtst.isubu32.sn p1, r0, pa2, pa1\n"       /* unsigned: not < */
        "vtst.iadd32.z.wb p2, r1, pa2, pa3\n"      /* -2 + 2 == 0 */
        "vtst.and.nz p3, r0, pa0, pa3\n"           /* 5 & 2 == 0 */
        /* TESTMASK: four channels (pa0 - pa1 ... pa3 - pa4, pa4 = 0),
           U8 masks */
        "vtstmsk.isub32.sn r2, pa0, pa1\n"
        "vtstmsk.isub32.sp r3, pa0, pa1\n", &ts, USSE_RUN_DONE);

    ck_assert(usse_run_pred(run, 0, 0));
    ck_assert(!usse_run_pred(run, 0, 1));
    ck_assert(usse_run_pred(run, 0, 2));
    ck_assert(!usse_run_pred(run, 0, 3));
    ck_assert_uint_eq(R(run, 0, 1), 0);
    /* -2 < 0, 9, -4 < 0, 2: bytes x and z */
    ck_assert_uint_eq(R(run, 0, 2), 0x00ff00ff);
    ck_assert_uint_eq(R(run, 0, 3), 0xff00ff00);
    usse_run_free(run);
}
END_TEST

START_TEST(test_bitwise)
{
    static const uint32_t pa[4] = { 0xf0f0f0f0, 0x0ff00ff0, 0x80000001, 4 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 4 };
    UsseRun *run = ut_usse_run(
        "and r0, pa0, pa1\n"
        "or r1, pa0, pa1\n"
        "xor r2, pa0, pa1\n"
        "shl r3, pa2, #4\n"
        "shr r4, pa2, pa3\n"
        "asr r5, pa2, pa3\n"
        "rol r6, pa2, #1\n"
        "and r7, pa0, #127, sel=1\n"               /* 0xff */
        "and r8, pa0, #127.inv, sel=1\n"           /* & ~0xff */
        "or r9, pa3, #1, rot=8\n"                  /* | 0x100 */
        "limm r10, 0xdeadbeef\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 0x00f000f0);
    ck_assert_uint_eq(R(run, 0, 1), 0xfff0fff0);
    ck_assert_uint_eq(R(run, 0, 2), 0xff00ff00);
    ck_assert_uint_eq(R(run, 0, 3), 0x00000010);
    ck_assert_uint_eq(R(run, 0, 4), 0x08000000);
    ck_assert_uint_eq(R(run, 0, 5), 0xf8000000);
    ck_assert_uint_eq(R(run, 0, 6), 0x00000003);
    ck_assert_uint_eq(R(run, 0, 7), 0xf0);
    ck_assert_uint_eq(R(run, 0, 8), 0xf0f0f000);
    ck_assert_uint_eq(R(run, 0, 9), 0x104);
    ck_assert_uint_eq(R(run, 0, 10), 0xdeadbeef);
    usse_run_free(run);
}
END_TEST

START_TEST(test_ima)
{
    static const uint32_t pa[6] = {
        0x00030002, 0x00050004, 100, 0x80ff4000, 0x80ff8000, 0x01010101 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 6 };
    UsseRun *run = ut_usse_run(
        "ima32 r0, pa0, pa1, pa2\n"
        "ima32 r1, pa0, pa1, pa2.neg\n"
        "imae r2, pa0, pa1, pa2\n"                 /* 2 * 4 + 100 */
        "imae r3, pa0.hi, pa1.hi, pa2\n"           /* 3 * 5 + 100 */
        "ima16 r4, pa0, pa1, pa2\n"                /* (2, 3) * 4 + 100 */
        "ima8.sat r5, pa3, pa4, pa5\n"
        "sop2.add.add r6, pa3, pa4, csel1=1, csel2=1, asel1=1, "
        "asel2=1\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 0x00030002u * 0x00050004u + 100);
    ck_assert_uint_eq(R(run, 0, 1), 0x00030002u * 0x00050004u - 100);
    ck_assert_uint_eq(R(run, 0, 2), 108);
    ck_assert_uint_eq(R(run, 0, 3), 115);
    /* two 16-bit lanes: 108, 112 */
    ck_assert_uint_eq(R(run, 0, 4), 0x0070006c);
    /* bytes src1 * src2 + src0: 0 * 1 + 0, 0x80 * 1 + 0x40, 0xff + 0xff
       sat 255, alpha 0x80 + 0x80 sat 255 */
    ck_assert_uint_eq(R(run, 0, 5), 0xffffc000);
    /* sop2: src1 * src1 + src2 * src1 per byte, clamped; alpha
       src1.a * src1.a + src2.a * src1.a */
    ck_assert_uint_eq(R(run, 0, 6), 0x81ff3000);
    usse_run_free(run);
}
END_TEST

START_TEST(test_pred_vector)
{
    /* per-channel predicate: channel c runs if p[c]; ext-vector !p2 */
    static const uint32_t pa[4] = { 1, 0, 1, 0 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 4 };
    UsseRun *run = ut_usse_run(
        "vtst.iadd32.nz p0, r0, pa0, #0\n"
        "vtst.iadd32.nz p1, r0, pa1, #0\n"
        "vtst.iadd32.nz p2, r0, pa2, #0\n"
        "vtst.iadd32.nz p3, r0, pa3, #0\n"
        "pchan vmul.f32 r4.xyzw, c1.yyyy, c1.yyyy\n"
        "!p2 vmul.f32 r8.xy, c1.yyyy, c1.yyyy\n"
        "!p1 vmul.f32 r10.xy, c1.yyyy, c1.yyyy\n"
        "pchan vmul.f32 r12.xyzw, c1.yyyy, c1.yyyy\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 4), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 5), 0);
    ck_assert_uint_eq(R(run, 0, 6), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 7), 0);
    ck_assert_uint_eq(R(run, 0, 8), 0);
    ck_assert_uint_eq(R(run, 0, 10), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 12), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 13), 0);
    ck_assert_uint_eq(R(run, 0, 14), 0x3f800000);
    ck_assert_uint_eq(R(run, 0, 15), 0);
    usse_run_free(run);
}
END_TEST

START_TEST(test_secondary_redirect)
{
    /* the secondary program's r/o/pa operands address SA */
    uint32_t sa[USSE_MAX_REGS] = { 0 };
    UsseProgram *prog = ut_usse_prog(
        "limm r3, 0x3f800000\n"
        "vmad.f32 pa4.xy, pa2.xyzw, c12.xxxx, o2.xyzw\n");
    UsseEnv env = { .sa = sa, .sa_count = USSE_MAX_REGS };
    UsseLaunch l = { .secondary = true, .instances = 7 };
    g_autofree char *err = NULL;
    UsseRun *run;

    sa[2] = fbits(2.0f);
    run = usse_run_new(&env, prog, &l, &err);
    ck_assert_ptr_nonnull(run);
    ck_assert_uint_eq(usse_run_instances(run), 1);
    ck_assert_int_eq(usse_run_exec(run), USSE_RUN_DONE);
    /* sa4 = 0.5 * sa2 + sa2, sa5 = 0.5 * sa3 + sa3 */
    ck_assert_float_eq(bitsf(sa[4]), 3.0f);
    ck_assert_float_eq(bitsf(sa[5]), 1.5f);
    ck_assert_uint_eq(usse_run_reg(run, 0, USSE_BANK_SA, 4), sa[4]);
    usse_run_free(run);
    usse_program_free(prog);
}
END_TEST

START_TEST(test_more_formats)
{
    static const uint32_t pa[10] = {
        0x40003c00, 0x44004200,             /* f16 1 2 3 4 */
        0x44004000, 0x48004600,             /* f16 2 4 6 8 */
        255 | 510 << 10, 0,                 /* c10 1.0 2.0 */
        0, 0,                               /* 0.0f */
        0xc0a00000, 0x40400000 };           /* -5.0f, 3.0f */
    UsseTestSetup ts = { .pa = pa, .pa_words = 10 };
    UsseRun *run = ut_usse_run(
        "vmad.f16 r0.xyzw, pa0.xyzw, c12.xxxx, pa2.xyzw\n"
        "vrcp.f32.c10 r2.x, pa4.y\n"
        "vexp.c10.f32 r4.xyz, pa6.x\n"
        "vpck.o8.f32 r6.xy, pa8.xyzw, pa10\n"
        "vpck.f32.o8 r8.xy, r6.xyzw, r6\n", &ts, USSE_RUN_DONE);

    /* f16: 0.5 * pa0 + pa2 = 2.5 5 7.5 10 */
    ck_assert_uint_eq(R(run, 0, 0), 0x45004100);
    ck_assert_uint_eq(R(run, 0, 1), 0x49004780);
    ck_assert_float_eq(RF(run, 0, 2), 0.5f);
    /* 2^0 = 1.0 = 255 in the three c10 fields */
    ck_assert_uint_eq(R(run, 0, 4), 0x0ff3fcff);
    /* o8: value + 128 */
    ck_assert_uint_eq(R(run, 0, 6), 0x837b);
    ck_assert_float_eq(RF(run, 0, 8), -5.0f);
    ck_assert_float_eq(RF(run, 0, 9), 3.0f);
    usse_run_free(run);
}
END_TEST

START_TEST(test_more_int)
{
    static const uint32_t pa[8] = {
        0xfffe0003, 0x00040005, 0xffffff00, 7, 9, 0x80ff8000, 0 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 8 };
    UsseRun *run = ut_usse_run(
        "imae.signed r0, pa0.hi, pa1, pa2\n"       /* -2 * 5 - 256 */
        "imae r1, pa0.hi, pa1, pa2\n"              /* 65534 * 5 + ... */
        "imae.sat r2, pa0.hi, pa1, pa2\n"
        "imae r3, pa0, pa1, pa2.hi, s2type=1\n"    /* 3 * 5 + 0xffff */
        "limm r4, 0x11223344\n"
        "sopwm.add.add r4.xz, pa5, pa6, sel1=1\n"
        "vtstmsk.isub32.sn.mf16 r5, pa3, pa4\n"    /* 7-9 < 0, ... */
        "smbo s1off=2\n"
        "vmov.f32 r6.xy, pa0.xyzw\n"                /* reads pa4, pa5 */
        "smbo\n"
        "vmov.f32 r8.xy, pa0.xyzw\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), (uint32_t)-266);
    ck_assert_uint_eq(R(run, 0, 1), 0x0004fef6);
    ck_assert_uint_eq(R(run, 0, 2), 0xffffffff);
    ck_assert_uint_eq(R(run, 0, 3), 0x1000e);
    /* bytes x, z: src1 * src1 + 0; y, w kept */
    ck_assert_uint_eq(R(run, 0, 4), 0x11ff3300);
    /* F16 masks: x (7 - 9 < 0) 1.0, y (9 - pa5 > 0) 0; z, w went to
       r6, overwritten */
    ck_assert_uint_eq(R(run, 0, 5), 0x00003c00);
    ck_assert_uint_eq(R(run, 0, 6), 9);
    ck_assert_uint_eq(R(run, 0, 7), 0x80ff8000);
    ck_assert_uint_eq(R(run, 0, 8), 0xfffe0003);
    usse_run_free(run);
}
END_TEST

START_TEST(test_branches)
{
    UsseTestSetup ts = { 0 };
    UsseRun *run = ut_usse_run(
        "limm r0, 0x1\n"        /* 0 */
        "br 2\n"                /* 1: to 3 */
        "limm r0, 0x2\n"        /* 2: skipped */
        "ba.link 0x7\n"         /* 3: call 7 */
        "limm r2, 0x5\n"        /* 4 */
        "ba 0x9\n"              /* 5: to 9 */
        "limm r3, 0x6\n"        /* 6: skipped */
        "limm r1, 0x4\n"        /* 7 */
        "lapc\n"                /* 8: back to 4 */
        "limm r4, 0x7\n"        /* 9 */
        , &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 1);
    ck_assert_uint_eq(R(run, 0, 1), 4);
    ck_assert_uint_eq(R(run, 0, 2), 5);
    ck_assert_uint_eq(R(run, 0, 3), 0);
    ck_assert_uint_eq(R(run, 0, 4), 7);
    usse_run_free(run);
}
END_TEST

START_TEST(test_loop_and_end)
{
    /* count r0 up to 5 in a loop (backward branch), then end */
    static const uint32_t pa[2] = { 1, 5 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 2 };
    UsseRun *run = ut_usse_run(
        "ima32 r0, r0, #1, pa0\n"                  /* 0: r0 = r0 + 1 */
        "vtst.isub32.sn p0, r1, r0, pa1\n"         /* 1: r0 < 5 */
        "p0 br -2\n"                               /* 2 */
        "limm.end r2, 0x9\n"                       /* 3 */
        "limm r3, 0x9\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 5);
    ck_assert_uint_eq(R(run, 0, 2), 9);
    ck_assert_uint_eq(R(run, 0, 3), 0);             /* after end */
    ck_assert_uint_eq(usse_run_result(run)->insns, 5 * 3 + 1);
    usse_run_free(run);
}
END_TEST

START_TEST(test_repeat_moe)
{
    /* texture_v's attribute shuffle: swizzle-mode increments 2, 3, 0 */
    static const uint32_t pa[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 12 };
    UsseRun *run = ut_usse_run(
        "smlsi dinc=1, s0inc=1, s1inc=14, s2inc=1, s1swz=1\n"
        "vmov.f32.rpt3 o4.xy, pa4.xyzw\n"
        "smlsi dinc=1, s0inc=1, s1inc=1, s2inc=1\n"
        "and.rpt3 r0, pa0, #127, sel=1\n"
        "smlsi dinc=2, s0inc=1, s2inc=1\n"
        "or.rpt2 r10, pa1, #0\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(O(run, 0, 4), 8);
    ck_assert_uint_eq(O(run, 0, 5), 9);
    ck_assert_uint_eq(O(run, 0, 6), 10);
    ck_assert_uint_eq(O(run, 0, 7), 11);
    ck_assert_uint_eq(O(run, 0, 8), 4);
    ck_assert_uint_eq(O(run, 0, 9), 5);
    ck_assert_uint_eq(R(run, 0, 0), 0);
    ck_assert_uint_eq(R(run, 0, 1), 1);
    ck_assert_uint_eq(R(run, 0, 2), 2);
    /* dest +2, src1 +0 */
    ck_assert_uint_eq(R(run, 0, 10), 1);
    ck_assert_uint_eq(R(run, 0, 11), 0);
    ck_assert_uint_eq(R(run, 0, 12), 1);
    usse_run_free(run);
}
END_TEST

START_TEST(test_svec)
{
    static const float pa[8] = { 1, 2, 3, 4, 0.5f, 0.25f, 2, 1 };
    UsseRun *run = run1f(
        "vmov.f32 i0.xy, pa0.xyzw\n"
        "vmov.f32 i0.zw, pa0.xyzw\n"          /* channel c: pa0 + c */
        "vpck.f32.f32 i1.xyzw, pa4.xyzw, pa6\n"
        "vmad4.f32 i2.xyzw, i0.xyzw, pa4.xyzw, i1.xyzw\n"
        "vmov.f32 r0.xy, i2.xyzw\n"
        "vmov.f32 r2.xy, i2.zwzw\n"
        "vdp4.f32 r4.x, pa0.xyzw, i1.xyzw\n"
        "vdp3.f32 r6.x, pa0.xyzw, i1.xyz\n", pa, 8);

    ck_assert_float_eq(RF(run, 0, 0), 1.0f);        /* 1 * .5 + .5 */
    ck_assert_float_eq(RF(run, 0, 1), 0.75f);       /* 2 * .25 + .25 */
    ck_assert_float_eq(RF(run, 0, 2), 8.0f);        /* 3 * 2 + 2 */
    ck_assert_float_eq(RF(run, 0, 3), 5.0f);
    ck_assert_float_eq(RF(run, 0, 4), 0.5f + 0.5f + 6 + 4);
    ck_assert_float_eq(RF(run, 0, 6), 7.0f);
    usse_run_free(run);
}
END_TEST

START_TEST(test_quad_dsx)
{
    /* quad UL UR LL LR with pa0 = 1, 3, 10, 30 */
    static const uint32_t pa[4] = { 0x3f800000, 0x40400000, 0x41200000,
                                    0x41f00000 };
    UsseTestSetup ts = { .stage = USSE_STAGE_FRAGMENT, .instances = 4,
                         .pa = pa, .pa_words = 1 };
    UsseRun *run = ut_usse_run("vdsx.f32 r0.x, pa0.xyzw, pa0.xyzw\n"
                               "vdsy.f32 r2.x, pa0.xyzw, pa0.xyzw\n"
                               "vdsx.f32 pa0.x, pa0.xyzw, pa0.xyzw\n",
                               &ts, USSE_RUN_DONE);
    static const float dx[4] = { 2, 2, 20, 20 }, dy[4] = { 9, 27, 9, 27 };

    for (unsigned i = 0; i < 4; i++) {
        ck_assert_float_eq(RF(run, i, 0), dx[i]);
        ck_assert_float_eq(RF(run, i, 2), dy[i]);
        /* a dest that is the source: every member saw the old values */
        ck_assert_float_eq(bitsf(PA(run, i, 0)), dx[i]);
    }
    usse_run_free(run);
}
END_TEST

START_TEST(test_helper_skipinv)
{
    static const bool helper[4] = { false, true, false, false };
    UsseTestSetup ts = { .stage = USSE_STAGE_FRAGMENT, .instances = 4,
                         .helper = helper };
    UsseRun *run = ut_usse_run("limm.skipinv r0, 0x1\n"
                               "limm r1, 0x2\n", &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(R(run, 0, 0), 1);
    ck_assert_uint_eq(R(run, 1, 0), 0);
    ck_assert_uint_eq(R(run, 1, 1), 2);
    usse_run_free(run);
}
END_TEST

START_TEST(test_divergent_quad)
{
    /* instances branch differently and still all finish */
    static const uint32_t pa[4] = { 0, 1, 0, 1 };
    UsseTestSetup ts = { .stage = USSE_STAGE_FRAGMENT, .instances = 4,
                         .pa = pa, .pa_words = 1 };
    UsseRun *run = ut_usse_run("vtst.iadd32.z p0, r0, pa0, #0\n"
                               "p0 br 3\n"
                               "limm r1, 0x11\n"
                               "ba 0x5\n"
                               "limm r1, 0x22\n"
                               "limm r2, 0x33\n", &ts, USSE_RUN_DONE);

    for (unsigned i = 0; i < 4; i++) {
        uint32_t want = i & 1 ? 0x11 : 0x22;
        ck_assert_uint_eq(R(run, i, 1), want);
        ck_assert_uint_eq(R(run, i, 2), 0x33);
    }
    usse_run_free(run);
}
END_TEST

START_TEST(test_kill_depth)
{
    static const uint32_t pa[8] = { 0, 0, 1, 0, 0, 0, 1, 0 };
    UsseTestSetup ts = { .stage = USSE_STAGE_FRAGMENT, .instances = 4,
                         .pa = pa, .pa_words = 2 };
    UsseRun *run = ut_usse_run("vtst.iadd32.nz p0, r0, pa0, #0\n"
                               "limm r1, 0x3f000000\n"
                               "depthf r0, r1, r0, r0\n"
                               "p0 atst8 r0, r0, r0, r0\n"
                               "limm r2, 0x5\n", &ts, USSE_RUN_DONE);
    float d;

    /* pa0 of instance 1 is pa[2] = 1 (2 words each) */
    ck_assert(!usse_run_killed(run, 0));
    ck_assert(usse_run_killed(run, 1));
    ck_assert(!usse_run_killed(run, 2));
    ck_assert(usse_run_killed(run, 3));
    ck_assert_uint_eq(R(run, 0, 2), 5);
    ck_assert_uint_eq(R(run, 1, 2), 0);
    ck_assert(usse_run_depth(run, 0, &d));
    ck_assert_float_eq(d, 0.5f);
    usse_run_free(run);
}
END_TEST

static void tex_cb(void *opaque, const UsseSample *req, float out[4])
{
    unsigned *calls = opaque;

    (*calls)++;
    out[0] = req->coord[0];
    out[1] = req->coord[1];
    out[2] = bitsf(req->state[0]);
    out[3] = req->dx[0] + 10 * req->dy[1];
}

START_TEST(test_smp)
{
    uint32_t sa[USSE_MAX_REGS] = { fbits(0.75f), 2, 3, 4 };
    uint32_t pa[8] = { fbits(0.5f), fbits(0.25f), fbits(1.0f), fbits(0.25f),
                       fbits(0.5f), fbits(0.75f), fbits(1.0f),
                       fbits(0.75f) };
    unsigned calls = 0;
    UsseTestSetup ts = { .stage = USSE_STAGE_FRAGMENT, .instances = 4,
                         .pa = pa, .pa_words = 2, .sa = sa,
                         .sample = tex_cb, .opaque = &calls };
    UsseRun *run = ut_usse_run("smp.2d r0, pa0.f32, sa0, #0\n"
                               "smp.2d.f16 r4, pa0.f32, sa0, #0\n",
                               &ts, USSE_RUN_DONE);

    ck_assert_uint_eq(calls, 8);
    ck_assert_float_eq(RF(run, 0, 0), 0.5f);
    ck_assert_float_eq(RF(run, 0, 1), 0.25f);
    ck_assert_float_eq(RF(run, 0, 2), 0.75f);
    /* dx of u = 1.0 - 0.5, dy of v = 0.75 - 0.25 */
    ck_assert_float_eq(RF(run, 0, 3), 0.5f + 10 * 0.5f);
    ck_assert_uint_eq(R(run, 3, 4), 0x3a003c00);    /* 1.0, 0.75 */
    usse_run_free(run);

    /* without a texture unit: zeros */
    ts.sample = NULL;
    pa[0] = 0;
    run = ut_usse_run("limm r0, 0x1\nsmp.2d r0, pa0.f32, sa0, #0\n", &ts,
                      USSE_RUN_DONE);
    ck_assert_uint_eq(R(run, 0, 0), 0);
    usse_run_free(run);
}
END_TEST

static uint8_t test_mem[64];

static bool mem_cb(void *opaque, bool write, uint32_t addr, void *buf,
                   unsigned size)
{
    if (addr + size > sizeof(test_mem)) {
        return false;
    }
    if (write) {
        memcpy(test_mem + addr, buf, size);
    } else {
        memcpy(buf, test_mem + addr, size);
    }
    return true;
}

START_TEST(test_ldst)
{
    static const uint32_t pa[4] = { 8, 0x11223344, 0x55667788, 100 };
    UsseTestSetup ts = { .pa = pa, .pa_words = 4, .mem = mem_cb };
    UsseRun *run;

    memset(test_mem, 0, sizeof(test_mem));
    run = ut_usse_run("st.b32 r0, pa0, #1, pa1, count=1\n"  /* to 12, 16 */
                      "ld.b32 r0, pa0, #2, #0\n"            /* from 16 */
                      "ld.b16 r1, pa0, #3, #0\n"            /* from 14 */
                      "ld.b8 r2, pa0, #5, #0\n",            /* from 13 */
                      &ts, USSE_RUN_DONE);
    ck_assert_uint_eq(test_mem[12], 0x44);
    ck_assert_uint_eq(test_mem[16], 0x88);
    ck_assert_uint_eq(R(run, 0, 0), 0x55667788);
    ck_assert_uint_eq(R(run, 0, 1), 0x1122);
    ck_assert_uint_eq(R(run, 0, 2), 0x33);
    usse_run_free(run);

    run = ut_usse_run("ld.b32 r0, pa3, #0, #0\n", &ts, USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_MEMORY);
    usse_run_free(run);
}
END_TEST

START_TEST(test_traps)
{
    UsseTestSetup ts = { 0 };
    UsseRun *run;

    /* group 27 is reserved: trap with the address */
    run = ut_usse_run("nop\nnop\n.word 0xd800000000000000\n", &ts,
                      USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_ILLEGAL);
    ck_assert_uint_eq(usse_run_result(run)->pc, 2);
    ck_assert_str_eq(usse_error_name(USSE_ERR_ILLEGAL), "ILLEGAL_INSN");
    usse_run_free(run);

    /* an invalid field value (VCOMP type 3) */
    run = ut_usse_run("nop\n.word 0x3060000000000000\n", &ts,
                      USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_ILLEGAL);
    ck_assert_uint_eq(usse_run_result(run)->pc, 1);
    usse_run_free(run);

    /* register out of range through a repeat */
    run = ut_usse_run("and.rpt16 r120, r0, r0\n", &ts, USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_REGISTER);
    usse_run_free(run);

    /* write to the constant ROM */
    run = ut_usse_run("limm.nosched r0, 0x1\n.word 0xfc21000000000000\n",
                      &ts, USSE_RUN_DONE);
    usse_run_free(run);

    /* an endless loop runs out of budget */
    ts.budget = 1000;
    run = ut_usse_run("br 0\n", &ts, USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_TIMEOUT);
    ck_assert_uint_eq(usse_run_result(run)->insns, 1000);
    usse_run_free(run);
    ts.budget = 0;

    /* not modelled (SOP2 selector 6): a clear trap, not a wrong result */
    run = ut_usse_run("sop2.add.add r0, r1, r2, csel1=6\n", &ts,
                      USSE_RUN_TRAP);
    ck_assert_int_eq(usse_run_result(run)->error, USSE_ERR_UNSUPPORTED);
    usse_run_free(run);
}
END_TEST

START_TEST(test_launch_errors)
{
    UsseProgram *prog = ut_usse_prog("nop\n");
    UsseEnv env = { .stage = USSE_STAGE_FRAGMENT };
    UsseLaunch l = { .instances = 3 };
    g_autofree char *err = NULL;

    ck_assert_ptr_null(usse_run_new(&env, prog, &l, &err));
    ck_assert_ptr_nonnull(err);
    g_free(g_steal_pointer(&err));
    l.instances = 0;
    ck_assert_ptr_null(usse_run_new(&env, prog, &l, &err));
    usse_program_free(prog);
}
END_TEST

START_TEST(test_f16_conv)
{
    ck_assert_uint_eq(gemu_float_to_half(1.0f), 0x3c00);
    ck_assert_uint_eq(gemu_float_to_half(-2.0f), 0xc000);
    ck_assert_uint_eq(gemu_float_to_half(65504.0f), 0x7bff);
    ck_assert_uint_eq(gemu_float_to_half(1e6f), 0x7c00);
    ck_assert_uint_eq(gemu_float_to_half(5.9604645e-08f), 0x0001);
    /* 1 + 2^-11 is a tie: to even (1.0) */
    ck_assert_uint_eq(gemu_float_to_half(1.00048828125f), 0x3c00);
    ck_assert_uint_eq(gemu_float_to_half(1.00146484375f), 0x3c02);
    ck_assert_float_eq(gemu_half_to_float(0x3555), 0.333251953125f);
    ck_assert_float_eq(gemu_half_to_float(0x0001), 5.9604644775390625e-08f);
    ck_assert(isnan(gemu_half_to_float(0x7e00)));
}
END_TEST

Suite *usse_exec_suite(void)
{
    Suite *s = suite_create("usse_exec");
    TCase *tc = tcase_create("insn");

    tcase_add_test(tc, test_vmad2_order);
    tcase_add_test(tc, test_vnmad_f32);
    tcase_add_test(tc, test_vnmad_f16);
    tcase_add_test(tc, test_vcomp);
    tcase_add_test(tc, test_vmov);
    tcase_add_test(tc, test_vmovc);
    tcase_add_test(tc, test_vpck);
    tcase_add_test(tc, test_vtst_pred);
    tcase_add_test(tc, test_vtst_int);
    tcase_add_test(tc, test_bitwise);
    tcase_add_test(tc, test_ima);
    tcase_add_test(tc, test_pred_vector);
    tcase_add_test(tc, test_secondary_redirect);
    tcase_add_test(tc, test_more_formats);
    tcase_add_test(tc, test_more_int);
    tcase_add_test(tc, test_branches);
    tcase_add_test(tc, test_loop_and_end);
    tcase_add_test(tc, test_repeat_moe);
    tcase_add_test(tc, test_svec);
    tcase_add_test(tc, test_quad_dsx);
    tcase_add_test(tc, test_helper_skipinv);
    tcase_add_test(tc, test_divergent_quad);
    tcase_add_test(tc, test_kill_depth);
    tcase_add_test(tc, test_smp);
    tcase_add_test(tc, test_ldst);
    tcase_add_test(tc, test_traps);
    tcase_add_test(tc, test_launch_errors);
    tcase_add_test(tc, test_f16_conv);
    suite_add_tcase(s, tc);
    return s;
}
