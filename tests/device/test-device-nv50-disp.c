/*
 * The G84 display driven in-process through PCI the way nouveau 6.1's
 * KMS does it: nvkm's display init, the display instance and its RAMHT
 * written through PRAMIN, core and base EVO channels with their
 * pushbuffers in guest memory (DRM's coherent "kmsChanPush", wound with
 * JUMP 0 as nv50_dmac_wind does), GET_CAPABILITIES, the first modeset
 * (1024x768 XRGB8888, base image interlocked with the core UPDATE), the
 * supervisor interrupts serviced as nv50_disp_intr/nv50_disp_super do,
 * then an image written through BAR1 and read back pixel-exact from the
 * head's console after a vblank; a page flip; vblank interrupts.  Then
 * the hardware cursor: head827d_curs_set/clr in the core channel and
 * curs507a's position + UPDATE through the cursor PIO channel, the
 * composed frame read back pixel-exact as it shows, moves and goes.
 * Then the overlay: ovly827e's image/scale methods through the overlay
 * DMA channel and its position through the overlay-immediate PIO
 * channel, the frame read back as it shows, moves, changes and goes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"
#include "nv50-rig.h"

/* VRAM layout of this "driver" */
#define DISP_INST   0x0fe00000u         /* nvkm's 64 KiB display inst */
#define SYNCBUF     0x0fd00000u         /* disp->sync: notifiers */
#define FB0         0x00100000u         /* fbcon's framebuffer */
#define FB1         0x00500000u         /* a second one for a flip */
/* guest RAM: the pushbuffers */
#define PUSH_OFF(c) ((uint32_t)(c) * 0x1000u)

/* dispnv50/handles.h, disp.h */
#define HANDLE_SYNCBUF      0xf0000000u
#define HANDLE_VRAM         0xf0000001u
#define HANDLE_FB           0xfb000000u /* NV50_DISP_HANDLE_WNDW_CTX(0) */
#define CORE_NTFY           0x000
#define BASE_NTFY(h)        (0x040 * (1 + (h)) + 0x20)

#define W           1024
#define H           768
#define PITCH       4096

#define MTHD(m, n)  ((uint32_t)(n) << 18 | (m))

static void mask32(hwaddr reg, uint32_t mask, uint32_t val)
{
    wr32(reg, (rd32(reg) & ~mask) | val);
}

static void rig_setup(void)
{
    rig_init(LOG_GUEST_ERROR);
    rig.obj_next = 0x1000;          /* objects after the 4 KiB RAMHT */
    pci_config_write(rig.pci, 0x10, BAR0_GPA, 4);
    pci_config_write(rig.pci, 0x14, BAR1_GPA, 4);
    pci_config_write(rig.pci, 0x1c, BAR3_GPA, 4);
    pci_config_write(rig.pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
}

/* ---- nvkm ---- */

/* nv50_disp_init */
static void nvkm_disp_init(void)
{
    wr32(0x610184, rd32(0x614004));
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < 4; i++) {
            wr32(0x610190 + h * 0x10 + i * 4,
                 rd32(0x616100 + h * 0x800 + i * 4));
        }
    }
    for (int i = 0; i < 3; i++) {
        wr32(0x6101d0 + i * 4, rd32(0x61a000 + i * 0x800));
    }
    for (int i = 0; i < 2; i++) {
        wr32(0x6101e0 + i * 4, rd32(0x61c000 + i * 0x800));
    }
    ck_assert_uint_eq(rd32(0x610024) & 0x100, 0);   /* no VBIOS handoff */
    /* the RAMHT is cleared when nvkm allocates it */
    for (uint32_t i = 0; i < 0x1000; i += 4) {
        inst_wr32(DISP_INST + i, 0);
    }
    wr32(0x610010, (DISP_INST >> 8) | 9);
    wr32(0x61002c, 0x00000370);
    wr32(0x610028, 0x00000000);
    wr32(NV_PMC_INTR_EN_HOST, 1);
}

