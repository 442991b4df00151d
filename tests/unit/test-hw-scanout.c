/*
 * nv50 scanout: surface conversion (each EVO format, pitch-linear and
 * block-linear, the LUT) on plain byte arrays; then a card whose armed
 * head state is read back through -screendump and through a console
 * with a capturing listener (surface switches, dirty rectangles,
 * frames).
 *
 * Test surfaces are written with this file's own address formula for
 * the Tesla block-linear layout (envytools g80-surface.rst: 64 x 4-byte
 * GOBs, blocks one GOB wide and 1 << bh GOBs high, so a block is 4 << bh
 * consecutive 64-byte lines), not with the converter's code.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/scanout.h"
#include "ui/console.h"
#include "nv50-scanout-rig.h"
#include <check.h>
#include <png.h>
#include <unistd.h>

/* --- the pure conversion --- */

typedef struct Layout {
    uint64_t offset;
    uint32_t pitch;         /* bytes; block-linear: 64 x GOBs across */
    bool bl;
    unsigned bh;
} Layout;

/* Byte @xb of row @y. */
static uint64_t test_addr(const Layout *l, uint32_t xb, uint32_t y)
{
    uint32_t lines = 4u << l->bh;           /* rows in a block */
    uint64_t block;

    if (!l->bl) {
        return l->offset + (uint64_t)y * l->pitch + xb;
    }
    block = (uint64_t)(y / lines) * (l->pitch / 64) + xb / 64;
    return l->offset + block * (256u << l->bh) + (y % lines) * 64 + xb % 64;
}

static void put_pixel(uint8_t *vram, const Layout *l, unsigned bpp,
                      uint32_t x, uint32_t y, uint32_t raw)
{
    for (unsigned i = 0; i < bpp; i++) {
        vram[test_addr(l, x * bpp + i, y)] = raw >> (8 * i);
    }
}

/* A raw pixel and the R, G, B it shows, worked out by hand. */
typedef struct Vec {
    uint32_t raw;
    uint8_t r, g, b;
} Vec;

static const Vec v_argb8888[] = {
    { 0x5a123456, 0x12, 0x34, 0x56 },   /* alpha byte ignored */
    { 0x00ff0000, 0xff, 0x00, 0x00 },
    { 0xff00ff00, 0x00, 0xff, 0x00 },
    { 0x000000ff, 0x00, 0x00, 0xff },
    { 0x80808080, 0x80, 0x80, 0x80 },
};
static const Vec v_abgr8888[] = {
    { 0x5a123456, 0x56, 0x34, 0x12 },   /* bytes R, G, B, A */
    { 0x000000ff, 0xff, 0x00, 0x00 },
    { 0x00ff0000, 0x00, 0x00, 0xff },
    { 0xff00ff00, 0x00, 0xff, 0x00 },
};
static const Vec v_rgb565[] = {
    { 0xf800, 0xff, 0x00, 0x00 },
    { 0x07e0, 0x00, 0xff, 0x00 },
    { 0x001f, 0x00, 0x00, 0xff },
    { 0x8410, 0x84, 0x82, 0x84 },       /* 16, 32, 16: bits replicated */
    { 0x0821, 0x08, 0x04, 0x08 },       /* 1, 1, 1 */
};
static const Vec v_argb1555[] = {
    { 0x7c00, 0xff, 0x00, 0x00 },
    { 0x83e0, 0x00, 0xff, 0x00 },       /* alpha bit ignored */
    { 0x001f, 0x00, 0x00, 0xff },
    { 0x8000, 0x00, 0x00, 0x00 },
    { 0x4210, 0x84, 0x84, 0x84 },       /* 16, 16, 16 */
};
static const Vec v_a2b10g10r10[] = {
    /* A 3, B 0x004, G 0x200, R 0x3ff: 10 bits truncated to 8 */
    { 3u << 30 | 0x004 << 20 | 0x200 << 10 | 0x3ff, 0xff, 0x80, 0x01 },
    { 0x3ff << 20, 0x00, 0x00, 0xff },
    { 0x3ff << 10, 0x00, 0xff, 0x00 },
    { 0x003, 0x00, 0x00, 0x00 },
};
/* through test_i8_lut(): see there */
static const Vec v_i8[] = {
    { 0x00, 0x00, 0x00, 0x00 },
    { 0x01, 0xff, 0x00, 0x00 },
    { 0x80, 0x00, 0x80, 0xff },
    { 0xff, 0xff, 0xff, 0xff },
    { 0x42, 0x42, 0x42, 0x42 },
};

typedef struct FmtCase {
    unsigned format;
    unsigned bpp;
    const Vec *v;
    int n;
} FmtCase;

#define FMT(f, bpp, v)  { f, bpp, v, ARRAY_SIZE(v) }
static const FmtCase fmt_cases[] = {
    FMT(NV50_SURFACE_A8R8G8B8, 4, v_argb8888),
    FMT(NV50_SURFACE_A8B8G8R8, 4, v_abgr8888),
    FMT(NV50_SURFACE_R5G6B5, 2, v_rgb565),
    FMT(NV50_SURFACE_A1R5G5B5, 2, v_argb1555),
    FMT(NV50_SURFACE_A2B10G10R10, 4, v_a2b10g10r10),
    FMT(NV50_SURFACE_I8, 1, v_i8),
};

/*
 * nouveau's LUT entry for an 8-bit level c of a 16-bit DRM gamma ramp
 * (c * 257): drm_color_lut_extract(c * 257, 11) << 3, head507d_olut_load.
 */
static uint16_t nouveau_entry(unsigned c)
{
    uint32_t v = (c * 257 + 16) >> 5;

    return (v > 2047 ? 2047 : v) << 3;
}

/* Entries (as 14-bit fractions, 0x3fff = full) for v_i8. */
static void test_i8_lut(NV50ScanoutLut *lut)
{
    memset(lut, 0, sizeof(*lut));
    lut->entry[1][0] = 0x3fff;
    lut->entry[0x80][1] = 0x2000;           /* 8192 * 255 / 16383 = 128 */
    lut->entry[0x80][2] = 0x3fff;
    for (int ch = 0; ch < 3; ch++) {
        lut->entry[0xff][ch] = 0x3ff8;      /* nouveau's full scale */
        lut->entry[0x42][ch] = nouveau_entry(0x42);
    }
}

#define SW      37      /* not a whole number of GOBs at any bpp */
#define SH      11      /* not a whole number of blocks for bh >= 1 */

static uint8_t *convert(const uint8_t *vram, uint64_t size,
                        const NV50ScanoutDesc *d)
{
    uint8_t *img = g_malloc0((size_t)d->width * d->height * 4);
    g_autofree char *err = NULL;

    ck_assert_msg(nv50_scanout_convert(vram, size, d, img, d->width * 4,
                                       &err), "%s", err);
    return img;
}

static void check_pixel(const uint8_t *img, uint32_t w, uint32_t x,
                        uint32_t y, uint8_t r, uint8_t g, uint8_t b,
                        const char *what)
{
    const uint8_t *p = img + ((size_t)y * w + x) * 4;

    ck_assert_msg(p[2] == r && p[1] == g && p[0] == b,
                  "%s: pixel (%u, %u) is %02x%02x%02x, want %02x%02x%02x",
                  what, x, y, p[2], p[1], p[0], r, g, b);
}

/* Every format in layout @l (pitch/GOBs chosen here), every pixel. */
static void check_formats(bool bl, unsigned bh)
{
    for (size_t f = 0; f < ARRAY_SIZE(fmt_cases); f++) {
        const FmtCase *fc = &fmt_cases[f];
        uint32_t row = SW * fc->bpp;
        Layout l = { .offset = 0x1100, .bl = bl, .bh = bh };
        NV50ScanoutLut lut;
        NV50ScanoutDesc d = {
            .width = SW, .height = SH, .format = fc->format,
            .block_linear = bl, .block_height = bh,
        };
        const size_t size = 256 * 1024;
        g_autofree uint8_t *vram = g_malloc(size);
        g_autofree uint8_t *img = NULL;
        g_autofree char *what = g_strdup_printf("format 0x%02x %s bh %u",
                                                fc->format,
                                                bl ? "block-linear" : "pitch",
                                                bh);

        /* junk everywhere the surface does not cover */
        memset(vram, 0xa5, size);
        if (bl) {
            l.pitch = ((row + 63) / 64 + 1) * 64;   /* a spare GOB column */
        } else {
            l.pitch = row + 24;                     /* pitch > width */
        }
        d.offset = l.offset;
        d.pitch = l.pitch;
        if (fc->format == NV50_SURFACE_I8) {
            test_i8_lut(&lut);
            d.lut = &lut;
        }
        for (uint32_t y = 0; y < SH; y++) {
            for (uint32_t x = 0; x < SW; x++) {
                put_pixel(vram, &l, fc->bpp, x, y,
                          fc->v[(x * 7 + y * 3) % fc->n].raw);
            }
        }
        img = convert(vram, size, &d);
        for (uint32_t y = 0; y < SH; y++) {
            for (uint32_t x = 0; x < SW; x++) {
                const Vec *v = &fc->v[(x * 7 + y * 3) % fc->n];

                check_pixel(img, SW, x, y, v->r, v->g, v->b, what);
            }
        }
    }
}

START_TEST(formats_pitch_linear)
{
    check_formats(false, 0);
}
END_TEST

START_TEST(formats_block_linear)
{
    /* one GOB per block, 2 (two block rows, 3 lines into the second), 8 */
    check_formats(true, 0);
    check_formats(true, 1);
    check_formats(true, 3);
}
END_TEST

/*
 * Addresses worked out by hand from the GOB rules: a 32x12 XRGB surface
 * (128 bytes a row: 2 GOBs), 2 GOBs per block (8 lines of 64 bytes =
 * 0x200 bytes), 2 blocks to a row of blocks.
 */
START_TEST(block_linear_addresses)
{
    static const struct {
        uint32_t x, y, addr;
    } at[] = {
        { 0, 0, 0x000 },
        { 1, 3, 0x0c4 },    /* block 0, line 3 */
        { 16, 0, 0x200 },   /* byte 64: block 1 */
        { 16, 5, 0x340 },   /* block 1, line 5 (second GOB, row 1) */
        { 15, 7, 0x1fc },   /* block 0, last line, last pixel */
        { 0, 8, 0x400 },    /* second row of blocks: block 2 */
        { 31, 11, 0x6fc },  /* block 3, line 3, byte 60 */
    };
    uint8_t vram[0x800];
    g_autofree uint8_t *img = NULL;
    NV50ScanoutDesc d = {
        .width = 32, .height = 12, .pitch = 128, .block_linear = true,
        .block_height = 1, .format = NV50_SURFACE_A8R8G8B8,
    };

    memset(vram, 0, sizeof(vram));
    for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
        vram[at[i].addr] = 0x10 + i;            /* blue */
    }
    img = convert(vram, sizeof(vram), &d);
    for (uint32_t y = 0; y < 12; y++) {
        for (uint32_t x = 0; x < 32; x++) {
            uint8_t want = 0;

            for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
                if (at[i].x == x && at[i].y == y) {
                    want = 0x10 + i;
                }
            }
            check_pixel(img, 32, x, y, 0, 0, want, "hand address");
        }
    }
}
END_TEST

