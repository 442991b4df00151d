/*
 * gl-frames.so: an LD_PRELOAD shim that prints what a GLES program reads
 * back (tests/guest/mesa.sh: glmark2-es2-drm --validate, which draws a
 * scene at a fixed pose and reads one pixel of it).  Before each
 * glReadPixels() the shim reads the whole viewport itself and prints it
 * on stdout, every GL_FRAMES_STEP-th pixel of every GL_FRAMES_STEP-th
 * row (default 4), bottom row first, as
 *
 *     gl-frame-time N SECONDS
 *     gl-frame N WIDTH HEIGHT
 *     <base64 of WIDTH*HEIGHT RGB triples, 76 characters a line>
 *     gl-frame-end N
 *
 * (SECONDS: CLOCK_MONOTONIC at the read-back) so that the same
 * program's frames on two drivers can be compared on the host.  glmark2
 * finds its GL functions with eglGetProcAddress(), itself looked up with
 * dlsym() in a dlopen()ed libEGL: the shim answers those two lookups for
 * glReadPixels and glClear, and those two itself for a program linked to
 * libGLESv2.  Its dlsym() answers RTLD_NEXT lookups
 * as "next after gl-frames.so": put it last in LD_PRELOAD, after other
 * shims that look up with RTLD_NEXT (kms-hold.so).
 *
 * With GL_FRAMES_ONCE=1 only the first read-back after a glClear() is
 * printed: glmark2 --validate --frame-end readpixels reads a pixel at
 * the end of each scene's frame (after its clear and draws), and a
 * scene with a check of its own reads again, the same picture.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <EGL/egl.h>
#include <GLES2/gl2.h>

typedef void (*read_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum,
                               GLenum, void *);
typedef void (*get_integerv_fn)(GLenum, GLint *);
typedef void (*(*gpa_fn)(const char *))(void);
typedef void *(*dlsym_fn)(void *, const char *);
typedef void (*clear_fn)(GLbitfield);

static read_pixels_fn real_read_pixels;
static get_integerv_fn real_get_integerv;
static gpa_fn real_gpa;
static clear_fn real_clear;
static unsigned frame_no;
static int cleared = 1;

static dlsym_fn real_dlsym(void)
{
    static dlsym_fn fn;

    if (!fn) {
        fn = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        if (!fn) {
            fn = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        }
    }
    return fn;
}

static void put_base64(const uint8_t *p, size_t n)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned col = 0;

    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        char q[4];

        v |= (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        v |= (i + 2 < n ? p[i + 2] : 0);
        q[0] = tab[v >> 18];
        q[1] = tab[(v >> 12) & 63];
        q[2] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        q[3] = i + 2 < n ? tab[v & 63] : '=';
        fwrite(q, 1, 4, stdout);
        col += 4;
        if (col == 76) {
            putchar('\n');
            col = 0;
        }
    }
    if (col) {
        putchar('\n');
    }
}

/* The viewport, every step-th pixel, as RGB on stdout. */
static void dump_frame(void)
{
    const char *s = getenv("GL_FRAMES_STEP");
    int step = s && atoi(s) > 0 ? atoi(s) : 4;
    GLint vp[4] = { 0 };
    unsigned w, h, n = frame_no++;
    uint8_t *rgba, *rgb;
    struct timespec ts;

    if (!real_get_integerv || !real_read_pixels) {
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    real_get_integerv(GL_VIEWPORT, vp);
    if (vp[2] <= 0 || vp[3] <= 0 || vp[2] > 8192 || vp[3] > 8192) {
        return;
    }
    w = vp[2] / step;
    h = vp[3] / step;
    rgba = malloc((size_t)vp[2] * vp[3] * 4);
    rgb = malloc((size_t)w * h * 3);
    if (!rgba || !rgb) {
        free(rgba);
        free(rgb);
        return;
    }
    real_read_pixels(vp[0], vp[1], vp[2], vp[3], GL_RGBA, GL_UNSIGNED_BYTE,
                     rgba);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *p = rgba + ((size_t)y * step * vp[2] + x * step) * 4;

            memcpy(rgb + ((size_t)y * w + x) * 3, p, 3);
        }
    }
    /* on a line of its own: the program may have left one unfinished */
    printf("\ngl-frame-time %u %.3f\ngl-frame %u %u %u\n", n,
           ts.tv_sec + ts.tv_nsec / 1e9, n, w, h);
    put_base64(rgb, (size_t)w * h * 3);
    printf("gl-frame-end %u\n", n);
    fflush(stdout);
    free(rgba);
    free(rgb);
}

void glReadPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format,
                  GLenum type, void *data)
{
    if (!real_read_pixels) {
        /* a program linked to libGLESv2 */
        real_read_pixels = (read_pixels_fn)real_dlsym()(RTLD_NEXT,
                                                        "glReadPixels");
        real_get_integerv = (get_integerv_fn)real_dlsym()(RTLD_NEXT,
                                                          "glGetIntegerv");
    }
    if (cleared || !getenv("GL_FRAMES_ONCE")) {
        dump_frame();
    }
    cleared = 0;
    if (real_read_pixels) {
        real_read_pixels(x, y, w, h, format, type, data);
    }
}

void glClear(GLbitfield mask)
{
    if (!real_clear) {
        /* a program linked to libGLESv2 */
        real_clear = (clear_fn)real_dlsym()(RTLD_NEXT, "glClear");
    }
    cleared = 1;
    if (real_clear) {
        real_clear(mask);
    }
}

static void (*shim_gpa(const char *name))(void)
{
    void (*fn)(void) = real_gpa ? real_gpa(name) : NULL;

    if (!real_get_integerv && real_gpa) {
        real_get_integerv = (get_integerv_fn)real_gpa("glGetIntegerv");
    }
    if (fn && !strcmp(name, "glReadPixels")) {
        real_read_pixels = (read_pixels_fn)fn;
        return (void (*)(void))glReadPixels;
    }
    if (fn && !strcmp(name, "glClear")) {
        real_clear = (clear_fn)fn;
        return (void (*)(void))glClear;
    }
    return fn;
}

void (*eglGetProcAddress(const char *name))(void)
{
    if (!real_gpa) {
        real_gpa = (gpa_fn)real_dlsym()(RTLD_NEXT, "eglGetProcAddress");
    }
    return shim_gpa(name);
}

void *dlsym(void *handle, const char *name)
{
    void *sym = real_dlsym()(handle, name);

    if (sym && !strcmp(name, "eglGetProcAddress")) {
        real_gpa = (gpa_fn)sym;
        return (void *)eglGetProcAddress;
    }
    if (sym && !strcmp(name, "glReadPixels")) {
        real_read_pixels = (read_pixels_fn)sym;
        if (!real_get_integerv) {
            real_get_integerv = (get_integerv_fn)real_dlsym()(handle,
                                                            "glGetIntegerv");
        }
        return (void *)glReadPixels;
    }
    if (sym && !strcmp(name, "glClear")) {
        real_clear = (clear_fn)sym;
        return (void *)glClear;
    }
    return sym;
}
