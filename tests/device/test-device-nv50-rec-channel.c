/*
 * A recording of a small driver, from power-on to a channel's work
 * (tests/recordings/g84-channel.rec: the replay fuzz harness's seed that
 * reaches PFIFO and PGRAPH, docs/devel/fuzzing.md).  The "driver" is
 * this file: every BAR and config access it makes, every guest-RAM read
 * of the card and every INTx change are recorded (hw/pci/replay.c's
 * PciRecorder, as gemu -M g84 -clock virtual -record does) on the card
 * a replay starts from (nv50_replay_card_new(), 16 MiB of VRAM):
 *
 *  - PCI config: the IDs, the BARs, memory decoding; the card's ID;
 *    PFIFO's and PGRAPH's interrupts enabled as nvkm does;
 *  - a GPFIFO channel set up by nv50_hostchan_init() through BAR0 (its
 *    instance block, page tables and IB in VRAM through the PRAMIN
 *    window, PCI_COMMAND's bus mastering through config space) with
 *    M2MF, 2D and G84_3D objects;
 *  - a pushbuffer in guest RAM: an M2MF copy from guest RAM to VRAM, a
 *    2D solid rectangle, a 3D clear of a render target and a triangle
 *    drawn on it (its code copied by M2MF, its vertices read from guest
 *    RAM), a semaphore
 *    release and REF_CNT; then a second IB entry whose semaphore
 *    acquire parks the channel until the "CPU" writes the value and the
 *    clock jumps to the card's re-check, and a non-stall interrupt the
 *    driver acknowledges;
 *  - read-backs through PRAMIN of what the engines wrote.
 *
 * The suite checks that the recording replays against a fresh card to
 * its END, in the same state, and that the committed file still does:
 * a model change that breaks it is a divergence named by access.  With
 * GEMU_REC_WRITE=FILE the recording is written to FILE (`make
 * recordings`; tests/recordings/README.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/hostchan.h"
#include "hw/nv50/nv50_regs.h"
#include "hw/nv50/pfifo.h"
#include "hw/nv50/replay.h"
#include "hw/nv50/gr/gr.h"
#include "hw/nv50/gr/2d.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/gr/draw.h"
#include "hw/pci/replay.h"
#include "target/tesla.h"

#define REC_FILE        "tests/recordings/g84-channel.rec"
#define REC_VRAM        (16u << 20)

#define CHID            1
#define INST            0x100000ull     /* the PRAMIN window's MiB */
#define VA_BASE         0x20000000ull
#define VRAM_BASE       (INST + 0x40000)
#define VA_GART         0x40000000ull
#define GART_LEN        0x10000u        /* guest RAM the card may read */
#define USER(off)       (0xc00000 + CHID * 0x2000 + (off))

/* guest RAM: pushbuffer, semaphores, the M2MF source */
#define PUSH_OFS        0x0000u
#define SEM_OFS         0x8000u
#define NTFY_OFS        0x8100u         /* M2MF's notifier, 256 bytes */
#define SRC_OFS         0x9000u
#define VB_OFS          0xa000u         /* 3 vertices: position, colour */
#define CODE_OFS        0xb000u         /* VP; the FP at + FP_CODE ... */
#define FP_CODE         0x100u
#define CODE_LEN        0x200u          /* ... copied to CODE_VA */
/* VRAM, in the channel's VA: after the pushbuffer and IB */
#define DST_VA          (VA_BASE + 0x20000)
#define FILL_VA         (VA_BASE + 0x30000)
#define RT_VA           (VA_BASE + 0x40000)
#define CODE_VA         (VA_BASE + 0x50000)
#define PITCH           256u
#define ROWS            16u

#define SUBC_M2MF       0
#define SUBC_2D         1
#define SUBC_3D         2
#define H_M2MF          0xbeef5039u
#define H_2D            0xbeef502du
#define H_3D            0xbeef8297u
#define H_NTFY          0xd0000010u
#define DMA_NTFY        0x104           /* after the host channel's two */

