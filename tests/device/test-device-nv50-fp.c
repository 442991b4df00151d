/*
 * The 3D back end (hw/nv50/gr/fp.c) on a channel's PGRAPH context:
 * hand-made primitives (no front end) drawn with FP programs assembled
 * from envydis text, the render targets read back and checked pixel by
 * pixel against a C reference: perspective, linear and flat
 * interpolants and the position inputs, discard, c[] reads, two render
 * targets, a depth export against early-Z'd geometry, point sprites,
 * derivatives through helper pixels, the FP_PIXELS and SAMPLECNT
 * counters; the program kept across draws but rewritten in place; the
 * same render target with the FP shaded on host threads or not.
 *
 * The state is Mesa's nv50 driver's: RGBA32_FLOAT linear render
 * targets, a Z32_FLOAT zeta buffer, FP_INTERPOLANT_CTRL with all four
 * position components (UMASK xyzw) and the interpolants from result map
 * slot 4.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "nv50-fp-rig.h"


#define W           16
#define H           16
#define PITCH       (W * 16)
#define RT_VA(i)    (GR_VA_DATA + 0x10000 + (i) * 0x10000)
#define ZETA_VA     (GR_VA_DATA + 0x40000)
#define CB_VA       (GR_VA_DATA + 0x90000)


static uint32_t fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static float rt_get(unsigned rt, int x, int y, unsigned c)
{
    uint32_t u = gr_rd32(RT_VA(rt) + (uint64_t)y * PITCH + x * 16 + c * 4);
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static void rt_fill(unsigned rt, float v)
{
    for (unsigned i = 0; i < W * H * 4; i++) {
        gr_wr32(RT_VA(rt) + i * 4, fbits(v));
    }
}

/* UMASK xyzw, @count interpolants from map slot 4, @nonflat of them not flat */
static void fp_interp(unsigned count, unsigned nonflat)
{
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | nonflat << 16 | 4 << 8 | count);
}

static void setup(void)
{
    fp_rig_init();
    /* c0 = buffer 3 at CB_VA */
    m(NV50_3D_CB_DEF_ADDRESS_HIGH, (uint32_t)(CB_VA >> 32));
    m(NV50_3D_CB_DEF_ADDRESS_LOW, (uint32_t)CB_VA);
    m(NV50_3D_CB_DEF_SET, 3 << 16 | 0x100);
    m(NV50_3D_SET_PROGRAM_CB, 0 << 8 | 3 << 12 | 0x3 << 4 | 0x1);
    for (unsigned i = 0; i < 2; i++) {
        m(RT_ADDRESS_HIGH(i), (uint32_t)(RT_VA(i) >> 32));
        m(RT_ADDRESS_LOW(i), (uint32_t)RT_VA(i));
        m(RT_FORMAT(i), FMT_RGBA32_FLOAT);
        m(RT_TILE_MODE(i), 0);
        m(RT_HORIZ(i), RT_HORIZ_LINEAR | PITCH);
        m(RT_VERT(i), H);
        m(COLOR_MASK(i), 0x1111);
        rt_fill(i, -1.0f);
    }
    m(RT_ARRAY_MODE, 0);
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(SCREEN_SCISSOR_HORIZ, W << 16);
    m(SCREEN_SCISSOR_VERT, H << 16);
    memset(vtx, 0, sizeof(vtx));
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out_words = 16;
    }
    ck_assert_uint_eq(rd32(0x400100), 0);
}

static NV50PipePrim tri(const float xy[3][2], const float z[3],
                        const float w[3], unsigned provoking)
{
    NV50PipePrim p = {
        .kind = NV50_PRIM_TRIANGLES, .nverts = 3, .front = true,
        .provoking = &vtx[provoking],
    };

    for (unsigned i = 0; i < 3; i++) {
        p.scr[i] = (RasterVert) { xy[i][0], xy[i][1], z[i], 1.0f / w[i] };
        p.v[i] = &vtx[i];
    }
    return p;
}

/* The rectangle [x0, x1) x [y0, y1) as two triangles (unambiguous). */
static void rect(float x0, float y0, float x1, float y1, float z0, float z1)
{
    const float a[3][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 } };
    const float b[3][2] = { { x1, y0 }, { x1, y1 }, { x0, y1 } };
    const float za[3] = { z0, z0, z1 }, zb[3] = { z0, z1, z1 };
    const float w[3] = { 1, 1, 1 };
    NV50PipePrim p;

    p = tri(a, za, w, 2);
    draw(&p);
    p = tri(b, zb, w, 2);
    draw(&p);
}

