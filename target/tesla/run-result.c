/*
 * Tesla shader core runtime: a launch's results (per thread, per warp),
 * and changes to its decode cache.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* --- results -------------------------------------------------------------- */

/* The registers of a thread whose registers are not kept or written. */
static const uint32_t zero_regs[TESLA_MAX_GPRS];

const TeslaResult *tesla_run_result(const TeslaRun *run)
{
    return &run->result;
}

unsigned tesla_run_threads(const TeslaRun *run)
{
    return run->threads;
}

uint32_t tesla_run_reg(const TeslaRun *run, unsigned thread, unsigned reg)
{
    if (!run->regs || thread >= run->threads_out || reg >= run->env.gprs) {
        return 0;
    }
    return run->regs[(size_t)thread * run->env.gprs + reg];
}

const uint32_t *tesla_run_regs(const TeslaRun *run, unsigned thread)
{
    if (!run->regs || thread >= run->threads_out) {
        return zero_regs;
    }
    return run->regs + (size_t)thread * run->env.gprs;
}

const uint32_t *tesla_run_regs_warp(const TeslaRun *run, unsigned first,
                                    unsigned *stride)
{
    uint64_t end = MIN((uint64_t)first + TESLA_WARP_SIZE,
                       (uint64_t)run->threads);

    if (!run->regs || first >= end || end > run->threads_out) {
        *stride = 0;
        return zero_regs;
    }
    *stride = run->env.gprs;
    return run->regs + (size_t)first * run->env.gprs;
}

const uint32_t *tesla_run_out(const TeslaRun *run, unsigned thread)
{
    if (!run->outs || thread >= run->threads_out) {
        return NULL;
    }
    return run->outs + (size_t)thread * run->launch.out_words;
}

bool tesla_run_killed(const TeslaRun *run, unsigned thread)
{
    return thread < run->threads && (run->tstate[thread] & TTS_KILLED);
}

uint32_t tesla_run_killed_warp(const TeslaRun *run, unsigned first)
{
    unsigned n = first < run->threads ? MIN(run->threads - first,
                                            (unsigned)TESLA_WARP_SIZE) : 0;
    const uint8_t *ts = run->tstate + first;
    uint32_t m = 0;

#ifdef __SSE2__
    if (n == TESLA_WARP_SIZE) {
        __m128i k = _mm_set1_epi8(TTS_KILLED);
        __m128i lo = _mm_loadu_si128((const __m128i *)ts);
        __m128i hi = _mm_loadu_si128((const __m128i *)(ts + 16));

        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(lo, k), k)) |
               (uint32_t)_mm_movemask_epi8(
                   _mm_cmpeq_epi8(_mm_and_si128(hi, k), k)) << 16;
    }
#endif
    for (unsigned l = 0; l < n; l++) {
        m |= (uint32_t)!!(ts[l] & TTS_KILLED) << l;
    }
    return m;
}

bool tesla_run_exited(const TeslaRun *run, unsigned thread)
{
    return thread < run->threads && (run->tstate[thread] & TTS_EXITED) &&
           !(run->tstate[thread] & TTS_KILLED);
}

const TeslaEmitRec *tesla_run_emits(const TeslaRun *run, unsigned *count)
{
    *count = run->emits->len;
    return (const TeslaEmitRec *)run->emits->data;
}

const uint8_t *tesla_run_shared(const TeslaRun *run, uint32_t *size)
{
    *size = run->shared ? run->env.shared_bytes : 0;
    return run->shared;
}

void tesla_run_set_insn(TeslaRun *run, const TeslaInsn *insn)
{
    size_t idx = insn->addr >> 2;

    if (idx < run->env.code_words) {
        run->icache[idx] = *insn;
        run->ivalid[idx] = 1;
        tesla_fast_classify(run, idx);
    }
}

void tesla_run_invalidate(TeslaRun *run)
{
    tesla_code_cache_invalidate(run->cc);
}
