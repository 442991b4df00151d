/*
 * The 3D draw's vertex cache (hw/nv50/gr/vcache.c): every primitive
 * type, from arrays, indices with repeats and restarts and inline
 * VERTEX_DATA, the adjacency ones through a GP, drawn with a tiny cache
 * (nv50_3d_draw_set_cache: a few slots, batches of 4 refs, so that
 * vertices are evicted and shaded again) and with the default one: the
 * primitives handed to the back end byte for byte the same, and the
 * counters but VP_LAUNCHES.  And a long draw's memory: the shaded
 * vertices are the cache's, not one a ref.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-draw-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/gr/vcache.h"

#define SUBC        DRAW_SUBC
#define H_3D        0xbeef3d01u

#define VA_VPCODE   (GR_VA_DATA + 0x00000)
#define VA_GPCODE   (GR_VA_DATA + 0x08000)
#define VA_VB0      (GR_VA_DATA + 0x20000)
#define VA_VB1      (GR_VA_DATA + 0x30000)
#define NVTX        64          /* vertices in the arrays */
#define VP_INSNS    17          /* passthrough_vp's, a warp */

/* Every primitive to the back end, serialised, and their number. */
static GByteArray *rec;
static unsigned nrec;

static void put(const void *p, size_t n)
{
    g_byte_array_append(rec, p, n);
}

static void record(void *opaque, const NV50PipePrim *p)
{
    nrec++;
    put(&p->kind, sizeof(p->kind));
    put(&p->nverts, sizeof(p->nverts));
    put(p->scr, sizeof(p->scr[0]) * p->nverts);
    put(&p->front, sizeof(p->front));
    put(&p->width, sizeof(p->width));
    put(&p->layer, sizeof(p->layer));
    put(&p->viewport, sizeof(p->viewport));
    for (unsigned i = 0; i <= p->nverts; i++) {
        const NV50PipeVertex *v = i < p->nverts ? p->v[i] : p->provoking;

        ck_assert_ptr_nonnull(v);
        put(v->clip, sizeof(v->clip));
        put(&v->point_size, sizeof(v->point_size));
        put(&v->out_words, sizeof(v->out_words));
        put(v->out, 4 * MIN(v->out_words, (unsigned)NV50_PIPE_OUT_WORDS));
    }
}

/* vertex @i: a position inside the viewport, colour (i, 10 i, 100 i, 1) */
static void vtx(unsigned i)
{
    const float pos[4] = {
        ((i * 37) % 61) / 34.0f - 0.9f, ((i * 53) % 59) / 33.0f - 0.9f,
        (i % 7) / 8.0f, 1.0f,
    };
    const float col[4] = { i, 10.0f * i, 100.0f * i, 1.0f };

    for (unsigned k = 0; k < 4; k++) {
        gr_wr32(VA_VB0 + 16 * i + 4 * k, f2u(pos[k]));
        gr_wr32(VA_VB1 + 16 * i + 4 * k, f2u(col[k]));
    }
}

