/*
 * Tesla warp interpreter: the fast loop.  A template, included by
 * warp-fast.c once per host ISA it is built for (the portable build, and
 * AVX2 + FMA on x86-64).  Only warp-fast.c includes it, after its
 * fast-path helpers, and defines for each build:
 *
 *   FAST_FN(name)  the build's name of a function or type of this file
 *   FAST_VL        lanes per vector: 4 (16 bytes) or 8 (32 bytes)
 *   FAST_AVX2      1 in the AVX2 + FMA build (its intrinsics usable)
 *
 * The loop runs pre-classified instructions (TeslaFastInsn) one after
 * another without leaving it: no call per instruction, one switch.  An
 * instruction it cannot finish here (a memory fault, quadon, a full
 * stack, an f32 lane that needs the exact arithmetic) is handed back
 * untouched: the general path then runs it and reports whatever it has
 * to.
 *
 * SPDX-License-Identifier: MIT
 */

#define VL FAST_VL
#define NV (TESLA_WARP_SIZE / VL)

/* Each build has its own vector types and helpers: the plain names below
   stand for the build's (FAST_FN does not expand its argument). */
#define TeslaV FAST_FN(TeslaV)
#define TeslaVS FAST_FN(TeslaVS)
#define TeslaVF FAST_FN(TeslaVF)
#define TeslaVD FAST_FN(TeslaVD)
#define TeslaVQ FAST_FN(TeslaVQ)
#define vld FAST_FN(vld)
#define vst FAST_FN(vst)
#define lane_mask FAST_FN(lane_mask)
#define lane_words FAST_FN(lane_words)
#define f32_ftz_v FAST_FN(f32_ftz_v)
#define f32_canon_nan_v FAST_FN(f32_canon_nan_v)
#define f32_fix_v FAST_FN(f32_fix_v)
#define f32_mods_v FAST_FN(f32_mods_v)
#define as_f FAST_FN(as_f)
#define as_u FAST_FN(as_u)
#define v_any32 FAST_FN(v_any32)
#define canon_nan_f FAST_FN(canon_nan_f)

typedef uint32_t TeslaV __attribute__((vector_size(4 * VL)));
typedef int32_t TeslaVS __attribute__((vector_size(4 * VL)));
typedef float TeslaVF __attribute__((vector_size(4 * VL)));
typedef double TeslaVD __attribute__((vector_size(8 * VL)));
typedef uint64_t TeslaVQ __attribute__((vector_size(8 * VL)));

FAST_INLINE TeslaV vld(const uint32_t *p)
{
    TeslaV v;

    memcpy(&v, p, sizeof(v));
    return v;
}

FAST_INLINE void vst(uint32_t *p, TeslaV v)
{
    memcpy(p, &v, sizeof(v));
}

/* Lanes of vector k of execution mask m, all ones or all zeros. */
FAST_INLINE TeslaV lane_mask(uint32_t m, unsigned k)
{
    return vld(fast_lanes[(m >> (VL * k)) & ((1u << VL) - 1)]);
}

/* Byte offsets 4 * l of the lanes l of vector k. */
FAST_INLINE TeslaV lane_words(unsigned k)
{
    return vld(fast_lane_words + VL * k);
}

/* A denormal flushed to zero of its sign. */
FAST_INLINE TeslaV f32_ftz_v(TeslaV x)
{
    /* the exponent field, signed, is above 0 unless it is 0 */
    TeslaV e = (TeslaV)((TeslaVS)(x & 0x7f800000u) > 0);

    return x & (e | 0x80000000u);
}

FAST_INLINE TeslaV f32_canon_nan_v(TeslaV x)
{
    /* signed compare: both sides are below 2^31 */
    TeslaV nan = (TeslaV)((TeslaVS)(x & 0x7fffffffu) > 0x7f800000);

    return (x & ~nan) | (nan >> 1);
}

/* A result made Tesla's: denormal flushed, NaN canonical. */
FAST_INLINE TeslaV f32_fix_v(TeslaV x)
{
    TeslaVS t = (TeslaVS)(x & 0x7fffffffu);
    TeslaV nan = (TeslaV)(t > 0x7f800000);
    TeslaV tiny = (TeslaV)(t < 0x00800000);

    return (x & ~((tiny >> 1) | nan)) | (nan >> 1);
}

/* An f32 source with its abs/neg modifiers (and mask @am, xor @ax). */
FAST_INLINE TeslaV f32_mods_v(TeslaV x, bool mods, uint32_t am, uint32_t ax)
{
    return unlikely(mods) ? (x & am) ^ ax : x;
}

