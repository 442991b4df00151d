/*
 * The machines gemu can build, and the options main() hands them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_MACHINES_H
#define SYSTEM_MACHINES_H

#include "gemu/osdep.h"

#define MACHINE_MAX_SCREENDUMPS 16

typedef struct MachineOptions {
    const char *scene;          /* -scene FILE (sgx543) */
    const char *screendump;     /* -screendump OUT.png: the last frame */
    /* g84: every -screendump, [when=WHEN,]file=OUT.png or OUT.png */
    const char *screendumps[MACHINE_MAX_SCREENDUMPS];
    int n_screendumps;
    const char *compare;        /* -compare GOLDEN.png (g84) */
    const char *compare_tolerance;  /* -compare-tolerance N (N/255) */
    const char *summary;        /* -summary FILE.json (g84) */
    const char *display;        /* -display sdl|png|none (NULL: default) */
    const char *frames;         /* -frames DIR: every new frame as a PNG */
    const char *monitor;        /* -monitor stdio|unix:PATH */
    const char *vram;           /* -vram SIZE (g84) */
    const char *qemu;           /* -qemu PATH (g84) */
    bool guest;                 /* -guest: boot gemu's Debian guest (g84) */
    const char *guest_append;   /* -guest-append ARGS: more kernel options */
    const char *guest_run;      /* -guest-run CMD: run it, its status ours */
    bool guest_mesa;            /* -guest-mesa: Mesa's userspace in the guest */
    const char *guest_kernel;   /* -guest-kernel BZIMAGE */
    const char *guest_modules;  /* -guest-modules DIR (INSTALL_MOD_PATH) */
    const char *guest_files;    /* -guest-files DIR|FILE.cpio */
    const char *pin_cpu;        /* -pin-cpu auto|N (g84), NULL: no pinning */
    bool engine_sync;           /* -engine-sync: kicks wait for the engine */
    const char *clock;          /* -clock virtual|host (g84), NULL: host */
    const char *record;         /* -record FILE (g84): for gemu-replay */
    int argc;                   /* what follows "--" (g84: QEMU options) */
    char **argv;
} MachineOptions;

/* Returns the exit status of gemu. */
int sgx543_machine_run(const MachineOptions *opts);
int g84_machine_run(const MachineOptions *opts);

#endif
