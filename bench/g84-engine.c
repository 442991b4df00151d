/*
 * make bench: the G84's engines through a channel, in process (no QEMU,
 * no guest).  A card, one channel built from the host side as nvkm
 * builds a G84 GPFIFO channel (hw/nv50/hostchan.c), and work pushed into
 * its pushbuffer the way nouveau pushes it; the card's engine thread runs
 * it.  The time is taken around the pushing and the kicks only (the
 * kick waits until the engine is idle), never around the set-up, and
 * every result is checked against a model computed here afterwards.
 *
 *   g84-m2mf              MB/s of M2MF copies VRAM to VRAM through the
 *                         channel's VM, pitch to pitch, 4 MiB a copy in
 *                         64 KiB lines (nv50_bo_move_m2mf's methods)
 *   g84-m2mf-blocklinear  the same from a block-linear source (one-GOB
 *                         blocks, as nouveau encodes them, 4 KiB wide)
 *                         to a pitch destination
 *   g84-2d-fill           Mpixel/s of 2D solid rectangles on a 1024x768
 *                         X8R8G8B8 pitch surface: fbcon's line clears and
 *                         character-cell fills (nv50_fbcon_fillrect)
 *   g84-2d-blit           Mpixel/s of fbcon's copyarea scrolling the
 *                         screen a text line up and down (overlapping)
 *   g84-2d-sifc           Mpixel/s of 1-bpp text lines expanded by SIFC
 *                         (nv50_fbcon_imageblit of 1024x16 images)
 *   g84-compute           M warp-instr/s of tesla-alu's kernel
 *                         (tesla-kernels.c) launched through the compute
 *                         class on the emulated MPs.  The class exposes no
 *                         instruction count (its performance counters are
 *                         not modelled), so the figure is the kernel's
 *                         known count over the time; the results in g0
 *                         are checked as tesla-alu checks them.
 *   g84-fill, g84-cube, g84-mesh-idx...: the 3D pipeline (g84-3d.h)
 *
 * SPDX-License-Identifier: MIT
 */
#include "g84-eng.h"
#include "tesla-kernels.h"
#include "target/tesla.h"

/* A card with channel ENG_CHID up, its interrupts enabled as nvkm does. */
bool eng_init(Eng *e, const char *name)
{
    NV50HostChanConfig cfg = {
        .chid = ENG_CHID, .inst = ENG_INST,
        .va_base = ENG_VA_BASE, .vram_base = ENG_VRAM_BASE,
        .vram_len = ENG_VRAM_LEN,
    };
    g_autoptr(GError) gerr = NULL;
    g_autofree char *err = NULL;

    memset(e, 0, sizeof(*e));
    e->name = name;
    gemu_clock_init(&e->clk, GEMU_CLOCK_VIRTUAL);
    e->s = nv50_new(&e->clk, NULL, 0, &gerr);
    if (!e->s) {
        bench_fail(name, "no card: %s", gerr->message);
        gemu_clock_destroy(&e->clk);
        return false;
    }
    /* nv50_fifo_init, nv50_gr_init (the parts with effects) */
    nv50_wr32(e->s, 0x002100, 0xffffffff);
    nv50_wr32(e->s, 0x002140, 0xbfffffff);
    nv50_wr32(e->s, 0x400108, 0xffffffff);
    nv50_wr32(e->s, 0x400138, 0xffffffff);
    nv50_wr32(e->s, 0x400100, 0xffffffff);
    nv50_wr32(e->s, 0x40013c, 0xffffffff);
    nv50_wr32(e->s, 0x400500, 0x00010001);
    if (!nv50_hostchan_init(&e->ch, e->s, &cfg, &err)) {
        bench_fail(name, "%s", err);
        nv50_free(e->s);
        gemu_clock_destroy(&e->clk);
        return false;
    }
    nv50_hostchan_ctxdma(&e->ch, DMA_NTFY, NV50_DMA_VM, NTFY_VA,
                         NTFY_VA + 0xff);
    nv50_hostchan_ramht_insert(&e->ch, H_NTFY, DMA_NTFY);
    return true;
}

