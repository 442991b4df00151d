/*
 * nv50 PDISPLAY and its EVO channels driven the way nouveau 6.1 drives
 * them (display instance with a RAMHT, VRAM context DMAs, a 4 KiB
 * pushbuffer kicked through PUT): notifiers, interlocked UPDATEs, the
 * supervisor handshake, malformed pushbuffers and their recovery, vblank
 * interrupts and the scanout position on a virtual clock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "nv50-ramht.h"
#include <check.h>

#define INST        NV50_TEST_DISP_INST
#define SYNC_VRAM   0x40000u        /* the notifier buffer */
#define PUSH(c)     (0x80000u + (c) * 0x1000u)
#define SYNC_HANDLE 0xf0000000u
#define USER(c)     (0x640000u + (c) * 0x1000u)
#define CTRL(c)     (0x610200u + (c) * 0x10u)
#define INTR0       0x610020u
#define INTR1       0x610024u
#define INTR0_EN    0x610028u
#define INTR1_EN    0x61002cu
#define SUPER       0x610030u
#define ERR_ADDR(c) (0x610080u + (c) * 8)
#define ERR_DATA(c) (0x610084u + (c) * 8)

#define MTHD(m, n)  ((uint32_t)(n) << 18 | (m))
#define NONINC(m, n) (0x40000000u | MTHD(m, n))
#define JUMP(o)     (0x20000000u | (o))

static GemuClock clk;
static FILE *log_file;

/* nv50_disp_dmac_init / nv50_disp_core_init */
static void dmac_init(NV50State *s, int c)
{
    /* nv50_disp_chan_intr(chan, true): the error bit, not awaken */
    nv50_wr32(s, INTR0_EN, (nv50_rd32(s, INTR0_EN) &
                            ~(0x00010001u << c)) | 0x00010000u << c);
    nv50_wr32(s, CTRL(c) + 4, (PUSH(c) >> 8) | 1);
    nv50_wr32(s, CTRL(c) + 8, 0x00010000);
    nv50_wr32(s, CTRL(c) + 12, c);
    nv50_wr32(s, CTRL(c), nv50_rd32(s, CTRL(c)) | 0x10);
    nv50_wr32(s, USER(c), 0);
    nv50_wr32(s, CTRL(c), c ? 0x13 : 0x01000013);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x80000000, 0);
}

/* nv50_disp_dmac_fini: then nvkm keeps PUT for the next init */
static void dmac_fini(NV50State *s, int c)
{
    nv50_wr32(s, CTRL(c), (nv50_rd32(s, CTRL(c)) & ~0x1010u) | 0x1000);
    nv50_wr32(s, CTRL(c), nv50_rd32(s, CTRL(c)) & ~3u);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x001e0000, 0);
}

/* A card with nvkm's display init done (no channel yet). */
static NV50State *card(void)
{
    NV50State *s;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    ck_assert_ptr_nonnull(s);
    nv50_wr32(s, 0x610184, nv50_rd32(s, 0x614004));
    nv50_wr32(s, 0x610010, (INST >> 8) | 9);
    nv50_wr32(s, INTR1_EN, 0x370);
    nv50_wr32(s, INTR0_EN, 0);
    nv50_wr32(s, NV_PMC_INTR_EN_HOST, 1);
    return s;
}

/* A card with DMA channel c enabled and the sync ctxdma bound to it. */
static NV50State *card_chan(int c)
{
    NV50State *s = card();

    bind(s, c, SYNC_HANDLE, 0x1000 + c * 0x20, SYNC_VRAM, 0x1000);
    dmac_init(s, c);
    return s;
}

