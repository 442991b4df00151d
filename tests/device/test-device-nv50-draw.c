/*
 * The 3D pipeline's front end (hw/nv50/gr/3d-draw.c, vfetch.c, vp.c,
 * clip.c) on a channel's PGRAPH context: vertex formats against a C
 * reference, VPs assembled in-tree transforming vertices on the MPs,
 * draws of every kind (arrays, u8/u16/u32 indices with SETUP offsets,
 * restart, inline VERTEX_DATA, immediate VTX_ATTR vertices, instancing
 * with divisors, VertexID/InstanceID), and the NV50PipePrims clip,
 * viewport and culling hand on, caught before the back end.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "nv50-draw-rig.h"
#include "gemu/half.h"

#define SUBC        DRAW_SUBC
#define H_3D        0xbeef3d01u

#define VA_CODE     (GR_VA_DATA + 0x00000)
#define VA_CB       (GR_VA_DATA + 0x10000)
#define VA_VB0      (GR_VA_DATA + 0x20000)
#define VA_VB1      (GR_VA_DATA + 0x30000)

#define M_CB_DEF_ADDRESS_HIGH   0x1280
#define M_CB_DEF_ADDRESS_LOW    0x1284
#define M_CB_DEF_SET            0x1288
#define M_SET_PROGRAM_CB        0x1694
#define M_VP_ADDRESS_HIGH       0x0f7c
#define M_VP_ADDRESS_LOW        0x0f80

#define FMT(f, t)   ((uint32_t)(f) << 19 | (uint32_t)(t) << 25)
#define F32x4       0x01
#define F8x4        0x0a
#define T_FLOAT     0x3f
#define T_UNORM     0x12
#define T_UINT      0x24

/* the VP: o[0..3] = a[0..3] with x, y scaled by c0[0]; o[4..7] = a[4..7] */
static const char vp_src[] =
    "ld b32 $r0 a[0x0]\n"
    "ld b32 $r1 a[0x4]\n"
    "ld b32 $r2 a[0x8]\n"
    "ld b32 $r3 a[0xc]\n"
    "ld $r4 b32 c0[0x0]\n"
    "mul f32 $r0 $r0 $r4\n"
    "mul f32 $r1 $r1 $r4\n"
    "mov b32 o[0x0] $r0\n"
    "mov b32 o[0x4] $r1\n"
    "mov b32 o[0x8] $r2\n"
    "mov b32 o[0xc] $r3\n"
    "ld b32 $r5 a[0x10]\n"
    "ld b32 $r6 a[0x14]\n"
    "ld b32 $r7 a[0x18]\n"
    "ld b32 $r8 a[0x1c]\n"
    "mov b32 o[0x10] $r5\n"
    "mov b32 o[0x14] $r6\n"
    "mov b32 o[0x18] $r7\n"
    "mov b32 o[0x1c] $r8\n"
    "exit nop\n";

static void load_vp(const char *src)
{
    load_prog(VA_CODE, TESLA_PROG_VP, src);
}

/*
 * A 3D object with Mesa's usual state: the VP above, c0[0] = @scale,
 * attribute 0 float4 position from array 0, attribute 1 float4 colour
 * from array 1, a 64x64 viewport, depth 0..1, y not flipped.
 */
static void setup(void)
{
    gr_rig_init();
    gr_bind(SUBC, gr_object(0x8297, H_3D));
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);      /* makes the 3D state */
    nv50_3d_draw_set_emit(state(), capture, &cap);
    load_vp(vp_src);
    m(M_VP_ADDRESS_HIGH, (uint32_t)(VA_CODE >> 32));
    m(M_VP_ADDRESS_LOW, (uint32_t)VA_CODE);
    m(NV50_3D_VP_START_ID, 0);
    m(NV50_3D_VP_REG_ALLOC_TEMP, 16);
    m(NV50_3D_VP_REG_ALLOC_RESULT, 8);
    m(NV50_3D_VP_RESULT_MAP_SIZE, 8);
    m(NV50_3D_VP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_VP_RESULT_MAP(1), 0x07060504);
    m(NV50_3D_VP_ATTR_EN(0), 0xff);
    m(M_CB_DEF_ADDRESS_HIGH, (uint32_t)(VA_CB >> 32));
    m(M_CB_DEF_ADDRESS_LOW, (uint32_t)VA_CB);
    m(M_CB_DEF_SET, 1 << 16 | 0x100);
    m(M_SET_PROGRAM_CB, 1 << 12 | 0 << 8 | 0 << 4 | 1);
    gr_wr32(VA_CB, f2u(1.0f));
    m(NV50_3D_VERTEX_ARRAY_ATTRIB(0), FMT(F32x4, T_FLOAT) | 0);
    m(NV50_3D_VERTEX_ARRAY_ATTRIB(1), FMT(F32x4, T_FLOAT) | 1);
    array(0, VA_VB0, 16, 0x1000);
    array(1, VA_VB1, 16, 0x1000);
    viewport_64x64();
    m(NV50_3D_FRONT_FACE, NV50_3D_FRONT_FACE_CCW);
    m(NV50_3D_CULL_FACE, NV50_3D_CULL_FACE_BACK);
    m(NV50_3D_LINE_WIDTH, f2u(1.0f));
    m(NV50_3D_POINT_SIZE, f2u(3.0f));
    m(NV50_3D_PROVOKING_VERTEX_LAST, 1);
}

