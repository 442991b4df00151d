/*
 * The card's engine thread.  PFIFO's channels (and through them PGRAPH's
 * methods) run here, never inside the guest's MMIO write: a kick
 * (USER+0x8c IB_PUT, USER+0x40 DMA_PUT, a channel enabled, an error
 * acknowledged) marks work and wakes the thread, and the MMIO side
 * answers at once.  The thread takes s->eng_lock to pick a channel and
 * to publish progress; it runs methods without it.
 *
 * A channel that waits (semaphore acquire) is parked: it is re-checked
 * at every kick and every NV50_ENGINE_RECHECK_NS of host time, since the
 * guest CPU's writes to its RAM are invisible to the card.
 *
 * Deterministic mode runs each kick's work to completion before the
 * kick returns, so that a run does not depend on host timing.  Virtual
 * mode (-clock virtual) is deterministic mode whose parked channels are
 * re-checked every NV50_ENGINE_RECHECK_NS of the card's clock (a timer
 * on the main loop that kicks and waits) instead of host time.
 *
 * docs/devel/threading.md has the model and the lock order.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "pfifo.h"

#define NV50_ENGINE_RECHECK_NS  (500 * 1000)    /* parked acquires */
/* deterministic mode: how long a kick waits for the engine at most */
#define NV50_ENGINE_SYNC_LIMIT_US   (10 * 1000 * 1000)

struct NV50Engine {
    GThread *thread;
    GCond cond;                 /* with s->eng_lock */
    bool quit;
    int pause_req;              /* nested pause requests */
    bool paused;                /* the thread is stopped for them */
    bool running;               /* a channel slice runs without the lock */
    int running_chid;           /* ... of this channel */
    bool idle;                  /* no channel can make progress */
    bool deterministic;
    bool virtual_clock;         /* parked channels on s->clock's time */
    bool parked;                /* idle with parked channels */
    GemuTimer recheck;          /* virtual_clock: main loop only */
    bool held;                  /* the monitor's "stop" (one pause_req) */
    int64_t sync_limit_us;      /* deterministic kicks wait this at most */
    bool budgeted;              /* compute launches share insn_budget */
    uint64_t insn_budget;       /* warp-instructions left to them */
    /*
     * Set (atomically) to make the work in progress give up at its next
     * check: the pusher between words, a compute launch between warp
     * slices.  Cleared once the engine has stopped.
     */
    int abort;
};

static gpointer engine_thread(gpointer opaque)
{
    NV50State *s = opaque;
    NV50Engine *e = s->engine;

    g_mutex_lock(&s->eng_lock);
    while (!e->quit) {
        bool parked = false;
        int chid;

        if (e->pause_req) {
            e->paused = true;
            g_atomic_int_set(&e->abort, 0);
            g_cond_broadcast(&e->cond);
            g_cond_wait(&e->cond, &s->eng_lock);
            continue;
        }
        e->paused = false;
        g_atomic_int_set(&e->abort, 0);
        chid = nv50_pfifo_pick(s, &parked);
        if (chid < 0) {
            e->idle = true;
            e->parked = parked;
            g_cond_broadcast(&e->cond);
            if (!parked || e->virtual_clock) {
                g_cond_wait(&e->cond, &s->eng_lock);
            } else if (!g_cond_wait_until(&e->cond, &s->eng_lock,
                                          g_get_monotonic_time() +
                                          NV50_ENGINE_RECHECK_NS / 1000)) {
                nv50_pfifo_unpark(s);
            }
            continue;
        }
        e->idle = false;
        e->parked = false;
        e->running = true;
        e->running_chid = chid;
        g_mutex_unlock(&s->eng_lock);
        nv50_pfifo_run(s, chid);
        g_mutex_lock(&s->eng_lock);
        e->running = false;
    }
    e->paused = true;
    g_cond_broadcast(&e->cond);
    g_mutex_unlock(&s->eng_lock);
    return NULL;
}

static void engine_recheck_cb(void *opaque)
{
    NV50State *s = opaque;

    g_mutex_lock(&s->eng_lock);
    nv50_engine_kick_locked(s);         /* re-arms while still parked */
    g_mutex_unlock(&s->eng_lock);
}

void nv50_engine_init(NV50State *s)
{
    NV50Engine *e = g_new0(NV50Engine, 1);

    g_cond_init(&e->cond);
    gemu_timer_init(&e->recheck, s->clock, engine_recheck_cb, s);
    e->idle = true;
    e->sync_limit_us = NV50_ENGINE_SYNC_LIMIT_US;
    s->engine = e;
    e->thread = g_thread_new("nv50-engine", engine_thread, s);
}

