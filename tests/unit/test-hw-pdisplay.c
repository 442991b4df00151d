/*
 * nv50 PDISPLAY: EVO DMA channels driven the way nouveau drives them
 * (display instance with a RAMHT, VRAM context DMAs, a 4 KiB pushbuffer
 * kicked through PUT), notifiers, and malformed pushbuffers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include <check.h>

#define INST        0x10000u        /* display instance in VRAM */
#define SYNC_OBJ    0x1000u         /* ctxdma object, offset in INST */
#define SYNC_VRAM   0x40000u        /* the notifier buffer */
#define PUSH(c)     (0x80000u + (c) * 0x1000u)
#define SYNC_HANDLE 0xf0000000u
#define USER(c)     (0x640000u + (c) * 0x1000u)
#define CTRL(c)     (0x610200u + (c) * 0x10u)

static GemuClock clk;

/* RAMHT slot as the hardware hashes it: 9-bit chunks ^ chid << 5 */
static uint32_t ramht_slot(uint32_t handle, int chid)
{
    uint32_t h = 0;

    for (; handle; handle >>= 9) {
        h ^= handle & 0x1ff;
    }
    return (h ^ (chid << 5)) & 0x1ff;
}

/* A card with the display instance set up and DMA channel c enabled. */
static NV50State *card(int c)
{
    NV50State *s;
    uint32_t slot = ramht_slot(SYNC_HANDLE, c);

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    ck_assert_ptr_nonnull(s);
    nv50_wr32(s, 0x610010, (INST >> 8) | 9);
    nv50_vram_wr32(s, INST + slot * 8, SYNC_HANDLE);
    nv50_vram_wr32(s, INST + slot * 8 + 4,
                   (uint32_t)c << 28 | c | SYNC_OBJ << 10);
    /* DMA object: class 0x3d, target VRAM, RW; limit, start */
    nv50_vram_wr32(s, INST + SYNC_OBJ + 0, 0x0009003d);
    nv50_vram_wr32(s, INST + SYNC_OBJ + 4, 0xfff);
    nv50_vram_wr32(s, INST + SYNC_OBJ + 8, SYNC_VRAM);
    nv50_vram_wr32(s, INST + SYNC_OBJ + 12, 0);
    /* channel init as nvkm does it */
    nv50_wr32(s, CTRL(c) + 4, (PUSH(c) >> 8) | 1);
    nv50_wr32(s, CTRL(c) + 8, 0x00010000);
    nv50_wr32(s, CTRL(c) + 12, c);
    nv50_wr32(s, CTRL(c), 0x10);
    nv50_wr32(s, USER(c), 0);
    nv50_wr32(s, CTRL(c), c ? 0x13 : 0x01000013);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x80030000, 0x00010000);
    return s;
}

/* Write dwords at the channel's current PUT and kick. */
static void push(NV50State *s, int c, const uint32_t *w, int n)
{
    uint32_t put = nv50_rd32(s, USER(c));

    for (int i = 0; i < n; i++) {
        nv50_vram_wr32(s, PUSH(c) + put + i * 4, w[i]);
    }
    nv50_wr32(s, USER(c), put + n * 4);
}

#define MTHD(m, n)  ((uint32_t)(n) << 18 | (m))

START_TEST(core_caps_and_update)
{
    NV50State *s = card(0);
    const uint32_t init[] = { MTHD(0x88, 1), SYNC_HANDLE };
    const uint32_t caps[] = {
        MTHD(0x84, 1), 0x80000000, MTHD(0x8c, 1), 0,
        MTHD(0x84, 1), 0,
    };
    const uint32_t upd[] = {
        MTHD(0x84, 1), 0x80000010, MTHD(0x80, 1), 0x200,
        MTHD(0x84, 1), 0,
    };

    push(s, 0, init, 2);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 4), 0);
    push(s, 0, caps, 6);
    ck_assert_uint_eq(nv50_rd32(s, USER(0) + 4), 8 * 4);   /* GET */
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 4) & 1, 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0), 0);
    /* UPDATE with the notifier at offset 0x10 */
    push(s, 0, upd, 6);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x10) & 1, 1);
    ck_assert_uint_eq(nv50_rd32(s, USER(0) + 4), 14 * 4);
    ck_assert_uint_eq(s->pdisp->chan[0].armed[0x80 >> 2], 0x200);
    /* no channel error */
    ck_assert_uint_eq(nv50_rd32(s, 0x610020) & 0x001f0000, 0);
    nv50_free(s);
}
END_TEST

