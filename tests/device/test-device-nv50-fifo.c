/*
 * PFIFO driven in-process the way nvkm and nouveau drive it: a G84
 * GPFIFO channel (tests/device/nv50-gr-rig.h), IB entries kicked through
 * USER+0x8c, the puller's methods, and the errors the hardware reports.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/pfifo.h"

#define USER_REF        0x48
#define USER_GET        0x44
#define USER_IB_GET     0x88
#define SEM_VA          (GR_VA_DATA + 0x1000)

static void setup(void)
{
    gr_rig_init();
}

static void teardown(void)
{
    gr_rig_teardown();
}

static void push_ref(uint32_t v)
{
    push_1(0, 0x50, v);                     /* REF_CNT */
}

/* G84 semaphores through the VM ctxdma (nv84_fence.c's sequence) */
static void push_sem(uint64_t va, uint32_t seq, uint32_t op)
{
    uint32_t d[4] = { (uint32_t)(va >> 32), (uint32_t)va, seq, op };

    push_1(0, 0x60, GR_H_VM);               /* SET_CONTEXT_DMA_SEMAPHORE */
    push_mthd(0, 0x10, d, 4);               /* SEMAPHOREA..D */
}

START_TEST(reference_and_get)
{
    push_ref(0x1234);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 0x1234);
    ck_assert_uint_eq(user_rd32(USER_IB_GET), 1);
    ck_assert_uint_eq(user_rd32(USER_GET), (uint32_t)GR_VA_PUSH + 8);
    ck_assert_uint_eq(rd32(0x002100) & 0x1001, 0);
}
END_TEST

/* A command split anywhere across IB entries and kicks. */
START_TEST(command_split_across_ib_entries)
{
    push_word(1 << 18 | 0x50);              /* header alone ... */
    push_ib();
    push_word(0xabcd);                      /* ... its data next entry */
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 0xabcd);
    /* a non-incrementing run: the last word wins */
    push_word(0x40000000 | 3 << 18 | 0x50);
    push_word(1);
    push_submit();
    push_word(2);
    push_ib();
    push_word(3);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 3);
    /* the long non-incrementing form: the count in the next word */
    push_word(0x00030000 | 0x50);
    push_word(2);
    push_word(7);
    push_word(8);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 8);
    /* empty headers (nouveau's SKIPS) are harmless */
    push_word(0);
    push_word(0);
    push_ref(9);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 9);
}
END_TEST

START_TEST(semaphore_release_long)
{
    push_sem(SEM_VA, 0x42, 2);
    push_1(0, 0x20, 0);                     /* NON_STALLED_INTERRUPT */
    push_submit();
    ck_assert_uint_eq(gr_rd32(SEM_VA), 0x42);
    ck_assert_uint_eq(gr_rd32(SEM_VA + 4), 0);
    /* bit 30 is pending; it reaches PMC only when enabled (g84.c) */
    ck_assert_uint_eq(rd32(0x002100) & 0x40000000u, 0x40000000u);
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PFIFO, 0);
    wr32(0x002140, 0xffffffff);
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PFIFO,
                      NV50_INTR_PFIFO);
    wr32(0x002100, 0x40000000);
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PFIFO, 0);
}
END_TEST

/* An acquire parks the channel until the CPU writes the semaphore. */
START_TEST(semaphore_acquire_parks)
{
    gr_wr32(SEM_VA, 1);
    push_sem(SEM_VA, 5, 4);                 /* ACQ_GEQ 5 */
    push_ref(0x77);
    push_submit();
    ck_assert_uint_ne(user_rd32(USER_REF), 0x77);
    gr_wr32(SEM_VA, 4);
    wr32(0xc00000 + GR_CHID * 0x2000 + 0x8c, gr.ch.ib_put);  /* a kick */
    nv50_engine_sync(rig.s);
    ck_assert_uint_ne(user_rd32(USER_REF), 0x77);
    gr_wr32(SEM_VA, 6);
    /* no kick: the parked acquire is re-checked on the engine's timer */
    for (int i = 0; i < 2000 && user_rd32(USER_REF) != 0x77; i++) {
        g_usleep(1000);
    }
    ck_assert_uint_eq(user_rd32(USER_REF), 0x77);
}
END_TEST

