/*
 * Tesla shader core lane arithmetic: pure functions on one lane's values.
 *
 * Everything here works on raw bit patterns (uint32_t for f32/f16/ints,
 * uint64_t for f64) and knows nothing of warps, registers or TeslaInsn;
 * the interpreter applies source modifiers, calls these per lane and writes
 * the result and, where the instruction has a CDST, the $c flags.
 *
 * The behaviour follows the envytools Tesla docs (isa.rst, int.rst, ...)
 * and, where those are silent, the hardware-verified reference model of
 * envytools hwtest (g80_fp, g80_int, g80_sfu, g80_fp64).  In short:
 * - f32: denormal inputs and results are flushed to zero of the same sign;
 *   results are rounded with an unbounded exponent and then flushed; every
 *   NaN result is the canonical NaN 0x7fffffff.
 * - fmad is not fused: the product is truncated (rounded toward zero) to
 *   24 bits when the addend is non-zero, then added and rounded to nearest.
 * - f64 (G200): IEEE with denormals; a NaN input comes out quieted, a new
 *   NaN is 0xfff8000000000000.
 *
 * The hot f32 operations are static inline with a cheap round-to-nearest
 * path on the host FPU; rarer cases go out of line (fpu.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_FPU_H
#define TARGET_TESLA_FPU_H

#include "gemu/osdep.h"
#include "target/tesla/insn.h"
#include <float.h>

/* $c register bits (isa.rst). */
#define TESLA_CC_Z  (1u << 0)   /* zero (float: zero or NaN) */
#define TESLA_CC_S  (1u << 1)   /* sign (float: negative or NaN) */
#define TESLA_CC_C  (1u << 2)   /* carry */
#define TESLA_CC_O  (1u << 3)   /* signed overflow */

#define TESLA_F32_NAN   0x7fffffffu             /* canonical f32 NaN */
#define TESLA_F32_ONE   0x3f800000u
#define TESLA_F16_NAN   0x7fffu                 /* canonical f16 NaN */
#define TESLA_F64_NAN   0xfff8000000000000ull   /* f64 NaN made from numbers */

/*
 * MP floating point configuration bits (per-MP register 0x60 in hwtest's
 * words).  gemu's default is 0: what the hardware does after reset.
 *  ZERO_WINS: fmul/fmad treat 0 * anything (NaN, Inf) as 0 (D3D9 rule).
 *  SAT_NAN_ZERO: sat turns NaN into 0 instead of keeping it (G200+).
 */
#define TESLA_FPM_ZERO_WINS     (1u << 0)
#define TESLA_FPM_SAT_NAN_ZERO  (1u << 1)

/* The fast paths need the host to evaluate float/double in their own type. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#define TESLA_FPU_HOST_FAST 0
#else
#define TESLA_FPU_HOST_FAST 1
#endif

/* ---- bit helpers ---- */

static inline float tesla_f32_host(uint32_t x)
{
    float f;

    memcpy(&f, &x, sizeof(f));
    return f;
}

static inline uint32_t tesla_f32_bits(float f)
{
    uint32_t x;

    memcpy(&x, &f, sizeof(x));
    return x;
}

static inline double tesla_f64_host(uint64_t x)
{
    double d;

    memcpy(&d, &x, sizeof(d));
    return d;
}

static inline uint64_t tesla_f64_bits(double d)
{
    uint64_t x;

    memcpy(&x, &d, sizeof(x));
    return x;
}

static inline bool tesla_f32_isnan(uint32_t x)
{
    return (x & 0x7fffffffu) > 0x7f800000u;
}