/* Screen-space barycentrics of (px, py); false near an edge. */
static bool bary(const float xy[3][2], double px, double py, double l[3])
{
    double area = (xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1]) -
                  (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1]);

    for (unsigned i = 0; i < 3; i++) {
        const float *a = xy[(i + 1) % 3], *b = xy[(i + 2) % 3];

        l[i] = ((b[0] - a[0]) * (py - a[1]) - (px - a[0]) * (b[1] - a[1])) /
               area;
    }
    return l[0] > 1e-3 && l[1] > 1e-3 && l[2] > 1e-3;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-4 * MAX(1.0, fabs(b));
}

/*
 * Perspective (map slot 4), linear (slot 5, NOPERSPECTIVE) and flat
 * (slot 6) interpolants, x from the position; y and 1/w to RT 1.
 */
START_TEST(test_fp_interpolation)
{
    const float xy[3][2] = { { 1.25f, 0.5f }, { 15.0f, 3.75f },
                             { 4.5f, 14.5f } };
    const float z[3] = { 0.1f, 0.5f, 0.9f }, w[3] = { 1.0f, 4.0f, 2.0f };
    const float pa[3] = { 1.0f, 5.0f, -3.0f }, la[3] = { 0.0f, 2.0f, 8.0f };
    NV50PipePrim p;
    unsigned inside = 0;

    fp_program("interp $r8 v[0xc]\n"
               "rcp f32 $r8 $r8\n"
               "interp $r0 v[0x10] $r8\n"
               "interp $r1 v[0x14]\n"
               "interp $r2 flat v[0x18]\n"
               "interp $r3 v[0x0]\n"
               "interp $r4 v[0x4]\n"
               "interp $r5 v[0x8]\n"
               "interp $r6 v[0xc]\n"
               "exit mov b32 $r7 $r8\n", 9, 8, FPC_MULTIPLE_RESULTS);
    fp_interp(3, 2);
    m(NOPERSPECTIVE_BITMAP, 1u << 5);
    m(RT_CONTROL, 076543210 << 4 | 2);
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out[4] = fbits(pa[i]);
        vtx[i].out[5] = fbits(la[i]);
        vtx[i].out[6] = fbits(10.0f + i);
    }
    p = tri(xy, z, w, 1);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double l[3], iw = 0, pv = 0, lv = 0, zv = 0;

            if (!bary(xy, x + 0.5, y + 0.5, l)) {
                continue;
            }
            inside++;
            for (unsigned i = 0; i < 3; i++) {
                iw += l[i] / w[i];
                pv += l[i] * pa[i] / w[i];
                lv += l[i] * la[i];
                zv += l[i] * z[i];
            }
            ck_assert_msg(near(rt_get(0, x, y, 0), pv / iw),
                          "persp at %d,%d: %f, want %f", x, y,
                          rt_get(0, x, y, 0), pv / iw);
            ck_assert_msg(near(rt_get(0, x, y, 1), lv), "linear at %d,%d",
                          x, y);
            ck_assert_msg(rt_get(0, x, y, 2) == 11.0f, "flat at %d,%d", x, y);
            ck_assert(rt_get(0, x, y, 3) == x + 0.5f);
            ck_assert(rt_get(1, x, y, 0) == y + 0.5f);
            ck_assert_msg(near(rt_get(1, x, y, 1), zv), "z at %d,%d", x, y);
            ck_assert_msg(near(rt_get(1, x, y, 2), iw), "1/w at %d,%d", x, y);
            ck_assert_msg(near(rt_get(1, x, y, 3), 1 / iw), "w at %d,%d", x,
                          y);
        }
    }
    ck_assert_uint_gt(inside, 40);
    /* far outside: untouched */
    ck_assert(rt_get(0, 15, 15, 0) == -1.0f);
    ck_assert(rt_get(1, 0, 15, 0) == -1.0f);
}
END_TEST

/*
 * discard where x < c0[0]; without MULTIPLE_RESULTS RT 1 gets RT 0's
 * colour; counters count what was written.
 */
