/*
 * PCI function: config space, BAR sizing and decoding, INTx.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/pci/pci.h"

static void set_w(uint8_t *p, unsigned off, unsigned len, uint32_t v)
{
    for (unsigned i = 0; i < len; i++) {
        p[off + i] = v >> (8 * i);
    }
}

static uint32_t get_w(const uint8_t *p, unsigned off, unsigned len)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < len; i++) {
        v |= (uint32_t)p[off + i] << (8 * i);
    }
    return v;
}

void pci_device_init(PCIDevice *d, const DeviceOps *ops, const char *id,
                     const PCIDeviceIds *ids)
{
    device_init(&d->qdev, ops, id);
    memset(d->config, 0, sizeof(d->config));
    memset(d->wmask, 0, sizeof(d->wmask));
    memset(d->w1cmask, 0, sizeof(d->w1cmask));
    memset(d->bars, 0, sizeof(d->bars));
    d->intx_level = 0;
    irq_line_init(&d->intx, NULL, NULL, 0);
    g_atomic_int_set(&d->bus_master, 0);
    g_atomic_int_set(&d->master_abort, 0);

    set_w(d->config, PCI_VENDOR_ID, 2, ids->vendor_id);
    set_w(d->config, PCI_DEVICE_ID, 2, ids->device_id);
    d->config[PCI_REVISION_ID] = ids->revision;
    set_w(d->config, PCI_CLASS_PROG, 3, ids->class_code);
    d->config[PCI_HEADER_TYPE] = 0x00;
    set_w(d->config, PCI_SUBSYSTEM_VENDOR_ID, 2, ids->subsystem_vendor_id);
    set_w(d->config, PCI_SUBSYSTEM_ID, 2, ids->subsystem_id);
    d->config[PCI_INTERRUPT_PIN] = 1;           /* INTA# */

    set_w(d->wmask, PCI_COMMAND, 2,
          PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
          PCI_COMMAND_PARITY | PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
    /* status error bits are write-one-to-clear */
    set_w(d->w1cmask, PCI_STATUS, 2, 0xf900);
    d->wmask[PCI_CACHE_LINE_SIZE] = 0xff;
    d->wmask[PCI_LATENCY_TIMER] = 0xff;
    d->wmask[PCI_INTERRUPT_LINE] = 0xff;
    pci_config_commit_reset(d);
}

static unsigned bar_offset(int n)
{
    return n == PCI_ROM_SLOT ? PCI_ROM_ADDRESS : PCI_BASE_ADDRESS_0 + 4 * n;
}

void pci_register_bar(PCIDevice *d, int n, uint32_t flags, MemoryRegion *mr)
{
    PCIBar *bar = &d->bars[n];
    hwaddr size = mr->size;
    uint32_t mask;

    g_assert(n >= 0 && n <= PCI_ROM_SLOT);
    g_assert(size >= 16 && !(size & (size - 1)) && size <= 0x80000000u);
    bar->mr = mr;
    bar->size = size;
    if (n == PCI_ROM_SLOT) {
        g_assert(size >= 2048);
        bar->flags = 0;
        mask = ~(uint32_t)(size - 1) | PCI_ROM_ADDRESS_ENABLE;
    } else {
        /* 32-bit memory BAR: type bits 2:1 = 0, only PREFETCH kept */
        bar->flags = flags & PCI_BASE_ADDRESS_MEM_PREFETCH;
        mask = ~(uint32_t)(size - 1);
    }
    set_w(d->config, bar_offset(n), 4, bar->flags);
    set_w(d->wmask, bar_offset(n), 4, mask);
    pci_config_commit_reset(d);
}

void pci_config_set_writable(PCIDevice *d, unsigned start, unsigned len)
{
    g_assert(start >= 0x40 && start + len <= PCI_CONFIG_SIZE);
    memset(d->wmask + start, 0xff, len);
}

void pci_config_commit_reset(PCIDevice *d)
{
    memcpy(d->reset_config, d->config, sizeof(d->config));
}

static void pci_update_irq(PCIDevice *d)
{
    uint16_t cmd = get_w(d->config, PCI_COMMAND, 2);
    uint16_t st = get_w(d->config, PCI_STATUS, 2);

    st = d->intx_level ? (st | PCI_STATUS_INTERRUPT)
                       : (st & ~PCI_STATUS_INTERRUPT);
    set_w(d->config, PCI_STATUS, 2, st);
    irq_set_level(&d->intx,
                  d->intx_level && !(cmd & PCI_COMMAND_INTX_DISABLE));
}

/* After config[] changed: what the DMA threads read of it. */
static void pci_update_master(PCIDevice *d)
{
    uint16_t cmd = get_w(d->config, PCI_COMMAND, 2);

    g_atomic_int_set(&d->bus_master, !!(cmd & PCI_COMMAND_MASTER));
}

void pci_device_reset(PCIDevice *d)
{
    memcpy(d->config, d->reset_config, sizeof(d->config));
    g_atomic_int_set(&d->master_abort, 0);
    pci_update_master(d);
    pci_update_irq(d);
}

