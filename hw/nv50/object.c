/*
 * Objects, context DMAs and RAMHT (include/hw/nv50/object.h): what EVO,
 * PFIFO and PGRAPH read from instance memory, decoded in one place.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/object.h"

uint32_t nv50_ramht_hash(unsigned bits, int chid, uint32_t handle)
{
    uint32_t mask = (1u << bits) - 1;
    uint32_t hash = 0;

    for (uint32_t h = handle; h; h >>= bits) {
        hash ^= h & mask;
    }
    return (hash ^ ((uint32_t)chid << (bits - 4))) & mask;
}

bool nv50_ramht_lookup(NV50State *s, const NV50Ramht *ht, int chid,
                       uint32_t handle, uint32_t mask, uint32_t match,
                       uint32_t *context)
{
    uint32_t entries, hash;

    if (ht->bits < 4 || ht->bits > 16) {
        return false;
    }
    entries = 1u << ht->bits;
    hash = nv50_ramht_hash(ht->bits, chid, handle);
    /* UNVERIFIED: every slot is probed (nvkm's search does the same) */
    for (uint32_t i = 0; i < entries; i++) {
        uint64_t slot = ht->addr + ((hash + i) & (entries - 1)) * 8;
        uint32_t ctx;

        if (nv50_vram_rd32(s, slot) != handle) {
            continue;
        }
        ctx = nv50_vram_rd32(s, slot + 4);
        if ((ctx & mask) == match) {
            *context = ctx;
            return true;
        }
    }
    return false;
}

uint16_t nv50_object_class(NV50State *s, uint64_t addr)
{
    return nv50_vram_rd32(s, addr) & 0xffff;
}

bool nv50_ctxdma_read(NV50State *s, uint64_t addr, NV50CtxDma *d,
                      const char **why)
{
    uint32_t w0 = nv50_vram_rd32(s, addr);
    uint32_t w3 = nv50_vram_rd32(s, addr + 12);

    memset(d, 0, sizeof(*d));
    d->addr = addr;
    d->class_id = w0 & 0xffff;
    switch (d->class_id) {
    case NV_CLASS_DMA_FROM_MEMORY:
    case NV_CLASS_DMA_TO_MEMORY:
    case NV_CLASS_DMA_IN_MEMORY:
        break;
    default:
        *why = "not a DMA object";
        return false;
    }
    d->target = (w0 >> 16) & 3;
    d->read_only = ((w0 >> 18) & 3) == 1;
    d->start = nv50_vram_rd32(s, addr + 8) | (uint64_t)(w3 & 0xff) << 32;
    d->limit = nv50_vram_rd32(s, addr + 4) | (uint64_t)(w3 >> 24) << 32;
    return true;
}

bool nv50_ctxdma_rw(NV50State *s, const NV50CtxDma *d, uint64_t pd,
                    uint64_t off, void *buf, size_t len, bool is_write,
                    NV50Fault *f)
{
    uint64_t addr = d->start + off;
    NV50Target t;

    f->va = off;
    f->write = is_write;
    if (!len) {
        return true;
    }
    if (off > d->limit || addr < d->start || addr + len - 1 > d->limit ||
        addr + len - 1 < addr) {
        f->reason = NV50_FAULT_DMAOBJ_LIMIT;
        return false;
    }
    if (is_write && d->read_only) {
        f->reason = NV50_FAULT_PAGE_READ_ONLY;
        return false;
    }
    switch (d->target) {
    case NV50_DMA_VM:
        return nv50_vm_rw(s, pd, addr, buf, len, is_write, f);
    case NV50_DMA_VRAM:
        t = NV50_TARGET_VRAM;
        break;
    case NV50_DMA_PCI:
        t = NV50_TARGET_HOST;
        break;
    default:
        t = NV50_TARGET_HOST_NC;
        break;
    }
    if (!nv50_phys_rw(s, t, addr, buf, len, is_write)) {
        f->reason = NV50_FAULT_VRAM_LIMIT;
        f->va = addr;
        return false;
    }
    return true;
}