/* PFIFO's methods (rnndb nv_object.xml) */
#define M_SEMAPHORE_ADDRESS_HIGH 0x10
#define M_NON_STALL_INTR 0x20
#define M_REF_CNT       0x50
#define M_DMA_SEMAPHORE 0x60
#define SEM_ACQUIRE_GEQ 4
#define SEM_RELEASE     2
/* M2MF (rnndb nv_m2mf.xml) */
#define M_DMA_BUFFER_IN 0x184
#define M_LAYOUT_IN     0x200
#define M_LAYOUT_OUT    0x21c
#define M_OFFSET_IN_HIGH 0x238
#define M_OFFSET_IN     0x30c
#define PGRAPH_INTR     0x400100
#define FMT_A8R8G8B8    0xcf            /* 2D and RT: BGRA8_UNORM */
#define FILL_COLOR      0xff336699u

/* The driver: its card, clock and recorder. */
typedef struct Drv {
    NV50State *s;
    GemuClock clk;
    GuestRAM *ram;
    uint8_t *sysmem;
    PciRecorder *rec;
    uint32_t pmem;              /* PRAMIN window as last set, + 1 */
    GArray *push;               /* words not yet placed in guest RAM */
} Drv;

static uint64_t bus(Drv *d, GemuRecType type, uint64_t addr,
                       unsigned size, uint64_t val)
{
    PCIDevice *pci = PCI_DEVICE(d->s);

    gemu_clock_bus_access(&d->clk);
    switch (type) {
    case GEMU_REC_BAR_READ:
        val = pci_mmio_read(pci, addr, size);
        break;
    case GEMU_REC_BAR_WRITE:
        pci_mmio_write(pci, addr, val, size);
        break;
    case GEMU_REC_CFG_READ:
        val = pci_config_read(pci, addr, size);
        break;
    default:
        pci_config_write(pci, addr, val, size);
        break;
    }
    pci_recorder_access(d->rec, type, addr, size, val);
    return val;
}

static uint32_t drd32(Drv *d, uint32_t reg)
{
    return bus(d, GEMU_REC_BAR_READ, BAR0_GPA + reg, 4, 0);
}

static void dwr32(Drv *d, uint32_t reg, uint32_t v)
{
    bus(d, GEMU_REC_BAR_WRITE, BAR0_GPA + reg, 4, v);
}

/* VRAM through the PRAMIN window, moved only when @addr is outside */
static uint32_t vram32(Drv *d, bool write, uint64_t addr, uint32_t v)
{
    uint32_t win = addr >> 20 << 4;

    if (d->pmem != win + 1) {
        dwr32(d, NV_PBUS_HOST_MEM_PMEM, win);
        d->pmem = win + 1;
    }
    if (write) {
        dwr32(d, NV_PMEM_BASE + (addr & 0xfffff), v);
        return v;
    }
    return drd32(d, NV_PMEM_BASE + (addr & 0xfffff));
}

/* nv50_hostchan_init's accesses, as a guest's */
static uint32_t chan_access(void *opaque, NV50HostChanSpace space,
                            bool write, uint64_t addr, uint32_t val)
{
    Drv *d = opaque;

    switch (space) {
    case NV50_HOSTCHAN_REG:
        return bus(d, write ? GEMU_REC_BAR_WRITE : GEMU_REC_BAR_READ,
                      BAR0_GPA + addr, 4, val);
    case NV50_HOSTCHAN_VRAM:
        return vram32(d, write, addr, val);
    default:
        return bus(d, write ? GEMU_REC_CFG_WRITE : GEMU_REC_CFG_READ,
                      addr, 2, val);
    }
}

/* --- the pushbuffer, built here and placed in guest RAM --- */

static void mthd(Drv *d, unsigned subc, uint32_t m, const uint32_t *data,
                 unsigned n)
{
    uint32_t hdr = n << 18 | subc << 13 | m;

    g_array_append_val(d->push, hdr);
    g_array_append_vals(d->push, data, n);
}

