/*
 * The M2MF object (hw/nv50/gr/m2mf.c, class 0x5039) on a channel's
 * PGRAPH context: copies between pitch and block-linear buffers in VRAM
 * and guest RAM, checked byte by byte against a reference copy written
 * here; faults, refused state, the M2MF notifier; nouveau's buffer move
 * (nouveau_bo5039.c) through PFIFO.
 *
 * The reference address of a block-linear byte is envytools
 * g80-surface.rst's pseudocode (divisions and remainders over blocks and
 * GOBs), not the surface module's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"

#define SUBC_M2MF   2
#define H_M2MF      0xbeef5039u
#define H_NTFY      0xd0000010u
#define DMA_NTFY    0x104       /* a VM ctxdma over NTFY_VA, 256 bytes */
#define NTFY_VA     (GR_VA_DATA + 0xf000)

/* the buffers, 1 MiB each: two in VRAM, one in guest RAM (4 KiB pages) */
#define REGION      0x100000u
#define VA_A        (GR_VA_DATA + 0x100000)
#define VA_B        (GR_VA_DATA + 0x300000)
#define VA_G        GR_VA_GART

#define INTR        0x400100
#define TRAP        0x400108
#define DATA_ERROR  0x400110
#define TRAPPED_ADDR 0x400704
#define M2MF_TRAP   0x406800

/* methods (rnndb graph/nv_m2mf.xml) */
#define M_DMA_BUFFER_IN     0x184
#define M_DMA_BUFFER_OUT    0x188
#define M_LAYOUT_IN         0x200
#define M_BL_DIMS_IN        0x204
#define M_BL_PITCH_IN       0x208
#define M_BL_HEIGHT_IN      0x20c
#define M_BL_DEPTH_IN       0x210
#define M_BL_POS_IN_Z       0x214
#define M_BL_POS_IN         0x218
#define M_OUT_DELTA         0x1c        /* LAYOUT_OUT .. POSITION_OUT */
#define M_OFFSET_IN_HIGH    0x238
#define M_OFFSET_OUT_HIGH   0x23c
#define M_OFFSET_IN         0x30c
#define M_OFFSET_OUT        0x310
#define M_PITCH_IN          0x314
#define M_PITCH_OUT         0x318
#define M_LINE_LENGTH_IN    0x31c
#define M_LINE_COUNT        0x320
#define M_FORMAT            0x324
#define M_BUF_NOTIFY        0x328

/* One side of a copy, as the test describes it. */
typedef struct Side {
    uint64_t va;                /* OFFSET: the buffer or surface start */
    bool bl;
    int32_t pitch;              /* pitch layout */
    unsigned bw, bh, bd;        /* block-linear: log2 GOBs */
    uint32_t width, height, depth;  /* bytes, rows, layers */
    uint32_t x, y, z;           /* position */
} Side;

typedef struct Copy {
    Side in, out;
    uint32_t len, count;
} Copy;

static uint32_t obj;

/* --- the reference --- */

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* VA of byte @i of line @l of side @sd, g80-surface.rst's way. */
static uint64_t ref_va(const Side *sd, uint32_t l, uint32_t i)
{
    uint64_t bytes_x = 64u << sd->bw, rows_y = 4u << sd->bh;
    uint64_t layers_z = 1u << sd->bd, gob_bytes = 256;
    uint64_t gobs_x = 1u << sd->bw, gobs_y = 1u << sd->bh;
    uint64_t block_bytes = gob_bytes * gobs_x * gobs_y * layers_z;
    uint64_t blocks_x, blocks_y, x, y, z, block, xb, yb, zb, gob;

    if (!sd->bl) {
        return sd->va + (int64_t)l * sd->pitch + i;
    }
    x = sd->x + i;
    y = sd->y + l;
    z = sd->z;
    blocks_x = ceil_div(sd->width, bytes_x);
    blocks_y = ceil_div(sd->height, rows_y);
    block = x / bytes_x + y / rows_y * blocks_x +
            z / layers_z * blocks_x * blocks_y;
    xb = x % bytes_x;
    yb = y % rows_y;
    zb = z % layers_z;
    gob = xb / 64 + yb / 4 * gobs_x + zb * gobs_x * gobs_y;
    return sd->va + block * block_bytes + gob * gob_bytes +
           (yb % 4) * 64 + xb % 64;
}

