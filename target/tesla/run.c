/*
 * Tesla shader core runtime: launches, scheduling of the warps of a block,
 * barriers, results.
 *
 * A launch is run unit by unit: a 3D launch warp by warp (its warps do not
 * interact), a compute launch block by block, with the warps of a block
 * scheduled round-robin in slices so that bar and s[] locks work.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/tesla/warp.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Warp-instructions a warp runs before the next warp of its block. */
#define TESLA_SLICE 1024

static void set_error(TeslaRun *run, TeslaError e, const char *fmt, ...)
    GEMU_PRINTF(3, 4);

static void set_error(TeslaRun *run, TeslaError e, const char *fmt, ...)
{
    va_list ap;

    run->result.status = TESLA_RUN_TRAP;
    run->result.error = e;
    va_start(ap, fmt);
    g_vsnprintf(run->result.msg, sizeof(run->result.msg), fmt, ap);
    va_end(ap);
}

/* --- decode caches ----------------------------------------------------- */

static void code_cache_release(TeslaCodeCache *cc)
{
    g_free(cc->icache);
    g_free(cc->ivalid);
    g_free(cc->fcache_mem);
    cc->icache = NULL;
    cc->ivalid = NULL;
    cc->fcache_mem = NULL;
    cc->fcache = NULL;
    cc->words = 0;
}

static uint32_t flat_mask(const TeslaMemSpace *sp, unsigned n)
{
    uint32_t m = 0;

    for (unsigned i = 0; i < n; i++) {
        m |= (sp[i].data != NULL) << i;
    }
    return m;
}

/* Make @cc hold entries for @env's code, emptied if anything changed. */
static void code_cache_fit(TeslaCodeCache *cc, const TeslaEnv *env)
{
    size_t words = MAX(env->code_words, (size_t)1);
    uint32_t fc = flat_mask(env->c, TESLA_NUM_CSPACES);
    uint32_t fg = flat_mask(env->g, TESLA_NUM_GSPACES);

    if (cc->icache && cc->words == words && cc->variant == env->variant &&
        cc->prog == env->prog && cc->code == env->code &&
        cc->code_words == env->code_words && cc->gprs == env->gprs &&
        cc->flat_c == fc && cc->flat_g == fg) {
        return;
    }
    if (cc->words != words) {
        code_cache_release(cc);
        cc->icache = g_new(TeslaInsn, words);
        cc->ivalid = g_new0(uint8_t, words);
        /*
         * calloc'ed and aligned by hand rather than g_aligned_alloc0: a
         * big code space then costs only the pages a program touches.
         */
        cc->fcache_mem = g_malloc0(words * sizeof(TeslaFastInsn) + 63);
        cc->fcache = (TeslaFastInsn *)(((uintptr_t)cc->fcache_mem + 63) &
                                       ~(uintptr_t)63);
        cc->words = words;
    } else {
        tesla_code_cache_invalidate(cc);
    }
    cc->variant = env->variant;
    cc->prog = env->prog;
    cc->code = env->code;
    cc->code_words = env->code_words;
    cc->gprs = env->gprs;
    cc->flat_c = fc;
    cc->flat_g = fg;
}

TeslaCodeCache *tesla_code_cache_new(void)
{
    return g_new0(TeslaCodeCache, 1);
}

void tesla_code_cache_free(TeslaCodeCache *cc)
{
    if (cc) {
        code_cache_release(cc);
        g_free(cc);
    }
}

void tesla_code_cache_invalidate(TeslaCodeCache *cc)
{
    if (!cc->words) {
        return;
    }
    /* only decoded entries: untouched pages of a big space stay so */
    for (size_t i = 0; i < cc->words; i++) {
        if (cc->ivalid[i]) {
            cc->ivalid[i] = 0;
            cc->fcache[i].kind = 0;     /* the fast loop looks at it alone */
        }
    }
}

uint64_t tesla_code_cache_decodes(const TeslaCodeCache *cc)
{
    return cc->decodes;
}

/* --- runs ---------------------------------------------------------------- */

