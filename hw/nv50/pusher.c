/*
 * PFIFO's pusher and puller, on the engine thread: IB entries and
 * pushbuffer words fetched through the channel's pushbuffer DMA object
 * (and so its VM), commands decoded (envytools dma-pusher.rst, pre-GF100
 * forms), the puller's own methods (puller.rst: OBJECT, the G84 and
 * G80-style semaphores, NOTIFY_INTR, REF_CNT, YIELD) executed, and the
 * rest handed to the engine bound to the subchannel (PGRAPH).
 *
 * The channel's command state lives in NV50Chan, so a command may span
 * IB entries and kicks.  Progress (GET, IB_GET, REF) is published under
 * s->eng_lock after every IB entry and every PUSH_CHUNK words.  Errors
 * stop PFIFO the way the hardware does (DMA_PUSHER, CACHE_ERROR with
 * the state nvkm reads) until the driver acknowledges them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "pfifo.h"
#include "gr/gr.h"

#define PUSH_CHUNK              256     /* words read at once */
#define SLICE_WORDS             (64 * 1024)     /* then other channels */

/* puller methods (puller.rst) */
#define MTHD_OBJECT             0x0000
#define MTHD_SEMAPHORE_ADDR_HIGH 0x0010
#define MTHD_SEMAPHORE_ADDR_LOW 0x0014
#define MTHD_SEMAPHORE_SEQUENCE 0x0018
#define MTHD_SEMAPHORE_TRIGGER  0x001c
#define MTHD_NOTIFY_INTR        0x0020
#define MTHD_WRCACHE_FLUSH      0x0024
#define MTHD_REF_CNT            0x0050
#define MTHD_DMA_SEMAPHORE      0x0060
#define MTHD_SEMAPHORE_OFFSET   0x0064
#define MTHD_SEMAPHORE_ACQUIRE  0x0068
#define MTHD_SEMAPHORE_RELEASE  0x006c
#define MTHD_YIELD              0x0080

#define SEM_TRIGGER_ACQUIRE     1
#define SEM_TRIGGER_RELEASE     2
#define SEM_TRIGGER_ACQ_GEQ     4

typedef enum {
    RUN_OK,                     /* go on */
    RUN_STOP,                   /* error or parked: leave the channel */
    RUN_YIELD,                  /* let other channels run */
} RunResult;

static bool is_g80(NV50State *s)
{
    return (s->boot0 >> 20) == 0x050;
}

/* --- errors (eng_lock taken here) --- */

static void stall(NV50State *s, int chid, uint32_t intr)
{
    NV50PFifo *f = s->pfifo;

    f->stalled_chid = chid;
    f->stalled_intr = intr;
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_PUSH1) = chid;
    *nv50_pfifo_reg(s, NV_PFIFO_INTR) |= intr;
    nv50_pfifo_update_irq(s);
}

static void GEMU_PRINTF(4, 5)
pusher_error(NV50State *s, int chid, unsigned type, const char *fmt, ...)
{
    NV50Chan *ch = &s->pfifo->chan[chid];
    g_autofree char *why = NULL;
    uint32_t ib_put;
    va_list ap;

    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_mutex_lock(&s->eng_lock);
    ib_put = ch->ib_put;        /* the MMIO side's: a kick may change it */
    g_mutex_unlock(&s->eng_lock);
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO DMA_PUSHER ch %d: %s (get "
                  "0x%010" PRIx64 " put 0x%010" PRIx64 " ib %u/%u)\n", chid,
                  why, ch->get, ch->put, ch->ib_cur, ib_put);
    g_mutex_lock(&s->eng_lock);
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_GET) = (uint32_t)ch->get;
    *nv50_pfifo_reg(s, NV_PFIFO_DMA_GET_HIGH) = (ch->get >> 32) & 0xff;
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_PUT) = (uint32_t)ch->put;
    *nv50_pfifo_reg(s, NV_PFIFO_DMA_PUT_HIGH) = (ch->put >> 32) & 0xff;
    *nv50_pfifo_reg(s, NV_PFIFO_IB_GET) = ch->ib_cur;
    *nv50_pfifo_reg(s, NV_PFIFO_IB_PUT) = ch->ib_put;
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_STATE) =
        type << 29 | (ch->mcnt ? ch->mcnt << 18 : 0) | ch->subc << 13 |
        (ch->mthd & 0x1ffc);
    *nv50_pfifo_reg(s, NV_PFIFO_METHOD_COUNT) = ch->mcnt;
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_DMA_PUSH) = 0;
    ch->dma_get = ch->get;
    stall(s, chid, NV_PFIFO_INTR_DMA_PUSHER);
    g_mutex_unlock(&s->eng_lock);
}