void eng_fini(Eng *e)
{
    nv50_free(e->s);
    gemu_clock_destroy(&e->clk);
}

static uint64_t va_to_vram(Eng *e, uint64_t va)
{
    return nv50_hostchan_va_to_vram(&e->ch, va);
}

void mem_write(Eng *e, uint64_t va, const void *buf, size_t len)
{
    g_assert(nv50_vram_write(e->s, va_to_vram(e, va), buf, len));
}

void mem_read(Eng *e, uint64_t va, void *buf, size_t len)
{
    g_assert(nv50_vram_read(e->s, va_to_vram(e, va), buf, len));
}

/* Submit what was pushed and wait for the engine. */
void eng_submit(Eng *e)
{
    if (!e->broken) {
        nv50_hostchan_submit(&e->ch);
    }
}

/* Room for @words more words, submitting what is there if need be. */
static bool eng_room(Eng *e, unsigned words)
{
    if (!e->broken && !nv50_hostchan_room(&e->ch, words)) {
        nv50_hostchan_submit(&e->ch);
        e->broken = !nv50_hostchan_room(&e->ch, words);
    }
    return !e->broken;
}

void mthd(Eng *e, unsigned subc, uint32_t m, const uint32_t *d, unsigned n)
{
    if (eng_room(e, n + 1)) {
        nv50_hostchan_mthd(&e->ch, subc, m, d, n);
    }
}

void mthd_ni(Eng *e, unsigned subc, uint32_t m, const uint32_t *d,
             unsigned n)
{
    if (eng_room(e, n + 1)) {
        nv50_hostchan_mthd_ni(&e->ch, subc, m, d, n);
    }
}

void mthd1(Eng *e, unsigned subc, uint32_t m, uint32_t v)
{
    mthd(e, subc, m, &v, 1);
}

/* Everything pushed was consumed and nothing complained. */
bool eng_ok(Eng *e)
{
    uint32_t mask = (1u << NV50_HOSTCHAN_IB_ORDER) - 1;
    uint32_t gr = nv50_rd32(e->s, PGRAPH_INTR);
    uint32_t fifo = nv50_rd32(e->s, PFIFO_INTR);
    uint32_t get = nv50_rd32(e->s, USER_IB_GET);

    if (e->broken || gr || fifo || get != (e->ch.ib_put & mask)) {
        bench_fail(e->name, "the channel stopped: PGRAPH INTR 0x%x, PFIFO "
                   "INTR 0x%x, IB_GET %u of %u", gr, fifo, get,
                   e->ch.ib_put & mask);
        return false;
    }
    return true;
}

/* A word of deterministic noise for index @i. */
static uint32_t noise(uint32_t i, uint32_t seed)
{
    uint32_t v = (i + seed) * 2654435761u;

    v ^= v >> 15;
    v *= 0x2c1b3c6du;
    return v ^ v >> 12;
}

/* --- M2MF (class 0x5039, rnndb graph/nv_m2mf.xml) --- */

#define SUBC_M2MF       4           /* nouveau's NvSubCopy */
#define H_M2MF          0xbeef5039u
#define M2MF_DMA_IN     0x184
#define M2MF_DMA_OUT    0x188
#define M2MF_LAYOUT_IN  0x200
#define M2MF_LAYOUT_OUT 0x21c
#define M2MF_OFFSET_IN_HIGH 0x238
#define M2MF_OFFSET_IN  0x30c

#define M2MF_CHUNK      (4u << 20)  /* nouveau's amount per copy */
#define M2MF_BUF        (32u << 20)
#define M2MF_SRC        ENG_VA_DATA
#define M2MF_DST        (ENG_VA_DATA + M2MF_BUF)

