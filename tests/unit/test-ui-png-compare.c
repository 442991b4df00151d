/*
 * Unit tests: -compare's image comparison (ui/png-compare.c): equal
 * images, a difference within and beyond the tolerance, the difference
 * picture, images of different sizes, unreadable files.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/png-compare.h"
#include <check.h>
#include <glib/gstdio.h>
#include <png.h>

#define W 5
#define H 3

static char *dir;

static void setup(void)
{
    dir = g_dir_make_tmp("gemu-cmp-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
}

static void teardown(void)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;

    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, n, NULL);

        g_unlink(p);
    }
    if (d) {
        g_dir_close(d);
    }
    g_rmdir(dir);
    g_clear_pointer(&dir, g_free);
}

/* A W'xH' gradient; pixel (1, 2)'s green raised by BUMP. */
static char *picture(const char *name, uint32_t w, uint32_t h, int bump)
{
    char *path = g_build_filename(dir, name, NULL);
    g_autofree uint8_t *rgb = g_malloc(w * h * 3);
    png_image img = {
        .version = PNG_IMAGE_VERSION, .width = w, .height = h,
        .format = PNG_FORMAT_RGB,
    };

    for (uint32_t i = 0; i < w * h * 3; i++) {
        rgb[i] = (uint8_t)(i * 7 + 40);
    }
    rgb[(2 * w + 1) * 3 + 1] += bump;
    ck_assert(png_image_write_to_file(&img, path, 0, rgb, 0, NULL));
    return path;
}

START_TEST(equal_images)
{
    g_autofree char *a = picture("a.png", W, H, 0);
    g_autofree char *b = picture("b.png", W, H, 0);
    g_autofree char *d = g_build_filename(dir, "d.png", NULL);
    g_autofree char *err = NULL;
    PngDiff r;

    ck_assert(png_compare(a, b, 0, d, &r, &err));
    ck_assert_int_eq(r.worst, 0);
    ck_assert_uint_eq(r.differing, 0);
    ck_assert_uint_eq(r.width, W);
    ck_assert_uint_eq(r.golden_height, H);
    ck_assert(!g_file_test(d, G_FILE_TEST_EXISTS));
}
END_TEST

START_TEST(tolerance)
{
    g_autofree char *a = picture("a.png", W, H, 3);
    g_autofree char *b = picture("b.png", W, H, 0);
    g_autofree char *d = g_build_filename(dir, "d.png", NULL);
    g_autofree char *err = NULL;
    PngDiff r;

    ck_assert(png_compare(a, b, 3, d, &r, &err));
    ck_assert_int_eq(r.worst, 3);
    ck_assert_uint_eq(r.differing, 0);
    ck_assert(!g_file_test(d, G_FILE_TEST_EXISTS));
    ck_assert(png_compare(a, b, 2, d, &r, &err));
    ck_assert_int_eq(r.worst, 3);
    ck_assert_uint_eq(r.differing, 1);
    ck_assert(g_file_test(d, G_FILE_TEST_EXISTS));
}
END_TEST

START_TEST(difference_picture)
{
    g_autofree char *a = picture("a.png", W, H, 100);
    g_autofree char *b = picture("b.png", W, H, 0);
    g_autofree char *d = g_build_filename(dir, "d.png", NULL);
    g_autofree char *err = NULL;
    g_autofree uint8_t *rgb = NULL, *ref = NULL;
    uint32_t w, h, rw, rh;
    PngDiff r;

    ck_assert(png_compare(a, b, 0, d, &r, &err));
    ck_assert_int_eq(r.worst, 100);
    ck_assert(png_read_rgb(d, &rgb, &w, &h, &err));
    ck_assert(png_read_rgb(a, &ref, &rw, &rh, &err));
    ck_assert_uint_eq(w, W);
    ck_assert_uint_eq(h, H);
    for (uint32_t i = 0; i < W * H; i++) {
        const uint8_t *p = rgb + i * 3;

        if (i == 2 * W + 1) {
            /* half-way to magenta */
            ck_assert_uint_eq(p[0], (ref[i * 3] + 0xff + 1) / 2);
            ck_assert_uint_eq(p[1], (ref[i * 3 + 1] + 1) / 2);
            ck_assert_uint_eq(p[2], (ref[i * 3 + 2] + 0xff + 1) / 2);
        } else {
            for (int c = 0; c < 3; c++) {
                ck_assert_uint_eq(p[c], ref[i * 3 + c] / 4);
            }
        }
    }
}
END_TEST

START_TEST(sizes_differ)
{
    g_autofree char *a = picture("a.png", W, H, 0);
    g_autofree char *b = picture("b.png", W - 1, H + 1, 0);
    g_autofree char *d = g_build_filename(dir, "d.png", NULL);
    g_autofree char *err = NULL;
    g_autofree uint8_t *rgb = NULL;
    uint32_t w, h;
    PngDiff r;

    ck_assert(png_compare(a, b, 255, d, &r, &err));
    ck_assert_int_eq(r.worst, 255);
    ck_assert_uint_eq(r.golden_width, W - 1);
    /* outside the shared 4x3: 5x4 - 4x3 pixels */
    ck_assert_uint_eq(r.differing, H + W);
    ck_assert(png_read_rgb(d, &rgb, &w, &h, &err));
    ck_assert_uint_eq(w, W);
    ck_assert_uint_eq(h, H + 1);
}
END_TEST

START_TEST(unreadable)
{
    g_autofree char *a = picture("a.png", W, H, 0);
    g_autofree char *missing = g_build_filename(dir, "missing.png", NULL);
    g_autofree char *junk = g_build_filename(dir, "junk.png", NULL);
    g_autofree char *err = NULL;
    PngDiff r;

    ck_assert(!png_compare(a, missing, 0, NULL, &r, &err));
    ck_assert_ptr_nonnull(strstr(err, "missing.png"));
    g_clear_pointer(&err, g_free);
    ck_assert(g_file_set_contents(junk, "\x89PNG\r\n\x1a\nnot a png", -1,
                                  NULL));
    ck_assert(!png_compare(junk, a, 0, NULL, &r, &err));
    ck_assert_ptr_nonnull(strstr(err, "junk.png"));
}
END_TEST

Suite *ui_png_compare_suite(void)
{
    Suite *s = suite_create("ui_png_compare");
    TCase *tc = tcase_create("compare");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, equal_images);
    tcase_add_test(tc, tolerance);
    tcase_add_test(tc, difference_picture);
    tcase_add_test(tc, sizes_differ);
    tcase_add_test(tc, unreadable);
    suite_add_tcase(s, tc);
    return s;
}
