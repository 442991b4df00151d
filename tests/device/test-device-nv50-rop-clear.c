/*
 * The 3D ROP's CLEAR_BUFFERS (hw/nv50/gr/rop-clear.c, rop-mem.c's
 * nv50_rop_fill_rect) on block-linear and pitch surfaces, every byte
 * of the surface and the memory around it checked against a plain C
 * model: an element of the rectangle takes the clear's bytes under its
 * mask, everything else keeps its bytes.  Random cases: odd sizes,
 * block widths 1..2 GOBs and heights 1..32 GOBs, 3D slices, screen
 * scissors and SCISSOR[0], 4x multisampling, colour formats of 1, 2, 4,
 * 8 and 16 bytes with partial channels, Z24_S8, S8_Z24, Z32_FLOAT and
 * Z32_S8_X24 with Z, S and the stencil write mask.  What fills whole
 * blocks and what fills rows must not show.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/surface.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/gr/msaa.h"
#include <math.h>

#define SUBC_3D     7
#define H_3D        0xbeef3097u
#define INTR        0x400100

#define SURF_VA     (GR_VA_DATA + 0x100000)
#define GUARD       4096        /* bytes checked either side */
#define MAX_SPAN    (4u << 20)

static void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_3D, mthd, data);
}

static void setup(void)
{
    gr_rig_init();
    gr_bind(SUBC_3D, gr_object(0x8297, H_3D));
    m(0x0184, GR_DMA_VM);                       /* DMA_ZETA */
    m(0x01c0, GR_DMA_VM);                       /* DMA_COLOR(0) */
    m(0x0fbc, 0xffff);                          /* MSAA_MASK */
}

/* A colour format of unsigned integer channels (CLEAR_COLOR's bits). */
typedef struct CFmt {
    uint32_t id;
    unsigned bpp, nch, bits;    /* channels of @bits from bit 0: R G B A */
} CFmt;

static const CFmt cfmts[] = {
    { 0xf6, 1, 1, 8 },          /* R8_UINT */
    { 0xf1, 2, 1, 16 },         /* R16_UINT */
    { 0xd9, 4, 4, 8 },          /* RGBA8_UINT */
    { 0xe4, 4, 1, 32 },         /* R32_UINT */
    { 0xcd, 8, 2, 32 },         /* RG32_UINT */
    { 0xc9, 8, 4, 16 },         /* RGBA16_UINT */
    { 0xc2, 16, 4, 32 },        /* RGBA32_UINT */
};

/* A zeta format: Z of @zbits (32: float) at bit @zshift, stencil byte. */
typedef struct ZFmt {
    uint32_t id;
    unsigned bpp, zbits, zshift;
    int sbyte;
} ZFmt;

static const ZFmt zfmts[] = {
    { 0x16, 4, 24, 0, 3 },      /* Z24_S8 */
    { 0x14, 4, 24, 8, 0 },      /* S8_Z24 */
    { 0x0a, 4, 32, 0, -1 },     /* Z32_FLOAT */
    { 0x19, 8, 32, 0, 4 },      /* Z32_S8_X24 */
};

typedef struct Case {
    bool zeta, pitch;
    unsigned fmt;               /* into cfmts or zfmts */
    unsigned ms;                /* MULTISAMPLE_MODE: 0 or 2 (2x2) */
    uint32_t w, h;              /* pixels */
    uint32_t tile;              /* BLOCK_DIMENSIONS */
    uint32_t layers, layer;     /* 3D: slices and the one cleared */
    uint32_t rect[4];           /* x0, x1, y0, y1 in pixels */
    bool by_scissor;            /* SCISSOR[0], else the screen scissor */
    uint32_t chans;             /* CLEAR_BUFFERS' low 6 bits */
    uint32_t smask;             /* the stencil write mask, or 0xff */
} Case;

/* CLEAR_COLOR: integer channels' bits, within every channel's range */
static const uint32_t clear_colour[4] = { 0x5a, 0xc3, 0x96, 0x3c };

