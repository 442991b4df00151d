/*
 * Internal helpers shared by the Tesla lane arithmetic files (fpu*.c):
 * unpacking, rounding shifts and packing of f32 values.  Not an API.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_FPU_IMPL_H
#define TARGET_TESLA_FPU_IMPL_H

#include "target/tesla/fpu.h"

/* How tesla_f32_pack treats results below 2^-126. */
enum {
    F32_FLUSH_AFTER,    /* round to 24 bits, unbounded exponent, then flush */
    F32_IEEE,           /* IEEE rounding to denormals, keep them */
    F32_IEEE_FTZ,       /* IEEE rounding to denormals, then flush them */
};

#define F32_IMPLICIT    0x00800000u

static inline bool f32_is_inf(uint32_t x)
{
    return (x & 0x7fffffffu) == 0x7f800000u;
}

static inline bool f32_is_zero(uint32_t x)
{
    return !(x & 0x7fffffffu);
}

/*
 * Split a finite f32 (denormals already flushed) into sign, biased exponent
 * and 24-bit significand with the implicit bit; value = m * 2^(e - 150).
 * Zero gives m = 0.
 */
static inline void f32_unpack(uint32_t x, bool *s, int *e, uint32_t *m)
{
    *s = x >> 31;
    *e = (x >> 23) & 0xff;
    *m = *e ? ((x & 0x7fffffu) | F32_IMPLICIT) : (x & 0x7fffffu);
    if (!*e) {
        *e = 1;
    }
}

/*
 * Should a magnitude truncated to @q, with @rest below it out of a field
 * whose half is @half (rest == half: exact tie), be rounded up?  @rnd is
 * TRND_RN..RZ (the low 2 bits are used), @sign the sign of the value.
 */
static inline bool f_round_up(unsigned rnd, bool sign, uint64_t q,
                              uint64_t rest, uint64_t half, bool rest_below)
{
    switch (rnd & 3) {
    case TRND_RN:
        if (rest_below) {
            return false;
        }
        return rest > half || (rest == half && (q & 1));
    case TRND_RM:
        return sign && rest;
    case TRND_RP:
        return !sign && rest;
    default:
        return false;
    }
}

/*
 * m >> sh rounded per @rnd/@sign; sh <= 0 shifts left (exact, the caller
 * guarantees no overflow).
 */
static inline uint64_t f_shr_round(uint64_t m, int sh, unsigned rnd,
                                   bool sign)
{
    uint64_t q, rest, half;
    bool below = false;

    if (sh <= 0) {
        return sh <= -64 ? 0 : m << -sh;
    }
    if (sh >= 64) {
        q = 0;
        rest = m;
        half = 1ull << 63;
        below = sh > 64;    /* then any rest is less than half */
    } else {
        q = m >> sh;
        rest = m & ((1ull << sh) - 1);
        half = 1ull << (sh - 1);
    }
    return q + f_round_up(rnd, sign, q, rest, half, below);
}

/* m >> sh keeping a sticky bit (any lost bit sets bit 0); sh may be <= 0. */
static inline uint64_t f_shr_jam(uint64_t m, int sh)
{
    if (sh <= 0) {
        return m << -sh;
    }
    if (sh >= 64) {
        return m != 0;
    }
    return (m >> sh) | ((m & ((1ull << sh) - 1)) != 0);
}

static inline int f_top_bit(uint64_t m)
{
    return 63 - __builtin_clzll(m);
}

/*
 * Whether an overflowed result of @sign rounds to the largest finite value
 * (rather than to infinity) under rounding mode @rnd.
 */
static inline bool overflow_to_max(bool sign, unsigned rnd)
{
    switch (rnd & 3) {
    case TRND_RZ:
        return true;
    case TRND_RM:
        return !sign;
    case TRND_RP:
        return sign;
    default:
        return false;
    }
}

/* Overflowed f32 magnitude: Inf, or the largest finite per rounding. */
static inline uint32_t f32_overflow(bool sign, unsigned rnd)
{
    return ((uint32_t)sign << 31) |
           (overflow_to_max(sign, rnd) ? 0x7f7fffffu : 0x7f800000u);
}

/* Round and pack the value (-1)^sign * m * 2^e (fpu.c). */
uint32_t tesla_f32_pack(bool sign, int e, uint64_t m, unsigned rnd,
                        int mode);

/* Likewise to f64, IEEE rounding with denormals (fpu-f64.c). */
uint64_t tesla_f64_pack(bool sign, int e, uint64_t m, unsigned rnd);

/* f64 bits of a quieted NaN, or @x unchanged. */
static inline uint64_t f64_quiet(uint64_t x)
{
    return tesla_f64_isnan(x) ? x | (1ull << 51) : x;
}

#endif
