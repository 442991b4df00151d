/*
 * The 3D object (hw/nv50/gr/3d.c) on a channel's PGRAPH context: every
 * method stored, queries and fences written the way Mesa's nv50 driver
 * reads them, constant buffer uploads, conditional rendering, refused
 * methods, draws accepted without drawing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/gr/pipe.h"

#define SUBC_3D     7
#define H_3D        0xbeef3097u
#define DMA_NTFY    0x104       /* a VM ctxdma over GR_VA_DATA + 0xf000 */

#define Q_VA        (GR_VA_DATA + 0x100)
#define CB_VA       (GR_VA_DATA + 0x1000)
#define ZETA_VA     (GR_VA_DATA + 0x100000)

#define INTR        0x400100
#define TRAP        0x400108
#define DATA_ERROR  0x400110
#define TRAPPED_ADDR 0x400704
#define TRAPPED_DATA 0x400708
#define GR_CLASS    0x400814

static uint32_t obj3d;

static void setup_class(uint16_t class_id)
{
    gr_rig_init();
    gemu_clock_advance(&rig.clk, 1000000);      /* timestamps not 0 */
    obj3d = gr_object(class_id, H_3D);
    gr_bind(SUBC_3D, obj3d);
    ck_assert_uint_eq(rd32(INTR), 0);
    gr_call(SUBC_3D, NV50_3D_DMA_QUERY, GR_DMA_VM);
    gr_call(SUBC_3D, NV50_3D_DMA_CODE_CB, GR_DMA_VM);
}

static void setup(void)
{
    setup_class(0x8297);
}

static NV50Gr3dState *state(void)
{
    NV50Gr3dState *st = gr.ctx->state[NV50_GR_3D];

    ck_assert_ptr_nonnull(st);
    return st;
}

static void query(uint64_t va, uint32_t seq, uint32_t get)
{
    gr_call(SUBC_3D, NV50_3D_QUERY_ADDRESS_HIGH, (uint32_t)(va >> 32));
    gr_call(SUBC_3D, NV50_3D_QUERY_ADDRESS_LOW, (uint32_t)va);
    gr_call(SUBC_3D, NV50_3D_QUERY_SEQUENCE, seq);
    gr_call(SUBC_3D, NV50_3D_QUERY_GET, get);
}

static void fill(uint64_t va, unsigned words, uint32_t v)
{
    for (unsigned i = 0; i < words; i++) {
        gr_wr32(va + i * 4, v);
    }
}

static uint64_t rd64(uint64_t va)
{
    return gr_rd32(va) | (uint64_t)gr_rd32(va + 4) << 32;
}

START_TEST(test_3d_classes_bind)
{
    static const uint16_t classes[] = {
        0x5097, 0x8297, 0x8397, 0x8597, 0x8697,
    };

    gr_rig_init();
    for (unsigned i = 0; i < G_N_ELEMENTS(classes); i++) {
        uint32_t o = gr_object(classes[i], H_3D + i);

        ck_assert_ptr_nonnull(nv50_gr_class_find(classes[i]));
        gr_bind(i, o);
        gr_call(i, NV50_3D_VERTEX_BUFFER_FIRST, 7);
        ck_assert_uint_eq(rd32(INTR), 0);
    }
    /* one family state: all five see the same method array */
    ck_assert_uint_eq(state()->mthd[NV50_3D_VERTEX_BUFFER_FIRST >> 2], 7);
    gr_rig_teardown();
}
END_TEST