FAST_INLINE TeslaVF as_f(TeslaV v)
{
    TeslaVF f;

    memcpy(&f, &v, sizeof(f));
    return f;
}

FAST_INLINE TeslaV as_u(TeslaVF f)
{
    TeslaV v;

    memcpy(&v, &f, sizeof(v));
    return v;
}

/* Whether any bit of a vector is set. */
FAST_INLINE bool v_any32(TeslaV v)
{
#if FAST_AVX2
    __m256i x;

    memcpy(&x, &v, sizeof(x));
    return !_mm256_testz_si256(x, x);
#elif defined(__SSE2__) && VL == 4
    __m128i x;

    memcpy(&x, &v, sizeof(x));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(x, _mm_setzero_si128())) !=
           0xffff;
#else
    uint64_t x[VL / 2], r = 0;

    memcpy(x, &v, sizeof(x));
    for (unsigned i = 0; i < VL / 2; i++) {
        r |= x[i];
    }
    return r != 0;
#endif
}

/* f32 bits of a host result, NaN made canonical. */
FAST_INLINE TeslaV canon_nan_f(TeslaVF r)
{
    TeslaV nan = (TeslaV)(r != r);

    return (as_u(r) & ~nan) | (nan >> 1);
}

/*
 * Write expression E (of k, the vector index) to d for the lanes in m.
 * Vector k of d only ever aliases vector k of a source, so storing it
 * before loading vector k + 1 is safe.
 */
#define FAST_STORE(E) do { \
        if (likely(m == WARP_FULL)) { \
            FAST_UNROLL \
            for (unsigned k = 0; k < NV; k++) { \
                vst(d + VL * k, (E)); \
            } \
        } else { \
            FAST_UNROLL \
            for (unsigned k = 0; k < NV; k++) { \
                TeslaV lm_ = lane_mask(m, k); \
                vst(d + VL * k, (vld(d + VL * k) & ~lm_) | ((E) & lm_)); \
            } \
        } \
    } while (0)

/* every vector of a warp */
#if NV == 8
#define FAST_UNROLL _Pragma("GCC unroll 8")
#else
#define FAST_UNROLL _Pragma("GCC unroll 4")
#endif

#if FAST_AVX2
#define FAST_HW_FTZ 1
#else
#define FAST_HW_FTZ 0
#endif

#define A_ (vld(a + VL * k))
#define B_ (vld(b + VL * k))
#define C_ (vld(c + VL * k))

#if FAST_AVX2
/*
 * fmad of a whole warp with AVX2 + FMA: the truncated product is the
 * float product stepped one ulp toward zero when the exact error (from
 * fma) has the other sign.  False (nothing written) when some lane of m
 * needs the exact path: an input zero, denormal, Inf or NaN, a product
 * below 2^-78 (so that its error cannot be a denormal, which FTZ would
 * flush) or Inf, or a result below 2^-125.
 */