static void card_free(NV50State *s)
{
    nv50_free(s);
    gemu_clock_destroy(&clk);
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

static uint32_t get(NV50State *s, int c)
{
    return nv50_rd32(s, USER(c) + 4);
}

static bool pmc_pending(NV50State *s)
{
    return nv50_rd32(s, NV_PMC_INTR_HOST) & NV50_INTR_PDISPLAY;
}

static void log_setup(void)
{
    log_file = tmpfile();
    gemu_log_set_file(log_file);
    gemu_loglevel = LOG_GUEST_ERROR;
}

static void log_teardown(void)
{
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    fclose(log_file);
}

static char *log_text(void)
{
    long n;
    char *buf;

    fflush(log_file);
    n = ftell(log_file);
    buf = g_malloc0(n + 1);
    rewind(log_file);
    ck_assert_int_eq(fread(buf, 1, n, log_file), n);
    fseek(log_file, 0, SEEK_END);
    return buf;
}

START_TEST(core_caps_and_update)
{
    NV50State *s = card_chan(0);
    const uint32_t init[] = { MTHD(0x88, 1), SYNC_HANDLE };
    /* core507d_read_caps */
    const uint32_t caps[] = {
        MTHD(0x84, 1), 0x80000000, MTHD(0x8c, 1), 0,
        MTHD(0x84, 1), 0,
    };
    /* core507d_update with ntfy, no interlock, nothing to modeset */
    const uint32_t upd[] = {
        MTHD(0x84, 1), 0x80000010, MTHD(0x80, 1), 0,
        MTHD(0x84, 1), 0,
    };

    push(s, 0, init, 2);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 4), 0);
    push(s, 0, caps, 6);
    ck_assert_uint_eq(get(s, 0), 8 * 4);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 4), 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0), 0);
    /* UPDATE with the notifier at offset 0x10: done at once */
    push(s, 0, upd, 6);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x10), 1);
    ck_assert_uint_eq(get(s, 0), 14 * 4);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(nv50_rd32(s, INTR1) & 0x70, 0);
    /* the notifier control is in the state registers (0x610bb8, +4) */
    ck_assert_uint_eq(nv50_rd32(s, 0x610bb8), 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x610bbc), 0x80000010);
    ck_assert_uint_eq(nv50_rd32(s, INTR0) & 0x001f0000, 0);
    card_free(s);
}
END_TEST

START_TEST(jump_and_non_increment)
{
    NV50State *s = card_chan(0);
    const uint32_t b[] = { NONINC(0x8a0, 2), 7, 9 };

    /* a JUMP to 0x100 and what it leads to, then the kick */
    nv50_vram_wr32(s, PUSH(0), JUMP(0x100));
    for (int i = 0; i < 3; i++) {
        nv50_vram_wr32(s, PUSH(0) + 0x100 + i * 4, b[i]);
    }
    nv50_wr32(s, USER(0), 0x10c);
    ck_assert_uint_eq(get(s, 0), 0x10c);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a0 >> 2], 9);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a4 >> 2], 0);
    /* a subdevice mask is accepted and does nothing */
    nv50_vram_wr32(s, PUSH(0) + 0x10c, 0x60000001);
    nv50_wr32(s, USER(0), 0x110);
    ck_assert_uint_eq(get(s, 0), 0x110);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0);
    card_free(s);
}
END_TEST

/* PUT may stop in the middle of a method's data: the rest comes later. */
START_TEST(put_inside_method_data)
{
    NV50State *s = card_chan(0);

    nv50_vram_wr32(s, PUSH(0), MTHD(0x8a0, 3));
    nv50_vram_wr32(s, PUSH(0) + 4, 0x11);
    nv50_wr32(s, USER(0), 8);
    ck_assert_uint_eq(get(s, 0), 8);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a0 >> 2], 0x11);
    nv50_vram_wr32(s, PUSH(0) + 8, 0x22);
    nv50_vram_wr32(s, PUSH(0) + 12, 0x33);
    nv50_wr32(s, USER(0), 16);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a4 >> 2], 0x22);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a8 >> 2], 0x33);
    /* a disabled channel does not fetch; nvkm's init resumes at PUT */
    dmac_fini(s, 0);
    push(s, 0, (const uint32_t[]){ MTHD(0x8ac, 1), 0x44 }, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8ac >> 2], 0);
    nv50_wr32(s, CTRL(0), 0x01000013);
    ck_assert_uint_eq(get(s, 0), 24);
    push(s, 0, (const uint32_t[]){ MTHD(0x8ac, 1), 0x55 }, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8ac >> 2], 0x55);
    card_free(s);
}
END_TEST

/*
 * Each malformed stream stops the channel in an error state like the
 * hardware's (nv50_disp_intr_error reads it), logged; nvkm's handling
 * (ack INTR0, 0x610080 = 0x90000000) lets it go on after the bad word.
 */
typedef struct BadStream {
    const char *name;
    uint32_t w[4];
    int n;
    uint32_t type, mthd, data, get;
    const char *log;
} BadStream;

