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
 * Methods land in the channel's assembly state (and, like the hardware,
 * in the 0x610xxx state registers nvkm reads: assembly at the register,
 * armed at +4, the g84_disp_*_mthd tables).  UPDATE stops the channel
 * until it completes:
 *  - a core UPDATE waits for the UPDATEs of the channels it interlocks
 *    with (bits 0-3 + 8 * head: cursor, base, overlay, overlay-imm);
 *    if it changes a head's mode or output routing it runs the supervisor
 *    sequence (pdisplay.c); then assembly is copied to armed, the heads'
 *    raster generators follow, and the core notifier is written (word 0
 *    DONE) when SET_NOTIFIER_CONTROL asked for one;
 *  - a base/overlay UPDATE interlocked with the core (bit 0) completes
 *    with that core UPDATE; otherwise at the head's next vblank
 *    (NON_TEARING), or at once (IMMEDIATE, or the head is off), writing
 *    the notifier's STATUS = BEGUN, which is what nouveau waits for
 *    (base: word 0 bits 31:30; overlay: word 3 bits 31:16, cl827e);
 *  - a cursor/overlay-immediate (PIO) UPDATE that is not interlocked
 *    (nouveau's curs507a_update never is) arms at once; scanout.c reads
 *    the cursor channel's armed SET_CURSOR_HOT_SPOT_POINT_OUT at vblank.
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
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/evo.h"
#include "hw/nv50/object.h"

#define EVO_PUSH_SIZE           0x1000
#define EVO_RAMHT_BITS          9       /* 4 KiB RAMHT at the inst start */
/* a legal stream reaches PUT within one buffer (plus a JUMP) */
#define EVO_FETCH_BUDGET        (2 * EVO_PUSH_SIZE / 4)

#define EVO_OP_METHOD           0
#define EVO_OP_JUMP             1
#define EVO_OP_NONINC_METHOD    2
#define EVO_OP_SUBDEVICE_MASK   3

/* methods every channel class has */
#define EVO_UPDATE              0x080
#define EVO_UPDATE_INTERLOCK    (1u << 0)   /* base/ovly/PIO: with core */

/* core channel (cl507d) */
#define CORE_SET_NOTIFIER_CONTROL 0x084     /* NOTIFY 31, AWAKEN 30, 11:2 */
#define CORE_SET_CONTEXT_DMA_NOTIFIER 0x088
#define CORE_GET_CAPABILITIES   0x08c
#define CORE_UPDATE_INHIBIT_INTERRUPTS (1u << 29)
#define CORE_NTFY_NOTIFY        (1u << 31)
#define CORE_NTFY_DONE          0x00000001u

/* base (cl507c/cl827c) and overlay (cl507e/cl827e) channels */
#define WNDW_SET_PRESENT_CONTROL 0x084      /* BEGIN_MODE 9:8 */
#define WNDW_SET_SEMAPHORE_CONTROL 0x088    /* OFFSET 11:2 */
#define WNDW_SET_SEMAPHORE_ACQUIRE 0x08c
#define WNDW_SET_SEMAPHORE_RELEASE 0x090
#define WNDW_SET_CONTEXT_DMA_SEMAPHORE 0x094
#define WNDW_SET_NOTIFIER_CONTROL 0x0a0     /* AWAKEN 30, OFFSET 11:2 */
#define WNDW_SET_CONTEXT_DMA_NOTIFIER 0x0a4
#define BASE_BEGIN_IMMEDIATE    1
#define WNDW_NTFY_BEGUN         0x40000000u /* STATUS 31:30 = BEGUN */
/*
 * The overlay's notifier is another format (cl827e NV_DISP_NOTIFICATION_1,
 * 16 bytes): word 3 = STATUS 31:16 (0x8000 NOT_BEGUN, 0xffff BEGUN, 0
 * FINISHED), PRESENT_COUNT 7:0; nouveau waits for BEGUN there
 * (ovly827e_ntfy_wait_begun).
 */
#define OVLY_NTFY_WORD          3
#define OVLY_NTFY_BEGUN         0xffff0000u

#define NTFY_AWAKEN             (1u << 30)

static const char *const evo_chan_names[NV50_EVO_CHANNELS] = {
    "core", "base 0", "base 1", "overlay 0", "overlay 1",
    "overlay-imm 0", "overlay-imm 1", "cursor 0", "cursor 1",
};

static bool evo_is_wndw(int c)
{
    return c >= NV50_EVO_BASE(0) && c <= NV50_EVO_OVLY(1);
}

static int evo_head(int c)
{
    return c == NV50_EVO_CORE ? -1 : (c - 1) & 1;
}

/* ---- the 0x610xxx copies of the method state (g84.c tables) ---- */

typedef struct EvoMirror {
    uint16_t mthd;
    uint32_t reg;
} EvoMirror;

typedef struct EvoMirrorSet {
    const EvoMirror *list;
    size_t n;
    int count;                  /* instances (DACs, heads, ...) */
    uint32_t mthd_stride;
    uint32_t reg_stride;
} EvoMirrorSet;

static const EvoMirror core_global[] = {
    { 0x084, 0x610bb8 }, { 0x088, 0x610b9c },
};
static const EvoMirror core_dac[] = {
    { 0x400, 0x610b58 }, { 0x404, 0x610bdc }, { 0x420, 0x610bc4 },
};
static const EvoMirror core_sor[] = { { 0x600, 0x610b70 } };
static const EvoMirror core_pior[] = { { 0x700, 0x610b80 } };
static const EvoMirror core_head[] = {
    { 0x800, 0x610ad8 }, { 0x804, 0x610ad0 }, { 0x808, 0x610a48 },
    { 0x80c, 0x610a78 }, { 0x810, 0x610ac0 }, { 0x814, 0x610af8 },
    { 0x818, 0x610b00 }, { 0x81c, 0x610ae8 }, { 0x820, 0x610af0 },
    { 0x824, 0x610b08 }, { 0x828, 0x610b10 }, { 0x82c, 0x610a68 },
    { 0x830, 0x610a60 }, { 0x838, 0x610a40 }, { 0x840, 0x610a24 },
    { 0x844, 0x610a2c }, { 0x848, 0x610aa8 }, { 0x84c, 0x610ab0 },
    { 0x85c, 0x610c5c }, { 0x860, 0x610a84 }, { 0x864, 0x610a90 },
    { 0x868, 0x610b18 }, { 0x86c, 0x610b20 }, { 0x870, 0x610ac8 },
    { 0x874, 0x610a38 }, { 0x878, 0x610c50 }, { 0x880, 0x610a58 },
    { 0x884, 0x610a9c }, { 0x89c, 0x610c68 }, { 0x8a0, 0x610a70 },
    { 0x8a4, 0x610a50 }, { 0x8a8, 0x610ae0 }, { 0x8c0, 0x610b28 },
    { 0x8c4, 0x610b30 }, { 0x8c8, 0x610b40 }, { 0x8d4, 0x610b38 },
    { 0x8d8, 0x610b48 }, { 0x8dc, 0x610b50 }, { 0x900, 0x610a18 },
    { 0x904, 0x610ab8 }, { 0x910, 0x610c70 }, { 0x914, 0x610c78 },
};
/* nvkm lists 0x84-0x90 at 0x0008xx, outside PDISPLAY: not copied */
static const EvoMirror base_state[] = {
    { 0x094, 0x610884 }, { 0x0a0, 0x6108a0 }, { 0x0a4, 0x610878 },
    { 0x0c0, 0x61086c }, { 0x0c4, 0x610800 }, { 0x0c8, 0x61080c },
    { 0x0cc, 0x610818 }, { 0x0e0, 0x610858 }, { 0x0e4, 0x610860 },
    { 0x0e8, 0x6108ac }, { 0x0ec, 0x6108b4 }, { 0x0fc, 0x610824 },
    { 0x100, 0x610894 }, { 0x104, 0x61082c }, { 0x110, 0x6108bc },
    { 0x114, 0x61088c }, { 0x800, 0x6108f0 }, { 0x804, 0x6108fc },
    { 0x808, 0x61090c }, { 0x80c, 0x610914 }, { 0x810, 0x610904 },
};
static const EvoMirror ovly_state[] = {
    { 0x084, 0x6109a0 }, { 0x088, 0x6109c0 }, { 0x08c, 0x6109c8 },
    { 0x090, 0x6109b4 }, { 0x094, 0x610970 }, { 0x0a0, 0x610998 },
    { 0x0a4, 0x610964 }, { 0x0c0, 0x610958 }, { 0x0e0, 0x6109a8 },
    { 0x0e4, 0x6109d0 }, { 0x0e8, 0x6109d8 }, { 0x100, 0x61094c },
    { 0x104, 0x610984 }, { 0x108, 0x61098c }, { 0x800, 0x6109f8 },
    { 0x808, 0x610a08 }, { 0x80c, 0x610a10 }, { 0x810, 0x610a00 },
};

#define MIRROR(l, cnt, ms, rs)  { l, ARRAY_SIZE(l), cnt, ms, rs }

static const EvoMirrorSet core_sets[] = {
    MIRROR(core_global, 1, 0, 0),
    MIRROR(core_dac, 3, 0x80, 8),
    MIRROR(core_sor, 2, 0x40, 8),
    MIRROR(core_pior, 3, 0x40, 8),
    MIRROR(core_head, NV50_HEADS, 0x400, 0x540),
};
static const EvoMirrorSet base_sets[] = { MIRROR(base_state, 1, 0, 0) };
static const EvoMirrorSet ovly_sets[] = { MIRROR(ovly_state, 1, 0, 0) };

/* The state-register sets of channel c and their per-head offset. */
static const EvoMirrorSet *evo_mirror_sets(int c, size_t *n, hwaddr *off)
{
    *off = 0;
    if (c == NV50_EVO_CORE) {
        *n = ARRAY_SIZE(core_sets);
        return core_sets;
    }
    *off = evo_head(c) * 0x540;
    if (c <= NV50_EVO_BASE(1)) {
        *n = ARRAY_SIZE(base_sets);
        return base_sets;
    }
    if (c <= NV50_EVO_OVLY(1)) {
        *n = ARRAY_SIZE(ovly_sets);
        return ovly_sets;
    }
    *n = 0;
    return NULL;
}

/* Copy method @mthd's data to its state register (+4: the armed copy). */
static void evo_mirror(NV50State *s, int c, uint32_t mthd, uint32_t data,
                       bool armed)
{
    size_t n;
    hwaddr off;
    const EvoMirrorSet *sets = evo_mirror_sets(c, &n, &off);

    for (size_t i = 0; i < n; i++) {
        const EvoMirrorSet *set = &sets[i];

        for (int k = 0; k < set->count; k++) {
            for (size_t e = 0; e < set->n; e++) {
                if (set->list[e].mthd + k * set->mthd_stride == mthd) {
                    *nv50_pdisp_reg(s, set->list[e].reg + off +
                                    k * set->reg_stride +
                                    (armed ? 4 : 0)) = data;
                }
            }
        }
    }
}

static void evo_mirror_armed(NV50State *s, int c)
{
    const uint32_t *armed = s->pdisp->chan[c].armed;
    size_t n;
    hwaddr off;
    const EvoMirrorSet *sets = evo_mirror_sets(c, &n, &off);

    for (size_t i = 0; i < n; i++) {
        const EvoMirrorSet *set = &sets[i];

        for (int k = 0; k < set->count; k++) {
            for (size_t e = 0; e < set->n; e++) {
                uint32_t m = set->list[e].mthd + k * set->mthd_stride;

                *nv50_pdisp_reg(s, set->list[e].reg + off +
                                k * set->reg_stride + 4) = armed[m >> 2];
            }
        }
    }
}

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

/*
 * Write one word of a notifier or semaphore: byte @offset of context
 * DMA @handle.  False with a channel error (blamed on @mthd) if the
 * handle or the offset is bad.
 */
static bool evo_dma_write(NV50State *s, int c, uint32_t mthd,
                          uint32_t handle, uint32_t offset, uint32_t val)
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

/* A notifier write; AWAKEN mode also raises INTR0 bit chid. */
static void evo_notify(NV50State *s, int c, uint32_t mthd, uint32_t ctl,
                       uint32_t handle, uint32_t word, uint32_t val)
{
    if (evo_dma_write(s, c, mthd, handle, (ctl & 0xffc) + word * 4, val) &&
        (ctl & NTFY_AWAKEN)) {
        *nv50_pdisp_reg(s, NV_PDISP_INTR0) |= NV_PDISP_INTR0_AWAKEN(c);
        nv50_pdisp_update_irq(s);
    }
}

/* ---- UPDATE ---- */

static void evo_run(NV50State *s, int c);

/* The channels a core UPDATE's interlock bits name. */
static uint32_t evo_interlocked(uint32_t data)
{
    uint32_t chans = 0;

    for (int h = 0; h < NV50_HEADS; h++) {
        uint32_t bits = data >> (8 * h);

        chans |= (bits & 1 ? 1u << NV50_EVO_CURS(h) : 0) |
                 (bits & 2 ? 1u << NV50_EVO_BASE(h) : 0) |
                 (bits & 4 ? 1u << NV50_EVO_OVLY(h) : 0) |
                 (bits & 8 ? 1u << NV50_EVO_OIMM(h) : 0);
    }
    return chans;
}

static bool evo_enabled(NV50State *s, int c)
{
    return *nv50_pdisp_reg(s, NV_PDISP_CHAN_CTRL(c)) & 1;
}

/*
 * The 0x610030 bits of a core UPDATE: a head whose mode (pixel clock,
 * control, raster) changes, or that an output resource is attached to
 * or detached from, is modeset; it was active if its raster runs; its
 * VPLL must be set if the pixel clock changes.  UNVERIFIED: which
 * changes the hardware counts as a modeset.
 */
static uint32_t evo_super_heads(NV50State *s)
{
    static const uint16_t mode_mthds[] = {
        HEAD_SET_PIXEL_CLOCK, HEAD_SET_CONTROL, HEAD_SET_RASTER_SIZE,
        HEAD_SET_RASTER_SYNC_END, HEAD_SET_RASTER_BLANK_END,
        HEAD_SET_RASTER_BLANK_START, HEAD_SET_RASTER_VERT_BLANK2,
        HEAD_SET_RASTER_VERT_BLANK_DMI,
    };
    static const struct { uint16_t base, stride; int n; } ors[] = {
        { 0x400, 0x80, 3 }, { 0x600, 0x40, 2 }, { 0x700, 0x40, 3 },
    };
    const NV50EvoChannel *core = &s->pdisp->chan[NV50_EVO_CORE];
    const uint32_t *a = core->assembly, *r = core->armed;
    uint32_t heads = 0;

    if (core->update_data & CORE_UPDATE_INHIBIT_INTERRUPTS) {
        return 0;
    }
    for (int h = 0; h < NV50_HEADS; h++) {
        bool modeset = false;
        uint32_t clk = EVO_HEAD(h, HEAD_SET_PIXEL_CLOCK) >> 2;

        for (size_t i = 0; i < ARRAY_SIZE(mode_mthds); i++) {
            uint32_t m = EVO_HEAD(h, mode_mthds[i]) >> 2;

            modeset |= a[m] != r[m];
        }
        for (size_t i = 0; i < ARRAY_SIZE(ors); i++) {
            for (int k = 0; k < ors[i].n; k++) {
                uint32_t m = (ors[i].base + k * ors[i].stride) >> 2;

                /* OWNER 3:0: bit h is head h */
                modeset |= a[m] != r[m] && ((a[m] | r[m]) & (1u << h));
            }
        }
        if (!modeset) {
            continue;
        }
        heads |= NV_PDISP_SUPER_MODESET(h);
        if (nv50_pdisp_head_running(s, h)) {
            heads |= NV_PDISP_SUPER_ACTIVE(h);
        }
        if ((a[clk] & 0x3fffff) && (a[clk] & 0x3fffff) !=
                                   (r[clk] & 0x3fffff)) {
            heads |= NV_PDISP_SUPER_VCLK(h);
        }
    }
    return heads;
}

/* A base, overlay or PIO channel's UPDATE takes effect. */
static void evo_chan_update_done(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    const uint32_t *a = ch->assembly;

    memcpy(ch->armed, ch->assembly, sizeof(ch->armed));
    evo_mirror_armed(s, c);
    ch->update_pending = false;
    ch->update_vblank = false;
    if (evo_is_wndw(c)) {
        if (a[WNDW_SET_CONTEXT_DMA_SEMAPHORE >> 2]) {
            /* UNVERIFIED: ACQUIRE is taken as met; nouveau sets none */
            gemu_log_once(LOG_UNIMP, "nv50-evo", 2, "nv50: EVO flip "
                          "semaphore acquire not modelled (released "
                          "only)\n");
            evo_dma_write(s, c, EVO_UPDATE,
                          a[WNDW_SET_CONTEXT_DMA_SEMAPHORE >> 2],
                          a[WNDW_SET_SEMAPHORE_CONTROL >> 2] & 0xffc,
                          a[WNDW_SET_SEMAPHORE_RELEASE >> 2]);
        }
        if (ch->update_ntfy_dma) {
            bool ovly = c == NV50_EVO_OVLY(0) || c == NV50_EVO_OVLY(1);

            evo_notify(s, c, EVO_UPDATE, ch->update_ntfy_ctl,
                       ch->update_ntfy_dma, ovly ? OVLY_NTFY_WORD : 0,
                       ovly ? OVLY_NTFY_BEGUN : WNDW_NTFY_BEGUN);
        }
    }
    evo_run(s, c);
}

/* A non-interlocked base/overlay/PIO UPDATE: now or at the vblank. */
static void evo_chan_update_begin(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];
    uint32_t mode = (ch->assembly[WNDW_SET_PRESENT_CONTROL >> 2] >> 8) & 3;

    /*
     * Base NON_TEARING/ON_LINE and overlay ASAP/TIMESTAMP flips are taken
     * at the vblank (UNVERIFIED: MIN_PRESENT_INTERVAL and the line or
     * timestamp are not honoured); a head that does not scan out takes
     * them at once.
     */
    if (evo_is_wndw(c) &&
        !(c <= NV50_EVO_BASE(1) && mode == BASE_BEGIN_IMMEDIATE) &&
        nv50_pdisp_head_running(s, evo_head(c))) {
        ch->update_vblank = true;
        return;
    }
    evo_chan_update_done(s, c);
}

