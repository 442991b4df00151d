/*
 * Splitting input text in one pass.  glib's g_strsplit() finds each
 * separator with strstr(), and AddressSanitizer's strstr interceptor
 * measures the whole rest of the string on every call: under ASan a
 * 2 MB input of short lines took minutes (quadratic; issue 14), and CI
 * runs the tools under ASan.  Parsers of untrusted text split here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_STRSPLIT_H
#define GEMU_STRSPLIT_H

#include "gemu/osdep.h"

/*
 * @s cut at every @sep, as g_strsplit(s, "SEP", -1) does: n separators
 * give n + 1 strings ("" gives one empty string), NULL-terminated
 * (g_strfreev).
 */
char **gemu_strsplit_c(const char *s, char sep);

#endif