static const BadStream bad_streams[] = {
    { "bad opcode", { 0x80000000 | MTHD(0x84, 1), 0 }, 2,
      1, 0, 0x80040084, 0, "bad opcode 4" },
    { "jump out of range", { JUMP(0x1000) }, 1,
      1, 0, 0x20001000, 0, "outside the 4 KiB pushbuffer" },
    { "data past the end", { 0, MTHD(0x100, 0x3ff), 0 }, 3,
      1, 0x100, MTHD(0x100, 0x3ff), 4, "run past the end" },
    { "reserved method", { MTHD(0x8a0, 1), 1, MTHD(0x200, 1), 0x1234 }, 4,
      3, 0x200, 0x1234, 16, "does not exist" },
    { "methods past 0xffc", { MTHD(0xff8, 3), 1, 2, 3 }, 4,
      3, 0xff8, MTHD(0xff8, 3), 0, "past the method space" },
    { "unknown notifier handle",
      { MTHD(0x88, 1), 0xdead0001, MTHD(0x8c, 1), 0 }, 4,
      7, 0x8c, 0xdead0001, 16, "not bound" },
};

START_TEST(malformed_stream)
{
    const BadStream *b = &bad_streams[_i];
    NV50State *s = card_chan(0);
    const uint32_t later[] = { MTHD(0x8a4, 1), 0x12345678 };
    g_autofree char *log = NULL;
    uint32_t put;

    if (b->type == 7) {
        push(s, 0, (const uint32_t[]){ MTHD(0x84, 1), 0x80000000 }, 2);
    }
    put = nv50_rd32(s, USER(0));
    push(s, 0, b->w, b->n);
    ck_assert_msg((nv50_rd32(s, INTR0) & 0x001f0000) == 0x00010000,
                  "%s: INTR0 0x%08x", b->name, nv50_rd32(s, INTR0));
    ck_assert_uint_eq(nv50_rd32(s, ERR_ADDR(0)),
                      0x80000000 | b->type << 12 | b->mthd);
    ck_assert_uint_eq(nv50_rd32(s, ERR_DATA(0)), b->data);
    ck_assert_uint_eq(get(s, 0), put + b->get);
    log = log_text();
    ck_assert_msg(strstr(log, b->log), "%s: log '%s'", b->name, log);
    /* stopped: further kicks are not executed */
    push(s, 0, later, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a4 >> 2], 0);
    /* the error interrupt reaches PMC (nvkm's chan init enabled it) */
    ck_assert(pmc_pending(s));
    nv50_wr32(s, INTR0_EN, 0);
    ck_assert(!pmc_pending(s));
    nv50_wr32(s, INTR0_EN, 0x00010001);
    ck_assert(pmc_pending(s));
    /* nv50_disp_intr_error: ack, then 0x610080 = 0x90000000 */
    nv50_wr32(s, INTR0, 0x00010000);
    ck_assert(!pmc_pending(s));
    nv50_wr32(s, ERR_ADDR(0), 0x90000000);
    ck_assert_uint_eq(nv50_rd32(s, ERR_ADDR(0)) >> 31, 0);
    if (b->type == 3 || b->type == 7) {
        /* the method was dropped and the channel went on */
        ck_assert_uint_eq(get(s, 0), nv50_rd32(s, USER(0)));
        ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a4 >> 2],
                          0x12345678);
        ck_assert_uint_eq(nv50_rd32(s, INTR0), 0);
    }
    /* nvkm's fini + init resets the channel whatever its state */
    dmac_fini(s, 0);
    nv50_wr32(s, INTR0, 0x00010000);
    dmac_init(s, 0);
    ck_assert_uint_eq(get(s, 0), 0);
    push(s, 0, (const uint32_t[]){ MTHD(0x8a8, 1), 0xabcd }, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a8 >> 2], 0xabcd);
    ck_assert_uint_eq(get(s, 0), 8);
    ck_assert_uint_eq(nv50_rd32(s, INTR0) & 0x001f0000, 0);
    card_free(s);
}
END_TEST

/* A JUMP to itself: bounded, an error, and PUT can still be reached. */
START_TEST(jump_loop)
{
    NV50State *s = card_chan(0);
    g_autofree char *log = NULL;

    nv50_vram_wr32(s, PUSH(0) + 0x40, JUMP(0x40));
    nv50_vram_wr32(s, PUSH(0), JUMP(0x40));
    nv50_wr32(s, USER(0), 0x80);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0x00010000);
    ck_assert_uint_eq((nv50_rd32(s, ERR_ADDR(0)) >> 12) & 7, 1);
    log = log_text();
    ck_assert_ptr_nonnull(strstr(log, "JUMP loop"));
    /* acked, the channel gives up on the loop and idles at PUT */
    nv50_wr32(s, INTR0, 0x00010000);
    nv50_wr32(s, ERR_ADDR(0), 0x90000000);
    ck_assert_uint_eq(get(s, 0), 0x80);
    push(s, 0, (const uint32_t[]){ MTHD(0x8a0, 1), 5 }, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x8a0 >> 2], 5);
    card_free(s);
}
END_TEST

