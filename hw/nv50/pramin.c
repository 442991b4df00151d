/*
 * VRAM and the PMEM window ("PRAMIN" in nouveau): BAR0 0x700000-0x7fffff
 * shows 1 MiB of VRAM starting at PBUS_HOST_MEM_PMEM << 16.  nvkm uses it
 * for instance memory until the BAR3 VM exists, and to shadow the VBIOS.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

static bool vram_range_ok(NV50State *s, uint64_t addr, size_t len)
{
    if (addr >= s->vram_size || len > s->vram_size - addr) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: VRAM access 0x%" PRIx64
                      "+%zu beyond %" PRIu64 " MiB\n", addr, len,
                      s->vram_size >> 20);
        return false;
    }
    return true;
}

bool nv50_vram_read(NV50State *s, uint64_t addr, void *buf, size_t len)
{
    if (!vram_range_ok(s, addr, len)) {
        memset(buf, 0, len);
        return false;
    }
    memcpy(buf, s->vram + addr, len);
    return true;
}

bool nv50_vram_write(NV50State *s, uint64_t addr, const void *buf,
                     size_t len)
{
    if (!vram_range_ok(s, addr, len)) {
        return false;
    }
    memcpy(s->vram + addr, buf, len);
    return true;
}

uint32_t nv50_vram_rd32(NV50State *s, uint64_t addr)
{
    uint8_t b[4];

    nv50_vram_read(s, addr, b, 4);
    return ldn_le_p(b, 4);
}

void nv50_vram_wr32(NV50State *s, uint64_t addr, uint32_t val)
{
    uint8_t b[4];

    stn_le_p(b, 4, val);
    nv50_vram_write(s, addr, b, 4);
}

/* VRAM address behind a PMEM offset; false if the window is not VRAM. */
static bool pmem_addr(NV50State *s, hwaddr addr, uint64_t *vaddr)
{
    uint32_t reg = s->vm.pmem_base;

    if ((reg >> 24) & 3) {
        /* TARGET != VRAM: system memory through the window */
        gemu_log_once(LOG_UNIMP, "nv50-pmem", reg >> 24,
                      "nv50: PMEM window onto system memory (target %u) "
                      "not modelled\n", (reg >> 24) & 3);
        return false;
    }
    *vaddr = ((uint64_t)(reg & 0xffffff) << 16) + (addr - NV_PMEM_BASE);
    return true;
}

uint64_t nv50_pmem_read(NV50State *s, hwaddr addr, unsigned size)
{
    uint64_t va;
    uint8_t b[8];

    if (!pmem_addr(s, addr, &va)) {
        return 0;
    }
    nv50_vram_read(s, va, b, size);
    return ldn_le_p(b, size);
}

void nv50_pmem_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    uint64_t va;
    uint8_t b[8];

    if (!pmem_addr(s, addr, &va)) {
        return;
    }
    stn_le_p(b, size, val);
    nv50_vram_write(s, va, b, size);
}
