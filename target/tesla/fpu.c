/*
 * Tesla shader core lane arithmetic: exact f32 paths.
 *
 * These are the out-of-line halves of fpu.h: every rounding mode, and the
 * corner cases the inline host-FPU paths hand over.  They compute with
 * integers only, following the hardware's datapath as the envytools hwtest
 * reference model describes it (g80_fp): inputs flushed, results rounded
 * with an unbounded exponent and then flushed, NaN results canonical.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/fpu-impl.h"
#include <math.h>

uint32_t tesla_f32_pack(bool sign, int e, uint64_t m, unsigned rnd,
                        int mode)
{
    uint32_t s = (uint32_t)sign << 31;
    int top, be, sh;
    uint64_t mant;

    if (!m) {
        return s;
    }
    top = f_top_bit(m);
    be = e + top + 127;         /* biased exponent of the leading bit */
    sh = top - 23;              /* keep 24 bits */
    if (mode != F32_FLUSH_AFTER && be < 1) {
        sh += 1 - be;           /* round on the denormal grid */
        be = 1;
    }
    mant = f_shr_round(m, sh, rnd, sign);
    if (mant >> 24) {           /* rounded up to the next power of two */
        mant >>= 1;
        be++;
    }
    if (mant < F32_IMPLICIT) {  /* a denormal (IEEE modes only) */
        return mode == F32_IEEE ? s | (uint32_t)mant : s;
    }
    if (be < 1) {
        return s;
    }
    if (be >= 255) {
        return f32_overflow(sign, rnd);
    }
    return s | ((uint32_t)be << 23) | ((uint32_t)mant & 0x7fffffu);
}

uint32_t tesla_f32_add_slow(uint32_t a, uint32_t b, unsigned rnd)
{
    bool sa, sb, sr;
    int ea, eb, d;
    uint32_t ma, mb;
    uint64_t x, y, sum;

    a = tesla_f32_ftz(a);
    b = tesla_f32_ftz(b);
    if (tesla_f32_isnan(a) || tesla_f32_isnan(b)) {
        return TESLA_F32_NAN;
    }
    if (f32_is_inf(a)) {
        return (f32_is_inf(b) && a != b) ? TESLA_F32_NAN : a;
    }
    if (f32_is_inf(b)) {
        return b;
    }
    if (f32_is_zero(a) && f32_is_zero(b)) {
        /* -0 only from -0 + -0, in every rounding mode */
        return a & b & 0x80000000u;
    }
    if (f32_is_zero(a)) {
        return b;
    }
    if (f32_is_zero(b)) {
        return a;
    }
    f32_unpack(a, &sa, &ea, &ma);
    f32_unpack(b, &sb, &eb, &mb);
    if (ea < eb) {
        uint32_t tm = ma;
        int te = ea;
        bool ts = sa;

        ma = mb; ea = eb; sa = sb;
        mb = tm; eb = te; sb = ts;
    }
    /*
     * 32 guard bits below the larger significand; the smaller one keeps a
     * sticky bit, which is enough for every rounding mode.
     */
    d = ea - eb;
    x = (uint64_t)ma << 32;
    y = f_shr_jam((uint64_t)mb << 32, d);
    if (sa == sb) {
        sum = x + y;
        sr = sa;
    } else if (x >= y) {
        sum = x - y;
        sr = sa;
    } else {
        sum = y - x;
        sr = sb;
    }
    if (!sum) {
        return 0;   /* x - x is +0 whatever the rounding */
    }
    return tesla_f32_pack(sr, ea - 150 - 32, sum, rnd, F32_FLUSH_AFTER);
}

uint32_t tesla_f32_mul_slow(uint32_t a, uint32_t b, unsigned rnd,
                            unsigned fpm)
{
    bool sa, sb, sr;
    int ea, eb;
    uint32_t ma, mb;

    a = tesla_f32_ftz(a);
    b = tesla_f32_ftz(b);
    if ((fpm & TESLA_FPM_ZERO_WINS) && (f32_is_zero(a) || f32_is_zero(b))) {
        return 0;
    }
    if (tesla_f32_isnan(a) || tesla_f32_isnan(b)) {
        return TESLA_F32_NAN;
    }
    sr = (a ^ b) >> 31;
    if (f32_is_inf(a) || f32_is_inf(b)) {
        if (f32_is_zero(a) || f32_is_zero(b)) {
            return TESLA_F32_NAN;
        }
        return ((uint32_t)sr << 31) | 0x7f800000u;
    }
    if (f32_is_zero(a) || f32_is_zero(b)) {
        return (uint32_t)sr << 31;
    }
    f32_unpack(a, &sa, &ea, &ma);
    f32_unpack(b, &sb, &eb, &mb);
    return tesla_f32_pack(sr, ea - 150 + eb - 150, (uint64_t)ma * mb, rnd,
                          F32_FLUSH_AFTER);
}

