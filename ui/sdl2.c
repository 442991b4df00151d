/*
 * SDL2 backend of the display layer: one resizable window per console,
 * the console's surface drawn into it as a texture on a quad with OpenGL
 * (through libepoxy), scaled to the window with its aspect kept (black
 * bars).  Without a usable GL context the window is drawn with SDL's own
 * renderer instead.  The title shows the console, the mode and the
 * frames per second.
 *
 * The listener callbacks only take notes (no SDL call): the machine may
 * call them at any time, also after the windows are gone.  Everything
 * that talks to SDL happens in sdl2_poll(), from the machine's loop.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "ui/console.h"

#include <SDL.h>
#include <epoxy/gl.h>

/* Size of a window that has no surface to show yet. */
#define SDL2_NO_SIGNAL_W    640
#define SDL2_NO_SIGNAL_H    480

#define NS_PER_SEC          1000000000LL

typedef struct Sdl2Listener {
    DisplayListener dl;
    char *name;
    SDL_Window *win;            /* NULL once SDL is shut down */
    SDL_GLContext gl;           /* NULL: drawn with ren */
    GLuint gltex;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    uint32_t tex_fmt;           /* SDL pixel format of tex */
    uint32_t tex_w, tex_h;      /* what the texture holds (0: nothing) */
    uint8_t *conv;              /* RGBA rows of formats drawn converted */
    size_t conv_size;

    /* notes taken by the callbacks, acted on in sdl2_poll() */
    bool has_surface;
    uint32_t mode_w, mode_h;    /* the mode the window was sized for */
    bool resize;                /* size the window for the new mode */
    bool dirty;                 /* upload rows dirty_y0..dirty_y1 - 1 */
    uint32_t dirty_y0, dirty_y1;
    bool redraw;                /* draw the window again */

    uint64_t period_frames;     /* frames since period_start */
    int64_t period_start;
    unsigned fps;
    char *title;
} Sdl2Listener;

static struct {
    int refs;
    GSList *windows;            /* Sdl2Listener *, with a window */
    bool quit;
    bool fallback_logged;
} sdl2;

static int64_t sdl2_now(void)
{
    return g_get_monotonic_time() * 1000;
}

char *sdl2_window_title(const char *name, const DisplaySurface *s,
                        unsigned fps)
{
    /* UTF-8 em dashes, as window titles are UTF-8 */
    if (!s) {
        return g_strdup_printf("gemu %s \xe2\x80\x94 no signal", name);
    }
    return g_strdup_printf("gemu %s \xe2\x80\x94 %ux%u \xe2\x80\x94 %u fps",
                           name, s->width, s->height, fps);
}

void sdl2_fit_rect(uint32_t sw, uint32_t sh, int dw, int dh, int rect[4])
{
    uint64_t w, h;

    if (!sw || !sh || dw <= 0 || dh <= 0) {
        rect[0] = rect[1] = rect[2] = rect[3] = 0;
        return;
    }
    /* the side that runs out first decides the scale; round the other */
    if ((uint64_t)dw * sh <= (uint64_t)dh * sw) {
        w = dw;
        h = MIN(((uint64_t)sh * dw + sw / 2) / sw, (uint64_t)dh);
    } else {
        h = dh;
        w = MIN(((uint64_t)sw * dh + sh / 2) / sh, (uint64_t)dw);
    }
    rect[0] = (dw - (int)w) / 2;
    rect[1] = (dh - (int)h) / 2;
    rect[2] = (int)w;
    rect[3] = (int)h;
}

/* ---- listener callbacks: notes only ---- */

static void sdl2_surface_switch(DisplayListener *dl, const DisplaySurface *s)
{
    Sdl2Listener *sl = dl->opaque;

    /* devices set the same surface again every frame: only a mode counts */
    if (!s) {
        sl->redraw |= sl->has_surface;
        sl->has_surface = false;
        return;
    }
    if (!sl->has_surface || s->width != sl->mode_w ||
        s->height != sl->mode_h) {
        sl->mode_w = s->width;
        sl->mode_h = s->height;
        sl->resize = true;
    }
    sl->has_surface = true;
    sl->dirty = true;
    sl->dirty_y0 = 0;
    sl->dirty_y1 = UINT32_MAX;
}

