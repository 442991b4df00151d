/*
 * The rig of the tests/device suites that drive the G84's engines: a
 * card (nv50-rig.h) with one channel set up the way nvkm sets up a G84
 * GPFIFO channel, and two ways in:
 *
 *  - gr_call(): run one method of a PGRAPH class directly on the
 *    channel's PGRAPH context (the class tests, no PFIFO in the way);
 *  - push_*(): words into the channel's pushbuffer, submitted as IB
 *    entries and kicked through USER+0x8c, then nv50_engine_sync().
 *
 * Memory map (VRAM):
 *   GR_INST       0x200000  channel instance block (64 KiB): eng 0x0,
 *                           page directory 0x200, RAMFC 0x5400, RAMHT
 *                           0x5500 (4096 entries), objects from 0x1000
 *   0x300000 / 0x310000     page tables of PDE 1 (VA 0x20000000, 64 KiB
 *                           pages) and PDE 2 (VA 0x40000000, 4 KiB pages)
 *   0x320000                the runlist
 *   GR_VRAM_BASE  0x1000000 what VA GR_VA_BASE (0x20000000) maps, 64 MiB
 * VA GR_VA_GART (0x40000000) maps the rig's guest RAM (GART_GPA, 1 MiB)
 * in 4 KiB pages.  The pushbuffer is at VA GR_VA_BASE (64 KiB), the IB
 * (1024 entries) at GR_VA_BASE + 0x10000; test data goes from
 * GR_VA_DATA = GR_VA_BASE + 0x100000.
 *
 * Context DMAs in the channel (offset >> 4, as 0x180-0x1fc methods carry
 * them after RAMHT): GR_DMA_VM (target VM, the whole 40-bit VA) with
 * handle GR_H_VM, GR_DMA_VRAM (target VRAM, linear) with GR_H_VRAM.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_GR_RIG_H
#define TESTS_DEVICE_NV50_GR_RIG_H

#include "nv50-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/object.h"
#include "hw/nv50/gr/gr.h"

#define GR_CHID         1
#define GR_INST         0x200000ull
#define GR_PD           (GR_INST + 0x200)
#define GR_RAMFC        (GR_INST + 0x5400)
#define GR_RAMHT        (GR_INST + 0x5500)
#define GR_RAMHT_BITS   12
#define GR_PT_BIG       0x300000ull
#define GR_PT_SMALL     0x310000ull
#define GR_RUNLIST      0x320000ull
#define GR_VRAM_BASE    0x1000000ull
#define GR_VA_BASE      0x20000000ull
#define GR_VA_GART      0x40000000ull
#define GR_VA_PUSH      GR_VA_BASE
#define GR_PUSH_SIZE    0x10000u
#define GR_VA_IB        (GR_VA_BASE + 0x10000)
#define GR_IB_ORDER     10
#define GR_VA_DATA      (GR_VA_BASE + 0x100000)

#define GR_DMA_VM       0x100       /* object offset >> 4 */
#define GR_DMA_VRAM     0x102
#define GR_H_VM         0xd0000001u
#define GR_H_VRAM       0xd0000002u

typedef struct GrRig {
    NV50GrCtx *ctx;
    uint32_t obj_next;          /* next object offset in the instance */
    uint32_t push_put;          /* bytes written to the pushbuffer */
    uint32_t push_sent;         /* bytes submitted */
    uint32_t ib_put;
} GrRig;

static GrRig gr;

static inline uint64_t gr_va_to_vram(uint64_t va)
{
    return GR_VRAM_BASE + (va - GR_VA_BASE);
}

static inline void gr_wr32(uint64_t va, uint32_t v)
{
    nv50_vram_wr32(rig.s, gr_va_to_vram(va), v);
}

static inline uint32_t gr_rd32(uint64_t va)
{
    return nv50_vram_rd32(rig.s, gr_va_to_vram(va));
}

/* Insert @handle -> @context into the channel's RAMHT (nvkm's hash). */
static inline void gr_ramht_insert(uint32_t handle, uint32_t context)
{
    uint32_t n = 1u << GR_RAMHT_BITS;
    uint32_t h = nv50_ramht_hash(GR_RAMHT_BITS, 0, handle);

    for (uint32_t i = 0; i < n; i++) {
        uint64_t slot = GR_RAMHT + ((h + i) & (n - 1)) * 8;

        if (!nv50_vram_rd32(rig.s, slot + 4) &&
            !nv50_vram_rd32(rig.s, slot)) {
            nv50_vram_wr32(rig.s, slot, handle);
            nv50_vram_wr32(rig.s, slot + 4, context);
            return;
        }
    }
    ck_abort_msg("RAMHT full");
}