/* a method the puller cannot deliver: CACHE_ERROR, the method skipped */
static void GEMU_PRINTF(6, 7)
cache_error(NV50State *s, int chid, unsigned subc, uint32_t mthd,
            uint32_t data, const char *fmt, ...)
{
    g_autofree char *why = NULL;
    va_list ap;

    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO CACHE_ERROR ch %d subc %u "
                  "mthd 0x%04x data 0x%08x: %s\n", chid, subc, mthd, data,
                  why);
    g_mutex_lock(&s->eng_lock);
    s->pfifo->cache[0] = subc << 13 | (mthd & 0x1ffc);
    s->pfifo->cache[1] = data;
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_GET) = 0;
    /* the puller stops (bit 0); no SW method (bit 8) */
    *nv50_pfifo_reg(s, NV_PFIFO_CACHE1_PULL0) = 0;
    stall(s, chid, NV_PFIFO_INTR_CACHE_ERROR);
    g_mutex_unlock(&s->eng_lock);
}

/* --- loading a channel --- */

void nv50_chan_locate(NV50State *s, uint32_t entry, uint64_t *inst,
                      uint64_t *ramfc, uint64_t *pd)
{
    if (is_g80(s)) {
        *inst = (uint64_t)(entry & 0x0fffffff) << 12;
        *ramfc = *inst;
        *pd = *inst + 0x1400;
    } else {
        *ramfc = (uint64_t)(entry & 0x00ffffff) << 8;
        *inst = (uint64_t)nv50_vram_rd32(s, *ramfc + 0x98) << 12;
        *pd = *inst + 0x200;
    }
}

static bool chan_load(NV50State *s, int chid, NV50Chan *ch)
{
    uint32_t entry;
    const char *why = NULL;
    uint32_t w48, w80, w54;

    g_mutex_lock(&s->eng_lock);
    entry = *nv50_pfifo_reg(s, NV_PFIFO_CTX_TABLE(chid));
    g_mutex_unlock(&s->eng_lock);
    nv50_chan_locate(s, entry, &ch->inst, &ch->ramfc, &ch->pd);
    w48 = nv50_vram_rd32(s, ch->ramfc + 0x48);
    w54 = nv50_vram_rd32(s, ch->ramfc + 0x54);
    w80 = nv50_vram_rd32(s, ch->ramfc + 0x80);
    if (!nv50_ctxdma_read(s, ch->inst + ((uint64_t)(w48 & 0xffffff) << 4),
                          &ch->push, &why)) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO ch %d: pushbuffer "
                      "object (RAMFC 0x48 = 0x%x): %s\n", chid, w48, why);
    }
    ch->ramht.addr = ch->inst + ((uint64_t)(w80 & 0xffffff) << 4);
    ch->ramht.bits = ((w80 >> 27) & 0x1f) + 9;
    ch->ib_order = (w54 >> 16) & 0x1f;
    ch->ib_mode = ch->ib_order != 0;
    if (!ch->ib_mode) {
        /*
         * UNVERIFIED: a DMA-mode channel starts at the GET RAMFC 0x10
         * holds (early nouveau wrote the pushbuffer's base to 0x08 and
         * 0x10); PUT moves only with USER+0x40.
         */
        ch->get = ch->put = nv50_vram_rd32(s, ch->ramfc + 0x10);
        g_mutex_lock(&s->eng_lock);
        ch->dma_get = ch->get;
        if (!ch->dma_put) {
            ch->dma_put = ch->get;
        }
        g_mutex_unlock(&s->eng_lock);
    }
    ch->ib_base = nv50_vram_rd32(s, ch->ramfc + 0x50) |
                  (uint64_t)(w54 & 0xff) << 32;
    ch->gr = NULL;
    ch->loaded = true;
    if (why) {
        pusher_error(s, chid, NV_PUSHER_MEM_FAULT, "no pushbuffer object");
        return false;
    }
    return true;
}

