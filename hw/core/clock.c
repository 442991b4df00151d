/*
 * Host and virtual clocks, timers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/clock.h"

void gemu_clock_init(GemuClock *clk, GemuClockKind kind)
{
    memset(clk, 0, sizeof(*clk));
    clk->kind = kind;
    clk->host_base = g_get_monotonic_time();
    clk->access_ns = GEMU_VCLOCK_ACCESS_NS;
}

void gemu_clock_destroy(GemuClock *clk)
{
    for (GList *l = clk->timers; l; l = l->next) {
        ((GemuTimer *)l->data)->armed = false;
    }
    g_clear_pointer(&clk->timers, g_list_free);
}

int64_t gemu_clock_get_ns(GemuClock *clk)
{
    if (clk->kind == GEMU_CLOCK_VIRTUAL) {
        return clk->virt_ns;
    }
    /* glib's monotonic clock is in microseconds */
    return (g_get_monotonic_time() - clk->host_base) * 1000;
}

void gemu_clock_advance(GemuClock *clk, int64_t ns)
{
    g_assert(clk->kind == GEMU_CLOCK_VIRTUAL);
    if (ns > 0) {
        clk->virt_ns += ns;
    }
    gemu_clock_run_timers(clk);
}

void gemu_clock_bus_access(GemuClock *clk)
{
    if (clk->kind == GEMU_CLOCK_VIRTUAL) {
        gemu_clock_advance(clk, clk->access_ns);
    }
}

int gemu_clock_run_timers(GemuClock *clk)
{
    int fired = 0;

    while (clk->timers) {
        GemuTimer *t = clk->timers->data;

        if (t->deadline > gemu_clock_get_ns(clk)) {
            break;
        }
        clk->timers = g_list_delete_link(clk->timers, clk->timers);
        t->armed = false;
        t->cb(t->opaque);           /* may re-arm t */
        fired++;
    }
    return fired;
}

int64_t gemu_clock_next_deadline(GemuClock *clk)
{
    return clk->timers ? ((GemuTimer *)clk->timers->data)->deadline
                       : INT64_MAX;
}

void gemu_timer_init(GemuTimer *t, GemuClock *clk, GemuTimerCB *cb,
                     void *opaque)
{
    memset(t, 0, sizeof(*t));
    t->clock = clk;
    t->cb = cb;
    t->opaque = opaque;
}

static gint by_deadline(gconstpointer a, gconstpointer b)
{
    const GemuTimer *ta = a, *tb = b;

    return ta->deadline < tb->deadline ? -1 : ta->deadline > tb->deadline;
}

void gemu_timer_mod(GemuTimer *t, int64_t deadline_ns)
{
    gemu_timer_del(t);
    t->deadline = deadline_ns;
    t->armed = true;
    t->clock->timers = g_list_insert_sorted(t->clock->timers, t,
                                            by_deadline);
}

void gemu_timer_del(GemuTimer *t)
{
    if (t->armed) {
        t->clock->timers = g_list_remove(t->clock->timers, t);
        t->armed = false;
    }
}
