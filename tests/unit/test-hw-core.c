/*
 * hw/core: MMIO dispatch through containers, unassigned accesses, access
 * size adaptation, RAM regions, IRQ lines, guest RAM/DMA, clocks, devices.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/core/clock.h"
#include "hw/core/device.h"
#include "hw/core/dma.h"
#include "hw/core/irq.h"
#include "hw/core/memory.h"
#include <check.h>

/* A register unit that records its last access. */
typedef struct Probe {
    const char *name;
    int reads, writes;
    hwaddr last_addr;
    unsigned last_size;
    uint64_t last_val;
    uint32_t reg[4];
} Probe;

static uint64_t probe_read(void *opaque, hwaddr addr, unsigned size)
{
    Probe *p = opaque;

    p->reads++;
    p->last_addr = addr;
    p->last_size = size;
    return p->reg[(addr / 4) & 3];
}

static void probe_write(void *opaque, hwaddr addr, uint64_t val,
                        unsigned size)
{
    Probe *p = opaque;

    p->writes++;
    p->last_addr = addr;
    p->last_size = size;
    p->last_val = val;
    p->reg[(addr / 4) & 3] = val;
}

static const MemoryRegionOps probe_ops32 = {
    .read = probe_read, .write = probe_write, .impl_min = 4, .impl_max = 4,
};

static char *capture_log(FILE *f)
{
    long n;
    char *buf;

    fflush(f);
    n = ftell(f);
    buf = g_malloc0(n + 1);
    rewind(f);
    ck_assert_int_eq(fread(buf, 1, n, f), n);
    return buf;
}

START_TEST(dispatch_to_owner)
{
    MemoryRegion top, a, b;
    Probe pa = { .name = "a" }, pb = { .name = "b" };

    memory_region_init_container(&top, "top", 0x10000);
    memory_region_init_io(&a, "a", 0x100, &probe_ops32, &pa);
    memory_region_init_io(&b, "b", 0x100, &probe_ops32, &pb);
    /* added out of order on purpose */
    memory_region_add_subregion(&top, 0x2000, &b);
    memory_region_add_subregion(&top, 0x1000, &a);

    pa.reg[1] = 0x11111111;
    pb.reg[2] = 0x22222222;
    ck_assert_uint_eq(memory_region_read(&top, 0x1004, 4), 0x11111111);
    ck_assert_uint_eq(pa.last_addr, 4);
    ck_assert_uint_eq(memory_region_read(&top, 0x2008, 4), 0x22222222);
    ck_assert_uint_eq(pb.last_addr, 8);
    memory_region_write(&top, 0x20fc, 0xabcd, 4);
    ck_assert_int_eq(pb.writes, 1);
    ck_assert_uint_eq(pb.last_addr, 0xfc);
    ck_assert_int_eq(pa.writes, 0);
    memory_region_destroy(&a);
    memory_region_destroy(&b);
    memory_region_destroy(&top);
}
END_TEST

START_TEST(unassigned_reads_zero_and_logs)
{
    MemoryRegion top, a;
    Probe pa = { 0 };
    FILE *f = tmpfile();
    g_autofree char *log = NULL;

    gemu_loglevel = LOG_GUEST_ERROR;
    gemu_log_set_file(f);
    memory_region_init_container(&top, "bar0", 0x10000);
    memory_region_init_io(&a, "a", 0x100, &probe_ops32, &pa);
    memory_region_add_subregion(&top, 0x1000, &a);

    ck_assert_uint_eq(memory_region_read(&top, 0x3000, 4), 0);
    memory_region_write(&top, 0x1100, 5, 4);      /* just past a */
    ck_assert_int_eq(pa.reads + pa.writes, 0);
    log = capture_log(f);
    ck_assert_ptr_nonnull(strstr(log, "bar0: read of 4 bytes from "
                                      "unassigned address 0x3000"));
    ck_assert_ptr_nonnull(strstr(log, "write of 4 bytes to unassigned "
                                      "address 0x1100"));
    gemu_log_set_file(NULL);
    fclose(f);
    memory_region_destroy(&a);
    memory_region_destroy(&top);
}
END_TEST

