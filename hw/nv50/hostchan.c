/*
 * A channel driven from the host side (include/hw/nv50/hostchan.h): the
 * channel set-up nvkm does for a G84 GPFIFO channel (fifo/chang84.c,
 * gpfifog84.c, mmu/vmmnv50.c, core/ramht.c), done in process.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/hostchan.h"
#include "hw/nv50/engine.h"

#define INST_PD         0x200
#define INST_RAMFC      0x5400
#define INST_RAMHT      0x5500
#define INST_OBJECTS    0x1100          /* after the two context DMAs */
#define INST_SIZE       0x10000
#define PT_OFFSET       0x10000         /* page tables, after the block */
#define RUNLIST_OFFSET  0x30000
#define BIG_PAGE        0x10000u
#define SMALL_PAGE      0x1000u
#define PDE_SPAN        0x20000000ull   /* 512 MiB a PDE */

/* One access of the set-up: the driver's own, or straight in. */
static uint32_t io(NV50HostChan *c, NV50HostChanSpace space, bool write,
                   uint64_t addr, uint32_t v)
{
    if (c->cfg.access) {
        return c->cfg.access(c->cfg.opaque, space, write, addr, v);
    }
    switch (space) {
    case NV50_HOSTCHAN_REG:
        if (write) {
            nv50_wr32(c->s, addr, v);
            return v;
        }
        return nv50_rd32(c->s, addr);
    case NV50_HOSTCHAN_VRAM:
        if (write) {
            nv50_vram_wr32(c->s, addr, v);
            return v;
        }
        return nv50_vram_rd32(c->s, addr);
    default:
        if (write) {
            pci_config_write(PCI_DEVICE(c->s), addr, v, 2);
            return v;
        }
        return pci_config_read(PCI_DEVICE(c->s), addr, 2);
    }
}

static void wr32(NV50HostChan *c, uint64_t addr, uint32_t v)
{
    io(c, NV50_HOSTCHAN_VRAM, true, addr, v);
}

static uint32_t rd32(NV50HostChan *c, uint64_t addr)
{
    return io(c, NV50_HOSTCHAN_VRAM, false, addr, 0);
}

static void reg_wr32(NV50HostChan *c, uint32_t reg, uint32_t v)
{
    io(c, NV50_HOSTCHAN_REG, true, reg, v);
}

static uint32_t reg_rd32(NV50HostChan *c, uint32_t reg)
{
    return io(c, NV50_HOSTCHAN_REG, false, reg, 0);
}

static void wr64(NV50HostChan *c, uint64_t addr, uint64_t v)
{
    wr32(c, addr, (uint32_t)v);
    wr32(c, addr + 4, v >> 32);
}

/* PDEs and PTEs for @len bytes at @va; *pt: where the next table goes */
static void map_range(NV50HostChan *c, uint64_t va, uint64_t len,
                      uint64_t phys, bool host, uint64_t *pt)
{
    uint32_t page = host ? SMALL_PAGE : BIG_PAGE;

    for (uint64_t off = 0; off < len;) {
        uint64_t pde_va = (va + off) & ~(PDE_SPAN - 1);
        uint64_t span = MIN(len - off, pde_va + PDE_SPAN - (va + off));
        uint64_t pde = *pt | 1 | (host ? 2 | 0x60 : 0);

        /* a 64 KiB table: 8192 big pages (512 MiB) or small ones (32 MiB) */
        wr64(c, c->pd + (pde_va >> 29) * 8, pde);
        for (uint64_t o = 0; o < span; o += page) {
            uint64_t pva = va + off + o;
            uint64_t pte = (phys + off + o) | 1 | (host ? 0x20 : 0);

            wr64(c, *pt + ((pva & (PDE_SPAN - 1)) / page) * 8, pte);
        }
        *pt += 0x10000;
        off += span;
    }
}

bool nv50_hostchan_ramht_insert(NV50HostChan *c, uint32_t handle,
                                uint32_t context)
{
    uint32_t n = 1u << NV50_HOSTCHAN_RAMHT_BITS;
    uint32_t h = nv50_ramht_hash(NV50_HOSTCHAN_RAMHT_BITS, 0, handle);

    for (uint32_t i = 0; i < n; i++) {
        uint64_t slot = c->ramht + ((h + i) & (n - 1)) * 8;

        if (!rd32(c, slot) && !rd32(c, slot + 4)) {
            wr32(c, slot, handle);
            wr32(c, slot + 4, context);
            return true;
        }
    }
    return false;
}