/* Rows are what is uploaded: consoles change whole lines of text. */
static void sdl2_update(DisplayListener *dl, uint32_t x, uint32_t y,
                        uint32_t w, uint32_t h)
{
    Sdl2Listener *sl = dl->opaque;
    uint32_t end = h > UINT32_MAX - y ? UINT32_MAX : y + h;

    if (!h || !w) {
        return;
    }
    if (!sl->dirty) {
        sl->dirty = true;
        sl->dirty_y0 = y;
        sl->dirty_y1 = end;
    } else {
        sl->dirty_y0 = MIN(sl->dirty_y0, y);
        sl->dirty_y1 = MAX(sl->dirty_y1, end);
    }
}

static void sdl2_frame(DisplayListener *dl, uint64_t frame)
{
    Sdl2Listener *sl = dl->opaque;

    /* a frame nobody said the changes of may have changed anything */
    if (!sl->dirty) {
        sl->dirty = true;
        sl->dirty_y0 = 0;
        sl->dirty_y1 = UINT32_MAX;
    }
    sl->period_frames++;
}

/* ---- drawing ---- */

/*
 * Rows @y0..@y1 - 1 of @s as one of the texture formats: the surface
 * itself when its format is one (BGRA/BGRX or RGBA bytes), else converted
 * to RGBA.  *bgra tells which; *row_pixels is the distance between rows.
 */
static const uint8_t *sdl2_pixels(Sdl2Listener *sl, const DisplaySurface *s,
                                  uint32_t y0, uint32_t y1, bool *bgra,
                                  uint32_t *row_pixels)
{
    size_t stride = (size_t)s->width * 4;

    if ((s->format == DISPLAY_FORMAT_BGRA8888 ||
         s->format == DISPLAY_FORMAT_BGRX8888 ||
         s->format == DISPLAY_FORMAT_RGBA8888) && s->pitch % 4 == 0) {
        *bgra = s->format != DISPLAY_FORMAT_RGBA8888;
        *row_pixels = s->pitch / 4;
        return s->data + (size_t)y0 * s->pitch;
    }
    if (sl->conv_size < stride * (y1 - y0)) {
        sl->conv_size = stride * (y1 - y0);
        sl->conv = g_realloc(sl->conv, sl->conv_size);
    }
    for (uint32_t y = y0; y < y1; y++) {
        display_surface_row_rgba(s, y, sl->conv + (y - y0) * stride);
    }
    *bgra = false;
    *row_pixels = s->width;
    return sl->conv;
}

/* The console's surface, or NULL if there is none or it is unusable. */
static const DisplaySurface *sdl2_surface(Sdl2Listener *sl)
{
    const DisplaySurface *s;
    g_autofree char *err = NULL;

    if (!sl->has_surface || !sl->dl.con) {
        return NULL;
    }
    s = display_console_surface(sl->dl.con);
    if (s && !display_surface_valid(s, &err)) {
        gemu_log_once(LOG_GUEST_ERROR, "sdl2-surface", (uintptr_t)sl,
                      "sdl: %s: cannot show the surface: %s\n", sl->name,
                      err);
        return NULL;
    }
    return s;
}