START_TEST(test_3d_state_stored)
{
    NV50Gr3dState *st;

    gr_call(SUBC_3D, 0x0200 + 3 * 32, 0x12);        /* RT_ADDRESS_HIGH[3] */
    gr_call(SUBC_3D, 0x0a00, 0x3f800000);           /* VIEWPORT_SCALE_X */
    gr_call(SUBC_3D, 0x19d8 + 4, 0x5);              /* UNK19D8[1] */
    gr_call(SUBC_3D, NV50_3D_COND_ADDRESS_HIGH, 0x0);
    gr_call(SUBC_3D, NV50_3D_COND_ADDRESS_LOW, 0x20001000);
    gr_call(SUBC_3D, NV50_3D_COND_MODE, NV50_3D_COND_EQUAL);
    gr_call(SUBC_3D, NV50_GR_MTHD_NOP, 0x55);
    ck_assert_uint_eq(rd32(INTR), 0);
    st = state();
    ck_assert_uint_eq(st->mthd[(0x0200 + 3 * 32) >> 2], 0x12);
    ck_assert_uint_eq(st->mthd[0x0a00 >> 2], 0x3f800000);
    ck_assert_uint_eq(st->mthd[(0x19d8 + 4) >> 2], 0x5);
    ck_assert_uint_eq(st->mthd[NV50_3D_COND_ADDRESS_LOW >> 2], 0x20001000);
    ck_assert_uint_eq(st->mthd[NV50_3D_COND_MODE >> 2], NV50_3D_COND_EQUAL);
    ck_assert_uint_eq(st->mthd[NV50_3D_DMA_QUERY >> 2], GR_DMA_VM);
    ck_assert_uint_eq(st->mthd[NV50_GR_MTHD_NOP >> 2], 0x55);
}
END_TEST

START_TEST(test_3d_names)
{
    unsigned i;
    const NV50Gr3dMthd *m;

    m = nv50_3d_mthd_find(0x0f04 + 5 * 4, &i);
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->name, "CB_DATA");
    ck_assert_uint_eq(i, 5);
    m = nv50_3d_mthd_find(0x1e14 + 7 * 32, &i);
    ck_assert_str_eq(m->name, "IBLEND_FUNC_SRC_ALPHA");
    ck_assert_uint_eq(i, 7);
    ck_assert_uint_eq(m->classes, NV50_3D_GT215 | NV50_3D_MCP89);
    m = nv50_3d_mthd_find(0x187c, &i);
    ck_assert_str_eq(m->name, "POLYGON_OFFSET_CLAMP");
    ck_assert_str_eq(nv50_3d_mthd_find(NV50_3D_QUERY_GET, NULL)->name,
                     "QUERY_GET");
    ck_assert_ptr_null(nv50_3d_mthd_find(0x1b10, NULL));
    ck_assert_ptr_null(nv50_3d_mthd_find(0x0104, NULL));
    ck_assert_ptr_null(nv50_3d_mthd_find(0x2000, NULL));
}
END_TEST

/* nv50_screen_fence_emit: QUERY/ZERO/SHORT, fence.map[0] == sequence */
START_TEST(test_3d_fence_short)
{
    fill(Q_VA, 4, 0xdeadbeef);
    query(Q_VA, 0x1234, 0x1000f010);
    ck_assert_uint_eq(rd32(INTR), 0);
    ck_assert_uint_eq(gr_rd32(Q_VA), 0x1234);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 0xdeadbeef);   /* one word only */
    query(Q_VA, 0x1235, 0x1000f010);
    ck_assert_uint_eq(gr_rd32(Q_VA), 0x1235);
}
END_TEST

/* Mesa keeps query buffers in GART: the VA maps guest RAM */
START_TEST(test_3d_query_gart)
{
    uint64_t va = GR_VA_GART + 0x3010;

    memset(rig.sysmem + 0x3010, 0xee, 16);
    query(va, 77, 0x00005010);          /* the "separate fence" form */
    ck_assert_uint_eq(rd32(INTR), 0);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x3010, 4), 77);
    ck_assert_uint_eq(ldn_le_p(rig.sysmem + 0x3014, 4), 0);
    ck_assert_uint_ne(ldn_le_p(rig.sysmem + 0x3018, 8), 0);
}
END_TEST