static void m1(Drv *d, unsigned subc, uint32_t m, uint32_t v)
{
    mthd(d, subc, m, &v, 1);
}

/* The words since the last call, at guest RAM @*ofs, as one IB entry. */
static void submit(Drv *d, NV50HostChan *c, uint32_t *ofs)
{
    memcpy(d->sysmem + *ofs, d->push->data, d->push->len * 4);
    nv50_hostchan_ib_at(c, VA_GART + *ofs, d->push->len);
    *ofs += d->push->len * 4;
    g_array_set_size(d->push, 0);
    nv50_hostchan_kick(c);
}

static void semaphore(Drv *d, uint32_t ofs, uint32_t val, uint32_t op)
{
    const uint32_t sem[4] = {
        (uint32_t)((VA_GART + ofs) >> 32), (uint32_t)(VA_GART + ofs),
        val, op,
    };

    mthd(d, SUBC_M2MF, M_SEMAPHORE_ADDRESS_HIGH, sem, 4);
}

/* @lines lines of @len bytes from guest RAM @ofs to VRAM at @va */
static void m2mf_copy(Drv *d, uint32_t ofs, uint64_t va, uint32_t len,
                      uint32_t lines)
{
    const uint32_t hi[] = { (uint32_t)(VA_GART >> 32),
                            (uint32_t)(va >> 32) };
    const uint32_t lo[] = {
        (uint32_t)(VA_GART + ofs), (uint32_t)va, len, len, len, lines,
        0x101, 0,               /* FORMAT, BUF_NOTIFY: the copy */
    };

    mthd(d, SUBC_M2MF, M_OFFSET_IN_HIGH, hi, 2);
    mthd(d, SUBC_M2MF, M_OFFSET_IN, lo, G_N_ELEMENTS(lo));
}

/* M2MF's set-up: VM in and out, pitch layouts, the notifier */
static void m2mf_init(Drv *d)
{
    const uint32_t layout[] = { 1 };                    /* PITCH */
    const uint32_t dma[] = { NV50_HOSTCHAN_H_VM, NV50_HOSTCHAN_H_VM };

    m1(d, SUBC_M2MF, NV50_GR_MTHD_DMA_NOTIFY, H_NTFY);
    mthd(d, SUBC_M2MF, M_DMA_BUFFER_IN, dma, 2);
    mthd(d, SUBC_M2MF, M_LAYOUT_IN, layout, 1);
    mthd(d, SUBC_M2MF, M_LAYOUT_OUT, layout, 1);
}

/* A solid rectangle (8, 2) - (40, 10) on a 64 x ROWS pitch surface */
static void fill_2d(Drv *d)
{
    const uint32_t dst[] = {
        FMT_A8R8G8B8, 1, 0, 1, 0, PITCH, 64, ROWS,
        (uint32_t)(FILL_VA >> 32), (uint32_t)FILL_VA,
    };
    const uint32_t pts[] = { 8, 2, 40, 10 };

    m1(d, SUBC_2D, NV502D_DMA_DST, NV50_HOSTCHAN_H_VM);
    mthd(d, SUBC_2D, NV502D_DST_FORMAT, dst, G_N_ELEMENTS(dst));
    m1(d, SUBC_2D, NV502D_CLIP_ENABLE, 0);
    m1(d, SUBC_2D, NV502D_OPERATION, 3);                /* SRCCOPY */
    m1(d, SUBC_2D, NV502D_DRAW_SHAPE, 4);               /* RECTANGLES */
    m1(d, SUBC_2D, NV502D_DRAW_COLOR_FORMAT, FMT_A8R8G8B8);
    m1(d, SUBC_2D, NV502D_DRAW_COLOR, FILL_COLOR);
    mthd(d, SUBC_2D, NV502D_DRAW_POINT32_X(0), pts, 4);
}