/* --- semaphores --- */

/* Read (or write) the semaphore word(s); false with a SEMAPHORE error */
static bool sem_rw(NV50State *s, int chid, NV50Chan *ch, uint64_t off,
                   void *buf, size_t len, bool is_write)
{
    NV50CtxDma d;
    const char *why = "no DMA_SEMAPHORE object";
    NV50Fault f;

    if (!ch->sem_dma ||
        !nv50_ctxdma_read(s, ch->inst + ((uint64_t)ch->sem_dma << 4), &d,
                          &why)) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: PFIFO ch %d semaphore: %s\n",
                      chid, why);
        goto error;
    }
    if (nv50_ctxdma_rw(s, &d, ch->pd, off, buf, len, is_write, &f)) {
        return true;
    }
    g_mutex_lock(&s->eng_lock);
    nv50_vm_report_fault(s, NV50_VM_ENGINE_PFIFO, is_write ?
                         NV50_VM_CLIENT_PFIFO_WRITE :
                         NV50_VM_CLIENT_PFIFO_READ, 1, ch->inst, &f);
    g_mutex_unlock(&s->eng_lock);
error:
    g_mutex_lock(&s->eng_lock);
    /* UNVERIFIED: the SEMAPHORE error stops the channel like the others */
    stall(s, chid, NV_PFIFO_INTR_SEMAPHORE);
    g_mutex_unlock(&s->eng_lock);
    return false;
}

/* Check an acquire; true when satisfied (or failed with an error). */
static bool acquire_done(NV50State *s, int chid, NV50Chan *ch, bool *err)
{
    uint64_t off = ch->acq_new_style ? ch->sem_addr : ch->sem_offset;
    uint8_t b[4];
    uint32_t v;

    *err = false;
    if (!sem_rw(s, chid, ch, off, b, 4, false)) {
        *err = true;
        ch->acq = ACQ_NONE;
        return true;
    }
    v = (uint32_t)ldn_le_p(b, 4);
    if (ch->acq == ACQ_EQUAL ? v == ch->acq_value
                             : (int32_t)(v - ch->acq_value) >= 0) {
        ch->acq = ACQ_NONE;
        return true;
    }
    return false;
}

static RunResult sem_acquire(NV50State *s, int chid, NV50Chan *ch,
                             AcquireMode mode, uint32_t value, bool news)
{
    bool err;

    ch->acq = mode;
    ch->acq_value = value;
    ch->acq_new_style = news;
    if (acquire_done(s, chid, ch, &err)) {
        return err ? RUN_STOP : RUN_OK;
    }
    g_mutex_lock(&s->eng_lock);
    ch->parked = true;
    g_mutex_unlock(&s->eng_lock);
    return RUN_STOP;
}

/* A release: the G80 form writes @value, the G84 form the long form. */
static RunResult sem_release(NV50State *s, int chid, NV50Chan *ch,
                             bool news, uint32_t value)
{
    uint8_t b[16];

    /* the card's writes before the release are visible before it */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (!news) {
        stn_le_p(b, 4, value);
        return sem_rw(s, chid, ch, ch->sem_offset, b, 4, true) ? RUN_OK
                                                                : RUN_STOP;
    }
    /* the long form: sequence, 0, PTIMER timestamp (puller.rst) */
    stn_le_p(b, 4, ch->sem_seq);
    stn_le_p(b + 4, 4, 0);
    stn_le_p(b + 8, 8, nv50_ptimer_peek(s));
    return sem_rw(s, chid, ch, ch->sem_addr, b, 16, true) ? RUN_OK
                                                           : RUN_STOP;
}

/* --- the puller --- */

