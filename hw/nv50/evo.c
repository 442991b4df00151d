/*
 * nv50 EVO channels: the display engine's command channels as nouveau 6.1
 * drives them (nvkm engine/disp/nv50.c, g84.c, chan.c; dispnv50/disp.c,
 * core507d.c, base507c.c, head507d.c, ovly507e.c, curs507a.c).
 *
 * DMA channels (core 0, base 1-2, overlay 3-4) fetch a 4 KiB pushbuffer
 * from VRAM or guest memory (0x610204 + c * 0x10: address >> 8 | target)
 * from GET to PUT whenever the driver writes PUT in the channel's USER
 * page (0x640000 + c * 0x1000).  Words are METHOD / NON_INC headers
 * (count 27:18, method 11:2) followed by their data, JUMP (offset 11:2)
 * or SET_SUBDEVICE_MASK (one GPU here: ignored).  PIO channels (overlay
 * immediate 5-6, cursor 7-8) take their methods as USER-page writes.
 *
 * GET_CAPABILITIES writes notifier word 1 DONE.
 *
 * A malformed stream (bad opcode, JUMP out of the pushbuffer, data past
 * its end, a method the class does not have, a fetch fault, a handle not
 * in the display RAMHT, or no progress towards PUT within two buffers'
 * worth of words) stops the channel: INTR0 bit 16 + chid, 0x610080 +
 * chid * 8 = 0x80000000 | type << 12 | method, 0x610084 = data, as
 * nvkm's nv50_disp_intr_error decodes them.  The driver's ack of
 * 0x610080 lets it go on after the offending word; disabling and
 * re-enabling the channel (nvkm's fini/init) resets it.
 *
 * UNVERIFIED: which errors the hardware detects and the type it gives
 * each; what an ack skips; GET = PUT when a channel is enabled.
 *
 * evo-update.c is what an UPDATE does (evo-int.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/evo-int.h"
#include "hw/nv50/object.h"

#define EVO_PUSH_SIZE           0x1000
#define EVO_RAMHT_BITS          9       /* 4 KiB RAMHT at the inst start */
/* a legal stream reaches PUT within one buffer (plus a JUMP) */
#define EVO_FETCH_BUDGET        (2 * EVO_PUSH_SIZE / 4)

#define EVO_OP_METHOD           0
#define EVO_OP_JUMP             1
#define EVO_OP_NONINC_METHOD    2
#define EVO_OP_SUBDEVICE_MASK   3

#define NTFY_AWAKEN             (1u << 30)

static const char *const evo_chan_names[NV50_EVO_CHANNELS] = {
    "core", "base 0", "base 1", "overlay 0", "overlay 1",
    "overlay-imm 0", "overlay-imm 1", "cursor 0", "cursor 1",
};

/* ---- errors, context DMAs, notifiers ---- */

/*
 * A channel error: a DMA channel stops until the driver acks it (or
 * re-enables the channel) and the error is reported in INTR0 and the
 * channel's 0x610080/0x610084 pair.  @resume is where GET goes on from
 * after the ack.  PIO channels have no stream to stop: the method is
 * dropped and logged (UNVERIFIED: nvkm does not handle their INTR0 bits,
 * so raising them would leave the interrupt pending forever).
 */
static void GEMU_PRINTF(7, 8)
evo_error(NV50State *s, int c, int type, uint32_t mthd, uint32_t data,
          uint32_t resume, const char *fmt, ...)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    g_autofree char *why = NULL;
    va_list ap;

    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: EVO %s channel %d: %s (mthd "
                  "0x%03x data 0x%08x, GET 0x%03x PUT 0x%03x)\n",
                  evo_chan_names[c], c, why, mthd, data, ch->get, ch->put);
    if (c >= NV50_EVO_DMA_CHANNELS) {
        return;
    }
    ch->error = true;
    ch->resume = resume;
    *nv50_pdisp_reg(s, NV_PDISP_ERR_ADDR(c)) = 0x80000000u | type << 12 |
                                               (mthd & 0xffc);
    *nv50_pdisp_reg(s, NV_PDISP_ERR_DATA(c)) = data;
    *nv50_pdisp_reg(s, NV_PDISP_INTR0) |= NV_PDISP_INTR0_ERROR(c);
    nv50_pdisp_update_irq(s);
}

