/*
 * Geometry programs and stream output (hw/nv50/gr/gp.c, strmout.c)
 * on a channel's PGRAPH context: GPs assembled in-tree (Mesa's codegen
 * idiom: `shl $a a[4k] 0` then p[$a + slot]) turning points into quads,
 * the output vertex limit, restart, adjacency inputs in GL's order,
 * PrimitiveID; transform feedback of VP and GP outputs, interleaved and
 * separate, the primitive limit, appending and the latch, the queries
 * and a faulting buffer.  Each against plain C expectations; the
 * primitives are caught before the back end (nv50_3d_draw_set_emit).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "nv50-draw-rig.h"

#define SUBC        DRAW_SUBC
#define H_3D        0xbeef3d01u

#define VA_VPCODE   (GR_VA_DATA + 0x00000)
#define VA_GPCODE   (GR_VA_DATA + 0x08000)
#define VA_VB0      (GR_VA_DATA + 0x20000)
#define VA_VB1      (GR_VA_DATA + 0x30000)
#define VA_SO0      (GR_VA_DATA + 0x40000)
#define VA_SO1      (GR_VA_DATA + 0x48000)
#define VA_QUERY    (GR_VA_DATA + 0x50000)

/*
 * A G84_3D object with Mesa's usual state, passthrough_vp's VP (an
 * identity result map of 8 words, position from array 0, colour from
 * array 1), a 64x64 viewport (x, y -> 32x + 32, 32y + 32).
 */
static void setup_class(uint16_t class_id)
{
    gr_rig_init();
    gr_bind(SUBC, gr_object(class_id, H_3D));
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    m(NV50_3D_DMA_QUERY, GR_DMA_VM);
    nv50_3d_draw_set_emit(state(), capture, &cap);
    passthrough_vp(VA_VPCODE, VA_VB0, VA_VB1);
    gp_suite_state(VA_GPCODE);
}

static void setup(void)
{
    setup_class(0x8297);
}

static void teardown(void)
{
    gr_rig_teardown();
}

/*
 * The GP (code @src) as Mesa's linkage sets it: output type @type,
 * @verts output vertices, its o[0..7] through an identity result map.
 */
static void gp(const char *src, unsigned type, unsigned verts)
{
    load_prog(VA_GPCODE, TESLA_PROG_GP, src);
    m(NV50_3D_GP_START_ID, 0);
    m(NV50_3D_GP_REG_ALLOC_TEMP, 16);
    m(NV50_3D_GP_REG_ALLOC_RESULT, 8);
    m(NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE, type);
    m(NV50_3D_GP_VERTEX_OUTPUT_COUNT, verts);
    m(NV50_3D_GP_RESULT_MAP_SIZE, 8);
    m(NV50_3D_GP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_GP_RESULT_MAP(1), 0x07060504);
    m(NV50_3D_GP_ENABLE, 1);
}

/* vertex @i: position (x, y, 0, 1), colour (i, 10 i, 100 i, 1) */
static void vtx(unsigned i, float x, float y)
{
    const float pos[4] = { x, y, 0.0f, 1.0f };
    const float col[4] = { i, 10.0f * i, 100.0f * i, 1.0f };

    for (unsigned k = 0; k < 4; k++) {
        gr_wr32(VA_VB0 + 16 * i + 4 * k, f2u(pos[k]));
        gr_wr32(VA_VB1 + 16 * i + 4 * k, f2u(col[k]));
    }
}

/* QUERY_GET @get (Mesa's words) at VA_QUERY: word @word of the record */
static uint32_t query(uint32_t get, unsigned word)
{
    m(NV50_3D_QUERY_ADDRESS_HIGH, (uint32_t)(VA_QUERY >> 32));
    m(NV50_3D_QUERY_ADDRESS_LOW, (uint32_t)VA_QUERY);
    m(NV50_3D_QUERY_SEQUENCE, 0x77);
    m(NV50_3D_QUERY_GET, get);
    return gr_rd32(VA_QUERY + 4 * word);
}

