/*
 * The instruction budget (nv50_engine_set_insn_budget) in the 3D front
 * end (hw/nv50/gr/vp.c nv50_stage_exec, the VP's and GP's runs): a VP
 * or GP that never ends traps with TIMEOUT on a budget and the draw
 * hands nothing on; the budget is charged what the VP ran; one used up
 * traps the next draw's VP at its entry; lifted, the next draw is
 * drawn.  The FP's share is test-device-nv50-fp-budget.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-draw-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/gr/tpc.h"

#define VA_CODE     (GR_VA_DATA + 0x00000)
#define VA_GPCODE   (GR_VA_DATA + 0x08000)
#define VA_VB0      (GR_VA_DATA + 0x20000)
#define VA_VB1      (GR_VA_DATA + 0x30000)
#define MPC_TRAP    0x408314u           /* + tp << 12 */
#define MPC_TRAP_ENABLE 0x40000000u
#define VP_INSNS    17                  /* passthrough_vp's, a warp */

static const char forever[] =
    "forever: bra forever\n";

/* the GP: input vertex 0's position as a point */
static const char gp_point[] =
    "shl $a1 a[0x0] 0x0\n"
    "mov b32 $r0 p[$a1]\n" "mov b32 $r1 p[$a1+0x4]\n"
    "mov b32 $r2 p[$a1+0x8]\n" "mov b32 $r3 p[$a1+0xc]\n"
    "mov b32 o[0x0] $r0\n" "mov b32 o[0x4] $r1\n"
    "mov b32 o[0x8] $r2\n" "mov b32 o[0xc] $r3\n"
    "emit\n"
    "exit nop\n";

/*
 * A 3D object, passthrough_vp's VP, the GP's code segment, 40 points
 * on a line (x from -0.625 to 0.59).
 */
static void setup(void)
{
    gr_rig_init();
    gr_bind(DRAW_SUBC, gr_object(0x8297, 0xbeefb001u));
    memset(&cap, 0, sizeof(cap));
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    nv50_3d_draw_set_emit(state(), capture, &cap);
    passthrough_vp(VA_CODE, VA_VB0, VA_VB1);
    m(NV50_3D_GP_ADDRESS_HIGH, (uint32_t)(VA_GPCODE >> 32));
    m(NV50_3D_GP_ADDRESS_LOW, (uint32_t)VA_GPCODE);
    viewport_64x64();
    m(NV50_3D_POINT_SIZE, f2u(1.0f));
    for (unsigned i = 0; i < 40; i++) {
        gr_wr32(VA_VB0 + 16 * i, f2u(((float)i - 20) / 32.0f));
        gr_wr32(VA_VB0 + 16 * i + 4, f2u(0.0f));
        gr_wr32(VA_VB0 + 16 * i + 8, f2u(0.0f));
        gr_wr32(VA_VB0 + 16 * i + 12, f2u(1.0f));
    }
}

/* The GP @src, one point out per input primitive. */
static void gp(const char *src)
{
    load_prog(VA_GPCODE, TESLA_PROG_GP, src);
    m(NV50_3D_GP_START_ID, 0);
    m(NV50_3D_GP_REG_ALLOC_TEMP, 4);
    m(NV50_3D_GP_REG_ALLOC_RESULT, 4);
    m(NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE,
      NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS);
    m(NV50_3D_GP_VERTEX_OUTPUT_COUNT, 1);
    m(NV50_3D_GP_RESULT_MAP_SIZE, 4);
    m(NV50_3D_GP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_GP_ENABLE, 1);
}

static void teardown(void)
{
    nv50_engine_set_insn_budget(rig.s, 0);
    gr_rig_teardown();
}

static uint64_t budget_left(void)
{
    uint64_t left;

    ck_assert(nv50_engine_insn_budget(rig.s, &left));
    return left;
}

/* A TRAP_MP of TP 0 MP 0 is pending (the VP's first run); cleared. */
static void expect_mp0_trap(void)
{
    ck_assert_uint_eq(rd32(0x400100) & NV50_GR_INTR_TRAP, NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400108), NV50_GR_TRAP_MP);
    ck_assert_uint_eq(rd32(MPC_TRAP) & ~MPC_TRAP_ENABLE,
                      0x80000000u | NV50_MPC_TRAP_MP(0));
    wr32(MPC_TRAP, 0xc0000000u);
    wr32(0x400108, NV50_GR_TRAP_MP);
    wr32(0x400100, NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400100), 0);
}

/*
 * 40 points: passthrough_vp on 2 warps (MPs 0, 1) charges VP_INSNS for
 * each MP's run; a VP that never ends traps once it has run what is
 * left, and nothing is drawn.
 */
START_TEST(vp_budget_timeout)
{
    nv50_engine_set_insn_budget(rig.s, 1000);
    draw_arrays(NV50_GL_POINTS, 0, 40);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 40);
    ck_assert_uint_eq(budget_left(), 1000 - VP_INSNS * 2);

    load_prog(VA_CODE, TESLA_PROG_VP, forever);
    cap.n = 0;
    draw_arrays(NV50_GL_POINTS, 0, 40);
    expect_mp0_trap();
    ck_assert_uint_eq(cap.n, 0);
    ck_assert_uint_eq(budget_left(), 0);

    /* used up: the next draw's VP traps at its entry, without running */
    passthrough_vp(VA_CODE, VA_VB0, VA_VB1);
    draw_arrays(NV50_GL_POINTS, 0, 3);
    expect_mp0_trap();
    ck_assert_uint_eq(cap.n, 0);

    /* the card goes on: a budget again, or none */
    nv50_engine_set_insn_budget(rig.s, 100);
    draw_arrays(NV50_GL_POINTS, 0, 3);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 3);
    ck_assert_uint_eq(budget_left(), 100 - VP_INSNS);
    nv50_engine_set_insn_budget(rig.s, 0);
    draw_arrays(NV50_GL_POINTS, 0, 40);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 43);
}
END_TEST

/*
 * The GP's runs share the budget after the VP's: one that never ends
 * traps (its first batch, MP 0) and the draw hands nothing on; lifted,
 * the same draw with a GP that ends gives its points.
 */
START_TEST(gp_budget_timeout)
{
    gp(gp_point);
    nv50_engine_set_insn_budget(rig.s, 1000);
    draw_arrays(NV50_GL_POINTS, 0, 40);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 40);
    ck_assert_uint_lt(budget_left(), 1000 - VP_INSNS * 2);

    gp(forever);
    cap.n = 0;
    draw_arrays(NV50_GL_POINTS, 0, 40);
    expect_mp0_trap();
    ck_assert_uint_eq(cap.n, 0);
    ck_assert_uint_eq(budget_left(), 0);

    nv50_engine_set_insn_budget(rig.s, 0);
    gp(gp_point);
    draw_arrays(NV50_GL_POINTS, 0, 40);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(cap.n, 40);
}
END_TEST

Suite *nv50_budget_suite(void)
{
    Suite *s = suite_create("nv50_budget");
    TCase *tc = tcase_create("front end");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, vp_budget_timeout);
    tcase_add_test(tc, gp_budget_timeout);
    suite_add_tcase(s, tc);
    return s;
}
