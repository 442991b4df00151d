/*
 * Tesla warp interpreter: the instruction loop, operand fetch and
 * write-back, predicates.
 *
 * A warp runs 32 threads in lock-step.  Each instruction is computed for
 * all 32 lanes and written back under the mask of the threads that execute
 * it (the current path's threads whose predicate holds), with a fast path
 * when all 32 do.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/tesla/warp.h"
#include "target/tesla/fpu.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* --- predicates ----------------------------------------------------------- */

/* pred_truth[p] bit f: predicate p holds for flags value f. */
static uint16_t pred_truth[32];

static bool pred_eval(unsigned p, unsigned f)
{
    bool z = f & TFL_Z, s = f & TFL_S, c = f & TFL_C, o = f & TFL_O;

    switch (p) {
    case 0x00: return false;
    case 0x01: return (s && !z) ^ o;            /* l */
    case 0x02: return z && !s;                  /* e */
    case 0x03: return s ^ (z || o);             /* le */
    case 0x04: return !z && !(s ^ o);           /* g */
    case 0x05: return !z;                       /* lg */
    case 0x06: return !(s ^ o);                 /* ge */
    case 0x07: return !z || !s;                 /* lge */
    case 0x08: return z && s;                   /* u */
    case 0x09: return s ^ o;                    /* lu */
    case 0x0a: return z;                        /* eu */
    case 0x0b: return z || (s ^ o);             /* leu */
    case 0x0c: return !s ^ (z || o);            /* gu */
    case 0x0d: return !z || s;                  /* lgu */
    case 0x0e: return (!s || z) ^ o;            /* geu */
    case 0x0f: return true;
    case 0x10: return o;
    case 0x11: return c;
    case 0x12: return !z && c;                  /* a */
    case 0x13: return s;
    case 0x1c: return !s;
    case 0x1d: return z || !c;                  /* na */
    case 0x1e: return !c;
    case 0x1f: return !o;
    default:
        /* 0x14-0x1b: no known meaning.  UNVERIFIED: never true. */
        return false;
    }
}

/* pred_bytes[p][f]: 0xff if predicate p holds for flags value f. */
static uint8_t pred_bytes[32][16];

static void pred_init(void)
{
    static bool done;

    if (done) {
        return;
    }
    for (unsigned p = 0; p < 32; p++) {
        uint16_t t = 0;

        for (unsigned f = 0; f < 16; f++) {
            t |= pred_eval(p, f) << f;
            pred_bytes[p][f] = pred_eval(p, f) ? 0xff : 0;
        }
        pred_truth[p] = t;
    }
    done = true;
}

/* Lanes whose flags have bit @bit set. */
static inline uint32_t flag_plane(const uint8_t *fl, unsigned bit)
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

/* tesla_pred_mask(), inlined into the fast loop. */
static inline __attribute__((always_inline))
uint32_t pred_mask_inline(const TeslaWarp *w, unsigned pred, unsigned c)
{
    const uint8_t *fl = w->c[c & 3];
    uint32_t z = flag_plane(fl, 0), s = flag_plane(fl, 1);
    uint32_t cy, o;

    /* The same formulas as pred_eval(), on 32 lanes at once. */
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
    cy = flag_plane(fl, 2);
    o = flag_plane(fl, 3);
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

uint32_t tesla_pred_mask(const TeslaWarp *w, unsigned pred, unsigned c)
{
    return pred_mask_inline(w, pred, c);
}

/* --- traps ------------------------------------------------------------ */

bool tesla_warp_trap(TeslaWarp *w, TeslaError e, const char *fmt, ...)
{
    TeslaRun *run = w->run;
    TeslaResult *r = &run->result;
    va_list ap;

    r->status = TESLA_RUN_TRAP;
    r->error = e;
    r->pc = w->insn_pc;
    r->warp = w->index;
    r->block = w->block;
    va_start(ap, fmt);
    g_vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "tesla: %s at 0x%06x (warp %u): %s\n",
                  tesla_error_name(e), w->insn_pc, w->index, r->msg);
    return false;
}

/* --- operands ------------------------------------------------------------ */