/* RT 0 (pitch, 64 x ROWS) cleared to (0.25, 0.5, 0.75, 1) */
static void clear_3d(Drv *d)
{
    const uint32_t rt[] = {
        (uint32_t)(RT_VA >> 32), (uint32_t)RT_VA, FMT_A8R8G8B8, 0,
        0x10000 >> 2,
    };
    const uint32_t dims[] = { 0x80000000u | PITCH, ROWS };
    const uint32_t scissor[] = { 64u << 16, ROWS << 16 };
    const uint32_t color[] = {
        0x3e800000, 0x3f000000, 0x3f400000, 0x3f800000,
    };

    m1(d, SUBC_3D, 0x01c0, NV50_HOSTCHAN_H_VM);         /* DMA_COLOR(0) */
    mthd(d, SUBC_3D, 0x0200, rt, G_N_ELEMENTS(rt));     /* RT_ADDRESS.. */
    mthd(d, SUBC_3D, 0x1240, dims, 2);                  /* RT_HORIZ/VERT */
    m1(d, SUBC_3D, 0x121c, 076543210 << 4 | 1);         /* RT_CONTROL */
    mthd(d, SUBC_3D, 0x0ff4, scissor, 2);               /* SCREEN_SCISSOR */
    mthd(d, SUBC_3D, 0x0c00, scissor, 2);               /* VIEWPORT_HORIZ */
    mthd(d, SUBC_3D, 0x0d80, color, 4);                 /* CLEAR_COLOR */
    m1(d, SUBC_3D, NV50_3D_CLEAR_BUFFERS, 0x3c);
}

/* @src assembled for @type into guest RAM at @ofs */
static void program(Drv *d, TeslaProgType type, const char *src,
                    uint32_t ofs)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    ck_assert_msg(tesla_assemble(TESLA_G84, type, src, w, &err), "%s",
                  err ? err : "");
    memcpy(d->sysmem + ofs, w->data, w->len * 4);
}

static void m2(Drv *d, uint32_t m, uint64_t va)
{
    const uint32_t w[2] = { (uint32_t)(va >> 32), (uint32_t)va };

    mthd(d, SUBC_3D, m, w, 2);
}

/*
 * On the cleared RT: a green triangle (0, 0), (48, 0), (0, 16), its
 * VP passing position and colour through, its FP interpolating the
 * colour (the layout of Mesa's nv50 codegen, 1/w at v[0x0]).  The code
 * goes to VRAM by M2MF, as Mesa uploads it: a code fetch reads pages.
 */
