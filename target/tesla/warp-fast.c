/*
 * Tesla warp interpreter: the fast path.
 *
 * Common instructions (ALU ops on registers and one immediate, b32 loads
 * and stores of flat memory, uniform and divergent bra, joinat, nop, and
 * an FP's interp and rcp) in a pre-resolved form (TeslaFastInsn, made by
 * warp-classify.c), run by a tight loop (warp-fast.h) that stays in the
 * fast path from one instruction to the next.  Anything unusual (other
 * operand kinds, flags other than an integer add's, 16-bit forms,
 * rounding modes, a fault, quadon) takes the general path (warp.c): the
 * fast loop hands over before changing any state.
 *
 * This file builds the loop once per host ISA, with the helpers the
 * template inlines, and picks the build at start-up (tesla_fast_init).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp-pred.h"
#include "target/tesla/fpu.h"

/*
 * The fast loop works on GCC vector extensions of VL lanes, VL chosen per
 * build: 4 (16 bytes, what SSE2 and NEON hold) for the portable build, 8
 * (one AVX register) for the AVX2 build.  Wider vectors than the target
 * has are split by the compiler, and their compares done lane by lane:
 * ten times slower.  The helpers taking vectors are static and inlined,
 * so the ABI note GCC gives for 32-byte vectors without AVX does not
 * apply.
 */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/*
 * x86-64 with GCC or clang: the fast loop is built a second time for
 * AVX2 + FMA and picked at start-up when the host has them; elsewhere
 * (and with other compilers) the portable build only.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define TESLA_FAST_AVX2 1
#include <immintrin.h>
#else
#define TESLA_FAST_AVX2 0
#endif

#define FAST_INLINE static inline __attribute__((always_inline))

/* fast_lanes[n]: lane j all ones if bit j of n is set (n < 256). */
static uint32_t fast_lanes[256][8] __attribute__((aligned(32)));

/* Byte offsets of consecutive words, lane by lane. */
static uint32_t fast_lane_words[TESLA_WARP_SIZE] __attribute__((aligned(32)));

/* dst[l] = fl[l] (values 0-15) for the lanes in m. */
FAST_INLINE void flags_store(uint8_t *dst, const uint32_t *fl, uint32_t m)
{
#ifdef __SSE2__
    __m128i p[4], b0, b1;

    for (unsigned i = 0; i < 4; i++) {
        p[i] = _mm_packs_epi32(_mm_loadu_si128((const __m128i *)fl + 2 * i),
                               _mm_loadu_si128((const __m128i *)fl + 2 * i
                                               + 1));
    }
    b0 = _mm_packus_epi16(p[0], p[1]);
    b1 = _mm_packus_epi16(p[2], p[3]);
    if (likely(m == WARP_FULL)) {
        _mm_storeu_si128((__m128i *)dst, b0);
        _mm_storeu_si128((__m128i *)(dst + 16), b1);
        return;
    }
    {
        uint8_t tmp[TESLA_WARP_SIZE];

        _mm_storeu_si128((__m128i *)tmp, b0);
        _mm_storeu_si128((__m128i *)(tmp + 16), b1);
        warp_blend8(dst, tmp, m);
    }
#else
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            dst[l] = fl[l];
        }
    }
#endif
}

#if TESLA_FAST_AVX2
/*
 * The x86 MXCSR bits DAZ (denormal inputs read as zero of their sign) and
 * FTZ (results whose rounded value, with an unbounded exponent, is below
 * 2^-126 become zero of their sign) are the Tesla f32 rules for fadd and
 * fmul, when the host detects tininess after rounding as Intel and AMD
 * document.  fast_hw_ftz_check() verifies that on the host at start-up.
 * The fast loop sets them on entry and restores them on exit; the asm
 * keeps the compiler from moving memory accesses across.
 */
#define MXCSR_DAZ_FTZ 0x8040u

static bool fast_hw_ftz_ok;

static inline uint32_t mxcsr_get(void)
{
    uint32_t v;

    __asm__ volatile("stmxcsr %0" : "=m"(v) : : "memory");
    return v;
}

static inline void mxcsr_set(uint32_t v)
{
    __asm__ volatile("ldmxcsr %0" : : "m"(v) : "memory");
}

static uint32_t ftz_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

