/*
 * PNG backend of the display layer: write a surface as an 8-bit RGB PNG
 * (libpng), a listener that dumps every frame (-display png:PREFIX) and
 * one that dumps every new frame, rate-limited (-frames DIR).  Alpha is
 * dropped: a display shows colour, and dumps must look like the screen.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "ui/console.h"

#include <png.h>

/*
 * zlib levels.  -screendump and png:PREFIX files are compressed hard
 * (golden images are compared bytewise, so this cannot change without
 * making them again).  -frames files are written while the machine runs,
 * up to 10 a second: level 9 takes ~0.5 s for a 1024x768 text console on
 * this kind of machine, level 1 ~10 ms, at about twice the size.
 */
#define PNG_LEVEL_DUMP      9
#define PNG_LEVEL_FAST      1

/* The libpng part; false if libpng longjmp'd out (no locals change). */
static bool display_png_emit(png_structp png, png_infop info, FILE *f,
                             const DisplaySurface *s, uint8_t *row,
                             int level)
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
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (uint32_t y = 0; y < s->height; y++) {
        /* RGBA to RGB in place: each pixel moves down, never over one */
        display_surface_row_rgba(s, y, row);
        for (uint32_t x = 1; x < s->width; x++) {
            memmove(row + 3 * x, row + 4 * x, 3);
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    return true;
}

static bool png_write_level(const DisplaySurface *s, const char *path,
                            int level, char **err)
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
    row = g_malloc((size_t)s->width * 4);
    ok = display_png_emit(png, info, f, s, row, level);
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

bool display_png_write(const DisplaySurface *s, const char *path,
                       char **err)
{
    return png_write_level(s, path, PNG_LEVEL_DUMP, err);
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

/* ---- -frames DIR: every new frame, at most one per interval ---- */

typedef struct FramesListener {
    DisplayListener dl;
    char *dir;
    char *prefix;
    DisplayClockFn clock;
    void *clock_opaque;
    bool pending;           /* a frame came that is not looked at yet */
    bool checked;           /* last_check_ns is valid */
    int64_t last_check_ns;
    bool written;           /* last[] holds the last frame written */
    uint32_t last_w, last_h;
    uint8_t *last;          /* its pixels, RGBA8888 packed */
    uint8_t *cur;           /* scratch: the frame being looked at */
    bool failed;
} FramesListener;

/* The frames listeners alive, for display_frames_{poll,flush}_all. */
static GSList *frames_listeners;

static int64_t frames_host_clock(void *opaque)
{
    return g_get_monotonic_time() * 1000;
}

/* Compare the console's pixels with the last frame written; write if new. */
static void frames_check(FramesListener *fl, int64_t now)
{
    const DisplaySurface *s = display_console_surface(fl->dl.con);
    size_t stride, size;
    g_autofree char *path = NULL;
    g_autofree char *err = NULL;
    DisplaySurface packed;
    bool same;

    fl->pending = false;
    if (!s || fl->failed || !display_surface_valid(s, &err)) {
        return;             /* nothing looked at: the interval is not used */
    }
    fl->checked = true;
    fl->last_check_ns = now;
    stride = (size_t)s->width * 4;
    size = stride * s->height;
    fl->cur = g_realloc(fl->cur, size);
    for (uint32_t y = 0; y < s->height; y++) {
        display_surface_row_rgba(s, y, fl->cur + y * stride);
    }
    same = fl->written && fl->last_w == s->width && fl->last_h == s->height
           && !memcmp(fl->last, fl->cur, size);
    if (same) {
        return;
    }
    packed = (DisplaySurface) {
        .data = fl->cur,
        .addr = s->addr,
        .width = s->width,
        .height = s->height,
        .pitch = stride,
        .format = DISPLAY_FORMAT_RGBA8888,
    };
    path = g_strdup_printf("%s/%s-%06" PRIu64 ".png", fl->dir, fl->prefix,
                           display_console_frames(fl->dl.con));
    if (!png_write_level(&packed, path, PNG_LEVEL_FAST, &err)) {
        gemu_error("-frames: %s (no more frames are written)", err);
        fl->failed = true;
        return;
    }
    /* keep what was written; the old buffer becomes the next scratch */
    {
        uint8_t *t = fl->last;

        fl->last = fl->cur;
        fl->cur = t;
    }
    fl->written = true;
    fl->last_w = s->width;
    fl->last_h = s->height;
}

static bool frames_due(FramesListener *fl, int64_t now)
{
    return !fl->checked ||
           now - fl->last_check_ns >=
           (int64_t)DISPLAY_FRAMES_MIN_INTERVAL_MS * 1000000;
}

static void frames_listener_frame(DisplayListener *dl, uint64_t frame)
{
    FramesListener *fl = dl->opaque;
    int64_t now = fl->clock(fl->clock_opaque);

    fl->pending = true;
    if (frames_due(fl, now)) {
        frames_check(fl, now);
    }
}

void display_frames_listener_poll(DisplayListener *dl)
{
    FramesListener *fl = dl->opaque;
    int64_t now;

    if (!fl->pending) {
        return;
    }
    now = fl->clock(fl->clock_opaque);
    if (frames_due(fl, now)) {
        frames_check(fl, now);
    }
}

void display_frames_listener_flush(DisplayListener *dl)
{
    FramesListener *fl = dl->opaque;

    if (fl->pending) {
        frames_check(fl, fl->clock(fl->clock_opaque));
    }
}

void display_frames_poll_all(void)
{
    for (GSList *l = frames_listeners; l; l = l->next) {
        display_frames_listener_poll(l->data);
    }
}

void display_frames_flush_all(void)
{
    for (GSList *l = frames_listeners; l; l = l->next) {
        display_frames_listener_flush(l->data);
    }
}

static void frames_listener_free(DisplayListener *dl)
{
    FramesListener *fl = dl->opaque;

    /*
     * No flush here: the surface's memory may be gone by now (the device
     * is often freed first); display_close() flushes while it is alive.
     */
    frames_listeners = g_slist_remove(frames_listeners, dl);
    g_free(fl->dir);
    g_free(fl->prefix);
    g_free(fl->last);
    g_free(fl->cur);
    g_free(fl);
}

static const DisplayListenerOps frames_listener_ops = {
    .name = "frames",
    .frame = frames_listener_frame,
    .free = frames_listener_free,
};

DisplayListener *display_frames_listener_new(const char *dir,
                                             const char *prefix,
                                             DisplayClockFn clock,
                                             void *clock_opaque,
                                             char **err)
{
    FramesListener *fl;

    if (!dir || !*dir) {
        *err = g_strdup("-frames: empty directory name");
        return NULL;
    }
    if (g_mkdir_with_parents(dir, 0777) < 0) {
        *err = g_strdup_printf("-frames: cannot make directory '%s': %s",
                               dir, strerror(errno));
        return NULL;
    }
    fl = g_new0(FramesListener, 1);
    fl->dl.ops = &frames_listener_ops;
    fl->dl.opaque = fl;
    fl->dir = g_strdup(dir);
    fl->prefix = g_strdup(prefix ? prefix : "frame");
    fl->clock = clock ? clock : frames_host_clock;
    fl->clock_opaque = clock_opaque;
    frames_listeners = g_slist_prepend(frames_listeners, &fl->dl);
    return &fl->dl;
}