static void teardown(void)
{
    gr_rig_teardown();
}

/* vertex @i of array 0 (position) and 1 (colour: i, i + 0.25, ...) */
static void vtx(unsigned i, float x, float y, float z, float w)
{
    gr_wr32(VA_VB0 + 16 * i, f2u(x));
    gr_wr32(VA_VB0 + 16 * i + 4, f2u(y));
    gr_wr32(VA_VB0 + 16 * i + 8, f2u(z));
    gr_wr32(VA_VB0 + 16 * i + 12, f2u(w));
    for (unsigned k = 0; k < 4; k++) {
        gr_wr32(VA_VB1 + 16 * i + 4 * k, f2u(i + k * 0.25f));
    }
}

/* which vertex (colour x) vertex @k of captured prim @p came from */
static unsigned who(unsigned p, unsigned k)
{
    return (unsigned)u2f(cap.out[p][k][4]);
}

static void check_scr(unsigned p, unsigned k, float x, float y, float z)
{
    ck_assert_msg(fabsf(cap.scr[p][k].x - x) < 1e-4 &&
                  fabsf(cap.scr[p][k].y - y) < 1e-4 &&
                  fabsf(cap.scr[p][k].z - z) < 1e-5,
                  "prim %u vertex %u: (%g, %g, %g), want (%g, %g, %g)",
                  p, k, cap.scr[p][k].x, cap.scr[p][k].y, cap.scr[p][k].z,
                  x, y, z);
}

/* --- vertex formats against a reference --- */

typedef struct FmtCase {
    unsigned fmt, n, bits;
} FmtCase;

static uint32_t ref_comp(uint32_t raw, unsigned bits, unsigned type)
{
    uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
    int64_t s = raw & mask;

    if (bits < 32 && (s >> (bits - 1))) {
        s -= (int64_t)mask + 1;
    } else if (bits == 32) {
        s = (int32_t)raw;
    }
    raw &= mask;
    switch (type & 7) {
    case 7:
        return bits == 32 ? raw : bits == 16 ? f2u(gemu_half_to_float(raw))
                                             : 0;
    case 2:
        return f2u((float)((double)raw / mask));
    case 1:
        return f2u(fmaxf((float)((double)s / (mask >> 1)), -1.0f));
    case 5:
        return f2u((float)raw);
    case 6:
        return f2u((float)s);
    case 4:
        return raw;
    default:
        return (uint32_t)s;
    }
}

START_TEST(draw_vfetch_formats)
{
    static const FmtCase fc[] = {
        { 0x01, 4, 32 }, { 0x02, 3, 32 }, { 0x03, 4, 16 }, { 0x04, 2, 32 },
        { 0x05, 3, 16 }, { 0x0a, 4, 8 }, { 0x0f, 2, 16 }, { 0x12, 1, 32 },
        { 0x13, 3, 8 }, { 0x18, 2, 8 }, { 0x1b, 1, 16 }, { 0x1d, 1, 8 },
    };
    static const unsigned types[] = { 0x3f, 0x12, 0x09, 0x2d, 0x36, 0x24,
                                      0x1b };
    GRand *rnd = g_rand_new_with_seed(84);

    for (unsigned f = 0; f < G_N_ELEMENTS(fc); f++) {
        for (unsigned t = 0; t < G_N_ELEMENTS(types); t++) {
            for (unsigned bgra = 0; bgra < 2; bgra++) {
                uint32_t attrib = FMT(fc[f].fmt, types[t]) |
                                  (bgra ? 0x80000000u : 0);
                uint8_t b[16];
                uint32_t out[4], want[4];
                bool isint = (types[t] & 7) == 4 || (types[t] & 7) == 3;

                if ((types[t] & 7) == 7 && fc[f].bits == 8) {
                    continue;
                }
                for (unsigned i = 0; i < 16; i++) {
                    b[i] = g_rand_int(rnd);
                }
                ck_assert(nv50_vfetch_decode(attrib, b, out));
                ck_assert_uint_eq(nv50_vfetch_size(attrib),
                                  fc[f].n * fc[f].bits / 8);
                for (unsigned i = 0; i < 4; i++) {
                    if (i < fc[f].n) {
                        uint32_t raw = fc[f].bits == 32 ? ldn_le_p(b + 4 * i, 4)
                                     : fc[f].bits == 16 ? ldn_le_p(b + 2 * i, 2)
                                     : b[i];

                        want[i] = ref_comp(raw, fc[f].bits, types[t]);
                    } else {
                        want[i] = i == 3 ? (isint ? 1 : f2u(1.0f)) : 0;
                    }
                }
                if (bgra) {
                    uint32_t x = want[0];

                    want[0] = want[2];
                    want[2] = x;
                }
                for (unsigned i = 0; i < 4; i++) {
                    ck_assert_msg(out[i] == want[i], "format 0x%x type 0x%x "
                                  "bgra %u comp %u: 0x%08x, want 0x%08x",
                                  fc[f].fmt, types[t], bgra, i, out[i],
                                  want[i]);
                }
            }
        }
    }
    g_rand_free(rnd);
}
END_TEST

