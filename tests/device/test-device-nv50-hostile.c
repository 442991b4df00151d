/*
 * The hostile guest's BAR storm (tests/guest/hostile.sh, drm-hostile
 * storm) in process: tests/guest/hostile-storm.h's random reads and
 * writes from a seed against BAR0, BAR1 and BAR3 of the in-process card,
 * through PCI with guest-physical addresses as QEMU's proxy delivers
 * them (and its config writes turning bus mastering on and off), with both heads on display consoles, the virtual clock moving
 * (vblanks, PTIMER alarms, supervisor timeouts fire) and, now and then,
 * what a screendump reads (nv50_scanout_surface) asked for, and
 * -d guest_errors,unimp's logging on (into the rig's temporary file).
 * The card must keep answering (PMC_BOOT_0) and free itself at the end,
 * whatever its engines were left doing.  Nothing is asserted about what
 * the writes did.
 *
 * Bounded: GEMU_STORM_OPS operations (STORM_OPS by default) from
 * GEMU_STORM_SEED (the guest program's default, 1469); a guest storm that
 * broke gemu replays here with its seed and about as many operations as
 * it printed.  A hang shows as Check's timeout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rig.h"
#include "ui/console.h"
#include "../guest/hostile-storm.h"

#define STORM_OPS       200000
#define STORM_SEED      1469
#define STORM_TICK      512         /* operations between clock steps */
#define STORM_TICK_NS   (1000 * 1000)
#define STORM_SHOT      16384       /* operations between "screendumps" */

static DisplayConsole *heads[2];
static uint32_t bar_size[4];

/* A BAR's size, as firmware finds it: all ones, read back, restored. */
static uint32_t size_bar(int n)
{
    uint32_t reg = 0x10 + n * 4, mask;

    pci_config_write(rig.pci, reg, 0xffffffff, 4);
    mask = pci_config_read(rig.pci, reg, 4) & ~0xfu;
    return ~mask + 1;
}

static void setup(void)
{
    /* what the card logs about the storm goes through its formats too */
    rig_init(LOG_GUEST_ERROR | LOG_UNIMP);
    bar_size[1] = size_bar(1);
    bar_size[3] = size_bar(3);
    pci_config_write(rig.pci, 0x10, BAR0_GPA, 4);
    pci_config_write(rig.pci, 0x14, BAR1_GPA, 4);
    pci_config_write(rig.pci, 0x1c, BAR3_GPA, 4);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    for (int h = 0; h < 2; h++) {
        heads[h] = display_console_new(h ? "head1" : "head0");
        nv50_scanout_set_console(rig.s, h, heads[h]);
    }
}

static void teardown(void)
{
    for (int h = 0; h < 2; h++) {
        nv50_scanout_set_console(rig.s, h, NULL);
    }
    rig_teardown();
    for (int h = 0; h < 2; h++) {
        display_console_free(heads[h]);
    }
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = g_getenv(name);

    return v && *v ? g_ascii_strtoull(v, NULL, 0) : dflt;
}

static void screendump_both(void)
{
    for (int h = 0; h < 2; h++) {
        DisplaySurface surf;
        g_autofree char *err = NULL;

        if (!nv50_scanout_surface(rig.s, h, &surf, &err)) {
            ck_assert_ptr_nonnull(err);
        }
    }
}

START_TEST(bar_storm)
{
    uint64_t seed = env_u64("GEMU_STORM_SEED", STORM_SEED);
    uint64_t n = env_u64("GEMU_STORM_OPS", STORM_OPS), rng = seed;
    uint32_t bar1 = bar_size[1], bar3 = bar_size[3];
    const uint64_t base[4] = { BAR0_GPA, BAR1_GPA, 0, BAR3_GPA };
    unsigned long counts[4] = { 0 };
    StormOp op;

    ck_assert_uint_ge(bar1, 16u << 20);
    ck_assert_uint_ge(bar3, 16u << 20);
    for (uint64_t i = 0; i < n; i++) {
        storm_next(&rng, bar1, bar3, &op);
        if (op.bar == STORM_CONFIG) {
            pci_config_write(rig.pci, op.off, op.val, 4);
        } else if (op.write) {
            pci_mmio_write(rig.pci, base[op.bar] + op.off, op.val, 4);
        } else {
            (void)pci_mmio_read(rig.pci, base[op.bar] + op.off, 4);
        }
        counts[op.bar]++;
        if (i % STORM_TICK == STORM_TICK - 1) {
            gemu_clock_advance(&rig.clk, STORM_TICK_NS);
        }
        if (i % STORM_SHOT == STORM_SHOT - 1) {
            screendump_both();
        }
    }
    screendump_both();
    /* the card still answers; PMC_BOOT_0 is not writable */
    ck_assert_uint_eq(rd32(NV_PMC_ID), 0x084000a2);
    fprintf(stderr, "nv50_hostile: seed %llu: %lu BAR0, %lu BAR1, %lu BAR3 "
            "operations, %lu config writes\n", (unsigned long long)seed,
            counts[0], counts[1], counts[3], counts[STORM_CONFIG]);
}
END_TEST

Suite *nv50_hostile_suite(void)
{
    Suite *s = suite_create("nv50-hostile");
    TCase *tc = tcase_create("storm");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bar_storm);
    suite_add_tcase(s, tc);
    return s;
}
