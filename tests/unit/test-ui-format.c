/*
 * Unit tests: the display layer's pixel formats (ui/console.c) -- each
 * format's conversion to 8-bit RGBA with vectors worked out from the
 * format's definition, the row converter against the pixel one, and PNG
 * output that depends on the pixels only, not on their format.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"
#include <check.h>
#include <glib/gstdio.h>

typedef struct FormatVector {
    DisplayFormat format;
    uint8_t bytes[8];
    uint8_t rgba[4];
} FormatVector;

static const FormatVector vectors[] = {
    /* 8-bit formats: bytes in memory order */
    { DISPLAY_FORMAT_RGBA8888, { 10, 20, 30, 40 }, { 10, 20, 30, 40 } },
    { DISPLAY_FORMAT_BGRA8888, { 10, 20, 30, 40 }, { 30, 20, 10, 40 } },
    /* the X byte is not alpha: opaque */
    { DISPLAY_FORMAT_BGRX8888, { 10, 20, 30, 40 }, { 30, 20, 10, 255 } },
    /* RGB565, little-endian; 5/6 bits widened by bit replication */
    { DISPLAY_FORMAT_RGB565, { 0x00, 0xf8 }, { 255, 0, 0, 255 } },
    { DISPLAY_FORMAT_RGB565, { 0xe0, 0x07 }, { 0, 255, 0, 255 } },
    { DISPLAY_FORMAT_RGB565, { 0x1f, 0x00 }, { 0, 0, 255, 255 } },
    /* 0x8410: r 16 -> 128|4, g 32 -> 128|2, b 16 -> 132 */
    { DISPLAY_FORMAT_RGB565, { 0x10, 0x84 }, { 132, 130, 132, 255 } },
    /* halves: 1.0 0x3c00, 0.5 0x3800 (127.5 -> 128), 0, 2.0 clamps */
    { DISPLAY_FORMAT_RGBA_F16, { 0x00, 0x3c, 0x00, 0x38, 0, 0, 0x00, 0x40 },
      { 255, 128, 0, 255 } },
    /* -1.0 and NaN show as 0, +inf as 1; 0.25 (0x3400) -> 63.75 -> 64 */
    { DISPLAY_FORMAT_RGBA_F16, { 0x00, 0xbc, 0x00, 0x7e, 0x00, 0x7c,
                                 0x00, 0x34 },
      { 0, 0, 255, 64 } },
    /* 0.25f = 0x3e800000: grey 64, opaque */
    { DISPLAY_FORMAT_R_F32, { 0x00, 0x00, 0x80, 0x3e }, { 64, 64, 64, 255 } },
};

START_TEST(format_vectors)
{
    const FormatVector *v = &vectors[_i];
    uint8_t data[16] = { 0 }, rgba[4], row[8];
    DisplaySurface s = {
        .data = data,
        .width = 1,
        .height = 1,
        .pitch = 16,
        .format = v->format,
    };

    memcpy(data, v->bytes, sizeof(v->bytes));
    display_surface_get_rgba(&s, 0, 0, rgba);
    ck_assert_msg(!memcmp(rgba, v->rgba, 4),
                  "%s vector %d: got %u %u %u %u",
                  display_format_name(v->format), _i, rgba[0], rgba[1],
                  rgba[2], rgba[3]);
    display_surface_row_rgba(&s, 0, row);
    ck_assert(!memcmp(row, v->rgba, 4));
}
END_TEST

START_TEST(format_names)
{
    ck_assert_str_eq(display_format_name(DISPLAY_FORMAT_BGRX8888),
                     "bgrx8888");
    ck_assert_str_eq(display_format_name(DISPLAY_FORMAT_COUNT), "invalid");
    ck_assert_uint_eq(display_format_bpp(DISPLAY_FORMAT_RGB565), 2);
    ck_assert_uint_eq(display_format_bpp(DISPLAY_FORMAT_RGBA_F16), 8);
    ck_assert_uint_eq(display_format_bpp(DISPLAY_FORMAT_COUNT), 0);
}
END_TEST

/* The row converter gives what the pixel one gives, with padded rows. */
START_TEST(format_rows_match_pixels)
{
    const uint32_t w = 7, h = 3;
    DisplayFormat f = _i;
    uint32_t pitch = w * display_format_bpp(f) + 5;
    g_autofree uint8_t *data = g_malloc(pitch * h);
    g_autofree uint8_t *row = g_malloc(w * 4);
    GRand *r = g_rand_new_with_seed(1234 + f);
    DisplaySurface s = {
        .data = data, .width = w, .height = h, .pitch = pitch, .format = f,
    };

    for (uint32_t i = 0; i < pitch * h; i++) {
        data[i] = g_rand_int(r);
    }
    g_rand_free(r);
    for (uint32_t y = 0; y < h; y++) {
        display_surface_row_rgba(&s, y, row);
        for (uint32_t x = 0; x < w; x++) {
            uint8_t px[4];

            display_surface_get_rgba(&s, x, y, px);
            ck_assert_msg(!memcmp(px, row + 4 * x, 4), "%s: (%u, %u)",
                          display_format_name(f), x, y);
        }
    }
}
END_TEST