/* nvkm_ramht_insert (hash, linear probe) + nv50_dmaobj_bind */
static void nvkm_bind_ctxdma(int chid, uint32_t handle, uint64_t start,
                             uint64_t limit)
{
    uint32_t obj = rig.obj_next, co = 0;

    rig.obj_next += 0x20;
    inst_wr32(DISP_INST + obj + 0x00, 0x0009003d);      /* VRAM, RW */
    inst_wr32(DISP_INST + obj + 0x04, (uint32_t)limit);
    inst_wr32(DISP_INST + obj + 0x08, (uint32_t)start);
    inst_wr32(DISP_INST + obj + 0x0c, (uint32_t)(limit >> 32) << 24 |
                                      (uint32_t)(start >> 32));
    inst_wr32(DISP_INST + obj + 0x10, 0);
    inst_wr32(DISP_INST + obj + 0x14, 0);
    for (uint32_t h = handle; h; h >>= 9) {
        co ^= h & 0x1ff;
    }
    co = (co ^ (uint32_t)chid << 5) & 0x1ff;
    while (inst_rd32(DISP_INST + co * 8 + 4)) {
        co = (co + 1) & 0x1ff;
    }
    inst_wr32(DISP_INST + co * 8, handle);
    inst_wr32(DISP_INST + co * 8 + 4,
              (uint32_t)chid << 28 | chid | obj << 10);
}

/* nv50_disp_core_init / nv50_disp_dmac_init, pushbuffer in guest RAM */
static void nvkm_dmac_init(int c)
{
    uint64_t push = GART_GPA + PUSH_OFF(c);
    int spins = 0;

    mask32(0x610028, 0x00010001u << c, 0x00010000u << c);
    wr32(0x610204 + c * 0x10, (uint32_t)(push >> 8) | 3);
    wr32(0x610208 + c * 0x10, 0x00010000);
    wr32(0x61020c + c * 0x10, c);
    mask32(0x610200 + c * 0x10, 0x10, 0x10);
    wr32(0x640000 + c * 0x1000, 0);
    wr32(0x610200 + c * 0x10, c ? 0x00000013 : 0x01000013);
    while (rd32(0x610200 + c * 0x10) & 0x80000000) {
        ck_assert_int_lt(++spins, 10);
    }
}

/* nv50_disp_intr + nv50_disp_super; true if anything was pending */
static bool nvkm_intr(void)
{
    uint32_t intr0, intr1;

    if (!(rd32(NV_PMC_INTR_HOST) & NV50_INTR_PDISPLAY)) {
        return false;
    }
    intr0 = rd32(0x610020);
    intr1 = rd32(0x610024);
    ck_assert_msg(!(intr0 & 0x001f0000), "EVO channel error: 0x%08x "
                  "0x%08x", rd32(0x610080), rd32(0x610084));
    if (intr1 & 0x0000000c) {
        wr32(0x610024, intr1 & 0x0000000c);
    }
    if (intr1 & 0x00000070) {
        uint32_t super;

        wr32(0x610024, intr1 & 0x70);
        super = rd32(0x610030);
        if (intr1 & 0x10) {
            /* nv50_disp_super_1 reads the heads' and ORs' states */
            (void)rd32(0x610ae8);
            (void)rd32(0x610b58);
        }
        if ((intr1 & 0x20) && (super & 0x200)) {
            /* 2.1: the VPLL (nv50_devinit_pll_set), RG divider (2.2) */
            wr32(0x614100, 0x10000611);
            mask32(0x614200, 0xf, 1);
        }
        wr32(0x610030, 0x80000000);
    }
    return true;
}

/* ---- DRM's dispnv50 ---- */

/* struct nv50_dmac: the CPU's view of a pushbuffer in guest RAM */
typedef struct Dmac {
    int chid;
    uint32_t *ptr;
    uint32_t cur, put;
    uint32_t max;                   /* 0x1000 / 4 - 1 - 12 */
} Dmac;

static void dmac_create(Dmac *d, int chid)
{
    d->chid = chid;
    d->ptr = (uint32_t *)(rig.sysmem + PUSH_OFF(chid));
    d->cur = d->put = 0;
    d->max = 0x1000 / 4 - 1 - 12;
    nvkm_dmac_init(chid);
}

static uint32_t dmac_get(Dmac *d)
{
    return rd32(0x640004 + d->chid * 0x1000) / 4;
}

/* nv50_dmac_kick */
static void dmac_kick(Dmac *d)
{
    if (d->put != d->cur) {
        wr32(0x640000 + d->chid * 0x1000, d->cur * 4);
        d->put = d->cur;
    }
}