/*
 * The RAMHT context of @handle (a method's data); a miss is CACHE_ERROR
 * NO_HASH on that method.  FIFO RAMHTs hash with channel 0 and match any
 * context (nvkm).
 */
static bool ramht_find(NV50State *s, int chid, NV50Chan *ch, unsigned subc,
                       uint32_t mthd, uint32_t handle, uint32_t *ctx)
{
    if (nv50_ramht_lookup(s, &ch->ramht, 0, handle, 0, 0, ctx)) {
        return true;
    }
    cache_error(s, chid, subc, mthd, handle, "handle not in the channel's "
                "RAMHT (NO_HASH)");
    return false;
}

static RunResult puller_object(NV50State *s, int chid, NV50Chan *ch,
                               unsigned subc, uint32_t handle)
{
    uint32_t ctx;
    unsigned engine;

    if (!ramht_find(s, chid, ch, subc, MTHD_OBJECT, handle, &ctx)) {
        return RUN_STOP;
    }
    engine = NV50_RAMHT_ENGINE(ctx);
    ch->engines[subc] = engine;
    if (engine != NV50_ENGINE_GR) {
        cache_error(s, chid, subc, MTHD_OBJECT, handle, "object of engine "
                    "%u (%s)", engine, engine == NV50_ENGINE_SW ?
                    "software: EMPTY_SUBCHANNEL" : "not modelled");
        return RUN_STOP;
    }
    /* not cached: a PGRAPH reset frees the contexts under the channel */
    ch->gr = nv50_pgraph_ctx(s, chid, ch->inst, ch->pd);
    nv50_pgraph_bind(s, ch->gr, subc, ch->inst +
                     ((uint64_t)NV50_RAMHT_OFS16(ctx) << 4));
    return RUN_OK;
}

static RunResult puller_engine(NV50State *s, int chid, NV50Chan *ch,
                               unsigned subc, uint32_t mthd, uint32_t data)
{
    ch->gr = nv50_pgraph_ctx(s, chid, ch->inst, ch->pd);    /* as above */
    if (ch->engines[subc] != NV50_ENGINE_GR) {
        cache_error(s, chid, subc, mthd, data, "subchannel %s",
                    !ch->gr->subc[subc].obj ? "has no object"
                    : "is bound to a software object");
        return RUN_STOP;
    }
    if (mthd >= 0x180 && mthd < 0x200) {
        uint32_t ctx;

        if (!ramht_find(s, chid, ch, subc, mthd, data, &ctx)) {
            return RUN_STOP;
        }
        data = NV50_RAMHT_OFS16(ctx);
    }
    nv50_pgraph_method(s, ch->gr, subc, mthd, data);
    return RUN_OK;
}

/* The semaphore methods, G84 (0x10-0x1c) and G80 style (0x60-0x6c). */
static RunResult puller_semaphore(NV50State *s, int chid, NV50Chan *ch,
                                  unsigned subc, uint32_t mthd,
                                  uint32_t data)
{
    uint32_t ctx;

    switch (mthd) {
    case MTHD_SEMAPHORE_ADDR_HIGH:
        ch->sem_addr = (ch->sem_addr & 0xffffffffu) |
                       (uint64_t)(data & 0xff) << 32;
        return RUN_OK;
    case MTHD_SEMAPHORE_ADDR_LOW:
        ch->sem_addr = (ch->sem_addr & ~0xffffffffull) | (data & ~3u);
        return RUN_OK;
    case MTHD_SEMAPHORE_SEQUENCE:
        ch->sem_seq = data;
        return RUN_OK;
    case MTHD_SEMAPHORE_TRIGGER:
        switch (data & 7) {
        case SEM_TRIGGER_ACQUIRE:
            return sem_acquire(s, chid, ch, ACQ_EQUAL, ch->sem_seq, true);
        case SEM_TRIGGER_ACQ_GEQ:
            return sem_acquire(s, chid, ch, ACQ_GEQUAL, ch->sem_seq, true);
        case SEM_TRIGGER_RELEASE:
            return sem_release(s, chid, ch, true, 0);
        }
        cache_error(s, chid, subc, mthd, data, "semaphore operation %u",
                    data & 7);
        return RUN_STOP;
    case MTHD_DMA_SEMAPHORE:
        if (!ramht_find(s, chid, ch, subc, mthd, data, &ctx)) {
            return RUN_STOP;
        }
        ch->sem_dma = NV50_RAMHT_OFS16(ctx);
        return RUN_OK;
    case MTHD_SEMAPHORE_OFFSET:
        if (data & 3 || data & 0xffff0000u) {
            cache_error(s, chid, subc, mthd, data, "semaphore offset %s",
                        data & 3 ? "unaligned" : "too large");
            return RUN_STOP;
        }
        ch->sem_offset = data;
        ch->sem_off_valid = true;
        return RUN_OK;
    }
    /* SEMAPHORE_ACQUIRE, SEMAPHORE_RELEASE */
    if (!ch->sem_off_valid) {
        cache_error(s, chid, subc, mthd, data, "semaphore without "
                    "SEMAPHORE_OFFSET (INVALID_STATE)");
        return RUN_STOP;
    }
    if (mthd == MTHD_SEMAPHORE_ACQUIRE) {
        return sem_acquire(s, chid, ch, ACQ_EQUAL, data, false);
    }
    return sem_release(s, chid, ch, false, data);
}