START_TEST(test_fp_discard_counters)
{
    NV50Gr3dState *st = state();

    gr_wr32(CB_VA, fbits(6.0f));
    fp_program("interp $r0 v[0x0]\n"
               "interp $r1 v[0x4]\n"
               "ld $r5 b32 c0[0x0]\n"
               "set $c0 $r2 l f32 $r0 $r5\n"
               "(lg $c0) discard\n"
               "mov b32 $r2 0x3f800000\n"
               "exit mov b32 $r3 $r2\n", 6, 4, FPC_USES_KIL);
    fp_interp(0, 0);
    m(RT_CONTROL, 076543210 << 4 | 2);
    m(0x1514, 1);                   /* SAMPLECNT_ENABLE, as Mesa's query */
    st->samplecnt = 0;
    st->counter[NV50_3D_COUNTER_FP_PIXELS] = 0;
    rect(2, 3, 12, 9, 0.5f, 0.5f);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool in = x >= 2 && x < 12 && y >= 3 && y < 9;
            bool kept = in && x >= 6;

            for (unsigned rt = 0; rt < 2; rt++) {
                ck_assert_msg(rt_get(rt, x, y, 0) ==
                              (kept ? x + 0.5f : -1.0f),
                              "RT %u at %d,%d: %f", rt, x, y,
                              rt_get(rt, x, y, 0));
                ck_assert(rt_get(rt, x, y, 1) == (kept ? y + 0.5f : -1.0f));
                ck_assert(rt_get(rt, x, y, 3) == (kept ? 1.0f : -1.0f));
            }
        }
    }
    ck_assert_uint_eq(st->counter[NV50_3D_COUNTER_FP_PIXELS], 10 * 6);
    ck_assert_uint_eq(st->samplecnt, 6 * 6);
}
END_TEST

/*
 * Depth: a rectangle whose FP exports z = 0.5 (late Z), then one with
 * z from 0.2 (left) to 0.8 (right) through early Z: the second wins
 * where its z < 0.5.
 */
START_TEST(test_fp_depth_export)
{
    NV50GrCall c = call();
    const float xy0[3][2] = { { 0, 0 }, { 16, 0 }, { 0, 16 } };
    const float xy1[3][2] = { { 16, 0 }, { 16, 16 }, { 0, 16 } };
    const float z0[3] = { 0.2f, 0.8f, 0.2f }, z1[3] = { 0.8f, 0.8f, 0.2f };
    const float w[3] = { 1, 1, 1 };
    NV50PipePrim p;

    fp_zeta(ZETA_VA, W, H, FUNC_ALWAYS);
    m(CLEAR_DEPTH, fbits(1.0f));
    nv50_rop_clear(&c, state(), 0x1);
    m(DEPTH_TEST_FUNC, FUNC_LESS);

    /* red, z 0.5 exported in $r4 (FP_RESULT_COUNT 5) */
    fp_program("mov b32 $r0 0x3f800000\n"
               "mov b32 $r1 0x00000000\n"
               "mov b32 $r2 0x00000000\n"
               "mov b32 $r3 0x3f800000\n"
               "mov b32 $r4 0x3f000000\n"
               "exit nop\n", 5, 5, FPC_EXPORTS_Z);
    fp_interp(0, 0);
    rect(0, 0, 16, 16, 0.9f, 0.9f);

    /* green, interpolated z */
    fp_program("mov b32 $r0 0x00000000\n"
               "mov b32 $r1 0x3f800000\n"
               "mov b32 $r2 0x00000000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    p = tri(xy0, z0, w, 0);
    draw(&p);
    p = tri(xy1, z1, w, 0);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double zv = 0.2 + 0.6 * (x + 0.5) / 16;

            if (fabs(zv - 0.5) < 1e-3) {
                continue;
            }
            ck_assert_msg(rt_get(0, x, y, 1) == (zv < 0.5 ? 1.0f : 0.0f),
                          "at %d,%d (z %f): %f %f", x, y, zv,
                          rt_get(0, x, y, 0), rt_get(0, x, y, 1));
            ck_assert(rt_get(0, x, y, 0) == (zv < 0.5 ? 0.0f : 1.0f));
        }
    }
}
END_TEST

/*
 * The face word v[0x3fc]: ~0 for a front-facing triangle (left half),
 * 0 for a back-facing one (right half), masked to 1.0 or 0.0 in red.
 */
START_TEST(test_fp_face)
{
    const float left[3][2] = { { 0, 0 }, { 8, 0 }, { 0, 16 } };
    const float right[3][2] = { { 16, 0 }, { 16, 16 }, { 8, 16 } };
    const float z[3] = { 0.5f, 0.5f, 0.5f }, w[3] = { 1, 1, 1 };
    NV50PipePrim p;

    fp_program("interp $r0 v[0x3fc]\n"
               "and b32 $r0 $r0 0x3f800000\n"
               "mov b32 $r1 0x40000000\n"
               "mov b32 $r2 0x00000000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    fp_interp(0, 0);
    p = tri(left, z, w, 0);
    draw(&p);
    p = tri(right, z, w, 0);
    p.front = false;
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double l[3];
            bool in_l = bary(left, x + 0.5, y + 0.5, l);
            bool in_r = bary(right, x + 0.5, y + 0.5, l);

            if (!in_l && !in_r) {
                continue;
            }
            ck_assert_msg(rt_get(0, x, y, 0) == (in_l ? 1.0f : 0.0f),
                          "face at %d,%d: %f", x, y, rt_get(0, x, y, 0));
            ck_assert(rt_get(0, x, y, 1) == 2.0f);
        }
    }
}
END_TEST

