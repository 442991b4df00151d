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
    Sgx543State *s;
    GArray *cmd;            /* uint32_t packet words */
    int irq_changes;
    bool irq;
} Dev;

static void irq_cb(void *opaque, bool level)
{
    Dev *d = opaque;

    d->irq = level;
    d->irq_changes++;
}

static Dev *dev_new(void)
{
    Dev *d = g_new0(Dev, 1);

    d->ram = g_malloc0(MEM_SIZE);
    d->s = sgx543_new(&(SgxMemory) { .host = d->ram, .size = MEM_SIZE });
    d->cmd = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    sgx543_set_irq(d->s, irq_cb, d);
    return d;
}

static void dev_free(Dev *d)
{
    sgx543_free(d->s);
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
        wr(d, 0x6000 + 4 * t, 0xff000000 | (16 * t));
    }
    pkt(d, SGX_PKT_BEGIN_SCENE, 6, COLOR, 16, 0, 16, 16, 0);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 7, 0, 0, 0, 2, 0, 0, 6 << 8);
    pkt(d, SGX_PKT_SET_PROGRAM_RAW, 9, 1, 0, 32, 2, 0, 0, 0, 0,
        SGX_FIN(0, SGX_REG_F32, 2, 0, 4, 0));
    pkt(d, SGX_PKT_SET_TEXTURE, 7, 1, 3, SGX_TEX_U8U8U8U8_ABGR, 0x00040004,
        0x6000, 0, 0);
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
        0x18, 0x20, 0x30, 0x31, 0x3e, 0x3f, 0x00, 0x55,
    };
    GRand *r = g_rand_new_with_seed(543);
    Dev *d = dev_new();

    setup_draw(d, SGX_DEPTH_S8D24);
    quad(d, 0, 0.5f, 1, 1, 1);
    for (int iter = 0; iter < 300; iter++) {
        guint keep = g_rand_int_range(r, 0, d->cmd->len);
        g_array_set_size(d->cmd, keep);
        for (int k = 0; k < 4; k++) {
            unsigned n = g_rand_int_range(r, 0, 12);
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
    tcase_add_test(tc, draw_errors);
    tcase_add_test(tc, fuzz);
    suite_add_tcase(s, tc);
    return s;
}