#define Q_PRIMS_GENERATED   0x06805002u     /* nv50_query_hw.c */
#define Q_PRIMS_EMITTED     0x05805002u
#define Q_GP_LAUNCHES       0x03806002u
#define Q_GP_PRIMS_OUT      0x04806002u
#define Q_NO_OVERFLOW       0x02005002u

/* a[4k]'s vertex into $a1, its words 0-7 into $r0-$r7 */
#define FETCH(k) \
    "shl $a1 a[" #k "] 0x0\n" \
    "mov b32 $r0 p[$a1]\n" "mov b32 $r1 p[$a1+0x4]\n" \
    "mov b32 $r2 p[$a1+0x8]\n" "mov b32 $r3 p[$a1+0xc]\n" \
    "mov b32 $r4 p[$a1+0x10]\n" "mov b32 $r5 p[$a1+0x14]\n" \
    "mov b32 $r6 p[$a1+0x18]\n" "mov b32 $r7 p[$a1+0x1c]\n"
/* emit position ($r8, $r9, $r2, $r3), colour $r4-$r6 and @w */
#define EMIT(w) \
    "mov b32 o[0x0] $r8\n" "mov b32 o[0x4] $r9\n" \
    "mov b32 o[0x8] $r2\n" "mov b32 o[0xc] $r3\n" \
    "mov b32 o[0x10] $r4\n" "mov b32 o[0x14] $r5\n" \
    "mov b32 o[0x18] $r6\n" "mov b32 o[0x1c] " w "\n" "emit\n"
/* emit input vertex $r0-$r7 as it is, o[0x1c] = @w */
#define PASS(w) \
    "mov b32 o[0x0] $r0\n" "mov b32 o[0x4] $r1\n" \
    "mov b32 o[0x8] $r2\n" "mov b32 o[0xc] $r3\n" \
    "mov b32 o[0x10] $r4\n" "mov b32 o[0x14] $r5\n" \
    "mov b32 o[0x18] $r6\n" "mov b32 o[0x1c] " w "\n" "emit\n"

/* a point into a quad of half-size 0.25, as a strip; w = PrimitiveID */
static const char gp_quad[] =
    FETCH(0x0)
    "mov b32 $r11 a[0x18]\n"                /* PrimitiveID */
    "mov b32 $r9 $r1\n"
    "add f32 $r8 $r0 0xbe800000\n"          /* -0.25 */
    "add f32 $r9 $r1 0xbe800000\n"
    EMIT("$r11")
    "add f32 $r8 $r0 0x3e800000\n"          /* 0.25 */
    EMIT("$r11")
    "add f32 $r8 $r0 0xbe800000\n" "add f32 $r9 $r1 0x3e800000\n"
    EMIT("$r11")
    "add f32 $r8 $r0 0x3e800000\n"
    EMIT("$r11")
    "exit nop\n";

static void check_scr(unsigned p, unsigned k, float x, float y)
{
    ck_assert_msg(fabsf(cap.scr[p][k].x - x) < 1e-4 &&
                  fabsf(cap.scr[p][k].y - y) < 1e-4,
                  "prim %u vertex %u: (%g, %g), want (%g, %g)", p, k,
                  cap.scr[p][k].x, cap.scr[p][k].y, x, y);
}