/* nouveau's gamma ramp is the identity, an inverted one inverts. */
START_TEST(lut_on_direct_colour)
{
    uint8_t vram[256 * 4];
    NV50ScanoutLut lut = { .hires = true };
    NV50ScanoutDesc d = {
        .width = 256, .height = 1, .pitch = 1024,
        .format = NV50_SURFACE_A8R8G8B8, .lut = &lut,
    };
    g_autofree uint8_t *img = NULL;

    for (unsigned c = 0; c < 256; c++) {
        /* R = G = B = c, alpha junk */
        vram[c * 4] = vram[c * 4 + 1] = vram[c * 4 + 2] = c;
        vram[c * 4 + 3] = 0x33;
        lut.entry[c][0] = nouveau_entry(c);
        lut.entry[c][1] = nouveau_entry(255 - c);
        lut.entry[c][2] = nouveau_entry(c);
    }
    img = convert(vram, sizeof(vram), &d);
    for (unsigned c = 0; c < 256; c++) {
        check_pixel(img, 256, c, 0, c, 255 - c, c, "ramp");
    }
    /* the same in LORES: 8-bit components index the entries directly */
    lut.hires = false;
    g_free(img);
    img = convert(vram, sizeof(vram), &d);
    for (unsigned c = 0; c < 256; c++) {
        check_pixel(img, 256, c, 0, c, 255 - c, c, "ramp lores");
    }
}
END_TEST

/*
 * 10-bit components in HIRES interpolate between entries c >> 2 and the
 * next by (c & 3) / 4; LORES takes entry c >> 2.  Entry 128 is 0, entry
 * 129 full (0x3ffc): 0x201 -> 0x0fff -> 64, 0x202 -> 0x1ffe -> 127,
 * 0x203 -> 0x2ffd -> 191 (x * 255 / 0x3fff, rounded).
 */
START_TEST(lut_hires_interpolates_10bit)
{
    static const struct {
        uint32_t c;
        uint8_t hires, lores;
    } v[] = {
        { 0x200, 0, 0 }, { 0x201, 64, 0 }, { 0x202, 127, 0 },
        { 0x203, 191, 0 }, { 0x204, 255, 255 },
    };
    uint8_t vram[ARRAY_SIZE(v) * 4];
    NV50ScanoutLut lut = { .hires = true };
    NV50ScanoutDesc d = {
        .width = ARRAY_SIZE(v), .height = 1, .pitch = sizeof(vram),
        .format = NV50_SURFACE_A2B10G10R10, .lut = &lut,
    };
    g_autofree uint8_t *img = NULL;

    memset(&lut.entry, 0, sizeof(lut.entry));
    for (int ch = 0; ch < 3; ch++) {
        lut.entry[129][ch] = 0x3ffc;
    }
    for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
        uint32_t raw = v[i].c;      /* red only */

        memcpy(vram + i * 4, &(uint8_t[4]){ raw, raw >> 8, 0, 0 }, 4);
    }
    img = convert(vram, sizeof(vram), &d);
    for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
        check_pixel(img, d.width, i, 0, v[i].hires, 0, 0, "hires");
    }
    lut.hires = false;
    g_free(img);
    img = convert(vram, sizeof(vram), &d);
    for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
        check_pixel(img, d.width, i, 0, v[i].lores, 0, 0, "lores");
    }
}
END_TEST

/* The VRAM layout of a LUT: 8-byte entries of LE u16 R, G, B. */
START_TEST(lut_read_layout)
{
    g_autofree uint8_t *vram = g_malloc0(0x1000);
    NV50ScanoutLut lut;
    g_autofree char *err = NULL;

    for (unsigned i = 0; i < 257; i++) {
        uint8_t *p = vram + 0x400 + i * 8;

        p[0] = i;           /* R = 0x1000 + i */
        p[1] = 0x10;
        p[2] = 0x34;        /* G = 0x1234 */
        p[3] = 0x12;
        p[4] = 0xff - (i & 0xff);   /* B */
        p[5] = 0;
        p[6] = p[7] = 0xee;         /* unused */
    }
    ck_assert_msg(nv50_scanout_lut_read(vram, 0x1000, 0x400, true, &lut,
                                        &err), "%s", err);
    ck_assert(lut.hires);
    ck_assert_uint_eq(lut.entry[0][0], 0x1000);
    ck_assert_uint_eq(lut.entry[3][0], 0x1003);
    ck_assert_uint_eq(lut.entry[3][1], 0x1234);
    ck_assert_uint_eq(lut.entry[3][2], 0xfc);
    ck_assert_uint_eq(lut.entry[256][0], 0x1000);  /* i = 256 -> p[0] 0 */
    /* 257 entries must fit: 0x1000 - 0x808 = 0x7f8 < 257 * 8 */
    ck_assert(!nv50_scanout_lut_read(vram, 0x1000, 0x808, false, &lut,
                                     &err));
    ck_assert_ptr_nonnull(strstr(err, "beyond VRAM"));
    g_clear_pointer(&err, g_free);
    ck_assert(nv50_scanout_lut_read(vram, 0x1000, 0x1000 - 257 * 8, false,
                                    &lut, &err));
}
END_TEST

static void expect_error(const NV50ScanoutDesc *d, uint64_t size,
                         const char *needle)
{
    g_autofree uint8_t *vram = g_malloc0(size);
    g_autofree uint8_t *img = g_malloc0((size_t)d->width * d->height * 4
                                        + 4);
    g_autofree char *err = NULL;

    ck_assert(!nv50_scanout_check(d, size, &err));
    ck_assert_msg(strstr(err, needle), "'%s' lacks '%s'", err, needle);
    g_clear_pointer(&err, g_free);
    ck_assert(!nv50_scanout_convert(vram, size, d, img, d->width * 4, &err));
    ck_assert_msg(strstr(err, needle), "'%s' lacks '%s'", err, needle);
}

/*
 * A surface must fit in VRAM, to its last byte.  Block-linear 37x11
 * XRGB, 3 GOBs across, 8 lines a block: row 10 is line 2 of block row
 * 1, at 3 * 0x200 + 2 * 64 = 0x680; its third GOB adds 2 * 0x200 and
 * 20 bytes of it are used (148 - 128): the last byte read is 0xa93.
 */
START_TEST(surface_beyond_vram)
{
    NV50ScanoutDesc d = {
        .offset = 0x100, .width = SW, .height = SH, .pitch = 3 * 64,
        .block_linear = true, .block_height = 1,
        .format = NV50_SURFACE_A8R8G8B8,
    };
    g_autofree uint8_t *vram = g_malloc0(0x100 + 0xa94);
    g_autofree uint8_t *img = NULL;

    memset(vram, 0, 0x100 + 0xa94);
    put_pixel(vram, &(Layout){ 0x100, 3 * 64, true, 1 }, 4, SW - 1, SH - 1,
              0x00abcdef);
    img = convert(vram, 0x100 + 0xa94, &d);     /* exactly fits */
    check_pixel(img, SW, SW - 1, SH - 1, 0xab, 0xcd, 0xef, "last pixel");
    expect_error(&d, 0x100 + 0xa93, "beyond VRAM");

    /* pitch-linear: (SH - 1) * pitch + SW * 4 */
    d.block_linear = false;
    d.pitch = 256;
    d.offset = 0x1000;
    g_free(img);
    g_free(vram);
    vram = g_malloc0(0x1000 + 10 * 256 + SW * 4);
    img = convert(vram, 0x1000 + 10 * 256 + SW * 4, &d);
    expect_error(&d, 0x1000 + 10 * 256 + SW * 4 - 1, "beyond VRAM");
    /* an offset far past the end, and one that would wrap */
    d.offset = 0xffffffffull << 8;
    expect_error(&d, 0x10000, "beyond VRAM");
}
END_TEST

START_TEST(bad_descriptions)
{
    NV50ScanoutDesc d = {
        .width = 16, .height = 4, .pitch = 64,
        .format = NV50_SURFACE_A8R8G8B8,
    };

    d.pitch = 60;
    expect_error(&d, 0x1000, "pitch 60 is less than 16 x 4");
    d.pitch = 64;
    d.format = 0xca;            /* FP16: not shown */
    expect_error(&d, 0x1000, "0xca");
    d.format = NV50_SURFACE_I8;
    expect_error(&d, 0x1000, "without a LUT");
    d.format = NV50_SURFACE_A8R8G8B8;
    d.block_linear = true;
    d.block_height = 6;
    expect_error(&d, 0x10000, "block height 6");
    d.block_height = 0;
    d.pitch = 96;
    expect_error(&d, 0x10000, "64-byte GOBs");
    d.pitch = 64;
    d.height = 0;
    expect_error(&d, 0x10000, "empty");
}
END_TEST

/* --- the cursor, on byte arrays --- */

#define CVRAM       0x40000u        /* 256 KiB of "VRAM" */
#define CURS_AT     0x10000u        /* where the cursor image is */

/* A8R8G8B8 cursor pixel (i, j) of a size @n cursor at CURS_AT. */
static void curs_put(uint8_t *vram, uint32_t n, uint32_t i, uint32_t j,
                     uint32_t argb)
{
    uint8_t *p = vram + CURS_AT + (j * n + i) * 4;

    p[0] = argb;
    p[1] = argb >> 8;
    p[2] = argb >> 16;
    p[3] = argb >> 24;
}

/* A BGRX image of @w x @h, every pixel (B, G, R) = @bgr, X = 0xff. */
static uint8_t *curs_image(uint32_t w, uint32_t h, uint32_t bgr)
{
    uint8_t *img = g_malloc((size_t)w * h * 4);

    for (size_t i = 0; i < (size_t)w * h; i++) {
        img[i * 4 + 0] = bgr;
        img[i * 4 + 1] = bgr >> 8;
        img[i * 4 + 2] = bgr >> 16;
        img[i * 4 + 3] = 0xff;
    }
    return img;
}

static void expect_bgrx(const uint8_t *img, uint32_t w, uint32_t x,
                        uint32_t y, uint8_t r, uint8_t g, uint8_t b)
{
    const uint8_t *p = img + ((size_t)y * w + x) * 4;

    ck_assert_msg(p[2] == r && p[1] == g && p[0] == b && p[3] == 0xff,
                  "(%u, %u) = R %02x G %02x B %02x X %02x, want %02x %02x "
                  "%02x ff", x, y, p[2], p[1], p[0], p[3], r, g, b);
}

