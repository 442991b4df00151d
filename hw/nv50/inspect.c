/*
 * What a developer inspects of a running card (the monitor's "info
 * channels", "info pgraph", "x"/"xp"; include/hw/nv50/inspect.h).
 * Called on the machine's loop, like an MMIO access, never on the
 * engine thread.
 *
 * What the engine thread owns (a channel's pusher state, PGRAPH
 * contexts) is read only with the engine paused; the pause waits a
 * bounded time for the slice in progress, so a guest's endless compute
 * launch cannot hang the monitor: then only what eng_lock guards is
 * shown, and the answer says why.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/inspect.h"
#include "hw/nv50/engine.h"
#include "pfifo.h"
#include "gr/gr.h"

/* how long an inspection waits for the engine to finish its slice */
#define INSPECT_PAUSE_US    (200 * 1000)

static const char *class_name(uint16_t class_id)
{
    const NV50GrClass *c = nv50_gr_class_find(class_id);

    return c ? c->name : "unknown class";
}

/* Each bound subchannel of @gr, with its object's address if @addr. */
static void subchannels(const NV50GrCtx *gr, bool addr, GString *out)
{
    for (unsigned i = 0; gr && i < NV50_GR_SUBCHANNELS; i++) {
        const NV50GrSubchannel *sc = &gr->subc[i];

        if (!sc->obj) {
            continue;
        }
        g_string_append_printf(out, "  subchannel %u: 0x%04x %s", i,
                               sc->class_id, class_name(sc->class_id));
        if (addr) {
            g_string_append_printf(out, " (object at VRAM 0x%" PRIx64 ")",
                                   sc->obj);
        }
        g_string_append_c(out, '\n');
    }
}

/*
 * Take eng_lock and the inspection's bounded pause, and say the
 * engine's state; true if the engine is paused (its own state may be
 * read).  inspect_end() undoes it, saying what was not shown if not.
 */
static bool inspect_begin(NV50State *s, GString *out)
{
    bool paused;

    g_mutex_lock(&s->eng_lock);
    paused = nv50_engine_pause_for_locked(s, INSPECT_PAUSE_US);
    g_string_append_printf(out, "engine: %s\n",
                           nv50_engine_state_locked(s, paused));
    return paused;
}

static void inspect_end(NV50State *s, bool paused, const char *hidden,
                        GString *out)
{
    if (paused) {
        nv50_engine_resume_locked(s);
    } else {
        g_string_append_printf(out, "(the engine did not finish its slice "
                               "within %d ms: %s)\n",
                               INSPECT_PAUSE_US / 1000, hidden);
    }
    g_mutex_unlock(&s->eng_lock);
}

/* eng_lock held, engine paused: what the pusher and PGRAPH hold */
static void chan_engine_state(NV50State *s, int chid, GString *out)
{
    NV50Chan *ch = &s->pfifo->chan[chid];

    if (!ch->loaded) {
        g_string_append(out, "  not loaded yet (the engine has not run "
                        "it since it was set up)\n");
        return;
    }
    if (ch->ib_mode) {
        g_string_append_printf(out, "  IB at 0x%" PRIx64 ", %u entries, "
                               "%u fetched; segment 0x%" PRIx64 "-0x%"
                               PRIx64 "\n", ch->ib_base, 1u << ch->ib_order,
                               ch->ib_cur, ch->get, ch->put);
    } else {
        g_string_append_printf(out, "  DMA mode%s\n",
                               ch->subr_active ? ", in a subroutine" : "");
    }
    if (ch->acq != ACQ_NONE) {
        g_string_append_printf(out, "  waiting: semaphore at VM 0x%" PRIx64
                               " %s 0x%08x\n", ch->sem_addr,
                               ch->acq == ACQ_EQUAL ? "==" : ">=",
                               ch->acq_value);
    }
    subchannels(s->pgraph->ctx[chid], true, out);
}

/* eng_lock held: one channel, if it is set up */
static void chan_info(NV50State *s, int chid, bool paused, GString *out)
{
    NV50PFifo *f = s->pfifo;
    NV50Chan *ch = &f->chan[chid];
    uint32_t entry = *nv50_pfifo_reg(s, NV_PFIFO_CTX_TABLE(chid));
    uint64_t inst, ramfc, pd;

    if (!entry && !f->in_runlist[chid]) {
        return;
    }
    nv50_chan_locate(s, entry, &inst, &ramfc, &pd);
    g_string_append_printf(out, "channel %d: %s%s, instance 0x%" PRIx64
                           ", RAMFC 0x%" PRIx64 ", page directory 0x%"
                           PRIx64 "\n", chid,
                           nv50_pfifo_chan_enabled(s, chid) ? "enabled"
                                                            : "disabled",
                           f->in_runlist[chid] ? ", on the runlist" : "",
                           inst, ramfc, pd);
    g_string_append_printf(out, "  IB GET %u PUT %u, DMA GET 0x%" PRIx64
                           " PUT 0x%" PRIx64 ", REF 0x%08x%s%s\n",
                           ch->ib_get, ch->ib_put, ch->dma_get, ch->dma_put,
                           ch->ref, ch->parked ? ", parked" : "",
                           ch->runnable ? ", has work" : "");
    if (f->stalled_chid == chid) {
        g_string_append_printf(out, "  stopped by an error: PFIFO INTR "
                               "0x%08x, until the driver acknowledges it\n",
                               f->stalled_intr);
    }
    if (paused) {
        chan_engine_state(s, chid, out);
    }
}

