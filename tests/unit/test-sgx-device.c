/*
 * SGX543 device: registers, events and the interrupt line, the kernel
 * CCB, the packet stream (malformed streams set the error registers and
 * are skipped, never crash), the MMU, and whole draws through the
 * device (output, depth and stencil).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/sgx543/sgx543.h"
#include "hw/sgx543/texture.h"
#include "hw/sgx543/pipeline.h"
#include "target/usse.h"
#include <check.h>

#define MEM_SIZE    (1u << 20)
#define CCB         0xf0000
#define CTL         0xf2000
#define CMDBUF      0x40000
#define FENCE_ADDR  0x8000
#define DONE_ADDR   0x8010

typedef struct Dev {
    uint8_t *ram;
    GuestRAM *guest_ram;
    Sgx543State *s;
    GArray *cmd;            /* uint32_t packet words */
    int irq_changes;
    bool irq;
} Dev;

static void irq_cb(void *opaque, int n, int level)
{
    Dev *d = opaque;

    d->irq = level;
    d->irq_changes++;
}

static Dev *dev_new(void)
{
    Dev *d = g_new0(Dev, 1);

    d->ram = g_malloc0(MEM_SIZE);
    d->guest_ram = guest_ram_new();
    ck_assert(guest_ram_add(d->guest_ram, 0, MEM_SIZE, d->ram));
    d->s = sgx543_new(d->guest_ram);
    d->cmd = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    irq_line_connect(sgx543_irq_line(d->s), irq_cb, d, 0);
    return d;
}

static void dev_free(Dev *d)
{
    sgx543_free(d->s);
    guest_ram_free(d->guest_ram);
    g_array_free(d->cmd, TRUE);
    g_free(d->ram);
    g_free(d);
}

static uint32_t rd(Dev *d, uint32_t pa)
{
    uint32_t v;

    memcpy(&v, d->ram + pa, 4);
    return GUINT32_FROM_LE(v);
}

static void wr(Dev *d, uint32_t pa, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(d->ram + pa, &v, 4);
}

static uint16_t rd16(Dev *d, uint32_t pa)
{
    return d->ram[pa] | d->ram[pa + 1] << 8;
}

static void wr16(Dev *d, uint32_t pa, uint16_t v)
{
    d->ram[pa] = v;
    d->ram[pa + 1] = v >> 8;
}

static uint32_t fbits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

/* Append a packet: opcode, then n payload dwords. */
static void pkt(Dev *d, unsigned op, unsigned n, ...)
{
    uint32_t h = SGX_PKT_HEADER(op, n);
    va_list ap;

    g_array_append_val(d->cmd, h);
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = va_arg(ap, uint32_t);
        g_array_append_val(d->cmd, v);
    }
    va_end(ap);
}

static void raw(Dev *d, uint32_t v)
{
    g_array_append_val(d->cmd, v);
}

/* Copy the packets to CMDBUF and run them directly; true if no error. */
static bool run(Dev *d)
{
    for (guint i = 0; i < d->cmd->len; i++) {
        wr(d, CMDBUF + 4 * i, g_array_index(d->cmd, uint32_t, i));
    }
    return sgx543_run_commands(d->s, CMDBUF, d->cmd->len * 4);
}

static uint32_t reg(Dev *d, uint32_t off)
{
    return sgx543_mmio_read(d->s, off);
}

/* Put the packets in CCB slot @slot and kick. */
static void submit(Dev *d, unsigned slot, uint32_t flags)
{
    uint32_t base = CCB + slot * SGX_CCB_SLOT_SIZE;

    for (guint i = 0; i < d->cmd->len; i++) {
        wr(d, CMDBUF + 4 * i, g_array_index(d->cmd, uint32_t, i));
    }
    sgx543_mmio_write(d->s, SGX_EMU_CCB_BASE, CCB);
    sgx543_mmio_write(d->s, SGX_EMU_CCB_CTL, CTL);
    wr(d, base, SGX_CMD_TA);
    wr(d, base + 4, 0);
    wr(d, base + 8, CMDBUF);
    wr(d, base + 12, d->cmd->len * 4);
    wr(d, base + 16, DONE_ADDR);
    wr(d, base + 20, 0x600d);
    wr(d, base + 24, flags);
    wr(d, CTL, (slot + 1) % SGX_CCB_SLOTS);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, SGX_EVENT_KICK_NOW);
}

START_TEST(ids_and_registers)
{
    Dev *d = dev_new();

    ck_assert_uint_eq(reg(d, SGX_CORE_ID), SGX_CORE_ID_VALUE);
    ck_assert_uint_eq(reg(d, SGX_CORE_REVISION), 0x00020106);
    ck_assert_uint_eq(reg(d, SGX_MASTER_BASE + SGX_CORE_ID),
                      SGX_CORE_ID_VALUE);
    /* flat addressing after reset */
    ck_assert_uint_eq(reg(d, SGX_BIF_CTRL) & SGX_BIF_CTRL_BYPASS_MASK,
                      SGX_BIF_CTRL_BYPASS_MASK);
    sgx543_mmio_write(d->s, SGX_USE_CODE_BASE(15), 0x1234000);
    ck_assert_uint_eq(reg(d, SGX_USE_CODE_BASE(15)), 0x1234000);
    ck_assert_uint_eq(reg(d, SGX_USE_CODE_BASE(0)), 0);
    /* read-only registers ignore writes */
    sgx543_mmio_write(d->s, SGX_CORE_ID, 0);
    ck_assert_uint_eq(reg(d, SGX_CORE_ID), SGX_CORE_ID_VALUE);
    /* the timer runs */
    ck_assert_uint_ne(reg(d, SGX_TIMER), reg(d, SGX_TIMER));
    dev_free(d);
}
END_TEST

START_TEST(events_and_irq)
{
    Dev *d = dev_new();

    /* a FENCE with SW_EVENT: status bit set, no IRQ until enabled */
    pkt(d, SGX_PKT_FENCE, 3, FENCE_ADDR, 0xabcd, 1);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 0xabcd);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_SW_EVENT);
    ck_assert(!(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_MASTER_INTERRUPT));
    ck_assert(!d->irq);
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_ENABLE, SGX_EVENT_SW_EVENT);
    ck_assert(d->irq);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_MASTER_INTERRUPT);
    ck_assert(sgx543_irq_level(d->s));
    /* write-1-to-clear */
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR, SGX_EVENT_TA_FINISHED);
    ck_assert(d->irq);
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR, SGX_EVENT_SW_EVENT);
    ck_assert(!d->irq);
    ck_assert_uint_eq(reg(d, SGX_EVENT_STATUS), 0);
    ck_assert_int_eq(d->irq_changes, 2);
    dev_free(d);
}
END_TEST

/* The hw/core side: a device object, BAR0 as a memory region (accesses
   split and widened), the IRQ line, reset, and memory in RAM blocks. */
START_TEST(core_device)
{
    Dev *d = dev_new();
    MemoryRegion *bar = sgx543_mmio_region(d->s);
    uint8_t *hi;
    GuestRAM *ram;
    Sgx543State *s;

    ck_assert_str_eq(device_type_name(DEVICE(d->s)), TYPE_SGX543);
    ck_assert_uint_eq(bar->size, SGX_MMIO_SIZE);
    ck_assert_uint_eq(memory_region_read(bar, SGX_CORE_ID, 4),
                      SGX_CORE_ID_VALUE);
    ck_assert_uint_eq(memory_region_read(bar, SGX_CORE_ID + 2, 2),
                      SGX_CORE_ID_VALUE >> 16);
    ck_assert_uint_eq(memory_region_read(bar, SGX_CORE_REVISION, 1), 0x06);
    memory_region_write(bar, SGX_USE_CODE_BASE(3), 0x12345678, 4);
    memory_region_write(bar, SGX_USE_CODE_BASE(3), 0xab, 1);
    ck_assert_uint_eq(reg(d, SGX_USE_CODE_BASE(3)), 0x123456ab);
    /* the IRQ line follows MASTER_INTERRUPT; reset lowers it */
    pkt(d, SGX_PKT_FENCE, 3, FENCE_ADDR, 1, 1);
    ck_assert(run(d));
    memory_region_write(bar, SGX_EVENT_HOST_ENABLE, SGX_EVENT_SW_EVENT, 4);
    ck_assert(irq_get_level(sgx543_irq_line(d->s)) && d->irq);
    device_reset(DEVICE(d->s));
    ck_assert(!d->irq && !sgx543_irq_level(d->s));
    ck_assert_uint_eq(reg(d, SGX_EVENT_HOST_ENABLE), 0);
    ck_assert_uint_eq(reg(d, SGX_USE_CODE_BASE(3)), 0);
    dev_free(d);

    /* memory in two blocks: 0..1 MiB and 1..1.25 MiB (adjacent), then a
       hole.  Copies cross the seam; a mapped range may not */
    d = dev_new();
    hi = g_malloc0(0x40000);
    ram = guest_ram_new();
    ck_assert(guest_ram_add(ram, 0, MEM_SIZE, d->ram));
    ck_assert(guest_ram_add(ram, MEM_SIZE, 0x40000, hi));
    s = d->s;
    sgx543_set_guest_ram(s, ram);
    pkt(d, SGX_PKT_FENCE, 2, MEM_SIZE - 2, 0xaabbccdd);
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0x11223344, SGX_XFER_U8U8U8U8_ABGR,
        MEM_SIZE + 0x100, 0, 0, 2, 1, 8);
    ck_assert(run(d));
    ck_assert_uint_eq(rd16(d, MEM_SIZE - 2), 0xccdd);
    ck_assert(hi[0] == 0xbb && hi[1] == 0xaa);
    ck_assert_uint_eq(ldn_le_p(hi + 0x104, 4), 0x11223344);
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0, SGX_XFER_U8U8U8U8_ABGR,
        MEM_SIZE - 4, 0, 0, 2, 1, 8);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    sgx543_mmio_write(s, SGX_EVENT_HOST_CLEAR2, ~0u);
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_FENCE, 2, MEM_SIZE + 0x40000, 1);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), MEM_SIZE + 0x40000);
    /* no memory at all: faults, no crash */
    sgx543_set_guest_ram(s, NULL);
    ck_assert(!sgx543_run_commands(s, CMDBUF, 8));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    sgx543_set_guest_ram(s, d->guest_ram);
    dev_free(d);
    guest_ram_free(ram);
    g_free(hi);
}
END_TEST