START_TEST(gp_points_to_quads)
{
    static const float pt[3][2] = {
        { -0.5f, -0.5f }, { 0.25f, 0.5f }, { 0.5f, -0.25f },
    };
    /* strip corners (dx, dy) and GL's strip triangles of 4 vertices */
    static const int corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 },
                                      { 1, 1 } };
    static const unsigned tri[2][3] = { { 0, 1, 2 }, { 2, 1, 3 } };

    for (unsigned i = 0; i < 3; i++) {
        vtx(i, pt[i][0], pt[i][1]);
    }
    gp(gp_quad, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP, 4);
    draw_arrays(NV50_GL_POINTS, 0, 3);
    ck_assert_uint_eq(cap.n, 6);
    for (unsigned p = 0; p < 6; p++) {
        unsigned i = p / 2;

        ck_assert_uint_eq(cap.kind[p], NV50_PRIM_TRIANGLES);
        for (unsigned k = 0; k < 3; k++) {
            const int *c = corner[tri[p % 2][k]];

            check_scr(p, k, (pt[i][0] + 0.25f * c[0]) * 32 + 32,
                      (pt[i][1] + 0.25f * c[1]) * 32 + 32);
            ck_assert_uint_eq(cap.out[p][k][4], f2u(i));
            ck_assert_uint_eq(cap.out[p][k][7], i);     /* PrimitiveID */
        }
    }
    ck_assert_uint_eq(query(Q_GP_LAUNCHES, 0), 3);
    ck_assert_uint_eq(query(Q_GP_PRIMS_OUT, 0), 6);
    ck_assert_uint_eq(query(Q_PRIMS_GENERATED, 0), 6);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_PRIMITIVES],
                      3);
}
END_TEST

#define RT_W                    64
#define VA_FPCODE               (GR_VA_DATA + 0x10000)
#define VA_RT                   (GR_VA_DATA + 0x60000)

static float rt_get(int x, int y, unsigned c)
{
    return u2f(gr_rd32(VA_RT + (uint64_t)y * RT_W * 16 + x * 16 + c * 4));
}

/*
 * Through the back end: the quads (16 pixels a side) drawn into a 64x64
 * RGBA32_FLOAT render target by an FP writing the colour interpolants,
 * every pixel against the quads' C coverage (edges on pixel boundaries:
 * no ties).
 */
START_TEST(gp_quads_drawn)
{
    static const float pt[3][2] = {
        { -0.5f, -0.5f }, { 0.25f, 0.5f }, { 0.5f, -0.25f },
    };

    for (unsigned i = 0; i < 3; i++) {
        vtx(i, pt[i][0], pt[i][1]);
    }
    nv50_3d_draw_set_emit(state(), NULL, NULL);
    rt0_rgba32f(VA_RT, RT_W, RT_W, 1);
    fp_linear4(VA_FPCODE,
               "interp $r0 v[0x10]\n" "interp $r1 v[0x14]\n"
               "interp $r2 v[0x18]\n" "interp $r3 v[0x1c]\n"
               "exit nop\n");
    gp(gp_quad, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP, 4);
    draw_arrays(NV50_GL_POINTS, 0, 3);
    for (int y = 0; y < RT_W; y++) {
        for (int x = 0; x < RT_W; x++) {
            int in = -1;

            for (unsigned i = 0; i < 3; i++) {
                int x0 = (int)((pt[i][0] - 0.25f) * 32 + 32);
                int y0 = (int)((pt[i][1] - 0.25f) * 32 + 32);

                if (x >= x0 && x < x0 + 16 && y >= y0 && y < y0 + 16) {
                    in = i;
                }
            }
            for (unsigned c = 0; c < 3; c++) {
                static const float scale[3] = { 1.0f, 10.0f, 100.0f };
                float want = in < 0 ? -1.0f : in * scale[c];

                ck_assert_msg(fabsf(rt_get(x, y, c) - want) < 1e-4,
                              "pixel %d,%d comp %u: %g, want %g", x, y, c,
                              rt_get(x, y, c), want);
            }
        }
    }
}
END_TEST