/* TIME_ELAPSED / TIMESTAMP: {seq, 0, u64 time}, res = data64[1] */
START_TEST(test_3d_query_timestamp)
{
    uint64_t t0, t1;

    fill(Q_VA, 8, 0xdeadbeef);
    query(Q_VA + 0x10, 1, 0x00005002);
    gemu_clock_advance(&rig.clk, 5000);
    query(Q_VA, 1, 0x00005002);
    ck_assert_uint_eq(rd32(INTR), 0);
    ck_assert_uint_eq(gr_rd32(Q_VA), 1);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 0);
    t0 = rd64(Q_VA + 0x18);
    t1 = rd64(Q_VA + 8);
    ck_assert_uint_ge(t0, 1000000);
    ck_assert_uint_ge(t1 - t0, 5000 - 32);      /* PTIMER counts by 32 */
}
END_TEST

/* counters and occlusion: nothing is drawn, so Mesa's results are 0 */
START_TEST(test_3d_query_counters)
{
    static const uint32_t counters[] = {
        0x06805002, 0x05805002, 0x00801002, 0x01801002, 0x02802002,
        0x03806002, 0x04806002, 0x07804002, 0x08804002, 0x0980a002,
    };
    g_autofree char *log = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(counters); i++) {
        fill(Q_VA, 4, 0xdeadbeef);
        query(Q_VA, 9, counters[i]);
        ck_assert_uint_eq(rd32(INTR), 0);
        /* {counter, 0, time}: Mesa reads the counter as a u64 */
        ck_assert_uint_eq(rd64(Q_VA), 0);
        ck_assert_uint_ne(rd64(Q_VA + 8), 0);
    }
    /* occlusion: {sequence, samples, time} */
    gr_call(SUBC_3D, NV50_3D_COUNTER_RESET, 1);
    gr_call(SUBC_3D, NV50_3D_COUNTER_RESET, 0x11);
    gr_call(SUBC_3D, NV50_3D_COUNTER_RESET, 0x14);  /* not a counter */
    ck_assert_ptr_nonnull(strstr(log = rig_log(), "COUNTER_RESET 0x14"));
    fill(Q_VA, 4, 0xdeadbeef);
    query(Q_VA, 5, 0x0100f002);
    ck_assert_uint_eq(gr_rd32(Q_VA), 5);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 0);
    /* SO overflow predicate: 1, it all fit */
    query(Q_VA, 6, 0x02005002);
    ck_assert_uint_eq(gr_rd32(Q_VA), 6);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 1);
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/*
 * G200+ selects: refused on G84_3D, STRMOUT_OFFSET[i] on G200_3D (the
 * write position, which STRMOUT_PARAMS_LATCH takes from the method)
 */
START_TEST(test_3d_query_g200)
{
    query(Q_VA, 1, 0x0d005002 | 2 << 5);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_DATA_ERROR);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_ENUM);
    gr_rig_teardown();

    setup_class(0x8397);
    gr_call(SUBC_3D, NV50_3D_STRMOUT_OFFSET(2), 0x340);
    fill(Q_VA, 4, 0xdeadbeef);
    query(Q_VA, 3, 0x0d005002 | 2 << 5);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 0);        /* not latched yet */
    gr_call(SUBC_3D, 0x0da4, 1);                    /* STRMOUT_PARAMS_LATCH */
    query(Q_VA, 3, 0x0d005002 | 2 << 5);
    ck_assert_uint_eq(rd32(INTR), 0);
    ck_assert_uint_eq(gr_rd32(Q_VA), 3);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 0x340);
    /* DROPPED_PRIMITIVES: result in word 0, sequence in word 1 */
    query(Q_VA, 4, 0x03005002);
    ck_assert_uint_eq(gr_rd32(Q_VA), 0);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), 4);
}
END_TEST

START_TEST(test_3d_query_fault)
{
    /* VA 0x80000000: no page table there */
    query(0x80000000ull, 1, 0x1000f010);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(rd32(TRAP), NV50_GR_TRAP_DISPATCH);
    ck_assert(rd32(0x400804) & 0x80000000u);
    ck_assert_uint_eq(rd32(TRAPPED_ADDR), SUBC_3D << 16 | NV50_3D_QUERY_GET);
    /* no DMA_QUERY: INVALID_OBJECT */
    wr32(INTR, 0xffffffff);
    gr_call(SUBC_3D, NV50_3D_DMA_QUERY, 0);
    query(Q_VA, 1, 0x1000f010);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_DATA_ERROR);
    ck_assert_uint_eq(rd32(DATA_ERROR), NV50_GR_DERR_INVALID_OBJECT);
}
END_TEST

