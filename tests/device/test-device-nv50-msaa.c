/*
 * Multisampling on the G84 (hw/nv50/gr/msaa.c with the ROP, the back
 * end and the texture unit), on a channel's PGRAPH context with
 * hand-made primitives as in the nv50_fp suite, each checked sample by
 * sample against a plain C reference:
 *
 *  - a triangle's edges on 2x, 4x and 8x surfaces cover the samples
 *    at Mesa's positions (nv50_context_get_sample_position) by the
 *    top-left rule, stored where nv50_miptree.c's ms_x/ms_y put them;
 *    the FP's colour goes to every covered sample;
 *  - MSAA_MASK drops samples, and a fresh context enables them all
 *    (Mesa sends it only when GL's sample mask changes); without
 *    MULTISAMPLE_ENABLE one sample is rasterised and written to all of
 *    the pixel's;
 *  - depth per sample, at the sample's position on the plane;
 *  - ALPHA_TO_COVERAGE keeps round(alpha * samples) samples;
 *  - the resolve as Mesa's nv50_blit_3d does it (glBlitFramebuffer
 *    from a multisample FBO): the multisample surface as a 2D_NO_MIPMAP
 *    texture (1 << ms_x) x (1 << ms_y) times the pixel size, unscaled
 *    coordinates, one bilinear tex per pixel (for 8x with the TIC's
 *    header anisotropy, FILTER_MSAA8): every pixel the average of its
 *    samples.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "gemu/bitops.h"
#include "nv50-fp-rig.h"
#include "hw/nv50/surface.h"


#define W           8               /* pixels */
#define H           8
#define MS_VA       (GR_VA_DATA + 0x10000)      /* multisample RT 0 */
#define SS_VA       (GR_VA_DATA + 0x20000)      /* resolve target */
#define ZETA_VA     (GR_VA_DATA + 0x30000)
#define TXC_VA      (GR_VA_DATA + 0xa0000)      /* TIC +0, TSC +0x1000 */

/* 3D methods beyond nv50-fp-rig.h's (rnndb g80_3d.xml) */
#define MSAA_MASK(i)            (0x0fbc + (i) * 4)
#define MULTISAMPLE_ENABLE      0x1534
#define MULTISAMPLE_CTRL        0x153c
#define MULTISAMPLE_MODE        0x15d0
#define TSC_ADDRESS_HIGH        0x155c
#define TSC_ADDRESS_LOW         0x1560
#define TSC_LIMIT               0x1564
#define TIC_ADDRESS_HIGH        0x1574
#define TIC_ADDRESS_LOW         0x1578
#define TIC_LIMIT               0x157c
#define BIND_TSC(i)             (0x1444 + (i) * 8)
#define BIND_TIC(i)             (0x1448 + (i) * 8)
#define TIC_FLUSH               0x1334
#define TSC_FLUSH               0x1330

#define FMT_RGBA8_UNORM         0xd5
#define MS_CTRL_ALPHA_TO_COVERAGE 0x01u

/* Mesa 22.3 nv50_context_get_sample_position, 1/16 pixel from the corner */
static const uint8_t pos2[2][2] = { { 4, 4 }, { 12, 12 } };
static const uint8_t pos4[4][2] = {
    { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 },
};
static const uint8_t pos8[8][2] = {
    { 1, 7 }, { 5, 3 }, { 3, 13 }, { 7, 11 },
    { 9, 5 }, { 15, 1 }, { 11, 15 }, { 13, 9 },
};

/* One mode as Mesa's miptree sees it. */
typedef struct Mode {
    uint32_t mode;              /* MULTISAMPLE_MODE */
    unsigned samples, ms_x, ms_y;
    const uint8_t (*pos)[2];
    /* where sample s is stored in the pixel's block (nv50_miptree.c) */
    uint8_t sx[8], sy[8];
} Mode;