static RunResult puller(NV50State *s, int chid, NV50Chan *ch,
                        unsigned subc, uint32_t mthd, uint32_t data)
{
    if (mthd >= 0x100) {
        return puller_engine(s, chid, ch, subc, mthd, data);
    }
    switch (mthd) {
    case MTHD_OBJECT:
        return puller_object(s, chid, ch, subc, data);
    case MTHD_SEMAPHORE_ADDR_HIGH:
    case MTHD_SEMAPHORE_ADDR_LOW:
    case MTHD_SEMAPHORE_SEQUENCE:
    case MTHD_SEMAPHORE_TRIGGER:
    case MTHD_DMA_SEMAPHORE:
    case MTHD_SEMAPHORE_OFFSET:
    case MTHD_SEMAPHORE_ACQUIRE:
    case MTHD_SEMAPHORE_RELEASE:
        return puller_semaphore(s, chid, ch, subc, mthd, data);
    case MTHD_NOTIFY_INTR:
        g_mutex_lock(&s->eng_lock);
        *nv50_pfifo_reg(s, NV_PFIFO_INTR) |= NV_PFIFO_INTR_NON_STALL;
        nv50_pfifo_update_irq(s);
        g_mutex_unlock(&s->eng_lock);
        return RUN_OK;
    case MTHD_WRCACHE_FLUSH:
        return RUN_OK;          /* writes are never held back */
    case MTHD_REF_CNT:
        /* every earlier method is done: they ran to completion in order */
        g_mutex_lock(&s->eng_lock);
        ch->ref = data;
        g_mutex_unlock(&s->eng_lock);
        return RUN_OK;
    case MTHD_YIELD:
        return RUN_YIELD;
    }
    /* the pusher refuses methods the puller does not know */
    pusher_error(s, chid, NV_PUSHER_INVALID_MTHD, "method 0x%04x on "
                 "subchannel %u", mthd, subc);
    return RUN_STOP;
}

/* --- the pusher --- */