bool nv50_evo_ctxdma(NV50State *s, int chid, uint32_t handle,
                     uint64_t *start, uint64_t *limit, bool *vram)
{
    uint32_t objects = *nv50_pdisp_reg(s, NV_PDISP_INST);
    NV50Ramht ht = {
        .addr = (uint64_t)(objects & ~0xffu) << 8,
        .bits = EVO_RAMHT_BITS,
    };
    const char *why;
    NV50CtxDma d;
    uint32_t ctx;

    if (!handle || !(objects & 1)) {
        return false;           /* 0 is "none"; no display instance */
    }
    /* the display's context word: channel 31:28, object offset << 10 */
    if (!nv50_ramht_lookup(s, &ht, chid, handle, 0xf0000000u,
                           (uint32_t)chid << 28, &ctx) ||
        !nv50_ctxdma_read(s, ht.addr + ((ctx >> 10) & 0x3ffff), &d, &why) ||
        d.class_id != NV_CLASS_DMA_IN_MEMORY) {
        return false;
    }
    if (d.target == NV50_DMA_VM) {
        gemu_log_once(LOG_UNIMP, "nv50-evo", 1, "nv50: EVO context "
                      "DMA with a VM target (not modelled)\n");
        return false;
    }
    *vram = d.target == NV50_DMA_VRAM;
    *start = d.start;
    *limit = d.limit;
    return true;
}

bool nv50_evo_dma_write(NV50State *s, int c, uint32_t mthd, uint32_t handle,
                        uint32_t offset, uint32_t val)
{
    uint64_t start, limit, addr;
    bool vram;

    if (!nv50_evo_ctxdma(s, c, handle, &start, &limit, &vram)) {
        evo_error(s, c, EVO_ERR_UNRESOLVABLE, mthd, handle,
                  s->pdisp->chan[c].get, "context DMA handle 0x%08x is "
                  "not bound to the channel in the display RAMHT",
                  handle);
        return false;
    }
    addr = start + offset;
    if (addr < start || addr + 3 > limit) {
        evo_error(s, c, EVO_ERR_INVALID_ARG, mthd, offset,
                  s->pdisp->chan[c].get, "offset 0x%x is beyond the "
                  "context DMA (0x%" PRIx64 "-0x%" PRIx64 ")", offset,
                  start, limit);
        return false;
    }
    if (vram) {
        nv50_vram_wr32(s, addr, val);
    } else {
        dma_stl(&s->dma, addr, val);
    }
    return true;
}

void nv50_evo_notify(NV50State *s, int c, uint32_t mthd, uint32_t ctl,
                     uint32_t handle, uint32_t word, uint32_t val)
{
    if (nv50_evo_dma_write(s, c, mthd, handle, (ctl & 0xffc) + word * 4,
                           val) &&
        (ctl & NTFY_AWAKEN)) {
        *nv50_pdisp_reg(s, NV_PDISP_INTR0) |= NV_PDISP_INTR0_AWAKEN(c);
        nv50_pdisp_update_irq(s);
    }
}

/* ---- methods ---- */

/* Does the class of channel c have method @m?  UNVERIFIED: the ranges. */
static bool evo_mthd_valid(int c, uint32_t m)
{
    if (c == NV50_EVO_CORE) {
        /* global 0x80-0x8c; DAC 0x400, SOR 0x600, PIOR 0x700, heads */
        return (m >= 0x080 && m <= 0x08c) || m >= 0x400;
    }
    if (c <= NV50_EVO_BASE(1)) {
        return (m >= 0x080 && m < 0x120) || (m >= 0x800 && m < 0x840);
    }
    if (c <= NV50_EVO_OVLY(1)) {
        return (m >= 0x080 && m < 0x120) || (m >= 0x800 && m < 0x820);
    }
    /* cursor: UPDATE, SET_CURSOR_HOT_SPOT_POINT_OUT; oimm: SET_POINT_OUT */
    return m == 0x080 || m == 0x084;
}