static uint32_t sreg_value(TeslaWarp *w, unsigned sr, unsigned lane)
{
    TeslaRun *run = w->run;

    switch (sr) {
    case 0:     /* $physid */
        return lane | (w->index & 0xff) << 8 |
               (run->env.mp_index & 0xf) << 16 |
               (run->env.tpc_index & 0xf) << 20;
    case 1:     /* $clock: UNVERIFIED rate, one tick per warp-insn */
        return (uint32_t)run->clock;
    case 3:     /* $vstride */
        return 0x20;
    case 8:     /* $sampleid */
        return run->launch.sampleid;
    default:    /* $sr2, $pm0-$pm3 (no performance counters) */
        return 0;
    }
}

const uint32_t *tesla_fetch(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                            uint32_t *buf)
{
    switch (o->kind) {
    case TOPND_REG:
        return warp_rrow(w, o->reg);
    case TOPND_HREG: {
        const uint32_t *row = warp_rrow(w, o->reg);
        unsigned sh = o->half ? 16 : 0;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = (row[l] >> sh) & 0xffff;
        }
        return buf;
    }
    case TOPND_IMM:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = o->imm;
        }
        return buf;
    case TOPND_MEM:
        return tesla_fetch_mem(w, o, m, buf) ? buf : NULL;
    case TOPND_AREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = w->a[o->areg & 7][l];
        }
        return buf;
    case TOPND_CREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = w->c[o->reg & 3][l];
        }
        return buf;
    case TOPND_SREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = sreg_value(w, o->reg, l);
        }
        return buf;
    default:
        memset(buf, 0, TESLA_WARP_SIZE * sizeof(uint32_t));
        return buf;
    }
}

/* Write $a[idx] for lanes m; $a7 is one register per warp. */
static void store_areg(TeslaWarp *w, unsigned idx, const uint32_t *v,
                       uint32_t m)
{
    idx &= 7;
    if (idx == 0 || idx == 5 || idx == 6 || !m) {
        return;     /* $a0 is zero; $a5/$a6 do not exist */
    }
    if (idx == 7) {
        /* UNVERIFIED: the lowest active lane's value wins. */
        uint16_t x = v[__builtin_ctz(m)];

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            w->a[7][l] = x;
        }
        return;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            w->a[idx][l] = v[l];
        }
    }
}

bool tesla_store_dst(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                     uint32_t m)
{
    const TeslaOperand *d = &insn->dst;

    switch (d->kind) {
    case TOPND_REG:
        warp_blend(warp_wrow(w, d->reg), res, m);
        return true;
    case TOPND_HREG: {
        uint32_t *row = warp_wrow(w, d->reg);
        unsigned sh = d->half ? 16 : 0;
        uint32_t keep = d->half ? 0x0000ffffu : 0xffff0000u;
        uint32_t lm[TESLA_WARP_SIZE];

        warp_lanemask(m, lm);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            uint32_t nv = (row[l] & keep) | ((res[l] & 0xffff) << sh);

            row[l] = (row[l] & ~lm[l]) | (nv & lm[l]);
        }
        return true;
    }
    case TOPND_MEM: {
        bool half = d->mtype == TTYPE_B16 || d->mtype == TTYPE_U16 ||
                    d->mtype == TTYPE_S16;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            uint32_t v, addr;

            if (!(m & (1u << l))) {
                continue;
            }
            v = res[l];
            addr = tesla_mem_addr(w, d, l);
            if (half) {
                /* A 16-bit result to o[] is duplicated in both halves. */
                v = (v & 0xffff) * 0x10001u;
                addr &= ~3u;
            }
            if (!tesla_mem_write(w, d->space, d->space_idx, addr, 4, l,
                                 &v)) {
                return false;
            }
        }
        return true;
    }
    case TOPND_AREG:
        store_areg(w, d->areg, res, m);
        return true;
    case TOPND_CREG: {
        uint8_t fl[TESLA_WARP_SIZE];

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            fl[l] = res[l] & 15;
        }
        warp_blend8(w->c[d->reg & 3], fl, m);
        return true;
    }
    default:
        return true;    /* no destination, or the result is discarded */
    }
}

void tesla_store_flags(TeslaWarp *w, const TeslaInsn *insn,
                       const uint8_t *fl, uint32_t m)
{
    if (insn->cdst >= 0) {
        warp_blend8(w->c[insn->cdst & 3], fl, m);
    }
}