START_TEST(ccb_ring)
{
    Dev *d = dev_new();

    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 1);
    pkt(d, SGX_PKT_NOP, 0);
    submit(d, 0, SGX_CMD_FLAG_SW_EVENT);
    ck_assert_uint_eq(rd(d, CTL + 4), 1);           /* ReadOffset */
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 1);
    ck_assert_uint_eq(rd(d, DONE_ADDR), 0x600d);    /* status update */
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_SW_EVENT);
    ck_assert_uint_eq(reg(d, SGX_EVENT_STATUS2), 0);

    /* the ring wraps: slot 255, then offsets back to 0 */
    wr(d, CTL + 4, 255);
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 2);
    submit(d, 255, 0);
    ck_assert_uint_eq(rd(d, CTL + 4), 0);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 2);

    /* offsets out of range: a CCB error, nothing run */
    wr(d, CTL, 300);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert(reg(d, SGX_EVENT_STATUS2) & SGX_EVENT2_CCB_OVERFLOW);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_CCB);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_TA_DPM_FAULT);

    /* an unknown command type is an error, and its slot is consumed */
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR2, ~0u);
    wr(d, CCB, 99);
    wr(d, CTL, 1);
    wr(d, CTL + 4, 0);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_CCB);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_SLOT), 0);
    ck_assert_uint_eq(rd(d, CTL + 4), 1);

    /* a kick in soft reset does nothing; reset clears the events */
    sgx543_mmio_write(d->s, SGX_SOFT_RESET, 1);
    ck_assert_uint_eq(reg(d, SGX_EVENT_STATUS), 0);
    ck_assert_uint_eq(reg(d, SGX_EVENT_STATUS2), 0);
    wr(d, CTL, 2);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert_uint_eq(rd(d, CTL + 4), 1);
    sgx543_mmio_write(d->s, SGX_SOFT_RESET, 0);
    dev_free(d);
}
END_TEST

START_TEST(ccb_unconfigured)
{
    Dev *d = dev_new();

    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_CCB);
    dev_free(d);
}
END_TEST

/* error checks after a run: code, detail bit, packet address */
static void expect_error(Dev *d, SgxErrCode code, uint32_t bit,
                         uint32_t pkt_off)
{
    ck_assert_msg(reg(d, SGX_EMU_ERR_CODE) == code, "error %s, want %s",
                  sgx_error_name(reg(d, SGX_EMU_ERR_CODE)),
                  sgx_error_name(code));
    ck_assert(reg(d, SGX_EVENT_STATUS2) & bit);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_TA_DPM_FAULT);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_INFO), CMDBUF + pkt_off);
}

START_TEST(bad_packets_skipped)
{
    Dev *d = dev_new();

    /* unknown opcode (skipped by its length), then a FENCE still runs */
    pkt(d, 0x7f, 2, 1, 2);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 5);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_UNKNOWN_PACKET, SGX_EVENT2_BAD_PACKET, 0);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 5);

    /* a CLEAR with too few dwords; a FENCE with too many */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 6);
    pkt(d, SGX_PKT_CLEAR, 2, 0, 0);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_PACKET_LENGTH, SGX_EVENT2_BAD_PACKET, 12);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 6);

    /* draw and clear outside a scene; END_SCENE without BEGIN */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_CLEAR, 7, 0, 0, 0, 0, 0, 0, 1);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_NO_SCENE, SGX_EVENT2_BAD_PACKET, 0);
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_END_SCENE, 0);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_NO_SCENE, SGX_EVENT2_BAD_PACKET, 0);

    /* bad field values leave the state alone */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, 0x10000, 16, 99, 16, 16, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, 0x10000, 8, 0, 16, 16, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, 0x10000, 16, 0, 0, 16, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, 0x10000, 0x40000000, 0, 16, 2, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, 0x10000, 4096, 0, 4096, 4096, 0);
    pkt(d, SGX_PKT_BEGIN_SCENE, 9, 0x10000, 16, 0, 16, 16, 0, 0x20000, 1,
        0x40000000);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 3, 0, 9, 0);
    pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 2, 0, 0x00000509);  /* 5 comps */
    pkt(d, SGX_PKT_SET_TEXTURE, 6, 1, 16, 0, 0x00040004, 0, 0);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 2, 0, 0, 1, 0, 0, 0x0400);
    pkt(d, SGX_PKT_SET_VIEWPORT, 7, 2, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_DRAW, 4, 9, 0, 0, 3);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 7);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_NO_SCENE);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 7);
    dev_free(d);
}
END_TEST

START_TEST(overrun_and_jumps)
{
    Dev *d = dev_new();

    /* a header claiming more payload than the buffer holds: stop there */
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 1);
    raw(d, SGX_PKT_HEADER(SGX_PKT_FENCE, 100));
    raw(d, FENCE_ADDR);
    raw(d, 2);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_PACKET_OVERRUN, SGX_EVENT2_BAD_PACKET, 12);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 1);

    /* stray bytes at the end */
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR2, ~0u);
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_NOP, 0);
    ck_assert(run(d));
    ck_assert(!sgx543_run_commands(d->s, CMDBUF, 6));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_PACKET_OVERRUN);

    /* JUMP chains to another buffer */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_JUMP, 2, CMDBUF + 0x100, 12);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 0xdead);   /* jumped over */
    wr(d, CMDBUF + 0x100, SGX_PKT_HEADER(SGX_PKT_FENCE, 2));
    wr(d, CMDBUF + 0x104, FENCE_ADDR);
    wr(d, CMDBUF + 0x108, 0xbeef);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 0xbeef);

    /* a JUMP to itself ends with an error, not a hang */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_JUMP, 2, CMDBUF, 12);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_JUMP_LOOP);

    /* a buffer outside memory is an MMU fault */
    ck_assert(!sgx543_run_commands(d->s, MEM_SIZE + 0x1000, 8));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), MEM_SIZE + 0x1000);
    ck_assert(reg(d, SGX_EVENT_STATUS2) & SGX_EVENT2_MMU_FAULT);
    sgx543_mmio_write(d->s, SGX_BIF_CTRL, SGX_BIF_CTRL_BYPASS_MASK
                                         | SGX_BIF_CTRL_CLEAR_FAULT);
    ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), 0);
    dev_free(d);
}
END_TEST

START_TEST(wait_resumes)
{
    Dev *d = dev_new();

    pkt(d, SGX_PKT_WAIT, 3, FENCE_ADDR, 3, 1);      /* until >= 3 */
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR + 4, 0x77);
    submit(d, 0, 0);
    ck_assert_uint_eq(rd(d, CTL + 4), 0);           /* stalled */
    ck_assert_uint_eq(rd(d, FENCE_ADDR + 4), 0);
    wr(d, FENCE_ADDR, 2);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert_uint_eq(rd(d, CTL + 4), 0);
    wr(d, FENCE_ADDR, 4);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, 1);
    ck_assert_uint_eq(rd(d, CTL + 4), 1);
    ck_assert_uint_eq(rd(d, FENCE_ADDR + 4), 0x77);
    ck_assert_uint_eq(rd(d, DONE_ADDR), 0x600d);
    ck_assert_uint_eq(reg(d, SGX_EVENT_STATUS2), 0);
    dev_free(d);
}
END_TEST

/* The MMU: a page directory, a page table, one page mapped. */
START_TEST(mmu)
{
    Dev *d = dev_new();
    const uint32_t pd = 0x10000, pt = 0x11000, page = 0x20000;
    const uint32_t va = 0x40403000;     /* PD index 0x101, PT index 3 */

    wr(d, pd + 0x101 * 4, pt | 1);
    wr(d, pt + 3 * 4, page | 1);
    wr(d, pt + 4 * 4, (page + 0x1000) | 1 | SGX_MMU_READONLY);
    sgx543_mmio_write(d->s, SGX_BIF_DIR_LIST_BASE0, pd);
    sgx543_mmio_write(d->s, SGX_BIF_CTRL, 0);

    /* the command buffer itself is reached through the MMU */
    wr(d, page + 0x100, SGX_PKT_HEADER(SGX_PKT_FENCE, 2));
    wr(d, page + 0x104, va + 0x10);
    wr(d, page + 0x108, 0x1234);
    ck_assert(sgx543_run_commands(d->s, va + 0x100, 12));
    ck_assert_uint_eq(rd(d, page + 0x10), 0x1234);

    /* unmapped page, read-only page */
    wr(d, page + 0x104, va + 0x2000);
    ck_assert(!sgx543_run_commands(d->s, va + 0x100, 12));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), va + 0x2000);
    wr(d, page + 0x104, va + 0x1000);
    ck_assert(!sgx543_run_commands(d->s, va + 0x100, 12));
    ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), va + 0x1000);
    ck_assert_uint_eq(rd(d, page + 0x1000), 0);
    dev_free(d);
}
END_TEST