/* A compute launch's blocks and threads into @run; false with *errp. */
static bool launch_compute(TeslaRun *run, const TeslaEnv *env,
                           const TeslaLaunch *launch, char **errp)
{
    unsigned bx = launch->block[0] ? launch->block[0] : 1;
    unsigned by = launch->block[1] ? launch->block[1] : 1;
    unsigned bz = launch->block[2] ? launch->block[2] : 1;
    unsigned gx = launch->grid[0] ? launch->grid[0] : 1;
    unsigned gy = launch->grid[1] ? launch->grid[1] : 1;
    unsigned gz = launch->grid[2] ? launch->grid[2] : 1;
    uint64_t bt = (uint64_t)bx * by * bz;
    uint64_t nb = (uint64_t)gx * gy * gz;
    uint64_t step = launch->block_step ? launch->block_step : 1;
    uint32_t ia = launch->shared_init_addr ? launch->shared_init_addr
                                           : 0x14;

    if (launch->block_first < nb) {
        nb = (nb - launch->block_first + step - 1) / step;
        if (launch->block_count && launch->block_count < nb) {
            nb = launch->block_count;
        }
    } else {
        nb = 0;
    }
    if (bx > 0xffff || by > 0xffff || bz > 0x3f || gx > 0xffff ||
        gy > 0xffff || gz > 0xffff || bt > 1024 * 1024 || !nb ||
        bt * nb > (1u << 28)) {
        *errp = g_strdup_printf("launch too big (or no block): block "
                                "%ux%ux%u, grid %ux%ux%u, blocks from "
                                "%u", bx, by, bz, gx, gy, gz,
                                launch->block_first);
        return false;
    }
    if (env->shared_bytes && launch->shared_init_bytes &&
        env->shared_bytes < (uint64_t)ia + launch->shared_init_bytes) {
        *errp = g_strdup_printf("s[] of 0x%x bytes cannot hold 0x%x "
                                "bytes of data at 0x%x",
                                env->shared_bytes,
                                launch->shared_init_bytes, ia);
        return false;
    }
    run->block_step = step;
    run->launch.block[0] = bx;
    run->launch.block[1] = by;
    run->launch.block[2] = bz;
    run->launch.grid[0] = gx;
    run->launch.grid[1] = gy;
    run->launch.grid[2] = gz;
    run->block_threads = bt;
    run->nblocks = nb;
    run->threads = bt * nb;
    run->warps_per_unit = (bt + TESLA_WARP_SIZE - 1) / TESLA_WARP_SIZE;
    run->nunits = nb;
    return true;
}

/* A 3D launch's threads into @run; false with *errp. */
static bool launch_3d(TeslaRun *run, const TeslaEnv *env,
                      const TeslaLaunch *launch, char **errp)
{
    if (!launch->threads || launch->threads > (1u << 26)) {
        *errp = g_strdup_printf("bad thread count %u", launch->threads);
        return false;
    }
    if (env->prog == TESLA_PROG_FP && launch->threads % 4) {
        *errp = g_strdup_printf("fragment threads come in quads; %u is "
                                "not a multiple of 4", launch->threads);
        return false;
    }
    if (launch->in_stride && launch->in_stride < launch->threads) {
        *errp = g_strdup_printf("input word stride %u is below the "
                                "thread count %u", launch->in_stride,
                                launch->threads);
        return false;
    }
    run->threads = launch->threads;
    run->warps_per_unit = 1;
    run->nunits = (launch->threads + TESLA_WARP_SIZE - 1) / TESLA_WARP_SIZE;
    return true;
}

/* @env and @launch into @run; false with *errp if malformed. */
static bool run_launch(TeslaRun *run, const TeslaEnv *env,
                       const TeslaLaunch *launch, char **errp)
{
    if (env->variant >= TESLA_NUM_VARIANTS || env->prog >= TESLA_NUM_PROGS) {
        *errp = g_strdup("bad variant or program type");
        return false;
    }
    if (env->gprs > TESLA_MAX_GPRS) {
        *errp = g_strdup_printf("%u GPRs requested, at most %u", env->gprs,
                                TESLA_MAX_GPRS);
        return false;
    }
    if (env->local_bytes > 0x10000 || env->shared_bytes > 0x10000) {
        *errp = g_strdup("l[] and s[] are at most 0x10000 bytes");
        return false;
    }
    if (!env->code && env->code_words) {
        *errp = g_strdup("no code");
        return false;
    }
    run->env = *env;
    run->launch = *launch;
    run->features = tesla_variant_features(env->variant);
    run->compute = env->prog == TESLA_PROG_CP;
    return run->compute ? launch_compute(run, env, launch, errp)
                        : launch_3d(run, env, launch, errp);
}

