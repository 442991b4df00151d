/*
 * Tesla lane arithmetic (target/tesla/fpu*.c): vectors worked out from the
 * envytools docs and hwtest reference model, special values, every
 * rounding mode on ties, cvt saturation edges, and random cross-checks of
 * the inline fast paths against the exact paths and against host IEEE
 * arithmetic where the two must agree.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/fpu.h"
#include <check.h>
#include <fenv.h>
#include <math.h>

#define Z TESLA_CC_Z
#define S TESLA_CC_S
#define C TESLA_CC_C
#define O TESLA_CC_O

static uint32_t fb(float f)
{
    return tesla_f32_bits(f);
}

static uint64_t db(double d)
{
    return tesla_f64_bits(d);
}

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* Random f32 bits, often special or near-special. */
static uint32_t rnd_f32(void)
{
    static const uint32_t fodder[] = {
        0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x7fffffff,
        0xff800bbb, 0x7f800000, 0xff800000, 0x3f800000, 0x3f800001,
        0xbf800000, 0x7f000000, 0x7effffff, 0x01000000, 0x00800001,
        0x00800000, 0x7f7fffff,
    };
    uint64_t r = rng();

    switch (r & 7) {
    case 0:
        return fodder[(r >> 8) % ARRAY_SIZE(fodder)];
    case 1:
        /* tiny: results near the flush threshold */
        return (uint32_t)(r >> 32) & 0x81ffffffu;
    case 2:
        /* moderate exponents, both signs */
        return ((uint32_t)(r >> 32) & 0x80ffffffu) | (0x3c000000u +
               ((uint32_t)(r >> 16) & 0x07800000u));
    default:
        return (uint32_t)(r >> 32);
    }
}

/* ---- integer ---- */