START_TEST(base_update_begun)
{
    NV50State *s = card(1);
    const uint32_t w[] = {
        MTHD(0xa0, 2), 0x20, SYNC_HANDLE,       /* control, ctxdma */
        MTHD(0x80, 1), 1,
    };

    push(s, 1, w, 5);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x20) >> 30, 1);
    nv50_free(s);
}
END_TEST

START_TEST(jump_and_non_increment)
{
    NV50State *s = card(0);
    /* jump to 0x100, then a non-incrementing method written twice */
    const uint32_t b[] = { 0x40000000 | MTHD(0x808, 2), 7, 9 };

    /* both written before the kick, as DRM winds: JUMP then PUT */
    nv50_vram_wr32(s, PUSH(0), 0x20000100);
    for (int i = 0; i < 3; i++) {
        nv50_vram_wr32(s, PUSH(0) + 0x100 + i * 4, b[i]);
    }
    nv50_wr32(s, USER(0), 0x10c);
    ck_assert_uint_eq(nv50_rd32(s, USER(0) + 4), 0x10c);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x808 >> 2], 9);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x80c >> 2], 0);
    nv50_free(s);
}
END_TEST

/* Each malformed stream stops the channel with an error state. */
static void check_error(const uint32_t *w, int n, uint32_t type,
                        uint32_t get)
{
    NV50State *s = card(0);
    const uint32_t later[] = { MTHD(0x8a0, 1), 0x12345678 };

    push(s, 0, w, n);
    ck_assert_uint_eq(nv50_rd32(s, 0x610020) & 0x001f0000, 0x00010000);
    ck_assert_uint_eq((nv50_rd32(s, 0x610080) >> 12) & 7, type);
    /* GET stays at the offending header */
    ck_assert_uint_eq(nv50_rd32(s, USER(0) + 4), get);
    /* stalled: further kicks are not executed */
    push(s, 0, later, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a0 >> 2], 0);
    /* the error interrupt reaches PMC once enabled */
    nv50_wr32(s, 0x610028, 0x00010000);
    ck_assert_uint_ne(nv50_rd32(s, NV_PMC_INTR_HOST) & NV50_INTR_PDISPLAY,
                      0);
    nv50_wr32(s, 0x610020, 0x00010000);
    ck_assert_uint_eq(nv50_rd32(s, NV_PMC_INTR_HOST) & NV50_INTR_PDISPLAY,
                      0);
    nv50_free(s);
}

START_TEST(bad_opcode)
{
    const uint32_t w[] = { 0x80000000 | MTHD(0x84, 1), 0 };

    check_error(w, 2, 1, 0);
}
END_TEST

START_TEST(jump_out_of_range)
{
    const uint32_t w[] = { 0x20001000 };

    check_error(w, 1, 1, 0);
}
END_TEST

START_TEST(count_past_end)
{
    /* a NOP header, then 1023 data words that cannot fit */
    const uint32_t w[] = { 0, MTHD(0x100, 0x3ff), 0 };

    check_error(w, 3, 1, 4);
}
END_TEST

START_TEST(unknown_notifier_handle)
{
    const uint32_t w[] = {
        MTHD(0x88, 1), 0xdead0001, MTHD(0x84, 1), 0x80000000,
        MTHD(0x80, 1), 0,
    };

    check_error(w, 6, 7, 16);
}
END_TEST

START_TEST(dac_load_detect)
{
    NV50State *s = card(0);
    uint32_t v;

    nv50_wr32(s, 0x61a00c, 0x00100000 | 340);
    v = nv50_rd32(s, 0x61a00c);
    ck_assert(v & 0x80000000);
    ck_assert_uint_ne((v >> 27) & 7, 0);        /* nvkm: connected */
    nv50_wr32(s, 0x61a00c, 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x61a00c), 0);
    nv50_free(s);
}
END_TEST

Suite *hw_pdisplay_suite(void)
{
    Suite *su = suite_create("hw-pdisplay");
    TCase *tc = tcase_create("evo");

    tcase_add_test(tc, core_caps_and_update);
    tcase_add_test(tc, base_update_begun);
    tcase_add_test(tc, jump_and_non_increment);
    tcase_add_test(tc, bad_opcode);
    tcase_add_test(tc, jump_out_of_range);
    tcase_add_test(tc, count_past_end);
    tcase_add_test(tc, unknown_notifier_handle);
    tcase_add_test(tc, dac_load_detect);
    suite_add_tcase(su, tc);
    return su;
}
