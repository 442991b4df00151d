/*
 * What the nv50 scanout unit tests share: a card whose armed EVO state
 * the tests write directly, head 0's core surface, and a console
 * listener that records what the console tells it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_UNIT_NV50_SCANOUT_RIG_H
#define TESTS_UNIT_NV50_SCANOUT_RIG_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "ui/console.h"
#include "nv50-ramht.h"
#include <check.h>

#define INST        NV50_TEST_DISP_INST
#define CORE(m)     (s->pdisp->chan[0].armed[(m) >> 2])
#define BASE(m)     (s->pdisp->chan[1].armed[(m) >> 2])

static GemuClock clk;

/*
 * A card whose armed EVO state the tests write directly, as an UPDATE
 * would leave it (the pushbuffer path is pdisplay's, tested there), with
 * nouveau's context DMAs over all of VRAM: the core's 0xf0000001 and
 * each base channel's framebuffer one, 0xfb000000.
 */
static inline NV50State *card(void)
{
    NV50State *s;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    ck_assert_ptr_nonnull(s);
    nv50_wr32(s, 0x610010, (INST >> 8) | 9);
    bind(s, 0, 0xf0000001, 0x1000, 0, 16 << 20);
    bind(s, 1, 0xfb000000, 0x1020, 0, 16 << 20);
    bind(s, 2, 0xfb000000, 0x1040, 0, 16 << 20);
    return s;
}

static inline void card_free(NV50State *s)
{
    nv50_free(s);
    gemu_clock_destroy(&clk);
}

/* Head 0's surface as head507d_core_set arms it (cl507d 0x860-0x874). */
static inline void arm_core(NV50State *s, uint32_t offset, uint32_t w,
                            uint32_t h, uint32_t storage, uint32_t format)
{
    CORE(0x860) = offset >> 8;
    CORE(0x868) = w | h << 16;
    CORE(0x86c) = storage;
    CORE(0x870) = format << 8;
    CORE(0x874) = 0xf0000001;
}

/* A listener that records what the console tells it. */
typedef struct Capture {
    DisplayListener dl;
    int switches;
    bool has_surface;
    DisplaySurface surf;
    int updates;
    uint32_t x, y, w, h;        /* the last update */
    uint64_t frames;
} Capture;

static inline void cap_switch(DisplayListener *dl,
                              const DisplaySurface *s)
{
    Capture *c = dl->opaque;

    c->switches++;
    c->has_surface = s != NULL;
    if (s) {
        c->surf = *s;
    }
}

static inline void cap_update(DisplayListener *dl, uint32_t x, uint32_t y,
                              uint32_t w, uint32_t h)
{
    Capture *c = dl->opaque;

    c->updates++;
    c->x = x;
    c->y = y;
    c->w = w;
    c->h = h;
}

static inline void cap_frame(DisplayListener *dl, uint64_t frame)
{
    Capture *c = dl->opaque;

    c->frames = frame;
}

static inline void cap_free(DisplayListener *dl)
{
    g_free(dl->opaque);
}

static const DisplayListenerOps cap_ops = {
    .name = "capture",
    .surface_switch = cap_switch,
    .update = cap_update,
    .frame = cap_frame,
    .free = cap_free,
};

static inline Capture *capture(DisplayConsole *con)
{
    Capture *c = g_new0(Capture, 1);

    c->dl.ops = &cap_ops;
    c->dl.opaque = c;
    display_console_add_listener(con, &c->dl);
    return c;
}

static inline void expect_update(Capture *c, int updates, uint32_t x,
                                 uint32_t y, uint32_t w, uint32_t h)
{
    ck_assert_int_eq(c->updates, updates);
    ck_assert_msg(c->x == x && c->y == y && c->w == w && c->h == h,
                  "update %u,%u %ux%u, want %u,%u %ux%u",
                  c->x, c->y, c->w, c->h, x, y, w, h);
}

#endif
