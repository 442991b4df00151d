/*
 * The card's engine thread (hw/nv50/engine.c): runs PFIFO's channels
 * and, through them, PGRAPH's methods, away from the MMIO path.  The
 * threading model and the lock order are in docs/devel/threading.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_ENGINE_H
#define HW_NV50_ENGINE_H

#include "hw/nv50/nv50.h"

typedef struct NV50Engine NV50Engine;

void nv50_engine_init(NV50State *s);
void nv50_engine_fini(NV50State *s);

/*
 * There may be work (a kick, a channel enabled, an error acknowledged):
 * wake the engine.  Called with eng_lock held.  In deterministic mode it
 * also waits, with eng_lock released meanwhile, until the engine is
 * idle.
 */
void nv50_engine_kick_locked(NV50State *s);

/*
 * Stop the engine between two channel slices and keep it stopped until
 * nv50_engine_resume(): for resets and channel teardown, which touch
 * what the engine thread owns.  Work in progress on channel @abort_chid
 * (NV50_ENGINE_ANY: on any channel; NV50_ENGINE_NO_ABORT: none) is
 * abandoned at its next check, so the wait is bounded even when a guest
 * launched a compute program that never ends.  Pauses nest.  A no-op on
 * the engine thread itself.  The _locked forms are called with eng_lock
 * held (released while waiting), the others without.
 */
#define NV50_ENGINE_ANY         (-1)
#define NV50_ENGINE_NO_ABORT    (-2)
void nv50_engine_pause(NV50State *s, int abort_chid);
void nv50_engine_resume(NV50State *s);
void nv50_engine_pause_locked(NV50State *s, int abort_chid);
void nv50_engine_resume_locked(NV50State *s);

/*
 * eng_lock held: a pause (as above, abandoning nothing) that waits
 * @timeout_us at most for the slice in progress to end; false, with no
 * pause taken, if it did not.  For readers of the engine's state that
 * must not hang (the monitor).  Undone by nv50_engine_resume_locked().
 */
bool nv50_engine_pause_for_locked(NV50State *s, int64_t timeout_us);

/*
 * The monitor's "stop" (@hold) and "cont": hold the engine stopped after
 * the slice in progress, without waiting for it, until released.  Kicks
 * still mark work; -engine-sync kicks do not wait while it is held.
 * False if it was already so.
 */
bool nv50_engine_hold(NV50State *s, bool hold);

/*
 * eng_lock held: the engine's state in words, for the monitor;
 * @own_pauses of its pause requests are the caller's own (not shown).
 */
const char *nv50_engine_state_locked(NV50State *s, int own_pauses);

/*
 * -clock virtual: deterministic mode (every kick waits for the engine)
 * whose parked channels are re-checked on the card's clock, from a timer
 * of the main loop, never on host time.  Call from the main loop.
 */
void nv50_engine_set_virtual_clock(NV50State *s, bool on);

/*
 * Deterministic mode: how long (host time) a kick waits for the engine
 * at most; 10 s unless changed (<= 0 restores it).  The fuzz harnesses
 * shorten it: a guest's endless launch must not take the whole run.
 */
void nv50_engine_set_sync_limit(NV50State *s, int64_t us);

/*
 * Bound the shader runs (gemu-shader --device --max-insns, the fuzz
 * harnesses): compute launches and the 3D stages' runs (VP, GP, FP)
 * from now on share @insns warp-instructions; the run past them traps
 * as the MP's TIMEOUT (compute: ERROR_CODE 0x08; UNVERIFIED: what sets
 * that bit on the hardware; 3D: TRAP_MP, as the stage's other traps,
 * and the draw stops), one that finds nothing left at its start.  The
 * FP's runs of a draw are charged at the draw's end (fp-prog.c).  0:
 * no bound, the default: what a guest sees in a normal run is
 * unchanged.
 */
void nv50_engine_set_insn_budget(NV50State *s, uint64_t insns);
/* For a run (engine thread): false if unbounded, else what is left. */
bool nv50_engine_insn_budget(NV50State *s, uint64_t *left);
/* A run ran @insns warp-instructions of the budget. */
void nv50_engine_insn_charge(NV50State *s, uint64_t insns);

/* -clock virtual, main loop: channels wait on semaphores (re-checked). */
bool nv50_engine_parked(NV50State *s);

/* eng_lock held: is the engine running a slice of @chid (< 0: any)? */
bool nv50_engine_running_locked(NV50State *s, int chid);

/*
 * For the work in progress on the engine thread: the flag that asks it
 * to give up (a compute launch hands it to the Tesla core as
 * TeslaEnv.stop), and a test of it.
 */
const int *nv50_engine_abort_flag(NV50State *s);
bool nv50_engine_aborting(NV50State *s);

/* True on the engine thread (for assertions and re-entry checks). */
bool nv50_engine_on_thread(NV50State *s);

#endif
