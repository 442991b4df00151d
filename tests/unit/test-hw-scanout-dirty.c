/*
 * nv50 scanout: the vblank's compare (scanout-shadow.c) against a plain
 * row-by-row reference, on random changes.  Surfaces of odd sizes,
 * block-linear at every block height and with GOB columns past the
 * width, pitch-linear with padding, XRGB8888, RGB565 and I8 through the
 * LUT; random bytes written anywhere in the surface's VRAM, padding
 * included; page flips; layout changes at the same size and format;
 * with a cursor over the surface (redrawn, and its rectangle added to
 * the update, when the surface changed under it).
 *
 * After each vblank: a frame and an update exactly when a visible byte
 * changed, the update the bounding box of each row's first to last
 * changed pixel (found here from the visible bytes, read with this
 * file's own block-linear address formula), and the console's image
 * the same bytes as a -screendump of the head (nv50_scanout_surface,
 * which converts the whole surface afresh).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/scanout.h"
#include "ui/console.h"
#include "nv50-scanout-rig.h"
#include <check.h>

#define BUF0        0x100000u       /* two buffers to flip between */
#define BUF1        0x400000u
#define LUT         0x800000u
#define CURSOR      0xa00000u
#define CURS(m)     (s->pdisp->chan[NV50_EVO_CURS(0)].armed[(m) >> 2])
#define STORAGE_PITCH   (1u << 20)

/* A surface as the test lays it out. */
typedef struct Surf {
    uint32_t offset, w, h, pitch;   /* block-linear pitch: 64 x GOBs */
    bool bl;
    unsigned bh, format, bpp;
} Surf;

/* This file's address of byte @xb of row @y (g80-surface.rst). */
static uint32_t surf_addr(const Surf *f, uint32_t xb, uint32_t y)
{
    uint32_t rows = 4u << f->bh, gobs_x = f->pitch / 64;

    if (!f->bl) {
        return f->offset + y * f->pitch + xb;
    }
    return f->offset + ((y / rows) * gobs_x + xb / 64) * (rows * 64) +
           (y % rows) * 64 + xb % 64;
}

/* Bytes the surface spans in VRAM (whole blocks). */
static uint32_t surf_span(const Surf *f)
{
    uint32_t rows = 4u << f->bh;

    if (!f->bl) {
        return f->h * f->pitch;
    }
    return (f->h + rows - 1) / rows * rows * f->pitch;
}

/* The visible bytes, rows packed. */
static uint8_t *surf_read(NV50State *s, const Surf *f)
{
    uint32_t len = f->w * f->bpp;
    uint8_t *p = g_malloc((size_t)len * f->h);

    for (uint32_t y = 0; y < f->h; y++) {
        for (uint32_t x = 0; x < len; x++) {
            p[y * len + x] = s->vram[surf_addr(f, x, y)];
        }
    }
    return p;
}

static void surf_arm(NV50State *s, const Surf *f)
{
    uint32_t field = f->bl ? f->pitch / 64 : f->pitch >> 8;

    arm_core(s, f->offset, f->w, f->h,
             (f->bl ? f->bh : STORAGE_PITCH) | field << 8, f->format);
}

/*
 * A surface of @format at @offset: odd sizes, a block height of @bh
 * (block-linear) or a pitch with padding (@bh < 0).
 */
static Surf surf_make(GRand *r, uint32_t offset, unsigned format,
                      unsigned bpp, int bh)
{
    Surf f = { .offset = offset, .format = format, .bpp = bpp };

    f.w = g_rand_int_range(r, 1, 300);
    f.h = g_rand_int_range(r, 1, 150);
    f.bl = bh >= 0;
    f.bh = f.bl ? bh : 0;
    if (f.bl) {
        f.pitch = ((f.w * bpp + 63) / 64 + g_rand_int_range(r, 0, 3)) * 64;
    } else {
        f.pitch = (f.w * bpp + 255) / 256 * 256 + g_rand_int_range(r, 0, 2) *
                  256;
    }
    return f;
}

static void surf_fill(NV50State *s, GRand *r, const Surf *f)
{
    for (uint32_t i = 0; i < surf_span(f); i++) {
        s->vram[f->offset + i] = g_rand_int(r);
    }
}

