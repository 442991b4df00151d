/*
 * nv50 PTIMER: a counter that always advances, set like nvkm sets it,
 * and the alarm interrupt through PMC to the PCI INTx pin.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include <check.h>

static GemuClock clk;

static NV50State *card(void)
{
    NV50State *s;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* nvkm's read: HIGH, LOW, HIGH until HIGH is stable (timer/nv04.c) */
static uint64_t read_time(NV50State *s)
{
    uint32_t hi, lo;

    do {
        hi = nv50_rd32(s, NV_PTIMER_TIME_HIGH);
        lo = nv50_rd32(s, NV_PTIMER_TIME_LOW);
    } while (hi != nv50_rd32(s, NV_PTIMER_TIME_HIGH));
    return (uint64_t)hi << 32 | lo;
}

START_TEST(advances_on_every_read)
{
    NV50State *s = card();
    uint64_t prev = read_time(s);

    /* the virtual clock does not move, yet no two reads are equal */
    for (int i = 0; i < 100; i++) {
        uint64_t t = read_time(s);

        ck_assert_uint_gt(t, prev);
        ck_assert_uint_eq(t & 31, 0);       /* low 5 bits read 0 */
        prev = t;
    }
    nv50_free(s);
}
END_TEST

START_TEST(follows_the_clock)
{
    NV50State *s = card();
    uint64_t a = read_time(s), b;

    gemu_clock_advance(&clk, 1000000);
    b = read_time(s);
    ck_assert_uint_ge(b - a, 1000000 - 32);
    ck_assert_uint_le(b - a, 1000000 + 64);
    nv50_free(s);
}
END_TEST

START_TEST(set_like_nvkm)
{
    NV50State *s = card();
    uint64_t want = 0x0000001234567800ull, t;

    /* timer/nv04.c: TIME_HIGH then TIME_LOW */
    nv50_wr32(s, NV_PTIMER_TIME_HIGH, want >> 32);
    nv50_wr32(s, NV_PTIMER_TIME_LOW, (uint32_t)want);
    t = read_time(s);
    ck_assert_uint_ge(t, want);
    ck_assert_uint_lt(t, want + 1000);
    /* the ratio registers keep what nvkm programs */
    nv50_wr32(s, NV_PTIMER_CLOCK_DIV, 0x00000008);
    nv50_wr32(s, NV_PTIMER_CLOCK_MUL, 0x00000003);
    ck_assert_uint_eq(nv50_rd32(s, NV_PTIMER_CLOCK_DIV), 8);
    ck_assert_uint_eq(nv50_rd32(s, NV_PTIMER_CLOCK_MUL), 3);
    nv50_free(s);
}
END_TEST

static int intx;

static void intx_cb(void *opaque, int n, int level)
{
    intx = level;
}

START_TEST(alarm_raises_intx)
{
    NV50State *s = card();
    uint32_t now;

    intx = 0;
    irq_line_connect(&PCI_DEVICE(s)->intx, intx_cb, NULL, 0);
    nv50_wr32(s, NV_PMC_INTR_EN_HOST, 1);
    nv50_wr32(s, NV_PTIMER_INTR_ENABLE, 1);
    now = nv50_rd32(s, NV_PTIMER_TIME_LOW);
    nv50_wr32(s, NV_PTIMER_ALARM, now + 5000);

    gemu_clock_advance(&clk, 4000);
    ck_assert_uint_eq(nv50_rd32(s, NV_PTIMER_INTR), 0);
    ck_assert_int_eq(intx, 0);

    /* the timer fires without anyone reading the counter */
    gemu_clock_advance(&clk, 2000);
    ck_assert_int_eq(intx, 1);
    ck_assert_uint_eq(nv50_rd32(s, NV_PMC_INTR_HOST), NV50_INTR_PTIMER);
    ck_assert_uint_eq(nv50_rd32(s, NV_PTIMER_INTR), 1);

    /* acknowledge: write one to clear */
    nv50_wr32(s, NV_PTIMER_INTR, 1);
    ck_assert_uint_eq(nv50_rd32(s, NV_PMC_INTR_HOST), 0);
    ck_assert_int_eq(intx, 0);
    nv50_free(s);
}
END_TEST

START_TEST(masked_alarm_shows_in_intr_only)
{
    NV50State *s = card();
    uint32_t now;

    intx = 0;
    irq_line_connect(&PCI_DEVICE(s)->intx, intx_cb, NULL, 0);
    nv50_wr32(s, NV_PMC_INTR_EN_HOST, 1);
    now = nv50_rd32(s, NV_PTIMER_TIME_LOW);
    nv50_wr32(s, NV_PTIMER_ALARM, now + 100);
    gemu_clock_advance(&clk, 1000);
    ck_assert_uint_eq(nv50_rd32(s, NV_PTIMER_INTR), 1);
    ck_assert_uint_eq(nv50_rd32(s, NV_PMC_INTR_HOST), 0);
    ck_assert_int_eq(intx, 0);
    /* enabling it now delivers the pending alarm */
    nv50_wr32(s, NV_PTIMER_INTR_ENABLE, 1);
    ck_assert_int_eq(intx, 1);
    /* and PMC's master enable gates the pin */
    nv50_wr32(s, NV_PMC_INTR_EN_HOST, 0);
    ck_assert_int_eq(intx, 0);
    ck_assert_uint_eq(nv50_rd32(s, NV_PMC_INTR_HOST), NV50_INTR_PTIMER);
    nv50_free(s);
}
END_TEST

Suite *hw_ptimer_suite(void)
{
    Suite *s = suite_create("hw-ptimer");
    TCase *tc = tcase_create("ptimer");

    tcase_add_test(tc, advances_on_every_read);
    tcase_add_test(tc, follows_the_clock);
    tcase_add_test(tc, set_like_nvkm);
    tcase_add_test(tc, alarm_raises_intx);
    tcase_add_test(tc, masked_alarm_shows_in_intr_only);
    suite_add_tcase(s, tc);
    return s;
}