static const Mode modes[] = {
    { 1, 2, 1, 0, pos2, { 0, 1 }, { 0, 0 } },
    { 2, 4, 1, 1, pos4, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } },
    { 3, 8, 2, 1, pos8, { 0, 1, 0, 1, 2, 3, 2, 3 },
      { 0, 0, 1, 1, 0, 0, 1, 1 } },
};

/* The multisample surface: block-linear, one GOB a block. */
static NV50Surface ms_surf(const Mode *md, unsigned bpp)
{
    NV50Surface sf = {
        .block_linear = true, .width_bytes = (W << md->ms_x) * bpp,
        .height = H << md->ms_y, .depth = 1,
    };

    return sf;
}

static uint64_t ms_addr(uint64_t base, const Mode *md, unsigned bpp, int x,
                        int y, unsigned s)
{
    NV50Surface sf = ms_surf(md, bpp);

    return base + nv50_surface_offset(&sf, ((x << md->ms_x) + md->sx[s]) *
                                      bpp, (y << md->ms_y) + md->sy[s], 0);
}

static uint32_t ms_get(const Mode *md, int x, int y, unsigned s)
{
    return gr_rd32(ms_addr(MS_VA, md, 4, x, y, s));
}

static void ms_fill(const Mode *md, uint32_t v)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (unsigned s = 0; s < md->samples; s++) {
                gr_wr32(ms_addr(MS_VA, md, 4, x, y, s), v);
            }
        }
    }
}

/* colour (R, G, B, A) as RGBA8 bytes a / 255 */
static void fp_color(const uint8_t c[4])
{
    g_autofree char *src = NULL;
    float f[4];
    uint32_t u[4];

    for (unsigned k = 0; k < 4; k++) {
        f[k] = c[k] / 255.0f;
        memcpy(&u[k], &f[k], 4);
    }
    src = g_strdup_printf("mov b32 $r0 0x%08x\nmov b32 $r1 0x%08x\n"
                          "mov b32 $r2 0x%08x\nmov b32 $r3 0x%08x\n"
                          "exit nop\n", u[0], u[1], u[2], u[3]);
    fp_program(src, 4, 4, 0);
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | 4 << 8);
}

/* RT 0: the multisample surface of @md (or a plain one: NULL) */
static void ms_target(const Mode *md)
{
    m(RT_ADDRESS_HIGH(0), (uint32_t)(MS_VA >> 32));
    m(RT_ADDRESS_LOW(0), (uint32_t)MS_VA);
    m(RT_FORMAT(0), FMT_RGBA8_UNORM);
    m(RT_TILE_MODE(0), 0);
    m(RT_HORIZ(0), W << md->ms_x);
    m(RT_VERT(0), H << md->ms_y);
    m(RT_ARRAY_MODE, 1);
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(MULTISAMPLE_MODE, md->mode);
    m(MULTISAMPLE_ENABLE, 1);
}

static void setup(void)
{
    fp_rig_init();
    m(COLOR_MASK(0), 0x1111);
    m(SCREEN_SCISSOR_HORIZ, W << 16);
    m(SCREEN_SCISSOR_VERT, H << 16);
    /* MSAA_MASK left as a fresh context has it (Mesa does so) */
    memset(vtx, 0, sizeof(vtx));
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out_words = 8;
    }
    ck_assert_uint_eq(rd32(0x400100), 0);
}

static NV50PipePrim tri(const double xy[3][2], const float z[3])
{
    NV50PipePrim p = {
        .kind = NV50_PRIM_TRIANGLES, .nverts = 3, .front = true,
        .provoking = &vtx[0],
    };

    for (unsigned i = 0; i < 3; i++) {
        p.scr[i] = (RasterVert) { xy[i][0], xy[i][1], z[i], 1.0f };
        p.v[i] = &vtx[i];
    }
    return p;
}

/*
 * The reference's coverage: point (px, py) inside the triangle by the
 * top-left rule (D3D10: a point on a top or left edge is inside), for
 * either winding.  Vertices are on the 1/256 grid, points on 1/16.
 */