START_TEST(narrow_and_wide_accesses_adapt)
{
    MemoryRegion r;
    Probe p = { 0 };

    memory_region_init_io(&r, "r", 0x10, &probe_ops32, &p);
    p.reg[0] = 0x44332211;
    p.reg[1] = 0x88776655;
    ck_assert_uint_eq(memory_region_read(&r, 2, 1), 0x33);
    ck_assert_uint_eq(memory_region_read(&r, 2, 2), 0x4433);
    ck_assert_uint_eq(p.last_size, 4);
    ck_assert_uint_eq(memory_region_read(&r, 0, 8), 0x8877665544332211ull);
    ck_assert_int_eq(p.reads, 4);

    /* byte write: read-modify-write of the 32-bit register */
    memory_region_write(&r, 1, 0xaa, 1);
    ck_assert_uint_eq(p.reg[0], 0x4433aa11);
    ck_assert_uint_eq(p.last_size, 4);
    /* 8-byte write: two 32-bit writes, low word first */
    memory_region_write(&r, 8, 0x0102030405060708ull, 8);
    ck_assert_uint_eq(p.reg[2], 0x05060708);
    ck_assert_uint_eq(p.reg[3], 0x01020304);
    ck_assert_uint_eq(p.last_addr, 12);
    memory_region_destroy(&r);
}
END_TEST

START_TEST(ram_region_little_endian)
{
    MemoryRegion top, ram;
    uint8_t buf[16] = { 0 };
    uint8_t out[5];

    memory_region_init_container(&top, "top", 0x1000);
    memory_region_init_ram_ptr(&ram, "ram", sizeof(buf), buf);
    memory_region_add_subregion(&top, 0x100, &ram);
    memory_region_write(&top, 0x100, 0x1122334455667788ull, 8);
    ck_assert_uint_eq(buf[0], 0x88);
    ck_assert_uint_eq(buf[7], 0x11);
    ck_assert_uint_eq(memory_region_read(&top, 0x106, 2), 0x1122);
    memory_region_write_buf(&top, 0x109, "hello", 5);
    memory_region_read_buf(&top, 0x109, out, 5);
    ck_assert(!memcmp(out, "hello", 5));
    /* an access running past the region's end is unassigned */
    ck_assert_uint_eq(memory_region_read(&top, 0x10e, 4), 0);
    memory_region_destroy(&ram);
    memory_region_destroy(&top);
}
END_TEST

static int irq_calls, irq_last, irq_n;

static void irq_cb(void *opaque, int n, int level)
{
    irq_calls++;
    irq_last = level;
    irq_n = n;
}

START_TEST(irq_notifies_on_change_only)
{
    IRQLine l;

    irq_line_init(&l, irq_cb, NULL, 7);
    irq_calls = 0;
    irq_raise(&l);
    irq_raise(&l);
    ck_assert_int_eq(irq_calls, 1);
    ck_assert_int_eq(irq_last, 1);
    ck_assert_int_eq(irq_n, 7);
    irq_set_level(&l, 0);
    ck_assert_int_eq(irq_calls, 2);
    ck_assert_int_eq(irq_last, 0);
    irq_line_connect(&l, NULL, NULL, 0);
    irq_raise(&l);                  /* nobody listening: kept, no call */
    ck_assert_int_eq(irq_calls, 2);
    ck_assert_int_eq(irq_get_level(&l), 1);
}
END_TEST

START_TEST(dma_over_guest_ram)
{
    uint8_t lo[0x1000], hi[0x1000], buf[16];
    GuestRAM *ram = guest_ram_new();
    DmaAddressSpace as;

    memset(lo, 0, sizeof(lo));
    memset(hi, 0, sizeof(hi));
    ck_assert(guest_ram_add(ram, 0x10000, sizeof(lo), lo));
    ck_assert(guest_ram_add(ram, 0x11000, sizeof(hi), hi));
    ck_assert(!guest_ram_add(ram, 0x10800, 0x100, buf));   /* overlap */
    dma_as_init(&as, "test", ram);

    /* a copy across two adjacent blocks */
    ck_assert(dma_write(&as, 0x10ffc, "abcdefgh", 8));
    ck_assert(!memcmp(lo + 0xffc, "abcd", 4));
    ck_assert(!memcmp(hi, "efgh", 4));
    dma_stl(&as, 0x11010, 0xdeadbeef);
    ck_assert_uint_eq(dma_ldl(&as, 0x11010), 0xdeadbeef);
    ck_assert_uint_eq(hi[0x10], 0xef);

    /* running off the end fails and reads zeroes */
    memset(buf, 0x55, sizeof(buf));
    ck_assert(!dma_read(&as, 0x11ff8, buf, 16));
    ck_assert_uint_eq(buf[15], 0);
    ck_assert(!dma_read(&as, 0x20000, buf, 4));
    ck_assert_ptr_eq(guest_ram_ptr(ram, 0x11000, 0x1000), hi);
    ck_assert_ptr_null(guest_ram_ptr(ram, 0x10ff0, 0x20));
    guest_ram_free(ram);
}
END_TEST

