/*
 * nv50 scanout and -screendump: a core channel programmed in-process the
 * way nouveau's head507d does it (surface methods, then UPDATE), the
 * surface found from the armed state and written as a PNG, read back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "ui/console.h"
#include <check.h>
#include <png.h>
#include <unistd.h>

#define INST        0x10000u        /* display instance in VRAM */
#define PUSHBUF     0x80000u        /* core pushbuffer */
#define SURF        0x100000u       /* the scanout surface */
#define USER0       0x640000u
#define CTRL0       0x610200u
#define MTHD(m, n)  ((uint32_t)(n) << 18 | (m))
#define W           64
#define H           4
#define PITCH       256

static GemuClock clk;

/* A card with core channel 0 enabled (no RAMHT: no notifiers used). */
static NV50State *card(void)
{
    NV50State *s;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    s = nv50_new(&clk, NULL, 16 << 20, NULL);
    ck_assert_ptr_nonnull(s);
    nv50_wr32(s, 0x610010, (INST >> 8) | 9);
    nv50_wr32(s, CTRL0 + 4, (PUSHBUF >> 8) | 1);
    nv50_wr32(s, CTRL0 + 8, 0x00010000);
    nv50_wr32(s, CTRL0 + 12, 0);
    nv50_wr32(s, CTRL0, 0x10);
    nv50_wr32(s, USER0, 0);
    nv50_wr32(s, CTRL0, 0x01000013);
    return s;
}

static void card_free(NV50State *s)
{
    nv50_free(s);
    gemu_clock_destroy(&clk);
}

static void push(NV50State *s, const uint32_t *w, int n)
{
    uint32_t put = nv50_rd32(s, USER0);

    for (int i = 0; i < n; i++) {
        nv50_vram_wr32(s, PUSHBUF + put + i * 4, w[i]);
    }
    nv50_wr32(s, USER0, put + n * 4);
}

/* Head 0's surface methods as head507d_core_set sends them, + UPDATE. */
static void set_surface(NV50State *s, uint32_t offset, uint32_t w,
                        uint32_t h, uint32_t storage, uint32_t format)
{
    const uint32_t m[] = {
        MTHD(0x860, 1), offset >> 8,
        MTHD(0x868, 4), w | h << 16, storage, format << 8, 0xf0000001,
        MTHD(0x080, 1), 0,
    };

    push(s, m, ARRAY_SIZE(m));
}

static uint32_t pattern(int x, int y)
{
    /* x8r8g8b8: junk in the unused byte, which must not show */
    return 0x5a000000u | 0x80u << 16 | (uint32_t)(y * 60) << 8 | x * 4;
}

static void fill(NV50State *s)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            nv50_vram_wr32(s, SURF + y * PITCH + x * 4, pattern(x, y));
        }
    }
}

START_TEST(scanout_dump_png)
{
    NV50State *s = card();
    g_autofree char *path = g_build_filename(g_get_tmp_dir(),
                                             "gemu-test-scanout.png", NULL);
    g_autofree char *err = NULL;
    png_image img = { .version = PNG_IMAGE_VERSION };
    g_autofree uint8_t *px = NULL;

    fill(s);
    unlink(path);
    /* nothing armed yet: a clear error and no file */
    ck_assert(!nv50_screendump(s, 0, path, &err));
    ck_assert_ptr_nonnull(strstr(err, "no scanout surface armed"));
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    g_clear_pointer(&err, g_free);

    /* pitch layout (bit 20), pitch 256 >> 8 in 17:8, A8R8G8B8 */
    set_surface(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    ck_assert_uint_eq(s->pdisp->updates, 1);
    ck_assert_msg(nv50_screendump(s, 0, path, &err), "%s", err);

    ck_assert(png_image_begin_read_from_file(&img, path));
    ck_assert_uint_eq(img.width, W);
    ck_assert_uint_eq(img.height, H);
    img.format = PNG_FORMAT_RGBA;
    px = g_malloc(PNG_IMAGE_SIZE(img));
    ck_assert(png_image_finish_read(&img, NULL, px, 0, NULL));
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + (y * W + x) * 4;

            ck_assert_uint_eq(p[0], 0x80);
            ck_assert_uint_eq(p[1], y * 60);
            ck_assert_uint_eq(p[2], x * 4);
            ck_assert_uint_eq(p[3], 0xff);
        }
    }
    unlink(path);
    card_free(s);
}
END_TEST

/*
 * A base channel image armed on the head is what it shows (nouveau's
 * console lives there); cleared again, the core surface is back.
 */
START_TEST(scanout_prefers_base_image)
{
    NV50State *s = card();
    uint32_t *base = s->pdisp->chan[1].armed;
    g_autofree char *err = NULL;
    DisplaySurface surf;

    set_surface(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    base[0x800 >> 2] = (SURF + 0x10000) >> 8;  /* SURFACE_SET_OFFSET */
    base[0x808 >> 2] = 32 | 2 << 16;           /* SIZE 32x2 */
    base[0x80c >> 2] = 1u << 20 | 1 << 8;      /* pitch layout, 256 */
    base[0x810 >> 2] = 0xcf << 8;              /* A8R8G8B8 */
    base[0x0c0 >> 2] = 0xf0000001;             /* CONTEXT_DMA_ISO */
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.addr, SURF + 0x10000);
    ck_assert_uint_eq(surf.width, 32);
    ck_assert_uint_eq(surf.height, 2);

    base[0x0c0 >> 2] = 0;                      /* image cleared */
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.addr, SURF);
    ck_assert_uint_eq(surf.width, W);
    card_free(s);
}
END_TEST

START_TEST(scanout_rejects)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;

    /* block-linear */
    set_surface(s, SURF, W, H, (PITCH >> 8) << 8, 0xcf);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "block-linear"));
    g_clear_pointer(&err, g_free);
    /* R5G6B5 is not a format the dump reads */
    set_surface(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xe8);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "0xe8"));
    g_clear_pointer(&err, g_free);
    /* past the end of the 16 MiB of VRAM */
    set_surface(s, 0xffff00, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "beyond VRAM"));
    g_clear_pointer(&err, g_free);
    /* a valid one, and head 1 still has nothing */
    set_surface(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_uint_eq(surf.width, W);
    ck_assert_uint_eq(surf.pitch, PITCH);
    ck_assert_uint_eq(surf.addr, SURF);
    ck_assert(!nv50_scanout_surface(s, 1, &surf, &err));
    g_clear_pointer(&err, g_free);
    ck_assert(!nv50_scanout_surface(s, 2, &surf, &err));
    card_free(s);
}
END_TEST

Suite *hw_scanout_suite(void)
{
    Suite *s = suite_create("hw-scanout");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, scanout_dump_png);
    tcase_add_test(tc, scanout_rejects);
    tcase_add_test(tc, scanout_prefers_base_image);
    suite_add_tcase(s, tc);
    return s;
}
