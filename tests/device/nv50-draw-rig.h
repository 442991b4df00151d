/*
 * What the 3D front-end suites (test-device-nv50-draw.c, -gp.c) share
 * on top of nv50-gr-rig.h: a 3D object on subchannel DRAW_SUBC driven
 * by direct method calls, the primitives caught before the back end
 * (nv50_3d_draw_set_emit(state(), capture, &cap)), programs assembled
 * in-tree into the channel's memory, vertex arrays, draws.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_DRAW_RIG_H
#define TESTS_DEVICE_NV50_DRAW_RIG_H

#include "nv50-gr-rig.h"
#include "gemu/bitops.h"
#include "hw/nv50/gr/draw.h"
#include "target/tesla.h"

#define DRAW_SUBC       7
#define MAXPRIMS        128

/* the back end's state (rnndb g80_3d.xml), for the suites that draw */
#define RT_ADDRESS_HIGH0        0x0200
#define RT_ADDRESS_LOW0         0x0204
#define RT_FORMAT0              0x0208
#define RT_LAYER_STRIDE0        0x0210
#define RT_ARRAY_MODE           0x1224
#define RT_HORIZ0               0x1240
#define RT_VERT0                0x1244
#define RT_CONTROL              0x121c
#define SCREEN_SCISSOR_HORIZ    0x0ff4
#define SCREEN_SCISSOR_VERT     0x0ff8
#define COLOR_MASK0             0x1a00
#define FP_RESULT_COUNT         0x1298
#define FP_START_ID             0x1414
#define NOPERSPECTIVE_BITMAP    0x1540
#define FP_INTERPOLANT_CTRL     0x1988
#define FP_REG_ALLOC_TEMP       0x198c
#define FP_CONTROL              0x19a8
#define FMT_RGBA32_FLOAT        0xc0

/* The primitives a draw handed to the back end, their first 8 words. */
typedef struct Cap {
    unsigned n;
    NV50PrimKind kind[MAXPRIMS];
    RasterVert scr[MAXPRIMS][3];
    uint32_t out[MAXPRIMS][3][8];
    uint32_t prov[MAXPRIMS][8];
    bool front[MAXPRIMS];
} Cap;

static Cap cap;

static inline void capture(void *opaque, const NV50PipePrim *p)
{
    Cap *c = opaque;

    ck_assert_uint_lt(c->n, MAXPRIMS);
    c->kind[c->n] = p->kind;
    c->front[c->n] = p->front;
    for (unsigned i = 0; i < p->nverts; i++) {
        c->scr[c->n][i] = p->scr[i];
        memcpy(c->out[c->n][i], p->v[i]->out, 32);
    }
    memcpy(c->prov[c->n], p->provoking->out, 32);
    c->n++;
}

static inline void m(uint32_t mthd, uint32_t data)
{
    gr_call(DRAW_SUBC, mthd, data);
}

static inline uint32_t f2u(float f)
{
    return f32_to_bits(f);
}

static inline float u2f(uint32_t u)
{
    return bits_to_f32(u);
}

static inline void mf(uint32_t mthd, float f)
{
    m(mthd, f2u(f));
}

static inline NV50Gr3dState *state(void)
{
    NV50Gr3dState *st = gr.ctx->state[NV50_GR_3D];

    ck_assert_ptr_nonnull(st);
    return st;
}

/*
 * A 64x64 viewport (scale and translate 32, z 0.5), depth range 0..1,
 * y not flipped, Mesa's VIEW_VOLUME_CLIP_CTRL, rasterising on.
 */
static inline void viewport_64x64(void)
{
    for (unsigned i = 0; i < 3; i++) {
        mf(NV50_3D_VIEWPORT_SCALE_X + 4 * i, i == 2 ? 0.5f : 32.0f);
        mf(NV50_3D_VIEWPORT_TRANSLATE_X + 4 * i, i == 2 ? 0.5f : 32.0f);
    }
    mf(NV50_3D_DEPTH_RANGE_NEAR, 0.0f);
    mf(NV50_3D_DEPTH_RANGE_FAR, 1.0f);
    m(NV50_3D_VIEWPORT_TRANSFORM_EN, 1);
    m(NV50_3D_VIEW_VOLUME_CLIP_CTRL, 0x1080);   /* Mesa's */
    m(NV50_3D_RASTERIZE_ENABLE, 1);
}

/* Program @src of type @prog assembled to @va. */
static inline void load_prog(uint64_t va, TeslaProgType prog,
                             const char *src)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    ck_assert_msg(tesla_assemble(TESLA_G84, prog, src, w, &err), "%s",
                  err ? err : "");
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(va + i * 4, g_array_index(w, uint32_t, i));
    }
}

/* Vertex array @i: @bytes at @va, @stride bytes a vertex. */
static inline void array(unsigned i, uint64_t va, uint32_t stride,
                         uint32_t bytes)
{
    m(NV50_3D_VERTEX_ARRAY_FETCH(i), NV50_3D_VERTEX_ARRAY_FETCH_ENABLE |
      stride);
    m(NV50_3D_VERTEX_ARRAY_START_HIGH(i), (uint32_t)(va >> 32));
    m(NV50_3D_VERTEX_ARRAY_START_HIGH(i) + 4, (uint32_t)va);
    m(NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(i), (uint32_t)((va + bytes - 1) >> 32));
    m(NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(i) + 4, (uint32_t)(va + bytes - 1));
}

/*
 * The VP of the GP suites: o[0..7] = a[0..7] at @va_code, through an
 * identity result map of 8 words; a[0..3] from array 0 at @va_vb0, a[4..7]
 * from array 1 at @va_vb1, float4 each, 16 bytes a vertex.
 */