/* Blend vectors worked out by hand over a base of R c0, G 80, B 40. */
START_TEST(cursor_blend_math)
{
    g_autofree uint8_t *vram = g_malloc0(CVRAM);
    g_autofree uint8_t *img = NULL;
    g_autofree char *err = NULL;
    NV50CursorDesc c = {
        .offset = CURS_AT, .size = 32, .format = NV50_CURSOR_A8R8G8B8,
        .composition = NV50_CURSOR_ALPHA_BLEND,
    };

    curs_put(vram, 32, 0, 0, 0x80ff0020);   /* half-covered */
    curs_put(vram, 32, 1, 0, 0xff123456);   /* opaque */
    curs_put(vram, 32, 2, 0, 0x00ffffff);   /* transparent */
    curs_put(vram, 32, 3, 0, 0x80800020);   /* premultiplied, half */
    curs_put(vram, 32, 4, 0, 0x00ffffff);   /* additive if premult */
    /* straight: R (ff*80 + c0*7f)/ff = 223.6, G 63.75, B 47.9 */
    img = curs_image(40, 2, 0xc08040);
    ck_assert_msg(nv50_cursor_compose(vram, CVRAM, &c, img, 40, 2, 40 * 4,
                                      &err), "%s", err);
    expect_bgrx(img, 40, 0, 0, 0xe0, 0x40, 0x30);
    expect_bgrx(img, 40, 1, 0, 0x12, 0x34, 0x56);
    expect_bgrx(img, 40, 2, 0, 0xc0, 0x80, 0x40);
    expect_bgrx(img, 40, 3, 0, 0xa0, 0x40, 0x30);
    expect_bgrx(img, 40, 5, 1, 0xc0, 0x80, 0x40);   /* cursor 0: clear */
    expect_bgrx(img, 40, 35, 0, 0xc0, 0x80, 0x40);  /* beyond it */
    g_free(img);

    /* premultiplied: R 80 + c0*7f/ff = 128 + 95.6, G 63.75, B 32 + 31.9 */
    c.composition = NV50_CURSOR_PREMULT_ALPHA_BLEND;
    img = curs_image(40, 2, 0xc08040);
    ck_assert(nv50_cursor_compose(vram, CVRAM, &c, img, 40, 2, 40 * 4,
                                  &err));
    expect_bgrx(img, 40, 3, 0, 0xe0, 0x40, 0x40);
    expect_bgrx(img, 40, 1, 0, 0x12, 0x34, 0x56);
    expect_bgrx(img, 40, 4, 0, 0xff, 0xff, 0xff);   /* clamped */
    expect_bgrx(img, 40, 5, 0, 0xc0, 0x80, 0x40);
    g_free(img);

    /* XOR: alpha ignored */
    c.composition = NV50_CURSOR_XOR;
    img = curs_image(40, 2, 0xc08040);
    ck_assert(nv50_cursor_compose(vram, CVRAM, &c, img, 40, 2, 40 * 4,
                                  &err));
    expect_bgrx(img, 40, 1, 0, 0xc0 ^ 0x12, 0x80 ^ 0x34, 0x40 ^ 0x56);
    expect_bgrx(img, 40, 2, 0, 0x3f, 0x7f, 0xbf);
    expect_bgrx(img, 40, 5, 0, 0xc0, 0x80, 0x40);
    g_free(img);

    /* A1R5G5B5: alpha bit 15, 5-bit components replicated */
    memset(vram + CURS_AT, 0, 32 * 32 * 2);
    vram[CURS_AT + 0] = 0x1f;               /* 0x801f: opaque blue */
    vram[CURS_AT + 1] = 0x80;
    vram[CURS_AT + 2] = 0x10;               /* 0x4210 + no alpha */
    vram[CURS_AT + 3] = 0x42;
    vram[CURS_AT + 4] = 0x10;               /* 0xc210: opaque 16,16,16 */
    vram[CURS_AT + 5] = 0xc2;
    c.format = NV50_CURSOR_A1R5G5B5;
    c.composition = NV50_CURSOR_ALPHA_BLEND;
    img = curs_image(40, 2, 0xc08040);
    ck_assert(nv50_cursor_compose(vram, CVRAM, &c, img, 40, 2, 40 * 4,
                                  &err));
    expect_bgrx(img, 40, 0, 0, 0x00, 0x00, 0xff);
    expect_bgrx(img, 40, 1, 0, 0xc0, 0x80, 0x40);
    expect_bgrx(img, 40, 2, 0, 0x84, 0x84, 0x84);
}
END_TEST

/* Cursor pixel (i, j) as this test paints it: opaque, coordinates. */
static uint32_t curs_pattern(uint32_t i, uint32_t j)
{
    return 0xff000000u | (i + 1) << 16 | (j + 1) << 8 | 0x55;
}

/*
 * Compose a size @n opaque cursor at (@x, @y) over a @w x @h image and
 * check every pixel against the obvious reference.
 */
static void curs_place(uint32_t n, int32_t x, int32_t y, uint32_t w,
                       uint32_t h, bool expect_some)
{
    g_autofree uint8_t *vram = g_malloc0(CVRAM);
    g_autofree uint8_t *img = curs_image(w, h, 0x102030);
    g_autofree char *err = NULL;
    NV50CursorDesc c = {
        .offset = CURS_AT, .size = n, .format = NV50_CURSOR_A8R8G8B8,
        .composition = NV50_CURSOR_ALPHA_BLEND, .x = x, .y = y,
    };
    uint32_t x0, y0, x1, y1, drawn = 0;

    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t i = 0; i < n; i++) {
            curs_put(vram, n, i, j, curs_pattern(i, j));
        }
    }
    ck_assert_msg(nv50_cursor_compose(vram, CVRAM, &c, img, w, h, w * 4,
                                      &err), "%s", err);
    for (uint32_t py = 0; py < h; py++) {
        for (uint32_t px = 0; px < w; px++) {
            int64_t i = (int64_t)px - x, j = (int64_t)py - y;

            if (i >= 0 && i < n && j >= 0 && j < n) {
                uint32_t v = curs_pattern(i, j);

                expect_bgrx(img, w, px, py, v >> 16, v >> 8, v);
                drawn++;
            } else {
                expect_bgrx(img, w, px, py, 0x10, 0x20, 0x30);
            }
        }
    }
    ck_assert_int_eq(drawn > 0, expect_some);
    ck_assert_int_eq(nv50_cursor_rect(&c, w, h, &x0, &y0, &x1, &y1),
                     expect_some);
    if (expect_some) {
        ck_assert_uint_eq((x1 - x0) * (y1 - y0), drawn);
        ck_assert_uint_eq(x0, MAX(x, 0));
        ck_assert_uint_eq(y0, MAX(y, 0));
    }
}

START_TEST(cursor_clipping)
{
    const uint32_t w = 100, h = 80;

    curs_place(32, 10, 20, w, h, true);         /* wholly inside */
    curs_place(32, -5, 10, w, h, true);         /* left edge */
    curs_place(32, 10, -7, w, h, true);         /* top edge */
    curs_place(32, w - 20, 10, w, h, true);     /* right edge */
    curs_place(32, 10, h - 3, w, h, true);      /* bottom edge */
    curs_place(32, -31, -31, w, h, true);       /* one pixel: (31, 31) */
    curs_place(32, w - 1, h - 1, w, h, true);   /* one pixel: (0, 0) */
    curs_place(64, -10, -20, w, h, true);
    curs_place(64, w - 64, h - 64, w, h, true); /* exactly in the corner */
    curs_place(64, 40, 30, 50, 40, true);       /* larger than the rest */
    curs_place(64, -5, -5, 20, 20, true);       /* larger than the image */
    /* wholly off-screen, each side */
    curs_place(32, -32, 0, w, h, false);
    curs_place(32, w, 0, w, h, false);
    curs_place(32, 0, -32, w, h, false);
    curs_place(32, 0, h, w, h, false);
    curs_place(64, -32768, 32767, w, h, false);
}
END_TEST

/* 32 and 64 rows are packed: 128 and 256 bytes apart. */
START_TEST(cursor_sizes_packed_rows)
{
    g_autofree uint8_t *vram = g_malloc0(CVRAM);
    g_autofree uint8_t *img = NULL;
    g_autofree char *err = NULL;
    NV50CursorDesc c = {
        .offset = CURS_AT, .size = 32, .format = NV50_CURSOR_A8R8G8B8,
        .composition = NV50_CURSOR_ALPHA_BLEND, .x = 1, .y = 2,
    };

    ck_assert_uint_eq(nv50_cursor_bytes(&c), 32 * 32 * 4);
    /* byte offsets written by hand */
    memcpy(vram + CURS_AT + 31 * 128 + 31 * 4, "\x01\x02\x03\xff", 4);
    memcpy(vram + CURS_AT + 1 * 128 + 0 * 4, "\x04\x05\x06\xff", 4);
    img = curs_image(70, 70, 0);
    ck_assert(nv50_cursor_compose(vram, CVRAM, &c, img, 70, 70, 70 * 4,
                                  &err));
    expect_bgrx(img, 70, 32, 33, 0x03, 0x02, 0x01);
    expect_bgrx(img, 70, 1, 3, 0x06, 0x05, 0x04);
    expect_bgrx(img, 70, 33, 33, 0, 0, 0);
    g_free(img);

    c.size = 64;
    ck_assert_uint_eq(nv50_cursor_bytes(&c), 64 * 64 * 4);
    memcpy(vram + CURS_AT + 63 * 256 + 63 * 4, "\x07\x08\x09\xff", 4);
    memcpy(vram + CURS_AT + 1 * 256 + 32 * 4, "\x0a\x0b\x0c\xff", 4);
    img = curs_image(70, 70, 0);
    ck_assert(nv50_cursor_compose(vram, CVRAM, &c, img, 70, 70, 70 * 4,
                                  &err));
    expect_bgrx(img, 70, 64, 65, 0x09, 0x08, 0x07);
    expect_bgrx(img, 70, 33, 3, 0x0c, 0x0b, 0x0a);
    /* the 32x32 image's pixels (31, 31) and (0, 1) are (63, 15) and
     * (32, 0) of a 64x64 one */
    expect_bgrx(img, 70, 64, 17, 0x03, 0x02, 0x01);
    expect_bgrx(img, 70, 33, 2, 0x06, 0x05, 0x04);
    expect_bgrx(img, 70, 32, 33, 0, 0, 0);
}
END_TEST

static void expect_cursor_error(const NV50CursorDesc *c, uint64_t vram_size,
                                const char *what)
{
    g_autofree uint8_t *vram = g_malloc0(vram_size);
    g_autofree uint8_t *img = curs_image(8, 8, 0x123456);
    g_autofree uint8_t *copy = g_memdup2(img, 8 * 8 * 4);
    g_autofree char *err = NULL;

    ck_assert(!nv50_cursor_check(c, vram_size, &err));
    ck_assert_msg(strstr(err, what), "\"%s\" lacks \"%s\"", err, what);
    g_clear_pointer(&err, g_free);
    memset(vram, 0xff, vram_size);
    ck_assert(!nv50_cursor_compose(vram, vram_size, c, img, 8, 8, 8 * 4,
                                   &err));
    ck_assert_msg(strstr(err, what), "\"%s\" lacks \"%s\"", err, what);
    ck_assert(!memcmp(img, copy, 8 * 8 * 4));   /* untouched */
}

START_TEST(cursor_bad_descriptions)
{
    NV50CursorDesc c = {
        .offset = CVRAM - 32 * 32 * 4, .size = 32,
        .format = NV50_CURSOR_A8R8G8B8,
    };
    g_autofree char *err = NULL;

    /* the last 4 KiB of VRAM is fine, 4 bytes further is not */
    ck_assert_msg(nv50_cursor_check(&c, CVRAM, &err), "%s", err);
    c.offset += 4;
    expect_cursor_error(&c, CVRAM, "beyond VRAM");
    c.offset = 0xffffffffull << 8;
    expect_cursor_error(&c, CVRAM, "beyond VRAM");
    c.offset = 0;
    c.size = 48;
    expect_cursor_error(&c, CVRAM, "cursor size 48");
    c.size = 64;
    c.format = 2;
    expect_cursor_error(&c, CVRAM, "cursor format 2");
    c.format = NV50_CURSOR_A1R5G5B5;
    c.composition = 3;
    expect_cursor_error(&c, CVRAM, "composition 3");
}
END_TEST

/* --- on a card: armed state, -screendump, consoles --- */

/* --- the overlay, on byte arrays --- */

#define OVRAM       0x80000u        /* 512 KiB of "VRAM" */
#define OV_AT       0x20000u        /* where the overlay surface is */
#define OV_PITCH    256u

static uint32_t ov_pattern(uint32_t x, uint32_t y)
{
    /* x8r8g8b8 with junk in the X byte */
    return 0xa5000000u | (0x10 + x * 3) << 16 | (0x20 + y * 5) << 8 |
           ((x * 7) ^ y);
}