START_TEST(draw_vfetch_packed)
{
    uint8_t b[4];
    uint32_t out[4];
    /* r 1023, g 0, b 512, a 3 */
    uint32_t w = 1023 | 0 << 10 | 512u << 20 | 3u << 30;

    stn_le_p(b, 4, w);
    ck_assert(nv50_vfetch_decode(FMT(0x30, T_UNORM), b, out));
    ck_assert_float_eq(u2f(out[0]), 1.0f);
    ck_assert_float_eq(u2f(out[1]), 0.0f);
    ck_assert_float_eq_tol(u2f(out[2]), 512.0f / 1023, 1e-6);
    ck_assert_float_eq(u2f(out[3]), 1.0f);
    ck_assert(nv50_vfetch_decode(FMT(0x30, 0x09), b, out));   /* SNORM */
    ck_assert_float_eq(u2f(out[0]), -1.0f / 511);
    ck_assert_float_eq(u2f(out[2]), -1.0f);
    ck_assert_float_eq(u2f(out[3]), -1.0f);
    /* 11_11_10 float: 1.0 (e 15, m 0), 2.0, 0.5 */
    w = (15u << 6) | (16u << 6) << 11 | (14u << 5) << 22;
    stn_le_p(b, 4, w);
    ck_assert(nv50_vfetch_decode(FMT(0x31, T_FLOAT), b, out));
    ck_assert_float_eq(u2f(out[0]), 1.0f);
    ck_assert_float_eq(u2f(out[1]), 2.0f);
    ck_assert_float_eq(u2f(out[2]), 0.5f);
    ck_assert_float_eq(u2f(out[3]), 1.0f);
    ck_assert(!nv50_vfetch_decode(FMT(0x07, T_FLOAT), b, out));
}
END_TEST

/* --- draws --- */

/* One triangle through the VP (x, y scaled by c0[0]) and the viewport. */
START_TEST(draw_triangle_vp_viewport)
{
    gr_wr32(VA_CB, f2u(0.5f));
    vtx(0, -1, -1, 0, 1);
    vtx(1, 1, -1, 0.5f, 1);
    vtx(2, -1, 1, -0.5f, 2);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_int_eq(cap.kind[0], NV50_PRIM_TRIANGLES);
    check_scr(0, 0, 16, 16, 0.5f);
    check_scr(0, 1, 48, 16, 0.75f);
    check_scr(0, 2, 32 - 8, 32 + 8, 0.5f - 0.125f);
    ck_assert_float_eq(cap.scr[0][2].inv_w, 0.5f);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert_uint_eq(who(0, k), k);
        ck_assert_float_eq(u2f(cap.out[0][k][5]), k + 0.25f);
    }
    ck_assert_uint_eq(who(0, 0), 0);
    ck_assert_float_eq(u2f(cap.prov[0][4]), 2.0f);  /* last vertex */
    /* GL's CCW, but y is not flipped: clockwise on the y-down screen */
    ck_assert(!cap.front[0]);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VP_LAUNCHES], 3);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_VERTICES], 3);
    ck_assert_uint_eq(
        state()->counter[NV50_3D_COUNTER_RAST_PRIMITIVES_POSTCLIP], 1);
}
END_TEST

/*
 * The VP's code kept across draws: rewritten in place between draws
 * (o[4] and o[5] swapped), the new code runs; written back, the old.
 */
START_TEST(draw_vp_code_rewrite)
{
    g_autofree char *swapped = g_strdup(vp_src);
    char *p4 = strstr(swapped, "o[0x10] $r5"), *p5 = strstr(swapped,
                                                            "o[0x14] $r6");

    ck_assert(p4 && p5);
    memcpy(p4, "o[0x14]", 7);
    memcpy(p5, "o[0x10]", 7);
    gr_wr32(VA_CB, f2u(0.5f));
    vtx(0, -1, -1, 0, 1);
    vtx(1, 1, -1, 0.5f, 1);
    vtx(2, -1, 1, -0.5f, 2);
    for (unsigned round = 0; round < 4; round++) {
        bool swap = round == 1 || round == 2;   /* 2: the same words */

        load_vp(swap ? swapped : vp_src);
        memset(&cap, 0, sizeof(cap));
        draw_arrays(NV50_GL_TRIANGLES, 0, 3);
        ck_assert_uint_eq(rd32(0x400100), 0);
        ck_assert_uint_eq(cap.n, 1);
        for (unsigned k = 0; k < 3; k++) {
            ck_assert_float_eq(u2f(cap.out[0][k][4]), (swap ? k + 0.25f : k));
            ck_assert_float_eq(u2f(cap.out[0][k][5]), (swap ? k : k + 0.25f));
        }
    }
}
END_TEST