START_TEST(int_add)
{
    unsigned cc;

    /* add: carry out and zero */
    ck_assert_uint_eq(tesla_iadd32(0xffffffff, 1, TADDOP_ADD, 0, 0, &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    /* signed overflow */
    ck_assert_uint_eq(tesla_iadd32(0x7fffffff, 1, TADDOP_ADD, 0, 0, &cc),
                      0x80000000);
    ck_assert_uint_eq(cc, S | O);
    /* sat: positive overflow clamps to 0x7fffffff, O stays set */
    ck_assert_uint_eq(tesla_iadd32(0x7fffffff, 1, TADDOP_ADD, 0, 1, &cc),
                      0x7fffffff);
    ck_assert_uint_eq(cc, O);
    ck_assert_uint_eq(tesla_iadd32(0x80000000, 0xffffffff, TADDOP_ADD, 0, 1,
                                   &cc), 0x80000000);
    ck_assert_uint_eq(cc, S | C | O);
    /* sub: a + ~b + 1; 5 - 3 carries (no borrow) */
    ck_assert_uint_eq(tesla_iadd32(5, 3, TADDOP_SUB, 0, 0, &cc), 2);
    ck_assert_uint_eq(cc, C);
    ck_assert_uint_eq(tesla_iadd32(3, 5, TADDOP_SUB, 0, 0, &cc), 0xfffffffe);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_iadd32(3, 3, TADDOP_SUB, 0, 0, &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    /* subr: b - a */
    ck_assert_uint_eq(tesla_iadd32(3, 5, TADDOP_SUBR, 0, 0, &cc), 2);
    ck_assert_uint_eq(cc, C);
    /* sub overflow: 0x80000000 - 1 */
    ck_assert_uint_eq(tesla_iadd32(0x80000000, 1, TADDOP_SUB, 0, 0, &cc),
                      0x7fffffff);
    ck_assert_uint_eq(cc, C | O);
    ck_assert_uint_eq(tesla_iadd32(0x80000000, 1, TADDOP_SUB, 0, 1, &cc),
                      0x80000000);
    /* addc uses the carry in; other ops ignore it */
    ck_assert_uint_eq(tesla_iadd32(1, 2, TADDOP_ADDC, 1, 0, &cc), 4);
    ck_assert_uint_eq(tesla_iadd32(1, 2, TADDOP_ADD, 1, 0, &cc), 3);
    ck_assert_uint_eq(tesla_iadd32(0xffffffff, 0, TADDOP_ADDC, 1, 0, &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    /* 16-bit: high halves ignored, flags from bits 15/16 */
    ck_assert_uint_eq(tesla_iadd(0x1234ffff, 0xabcd0001, TADDOP_ADD, 0, 0, 0,
                                 &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    ck_assert_uint_eq(tesla_iadd(0x7fff, 1, TADDOP_ADD, 0, 1, 0, &cc),
                      0x7fff);
    ck_assert_uint_eq(cc, O);
    ck_assert_uint_eq(tesla_iadd(0x8000, 0x8000, TADDOP_ADD, 0, 1, 0, &cc),
                      0x8000);
    ck_assert_uint_eq(cc, S | C | O);
    /* NULL flags allowed */
    ck_assert_uint_eq(tesla_iadd32(1, 1, TADDOP_ADD, 0, 0, NULL), 2);
}
END_TEST

START_TEST(int_mul_mad_sad)
{
    unsigned cc;

    ck_assert_uint_eq(tesla_imul16(0xffff, 0xffff, false, false), 0xfffe0001);
    ck_assert_uint_eq(tesla_imul16(0xffff, 0xffff, true, true), 1);
    ck_assert_uint_eq(tesla_imul16(0x1ffff, 2, true, false), 0xfffffffe);
    ck_assert_uint_eq(tesla_imul24(0xffffff, 0xffffff, false, false),
                      0xfe000001);
    ck_assert_uint_eq(tesla_imul24(0xffffff, 0xffffff, false, true),
                      0xfffffe00);
    ck_assert_uint_eq(tesla_imul24(0xffffff, 2, true, false), 0xfffffffe);
    ck_assert_uint_eq(tesla_imul24(0xffffff, 2, true, true), 0xffffffff);
    /* bits 24-31 are ignored: (-2^23)^2 = 2^46, high part 2^30 */
    ck_assert_uint_eq(tesla_imul24(0x12800000, 0x800000, true, true),
                      0x40000000);
    /* mad: mul then a 32-bit add with flags */
    ck_assert_uint_eq(tesla_iadd32(tesla_imul16(3, 4, 0, 0), 5, TADDOP_SUB,
                                   0, 0, &cc), 7);
    ck_assert_uint_eq(cc, C);
    /* sad: |a - b| + c */
    ck_assert_uint_eq(tesla_sad(3, 10, 100, false, true, &cc), 107);
    ck_assert_uint_eq(tesla_sad(0xfffffffd, 2, 0, true, true, &cc), 5);
    ck_assert_uint_eq(tesla_sad(0xfffffffd, 2, 0, false, true, &cc),
                      0xfffffffb);
    ck_assert_uint_eq(cc, S);
    /* 16-bit sad: 16-bit difference, 32-bit add */
    ck_assert_uint_eq(tesla_sad(0x10000, 0xffff, 0xffff0001, false, false,
                                &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    ck_assert_uint_eq(tesla_sad(0xffff, 1, 0, true, false, &cc), 2);
}
END_TEST

START_TEST(int_set_minmax)
{
    unsigned cc;

    ck_assert_uint_eq(tesla_iset(1, 2, TCMP_L, false, true, &cc), 0xffffffff);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_iset(0xffffffff, 2, TCMP_L, false, true, &cc), 0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(tesla_iset(0xffffffff, 2, TCMP_L, true, true, &cc),
                      0xffffffff);
    ck_assert_uint_eq(tesla_iset(7, 7, TCMP_L | TCMP_G, true, true, &cc), 0);
    ck_assert_uint_eq(tesla_iset(7, 7, TCMP_E, true, true, &cc), 0xffffffff);
    /* 16-bit: only the low halves count, result 0xffff */
    ck_assert_uint_eq(tesla_iset(0x10005, 0x20005, TCMP_E, false, false, &cc),
                      0xffff);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_iset(0x8000, 1, TCMP_L, true, false, &cc),
                      0xffff);
    ck_assert_uint_eq(tesla_iminmax(0xffffffff, 1, true, true, true, &cc),
                      0xffffffff);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_iminmax(0xffffffff, 1, true, false, true, &cc), 1);
    ck_assert_uint_eq(tesla_iminmax(0xffffffff, 1, false, true, true, &cc), 1);
    ck_assert_uint_eq(tesla_iminmax(0x18000, 0x7fff, false, true, false, &cc),
                      0x7fff);
    ck_assert_uint_eq(tesla_iminmax(0x18000, 0x7fff, false, false, false,
                                    &cc), 0x8000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_iminmax(0, 5, true, false, true, &cc), 0);
    ck_assert_uint_eq(cc, Z);
}
END_TEST

START_TEST(int_shift)
{
    unsigned cc;

    /* shl: C is the last bit out, only for counts below the width */
    ck_assert_uint_eq(tesla_shl(0x80000001, 1, true, &cc), 2);
    ck_assert_uint_eq(cc, C | O);
    ck_assert_uint_eq(tesla_shl(1, 32, true, &cc), 0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(tesla_shl(2, 31, true, &cc), 0);
    ck_assert_uint_eq(cc, Z | C);
    ck_assert_uint_eq(tesla_shl(0x40000000, 1, true, &cc), 0x80000000);
    ck_assert_uint_eq(cc, S | O);
    ck_assert_uint_eq(tesla_shl(5, 0xffffffff, true, &cc), 0);
    ck_assert_uint_eq(tesla_shl(0xc001, 1, false, &cc), 0x8002);
    ck_assert_uint_eq(cc, S | C);
    ck_assert_uint_eq(tesla_shl(1, 0x10004, false, &cc), 0x10);
    /* shr */
    ck_assert_uint_eq(tesla_shr(0x80000003, 1, false, true, &cc), 0x40000001);
    ck_assert_uint_eq(cc, C | O);
    ck_assert_uint_eq(tesla_shr(0x80000003, 1, true, true, &cc), 0xc0000001);
    ck_assert_uint_eq(cc, S | C);
    ck_assert_uint_eq(tesla_shr(0x80000000, 40, true, true, &cc), 0xffffffff);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_shr(0x80000000, 40, false, true, &cc), 0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(tesla_shr(0x80000000, 0, false, true, &cc), 0x80000000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(tesla_shr(0x8000, 20, true, false, &cc), 0xffff);
    ck_assert_uint_eq(tesla_shr(0x8001, 1, true, false, &cc), 0xc000);
    ck_assert_uint_eq(cc, S | C);
}
END_TEST

/* ---- f32 ---- */

START_TEST(f32_add)
{
    static const unsigned modes[] = { TRND_RN, TRND_RM, TRND_RP, TRND_RZ };
    /* 1 + 2^-24: an exact tie; 1 + 3 * 2^-25: above the tie */
    static const uint32_t tie[4] = {
        0x3f800000, 0x3f800000, 0x3f800001, 0x3f800000
    };
    static const uint32_t above[4] = {
        0x3f800001, 0x3f800000, 0x3f800001, 0x3f800000
    };
    static const uint32_t negtie[4] = {
        0xbf800000, 0xbf800001, 0xbf800000, 0xbf800000
    };

    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(tesla_f32_add(0x3f800000, 0x33800000, modes[i]),
                          tie[i]);
        ck_assert_uint_eq(tesla_f32_add(0x3f800000, 0x33c00000, modes[i]),
                          above[i]);
        ck_assert_uint_eq(tesla_f32_add(0xbf800000, 0xb3800000, modes[i]),
                          negtie[i]);
        /* x - x is +0 in every mode (also rm); -0 + -0 = -0 */
        ck_assert_uint_eq(tesla_f32_add(0x3fc00000, 0xbfc00000, modes[i]), 0);
        ck_assert_uint_eq(tesla_f32_add(0x80000000, 0x80000000, modes[i]),
                          0x80000000);
        ck_assert_uint_eq(tesla_f32_add(0x80000000, 0, modes[i]), 0);
        /* denormal inputs are signed zeros */
        ck_assert_uint_eq(tesla_f32_add(0x80000001, 0x807fffff, modes[i]),
                          0x80000000);
        ck_assert_uint_eq(tesla_f32_add(0x00000001, 0x3f800000, modes[i]),
                          0x3f800000);
        /* a denormal difference is flushed, keeping its sign */
        ck_assert_uint_eq(tesla_f32_add(0x00800001, 0x80800000, modes[i]), 0);
        ck_assert_uint_eq(tesla_f32_add(0x80800001, 0x00800000, modes[i]),
                          0x80000000);
        /* NaN and Inf */
        ck_assert_uint_eq(tesla_f32_add(0x7f800000, 0xff800000, modes[i]),
                          TESLA_F32_NAN);
        ck_assert_uint_eq(tesla_f32_add(0xff812345, 0x3f800000, modes[i]),
                          TESLA_F32_NAN);
        ck_assert_uint_eq(tesla_f32_add(0xff800000, 0x7f7fffff, modes[i]),
                          0xff800000);
    }
    /* overflow: Inf when rounding away, max finite otherwise */
    ck_assert_uint_eq(tesla_f32_add(0x7f7fffff, 0x7f000000, TRND_RN),
                      0x7f800000);
    ck_assert_uint_eq(tesla_f32_add(0x7f7fffff, 0x7f000000, TRND_RZ),
                      0x7f7fffff);
    ck_assert_uint_eq(tesla_f32_add(0x7f7fffff, 0x7f000000, TRND_RM),
                      0x7f7fffff);
    ck_assert_uint_eq(tesla_f32_add(0xff7fffff, 0xff000000, TRND_RM),
                      0xff800000);
    ck_assert_uint_eq(tesla_f32_add(0xff7fffff, 0xff000000, TRND_RP),
                      0xff7fffff);
    /* tiny addend only decides directed rounding */
    ck_assert_uint_eq(tesla_f32_add(0x3f800000, 0x00800000, TRND_RP),
                      0x3f800001);
    ck_assert_uint_eq(tesla_f32_add(0x3f800000, 0x80800000, TRND_RZ),
                      0x3f7fffff);
    ck_assert_uint_eq(tesla_f32_add(0x3f800000, 0x80800000, TRND_RN),
                      0x3f800000);
    ck_assert_uint_eq(tesla_f32_flags(0x80000000), Z);
    ck_assert_uint_eq(tesla_f32_flags(0x807fffff), Z);
    ck_assert_uint_eq(tesla_f32_flags(TESLA_F32_NAN), Z | S);
    ck_assert_uint_eq(tesla_f32_flags(0xbf800000), S);
    ck_assert_uint_eq(tesla_f32_flags(0x3f800000), 0);
}
END_TEST

START_TEST(f32_mul)
{
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    ck_assert_uint_eq(tesla_f32_mul(0x3f800001, 0x3f800001, TRND_RN, 0),
                      0x3f800002);
    ck_assert_uint_eq(tesla_f32_mul(0x3f800001, 0x3f800001, TRND_RZ, 0),
                      0x3f800002);
    ck_assert_uint_eq(tesla_f32_mul(0x3f800001, 0x3f800001, TRND_RP, 0),
                      0x3f800003);
    ck_assert_uint_eq(tesla_f32_mul(0xbf800001, 0x3f800001, TRND_RM, 0),
                      0xbf800003);
    /* 2^-63 * 2^-63 = 2^-126 survives, 2^-64 * 2^-63 is flushed */
    ck_assert_uint_eq(tesla_f32_mul(0x20000000, 0x20000000, TRND_RN, 0),
                      0x00800000);
    ck_assert_uint_eq(tesla_f32_mul(0x1f800000, 0xa0000000, TRND_RN, 0),
                      0x80000000);
    /*
     * (1 - 2^-24) * 2^-126 = 0x1.fffffep-127 exactly: IEEE would round it
     * up to 2^-126 on the denormal grid, the hardware rounds to 24 bits
     * first and then flushes it.
     */
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffff, 0x00800000, TRND_RN, 0), 0);
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffff, 0x80800000, TRND_RP, 0),
                      0x80000000);
    /* ... but a product rounding up to 2^-126 does survive */
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffe2, 0x0080000f, TRND_RN, 0),
                      0x00800000);
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffe2, 0x8080000f, TRND_RN, 0),
                      0x80800000);
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffe2, 0x0080000f, TRND_RP, 0),
                      0x00800000);
    ck_assert_uint_eq(tesla_f32_mul(0x3f7fffe2, 0x0080000f, TRND_RZ, 0), 0);
    /* special values */
    ck_assert_uint_eq(tesla_f32_mul(0x7f800000, 0, TRND_RN, 0),
                      TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_mul(0x7f800000, 0x00000001, TRND_RN, 0),
                      TESLA_F32_NAN);     /* denormal is zero */
    ck_assert_uint_eq(tesla_f32_mul(0xff800000, 0x3f800000, TRND_RZ, 0),
                      0xff800000);
    ck_assert_uint_eq(tesla_f32_mul(0x80000000, 0x3f800000, TRND_RN, 0),
                      0x80000000);
    ck_assert_uint_eq(tesla_f32_mul(0x7f7fffff, 0x40000000, TRND_RZ, 0),
                      0x7f7fffff);
    ck_assert_uint_eq(tesla_f32_mul(0x7f7fffff, 0x40000000, TRND_RN, 0),
                      0x7f800000);
    /* zero wins: 0 * NaN and 0 * Inf are +0 */
    ck_assert_uint_eq(tesla_f32_mul(0, 0x7fffffff, TRND_RN,
                                    TESLA_FPM_ZERO_WINS), 0);
    ck_assert_uint_eq(tesla_f32_mul(0xff800000, 0x80000000, TRND_RN,
                                    TESLA_FPM_ZERO_WINS), 0);
    ck_assert_uint_eq(tesla_f32_mul(0x40000000, 0x40400000, TRND_RN,
                                    TESLA_FPM_ZERO_WINS), 0x40c00000);
}
END_TEST

