/*
 * The hostile guest's BAR storm (tests/guest/hostile.sh): a seeded
 * sequence of random 32-bit reads and writes at random offsets of the
 * G84's BAR0 (registers), BAR1 (VRAM aperture) and BAR3 (instance
 * aperture).  Plain C, no library: drm-hostile.c applies it to sysfs
 * mappings of the BARs in the guest, tests/device/test-device-nv50-
 * hostile.c to the in-process card, so a storm that breaks gemu in the
 * guest can be replayed without one (same seed, same operations).
 *
 * BAR0 offsets are aimed, one operation in four, at the registers that
 * start or stop things (storm_regs[]: interrupt enables, PMC_ENABLE, the
 * BAR VM and PRAMIN window, the PFIFO channel table, runlist and
 * channels' PUTs, PTIMER's alarm, PGRAPH's FIFO access, the display's
 * channel control, pushbuffers and PUTs, EVO PIO methods), otherwise at
 * the units' rows of the block table (every row equally likely, then
 * mostly its first 512 bytes, where registers cluster), with one
 * operation in eight anywhere in the 16 MiB.  PPCI
 * (0x088000-0x088fff, the function's own config space mirrored) is
 * never touched: a write there moves or disables the BARs, as on the
 * hardware, and the storm would go on against nothing.  Values: zero,
 * all ones, one bit, small numbers, VRAM-sized addresses or any.
 *
 * One operation in 256 is instead a write of the command/status dword
 * of config space (STORM_CONFIG): bus mastering on or off at random,
 * memory decoding always on (as above), PCI_STATUS's Received Master
 * Abort acknowledged (write 1) one time in two.  drm-hostile writes it
 * through sysfs's config file, the device test with pci_config_write().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_GUEST_HOSTILE_STORM_H
#define TESTS_GUEST_HOSTILE_STORM_H

#include <stdint.h>

#define STORM_BAR0_SIZE     0x1000000u
#define STORM_PPCI_BASE     0x088000u
#define STORM_PPCI_SIZE     0x1000u

/* StormOp.bar of a config write (the G84 has no BAR 2) */
#define STORM_CONFIG        2
#define STORM_CFG_COMMAND   0x04u       /* PCI_COMMAND, PCI_STATUS above */
#define STORM_CMD_MEMORY    0x0002u
#define STORM_CMD_MASTER    0x0004u
#define STORM_STATUS_RMA    0x2000u     /* Received Master Abort, W1C */

typedef struct StormOp {
    int bar;            /* 0, 1 or 3; STORM_CONFIG: config space */
    uint32_t off;       /* byte offset in the BAR, 4-aligned */
    uint32_t val;       /* what a write writes */
    int write;          /* 0: a read */
} StormOp;

/* The rows of hw/nv50/nv50.c's block table that the storm aims at. */
static const struct {
    uint32_t base, size;
} storm_rows[] = {
    { 0x000000, 0x001000 },     /* PMC */
    { 0x001000, 0x000700 },     /* PBUS */
    { 0x001700, 0x000900 },     /* PBUS.HOST_MEM */
    { 0x002000, 0x002000 },     /* PFIFO */
    { 0x004000, 0x001000 },     /* PCLOCK */
    { 0x009000, 0x001000 },     /* PTIMER */
    { 0x00e000, 0x000800 },     /* PNVIO */
    { 0x070000, 0x001000 },     /* PFLUSH */
    { 0x090000, 0x002000 },     /* PFIFO_CACHE */
    { 0x100000, 0x001000 },     /* PFB */
    { 0x101000, 0x001000 },     /* PSTRAPS */
    { 0x300000, 0x100000 },     /* PROM */
    { 0x400000, 0x020000 },     /* PGRAPH */
    { 0x601000, 0x00f000 },     /* PRMIO */
    { 0x610000, 0x020000 },     /* PDISPLAY */
    { 0x640000, 0x010000 },     /* PDISPLAY_USER */
    { 0x700000, 0x100000 },     /* PMEM */
    { 0xc00000, 0x400000 },     /* DMA_USER */
};