/* nv50_dmac_wait (nv50_dmac_wind on the way) */
static void dmac_wait(Dmac *d, uint32_t size)
{
    if (d->cur + size >= d->max) {
        if (dmac_get(d) == 0) {
            if (d->put == 0) {
                dmac_kick(d);
            }
            ck_assert_uint_gt(dmac_get(d), 0);
        }
        d->ptr[d->cur] = 0x20000000;        /* JUMP 0 */
        d->cur = 0;
        dmac_kick(d);
    }
    /* the hardware keeps up: GET is never in the way here */
    ck_assert(dmac_get(d) <= d->cur || dmac_get(d) > d->cur + size);
}

/* PUSH_MTHD of @n consecutive methods from @mthd */
static void dmac_mthd(Dmac *d, uint32_t mthd, const uint32_t *data, int n)
{
    dmac_wait(d, 1 + n);
    d->ptr[d->cur++] = MTHD(mthd, n);
    for (int i = 0; i < n; i++) {
        d->ptr[d->cur++] = data[i];
    }
}

#define PUSH(d, m, ...) \
    dmac_mthd(d, m, (const uint32_t[]){ __VA_ARGS__ }, \
              sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4)

static uint32_t sync_rd32(uint32_t off)
{
    return inst_rd32(SYNCBUF + off);
}

/* nvif_msec-style poll of a notifier, servicing interrupts meanwhile */
static bool wait_sync(uint32_t off, uint32_t mask, uint32_t want)
{
    for (int i = 0; i < 400; i++) {
        if ((sync_rd32(off) & mask) == want) {
            return true;
        }
        nvkm_intr();
        gemu_clock_advance(&rig.clk, 5 * 1000 * 1000);
    }
    return false;
}

static Dmac core, base0;

/* nv50_display_create: core and base channels, core507d init + caps */
static void drm_display_create(void)
{
    nvkm_disp_init();
    nvkm_bind_ctxdma(0, HANDLE_SYNCBUF, SYNCBUF, SYNCBUF + 0xfff);
    nvkm_bind_ctxdma(0, HANDLE_VRAM, 0, (256u << 20) - 1);
    dmac_create(&core, 0);
    nvkm_bind_ctxdma(1, HANDLE_SYNCBUF, SYNCBUF, SYNCBUF + 0xfff);
    nvkm_bind_ctxdma(1, HANDLE_VRAM, 0, (256u << 20) - 1);
    nvkm_bind_ctxdma(1, HANDLE_FB, 0, (256u << 20) - 1);
    dmac_create(&base0, 1);

    /* core507d_init */
    PUSH(&core, 0x088, HANDLE_SYNCBUF);
    dmac_kick(&core);
    /* fill most of the buffer so that the modeset winds it */
    for (int i = 0; i < 980; i++) {
        dmac_wait(&core, 1);
        core.ptr[core.cur++] = 0;           /* NOP */
    }
    dmac_kick(&core);
    /* core507d_caps_init */
    inst_wr32(SYNCBUF + CORE_NTFY + 4, 0);
    PUSH(&core, 0x084, 0x80000000 | CORE_NTFY);
    PUSH(&core, 0x08c, 0);
    PUSH(&core, 0x084, 0);
    dmac_kick(&core);
    ck_assert(wait_sync(CORE_NTFY + 4, 1, 1));
}