/* More than 4 warps of vertices: every one through the VP. */
START_TEST(draw_many_points)
{
    for (unsigned i = 0; i < 40; i++) {
        vtx(i, ((float)i - 20) / 32.0f, 0, 0, 1);
    }
    draw_arrays(NV50_GL_POINTS, 0, 40);
    ck_assert_uint_eq(cap.n, 40);
    for (unsigned i = 0; i < 40; i++) {
        ck_assert_int_eq(cap.kind[i], NV50_PRIM_POINTS);
        check_scr(i, 0, 32 + (float)i - 20, 32, 0.5f);
        ck_assert_uint_eq(who(i, 0), i);
    }
    /* 200 points: 7 warps over the 4 MPs */
    memset(&cap, 0, sizeof(cap));
    for (unsigned i = 0; i < 200; i++) {
        vtx(i, 0, 0, 0, 1);
    }
    nv50_3d_draw_set_emit(state(), NULL, NULL);
    draw_arrays(NV50_GL_POINTS, 0, 200);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VP_LAUNCHES], 240);
    ck_assert_uint_eq(
        state()->counter[NV50_3D_COUNTER_RAST_PRIMITIVES_POSTCLIP], 240);
}
END_TEST

/* strips, fans, quads, loops: vertex order and provoking vertices */
START_TEST(draw_assembly)
{
    static const struct {
        unsigned prim, n, nprims;
        uint8_t v[6][3];
    } cases[] = {
        { NV50_GL_TRIANGLE_STRIP, 5, 3,
          { { 0, 1, 2 }, { 2, 1, 3 }, { 2, 3, 4 } } },
        { NV50_GL_TRIANGLE_FAN, 5, 3,
          { { 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 } } },
        { NV50_GL_QUADS, 4, 2, { { 0, 1, 2 }, { 0, 2, 3 } } },
        { NV50_GL_QUAD_STRIP, 6, 4,
          { { 0, 1, 3 }, { 0, 3, 2 }, { 2, 3, 5 }, { 2, 5, 4 } } },
        { NV50_GL_LINE_LOOP, 3, 3, { { 0, 1 }, { 1, 2 }, { 2, 0 } } },
        { NV50_GL_LINE_STRIP, 3, 2, { { 0, 1 }, { 1, 2 } } },
        { NV50_GL_LINES_ADJ, 4, 1, { { 1, 2 } } },
        { NV50_GL_TRIANGLES_ADJ, 6, 1, { { 0, 2, 4 } } },
    };
    static const unsigned prov[] = { 3, 2, 3, 3, 1, 2, 2, 4 };

    /* a zig-zag (anticlockwise pieces are culled: cull off) */
    for (unsigned i = 0; i < 6; i++) {
        vtx(i, (i / 2) * 0.3f - 0.5f, (i & 1) * 0.5f, 0, 1);
    }
    vtx(4, 0.5f, -0.5f, 0, 1);
    for (unsigned c = 0; c < G_N_ELEMENTS(cases); c++) {
        unsigned nv = cases[c].prim <= NV50_GL_LINE_STRIP ||
                      cases[c].prim == NV50_GL_LINES_ADJ ? 2 : 3;

        memset(&cap, 0, sizeof(cap));
        draw_arrays(cases[c].prim, 0, cases[c].n);
        ck_assert_msg(cap.n == cases[c].nprims, "prim %u: %u primitives",
                      cases[c].prim, cap.n);
        for (unsigned p = 0; p < cap.n; p++) {
            for (unsigned k = 0; k < nv; k++) {
                ck_assert_msg(who(p, k) == cases[c].v[p][k], "prim %u: "
                              "primitive %u vertex %u is %u", cases[c].prim,
                              p, k, who(p, k));
            }
        }
        if (cases[c].prim == NV50_GL_TRIANGLE_STRIP ||
            cases[c].prim == NV50_GL_LINE_STRIP) {
            ck_assert_float_eq(u2f(cap.prov[1][4]), prov[c]);
        } else if (cases[c].prim != NV50_GL_LINE_LOOP) {
            ck_assert_float_eq(u2f(cap.prov[0][4]), prov[c]);
        }
    }
    /* first-vertex convention */
    m(NV50_3D_PROVOKING_VERTEX_LAST, 0);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLE_FAN, 0, 4);
    ck_assert_uint_eq(cap.n, 2);
    ck_assert_float_eq(u2f(cap.prov[1][4]), 2.0f);
}
END_TEST