/* --- memory: VRAM behind VA GR_VA_BASE, guest RAM behind GR_VA_GART --- */

static void mem_rw(uint64_t va, void *buf, size_t len, bool is_write)
{
    if (va >= GR_VA_GART) {
        ck_assert_uint_le(va - GR_VA_GART + len, GART_SIZE);
        if (is_write) {
            memcpy(rig.sysmem + (va - GR_VA_GART), buf, len);
        } else {
            memcpy(buf, rig.sysmem + (va - GR_VA_GART), len);
        }
        return;
    }
    ck_assert(is_write ? nv50_vram_write(rig.s, gr_va_to_vram(va), buf, len)
                       : nv50_vram_read(rig.s, gr_va_to_vram(va), buf,
                                        len));
}

/* Deterministic noise. */
static void noise(uint8_t *b, size_t len, uint32_t seed)
{
    uint32_t v = seed * 2654435761u + 1;

    for (size_t i = 0; i < len; i++) {
        v = v * 1664525u + 1013904223u;
        b[i] = v >> 24;
    }
}

/* --- methods --- */

static void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_M2MF, mthd, data);
}

static void setup(void)
{
    gr_rig_init();
    gemu_clock_advance(&rig.clk, 1000000);      /* timestamps not 0 */
    obj = gr_object(0x5039, H_M2MF);
    gr_ctxdma(DMA_NTFY, NV50_DMA_VM, NTFY_VA, NTFY_VA + 0xff);
    gr_ramht_insert(H_NTFY, DMA_NTFY);
    gr_bind(SUBC_M2MF, obj);
    ck_assert_uint_eq(rd32(INTR), 0);
    m(NV50_GR_MTHD_DMA_NOTIFY, DMA_NTFY);
    m(M_DMA_BUFFER_IN, GR_DMA_VM);
    m(M_DMA_BUFFER_OUT, GR_DMA_VM);
    ck_assert_uint_eq(rd32(INTR), 0);
}

static void side_methods(const Side *sd, uint32_t delta, uint32_t m_offset,
                         uint32_t m_high, uint32_t m_pitch)
{
    m(M_LAYOUT_IN + delta, !sd->bl);
    if (sd->bl) {
        m(M_BL_DIMS_IN + delta, sd->bw | sd->bh << 4 | sd->bd << 8);
        m(M_BL_PITCH_IN + delta, sd->width);
        m(M_BL_HEIGHT_IN + delta, sd->height);
        m(M_BL_DEPTH_IN + delta, sd->depth);
        m(M_BL_POS_IN_Z + delta, sd->z);
        m(M_BL_POS_IN + delta, sd->y << 16 | sd->x);
    }
    m(m_high, (uint32_t)(sd->va >> 32));
    m(m_offset, (uint32_t)sd->va);
    m(m_pitch, (uint32_t)sd->pitch);
}

/* Send copy @c's state, then BUF_NOTIFY @type. */
static void send(const Copy *c, uint32_t type)
{
    side_methods(&c->in, 0, M_OFFSET_IN, M_OFFSET_IN_HIGH, M_PITCH_IN);
    side_methods(&c->out, M_OUT_DELTA, M_OFFSET_OUT, M_OFFSET_OUT_HIGH,
                 M_PITCH_OUT);
    m(M_LINE_LENGTH_IN, c->len);
    m(M_LINE_COUNT, c->count);
    m(M_FORMAT, 0x101);
    m(M_BUF_NOTIFY, type);
}