/* One head's mode and surfaces; base image at @fb; returns nothing. */
static void drm_modeset(uint32_t fb)
{
    /* base827c_image_set + ntfy_set + xlut_set, base507c_update */
    inst_wr32(SYNCBUF + BASE_NTFY(0), 0);               /* NOT_BEGUN */
    PUSH(&base0, 0x0a0, BASE_NTFY(0), HANDLE_SYNCBUF);
    PUSH(&base0, 0x084, 0x00000010);    /* NON_TEARING, interval 1 */
    PUSH(&base0, 0x0c0, HANDLE_FB, 0);
    PUSH(&base0, 0x110, 0, 0);
    PUSH(&base0, 0x800, fb >> 8, 0, W | H << 16,
         16 << 8 | 1u << 20, 0xcf << 8);
    PUSH(&base0, 0x0e0, 0);             /* base507c_xlut_clr */
    PUSH(&base0, 0x080, 1);             /* interlock with the core */
    dmac_kick(&base0);

    /* dac507d_ctrl, head507d_mode/view/core_set/olut, head827d */
    PUSH(&core, 0x400, 0x00000001, 0x00000003);
    PUSH(&core, 0x804, 65000 | 2u << 22, 0);
    PUSH(&core, 0x810, 0, 1344 | 806 << 16, 135 | 5 << 16,
         295 | 34 << 16, 1319 | 802 << 16, 0 | 1 << 16, 744);
    PUSH(&core, 0x82c, 0);
    PUSH(&core, 0x8a4, 0);
    PUSH(&core, 0x8c8, W | H << 16);
    PUSH(&core, 0x8d8, W | H << 16, W | H << 16);
    PUSH(&core, 0x860, 0);
    PUSH(&core, 0x868, W | H << 16, 16 << 8 | 1u << 20, 0xcf << 8,
         HANDLE_VRAM);
    PUSH(&core, 0x8c0, 0);
    /* head827d_olut_clr: the pixels go out as they are */
    PUSH(&core, 0x840, 0);
    PUSH(&core, 0x85c, 0);
    PUSH(&core, 0x900, 0x00000301);
    /* core507d_update with the base interlocked, notify */
    inst_wr32(SYNCBUF + CORE_NTFY, 0);
    PUSH(&core, 0x084, 0x80000000 | CORE_NTFY);
    PUSH(&core, 0x080, 0x00000002);
    PUSH(&core, 0x084, 0);
    dmac_kick(&core);
}

static uint32_t pattern(uint32_t x, uint32_t y, uint32_t salt)
{
    /* x8r8g8b8; the x byte is junk that must not show */
    return (0xa5u << 24) | ((x * 7 + salt) & 0xff) << 16 |
           ((y * 3) & 0xff) << 8 | ((x ^ y ^ salt) & 0xff);
}

/* fbcon draws through BAR1 (linear VRAM before nvkm's BAR1 VM) */
static void draw(uint32_t fb, uint32_t salt)
{
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x += 2) {
            uint64_t v = pattern(x, y, salt) |
                         (uint64_t)pattern(x + 1, y, salt) << 32;

            pci_mmio_write(rig.pci, BAR1_GPA + fb + y * PITCH + x * 4, v, 8);
        }
    }
}

static void check_console(DisplayConsole *con, uint32_t salt)
{
    const DisplaySurface *surf = display_console_surface(con);

    ck_assert_ptr_nonnull(surf);
    ck_assert_uint_eq(surf->width, W);
    ck_assert_uint_eq(surf->height, H);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            uint32_t p = pattern(x, y, salt);
            uint8_t rgba[4];

            display_surface_get_rgba(surf, x, y, rgba);
            if (rgba[0] != ((p >> 16) & 0xff) ||
                rgba[1] != ((p >> 8) & 0xff) || rgba[2] != (p & 0xff)) {
                ck_abort_msg("pixel (%u, %u): %02x%02x%02x, want %06x",
                             x, y, rgba[0], rgba[1], rgba[2],
                             p & 0xffffff);
            }
        }
    }
}

static void next_vblank(void)
{
    uint64_t frames = rd32(0x616340) >> 16;

    for (int i = 0; i < 40 && (rd32(0x616340) >> 16) == frames; i++) {
        gemu_clock_advance(&rig.clk, 1000 * 1000);
    }
    ck_assert_uint_eq(rd32(0x616340) >> 16, (frames + 1) & 0xffff);
}