/* many points: more than a warp, and across batches of the MPs */
START_TEST(gp_many_points)
{
    enum { N = 70 };

    for (unsigned i = 0; i < N; i++) {
        vtx(i, (float)(i % 8) / 8 - 0.5f, (float)(i / 8) / 16 - 0.5f);
    }
    gp(gp_quad, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS, 4);
    m(NV50_3D_RASTERIZE_ENABLE, 0);     /* count only */
    draw_arrays(NV50_GL_POINTS, 0, N);
    ck_assert_uint_eq(cap.n, 0);
    ck_assert_uint_eq(query(Q_GP_LAUNCHES, 0), N);
    ck_assert_uint_eq(query(Q_GP_PRIMS_OUT, 0), 4 * N);
    m(NV50_3D_RASTERIZE_ENABLE, 1);
    m(NV50_3D_COUNTER_RESET, 0x1a);     /* GP_LAUNCHES */
    draw_arrays(NV50_GL_POINTS, 40, 30);
    ck_assert_uint_eq(cap.n, 4 * 30);
    ck_assert_uint_eq(query(Q_GP_LAUNCHES, 0), 30);
    for (unsigned p = 0; p < cap.n; p++) {
        unsigned i = 40 + p / 4;

        ck_assert_uint_eq(cap.kind[p], NV50_PRIM_POINTS);
        ck_assert_uint_eq(cap.out[p][0][4], f2u(i));
        ck_assert_uint_eq(cap.out[p][0][7], p / 4);
    }
}
END_TEST

/* six emits of one vertex, x moved by 1/8 each time */
static const char gp_six[] =
    FETCH(0x0)
    "mov b32 $r9 $r1\n" "mov b32 $r8 $r0\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0")
    "exit nop\n";

START_TEST(gp_vertex_limit)
{
    vtx(0, 0.0f, 0.0f);
    vtx(1, -0.5f, 0.5f);
    /* points: GP_VERTEX_OUTPUT_COUNT 4 keeps each thread's first 4 */
    gp(gp_six, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS, 4);
    draw_arrays(NV50_GL_POINTS, 0, 2);
    ck_assert_uint_eq(cap.n, 8);
    for (unsigned p = 0; p < 8; p++) {
        float x0 = p < 4 ? 0.0f : -0.5f, y0 = p < 4 ? 0.0f : 0.5f;

        check_scr(p, 0, (x0 + (p % 4) / 8.0f) * 32 + 32, y0 * 32 + 32);
    }
    /* a line strip of all six: five lines, provoking the last */
    cap.n = 0;
    gp(gp_six, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_LINE_STRIP, 6);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 5);
    for (unsigned p = 0; p < 5; p++) {
        ck_assert_uint_eq(cap.kind[p], NV50_PRIM_LINES);
        check_scr(p, 0, p * 4.0f + 32, 32);
        check_scr(p, 1, (p + 1) * 4.0f + 32, 32);
    }
}
END_TEST

/* v0 v1 restart v2 v3 v4: the restart starts a new strip */
static const char gp_restart[] =
    FETCH(0x0)
    "mov b32 $r9 $r1\n" "mov b32 $r8 $r0\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    "restart\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0") "add f32 $r8 $r8 0x3e000000\n"
    EMIT("$r0")
    "exit nop\n";

START_TEST(gp_restart_strips)
{
    vtx(0, 0.0f, 0.0f);
    gp(gp_restart, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_LINE_STRIP, 16);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    /* (0,1), then (2,3), (3,4) */
    ck_assert_uint_eq(cap.n, 3);
    check_scr(0, 0, 32, 32);
    check_scr(0, 1, 36, 32);
    check_scr(1, 0, 40, 32);
    check_scr(1, 1, 44, 32);
    check_scr(2, 0, 44, 32);
    check_scr(2, 1, 48, 32);
    /* triangle strips: the 2 vertices before the restart make nothing,
       (2,3,4) one triangle (degenerate: what the clipper does with it
       is not the point) */
    cap.n = 0;
    gp(gp_restart, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP, 16);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(query(Q_GP_PRIMS_OUT, 0), 3 + 1);
}
END_TEST