void nv50_engine_fini(NV50State *s)
{
    NV50Engine *e = s->engine;

    if (!e) {
        return;
    }
    g_mutex_lock(&s->eng_lock);
    e->quit = true;
    g_atomic_int_set(&e->abort, 1);     /* a launch that never ends, too */
    g_cond_broadcast(&e->cond);
    g_mutex_unlock(&s->eng_lock);
    g_thread_join(e->thread);
    gemu_timer_del(&e->recheck);
    g_cond_clear(&e->cond);
    g_free(e);
    s->engine = NULL;
}

bool nv50_engine_on_thread(NV50State *s)
{
    return s->engine && g_thread_self() == s->engine->thread;
}

/*
 * eng_lock held: wait until nothing can make progress, or until the
 * monotonic time @deadline_us (0: no limit); false if it was reached.
 */
static bool engine_wait_idle_locked(NV50State *s, int64_t deadline_us)
{
    NV50Engine *e = s->engine;

    while (!e->quit && (!e->idle || e->running || e->pause_req)) {
        if (e->pause_req) {
            /* someone else holds the engine stopped: not our wait */
            return true;
        }
        if (!deadline_us) {
            g_cond_wait(&e->cond, &s->eng_lock);
        } else if (!g_cond_wait_until(&e->cond, &s->eng_lock,
                                      deadline_us)) {
            return false;
        }
    }
    return true;
}

void nv50_engine_kick_locked(NV50State *s)
{
    NV50Engine *e = s->engine;

    if (!e) {
        return;
    }
    e->idle = false;
    nv50_pfifo_unpark(s);
    g_cond_broadcast(&e->cond);
    if (e->deterministic && !nv50_engine_on_thread(s) &&
        !engine_wait_idle_locked(s, g_get_monotonic_time() +
                                    e->sync_limit_us)) {
        /* a guest's endless launch must not stop the MMIO side for ever */
        gemu_log_once(LOG_GUEST_ERROR, "nv50-engine", 0, "nv50: "
                      "-engine-sync: the engine is still busy after %g s; "
                      "this kick goes on without waiting (the run is no "
                      "longer reproducible)\n", e->sync_limit_us / 1e6);
    }
    if (e->virtual_clock && !nv50_engine_on_thread(s)) {
        if (e->idle && e->parked) {
            gemu_timer_mod(&e->recheck, gemu_clock_get_ns(s->clock) +
                                        NV50_ENGINE_RECHECK_NS);
        } else {
            gemu_timer_del(&e->recheck);
        }
    }
}

void nv50_engine_sync(NV50State *s)
{
    if (!s->engine || nv50_engine_on_thread(s)) {
        return;
    }
    g_mutex_lock(&s->eng_lock);
    engine_wait_idle_locked(s, 0);
    g_mutex_unlock(&s->eng_lock);
}

bool nv50_engine_sync_for(NV50State *s, int64_t timeout_us)
{
    bool idle;

    if (!s->engine || nv50_engine_on_thread(s)) {
        return true;
    }
    g_mutex_lock(&s->eng_lock);
    idle = engine_wait_idle_locked(s, g_get_monotonic_time() + timeout_us);
    g_mutex_unlock(&s->eng_lock);
    return idle;
}

void nv50_engine_set_deterministic(NV50State *s, bool on)
{
    g_mutex_lock(&s->eng_lock);
    s->engine->deterministic = on;
    g_mutex_unlock(&s->eng_lock);
}

void nv50_engine_set_virtual_clock(NV50State *s, bool on)
{
    g_mutex_lock(&s->eng_lock);
    s->engine->virtual_clock = on;
    s->engine->deterministic |= on;
    g_cond_broadcast(&s->engine->cond);
    g_mutex_unlock(&s->eng_lock);
}

void nv50_engine_set_sync_limit(NV50State *s, int64_t us)
{
    g_mutex_lock(&s->eng_lock);
    s->engine->sync_limit_us = us > 0 ? us : NV50_ENGINE_SYNC_LIMIT_US;
    g_mutex_unlock(&s->eng_lock);
}

void nv50_engine_set_insn_budget(NV50State *s, uint64_t insns)
{
    g_mutex_lock(&s->eng_lock);
    s->engine->budgeted = insns != 0;
    s->engine->insn_budget = insns;
    g_mutex_unlock(&s->eng_lock);
}

