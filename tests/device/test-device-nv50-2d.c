/*
 * The 2D object (G80_2D 0x502d, hw/nv50/gr/2d*.c) on a channel's PGRAPH
 * context: fbcon's fills, XOR cursor, copies and glyph uploads, all 256
 * ROPs, blits overlapping in every direction, SIFC in 1/8/16/32 bpp,
 * format conversion, clipping, pitch and block-linear destinations, and
 * the errors.  Every result is checked pixel by pixel (the whole
 * surface, untouched pixels included) against the plain model below,
 * which starts from the same random memory.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"

#define SUBC        3           /* fbcon's subchannel for 2D */
#define H_2D        0x502du

#define INTR        0x400100
#define TRAP        0x400108
#define DATA_ERROR  0x400110

/* methods (rnndb g80_2d.xml) */
#define M_DMA_DST       0x184
#define M_DMA_SRC       0x188
#define M_DST_FORMAT    0x200
#define M_SRC_FORMAT    0x230
#define M_CLIP_X        0x280
#define M_CLIP_ENABLE   0x290
#define M_ROP           0x2a0
#define M_OPERATION     0x2ac
#define M_PATTERN_OFFSET 0x2b0
#define M_PATTERN_SELECT 0x2b4
#define M_PATTERN_COLOR_FORMAT 0x2e8
#define M_PATTERN_BITMAP_FORMAT 0x2ec
#define M_PATTERN_BITMAP_COLOR 0x2f0
#define M_PATTERN_BITMAP 0x2f8
#define M_PATTERN_X8R8G8B8 0x300
#define M_DRAW_SHAPE    0x580
#define M_DRAW_COLOR_FORMAT 0x584
#define M_DRAW_COLOR    0x588
#define M_DRAW_POINT32_X 0x600
#define M_SIFC_BITMAP_ENABLE 0x800
#define M_SIFC_FORMAT   0x804
#define M_SIFC_BITMAP_FORMAT 0x808
#define M_SIFC_LSB_FIRST 0x80c
#define M_SIFC_LINE_PACK 0x810
#define M_SIFC_COLOR0   0x814
#define M_SIFC_COLOR1   0x818
#define M_SIFC_WRITE_BIT0 0x81c
#define M_SIFC_WIDTH    0x838
#define M_SIFC_DX_DU_FRACT 0x840
#define M_SIFC_DST_X_FRACT 0x850
#define M_SIFC_DATA     0x860
#define M_SAFE_OVERLAP  0x888
#define M_BLIT_CONTROL  0x88c
#define M_BLIT_DST_X    0x8b0
#define M_BLIT_DU_DX_FRACT 0x8c0
#define M_BLIT_SRC_X_FRACT 0x8d0

enum { OP_SRCCOPY_AND, OP_ROP_AND, OP_BLEND_AND, OP_SRCCOPY, OP_ROP };

/* --- the model --- */

typedef struct TSurf {
    uint32_t fmt;
    unsigned bpp;
    bool linear;
    unsigned bh;                /* block-linear: log2 GOBs per block row */
    uint32_t pitch, w, h;
    uint64_t va;
    size_t size;
    uint8_t *ref;               /* what memory should hold */
} TSurf;

typedef struct TFmt {
    uint32_t id;
    unsigned bpp;
    int sh[4], bits[4];         /* R, G, B, A */
    bool zero_x;
} TFmt;

static const TFmt tfmts[] = {
    { 0xcf, 4, { 16, 8, 0, 24 }, { 8, 8, 8, 8 } },
    { 0xe6, 4, { 16, 8, 0, 0 }, { 8, 8, 8, 0 } },
    { 0xd5, 4, { 0, 8, 16, 24 }, { 8, 8, 8, 8 } },
    { 0xf9, 4, { 0, 8, 16, 0 }, { 8, 8, 8, 0 } },
    { 0xd1, 4, { 0, 10, 20, 30 }, { 10, 10, 10, 2 } },
    { 0xdf, 4, { 20, 10, 0, 30 }, { 10, 10, 10, 2 } },
    { 0xe8, 2, { 11, 5, 0, 0 }, { 5, 6, 5, 0 } },
    { 0xe9, 2, { 10, 5, 0, 15 }, { 5, 5, 5, 1 } },
    { 0xf8, 2, { 10, 5, 0, 0 }, { 5, 5, 5, 0 } },
    { 0xfb, 2, { 10, 5, 0, 0 }, { 5, 5, 5, 0 }, true },
    { 0xfd, 4, { 16, 8, 0, 0 }, { 8, 8, 8, 0 }, true },
    { 0xf3, 1, { 0, 0, 0, 0 }, { 8, 0, 0, 0 } },
    { 0xee, 2, { 0, 0, 0, 0 }, { 16, 0, 0, 0 } },
};

static const TFmt *tfmt(uint32_t id)
{
    for (size_t i = 0; i < ARRAY_SIZE(tfmts); i++) {
        if (tfmts[i].id == id) {
            return &tfmts[i];
        }
    }
    ck_abort_msg("no model of format 0x%x", id);
    return NULL;
}

/* UNORM conversion: rounded to nearest; missing alpha = 1, RGB = 0. */
static uint32_t tconv(uint32_t v, uint32_t sid, uint32_t did)
{
    const TFmt *s = tfmt(sid), *d = tfmt(did);
    uint32_t out = 0, used = 0;

    if (sid == did) {
        return v;
    }
    for (int c = 0; c < 4; c++) {
        uint64_t dmax, smax, x;

        if (!d->bits[c]) {
            continue;
        }
        dmax = (1ull << d->bits[c]) - 1;
        if (s->bits[c]) {
            smax = (1ull << s->bits[c]) - 1;
            x = (v >> s->sh[c]) & smax;
            x = (x * dmax * 2 + smax) / (smax * 2);
        } else {
            x = c == 3 ? dmax : 0;
        }
        out |= (uint32_t)x << d->sh[c];
        used |= (uint32_t)dmax << d->sh[c];
    }
    if (!d->zero_x) {
        out |= (d->bpp == 4 ? 0xffffffffu : (1u << (8 * d->bpp)) - 1) & ~used;
    }
    return out;
}

