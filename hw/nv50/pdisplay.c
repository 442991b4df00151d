/*
 * nv50 PDISPLAY: the G84 display engine as nouveau drives it.
 *
 * The registers at 0x610000 are kept as plain storage with the few
 * behaviours nvkm waits for (output-resource caps, channel states, OR
 * power, DAC load detection).  The EVO DMA channels (core 0, base 1-2,
 * overlay 3-4) fetch their pushbuffer (4 KiB, VRAM or host RAM, as set
 * in 0x610204 + c * 0x10) from GET up to PUT whenever the driver writes
 * PUT in the channel's USER page (0x640000 + c * 0x1000).  Methods are
 * latched into the channel's assembly state; UPDATE copies it to the
 * armed state and writes the completion notifiers through the context
 * DMA objects found in the display RAMHT.
 *
 * UNVERIFIED: everything completes synchronously at the PUT write; no
 * supervisor interrupts are raised (nouveau's DRM only waits on the
 * notifiers, and nvkm's supervisor work only programs clocks and
 * routing that gemu does not model).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define PDISP_BASE              0x610000
#define PDISP_REG(a)            (s->pdisp->regs[((a) - PDISP_BASE) >> 2])

#define NV_PDISP_INTR0          0x610020    /* bits 20:16 chan errors */
#define NV_PDISP_INTR1          0x610024    /* supervisor, vblank */
#define NV_PDISP_INTR0_EN       0x610028
#define NV_PDISP_INTR1_EN       0x61002c
#define NV_PDISP_ERR_ADDR(c)    (0x610080 + (c) * 8)
#define NV_PDISP_ERR_DATA(c)    (0x610084 + (c) * 8)
#define NV_PDISP_INST           0x610010    /* (inst >> 8) | 9 */
#define NV_PDISP_OR_CAPS        0x610184    /* nvkm copies 0x614004 here */
#define NV_PDISP_OR_CAPS_HW     0x614004
#define NV_PDISP_CHAN_CTRL(c)   (0x610200 + (c) * 0x10)
#define NV_PDISP_CHAN_PUSH(c)   (0x610204 + (c) * 0x10)
#define NV_PDISP_DAC_PWR(i)     (0x61a004 + (i) * 0x800)
#define NV_PDISP_DAC_LOAD(i)    (0x61a00c + (i) * 0x800)
#define NV_PDISP_SOR_PWR(i)     (0x61c004 + (i) * 0x800)
#define NV_PDISP_SOR_SEQ(i)     (0x61c030 + (i) * 0x800)
#define NV_PDISP_PIOR_PWR(i)    (0x61e004 + (i) * 0x800)

/* UNVERIFIED: DAC0-2 (bits 20-22) and SOR0-1 (bits 24-25), as nvkm's
 * nv50_dac_cnt/nv50_sor_cnt count them; no PIOR */
#define NV50_DISP_OR_CAPS       0x03700000u

/* DAC load detection: done (bit 31), all three channels loaded (29:27) */
#define NV50_DAC_LOAD_SENSED    0xb8000000u

/* error types as nvkm names them in 0x610080 bits 14:12 */
#define EVO_ERR_PUSHBUFFER      1
#define EVO_ERR_INVALID_ARG     4
#define EVO_ERR_UNRESOLVABLE    7

/* methods shared by the DMA channel classes (cl507d, cl507c, cl507e) */
#define EVO_UPDATE              0x080
#define CORE_NTFY_CONTROL       0x084
#define CORE_NTFY_CTXDMA        0x088
#define CORE_GET_CAPABILITIES   0x08c
#define WNDW_NTFY_CONTROL       0x0a0
#define WNDW_NTFY_CTXDMA        0x0a4

#define EVO_PUSH_SIZE           0x1000
#define EVO_RAMHT_BITS          9       /* 4 KiB RAMHT at the inst start */

#define CORE_NTFY_DONE          0x00000001u
#define BASE_NTFY_BEGUN         0x40000000u

static void pdisp_update_irq(NV50State *s)
{
    bool pend = (PDISP_REG(NV_PDISP_INTR0) & PDISP_REG(NV_PDISP_INTR0_EN)) ||
                (PDISP_REG(NV_PDISP_INTR1) & PDISP_REG(NV_PDISP_INTR1_EN));

    nv50_pmc_set_source(s, NV50_INTR_PDISPLAY, pend);
}

/*
 * A channel error: the channel stops fetching until it is re-enabled,
 * the exception is reported in INTR0 bit 16 + chid with the method and
 * data in 0x610080/0x610084 (the layout nvkm's error handler decodes).
 */