/*
 * nv50_bo_move_m2mf for one chunk: @bl_width 0 for a pitch source with
 * lines of @line bytes, else a one-GOB block-linear source that wide.
 */
static void m2mf_chunk(Eng *e, uint64_t src, uint64_t dst, uint32_t line,
                       uint32_t bl_width)
{
    uint32_t height = M2MF_CHUNK / line;
    const uint32_t hi[] = { (uint32_t)(src >> 32), (uint32_t)(dst >> 32) };
    const uint32_t lo[] = {
        (uint32_t)src, (uint32_t)dst, line, line, line, height,
        0x101,                      /* FORMAT IN ONE, OUT ONE */
        0,                          /* BUFFER_NOTIFY WRITE_ONLY */
    };

    if (bl_width) {
        const uint32_t bl[] = {
            0,                      /* LAYOUT BLOCKLINEAR */
            0,                      /* BLOCK_SIZE ONE_GOB x3 */
            bl_width, height, 1, 0, 0,
        };

        mthd(e, SUBC_M2MF, M2MF_LAYOUT_IN, bl, ARRAY_SIZE(bl));
    } else {
        mthd1(e, SUBC_M2MF, M2MF_LAYOUT_IN, 1);         /* PITCH */
    }
    mthd1(e, SUBC_M2MF, M2MF_LAYOUT_OUT, 1);
    mthd(e, SUBC_M2MF, M2MF_OFFSET_IN_HIGH, hi, ARRAY_SIZE(hi));
    mthd(e, SUBC_M2MF, M2MF_OFFSET_IN, lo, ARRAY_SIZE(lo));
    mthd1(e, SUBC_M2MF, M_NOP, 0);
}

/* Where byte @x of row @y of a one-GOB block-linear surface @w wide is. */
static uint32_t gob_offset(uint32_t w, uint32_t x, uint32_t y)
{
    return ((y / 4) * (w / 64) + x / 64) * 256 + (y % 4) * 64 + x % 64;
}

static void bench_m2mf(const char *name, bool bl)
{
    const uint32_t line = bl ? 4096 : 0x10000;
    /* 4 GiB pitch, 512 MiB block-linear (64-byte runs: slower) */
    unsigned chunks = MAX(1u, (unsigned)((bl ? 128 : 1024) * bench_scale));
    unsigned slots = MIN(chunks, M2MF_BUF / M2MF_CHUNK);
    g_autofree uint32_t *src = g_new(uint32_t, M2MF_BUF / 4);
    g_autofree uint32_t *dst = g_new0(uint32_t, M2MF_BUF / 4);
    Eng e;
    double t0, secs;

    if (!eng_init(&e, name)) {
        return;
    }
    for (uint32_t i = 0; i < M2MF_BUF / 4; i++) {
        src[i] = noise(i, bl);
    }
    mem_write(&e, M2MF_SRC, src, M2MF_BUF);
    mem_write(&e, M2MF_DST, dst, M2MF_BUF);
    /* nv50_bo_move_init */
    nv50_hostchan_object(&e.ch, 0x5039, H_M2MF);
    mthd1(&e, SUBC_M2MF, M_OBJECT, H_M2MF);
    mthd1(&e, SUBC_M2MF, M_DMA_NOTIFY, H_NTFY);
    mthd1(&e, SUBC_M2MF, M2MF_DMA_IN, NV50_HOSTCHAN_H_VM);
    mthd1(&e, SUBC_M2MF, M2MF_DMA_OUT, NV50_HOSTCHAN_H_VM);
    eng_submit(&e);

    t0 = bench_now();
    for (unsigned i = 0; i < chunks; i++) {
        uint64_t off = (uint64_t)(i % slots) * M2MF_CHUNK;

        m2mf_chunk(&e, M2MF_SRC + off, M2MF_DST + off, line,
                   bl ? line : 0);
        nv50_hostchan_ib(&e.ch);    /* an IB entry a move */
    }
    eng_submit(&e);
    secs = bench_now() - t0;

    if (!eng_ok(&e)) {
        eng_fini(&e);
        return;
    }
    mem_read(&e, M2MF_DST, dst, M2MF_BUF);
    for (uint32_t i = 0; i < M2MF_BUF / 4; i++) {
        uint32_t chunk = i * 4 / M2MF_CHUNK, in = i * 4 % M2MF_CHUNK;
        uint32_t want = 0;

        if (chunk < slots) {
            want = bl ? src[(chunk * M2MF_CHUNK +
                             gob_offset(line, in % line, in / line)) / 4]
                      : src[i];
        }
        if (dst[i] != want) {
            bench_fail(name, "destination byte 0x%x is 0x%08x, expected "
                       "0x%08x", i * 4, dst[i], want);
            eng_fini(&e);
            return;
        }
    }
    bench_report(name, (double)chunks * M2MF_CHUNK / secs / 1e6, "MB/s");
    eng_fini(&e);
}

