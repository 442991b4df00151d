/*
 * hw/pci: BAR sizing and decoding, expansion ROM, command register, INTx,
 * bus mastering (Bus Master Enable gating the function's DMA).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/pci/pci.h"
#include <check.h>

typedef struct TestFn {
    PCIDevice pci;
    uint8_t bar0[0x1000];
    uint8_t bar1[0x100000];
    uint8_t rom[0x4000];
    MemoryRegion mr0, mr1, rom_mr;
} TestFn;

static const DeviceOps testfn_ops = { .type_name = "testfn" };

static TestFn *testfn_new(void)
{
    static const PCIDeviceIds ids = {
        .vendor_id = 0x10de, .device_id = 0x0400, .revision = 0xa2,
        .class_code = 0x030000, .subsystem_vendor_id = 0x1234,
        .subsystem_id = 0x5678,
    };
    TestFn *t = g_new0(TestFn, 1);

    pci_device_init(&t->pci, &testfn_ops, NULL, &ids);
    memory_region_init_ram_ptr(&t->mr0, "bar0", sizeof(t->bar0), t->bar0);
    memory_region_init_ram_ptr(&t->mr1, "bar1", sizeof(t->bar1), t->bar1);
    memory_region_init_ram_ptr(&t->rom_mr, "rom", sizeof(t->rom), t->rom);
    t->rom_mr.readonly = true;
    pci_register_bar(&t->pci, 0, 0, &t->mr0);
    pci_register_bar(&t->pci, 3, PCI_BASE_ADDRESS_MEM_PREFETCH, &t->mr1);
    pci_register_bar(&t->pci, PCI_ROM_SLOT, 0, &t->rom_mr);
    device_realize(DEVICE(t), NULL);
    return t;
}

static void testfn_free(TestFn *t)
{
    memory_region_destroy(&t->mr0);
    memory_region_destroy(&t->mr1);
    memory_region_destroy(&t->rom_mr);
    device_finalize(DEVICE(t));
    g_free(t);
}

START_TEST(ids_and_header)
{
    TestFn *t = testfn_new();
    PCIDevice *d = &t->pci;

    ck_assert_uint_eq(pci_config_read(d, 0, 4), 0x040010de);
    ck_assert_uint_eq(pci_config_read(d, PCI_REVISION_ID, 4), 0x030000a2);
    ck_assert_uint_eq(pci_config_read(d, PCI_HEADER_TYPE, 1), 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_SUBSYSTEM_VENDOR_ID, 4),
                      0x56781234);
    ck_assert_uint_eq(pci_config_read(d, PCI_INTERRUPT_PIN, 1), 1);
    /* no capabilities, hence no MSI */
    ck_assert_uint_eq(pci_config_read(d, PCI_CAPABILITY_LIST, 1), 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) & 0x10, 0);
    /* read-only fields ignore writes */
    pci_config_write(d, 0, 0xffffffff, 4);
    ck_assert_uint_eq(pci_config_read(d, 0, 4), 0x040010de);
    testfn_free(t);
}
END_TEST

START_TEST(bar_sizing)
{
    TestFn *t = testfn_new();
    PCIDevice *d = &t->pci;

    /* the BIOS writes all-ones and reads back ~(size - 1) | flags */
    for (int n = 0; n < 6; n++) {
        pci_config_write(d, PCI_BASE_ADDRESS_0 + 4 * n, 0xffffffff, 4);
    }
    ck_assert_uint_eq(pci_config_read(d, 0x10, 4), 0xfffff000);
    ck_assert_uint_eq(pci_config_read(d, 0x14, 4), 0);    /* no BAR1 */
    ck_assert_uint_eq(pci_config_read(d, 0x1c, 4), 0xfff00008);
    pci_config_write(d, PCI_ROM_ADDRESS, 0xfffffffe, 4);
    ck_assert_uint_eq(pci_config_read(d, PCI_ROM_ADDRESS, 4), 0xffffc000);
    /* still sizing: nothing decodes even with memory enabled */
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_MEMORY, 2);
    ck_assert_uint_eq(pci_bar_address(d, 0), PCI_BAR_UNMAPPED);
    testfn_free(t);
}
END_TEST

