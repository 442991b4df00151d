/*
 * Named trace points, enabled by glob patterns ("gemu -trace 'nv50_*'",
 * like QEMU's -trace).  A point prints one line to the log (-D) with its
 * name and arguments.  The points are listed here and in util/trace.c
 * (like QEMU's trace-events); "gemu -trace help" lists them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_TRACE_H
#define GEMU_TRACE_H

#include "gemu/osdep.h"

typedef enum GemuTraceId {
    TRACE_NV50_MMIO_READ,       /* unit, register, value */
    TRACE_NV50_MMIO_WRITE,
    TRACE_NV50_3D_DRAW,         /* channel, counts, programs, linkage */
    TRACE_NV50_3D_VERTEX,       /* a draw's vertices: VP inputs, results */
    TRACE_MPQEMU_MSG,           /* every message QEMU sends */
    TRACE_MPQEMU_RET,           /* every answer */
    TRACE_MAX,
} GemuTraceId;

extern bool gemu_trace_state[TRACE_MAX];

/* Cheap test for a call site: is the point enabled? */
#define trace_enabled(id) unlikely(gemu_trace_state[id])

/* Print "NAME ARGS" to the log if the point is enabled. */
#define gemu_trace(id, ...) do {                    \
        if (trace_enabled(id)) {                    \
            gemu_trace_emit((id), __VA_ARGS__);     \
        }                                           \
    } while (0)

void gemu_trace_emit(GemuTraceId id, const char *fmt, ...) GEMU_PRINTF(2, 3);

/* The name of a point ("nv50_mmio_read"). */
const char *gemu_trace_name(GemuTraceId id);

/*
 * Glob match as the shell's: '*' any run of characters, '?' one
 * character, everything else itself.
 */
bool gemu_trace_glob(const char *pattern, const char *name);

/*
 * Apply a -trace argument: "PATTERN" or "enable=PATTERN" enables the
 * points matching PATTERN, "-PATTERN" disables them; several separated
 * by commas.  False with *err set if a pattern matches no point.
 */
bool gemu_trace_parse(const char *arg, char **err);

/* All points off (for tests). */
void gemu_trace_reset(void);

/* The list of points, one per line, for "-trace help". */
void gemu_trace_list(FILE *f);

#endif