/* Registers (base + i * stride, i < count) the storm aims at. */
static const struct {
    uint32_t base, stride, count;
} storm_regs[] = {
    { 0x000140, 0, 1 },         /* PMC_INTR_EN_HOST */
    { 0x000200, 0, 1 },         /* PMC_ENABLE: unit resets */
    { 0x001140, 0, 1 },         /* PBUS_INTR_EN */
    { 0x001700, 4, 4 },         /* PMEM window, BAR VM, BAR1/BAR3 DMA */
    { 0x002100, 0x40, 2 },      /* PFIFO_INTR, PFIFO_INTR_EN */
    { 0x002500, 0, 1 },         /* PFIFO_CACHES: runlist commit */
    { 0x002600, 4, 128 },       /* PFIFO channel table */
    { 0x003220, 0x30, 3 },      /* CACHE1_DMA_PUSH, PULL0, CACHE1_GET */
    { 0x0032ec, 8, 3 },         /* RUNLIST_COUNT, RUNLIST, CTX_UNLOAD */
    { 0x003330, 4, 2 },         /* IB_PUT, IB_GET */
    { 0x009100, 0x40, 2 },      /* PTIMER_INTR, INTR_ENABLE */
    { 0x009400, 0x10, 3 },      /* TIME_LOW, TIME_HIGH, ALARM */
    { 0x100c90, 0, 1 },         /* PFB VM trap */
    { 0x400100, 8, 2 },         /* PGRAPH INTR, TRAP */
    { 0x40013c, 0, 1 },         /* PGRAPH INTR_EN */
    { 0x400500, 0, 1 },         /* PGRAPH FIFO access */
    { 0x610010, 0x10, 3 },      /* PDISP_INST, INTR0, SUPER */
    { 0x610024, 4, 3 },         /* PDISP INTR1, INTR0_EN, INTR1_EN */
    { 0x610200, 4, 36 },        /* EVO channel control, pushbuffer */
    { 0x640000, 0x1000, 9 },    /* EVO channels' PUT */
    { 0x645080, 0x1000, 4 },    /* EVO PIO channels 5-8: UPDATE */
    { 0xc0008c, 0x2000, 128 },  /* channels' IB_PUT */
    { 0xc00040, 0x2000, 128 },  /* channels' DMA_PUT */
};

/* splitmix64: every seed, 0 included, gives a full-period sequence */
static inline uint64_t storm_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint32_t storm_value(uint64_t *state)
{
    uint64_t r = storm_rand(state);
    uint32_t v = (uint32_t)(r >> 32);

    switch (r & 7) {
    case 0:
        return 0;
    case 1:
        return 0xffffffffu;
    case 2:
        return 1u << (v & 31);
    case 3:
        return v & 0xff;
    case 4:
        return v & 0x0ffff000u;                 /* a 256 MiB address */
    default:
        return v;
    }
}

static inline uint32_t storm_bar0_offset(uint64_t *state)
{
    uint64_t r = storm_rand(state);
    uint32_t n = sizeof(storm_rows) / sizeof(storm_rows[0]);
    uint32_t off, span;

    if ((r & 3) == 1) {
        uint32_t i = (uint32_t)(r >> 8) %
                     (sizeof(storm_regs) / sizeof(storm_regs[0]));

        off = storm_regs[i].base + storm_regs[i].stride *
              ((uint32_t)(r >> 32) % storm_regs[i].count);
    } else if ((r & 7) == 0) {
        off = (uint32_t)(r >> 32) % STORM_BAR0_SIZE;
    } else {
        uint32_t row = (uint32_t)(r >> 8) % n;

        span = storm_rows[row].size;
        if (r & 0x10 && span > 0x200) {
            span = 0x200;
        }
        off = storm_rows[row].base + (uint32_t)(r >> 32) % span;
    }
    off &= ~3u;
    if (off - STORM_PPCI_BASE < STORM_PPCI_SIZE) {
        off += STORM_PPCI_SIZE;                 /* UNK089000: unassigned */
    }
    return off;
}

/*
 * The next operation; bar1_size and bar3_size are the BARs' sizes in
 * bytes (multiples of 4).  One in 256 is a config write (STORM_CONFIG);
 * of the rest, seven in ten are on BAR0, a third are reads.
 */
static inline void storm_next(uint64_t *state, uint32_t bar1_size,
                              uint32_t bar3_size, StormOp *op)
{
    uint64_t r = storm_rand(state);
    uint32_t pick = (uint32_t)(r % 20);

    if (((r >> 48) & 0xff) == 0) {
        op->bar = STORM_CONFIG;
        op->off = STORM_CFG_COMMAND;
        op->write = 1;
        op->val = STORM_CMD_MEMORY |
                  ((r >> 56) & 1 ? STORM_CMD_MASTER : 0) |
                  ((r >> 57) & 1 ? (uint32_t)STORM_STATUS_RMA << 16 : 0);
        return;
    }
    op->write = (r >> 8) % 3 != 0;
    if (pick < 14) {
        op->bar = 0;
        op->off = storm_bar0_offset(state);
    } else if (pick < 17) {
        op->bar = 1;
        op->off = (uint32_t)(storm_rand(state) % bar1_size) & ~3u;
    } else {
        op->bar = 3;
        op->off = (uint32_t)(storm_rand(state) % bar3_size) & ~3u;
    }
    op->val = op->write ? storm_value(state) : 0;
}

#endif
