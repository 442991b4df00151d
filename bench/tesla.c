/*
 * Tesla shader core benchmarks: three compute kernels run through the
 * warp interpreter gemu uses (target/tesla/exec.h), reported in millions
 * of warp-instructions per second on one core:
 *
 *   tesla-alu        integer and f32 add/mul/mad/logic on registers, all
 *                    32 lanes active
 *   tesla-mem        g[] s[] l[] c[] loads and stores
 *   tesla-divergent  half the lanes take each side of a joinat/join branch
 *
 * Each kernel is a counted loop over many warps; the amount of work is
 * fixed, the time is measured.  The kernels check their own results, so a
 * broken interpreter cannot report a fast number.  They are built in
 * tesla-kernels.c, which g84-engine.c shares (g84-compute runs tesla-alu's
 * kernel through the G84's compute class).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "bench.h"
#include "tesla-kernels.h"
#include "target/tesla/exec.h"

#include <assert.h>

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

static void run_kernel(BenchKernel *k)
{
    g_autofree uint8_t *g0 = NULL;
    g_autofree uint8_t *c0 = g_malloc0(0x100);
    g_autofree char *err = NULL;
    unsigned threads = k->block * k->grid;
    unsigned warps = k->grid * DIV_ROUND_UP(k->block, TESLA_WARP_SIZE);
    uint64_t want = k->insns_per_warp * warps;
    TeslaEnv env = {
        .variant = TESLA_G84,
        .prog = TESLA_PROG_CP,
        .code = k->prog.w,
        .code_words = k->prog.n,
        .gprs = 32,
        .local_bytes = k->local_bytes,
        .shared_bytes = k->shared_bytes ? k->shared_bytes : 0x14,
    };
    TeslaLaunch launch = {
        .block = { k->block, 1, 1 },
        .grid = { k->grid, 1, 1 },
    };
    const TeslaResult *res;
    TeslaRun *run;
    double t0, secs;

    c0[0x10] = 1;
    env.c[0].data = c0;
    env.c[0].size = 0x100;
    if (k->use_g0) {
        g0 = g_malloc0((size_t)threads * 4);
        env.g[0].data = g0;
        env.g[0].size = (uint64_t)threads * 4;
    }

    t0 = bench_now();
    run = tesla_run_new(&env, &launch, &err);
    if (!run) {
        bench_fail(k->name, "launch rejected: %s", err);
        return;
    }
    tesla_run_exec(run);
    secs = bench_now() - t0;

    res = tesla_run_result(run);
    if (res->status != TESLA_RUN_DONE) {
        bench_fail(k->name, "%s at 0x%08x (block %u warp %u) %s",
                   tesla_error_name(res->error), res->pc, res->block,
                   res->warp, res->msg);
    } else if (res->insns != want) {
        bench_fail(k->name, "ran %" PRIu64 " warp-instructions, expected %"
                   PRIu64, res->insns, want);
    } else {
        bool ok = true;

        for (unsigned t = 0; k->use_g0 && t < threads && ok; t++) {
            uint32_t v = g0[4 * t] | g0[4 * t + 1] << 8 |
                         g0[4 * t + 2] << 16 | (uint32_t)g0[4 * t + 3] << 24;
            if (v != k->g0_want) {
                bench_fail(k->name, "g0[0x%x] = 0x%x, expected 0x%x",
                           4 * t, v, k->g0_want);
                ok = false;
            }
        }
        if (ok) {
            bench_report(k->name, res->insns / secs / 1e6,
                         "M warp-instr/s");
        }
    }
    tesla_run_free(run);
}

void bench_tesla(void)
{
    static BenchKernel kernels[] = {
        /* name, -, block, grid, rounds: about 200M, 80M, 100M insns */
        { "tesla-alu", { { 0 }, 0 }, 256, 680, 2048 },
        { "tesla-mem", { { 0 }, 0 }, 256, 500, 1536 },
        { "tesla-divergent", { { 0 }, 0 }, 256, 325, 2560 },
    };
    void (*build[])(BenchKernel *) = {
        bench_tesla_build_alu, bench_tesla_build_mem,
        bench_tesla_build_divergent,
    };

    bool checked = false;

    for (unsigned i = 0; i < ARRAY_SIZE(kernels); i++) {
        BenchKernel *k = &kernels[i];

        if (!bench_wanted(k->name)) {
            continue;
        }
        if (!checked && !bench_tesla_check_encodings()) {
            bench_fail("tesla", "the kernels' encodings are wrong");
            return;
        }
        checked = true;
        k->grid = MAX(1u, (unsigned)(k->grid * bench_scale));
        k->prog.n = 0;
        build[i](k);
        run_kernel(k);
    }
}
