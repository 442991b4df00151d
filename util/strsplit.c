/*
 * One-pass splitting of input text (include/gemu/strsplit.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/strsplit.h"

char **gemu_strsplit_c(const char *s, char sep)
{
    size_t n = 1, k = 0;
    const char *start = s;
    char **v;

    for (const char *p = s; *p; p++) {
        n += *p == sep;
    }
    v = g_new(char *, n + 1);
    for (const char *p = s;; p++) {
        if (*p == sep || !*p) {
            v[k++] = g_strndup(start, p - start);
            if (!*p) {
                break;
            }
            start = p + 1;
        }
    }
    v[k] = NULL;
    return v;
}
