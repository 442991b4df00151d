/*
 * Tesla shader core lane arithmetic: f64 (G200's double precision unit).
 *
 * dadd, dmul and dfma are IEEE 754 binary64 operations in all four
 * rounding modes, with denormals.  NaN handling follows the envytools
 * hwtest reference model (g80_fp64): a NaN operand comes out quieted
 * (add: the second operand's NaN first; mul/fma: b, then c, then a), and
 * an invalid operation (Inf - Inf, 0 * Inf) gives 0xfff8000000000000.
 * Computed with integers only, so the host FPU state does not matter.
 *
 * UNVERIFIED: hwtest's model truncates when an fma/mul result is shifted
 * into the denormal range, which could round an exact tie differently from
 * IEEE there; this follows IEEE.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/fpu-impl.h"

typedef unsigned __int128 U128;

#define F64_IMPLICIT    (1ull << 52)
#define F64_SIGN        0x8000000000000000ull
#define F64_INF         0x7ff0000000000000ull

static bool f64_is_inf(uint64_t x)
{
    return (x & ~F64_SIGN) == F64_INF;
}

/* Sign, biased exponent (1 for denormals) and 53-bit significand. */
static void f64_unpack(uint64_t x, bool *s, int *e, uint64_t *m)
{
    *s = x >> 63;
    *e = (x >> 52) & 0x7ff;
    *m = x & (F64_IMPLICIT - 1);
    if (*e) {
        *m |= F64_IMPLICIT;
    } else {
        *e = 1;
    }
}

uint64_t tesla_f64_pack(bool sign, int e, uint64_t m, unsigned rnd)
{
    uint64_t s = (uint64_t)sign << 63;
    int top, be, sh;
    uint64_t mant;

    if (!m) {
        return s;
    }
    top = f_top_bit(m);
    be = e + top + 1023;
    sh = top - 52;
    if (be < 1) {
        sh += 1 - be;
        be = 1;
    }
    mant = f_shr_round(m, sh, rnd, sign);
    if (mant >> 53) {
        mant >>= 1;
        be++;
    }
    if (mant < F64_IMPLICIT) {
        return s | mant;            /* denormal (or zero) */
    }
    if (be >= 2047) {
        return s | (overflow_to_max(sign, rnd) ? 0x7fefffffffffffffull
                                               : F64_INF);
    }
    return s | ((uint64_t)be << 52) | (mant & (F64_IMPLICIT - 1));
}

/* Pack a 128-bit magnitude: fold it to 64 bits keeping a sticky bit. */
static uint64_t f64_pack128(bool sign, int e, U128 m, unsigned rnd)
{
    if (m >> 64) {
        int sh = 64 - __builtin_clzll((uint64_t)(m >> 64));
        bool lost = (m & (((U128)1 << sh) - 1)) != 0;

        m = (m >> sh) | lost;
        e += sh;
    }
    return tesla_f64_pack(sign, e, (uint64_t)m, rnd);
}

/* The sign of an exact zero sum of operands with signs @sa, @sb. */
static uint64_t f64_zero_sum(bool sa, bool sb, unsigned rnd)
{
    bool s = sa == sb ? sa : (rnd & 3) == TRND_RM;

    return (uint64_t)s << 63;
}

/* m1 * 2^e1 (sign s1) + m2 * 2^e2 (sign s2), both non-zero. */
static uint64_t f64_sum(bool s1, int e1, U128 m1, bool s2, int e2, U128 m2,
                        unsigned rnd)
{
    U128 sum;
    int d;
    bool sr;

    /* Leading bits to bit 124: room for a carry, and guard bits below. */
    d = 124 - (127 - (m1 >> 64 ? __builtin_clzll((uint64_t)(m1 >> 64)) :
                      64 + __builtin_clzll((uint64_t)m1)));
    m1 <<= d;
    e1 -= d;
    d = 124 - (127 - (m2 >> 64 ? __builtin_clzll((uint64_t)(m2 >> 64)) :
                      64 + __builtin_clzll((uint64_t)m2)));
    m2 <<= d;
    e2 -= d;
    if (e1 < e2) {
        U128 tm = m1;
        int te = e1;
        bool ts = s1;

        m1 = m2; e1 = e2; s1 = s2;
        m2 = tm; e2 = te; s2 = ts;
    }
    d = e1 - e2;
    if (d >= 128) {
        m2 = 1;
    } else if (d > 0) {
        m2 = (m2 >> d) | ((m2 & (((U128)1 << d) - 1)) != 0);
    }
    if (s1 == s2) {
        sum = m1 + m2;
        sr = s1;
    } else if (m1 >= m2) {
        sum = m1 - m2;
        sr = s1;
    } else {
        sum = m2 - m1;
        sr = s2;
    }
    if (!sum) {
        return f64_zero_sum(s1, s2, rnd);
    }
    return f64_pack128(sr, e1, sum, rnd);
}

