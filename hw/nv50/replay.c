/*
 * The card a recording is replayed against (include/hw/nv50/replay.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/replay.h"

NV50State *nv50_replay_card_new(const GemuRecHeader *hdr, GemuClock *clk,
                                uint64_t max_vram, GError **errp)
{
    NV50State *s;

    if (strcmp(hdr->machine, "g84")) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "a recording of machine '%s'; "
                    "only g84 recordings can be replayed", hdr->machine);
        return NULL;
    }
    if (!(hdr->flags & GEMU_REC_F_VIRTUAL_CLOCK)) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "not recorded with -clock "
                    "virtual");
        return NULL;
    }
    if (max_vram && (!hdr->vram_size || hdr->vram_size > max_vram)) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "VRAM size %" PRIu64 " MiB: "
                    "at most %" PRIu64 " MiB here", hdr->vram_size >> 20,
                    max_vram >> 20);
        return NULL;
    }
    gemu_clock_init(clk, GEMU_CLOCK_VIRTUAL);
    clk->access_ns = hdr->access_ns;
    s = nv50_new(clk, NULL, hdr->vram_size, errp);
    if (!s) {
        gemu_clock_destroy(clk);
        return NULL;
    }
    device_reset(DEVICE(s));
    nv50_engine_set_virtual_clock(s, true);
    return s;
}

void nv50_replay_card_free(NV50State *s, GemuClock *clk)
{
    nv50_free(s);
    gemu_clock_destroy(clk);
}
