/*
 * make bench: the Tesla kernels, shared by bench/tesla.c (run on the
 * warp interpreter, target/tesla/exec.h) and bench/g84-engine.c (run
 * through the G84's compute class on the emulated MPs): a small program
 * builder (tesla-kernels.c) and the kernels built with it.
 *
 * A kernel's threads use the launch convention of the compute class and
 * gemu-shader: $r0 = tid, the s[] header at 0x0-0xf (block size 0x2,
 * block index 0xc).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_BENCH_TESLA_KERNELS_H
#define GEMU_BENCH_TESLA_KERNELS_H

#include "gemu/osdep.h"

/* A program: code words as the MP reads them. */
typedef struct BenchProg {
    uint32_t w[256];
    unsigned n;
} BenchProg;

typedef struct BenchKernel {
    const char *name;
    BenchProg prog;
    unsigned block, grid;       /* threads a block (x), blocks (x) */
    uint32_t iters;             /* rounds of the loop */
    /* set by the builder: */
    uint64_t insns_per_warp;    /* what the run must count */
    uint32_t local_bytes;
    uint32_t shared_bytes;
    bool use_g0;                /* g0: one 32-bit word a thread ... */
    uint32_t g0_want;           /* ... which must end as this */
} BenchKernel;

/* The builder's encodings against envyas output. */
bool bench_tesla_check_encodings(void);

/*
 * Build k->prog from k->iters (k->prog.n must be 0).
 *
 * alu: integer and f32 add/mul/mad/logic on registers, 18
 * warp-instructions a round; each thread stores its integer
 * accumulator (6 x iters) to g0[gid].
 * mem: g[] s[] l[] c[] loads and stores, 13 a round; g0[gid] ends as
 * iters (c0[0x10] must be 1, l[] 0x20 bytes a thread).
 * divergent: half the lanes on each side of a joinat/join branch, 15 a
 * round; nothing in g0.
 */
void bench_tesla_build_alu(BenchKernel *k);
void bench_tesla_build_mem(BenchKernel *k);
void bench_tesla_build_divergent(BenchKernel *k);

#endif