static void sdl2_gl_upload(Sdl2Listener *sl)
{
    const DisplaySurface *s = sdl2_surface(sl);
    const uint8_t *px;
    uint32_t row, y0 = 0, y1;
    bool bgra, whole;
    GLenum fmt;

    if (!s) {
        sl->tex_w = sl->tex_h = 0;
        return;
    }
    whole = sl->tex_w != s->width || sl->tex_h != s->height;
    y1 = s->height;
    if (!whole) {
        y0 = MIN(sl->dirty_y0, s->height);
        y1 = MIN(sl->dirty_y1, s->height);
        if (y0 >= y1) {
            return;
        }
    }
    px = sdl2_pixels(sl, s, y0, y1, &bgra, &row);
    fmt = bgra ? GL_BGRA : GL_RGBA;
    glBindTexture(GL_TEXTURE_2D, sl->gltex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, row);
    if (whole) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, s->width, s->height, 0,
                     fmt, GL_UNSIGNED_BYTE, px);
        sl->tex_w = s->width;
        sl->tex_h = s->height;
    } else {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y0, s->width, y1 - y0, fmt,
                        GL_UNSIGNED_BYTE, px);
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

static void sdl2_gl_draw(Sdl2Listener *sl)
{
    int dw, dh, r[4];
    GLint filter;

    SDL_GL_GetDrawableSize(sl->win, &dw, &dh);
    glViewport(0, 0, dw, dh);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (sl->tex_w) {
        sdl2_fit_rect(sl->tex_w, sl->tex_h, dw, dh, r);
        /* GL counts y from the bottom */
        glViewport(r[0], dh - r[1] - r[3], r[2], r[3]);
        /* exact pixels at whole multiples, smooth in between */
        filter = r[2] % sl->tex_w == 0 && r[3] % sl->tex_h == 0 ?
                 GL_NEAREST : GL_LINEAR;
        glBindTexture(GL_TEXTURE_2D, sl->gltex);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
        /* the surface's alpha (or X byte) must not reach a window */
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
        glEnable(GL_TEXTURE_2D);
        glBegin(GL_TRIANGLE_STRIP);
        glTexCoord2f(0.0f, 1.0f);
        glVertex2f(-1.0f, -1.0f);
        glTexCoord2f(1.0f, 1.0f);
        glVertex2f(1.0f, -1.0f);
        glTexCoord2f(0.0f, 0.0f);
        glVertex2f(-1.0f, 1.0f);
        glTexCoord2f(1.0f, 0.0f);
        glVertex2f(1.0f, 1.0f);
        glEnd();
        glDisable(GL_TEXTURE_2D);
    }
    SDL_GL_SwapWindow(sl->win);
}

static void sdl2_ren_upload(Sdl2Listener *sl)
{
    const DisplaySurface *s = sdl2_surface(sl);
    const uint8_t *px;
    uint32_t row, fmt;
    bool bgra;

    if (!s) {
        sl->tex_w = sl->tex_h = 0;
        return;
    }
    px = sdl2_pixels(sl, s, 0, s->height, &bgra, &row);
    fmt = bgra ? SDL_PIXELFORMAT_BGRA32 : SDL_PIXELFORMAT_RGBA32;
    if (!sl->tex || sl->tex_w != s->width || sl->tex_h != s->height ||
        sl->tex_fmt != fmt) {
        if (sl->tex) {
            SDL_DestroyTexture(sl->tex);
        }
        sl->tex_w = sl->tex_h = 0;
        sl->tex = SDL_CreateTexture(sl->ren, fmt, SDL_TEXTUREACCESS_STREAMING,
                                    s->width, s->height);
        if (!sl->tex) {
            gemu_log_once(LOG_GUEST_ERROR, "sdl2-texture", (uintptr_t)sl,
                          "sdl: %s: no %ux%u texture: %s\n", sl->name,
                          s->width, s->height, SDL_GetError());
            return;
        }
        /* the surface's alpha (or X byte) must not reach a window */
        SDL_SetTextureBlendMode(sl->tex, SDL_BLENDMODE_NONE);
        sl->tex_fmt = fmt;
        sl->tex_w = s->width;
        sl->tex_h = s->height;
    }
    SDL_UpdateTexture(sl->tex, NULL, px, row * 4);
}

