/*
 * The card's monitor commands (hw/nv50/monitor-cmds.c, inspect.c) through
 * a real monitor on a socketpair, as the g84 machine wires them: info
 * channels, info pgraph, x, xp, disas, stop and cont, with their errors.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/inspect.h"
#include "target/tesla.h"
#include "hw/nv50/pfifo.h"
#include "nv50-gr-rig.h"
#include "../unit/monitor-rig.h"
#include <unistd.h>

#define H_M2MF      0x80000001u
#define H_3D        0x80000002u
#define VA_WORDS    (GR_VA_DATA + 0x1000)
#define VRAM_WORDS  0x3000000ull

static Monitor *mon;
static int cfd, mfd;

static void setup(void)
{
    static MonitorOps ops = {
        .commands = nv50_monitor_commands, .info = nv50_monitor_info,
    };

    gr_rig_init();
    ops.commands_opaque = rig.s;
    mon = mrig_pair(&ops, NULL, &cfd, &mfd);
}

static void teardown(void)
{
    mrig_pair_free(mon, cfd, mfd);
    gr_rig_teardown();
}

static char *ask(const char *line)
{
    g_autofree char *l = g_strconcat(line, "\n", NULL);

    return mrig_cmd(mon, cfd, cfd, l);
}

#define ck_has(got, needle) \
    ck_assert_msg(strstr(got, needle), "no '%s' in '%s'", needle, got)

/* the channel, two objects bound through the pushbuffer */
static void bind_objects(void)
{
    gr_object(0x5039, H_M2MF);
    gr_object(0x8297, H_3D);
    push_1(0, 0, H_M2MF);
    push_1(3, 0, H_3D);
    push_submit();
}

START_TEST(test_info_channels)
{
    g_autofree char *none = NULL, *got = NULL, *pg = NULL;

    bind_objects();
    got = ask("info channels");
    ck_has(got, "engine: idle\n");
    ck_has(got, "channel 1: enabled, on the runlist, instance 0x200000");
    ck_has(got, "  subchannel 0: 0x5039 G80_M2MF");
    ck_has(got, "  subchannel 3: 0x8297 G84_3D");
    ck_has(got, "  IB at 0x");
    ck_assert_msg(!strstr(got, "\nchannel 0:"), "%s", got);
    pg = ask("info pgraph");
    ck_has(pg, "INTR          0x400100 = 0x00000000\n");
    ck_has(pg, "STATUS        0x400700 = 0x00000000\n");
    ck_has(pg, "context of channel 1: instance 0x200000");
    ck_has(pg, "  subchannel 3: 0x8297 G84_3D\n");
    none = ask("help info");
    ck_has(none, "info channels -- ");
    ck_has(none, "info pgraph -- ");
    ck_has(none, "info display -- ");
}
END_TEST

START_TEST(test_x_xp)
{
    g_autofree char *x = NULL, *xp = NULL, *xb = NULL, *xd = NULL;
    g_autofree char *xf = NULL;

    gr_wr32(VA_WORDS, 0xdeadbeef);
    gr_wr32(VA_WORDS + 4, 0x3f800000);
    nv50_vram_wr32(rig.s, VRAM_WORDS, 0x01020304);
    nv50_vram_wr32(rig.s, VRAM_WORDS + 4, 0xfffffffe);
    x = ask("x /2xw 1 0x20101000");
    ck_assert_str_eq(x, "0020101000: 0xdeadbeef 0x3f800000\n" PROMPT);
    xp = ask("xp /2xw 0x3000000");
    ck_assert_str_eq(xp, "0003000000: 0x01020304 0xfffffffe\n" PROMPT);
    xb = ask("xp /4xb 0x3000000");
    ck_assert_str_eq(xb, "0003000000: 0x04 0x03 0x02 0x01\n" PROMPT);
    xd = ask("xp /1dw 0x3000004");
    ck_assert_str_eq(xd, "0003000004: -2\n" PROMPT);
    xf = ask("x /1fw 1 0x20101004");
    ck_assert_str_eq(xf, "0020101004: 1\n" PROMPT);
    /* default /1xw; more than 16 bytes go on more lines */
    ck_cmd(mon, cfd, cfd, "xp 0x3000000\n", "0003000000: 0x01020304\n");
}
END_TEST

