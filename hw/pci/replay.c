/*
 * Recording a PCI function's traffic and replaying it against the
 * function alone: include/hw/pci/replay.h, docs/devel/replay.md.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/pci/replay.h"


/* --- recording --- */

struct PciRecorder {
    PCIDevice *pci;
    DmaAddressSpace *as;
    GemuRecWriter *w;
    DmaTap tap;
    const DmaTap *old_tap;
    IRQLine old_irq;            /* who was connected to INTx */
    uint64_t accesses;
};

static void rec_dma_read(void *opaque, hwaddr addr, const void *buf,
                         size_t len, bool ok)
{
    PciRecorder *r = opaque;

    gemu_rec_dma_read(r->w, addr, buf, len, ok);
}

static void rec_irq(void *opaque, int n, int level)
{
    PciRecorder *r = opaque;

    gemu_rec_simple(r->w, GEMU_REC_IRQ, level);
    if (r->old_irq.notify) {
        r->old_irq.notify(r->old_irq.opaque, r->old_irq.n, level);
    }
}

PciRecorder *pci_recorder_new(PCIDevice *pci, DmaAddressSpace *as,
                              GemuRecWriter *w)
{
    PciRecorder *r = g_new0(PciRecorder, 1);

    r->pci = pci;
    r->as = as;
    r->w = w;
    r->tap.read_done = rec_dma_read;
    r->tap.opaque = r;
    r->old_tap = as->tap;
    as->tap = &r->tap;
    r->old_irq = pci->intx;
    irq_line_connect(&pci->intx, rec_irq, r, 0);
    return r;
}

void pci_recorder_access(PciRecorder *r, GemuRecType type, uint64_t addr,
                         unsigned size, uint64_t val)
{
    r->accesses++;
    gemu_rec_access(r->w, type, addr, size, val);
}

void pci_recorder_clock(PciRecorder *r, int64_t ns)
{
    gemu_rec_simple(r->w, GEMU_REC_CLOCK, ns);
}

uint64_t pci_recorder_accesses(const PciRecorder *r)
{
    return r->accesses;
}

void pci_recorder_free(PciRecorder *r)
{
    if (!r) {
        return;
    }
    r->as->tap = r->old_tap;
    irq_line_connect(&r->pci->intx, r->old_irq.notify, r->old_irq.opaque,
                     r->old_irq.n);
    g_free(r);
}

/* --- replay --- */

struct PciReplay {
    PCIDevice *pci;
    DmaAddressSpace *as;
    GemuClock *clk;
    PciReplaySource *next;      /* where records come from */
    void *next_opaque;
    const GemuRecFile *f;       /* pci_replay_new's */
    guint fpos;                 /* ... next record of it */
    GuestRAM *empty;            /* given to @as if it had no RAM */
    DmaTap tap;
    IRQLine old_irq;
    GMutex lock;                /* taps run on the card's threads */
    /* the action in progress: its events, then itself, last */
    GArray *win;                /* of GemuRecord */
    GArray *used;               /* of bool, per event: it happened */
    guint ev_end;               /* events: win[0, ev_end) */
    bool in_action;
    uint64_t seq;
    GemuRecord end;
    bool has_end;
    char *div;                  /* the first divergence */
};

#define WIN(r, i)   (&g_array_index((r)->win, GemuRecord, (i)))
#define USED(r, i)  (g_array_index((r)->used, bool, (i)))

static bool is_event(uint8_t type)
{
    return type == GEMU_REC_DMA_READ || type == GEMU_REC_IRQ;
}

static bool is_access(uint8_t type)
{
    return type >= GEMU_REC_BAR_READ && type <= GEMU_REC_RESET;
}

/* lock held: note the first divergence */
static void GEMU_PRINTF(2, 3) diverge(PciReplay *r, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *what = NULL;

    if (r->div) {
        return;
    }
    va_start(ap, fmt);
    what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (r->in_action && is_access(WIN(r, r->ev_end)->type)) {
        r->div = g_strdup_printf("access %" PRIu64 " (%s at 0x%" PRIx64
                                 "): %s", r->seq,
                                 gemu_rec_type_name(WIN(r, r->ev_end)->type),
                                 WIN(r, r->ev_end)->addr, what);
    } else if (r->in_action) {
        r->div = g_strdup_printf("the clock step after access %" PRIu64
                                 ": %s", r->seq, what);
    } else {
        r->div = g_strdup_printf("after access %" PRIu64 ": %s", r->seq,
                                 what);
    }
}

/*
 * lock held: the first unused event of @type in the action's events,
 * preferring one that matches @addr/@len (events of one access may come
 * in another order when the card works on several threads).
 */
