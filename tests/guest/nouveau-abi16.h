/*
 * What the guest programs that drive nouveau's ABI16 ioctls with raw
 * ioctls share (drm-accel.c, drm-hostile.c): the request numbers
 * (libdrm's nouveau_drm.h has the structures, not the numbers), the
 * RAMHT handles and subchannels Mesa uses, M2MF's methods, and an ioctl
 * that retries on EINTR/EAGAIN.  Built with libdrm-dev's uapi headers
 * (cc -I/usr/include/libdrm).  One program per translation unit: fd is
 * the program's DRM device.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_GUEST_NOUVEAU_ABI16_H
#define TESTS_GUEST_NOUVEAU_ABI16_H

#include <stdint.h>          /* before libdrm's nouveau_drm.h, which uses it */
#include <drm.h>             /* libdrm-dev: the kernel uapi headers */
#include <nouveau_drm.h>
#include <errno.h>
#include <sys/ioctl.h>

#define NV_IOWR(n, s)   DRM_IOWR(DRM_COMMAND_BASE + (n), s)
#define NV_IOW(n, s)    DRM_IOW(DRM_COMMAND_BASE + (n), s)
#define IOCTL_GETPARAM  NV_IOWR(DRM_NOUVEAU_GETPARAM, \
                                struct drm_nouveau_getparam)
#define IOCTL_CHAN_ALLOC NV_IOWR(DRM_NOUVEAU_CHANNEL_ALLOC, \
                                 struct drm_nouveau_channel_alloc)
#define IOCTL_CHAN_FREE NV_IOW(DRM_NOUVEAU_CHANNEL_FREE, \
                               struct drm_nouveau_channel_free)
#define IOCTL_GROBJ     NV_IOW(DRM_NOUVEAU_GROBJ_ALLOC, \
                               struct drm_nouveau_grobj_alloc)
#define IOCTL_NOTIFIER  NV_IOWR(DRM_NOUVEAU_NOTIFIEROBJ_ALLOC, \
                                struct drm_nouveau_notifierobj_alloc)
#define IOCTL_GEM_NEW   NV_IOWR(DRM_NOUVEAU_GEM_NEW, struct drm_nouveau_gem_new)
#define IOCTL_PUSHBUF   NV_IOWR(DRM_NOUVEAU_GEM_PUSHBUF, \
                                struct drm_nouveau_gem_pushbuf)
#define IOCTL_CPU_PREP  NV_IOW(DRM_NOUVEAU_GEM_CPU_PREP, \
                               struct drm_nouveau_gem_cpu_prep)
#define IOCTL_GEM_INFO  NV_IOWR(DRM_NOUVEAU_GEM_INFO, \
                                struct drm_nouveau_gem_info)

/* handles in the channel's RAMHT (Mesa's) */
#define FB_CTXDMA       0xbeef0201u
#define TT_CTXDMA       0xbeef0202u
#define M2MF_HANDLE     0xbeef5039u
#define NOTIFIER_HANDLE 0xbeef0301u
#define TWOD_HANDLE     0xbeef502du
#define CP_HANDLE       0xbeef50c0u

/* subchannels (Mesa's nv50_winsys.h) */
#define SUBC_2D         4
#define SUBC_M2MF       5
#define SUBC_CP         6

/* methods of every class */
#define SET_OBJECT              0x0000

/* 0x5039 (cl5039.h) */
#define M2MF_DMA_NOTIFY         0x0180      /* BUFFER_IN, BUFFER_OUT follow */
#define M2MF_DMA_BUFFER_IN      0x0184
#define M2MF_DMA_BUFFER_OUT     0x0188
#define M2MF_SRC_LAYOUT         0x0200
#define M2MF_DST_LAYOUT         0x021c
#define M2MF_OFFSET_IN_UPPER    0x0238
#define M2MF_OFFSET_OUT_UPPER   0x023c
#define M2MF_OFFSET_IN          0x030c      /* OFFSET_OUT, PITCH_IN, PITCH_OUT, */
                                            /* LINE_LENGTH_IN, LINE_COUNT, */
                                            /* FORMAT, BUFFER_NOTIFY follow */
#define M2MF_LAYOUT_PITCH       1
#define M2MF_FORMAT_1_1         0x101

static int fd = -1;

/* 0 or -errno */
static int xioctl(unsigned long req, void *arg)
{
    int r;

    do {
        r = ioctl(fd, req, arg);
    } while (r < 0 && (errno == EINTR || errno == EAGAIN));
    return r < 0 ? -errno : 0;
}

#endif
