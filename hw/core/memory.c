/*
 * Memory regions: MMIO dispatch through containers, RAM regions, access
 * size adaptation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/core/memory.h"

static void mr_init_common(MemoryRegion *mr, MemoryRegionKind kind,
                           const char *name, hwaddr size)
{
    memset(mr, 0, sizeof(*mr));
    mr->kind = kind;
    mr->name = g_strdup(name);
    mr->size = size;
}

void memory_region_init_io(MemoryRegion *mr, const char *name, hwaddr size,
                           const MemoryRegionOps *ops, void *opaque)
{
    mr_init_common(mr, MR_IO, name, size);
    mr->ops = ops;
    mr->opaque = opaque;
}

void memory_region_init_ram_ptr(MemoryRegion *mr, const char *name,
                                hwaddr size, void *ptr)
{
    mr_init_common(mr, MR_RAM, name, size);
    mr->ram = ptr;
}

void memory_region_init_container(MemoryRegion *mr, const char *name,
                                  hwaddr size)
{
    mr_init_common(mr, MR_CONTAINER, name, size);
    mr->subs = g_ptr_array_new();
}

void memory_region_destroy(MemoryRegion *mr)
{
    if (mr->subs) {
        for (guint i = 0; i < mr->subs->len; i++) {
            MemoryRegion *sub = g_ptr_array_index(mr->subs, i);
            sub->container = NULL;
        }
        g_ptr_array_free(mr->subs, TRUE);
        mr->subs = NULL;
    }
    g_clear_pointer(&mr->name, g_free);
}

void memory_region_add_subregion(MemoryRegion *container, hwaddr base,
                                 MemoryRegion *sub)
{
    guint i;

    g_assert(container->kind == MR_CONTAINER);
    g_assert(sub->size && base + sub->size <= container->size);
    g_assert(!sub->container);
    for (i = 0; i < container->subs->len; i++) {
        MemoryRegion *o = g_ptr_array_index(container->subs, i);

        if (base < o->base + o->size && o->base < base + sub->size) {
            g_error("memory: %s at 0x%" PRIx64 " overlaps %s at 0x%" PRIx64,
                    sub->name, base, o->name, o->base);
        }
        if (o->base > base) {
            break;
        }
    }
    sub->container = container;
    sub->base = base;
    g_ptr_array_insert(container->subs, i, sub);
}

static MemoryRegion *container_lookup(MemoryRegion *c, hwaddr addr)
{
    guint lo = 0, hi = c->subs->len;

    /* binary search over the sorted subregions */
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        MemoryRegion *s = g_ptr_array_index(c->subs, mid);

        if (addr < s->base) {
            hi = mid;
        } else if (addr >= s->base + s->size) {
            lo = mid + 1;
        } else {
            return s;
        }
    }
    return NULL;
}

MemoryRegion *memory_region_find(MemoryRegion *mr, hwaddr addr,
                                 hwaddr *offset)
{
    while (mr && mr->kind == MR_CONTAINER) {
        MemoryRegion *sub = container_lookup(mr, addr);

        if (!sub) {
            return NULL;
        }
        addr -= sub->base;
        mr = sub;
    }
    if (mr && addr >= mr->size) {
        return NULL;
    }
    *offset = addr;
    return mr;
}

static void unassigned(MemoryRegion *top, hwaddr addr, unsigned size,
                       bool is_write, uint64_t val)
{
    if (is_write) {
        gemu_log_mask(LOG_GUEST_ERROR,
                      "%s: write of %u bytes to unassigned address 0x%"
                      PRIx64 " (value 0x%" PRIx64 ")\n",
                      top->name, size, addr, val);
    } else {
        gemu_log_mask(LOG_GUEST_ERROR,
                      "%s: read of %u bytes from unassigned address 0x%"
                      PRIx64 "\n", top->name, size, addr);
    }
}

static unsigned impl_min(const MemoryRegion *mr)
{
    return mr->ops->impl_min ? mr->ops->impl_min : 1;
}

static unsigned impl_max(const MemoryRegion *mr)
{
    return mr->ops->impl_max ? mr->ops->impl_max : 8;
}

static uint64_t size_mask(unsigned size)
{
    return size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
}