uint32_t tesla_f32_mad_slow(uint32_t a, uint32_t b, uint32_t c,
                            unsigned fpm)
{
    bool sa, sb, sc, sp, sr;
    int ea, eb, ec, es, er, top;
    uint32_t ma, mb, mc, mp;
    uint64_t prod;
    int64_t acc;
    uint64_t res, mant;

    a = tesla_f32_ftz(a);
    b = tesla_f32_ftz(b);
    c = tesla_f32_ftz(c);
    if ((fpm & TESLA_FPM_ZERO_WINS) && (f32_is_zero(a) || f32_is_zero(b))) {
        /* The product vanishes; c + 0 canonicalises NaN and -0. */
        return tesla_f32_add_slow(c, 0, TRND_RN);
    }
    if (tesla_f32_isnan(a) || tesla_f32_isnan(b) || tesla_f32_isnan(c)) {
        return TESLA_F32_NAN;
    }
    sp = (a ^ b) >> 31;
    sc = c >> 31;
    if (f32_is_inf(a) || f32_is_inf(b)) {
        if (f32_is_zero(a) || f32_is_zero(b)) {
            return TESLA_F32_NAN;
        }
        if (f32_is_inf(c) && sc != sp) {
            return TESLA_F32_NAN;
        }
        return ((uint32_t)sp << 31) | 0x7f800000u;
    }
    if (f32_is_inf(c)) {
        return c;
    }
    if (f32_is_zero(a) || f32_is_zero(b) || f32_is_zero(c)) {
        /* With a zero anywhere the product is rounded, not truncated. */
        return tesla_f32_add_slow(tesla_f32_mul_slow(a, b, TRND_RN, 0), c,
                                  TRND_RN);
    }
    f32_unpack(a, &sa, &ea, &ma);
    f32_unpack(b, &sb, &eb, &mb);
    f32_unpack(c, &sc, &ec, &mc);

    /* The product, truncated to 24 bits; es is its biased exponent. */
    prod = (uint64_t)ma * mb;
    es = ea + eb - 127;
    if (prod >> 47) {
        mp = prod >> 24;
        es++;
    } else {
        mp = prod >> 23;
    }

    /*
     * A 28-bit accumulator: the larger operand's leading bit lands on bit
     * 26, leaving a carry bit and three guard bits; what is shifted out of
     * the smaller operand is kept as a sticky bit.
     */
    er = (es > ec ? es : ec) + 1;
    acc = (int64_t)f_shr_jam(mp, er - es - 4);
    if (sp) {
        acc = -acc;
    }
    acc += (sc ? -1 : 1) * (int64_t)f_shr_jam(mc, er - ec - 4);
    if (!acc) {
        return (uint32_t)(sp && sc) << 31;
    }
    sr = acc < 0;
    res = sr ? (uint64_t)-acc : (uint64_t)acc;
    top = f_top_bit(res);
    res <<= 27 - top;
    er -= 27 - top;
    if (er < 1) {
        /* Denormal range: the hardware truncates to the denormal grid. */
        res = (1 - er) >= 64 ? 0 : res >> (1 - er);
        er = 1;
    }
    mant = f_shr_round(res, 4, TRND_RN, sr);
    if (mant >> 24) {
        mant >>= 1;
        er++;
    }
    if (mant < F32_IMPLICIT) {
        return (uint32_t)sr << 31;
    }
    if (er >= 255) {
        return f32_overflow(sr, TRND_RN);
    }
    return ((uint32_t)sr << 31) | ((uint32_t)er << 23) |
           ((uint32_t)mant & 0x7fffffu);
}

uint32_t tesla_f32_rint(uint32_t x, unsigned rnd)
{
    bool s;
    int e;
    uint32_t m;
    uint64_t q;

    if (tesla_f32_isnan(x)) {
        return TESLA_F32_NAN;
    }
    x = tesla_f32_ftz(x);
    if (f32_is_inf(x) || ((x >> 23) & 0xff) >= 150) {
        return x;   /* already integral */
    }
    f32_unpack(x, &s, &e, &m);
    q = f_shr_round(m, 150 - e, rnd, s);
    return tesla_f32_pack(s, 0, q, TRND_RN, F32_FLUSH_AFTER);
}

void tesla_f32_mad_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b,
                         const uint32_t *c, unsigned fpm)
{
    uint32_t res[TESLA_FPU_LANES];
    uint8_t odd[TESLA_FPU_LANES];
    unsigned any = 0;

#if TESLA_FPU_HOST_FAST
    for (unsigned l = 0; l < TESLA_FPU_LANES; l++) {
        /* tesla_f32_mad's fast path, with its conditions as a flag */
        uint32_t ea = a[l] & 0x7f800000u, eb = b[l] & 0x7f800000u;
        uint32_t ec = c[l] & 0x7f800000u;
        double p = (double)tesla_f32_host(a[l]) *
                   (double)tesla_f32_host(b[l]);
        double pt = tesla_f64_host(tesla_f64_bits(p) & ~0x1fffffffull);
        double s = pt + (double)tesla_f32_host(c[l]);
        unsigned ok = ((ea - 0x00800000u) <= 0x7e800000u) &
                      ((eb - 0x00800000u) <= 0x7e800000u) &
                      ((ec - 0x00800000u) <= 0x7e800000u) &
                      (fabs(s) >= 0x1p-125);

        res[l] = tesla_f32_bits((float)s);
        odd[l] = !ok;
        any |= !ok;
    }
#else
    any = 1;
    memset(odd, 1, sizeof(odd));
#endif
    if (unlikely(any)) {
        for (unsigned l = 0; l < TESLA_FPU_LANES; l++) {
            if (odd[l]) {
                res[l] = tesla_f32_mad_slow(a[l], b[l], c[l], fpm);
            }
        }
    }
    memcpy(d, res, sizeof(res));
}
