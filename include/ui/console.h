/*
 * Display layer: surfaces and the listeners that present them.
 *
 * A device hands ui/ a DisplaySurface (a host pointer to the pixels, plus
 * the guest address, size, pitch and format they came from) and tells it
 * when a region changed or a frame ended.  ui/ knows nothing of the
 * device; listeners (PNG dumps now, SDL2 windows later) know nothing of
 * each other.  A console has one current surface and any number of
 * listeners, called in registration order.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef UI_CONSOLE_H
#define UI_CONSOLE_H

#include "gemu/osdep.h"

/*
 * Pixel formats a surface may have, named by their layout in memory
 * (lowest address first), so that a listener can convert without knowing
 * which device made them.
 */
typedef enum DisplayFormat {
    DISPLAY_FORMAT_RGBA8888,    /* bytes R, G, B, A */
    DISPLAY_FORMAT_BGRA8888,    /* bytes B, G, R, A (x8r8g8b8 LE words) */
    DISPLAY_FORMAT_BGRX8888,    /* bytes B, G, R, unused */
    DISPLAY_FORMAT_RGB565,      /* LE u16: R[15:11] G[10:5] B[4:0] */
    DISPLAY_FORMAT_RGBA_F16,    /* 4 x LE IEEE half */
    DISPLAY_FORMAT_R_F32,       /* 1 x LE float, shown as grey */
    DISPLAY_FORMAT_COUNT
} DisplayFormat;

typedef struct DisplaySurface {
    uint8_t *data;          /* host pointer to the first pixel (not owned) */
    uint64_t addr;          /* guest/device address, for messages */
    uint32_t width, height;
    uint32_t pitch;         /* bytes from one row to the next */
    DisplayFormat format;
} DisplaySurface;

const char *display_format_name(DisplayFormat f);
/* Bytes per pixel of @f (0 for an invalid value). */
unsigned display_format_bpp(DisplayFormat f);
/* Is @s usable: known format, non-zero size, pitch >= width * bpp? */
bool display_surface_valid(const DisplaySurface *s, char **err);
/* Pixel (x, y) of @s as 8-bit R, G, B, A (floats clamped to [0, 1]). */
void display_surface_get_rgba(const DisplaySurface *s, uint32_t x, uint32_t y,
                              uint8_t rgba[4]);

typedef struct DisplayConsole DisplayConsole;
typedef struct DisplayListener DisplayListener;

typedef struct DisplayListenerOps {
    const char *name;
    /* The console's surface changed (NULL: none). */
    void (*surface_switch)(DisplayListener *dl, const DisplaySurface *s);
    /* The pixels of a rectangle changed. */
    void (*update)(DisplayListener *dl, uint32_t x, uint32_t y,
                   uint32_t w, uint32_t h);
    /* A frame is complete (@frame counts from 1). */
    void (*frame)(DisplayListener *dl, uint64_t frame);
    /* The listener is dropped: free it. */
    void (*free)(DisplayListener *dl);
} DisplayListenerOps;

struct DisplayListener {
    const DisplayListenerOps *ops;
    DisplayConsole *con;    /* set when registered */
    void *opaque;
};

DisplayConsole *display_console_new(const char *name);
/* Frees the console and its listeners. */
void display_console_free(DisplayConsole *con);
const char *display_console_name(const DisplayConsole *con);

/*
 * The device's one-line description of what the console shows (for the
 * monitor's "info display"), e.g. "1024x768 XRGB8888 linear, VRAM
 * 0x50000, pitch 4096"; NULL clears it.  Copied.
 */
void display_console_set_info(DisplayConsole *con, const char *info);
/* The description, or NULL. */
const char *display_console_info(const DisplayConsole *con);

/* Register @dl (the console takes ownership). */
void display_console_add_listener(DisplayConsole *con, DisplayListener *dl);

/* Set the current surface (copied; NULL: none).  Listeners are told. */
void display_console_set_surface(DisplayConsole *con,
                                 const DisplaySurface *s);
/* The current surface, or NULL. */
const DisplaySurface *display_console_surface(const DisplayConsole *con);

void display_console_update(DisplayConsole *con, uint32_t x, uint32_t y,
                            uint32_t w, uint32_t h);
/* End of a frame; returns its number (1, 2, ...). */
uint64_t display_console_frame(DisplayConsole *con);
uint64_t display_console_frames(const DisplayConsole *con);

/* --- PNG backend (ui/png.c) --- */

/*
 * Write @s as an 8-bit RGB PNG (alpha dropped, as on a screen); false
 * with *err (g_free) on failure.  The same pixels give the same bytes.
 */
bool display_png_write(const DisplaySurface *s, const char *path,
                       char **err);
/*
 * A listener that writes every frame to "PREFIX-NNNN.png" (NNNN from
 * 0001).  Write errors are reported once with gemu_error.
 */
DisplayListener *display_png_listener_new(const char *prefix);

#endif