/* every input vertex re-emitted as a point, o[0x1c] = its index */
#define PASS4 \
    FETCH(0x0) PASS("$r4") FETCH(0x4) PASS("$r4") \
    FETCH(0x8) PASS("$r4") FETCH(0xc) PASS("$r4")
static const char gp_adj6[] =
    PASS4 FETCH(0x10) PASS("$r4") FETCH(0x14) PASS("$r4") "exit nop\n";
static const char gp_adj4[] = PASS4 "exit nop\n";

/*
 * Draw @count vertices as @prim: the input vertices (colour r = index)
 * the GP saw, thread by thread, are @want[0..n)
 */
static void check_inputs(unsigned prim, unsigned count, const unsigned *want,
                         unsigned n)
{
    cap.n = 0;
    draw_arrays(prim, 0, count);
    ck_assert_uint_eq(cap.n, n);
    for (unsigned p = 0; p < n; p++) {
        ck_assert_msg(cap.out[p][0][4] == f2u(want[p]),
                      "point %u: vertex %g, want %u", p,
                      u2f(cap.out[p][0][4]), want[p]);
    }
}

START_TEST(gp_adjacency)
{
    /* GL 3.2 tables 2.?: strips with adjacency, 0-based, v0 a0 v1 a1 .. */
    static const unsigned tri_adj[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                        11 };
    static const unsigned strip1[] = { 0, 1, 2, 5, 4, 3 };
    static const unsigned strip4[] = {
        0, 1, 2, 6, 4, 3,       /* first */
        4, 0, 2, 5, 6, 8,       /* odd, middle */
        4, 2, 6, 10, 8, 7,      /* even, middle */
        8, 4, 6, 9, 10, 11,     /* odd, last */
    };
    static const unsigned line_adj[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    static const unsigned line_strip_adj[] = { 0, 1, 2, 3, 1, 2, 3, 4 };

    for (unsigned i = 0; i < 12; i++) {
        vtx(i, i / 16.0f, (i & 1) / 4.0f);
    }
    gp(gp_adj6, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS, 6);
    check_inputs(NV50_GL_TRIANGLES_ADJ, 12, tri_adj, 12);
    check_inputs(NV50_GL_TRIANGLE_STRIP_ADJ, 6, strip1, 6);
    check_inputs(NV50_GL_TRIANGLE_STRIP_ADJ, 12, strip4, 24);
    gp(gp_adj4, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS, 4);
    check_inputs(NV50_GL_LINES_ADJ, 8, line_adj, 8);
    check_inputs(NV50_GL_LINE_STRIP_ADJ, 5, line_strip_adj, 8);
}
END_TEST

/* --- stream output --- */

/*
 * Stream out interleaved to buffer 0 at VA_SO0: @n words a vertex,
 * @stride bytes, result k of the map to word so_pos[k] (-1: none).
 */
static void so_interleaved(unsigned n, unsigned stride, const int *so_pos,
                           unsigned nmap)
{
    uint32_t w[2] = { 0, 0 };

    for (unsigned k = 0; k < nmap; k++) {
        if (so_pos[k] >= 0) {
            w[k / 4] |= (0x80u | so_pos[k]) << (8 * (k % 4));
        }
    }
    m(NV50_3D_STRMOUT_ENABLE, 0);
    m(NV50_3D_STRMOUT_BUFFERS_CTRL, NV50_3D_STRMOUT_BUFFERS_CTRL_INTERLEAVED |
      stride << 8);
    m(NV50_3D_STRMOUT_ADDRESS_HIGH(0), (uint32_t)(VA_SO0 >> 32));
    m(NV50_3D_STRMOUT_ADDRESS_LOW(0), (uint32_t)VA_SO0);
    m(NV50_3D_STRMOUT_NUM_ATTRIBS(0), n);
    m(NV50_3D_STRMOUT_PRIMITIVE_LIMIT, 1000);
    m(NV50_3D_STRMOUT_MAP(0), w[0]);
    m(NV50_3D_STRMOUT_MAP(1), w[1]);
    m(NV50_3D_STRMOUT_PARAMS_LATCH, 1);
    m(NV50_3D_STRMOUT_ENABLE, 1);
}

static void fill(uint64_t va, unsigned words)
{
    for (unsigned i = 0; i < words; i++) {
        gr_wr32(va + 4 * i, 0xdeadbeef);
    }
}

START_TEST(so_vp_interleaved)
{
    /* y, x, colour g; stride 5 words (word 3 skipped, 4 past the end) */
    static const int pos[8] = { 1, 0, -1, -1, -1, 2, -1, -1 };
    static const unsigned strip[2][3] = { { 0, 1, 2 }, { 2, 1, 3 } };
    const float xy[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };

    for (unsigned i = 0; i < 4; i++) {
        vtx(i, xy[i][0] / 2, xy[i][1] / 2);
    }
    fill(VA_SO0, 64);
    so_interleaved(3, 20, pos, 8);
    m(NV50_3D_RASTERIZE_ENABLE, 0);     /* rasterizer discard */
    draw_arrays(NV50_GL_TRIANGLE_STRIP, 0, 4);
    ck_assert_uint_eq(cap.n, 0);
    for (unsigned t = 0; t < 2; t++) {
        for (unsigned k = 0; k < 3; k++) {
            unsigned i = strip[t][k];
            uint64_t va = VA_SO0 + 20 * (3 * t + k);

            ck_assert_uint_eq(gr_rd32(va), f2u(xy[i][1] / 2));
            ck_assert_uint_eq(gr_rd32(va + 4), f2u(xy[i][0] / 2));
            ck_assert_uint_eq(gr_rd32(va + 8), f2u(10.0f * i));
            ck_assert_uint_eq(gr_rd32(va + 12), 0xdeadbeef);
            ck_assert_uint_eq(gr_rd32(va + 16), 0xdeadbeef);
        }
    }
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 20 * 6), 0xdeadbeef);
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 2);
    ck_assert_uint_eq(query(Q_PRIMS_GENERATED, 0), 2);
    ck_assert_uint_eq(query(Q_NO_OVERFLOW, 1), 1);
    /* the next draw appends; the latch starts again at 0 */
    m(NV50_3D_RASTERIZE_ENABLE, 1);
    draw_arrays(NV50_GL_POINTS, 3, 1);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 20 * 6 + 8), f2u(30.0f));
    m(NV50_3D_STRMOUT_PARAMS_LATCH, 1);
    draw_arrays(NV50_GL_POINTS, 1, 1);
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 8), f2u(10.0f));
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 4);
    /* STRMOUT_ENABLE 0: nothing more */
    m(NV50_3D_STRMOUT_ENABLE, 0);
    draw_arrays(NV50_GL_POINTS, 2, 1);
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 8), f2u(10.0f));
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 4);
    ck_assert_uint_eq(query(Q_PRIMS_GENERATED, 0), 5);
}
END_TEST

