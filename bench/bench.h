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

/* The benchmarks (one function per file). */
void bench_tesla(const char *filter);
void bench_usse(const char *filter);
void bench_g84(const char *filter);
void bench_g84_engine(const char *filter);
void bench_g84_replay(const char *filter);
void bench_g84_scanout(const char *filter);

#endif
