/*
 * make bench: what the benchmark files share with the runner (main.c).
 *
 * Every benchmark prints one line "NAME: N UNIT" through bench_report().
 * Benchmarks measure; they never fail on time.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_BENCH_H
#define GEMU_BENCH_H

#include "gemu/osdep.h"

/* Seconds on a monotonic clock. */
double bench_now(void);

/* Print "NAME: VALUE UNIT" with VALUE as 165.3. */
void bench_report(const char *name, double value, const char *unit);

/* A failure of the benchmark itself (the kernel did not run): printed,
   and the runner exits non-zero. */
void bench_fail(const char *name, const char *fmt, ...) GEMU_PRINTF(2, 3);

/* Work scale: 1.0 normally, smaller with "gemu-bench --quick". */
extern double bench_scale;

/*
 * Whether to run benchmark @name (main.c's FILTER).  A benchmark asks
 * before any of its work: the runner first calls every benchmark
 * function once to list the names (every answer then false).
 */
bool bench_wanted(const char *name);

/* The benchmarks (one function per file). */
void bench_tesla(void);
void bench_usse(void);
void bench_g84(void);
void bench_g84_engine(void);
void bench_g84_replay(void);
void bench_g84_scanout(void);

#endif