/* nv50_screen_init_hwctx + nv50_constbufs_validate: CB_DATA uploads */
START_TEST(test_3d_cb_upload)
{
    NV50GrShared *sh;
    g_autofree char *log = NULL;

    fill(CB_VA, 0x40, 0);
    gr_call(SUBC_3D, NV50_3D_CB_DEF_ADDRESS_HIGH, (uint32_t)(CB_VA >> 32));
    gr_call(SUBC_3D, NV50_3D_CB_DEF_ADDRESS_LOW, (uint32_t)CB_VA);
    gr_call(SUBC_3D, NV50_3D_CB_DEF_SET, 5 << 16 | 0x40);
    gr_call(SUBC_3D, NV50_3D_CB_ADDR, 2 << 8 | 5);
    /* BEGIN_NI04 CB_DATA(0): all words to CB_DATA[0] */
    gr_call(SUBC_3D, NV50_3D_CB_DATA(0), 0x11111111);
    gr_call(SUBC_3D, NV50_3D_CB_DATA(0), 0x22222222);
    /* an incrementing packet lands on CB_DATA[1..]: same effect */
    gr_call(SUBC_3D, NV50_3D_CB_DATA(1), 0x33333333);
    ck_assert_uint_eq(rd32(INTR), 0);
    ck_assert_uint_eq(gr_rd32(CB_VA + 4), 0);
    ck_assert_uint_eq(gr_rd32(CB_VA + 8), 0x11111111);
    ck_assert_uint_eq(gr_rd32(CB_VA + 12), 0x22222222);
    ck_assert_uint_eq(gr_rd32(CB_VA + 16), 0x33333333);
    /* the buffer table and CB_ADDR are the channel's, shared with compute */
    sh = &gr.ctx->shared;
    ck_assert_uint_eq(sh->cb_addr, 5 << 8 | 5);
    ck_assert_uint_eq(sh->cb[5].addr, CB_VA);
    ck_assert_uint_eq(sh->cb[5].size, 0x40);

    /* past SIZE (0x40 bytes: word 16) and an undefined buffer: dropped */
    gr_call(SUBC_3D, NV50_3D_CB_ADDR, 16 << 8 | 5);
    gr_call(SUBC_3D, NV50_3D_CB_DATA(0), 0x44444444);
    ck_assert_uint_eq(gr_rd32(CB_VA + 0x40), 0);
    gr_call(SUBC_3D, NV50_3D_CB_ADDR, 0 << 8 | 6);
    gr_call(SUBC_3D, NV50_3D_CB_DATA(0), 0x55555555);
    ck_assert_uint_eq(rd32(INTR), 0);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "past its size"));
    ck_assert_ptr_nonnull(strstr(log, "not defined"));

    /* SIZE 0 is 64 KiB (Mesa's uniform buffers) */
    gr_call(SUBC_3D, NV50_3D_CB_DEF_SET, 6 << 16 | 0);
    ck_assert_uint_eq(sh->cb[6].size, 0x10000);
    gr_call(SUBC_3D, NV50_3D_CB_ADDR, 0x3fff << 8 | 6);
    gr_call(SUBC_3D, NV50_3D_CB_DATA(0), 0x66666666);
    ck_assert_uint_eq(gr_rd32(CB_VA + 0xfffc), 0x66666666);
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