static void evo_method(NV50State *s, int c, uint32_t mthd, uint32_t data)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    if (!evo_mthd_valid(c, mthd)) {
        evo_error(s, c, EVO_ERR_RESERVED_METHOD, mthd, data, ch->get,
                  "method 0x%03x does not exist in this channel's class",
                  mthd);
        return;
    }
    gemu_log_mask(LOG_TRACE_METHOD, "nv50: EVO %s mthd 0x%03x = 0x%08x\n",
                  evo_chan_names[c], mthd, data);
    ch->assembly[mthd >> 2] = data;
    nv50_evo_mirror(s, c, mthd, data);
    if (mthd == EVO_UPDATE) {
        nv50_evo_update(s, c, data);
    } else if (c == NV50_EVO_CORE && mthd == CORE_GET_CAPABILITIES) {
        uint32_t ctl = ch->assembly[CORE_SET_NOTIFIER_CONTROL >> 2];

        /* UNVERIFIED: only CAPABILITIES_1 DONE; nouveau reads no more */
        if (ctl & CORE_NTFY_NOTIFY) {
            nv50_evo_notify(s, c, mthd, ctl,
                            ch->assembly[CORE_SET_CONTEXT_DMA_NOTIFIER >> 2],
                            1, CORE_NTFY_DONE);
        }
    }
}

/* ---- the DMA pusher ---- */

static bool evo_fetch(NV50State *s, int c, uint32_t off, uint32_t *val)
{
    uint32_t push = *nv50_pdisp_reg(s, NV_PDISP_CHAN_PUSH(c));
    uint64_t addr = ((uint64_t)(push & ~3u) << 8) + off;
    uint8_t b[4];

    switch (push & 3) {
    case 1:                                 /* VRAM */
        if (addr + 4 > s->vram_size) {
            return false;
        }
        *val = nv50_vram_rd32(s, addr);
        return true;
    case 2:                                 /* NCOH */
    case 3:                                 /* HOST */
        if (!s->dma.ram || !dma_read(&s->dma, addr, b, 4)) {
            return false;
        }
        *val = ldn_le_p(b, 4);
        return true;
    default:
        return false;                       /* not valid */
    }
}

void nv50_evo_run(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    unsigned budget = EVO_FETCH_BUDGET;

    if (c >= NV50_EVO_DMA_CHANNELS || ch->busy) {
        return;     /* re-entered from a completing UPDATE: the loop goes on */
    }
    ch->busy = true;
    while (evo_enabled(s, c) && !ch->error && !ch->update_pending &&
           ch->get != ch->put) {
        uint32_t w, count, op;

        if (!budget--) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, ch->get, ch->put,
                      "%u words fetched without reaching PUT (a JUMP "
                      "loop?)", EVO_FETCH_BUDGET);
            break;
        }
        if (ch->get >= EVO_PUSH_SIZE || !evo_fetch(s, c, ch->get, &w)) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0,
                      *nv50_pdisp_reg(s, NV_PDISP_CHAN_PUSH(c)),
                      ch->get & (EVO_PUSH_SIZE - 4),
                      "pushbuffer fetch at 0x%03x failed", ch->get);
            break;
        }
        if (ch->count) {
            uint32_t m = ch->mthd;

            ch->get += 4;
            ch->count--;
            if (!ch->nonincr) {
                ch->mthd = (ch->mthd + 4) & 0xffc;
            }
            evo_method(s, c, m, w);
            continue;
        }
        op = w >> 29;
        switch (op) {
        case EVO_OP_METHOD:
        case EVO_OP_NONINC_METHOD:
            count = (w >> 18) & 0x3ff;
            if (ch->get + 4 + count * 4 > EVO_PUSH_SIZE) {
                evo_error(s, c, EVO_ERR_PUSHBUFFER, w & 0xffc, w,
                          ch->get + 4, "%u data words at 0x%03x run past "
                          "the end of the pushbuffer", count, ch->get);
                break;
            }
            if (op == EVO_OP_METHOD &&
                (w & 0xffc) + count * 4 > NV50_EVO_METHODS * 4) {
                evo_error(s, c, EVO_ERR_RESERVED_METHOD, w & 0xffc, w,
                          ch->get + 4, "%u methods from 0x%03x run past "
                          "the method space", count, w & 0xffc);
                break;
            }
            ch->mthd = w & 0xffc;
            ch->count = count;
            ch->nonincr = op == EVO_OP_NONINC_METHOD;
            ch->get += 4;
            break;
        case EVO_OP_JUMP:
            if (w & 0x1ffff003u) {
                evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, w, ch->get + 4,
                          "JUMP to 0x%x, outside the 4 KiB pushbuffer",
                          w & 0x1fffffffu);
                break;
            }
            ch->get = w & 0xffc;
            break;
        case EVO_OP_SUBDEVICE_MASK:
            ch->get += 4;
            break;
        default:
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, w, ch->get + 4,
                      "bad opcode %u", op);
            break;
        }
    }
    ch->busy = false;
}