/* The element bytes and mask the case's clear writes. */
static void case_value(const Case *c, uint8_t *val, uint8_t *msk,
                       unsigned *bpp)
{
    memset(val, 0, 16);
    memset(msk, 0, 16);
    if (!c->zeta) {
        const CFmt *f = &cfmts[c->fmt];

        for (unsigned ch = 0; ch < f->nch; ch++) {
            unsigned nb = f->bits / 8;

            for (unsigned b = 0; b < nb; b++) {
                val[ch * nb + b] = b ? 0 : clear_colour[ch];
                msk[ch * nb + b] = (c->chans >> (2 + ch)) & 1 ? 0xff : 0;
            }
        }
        *bpp = f->bpp;
    } else {
        const ZFmt *z = &zfmts[c->fmt];
        uint32_t zv = z->zbits == 32 ? 0x3e800000u /* 0.25f */
                                     : (uint32_t)floor(0.25 * 0xffffff + 0.5);
        uint32_t zm = z->zbits == 32 ? 0xffffffffu : 0xffffffu;

        for (unsigned b = 0; b < 4 && (c->chans & 1); b++) {
            val[b] = (zv << z->zshift) >> (8 * b);
            msk[b] = (zm << z->zshift) >> (8 * b);
        }
        if (z->sbyte >= 0 && (c->chans & 2)) {
            val[z->sbyte] = 0xa7;
            msk[z->sbyte] = c->smask;
        }
        *bpp = z->bpp;
    }
}

static NV50Surface case_surface(const Case *c, unsigned bpp)
{
    unsigned sx = c->ms ? 1 : 0;
    NV50Surface sf = {
        .block_linear = !c->pitch,
        .width_bytes = (c->w << sx) * bpp, .height = c->h << sx,
        .depth = c->layers,
        .block_w = c->tile & 0xf, .block_h = (c->tile >> 4) & 0xf,
        .block_d = (c->tile >> 8) & 0xf,
    };

    /* pitch: RT_HORIZ's pitch makes the width, so no padding */
    sf.pitch = sf.width_bytes;
    return sf;
}

/* The case's surface and clear through the 3D object's methods. */
static void case_methods(const Case *c, const NV50Surface *sf)
{
    uint32_t ws = c->w << (c->ms ? 1 : 0), hs = c->h << (c->ms ? 1 : 0);
    const uint32_t *rc = c->rect;

    m(NV50_3D_MULTISAMPLE_MODE, c->ms);
    if (c->zeta) {
        m(0x121c, 0);                           /* RT_CONTROL: none */
        m(0x0fe0, (uint32_t)(SURF_VA >> 32));   /* ZETA_ADDRESS_HIGH */
        m(0x0fe4, (uint32_t)SURF_VA);
        m(0x0fe8, zfmts[c->fmt].id);
        m(0x0fec, c->tile);
        m(0x0ff0, 0);
        m(0x1538, 1);                           /* ZETA_ENABLE */
        m(0x1228, ws);
        m(0x122c, hs);
        m(0x1230, 1);                           /* ZETA_ARRAY_MODE */
    } else {
        m(0x1538, 0);
        m(0x121c, (076543210 << 4) | 1);
        m(0x0200, (uint32_t)(SURF_VA >> 32));   /* RT_ADDRESS_HIGH(0) */
        m(0x0204, (uint32_t)SURF_VA);
        m(0x0208, cfmts[c->fmt].id);
        m(0x020c, c->pitch ? 0 : c->tile);
        m(0x0210, 0);
        m(0x1240, c->pitch ? 0x80000000u | sf->pitch : ws);  /* RT_HORIZ */
        m(0x1244, hs);
        /* RT_ARRAY_MODE: a 3D surface's slices */
        m(0x1224, c->layers > 1 ? 0x10000 | c->layers : 1);
    }
    m(0x0c00, 8192u << 16);                     /* VIEWPORT_HORIZ(0) */
    m(0x0c04, 8192u << 16);
    if (c->by_scissor) {
        m(0x143c, c->smask != 0xff);            /* CLEAR_FLAGS: SCISSOR */
        m(0x0ff4, 0);                           /* SCREEN_SCISSOR: none */
        m(0x0ff8, 0);
        m(0x0e00, 1);                           /* SCISSOR_ENABLE(0) */
        m(0x0e04, rc[0] | rc[1] << 16);
        m(0x0e08, rc[2] | rc[3] << 16);
    } else {
        m(0x143c, 0x10 | (c->smask != 0xff));   /* VIEWPORT */
        m(0x0e00, 0);
        m(0x0ff4, rc[0] | (rc[1] - rc[0]) << 16);
        m(0x0ff8, rc[2] | (rc[3] - rc[2]) << 16);
    }
    m(0x1398, c->smask);                        /* STENCIL_FRONT_MASK */
    for (unsigned i = 0; i < 4; i++) {
        m(0x0d80 + i * 4, clear_colour[i]);     /* CLEAR_COLOR: bits */
    }
    m(0x0d90, 0x3e800000u);                     /* CLEAR_DEPTH 0.25 */
    m(0x0da0, 0xa7);                            /* CLEAR_STENCIL */
}

