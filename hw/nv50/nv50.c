/*
 * The G84 card: PCI function, BARs and the BAR0 block table.
 *
 * The block table below is the MMIO map of the card, in address order,
 * with the envytools unit names (docs/hw/mmio.rst, "G80:GF100 MMIO map").
 * Each row becomes a subregion of the BAR0 container, so an access lands
 * in the unit that owns it; addresses between rows are unassigned (guest
 * error).  Units gemu does not model yet are rows with nv50_unimp_*
 * handlers: they log once per register by name and read 0.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"

static uint64_t nv50_unimp_read(NV50State *s, hwaddr addr, unsigned size)
{
    nv50_unimp(s, addr, false, 0);
    return 0;
}

static void nv50_unimp_write(NV50State *s, hwaddr addr, uint64_t val,
                             unsigned size)
{
    nv50_unimp(s, addr, true, val);
}

/*
 * Plain storage for units whose registers nouveau only reads back or
 * programs without waiting for an effect (clocks, thermal, fuses): the
 * value written is kept and read back, everything starts at 0 (which
 * nvkm's clk code takes as "crystal"), and the first access of each
 * register is still logged as unimplemented.
 */
static uint64_t nv50_plain_read(NV50State *s, hwaddr addr, unsigned size)
{
    gpointer v;

    nv50_unimp(s, addr, false, 0);
    v = g_hash_table_lookup(s->plain_regs, GUINT_TO_POINTER(addr));
    return GPOINTER_TO_UINT(v);
}

static void nv50_plain_write(NV50State *s, hwaddr addr, uint64_t val,
                             unsigned size)
{
    nv50_unimp(s, addr, true, val);
    g_hash_table_insert(s->plain_regs, GUINT_TO_POINTER(addr),
                        GUINT_TO_POINTER((uint32_t)val));
}

/* PPCI: BAR0 window onto the function's own config space. */
static uint64_t nv50_ppci_read(NV50State *s, hwaddr addr, unsigned size)
{
    hwaddr off = addr - NV_PPCI_BASE;

    if (off < PCI_CONFIG_SIZE) {
        return pci_config_read(PCI_DEVICE(s), off, 4);
    }
    return nv50_unimp_read(s, addr, size);
}

static void nv50_ppci_write(NV50State *s, hwaddr addr, uint64_t val,
                            unsigned size)
{
    hwaddr off = addr - NV_PPCI_BASE;

    if (off < PCI_CONFIG_SIZE) {
        pci_config_write(PCI_DEVICE(s), off, val, 4);
        return;
    }
    nv50_unimp_write(s, addr, val, size);
}

#define UNIMP   nv50_unimp_read, nv50_unimp_write
#define PLAIN   nv50_plain_read, nv50_plain_write