static void draw_3d(Drv *d)
{
    static const float vb[3][8] = {
        { -1, -1, 0, 1, 0, 1, 0, 1 },
        { 0.5f, -1, 0, 1, 0, 1, 0, 1 },
        { -1, 1, 0, 1, 0, 1, 0, 1 },
    };
    const uint32_t vmap[2] = { 0x03020100, 0x07060504 };
    const uint32_t link[5] = { 0, 4 << 8 | 4, 0 << 8 | 4, 0, 0 };
    const uint32_t xlate[3] = { 0x42000000, 0x41000000, 0x3f000000 };
    const uint32_t scale[3] = { 0x42000000, 0x41000000, 0x3f000000 };
    const uint32_t range[2] = { 0, 0x3f800000 };
    uint64_t vb_va = VA_GART + VB_OFS;
    g_autoptr(GString) vp = g_string_new(NULL);

    memcpy(d->sysmem + VB_OFS, vb, sizeof(vb));
    for (unsigned i = 0; i < 8; i++) {                  /* o[i] = a[i] */
        g_string_append_printf(vp, "ld b32 $r0 a[0x%x]\n"
                               "mov b32 o[0x%x] $r0\n", i * 4, i * 4);
    }
    g_string_append(vp, "exit nop\n");
    program(d, TESLA_PROG_VP, vp->str, CODE_OFS);
    program(d, TESLA_PROG_FP,
            "interp $r4 v[0x0]\n" "rcp f32 $r4 $r4\n"
            "interp $r0 v[0x4] $r4\n" "interp $r1 v[0x8] $r4\n"
            "interp $r2 v[0xc] $r4\n" "interp $r3 v[0x10] $r4\n"
            "exit nop\n", CODE_OFS + FP_CODE);
    m2mf_copy(d, CODE_OFS, CODE_VA, CODE_LEN, 1);

    m1(d, SUBC_3D, NV50_3D_DMA_CODE_CB, NV50_HOSTCHAN_H_VM);
    m2(d, NV50_3D_VP_ADDRESS_HIGH, CODE_VA);
    m2(d, NV50_3D_FP_ADDRESS_HIGH, CODE_VA);
    m1(d, SUBC_3D, NV50_3D_VP_START_ID, 0);
    m1(d, SUBC_3D, NV50_3D_VP_ATTR_EN(0), 0xff);
    m1(d, SUBC_3D, NV50_3D_VP_REG_ALLOC_TEMP, 8);
    m1(d, SUBC_3D, NV50_3D_VP_REG_ALLOC_RESULT, 8);
    m1(d, SUBC_3D, NV50_3D_VP_RESULT_MAP_SIZE, 8);
    mthd(d, SUBC_3D, NV50_3D_VP_RESULT_MAP(0), vmap, 2);
    m1(d, SUBC_3D, 0x1414, FP_CODE);                    /* FP_START_ID */
    m1(d, SUBC_3D, 0x198c, 5);                          /* FP_REG_ALLOC_TEMP */
    m1(d, SUBC_3D, 0x1298, 4);                          /* FP_RESULT_COUNT */
    mthd(d, SUBC_3D, NV50_3D_GP_VIEWPORT_ID_ENABLE, link, 5);
    m1(d, SUBC_3D, 0x1988, 8u << 24 | 4 << 16 | 4 << 8 | 4);
                                                /* FP_INTERPOLANT_CTRL */
    m1(d, SUBC_3D, 0x1a00, 0x1111);                     /* COLOR_MASK(0) */
    m1(d, SUBC_3D, NV50_3D_RASTERIZE_ENABLE, 1);
    m1(d, SUBC_3D, NV50_3D_POLYGON_MODE_FRONT, 0x1b02);     /* FILL */
    m1(d, SUBC_3D, NV50_3D_POLYGON_MODE_BACK, 0x1b02);
    m1(d, SUBC_3D, NV50_3D_VIEWPORT_TRANSFORM_EN, 1);
    mthd(d, SUBC_3D, NV50_3D_VIEWPORT_TRANSLATE_X, xlate, 3);
    mthd(d, SUBC_3D, NV50_3D_VIEWPORT_SCALE_X, scale, 3);
    mthd(d, SUBC_3D, NV50_3D_DEPTH_RANGE_NEAR, range, 2);
    /* FORMAT 32_32_32_32, TYPE FLOAT; attribute 1 at +16 */
    m1(d, SUBC_3D, 0x1ac0, 0x7e080000);                 /* ..._ATTRIB(0) */
    m1(d, SUBC_3D, 0x1ac4, 0x7e080000 | 16 << 5);
    m1(d, SUBC_3D, NV50_3D_VERTEX_ARRAY_FETCH(0),
       NV50_3D_VERTEX_ARRAY_FETCH_ENABLE | 32);
    m2(d, NV50_3D_VERTEX_ARRAY_START_HIGH(0), vb_va);
    m2(d, NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(0), vb_va + sizeof(vb) - 1);
    m1(d, SUBC_3D, NV50_3D_VERTEX_BEGIN_GL, 4);         /* TRIANGLES */
    m1(d, SUBC_3D, NV50_3D_VERTEX_BUFFER_FIRST, 0);
    m1(d, SUBC_3D, NV50_3D_VERTEX_BUFFER_COUNT, 3);
    m1(d, SUBC_3D, NV50_3D_VERTEX_END_GL, 0);
}

/* The guest idles: the clock jumps to the card's next timer. */
static void idle_jump(Drv *d)
{
    int64_t next = gemu_clock_next_deadline(&d->clk);
    int64_t delta = next - gemu_clock_get_ns(&d->clk);

    ck_assert_int_ne(next, INT64_MAX);
    gemu_clock_advance(&d->clk, delta);
    pci_recorder_clock(d->rec, delta);
}