/* Run case @c; @seed fills the memory around it. */
static void run_case(const Case *c, unsigned n, uint32_t seed)
{
    uint8_t val[16], msk[16];
    unsigned bpp, sx = c->ms ? 1 : 0;
    NV50Surface sf;
    uint64_t span, len, base = gr_va_to_vram(SURF_VA) - GUARD;
    g_autofree uint8_t *want = NULL, *got = NULL;
    GRand *rnd = g_rand_new_with_seed(seed);

    case_value(c, val, msk, &bpp);
    sf = case_surface(c, bpp);
    span = c->pitch ? (uint64_t)sf.pitch * sf.height
                    : nv50_surface_size(&sf);
    ck_assert_uint_le(span, MAX_SPAN);
    len = span + 2 * GUARD;
    want = g_malloc(len);
    got = g_malloc(len);
    for (uint64_t i = 0; i < len; i++) {
        want[i] = g_rand_int(rnd);
    }
    g_rand_free(rnd);
    ck_assert(nv50_vram_write(rig.s, base, want, len));

    case_methods(c, &sf);
    m(NV50_3D_CLEAR_BUFFERS, c->chans | c->layer << 10);
    ck_assert_uint_eq(rd32(INTR), 0);

    /* the model: the rectangle's samples, in the surface and layer */
    for (uint32_t y = MIN(c->rect[2], c->h) << sx;
         y < MIN(c->rect[3], c->h) << sx; y++) {
        for (uint32_t x = MIN(c->rect[0], c->w) << sx;
             x < MIN(c->rect[1], c->w) << sx; x++) {
            uint64_t off = GUARD + (c->pitch ? (uint64_t)y * sf.pitch +
                                               x * bpp
                                             : nv50_surface_offset(
                                                   &sf, x * bpp, y,
                                                   c->layer));

            for (unsigned b = 0; b < bpp; b++) {
                want[off + b] = (want[off + b] & ~msk[b]) |
                                (val[b] & msk[b]);
            }
        }
    }
    ck_assert(nv50_vram_read(rig.s, base, got, len));
    /* (one check a case: Check records every one it passes) */
    for (uint64_t i = 0; memcmp(got, want, len) && i < len; i++) {
        ck_assert_msg(got[i] == want[i],
                      "case %u (%s fmt %u, %ux%u ms %u tile 0x%x layer "
                      "%u/%u rect %u..%u x %u..%u%s chans 0x%x smask "
                      "0x%x): byte %" PRId64 " of the surface is 0x%02x, "
                      "not 0x%02x", n, c->zeta ? "zeta" : c->pitch ?
                      "pitch" : "colour", c->fmt, c->w, c->h, c->ms,
                      c->tile, c->layer, c->layers, c->rect[0],
                      c->rect[1], c->rect[2], c->rect[3],
                      c->by_scissor ? " scissor" : "", c->chans, c->smask,
                      (int64_t)i - GUARD, got[i], want[i]);
    }
}

