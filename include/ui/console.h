/*
 * Display layer: surfaces and the listeners that present them.
 *
 * A device hands ui/ a DisplaySurface (a host pointer to the pixels, plus
 * the guest address, size, pitch and format they came from) and tells it
 * when a region changed or a frame ended.  ui/ knows nothing of the
 * device; listeners (SDL2 windows, PNG files) know nothing of each
 * other.  A console has one current surface and any number of listeners,
 * called in registration order.  A machine attaches them with
 * display_open() (docs/devel/ui.md).
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
/*
 * Row @y of @s as 8-bit R, G, B, A into @dst (width * 4 bytes): the same
 * values as display_surface_get_rgba, faster.
 */
void display_surface_row_rgba(const DisplaySurface *s, uint32_t y,
                              uint8_t *dst);

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

/*
 * -frames DIR: a listener that writes every NEW frame (its pixels differ
 * from the last frame written) as DIR/PREFIX-NNNNNN.png, NNNNNN being the
 * console's frame number, compressed for speed (the same pixels give
 * the same bytes, but not those of display_png_write).  At most one file
 * per DISPLAY_FRAMES_MIN_INTERVAL_MS of @clock's time: a frame that comes
 * sooner is held back and written by display_frames_listener_poll() once
 * the interval has passed, or by display_frames_listener_flush() (so the
 * last frame is never lost).  @clock (NULL: host monotonic time) returns
 * nanoseconds; tests inject their own.  DIR is created if missing (false
 * with *err if it cannot be); the first write error is reported with
 * gemu_error and no more files are written.
 */
#define DISPLAY_FRAMES_MIN_INTERVAL_MS  100

typedef int64_t (*DisplayClockFn)(void *opaque);

DisplayListener *display_frames_listener_new(const char *dir,
                                             const char *prefix,
                                             DisplayClockFn clock,
                                             void *clock_opaque,
                                             char **err);
/* Write the held-back frame if the interval has passed. */
void display_frames_listener_poll(DisplayListener *dl);
/* Write the held-back frame now, whatever the interval (at exit). */
void display_frames_listener_flush(DisplayListener *dl);
/* The same for every frames listener alive. */
void display_frames_poll_all(void);
void display_frames_flush_all(void);

/* --- SDL2 backend (ui/sdl2.c): a window drawn with OpenGL (epoxy) --- */

/*
 * Start SDL's video subsystem (reference counted); false with *err if no
 * display can be opened.
 */
bool sdl2_display_init(char **err);
/* Drop one reference; the last one destroys every window. */
void sdl2_display_fini(void);
/*
 * A listener that shows console @name in a resizable window of its own
 * (after sdl2_display_init), drawn with OpenGL, or with SDL's renderer
 * when no GL context can be had (or GEMU_SDL_NO_GL=1 is in the
 * environment); NULL with *err if no window can be made.
 */
DisplayListener *sdl2_listener_new(const char *name, char **err);
/*
 * Handle window events and present new frames; false once the user asked
 * to close a window (or SDL was told to quit).
 */
bool sdl2_poll(void);
/* Windows open now. */
unsigned sdl2_window_count(void);
/*
 * The window title for console @name showing @s (NULL: no signal) at
 * @fps frames per second, e.g. "gemu sgx543 — 256x256 — 60 fps"
 * (UTF-8 em dashes).
 */
char *sdl2_window_title(const char *name, const DisplaySurface *s,
                        unsigned fps);
/*
 * Where a @sw x @sh image goes in a @dw x @dh window: scaled as large as
 * fits with its aspect kept, centred (black bars around); rect = x, y
 * (from the top left), w, h.
 */
void sdl2_fit_rect(uint32_t sw, uint32_t sh, int dw, int dh, int rect[4]);

/* --- Keyboard input (ui/input.c) --- */

/*
 * A key went down (@down true; held keys repeat as more downs, as a
 * keyboard does) or up.  @qcode names the key as QEMU's QKeyCode does
 * ("a", "1", "ret", "spc", "shift", "ctrl_r", "bracket_left", "f12",
 * ...): a vocabulary of physical keys, whatever the host's layout.
 */
typedef void (*DisplayKeyFn)(void *opaque, const char *qcode, bool down);

/* The machine's key listener (NULL: keys are dropped); one at a time. */
void display_set_key_handler(DisplayKeyFn cb, void *opaque);
/* A backend saw a key (@qcode NULL: a key with no name, dropped). */
void display_key_event(const char *qcode, bool down);
/* The qcode of SDL_Scancode @scancode, or NULL if it has none. */
const char *sdl2_scancode_to_qcode(int scancode);

/* --- Display backends as the machines choose them (ui/display.c) --- */

/* How often a machine's main loop should call display_poll(). */
#define DISPLAY_POLL_INTERVAL_MS    16

typedef enum DisplayKind {
    DISPLAY_KIND_DEFAULT,   /* sdl if a display is available, else none */
    DISPLAY_KIND_SDL,       /* an SDL2 window */
    DISPLAY_KIND_PNG,       /* headless: frames only to -frames/-screendump */
    DISPLAY_KIND_NONE,      /* nothing */
} DisplayKind;

/*
 * Parse a -display argument: NULL (the default), "sdl" (or "sdl2"),
 * "png", "png:PREFIX" (every frame to PREFIX-NNNN.png, *png_prefix set,
 * g_free), "none".  False with *err for anything else.
 */
bool display_parse_spec(const char *spec, DisplayKind *kind,
                        char **png_prefix, char **err);
/*
 * Attach to @con what -display @display and -frames @frames (NULL: none)
 * ask for.  The default picks sdl when DISPLAY or WAYLAND_DISPLAY is set
 * and SDL can open it, else none, and logs its choice once.  False with
 * *err (g_free) on a bad spec, an "sdl" that cannot open a window, or a
 * -frames directory that cannot be made.  May be called for several
 * consoles (one window each); -frames files are DIR/frame-NNNNNN.png, or
 * DIR/NAME-frame-NNNNNN.png for a second console with the same DIR.
 */
/*
 * The clock of the -frames listeners display_open() makes from now on
 * (NULL: host time).  -clock virtual gives one on which every frame is
 * past the interval, so that which frames are written does not depend
 * on host timing.
 */
void display_set_frames_clock(DisplayClockFn clock, void *opaque);
bool display_open(DisplayConsole *con, const char *display,
                  const char *frames, char **err);
/*
 * Call every DISPLAY_POLL_INTERVAL_MS from the machine's main loop: pumps
 * window events, presents new frames, writes held-back -frames files.
 * False once the user closed a window: the machine should then end.
 */
bool display_poll(void);
/* Is a window open (then the machine waits for the user to close it)? */
bool display_has_window(void);
/*
 * Write the last -frames files and close the windows.  Call it before
 * the surfaces' memory goes away (before freeing the device); the
 * consoles may be freed before or after.  Safe to call twice.
 */
void display_close(void);

#endif
