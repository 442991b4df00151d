/*
 * Comparing a PNG with a golden one (-compare): the worst channel
 * difference, how many pixels differ beyond a tolerance, and a picture
 * of where.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef UI_PNG_COMPARE_H
#define UI_PNG_COMPARE_H

#include "gemu/osdep.h"

typedef struct PngDiff {
    uint32_t width, height;         /* the image's */
    uint32_t golden_width, golden_height;
    int worst;                      /* largest channel difference, 0-255 */
    uint64_t differing;             /* pixels beyond the tolerance */
} PngDiff;

/*
 * Compare IMAGE with GOLDEN (both PNG, compared as 8-bit RGB): a pixel
 * differs when one of its channels differs by more than TOLERANCE
 * (0-255); images of different sizes differ everywhere outside the part
 * they share (worst 255).  When some pixel differs and DIFF_PATH is not
 * NULL, DIFF_PATH gets a picture: matching pixels dimmed to a quarter,
 * differing ones half-way to magenta (magenta outside the image).  False with *err set if a file cannot be read
 * or written.
 */
bool png_compare(const char *image, const char *golden, int tolerance,
                 const char *diff_path, PngDiff *res, char **err);

/* Read PATH as 8-bit RGB (*rgb: width * height * 3 bytes). */
bool png_read_rgb(const char *path, uint8_t **rgb, uint32_t *width,
                  uint32_t *height, char **err);

#endif
