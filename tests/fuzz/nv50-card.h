/*
 * The in-process G84 the nv50 harnesses fuzz (tests/fuzz/nv50-card.c):
 * a card with 16 MiB of VRAM on a virtual clock with 1 MiB of guest RAM at FUZZ_GART_GPA,
 * its BARs placed and bus mastering on, PFIFO and PGRAPH interrupts
 * enabled as nvkm does, shader runs on FUZZ_INSN_BUDGET.  A fresh
 * card for every input, so that a crash reproduces from its input alone.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_FUZZ_NV50_CARD_H
#define TESTS_FUZZ_NV50_CARD_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"

#define FUZZ_BAR0_GPA   0xfd000000ull
#define FUZZ_BAR1_GPA   0xe0000000ull
#define FUZZ_BAR3_GPA   0xfa000000ull
#define FUZZ_GART_GPA   0x10000000ull
#define FUZZ_GART_SIZE  0x100000u
/* the least VRAM: a fresh card per input must be cheap (it is cleared) */
#define FUZZ_VRAM_SIZE  (16u << 20)

/*
 * How long (host time) the harnesses let the engine run after a kick: a
 * guest's shader may loop for ever, and the card must only stay
 * answerable (freeing it abandons the work).
 */
#define FUZZ_ENGINE_WAIT_US 100000
/*
 * The warp-instructions the card's shader runs share (compute launches
 * and the 3D stages' VP, GP and FP runs; nv50_engine_set_insn_budget):
 * a random program that never ends traps with TIMEOUT instead of
 * running until the card is freed.
 */
#define FUZZ_INSN_BUDGET    100000u

typedef struct FuzzCard {
    GemuClock clk;
    GuestRAM *ram;
    uint8_t *sysmem;
    NV50State *s;
    PCIDevice *pci;
} FuzzCard;

void fuzz_card_init(FuzzCard *c);
void fuzz_card_free(FuzzCard *c);

static inline uint32_t fuzz_card_rd32(FuzzCard *c, uint32_t reg)
{
    return pci_mmio_read(c->pci, FUZZ_BAR0_GPA + reg, 4);
}

static inline void fuzz_card_wr32(FuzzCard *c, uint32_t reg, uint32_t val)
{
    pci_mmio_write(c->pci, FUZZ_BAR0_GPA + reg, val, 4);
}

/* What nvkm's interrupt handler does: acknowledge every pending source. */
void fuzz_card_ack_interrupts(FuzzCard *c);

#endif