static inline bool tesla_f64_isnan(uint64_t x)
{
    return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

/* Denormal -> zero of the same sign; everything else unchanged. */
static inline uint32_t tesla_f32_ftz(uint32_t x)
{
    /* written as a mask so that lane loops vectorise well */
    return x & ~(-(uint32_t)!(x & 0x7f800000u) & 0x7fffffffu);
}

/* Source modifiers on f32 bits: abs clears the sign, then neg flips it. */
static inline uint32_t tesla_f32_absneg(uint32_t x, bool abs, bool neg)
{
    if (abs) {
        x &= 0x7fffffffu;
    }
    return neg ? x ^ 0x80000000u : x;
}

/* ---- flags ---- */

/* $c of an integer result of 32 or 16 bits: Z, S; C = O = 0. */
static inline unsigned tesla_flags32(uint32_t x)
{
    return (x == 0 ? TESLA_CC_Z : 0) | ((x >> 31) ? TESLA_CC_S : 0);
}

static inline unsigned tesla_flags16(uint32_t x)
{
    x &= 0xffff;
    return (x == 0 ? TESLA_CC_Z : 0) | ((x >> 15) ? TESLA_CC_S : 0);
}

/*
 * $c of an f32 result: Z for +-0 (and denormals), S for negative, both for
 * NaN.  Used by fadd/fmul/fmad/fmin/fmax/cvt to float.
 */
static inline unsigned tesla_f32_flags(uint32_t x)
{
    if (tesla_f32_isnan(x)) {
        return TESLA_CC_Z | TESLA_CC_S;
    }
    x = tesla_f32_ftz(x);
    if (!(x & 0x7fffffffu)) {
        return TESLA_CC_Z;
    }
    return (x >> 31) ? TESLA_CC_S : 0;
}

/* $c of an f64 result (no denormal flushing). */
static inline unsigned tesla_f64_flags(uint64_t x)
{
    if (tesla_f64_isnan(x)) {
        return TESLA_CC_Z | TESLA_CC_S;
    }
    if (!(x & 0x7fffffffffffffffull)) {
        return TESLA_CC_Z;
    }
    return (x >> 63) ? TESLA_CC_S : 0;
}

/* $c of fslct's result: Z for 0 or 0x80000000, else S from bit 31. */
static inline unsigned tesla_slct_flags(uint32_t x)
{
    if (!(x & 0x7fffffffu)) {
        return TESLA_CC_Z;
    }
    return (x >> 31) ? TESLA_CC_S : 0;
}

/* ---- f32 arithmetic ---- */

/* Out-of-line exact paths (fpu.c); any rounding mode TRND_RN..TRND_RZ. */
uint32_t tesla_f32_add_slow(uint32_t a, uint32_t b, unsigned rnd);
uint32_t tesla_f32_mul_slow(uint32_t a, uint32_t b, unsigned rnd,
                            unsigned fpm);
uint32_t tesla_f32_mad_slow(uint32_t a, uint32_t b, uint32_t c,
                            unsigned fpm);

/* fadd: a + b, rnd is TRND_RN, TRND_RM, TRND_RP or TRND_RZ. */
static inline uint32_t tesla_f32_add(uint32_t a, uint32_t b, unsigned rnd)
{
    if (TESLA_FPU_HOST_FAST && likely(rnd == TRND_RN)) {
        /*
         * Sums of flushed inputs below 2^-126 are exact, and above it IEEE
         * rounding equals rounding with an unbounded exponent, so the host
         * sum followed by a flush is the hardware result.
         */
        float r = tesla_f32_host(tesla_f32_ftz(a)) +
                  tesla_f32_host(tesla_f32_ftz(b));
        uint32_t x = tesla_f32_ftz(tesla_f32_bits(r));

        return tesla_f32_isnan(x) ? TESLA_F32_NAN : x;
    }
    return tesla_f32_add_slow(a, b, rnd);
}

/* fmul: a * b, rnd as for add; fpm: TESLA_FPM_ZERO_WINS. */
static inline uint32_t tesla_f32_mul(uint32_t a, uint32_t b, unsigned rnd,
                                     unsigned fpm)
{
    if (TESLA_FPU_HOST_FAST && likely(rnd == TRND_RN && !fpm)) {
        float x = tesla_f32_host(tesla_f32_ftz(a));
        float y = tesla_f32_host(tesla_f32_ftz(b));
        uint32_t r = tesla_f32_bits(x * y);
        /*
         * Products at or below 2^-126: the hardware rounds to 24 bits with
         * an unbounded exponent and then flushes, so only a product that
         * rounds up to 2^-126 survives.  Here |x|, |y| < 1 (or one is 0),
         * so the product scaled by 2^64 is an exact normal-range rounding
         * of it.  Branch-free, so that loops over lanes vectorise.
         */
        uint32_t r2 = tesla_f32_bits((x * 0x1p64f) * y) & 0x7fffffffu;
        uint32_t tiny = (r & 0x80000000u) |
                        ((uint32_t)((r2 >= 0x20800000u) &
                                    (r2 <= 0x7f800000u)) << 23);

        /* a mask, not ?:, so that r2 is not sunk into a branch */
        uint32_t use_tiny = -(uint32_t)((r & 0x7fffffffu) <= 0x00800000u);

        r = (tiny & use_tiny) | (r & ~use_tiny);
        return tesla_f32_isnan(r) ? TESLA_F32_NAN : r;
    }
    return tesla_f32_mul_slow(a, b, rnd, fpm);
}

/*
 * fmad: a * b + c, G80 style: the product is truncated to 24 bits when c is
 * non-zero (rounded to nearest when c is zero), the sum rounded to nearest.
 * fpm: TESLA_FPM_ZERO_WINS.
 */
static inline uint32_t tesla_f32_mad(uint32_t a, uint32_t b, uint32_t c,
                                     unsigned fpm)
{
#if TESLA_FPU_HOST_FAST
    uint32_t ea = a & 0x7f800000u, eb = b & 0x7f800000u;
    uint32_t ec = c & 0x7f800000u;

    if (likely(ea && eb && ec && ea != 0x7f800000u && eb != 0x7f800000u &&
               ec != 0x7f800000u)) {
        /* Normal finite inputs: exact product, truncate it to 24 bits. */
        double p = (double)tesla_f32_host(a) * (double)tesla_f32_host(b);
        double pt = tesla_f64_host(tesla_f64_bits(p) & ~0x1fffffffull);
        /*
         * One double add then one rounding to f32: double rounding is
         * harmless for a sum of two 24-bit values (53 >= 2 * 24 + 2).
         * Results near or below 2^-126 take the exact path.
         */
        double s = pt + (double)tesla_f32_host(c);

        if (likely(s >= 0x1p-125 || s <= -0x1p-125)) {
            return tesla_f32_bits((float)s);
        }
    }
#endif
    return tesla_f32_mad_slow(a, b, c, fpm);
}

/*
 * fmad over a whole warp (TESLA_FPU_LANES lanes): the same results as
 * tesla_f32_mad per lane, but the common case runs as one branch-free,
 * vectorisable loop and only odd lanes take the exact path.  @d may alias
 * the sources.
 */
#define TESLA_FPU_LANES 32
void tesla_f32_mad_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b,
                         const uint32_t *c, unsigned fpm);