/* A DMA object at offset @ofs16 << 4 of the instance. */
static inline void gr_ctxdma(uint32_t ofs16, unsigned target,
                             uint64_t start, uint64_t limit)
{
    uint64_t a = GR_INST + ((uint64_t)ofs16 << 4);

    nv50_vram_wr32(rig.s, a, NV_CLASS_DMA_IN_MEMORY | target << 16 |
                   2 << 18);
    nv50_vram_wr32(rig.s, a + 4, (uint32_t)limit);
    nv50_vram_wr32(rig.s, a + 8, (uint32_t)start);
    nv50_vram_wr32(rig.s, a + 12, (uint32_t)(limit >> 32) << 24 |
                   (uint32_t)(start >> 32));
    nv50_vram_wr32(rig.s, a + 16, 0);
    nv50_vram_wr32(rig.s, a + 20, 0);
}

/* A PGRAPH object of @class_id with @handle; returns its offset >> 4. */
static inline uint32_t gr_object(uint16_t class_id, uint32_t handle)
{
    uint32_t ofs = gr.obj_next;

    gr.obj_next += 0x20;
    for (int i = 0; i < 8; i++) {
        nv50_vram_wr32(rig.s, GR_INST + ofs + i * 4, i ? 0 : class_id);
    }
    gr_ramht_insert(handle, NV50_ENGINE_GR_CONTEXT | ofs >> 4);
    return ofs >> 4;
}

static inline void gr_page_tables(void)
{
    NV50State *s = rig.s;

    /* PDE 1: VA 0x20000000, 64 KiB pages, VRAM page table */
    nv50_vram_wr32(s, GR_PD + 8, (uint32_t)GR_PT_BIG | 1);
    nv50_vram_wr32(s, GR_PD + 12, 0);
    for (uint32_t i = 0; i < 64 * 1024 * 1024 / 0x10000; i++) {
        uint64_t pte = (GR_VRAM_BASE + (uint64_t)i * 0x10000) | 1;

        nv50_vram_wr32(s, GR_PT_BIG + i * 8, (uint32_t)pte);
        nv50_vram_wr32(s, GR_PT_BIG + i * 8 + 4, pte >> 32);
    }
    /* PDE 2: VA 0x40000000, 4 KiB pages (64 KiB table), guest RAM */
    nv50_vram_wr32(s, GR_PD + 16, (uint32_t)GR_PT_SMALL | 0x60 | 3);
    nv50_vram_wr32(s, GR_PD + 20, 0);
    for (uint32_t i = 0; i < GART_SIZE / 0x1000; i++) {
        uint64_t pte = (GART_GPA + (uint64_t)i * 0x1000) | 0x20 | 1;

        nv50_vram_wr32(s, GR_PT_SMALL + i * 8, (uint32_t)pte);
        nv50_vram_wr32(s, GR_PT_SMALL + i * 8 + 4, pte >> 32);
    }
}

/*
 * A card, its BARs placed, PFIFO and PGRAPH initialised as nvkm does
 * (interrupts enabled), and channel GR_CHID set up and in the runlist.
 */