static bool talpha(uint32_t v, uint32_t id)
{
    const TFmt *f = tfmt(id);

    return !f->bits[3] || ((v >> f->sh[3]) & ((1u << f->bits[3]) - 1));
}

static uint64_t toff(const TSurf *s, uint32_t x, uint32_t y)
{
    uint64_t xb = (uint64_t)x * s->bpp;
    uint32_t rows = 4u << s->bh;
    uint64_t bx = (s->w * s->bpp + 63) / 64;

    if (s->linear) {
        return (uint64_t)y * s->pitch + xb;
    }
    /* blocks 64 bytes x rows, GOBs of 64 x 4 stacked inside */
    return ((y / rows) * bx + xb / 64) * (256u << s->bh) +
           (y % rows) / 4 * 256 + (y % 4) * 64 + xb % 64;
}

static uint32_t tget(const TSurf *s, uint32_t x, uint32_t y)
{
    uint32_t v = 0;

    memcpy(&v, s->ref + toff(s, x, y), s->bpp);
    return v;
}

static void tput(TSurf *s, int64_t x, int64_t y, uint32_t v)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h) {
        return;             /* the canvas */
    }
    memcpy(s->ref + toff(s, x, y), &v, s->bpp);
}

/* the model's clip (CLIP_ENABLE) */
static struct { bool on; int64_t x0, y0, x1, y1; } tclip;

static bool tclipped(int64_t x, int64_t y)
{
    return tclip.on && (x < tclip.x0 || y < tclip.y0 || x >= tclip.x1 ||
                        y >= tclip.y1);
}

static uint32_t seed = 12345;

static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static void vram_rw(uint64_t va, void *buf, size_t len, bool write)
{
    ck_assert(nv50_phys_rw(rig.s, NV50_TARGET_VRAM, gr_va_to_vram(va), buf,
                           len, write));
}

/* A surface at @va, filled with random bytes (memory and model). */
static void tsurf(TSurf *s, uint32_t fmt, bool linear, unsigned bh,
                  uint32_t w, uint32_t h, uint32_t pitch, uint64_t va)
{
    memset(s, 0, sizeof(*s));
    s->fmt = fmt;
    s->bpp = tfmt(fmt)->bpp;
    s->linear = linear;
    s->bh = bh;
    s->w = w;
    s->h = h;
    s->pitch = pitch;
    s->va = va;
    if (linear) {
        s->size = (size_t)pitch * h;
    } else {
        uint32_t rows = 4u << bh;

        s->size = (size_t)((w * s->bpp + 63) / 64) * ((h + rows - 1) / rows) *
                  (256u << bh);
    }
    s->ref = g_malloc(s->size);
    for (size_t i = 0; i < s->size; i++) {
        s->ref[i] = rnd();
    }
    vram_rw(va, s->ref, s->size, true);
}

static void tsurf_free(TSurf *s)
{
    g_free(s->ref);
}

/* Memory equals the model, pixel by pixel. */
static void tcheck(const TSurf *s, const char *what)
{
    g_autofree uint8_t *mem = g_malloc(s->size);

    vram_rw(s->va, mem, s->size, false);
    for (uint32_t y = 0; y < s->h; y++) {
        for (uint32_t x = 0; x < s->w; x++) {
            uint32_t a = 0, b = 0;
            uint64_t o = toff(s, x, y);

            memcpy(&a, mem + o, s->bpp);
            memcpy(&b, s->ref + o, s->bpp);
            if (a != b) {
                ck_abort_msg("%s: pixel (%u, %u) is 0x%08x, model 0x%08x",
                             what, x, y, a, b);
            }
        }
    }
    /* and nothing outside the pixels changed (pitch padding) */
    ck_assert_msg(!memcmp(mem, s->ref, s->size), "%s: padding", what);
}

/* --- driving the object --- */

static void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC, mthd, data);
}

static void setup(void)
{
    gr_rig_init();
    gr_bind(SUBC, gr_object(0x502d, H_2D));
    seed = 12345;
    tclip.on = false;
}

static void teardown(void)
{
    gr_rig_teardown();
}

static void no_intr(void)
{
    ck_assert_uint_eq(rd32(INTR), 0);
}

/* DST_* or SRC_* from a model surface. */
static void bind_surf(const TSurf *s, bool src)
{
    uint32_t b = src ? M_SRC_FORMAT : M_DST_FORMAT;

    m(src ? M_DMA_SRC : M_DMA_DST, GR_DMA_VM);
    m(b + 0x00, s->fmt);
    m(b + 0x04, s->linear);
    m(b + 0x08, s->bh << 4);
    m(b + 0x0c, 1);
    m(b + 0x10, 0);
    m(b + 0x14, s->pitch);
    m(b + 0x18, s->w);
    m(b + 0x1c, s->h);
    m(b + 0x20, (uint32_t)(s->va >> 32));
    m(b + 0x24, (uint32_t)s->va);
}