/*
 * sat: clamp to [0, 1].  Negative (and -0, -Inf) -> +0, >= 1 -> 1.0.
 * NaN stays the canonical NaN, or becomes 0 with TESLA_FPM_SAT_NAN_ZERO.
 */
static inline uint32_t tesla_f32_sat(uint32_t x, unsigned fpm)
{
    if (tesla_f32_isnan(x)) {
        return (fpm & TESLA_FPM_SAT_NAN_ZERO) ? 0 : TESLA_F32_NAN;
    }
    if (x >> 31) {
        return 0;
    }
    return x >= TESLA_F32_ONE ? TESLA_F32_ONE : tesla_f32_ftz(x);
}

/*
 * fmin/fmax: a NaN operand loses to a number; two NaNs give the canonical
 * NaN.  Denormals are flushed; -0 < +0.
 */
static inline uint32_t tesla_f32_minmax(uint32_t a, uint32_t b, bool min)
{
    bool lt;

    if (tesla_f32_isnan(a)) {
        if (tesla_f32_isnan(b)) {
            return TESLA_F32_NAN;
        }
        a = b;
    } else if (tesla_f32_isnan(b)) {
        b = a;
    }
    a = tesla_f32_ftz(a);
    b = tesla_f32_ftz(b);
    if ((a ^ b) >> 31) {
        lt = a >> 31;
    } else if (a >> 31) {
        lt = a > b;
    } else {
        lt = a < b;
    }
    return lt == min ? a : b;
}

static inline uint32_t tesla_f32_min(uint32_t a, uint32_t b)
{
    return tesla_f32_minmax(a, b, true);
}

static inline uint32_t tesla_f32_max(uint32_t a, uint32_t b)
{
    return tesla_f32_minmax(a, b, false);
}

/*
 * Compare two f32 (denormals equal zero, -0 == +0): returns exactly one of
 * TCMP_L, TCMP_E, TCMP_G, TCMP_U (unordered: a NaN operand).
 */