/*
 * @n elements of @size from the kept buffer *@mem of *@cap, made anew
 * (zeroed: big ones cost only the pages used) when it is too small.
 */
static void *run_buf(void **mem, size_t *cap, size_t n, size_t size)
{
    if (n > *cap) {
        g_free(*mem);
        *mem = g_malloc0(n * size);
        *cap = n;
    }
    return *mem;
}

static void warps_release(TeslaRun *run)
{
    for (unsigned i = 0; i < run->warps_alloc; i++) {
        g_free(run->warps[i]->local);
        g_free(run->warps[i]->out);
        g_aligned_free(run->warps[i]);
    }
    g_free(run->warps);
    run->warps = NULL;
    run->warps_alloc = 0;
}

/* The warps of a unit, with their l[] and o[], kept where they fit. */
static void warps_fit(TeslaRun *run)
{
    uint32_t lb = run->env.local_bytes, ow = run->launch.out_words;
    unsigned kept;

    if (run->warps_local != lb || run->warps_out != ow) {
        warps_release(run);
    }
    kept = MIN(run->warps_alloc, run->warps_per_unit);
    for (unsigned i = 0; i < kept && lb && run->launch.local_uncleared; i++) {
        /* l[] starts zeroed in each launch, as a new run's */
        g_free(run->warps[i]->local);
        run->warps[i]->local = g_malloc0((size_t)lb * TESLA_WARP_SIZE);
    }
    if (run->warps_alloc >= run->warps_per_unit) {
        return;
    }
    run->warps = g_renew(TeslaWarp *, run->warps, run->warps_per_unit);
    for (unsigned i = run->warps_alloc; i < run->warps_per_unit; i++) {
        /* Aligned for the vector loops over register rows. */
        run->warps[i] = g_aligned_alloc0(1, sizeof(TeslaWarp), 64);
        if (lb) {
            run->warps[i]->local = g_malloc0((size_t)lb * TESLA_WARP_SIZE);
        }
        if (ow) {
            run->warps[i]->out = g_new0(uint32_t,
                                        (size_t)ow * TESLA_WARP_SIZE);
        }
    }
    run->warps_alloc = run->warps_per_unit;
    run->warps_local = lb;
    run->warps_out = ow;
}

/*
 * The launch's buffers.  Only what a launch reads before it writes is
 * cleared: the per-thread state and emit counts (s[] and the warps are
 * cleared by unit_start); regs and outs are read only for the threads
 * of finished units (threads_out).
 */
static void run_buffers(TeslaRun *run)
{
    size_t n = run->threads;

    warps_fit(run);
    if (run->env.shared_bytes) {
        run->shared = run_buf(&run->shared_mem, &run->shared_cap,
                              run->env.shared_bytes, 1);
    }
    if (!run->locks) {
        run->locks = g_array_new(false, false, sizeof(TeslaLockEntry));
        run->emits = g_array_new(false, false, sizeof(TeslaEmitRec));
    }
    if (run->launch.max_emits) {
        run->emitted = run_buf(&run->emitted_mem, &run->emitted_cap, n,
                               sizeof(uint32_t));
        memset(run->emitted, 0, n * sizeof(uint32_t));
    }
    if (run->launch.keep_regs && run->env.gprs) {
        run->regs = run_buf(&run->regs_mem, &run->regs_cap,
                            n * run->env.gprs, sizeof(uint32_t));
    }
    if (run->launch.out_words) {
        run->outs = run_buf(&run->outs_mem, &run->outs_cap,
                            n * run->launch.out_words, sizeof(uint32_t));
    }
    run->tstate = run_buf(&run->tstate_mem, &run->tstate_cap, n, 1);
    memset(run->tstate, 0, n);
}

TeslaRun *tesla_run_alloc(void)
{
    return g_new0(TeslaRun, 1);
}

