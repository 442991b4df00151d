/*
 * PFIFO: the command channels.  Registers (envytools rnndb
 * fifo/g80_pfifo.xml, docs hw/fifo/dma-pusher.rst and puller.rst; what
 * nvkm does: fifo/nv50.c, g84.c, chang84.c, channv50.c, nv04.c): the
 * channel table 0x2600 (bit 31 enabled; G84: RAMFC >> 8, G80:
 * instance >> 12), the runlist
 * (0x32f4 address >> 12, 0x32ec count, committed by 0x2500 bit 8), INTR
 * 0x2100 (W1C) / INTR_EN 0x2140 -> PMC bit 8, engine context unload
 * 0x32fc, and the state of the channel an error stopped PFIFO on
 * (CACHE1_PUSH1 0x3204 chid, DMA_STATE 0x3228, DMA_PUT/GET 0x3240/0x3244
 * + HIGH 0x3320/0x3328, IB_PUT/GET 0x3330/0x3334, CACHE1 slot 0 at
 * 0x90000/0x90004) as nvkm's DMA_PUSHER and CACHE_ERROR handlers read
 * and rewrite them.  The USER area (BAR0 0xc00000 + chid * 0x2000) takes
 * the kicks.
 *
 * The channels themselves run on the engine thread (pusher.c); this file
 * is the MMIO side and takes s->eng_lock for everything it shares.
 *
 * UNVERIFIED: PFIFO stops entirely (every channel) while an error waits
 * for the driver, and goes on once the INTR bit is acknowledged.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "pfifo.h"
#include "gr/gr.h"

void nv50_pfifo_update_irq(NV50State *s)
{
    nv50_pmc_set_source(s, NV50_INTR_PFIFO,
                        *nv50_pfifo_reg(s, NV_PFIFO_INTR) &
                        *nv50_pfifo_reg(s, NV_PFIFO_INTR_EN));
}

bool nv50_pfifo_chan_enabled(NV50State *s, int chid)
{
    return *nv50_pfifo_reg(s, NV_PFIFO_CTX_TABLE(chid)) & 0x80000000u;
}

/*
 * eng_lock held: the engine resumes after an acknowledged error.  A
 * CACHE_ERROR also stopped the puller (CACHE1_PULL0 bit 0 clear): it goes
 * on only once that is set again, the last thing nvkm's handler does
 * after the acknowledge (it moves CACHE1_GET past the method in between;
 * resuming at the acknowledge let the next error's CACHE1_GET be
 * overwritten, and nvkm read an empty slot).
 */
static void pfifo_resume_after_error(NV50State *s)
{
    NV50PFifo *f = s->pfifo;
    NV50Chan *ch;

    if (f->stalled_chid < 0 ||
        (*nv50_pfifo_reg(s, NV_PFIFO_INTR) & f->stalled_intr)) {
        return;
    }
    if (f->stalled_intr == NV_PFIFO_INTR_CACHE_ERROR &&
        !(*nv50_pfifo_reg(s, NV_PFIFO_CACHE1_PULL0) & 1)) {
        return;
    }
    ch = &f->chan[f->stalled_chid];
    if (f->stalled_intr == NV_PFIFO_INTR_DMA_PUSHER && ch->loaded) {
        /* go on from where the driver left the pusher's registers */
        ch->get = *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_GET) |
                  (uint64_t)(*nv50_pfifo_reg(s, NV_PFIFO_DMA_GET_HIGH) &
                             0xff) << 32;
        ch->put = *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_PUT) |
                  (uint64_t)(*nv50_pfifo_reg(s, NV_PFIFO_DMA_PUT_HIGH) &
                             0xff) << 32;
        if (ch->ib_mode) {
            ch->ib_cur = *nv50_pfifo_reg(s, NV_PFIFO_IB_GET) &
                         ((1u << ch->ib_order) - 1);
            ch->ib_get = ch->ib_cur;
        }
        ch->mcnt = *nv50_pfifo_reg(s, NV_PFIFO_METHOD_COUNT) & 0x7ff;
        if (!ch->mcnt) {
            ch->lenp = false;
        }
        ch->dma_get = ch->get;
    }
    f->stalled_chid = -1;
    f->stalled_intr = 0;
    ch->runnable = true;
    nv50_engine_kick_locked(s);
}