/* ---- draws through the device ---- */

#define COLOR       0x10000     /* 16x16 U8 colour surface */
#define DEPTH       0x11000     /* 16x16 depth/stencil */
#define CODE        0x1000
#define VERTS       0x2000
#define INDEX       0x3000

static void put_code(Dev *d, uint32_t pa, const char *src)
{
    g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autofree char *err = NULL;

    ck_assert_msg(usse_assemble(src, w, &err), "%s", err);
    for (guint i = 0; i < w->len; i++) {
        uint64_t v = g_array_index(w, uint64_t, i);
        wr(d, pa + 8 * i, (uint32_t)v);
        wr(d, pa + 8 * i + 4, (uint32_t)(v >> 32));
    }
}

/* Programs: position + colour through, colour out as F32 in pa0..3. */
static void setup_draw(Dev *d, uint32_t depth_fmt)
{
    put_code(d, CODE, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n"
                      "vmov.f32.rpt2 o4.xy, pa4.xyzw\n");
    put_code(d, CODE + 0x100, "vmov.f32.rpt2 pa0.xy, pa0.xyzw\n");
    sgx543_mmio_write(d->s, SGX_USE_CODE_BASE(1), CODE);
    for (int i = 0; i < 4; i++) {
        wr(d, INDEX + 2 * i, 0x0000 + i);
    }
    wr(d, INDEX, 0x00010000);
    wr(d, INDEX + 4, 0x00030002);
    pkt(d, SGX_PKT_BEGIN_SCENE, 9, COLOR, 16, SGX_COLOR_U8U8U8U8_ABGR, 16,
        16, 0, DEPTH, depth_fmt, 16);
    pkt(d, SGX_PKT_CLEAR, 7, 0, 0, 0, fbits(1.0f), fbits(1.0f), 0, 7);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 1, 0, 2, 0, 0, 8 << 8);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 1, 32, 1, 0, 0, 0, 0,
        SGX_FIN(0, SGX_REG_F32, 4, 0, 4, 0));
    pkt(d, SGX_PKT_SET_VERTEX_STREAMS, 2, VERTS, 32);
    pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 4, 0, 0x00000409 | 0 << 16,
        16 << 16, 0x00000409 | 4 << 16);
    pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_SET_VIEWPORT, 7, 1, fbits(8), fbits(8), fbits(-8),
        fbits(8), fbits(1), 0);
}

/* A full-screen quad at depth z with colour (r, g, b, 1), vertices from
   VERTS + 128 * slot. */
static void quad(Dev *d, unsigned slot, float z, float r, float g, float b)
{
    static const float xy[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 },
                                    { 1, 1 } };
    uint32_t base = VERTS + 128 * slot;

    for (int i = 0; i < 4; i++) {
        const float v[8] = { xy[i][0], xy[i][1], z, 1, r, g, b, 1 };
        for (int k = 0; k < 8; k++) {
            wr(d, base + 32 * i + 4 * k, fbits(v[k]));
        }
    }
    pkt(d, SGX_PKT_SET_VERTEX_STREAMS, 2, base, 32);
    pkt(d, SGX_PKT_DRAW, 4, SGX_PRIM_TRIANGLE_STRIP, 0, INDEX, 4);
}

static uint32_t pixel(Dev *d, int x, int y)
{
    return rd(d, COLOR + (y * 16 + x) * 4);
}

START_TEST(draw_fills)
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_NONE);
    quad(d, 0, 0.5f, 1.0f, 0.5f, 0.0f);
    pkt(d, SGX_PKT_END_SCENE, 0);
    ck_assert(run(d));
    /* every pixel, once: R 255, G 128 (0.5 rounds to even), B 0, A 255 */
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            ck_assert_uint_eq(pixel(d, x, y), 0xff0080ff);
        }
    }
    ck_assert_uint_eq(sgx543_draws(d->s), 1);
    ck_assert_uint_eq(sgx543_frames(d->s), 1);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_PIXELBE_END_RENDER);
    ck_assert(reg(d, SGX_EVENT_STATUS) & SGX_EVENT_TA_FINISHED);
    dev_free(d);
}
END_TEST

START_TEST(draw_depth)
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_F32);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 3, 0, SGX_CMP_LESS, 1);
    quad(d, 0, 0.5f, 1, 0, 0);      /* red at 0.5 */
    quad(d, 1, 0.75f, 0, 1, 0);     /* green behind: hidden */
    quad(d, 2, 0.25f, 0, 0, 1);     /* blue in front */
    pkt(d, SGX_PKT_SET_RASTER_STATE, 3, 0, SGX_CMP_GREATER, 0);
    quad(d, 3, 0.5f, 1, 1, 1);      /* white where depth > 0.25 */
    ck_assert(run(d));
    ck_assert_uint_eq(pixel(d, 3, 3), 0xffffffff);
    ck_assert_uint_eq(rd(d, DEPTH + 4 * 17), fbits(0.25f));
    /* depth write off: the last quad left 0.25 */
    dev_free(d);
}
END_TEST

START_TEST(draw_stencil)
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_S8D24);
    /* pass 1: stencil ALWAYS, REPLACE with 5 on pass; colour masked */
    pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 0, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 10, 0, SGX_CMP_ALWAYS, 0,
        SGX_CMP_ALWAYS, SGX_STENCIL_KEEP, SGX_STENCIL_KEEP,
        SGX_STENCIL_REPLACE, 0xff, 0xff, 5);
    quad(d, 0, 0.5f, 1, 1, 1);
    /* pass 2: draw green where stencil == 5, and count up (INCR) */
    pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 10, 0, SGX_CMP_ALWAYS, 0,
        SGX_CMP_EQUAL, SGX_STENCIL_KEEP, SGX_STENCIL_KEEP,
        SGX_STENCIL_INCR, 0xff, 0xff, 5);
    quad(d, 1, 0.5f, 0, 1, 0);
    /* pass 3: red where stencil == 5 (none left) */
    quad(d, 2, 0.5f, 1, 0, 0);
    ck_assert(run(d));
    ck_assert_uint_eq(pixel(d, 7, 9), 0xff00ff00);
    /* cleared depth 1.0 (0xffffff), stencil 6 */
    ck_assert_uint_eq(rd(d, DEPTH + 4 * (9 * 16 + 7)), 0x06ffffff);
    dev_free(d);
}
END_TEST

/* Fragment input and output formats: the colour arrives as four unorm
   bytes in pa0 (U8 input), is copied to o0 and read back as U8 from the
   o bank; then as F16 halves in pa0..1, copied as they are. */
START_TEST(draw_formats)
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_NONE);
    put_code(d, CODE + 0x100, "vmov.f32 o0.x, pa0.xyzw\n");
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 1, 32, 1, 0, 0,
        SGX_PROG_OUT_O << 16, 0 | SGX_REG_U8 << 8,
        SGX_FIN(0, SGX_REG_U8, 4, 0, 4, 0));
    quad(d, 0, 0.5f, 1.0f, 0.25f, 0.0f);
    ck_assert(run(d));
    /* 0.25 * 255 = 63.75 -> 64 */
    ck_assert_uint_eq(pixel(d, 8, 8), 0xff0040ff);

    g_array_set_size(d->cmd, 0);
    put_code(d, CODE + 0x100, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n");
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 1, 32, 1, 0, 0,
        SGX_PROG_OUT_O << 16, 0 | SGX_REG_F16 << 8,
        SGX_FIN(0, SGX_REG_F16, 4, 0, 4, 0));
    quad(d, 1, 0.5f, 0.0f, 0.5f, 1.0f);
    ck_assert(run(d));
    ck_assert_uint_eq(pixel(d, 8, 8), 0xffff8000);
    dev_free(d);
}
END_TEST

/* SceGxmTexture words: no mips, point sampling, repeat. */
static void tex_words(uint32_t w[4], uint32_t format, SgxTexType type,
                      unsigned width, unsigned height, uint32_t data)
{
    SgxTexParams p;
    const char *why;

    sgx_tex_params_init(&p);
    p.format = format;
    p.type = type;
    p.width = width;
    p.height = height;
    p.data = data;
    ck_assert(sgx_tex_encode(&p, w, &why));
}

/* A dependent texture read: the fragment program's SMP, with the
   texture's control words in SA (SET_TEXTURE's SA copy), goes through
   the device's sampler. */
