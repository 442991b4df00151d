/*
 * A GP's layer and viewport index outputs (hw/nv50/gr/clip.c, 3d-draw.c,
 * the ROP's surface set-up) on a channel's PGRAPH context, as Mesa 22.3's
 * nv50 links them (nv50_fp_linkage_validate: the GP's gl_Layer and
 * gl_ViewportIndex words in GP_RESULT_MAP, SEMANTIC_LAYER and
 * SEMANTIC_VIEWPORT naming them, LAYER USE_GP, GP_VIEWPORT_ID_ENABLE):
 * quads drawn into a 4-layer RGBA32_FLOAT array, each into the layer and
 * viewport its GP says, with 4 viewports of their own transform, depth
 * range and scissor; every pixel of every layer against a plain C
 * reference of the same quads (coverage exact: the scissors bound quads
 * larger than their viewports); the depth test against a layered zeta
 * buffer.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "nv50-draw-rig.h"

#define H_3D        0xbeef3d11u

#define VA_VPCODE   (GR_VA_DATA + 0x00000)
#define VA_GPCODE   (GR_VA_DATA + 0x08000)
#define VA_FPCODE   (GR_VA_DATA + 0x10000)
#define VA_VB0      (GR_VA_DATA + 0x20000)
#define VA_VB1      (GR_VA_DATA + 0x30000)
#define VA_RT       (GR_VA_DATA + 0x100000)
#define VA_ZETA     (GR_VA_DATA + 0x200000)

/* more of the back end's state (rnndb g80_3d.xml) */
#define SCISSOR_ENABLE(i)       (0x0e00 + (i) * 16)
#define SCISSOR_HORIZ(i)        (0x0e04 + (i) * 16)
#define SCISSOR_VERT(i)         (0x0e08 + (i) * 16)
#define ZETA_ADDRESS_HIGH       0x0fe0
#define ZETA_ADDRESS_LOW        0x0fe4
#define ZETA_FORMAT             0x0fe8
#define ZETA_LAYER_STRIDE       0x0ff0
#define ZETA_HORIZ              0x1228
#define ZETA_VERT               0x122c
#define ZETA_ARRAY_MODE         0x1230
#define ZETA_ENABLE             0x1538
#define DEPTH_TEST_ENABLE       0x12cc
#define DEPTH_WRITE_ENABLE      0x12e8
#define DEPTH_TEST_FUNC         0x130c
#define FUNC_LESS               0x201
#define FMT_Z32_FLOAT           0x0a
#define ZETA_LAYER_BYTES        0x10000     /* past a 64x64 Z32 layer */

#define RT_W        64
#define LAYERS      4
#define LAYER_BYTES (RT_W * RT_W * 16)
#define QUADS_MAX   8

/* vertex k of the input triangle: position $r0-$r3, colour $r4-$r6 */
#define GP_VERTEX(k) \
    "shl $a1 a[" #k "] 0x0\n" \
    "mov b32 $r0 p[$a1]\n" "mov b32 $r1 p[$a1+0x4]\n" \
    "mov b32 $r2 p[$a1+0x8]\n" "mov b32 $r3 p[$a1+0xc]\n" \
    "mov b32 $r4 p[$a1+0x10]\n" "mov b32 $r5 p[$a1+0x14]\n" \
    "mov b32 $r6 p[$a1+0x18]\n" \
    "mov b32 o[0x0] $r0\n" "mov b32 o[0x4] $r1\n" \
    "mov b32 o[0x8] $r2\n" "mov b32 o[0xc] $r3\n" \
    "mov b32 o[0x10] $r4\n" "mov b32 o[0x14] $r5\n" \
    "mov b32 o[0x18] $r6\n" "mov b32 o[0x1c] $r14\n" \
    "mov b32 o[0x20] $r12\n" "mov b32 o[0x24] $r13\n" "emit\n"

/*
 * The GP: the triangle as it is, with gl_Layer (o[0x20]) the low byte
 * of its first vertex's word 7 and gl_ViewportIndex (o[0x24]) the rest.
 */
