/*
 * Clocks and timers.  A clock reads nanoseconds either from the host
 * (monotonic) or from a virtual counter that only moves when told to, so
 * that runs are deterministic.  Timers fire from clock_run_timers(), which
 * clock_advance() calls for virtual clocks; with a host clock the owner of
 * the main loop calls it (clock_next_deadline() says when).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_CLOCK_H
#define HW_CORE_CLOCK_H

#include "gemu/osdep.h"

typedef enum {
    GEMU_CLOCK_HOST,
    GEMU_CLOCK_VIRTUAL,
} GemuClockKind;

typedef struct GemuTimer GemuTimer;
typedef void GemuTimerCB(void *opaque);

typedef struct GemuClock {
    GemuClockKind kind;
    int64_t virt_ns;            /* GEMU_CLOCK_VIRTUAL: current time */
    int64_t host_base;          /* GEMU_CLOCK_HOST: host time at ns 0 */
    GList *timers;              /* armed timers, by deadline */
    int64_t access_ns;          /* virtual: what one bus access costs */
} GemuClock;

/*
 * -clock virtual's rule (docs/devel/replay.md): the card's time moves by
 * GEMU_VCLOCK_ACCESS_NS at every bus access the guest makes (a BAR or
 * config space read or write), before the access; the engines' work is
 * done within the access that kicked it and takes no virtual time; when
 * the guest is idle, the machine may jump to the next timer (a recorded
 * "clock" step).  A replay uses the recording's access_ns.
 */
#define GEMU_VCLOCK_ACCESS_NS   1000

struct GemuTimer {
    GemuClock *clock;
    GemuTimerCB *cb;
    void *opaque;
    int64_t deadline;
    bool armed;
};

void gemu_clock_init(GemuClock *clk, GemuClockKind kind);
/* Disarms every timer still on the clock. */
void gemu_clock_destroy(GemuClock *clk);
int64_t gemu_clock_get_ns(GemuClock *clk);
/* Virtual clocks only: move time forward and fire due timers. */
void gemu_clock_advance(GemuClock *clk, int64_t ns);
/*
 * One bus access of the guest: a virtual clock moves by access_ns (and
 * fires what is due); a host clock does not move by itself.
 */
void gemu_clock_bus_access(GemuClock *clk);
/* Fire every timer whose deadline has passed; returns how many fired. */
int gemu_clock_run_timers(GemuClock *clk);
/* Earliest armed deadline, or INT64_MAX. */
int64_t gemu_clock_next_deadline(GemuClock *clk);

void gemu_timer_init(GemuTimer *t, GemuClock *clk, GemuTimerCB *cb,
                     void *opaque);
void gemu_timer_mod(GemuTimer *t, int64_t deadline_ns);
void gemu_timer_del(GemuTimer *t);

#endif