static const NV50Block nv50_blocks[] = {
    { "PMC",         0x000000, 0x001000, nv50_pmc_read, nv50_pmc_write },
    { "PBUS",        0x001000, 0x000700, nv50_pbus_read, nv50_pbus_write },
    { "PBUS.HOST_MEM", 0x001700, 0x000900, nv50_vm_read, nv50_vm_write },
    { "PFIFO",       0x002000, 0x002000, nv50_pfifo_read,
                                         nv50_pfifo_write },
    { "PCLOCK",      0x004000, 0x001000, PLAIN },
    { "PRMA",        0x007000, 0x001000, UNIMP },
    { "PTIMER",      0x009000, 0x001000, nv50_ptimer_read,
                                         nv50_ptimer_write },
    { "PCOUNTER",    0x00a000, 0x001000, UNIMP },
    { "PVPE",        0x00b000, 0x001000, UNIMP },
    { "PCONTROL",    0x00c000, 0x001000, PLAIN },
    { "PNVIO",       0x00e000, 0x000800, nv50_nvio_read, nv50_nvio_write },
    { "PIOCLOCK",    0x00e800, 0x000800, PLAIN },
    { "PVP2",        0x00f000, 0x001000, UNIMP },
    { "UNK010000",   0x010000, 0x001000, UNIMP },
    { "PTHERM",      0x020000, 0x001000, PLAIN },
    { "PFUSE",       0x021000, 0x001000, PLAIN },
    { "UNK022000",   0x022000, 0x001000, UNIMP },
    { "PEEPHOLE",    0x060000, 0x001000, UNIMP },
    { "PFLUSH",      0x070000, 0x001000, nv50_pflush_read,
                                         nv50_pflush_write },
    { "PPCI",        0x088000, 0x001000, nv50_ppci_read, nv50_ppci_write },
    { "UNK089000",   0x089000, 0x001000, UNIMP },
    { "PFIFO_CACHE", 0x090000, 0x002000, nv50_pfifo_cache_read,
                                         nv50_pfifo_cache_write },
    { "PRMFB",       0x0a0000, 0x020000, UNIMP },
    { "PFB",         0x100000, 0x001000, nv50_pfb_read, nv50_pfb_write },
    { "PSTRAPS",     0x101000, 0x001000, nv50_pstraps_read,
                                         nv50_pstraps_write },
    { "PCIPHER",     0x102000, 0x001000, UNIMP },
    { "PBSP",        0x103000, 0x001000, UNIMP },
    { "PMEDIA",      0x200000, 0x001000, UNIMP },
    { "PROM",        0x300000, 0x100000, nv50_prom_read, nv50_prom_write,
                                         1, 4 },
    { "PGRAPH",      0x400000, 0x020000, nv50_pgraph_read,
                                         nv50_pgraph_write },
    { "PRMIO",       0x601000, 0x00f000, nv50_prmio_read, nv50_prmio_write,
                                         1, 4 },
    { "PDISPLAY",    0x610000, 0x020000, nv50_pdisplay_read,
                                         nv50_pdisplay_write },
    { "PDISPLAY_USER", 0x640000, 0x010000, nv50_pdisplay_user_read,
                                           nv50_pdisplay_user_write },
    { "PMEM",        0x700000, 0x100000, nv50_pmem_read, nv50_pmem_write,
                                         1, 8 },
    { "PIO_USER",    0x800000, 0x400000, UNIMP },
    { "DMA_USER",    0xc00000, 0x400000, nv50_pfifo_user_read,
                                         nv50_pfifo_user_write },
};

const NV50Block *nv50_block_table(size_t *count)
{
    *count = ARRAY_SIZE(nv50_blocks);
    return nv50_blocks;
}

const NV50Block *nv50_block_find(hwaddr addr)
{
    for (size_t i = 0; i < ARRAY_SIZE(nv50_blocks); i++) {
        const NV50Block *b = &nv50_blocks[i];

        if (addr >= b->base && addr - b->base < b->size) {
            return b;
        }
    }
    return NULL;
}

void nv50_unimp(NV50State *s, hwaddr addr, bool is_write, uint64_t val)
{
    const NV50Block *b = nv50_block_find(addr);
    const char *name = b ? b->name : "BAR0";
    hwaddr off = b ? addr - b->base : addr;

    if (is_write) {
        gemu_log_once(LOG_UNIMP, "nv50-w", addr,
                      "nv50: unimplemented register %s+0x%" PRIx64
                      " (0x%06" PRIx64 ") written 0x%" PRIx64 "\n",
                      name, off, addr, val);
    } else {
        gemu_log_once(LOG_UNIMP, "nv50-r", addr,
                      "nv50: unimplemented register %s+0x%" PRIx64
                      " (0x%06" PRIx64 ") read as 0\n", name, off, addr);
    }
}

static uint64_t block_read(void *opaque, hwaddr off, unsigned size)
{
    NV50BlockInst *bi = opaque;
    hwaddr addr = bi->blk->base + off;
    uint64_t v = bi->blk->read(bi->s, addr, size);

    gemu_log_mask(LOG_TRACE_MMIO, "nv50: rd%u %s 0x%06" PRIx64 " = 0x%"
                  PRIx64 "\n", size * 8, bi->blk->name, addr, v);
    gemu_trace(TRACE_NV50_MMIO_READ, "%s 0x%06" PRIx64 " size %u = 0x%"
               PRIx64, bi->blk->name, addr, size, v);
    return v;
}

static void block_write(void *opaque, hwaddr off, uint64_t val,
                        unsigned size)
{
    NV50BlockInst *bi = opaque;
    hwaddr addr = bi->blk->base + off;

    gemu_log_mask(LOG_TRACE_MMIO, "nv50: wr%u %s 0x%06" PRIx64 " = 0x%"
                  PRIx64 "\n", size * 8, bi->blk->name, addr, val);
    gemu_trace(TRACE_NV50_MMIO_WRITE, "%s 0x%06" PRIx64 " size %u = 0x%"
               PRIx64, bi->blk->name, addr, size, val);
    bi->blk->write(bi->s, addr, val, size);
}