START_TEST(modeset_and_scanout)
{
    DisplayConsole *con = display_console_new("head0");
    g_autofree char *log = NULL;

    nv50_scanout_set_console(rig.s, 0, con);
    drm_display_create();
    draw(FB0, 0);
    drm_modeset(FB0);
    /* the supervisors hold the UPDATE until nvkm answers */
    ck_assert_uint_eq(sync_rd32(CORE_NTFY), 0);
    ck_assert_uint_eq(rd32(0x610024) & 0x70, 0x10);
    ck_assert(wait_sync(CORE_NTFY, 1, 1));          /* core507d wait */
    ck_assert(wait_sync(BASE_NTFY(0), 0xc0000000, 0x40000000));
    /* the modeset waited at most for nvkm's interrupt handling */
    ck_assert_int_lt(gemu_clock_get_ns(&rig.clk), 50 * 1000 * 1000);
    /* the pushbuffer wound through JUMP 0 and was consumed */
    ck_assert_uint_lt(core.cur, 100);
    ck_assert_uint_eq(dmac_get(&core), core.cur);
    ck_assert_uint_eq(dmac_get(&base0), base0.cur);
    /* nvkm's view of the armed head (nv50_head_state) */
    ck_assert_uint_eq(rd32(0x610afc), 1344 | 806 << 16);
    ck_assert_uint_eq(rd32(0x610ad4) & 0x3fffff, 65000);
    ck_assert_uint_eq(rd32(0x610b5c) & 3, 1);       /* DAC0 on head 0 */

    next_vblank();
    check_console(con, 0);
    ck_assert_uint_ge(display_console_frames(con), 1);

    /* a page flip (base507c, not interlocked): taken at the vblank */
    draw(FB1, 0x40);
    inst_wr32(SYNCBUF + BASE_NTFY(0) + 0x10, 0);
    PUSH(&base0, 0x0a0, BASE_NTFY(0) + 0x10, HANDLE_SYNCBUF);
    PUSH(&base0, 0x800, FB1 >> 8);
    PUSH(&base0, 0x080, 0);
    dmac_kick(&base0);
    ck_assert_uint_eq(sync_rd32(BASE_NTFY(0) + 0x10), 0);
    check_console(con, 0);
    next_vblank();
    ck_assert_uint_eq(sync_rd32(BASE_NTFY(0) + 0x10) >> 30, 1);
    check_console(con, 0x40);

    /* vblank interrupts once nvkm asks for them (nv50_head_vblank_get) */
    mask32(0x61002c, 4, 4);
    next_vblank();
    ck_assert_uint_eq(rd32(0x610024) & 0xc, 0x4);
    ck_assert(nvkm_intr());
    ck_assert(!nvkm_intr());

    log = rig_log();
    ck_assert_msg(!strstr(log, "EVO"), "%s", log);
    nv50_scanout_set_console(rig.s, 0, NULL);
    display_console_free(con);
}
END_TEST

/* ---- the cursor (head827d_curs_set/clr, curs507a) ---- */

#define CURS_BO     0x00900000u         /* a 64x64 ARGB8888 cursor BO */
#define CURS_CHAN   7                   /* cursor 0: PIO channel 7 */
#define CURS_USER   (0x640000u + CURS_CHAN * 0x1000)

/* nv50_disp_pioc_init */
static void nvkm_pioc_init(int c)
{
    int spins = 0;

    wr32(0x610200 + c * 0x10, 0x00002000);
    while (rd32(0x610200 + c * 0x10) & 0x00030000) {
        ck_assert_int_lt(++spins, 10);
    }
    wr32(0x610200 + c * 0x10, 0x00000001);
    while ((rd32(0x610200 + c * 0x10) & 0x00030000) != 0x00010000) {
        ck_assert_int_lt(++spins, 10);
    }
}

/* Cursor pixel (i, j): opaque, transparent and half-covered ones. */
static uint32_t curs_pattern(uint32_t i, uint32_t j)
{
    if ((i + j) % 5 == 0) {
        return 0x80000000u | (i * 4) << 16 | 0xff << 8 | (j * 4);
    }
    if ((i / 8 + j / 8) & 1) {
        return 0;
    }
    return 0xff000000u | (i * 3) << 16 | (j * 3) << 8 | 0x77;
}

/* the DRM client fills the cursor BO (through BAR1 here) */
static void draw_cursor(void)
{
    for (uint32_t j = 0; j < 64; j++) {
        for (uint32_t i = 0; i < 64; i += 2) {
            uint64_t v = curs_pattern(i, j) |
                         (uint64_t)curs_pattern(i + 1, j) << 32;

            pci_mmio_write(rig.pci, BAR1_GPA + CURS_BO + j * 256 + i * 4,
                           v, 8);
        }
    }
}