static void postinc_one(TeslaWarp *w, const TeslaOperand *o, uint32_t m)
{
    unsigned a = o->areg & 7;

    if (o->kind != TOPND_MEM || !o->postinc || o->space == TSPACE_G ||
        a == 0 || a == 5 || a == 6) {
        return;
    }
    if (a == 7) {
        uint16_t x = w->a[7][0] + o->imm;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            w->a[7][l] = x;
        }
        return;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            w->a[a][l] += o->imm;
        }
    }
}

void tesla_postinc(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    /* Only one $a field exists, so at most one operand post-increments. */
    if (insn->dst.kind == TOPND_MEM && insn->dst.postinc) {
        postinc_one(w, &insn->dst, m);
        return;
    }
    for (unsigned i = 0; i < insn->nsrc && i < 4; i++) {
        if (insn->src[i].kind == TOPND_MEM && insn->src[i].postinc) {
            postinc_one(w, &insn->src[i], m);
            return;
        }
    }
}

bool tesla_finish(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                  const uint8_t *fl, uint32_t m)
{
    tesla_postinc(w, insn, m);
    if (fl) {
        tesla_store_flags(w, insn, fl, m);
    }
    return tesla_store_dst(w, insn, res, m);
}

/* --- decode cache ------------------------------------------------------- */

static const TeslaInsn *insn_at(TeslaWarp *w, uint32_t pc)
{
    TeslaRun *run = w->run;
    size_t idx = pc >> 2;
    TeslaInsn *insn;

    if ((pc & 3) || idx >= run->env.code_words) {
        tesla_warp_trap(w, TESLA_ERR_MEMORY_FAULT,
                        "pc 0x%x outside the code (%zu words)", pc,
                        run->env.code_words);
        return NULL;
    }
    insn = &run->icache[idx];
    if (likely(run->ivalid[idx])) {
        return insn;
    }
    tesla_decode(run->env.variant, run->env.prog, run->env.code,
                 run->env.code_words, pc, insn);
    run->ivalid[idx] = 1;
    run->cc->decodes++;
    tesla_fast_classify(run, idx);
    return insn;
}


/* --- the fast path -------------------------------------------------------- */

/*
 * Common instructions (ALU ops on registers and one immediate, b32 loads
 * and stores of flat memory, uniform and divergent bra, joinat, nop) in a
 * pre-resolved form (TeslaFastInsn), run by a tight loop (warp-fast.h)
 * that stays in the fast path from one instruction to the next.
 * Anything unusual (other operand kinds, flags other than an integer
 * add's, 16-bit forms, rounding modes, a fault, quadon) takes the general
 * path: the fast loop hands over before changing any state.
 */
enum {
    TFK_NONE = 0,
    TFK_MOV,
    TFK_ADD, TFK_SUB, TFK_SUBR,
    TFK_ADD_CC, TFK_SUB_CC,
    TFK_AND, TFK_OR, TFK_XOR, TFK_MOV2,
    TFK_SHL, TFK_SHR, TFK_SAR,
    TFK_MUL24, TFK_MAD24,
    TFK_FADD, TFK_FMUL, TFK_FMAD,
    TFK_NOP, TFK_BRA, TFK_JOINAT,
    TFK_LD_G, TFK_ST_G,     /* b32 g[$r + off], flat g[] */
    TFK_LD_SL, TFK_ST_SL,   /* b32 s[] / l[] at $a + off (no post-incr.) */
    TFK_LD_C,               /* b32 c[off], flat c[] */
    TFK_INTERP,             /* interp v[off] (the launch's input words) */
    TFK_INTERP_MUL,         /* interp v[off] $b: times a register */
    TFK_RCP,                /* the SFU's rcp of a register */
};

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
typedef uint64_t TeslaFastRunFn(TeslaWarp *w, uint64_t n, uint64_t limit,
                                bool *trap);

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

static TeslaFastRunFn *fast_run = fast_run_base;

static void fast_init(void)
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
        fast_run = fast_run_avx2;
    }
#endif
    g_once_init_leave(&done, 1);
}

/* --- fast-path classification ------------------------------------------ */

static bool fast_operand(const TeslaInsn *i, const TeslaOperand *o,
                         unsigned gprs, uint8_t *row, bool *is_imm,
                         uint32_t *imm)
{
    if (o->kind == TOPND_REG) {
        *row = o->reg < gprs ? o->reg : WARP_ZERO_ROW;
        *is_imm = false;
        return true;
    }
    if (o->kind == TOPND_IMM) {
        *imm = o->imm;
        *is_imm = true;
        return true;
    }
    return false;
}