/* Power-on to the channel's set-up and its objects. */
static void bring_up(Drv *d, NV50HostChan *c)
{
    NV50HostChanConfig cfg = {
        .chid = CHID, .inst = INST, .va_base = VA_BASE,
        .vram_base = VRAM_BASE, .vram_len = 0x100000,
        .gart_va = VA_GART, .gart_gpa = GART_GPA, .gart_len = GART_LEN,
        .access = chan_access, .opaque = d, .vram_zero = true,
    };
    g_autofree char *err = NULL;

    ck_assert_uint_eq(bus(d, GEMU_REC_CFG_READ, PCI_VENDOR_ID, 4, 0),
                      0x040010de);
    bus(d, GEMU_REC_CFG_WRITE, 0x10, 4, BAR0_GPA);
    bus(d, GEMU_REC_CFG_WRITE, 0x14, 4, BAR1_GPA);
    bus(d, GEMU_REC_CFG_WRITE, 0x1c, 4, BAR3_GPA);
    bus(d, GEMU_REC_CFG_WRITE, PCI_COMMAND, 2, PCI_COMMAND_MEMORY);
    ck_assert_uint_eq(drd32(d, NV_PMC_ID), 0x084000a2);
    dwr32(d, NV_PMC_INTR_EN_HOST, 1);
    /* nv50_fifo_init, nv50_gr_init (the parts with effects) */
    dwr32(d, 0x002100, 0xffffffff);
    dwr32(d, 0x002140, 0xbfffffff);
    dwr32(d, 0x400108, 0xffffffff);
    dwr32(d, 0x400138, 0xffffffff);
    dwr32(d, PGRAPH_INTR, 0xffffffff);
    dwr32(d, 0x40013c, 0xffffffff);
    dwr32(d, 0x400500, 0x00010001);
    ck_assert_msg(nv50_hostchan_init(c, d->s, &cfg, &err), "%s", err);
    nv50_hostchan_ctxdma(c, DMA_NTFY, NV50_DMA_VM, VA_GART + NTFY_OFS,
                         VA_GART + NTFY_OFS + 0xff);
    nv50_hostchan_ramht_insert(c, H_NTFY, DMA_NTFY);
    nv50_hostchan_object(c, 0x5039, H_M2MF);
    nv50_hostchan_object(c, 0x502d, H_2D);
    nv50_hostchan_object(c, 0x8297, H_3D);
}