/* A random case: small surfaces, and now and then a large one. */
static Case random_case(GRand *rnd)
{
    Case c = { .layers = 1, .smask = 0xff };
    unsigned bw = g_rand_int_range(rnd, 0, 2);
    unsigned bh = g_rand_int_range(rnd, 0, 6);
    unsigned bd = 0;
    bool big = g_rand_int_range(rnd, 0, 8) == 0;

    c.zeta = g_rand_int_range(rnd, 0, 3) == 0;
    c.pitch = !c.zeta && g_rand_int_range(rnd, 0, 6) == 0;
    c.fmt = g_rand_int_range(rnd, 0, c.zeta ? G_N_ELEMENTS(zfmts)
                                            : G_N_ELEMENTS(cfmts));
    c.ms = g_rand_int_range(rnd, 0, 6) == 0 ? NV50_MSAA_2X2 : 0;
    big &= !c.ms;
    /* rows of up to 2400 bytes when big, 720 else */
    c.w = g_rand_int_range(rnd, 1, (big ? 2400 : 720) /
                                   (c.zeta ? zfmts[c.fmt].bpp
                                           : cfmts[c.fmt].bpp) + 1);
    c.h = g_rand_int_range(rnd, 1, big ? 300 : 150);
    if (!c.zeta && !c.pitch && !c.ms && g_rand_int_range(rnd, 0, 5) == 0) {
        bd = g_rand_int_range(rnd, 1, 3);
        c.layers = g_rand_int_range(rnd, 2, 6);
        c.layer = g_rand_int_range(rnd, 0, c.layers);
    }
    c.tile = bw | bh << 4 | bd << 8;
    /* a rectangle partly outside the surface now and then */
    c.rect[0] = g_rand_int_range(rnd, 0, c.w);
    c.rect[1] = g_rand_int_range(rnd, c.rect[0] + 1, c.w + 20);
    c.rect[2] = g_rand_int_range(rnd, 0, c.h);
    c.rect[3] = g_rand_int_range(rnd, c.rect[2] + 1, c.h + 20);
    if (g_rand_int_range(rnd, 0, 3) == 0) {
        /* the whole surface */
        c.rect[0] = c.rect[2] = 0;
        c.rect[1] = c.w;
        c.rect[3] = c.h;
    }
    c.by_scissor = g_rand_boolean(rnd);
    if (c.zeta) {
        c.chans = g_rand_int_range(rnd, 1, 4);  /* Z, S or both */
        if (g_rand_boolean(rnd)) {
            c.smask = g_rand_int_range(rnd, 0, 0xff);
        }
    } else {
        /* all four channels most of the time, else some */
        c.chans = g_rand_boolean(rnd) ? 0x3c
                                      : g_rand_int_range(rnd, 1, 16) << 2;
    }
    return c;
}

START_TEST(test_rop_clear_random)
{
    GRand *rnd = g_rand_new_with_seed(0x5eed0c1e);

    for (unsigned n = 0; n < 400; n++) {
        Case c = random_case(rnd);

        run_case(&c, n, g_rand_int(rnd));
    }
    g_rand_free(rnd);
}
END_TEST

/*
 * The shapes whose edges decide between blocks and rows: every block
 * height, a rectangle a sample short of a block's edge on each side,
 * exactly a block's, and a block plus a sample; 16-bit, 32-bit and
 * 64-bit elements, Z24_S8 and S8_Z24 with both Z and S (a plain fill)
 * and Z alone (masked).
 */
START_TEST(test_rop_clear_block_edges)
{
    static const struct {
        bool zeta;
        unsigned fmt, chans;
    } kinds[] = {
        { false, 1, 0x3c }, { false, 3, 0x3c }, { false, 4, 0x3c },
        { true, 0, 3 }, { true, 1, 3 }, { true, 0, 1 },
    };
    unsigned n = 0;

    for (unsigned k = 0; k < G_N_ELEMENTS(kinds); k++) {
        for (unsigned bh = 0; bh <= 5; bh++) {
            for (int d = -1; d <= 1; d++) {
                unsigned bpp = kinds[k].zeta ? 4 : cfmts[kinds[k].fmt].bpp;
                uint32_t bw_el = NV50_GOB_WIDTH / bpp;
                uint32_t bh_rows = NV50_GOB_HEIGHT << bh;
                Case c = {
                    .zeta = kinds[k].zeta, .fmt = kinds[k].fmt,
                    .chans = kinds[k].chans, .smask = 0xff, .layers = 1,
                    .w = 5 * bw_el + 3, .h = 3 * bh_rows + 1,
                    .tile = bh << 4,
                };

                /* block column 1, block row 1, grown or shrunk by d */
                c.rect[0] = bw_el - d;
                c.rect[1] = 4 * bw_el + d;
                c.rect[2] = bh_rows - d;
                c.rect[3] = 2 * bh_rows + d;
                run_case(&c, n++, k * 100 + bh * 10 + d + 1);
            }
        }
    }
}
END_TEST

Suite *nv50_rop_clear_suite(void)
{
    Suite *su = suite_create("nv50_rop_clear");
    TCase *tc = tcase_create("rop_clear");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rop_clear_random);
    tcase_add_test(tc, test_rop_clear_block_edges);
    suite_add_tcase(su, tc);
    return su;
}