static void f32_masks(const TeslaOperand *o, bool negx, uint32_t *and_m,
                      uint32_t *xor_m)
{
    *and_m = o->abs ? 0x7fffffffu : 0xffffffffu;
    *xor_m = (o->neg ^ negx) ? 0x80000000u : 0;
}

/* A b32 memory operand the fast loop can access; sets f->kind's fields. */
static bool fast_mem_operand(TeslaRun *run, const TeslaOperand *o,
                             TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;

    if (o->kind != TOPND_MEM || tesla_type_size(o->mtype) != 4) {
        return false;
    }
    f->off = o->imm;
    f->sidx = o->space_idx & 15;
    switch (o->space) {
    case TSPACE_G:
        f->a = o->reg < gprs ? o->reg : WARP_ZERO_ROW;
        return run->env.g[f->sidx].data != NULL;
    case TSPACE_S:
    case TSPACE_L:
        f->space = o->space;
        f->areg = o->areg & 7;
        return !o->postinc;
    case TSPACE_C:
        return (o->areg & 7) == 0 && run->env.c[f->sidx].data != NULL;
    default:
        return false;
    }
}

/*
 * interp of a b32 v[] word at a fixed address (exec_interp: the input
 * word, times an optional register source) and rcp of a register
 * (exec_sfu); TFK_NONE for other forms.
 */
static unsigned fast_classify_fp(TeslaRun *run, const TeslaInsn *i,
                                 TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;
    const TeslaOperand *s0 = &i->src[0], *s1 = &i->src[1];

    if (i->dst.kind != TOPND_REG || i->nsrc < 1) {
        return TFK_NONE;
    }
    f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
    f->am = f->bm = f->cm = 0xffffffffu;
    if (i->op == TOP_RCP) {
        if (i->cdst >= 0 || i->nsrc != 1 || s0->kind != TOPND_REG) {
            return TFK_NONE;
        }
        f->a = s0->reg < gprs ? s0->reg : WARP_ZERO_ROW;
        f32_masks(s0, false, &f->am, &f->ax);
        return TFK_RCP;
    }
    if (s0->kind != TOPND_MEM || s0->space != TSPACE_V ||
        tesla_type_size(s0->mtype) != 4 || (s0->areg & 7) || s0->postinc) {
        return TFK_NONE;
    }
    f->off = s0->imm & 0xffff;
    if (i->nsrc < 2 || s1->kind == TOPND_NONE) {
        return TFK_INTERP;
    }
    if (s1->kind != TOPND_REG) {
        return TFK_NONE;
    }
    f->b = s1->reg < gprs ? s1->reg : WARP_ZERO_ROW;
    f32_masks(s1, false, &f->bm, &f->bx);
    f->fmods = f->bm != 0xffffffffu || f->bx;
    return TFK_INTERP_MUL;
}

/* Memory and control kinds; TFK_NONE if not one of them. */
static unsigned fast_classify_other(TeslaRun *run, const TeslaInsn *i,
                                    TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;
    bool imm;
    uint32_t val;

    switch (i->op) {
    case TOP_NOP:
        f->pred = TPRED_ALWAYS;     /* nothing depends on it */
        return TFK_NOP;
    case TOP_BRA:
        /* the fast loop checks the alignment of pc only on entry */
        if (i->nsrc < 1 || i->src[0].kind != TOPND_TARGET ||
            (i->src[0].imm & 3)) {
            return TFK_NONE;
        }
        f->target = i->src[0].imm;
        return TFK_BRA;
    case TOP_JOINAT:
        if (i->nsrc < 1 || i->src[0].kind != TOPND_TARGET) {
            return TFK_NONE;
        }
        f->target = i->src[0].imm;
        f->pred = TPRED_ALWAYS;     /* joinat ignores its predicate */
        return TFK_JOINAT;
    case TOP_LD:
        if (i->dst.kind != TOPND_REG || i->nsrc != 1 || i->cdst >= 0 ||
            !fast_mem_operand(run, &i->src[0], f)) {
            return TFK_NONE;
        }
        f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
        return i->src[0].space == TSPACE_G ? TFK_LD_G :
               i->src[0].space == TSPACE_C ? TFK_LD_C : TFK_LD_SL;
    case TOP_ST:
        if (i->nsrc != 1 || i->src[0].kind != TOPND_REG || i->cdst >= 0 ||
            i->dst.space == TSPACE_C ||
            !fast_mem_operand(run, &i->dst, f) ||
            !fast_operand(i, &i->src[0], gprs, &f->b, &imm, &val)) {
            return TFK_NONE;
        }
        return i->dst.space == TSPACE_G ? TFK_ST_G : TFK_ST_SL;
    case TOP_INTERP:
    case TOP_RCP:
        return fast_classify_fp(run, i, f);
    default:
        return TFK_NONE;
    }
}