/* u16 and u8 indices with SETUP offsets, u32, restart, the cache */
START_TEST(draw_indices_restart)
{
    for (unsigned i = 0; i < 8; i++) {
        vtx(i, i * 0.1f, (i & 1) * 0.5f, 0, 1);
    }
    m(NV50_3D_VB_ELEMENT_BASE, 1);
    m(NV50_3D_PRIM_RESTART_ENABLE, 1);
    m(NV50_3D_PRIM_RESTART_INDEX, 0xffff);
    /* u16: skip the first, then 2 0 1 3, restart, 4 5 6 (count 8) */
    m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_TRIANGLE_STRIP);
    m(NV50_3D_VB_ELEMENT_U16_SETUP, 2u << 30 | 8);
    m(NV50_3D_VB_ELEMENT_U16, 2u << 16 | 7);
    m(NV50_3D_VB_ELEMENT_U16, 1u << 16 | 0);
    m(NV50_3D_VB_ELEMENT_U16, 0xffffu << 16 | 3);
    m(NV50_3D_VB_ELEMENT_U16, 5u << 16 | 4);
    m(NV50_3D_VB_ELEMENT_U16, 7u << 16 | 5);    /* 7 is past COUNT */
    m(NV50_3D_VB_ELEMENT_U16_SETUP, 0);
    m(NV50_3D_VERTEX_END_GL, 0);
    ck_assert_uint_eq(rd32(0x400100), 0);
    /* fetched at index + 1: 3 1 2 4 | 5 6 6 */
    ck_assert_uint_eq(cap.n, 2);
    ck_assert_uint_eq(who(0, 0), 3);
    ck_assert_uint_eq(who(0, 1), 1);
    ck_assert_uint_eq(who(0, 2), 2);
    ck_assert_uint_eq(who(1, 0), 2);    /* odd: swapped */
    ck_assert_uint_eq(who(1, 1), 1);
    ck_assert_uint_eq(who(1, 2), 4);
    /* after the restart, a degenerate 5 6 6: dropped (zero area) */
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_PRIMITIVES],
                      3);
    /* the vertex cache: 6 twice, one VP run */
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VP_LAUNCHES], 6);

    /* u8 with an offset of 3, then u32 */
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_VB_ELEMENT_BASE, 0);
    m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_TRIANGLES);
    m(NV50_3D_VB_ELEMENT_U8_SETUP, 3u << 30 | 2);
    m(NV50_3D_VB_ELEMENT_U8, 0x02000000u | 0x070707);
    m(NV50_3D_VB_ELEMENT_U8, 0x07070704u);
    m(NV50_3D_VB_ELEMENT_U8_SETUP, 0);
    m(NV50_3D_VB_ELEMENT_U32, 5);
    m(NV50_3D_VERTEX_END_GL, 0);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(who(0, 0), 2);
    ck_assert_uint_eq(who(0, 1), 4);
    ck_assert_uint_eq(who(0, 2), 5);
}
END_TEST

/* VERTEX_DATA: inline float4 + unorm8x4 BGRA, VertexID from its base */
START_TEST(draw_inline_data)
{
    static const char vid_src[] =
        "ld b32 $r0 a[0x0]\n"
        "ld b32 $r1 a[0x4]\n"
        "ld b32 $r2 a[0x8]\n"
        "ld b32 $r3 a[0xc]\n"
        "mov b32 o[0x0] $r0\n"
        "mov b32 o[0x4] $r1\n"
        "mov b32 o[0x8] $r2\n"
        "mov b32 o[0xc] $r3\n"
        "ld b32 $r4 a[0x10]\n"
        "ld b32 $r5 a[0x14]\n"
        "ld b32 $r6 a[0x18]\n"
        "ld b32 $r7 a[0x1c]\n"
        "mov b32 o[0x10] $r4\n"
        "mov b32 o[0x14] $r5\n"
        "mov b32 o[0x18] $r6\n"
        "mov b32 o[0x1c] $r7\n"
        "exit nop\n";
    static const float pos[3][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 } };

    load_vp(vid_src);
    /* a[4..6] = colour .xyz, a[7] = VertexID */
    m(NV50_3D_VP_ATTR_EN(0), 0x7f);
    m(NV50_3D_VP_GP_BUILTIN_ATTR_EN, NV50_3D_BUILTIN_VERTEX_ID);
    m(NV50_3D_VERTEX_ARRAY_ATTRIB(1), FMT(F8x4, T_UNORM) | 0x80000000u | 1);
    m(NV50_3D_VERTEX_ARRAY_FETCH(0), 0);
    m(NV50_3D_VERTEX_ARRAY_FETCH(1), 0);
    m(NV50_3D_VERTEX_ID_BASE, 10);
    m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_TRIANGLES);
    for (unsigned i = 0; i < 3; i++) {
        if (i == 2) {
            m(NV50_3D_VERTEX_ID_BASE, 20);      /* as nv50_push.c does */
        }
        mf(NV50_3D_VERTEX_DATA, pos[i][0]);
        mf(NV50_3D_VERTEX_DATA, pos[i][1]);
        mf(NV50_3D_VERTEX_DATA, 0);
        mf(NV50_3D_VERTEX_DATA, 1);
        m(NV50_3D_VERTEX_DATA, 0x00ff0033u * (i + 1));   /* B G R A bytes */
    }
    m(NV50_3D_VERTEX_END_GL, 0);
    ck_assert_uint_eq(cap.n, 1);
    check_scr(0, 0, 0, 0, 0.5f);
    check_scr(0, 1, 64, 0, 0.5f);
    for (unsigned k = 0; k < 3; k++) {
        uint32_t w = 0x00ff0033u * (k + 1);

        /* BGRA: x is byte 2 */
        ck_assert_float_eq_tol(u2f(cap.out[0][k][4]),
                               ((w >> 16) & 0xff) / 255.0f, 1e-6);
        ck_assert_float_eq_tol(u2f(cap.out[0][k][6]), (w & 0xff) / 255.0f,
                               1e-6);
        ck_assert_uint_eq(cap.out[0][k][7], k == 2 ? 20 : 10 + k);
    }
}
END_TEST