/* ---- channel control, reset, the USER area ---- */

static void evo_chan_clear(NV50EvoChannel *ch)
{
    /* busy stays: a run in progress stops on its own */
    ch->error = false;
    ch->count = 0;
    ch->update_pending = false;
    ch->update_vblank = false;
}

void nv50_evo_chan_enable(NV50State *s, int c, bool on)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    evo_chan_clear(ch);
    if (on) {
        /* UNVERIFIED: fetching restarts at the PUT nvkm restored */
        ch->get = ch->put;
    }
    if (c == NV50_EVO_CORE) {
        s->pdisp->super_chans = 0;
    }
    /* a core UPDATE may have waited for this channel */
    nv50_evo_update_try(s);
}

void nv50_evo_error_ack(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    if (ch->error) {
        ch->error = false;
        ch->get = ch->resume;
        nv50_evo_run(s, c);
    }
}

void nv50_evo_reset(NV50State *s)
{
    for (int c = 0; c < NV50_EVO_CHANNELS; c++) {
        memset(&s->pdisp->chan[c], 0, sizeof(s->pdisp->chan[c]));
    }
}

/*
 * The USER area: one 4 KiB page per channel.  DMA channels: +0 PUT,
 * +4 GET (byte offsets, bits 11:2).  PIO channels: +8 FREE, methods at
 * their offsets.
 */
uint64_t nv50_pdisplay_user_read(NV50State *s, hwaddr addr, unsigned size)
{
    hwaddr off = addr - 0x640000;
    int c = off >> 12;
    hwaddr r = off & 0xfff;

    if (c < NV50_EVO_DMA_CHANNELS) {
        if (r == 0) {
            return s->pdisp->chan[c].put;
        }
        if (r == 4) {
            return s->pdisp->chan[c].get & (EVO_PUSH_SIZE - 4);
        }
    } else if (c < NV50_EVO_CHANNELS && r == 8) {
        /* UNVERIFIED: FREE.COUNT 5:0 of an always-drained FIFO */
        return 0x20;
    }
    nv50_unimp(s, addr, false, 0);
    return 0;
}

void nv50_pdisplay_user_write(NV50State *s, hwaddr addr, uint64_t val,
                              unsigned size)
{
    hwaddr off = addr - 0x640000;
    int c = off >> 12;
    hwaddr r = off & 0xfff;

    if (c < NV50_EVO_DMA_CHANNELS && r == 0) {
        s->pdisp->chan[c].put = val & 0xffc;
        nv50_evo_run(s, c);
        return;
    }
    if (c < NV50_EVO_DMA_CHANNELS && r == 4) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: EVO %s channel: GET is "
                      "read-only (written 0x%" PRIx64 ")\n",
                      evo_chan_names[c], val);
        return;
    }
    if (c >= NV50_EVO_DMA_CHANNELS && c < NV50_EVO_CHANNELS && r >= 0x80) {
        if (!evo_enabled(s, c)) {
            gemu_log_mask(LOG_GUEST_ERROR, "nv50: EVO %s channel is not "
                          "enabled: method 0x%03x dropped\n",
                          evo_chan_names[c], (unsigned)r);
            return;
        }
        evo_method(s, c, r & 0xffc, val);
        return;
    }
    nv50_unimp(s, addr, true, val);
}