/* The 1 MiB region a side's VA is in (sides start at least 64 KiB in). */
static uint64_t region_of(uint64_t va)
{
    if (va >= VA_G) {
        return VA_G;
    }
    return va >= VA_B ? VA_B : VA_A;
}

/*
 * Run copy @c over noise and compare the whole output region with the
 * reference: the copied bytes moved, every other byte untouched.
 */
static void check_copy(const Copy *c)
{
    uint64_t rin = region_of(c->in.va), rout = region_of(c->out.va);
    g_autofree uint8_t *src = g_malloc(REGION);
    g_autofree uint8_t *dst = g_malloc(REGION);
    g_autofree uint8_t *want = g_malloc(REGION);
    uint8_t ntfy[16];

    ck_assert_uint_ne(rin, rout);
    noise(src, REGION, 1);
    noise(dst, REGION, 2);
    mem_rw(rin, src, REGION, true);
    mem_rw(rout, dst, REGION, true);
    memset(ntfy, 0xff, sizeof(ntfy));
    mem_rw(NTFY_VA + 0x10, ntfy, sizeof(ntfy), true);
    memcpy(want, dst, REGION);
    for (uint32_t l = 0; l < c->count; l++) {
        for (uint32_t i = 0; i < c->len; i++) {
            uint64_t s = ref_va(&c->in, l, i) - rin;
            uint64_t d = ref_va(&c->out, l, i) - rout;

            ck_assert_uint_lt(s, REGION);
            ck_assert_uint_lt(d, REGION);
            want[d] = src[s];
        }
    }

    send(c, 0);
    ck_assert_uint_eq(rd32(INTR), 0);
    mem_rw(rout, dst, REGION, false);
    for (uint32_t i = 0; i < REGION; i++) {
        if (dst[i] != want[i]) {
            ck_abort_msg("output byte 0x%x is 0x%02x, expected 0x%02x",
                         i, dst[i], want[i]);
        }
    }
    /* the M2MF notifier: timestamp, 0, 0 */
    mem_rw(NTFY_VA + 0x10, ntfy, sizeof(ntfy), false);
    ck_assert_uint_ne(ldn_le_p(ntfy, 8), 0);
    ck_assert_uint_ne(ldn_le_p(ntfy, 8), UINT64_MAX);
    ck_assert_uint_eq(ldn_le_p(ntfy + 8, 4), 0);
    ck_assert_uint_eq(ldn_le_p(ntfy + 12, 4), 0);
}

static Side pitch_side(uint64_t va, int32_t pitch)
{
    return (Side) { .va = va, .pitch = pitch };
}

static Side bl_side(uint64_t va, unsigned bw, unsigned bh, unsigned bd,
                    uint32_t width, uint32_t height, uint32_t depth,
                    uint32_t x, uint32_t y, uint32_t z)
{
    return (Side) {
        .va = va, .bl = true, .bw = bw, .bh = bh, .bd = bd,
        .width = width, .height = height, .depth = depth,
        .x = x, .y = y, .z = z,
    };
}

/* --- copies --- */

START_TEST(test_pitch_to_pitch)
{
    /* odd offsets and pitches, lines across 64 KiB pages */
    Copy c = {
        .in = pitch_side(VA_A + 0xf003, 0x1140),
        .out = pitch_side(VA_B + 0x10011, 0x1200),
        .len = 0x1130, .count = 37,
    };

    check_copy(&c);
}
END_TEST

/* pitch == line length: the lines are one run, more than a chunk */
START_TEST(test_pitch_contiguous)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x10000, 64),
        .out = pitch_side(VA_B + 0x8000, 64),
        .len = 64, .count = 0x3000,
    };

    check_copy(&c);
}
END_TEST

/* a negative pitch walks up (a vertical flip) */
START_TEST(test_pitch_negative)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x80000, -0x300),
        .out = pitch_side(VA_B + 0x20000, 0x200),
        .len = 0x1ff, .count = 50,
    };

    check_copy(&c);
}
END_TEST

