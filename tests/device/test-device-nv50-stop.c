/*
 * A guest cannot hang gemu through the engine: a compute program that
 * never ends keeps the engine thread busy, but the MMIO side still
 * answers, a context unload (0x32fc) reports busy instead of blocking,
 * a PGRAPH reset or the channel's teardown abandons the launch, and a
 * screendump or freeing the card does not wait for ever
 * (docs/devel/threading.md, "Pausing the engine").
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "target/tesla.h"

#define SUBC            2
#define H_CP            0xbeef50c0u
#define VA_CODE         (GR_VA_DATA + 0x10000)

static void setup(void)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    gr_rig_init();
    gr_object(0x50c0, H_CP);
    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                                 "forever: bra forever\n", w, &err),
                  "%s", err ? err : "");
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(VA_CODE + i * 4, g_array_index(w, uint32_t, i));
    }
}

static void teardown(void)
{
    gr_rig_teardown();
}

/* Launch one block of one warp of the endless program; no wait. */
static void launch_forever(void)
{
    push_1(SUBC, 0x0000, H_CP);
    push_1(SUBC, 0x01c0, GR_H_VM);          /* DMA_CODE_CB */
    push_1(SUBC, 0x0210, 0);                /* CP_ADDRESS_HIGH/LOW */
    push_1(SUBC, 0x0214, (uint32_t)VA_CODE);
    push_1(SUBC, 0x02c0, 4);                /* CP_REG_ALLOC_TEMP */
    push_1(SUBC, 0x03a8, 0x40);             /* SHARED_SIZE */
    push_1(SUBC, 0x03ac, 1 << 16 | 32);     /* BLOCKDIM_XY */
    push_1(SUBC, 0x03b0, 1);                /* BLOCKDIM_Z */
    push_1(SUBC, 0x03a4, 1 << 16 | 1);      /* GRIDDIM */
    push_1(SUBC, 0x0368, 0);                /* LAUNCH */
    push_1(0, 0x50, 0x1234);                /* REF after it */
    push_ib();
    wr32(0xc00000 + GR_CHID * 0x2000 + 0x8c, gr.ib_put);
    /* until the launch runs: PGRAPH says busy */
    for (int i = 0; i < 5000 && !(rd32(0x400700) & 1); i++) {
        g_usleep(1000);
    }
    ck_assert_uint_eq(rd32(0x400700) & 1, 1);
}

START_TEST(unload_does_not_block)
{
    launch_forever();
    wr32(0x0032fc, (uint32_t)(GR_INST >> 12));
    /* the write returned; the unload waits for the launch, reads busy */
    ck_assert_uint_eq(rd32(0x0032fc), 0xffffffff);
    ck_assert_uint_eq(rd32(0x000000), NV50_G84_BOOT0);
    /* a PGRAPH reset (nvkm's PMC_ENABLE toggle) abandons the launch */
    wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) & ~NV50_INTR_PGRAPH);
    wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) | NV50_INTR_PGRAPH);
    nv50_engine_sync(rig.s);
    ck_assert_uint_ne(rd32(0x0032fc), 0xffffffff);
    ck_assert_uint_eq(rd32(0x400700) & 1, 0);
    {
        g_autofree char *log = rig_log();

        ck_assert_ptr_nonnull(strstr(log, "abandoned"));
    }
}
END_TEST

START_TEST(teardown_abandons_launch)
{
    launch_forever();
    /* nvkm's channel fini and destruction */
    wr32(0x002600 + GR_CHID * 4, rd32(0x002600 + GR_CHID * 4) &
         ~0x80000000u);
    wr32(0x002600 + GR_CHID * 4, 0);
    nv50_engine_sync(rig.s);
    ck_assert_uint_eq(rd32(0x400700) & 1, 0);
    ck_assert_uint_eq(user_rd32(0x48), 0);
}
END_TEST

/* A screendump waits a while for the engines, then goes on; so does exit. */
START_TEST(screendump_and_exit_do_not_hang)
{
    g_autofree char *err = NULL;
    g_autofree char *log = NULL;

    launch_forever();
    /* no mode is set: it fails, but only after giving the engine a chance */
    ck_assert(!nv50_screendump(rig.s, 0, "/dev/null", &err));
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "still busy"));
    /* the fixture's teardown frees the card with the launch running */
}
END_TEST

Suite *nv50_stop_suite(void)
{
    Suite *s = suite_create("nv50-stop");
    TCase *tc = tcase_create("engine");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unload_does_not_block);
    tcase_add_test(tc, teardown_abandons_launch);
    tcase_add_test(tc, screendump_and_exit_do_not_hang);
    suite_add_tcase(s, tc);
    return s;
}