/* The last launch's emits dropped. */
static void emits_clear(TeslaRun *run)
{
    for (unsigned i = 0; run->emits && i < run->emits->len; i++) {
        g_free(g_array_index(run->emits, TeslaEmitRec, i).out);
    }
    if (run->emits) {
        g_array_set_size(run->emits, 0);
    }
}

bool tesla_run_renew(TeslaRun *run, const TeslaEnv *env,
                     const TeslaLaunch *launch, char **errp)
{
    emits_clear(run);
    memset(run, 0, offsetof(TeslaRun, own_cc));
    if (!run_launch(run, env, launch, errp)) {
        /* a launch of no threads until renewed */
        run->threads = run->nunits = 0;
        run->finished = true;
        return false;
    }
    tesla_warp_init_tables();
    run->cc = env->decoded ? env->decoded : &run->own_cc;
    code_cache_fit(run->cc, env);
    run->icache = run->cc->icache;
    run->ivalid = run->cc->ivalid;
    run->fcache = run->cc->fcache;
    run_buffers(run);
    run->result.status = TESLA_RUN_DONE;
    run->result.error = TESLA_ERR_NONE;
    return true;
}

TeslaRun *tesla_run_new(const TeslaEnv *env, const TeslaLaunch *launch,
                        char **errp)
{
    TeslaRun *run = tesla_run_alloc();

    if (!tesla_run_renew(run, env, launch, errp)) {
        tesla_run_free(run);
        return NULL;
    }
    return run;
}

void tesla_run_free(TeslaRun *run)
{
    if (!run) {
        return;
    }
    warps_release(run);
    emits_clear(run);
    if (run->emits) {
        g_array_free(run->emits, true);
    }
    if (run->locks) {
        g_array_free(run->locks, true);
    }
    code_cache_release(&run->own_cc);
    g_free(run->shared_mem);
    g_free(run->regs_mem);
    g_free(run->outs_mem);
    g_free(run->tstate_mem);
    g_free(run->emitted_mem);
    g_free(run);
}

/* --- units ---------------------------------------------------------------- */

static void put16(uint8_t *s, uint32_t size, uint32_t addr, uint32_t v)
{
    if (addr + 2 <= size) {
        s[addr] = v;
        s[addr + 1] = v >> 8;
    }
}

static void warp_reset(TeslaRun *run, TeslaWarp *w, unsigned index,
                       unsigned first, unsigned nthreads)
{
    uint8_t *local = w->local;
    uint32_t *out = w->out;
    unsigned l;

    /*
     * Registers start at 0 (UNVERIFIED: the hardware leaves garbage).
     * Only the rows a program can see: those past gprs read as the zero
     * row and are never written (the sink row takes writes to them), and
     * stack entries above nstack are never read; the warp was zeroed
     * when allocated.
     */
    memset(w->r, 0, sizeof(w->r[0]) * MIN(run->env.gprs,
                                          (unsigned)TESLA_MAX_GPRS));
    memset(w->r[WARP_ZERO_ROW], 0, sizeof(w->r[0]));
    memset(&w->a, 0, offsetof(TeslaWarp, stack) - offsetof(TeslaWarp, a));
    memset(&w->index, 0, sizeof(*w) - offsetof(TeslaWarp, index));
    w->local = local;
    w->out = out;
    if (local && !run->launch.local_uncleared) {
        memset(local, 0, (size_t)run->env.local_bytes * TESLA_WARP_SIZE);
    }
    if (out) {
        memset(out, 0, (size_t)run->launch.out_words * TESLA_WARP_SIZE *
               sizeof(uint32_t));
    }
    w->run = run;
    w->pc = run->launch.entry;
    w->gprs = run->env.gprs;
    w->index = index;
    w->first_thread = first;
    w->valid = nthreads >= TESLA_WARP_SIZE ? WARP_FULL
                                           : (1u << nthreads) - 1;
    w->mask = w->valid;
    nthreads = MIN(nthreads, (unsigned)TESLA_WARP_SIZE);
    /* eight lanes a word (a byte loop was a fifth of warp_reset) */
    for (l = 0; l + 8 <= nthreads; l += 8) {
        uint64_t v;

        memcpy(&v, run->tstate + first + l, sizeof(v));
        v |= 0x0101010101010101ull * TTS_RAN;
        memcpy(run->tstate + first + l, &v, sizeof(v));
    }
    for (; l < nthreads; l++) {
        run->tstate[first + l] |= TTS_RAN;
    }
}

