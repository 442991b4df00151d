/*
 * hw/pci: BAR sizing and decoding, expansion ROM, command register, INTx.
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

Suite *hw_pci_suite(void)
{
    Suite *s = suite_create("hw-pci");
    TCase *tc = tcase_create("pci");

    tcase_add_test(tc, ids_and_header);
    tcase_add_test(tc, bar_sizing);
    tcase_add_test(tc, bar_decoding);
    tcase_add_test(tc, intx_and_command);
    suite_add_tcase(s, tc);
    return s;
}
