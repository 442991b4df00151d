/*
 * The 3D back end's retirement by screen tile (hw/nv50/gr/fp-retire.c)
 * on host threads: the same scene of overlapping triangles, blended and
 * depth-tested, drawn serially (GEMU_FP_THREADS=0's path) and with 1
 * and 3 pool threads, over a render target of several 32x32 tiles in
 * every direction; the render target's and zeta's bytes and the
 * FP_PIXELS and SAMPLECNT counters must be the same.  Three scenes:
 * early Z with blending (zeta on the engine thread, colour on the
 * lanes), late Z through KIL with discards (zeta and colour on the
 * lanes), and the plain 8-bit target's quad path with no zeta; the
 * thread count changed between two FP draws on one ROP; a render target
 * that faults.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-fp-rig.h"

#define W           200         /* 7 x 5 tiles of 32 pixels */
#define H           136
#define RT_VA       (GR_VA_DATA + 0x100000)
#define ZETA_VA     (GR_VA_DATA + 0x400000)
#define NTRIS       160

#define FMT_BGRA8_UNORM         0xcf
#define BLEND_EQUATION_RGB      0x1340
#define BLEND_FUNC_SRC_RGB      0x1344
#define BLEND_FUNC_DST_RGB      0x1348
#define BLEND_ENABLE_COMMON     0x135c
#define BLEND_ENABLE(i)         (0x1360 + (i) * 4)
#define SAMPLECNT_ENABLE        0x1514
#define CLEAR_COLOR(i)          (0x0d80 + (i) * 4)
#define EQ_ADD                  0x8006
#define BF_SRC_ALPHA            0x4302
#define BF_ONE_MINUS_SRC_ALPHA  0x4303

/* the programs' inputs: x, y, the triangle's flat value (map slot 4) */
#define FP_INPUTS   "interp $r0 v[0x0]\n" \
                    "interp $r1 v[0x4]\n" \
                    "interp $r2 flat v[0x10]\n"

typedef struct Scene {
    unsigned bpp;               /* the RT's */
    uint64_t fp_pixels, samplecnt;
    uint8_t *rt, *zeta;         /* W x H elements, as read back */
} Scene;

static uint32_t rnd(uint32_t *seed, uint32_t n)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 8) % n;
}

static uint32_t fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static void setup(void)
{
    fp_rig_init();
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(RT_ARRAY_MODE, 0);
    m(COLOR_MASK(0), 0x1111);
    m(SCREEN_SCISSOR_HORIZ, W << 16);
    m(SCREEN_SCISSOR_VERT, H << 16);
    m(SAMPLECNT_ENABLE, 1);
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | 0 << 16 | 4 << 8 | 1);
    memset(vtx, 0, sizeof(vtx));
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out_words = 16;
    }
}

static void rt_set(uint32_t fmt, unsigned bpp)
{
    m(RT_ADDRESS_HIGH(0), (uint32_t)(RT_VA >> 32));
    m(RT_ADDRESS_LOW(0), (uint32_t)RT_VA);
    m(RT_FORMAT(0), fmt);
    m(RT_TILE_MODE(0), 0);
    m(RT_HORIZ(0), RT_HORIZ_LINEAR | (W * bpp));
    m(RT_VERT(0), H);
}

/* RGBA32_FLOAT, blended (source alpha), over Z32_FLOAT tested LESS */
static void blended_target(void)
{
    rt_set(FMT_RGBA32_FLOAT, 16);
    fp_zeta(ZETA_VA, W, H, FUNC_LESS);
    m(BLEND_ENABLE_COMMON, 1);
    m(BLEND_ENABLE(0), 1);
    m(BLEND_EQUATION_RGB, EQ_ADD);
    m(BLEND_FUNC_SRC_RGB, BF_SRC_ALPHA);
    m(BLEND_FUNC_DST_RGB, BF_ONE_MINUS_SRC_ALPHA);
}

/* Clear colour (a grey) and, with zeta, depth 1 (CLEAR_BUFFERS). */
static void clear(bool zeta)
{
    NV50GrCall c = call();

    for (unsigned i = 0; i < 4; i++) {
        m(CLEAR_COLOR(i), fbits(0.25f));
    }
    m(CLEAR_DEPTH, fbits(1.0f));
    nv50_rop_clear(&c, state(), 0x3c | (zeta ? 1 : 0));
    ck_assert_uint_eq(rd32(0x400100), 0);
}

/* Triangle @t of the scene: anywhere, up to 90 pixels, z per vertex. */
static NV50PipePrim scene_tri(unsigned t, uint32_t *seed)
{
    NV50PipePrim p = {
        .kind = NV50_PRIM_TRIANGLES, .nverts = 3, .front = true,
        .provoking = &vtx[0],
    };
    float cx = rnd(seed, W + 40) - 20.0f;
    float cy = rnd(seed, H + 40) - 20.0f;

    for (unsigned i = 0; i < 3; i++) {
        /* one call a statement: the order is the scene */
        float x = cx + rnd(seed, 90) - 45.0f;
        float y = cy + rnd(seed, 90) - 45.0f;

        x += rnd(seed, 256) / 256.0f;
        y += rnd(seed, 256) / 256.0f;
        p.scr[i] = (RasterVert) { x, y, rnd(seed, 1000) / 1000.0f, 1.0f };
        p.v[i] = &vtx[i];
    }
    /* the flat interpolant: a colour, and KIL's threshold */
    vtx[0].out[4] = fbits((float)(t * 37 % W));
    return p;
}