/*
 * A point sprite of size 4 at (8, 8): 16 pixels; map slot 4 replaced by
 * s, slot 5 by t (upper-left origin), slot 6 by 1; slot 7 the vertex's.
 */
START_TEST(test_fp_point_sprite)
{
    NV50PipePrim p = {
        .kind = NV50_PRIM_POINTS, .nverts = 1, .front = true,
        .provoking = &vtx[0], .width = 4.0f,
        .scr = { { 8.0f, 8.0f, 0.5f, 1.0f } }, .v = { &vtx[0] },
    };

    fp_program("interp $r8 v[0xc]\n"
               "rcp f32 $r8 $r8\n"
               "interp $r0 v[0x10] $r8\n"
               "interp $r1 v[0x14] $r8\n"
               "interp $r2 v[0x18] $r8\n"
               "interp $r3 v[0x1c] $r8\n"
               "exit nop\n", 9, 4, 0);
    fp_interp(4, 4);
    m(POINT_SPRITE_ENABLE, 1);
    m(POINT_SPRITE_CTRL, 0x10);
    m(POINT_COORD_REPLACE_MAP, 1u << 16 | 2u << 20 | 4u << 24);
    vtx[0].out[7] = fbits(7.0f);
    draw(&p);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool in = x >= 6 && x < 10 && y >= 6 && y < 10;

            if (!in) {
                ck_assert(rt_get(0, x, y, 0) == -1.0f);
                continue;
            }
            ck_assert_msg(near(rt_get(0, x, y, 0), (x + 0.5 - 6) / 4),
                          "s at %d,%d: %f", x, y, rt_get(0, x, y, 0));
            ck_assert(near(rt_get(0, x, y, 1), (y + 0.5 - 6) / 4));
            ck_assert(rt_get(0, x, y, 2) == 1.0f);
            ck_assert(rt_get(0, x, y, 3) == 7.0f);
        }
    }
}
END_TEST

/*
 * Derivatives through helper pixels: a one-pixel-wide rectangle column
 * (x 5) covers one pixel of each quad; ddx of x^2 (quadop dx) there
 * needs its helper neighbour's value.
 */
START_TEST(test_fp_helper_derivative)
{
    fp_program("interp $r0 v[0x0]\n"
               "mul f32 $r1 $r0 $r0\n"
               "quadop f32 sub subr sub subr $r2 dx $r1 $r1\n"
               "mov b32 $r0 $r2\n"
               "mov b32 $r1 $r2\n"
               "exit mov b32 $r3 $r2\n", 4, 4, 0);
    fp_interp(0, 0);
    rect(5, 2, 6, 6, 0.5f, 0.5f);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            if (x == 5 && y >= 2 && y < 6) {
                /* pixel 5 is the right one of its quad: 5.5^2 - 4.5^2 */
                ck_assert_msg(near(rt_get(0, x, y, 0), 10.0),
                              "ddx at %d,%d: %f", x, y, rt_get(0, x, y, 0));
            } else {
                ck_assert(rt_get(0, x, y, 0) == -1.0f);
            }
        }
    }
}
END_TEST

/* A flat colour (slot 4..7, flat) FP program filling RT 0. */
static const char *const flat_fp =
    "interp $r0 flat v[0x10]\n"
    "interp $r1 flat v[0x14]\n"
    "interp $r2 flat v[0x18]\n"
    "exit interp $r3 flat v[0x1c]\n";

/* Every pixel of RT 0 (its first channel) is @v. */
static void rt0_all(float v)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            ck_assert_msg(rt_get(0, x, y, 0) == v, "%d,%d: %f, want %f", x,
                          y, rt_get(0, x, y, 0), v);
        }
    }
}

/*
 * The decode cache: a program rewritten in place between draws (the
 * same address and length, as a driver re-uploading code) runs as
 * rewritten; the same words again are not read afresh; another entry
 * is.
 */