int nv50_pfifo_pick(NV50State *s, bool *parked)
{
    NV50PFifo *f = s->pfifo;

    *parked = false;
    if (f->unload_pending) {
        /* between two slices: no context is in use */
        *nv50_pfifo_reg(s, NV_PFIFO_CTX_UNLOAD) = f->unload_val;
        f->unload_pending = false;
    }
    if (f->stalled_chid >= 0) {
        return -1;
    }
    for (int i = 0; i < NV50_FIFO_CHANNELS; i++) {
        int c = (f->rr + 1 + i) % NV50_FIFO_CHANNELS;
        NV50Chan *ch = &f->chan[c];

        if (!nv50_pfifo_chan_enabled(s, c) || !f->in_runlist[c]) {
            continue;
        }
        if (ch->parked) {
            *parked = true;
            continue;
        }
        if (ch->runnable) {
            f->rr = c;
            return c;
        }
    }
    return -1;
}

void nv50_pfifo_unpark(NV50State *s)
{
    for (int c = 0; c < NV50_FIFO_CHANNELS; c++) {
        NV50Chan *ch = &s->pfifo->chan[c];

        if (ch->parked) {
            ch->parked = false;
            ch->runnable = true;
        }
    }
}

/* --- channel table, runlist, unload (MMIO side) --- */

static void chan_clear(NV50State *s, int chid)
{
    memset(&s->pfifo->chan[chid], 0, sizeof(NV50Chan));
    nv50_pgraph_ctx_drop(s, chid);
}

/*
 * 0x2600 + chid * 4.  A channel set up anew (enabled with another
 * value, or written 0: destroyed, as nvkm does at teardown) starts from
 * its RAMFC again; disabling alone (nvkm's fini) keeps its position.
 */
static void ctx_table_write(NV50State *s, int chid, uint32_t val)
{
    uint32_t *r = nv50_pfifo_reg(s, NV_PFIFO_CTX_TABLE(chid));
    uint32_t old = *r;

    if (val == old) {
        return;
    }
    if (!val || ((val & 0x80000000u) &&
                 (val & 0x7fffffff) != (old & 0x7fffffff))) {
        /*
         * The engine touches a channel's own state only while it runs a
         * slice of it: stop that (abandoning a launch in progress), or
         * nothing at all when it runs another channel.
         */
        bool busy = nv50_engine_running_locked(s, chid);

        if (busy) {
            nv50_engine_pause_locked(s, chid);
        }
        chan_clear(s, chid);
        *r = val;
        if (busy) {
            nv50_engine_resume_locked(s);
        }
        return;
    }
    *r = val;
    s->pfifo->chan[chid].runnable = true;
    nv50_engine_kick_locked(s);
}

/* 0x2500 bit 8: the runlist at 0x32f4 with 0x32ec entries is committed */
static void runlist_commit(NV50State *s)
{
    uint64_t addr = (uint64_t)*nv50_pfifo_reg(s, NV_PFIFO_RUNLIST) << 12;
    uint32_t n = *nv50_pfifo_reg(s, NV_PFIFO_RUNLIST_COUNT);

    memset(s->pfifo->in_runlist, 0, sizeof(s->pfifo->in_runlist));
    if (n > NV50_FIFO_CHANNELS) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO runlist of %u "
                      "entries (at most %u)\n", n, NV50_FIFO_CHANNELS);
        n = NV50_FIFO_CHANNELS;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = nv50_vram_rd32(s, addr + i * 4);

        if (c < NV50_FIFO_CHANNELS) {
            s->pfifo->in_runlist[c] = true;
            s->pfifo->chan[c].runnable = true;
        } else {
            gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO runlist entry %u "
                          "names channel %u\n", i, c);
        }
    }
    nv50_engine_kick_locked(s);
}

/*
 * 0x32fc: unload the engine context of the channel whose instance is
 * the value << 12.  Contexts are gemu's own, so there is nothing to
 * save: the register reads 0xffffffff (busy) until the engine is next
 * between two slices, then the value (nvkm waits up to 2 s for it to be
 * != 0xffffffff and says "unload timeout" otherwise, as it would on a
 * card stuck in a long launch).  The MMIO write never waits.
 */
static void ctx_unload(NV50State *s, uint32_t val)
{
    *nv50_pfifo_reg(s, NV_PFIFO_CTX_UNLOAD) = 0xffffffffu;
    s->pfifo->unload_pending = true;
    s->pfifo->unload_val = val;
    nv50_engine_kick_locked(s);
}

