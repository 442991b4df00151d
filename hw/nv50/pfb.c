/*
 * PFB: the memory controller as nvkm's nv50 RAM code reads it (size, type,
 * row layout), the MMU TLB flush, the VM fault registers; and PSTRAPS.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define PFB_MEM_TYPE_GDDR3      2
#define PFB_COLBITS             9       /* 512 columns */

/*
 * nvkm (fb/ramnv50.c) predicts the VRAM size as
 *   parts * banks * 2^colbits * 8 << rowbits
 * with parts from PBUS_HWUNITS_0 (2 on G84), banks = 4 << CFG1[25:24],
 * rowbits = CFG1[19:16] + 8, and warns when that differs from MEM_AMOUNT.
 * The row size (32 KiB here) also becomes its allocator's block size,
 * which must not be below 4 KiB.
 */
uint32_t nv50_pfb_cfg1_for_size(uint64_t vram_size)
{
    int rowsize_log2 = 1 + 2 + PFB_COLBITS + 3;     /* 2 parts, 4 banks */
    int rowbits = g_bit_nth_msf(vram_size, -1) - rowsize_log2;

    g_assert(rowbits >= 8 && rowbits <= 23);
    return ((uint32_t)(rowbits - 8) << 16) | (PFB_COLBITS << 12);
}

void nv50_pfb_reset(NV50State *s)
{
    memset(&s->pfb, 0, sizeof(s->pfb));
    s->pfb.cfg0 = 0;                            /* one rank */
    s->pfb.cfg1 = nv50_pfb_cfg1_for_size(s->vram_size);
    s->pfb.mem_type = PFB_MEM_TYPE_GDDR3;
}

uint64_t nv50_pfb_read(NV50State *s, hwaddr addr, unsigned size)
{
    switch (addr) {
    case NV_PFB_CFG0:
        return s->pfb.cfg0;
    case NV_PFB_CFG1:
        return s->pfb.cfg1;
    case NV_PFB_MEM_AMOUNT:
        /* bits 31:8 = size[31:8], bits 7:0 = size[39:32] */
        return (uint32_t)(s->vram_size & 0xffffff00) |
               ((s->vram_size >> 32) & 0xff);
    case NV_PFB_BANKCFG:
        return 0;                               /* no 3x row blocks */
    case NV_PFB_COMP_MAX_TAG:
        return 0;                               /* no compression tags */
    case NV_PFB_MEM_TYPE:
        return s->pfb.mem_type;
    case NV_PFB_NISO_BASE:
        return s->pfb.nisobuf;
    case NV_PFB_MMU_TLB_FLUSH:
        return s->pfb.vm_flush & ~1u;           /* flush done at once */
    case NV_PFB_MMU_VM_FAULT:
    case NV_PFB_MMU_VM_FAULT_DATA: {
        uint32_t v;

        /* the engine thread reports faults too: eng_lock guards the trap */
        g_mutex_lock(&s->eng_lock);
        /* DATA: word (0x100c90 bits 26:24) of the trap reported */
        v = addr == NV_PFB_MMU_VM_FAULT
            ? (s->pfb.trap_pending ? 0x80000000u : 0) | s->pfb.trap_sel
            : s->pfb.trap[(s->pfb.trap_sel >> 24) % 6];
        g_mutex_unlock(&s->eng_lock);
        return v;
    }
    default:
        nv50_unimp(s, addr, false, 0);
        return s->pfb.regs[(addr & 0xfff) / 4];
    }
}

void nv50_pfb_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    switch (addr) {
    case NV_PFB_CFG0:
    case NV_PFB_CFG1:
    case NV_PFB_MEM_AMOUNT:
    case NV_PFB_BANKCFG:
    case NV_PFB_MEM_TYPE:
        gemu_log_once(LOG_UNIMP, "nv50-pfb", addr,
                      "nv50: PFB memory configuration 0x%06" PRIx64
                      " is fixed; write 0x%" PRIx64 " ignored\n",
                      addr, val);
        break;
    case NV_PFB_COMP_MAX_TAG:
        break;
    case NV_PFB_NISO_BASE:
        s->pfb.nisobuf = val;
        break;
    case NV_PFB_MMU_TLB_FLUSH:
        /*
         * gemu walks the page tables on every access and keeps no TLB,
         * so a flush (ENGINE in bits 19:16, trigger bit 0) has nothing
         * to drop and completes at once.
         */
        s->pfb.vm_flush = val & ~1u;
        s->vm.flushes++;
        break;
    case NV_PFB_MMU_VM_FAULT:
        /* bits 26:24 select a word; writing bit 31 acknowledges */
        g_mutex_lock(&s->eng_lock);
        s->pfb.trap_sel = val & 0x7fffffff;
        if (val & 0x80000000u) {
            s->pfb.trap_pending = false;
        }
        g_mutex_unlock(&s->eng_lock);
        break;
    case NV_PFB_MMU_VM_FAULT_DATA:
        break;
    default:
        nv50_unimp(s, addr, true, val);
        s->pfb.regs[(addr & 0xfff) / 4] = val;
        break;
    }
}

/* PSTRAPS: board straps; bit 22 set, bit 6 clear = 27 MHz crystal. */
#define G84_STRAPS0     0x00400000u

uint64_t nv50_pstraps_read(NV50State *s, hwaddr addr, unsigned size)
{
    if (addr == NV_PSTRAPS_STRAPS0) {
        return G84_STRAPS0;
    }
    nv50_unimp(s, addr, false, 0);
    return 0;
}

void nv50_pstraps_write(NV50State *s, hwaddr addr, uint64_t val,
                        unsigned size)
{
    nv50_unimp(s, addr, true, val);
}