/* nv50_fbcon_accel_init's methods for a @fmt console on @s */
static void fbcon_init(const TSurf *s)
{
    bind_surf(s, false);
    bind_surf(s, true);
    m(M_CLIP_ENABLE, 0);
    m(M_ROP, 0x55);
    m(M_OPERATION, OP_SRCCOPY);
    m(M_PATTERN_COLOR_FORMAT, 2);
    m(M_PATTERN_BITMAP_FORMAT, 1);
    m(M_DRAW_SHAPE, 4);
    m(M_DRAW_COLOR_FORMAT, s->fmt);
    m(M_SIFC_BITMAP_ENABLE, 1);
    m(M_SIFC_FORMAT, s->fmt);
    m(M_SIFC_BITMAP_FORMAT, 0);
    m(M_SIFC_LSB_FIRST, 0);
    m(M_SIFC_LINE_PACK, 1);
    m(M_SIFC_WRITE_BIT0, 1);
    m(M_SIFC_DX_DU_FRACT, 0);
    m(M_SIFC_DX_DU_FRACT + 4, 1);
    m(M_SIFC_DX_DU_FRACT + 8, 0);
    m(M_SIFC_DX_DU_FRACT + 12, 1);
    m(M_SAFE_OVERLAP, 1);
    m(M_BLIT_DU_DX_FRACT, 0);
    m(M_BLIT_DU_DX_FRACT + 4, 1);
    m(M_BLIT_DU_DX_FRACT + 8, 0);
    m(M_BLIT_DU_DX_FRACT + 12, 1);
}

static void rect(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    m(M_DRAW_POINT32_X, x0);
    m(M_DRAW_POINT32_X + 4, y0);
    m(M_DRAW_POINT32_X + 8, x1);
    m(M_DRAW_POINT32_X + 12, y1);
}

/* model: a solid rect with SRCCOPY of colour @v (format @cfmt) */
static void trect(TSurf *s, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                  uint32_t v, uint32_t cfmt)
{
    for (int64_t y = y0; y < y1; y++) {
        for (int64_t x = x0; x < x1; x++) {
            if (!tclipped(x, y)) {
                tput(s, x, y, tconv(v, cfmt, s->fmt));
            }
        }
    }
}

/* fbcon's copyarea */
static void copyarea(int32_t sx, int32_t sy, int32_t dx, int32_t dy,
                     uint32_t w, uint32_t h)
{
    m(NV50_GR_MTHD_WAIT_FOR_IDLE, 0);
    m(M_BLIT_DST_X, dx);
    m(M_BLIT_DST_X + 4, dy);
    m(M_BLIT_DST_X + 8, w);
    m(M_BLIT_DST_X + 12, h);
    m(M_BLIT_SRC_X_FRACT, 0);
    m(M_BLIT_SRC_X_FRACT + 4, sx);
    m(M_BLIT_SRC_X_FRACT + 8, 0);
    m(M_BLIT_SRC_X_FRACT + 12, sy);
}

/* model: an unscaled copy, as memmove would (src read first) */
static void tcopy(const TSurf *src, TSurf *dst, int64_t sx, int64_t sy,
                  int64_t dx, int64_t dy, int64_t w, int64_t h)
{
    g_autofree uint32_t *tmp = g_new(uint32_t, w * h);

    for (int64_t y = 0; y < h; y++) {
        for (int64_t x = 0; x < w; x++) {
            tmp[y * w + x] = tget(src, sx + x, sy + y);
        }
    }
    for (int64_t y = 0; y < h; y++) {
        for (int64_t x = 0; x < w; x++) {
            if (!tclipped(dx + x, dy + y)) {
                tput(dst, dx + x, dy + y,
                     tconv(tmp[y * w + x], src->fmt, dst->fmt));
            }
        }
    }
}

/*
 * fbcon's imageblit of a 1-bpp @bits image (rows of ALIGN(w, 8) / 8
 * bytes, first pixel in bit 7), with whatever SIFC state is set.
 */
static void imageblit(const uint8_t *bits, uint32_t w, uint32_t h,
                      int32_t dx, int32_t dy, uint32_t bg, uint32_t fg)
{
    uint32_t words = ((w + 7) / 8 * 8 * h + 31) / 32;
    g_autofree uint8_t *buf = g_malloc0(words * 4);

    memcpy(buf, bits, (w + 7) / 8 * h);
    m(M_SIFC_COLOR0, bg);
    m(M_SIFC_COLOR1, fg);
    m(M_SIFC_WIDTH, w);
    m(M_SIFC_WIDTH + 4, h);
    m(M_SIFC_DST_X_FRACT, 0);
    m(M_SIFC_DST_X_FRACT + 4, dx);
    m(M_SIFC_DST_X_FRACT + 8, 0);
    m(M_SIFC_DST_X_FRACT + 12, dy);
    for (uint32_t i = 0; i < words; i++) {
        uint32_t v;

        memcpy(&v, buf + 4 * i, 4);
        m(M_SIFC_DATA, v);
    }
}

/* model of a 1-bpp image: bit (x, y) from @bits with row @stride bytes */
static void timage(TSurf *s, const uint8_t *bits, uint32_t w, uint32_t h,
                   uint32_t stride, bool lsb, int64_t dx, int64_t dy,
                   uint32_t bg, uint32_t fg, uint32_t cfmt, bool opaque)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t byte = bits[y * stride + x / 8];
            bool on = lsb ? (byte >> (x % 8)) & 1 : (byte >> (7 - x % 8)) & 1;

            if ((on || opaque) && !tclipped(dx + x, dy + y)) {
                tput(s, dx + x, dy + y, tconv(on ? fg : bg, cfmt, s->fmt));
            }
        }
    }
}

/* --- the tests --- */

