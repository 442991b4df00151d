/*
 * What the nv50 display unit tests write into VRAM for the display's
 * context DMAs, the way nvkm does: the RAMHT hash (9-bit chunks of the
 * handle xor chid << 5) and nv50_dmaobj_bind's VRAM object.  The display
 * instance (RAMHT first, objects after) is at NV50_TEST_DISP_INST.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_UNIT_NV50_RAMHT_H
#define TESTS_UNIT_NV50_RAMHT_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"

#define NV50_TEST_DISP_INST     0x10000u

static inline uint32_t ramht_slot(uint32_t handle, int chid)
{
    uint32_t h = 0;

    for (; handle; handle >>= 9) {
        h ^= handle & 0x1ff;
    }
    return (h ^ (chid << 5)) & 0x1ff;
}

/*
 * Bind @handle for channel @chid to a VRAM context DMA [start, start +
 * size) at object offset @obj of the instance (no probing: the slot must
 * be free).
 */
static inline void bind(NV50State *s, int chid, uint32_t handle,
                        uint32_t obj, uint32_t start, uint32_t size)
{
    const uint32_t inst = NV50_TEST_DISP_INST;
    uint32_t slot = ramht_slot(handle, chid);

    nv50_vram_wr32(s, inst + slot * 8, handle);
    nv50_vram_wr32(s, inst + slot * 8 + 4,
                   (uint32_t)chid << 28 | chid | obj << 10);
    /* class 0x3d, target VRAM, RW; limit, start */
    nv50_vram_wr32(s, inst + obj + 0, 0x0009003d);
    nv50_vram_wr32(s, inst + obj + 4, start + size - 1);
    nv50_vram_wr32(s, inst + obj + 8, start);
    nv50_vram_wr32(s, inst + obj + 12, 0);
}

#endif