START_TEST(bar_decoding)
{
    TestFn *t = testfn_new();
    PCIDevice *d = &t->pci;
    hwaddr off;

    pci_config_write(d, 0x10, 0xe0001234, 4);       /* low bits dropped */
    pci_config_write(d, 0x1c, 0xd0000000, 4);
    ck_assert_uint_eq(pci_config_read(d, 0x10, 4), 0xe0001000);
    ck_assert_uint_eq(pci_config_read(d, 0x1c, 4), 0xd0000008);
    /* memory decoding off */
    ck_assert_uint_eq(pci_bar_address(d, 0), PCI_BAR_UNMAPPED);
    ck_assert_int_eq(pci_find_bar(d, 0xe0001000, &off), -1);
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_MEMORY, 2);
    ck_assert_uint_eq(pci_bar_address(d, 0), 0xe0001000);
    ck_assert_int_eq(pci_find_bar(d, 0xd00ffffc, &off), 3);
    ck_assert_uint_eq(off, 0xffffc);
    ck_assert_int_eq(pci_find_bar(d, 0xd0100000, &off), -1);

    pci_mmio_write(d, 0xe0001010, 0xcafef00d, 4);
    ck_assert_uint_eq(t->bar0[0x10], 0x0d);
    ck_assert_uint_eq(pci_mmio_read(d, 0xe0001012, 2), 0xcafe);
    ck_assert_uint_eq(pci_mmio_read(d, 0x1000, 4), 0);    /* no BAR */

    /* ROM decodes only with its enable bit */
    t->rom[0] = 0x55;
    t->rom[1] = 0xaa;
    pci_config_write(d, PCI_ROM_ADDRESS, 0xc0000000, 4);
    ck_assert_int_eq(pci_find_bar(d, 0xc0000000, &off), -1);
    pci_config_write(d, PCI_ROM_ADDRESS, 0xc0000001, 4);
    ck_assert_uint_eq(pci_mmio_read(d, 0xc0000000, 2), 0xaa55);
    pci_mmio_write(d, 0xc0000000, 0, 2);                   /* read-only */
    ck_assert_uint_eq(t->rom[0], 0x55);

    /* reset: BARs unassigned, decoding off */
    pci_device_reset(d);
    ck_assert_uint_eq(pci_config_read(d, 0x10, 4), 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_COMMAND, 2), 0);
    testfn_free(t);
}
END_TEST

static int intx_level_seen = -1;

static void intx_cb(void *opaque, int n, int level)
{
    intx_level_seen = level;
}

START_TEST(intx_and_command)
{
    TestFn *t = testfn_new();
    PCIDevice *d = &t->pci;

    irq_line_connect(&d->intx, intx_cb, NULL, 0);
    pci_set_irq(d, 1);
    ck_assert_int_eq(intx_level_seen, 1);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_INTERRUPT, PCI_STATUS_INTERRUPT);
    /* INTX_DISABLE masks the pin but not the status bit */
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_INTX_DISABLE, 2);
    ck_assert_int_eq(intx_level_seen, 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_INTERRUPT, PCI_STATUS_INTERRUPT);
    pci_config_write(d, PCI_COMMAND, 0, 2);
    ck_assert_int_eq(intx_level_seen, 1);
    pci_set_irq(d, 0);
    ck_assert_int_eq(intx_level_seen, 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_INTERRUPT, 0);
    /* only the defined command bits are writable */
    pci_config_write(d, PCI_COMMAND, 0xffff, 2);
    ck_assert_uint_eq(pci_config_read(d, PCI_COMMAND, 2), 0x0547);
    /* bad config accesses are refused, not crashes */
    ck_assert_uint_eq(pci_config_read(d, 0xfe, 4), 0xffffffff);
    pci_config_write(d, 0x101, 1, 1);
    testfn_free(t);
}
END_TEST

static int tap_reads, tap_writes;

static void tap_read_done(void *opaque, hwaddr addr, const void *buf,
                          size_t len, bool ok)
{
    tap_reads++;
}

static bool tap_write(void *opaque, hwaddr addr, const void *buf,
                      size_t len)
{
    tap_writes++;
    return true;
}

