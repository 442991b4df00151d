/*
 * USSE (SGX543) interpreter benchmark: one vertex program with a counted
 * loop of vector float (VMAD2, VMUL, VADD), integer (IMA32), bitwise and
 * test/branch instructions, run for many instances.  Reported in millions
 * of instance-instructions per second on one core:
 *
 *   usse-alu   instances x instructions executed / time
 *
 * The program checks its own results, so a broken interpreter cannot
 * report a fast number.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "bench.h"
#include "target/usse/exec.h"

/* pa0..1 = 1.0 (mad input), pa4..7 = 0.5 (add input), pa8 = 1, pa9 = N */
static const char usse_alu_src[] =
    "vmad.f32 r0.xy, r0.xyzw, c12.xxxx, pa0.xyzw\n"
    "vmul.f32 r2.xy, r2.xyzw, c1.yyyy\n"
    "vadd.f32 r4.xyzw, r4.xyzw, pa4.xyzw\n"
    "ima32 r8, r8, #1, pa8\n"
    "xor r9, r9, r8\n"
    "shl r10, r8, #1\n"
    "vtst.isub32.sn p0, r12, r8, pa9\n"
    "p0 br -7\n";

#define ALU_LOOP_INSNS 8

void bench_usse(void)
{
    const char *name = "usse-alu";
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autofree char *err = NULL;
    g_autofree uint32_t *pa = NULL;
    unsigned instances = MAX(4u, (unsigned)(8192 * bench_scale));
    unsigned iters = 256;
    UsseProgram *prog;
    UsseEnv env = { .stage = USSE_STAGE_VERTEX };
    UsseLaunch l = { 0 };
    UsseRun *run;
    double t0, secs;
    bool ok = true;

    if (!bench_wanted(name)) {
        return;
    }
    if (!usse_assemble(usse_alu_src, words, &err)) {
        bench_fail(name, "assembly: %s", err);
        return;
    }
    pa = g_new0(uint32_t, (size_t)instances * 10);
    for (unsigned i = 0; i < instances; i++) {
        uint32_t *p = pa + (size_t)i * 10;
        p[0] = p[1] = 0x3f800000;
        p[4] = p[5] = p[6] = p[7] = 0x3f000000;
        p[8] = 1;
        p[9] = iters;
    }
    prog = usse_program_new((uint64_t *)words->data, words->len);
    l.instances = instances;
    l.pa = pa;
    l.pa_words = 10;
    run = usse_run_new(&env, prog, &l, &err);
    if (!run) {
        bench_fail(name, "%s", err);
        usse_program_free(prog);
        return;
    }
    t0 = bench_now();
    if (usse_run_exec(run) != USSE_RUN_DONE) {
        bench_fail(name, "trapped: %s", usse_run_result(run)->msg);
        ok = false;
    }
    secs = bench_now() - t0;
    for (unsigned i = 0; ok && i < instances; i++) {
        uint32_t n = usse_run_reg(run, i, USSE_BANK_TEMP, 8);
        uint32_t add = usse_run_reg(run, i, USSE_BANK_TEMP, 4);
        float want = 0.5f * iters, got;

        memcpy(&got, &add, 4);
        if (n != iters || got != want) {
            bench_fail(name, "instance %u: r8 = %u, r4 = %g; expected %u, %g",
                       i, n, got, iters, want);
            ok = false;
        }
    }
    if (ok && usse_run_result(run)->insns !=
        (uint64_t)instances * iters * ALU_LOOP_INSNS) {
        bench_fail(name, "%" PRIu64 " instructions ran",
                   usse_run_result(run)->insns);
        ok = false;
    }
    if (ok) {
        bench_report(name, usse_run_result(run)->insns / secs / 1e6,
                     "M instr/s");
    }
    usse_run_free(run);
    usse_program_free(prog);
}
