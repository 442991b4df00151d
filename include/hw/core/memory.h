/*
 * Memory regions and MMIO dispatch.
 *
 * A region is either I/O (read/write callbacks), RAM (a host buffer), or a
 * container of subregions at offsets.  An access to a container lands in the
 * subregion that owns the address; an address nobody owns is logged under
 * LOG_GUEST_ERROR, reads 0 and ignores writes.  Accesses are 1, 2, 4 or 8
 * bytes, little endian.  An I/O region whose handlers only take some sizes
 * (impl_min..impl_max) gets wider accesses split and narrower ones widened
 * (reads extract, writes read-modify-write), so that a 32-bit register file
 * need not care about byte accesses.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_MEMORY_H
#define HW_CORE_MEMORY_H

#include "gemu/osdep.h"

typedef uint64_t hwaddr;

typedef struct MemoryRegion MemoryRegion;

typedef struct MemoryRegionOps {
    uint64_t (*read)(void *opaque, hwaddr addr, unsigned size);
    void (*write)(void *opaque, hwaddr addr, uint64_t val, unsigned size);
    /* Sizes the handlers take; 0 means 1 (min) or 8 (max). */
    unsigned impl_min;
    unsigned impl_max;
} MemoryRegionOps;

typedef enum {
    MR_IO,
    MR_RAM,
    MR_CONTAINER,
} MemoryRegionKind;

struct MemoryRegion {
    MemoryRegionKind kind;
    char *name;
    hwaddr size;
    const MemoryRegionOps *ops;
    void *opaque;
    uint8_t *ram;               /* MR_RAM: host buffer of size bytes */
    bool readonly;              /* MR_RAM: writes are guest errors */
    /* MR_CONTAINER: subregions sorted by base, non-overlapping */
    GPtrArray *subs;
    /* where this region sits in its container */
    MemoryRegion *container;
    hwaddr base;
};

void memory_region_init_io(MemoryRegion *mr, const char *name, hwaddr size,
                           const MemoryRegionOps *ops, void *opaque);
/* A RAM region over a caller-owned buffer (not freed by gemu). */
void memory_region_init_ram_ptr(MemoryRegion *mr, const char *name,
                                hwaddr size, void *ptr);
void memory_region_init_container(MemoryRegion *mr, const char *name,
                                  hwaddr size);
/* Free what init allocated; subregions are detached, not destroyed. */
void memory_region_destroy(MemoryRegion *mr);

/*
 * Place sub at base inside a container.  Overlaps are a gemu bug and
 * abort, since the MMIO map is fixed at build time.
 */
void memory_region_add_subregion(MemoryRegion *container, hwaddr base,
                                 MemoryRegion *sub);

/* Find the leaf region owning addr; *offset is addr relative to it. */
MemoryRegion *memory_region_find(MemoryRegion *mr, hwaddr addr,
                                 hwaddr *offset);

/* One access of 1, 2, 4 or 8 bytes at addr (relative to mr). */
uint64_t memory_region_read(MemoryRegion *mr, hwaddr addr, unsigned size);
void memory_region_write(MemoryRegion *mr, hwaddr addr, uint64_t val,
                         unsigned size);

/* Byte-buffer helpers on top of the above (split into aligned pieces). */
void memory_region_read_buf(MemoryRegion *mr, hwaddr addr, void *buf,
                            size_t len);
void memory_region_write_buf(MemoryRegion *mr, hwaddr addr, const void *buf,
                             size_t len);

/* @size bytes at @p, little-endian (1, 2, 4 and 8 as one access) */
static inline uint64_t ldn_le_p(const void *p, unsigned size)
{
    const uint8_t *b = p;
    uint64_t v = 0;
    uint32_t w;
    uint16_t h;

    switch (size) {
    case 2:
        memcpy(&h, p, 2);
        return GUINT16_FROM_LE(h);
    case 4:
        memcpy(&w, p, 4);
        return GUINT32_FROM_LE(w);
    case 8:
        memcpy(&v, p, 8);
        return GUINT64_FROM_LE(v);
    }
    for (unsigned i = 0; i < size; i++) {
        v |= (uint64_t)b[i] << (8 * i);
    }
    return v;
}

static inline void stn_le_p(void *p, unsigned size, uint64_t v)
{
    uint8_t *b = p;
    uint32_t w;
    uint16_t h;

    switch (size) {
    case 2:
        h = GUINT16_TO_LE((uint16_t)v);
        memcpy(p, &h, 2);
        return;
    case 4:
        w = GUINT32_TO_LE((uint32_t)v);
        memcpy(p, &w, 4);
        return;
    case 8:
        v = GUINT64_TO_LE(v);
        memcpy(p, &v, 8);
        return;
    }
    for (unsigned i = 0; i < size; i++) {
        b[i] = v >> (8 * i);
    }
}

#endif
