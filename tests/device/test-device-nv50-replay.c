/*
 * Record and replay without a guest (hw/pci/replay.c, -clock virtual's
 * engine): a "guest" drives a G84 channel whose pushbuffer and
 * semaphores live in guest RAM, through recorded accesses; a second,
 * identically prepared card replays the recording with no guest RAM of
 * its own and must end in the same state; a changed card or a changed
 * recording is a divergence named by access number.  A guest that
 * turned bus mastering off: the refused fetch is in no record, and the
 * replay refuses it alike.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/engine.h"
#include "hw/pci/replay.h"

#define USER(off)       (0xc00000 + GR_CHID * 0x2000 + (off))
#define PUSH_GPA_OFS    0x0000u         /* in the rig's guest RAM */
#define SEM_OFS         0x1000u
#define SEM_VA          (GR_VA_GART + SEM_OFS)
#define PUSH_WORDS      16

static PciRecorder *rec;

/* One access of the guest, as g84's transport hook records it. */
static uint32_t access(GemuRecType type, hwaddr reg, uint32_t val)
{
    gemu_clock_bus_access(&rig.clk);
    if (type == GEMU_REC_BAR_READ) {
        val = pci_mmio_read(rig.pci, BAR0_GPA + reg, 4);
    } else {
        pci_mmio_write(rig.pci, BAR0_GPA + reg, val, 4);
    }
    pci_recorder_access(rec, type, BAR0_GPA + reg, 4, val);
    return val;
}

static uint32_t t_rd32(hwaddr reg)
{
    return access(GEMU_REC_BAR_READ, reg, 0);
}

/* the same card both times: the channel, IB entry 0 -> guest RAM */
static void prepare(uint32_t push_words)
{
    gr_rig_init();
    nv50_engine_set_virtual_clock(rig.s, true);
    gr_wr32(GR_VA_IB, (uint32_t)(GR_VA_GART + PUSH_GPA_OFS));
    gr_wr32(GR_VA_IB + 4, (uint32_t)((GR_VA_GART + PUSH_GPA_OFS) >> 32) |
                          push_words << 10);
}

static void guest_wr32(uint32_t ofs, uint32_t v)
{
    stn_le_p(rig.sysmem + ofs, 4, v);
}

/* The guest's pushbuffer: acquire >= 5, REF 0x77, release 0x42, intr. */
static void guest_pushbuffer(void)
{
    static const uint32_t w[PUSH_WORDS] = {
        1 << 18 | 0x60, GR_H_VM,                /* SEMAPHORE ctxdma */
        4 << 18 | 0x10, (uint32_t)(SEM_VA >> 32), (uint32_t)SEM_VA, 5, 4,
        1 << 18 | 0x50, 0x77,                   /* REF_CNT */
        4 << 18 | 0x10, (uint32_t)(SEM_VA >> 32), (uint32_t)SEM_VA + 4,
        0x42, 2,                                /* RELEASE */
        1 << 18 | 0x20, 0,                      /* NON_STALLED_INTERRUPT */
    };

    for (int i = 0; i < PUSH_WORDS; i++) {
        guest_wr32(PUSH_GPA_OFS + 4 * i, w[i]);
    }
}

/* The guest idles: the clock jumps to the card's next timer (g84's). */
static void idle_jump(void)
{
    int64_t next = gemu_clock_next_deadline(&rig.clk);
    int64_t delta = next - gemu_clock_get_ns(&rig.clk);

    ck_assert_int_ne(next, INT64_MAX);
    gemu_clock_advance(&rig.clk, delta);
    pci_recorder_clock(rec, delta);
}

/* Start recording the prepared card into @out (as g84's -record). */
static GemuRecWriter *record_begin(GByteArray *out)
{
    GemuRecHeader hdr = {
        .machine = "g84", .version = GEMU_REC_VERSION,
        .flags = GEMU_REC_F_VIRTUAL_CLOCK, .access_ns = rig.clk.access_ns,
        .vram_size = rig.s->vram_size,
    };
    GemuRecWriter *w = gemu_rec_writer_new_mem(&hdr, out);

    rec = pci_recorder_new(rig.pci, &rig.s->dma, w);
    return w;
}