static void evo_error(NV50State *s, int c, int type, uint32_t mthd,
                      uint32_t data, const char *why)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    gemu_log_mask(LOG_GUEST_ERROR, "nv50: EVO channel %d: %s (mthd 0x%03x "
                  "data 0x%08x, GET 0x%03x PUT 0x%03x)\n", c, why, mthd,
                  data, ch->get, ch->put);
    ch->stalled = true;
    PDISP_REG(NV_PDISP_ERR_ADDR(c)) = 0x80000000u | (type << 12) |
                                      (mthd & 0xffc);
    PDISP_REG(NV_PDISP_ERR_DATA(c)) = data;
    PDISP_REG(NV_PDISP_INTR0) |= 0x10000u << c;
    pdisp_update_irq(s);
}

/*
 * Resolve a context DMA handle through the display RAMHT (at the start
 * of the display instance, 0x610010): entries {handle, context} with
 * context = chid << 28 | chid | object offset << 10.  Returns the DMA
 * object's start and limit and whether it targets VRAM.
 */
static bool evo_ctxdma(NV50State *s, int c, uint32_t handle,
                       uint64_t *start, uint64_t *limit, bool *vram)
{
    uint64_t inst = (uint64_t)(PDISP_REG(NV_PDISP_INST) & ~0xffu) << 8;
    uint32_t entries = 1u << EVO_RAMHT_BITS;
    uint32_t hash = 0, h = handle;

    while (h) {
        hash ^= h & (entries - 1);
        h >>= EVO_RAMHT_BITS;
    }
    hash = (hash ^ ((uint32_t)c << (EVO_RAMHT_BITS - 4))) & (entries - 1);
    for (uint32_t i = 0; i < entries; i++) {
        uint32_t e = (hash + i) & (entries - 1);
        uint32_t eh = nv50_vram_rd32(s, inst + e * 8);
        uint32_t ctx = nv50_vram_rd32(s, inst + e * 8 + 4);

        if (eh == handle && (ctx >> 28) == (uint32_t)c) {
            uint64_t obj = inst + (((ctx >> 10) & 0x3ffff));
            uint32_t w0 = nv50_vram_rd32(s, obj);
            uint32_t w3 = nv50_vram_rd32(s, obj + 12);
            uint32_t target = (w0 >> 16) & 3;

            *start = nv50_vram_rd32(s, obj + 8) | (uint64_t)(w3 & 0xff) << 32;
            *limit = nv50_vram_rd32(s, obj + 4) | (uint64_t)(w3 >> 24) << 32;
            if (target == 0) {
                /* a VM ctxdma has no VM on the display side */
                return false;
            }
            *vram = target == 1;
            return true;
        }
        if (eh == 0 && ctx == 0) {
            break;      /* empty slot ends the probe */
        }
    }
    return false;
}

/* Write one notifier word at ctxdma handle + offset. */
static void evo_notify(NV50State *s, int c, uint32_t handle,
                       uint32_t offset, uint32_t val)
{
    uint64_t start, limit;
    bool vram;

    if (!evo_ctxdma(s, c, handle, &start, &limit, &vram)) {
        evo_error(s, c, EVO_ERR_UNRESOLVABLE, EVO_UPDATE, handle,
                  "notifier context DMA handle not in the display RAMHT");
        return;
    }
    if ((uint64_t)offset + 3 > limit) {
        evo_error(s, c, EVO_ERR_INVALID_ARG, EVO_UPDATE, offset,
                  "notifier offset beyond the context DMA limit");
        return;
    }
    if (vram) {
        nv50_vram_wr32(s, start + offset, val);
    } else {
        dma_stl(&s->dma, start + offset, val);
    }
}

/* One method of DMA channel c. */
static void evo_method(NV50State *s, int c, uint32_t mthd, uint32_t data)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    uint32_t *a = ch->assembly;

    a[mthd >> 2] = data;
    if (mthd == EVO_UPDATE) {
        memcpy(ch->armed, ch->assembly, sizeof(ch->armed));
    }
    if (c == 0) {
        uint32_t ctl = a[CORE_NTFY_CONTROL >> 2];
        uint32_t h = a[CORE_NTFY_CTXDMA >> 2];

        if (mthd == EVO_UPDATE) {
            s->pdisp->updates++;
            /* the DAC/SOR owner fields, where nvkm reads the armed state */
            for (int i = 0; i < 3; i++) {
                PDISP_REG(0x610b58 + i * 8) = a[(0x400 + i * 0x80) >> 2];
                PDISP_REG(0x610b5c + i * 8) = a[(0x400 + i * 0x80) >> 2];
            }
            for (int i = 0; i < 2; i++) {
                PDISP_REG(0x610b70 + i * 8) = a[(0x600 + i * 0x40) >> 2];
                PDISP_REG(0x610b74 + i * 8) = a[(0x600 + i * 0x40) >> 2];
            }
        }
        if ((mthd == EVO_UPDATE || mthd == CORE_GET_CAPABILITIES) &&
            (ctl & 0x80000000u) && h) {
            /* word 0: COMPLETION DONE; word 1: CAPABILITIES DONE */
            evo_notify(s, c, h, (ctl & 0xffc) +
                       (mthd == CORE_GET_CAPABILITIES ? 4 : 0),
                       CORE_NTFY_DONE);
        }
    } else if (mthd == EVO_UPDATE && a[WNDW_NTFY_CTXDMA >> 2]) {
        /*
         * UNVERIFIED: the flip is taken at once, so the notifier goes
         * straight to BEGUN (what nouveau waits for) and stays there.
         */
        evo_notify(s, c, a[WNDW_NTFY_CTXDMA >> 2],
                   a[WNDW_NTFY_CONTROL >> 2] & 0xffc, BASE_NTFY_BEGUN);
    }
}

