/*
 * gemu-shader --device: a compute state file run on an in-process G84
 * (hw/nv50) through a host channel, the M2MF and compute classes,
 * instead of on the bare interpreter.  docs/tools/gemu-shader.md
 * ("--device") is the user's reference.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_DEVICE_H
#define GEMU_SHADER_DEVICE_H

#include "state.h"

/*
 * NULL if the device path can run @s exactly as the interpreter would,
 * else what it cannot do, "FILE:LINE: ..." (g_free).
 */
char *shader_device_check(const ShaderState *s);

/*
 * Run @s (shader_device_check() passed) and print what the interpreter
 * path prints.  The card's launches share @max_insns warp-instructions
 * (nv50_engine_set_insn_budget; 0: no bound): past them the launch traps
 * with TIMEOUT.  Returns the exit status: 0 ran, 1 trapped, 2 the device
 * refused the work (message on stderr).
 */
int shader_device_run(const ShaderState *s, uint64_t max_insns);

#endif