uint64_t tesla_f64_add(uint64_t a, uint64_t b, unsigned rnd)
{
    bool sa, sb;
    int ea, eb;
    uint64_t ma, mb;

    if (tesla_f64_isnan(b)) {
        return f64_quiet(b);
    }
    if (tesla_f64_isnan(a)) {
        return f64_quiet(a);
    }
    if (f64_is_inf(a)) {
        return (f64_is_inf(b) && a != b) ? TESLA_F64_NAN : a;
    }
    if (f64_is_inf(b)) {
        return b;
    }
    f64_unpack(a, &sa, &ea, &ma);
    f64_unpack(b, &sb, &eb, &mb);
    if (!ma && !mb) {
        return f64_zero_sum(sa, sb, rnd);
    }
    if (!ma) {
        return b;
    }
    if (!mb) {
        return a;
    }
    return f64_sum(sa, ea - 1075, ma, sb, eb - 1075, mb, rnd);
}

uint64_t tesla_f64_fma(uint64_t a, uint64_t b, uint64_t c, unsigned rnd)
{
    bool sa, sb, sc, sp;
    int ea, eb, ec;
    uint64_t ma, mb, mc;
    U128 p;

    if (tesla_f64_isnan(b)) {
        return f64_quiet(b);
    }
    if (tesla_f64_isnan(c)) {
        return f64_quiet(c);
    }
    if (tesla_f64_isnan(a)) {
        return f64_quiet(a);
    }
    f64_unpack(a, &sa, &ea, &ma);
    f64_unpack(b, &sb, &eb, &mb);
    f64_unpack(c, &sc, &ec, &mc);
    sp = sa ^ sb;
    if (f64_is_inf(a) || f64_is_inf(b)) {
        if (!ma || !mb) {
            return TESLA_F64_NAN;       /* 0 * Inf */
        }
        if (f64_is_inf(c) && sc != sp) {
            return TESLA_F64_NAN;       /* Inf - Inf */
        }
        return ((uint64_t)sp << 63) | F64_INF;
    }
    if (f64_is_inf(c)) {
        return c;
    }
    p = (U128)ma * mb;
    if (!p) {
        return mc ? c : f64_zero_sum(sp, sc, rnd);
    }
    if (!mc) {
        /* Exact product + 0: one rounding of the product. */
        return f64_pack128(sp, ea + eb - 2150, p, rnd);
    }
    return f64_sum(sp, ea + eb - 2150, p, sc, ec - 1075, mc, rnd);
}

uint64_t tesla_f64_mul(uint64_t a, uint64_t b, unsigned rnd)
{
    /*
     * The hardware adds a zero to the product: -0 (+0 when rounding down),
     * which gives IEEE's signed zeros.  The b-before-a NaN order is fma's.
     */
    return tesla_f64_fma(a, b, (rnd & 3) == TRND_RM ? 0 : F64_SIGN, rnd);
}

static uint64_t f64_minmax(uint64_t a, uint64_t b, bool min)
{
    bool lt;

    if (tesla_f64_isnan(a)) {
        if (tesla_f64_isnan(b)) {
            return f64_quiet(b);
        }
        a = b;
    } else if (tesla_f64_isnan(b)) {
        b = a;
    }
    if ((a ^ b) >> 63) {
        lt = a >> 63;
    } else if (a >> 63) {
        lt = a > b;
    } else {
        lt = a < b;
    }
    return lt == min ? a : b;
}

uint64_t tesla_f64_min(uint64_t a, uint64_t b)
{
    return f64_minmax(a, b, true);
}

uint64_t tesla_f64_max(uint64_t a, uint64_t b)
{
    return f64_minmax(a, b, false);
}

uint64_t tesla_f64_rint(uint64_t x, unsigned rnd)
{
    bool s;
    int e;
    uint64_t m;

    if (tesla_f64_isnan(x) || f64_is_inf(x) || ((x >> 52) & 0x7ff) >= 1075) {
        return x;
    }
    f64_unpack(x, &s, &e, &m);
    return tesla_f64_pack(s, 0, f_shr_round(m, 1075 - e, rnd, s), TRND_RN);
}
