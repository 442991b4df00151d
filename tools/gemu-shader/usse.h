/*
 * gemu-shader for the SGX543's USSE ("chip sgx543" state files).
 * docs/tools/gemu-shader.md ("USSE") is the user's reference.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_USSE_H
#define GEMU_SHADER_USSE_H

#include "gemu/osdep.h"

/*
 * Parse the USSE state file @path (its @text already read), run it and
 * print the dumps.  Returns the exit status: 0 ran, 1 trapped, 2 bad
 * state file (message on stderr).
 */
int usse_shader_main(const char *path, const char *text, size_t len,
                     uint64_t max_insns, bool trace);

#endif
