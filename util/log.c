/*
 * Masked logging and log-once.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"

#include <stdarg.h>

int gemu_loglevel;
static FILE *log_file;

static const struct {
    const char *name;
    int mask;
} log_names[] = {
    { "unimp", LOG_UNIMP },
    { "guest_errors", LOG_GUEST_ERROR },
    { "mmio", LOG_TRACE_MMIO },
    { "method", LOG_TRACE_METHOD },
    { "shader", LOG_TRACE_SHADER },
};

bool gemu_log_parse_mask(const char *str, int *mask, char **err)
{
    g_auto(GStrv) parts = g_strsplit(str, ",", -1);
    int m = 0;

    for (int i = 0; parts[i]; i++) {
        bool found = false;

        if (!parts[i][0]) {
            continue;
        }
        if (!strcmp(parts[i], "all")) {
            for (size_t j = 0; j < ARRAY_SIZE(log_names); j++) {
                m |= log_names[j].mask;
            }
            continue;
        }
        for (size_t j = 0; j < ARRAY_SIZE(log_names); j++) {
            if (!strcmp(parts[i], log_names[j].name)) {
                m |= log_names[j].mask;
                found = true;
            }
        }
        if (!found) {
            *err = g_strdup_printf("unknown log item '%s' (known: %s)",
                                   parts[i], gemu_log_mask_help());
            return false;
        }
    }
    *mask = m;
    return true;
}

const char *gemu_log_mask_help(void)
{
    return "unimp, guest_errors, mmio, method, shader, all";
}

void gemu_log_set_file(FILE *f)
{
    log_file = f;
}

static void log_va(const char *fmt, va_list ap)
{
    vfprintf(log_file ? log_file : stderr, fmt, ap);
}

void gemu_log(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    log_va(fmt, ap);
    va_end(ap);
}

bool gemu_log_once(int mask, const char *unit, uint64_t key,
                   const char *fmt, ...)
{
    static GHashTable *seen;
    static GMutex lock;
    char *id;
    va_list ap;
    bool first, full = false;

    if (!(gemu_loglevel & mask)) {
        return false;
    }
    id = g_strdup_printf("%s:%" PRIx64, unit, key);
    g_mutex_lock(&lock);
    if (!seen) {
        seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    }
    if (g_hash_table_contains(seen, id)) {
        first = false;
        g_free(id);
    } else if (g_hash_table_size(seen) < GEMU_LOG_ONCE_MAX) {
        first = g_hash_table_add(seen, id);
        full = g_hash_table_size(seen) == GEMU_LOG_ONCE_MAX;
    } else {
        first = false;          /* the table is full: no new items */
        g_free(id);
    }
    g_mutex_unlock(&lock);
    if (!first) {
        return false;
    }
    va_start(ap, fmt);
    log_va(fmt, ap);
    va_end(ap);
    if (full) {
        gemu_log("gemu: %d different items logged once; no more are (a "
                 "guest touching ever new registers or methods)\n",
                 GEMU_LOG_ONCE_MAX);
    }
    return true;
}

void gemu_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "gemu: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
