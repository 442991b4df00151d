/*
 * VM: NV50 page tables, the BAR VMs (BAR1 = VRAM aperture, BAR3 = instance
 * aperture) and their control registers in PBUS.HOST_MEM, and the BAR
 * flush (PFLUSH).
 *
 * Page directory: 2048 8-byte PDEs, one per 512 MiB of the 40-bit VA.
 *   PDE bit 0 present, bit 1 small (4 KiB) pages (else 64 KiB), bits 3:2
 *   page-table target (0 VRAM, 2/3 system memory), bits 6:5 small-page
 *   table size (1 MiB, 256, 128, 64 KiB), bits 39:12 table address.
 * PTE: bit 0 valid, bit 3 read-only, bits 5:4 target (0 VRAM, 2 snooped,
 *   3 non-snooped system memory), bits 9:7 log2 of a block of PTEs that
 *   all hold the block's first address, bits 39:12 address, 46:40 kind.
 * (nvkm mmu/vmmnv50.c; envytools docs/hw/memory/g80-vm.rst.)
 *
 * The BAR VM's instance block is PBUS_HOST_MEM_CHAN << 12, its page
 * directory at +0x200 (G84).  BAR1/BAR3 bit 31 selects a DMA object at
 * instance + (bits 15:0 << 4) whose start/limit map BAR offsets to VAs;
 * with bit 31 clear the BAR shows VRAM directly.
 *
 * gemu keeps no TLB: every access walks the tables, so TLB and BAR
 * flushes complete at once and only count.  The BARs and the engines
 * share one access path, nv50_vm_rw(), and one fault report, PFB's VM
 * trap (nv50_vm_report_fault()).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define G84_PD_OFFSET       0x200
#define NV50_VA_BITS        40

const char *nv50_fault_name(NV50FaultReason r)
{
    switch (r) {
    case NV50_FAULT_PT_NOT_PRESENT:
        return "PT_NOT_PRESENT";
    case NV50_FAULT_PT_TOO_SHORT:
        return "PT_TOO_SHORT";
    case NV50_FAULT_PAGE_NOT_PRESENT:
        return "PAGE_NOT_PRESENT";
    case NV50_FAULT_PAGE_READ_ONLY:
        return "PAGE_READ_ONLY";
    case NV50_FAULT_NULL_DMAOBJ:
        return "NULL_DMAOBJ";
    case NV50_FAULT_VRAM_LIMIT:
        return "VRAM_LIMIT";
    case NV50_FAULT_DMAOBJ_LIMIT:
        return "DMAOBJ_LIMIT";
    }
    return "?";
}

bool nv50_phys_rw(NV50State *s, NV50Target target, uint64_t addr,
                  void *buf, size_t len, bool is_write)
{
    if (target == NV50_TARGET_VRAM) {
        return is_write ? nv50_vram_write(s, addr, buf, len)
                        : nv50_vram_read(s, addr, buf, len);
    }
    return is_write ? dma_write(&s->dma, addr, buf, len)
                    : dma_read(&s->dma, addr, buf, len);
}

static uint64_t rd64_target(NV50State *s, NV50Target target, uint64_t addr,
                            bool *ok)
{
    uint8_t b[8];

    *ok = nv50_phys_rw(s, target, addr, b, 8, false);
    return ldn_le_p(b, 8);
}

/* The walk; false with *why set on a fault. */
static bool vm_walk(NV50State *s, uint64_t pd, uint64_t va,
                    NV50Translation *t, NV50FaultReason *why)
{
    static const uint32_t small_entries[4] = {
        0x100000 / 8, 0x40000 / 8, 0x20000 / 8, 0x10000 / 8,
    };
    uint64_t pde, pte, pt, base;
    unsigned shift, log2blk, ptet;
    uint32_t entries, ptei;
    bool ok;

    *why = NV50_FAULT_PT_NOT_PRESENT;
    if (va >> NV50_VA_BITS) {
        return false;
    }
    pde = rd64_target(s, NV50_TARGET_VRAM, pd + (va >> 29) * 8, &ok);
    ptet = (pde >> 2) & 3;
    if (!ok || !(pde & 1) || ptet == 1) {
        return false;
    }
    if (pde & 2) {
        shift = 12;
        entries = small_entries[(pde >> 5) & 3];
    } else {
        shift = 16;
        entries = 0x20000000 >> 16;
    }
    ptei = (va & 0x1fffffff) >> shift;
    *why = NV50_FAULT_PT_TOO_SHORT;
    if (ptei >= entries) {
        return false;
    }
    pt = pde & 0xfffffff000ull;
    pte = rd64_target(s, ptet ? NV50_TARGET_HOST : NV50_TARGET_VRAM,
                      pt + (uint64_t)ptei * 8, &ok);
    *why = NV50_FAULT_PAGE_NOT_PRESENT;
    if (!ok || !(pte & 1) || ((pte >> 4) & 3) == 1) {
        return false;
    }
    log2blk = (pte >> 7) & 7;
    base = pte & 0xfffffff000ull;
    t->target = (pte >> 4) & 3;
    t->read_only = pte & 8;
    t->page_size = 1ull << shift;
    t->addr = base + ((uint64_t)(ptei & ((1u << log2blk) - 1)) << shift) +
              (va & (t->page_size - 1));
    return true;
}

