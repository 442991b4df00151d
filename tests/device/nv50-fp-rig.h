/*
 * The rig of the tests/device suites that drive the 3D back end by hand
 * (nv50_fp, nv50_msaa): a 3D object on the channel of nv50-gr-rig.h,
 * the FP code segment at CODE_VA, hand-made primitives drawn with
 * nv50_rop_begin / nv50_fp_draw / nv50_rop_end; the 3D methods (rnndb
 * g80_3d.xml names) and values they program.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_FP_RIG_H
#define TESTS_DEVICE_NV50_FP_RIG_H

#include "nv50-gr-rig.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/gr/pipe.h"

#define SUBC_3D     7
#define H_3D        0xbeef3097u
#define CODE_VA     (GR_VA_DATA + 0x80000)
#define ENTRY       0x100

#define RT_ADDRESS_HIGH(i)      (0x0200 + (i) * 0x20)
#define RT_ADDRESS_LOW(i)       (0x0204 + (i) * 0x20)
#define RT_FORMAT(i)            (0x0208 + (i) * 0x20)
#define RT_TILE_MODE(i)         (0x020c + (i) * 0x20)
#define RT_HORIZ(i)             (0x1240 + (i) * 8)
#define RT_VERT(i)              (0x1244 + (i) * 8)
#define RT_HORIZ_LINEAR         0x80000000u
#define RT_CONTROL              0x121c
#define RT_ARRAY_MODE           0x1224
#define ZETA_ADDRESS_HIGH       0x0fe0
#define ZETA_ADDRESS_LOW        0x0fe4
#define ZETA_FORMAT             0x0fe8
#define ZETA_TILE_MODE          0x0fec
#define ZETA_HORIZ              0x1228
#define ZETA_VERT               0x122c
#define ZETA_ARRAY_MODE         0x1230
#define ZETA_ENABLE             0x1538
#define SCREEN_SCISSOR_HORIZ    0x0ff4
#define SCREEN_SCISSOR_VERT     0x0ff8
#define CLEAR_DEPTH             0x0d90
#define DEPTH_TEST_ENABLE       0x12cc
#define DEPTH_WRITE_ENABLE      0x12e8
#define DEPTH_TEST_FUNC         0x130c
#define COLOR_MASK(i)           (0x1a00 + (i) * 4)
#define FP_RESULT_COUNT         0x1298
#define FP_START_ID             0x1414
#define POINT_COORD_REPLACE_MAP 0x13c0
#define POINT_SPRITE_ENABLE     0x1520
#define POINT_SPRITE_CTRL       0x1660
#define NOPERSPECTIVE_BITMAP    0x1540
#define FP_INTERPOLANT_CTRL     0x1988
#define FP_REG_ALLOC_TEMP       0x198c
#define FP_CONTROL              0x19a8

#define FMT_RGBA32_FLOAT        0xc0
#define FMT_Z32_FLOAT           0x0a
#define FUNC_LESS               0x201
#define FUNC_ALWAYS             0x207
#define FPC_MULTIPLE_RESULTS    0x00000001u
#define FPC_EXPORTS_Z           0x00000100u
#define FPC_USES_KIL            0x00100000u

static uint32_t obj3d;
static NV50PipeVertex vtx[3];

static inline NV50Gr3dState *state(void)
{
    NV50Gr3dState *st = gr.ctx->state[NV50_GR_3D];

    ck_assert_ptr_nonnull(st);
    return st;
}

static inline void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_3D, mthd, data);
}

/* Assemble @src at @entry in the FP code segment. */
static inline void fp_code_at(const char *src, uint32_t entry)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_FP, src, w, &err),
                  "%s", err);
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(CODE_VA + entry + i * 4, g_array_index(w, uint32_t, i));
    }
}

/* Assemble @src at ENTRY in the FP code segment; its state. */
static inline void fp_program(const char *src, unsigned gprs,
                              unsigned results, uint32_t control)
{
    fp_code_at(src, ENTRY);
    m(FP_REG_ALLOC_TEMP, gprs);
    m(FP_RESULT_COUNT, results);
    m(FP_CONTROL, control);
    m(FP_START_ID, ENTRY);
}

/* The card, the 3D object bound, the FP code segment at CODE_VA. */
static inline void fp_rig_init(void)
{
    gr_rig_init();
    obj3d = gr_object(0x8297, H_3D);
    gr_bind(SUBC_3D, obj3d);
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    m(NV50_3D_FP_ADDRESS_HIGH, (uint32_t)(CODE_VA >> 32));
    m(NV50_3D_FP_ADDRESS_LOW, (uint32_t)CODE_VA);
}

/*
 * Zeta: Z32_FLOAT at @va, @w x @h samples, one layer; the depth test
 * on (function @func) with writes.
 */
static inline void fp_zeta(uint64_t va, uint32_t w, uint32_t h,
                           uint32_t func)
{
    m(ZETA_ADDRESS_HIGH, (uint32_t)(va >> 32));
    m(ZETA_ADDRESS_LOW, (uint32_t)va);
    m(ZETA_FORMAT, FMT_Z32_FLOAT);
    m(ZETA_TILE_MODE, 0);
    m(ZETA_HORIZ, w);
    m(ZETA_VERT, h);
    m(ZETA_ARRAY_MODE, 1);
    m(ZETA_ENABLE, 1);
    m(DEPTH_TEST_ENABLE, 1);
    m(DEPTH_WRITE_ENABLE, 1);
    m(DEPTH_TEST_FUNC, func);
}

static inline void teardown(void)
{
    gr_rig_teardown();
}

static inline NV50GrCall call(void)
{
    return (NV50GrCall) {
        .s = rig.s, .ctx = gr.ctx, .subc = SUBC_3D, .class_id = 0x8297,
        .obj = GR_INST + ((uint64_t)obj3d << 4),
        .mthd = NV50_3D_VERTEX_END_GL,
    };
}

static inline void draw(const NV50PipePrim *p)
{
    NV50GrCall c = call();
    NV50Rop *r = nv50_rop_begin(&c, state());

    ck_assert_ptr_nonnull(r);
    nv50_fp_draw(&c, state(), r, p);
    nv50_rop_end(r);
    ck_assert_uint_eq(rd32(0x400100), 0);
}

#endif