FAST_INLINE bool FAST_FN(fmad_warp)(const uint32_t *a, const uint32_t *b,
                                    const uint32_t *c,
                                    const TeslaFastInsn *f, uint32_t m,
                                    TeslaV *res)
{
    const __m256i expm = _mm256_set1_epi32(0x7f800000);
    const __m256i one = _mm256_set1_epi32(0x00800000);
    const __m256 zero = _mm256_setzero_ps();
    /*
     * Signed minimum of exponent fields: (x + 1 << 23) & expm for the
     * inputs (0 or 1 << 23 for exponent 255 or 0), the product's less
     * 48 << 23, the result's as is.  Below 2 << 23: exact path.
     */
    __m256i low = _mm256_set1_epi32(0x7fffffff);
    __m256 r[NV];

    FAST_UNROLL
    for (unsigned k = 0; k < NV; k++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + VL * k));
        __m256i y = _mm256_loadu_si256((const __m256i *)(b + VL * k));
        __m256i z = _mm256_loadu_si256((const __m256i *)(c + VL * k));
        __m256i t, pi, adj;
        __m256 p, e;

        if (unlikely(f->fmods)) {
            x = _mm256_xor_si256(_mm256_and_si256(
                    x, _mm256_set1_epi32(f->am)), _mm256_set1_epi32(f->ax));
            y = _mm256_xor_si256(_mm256_and_si256(
                    y, _mm256_set1_epi32(f->bm)), _mm256_set1_epi32(f->bx));
            z = _mm256_xor_si256(_mm256_and_si256(
                    z, _mm256_set1_epi32(f->cm)), _mm256_set1_epi32(f->cx));
        }
        p = _mm256_mul_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y));
        e = _mm256_fmsub_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y),
                            p);
        pi = _mm256_castps_si256(p);
        t = _mm256_min_epi32(
                _mm256_min_epi32(
                    _mm256_and_si256(_mm256_add_epi32(x, one), expm),
                    _mm256_and_si256(_mm256_add_epi32(y, one), expm)),
                _mm256_min_epi32(
                    _mm256_and_si256(_mm256_add_epi32(z, one), expm),
                    _mm256_sub_epi32(
                        _mm256_and_si256(_mm256_add_epi32(pi, one), expm),
                        _mm256_set1_epi32(48 << 23))));
        /* error of the other sign than p: step toward zero (-1 on the
           magnitude); blendv picks by the sign bit of p */
        adj = _mm256_castps_si256(_mm256_blendv_ps(
                  _mm256_cmp_ps(e, zero, _CMP_LT_OQ),
                  _mm256_cmp_ps(e, zero, _CMP_GT_OQ), p));
        pi = _mm256_add_epi32(pi, adj);
        r[k] = _mm256_add_ps(_mm256_castsi256_ps(pi),
                             _mm256_castsi256_ps(z));
        t = _mm256_min_epi32(t, _mm256_and_si256(_mm256_castps_si256(r[k]),
                                                 expm));
        if (m != WARP_FULL) {
            /* lanes that do not execute do not matter */
            __m256i lm;

            memcpy(&lm, fast_lanes[(m >> (VL * k)) & 0xff], sizeof(lm));
            t = _mm256_max_epi32(t, _mm256_andnot_si256(
                                        lm, _mm256_set1_epi32(0x7fffffff)));
        }
        low = _mm256_min_epi32(low, t);
    }
    if (!_mm256_testz_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x01000000),
                                               low),
                            _mm256_set1_epi32(-1))) {
        return false;
    }
    for (unsigned k = 0; k < NV; k++) {
        res[k] = (TeslaV)r[k];
    }
    return true;
}
#else
/*
 * fmad of a whole warp through doubles: the product is exact in double;
 * truncated to 24 bits and added to c, one rounding of the sum is the
 * hardware's.  False (nothing written) when some lane of m needs the
 * exact path: an input zero, denormal, Inf or NaN, or a result below
 * 2^-125 (the hardware rounds to an unbounded exponent before flushing).
 */
FAST_INLINE bool FAST_FN(fmad_warp)(const uint32_t *a, const uint32_t *b,
                                    const uint32_t *c,
                                    const TeslaFastInsn *f, uint32_t m,
                                    TeslaV *res)
{
    TeslaV bad = { 0 };

    FAST_UNROLL
    for (unsigned k = 0; k < NV; k++) {
        TeslaV x = f32_mods_v(A_, f->fmods, f->am, f->ax);
        TeslaV y = f32_mods_v(B_, f->fmods, f->bm, f->bx);
        TeslaV z = f32_mods_v(C_, f->fmods, f->cm, f->cx);
        TeslaVD p, s;
        TeslaVQ pq;
        TeslaV r, t;

        p = __builtin_convertvector(as_f(x), TeslaVD) *
            __builtin_convertvector(as_f(y), TeslaVD);
        memcpy(&pq, &p, sizeof(pq));
        pq &= ~(uint64_t)0x1fffffff;
        memcpy(&p, &pq, sizeof(p));
        s = p + __builtin_convertvector(as_f(z), TeslaVD);
        r = as_u(__builtin_convertvector(s, TeslaVF));
        res[k] = r;
        /*
         * Exponent fields 0 and 255 of the inputs, 0 and 1 of the
         * result: bits 24-30 of (x + 1 << 23), of r, are all zero.
         */
        t = (TeslaV)(((x + 0x00800000u) & 0x7f000000u) == 0) |
            (TeslaV)(((y + 0x00800000u) & 0x7f000000u) == 0) |
            (TeslaV)(((z + 0x00800000u) & 0x7f000000u) == 0) |
            (TeslaV)((r & 0x7f000000u) == 0);
        bad |= m == WARP_FULL ? t : t & lane_mask(m, k);
    }
    return !v_any32(bad);
}
#endif