static bool evo_fetch(NV50State *s, int c, uint32_t off, uint32_t *val)
{
    uint32_t push = PDISP_REG(NV_PDISP_CHAN_PUSH(c));
    uint64_t base = (uint64_t)(push & ~3u) << 8;

    switch (push & 3) {
    case 1:
        if (base + off + 4 > s->vram_size) {
            return false;
        }
        *val = nv50_vram_rd32(s, base + off);
        return true;
    case 2:
    case 3:
        if (!s->dma.ram) {
            return false;
        }
        return dma_read(&s->dma, base + off, val, 4);
    default:
        return false;
    }
}

/* Run DMA channel c from GET to PUT (or until an error stops it). */
static void evo_run(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    uint32_t ctrl = PDISP_REG(NV_PDISP_CHAN_CTRL(c));
    unsigned budget = 4 * EVO_PUSH_SIZE;    /* bounds JUMP loops */

    if (!(ctrl & 1) || ch->stalled) {
        return;
    }
    while (ch->get != ch->put) {
        uint32_t hdr, op, count, mthd;

        if (!budget--) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, ch->get,
                      "pushbuffer loops without reaching PUT");
            return;
        }
        if (!evo_fetch(s, c, ch->get, &hdr)) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0,
                      PDISP_REG(NV_PDISP_CHAN_PUSH(c)),
                      "pushbuffer not fetchable");
            return;
        }
        op = hdr >> 29;
        if (op == 1) {                      /* JUMP */
            if (hdr & 0x1ffff003u) {
                evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, hdr,
                          "jump outside the 4 KiB pushbuffer");
                return;
            }
            ch->get = hdr & 0xffc;
            continue;
        }
        if (op == 3) {                      /* subdevice mask: one GPU */
            ch->get = (ch->get + 4) & (EVO_PUSH_SIZE - 1);
            continue;
        }
        if (op != 0 && op != 2) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, 0, hdr, "bad opcode");
            return;
        }
        count = (hdr >> 18) & 0x3ff;
        mthd = hdr & 0xffc;
        if (ch->get + 4 + count * 4 > EVO_PUSH_SIZE) {
            evo_error(s, c, EVO_ERR_PUSHBUFFER, mthd, hdr,
                      "method data runs past the end of the pushbuffer");
            return;
        }
        if (op == 0 && mthd + count * 4 > EVO_PUSH_SIZE) {
            evo_error(s, c, EVO_ERR_INVALID_ARG, mthd, hdr,
                      "method range past the channel's method space");
            return;
        }
        for (uint32_t i = 0; i < count; i++) {
            uint32_t data;

            if (!evo_fetch(s, c, ch->get + 4 + i * 4, &data)) {
                evo_error(s, c, EVO_ERR_PUSHBUFFER, mthd, hdr,
                          "pushbuffer not fetchable");
                return;
            }
            evo_method(s, c, op == 0 ? mthd + i * 4 : mthd, data);
            if (ch->stalled) {
                return;
            }
        }
        ch->get = (ch->get + 4 + count * 4) & (EVO_PUSH_SIZE - 1);
    }
}

void nv50_pdisplay_init(NV50State *s)
{
    s->pdisp = g_new0(NV50PDisplay, 1);
}

void nv50_pdisplay_fini(NV50State *s)
{
    g_clear_pointer(&s->pdisp, g_free);
}

void nv50_pdisplay_reset(NV50State *s)
{
    memset(s->pdisp, 0, sizeof(*s->pdisp));
    PDISP_REG(NV_PDISP_OR_CAPS) = NV50_DISP_OR_CAPS;
    PDISP_REG(NV_PDISP_OR_CAPS_HW) = NV50_DISP_OR_CAPS;
    pdisp_update_irq(s);
}

