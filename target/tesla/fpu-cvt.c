/*
 * Tesla shader core lane arithmetic: cvt in every form, and f16.
 *
 * Two datapaths exist.  Forms with only 8..32-bit integers, f16 and f32 run
 * on the f32 unit: denormal f32 count as zero, integer destinations always
 * saturate, NaN converts to integer 0.  Forms with a 64-bit type (f64, u64,
 * s64; G200) run on the f64 unit: denormals are kept, NaN converts to the
 * most negative integer and an out-of-range result sets $c.O.
 * The behaviour, quirks included, is that of the envytools hwtest
 * reference model (g80_fp, g80_fp64), which was checked against hardware.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/fpu-impl.h"

/* ---- f16 ---- */

uint32_t tesla_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31;
    unsigned e = (h >> 10) & 0x1f;
    uint32_t f = h & 0x3ff;

    if (e == 0x1f) {
        return f ? TESLA_F32_NAN : s | 0x7f800000u;
    }
    if (!e) {
        /* zero, or a denormal that is a normal f32 */
        return tesla_f32_pack(s >> 31, -24, f, TRND_RN, F32_FLUSH_AFTER);
    }
    return s | ((e + 112) << 23) | (f << 13);
}

/*
 * f32 -> f16.  @rint: the value was already rounded to an integer by cvt's
 * rni/rmi/rpi/rzi, and any bits f16 cannot hold are then truncated.
 */
static uint16_t f32_to_f16(uint32_t x, unsigned rnd, bool rint)
{
    uint16_t s = (x >> 31) << 15;
    int e, sh;
    uint32_t m;
    uint64_t q;
    bool to_max;

    x = tesla_f32_ftz(x);
    if (tesla_f32_isnan(x)) {
        return TESLA_F16_NAN;
    }
    if (f32_is_inf(x)) {
        return s | 0x7c00;
    }
    e = (x >> 23) & 0xff;
    if (e <= 0x5d) {
        return s;   /* below 2^-33: zero, whatever the rounding */
    }
    m = (x & 0x7fffffu) | F32_IMPLICIT;
    e -= 127 - 15;
    sh = 13;
    if (e <= 0) {
        sh += 1 - e;    /* f16 denormal */
        e = 1;
    }
    q = rint ? (uint64_t)m >> sh : f_shr_round(m, sh, rnd, s);
    if (q == 0x800) {
        q >>= 1;
        e++;
    }
    if (q < 0x400) {
        return s | q;
    }
    if (e >= 0x1f) {
        switch (rnd & 3) {
        case TRND_RZ:
            to_max = true;
            break;
        case TRND_RM:
            to_max = !s;
            break;
        case TRND_RP:
            to_max = s;
            break;
        default:
            to_max = false;
            break;
        }
        return s | (to_max ? 0x7bff : 0x7c00);
    }
    return s | (e << 10) | (q & 0x3ff);
}

uint16_t tesla_f32_to_f16(uint32_t x, unsigned rnd)
{
    return f32_to_f16(x, rnd, false);
}

/* ---- cvt helpers ---- */

static bool type_is_float(unsigned t)
{
    return t == TTYPE_F16 || t == TTYPE_F32 || t == TTYPE_F64;
}

static bool type_is_signed(unsigned t)
{
    return t == TTYPE_S8 || t == TTYPE_S16 || t == TTYPE_S32 ||
           t == TTYPE_S64 || t == TTYPE_S24;
}

static unsigned type_bits(unsigned t)
{
    switch (t) {
    case TTYPE_U8:
    case TTYPE_S8:
        return 8;
    case TTYPE_U16:
    case TTYPE_S16:
    case TTYPE_B16:
    case TTYPE_F16:
        return 16;
    case TTYPE_U24:
    case TTYPE_S24:
        return 24;
    case TTYPE_U64:
    case TTYPE_S64:
    case TTYPE_B64:
    case TTYPE_F64:
        return 64;
    default:
        return 32;
    }
}

static uint64_t width_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Integer source: magnitude and sign after extension, abs and neg. */
static uint64_t int_source(unsigned stype, uint64_t src, unsigned flags,
                           bool *neg, bool *origneg)
{
    unsigned bits = type_bits(stype);
    uint64_t v = src & width_mask(bits);
    bool n = false;

    if (type_is_signed(stype) && bits < 64 && ((v >> (bits - 1)) & 1)) {
        v |= ~width_mask(bits);     /* sign-extend */
    }
    if (type_is_signed(stype) && (v >> 63)) {
        v = -v;
        n = true;
    }
    if (origneg) {
        *origneg = n;
    }
    if (flags & TESLA_CVT_ABS) {
        n = false;
    }
    if (flags & TESLA_CVT_NEG) {
        n = !n;
    }
    *neg = n;
    return v;
}