/* A @w x @h XRGB8888 pitch-linear overlay surface at OV_AT. */
static uint8_t *ov_vram(uint32_t w, uint32_t h)
{
    uint8_t *vram = g_malloc0(OVRAM);
    Layout l = { OV_AT, OV_PITCH, false, 0 };

    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            put_pixel(vram, &l, 4, x, y, ov_pattern(x, y));
        }
    }
    return vram;
}

static NV50OverlayDesc ov_desc(uint32_t w, uint32_t h)
{
    NV50OverlayDesc o = {
        .surf = { .offset = OV_AT, .width = w, .height = h,
                  .pitch = OV_PITCH, .format = NV50_SURFACE_A8R8G8B8 },
        .in_w = w, .in_h = h, .out_w = w, .out_h = h,
        .mode = NV50_OVLY_OPAQUE,
    };

    return o;
}

/*
 * Compose @o (over ov_vram's 40x30 surface) on a @w x @h image of
 * 0x102030 and compare every pixel with this test's own model: output
 * pixel (i, j) of the SIZE_OUT rectangle shows source pixel
 * (in_x + i * in_w / out_w, in_y + j * in_h / out_h).
 */
static void ov_place(const NV50OverlayDesc *o, uint32_t w, uint32_t h,
                     bool visible)
{
    g_autofree uint8_t *vram = ov_vram(40, 30);
    g_autofree uint8_t *img = curs_image(w, h, 0x102030);
    g_autofree char *err = NULL;
    uint32_t x0, y0, x1, y1;

    ck_assert_msg(nv50_overlay_compose(vram, OVRAM, o, img, w, h, w * 4,
                                       &err), "%s", err);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            int64_t i = (int64_t)x - o->x, j = (int64_t)y - o->y;
            uint32_t v = 0x102030;

            if (i >= 0 && i < o->out_w && j >= 0 && j < o->out_h) {
                v = ov_pattern(o->in_x + i * o->in_w / o->out_w,
                               o->in_y + j * o->in_h / o->out_h);
            }
            expect_bgrx(img, w, x, y, v >> 16, v >> 8, v);
        }
    }
    ck_assert_int_eq(nv50_overlay_rect(o, w, h, &x0, &y0, &x1, &y1),
                     visible);
}

START_TEST(overlay_opaque_clipping)
{
    NV50OverlayDesc o = ov_desc(40, 30);
    const int32_t pos[][2] = {
        { 5, 7 }, { -10, 3 }, { 4, -12 }, { 60, 2 }, { 3, 40 },
        { -39, -29 }, { 79, 49 }, { -5, -5 },
    };

    for (size_t k = 0; k < ARRAY_SIZE(pos); k++) {
        o.x = pos[k][0];
        o.y = pos[k][1];
        ov_place(&o, 80, 50, true);
    }
    /* larger than the image on every side */
    o.x = -3;
    o.y = -2;
    ov_place(&o, 20, 16, true);
    /* wholly off: nothing drawn, not an error */
    o.x = -40;
    o.y = 0;
    ov_place(&o, 80, 50, false);
    o.x = 80;
    ov_place(&o, 80, 50, false);
    o.x = 0;
    o.y = -30;
    ov_place(&o, 80, 50, false);
    o.y = 50;
    ov_place(&o, 80, 50, false);
    o.x = -32768;
    o.y = 32767;
    ov_place(&o, 80, 50, false);
    /* a source rectangle (POINT_IN/SIZE_IN) inside the surface */
    o.in_x = 7;
    o.in_y = 4;
    o.in_w = o.out_w = 33;
    o.in_h = o.out_h = 26;
    o.x = 70;
    o.y = -3;
    ov_place(&o, 80, 50, true);
}
END_TEST

/* SIZE_OUT != SIZE_IN: nearest-neighbour, up and down. */
START_TEST(overlay_scaling_nearest)
{
    NV50OverlayDesc o = ov_desc(40, 30);

    o.in_x = 2;
    o.in_y = 1;
    o.in_w = 10;
    o.in_h = 6;
    o.out_w = 25;           /* 2.5x across */
    o.out_h = 18;           /* 3x down */
    o.x = 3;
    o.y = 4;
    ov_place(&o, 40, 30, true);
    o.x = -7;               /* clipped: the phase follows POINT_OUT */
    o.y = -5;
    ov_place(&o, 40, 30, true);
    o.in_w = 40;
    o.in_h = 30;
    o.in_x = o.in_y = 0;
    o.out_w = 13;           /* down */
    o.out_h = 7;
    o.x = 1;
    o.y = 2;
    ov_place(&o, 40, 30, true);
    /* hand-checked: 2 source pixels shown 4 wide, pixel 1 from x = 2 */
    {
        g_autofree uint8_t *vram = ov_vram(40, 30);
        g_autofree uint8_t *img = curs_image(8, 1, 0);
        g_autofree char *err = NULL;
        uint32_t p0 = ov_pattern(0, 0), p1 = ov_pattern(1, 0);

        o = ov_desc(2, 1);
        o.out_w = 4;
        ck_assert(nv50_overlay_compose(vram, OVRAM, &o, img, 8, 1, 32,
                                       &err));
        expect_bgrx(img, 8, 1, 0, p0 >> 16, p0 >> 8, p0);
        expect_bgrx(img, 8, 2, 0, p1 >> 16, p1 >> 8, p1);
        expect_bgrx(img, 8, 3, 0, p1 >> 16, p1 >> 8, p1);
        expect_bgrx(img, 8, 4, 0, 0, 0, 0);
    }
}
END_TEST

/* The overlay formats of cl827e, pitch- and block-linear sources. */
START_TEST(overlay_formats)
{
    static const FmtCase cases[] = {
        FMT(NV50_SURFACE_A8R8G8B8, 4, v_argb8888),
        FMT(NV50_SURFACE_A1R5G5B5, 2, v_argb1555),
        FMT(NV50_SURFACE_A2B10G10R10, 4, v_a2b10g10r10),
    };

    for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
        for (int bl = 0; bl < 2; bl++) {
            const FmtCase *fc = &cases[k];
            Layout l = { OV_AT, bl ? 128 : 96, bl, bl ? 1 : 0 };
            g_autofree uint8_t *vram = g_malloc0(OVRAM);
            g_autofree uint8_t *img = curs_image(20, 12, 0x445566);
            g_autofree char *err = NULL;
            NV50OverlayDesc o = ov_desc(fc->n + 3, 10);

            o.surf.format = fc->format;
            o.surf.pitch = l.pitch;
            o.surf.block_linear = bl;
            o.surf.block_height = l.bh;
            /* vector i at source (3 + i, 9) */
            for (int i = 0; i < fc->n; i++) {
                put_pixel(vram, &l, fc->bpp, 3 + i, 9, fc->v[i].raw);
            }
            o.in_x = 3;
            o.in_y = 9;
            o.in_w = o.out_w = fc->n;
            o.in_h = o.out_h = 1;
            o.x = 6;
            o.y = 11;
            ck_assert_msg(nv50_overlay_compose(vram, OVRAM, &o, img, 20, 12,
                                               80, &err), "%s", err);
            for (int i = 0; i < fc->n; i++) {
                expect_bgrx(img, 20, 6 + i, 11, fc->v[i].r, fc->v[i].g,
                            fc->v[i].b);
            }
            expect_bgrx(img, 20, 5, 11, 0x44, 0x55, 0x66);
            expect_bgrx(img, 20, 6 + fc->n, 11, 0x44, 0x55, 0x66);
            expect_bgrx(img, 20, 6, 10, 0x44, 0x55, 0x66);
        }
    }
}
END_TEST

/* Colour keys: KEY_COLOR/KEY_MASK against 0x00RRGGBB. */
START_TEST(overlay_colour_keys)
{
    g_autofree uint8_t *vram = g_malloc0(OVRAM);
    Layout l = { OV_AT, OV_PITCH, false, 0 };
    const uint32_t src[4] = { 0x00ff00ff, 0x11ff00fe, 0x00123456,
                              0x00ff01ff };
    NV50OverlayDesc o = ov_desc(4, 1);
    g_autofree char *err = NULL;
    uint8_t *img;

    for (int i = 0; i < 4; i++) {
        put_pixel(vram, &l, 4, i, 0, src[i]);
    }
    /* source keying: magenta (low bit of B masked off) is transparent */
    o.mode = NV50_OVLY_SRC_COLOR_KEYING;
    o.key_color = 0x00ff00ff;
    o.key_mask = 0x00fffffe;
    img = curs_image(4, 1, 0x0a0b0c);
    ck_assert_msg(nv50_overlay_compose(vram, OVRAM, &o, img, 4, 1, 16, &err),
                  "%s", err);
    expect_bgrx(img, 4, 0, 0, 0x0a, 0x0b, 0x0c);    /* keyed out */
    expect_bgrx(img, 4, 1, 0, 0x0a, 0x0b, 0x0c);    /* masked: keyed */
    expect_bgrx(img, 4, 2, 0, 0x12, 0x34, 0x56);
    expect_bgrx(img, 4, 3, 0, 0xff, 0x01, 0xff);    /* G differs */
    g_free(img);

    /* destination keying: shown only where the base is the key */
    o.mode = NV50_OVLY_DST_COLOR_KEYING;
    o.key_color = 0x000a0b0c;
    o.key_mask = 0x00ffffff;
    img = curs_image(4, 1, 0x0a0b0c);
    img[1 * 4 + 0] = 0x0d;                          /* base (1) not key */
    ck_assert(nv50_overlay_compose(vram, OVRAM, &o, img, 4, 1, 16, &err));
    expect_bgrx(img, 4, 0, 0, 0xff, 0x00, 0xff);
    expect_bgrx(img, 4, 1, 0, 0x0a, 0x0b, 0x0d);
    expect_bgrx(img, 4, 2, 0, 0x12, 0x34, 0x56);
    g_free(img);
    /* mask 0: every base pixel matches */
    o.key_mask = 0;
    img = curs_image(4, 1, 0x777777);
    ck_assert(nv50_overlay_compose(vram, OVRAM, &o, img, 4, 1, 16, &err));
    expect_bgrx(img, 4, 0, 0, 0xff, 0x00, 0xff);
    expect_bgrx(img, 4, 3, 0, 0xff, 0x01, 0xff);
    g_free(img);
}
END_TEST

/*
 * YUYV/UYVY: pairs of pixels sharing U and V, limited-range BT.601 (or
 * 709), worked out by hand from the 8.8 fixed-point formulas
 * (R = 298 (Y - 16) + 409 (V - 128), ...; + 128, >> 8, clamped).
 */
