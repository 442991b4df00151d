/*
 * The g84 machine's pieces shared between system/g84*.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_H
#define SYSTEM_G84_H

#include "gemu/osdep.h"

/* What the user chose of the guest of "gemu -M g84 -guest". */
typedef struct G84GuestSpec {
    const char *kernel;         /* -guest-kernel BZIMAGE; NULL: Debian's */
    const char *modules;        /* -guest-modules DIR; NULL: /lib/modules */
    const char *files;          /* -guest-files DIR|FILE.cpio; NULL: none */
    bool mesa;                  /* -guest-mesa */
} G84GuestSpec;

/*
 * The guest of "gemu -M g84 -guest": *kernel is SPEC's kernel (Debian's
 * /boot/vmlinuz-VERSION by default), *initrd an initramfs with busybox
 * and the nouveau module (and its dependencies) of that kernel, built on
 * first use into the cache directory.  With -guest-mesa *initrd is that
 * initramfs followed by a second archive with Mesa's userspace (EGL,
 * GLES, GBM, the DRI drivers, kmscube, eglinfo, glmark2-es2-drm and every
 * library they need), cached beside it; with -guest-files the user's
 * files follow in one more archive, in a file of this run
 * (*initrd_is_temp: the caller removes it).  False with *errp set
 * (naming the package to install, or what does not fit) if something is
 * missing.
 */
bool g84_guest_prepare(const G84GuestSpec *spec, char **kernel,
                       char **initrd, bool *initrd_is_temp, GError **errp);

/*
 * The kernel options the guest always gets: interrupts by polling (QEMU's
 * proxy cannot inject INTx under TCG), and none of the watchdogs that
 * speak up when the CPU is held for long.  With acceleration (the
 * default) fbcon draws through the 2D engine; with
 * "-guest-append nouveau.noaccel=1" every pixel of a redraw is one BAR1
 * round trip over QEMU's socket (~25 s a full redraw, interrupts off
 * when printk scrolls), and the soft-lockup detector, the RCU stall
 * warning and the clocksource watchdog would each print a report whose
 * lines scroll fbcon again: a boot that never ends.
 */
#define G84_GUEST_CMDLINE \
    "console=ttyS0 panic=-1 irqpoll nolapic_timer nohz=off nosoftlockup " \
    "rcupdate.rcu_cpu_stall_suppress=1 tsc=reliable " \
    "nouveau.config=NvMSI=0"

#endif