/* --- 2D (class 0x502d, rnndb graph/g80_2d.xml) --- */

#define SUBC_2D         3           /* fbcon's */
#define H_2D            0xbeef502du
#define D2_DMA_DST      0x184
#define D2_DMA_SRC      0x188
#define D2_DST_FORMAT   0x200
#define D2_SRC_FORMAT   0x230
#define D2_CLIP_ENABLE  0x290
#define D2_ROP          0x2a0
#define D2_OPERATION    0x2ac
#define D2_PATTERN_COLOR_FORMAT 0x2e8
#define D2_PATTERN_BITMAP_FORMAT 0x2ec
#define D2_DRAW_SHAPE   0x580
#define D2_DRAW_COLOR   0x588
#define D2_DRAW_POINT32_X 0x600
#define D2_SIFC_BITMAP_ENABLE 0x800
#define D2_SIFC_WRITE_BIT0 0x81c
#define D2_SIFC_COLOR0  0x814
#define D2_SIFC_WIDTH   0x838
#define D2_SIFC_DX_DU_FRACT 0x840
#define D2_SIFC_DST_X_FRACT 0x850
#define D2_SIFC_DATA    0x860
#define D2_SAFE_OVERLAP 0x888
#define D2_BLIT_DST_X   0x8b0
#define D2_BLIT_DU_DX_FRACT 0x8c0
#define D2_BLIT_SRC_X_FRACT 0x8d0

#define FB_FMT          0xe6        /* X8R8G8B8 */
#define FB_VA           ENG_VA_DATA
#define TEXT_H          16          /* a text line, fbcon's 8x16 font */