/*
 * With PCI_COMMAND_MASTER clear the function's DMA is refused: reads
 * all-ones, writes dropped, no tap sees it, PCI_STATUS bit 13 set until
 * written 1; a reset clears the command bit again.
 */
START_TEST(bus_master_gates_dma)
{
    static const DmaTap rtap = { .read_done = tap_read_done };
    static const DmaTap wtap = { .write = tap_write };
    TestFn *t = testfn_new();
    PCIDevice *d = &t->pci;
    uint8_t mem[0x100], buf[8];
    GuestRAM *ram = guest_ram_new();
    DmaAddressSpace as;

    memset(mem, 0x11, sizeof(mem));
    guest_ram_add(ram, 0x1000, sizeof(mem), mem);
    dma_as_init(&as, "testfn-dma", ram);
    ck_assert(dma_read(&as, 0x1000, buf, 4));      /* no master: no gate */
    pci_set_dma_master(d, &as);
    as.tap = &rtap;
    tap_reads = tap_writes = 0;

    /* power-on: mastering off */
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT, 0);
    memset(buf, 0, sizeof(buf));
    ck_assert(!dma_read(&as, 0x1000, buf, 8));
    ck_assert_uint_eq(ldn_le_p(buf, 8), UINT64_MAX);
    ck_assert_int_eq(tap_reads, 0);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS + 1, 1), 0x20);
    ck_assert_uint_eq(pci_config_read(d, PCI_COMMAND, 4) >> 16,
                      PCI_STATUS_REC_MASTER_ABORT);
    as.tap = &wtap;
    ck_assert(!dma_write(&as, 0x1000, "abcd", 4));
    ck_assert_uint_eq(mem[0], 0x11);
    ck_assert_int_eq(tap_writes, 0);

    /* writing 0 keeps the status bit, writing 1 clears it */
    pci_config_write(d, PCI_STATUS, 0, 2);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    pci_config_write(d, PCI_STATUS, PCI_STATUS_REC_MASTER_ABORT, 2);
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT, 0);

    /* the driver's pci_set_master(): DMA goes through, to the taps too */
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_MASTER, 2);
    ck_assert(dma_write(&as, 0x1000, "abcd", 4));
    ck_assert_int_eq(tap_writes, 1);
    as.tap = &rtap;
    ck_assert(dma_read(&as, 0x1000, buf, 4));
    ck_assert_uint_eq(ldn_le_p(buf, 4), 0x11111111);   /* wtap took it */
    ck_assert_int_eq(tap_reads, 1);
    as.tap = NULL;
    ck_assert(dma_write(&as, 0x1000, "abcd", 4));
    ck_assert(!memcmp(mem, "abcd", 4));
    ck_assert_uint_eq(pci_config_read(d, PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT, 0);

    /* a refused access after a config write of 4 bytes; reset clears all */
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_MEMORY, 4);
    ck_assert_uint_eq(dma_ldl(&as, 0x1000), 0xffffffff);
    ck_assert_uint_eq(pci_config_read(d, PCI_COMMAND, 4),
                      (uint32_t)PCI_STATUS_REC_MASTER_ABORT << 16 |
                      PCI_COMMAND_MEMORY);
    pci_config_write(d, PCI_COMMAND, PCI_COMMAND_MASTER, 2);
    pci_device_reset(d);
    ck_assert_uint_eq(pci_config_read(d, PCI_COMMAND, 4), 0);
    ck_assert(!dma_read(&as, 0x1000, buf, 4));
    ck_assert_int_eq(tap_reads, 1);
    guest_ram_free(ram);
    testfn_free(t);
}
END_TEST

Suite *hw_pci_suite(void)
{
    Suite *s = suite_create("hw-pci");
    TCase *tc = tcase_create("pci");

    tcase_add_test(tc, ids_and_header);
    tcase_add_test(tc, bar_sizing);
    tcase_add_test(tc, bar_decoding);
    tcase_add_test(tc, intx_and_command);
    tcase_add_test(tc, bus_master_gates_dma);
    suite_add_tcase(s, tc);
    return s;
}