static bool ref_inside(const double v[3][2], double px, double py)
{
    double area = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
                  (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
    double sgn = area > 0 ? 1 : -1;

    for (unsigned i = 0; i < 3; i++) {
        const double *a = v[i], *b = v[(i + 1) % 3];
        /* edge function, positive inside for either winding */
        double e = sgn * ((b[0] - a[0]) * (py - a[1]) -
                          (b[1] - a[1]) * (px - a[0]));
        double dx = sgn * (b[0] - a[0]), dy = sgn * (b[1] - a[1]);
        /* y down, inside on the right of a -> b (clockwise on screen):
           top edge: horizontal going right; left edge: going up */
        bool top_left = (dy == 0 && dx > 0) || dy < 0;

        if (e < 0 || (e == 0 && !top_left)) {
            return false;
        }
    }
    return true;
}

static double ref_sx(const Mode *md, int x, unsigned s)
{
    return x + md->pos[s][0] / 16.0;
}

static double ref_sy(const Mode *md, int y, unsigned s)
{
    return y + md->pos[s][1] / 16.0;
}

/* An edge through a pixel's samples on each surface. */
START_TEST(test_msaa_triangle_coverage)
{
    const Mode *md = &modes[_i];
    /* on the 1/256 grid; long edges cross the pixels at many heights */
    const double v[3][2] = {
        { 0.5 + 3 / 256.0, 0.25 + 7 / 256.0 },
        { 7.75 + 5 / 256.0, 2.0 + 9 / 256.0 },
        { 2.25 + 1 / 256.0, 7.5 + 11 / 256.0 },
    };
    const float z[3] = { 0.5f, 0.5f, 0.5f };
    static const uint8_t col[4] = { 200, 96, 248, 255 };
    const uint32_t cw = col[0] | col[1] << 8 | col[2] << 16 |
                        (uint32_t)col[3] << 24;
    NV50PipePrim p;
    unsigned partial = 0, covered = 0;

    ms_target(md);
    ms_fill(md, 0x01020304);
    fp_color(col);
    p = tri(v, z);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            unsigned n = 0;

            for (unsigned s = 0; s < md->samples; s++) {
                bool in = ref_inside(v, ref_sx(md, x, s), ref_sy(md, y, s));
                uint32_t got = ms_get(md, x, y, s);

                ck_assert_msg(got == (in ? cw : 0x01020304u),
                              "%ux: pixel %d,%d sample %u is 0x%08x, want "
                              "%s", md->samples, x, y, s, got,
                              in ? "covered" : "untouched");
                n += in;
            }
            partial += n && n < md->samples;
            covered += n;
        }
    }
    /* the edges do cut pixels, so the test sees per-sample coverage */
    ck_assert_uint_gt(partial, 6);
    ck_assert_uint_gt(covered, 10 * md->samples);
}
END_TEST

/*
 * Points and lines on 4x: a point is its size's square, a line of width
 * 1 the rectangle around it (not past its ends), both by the top-left
 * rule at the sample positions; samples on a bottom edge stay out.
 */