START_TEST(so_separate_and_limit)
{
    /* buffer 0: x, y (words 0-1); buffer 1 (from word 4): colour r g b */
    static const int pos[8] = { 0, 1, -1, -1, 4, 5, 6, -1 };
    uint32_t w0 = 0, w1 = 0;

    for (unsigned k = 0; k < 8; k++) {
        if (pos[k] >= 0) {
            *(k < 4 ? &w0 : &w1) |= (0x80u | pos[k]) << (8 * (k % 4));
        }
    }
    for (unsigned i = 0; i < 6; i++) {
        vtx(i, i / 8.0f, -(float)i / 8.0f);
    }
    fill(VA_SO0, 64);
    fill(VA_SO1, 64);
    m(NV50_3D_STRMOUT_BUFFERS_CTRL, 2 << 4);    /* SEPARATE, 2 buffers */
    for (unsigned b = 0; b < 2; b++) {
        uint64_t va = b ? VA_SO1 : VA_SO0;

        m(NV50_3D_STRMOUT_ADDRESS_HIGH(b), (uint32_t)(va >> 32));
        m(NV50_3D_STRMOUT_ADDRESS_LOW(b), (uint32_t)va);
        m(NV50_3D_STRMOUT_NUM_ATTRIBS(b), b ? 3 : 2);
    }
    m(NV50_3D_STRMOUT_PRIMITIVE_LIMIT, 2);
    m(NV50_3D_STRMOUT_MAP(0), w0);
    m(NV50_3D_STRMOUT_MAP(1), w1);
    m(NV50_3D_STRMOUT_PARAMS_LATCH, 1);
    m(NV50_3D_STRMOUT_ENABLE, 1);
    draw_arrays(NV50_GL_LINES, 0, 6);           /* 3 lines, 2 fit */
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(gr_rd32(VA_SO0 + 8 * i), f2u(i / 8.0f));
        ck_assert_uint_eq(gr_rd32(VA_SO0 + 8 * i + 4), f2u(-(float)i / 8));
        ck_assert_uint_eq(gr_rd32(VA_SO1 + 12 * i), f2u(i));
        ck_assert_uint_eq(gr_rd32(VA_SO1 + 12 * i + 4), f2u(10.0f * i));
        ck_assert_uint_eq(gr_rd32(VA_SO1 + 12 * i + 8), f2u(100.0f * i));
    }
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 32), 0xdeadbeef);
    ck_assert_uint_eq(gr_rd32(VA_SO1 + 48), 0xdeadbeef);
    ck_assert_uint_eq(cap.n, 3);                /* all drawn */
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 2);
    ck_assert_uint_eq(query(Q_PRIMS_GENERATED, 0), 3);
    ck_assert_uint_eq(query(Q_NO_OVERFLOW, 1), 0);
    m(NV50_3D_COUNTER_RESET, 0x10);             /* TRANSFORM_FEEDBACK */
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 0);
}
END_TEST