static const char gp_src[] =
    "shl $a1 a[0x0] 0x0\n"
    "mov b32 $r7 p[$a1+0x1c]\n"
    "and b32 $r12 $r7 0xff\n"
    "shr u32 $r13 $r7 0x8\n"
    "mov b32 $r14 0x3f800000\n"             /* 1.0 */
    GP_VERTEX(0x0) GP_VERTEX(0x4) GP_VERTEX(0x8)
    "exit nop\n";

/* the FP: colour r, g of the interpolants, b the window z, a 1 */
static const char fp_src[] =
    "interp $r0 v[0x10]\n" "interp $r1 v[0x14]\n"
    "interp $r2 v[0x8]\n" "mov b32 $r3 0x3f800000\n"
    "exit nop\n";

/* One quad: NDC [-1.5, 1.5]^2 at z, for the GP's layer and viewport. */
typedef struct Quad {
    uint32_t layer, viewport;
    float z;
} Quad;

/* viewport i: the 32x32 quadrant (qx, qy), its depth range, scissor */
static int vp_qx(unsigned i)
{
    return 32 * (i & 1);
}

static int vp_qy(unsigned i)
{
    return 32 * ((i >> 1) & 1);
}

static float vp_near(unsigned i)
{
    return 0.2f + 0.1f * i;
}

static float vp_far(unsigned i)
{
    return 0.3f + 0.1f * i;
}

/* scissor i: [x0, x1) x [y0, y1), inside the quadrant, a different one */
static void vp_scissor(unsigned i, int r[4])
{
    r[0] = vp_qx(i) + 1 + i;
    r[1] = vp_qx(i) + 30;
    r[2] = vp_qy(i) + 2;
    r[3] = vp_qy(i) + 31 - i;
}

static void setup(void)
{
    gr_rig_init();
    gr_bind(DRAW_SUBC, gr_object(0x8297, H_3D));
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    nv50_3d_draw_set_emit(state(), NULL, NULL);
    /* o[0..7]: position, colour and the GP's selector word */
    passthrough_vp(VA_VPCODE, VA_VB0, VA_VB1);
    load_prog(VA_GPCODE, TESLA_PROG_GP, gp_src);
    fp_linear4(VA_FPCODE, fp_src);
    m(NV50_3D_GP_ADDRESS_HIGH, (uint32_t)(VA_GPCODE >> 32));
    m(NV50_3D_GP_ADDRESS_LOW, (uint32_t)VA_GPCODE);
    /* the GP and its linkage, as nv50_fp_linkage_validate sends it */
    m(NV50_3D_GP_START_ID, 0);
    m(NV50_3D_GP_REG_ALLOC_TEMP, 16);
    m(NV50_3D_GP_REG_ALLOC_RESULT, 10);
    m(NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE,
      NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP);
    m(NV50_3D_GP_VERTEX_OUTPUT_COUNT, 3);
    m(NV50_3D_GP_RESULT_MAP_SIZE, 10);
    m(NV50_3D_GP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_GP_RESULT_MAP(1), 0x07060504);
    m(NV50_3D_GP_RESULT_MAP(2), 0x0908);
    m(NV50_3D_GP_ENABLE, 1);
    m(NV50_3D_SEMANTIC_LAYER, 8);
    m(NV50_3D_SEMANTIC_VIEWPORT, 9);
    m(NV50_3D_GP_VIEWPORT_ID_ENABLE, 1);
    m(NV50_3D_LAYER, NV50_3D_LAYER_USE_GP);
    /* 4 viewports in the quadrants, z * 0.25 + 0.25 + 0.1 i */
    for (unsigned i = 0; i < 4; i++) {
        uint32_t vo = i * NV50_3D_VIEWPORT_STRIDE;
        uint32_t dro = i * NV50_3D_DEPTH_RANGE_STRIDE;
        int sc[4];

        mf(NV50_3D_VIEWPORT_SCALE_X + vo, 16.0f);
        mf(NV50_3D_VIEWPORT_SCALE_X + vo + 4, 16.0f);
        mf(NV50_3D_VIEWPORT_SCALE_X + vo + 8, 0.25f);
        mf(NV50_3D_VIEWPORT_TRANSLATE_X + vo, vp_qx(i) + 16.0f);
        mf(NV50_3D_VIEWPORT_TRANSLATE_X + vo + 4, vp_qy(i) + 16.0f);
        mf(NV50_3D_VIEWPORT_TRANSLATE_X + vo + 8, 0.25f + 0.1f * i);
        mf(NV50_3D_DEPTH_RANGE_NEAR + dro, vp_near(i));
        mf(NV50_3D_DEPTH_RANGE_FAR + dro, vp_far(i));
        vp_scissor(i, sc);
        m(SCISSOR_ENABLE(i), 1);
        m(SCISSOR_HORIZ(i), (uint32_t)sc[1] << 16 | sc[0]);
        m(SCISSOR_VERT(i), (uint32_t)sc[3] << 16 | sc[2]);
    }
    m(NV50_3D_VIEWPORT_TRANSFORM_EN, 1);
    m(NV50_3D_VIEW_VOLUME_CLIP_CTRL, 0x1080);
    m(NV50_3D_RASTERIZE_ENABLE, 1);
    m(NV50_3D_FRONT_FACE, NV50_3D_FRONT_FACE_CCW);
    m(NV50_3D_PROVOKING_VERTEX_LAST, 1);
    /* a linear 64x64 RGBA32_FLOAT array of 4 layers */
    rt0_rgba32f(VA_RT, RT_W, RT_W, LAYERS);
}