START_TEST(test_pitch_to_bl)
{
    /* every block height, a line crossing GOBs, an odd position */
    for (unsigned bh = 0; bh <= 5; bh++) {
        Copy c = {
            .in = pitch_side(VA_A + 0x10005, 0x400),
            .out = bl_side(VA_B + 0x10000, 0, bh, 0, 0x300, 150, 1,
                           0x25, 3 + bh, 0),
            .len = 0x201, .count = 40 + bh * 9,
        };

        check_copy(&c);
    }
}
END_TEST

START_TEST(test_bl_to_pitch)
{
    /* a 3D surface: layer 2 of 3 with 2-deep blocks */
    Copy c = {
        .in = bl_side(VA_A + 0x10000, 0, 2, 1, 0x280, 45, 3, 0x3f, 5, 2),
        .out = pitch_side(VA_B + 0x10000, 0x180),
        .len = 0x141, .count = 30,
    };

    check_copy(&c);
    /* layer 1: the second half of the first slice of blocks */
    c.in.z = 1;
    c.in.bd = 2;
    c.in.depth = 4;
    check_copy(&c);
}
END_TEST

START_TEST(test_bl_to_bl)
{
    static const struct {
        unsigned bw_in, bh_in, bd_in, bw_out, bh_out, bd_out;
        uint32_t x_in, y_in, z_in, x_out, y_out, z_out;
    } v[] = {
        { 0, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 5, 0, 0, 0, 0, 0x40, 7, 0, 0x13, 60, 0 },
        { 0, 3, 0, 0, 2, 0, 0x7f, 33, 0, 0x81, 1, 0 },
        { 1, 2, 0, 0, 3, 0, 0x55, 2, 0, 0xc0, 9, 0 },
        { 0, 0, 2, 1, 1, 1, 0x10, 4, 3, 0x2, 11, 1 },
        { 2, 4, 1, 0, 5, 3, 0x3, 17, 1, 0x101, 0, 6 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(v); i++) {
        Copy c = {
            .in = bl_side(VA_A + 0x10000, v[i].bw_in, v[i].bh_in,
                          v[i].bd_in, 0x400, 80, 4, v[i].x_in, v[i].y_in,
                          v[i].z_in),
            .out = bl_side(VA_B + 0x10000, v[i].bw_out, v[i].bh_out,
                           v[i].bd_out, 0x380, 100, 8, v[i].x_out,
                           v[i].y_out, v[i].z_out),
            .len = 0x1b3, .count = 21 + (uint32_t)i,
        };

        check_copy(&c);
    }
}
END_TEST

/* guest RAM through 4 KiB pages: lines and GOB rows across pages */
START_TEST(test_gart)
{
    Copy c = {
        .in = bl_side(VA_G + 0x1000, 0, 1, 0, 0x2400, 24, 1, 0xfc0, 1, 0),
        .out = pitch_side(VA_A + 0x10ffd, 0x1000),
        .len = 0x1234, .count = 20,
    };

    check_copy(&c);
    c.out = c.in;
    c.in = pitch_side(VA_B + 0x10000, 0x1300);
    c.out.va = VA_G + 0x2000;
    c.out.bh = 0;
    check_copy(&c);
}
END_TEST

/* nothing to copy: no bytes move, the notifier is still written */
START_TEST(test_empty)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x10000, 0x100),
        .out = pitch_side(VA_B + 0x10000, 0x100),
        .len = 0, .count = 5,
    };

    check_copy(&c);
    c.len = 0x10;
    c.count = 0;
    check_copy(&c);
}
END_TEST

/* --- notifiers --- */