START_TEST(test_3d_bad_method)
{
    /* not in g80_3d.xml */
    gr_call(SUBC_3D, 0x1b10, 0xcafe);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_ILLEGAL_MTHD);
    ck_assert_uint_eq(rd32(TRAPPED_ADDR), SUBC_3D << 16 | 0x1b10);
    ck_assert_uint_eq(rd32(TRAPPED_DATA), 0xcafe);
    ck_assert_uint_eq(rd32(GR_CLASS), 0x8297);
    wr32(INTR, 0xffffffff);
    ck_assert_uint_eq(rd32(INTR), 0);
    /* G200_3D's UNK1144 and G80_3D's UNK0DCC are not G84_3D's */
    gr_call(SUBC_3D, 0x1144, 1);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_ILLEGAL_MTHD);
    wr32(INTR, 0xffffffff);
    gr_call(SUBC_3D, 0x0dcc, 1);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_ILLEGAL_MTHD);
    wr32(INTR, 0xffffffff);
    /* G84_3D's own UNK1104 and the chipset-gated UNK0FFC are fine */
    gr_call(SUBC_3D, 0x1104, 1);
    gr_call(SUBC_3D, 0x0ffc, 1);
    ck_assert_uint_eq(rd32(INTR), 0);
    /* QUERY_GET MODE 3 */
    query(Q_VA, 1, 3);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_DATA_ERROR);
}
END_TEST

START_TEST(test_3d_bad_method_g80)
{
    gr_rig_teardown();
    setup_class(0x5097);
    gr_call(SUBC_3D, 0x0dcc, 1);
    ck_assert_uint_eq(rd32(INTR), 0);
    gr_call(SUBC_3D, 0x1104, 1);                /* G84_3D- */
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_ILLEGAL_MTHD);
    ck_assert_uint_eq(rd32(GR_CLASS), 0x5097);
}
END_TEST

START_TEST(test_3d_notify)
{
    gr_ctxdma(DMA_NTFY, NV50_DMA_VM, GR_VA_DATA + 0xf000,
              GR_VA_DATA + 0xf0ff);
    fill(GR_VA_DATA + 0xf000, 4, 0xdeadbeef);
    gr_call(SUBC_3D, NV50_GR_MTHD_DMA_NOTIFY, DMA_NTFY);
    gr_call(SUBC_3D, NV50_GR_MTHD_NOTIFY, 0);
    ck_assert_uint_eq(gr_rd32(GR_VA_DATA + 0xf00c), 0xdeadbeef);
    gr_call(SUBC_3D, 0x0a00, 0);                /* the next method */
    ck_assert_uint_eq(gr_rd32(GR_VA_DATA + 0xf00c), 0);
    ck_assert_uint_ne(rd64(GR_VA_DATA + 0xf000), 0);
    ck_assert_uint_eq(rd32(INTR), 0);
    /* WRITE_AND_AWAKEN raises NOTIFY */
    gr_call(SUBC_3D, NV50_GR_MTHD_NOTIFY, 1);
    gr_call(SUBC_3D, 0x0a00, 0);
    ck_assert_uint_eq(rd32(INTR), NV50_GR_INTR_NOTIFY);
}
END_TEST

START_TEST(test_3d_draws_accepted)
{
    /* vertices and primitives: test-device-nv50-draw.c */
    static const uint32_t draws[] = {
        NV50_3D_CLEAR_BUFFERS, 0x19d4,
    };
    g_autofree char *log = NULL;

    gemu_loglevel |= LOG_UNIMP;
    for (unsigned i = 0; i < G_N_ELEMENTS(draws); i++) {
        gr_call(SUBC_3D, draws[i], 4);
        gr_call(SUBC_3D, draws[i], 4);
    }
    ck_assert_uint_eq(rd32(INTR), 0);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "CLIPID_FILL accepted"));
    /* once each */
    ck_assert_ptr_null(strstr(strstr(log, "CLIPID_FILL accepted") + 1,
                              "CLIPID_FILL accepted"));
    ck_assert(!state()->in_begin);
}
END_TEST