void tesla_fast_classify(TeslaRun *run, size_t idx)
{
    const TeslaInsn *i = &run->icache[idx];
    TeslaFastInsn *f = &run->fcache[idx];
    unsigned gprs = run->env.gprs;
    bool aimm = false, bimm = false, cimm = false;
    uint32_t aval = 0, bval = 0, cval = 0;
    bool b32 = i->mods & TMOD_B32;
    unsigned kind = TFK_NONE;

    memset(f, 0, offsetof(TeslaFastInsn, imm));
    if (i->error != TESLA_ERR_NONE) {
        return;
    }
    f->pred = i->pred;
    f->pred_c = i->pred_c;
    kind = fast_classify_other(run, i, f);
    if (kind != TFK_NONE) {
        f->kind = kind;
        f->len = i->len;
        f->post = i->post;
        return;
    }
    memset(f, 0, offsetof(TeslaFastInsn, imm));
    if (i->dst.kind != TOPND_REG || i->nsrc < 1 || i->nsrc > 3) {
        return;
    }
    if (!fast_operand(i, &i->src[0], gprs, &f->a, &aimm, &aval) ||
        (i->nsrc > 1 &&
         !fast_operand(i, &i->src[1], gprs, &f->b, &bimm, &bval)) ||
        (i->nsrc > 2 &&
         !fast_operand(i, &i->src[2], gprs, &f->c, &cimm, &cval)) ||
        cimm || (aimm && i->nsrc > 1)) {
        return;
    }
    f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
    f->am = f->bm = f->cm = 0xffffffffu;
    switch (i->op) {
    case TOP_MOV:
        if (b32 && (i->lanemask & 0xf) == 0xf &&
            i->nsrc == 1) {
            kind = TFK_MOV;
            /* the source goes to b */
            f->b = f->a;
            bimm = aimm;
            bval = aval;
        }
        break;
    case TOP_IADD:
        if (!b32 || (i->mods & TMOD_SAT) || i->nsrc != 2 ||
            i->addop == TADDOP_ADDC) {
            break;
        }
        if (i->cdst < 0) {
            kind = i->addop == TADDOP_ADD ? TFK_ADD :
                   i->addop == TADDOP_SUB ? TFK_SUB : TFK_SUBR;
        } else if (i->addop != TADDOP_SUBR) {
            kind = i->addop == TADDOP_ADD ? TFK_ADD_CC : TFK_SUB_CC;
            f->cdst = i->cdst & 3;
        }
        break;
    case TOP_LOGOP:
        if (!b32 || i->cdst >= 0 || i->nsrc != 2) {
            break;
        }
        kind = TFK_AND + (i->logop & 3);
        f->am = i->src[0].not_ ? ~0u : 0;   /* xor masks here */
        f->bm = i->src[1].not_ ? ~0u : 0;
        break;
    case TOP_SHL:
    case TOP_SHR:
        if (!b32 || i->cdst >= 0 || i->nsrc != 2 || !bimm || bval >= 32) {
            break;
        }
        kind = i->op == TOP_SHL ? TFK_SHL :
               (i->mods & TMOD_SIGNED) ? TFK_SAR : TFK_SHR;
        f->am = bval;
        break;
    case TOP_IMUL24:
        if (i->cdst < 0 && i->nsrc == 2 &&
            !(i->mods & (TMOD_HIGH | TMOD_SIGNED)) &&
            i->stype != TTYPE_S24 && i->stype != TTYPE_U16 &&
            i->stype != TTYPE_S16) {
            kind = TFK_MUL24;
        }
        break;
    case TOP_IMAD:
        if (i->cdst < 0 && i->nsrc == 3 && i->stype == TTYPE_U24 &&
            !(i->mods & (TMOD_HIGH | TMOD_SIGNED | TMOD_SAT)) &&
            i->addop == TADDOP_ADD) {
            kind = TFK_MAD24;
        }
        break;
    case TOP_FADD:
    case TOP_FMUL:
        if (i->cdst < 0 && i->nsrc == 2 && i->rnd == TRND_RN &&
            !(i->mods & TMOD_SAT)) {
            kind = i->op == TOP_FADD ? TFK_FADD : TFK_FMUL;
            f32_masks(&i->src[0], false, &f->am, &f->ax);
            f32_masks(&i->src[1], false, &f->bm, &f->bx);
        }
        break;
    case TOP_FMAD:
        if (i->cdst < 0 && i->nsrc == 3 && !(i->mods & TMOD_SAT)) {
            kind = TFK_FMAD;
            f32_masks(&i->src[0], i->mods & TMOD_NEG_PROD, &f->am, &f->ax);
            f32_masks(&i->src[1], false, &f->bm, &f->bx);
            f32_masks(&i->src[2], i->mods & TMOD_NEG_ADD, &f->cm, &f->cx);
        }
        break;
    default:
        break;
    }
    if (kind == TFK_NONE) {
        return;
    }
    if (bimm && (kind == TFK_FADD || kind == TFK_FMUL || kind == TFK_FMAD)) {
        /* Apply the immediate's modifiers once. */
        bval = (bval & f->bm) ^ f->bx;
        f->bm = 0xffffffffu;
        f->bx = 0;
    }
    if (kind == TFK_FADD || kind == TFK_FMUL || kind == TFK_FMAD) {
        f->fmods = (f->am & f->bm & f->cm) != 0xffffffffu ||
                   (f->ax | f->bx | f->cx) != 0;
    }
    f->kind = kind;
    f->len = i->len;
    f->pred = i->pred;
    f->pred_c = i->pred_c;
    f->post = i->post;
    f->bimm = bimm;
    if (bimm) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            f->imm[l] = bval;
        }
    }
}