/* The G80 style: ctxdma semaphore, offset, acquire ==, release. */
START_TEST(semaphore_g80_style)
{
    push_1(0, 0x60, GR_H_VRAM);
    push_1(0, 0x64, 0x100);
    push_1(0, 0x6c, 0xfeed);                /* release */
    push_1(0, 0x68, 0xfeed);                /* acquire == (satisfied) */
    push_ref(1);
    push_submit();
    ck_assert_uint_eq(nv50_vram_rd32(rig.s, 0x100), 0xfeed);
    ck_assert_uint_eq(user_rd32(USER_REF), 1);
}
END_TEST

/*
 * Two channels: one waits on a semaphore the other releases.  Their VRAM
 * windows differ; the semaphore is in guest RAM, which both map.
 */
START_TEST(semaphore_between_channels)
{
    NV50HostChanConfig cfg = gr.ch.cfg;
    uint64_t sem = GR_VA_GART + 0x100;
    uint32_t d[4] = { (uint32_t)(sem >> 32), (uint32_t)sem, 3, 2 };
    g_autofree char *err = NULL;
    NV50HostChan ch2;

    cfg.chid = 2;
    cfg.inst = 0x400000;
    cfg.vram_base = 0x5000000;
    ck_assert_msg(nv50_hostchan_init(&ch2, rig.s, &cfg, &err), "%s", err);

    push_sem(sem, 3, 1);                    /* channel 1: acquire == 3 */
    push_ref(0x11);
    push_submit();
    ck_assert_uint_ne(user_rd32(USER_REF), 0x11);

    /* channel 2: SET_CONTEXT_DMA_SEMAPHORE, SEMAPHOREA-D release 3 */
    nv50_hostchan_mthd(&ch2, 0, 0x60, (uint32_t[]){ GR_H_VM }, 1);
    nv50_hostchan_mthd(&ch2, 0, 0x10, d, 4);
    nv50_hostchan_submit(&ch2);
    for (int i = 0; i < 2000 && user_rd32(USER_REF) != 0x11; i++) {
        g_usleep(1000);
    }
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x100, 4), 3);
    ck_assert_uint_eq(user_rd32(USER_REF), 0x11);
}
END_TEST

/* A method the puller does not know: DMA_PUSHER INVALID_MTHD. */
START_TEST(invalid_method_dma_pusher)
{
    g_autofree char *log = NULL;

    push_1(0, 0x44, 1);
    push_ref(2);
    push_submit();
    ck_assert_uint_eq(rd32(0x002100) & 0x1000, 0x1000);
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PFIFO,
                      NV50_INTR_PFIFO);
    ck_assert_uint_eq(rd32(0x003204), GR_CHID);
    ck_assert_uint_eq(rd32(0x003228) >> 29, 2);     /* INVALID_MTHD */
    ck_assert_uint_ne(user_rd32(USER_REF), 2);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "DMA_PUSHER ch 1"));
    /* nvkm's handler: skip what is left, re-enable, acknowledge */
    wr32(0x003364, 0);
    wr32(0x003244, rd32(0x003240));
    wr32(0x003328, rd32(0x003320));
    wr32(0x003228, 0);
    wr32(0x003220, 1);
    wr32(0x002100, 0x1000);
    nv50_engine_sync(rig.s);
    push_ref(3);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 3);
}
END_TEST

START_TEST(ib_empty_and_bad_command)
{
    /* a zero-length IB entry */
    gr_wr32(GR_VA_IB, (uint32_t)GR_VA_PUSH);
    gr_wr32(GR_VA_IB + 4, 0);
    gr.ib_put = 1;
    push_kick();
    ck_assert_uint_eq(rd32(0x003228) >> 29, 5);     /* IB_EMPTY */
    wr32(0x003334, rd32(0x003330));
    wr32(0x002100, 0x1000);
    nv50_engine_sync(rig.s);
    /* a jump is not a command in IB mode */
    push_word(0x00000001);
    push_submit();
    ck_assert_uint_eq(rd32(0x003228) >> 29, 4);     /* INVALID_CMD */
}
END_TEST