START_TEST(test_notify)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x10000, 0x100),
        .out = pitch_side(VA_B + 0x10000, 0x100),
        .len = 0x10, .count = 1,
    };
    uint8_t b[32];

    memset(b, 0xff, sizeof(b));
    mem_rw(NTFY_VA, b, sizeof(b), true);
    /* NOTIFY before the trigger: the ordinary notifier at 0 as well */
    m(NV50_GR_MTHD_NOTIFY, 0);
    send(&c, 0);
    ck_assert_uint_eq(rd32(INTR), 0);
    mem_rw(NTFY_VA, b, sizeof(b), false);
    ck_assert_uint_ne(ldn_le_p(b, 8), 0);
    ck_assert_uint_eq(ldn_le_p(b + 8, 8), 0);
    ck_assert_uint_ne(ldn_le_p(b + 16, 8), 0);
    ck_assert_uint_eq(ldn_le_p(b + 24, 8), 0);
    /* WRITE_THEN_AWAKEN: BUFFER_NOTIFY */
    memset(b, 0xff, sizeof(b));
    mem_rw(NTFY_VA, b, sizeof(b), true);
    m(M_BUF_NOTIFY, 1);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_BUFFER_NOTIFY);
    mem_rw(NTFY_VA, b, sizeof(b), false);
    ck_assert_uint_eq(ldn_le_p(b + 24, 8), 0);
    ck_assert_uint_eq(ldn_le_p(b, 8), UINT64_MAX);  /* no NOTIFY armed */
}
END_TEST

/* --- faults and refused state --- */

/* the PFB VM trap's word @w */
static uint32_t vm_trap_word(unsigned w)
{
    wr32(0x100c90, w << 24);
    return rd32(0x100c94);
}

START_TEST(test_fault_write)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x10000, 0x100),
        .out = pitch_side(0x7000000000ull, 0x100),
        .len = 0x80, .count = 4,
    };
    uint8_t b[16];

    memset(b, 0xff, sizeof(b));
    mem_rw(NTFY_VA + 0x10, b, sizeof(b), true);
    send(&c, 0);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(TRAP), NV50_GR_TRAP_M2MF);
    ck_assert(rd32(M2MF_TRAP) & 0x80000000u);
    ck_assert_uint_eq(rd32(TRAPPED_ADDR), SUBC_M2MF << 16 | M_BUF_NOTIFY);
    ck_assert(rd32(0x100c90) & 0x80000000u);
    /* PGRAPH (engine 0), client DISPATCH, subclient M2M_OUT */
    ck_assert_uint_eq(vm_trap_word(0) & 0xf, NV50_VM_ENGINE_PGRAPH);
    ck_assert_uint_eq((vm_trap_word(0) >> 8) & 0xf,
                      NV50_VM_CLIENT_DISPATCH);
    ck_assert_uint_eq((vm_trap_word(0) >> 12) & 0xf, 5);
    /* the copy stopped: no notifier */
    mem_rw(NTFY_VA + 0x10, b, sizeof(b), false);
    ck_assert_uint_eq(ldn_le_p(b + 12, 4), 0xffffffffu);

    /* acknowledged as nvkm does, the next copy works */
    wr32(0x100c90, 0x80000000u);
    wr32(M2MF_TRAP, 0xc0000000u);
    wr32(TRAP, 0xffffffff);
    wr32(INTR, 0xffffffff);
    c.out = pitch_side(VA_B + 0x10000, 0x100);
    check_copy(&c);
}
END_TEST

START_TEST(test_fault_read)
{
    /* block-linear input running off the mapped VA (64 MiB of VRAM) */
    Copy c = {
        .in = bl_side(GR_VA_BASE + 0x4000000 - 0x800, 0, 0, 0, 0x400,
                      64, 1, 0, 0, 0),
        .out = pitch_side(VA_B + 0x10000, 0x100),
        .len = 0x100, .count = 8,
    };

    send(&c, 0);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(TRAP), NV50_GR_TRAP_M2MF);
    ck_assert_uint_eq((vm_trap_word(0) >> 12) & 0xf, 4);   /* M2M_IN */
}
END_TEST

