/*
 * The G84 card driven in-process as nouveau 6.1 drives it at probe: PCI
 * enumeration, BOOT_0, VBIOS through PROM, "posted" VGA registers, the
 * FB configuration, instance memory through PRAMIN, the BAR3/BAR1 page
 * tables nvkm's bar/nv50.c builds, and DDC (EDID) over bit-banged I2C.
 * Every access goes through PCI with guest-physical addresses, the way a
 * transport hands them over.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "nv50-rig.h"

static void rig_setup(void)
{
    rig_init(0);
}

static uint32_t bar_size(int reg)
{
    uint32_t old = pci_config_read(rig.pci, reg, 4), v;

    pci_config_write(rig.pci, reg, 0xffffffff, 4);
    v = pci_config_read(rig.pci, reg, 4);
    pci_config_write(rig.pci, reg, old, 4);
    return v ? ~(v & ~0xfu) + 1 : 0;
}

/* What the firmware does before the kernel sees the function. */
static void enumerate(void)
{
    ck_assert_uint_eq(bar_size(0x10), 16 << 20);
    ck_assert_uint_eq(bar_size(0x14), 256 << 20);
    ck_assert_uint_eq(bar_size(0x18), 0);
    ck_assert_uint_eq(bar_size(0x1c), 32 << 20);
    ck_assert_uint_eq(bar_size(0x20), 0);
    pci_config_write(rig.pci, 0x10, BAR0_GPA, 4);
    pci_config_write(rig.pci, 0x14, BAR1_GPA, 4);
    pci_config_write(rig.pci, 0x1c, BAR3_GPA, 4);
    pci_config_write(rig.pci, PCI_ROM_ADDRESS, ROM_GPA, 4);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
}

static uint8_t rd08(hwaddr reg)
{
    return pci_mmio_read(rig.pci, BAR0_GPA + reg, 1);
}

static void wr08(hwaddr reg, uint8_t val)
{
    pci_mmio_write(rig.pci, BAR0_GPA + reg, val, 1);
}

static void inst_wr64(uint64_t addr, uint64_t val)
{
    inst_wr32(addr, (uint32_t)val);
    inst_wr32(addr + 4, val >> 32);
}

START_TEST(probe_identifies_g84)
{
    enumerate();
    ck_assert_uint_eq(pci_config_read(rig.pci, 0, 4), 0x040010de);
    ck_assert_uint_eq(pci_config_read(rig.pci, PCI_CLASS_DEVICE, 2),
                      0x0300);
    ck_assert_uint_eq(rd32(NV_PMC_ENDIAN), 0);
    ck_assert_uint_eq(rd32(NV_PMC_ID), 0x084000a2);
    /* chipset = bits 28:20 -> "NVIDIA G84 (084000a2)" */
    ck_assert_uint_eq((rd32(NV_PMC_ID) >> 20) & 0x1ff, 0x84);
    /* strap: bit 22 set, bit 6 clear -> 27 MHz crystal */
    ck_assert_uint_eq(rd32(NV_PSTRAPS_STRAPS0) & 0x00400040, 0x00400000);
    /* devinit: display present, no video engines */
    ck_assert_uint_eq(rd32(NV_PBUS_HWUNITS_1) & 0x64, 0x04);
    ck_assert_uint_eq(rd32(NV_PBUS_HWUNITS_0) & (1u << 30), 0);
}
END_TEST