/* The console surface, its model, and fbcon's 2D state on the channel. */
static bool fb_init(Eng *e, const char *name, uint32_t *model)
{
    const uint32_t surf[] = {
        FB_FMT, 1, 0, 1, 0, FB_PITCH, FB_W, FB_H,
        (uint32_t)(FB_VA >> 32), (uint32_t)FB_VA,
    };
    const uint32_t one[] = { 0, 1, 0, 1 };
    const uint32_t sifc[] = { 1, FB_FMT, 0, 0, 1 };

    if (!eng_init(e, name)) {
        return false;
    }
    for (uint32_t i = 0; i < FB_W * FB_H; i++) {
        model[i] = noise(i, 7) & 0xffffff;
    }
    mem_write(e, FB_VA, model, FB_PITCH * FB_H);
    /* nv50_fbcon_accel_init */
    nv50_hostchan_object(&e->ch, 0x502d, H_2D);
    mthd1(e, SUBC_2D, M_OBJECT, H_2D);
    mthd1(e, SUBC_2D, M_DMA_NOTIFY, H_NTFY);
    mthd1(e, SUBC_2D, D2_DMA_DST, NV50_HOSTCHAN_H_VM);
    mthd1(e, SUBC_2D, D2_DMA_SRC, NV50_HOSTCHAN_H_VM);
    mthd(e, SUBC_2D, D2_DST_FORMAT, surf, ARRAY_SIZE(surf));
    mthd(e, SUBC_2D, D2_SRC_FORMAT, surf, ARRAY_SIZE(surf));
    mthd1(e, SUBC_2D, D2_CLIP_ENABLE, 0);
    mthd1(e, SUBC_2D, D2_ROP, 0x55);
    mthd1(e, SUBC_2D, D2_OPERATION, 3);                 /* SRCCOPY */
    mthd1(e, SUBC_2D, D2_PATTERN_COLOR_FORMAT, 2);
    mthd1(e, SUBC_2D, D2_PATTERN_BITMAP_FORMAT, 1);
    mthd(e, SUBC_2D, D2_DRAW_SHAPE, (const uint32_t[]){ 4, FB_FMT }, 2);
    mthd(e, SUBC_2D, D2_SIFC_BITMAP_ENABLE, sifc, ARRAY_SIZE(sifc));
    mthd1(e, SUBC_2D, D2_SIFC_WRITE_BIT0, 1);
    mthd(e, SUBC_2D, D2_SIFC_DX_DU_FRACT, one, 4);
    mthd1(e, SUBC_2D, D2_SAFE_OVERLAP, 1);
    mthd(e, SUBC_2D, D2_BLIT_DU_DX_FRACT, one, 4);
    eng_submit(e);
    return true;
}

/* Report @pixels over @secs if the channel ran clean and the frame is
   the model. */
static void fb_finish(Eng *e, const uint32_t *model, double pixels,
                      double secs)
{
    g_autofree uint32_t *fb = g_new(uint32_t, FB_W * FB_H);

    if (!eng_ok(e)) {
        eng_fini(e);
        return;
    }
    mem_read(e, FB_VA, fb, FB_PITCH * FB_H);
    for (uint32_t i = 0; i < FB_W * FB_H; i++) {
        if (fb[i] != model[i]) {
            bench_fail(e->name, "pixel (%u, %u) is 0x%08x, expected 0x%08x",
                       i % FB_W, i / FB_W, fb[i], model[i]);
            eng_fini(e);
            return;
        }
    }
    bench_report(e->name, pixels / secs / 1e6, "Mpixel/s");
    eng_fini(e);
}

/* nv50_fbcon_fillrect (ROP_COPY): [x, x + w) x [y, y + h) */
static void fillrect(Eng *e, uint32_t color, uint32_t x, uint32_t y,
                     uint32_t w, uint32_t h)
{
    const uint32_t pt[] = { x, y, x + w, y + h };

    mthd1(e, SUBC_2D, D2_DRAW_COLOR, color);
    mthd(e, SUBC_2D, D2_DRAW_POINT32_X, pt, 4);
}

static void model_fill(uint32_t *model, uint32_t color, uint32_t x,
                       uint32_t y, uint32_t w, uint32_t h)
{
    for (uint32_t r = y; r < y + h; r++) {
        for (uint32_t c = x; c < x + w; c++) {
            model[r * FB_W + c] = color;
        }
    }
}

/*
 * A pass: every text line cleared (fbcon's bit_clear over whole lines),
 * then 256 character cells (its cursor and short clears).
 */
#define CELLS_A_PASS    256