/* fbcon: fills (exclusive ends), with one running off the surface */
START_TEST(test_fill_fbcon)
{
    TSurf s;

    tsurf(&s, 0xe6, true, 0, 80, 40, 384, GR_VA_DATA);
    fbcon_init(&s);
    m(M_DRAW_COLOR, 0x00123456);
    rect(3, 4, 3 + 20, 4 + 10);
    trect(&s, 3, 4, 23, 14, 0x00123456, 0xe6);
    m(M_DRAW_COLOR, 0x00abcdef);
    rect(70, 30, 90, 50);
    trect(&s, 70, 30, 90, 50, 0x00abcdef, 0xe6);
    rect(0, 0, 1, 1);
    trect(&s, 0, 0, 1, 1, 0x00abcdef, 0xe6);
    rect(10, 20, 10, 30);           /* empty */
    no_intr();
    tcheck(&s, "fills");
    /* a 16-bit console */
    tsurf_free(&s);
    tsurf(&s, 0xe8, true, 0, 50, 20, 128, GR_VA_DATA + 0x10000);
    fbcon_init(&s);
    m(M_DRAW_COLOR, 0xf81f);
    rect(5, 5, 45, 15);
    trect(&s, 5, 5, 45, 15, 0xf81f, 0xe8);
    no_intr();
    tcheck(&s, "16-bit fills");
    tsurf_free(&s);
}
END_TEST

/* fbcon's XOR cursor: ROP_AND with ROP 0x55 inverts the destination */
START_TEST(test_rop_cursor)
{
    TSurf s;

    tsurf(&s, 0xe6, true, 0, 64, 32, 256, GR_VA_DATA);
    fbcon_init(&s);
    m(M_OPERATION, OP_ROP_AND);
    m(M_DRAW_COLOR, 0x00ffffff);
    rect(8, 16, 16, 18);
    m(M_OPERATION, OP_SRCCOPY);
    for (int y = 16; y < 18; y++) {
        for (int x = 8; x < 16; x++) {
            tput(&s, x, y, ~tget(&s, x, y));
        }
    }
    no_intr();
    tcheck(&s, "cursor");
    /* twice is the original */
    m(M_OPERATION, OP_ROP_AND);
    rect(8, 16, 16, 18);
    for (int y = 16; y < 18; y++) {
        for (int x = 8; x < 16; x++) {
            tput(&s, x, y, ~tget(&s, x, y));
        }
    }
    tcheck(&s, "cursor off");
    tsurf_free(&s);
}
END_TEST

static uint32_t trop(uint8_t rop, uint32_t d, uint32_t s, uint32_t p)
{
    uint32_t r = 0;

    for (int b = 0; b < 32; b++) {
        unsigned i = (d >> b & 1) | (s >> b & 1) << 1 | (p >> b & 1) << 2;

        r |= (uint32_t)(rop >> i & 1) << b;
    }
    return r;
}

/* all 256 ROPs against a colour pattern, then a CGA6 bitmap pattern */
START_TEST(test_rop_all)
{
    TSurf s;
    uint32_t pat[64], bm[2] = { 0x8142a5f0, 0x0f5a2418 };
    uint32_t pc[2] = { 0x80102030, 0xff405060 };

    tsurf(&s, 0xe6, true, 0, 128, 128, 512, GR_VA_DATA);
    fbcon_init(&s);
    m(M_PATTERN_SELECT, 3);
    m(M_PATTERN_OFFSET, 3 | 5 << 8);
    for (int i = 0; i < 64; i++) {
        pat[i] = rnd() & 0xffffff;
        m(M_PATTERN_X8R8G8B8 + 4 * i, pat[i]);
    }
    m(M_OPERATION, OP_ROP);
    for (int rop = 0; rop < 256; rop++) {
        int x0 = (rop % 16) * 8, y0 = (rop / 16) * 8;
        uint32_t col = rnd();

        m(M_ROP, rop);
        m(M_DRAW_COLOR, col);
        rect(x0, y0, x0 + 7, y0 + 5);
        for (int y = y0; y < y0 + 5; y++) {
            for (int x = x0; x < x0 + 7; x++) {
                uint32_t p = 0xff000000 |
                             pat[((y + 5) & 7) * 8 + ((x + 3) & 7)];

                tput(&s, x, y, trop(rop, tget(&s, x, y), col, p));
            }
        }
    }
    no_intr();
    tcheck(&s, "256 ROPs");

    /* bitmap 8x8, CGA6 (bit 7 of each byte first), P = pattern */
    m(M_PATTERN_SELECT, 0);
    m(M_PATTERN_OFFSET, 0);
    m(M_PATTERN_COLOR_FORMAT, 2);
    m(M_PATTERN_BITMAP_FORMAT, 0);
    m(M_PATTERN_BITMAP_COLOR, pc[0]);
    m(M_PATTERN_BITMAP_COLOR + 4, pc[1]);
    m(M_PATTERN_BITMAP, bm[0]);
    m(M_PATTERN_BITMAP + 4, bm[1]);
    m(M_ROP, 0x5a);                 /* D ^ P */
    rect(2, 3, 30, 20);
    for (int y = 3; y < 20; y++) {
        for (int x = 2; x < 30; x++) {
            unsigned i = (y & 7) * 8 + (x & 7);
            unsigned bit = (i & 24) | (7 - (i & 7));
            uint32_t p = 0xff000000 |
                         (pc[bm[i >> 5] >> bit & 1] & 0xffffff);

            tput(&s, x, y, tget(&s, x, y) ^ p);
        }
    }
    no_intr();
    tcheck(&s, "bitmap pattern");
    tsurf_free(&s);
}
END_TEST