/* core507d_update with a notifier, nothing interlocked; and its wait */
static void core_update_wait(void)
{
    inst_wr32(SYNCBUF + CORE_NTFY, 0);
    PUSH(&core, 0x084, 0x80000000 | CORE_NTFY);
    PUSH(&core, 0x080, 0x00000000);
    PUSH(&core, 0x084, 0);
    dmac_kick(&core);
    ck_assert(wait_sync(CORE_NTFY, 1, 1));
}

/* curs507a_point + curs507a_update (both behind curs507a_space) */
static void curs_point(int x, int y)
{
    ck_assert_uint_ge(rd32(CURS_USER + 0x008) & 0x3f, 4);
    wr32(CURS_USER + 0x084, (uint16_t)x | (uint32_t)(uint16_t)y << 16);
    wr32(CURS_USER + 0x080, 0);
}

/*
 * The console shows the salt-0 picture with the 64x64 cursor at (cx, cy)
 * blended as ALPHA_BLEND (straight alpha: c * a + d * (255 - a), /255
 * rounded; 255 is odd, so no value falls half-way), or without it.
 */

/* Pixel (x, y) of @surf is XRGB @p; else fail naming the plane's state. */
static void expect_pixel(const DisplaySurface *surf, int x, int y,
                         uint32_t p, const char *plane, bool on, int px,
                         int py)
{
    uint8_t rgba[4];

    display_surface_get_rgba(surf, x, y, rgba);
    if (rgba[0] != ((p >> 16) & 0xff) || rgba[1] != ((p >> 8) & 0xff) ||
        rgba[2] != (p & 0xff)) {
        ck_abort_msg("pixel (%d, %d): %02x%02x%02x, want %06x (%s %s at "
                     "%d, %d)", x, y, rgba[0], rgba[1], rgba[2],
                     p & 0xffffff, plane, on ? "on" : "off", px, py);
    }
}

static void check_console_cursor(DisplayConsole *con, bool on, int cx,
                                 int cy)
{
    const DisplaySurface *surf = display_console_surface(con);

    ck_assert_ptr_nonnull(surf);
    ck_assert_uint_eq(surf->width, W);
    ck_assert_uint_eq(surf->height, H);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t p = pattern(x, y, 0);
            int i = x - cx, j = y - cy;

            if (on && i >= 0 && i < 64 && j >= 0 && j < 64) {
                uint32_t c = curs_pattern(i, j), a = c >> 24, q = 0;

                for (int sh = 0; sh < 24; sh += 8) {
                    uint32_t cc = (c >> sh) & 0xff, dd = (p >> sh) & 0xff;

                    q |= ((cc * a + dd * (255 - a) + 127) / 255) << sh;
                }
                p = q;
            }
            expect_pixel(surf, x, y, p, "cursor", on, cx, cy);
        }
    }
}

START_TEST(cursor_composed)
{
    DisplayConsole *con = display_console_new("head0");
    g_autofree char *log = NULL;
    uint64_t frames;

    nv50_scanout_set_console(rig.s, 0, con);
    drm_display_create();
    nvkm_pioc_init(CURS_CHAN);
    draw(FB0, 0);
    drm_modeset(FB0);
    ck_assert(wait_sync(CORE_NTFY, 1, 1));
    ck_assert(wait_sync(BASE_NTFY(0), 0xc0000000, 0x40000000));
    next_vblank();
    check_console(con, 0);
    draw_cursor();

    /*
     * nv50_disp_atomic_commit_tail: the head's curs_set (core methods),
     * the cursor plane's point + UPDATE (PIO, not interlocked), then the
     * core UPDATE.  head827d_curs_set: ENABLE, A8R8G8B8, W64_H64, hot
     * spot 0, ALPHA_BLEND; OFFSET >> 8; the core's VRAM ctxdma.
     */
    PUSH(&core, 0x880, 0x80000000u | 1u << 24 | 1u << 26,
         CURS_BO >> 8);
    PUSH(&core, 0x89c, HANDLE_VRAM);
    curs_point(100, 200);
    dmac_kick(&core);
    /* the core UPDATE has not been sent: no cursor yet */
    next_vblank();
    check_console(con, 0);
    core_update_wait();
    frames = display_console_frames(con);
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 1);
    check_console_cursor(con, true, 100, 200);
    next_vblank();                              /* nothing changed */
    ck_assert_uint_eq(display_console_frames(con), frames + 1);

    /* a move is a cursor channel write alone, and a new frame */
    curs_point(W - 20, H - 40);
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 2);
    check_console_cursor(con, true, W - 20, H - 40);
    /* partly off the top left: DRM's crtc_x/y go negative */
    curs_point(-30, -7);
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 3);
    check_console_cursor(con, true, -30, -7);

    /* head827d_curs_clr + core UPDATE: gone */
    PUSH(&core, 0x880, 1u << 24 | 1u << 26);
    PUSH(&core, 0x89c, 0);
    core_update_wait();
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 4);
    check_console(con, 0);

    log = rig_log();
    ck_assert_msg(!strstr(log, "EVO") && !strstr(log, "cursor"), "%s",
                  log);
    nv50_scanout_set_console(rig.s, 0, NULL);
    display_console_free(con);
}
END_TEST