static bool pdisp_modelled(hwaddr addr)
{
    return (addr >= NV_PDISP_INTR0 && addr <= NV_PDISP_INTR1_EN) ||
           addr == NV_PDISP_INST || addr == NV_PDISP_OR_CAPS ||
           addr == NV_PDISP_OR_CAPS_HW ||
           (addr >= NV_PDISP_CHAN_CTRL(0) && addr < NV_PDISP_CHAN_CTRL(16));
}

uint64_t nv50_pdisplay_read(NV50State *s, hwaddr addr, unsigned size)
{
    if (addr == NV_PDISPLAY_VBIOS_SHADOW) {
        /* bit 3 clear: no VBIOS shadow in VRAM, nvkm skips PRAMIN */
        return 0;
    }
    if (!pdisp_modelled(addr)) {
        nv50_unimp(s, addr, false, 0);
    }
    return PDISP_REG(addr);
}

void nv50_pdisplay_write(NV50State *s, hwaddr addr, uint64_t val,
                         unsigned size)
{
    uint32_t v = val;

    if (!pdisp_modelled(addr)) {
        nv50_unimp(s, addr, true, val);
    }
    if (addr == NV_PDISP_INTR0 || addr == NV_PDISP_INTR1) {
        PDISP_REG(addr) &= ~v;              /* write 1 to clear */
        pdisp_update_irq(s);
        return;
    }
    if (addr == NV_PDISP_INTR0_EN || addr == NV_PDISP_INTR1_EN) {
        PDISP_REG(addr) = v;
        pdisp_update_irq(s);
        return;
    }
    if (addr >= NV_PDISP_CHAN_CTRL(0) && addr < NV_PDISP_CHAN_CTRL(16)
        && !(addr & 0xf)) {
        int c = (addr - NV_PDISP_CHAN_CTRL(0)) / 0x10;
        bool was_on = PDISP_REG(addr) & 1;

        /*
         * Channel control: bit 0 enables.  UNVERIFIED: the state field
         * (bits 17:16) reads 1 while enabled, 0 when not, and the
         * pending bit 31 completes at once (nvkm polls all three).
         */
        v &= ~0x80030000u;
        if (v & 1) {
            v |= 0x00010000u;
        }
        PDISP_REG(addr) = v;
        if (c < NV50_EVO_DMA_CHANNELS && (v & 1) && !was_on) {
            /*
             * UNVERIFIED: enabling restarts fetching at the PUT the
             * driver restored just before, with errors cleared.
             */
            s->pdisp->chan[c].get = s->pdisp->chan[c].put;
            s->pdisp->chan[c].stalled = false;
        }
        return;
    }
    if (addr >= NV_PDISP_DAC_LOAD(0) && addr <= NV_PDISP_DAC_LOAD(2) &&
        ((addr - NV_PDISP_DAC_LOAD(0)) & 0x7ff) == 0) {
        /*
         * Load detection: bit 20 starts a sense with the load value in
         * the low bits; the result reads back at once as "a monitor on
         * every channel".  UNVERIFIED: the exact readback layout.
         */
        if (v & 0x00100000u) {
            v = NV50_DAC_LOAD_SENSED | (v & 0x000fffffu);
        }
        PDISP_REG(addr) = v;
        return;
    }
    if (addr >= NV_PDISP_DAC_PWR(0) && addr <= NV_PDISP_PIOR_PWR(2) + 0x7fc) {
        hwaddr r = (addr - NV_PDISP_DAC_PWR(0)) & 0x7ff;

        if (r == 0) {
            v &= ~0x80000000u;     /* power change done at once */
        } else if (r == NV_PDISP_SOR_SEQ(0) - NV_PDISP_SOR_PWR(0) &&
                   addr >= NV_PDISP_SOR_PWR(0) &&
                   addr < NV_PDISP_PIOR_PWR(0)) {
            v &= ~0x10000000u;     /* SOR sequencer never busy */
        }
    }
    PDISP_REG(addr) = v;
}

/*
 * The USER area: one 4 KiB page per channel.  DMA channels: +0 PUT,
 * +4 GET (byte offsets, bits 11:2).  PIO channels: +8 FREE reads the
 * whole FIFO free (their methods are otherwise accepted and dropped).
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
            return s->pdisp->chan[c].get;
        }
    } else if (c < NV50_EVO_CHANNELS && r == 8) {
        return 0x20;        /* UNVERIFIED: FREE.COUNT 5:0, a full FIFO */
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
        evo_run(s, c);
        return;
    }
    if (c < NV50_EVO_CHANNELS && c >= NV50_EVO_DMA_CHANNELS) {
        s->pdisp->chan[c].assembly[r >> 2] = val;
        return;
    }
    nv50_unimp(s, addr, true, val);
}
