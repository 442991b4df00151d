/*
 * kms-hold.so: an LD_PRELOAD shim for KMS programs in the guest
 * (tests/guest/mesa.sh).  It changes two things:
 *
 * - When the program ends (its last frame on the screen, its DRM file
 *   still open), it prints "kms-hold: holding the last frame" and sleeps
 *   KMS_HOLD_SECONDS (default 30) before the exit goes on: once the file
 *   closes, the kernel takes the program's framebuffers down and fbcon
 *   draws over the frame.  The test takes its screendump meanwhile.
 *   "kmscube -c N" leaves the same frame every run (its rotation depends
 *   only on the frame number), so frames of two drivers can be compared.
 *
 * - drmModeAddFB2WithModifiers() given DRM_FORMAT_MOD_INVALID (what
 *   bookworm's kmscube passes when the driver reports no modifier, as
 *   llvmpipe on a dumb-buffer KMS device does) is made without the
 *   modifier, as the program would have meant it.
 *
 * - With KMS_MAX_MODE=WxH, drmModeGetConnector() leaves out the modes
 *   larger than that: programs that take the largest mode (glmark2-es2-
 *   drm) then draw at the same size on every KMS device.
 *
 * Built on the host against its libdrm (the guest's is the same).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

typedef int (*addfb2_mod_fn)(int, uint32_t, uint32_t, uint32_t,
                             const uint32_t[4], const uint32_t[4],
                             const uint32_t[4], const uint64_t[4],
                             uint32_t *, uint32_t);

int drmModeAddFB2WithModifiers(int fd, uint32_t width, uint32_t height,
                               uint32_t format, const uint32_t handles[4],
                               const uint32_t pitches[4],
                               const uint32_t offsets[4],
                               const uint64_t modifier[4], uint32_t *buf_id,
                               uint32_t flags)
{
    static addfb2_mod_fn real;

    if (!real) {
        real = (addfb2_mod_fn)dlsym(RTLD_NEXT, "drmModeAddFB2WithModifiers");
        if (!real) {
            fprintf(stderr, "kms-hold: no drmModeAddFB2WithModifiers\n");
            return -1;
        }
    }
    if ((flags & DRM_MODE_FB_MODIFIERS) && modifier &&
        modifier[0] == DRM_FORMAT_MOD_INVALID) {
        flags &= ~DRM_MODE_FB_MODIFIERS;
        modifier = NULL;
    }
    return real(fd, width, height, format, handles, pitches, offsets,
                modifier, buf_id, flags);
}

typedef drmModeConnectorPtr (*get_connector_fn)(int, uint32_t);

drmModeConnectorPtr drmModeGetConnector(int fd, uint32_t id)
{
    static get_connector_fn real;
    const char *max = getenv("KMS_MAX_MODE");
    unsigned mw, mh;
    drmModeConnectorPtr c;
    int n = 0;

    if (!real) {
        real = (get_connector_fn)dlsym(RTLD_NEXT, "drmModeGetConnector");
        if (!real) {
            return NULL;
        }
    }
    c = real(fd, id);
    if (!c || !max || sscanf(max, "%ux%u", &mw, &mh) != 2) {
        return c;
    }
    for (int i = 0; i < c->count_modes; i++) {
        if (c->modes[i].hdisplay <= mw && c->modes[i].vdisplay <= mh) {
            c->modes[n++] = c->modes[i];
        }
    }
    c->count_modes = n;
    return c;
}

__attribute__((destructor)) static void kms_hold(void)
{
    const char *s = getenv("KMS_HOLD_SECONDS");
    int secs = s ? atoi(s) : 30;

    printf("kms-hold: holding the last frame for %d s\n", secs);
    fflush(stdout);
    if (secs > 0) {
        sleep(secs);
    }
}