/* Width of the register an integer result goes to. */
static unsigned int_dst_bits(unsigned dtype, unsigned flags)
{
    unsigned bits = type_bits(dtype);

    if (bits == 8) {
        return (flags & TESLA_CVT_DST32) ? 32 : 16;
    }
    return bits;
}

/*
 * Saturate magnitude @mag with sign @neg into @dtype, then mask to the
 * register width.  *@ovf is set when the value did not fit.
 */
static uint64_t int_saturate(unsigned dtype, unsigned flags, uint64_t mag,
                             bool neg, bool *ovf)
{
    unsigned bits = type_bits(dtype);
    uint64_t r;

    if (type_is_signed(dtype)) {
        uint64_t limit = 1ull << (bits - 1);

        if (neg) {
            if (mag > limit) {
                mag = limit;
                *ovf = true;
            }
            r = -mag;
        } else {
            if (mag >= limit) {
                mag = limit - 1;
                *ovf = true;
            }
            r = mag;
        }
    } else {
        if (neg) {
            if (mag) {
                *ovf = true;
            }
            r = 0;
        } else if (mag > width_mask(bits)) {
            r = width_mask(bits);
            *ovf = true;
        } else {
            r = mag;
        }
    }
    return r & width_mask(int_dst_bits(dtype, flags));
}

static unsigned int_flags(uint64_t r, unsigned bits)
{
    return (r == 0 ? TESLA_CC_Z : 0) |
           (((r >> (bits - 1)) & 1) ? TESLA_CC_S : 0);
}

/* $c of an f32 result without flushing (f64 unit). */
static unsigned f32_flags_noftz(uint32_t x)
{
    if (tesla_f32_isnan(x)) {
        return TESLA_CC_Z | TESLA_CC_S;
    }
    if (f32_is_zero(x)) {
        return TESLA_CC_Z;
    }
    return (x >> 31) ? TESLA_CC_S : 0;
}

static unsigned fpm_of(unsigned flags)
{
    return (flags & TESLA_CVT_SAT_NAN_ZERO) ? TESLA_FPM_SAT_NAN_ZERO : 0;
}

/*
 * Float magnitude -> unsigned integer, rounded per @rnd for a value of
 * sign @neg; saturates at 2^64 - 1.  @x has its sign bit clear.
 */
static uint64_t f32_to_uint(uint32_t x, unsigned rnd, bool neg, bool ftz)
{
    int e = (x >> 23) & 0xff;
    uint64_t m = x & 0x7fffffu;

    if (tesla_f32_isnan(x)) {
        return 0;
    }
    if (f32_is_inf(x)) {
        return ~0ull;
    }
    if (e) {
        m |= F32_IMPLICIT;
    } else {
        if (ftz) {
            m = 0;
        }
        e = 1;
    }
    if (e - 150 > 40) {
        return ~0ull;
    }
    return f_shr_round(m, 150 - e, rnd, neg);
}

static uint64_t f64_to_uint(uint64_t x, unsigned rnd, bool neg)
{
    int e = (x >> 52) & 0x7ff;
    uint64_t m = x & ((1ull << 52) - 1);

    if ((x & 0x7fffffffffffffffull) == 0x7ff0000000000000ull) {
        return ~0ull;
    }
    if (e) {
        m |= 1ull << 52;
    } else {
        e = 1;
    }
    if (e - 1075 > 11) {
        return ~0ull;
    }
    return f_shr_round(m, 1075 - e, rnd, neg);
}

/* f32 -> f64, exact; a NaN keeps its payload and gets quieted. */
static uint64_t f32_to_f64(uint32_t x)
{
    uint64_t s = (uint64_t)(x >> 31) << 63;
    int e = (x >> 23) & 0xff;
    uint64_t f = x & 0x7fffffu;

    if (e == 0xff) {
        return s | 0x7ff0000000000000ull | (f << 29) | (f ? 1ull << 51 : 0);
    }
    if (!e) {
        return tesla_f64_pack(s >> 63, -149, f, TRND_RN);
    }
    return s | ((uint64_t)(e + 896) << 52) | (f << 29);
}

/* f64 -> f32 with IEEE rounding, denormals kept (f64 unit). */
static uint32_t f64_to_f32(uint64_t x, unsigned rnd)
{
    bool s = x >> 63;
    int e = (x >> 52) & 0x7ff;
    uint64_t m = x & ((1ull << 52) - 1);

    if (e == 0x7ff) {
        if (m) {
            return ((uint32_t)s << 31) | 0x7fc00000u | (uint32_t)(m >> 29);
        }
        return ((uint32_t)s << 31) | 0x7f800000u;
    }
    if (e) {
        m |= 1ull << 52;
    } else {
        e = 1;
    }
    return tesla_f32_pack(s, e - 1075, m, rnd, F32_IEEE);
}

