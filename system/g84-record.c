/*
 * The g84 machine's -clock virtual and -record FILE: the card's time
 * moves by the guest's accesses (hw/core/clock.h's rule) and jumps to
 * the next timer when the guest is idle; everything the guest did to
 * the card goes to FILE (hw/pci/replay.h, block/gemu-rec.h), for
 * gemu-replay.  docs/devel/replay.md.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/nv50_regs.h"
#include "hw/pci/replay.h"
#include "ui/console.h"
#include "g84-record.h"

struct G84Rec {
    NV50State *card;
    GemuClock *clk;
    bool vclock;
    int64_t last_access;        /* host ns of the guest's last access */
    bool polled;                /* the guest's ISR has read PMC_INTR */
    bool stall_said;
    int64_t poll_jumps, idle_jumps;  /* clock jumps: at polls, on host time */
    int64_t frames_ns;          /* the -frames clock under -clock virtual */
    GemuRecWriter *w;
    PciRecorder *rec;
    char *path;
};

static int64_t host_ns(void)
{
    return g_get_monotonic_time() * 1000;
}

bool g84_rec_clock_kind(const MachineOptions *opts, GemuClockKind *kind,
                        GError **errp)
{
    const char *c = opts->clock;

    if (!c) {
        c = opts->record ? "virtual" : "host";
    }
    if (!strcmp(c, "virtual")) {
        *kind = GEMU_CLOCK_VIRTUAL;
    } else if (!strcmp(c, "host")) {
        *kind = GEMU_CLOCK_HOST;
    } else {
        g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "-clock %s: the clock is 'virtual' or 'host'", c);
        return false;
    }
    if (opts->record && *kind != GEMU_CLOCK_VIRTUAL) {
        g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "-record needs -clock virtual (a replay repeats the "
                    "card's time, which a host clock does not record)");
        return false;
    }
    return true;
}

/* -frames under -clock virtual: every changed frame is past the interval */
static int64_t frames_clock(void *opaque)
{
    G84Rec *r = opaque;

    r->frames_ns += (DISPLAY_FRAMES_MIN_INTERVAL_MS + 1) * 1000000LL;
    return r->frames_ns;
}

G84Rec *g84_rec_new(const MachineOptions *opts, NV50State *card,
                    GemuClock *clk, GError **errp)
{
    G84Rec *r = g_new0(G84Rec, 1);

    r->card = card;
    r->clk = clk;
    r->vclock = clk->kind == GEMU_CLOCK_VIRTUAL;
    r->last_access = host_ns();
    if (r->vclock) {
        nv50_engine_set_virtual_clock(card, true);
        display_set_frames_clock(frames_clock, r);
    }
    if (opts->record) {
        GemuRecHeader hdr = {
            .version = GEMU_REC_VERSION,
            .flags = GEMU_REC_F_VIRTUAL_CLOCK,
            .access_ns = clk->access_ns,
            .vram_size = card->vram_size,
        };

        g_strlcpy(hdr.machine, "g84", sizeof(hdr.machine));
        r->w = gemu_rec_writer_open(opts->record, &hdr, errp);
        if (!r->w) {
            g84_rec_free(r);
            return NULL;
        }
        r->path = g_strdup(opts->record);
    }
    return r;
}

static GemuRecType access_type(const MPQemuMsg *msg, uint64_t *addr,
                               unsigned *size, uint64_t *val, uint64_t ret)
{
    switch (msg->cmd) {
    case MPQEMU_CMD_BAR_READ:
    case MPQEMU_CMD_BAR_WRITE:
        *addr = msg->u.bar.addr;
        *size = msg->u.bar.size;
        *val = msg->cmd == MPQEMU_CMD_BAR_READ ? ret : msg->u.bar.val;
        return msg->cmd == MPQEMU_CMD_BAR_READ ? GEMU_REC_BAR_READ
                                               : GEMU_REC_BAR_WRITE;
    case MPQEMU_CMD_PCI_CFGREAD:
    case MPQEMU_CMD_PCI_CFGWRITE:
        *addr = msg->u.conf.addr;
        *size = msg->u.conf.len;
        *val = msg->cmd == MPQEMU_CMD_PCI_CFGREAD ? ret : msg->u.conf.val;
        return msg->cmd == MPQEMU_CMD_PCI_CFGREAD ? GEMU_REC_CFG_READ
                                                  : GEMU_REC_CFG_WRITE;
    default:
        *addr = *val = *size = 0;
        return GEMU_REC_RESET;
    }
}

/*
 * Move the card's clock to its next timer (which fires) and record the
 * step.  The caller knows a timer is armed and awaited.
 */
