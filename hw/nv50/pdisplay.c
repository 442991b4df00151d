/*
 * nv50 PDISPLAY: the G84 display engine's registers as nouveau 6.1 uses
 * them (nvkm engine/disp/nv50.c, g84.c; dispnv50/): capabilities, the
 * interrupt pair (0x610020/0x610024 with enables 0x610028/0x61002c, to
 * PMC bit 26), channel control (0x610200 + c * 0x10), the supervisor
 * handshake, the heads' raster generators (vblank, scanout position),
 * output resource power and DAC load detection.  The EVO channels
 * themselves are in evo.c.
 *
 * Supervisor: a core UPDATE that modesets a head raises 0x610024 bit 4,
 * then 5, then 6; nvkm acks each bit, reads the heads involved from
 * 0x610030 (0x20 << h active, 0x80 << h modeset, 0x200 << h new pixel
 * clock), does its part and writes 0x610030 = 0x80000000 to go on.
 * After stage 3 the UPDATE is armed.  A stage whose interrupt is not
 * enabled in 0x61002c goes on at once, and one not acked within
 * SUPER_TIMEOUT_NS goes on by itself, so that a modeset completes when
 * the guest does not see interrupts (UNVERIFIED: hardware waits).
 *
 * Raster generator: from the armed core state of a head (pixel clock,
 * raster size = totals, blank start) the beam position is a function of
 * s->clock: line 0 pixel 0 when the mode was armed.  A timer fires at
 * every vblank start: flips waiting for it are taken, the scanout is
 * refreshed (nv50_scanout_vblank) and 0x610024 bit 2 + head is raised
 * if enabled.  0x616340 + head * 0x800 reads the line (15:0) and the
 * vblank count (31:16, UNVERIFIED on G84), latching the pixel for
 * 0x616344 (nvkm's nv50_head_rgpos).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/evo.h"

#define PDISP_REG(a)            (*nv50_pdisp_reg(s, (a)))

#define NV_PDISP_OR_CAPS        0x610184    /* nvkm copies 0x614004 here */
#define NV_PDISP_OR_CAPS_HW     0x614004
#define NV_PDISP_HEAD_CAPS(h)   (0x616100 + (h) * 0x800)    /* 4 words */
#define NV_PDISP_HEAD_VERT(h)   (0x616340 + (h) * 0x800)
#define NV_PDISP_HEAD_HORZ(h)   (0x616344 + (h) * 0x800)
#define NV_PDISP_DAC_CAPS(i)    (0x61a000 + (i) * 0x800)
#define NV_PDISP_DAC_PWR(i)     (0x61a004 + (i) * 0x800)
#define NV_PDISP_DAC_LOAD(i)    (0x61a00c + (i) * 0x800)
#define NV_PDISP_SOR_CAPS(i)    (0x61c000 + (i) * 0x800)
#define NV_PDISP_SOR_PWR(i)     (0x61c004 + (i) * 0x800)
#define NV_PDISP_SOR_SEQ(i)     (0x61c030 + (i) * 0x800)
#define NV_PDISP_PIOR_CAPS(i)   (0x61e000 + (i) * 0x800)
#define NV_PDISP_PIOR_PWR(i)    (0x61e004 + (i) * 0x800)
/* the 0x610xxx copies of the channels' method state (evo-update.c) */
#define NV_PDISP_STATE_START    0x610800
#define NV_PDISP_STATE_END      0x6111c0

#define NV50_DACS               3
#define NV50_SORS               2
#define NV50_PIORS              3

/* UNVERIFIED: DAC0-2 (bits 22:20) and SOR0-1 (bits 25:24), no PIOR */
#define NV50_DISP_OR_CAPS       0x03700000u
/* UNVERIFIED: HEAD_CAP_A USABLE; DAC_CAP RGB; SOR_CAP single TMDS A/B */
#define NV50_HEAD_CAP_A         0x00000001u
#define NV50_DAC_CAP            0x00000001u
#define NV50_SOR_CAP            0x00000300u

/* DAC load detection: done (bit 31), all three channels loaded (29:27) */
#define NV50_DAC_LOAD_SENSED    0xb8000000u

#define SUPER_TIMEOUT_NS        (100 * 1000 * 1000)
#define NS_PER_MS               1000000u

void nv50_pdisp_update_irq(NV50State *s)
{
    bool pend = (PDISP_REG(NV_PDISP_INTR0) & PDISP_REG(NV_PDISP_INTR0_EN)) ||
                (PDISP_REG(NV_PDISP_INTR1) & PDISP_REG(NV_PDISP_INTR1_EN));

    nv50_pmc_set_source(s, NV50_INTR_PDISPLAY, pend);
}