void nv50_hostchan_ctxdma(NV50HostChan *c, uint32_t ofs16,
                          NV50DmaTarget target, uint64_t start,
                          uint64_t limit)
{
    uint64_t a = c->cfg.inst + ((uint64_t)ofs16 << 4);

    /* usernv50.c: class, target, access RW; limit, start, high bits */
    wr32(c, a, NV_CLASS_DMA_IN_MEMORY | target << 16 | 2 << 18);
    wr32(c, a + 4, (uint32_t)limit);
    wr32(c, a + 8, (uint32_t)start);
    wr32(c, a + 12, (uint32_t)(limit >> 32) << 24 | (uint32_t)(start >> 32));
    wr32(c, a + 16, 0);
    wr32(c, a + 20, 0);
}

uint32_t nv50_hostchan_object(NV50HostChan *c, uint16_t class_id,
                              uint32_t handle)
{
    uint32_t ofs = c->obj_next;

    c->obj_next += 0x20;
    for (int i = 0; i < 8; i++) {
        wr32(c, c->cfg.inst + ofs + i * 4, i ? 0 : class_id);
    }
    nv50_hostchan_ramht_insert(c, handle, NV50_ENGINE_GR_CONTEXT |
                               ofs >> 4);
    return ofs >> 4;
}

bool nv50_hostchan_init(NV50HostChan *c, NV50State *s,
                        const NV50HostChanConfig *cfg, char **err)
{
    uint64_t pt, ib_va = cfg->va_base + NV50_HOSTCHAN_PUSH_SIZE;
    uint64_t runlist = cfg->inst + RUNLIST_OFFSET;

    memset(c, 0, sizeof(*c));
    c->s = s;
    c->cfg = *cfg;
    if (cfg->chid < 1 || cfg->chid >= NV50_FIFO_CHANNELS - 1 ||
        cfg->inst & 0xffff || cfg->vram_len % BIG_PAGE ||
        cfg->vram_len < 0x20000 || cfg->gart_len % SMALL_PAGE ||
        cfg->gart_len > 32u << 20 || cfg->va_base % PDE_SPAN ||
        (cfg->gart_len && cfg->gart_va % PDE_SPAN) ||
        cfg->vram_base + cfg->vram_len > s->vram_size ||
        runlist + 0x1000 > s->vram_size) {
        *err = g_strdup("host channel layout does not fit the card");
        return false;
    }
    /* the driver's pci_set_master(): the channel reads guest RAM */
    io(c, NV50_HOSTCHAN_CFG, true, PCI_COMMAND,
       io(c, NV50_HOSTCHAN_CFG, false, PCI_COMMAND, 0) | PCI_COMMAND_MASTER);
    c->pd = cfg->inst + INST_PD;
    c->ramfc = cfg->inst + INST_RAMFC;
    c->ramht = cfg->inst + INST_RAMHT;
    c->obj_next = INST_OBJECTS;
    for (uint64_t a = cfg->inst; !cfg->vram_zero &&
         a < cfg->inst + INST_SIZE; a += 4) {
        wr32(c, a, 0);
    }
    pt = cfg->inst + PT_OFFSET;
    map_range(c, cfg->va_base, cfg->vram_len, cfg->vram_base, false, &pt);
    if (cfg->gart_len) {
        map_range(c, cfg->gart_va, cfg->gart_len, cfg->gart_gpa, true, &pt);
    }
    if (pt > runlist) {
        *err = g_strdup("host channel page tables do not fit");
        return false;
    }
    nv50_hostchan_ctxdma(c, NV50_HOSTCHAN_DMA_VM, NV50_DMA_VM, 0,
                         0xffffffffffull);
    nv50_hostchan_ctxdma(c, NV50_HOSTCHAN_DMA_VRAM, NV50_DMA_VRAM, 0,
                         s->vram_size - 1);
    nv50_hostchan_ramht_insert(c, NV50_HOSTCHAN_H_VM, NV50_HOSTCHAN_DMA_VM);
    nv50_hostchan_ramht_insert(c, NV50_HOSTCHAN_H_VRAM,
                               NV50_HOSTCHAN_DMA_VRAM);

    /* RAMFC as gpfifog84.c writes it */
    wr32(c, c->ramfc + 0x3c, 0x403f6078);
    wr32(c, c->ramfc + 0x44, 0x01003fff);
    wr32(c, c->ramfc + 0x48, NV50_HOSTCHAN_DMA_VM);
    wr32(c, c->ramfc + 0x50, (uint32_t)ib_va);
    wr32(c, c->ramfc + 0x54, (uint32_t)(ib_va >> 32) |
         NV50_HOSTCHAN_IB_ORDER << 16);
    wr32(c, c->ramfc + 0x60, 0x7fffffff);
    wr32(c, c->ramfc + 0x7c, 0x30000001);
    wr32(c, c->ramfc + 0x80, (NV50_HOSTCHAN_RAMHT_BITS - 9) << 27 |
         4 << 24 | INST_RAMHT >> 4);
    wr32(c, c->ramfc + 0x88, (uint32_t)((cfg->inst + 0x4400) >> 10));
    wr32(c, c->ramfc + 0x98, (uint32_t)(cfg->inst >> 12));
    reg_wr32(c, 0x002600 + cfg->chid * 4,
             0x80000000u | (uint32_t)(c->ramfc >> 8));
    /* the runlist: this channel and every other enabled one */
    {
        uint32_t n = 0;

        for (int i = 0; i < NV50_FIFO_CHANNELS; i++) {
            if (reg_rd32(c, 0x002600 + i * 4) & 0x80000000u) {
                wr32(c, runlist + n++ * 4, i);
            }
        }
        reg_wr32(c, 0x0032f4, (uint32_t)(runlist >> 12));
        reg_wr32(c, 0x0032ec, n);
        reg_wr32(c, 0x002500, 0x101);
    }
    return true;
}

