/*
 * gemu_log_once (util/log.c): one message per (unit, key), nothing when
 * its mask is off, and at most GEMU_LOG_ONCE_MAX different pairs
 * remembered -- a hostile guest touching ever new unimplemented
 * registers (tests/guest/hostile.sh) must not grow gemu's memory without
 * end when -d unimp is on.
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

Suite *log_suite(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("once");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, once_per_key);
    tcase_add_test(tc, bounded);
    suite_add_tcase(s, tc);
    return s;
}