START_TEST(draw_dependent_texture)
{
    static const float vtx[4][6] = {    /* x y z w u v */
        { -1, -1, 0.5f, 1, 0, 0 }, { 1, -1, 0.5f, 1, 1, 0 },
        { -1, 1, 0.5f, 1, 0, 1 }, { 1, 1, 0.5f, 1, 1, 1 },
    };
    Dev *d = dev_new();
    uint32_t w[4];

    put_code(d, CODE, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n"
                      "vmov.f32 o4.xy, pa4.xyzw\n");
    put_code(d, CODE + 0x100, "smp.2d r0, pa0.f32, sa0, #0\n"
                              "vmov.f32.rpt2 pa0.xy, r0.xyzw\n");
    sgx543_mmio_write(d->s, SGX_USE_CODE_BASE(0), CODE);
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 6; k++) {
            wr(d, VERTS + 24 * i + 4 * k, fbits(vtx[i][k]));
        }
    }
    wr(d, INDEX, 0x00010000);
    wr(d, INDEX + 4, 0x00030002);
    for (int t = 0; t < 16; t++) {      /* texel t: R = 16 t, A = 255 */
        /* linear rows are 8 texels apart */
        wr(d, 0x6000 + 4 * (t % 4 + 8 * (t / 4)), 0xff000000 | (16 * t));
    }
    tex_words(w, 0x0c000000, SGX_TEXTYPE_LINEAR, 4, 4, 0x6000);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 16, 0, 16, 16, 0);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 0, 0, 2, 0, 0, 6 << 8);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 0, 32, 2, 0, 0, 0, 0,
        SGX_FIN(0, SGX_REG_F32, 2, 0, 4, 0));
    pkt(d, SGX_PKT_SET_TEXTURE, 7, 1, 3, w[0], w[1], w[2], w[3], 0);
    pkt(d, SGX_PKT_SET_VERTEX_STREAMS, 2, VERTS, 24);
    pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 4, 0, 0x00000409,
        16 << 16, 0x00040209);
    pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_SET_VIEWPORT, 7, 1, fbits(8), fbits(8), fbits(-8),
        fbits(8), fbits(1), 0);
    pkt(d, SGX_PKT_DRAW, 4, SGX_PRIM_TRIANGLE_STRIP, 0, INDEX, 4);
    ck_assert(run(d));
    /* v = 0 at the bottom: pixel row 15 is texel row 0 */
    ck_assert_uint_eq(pixel(d, 1, 15), 0xff000000);
    ck_assert_uint_eq(pixel(d, 5, 14), 0xff000010);
    ck_assert_uint_eq(pixel(d, 14, 12), 0xff000030);
    ck_assert_uint_eq(pixel(d, 1, 0), 0xff0000c0);
    ck_assert_uint_eq(pixel(d, 15, 0), 0xff0000f0);
    dev_free(d);
}
END_TEST

/*
 * Draw primitive @prim through setup_draw's programs (clear black,
 * colour white): vertices at screen positions @xy (pixels, y down; w =
 * @w), indices 0..n-1.
 */
static void prim_at(Dev *d, unsigned prim, unsigned n, const float *xy,
                    float w)
{
    for (unsigned i = 0; i < n; i++) {
        const float v[8] = {
            (xy[2 * i] - 8) / 8 * w, (8 - xy[2 * i + 1]) / 8 * w, 0.5f * w, w,
            1, 1, 1, 1,
        };
        for (int k = 0; k < 8; k++) {
            wr(d, VERTS + 32 * i + 4 * k, fbits(v[k]));
        }
        wr(d, INDEX + 0x100 + 4 * i, i);
    }
    pkt(d, SGX_PKT_SET_VERTEX_STREAMS, 2, VERTS, 32);
    pkt(d, SGX_PKT_DRAW, 4, prim, 1, INDEX + 0x100, n);
}

/* The pixels set (white) as a 16x16 bit image, rows of 16 bits. */
static void covered(Dev *d, uint16_t rows[16])
{
    for (int y = 0; y < 16; y++) {
        rows[y] = 0;
        for (int x = 0; x < 16; x++) {
            if (pixel(d, x, y) == 0xffffffff) {
                rows[y] |= 1u << x;
            }
        }
    }
}

static void expect_rows(Dev *d, const uint16_t want[16])
{
    uint16_t got[16];

    covered(d, got);
    for (int y = 0; y < 16; y++) {
        ck_assert_msg(got[y] == want[y], "row %d: %04x, want %04x", y,
                      got[y], want[y]);
    }
}

/* One primitive on a cleared surface; the pixels it covers. */
static void draw_one(unsigned prim, unsigned n, const float *xy,
                     unsigned width, const uint16_t want[16])
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_NONE);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 11, 0, SGX_CMP_ALWAYS, 0,
        SGX_CMP_ALWAYS, 0, 0, 0, 0xff, 0xff, 0, width);
    prim_at(d, prim, n, xy, 1.0f);
    ck_assert(run(d));
    expect_rows(d, want);
    dev_free(d);
}

/* Lines: the half-open parallelogram of width w around the segment,
   across its major axis (docs/devel/sgx543.md "Lines and points"). */
START_TEST(draw_lines)
{
    static const uint16_t none[16];
    uint16_t want[16];

    /* horizontal, centres to centres: x 2..8 on row 5 (last omitted) */
    memset(want, 0, sizeof(want));
    want[5] = 0x01fc;
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 2.5f, 5.5f, 9.5f, 5.5f },
             1, want);
    /* the other way: the same pixels (the right end is omitted either
       way) */
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 9.5f, 5.5f, 2.5f, 5.5f },
             1, want);
    /* vertical, on pixel edges: column 3 (centres 3.5 in [3, 4)) */
    memset(want, 0, sizeof(want));
    for (int y = 1; y < 6; y++) {
        want[y] = 1u << 3;
    }
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 4.0f, 1.0f, 4.0f, 6.0f },
             1, want);
    /* diagonal: (k, k) for k = 2..8 */
    memset(want, 0, sizeof(want));
    for (int k = 2; k <= 8; k++) {
        want[k] = 1u << k;
    }
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 2.5f, 2.5f, 9.5f, 9.5f },
             1, want);
    /* width 3: rows 4..6 */
    memset(want, 0, sizeof(want));
    want[4] = want[5] = want[6] = 0x01fc;
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 2.5f, 5.5f, 9.5f, 5.5f },
             3, want);
    /* a strip of two segments joins without a gap or a double pixel */
    memset(want, 0, sizeof(want));
    want[5] = 0x03fc;
    for (int y = 6; y < 12; y++) {
        want[y] = 1u << 9;
    }
    draw_one(SGX_PRIM_LINE_STRIP, 3,
             (const float[]) { 2.5f, 5.5f, 9.5f, 5.5f, 9.5f, 12.5f }, 1,
             want);
    /* one index, or a zero-length line: nothing */
    draw_one(SGX_PRIM_LINES, 1, (const float[]) { 2.5f, 5.5f }, 1, none);
    draw_one(SGX_PRIM_LINES, 2, (const float[]) { 2.5f, 5.5f, 2.5f, 5.5f },
             1, none);
    /* triangle edges: the three edges of a right triangle */
    memset(want, 0, sizeof(want));
    want[2] = 0x00fc;               /* (2..7, 2): top edge */
    for (int y = 3; y < 8; y++) {   /* (8, 2..7) right edge; then back */
        want[y] = 1u << 8;
    }
    want[2] |= 1u << 8;
    for (int k = 3; k < 8; k++) {   /* the hypotenuse (8, 8) -> (2, 2) */
        want[k] |= 1u << k;
    }
    draw_one(SGX_PRIM_TRIANGLE_EDGES, 3,
             (const float[]) { 2.5f, 2.5f, 8.5f, 2.5f, 8.5f, 8.5f }, 1,
             want);
}
END_TEST

/* Points: a half-open square of the point size around the vertex. */
START_TEST(draw_points)
{
    uint16_t want[16];
    Dev *d;

    memset(want, 0, sizeof(want));
    want[4] = want[5] = want[6] = 0x0070;
    draw_one(SGX_PRIM_POINTS, 1, (const float[]) { 5.5f, 5.5f }, 3, want);
    memset(want, 0, sizeof(want));
    want[4] = want[5] = 0x0030;
    draw_one(SGX_PRIM_POINTS, 1, (const float[]) { 5.0f, 5.0f }, 2, want);
    memset(want, 0, sizeof(want));
    want[0] = 0x0001;               /* clipped by the surface */
    want[15] = 0x8000;
    draw_one(SGX_PRIM_POINTS, 2,
             (const float[]) { 0.2f, 0.2f, 15.7f, 15.7f }, 1, want);

    /* the size from the program's PSIZE output (its last, o8) */
    d = dev_new();
    setup_draw(d, SGX_DEPTH_NONE);
    put_code(d, CODE, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n"
                      "vmov.f32.rpt2 o4.xy, pa4.xyzw\n"
                      "limm o8, 0x40800000\n");      /* 4.0 */
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 1, 0, 3, 0, 0,
        9 << 8 | SGX_PROG_PSIZE << 16);
    prim_at(d, SGX_PRIM_POINTS, 1, (const float[]) { 8.0f, 8.0f }, 1.0f);
    ck_assert(run(d));
    memset(want, 0, sizeof(want));
    want[6] = want[7] = want[8] = want[9] = 0x03c0;
    expect_rows(d, want);
    dev_free(d);

    /* behind the viewer (w < 0): dropped; a line to there is clipped */
    d = dev_new();
    setup_draw(d, SGX_DEPTH_NONE);
    prim_at(d, SGX_PRIM_POINTS, 1, (const float[]) { 5.5f, 5.5f }, -1.0f);
    ck_assert(run(d));
    memset(want, 0, sizeof(want));
    expect_rows(d, want);
    g_array_set_size(d->cmd, 0);
    for (int i = 0; i < 2; i++) {
        /* (-0.5, 0.25, 0.5, 1) to (1.5, -0.25, 0.5, -1): y / w stays 0.25
           (y = 6.0, the band [5.5, 6.5): row 5), x / w runs from -0.5
           (x 4) to infinity at w = 0 */
        const float v[2][8] = { { -0.5f, 0.25f, 0.5f, 1, 1, 1, 1, 1 },
                                { 1.5f, -0.25f, 0.5f, -1, 1, 1, 1, 1 } };
        for (int k = 0; k < 8; k++) {
            wr(d, VERTS + 32 * i + 4 * k, fbits(v[i][k]));
        }
        wr(d, INDEX + 0x100 + 4 * i, i);
    }
    pkt(d, SGX_PKT_DRAW, 4, SGX_PRIM_LINES, 1, INDEX + 0x100, 2);
    ck_assert(run(d));
    covered(d, want);
    ck_assert_uint_eq(want[4] | want[6], 0);
    ck_assert_uint_eq(want[5], 0xfff0);
    dev_free(d);
}
END_TEST