START_TEST(test_x_errors)
{
    g_autofree char *unmapped = NULL, *outside = NULL;

    unmapped = ask("x 1 0x7000000000");
    ck_has(unmapped, "x: channel 1's VM: ");
    outside = ask("xp 0xffffffff00");
    ck_has(outside, "is outside VRAM");
    ck_cmd(mon, cfd, cfd, "x 5 0\n", "x: channel 5 is not set up\n");
    ck_cmd(mon, cfd, cfd, "x 200 0\n",
           "'200' is neither 'vram' nor a channel (0-127)\n");
    ck_cmd(mon, cfd, cfd, "x 1 zz\n", "'zz' is not an address\n");
    ck_cmd(mon, cfd, cfd, "x /0xw 1 0\n",
           "x: '/0xw': the count must be 1-4096\n");
    ck_cmd(mon, cfd, cfd, "x /4096xg 1 0\n",
           "x: '/4096xg': at most 4096 bytes at once\n");
    ck_cmd(mon, cfd, cfd, "x /2q 1 0\n", "x: '/2q': unknown format letter "
           "'q' (formats x d u f, sizes b h w g)\n");
    ck_cmd(mon, cfd, cfd, "x /2xw 1\n", "x: usage: x [/FMT] CHANNEL ADDR\n");
    ck_cmd(mon, cfd, cfd, "xp\n", "xp: missing argument (usage: xp [/FMT] "
           "ADDR)\n");
}
END_TEST

START_TEST(test_disas)
{
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, 4);
    g_autofree char *err = NULL, *got = NULL, *want = NULL;
    g_autoptr(GString) listing = g_string_new(NULL);
    const uint32_t *w;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_FP,
                                 "add b32 $r0 $r1 $r2\nmov b32 $r3 $r4\n", words,
                                 &err), "%s", err);
    w = (const uint32_t *)words->data;
    for (guint i = 0; i < words->len; i++) {
        gr_wr32(VA_WORDS + i * 4, w[i]);
    }
    for (guint pos = 0; pos < words->len;) {
        pos += tesla_disasm_line(TESLA_G84, TESLA_PROG_FP, w, words->len,
                                 pos * 4, 0x20101000, listing);
        g_string_append_c(listing, '\n');
    }
    want = g_strconcat(listing->str, PROMPT, NULL);
    got = ask("disas /2 1 0x20101000");
    ck_assert_str_eq(got, want);
    ck_cmd(mon, cfd, cfd, "disas /0 1 0\n",
           "disas: '/0': the count must be 1-256\n");
    ck_cmd(mon, cfd, cfd, "disas 1 0 xp\n", "disas: 'xp' is not a program "
           "type (vp, gp, fp, cp (or vertex, geometry, fragment, "
           "compute))\n");
}
END_TEST

START_TEST(test_stop_cont)
{
    g_autofree char *stopped = NULL, *running = NULL;
    uint32_t get;

    bind_objects();
    ck_cmd(mon, cfd, cfd, "stop\n", "");
    ck_cmd(mon, cfd, cfd, "stop\n", "the engine is already stopped\n");
    stopped = ask("info channels");
    ck_has(stopped, "engine: stopped (monitor)\n");
    /* work submitted while stopped waits */
    get = user_rd32(NV_USER_IB_GET);
    push_1(0, 0x100, 0);        /* M2MF NOP */
    push_submit();
    ck_assert_uint_eq(user_rd32(NV_USER_IB_GET), get);
    ck_cmd(mon, cfd, cfd, "cont\n", "");
    ck_cmd(mon, cfd, cfd, "c\n", "the engine is not stopped\n");
    nv50_engine_sync(rig.s);
    ck_assert_uint_eq(user_rd32(NV_USER_IB_GET), get + 1);
    running = ask("info channels");
    ck_has(running, "engine: idle\n");
}
END_TEST

Suite *nv50_monitor_suite(void)
{
    Suite *su = suite_create("nv50_monitor");
    TCase *tc = tcase_create("commands");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_info_channels);
    tcase_add_test(tc, test_x_xp);
    tcase_add_test(tc, test_x_errors);
    tcase_add_test(tc, test_disas);
    tcase_add_test(tc, test_stop_cont);
    suite_add_tcase(su, tc);
    return su;
}