/*
 * b32 loads and stores.  Every executing lane's address is checked before
 * anything is written; a lane out of range hands the instruction to the
 * general path (which faults).  Inactive lanes read a clamped address.
 */
/*
 * The whole warp at consecutive words a0, a0 + 4, ... (lane order), all
 * below lim + 4: one block copy.  av[] are the lanes' word addresses.
 */
FAST_INLINE bool FAST_FN(contiguous)(const TeslaV *av, uint32_t lim)
{
    uint32_t a0 = av[0][0];
    TeslaV acc = { 0 };

    if (G_BYTE_ORDER != G_LITTLE_ENDIAN ||
        (uint64_t)a0 + 4 * TESLA_WARP_SIZE > (uint64_t)lim + 4) {
        return false;
    }
    FAST_UNROLL
    for (unsigned k = 0; k < NV; k++) {
        acc |= av[k] ^ (lane_words(k) + a0);
    }
    return !v_any32(acc);
}

FAST_INLINE bool FAST_FN(ld_g)(TeslaWarp *w, const TeslaFastInsn *f,
                               uint32_t m, uint32_t *d)
{
    const TeslaMemSpace *ms = &w->run->env.g[f->sidx];
    const uint32_t *ar = w->r[f->a];
    const uint8_t *base = ms->data;
    uint32_t v[TESLA_WARP_SIZE], bad = 0, lim;

    if (unlikely(ms->size < 4)) {
        return false;
    }
    lim = ms->size - 4 > UINT32_MAX ? UINT32_MAX : (uint32_t)(ms->size - 4);
    if (m == WARP_FULL) {
        TeslaV av[NV];

        FAST_UNROLL
        for (unsigned k = 0; k < NV; k++) {
            av[k] = (vld(ar + VL * k) + f->off) & ~3u;
        }
        if (FAST_FN(contiguous)(av, lim)) {
            memcpy(d, base + av[0][0], 4 * TESLA_WARP_SIZE);
            return true;
        }
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr = (ar[l] + f->off) & ~3u;
        uint32_t x;

        bad |= (uint32_t)(addr > lim) << l;
        memcpy(&x, base + (addr > lim ? 0 : addr), 4);
        v[l] = GUINT32_FROM_LE(x);
    }
    if (unlikely(bad & m)) {
        return false;
    }
    warp_blend(d, v, m);
    return true;
}

FAST_INLINE bool FAST_FN(st_g)(TeslaWarp *w, const TeslaFastInsn *f,
                               uint32_t m)
{
    const TeslaMemSpace *ms = &w->run->env.g[f->sidx];
    const uint32_t *ar = w->r[f->a];
    const uint32_t *v = w->r[f->b];
    uint8_t *base = ms->data;
    uint32_t bad = 0, lim;

    if (unlikely(ms->size < 4)) {
        return false;
    }
    lim = ms->size - 4 > UINT32_MAX ? UINT32_MAX : (uint32_t)(ms->size - 4);
    if (m == WARP_FULL) {
        TeslaV av[NV];

        FAST_UNROLL
        for (unsigned k = 0; k < NV; k++) {
            av[k] = (vld(ar + VL * k) + f->off) & ~3u;
        }
        if (FAST_FN(contiguous)(av, lim)) {
            memcpy(base + av[0][0], v, 4 * TESLA_WARP_SIZE);
            return true;
        }
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        bad |= (uint32_t)(((ar[l] + f->off) & ~3u) > lim) << l;
    }
    if (unlikely(bad & m)) {
        return false;
    }
    /* lane order: the last lane to a word wins */
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            uint32_t x = GUINT32_TO_LE(v[l]);

            memcpy(base + ((ar[l] + f->off) & ~3u), &x, 4);
        }
    }
    return true;
}

/* s[] or l[] of lane l: base + l * stride + addr, addr <= lim */
FAST_INLINE uint8_t *FAST_FN(sl_space)(TeslaWarp *w, const TeslaFastInsn *f,
                                       size_t *stride, uint32_t *lim)
{
    const TeslaRun *run = w->run;
    uint32_t size;
    uint8_t *base;

    if (f->space == TSPACE_S) {
        base = run->shared;
        size = run->env.shared_bytes;
        *stride = 0;
    } else {
        base = w->local;
        size = run->env.local_bytes;
        *stride = size;
    }
    if (!base || size < 4) {
        return NULL;
    }
    *lim = size - 4;
    return base;
}