/* Bad line/point state: refused, the state kept. */
START_TEST(draw_line_errors)
{
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_NONE);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 11, 0, 7, 0, 7, 0, 0, 0, 255, 255, 0,
        0);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_BAD_VALUE);
    g_array_set_size(d->cmd, 0);
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR2, ~0u);
    pkt(d, SGX_PKT_SET_RASTER_STATE, 11, 0, 7, 0, 7, 0, 0, 0, 255, 255, 0,
        65);
    pkt(d, SGX_PKT_DRAW, 4, 7, 0, INDEX, 2);            /* no primitive 7 */
    /* PSIZE needs a fifth output */
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 1, 0, 2, 0, 0,
        4 << 8 | SGX_PROG_PSIZE << 16);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_BAD_VALUE);
    /* the width stayed 1, the programs stayed: one pixel wide */
    g_array_set_size(d->cmd, 0);
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR2, ~0u);
    prim_at(d, SGX_PRIM_LINES, 2, (const float[]) { 2.5f, 5.5f, 9.5f, 5.5f },
            1.0f);
    ck_assert(run(d));
    {
        uint16_t rows[16];
        covered(d, rows);
        ck_assert_uint_eq(rows[4] | rows[6], 0);
        ck_assert_uint_eq(rows[5], 0x01fc);
    }
    dev_free(d);
}
END_TEST

#define TEX         0x60000

/*
 * A textured full-screen strip on a black 16x16 surface: position and
 * (u, v) from 0 to @umax in; fragment program @frag with one input
 * descriptor @fin, its output F32 in pa0..3.  The caller sets the
 * texture and draws with DRAW_STRIP.
 */
static void tex_setup(Dev *d, const char *frag, uint32_t fin, float umax)
{
    const float vtx[4][6] = {       /* x y z w u v */
        { -1, -1, 0.5f, 1, 0, 0 }, { 1, -1, 0.5f, 1, umax, 0 },
        { -1, 1, 0.5f, 1, 0, umax }, { 1, 1, 0.5f, 1, umax, umax },
    };

    put_code(d, CODE, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n"
                      "vmov.f32 o4.xy, pa4.xyzw\n");
    put_code(d, CODE + 0x100, frag);
    sgx543_mmio_write(d->s, SGX_USE_CODE_BASE(0), CODE);
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 6; k++) {
            wr(d, VERTS + 24 * i + 4 * k, fbits(vtx[i][k]));
        }
    }
    wr(d, INDEX, 0x00010000);
    wr(d, INDEX + 4, 0x00030002);
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 16, 0, 16, 16, 0);
    pkt(d, SGX_PKT_CLEAR, 7, 0, 0, 0, fbits(1.0f), fbits(1.0f), 0, 1);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 0, 0, 2, 0, 0, 6 << 8);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 0, 32, 2, 0, 0, 0, 0, fin);
    pkt(d, SGX_PKT_SET_VERTEX_STREAMS, 2, VERTS, 24);
    pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 4, 0, 0x00000409,
        16 << 16, 0x00040209);
    pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
    pkt(d, SGX_PKT_SET_VIEWPORT, 7, 1, fbits(8), fbits(8), fbits(-8),
        fbits(8), fbits(1), 0);
}

#define DRAW_STRIP(d) \
    pkt(d, SGX_PKT_DRAW, 4, SGX_PRIM_TRIANGLE_STRIP, 0, INDEX, 4)

/* the non-dependent read: texture unit 0 at (o4, o5) into pa0..3 */
#define FRAG_READ   "vmov.f32.rpt2 pa0.xy, pa0.xyzw\n"
#define FIN_READ    SGX_FIN(1, SGX_REG_F32, 4, 0, 4, 0)
/* the dependent read: SMP with the words in sa0..3 */
#define FRAG_SMP    "smp.2d r0, pa0.f32, sa0, #0\n" \
                    "vmov.f32.rpt2 pa0.xy, r0.xyzw\n"
#define FIN_SMP     SGX_FIN(0, SGX_REG_F32, 2, 0, 4, 0)

/* 64x64 swizzled, 7 levels; level l solid R = 10 (l + 1), A = 255. */
static void mip_texture(Dev *d, uint32_t w[4])
{
    SgxTexParams p;
    SgxTexture t;
    const char *why;

    sgx_tex_params_init(&p);
    p.type = SGX_TEXTYPE_SWIZZLED;
    p.width = p.height = 64;
    p.levels = 7;
    p.data = TEX;
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert(sgx_tex_decode(w, &t, &why));
    for (unsigned l = 0; l < 7; l++) {
        for (unsigned i = 0; i < (64u >> l) * (64u >> l); i++) {
            wr(d, TEX + t.level_offset[l] + 4 * i, 0xff000000 | 10 * (l + 1));
        }
    }
}

/* Mip levels chosen by the LOD from the quad's coordinate differences,
   on the non-dependent read and in SMP alike. */
START_TEST(draw_texture_mips)
{
    static const struct {
        float umax;
        uint32_t pixel;
    } cases[] = {
        { 0.25f, 0xff00000a },      /* 1 texel a pixel: level 0 */
        { 1.0f, 0xff00001e },       /* 4 texels: level 2 */
        { 16.0f, 0xff000046 },      /* 64 texels: level 6 */
    };

    for (int smp = 0; smp < 2; smp++) {
        for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
            Dev *d = dev_new();
            uint32_t w[4];

            mip_texture(d, w);
            tex_setup(d, smp ? FRAG_SMP : FRAG_READ, smp ? FIN_SMP : FIN_READ,
                      cases[c].umax);
            pkt(d, SGX_PKT_SET_TEXTURE, 7, 1, 0, w[0], w[1], w[2], w[3], 0);
            DRAW_STRIP(d);
            ck_assert(run(d));
            for (int y = 0; y < 16; y += 5) {
                for (int x = 0; x < 16; x += 3) {
                    ck_assert_msg(pixel(d, x, y) == cases[c].pixel,
                                  "%s umax %g (%d, %d): %08x",
                                  smp ? "smp" : "read", cases[c].umax, x, y,
                                  pixel(d, x, y));
                }
            }
            dev_free(d);
        }
    }
}
END_TEST

/* Illegal texture words: SET_TEXTURE refuses them (the unit keeps what
   it had); in SMP they end the draw; faults likewise. */
START_TEST(draw_texture_errors)
{
    Dev *d = dev_new();
    uint32_t w[4], bad[4];
    unsigned off;

    /* SET_TEXTURE with type 1: BAD_VALUE, the unit keeps its texture */
    mip_texture(d, w);
    tex_setup(d, FRAG_READ, FIN_READ, 1.0f);
    pkt(d, SGX_PKT_SET_TEXTURE, 7, 1, 0, w[0], w[1], w[2], w[3], 0);
    off = d->cmd->len * 4;
    pkt(d, SGX_PKT_SET_TEXTURE, 6, 1, 0, w[0],
        (w[1] & 0x1fffffffu) | 1u << 29, w[2], w[3]);
    pkt(d, SGX_PKT_SET_TEXTURE, 6, 1, 0, w[0], w[1], 0, w[3]);  /* no data */
    DRAW_STRIP(d);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_BAD_VALUE);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_INFO), CMDBUF + off + 28);
    ck_assert_uint_eq(pixel(d, 5, 5), 0xff00001e);
    ck_assert_uint_eq(sgx543_draws(d->s), 1);
    dev_free(d);

    /* SMP with illegal words (type 1, from the default uniform buffer in
       SA): BAD_VALUE, nothing stored, the stream goes on */
    d = dev_new();
    mip_texture(d, w);
    memcpy(bad, w, sizeof(bad));
    bad[1] = (bad[1] & 0x1fffffffu) | 1u << 29;
    for (int i = 0; i < 4; i++) {
        wr(d, 0x7000 + 4 * i, bad[i]);
    }
    tex_setup(d, FRAG_SMP, FIN_SMP, 1.0f);
    pkt(d, SGX_PKT_SET_UNIFORM_BUFFER, 5, 1, 14, 0x7000, 16, 0);
    off = d->cmd->len * 4;
    DRAW_STRIP(d);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 3);
    ck_assert(!run(d));
    expect_error(d, SGX_ERR_BAD_VALUE, SGX_EVENT2_BAD_PACKET, off);
    ck_assert_uint_eq(pixel(d, 5, 5), 0xff000000);
    ck_assert_uint_eq(pixel(d, 15, 15), 0xff000000);
    ck_assert_uint_eq(sgx543_draws(d->s), 0);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 3);
    dev_free(d);

    /* texture data outside memory: an MMU fault, by either path */
    for (int smp = 0; smp < 2; smp++) {
        SgxTexParams p;
        const char *why;

        d = dev_new();
        sgx_tex_params_init(&p);
        p.width = p.height = 16;
        p.data = MEM_SIZE - 64;
        ck_assert(sgx_tex_encode(&p, w, &why));
        tex_setup(d, smp ? FRAG_SMP : FRAG_READ, smp ? FIN_SMP : FIN_READ,
                  1.0f);
        pkt(d, SGX_PKT_SET_TEXTURE, 7, 1, 0, w[0], w[1], w[2], w[3], 0);
        DRAW_STRIP(d);
        ck_assert(!run(d));
        ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
        ck_assert(reg(d, SGX_EVENT_STATUS2) & SGX_EVENT2_MMU_FAULT);
        ck_assert_uint_eq(reg(d, SGX_BIF_FAULT), MEM_SIZE - 64);
        ck_assert_uint_eq(pixel(d, 5, 5), 0xff000000);
        ck_assert_uint_eq(sgx543_draws(d->s), 0);
        dev_free(d);
    }
}
END_TEST