START_TEST(format_surface_valid)
{
    uint8_t data[64];
    DisplaySurface s = {
        .data = data, .width = 4, .height = 2, .pitch = 16,
        .format = DISPLAY_FORMAT_BGRX8888,
    };
    g_autofree char *err = NULL;

    ck_assert(display_surface_valid(&s, &err));
    s.pitch = 15;
    ck_assert(!display_surface_valid(&s, &err));
    ck_assert_ptr_nonnull(strstr(err, "pitch"));
    g_clear_pointer(&err, g_free);
    s.pitch = 16;
    s.width = 0;
    ck_assert(!display_surface_valid(&s, &err));
    g_clear_pointer(&err, g_free);
    s.width = 4;
    s.format = DISPLAY_FORMAT_COUNT;
    ck_assert(!display_surface_valid(&s, &err));
}
END_TEST

static char *read_file(const char *path, gsize *len)
{
    char *text = NULL;

    ck_assert_msg(g_file_get_contents(path, &text, len, NULL),
                  "cannot read %s", path);
    return text;
}

/* The same picture in BGRX (padded rows) and RGBA gives the same PNG. */
START_TEST(format_png_same_pixels_same_bytes)
{
    g_autofree char *dir = g_dir_make_tmp("gemu-ui-XXXXXX", NULL);
    g_autofree char *a = g_build_filename(dir, "a.png", NULL);
    g_autofree char *b = g_build_filename(dir, "b.png", NULL);
    g_autofree char *err = NULL;
    g_autofree char *ta = NULL, *tb = NULL;
    uint8_t bgrx[3 * 24], rgba[3 * 20];
    gsize la, lb;
    DisplaySurface sa = {
        .data = bgrx, .width = 5, .height = 3, .pitch = 24,
        .format = DISPLAY_FORMAT_BGRX8888,
    };
    DisplaySurface sb = {
        .data = rgba, .width = 5, .height = 3, .pitch = 20,
        .format = DISPLAY_FORMAT_RGBA8888,
    };

    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 6; x++) {
            uint8_t *p = bgrx + y * 24 + x * 4;

            p[0] = x * 40;          /* B */
            p[1] = y * 100;         /* G */
            p[2] = 255 - x * 7;     /* R */
            p[3] = 0x5a;            /* X: must not matter */
            if (x < 5) {
                uint8_t *q = rgba + y * 20 + x * 4;

                q[0] = p[2];
                q[1] = p[1];
                q[2] = p[0];
                q[3] = 255;
            }
        }
    }
    ck_assert_msg(display_png_write(&sa, a, &err), "%s", err);
    ck_assert_msg(display_png_write(&sb, b, &err), "%s", err);
    ta = read_file(a, &la);
    tb = read_file(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert(!memcmp(ta, tb, la));
    /* and the PNG header says 5x3, 8-bit RGB */
    ck_assert(!memcmp(ta + 12, "IHDR\0\0\0\5\0\0\0\3\10\2", 14));
    g_remove(a);
    g_remove(b);
    g_rmdir(dir);
}
END_TEST

START_TEST(format_png_write_errors)
{
    uint8_t data[16] = { 0 };
    DisplaySurface s = {
        .data = data, .width = 2, .height = 2, .pitch = 8,
        .format = DISPLAY_FORMAT_BGRX8888,
    };
    g_autofree char *err = NULL;

    ck_assert(!display_png_write(&s, "/nonexistent-dir/x.png", &err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.png"));
    g_clear_pointer(&err, g_free);
    s.pitch = 4;
    ck_assert(!display_png_write(&s, "/tmp/never-written.png", &err));
    ck_assert(!g_file_test("/tmp/never-written.png", G_FILE_TEST_EXISTS));
}
END_TEST

Suite *ui_format_suite(void)
{
    Suite *s = suite_create("ui-format");
    TCase *tc = tcase_create("format");

    tcase_add_loop_test(tc, format_vectors, 0, ARRAY_SIZE(vectors));
    tcase_add_test(tc, format_names);
    tcase_add_loop_test(tc, format_rows_match_pixels, 0,
                        DISPLAY_FORMAT_COUNT);
    tcase_add_test(tc, format_surface_valid);
    tcase_add_test(tc, format_png_same_pixels_same_bytes);
    tcase_add_test(tc, format_png_write_errors);
    suite_add_tcase(s, tc);
    return s;
}
