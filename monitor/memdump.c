/*
 * "x"/"xp"-style memory dumps for machines' monitor commands: QEMU HMP's
 * "/FMT" (count, format, unit size) and its lines of address and values
 * (include/monitor/monitor.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "hw/core/memory.h"
#include "monitor/monitor.h"

bool monitor_memfmt_parse(const char *arg, MonitorMemFmt *f, char **err)
{
    const char *p = arg;
    unsigned long count = 1;

    *f = (MonitorMemFmt) { .count = 1, .format = 'x', .size = 4 };
    if (*p != '/') {
        *err = g_strdup_printf("'%s': a format starts with '/' "
                               "(/COUNT FORMAT SIZE, e.g. /8xw)", arg);
        return false;
    }
    p++;
    if (g_ascii_isdigit(*p)) {
        char *end;

        errno = 0;
        count = strtoul(p, &end, 10);
        if (errno || count == 0 || count > MONITOR_MEMDUMP_MAX) {
            *err = g_strdup_printf("'%s': the count must be 1-%d", arg,
                                   MONITOR_MEMDUMP_MAX);
            return false;
        }
        p = end;
    }
    f->count = count;
    for (; *p; p++) {
        switch (*p) {
        case 'x': case 'd': case 'u': case 'f':
            f->format = *p;
            break;
        case 'b': f->size = 1; break;
        case 'h': f->size = 2; break;
        case 'w': f->size = 4; break;
        case 'g': f->size = 8; break;
        default:
            *err = g_strdup_printf("'%s': unknown format letter '%c' "
                                   "(formats x d u f, sizes b h w g)", arg,
                                   *p);
            return false;
        }
    }
    if (f->format == 'f' && f->size < 4) {
        *err = g_strdup_printf("'%s': f needs size w or g", arg);
        return false;
    }
    if ((size_t)f->count * f->size > MONITOR_MEMDUMP_MAX) {
        *err = g_strdup_printf("'%s': at most %d bytes at once", arg,
                               MONITOR_MEMDUMP_MAX);
        return false;
    }
    return true;
}

static void memdump_value(GString *out, const uint8_t *p,
                          const MonitorMemFmt *f)
{
    uint64_t v = ldn_le_p(p, f->size);
    int bits = f->size * 8;

    switch (f->format) {
    case 'd':
        if (bits < 64 && (v >> (bits - 1)) & 1) {
            v |= ~0ull << bits;
        }
        g_string_append_printf(out, " %" PRId64, (int64_t)v);
        break;
    case 'u':
        g_string_append_printf(out, " %" PRIu64, v);
        break;
    case 'f':
        g_string_append_printf(out, " %g", f->size == 4
                               ? (double)bits_to_f32((uint32_t)v)
                               : bits_to_f64(v));
        break;
    default:
        g_string_append_printf(out, " 0x%0*" PRIx64, f->size * 2, v);
        break;
    }
}

void monitor_memdump(GString *out, uint64_t addr, const uint8_t *buf,
                     const MonitorMemFmt *f)
{
    /* a line holds 16 bytes of values, as QEMU's x does */
    unsigned per_line = MAX(16 / f->size, 1);

    for (unsigned i = 0; i < f->count; i++) {
        if (i % per_line == 0) {
            g_string_append_printf(out, "%s%010" PRIx64 ":",
                                   i ? "\n" : "", addr + i * f->size);
        }
        memdump_value(out, buf + i * f->size, f);
    }
    g_string_append_c(out, '\n');
}