#define XSRC        0x60000
#define XDST        0x70000

/* TRANSFER_COPY of w x h, no colour key */
static void xcopy(Dev *d, uint32_t w, uint32_t h, uint32_t sfmt,
                  uint32_t saddr, uint32_t sx, uint32_t sy, int32_t sstride,
                  uint32_t dfmt, uint32_t daddr, uint32_t dx, uint32_t dy,
                  int32_t dstride)
{
    pkt(d, SGX_PKT_TRANSFER_COPY, 15, w, h, 0, 0, 0, sfmt, saddr, sx, sy,
        (uint32_t)sstride, dfmt, daddr, dx, dy, (uint32_t)dstride);
}

/* Pixel conversions through U8U8U8U8: fields expanded by repeating
   their high bits, packed by keeping them (SDK transfer notes). */
START_TEST(transfer_formats)
{
    uint8_t c[4];

    sgx_xfer_unpack(3, 0xf800, c);          /* U5U6U5_BGR: B = 31 */
    ck_assert(c[0] == 0 && c[1] == 0 && c[2] == 0xff && c[3] == 0xff);
    sgx_xfer_unpack(3, 0x0400, c);          /* G = 32: 0x82 */
    ck_assert_uint_eq(c[1], 0x82);
    sgx_xfer_unpack(1, 0x8f41, c);          /* U4U4U4U4_ABGR */
    ck_assert(c[0] == 0x11 && c[1] == 0x44 && c[2] == 0xff && c[3] == 0x88);
    sgx_xfer_unpack(2, 0x8001, c);          /* U1U5U5U5_ABGR */
    ck_assert(c[0] == 0x08 && c[3] == 0xff);
    sgx_xfer_unpack(0, 0x7f, c);            /* U8_R */
    ck_assert(c[0] == 0x7f && c[1] == 0 && c[2] == 0 && c[3] == 0xff);
    sgx_xfer_unpack(0xd, 0xc00003ff, c);    /* U2U10U10U10_ABGR */
    ck_assert(c[0] == 0xff && c[1] == 0 && c[3] == 0xff);
    ck_assert_uint_eq(sgx_xfer_pack(1, (const uint8_t[]) { 0x10, 0x40, 0xff,
                                                           0x80 }), 0x8f41);
    ck_assert_uint_eq(sgx_xfer_pack(3, (const uint8_t[]) { 0xff, 0x82, 0x07,
                                                           0 }), 0x041f);
    ck_assert_uint_eq(sgx_xfer_pack(0xd, (const uint8_t[]) { 0xff, 0x80, 0,
                                                             0x40 }),
                      0x40000000u | 0x202u << 10 | 0x3ff);
    ck_assert_uint_eq(sgx_xfer_pack(5, (const uint8_t[]) { 1, 2, 3, 4 }),
                      0x030201);
}
END_TEST

START_TEST(transfer_fill_copy)
{
    Dev *d = dev_new();

    /* fill: 3x2 at (1, 2) of a 64-byte-stride ABGR image */
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0x80402010, SGX_XFER_U8U8U8U8_ABGR,
        XDST, 1, 2, 3, 2, 64);
    /* fill a U5U6U5_BGR image with blue */
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0x00ff0000, SGX_XFER_U5U6U5_BGR,
        XDST + 0x1000, 0, 0, 2, 1, 4);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST + 2 * 64 + 4), 0x80402010);
    ck_assert_uint_eq(rd(d, XDST + 3 * 64 + 12), 0x80402010);
    ck_assert_uint_eq(rd(d, XDST + 2 * 64), 0);
    ck_assert_uint_eq(rd(d, XDST + 2 * 64 + 16), 0);
    ck_assert_uint_eq(rd(d, XDST + 4 * 64 + 4), 0);
    ck_assert_uint_eq(rd16(d, XDST + 0x1000 + 2), 0xf800);

    /* copy with conversion: U5U6U5_BGR -> U8U8U8U8_ABGR (A = 255) */
    wr16(d, XSRC, 0xf800);
    wr16(d, XSRC + 2, 0x0400);
    g_array_set_size(d->cmd, 0);
    xcopy(d, 2, 1, SGX_XFER_U5U6U5_BGR, XSRC, 0, 0, 4,
          SGX_XFER_U8U8U8U8_ABGR, XDST + 0x2000, 0, 0, 8);
    /* ABGR -> U4U4U4U4 */
    wr(d, XSRC + 0x100, 0x80ff4010);
    xcopy(d, 1, 1, SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x100, 0, 0, 4,
          SGX_XFER_FORMAT(1), XDST + 0x2100, 0, 0, 2);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST + 0x2000), 0xffff0000);
    ck_assert_uint_eq(rd(d, XDST + 0x2004), 0xff008200);
    ck_assert_uint_eq(rd16(d, XDST + 0x2100), 0x8f41);

    /* a negative source stride reads rows bottom up: a vertical flip */
    for (int y = 0; y < 3; y++) {
        wr(d, XSRC + 0x200 + 16 * y, 0x11111111u * (y + 1));
    }
    g_array_set_size(d->cmd, 0);
    xcopy(d, 1, 3, SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x200 + 32, 0, 0, -16,
          SGX_XFER_U8U8U8U8_ABGR, XDST + 0x3000, 0, 0, 4);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST + 0x3000), 0x33333333u);
    ck_assert_uint_eq(rd(d, XDST + 0x3004), 0x22222222u);
    ck_assert_uint_eq(rd(d, XDST + 0x3008), 0x11111111u);

    /* overlapping: a row moved right by one pixel, as if read first */
    for (int x = 0; x < 4; x++) {
        wr(d, XSRC + 0x300 + 4 * x, x + 1);
    }
    g_array_set_size(d->cmd, 0);
    xcopy(d, 3, 1, SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x300, 0, 0, 16,
          SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x300, 1, 0, 16);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XSRC + 0x300), 1);
    ck_assert_uint_eq(rd(d, XSRC + 0x304), 1);
    ck_assert_uint_eq(rd(d, XSRC + 0x308), 2);
    ck_assert_uint_eq(rd(d, XSRC + 0x30c), 3);

    /* RAW16: bits as they are */
    wr16(d, XSRC + 0x400, 0xbeef);
    g_array_set_size(d->cmd, 0);
    xcopy(d, 1, 1, SGX_XFER_FORMAT(0xf), XSRC + 0x400, 0, 0, 2,
          SGX_XFER_FORMAT(0xf), XDST + 0x4000, 0, 0, 2);
    ck_assert(run(d));
    ck_assert_uint_eq(rd16(d, XDST + 0x4000), 0xbeef);
    dev_free(d);
}
END_TEST

