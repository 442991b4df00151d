/*
 * Display consoles: the current surface of one display and the listeners
 * that present it.  Device-agnostic: see include/ui/console.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "ui/console.h"

#include <math.h>

struct DisplayConsole {
    char *name;
    GPtrArray *listeners;       /* DisplayListener * */
    bool has_surface;
    DisplaySurface surface;
    uint64_t frames;
    char *info;                 /* the device's description of the mode */
};

static const struct {
    const char *name;
    unsigned bpp;
} formats[DISPLAY_FORMAT_COUNT] = {
    [DISPLAY_FORMAT_RGBA8888] = { "rgba8888", 4 },
    [DISPLAY_FORMAT_BGRA8888] = { "bgra8888", 4 },
    [DISPLAY_FORMAT_BGRX8888] = { "bgrx8888", 4 },
    [DISPLAY_FORMAT_RGB565] = { "rgb565", 2 },
    [DISPLAY_FORMAT_RGBA_F16] = { "rgba-f16", 8 },
    [DISPLAY_FORMAT_R_F32] = { "r-f32", 4 },
};

const char *display_format_name(DisplayFormat f)
{
    return (unsigned)f < DISPLAY_FORMAT_COUNT ? formats[f].name : "invalid";
}

unsigned display_format_bpp(DisplayFormat f)
{
    return (unsigned)f < DISPLAY_FORMAT_COUNT ? formats[f].bpp : 0;
}

bool display_surface_valid(const DisplaySurface *s, char **err)
{
    unsigned bpp = display_format_bpp(s->format);

    if (!bpp) {
        *err = g_strdup_printf("invalid surface format %d", s->format);
        return false;
    }
    if (!s->width || !s->height || !s->data) {
        *err = g_strdup_printf("empty surface (%ux%u)", s->width, s->height);
        return false;
    }
    if (s->pitch < (uint64_t)s->width * bpp) {
        *err = g_strdup_printf("surface pitch %u is less than %u x %u bytes",
                               s->pitch, s->width, bpp);
        return false;
    }
    return true;
}

static uint8_t unorm8(float v)
{
    if (!(v > 0.0f)) {          /* also NaN */
        return 0;
    }
    if (v >= 1.0f) {
        return 255;
    }
    return (uint8_t)lrintf(v * 255.0f);
}

void display_surface_get_rgba(const DisplaySurface *s, uint32_t x, uint32_t y,
                              uint8_t rgba[4])
{
    const uint8_t *p = s->data + (size_t)y * s->pitch
                       + (size_t)x * display_format_bpp(s->format);

    switch (s->format) {
    case DISPLAY_FORMAT_RGBA8888:
        memcpy(rgba, p, 4);
        break;
    case DISPLAY_FORMAT_BGRA8888:
    case DISPLAY_FORMAT_BGRX8888:
        rgba[0] = p[2];
        rgba[1] = p[1];
        rgba[2] = p[0];
        rgba[3] = s->format == DISPLAY_FORMAT_BGRA8888 ? p[3] : 255;
        break;
    case DISPLAY_FORMAT_RGB565: {
        unsigned v = p[0] | p[1] << 8;
        unsigned r = v >> 11, g = (v >> 5) & 0x3f, b = v & 0x1f;
        rgba[0] = (r << 3) | (r >> 2);
        rgba[1] = (g << 2) | (g >> 4);
        rgba[2] = (b << 3) | (b >> 2);
        rgba[3] = 255;
        break;
    }
    case DISPLAY_FORMAT_RGBA_F16:
        for (int c = 0; c < 4; c++) {
            rgba[c] = unorm8(gemu_half_to_float(p[2 * c] | p[2 * c + 1] << 8));
        }
        break;
    case DISPLAY_FORMAT_R_F32: {
        float f;
        memcpy(&f, p, 4);
        rgba[0] = rgba[1] = rgba[2] = unorm8(f);
        rgba[3] = 255;
        break;
    }
    default:
        memset(rgba, 0, 4);
        break;
    }
}

void display_surface_row_rgba(const DisplaySurface *s, uint32_t y,
                              uint8_t *dst)
{
    const uint8_t *p = s->data + (size_t)y * s->pitch;

    /* the formats a scanout usually has, without the per-pixel switch */
    switch (s->format) {
    case DISPLAY_FORMAT_RGBA8888:
        memcpy(dst, p, (size_t)s->width * 4);
        break;
    case DISPLAY_FORMAT_BGRA8888:
    case DISPLAY_FORMAT_BGRX8888: {
        bool alpha = s->format == DISPLAY_FORMAT_BGRA8888;

        for (uint32_t x = 0; x < s->width; x++, p += 4, dst += 4) {
            dst[0] = p[2];
            dst[1] = p[1];
            dst[2] = p[0];
            dst[3] = alpha ? p[3] : 255;
        }
        break;
    }
    default:
        for (uint32_t x = 0; x < s->width; x++) {
            display_surface_get_rgba(s, x, y, dst + 4 * x);
        }
        break;
    }
}

DisplayConsole *display_console_new(const char *name)
{
    DisplayConsole *con = g_new0(DisplayConsole, 1);

    con->name = g_strdup(name);
    con->listeners = g_ptr_array_new();
    return con;
}

void display_console_free(DisplayConsole *con)
{
    if (!con) {
        return;
    }
    for (guint i = 0; i < con->listeners->len; i++) {
        DisplayListener *dl = g_ptr_array_index(con->listeners, i);
        if (dl->ops->free) {
            dl->ops->free(dl);
        }
    }
    g_ptr_array_free(con->listeners, TRUE);
    g_free(con->info);
    g_free(con->name);
    g_free(con);
}

const char *display_console_name(const DisplayConsole *con)
{
    return con->name;
}

void display_console_set_info(DisplayConsole *con, const char *info)
{
    g_free(con->info);
    con->info = g_strdup(info);
}

const char *display_console_info(const DisplayConsole *con)
{
    return con->info;
}

void display_console_add_listener(DisplayConsole *con, DisplayListener *dl)
{
    dl->con = con;
    g_ptr_array_add(con->listeners, dl);
    if (con->has_surface && dl->ops->surface_switch) {
        dl->ops->surface_switch(dl, &con->surface);
    }
}

void display_console_set_surface(DisplayConsole *con,
                                 const DisplaySurface *s)
{
    con->has_surface = s != NULL;
    if (s) {
        con->surface = *s;
    }
    for (guint i = 0; i < con->listeners->len; i++) {
        DisplayListener *dl = g_ptr_array_index(con->listeners, i);
        if (dl->ops->surface_switch) {
            dl->ops->surface_switch(dl, s ? &con->surface : NULL);
        }
    }
}

const DisplaySurface *display_console_surface(const DisplayConsole *con)
{
    return con->has_surface ? &con->surface : NULL;
}

void display_console_update(DisplayConsole *con, uint32_t x, uint32_t y,
                            uint32_t w, uint32_t h)
{
    for (guint i = 0; i < con->listeners->len; i++) {
        DisplayListener *dl = g_ptr_array_index(con->listeners, i);
        if (dl->ops->update) {
            dl->ops->update(dl, x, y, w, h);
        }
    }
}

uint64_t display_console_frame(DisplayConsole *con)
{
    con->frames++;
    for (guint i = 0; i < con->listeners->len; i++) {
        DisplayListener *dl = g_ptr_array_index(con->listeners, i);
        if (dl->ops->frame) {
            dl->ops->frame(dl, con->frames);
        }
    }
    return con->frames;
}

uint64_t display_console_frames(const DisplayConsole *con)
{
    return con->frames;
}
