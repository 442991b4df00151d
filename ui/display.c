/*
 * Display backends as the machines choose them: -display sdl|png|none
 * (and the old png:PREFIX) and -frames DIR attach listeners to a
 * console; display_poll() keeps windows alive from the machine's loop;
 * display_close() writes what is left and closes the windows.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "ui/console.h"

static struct {
    bool sdl;                   /* we hold a reference on the SDL backend */
    bool default_logged;
    GHashTable *frames_dirs;    /* -frames directory -> consoles using it */
    DisplayClockFn frames_clock;    /* NULL: host time */
    void *frames_clock_opaque;
} display;

bool display_parse_spec(const char *spec, DisplayKind *kind,
                        char **png_prefix, char **err)
{
    *png_prefix = NULL;
    if (!spec) {
        *kind = DISPLAY_KIND_DEFAULT;
    } else if (!strcmp(spec, "sdl") || !strcmp(spec, "sdl2")) {
        *kind = DISPLAY_KIND_SDL;
    } else if (!strcmp(spec, "png")) {
        *kind = DISPLAY_KIND_PNG;
    } else if (g_str_has_prefix(spec, "png:") && spec[4]) {
        *kind = DISPLAY_KIND_PNG;
        *png_prefix = g_strdup(spec + 4);
    } else if (!strcmp(spec, "none")) {
        *kind = DISPLAY_KIND_NONE;
    } else {
        *err = g_strdup_printf("unknown display '%s' (sdl, png, png:PREFIX, "
                               "none)", spec);
        return false;
    }
    return true;
}

static bool display_env_set(const char *name)
{
    const char *v = g_getenv(name);

    return v && *v;
}

/* The default: sdl if a display is there and SDL can open it, else none. */
static DisplayKind display_default(void)
{
    g_autofree char *why = NULL;
    DisplayKind kind = DISPLAY_KIND_NONE;

    if (display.sdl) {
        kind = DISPLAY_KIND_SDL;
    } else if (!display_env_set("DISPLAY") &&
               !display_env_set("WAYLAND_DISPLAY")) {
        why = g_strdup("neither DISPLAY nor WAYLAND_DISPLAY is set");
    } else if (sdl2_display_init(&why)) {
        display.sdl = true;
        kind = DISPLAY_KIND_SDL;
    }
    if (!display.default_logged) {
        display.default_logged = true;
        if (kind == DISPLAY_KIND_SDL) {
            gemu_log("gemu: display: sdl (the default with a display)\n");
        } else {
            gemu_log("gemu: display: none (the default: %s)\n", why);
        }
    }
    return kind;
}

/* File names for -frames DIR: "frame", then "NAME-frame" for more consoles. */
static char *display_frames_prefix(DisplayConsole *con, const char *dir)
{
    g_autofree char *name = NULL;
    unsigned n;

    if (!display.frames_dirs) {
        display.frames_dirs = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                    g_free, NULL);
    }
    n = GPOINTER_TO_UINT(g_hash_table_lookup(display.frames_dirs, dir));
    g_hash_table_insert(display.frames_dirs, g_strdup(dir),
                        GUINT_TO_POINTER(n + 1));
    if (!n) {
        return g_strdup("frame");
    }
    name = g_strdup(display_console_name(con));
    g_strcanon(name, G_CSET_A_2_Z G_CSET_a_2_z G_CSET_DIGITS "_-.", '-');
    return g_strdup_printf("%s-frame", name);
}

void display_set_frames_clock(DisplayClockFn clock, void *opaque)
{
    display.frames_clock = clock;
    display.frames_clock_opaque = opaque;
}

bool display_open(DisplayConsole *con, const char *display_spec,
                  const char *frames, char **err)
{
    g_autofree char *png_prefix = NULL;
    DisplayListener *frames_dl = NULL, *sdl_dl = NULL;
    bool by_default = false;
    DisplayKind kind;

    if (!display_parse_spec(display_spec, &kind, &png_prefix, err)) {
        return false;
    }
    if (frames) {
        g_autofree char *prefix = display_frames_prefix(con, frames);

        frames_dl = display_frames_listener_new(frames, prefix,
                                                display.frames_clock,
                                                display.frames_clock_opaque,
                                                err);
        if (!frames_dl) {
            return false;
        }
    }
    if (kind == DISPLAY_KIND_DEFAULT) {
        by_default = true;
        kind = display_default();
    }
    if (kind == DISPLAY_KIND_SDL) {
        g_autofree char *why = NULL;

        if (!display.sdl) {
            if (!sdl2_display_init(&why)) {
                *err = g_strdup_printf("-display sdl: %s", why);
                goto fail;
            }
            display.sdl = true;
        }
        sdl_dl = sdl2_listener_new(display_console_name(con), &why);
        if (sdl_dl) {
            display_console_add_listener(con, sdl_dl);
        } else if (by_default) {
            /* nobody asked for a window: go on without one */
            gemu_log("gemu: display: none after all (%s)\n", why);
        } else {
            *err = g_strdup_printf("-display sdl: %s", why);
            goto fail;
        }
    }
    if (png_prefix) {
        display_console_add_listener(con,
                                     display_png_listener_new(png_prefix));
    }
    if (frames_dl) {
        display_console_add_listener(con, frames_dl);
    }
    return true;

fail:
    if (frames_dl) {
        frames_dl->ops->free(frames_dl);
    }
    return false;
}

bool display_poll(void)
{
    display_frames_poll_all();
    return display.sdl ? sdl2_poll() : true;
}

bool display_has_window(void)
{
    return display.sdl && sdl2_window_count() > 0;
}

void display_close(void)
{
    display_frames_flush_all();
    if (display.sdl) {
        sdl2_display_fini();
        display.sdl = false;
    }
    g_clear_pointer(&display.frames_dirs, g_hash_table_destroy);
}