START_TEST(transfer_key_layouts)
{
    static const uint32_t row[4] = {    /* red, green, red, blue */
        0xff0000ff, 0xff00ff00, 0xff0000ff, 0xffff0000,
    };
    Dev *d = dev_new();

    for (int x = 0; x < 4; x++) {
        wr(d, XSRC + 4 * x, row[x]);
    }
    /* REJECT: the red pixels are not written */
    pkt(d, SGX_PKT_TRANSFER_COPY, 15, 4, 1, 0xff0000ff, 0xffffffff, 2,
        SGX_XFER_U8U8U8U8_ABGR, XSRC, 0, 0, 16, SGX_XFER_U8U8U8U8_ABGR,
        XDST, 0, 0, 16);
    /* PASS: only they are (the key compares R G B only here) */
    pkt(d, SGX_PKT_TRANSFER_COPY, 15, 4, 1, 0x000000ff, 0x00ffffff, 1,
        SGX_XFER_U8U8U8U8_ABGR, XSRC, 0, 0, 16, SGX_XFER_U8U8U8U8_ABGR,
        XDST + 0x100, 0, 0, 16);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST), 0);
    ck_assert_uint_eq(rd(d, XDST + 4), 0xff00ff00);
    ck_assert_uint_eq(rd(d, XDST + 8), 0);
    ck_assert_uint_eq(rd(d, XDST + 12), 0xffff0000);
    ck_assert_uint_eq(rd(d, XDST + 0x100), 0xff0000ff);
    ck_assert_uint_eq(rd(d, XDST + 0x104), 0);
    ck_assert_uint_eq(rd(d, XDST + 0x108), 0xff0000ff);
    ck_assert_uint_eq(rd(d, XDST + 0x10c), 0);

    /* linear 64x32 -> tiled: pixel (x, y) in tile x / 32, row y, col x */
    for (int y = 0; y < 32; y++) {
        for (int x = 0; x < 64; x++) {
            wr(d, XSRC + 0x1000 + 256 * y + 4 * x, x | y << 8);
        }
    }
    g_array_set_size(d->cmd, 0);
    xcopy(d, 64, 32, SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x1000, 0, 0, 256,
          SGX_XFER_U8U8U8U8_ABGR | SGX_XFER_TILED, XDST + 0x1000, 0, 0, 256);
    xcopy(d, 64, 32, SGX_XFER_U8U8U8U8_ABGR | SGX_XFER_TILED, XDST + 0x1000,
          0, 0, 256, SGX_XFER_U8U8U8U8_ABGR, XDST + 0x4000, 0, 0, 256);
    /* linear 4x4 -> swizzled */
    xcopy(d, 4, 4, SGX_XFER_U8U8U8U8_ABGR, XSRC + 0x1000, 0, 0, 256,
          SGX_XFER_U8U8U8U8_ABGR | SGX_XFER_SWIZZLED, XDST + 0x8000, 0, 0,
          16);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST + 0x1000 + 4 * (3 * 32 + 5)), 5 | 3 << 8);
    ck_assert_uint_eq(rd(d, XDST + 0x1000 + 4 * (1024 + 32 + 1)),
                      33 | 1 << 8);
    ck_assert_uint_eq(rd(d, XDST + 0x4000 + 256 * 31 + 4 * 63), 63 | 31 << 8);
    ck_assert_uint_eq(rd(d, XDST + 0x8000 + 4 * 1), 0 | 1 << 8);
    ck_assert_uint_eq(rd(d, XDST + 0x8000 + 4 * 2), 1 | 0 << 8);
    ck_assert_uint_eq(rd(d, XDST + 0x8000 + 4 * 15), 3 | 3 << 8);

    /* downscale: a 2x2 box, rounding half up */
    g_array_set_size(d->cmd, 0);
    wr(d, XSRC + 0x3000, 0);
    wr(d, XSRC + 0x3004, 4);
    wr(d, XSRC + 0x3010, 8);
    wr(d, XSRC + 0x3014, 13);
    pkt(d, SGX_PKT_TRANSFER_DOWNSCALE, 12, SGX_XFER_U8U8U8U8_ABGR,
        XSRC + 0x3000, 0, 0, 2, 2, 16, SGX_XFER_U8U8U8U8_ABGR, XDST + 0x9000,
        0, 0, 4);
    ck_assert(run(d));
    ck_assert_uint_eq(rd(d, XDST + 0x9000), 6);
    dev_free(d);
}
END_TEST

/* Transfers the SDK rules out: refused, nothing written. */
START_TEST(transfer_errors)
{
    Dev *d = dev_new();
    const uint32_t A = SGX_XFER_U8U8U8U8_ABGR;

    for (int i = 0; i < 4; i++) {
        wr(d, XSRC + 4 * i, 0x12345678);
    }
    xcopy(d, 0, 1, A, XSRC, 0, 0, 16, A, XDST, 0, 0, 16);       /* w 0 */
    xcopy(d, 1025, 1, A, XSRC, 0, 0, 8192, A, XDST, 0, 0, 8192);
    xcopy(d, 32, 32, A | SGX_XFER_TILED, XSRC, 1, 0, 128, A, XDST, 0, 0,
          128);                                                 /* x != 0 */
    xcopy(d, 4, 4, A | SGX_XFER_SWIZZLED, XSRC, 0, 0, 16,
          A | SGX_XFER_SWIZZLED, XDST, 0, 0, 16);              /* both */
    xcopy(d, 4, 4, A | SGX_XFER_SWIZZLED, XSRC, 0, 0, 16,
          A | SGX_XFER_TILED, XDST, 0, 0, 16);
    xcopy(d, 3, 4, A | SGX_XFER_SWIZZLED, XSRC, 0, 0, 12, A, XDST, 0, 0,
          16);                                                  /* not 2^n */
    xcopy(d, 1, 1, SGX_XFER_FORMAT(0x11), XSRC, 0, 0, 4, A, XDST, 0, 0, 4);
    xcopy(d, 1, 1, SGX_XFER_FORMAT(7), XSRC, 0, 0, 4, SGX_XFER_FORMAT(7),
          XDST, 0, 0, 4);                                       /* YUV */
    xcopy(d, 1, 1, A, XSRC, 0, 0, 6, A, XDST, 0, 0, 4);        /* stride */
    xcopy(d, 1, 1, A, XSRC, 0, 0, 40000, A, XDST, 0, 0, 4);
    xcopy(d, 1, 1, A | 0x1000, XSRC, 0, 0, 4, A, XDST, 0, 0, 4);
    xcopy(d, 1, 1, A, XSRC, 8191, 0, 4, A, XDST, 0, 0, 4);     /* x + w */
    pkt(d, SGX_PKT_TRANSFER_COPY, 15, 32, 32, 0, ~0u, 1,        /* key */
        A | SGX_XFER_TILED, XSRC, 0, 0, 128, A, XDST, 0, 0, 128);
    pkt(d, SGX_PKT_TRANSFER_COPY, 15, 1, 1, 0, 0, 3, A, XSRC, 0, 0, 4, A,
        XDST, 0, 0, 4);                                         /* mode 3 */
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0, A | SGX_XFER_TILED, XDST, 0, 0, 32,
        32, 128);
    pkt(d, SGX_PKT_TRANSFER_DOWNSCALE, 12, A, XSRC, 0, 0, 3, 2, 16, A,
        XDST, 0, 0, 4);                                         /* odd */
    pkt(d, SGX_PKT_TRANSFER_DOWNSCALE, 12, A, XSRC, 0, 0, 24, 2, 96, A,
        XDST, 0, 0, 48);                                        /* 24 */
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 5);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_BAD_VALUE);
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 5);
    for (int i = 0; i < 0x1000; i += 4) {
        ck_assert_uint_eq(rd(d, XDST + i), 0);
    }
    /* outside memory: a fault */
    g_array_set_size(d->cmd, 0);
    xcopy(d, 4, 4, A, MEM_SIZE - 32, 0, 0, 16, A, XDST, 0, 0, 16);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    g_array_set_size(d->cmd, 0);
    xcopy(d, 2, 2, A, 4, 0, 0, -8, A, XDST, 0, 0, 8);       /* below 0 */
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    ck_assert_uint_eq(rd(d, XDST), 0);

    /* a TRANSFER command on the CCB runs its packets too */
    g_array_set_size(d->cmd, 0);
    pkt(d, SGX_PKT_TRANSFER_FILL, 8, 0x0badf00d, A, XDST, 0, 0, 1, 1, 4);
    submit(d, 0, 0);
    wr(d, CCB, SGX_CMD_TRANSFER);
    wr(d, CTL + 4, 0);
    sgx543_mmio_write(d->s, SGX_EVENT_KICK, SGX_EVENT_KICK_NOW);
    ck_assert_uint_eq(rd(d, XDST), 0x0badf00d);
    ck_assert_uint_eq(rd(d, CTL + 4), 1);
    dev_free(d);
}
END_TEST

/* Tiled and swizzled colour surfaces: pixels stored in those orders. */
START_TEST(draw_surface_layouts)
{
    for (int type = 1; type <= 2; type++) {
        Dev *d = dev_new();
        uint32_t stride = type == 1 ? 32 : 16;

        setup_draw(d, SGX_DEPTH_NONE);
        /* replace setup_draw's BEGIN_SCENE (the first packet) */
        g_array_set_size(d->cmd, 0);
        pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, stride, 0, 16, 16, type);
        pkt(d, SGX_PKT_CLEAR, 7, 0, 0, fbits(1.0f), fbits(1.0f), 0, 0, 1);
        pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 1, 0, 2, 0, 0, 8 << 8);
        pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 1, 32, 1, 0, 0, 0, 0,
            SGX_FIN(0, SGX_REG_F32, 4, 0, 4, 0));
        pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 4, 0, 0x00000409 | 0 << 16,
            16 << 16, 0x00000409 | 4 << 16);
        pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
        pkt(d, SGX_PKT_SET_VIEWPORT, 7, 1, fbits(8), fbits(8), fbits(-8),
            fbits(8), fbits(1), 0);
        /* white, one pixel at (9, 5) */
        prim_at(d, SGX_PRIM_POINTS, 1, (const float[]) { 9.5f, 5.5f }, 1);
        pkt(d, SGX_PKT_END_SCENE, 0);
        ck_assert(run(d));
        for (uint32_t y = 0; y < 16; y++) {
            for (uint32_t x = 0; x < 16; x++) {
                uint32_t i = sgx_surface_pixel(type, stride, 16, x, y);
                ck_assert_uint_eq(rd(d, COLOR + 4 * i),
                                  x == 9 && y == 5 ? 0xffffffff
                                                   : 0xffff0000);
            }
        }
        /* the linear address of (9, 5) holds the clear colour (a 16-pixel
           tiled surface is one tile: its rows are the linear ones) */
        if (type == 2) {
            ck_assert_uint_eq(rd(d, COLOR + 4 * (5 * stride + 9)),
                              0xffff0000);
        }
        dev_free(d);
    }
    {
        Dev *d = dev_new();
        pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 48, 0, 16, 16, 1);
        pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 24, 0, 16, 16, 2);
        pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 16, 0, 16, 16, 3);
        pkt(d, SGX_PKT_CLEAR, 7, 0, 0, 0, 0, 0, 0, 1);
        ck_assert(!run(d));
        ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_NO_SCENE);
        ck_assert(reg(d, SGX_EVENT_STATUS2) & SGX_EVENT2_BAD_PACKET);
        dev_free(d);
    }
}
END_TEST

