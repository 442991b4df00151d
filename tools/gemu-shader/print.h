/*
 * gemu-shader: the lines both ways of running a compute state file
 * print (the interpreter, main.c; the in-process G84, device.c), so that
 * the two cannot drift apart.  docs/tools/gemu-shader.md, "Output".
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_PRINT_H
#define GEMU_SHADER_PRINT_H

#include "state.h"

/* "trap: NAME at 0xPC (warp W)", W numbered across the launch. */
void shader_print_trap(TeslaError error, uint32_t pc, unsigned warp);

/*
 * "gK[0xA] = 0xVALUE" for every word of @d (a SHADER_DUMP_GLOBAL);
 * @bytes holds the space's bytes d->start up to d->end.
 */
void shader_print_global(const ShaderDump *d, const uint8_t *bytes);

#endif