/* --- the loop ---------------------------------------------------------- */

/* Ops whose predicate field is not a condition (envydis IGNPRED). */
static bool op_ignores_pred(unsigned op)
{
    switch (op) {
    case TOP_CALL:
    case TOP_PREBRK:
    case TOP_PRERET:
    case TOP_JOINAT:
    case TOP_QUADON:
    case TOP_QUADPOP:
    case TOP_BAR:
    case TOP_TRAP:
    case TOP_BRA_C:
    case TOP_VOTE:
        return true;
    default:
        return false;
    }
}

static void record_exit(TeslaWarp *w, uint32_t m)
{
    TeslaRun *run = w->run;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            unsigned t = w->first_thread + l;

            if (t < run->threads) {
                run->tstate[t] |= TTS_EXITED;
            }
        }
    }
}

TeslaCtrlResult tesla_exec_post(TeslaWarp *w, const TeslaInsn *insn)
{
    if (insn->post == TPOST_EXIT) {
        /* The exit part applies even where the predicate was false. */
        record_exit(w, w->mask & ~w->exited);
        w->exited |= w->mask;
        w->mask = 0;
        return TCR_JUMPED;
    }
    if (insn->post == TPOST_JOIN) {
        TeslaStackEntry *e;

        if (w->quadon) {
            tesla_warp_trap(w, TESLA_ERR_QUADON_ACTIVE, "join under quadon");
            return TCR_TRAP;
        }
        if (!w->nstack) {
            tesla_warp_trap(w, TESLA_ERR_STACK_UNDERFLOW,
                            "join with an empty stack");
            return TCR_TRAP;
        }
        e = &w->stack[w->nstack - 1];
        if (e->type == TSTK_BRANCH) {
            /* Another path of this level has yet to arrive: run it.  The
               joinat entry remembers who is waiting at the join. */
            for (unsigned k = w->nstack - 1; k-- > 0;) {
                TeslaStackEntry *j = &w->stack[k];

                if (j->type == TSTK_JOINAT) {
                    j->arrived |= w->mask;
                    j->after = insn->addr + insn->len;
                    break;
                }
                if (j->type != TSTK_BRANCH) {
                    break;
                }
            }
            w->nstack--;
            w->mask = e->mask & ~w->exited & ~w->brk & ~w->ret;
            w->pc = e->pc;
            return TCR_JUMPED;
        }
        if (e->type == TSTK_JOINAT) {
            w->nstack--;
            w->mask = e->mask & ~w->exited & ~w->brk & ~w->ret;
            return TCR_NEXT;    /* continue after the join instruction */
        }
        /* UNVERIFIED: the hardware may pop anything here. */
        tesla_warp_trap(w, TESLA_ERR_STACK_MISMATCH,
                        "join reached a stack entry of type %u", e->type);
        return TCR_TRAP;
    }
    return TCR_NEXT;
}