/* Mesa's blit: VIEWPORT_TRANSFORM_EN 0, immediate VTX_ATTR vertices */
START_TEST(draw_immediate_blit)
{
    static const char blit_src[] =
        "mov b32 o[0x0] a[0x0]\n"
        "mov b32 o[0x4] a[0x4]\n"
        "mov b32 o[0x8] a[0x8]\n"
        "mov b32 o[0xc] a[0xc]\n"
        "exit mov b32 o[0x10] a[0x10]\n";

    load_vp(blit_src);
    m(NV50_3D_VP_ATTR_EN(0), 0x73);     /* Mesa's blit VP */
    m(NV50_3D_VP_REG_ALLOC_RESULT, 5);
    m(NV50_3D_VP_RESULT_MAP_SIZE, 7);
    m(NV50_3D_VP_RESULT_MAP(0), 0x41400100);  /* HPOS.xy, 0, 1 */
    m(NV50_3D_VP_RESULT_MAP(1), 0x00040302);
    m(NV50_3D_VIEWPORT_TRANSFORM_EN, 0);
    m(NV50_3D_VIEW_VOLUME_CLIP_CTRL, 0x1);
    m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_TRIANGLES);
    for (unsigned i = 0; i < 3; i++) {
        mf(0x0400 + 16 * 1, 5.0f * i);              /* VTX_ATTR_3F(1) */
        mf(0x0404 + 16 * 1, 100.0f);
        mf(0x0408 + 16 * 1, 7.0f);
        mf(0x0380, i == 1 ? 16384.0f : 2.0f);       /* VTX_ATTR_2F(0) */
        mf(0x0384, i == 2 ? 16384.0f : 3.0f);
    }
    m(NV50_3D_VERTEX_END_GL, 0);
    ck_assert_uint_eq(cap.n, 1);
    check_scr(0, 0, 2, 3, 0);
    check_scr(0, 1, 16384, 3, 0);
    check_scr(0, 2, 2, 16384, 0);
    ck_assert_float_eq(cap.scr[0][0].inv_w, 1.0f);
    ck_assert_float_eq(u2f(cap.out[0][1][4]), 5.0f);
    ck_assert_float_eq(u2f(cap.out[0][2][5]), 100.0f);
    ck_assert_float_eq(u2f(cap.out[0][2][6]), 7.0f);
}
END_TEST

/* per-instance colours with divisor 2, InstanceID over INSTANCE_NEXT */
START_TEST(draw_instancing)
{
    static const char inst_src[] =
        "ld b32 $r0 a[0x0]\n"
        "ld b32 $r1 a[0x4]\n"
        "ld b32 $r2 a[0x8]\n"
        "ld b32 $r3 a[0xc]\n"
        "mov b32 o[0x0] $r0\n"
        "mov b32 o[0x4] $r1\n"
        "mov b32 o[0x8] $r2\n"
        "mov b32 o[0xc] $r3\n"
        "ld b32 $r4 a[0x10]\n"
        "ld b32 $r5 a[0x14]\n"
        "mov b32 o[0x10] $r4\n"
        "exit mov b32 o[0x14] $r5\n";

    load_vp(inst_src);
    m(NV50_3D_VP_ATTR_EN(0), 0x1f);     /* pos, colour.x */
    m(NV50_3D_VP_GP_BUILTIN_ATTR_EN, NV50_3D_BUILTIN_INSTANCE_ID);
    m(NV50_3D_VERTEX_ARRAY_PER_INSTANCE(1), 1);
    m(NV50_3D_VERTEX_ARRAY_DIVISOR(1), 2);
    m(NV50_3D_VB_INSTANCE_BASE, 1);
    vtx(0, 0, 0, 0, 1);
    vtx(1, 0.5f, 0, 0, 1);
    vtx(2, 0, 0.5f, 0, 1);
    vtx(3, 0, 0, 0, 1);
    for (unsigned i = 0; i < 4; i++) {
        m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_TRIANGLES | (i ? 0x10000000 : 0));
        m(NV50_3D_VERTEX_BUFFER_FIRST, 0);
        m(NV50_3D_VERTEX_BUFFER_COUNT, 3);
        m(NV50_3D_VERTEX_END_GL, 0);
    }
    ck_assert_uint_eq(cap.n, 4);
    for (unsigned i = 0; i < 4; i++) {
        /* element 1 + i / 2 of array 1: its x is that index */
        ck_assert_float_eq(u2f(cap.out[i][0][4]), 1 + i / 2);
        ck_assert_uint_eq(cap.out[i][2][5], i);
    }
}
END_TEST