START_TEST(f32_mad)
{
    /*
     * Not fused: (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 fused, but the
     * product is truncated to 1 + 2^-22 first.
     */
    ck_assert_uint_eq(tesla_f32_mad(0x3f800001, 0x3f800001, 0xbf800002, 0),
                      0);
    /* truncated product + 2^-24 is a tie, rounded to even */
    ck_assert_uint_eq(tesla_f32_mad(0x3f800001, 0x3f800001, 0x33800000, 0),
                      0x3f800002);
    /* the product is truncated even when negative */
    ck_assert_uint_eq(tesla_f32_mad(0xbf800001, 0x3f800001, 0xb3800000, 0),
                      0xbf800002);
    /* with c = 0 the product is rounded to nearest */
    ck_assert_uint_eq(tesla_f32_mad(0x3f800003, 0x3fffffff, 0, 0),
                      tesla_f32_mul(0x3f800003, 0x3fffffff, TRND_RN, 0));
    ck_assert_uint_eq(tesla_f32_mad(0x3f800003, 0x3fffffff, 0, 0),
                      0x40000002);
    /* specials */
    ck_assert_uint_eq(tesla_f32_mad(0x7f800000, 0x3f800000, 0xff800000, 0),
                      TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_mad(0x7f800000, 0x3f800000, 0x7f800000, 0),
                      0x7f800000);
    ck_assert_uint_eq(tesla_f32_mad(0, 0x7f800000, 0x3f800000, 0),
                      TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_mad(0x3f800000, 0x3f800000, 0xff800000, 0),
                      0xff800000);
    ck_assert_uint_eq(tesla_f32_mad(0x80000000, 0x3f800000, 0x80000000, 0),
                      0x80000000);
    ck_assert_uint_eq(tesla_f32_mad(0x3f800000, 0x3f800000, 0xbf800000, 0),
                      0);
    /* the product may leave the f32 range before the add */
    ck_assert_uint_eq(tesla_f32_mad(0x7f000000, 0x40800000, 0xff7fffff, 0),
                      0x7f800000);
    ck_assert_uint_eq(tesla_f32_mad(0x7f000000, 0x40000000, 0xff7fffff, 0),
                      0x73800000);
    ck_assert_uint_eq(tesla_f32_mad(0x00800000, 0x3f000000, 0x00800000, 0),
                      0x00c00000);
    /* zero wins: 0 * NaN + c = c */
    ck_assert_uint_eq(tesla_f32_mad(0, 0x7fffffff, 0x40000000,
                                    TESLA_FPM_ZERO_WINS), 0x40000000);
    ck_assert_uint_eq(tesla_f32_mad(0, 0x7fffffff, 0x80000000,
                                    TESLA_FPM_ZERO_WINS), 0);
    ck_assert_uint_eq(tesla_f32_mad(0, 0x7fffffff, 0x40000000, 0),
                      TESLA_F32_NAN);
}
END_TEST