/* Bit l: the byte bools @b[l] (l < n) set. */
static uint32_t bool_mask(const bool *b, unsigned n)
{
    uint32_t m = 0;

#ifdef __SSE2__
    if (n == TESLA_WARP_SIZE) {
        __m128i z = _mm_setzero_si128();
        uint32_t lo = _mm_movemask_epi8(_mm_cmpeq_epi8(
                          _mm_loadu_si128((const __m128i *)b), z));
        uint32_t hi = _mm_movemask_epi8(_mm_cmpeq_epi8(
                          _mm_loadu_si128((const __m128i *)(b + 16)), z));

        return ~(lo | hi << 16);
    }
#endif
    for (unsigned l = 0; l < n; l++) {
        m |= (uint32_t)b[l] << l;
    }
    return m;
}

static void unit_start(TeslaRun *run)
{
    unsigned u = run->unit;

    run->sched_next = 0;
    memset(run->bar_count, 0, sizeof(run->bar_count));
    memset(run->bar_gen, 0, sizeof(run->bar_gen));
    g_array_set_size(run->locks, 0);
    if (!run->compute) {
        TeslaWarp *w = run->warps[0];
        unsigned first = u * TESLA_WARP_SIZE;

        warp_reset(run, w, u, first, MIN(run->threads - first,
                                         (unsigned)TESLA_WARP_SIZE));
        if (run->env.prog == TESLA_PROG_FP && run->launch.invisible) {
            w->invisible = bool_mask(run->launch.invisible + first,
                                     MIN(run->threads - first,
                                         (unsigned)TESLA_WARP_SIZE));
        }
    } else {
        const TeslaLaunch *L = &run->launch;
        unsigned blk = L->block_first + u * run->block_step;
        unsigned bx = blk % L->grid[0];
        unsigned by = (blk / L->grid[0]) % L->grid[1];
        unsigned bz = blk / (L->grid[0] * L->grid[1]);
        uint32_t ss = run->env.shared_bytes;
        uint32_t ia = L->shared_init_addr ? L->shared_init_addr : 0x14;

        if (run->shared) {
            memset(run->shared, 0, ss);
            put16(run->shared, ss, 0x0, L->gridid);
            put16(run->shared, ss, 0x2, L->block[0]);
            put16(run->shared, ss, 0x4, L->block[1]);
            put16(run->shared, ss, 0x6, L->block[2]);
            put16(run->shared, ss, 0x8, L->grid[0]);
            put16(run->shared, ss, 0xa, L->grid[1]);
            put16(run->shared, ss, 0xc, bx);
            put16(run->shared, ss, 0xe, by);
            put16(run->shared, ss, 0x10, L->grid[2]);
            put16(run->shared, ss, 0x12, bz);
            if (L->shared_init && L->shared_init_bytes && ia < ss) {
                memcpy(run->shared + ia, L->shared_init,
                       MIN(L->shared_init_bytes, ss - ia));
            }
        }
        for (unsigned i = 0; i < run->warps_per_unit; i++) {
            TeslaWarp *w = run->warps[i];
            unsigned first_tid = i * TESLA_WARP_SIZE;
            unsigned n = MIN(run->block_threads - first_tid,
                             (unsigned)TESLA_WARP_SIZE);

            warp_reset(run, w, i, u * run->block_threads + first_tid, n);
            w->block = blk;
            if (w->gprs) {
                for (unsigned l = 0; l < n; l++) {
                    unsigned t = first_tid + l;
                    unsigned x = t % L->block[0];
                    unsigned y = (t / L->block[0]) % L->block[1];
                    unsigned z = t / (L->block[0] * L->block[1]);

                    w->r[0][l] = x | y << 16 | z << 26;
                }
            }
        }
    }
    run->unit_live = true;
}

/*
 * A whole warp's registers 0..gprs-1 to its threads' rows of @regs
 * (thread-major, gprs apart): a transposition, 4 x 4 words at a time
 * where SSE2 has it, the rest a register at a time.  Returns gprs.
 */