static void bench_2d_fill(void)
{
    const char *name = "g84-2d-fill";
    unsigned passes = MAX(1u, (unsigned)(1000 * bench_scale));
    g_autofree uint32_t *model = g_new(uint32_t, FB_W * FB_H);
    double t0, secs;
    Eng e;

    if (!fb_init(&e, name, model)) {
        return;
    }
    t0 = bench_now();
    for (unsigned p = 0; p < passes; p++) {
        for (uint32_t l = 0; l < FB_H / TEXT_H; l++) {
            fillrect(&e, noise(p * 64 + l, 1) & 0xffffff, 0, l * TEXT_H,
                     FB_W, TEXT_H);
        }
        for (uint32_t c = 0; c < CELLS_A_PASS; c++) {
            uint32_t cell = noise(p * CELLS_A_PASS + c, 2);

            fillrect(&e, cell & 0xffffff, cell % (FB_W / 8) * 8,
                     (cell >> 8) % (FB_H / TEXT_H) * TEXT_H, 8, TEXT_H);
        }
        nv50_hostchan_ib(&e.ch);
    }
    eng_submit(&e);
    secs = bench_now() - t0;

    /* each pass covers the whole screen: the last one is the frame */
    for (unsigned p = passes - 1; p < passes; p++) {
        for (uint32_t l = 0; l < FB_H / TEXT_H; l++) {
            model_fill(model, noise(p * 64 + l, 1) & 0xffffff, 0,
                       l * TEXT_H, FB_W, TEXT_H);
        }
        for (uint32_t c = 0; c < CELLS_A_PASS; c++) {
            uint32_t cell = noise(p * CELLS_A_PASS + c, 2);

            model_fill(model, cell & 0xffffff, cell % (FB_W / 8) * 8,
                       (cell >> 8) % (FB_H / TEXT_H) * TEXT_H, 8, TEXT_H);
        }
    }
    fb_finish(&e, model, (double)passes * (FB_W * FB_H +
                                           CELLS_A_PASS * 8 * TEXT_H),
              secs);
}

/* nv50_fbcon_copyarea */
static void copyarea(Eng *e, uint32_t sx, uint32_t sy, uint32_t dx,
                     uint32_t dy, uint32_t w, uint32_t h)
{
    const uint32_t dst[] = { dx, dy, w, h };
    const uint32_t src[] = { 0, sx, 0, sy };

    mthd1(e, SUBC_2D, M_WAIT_FOR_IDLE, 0);
    mthd(e, SUBC_2D, D2_BLIT_DST_X, dst, 4);
    mthd(e, SUBC_2D, D2_BLIT_SRC_X_FRACT, src, 4);
}

/* Scrolls a text line up (even @i) or down (odd @i), whole width. */
static void bench_2d_blit(void)
{
    const char *name = "g84-2d-blit";
    const uint32_t h = FB_H - TEXT_H;
    unsigned blits = MAX(2u, (unsigned)(1000 * bench_scale));
    g_autofree uint32_t *model = g_new(uint32_t, FB_W * FB_H);
    double t0, secs;
    Eng e;

    if (!fb_init(&e, name, model)) {
        return;
    }
    t0 = bench_now();
    for (unsigned i = 0; i < blits; i++) {
        if (i % 2) {
            copyarea(&e, 0, 0, 0, TEXT_H, FB_W, h);
        } else {
            copyarea(&e, 0, TEXT_H, 0, 0, FB_W, h);
        }
    }
    eng_submit(&e);
    secs = bench_now() - t0;

    for (unsigned i = 0; i < blits; i++) {
        uint32_t *from = model + (i % 2 ? 0 : TEXT_H * FB_W);
        uint32_t *to = model + (i % 2 ? TEXT_H * FB_W : 0);

        memmove(to, from, (size_t)h * FB_PITCH);
    }
    fb_finish(&e, model, (double)blits * FB_W * h, secs);
}

/*
 * nv50_fbcon_imageblit of a text line as fbcon's bit_putcs builds it: a
 * 1024x16 1-bpp image, rows of 128 bytes, first pixel in bit 7.
 */
#define LINE_BYTES      (FB_W / 8 * TEXT_H)
#define LINE_IMAGES     8           /* distinct lines of "text" */