FAST_INLINE bool FAST_FN(ld_sl)(TeslaWarp *w, const TeslaFastInsn *f,
                                uint32_t m, uint32_t *d)
{
    const uint16_t *ar = w->a[f->areg];
    uint32_t v[TESLA_WARP_SIZE], bad = 0, lim;
    size_t stride;
    const uint8_t *base = FAST_FN(sl_space)(w, f, &stride, &lim);

    if (unlikely(!base)) {
        return false;
    }
    if (m == WARP_FULL && !stride) {
        TeslaV av[NV];

        FAST_UNROLL
        for (unsigned k = 0; k < NV; k++) {
            for (unsigned j = 0; j < VL; j++) {
                av[k][j] = (ar[VL * k + j] + f->off) & 0xfffcu;
            }
        }
        if (FAST_FN(contiguous)(av, lim)) {
            memcpy(d, base + av[0][0], 4 * TESLA_WARP_SIZE);
            return true;
        }
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr = (ar[l] + f->off) & 0xfffcu;
        uint32_t x;

        bad |= (uint32_t)(addr > lim) << l;
        memcpy(&x, base + l * stride + (addr > lim ? 0 : addr), 4);
        v[l] = GUINT32_FROM_LE(x);
    }
    if (unlikely(bad & m)) {
        return false;
    }
    warp_blend(d, v, m);
    return true;
}

FAST_INLINE bool FAST_FN(st_sl)(TeslaWarp *w, const TeslaFastInsn *f,
                                uint32_t m)
{
    const uint16_t *ar = w->a[f->areg];
    const uint32_t *v = w->r[f->b];
    uint32_t bad = 0, lim;
    size_t stride;
    uint8_t *base = FAST_FN(sl_space)(w, f, &stride, &lim);

    if (unlikely(!base)) {
        return false;
    }
    if (m == WARP_FULL && !stride) {
        TeslaV av[NV];

        FAST_UNROLL
        for (unsigned k = 0; k < NV; k++) {
            for (unsigned j = 0; j < VL; j++) {
                av[k][j] = (ar[VL * k + j] + f->off) & 0xfffcu;
            }
        }
        if (FAST_FN(contiguous)(av, lim)) {
            memcpy(base + av[0][0], v, 4 * TESLA_WARP_SIZE);
            return true;
        }
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        bad |= (uint32_t)(((ar[l] + f->off) & 0xfffcu) > lim) << l;
    }
    if (unlikely(bad & m)) {
        return false;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            uint32_t x = GUINT32_TO_LE(v[l]);

            memcpy(base + l * stride + ((ar[l] + f->off) & 0xfffcu), &x, 4);
        }
    }
    return true;
}

/* c[] at a fixed address: one word for every lane (0 beyond the end). */
FAST_INLINE void FAST_FN(ld_c)(TeslaWarp *w, const TeslaFastInsn *f,
                               uint32_t m, uint32_t *d)
{
    const TeslaMemSpace *ms = &w->run->env.c[f->sidx];
    uint32_t addr = f->off & 0xfffcu, x = 0;

    if ((uint64_t)addr + 4 <= ms->size) {
        memcpy(&x, ms->data + addr, 4);
        x = GUINT32_FROM_LE(x);
    }
    FAST_STORE((TeslaV){ 0 } + x);
}

/* An ALU's c[] word b (0 beyond the space), in every lane. */
FAST_INLINE void FAST_FN(const_b)(const TeslaWarp *w, const TeslaFastInsn *f,
                                  uint32_t *buf)
{
    const TeslaMemSpace *ms = &w->run->env.c[f->sidx];
    uint32_t x = 0;

    if ((uint64_t)f->off + 4 <= ms->size) {
        memcpy(&x, ms->data + f->off, 4);
        x = GUINT32_FROM_LE(x);
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        buf[l] = x;
    }
}

/*
 * A b32 o[] word of lanes @m from @b (each lane's words side by side);
 * false (the general path logs it) past the launch's output words.
 */
FAST_INLINE bool FAST_FN(mov_o)(TeslaWarp *w, const TeslaFastInsn *f,
                                uint32_t m, const uint32_t *b)
{
    size_t n = w->run->launch.out_words, wi = f->off / 4;

    if (!w->out || (uint64_t)f->off + 4 > (uint64_t)n * 4) {
        return false;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            /* st stores little-endian bytes, mov the host's word */
            w->out[l * n + wi] = f->space == TSPACE_O ? GUINT32_TO_LE(b[l])
                                                      : b[l];
        }
    }
    return true;
}

