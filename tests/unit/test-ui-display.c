/*
 * Unit tests: choosing display backends (ui/display.c) -- -display specs
 * and their errors, the default without a display -- and the SDL2
 * backend (ui/sdl2.c) on SDL's "dummy" video driver, which needs no X
 * server: the window's size, title and pixels (SDL's software renderer:
 * the dummy driver has no OpenGL), letterboxing, and closing.  The OpenGL
 * path in a real window is tested by tests/tools/display-sdl.sh.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"
#include <check.h>
#include <SDL.h>

typedef struct SpecCase {
    const char *spec;
    bool ok;
    DisplayKind kind;
    const char *prefix;
} SpecCase;

static const SpecCase specs[] = {
    { NULL, true, DISPLAY_KIND_DEFAULT, NULL },
    { "sdl", true, DISPLAY_KIND_SDL, NULL },
    { "sdl2", true, DISPLAY_KIND_SDL, NULL },
    { "png", true, DISPLAY_KIND_PNG, NULL },
    { "png:out/f", true, DISPLAY_KIND_PNG, "out/f" },
    { "none", true, DISPLAY_KIND_NONE, NULL },
    { "png:", false },
    { "", false },
    { "gtk", false },
    { "sdl:gl=on", false },
    { "None", false },
};

START_TEST(display_specs)
{
    const SpecCase *c = &specs[_i];
    g_autofree char *prefix = NULL;
    g_autofree char *err = NULL;
    DisplayKind kind = -1;
    bool ok = display_parse_spec(c->spec, &kind, &prefix, &err);

    ck_assert_msg(ok == c->ok, "'%s'", c->spec);
    if (!ok) {
        /* the message names the spec and what would have been right */
        ck_assert_ptr_nonnull(strstr(err, c->spec));
        ck_assert_ptr_nonnull(strstr(err, "sdl, png"));
        return;
    }
    ck_assert_int_eq(kind, c->kind);
    ck_assert_str_eq(prefix ? prefix : "-", c->prefix ? c->prefix : "-");
}
END_TEST

START_TEST(display_open_bad_spec)
{
    DisplayConsole *con = display_console_new("test");
    g_autofree char *err = NULL;

    ck_assert(!display_open(con, "vnc", NULL, &err));
    ck_assert_ptr_nonnull(strstr(err, "vnc"));
    display_console_free(con);
}
END_TEST

static void no_display_env(void)
{
    g_unsetenv("DISPLAY");
    g_unsetenv("WAYLAND_DISPLAY");
    g_unsetenv("SDL_VIDEODRIVER");
}

/* No DISPLAY: the default is none, quietly successful, no window. */
START_TEST(display_default_without_display)
{
    DisplayConsole *con = display_console_new("test");
    g_autofree char *err = NULL;

    no_display_env();
    ck_assert_msg(display_open(con, NULL, NULL, &err), "%s", err);
    ck_assert(!display_has_window());
    ck_assert(display_poll());
    display_close();
    display_console_free(con);
}
END_TEST

/* -display sdl where no display can be opened is an error. */
START_TEST(display_sdl_without_display)
{
    DisplayConsole *con = display_console_new("test");
    g_autofree char *err = NULL;

    no_display_env();
    /* only X11: no console (KMS) display may answer instead */
    g_setenv("SDL_VIDEODRIVER", "x11", TRUE);
    ck_assert(!display_open(con, "sdl", NULL, &err));
    ck_assert_ptr_nonnull(strstr(err, "-display sdl"));
    ck_assert(!display_has_window());
    display_close();
    display_console_free(con);
}
END_TEST

START_TEST(display_titles)
{
    DisplaySurface s = { .width = 1024, .height = 768 };
    g_autofree char *a = sdl2_window_title("g84 head 0", NULL, 0);
    g_autofree char *b = sdl2_window_title("g84 head 0", &s, 60);

    ck_assert_str_eq(a, "gemu g84 head 0 \xe2\x80\x94 no signal");
    ck_assert_str_eq(b, "gemu g84 head 0 \xe2\x80\x94 1024x768 "
                     "\xe2\x80\x94 60 fps");
}
END_TEST