static int fired[4], nfired;

static void timer_cb(void *opaque)
{
    fired[nfired++] = GPOINTER_TO_INT(opaque);
}

START_TEST(virtual_clock_timers)
{
    GemuClock clk;
    GemuTimer t1, t2, t3;

    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    nfired = 0;
    gemu_timer_init(&t1, &clk, timer_cb, GINT_TO_POINTER(1));
    gemu_timer_init(&t2, &clk, timer_cb, GINT_TO_POINTER(2));
    gemu_timer_init(&t3, &clk, timer_cb, GINT_TO_POINTER(3));
    gemu_timer_mod(&t1, 300);
    gemu_timer_mod(&t2, 100);
    gemu_timer_mod(&t3, 200);
    gemu_timer_del(&t3);
    ck_assert_int_eq(gemu_clock_next_deadline(&clk), 100);
    gemu_clock_advance(&clk, 99);
    ck_assert_int_eq(nfired, 0);
    ck_assert_int_eq(gemu_clock_get_ns(&clk), 99);
    gemu_clock_advance(&clk, 201);
    ck_assert_int_eq(nfired, 2);
    ck_assert_int_eq(fired[0], 2);
    ck_assert_int_eq(fired[1], 1);
    ck_assert_int_eq(gemu_clock_next_deadline(&clk), INT64_MAX);
    gemu_clock_destroy(&clk);
}
END_TEST

START_TEST(host_clock_moves)
{
    GemuClock clk;
    int64_t a, b;

    gemu_clock_init(&clk, GEMU_CLOCK_HOST);
    a = gemu_clock_get_ns(&clk);
    g_usleep(2000);
    b = gemu_clock_get_ns(&clk);
    ck_assert(b > a);
    gemu_clock_destroy(&clk);
}
END_TEST

static int realized, resets;

static bool dummy_realize(DeviceState *dev, GError **errp)
{
    if (device_get_prop_uint(dev, "size", 16) > 64) {
        g_set_error(errp, GEMU_DEVICE_ERROR, 0, "too big");
        return false;
    }
    realized++;
    return true;
}

static void dummy_reset(DeviceState *dev)
{
    resets++;
}

static const DeviceOps dummy_ops = {
    .type_name = "dummy", .realize = dummy_realize, .reset = dummy_reset,
};

START_TEST(device_lifecycle)
{
    DeviceState d;
    GError *err = NULL;

    realized = resets = 0;
    device_init(&d, &dummy_ops, NULL);
    ck_assert_str_eq(d.id, "dummy");
    ck_assert(device_set_prop_uint(&d, "size", 100, NULL));
    ck_assert(!device_realize(&d, &err));
    ck_assert_str_eq(err->message, "too big");
    g_clear_error(&err);
    ck_assert(device_set_prop_uint(&d, "size", 32, NULL));
    ck_assert(device_realize(&d, &err));
    ck_assert_int_eq(realized, 1);
    ck_assert_int_eq(resets, 1);            /* realize resets */
    ck_assert(!device_set_prop_uint(&d, "size", 8, &err));
    g_clear_error(&err);
    ck_assert_uint_eq(device_get_prop_uint(&d, "size", 0), 32);
    device_reset(&d);
    ck_assert_int_eq(resets, 2);
    device_finalize(&d);
}
END_TEST

Suite *hw_core_suite(void)
{
    Suite *s = suite_create("hw-core");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, dispatch_to_owner);
    tcase_add_test(tc, unassigned_reads_zero_and_logs);
    tcase_add_test(tc, narrow_and_wide_accesses_adapt);
    tcase_add_test(tc, ram_region_little_endian);
    tcase_add_test(tc, irq_notifies_on_change_only);
    tcase_add_test(tc, dma_over_guest_ram);
    tcase_add_test(tc, virtual_clock_timers);
    tcase_add_test(tc, host_clock_moves);
    tcase_add_test(tc, device_lifecycle);
    suite_add_tcase(s, tc);
    return s;
}