/* Unmapped pushbuffer: MEM_FAULT and PFB's VM trap; gemu goes on. */
START_TEST(pushbuffer_fault)
{
    uint64_t va = 0x7000000000ull;

    gr_wr32(GR_VA_IB, (uint32_t)va);
    gr_wr32(GR_VA_IB + 4, (uint32_t)(va >> 32) | 4 << 10);
    gr.ib_put = 1;
    push_kick();
    ck_assert_uint_eq(rd32(0x003228) >> 29, 6);     /* MEM_FAULT */
    ck_assert_uint_eq(rd32(0x100c90) & 0x80000000u, 0x80000000u);
    wr32(0x100c90, 0);
    ck_assert_uint_eq(rd32(0x100c94) & 0xf, NV50_VM_ENGINE_PFIFO);
}
END_TEST

/* Handles: a miss is CACHE_ERROR; collisions are probed past. */
START_TEST(ramht_miss_and_collisions)
{
    uint32_t h1 = 0x1, h2 = 1u << GR_RAMHT_BITS;   /* the same hash */
    g_autofree char *log = NULL;

    ck_assert_uint_eq(nv50_ramht_hash(GR_RAMHT_BITS, 0, h1),
                      nv50_ramht_hash(GR_RAMHT_BITS, 0, h2));
    gr_ramht_insert(h1, GR_DMA_VRAM);
    gr_ramht_insert(h2, GR_DMA_VM);
    /* both resolve: the second through the collision */
    push_1(0, 0x60, h2);
    push_sem(SEM_VA, 0x99, 2);
    push_submit();
    ck_assert_uint_eq(gr_rd32(SEM_VA), 0x99);
    push_1(0, 0x60, 0xdeadbeef);
    push_submit();
    ck_assert_uint_eq(rd32(0x002100) & 1, 1);       /* CACHE_ERROR */
    ck_assert_uint_eq(rd32(0x090000), 0x60);
    ck_assert_uint_eq(rd32(0x090004), 0xdeadbeef);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "CACHE_ERROR ch 1"));
    wr32(0x002100, 1);
    wr32(0x003250, 1);                  /* CACHE1_PULL0: the puller on */
    nv50_engine_sync(rig.s);
    push_ref(5);
    push_submit();
    ck_assert_uint_eq(user_rd32(USER_REF), 5);
}
END_TEST

/*
 * Two CACHE_ERRORs in a row, handled as nv04_fifo_cache_error does: the
 * slot at CACHE1_GET holds each failing method, and the puller stays
 * stopped from the acknowledge until CACHE1_PULL0 is set again (the
 * handler moves CACHE1_GET in between; the hostile guest's garbage,
 * tests/guest/hostile.sh, had nouveau print empty slots before).
 */
START_TEST(cache_error_waits_for_pull0)
{
    push_1(0, 0x60, 0xdead0001);
    push_1(0, 0x60, 0xdead0002);
    push_ref(7);
    push_submit();
    for (uint32_t i = 1; i <= 2; i++) {
        uint32_t get = rd32(0x003270), ptr = (get & 0x7ff) >> 2;

        ck_assert_uint_eq(rd32(0x002100) & 1, 1);
        ck_assert_uint_eq(rd32(0x003250) & 1, 0);
        ck_assert_uint_eq(rd32(NV_PFIFO_CACHE1_METHOD(ptr)), 0x60);
        ck_assert_uint_eq(rd32(NV_PFIFO_CACHE1_DATA(ptr)), 0xdead0000 + i);
        wr32(0x003220, 0);
        wr32(0x002100, 1);
        nv50_engine_sync(rig.s);
        ck_assert_uint_eq(rd32(0x002100) & 1, 0);
        wr32(0x003270, get + 4);
        wr32(0x003220, 1);              /* CACHE1_DMA_PUSH */
        wr32(0x003250, 1);
        nv50_engine_sync(rig.s);
    }
    ck_assert_uint_eq(rd32(0x002100) & 1, 0);
    ck_assert_uint_eq(user_rd32(USER_REF), 7);
}
END_TEST

/* A bad class bound to a subchannel: PGRAPH ILLEGAL_CLASS, no crash. */
START_TEST(bad_class)
{
    gr_object(0x1234, 0xc1a55);
    push_1(1, 0, 0xc1a55);
    push_1(1, 0x100, 0);
    push_submit();
    ck_assert_uint_eq(rd32(0x400100) & 0x20, 0x20);
    ck_assert_uint_eq(rd32(0x400814), 0x1234);
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PGRAPH,
                      NV50_INTR_PGRAPH);
}
END_TEST