/* Random changes: single bytes anywhere, runs of pixels, rewrites. */
static void surf_poke(NV50State *s, GRand *r, const Surf *f)
{
    uint32_t n = g_rand_int_range(r, 0, 6), len = f->w * f->bpp;

    for (uint32_t k = 0; k < n; k++) {
        uint32_t y = g_rand_int_range(r, 0, f->h);
        uint32_t x = g_rand_int_range(r, 0, len);
        uint32_t run = g_rand_int_range(r, 1, len - x + 1);
        uint8_t v = g_rand_int(r);

        switch (g_rand_int_range(r, 0, 4)) {
        case 0:                 /* a byte anywhere: padding too */
            s->vram[f->offset + g_rand_int_range(r, 0, surf_span(f))] = v;
            break;
        case 1:                 /* the same value again: no change */
            s->vram[surf_addr(f, x, y)] = s->vram[surf_addr(f, x, y)];
            break;
        default:                /* a run of a row */
            for (uint32_t i = 0; i < run; i++) {
                s->vram[surf_addr(f, x + i, y)] = v + i;
            }
        }
    }
}

/*
 * What changed between packed rows @a and @b: a bounding box or none;
 * with it the cursor's rectangle @curs (if any) when the box meets it.
 */
static bool ref_dirty(const Surf *f, const uint8_t *a, const uint8_t *b,
                      const uint32_t *curs, uint32_t box[4])
{
    uint32_t len = f->w * f->bpp;
    bool any = false;

    for (uint32_t y = 0; y < f->h; y++) {
        for (uint32_t x = 0; x < len; x++) {
            if (a[y * len + x] != b[y * len + x]) {
                uint32_t px = x / f->bpp;

                box[0] = any ? MIN(box[0], px) : px;
                box[1] = any ? MIN(box[1], y) : y;
                box[2] = any ? MAX(box[2], px + 1) : px + 1;
                box[3] = y + 1;
                any = true;
            }
        }
    }
    if (any && curs && box[0] < curs[2] && curs[0] < box[2] &&
        box[1] < curs[3] && curs[1] < box[3]) {
        box[0] = MIN(box[0], curs[0]);
        box[1] = MIN(box[1], curs[1]);
        box[2] = MAX(box[2], curs[2]);
        box[3] = MAX(box[3], curs[3]);
    }
    return any;
}

/*
 * A 32x32 A8R8G8B8 cursor of random pixels at a random place over @f;
 * its rectangle in the image goes to @rect.
 */
static void cursor_arm(NV50State *s, GRand *r, const Surf *f,
                       uint32_t rect[4])
{
    uint32_t x = g_rand_int_range(r, 0, f->w);
    uint32_t y = g_rand_int_range(r, 0, f->h);

    for (uint32_t i = 0; i < 32 * 32; i++) {
        nv50_vram_wr32(s, CURSOR + i * 4, g_rand_int(r));
    }
    CORE(0x880) = 1u << 31 | 1u << 24;          /* ENABLE, A8R8G8B8 */
    CORE(0x884) = CURSOR >> 8;
    CORE(0x89c) = 0xf0000001;
    CURS(0x84) = x | y << 16;
    rect[0] = x;
    rect[1] = y;
    rect[2] = MIN(x + 32, f->w);
    rect[3] = MIN(y + 32, f->h);
}

/* The console's image is a screendump of the head, byte for byte. */
static void expect_image(NV50State *s, DisplayConsole *con, const Surf *f)
{
    DisplaySurface want;
    g_autofree char *err = NULL;
    const DisplaySurface *got = display_console_surface(con);

    ck_assert_msg(nv50_scanout_surface(s, 0, &want, &err), "%s", err);
    ck_assert_uint_eq(got->width, f->w);
    ck_assert_uint_eq(got->height, f->h);
    ck_assert_msg(!memcmp(got->data, want.data, (size_t)f->w * f->h * 4),
                  "image differs from the screendump (%ux%u %s bh %u)",
                  f->w, f->h, f->bl ? "block-linear" : "pitch", f->bh);
}

/*
 * One vblank after the surface went from @before (packed) to what @f
 * shows now: an update and a frame exactly when a visible byte changed.
 */
static void vblank_expect(NV50State *s, DisplayConsole *con, Capture *c,
                          const Surf *f, const uint8_t *before,
                          const uint32_t *curs)
{
    g_autofree uint8_t *now = surf_read(s, f);
    int updates = c->updates;
    uint64_t frames = c->frames;
    uint32_t box[4] = { 0 };

    nv50_scanout_vblank(s, 0);
    if (ref_dirty(f, before, now, curs, box)) {
        expect_update(c, updates + 1, box[0], box[1], box[2] - box[0],
                      box[3] - box[1]);
        ck_assert_uint_eq(c->frames, frames + 1);
    } else {
        ck_assert_int_eq(c->updates, updates);
        ck_assert_uint_eq(c->frames, frames);
    }
    expect_image(s, con, f);
}