uint32_t nv50_rd32(NV50State *s, hwaddr addr)
{
    return memory_region_read(&s->bar0, addr, 4);
}

void nv50_wr32(NV50State *s, hwaddr addr, uint32_t val)
{
    memory_region_write(&s->bar0, addr, val, 4);
}

static void nv50_build_bar0(NV50State *s)
{
    memory_region_init_container(&s->bar0, "nv50-bar0", NV50_BAR0_SIZE);
    s->num_blocks = ARRAY_SIZE(nv50_blocks);
    s->blocks = g_new0(NV50BlockInst, s->num_blocks);
    for (size_t i = 0; i < s->num_blocks; i++) {
        NV50BlockInst *bi = &s->blocks[i];
        const NV50Block *b = &nv50_blocks[i];

        bi->s = s;
        bi->blk = b;
        bi->ops.read = block_read;
        bi->ops.write = block_write;
        bi->ops.impl_min = b->impl_min ? b->impl_min : 4;
        bi->ops.impl_max = b->impl_max ? b->impl_max : 4;
        memory_region_init_io(&bi->mr, b->name, b->size, &bi->ops, bi);
        memory_region_add_subregion(&s->bar0, b->base, &bi->mr);
    }
}

/*
 * The card's units, for their lifetime hooks: init at realize (in this
 * order), reset at device reset (in this order, after PCI), fini at
 * unrealize (in the reverse order).  The engine comes after PFIFO and
 * PGRAPH, whose state its thread uses, and goes first.
 */
typedef struct NV50Unit {
    const char *name;
    void (*init)(NV50State *s);
    void (*reset)(NV50State *s);
    void (*fini)(NV50State *s);
} NV50Unit;

static const NV50Unit nv50_units[] = {
    { "PMC",      NULL,              nv50_pmc_reset,      NULL },
    { "PBUS",     NULL,              nv50_pbus_reset,     NULL },
    { "PTIMER",   nv50_ptimer_init,  nv50_ptimer_reset,   nv50_ptimer_fini },
    { "PFB",      NULL,              nv50_pfb_reset,      NULL },
    { "VM",       NULL,              nv50_vm_reset,       NULL },
    { "PFIFO",    nv50_pfifo_init,   nv50_pfifo_reset,    nv50_pfifo_fini },
    { "PGRAPH",   nv50_pgraph_init,  nv50_pgraph_reset,   nv50_pgraph_fini },
    { "engine",   nv50_engine_init,  NULL,                nv50_engine_fini },
    { "PRMIO",    NULL,              nv50_vga_reset,      NULL },
    { "PNVIO",    NULL,              nv50_nvio_reset,     NULL },
    { "PDISPLAY", nv50_pdisplay_init, nv50_pdisplay_reset,
                  nv50_pdisplay_fini },
    { "scanout",  nv50_scanout_init, NULL,                nv50_scanout_fini },
};

