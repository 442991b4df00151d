/*
 * For -clock virtual and -record (docs/devel/replay.md): the card's
 * state in one number, for the END record and gemu-replay's check of it
 * (VRAM and the register files the units keep as written -- PFIFO,
 * PGRAPH, PDISPLAY --, PMC's interrupt state, PTIMER's counter; the
 * engines are let finish first), and whether an idle guest may be
 * waiting for one of the card's timers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "evo.h"
#include "pfifo.h"

#define FNV_PRIME   0x100000001b3ull
#define FNV_BASIS   0xcbf29ce484222325ull

/* FNV-1a over 64-bit words (the tail bytes one by one) */
static uint64_t mix(uint64_t h, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t w;

        memcpy(&w, p + i, 8);
        h = (h ^ w) * FNV_PRIME;
    }
    for (; i < len; i++) {
        h = (h ^ p[i]) * FNV_PRIME;
    }
    return h;
}

uint64_t nv50_state_digest(NV50State *s)
{
    uint64_t h = FNV_BASIS;
    uint32_t pmc[3];

    nv50_engine_sync(s);
    h = mix(h, s->vram, s->vram_size);
    g_mutex_lock(&s->eng_lock);
    h = mix(h, s->pfifo->regs, sizeof(s->pfifo->regs));
    h = mix(h, s->pgraph->regs, sizeof(s->pgraph->regs));
    g_mutex_unlock(&s->eng_lock);
    h = mix(h, s->pdisp->regs, sizeof(s->pdisp->regs));
    g_mutex_lock(&s->pmc.lock);
    pmc[0] = s->pmc.intr_en;
    pmc[1] = s->pmc.enable;
    pmc[2] = s->pmc.sources;
    g_mutex_unlock(&s->pmc.lock);
    h = mix(h, pmc, sizeof(pmc));
    h = mix(h, &s->ptimer.last, sizeof(s->ptimer.last));
    return h;
}

bool nv50_timer_awaited(NV50State *s)
{
    NV50PDisplay *d = s->pdisp;
    uint32_t vblank_en = d->regs[(NV_PDISP_INTR1_EN - 0x610000) >> 2];

    for (int h = 0; h < NV50_HEADS; h++) {
        if (d->raster[h].running && (vblank_en & NV_PDISP_INTR1_VBLANK(h))) {
            return true;        /* a vblank wait, a flip */
        }
    }
    return d->super_stage != 0 ||
           (s->ptimer.alarm_armed && (s->ptimer.intr_en & 1)) ||
           nv50_engine_parked(s);
}