/* ---- the overlay (ovly827e, oimm507b) ---- */

#define OVLY_BO     0x00a00000u         /* a 200x100 XRGB8888 frame */
#define OVLY_CHAN   3                   /* overlay 0: DMA channel 3 */
#define OVLY_NTFY   0x100               /* its NOTIFICATION_1 in SYNCBUF */
#define OIMM_CHAN   5                   /* overlay-imm 0: PIO channel 5 */
#define OIMM_USER   (0x640000u + OIMM_CHAN * 0x1000)
#define OVW         200
#define OVH         100
#define OVPITCH     1024

static Dmac ovly0;

static uint32_t ovly_pattern(uint32_t x, uint32_t y, uint32_t salt)
{
    return (0x3cu << 24) | ((y * 5 + salt) & 0xff) << 16 |
           ((x + y + salt) & 0xff) << 8 | ((x * 3) & 0xff);
}

/* the DRM client fills the overlay BO (through BAR1 here) */
static void draw_overlay(uint32_t salt)
{
    for (uint32_t y = 0; y < OVH; y++) {
        for (uint32_t x = 0; x < OVW; x += 2) {
            uint64_t v = ovly_pattern(x, y, salt) |
                         (uint64_t)ovly_pattern(x + 1, y, salt) << 32;

            pci_mmio_write(rig.pci, BAR1_GPA + OVLY_BO + y * OVPITCH + x * 4,
                           v, 8);
        }
    }
}

/* oimm507b through curs507a's point + update (never interlocked) */
static void oimm_point(int x, int y)
{
    ck_assert_uint_ge(rd32(OIMM_USER + 0x008) & 0x3f, 1);
    wr32(OIMM_USER + 0x084, (uint16_t)x | (uint32_t)(uint16_t)y << 16);
    wr32(OIMM_USER + 0x080, 0);
}

/*
 * The console shows the salt-0 picture with the overlay's salt @os
 * frame at (ox, oy) (OPAQUE_SUSPEND_BASE: its pixels replace the base's,
 * the unused byte ignored), or without it.
 */
static void check_console_overlay(DisplayConsole *con, bool on, int ox,
                                  int oy, uint32_t os)
{
    const DisplaySurface *surf = display_console_surface(con);

    ck_assert_ptr_nonnull(surf);
    ck_assert_uint_eq(surf->width, W);
    ck_assert_uint_eq(surf->height, H);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t p = pattern(x, y, 0);
            int i = x - ox, j = y - oy;

            if (on && i >= 0 && i < OVW && j >= 0 && j < OVH) {
                p = ovly_pattern(i, j, os);
            }
            expect_pixel(surf, x, y, p, "overlay", on, ox, oy);
        }
    }
}