static void scene_read(Scene *s, bool zeta)
{
    s->rt = g_malloc((size_t)W * H * s->bpp);
    for (unsigned i = 0; i < W * H * s->bpp / 4; i++) {
        stn_le_p(s->rt + i * 4, 4, gr_rd32(RT_VA + i * 4));
    }
    if (zeta) {
        /* Z32_FLOAT's block-linear bytes as they lie: a W x H surface
           in GOBs is within (W * 4 rounded to 64) x (H rounded to 4) */
        size_t n = (size_t)(W * 4 + 63) / 64 * 64 * ((H + 3) / 4 * 4);

        s->zeta = g_malloc(n);
        for (size_t i = 0; i < n / 4; i++) {
            stn_le_p(s->zeta + i * 4, 4, gr_rd32(ZETA_VA + i * 4));
        }
    }
}

/*
 * The scene drawn with @threads pool threads (the second half of its
 * triangles, in a second FP draw on the same ROP, with @threads2),
 * read back into @s.
 */
static void scene_draw2(unsigned threads, unsigned threads2, bool zeta,
                        Scene *s)
{
    NV50GrCall c = call();
    NV50Gr3dState *st = state();
    uint32_t seed = 1;
    NV50Rop *r;
    NV50FpDraw *d;

    nv50_fp_set_threads(threads);
    clear(zeta);
    st->samplecnt = 0;
    st->counter[NV50_3D_COUNTER_FP_PIXELS] = 0;
    r = nv50_rop_begin(&c, st);
    ck_assert_ptr_nonnull(r);
    d = nv50_fp_begin(&c, st, r);
    for (unsigned t = 0; t < NTRIS; t++) {
        NV50PipePrim p = scene_tri(t, &seed);

        if (t == NTRIS / 2 && threads2 != threads) {
            nv50_fp_end(d);
            nv50_fp_set_threads(threads2);
            d = nv50_fp_begin(&c, st, r);
        }
        nv50_fp_prim(d, &p);
    }
    nv50_fp_end(d);
    nv50_rop_end(r);
    ck_assert_uint_eq(rd32(0x400100), 0);
    s->fp_pixels = st->counter[NV50_3D_COUNTER_FP_PIXELS];
    s->samplecnt = st->samplecnt;
    scene_read(s, zeta);
}

static void scene_draw(unsigned threads, bool zeta, Scene *s)
{
    scene_draw2(threads, threads, zeta, s);
}

static void scene_free(Scene *s)
{
    g_free(s->rt);
    g_free(s->zeta);
}

/* Draw serially, then with 1 and 3 threads: the same bytes, counts. */
static void scene_same(const char *what, unsigned bpp, bool zeta)
{
    Scene serial = { .bpp = bpp };
    unsigned drawn = 0;

    scene_draw(0, zeta, &serial);
    /* not a trivial scene: most pixels drawn, counted */
    for (unsigned i = 0; i < W * H; i++) {
        drawn += ldn_le_p(serial.rt + i * bpp, 4) != (bpp == 4 ? 0x40404040u
                                                   : fbits(0.25f));
    }
    ck_assert_msg(drawn > W * H / 2, "%s: %u pixels drawn", what, drawn);
    ck_assert_uint_gt(serial.fp_pixels, W * H);
    ck_assert_uint_gt(serial.samplecnt, W * H / 2);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        Scene par = { .bpp = bpp };

        scene_draw(threads, zeta, &par);
        for (unsigned i = 0; i < W * H * bpp; i++) {
            ck_assert_msg(par.rt[i] == serial.rt[i], "%s, %u threads: RT "
                          "byte %u (pixel %u,%u) 0x%02x, serially 0x%02x",
                          what, threads, i, i / bpp % W, i / bpp / W,
                          par.rt[i], serial.rt[i]);
        }
        if (zeta) {
            size_t n = (size_t)(W * 4 + 63) / 64 * 64 * ((H + 3) / 4 * 4);

            ck_assert_msg(!memcmp(par.zeta, serial.zeta, n),
                          "%s, %u threads: zeta differs", what, threads);
        }
        ck_assert_uint_eq(par.fp_pixels, serial.fp_pixels);
        ck_assert_uint_eq(par.samplecnt, serial.samplecnt);
        scene_free(&par);
    }
    scene_free(&serial);
    nv50_fp_set_threads(0);
}

/* Early Z, blended: x, y and the triangle's value, alpha 0.5. */
START_TEST(test_tiles_early_z_blend)
{
    fp_program(FP_INPUTS
               "mov b32 $r3 0x3f000000\n"
               "exit nop\n", 4, 4, 0);
    blended_target();
    scene_same("early Z, blended", 16, true);
}
END_TEST

