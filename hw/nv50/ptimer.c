/*
 * PTIMER: the 64-bit nanosecond counter and its alarm.
 *
 * TIME_LOW/TIME_HIGH hold the counter shifted left by 5 (low 5 bits read
 * 0); nvkm programs CLOCK_DIV/CLOCK_MUL so that the 64-bit value counts
 * nanoseconds, and gemu takes that as given (UNVERIFIED: other ratios are
 * stored, not applied).  The counter follows the card's clock, and every
 * read of TIME_LOW returns a larger value than the one before: nvkm
 * declares the timer "stalled" after 16 equal reads, and with a virtual
 * clock time would otherwise never move inside a poll loop.
 *
 * ALARM fires (INTR bit 0) when TIME_LOW passes it.  UNVERIFIED: an alarm
 * set in the past (within 2^31 ns) fires at once; the hardware compares
 * for equality and would wait for TIME_LOW to wrap.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define PTIMER_STEP     32          /* one tick of the 27-bit low field */

static void ptimer_update_irq(NV50State *s)
{
    nv50_pmc_set_source(s, NV50_INTR_PTIMER,
                        s->ptimer.intr & s->ptimer.intr_en & 1);
}

/* The counter at the clock's current time, without the read step. */
static uint64_t ptimer_current(NV50State *s)
{
    uint64_t v = (uint64_t)(gemu_clock_get_ns(s->clock) + s->ptimer.offset);

    v &= ~(uint64_t)(PTIMER_STEP - 1);
    return MAX(v, s->ptimer.last);
}

static void ptimer_check_alarm(NV50State *s, uint64_t now)
{
    NV50PTimer *t = &s->ptimer;
    int64_t ahead;

    if (!t->alarm_armed) {
        return;
    }
    /* distance from TIME_LOW to ALARM, modulo 2^32 */
    ahead = (int32_t)(t->alarm - (uint32_t)now);
    if (ahead <= 0) {
        t->alarm_armed = false;
        gemu_timer_del(&t->alarm_timer);
        t->intr |= 1;
        ptimer_update_irq(s);
    } else {
        gemu_timer_mod(&t->alarm_timer,
                       gemu_clock_get_ns(s->clock) + ahead);
    }
}

static void ptimer_alarm_cb(void *opaque)
{
    NV50State *s = opaque;

    ptimer_check_alarm(s, ptimer_current(s));
}

uint64_t nv50_ptimer_now(NV50State *s)
{
    uint64_t now = ptimer_current(s);

    if (now <= s->ptimer.last) {
        now = s->ptimer.last + PTIMER_STEP;
    }
    s->ptimer.last = now;
    ptimer_check_alarm(s, now);
    return now;
}

uint64_t nv50_ptimer_peek(NV50State *s)
{
    return ptimer_current(s);
}

static void ptimer_set(NV50State *s, uint64_t v)
{
    v &= ~(uint64_t)(PTIMER_STEP - 1);
    s->ptimer.offset = (int64_t)v - gemu_clock_get_ns(s->clock);
    s->ptimer.last = v;
    ptimer_check_alarm(s, v);
}

void nv50_ptimer_init(NV50State *s)
{
    gemu_timer_init(&s->ptimer.alarm_timer, s->clock, ptimer_alarm_cb, s);
}

void nv50_ptimer_fini(NV50State *s)
{
    gemu_timer_del(&s->ptimer.alarm_timer);
}

void nv50_ptimer_reset(NV50State *s)
{
    NV50PTimer *t = &s->ptimer;

    gemu_timer_del(&t->alarm_timer);
    t->intr = 0;
    t->intr_en = 0;
    t->clock_div = 0;
    t->clock_mul = 0;
    t->clock_source = 0;
    t->alarm = 0;
    t->alarm_armed = false;
    t->last = 0;
    t->offset = -gemu_clock_get_ns(s->clock);   /* counter starts at 0 */
    ptimer_update_irq(s);
}

uint64_t nv50_ptimer_read(NV50State *s, hwaddr addr, unsigned size)
{
    NV50PTimer *t = &s->ptimer;

    switch (addr) {
    case NV_PTIMER_INTR:
        ptimer_check_alarm(s, ptimer_current(s));
        return t->intr;
    case NV_PTIMER_INTR_ENABLE:
        return t->intr_en;
    case NV_PTIMER_CLOCK_DIV:
        return t->clock_div;
    case NV_PTIMER_CLOCK_MUL:
        return t->clock_mul;
    case NV_PTIMER_CLOCK_SOURCE:
        return t->clock_source;
    case NV_PTIMER_TIME_LOW:
        return (uint32_t)nv50_ptimer_now(s);
    case NV_PTIMER_TIME_HIGH:
        /* the high half of the last value read (nvkm reads HIGH first) */
        return (uint32_t)(ptimer_current(s) >> 32);
    case NV_PTIMER_ALARM:
        return t->alarm;
    default:
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
}

void nv50_ptimer_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size)
{
    NV50PTimer *t = &s->ptimer;
    uint64_t cur;

    switch (addr) {
    case NV_PTIMER_INTR:
        t->intr &= ~val;
        ptimer_update_irq(s);
        break;
    case NV_PTIMER_INTR_ENABLE:
        t->intr_en = val & 1;
        ptimer_update_irq(s);
        break;
    case NV_PTIMER_CLOCK_DIV:
        t->clock_div = val & 0xffff;
        break;
    case NV_PTIMER_CLOCK_MUL:
        t->clock_mul = val & 0xffff;
        break;
    case NV_PTIMER_CLOCK_SOURCE:
        t->clock_source = val;
        break;
    case NV_PTIMER_TIME_LOW:
        cur = ptimer_current(s);
        ptimer_set(s, (cur & 0xffffffff00000000ull) | (uint32_t)val);
        break;
    case NV_PTIMER_TIME_HIGH:
        cur = ptimer_current(s);
        ptimer_set(s, ((uint64_t)(val & 0x1fffffff) << 32) |
                      (uint32_t)cur);
        break;
    case NV_PTIMER_ALARM:
        t->alarm = val & ~(uint32_t)(PTIMER_STEP - 1);
        t->alarm_armed = true;
        ptimer_check_alarm(s, ptimer_current(s));
        break;
    default:
        nv50_unimp(s, addr, true, val);
        break;
    }
}