/* The pushbuffer cannot be fetched: guest memory that is not there. */
START_TEST(fetch_fault)
{
    NV50State *s = card_chan(0);

    nv50_wr32(s, CTRL(0) + 4, (0x10000000u >> 8) | 3);   /* host RAM */
    nv50_wr32(s, USER(0), 8);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0x00010000);
    ck_assert_uint_eq(nv50_rd32(s, ERR_ADDR(0)), 0x80000000 | 1 << 12);
    ck_assert_uint_eq(nv50_rd32(s, ERR_DATA(0)), (0x10000000u >> 8) | 3);
    ck_assert_uint_eq(get(s, 0), 0);
    /* VRAM past its end is a fault too */
    nv50_wr32(s, INTR0, 0x00010000);
    nv50_wr32(s, CTRL(0) + 4, (0x01000000u >> 8) | 1);
    nv50_wr32(s, ERR_ADDR(0), 0x90000000);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0x00010000);
    card_free(s);
}
END_TEST

/* A flip of a head that does not scan out is taken at once: BEGUN. */
START_TEST(base_flip_begun)
{
    NV50State *s = card_chan(1);
    const uint32_t w[] = {
        MTHD(0xa0, 2), 0x20, SYNC_HANDLE,       /* control, ctxdma */
        MTHD(0x80, 1), 0,
    };

    nv50_vram_wr32(s, SYNC_VRAM + 0x20, 0);     /* base507c_ntfy_reset */
    push(s, 1, w, 5);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x20) >> 30, 1);
    ck_assert_uint_eq(s->pdisp->chan[1].armed[0xa0 >> 2], 0x20);
    /* state register of SET_NOTIFIER_CONTROL, assembly and armed */
    ck_assert_uint_eq(nv50_rd32(s, 0x6108a0), 0x20);
    ck_assert_uint_eq(nv50_rd32(s, 0x6108a4), 0x20);
    card_free(s);
}
END_TEST

/* An overlay image (ovly827e_image_set): accepted, armed, BEGUN. */
START_TEST(overlay_flip)
{
    NV50State *s = card_chan(3);
    const uint32_t w[] = {
        MTHD(0xa0, 2), 0x80, SYNC_HANDLE,
        MTHD(0x84, 1), 0x10, MTHD(0xc0, 1), 0xfb000000,
        MTHD(0x100, 1), 2,
        MTHD(0x800, 1), 0x1234, MTHD(0x808, 3), 64 | 64 << 16,
        1u << 20 | 1 << 8, 0xcf << 8,
        MTHD(0x80, 1), 0,
    };

    push(s, 3, w, ARRAY_SIZE(w));
    ck_assert_uint_eq(s->pdisp->chan[3].armed[0x800 >> 2], 0x1234);
    ck_assert_uint_eq(s->pdisp->chan[3].armed[0x100 >> 2], 2);
    /* cl827e NOTIFICATION_1: word 3 STATUS 31:16 = BEGUN, word 0 left */
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x8c), 0xffff0000);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x80), 0);
    /* the g84 overlay state registers (0x6109f8: SURFACE_SET_OFFSET) */
    ck_assert_uint_eq(nv50_rd32(s, 0x6109fc), 0x1234);
    /* the overlay class has no second surface */
    push(s, 3, (const uint32_t[]){ MTHD(0x820, 1), 1 }, 2);
    ck_assert_uint_eq(nv50_rd32(s, ERR_ADDR(3)), 0x80000000 | 3 << 12 |
                                                 0x820);
    ck_assert_uint_eq(nv50_rd32(s, INTR0) & 0x001f0000, 0x00080000);
    card_free(s);
}
END_TEST

/*
 * A notifier in guest memory in WRITE_AWAKEN mode raises INTR0 bit c;
 * with bus mastering off its write is dropped (Received Master Abort).
 */
