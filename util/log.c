/*
 * Masked logging, rate limited per place, and log-once.
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

static int64_t (*log_clock)(void);
static GMutex site_lock;

void gemu_log_set_clock(int64_t (*now_us)(void))
{
    log_clock = now_us;
}

void gemu_log_site(GemuLogSite *site, const char *fmt, ...)
{
    int64_t now = log_clock ? log_clock() : g_get_monotonic_time();
    uint64_t told = 0;
    bool print;
    va_list ap;

    g_mutex_lock(&site_lock);
    if (now - site->window >= G_USEC_PER_SEC || now < site->window) {
        told = site->suppressed;
        site->suppressed = 0;
        site->window = now;
        site->count = 0;
    }
    print = site->count < GEMU_LOG_RATE;
    if (print) {
        site->count++;
    } else {
        site->suppressed++;
    }
    g_mutex_unlock(&site_lock);
    if (told) {
        /* the place by its format, up to its first newline */
        gemu_log("gemu: %" PRIu64 " more messages like \"%.*s\" were "
                 "suppressed (at most %d a second from one place)\n", told,
                 (int)MIN(strcspn(fmt, "\n"), 60), fmt, GEMU_LOG_RATE);
    }
    if (print) {
        va_start(ap, fmt);
        log_va(fmt, ap);
        va_end(ap);
    }
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