typedef struct FitCase {
    uint32_t sw, sh;
    int dw, dh;
    int rect[4];
} FitCase;

static const FitCase fits[] = {
    { 256, 256, 256, 256, { 0, 0, 256, 256 } },       /* 1:1 */
    { 256, 256, 512, 256, { 128, 0, 256, 256 } },     /* bars left, right */
    { 256, 256, 640, 480, { 80, 0, 480, 480 } },
    { 1024, 768, 800, 800, { 0, 100, 800, 600 } },    /* bars top, bottom */
    { 1024, 768, 2048, 1536, { 0, 0, 2048, 1536 } },  /* 2x */
    { 640, 480, 101, 100, { 0, 12, 101, 76 } },       /* 75.75 rounds up */
    { 3, 1, 2, 100, { 0, 49, 2, 1 } },                /* 0.67 rounds to 1 */
    { 0, 10, 100, 100, { 0, 0, 0, 0 } },
    { 10, 10, 0, 100, { 0, 0, 0, 0 } },
};

START_TEST(display_fit)
{
    const FitCase *c = &fits[_i];
    int r[4];

    sdl2_fit_rect(c->sw, c->sh, c->dw, c->dh, r);
    ck_assert_msg(!memcmp(r, c->rect, sizeof(r)),
                  "%ux%u in %dx%d: %d,%d %dx%d", c->sw, c->sh, c->dw, c->dh,
                  r[0], r[1], r[2], r[3]);
}
END_TEST

/* ---- the SDL2 listener on the dummy driver ---- */

static SDL_Window *find_window(void)
{
    /* SDL numbers windows from 1; this process made only ours */
    for (Uint32 id = 1; id < 64; id++) {
        SDL_Window *w = SDL_GetWindowFromID(id);

        if (w && g_str_has_prefix(SDL_GetWindowTitle(w), "gemu ")) {
            return w;
        }
    }
    return NULL;
}

/* The window's pixels, RGBA; *w x *h (the renderer's output size). */
static uint8_t *window_pixels(SDL_Window *win, int *w, int *h)
{
    SDL_Renderer *ren = SDL_GetRenderer(win);
    uint8_t *px;

    ck_assert_ptr_nonnull(ren);
    ck_assert_int_eq(SDL_GetRendererOutputSize(ren, w, h), 0);
    px = g_malloc((size_t)*w * *h * 4);
    ck_assert_msg(SDL_RenderReadPixels(ren, NULL, SDL_PIXELFORMAT_RGBA32, px,
                                       *w * 4) == 0, "%s", SDL_GetError());
    return px;
}

/* A 4x2 RGB565 picture, one colour per pixel (converted, not uploaded) */
static const uint16_t picture565[8] = {
    0xf800, 0x07e0, 0x001f, 0xffff,
    0x8410, 0x0000, 0xffe0, 0x07ff,
};

static void pixel565(uint16_t v, uint8_t rgb[3])
{
    uint8_t bytes[2] = { v & 0xff, v >> 8 }, rgba[4];
    DisplaySurface s = {
        .data = bytes, .width = 1, .height = 1, .pitch = 2,
        .format = DISPLAY_FORMAT_RGB565,
    };

    display_surface_get_rgba(&s, 0, 0, rgba);
    memcpy(rgb, rgba, 3);
}

static void dummy_setup(void)
{
    no_display_env();
    g_setenv("SDL_VIDEODRIVER", "dummy", TRUE);
}