void nv50_inspect_channels(NV50State *s, GString *out)
{
    bool paused = inspect_begin(s, out);
    size_t len0 = out->len;

    for (int c = 0; c < NV50_FIFO_CHANNELS; c++) {
        chan_info(s, c, paused, out);
    }
    if (out->len == len0) {
        g_string_append(out, "no channels\n");
    }
    inspect_end(s, paused, "pusher state and bindings not shown; 'stop' "
                "holds it", out);
}

void nv50_inspect_pgraph(NV50State *s, GString *out)
{
    static const struct {
        const char *name;
        hwaddr addr;
    } regs[] = {
        { "INTR", NV_PGRAPH_INTR },
        { "INTR_EN", NV_PGRAPH_INTR_EN },
        { "TRAP", NV_PGRAPH_TRAP },
        { "TRAP_EN", NV_PGRAPH_TRAP_EN },
        { "DATA_ERROR", NV_PGRAPH_DATA_ERROR },
        { "STATUS", NV_PGRAPH_STATUS },
        { "TRAPPED_ADDR", NV_PGRAPH_TRAPPED_ADDR },
        { "TRAPPED_DATA", NV_PGRAPH_TRAPPED_DATA },
        { "FIFO_ACCESS", NV_PGRAPH_FIFO_ACCESS },
        { "CTXCTL_CUR", NV_PGRAPH_CTXCTL_CUR },
        { "CLASS", NV_PGRAPH_CLASS },
    };
    bool paused;
    int n = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(regs); i++) {
        g_string_append_printf(out, "%-13s 0x%06" PRIx64 " = 0x%08" PRIx64
                               "\n", regs[i].name, (uint64_t)regs[i].addr,
                               nv50_pgraph_read(s, regs[i].addr, 4));
    }
    paused = inspect_begin(s, out);
    for (int c = 0; paused && c < NV50_FIFO_CHANNELS; c++) {
        NV50GrCtx *gr = s->pgraph->ctx[c];

        if (gr) {
            n++;
            g_string_append_printf(out, "context of channel %d: instance "
                                   "0x%" PRIx64 ", page directory 0x%"
                                   PRIx64 "\n", c, gr->inst, gr->pd);
            subchannels(gr, false, out);
        }
    }
    if (paused && !n) {
        g_string_append(out, "no PGRAPH contexts\n");
    }
    inspect_end(s, paused, "contexts not shown", out);
}

bool nv50_inspect_read(NV50State *s, int chid, uint64_t addr, void *buf,
                       size_t len, char **err)
{
    uint32_t entry;
    uint64_t inst, ramfc, pd;
    NV50Fault f;

    if (chid < 0) {
        if (addr >= s->vram_size || len > s->vram_size - addr) {
            *err = g_strdup_printf("0x%" PRIx64 "+%zu is outside VRAM "
                                   "(%" PRIu64 " MiB)", addr, len,
                                   s->vram_size >> 20);
            return false;
        }
        return nv50_vram_read(s, addr, buf, len);
    }
    if (chid >= NV50_FIFO_CHANNELS) {
        *err = g_strdup_printf("no channel %d (0-%d)", chid,
                               NV50_FIFO_CHANNELS - 1);
        return false;
    }
    g_mutex_lock(&s->eng_lock);
    entry = *nv50_pfifo_reg(s, NV_PFIFO_CTX_TABLE(chid));
    g_mutex_unlock(&s->eng_lock);
    if (!entry) {
        *err = g_strdup_printf("channel %d is not set up", chid);
        return false;
    }
    nv50_chan_locate(s, entry, &inst, &ramfc, &pd);
    if (!nv50_vm_rw(s, pd, addr, buf, len, false, &f)) {
        *err = g_strdup_printf("channel %d's VM: %s at 0x%" PRIx64, chid,
                               nv50_fault_name(f.reason), f.va);
        return false;
    }
    return true;
}
