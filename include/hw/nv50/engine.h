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
 * Stop the engine between two methods and keep it stopped until
 * nv50_engine_resume(): for resets and channel teardown, which touch
 * what the engine thread owns.  Called without eng_lock; nests.  A no-op
 * on the engine thread itself.
 */
void nv50_engine_pause(NV50State *s);
void nv50_engine_resume(NV50State *s);

/* True on the engine thread (for assertions and re-entry checks). */
bool nv50_engine_on_thread(NV50State *s);

#endif