static inline unsigned tesla_f32_cmp(uint32_t a, uint32_t b)
{
    int32_t ka, kb;

    if (tesla_f32_isnan(a) || tesla_f32_isnan(b)) {
        return TCMP_U;
    }
    a = tesla_f32_ftz(a);
    b = tesla_f32_ftz(b);
    ka = (a >> 31) ? -(int32_t)(a & 0x7fffffffu) : (int32_t)a;
    kb = (b >> 31) ? -(int32_t)(b & 0x7fffffffu) : (int32_t)b;
    return ka < kb ? TCMP_L : ka == kb ? TCMP_E : TCMP_G;
}

/* fset: 0xffffffff if the comparison's bit is in @cmp (TCMP_*), else 0. */
static inline uint32_t tesla_f32_set(uint32_t a, uint32_t b, unsigned cmp)
{
    return (tesla_f32_cmp(a, b) & cmp) ? 0xffffffffu : 0;
}

/* fslct: a if c >= 0 (including -0 and denormals), b if c < 0 or NaN. */
static inline uint32_t tesla_f32_slct(uint32_t a, uint32_t b, uint32_t c)
{
    unsigned r = tesla_f32_cmp(c, 0);

    return (r & (TCMP_G | TCMP_E)) ? a : b;
}

/* Round to an integral value (cvt rni/rmi/rpi/rzi f32): rnd TRND_RN..RZ. */
uint32_t tesla_f32_rint(uint32_t x, unsigned rnd);

/* ---- transcendentals (SFU, fpu-sfu.c) ---- */

/*
 * Bit-exact models of the G80 SFU: quadratic interpolation in the SFU's
 * lookup tables.  rcp/rsqrt/lg2 take an f32; sin/cos take presin's output
 * and ex2 preex2's.  The hardware ignores abs/neg on sin/cos/ex2 (their
 * input is fixed point); rcp/rsqrt/lg2/pre* honour them.
 */
uint32_t tesla_sfu_rcp(uint32_t x);
uint32_t tesla_sfu_rsqrt(uint32_t x);
/*
 * One slice of an SFU table: function value A (0.26 fixed point), slope
 * B, curvature C.  rcp's (128 slices on [1, 2)) serves the fast loop's
 * form of tesla_sfu_rcp over a warp's lanes (warp-fast.h), which keeps
 * the scalar one as its reference (test-tesla-fast.c compares them).
 */
typedef struct TeslaSfuSlice {
    int32_t a, b, c;
} TeslaSfuSlice;
extern const TeslaSfuSlice tesla_sfu_rcp_tab[128];
/*
 * Define `static inline T name(T r)`: the SFU's truncated square of its
 * 17-bit interpolation offset r, for T uint32_t (fpu-sfu.c) or a GCC
 * vector of them (the fast loop).  For each bit i of r, r >> (18 - i),
 * summed and halved: the sum of the partial products b_i b_j 2^(i + j -
 * 18) with i + j >= 18, taken in three bit groups: g0 = bits 0-5, g1 =
 * 6-11, g2 = 12-16.  g0 x g0 and g0 x g1 never reach 18; g1 x g2 and g2 x
 * g2 always do (plain products); g0 x g2 (twice: both orders) and g1 x g1
 * partly, one shifted group per bit of the other (a bit as a mask:
 * branch-free).  The same sums as a loop over the 17 bits (checked for
 * every r).
 */
#define TESLA_SFU_BIT_SEL(r, i, v)  ((v) & -(((r) >> (i)) & 1))
#define TESLA_SFU_SQUARE_FN(name, T) \
    static inline T name(T r) \
    { \
        T g0 = r & 0x3f, g1 = (r >> 6) & 0x3f, g2 = (r >> 12) & 0x1f; \
        T t02 = TESLA_SFU_BIT_SEL(r, 13, g0 >> 5) + \
                TESLA_SFU_BIT_SEL(r, 14, g0 >> 4) + \
                TESLA_SFU_BIT_SEL(r, 15, g0 >> 3) + \
                TESLA_SFU_BIT_SEL(r, 16, g0 >> 2); \
        T t11 = TESLA_SFU_BIT_SEL(r, 7, g1 >> 5) + \
                TESLA_SFU_BIT_SEL(r, 8, g1 >> 4) + \
                TESLA_SFU_BIT_SEL(r, 9, g1 >> 3) + \
                TESLA_SFU_BIT_SEL(r, 10, g1 >> 2) + \
                TESLA_SFU_BIT_SEL(r, 11, g1 >> 1); \
        \
        return (2 * t02 + t11 + 2 * g1 * g2 + 64 * g2 * g2) >> 1; \
    }