static void teardown(void)
{
    gr_rig_teardown();
}

/* Quad j's colour: (j + 1, 10 (j + 1)) */
static float quad_r(unsigned j)
{
    return j + 1.0f;
}

static float quad_g(unsigned j)
{
    return 10.0f * (j + 1);
}

/* The quads as two triangles each, then one draw of them. */
static void draw_quads(const Quad *q, unsigned n)
{
    static const float corner[6][2] = {
        { -1.5f, -1.5f }, { 1.5f, -1.5f }, { -1.5f, 1.5f },
        { -1.5f, 1.5f }, { 1.5f, -1.5f }, { 1.5f, 1.5f },
    };

    for (unsigned j = 0; j < n; j++) {
        for (unsigned k = 0; k < 6; k++) {
            uint64_t o = 16 * (6 * j + k);
            uint32_t sel = q[j].layer | q[j].viewport << 8;

            gr_wr32(VA_VB0 + o, f2u(corner[k][0]));
            gr_wr32(VA_VB0 + o + 4, f2u(corner[k][1]));
            gr_wr32(VA_VB0 + o + 8, f2u(q[j].z));
            gr_wr32(VA_VB0 + o + 12, f2u(1.0f));
            gr_wr32(VA_VB1 + o, f2u(quad_r(j)));
            gr_wr32(VA_VB1 + o + 4, f2u(quad_g(j)));
            gr_wr32(VA_VB1 + o + 8, 0);
            gr_wr32(VA_VB1 + o + 12, sel);
        }
    }
    draw_arrays(NV50_GL_TRIANGLES, 0, 6 * n);
}

/* The reference: r, g, z of every pixel of every layer (-1: untouched) */
typedef struct Ref {
    float px[LAYERS][RT_W][RT_W][3];
} Ref;

/*
 * What @n quads draw: into layer @layer_of(q) (the GP's, 0 past the
 * array's 4, or @idx without USE_GP), inside viewport vp's scissor (the
 * GP's, 0 from 16 on, or 0 without GP_VIEWPORT_ID_ENABLE), at z through
 * that viewport's transform clamped to its depth range; later quads
 * over earlier ones, with @zbuf (cleared to 1) only where z is less.
 */
