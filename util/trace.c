/*
 * Named trace points enabled by glob patterns (include/gemu/trace.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/trace.h"

#include <stdarg.h>

bool gemu_trace_state[TRACE_MAX];

static const char *const trace_names[TRACE_MAX] = {
    [TRACE_NV50_MMIO_READ] = "nv50_mmio_read",
    [TRACE_NV50_MMIO_WRITE] = "nv50_mmio_write",
    [TRACE_NV50_3D_DRAW] = "nv50_3d_draw",
    [TRACE_NV50_3D_VERTEX] = "nv50_3d_vertex",
    [TRACE_MPQEMU_MSG] = "mpqemu_msg",
    [TRACE_MPQEMU_RET] = "mpqemu_ret",
};

const char *gemu_trace_name(GemuTraceId id)
{
    return id < TRACE_MAX ? trace_names[id] : "?";
}

void gemu_trace_emit(GemuTraceId id, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log("%s %s\n", gemu_trace_name(id), msg);
}

bool gemu_trace_glob(const char *p, const char *s)
{
    /* iterative, with backtracking to the last '*' only: linear enough */
    const char *star = NULL, *resume = NULL;

    while (*s) {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*') {
        p++;
    }
    return *p == '\0';
}

bool gemu_trace_parse(const char *arg, char **err)
{
    g_auto(GStrv) parts = g_strsplit(arg, ",", -1);

    for (char **w = parts; *w; w++) {
        const char *pat = *w;
        bool on = true;
        int hits = 0;

        if (g_str_has_prefix(pat, "enable=")) {
            pat += 7;
        }
        if (*pat == '-') {
            on = false;
            pat++;
        }
        if (!*pat) {
            *err = g_strdup_printf("empty trace pattern in '%s'", arg);
            return false;
        }
        for (int i = 0; i < TRACE_MAX; i++) {
            if (gemu_trace_glob(pat, trace_names[i])) {
                gemu_trace_state[i] = on;
                hits++;
            }
        }
        if (!hits) {
            *err = g_strdup_printf("no trace point matches '%s' "
                                   "('-trace help' lists them)", pat);
            return false;
        }
    }
    return true;
}

void gemu_trace_reset(void)
{
    memset(gemu_trace_state, 0, sizeof(gemu_trace_state));
}

void gemu_trace_list(FILE *f)
{
    for (int i = 0; i < TRACE_MAX; i++) {
        fprintf(f, "%s\n", trace_names[i]);
    }
}
