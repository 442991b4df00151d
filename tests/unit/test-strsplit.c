/*
 * gemu_strsplit_c (util/strsplit.c): the one-pass splitter the parsers
 * of untrusted text use instead of g_strsplit (quadratic under ASan):
 * the same pieces as g_strsplit for every separator position.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/strsplit.h"
#include <check.h>

static void same_as_glib(const char *s, char sep)
{
    char sep_str[2] = { sep, 0 };
    g_auto(GStrv) want = g_strsplit(s, sep_str, -1);
    g_auto(GStrv) got = gemu_strsplit_c(s, sep);
    guint n = g_strv_length(want);

    ck_assert_msg(g_strv_length(got) == n, "'%s' at '%c': %u pieces, "
                  "g_strsplit %u", s, sep, g_strv_length(got), n);
    for (guint i = 0; i < n; i++) {
        ck_assert_str_eq(got[i], want[i]);
    }
}

START_TEST(like_g_strsplit)
{
    static const char *const texts[] = {
        "a", "ab\ncd", "\n", "\n\n", "a\n", "\na", "a\n\nb\n", "a:b::c:",
        ":", "no separator here", " \t\n\t ",
    };

    for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
        same_as_glib(texts[i], '\n');
        same_as_glib(texts[i], ':');
    }
}
END_TEST

START_TEST(empty)
{
    g_auto(GStrv) v = gemu_strsplit_c("", '\n');

    /* g_strsplit gives none for "": the parsers want one empty line */
    ck_assert_uint_eq(g_strv_length(v), 1);
    ck_assert_str_eq(v[0], "");
}
END_TEST

/* 2 MiB of separators: 2 Mi + 1 empty pieces (once minutes under ASan) */
START_TEST(many_pieces)
{
    size_t n = 2u << 20;
    g_autofree char *s = g_malloc(n + 1);
    g_auto(GStrv) v = NULL;

    memset(s, '\n', n);
    s[n] = 0;
    s[n - 1] = 'x';
    v = gemu_strsplit_c(s, '\n');
    ck_assert_uint_eq(g_strv_length(v), n);
    ck_assert_str_eq(v[n - 2], "");
    ck_assert_str_eq(v[n - 1], "x");
}
END_TEST

Suite *util_strsplit_suite(void)
{
    Suite *s = suite_create("util_strsplit");
    TCase *tc = tcase_create("strsplit");

    tcase_add_test(tc, like_g_strsplit);
    tcase_add_test(tc, empty);
    tcase_add_test(tc, many_pieces);
    suite_add_tcase(s, tc);
    return s;
}
