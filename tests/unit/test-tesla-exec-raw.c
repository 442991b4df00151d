/*
 * Warp interpreter fed with real instruction words: decode and execute
 * together (encodings as envyas/gemu-as produce them; the disassembly of
 * each word is in the comment next to it).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "test-tesla-exec.h"

static void load(TProg *p, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tp_word(p, w[i]);
    }
}

/* if/else with joinat/join, a brk loop, call with a divergent ret, an
   atomic, g[] stores: 64 threads in two warps. */
START_TEST(raw_program)
{
    static const uint32_t code[] = {
        0x10108005, 0x00000003,     /* 00 mov b32 $r1 0x10 */
        0x20000009, 0x04004780,     /* 08 add b32 $r2 $r0 $r1 */
        0x3002000d, 0xc4100780,     /* 10 shl b32 $r3 $r0 0x2 */
        0xa0009003, 0x00000000,     /* 18 joinat 0x48 */
        0x30010011, 0x640047c0,     /* 20 set $c0 $r4 l u32 $r0 $r1 */
        0x10008003, 0x00000080,     /* 28 (l $c0) bra 0x40 */
        0x40000015, 0x00010780,     /* 30 mul $r5 u24 $r0 $r0 */
        0x10009003, 0x00000780,     /* 38 bra 0x48 */
        0x20008015, 0x00000013,     /* 40 add b32 $r5 $r0 0x100 */
        0xf0000001, 0xe0000782,     /* 48 join nop */
        0xd0000615, 0xa0c00780,     /* 50 st b32 g0[$r3] $r5 */
        0x40010003, 0x00000000,     /* 58 breakaddr 0x80 */
        0x20038c19, 0x00000003,     /* 60 add b32 $r6 $r6 0x3 */
        0x20400c1d, 0x040007d0,     /* 68 sub b32 $c1 $r7 $r6 $r0 */
        0x50000003, 0x00001300,     /* 70 (ge $c1) break */
        0x1000c003, 0x00000780,     /* 78 bra 0x60 */
        0x20013003, 0x00000000,     /* 80 call 0x98 */
        0xd0881425, 0xe0c00780,     /* 88 ld add u32 $r9 g1[$r10] $r8 */
        0xf0000001, 0xe0000781,     /* 90 exit nop */
        0x10018021, 0x00000003,     /* 98 mov b32 $r8 0x1 */
        0x30000003, 0x00001200,     /* a0 (g $c1) ret */
        0x10028021, 0x00000003,     /* a8 mov b32 $r8 0x2 */
        0x30000003, 0x00000780,     /* b0 ret */
    };
    uint32_t g0[64] = { 0 }, g1[4] = { 0 };
    uint32_t sum = 0;
    TProg p;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 64;
    p.env.g[0].data = (uint8_t *)g0;
    p.env.g[0].size = sizeof(g0);
    p.env.g[1].data = (uint8_t *)g1;
    p.env.g[1].size = sizeof(g1);
    load(&p, code, ARRAY_SIZE(code));
    tp_run_ok(&p);
    for (unsigned t = 0; t < 64; t++) {
        unsigned r6 = 3 * MAX(1u, (t + 2) / 3);
        unsigned r8 = r6 > t ? 1 : 2;

        ck_assert_uint_eq(g0[t], t < 16 ? t + 0x100 : t * t);
        ck_assert_uint_eq(tp_reg(&p, t, 2), t + 16);
        ck_assert_uint_eq(tp_reg(&p, t, 6), r6);
        ck_assert_uint_eq(tp_reg(&p, t, 8), r8);
        sum += r8;
    }
    ck_assert_uint_eq(g1[0], sum);
    tp_done(&p);
}
END_TEST

/* Decode errors trap with the decoder's error and the address. */
START_TEST(raw_decode_error)
{
    TProg p;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    tp_word(&p, 0x10108005);    /* mov b32 $r1 0x10 */
    tp_word(&p, 0x00000003);
    tp_word(&p, 0x90000002);    /* trap (short control) */
    tp_word(&p, 0x00000000);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error,
                     TESLA_ERR_TRAP_INSTRUCTION);
    ck_assert_uint_eq(tesla_run_result(p.run)->pc, 8);
    ck_assert_uint_eq(tp_reg(&p, 0, 1), 0x10);
    tp_done(&p);

    /* a long instruction at an odd word address */
    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    tp_word(&p, 0x10008404);    /* mov b32 $r1 $r2 (short) */
    tp_word(&p, 0x10108005);    /* mov b32 $r1 0x10: misaligned */
    tp_word(&p, 0x00000003);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error,
                     TESLA_ERR_UNALIGNED_LONG_INSTRUCTION);
    ck_assert_uint_eq(tesla_run_result(p.run)->pc, 4);
    tp_done(&p);
}
END_TEST

/* Floats from real words: fmad, fset to $c, fslct, rcp. */
START_TEST(raw_float)
{
    static const uint32_t code[] = {
        0x10008005, 0x03f80003,     /* mov b32 $r1 0x3f800000 */
        0x10008009, 0x04000003,     /* mov b32 $r2 0x40000000 */
        0xe002040d, 0x00004780,     /* add f32 $r3 (mul $r2 $r2) $r1 */
        0xb0020211, 0x600047c0,     /* set $c0 $r4 l f32 $r1 $r2 */
        0xc0020215, 0x40010780,     /* slct b32 $r5 $r1 $r2 f32 $r4 */
        0x90000419, 0x00000780,     /* rcp f32 $r6 $r2 */
        0x1000801d, 0x0c040003,     /* mov b32 $r7 0xc0400000 */
        0xa0000e21, 0x8c064780,     /* cvt rzi s32 $r8 f32 $r7 */
        0xf0000001, 0xe0000781,     /* exit nop */
    };
    TProg p;

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    load(&p, code, ARRAY_SIZE(code));
    tp_run_ok(&p);
    ck_assert_uint_eq(tp_reg(&p, 0, 3), 0x40a00000);    /* 2 * 2 + 1 */
    ck_assert_uint_eq(tp_reg(&p, 0, 4), 0xffffffff);    /* 1 < 2 */
    ck_assert_uint_eq(tp_reg(&p, 0, 5), 0x40000000);    /* NaN: SRC2 */
    ck_assert_uint_eq(tp_reg(&p, 0, 6), 0x3f000000);
    ck_assert_uint_eq(tp_reg(&p, 0, 8), 0xfffffffd);
    tp_done(&p);
}
END_TEST

Suite *tesla_exec_raw_suite(void)
{
    Suite *s = suite_create("tesla_exec_raw");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, raw_program);
    tcase_add_test(tc, raw_decode_error);
    tcase_add_test(tc, raw_float);
    suite_add_tcase(s, tc);
    return s;
}