START_TEST(so_gp_output)
{
    /* x, y, PrimitiveID of every vertex the GP emits */
    static const int pos[8] = { 0, 1, -1, -1, -1, -1, -1, 2 };
    static const int corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 },
                                      { 1, 1 } };
    static const unsigned tri[2][3] = { { 0, 1, 2 }, { 2, 1, 3 } };

    vtx(0, 0.0f, 0.0f);
    vtx(1, 0.5f, -0.5f);
    fill(VA_SO0, 64);
    gp(gp_quad, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_TRIANGLE_STRIP, 4);
    so_interleaved(3, 12, pos, 8);
    draw_arrays(NV50_GL_POINTS, 0, 2);
    ck_assert_uint_eq(cap.n, 4);
    for (unsigned t = 0; t < 4; t++) {
        for (unsigned k = 0; k < 3; k++) {
            const int *c = corner[tri[t % 2][k]];
            uint64_t va = VA_SO0 + 12 * (3 * t + k);
            float x = t < 2 ? 0.0f : 0.5f, y = t < 2 ? 0.0f : -0.5f;

            ck_assert_uint_eq(gr_rd32(va), f2u(x + 0.25f * c[0]));
            ck_assert_uint_eq(gr_rd32(va + 4), f2u(y + 0.25f * c[1]));
            ck_assert_uint_eq(gr_rd32(va + 8), t / 2);
        }
    }
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 12 * 12), 0xdeadbeef);
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 4);
    ck_assert_uint_eq(query(Q_PRIMS_GENERATED, 0), 4);
}
END_TEST

