/*
 * The g84 machine's pieces shared between system/g84*.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_H
#define SYSTEM_G84_H

#include "gemu/osdep.h"
#include "machines.h"

#define G84_DEFAULT_QEMU        "qemu-system-x86_64"
#define G84_DEFAULT_RAM_MIB     512
/* -guest-mesa: its initramfs (~240 MB) and the files unpacked from it */
#define G84_MESA_RAM_MIB        1024
#define G84_RAM_BACKEND         "gemu-ram"
/*
 * -clock virtual: QEMU's -icount shift (each guest instruction is 2^N ns
 * of the guest's time; docs/replay.md has what was measured) and the
 * date the guest's RTC starts at.
 */
#define G84_VCLOCK_ICOUNT_SHIFT 3
#define G84_VCLOCK_RTC_BASE     "2026-01-01T00:00:00"

/* What the user's QEMU options (after "--") say already (g84-qemu.c). */
typedef struct G84QemuUser {
    uint64_t ram;               /* -m's, or gemu's default */
    bool has_mem, has_accel, has_vga, has_icount, has_seed, has_rtc;
} G84QemuUser;

/* What gemu adds to them. */
typedef struct G84QemuLaunch {
    const char *kernel;         /* -guest: the guest gemu built; else NULL */
    const char *initrd;
    const char *cmdline;
    GPtrArray *serial;          /* -guest: the serial ports (g84-check.c) */
    bool thread_names;          /* -pin-cpu: name QEMU's threads */
    const char *qmp_sock;       /* keys from the window; or NULL */
    bool deterministic;         /* -clock virtual: the guest's time too */
    int fd;                     /* QEMU's end of the proxy's socket */
} G84QemuLaunch;

/* A size as QEMU's -m takes it (K/M/G/T, a bare number in MiB); 0 if bad. */
uint64_t g84_parse_size(const char *str);
/* The user's QEMU options; false with *errp for one gemu cannot take. */
bool g84_qemu_scan(const MachineOptions *opts, G84QemuUser *u,
                   GError **errp);
/*
 * The rate of the guest's TSC as QEMU will run it, in kHz, for the guest
 * kernel's tsc_early_khz= (gemu/host-tsc.h): 1 GHz under -icount (its
 * TSC counts the virtual clock's ns), the host's TSC rate under TCG
 * otherwise; 0 (not known) with an accelerator the user chose.
 */
unsigned g84_guest_tsc_khz(const G84QemuUser *u, bool deterministic);
/* QEMU's argv, NULL-terminated. */
GPtrArray *g84_qemu_argv(const MachineOptions *opts, const G84QemuUser *u,
                         const G84QemuLaunch *l);

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
 * lines scroll fbcon again: a boot that never ends.  With the
 * watchdog off nothing corrects a TSC rate the kernel measured wrong
 * on a loaded host: gemu adds tsc_early_khz= (g84_guest_tsc_khz).
 */
#define G84_GUEST_CMDLINE \
    "console=ttyS0 panic=-1 irqpoll nolapic_timer nohz=off nosoftlockup " \
    "rcupdate.rcu_cpu_stall_suppress=1 tsc=reliable " \
    "nouveau.config=NvMSI=0"

#endif