static void sdl2_ren_draw(Sdl2Listener *sl)
{
    int dw, dh, r[4];

    SDL_SetRenderDrawColor(sl->ren, 0, 0, 0, 255);
    SDL_RenderClear(sl->ren);
    if (sl->tex_w && SDL_GetRendererOutputSize(sl->ren, &dw, &dh) == 0) {
        SDL_Rect dst;

        sdl2_fit_rect(sl->tex_w, sl->tex_h, dw, dh, r);
        dst = (SDL_Rect) { r[0], r[1], r[2], r[3] };
        SDL_SetTextureScaleMode(sl->tex,
                                r[2] % sl->tex_w == 0 &&
                                r[3] % sl->tex_h == 0 ?
                                SDL_ScaleModeNearest : SDL_ScaleModeLinear);
        SDL_RenderCopy(sl->ren, sl->tex, NULL, &dst);
    }
    SDL_RenderPresent(sl->ren);
}

/* Size the window for a new mode: the mode's size, shrunk to the screen. */
static void sdl2_resize(Sdl2Listener *sl)
{
    SDL_Rect usable;
    int w = sl->mode_w, h = sl->mode_h;

    sl->resize = false;
    if (SDL_GetWindowFlags(sl->win) &
        (SDL_WINDOW_MAXIMIZED | SDL_WINDOW_FULLSCREEN)) {
        return;
    }
    if (SDL_GetDisplayUsableBounds(SDL_GetWindowDisplayIndex(sl->win),
                                   &usable) == 0 &&
        (w > usable.w || h > usable.h)) {
        int r[4];

        sdl2_fit_rect(w, h, usable.w, usable.h, r);
        w = MAX(r[2], 1);
        h = MAX(r[3], 1);
    }
    SDL_SetWindowSize(sl->win, w, h);
}

static void sdl2_refresh(Sdl2Listener *sl, int64_t now)
{
    const DisplaySurface *s;
    g_autofree char *title = NULL;
    int64_t elapsed = now - sl->period_start;

    if (elapsed >= NS_PER_SEC) {
        sl->fps = (unsigned)((sl->period_frames * NS_PER_SEC + elapsed / 2)
                             / elapsed);
        sl->period_frames = 0;
        sl->period_start = now;
    }
    if (sl->resize) {
        sdl2_resize(sl);
        sl->redraw = true;
    }
    if (sl->gl) {
        SDL_GL_MakeCurrent(sl->win, sl->gl);
    }
    if (sl->dirty) {
        sl->dirty = false;
        if (sl->gl) {
            sdl2_gl_upload(sl);
        } else {
            sdl2_ren_upload(sl);
        }
        sl->redraw = true;
    }
    if (!sl->has_surface && sl->tex_w) {
        sl->tex_w = sl->tex_h = 0;
        sl->redraw = true;
    }
    if (sl->redraw) {
        sl->redraw = false;
        if (sl->gl) {
            sdl2_gl_draw(sl);
        } else {
            sdl2_ren_draw(sl);
        }
    }
    /* after drawing, so that a title with the mode means it is shown */
    s = sl->has_surface ? display_console_surface(sl->dl.con) : NULL;
    title = sdl2_window_title(sl->name, s, sl->fps);
    if (g_strcmp0(title, sl->title)) {
        SDL_SetWindowTitle(sl->win, title);
        g_free(sl->title);
        sl->title = g_steal_pointer(&title);
    }
}

static Sdl2Listener *sdl2_find(Uint32 window_id)
{
    SDL_Window *win = SDL_GetWindowFromID(window_id);

    return win ? SDL_GetWindowData(win, "gemu") : NULL;
}

