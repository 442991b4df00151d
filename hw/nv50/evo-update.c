/*
 * nv50 EVO channels' UPDATE (evo.c has the channels themselves).
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
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/evo-int.h"

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

/*
 * Channel c's state registers: method @mthd's (assembly) copy gets
 * @data, or with @mthd < 0 every armed copy (+4) its chan[c].armed[].
 */
static void evo_mirror_write(NV50State *s, int c, int mthd, uint32_t data)
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
                hwaddr reg = set->list[e].reg + off + k * set->reg_stride;

                if (mthd < 0) {
                    *nv50_pdisp_reg(s, reg + 4) = armed[m >> 2];
                } else if (m == (uint32_t)mthd) {
                    *nv50_pdisp_reg(s, reg) = data;
                }
            }
        }
    }
}

void nv50_evo_mirror(NV50State *s, int c, uint32_t mthd, uint32_t data)
{
    evo_mirror_write(s, c, mthd, data);
}

static void evo_mirror_armed(NV50State *s, int c)
{
    evo_mirror_write(s, c, -1, 0);
}

/* ---- UPDATE ---- */

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
            nv50_evo_dma_write(s, c, EVO_UPDATE,
                               a[WNDW_SET_CONTEXT_DMA_SEMAPHORE >> 2],
                               a[WNDW_SET_SEMAPHORE_CONTROL >> 2] & 0xffc,
                               a[WNDW_SET_SEMAPHORE_RELEASE >> 2]);
        }
        if (ch->update_ntfy_dma) {
            bool ovly = c == NV50_EVO_OVLY(0) || c == NV50_EVO_OVLY(1);

            nv50_evo_notify(s, c, EVO_UPDATE, ch->update_ntfy_ctl,
                            ch->update_ntfy_dma, ovly ? OVLY_NTFY_WORD : 0,
                            ovly ? OVLY_NTFY_BEGUN : WNDW_NTFY_BEGUN);
        }
    }
    nv50_evo_run(s, c);
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

void nv50_evo_update_try(NV50State *s)
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
        nv50_evo_notify(s, NV50_EVO_CORE, EVO_UPDATE,
                        core->update_ntfy_ctl, core->update_ntfy_dma, 0,
                        CORE_NTFY_DONE);
    }
    for (int c = 1; c < NV50_EVO_CHANNELS; c++) {
        if ((chans & (1u << c)) && d->chan[c].update_pending) {
            evo_chan_update_done(s, c);
        }
    }
    nv50_evo_run(s, NV50_EVO_CORE);
    nv50_evo_update_try(s);
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

void nv50_evo_update(NV50State *s, int c, uint32_t data)
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
    nv50_evo_update_try(s);
}