/* near-plane clipping: a triangle half behind the near plane */
START_TEST(draw_clip_near)
{
    vtx(0, -0.5f, -0.5f, -2, 1);        /* behind: z < -w */
    vtx(1, 0.5f, -0.5f, 0, 1);
    vtx(2, -0.5f, 0.5f, 0, 1);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 2);
    for (unsigned p = 0; p < cap.n; p++) {
        for (unsigned k = 0; k < 3; k++) {
            ck_assert(cap.scr[p][k].z >= 0 && cap.scr[p][k].z <= 0.5f);
        }
        /* flat shading still sees the original provoking vertex */
        ck_assert_float_eq(u2f(cap.prov[p][4]), 2.0f);
    }
    /* new vertex on edge 0-1 at t = 0.5: x 0, colour interpolated */
    check_scr(0, 0, 32, 16, 0);
    ck_assert_float_eq(u2f(cap.out[0][0][4]), 0.5f);
    /* depth clamp instead of clipping */
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_VIEW_VOLUME_CLIP_CTRL, 0x1080 | NV50_3D_VVCC_DEPTH_CLAMP_NEAR |
      NV50_3D_VVCC_DEPTH_CLAMP_FAR);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_float_eq(cap.scr[0][0].z, 0.0f);
    /* a point outside is dropped; a line is cut */
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_VIEW_VOLUME_CLIP_CTRL, 0x1080);
    draw_arrays(NV50_GL_POINTS, 0, 2);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(who(0, 0), 1);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_LINES, 0, 2);
    ck_assert_uint_eq(cap.n, 1);
    check_scr(0, 0, 32, 16, 0);
    check_scr(0, 1, 48, 16, 0.5f);
}
END_TEST

/* x/y: a guard band, no clipping inside it */
START_TEST(draw_guard_band)
{
    vtx(0, -4, -4, 0, 1);               /* beyond the viewport */
    vtx(1, 4, -4, 0, 1);
    vtx(2, -4, 4, 0, 1);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 1);
    check_scr(0, 0, 32 - 128, 32 - 128, 0.5f);
    /* past the band (+-16384 pixels): cut */
    memset(&cap, 0, sizeof(cap));
    vtx(1, 1000, -4, 0, 1);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 2);
    for (unsigned p = 0; p < cap.n; p++) {
        for (unsigned k = 0; k < 3; k++) {
            ck_assert(cap.scr[p][k].x <= 16384.01f);
        }
    }
}
END_TEST

/*
 * Culling and the front face: the winding as seen on the screen, y down
 * (gallium's front_ccw; st/mesa flips y in a window surface's viewport
 * and keeps GL's FrontFace, an FBO's it does not flip and inverts
 * FrontFace).  The viewport here does not flip y.
 */
START_TEST(draw_cull)
{
    vtx(0, -0.5f, -0.5f, 0, 1);
    vtx(1, 0.5f, -0.5f, 0, 1);
    vtx(2, -0.5f, 0.5f, 0, 1);          /* (16,16) (48,16) (16,48): CW */
    vtx(3, -0.5f, -0.5f, 0, 1);
    vtx(4, -0.5f, 0.5f, 0, 1);
    vtx(5, 0.5f, -0.5f, 0, 1);          /* CCW on the screen */
    draw_arrays(NV50_GL_TRIANGLES, 0, 6);
    ck_assert_uint_eq(cap.n, 2);
    ck_assert(!cap.front[0]);
    ck_assert(cap.front[1]);
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_CULL_FACE_ENABLE, 1);
    draw_arrays(NV50_GL_TRIANGLES, 0, 6);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(who(0, 0), 3);
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_FRONT_FACE, NV50_3D_FRONT_FACE_CW);
    draw_arrays(NV50_GL_TRIANGLES, 0, 6);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(who(0, 0), 0);
    ck_assert(cap.front[0]);
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_CULL_FACE, NV50_3D_CULL_FACE_FRONT_AND_BACK);
    draw_arrays(NV50_GL_TRIANGLES, 0, 6);
    ck_assert_uint_eq(cap.n, 0);
    ck_assert_uint_eq(
        state()->counter[NV50_3D_COUNTER_RAST_PRIMITIVES_PRECLIP], 8);
}
END_TEST

/*
 * Polygon offset: FACTOR * max slope + UNITS / 2 * r (Z24: 2^-24),
 * clamped by CLAMP, for the kinds whose enable is set.
 */
START_TEST(draw_polygon_offset)
{
    float z[3], slope, want;

    vtx(0, -0.5f, -0.5f, 0.0f, 1);
    vtx(1, 0.5f, -0.5f, 0.5f, 1);
    vtx(2, -0.5f, 0.5f, 0.0f, 1);
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 1);
    for (unsigned k = 0; k < 3; k++) {
        z[k] = cap.scr[0][k].z;
    }
    /* the window-z slope along x over the 32 pixels from 16 to 48 */
    slope = fabsf(z[1] - z[0]) / (cap.scr[0][1].x - cap.scr[0][0].x);
    ck_assert(slope > 0);
    m(NV50_3D_ZETA_FORMAT, 0x16);                       /* Z24_S8 */
    mf(NV50_3D_POLYGON_OFFSET_FACTOR, 2.0f);
    mf(NV50_3D_POLYGON_OFFSET_UNITS, 4.0f);             /* GL's 2 */
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    check_scr(0, 0, 16, 16, z[0]);                      /* not enabled */
    m(NV50_3D_POLYGON_OFFSET_FILL_ENABLE, 1);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    want = 2.0f * slope + 2.0f * ldexpf(1.0f, -24);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert_msg(fabsf(cap.scr[0][k].z - (z[k] + want)) < 1e-6,
                      "vertex %u: z %g, want %g", k, cap.scr[0][k].z,
                      z[k] + want);
    }
    mf(NV50_3D_POLYGON_OFFSET_CLAMP, 0.001f);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert(fabsf(cap.scr[0][0].z - (z[0] + 0.001f)) < 1e-6);
    /* drawn as lines: LINE_ENABLE decides, not FILL_ENABLE */
    m(NV50_3D_POLYGON_MODE_FRONT, 0x1b01);
    m(NV50_3D_POLYGON_MODE_BACK, 0x1b01);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert_uint_eq(cap.n, 3);
    ck_assert(fabsf(cap.scr[0][0].z - z[0]) < 1e-7);
    m(NV50_3D_POLYGON_OFFSET_LINE_ENABLE, 1);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_TRIANGLES, 0, 3);
    ck_assert(fabsf(cap.scr[0][0].z - (z[0] + 0.001f)) < 1e-6);
}
END_TEST