/* G200_3D: LIMIT_MODE OFFSET, STRMOUT_OFFSET resumed, its query */
START_TEST(so_g200_offsets)
{
    static const int pos[8] = { 0, -1, -1, -1, 1, -1, -1, -1 };

    gr_rig_teardown();
    setup_class(0x8397);
    for (unsigned i = 0; i < 4; i++) {
        vtx(i, i / 4.0f, 0.0f);
    }
    fill(VA_SO0, 64);
    so_interleaved(2, 8, pos, 8);
    m(NV50_3D_STRMOUT_BUFFERS_CTRL, NV50_3D_STRMOUT_BUFFERS_CTRL_INTERLEAVED |
      NV50_3D_STRMOUT_BUFFERS_CTRL_LIMIT_MODE_OFFSET | 8 << 8);
    m(NV50_3D_STRMOUT_OFFSET_LIMIT(0), 40);     /* 5 vertices fit */
    m(NV50_3D_STRMOUT_OFFSET(0), 16);           /* resume at vertex 2 */
    m(NV50_3D_STRMOUT_PARAMS_LATCH, 1);
    draw_arrays(NV50_GL_POINTS, 0, 4);          /* 3 fit */
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(gr_rd32(VA_SO0 + 16 + 8 * i), f2u(i / 4.0f));
        ck_assert_uint_eq(gr_rd32(VA_SO0 + 20 + 8 * i), f2u(i));
    }
    ck_assert_uint_eq(gr_rd32(VA_SO0 + 40), 0xdeadbeef);
    ck_assert_uint_eq(gr_rd32(VA_SO0), 0xdeadbeef);
    /* QUERY STRMOUT_OFFSET[0] (Mesa's save), STRMOUT_VERTICES */
    ck_assert_uint_eq(query(0x0d005002, 1), 40);
    ck_assert_uint_eq(query(0x04005002, 1), 3);
    ck_assert_uint_eq(query(Q_NO_OVERFLOW, 1), 0);
}
END_TEST

START_TEST(so_fault)
{
    static const int pos[8] = { 0, -1, -1, -1, -1, -1, -1, -1 };

    vtx(0, 0.0f, 0.0f);
    so_interleaved(1, 4, pos, 8);
    m(NV50_3D_STRMOUT_ADDRESS_LOW(0), 0x80000000u);     /* no pages */
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert(rd32(0x400100) & NV50_GR_INTR_TRAP);
    ck_assert(rd32(0x400108) & NV50_GR_TRAP_STRMOUT);
    ck_assert_uint_eq(cap.n, 1);                /* still drawn */
    ck_assert_uint_eq(query(Q_PRIMS_EMITTED, 0), 0);
}
END_TEST

START_TEST(gp_trap_and_bad_type)
{
    vtx(0, 0.0f, 0.0f);
    gp(gp_quad, 7, 4);                  /* not an output type */
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 0);
    ck_assert(rd32(0x400100) & NV50_GR_INTR_DATA_ERROR);
    wr32(0x400100, 0xffffffff);
    gp(gp_quad, NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS, 4);
    gr_wr32(VA_GPCODE, 0xffffffff);     /* not an instruction */
    gr_wr32(VA_GPCODE + 4, 0xffffffff);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 0);
    ck_assert(rd32(0x400100) & NV50_GR_INTR_TRAP);
}
END_TEST

Suite *nv50_gp_suite(void)
{
    Suite *s = suite_create("nv50_gp");
    TCase *tc = tcase_create("gp and strmout");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, gp_points_to_quads);
    tcase_add_test(tc, gp_quads_drawn);
    tcase_add_test(tc, gp_many_points);
    tcase_add_test(tc, gp_vertex_limit);
    tcase_add_test(tc, gp_restart_strips);
    tcase_add_test(tc, gp_adjacency);
    tcase_add_test(tc, so_vp_interleaved);
    tcase_add_test(tc, so_separate_and_limit);
    tcase_add_test(tc, so_gp_output);
    tcase_add_test(tc, so_g200_offsets);
    tcase_add_test(tc, so_fault);
    tcase_add_test(tc, gp_trap_and_bad_type);
    suite_add_tcase(s, tc);
    return s;
}