/* fbcon's copyarea, overlapping in every direction (and not at all) */
START_TEST(test_blit_overlap)
{
    static const int moves[][4] = {
        { 10, 10, 14, 13 }, { 14, 13, 10, 10 },   /* down-right, up-left */
        { 10, 13, 14, 10 }, { 14, 10, 10, 13 },   /* up-right, down-left */
        { 10, 10, 13, 10 }, { 13, 10, 10, 10 },   /* right, left */
        { 10, 10, 10, 12 }, { 10, 12, 10, 10 },   /* down, up */
        { 0, 0, 40, 25 },                         /* apart */
    };
    TSurf s;

    tsurf(&s, 0xe6, true, 0, 72, 48, 320, GR_VA_DATA);
    fbcon_init(&s);
    for (size_t i = 0; i < ARRAY_SIZE(moves); i++) {
        copyarea(moves[i][0], moves[i][1], moves[i][2], moves[i][3], 30, 20);
        tcopy(&s, &s, moves[i][0], moves[i][1], moves[i][2], moves[i][3],
              30, 20);
        no_intr();
        tcheck(&s, "overlapping copy");
    }
    /* the console scroll: everything up one text line */
    copyarea(0, 16, 0, 0, 72, 32);
    tcopy(&s, &s, 0, 16, 0, 0, 72, 32);
    tcheck(&s, "scroll");
    tsurf_free(&s);
}
END_TEST

/* 8x16 and 12x16 glyphs the way nv50_fbcon_imageblit sends them */
START_TEST(test_sifc_glyphs)
{
    TSurf s;
    uint8_t g8[16], g12[32];

    tsurf(&s, 0xe6, true, 0, 64, 40, 256, GR_VA_DATA);
    fbcon_init(&s);
    for (int i = 0; i < 16; i++) {
        g8[i] = rnd();
    }
    for (int i = 0; i < 32; i++) {
        g12[i] = rnd() & (i & 1 ? 0xf0 : 0xff);
    }
    imageblit(g8, 8, 16, 3, 2, 0x00000000, 0x00aaaaaa);
    timage(&s, g8, 8, 16, 1, false, 3, 2, 0, 0x00aaaaaa, 0xe6, true);
    imageblit(g12, 12, 16, 20, 10, 0x00102030, 0x00ffff55);
    timage(&s, g12, 12, 16, 2, false, 20, 10, 0x00102030, 0x00ffff55, 0xe6,
           true);
    /* at the right edge: clipped by the canvas */
    imageblit(g12, 12, 16, 58, 30, 0x00102030, 0x00ffff55);
    timage(&s, g12, 12, 16, 2, false, 58, 30, 0x00102030, 0x00ffff55, 0xe6,
           true);
    no_intr();
    tcheck(&s, "glyphs");

    /* transparent, LSB first, packed rows (a 12-bit row stride) */
    {
        uint8_t packed[24];
        uint8_t bits[32];

        for (int i = 0; i < 24; i++) {
            packed[i] = rnd();
        }
        m(M_SIFC_WRITE_BIT0, 0);
        m(M_SIFC_LSB_FIRST, 1);
        m(M_SIFC_LINE_PACK, 0);
        m(M_SIFC_COLOR0, 0x00ff0000);
        m(M_SIFC_COLOR1, 0x0000ff00);
        m(M_SIFC_WIDTH, 12);
        m(M_SIFC_WIDTH + 4, 16);
        m(M_SIFC_DST_X_FRACT + 4, 30);
        m(M_SIFC_DST_X_FRACT + 12, 1);
        for (int i = 0; i < 6; i++) {
            uint32_t v;

            memcpy(&v, packed + 4 * i, 4);
            m(M_SIFC_DATA, v);
        }
        /* re-lay the packed stream as rows of 2 bytes for the model */
        memset(bits, 0, sizeof(bits));
        for (int p = 0; p < 12 * 16; p++) {
            if (packed[p / 8] >> (p % 8) & 1) {
                bits[(p / 12) * 2 + (p % 12) / 8] |= 1 << ((p % 12) % 8);
            }
        }
        timage(&s, bits, 12, 16, 2, true, 30, 1, 0x00ff0000, 0x0000ff00,
               0xe6, false);
        no_intr();
        tcheck(&s, "transparent LSB-first packed");
    }

    /* ALIGN_WORD: each 5-pixel row in a word of its own */
    {
        uint8_t bits[4];

        m(M_SIFC_WRITE_BIT0, 1);
        m(M_SIFC_LSB_FIRST, 0);
        m(M_SIFC_LINE_PACK, 2);
        m(M_SIFC_COLOR0, 0x00000011);
        m(M_SIFC_COLOR1, 0x00000022);
        m(M_SIFC_WIDTH, 5);
        m(M_SIFC_WIDTH + 4, 4);
        m(M_SIFC_DST_X_FRACT + 4, 50);
        m(M_SIFC_DST_X_FRACT + 12, 20);
        for (int i = 0; i < 4; i++) {
            bits[i] = rnd();
            m(M_SIFC_DATA, bits[i] | rnd() << 8);
        }
        timage(&s, bits, 5, 4, 1, false, 50, 20, 0x11, 0x22, 0xe6, true);
        /* words after the image are dropped */
        m(M_SIFC_DATA, 0xffffffff);
        no_intr();
        tcheck(&s, "word-aligned rows");
    }
    tsurf_free(&s);
}
END_TEST