static inline void gr_rig_init(void)
{
    NV50State *s = rig.s;

    rig_init(LOG_GUEST_ERROR);
    s = rig.s;
    memset(&gr, 0, sizeof(gr));
    gr.obj_next = 0x1100;
    pci_config_write(rig.pci, 0x10, BAR0_GPA, 4);
    pci_config_write(rig.pci, 0x14, BAR1_GPA, 4);
    pci_config_write(rig.pci, 0x1c, BAR3_GPA, 4);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    wr32(NV_PMC_INTR_EN_HOST, 1);
    /* nv50_fifo_init, nv50_gr_init (the parts with effects) */
    wr32(0x002100, 0xffffffff);
    wr32(0x002140, 0xbfffffff);
    wr32(0x400108, 0xffffffff);
    wr32(0x400138, 0xffffffff);
    wr32(0x400100, 0xffffffff);
    wr32(0x40013c, 0xffffffff);
    wr32(0x400500, 0x00010001);

    gr_page_tables();
    gr_ctxdma(GR_DMA_VM, NV50_DMA_VM, 0, 0xffffffffffull);
    gr_ctxdma(GR_DMA_VRAM, NV50_DMA_VRAM, 0, s->vram_size - 1);
    gr_ramht_insert(GR_H_VM, GR_DMA_VM);
    gr_ramht_insert(GR_H_VRAM, GR_DMA_VRAM);

    /* RAMFC as gpfifog84.c writes it */
    nv50_vram_wr32(s, GR_RAMFC + 0x3c, 0x403f6078);
    nv50_vram_wr32(s, GR_RAMFC + 0x44, 0x01003fff);
    nv50_vram_wr32(s, GR_RAMFC + 0x48, GR_DMA_VM);
    nv50_vram_wr32(s, GR_RAMFC + 0x50, (uint32_t)GR_VA_IB);
    nv50_vram_wr32(s, GR_RAMFC + 0x54, (uint32_t)(GR_VA_IB >> 32) |
                   GR_IB_ORDER << 16);
    nv50_vram_wr32(s, GR_RAMFC + 0x60, 0x7fffffff);
    nv50_vram_wr32(s, GR_RAMFC + 0x7c, 0x30000001);
    nv50_vram_wr32(s, GR_RAMFC + 0x80, (GR_RAMHT_BITS - 9) << 27 | 4 << 24 |
                   (uint32_t)((GR_RAMHT - GR_INST) >> 4));
    nv50_vram_wr32(s, GR_RAMFC + 0x88, (uint32_t)((GR_INST + 0x4400) >> 10));
    nv50_vram_wr32(s, GR_RAMFC + 0x98, (uint32_t)(GR_INST >> 12));
    wr32(0x002600 + GR_CHID * 4, 0x80000000u | (uint32_t)(GR_RAMFC >> 8));
    nv50_vram_wr32(s, GR_RUNLIST, GR_CHID);
    wr32(0x0032f4, (uint32_t)(GR_RUNLIST >> 12));
    wr32(0x0032ec, 1);
    wr32(0x002500, 0x101);

    gr.ctx = nv50_pgraph_ctx(s, GR_CHID, GR_INST, GR_PD);
}

static inline void gr_rig_teardown(void)
{
    rig_teardown();
}

/* Direct: bind object @ofs16 (from gr_object) to @subc, run a method. */
static inline void gr_bind(unsigned subc, uint32_t ofs16)
{
    nv50_pgraph_bind(rig.s, gr.ctx, subc, GR_INST + ((uint64_t)ofs16 << 4));
}

static inline void gr_call(unsigned subc, uint32_t mthd, uint32_t data)
{
    nv50_pgraph_method(rig.s, gr.ctx, subc, mthd, data);
}

/* --- through PFIFO --- */

static inline void push_word(uint32_t w)
{
    ck_assert_uint_lt(gr.push_put + 4, GR_PUSH_SIZE);
    gr_wr32(GR_VA_PUSH + gr.push_put, w);
    gr.push_put += 4;
}

/* An incrementing method header and its @n data words. */
static inline void push_mthd(unsigned subc, uint32_t mthd,
                             const uint32_t *data, unsigned n)
{
    push_word(n << 18 | subc << 13 | mthd);
    for (unsigned i = 0; i < n; i++) {
        push_word(data[i]);
    }
}

static inline void push_1(unsigned subc, uint32_t mthd, uint32_t data)
{
    push_mthd(subc, mthd, &data, 1);
}

/* Queue the words since the last submit as one IB entry (no kick). */
static inline void push_ib(void)
{
    uint64_t va = GR_VA_PUSH + gr.push_sent;
    uint32_t len = (gr.push_put - gr.push_sent) / 4;
    uint32_t e = gr.ib_put & ((1u << GR_IB_ORDER) - 1);

    gr_wr32(GR_VA_IB + e * 8, (uint32_t)va);
    gr_wr32(GR_VA_IB + e * 8 + 4, (uint32_t)(va >> 32) | len << 10);
    gr.ib_put++;
    gr.push_sent = gr.push_put;
}

static inline void push_kick(void)
{
    wr32(0xc00000 + GR_CHID * 0x2000 + 0x8c,
         gr.ib_put & ((1u << GR_IB_ORDER) - 1));
    nv50_engine_sync(rig.s);
}

/* Submit what was pushed as one IB entry, kick, wait for the engine. */
static inline void push_submit(void)
{
    push_ib();
    push_kick();
}

static inline uint32_t user_rd32(uint32_t off)
{
    return rd32(0xc00000 + GR_CHID * 0x2000 + off);
}

#endif