TeslaWarpStop tesla_warp_run(TeslaWarp *w, uint64_t slice)
{
    TeslaRun *run = w->run;
    uint64_t budget = run->env.insn_budget;
    uint64_t base = run->insns, cbase = run->clock;
    uint64_t limit = slice, n = 0;
    bool by_budget = false;
    bool tracing = run->env.trace != NULL;
    const size_t ncode = run->env.code_words;

#define SYNC_COUNT() do { \
        run->insns = base + n; \
        run->clock = cbase + n; \
    } while (0)

    if (budget) {
        uint64_t left = budget > base ? budget - base : 0;

        if (left <= limit) {
            limit = left;
            by_budget = true;
        }
    }
    if (w->waiting) {
        if (!tesla_run_barrier_passed(run, w)) {
            return TWS_BARRIER;
        }
        w->waiting = false;
    }
    while (!w->done) {
        const TeslaInsn *insn;
        uint32_t m, pc;
        size_t idx;
        bool ok = true, fresh;
        TeslaCtrlResult cr = TCR_NEXT;

        if (unlikely(!w->mask)) {
            if (!tesla_warp_path_end(w)) {
                SYNC_COUNT();
                return TWS_TRAP;
            }
            continue;
        }
        if (unlikely(n >= limit)) {
            SYNC_COUNT();
            if (by_budget) {
                w->insn_pc = w->pc;
                tesla_warp_trap(w, TESLA_ERR_TIMEOUT,
                                "instruction budget of %" PRIu64
                                " exhausted", budget);
                return TWS_TRAP;
            }
            return TWS_SLICE;
        }
        if (likely(!tracing)) {
            uint64_t n0 = n;
            bool trap = false;

            n = fast_run(w, n, limit, &trap);
            if (unlikely(trap)) {
                SYNC_COUNT();
                return TWS_TRAP;
            }
            if (n != n0) {
                continue;
            }
        }

        /* The general path, one instruction. */
        pc = w->pc;
        idx = pc >> 2;
        fresh = !(pc & 3) && idx < ncode && !run->ivalid[idx];
        w->insn_pc = pc;
        SYNC_COUNT();
        insn = insn_at(w, pc);
        if (unlikely(!insn)) {
            return TWS_TRAP;
        }
        if (unlikely(insn->error != TESLA_ERR_NONE)) {
            tesla_warp_trap(w, insn->error, "decode error (%08x %08x)",
                            insn->w[0], insn->len == 8 ? insn->w[1] : 0);
            return TWS_TRAP;
        }
        if (unlikely(tracing)) {
            if (run->skip_trace) {
                run->skip_trace = false;
            } else if (!run->env.trace(run->env.opaque, run, w, insn)) {
                run->skip_trace = true;
                return TWS_PAUSE;
            }
        } else if (fresh && run->fcache[idx].kind) {
            continue;       /* just decoded: take the fast path */
        }
        n++;

        m = w->mask;
        if (insn->pred != TPRED_ALWAYS && !op_ignores_pred(insn->op)) {
            m &= tesla_pred_mask(w, insn->pred, insn->pred_c);
        }

        switch (insn->op) {
        case TOP_IADD:
        case TOP_IMUL16:
        case TOP_IMUL24:
        case TOP_IMAD:
        case TOP_SAD:
        case TOP_IMIN:
        case TOP_IMAX:
        case TOP_ISET:
        case TOP_LOGOP:
        case TOP_SHL:
        case TOP_SHR:
            if (m) {
                ok = tesla_exec_int(w, insn, m);
            }
            break;
        case TOP_MOV:
        case TOP_MOV_FROM_C:
        case TOP_MOV_TO_C:
        case TOP_MOV_FROM_A:
        case TOP_SHL_A:
        case TOP_ADD_A:
        case TOP_MOV_FROM_SR:
        case TOP_VOTE:
            if (m) {
                ok = tesla_exec_data(w, insn, m);
            }
            break;
        case TOP_LD:
        case TOP_ST:
        case TOP_LD_LOCK:
        case TOP_ST_UNLOCK:
        case TOP_ATOM:
        case TOP_RED:
            if (m) {
                ok = tesla_exec_mem(w, insn, m);
            }
            break;
        case TOP_FADD:
        case TOP_FMUL:
        case TOP_FMAD:
        case TOP_FMIN:
        case TOP_FMAX:
        case TOP_FSET:
        case TOP_FSLCT:
        case TOP_RCP:
        case TOP_RSQRT:
        case TOP_LG2:
        case TOP_SIN:
        case TOP_COS:
        case TOP_EX2:
        case TOP_PRESIN:
        case TOP_PREEX2:
        case TOP_CVT:
        case TOP_DFMA:
        case TOP_DADD:
        case TOP_DMUL:
        case TOP_DMIN:
        case TOP_DMAX:
        case TOP_DSET:
            if (m) {
                ok = tesla_exec_float(w, insn, m);
            }
            break;
        case TOP_QUADOP:
        case TOP_INTERP:
        case TOP_TEX:
        case TOP_EMIT:
        case TOP_RESTART:
        case TOP_EMIT_RESTART:
        case TOP_PMEVENT:
            if (m) {
                ok = tesla_exec_misc(w, insn, m);
            }
            break;
        case TOP_NOP:
            break;
        case TOP_DISCARD:
        case TOP_BRA:
        case TOP_BRA_C:
        case TOP_CALL:
        case TOP_RET:
        case TOP_PREBRK:
        case TOP_BRK:
        case TOP_PRERET:
        case TOP_QUADON:
        case TOP_QUADPOP:
        case TOP_BAR:
        case TOP_TRAP:
        case TOP_JOINAT:
        case TOP_BRKPT:
            cr = tesla_exec_ctrl(w, insn, m);
            break;
        default:
            tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                            "no execution for op %u", insn->op);
            SYNC_COUNT();
            return TWS_TRAP;
        }
        if (unlikely(!ok || cr == TCR_TRAP)) {
            SYNC_COUNT();
            return TWS_TRAP;
        }
        if (cr != TCR_JUMPED && cr != TCR_BARRIER) {
            w->pc += insn->len;
        }
        if (unlikely(insn->post != TPOST_NONE)) {
            TeslaCtrlResult pr = tesla_exec_post(w, insn);

            if (pr == TCR_TRAP) {
                SYNC_COUNT();
                return TWS_TRAP;
            }
        }
        if (unlikely(cr == TCR_BARRIER)) {
            SYNC_COUNT();
            return TWS_BARRIER;
        }
    }
    SYNC_COUNT();
    return TWS_DONE;