/* Mesa's render condition: two records, compared words 0-1 */
START_TEST(test_3d_cond)
{
    g_autofree char *log = NULL;
    NV50GrCall c = {
        .s = rig.s, .ctx = gr.ctx, .subc = SUBC_3D, .class_id = 0x8297,
        .mthd = NV50_3D_VERTEX_BEGIN_GL,
    };
    NV50Gr3dState *st;

    gemu_loglevel |= LOG_UNIMP;
    /* nv50_hw_begin_query's seeds: {seq, 1}, {seq + 1, 0} */
    gr_wr32(Q_VA, 8);
    gr_wr32(Q_VA + 4, 1);
    gr_wr32(Q_VA + 16, 9);
    gr_wr32(Q_VA + 20, 0);
    gr_call(SUBC_3D, NV50_3D_COND_ADDRESS_HIGH, 0);
    gr_call(SUBC_3D, NV50_3D_COND_ADDRESS_LOW, (uint32_t)Q_VA);
    gr_call(SUBC_3D, NV50_3D_COND_MODE, NV50_3D_COND_NOT_EQUAL);
    st = state();
    ck_assert(nv50_3d_cond_passes(&c, st));
    /* both ends written by the GPU with no samples: equal, skipped */
    query(Q_VA, 9, 0x0100f002);
    query(Q_VA + 16, 9, 0x0100f002);
    ck_assert(!nv50_3d_cond_passes(&c, st));
    gr_call(SUBC_3D, NV50_3D_COND_MODE, NV50_3D_COND_EQUAL);
    ck_assert(nv50_3d_cond_passes(&c, st));
    gr_call(SUBC_3D, NV50_3D_COND_MODE, NV50_3D_COND_NEVER);
    ck_assert(!nv50_3d_cond_passes(&c, st));
    gr_call(SUBC_3D, NV50_3D_VERTEX_BEGIN_GL, 4);
    ck_assert_uint_eq(rd32(INTR), 0);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "VERTEX_BEGIN_GL skipped by "
                                 "COND_MODE 0"));
    gr_call(SUBC_3D, NV50_3D_COND_MODE, NV50_3D_COND_ALWAYS);
    ck_assert(nv50_3d_cond_passes(&c, st));
}
END_TEST