START_TEST(display_sdl_window)
{
    DisplayConsole *con = display_console_new("sgx543");
    g_autofree char *err = NULL;
    g_autofree uint8_t *px = NULL;
    uint8_t data[2 * 12] = { 0 };     /* pitch 12: padded rows */
    DisplaySurface s = {
        .data = data, .width = 4, .height = 2, .pitch = 12,
        .format = DISPLAY_FORMAT_RGB565,
    };
    SDL_Window *win;
    int w, h;

    dummy_setup();
    ck_assert_msg(display_open(con, "sdl", NULL, &err), "%s", err);
    ck_assert(display_has_window());
    ck_assert(display_poll());
    win = find_window();
    ck_assert_ptr_nonnull(win);
    ck_assert_str_eq(SDL_GetWindowTitle(win),
                     "gemu sgx543 \xe2\x80\x94 no signal");
    /* no signal: black */
    px = window_pixels(win, &w, &h);
    ck_assert_int_gt(w * h, 0);
    for (int i = 0; i < w * h; i++) {
        ck_assert(!px[4 * i] && !px[4 * i + 1] && !px[4 * i + 2]);
    }
    g_clear_pointer(&px, g_free);

    for (int y = 0; y < 2; y++) {
        for (int x = 0; x < 4; x++) {
            uint16_t v = picture565[y * 4 + x];

            data[y * 12 + 2 * x] = v & 0xff;
            data[y * 12 + 2 * x + 1] = v >> 8;
        }
    }
    display_console_set_surface(con, &s);
    display_console_frame(con);
    ck_assert(display_poll());
    /* the window takes the mode's size and shows it 1:1 */
    SDL_GetWindowSize(win, &w, &h);
    ck_assert_int_eq(w, 4);
    ck_assert_int_eq(h, 2);
    /* (the fps depend on the host's clock) */
    ck_assert(g_str_has_prefix(SDL_GetWindowTitle(win),
                               "gemu sgx543 \xe2\x80\x94 4x2 \xe2\x80\x94 "));
    ck_assert(g_str_has_suffix(SDL_GetWindowTitle(win), " fps"));
    px = window_pixels(win, &w, &h);
    ck_assert_int_eq(w, 4);
    ck_assert_int_eq(h, 2);
    for (int i = 0; i < 8; i++) {
        uint8_t want[3];

        pixel565(picture565[i], want);
        ck_assert_msg(!memcmp(px + 4 * i, want, 3), "pixel %d", i);
    }
    g_clear_pointer(&px, g_free);

    /* the user makes it wider: 1:1 in the middle, black bars */
    SDL_SetWindowSize(win, 8, 2);
    ck_assert(display_poll());
    /* the same mode again does not undo the user's size */
    display_console_set_surface(con, &s);
    display_console_frame(con);
    ck_assert(display_poll());
    px = window_pixels(win, &w, &h);
    ck_assert_int_eq(w, 8);
    ck_assert_int_eq(h, 2);
    for (int y = 0; y < 2; y++) {
        for (int x = 0; x < 8; x++) {
            uint8_t want[3] = { 0, 0, 0 };

            if (x >= 2 && x < 6) {
                pixel565(picture565[y * 4 + x - 2], want);
            }
            ck_assert_msg(!memcmp(px + 4 * (y * 8 + x), want, 3),
                          "(%d, %d)", x, y);
        }
    }
    g_clear_pointer(&px, g_free);

    /* a new mode sizes the window for it again */
    s.width = 2;
    display_console_set_surface(con, &s);
    display_console_frame(con);
    ck_assert(display_poll());
    SDL_GetWindowSize(win, &w, &h);
    ck_assert_int_eq(w, 2);
    ck_assert_int_eq(h, 2);

    /* the surface goes: no signal */
    display_console_set_surface(con, NULL);
    ck_assert(display_poll());
    ck_assert_str_eq(SDL_GetWindowTitle(win),
                     "gemu sgx543 \xe2\x80\x94 no signal");

    display_close();
    ck_assert(!display_has_window());
    /* the listener outlives the window: the console may still call it */
    display_console_set_surface(con, &s);
    display_console_frame(con);
    display_console_free(con);
}
END_TEST