/* ... and end it after @accesses accesses: the card's digest. */
static uint64_t record_end(GemuRecWriter *w, uint64_t accesses)
{
    uint64_t digest = nv50_state_digest(rig.s);

    pci_recorder_free(rec);
    ck_assert(gemu_rec_writer_close(w, accesses,
                                    gemu_clock_get_ns(&rig.clk), digest,
                                    NULL));
    return digest;
}

/* Record the guest's run into @out; the card's digest at the end. */
static uint64_t record_run(GByteArray *out)
{
    GemuRecWriter *w = record_begin(out);

    guest_pushbuffer();
    guest_wr32(SEM_OFS, 1);
    access(GEMU_REC_BAR_WRITE, USER(0x8c), 1);          /* IB_PUT: kick */
    ck_assert_uint_ne(t_rd32(USER(0x48)), 0x77);        /* parked */
    guest_wr32(SEM_OFS, 6);                             /* no kick */
    idle_jump();            /* to the parked channel's re-check */
    ck_assert_uint_eq(t_rd32(USER(0x48)), 0x77);
    ck_assert_uint_eq((uint32_t)ldn_le_p(rig.sysmem + SEM_OFS + 4, 4), 0x42);
    access(GEMU_REC_BAR_WRITE, 0x002140, 0xffffffff);   /* INTx up */
    ck_assert_uint_eq(irq_get_level(&rig.pci->intx), 1);
    ck_assert_uint_eq(t_rd32(0x002100) & 0x40000000u, 0x40000000u);
    access(GEMU_REC_BAR_WRITE, 0x002100, 0x40000000);   /* INTx down */
    ck_assert_uint_eq(irq_get_level(&rig.pci->intx), 0);
    return record_end(w, 6);
}

/*
 * Replay @f (@accesses accesses) on the prepared card: -1 and *errp if
 * it diverged.
 */
static int replay_n(const GemuRecFile *f, uint64_t accesses,
                    uint64_t *steps, GError **errp)
{
    PciReplay *r = pci_replay_new(rig.pci, &rig.s->dma, &rig.clk, f);
    int st;

    memset(rig.sysmem, 0xee, GART_SIZE);    /* never read in a replay */
    *steps = 0;
    while ((st = pci_replay_step(r, errp)) > 0) {
        (*steps)++;
    }
    if (st == 0) {
        const GemuRecord *end = pci_replay_end(r);

        ck_assert_ptr_nonnull(end);
        ck_assert_uint_eq(pci_replay_seq(r), accesses);
        ck_assert_uint_eq(end->digest, nv50_state_digest(rig.s));
        ck_assert_uint_eq(end->val, gemu_clock_get_ns(&rig.clk));
    }
    pci_replay_free(r);
    return st;
}

static int replay(const GemuRecFile *f, uint64_t *steps, GError **errp)
{
    return replay_n(f, 6, steps, errp);
}

static GemuRecFile *recording(GByteArray *buf, uint64_t *digest)
{
    GemuRecFile *f;
    bool dma = false, irq = false, clock = false;

    prepare(PUSH_WORDS);
    *digest = record_run(buf);
    gr_rig_teardown();
    f = gemu_rec_parse(buf->data, buf->len, NULL);
    ck_assert_ptr_nonnull(f);
    ck_assert(f->complete);
    for (guint i = 0; i < f->records->len; i++) {
        uint8_t t = g_array_index(f->records, GemuRecord, i).type;

        dma |= t == GEMU_REC_DMA_READ;
        irq |= t == GEMU_REC_IRQ;
        clock |= t == GEMU_REC_CLOCK;
    }
    ck_assert(dma && irq && clock);
    return f;
}