/* the fence as Mesa pushes it: one packet of 4 through PFIFO */
START_TEST(test_3d_fence_pushbuf)
{
    const uint32_t fence[] = {
        (uint32_t)(Q_VA >> 32), (uint32_t)Q_VA, 0x42, 0x1000f010,
    };

    fill(Q_VA, 1, 0);
    push_1(SUBC_3D, 0, H_3D);
    push_1(SUBC_3D, NV50_3D_DMA_QUERY, GR_H_VM);
    push_mthd(SUBC_3D, NV50_3D_QUERY_ADDRESS_HIGH, fence, 4);
    push_submit();
    ck_assert_uint_eq(gr_rd32(Q_VA), 0x42);
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/*
 * A fresh context's values as nvkm's context image (ctxnv50.c) has them,
 * in the GL enums Mesa sends: the compare functions NEVER (0x200), the
 * stencil ops KEEP (0x1e00), every sample; Mesa's state with the depth
 * and stencil tests off (DEPTH_TEST_FUNC and the stencil words never
 * sent) reads no function of 0 ("comparison 0x0 is not a function").
 */
START_TEST(test_3d_fresh_defaults)
{
    static const struct {
        uint32_t mthd, value;
    } want[] = {
        { 0x130c, 0x200 }, { 0x1314, 0x200 },   /* DEPTH, ALPHA_TEST_FUNC */
        { 0x1384, 0x1e00 }, { 0x1388, 0x1e00 }, { 0x138c, 0x1e00 },
        { 0x1390, 0x200 },                      /* STENCIL_FRONT_* */
        { 0x1598, 0x1e00 }, { 0x159c, 0x1e00 }, { 0x15a0, 0x1e00 },
        { 0x15a4, 0x200 },                      /* STENCIL_BACK_* */
        { 0x0fbc, 0xffff }, { 0x0fc8, 0xffff }, /* MSAA_MASK 0, 3 */
        { NV50_3D_COND_MODE, NV50_3D_COND_ALWAYS },
    };
    NV50GrCall c = {
        .s = rig.s, .ctx = gr.ctx, .subc = SUBC_3D, .class_id = 0x8297,
        .obj = GR_INST + ((uint64_t)obj3d << 4), .mthd = 0x15dc,
    };
    g_autofree char *log = NULL;
    NV50Rop *r;

    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++) {
        ck_assert_msg(state()->mthd[want[i].mthd >> 2] == want[i].value,
                      "0x%04x: 0x%x", want[i].mthd,
                      state()->mthd[want[i].mthd >> 2]);
    }
    gemu_loglevel |= LOG_GUEST_ERROR;
    /* a 4x4 Z32_FLOAT zeta of 1.0 (block-linear, one GOB) as
       nv50_validate_fb binds it */
    for (unsigned i = 0; i < 512 / 4; i++) {
        gr_wr32(ZETA_VA + 4 * i, 0x3f800000);
    }
    gr_call(SUBC_3D, 0x0184, GR_DMA_VM);        /* DMA_ZETA */
    gr_call(SUBC_3D, 0x0fe0, ZETA_VA >> 32);    /* ZETA_ADDRESS_HIGH */
    gr_call(SUBC_3D, 0x0fe4, (uint32_t)ZETA_VA);
    gr_call(SUBC_3D, 0x0fe8, 0x0a);             /* ZF32 */
    gr_call(SUBC_3D, 0x0fec, 0);
    gr_call(SUBC_3D, 0x0ff0, 0x10000 >> 2);
    gr_call(SUBC_3D, 0x1538, 1);                /* ZETA_ENABLE */
    gr_call(SUBC_3D, 0x1228, 4);                /* ZETA_HORIZ */
    gr_call(SUBC_3D, 0x122c, 4);
    gr_call(SUBC_3D, 0x1230, 1);
    /* nv50_zsa_state_create with everything off */
    gr_call(SUBC_3D, 0x12e8, 1);                /* DEPTH_WRITE_ENABLE */
    gr_call(SUBC_3D, 0x12cc, 0);                /* DEPTH_TEST_ENABLE */
    gr_call(SUBC_3D, 0x1380, 0);                /* STENCIL_ENABLE */
    gr_call(SUBC_3D, 0x1594, 0);                /* STENCIL_TWO_SIDE */
    ck_assert_uint_eq(rd32(INTR), 0);
    r = nv50_rop_begin(&c, state());
    ck_assert_ptr_nonnull(r);
    ck_assert(nv50_rop_zs_test(r, 1, 1, 0, 0.5f, true));
    nv50_rop_end(r);
    /* depth test on without a function: NEVER, as the image says */
    gr_call(SUBC_3D, 0x12cc, 1);
    r = nv50_rop_begin(&c, state());
    ck_assert(!nv50_rop_zs_test(r, 2, 1, 0, 0.25f, true));
    nv50_rop_end(r);
    log = rig_log();
    ck_assert_msg(!strstr(log, "not a function") && !strstr(log, "not an op"),
                  "%s", log);
}
END_TEST

Suite *nv50_3d_suite(void)
{
    Suite *su = suite_create("nv50_3d");
    TCase *tc = tcase_create("3d");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_add_test(tc, test_3d_state_stored);
    tcase_add_test(tc, test_3d_names);
    tcase_add_test(tc, test_3d_fence_short);
    tcase_add_test(tc, test_3d_query_gart);
    tcase_add_test(tc, test_3d_query_timestamp);
    tcase_add_test(tc, test_3d_query_counters);
    tcase_add_test(tc, test_3d_query_g200);
    tcase_add_test(tc, test_3d_query_fault);
    tcase_add_test(tc, test_3d_cb_upload);
    tcase_add_test(tc, test_3d_bad_method);
    tcase_add_test(tc, test_3d_bad_method_g80);
    tcase_add_test(tc, test_3d_notify);
    tcase_add_test(tc, test_3d_draws_accepted);
    tcase_add_test(tc, test_3d_cond);
    tcase_add_test(tc, test_3d_fence_pushbuf);
    tcase_add_test(tc, test_3d_fresh_defaults);
    suite_add_tcase(su, tc);

    tc = tcase_create("3d-classes");
    tcase_add_test(tc, test_3d_classes_bind);
    suite_add_tcase(su, tc);
    return su;
}