START_TEST(awaken_notifier_in_guest_memory)
{
    GuestRAM *ram = guest_ram_new();
    g_autofree uint8_t *mem = g_malloc0(0x10000);
    NV50State *s = card();
    uint32_t slot = ramht_slot(0xf0000010, 1);

    guest_ram_add(ram, 0x20000000, 0x10000, mem);
    nv50_set_guest_ram(s, ram);
    nv50_vram_wr32(s, INST + slot * 8, 0xf0000010);
    nv50_vram_wr32(s, INST + slot * 8 + 4, 1u << 28 | 1 | 0x1200 << 10);
    /* target PCI (2), RW: guest memory 0x20000000-0x200007ff */
    nv50_vram_wr32(s, INST + 0x1200, 0x000a003d);
    nv50_vram_wr32(s, INST + 0x1204, 0x200007ff);
    nv50_vram_wr32(s, INST + 0x1208, 0x20000000);
    nv50_vram_wr32(s, INST + 0x120c, 0);
    dmac_init(s, 1);
    /* before the driver's pci_set_master(): the write is dropped */
    push(s, 1, (const uint32_t[]){
        MTHD(0xa0, 2), 0x40000000 | 0x60, 0xf0000010, MTHD(0x80, 1), 0,
    }, 5);
    ck_assert_uint_eq(ldn_le_p(mem + 0x60, 4), 0);
    ck_assert_uint_eq(pci_config_read(PCI_DEVICE(s), PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    nv50_wr32(s, INTR0, 0x2);
    pci_config_write(PCI_DEVICE(s), PCI_COMMAND, PCI_COMMAND_MASTER, 2);
    push(s, 1, (const uint32_t[]){
        MTHD(0xa0, 2), 0x40000000 | 0x60, 0xf0000010, MTHD(0x80, 1), 0,
    }, 5);
    ck_assert_uint_eq(ldn_le_p(mem + 0x60, 4), 0x40000000);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0x2);
    ck_assert(!pmc_pending(s));
    /* nv50_disp_chan_uevent_init, then the handler's ack */
    nv50_wr32(s, INTR0_EN, nv50_rd32(s, INTR0_EN) | 0x2);
    ck_assert(pmc_pending(s));
    nv50_wr32(s, INTR0, 0x2);
    ck_assert(!pmc_pending(s));
    /* an offset past the context DMA's limit is an error */
    push(s, 1, (const uint32_t[]){
        MTHD(0xa0, 1), 0x800, MTHD(0x80, 1), 0,
    }, 4);
    ck_assert_uint_eq(nv50_rd32(s, ERR_ADDR(1)), 0x80000000 | 4 << 12 |
                                                 0x80);
    card_free(s);
    guest_ram_free(ram);
}
END_TEST

/* The methods of a 1024x768@60 mode on head 0 (head507d_mode). */
static const uint32_t mode_1024x768[] = {
    MTHD(0x400, 1), 0x00000001,                 /* DAC0 owner head 0 */
    MTHD(0x804, 2), 65000 | 2u << 22, 0, /* clock, control */
    MTHD(0x814, 6),
    1344 | 806 << 16,                           /* raster size (totals) */
    135 | 5 << 16,                              /* sync end */
    295 | 34 << 16,                             /* blank end */
    1319 | 802 << 16,                           /* blank start */
    0 | 1 << 16, 744,                           /* blank2, DMI */
    MTHD(0x860, 1), 0,                   /* surface at 0 */
    MTHD(0x868, 4), 1024 | 768 << 16, 1u << 20 | 16 << 8,
    0xcf << 8, 0xf0000001,
};

/* nvkm's nv50_disp_intr + nv50_disp_super for one supervisor stage */
static uint32_t service_super(NV50State *s)
{
    uint32_t intr1 = nv50_rd32(s, INTR1);

    ck_assert(pmc_pending(s));
    ck_assert_uint_ne(intr1 & 0x70, 0);
    nv50_wr32(s, INTR1, intr1 & 0x70);
    ck_assert_uint_ne(nv50_rd32(s, SUPER) & 0x80, 0);
    nv50_wr32(s, SUPER, 0x80000000);
    return intr1 & 0x70;
}

static void modeset(NV50State *s)
{
    push(s, 0, (const uint32_t[]){ MTHD(0x88, 1), SYNC_HANDLE }, 2);
    push(s, 0, mode_1024x768, ARRAY_SIZE(mode_1024x768));
    push(s, 0, (const uint32_t[]){
        MTHD(0x84, 1), 0x80000000, MTHD(0x80, 1), 0, MTHD(0x84, 1), 0,
    }, 6);
}

START_TEST(supervisor_handshake)
{
    NV50State *s = card_chan(0);

    nv50_vram_wr32(s, SYNC_VRAM, 0);
    modeset(s);
    /* stage 1: head 0 modesets with a new pixel clock, was not active */
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x10);
    ck_assert_uint_eq(nv50_rd32(s, SUPER), 0x80000000 | 0x80 | 0x200);
    /* the channel waits at the UPDATE; nothing armed, no notifier */
    ck_assert_uint_eq(s->pdisp->updates, 0);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM), 0);
    ck_assert_uint_eq(s->pdisp->chan[0].armed[0x814 >> 2], 0);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x84 >> 2], 0x80000000);
    /* what nv50_disp_super_1 reads: assembly, armed (+4) */
    ck_assert_uint_eq(nv50_rd32(s, 0x610af8), 1344 | 806 << 16);
    ck_assert_uint_eq(nv50_rd32(s, 0x610afc), 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x610ad0) & 0x3fffff, 65000);
    ck_assert_uint_eq(nv50_rd32(s, 0x610b58), 1);
    ck_assert_uint_eq(service_super(s), 0x10);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x20);
    ck_assert_uint_eq(service_super(s), 0x20);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x40);
    ck_assert_uint_eq(s->pdisp->updates, 0);
    ck_assert_uint_eq(service_super(s), 0x40);
    /* armed: state, notifier, and the channel went on */
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert(!pmc_pending(s));
    ck_assert_uint_eq(nv50_rd32(s, SUPER) >> 31, 0);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM), 1);
    ck_assert_uint_eq(nv50_rd32(s, 0x610afc), 1344 | 806 << 16);
    ck_assert_uint_eq(nv50_rd32(s, 0x610af4), 1319 | 802 << 16);
    ck_assert_uint_eq(nv50_rd32(s, 0x610b5c), 1);
    ck_assert_uint_eq(s->pdisp->chan[0].armed[0x874 >> 2],
                      0xf0000001);
    ck_assert_uint_eq(s->pdisp->chan[0].assembly[0x84 >> 2], 0);
    ck_assert_uint_eq(get(s, 0), nv50_rd32(s, USER(0)));
    /* an UPDATE that changes no mode: no supervisor, done at once */
    push(s, 0, (const uint32_t[]){
        MTHD(0x84, 1), 0x80000000, MTHD(0x860, 1), 0x100,
        MTHD(0x80, 1), 0,
    }, 6);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert_uint_eq(s->pdisp->updates, 2);
    ck_assert_uint_eq(s->pdisp->chan[0].armed[0x860 >> 2], 0x100);
    /* the same head modeset again: it is active now */
    push(s, 0, (const uint32_t[]){
        MTHD(0x808, 1), 2, MTHD(0x80, 1), 0,
    }, 4);
    ck_assert_uint_eq(nv50_rd32(s, SUPER), 0x80000000 | 0x80 | 0x20);
    card_free(s);
}
END_TEST