/* An f32 of a kind that matters here: denormal, tiny, Inf, NaN, ... */
static uint32_t ftz_input(uint64_t *s)
{
    uint32_t sign = ftz_rand(s) & 0x80000000u, mant = ftz_rand(s) & 0x7fffff;

    switch (ftz_rand(s) % 6) {
    case 0:
        return sign | mant;                                 /* denormal */
    case 1:
        return sign | (1 + ftz_rand(s) % 40) << 23 | mant;  /* tiny */
    case 2:
        return sign | (1 + ftz_rand(s) % 254) << 23 | mant;
    case 3:
        return sign | 0x7f800000u | (ftz_rand(s) & 1 ? mant : 0);
    case 4:
        return sign | 0x3f000000u | (ftz_rand(s) & 0xffffff);
    default:
        return ftz_rand(s);
    }
}

static bool fast_hw_ftz_check(void)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    uint32_t csr = mxcsr_get();
    bool ok = true;

    for (unsigned i = 0; i < 4096 && ok; i++) {
        uint32_t a = ftz_input(&s), b = ftz_input(&s);
        uint32_t ea = (a >> 23) & 0xff;
        float x, y, p, q;
        uint32_t pb, qb;

        if ((i & 1) && ea && ea != 0xff) {
            /* a product near 2^-126 */
            int eb = 253 - (int)ea - (int)(ftz_rand(&s) % 3);

            if (eb > 0 && eb < 255) {
                b = (b & 0x807fffffu) | (uint32_t)eb << 23;
            }
        }
        memcpy(&x, &a, 4);
        memcpy(&y, &b, 4);
        mxcsr_set(csr | MXCSR_DAZ_FTZ);
        __asm__ volatile("" : "+x"(x), "+x"(y));
        p = x * y;
        q = x + y;
        __asm__ volatile("" : "+x"(p), "+x"(q));
        mxcsr_set(csr);
        memcpy(&pb, &p, 4);
        memcpy(&qb, &q, 4);
        pb = tesla_f32_isnan(pb) ? TESLA_F32_NAN : pb;
        qb = tesla_f32_isnan(qb) ? TESLA_F32_NAN : qb;
        ok = pb == tesla_f32_mul_slow(a, b, TRND_RN, 0) &&
             qb == tesla_f32_add_slow(a, b, TRND_RN);
    }
    return ok;
}
#endif

/* Push a control stack entry; the caller checked there is room. */
FAST_INLINE void fast_push(TeslaWarp *w, unsigned type, uint32_t pc,
                           uint32_t mask)
{
    TeslaStackEntry *e = &w->stack[w->nstack++];

    e->type = type;
    e->pc = pc;
    e->mask = mask;
    e->arrived = 0;
    e->after = 0;
}

/* The fast loop, per ISA (warp-fast.h). */
#define FAST_FN(name) name##_base
#define FAST_VL 4
#define FAST_AVX2 0
#include "target/tesla/warp-fast.h"
#undef FAST_FN
#undef FAST_VL
#undef FAST_AVX2

#if TESLA_FAST_AVX2
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
#define FAST_FN(name) name##_avx2
#define FAST_VL 8
#define FAST_AVX2 1
#include "target/tesla/warp-fast.h"
#undef FAST_FN
#undef FAST_VL
#undef FAST_AVX2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

TeslaFastRunFn *tesla_fast_run = fast_run_base;

void tesla_fast_init(void)
{
    static gsize done;

    if (!g_once_init_enter(&done)) {
        return;
    }
    for (unsigned n = 0; n < 256; n++) {
        for (unsigned j = 0; j < 8; j++) {
            fast_lanes[n][j] = (n >> j) & 1 ? 0xffffffffu : 0;
        }
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        fast_lane_words[l] = 4 * l;
    }
#if TESLA_FAST_AVX2
    __builtin_cpu_init();
    /* GEMU_TESLA_FAST_BASE=1 runs the portable build (for testing it) */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        !g_getenv("GEMU_TESLA_FAST_BASE")) {
        fast_hw_ftz_ok = fast_hw_ftz_check();
        tesla_fast_run = fast_run_avx2;
    }
#endif
    g_once_init_leave(&done, 1);
}

bool tesla_fast_rcp_lanes(bool avx2, const uint32_t *x, uint32_t *res)
{
    static const TeslaFastInsn f = { .kind = TFK_RCP, .am = 0xffffffffu };

    if (!avx2) {
        rcp_base(x, &f, res);
        return true;
    }
#if TESLA_FAST_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        rcp_avx2(x, &f, res);
        return true;
    }
#endif
    return false;
}
