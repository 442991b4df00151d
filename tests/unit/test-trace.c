/*
 * Unit tests: trace points and their glob patterns (util/trace.c), and
 * the nv50 MMIO trace point as "gemu -trace 'nv50_*'" uses it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "hw/nv50/nv50.h"
#include <check.h>

START_TEST(test_trace_glob)
{
    ck_assert(gemu_trace_glob("nv50_*", "nv50_mmio_read"));
    ck_assert(gemu_trace_glob("*", "mpqemu_msg"));
    ck_assert(gemu_trace_glob("*_read", "nv50_mmio_read"));
    ck_assert(gemu_trace_glob("nv50_mmio_????", "nv50_mmio_read"));
    ck_assert(gemu_trace_glob("*mmio*", "nv50_mmio_write"));
    ck_assert(gemu_trace_glob("mpqemu_msg", "mpqemu_msg"));
    /* backtracking: the first '_' is not the one that matches */
    ck_assert(gemu_trace_glob("*_w*e", "nv50_mmio_write"));
    ck_assert(!gemu_trace_glob("nv50_*", "mpqemu_msg"));
    ck_assert(!gemu_trace_glob("mpqemu", "mpqemu_msg"));
    ck_assert(!gemu_trace_glob("*_read", "nv50_mmio_write"));
    ck_assert(!gemu_trace_glob("?", ""));
    ck_assert(!gemu_trace_glob("nv50_mmio_???", "nv50_mmio_read"));
    ck_assert(gemu_trace_glob("", ""));
    ck_assert(!gemu_trace_glob("", "x"));
}
END_TEST

START_TEST(test_trace_parse)
{
    g_autofree char *err = NULL;

    gemu_trace_reset();
    ck_assert(gemu_trace_parse("nv50_*", &err));
    ck_assert(gemu_trace_state[TRACE_NV50_MMIO_READ]);
    ck_assert(gemu_trace_state[TRACE_NV50_MMIO_WRITE]);
    ck_assert(!gemu_trace_state[TRACE_MPQEMU_MSG]);
    /* QEMU's enable= form, lists, and '-' to turn points off again */
    ck_assert(gemu_trace_parse("enable=mpqemu_*,-*_write", &err));
    ck_assert(gemu_trace_state[TRACE_MPQEMU_MSG]);
    ck_assert(gemu_trace_state[TRACE_MPQEMU_RET]);
    ck_assert(!gemu_trace_state[TRACE_NV50_MMIO_WRITE]);
    ck_assert(gemu_trace_state[TRACE_NV50_MMIO_READ]);
    /* a pattern that matches nothing is the user's typo: an error */
    ck_assert(!gemu_trace_parse("nv05_*", &err));
    ck_assert_ptr_nonnull(strstr(err, "nv05_*"));
    g_clear_pointer(&err, g_free);
    ck_assert(!gemu_trace_parse("-", &err));
    gemu_trace_reset();
    ck_assert(!gemu_trace_state[TRACE_NV50_MMIO_READ]);
}
END_TEST

START_TEST(test_trace_nv50_mmio)
{
    GemuClock clk;
    NV50State *s;
    FILE *log = tmpfile();
    g_autofree char *err = NULL;
    char buf[4096] = "";
    size_t n;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 0, NULL);
    device_reset(DEVICE(s));
    gemu_log_set_file(log);
    gemu_trace_reset();
    ck_assert(gemu_trace_parse("nv50_mmio_read", &err));
    ck_assert_uint_eq(nv50_rd32(s, 0x000000), 0x084000a2);
    nv50_wr32(s, 0x000200, 0x1234);         /* not traced: off */
    gemu_trace_reset();
    nv50_rd32(s, 0x000000);                 /* not traced: all off */
    gemu_log_set_file(NULL);
    rewind(log);
    n = fread(buf, 1, sizeof(buf) - 1, log);
    buf[n] = '\0';
    fclose(log);
    ck_assert_str_eq(buf, "nv50_mmio_read PMC 0x000000 size 4 = 0x84000a2\n");
    nv50_free(s);
    gemu_clock_destroy(&clk);
}
END_TEST

Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_trace_glob);
    tcase_add_test(tc, test_trace_parse);
    tcase_add_test(tc, test_trace_nv50_mmio);
    suite_add_tcase(s, tc);
    return s;
}