START_TEST(vbios_through_prom)
{
    uint8_t *img;
    uint32_t size, cfg50;
    uint8_t sum = 0;

    enumerate();
    /* nvkm_pci_rom_shadow(false) through the PPCI mirror */
    cfg50 = rd32(NV_PPCI_BASE + 0x50);
    wr32(NV_PPCI_BASE + 0x50, cfg50 & ~1u);
    ck_assert_uint_eq(pci_config_read(rig.pci, 0x50, 4), cfg50 & ~1u);

    /* nvkm's first fetch: 4 KiB in 32-bit words */
    ck_assert_uint_eq(rd32(NV_PROM_BASE) & 0xffff, 0xaa55);
    {
        uint32_t pcir = rd32(NV_PROM_BASE + 0x18) & 0xffff;

        ck_assert_uint_eq(rd32(NV_PROM_BASE + pcir), 0x52494350); /* PCIR */
        size = (rd32(NV_PROM_BASE + pcir + 0x10) & 0xffff) * 512;
    }
    ck_assert_uint_eq(size, 0x10000);
    img = g_malloc(size);
    for (uint32_t i = 0; i < size; i += 4) {
        stn_le_p(img + i, 4, rd32(NV_PROM_BASE + i));
    }
    for (uint32_t i = 0; i < size; i++) {
        sum += img[i];
    }
    ck_assert_uint_eq(sum, 0);          /* scores 4: image accepted */
    /* the expansion ROM BAR, once enabled, serves the same bytes */
    ck_assert_uint_eq(pci_mmio_read(rig.pci, ROM_GPA, 2), 0);
    pci_config_write(rig.pci, PCI_ROM_ADDRESS,
                     ROM_GPA | PCI_ROM_ADDRESS_ENABLE, 4);
    for (uint32_t i = 0; i < size; i += 0x1000) {
        ck_assert_uint_eq(pci_mmio_read(rig.pci, ROM_GPA + i, 4),
                          ldn_le_p(img + i, 4));
    }
    /* past the image PROM reads 0 */
    ck_assert_uint_eq(rd32(NV_PROM_BASE + size), 0);
    /* the PRAMIN shadow is "not enabled" (bit 3 clear) */
    ck_assert_uint_eq(rd32(NV_PDISPLAY_VBIOS_SHADOW) & 8, 0);
    wr32(NV_PPCI_BASE + 0x50, cfg50 | 1);
    g_free(img);
}
END_TEST

START_TEST(card_is_posted)
{
    enumerate();
    /* nvkm_rdvgac: index to 0x6013d4, data from 0x6013d5 */
    wr08(0x6013d4, 0x00);
    ck_assert_uint_ne(rd08(0x6013d5), 0);
    /* nvkm_lockvgac(false): CR3F = 0x57, read back */
    wr08(0x6013d4, 0x3f);
    wr08(0x6013d5, 0x57);
    wr08(0x6013d4, 0x3f);
    ck_assert_uint_eq(rd08(0x6013d5), 0x57);
    ck_assert_uint_eq(rd08(0x6013d4), 0x3f);
}
END_TEST

START_TEST(fb_reports_256_mib_gddr3)
{
    uint32_t r4, amount, parts, banks, colbits, rowbits;
    uint64_t size, rowsize;

    enumerate();
    amount = rd32(NV_PFB_MEM_AMOUNT);
    size = (uint64_t)(amount & 0xff) << 32 | (amount & 0xffffff00);
    ck_assert_uint_eq(size, 256u << 20);
    ck_assert_uint_eq(rd32(NV_PFB_MEM_TYPE) & 7, 2);     /* GDDR3 */
    /* ramnv50.c's row arithmetic must predict the same size */
    r4 = rd32(NV_PFB_CFG1);
    parts = __builtin_popcount((rd32(NV_PBUS_HWUNITS_0) >> 16) & 0xff);
    colbits = (r4 >> 12) & 0xf;
    rowbits = ((r4 >> 16) & 0xf) + 8;
    banks = 1 << (((r4 >> 24) & 3) + 2);
    rowsize = (uint64_t)parts * banks * (1 << colbits) * 8;
    ck_assert_uint_eq(rowsize << rowbits, size);
    ck_assert_uint_ge(rowsize, 4096);   /* nvkm_mm block size */
    ck_assert_uint_eq(rd32(NV_PFB_CFG0) & 4, 0);         /* one rank */
    ck_assert_uint_eq(rd32(NV_PFB_BANKCFG) & 1, 0);
}
END_TEST

START_TEST(other_vram_sizes)
{
    static const uint64_t sizes[] = { 32u << 20, 512u << 20 };

    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        NV50State *s = nv50_new(&rig.clk, NULL, sizes[i], NULL);
        uint32_t r4 = nv50_rd32(s, NV_PFB_CFG1);
        uint64_t rowsize = 2 * 4 * (1 << ((r4 >> 12) & 0xf)) * 8;

        ck_assert_uint_eq(nv50_rd32(s, NV_PFB_MEM_AMOUNT), sizes[i]);
        ck_assert_uint_eq(rowsize << (((r4 >> 16) & 0xf) + 8), sizes[i]);
        ck_assert_uint_eq(PCI_DEVICE(s)->bars[1].size, sizes[i]);
        nv50_free(s);
    }
    {
        GError *err = NULL;

        ck_assert_ptr_null(nv50_new(&rig.clk, NULL, 100u << 20, &err));
        ck_assert_ptr_nonnull(strstr(err->message, "power of two"));
        g_error_free(err);
    }
}
END_TEST