START_TEST(f32_misc)
{
    /* sat */
    ck_assert_uint_eq(tesla_f32_sat(0x3fc00000, 0), TESLA_F32_ONE);
    ck_assert_uint_eq(tesla_f32_sat(0x7f800000, 0), TESLA_F32_ONE);
    ck_assert_uint_eq(tesla_f32_sat(0xbf000000, 0), 0);
    ck_assert_uint_eq(tesla_f32_sat(0x80000000, 0), 0);
    ck_assert_uint_eq(tesla_f32_sat(0xff800000, 0), 0);
    ck_assert_uint_eq(tesla_f32_sat(0x3f000000, 0), 0x3f000000);
    ck_assert_uint_eq(tesla_f32_sat(0x00000001, 0), 0);
    ck_assert_uint_eq(tesla_f32_sat(0xffc00000, 0), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_sat(0xffc00000, TESLA_FPM_SAT_NAN_ZERO), 0);
    /* min/max */
    ck_assert_uint_eq(tesla_f32_min(0x7fc00000, 0x40000000), 0x40000000);
    ck_assert_uint_eq(tesla_f32_max(0x40000000, 0xffc00000), 0x40000000);
    ck_assert_uint_eq(tesla_f32_max(0xffc00000, 0x7f812345), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_min(0x80000000, 0), 0x80000000);
    ck_assert_uint_eq(tesla_f32_max(0x80000000, 0), 0);
    ck_assert_uint_eq(tesla_f32_min(0xbf800000, 0xc0000000), 0xc0000000);
    ck_assert_uint_eq(tesla_f32_max(0xbf800000, 0xc0000000), 0xbf800000);
    ck_assert_uint_eq(tesla_f32_max(0x3f800000, 0x40000000), 0x40000000);
    ck_assert_uint_eq(tesla_f32_min(0xff800000, 0x3f800000), 0xff800000);
    ck_assert_uint_eq(tesla_f32_max(0x00000005, 0x80000000), 0);
    ck_assert_uint_eq(tesla_f32_min(0x7f800001, 0x00000005), 0);
    /* compare */
    ck_assert_uint_eq(tesla_f32_cmp(0x80000000, 0), TCMP_E);
    ck_assert_uint_eq(tesla_f32_cmp(0x00000001, 0x80000002), TCMP_E);
    ck_assert_uint_eq(tesla_f32_cmp(0xbf800000, 0x3f800000), TCMP_L);
    ck_assert_uint_eq(tesla_f32_cmp(0xc0000000, 0xbf800000), TCMP_L);
    ck_assert_uint_eq(tesla_f32_cmp(0x7f800000, 0x7f7fffff), TCMP_G);
    ck_assert_uint_eq(tesla_f32_cmp(0x7fffffff, 0x7fffffff), TCMP_U);
    ck_assert_uint_eq(tesla_f32_set(0x3f800000, 0x40000000, TCMP_L | TCMP_E),
                      0xffffffff);
    ck_assert_uint_eq(tesla_f32_set(0x7fc00000, 0x40000000, TCMP_L | TCMP_E |
                                    TCMP_G), 0);
    ck_assert_uint_eq(tesla_f32_set(0x7fc00000, 0x40000000, TCMP_U),
                      0xffffffff);
    /* slct */
    ck_assert_uint_eq(tesla_f32_slct(1, 2, 0x80000000), 1);
    ck_assert_uint_eq(tesla_f32_slct(1, 2, 0x80000001), 1);
    ck_assert_uint_eq(tesla_f32_slct(1, 2, 0xbf800000), 2);
    ck_assert_uint_eq(tesla_f32_slct(1, 2, 0x7fc00000), 2);
    ck_assert_uint_eq(tesla_f32_slct(1, 2, 0x7f800000), 1);
    ck_assert_uint_eq(tesla_slct_flags(0x80000000), Z);
    ck_assert_uint_eq(tesla_slct_flags(0xffffffff), S);
    ck_assert_uint_eq(tesla_slct_flags(0x7fffffff), 0);
    /* rint */
    ck_assert_uint_eq(tesla_f32_rint(0x40200000, TRND_RNI), 0x40000000);
    ck_assert_uint_eq(tesla_f32_rint(0x40600000, TRND_RNI), 0x40800000);
    ck_assert_uint_eq(tesla_f32_rint(0xbecccccd, TRND_RNI), 0x80000000);
    ck_assert_uint_eq(tesla_f32_rint(0xbfc00000, TRND_RMI), 0xc0000000);
    ck_assert_uint_eq(tesla_f32_rint(0xbfc00000, TRND_RPI), 0xbf800000);
    ck_assert_uint_eq(tesla_f32_rint(0x3fc00000, TRND_RZI), 0x3f800000);
    ck_assert_uint_eq(tesla_f32_rint(0x3e800000, TRND_RPI), 0x3f800000);
    ck_assert_uint_eq(tesla_f32_rint(0x00000001, TRND_RPI), 0);
    ck_assert_uint_eq(tesla_f32_rint(0x4b800001, TRND_RNI), 0x4b800001);
    ck_assert_uint_eq(tesla_f32_rint(0xff812345, TRND_RNI), TESLA_F32_NAN);
}
END_TEST

/* The inline fast paths must agree with the exact paths bit for bit. */
START_TEST(f32_fast_vs_exact)
{
    rng_state = 0x123456789abcdefull;
    for (int i = 0; i < 300000; i++) {
        uint32_t a = rnd_f32(), b = rnd_f32(), c = rnd_f32();

        ck_assert_msg(tesla_f32_add(a, b, TRND_RN) ==
                      tesla_f32_add_slow(a, b, TRND_RN),
                      "add %08x %08x", a, b);
        ck_assert_msg(tesla_f32_mul(a, b, TRND_RN, 0) ==
                      tesla_f32_mul_slow(a, b, TRND_RN, 0),
                      "mul %08x %08x", a, b);
        ck_assert_msg(tesla_f32_mad(a, b, c, 0) ==
                      tesla_f32_mad_slow(a, b, c, 0),
                      "mad %08x %08x %08x", a, b, c);
    }
}
END_TEST

/* The whole-warp fmad gives what the lane function gives, lane by lane. */
START_TEST(f32_mad_lanes)
{
    uint32_t a[TESLA_FPU_LANES], b[TESLA_FPU_LANES], c[TESLA_FPU_LANES];
    uint32_t d[TESLA_FPU_LANES];

    rng_state = 0x5eed5eed5eed5eedull;
    for (int i = 0; i < 5000; i++) {
        for (int l = 0; l < TESLA_FPU_LANES; l++) {
            a[l] = rnd_f32();
            b[l] = rnd_f32();
            c[l] = rnd_f32();
        }
        tesla_f32_mad_lanes(d, a, b, c, 0);
        for (int l = 0; l < TESLA_FPU_LANES; l++) {
            ck_assert_msg(d[l] == tesla_f32_mad(a[l], b[l], c[l], 0),
                          "mad %08x %08x %08x", a[l], b[l], c[l]);
        }
        /* in place, with zero-wins */
        memcpy(d, a, sizeof(d));
        tesla_f32_mad_lanes(a, a, b, c, TESLA_FPM_ZERO_WINS);
        for (int l = 0; l < TESLA_FPU_LANES; l++) {
            ck_assert_uint_eq(a[l], tesla_f32_mad(d[l], b[l], c[l],
                                                  TESLA_FPM_ZERO_WINS));
        }
    }
}
END_TEST

/*
 * Where the hardware and IEEE must agree (no NaN, results clear of the
 * flush range), the exact paths must match the host in every mode.
 */
static const int host_modes[4] = {
    FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO
};

START_TEST(f32_vs_host)
{
    rng_state = 0xfeedfacecafebeefull;
    for (int i = 0; i < 100000; i++) {
        uint32_t a = tesla_f32_ftz(rnd_f32()), b = tesla_f32_ftz(rnd_f32());
        unsigned m = i & 3;
        volatile float va = tesla_f32_host(a), vb = tesla_f32_host(b);
        volatile float rs, rp;
        uint32_t hs, hp;

        if (tesla_f32_isnan(a) || tesla_f32_isnan(b)) {
            continue;
        }
        fesetround(host_modes[m]);
        rs = va + vb;
        rp = va * vb;
        fesetround(FE_TONEAREST);
        hs = fb(rs);
        hp = fb(rp);
        if (!tesla_f32_isnan(hs) && fabsf(rs) >= 0x1p-125f && rs != 0) {
            ck_assert_msg(tesla_f32_add(a, b, m) == hs, "add %08x %08x m%u",
                          a, b, m);
        }
        if (!tesla_f32_isnan(hp) && fabsf(rp) >= 0x1p-125f && rp != 0) {
            ck_assert_msg(tesla_f32_mul(a, b, m, 0) == hp,
                          "mul %08x %08x m%u", a, b, m);
        }
    }
}
END_TEST

/* ---- SFU ---- */

static double ulp_err(uint32_t got, double want)
{
    float w = (float)want;
    double ulp = fabs((double)nextafterf(fabsf(w), INFINITY) - fabs(w));

    return fabs((double)tesla_f32_host(got) - want) / ulp;
}

