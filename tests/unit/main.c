/*
 * The unit test runner: every Check suite under tests/unit/.
 * The list of suites (suites.inc) is made by the Makefile from the sources.
 *
 * Usage: unit-tests [SUITE...]   (no argument: all suites)
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include <check.h>

#define SUITE(fn) Suite *fn(void);
#include "suites.inc"
#undef SUITE

static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
#define SUITE(fn) { #fn, fn },
#include "suites.inc"
#undef SUITE
};

static bool wanted(const char *fn, int argc, char **argv)
{
    if (argc < 2) {
        return true;
    }
    for (int i = 1; i < argc; i++) {
        /* "tesla_int" selects tesla_int_suite */
        if (g_str_has_prefix(fn, argv[i])) {
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    SRunner *sr = NULL;
    int failed, run;

    for (size_t i = 0; i < ARRAY_SIZE(suites); i++) {
        if (!wanted(suites[i].name, argc, argv)) {
            continue;
        }
        if (!sr) {
            sr = srunner_create(suites[i].make());
        } else {
            srunner_add_suite(sr, suites[i].make());
        }
    }
    if (!sr) {
        fprintf(stderr, "unit-tests: no suite matches\n");
        return 2;
    }
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    run = srunner_ntests_run(sr);
    srunner_free(sr);
    printf("unit: %d passed, %d failed\n", run - failed, failed);
    return failed ? 1 : 0;
}