/* ---- supervisor ---- */

/* Raise the next stage the driver listens to, or arm the UPDATE. */
static void super_advance(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;

    while (d->super_stage < 3) {
        uint32_t bit = NV_PDISP_INTR1_SUPER(++d->super_stage);

        if (PDISP_REG(NV_PDISP_INTR1_EN) & bit) {
            PDISP_REG(NV_PDISP_SUPER) = d->super_heads |
                                        NV_PDISP_SUPER_PENDING;
            PDISP_REG(NV_PDISP_INTR1) |= bit;
            nv50_pdisp_update_irq(s);
            gemu_timer_mod(&d->super_timer,
                           gemu_clock_get_ns(s->clock) + SUPER_TIMEOUT_NS);
            return;
        }
    }
    d->super_stage = 0;
    PDISP_REG(NV_PDISP_SUPER) = d->super_heads;
    nv50_evo_core_update_done(s);
}

static void super_ack(NV50State *s, bool timed_out)
{
    NV50PDisplay *d = s->pdisp;
    uint32_t bit = NV_PDISP_INTR1_SUPER(d->super_stage);

    gemu_timer_del(&d->super_timer);
    if (timed_out) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: display supervisor %d not "
                      "acknowledged (0x610030) within %d ms: going on "
                      "(interrupts not serviced?)\n", d->super_stage,
                      SUPER_TIMEOUT_NS / NS_PER_MS);
    }
    /* a late interrupt must not ask for a stage that is over */
    PDISP_REG(NV_PDISP_INTR1) &= ~bit;
    nv50_pdisp_update_irq(s);
    super_advance(s);
}

static void super_timeout(void *opaque)
{
    NV50State *s = opaque;

    if (s->pdisp->super_stage) {
        super_ack(s, true);
    }
}

void nv50_pdisp_super_start(NV50State *s, uint32_t heads)
{
    NV50PDisplay *d = s->pdisp;

    d->super_heads = heads;
    d->super_stage = 0;
    if (!heads) {
        nv50_evo_core_update_done(s);
        return;
    }
    super_advance(s);
}

/* The core channel went away in the middle of a sequence. */
static void super_abort(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;

    if (d->super_stage) {
        gemu_timer_del(&d->super_timer);
        PDISP_REG(NV_PDISP_INTR1) &= ~(NV_PDISP_INTR1_SUPER(1) |
                                       NV_PDISP_INTR1_SUPER(2) |
                                       NV_PDISP_INTR1_SUPER(3));
        PDISP_REG(NV_PDISP_SUPER) = d->super_heads;
        d->super_stage = 0;
        nv50_pdisp_update_irq(s);
    }
}

/* ---- raster generators ---- */

/* Pixels since line 0 pixel 0 (overflow-free for decades). */
static uint64_t raster_pixels(const NV50Raster *r, int64_t now)
{
    uint64_t el = now > r->t0 ? (uint64_t)(now - r->t0) : 0;

    return el / NS_PER_MS * r->khz + el % NS_PER_MS * r->khz / NS_PER_MS;
}

/* The first clock ns at which raster_pixels() >= @px. */
static int64_t raster_time(const NV50Raster *r, uint64_t px)
{
    uint64_t b = px % r->khz;

    return r->t0 + (int64_t)(px / r->khz * NS_PER_MS +
                             (b * NS_PER_MS + r->khz - 1) / r->khz);
}

/* Vblank starts since t0 up to pixel @px. */
static uint64_t raster_frames(const NV50Raster *r, uint64_t px)
{
    uint64_t first = (uint64_t)r->vblank_start * r->htotal;

    return px < first ? 0
           : (px - first) / ((uint64_t)r->htotal * r->vtotal) + 1;
}

static void raster_schedule(NV50State *s, int head, uint64_t frames)
{
    NV50Raster *r = &s->pdisp->raster[head];
    uint64_t px = (uint64_t)r->vblank_start * r->htotal +
                  frames * r->htotal * r->vtotal;

    gemu_timer_mod(&r->timer, raster_time(r, px));
}