#undef SYNC_COUNT
}

/* --- inspection --------------------------------------------------------- */

uint32_t tesla_warp_pc(const TeslaWarp *w)
{
    return w->pc;
}

uint32_t tesla_warp_active(const TeslaWarp *w)
{
    return w->mask;
}

unsigned tesla_warp_index(const TeslaWarp *w)
{
    return w->index;
}

unsigned tesla_warp_first_thread(const TeslaWarp *w)
{
    return w->first_thread;
}

uint32_t tesla_warp_reg(const TeslaWarp *w, unsigned lane, unsigned reg)
{
    if (lane >= TESLA_WARP_SIZE || reg >= TESLA_MAX_GPRS) {
        return 0;
    }
    return warp_rrow(w, reg)[lane];
}

uint32_t tesla_warp_areg(const TeslaWarp *w, unsigned lane, unsigned idx)
{
    if (lane >= TESLA_WARP_SIZE || idx >= 8) {
        return 0;
    }
    return w->a[idx][lane];
}

uint32_t tesla_warp_flags(const TeslaWarp *w, unsigned lane, unsigned c)
{
    if (lane >= TESLA_WARP_SIZE || c >= 4) {
        return 0;
    }
    return w->c[c][lane];
}

unsigned tesla_warp_stack_depth(const TeslaWarp *w)
{
    return w->nstack;
}

void tesla_warp_init_tables(void)
{
    pred_init();
    fast_init();
}