static inline void passthrough_vp(uint64_t va_code, uint64_t va_vb0,
                                  uint64_t va_vb1)
{
    load_prog(va_code, TESLA_PROG_VP,
              "ld b32 $r0 a[0x0]\n" "ld b32 $r1 a[0x4]\n"
              "ld b32 $r2 a[0x8]\n" "ld b32 $r3 a[0xc]\n"
              "ld b32 $r4 a[0x10]\n" "ld b32 $r5 a[0x14]\n"
              "ld b32 $r6 a[0x18]\n" "ld b32 $r7 a[0x1c]\n"
              "mov b32 o[0x0] $r0\n" "mov b32 o[0x4] $r1\n"
              "mov b32 o[0x8] $r2\n" "mov b32 o[0xc] $r3\n"
              "mov b32 o[0x10] $r4\n" "mov b32 o[0x14] $r5\n"
              "mov b32 o[0x18] $r6\n" "mov b32 o[0x1c] $r7\n"
              "exit nop\n");
    m(NV50_3D_VP_ADDRESS_HIGH, (uint32_t)(va_code >> 32));
    m(NV50_3D_VP_ADDRESS_LOW, (uint32_t)va_code);
    m(NV50_3D_VP_START_ID, 0);
    m(NV50_3D_VP_REG_ALLOC_TEMP, 8);
    m(NV50_3D_VP_REG_ALLOC_RESULT, 8);
    m(NV50_3D_VP_RESULT_MAP_SIZE, 8);
    m(NV50_3D_VP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_VP_RESULT_MAP(1), 0x07060504);
    m(NV50_3D_VP_ATTR_EN(0), 0xff);
    /* FORMAT 32_32_32_32, TYPE FLOAT */
    m(NV50_3D_VERTEX_ARRAY_ATTRIB(0), 0x01u << 19 | 0x3fu << 25 | 0);
    m(NV50_3D_VERTEX_ARRAY_ATTRIB(1), 0x01u << 19 | 0x3fu << 25 | 1);
    array(0, va_vb0, 16, 0x1000);
    array(1, va_vb1, 16, 0x1000);
}

/*
 * The GP suites' state after passthrough_vp: the GP's code segment at
 * @va_gp, a 64x64 viewport (x, y -> 32x + 32, 32y + 32), depth 0..1,
 * rasterizer on, CCW front faces, 1-pixel lines and points, GL's last
 * provoking vertex.
 */
static inline void gp_suite_state(uint64_t va_gp)
{
    m(NV50_3D_GP_ADDRESS_HIGH, (uint32_t)(va_gp >> 32));
    m(NV50_3D_GP_ADDRESS_LOW, (uint32_t)va_gp);
    viewport_64x64();
    m(NV50_3D_FRONT_FACE, NV50_3D_FRONT_FACE_CCW);
    m(NV50_3D_LINE_WIDTH, f2u(1.0f));
    m(NV50_3D_POINT_SIZE, f2u(1.0f));
    m(NV50_3D_PROVOKING_VERTEX_LAST, 1);
}

/*
 * RT 0 alone: @w x @h RGBA32_FLOAT, pitch-linear at @va (its @layers
 * layers, if more than 1, one after the other), in a screen scissor of
 * its size; every word -1.0 first.
 */
static inline void rt0_rgba32f(uint64_t va, unsigned w, unsigned h,
                               unsigned layers)
{
    uint64_t layer_bytes = (uint64_t)w * h * 16;

    for (uint64_t i = 0; i < layer_bytes / 4 * MAX(layers, 1u); i++) {
        gr_wr32(va + 4 * i, f2u(-1.0f));
    }
    m(RT_ADDRESS_HIGH0, (uint32_t)(va >> 32));
    m(RT_ADDRESS_LOW0, (uint32_t)va);
    m(RT_FORMAT0, FMT_RGBA32_FLOAT);
    m(RT_LAYER_STRIDE0, (uint32_t)(layer_bytes >> 2));
    m(RT_HORIZ0, 0x80000000u | w * 16);         /* linear, pitch */
    m(RT_VERT0, h);
    m(RT_ARRAY_MODE, layers > 1 ? layers : 0);  /* 2D_ARRAY */
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(COLOR_MASK0, 0x1111);
    m(SCREEN_SCISSOR_HORIZ, w << 16);
    m(SCREEN_SCISSOR_VERT, h << 16);
}

/*
 * The FP @src at @va, 4 registers and results: v[] has the position's
 * x, y, z, w, then 4 linear interpolants from result map slot 4.
 */
static inline void fp_linear4(uint64_t va, const char *src)
{
    load_prog(va, TESLA_PROG_FP, src);
    m(NV50_3D_FP_ADDRESS_HIGH, (uint32_t)(va >> 32));
    m(NV50_3D_FP_ADDRESS_LOW, (uint32_t)va);
    m(FP_START_ID, 0);
    m(FP_REG_ALLOC_TEMP, 4);
    m(FP_RESULT_COUNT, 4);
    m(FP_CONTROL, 0);
    /* UMASK xyzw, 4 interpolants from map slot 4, all linear */
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | 4 << 16 | 4 << 8 | 4);
    m(NOPERSPECTIVE_BITMAP, 0xf0);
}

static inline void draw_arrays(unsigned prim, uint32_t first, uint32_t count)
{
    m(NV50_3D_VERTEX_BEGIN_GL, prim);
    m(NV50_3D_VERTEX_BUFFER_FIRST, first);
    m(NV50_3D_VERTEX_BUFFER_COUNT, count);
    m(NV50_3D_VERTEX_END_GL, 0);
}

#endif