static unsigned warp_regs_out(const TeslaWarp *w, unsigned gprs,
                              uint32_t *regs)
{
    unsigned r = 0;

#ifdef __SSE2__
    for (; r + 4 <= gprs; r += 4) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l += 4) {
            __m128i a = _mm_loadu_si128((const __m128i *)&w->r[r][l]);
            __m128i b = _mm_loadu_si128((const __m128i *)&w->r[r + 1][l]);
            __m128i c = _mm_loadu_si128((const __m128i *)&w->r[r + 2][l]);
            __m128i d = _mm_loadu_si128((const __m128i *)&w->r[r + 3][l]);
            __m128i ab0 = _mm_unpacklo_epi32(a, b);
            __m128i ab1 = _mm_unpackhi_epi32(a, b);
            __m128i cd0 = _mm_unpacklo_epi32(c, d);
            __m128i cd1 = _mm_unpackhi_epi32(c, d);
            uint32_t *o = regs + (size_t)(w->first_thread + l) * gprs + r;

            _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi64(ab0, cd0));
            _mm_storeu_si128((__m128i *)(o + gprs),
                             _mm_unpackhi_epi64(ab0, cd0));
            _mm_storeu_si128((__m128i *)(o + 2 * gprs),
                             _mm_unpacklo_epi64(ab1, cd1));
            _mm_storeu_si128((__m128i *)(o + 3 * gprs),
                             _mm_unpackhi_epi64(ab1, cd1));
        }
    }
#endif
    for (; r < gprs; r++) {
        uint32_t *o = regs + (size_t)w->first_thread * gprs + r;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            o[(size_t)l * gprs] = w->r[r][l];
        }
    }
    return r;
}

/* Copy the results of the unit's warps out. */
static void unit_finish(TeslaRun *run)
{
    unsigned gprs = run->env.gprs;
    unsigned ow = run->launch.out_words;

    for (unsigned i = 0; i < run->warps_per_unit; i++) {
        TeslaWarp *w = run->warps[i];
        unsigned done = 0;

        if (run->regs && w->valid == WARP_FULL) {
            done = warp_regs_out(w, gprs, run->regs);
        }
        if ((!run->regs || done == gprs) && !(run->outs && w->out)) {
            continue;
        }
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            unsigned t = w->first_thread + l;

            if (!(w->valid & (1u << l))) {
                continue;
            }
            if (run->regs) {
                for (unsigned r = done; r < gprs; r++) {
                    run->regs[(size_t)t * gprs + r] = w->r[r][l];
                }
            }
            if (run->outs && w->out) {
                memcpy(run->outs + (size_t)t * ow, w->out + (size_t)l * ow,
                       ow * sizeof(uint32_t));
            }
        }
    }
    run->threads_out = MIN((uint64_t)run->threads,
                           (uint64_t)(run->unit + 1) *
                           (run->compute ? run->block_threads
                                         : TESLA_WARP_SIZE));
    run->unit_live = false;
}

/* --- barriers ----------------------------------------------------------- */

/* Warps a "bar ... all" waits for: those of the block not yet done. */
static unsigned live_warps(TeslaRun *run)
{
    unsigned n = 0;

    for (unsigned i = 0; i < run->warps_per_unit; i++) {
        n += !run->warps[i]->done;
    }
    return n;
}

static unsigned bar_expected(TeslaRun *run, const TeslaInsn *insn)
{
    if ((insn->mods & TMOD_BAR_ALL) || insn->src[0].kind != TOPND_IMM) {
        return live_warps(run);
    }
    /* UNVERIFIED: the count is in threads, rounded up to whole warps. */
    return MAX((insn->src[0].imm + TESLA_WARP_SIZE - 1) / TESLA_WARP_SIZE,
               1u);
}