START_TEST(overlay_composed)
{
    DisplayConsole *con = display_console_new("head0");
    g_autofree char *log = NULL;
    uint64_t frames;

    nv50_scanout_set_console(rig.s, 0, con);
    drm_display_create();
    /* ovly507e_new_ (nv50_dmac_create) and nv50_oimm_init */
    nvkm_bind_ctxdma(OVLY_CHAN, HANDLE_SYNCBUF, SYNCBUF, SYNCBUF + 0xfff);
    nvkm_bind_ctxdma(OVLY_CHAN, HANDLE_VRAM, 0, (256u << 20) - 1);
    nvkm_bind_ctxdma(OVLY_CHAN, HANDLE_FB, 0, (256u << 20) - 1);
    dmac_create(&ovly0, OVLY_CHAN);
    nvkm_pioc_init(OIMM_CHAN);
    draw(FB0, 0);
    drm_modeset(FB0);
    ck_assert(wait_sync(CORE_NTFY, 1, 1));
    ck_assert(wait_sync(BASE_NTFY(0), 0xc0000000, 0x40000000));
    next_vblank();
    check_console(con, 0);
    draw_overlay(0);

    /*
     * An overlay plane commit (no modeset: nothing interlocked with the
     * core).  nv50_wndw_flush_set: ovly827e_image_set (ASAP interval 1,
     * ISO ctxdma, OPAQUE_SUSPEND_BASE, the surface), ovly507e_scale_set
     * (POINT_IN, SIZE_IN, SIZE_OUT width: no scaling), the point through
     * the overlay-immediate channel and its UPDATE, then base507c_update
     * on the overlay channel, with a notifier: ovly827e_ntfy_reset (the
     * 16-byte NOTIFICATION_1, word 3 STATUS NOT_BEGUN), base507c_ntfy_set,
     * and ovly827e_ntfy_wait_begun waits for word 3 STATUS = BEGUN.
     */
    for (int i = 0; i < 3; i++) {
        inst_wr32(SYNCBUF + OVLY_NTFY + 4 * i, 0);
    }
    inst_wr32(SYNCBUF + OVLY_NTFY + 12, 0x80000000);
    PUSH(&ovly0, 0x0a0, OVLY_NTFY, HANDLE_SYNCBUF);
    PUSH(&ovly0, 0x084, 0x00000010);
    PUSH(&ovly0, 0x0c0, HANDLE_FB);
    PUSH(&ovly0, 0x100, 2);
    PUSH(&ovly0, 0x800, OVLY_BO >> 8);
    PUSH(&ovly0, 0x808, OVW | OVH << 16, (OVPITCH >> 8) << 8 | 1u << 20,
         0xcf << 8);
    PUSH(&ovly0, 0x0e0, 0, OVW | OVH << 16, OVW);
    oimm_point(300, 200);
    /* the overlay channel's UPDATE has not been sent: nothing yet */
    next_vblank();
    check_console(con, 0);
    frames = display_console_frames(con);
    PUSH(&ovly0, 0x080, 0);
    dmac_kick(&ovly0);
    next_vblank();                  /* armed at this vblank */
    ck_assert(wait_sync(OVLY_NTFY + 12, 0xffff0000, 0xffff0000));
    ck_assert_uint_eq(sync_rd32(OVLY_NTFY), 0); /* the base's word 0 */
    next_vblank();                  /* shown from the next one */
    ck_assert_uint_eq(display_console_frames(con), frames + 1);
    check_console_overlay(con, true, 300, 200, 0);
    next_vblank();                  /* nothing changed */
    ck_assert_uint_eq(display_console_frames(con), frames + 1);

    /* moved: an overlay-immediate write alone, and a new frame */
    oimm_point(W - 50, -30);
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 2);
    check_console_overlay(con, true, W - 50, -30, 0);

    /* the client draws the next video frame into the same BO */
    draw_overlay(0x55);
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 3);
    check_console_overlay(con, true, W - 50, -30, 0x55);

    /* disabled: base507c_image_clr + base507c_update */
    PUSH(&ovly0, 0x084, 0x00000000);
    PUSH(&ovly0, 0x0c0, 0);
    PUSH(&ovly0, 0x080, 0);
    dmac_kick(&ovly0);
    next_vblank();
    next_vblank();
    ck_assert_uint_eq(display_console_frames(con), frames + 4);
    check_console(con, 0);

    log = rig_log();
    ck_assert_msg(!strstr(log, "EVO") && !strstr(log, "overlay"), "%s",
                  log);
    nv50_scanout_set_console(rig.s, 0, NULL);
    display_console_free(con);
}
END_TEST

Suite *device_nv50_disp_suite(void)
{
    Suite *s = suite_create("device-nv50-disp");
    TCase *tc = tcase_create("modeset");

    tcase_add_checked_fixture(tc, rig_setup, rig_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, modeset_and_scanout);
    tcase_add_test(tc, cursor_composed);
    tcase_add_test(tc, overlay_composed);
    suite_add_tcase(s, tc);
    return s;
}
