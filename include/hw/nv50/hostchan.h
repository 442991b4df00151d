/*
 * A channel driven from the host side, in process: what nvkm and
 * nouveau do to set up a G84 GPFIFO channel (instance block, page
 * directory, RAMFC, RAMHT, context DMAs, the channel table and runlist),
 * done straight in VRAM and BAR0 (or through the caller's accesses,
 * cfg->access), plus a pushbuffer and IB to feed it.  For the tools
 * that run work on the card without a guest (gemu-shader --device) and
 * for the device tests.  Like the driver at probe, it
 * sets the function's Bus Master Enable (PCI_COMMAND bit 2).
 *
 * Layout (VRAM, from cfg->inst): the instance block (64 KiB: page
 * directory +0x200, RAMFC +0x5400, RAMHT +0x5500 with 4096 entries,
 * objects from +0x1000), the page tables at +0x10000 (64 KiB pages
 * mapping cfg->va_base.. to cfg->vram_base.., and 4 KiB pages mapping
 * cfg->gart_va.. to guest RAM cfg->gart_gpa..), the runlist at +0x30000.
 * The pushbuffer (64 KiB) and the IB (1024 entries) are the first
 * 0x12000 bytes of the VA window.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_HOSTCHAN_H
#define HW_NV50_HOSTCHAN_H

#include "hw/nv50/nv50.h"
#include "hw/nv50/object.h"

#define NV50_HOSTCHAN_PUSH_SIZE     0x10000u
#define NV50_HOSTCHAN_IB_ORDER      10
#define NV50_HOSTCHAN_RAMHT_BITS    12
/* the two context DMAs every host channel has (offset >> 4, handle) */
#define NV50_HOSTCHAN_DMA_VM        0x100   /* target VM, the whole VA */
#define NV50_HOSTCHAN_DMA_VRAM      0x102   /* target VRAM, linear */
#define NV50_HOSTCHAN_H_VM          0xd0000001u
#define NV50_HOSTCHAN_H_VRAM        0xd0000002u

/*
 * How the channel's set-up reaches the card: by default straight into
 * VRAM, BAR0's registers and config space; a driver that must be seen
 * as a guest (a recording: tests/device/test-device-nv50-rec-channel.c)
 * gives its own, which makes each one a BAR or config access.  Config
 * accesses are 16-bit (PCI_COMMAND), the others 32-bit.
 */
typedef enum NV50HostChanSpace {
    NV50_HOSTCHAN_REG,          /* BAR0 register */
    NV50_HOSTCHAN_VRAM,         /* VRAM address */
    NV50_HOSTCHAN_CFG,          /* config space offset */
} NV50HostChanSpace;

typedef uint32_t NV50HostChanAccess(void *opaque, NV50HostChanSpace space,
                                    bool write, uint64_t addr, uint32_t val);

typedef struct NV50HostChanConfig {
    int chid;                   /* 1..126 */
    uint64_t inst;              /* VRAM: instance block, tables, runlist */
    uint64_t va_base;           /* the VRAM window: VA ... */
    uint64_t vram_base;         /* ... maps VRAM from here ... */
    uint64_t vram_len;          /* ... this long (64 KiB multiple) */
    uint64_t gart_va;           /* guest RAM window (0 len: none) */
    uint64_t gart_gpa;
    uint32_t gart_len;          /* 4 KiB multiple, at most 32 MiB */
    NV50HostChanAccess *access; /* NULL: straight to the card */
    void *opaque;               /* ... access's */
    bool vram_zero;             /* the instance block is zero already */
} NV50HostChanConfig;

typedef struct NV50HostChan {
    NV50State *s;
    NV50HostChanConfig cfg;
    uint64_t pd, ramfc, ramht;
    uint32_t obj_next;          /* next object offset in the instance */
    uint32_t push_put;          /* bytes written to the pushbuffer */
    uint32_t push_sent;         /* bytes submitted as IB entries */
    uint32_t ib_put;
} NV50HostChan;

/* Build the channel and enable it; false with *err if it does not fit. */
bool nv50_hostchan_init(NV50HostChan *c, NV50State *s,
                        const NV50HostChanConfig *cfg, char **err);

static inline uint64_t nv50_hostchan_va_to_vram(const NV50HostChan *c,
                                                uint64_t va)
{
    return c->cfg.vram_base + (va - c->cfg.va_base);
}

/* RAMHT: @handle -> @context (nvkm's hash, FIFO channels hash chid 0). */
bool nv50_hostchan_ramht_insert(NV50HostChan *c, uint32_t handle,
                                uint32_t context);
/* A DMA object at instance offset @ofs16 << 4. */
void nv50_hostchan_ctxdma(NV50HostChan *c, uint32_t ofs16,
                          NV50DmaTarget target, uint64_t start,
                          uint64_t limit);
/* A PGRAPH object of @class_id with @handle; returns its offset >> 4. */
uint32_t nv50_hostchan_object(NV50HostChan *c, uint16_t class_id,
                              uint32_t handle);

/* --- the pushbuffer --- */

/* Room for @words more words before the pushbuffer is full? */
bool nv50_hostchan_room(NV50HostChan *c, uint32_t words);
void nv50_hostchan_push(NV50HostChan *c, uint32_t w);
/* An incrementing method header and its @n data words. */
void nv50_hostchan_mthd(NV50HostChan *c, unsigned subc, uint32_t mthd,
                        const uint32_t *data, unsigned n);
/* A non-incrementing method header and its @n data words. */
void nv50_hostchan_mthd_ni(NV50HostChan *c, unsigned subc, uint32_t mthd,
                           const uint32_t *data, unsigned n);
/* The words since the last one as an IB entry (no kick). */
void nv50_hostchan_ib(NV50HostChan *c);
/* An IB entry for @words words at @va, anywhere in the VA (no kick). */
void nv50_hostchan_ib_at(NV50HostChan *c, uint64_t va, uint32_t words);
/*
 * Kick (USER+0x8c) and wait until the engine is idle; the pushbuffer
 * starts over once everything sent was consumed.
 */
void nv50_hostchan_kick(NV50HostChan *c);
/* nv50_hostchan_ib() then nv50_hostchan_kick(). */
void nv50_hostchan_submit(NV50HostChan *c);

#endif