static void raster_vblank_head(NV50State *s, int head)
{
    NV50Raster *r = &s->pdisp->raster[head];

    nv50_evo_vblank(s, head);
    nv50_scanout_vblank(s, head);
    if (PDISP_REG(NV_PDISP_INTR1_EN) & NV_PDISP_INTR1_VBLANK(head)) {
        PDISP_REG(NV_PDISP_INTR1) |= NV_PDISP_INTR1_VBLANK(head);
        nv50_pdisp_update_irq(s);
    }
    /* (a flip taken above may have re-armed the head: read it now) */
    if (r->running) {
        raster_schedule(s, head, raster_frames(r, raster_pixels(r,
                                 gemu_clock_get_ns(s->clock))));
    }
}

static void raster_vblank0(void *opaque)
{
    raster_vblank_head(opaque, 0);
}

static void raster_vblank1(void *opaque)
{
    raster_vblank_head(opaque, 1);
}

static void raster_stop(NV50State *s, int head)
{
    NV50Raster *r = &s->pdisp->raster[head];

    if (r->running) {
        r->frames_base += raster_frames(r, raster_pixels(r,
                                        gemu_clock_get_ns(s->clock)));
        r->running = false;
        gemu_timer_del(&r->timer);
        /* flips waiting for a vblank that will not come */
        nv50_evo_vblank(s, head);
    }
}

bool nv50_pdisp_head_running(NV50State *s, int head)
{
    return s->pdisp->raster[head].running;
}

void nv50_pdisp_head_armed(NV50State *s, int head)
{
    NV50Raster *r = &s->pdisp->raster[head];
    const uint32_t *a = s->pdisp->chan[NV50_EVO_CORE].armed;
    uint32_t khz = a[EVO_HEAD(head, HEAD_SET_PIXEL_CLOCK) >> 2] & 0x3fffff;
    uint32_t size = a[EVO_HEAD(head, HEAD_SET_RASTER_SIZE) >> 2];
    uint32_t htotal = size & 0x7fff, vtotal = (size >> 16) & 0x7fff;
    uint32_t vbs = (a[EVO_HEAD(head, HEAD_SET_RASTER_BLANK_START) >> 2] >>
                    16) & 0x7fff;
    uint64_t frame_ns;

    if (!khz || !htotal || !vtotal) {
        raster_stop(s, head);
        return;
    }
    frame_ns = (uint64_t)htotal * vtotal * NS_PER_MS / khz;
    if (frame_ns < NS_PER_MS || frame_ns > 1000 * NS_PER_MS) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: head %d raster %ux%u at "
                      "%u kHz is not a refresh rate from 1 to 1000 Hz: "
                      "head stopped\n", head, htotal, vtotal, khz);
        raster_stop(s, head);
        return;
    }
    vbs %= vtotal;
    if (r->running && r->khz == khz && r->htotal == htotal &&
        r->vtotal == vtotal && r->vblank_start == vbs) {
        return;                     /* same timing: the beam runs on */
    }
    raster_stop(s, head);
    r->running = true;
    r->t0 = gemu_clock_get_ns(s->clock);
    r->khz = khz;
    r->htotal = htotal;
    r->vtotal = vtotal;
    r->vblank_start = vbs;
    raster_schedule(s, head, 0);
}

bool nv50_pdisplay_scanout_pos(NV50State *s, int head, uint32_t *vline,
                               uint32_t *hline, uint64_t *frames)
{
    const NV50Raster *r;
    uint64_t px;

    *vline = *hline = 0;
    *frames = 0;
    if (head < 0 || head >= NV50_HEADS) {
        return false;
    }
    r = &s->pdisp->raster[head];
    *frames = r->frames_base;
    if (!r->running) {
        return false;
    }
    px = raster_pixels(r, gemu_clock_get_ns(s->clock));
    *vline = px / r->htotal % r->vtotal;
    *hline = px % r->htotal;
    *frames += raster_frames(r, px);
    return true;
}

/* ---- life cycle ---- */

static void pdisp_timers_init(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;

    gemu_timer_init(&d->super_timer, s->clock, super_timeout, s);
    gemu_timer_init(&d->raster[0].timer, s->clock, raster_vblank0, s);
    gemu_timer_init(&d->raster[1].timer, s->clock, raster_vblank1, s);
}

static void pdisp_timers_del(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;

    gemu_timer_del(&d->super_timer);
    for (int h = 0; h < NV50_HEADS; h++) {
        gemu_timer_del(&d->raster[h].timer);
    }
}

void nv50_pdisplay_init(NV50State *s)
{
    s->pdisp = g_new0(NV50PDisplay, 1);
    pdisp_timers_init(s);
}