/* Nobody answers: each stage goes on by itself after 100 ms. */
START_TEST(supervisor_without_interrupts)
{
    NV50State *s = card_chan(0);
    g_autofree char *log = NULL;

    nv50_vram_wr32(s, SYNC_VRAM, 0);
    modeset(s);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x10);
    gemu_clock_advance(&clk, 99 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x10);
    gemu_clock_advance(&clk, 1 * 1000 * 1000);
    /* the unanswered request is withdrawn as the next one comes */
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x20);
    gemu_clock_advance(&clk, 100 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x40);
    ck_assert_uint_eq(s->pdisp->updates, 0);
    gemu_clock_advance(&clk, 100 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM), 1);
    log = log_text();
    ck_assert_ptr_nonnull(strstr(log, "supervisor 1 not acknowledged"));
    /* a late ack of a stage that is over does nothing */
    nv50_wr32(s, SUPER, 0x80000000);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    card_free(s);
}
END_TEST

/* With the supervisor interrupts disabled, the UPDATE is armed at once. */
START_TEST(supervisor_disabled)
{
    NV50State *s = card_chan(0);

    nv50_wr32(s, INTR1_EN, 0);
    modeset(s);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM), 1);
    card_free(s);
}
END_TEST

/*
 * The first modeset as DRM commits it: the base channel's image and
 * UPDATE interlocked with the core, then the core UPDATE interlocked
 * with base 0; both are armed together, then core DONE and base BEGUN.
 */