uint32_t pci_config_read(PCIDevice *d, uint32_t addr, unsigned len)
{
    uint32_t v;

    if ((len != 1 && len != 2 && len != 4) || addr + len > PCI_CONFIG_SIZE
        || (addr & (len - 1))) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: bad config read of %u bytes "
                      "at 0x%x\n", d->qdev.id, len, addr);
        return ~0u >> (32 - 8 * MIN(len, 4u));
    }
    v = get_w(d->config, addr, len);
    if (addr <= PCI_STATUS + 1 && addr + len > PCI_STATUS + 1 &&
        g_atomic_int_get(&d->master_abort)) {
        v |= (uint32_t)(PCI_STATUS_REC_MASTER_ABORT >> 8)
             << (8 * (PCI_STATUS + 1 - addr));
    }
    return v;
}

void pci_config_write(PCIDevice *d, uint32_t addr, uint32_t val,
                      unsigned len)
{
    if ((len != 1 && len != 2 && len != 4) || addr + len > PCI_CONFIG_SIZE
        || (addr & (len - 1))) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: bad config write of %u bytes "
                      "at 0x%x\n", d->qdev.id, len, addr);
        return;
    }
    for (unsigned i = 0; i < len; i++) {
        unsigned a = addr + i;
        uint8_t b = val >> (8 * i);
        uint8_t wm = d->wmask[a], cm = d->w1cmask[a];

        d->config[a] = (d->config[a] & ~wm) | (b & wm);
        d->config[a] &= ~(b & cm);
        if (a == PCI_STATUS + 1 &&
            (b & (PCI_STATUS_REC_MASTER_ABORT >> 8))) {
            g_atomic_int_set(&d->master_abort, 0);
        }
    }
    pci_update_master(d);
    pci_update_irq(d);
}

hwaddr pci_bar_address(PCIDevice *d, int n)
{
    PCIBar *bar = &d->bars[n];
    uint16_t cmd = get_w(d->config, PCI_COMMAND, 2);
    uint32_t v;
    hwaddr addr;

    if (!bar->mr || !(cmd & PCI_COMMAND_MEMORY)) {
        return PCI_BAR_UNMAPPED;
    }
    v = get_w(d->config, bar_offset(n), 4);
    if (n == PCI_ROM_SLOT && !(v & PCI_ROM_ADDRESS_ENABLE)) {
        return PCI_BAR_UNMAPPED;
    }
    addr = v & ~(uint32_t)(bar->size - 1);
    /* 0 and the all-ones sizing pattern are "not assigned" */
    if (addr == 0 || addr == (hwaddr)(~(uint32_t)(bar->size - 1))) {
        return PCI_BAR_UNMAPPED;
    }
    return addr;
}

int pci_find_bar(PCIDevice *d, hwaddr addr, hwaddr *off)
{
    for (int n = 0; n <= PCI_ROM_SLOT; n++) {
        hwaddr base = pci_bar_address(d, n);

        if (base != PCI_BAR_UNMAPPED && addr >= base &&
            addr - base < d->bars[n].size) {
            *off = addr - base;
            return n;
        }
    }
    return -1;
}

uint64_t pci_bar_read(PCIDevice *d, int n, hwaddr off, unsigned size)
{
    return memory_region_read(d->bars[n].mr, off, size);
}

void pci_bar_write(PCIDevice *d, int n, hwaddr off, uint64_t val,
                   unsigned size)
{
    memory_region_write(d->bars[n].mr, off, val, size);
}

uint64_t pci_mmio_read(PCIDevice *d, hwaddr addr, unsigned size)
{
    hwaddr off;
    int n = pci_find_bar(d, addr, &off);

    if (n < 0) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: read at 0x%" PRIx64
                      " hits no BAR\n", d->qdev.id, addr);
        return 0;
    }
    return pci_bar_read(d, n, off, size);
}

void pci_mmio_write(PCIDevice *d, hwaddr addr, uint64_t val, unsigned size)
{
    hwaddr off;
    int n = pci_find_bar(d, addr, &off);

    if (n < 0) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: write at 0x%" PRIx64
                      " hits no BAR\n", d->qdev.id, addr);
        return;
    }
    if (n == PCI_ROM_SLOT) {
        gemu_log_mask(LOG_GUEST_ERROR, "%s: write to the expansion ROM\n",
                      d->qdev.id);
        return;
    }
    pci_bar_write(d, n, off, val, size);
}

static bool pci_master_enabled(void *opaque)
{
    PCIDevice *d = opaque;

    return g_atomic_int_get(&d->bus_master);
}

static void pci_master_aborted(void *opaque)
{
    PCIDevice *d = opaque;

    g_atomic_int_set(&d->master_abort, 1);
}

void pci_set_dma_master(PCIDevice *d, DmaAddressSpace *as)
{
    d->dma_master = (DmaMaster){
        .enabled = pci_master_enabled,
        .aborted = pci_master_aborted,
        .opaque = d,
    };
    as->master = &d->dma_master;
}

void pci_set_irq(PCIDevice *d, int level)
{
    d->intx_level = !!level;
    pci_update_irq(d);
}