/* Channel torn down and set up again: it starts from its RAMFC. */
START_TEST(teardown_and_unload)
{
    push_ref(1);
    push_submit();
    wr32(0x002600 + GR_CHID * 4, rd32(0x002600 + GR_CHID * 4) &
         ~0x80000000u);
    wr32(0x0032fc, (uint32_t)(GR_INST >> 12));
    nv50_engine_sync(rig.s);        /* the unload completes between slices */
    ck_assert_uint_ne(rd32(0x0032fc), 0xffffffff);
    wr32(0x002600 + GR_CHID * 4, 0);
    ck_assert_uint_eq(user_rd32(USER_REF), 0);
}
END_TEST

/*
 * A DMA-mode channel (no IB: RAMFC 0x54 gives 0 entries; GET from RAMFC
 * 0x10), kicked through USER+0x40 DMA_PUT: jumps, a call and its
 * return, PUT behind a jump (the ring wrapped), and a call inside a
 * subroutine (CALL_SUBR_ACTIVE).  (The old jump form reaches only the
 * first 512 MiB of VA, where the rig maps nothing.)
 */
START_TEST(dma_mode_jumps)
{
    NV50HostChanConfig cfg = gr.ch.cfg;
    g_autofree char *err = NULL;
    uint32_t ring, user = 0xc00000 + 3 * 0x2000;
    uint64_t vram;
    NV50HostChan c;

    cfg.chid = 3;
    cfg.inst = 0x400000;
    cfg.vram_base = 0x5000000;
    ck_assert_msg(nv50_hostchan_init(&c, rig.s, &cfg, &err), "%s", err);
    ring = (uint32_t)cfg.va_base + 0x1000;
    vram = nv50_hostchan_va_to_vram(&c, ring);
    nv50_vram_wr32(rig.s, c.ramfc + 0x54, 0);
    nv50_vram_wr32(rig.s, c.ramfc + 0x10, ring);
    /* set the channel up again: it reads its RAMFC anew */
    wr32(0x002600 + 3 * 4, 0);
    wr32(0x002600 + 3 * 4, 0x80000000u | (uint32_t)(c.ramfc >> 8));
#define W(off, v) nv50_vram_wr32(rig.s, vram + (off), (v))
    W(0x000, 1 << 18 | 0x50);               /* REF 1, jump to +0x100 */
    W(0x004, 1);
    W(0x008, (ring + 0x100) | 1);
    W(0x100, (ring + 0x200) | 2);           /* call +0x200 */
    W(0x104, 1 << 18 | 0x50);               /* REF 3, jump to +0x300 */
    W(0x108, 3);
    W(0x10c, (ring + 0x300) | 1);
    W(0x200, 1 << 18 | 0x50);               /* the subroutine: REF 2 */
    W(0x204, 2);
    W(0x208, 0x00020000);                   /* return */
    W(0x300, 1 << 18 | 0x50);               /* REF 4, back to +0x10 */
    W(0x304, 4);
    W(0x308, (ring + 0x10) | 1);
    W(0x010, 1 << 18 | 0x50);               /* REF 5 */
    W(0x014, 5);
    /* PUT after REF 5: behind every jump on the way */
    wr32(user + 0x40, ring + 0x18);
    nv50_engine_sync(rig.s);
    ck_assert_uint_eq(rd32(user + 0x48), 5);
    ck_assert_uint_eq(rd32(user + 0x44), ring + 0x18);
    ck_assert_uint_eq(rd32(0x002100) & 0x1000, 0);
    /* a call from inside a subroutine */
    W(0x018, (ring + 0x400) | 2);
    W(0x400, (ring + 0x500) | 2);
#undef W
    wr32(user + 0x40, ring + 0x1c);
    nv50_engine_sync(rig.s);
    ck_assert_uint_eq(rd32(0x002100) & 0x1000, 0x1000);
    ck_assert_uint_eq(rd32(0x003228) >> 29, 1);     /* CALL_SUBR_ACTIVE */
    ck_assert_uint_eq(rd32(0x003204), 3);
}
END_TEST

/* IB entry @i by hand: @words words at @va */
static void ib_entry(uint32_t i, uint64_t va, uint32_t words)
{
    gr_wr32(GR_VA_IB + i * 8, (uint32_t)va);
    gr_wr32(GR_VA_IB + i * 8 + 4, (uint32_t)(va >> 32) | words << 10);
}