/* Start what the pending UPDATEs allow. */
static void evo_update_try(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;
    NV50EvoChannel *core = &d->chan[NV50_EVO_CORE];
    uint32_t need;

    for (int c = 1; c < NV50_EVO_CHANNELS; c++) {
        NV50EvoChannel *ch = &d->chan[c];

        if (ch->update_pending && !ch->update_vblank &&
            !(ch->update_data & EVO_UPDATE_INTERLOCK)) {
            evo_chan_update_begin(s, c);
        }
    }
    if (!core->update_pending || d->super_stage || d->super_chans) {
        return;
    }
    /* the core waits for the UPDATE of every channel it interlocks */
    need = evo_interlocked(core->update_data);
    for (int c = 1; c < NV50_EVO_CHANNELS; c++) {
        const NV50EvoChannel *ch = &d->chan[c];

        if (!(need & (1u << c))) {
            continue;
        }
        if (!evo_enabled(s, c)) {
            need &= ~(1u << c);     /* UNVERIFIED: nothing to wait for */
        } else if (!ch->update_pending ||
                   !(ch->update_data & EVO_UPDATE_INTERLOCK)) {
            return;
        }
    }
    d->super_chans = need | 1;      /* non-zero while the core runs */
    nv50_pdisp_super_start(s, evo_super_heads(s));
}