/* The channel's work, kicked twice; what it wrote, read back. */
static void run_channel(Drv *d, NV50HostChan *c)
{
    uint32_t ofs = PUSH_OFS;

    m1(d, SUBC_M2MF, 0, H_M2MF);
    m1(d, SUBC_2D, 0, H_2D);
    m1(d, SUBC_3D, 0, H_3D);
    m1(d, SUBC_M2MF, M_DMA_SEMAPHORE, NV50_HOSTCHAN_H_VM);
    for (unsigned i = 0; i < 4 * PITCH; i++) {
        d->sysmem[SRC_OFS + i] = i * 7 + 3;
    }
    m2mf_init(d);
    m2mf_copy(d, SRC_OFS, DST_VA, PITCH, 4);
    fill_2d(d);
    clear_3d(d);
    draw_3d(d);
    semaphore(d, SEM_OFS + 4, 0x42, SEM_RELEASE);
    m1(d, SUBC_M2MF, M_REF_CNT, 0x11);
    submit(d, c, &ofs);
    ck_assert_uint_eq(drd32(d, USER(0x48)), 0x11);       /* REF_CNT */
    ck_assert_uint_eq(ldn_le_p(d->sysmem + SEM_OFS + 4, 4), 0x42);
    ck_assert_uint_ne(ldn_le_p(d->sysmem + NTFY_OFS + 0x10, 8), 0);

    stn_le_p(d->sysmem + SEM_OFS, 4, 1);
    semaphore(d, SEM_OFS, 5, SEM_ACQUIRE_GEQ);
    m1(d, SUBC_M2MF, M_REF_CNT, 0x77);
    m1(d, SUBC_M2MF, M_NON_STALL_INTR, 0);
    /* a waiter on the non-stall event: nv04_fifo_uevent_init */
    dwr32(d, 0x002140, 0xbfffffff | NV_PFIFO_INTR_NON_STALL);
    submit(d, c, &ofs);
    ck_assert_uint_eq(drd32(d, USER(0x48)), 0x11);       /* parked */
    stn_le_p(d->sysmem + SEM_OFS, 4, 6);                /* no kick */
    idle_jump(d);
    ck_assert_uint_eq(drd32(d, USER(0x48)), 0x77);
    ck_assert_uint_eq(drd32(d, NV_PMC_INTR_HOST) & 0x100, 0x100);
    ck_assert_uint_eq(drd32(d, 0x002100), NV_PFIFO_INTR_NON_STALL);
    dwr32(d, 0x002100, NV_PFIFO_INTR_NON_STALL);
    ck_assert_uint_eq(drd32(d, PGRAPH_INTR), 0);
    ck_assert_uint_eq(drd32(d, NV_PMC_INTR_HOST), 0);

    /* the copy's last word, a filled and an unfilled pixel, the clear */
    ck_assert_uint_eq(vram32(d, false, VRAM_BASE + (DST_VA - VA_BASE) +
                             4 * PITCH - 4, 0),
                      ldn_le_p(d->sysmem + SRC_OFS + 4 * PITCH - 4, 4));
    ck_assert_uint_eq(vram32(d, false, VRAM_BASE + (FILL_VA - VA_BASE) +
                             5 * PITCH + 20 * 4, 0), FILL_COLOR);
    ck_assert_uint_eq(vram32(d, false, VRAM_BASE + (FILL_VA - VA_BASE) +
                             12 * PITCH + 20 * 4, 0), 0);
    ck_assert_uint_eq(vram32(d, false, VRAM_BASE + (RT_VA - VA_BASE) +
                             (ROWS - 1) * PITCH + 63 * 4, 0), 0xff4080bfu);
    ck_assert_uint_eq(vram32(d, false, VRAM_BASE + (RT_VA - VA_BASE) +
                             4 * PITCH + 4 * 4, 0), 0xff00ff00u);
}

/* The whole run on a fresh card, recorded into @out. */
static void record(GByteArray *out)
{
    GemuRecHeader hdr = {
        .machine = "g84", .version = GEMU_REC_VERSION,
        .flags = GEMU_REC_F_VIRTUAL_CLOCK,
        .access_ns = GEMU_VCLOCK_ACCESS_NS, .vram_size = REC_VRAM,
    };
    g_autoptr(GError) err = NULL;
    GemuRecWriter *w;
    NV50HostChan c;
    Drv d = { 0 };
    uint64_t accesses;

    d.s = nv50_replay_card_new(&hdr, &d.clk, REC_VRAM, &err);
    ck_assert_msg(d.s, "%s", err ? err->message : "");
    d.ram = guest_ram_new();
    d.sysmem = g_malloc0(GART_SIZE);
    guest_ram_add(d.ram, GART_GPA, GART_SIZE, d.sysmem);
    d.s->dma.ram = d.ram;
    d.push = g_array_new(false, false, sizeof(uint32_t));
    w = gemu_rec_writer_new_mem(&hdr, out);
    d.rec = pci_recorder_new(PCI_DEVICE(d.s), &d.s->dma, w);

    bring_up(&d, &c);
    run_channel(&d, &c);

    accesses = pci_recorder_accesses(d.rec);
    pci_recorder_free(d.rec);
    ck_assert(gemu_rec_writer_close(w, accesses, gemu_clock_get_ns(&d.clk),
                                    nv50_state_digest(d.s), NULL));
    g_array_free(d.push, true);
    d.s->dma.ram = NULL;
    nv50_replay_card_free(d.s, &d.clk);
    guest_ram_free(d.ram);
    g_free(d.sysmem);
}

