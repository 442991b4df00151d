/*
 * Guest RAM and DMA address spaces.
 *
 * GuestRAM is a set of blocks of guest-physical memory, each backed by host
 * memory (a transport maps the guest's RAM file descriptors; tests use a
 * host buffer).  A DmaAddressSpace is what a device uses to reach it; a
 * device never holds host pointers into guest RAM beyond one access.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_DMA_H
#define HW_CORE_DMA_H

#include "gemu/osdep.h"
#include "hw/core/memory.h"

typedef struct GuestRAMBlock {
    hwaddr gpa;
    hwaddr size;
    uint8_t *host;
} GuestRAMBlock;

typedef struct GuestRAM {
    GArray *blocks;             /* of GuestRAMBlock, sorted by gpa */
} GuestRAM;

GuestRAM *guest_ram_new(void);
void guest_ram_free(GuestRAM *ram);
/* Add a block; the host memory stays the caller's.  False on overlap. */
bool guest_ram_add(GuestRAM *ram, hwaddr gpa, hwaddr size, void *host);
void guest_ram_clear(GuestRAM *ram);
/* Host pointer for [gpa, gpa+len) if one block holds it all, else NULL. */
void *guest_ram_ptr(GuestRAM *ram, hwaddr gpa, hwaddr len);

/*
 * A tap on an address space, for -record and gemu-replay
 * (docs/devel/replay.md).  read_done: after every read, with what it read
 * (ok: all of it was guest RAM).  read/write: when set, they are the
 * guest memory (a replay serves what the recording read); they return
 * what dma_read/dma_write return.  Called from any thread that does DMA.
 */
typedef struct DmaTap {
    void (*read_done)(void *opaque, hwaddr addr, const void *buf,
                      size_t len, bool ok);
    bool (*read)(void *opaque, hwaddr addr, void *buf, size_t len);
    bool (*write)(void *opaque, hwaddr addr, const void *buf, size_t len);
    void *opaque;
} DmaTap;

/*
 * Who may issue the address space's requests: a PCI function's Bus
 * Master Enable (hw/pci: pci_set_dma_master()).  enabled() is asked
 * before every access, from any thread that does DMA; when it says no
 * the access is refused whole -- a read gives all-ones, a write is
 * dropped, dma_read/dma_write return false, no tap sees it -- and
 * aborted() is told once per refused access (so once per burst).
 */
typedef struct DmaMaster {
    bool (*enabled)(void *opaque);
    void (*aborted)(void *opaque);
    void *opaque;
} DmaMaster;

typedef struct DmaAddressSpace {
    const char *name;
    GuestRAM *ram;              /* NULL: no guest memory yet */
    const DmaTap *tap;          /* NULL: none (not owned) */
    const DmaMaster *master;    /* NULL: always may (not owned) */
} DmaAddressSpace;

void dma_as_init(DmaAddressSpace *as, const char *name, GuestRAM *ram);
/*
 * Copy to/from guest memory.  False (logged as a guest error, the buffer
 * zero-filled for reads) if any byte is outside guest RAM; false too
 * (logged, all-ones for reads, nothing written) when the master may not
 * issue requests (DmaMaster above).
 */
bool dma_read(DmaAddressSpace *as, hwaddr addr, void *buf, size_t len);
bool dma_write(DmaAddressSpace *as, hwaddr addr, const void *buf,
               size_t len);

static inline uint32_t dma_ldl(DmaAddressSpace *as, hwaddr addr)
{
    uint8_t b[4];

    dma_read(as, addr, b, 4);
    return ldn_le_p(b, 4);
}

static inline void dma_stl(DmaAddressSpace *as, hwaddr addr, uint32_t v)
{
    uint8_t b[4];

    stn_le_p(b, 4, v);
    dma_write(as, addr, b, 4);
}

#endif
