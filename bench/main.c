/*
 * make bench: the benchmark runner.  Benchmarks print one line each,
 * "NAME: N UNIT"; they never assert on time.
 *
 *   gemu-bench [--quick] [FILTER]
 *
 * FILTER runs only the benchmarks whose name contains it; --quick runs a
 * small fraction of the work (for a smoke test, not for numbers).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "bench.h"

double bench_scale = 1.0;
static int bench_failures;

double bench_now(void)
{
    return g_get_monotonic_time() / 1e6;
}

void bench_report(const char *name, double value, const char *unit)
{
    printf("%s: %.1f %s\n", name, value, unit);
    fflush(stdout);
}

void bench_fail(const char *name, const char *fmt, ...)
{
    va_list ap;

    printf("%s: FAILED: ", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    bench_failures++;
}

int main(int argc, char **argv)
{
    const char *filter = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            bench_scale = 0.01;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: gemu-bench [--quick] [FILTER]\n");
            return 0;
        } else if (argv[i][0] == '-' || filter) {
            fprintf(stderr, "usage: gemu-bench [--quick] [FILTER]\n");
            return 2;
        } else {
            filter = argv[i];
        }
    }
    bench_tesla(filter);
    bench_g84_engine(filter);       /* g84-compute beside tesla-alu */
    bench_usse(filter);
    bench_g84(filter);
    bench_g84_replay(filter);
    bench_g84_scanout(filter);
    return bench_failures ? 1 : 0;
}