START_TEST(test_msaa_point_line_coverage)
{
    const Mode *md = &modes[1];
    static const uint8_t col[4] = { 16, 32, 48, 64 };
    const uint32_t cw = 0x40302010u;
    /* the point's square [1.75, 4.75) x [3.625, 6.625) */
    const double pc[2] = { 3.25, 5.125 }, ps = 3.0;
    /* the line's rectangle [1.25, 6.75) x [0.875, 1.875) */
    const double l0[2] = { 1.25, 1.375 }, l1[2] = { 6.75, 1.375 };
    NV50PipePrim pt = {
        .kind = NV50_PRIM_POINTS, .nverts = 1, .front = true,
        .provoking = &vtx[0], .width = ps,
        .scr = { { pc[0], pc[1], 0.5f, 1.0f } }, .v = { &vtx[0] },
    };
    NV50PipePrim ln = {
        .kind = NV50_PRIM_LINES, .nverts = 2, .front = true,
        .provoking = &vtx[1], .width = 1.0f,
        .scr = { { l0[0], l0[1], 0.5f, 1.0f }, { l1[0], l1[1], 0.5f, 1.0f } },
        .v = { &vtx[0], &vtx[1] },
    };
    unsigned edge_out = 0;

    ms_target(md);
    ms_fill(md, 0);
    fp_color(col);
    draw(&pt);
    draw(&ln);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (unsigned s = 0; s < 4; s++) {
                double sx = ref_sx(md, x, s), sy = ref_sy(md, y, s);
                bool in_pt = sx >= pc[0] - ps / 2 && sx < pc[0] + ps / 2 &&
                             sy >= pc[1] - ps / 2 && sy < pc[1] + ps / 2;
                bool in_ln = sx >= l0[0] && sx < l1[0] &&
                             sy >= l0[1] - 0.5 && sy < l0[1] + 0.5;

                edge_out += sy == l0[1] + 0.5 && sx > l0[0] && sx < l1[0];
                ck_assert_msg(ms_get(md, x, y, s) ==
                              (in_pt || in_ln ? cw : 0),
                              "pixel %d,%d sample %u is 0x%08x", x, y, s,
                              ms_get(md, x, y, s));
            }
        }
    }
    ck_assert_uint_gt(edge_out, 2);     /* the rule was exercised */
}
END_TEST

/* MSAA_MASK drops samples; MULTISAMPLE_ENABLE off writes them all. */
START_TEST(test_msaa_sample_mask_and_off)
{
    const Mode *md = &modes[1];
    const double full[3][2] = { { 0, 0 }, { 2 * W, 0 }, { 0, 2 * H } };
    const double half[3][2] = { { 0, 0 }, { W, 0 }, { 0, H } };
    const float z[3] = { 0.5f, 0.5f, 0.5f };
    static const uint8_t col[4] = { 8, 16, 24, 32 };
    NV50PipePrim p;

    ms_target(md);
    ms_fill(md, 0);
    fp_color(col);
    m(MSAA_MASK(0), 0x5);
    p = tri(full, z);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (unsigned s = 0; s < 4; s++) {
                ck_assert_uint_eq(ms_get(md, x, y, s),
                                  (0x5 >> s) & 1 ? 0x20181008u : 0);
            }
        }
    }
    /* one sample at the centre decides for the whole pixel */
    m(MSAA_MASK(0), 0xffff);
    m(MULTISAMPLE_ENABLE, 0);
    ms_fill(md, 0);
    p = tri(half, z);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool in = ref_inside(half, x + 0.5, y + 0.5);

            for (unsigned s = 0; s < 4; s++) {
                ck_assert_uint_eq(ms_get(md, x, y, s), in ? 0x20181008u : 0);
            }
        }
    }
}
END_TEST

/* Depth at each sample's position: a steep plane through a pixel. */
START_TEST(test_msaa_depth_per_sample)
{
    const Mode *md = &modes[1];
    /* z = 0.5 + (x - 4.5) / 32 */
    const double v[3][2] = { { 0, 0 }, { 2 * W, 0 }, { 0, 2 * H } };
    const float z[3] = { 0.359375f, 0.859375f, 0.359375f };
    static const uint8_t col[4] = { 0, 248, 0, 255 };
    NV50Surface zs = ms_surf(md, 4);
    NV50PipePrim p;

    ms_target(md);
    ms_fill(md, 0);
    fp_zeta(ZETA_VA, W << md->ms_x, H << md->ms_y, FUNC_LESS);
    for (uint32_t y = 0; y < zs.height; y++) {
        for (uint32_t x = 0; x < zs.width_bytes / 4; x++) {
            gr_wr32(ZETA_VA + nv50_surface_offset(&zs, x * 4, y, 0),
                    0x3f000000);                        /* 0.5 */
        }
    }
    fp_color(col);
    p = tri(v, z);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (unsigned s = 0; s < 4; s++) {
                double sz = 0.5 + (ref_sx(md, x, s) - 4.5) / 32;
                bool pass = sz < 0.5;
                uint32_t zb = gr_rd32(ms_addr(ZETA_VA, md, 4, x, y, s));
                float zf;

                memcpy(&zf, &zb, 4);
                ck_assert_msg(ms_get(md, x, y, s) ==
                              (pass ? 0xff00f800u : 0),
                              "pixel %d,%d sample %u", x, y, s);
                ck_assert_msg(pass ? fabs(zf - sz) < 1e-5 : zf == 0.5f,
                              "z of pixel %d,%d sample %u: %f", x, y, s, zf);
            }
        }
    }
    /* pixel 4 is split: samples 0 and 2 lie left of its centre */
    ck_assert_uint_ne(ms_get(md, 4, 3, 0), 0);
    ck_assert_uint_eq(ms_get(md, 4, 3, 1), 0);
}
END_TEST