/* the ctxdma's limit: DMAOBJ_LIMIT */
START_TEST(test_fault_limit)
{
    Copy c = {
        .in = pitch_side(VA_A + 0x10000, 0x100),
        .out = pitch_side(0, 0x100),
        .len = 0x100, .count = 2,
    };

    m(M_DMA_BUFFER_OUT, DMA_NTFY);          /* 256 bytes */
    send(&c, 0);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_TRAP);
    ck_assert_uint_eq((vm_trap_word(0) >> 4) & 0xf, NV50_FAULT_DMAOBJ_LIMIT);
    ck_assert_uint_eq((vm_trap_word(0) >> 12) & 0xf, 5);   /* M2M_OUT */
}
END_TEST

static void expect_error(uint32_t intr, uint32_t code, uint32_t mthd)
{
    ck_assert_uint_eq(rd32(INTR), intr);
    if (intr == NV50_GR_INTR_DATA_ERROR) {
        ck_assert_uint_eq(rd32(DATA_ERROR), code);
    }
    ck_assert_uint_eq(rd32(TRAPPED_ADDR), SUBC_M2MF << 16 | mthd);
    wr32(INTR, 0xffffffff);
}

START_TEST(test_bad_state)
{
    Copy c = {
        .in = bl_side(VA_A + 0x10000, 0, 1, 0, 0x100, 16, 1, 0, 0, 0),
        .out = pitch_side(VA_B + 0x10000, 0x100),
        .len = 0x40, .count = 4,
    };
    uint8_t before[0x400], after[0x400];

    m(M_LAYOUT_IN, 2);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                 M_LAYOUT_IN);
    m(M_LAYOUT_IN + M_OUT_DELTA, 0x10001);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                 M_LAYOUT_IN + M_OUT_DELTA);
    m(M_BL_DIMS_IN, 6 << 4);                /* 64 GOBs high */
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                 M_BL_DIMS_IN);
    m(M_BL_DIMS_IN, 1 << 12);               /* FERMI_8 GOBs */
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                 M_BL_DIMS_IN);
    m(M_FORMAT, 0x103);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                 M_FORMAT);
    m(M_FORMAT, 0x1000101);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                 M_FORMAT);
    m(M_BUF_NOTIFY, 2);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                 M_BUF_NOTIFY);
    /* a class the object is not: INVALID_OBJECT, the binding dropped */
    m(M_DMA_BUFFER_IN, obj);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_OBJECT,
                 M_DMA_BUFFER_IN);
    send(&c, 0);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_OBJECT,
                 M_BUF_NOTIFY);
    m(M_DMA_BUFFER_IN, GR_DMA_VM);
    ck_assert_uint_eq(rd32(INTR), 0);

    /* block-linear sizes of 0, negative, too deep: nothing copied */
    mem_rw(VA_B + 0x10000, before, sizeof(before), false);
    c.in.height = 0;
    send(&c, 0);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                 M_BUF_NOTIFY);
    c.in.height = 16;
    c.in.width = 0x80000000u;
    send(&c, 0);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                 M_BUF_NOTIFY);
    c.in.width = 0x100;
    c.in.depth = 0x801;
    send(&c, 0);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                 M_BUF_NOTIFY);
    mem_rw(VA_B + 0x10000, after, sizeof(after), false);
    ck_assert(!memcmp(before, after, sizeof(before)));

    /* no notify DMA: INVALID_OBJECT after the copy */
    c.in.depth = 1;
    m(NV50_GR_MTHD_DMA_NOTIFY, 0);
    send(&c, 0);
    expect_error(NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_OBJECT,
                 M_BUF_NOTIFY);

    /* not a method of the class */
    m(0x400, 0);
    expect_error(NV50_GR_INTR_ILLEGAL_MTHD, 0, 0x400);
    m(0x240, 0);
    expect_error(NV50_GR_INTR_ILLEGAL_MTHD, 0, 0x240);
}
END_TEST