bool sdl2_poll(void)
{
    SDL_Event ev;
    int64_t now;

    if (!sdl2.refs) {
        return !sdl2.quit;
    }
    while (SDL_PollEvent(&ev)) {
        Sdl2Listener *sl;

        switch (ev.type) {
        case SDL_QUIT:
            sdl2.quit = true;
            break;
        case SDL_KEYDOWN:
        case SDL_KEYUP:
            /* SDL's auto-repeat comes as more downs, as from a keyboard */
            display_key_event(
                sdl2_scancode_to_qcode(ev.key.keysym.scancode),
                ev.type == SDL_KEYDOWN);
            break;
        case SDL_WINDOWEVENT:
            sl = sdl2_find(ev.window.windowID);
            if (!sl) {
                break;
            }
            switch (ev.window.event) {
            case SDL_WINDOWEVENT_CLOSE:
                /* closing a window ends gemu, as on a real machine */
                sdl2.quit = true;
                break;
            case SDL_WINDOWEVENT_SHOWN:
            case SDL_WINDOWEVENT_EXPOSED:
            case SDL_WINDOWEVENT_RESIZED:
            case SDL_WINDOWEVENT_SIZE_CHANGED:
            case SDL_WINDOWEVENT_MAXIMIZED:
            case SDL_WINDOWEVENT_RESTORED:
                sl->redraw = true;
                break;
            default:
                break;
            }
            break;
        default:
            break;
        }
    }
    now = sdl2_now();
    for (GSList *l = sdl2.windows; l; l = l->next) {
        sdl2_refresh(l->data, now);
    }
    return !sdl2.quit;
}

unsigned sdl2_window_count(void)
{
    return g_slist_length(sdl2.windows);
}

/* ---- windows ---- */

static void sdl2_destroy_window(Sdl2Listener *sl)
{
    if (!sl->win) {
        return;
    }
    sdl2.windows = g_slist_remove(sdl2.windows, sl);
    if (sl->gl) {
        SDL_GL_MakeCurrent(sl->win, sl->gl);
        glDeleteTextures(1, &sl->gltex);
        SDL_GL_MakeCurrent(sl->win, NULL);
        SDL_GL_DeleteContext(sl->gl);
        sl->gl = NULL;
    }
    if (sl->tex) {
        SDL_DestroyTexture(sl->tex);
        sl->tex = NULL;
    }
    if (sl->ren) {
        SDL_DestroyRenderer(sl->ren);
        sl->ren = NULL;
    }
    SDL_DestroyWindow(sl->win);
    sl->win = NULL;
    sl->tex_w = sl->tex_h = 0;
}

static void sdl2_listener_free(DisplayListener *dl)
{
    Sdl2Listener *sl = dl->opaque;

    sdl2_destroy_window(sl);
    g_free(sl->conv);
    g_free(sl->title);
    g_free(sl->name);
    g_free(sl);
}

static const DisplayListenerOps sdl2_listener_ops = {
    .name = "sdl2",
    .surface_switch = sdl2_surface_switch,
    .update = sdl2_update,
    .frame = sdl2_frame,
    .free = sdl2_listener_free,
};

static const Uint32 sdl2_window_flags =
    SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;

/* A window with a GL context gemu can draw with; false with *why if not. */
static bool sdl2_open_gl(Sdl2Listener *sl, char **why)
{
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 1);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    sl->win = SDL_CreateWindow(sl->title, SDL_WINDOWPOS_UNDEFINED,
                               SDL_WINDOWPOS_UNDEFINED, SDL2_NO_SIGNAL_W,
                               SDL2_NO_SIGNAL_H,
                               sdl2_window_flags | SDL_WINDOW_OPENGL);
    if (!sl->win) {
        *why = g_strdup(SDL_GetError());
        return false;
    }
    sl->gl = SDL_GL_CreateContext(sl->win);
    if (!sl->gl) {
        *why = g_strdup(SDL_GetError());
    } else if (!epoxy_is_desktop_gl() || epoxy_gl_version() < 20) {
        /* fixed-function quads, BGRA uploads, any texture size: GL 2.0 */
        *why = g_strdup_printf("OpenGL %s %d.%d, gemu needs 2.0",
                               epoxy_is_desktop_gl() ? "" : "ES",
                               epoxy_gl_version() / 10,
                               epoxy_gl_version() % 10);
        SDL_GL_DeleteContext(sl->gl);
        sl->gl = NULL;
    }
    if (!sl->gl) {
        SDL_DestroyWindow(sl->win);
        sl->win = NULL;
        return false;
    }
    /* never wait for vblank: the machine's loop must not stall */
    SDL_GL_SetSwapInterval(0);
    glDisable(GL_DITHER);
    glDisable(GL_BLEND);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glGenTextures(1, &sl->gltex);
    glBindTexture(GL_TEXTURE_2D, sl->gltex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return true;
}