START_TEST(sfu_special)
{
    ck_assert_uint_eq(tesla_sfu_rcp(0x3f800000), 0x3f800000);
    ck_assert_uint_eq(tesla_sfu_rcp(0x40000000), 0x3f000000);
    ck_assert_uint_eq(tesla_sfu_rcp(0xc0800000), 0xbe800000);
    ck_assert_uint_eq(tesla_sfu_rcp(0), 0x7f800000);
    ck_assert_uint_eq(tesla_sfu_rcp(0x80000001), 0xff800000);
    ck_assert_uint_eq(tesla_sfu_rcp(0xff800000), 0x80000000);
    ck_assert_uint_eq(tesla_sfu_rcp(0x7f812345), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_sfu_rcp(0x7e800000), 0x00800000);
    ck_assert_uint_eq(tesla_sfu_rcp(0x7f000000), 0);   /* denormal: flushed */
    ck_assert_uint_eq(tesla_sfu_rsqrt(0x40800000), 0x3f000000);
    ck_assert_uint_eq(tesla_sfu_rsqrt(0x3f800000), 0x3f800000);
    ck_assert_uint_eq(tesla_sfu_rsqrt(0x80000000), 0xff800000);
    ck_assert_uint_eq(tesla_sfu_rsqrt(0), 0x7f800000);
    ck_assert_uint_eq(tesla_sfu_rsqrt(0xbf800000), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_sfu_rsqrt(0x7f800000), 0);
    ck_assert_uint_eq(tesla_sfu_lg2(0x3f800000), 0);
    ck_assert_uint_eq(tesla_sfu_lg2(0x41000000), 0x40400000);
    /*
     * lg2(0.25) is not exactly -2: the table's lg2(1) is 4 units high and
     * the negative result is a one's complement (hwtest sweeps this range).
     */
    ck_assert_uint_eq(tesla_sfu_lg2(0x3e800000), 0xbfffffff);
    ck_assert_uint_eq(tesla_sfu_lg2(0), 0xff800000);
    ck_assert_uint_eq(tesla_sfu_lg2(0x807fffff), 0xff800000);
    ck_assert_uint_eq(tesla_sfu_lg2(0xbf800000), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_sfu_lg2(0x7f800000), 0x7f800000);
    /* pre: fixed point and the NaN/Inf encodings */
    ck_assert_uint_eq(tesla_sfu_preex2(0x3f800000), 0x00800000);
    ck_assert_uint_eq(tesla_sfu_preex2(0xc0200000), 0x81400000);
    ck_assert_uint_eq(tesla_sfu_preex2(0x43480000), 0x40800000);
    ck_assert_uint_eq(tesla_sfu_preex2(0x7fc00000), 0x40000000);
    ck_assert_uint_eq(tesla_sfu_preex2(0xff800000), 0xc0800000);
    ck_assert_uint_eq(tesla_sfu_preex2(0x80000001), 0x80000000);
    ck_assert_uint_eq(tesla_sfu_preex2(0x3f000001), 0x00400000);
    ck_assert_uint_eq(tesla_sfu_presin(0), 0);
    ck_assert_uint_eq(tesla_sfu_presin(0x80000000), 0x80000000);
    ck_assert_uint_eq(tesla_sfu_presin(0x7f800000), 0x40800000);
    ck_assert_uint_eq(tesla_sfu_presin(0xffc00000), 0xc0000000);
    /* pi/2 is one quarter turn: 1.0 in 2.23 fixed point, give or take */
    ck_assert_int_le(abs((int)tesla_sfu_presin(fb((float)M_PI_2)) -
                         0x800000), 2);
    /* ~2*pi wraps to ~0 (modulo 4 quarter turns; (float)2pi is below) */
    ck_assert_uint_ge(tesla_sfu_presin(fb((float)(2 * M_PI))), 0x1fffffb);
    ck_assert_uint_le(tesla_sfu_presin(fb((float)(2 * M_PI))), 0x1ffffff);
    ck_assert_uint_eq(tesla_sfu_presin(fb(-(float)M_PI)) >> 31, 1);
    /* ex2 */
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0)), 0x3f800000);
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0x80000000)),
                      0x3f800000);
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0x3f800000)),
                      0x40000000);
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0xbf800000)),
                      0x3f000000);
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0x42fe0000)),
                      0x7f000000);
    ck_assert_uint_eq(tesla_sfu_ex2(tesla_sfu_preex2(0xc3000000)), 0);
    ck_assert_uint_eq(tesla_sfu_ex2(0x40800000), 0x7f800000);
    ck_assert_uint_eq(tesla_sfu_ex2(0xc0800000), 0);
    ck_assert_uint_eq(tesla_sfu_ex2(0x40000000), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f32_sat(tesla_sfu_ex2(0x40800000), 0),
                      TESLA_F32_ONE);
    /* sin/cos */
    ck_assert_uint_eq(tesla_sfu_sin(tesla_sfu_presin(0)), 0);
    ck_assert_uint_eq(tesla_sfu_sin(0x40800000), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_sfu_cos(0xc0000000), TESLA_F32_NAN);
    ck_assert(ulp_err(tesla_sfu_cos(0), 1.0) <= 2);
    ck_assert(ulp_err(tesla_sfu_sin(0x00800000), 1.0) <= 2);
    ck_assert(ulp_err(tesla_sfu_sin(0x01800000), -1.0) <= 2);
    ck_assert(ulp_err(tesla_sfu_cos(0x01000000), -1.0) <= 2);
}
END_TEST

/*
 * The SFU approximations over every table slice: errors stay within the
 * hardware's known accuracy (a wrong table entry would show up here).
 */
START_TEST(sfu_accuracy)
{
    double worst_rcp = 0, worst_rsq = 0, worst_ex2 = 0, worst_lg2 = 0;
    double worst_sin = 0;

    for (uint32_t m = 0; m < 0x800000; m += 0x1f1) {
        uint32_t x = 0x3f800000 | m;
        double v = tesla_f32_host(x);

        worst_rcp = fmax(worst_rcp, ulp_err(tesla_sfu_rcp(x), 1.0 / v));
        worst_rsq = fmax(worst_rsq, ulp_err(tesla_sfu_rsqrt(x),
                                            1.0 / sqrt(v)));
        worst_rsq = fmax(worst_rsq, ulp_err(tesla_sfu_rsqrt(x + 0x800000),
                                            1.0 / sqrt(2 * v)));
        /* lg2 on [1, 2): absolute error */
        worst_lg2 = fmax(worst_lg2,
                         fabs(tesla_f32_host(tesla_sfu_lg2(x)) - log2(v)));
        /* ex2 on [0, 1) and [-1, 0) */
        v = m / 8388608.0;
        worst_ex2 = fmax(worst_ex2, ulp_err(tesla_sfu_ex2(m), exp2(v)));
        worst_ex2 = fmax(worst_ex2,
                         ulp_err(tesla_sfu_ex2(m | 0x80000000), exp2(-v)));
        /* sin/cos over all four quadrants: absolute error */
        for (uint32_t q = 0; q < 4; q++) {
            double t = (q + v) * M_PI_2;
            uint32_t in = (q << 23) | m;

            worst_sin = fmax(worst_sin,
                             fabs(tesla_f32_host(tesla_sfu_sin(in)) - sin(t)));
            worst_sin = fmax(worst_sin,
                             fabs(tesla_f32_host(tesla_sfu_cos(in)) - cos(t)));
        }
    }
    ck_assert_msg(worst_rcp <= 1.0, "rcp %g ulp", worst_rcp);
    ck_assert_msg(worst_rsq <= 2.0, "rsqrt %g ulp", worst_rsq);
    ck_assert_msg(worst_ex2 <= 2.0, "ex2 %g ulp", worst_ex2);
    ck_assert_msg(worst_lg2 <= 0x1p-21, "lg2 %g", worst_lg2);
    ck_assert_msg(worst_sin <= 0x1p-20, "sin %g", worst_sin);
}
END_TEST

