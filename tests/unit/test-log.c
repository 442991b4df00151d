/*
 * gemu_log_once (util/log.c): one message per (unit, key), nothing when
 * its mask is off, and at most GEMU_LOG_ONCE_MAX different pairs
 * remembered -- a hostile guest touching ever new unimplemented
 * registers (tests/guest/hostile.sh) must not grow gemu's memory without
 * end when -d unimp is on; gemu_log_mask's rate limit per place
 * (GEMU_LOG_RATE a second, then one line counting what was left out)
 * on a fake clock, traces never limited.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include <check.h>

static FILE *out;

static void setup(void)
{
    out = tmpfile();
    ck_assert_ptr_nonnull(out);
    gemu_log_set_file(out);
    gemu_loglevel = LOG_UNIMP;
}

static void teardown(void)
{
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    fclose(out);
}

/* How many lines of what was logged contain @what. */
static unsigned lines_with(const char *what)
{
    char line[256];
    unsigned n = 0;

    fflush(out);
    rewind(out);
    while (fgets(line, sizeof(line), out)) {
        n += strstr(line, what) != NULL;
    }
    fseek(out, 0, SEEK_END);
    return n;
}

START_TEST(once_per_key)
{
    ck_assert(gemu_log_once(LOG_UNIMP, "test-once", 7, "seven\n"));
    ck_assert(!gemu_log_once(LOG_UNIMP, "test-once", 7, "seven\n"));
    ck_assert(gemu_log_once(LOG_UNIMP, "test-other", 7, "seven\n"));
    /* a mask that is off: nothing, and the key stays new */
    ck_assert(!gemu_log_once(LOG_GUEST_ERROR, "test-once", 8, "eight\n"));
    ck_assert(gemu_log_once(LOG_UNIMP, "test-once", 8, "eight\n"));
    ck_assert_uint_eq(lines_with("seven"), 2);
    ck_assert_uint_eq(lines_with("eight"), 1);
}
END_TEST

START_TEST(bounded)
{
    unsigned logged = 0;

    for (uint64_t k = 0; k < GEMU_LOG_ONCE_MAX + 1000; k++) {
        logged += gemu_log_once(LOG_UNIMP, "test-cap", k,
                                "cap %" PRIx64 "\n", k);
    }
    /* a fresh process (Check forks) remembers exactly that many */
    ck_assert_uint_le(logged, GEMU_LOG_ONCE_MAX);
    ck_assert_uint_ge(logged, GEMU_LOG_ONCE_MAX - 16);
    ck_assert_uint_eq(lines_with("cap "), logged);
    ck_assert_uint_eq(lines_with("no more are"), 1);
    /* full: a new pair is not logged, nor is the notice again */
    ck_assert(!gemu_log_once(LOG_UNIMP, "test-cap", 1ull << 40, "cap x\n"));
    ck_assert_uint_eq(lines_with("no more are"), 1);
}
END_TEST

/* The rate limit's clock, moved by the tests. */
static int64_t fake_us;

static int64_t fake_clock(void)
{
    return fake_us;
}

/* One place of the code: a guest error a guest could repeat at will. */
static void flood(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        gemu_log_mask(LOG_GUEST_ERROR, "flood %u\n", i);
    }
}

START_TEST(rate_limited)
{
    gemu_loglevel = LOG_GUEST_ERROR;
    gemu_log_set_clock(fake_clock);
    fake_us = 5 * G_USEC_PER_SEC;
    flood(GEMU_LOG_RATE + 150);
    ck_assert_uint_eq(lines_with("flood "), GEMU_LOG_RATE);
    ck_assert_uint_eq(lines_with("suppressed"), 0);
    /* another place is not held back by this one */
    gemu_log_mask(LOG_GUEST_ERROR, "elsewhere\n");
    ck_assert_uint_eq(lines_with("elsewhere"), 1);
    /* still the same second: nothing more */
    fake_us += G_USEC_PER_SEC - 1;
    flood(10);
    ck_assert_uint_eq(lines_with("flood "), GEMU_LOG_RATE);
    /* the next second: the count, once, then the message */
    fake_us += 1;
    flood(1);
    ck_assert_uint_eq(lines_with("gemu: 160 more messages like \"flood %u\" "
                                 "were suppressed (at most 100 a second"), 1);
    ck_assert_uint_eq(lines_with("flood "), GEMU_LOG_RATE + 2);
    /* a quiet second has nothing to say */
    fake_us += 10 * G_USEC_PER_SEC;
    flood(1);
    ck_assert_uint_eq(lines_with("suppressed"), 1);
    ck_assert_uint_eq(lines_with("flood "), GEMU_LOG_RATE + 3);
    gemu_log_set_clock(NULL);
}
END_TEST

/* Traces are what the user asked for, every line of them. */
START_TEST(traces_not_limited)
{
    gemu_loglevel = LOG_TRACE_MMIO;
    gemu_log_set_clock(fake_clock);
    fake_us = 0;
    for (unsigned i = 0; i < 3 * GEMU_LOG_RATE; i++) {
        gemu_log_mask(LOG_TRACE_MMIO, "trace %u\n", i);
    }
    ck_assert_uint_eq(lines_with("trace "), 3 * GEMU_LOG_RATE);
    ck_assert_uint_eq(lines_with("suppressed"), 0);
    gemu_log_set_clock(NULL);
}
END_TEST

Suite *log_suite(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("once");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, once_per_key);
    tcase_add_test(tc, bounded);
    tcase_add_test(tc, rate_limited);
    tcase_add_test(tc, traces_not_limited);
    suite_add_tcase(s, tc);
    return s;
}
