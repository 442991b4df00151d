/*
 * A guest program for tests/guest/cursor.sh: through DRM's legacy cursor
 * ioctl (what X's modesetting driver uses), give the first active CRTC a
 * 64x64 ARGB8888 cursor at (CURSOR_X, CURSOR_Y):
 *   rows 0-31:  columns 0-31 opaque red, 32-63 opaque green;
 *   rows 32-63: columns 0-31 red at alpha 0x80 (straight), 32-63 clear.
 * nouveau turns that into core HEAD_SET_CONTROL/OFFSET/CONTEXT_DMA_CURSOR
 * methods and cursor channel POINT_OUT writes.  It exits once the cursor
 * is set, leaving a child that keeps the device open (a DRM master that
 * closes it gets fbcon's state restored, cursor off) until the guest
 * powers off.  Built statically by the test with
 * the kernel's uapi headers only.
 *
 * SPDX-License-Identifier: MIT
 */
#include <drm.h>             /* libdrm-dev: the kernel uapi headers */
#include <drm_mode.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define CURSOR_X    100
#define CURSOR_Y    200

static int fail(const char *what)
{
    printf("drm-cursor: %s failed\n", what);
    fflush(stdout);
    return 1;
}

int main(void)
{
    struct drm_mode_card_res res;
    struct drm_mode_create_dumb cd = { .width = 64, .height = 64, .bpp = 32 };
    struct drm_mode_map_dumb md = { 0 };
    struct drm_mode_cursor cur = { 0 };
    uint32_t crtcs[8], crtc = 0;
    uint32_t *px;
    int fd = open("/dev/dri/card0", O_RDWR);

    if (fd < 0) {
        return fail("open /dev/dri/card0");
    }
    memset(&res, 0, sizeof(res));
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) < 0) {
        return fail("GETRESOURCES");
    }
    if (res.count_crtcs > 8) {
        res.count_crtcs = 8;
    }
    res.crtc_id_ptr = (uintptr_t)crtcs;
    res.count_fbs = res.count_connectors = res.count_encoders = 0;
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) < 0) {
        return fail("GETRESOURCES (CRTCs)");
    }
    for (uint32_t i = 0; i < res.count_crtcs && !crtc; i++) {
        struct drm_mode_crtc c = { .crtc_id = crtcs[i] };

        if (ioctl(fd, DRM_IOCTL_MODE_GETCRTC, &c) == 0 && c.mode_valid) {
            crtc = c.crtc_id;
        }
    }
    if (!crtc) {
        return fail("finding an active CRTC");
    }
    if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) < 0) {
        return fail("CREATE_DUMB");
    }
    md.handle = cd.handle;
    if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md) < 0) {
        return fail("MAP_DUMB");
    }
    px = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
              md.offset);
    if (px == MAP_FAILED) {
        return fail("mmap");
    }
    for (int y = 0; y < 64; y++) {
        uint32_t *row = (uint32_t *)((uint8_t *)px + y * cd.pitch);

        for (int x = 0; x < 64; x++) {
            row[x] = y < 32 ? (x < 32 ? 0xffff0000u : 0xff00ff00u)
                            : (x < 32 ? 0x80ff0000u : 0x00000000u);
        }
    }
    cur.flags = DRM_MODE_CURSOR_BO | DRM_MODE_CURSOR_MOVE;
    cur.crtc_id = crtc;
    cur.x = CURSOR_X;
    cur.y = CURSOR_Y;
    cur.width = 64;
    cur.height = 64;
    cur.handle = cd.handle;
    if (ioctl(fd, DRM_IOCTL_MODE_CURSOR, &cur) < 0) {
        return fail("MODE_CURSOR");
    }
    printf("drm-cursor: cursor on CRTC %u at %d,%d\n", crtc, CURSOR_X,
           CURSOR_Y);
    fflush(stdout);
    /* the caller goes on; a child keeps the device (and the cursor) */
    if (fork() == 0) {
        for (;;) {
            pause();
        }
    }
    return 0;
}
