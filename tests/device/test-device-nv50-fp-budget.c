/*
 * The instruction budget (nv50_engine_set_insn_budget) in the 3D back
 * end (hw/nv50/gr/fp-prog.c fp_batch_budget): an FP that never ends
 * traps with TIMEOUT once the draw's batches have run what was left,
 * the rest of the draw's FP is dropped, the next draw's FP traps at its
 * entry while nothing is left, and a draw after the budget is lifted
 * renders.  A draw that runs out of budget half way gives the same
 * render target, trap and charge with the batches shaded on the engine
 * thread alone and on host threads.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-fp-rig.h"
#include "gemu/bitops.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/gr/tpc.h"

#define W           16
#define H           16
#define PITCH       (W * 16)
#define RT_VA       (GR_VA_DATA + 0x10000)
#define MPC_TRAP(tp)    (0x408314u + ((tp) << 12))
#define MPC_TRAP_ENABLE 0x40000000u
#define PRIMS       600
#define PARTS       16

/* colour: the flat interpolants (v[0x10..0x1c], map slots 4-7) */
static const char fp_flat[] =
    "interp $r0 flat v[0x10]\n"
    "interp $r1 flat v[0x14]\n"
    "interp $r2 flat v[0x18]\n"
    "exit interp $r3 flat v[0x1c]\n";

/* the same after 8 rounds of a loop (43 warp-instructions) */
static const char fp_count[] =
    "mov b32 $r4 0x00000000\n"
    "mov b32 $r5 0x41000000\n"
    "mov b32 $r6 0x3f800000\n"
    "loop: set $c0 $r7 l f32 $r4 $r5\n"
    "add f32 $r4 $r4 $r6\n"
    "add f32 $r8 $r8 $r6\n"
    "(lg $c0) bra loop\n"
    "interp $r0 flat v[0x10]\n"
    "interp $r1 flat v[0x14]\n"
    "interp $r2 flat v[0x18]\n"
    "exit interp $r3 flat v[0x1c]\n";

static const char fp_forever[] =
    "forever: bra forever\n";

/* FP @src at 0 in the code segment (its labels' addresses), entry 0 */
static void fp_at0(const char *src)
{
    fp_code_at(src, 0);
    m(FP_REG_ALLOC_TEMP, 9);
    m(FP_RESULT_COUNT, 4);
    m(FP_CONTROL, 0);
    m(FP_START_ID, 0);
}

static float rt_get(int x, int y)
{
    return bits_to_f32(gr_rd32(RT_VA + (uint64_t)y * PITCH + x * 16));
}

static void rt_fill(float v)
{
    for (unsigned i = 0; i < W * H * 4; i++) {
        gr_wr32(RT_VA + i * 4, f32_to_bits(v));
    }
}

/* One RGBA32_FLOAT render target, no zeta, flat v[] from map slot 4. */
static void setup(void)
{
    fp_rig_init();
    m(RT_ADDRESS_HIGH(0), (uint32_t)(RT_VA >> 32));
    m(RT_ADDRESS_LOW(0), (uint32_t)RT_VA);
    m(RT_FORMAT(0), FMT_RGBA32_FLOAT);
    m(RT_TILE_MODE(0), 0);
    m(RT_HORIZ(0), RT_HORIZ_LINEAR | PITCH);
    m(RT_VERT(0), H);
    m(COLOR_MASK(0), 0x1111);
    m(RT_ARRAY_MODE, 0);
    m(RT_CONTROL, 076543210 << 4 | 1);
    m(SCREEN_SCISSOR_HORIZ, W << 16);
    m(SCREEN_SCISSOR_VERT, H << 16);
    m(FP_INTERPOLANT_CTRL, 0xfu << 24 | 4 << 8 | 4);
    memset(vtx, 0, sizeof(vtx));
    for (unsigned i = 0; i < 3; i++) {
        vtx[i].out_words = 8;
    }
    rt_fill(-1.0f);
}

