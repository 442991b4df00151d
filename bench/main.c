/*
 * make bench: the benchmark runner.  Benchmarks print one line each,
 * "NAME: N UNIT"; they never assert on time.
 *
 *   gemu-bench [--quick] [FILTER]
 *
 * FILTER runs the benchmark of that name if there is one (g84-cube, not
 * g84-cube-bl too), else every benchmark whose name contains it
 * (g84-mesh, tesla); --quick runs a small fraction of the work (for a
 * smoke test, not for numbers).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "bench.h"

double bench_scale = 1.0;
static int bench_failures;
static const char *bench_filter;
static GHashTable *bench_names;     /* set while the names are listed */
static bool bench_exact;            /* bench_filter is one of them */

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

bool bench_wanted(const char *name)
{
    if (bench_names) {
        g_hash_table_add(bench_names, (gpointer)name);
        return false;
    }
    if (!bench_filter) {
        return true;
    }
    return bench_exact ? !strcmp(name, bench_filter)
                       : strstr(name, bench_filter) != NULL;
}

static bool bench_any_contains(const char *filter)
{
    GHashTableIter it;
    gpointer name;

    g_hash_table_iter_init(&it, bench_names);
    while (g_hash_table_iter_next(&it, &name, NULL)) {
        if (strstr(name, filter)) {
            return true;
        }
    }
    return false;
}

static void bench_all(void)
{
    bench_tesla();
    bench_g84_engine();             /* g84-compute beside tesla-alu */
    bench_usse();
    bench_g84();
    bench_g84_replay();
    bench_g84_scanout();
}

int main(int argc, char **argv)
{
    const char *filter = NULL;
    bool known;

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
    if (filter) {
        /* a pass that runs nothing lists the names */
        bench_names = g_hash_table_new(g_str_hash, g_str_equal);
        bench_all();
        bench_exact = g_hash_table_contains(bench_names, filter);
        known = bench_exact || bench_any_contains(filter);
        g_hash_table_destroy(bench_names);
        bench_names = NULL;
        if (!known) {
            fprintf(stderr, "gemu-bench: no benchmark's name contains "
                    "'%s'\n", filter);
            return 2;
        }
        bench_filter = filter;
    }
    bench_all();
    return bench_failures ? 1 : 0;
}