bool nv50_engine_insn_budget(NV50State *s, uint64_t *left)
{
    bool on;

    g_mutex_lock(&s->eng_lock);
    on = s->engine->budgeted;
    *left = s->engine->insn_budget;
    g_mutex_unlock(&s->eng_lock);
    return on;
}

void nv50_engine_insn_charge(NV50State *s, uint64_t insns)
{
    NV50Engine *e = s->engine;

    g_mutex_lock(&s->eng_lock);
    e->insn_budget -= MIN(insns, e->insn_budget);
    g_mutex_unlock(&s->eng_lock);
}

bool nv50_engine_parked(NV50State *s)
{
    return s->engine && s->engine->virtual_clock && s->engine->recheck.armed;
}

bool nv50_engine_running_locked(NV50State *s, int chid)
{
    NV50Engine *e = s->engine;

    return e && e->running && (chid < 0 || e->running_chid == chid);
}

const int *nv50_engine_abort_flag(NV50State *s)
{
    return s->engine ? &s->engine->abort : NULL;
}

bool nv50_engine_aborting(NV50State *s)
{
    return s->engine && g_atomic_int_get(&s->engine->abort);
}

void nv50_engine_pause_locked(NV50State *s, int abort_chid)
{
    NV50Engine *e = s->engine;

    if (!e || nv50_engine_on_thread(s)) {
        return;
    }
    e->pause_req++;
    if (abort_chid != NV50_ENGINE_NO_ABORT &&
        nv50_engine_running_locked(s, abort_chid)) {
        g_atomic_int_set(&e->abort, 1);
    }
    g_cond_broadcast(&e->cond);
    while (!e->paused && !e->quit) {
        g_cond_wait(&e->cond, &s->eng_lock);
    }
}

void nv50_engine_resume_locked(NV50State *s)
{
    NV50Engine *e = s->engine;

    if (!e || nv50_engine_on_thread(s)) {
        return;
    }
    g_assert(e->pause_req > 0);
    if (--e->pause_req == 0) {
        e->paused = false;
        e->idle = false;        /* look again: state may have changed */
    }
    g_cond_broadcast(&e->cond);
}

void nv50_engine_pause(NV50State *s, int abort_chid)
{
    g_mutex_lock(&s->eng_lock);
    nv50_engine_pause_locked(s, abort_chid);
    g_mutex_unlock(&s->eng_lock);
}

void nv50_engine_resume(NV50State *s)
{
    g_mutex_lock(&s->eng_lock);
    nv50_engine_resume_locked(s);
    g_mutex_unlock(&s->eng_lock);
}

bool nv50_engine_pause_for_locked(NV50State *s, int64_t timeout_us)
{
    NV50Engine *e = s->engine;
    int64_t deadline = g_get_monotonic_time() + timeout_us;

    if (!e || nv50_engine_on_thread(s)) {
        return false;
    }
    e->pause_req++;
    g_cond_broadcast(&e->cond);
    while (!e->paused && !e->quit) {
        if (!g_cond_wait_until(&e->cond, &s->eng_lock, deadline) &&
            !e->paused) {
            /* take the request back: the slice in progress goes on */
            e->pause_req--;
            g_cond_broadcast(&e->cond);
            return false;
        }
    }
    return true;
}

bool nv50_engine_hold(NV50State *s, bool hold)
{
    NV50Engine *e = s->engine;
    bool changed;

    if (!e) {
        return false;
    }
    g_mutex_lock(&s->eng_lock);
    changed = e->held != hold;
    if (changed && hold) {
        /* like a pause, but nobody waits: the slice in progress ends */
        e->held = true;
        e->pause_req++;
        g_cond_broadcast(&e->cond);
    } else if (changed) {
        e->held = false;
        nv50_engine_resume_locked(s);
    }
    g_mutex_unlock(&s->eng_lock);
    return changed;
}

const char *nv50_engine_state_locked(NV50State *s, int own_pauses)
{
    NV50Engine *e = s->engine;
    int others;

    if (!e) {
        return "none";
    }
    others = e->pause_req - own_pauses;
    if (e->held) {
        return e->paused ? "stopped (monitor)"
                         : "stopping (monitor; finishing its slice)";
    }
    if (others > 0) {
        return e->paused ? "paused" : "pausing";
    }
    if (e->running) {
        return "running";
    }
    return e->idle ? "idle" : "running";
}