/* 8/16/32-bit colour SIFC, same format and converted */
START_TEST(test_sifc_color)
{
    static const struct {
        uint32_t dfmt, sfmt;
        unsigned w, h;
    } cases[] = {
        { 0xf3, 0xf3, 7, 3 },       /* Y8 */
        { 0xe8, 0xe8, 5, 4 },       /* R5G6B5 */
        { 0xcf, 0xcf, 4, 3 },       /* A8R8G8B8 */
        { 0xe6, 0xcf, 6, 2 },       /* A8R8G8B8 -> X8R8G8B8 */
        { 0xe8, 0xcf, 9, 5 },       /* A8R8G8B8 -> R5G6B5 */
        { 0xd1, 0xe9, 3, 3 },       /* A1R5G5B5 -> A2B10G10R10 */
        { 0xcf, 0xd5, 5, 2 },       /* A8B8G8R8 -> A8R8G8B8 */
    };

    for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
        TSurf s;
        unsigned bpp = tfmt(cases[k].sfmt)->bpp;
        unsigned n = cases[k].w * cases[k].h;
        g_autofree uint8_t *data = g_malloc0(n * bpp + 4);

        tsurf(&s, cases[k].dfmt, true, 0, 24, 12, 128,
              GR_VA_DATA + k * 0x10000);
        fbcon_init(&s);
        m(M_SIFC_BITMAP_ENABLE, 0);
        m(M_SIFC_FORMAT, cases[k].sfmt);
        m(M_SIFC_WIDTH, cases[k].w);
        m(M_SIFC_WIDTH + 4, cases[k].h);
        m(M_SIFC_DST_X_FRACT + 4, 2);
        m(M_SIFC_DST_X_FRACT + 12, 3);
        for (unsigned i = 0; i < n * bpp; i++) {
            data[i] = rnd();
        }
        for (unsigned i = 0; i < (n * bpp + 3) / 4; i++) {
            uint32_t v;

            memcpy(&v, data + 4 * i, 4);
            m(M_SIFC_DATA, v);
        }
        for (unsigned i = 0; i < n; i++) {
            uint32_t v = 0;

            memcpy(&v, data + i * bpp, bpp);
            tput(&s, 2 + i % cases[k].w, 3 + i / cases[k].w,
                 tconv(v, cases[k].sfmt, cases[k].dfmt));
        }
        no_intr();
        tcheck(&s, "colour SIFC");
        tsurf_free(&s);
    }
}
END_TEST

/* blits and solid colours between formats; a scaled blit */
START_TEST(test_formats)
{
    static const uint32_t dsts[] = { 0xe8, 0xd1, 0xe9, 0xf8, 0xd5, 0xfb,
                                     0xfd, 0xf9, 0xdf };
    TSurf src;

    tsurf(&src, 0xcf, true, 0, 32, 16, 128, GR_VA_DATA);
    for (size_t k = 0; k < ARRAY_SIZE(dsts); k++) {
        TSurf d;

        tsurf(&d, dsts[k], true, 0, 40, 20, 192,
              GR_VA_DATA + 0x10000 * (k + 1));
        fbcon_init(&d);
        bind_surf(&src, true);
        copyarea(1, 2, 5, 3, 30, 13);
        tcopy(&src, &d, 1, 2, 5, 3, 30, 13);
        m(M_DRAW_COLOR_FORMAT, 0xcf);
        m(M_DRAW_COLOR, 0x80c04020);
        rect(0, 17, 40, 20);
        trect(&d, 0, 17, 40, 20, 0x80c04020, 0xcf);
        no_intr();
        tcheck(&d, "conversion");
        tsurf_free(&d);
    }

    /* SRCCOPY_AND: source pixels with alpha 0 leave the destination */
    {
        TSurf d;

        tsurf(&d, 0xe6, true, 0, 32, 16, 128, GR_VA_DATA + 0x100000);
        fbcon_init(&d);
        bind_surf(&src, true);
        m(M_OPERATION, OP_SRCCOPY_AND);
        copyarea(0, 0, 0, 0, 32, 16);
        for (int y = 0; y < 16; y++) {
            for (int x = 0; x < 32; x++) {
                uint32_t v = tget(&src, x, y);

                if (talpha(v, 0xcf)) {
                    tput(&d, x, y, tconv(v, 0xcf, 0xe6));
                }
            }
        }
        no_intr();
        tcheck(&d, "SRCCOPY_AND");
        tsurf_free(&d);
    }

    /* 2x up, point sampled, origin CENTER: texel floor(sx + (i+.5)/2) */
    {
        TSurf d;

        tsurf(&d, 0xcf, true, 0, 40, 24, 256, GR_VA_DATA + 0x110000);
        fbcon_init(&d);
        bind_surf(&src, true);
        m(M_BLIT_CONTROL, 0);
        m(M_BLIT_DU_DX_FRACT, 0x80000000u);
        m(M_BLIT_DU_DX_FRACT + 4, 0);
        m(M_BLIT_DU_DX_FRACT + 8, 0x80000000u);
        m(M_BLIT_DU_DX_FRACT + 12, 0);
        copyarea(3, 4, 1, 2, 36, 20);
        for (int y = 0; y < 20; y++) {
            for (int x = 0; x < 36; x++) {
                tput(&d, 1 + x, 2 + y, tget(&src, 3 + x / 2, 4 + y / 2));
            }
        }
        no_intr();
        tcheck(&d, "2x blit");
        tsurf_free(&d);
    }

    /*
     * Mirrored in y as Mesa sends a Y-flipped copy (glReadPixels of a
     * window surface): source box y 16, height -16 -> SRC_Y 15 (Mesa
     * subtracts 1), DV_DY -1, origin CENTER: row i reads 15 - i, all
     * inside the 32x16 source.
     */
    {
        TSurf d;

        tsurf(&d, 0xcf, true, 0, 40, 24, 256, GR_VA_DATA + 0x120000);
        fbcon_init(&d);
        bind_surf(&src, true);
        m(M_BLIT_CONTROL, 0);
        m(M_BLIT_DU_DX_FRACT + 8, 0);
        m(M_BLIT_DU_DX_FRACT + 12, 0xffffffffu);
        copyarea(2, 15, 0, 0, 30, 16);
        for (int y = 0; y < 16; y++) {
            for (int x = 0; x < 30; x++) {
                tput(&d, x, y, tget(&src, 2 + x, 15 - y));
            }
        }
        no_intr();
        tcheck(&d, "y-mirrored blit");
        tsurf_free(&d);
    }
    tsurf_free(&src);
}
END_TEST