bool nv50_hostchan_room(NV50HostChan *c, uint32_t words)
{
    return c->push_put + words * 4 <= NV50_HOSTCHAN_PUSH_SIZE;
}

void nv50_hostchan_push(NV50HostChan *c, uint32_t w)
{
    g_assert(nv50_hostchan_room(c, 1));
    wr32(c, nv50_hostchan_va_to_vram(c, c->cfg.va_base + c->push_put), w);
    c->push_put += 4;
}

void nv50_hostchan_mthd(NV50HostChan *c, unsigned subc, uint32_t mthd,
                        const uint32_t *data, unsigned n)
{
    nv50_hostchan_push(c, n << 18 | subc << 13 | mthd);
    for (unsigned i = 0; i < n; i++) {
        nv50_hostchan_push(c, data[i]);
    }
}

void nv50_hostchan_mthd_ni(NV50HostChan *c, unsigned subc, uint32_t mthd,
                           const uint32_t *data, unsigned n)
{
    nv50_hostchan_push(c, 0x40000000u | n << 18 | subc << 13 | mthd);
    for (unsigned i = 0; i < n; i++) {
        nv50_hostchan_push(c, data[i]);
    }
}

void nv50_hostchan_ib_at(NV50HostChan *c, uint64_t va, uint32_t words)
{
    uint32_t e = c->ib_put & ((1u << NV50_HOSTCHAN_IB_ORDER) - 1);
    uint64_t ib = nv50_hostchan_va_to_vram(c, c->cfg.va_base +
                                           NV50_HOSTCHAN_PUSH_SIZE);

    wr32(c, ib + e * 8, (uint32_t)va);
    wr32(c, ib + e * 8 + 4, (uint32_t)(va >> 32) | words << 10);
    c->ib_put++;
}

void nv50_hostchan_ib(NV50HostChan *c)
{
    uint32_t len = (c->push_put - c->push_sent) / 4;

    if (!len) {
        return;
    }
    nv50_hostchan_ib_at(c, c->cfg.va_base + c->push_sent, len);
    c->push_sent = c->push_put;
}

void nv50_hostchan_kick(NV50HostChan *c)
{
    reg_wr32(c, 0xc00000 + c->cfg.chid * 0x2000 + 0x8c,
             c->ib_put & ((1u << NV50_HOSTCHAN_IB_ORDER) - 1));
    nv50_engine_sync(c->s);
    if (reg_rd32(c, 0xc00000 + c->cfg.chid * 0x2000 + 0x88) ==
        (c->ib_put & ((1u << NV50_HOSTCHAN_IB_ORDER) - 1))) {
        c->push_put = c->push_sent = 0;     /* all consumed: start over */
    }
}

void nv50_hostchan_submit(NV50HostChan *c)
{
    nv50_hostchan_ib(c);
    nv50_hostchan_kick(c);
}