START_TEST(interlocked_base_and_core)
{
    NV50State *s = card_chan(0);
    const uint32_t image[] = {
        MTHD(0xa0, 2), 0x20, SYNC_HANDLE,
        MTHD(0x84, 1), 0,                       /* NON_TEARING */
        MTHD(0xc0, 1), 0xfb000000,
        MTHD(0x800, 1), 0x200000 >> 8,
        MTHD(0x808, 3), 1024 | 768 << 16, 1u << 20 | 16 << 8, 0xcf << 8,
        MTHD(0x80, 1), 1,                       /* interlock with core */
    };

    bind(s, 1, SYNC_HANDLE, 0x1100, SYNC_VRAM, 0x1000);
    dmac_init(s, 1);
    nv50_wr32(s, INTR1_EN, 0);
    push(s, 1, image, ARRAY_SIZE(image));
    /* the base waits for the core */
    ck_assert_uint_eq(s->pdisp->chan[1].armed[0x800 >> 2], 0);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x20), 0);
    ck_assert_uint_eq(get(s, 1), ARRAY_SIZE(image) * 4);
    push(s, 0, (const uint32_t[]){ MTHD(0x88, 1), SYNC_HANDLE }, 2);
    push(s, 0, mode_1024x768, ARRAY_SIZE(mode_1024x768));
    push(s, 0, (const uint32_t[]){
        MTHD(0x84, 1), 0x80000000, MTHD(0x80, 1), 0x00000002,
    }, 4);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_uint_eq(s->pdisp->chan[1].armed[0x800 >> 2], 0x2000);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM), 1);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x20), 0x40000000);
    /* a later flip of a scanning head waits for the vblank */
    push(s, 1, (const uint32_t[]){
        MTHD(0xa0, 1), 0x30, MTHD(0x800, 1), 0x3000, MTHD(0x80, 1), 0,
    }, 6);
    ck_assert_uint_eq(s->pdisp->chan[1].armed[0x800 >> 2], 0x2000);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x30), 0);
    gemu_clock_advance(&clk, 17 * 1000 * 1000);
    ck_assert_uint_eq(s->pdisp->chan[1].armed[0x800 >> 2], 0x3000);
    ck_assert_uint_eq(nv50_vram_rd32(s, SYNC_VRAM + 0x30), 0x40000000);
    card_free(s);
}
END_TEST

/*
 * 1024x768@60 (65 MHz, totals 1344x806, vblank from line 802): the
 * vblank interrupt and the beam position follow the virtual clock.
 */
START_TEST(vblank_and_scanout_position)
{
    NV50State *s = card_chan(0);
    int64_t t0;

    nv50_wr32(s, INTR1_EN, 0);
    modeset(s);
    t0 = gemu_clock_get_ns(&clk);
    nv50_wr32(s, INTR1_EN, 0x4);                /* nv50_head_vblank_get */
    ck_assert_uint_eq(nv50_rd32(s, 0x616340), 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x616344), 0);
    /* 10 ms: pixel 650000 = line 483, pixel 848 */
    gemu_clock_advance(&clk, 10 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, 0x616340), 483);
    ck_assert_uint_eq(nv50_rd32(s, 0x616344), 848);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    /* line 802 starts at pixel 1077888: 16582893 ns */
    gemu_clock_advance(&clk, t0 + 16582892 - gemu_clock_get_ns(&clk));
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert(!pmc_pending(s));
    gemu_clock_advance(&clk, 1);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x4);
    ck_assert(pmc_pending(s));
    ck_assert_uint_eq(nv50_rd32(s, 0x616340), 1u << 16 | 802);
    ck_assert_uint_eq(nv50_rd32(s, 0x616344), 0);
    nv50_wr32(s, INTR1, 0x4);
    ck_assert(!pmc_pending(s));
    /* 20 ms: pixel 1300000 = line 967 - 806 = 161, pixel 352 */
    gemu_clock_advance(&clk, t0 + 20000000 - gemu_clock_get_ns(&clk));
    ck_assert_uint_eq(nv50_rd32(s, 0x616340), 1u << 16 | 161);
    ck_assert_uint_eq(nv50_rd32(s, 0x616344), 352);
    /* the next vblank: pixel 2161152, 33248493 ns */
    gemu_clock_advance(&clk, t0 + 33248492 - gemu_clock_get_ns(&clk));
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    gemu_clock_advance(&clk, 1);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0x4);
    ck_assert_uint_eq(nv50_rd32(s, 0x616340) >> 16, 2);
    /* vblank disabled: no status (head 1 never had one) */
    nv50_wr32(s, INTR1, 0x4);
    nv50_wr32(s, INTR1_EN, 0);
    gemu_clock_advance(&clk, 20 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x616340) >> 16, 3);
    ck_assert_uint_eq(nv50_rd32(s, 0x616b40), 0);
    /* the head's clock removed: the raster stops, the count stays */
    nv50_wr32(s, INTR1_EN, 0x4);
    push(s, 0, (const uint32_t[]){
        MTHD(0x804, 1), 0, MTHD(0x80, 1), 0,
    }, 4);
    gemu_clock_advance(&clk, 40 * 1000 * 1000);
    ck_assert_uint_eq(nv50_rd32(s, INTR1), 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x616340), 3u << 16);
    card_free(s);
}
END_TEST