START_TEST(instmem_through_pramin)
{
    const uint64_t obj = 0x0ff00000 + 0x1230;   /* near the top of VRAM */

    enumerate();
    inst_wr32(obj, 0x11223344);
    inst_wr32(obj + 4, 0x55667788);
    ck_assert_uint_eq(rd32(NV_PBUS_HOST_MEM_PMEM), 0x0ff0);
    ck_assert_uint_eq(inst_rd32(obj), 0x11223344);
    /* byte and 64-bit accesses to the window */
    ck_assert_uint_eq(rd08(NV_PMEM_BASE + 0x1231), 0x33);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR0_GPA + NV_PMEM_BASE +
                                    0x1230, 8), 0x5566778811223344ull);
    /* before nvkm sets BAR1 up, BAR1 shows VRAM linearly */
    ck_assert_uint_eq(rd32(NV_PBUS_HOST_MEM_BAR1), 0);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR1_GPA + obj, 4),
                      0x11223344);
    /* moving the window shows other VRAM */
    wr32(NV_PBUS_HOST_MEM_PMEM, 0x0fef);
    ck_assert_uint_eq(rd32(NV_PMEM_BASE + 0x11230), 0x11223344);
    ck_assert_uint_eq(rd32(NV_PMEM_BASE + 0x1230), 0);
}
END_TEST

/*
 * nvkm bar/nv50.c oneinit + g84: a 0x20000 instance block, the page
 * directory at +0x200, BAR3 VA 0x1_0000_0000.. through 4 KiB pages, the
 * BAR3 ctxdma, then 0x1704 twice and 0x170c; flushes polled to done.
 */
#define INST        0x0f000000ull
#define PD          (INST + 0x200)
#define BAR3_OBJ    0x4200
#define BAR1_OBJ    0x4220
#define BAR3_PT     (INST + 0x10000)        /* 64 KiB: 8192 PTEs */
#define BAR1_PT     (INST + 0x8000)         /* 64 KiB pages, 32 KiB */
#define BAR3_VA     0x100000000ull

static void write_ctxdma(uint32_t off, uint64_t start, uint64_t limit)
{
    inst_wr32(INST + off + 0x00, 0x7fc00000);
    inst_wr32(INST + off + 0x04, (uint32_t)limit);
    inst_wr32(INST + off + 0x08, (uint32_t)start);
    inst_wr32(INST + off + 0x0c, (uint32_t)(limit >> 32) << 24 |
                                 (uint32_t)(start >> 32));
    inst_wr32(INST + off + 0x10, 0);
    inst_wr32(INST + off + 0x14, 0);
}

static void bar_flush(void)
{
    int spins = 0;

    wr32(NV_PFLUSH_BAR, 1);
    while (rd32(NV_PFLUSH_BAR) & 2) {
        ck_assert_int_lt(++spins, 10);
    }
}

static void tlb_flush(unsigned engine)
{
    int spins = 0;

    wr32(NV_PFB_MMU_TLB_FLUSH, engine << 16 | 1);
    while (rd32(NV_PFB_MMU_TLB_FLUSH) & 1) {
        ck_assert_int_lt(++spins, 10);
    }
}

static void setup_bar3(void)
{
    enumerate();
    for (uint32_t i = 0; i < 0x4000; i += 8) {
        inst_wr64(PD + i, 0xdeadcafe00000000ull);
    }
    /* PDE 8 (VA 4 GiB): 4 KiB pages, 64 KiB table, in VRAM */
    inst_wr64(PD + (BAR3_VA >> 29) * 8, BAR3_PT | 0x60 | 3);
    /* BAR3 pages 0..15 -> VRAM 0x00400000.., one 16-page block */
    for (int i = 0; i < 16; i++) {
        inst_wr64(BAR3_PT + i * 8, 0x00400000ull | (4 << 7) | 1);
    }
    write_ctxdma(BAR3_OBJ, BAR3_VA, BAR3_VA + NV50_BAR3_SIZE - 1);
    bar_flush();
    wr32(NV_PBUS_HOST_MEM_CHAN, INST >> 12);
    wr32(NV_PBUS_HOST_MEM_CHAN, 0x40000000 | INST >> 12);
    wr32(NV_PBUS_HOST_MEM_BAR3, 0x80000000 | BAR3_OBJ >> 4);
    tlb_flush(6);
}