/* --- MMIO: PFIFO 0x002000-0x003fff --- */

void nv50_pfifo_init(NV50State *s)
{
    s->pfifo = g_new0(NV50PFifo, 1);
    s->pfifo->stalled_chid = -1;
}

void nv50_pfifo_reset(NV50State *s)
{
    nv50_engine_pause(s, NV50_ENGINE_ANY);
    g_mutex_lock(&s->eng_lock);
    for (int c = 0; c < NV50_FIFO_CHANNELS; c++) {
        chan_clear(s, c);
    }
    memset(s->pfifo->regs, 0, sizeof(s->pfifo->regs));
    memset(s->pfifo->in_runlist, 0, sizeof(s->pfifo->in_runlist));
    s->pfifo->stalled_chid = -1;
    s->pfifo->stalled_intr = 0;
    s->pfifo->unload_pending = false;
    nv50_pfifo_update_irq(s);
    g_mutex_unlock(&s->eng_lock);
    nv50_engine_resume(s);
}

void nv50_pfifo_fini(NV50State *s)
{
    g_clear_pointer(&s->pfifo, g_free);
}

static bool pfifo_known(hwaddr addr)
{
    switch (addr) {
    case NV_PFIFO_INTR:
    case NV_PFIFO_INTR_EN:
    case NV_PFIFO_CACHES:
    case NV_PFIFO_ENGINE_MASK:
    case NV_PFIFO_CACHE1_PUSH0:
    case NV_PFIFO_CACHE1_PUSH1:
    case NV_PFIFO_CACHE1_DMA_PUSH:
    case NV_PFIFO_CACHE1_DMA_STATE:
    case NV_PFIFO_CACHE1_DMA_PUT:
    case NV_PFIFO_CACHE1_DMA_GET:
    case NV_PFIFO_CACHE1_PULL0:
    case NV_PFIFO_CACHE1_GET:
    case NV_PFIFO_RUNLIST_COUNT:
    case NV_PFIFO_RUNLIST:
    case NV_PFIFO_CTX_UNLOAD:
    case NV_PFIFO_DMA_PUT_HIGH:
    case NV_PFIFO_DMA_GET_HIGH:
    case NV_PFIFO_IB_PUT:
    case NV_PFIFO_IB_GET:
    case NV_PFIFO_METHOD_COUNT:
        return true;
    }
    return addr >= NV_PFIFO_CTX_TABLE(0) &&
           addr < NV_PFIFO_CTX_TABLE(NV50_FIFO_CHANNELS);
}

uint64_t nv50_pfifo_read(NV50State *s, hwaddr addr, unsigned size)
{
    uint32_t v;

    if (!pfifo_known(addr)) {
        nv50_unimp(s, addr, false, 0);
    }
    g_mutex_lock(&s->eng_lock);
    v = *nv50_pfifo_reg(s, addr);
    g_mutex_unlock(&s->eng_lock);
    return v;
}

void nv50_pfifo_write(NV50State *s, hwaddr addr, uint64_t val,
                      unsigned size)
{
    uint32_t *r = nv50_pfifo_reg(s, addr);

    if (!pfifo_known(addr)) {
        nv50_unimp(s, addr, true, val);
    }
    g_mutex_lock(&s->eng_lock);
    if (addr >= NV_PFIFO_CTX_TABLE(0) &&
        addr < NV_PFIFO_CTX_TABLE(NV50_FIFO_CHANNELS)) {
        ctx_table_write(s, (addr - NV_PFIFO_CTX_TABLE(0)) / 4, val);
        g_mutex_unlock(&s->eng_lock);
        return;
    }
    switch (addr) {
    case NV_PFIFO_INTR:
        *r &= ~(uint32_t)val;           /* write 1 to clear */
        nv50_pfifo_update_irq(s);
        pfifo_resume_after_error(s);
        break;
    case NV_PFIFO_INTR_EN:
        *r = val;
        nv50_pfifo_update_irq(s);
        break;
    case NV_PFIFO_CACHES:
        *r = val & 1;
        if (val & 0x100) {
            runlist_commit(s);
        }
        break;
    case NV_PFIFO_CTX_UNLOAD:
        ctx_unload(s, val);
        break;
    case NV_PFIFO_CACHE1_PULL0:
        *r = val;
        pfifo_resume_after_error(s);
        break;
    default:
        *r = val;
        break;
    }
    g_mutex_unlock(&s->eng_lock);
}

