/*
 * gl-info: what es2_info would print, without X (mesa-utils' es2_info
 * needs an X display; eglinfo prints no GL strings).  Run in gemu's guest
 * with Mesa (gemu -guest-mesa) by tests/guest/mesa.sh:
 *
 *   gl-info [DEVICE] [clear] [readback WxH]
 *
 * opens DEVICE (default /dev/dri/renderD128) through GBM, initialises
 * EGL on it (Mesa's nouveau driver on the emulated G84: its screen
 * set-up, its channel and the 3D object's initial state), makes a GLES2
 * context current without a surface and prints
 *
 *   gl-info: EGL_VENDOR ... / EGL_VERSION ... / EGL driver ...
 *   gl-info: GL_VENDOR nouveau
 *   gl-info: GL_RENDERER NV84
 *   gl-info: GL_VERSION OpenGL ES 3.x Mesa ...
 *
 * With "clear" it also clears a 64x64 RGBA8 renderbuffer to
 * (0.25, 0.5, 0.75, 1.0) and reads its first pixel back
 * ("gl-info: clear pixel RRGGBBAA", expected 4080bfff): the first
 * drawing Mesa does on the card, printed and not checked.  With
 * "readback WxH" it clears a WxH renderbuffer the same way and reads
 * all of it back ("gl-info: readback WxH: N of M pixels wrong, first at
 * X,Y: RRGGBBAA"): large reads take other paths in Mesa than one pixel.
 * Exit status: 0, or 1 with "gl-info: FAIL ..." on a failure.
 *
 * Built on the host against Debian's libEGL, libGLESv2 and libgbm
 * (libegl-dev, libgles-dev, libgbm-dev), which the guest has too.
 *
 * SPDX-License-Identifier: MIT
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <gbm.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what)
{
    printf("gl-info: FAIL %s (EGL error 0x%x)\n", what, eglGetError());
    fflush(stdout);
    return 1;
}

static void show(const char *name, const char *value)
{
    printf("gl-info: %s %s\n", name, value ? value : "(null)");
}

/*
 * Clear a WxH RGBA8 renderbuffer to (0.25, 0.5, 0.75, 1.0), read back
 * its RWxRH corner and report: one pixel's value, or how many are wrong.
 */
static void clear_pixel(unsigned w, unsigned h, unsigned rw, unsigned rh)
{
    static const unsigned char want[4] = { 0x40, 0x80, 0xbf, 0xff };
    unsigned char *px = calloc((size_t)rw * rh, 4);
    size_t bad = 0, first = 0;
    GLuint rb, fb;

    if (!px) {
        printf("gl-info: FAIL out of memory\n");
        return;
    }
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, w, h);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb);
    printf("gl-info: framebuffer status 0x%x\n",
           glCheckFramebufferStatus(GL_FRAMEBUFFER));
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(0, 0, rw, rh, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (rw == 1 && rh == 1) {
        printf("gl-info: clear pixel %02x%02x%02x%02x (GL error 0x%x)\n",
               px[0], px[1], px[2], px[3], glGetError());
    } else {
        for (size_t i = 0; i < (size_t)rw * rh; i++) {
            if (memcmp(px + i * 4, want, 4) && !bad++) {
                first = i;
            }
        }
        printf("gl-info: readback %ux%u: %zu of %zu pixels wrong, first at "
               "%zu,%zu: %02x%02x%02x%02x (GL error 0x%x)\n", rw, rh, bad,
               (size_t)rw * rh, first % rw, first / rw, px[first * 4],
               px[first * 4 + 1], px[first * 4 + 2], px[first * 4 + 3],
               glGetError());
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glDeleteRenderbuffers(1, &rb);
    free(px);
}

int main(int argc, char **argv)
{
    const char *dev = "/dev/dri/renderD128";
    int clear = 0;
    unsigned rw = 0, rh = 0;
    static const EGLint cfg_attr[] = {
        EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
        EGL_SURFACE_TYPE, 0,
        EGL_NONE,
    };
    static const EGLint ctx_attr[] = {
        EGL_CONTEXT_CLIENT_VERSION, 2,
        EGL_NONE,
    };
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
    struct gbm_device *gbm;
    EGLDisplay dpy;
    EGLConfig cfg;
    EGLContext ctx;
    EGLint major, minor, n = 0;
    const char *(*query_driver)(EGLDisplay);
    int fd;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "clear")) {
            clear = 1;
        } else if (!strcmp(argv[i], "readback") && i + 1 < argc &&
                   sscanf(argv[i + 1], "%ux%u", &rw, &rh) == 2 &&
                   rw && rh && rw <= 4096 && rh <= 4096) {
            i++;
        } else {
            dev = argv[i];
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        perror(dev);
        return fail("cannot open the DRM device");
    }
    gbm = gbm_create_device(fd);
    if (!gbm) {
        return fail("gbm_create_device");
    }
    show("gbm backend", gbm_device_get_backend_name(gbm));
    get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
        eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) {
        return fail("no eglGetPlatformDisplayEXT");
    }
    dpy = get_display(EGL_PLATFORM_GBM_KHR, gbm, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        return fail("eglInitialize on GBM");
    }
    show("EGL_VENDOR", eglQueryString(dpy, EGL_VENDOR));
    show("EGL_VERSION", eglQueryString(dpy, EGL_VERSION));
    query_driver = (const char *(*)(EGLDisplay))
        eglGetProcAddress("eglGetDisplayDriverName");
    if (query_driver) {
        show("EGL driver", query_driver(dpy));
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        return fail("eglBindAPI(EGL_OPENGL_ES_API)");
    }
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        return fail("no GLES2 config");
    }
    ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT) {
        return fail("eglCreateContext (GLES2)");
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        return fail("eglMakeCurrent without a surface");
    }
    show("GL_VENDOR", (const char *)glGetString(GL_VENDOR));
    show("GL_RENDERER", (const char *)glGetString(GL_RENDERER));
    show("GL_VERSION", (const char *)glGetString(GL_VERSION));
    show("GL_SHADING_LANGUAGE_VERSION",
         (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
    if (clear) {
        clear_pixel(64, 64, 1, 1);
    }
    if (rw) {
        clear_pixel(rw, rh, rw, rh);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    gbm_device_destroy(gbm);
    close(fd);
    printf("gl-info: done\n");
    return 0;
}