/*
 * MULTISAMPLE_ENABLE off with early Z: the one rasterised sample's depth
 * is tested at every sample, and only those that pass are written, on
 * whatever thread retires the pixel (fp-retire.c: the early test's
 * result travels with the quad).
 */
START_TEST(test_msaa_off_early_z_samples)
{
    const Mode *md = &modes[1];
    const double full[3][2] = { { 0, 0 }, { 2 * W, 0 }, { 0, 2 * H } };
    const float z[3] = { 0.5f, 0.5f, 0.5f };
    static const uint8_t col[4] = { 0, 248, 0, 255 };
    NV50PipePrim p;

    for (unsigned threads = 0; threads <= 3; threads += 3) {
        nv50_fp_set_threads(threads);
        ms_target(md);
        ms_fill(md, 0);
        fp_zeta(ZETA_VA, W << md->ms_x, H << md->ms_y, FUNC_LESS);
        /* samples 0 and 2 nearer (0.25) than the draw, 1 and 3 farther */
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                for (unsigned s = 0; s < 4; s++) {
                    gr_wr32(ms_addr(ZETA_VA, md, 4, x, y, s),
                            s % 2 ? 0x3f800000 : 0x3e800000);
                }
            }
        }
        m(MULTISAMPLE_ENABLE, 0);
        fp_color(col);
        p = tri(full, z);
        draw(&p);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                for (unsigned s = 0; s < 4; s++) {
                    ck_assert_msg(ms_get(md, x, y, s) ==
                                  (s % 2 ? 0xff00f800u : 0),
                                  "%u threads: pixel %d,%d sample %u: 0x%x",
                                  threads, x, y, s, ms_get(md, x, y, s));
                }
            }
        }
    }
    nv50_fp_set_threads(0);
}
END_TEST

/* ALPHA_TO_COVERAGE: alpha k / 8 keeps k samples of 8. */
START_TEST(test_msaa_alpha_to_coverage)
{
    const Mode *md = &modes[2];
    const double full[3][2] = { { 0, 0 }, { 2 * W, 0 }, { 0, 2 * H } };
    const float z[3] = { 0.5f, 0.5f, 0.5f };

    ms_target(md);
    m(MULTISAMPLE_CTRL, MS_CTRL_ALPHA_TO_COVERAGE);
    for (unsigned k = 0; k <= 8; k++) {
        const uint8_t col[4] = { 248, 8, 16, (uint8_t)(k * 255 / 8) };
        NV50PipePrim p = tri(full, z);
        unsigned want = (unsigned)floor(col[3] / 255.0 * 8 + 0.5);

        ms_fill(md, 0);
        fp_color(col);
        draw(&p);
        for (unsigned s = 0; s < 8; s++) {
            uint32_t got = ms_get(md, 5, 2, s);

            ck_assert_msg((got != 0) == (s < want), "alpha %u/255: sample "
                          "%u is 0x%08x", col[3], s, got);
        }
    }
    /* GL: no effect without multisample rasterisation */
    m(MULTISAMPLE_ENABLE, 0);
    {
        const uint8_t col[4] = { 248, 8, 16, 0 };
        NV50PipePrim p = tri(full, z);

        ms_fill(md, 0);
        fp_color(col);
        draw(&p);
        for (unsigned s = 0; s < 8; s++) {
            ck_assert_uint_eq(ms_get(md, 1, 1, s), 0x001008f8u);
        }
    }
}
END_TEST