/* FORMAT with different increments: logged as unimplemented, copied */
START_TEST(test_format_unimp)
{
    g_autofree char *log = NULL;

    gemu_loglevel |= LOG_UNIMP;
    m(M_FORMAT, 0x0201);
    m(M_BUF_NOTIFY, 0);
    ck_assert_uint_eq(rd32(INTR), 0);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "G80_M2MF FORMAT input 1 != output "
                                 "2"));
}
END_TEST

/* --- nouveau's buffer move, through PFIFO --- */

/*
 * nv50_bo_move_init + nv50_bo_move_m2mf for a tiled (kind != 0) source
 * and a linear destination: one-GOB blocks 64 bytes wide, a line per
 * 64 bytes.
 */
START_TEST(test_nouveau_move)
{
    const uint32_t size = 0x40000, stride = 64, height = size / stride;
    const uint64_t src = VA_A, dst = VA_B;
    g_autofree uint8_t *a = g_malloc(size);
    g_autofree uint8_t *b = g_malloc(size);
    const uint32_t bl_in[] = {
        0,                                  /* LAYOUT_IN BLOCKLINEAR */
        0,                                  /* ONE_GOB x3 */
        stride, height, 1, 0, 0,
    };
    const uint32_t hi[] = { (uint32_t)(src >> 32), (uint32_t)(dst >> 32) };
    const uint32_t lo[] = {
        (uint32_t)src, (uint32_t)dst, stride, stride, stride, height,
        0x101, 0,
    };

    noise(a, size, 7);
    mem_rw(src, a, size, true);
    push_1(SUBC_M2MF, 0, H_M2MF);
    push_1(SUBC_M2MF, NV50_GR_MTHD_DMA_NOTIFY, H_NTFY);
    push_1(SUBC_M2MF, M_DMA_BUFFER_IN, GR_H_VM);
    push_1(SUBC_M2MF, M_DMA_BUFFER_OUT, GR_H_VM);
    push_mthd(SUBC_M2MF, M_LAYOUT_IN, bl_in, G_N_ELEMENTS(bl_in));
    push_1(SUBC_M2MF, M_LAYOUT_IN + M_OUT_DELTA, 1);    /* PITCH */
    push_mthd(SUBC_M2MF, M_OFFSET_IN_HIGH, hi, 2);
    push_mthd(SUBC_M2MF, M_OFFSET_IN, lo, G_N_ELEMENTS(lo));
    push_1(SUBC_M2MF, NV50_GR_MTHD_NOP, 0);
    push_submit();
    ck_assert_uint_eq(rd32(INTR), 0);
    /* a 64-byte-wide one-GOB surface is linear: the bytes as they were */
    mem_rw(dst, b, size, false);
    ck_assert(!memcmp(a, b, size));
    mem_rw(NTFY_VA + 0x10, b, 16, false);
    ck_assert_uint_ne(ldn_le_p(b, 8), 0);
    ck_assert_uint_eq(ldn_le_p(b + 12, 4), 0);
}
END_TEST

Suite *nv50_m2mf_suite(void)
{
    Suite *su = suite_create("nv50_m2mf");
    TCase *tc = tcase_create("m2mf");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_pitch_to_pitch);
    tcase_add_test(tc, test_pitch_contiguous);
    tcase_add_test(tc, test_pitch_negative);
    tcase_add_test(tc, test_pitch_to_bl);
    tcase_add_test(tc, test_bl_to_pitch);
    tcase_add_test(tc, test_bl_to_bl);
    tcase_add_test(tc, test_gart);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_notify);
    tcase_add_test(tc, test_fault_write);
    tcase_add_test(tc, test_fault_read);
    tcase_add_test(tc, test_fault_limit);
    tcase_add_test(tc, test_bad_state);
    tcase_add_test(tc, test_format_unimp);
    tcase_add_test(tc, test_nouveau_move);
    suite_add_tcase(su, tc);
    return su;
}