/* The user closes the window: display_poll says so, and keeps saying so. */
START_TEST(display_sdl_close)
{
    DisplayConsole *con = display_console_new("test");
    g_autofree char *err = NULL;
    SDL_Event ev = { 0 };
    SDL_Window *win;

    dummy_setup();
    ck_assert_msg(display_open(con, NULL, NULL, &err), "%s", err);
    /* SDL_VIDEODRIVER alone does not make a default window */
    ck_assert(!display_has_window());
    display_close();
    ck_assert_msg(display_open(con, "sdl", NULL, &err), "%s", err);
    ck_assert(display_poll());
    win = find_window();
    ck_assert_ptr_nonnull(win);
    ev.type = SDL_WINDOWEVENT;
    ev.window.event = SDL_WINDOWEVENT_CLOSE;
    ev.window.windowID = SDL_GetWindowID(win);
    ck_assert_int_eq(SDL_PushEvent(&ev), 1);
    ck_assert(!display_poll());
    ck_assert(!display_poll());
    display_close();
    display_console_free(con);
}
END_TEST

START_TEST(display_sdl_quit)
{
    DisplayConsole *con = display_console_new("test");
    g_autofree char *err = NULL;
    SDL_Event ev = { .type = SDL_QUIT };

    dummy_setup();
    ck_assert_msg(display_open(con, "sdl", NULL, &err), "%s", err);
    ck_assert(display_poll());
    ck_assert_int_eq(SDL_PushEvent(&ev), 1);
    ck_assert(!display_poll());
    /* the console may go before display_close: its window goes with it */
    display_console_free(con);
    ck_assert(!display_has_window());
    display_close();
}
END_TEST

/* Two consoles, two windows; a BGRX surface is shown as it is. */
START_TEST(display_sdl_two_windows)
{
    DisplayConsole *a = display_console_new("head 0");
    DisplayConsole *b = display_console_new("head 1");
    g_autofree char *err = NULL;
    g_autofree uint8_t *px = NULL;
    uint8_t data[3 * 4] = { 1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0 };
    const uint8_t want[3 * 3] = { 3, 2, 1, 6, 5, 4, 9, 8, 7 };
    DisplaySurface s = {
        .data = data, .width = 3, .height = 1, .pitch = 12,
        .format = DISPLAY_FORMAT_BGRX8888,
    };
    SDL_Window *win = NULL;
    int w, h;

    dummy_setup();
    ck_assert_msg(display_open(a, "sdl", NULL, &err), "%s", err);
    ck_assert_msg(display_open(b, "sdl", NULL, &err), "%s", err);
    ck_assert_uint_eq(sdl2_window_count(), 2);
    display_console_set_surface(b, &s);
    display_console_frame(b);
    ck_assert(display_poll());
    for (Uint32 id = 1; id < 64 && !win; id++) {
        SDL_Window *x = SDL_GetWindowFromID(id);

        if (x && g_str_has_prefix(SDL_GetWindowTitle(x), "gemu head 1 ")) {
            win = x;
        }
    }
    ck_assert_ptr_nonnull(win);
    px = window_pixels(win, &w, &h);
    ck_assert_int_eq(w, 3);
    ck_assert_int_eq(h, 1);
    for (int i = 0; i < 3; i++) {
        ck_assert(!memcmp(px + 4 * i, want + 3 * i, 3));
    }
    display_console_free(a);
    ck_assert_uint_eq(sdl2_window_count(), 1);
    display_close();
    display_console_free(b);
}
END_TEST

Suite *ui_display_suite(void)
{
    Suite *s = suite_create("ui-display");
    TCase *tc = tcase_create("spec");

    tcase_add_loop_test(tc, display_specs, 0, ARRAY_SIZE(specs));
    tcase_add_test(tc, display_open_bad_spec);
    tcase_add_test(tc, display_default_without_display);
    tcase_add_test(tc, display_sdl_without_display);
    tcase_add_test(tc, display_titles);
    tcase_add_loop_test(tc, display_fit, 0, ARRAY_SIZE(fits));
    suite_add_tcase(s, tc);

    tc = tcase_create("sdl-dummy");
    tcase_add_test(tc, display_sdl_window);
    tcase_add_test(tc, display_sdl_close);
    tcase_add_test(tc, display_sdl_quit);
    tcase_add_test(tc, display_sdl_two_windows);
    suite_add_tcase(s, tc);
    return s;
}