/* Late Z (KIL): pixels left of the triangle's value discarded. */
START_TEST(test_tiles_late_z_kil)
{
    fp_program(FP_INPUTS
               "set $c0 $r4 l f32 $r0 $r2\n"
               "(lg $c0) discard\n"
               "mov b32 $r3 0x3f000000\n"
               "exit nop\n", 5, 4, FPC_USES_KIL);
    blended_target();
    scene_same("late Z, KIL", 16, true);
}
END_TEST

/* The plain 8-bit target (nv50_rop_write_quad), no zeta. */
START_TEST(test_tiles_plain_unorm8)
{
    fp_program(FP_INPUTS
               "mul f32 $r0 $r0 0x3ba3d70a\n"
               "mul f32 $r1 $r1 0x3ba3d70a\n"
               "mul f32 $r2 $r2 0x3ba3d70a\n"
               "mov b32 $r3 0x3f800000\n"
               "exit nop\n", 4, 4, 0);
    rt_set(FMT_BGRA8_UNORM, 4);
    m(ZETA_ENABLE, 0);
    scene_same("plain BGRA8", 4, false);
}
END_TEST

/*
 * Two FP draws on one ROP, serial then threaded and the other way: the
 * second's lanes see what the first buffered (nv50_rop_lanes writes
 * the ROP's cache back first, nv50_fp_end the lanes').
 */
START_TEST(test_tiles_threads_change)
{
    Scene serial = { .bpp = 16 }, a = { .bpp = 16 }, b = { .bpp = 16 };
    size_t n = (size_t)(W * 4 + 63) / 64 * 64 * ((H + 3) / 4 * 4);

    fp_program(FP_INPUTS
               "mov b32 $r3 0x3f000000\n"
               "exit nop\n", 4, 4, 0);
    blended_target();
    scene_draw(0, true, &serial);
    scene_draw2(0, 3, true, &a);
    scene_draw2(3, 0, true, &b);
    nv50_fp_set_threads(0);
    ck_assert(!memcmp(a.rt, serial.rt, (size_t)W * H * 16));
    ck_assert(!memcmp(b.rt, serial.rt, (size_t)W * H * 16));
    ck_assert(!memcmp(a.zeta, serial.zeta, n));
    ck_assert(!memcmp(b.zeta, serial.zeta, n));
    ck_assert_uint_eq(a.samplecnt, serial.samplecnt);
    ck_assert_uint_eq(b.fp_pixels, serial.fp_pixels);
    scene_free(&serial);
    scene_free(&a);
    scene_free(&b);
}
END_TEST

/*
 * A render target on unmapped memory: the first lane to touch it traps
 * (PROP), every lane and the early-Z'd zeta then write nothing, with 0
 * or 3 threads alike.
 */
START_TEST(test_tiles_fault)
{
    size_t n = (size_t)(W * 4 + 63) / 64 * 64 * ((H + 3) / 4 * 4);

    fp_program(FP_INPUTS
               "mov b32 $r3 0x3f000000\n"
               "exit nop\n", 4, 4, 0);
    blended_target();
    for (unsigned threads = 0; threads <= 3; threads += 3) {
        NV50GrCall c = call();
        uint32_t seed = 1;
        NV50Rop *r;
        NV50FpDraw *d;

        Scene before = { .bpp = 16 }, after = { .bpp = 16 };

        clear(true);
        scene_read(&before, true);
        m(RT_ADDRESS_HIGH(0), 0x70);
        nv50_fp_set_threads(threads);
        r = nv50_rop_begin(&c, state());
        ck_assert_ptr_nonnull(r);
        d = nv50_fp_begin(&c, state(), r);
        for (unsigned t = 0; t < NTRIS; t++) {
            NV50PipePrim p = scene_tri(t, &seed);

            nv50_fp_prim(d, &p);
        }
        nv50_fp_end(d);
        nv50_rop_end(r);
        ck_assert_msg(rd32(0x400100) & NV50_GR_INTR_TRAP, "%u threads",
                      threads);
        wr32(0x400100, rd32(0x400100));
        m(RT_ADDRESS_HIGH(0), (uint32_t)(RT_VA >> 32));
        scene_read(&after, true);
        ck_assert_msg(!memcmp(before.zeta, after.zeta, n), "%u threads",
                      threads);
        ck_assert(!memcmp(before.rt, after.rt, (size_t)W * H * 16));
        scene_free(&before);
        scene_free(&after);
    }
    nv50_fp_set_threads(0);
}
END_TEST

Suite *nv50_fp_tiles_suite(void)
{
    Suite *su = suite_create("nv50_fp_tiles");
    TCase *tc = tcase_create("draw");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tiles_early_z_blend);
    tcase_add_test(tc, test_tiles_late_z_kil);
    tcase_add_test(tc, test_tiles_plain_unorm8);
    tcase_add_test(tc, test_tiles_threads_change);
    tcase_add_test(tc, test_tiles_fault);
    suite_add_tcase(su, tc);
    return su;
}