/* CLIP_ENABLE: fills, copies and glyphs cut at the clip rectangle */
START_TEST(test_clip)
{
    TSurf s;
    uint8_t g[16];

    tsurf(&s, 0xe6, true, 0, 64, 48, 256, GR_VA_DATA);
    fbcon_init(&s);
    m(M_CLIP_X, 10);
    m(M_CLIP_X + 4, 8);
    m(M_CLIP_X + 8, 30);
    m(M_CLIP_X + 12, 20);
    m(M_CLIP_ENABLE, 1);
    tclip.on = true;
    tclip.x0 = 10, tclip.y0 = 8, tclip.x1 = 40, tclip.y1 = 28;
    m(M_DRAW_COLOR, 0x00445566);
    rect(0, 0, 64, 48);
    trect(&s, 0, 0, 64, 48, 0x00445566, 0xe6);
    copyarea(0, 30, 30, 20, 20, 15);
    tcopy(&s, &s, 0, 30, 30, 20, 20, 15);
    for (int i = 0; i < 16; i++) {
        g[i] = rnd();
    }
    imageblit(g, 8, 16, 6, 4, 0x00000011, 0x00ffffff);
    timage(&s, g, 8, 16, 1, false, 6, 4, 0x11, 0xffffff, 0xe6, true);
    no_intr();
    tcheck(&s, "clip");
    tsurf_free(&s);
}
END_TEST

/* a block-linear destination (and source): fills, glyphs, copies */
START_TEST(test_block_linear)
{
    TSurf bl, pl;
    uint8_t g[32];

    tsurf(&bl, 0xe6, false, 1, 100, 30, 0, GR_VA_DATA);
    tsurf(&pl, 0xe6, true, 0, 40, 20, 192, GR_VA_DATA + 0x40000);
    fbcon_init(&bl);
    m(M_DRAW_COLOR, 0x00010203);
    rect(5, 3, 95, 9);
    trect(&bl, 5, 3, 95, 9, 0x00010203, 0xe6);
    for (int i = 0; i < 32; i++) {
        g[i] = rnd();
    }
    imageblit(g, 16, 16, 60, 12, 0x00ff0000, 0x000000ff);
    timage(&bl, g, 16, 16, 2, false, 60, 12, 0xff0000, 0xff, 0xe6, true);
    copyarea(10, 2, 14, 6, 70, 20);         /* overlapping, down-right */
    tcopy(&bl, &bl, 10, 2, 14, 6, 70, 20);
    copyarea(14, 6, 3, 1, 70, 20);          /* overlapping, up-left */
    tcopy(&bl, &bl, 14, 6, 3, 1, 70, 20);
    bind_surf(&pl, true);
    copyarea(0, 0, 33, 9, 40, 20);          /* pitch -> block-linear */
    tcopy(&pl, &bl, 0, 0, 33, 9, 40, 20);
    no_intr();
    tcheck(&bl, "block-linear");
    tcheck(&pl, "pitch source untouched");
    tsurf_free(&bl);
    tsurf_free(&pl);
}
END_TEST

/* points, lines (last pixel not drawn) and a triangle */
START_TEST(test_solid_shapes)
{
    TSurf s;

    tsurf(&s, 0xe6, true, 0, 32, 32, 128, GR_VA_DATA);
    fbcon_init(&s);
    m(M_DRAW_COLOR, 0x00ff00ff);
    m(M_DRAW_SHAPE, 0);
    m(M_DRAW_POINT32_X, 4);
    m(M_DRAW_POINT32_X + 4, 5);
    m(0x5e0, 7 | 9 << 16);              /* DRAW_POINT16 */
    tput(&s, 4, 5, 0x00ff00ff);
    tput(&s, 7, 9, 0x00ff00ff);
    m(M_DRAW_SHAPE, 1);
    rect(0, 20, 4, 22);                 /* (0,20) -> (4,22) */
    tput(&s, 0, 20, 0x00ff00ff);
    tput(&s, 1, 21, 0x00ff00ff);        /* the tie goes up */
    tput(&s, 2, 21, 0x00ff00ff);
    tput(&s, 3, 22, 0x00ff00ff);
    m(M_DRAW_SHAPE, 3);                 /* right triangle, legs 4 */
    m(M_DRAW_POINT32_X, 20);
    m(M_DRAW_POINT32_X + 4, 2);
    m(M_DRAW_POINT32_X + 8, 24);
    m(M_DRAW_POINT32_X + 12, 2);
    m(M_DRAW_POINT32_X + 16, 20);
    m(M_DRAW_POINT32_X + 20, 6);
    /* top and left edges in, the hypotenuse's pixels by the tie rule */
    for (int y = 2; y < 6; y++) {
        for (int x = 20; x < 24; x++) {
            if ((x - 20) + (y - 2) < 4) {
                tput(&s, x, y, 0x00ff00ff);
            }
        }
    }
    no_intr();
    tcheck(&s, "shapes");
    tsurf_free(&s);
}
END_TEST