static void budget_teardown(void)
{
    nv50_engine_set_insn_budget(rig.s, 0);
    nv50_fp_set_threads(0);
    teardown();
}

static uint64_t budget_left(void)
{
    uint64_t left;

    ck_assert(nv50_engine_insn_budget(rig.s, &left));
    return left;
}

/*
 * Triangle t of @n overlapping ones, flat colour t; with @n 2 the whole
 * target, then its upper left half.
 */
static NV50PipePrim tri(unsigned t, unsigned n, NV50PipeVertex *prov)
{
    float x0 = n == 2 ? 0 : t * 7 % 13, y0 = n == 2 ? 0 : t * 5 % 11;
    float s = n == 2 ? (t ? W : 2 * W) : 3 + t % 9;
    NV50PipePrim p = {
        .kind = NV50_PRIM_TRIANGLES, .nverts = 3, .front = true,
        .provoking = prov,
    };

    *prov = vtx[0];
    prov->out[4] = f32_to_bits((float)t);
    p.scr[0] = (RasterVert) { x0, y0, 0.5f, 1.0f };
    p.scr[1] = (RasterVert) { x0 + s, y0, 0.5f, 1.0f };
    p.scr[2] = (RasterVert) { x0, y0 + s, 0.5f, 1.0f };
    for (unsigned i = 0; i < 3; i++) {
        p.v[i] = &vtx[i];
    }
    return p;
}

/* @n triangles (tri()) in one draw of the back end. */
static void draw_tris(unsigned n)
{
    NV50GrCall c = call();
    NV50Rop *r = nv50_rop_begin(&c, state());
    NV50FpDraw *d;

    ck_assert_ptr_nonnull(r);
    d = nv50_fp_begin(&c, state(), r);
    for (unsigned t = 0; t < n; t++) {
        NV50PipeVertex prov;
        NV50PipePrim p = tri(t, n, &prov);

        nv50_fp_prim(d, &p);
    }
    nv50_fp_end(d);
    nv50_rop_end(r);
}

/* The MPC TRAP words of TP 0 and 1 (bit 31 and MP bits), then cleared. */
static uint32_t take_trap(void)
{
    uint32_t w = 0;

    ck_assert_uint_eq(rd32(0x400100) & NV50_GR_INTR_TRAP, NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400108), NV50_GR_TRAP_MP);
    for (unsigned tp = 0; tp < 2; tp++) {
        w |= (rd32(MPC_TRAP(tp)) & ~MPC_TRAP_ENABLE) >> tp;
        wr32(MPC_TRAP(tp), 0xc0000000u);
    }
    wr32(0x400108, NV50_GR_TRAP_MP);
    wr32(0x400100, NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400100), 0);
    return w;
}

static unsigned rt_count(float v)
{
    unsigned n = 0;

    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            n += rt_get(x, y) == v;
        }
    }
    return n;
}

/*
 * An FP that never ends: the draw traps (TP 0 MP 0: the first batch's),
 * writes nothing and uses the budget up; the next draw's FP traps at
 * its entry without a run; with the budget lifted a draw renders.
 */
static void forever_then_draw(unsigned threads)
{
    nv50_fp_set_threads(threads);
    rt_fill(-1.0f);
    fp_at0(fp_forever);
    nv50_engine_set_insn_budget(rig.s, 5000);
    draw_tris(2);
    ck_assert_uint_eq(take_trap(), 0x80000000u | NV50_MPC_TRAP_MP(0));
    ck_assert_uint_eq(budget_left(), 0);
    ck_assert_uint_eq(rt_count(-1.0f), W * H);

    fp_at0(fp_flat);
    draw_tris(2);
    ck_assert_uint_eq(take_trap(), 0x80000000u | NV50_MPC_TRAP_MP(0));
    ck_assert_uint_eq(rt_count(-1.0f), W * H);

    nv50_engine_set_insn_budget(rig.s, 0);
    draw_tris(2);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(rt_count(0.0f) + rt_count(1.0f), W * H);
    ck_assert_uint_ne(rt_count(1.0f), 0);
}