uint32_t tesla_sfu_lg2(uint32_t x);
uint32_t tesla_sfu_sin(uint32_t x);
uint32_t tesla_sfu_cos(uint32_t x);
uint32_t tesla_sfu_ex2(uint32_t x);
/*
 * preex2: sign-magnitude 7.23 fixed point (bit 31 sign); 0x40000000 NaN,
 * 0x40800000 Inf (or |x| >= 128), sign bit kept.
 * presin: x / (pi/2) reduced modulo 4, as 2.23 fixed point with the sign in
 * bit 31; same NaN/Inf encodings.
 */
uint32_t tesla_sfu_presin(uint32_t x);
uint32_t tesla_sfu_preex2(uint32_t x);

/* ---- f16 (fpu-cvt.c) ---- */

/* Exact; f16 denormals become normal f32; NaN -> 0x7fffffff. */
uint32_t tesla_f16_to_f32(uint16_t h);
/*
 * f32 -> f16 with rounding TRND_RN..RZ; f32 denormals count as 0, f16
 * denormals are produced; NaN -> 0x7fff; overflow -> Inf or max finite.
 */
uint16_t tesla_f32_to_f16(uint32_t x, unsigned rnd);

/* ---- cvt (fpu-cvt.c) ---- */

/* tesla_cvt() flags */
#define TESLA_CVT_ABS   (1u << 0)   /* abs of the source */
#define TESLA_CVT_NEG   (1u << 1)   /* negate the source (after abs) */
#define TESLA_CVT_SAT   (1u << 2)   /* float result clamped to [0, 1] */
#define TESLA_CVT_DST32 (1u << 3)   /* u8/s8 result in a 32-bit register */
#define TESLA_CVT_SAT_NAN_ZERO (1u << 4)  /* TESLA_FPM_SAT_NAN_ZERO */

/*
 * Every cvt form: @dtype/@stype are TeslaType (U8..S64, F16, F32, F64);
 * @rnd is TeslaInsn.rnd (TRND_RN..RZ for float results of i2f/f2f,
 * TRND_RNI..RZI for f2i and f2f round-to-integral; TRND_RN..RZ are also
 * accepted for f2i).  @src holds the source in its low bits (16-bit sources
 * in bits 0-15, f64/64-bit in all 64).  Returns the result in its low bits:
 * 16-bit results (u16/s16/f16, and u8/s8 without TESLA_CVT_DST32) are
 * 16 bits wide (s8 sign-extended to 16), 32-bit results 32, 64-bit 64.
 * *@cc (may be NULL) gets the $c flags of the result.
 * Forms with a 64-bit type run on G200's f64 unit, which keeps denormals,
 * turns NaN into 0x80000000(00000000) for integers and sets O on overflow.
 */
uint64_t tesla_cvt(unsigned dtype, unsigned stype, unsigned rnd,
                   unsigned flags, uint64_t src, unsigned *cc);

/* ---- f64 (G200, fpu-f64.c) ---- */

/*
 * Source modifiers as the f64 unit applies them: a NaN is quieted and
 * keeps its sign (abs/neg ignored); otherwise abs then neg.
 * (dset applies abs/neg to NaN too, which does not matter to a compare.)
 */
static inline uint64_t tesla_f64_srcmod(uint64_t x, bool abs, bool neg)
{
    if (tesla_f64_isnan(x)) {
        return x | (1ull << 51);
    }
    if (abs) {
        x &= 0x7fffffffffffffffull;
    }
    return neg ? x ^ 0x8000000000000000ull : x;
}

/* IEEE with denormals, rnd TRND_RN..RZ.  NaN rules: see fpu-f64.c. */
uint64_t tesla_f64_add(uint64_t a, uint64_t b, unsigned rnd);
uint64_t tesla_f64_mul(uint64_t a, uint64_t b, unsigned rnd);
uint64_t tesla_f64_fma(uint64_t a, uint64_t b, uint64_t c, unsigned rnd);
uint64_t tesla_f64_min(uint64_t a, uint64_t b);
uint64_t tesla_f64_max(uint64_t a, uint64_t b);
uint64_t tesla_f64_rint(uint64_t x, unsigned rnd);

