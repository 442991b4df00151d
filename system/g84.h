/*
 * The g84 machine's pieces shared between system/g84*.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_H
#define SYSTEM_G84_H

#include "gemu/osdep.h"

/*
 * The guest of "gemu -M g84 -guest", made from the machine's Debian
 * packages: *kernel is /boot/vmlinuz-VERSION, *initrd an initramfs with
 * busybox and the nouveau module (and its dependencies) of that kernel,
 * built on first use into the cache directory.  False with *errp set
 * (naming the package to install) if something is missing.
 */
bool g84_guest_prepare(char **kernel, char **initrd, GError **errp);

/* The kernel options the guest always gets (interrupts by polling). */
#define G84_GUEST_CMDLINE \
    "console=ttyS0 panic=-1 irqpoll nolapic_timer nohz=off " \
    "nouveau.config=NvMSI=0"

#endif