static GemuRecord *next_event(PciReplay *r, uint8_t type, uint64_t addr,
                              uint64_t len, guint *idx)
{
    int first = -1;

    if (!r->in_action) {
        return NULL;
    }
    for (guint i = 0; i < r->ev_end; i++) {
        const GemuRecord *e = WIN(r, i);

        if (USED(r, i) || e->type != type) {
            continue;
        }
        if (first < 0) {
            first = i;
        }
        if (type != GEMU_REC_DMA_READ || (e->addr == addr && e->val == len)) {
            *idx = i;
            return (GemuRecord *)e;
        }
    }
    *idx = first < 0 ? 0 : first;
    return first < 0 ? NULL : WIN(r, first);
}

static bool replay_dma_read(void *opaque, hwaddr addr, void *buf,
                            size_t len)
{
    PciReplay *r = opaque;
    const GemuRecord *e;
    bool ok = false;
    guint i;

    g_mutex_lock(&r->lock);
    e = next_event(r, GEMU_REC_DMA_READ, addr, len, &i);
    if (!e) {
        diverge(r, "the card read guest memory at 0x%" PRIx64 " (%zu "
                "bytes); the recording has no more reads there", addr, len);
    } else if (e->addr != addr || e->val != len) {
        diverge(r, "the card read guest memory at 0x%" PRIx64 " (%zu "
                "bytes); the recording's next read is at 0x%" PRIx64
                " (%" PRIu64 " bytes)", addr, len, e->addr, e->val);
    } else {
        USED(r, i) = true;
        ok = e->ok;
    }
    if (ok) {
        memcpy(buf, e->data, len);
    } else {
        memset(buf, 0, len);
    }
    g_mutex_unlock(&r->lock);
    return ok;
}

static bool replay_dma_write(void *opaque, hwaddr addr, const void *buf,
                             size_t len)
{
    return true;    /* what the card wrote comes back as recorded reads */
}

static void replay_irq(void *opaque, int n, int level)
{
    PciReplay *r = opaque;
    const GemuRecord *e;
    guint i;

    g_mutex_lock(&r->lock);
    e = next_event(r, GEMU_REC_IRQ, 0, 0, &i);
    if (!e || e->size != level) {
        diverge(r, "the card set INTx to %d; the recording %s", level,
                e ? "has it set the other way" : "has no INTx change there");
    } else {
        USED(r, i) = true;
    }
    g_mutex_unlock(&r->lock);
}

PciReplay *pci_replay_new_source(PCIDevice *pci, DmaAddressSpace *as,
                                 GemuClock *clk, PciReplaySource *next,
                                 void *opaque)
{
    PciReplay *r = g_new0(PciReplay, 1);

    g_mutex_init(&r->lock);
    r->pci = pci;
    r->as = as;
    r->clk = clk;
    r->next = next;
    r->next_opaque = opaque;
    r->win = g_array_new(FALSE, FALSE, sizeof(GemuRecord));
    r->used = g_array_new(FALSE, TRUE, sizeof(bool));
    if (!as->ram) {
        /* non-NULL: units that check for guest RAM go on to the tap */
        r->empty = guest_ram_new();
        as->ram = r->empty;
    }
    r->tap.read = replay_dma_read;
    r->tap.write = replay_dma_write;
    r->tap.opaque = r;
    as->tap = &r->tap;
    r->old_irq = pci->intx;
    irq_line_connect(&pci->intx, replay_irq, r, 0);
    return r;
}

static int file_next(void *opaque, GemuRecord *rec, GError **errp)
{
    PciReplay *r = opaque;

    if (r->fpos >= r->f->records->len) {
        return 0;
    }
    *rec = g_array_index(r->f->records, GemuRecord, r->fpos++);
    return 1;
}

PciReplay *pci_replay_new(PCIDevice *pci, DmaAddressSpace *as,
                          GemuClock *clk, const GemuRecFile *f)
{
    PciReplay *r = pci_replay_new_source(pci, as, clk, file_next, NULL);

    r->next_opaque = r;
    r->f = f;
    return r;
}

/* Perform one access; false if it cannot be (a malformed recording). */
static bool replay_access(PciReplay *r, const GemuRecord *a)
{
    uint64_t v;

    switch (a->type) {
    case GEMU_REC_BAR_READ:
        v = pci_mmio_read(r->pci, a->addr, a->size);
        if (v != a->val) {
            g_mutex_lock(&r->lock);
            diverge(r, "the card returns 0x%" PRIx64 "; the guest read "
                    "0x%" PRIx64, v, a->val);
            g_mutex_unlock(&r->lock);
        }
        return true;
    case GEMU_REC_BAR_WRITE:
        pci_mmio_write(r->pci, a->addr, a->val, a->size);
        return true;
    case GEMU_REC_CFG_READ:
    case GEMU_REC_CFG_WRITE:
        if (a->size > 4 || a->addr >= PCI_CONFIG_SIZE ||
            a->addr + a->size > PCI_CONFIG_SIZE || (a->addr & (a->size - 1))) {
            return false;
        }
        if (a->type == GEMU_REC_CFG_WRITE) {
            pci_config_write(r->pci, a->addr, a->val, a->size);
            return true;
        }
        v = pci_config_read(r->pci, a->addr, a->size);
        if (v != a->val) {
            g_mutex_lock(&r->lock);
            diverge(r, "config space returns 0x%" PRIx64 "; the guest read "
                    "0x%" PRIx64, v, a->val);
            g_mutex_unlock(&r->lock);
        }
        return true;
    default:        /* GEMU_REC_RESET */
        device_reset(DEVICE(r->pci));
        return true;
    }
}

