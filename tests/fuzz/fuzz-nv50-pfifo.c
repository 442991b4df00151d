/*
 * PFIFO pushbuffers and the PGRAPH methods behind them: a fresh card
 * (nv50-card.h) with a GPFIFO channel set up as nvkm does
 * (hw/nv50/hostchan.c), objects of the G84's classes bound to
 * subchannels 0-5 (M2MF, 2D, G84_3D, compute, NULL class, a handle
 * with no object) and a VRAM ctxdma in its RAMHT; then the input as
 * pushbuffer words, in IB entries: each entry is a length byte (0-255
 * words; 0 gives an empty entry) and that many words, the last one cut
 * short by the input's end.  One kick for all, then the engine runs for
 * at most FUZZ_ENGINE_WAIT_US of host time (a LAUNCH or draw of a
 * random program may never end; freeing the card abandons it).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "nv50-card.h"
#include "hw/nv50/hostchan.h"

#define CHID        1
#define INST        0x200000ull
#define VRAM_BASE   0x800000ull
#define VA_BASE     0x20000000ull
#define VA_GART     0x40000000ull
#define H_OBJ(i)    (0xc0000000u + (i))

static const uint16_t classes[] = { 0x5039, 0x502d, 0x8297, 0x50c0, 0x0030 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NV50HostChanConfig cfg = {
        .chid = CHID, .inst = INST, .va_base = VA_BASE,
        .vram_base = VRAM_BASE, .vram_len = 8u << 20,
        .gart_va = VA_GART, .gart_gpa = FUZZ_GART_GPA,
        .gart_len = FUZZ_GART_SIZE,
    };
    g_autofree char *err = NULL;
    FuzzIn in = { data, size };
    FuzzCard card;
    NV50HostChan ch;
    unsigned entries = 0;

    fuzz_quiet();
    fuzz_card_init(&card);
    if (!nv50_hostchan_init(&ch, card.s, &cfg, &err)) {
        fprintf(stderr, "host channel: %s\n", err);
        abort();
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(classes); i++) {
        nv50_hostchan_object(&ch, classes[i], H_OBJ(i));
    }
    /* SET_OBJECT on subchannels 0-5; 5 names a handle with no object */
    for (unsigned i = 0; i <= G_N_ELEMENTS(classes); i++) {
        uint32_t h = H_OBJ(i);

        nv50_hostchan_mthd(&ch, i, 0x0000, &h, 1);
    }
    nv50_hostchan_ib(&ch);
    entries++;
    while (in.left && entries < (1u << NV50_HOSTCHAN_IB_ORDER) - 1) {
        unsigned n = fuzz_take(&in, 1);

        if (!nv50_hostchan_room(&ch, n)) {
            break;
        }
        for (unsigned i = 0; i < n && in.left; i++) {
            nv50_hostchan_push(&ch, fuzz_take(&in, 4));
        }
        if (n) {
            nv50_hostchan_ib(&ch);
        } else {
            /* an empty IB entry: length 0 at the current place */
            nv50_hostchan_push(&ch, 0);
            nv50_hostchan_ib(&ch);
        }
        entries++;
    }
    fuzz_card_wr32(&card, 0xc00000 + CHID * 0x2000 + 0x8c,
                   ch.ib_put & ((1u << NV50_HOSTCHAN_IB_ORDER) - 1));
    if (nv50_engine_sync_for(card.s, FUZZ_ENGINE_WAIT_US)) {
        fuzz_card_ack_interrupts(&card);
    }
    fuzz_card_free(&card);
    return 0;
}