/* ---- the forms ---- */

static uint64_t cvt_i2i(unsigned dtype, unsigned stype, unsigned flags,
                        uint64_t src, unsigned *cc)
{
    bool neg, ovf = false;
    uint64_t mag = int_source(stype, src, flags, &neg, NULL);
    uint64_t r = int_saturate(dtype, flags, mag, neg, &ovf);

    *cc = int_flags(r, int_dst_bits(dtype, flags));
    return r;
}

/* f32 unit: 8..32-bit integer -> f16/f32. */
static uint64_t cvt_i2f(unsigned dtype, unsigned stype, unsigned rnd,
                        unsigned flags, uint64_t src, unsigned *cc)
{
    bool neg, origneg;
    uint32_t mag = (uint32_t)int_source(stype, src, flags, &neg, &origneg);
    uint32_t f;

    if (dtype == TTYPE_F16) {
        /*
         * UNVERIFIED-by-us hardware bugs of i2f to f16 (hwtest g80_fp):
         * a magnitude with bits 5-29 all set reads as 0 when rounding up
         * is possible, and 2 to 7 high bits are lost depending on the low
         * 16 bits.  Only values far beyond f16's range are affected.
         */
        unsigned adj = rnd & 3;
        uint16_t lo;
        int n = 2;

        if (neg && adj == TRND_RM) {
            adj = TRND_RP;
        } else if (neg && adj == TRND_RP) {
            adj = TRND_RM;
        }
        if ((adj == TRND_RN || adj == TRND_RP) &&
            ((mag >> 5) & 0x1ffffff) == 0x1ffffff) {
            mag = 0;
        }
        lo = (uint16_t)(mag - origneg);
        while (lo < 0x8000 && n < 7) {
            lo <<= 1;
            n++;
        }
        mag = (mag << n) >> n;
    }
    f = tesla_f32_pack(neg, 0, mag, rnd, F32_FLUSH_AFTER);
    if (flags & TESLA_CVT_SAT) {
        f = tesla_f32_sat(f, fpm_of(flags));
    }
    if (dtype == TTYPE_F16) {
        uint16_t h = f32_to_f16(f, rnd, false);

        *cc = tesla_f32_flags(tesla_f16_to_f32(h));
        return h;
    }
    *cc = tesla_f32_flags(f);
    return f;
}

/* A float source as f32 bits, with abs/neg applied. */
static uint32_t float_source(unsigned stype, uint64_t src, unsigned flags)
{
    uint32_t x = stype == TTYPE_F16 ? tesla_f16_to_f32((uint16_t)src)
                                    : (uint32_t)src;

    return tesla_f32_absneg(x, flags & TESLA_CVT_ABS, flags & TESLA_CVT_NEG);
}

/* f32 unit: f16/f32 -> 16/32-bit integer. */
static uint64_t cvt_f2i(unsigned dtype, unsigned stype, unsigned rnd,
                        unsigned flags, uint64_t src, unsigned *cc)
{
    uint32_t x = float_source(stype, src, flags);
    bool neg = x >> 31, ovf = false;
    uint64_t mag = f32_to_uint(x & 0x7fffffffu, rnd, neg, true);
    uint64_t r;

    if (mag >> 32) {
        mag = 0xffffffffu;
    }
    r = int_saturate(dtype, flags, mag, neg, &ovf);
    *cc = int_flags(r, int_dst_bits(dtype, flags));
    return r;
}

/* f32 unit: f16/f32 -> f16/f32, optionally rounded to an integer. */
static uint64_t cvt_f2f(unsigned dtype, unsigned stype, unsigned rnd,
                        unsigned flags, uint64_t src, unsigned *cc)
{
    uint32_t x = float_source(stype, src, flags);
    bool rint = rnd >= TRND_RNI;

    /* The datapath adds -0: NaN becomes canonical, denormals flush. */
    x = tesla_f32_isnan(x) ? TESLA_F32_NAN : tesla_f32_ftz(x);
    if (flags & TESLA_CVT_SAT) {
        x = tesla_f32_sat(x, fpm_of(flags));
    }
    if (rint) {
        x = tesla_f32_rint(x, rnd);
    }
    if (dtype == TTYPE_F16) {
        uint16_t h = f32_to_f16(x, rnd, rint);

        *cc = tesla_f32_flags(tesla_f16_to_f32(h));
        return h;
    }
    *cc = tesla_f32_flags(x);
    return x;
}