/*
 * POLYGON_MODE LINE/POINT of quads and polygons: their outline and
 * corners, not the diagonals of the triangles they are cut into.
 */
START_TEST(draw_polygon_mode_outline)
{
    bool seen[6][6] = { { false } };

    vtx(0, -0.5f, -0.5f, 0, 1);
    vtx(1, 0.5f, -0.5f, 0, 1);
    vtx(2, 0.5f, 0.5f, 0, 1);
    vtx(3, -0.5f, 0.5f, 0, 1);
    vtx(4, -0.75f, 0.0f, 0, 1);
    m(NV50_3D_POLYGON_MODE_FRONT, 0x1b01);
    m(NV50_3D_POLYGON_MODE_BACK, 0x1b01);
    draw_arrays(NV50_GL_QUADS, 0, 4);
    ck_assert_uint_eq(cap.n, 4);
    for (unsigned p = 0; p < cap.n; p++) {
        unsigned a = who(p, 0), b = who(p, 1);

        ck_assert_uint_eq(cap.kind[p], NV50_PRIM_LINES);
        ck_assert_msg((a + 1) % 4 == b || (b + 1) % 4 == a,
                      "line %u: %u-%u is not a side of the quad", p, a, b);
        seen[MIN(a, b)][MAX(a, b)] = true;
    }
    ck_assert(seen[0][1] && seen[1][2] && seen[2][3] && seen[0][3]);
    /* a pentagon 0 1 2 3 4 as a polygon: five sides */
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_POLYGON, 0, 5);
    ck_assert_uint_eq(cap.n, 5);
    for (unsigned p = 0; p < cap.n; p++) {
        unsigned a = who(p, 0), b = who(p, 1);

        ck_assert_msg((a + 1) % 5 == b || (b + 1) % 5 == a,
                      "line %u: %u-%u is not a side of the polygon", p, a, b);
    }
    /* as points: each corner once */
    m(NV50_3D_POLYGON_MODE_FRONT, 0x1b00);
    m(NV50_3D_POLYGON_MODE_BACK, 0x1b00);
    memset(&cap, 0, sizeof(cap));
    draw_arrays(NV50_GL_QUADS, 0, 4);
    ck_assert_uint_eq(cap.n, 4);
    for (unsigned p = 0; p < cap.n; p++) {
        ck_assert_uint_eq(cap.kind[p], NV50_PRIM_POINTS);
        ck_assert(!seen[5][who(p, 0)]);
        seen[5][who(p, 0)] = true;
    }
}
END_TEST

/* COND_MODE NEVER skips the draw; a VP fault traps */
START_TEST(draw_cond_and_trap)
{
    vtx(0, 0, 0, 0, 1);
    m(NV50_3D_COND_MODE, NV50_3D_COND_NEVER);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 0);
    m(NV50_3D_COND_MODE, NV50_3D_COND_ALWAYS);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 1);
    /* RASTERIZE_ENABLE 0: counted, not drawn */
    m(NV50_3D_RASTERIZE_ENABLE, 0);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_PRIMITIVES],
                      2);
    m(NV50_3D_RASTERIZE_ENABLE, 1);
    gr_wr32(VA_CODE, 0xffffffff);       /* not an instruction */
    gr_wr32(VA_CODE + 4, 0xffffffff);
    draw_arrays(NV50_GL_POINTS, 0, 1);
    ck_assert_uint_eq(cap.n, 1);
    ck_assert(rd32(0x400100) & NV50_GR_INTR_TRAP);
}
END_TEST

Suite *nv50_draw_suite(void)
{
    Suite *s = suite_create("nv50_draw");
    TCase *tc = tcase_create("front end");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, draw_vfetch_formats);
    tcase_add_test(tc, draw_vfetch_packed);
    tcase_add_test(tc, draw_vp_code_rewrite);
    tcase_add_test(tc, draw_triangle_vp_viewport);
    tcase_add_test(tc, draw_many_points);
    tcase_add_test(tc, draw_assembly);
    tcase_add_test(tc, draw_indices_restart);
    tcase_add_test(tc, draw_inline_data);
    tcase_add_test(tc, draw_immediate_blit);
    tcase_add_test(tc, draw_instancing);
    tcase_add_test(tc, draw_clip_near);
    tcase_add_test(tc, draw_guard_band);
    tcase_add_test(tc, draw_cull);
    tcase_add_test(tc, draw_polygon_offset);
    tcase_add_test(tc, draw_polygon_mode_outline);
    tcase_add_test(tc, draw_cond_and_trap);
    suite_add_tcase(s, tc);
    return s;
}