START_TEST(overlay_yuv)
{
    /* Y0 U Y1 V: black | white, red | red, grey 128 | grey 128 */
    static const uint8_t pairs[3][4] = {
        { 16, 128, 235, 128 }, { 81, 90, 81, 240 }, { 126, 128, 126, 128 },
    };
    static const uint8_t want601[6][3] = {
        { 0, 0, 0 }, { 255, 255, 255 }, { 255, 0, 0 }, { 255, 0, 0 },
        { 128, 128, 128 }, { 128, 128, 128 },
    };

    for (int uyvy = 0; uyvy < 2; uyvy++) {
        for (int bl = 0; bl < 2; bl++) {
            g_autofree uint8_t *vram = g_malloc0(OVRAM);
            g_autofree uint8_t *img = curs_image(10, 2, 0x010203);
            g_autofree char *err = NULL;
            Layout l = { OV_AT, 64, bl, 0 };
            NV50OverlayDesc o = ov_desc(6, 2);

            o.surf.format = uyvy ? NV50_OVLY_UYVY : NV50_OVLY_YUYV;
            o.surf.pitch = 64;
            o.surf.block_linear = bl;
            o.color_space = 1;
            for (int p = 0; p < 3; p++) {
                const uint8_t *q = pairs[p];
                uint32_t raw = uyvy ?
                    q[1] | q[0] << 8 | q[3] << 16 | (uint32_t)q[2] << 24 :
                    q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24;

                put_pixel(vram, &l, 4, p, 1, raw);
            }
            /* from an odd pixel: the second half of the first pair */
            o.in_x = 1;
            o.in_y = 1;
            o.in_w = o.out_w = 5;
            o.in_h = o.out_h = 1;
            o.x = 2;
            o.y = 1;
            ck_assert_msg(nv50_overlay_compose(vram, OVRAM, &o, img, 10, 2,
                                               40, &err), "%s", err);
            for (int i = 0; i < 5; i++) {
                expect_bgrx(img, 10, 2 + i, 1, want601[1 + i][0],
                            want601[1 + i][1], want601[1 + i][2]);
            }
            expect_bgrx(img, 10, 1, 1, 0x01, 0x02, 0x03);
            expect_bgrx(img, 10, 7, 1, 0x01, 0x02, 0x03);
            expect_bgrx(img, 10, 2, 0, 0x01, 0x02, 0x03);
        }
    }
    /* Y 63, U 102, V 240: 709 red (255, 1, 0); as 601 (234, 0, 2) */
    for (unsigned cs = 1; cs <= 2; cs++) {
        g_autofree uint8_t *vram = g_malloc0(OVRAM);
        g_autofree uint8_t *img = curs_image(2, 1, 0);
        g_autofree char *err = NULL;
        Layout l = { OV_AT, 64, false, 0 };
        NV50OverlayDesc o = ov_desc(2, 1);

        o.surf.format = NV50_OVLY_YUYV;
        o.surf.pitch = 64;
        o.color_space = cs;
        put_pixel(vram, &l, 4, 0, 0, 63 | 102 << 8 | 63 << 16 | 240u << 24);
        ck_assert(nv50_overlay_compose(vram, OVRAM, &o, img, 2, 1, 8,
                                       &err));
        if (cs == 2) {
            expect_bgrx(img, 2, 0, 0, 255, 1, 0);
            expect_bgrx(img, 2, 1, 0, 255, 1, 0);
        } else {
            expect_bgrx(img, 2, 0, 0, 234, 0, 2);
            expect_bgrx(img, 2, 1, 0, 234, 0, 2);
        }
    }
}
END_TEST

static void expect_overlay_error(const NV50OverlayDesc *o,
                                 const char *what)
{
    g_autofree uint8_t *vram = ov_vram(40, 30);
    g_autofree uint8_t *img = curs_image(8, 8, 0x123456);
    g_autofree char *err = NULL;

    ck_assert(!nv50_overlay_check(o, OVRAM, &err));
    ck_assert_msg(strstr(err, what), "\"%s\" lacks \"%s\"", err, what);
    g_clear_pointer(&err, g_free);
    ck_assert(!nv50_overlay_compose(vram, OVRAM, o, img, 8, 8, 32, &err));
    ck_assert_msg(strstr(err, what), "\"%s\" lacks \"%s\"", err, what);
    for (uint32_t y = 0; y < 8; y++) {
        for (uint32_t x = 0; x < 8; x++) {
            expect_bgrx(img, 8, x, y, 0x12, 0x34, 0x56);
        }
    }
}

START_TEST(overlay_bad_descriptions)
{
    NV50OverlayDesc o = ov_desc(40, 30);
    NV50ScanoutLut lut = { 0 };
    g_autofree char *err = NULL;

    ck_assert_msg(nv50_overlay_check(&o, OVRAM, &err), "%s", err);
    o.surf.format = NV50_SURFACE_I8;
    expect_overlay_error(&o, "not an overlay format");
    o.surf.format = NV50_SURFACE_R5G6B5;
    expect_overlay_error(&o, "not an overlay format");
    o.surf.format = 0x2a;
    expect_overlay_error(&o, "not an overlay format");
    o = ov_desc(39, 30);
    o.surf.format = NV50_OVLY_UYVY;
    expect_overlay_error(&o, "YUV overlay of odd width 39");
    o = ov_desc(40, 30);
    o.surf.lut = &lut;
    expect_overlay_error(&o, "LUT");
    o = ov_desc(40, 30);
    o.in_w = 0;
    expect_overlay_error(&o, "empty overlay");
    o = ov_desc(40, 30);
    o.out_h = 0;
    expect_overlay_error(&o, "empty overlay");
    o = ov_desc(40, 30);
    o.in_x = 1;
    expect_overlay_error(&o, "not within its 40x30 surface");
    o = ov_desc(40, 30);
    o.in_y = 2;
    o.in_h = 29;
    expect_overlay_error(&o, "not within its 40x30 surface");
    o = ov_desc(40, 30);
    o.mode = 3;
    expect_overlay_error(&o, "composition mode 3");
    o = ov_desc(40, 30);
    o.surf.offset = OVRAM - 29 * OV_PITCH;
    expect_overlay_error(&o, "beyond VRAM");
    o = ov_desc(40, 30);
    o.surf.pitch = 100;
    expect_overlay_error(&o, "pitch 100");
}
END_TEST

#define SURF        0x100000u       /* the scanout surface */
#define LUTADDR     0x200000u
#define W           64
#define H           4
#define PITCH       256

static uint32_t pattern(int x, int y)
{
    /* x8r8g8b8: junk in the unused byte, which must not show */
    return 0x5a000000u | 0x80u << 16 | (uint32_t)(y * 60) << 8 | x * 4;
}

static void fill(NV50State *s)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            nv50_vram_wr32(s, SURF + y * PITCH + x * 4, pattern(x, y));
        }
    }
}

START_TEST(scanout_dump_png)
{
    NV50State *s = card();
    g_autofree char *path = g_build_filename(g_get_tmp_dir(),
                                             "gemu-test-scanout.png", NULL);
    g_autofree char *err = NULL;
    png_image img = { .version = PNG_IMAGE_VERSION };
    g_autofree uint8_t *px = NULL;

    fill(s);
    unlink(path);
    /* nothing armed yet: a clear error and no file */
    ck_assert(!nv50_screendump(s, 0, path, &err));
    ck_assert_ptr_nonnull(strstr(err, "no scanout surface armed"));
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    g_clear_pointer(&err, g_free);

    /* pitch layout (bit 20), pitch 256 >> 8 in 17:8, A8R8G8B8 */
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    ck_assert_msg(nv50_screendump(s, 0, path, &err), "%s", err);

    ck_assert(png_image_begin_read_from_file(&img, path));
    ck_assert_uint_eq(img.width, W);
    ck_assert_uint_eq(img.height, H);
    img.format = PNG_FORMAT_RGBA;
    px = g_malloc(PNG_IMAGE_SIZE(img));
    ck_assert(png_image_finish_read(&img, NULL, px, 0, NULL));
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + (y * W + x) * 4;

            ck_assert_uint_eq(p[0], 0x80);
            ck_assert_uint_eq(p[1], y * 60);
            ck_assert_uint_eq(p[2], x * 4);
            ck_assert_uint_eq(p[3], 0xff);
        }
    }
    unlink(path);
    card_free(s);
}
END_TEST

/*
 * A base channel image armed on the head is what it shows (nouveau's
 * console lives there); cleared again, the core surface is back.
 */
START_TEST(scanout_prefers_base_image)
{
    NV50State *s = card();
    g_autofree char *err = NULL;
    DisplaySurface surf;

    fill(s);
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    /* 32x2 RGB565 at SURF + 0x10000, pitch 256: pixel (1, 1) blue */
    nv50_vram_wr32(s, SURF + 0x10000 + 256 + 2, 0x001f);
    BASE(0x800) = (SURF + 0x10000) >> 8;    /* SURFACE_SET_OFFSET */
    BASE(0x808) = 32 | 2 << 16;             /* SIZE 32x2 */
    BASE(0x80c) = 1u << 20 | 1 << 8;        /* pitch layout, 256 */
    BASE(0x810) = 0xe8 << 8;                /* R5G6B5 */
    BASE(0x0c0) = 0xfb000000;               /* CONTEXT_DMA_ISO */
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.addr, SURF + 0x10000);
    ck_assert_uint_eq(surf.width, 32);
    ck_assert_uint_eq(surf.height, 2);
    ck_assert_uint_eq(surf.format, DISPLAY_FORMAT_BGRX8888);
    ck_assert_uint_eq(surf.pitch, 32 * 4);
    ck_assert_uint_eq(surf.data[(32 + 1) * 4], 0xff);
    ck_assert_uint_eq(surf.data[(32 + 1) * 4 + 2], 0);

    BASE(0x0c0) = 0;                        /* image cleared */
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.addr, SURF);
    ck_assert_uint_eq(surf.width, W);
    ck_assert_uint_eq(surf.data[(W + 1) * 4 + 2], 0x80);
    card_free(s);
}
END_TEST

START_TEST(scanout_rejects)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;

    /* not an EVO format */
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0x42);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "0x42"));
    g_clear_pointer(&err, g_free);
    /* I8 with the LUT off */
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0x1e);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "without a LUT"));
    g_clear_pointer(&err, g_free);
    /* past the end of the 16 MiB of VRAM */
    arm_core(s, 0xffff00, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "beyond VRAM"));
    g_clear_pointer(&err, g_free);
    /* block-linear (layout bit clear): PITCH counts 64-byte GOBs */
    arm_core(s, SURF, W, H, 4 << 8 | 1, 0xcf);
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.width, W);
    ck_assert_uint_eq(surf.pitch, W * 4);
    ck_assert_uint_eq(surf.addr, SURF);
    /* head 1 still has nothing; there is no head 2 */
    ck_assert(!nv50_scanout_surface(s, 1, &surf, &err));
    g_clear_pointer(&err, g_free);
    ck_assert(!nv50_scanout_surface(s, 2, &surf, &err));
    card_free(s);
}
END_TEST

/* I8 through the core head's LUT, as head827d_olut_set arms it. */
START_TEST(scanout_i8_core_lut)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;

    for (unsigned i = 0; i < 257; i++) {
        /* entry i: R = i, G = 255 - i, B = 0x80, nouveau-style */
        nv50_vram_wr32(s, LUTADDR + i * 8, nouveau_entry(i & 0xff) |
                       (uint32_t)nouveau_entry(255 - (i & 0xff)) << 16);
        nv50_vram_wr32(s, LUTADDR + i * 8 + 4, nouveau_entry(0x80));
    }
    for (unsigned x = 0; x < 256; x++) {
        s->vram[SURF + 256 + x] = x;            /* row 1 */
    }
    arm_core(s, SURF, 256, 2, 1u << 20 | 1 << 8, 0x1e);
    CORE(0x840) = 1u << 31;                     /* ENABLE, LORES */
    CORE(0x844) = LUTADDR >> 8;
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    for (unsigned x = 0; x < 256; x++) {
        const uint8_t *p = surf.data + (256 + x) * 4;

        ck_assert_uint_eq(p[2], x);
        ck_assert_uint_eq(p[1], 255 - x);
        ck_assert_uint_eq(p[0], 0x80);
    }
    /* a LUT that runs off VRAM is the guest's error */
    CORE(0x844) = (16u << 20) >> 8;
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_ptr_nonnull(strstr(err, "LUT"));
    card_free(s);
}
END_TEST