bool nv50_vm_translate(NV50State *s, uint64_t pd, uint64_t va,
                       NV50Translation *t)
{
    NV50FaultReason why;

    return vm_walk(s, pd, va, t, &why);
}

bool nv50_vm_rw(NV50State *s, uint64_t pd, uint64_t va, void *buf,
                size_t len, bool is_write, NV50Fault *f)
{
    uint8_t *b = buf;

    while (len) {
        NV50Translation t;
        NV50FaultReason why;
        size_t n;

        if (!vm_walk(s, pd, va, &t, &why)) {
            goto fault;
        }
        if (is_write && t.read_only) {
            why = NV50_FAULT_PAGE_READ_ONLY;
            goto fault;
        }
        n = MIN(len, t.page_size - (va & (t.page_size - 1)));
        if (!nv50_phys_rw(s, t.target, t.addr, b, n, is_write)) {
            why = NV50_FAULT_VRAM_LIMIT;
            goto fault;
        }
        b += n;
        va += n;
        len -= n;
        continue;
fault:
        f->reason = why;
        f->va = va;
        f->write = is_write;
        return false;
    }
    return true;
}

void nv50_vm_report_fault(NV50State *s, unsigned engine, unsigned client,
                          unsigned subclient, uint64_t inst,
                          const NV50Fault *f)
{
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: VM fault: engine 0x%x client "
                  "0x%x/%u %s at VA 0x%010" PRIx64 " (%s), channel "
                  "instance 0x%" PRIx64 "\n", engine, client, subclient,
                  f->write ? "write" : "read", f->va,
                  nv50_fault_name(f->reason), inst);
    if (s->pfb.trap_pending) {
        return;                 /* the first trap stays until acked */
    }
    /* the six words of nvkm's nv50_fb_intr (G84: 4-bit fields) */
    s->pfb.trap[0] = (engine & 0xf) | (f->reason & 0xf) << 4 |
                     (client & 0xf) << 8 | (subclient & 0xf) << 12;
    s->pfb.trap[1] = (inst >> 12) & 0xffff;
    s->pfb.trap[2] = (inst >> 28) & 0xffff;
    s->pfb.trap[3] = f->va & 0xffff;
    s->pfb.trap[4] = (f->va >> 16) & 0xffff;
    s->pfb.trap[5] = ((f->va >> 32) & 0xff) | (f->write ? 0 : 0x100);
    s->pfb.trap_pending = true;
}

/* --- BAR apertures --- */

typedef struct BarMap {
    bool direct;                /* BAR shows VRAM at its offset */
    NV50Target target;          /* DMA object target, if not direct */
    uint64_t start, limit;      /* DMA object VA range (inclusive) */
    uint64_t pd;
} BarMap;

static bool bar_map(NV50State *s, uint32_t reg, BarMap *m)
{
    uint64_t inst = (uint64_t)(s->vm.bar_inst & 0x3fffffff) << 12;
    uint64_t obj = inst + ((uint64_t)(reg & 0xffff) << 4);
    uint32_t w0, w1, w2, w3;

    memset(m, 0, sizeof(*m));
    if (!(reg & 0x80000000)) {
        m->direct = true;
        return true;
    }
    w0 = nv50_vram_rd32(s, obj);
    w1 = nv50_vram_rd32(s, obj + 4);
    w2 = nv50_vram_rd32(s, obj + 8);
    w3 = nv50_vram_rd32(s, obj + 12);
    m->target = (w0 >> 16) & 3;         /* 0 VM, 1 VRAM, 2/3 system */
    m->start = ((uint64_t)(w3 & 0xff) << 32) | w2;
    m->limit = ((uint64_t)(w3 >> 24) << 32) | w1;
    m->pd = inst + G84_PD_OFFSET;
    return true;
}

static void bar_access(NV50State *s, int bar, uint32_t reg, hwaddr off,
                       uint8_t *b, unsigned size, bool is_write)
{
    NV50Fault f;
    BarMap m;
    uint64_t va;

    /*
     * A read that fails reads 0, but for system memory the card may not
     * reach (bus mastering off): the master abort's all-ones, as for the
     * card's own DMA (UNVERIFIED: what the G84 returns to the CPU then).
     */
    if (!is_write) {
        memset(b, 0, size);
    }
    bar_map(s, reg, &m);
    va = m.start + off;
    if (m.direct) {
        nv50_phys_rw(s, NV50_TARGET_VRAM, off, b, size, is_write);
    } else if (va + size - 1 > m.limit) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: BAR%d offset 0x%" PRIx64
                      " beyond its DMA object limit 0x%" PRIx64 "\n",
                      bar, off, m.limit);
    } else if (m.target != 0) {
        /* VRAM (1) or system memory (2, 3), linear */
        nv50_phys_rw(s, m.target == 1 ? NV50_TARGET_VRAM : m.target,
                     va, b, size, is_write);
    } else if (!nv50_vm_rw(s, m.pd, va, b, size, is_write, &f)) {
        g_mutex_lock(&s->eng_lock);
        nv50_vm_report_fault(s, NV50_VM_ENGINE_BAR, 0, bar == 3,
                             m.pd - G84_PD_OFFSET, &f);
        g_mutex_unlock(&s->eng_lock);
    }
}