/*
 * The resolve of nv50_blit_3d: TIC as nv50_create_texture_view makes it
 * for the blit's source (flags SCALED_COORDS | ACCESS_RESOLVE, and
 * FILTER_MSAA8 for 8x), TSC the blitter's bilinear sampler, the
 * blitter's FP (a linear interpolant, one tex), the big triangle with
 * coordinates 0 .. 16384 << ms_x, into a single-sample pitch target.
 */
static void resolve(const Mode *md)
{
    const uint32_t tic[8] = {
        0x08 | 2 << 6 | 2 << 9 | 2 << 12 | 2 << 15 |    /* A8B8G8R8 UNORM */
        2u << 18 | 3u << 21 | 4u << 24 | 5u << 27,      /* R G B A */
        (uint32_t)MS_VA,
        0x10001000u | 0x40000000u |                     /* unnormalised */
        7u << 14 | (uint32_t)(MS_VA >> 32),             /* 2D_NO_MIPMAP */
        md->samples == 8 ? 0x20000000u : 0x00300000u,
        0x80000000u | (W << md->ms_x),
        (H << md->ms_y) | 1u << 16,
        md->ms_x > 1 ? 0x88000000u : 0x03000000u,
        0,
    };
    const uint32_t tsc[8] = {
        0x00002000 | 2 | 2 << 3 | 2 << 6,               /* CLAMP_TO_EDGE */
        2 | 2 << 4 | 1 << 6,                            /* LINEAR, no mip */
        0, 0, 0, 0, 0, 0,
    };
    const double v[3][2] = { { 0, 0 }, { 16384, 0 }, { 0, 16384 } };
    const float z[3] = { 0, 0, 0 };
    const float tc[3][2] = {
        { 0, 0 }, { (float)(16384 << md->ms_x), 0 },
        { 0, (float)(16384 << md->ms_y) },
    };
    NV50PipePrim p;

    for (unsigned i = 0; i < 8; i++) {
        gr_wr32(TXC_VA + i * 4, tic[i]);
        gr_wr32(TXC_VA + 0x1000 + i * 4, tsc[i]);
    }
    m(TIC_ADDRESS_HIGH, (uint32_t)(TXC_VA >> 32));
    m(TIC_ADDRESS_LOW, (uint32_t)TXC_VA);
    m(TIC_LIMIT, 127);
    m(TSC_ADDRESS_HIGH, (uint32_t)((TXC_VA + 0x1000) >> 32));
    m(TSC_ADDRESS_LOW, (uint32_t)(TXC_VA + 0x1000));
    m(TSC_LIMIT, 127);
    m(BIND_TIC(2), 0u << 9 | 0 << 1 | 1);         /* FP $t0 = TIC 0 */
    m(BIND_TSC(2), 0u << 12 | 0 << 4 | 1);        /* FP $s0 = TSC 0 */
    m(TIC_FLUSH, 0);
    m(TSC_FLUSH, 0);
    /* nv50_blit_set_dst, nv50_blitctx_prepare_state */
    m(RT_ADDRESS_HIGH(0), (uint32_t)(SS_VA >> 32));
    m(RT_ADDRESS_LOW(0), (uint32_t)SS_VA);
    m(RT_FORMAT(0), FMT_RGBA8_UNORM);
    m(RT_HORIZ(0), RT_HORIZ_LINEAR | W * 4);
    m(RT_VERT(0), H);
    m(RT_ARRAY_MODE, 0);
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(MULTISAMPLE_MODE, 0);
    m(MULTISAMPLE_ENABLE, 0);
    fp_program("interp $r0 v[0x10]\n"
               "interp $r1 v[0x14]\n"
               "texauto all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1\n"
               "mov b32 $r3 $r3\n"      /* pairs the short tex */
               "exit nop\n", 4, 4, 0);
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | 2 << 16 | 4 << 8 | 2);
    m(NOPERSPECTIVE_BITMAP, 3u << 4);
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out[4] = f32_to_bits(tc[i][0]);
        vtx[i].out[5] = f32_to_bits(tc[i][1]);
    }
    p = tri(v, z);
    draw(&p);
}