/*
 * The surface is at its ISO context DMA's start + OFFSET and must end
 * inside it; the LUT is read through HEAD_SET_CONTEXT_DMA_LUT.
 */
START_TEST(scanout_context_dmas)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;

    bind(s, 0, 0xf0000002, 0x1060, 0x300000, 0x10000);
    bind(s, 1, 0xf0000003, 0x1080, 0, 16 << 20);   /* base 0's, not core's */
    s->vram[0x300100 + 2 * 256 + 3] = 0x07;         /* (3, 2) = 7 */
    s->vram[0x000100 + 2 * 256 + 3] = 0x09;         /* decoy */
    arm_core(s, 0x100, 256, 4, 1u << 20 | 1 << 8, 0x1e);
    CORE(0x874) = 0xf0000002;
    for (unsigned i = 0; i < 257; i++) {
        /* LUT origin 0x8000 in the ctxdma: entry 7 is pure green */
        nv50_vram_wr32(s, 0x308000 + i * 8,
                       i == 7 ? 0x3fff0000u : 0x3fff3fffu);
        nv50_vram_wr32(s, 0x008000 + i * 8, 0);    /* decoy */
    }
    CORE(0x840) = 1u << 31;
    CORE(0x844) = 0x8000 >> 8;
    CORE(0x85c) = 0xf0000002;
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    ck_assert_uint_eq(surf.addr, 0x300100);
    ck_assert_uint_eq(surf.data[(2 * 256 + 3) * 4 + 2], 0x00);
    ck_assert_uint_eq(surf.data[(2 * 256 + 3) * 4 + 1], 0xff);
    ck_assert_uint_eq(surf.data[(2 * 256 + 4) * 4 + 2], 0xff);

    /* 0x100 + 256 rows of 256 bytes end 0x100 past the limit */
    arm_core(s, 0x100, 256, 256, 1u << 20 | 1 << 8, 0x1e);
    CORE(0x874) = 0xf0000002;
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_msg(strstr(err, "context DMA (limit 0x30ffff)"), "%s", err);
    g_clear_pointer(&err, g_free);
    /* so does a LUT at origin 0xff00 */
    arm_core(s, 0x100, 256, 4, 1u << 20 | 1 << 8, 0x1e);
    CORE(0x874) = 0xf0000002;
    CORE(0x844) = 0xff00 >> 8;
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_msg(strstr(err, "LUT at 0x30ff00 runs past"), "%s", err);
    g_clear_pointer(&err, g_free);
    /* a handle bound to another channel, or to none */
    CORE(0x874) = 0xf0000003;
    ck_assert(!nv50_scanout_surface(s, 0, &surf, &err));
    ck_assert_msg(strstr(err, "0xf0000003 is not bound"), "%s", err);
    card_free(s);
}
END_TEST


START_TEST(console_dirty_rectangles)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head0");
    Capture *c = capture(con);
    const DisplaySurface *cs;

    fill(s);
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);              /* no mode: nothing */
    ck_assert_int_eq(c->switches, 0);
    ck_assert_uint_eq(c->frames, 0);
    ck_assert_ptr_nonnull(strstr(display_console_info(con),
                                 "no scanout surface"));

    /* the first frame: surface, whole update, frame 1 */
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->switches, 1);
    ck_assert(c->has_surface);
    ck_assert_uint_eq(c->surf.width, W);
    ck_assert_uint_eq(c->surf.height, H);
    ck_assert_uint_eq(c->surf.format, DISPLAY_FORMAT_BGRX8888);
    ck_assert_uint_eq(c->surf.addr, SURF);
    expect_update(c, 1, 0, 0, W, H);
    ck_assert_uint_eq(c->frames, 1);
    ck_assert_str_eq(display_console_info(con), "64x4 XRGB8888 "
                     "pitch-linear, VRAM 0x100000, pitch 256");
    cs = display_console_surface(con);
    ck_assert_uint_eq(cs->data[(2 * W + 5) * 4 + 0], 5 * 4);
    ck_assert_uint_eq(cs->data[(2 * W + 5) * 4 + 1], 2 * 60);
    ck_assert_uint_eq(cs->data[(2 * W + 5) * 4 + 2], 0x80);

    /* nothing changed: no update, no frame */
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->updates, 1);
    ck_assert_uint_eq(c->frames, 1);

    /* two pixels: their bounding rectangle */
    nv50_vram_wr32(s, SURF + 1 * PITCH + 10 * 4, 0x00ffffff);
    nv50_vram_wr32(s, SURF + 3 * PITCH + 20 * 4, 0x00000000);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 2, 10, 1, 11, 3);
    ck_assert_uint_eq(c->frames, 2);
    ck_assert_uint_eq(cs->data[(1 * W + 10) * 4 + 2], 0xff);
    ck_assert_uint_eq(cs->data[(3 * W + 20) * 4 + 2], 0x00);
    ck_assert_int_eq(c->switches, 1);

    /* the same value written again is no change */
    nv50_vram_wr32(s, SURF + 1 * PITCH + 10 * 4, 0x00ffffff);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->updates, 2);

    /* a flip to another offset with the same size: no new surface */
    nv50_vram_wr32(s, SURF + 0x10000 + 2 * PITCH + 7 * 4, 0x00123456);
    arm_core(s, SURF + 0x10000, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->switches, 1);
    expect_update(c, 3, 0, 0, W, H);        /* all differ from fill() */
    ck_assert_ptr_nonnull(strstr(display_console_info(con),
                                 "VRAM 0x110000"));

    /* enabling the LUT redraws everything */
    for (unsigned i = 0; i < 257; i++) {
        uint16_t e = nouveau_entry(255 - (i & 0xff));

        nv50_vram_wr32(s, LUTADDR + i * 8, e | (uint32_t)e << 16);
        nv50_vram_wr32(s, LUTADDR + i * 8 + 4, e);
    }
    CORE(0x840) = 1u << 31 | 1u << 30;      /* ENABLE, HIRES */
    CORE(0x844) = LUTADDR >> 8;
    nv50_scanout_vblank(s, 0);
    expect_update(c, 4, 0, 0, W, H);
    ck_assert_uint_eq(cs->data[(2 * W + 7) * 4 + 2], 0xff - 0x12);
    ck_assert_uint_eq(cs->data[(2 * W + 7) * 4 + 0], 0xff - 0x56);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->updates, 4);
    CORE(0x840) = 0;

    /* the source format changes: a new surface */
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xe8);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->switches, 2);
    expect_update(c, 5, 0, 0, W, H);
    ck_assert_ptr_nonnull(strstr(display_console_info(con), "RGB565"));

    /* the head is switched off: one NULL surface, however many vblanks */
    CORE(0x874) = 0;
    nv50_scanout_vblank(s, 0);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->switches, 3);
    ck_assert(!c->has_surface);
    ck_assert_ptr_null(display_console_surface(con));
    ck_assert_uint_eq(c->frames, 5);

    /* and on again: a new surface and a whole update */
    CORE(0x874) = 0xf0000001;
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->switches, 4);
    ck_assert(c->has_surface);
    expect_update(c, 6, 0, 0, W, H);

    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    card_free(s);
}
END_TEST

/* Dirty rectangles from a block-linear surface, 16 GOBs a block. */
START_TEST(console_block_linear)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head1");
    Capture *c = capture(con);
    const Layout l = { SURF, 5 * 64, true, 4 };     /* 64 lines a block */
    const DisplaySurface *cs;

    nv50_scanout_set_console(s, 1, con);
    /* head 1: core methods at + 0x400 */
    s->pdisp->chan[0].armed[0xc60 >> 2] = SURF >> 8;
    s->pdisp->chan[0].armed[0xc68 >> 2] = 75 | 70 << 16;
    s->pdisp->chan[0].armed[0xc6c >> 2] = 5 << 8 | 4;   /* BL, 16 GOBs */
    s->pdisp->chan[0].armed[0xc70 >> 2] = 0xcf << 8;
    s->pdisp->chan[0].armed[0xc74 >> 2] = 0xf0000001;
    nv50_scanout_vblank(s, 1);
    ck_assert_int_eq(c->switches, 1);
    ck_assert_uint_eq(c->surf.width, 75);
    ck_assert_uint_eq(c->surf.height, 70);
    ck_assert_str_eq(display_console_info(con), "75x70 XRGB8888 "
                     "block-linear (16 GOBs high), VRAM 0x100000, pitch 320");

    /* (74, 69): last GOB column, second row of blocks */
    put_pixel(s->vram, &l, 4, 74, 69, 0x00010203);
    put_pixel(s->vram, &l, 4, 17, 64, 0x00040506);
    nv50_scanout_vblank(s, 1);
    expect_update(c, 2, 17, 64, 58, 6);
    cs = display_console_surface(con);
    ck_assert_uint_eq(cs->data[(69 * 75 + 74) * 4 + 2], 0x01);
    ck_assert_uint_eq(cs->data[(69 * 75 + 74) * 4 + 0], 0x03);
    ck_assert_uint_eq(cs->data[(64 * 75 + 17) * 4 + 1], 0x05);
    nv50_scanout_set_console(s, 1, NULL);
    display_console_free(con);
    card_free(s);
}
END_TEST

/* A guest mistake is logged once, not at every vblank. */
START_TEST(console_error_logged_once)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head0");
    Capture *c = capture(con);
    FILE *log = tmpfile();
    char buf[1024];
    size_t n;
    const char *p;
    int count = 0;

    gemu_loglevel = LOG_GUEST_ERROR;
    gemu_log_set_file(log);
    nv50_scanout_set_console(s, 0, con);
    fill(s);
    arm_core(s, SURF, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    nv50_scanout_vblank(s, 0);
    ck_assert(c->has_surface);
    arm_core(s, 0xffff00, W, H, 1u << 20 | (PITCH >> 8) << 8, 0xcf);
    for (int i = 0; i < 5; i++) {
        nv50_scanout_vblank(s, 0);
    }
    ck_assert(!c->has_surface);
    ck_assert_int_eq(c->switches, 2);
    ck_assert_ptr_nonnull(strstr(display_console_info(con), "beyond VRAM"));
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    rewind(log);
    n = fread(buf, 1, sizeof(buf) - 1, log);
    buf[n] = 0;
    fclose(log);
    for (p = buf; (p = strstr(p, "beyond VRAM")); p++) {
        count++;
    }
    ck_assert_msg(count == 1, "logged %d times:\n%s", count, buf);
    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    card_free(s);
}
END_TEST

/*
 * The cursor on a card: head 0 shows a CW x CH XRGB8888 surface; the
 * cursor's control, offset and context DMA are armed in the core (cl827d
 * 0x880/0x884/0x89c) and its position in cursor channel 7 (cl507a 0x84),
 * as head827d_curs_set and curs507a_point leave them.  The test cursor
 * is opaque or fully transparent, so the expected frame is a plain
 * choice between the surface's and the cursor's pixel, read from VRAM
 * by this file's own address arithmetic.
 */
#define CW          128
#define CH          96
#define CPITCH      512
#define CURSOR      0x300000u
#define CURS(m)     (s->pdisp->chan[NV50_EVO_CURS(0)].armed[(m) >> 2])
#define CTL_ON      (1u << 31)
#define CTL_64      (1u << 26)
#define CTL_ARGB    (1u << 24)