/* After an action: what the recording has and the card did not do. */
static void check_missing(PciReplay *r)
{
    for (guint i = 0; i < r->ev_end && !r->div; i++) {
        const GemuRecord *e = WIN(r, i);

        if (USED(r, i)) {
            continue;
        }
        if (e->type == GEMU_REC_DMA_READ) {
            diverge(r, "the card no longer reads guest memory at 0x%" PRIx64
                    " (%" PRIu64 " bytes)", e->addr, e->val);
        } else {
            diverge(r, "the card no longer sets INTx to %u", e->size);
        }
    }
}

/*
 * A CLOCK step: the machine jumped to its next timer, so the card's next
 * timer must be there (which also keeps a hostile file from firing a
 * periodic timer for ever); 0 fires what is due now.
 */
static void replay_clock(PciReplay *r, uint64_t ns)
{
    int64_t now = gemu_clock_get_ns(r->clk);
    int64_t next = gemu_clock_next_deadline(r->clk);

    if (ns && (next == INT64_MAX || next - now != (int64_t)ns)) {
        g_mutex_lock(&r->lock);
        if (next == INT64_MAX) {
            diverge(r, "the recording jumps %" PRIu64 " ns to the card's "
                    "next timer; the card has none armed", ns);
        } else {
            diverge(r, "the recording jumps %" PRIu64 " ns to the card's "
                    "next timer; the card's is %" PRId64 " ns away", ns,
                    next - now);
        }
        g_mutex_unlock(&r->lock);
        return;
    }
    gemu_clock_advance(r->clk, ns);
}

/*
 * The next action and its events into r->win; 1, or 0 at the end of
 * the records (END kept), or -2 if the recording is malformed.
 */
static int read_window(PciReplay *r, GError **errp)
{
    GemuRecord rec;
    int st;

    g_array_set_size(r->win, 0);
    while ((st = r->next(r->next_opaque, &rec, errp)) > 0) {
        if (rec.type == GEMU_REC_END) {
            r->end = rec;
            r->has_end = true;
            return 0;
        }
        g_array_append_val(r->win, rec);
        if (!is_event(rec.type)) {
            return 1;
        }
    }
    g_array_set_size(r->win, 0);    /* events no action performs */
    return st < 0 ? -2 : 0;
}

int pci_replay_step(PciReplay *r, GError **errp)
{
    const GemuRecord *a;
    bool ok = true;
    int st;

    if (r->div) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "%s", r->div);
        return -1;
    }
    st = read_window(r, errp);
    if (st <= 0) {
        return st;
    }
    g_mutex_lock(&r->lock);
    r->ev_end = r->win->len - 1;
    g_array_set_size(r->used, 0);
    g_array_set_size(r->used, r->win->len);
    a = WIN(r, r->ev_end);
    r->in_action = true;
    if (is_access(a->type)) {
        r->seq++;
    }
    g_mutex_unlock(&r->lock);
    if (is_access(a->type)) {
        gemu_clock_bus_access(r->clk);
        ok = replay_access(r, a);
    } else {
        replay_clock(r, a->val);
    }
    g_mutex_lock(&r->lock);
    if (!ok) {
        diverge(r, "the recording's %s record at offset %" PRIu64 " cannot "
                "be performed (malformed)", gemu_rec_type_name(a->type),
                a->offset);
    }
    check_missing(r);
    r->in_action = false;
    g_mutex_unlock(&r->lock);
    if (r->div) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "%s", r->div);
        return -1;
    }
    return 1;
}

uint64_t pci_replay_seq(const PciReplay *r)
{
    return r->seq;
}

const GemuRecord *pci_replay_end(const PciReplay *r)
{
    return r->has_end ? &r->end : NULL;
}

void pci_replay_free(PciReplay *r)
{
    if (!r) {
        return;
    }
    r->as->tap = NULL;
    if (r->empty) {
        r->as->ram = NULL;
        guest_ram_free(r->empty);
    }
    irq_line_connect(&r->pci->intx, r->old_irq.notify, r->old_irq.opaque,
                     r->old_irq.n);
    g_array_free(r->win, TRUE);
    g_array_free(r->used, TRUE);
    g_free(r->div);
    g_mutex_clear(&r->lock);
    g_free(r);
}
