/*
 * The in-process G84 of the nv50 harnesses (nv50-card.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-card.h"
#include "hw/nv50/nv50_regs.h"
#include "hw/nv50/engine.h"

void fuzz_card_init(FuzzCard *c)
{
    memset(c, 0, sizeof(*c));
    gemu_clock_init(&c->clk, GEMU_CLOCK_VIRTUAL);
    c->ram = guest_ram_new();
    c->sysmem = g_malloc0(FUZZ_GART_SIZE);
    guest_ram_add(c->ram, FUZZ_GART_GPA, FUZZ_GART_SIZE, c->sysmem);
    c->s = nv50_new(&c->clk, c->ram, FUZZ_VRAM_SIZE, NULL);
    if (!c->s) {
        abort();
    }
    c->pci = PCI_DEVICE(c->s);
    nv50_engine_set_insn_budget(c->s, FUZZ_INSN_BUDGET);
    pci_config_write(c->pci, 0x10, FUZZ_BAR0_GPA, 4);
    pci_config_write(c->pci, 0x14, FUZZ_BAR1_GPA, 4);
    pci_config_write(c->pci, 0x1c, FUZZ_BAR3_GPA, 4);
    pci_config_write(c->pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    /* nv50_fifo_init, nv50_gr_init (the parts with effects) */
    fuzz_card_wr32(c, NV_PMC_INTR_EN_HOST, 1);
    fuzz_card_wr32(c, 0x002100, 0xffffffff);
    fuzz_card_wr32(c, 0x002140, 0xbfffffff);
    fuzz_card_wr32(c, 0x400108, 0xffffffff);
    fuzz_card_wr32(c, 0x400138, 0xffffffff);
    fuzz_card_wr32(c, 0x400100, 0xffffffff);
    fuzz_card_wr32(c, 0x40013c, 0xffffffff);
    fuzz_card_wr32(c, 0x400500, 0x00010001);
}

void fuzz_card_free(FuzzCard *c)
{
    nv50_free(c->s);
    guest_ram_free(c->ram);
    g_free(c->sysmem);
    gemu_clock_destroy(&c->clk);
}

void fuzz_card_ack_interrupts(FuzzCard *c)
{
    /* PFIFO, PGRAPH (and its trap status), PDISPLAY: write 1 to clear */
    static const uint32_t acks[] = {
        0x002100, 0x400100, 0x400108, 0x610020, 0x610024,
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(acks); i++) {
        fuzz_card_wr32(c, acks[i], fuzz_card_rd32(c, acks[i]));
    }
    fuzz_card_wr32(c, 0x610030, 0x80000000);    /* supervisor done */
}
