/*
 * A PCI function: type-0 config space, 32-bit memory BARs sized by
 * writing all-ones, an expansion ROM BAR, the command/status registers,
 * INTx pin A, no capabilities (so no MSI).  Its Bus Master Enable
 * gates the DMA address space it masters (pci_set_dma_master()).
 *
 * A transport (the QEMU proxy, the in-process test transport) calls
 * pci_config_read/write for config cycles and pci_mmio_read/write with
 * guest-physical addresses; the function maps them to its BARs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_PCI_PCI_H
#define HW_PCI_PCI_H

#include "gemu/osdep.h"
#include "hw/core/device.h"
#include "hw/core/memory.h"
#include "hw/core/irq.h"
#include "hw/core/dma.h"

#define PCI_CONFIG_SIZE         256

/* config space offsets (PCI Local Bus spec names) */
#define PCI_VENDOR_ID           0x00
#define PCI_DEVICE_ID           0x02
#define PCI_COMMAND             0x04
#define PCI_STATUS              0x06
#define PCI_REVISION_ID         0x08
#define PCI_CLASS_PROG          0x09
#define PCI_CLASS_DEVICE        0x0a
#define PCI_CACHE_LINE_SIZE     0x0c
#define PCI_LATENCY_TIMER       0x0d
#define PCI_HEADER_TYPE         0x0e
#define PCI_BASE_ADDRESS_0      0x10
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID        0x2e
#define PCI_ROM_ADDRESS         0x30
#define PCI_CAPABILITY_LIST     0x34
#define PCI_INTERRUPT_LINE      0x3c
#define PCI_INTERRUPT_PIN       0x3d

#define PCI_COMMAND_IO          0x0001
#define PCI_COMMAND_MEMORY      0x0002
#define PCI_COMMAND_MASTER      0x0004
#define PCI_COMMAND_PARITY      0x0040
#define PCI_COMMAND_SERR        0x0100
#define PCI_COMMAND_INTX_DISABLE 0x0400

#define PCI_STATUS_INTERRUPT    0x0008
#define PCI_STATUS_REC_MASTER_ABORT 0x2000

#define PCI_BASE_ADDRESS_MEM_PREFETCH 0x08
#define PCI_ROM_ADDRESS_ENABLE  0x01

#define PCI_NUM_BARS            6
#define PCI_ROM_SLOT            6
#define PCI_BAR_UNMAPPED        (~(hwaddr)0)

typedef struct PCIBar {
    MemoryRegion *mr;           /* NULL: BAR not implemented */
    hwaddr size;                /* power of two */
    uint32_t flags;             /* low BAR bits: PREFETCH */
} PCIBar;

typedef struct PCIDevice {
    DeviceState qdev;
    uint8_t config[PCI_CONFIG_SIZE];
    uint8_t wmask[PCI_CONFIG_SIZE];     /* bits the guest may change */
    uint8_t w1cmask[PCI_CONFIG_SIZE];   /* bits cleared by writing 1 */
    uint8_t reset_config[PCI_CONFIG_SIZE];
    PCIBar bars[PCI_NUM_BARS + 1];      /* + expansion ROM */
    int intx_level;                     /* what the function asserts */
    IRQLine intx;                       /* pin A, as seen by the bus */
    /*
     * Bus mastering, for the DMA threads (atomics): PCI_COMMAND_MASTER
     * as last written, and PCI_STATUS_REC_MASTER_ABORT, which lives here
     * rather than in config[] so that a DMA thread can set it while the
     * guest writes config space.
     */
    int bus_master;
    int master_abort;
    DmaMaster dma_master;
} PCIDevice;

#define PCI_DEVICE(obj) ((PCIDevice *)(obj))

typedef struct PCIDeviceIds {
    uint16_t vendor_id;
    uint16_t device_id;
    uint8_t revision;
    uint32_t class_code;                /* 24 bits: class, sub, prog-if */
    uint16_t subsystem_vendor_id;
    uint16_t subsystem_id;
} PCIDeviceIds;

void pci_device_init(PCIDevice *d, const DeviceOps *ops, const char *id,
                     const PCIDeviceIds *ids);
/*
 * Declare BAR n (0-5) or the ROM (PCI_ROM_SLOT) backed by mr; its size
 * (mr->size) must be a power of two, at least 16 bytes (2 KiB for ROM).
 */
void pci_register_bar(PCIDevice *d, int n, uint32_t flags, MemoryRegion *mr);
/* Vendor-specific config bytes the guest may write (e.g. 0x40..0xff). */
void pci_config_set_writable(PCIDevice *d, unsigned start, unsigned len);
/* Take the current config as the power-on state (call after setup). */
void pci_config_commit_reset(PCIDevice *d);
/* Back to the power-on config: BARs unassigned, decoding off, INTx low. */
void pci_device_reset(PCIDevice *d);

uint32_t pci_config_read(PCIDevice *d, uint32_t addr, unsigned len);
void pci_config_write(PCIDevice *d, uint32_t addr, uint32_t val,
                      unsigned len);

/* Guest-physical address of BAR n, or PCI_BAR_UNMAPPED if not decoding. */
hwaddr pci_bar_address(PCIDevice *d, int n);
/* BAR holding guest-physical addr (offset in *off), or -1. */
int pci_find_bar(PCIDevice *d, hwaddr addr, hwaddr *off);

uint64_t pci_bar_read(PCIDevice *d, int n, hwaddr off, unsigned size);
void pci_bar_write(PCIDevice *d, int n, hwaddr off, uint64_t val,
                   unsigned size);
/* Accesses by guest-physical address; misses are guest errors (read 0). */
uint64_t pci_mmio_read(PCIDevice *d, hwaddr addr, unsigned size);
void pci_mmio_write(PCIDevice *d, hwaddr addr, uint64_t val, unsigned size);

/*
 * The function masters @as: with PCI_COMMAND_MASTER clear, its accesses
 * are refused (a master abort: all-ones read, write dropped) and set
 * PCI_STATUS_REC_MASTER_ABORT (write 1 to clear).  A reset clears the
 * command bit, as the power-on state has it clear.
 */
void pci_set_dma_master(PCIDevice *d, DmaAddressSpace *as);

/* The function asserts (1) or releases (0) INTx. */
void pci_set_irq(PCIDevice *d, int level);

#endif