/* Random changes, flips, and a relayout to @g (same size and format). */
static void run_case(unsigned format, unsigned bpp, int bh, int bh2,
                     bool cursor, uint32_t seed)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head0");
    Capture *c = capture(con);
    GRand *r = g_rand_new_with_seed(seed);
    Surf f = surf_make(r, BUF0, format, bpp, bh), g = f;
    uint32_t curs[4];
    int switches;

    if (format == NV50_SURFACE_I8) {
        for (uint32_t i = 0; i < 257 * 8; i += 4) {
            nv50_vram_wr32(s, LUT + i, g_rand_int(r) & 0x3fff3fff);
        }
        CORE(0x840) = 1u << 31;                 /* ENABLE, LORES */
        CORE(0x844) = LUT >> 8;
    }
    surf_fill(s, r, &f);
    surf_arm(s, &f);
    if (cursor) {
        cursor_arm(s, r, &f, curs);
    }
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 1, 0, 0, f.w, f.h);
    switches = c->switches;
    for (int i = 0; i < 40; i++) {
        g_autofree uint8_t *before = surf_read(s, &f);

        if (i == 20) {                          /* a flip */
            f.offset = BUF1;
            surf_fill(s, r, &f);
            memcpy(s->vram + BUF1, s->vram + BUF0, surf_span(&f) / 2);
            surf_arm(s, &f);
        } else if (i == 30) {                   /* another layout */
            g.offset = BUF0;
            g.bl = bh2 >= 0;
            g.bh = g.bl ? bh2 : 0;
            g.pitch = g.bl ? (f.w * bpp + 63) / 64 * 64
                           : (f.w * bpp + 255) / 256 * 256;
            /* the same picture, but for a few bytes */
            for (uint32_t y = 0; y < f.h; y++) {
                for (uint32_t x = 0; x < f.w * bpp; x++) {
                    s->vram[surf_addr(&g, x, y)] =
                        before[y * f.w * bpp + x];
                }
            }
            f = g;
            surf_poke(s, r, &f);
            surf_arm(s, &f);
        } else {
            surf_poke(s, r, &f);
        }
        vblank_expect(s, con, c, &f, before, cursor ? curs : NULL);
    }
    ck_assert_int_eq(c->switches, switches);    /* never a new surface */
    g_rand_free(r);
    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    card_free(s);
}

START_TEST(dirty_block_linear_xrgb)
{
    /* every block height, a relayout to another (or to pitch-linear) */
    run_case(NV50_SURFACE_A8R8G8B8, 4, _i, (_i + 2) % 7 - 1, false,
             100 + _i);
}
END_TEST

START_TEST(dirty_block_linear_16_8bpp)
{
    run_case(NV50_SURFACE_R5G6B5, 2, _i, -1, false, 200 + _i);
    run_case(NV50_SURFACE_I8, 1, _i, 5 - _i, false, 300 + _i);
}
END_TEST

START_TEST(dirty_pitch_linear)
{
    /* pitch-linear, then to block-linear of height _i */
    run_case(NV50_SURFACE_A8R8G8B8, 4, -1, _i, false, 400 + _i);
    run_case(NV50_SURFACE_R5G6B5, 2, -1, _i, false, 500 + _i);
    run_case(NV50_SURFACE_I8, 1, -1, -1, false, 600 + _i);
}
END_TEST

START_TEST(dirty_under_cursor)
{
    /* block-linear at every height, then relaid; and pitch-linear */
    run_case(NV50_SURFACE_A8R8G8B8, 4, _i, 5 - _i, true, 700 + _i);
    run_case(NV50_SURFACE_R5G6B5, 2, -1, _i, true, 800 + _i);
}
END_TEST

Suite *hw_scanout_dirty_suite(void)
{
    Suite *s = suite_create("hw-scanout-dirty");
    TCase *tc = tcase_create("random");

    tcase_add_loop_test(tc, dirty_block_linear_xrgb, 0, 6);
    tcase_add_loop_test(tc, dirty_block_linear_16_8bpp, 0, 6);
    tcase_add_loop_test(tc, dirty_pitch_linear, 0, 6);
    tcase_add_loop_test(tc, dirty_under_cursor, 0, 6);
    suite_add_tcase(s, tc);
    return s;
}
