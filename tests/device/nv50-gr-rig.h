/*
 * The rig of the tests/device suites that drive the G84's engines: a
 * card (nv50-rig.h) with one channel set up the way nvkm sets up a G84
 * GPFIFO channel (the host channel of hw/nv50/hostchan.c), and two ways
 * in:
 *
 *  - gr_call(): run one method of a PGRAPH class directly on the
 *    channel's PGRAPH context (the class tests, no PFIFO in the way);
 *  - push_*(): words into the channel's pushbuffer, submitted as IB
 *    entries and kicked through USER+0x8c, then nv50_engine_sync().
 *
 * Memory: the channel's instance block at GR_INST (page directory at
 * +0x200, RAMFC +0x5400, RAMHT +0x5500); VA GR_VA_BASE (0x20000000)
 * maps 64 MiB of VRAM from GR_VRAM_BASE in 64 KiB pages; VA GR_VA_GART
 * (0x40000000) maps the rig's guest RAM (GART_GPA, 1 MiB) in 4 KiB
 * pages.  The pushbuffer is at GR_VA_BASE (64 KiB), the IB (1024
 * entries) at GR_VA_BASE + 0x10000; test data goes from GR_VA_DATA.
 *
 * Context DMAs (offset >> 4, as 0x180-0x1fc methods carry them after
 * RAMHT): GR_DMA_VM (target VM, the whole VA) with handle GR_H_VM,
 * GR_DMA_VRAM (target VRAM, linear) with GR_H_VRAM.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_GR_RIG_H
#define TESTS_DEVICE_NV50_GR_RIG_H

#include "nv50-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/hostchan.h"
#include "hw/nv50/object.h"
#include "hw/nv50/gr/gr.h"

#define GR_CHID         1
#define GR_INST         0x200000ull
#define GR_PD           (GR_INST + 0x200)
#define GR_RAMFC        (GR_INST + 0x5400)
#define GR_RAMHT_BITS   NV50_HOSTCHAN_RAMHT_BITS
#define GR_RUNLIST      (GR_INST + 0x30000)
#define GR_VRAM_BASE    0x1000000ull
#define GR_VA_BASE      0x20000000ull
#define GR_VA_GART      0x40000000ull
#define GR_VA_PUSH      GR_VA_BASE
#define GR_VA_IB        (GR_VA_BASE + NV50_HOSTCHAN_PUSH_SIZE)
#define GR_IB_ORDER     NV50_HOSTCHAN_IB_ORDER
#define GR_VA_DATA      (GR_VA_BASE + 0x100000)

#define GR_DMA_VM       NV50_HOSTCHAN_DMA_VM
#define GR_DMA_VRAM     NV50_HOSTCHAN_DMA_VRAM
#define GR_H_VM         NV50_HOSTCHAN_H_VM
#define GR_H_VRAM       NV50_HOSTCHAN_H_VRAM

typedef struct GrRig {
    NV50HostChan ch;
    NV50GrCtx *ctx;
    uint32_t ib_put;            /* IB entries written by tests by hand */
} GrRig;

static GrRig gr;

static inline uint64_t gr_va_to_vram(uint64_t va)
{
    return nv50_hostchan_va_to_vram(&gr.ch, va);
}

static inline void gr_wr32(uint64_t va, uint32_t v)
{
    nv50_vram_wr32(rig.s, gr_va_to_vram(va), v);
}

static inline uint32_t gr_rd32(uint64_t va)
{
    return nv50_vram_rd32(rig.s, gr_va_to_vram(va));
}

static inline void gr_ramht_insert(uint32_t handle, uint32_t context)
{
    ck_assert(nv50_hostchan_ramht_insert(&gr.ch, handle, context));
}

static inline void gr_ctxdma(uint32_t ofs16, unsigned target,
                             uint64_t start, uint64_t limit)
{
    nv50_hostchan_ctxdma(&gr.ch, ofs16, target, start, limit);
}

static inline uint32_t gr_object(uint16_t class_id, uint32_t handle)
{
    return nv50_hostchan_object(&gr.ch, class_id, handle);
}

/*
 * A card, its BARs placed, PFIFO and PGRAPH interrupts enabled as nvkm
 * does, and channel GR_CHID set up and on the runlist.
 */
static inline void gr_rig_init(void)
{
    NV50HostChanConfig cfg = {
        .chid = GR_CHID, .inst = GR_INST,
        .va_base = GR_VA_BASE, .vram_base = GR_VRAM_BASE,
        .vram_len = 64u << 20,
        .gart_va = GR_VA_GART, .gart_gpa = GART_GPA, .gart_len = GART_SIZE,
    };
    g_autofree char *err = NULL;

    rig_init(LOG_GUEST_ERROR);
    memset(&gr, 0, sizeof(gr));
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
    ck_assert_msg(nv50_hostchan_init(&gr.ch, rig.s, &cfg, &err), "%s", err);
    gr.ctx = nv50_pgraph_ctx(rig.s, GR_CHID, GR_INST, GR_PD);
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
    nv50_hostchan_push(&gr.ch, w);
}

static inline void push_mthd(unsigned subc, uint32_t mthd,
                             const uint32_t *data, unsigned n)
{
    nv50_hostchan_mthd(&gr.ch, subc, mthd, data, n);
}

static inline void push_1(unsigned subc, uint32_t mthd, uint32_t data)
{
    push_mthd(subc, mthd, &data, 1);
}

/* Queue the words since the last submit as one IB entry (no kick). */
static inline void push_ib(void)
{
    nv50_hostchan_ib(&gr.ch);
    gr.ib_put = gr.ch.ib_put;
}

/* Kick IB_PUT = gr.ib_put (tests may write IB entries by hand). */
static inline void push_kick(void)
{
    gr.ch.ib_put = gr.ib_put;
    nv50_hostchan_kick(&gr.ch);
}

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