START_TEST(replay_reaches_the_same_state)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    g_autoptr(GemuRecFile) f = NULL;
    g_autoptr(GError) err = NULL;
    uint64_t digest, steps;

    f = recording(buf, &digest);
    prepare(PUSH_WORDS);
    ck_assert_msg(replay(f, &steps, &err) == 0, "%s", err->message);
    ck_assert_uint_eq(steps, 7);            /* 6 accesses, 1 clock step */
    ck_assert_uint_eq(nv50_state_digest(rig.s), digest);
    /* the replayed card did what the guest saw, without guest RAM */
    ck_assert_uint_eq(rd32(USER(0x48)), 0x77);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + SEM_OFS + 4, 4), 0xeeeeeeee);
    gr_rig_teardown();
}
END_TEST

/*
 * Replay @f on a card prepared with @push_words (then @tweak, if any);
 * it must diverge: the message.
 */
static char *divergence(const GemuRecFile *f, uint32_t push_words,
                        void (*tweak)(void))
{
    g_autoptr(GError) err = NULL;
    uint64_t steps;

    prepare(push_words);
    if (tweak) {
        tweak();
    }
    ck_assert_int_eq(replay(f, &steps, &err), -1);
    gr_rig_teardown();
    return g_strdup(err->message);
}

/* A card that fetches another length diverges at the kick, access 1. */
START_TEST(changed_card_diverges_at_the_kick)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t digest;
    g_autoptr(GemuRecFile) f = recording(buf, &digest);
    /* the interrupt's method gone */
    g_autofree char *msg = divergence(f, PUSH_WORDS - 2, NULL);

    ck_assert_msg(g_str_has_prefix(msg, "access 1 (BAR_WRITE at "
                                   "0xfdc0208c): the card"), "%s", msg);
}
END_TEST

/* A read value the card no longer returns: that access's number. */
START_TEST(changed_value_diverges_there)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t digest;
    g_autoptr(GemuRecFile) f = recording(buf, &digest);
    g_autofree char *msg = NULL;
    guint seq = 0;

    for (guint i = 0; i < f->records->len; i++) {
        GemuRecord *r = &g_array_index(f->records, GemuRecord, i);

        seq += r->type <= GEMU_REC_RESET;
        if (r->type == GEMU_REC_BAR_READ && r->val == 0x77) {
            r->val = 0x78;
            break;
        }
    }
    ck_assert_uint_eq(seq, 3);
    msg = divergence(f, PUSH_WORDS, NULL);
    ck_assert_str_eq(msg, "access 3 (BAR_READ at 0xfdc02048): the card "
                     "returns 0x77; the guest read 0x78");
}
END_TEST

static void intx_off(void)
{
    wr32(NV_PMC_INTR_EN_HOST, 0);
}

/* An INTx change the recording has and the card no longer makes. */
START_TEST(missing_interrupt_diverges)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t digest;
    g_autoptr(GemuRecFile) f = recording(buf, &digest);
    g_autofree char *msg = divergence(f, PUSH_WORDS, intx_off);

    ck_assert_msg(strstr(msg, "access 4 (BAR_WRITE at 0xfd002140): the "
                         "card no longer sets INTx to 1"), "%s", msg);
}
END_TEST

/* A clock step that does not land on the card's next timer. */
START_TEST(clock_step_elsewhere_diverges)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t digest;
    g_autoptr(GemuRecFile) f = recording(buf, &digest);
    g_autofree char *msg = NULL;

    for (guint i = 0; i < f->records->len; i++) {
        GemuRecord *r = &g_array_index(f->records, GemuRecord, i);

        if (r->type == GEMU_REC_CLOCK) {
            r->val += 1000;
        }
    }
    msg = divergence(f, PUSH_WORDS, NULL);
    ck_assert_msg(strstr(msg, "the clock step after access 2: the "
                         "recording jumps 500000 ns to the card's next "
                         "timer; the card's is 499000 ns away"), "%s", msg);
}
END_TEST