/* f64 unit: 32/64-bit integer -> f32/f64. */
static uint64_t cvt_i2f_wide(unsigned dtype, unsigned stype, unsigned rnd,
                             unsigned flags, uint64_t src, unsigned *cc)
{
    bool neg;
    uint64_t mag = int_source(stype, src, flags, &neg, NULL);
    /*
     * The rounding direction follows the sign only for signed sources:
     * a negated unsigned source rounds as if positive (hwtest g80_fp64).
     */
    bool rsign = type_is_signed(stype) ? neg : false;

    if (dtype == TTYPE_F64) {
        uint64_t d = tesla_f64_pack(rsign, 0, mag, rnd);

        d = (d & 0x7fffffffffffffffull) | ((uint64_t)neg << 63);
        *cc = tesla_f64_flags(d);
        return d;
    } else {
        uint32_t f = tesla_f32_pack(rsign, 0, mag, rnd, F32_FLUSH_AFTER);

        f = (f & 0x7fffffffu) | ((uint32_t)neg << 31);
        *cc = f32_flags_noftz(f);
        return f;
    }
}

/* f64 unit: f32/f64 -> 32/64-bit integer. */
static uint64_t cvt_f2i_wide(unsigned dtype, unsigned stype, unsigned rnd,
                             unsigned flags, uint64_t src, unsigned *cc)
{
    bool s64 = stype == TTYPE_F64;
    unsigned sbit = s64 ? 63 : 31;
    unsigned dbits = type_bits(dtype);
    uint64_t x = s64 ? src : (uint32_t)src;
    uint64_t mag, r;
    bool neg, ovf = false;

    if (flags & TESLA_CVT_ABS) {
        x &= ~(1ull << sbit);
    }
    if (flags & TESLA_CVT_NEG) {
        x ^= 1ull << sbit;
    }
    neg = (x >> sbit) & 1;
    x &= ~(1ull << sbit);
    if (s64 ? tesla_f64_isnan(x) : tesla_f32_isnan((uint32_t)x)) {
        r = 1ull << (dbits - 1);
        ovf = true;
    } else {
        mag = s64 ? f64_to_uint(x, rnd, neg)
                  : f32_to_uint((uint32_t)x, rnd, neg, false);
        /*
         * UNVERIFIED: hwtest's model also flags O for a result of exactly
         * 0xffffffff; that looks like a slip in the model and is left out.
         */
        r = int_saturate(dtype, flags, mag, neg, &ovf);
    }
    *cc = int_flags(r, dbits) | (ovf ? TESLA_CC_O : 0);
    return r;
}

/* f64 unit: f32/f64 -> f32/f64. */
static uint64_t cvt_f2f_wide(unsigned dtype, unsigned stype, unsigned rnd,
                             unsigned flags, uint64_t src, unsigned *cc)
{
    uint64_t d = stype == TTYPE_F64 ? src : f32_to_f64((uint32_t)src);

    d = tesla_f64_srcmod(d, flags & TESLA_CVT_ABS, flags & TESLA_CVT_NEG);
    if (dtype == TTYPE_F64) {
        /* Rounding to an integer exists for f64 -> f64 only. */
        if (rnd >= TRND_RNI && stype == TTYPE_F64) {
            d = tesla_f64_rint(d, rnd);
        }
        *cc = tesla_f64_flags(d);
        return d;
    } else {
        uint32_t f = f64_to_f32(d, rnd);

        *cc = f32_flags_noftz(f);
        return f;
    }
}

uint64_t tesla_cvt(unsigned dtype, unsigned stype, unsigned rnd,
                   unsigned flags, uint64_t src, unsigned *cc)
{
    bool dfloat = type_is_float(dtype), sfloat = type_is_float(stype);
    bool wide = type_bits(dtype) == 64 || type_bits(stype) == 64;
    unsigned dummy;

    if (!cc) {
        cc = &dummy;
    }
    if (!dfloat && !sfloat) {
        return cvt_i2i(dtype, stype, flags, src, cc);
    }
    if (wide) {
        if (dfloat && sfloat) {
            return cvt_f2f_wide(dtype, stype, rnd, flags, src, cc);
        }
        if (dfloat) {
            return cvt_i2f_wide(dtype, stype, rnd, flags, src, cc);
        }
        return cvt_f2i_wide(dtype, stype, rnd, flags, src, cc);
    }
    if (dfloat && sfloat) {
        return cvt_f2f(dtype, stype, rnd, flags, src, cc);
    }
    if (dfloat) {
        return cvt_i2f(dtype, stype, rnd, flags, src, cc);
    }
    return cvt_f2i(dtype, stype, rnd, flags, src, cc);
}