/* ---- f16 and cvt ---- */

static uint64_t cvt(unsigned d, unsigned s, unsigned rnd, unsigned fl,
                    uint64_t v, unsigned *cc)
{
    return tesla_cvt(d, s, rnd, fl, v, cc);
}

START_TEST(cvt_f16)
{
    ck_assert_uint_eq(tesla_f16_to_f32(0x3c00), 0x3f800000);
    ck_assert_uint_eq(tesla_f16_to_f32(0x0001), 0x33800000);
    ck_assert_uint_eq(tesla_f16_to_f32(0x83ff), 0xb87fc000);
    ck_assert_uint_eq(tesla_f16_to_f32(0x7c00), 0x7f800000);
    ck_assert_uint_eq(tesla_f16_to_f32(0xfe00), TESLA_F32_NAN);
    ck_assert_uint_eq(tesla_f16_to_f32(0x8000), 0x80000000);
    ck_assert_uint_eq(tesla_f32_to_f16(0x3f800000, TRND_RN), 0x3c00);
    ck_assert_uint_eq(tesla_f32_to_f16(0x477ff000, TRND_RN), 0x7c00);
    ck_assert_uint_eq(tesla_f32_to_f16(0x477ff000, TRND_RZ), 0x7bff);
    ck_assert_uint_eq(tesla_f32_to_f16(0xc77ff000, TRND_RP), 0xfbff);
    ck_assert_uint_eq(tesla_f32_to_f16(0xc77ff000, TRND_RM), 0xfc00);
    ck_assert_uint_eq(tesla_f32_to_f16(0x33000000, TRND_RN), 0x0000);
    ck_assert_uint_eq(tesla_f32_to_f16(0x33400000, TRND_RN), 0x0001);
    ck_assert_uint_eq(tesla_f32_to_f16(0x33000000, TRND_RP), 0x0001);
    ck_assert_uint_eq(tesla_f32_to_f16(0x2f000000, TRND_RP), 0x0001);
    ck_assert_uint_eq(tesla_f32_to_f16(0x2e800000, TRND_RP), 0x0000);
    ck_assert_uint_eq(tesla_f32_to_f16(0x3f801000, TRND_RN), 0x3c00);
    ck_assert_uint_eq(tesla_f32_to_f16(0x3f803000, TRND_RN), 0x3c02);
    ck_assert_uint_eq(tesla_f32_to_f16(0x3f801000, TRND_RP), 0x3c01);
    ck_assert_uint_eq(tesla_f32_to_f16(0xbf801000, TRND_RM), 0xbc01);
    ck_assert_uint_eq(tesla_f32_to_f16(0x387fc000, TRND_RN), 0x03ff);
    ck_assert_uint_eq(tesla_f32_to_f16(0x7f812345, TRND_RN), TESLA_F16_NAN);
    ck_assert_uint_eq(tesla_f32_to_f16(0x00000001, TRND_RP), 0);
}
END_TEST

START_TEST(cvt_i2i)
{
    unsigned cc;

    ck_assert_uint_eq(cvt(TTYPE_U8, TTYPE_S32, 0, 0, 300, &cc), 0xff);
    ck_assert_uint_eq(cc, 0);
    ck_assert_uint_eq(cvt(TTYPE_U8, TTYPE_S32, 0, 0, (uint32_t)-5, &cc), 0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(cvt(TTYPE_S8, TTYPE_S32, 0, 0, (uint32_t)-200, &cc),
                      0xff80);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_S8, TTYPE_S32, 0, TESLA_CVT_DST32,
                          (uint32_t)-200, &cc), 0xffffff80);
    ck_assert_uint_eq(cvt(TTYPE_S8, TTYPE_U32, 0, 0, 200, &cc), 0x7f);
    ck_assert_uint_eq(cvt(TTYPE_S16, TTYPE_S32, 0, 0, 0x12345, &cc), 0x7fff);
    ck_assert_uint_eq(cvt(TTYPE_S16, TTYPE_S32, 0, 0, 0xfffe0000, &cc),
                      0x8000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_U16, TTYPE_U32, 0, 0, 0x10000, &cc), 0xffff);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_S16, 0, 0, 0x8000, &cc),
                      0xffff8000);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_U16, 0, 0, 0x8000, &cc), 0x8000);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_U8, 0, 0, 0x1ff, &cc), 0xff);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_S8, 0, 0, 0x80, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_S8, 0, 0, 0x80, &cc), 0xffffff80);
    /* neg of the most negative value saturates */
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_S32, 0, TESLA_CVT_NEG,
                          0x80000000, &cc), 0x7fffffff);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_S32, 0, TESLA_CVT_ABS,
                          (uint32_t)-7, &cc), 7);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_S32, 0, TESLA_CVT_ABS |
                          TESLA_CVT_NEG, 7, &cc), (uint32_t)-7);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_U32, 0, TESLA_CVT_NEG, 5, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_U32, 0, TESLA_CVT_NEG,
                          0xffffffff, &cc), 0x80000000);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_S32, 0, 0, 0xffffffff, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_U32, 0, 0, 0xffffffff, &cc),
                      0x7fffffff);
}
END_TEST

START_TEST(cvt_f2i)
{
    unsigned cc;

    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RNI, 0, 0x40200000, &cc),
                      2);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RNI, 0, 0x40600000, &cc),
                      4);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RNI, 0, 0xc0200000, &cc),
                      (uint32_t)-2);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RMI, 0, 0xc0200000, &cc),
                      (uint32_t)-3);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RPI, 0, 0x40066666, &cc),
                      3);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RZI, 0, 0xc039999a, &cc),
                      (uint32_t)-2);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RNI, 0, 0x7fc00000, &cc),
                      0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RNI, 0, 0xffc00000, &cc),
                      0);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RZI, 0, fb(3e9f), &cc),
                      0x7fffffff);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RZI, 0, fb(-3e9f), &cc),
                      0x80000000);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RZI, 0, 0x7f800000, &cc),
                      0x7fffffff);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RZI, 0, 0xcf000000, &cc),
                      0x80000000);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F32, TRND_RZI, 0, 0xbf800000, &cc),
                      0);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F32, TRND_RMI, 0, 0xbe800000, &cc),
                      0);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F32, TRND_RZI, 0, fb(5e9f), &cc),
                      0xffffffff);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F32, TRND_RZI, TESLA_CVT_NEG,
                          0xc0a00000, &cc), 5);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F32, TRND_RZI, TESLA_CVT_ABS,
                          0xc0a00000, &cc), 5);
    ck_assert_uint_eq(cvt(TTYPE_S16, TTYPE_F32, TRND_RNI, 0, fb(40000.f),
                          &cc), 0x7fff);
    ck_assert_uint_eq(cvt(TTYPE_S16, TTYPE_F32, TRND_RNI, 0, fb(-40000.f),
                          &cc), 0x8000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_S16, TTYPE_F32, TRND_RNI, 0, fb(-3.f), &cc),
                      0xfffd);
    ck_assert_uint_eq(cvt(TTYPE_U16, TTYPE_F32, TRND_RNI, 0, fb(70000.f),
                          &cc), 0xffff);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F16, TRND_RNI, 0, 0x4d00, &cc),
                      20);
    /* denormals are zero on the f32 unit */
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F32, TRND_RPI, 0, 0x00000001, &cc),
                      0);
}
END_TEST