/*
 * Replay @data as gemu-replay does; NULL if it reached its END in the
 * recorded state, else what went wrong (g_free).
 */
static char *replay(const uint8_t *data, size_t len, uint64_t *accesses)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GemuRecFile) f = gemu_rec_parse(data, len, &err);
    const GemuRecord *end;
    GemuClock clk;
    NV50State *s;
    PciReplay *r;
    char *msg = NULL;
    int st;

    if (!f) {
        return g_strdup(err->message);
    }
    s = nv50_replay_card_new(&f->hdr, &clk, REC_VRAM, &err);
    if (!s) {
        return g_strdup(err->message);
    }
    r = pci_replay_new(PCI_DEVICE(s), &s->dma, &clk, f);
    while ((st = pci_replay_step(r, &err)) > 0) {
        continue;
    }
    end = pci_replay_end(r);
    *accesses = pci_replay_seq(r);
    if (st < 0) {
        msg = g_strdup(err->message);
    } else if (!end) {
        msg = g_strdup("no END record");
    } else if (end->digest != nv50_state_digest(s) ||
               end->val != gemu_clock_get_ns(&clk)) {
        msg = g_strdup("END reached in another state");
    }
    pci_replay_free(r);
    nv50_replay_card_free(s, &clk);
    return msg;
}

/*
 * The run records (its checks of what the card did pass), holds guest
 * memory reads, an interrupt and an idle jump, stays small, and replays
 * to its END in the same state.  GEMU_REC_WRITE=FILE: written there.
 */
START_TEST(recording_replays)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    g_autoptr(GemuRecFile) f = NULL;
    g_autoptr(GError) err = NULL;
    g_autofree char *msg = NULL;
    const char *out = g_getenv("GEMU_REC_WRITE");
    unsigned dma = 0, irq = 0, clock = 0;
    uint64_t n = 0;

    record(buf);
    f = gemu_rec_parse(buf->data, buf->len, &err);
    ck_assert_msg(f && f->complete, "%s", err ? err->message : "cut");
    for (guint i = 0; i < f->records->len; i++) {
        uint8_t t = g_array_index(f->records, GemuRecord, i).type;

        dma += t == GEMU_REC_DMA_READ;
        irq += t == GEMU_REC_IRQ;
        clock += t == GEMU_REC_CLOCK;
    }
    ck_assert_uint_ge(dma, 4);      /* 2 pushbuffers, M2MF, acquire */
    ck_assert_uint_eq(irq, 2);
    ck_assert_uint_eq(clock, 1);
    ck_assert_uint_lt(buf->len, 32 * 1024);
    msg = replay(buf->data, buf->len, &n);
    ck_assert_msg(!msg, "%s", msg);
    if (out) {
        ck_assert_msg(g_file_set_contents(out, (const char *)buf->data,
                                          buf->len, &err), "%s",
                      err->message);
    }
}
END_TEST

/*
 * The committed recording (the fuzz seed) replays to its END: if the
 * card's model changed on purpose, `make recordings` makes it again.
 */
START_TEST(committed_recording_replays)
{
    const char *src = getenv("GEMU_SRC");
    g_autofree char *path = g_build_filename(src ? src : GEMU_SRC_PATH,
                                             REC_FILE, NULL);
    g_autofree char *data = NULL;
    g_autofree char *msg = NULL;
    gsize len;
    uint64_t n = 0;

    ck_assert_msg(g_file_get_contents(path, &data, &len, NULL),
                  "missing %s (set GEMU_SRC)", path);
    msg = replay((const uint8_t *)data, len, &n);
    ck_assert_msg(!msg, "%s: %s (make recordings, if the card changed on "
                  "purpose)", path, msg);
    ck_assert_uint_gt(n, 100);
}
END_TEST

Suite *nv50_rec_channel_suite(void)
{
    Suite *s = suite_create("nv50_rec_channel");
    TCase *tc = tcase_create("rec-channel");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, recording_replays);
    tcase_add_test(tc, committed_recording_replays);
    suite_add_tcase(s, tc);
    return s;
}