static uint32_t big_pattern(uint32_t x, uint32_t y)
{
    return 0x5a000000u | (x * 2) << 16 | (y * 2) << 8 | ((x + y) & 0xff);
}

/* Cursor pixel (i, j): a checkerboard of opaque and transparent. */
static uint32_t curs_pixel(uint32_t i, uint32_t j)
{
    return ((i / 4 + j / 4) & 1) ? 0x00ffffffu :
           0xff000000u | (0xc0 + i) << 16 | (0x40 + j) << 8 | 0x0f;
}

static void big_card_setup(NV50State *s, uint32_t n)
{
    for (uint32_t y = 0; y < CH; y++) {
        for (uint32_t x = 0; x < CW; x++) {
            nv50_vram_wr32(s, SURF + y * CPITCH + x * 4, big_pattern(x, y));
        }
    }
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t i = 0; i < n; i++) {
            nv50_vram_wr32(s, CURSOR + (j * n + i) * 4, curs_pixel(i, j));
        }
    }
    arm_core(s, SURF, CW, CH, 1u << 20 | (CPITCH >> 8) << 8, 0xcf);
}

static void arm_cursor(NV50State *s, uint32_t ctl, int x, int y)
{
    CORE(0x880) = ctl;
    CORE(0x884) = CURSOR >> 8;
    CORE(0x89c) = 0xf0000001;
    CURS(0x84) = (uint16_t)x | (uint32_t)(uint16_t)y << 16;
}

/* @img (BGRX, CW wide) is the surface with a size @n cursor at (cx, cy) */
static void expect_frame(NV50State *s, const uint8_t *img, bool on,
                         uint32_t n, int cx, int cy)
{
    for (int y = 0; y < CH; y++) {
        for (int x = 0; x < CW; x++) {
            uint32_t v = nv50_vram_rd32(s, SURF + y * CPITCH + x * 4);
            const uint8_t *p = img + (y * CW + x) * 4;
            int i = x - cx, j = y - cy;

            if (on && i >= 0 && i < (int)n && j >= 0 && j < (int)n) {
                uint32_t c = nv50_vram_rd32(s, CURSOR + (j * n + i) * 4);

                if (c >> 24) {
                    v = c;
                }
            }
            if (p[0] != (v & 0xff) || p[1] != ((v >> 8) & 0xff) ||
                p[2] != ((v >> 16) & 0xff)) {
                ck_abort_msg("(%d, %d) = %02x%02x%02x, want %06x (cursor "
                             "%s at %d, %d)", x, y, p[2], p[1], p[0],
                             v & 0xffffff, on ? "on" : "off", cx, cy);
            }
        }
    }
}

static int count_in_log(FILE *log, const char *what)
{
    g_autofree char *buf = g_malloc0(8192);
    const char *p;
    size_t n;
    int count = 0;

    fflush(log);
    rewind(log);
    n = fread(buf, 1, 8191, log);
    buf[n] = 0;
    for (p = buf; (p = strstr(p, what)); p++) {
        count++;
    }
    return count;
}

START_TEST(scanout_cursor_armed)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;
    FILE *log = tmpfile();

    gemu_loglevel = LOG_GUEST_ERROR;
    gemu_log_set_file(log);
    big_card_setup(s, 32);
    /* armed but disabled (head827d_curs_clr): the surface alone */
    arm_cursor(s, CTL_ARGB | CTL_64, 10, 20);
    CORE(0x89c) = 0;
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    expect_frame(s, surf.data, false, 32, 0, 0);

    /* head827d_curs_set: 32x32 A8R8G8B8, ALPHA_BLEND, hot spot 0 */
    arm_cursor(s, CTL_ON | CTL_ARGB, 10, 20);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 32, 10, 20);
    /* POINT_OUT is where the hot spot goes */
    arm_cursor(s, CTL_ON | CTL_ARGB | 3 << 8 | 5 << 16, 10, 20);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 32, 7, 15);
    /* negative, 16-bit: partly off the top left */
    arm_cursor(s, CTL_ON | CTL_ARGB, -10, -5);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 32, -10, -5);
    /* and the bottom right */
    arm_cursor(s, CTL_ON | CTL_ARGB, CW - 7, CH - 30);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 32, CW - 7, CH - 30);
    /* 64x64 */
    big_card_setup(s, 64);
    arm_cursor(s, CTL_ON | CTL_ARGB | CTL_64, 40, 30);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 64, 40, 30);
    ck_assert_int_eq(count_in_log(log, "cursor"), 0);

    /* bad cursors: the surface is shown, the cursor is not, logged once */
    /* OFFSET is relative to the context DMA's start */
    bind(s, 0, 0xf0000003, 0x1080, CURSOR - 0x100000, 0x200000);
    CORE(0x89c) = 0xf0000003;
    CORE(0x884) = 0x100000 >> 8;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 64, 40, 30);
    bind(s, 0, 0xf0000002, 0x1060, CURSOR, 0x1000);  /* 4 KiB: too small */
    CORE(0x89c) = 0xf0000002;
    CORE(0x884) = 0;
    for (int i = 0; i < 3; i++) {
        ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
        expect_frame(s, surf.data, false, 64, 0, 0);
    }
    ck_assert_int_eq(count_in_log(log, "64x64 cursor at 0x300000 runs past "
                                  "its context DMA (limit 0x300fff)"), 1);
    CORE(0x89c) = 0xf0000009;                       /* not bound */
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, false, 64, 0, 0);
    ck_assert_int_eq(count_in_log(log, "cursor context DMA 0xf0000009 is "
                                  "not bound"), 1);
    CORE(0x89c) = 0xf0000001;
    CORE(0x884) = ((16u << 20) - 0x2000) >> 8;      /* 8 KiB of 16 left */
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, false, 64, 0, 0);
    ck_assert_int_eq(count_in_log(log, "beyond VRAM"), 1);
    CORE(0x884) = CURSOR >> 8;
    CORE(0x880) = CTL_ON | CTL_ARGB | 3u << 28;     /* reserved blend */
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, false, 64, 0, 0);
    ck_assert_int_eq(count_in_log(log, "composition 3"), 1);
    /* good again */
    CORE(0x880) = CTL_ON | CTL_ARGB | CTL_64;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_frame(s, surf.data, true, 64, 40, 30);
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    fclose(log);
    card_free(s);
}
END_TEST

/* What the console is told when the cursor moves, shows, hides, changes. */
START_TEST(console_cursor_dirty)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head0");
    Capture *c = capture(con);
    const DisplaySurface *cs;

    big_card_setup(s, 32);
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 1, 0, 0, CW, CH);
    ck_assert_uint_eq(c->frames, 1);
    cs = display_console_surface(con);

    /* shown: its rectangle */
    arm_cursor(s, CTL_ON | CTL_ARGB, 10, 20);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 2, 10, 20, 32, 32);
    ck_assert_uint_eq(c->frames, 2);
    expect_frame(s, cs->data, true, 32, 10, 20);
    nv50_scanout_vblank(s, 0);                  /* standing still */
    ck_assert_int_eq(c->updates, 2);
    ck_assert_uint_eq(c->frames, 2);

    /* moved: where it was and where it is */
    arm_cursor(s, CTL_ON | CTL_ARGB, 50, 40);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 3, 10, 20, 72, 52);
    ck_assert_uint_eq(c->frames, 3);
    expect_frame(s, cs->data, true, 32, 50, 40);

    /* its image changes in VRAM (transparent -> opaque) */
    nv50_vram_wr32(s, CURSOR + (5 * 32 + 4) * 4, 0xff010203);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 4, 50, 40, 32, 32);
    expect_frame(s, cs->data, true, 32, 50, 40);

    /* the surface changes under it (a transparent and an opaque pixel) */
    nv50_vram_wr32(s, SURF + 44 * CPITCH + 58 * 4, 0x00abcdef);
    nv50_vram_wr32(s, SURF + 41 * CPITCH + 51 * 4, 0x00fedcba);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 5, 50, 40, 32, 32);
    ck_assert_uint_eq(cs->data[(44 * CW + 58) * 4 + 2], 0xab);
    expect_frame(s, cs->data, true, 32, 50, 40);
    /* and beside it: the bounding box of both */
    nv50_vram_wr32(s, SURF + 90 * CPITCH + 100 * 4, 0x00111111);
    nv50_vram_wr32(s, SURF + 50 * CPITCH + 60 * 4, 0x00222222);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 6, 50, 40, 51, 51);
    expect_frame(s, cs->data, true, 32, 50, 40);
    /* away from it: the cursor is left alone */
    nv50_vram_wr32(s, SURF + 2 * CPITCH + 3 * 4, 0x00333333);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 7, 3, 2, 1, 1);
    expect_frame(s, cs->data, true, 32, 50, 40);

    /* partly off the bottom left, through a hot spot */
    arm_cursor(s, CTL_ON | CTL_ARGB | 8 << 8 | 2 << 16, 0, CH - 6);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 8, 0, 40, 82, CH - 40);
    expect_frame(s, cs->data, true, 32, -8, CH - 8);

    /* wholly off-screen: it goes */
    arm_cursor(s, CTL_ON | CTL_ARGB, CW, 0);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 9, 0, CH - 8, 24, 8);
    expect_frame(s, cs->data, false, 32, 0, 0);
    nv50_scanout_vblank(s, 0);
    ck_assert_int_eq(c->updates, 9);

    /* back, then hidden (head827d_curs_clr) */
    arm_cursor(s, CTL_ON | CTL_ARGB, 20, 30);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 10, 20, 30, 32, 32);
    expect_frame(s, cs->data, true, 32, 20, 30);
    CORE(0x880) = CTL_ARGB | CTL_64;
    CORE(0x89c) = 0;
    nv50_scanout_vblank(s, 0);
    expect_update(c, 11, 20, 30, 32, 32);
    ck_assert_uint_eq(c->frames, 11);
    expect_frame(s, cs->data, false, 32, 0, 0);
    nv50_scanout_vblank(s, 0);
    ck_assert_uint_eq(c->frames, 11);

    /* a new surface (set_console again) draws the cursor with it */
    arm_cursor(s, CTL_ON | CTL_ARGB, 100, 70);
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 12, 0, 0, CW, CH);
    cs = display_console_surface(con);
    expect_frame(s, cs->data, true, 32, 100, 70);

    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    card_free(s);
}
END_TEST

/*
 * The overlay on a card: head 0 shows the CW x CH surface above; overlay
 * channel 3 holds what ovly827e_image_set/ovly507e_scale_set arm (ISO
 * ctxdma, OPAQUE_SUSPEND_BASE, a 40x30 XRGB8888 pitch-linear surface,
 * POINT_IN 0, SIZE_IN = SIZE_OUT = the surface) and overlay-immediate
 * channel 5 its POINT_OUT (curs507a_point's 0x84 through oimm507b).
 */
#define OVSURF      0x400000u
#define OVW         40
#define OVH         30
#define OVLY(m)     (s->pdisp->chan[NV50_EVO_OVLY(0)].armed[(m) >> 2])
#define OIMM(m)     (s->pdisp->chan[NV50_EVO_OIMM(0)].armed[(m) >> 2])

static void overlay_setup(NV50State *s)
{
    for (uint32_t y = 0; y < OVH; y++) {
        for (uint32_t x = 0; x < OVW; x++) {
            nv50_vram_wr32(s, OVSURF + y * 256 + x * 4, ov_pattern(x, y));
        }
    }
    bind(s, 3, 0xfb000000, 0x10c0, 0, 16 << 20);
}

