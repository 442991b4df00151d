/*
 * The machines gemu can build, and the options main() hands them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_MACHINES_H
#define SYSTEM_MACHINES_H

#include "gemu/osdep.h"

typedef struct MachineOptions {
    const char *scene;          /* -scene FILE (sgx543) */
    const char *screendump;     /* -screendump OUT.png: the last frame */
    const char *display;        /* -display none|png[:PREFIX] */
    int argc;                   /* what follows "--" */
    char **argv;
} MachineOptions;

/* Returns the exit status of gemu. */
int sgx543_machine_run(const MachineOptions *opts);

#endif