/* CACHE1 (0x090000): slot 0 holds the method a CACHE_ERROR stopped on */
uint64_t nv50_pfifo_cache_read(NV50State *s, hwaddr addr, unsigned size)
{
    uint32_t v = 0;

    g_mutex_lock(&s->eng_lock);
    if (addr == NV_PFIFO_CACHE1_METHOD(0)) {
        v = s->pfifo->cache[0];
    } else if (addr == NV_PFIFO_CACHE1_DATA(0)) {
        v = s->pfifo->cache[1];
    }
    g_mutex_unlock(&s->eng_lock);
    return v;
}

void nv50_pfifo_cache_write(NV50State *s, hwaddr addr, uint64_t val,
                            unsigned size)
{
    nv50_unimp(s, addr, true, val);
}

/* --- the USER area (0xc00000 + chid * 0x2000) --- */

static NV50Chan *user_chan(NV50State *s, hwaddr addr, hwaddr *off)
{
    hwaddr rel = addr - NV_USER_BASE;
    unsigned chid = rel / NV_USER_STRIDE;

    *off = rel % NV_USER_STRIDE;
    if (chid == 0 || chid >= NV50_FIFO_CHANNELS - 1) {
        return NULL;            /* 0 is PIO, 127 the inactive channel */
    }
    return &s->pfifo->chan[chid];
}

uint64_t nv50_pfifo_user_read(NV50State *s, hwaddr addr, unsigned size)
{
    hwaddr off;
    NV50Chan *ch = user_chan(s, addr, &off);
    uint32_t v = 0;

    if (!ch) {
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
    g_mutex_lock(&s->eng_lock);
    switch (off) {
    case NV_USER_DMA_PUT:
        v = (uint32_t)ch->dma_put;
        break;
    case NV_USER_DMA_GET:
        /* the whole 40-bit value is read: its high part goes to a shadow */
        v = (uint32_t)ch->dma_get;
        ch->get_high_rs = (ch->dma_get >> 32) & 0xff;
        break;
    case NV_USER_DMA_GET_HIGH:
        v = ch->get_high_rs;
        break;
    case NV_USER_DMA_MGET:
        v = (uint32_t)ch->dma_mget;
        ch->mget_high_rs = ((ch->dma_mget >> 32) & 0xff) |
                           (ch->dma_mget ? 0x80000000u : 0);
        break;
    case NV_USER_DMA_MGET_HIGH:
        v = ch->mget_high_rs;
        break;
    case NV_USER_DMA_PUT_HIGH:
        v = (ch->dma_put >> 32) & 0xff;
        break;
    case NV_USER_REF:
        v = ch->ref;
        break;
    case NV_USER_IB_GET:
        v = ch->ib_get;
        break;
    case NV_USER_IB_PUT:
        v = ch->ib_put;
        break;
    default:
        g_mutex_unlock(&s->eng_lock);
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
    g_mutex_unlock(&s->eng_lock);
    return v;
}

void nv50_pfifo_user_write(NV50State *s, hwaddr addr, uint64_t val,
                           unsigned size)
{
    hwaddr off;
    NV50Chan *ch = user_chan(s, addr, &off);

    if (!ch) {
        nv50_unimp(s, addr, true, val);
        return;
    }
    g_mutex_lock(&s->eng_lock);
    switch (off) {
    case NV_USER_IB_PUT:
        ch->ib_put = val;
        ch->runnable = true;
        nv50_engine_kick_locked(s);
        break;
    case NV_USER_DMA_PUT:
        /* only meaningful outside IB mode; the pusher decides */
        ch->dma_put = (uint64_t)ch->put_high_ws << 32 | (uint32_t)val;
        ch->runnable = true;
        nv50_engine_kick_locked(s);
        break;
    case NV_USER_DMA_PUT_HIGH:
        ch->put_high_ws = val & 0xff;
        break;
    default:
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: write 0x%" PRIx64 " to "
                      "read-only USER+0x%" PRIx64 " of channel %u\n", val,
                      off, (unsigned)((addr - NV_USER_BASE) /
                                      NV_USER_STRIDE));
        break;
    }
    g_mutex_unlock(&s->eng_lock);
}