static void ref_draw_z(Ref *ref, const Quad *q, unsigned n, bool use_gp,
                       uint32_t idx, bool vp_enable, Ref *zbuf)
{
    for (unsigned l = 0; l < LAYERS; l++) {
        for (unsigned y = 0; y < RT_W; y++) {
            for (unsigned x = 0; x < RT_W; x++) {
                for (unsigned c = 0; c < 3; c++) {
                    ref->px[l][y][x][c] = -1.0f;
                }
            }
        }
    }
    for (unsigned j = 0; j < n; j++) {
        unsigned layer = use_gp ? (q[j].layer < LAYERS ? q[j].layer : 0)
                                : idx;
        unsigned vp = vp_enable && q[j].viewport < 16 ? q[j].viewport : 0;
        float z = q[j].z * 0.25f + (0.25f + 0.1f * vp);
        int sc[4];

        z = fminf(fmaxf(z, vp_near(vp)), vp_far(vp));
        vp_scissor(vp, sc);
        for (int y = sc[2]; y < sc[3]; y++) {
            for (int x = sc[0]; x < sc[1]; x++) {
                if (zbuf && !(z < zbuf->px[layer][y][x][0])) {
                    continue;
                }
                if (zbuf) {
                    zbuf->px[layer][y][x][0] = z;
                }
                ref->px[layer][y][x][0] = quad_r(j);
                ref->px[layer][y][x][1] = quad_g(j);
                ref->px[layer][y][x][2] = z;
            }
        }
    }
}

static void ref_draw(Ref *ref, const Quad *q, unsigned n, bool use_gp,
                     uint32_t idx, bool vp_enable)
{
    ref_draw_z(ref, q, n, use_gp, idx, vp_enable, NULL);
}

static float rt_get(unsigned l, int x, int y, unsigned c)
{
    return u2f(gr_rd32(VA_RT + (uint64_t)l * LAYER_BYTES +
                       (uint64_t)y * RT_W * 16 + x * 16 + c * 4));
}

static void check_rt(const Ref *ref)
{
    for (unsigned l = 0; l < LAYERS; l++) {
        for (int y = 0; y < RT_W; y++) {
            for (int x = 0; x < RT_W; x++) {
                for (unsigned c = 0; c < 3; c++) {
                    float got = rt_get(l, x, y, c);
                    float want = ref->px[l][y][x][c];

                    ck_assert_msg(fabsf(got - want) < 1e-4f,
                                  "layer %u pixel %d,%d comp %u: %g, "
                                  "want %g", l, x, y, c, got, want);
                }
            }
        }
    }
}

/* layers and viewports as the GP says, past the ranges: 0, in order */
static const Quad quads[QUADS_MAX] = {
    { 0, 0, 0.0f }, { 1, 3, 0.8f }, { 2, 1, -0.8f }, { 3, 2, 0.0f },
    { 1, 2, 0.8f }, { 7, 3, 0.0f }, { 2, 20, 0.8f }, { 1, 3, -0.8f },
};

START_TEST(gp_layer_and_viewport)
{
    g_autofree Ref *ref = g_new0(Ref, 1);

    draw_quads(quads, QUADS_MAX);
    ck_assert(!(rd32(0x400100) & (NV50_GR_INTR_TRAP |
                                  NV50_GR_INTR_DATA_ERROR)));
    ref_draw(ref, quads, QUADS_MAX, true, 0, true);
    check_rt(ref);
}
END_TEST

/*
 * Without LAYER USE_GP and GP_VIEWPORT_ID_ENABLE the GP's words are
 * plain results: everything goes to LAYER.IDX through viewport 0.
 */
START_TEST(gp_layer_off)
{
    g_autofree Ref *ref = g_new0(Ref, 1);

    m(NV50_3D_LAYER, 2);
    m(NV50_3D_GP_VIEWPORT_ID_ENABLE, 0);
    draw_quads(quads, 3);
    ref_draw(ref, quads, 3, false, 2, false);
    check_rt(ref);
}
END_TEST

/* The viewport alone: every quad into layer 0 (USE_GP off, IDX 0). */
START_TEST(gp_viewport_only)
{
    g_autofree Ref *ref = g_new0(Ref, 1);

    m(NV50_3D_LAYER, 0);
    draw_quads(quads, QUADS_MAX);
    ref_draw(ref, quads, QUADS_MAX, false, 0, true);
    check_rt(ref);
}
END_TEST

/*
 * A layered Z32_FLOAT zeta buffer (ZETA_ARRAY_MODE 4, its own layer
 * stride) with the depth test LESS: each quad is tested against its own
 * layer's depths (a layer past 4 against layer 0's).
 */