static void arm_overlay(NV50State *s, int x, int y)
{
    OVLY(0x084) = 0x10;
    OVLY(0x0c0) = 0xfb000000;
    OVLY(0x100) = 2;                            /* OPAQUE_SUSPEND_BASE */
    OVLY(0x800) = OVSURF >> 8;
    OVLY(0x808) = OVW | OVH << 16;
    OVLY(0x80c) = 1u << 20 | 1u << 8;           /* pitch 256 */
    OVLY(0x810) = 0xcf << 8;                    /* A8R8G8B8, RGB */
    OVLY(0x0e0) = 0;
    OVLY(0x0e4) = OVW | OVH << 16;
    OVLY(0x0e8) = OVW;
    OIMM(0x084) = (uint16_t)x | (uint32_t)(uint16_t)y << 16;
}

/* @img is the surface, the overlay at (ox, oy), the cursor at (cx, cy) */
static void expect_layers(NV50State *s, const uint8_t *img, bool ovly,
                          int ox, int oy, bool curs, int cx, int cy)
{
    for (int y = 0; y < CH; y++) {
        for (int x = 0; x < CW; x++) {
            uint32_t v = nv50_vram_rd32(s, SURF + y * CPITCH + x * 4);
            const uint8_t *p = img + (y * CW + x) * 4;
            int i = x - ox, j = y - oy;

            if (ovly && i >= 0 && i < OVW && j >= 0 && j < OVH) {
                v = nv50_vram_rd32(s, OVSURF + j * 256 + i * 4);
            }
            i = x - cx;
            j = y - cy;
            if (curs && i >= 0 && i < 32 && j >= 0 && j < 32) {
                uint32_t c = nv50_vram_rd32(s, CURSOR + (j * 32 + i) * 4);

                if (c >> 24) {
                    v = c;
                }
            }
            if (p[0] != (v & 0xff) || p[1] != ((v >> 8) & 0xff) ||
                p[2] != ((v >> 16) & 0xff)) {
                ck_abort_msg("(%d, %d) = %02x%02x%02x, want %06x (overlay "
                             "%s at %d, %d; cursor %s at %d, %d)", x, y,
                             p[2], p[1], p[0], v & 0xffffff,
                             ovly ? "on" : "off", ox, oy,
                             curs ? "on" : "off", cx, cy);
            }
        }
    }
}

START_TEST(scanout_overlay_armed)
{
    NV50State *s = card();
    DisplaySurface surf;
    g_autofree char *err = NULL;
    FILE *log = tmpfile();

    gemu_loglevel = LOG_GUEST_ERROR | LOG_UNIMP;
    gemu_log_set_file(log);
    big_card_setup(s, 32);
    overlay_setup(s);
    /* armed methods but no ISO ctxdma (base507c_image_clr): not shown */
    arm_overlay(s, 10, 20);
    OVLY(0x0c0) = 0;
    ck_assert_msg(nv50_scanout_surface(s, 0, &surf, &err), "%s", err);
    expect_layers(s, surf.data, false, 0, 0, false, 0, 0);

    arm_overlay(s, 10, 20);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, 10, 20, false, 0, 0);
    /* the cursor goes on top of it */
    arm_cursor(s, CTL_ON | CTL_ARGB, 30, 35);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, 10, 20, true, 30, 35);
    CORE(0x880) = 0;
    /* clipped at the edges; POINT_OUT is 16-bit signed */
    arm_overlay(s, -10, -5);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, -10, -5, false, 0, 0);
    arm_overlay(s, CW - 7, CH - 3);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, CW - 7, CH - 3, false, 0, 0);
    /* the OFFSET is within the ctxdma */
    bind(s, 3, 0xfb000001, 0x10e0, OVSURF - 0x1000, 0x100000);
    arm_overlay(s, 3, 4);
    OVLY(0x0c0) = 0xfb000001;
    OVLY(0x800) = 0x1000 >> 8;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, 3, 4, false, 0, 0);
    ck_assert_int_eq(count_in_log(log, "overlay"), 0);

    /* bad overlays: logged once, not drawn, the surface still shown */
    OVLY(0x800) = (0x100000 - 0x1000) >> 8;     /* past the ctxdma */
    for (int i = 0; i < 3; i++) {
        ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
        expect_layers(s, surf.data, false, 0, 0, false, 0, 0);
    }
    ck_assert_int_eq(count_in_log(log, "40x30 overlay at 0x4fe000 runs "
                                  "past its context DMA (limit "
                                  "0x4fefff)"), 1);
    arm_overlay(s, 3, 4);
    OVLY(0x0c0) = 0xfb000009;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, false, 0, 0, false, 0, 0);
    ck_assert_int_eq(count_in_log(log, "overlay ISO context DMA "
                                  "0xfb000009 is not bound"), 1);
    arm_overlay(s, 3, 4);
    OVLY(0x810) = NV50_OVLY_YUYV << 8 | 1;      /* YUV_601, as nouveau */
    OVLY(0x808) = 39 | OVH << 16;
    OVLY(0x0e4) = 39 | OVH << 16;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, false, 0, 0, false, 0, 0);
    ck_assert_int_eq(count_in_log(log, "YUV overlay of odd width 39"), 1);
    arm_overlay(s, 3, 4);
    OVLY(0x0e0) = 1 | 1 << 16;                  /* source past the edge */
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, false, 0, 0, false, 0, 0);
    ck_assert_int_eq(count_in_log(log, "not within its 40x30 surface"), 1);
    arm_overlay(s, 3, 4);
    OVLY(0x810) = NV50_SURFACE_I8 << 8;
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, false, 0, 0, false, 0, 0);
    ck_assert_int_eq(count_in_log(log, "not an overlay format"), 1);
    /* good again */
    arm_overlay(s, 3, 4);
    ck_assert(nv50_scanout_surface(s, 0, &surf, &err));
    expect_layers(s, surf.data, true, 3, 4, false, 0, 0);
    gemu_log_set_file(NULL);
    gemu_loglevel = 0;
    fclose(log);
    card_free(s);
}
END_TEST

/* What the console is told when the overlay shows, moves, changes, goes. */
START_TEST(console_overlay_dirty)
{
    NV50State *s = card();
    DisplayConsole *con = display_console_new("head0");
    Capture *c = capture(con);
    const DisplaySurface *cs;

    big_card_setup(s, 32);
    overlay_setup(s);
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 1, 0, 0, CW, CH);
    cs = display_console_surface(con);

    /* shown: its rectangle */
    arm_overlay(s, 10, 20);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 2, 10, 20, OVW, OVH);
    ck_assert_uint_eq(c->frames, 2);
    expect_layers(s, cs->data, true, 10, 20, false, 0, 0);
    nv50_scanout_vblank(s, 0);                  /* standing still */
    ck_assert_int_eq(c->updates, 2);
    ck_assert_uint_eq(c->frames, 2);

    /* moved: where it was and where it is */
    arm_overlay(s, 50, 40);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 3, 10, 20, 80, 50);
    ck_assert_uint_eq(c->frames, 3);
    expect_layers(s, cs->data, true, 50, 40, false, 0, 0);

    /* its image changes in VRAM */
    nv50_vram_wr32(s, OVSURF + 4 * 256 + 3 * 4, 0x00010203);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 4, 50, 40, OVW, OVH);
    expect_layers(s, cs->data, true, 50, 40, false, 0, 0);

    /* the surface changes under it: still covered */
    nv50_vram_wr32(s, SURF + 45 * CPITCH + 60 * 4, 0x00abcdef);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 5, 50, 40, OVW, OVH);
    expect_layers(s, cs->data, true, 50, 40, false, 0, 0);

    /* the cursor over it, then away: the overlay shows where it was */
    arm_cursor(s, CTL_ON | CTL_ARGB, 60, 45);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 6, 60, 45, 32, 32);
    expect_layers(s, cs->data, true, 50, 40, true, 60, 45);
    arm_cursor(s, CTL_ON | CTL_ARGB, 0, 0);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 7, 0, 0, 92, 77);
    expect_layers(s, cs->data, true, 50, 40, true, 0, 0);
    /* the overlay moves under the cursor: redrawn on top of both */
    arm_overlay(s, 5, 6);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 8, 0, 0, 90, 70);
    expect_layers(s, cs->data, true, 5, 6, true, 0, 0);
    CORE(0x880) = 0;
    nv50_scanout_vblank(s, 0);
    expect_update(c, 9, 0, 0, 32, 32);
    expect_layers(s, cs->data, true, 5, 6, false, 0, 0);

    /* partly off the bottom right */
    arm_overlay(s, CW - 10, CH - 12);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 10, 5, 6, CW - 5, CH - 6);
    expect_layers(s, cs->data, true, CW - 10, CH - 12, false, 0, 0);

    /* hidden (base507c_image_clr): where it was */
    OVLY(0x0c0) = 0;
    nv50_scanout_vblank(s, 0);
    expect_update(c, 11, CW - 10, CH - 12, 10, 12);
    ck_assert_uint_eq(c->frames, 11);
    expect_layers(s, cs->data, false, 0, 0, false, 0, 0);
    nv50_scanout_vblank(s, 0);
    ck_assert_uint_eq(c->frames, 11);

    /* a new surface (set_console again) draws the overlay with it */
    arm_overlay(s, 20, 30);
    nv50_scanout_set_console(s, 0, con);
    nv50_scanout_vblank(s, 0);
    expect_update(c, 12, 0, 0, CW, CH);
    cs = display_console_surface(con);
    expect_layers(s, cs->data, true, 20, 30, false, 0, 0);

    nv50_scanout_set_console(s, 0, NULL);
    display_console_free(con);
    card_free(s);
}
END_TEST

Suite *hw_scanout_suite(void)
{
    Suite *s = suite_create("hw-scanout");
    TCase *tc = tcase_create("convert");

    tcase_add_test(tc, formats_pitch_linear);
    tcase_add_test(tc, formats_block_linear);
    tcase_add_test(tc, block_linear_addresses);
    tcase_add_test(tc, lut_on_direct_colour);
    tcase_add_test(tc, lut_hires_interpolates_10bit);
    tcase_add_test(tc, lut_read_layout);
    tcase_add_test(tc, surface_beyond_vram);
    tcase_add_test(tc, bad_descriptions);
    tcase_add_test(tc, cursor_blend_math);
    tcase_add_test(tc, cursor_clipping);
    tcase_add_test(tc, cursor_sizes_packed_rows);
    tcase_add_test(tc, cursor_bad_descriptions);
    tcase_add_test(tc, overlay_opaque_clipping);
    tcase_add_test(tc, overlay_scaling_nearest);
    tcase_add_test(tc, overlay_formats);
    tcase_add_test(tc, overlay_colour_keys);
    tcase_add_test(tc, overlay_yuv);
    tcase_add_test(tc, overlay_bad_descriptions);
    suite_add_tcase(s, tc);

    tc = tcase_create("card");
    tcase_add_test(tc, scanout_dump_png);
    tcase_add_test(tc, scanout_rejects);
    tcase_add_test(tc, scanout_prefers_base_image);
    tcase_add_test(tc, scanout_i8_core_lut);
    tcase_add_test(tc, scanout_context_dmas);
    tcase_add_test(tc, console_dirty_rectangles);
    tcase_add_test(tc, console_block_linear);
    tcase_add_test(tc, console_error_logged_once);
    tcase_add_test(tc, scanout_cursor_armed);
    tcase_add_test(tc, console_cursor_dirty);
    tcase_add_test(tc, scanout_overlay_armed);
    tcase_add_test(tc, console_overlay_dirty);
    suite_add_tcase(s, tc);
    return s;
}
