/*
 * The G84's MMIO surface: random register reads and writes through the
 * card's BARs (BAR0 registers, BAR1 and BAR3 apertures), and EVO
 * pushbuffers, against a fresh in-process card (nv50-card.h) whose
 * display is set up the way nvkm does (display instance, RAMHT with a
 * VRAM ctxdma, the core and base channels with their pushbuffers in
 * guest RAM).  The input is a list of operations, each an op byte then
 * its operands:
 *
 *   op % 8  0 BAR0 write (size 1/2/4 from op >> 3), 24-bit offset, value
 *           1 BAR0 read, the same
 *           2 a write into one unit (op >> 3 picks it), 16-bit offset, value
 *           3 BAR1 write/read (op & 8), 28-bit offset, value
 *           4 BAR3 write/read (op & 8), 24-bit offset, value
 *           5 EVO: n (byte % 32) words into channel op >> 3 & 1's
 *             pushbuffer (wound with a JUMP 0), then PUT
 *           6 the clock moves on a byte's worth of ms; interrupts
 *             are acknowledged as nvkm does
 *           7 PCI config write, offset byte, value
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "nv50-card.h"

#define DISP_INST       (FUZZ_VRAM_SIZE - 0x20000)
#define PUSH_OFF(c)     ((uint32_t)(c) * 0x1000u)
#define PUSH_WORDS      (0x1000 / 4 - 1)
#define HANDLE_VRAM     0xf0000001u

/* PMC, PBUS, PFIFO, PTIMER, PFB, PGRAPH, PDISPLAY, EVO user, PRAMIN, USER */
static const uint32_t units[] = {
    0x000000, 0x001000, 0x002000, 0x009000, 0x100000, 0x400000,
    0x610000, 0x640000, 0x700000, 0xc00000,
};

typedef struct Evo {
    uint32_t cur[2];
} Evo;

static void inst_wr32(FuzzCard *c, uint32_t addr, uint32_t val)
{
    fuzz_card_wr32(c, 0x001700, addr >> 16);
    fuzz_card_wr32(c, 0x700000 + (addr & 0xffff), val);
}

/* nvkm's display init, one VRAM ctxdma per channel, core + base up */
static void evo_init(FuzzCard *c)
{
    fuzz_card_wr32(c, 0x610010, (DISP_INST >> 8) | 9);
    fuzz_card_wr32(c, 0x61002c, 0x00000370);
    fuzz_card_wr32(c, 0x610028, 0x00000000);
    for (int chid = 0; chid < 2; chid++) {
        uint32_t obj = 0x1000 + chid * 0x20;
        uint64_t push = FUZZ_GART_GPA + PUSH_OFF(chid);
        uint32_t co = 0;

        inst_wr32(c, DISP_INST + obj, 0x0009003d);      /* VRAM, RW */
        inst_wr32(c, DISP_INST + obj + 4, FUZZ_VRAM_SIZE - 1);
        for (uint32_t h = HANDLE_VRAM; h; h >>= 9) {
            co ^= h & 0x1ff;
        }
        co = (co ^ (uint32_t)chid << 5) & 0x1ff;
        inst_wr32(c, DISP_INST + co * 8, HANDLE_VRAM);
        inst_wr32(c, DISP_INST + co * 8 + 4,
                  (uint32_t)chid << 28 | chid | obj << 10);
        fuzz_card_wr32(c, 0x610028, fuzz_card_rd32(c, 0x610028) |
                       0x00010000u << chid);
        fuzz_card_wr32(c, 0x610204 + chid * 0x10, (uint32_t)(push >> 8) | 3);
        fuzz_card_wr32(c, 0x610208 + chid * 0x10, 0x00010000);
        fuzz_card_wr32(c, 0x61020c + chid * 0x10, chid);
        fuzz_card_wr32(c, 0x640000 + chid * 0x1000, 0);
        fuzz_card_wr32(c, 0x610200 + chid * 0x10,
                       chid ? 0x00000013 : 0x01000013);
    }
}

static void evo_push(FuzzCard *c, Evo *e, int chid, FuzzIn *in)
{
    uint32_t *push = (uint32_t *)(c->sysmem + PUSH_OFF(chid));
    unsigned n = fuzz_take(in, 1) % 32;

    for (unsigned i = 0; i < n && in->left; i++) {
        if (e->cur[chid] >= PUSH_WORDS) {
            push[e->cur[chid]] = 0x20000000;        /* JUMP 0 */
            e->cur[chid] = 0;
        }
        push[e->cur[chid]++] = fuzz_take(in, 4);
    }
    fuzz_card_wr32(c, 0x640000 + chid * 0x1000, e->cur[chid] * 4);
}

static void bar_access(FuzzCard *c, uint64_t gpa, bool write, unsigned size,
                       uint32_t val)
{
    gpa &= ~(uint64_t)(size - 1);
    if (write) {
        pci_mmio_write(c->pci, gpa, val, size);
    } else {
        (void)pci_mmio_read(c->pci, gpa, size);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned sizes[4] = { 4, 1, 2, 4 };
    FuzzIn in = { data, size };
    FuzzCard card;
    Evo evo = { { 0, 0 } };

    fuzz_quiet();
    fuzz_card_init(&card);
    evo_init(&card);
    while (in.left) {
        unsigned op = fuzz_take(&in, 1);
        uint32_t off, val;

        switch (op % 8) {
        case 0:
        case 1:
            off = fuzz_take(&in, 3);
            val = op % 8 == 0 ? fuzz_take(&in, 4) : 0;
            bar_access(&card, FUZZ_BAR0_GPA + off, op % 8 == 0,
                       sizes[op >> 3 & 3], val);
            break;
        case 2:
            off = units[(op >> 3) % G_N_ELEMENTS(units)] +
                  (fuzz_take(&in, 2) & ~3u);
            fuzz_card_wr32(&card, off, fuzz_take(&in, 4));
            break;
        case 3:
            off = fuzz_take(&in, 4) & 0x0ffffffc;
            bar_access(&card, FUZZ_BAR1_GPA + off, op & 8, 4,
                       fuzz_take(&in, 4));
            break;
        case 4:
            off = fuzz_take(&in, 3) & 0xfffffc;
            bar_access(&card, FUZZ_BAR3_GPA + off, op & 8, 4,
                       fuzz_take(&in, 4));
            break;
        case 5:
            evo_push(&card, &evo, op >> 3 & 1, &in);
            break;
        case 6:
            gemu_clock_advance(&card.clk,
                               (int64_t)fuzz_take(&in, 1) * 1000000);
            fuzz_card_ack_interrupts(&card);
            break;
        case 7:
            off = fuzz_take(&in, 1);
            val = fuzz_take(&in, 4);
            /* the BARs stay where the harness placed them */
            if (off < 0x10 || off >= 0x28) {
                pci_config_write(card.pci, off & ~3u, val, 4);
            }
            break;
        }
    }
    (void)nv50_engine_sync_for(card.s, FUZZ_ENGINE_WAIT_US);
    fuzz_card_free(&card);
    return 0;
}