START_TEST(gp_layer_depth)
{
    static const Quad zq[] = {
        { 0, 0, 0.8f }, { 1, 0, -0.8f }, { 0, 0, 0.0f }, { 1, 0, 0.0f },
        { 9, 1, -0.8f }, { 2, 1, 0.0f }, { 2, 1, 0.8f },
    };
    const unsigned n = G_N_ELEMENTS(zq);
    g_autofree Ref *ref = g_new0(Ref, 1);
    g_autofree Ref *zbuf = g_new0(Ref, 1);

    for (unsigned i = 0; i < LAYERS * ZETA_LAYER_BYTES / 4; i++) {
        gr_wr32(VA_ZETA + 4 * i, f2u(1.0f));
    }
    for (unsigned l = 0; l < LAYERS; l++) {
        for (unsigned y = 0; y < RT_W; y++) {
            for (unsigned x = 0; x < RT_W; x++) {
                zbuf->px[l][y][x][0] = 1.0f;
            }
        }
    }
    m(ZETA_ADDRESS_HIGH, (uint32_t)(VA_ZETA >> 32));
    m(ZETA_ADDRESS_LOW, (uint32_t)VA_ZETA);
    m(ZETA_FORMAT, FMT_Z32_FLOAT);
    m(ZETA_LAYER_STRIDE, ZETA_LAYER_BYTES >> 2);
    m(ZETA_HORIZ, RT_W);
    m(ZETA_VERT, RT_W);
    m(ZETA_ARRAY_MODE, LAYERS);
    m(ZETA_ENABLE, 1);
    m(DEPTH_TEST_ENABLE, 1);
    m(DEPTH_WRITE_ENABLE, 1);
    m(DEPTH_TEST_FUNC, FUNC_LESS);
    draw_quads(zq, n);
    ref_draw_z(ref, zq, n, true, 0, true, zbuf);
    check_rt(ref);
}
END_TEST

/* NV50PipePrim.layer and .viewport of each primitive caught */
static uint32_t sel_layer[MAXPRIMS];
static unsigned sel_vp[MAXPRIMS];

static void capture_sel(void *opaque, const NV50PipePrim *p)
{
    sel_layer[cap.n] = p->layer;
    sel_vp[cap.n] = p->viewport;
    capture(opaque, p);
}

/*
 * Before the back end: each primitive carries its provoking vertex's
 * layer as the GP wrote it (the ROP maps it into the array) and its
 * viewport index (16 and more: 0); LAYER.IDX without USE_GP.
 */
START_TEST(gp_prim_selectors)
{
    memset(&cap, 0, sizeof(cap));
    nv50_3d_draw_set_emit(state(), capture_sel, &cap);
    draw_quads(quads, QUADS_MAX);
    ck_assert_uint_eq(cap.n, 2 * QUADS_MAX);
    for (unsigned p = 0; p < cap.n; p++) {
        const Quad *q = &quads[p / 2];

        ck_assert_uint_eq(sel_layer[p], q->layer);
        ck_assert_uint_eq(sel_vp[p], q->viewport < 16 ? q->viewport : 0);
    }
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_LAYER, 3);
    m(NV50_3D_GP_VIEWPORT_ID_ENABLE, 0);
    draw_quads(quads, 2);
    ck_assert_uint_eq(cap.n, 4);
    for (unsigned p = 0; p < cap.n; p++) {
        ck_assert_uint_eq(sel_layer[p], 3);
        ck_assert_uint_eq(sel_vp[p], 0);
    }
}
END_TEST

Suite *nv50_layer_suite(void)
{
    Suite *s = suite_create("nv50_layer");
    TCase *tc = tcase_create("gp layer and viewport");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, gp_layer_and_viewport);
    tcase_add_test(tc, gp_layer_off);
    tcase_add_test(tc, gp_viewport_only);
    tcase_add_test(tc, gp_prim_selectors);
    tcase_add_test(tc, gp_layer_depth);
    suite_add_tcase(s, tc);
    return s;
}
