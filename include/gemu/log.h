/*
 * Logging, in the QEMU manner: messages are grouped by a mask, and only the
 * groups the user enabled (-d unimp,guest_errors,...) are printed.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_LOG_H
#define GEMU_LOG_H

#include "gemu/osdep.h"

enum {
    LOG_UNIMP        = 1 << 0,  /* guest used something gemu does not model */
    LOG_GUEST_ERROR  = 1 << 1,  /* guest did something the hardware rejects */
    LOG_TRACE_MMIO   = 1 << 2,  /* every register access */
    LOG_TRACE_METHOD = 1 << 3,  /* every FIFO method */
    LOG_TRACE_SHADER = 1 << 4,  /* every shader warp instruction */
};

extern int gemu_loglevel;

/* Parse "unimp,guest_errors" and the like; false (with *err set) if bad. */
bool gemu_log_parse_mask(const char *str, int *mask, char **err);
/* A line describing the accepted names, for --help. */
const char *gemu_log_mask_help(void);

void gemu_log(const char *fmt, ...) GEMU_PRINTF(1, 2);
/* Route log output somewhere else than stderr (NULL: back to stderr). */
void gemu_log_set_file(FILE *f);

/* the traces: every access, every method; never rate limited */
#define GEMU_LOG_TRACES (LOG_TRACE_MMIO | LOG_TRACE_METHOD | LOG_TRACE_SHADER)

/*
 * One place of the code that logs (gemu_log_mask keeps one per call):
 * a guest can make the same message come millions of times (the
 * hostile guest test writes random registers), so each place prints at
 * most GEMU_LOG_RATE messages a second; the rest are counted, and the
 * place's next message after that second says how many were left out.
 */
#define GEMU_LOG_RATE   100
typedef struct GemuLogSite {
    int64_t window;             /* when its current second began (us) */
    uint32_t count;             /* messages printed in it */
    uint64_t suppressed;        /* left out since the last summary */
} GemuLogSite;

void gemu_log_site(GemuLogSite *site, const char *fmt, ...)
    GEMU_PRINTF(2, 3);
/* The rate limit's clock in microseconds (tests; NULL: monotonic). */
void gemu_log_set_clock(int64_t (*now_us)(void));

#define gemu_log_mask(mask, ...) do {                       \
        if (unlikely(gemu_loglevel & (mask))) {             \
            static GemuLogSite gemu_log_site_;              \
            if ((mask) & GEMU_LOG_TRACES) {                 \
                gemu_log(__VA_ARGS__);                      \
            } else {                                        \
                gemu_log_site(&gemu_log_site_, __VA_ARGS__); \
            }                                               \
        }                                                   \
    } while (0)

/*
 * Log once per (unit, key): for unimplemented registers and methods, which a
 * guest may touch in a loop.  Returns true when the message was printed.
 * At most GEMU_LOG_ONCE_MAX different (unit, key) pairs are remembered and
 * logged (a hostile guest can name millions of registers); the last one
 * logged says so.
 */
#define GEMU_LOG_ONCE_MAX   65536
bool gemu_log_once(int mask, const char *unit, uint64_t key,
                   const char *fmt, ...) GEMU_PRINTF(4, 5);

/* Fatal error from gemu itself (never for guest behaviour). */
void gemu_error(const char *fmt, ...) GEMU_PRINTF(1, 2);

#endif
