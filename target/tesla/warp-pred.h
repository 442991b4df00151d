/*
 * Tesla warp interpreter: predicates on 32 lanes at once, for
 * warp-pred.c (tesla_pred_mask) and the fast loop (warp-fast.c), which
 * inlines them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_WARP_PRED_H
#define TARGET_TESLA_WARP_PRED_H

#include "target/tesla/warp.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* tesla_pred_bytes[p][f]: 0xff if predicate p holds for flags value f
   (filled by tesla_pred_init). */
extern uint8_t tesla_pred_bytes[32][16];

/* Lanes whose flags have bit @bit set. */
static inline uint32_t warp_flag_plane(const uint8_t *fl, unsigned bit)
{
#ifdef __SSE2__
    __m128i lo = _mm_loadu_si128((const __m128i *)fl);
    __m128i hi = _mm_loadu_si128((const __m128i *)(fl + 16));

    /* Move the bit to the top of each byte (16-bit shifts keep bytes
       apart for counts below 8), then gather the tops. */
    lo = _mm_slli_epi16(lo, 7 - bit);
    hi = _mm_slli_epi16(hi, 7 - bit);
    return (uint32_t)_mm_movemask_epi8(lo) |
           (uint32_t)_mm_movemask_epi8(hi) << 16;
#else
    uint32_t m = 0;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        m |= ((fl[l] >> bit) & 1u) << l;
    }
    return m;
#endif
}

/* tesla_pred_mask(), inlined into the fast loop (warp-fast.h). */
static inline __attribute__((always_inline))
uint32_t warp_pred_mask(const TeslaWarp *w, unsigned pred, unsigned c)
{
    const uint8_t *fl = w->c[c & 3];
    uint32_t z = warp_flag_plane(fl, 0), s = warp_flag_plane(fl, 1);
    uint32_t cy, o;

    /* The same formulas as pred_eval() (warp-pred.c), on 32 lanes at
       once. */
    switch (pred & 31) {
    case 0x00: return 0;
    case 0x02: return z & ~s;
    case 0x05: return ~z;
    case 0x07: return ~z | ~s;
    case 0x08: return z & s;
    case 0x0a: return z;
    case 0x0d: return ~z | s;
    case 0x0f: return WARP_FULL;
    case 0x13: return s;
    case 0x1c: return ~s;
    default:
        break;
    }
    cy = warp_flag_plane(fl, 2);
    o = warp_flag_plane(fl, 3);
    switch (pred & 31) {
    case 0x01: return (s & ~z) ^ o;
    case 0x03: return s ^ (z | o);
    case 0x04: return ~z & ~(s ^ o);
    case 0x06: return ~(s ^ o);
    case 0x09: return s ^ o;
    case 0x0b: return z | (s ^ o);
    case 0x0c: return ~s ^ (z | o);
    case 0x0e: return (~s | z) ^ o;
    case 0x10: return o;
    case 0x11: return cy;
    case 0x12: return ~z & cy;
    case 0x1d: return z | ~cy;
    case 0x1e: return ~cy;
    case 0x1f: return ~o;
    default:
        return 0;   /* 0x14-0x1b: see pred_eval() */
    }
}

#endif