/* The BAR's DMA object register (0x1708 for BAR1, 0x170c for BAR3). */
static uint32_t bar_reg(NV50BarAperture *ap)
{
    return ap->bar == 1 ? ap->s->vm.bar1_ctxdma : ap->s->vm.bar3_ctxdma;
}

static uint64_t bar_read(void *opaque, hwaddr off, unsigned size)
{
    NV50BarAperture *ap = opaque;
    uint8_t b[8];

    bar_access(ap->s, ap->bar, bar_reg(ap), off, b, size, false);
    return ldn_le_p(b, size);
}

static void bar_write(void *opaque, hwaddr off, uint64_t val, unsigned size)
{
    NV50BarAperture *ap = opaque;
    uint8_t b[8];

    stn_le_p(b, size, val);
    bar_access(ap->s, ap->bar, bar_reg(ap), off, b, size, true);
}

static const MemoryRegionOps bar_ops = {
    .read = bar_read,
    .write = bar_write,
    .impl_min = 1,
    .impl_max = 8,
};

void nv50_vm_init_bars(NV50State *s)
{
    s->bar1_ap = (NV50BarAperture){ .s = s, .bar = 1 };
    s->bar3_ap = (NV50BarAperture){ .s = s, .bar = 3 };
    memory_region_init_io(&s->bar1, "nv50-bar1", s->vram_size, &bar_ops,
                          &s->bar1_ap);
    memory_region_init_io(&s->bar3, "nv50-bar3", NV50_BAR3_SIZE, &bar_ops,
                          &s->bar3_ap);
}

void nv50_vm_reset(NV50State *s)
{
    memset(&s->vm, 0, sizeof(s->vm));
}

/* --- PBUS.HOST_MEM (0x001700-0x001fff) --- */

uint64_t nv50_vm_read(NV50State *s, hwaddr addr, unsigned size)
{
    switch (addr) {
    case NV_PBUS_HOST_MEM_PMEM:
        return s->vm.pmem_base;
    case NV_PBUS_HOST_MEM_CHAN:
        return s->vm.bar_inst;
    case NV_PBUS_HOST_MEM_BAR1:
        return s->vm.bar1_ctxdma;
    case NV_PBUS_HOST_MEM_BAR3:
        return s->vm.bar3_ctxdma;
    default:
        if (addr >= NV_PBUS_BAR_UNK1900 && addr < NV_PBUS_BAR_UNK1900 + 32) {
            return s->vm.bar_unk[(addr - NV_PBUS_BAR_UNK1900) / 4];
        }
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
}

void nv50_vm_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    switch (addr) {
    case NV_PBUS_HOST_MEM_PMEM:
        s->vm.pmem_base = val & 0x03ffffff;
        break;
    case NV_PBUS_HOST_MEM_CHAN:
        s->vm.bar_inst = val & 0x7fffffff;
        break;
    case NV_PBUS_HOST_MEM_BAR1:
        s->vm.bar1_ctxdma = val & 0x8000ffff;
        break;
    case NV_PBUS_HOST_MEM_BAR3:
        s->vm.bar3_ctxdma = val & 0x8000ffff;
        break;
    default:
        if (addr >= NV_PBUS_BAR_UNK1900 && addr < NV_PBUS_BAR_UNK1900 + 32) {
            /* UNVERIFIED: nvkm clears these at BAR init; meaning unknown */
            s->vm.bar_unk[(addr - NV_PBUS_BAR_UNK1900) / 4] = val;
            break;
        }
        nv50_unimp(s, addr, true, val);
        break;
    }
}

/* --- PFLUSH (0x070000): BAR write flush, bit 1 = busy --- */

uint64_t nv50_pflush_read(NV50State *s, hwaddr addr, unsigned size)
{
    if (addr == NV_PFLUSH_BAR) {
        return s->vm.flush & ~3u;       /* never busy */
    }
    nv50_unimp(s, addr, false, 0);
    return 0;
}

void nv50_pflush_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size)
{
    if (addr == NV_PFLUSH_BAR) {
        /* BAR writes reach VRAM synchronously; nothing is buffered */
        s->vm.flush = val;
        s->vm.flushes++;
        return;
    }
    nv50_unimp(s, addr, true, val);
}
