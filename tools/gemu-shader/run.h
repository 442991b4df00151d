/*
 * gemu-shader: a Tesla state file run on the bare interpreter, and the
 * dumps it asks for printed (docs/tools/gemu-shader.md, "Output").  The
 * tool's main.c and the state-file fuzzer (tests/fuzz/) call it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_RUN_H
#define GEMU_SHADER_RUN_H

#include "state.h"

/* gemu-shader's exit status */
enum {
    EXIT_RAN = 0,
    EXIT_TRAP = 1,
    EXIT_BAD = 2,
};

/*
 * Run @s on the interpreter, at most @max_insns warp-instructions (0: no
 * limit; past it the run traps with TIMEOUT), with --trace's lines on
 * stderr if @trace; print the trap, the killed threads and the dumps.
 * Returns the exit status: EXIT_RAN, EXIT_TRAP, or EXIT_BAD (message on
 * stderr) when the launch cannot be built.
 */
int shader_run(const ShaderState *s, uint64_t max_insns, bool trace);

#endif