START_TEST(fp_budget_forever)
{
    forever_then_draw(0);
    forever_then_draw(3);
}
END_TEST

typedef struct Outcome {
    float rt[W * H];
    uint32_t trap;              /* take_trap()'s, 0: none */
    uint64_t left;
} Outcome;

static void budget_draw(unsigned threads, uint64_t budget, Outcome *o)
{
    nv50_fp_set_threads(threads);
    rt_fill(-1.0f);
    nv50_engine_set_insn_budget(rig.s, budget);
    draw_tris(PRIMS);
    o->trap = rd32(0x400100) ? take_trap() : 0;
    o->left = budget_left();
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            o->rt[y * W + x] = rt_get(x, y);
        }
    }
}

/*
 * PRIMS overlapping triangles, the FP counting to 8 in each: on what
 * the whole draw takes (U), on U + 5 and on U k / (PARTS + 1) (a
 * TIMEOUT part way: fewer triangles drawn), the same target, trap and
 * budget left on the engine thread and on 1 or 4 host threads.  (Host
 * threads that shade a batch before the ones ahead of it are charged
 * see more budget than is left at its turn: how often depends on the
 * host, hence the many budgets.)
 */
START_TEST(fp_budget_threads_same)
{
    g_autofree Outcome *full = g_new0(Outcome, 1);
    g_autofree Outcome *ref = g_new0(Outcome, 1);
    g_autofree Outcome *o = g_new0(Outcome, 1);
    const uint64_t huge = 1ull << 40;
    uint64_t all, budgets[2 + PARTS];

    fp_at0(fp_count);
    budget_draw(0, huge, full);
    ck_assert_uint_eq(full->trap, 0);
    all = huge - full->left;
    ck_assert_uint_gt(all, 43 * 20);
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        budget_draw(threads, huge, o);
        ck_assert_uint_eq(o->trap, 0);
        ck_assert_uint_eq(o->left, full->left);
        ck_assert(!memcmp(o->rt, full->rt, sizeof(o->rt)));
    }

    budgets[0] = all;
    budgets[1] = all + 5;
    for (unsigned k = 1; k <= PARTS; k++) {
        budgets[1 + k] = all * k / (PARTS + 1);
    }
    for (unsigned k = 0; k < G_N_ELEMENTS(budgets); k++) {
        budget_draw(0, budgets[k], ref);
        ck_assert_uint_eq(ref->left, budgets[k] - MIN(all, budgets[k]));
        if (budgets[k] >= all) {
            ck_assert_uint_eq(ref->trap, 0);
            ck_assert(!memcmp(ref->rt, full->rt, sizeof(ref->rt)));
        } else {
            ck_assert_uint_ne(ref->trap, 0);
            ck_assert(memcmp(ref->rt, full->rt, sizeof(ref->rt)));
            ck_assert_uint_ne(rt_count(-1.0f), W * H);
        }
        for (unsigned threads = 1; threads <= 4; threads += 3) {
            budget_draw(threads, budgets[k], o);
            ck_assert_uint_eq(o->trap, ref->trap);
            ck_assert_uint_eq(o->left, ref->left);
            ck_assert_msg(!memcmp(o->rt, ref->rt, sizeof(o->rt)),
                          "budget %" PRIu64 ", %u threads: another image",
                          budgets[k], threads);
        }
    }
}
END_TEST

Suite *nv50_fp_budget_suite(void)
{
    Suite *su = suite_create("nv50_fp_budget");
    TCase *tc = tcase_create("draw");

    tcase_add_checked_fixture(tc, setup, budget_teardown);
    tcase_add_test(tc, fp_budget_forever);
    tcase_add_test(tc, fp_budget_threads_same);
    suite_add_tcase(su, tc);
    return su;
}