/* nv50_disp_pioc_init, then cursor methods written to the USER page. */
START_TEST(pio_cursor_channel)
{
    NV50State *s = card();
    const int c = 7;

    /* not enabled: dropped */
    nv50_wr32(s, USER(c) + 0x84, 0x00100020);
    ck_assert_uint_eq(s->pdisp->chan[c].assembly[0x84 >> 2], 0);
    nv50_wr32(s, CTRL(c), 0x00002000);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x00030000, 0);
    nv50_wr32(s, CTRL(c), 0x00000001);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x00030000, 0x00010000);
    ck_assert_uint_ge(nv50_rd32(s, USER(c) + 0x08) & 0x3f, 4);
    nv50_wr32(s, USER(c) + 0x84, 0x00100020);
    ck_assert_uint_eq(s->pdisp->chan[c].assembly[0x84 >> 2], 0x00100020);
    ck_assert_uint_eq(s->pdisp->chan[c].armed[0x84 >> 2], 0);
    nv50_wr32(s, USER(c) + 0x80, 0);
    ck_assert_uint_eq(s->pdisp->chan[c].armed[0x84 >> 2], 0x00100020);
    /* a method the class does not have: logged, dropped */
    nv50_wr32(s, USER(c) + 0x90, 1);
    ck_assert_uint_eq(s->pdisp->chan[c].assembly[0x90 >> 2], 0);
    ck_assert_uint_eq(nv50_rd32(s, INTR0), 0);
    /* nv50_disp_pioc_fini */
    nv50_wr32(s, CTRL(c), 0);
    ck_assert_uint_eq(nv50_rd32(s, CTRL(c)) & 0x00030000, 0);
    card_free(s);
}
END_TEST

START_TEST(dac_load_detect)
{
    NV50State *s = card();
    uint32_t v;

    /* nv50_dac_sense: power, sense, read-and-clear */
    nv50_wr32(s, 0x61a004, 0x80000000 | 0x00550000);
    ck_assert_uint_eq(nv50_rd32(s, 0x61a004) >> 31, 0);
    nv50_wr32(s, 0x61a00c, 0x00100000 | 340);
    v = nv50_rd32(s, 0x61a00c);
    ck_assert(v & 0x80000000);
    ck_assert_uint_ne((v >> 27) & 7, 0);        /* nvkm: connected */
    nv50_wr32(s, 0x61a00c, 0);
    ck_assert_uint_eq(nv50_rd32(s, 0x61a00c), 0);
    /* SOR power and sequencer complete at once (nv50_sor_power) */
    nv50_wr32(s, 0x61c004, 0x80000001);
    ck_assert_uint_eq(nv50_rd32(s, 0x61c004), 1);
    ck_assert_uint_eq(nv50_rd32(s, 0x61c030) & 0x10000000, 0);
    /* the output resources nvkm counts (nv50_dac_cnt, nv50_sor_cnt) */
    ck_assert_uint_eq((nv50_rd32(s, 0x610184) >> 20) & 7, 7);
    ck_assert_uint_eq((nv50_rd32(s, 0x610184) >> 24) & 3, 3);
    card_free(s);
}
END_TEST

Suite *hw_pdisplay_suite(void)
{
    Suite *su = suite_create("hw-pdisplay");
    TCase *tc = tcase_create("evo");

    tcase_add_checked_fixture(tc, log_setup, log_teardown);
    tcase_add_test(tc, core_caps_and_update);
    tcase_add_test(tc, jump_and_non_increment);
    tcase_add_test(tc, put_inside_method_data);
    tcase_add_loop_test(tc, malformed_stream, 0, ARRAY_SIZE(bad_streams));
    tcase_add_test(tc, jump_loop);
    tcase_add_test(tc, fetch_fault);
    tcase_add_test(tc, base_flip_begun);
    tcase_add_test(tc, overlay_flip);
    tcase_add_test(tc, awaken_notifier_in_guest_memory);
    tcase_add_test(tc, supervisor_handshake);
    tcase_add_test(tc, supervisor_without_interrupts);
    tcase_add_test(tc, supervisor_disabled);
    tcase_add_test(tc, interlocked_base_and_core);
    tcase_add_test(tc, vblank_and_scanout_position);
    tcase_add_test(tc, pio_cursor_channel);
    tcase_add_test(tc, dac_load_detect);
    suite_add_tcase(su, tc);
    return su;
}