/* MSAA: coverage and depth per sample, one shader run per pixel, the
   samples averaged into the surface at END_SCENE. */
START_TEST(draw_msaa)
{
    for (unsigned mode = 1; mode <= 2; mode++) {
        Dev *d = dev_new();
        unsigned sx = 2, sy = mode == 2 ? 2 : 1;

        setup_draw(d, SGX_DEPTH_NONE);
        g_array_set_size(d->cmd, 0);
        wr(d, COLOR + 4 * (15 * 16 + 15), 0x12345678);  /* kept */
        pkt(d, SGX_PKT_BEGIN_SCENE, 10, COLOR, 16, 0, 16, 16, 0, DEPTH,
            SGX_DEPTH_F32, 32, mode);
        pkt(d, SGX_PKT_CLEAR, 11, 0, 0, 0, fbits(1.0f), fbits(1.0f), 0, 3,
            0, 0, 15, 16);
        pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 1, 0, 2, 0, 0, 8 << 8);
        pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 1, 32, 1, 0, 0, 0, 0,
            SGX_FIN(0, SGX_REG_F32, 4, 0, 4, 0));
        pkt(d, SGX_PKT_SET_VERTEX_ATTRIBS, 4, 0, 0x00000409 | 0 << 16,
            16 << 16, 0x00000409 | 4 << 16);
        pkt(d, SGX_PKT_SET_FRAGMENT_OUTPUT, 7, 15, 0, 0, 0, 0, 0, 0);
        pkt(d, SGX_PKT_SET_VIEWPORT, 7, 1, fbits(8), fbits(8), fbits(-8),
            fbits(8), fbits(1), 0);
        pkt(d, SGX_PKT_SET_RASTER_STATE, 3, 0, SGX_CMP_LESS, 1);
        /* white over x < 4.5: pixel 4 half covered */
        prim_at(d, SGX_PRIM_TRIANGLE_STRIP, 4,
                (const float[]) { 0, 16, 4.5f, 16, 0, 0, 4.5f, 0 }, 1);
        ck_assert(run(d));
        /* nothing in the surface before END_SCENE */
        ck_assert_uint_eq(pixel(d, 1, 1), 0);
        /* depth per sample, sample k of pixel (x, y) at (sx x + k % sx,
           sy y + k / sx): pixel 4's covered samples (x offset < 0) are
           written: 4x samples 0 and 2, 2x sample 1 */
        for (unsigned k = 0; k < sx * sy; k++) {
            bool in = mode == 2 ? !(k & 1) : k == 1;
            ck_assert_uint_eq(rd(d, DEPTH + 4 * ((7 * sy + k / sx) * 32
                                                 + 4 * sx + k % sx)),
                              fbits(in ? 0.5f : 1.0f));
            ck_assert_uint_eq(rd(d, DEPTH + 4 * ((7 * sy + k / sx) * 32
                                                 + 3 * sx + k % sx)),
                              fbits(0.5f));
        }
        g_array_set_size(d->cmd, 0);
        pkt(d, SGX_PKT_END_SCENE, 0);
        ck_assert(run(d));
        ck_assert_uint_eq(pixel(d, 3, 7), 0xffffffff);
        ck_assert_uint_eq(pixel(d, 4, 7), 0xff808080);  /* 0.5: 128 */
        ck_assert_uint_eq(pixel(d, 5, 7), 0xff000000);
        ck_assert_uint_eq(pixel(d, 15, 15), 0x12345678);
        dev_free(d);
    }
    {
        Dev *d = dev_new();
        pkt(d, SGX_PKT_BEGIN_SCENE, 10, COLOR, 16, 0, 16, 16, 0, 0, 0, 16,
            3);                                         /* no mode 3 */
        pkt(d, SGX_PKT_BEGIN_SCENE, 10, COLOR, 16, 0, 16, 16, 0, DEPTH, 1,
            16, 2);                                     /* depth stride */
        pkt(d, SGX_PKT_CLEAR, 7, 0, 0, 0, 0, 0, 0, 1);
        ck_assert(!run(d));
        ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_NO_SCENE);
        dev_free(d);
    }
}
END_TEST

START_TEST(draw_errors)
{
    Dev *d = dev_new();

    /* no programs */
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 16, 0, 16, 16, 0);
    pkt(d, SGX_PKT_DRAW, 4, 0, 0, INDEX, 3);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_NO_PROGRAM);

    /* a vertex program with an illegal instruction at pc 1 */
    g_array_set_size(d->cmd, 0);
    sgx543_mmio_write(d->s, SGX_EVENT_HOST_CLEAR2, ~0u);
    setup_draw(d, SGX_DEPTH_NONE);
    put_code(d, CODE, "vmov.f32.rpt2 o0.xy, pa0.xyzw\n"
                      ".word 0xd800000000000000\n");
    quad(d, 0, 0.5f, 1, 1, 1);
    pkt(d, SGX_PKT_FENCE, 2, FENCE_ADDR, 9);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_SHADER_TRAP);
    ck_assert(reg(d, SGX_EVENT_STATUS2) & SGX_EVENT2_ILLEGAL_INSN);
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_PC), 1);
    ck_assert_uint_eq(pixel(d, 0, 0), 0xff000000);  /* draw skipped */
    ck_assert_uint_eq(rd(d, FENCE_ADDR), 9);        /* stream went on */
    ck_assert_uint_eq(sgx543_draws(d->s), 0);

    /* an endless fragment program times out */
    g_array_set_size(d->cmd, 0);
    setup_draw(d, SGX_DEPTH_NONE);
    put_code(d, CODE + 0x100, "br 0\n");
    quad(d, 0, 0.5f, 1, 1, 1);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_SHADER_TRAP);

    /* an index buffer outside memory */
    g_array_set_size(d->cmd, 0);
    setup_draw(d, SGX_DEPTH_NONE);
    pkt(d, SGX_PKT_DRAW, 4, 0, 1, MEM_SIZE - 4, 3);
    ck_assert(!run(d));
    ck_assert_uint_eq(reg(d, SGX_EMU_ERR_CODE), SGX_ERR_MMU_FAULT);
    dev_free(d);
}
END_TEST

/* Random streams of real opcodes with random payloads: never a crash. */
START_TEST(fuzz)
{
    static const uint8_t ops[] = {
        0x01, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
        0x18, 0x20, 0x21, 0x22, 0x23, 0x30, 0x31, 0x3e, 0x3f, 0x00, 0x55,
    };
    GRand *r = g_rand_new_with_seed(543);
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_S8D24);
    quad(d, 0, 0.5f, 1, 1, 1);
    for (int iter = 0; iter < 300; iter++) {
        guint keep = g_rand_int_range(r, 0, d->cmd->len);
        g_array_set_size(d->cmd, keep);
        for (int k = 0; k < 4; k++) {
            unsigned n = g_rand_int_range(r, 0, 17);
            raw(d, SGX_PKT_HEADER(ops[g_rand_int_range(r, 0,
                                                      sizeof(ops))], n));
            for (unsigned i = 0; i < n; i++) {
                uint32_t v;
                switch (g_rand_int_range(r, 0, 4)) {
                case 0:
                    v = g_rand_int_range(r, 0, 4);
                    break;
                case 1:
                    v = g_rand_int_range(r, 0, 64);
                    break;
                case 2:
                    v = g_rand_int_range(r, 0, MEM_SIZE / 2) & ~3u;
                    break;
                default:
                    v = g_rand_int(r);
                    break;
                }
                raw(d, v);
            }
        }
        run(d);
        if (iter % 50 == 0) {
            sgx543_mmio_write(d->s, SGX_SOFT_RESET, 1);
            sgx543_mmio_write(d->s, SGX_SOFT_RESET, 0);
            g_array_set_size(d->cmd, 0);
            setup_draw(d, SGX_DEPTH_S8D24);
        }
    }
    g_rand_free(r);
    dev_free(d);
}
END_TEST

Suite *sgx_device_suite(void)
{
    Suite *s = suite_create("sgx_device");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ids_and_registers);
    tcase_add_test(tc, events_and_irq);
    tcase_add_test(tc, core_device);
    tcase_add_test(tc, ccb_ring);
    tcase_add_test(tc, ccb_unconfigured);
    tcase_add_test(tc, bad_packets_skipped);
    tcase_add_test(tc, overrun_and_jumps);
    tcase_add_test(tc, wait_resumes);
    tcase_add_test(tc, mmu);
    tcase_add_test(tc, draw_fills);
    tcase_add_test(tc, draw_depth);
    tcase_add_test(tc, draw_stencil);
    tcase_add_test(tc, draw_formats);
    tcase_add_test(tc, draw_dependent_texture);
    tcase_add_test(tc, draw_texture_mips);
    tcase_add_test(tc, draw_lines);
    tcase_add_test(tc, draw_points);
    tcase_add_test(tc, draw_line_errors);
    tcase_add_test(tc, transfer_formats);
    tcase_add_test(tc, transfer_fill_copy);
    tcase_add_test(tc, transfer_key_layouts);
    tcase_add_test(tc, transfer_errors);
    tcase_add_test(tc, draw_surface_layouts);
    tcase_add_test(tc, draw_msaa);
    tcase_add_test(tc, draw_texture_errors);
    tcase_add_test(tc, draw_errors);
    tcase_add_test(tc, fuzz);
    suite_add_tcase(s, tc);
    return s;
}