/* Decode one word (GET is already past it); RUN_STOP on an error or a park. */
static RunResult push_word(NV50State *s, int chid, NV50Chan *ch,
                           uint32_t w)
{
    if (ch->lenp) {
        ch->lenp = false;
        ch->mcnt = w & 0xffffff;
        return RUN_OK;
    }
    if (ch->mcnt) {
        uint32_t mthd = ch->mthd;

        if (!ch->ni) {
            ch->mthd += 4;
        }
        ch->mcnt--;
        return puller(s, chid, ch, ch->subc, mthd, w);
    }
    if ((w & 0xe0030003) == 0 || (w & 0xe0030003) == 0x40000000) {
        /* increasing / non-increasing methods */
        ch->mthd = w & 0x1ffc;
        ch->subc = (w >> 13) & 7;
        ch->mcnt = (w >> 18) & 0x7ff;
        ch->ni = w & 0x40000000;
        return RUN_OK;
    }
    if ((w & 0xffff0003) == 0x00030000 && ch->ib_mode) {
        /* long non-increasing methods: the count is the next word */
        ch->mthd = w & 0x1ffc;
        ch->subc = (w >> 13) & 7;
        ch->ni = true;
        ch->lenp = true;
        return RUN_OK;
    }
    if (!ch->ib_mode) {
        if ((w & 0xe0000003) == 0x20000000) {
            ch->get = w & 0x1ffffffc;           /* old jump */
            return RUN_OK;
        }
        if ((w & 3) == 1) {
            ch->get = w & 0xfffffffc;           /* jump */
            return RUN_OK;
        }
        if ((w & 3) == 2) {
            if (ch->subr_active) {
                pusher_error(s, chid, NV_PUSHER_CALL_SUBR_ACTIVE,
                             "call 0x%08x inside a subroutine", w);
                return RUN_STOP;
            }
            ch->subr_return = ch->get;
            ch->subr_active = true;
            ch->get = w & 0xfffffffc;
            return RUN_OK;
        }
        if (w == 0x00020000) {
            if (!ch->subr_active) {
                pusher_error(s, chid, NV_PUSHER_RET_SUBR_INACTIVE,
                             "return outside a subroutine");
                return RUN_STOP;
            }
            ch->get = ch->subr_return;
            ch->subr_active = false;
            return RUN_OK;
        }
    }
    pusher_error(s, chid, NV_PUSHER_INVALID_CMD, "command word 0x%08x", w);
    return RUN_STOP;
}

static void publish(NV50State *s, NV50Chan *ch)
{
    g_mutex_lock(&s->eng_lock);
    ch->dma_get = ch->get;
    if (!ch->nonmain) {
        ch->dma_mget = ch->get;
    }
    ch->ib_get = ch->ib_cur;
    g_mutex_unlock(&s->eng_lock);
}

/* The next IB entry, if any: false when the IB is empty or on an error. */
static bool fetch_ib(NV50State *s, int chid, NV50Chan *ch, bool *err)
{
    uint32_t put;
    uint8_t b[8];
    NV50Fault f;
    uint32_t w0, w1, len;

    *err = false;
    g_mutex_lock(&s->eng_lock);
    put = ch->ib_put & ((1u << ch->ib_order) - 1);
    g_mutex_unlock(&s->eng_lock);
    if (ch->ib_cur == put) {
        return false;
    }
    if (!nv50_ctxdma_rw(s, &ch->push, ch->pd,
                        ch->ib_base + (uint64_t)ch->ib_cur * 8, b, 8,
                        false, &f)) {
        g_mutex_lock(&s->eng_lock);
        nv50_vm_report_fault(s, NV50_VM_ENGINE_PFIFO,
                             NV50_VM_CLIENT_PFIFO_READ, 0, ch->inst, &f);
        g_mutex_unlock(&s->eng_lock);
        pusher_error(s, chid, NV_PUSHER_MEM_FAULT, "IB entry %u at 0x%010"
                     PRIx64 ": %s", ch->ib_cur, f.va,
                     nv50_fault_name(f.reason));
        *err = true;
        return false;
    }
    w0 = (uint32_t)ldn_le_p(b, 4);
    w1 = (uint32_t)ldn_le_p(b + 4, 4);
    len = (w1 >> 10) & 0x1fffff;
    ch->ib_cur = (ch->ib_cur + 1) & ((1u << ch->ib_order) - 1);
    if (!len) {
        pusher_error(s, chid, NV_PUSHER_IB_EMPTY, "IB entry of length 0");
        *err = true;
        return false;
    }
    ch->get = (w0 & ~3u) | (uint64_t)(w1 & 0xff) << 32;
    ch->put = ch->get + (uint64_t)len * 4;
    ch->nonmain = w1 & (1u << 9);
    return true;
}

