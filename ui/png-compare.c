/*
 * -compare: a screendump against a golden image (include/ui/png-compare.h),
 * read and written with libpng's simplified API.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/png-compare.h"

#include <png.h>

/* a pixel that differs, in the difference picture */
static const uint8_t diff_mark[3] = { 0xff, 0x00, 0xff };

bool png_read_rgb(const char *path, uint8_t **rgb, uint32_t *width,
                  uint32_t *height, char **err)
{
    png_image img = { .version = PNG_IMAGE_VERSION };

    *rgb = NULL;
    if (!png_image_begin_read_from_file(&img, path)) {
        *err = g_strdup_printf("cannot read '%s': %s", path, img.message);
        return false;
    }
    img.format = PNG_FORMAT_RGB;
    if (img.width == 0 || img.height == 0 ||
        (uint64_t)img.width * img.height > (1u << 28)) {
        *err = g_strdup_printf("'%s': a %ux%u image is not one to compare",
                               path, img.width, img.height);
        png_image_free(&img);
        return false;
    }
    *rgb = g_malloc(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, NULL, *rgb, 0, NULL)) {
        *err = g_strdup_printf("cannot read '%s': %s", path, img.message);
        g_clear_pointer(rgb, g_free);
        png_image_free(&img);
        return false;
    }
    *width = img.width;
    *height = img.height;
    return true;
}

/*
 * A differing pixel of the difference picture: the image's pixel (x, y)
 * half-way to magenta, so that what is there can still be made out;
 * magenta where the image has no pixel.
 */
static void diff_pixel(uint8_t *pd, const uint8_t *a, uint32_t aw,
                       uint32_t ah, uint32_t x, uint32_t y)
{
    for (int c = 0; c < 3; c++) {
        pd[c] = x < aw && y < ah
                ? (a[((size_t)y * aw + x) * 3 + c] + diff_mark[c] + 1) / 2
                : diff_mark[c];
    }
}

/* The difference of pixel (x, y) of A (aw wide) and B, 0-255, or -1. */
static int pixel_diff(const uint8_t *a, uint32_t aw, uint32_t ah,
                      const uint8_t *b, uint32_t bw, uint32_t bh,
                      uint32_t x, uint32_t y)
{
    const uint8_t *pa, *pb;
    int worst = 0;

    if (x >= aw || y >= ah || x >= bw || y >= bh) {
        return -1;
    }
    pa = a + ((size_t)y * aw + x) * 3;
    pb = b + ((size_t)y * bw + x) * 3;
    for (int c = 0; c < 3; c++) {
        worst = MAX(worst, abs(pa[c] - pb[c]));
    }
    return worst;
}

static bool write_diff(const char *path, const uint8_t *rgb, uint32_t w,
                       uint32_t h, char **err)
{
    png_image img = {
        .version = PNG_IMAGE_VERSION, .width = w, .height = h,
        .format = PNG_FORMAT_RGB,
    };

    if (!png_image_write_to_file(&img, path, 0, rgb, 0, NULL)) {
        *err = g_strdup_printf("cannot write '%s': %s", path, img.message);
        return false;
    }
    return true;
}

bool png_compare(const char *image, const char *golden, int tolerance,
                 const char *diff_path, PngDiff *res, char **err)
{
    g_autofree uint8_t *a = NULL, *b = NULL, *d = NULL;
    uint32_t aw, ah, bw, bh, w, h;

    memset(res, 0, sizeof(*res));
    if (!png_read_rgb(image, &a, &aw, &ah, err) ||
        !png_read_rgb(golden, &b, &bw, &bh, err)) {
        return false;
    }
    res->width = aw;
    res->height = ah;
    res->golden_width = bw;
    res->golden_height = bh;
    w = MAX(aw, bw);
    h = MAX(ah, bh);
    d = g_malloc((size_t)w * h * 3);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            int diff = pixel_diff(a, aw, ah, b, bw, bh, x, y);
            uint8_t *pd = d + ((size_t)y * w + x) * 3;

            if (diff < 0 || diff > tolerance) {
                res->worst = diff < 0 ? 255 : MAX(res->worst, diff);
                res->differing++;
                diff_pixel(pd, a, aw, ah, x, y);
                continue;
            }
            res->worst = MAX(res->worst, diff);
            for (int c = 0; c < 3; c++) {
                pd[c] = a[((size_t)y * aw + x) * 3 + c] / 4;
            }
        }
    }
    if (res->differing && diff_path) {
        return write_diff(diff_path, d, w, h, err);
    }
    return true;
}
