/*
 * Reading a file that an input file names (a scene's "file", a state
 * file's "code" or "include"): only a regular file, and only up to a
 * limit checked before reading, so that a hostile input naming
 * /dev/zero, a FIFO or a huge file gets an error instead of a hang or
 * an exhausted memory.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_FILE_H
#define GEMU_FILE_H

#include "gemu/osdep.h"

/*
 * The whole of regular file @path, at most @max bytes, NUL-terminated
 * (the NUL not counted in *len).  False with *err (g_free) naming the
 * path: it cannot be opened or read, is not a regular file, or is larger
 * than @max.
 */
bool gemu_file_read(const char *path, size_t max, char **data, size_t *len,
                    char **err);

#endif