static void setup(void)
{
    gr_rig_init();
    gr_bind(SUBC, gr_object(0x8297, H_3D));
    m(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    rec = g_byte_array_new();
    nrec = 0;
    nv50_3d_draw_set_emit(state(), record, NULL);
    passthrough_vp(VA_VPCODE, VA_VB0, VA_VB1);
    gp_suite_state(VA_GPCODE);
    for (unsigned i = 0; i < NVTX; i++) {
        vtx(i);
    }
}

static void teardown(void)
{
    nv50_3d_draw_set_cache(0, 0);
    nv50_engine_set_insn_budget(rig.s, 0);
    g_byte_array_free(rec, true);
    gr_rig_teardown();
}

typedef enum Src { SRC_ARRAYS, SRC_INDEXED, SRC_INLINE, SRC_N } Src;

/* indices with repeats, a far-back one and (0xffff) restarts */
static const uint16_t idx[] = {
    0, 1, 2, 3, 2, 1, 4, 5, 6, 7, 0, 8, 9, 10, 11, 12, 13, 14, 15, 0xffff,
    16, 17, 18, 16, 19, 20, 21, 22, 23, 24, 25, 26, 3, 27, 28, 29, 30, 31,
    32, 33, 34, 0xffff, 0xffff, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45,
    46, 47, 48, 20, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60,
};

/* One draw of @prim from @src (@n vertices of the arrays). */
static void draw(unsigned prim, Src src, unsigned n)
{
    G_STATIC_ASSERT(G_N_ELEMENTS(idx) % 2 == 0);
    m(NV50_3D_VERTEX_BEGIN_GL, prim);
    switch (src) {
    case SRC_ARRAYS:
        m(NV50_3D_VERTEX_BUFFER_FIRST, 1);
        m(NV50_3D_VERTEX_BUFFER_COUNT, n);
        break;
    case SRC_INDEXED:
        m(NV50_3D_PRIM_RESTART_ENABLE, 1);
        m(NV50_3D_PRIM_RESTART_INDEX, 0xffff);
        for (unsigned i = 0; i + 1 < G_N_ELEMENTS(idx); i += 2) {
            m(NV50_3D_VB_ELEMENT_U16, (uint32_t)idx[i + 1] << 16 | idx[i]);
        }
        break;
    default:
        /* inline: position and colour as float4 each */
        m(NV50_3D_VERTEX_ARRAY_FETCH(0), 0);
        m(NV50_3D_VERTEX_ARRAY_FETCH(1), 0);
        for (unsigned i = 0; i < n; i++) {
            for (unsigned w = 0; w < 8; w++) {
                uint64_t va = (w < 4 ? VA_VB0 : VA_VB1) + 16 * i + 4 * (w % 4);

                m(NV50_3D_VERTEX_DATA, gr_rd32(va));
            }
        }
        break;
    }
    m(NV50_3D_VERTEX_END_GL, 0);
    m(NV50_3D_PRIM_RESTART_ENABLE, 0);
    array(0, VA_VB0, 16, 0x1000);
    array(1, VA_VB1, 16, 0x1000);
}

typedef struct Run {
    GByteArray *bytes;
    uint32_t counter[NV50_3D_COUNTERS];
} Run;

/* The draw with a cache of @slots and @batch (0, 0: the default) */
static void run(unsigned prim, Src src, unsigned n, unsigned slots,
                unsigned batch, Run *out)
{
    uint32_t before[NV50_3D_COUNTERS];

    memcpy(before, state()->counter, sizeof(before));
    nv50_3d_draw_set_cache(slots, batch);
    g_byte_array_set_size(rec, 0);
    draw(prim, src, n);
    ck_assert_uint_eq(rd32(0x400100), 0);
    out->bytes = g_byte_array_new();
    g_byte_array_append(out->bytes, rec->data, rec->len);
    for (unsigned i = 0; i < NV50_3D_COUNTERS; i++) {
        out->counter[i] = state()->counter[i] - before[i];
    }
}

/* Tiny caches against the default: the same primitives and counters. */
static void same(unsigned prim, Src src, unsigned n)
{
    static const unsigned tiny[][2] = { { 11, 4 }, { 12, 4 }, { 40, 32 } };
    Run want, got;

    run(prim, src, n, 0, 0, &want);
    ck_assert_uint_gt(want.bytes->len, 0);
    for (unsigned t = 0; t < G_N_ELEMENTS(tiny); t++) {
        run(prim, src, n, tiny[t][0], tiny[t][1], &got);
        ck_assert_msg(got.bytes->len == want.bytes->len &&
                      !memcmp(got.bytes->data, want.bytes->data,
                              want.bytes->len),
                      "prim %u src %u cache %u/%u: %u bytes, want %u (or "
                      "they differ)", prim, src, tiny[t][0], tiny[t][1],
                      got.bytes->len, want.bytes->len);
        for (unsigned i = 0; i < NV50_3D_COUNTERS; i++) {
            if (i != NV50_3D_COUNTER_VP_LAUNCHES) {
                ck_assert_msg(got.counter[i] == want.counter[i], "prim %u "
                              "src %u cache %u/%u: counter %u %u, want %u",
                              prim, src, tiny[t][0], tiny[t][1], i,
                              got.counter[i], want.counter[i]);
            }
        }
        g_byte_array_free(got.bytes, true);
    }
    g_byte_array_free(want.bytes, true);
}

START_TEST(vcache_every_prim)
{
    static const unsigned prims[] = {
        NV50_GL_POINTS, NV50_GL_LINES, NV50_GL_LINE_LOOP,
        NV50_GL_LINE_STRIP, NV50_GL_TRIANGLES, NV50_GL_TRIANGLE_STRIP,
        NV50_GL_TRIANGLE_FAN, NV50_GL_POLYGON, NV50_GL_QUADS,
        NV50_GL_QUAD_STRIP, NV50_GL_LINES_ADJ, NV50_GL_LINE_STRIP_ADJ,
        NV50_GL_TRIANGLES_ADJ, NV50_GL_TRIANGLE_STRIP_ADJ,
    };

    for (unsigned last = 0; last < 2; last++) {
        m(NV50_3D_PROVOKING_VERTEX_LAST, last);
        for (unsigned p = 0; p < G_N_ELEMENTS(prims); p++) {
            for (Src s = 0; s < SRC_N; s++) {
                same(prims[p], s, NVTX - 2);
            }
        }
    }
}
END_TEST

/* a GP emitting each of its @n input vertices as a point, w: its ID */
static void gp_points(unsigned n)
{
    GString *src = g_string_new("mov b32 $r11 a[0x18]\n");

    for (unsigned k = 0; k < n; k++) {
        g_string_append_printf(src, "shl $a1 a[0x%x] 0x0\n", 4 * k);
        for (unsigned w = 0; w < 7; w++) {
            g_string_append_printf(src, "mov b32 $r%u p[$a1+0x%x]\n", w,
                                   4 * w);
            g_string_append_printf(src, "mov b32 o[0x%x] $r%u\n", 4 * w, w);
        }
        g_string_append(src, "mov b32 o[0x1c] $r11\n" "emit\n");
    }
    g_string_append(src, "exit nop\n");
    load_prog(VA_GPCODE, TESLA_PROG_GP, src->str);
    g_string_free(src, true);
    m(NV50_3D_GP_START_ID, 0);
    m(NV50_3D_GP_REG_ALLOC_TEMP, 16);
    m(NV50_3D_GP_REG_ALLOC_RESULT, 8);
    m(NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE,
      NV50_3D_GP_OUTPUT_PRIMITIVE_TYPE_POINTS);
    m(NV50_3D_GP_VERTEX_OUTPUT_COUNT, n);
    m(NV50_3D_GP_RESULT_MAP_SIZE, 8);
    m(NV50_3D_GP_RESULT_MAP(0), 0x03020100);
    m(NV50_3D_GP_RESULT_MAP(1), 0x07060504);
    m(NV50_3D_GP_ENABLE, 1);
}

/* The adjacency primitives: every input vertex out of the GP. */
START_TEST(vcache_adjacency_gp)
{
    static const unsigned prims[] = {
        NV50_GL_LINES_ADJ, NV50_GL_LINE_STRIP_ADJ, NV50_GL_TRIANGLES_ADJ,
        NV50_GL_TRIANGLE_STRIP_ADJ,
    };

    for (unsigned p = 0; p < G_N_ELEMENTS(prims); p++) {
        gp_points(p < 2 ? 4 : 6);
        for (unsigned last = 0; last < 2; last++) {
            m(NV50_3D_PROVOKING_VERTEX_LAST, last);
            for (Src s = 0; s < SRC_N; s++) {
                same(prims[p], s, NVTX - 3);
            }
        }
    }
}
END_TEST

/*
 * A line loop longer than the cache: its first vertex is evicted and
 * shaded again for the closing line, a batch of 4 from it (VP_LAUNCHES
 * counts them again).  A
 * fan's or polygon's first vertex is in every triangle, so pinned at
 * every batch: never evicted, shaded once.
 */
START_TEST(vcache_first_evicted)
{
    static const unsigned prims[] = { NV50_GL_TRIANGLE_FAN,
                                      NV50_GL_LINE_LOOP, NV50_GL_POLYGON };

    for (unsigned p = 0; p < G_N_ELEMENTS(prims); p++) {
        Run dflt, tiny;

        same(prims[p], SRC_ARRAYS, NVTX - 2);
        run(prims[p], SRC_ARRAYS, NVTX - 2, 0, 0, &dflt);
        run(prims[p], SRC_ARRAYS, NVTX - 2, 11, 4, &tiny);
        ck_assert_uint_eq(dflt.counter[NV50_3D_COUNTER_VP_LAUNCHES],
                          NVTX - 2);
        ck_assert_uint_eq(dflt.counter[NV50_3D_COUNTER_VFETCH_VERTICES],
                          NVTX - 2);
        ck_assert_uint_eq(tiny.counter[NV50_3D_COUNTER_VP_LAUNCHES],
                          NVTX - 2 + (prims[p] == NV50_GL_LINE_LOOP ? 4 : 0));
        ck_assert_uint_eq(tiny.counter[NV50_3D_COUNTER_VFETCH_VERTICES],
                          NVTX - 2);
        g_byte_array_free(dflt.bytes, true);
        g_byte_array_free(tiny.bytes, true);
    }
    /* the fan's first vertex (array index 1) in every triangle */
    memset(&cap, 0, sizeof(cap));
    nv50_3d_draw_set_emit(state(), capture, &cap);
    nv50_3d_draw_set_cache(11, 4);
    draw(NV50_GL_TRIANGLE_FAN, SRC_ARRAYS, NVTX - 2);
    ck_assert_uint_eq(cap.n, NVTX - 4);
    for (unsigned p = 0; p < cap.n; p++) {
        ck_assert_uint_eq(cap.out[p][0][4], f2u(1.0f));
        ck_assert_uint_eq(cap.out[p][1][4], f2u(p + 2.0f));
    }
}
END_TEST

/*
 * A VP trap in a later batch stops the draw there: the budget
 * (nv50_engine_set_insn_budget) lets 3 batches of 4 points run (a warp
 * each), the 4th traps at its entry; the 12 points before stay drawn.
 */
START_TEST(vcache_trap_later_batch)
{
    nv50_3d_draw_set_cache(11, 4);
    nv50_engine_set_insn_budget(rig.s, 3 * VP_INSNS);
    draw(NV50_GL_POINTS, SRC_ARRAYS, 40);
    ck_assert_uint_eq(rd32(0x400100) & NV50_GR_INTR_TRAP,
                      NV50_GR_INTR_TRAP);
    ck_assert_uint_eq(nrec, 12);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VP_LAUNCHES], 16);
}
END_TEST

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
/*
 * The peak's growth allowed a long draw: its refs (16 bytes each) and
 * the cache; under ASan also its quarantine of freed blocks (256 MiB:
 * the VP's per-batch buffers), under ASan and TSan their shadow of what
 * the draw touches (TSan: 96 MiB in CI's run; a draw shaded whole grows
 * them by gigabytes there too).
 */
