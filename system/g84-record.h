/*
 * The g84 machine's -clock virtual and -record (g84-record.c;
 * docs/devel/replay.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_RECORD_H
#define SYSTEM_G84_RECORD_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/remote/mpqemu.h"
#include "machines.h"

/*
 * No access for this long (host time) while the card has a timer the
 * guest waits for: the guest is idle, the virtual clock jumps to that
 * timer.  Once the guest's interrupt handler has been seen polling
 * (g84-record.c: idle polls), jumps are taken at its polls and the
 * host-timed jump only after STALL, as a way out of a guest that stopped
 * polling.
 */
#define G84_VCLOCK_IDLE_NS      (2 * 1000 * 1000)
#define G84_VCLOCK_STALL_NS     (1000 * 1000 * 1000)

typedef struct G84Rec G84Rec;

/* -clock and -record as options: the clock's kind; false with *errp. */
bool g84_rec_clock_kind(const MachineOptions *opts, GemuClockKind *kind,
                        GError **errp);
/*
 * Once the card exists: virtual-clock engine mode, the -frames clock,
 * the recording's file (before display_open).  NULL with *errp set if
 * the file cannot be written.
 */
G84Rec *g84_rec_new(const MachineOptions *opts, NV50State *card,
                    GemuClock *clk, GError **errp);
/* Once QEMU's server exists: its access hook, the recorder's taps. */
void g84_rec_attach(G84Rec *r, MPQemuServer *srv);
/* Virtual clock: how long (host ns) poll may wait before an idle jump. */
int64_t g84_rec_idle_wait(G84Rec *r);
/* The main loop found nothing to do: jump the clock if the guest idles. */
void g84_rec_idle(G84Rec *r);
/* -clock virtual: the clock's jumps so far, at the guest's polls and on
   host time; false (nothing set) under the host clock. */
bool g84_rec_jumps(const G84Rec *r, int64_t *at_polls, int64_t *host);
/* QEMU is gone: END (with the card's digest) and close; before the
   server is freed.  False with *errp if the file could not be written. */
bool g84_rec_finish(G84Rec *r, GError **errp);
void g84_rec_free(G84Rec *r);

#endif