static bool nv50_realize(DeviceState *dev, GError **errp)
{
    NV50State *s = NV50(dev);
    PCIDevice *pci = PCI_DEVICE(dev);
    uint64_t vram = device_get_prop_uint(dev, "vram-size",
                                         NV50_VRAM_DEFAULT);
    size_t rom_size;

    if (vram < NV50_VRAM_MIN || vram > NV50_VRAM_MAX ||
        (vram & (vram - 1))) {
        g_set_error(errp, GEMU_DEVICE_ERROR, 0,
                    "nv50: VRAM size %" PRIu64 " MiB: must be a power of "
                    "two from %u to %u MiB", vram >> 20,
                    NV50_VRAM_MIN >> 20, NV50_VRAM_MAX >> 20);
        return false;
    }
    s->vram_size = vram;
    s->boot0 = device_get_prop_uint(dev, "boot0", NV50_G84_BOOT0);
    s->vram = g_try_malloc0(vram);
    if (!s->vram) {
        g_set_error(errp, GEMU_DEVICE_ERROR, 0,
                    "nv50: cannot allocate %" PRIu64 " MiB of VRAM",
                    vram >> 20);
        return false;
    }
    s->vbios = nv50_vbios_build(s->boot0, NV50_G84_DEVICE_ID,
                                &s->vbios_size);
    s->plain_regs = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_mutex_init(&s->eng_lock);
    g_mutex_init(&s->pmc.lock);

    nv50_build_bar0(s);
    nv50_vm_init_bars(s);
    rom_size = 2048;
    while (rom_size < s->vbios_size) {
        rom_size *= 2;
    }
    g_assert(rom_size == s->vbios_size);
    memory_region_init_ram_ptr(&s->rom, "nv50-rom", rom_size, s->vbios);
    s->rom.readonly = true;

    pci_register_bar(pci, NV50_BAR_MMIO, 0, &s->bar0);
    pci_register_bar(pci, NV50_BAR_VRAM, PCI_BASE_ADDRESS_MEM_PREFETCH,
                     &s->bar1);
    pci_register_bar(pci, NV50_BAR_INST, PCI_BASE_ADDRESS_MEM_PREFETCH,
                     &s->bar3);
    pci_register_bar(pci, PCI_ROM_SLOT, 0, &s->rom);
    /*
     * UNVERIFIED: the vendor area (0x40+) is plain storage; nvkm touches
     * 0x50 (ROM shadow) and 0x54 (VGA decode) through PPCI.
     */
    pci_config_set_writable(pci, 0x40, PCI_CONFIG_SIZE - 0x40);
    pci_config_commit_reset(pci);
    for (size_t i = 0; i < ARRAY_SIZE(nv50_units); i++) {
        if (nv50_units[i].init) {
            nv50_units[i].init(s);
        }
    }
    nv50_pdisplay_reset(s);
    return true;
}

static void nv50_reset(DeviceState *dev)
{
    NV50State *s = NV50(dev);

    pci_device_reset(PCI_DEVICE(s));
    for (size_t i = 0; i < ARRAY_SIZE(nv50_units); i++) {
        if (nv50_units[i].reset) {
            nv50_units[i].reset(s);
        }
    }
    g_hash_table_remove_all(s->plain_regs);
}

static void nv50_unrealize(DeviceState *dev)
{
    NV50State *s = NV50(dev);

    for (size_t i = ARRAY_SIZE(nv50_units); i-- > 0;) {
        if (nv50_units[i].fini) {
            nv50_units[i].fini(s);
        }
    }
    for (size_t i = 0; i < s->num_blocks; i++) {
        memory_region_destroy(&s->blocks[i].mr);
    }
    memory_region_destroy(&s->bar0);
    memory_region_destroy(&s->bar1);
    memory_region_destroy(&s->bar3);
    memory_region_destroy(&s->rom);
    g_clear_pointer(&s->blocks, g_free);
    g_clear_pointer(&s->plain_regs, g_hash_table_destroy);
    g_clear_pointer(&s->vram, g_free);
    g_clear_pointer(&s->vbios, g_free);
    g_mutex_clear(&s->eng_lock);
    g_mutex_clear(&s->pmc.lock);
}

static const DeviceOps nv50_ops = {
    .type_name = TYPE_NV50,
    .realize = nv50_realize,
    .reset = nv50_reset,
    .unrealize = nv50_unrealize,
};

NV50State *nv50_new(GemuClock *clock, GuestRAM *ram, uint64_t vram_size,
                    GError **errp)
{
    static const PCIDeviceIds ids = {
        .vendor_id = 0x10de,
        .device_id = NV50_G84_DEVICE_ID,
        .revision = 0xa2,
        .class_code = 0x030000,         /* VGA: nouveau's fbcon needs it */
        .subsystem_vendor_id = 0x10de,
        .subsystem_id = NV50_G84_DEVICE_ID,
    };
    NV50State *s = g_new0(NV50State, 1);

    pci_device_init(PCI_DEVICE(s), &nv50_ops, "nv50", &ids);
    s->clock = clock;
    dma_as_init(&s->dma, "nv50-dma", ram);
    pci_set_dma_master(PCI_DEVICE(s), &s->dma);
    if (vram_size) {
        device_set_prop_uint(DEVICE(s), "vram-size", vram_size, NULL);
    }
    if (!device_realize(DEVICE(s), errp)) {
        device_finalize(DEVICE(s));
        g_free(s);
        return NULL;
    }
    return s;
}

void nv50_free(NV50State *s)
{
    if (s) {
        device_finalize(DEVICE(s));
        g_free(s);
    }
}

void nv50_set_guest_ram(NV50State *s, GuestRAM *ram)
{
    s->dma.ram = ram;
}