/* Compare (no flushing): one of TCMP_L/E/G/U. */
static inline unsigned tesla_f64_cmp(uint64_t a, uint64_t b)
{
    int64_t ka, kb;

    if (tesla_f64_isnan(a) || tesla_f64_isnan(b)) {
        return TCMP_U;
    }
    ka = (a >> 63) ? -(int64_t)(a & 0x7fffffffffffffffull) : (int64_t)a;
    kb = (b >> 63) ? -(int64_t)(b & 0x7fffffffffffffffull) : (int64_t)b;
    return ka < kb ? TCMP_L : ka == kb ? TCMP_E : TCMP_G;
}

/* dset: 32-bit 0xffffffff / 0. */
static inline uint32_t tesla_f64_set(uint64_t a, uint64_t b, unsigned cmp)
{
    return (tesla_f64_cmp(a, b) & cmp) ? 0xffffffffu : 0;
}

/* ---- integer (int.rst) ---- */

/*
 * add/sub/subr/addc (TADDOP_*), 32- or 16-bit (@b32), with sat (signed
 * saturation on overflow) and the carry-in of addc.  16-bit operands are
 * taken from the low halves; the result of a 16-bit op is in bits 0-15.
 * *@cc (may be NULL) gets Z S C O.
 */
static inline uint32_t tesla_iadd(uint32_t a, uint32_t b, unsigned addop,
                                  bool cin, bool sat, bool b32, unsigned *cc)
{
    uint32_t mask = b32 ? 0xffffffffu : 0xffffu;
    unsigned sbit = b32 ? 31 : 15;
    uint64_t sum;
    uint32_t res;
    bool c, o;

    switch (addop) {
    case TADDOP_SUB:
        b = ~b;
        cin = true;
        break;
    case TADDOP_SUBR:
        a = ~a;
        cin = true;
        break;
    case TADDOP_ADDC:
        break;
    default:
        cin = false;
        break;
    }
    a &= mask;
    b &= mask;
    sum = (uint64_t)a + b + cin;
    res = (uint32_t)sum & mask;
    c = (sum >> (sbit + 1)) & 1;
    o = ((a >> sbit) == (b >> sbit)) && ((a >> sbit) != (res >> sbit));
    if (sat && o) {
        res = (a >> sbit) ? (1u << sbit) : (1u << sbit) - 1;
    }
    if (cc) {
        *cc = (b32 ? tesla_flags32(res) : tesla_flags16(res)) |
              (c ? TESLA_CC_C : 0) | (o ? TESLA_CC_O : 0);
    }
    return res;
}

static inline uint32_t tesla_iadd32(uint32_t a, uint32_t b, unsigned addop,
                                    bool cin, bool sat, unsigned *cc)
{
    return tesla_iadd(a, b, addop, cin, sat, true, cc);
}

/* mul 16x16 -> 32, each source zero- or sign-extended from 16 bits. */
static inline uint32_t tesla_imul16(uint32_t a, uint32_t b, bool asigned,
                                    bool bsigned)
{
    uint32_t x = asigned ? (uint32_t)(int32_t)(int16_t)a : (a & 0xffff);
    uint32_t y = bsigned ? (uint32_t)(int32_t)(int16_t)b : (b & 0xffff);

    return x * y;
}

/* mul24: 24x24 -> 48 bits; low 32 bits, or bits 16-47 with @high. */
static inline uint32_t tesla_imul24(uint32_t a, uint32_t b, bool sign,
                                    bool high)
{
    uint64_t p;

    if (sign) {
        int64_t x = (int32_t)(a << 8) >> 8;
        int64_t y = (int32_t)(b << 8) >> 8;

        p = (uint64_t)(x * y);
    } else {
        p = (uint64_t)(a & 0xffffff) * (b & 0xffffff);
    }
    return (uint32_t)(high ? p >> 16 : p);
}

/*
 * sad: |a - b| (16- or 32-bit operands, signed or not) + c, where the add
 * is always 32-bit (as hwtest shows, also for the 16-bit form); flags of
 * that add.
 */