START_TEST(bar3_page_tables)
{
    g_autofree char *log = NULL;

    setup_bar3();
    pci_mmio_write(rig.pci, BAR3_GPA + 0x1010, 0x12345678, 4);
    ck_assert_uint_eq(inst_rd32(0x00401010), 0x12345678);
    inst_wr32(0x0040f000, 0xcafebabe);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR3_GPA + 0xf000, 4),
                      0xcafebabe);
    /* sizes 1, 2 and 8 */
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR3_GPA + 0x1012, 2), 0x1234);
    pci_mmio_write(rig.pci, BAR3_GPA + 0x1013, 0xab, 1);
    ck_assert_uint_eq(inst_rd32(0x00401010), 0xab345678);
    pci_mmio_write(rig.pci, BAR3_GPA + 0x2000, 0x0102030405060708ull, 8);
    ck_assert_uint_eq(inst_rd32(0x00402004), 0x01020304);
    /* an 8-byte access across two mapped pages */
    pci_mmio_write(rig.pci, BAR3_GPA + 0x2ffc, 0x1111111122222222ull, 8);
    ck_assert_uint_eq(inst_rd32(0x00402ffc), 0x22222222);
    ck_assert_uint_eq(inst_rd32(0x00403000), 0x11111111);

    /* page 16 is not mapped: reads 0, a guest error, VRAM untouched */
    gemu_loglevel = LOG_GUEST_ERROR;
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR3_GPA + 0x10000, 4), 0);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "VM fault: engine 0x6 client 0x0/1 "
                                 "read"));
    ck_assert_ptr_nonnull(strstr(log, "PAGE_NOT_PRESENT"));
    /* ...and PFB's VM trap holds it the way nvkm's nv50_fb_intr reads it */
    ck_assert_uint_eq(rd32(0x100c90) & 0x80000000u, 0x80000000u);
    wr32(0x100c90, 0 << 24);
    ck_assert_uint_eq(rd32(0x100c94), 0x6 | 0x2 << 4 | 1 << 12);
    wr32(0x100c90, 5 << 24);
    ck_assert_uint_eq(rd32(0x100c94) & 0x100, 0x100);       /* a read */
    wr32(0x100c90, 0x80000000u);
    ck_assert_uint_eq(rd32(0x100c90) & 0x80000000u, 0);
    ck_assert_uint_ge(rig.s->vm.flushes, 2);
}
END_TEST

START_TEST(bar1_vram_and_system_memory)
{
    setup_bar3();
    /* BAR1 VM: VA 0.., 64 KiB pages; page 0 -> guest RAM, 1 -> VRAM */
    inst_wr64(PD + 0, BAR1_PT | 1);
    inst_wr64(BAR1_PT + 0, GART_GPA | (2 << 4) | 1);
    inst_wr64(BAR1_PT + 8, 0x00800000ull | 1);
    write_ctxdma(BAR1_OBJ, 0, (256u << 20) - 1);
    wr32(NV_PBUS_HOST_MEM_BAR1, 0x80000000 | BAR1_OBJ >> 4);
    ck_assert_uint_eq(rd32(NV_PBUS_HOST_MEM_BAR1),
                      0x80000000 | BAR1_OBJ >> 4);

    pci_mmio_write(rig.pci, BAR1_GPA + 0x40, 0xfeedface, 4);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x40, 4), 0xfeedface);
    pci_mmio_write(rig.pci, BAR1_GPA + 0x10008, 0x600d, 2);
    ck_assert_uint_eq(inst_rd32(0x00800008), 0x600d);
    /*
     * bus mastering off: the card may not reach guest RAM, so a read
     * through BAR1 is a master abort (all-ones) and a write is dropped
     */
    pci_config_write(rig.pci, PCI_COMMAND, PCI_COMMAND_MEMORY, 2);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR1_GPA + 0x40, 4),
                      0xffffffffu);
    pci_mmio_write(rig.pci, BAR1_GPA + 0x40, 0x12345678, 4);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x40, 4), 0xfeedface);
    ck_assert(pci_config_read(rig.pci, PCI_STATUS, 2) &
              PCI_STATUS_REC_MASTER_ABORT);
    /* VRAM behind BAR1 is the card's own: still there */
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR1_GPA + 0x10008, 2), 0x600d);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR1_GPA + 0x40, 4), 0xfeedface);
    /* BAR3 still works beside it */
    pci_mmio_write(rig.pci, BAR3_GPA + 0x4, 0x77, 4);
    ck_assert_uint_eq(inst_rd32(0x00400004), 0x77);
    /* nvkm's fini: 0x1708 = 0 puts BAR1 back to linear VRAM */
    wr32(NV_PBUS_HOST_MEM_BAR1, 0);
    ck_assert_uint_eq(pci_mmio_read(rig.pci, BAR1_GPA + 0x00800008, 2),
                      0x600d);
}
END_TEST