void nv50_evo_core_update_done(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;
    NV50EvoChannel *core = &d->chan[NV50_EVO_CORE];
    uint32_t chans = d->super_chans & ~1u;

    d->super_chans = 0;
    if (!core->update_pending) {
        return;                     /* the core was disabled meanwhile */
    }
    memcpy(core->armed, core->assembly, sizeof(core->armed));
    evo_mirror_armed(s, NV50_EVO_CORE);
    core->update_pending = false;
    d->updates++;
    for (int h = 0; h < NV50_HEADS; h++) {
        nv50_pdisp_head_armed(s, h);
    }
    if (core->update_ntfy_ctl & CORE_NTFY_NOTIFY) {
        evo_notify(s, NV50_EVO_CORE, EVO_UPDATE, core->update_ntfy_ctl,
                   core->update_ntfy_dma, 0, CORE_NTFY_DONE);
    }
    for (int c = 1; c < NV50_EVO_CHANNELS; c++) {
        if ((chans & (1u << c)) && d->chan[c].update_pending) {
            evo_chan_update_done(s, c);
        }
    }
    evo_run(s, NV50_EVO_CORE);
    evo_update_try(s);
}

void nv50_evo_vblank(NV50State *s, int head)
{
    const int chans[] = { NV50_EVO_BASE(head), NV50_EVO_OVLY(head) };

    for (size_t i = 0; i < ARRAY_SIZE(chans); i++) {
        NV50EvoChannel *ch = &s->pdisp->chan[chans[i]];

        if (ch->update_pending && ch->update_vblank) {
            evo_chan_update_done(s, chans[i]);
        }
    }
}