START_TEST(cvt_i2f)
{
    unsigned cc;

    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, 0, 16777217, &cc),
                      0x4b800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, 0, 16777219, &cc),
                      0x4b800002);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RP, 0, 16777217, &cc),
                      0x4b800001);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, 0,
                          (uint32_t)-16777217, &cc), 0xcb800000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RM, 0,
                          (uint32_t)-16777217, &cc), 0xcb800001);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RP, 0,
                          (uint32_t)-16777217, &cc), 0xcb800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_U32, TRND_RZ, 0, 0xffffffff, &cc),
                      0x4f7fffff);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_U32, TRND_RN, 0, 0xffffffff, &cc),
                      0x4f800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, 0, 0x80000000, &cc),
                      0xcf000000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_U32, TRND_RN, TESLA_CVT_NEG, 0,
                          &cc), 0x80000000);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S8, TRND_RN, 0, 0xff, &cc),
                      0xbf800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_U16, TRND_RN, 0, 0xffff, &cc),
                      0x477fff00);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S16, TRND_RN, TESLA_CVT_ABS,
                          0x8000, &cc), 0x47000000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, TESLA_CVT_SAT, 5,
                          &cc), TESLA_F32_ONE);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S32, TRND_RN, TESLA_CVT_SAT,
                          (uint32_t)-5, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_S32, TRND_RN, 0, 2049, &cc),
                      0x6800);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_S32, TRND_RP, 0, 2049, &cc),
                      0x6801);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_U32, TRND_RN, 0, 70000, &cc),
                      0x7c00);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_U32, TRND_RZ, 0, 70000, &cc),
                      0x7bff);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_S16, TRND_RN, 0, 0xfffe, &cc),
                      0xc000);
    ck_assert_uint_eq(cc, S);
}
END_TEST

START_TEST(cvt_f2f)
{
    unsigned cc;

    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RNI, 0, 0x40200000, &cc),
                      0x40000000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RNI, 0, 0xbecccccd, &cc),
                      0x80000000);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RMI, 0, 0x3fc00000, &cc),
                      0x3f800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RPI, 0, 0xbfc00000, &cc),
                      0xbf800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_SAT,
                          0x3fc00000, &cc), TESLA_F32_ONE);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_SAT,
                          0xc0400000, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_SAT,
                          0xffc00000, &cc), TESLA_F32_NAN);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_SAT |
                          TESLA_CVT_SAT_NAN_ZERO, 0xffc00000, &cc), 0);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_NEG,
                          0x3f800000, &cc), 0xbf800000);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, TESLA_CVT_ABS,
                          0xbf800000, &cc), 0x3f800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, 0, 0x807fffff, &cc),
                      0x80000000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F32, TRND_RN, 0, 0xff812345, &cc),
                      TESLA_F32_NAN);
    ck_assert_uint_eq(cc, Z | S);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F16, TRND_RN, 0, 0x3555, &cc),
                      0x3eaaa000);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F32, TRND_RN, 0, 0x3eaaaaab, &cc),
                      0x3555);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F32, TRND_RZ, 0, 0x3f801fff, &cc),
                      0x3c00);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F32, TRND_RNI, 0, 0x40200000, &cc),
                      0x4000);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F32, TRND_RNI, 0, 0x4b7fffff, &cc),
                      0x7c00);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F32, TRND_RMI, 0, 0x4b7fffff, &cc),
                      0x7bff);
    ck_assert_uint_eq(cvt(TTYPE_F16, TTYPE_F16, TRND_RN, TESLA_CVT_NEG,
                          0x3c00, &cc), 0xbc00);
    ck_assert_uint_eq(cc, S);
}
END_TEST

START_TEST(cvt_wide)
{
    unsigned cc;

    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_S32, TRND_RN, 0, 0xffffffff, &cc),
                      0xbff0000000000000ull);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_U32, TRND_RN, 0, 0xffffffff, &cc),
                      db(4294967295.0));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_S64, TRND_RN, 0,
                          0x8000000000000001ull, &cc), db(-0x1p63));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_S64, TRND_RP, 0,
                          0x8000000000000001ull, &cc),
                      db(-0x1.fffffffffffffp62));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_U64, TRND_RZ, 0, ~0ull, &cc),
                      db(0x1.fffffffffffffp63));
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_U64, TRND_RN, 0, ~0ull, &cc),
                      0x5f800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_S64, TRND_RN, 0, 1ull << 40, &cc),
                      0x53800000);
    /* f2i: NaN -> most negative, with O */
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F64, TRND_RZI, 0,
                          0x7ff8000000000000ull, &cc), 0x80000000);
    ck_assert_uint_eq(cc, S | O);
    ck_assert_uint_eq(cvt(TTYPE_U64, TTYPE_F64, TRND_RZI, 0,
                          0xfff8000000000000ull, &cc), 1ull << 63);
    ck_assert_uint_eq(cvt(TTYPE_S64, TTYPE_F64, TRND_RZI, 0, db(1e300), &cc),
                      0x7fffffffffffffffull);
    ck_assert_uint_eq(cc, O);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F64, TRND_RZI, 0, db(-1.0), &cc),
                      0);
    ck_assert_uint_eq(cc, Z | O);
    ck_assert_uint_eq(cvt(TTYPE_U32, TTYPE_F64, TRND_RZI, 0, db(-0.5), &cc),
                      0);
    ck_assert_uint_eq(cc, Z);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F64, TRND_RNI, 0, db(-2.5), &cc),
                      (uint32_t)-2);
    ck_assert_uint_eq(cc, S);
    ck_assert_uint_eq(cvt(TTYPE_S64, TTYPE_F32, TRND_RMI, 0, 0xbfc00000, &cc),
                      (uint64_t)-2);
    ck_assert_uint_eq(cvt(TTYPE_S32, TTYPE_F64, TRND_RZI, 0, db(3e9), &cc),
                      0x7fffffff);
    ck_assert_uint_eq(cc, O);
    /* the f64 unit keeps f32 denormals */
    ck_assert_uint_eq(cvt(TTYPE_S64, TTYPE_F32, TRND_RPI, 0, 0x00000001, &cc),
                      1);
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F32, TRND_RN, 0, 0x00000001, &cc),
                      db(0x1p-149));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F32, TRND_RN, 0, 0x7fc00001, &cc),
                      0x7ff8000020000000ull);
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F32, TRND_RN, TESLA_CVT_NEG,
                          0x3f800000, &cc), db(-1.0));
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RN, 0, db(1.0 / 3),
                          &cc), 0x3eaaaaab);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RZ, 0, db(1.0 / 3),
                          &cc), 0x3eaaaaaa);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RN, 0, db(0x1p-140),
                          &cc), 0x00000200);
    ck_assert_uint_eq(cc, 0);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RN, 0, db(1e300), &cc),
                      0x7f800000);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RZ, 0, db(-1e300), &cc),
                      0xff7fffff);
    ck_assert_uint_eq(cvt(TTYPE_F32, TTYPE_F64, TRND_RN, 0,
                          0xfff0000000000001ull, &cc), 0xffc00000);
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F64, TRND_RNI, 0, db(2.5), &cc),
                      db(2.0));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F64, TRND_RMI, 0, db(-0.5), &cc),
                      db(-1.0));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F64, TRND_RPI, 0, db(-0.5), &cc),
                      db(-0.0));
    ck_assert_uint_eq(cvt(TTYPE_F64, TTYPE_F64, TRND_RN, TESLA_CVT_ABS,
                          0xfff4000000000000ull, &cc), 0xfffc000000000000ull);
}
END_TEST

/* ---- f64 ---- */