/* interp's v[] (ld's a[]) words of the warp's threads (0 past the
   launch's) */
FAST_INLINE void FAST_FN(interp_in)(const TeslaWarp *w,
                                    const TeslaFastInsn *f, uint32_t *buf)
{
    const TeslaRun *run = w->run;
    const uint32_t *in = run->launch.in;
    unsigned iw = run->launch.in_words, wi = f->off / 4, live = 0;

    if (in && wi < iw && run->threads > w->first_thread) {
        live = MIN(run->threads - w->first_thread,
                   (unsigned)TESLA_WARP_SIZE);
    }
    if (live == TESLA_WARP_SIZE && run->launch.in_stride) {
        /* word-major: the warp's words side by side */
        memcpy(buf, in + (size_t)wi * run->launch.in_stride +
               w->first_thread, 4 * TESLA_WARP_SIZE);
        return;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        buf[l] = l < live ? tesla_launch_in(&run->launch,
                                            w->first_thread + l, wi) : 0;
    }
}

/* the SFU over a warp's lanes (rcp) */
#include "target/tesla/warp-fast-sfu.h"

/*
 * Run fast instructions from w->pc while there are any, the path has
 * threads and n < limit.  Returns the new instruction count; *trap is set
 * when an exit/join trapped (run->result filled).
 */
