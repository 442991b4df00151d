/*
 * nv50 VM: page directory and table walks (64 KiB and 4 KiB pages, PTE
 * blocks, table sizes, targets, faults), vectors worked out from the
 * format nvkm writes (mmu/vmmnv50.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include <check.h>

#define PD      0x10000ull
#define PT      0x20000ull

static GemuClock clk;

static NV50State *card(void)
{
    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    return nv50_new(&clk, NULL, 64 << 20, NULL);
}

static void wr64(NV50State *s, uint64_t addr, uint64_t v)
{
    nv50_vram_wr32(s, addr, (uint32_t)v);
    nv50_vram_wr32(s, addr + 4, v >> 32);
}

START_TEST(large_pages)
{
    NV50State *s = card();
    NV50Translation t;
    uint64_t va = (2ull << 29) + 5 * 0x10000 + 0x1234;   /* PDE 2, PTE 5 */

    wr64(s, PD + 2 * 8, PT | 1);                 /* 64 KiB pages, VRAM */
    wr64(s, PT + 5 * 8, 0x00300000 | 1);         /* -> VRAM 3 MiB */
    ck_assert(nv50_vm_translate(s, PD, va, &t));
    ck_assert_uint_eq(t.addr, 0x300000 + 0x1234);
    ck_assert_uint_eq(t.target, NV50_TARGET_VRAM);
    ck_assert_uint_eq(t.page_size, 0x10000);
    ck_assert(!t.read_only);
    /* neighbours are unmapped, and so is another PDE */
    ck_assert(!nv50_vm_translate(s, PD, va + 0x10000, &t));
    ck_assert(!nv50_vm_translate(s, PD, va - (1ull << 29), &t));
    /* beyond the 40-bit address space */
    ck_assert(!nv50_vm_translate(s, PD, 1ull << 40, &t));
    nv50_free(s);
}
END_TEST

START_TEST(small_pages_and_table_size)
{
    NV50State *s = card();
    NV50Translation t;

    /* PDE 0: 4 KiB pages, 64 KiB table (0x60) = 8192 PTEs = 32 MiB */
    wr64(s, PD, PT | 0x60 | 3);
    wr64(s, PT + 8191 * 8, 0x00400000 | (3 << 4) | 8 | 1);
    ck_assert(nv50_vm_translate(s, PD, 8191 * 0x1000ull + 0xabc, &t));
    ck_assert_uint_eq(t.addr, 0x400abc);
    ck_assert_uint_eq(t.target, NV50_TARGET_HOST_NC);
    ck_assert(t.read_only);
    ck_assert_uint_eq(t.page_size, 0x1000);
    /* PTE 8192 lies past the 64 KiB table even though VRAM holds one */
    wr64(s, PT + 8192 * 8, 0x00500000 | 1);
    ck_assert(!nv50_vm_translate(s, PD, 8192 * 0x1000ull, &t));
    /* the same PDE with a 128 KiB table (0x40) reaches it */
    wr64(s, PD, PT | 0x40 | 3);
    ck_assert(nv50_vm_translate(s, PD, 8192 * 0x1000ull, &t));
    ck_assert_uint_eq(t.addr, 0x500000);
    nv50_free(s);
}
END_TEST

START_TEST(pte_blocks)
{
    NV50State *s = card();
    NV50Translation t;

    /*
     * nvkm maps 8 contiguous 4 KiB pages at PTE 8..15 as one block:
     * log2blk = 3 in bits 9:7, every PTE holds the block's first address.
     */
    wr64(s, PD, PT | 3);
    for (int i = 8; i < 16; i++) {
        wr64(s, PT + i * 8, 0x00800000 | (3 << 7) | 1);
    }
    for (int i = 8; i < 16; i++) {
        ck_assert(nv50_vm_translate(s, PD, i * 0x1000ull + 4, &t));
        ck_assert_uint_eq(t.addr, 0x800000 + (i - 8) * 0x1000 + 4);
    }
    nv50_free(s);
}
END_TEST

START_TEST(invalid_entries_fault)
{
    NV50State *s = card();
    NV50Translation t;

    /* nvkm's unused PDE value has bit 0 clear */
    wr64(s, PD, 0xdeadcafe00000000ull);
    ck_assert(!nv50_vm_translate(s, PD, 0, &t));
    wr64(s, PD, PT | 1);
    wr64(s, PT, 0x00100000);                     /* valid bit clear */
    ck_assert(!nv50_vm_translate(s, PD, 0, &t));
    wr64(s, PT, 0x00100000 | (1 << 4) | 1);      /* aperture 1: none */
    ck_assert(!nv50_vm_translate(s, PD, 0, &t));
    nv50_free(s);
}
END_TEST

START_TEST(page_table_in_system_memory)
{
    uint8_t *host = g_malloc0(0x10000);
    GuestRAM *ram = guest_ram_new();
    NV50State *s;
    NV50Translation t;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    guest_ram_add(ram, 0x40000000, 0x10000, host);
    s = nv50_new(&clk, ram, 16 << 20, NULL);
    /* PDE target 2 (bits 3:2 = 8): the PT lives in guest RAM */
    wr64(s, PD, 0x40000000ull | 8 | 1);
    stn_le_p(host + 3 * 8, 8, 0x00200000 | 1);
    /* not a bus master yet: the PTE read is refused (a master abort) */
    ck_assert(!nv50_vm_translate(s, PD, 3 * 0x10000ull + 8, &t));
    ck_assert_uint_eq(pci_config_read(PCI_DEVICE(s), PCI_STATUS, 2) &
                      PCI_STATUS_REC_MASTER_ABORT,
                      PCI_STATUS_REC_MASTER_ABORT);
    pci_config_write(PCI_DEVICE(s), PCI_COMMAND, PCI_COMMAND_MASTER, 2);
    ck_assert(nv50_vm_translate(s, PD, 3 * 0x10000ull + 8, &t));
    ck_assert_uint_eq(t.addr, 0x200008);
    nv50_free(s);
    guest_ram_free(ram);
    g_free(host);
}
END_TEST

Suite *hw_vm_suite(void)
{
    Suite *s = suite_create("hw-vm");
    TCase *tc = tcase_create("vm");

    tcase_add_test(tc, large_pages);
    tcase_add_test(tc, small_pages_and_table_size);
    tcase_add_test(tc, pte_blocks);
    tcase_add_test(tc, invalid_entries_fault);
    tcase_add_test(tc, page_table_in_system_memory);
    suite_add_tcase(s, tc);
    return s;
}