static void imageblit(Eng *e, const uint8_t *bits, uint32_t y, uint32_t bg,
                      uint32_t fg)
{
    const uint32_t color[] = { bg, fg };
    const uint32_t size[] = { FB_W, TEXT_H };
    const uint32_t dst[] = { 0, 0, 0, y };
    uint32_t data[LINE_BYTES / 4];

    memcpy(data, bits, LINE_BYTES);
    mthd(e, SUBC_2D, D2_SIFC_COLOR0, color, 2);
    mthd(e, SUBC_2D, D2_SIFC_WIDTH, size, 2);
    mthd(e, SUBC_2D, D2_SIFC_DST_X_FRACT, dst, 4);
    mthd_ni(e, SUBC_2D, D2_SIFC_DATA, data, ARRAY_SIZE(data));
}

static void bench_2d_sifc(void)
{
    const char *name = "g84-2d-sifc";
    unsigned passes = MAX(1u, (unsigned)(100 * bench_scale));
    g_autofree uint32_t *model = g_new(uint32_t, FB_W * FB_H);
    g_autofree uint8_t *text = g_new(uint8_t, LINE_IMAGES * LINE_BYTES);
    double t0, secs;
    Eng e;

    if (!fb_init(&e, name, model)) {
        return;
    }
    for (uint32_t i = 0; i < LINE_IMAGES * LINE_BYTES; i++) {
        text[i] = noise(i, 3);
    }
    t0 = bench_now();
    for (unsigned p = 0; p < passes; p++) {
        for (uint32_t l = 0; l < FB_H / TEXT_H; l++) {
            imageblit(&e, text + (p + l) % LINE_IMAGES * LINE_BYTES,
                      l * TEXT_H, p & 1 ? 0x00aaaaaa : 0,
                      p & 1 ? 0 : 0x00aaaaaa);
        }
        nv50_hostchan_ib(&e.ch);
    }
    eng_submit(&e);
    secs = bench_now() - t0;

    for (unsigned p = passes - 1, l = 0; l < FB_H / TEXT_H; l++) {
        const uint8_t *bits = text + (p + l) % LINE_IMAGES * LINE_BYTES;

        for (uint32_t y = 0; y < TEXT_H; y++) {
            for (uint32_t x = 0; x < FB_W; x++) {
                bool on = bits[y * FB_W / 8 + x / 8] >> (7 - x % 8) & 1;

                model[(l * TEXT_H + y) * FB_W + x] =
                    on == !(p & 1) ? 0x00aaaaaa : 0;
            }
        }
    }
    fb_finish(&e, model, (double)passes * FB_W * FB_H, secs);
}

/* --- compute (class 0x50c0, rnndb graph/g80_compute.xml) --- */

#define SUBC_CP         1
#define H_CP            0xbeef50c0u
#define CP_DMA_GLOBAL   0x1a0
#define CP_DMA_CODE_CB  0x1c0
#define CP_ADDRESS_HIGH 0x210
#define CP_LOCAL_SIZE_LOG 0x29c
#define CP_BLOCK_ALLOC  0x2b4
#define CP_REG_ALLOC_TEMP 0x2c0
#define CP_BLOCKDIM_LATCH 0x2f8
#define CP_LAUNCH       0x368
#define CP_USER_PARAM_COUNT 0x374
#define CP_GRIDDIM      0x3a4
#define CP_SHARED_SIZE  0x3a8
#define CP_BLOCKDIM_XY  0x3ac
#define CP_BLOCKDIM_Z   0x3b0
#define CP_START_ID     0x3b4
#define CP_GLOBAL(i)    (0x400 + 0x20 * (i))

#define CP_CODE_VA      ENG_VA_DATA
#define CP_G0_VA        (ENG_VA_DATA + 0x10000)