/*
 * Bus mastering off (PCI_COMMAND bit 2 clear, as pci_disable_device
 * leaves it): a pushbuffer in guest RAM is not fetched -- DMA_PUSHER
 * MEM_FAULT, nothing of it runs, PCI_STATUS says Received Master Abort
 * (also through PPCI, where nvkm reads config space), the card answers.
 * With the bit set again and the error acknowledged as nvkm does, the
 * same pushbuffer runs, its semaphore lands in guest RAM.
 */
START_TEST(bus_master_off_refuses_guest_ram)
{
    uint64_t sem = GR_VA_GART + 0x100;
    const uint32_t words[] = {
        1 << 18 | 0x50, 0x55,                           /* REF_CNT */
        1 << 18 | 0x60, GR_H_VM,                        /* ctxdma */
        4 << 18 | 0x10, (uint32_t)(sem >> 32), (uint32_t)sem, 0x66, 2,
    };
    uint32_t n = ARRAY_SIZE(words);
    g_autofree char *log = NULL;

    for (uint32_t i = 0; i < n; i++) {
        stn_le_p(rig.sysmem + 0x2000 + i * 4, 4, words[i]);
    }
    pci_config_write(rig.pci, PCI_COMMAND, PCI_COMMAND_MEMORY, 2);
    ib_entry(0, GR_VA_GART + 0x2000, n);
    gr.ib_put = 1;
    push_kick();
    ck_assert_uint_eq(rd32(0x002100) & NV_PFIFO_INTR_DMA_PUSHER,
                      NV_PFIFO_INTR_DMA_PUSHER);
    ck_assert_uint_eq(rd32(0x003228) >> 29, NV_PUSHER_MEM_FAULT);
    ck_assert_uint_ne(user_rd32(USER_REF), 0x55);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x100, 4), 0);
    ck_assert_uint_eq(pci_config_read(rig.pci, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    ck_assert_uint_eq(rd32(NV_PPCI_BASE + PCI_COMMAND) >> 16 &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    ck_assert_uint_eq(rd32(NV_PMC_ID), 0x084000a2);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "bus mastering is off"));

    /* status write-1-to-clear, bus mastering on, nvkm's acknowledgement */
    pci_config_write(rig.pci, PCI_STATUS, PCI_STATUS_REC_MASTER_ABORT, 2);
    ck_assert_uint_eq(pci_config_read(rig.pci, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT, 0);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    wr32(NV_PFIFO_METHOD_COUNT, 0);
    wr32(NV_PFIFO_CACHE1_DMA_GET, rd32(NV_PFIFO_CACHE1_DMA_PUT));
    wr32(NV_PFIFO_DMA_GET_HIGH, rd32(NV_PFIFO_DMA_PUT_HIGH));
    wr32(0x003228, 0);
    wr32(0x003220, 1);
    wr32(0x002100, NV_PFIFO_INTR_DMA_PUSHER);
    nv50_engine_sync(rig.s);
    ib_entry(1, GR_VA_GART + 0x2000, n);
    gr.ib_put = 2;
    push_kick();
    ck_assert_uint_eq(rd32(0x002100) & NV_PFIFO_INTR_DMA_PUSHER, 0);
    ck_assert_uint_eq(user_rd32(USER_REF), 0x55);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x100, 4), 0x66);
    ck_assert_uint_eq(pci_config_read(rig.pci, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT, 0);
}
END_TEST

Suite *nv50_fifo_suite(void)
{
    Suite *s = suite_create("nv50-fifo");
    TCase *tc = tcase_create("channels");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reference_and_get);
    tcase_add_test(tc, command_split_across_ib_entries);
    tcase_add_test(tc, semaphore_release_long);
    tcase_add_test(tc, semaphore_acquire_parks);
    tcase_add_test(tc, semaphore_g80_style);
    tcase_add_test(tc, semaphore_between_channels);
    tcase_add_test(tc, invalid_method_dma_pusher);
    tcase_add_test(tc, ib_empty_and_bad_command);
    tcase_add_test(tc, pushbuffer_fault);
    tcase_add_test(tc, ramht_miss_and_collisions);
    tcase_add_test(tc, cache_error_waits_for_pull0);
    tcase_add_test(tc, bad_class);
    tcase_add_test(tc, teardown_and_unload);
    tcase_add_test(tc, dma_mode_jumps);
    tcase_add_test(tc, bus_master_off_refuses_guest_ram);
    suite_add_tcase(s, tc);
    return s;
}
