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
    const GemuRecFile *f;
    const GemuRecord *rec;      /* f->records' data */
    guint nrec;
    GuestRAM *empty;            /* given to @as if it had no RAM */
    DmaTap tap;
    IRQLine old_irq;
    GMutex lock;                /* taps run on the card's threads */
    guint pos;                  /* next record */
    guint ev_start, ev_end;     /* the events of the action in progress */
    bool in_action;
    bool *used;                 /* per record: an event that happened */
    uint64_t seq;
    const GemuRecord *end;
    char *div;                  /* the first divergence */
};

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
    if (r->in_action && is_access(r->rec[r->pos].type)) {
        r->div = g_strdup_printf("access %" PRIu64 " (%s at 0x%" PRIx64
                                 "): %s", r->seq,
                                 gemu_rec_type_name(r->rec[r->pos].type),
                                 r->rec[r->pos].addr, what);
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
    for (guint i = r->ev_start; i < r->ev_end; i++) {
        const GemuRecord *e = &r->rec[i];

        if (r->used[i] || e->type != type) {
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
    return first < 0 ? NULL : (GemuRecord *)&r->rec[first];
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
        r->used[i] = true;
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
        r->used[i] = true;
    }
    g_mutex_unlock(&r->lock);
}

PciReplay *pci_replay_new(PCIDevice *pci, DmaAddressSpace *as,
                          GemuClock *clk, const GemuRecFile *f)
{
    PciReplay *r = g_new0(PciReplay, 1);

    g_mutex_init(&r->lock);
    r->pci = pci;
    r->as = as;
    r->clk = clk;
    r->f = f;
    r->rec = (const GemuRecord *)f->records->data;
    r->nrec = f->records->len;
    r->used = g_new0(bool, r->nrec + 1);
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
    for (guint i = r->ev_start; i < r->ev_end && !r->div; i++) {
        const GemuRecord *e = &r->rec[i];

        if (r->used[i]) {
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

int pci_replay_step(PciReplay *r, GError **errp)
{
    const GemuRecord *a;
    guint start = r->pos;
    bool ok = true;

    if (r->div) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "%s", r->div);
        return -1;
    }
    while (r->pos < r->nrec && is_event(r->rec[r->pos].type)) {
        r->pos++;
    }
    if (r->pos >= r->nrec || r->rec[r->pos].type == GEMU_REC_END) {
        r->end = r->pos < r->nrec ? &r->rec[r->pos] : NULL;
        r->pos = start;         /* trailing events: nothing performs them */
        return 0;
    }
    a = &r->rec[r->pos];
    g_mutex_lock(&r->lock);
    r->ev_start = start;
    r->ev_end = r->pos;
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
    r->pos++;
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
    return r->end;
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
    g_free(r->used);
    g_free(r->div);
    g_mutex_clear(&r->lock);
    g_free(r);
}
