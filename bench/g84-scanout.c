/*
 * make bench: what a vblank of the G84's head costs the main thread
 * (hw/nv50/scanout.c, scanout-shadow.c): head 0 showing a block-linear
 * 1024x768 XRGB8888 surface (16 GOBs high, as Mesa's scanout buffers on
 * nv50) to a console, µs a vblank:
 *   g84-scanout-still    nothing changed since the last vblank (the
 *                        whole surface compared, no frame)
 *   g84-scanout-flip     kmscube's case: a flip each vblank between two
 *                        buffers that differ in a 400x400 square
 *   g84-scanout-all      a flip each vblank between two buffers that
 *                        differ everywhere (every pixel converted)
 * The frames the console counts are checked: one a vblank, or none.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/clock.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/scanout.h"
#include "ui/console.h"
#include "tests/unit/nv50-ramht.h"
#include "bench.h"

#define W           1024
#define H           768
#define BUF0        0x100000u
#define BUF1        0x500000u
#define SQUARE      400             /* the part that differs (flip) */
#define BH          4               /* log2 GOBs a block is high */

/* Byte offset of pixel (@x, @y) in the block-linear surface. */
static uint32_t bl_addr(uint32_t x, uint32_t y)
{
    uint32_t rows = 4u << BH, xb = x * 4;

    return ((y / rows) * (W * 4 / 64) + xb / 64) * (rows * 64) +
           (y % rows) * 64 + xb % 64;
}

static void paint(NV50State *s, uint32_t buf, uint32_t base, bool square)
{
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            bool in = x >= 300 && x < 300 + SQUARE && y >= 200 &&
                      y < 200 + SQUARE;
            uint32_t v = !square || in ? base + x * 7 + y * 13 : 0x204060;

            nv50_vram_wr32(s, buf + bl_addr(x, y), v);
        }
    }
}

/* Head 0's core surface at @buf (cl507d 0x860-0x874), block-linear. */
static void show(NV50State *s, uint32_t buf)
{
    uint32_t *core = s->pdisp->chan[0].armed;

    core[0x860 >> 2] = buf >> 8;
    core[0x868 >> 2] = W | H << 16;
    core[0x86c >> 2] = BH | (W * 4 / 64) << 8;
    core[0x870 >> 2] = NV50_SURFACE_A8R8G8B8 << 8;
    core[0x874 >> 2] = 0xf0000001;
}

static void run(NV50State *s, DisplayConsole *con, const char *name,
                bool flip, uint64_t want_frames)
{
    int n = MAX(2, (int)(600 * bench_scale)) & ~1;
    uint64_t frames = display_console_frames(con);
    double t0 = bench_now();

    if (!bench_wanted(name)) {
        return;
    }

    for (int i = 0; i < n; i++) {
        if (flip) {
            show(s, i & 1 ? BUF0 : BUF1);
        }
        nv50_scanout_vblank(s, 0);
    }
    t0 = bench_now() - t0;
    frames = display_console_frames(con) - frames;
    if (frames != want_frames * n) {
        bench_fail(name, "%" PRIu64 " frames in %d vblanks", frames, n);
        return;
    }
    bench_report(name, t0 / n * 1e6, "us/vblank");
}

void bench_g84_scanout(void)
{
    GemuClock clk;
    NV50State *s;
    DisplayConsole *con;

    /* (all three asked, for the runner's list of names) */
    if (!(bench_wanted("g84-scanout-still") |
          bench_wanted("g84-scanout-flip") |
          bench_wanted("g84-scanout-all"))) {
        return;
    }
    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    nv50_wr32(s, 0x610010, (NV50_TEST_DISP_INST >> 8) | 9);
    bind(s, 0, 0xf0000001, 0x1000, 0, 16 << 20);
    con = display_console_new("head0");
    nv50_scanout_set_console(s, 0, con);

    paint(s, BUF0, 0x100000, true);
    paint(s, BUF1, 0x200000, true);
    show(s, BUF0);
    nv50_scanout_vblank(s, 0);
    run(s, con, "g84-scanout-still", false, 0);
    run(s, con, "g84-scanout-flip", true, 1);
    paint(s, BUF0, 0x100000, false);
    paint(s, BUF1, 0x200000, false);
    run(s, con, "g84-scanout-all", true, 1);

    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    nv50_free(s);
    gemu_clock_destroy(&clk);
}