void nv50_pdisplay_fini(NV50State *s)
{
    if (s->pdisp) {
        pdisp_timers_del(s);
        g_clear_pointer(&s->pdisp, g_free);
    }
}

void nv50_pdisplay_reset(NV50State *s)
{
    pdisp_timers_del(s);
    memset(s->pdisp, 0, sizeof(*s->pdisp));
    pdisp_timers_init(s);
    nv50_evo_reset(s);
    PDISP_REG(NV_PDISP_OR_CAPS) = NV50_DISP_OR_CAPS;
    PDISP_REG(NV_PDISP_OR_CAPS_HW) = NV50_DISP_OR_CAPS;
    for (int h = 0; h < NV50_HEADS; h++) {
        PDISP_REG(NV_PDISP_HEAD_CAPS(h)) = NV50_HEAD_CAP_A;
    }
    for (int i = 0; i < NV50_DACS; i++) {
        PDISP_REG(NV_PDISP_DAC_CAPS(i)) = NV50_DAC_CAP;
    }
    for (int i = 0; i < NV50_SORS; i++) {
        PDISP_REG(NV_PDISP_SOR_CAPS(i)) = NV50_SOR_CAP;
    }
    nv50_pdisp_update_irq(s);
}

/* ---- registers ---- */

/* Is @addr the register at @base + i * @stride for some i < @n? */
static bool reg_in(hwaddr addr, hwaddr base, hwaddr stride, int n)
{
    return addr >= base && (addr - base) % stride == 0 &&
           (addr - base) / stride < (hwaddr)n;
}

/* The registers this file gives a meaning (the rest: logged storage). */
static bool pdisp_modelled(hwaddr addr)
{
    return addr == NV_PDISP_INST ||
           (addr >= NV_PDISP_INTR0 && addr <= NV_PDISP_SUPER) ||
           reg_in(addr, NV_PDISP_ERR_ADDR(0), 4, NV50_EVO_CHANNELS * 2) ||
           addr == NV_PDISP_OR_CAPS ||
           /* nvkm's copies of the caps: head, DAC, SOR, PIOR */
           (addr >= 0x610190 && addr < 0x610200) ||
           (addr >= NV_PDISP_CHAN_CTRL(0) &&
            addr < NV_PDISP_CHAN_CTRL(NV50_EVO_CHANNELS)) ||
           (addr >= NV_PDISP_STATE_START && addr < NV_PDISP_STATE_END) ||
           addr == NV_PDISP_OR_CAPS_HW ||
           reg_in(addr & ~0xc, NV_PDISP_HEAD_CAPS(0), 0x800, NV50_HEADS) ||
           reg_in(addr, NV_PDISP_HEAD_VERT(0), 0x800, NV50_HEADS) ||
           reg_in(addr, NV_PDISP_HEAD_HORZ(0), 0x800, NV50_HEADS) ||
           reg_in(addr, NV_PDISP_DAC_CAPS(0), 0x800, NV50_DACS) ||
           reg_in(addr, NV_PDISP_DAC_PWR(0), 0x800, NV50_DACS) ||
           reg_in(addr, NV_PDISP_DAC_LOAD(0), 0x800, NV50_DACS) ||
           reg_in(addr, NV_PDISP_SOR_CAPS(0), 0x800, NV50_SORS) ||
           reg_in(addr, NV_PDISP_SOR_PWR(0), 0x800, NV50_SORS) ||
           reg_in(addr, NV_PDISP_SOR_SEQ(0), 0x800, NV50_SORS) ||
           reg_in(addr, NV_PDISP_PIOR_CAPS(0), 0x800, NV50_PIORS) ||
           reg_in(addr, NV_PDISP_PIOR_PWR(0), 0x800, NV50_PIORS) ||
           addr == NV_PDISPLAY_VBIOS_SHADOW;
}

uint64_t nv50_pdisplay_read(NV50State *s, hwaddr addr, unsigned size)
{
    if (addr == NV_PDISPLAY_VBIOS_SHADOW) {
        /* bit 3 clear: no VBIOS shadow in VRAM, nvkm skips PRAMIN */
        return 0;
    }
    for (int h = 0; h < NV50_HEADS; h++) {
        if (addr == NV_PDISP_HEAD_VERT(h)) {
            uint32_t vline, hline;
            uint64_t frames;

            /* the line read latches the pixel for 0x616344 */
            nv50_pdisplay_scanout_pos(s, h, &vline, &hline, &frames);
            s->pdisp->raster[h].hline_latch = hline;
            return (uint32_t)(frames << 16) | (vline & 0xffff);
        }
        if (addr == NV_PDISP_HEAD_HORZ(h)) {
            return s->pdisp->raster[h].hline_latch;
        }
    }
    if (!pdisp_modelled(addr)) {
        nv50_unimp(s, addr, false, 0);
    }
    return PDISP_REG(addr);
}