START_TEST(unimplemented_logged_once_by_name)
{
    g_autofree char *log = NULL;
    const char *first;

    enumerate();
    gemu_loglevel = LOG_UNIMP | LOG_GUEST_ERROR;
    ck_assert_uint_eq(rd32(0x00a100), 0);           /* PCOUNTER */
    ck_assert_uint_eq(rd32(0x00a100), 0);
    wr32(0x103140, 0xbfffffff);                     /* PBSP */
    ck_assert_uint_eq(rd32(0x030000), 0);           /* nobody's */
    log = rig_log();
    first = strstr(log, "PCOUNTER+0x100 (0x00a100) read as 0");
    ck_assert_ptr_nonnull(first);
    ck_assert_ptr_null(strstr(first + 1, "PCOUNTER+0x100"));
    ck_assert_ptr_nonnull(strstr(log, "PBSP+0x140 (0x103140) written "
                                      "0xbfffffff"));
    ck_assert_ptr_nonnull(strstr(log, "unassigned address 0x30000"));
}
END_TEST

START_TEST(nvkm_init_writes_accepted)
{
    enumerate();
    /* mc, bus, timer and fb init as nvkm 6.1 does them */
    wr32(NV_PMC_ENABLE, 0xffffffff);
    wr32(NV_PMC_INTR_EN_HOST, 1);
    wr32(NV_PBUS_INTR, 0xffffffff);
    wr32(NV_PBUS_INTR_EN, 0x00010008);
    wr32(NV_PTIMER_INTR_ENABLE, 0);
    wr32(NV_PTIMER_INTR, 0xffffffff);
    wr32(NV_PFB_NISO_BASE, 0x00012345);
    wr32(NV_PFB_MMU_VM_FAULT, 0x001d07ff);
    ck_assert_uint_eq(rd32(NV_PMC_ENABLE), 0xffffffff);
    ck_assert_uint_eq(rd32(NV_PBUS_INTR_EN), 0x00010008);
    ck_assert_uint_eq(rd32(NV_PFB_NISO_BASE), 0x00012345);
    ck_assert_uint_eq(rd32(NV_PFB_MMU_VM_FAULT) >> 31, 0);  /* no trap */
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST), 0);
    ck_assert_uint_eq(pci_config_read(rig.pci, PCI_STATUS, 2) &
                      PCI_STATUS_INTERRUPT, 0);
    /* clocks read 0 ("crystal"), written values are kept */
    ck_assert_uint_eq(rd32(0x004028), 0);
    wr32(0x004028, 0x1234);
    ck_assert_uint_eq(rd32(0x004028), 0x1234);
    /* I2C port 0 idles high (released lines) */
    ck_assert_uint_eq(rd32(NV_PNVIO_I2C_BITBANG0) & 3, 3);
    wr32(NV_PNVIO_I2C_BITBANG0, 0x00000006);        /* SCL low */
    ck_assert_uint_eq(rd32(NV_PNVIO_I2C_BITBANG0) & 3, 2);
}
END_TEST

/* i2c-algo-bit as nvkm runs it over PNVIO port registers (busnv50.c) */
static hwaddr i2c_reg;
static uint32_t i2c_drive;

static void i2c_set(int scl, int sda)
{
    i2c_drive = (i2c_drive & ~3u) | (scl ? 1 : 0) | (sda ? 2 : 0);
    wr32(i2c_reg, i2c_drive);
}

static int i2c_sda(void)
{
    return (rd32(i2c_reg) >> 1) & 1;
}

static void i2c_start_cond(void)
{
    i2c_set(1, 1);
    i2c_set(1, 0);
    i2c_set(0, 0);
}

