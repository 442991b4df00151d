/*
 * The G84 a recording (gemu -M g84 -clock virtual -record FILE) is
 * replayed against: gemu-replay's and the replay fuzz harness's card,
 * made the same way so that what one finds the other reproduces.  The
 * replay itself is hw/pci/replay.h's; docs/devel/replay.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_REPLAY_H
#define HW_NV50_REPLAY_H

#include "hw/nv50/nv50.h"
#include "block/gemu-rec.h"

/*
 * A fresh card for the recording whose header is @hdr: on @clk (made
 * here, GEMU_CLOCK_VIRTUAL, stepping by the header's access_ns), with
 * the header's VRAM size, reset, its engine on -clock virtual's rules.
 * @max_vram (0: the card's own limit) refuses larger VRAM sizes.  NULL
 * with *errp (the clock left uninitialised) if @hdr is not a g84
 * recording made with -clock virtual, or the card cannot be made.
 * nv50_replay_card_free() frees both.
 */
NV50State *nv50_replay_card_new(const GemuRecHeader *hdr, GemuClock *clk,
                                uint64_t max_vram, GError **errp);
void nv50_replay_card_free(NV50State *s, GemuClock *clk);

#endif
