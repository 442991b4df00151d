/*
 * gemu-shader: the lines both ways of running a state file print
 * (print.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "print.h"

void shader_print_trap(TeslaError error, uint32_t pc, unsigned warp)
{
    printf("trap: %s at 0x%08x (warp %u)\n", tesla_error_name(error), pc,
           warp);
}

void shader_print_global(const ShaderDump *d, const uint8_t *bytes)
{
    for (uint32_t a = d->start; a < d->end; a += 4) {
        const uint8_t *b = bytes + (a - d->start);

        printf("g%u[0x%x] = 0x%08x\n", d->idx, a,
               b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
    }
}