/* fbcon's whole sequence through the pushbuffer (PFIFO -> PGRAPH) */
START_TEST(test_fbcon_pushbuf)
{
    TSurf s;
    uint8_t g[16];
    uint32_t w[4];

    tsurf(&s, 0xe6, true, 0, 64, 32, 256, GR_VA_DATA);
    for (int i = 0; i < 16; i++) {
        g[i] = rnd();
    }
    push_1(SUBC, 0, H_2D);
    push_1(SUBC, M_DMA_DST, GR_H_VM);
    push_1(SUBC, M_DMA_SRC, GR_H_VM);
    w[0] = 0xe6, w[1] = 1;
    push_mthd(SUBC, M_DST_FORMAT, w, 2);
    push_mthd(SUBC, M_SRC_FORMAT, w, 2);
    {
        uint32_t sd[5] = { 256, 64, 32, (uint32_t)(GR_VA_DATA >> 32),
                           (uint32_t)GR_VA_DATA };

        push_mthd(SUBC, M_DST_FORMAT + 0x14, sd, 5);
        push_mthd(SUBC, M_SRC_FORMAT + 0x14, sd, 5);
    }
    push_1(SUBC, M_OPERATION, OP_SRCCOPY);
    w[0] = 4, w[1] = 0xe6;
    push_mthd(SUBC, M_DRAW_SHAPE, w, 2);
    {
        uint32_t sifc[5] = { 1, 0xe6, 0, 0, 1 };

        push_mthd(SUBC, M_SIFC_BITMAP_ENABLE, sifc, 5);
        push_1(SUBC, M_SIFC_WRITE_BIT0, 1);
    }
    push_1(SUBC, M_DRAW_COLOR, 0x00303030);
    w[0] = 2, w[1] = 3, w[2] = 50, w[3] = 20;
    push_mthd(SUBC, M_DRAW_POINT32_X, w, 4);
    {
        uint32_t c[2] = { 0x00000000, 0x00aaaaaa };
        uint32_t wh[2] = { 8, 16 };
        uint32_t dst[4] = { 0, 40, 0, 10 };
        uint32_t data[4];

        push_mthd(SUBC, M_SIFC_COLOR0, c, 2);
        push_mthd(SUBC, M_SIFC_WIDTH, wh, 2);
        push_mthd(SUBC, M_SIFC_DST_X_FRACT, dst, 4);
        memcpy(data, g, 16);
        push_word(0x40000000u | 4 << 18 | SUBC << 13 | M_SIFC_DATA);
        for (int i = 0; i < 4; i++) {
            push_word(data[i]);
        }
    }
    w[0] = 0, w[1] = 10, w[2] = 30, w[3] = 12;
    push_mthd(SUBC, M_BLIT_DST_X, w, 4);
    w[0] = 0, w[1] = 2, w[2] = 0, w[3] = 3;
    push_mthd(SUBC, M_BLIT_SRC_X_FRACT, w, 4);
    push_submit();

    trect(&s, 2, 3, 50, 20, 0x00303030, 0xe6);
    timage(&s, g, 8, 16, 1, false, 40, 10, 0, 0xaaaaaa, 0xe6, true);
    tcopy(&s, &s, 2, 3, 0, 10, 30, 12);
    no_intr();
    tcheck(&s, "fbcon through PFIFO");
    tsurf_free(&s);
}
END_TEST

/* bad state raises DATA_ERROR (or a trap) and draws nothing */
START_TEST(test_errors)
{
    TSurf s, y8;
    g_autofree char *log = NULL;

    tsurf(&s, 0xe6, true, 0, 32, 16, 128, GR_VA_DATA);
    tsurf(&y8, 0xf3, true, 0, 32, 16, 64, GR_VA_DATA + 0x10000);
    fbcon_init(&s);

    /* a method 2D does not have */
    m(0x2c0, 1);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_ILLEGAL_MTHD);
    wr32(INTR, 0xffffffff);

    /* not a 2D format */
    m(M_DST_FORMAT, 0x12);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_DATA_ERROR);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_ENUM);
    wr32(INTR, 0xffffffff);
    m(M_OPERATION, 7);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_ENUM);
    wr32(INTR, 0xffffffff);

    /* Y8 source onto an RGB destination */
    bind_surf(&y8, true);
    copyarea(0, 0, 0, 0, 8, 8);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_DATA_ERROR);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_ENG2D_FORMAT_MISMATCH);
    wr32(INTR, 0xffffffff);

    /* reading outside the source */
    bind_surf(&s, true);
    copyarea(20, 10, 0, 0, 16, 8);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_VALUE);
    wr32(INTR, 0xffffffff);

    /* pitch 0 */
    m(M_DST_FORMAT + 0x14, 0);
    m(M_DRAW_COLOR, 0);
    rect(0, 0, 4, 4);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_VALUE);
    wr32(INTR, 0xffffffff);
    m(M_DST_FORMAT + 0x14, 128);

    /* no DST ctxdma, then a DMA_DST that is not a DMA object */
    m(M_DMA_DST, 0);
    rect(0, 0, 4, 4);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_OBJECT);
    wr32(INTR, 0xffffffff);
    m(M_DMA_DST, 0x110);            /* the 2D object itself */
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_OBJECT);
    wr32(INTR, 0xffffffff);
    rect(0, 0, 4, 4);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_OBJECT);
    wr32(INTR, 0xffffffff);

    /* an unmapped destination: VM fault, PROP trap */
    m(M_DMA_DST, GR_DMA_VM);
    m(M_DST_FORMAT + 0x20, 0);
    m(M_DST_FORMAT + 0x24, 0x10000000);
    rect(0, 0, 4, 4);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_TRAP);
    ck_assert(rd32(TRAP) & NV50_GR_TRAP_PROP);
    wr32(TRAP, 0xffffffff);
    wr32(INTR, 0xffffffff);

    /* none of it drew anything */
    tcheck(&s, "errors");
    tcheck(&y8, "errors (Y8)");
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "SRC_FORMAT R8_UNORM cannot go to "
                                 "DST_FORMAT BGRX8_UNORM"));
    tsurf_free(&s);
    tsurf_free(&y8);
}
END_TEST

Suite *nv50_2d_suite(void)
{
    Suite *s = suite_create("nv50_2d");
    TCase *tc = tcase_create("g80_2d");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fill_fbcon);
    tcase_add_test(tc, test_rop_cursor);
    tcase_add_test(tc, test_rop_all);
    tcase_add_test(tc, test_blit_overlap);
    tcase_add_test(tc, test_sifc_glyphs);
    tcase_add_test(tc, test_sifc_color);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_clip);
    tcase_add_test(tc, test_block_linear);
    tcase_add_test(tc, test_solid_shapes);
    tcase_add_test(tc, test_fbcon_pushbuf);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return s;
}