/* A config access of the guest, as g84's transport hook records it. */
static uint32_t cfg_access(GemuRecType type, uint32_t off, uint32_t val)
{
    gemu_clock_bus_access(&rig.clk);
    if (type == GEMU_REC_CFG_READ) {
        val = pci_config_read(rig.pci, off, 2);
    } else {
        pci_config_write(rig.pci, off, val, 2);
    }
    pci_recorder_access(rec, type, off, 2, val);
    return val;
}

/*
 * The guest clears Bus Master Enable, then kicks the channel: the
 * pushbuffer fetch is refused (DMA_PUSHER, Received Master Abort).
 * Four accesses; the recording in @out, the card's digest returned.
 */
static uint64_t record_refused(GByteArray *out)
{
    GemuRecWriter *w = record_begin(out);

    guest_pushbuffer();
    guest_wr32(SEM_OFS, 6);
    cfg_access(GEMU_REC_CFG_WRITE, PCI_COMMAND, PCI_COMMAND_MEMORY);
    access(GEMU_REC_BAR_WRITE, USER(0x8c), 1);          /* IB_PUT: kick */
    ck_assert_uint_eq(t_rd32(0x002100) & 0x1000, 0x1000);  /* DMA_PUSHER */
    ck_assert_uint_eq(cfg_access(GEMU_REC_CFG_READ, PCI_STATUS, 0) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    return record_end(w, 4);
}

/*
 * A refused DMA is decided before the tap: no DMA_READ in the
 * recording; the replay, whose config writes turn bus mastering off
 * again, refuses the same fetch and ends in the same state.  A
 * recording whose guest left bus mastering on makes the card read
 * guest memory the recording does not hold: a divergence at the kick.
 */
START_TEST(refused_dma_replays)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    g_autoptr(GemuRecFile) f = NULL;
    g_autoptr(GError) err = NULL;
    uint64_t digest, steps;

    prepare(PUSH_WORDS);
    digest = record_refused(buf);
    gr_rig_teardown();
    f = gemu_rec_parse(buf->data, buf->len, NULL);
    ck_assert_ptr_nonnull(f);
    for (guint i = 0; i < f->records->len; i++) {
        ck_assert_uint_ne(g_array_index(f->records, GemuRecord, i).type,
                          GEMU_REC_DMA_READ);
    }
    prepare(PUSH_WORDS);
    ck_assert_msg(replay_n(f, 4, &steps, &err) == 0, "%s", err->message);
    ck_assert_uint_eq(steps, 4);
    ck_assert_uint_eq(nv50_state_digest(rig.s), digest);
    gr_rig_teardown();

    for (guint i = 0; i < f->records->len; i++) {
        GemuRecord *r = &g_array_index(f->records, GemuRecord, i);

        if (r->type == GEMU_REC_CFG_WRITE) {
            r->val |= PCI_COMMAND_MASTER;
        }
    }
    prepare(PUSH_WORDS);
    ck_assert_int_eq(replay_n(f, 4, &steps, &err), -1);
    ck_assert_msg(g_str_has_prefix(err->message, "access 2 (BAR_WRITE at "
                                   "0xfdc0208c): the card read guest "
                                   "memory"), "%s", err->message);
    gr_rig_teardown();
}
END_TEST

Suite *nv50_replay_suite(void)
{
    Suite *s = suite_create("nv50_replay");
    TCase *tc = tcase_create("record-replay");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, replay_reaches_the_same_state);
    tcase_add_test(tc, changed_card_diverges_at_the_kick);
    tcase_add_test(tc, changed_value_diverges_there);
    tcase_add_test(tc, missing_interrupt_diverges);
    tcase_add_test(tc, clock_step_elsewhere_diverges);
    tcase_add_test(tc, refused_dma_replays);
    suite_add_tcase(s, tc);
    return s;
}