static uint64_t io_read(MemoryRegion *mr, hwaddr addr, unsigned size)
{
    unsigned lo = impl_min(mr), hi = impl_max(mr);

    if (size > hi) {
        uint64_t v = 0;

        for (unsigned i = 0; i < size; i += hi) {
            v |= io_read(mr, addr + i, hi) << (8 * i);
        }
        return v;
    }
    if (size < lo) {
        hwaddr base = addr & ~(hwaddr)(lo - 1);
        uint64_t v = mr->ops->read(mr->opaque, base, lo);

        return (v >> (8 * (addr - base))) & size_mask(size);
    }
    return mr->ops->read(mr->opaque, addr, size) & size_mask(size);
}

static void io_write(MemoryRegion *mr, hwaddr addr, uint64_t val,
                     unsigned size)
{
    unsigned lo = impl_min(mr), hi = impl_max(mr);

    if (size > hi) {
        for (unsigned i = 0; i < size; i += hi) {
            io_write(mr, addr + i, val >> (8 * i), hi);
        }
        return;
    }
    if (size < lo) {
        /*
         * UNVERIFIED: narrow writes to a wide register merge with the
         * current value; the card's own byte-enable behaviour is unknown.
         */
        hwaddr base = addr & ~(hwaddr)(lo - 1);
        unsigned sh = 8 * (addr - base);
        uint64_t old = mr->ops->read(mr->opaque, base, lo);
        uint64_t m = size_mask(size) << sh;

        mr->ops->write(mr->opaque, base, (old & ~m) | ((val << sh) & m), lo);
        return;
    }
    mr->ops->write(mr->opaque, addr, val & size_mask(size), size);
}

static bool size_ok(MemoryRegion *mr, hwaddr addr, unsigned size)
{
    if (size != 1 && size != 2 && size != 4 && size != 8) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: bad access size %u at 0x%"
                      PRIx64 "\n", mr->name, size, addr);
        return false;
    }
    return true;
}

uint64_t memory_region_read(MemoryRegion *mr, hwaddr addr, unsigned size)
{
    hwaddr off;
    MemoryRegion *leaf;

    if (!size_ok(mr, addr, size)) {
        return 0;
    }
    leaf = memory_region_find(mr, addr, &off);
    if (!leaf || off + size > leaf->size) {
        unassigned(mr, addr, size, false, 0);
        return 0;
    }
    if (leaf->kind == MR_RAM) {
        return ldn_le_p(leaf->ram + off, size);
    }
    return io_read(leaf, off, size);
}

void memory_region_write(MemoryRegion *mr, hwaddr addr, uint64_t val,
                         unsigned size)
{
    hwaddr off;
    MemoryRegion *leaf;

    if (!size_ok(mr, addr, size)) {
        return;
    }
    leaf = memory_region_find(mr, addr, &off);
    if (!leaf || off + size > leaf->size) {
        unassigned(mr, addr, size, true, val);
        return;
    }
    if (leaf->kind == MR_RAM) {
        if (leaf->readonly) {
            gemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only 0x%"
                          PRIx64 "\n", leaf->name, off);
            return;
        }
        stn_le_p(leaf->ram + off, size, val);
        return;
    }
    io_write(leaf, off, val, size);
}

static unsigned piece(hwaddr addr, size_t len)
{
    unsigned s = 8;

    while (s > 1 && ((addr & (s - 1)) || len < s)) {
        s /= 2;
    }
    return s;
}

void memory_region_read_buf(MemoryRegion *mr, hwaddr addr, void *buf,
                            size_t len)
{
    uint8_t *b = buf;

    while (len) {
        unsigned s = piece(addr, len);

        stn_le_p(b, s, memory_region_read(mr, addr, s));
        b += s;
        addr += s;
        len -= s;
    }
}

void memory_region_write_buf(MemoryRegion *mr, hwaddr addr, const void *buf,
                             size_t len)
{
    const uint8_t *b = buf;

    while (len) {
        unsigned s = piece(addr, len);

        memory_region_write(mr, addr, ldn_le_p(b, s), s);
        b += s;
        addr += s;
        len -= s;
    }
}