/* Read and run words until GET reaches PUT; RUN_OK when it did. */
static RunResult run_segment(NV50State *s, int chid, NV50Chan *ch,
                             uint32_t *budget)
{
    uint32_t words[PUSH_CHUNK];

    while (ch->get != ch->put) {
        uint64_t base = ch->get;
        uint64_t n;
        NV50Fault f;

        if (ch->put > ch->get) {
            n = MIN((ch->put - ch->get) / 4, (uint64_t)PUSH_CHUNK);
        } else if (!ch->ib_mode) {
            n = 1;              /* PUT is behind a jump still to come */
        } else {
            n = 0;
        }
        if (!n || (ch->put - ch->get) & 3) {
            pusher_error(s, chid, NV_PUSHER_MEM_FAULT, "PUT 0x%010" PRIx64
                         " is not reachable from GET", ch->put);
            return RUN_STOP;
        }
        if (!nv50_ctxdma_rw(s, &ch->push, ch->pd, base, words, n * 4,
                            false, &f)) {
            g_mutex_lock(&s->eng_lock);
            nv50_vm_report_fault(s, NV50_VM_ENGINE_PFIFO,
                                 NV50_VM_CLIENT_PFIFO_READ, 0, ch->inst, &f);
            g_mutex_unlock(&s->eng_lock);
            pusher_error(s, chid, NV_PUSHER_MEM_FAULT, "pushbuffer read at "
                         "0x%010" PRIx64 ": %s", f.va,
                         nv50_fault_name(f.reason));
            return RUN_STOP;
        }
        for (uint64_t i = 0; i < n; i++) {
            RunResult r;

            if (nv50_engine_aborting(s)) {
                publish(s, ch);
                return RUN_YIELD;   /* a reset or teardown waits */
            }
            ch->get = base + (i + 1) * 4;
            r = push_word(s, chid, ch, (uint32_t)ldn_le_p(&words[i], 4));
            if (r != RUN_OK) {
                publish(s, ch);
                return r;
            }
            if (ch->get != base + (i + 1) * 4) {
                break;          /* a jump: read from the new GET */
            }
        }
        publish(s, ch);
        if (*budget <= n) {
            return RUN_YIELD;
        }
        *budget -= n;
    }
    return RUN_OK;
}

void nv50_pfifo_run(NV50State *s, int chid)
{
    NV50Chan *ch = &s->pfifo->chan[chid];
    uint32_t budget = SLICE_WORDS;
    bool err;

    if (!ch->loaded && !chan_load(s, chid, ch)) {
        return;
    }
    if (ch->acq != ACQ_NONE) {
        if (!acquire_done(s, chid, ch, &err)) {
            g_mutex_lock(&s->eng_lock);
            ch->parked = true;
            g_mutex_unlock(&s->eng_lock);
            return;
        }
        if (err) {
            return;
        }
    }
    for (;;) {
        RunResult r;

        if (!nv50_pgraph_accepting(s)) {
            /* PGRAPH's FIFO access is off (a TLB flush): wait for it */
            g_mutex_lock(&s->eng_lock);
            ch->parked = true;
            g_mutex_unlock(&s->eng_lock);
            return;
        }
        if (ch->get == ch->put) {
            if (ch->ib_mode) {
                if (!fetch_ib(s, chid, ch, &err)) {
                    break;
                }
            } else {
                g_mutex_lock(&s->eng_lock);
                ch->put = ch->dma_put;
                g_mutex_unlock(&s->eng_lock);
                if (ch->get == ch->put) {
                    break;
                }
            }
        }
        r = run_segment(s, chid, ch, &budget);
        if (r == RUN_STOP) {
            return;
        }
        if (r == RUN_YIELD) {
            return;             /* still runnable: others get a turn */
        }
    }
    publish(s, ch);
    g_mutex_lock(&s->eng_lock);
    /* no more work unless a kick came meanwhile */
    if (ch->ib_mode ? (ch->ib_put & ((1u << ch->ib_order) - 1)) ==
                      ch->ib_cur
                    : ch->dma_put == ch->get) {
        ch->runnable = false;
    }
    g_mutex_unlock(&s->eng_lock);
}