static void i2c_stop_cond(void)
{
    i2c_set(0, 0);
    i2c_set(1, 0);
    i2c_set(1, 1);
}

/* send a byte; returns true if the slave ACKed */
static bool i2c_out(uint8_t byte)
{
    int ack;

    for (int i = 7; i >= 0; i--) {
        i2c_set(0, (byte >> i) & 1);
        i2c_set(1, (byte >> i) & 1);
        ck_assert_uint_eq(rd32(i2c_reg) & 1, 1);    /* no stretching */
        i2c_set(0, (byte >> i) & 1);
    }
    i2c_set(0, 1);
    i2c_set(1, 1);
    ack = !i2c_sda();
    i2c_set(0, 1);
    return ack;
}

static uint8_t i2c_in(bool ack)
{
    uint8_t v = 0;

    i2c_set(0, 1);
    for (int i = 0; i < 8; i++) {
        i2c_set(1, 1);
        v = v << 1 | i2c_sda();
        i2c_set(0, 1);
    }
    i2c_set(0, !ack);
    i2c_set(1, !ack);
    i2c_set(0, !ack);
    return v;
}

START_TEST(ddc_edid_on_tmds_port)
{
    uint8_t want[NV50_EDID_SIZE], got[NV50_EDID_SIZE], sum = 0;

    enumerate();
    nv50_edid_build(want);
    /* busnv50.c init: 0x7 to each used port */
    i2c_reg = NV_PNVIO_I2C_BITBANG0 + 0x18;
    i2c_drive = 7;
    wr32(i2c_reg, i2c_drive);

    /* nouveau_probe_i2c_addr / drm_do_probe_ddc_edid: write offset 0,
     * repeated START, read 128 bytes, NACK the last, STOP */
    i2c_start_cond();
    ck_assert(i2c_out(0x50 << 1));
    ck_assert(i2c_out(0x00));
    i2c_start_cond();
    ck_assert(i2c_out(0x50 << 1 | 1));
    for (int i = 0; i < NV50_EDID_SIZE; i++) {
        got[i] = i2c_in(i != NV50_EDID_SIZE - 1);
    }
    i2c_stop_cond();
    ck_assert(!memcmp(got, want, sizeof(got)));
    ck_assert_uint_eq(got[0], 0x00);
    ck_assert_uint_eq(got[1], 0xff);
    ck_assert_uint_eq(got[7], 0x00);
    ck_assert_uint_eq(got[20] & 0x80, 0x80);        /* digital input */
    for (int i = 0; i < NV50_EDID_SIZE; i++) {
        sum += got[i];
    }
    ck_assert_uint_eq(sum, 0);
    /* preferred mode 1024x768 in the first detailed timing */
    ck_assert_uint_eq(got[56] | (got[58] >> 4) << 8, 1024);
    ck_assert_uint_eq(got[59] | (got[61] >> 4) << 8, 768);

    /* another address on the same bus is not answered */
    i2c_start_cond();
    ck_assert(!i2c_out(0x37 << 1));
    i2c_stop_cond();
    /* the DAC's port 0 has no EEPROM */
    i2c_reg = NV_PNVIO_I2C_BITBANG0;
    i2c_drive = 7;
    i2c_start_cond();
    ck_assert(!i2c_out(0x50 << 1));
    i2c_stop_cond();
}
END_TEST

Suite *device_nv50_suite(void)
{
    Suite *s = suite_create("device-nv50");
    TCase *tc = tcase_create("probe");

    tcase_add_checked_fixture(tc, rig_setup, rig_teardown);
    tcase_add_test(tc, probe_identifies_g84);
    tcase_add_test(tc, vbios_through_prom);
    tcase_add_test(tc, card_is_posted);
    tcase_add_test(tc, fb_reports_256_mib_gddr3);
    tcase_add_test(tc, other_vram_sizes);
    tcase_add_test(tc, instmem_through_pramin);
    tcase_add_test(tc, bar3_page_tables);
    tcase_add_test(tc, bar1_vram_and_system_memory);
    tcase_add_test(tc, unimplemented_logged_once_by_name);
    tcase_add_test(tc, nvkm_init_writes_accepted);
    tcase_add_test(tc, ddc_edid_on_tmds_port);
    suite_add_tcase(s, tc);
    return s;
}