DisplayListener *sdl2_listener_new(const char *name, char **err)
{
    Sdl2Listener *sl;
    g_autofree char *why = NULL;
    const char *no_gl = g_getenv("GEMU_SDL_NO_GL");

    if (!sdl2.refs) {
        *err = g_strdup("sdl: the video subsystem is not started");
        return NULL;
    }
    sl = g_new0(Sdl2Listener, 1);
    sl->dl.ops = &sdl2_listener_ops;
    sl->dl.opaque = sl;
    sl->name = g_strdup(name);
    sl->title = sdl2_window_title(name, NULL, 0);
    if (no_gl && *no_gl && strcmp(no_gl, "0")) {
        why = g_strdup("GEMU_SDL_NO_GL is set");
    } else if (!sdl2_open_gl(sl, &why)) {
        g_assert(why);
    }
    if (!sl->gl) {
        if (!sdl2.fallback_logged) {
            sdl2.fallback_logged = true;
            gemu_log("gemu: sdl: no OpenGL (%s); drawing with SDL's "
                     "renderer\n", why);
        }
        sl->win = SDL_CreateWindow(sl->title, SDL_WINDOWPOS_UNDEFINED,
                                   SDL_WINDOWPOS_UNDEFINED, SDL2_NO_SIGNAL_W,
                                   SDL2_NO_SIGNAL_H, sdl2_window_flags);
        sl->ren = sl->win ? SDL_CreateRenderer(sl->win, -1, 0) : NULL;
        if (!sl->ren) {
            *err = g_strdup_printf("sdl: cannot open a window: %s",
                                   SDL_GetError());
            if (sl->win) {
                SDL_DestroyWindow(sl->win);
            }
            g_free(sl->title);
            g_free(sl->name);
            g_free(sl);
            return NULL;
        }
    }
    SDL_SetWindowData(sl->win, "gemu", sl);
    sl->redraw = true;
    sl->period_start = sdl2_now();
    sdl2.windows = g_slist_append(sdl2.windows, sl);
    return &sl->dl;
}

/* ---- the video subsystem ---- */

bool sdl2_display_init(char **err)
{
    if (sdl2.refs) {
        sdl2.refs++;
        return true;
    }
    /* an emulator window is not a game: leave screen savers alone */
    SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1");
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
    if (!g_getenv("SDL_VIDEODRIVER")) {
        /*
         * Only drivers that show something: SDL would otherwise fall back
         * to its offscreen driver, an invisible window nobody can close.
         * (SDL_VIDEODRIVER in the environment still picks any, e.g.
         * "dummy" for tests.)
         */
        GString *drivers = g_string_new("");
        const char *d = g_getenv("DISPLAY");
        const char *w = g_getenv("WAYLAND_DISPLAY");

        if (d && *d) {
            g_string_append(drivers, "x11,");
        }
        if (w && *w) {
            g_string_append(drivers, "wayland,");
        }
        g_string_append(drivers, "kmsdrm");
        SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers->str);
        g_string_free(drivers, TRUE);
    }
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) < 0) {
        *err = g_strdup_printf("no display can be opened (%s)",
                               SDL_GetError());
        return false;
    }
    sdl2.refs = 1;
    sdl2.quit = false;
    return true;
}

void sdl2_display_fini(void)
{
    if (!sdl2.refs || --sdl2.refs) {
        return;
    }
    /* the listeners stay with their consoles, windowless */
    while (sdl2.windows) {
        sdl2_destroy_window(sdl2.windows->data);
    }
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    SDL_Quit();
}