static inline uint32_t tesla_sad(uint32_t a, uint32_t b, uint32_t c,
                                 bool sign, bool b32, unsigned *cc)
{
    int64_t x, y, d;

    if (b32) {
        x = sign ? (int64_t)(int32_t)a : (int64_t)a;
        y = sign ? (int64_t)(int32_t)b : (int64_t)b;
    } else {
        x = sign ? (int64_t)(int16_t)a : (int64_t)(a & 0xffff);
        y = sign ? (int64_t)(int16_t)b : (int64_t)(b & 0xffff);
    }
    d = x > y ? x - y : y - x;
    return tesla_iadd((uint32_t)d, c, TADDOP_ADD, false, false, true, cc);
}

/* Signed or unsigned 32/16-bit compare: TCMP_L, TCMP_E or TCMP_G. */
static inline unsigned tesla_icmp(uint32_t a, uint32_t b, bool sign,
                                  bool b32)
{
    if (!b32) {
        a <<= 16;
        b <<= 16;
    }
    if (sign) {
        a ^= 0x80000000u;
        b ^= 0x80000000u;
    }
    return a < b ? TCMP_L : a == b ? TCMP_E : TCMP_G;
}

/* set: all ones (0xffffffff or 0xffff) if the compare's bit is in @cmp. */
static inline uint32_t tesla_iset(uint32_t a, uint32_t b, unsigned cmp,
                                  bool sign, bool b32, unsigned *cc)
{
    uint32_t r = (tesla_icmp(a, b, sign, b32) & cmp) ? 0xffffffffu : 0;

    if (!b32) {
        r &= 0xffff;
    }
    if (cc) {
        *cc = r ? TESLA_CC_S : TESLA_CC_Z;
    }
    return r;
}

/* min/max, 32 or 16 bits (16-bit result in bits 0-15). */
static inline uint32_t tesla_iminmax(uint32_t a, uint32_t b, bool min,
                                     bool sign, bool b32, unsigned *cc)
{
    uint32_t r;

    if (!b32) {
        a &= 0xffff;
        b &= 0xffff;
    }
    r = ((tesla_icmp(a, b, sign, b32) == TCMP_L) == min) ? a : b;
    if (cc) {
        *cc = b32 ? tesla_flags32(r) : tesla_flags16(r);
    }
    return r;
}

/*
 * shl: the count is unsigned and does not wrap (>= width gives 0); C is
 * the last bit shifted out when 0 < count < width; O when count == 1 and
 * the sign bit changed.
 */
static inline uint32_t tesla_shl(uint32_t a, uint32_t cnt, bool b32,
                                 unsigned *cc)
{
    unsigned bits = b32 ? 32 : 16;
    uint32_t r;
    bool c;

    if (!b32) {
        a &= 0xffff;
        cnt &= 0xffff;
    }
    r = cnt >= 32 ? 0 : a << cnt;
    c = cnt && cnt < bits && ((a >> (bits - cnt)) & 1);
    if (!b32) {
        r &= 0xffff;
    }
    if (cc) {
        *cc = (b32 ? tesla_flags32(r) : tesla_flags16(r)) |
              (c ? TESLA_CC_C : 0) |
              ((cnt == 1 && ((r ^ a) >> (bits - 1)) & 1) ? TESLA_CC_O : 0);
    }
    return r;
}

/* shr (logical, or arithmetic with @sign); C is the last bit shifted out. */
static inline uint32_t tesla_shr(uint32_t a, uint32_t cnt, bool sign,
                                 bool b32, unsigned *cc)
{
    unsigned bits = b32 ? 32 : 16;
    uint32_t r;
    bool c;

    if (!b32) {
        a &= 0xffff;
        cnt &= 0xffff;
    }
    if (sign && ((a >> (bits - 1)) & 1)) {
        int32_t sa = b32 ? (int32_t)a : (int32_t)(int16_t)a;

        r = cnt >= 32 ? 0xffffffffu : (uint32_t)(sa >> cnt);
    } else {
        r = cnt >= 32 ? 0 : a >> cnt;
    }
    c = cnt && cnt < bits && ((a >> (cnt - 1)) & 1);
    if (!b32) {
        r &= 0xffff;
    }
    if (cc) {
        *cc = (b32 ? tesla_flags32(r) : tesla_flags16(r)) |
              (c ? TESLA_CC_C : 0) |
              ((cnt == 1 && ((r ^ a) >> (bits - 1)) & 1) ? TESLA_CC_O : 0);
    }
    return r;
}

#endif