static void pdisp_chan_ctrl_write(NV50State *s, int c, uint32_t v)
{
    hwaddr addr = NV_PDISP_CHAN_CTRL(c);
    bool was_on = PDISP_REG(addr) & 1, on = v & 1;

    /*
     * Bit 0 enables the channel.  UNVERIFIED: the state field (17:16)
     * reads 1 while enabled and 0 when not, and the pending bit 31
     * completes at once (nvkm polls all three).
     */
    v &= ~0x80030000u;
    if (on) {
        v |= 0x00010000u;
    }
    PDISP_REG(addr) = v;
    if (on != was_on) {
        if (c == NV50_EVO_CORE && !on) {
            super_abort(s);
        }
        nv50_evo_chan_enable(s, c, on);
    }
}

void nv50_pdisplay_write(NV50State *s, hwaddr addr, uint64_t val,
                         unsigned size)
{
    uint32_t v = val;

    if (!pdisp_modelled(addr)) {
        nv50_unimp(s, addr, true, val);
    }
    switch (addr) {
    case NV_PDISP_INTR0:
    case NV_PDISP_INTR1:
        PDISP_REG(addr) &= ~v;              /* write 1 to clear */
        nv50_pdisp_update_irq(s);
        return;
    case NV_PDISP_INTR0_EN:
    case NV_PDISP_INTR1_EN:
        PDISP_REG(addr) = v;
        nv50_pdisp_update_irq(s);
        return;
    case NV_PDISP_SUPER:
        /* nvkm's "go on" after each stage (nv50_disp_super) */
        if ((v & NV_PDISP_SUPER_PENDING) && s->pdisp->super_stage) {
            super_ack(s, false);
        }
        return;
    }
    if (reg_in(addr, NV_PDISP_ERR_ADDR(0), 8, NV50_EVO_CHANNELS)) {
        int c = (addr - NV_PDISP_ERR_ADDR(0)) / 8;

        /* nvkm writes 0x90000000 once it reported the error */
        PDISP_REG(addr) = v & ~0x80000000u;
        if (c < NV50_EVO_DMA_CHANNELS) {
            nv50_evo_error_ack(s, c);
        }
        return;
    }
    if (reg_in(addr, NV_PDISP_CHAN_CTRL(0), 0x10, NV50_EVO_CHANNELS)) {
        pdisp_chan_ctrl_write(s, (addr - NV_PDISP_CHAN_CTRL(0)) / 0x10, v);
        return;
    }
    if ((addr >= NV_PDISP_STATE_START && addr < NV_PDISP_STATE_END) ||
        reg_in(addr, NV_PDISP_HEAD_VERT(0), 0x800, NV50_HEADS) ||
        reg_in(addr, NV_PDISP_HEAD_HORZ(0), 0x800, NV50_HEADS) ||
        reg_in(addr, NV_PDISP_ERR_DATA(0), 8, NV50_EVO_CHANNELS)) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: PDISPLAY register 0x%06"
                      PRIx64 " is read-only (written 0x%08x)\n", addr, v);
        return;
    }
    if (reg_in(addr, NV_PDISP_DAC_LOAD(0), 0x800, NV50_DACS)) {
        /*
         * Load detection: bit 20 starts a sense with the load value in
         * the low bits; the result reads back at once as "a monitor on
         * every channel".  UNVERIFIED: the exact readback layout.
         */
        if (v & 0x00100000u) {
            v = NV50_DAC_LOAD_SENSED | (v & 0x000fffffu);
        }
    } else if (reg_in(addr, NV_PDISP_DAC_PWR(0), 0x800, NV50_DACS) ||
               reg_in(addr, NV_PDISP_SOR_PWR(0), 0x800, NV50_SORS) ||
               reg_in(addr, NV_PDISP_PIOR_PWR(0), 0x800, NV50_PIORS)) {
        v &= ~0x80000000u;          /* the power change is done at once */
    } else if (reg_in(addr, NV_PDISP_SOR_SEQ(0), 0x800, NV50_SORS)) {
        v &= ~0x10000000u;          /* the SOR sequencer is never busy */
    }
    PDISP_REG(addr) = v;
}
