/*
 * The rig the tests/device nv50 suites share: a G84 on a virtual clock
 * with 1 MiB of guest RAM at GART_GPA, its log captured in a temporary
 * file, and BAR0 accessors that go through PCI with guest-physical
 * addresses (the BARs are placed by each test, as firmware would).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_RIG_H
#define TESTS_DEVICE_NV50_RIG_H

#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include <check.h>

/* where the "BIOS" of these tests places the BARs */
#define BAR0_GPA    0xfd000000ull
#define BAR1_GPA    0xe0000000ull
#define BAR3_GPA    0xfa000000ull
#define ROM_GPA     0xfeb00000ull
#define GART_GPA    0x10000000ull       /* guest RAM the card may use */
#define GART_SIZE   0x100000u

typedef struct Rig {
    GemuClock clk;
    GuestRAM *ram;
    uint8_t *sysmem;
    NV50State *s;
    PCIDevice *pci;
    FILE *log;
    uint32_t obj_next;              /* display test: next ctxdma object */
} Rig;

static Rig rig;

/* A fresh card; log items @loglevel go to the captured log. */
static inline void rig_init(int loglevel)
{
    gemu_clock_init(&rig.clk, GEMU_CLOCK_VIRTUAL);
    rig.ram = guest_ram_new();
    rig.sysmem = g_malloc0(GART_SIZE);
    guest_ram_add(rig.ram, GART_GPA, GART_SIZE, rig.sysmem);
    rig.s = nv50_new(&rig.clk, rig.ram, 0, NULL);
    ck_assert_ptr_nonnull(rig.s);
    rig.pci = PCI_DEVICE(rig.s);
    rig.log = tmpfile();
    gemu_log_set_file(rig.log);
    gemu_loglevel = loglevel;
}

static inline void rig_teardown(void)
{
    /* the card first: its engine thread may still be logging */
    nv50_free(rig.s);
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    fclose(rig.log);
    guest_ram_free(rig.ram);
    g_free(rig.sysmem);
    gemu_clock_destroy(&rig.clk);
}

/* Everything logged so far (g_free). */
static inline char *rig_log(void)
{
    long n;
    char *buf;

    fflush(rig.log);
    n = ftell(rig.log);
    buf = g_malloc0(n + 1);
    rewind(rig.log);
    ck_assert_int_eq(fread(buf, 1, n, rig.log), n);
    fseek(rig.log, 0, SEEK_END);
    return buf;
}

static inline uint32_t rd32(hwaddr reg)
{
    return pci_mmio_read(rig.pci, BAR0_GPA + reg, 4);
}

static inline void wr32(hwaddr reg, uint32_t val)
{
    pci_mmio_write(rig.pci, BAR0_GPA + reg, val, 4);
}

/* nv50_instobj_wr32_slow: PRAMIN window at (addr & ~0xfffff) >> 16 */
static inline void inst_wr32(uint64_t addr, uint32_t val)
{
    wr32(NV_PBUS_HOST_MEM_PMEM, (addr & ~0xfffffull) >> 16);
    wr32(NV_PMEM_BASE + (addr & 0xfffff), val);
}

static inline uint32_t inst_rd32(uint64_t addr)
{
    wr32(NV_PBUS_HOST_MEM_PMEM, (addr & ~0xfffffull) >> 16);
    return rd32(NV_PMEM_BASE + (addr & 0xfffff));
}

#endif