static void bench_compute(void)
{
    BenchKernel k = {
        .name = "g84-compute", .block = 256, .grid = 680, .iters = 2048,
    };
    g_autofree uint32_t *g0 = NULL;
    unsigned threads, warps;
    double t0, secs;
    Eng e;

    /* tesla-alu's kernel and size (bench/tesla.c) */
    k.grid = MAX(1u, (unsigned)(k.grid * bench_scale));
    bench_tesla_build_alu(&k);
    threads = k.block * k.grid;
    warps = k.grid * ((k.block + 31) / 32);
    g0 = g_new0(uint32_t, threads);
    if (!eng_init(&e, k.name)) {
        return;
    }
    mem_write(&e, CP_CODE_VA, k.prog.w, k.prog.n * 4);
    mem_write(&e, CP_G0_VA, g0, threads * 4);

    /* the state, as Mesa's nv50_compute_setup + a launch's validation */
    nv50_hostchan_object(&e.ch, 0x50c0, H_CP);
    mthd1(&e, SUBC_CP, M_OBJECT, H_CP);
    mthd1(&e, SUBC_CP, CP_DMA_CODE_CB, NV50_HOSTCHAN_H_VM);
    mthd1(&e, SUBC_CP, CP_DMA_GLOBAL, NV50_HOSTCHAN_H_VM);
    mthd(&e, SUBC_CP, CP_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)(CP_CODE_VA >> 32), (uint32_t)CP_CODE_VA }, 2);
    mthd1(&e, SUBC_CP, CP_START_ID, 0);
    mthd1(&e, SUBC_CP, CP_REG_ALLOC_TEMP, 32);        /* as tesla-alu */
    mthd1(&e, SUBC_CP, CP_LOCAL_SIZE_LOG, 0);
    mthd1(&e, SUBC_CP, CP_SHARED_SIZE, 0x40);
    mthd1(&e, SUBC_CP, CP_USER_PARAM_COUNT, 0);
    mthd(&e, SUBC_CP, CP_GLOBAL(0), (const uint32_t[]){
             (uint32_t)(CP_G0_VA >> 32), (uint32_t)CP_G0_VA, 0,
             threads * 4 - 1, 1 /* LINEAR */ }, 5);
    mthd1(&e, SUBC_CP, CP_BLOCKDIM_XY, 1 << 16 | k.block);
    mthd1(&e, SUBC_CP, CP_BLOCKDIM_Z, 1);
    mthd1(&e, SUBC_CP, CP_BLOCK_ALLOC, 1 << 16 | k.block);
    mthd1(&e, SUBC_CP, CP_BLOCKDIM_LATCH, 1);
    mthd1(&e, SUBC_CP, CP_GRIDDIM, 1 << 16 | k.grid);
    eng_submit(&e);

    t0 = bench_now();
    mthd1(&e, SUBC_CP, CP_LAUNCH, 0);
    eng_submit(&e);
    secs = bench_now() - t0;

    if (!eng_ok(&e)) {
        eng_fini(&e);
        return;
    }
    mem_read(&e, CP_G0_VA, g0, threads * 4);
    for (unsigned t = 0; t < threads; t++) {
        if (g0[t] != k.g0_want) {
            bench_fail(k.name, "g0[0x%x] = 0x%x, expected 0x%x", 4 * t,
                       g0[t], k.g0_want);
            eng_fini(&e);
            return;
        }
    }
    bench_report(k.name, k.insns_per_warp * warps / secs / 1e6,
                 "M warp-instr/s");
    eng_fini(&e);
}

void bench_g84_engine(void)
{
    if (bench_wanted("g84-m2mf")) {
        bench_m2mf("g84-m2mf", false);
    }
    if (bench_wanted("g84-m2mf-blocklinear")) {
        bench_m2mf("g84-m2mf-blocklinear", true);
    }
    if (bench_wanted("g84-2d-fill")) {
        bench_2d_fill();
    }
    if (bench_wanted("g84-2d-blit")) {
        bench_2d_blit();
    }
    if (bench_wanted("g84-2d-sifc")) {
        bench_2d_sifc();
    }
    if (bench_wanted("g84-compute")) {
        bench_compute();
    }
    bench_g84_3d();
}
