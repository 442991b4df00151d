/*
 * PNG backend of the display layer: write a surface as an 8-bit RGB PNG
 * (libpng), and a listener that dumps every frame.  Alpha is dropped: a
 * display shows colour, and dumps must look like the screen.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "ui/console.h"

#include <png.h>

/* The libpng part; false if libpng longjmp'd out (no locals change). */
static bool display_png_emit(png_structp png, png_infop info, FILE *f,
                           const DisplaySurface *s, uint8_t *row)
{
    if (setjmp(png_jmpbuf(png))) {
        return false;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, s->width, s->height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    /*
     * Fixed settings and no timestamp or text chunks, so that the same
     * frame gives the same file (golden images are compared bytewise).
     */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (uint32_t y = 0; y < s->height; y++) {
        for (uint32_t x = 0; x < s->width; x++) {
            uint8_t rgba[4];
            display_surface_get_rgba(s, x, y, rgba);
            memcpy(row + 3 * x, rgba, 3);
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return true;
}

bool display_png_write(const DisplaySurface *s, const char *path,
                       char **err)
{
    png_structp png;
    png_infop info;
    g_autofree uint8_t *row = NULL;
    bool ok;
    FILE *f;

    if (!display_surface_valid(s, err)) {
        return false;
    }
    f = fopen(path, "wb");
    if (!f) {
        *err = g_strdup_printf("cannot write '%s': %s", path,
                               strerror(errno));
        return false;
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        fclose(f);
        *err = g_strdup("libpng: out of memory");
        return false;
    }
    row = g_malloc((size_t)s->width * 3);
    ok = display_png_emit(png, info, f, s, row);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0 && ok) {
        *err = g_strdup_printf("cannot write '%s': %s", path,
                               strerror(errno));
        return false;
    }
    if (!ok) {
        *err = g_strdup_printf("libpng failed writing '%s'", path);
    }
    return ok;
}

typedef struct PngListener {
    DisplayListener dl;
    char *prefix;
    bool failed;
} PngListener;

static void png_listener_frame(DisplayListener *dl, uint64_t frame)
{
    PngListener *pl = dl->opaque;
    const DisplaySurface *s = display_console_surface(dl->con);
    g_autofree char *path = NULL;
    g_autofree char *err = NULL;

    if (!s || pl->failed) {
        return;
    }
    path = g_strdup_printf("%s-%04" PRIu64 ".png", pl->prefix, frame);
    if (!display_png_write(s, path, &err)) {
        gemu_error("png display: %s", err);
        pl->failed = true;
    }
}

static void png_listener_free(DisplayListener *dl)
{
    PngListener *pl = dl->opaque;

    g_free(pl->prefix);
    g_free(pl);
}

static const DisplayListenerOps png_listener_ops = {
    .name = "png",
    .frame = png_listener_frame,
    .free = png_listener_free,
};

DisplayListener *display_png_listener_new(const char *prefix)
{
    PngListener *pl = g_new0(PngListener, 1);

    pl->dl.ops = &png_listener_ops;
    pl->dl.opaque = pl;
    pl->prefix = g_strdup(prefix);
    return &pl->dl;
}