static uint64_t FAST_FN(fast_run)(TeslaWarp *w, uint64_t n, uint64_t limit,
                                  bool *trap)
{
    TeslaRun *run = w->run;
    const TeslaFastInsn *fcache = run->fcache;
    const size_t ncode = run->env.code_words;
#if FAST_HW_FTZ
    /* f32 inputs and results flushed by the host FPU (see tesla_fast_init) */
    const bool hwftz = fast_hw_ftz_ok;
    const uint32_t csr = hwftz ? mxcsr_get() : 0;

    if (hwftz) {
        mxcsr_set(csr | MXCSR_DAZ_FTZ);
    }
#endif
    /* w->pc is written when leaving and before tesla_exec_post(): kept
       in a register, it is not on the critical path from one
       instruction to the next */
    uint32_t pc = w->pc;
    const uint64_t budget = n < limit ? limit - n : 0;
    uint64_t left = budget;             /* instructions still to run */
    size_t post_idx;

    if (unlikely(pc & 3)) {
        goto out;       /* pc stays aligned: len is 4 or 8, and bra */
    }                   /* targets are checked by tesla_fast_classify() */

    /*
     * The inner loop makes no call (the exact f32 cases go to the
     * general path), so that its state stays in registers; exit and join
     * leave it for the call to tesla_exec_post().
     */
    for (;;) {
    while (likely(left)) {
        const size_t idx = pc >> 2;
        const TeslaFastInsn *f;
        const uint32_t *a, *b, *c;
        uint32_t *d;
        uint32_t m, next, am, bm;
        uint32_t vin[TESLA_WARP_SIZE] __attribute__((aligned(32)));
        uint32_t vconst[TESLA_WARP_SIZE] __attribute__((aligned(32)));

        if (unlikely(idx >= ncode)) {
            break;
        }
        f = &fcache[idx];
        if (unlikely(f->kind == TFK_NONE)) {
            break;
        }
        m = w->mask;
        if (f->pred != TPRED_ALWAYS) {
#if FAST_AVX2
            /* the predicate's truth for each flags value 0-15, looked up
               for all 32 lanes at once */
            __m256i fl, tab;

            memcpy(&fl, w->c[f->pred_c & 3], sizeof(fl));
            tab = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                      (const __m128i *)tesla_pred_bytes[f->pred & 31]));
            m &= (uint32_t)_mm256_movemask_epi8(_mm256_shuffle_epi8(tab, fl));
#else
            m &= warp_pred_mask(w, f->pred, f->pred_c);
#endif
        }
        /* the modifiers (memory stores below may alias f: read them
           once) */
        am = f->am;
        bm = f->bm;
        next = pc + f->len;
        a = w->r[f->a];
        b = f->bimm ? f->imm : w->r[f->b];
        if (unlikely(f->bconst)) {
            FAST_FN(const_b)(w, f, vconst);
            b = vconst;
        }
        c = w->r[f->c];
        d = w->r[f->d];

        switch (f->kind) {
        case TFK_MOV:
            if (m) {
                FAST_STORE(B_);
            }
            break;
        case TFK_ADD:
            if (m) {
                FAST_STORE(A_ + B_);
            }
            break;
        case TFK_SUB:
            if (m) {
                FAST_STORE(A_ - B_);
            }
            break;
        case TFK_SUBR:
            if (m) {
                FAST_STORE(B_ - A_);
            }
            break;
        case TFK_AND:
            if (m) {
                FAST_STORE((A_ ^ am) & (B_ ^ bm));
            }
            break;
        case TFK_OR:
            if (m) {
                FAST_STORE((A_ ^ am) | (B_ ^ bm));
            }
            break;
        case TFK_XOR:
            if (m) {
                FAST_STORE((A_ ^ am) ^ (B_ ^ bm));
            }
            break;
        case TFK_MOV2:
            if (m) {
                FAST_STORE(B_ ^ bm);
            }
            break;
        case TFK_SHL:
            if (m) {
                FAST_STORE(A_ << am);
            }
            break;
        case TFK_SHR:
            if (m) {
                FAST_STORE(A_ >> am);
            }
            break;
        case TFK_SAR:
            if (m) {
                FAST_STORE((TeslaV)((TeslaVS)A_ >> (int)am));
            }
            break;
        case TFK_MUL24:
            if (m) {
                FAST_STORE((A_ & 0xffffffu) * (B_ & 0xffffffu));
            }
            break;
        case TFK_MAD24:
            if (m) {
                FAST_STORE((A_ & 0xffffffu) * (B_ & 0xffffffu) + C_);
            }
            break;

        case TFK_ADD_CC:
        case TFK_SUB_CC: {
            uint32_t fl[TESLA_WARP_SIZE] __attribute__((aligned(32)));
            TeslaV res[NV];
            bool sub = f->kind == TFK_SUB_CC;

            if (!m) {
                break;
            }
            for (unsigned k = 0; k < NV; k++) {
                TeslaV x = vld(a + VL * k), y = vld(b + VL * k), r, cy, o;

                if (sub) {
                    r = x - y;
                    cy = (TeslaV)(x >= y);      /* no borrow = carry */
                    o = ((x ^ y) & (x ^ r)) >> 31;
                } else {
                    r = x + y;
                    cy = (TeslaV)(r < x);
                    o = (~(x ^ y) & (x ^ r)) >> 31;
                }
                res[k] = r;
                vst(fl + VL * k, ((TeslaV)(r == 0) & TFL_Z) |
                                 ((r >> 31) << 1) | (cy & TFL_C) | (o << 3));
            }
            flags_store(w->c[f->cdst], fl, m);
            FAST_STORE(res[k]);
            break;
        }

        case TFK_FADD: {
            const bool fm = f->fmods;
            const uint32_t ax = f->ax, bx = f->bx;

            if (!m) {
                break;
            }
#if FAST_HW_FTZ
            if (likely(hwftz)) {
                /* DAZ + FTZ: the host sum is the hardware's but for NaN */
                FAST_STORE(canon_nan_f(
                    as_f(f32_mods_v(A_, fm, am, ax)) +
                    as_f(f32_mods_v(B_, fm, bm, bx))));
                break;
            }
#endif
            FAST_STORE(f32_fix_v(as_u(
                as_f(f32_ftz_v(f32_mods_v(A_, fm, am, ax))) +
                as_f(f32_ftz_v(f32_mods_v(B_, fm, bm, bx))))));
            break;
        }
        case TFK_INTERP:
        case TFK_LD_A:
        case TFK_RCP:
            if (m) {
                if (f->kind != TFK_RCP) {
                    FAST_FN(interp_in)(w, f, vin);
                } else {
                    FAST_FN(rcp)(a, f, vin);
                }
                a = vin;
                FAST_STORE(A_);
            }
            break;
        case TFK_INTERP_MUL:
        case TFK_FMUL: {
            const bool fm = f->fmods;
            const uint32_t ax = f->ax, bx = f->bx;
            TeslaV res[NV], slow = { 0 };

            if (!m) {
                break;
            }
            if (f->kind == TFK_INTERP_MUL) {
                FAST_FN(interp_in)(w, f, vin);
                a = vin;
            }
#if FAST_HW_FTZ
            if (likely(hwftz)) {
                /* DAZ + FTZ (tininess after rounding, checked at start-up
                   by fast_hw_ftz_check()): the hardware's product */
                FAST_STORE(canon_nan_f(
                    as_f(f32_mods_v(A_, fm, am, ax)) *
                    as_f(f32_mods_v(B_, fm, bm, bx))));
                break;
            }
#endif
            FAST_UNROLL
            for (unsigned k = 0; k < NV; k++) {
                TeslaV x = f32_ftz_v(f32_mods_v(A_, fm, am, ax));
                TeslaV y = f32_ftz_v(f32_mods_v(B_, fm, bm, bx));
                TeslaV r = as_u(as_f(x) * as_f(y));
                TeslaV t = r & 0x7fffffffu;
                /* magnitude 1 to 0x7fffff (denormal): below INT32_MIN +
                   0x7fffff once INT32_MAX is added */
                TeslaV den = (TeslaV)((TeslaVS)(t + 0x7fffffffu) <
                                      (int32_t)0x807fffffu);
                TeslaV nan = (TeslaV)((TeslaVS)t > 0x7f800000);

                /* Denormal results follow the hardware's own rule. */
                slow |= m == WARP_FULL ? den : den & lane_mask(m, k);
                res[k] = (r & ~nan) | (nan >> 1);
            }
            if (unlikely(v_any32(slow))) {
                goto out;       /* the general path's exact product */
            }
            FAST_STORE(res[k]);
            break;
        }
        case TFK_FMAD: {
            TeslaV res[NV];

            if (!m) {
                break;
            }
            if (unlikely(!FAST_FN(fmad_warp)(a, b, c, f, m, res))) {
                goto out;       /* the general path's exact fmad */
            }
            FAST_STORE(res[k]);
            break;
        }

        case TFK_NOP:
            break;
        case TFK_BRA:
            if (unlikely(w->quadon)) {
                goto out;
            }
            if (m == w->mask) {
                next = f->target;       /* uniform (m is not 0 here) */
            } else if (m) {
                /* divergent: the taken side waits on the stack */
                if (unlikely(w->nstack >= TESLA_STACK_MAX)) {
                    goto out;
                }
                fast_push(w, TSTK_BRANCH, f->target, m);
                w->mask &= ~m;
            }
            break;
        case TFK_JOINAT:
            if (unlikely(w->quadon || w->nstack >= TESLA_STACK_MAX)) {
                goto out;
            }
            fast_push(w, TSTK_JOINAT, f->target, w->mask);
            break;

        case TFK_LD_G:
            if (m && unlikely(!FAST_FN(ld_g)(w, f, m, d))) {
                goto out;
            }
            break;
        case TFK_ST_G:
            if (m && unlikely(!FAST_FN(st_g)(w, f, m))) {
                goto out;
            }
            break;
        case TFK_LD_SL:
            if (m && unlikely(!FAST_FN(ld_sl)(w, f, m, d))) {
                goto out;
            }
            break;
        case TFK_ST_SL:
            if (m && unlikely(!FAST_FN(st_sl)(w, f, m))) {
                goto out;
            }
            break;
        case TFK_LD_C:
            if (m) {
                FAST_FN(ld_c)(w, f, m, d);
            }
            break;
        case TFK_MOV_O:
            if (m && unlikely(!FAST_FN(mov_o)(w, f, m, b))) {
                goto out;
            }
            break;
        default:
            g_assert_not_reached();
        }

        left--;
        if (unlikely(f->post != TPOST_NONE)) {
            w->insn_pc = pc;
            post_idx = idx;
            pc = next;
            goto post;
        }
        pc = next;
        if (unlikely(!w->mask)) {
            goto out;
        }
    }
    goto out;
post:
    w->pc = pc;
    if (tesla_exec_post(w, &run->icache[post_idx]) == TCR_TRAP) {
        *trap = true;
        pc = w->pc;
        goto out;
    }
    pc = w->pc;
    if (unlikely(!w->mask || (pc & 3))) {
        goto out;
    }
    }
out:
    w->pc = pc;
#if FAST_HW_FTZ
    if (hwftz) {
        mxcsr_set(csr);
    }
#endif
    return n + (budget - left);
}

#undef FAST_STORE
#undef FAST_UNROLL
#undef FAST_HW_FTZ
#undef A_
#undef B_
#undef C_
#undef VL
#undef NV
#undef TeslaV
#undef TeslaVS
#undef TeslaVF
#undef TeslaVD
#undef TeslaVQ
#undef vld
#undef vst
#undef lane_mask
#undef lane_words
#undef f32_ftz_v
#undef f32_canon_nan_v
#undef f32_fix_v
#undef f32_mods_v
#undef as_f
#undef as_u
#undef v_any32
#undef canon_nan_f