void tesla_run_barrier_arrive(TeslaRun *run, TeslaWarp *w,
                              const TeslaInsn *insn)
{
    unsigned b = insn->bar % TESLA_NUM_BARRIERS;
    uint32_t mods = insn->mods;

    /* A plain "bar sync" (no flags decoded) is inc + wait. */
    if (!(mods & (TMOD_BAR_INC | TMOD_BAR_WAIT))) {
        mods |= TMOD_BAR_INC | TMOD_BAR_WAIT;
    }
    if (mods & TMOD_BAR_INC) {
        run->bar_count[b]++;
        if (run->bar_count[b] >= bar_expected(run, insn)) {
            run->bar_count[b] = 0;
            run->bar_gen[b]++;
        }
    }
    if ((mods & TMOD_BAR_WAIT) && run->bar_count[b] != 0) {
        w->waiting = true;
        w->wait_bar = b;
        w->wait_gen = run->bar_gen[b];
    }
}

bool tesla_run_barrier_passed(TeslaRun *run, TeslaWarp *w)
{
    return run->bar_gen[w->wait_bar] != w->wait_gen;
}

/*
 * A warp finished: a barrier waiting for "all" warps may now be complete.
 * UNVERIFIED: exited warps stop counting towards "all".
 */
static void barrier_recheck(TeslaRun *run)
{
    unsigned live = live_warps(run);

    if (!live) {
        return;     /* the unit is over: nobody waits, unit_start clears */
    }
    for (unsigned b = 0; b < TESLA_NUM_BARRIERS; b++) {
        if (run->bar_count[b] && run->bar_count[b] >= live) {
            run->bar_count[b] = 0;
            run->bar_gen[b]++;
        }
    }
}

/* --- running ------------------------------------------------------------- */

/* Run the warps of the current unit; false if stopped (trap or pause). */
static bool unit_run(TeslaRun *run)
{
    unsigned n = run->warps_per_unit;

    for (;;) {
        bool progress = false, all_done = true;

        if (run->env.stop && __atomic_load_n(run->env.stop,
                                             __ATOMIC_RELAXED)) {
            run->result.status = TESLA_RUN_PAUSED;
            return false;
        }
        for (unsigned k = 0; k < n; k++) {
            unsigned i = (run->sched_next + k) % n;
            TeslaWarp *w = run->warps[i];
            TeslaWarpStop st;

            if (w->done) {
                continue;
            }
            all_done = false;
            if (w->waiting && !tesla_run_barrier_passed(run, w)) {
                continue;
            }
            st = tesla_warp_run(w, n == 1 && !run->env.stop ? UINT64_MAX
                                                             : TESLA_SLICE);
            switch (st) {
            case TWS_TRAP:
                run->result.status = TESLA_RUN_TRAP;
                return false;
            case TWS_PAUSE:
                run->sched_next = i;
                run->result.status = TESLA_RUN_PAUSED;
                return false;
            case TWS_DONE:
                barrier_recheck(run);
                progress = true;
                break;
            case TWS_BARRIER:
            case TWS_SLICE:
                progress = true;
                break;
            }
        }
        run->sched_next = 0;
        if (all_done) {
            return true;
        }
        if (!progress) {
            TeslaWarp *w = NULL;

            for (unsigned i = 0; i < n; i++) {
                if (!run->warps[i]->done) {
                    w = run->warps[i];
                    break;
                }
            }
            set_error(run, TESLA_ERR_TIMEOUT,
                      "deadlock: every live warp waits at a barrier "
                      "(warp %u at bar %u)", w ? w->index : 0,
                      w ? w->wait_bar : 0);
            run->result.pc = w ? w->insn_pc : 0;
            run->result.warp = w ? w->index : 0;
            run->result.block = run->launch.block_first +
                                run->unit * run->block_step;
            return false;
        }
    }
}

TeslaRunStatus tesla_run_exec(TeslaRun *run)
{
    if (run->finished) {
        return run->result.status;
    }
    run->result.status = TESLA_RUN_DONE;
    while (run->unit < run->nunits) {
        if (!run->unit_live) {
            unit_start(run);
        }
        if (!unit_run(run)) {
            run->result.insns = run->insns;
            if (run->result.status == TESLA_RUN_TRAP) {
                unit_finish(run);
                run->finished = true;
            }
            return run->result.status;
        }
        unit_finish(run);
        run->unit++;
    }
    run->finished = true;
    run->result.status = TESLA_RUN_DONE;
    run->result.error = TESLA_ERR_NONE;
    run->result.insns = run->insns;
    return TESLA_RUN_DONE;
}
