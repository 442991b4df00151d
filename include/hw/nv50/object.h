/*
 * Objects, context DMAs and RAMHT: the one decoder of what nvkm puts in
 * instance memory for the units that look objects up (EVO, PFIFO,
 * PGRAPH).
 *
 * RAMHT (nvkm core/ramht.c, envytools fifo/puller.rst): 8-byte entries
 * {handle, context}; the hash XORs @bits-wide chunks of the handle and
 * chid << (bits - 4); collisions probe the next slot, wrapping.  The
 * context word's meaning is the user's: PFIFO keeps the engine in bits
 * 22:20 and the object's offset in the channel >> 4 in bits 19:0; the
 * display keeps the channel in bits 31:28 and the offset << 10.
 *
 * DMA objects (nv4-dmaobj.rst, nvkm engine/dma/usernv50.c), 24 bytes:
 * word 0 class 15:0, target 17:16 (0 VM, 1 VRAM, 2 PCI, 3 PCI
 * non-snooped), access 19:18 (0 VM, 1 RO, 2 RW); word 1 limit 31:0;
 * word 2 start 31:0; word 3 limit 39:32 << 24 | start 39:32.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_OBJECT_H
#define HW_NV50_OBJECT_H

#include "hw/nv50/nv50.h"

/* object classes PFIFO itself knows (puller.rst) */
#define NV_CLASS_DMA_FROM_MEMORY    0x0002
#define NV_CLASS_DMA_TO_MEMORY      0x0003
#define NV_CLASS_NULL               0x0030
#define NV_CLASS_DMA_IN_MEMORY      0x003d

/*
 * PFIFO's RAMHT context word: the engine in bits 22:20, the object's
 * offset in the channel's instance block >> 4 in bits 19:0.
 */
#define NV50_ENGINE_SW          0
#define NV50_ENGINE_GR          1
#define NV50_ENGINE_GR_CONTEXT  (NV50_ENGINE_GR << 20)
#define NV50_RAMHT_ENGINE(ctx)  (((ctx) >> 20) & 7)
#define NV50_RAMHT_OFS16(ctx)   ((ctx) & 0xfffff)

typedef struct NV50Ramht {
    uint64_t addr;              /* VRAM address of entry 0 */
    unsigned bits;              /* log2 of the entry count, 9..16 */
} NV50Ramht;

uint32_t nv50_ramht_hash(unsigned bits, int chid, uint32_t handle);
/*
 * The context word of @handle, hashed with @chid, from the first entry
 * whose context satisfies (context & @mask) == @match; false if none.
 */
bool nv50_ramht_lookup(NV50State *s, const NV50Ramht *ht, int chid,
                       uint32_t handle, uint32_t mask, uint32_t match,
                       uint32_t *context);

/* DMA object targets (word 0 bits 17:16) */
typedef enum {
    NV50_DMA_VM = 0,
    NV50_DMA_VRAM = 1,
    NV50_DMA_PCI = 2,
    NV50_DMA_PCI_NOSNOOP = 3,
} NV50DmaTarget;

typedef struct NV50CtxDma {
    uint64_t addr;              /* where the object is (VRAM) */
    uint16_t class_id;
    NV50DmaTarget target;
    bool read_only;             /* access 1 */
    uint64_t start, limit;      /* limit inclusive */
} NV50CtxDma;

/* The class in word 0 of the object at VRAM @addr. */
uint16_t nv50_object_class(NV50State *s, uint64_t addr);
/*
 * Decode the DMA object at VRAM @addr; false (and *why set to a static
 * reason) if its class is not a DMA class.
 */
bool nv50_ctxdma_read(NV50State *s, uint64_t addr, NV50CtxDma *d,
                      const char **why);


/*
 * Read or write @len bytes at offset @off of DMA object @d; a VM target
 * translates through the page directory at VRAM @pd.  False at the
 * first failing byte, with *f saying why (bytes before it were done).
 */
bool nv50_ctxdma_rw(NV50State *s, const NV50CtxDma *d, uint64_t pd,
                    uint64_t off, void *buf, size_t len, bool is_write,
                    NV50Fault *f);

#endif