#ifdef SANITIZED
#define PEAK_GROWTH_KIB     (512 * 1024)
#else
#define PEAK_GROWTH_KIB     (64 * 1024)
#endif

/* Resident memory's peak in KiB (VmHWM), reset to the current first */
static long peak_kib(bool reset)
{
    g_autofree char *status = NULL;
    const char *p;

    if (reset) {
        /* "5": reset the peak (Linux 4.0+); a failure leaves it higher */
        g_file_set_contents("/proc/self/clear_refs", "5", 1, NULL);
    }
    ck_assert(g_file_get_contents("/proc/self/status", &status, NULL, NULL));
    p = strstr(status, "VmHWM:");
    ck_assert_ptr_nonnull(p);
    return strtol(p + 6, NULL, 10);
}

/*
 * The finding (issue 14): 1 Mi points held every vertex's inputs and
 * NV50PipeVertex at once (1.4 GB of peak growth); now the refs (16
 * bytes each) and the cache's ring.  Still drawn: every point counted.
 */
START_TEST(vcache_long_draw_bounded)
{
    const uint32_t n = 1u << 20;
    long before;

    m(NV50_3D_RASTERIZE_ENABLE, 0);
    before = peak_kib(true);
    m(NV50_3D_VERTEX_BEGIN_GL, NV50_GL_POINTS);
    m(NV50_3D_VERTEX_BUFFER_FIRST, 0);
    m(NV50_3D_VERTEX_BUFFER_COUNT, n);
    m(NV50_3D_VERTEX_END_GL, 0);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_VERTICES], n);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VP_LAUNCHES], n);
    ck_assert_uint_eq(state()->counter[NV50_3D_COUNTER_VFETCH_PRIMITIVES],
                      n);
    ck_assert_int_lt(peak_kib(false) - before, PEAK_GROWTH_KIB);
}
END_TEST

Suite *nv50_vcache_suite(void)
{
    Suite *s = suite_create("nv50_vcache");
    TCase *tc = tcase_create("vertex cache");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, vcache_every_prim);
    tcase_add_test(tc, vcache_adjacency_gp);
    tcase_add_test(tc, vcache_first_evicted);
    tcase_add_test(tc, vcache_trap_later_batch);
    tcase_add_test(tc, vcache_long_draw_bounded);
    suite_add_tcase(s, tc);
    return s;
}
