/*
 * Tesla variant and program type names.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include <check.h>

START_TEST(variant_names_round_trip)
{
    for (int i = 0; i < TESLA_NUM_VARIANTS; i++) {
        TeslaVariant v;

        ck_assert(tesla_variant_parse(tesla_variant_name(i), &v));
        ck_assert_int_eq(v, i);
    }
    {
        TeslaVariant v;
        ck_assert(!tesla_variant_parse("g90", &v));
    }
}
END_TEST

START_TEST(variant_features)
{
    ck_assert_uint_eq(tesla_variant_features(TESLA_G80), 0);
    ck_assert(tesla_variant_features(TESLA_G84) & TESLA_F_SM11);
    ck_assert(tesla_variant_features(TESLA_G200) & TESLA_F_FP64);
    ck_assert(!(tesla_variant_features(TESLA_MCP77) & TESLA_F_FP64));
    ck_assert(!(tesla_variant_features(TESLA_GT215) & TESLA_F_FP64));
    ck_assert(tesla_variant_features(TESLA_GT215) & TESLA_F_D3D10_1);
}
END_TEST

START_TEST(prog_names)
{
    TeslaProgType p;

    ck_assert(tesla_prog_parse("compute", &p));
    ck_assert_int_eq(p, TESLA_PROG_CP);
    ck_assert(tesla_prog_parse("fp", &p));
    ck_assert_int_eq(p, TESLA_PROG_FP);
    ck_assert(!tesla_prog_parse("pixel", &p));
    ck_assert_str_eq(tesla_prog_name(TESLA_PROG_GP), "gp");
}
END_TEST

Suite *tesla_variant_suite(void)
{
    Suite *s = suite_create("tesla-variant");
    TCase *tc = tcase_create("names");

    tcase_add_test(tc, variant_names_round_trip);
    tcase_add_test(tc, variant_features);
    tcase_add_test(tc, prog_names);
    suite_add_tcase(s, tc);
    return s;
}