START_TEST(test_fp_code_rewrite)
{
    NV50Gr3dState *st = state();
    uint64_t loads;

    fp_interp(0, 0);
    fp_program("mov b32 $r0 0x3f800000\n"
               "mov b32 $r1 0x3f800000\n"
               "mov b32 $r2 0x3f800000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    rect(0, 0, W, H, 0.5f, 0.5f);
    rt0_all(1.0f);
    loads = nv50_fp_prog_loads(st->fp_prog);
    ck_assert_uint_ge(loads, 1);
    /* the same words again: the context's program is kept */
    fp_program("mov b32 $r0 0x3f800000\n"
               "mov b32 $r1 0x3f800000\n"
               "mov b32 $r2 0x3f800000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    rect(0, 0, W, H, 0.5f, 0.5f);
    rt0_all(1.0f);
    ck_assert_uint_eq(nv50_fp_prog_loads(st->fp_prog), loads);
    /* rewritten in place: the new code runs */
    fp_program("mov b32 $r0 0x40000000\n"
               "mov b32 $r1 0x3f800000\n"
               "mov b32 $r2 0x3f800000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    rect(0, 0, W, H, 0.5f, 0.5f);
    rt0_all(2.0f);
    ck_assert_uint_eq(nv50_fp_prog_loads(st->fp_prog), loads + 1);
    /* another entry point */
    fp_code_at("mov b32 $r0 0x40400000\n"
               "mov b32 $r1 0x3f800000\n"
               "mov b32 $r2 0x3f800000\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", ENTRY + 0x200);
    m(FP_START_ID, ENTRY + 0x200);
    rect(0, 0, W, H, 0.5f, 0.5f);
    rt0_all(3.0f);
    ck_assert_uint_eq(nv50_fp_prog_loads(st->fp_prog), loads + 2);
}
END_TEST

/*
 * Many overlapping flat-coloured triangles in one draw (batches span
 * primitives; the last one to cover a pixel decides its colour), with
 * discard of a few: the same render target with the batches shaded on
 * the engine thread alone and on host threads, and as a C model says.
 */
static void overlap_draw(unsigned threads, float *out)
{
    NV50GrCall c = call();
    NV50Rop *r;
    NV50FpDraw *d;
    float model[H][W];

    nv50_fp_set_threads(threads);
    rt_fill(0, -1.0f);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            model[y][x] = -1.0f;
        }
    }
    r = nv50_rop_begin(&c, state());
    ck_assert_ptr_nonnull(r);
    d = nv50_fp_begin(&c, state(), r);
    for (unsigned t = 0; t < 600; t++) {
        float x0 = t * 7 % 13, y0 = t * 5 % 11, s = 3 + t % 9;
        const float xy[3][2] = { { x0, y0 }, { x0 + s, y0 }, { x0, y0 + s } };
        const float zz[3] = { 0.5f, 0.5f, 0.5f }, w[3] = { 1, 1, 1 };
        NV50PipePrim p = tri(xy, zz, w, 0);
        NV50PipeVertex v = vtx[0];

        v.out[4] = fbits((float)t);
        p.provoking = &v;
        nv50_fp_prim(d, &p);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                /* inside by the top-left rule: the hypotenuse's pixel
                   centres lie on it, a right edge */
                float u = x + 0.5f - x0, vv = y + 0.5f - y0;

                if (u > 0 && vv > 0 && u + vv < s) {
                    model[y][x] = t;
                }
            }
        }
    }
    nv50_fp_end(d);
    nv50_rop_end(r);
    ck_assert_uint_eq(rd32(0x400100), 0);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            out[y * W + x] = rt_get(0, x, y, 0);
            ck_assert_msg(out[y * W + x] == model[y][x], "%u threads: %d,%d "
                          "is %f, want %f", threads, x, y, out[y * W + x],
                          model[y][x]);
        }
    }
}

START_TEST(test_fp_threads_same)
{
    float serial[W * H], par[W * H];

    fp_program(flat_fp, 4, 4, 0);
    fp_interp(4, 0);
    overlap_draw(0, serial);
    for (unsigned n = 1; n <= 4; n += 3) {
        overlap_draw(n, par);
        ck_assert(!memcmp(serial, par, sizeof(par)));
    }
    nv50_fp_set_threads(0);
}
END_TEST

Suite *nv50_fp_suite(void)
{
    Suite *su = suite_create("nv50_fp");
    TCase *tc = tcase_create("draw");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fp_interpolation);
    tcase_add_test(tc, test_fp_discard_counters);
    tcase_add_test(tc, test_fp_depth_export);
    tcase_add_test(tc, test_fp_point_sprite);
    tcase_add_test(tc, test_fp_helper_derivative);
    tcase_add_test(tc, test_fp_code_rewrite);
    tcase_add_test(tc, test_fp_face);
    tcase_add_test(tc, test_fp_threads_same);
    suite_add_tcase(su, tc);
    return su;
}