static void evo_update(NV50State *s, int c, uint32_t data)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    ch->update_pending = true;
    ch->update_vblank = false;
    ch->update_data = data;
    if (c == NV50_EVO_CORE) {
        ch->update_ntfy_ctl = ch->assembly[CORE_SET_NOTIFIER_CONTROL >> 2];
        ch->update_ntfy_dma =
            ch->assembly[CORE_SET_CONTEXT_DMA_NOTIFIER >> 2];
    } else if (evo_is_wndw(c)) {
        ch->update_ntfy_ctl = ch->assembly[WNDW_SET_NOTIFIER_CONTROL >> 2];
        ch->update_ntfy_dma =
            ch->assembly[WNDW_SET_CONTEXT_DMA_NOTIFIER >> 2];
    }
    evo_update_try(s);
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
    evo_mirror(s, c, mthd, data, false);
    if (mthd == EVO_UPDATE) {
        evo_update(s, c, data);
    } else if (c == NV50_EVO_CORE && mthd == CORE_GET_CAPABILITIES) {
        uint32_t ctl = ch->assembly[CORE_SET_NOTIFIER_CONTROL >> 2];

        /* UNVERIFIED: only CAPABILITIES_1 DONE; nouveau reads no more */
        if (ctl & CORE_NTFY_NOTIFY) {
            evo_notify(s, c, mthd, ctl,
                       ch->assembly[CORE_SET_CONTEXT_DMA_NOTIFIER >> 2], 1,
                       CORE_NTFY_DONE);
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

/* Run DMA channel c from GET towards PUT, until an UPDATE or an error. */
static void evo_run(NV50State *s, int c)
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
    evo_update_try(s);
}

void nv50_evo_error_ack(NV50State *s, int c)
{
    NV50EvoChannel *ch = &s->pdisp->chan[c];

    if (ch->error) {
        ch->error = false;
        ch->get = ch->resume;
        evo_run(s, c);
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
        evo_run(s, c);
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