START_TEST(f64_special)
{
    uint64_t qn = 0x7ff8000000000001ull, sn = 0x7ff0000000000002ull;

    /* NaN propagation: add prefers b, fma b, c, a; quieted */
    ck_assert_uint_eq(tesla_f64_add(qn, sn, TRND_RN), 0x7ff8000000000002ull);
    ck_assert_uint_eq(tesla_f64_add(sn, db(1.0), TRND_RN),
                      0x7ff8000000000002ull);
    ck_assert_uint_eq(tesla_f64_fma(qn, db(1.0), sn, TRND_RN),
                      0x7ff8000000000002ull);
    ck_assert_uint_eq(tesla_f64_fma(qn, sn, db(1.0), TRND_RN),
                      0x7ff8000000000002ull);
    ck_assert_uint_eq(tesla_f64_mul(sn, qn, TRND_RN), qn);
    ck_assert_uint_eq(tesla_f64_add(db(INFINITY), db(-INFINITY), TRND_RN),
                      TESLA_F64_NAN);
    ck_assert_uint_eq(tesla_f64_mul(db(0), db(INFINITY), TRND_RN),
                      TESLA_F64_NAN);
    ck_assert_uint_eq(tesla_f64_fma(db(INFINITY), db(1), db(-INFINITY),
                                    TRND_RN), TESLA_F64_NAN);
    /* signed zeros */
    ck_assert_uint_eq(tesla_f64_add(db(1), db(-1), TRND_RN), 0);
    ck_assert_uint_eq(tesla_f64_add(db(1), db(-1), TRND_RM), db(-0.0));
    ck_assert_uint_eq(tesla_f64_mul(db(-0.0), db(5), TRND_RN), db(-0.0));
    ck_assert_uint_eq(tesla_f64_mul(db(-0.0), db(5), TRND_RM), db(-0.0));
    ck_assert_uint_eq(tesla_f64_mul(db(0.0), db(5), TRND_RM), 0);
    /* denormals are kept */
    ck_assert_uint_eq(tesla_f64_add(1, 1, TRND_RN), 2);
    ck_assert_uint_eq(tesla_f64_mul(db(0x1p-1000), db(0x1p-60), TRND_RN),
                      db(0x1p-1060));
    /* fused: (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104 */
    ck_assert_uint_eq(tesla_f64_fma(0x3ff0000000000001ull,
                                    0x3ff0000000000001ull,
                                    0xbff0000000000002ull, TRND_RN),
                      db(0x1p-104));
    /* min/max */
    ck_assert_uint_eq(tesla_f64_min(qn, db(2)), db(2));
    ck_assert_uint_eq(tesla_f64_max(db(2), qn), db(2));
    ck_assert_uint_eq(tesla_f64_max(qn, sn), 0x7ff8000000000002ull);
    ck_assert_uint_eq(tesla_f64_min(db(-0.0), 0), db(-0.0));
    ck_assert_uint_eq(tesla_f64_max(db(-0.0), 0), 0);
    ck_assert_uint_eq(tesla_f64_min(db(-3), db(-2)), db(-3));
    ck_assert_uint_eq(tesla_f64_max(1, db(-1)), 1);
    /* compare, set */
    ck_assert_uint_eq(tesla_f64_cmp(db(-0.0), 0), TCMP_E);
    ck_assert_uint_eq(tesla_f64_cmp(1, 0), TCMP_G);
    ck_assert_uint_eq(tesla_f64_cmp(qn, qn), TCMP_U);
    ck_assert_uint_eq(tesla_f64_set(db(-1), db(1), TCMP_L), 0xffffffff);
    ck_assert_uint_eq(tesla_f64_flags(db(-0.0)), Z);
    ck_assert_uint_eq(tesla_f64_flags(1), 0);
    ck_assert_uint_eq(tesla_f64_flags(qn), Z | S);
    ck_assert_uint_eq(tesla_f64_srcmod(db(1), false, true), db(-1));
    ck_assert_uint_eq(tesla_f64_srcmod(0xfff0000000000001ull, true, true),
                      0xfff8000000000001ull);
}
END_TEST

static uint64_t rnd_f64(void)
{
    uint64_t r = rng();

    switch (r & 3) {
    case 0:
        /* narrow exponent range: cancellation and ties */
        return (r & 0x800fffffffffffffull) | (0x3fe0000000000000ull +
               ((r >> 20) & 0x0030000000000000ull));
    case 1:
        return r & 0x801fffffffffffffull;     /* denormal and tiny */
    default:
        return r;
    }
}

/* f64 is IEEE: the host in each rounding mode is the reference. */
START_TEST(f64_vs_host)
{
    rng_state = 0x0ddba11c0ffee123ull;
    for (int i = 0; i < 200000; i++) {
        uint64_t a = rnd_f64(), b = rnd_f64(), c = rnd_f64();
        unsigned m = i & 3;
        volatile double va = tesla_f64_host(a), vb = tesla_f64_host(b);
        volatile double vc = tesla_f64_host(c);
        volatile double rs, rp, rf;

        if (tesla_f64_isnan(a) || tesla_f64_isnan(b) || tesla_f64_isnan(c)) {
            continue;
        }
        fesetround(host_modes[m]);
        rs = va + vb;
        rp = va * vb;
        rf = fma(va, vb, vc);
        fesetround(FE_TONEAREST);
        if (!isnan(rs)) {
            ck_assert_msg(tesla_f64_add(a, b, m) == db(rs),
                          "dadd %016" PRIx64 " %016" PRIx64 " m%u", a, b, m);
        }
        if (!isnan(rp)) {
            ck_assert_msg(tesla_f64_mul(a, b, m) == db(rp),
                          "dmul %016" PRIx64 " %016" PRIx64 " m%u", a, b, m);
        }
        if (!isnan(rf)) {
            ck_assert_msg(tesla_f64_fma(a, b, c, m) == db(rf),
                          "dfma %016" PRIx64 " %016" PRIx64 " %016" PRIx64
                          " m%u", a, b, c, m);
        }
    }
}
END_TEST

Suite *tesla_fpu_suite(void)
{
    Suite *s = suite_create("tesla-fpu");
    TCase *ti = tcase_create("int");
    TCase *tf = tcase_create("f32");
    TCase *ts = tcase_create("sfu");
    TCase *tc = tcase_create("cvt");
    TCase *td = tcase_create("f64");

    tcase_add_test(ti, int_add);
    tcase_add_test(ti, int_mul_mad_sad);
    tcase_add_test(ti, int_set_minmax);
    tcase_add_test(ti, int_shift);
    suite_add_tcase(s, ti);

    tcase_add_test(tf, f32_add);
    tcase_add_test(tf, f32_mul);
    tcase_add_test(tf, f32_mad);
    tcase_add_test(tf, f32_misc);
    tcase_add_test(tf, f32_fast_vs_exact);
    tcase_add_test(tf, f32_mad_lanes);
    tcase_add_test(tf, f32_vs_host);
    tcase_set_timeout(tf, 60);
    suite_add_tcase(s, tf);

    tcase_add_test(ts, sfu_special);
    tcase_add_test(ts, sfu_accuracy);
    tcase_set_timeout(ts, 60);
    suite_add_tcase(s, ts);

    tcase_add_test(tc, cvt_f16);
    tcase_add_test(tc, cvt_i2i);
    tcase_add_test(tc, cvt_f2i);
    tcase_add_test(tc, cvt_i2f);
    tcase_add_test(tc, cvt_f2f);
    tcase_add_test(tc, cvt_wide);
    suite_add_tcase(s, tc);

    tcase_add_test(td, f64_special);
    tcase_add_test(td, f64_vs_host);
    tcase_set_timeout(td, 60);
    suite_add_tcase(s, td);
    return s;
}