static void clock_jump(G84Rec *r)
{
    int64_t deadline = gemu_clock_next_deadline(r->clk);
    int64_t delta = MAX(0, deadline - gemu_clock_get_ns(r->clk));

    gemu_clock_advance(r->clk, delta);
    if (r->rec) {
        pci_recorder_clock(r->rec, delta);
    }
}

static bool timer_awaited(G84Rec *r)
{
    return gemu_clock_next_deadline(r->clk) != INT64_MAX &&
           nv50_timer_awaited(r->card);
}

/*
 * An idle poll: the guest's interrupt handler reads PMC_INTR_HOST (nvkm
 * reads it first thing) and nothing is pending while the card has a
 * timer the guest waits for.  Under gemu's guest the handler runs at
 * every timer tick (irqpoll), a point of the guest's own time: with
 * QEMU's -icount that point does not depend on the host, so a jump taken
 * there keeps two runs alike where the host-timed jump would not.
 */
static bool idle_poll(G84Rec *r, const MPQemuMsg *msg)
{
    NV50State *s = r->card;
    hwaddr off;

    if (msg->cmd != MPQEMU_CMD_BAR_READ || msg->u.bar.size != 4 ||
        pci_find_bar(PCI_DEVICE(s), msg->u.bar.addr, &off) != 0 ||
        off != NV_PMC_INTR_HOST) {
        return false;
    }
    r->polled = true;
    return nv50_pmc_read(s, NV_PMC_INTR_HOST, 4) == 0 && timer_awaited(r);
}

static void access_hook(void *opaque, const MPQemuMsg *msg, bool done,
                        uint64_t ret)
{
    G84Rec *r = opaque;
    GemuRecType type;
    uint64_t addr, val;
    unsigned size;

    if (!done) {
        r->last_access = host_ns();
        if (r->vclock && idle_poll(r, msg)) {
            clock_jump(r);
            r->poll_jumps++;
        }
        gemu_clock_bus_access(r->clk);
        return;
    }
    if (r->rec) {
        type = access_type(msg, &addr, &size, &val, ret);
        if (size < 8) {
            val &= (1ull << (8 * size)) - 1;
        }
        pci_recorder_access(r->rec, type, addr, size, val);
    }
}

void g84_rec_attach(G84Rec *r, MPQemuServer *srv)
{
    srv->hook = access_hook;
    srv->hook_opaque = r;
    if (r->w) {
        r->rec = pci_recorder_new(PCI_DEVICE(r->card), &r->card->dma, r->w);
    }
}

int64_t g84_rec_idle_wait(G84Rec *r)
{
    int64_t idle = r->polled ? G84_VCLOCK_STALL_NS : G84_VCLOCK_IDLE_NS;

    if (!r->vclock || !timer_awaited(r)) {
        return INT64_MAX;
    }
    return MAX(0, r->last_access + idle - host_ns());
}

void g84_rec_idle(G84Rec *r)
{
    if (r->w) {
        gemu_rec_flush(r->w);       /* a killed run keeps this much */
    }
    if (!r->vclock || g84_rec_idle_wait(r) > 0) {
        return;
    }
    if (r->polled && !r->stall_said) {
        gemu_log("gemu: g84: -clock virtual: the guest made no access for "
                 "%d s of host time while the card's timer is awaited: the "
                 "clock jumps on host time from here (the run may not "
                 "repeat)\n", G84_VCLOCK_STALL_NS / 1000000000);
        r->stall_said = true;
    }
    clock_jump(r);
    r->idle_jumps++;
    r->last_access = host_ns();     /* the next jump after another wait */
}

bool g84_rec_jumps(const G84Rec *r, int64_t *at_polls, int64_t *host)
{
    if (!r || !r->vclock) {
        return false;
    }
    *at_polls = r->poll_jumps;
    *host = r->idle_jumps;
    return true;
}

bool g84_rec_finish(G84Rec *r, GError **errp)
{
    uint64_t digest, accesses;
    bool ok;

    if (!r || !r->w) {
        return true;
    }
    digest = nv50_state_digest(r->card);
    accesses = pci_recorder_accesses(r->rec);
    pci_recorder_free(r->rec);
    r->rec = NULL;
    ok = gemu_rec_writer_close(r->w, accesses, gemu_clock_get_ns(r->clk),
                               digest, errp);
    r->w = NULL;
    if (ok) {
        gemu_log_mask(LOG_TRACE_MMIO, "g84: -record %s: %" PRIu64
                      " accesses, digest %016" PRIx64 "\n", r->path,
                      accesses, digest);
    }
    return ok;
}

void g84_rec_free(G84Rec *r)
{
    if (!r) {
        return;
    }
    pci_recorder_free(r->rec);
    gemu_rec_writer_abandon(r->w);
    if (r->vclock) {
        display_set_frames_clock(NULL, NULL);
    }
    g_free(r->path);
    g_free(r);
}
