/*
 * The host's time-stamp counter rate (include/gemu/host-tsc.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/host-tsc.h"

#if defined(__x86_64__)
#include <x86intrin.h>

#define TSC_WINDOW_NS   50000000ll      /* the measurement's length */
#define TSC_PAIR_NS     2000ll          /* a clock/TSC pair this close */
#define TSC_PAIR_TRIES  100

static int64_t mono_raw_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * A TSC reading and the clock at the same moment: the TSC read between
 * two clock reads close together (the host may take the CPU between
 * any two; then try again).
 */
static bool tsc_pair(int64_t *ns, uint64_t *tsc)
{
    for (int i = 0; i < TSC_PAIR_TRIES; i++) {
        int64_t a = mono_raw_ns();
        uint64_t t = __rdtsc();
        int64_t b = mono_raw_ns();

        if (b - a <= TSC_PAIR_NS) {
            *ns = a + (b - a) / 2;
            *tsc = t;
            return true;
        }
    }
    return false;
}

/* /proc/cpuinfo's flags name constant_tsc: the rate does not follow
   the CPU's frequency */
static bool tsc_constant(void)
{
    g_autofree char *info = NULL;

    if (!g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL)) {
        return false;
    }
    return strstr(info, " constant_tsc") != NULL;
}

static unsigned measure(void)
{
    struct timespec nap = { 0, TSC_WINDOW_NS };
    int64_t ns0, ns1;
    uint64_t t0, t1;

    if (!tsc_constant() || !tsc_pair(&ns0, &t0)) {
        return 0;
    }
    while (nanosleep(&nap, &nap) < 0 && errno == EINTR) {
        /* the rest of it */
    }
    if (!tsc_pair(&ns1, &t1) || ns1 - ns0 < TSC_WINDOW_NS || t1 <= t0) {
        return 0;
    }
    /* cycles per ms, rounded */
    return (unsigned)(((t1 - t0) * 1000000ull + (uint64_t)(ns1 - ns0) / 2) /
                      (uint64_t)(ns1 - ns0));
}
#else
static unsigned measure(void)
{
    return 0;
}
#endif

unsigned host_tsc_khz(void)
{
    static gsize once;
    static unsigned khz;

    if (g_once_init_enter(&once)) {
        khz = measure();
        g_once_init_leave(&once, 1);
    }
    return khz;
}