START_TEST(test_msaa_resolve)
{
    const Mode *md = &modes[_i];
    GRand *rnd = g_rand_new_with_seed(0x4d5341u + _i);
    unsigned step = 256 / md->samples;      /* averages stay integers */

    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (unsigned s = 0; s < md->samples; s++) {
                uint32_t v = 0;

                for (unsigned k = 0; k < 4; k++) {
                    v |= (uint32_t)(g_rand_int_range(rnd, 0, 256 / step) *
                                    step) << (8 * k);
                }
                gr_wr32(ms_addr(MS_VA, md, 4, x, y, s), v);
            }
        }
    }
    g_rand_free(rnd);
    for (unsigned i = 0; i < W * H; i++) {
        gr_wr32(SS_VA + i * 4, 0xdeadbeef);
    }
    resolve(md);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t got = gr_rd32(SS_VA + (y * W + x) * 4);

            for (unsigned k = 0; k < 4; k++) {
                unsigned sum = 0;

                for (unsigned s = 0; s < md->samples; s++) {
                    sum += (ms_get(md, x, y, s) >> (8 * k)) & 0xff;
                }
                ck_assert_msg(((got >> (8 * k)) & 0xff) == sum / md->samples,
                              "%ux resolve: pixel %d,%d channel %u is %u, "
                              "want %u", md->samples, x, y, k,
                              (got >> (8 * k)) & 0xff, sum / md->samples);
            }
        }
    }
}
END_TEST

/* A triangle drawn on 4x then resolved: edge pixels blend by coverage. */
START_TEST(test_msaa_draw_then_resolve)
{
    const Mode *md = &modes[1];
    const double v[3][2] = {
        { 1.0 + 9 / 256.0, 0.5 }, { 7.5, 3.0 + 1 / 256.0 },
        { 3.0 + 77 / 256.0, 7.75 },
    };
    const float z[3] = { 0.5f, 0.5f, 0.5f };
    static const uint8_t col[4] = { 240, 120, 0, 252 };
    NV50PipePrim p;

    ms_target(md);
    ms_fill(md, 0);
    fp_color(col);
    p = tri(v, z);
    draw(&p);
    resolve(md);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t got = gr_rd32(SS_VA + (y * W + x) * 4);
            unsigned n = 0;

            for (unsigned s = 0; s < 4; s++) {
                n += ref_inside(v, ref_sx(md, x, s), ref_sy(md, y, s));
            }
            for (unsigned k = 0; k < 4; k++) {
                ck_assert_msg(((got >> (8 * k)) & 0xff) == col[k] * n / 4,
                              "pixel %d,%d (%u samples) channel %u: %u", x,
                              y, n, k, (got >> (8 * k)) & 0xff);
            }
        }
    }
}
END_TEST

Suite *nv50_msaa_suite(void)
{
    Suite *su = suite_create("nv50_msaa");
    TCase *tc = tcase_create("msaa");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_msaa_triangle_coverage, 0,
                        G_N_ELEMENTS(modes));
    tcase_add_test(tc, test_msaa_point_line_coverage);
    tcase_add_test(tc, test_msaa_sample_mask_and_off);
    tcase_add_test(tc, test_msaa_depth_per_sample);
    tcase_add_test(tc, test_msaa_off_early_z_samples);
    tcase_add_test(tc, test_msaa_alpha_to_coverage);
    tcase_add_loop_test(tc, test_msaa_resolve, 0, G_N_ELEMENTS(modes));
    tcase_add_test(tc, test_msaa_draw_then_resolve);
    suite_add_tcase(su, tc);
    return su;
}
