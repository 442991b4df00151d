/*
 * SGX543 fixed-function pipeline: triangle coverage as the SGX draws it
 * (the shared rasteriser at 1/16 pixel: top-left rule, no
 * pixel twice on shared edges, quads, scissor, samples), depth/stencil compares
 * and ops, blending and surface format conversions.  Expected values are
 * worked out by hand from the rules in docs/devel/sgx543.md.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/sgx543/pipeline.h"
#include <check.h>
#include <math.h>

#define GRID 32

/* Coverage as the SGX543 draws it: the shared rasteriser, 1/16 pixel. */
static uint64_t sgx_raster(const RasterVert v[3], int x0, int y0, int x1,
                           int y1, const RasterSamples *pat,
                           RasterQuadFn fn, void *opaque)
{
    RasterParams p = {
        .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1,
        .subpixel_bits = SGX_SUBPIXEL_BITS,
        .samples = pat,
    };

    return raster_triangle(v, &p, fn, opaque);
}

typedef struct Cover {
    int hits[GRID][GRID];
    int quads;
    bool bad_quad;
    float bary_sum_err;
} Cover;

static void count_quad(void *opaque, const RasterQuad *q)
{
    Cover *c = opaque;

    c->quads++;
    if ((q->x & 1) || (q->y & 1) || !q->mask || (q->mask & ~0xfu)) {
        c->bad_quad = true;
    }
    for (int i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        float sum = q->bary[i][0] + q->bary[i][1] + q->bary[i][2];

        c->bary_sum_err = fmaxf(c->bary_sum_err, fabsf(sum - 1.0f));
        if (q->mask & (1u << i)) {
            ck_assert(x >= 0 && x < GRID && y >= 0 && y < GRID);
            c->hits[y][x]++;
        }
    }
}

static uint64_t tri(Cover *c, float x0, float y0, float x1, float y1,
                    float x2, float y2)
{
    RasterVert v[3] = {
        { x0, y0, 0, 1 }, { x1, y1, 0, 1 }, { x2, y2, 0, 1 },
    };
    return sgx_raster(v, 0, 0, GRID, GRID, NULL, count_quad, c);
}

/* A square (0.5, 0.5)-(4.5, 4.5): the centres on its left and top edges
   are in, those on its right and bottom edges are out. */
START_TEST(top_left_rule)
{
    Cover c = { 0 };
    uint64_t n;

    n = tri(&c, 0.5, 0.5, 4.5, 0.5, 4.5, 4.5);
    n += tri(&c, 0.5, 0.5, 4.5, 4.5, 0.5, 4.5);
    ck_assert_uint_eq(n, 16);
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert_int_eq(c.hits[y][x], x < 4 && y < 4 ? 1 : 0);
        }
    }
    ck_assert(!c.bad_quad);
    /* quads (2,0) and (0,2) lie in one triangle each; (0,0) and (2,2)
       straddle the diagonal and are reported by both */
    ck_assert_int_eq(c.quads, 6);
}
END_TEST

/* Shared edges: a fan of triangles around an off-grid centre covers
   each pixel of its hull once (top-left rule on arbitrary slopes). */
START_TEST(shared_edges_once)
{
    static const float pts[][2] = {
        { 3.3f, 2.1f }, { 12.0f, 1.5f }, { 21.7f, 6.25f }, { 27.5f, 15.5f },
        { 20.125f, 27.0f }, { 9.0f, 29.5f }, { 2.5f, 20.5f },
    };
    const float cx = 14.5f, cy = 14.5f;     /* a pixel centre */
    Cover c = { 0 };
    uint64_t n = 0, total = 0;

    for (size_t i = 0; i < ARRAY_SIZE(pts); i++) {
        const float *a = pts[i], *b = pts[(i + 1) % ARRAY_SIZE(pts)];
        n += tri(&c, cx, cy, a[0], a[1], b[0], b[1]);
    }
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert_msg(c.hits[y][x] <= 1, "pixel %d,%d hit %d times", x,
                          y, c.hits[y][x]);
            total += c.hits[y][x];
        }
    }
    ck_assert_uint_eq(n, total);
    ck_assert_int_eq(c.hits[14][14], 1);
    ck_assert(n > 300);
    ck_assert(c.bary_sum_err < 1e-4f);
    ck_assert(!c.bad_quad);
}
END_TEST

/* Both windings give the same pixels; a degenerate one gives none. */
START_TEST(winding_and_degenerate)
{
    Cover a = { 0 }, b = { 0 }, d = { 0 };
    uint64_t na = tri(&a, 1.2f, 1.7f, 17.3f, 4.4f, 6.6f, 19.9f);
    uint64_t nb = tri(&b, 1.2f, 1.7f, 6.6f, 19.9f, 17.3f, 4.4f);

    ck_assert_uint_eq(na, nb);
    ck_assert(memcmp(a.hits, b.hits, sizeof(a.hits)) == 0);
    ck_assert_uint_eq(tri(&d, 1, 1, 5, 5, 9, 9), 0);
    ck_assert_int_eq(d.quads, 0);
}
END_TEST

static void first_quad(void *opaque, const RasterQuad *q)
{
    RasterQuad *out = opaque;

    if (q->x == 0 && q->y == 0) {
        *out = *q;
    }
}

/* Barycentrics are the vertices' screen-space weights at pixel centres,
   reported for helper pixels too; vertex order is kept when the
   rasteriser flips the winding. */
START_TEST(barycentrics)
{
    RasterVert v[3] = {
        { 0.5f, 0.5f, 0, 1 }, { 8.5f, 0.5f, 0, 1 }, { 0.5f, 8.5f, 0, 1 },
    };
    RasterVert r[3] = { v[0], v[2], v[1] };
    RasterQuad q = { .mask = 0 };

    sgx_raster(v, 0, 0, GRID, GRID, NULL, first_quad, &q);
    ck_assert_uint_eq(q.mask, 0xf);
    /* pixel (1, 0): centre (1.5, 0.5) = v0 + 1/8 (v1 - v0) */
    ck_assert(fabsf(q.bary[1][0] - 0.875f) < 1e-6f);
    ck_assert(fabsf(q.bary[1][1] - 0.125f) < 1e-6f);
    ck_assert(fabsf(q.bary[1][2]) < 1e-6f);
    /* pixel (0, 1) */
    ck_assert(fabsf(q.bary[2][2] - 0.125f) < 1e-6f);

    memset(&q, 0, sizeof(q));
    sgx_raster(r, 0, 0, GRID, GRID, NULL, first_quad, &q);
    ck_assert(fabsf(q.bary[1][2] - 0.125f) < 1e-6f);   /* r[2] = v[1] */
    ck_assert(fabsf(q.bary[2][1] - 0.125f) < 1e-6f);
}
END_TEST

/* The scissor: pixels outside it are not covered (their quad may still
   be reported, with those pixels as helpers). */
START_TEST(scissor)
{
    RasterVert v[3] = {
        { -10, -10, 0, 1 }, { 50, -10, 0, 1 }, { -10, 50, 0, 1 },
    };
    Cover c = { 0 };
    uint64_t n = sgx_raster(v, 3, 2, 7, 5, NULL, count_quad, &c);

    ck_assert_uint_eq(n, 4 * 3);
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert_int_eq(c.hits[y][x],
                             x >= 3 && x < 7 && y >= 2 && y < 5);
        }
    }
    /* huge and NaN coordinates do not crash or hang */
    v[1].x = 1e30f;
    v[2].y = NAN;
    sgx_raster(v, 0, 0, GRID, GRID, NULL, count_quad, &c);
}
END_TEST

START_TEST(compare_funcs)
{
    static const struct {
        SgxCompare f;
        bool lt, eq, gt;
    } t[] = {
        { SGX_CMP_NEVER, 0, 0, 0 }, { SGX_CMP_LESS, 1, 0, 0 },
        { SGX_CMP_EQUAL, 0, 1, 0 }, { SGX_CMP_LESS_EQUAL, 1, 1, 0 },
        { SGX_CMP_GREATER, 0, 0, 1 }, { SGX_CMP_NOT_EQUAL, 1, 0, 1 },
        { SGX_CMP_GREATER_EQUAL, 0, 1, 1 }, { SGX_CMP_ALWAYS, 1, 1, 1 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        ck_assert_int_eq(sgx_compare(t[i].f, 1, 2), t[i].lt);
        ck_assert_int_eq(sgx_compare(t[i].f, 2, 2), t[i].eq);
        ck_assert_int_eq(sgx_compare(t[i].f, 3, 2), t[i].gt);
        ck_assert_int_eq(sgx_compare_f(t[i].f, 0.25f, 0.5f), t[i].lt);
        ck_assert_int_eq(sgx_compare_f(t[i].f, 0.5f, 0.5f), t[i].eq);
        ck_assert_int_eq(sgx_compare_f(t[i].f, 0.75f, 0.5f), t[i].gt);
    }
}
END_TEST

START_TEST(stencil_ops)
{
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_KEEP, 7, 3), 7);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_ZERO, 7, 3), 0);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_REPLACE, 7, 3), 3);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_INCR, 255, 3), 255);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_INCR, 7, 3), 8);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_DECR, 0, 3), 0);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_INVERT, 0x0f, 3), 0xf0);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_INCR_WRAP, 255, 3), 0);
    ck_assert_uint_eq(sgx_stencil_apply(SGX_STENCIL_DECR_WRAP, 0, 3), 255);
}
END_TEST

static void blend(const SgxBlendState *b, float s0, float s1, float s2,
                  float s3, float d0, float d1, float d2, float d3,
                  const float want[4])
{
    const float s[4] = { s0, s1, s2, s3 }, d[4] = { d0, d1, d2, d3 };
    float out[4];

    sgx_blend(b, s, d, out);
    for (int c = 0; c < 4; c++) {
        ck_assert_msg(fabsf(out[c] - want[c]) < 1e-6f,
                      "channel %d: %f, want %f", c, out[c], want[c]);
    }
}

START_TEST(blending)
{
    SgxBlendState b = {
        .enable = true, .mask = 0xf,
        .color_func = SGX_BLEND_ADD, .alpha_func = SGX_BLEND_ADD,
        .color_src = SGX_BF_SRC_ALPHA, .color_dst = SGX_BF_ONE_MINUS_SRC_ALPHA,
        .alpha_src = SGX_BF_ONE, .alpha_dst = SGX_BF_ZERO,
    };

    /* half-transparent green over red */
    blend(&b, 0, 1, 0, 0.5f, 1, 0, 0, 1,
          (const float[4]) { 0.5f, 0.5f, 0, 0.5f });
    /* additive, then subtract and reverse subtract with colour factors */
    b.color_src = b.color_dst = SGX_BF_ONE;
    blend(&b, 0.25f, 0.5f, 0.75f, 1, 0.5f, 0.25f, 0, 1,
          (const float[4]) { 0.75f, 0.75f, 0.75f, 1 });
    b.color_func = SGX_BLEND_SUBTRACT;
    b.color_dst = SGX_BF_DST_COLOR;         /* d * d */
    blend(&b, 0.5f, 0.5f, 0.5f, 1, 0.5f, 0.25f, 1, 1,
          (const float[4]) { 0.25f, 0.4375f, -0.5f, 1 });
    b.color_func = SGX_BLEND_REVERSE_SUBTRACT;
    b.color_src = SGX_BF_ONE_MINUS_DST_ALPHA;   /* 0.75 */
    b.color_dst = SGX_BF_ONE;
    blend(&b, 0.5f, 0.5f, 0.5f, 1, 0.5f, 0.25f, 1, 0.25f,
          (const float[4]) { 0.125f, -0.125f, 0.625f, 1 });
    /* MIN/MAX ignore the factors */
    b.color_func = SGX_BLEND_MIN;
    b.alpha_func = SGX_BLEND_MAX;
    blend(&b, 0.5f, 0.5f, 0.5f, 0.25f, 0.75f, 0.25f, 0.5f, 0.5f,
          (const float[4]) { 0.5f, 0.25f, 0.5f, 0.5f });
    /* SRC_ALPHA_SATURATE: min(as, 1 - ad) for colour, 1 for alpha */
    b.color_func = b.alpha_func = SGX_BLEND_ADD;
    b.color_src = b.alpha_src = SGX_BF_SRC_ALPHA_SATURATE;
    b.color_dst = b.alpha_dst = SGX_BF_ZERO;
    blend(&b, 1, 1, 1, 0.75f, 0, 0, 0, 0.5f,
          (const float[4]) { 0.5f, 0.5f, 0.5f, 0.75f });
    /* the colour mask keeps the destination's channels */
    b.mask = 0x5;
    blend(&b, 1, 1, 1, 0.75f, 0.1f, 0.2f, 0.3f, 0.4f,
          (const float[4]) { 0.6f, 0.2f, 0.6f, 0.4f });
    /* disabled: the source as it is */
    b.enable = false;
    b.mask = 0xf;
    blend(&b, 2, -1, 0.5f, 0.25f, 0, 0, 0, 0,
          (const float[4]) { 2, -1, 0.5f, 0.25f });
}
END_TEST

START_TEST(formats)
{
    uint8_t p[16];
    float f[4];

    sgx_color_store(SGX_COLOR_U8U8U8U8_ABGR, p,
                    (const float[4]) { 0.5f, 1.5f, -1.0f, NAN });
    ck_assert_uint_eq(p[0], 128);   /* 127.5 rounds to even */
    ck_assert_uint_eq(p[1], 255);
    ck_assert_uint_eq(p[2], 0);
    ck_assert_uint_eq(p[3], 0);
    sgx_color_store(SGX_COLOR_U5U6U5_BGR, p,
                    (const float[4]) { 1.0f, 0.0f, 1.0f, 0.0f });
    ck_assert_uint_eq(p[0] | p[1] << 8, 0xf81f);
    sgx_color_load(SGX_COLOR_U5U6U5_BGR, p, f);
    ck_assert(f[0] == 1.0f && f[1] == 0.0f && f[2] == 1.0f && f[3] == 1.0f);
    sgx_color_store(SGX_COLOR_F16F16F16F16, p,
                    (const float[4]) { 1.0f, -2.0f, 0.5f, 0.0f });
    ck_assert_uint_eq(p[0] | p[1] << 8, 0x3c00);
    ck_assert_uint_eq(p[2] | p[3] << 8, 0xc000);
    sgx_color_load(SGX_COLOR_F16F16F16F16, p, f);
    ck_assert(f[0] == 1.0f && f[1] == -2.0f && f[2] == 0.5f && f[3] == 0);
    ck_assert_uint_eq(sgx_color_bpp(SGX_COLOR_F32_R), 4);
    ck_assert_uint_eq(sgx_color_bpp(SGX_COLOR_NUM), 0);
}
END_TEST

static void sample_quad(void *opaque, const RasterQuad *q)
{
    uint8_t *m = opaque;

    for (int i = 0; i < 4; i++) {
        m[(q->y + (i >> 1)) * GRID + q->x + (i & 1)] = q->samples[i];
    }
}

/* Coverage per sample: a vertical edge at x = 4.5 splits pixel 4's
   samples by their x offsets (4x: -2, 6, -6, 2 sixteenths; 2x: 4, -4). */
START_TEST(multisample_coverage)
{
    const RasterVert v[3] = {
        { 4.5f, -100, 0, 1 }, { 4.5f, 100, 0, 1 }, { -1000, 0, 0, 1 },
    };
    static uint8_t m[GRID * GRID];

    ck_assert(sgx_sample_pattern(3) == NULL);
    ck_assert_uint_eq(sgx_sample_pattern(2)->count, 4);
    memset(m, 0, sizeof(m));
    sgx_raster(v, 0, 0, GRID, GRID, sgx_sample_pattern(2),
                           sample_quad, m);
    ck_assert_uint_eq(m[15 * GRID + 4], 0x5);       /* samples 0 and 2 */
    ck_assert_uint_eq(m[15 * GRID + 3], 0xf);
    ck_assert_uint_eq(m[15 * GRID + 5], 0);
    memset(m, 0, sizeof(m));
    sgx_raster(v, 0, 0, GRID, GRID, sgx_sample_pattern(1),
                           sample_quad, m);
    ck_assert_uint_eq(m[15 * GRID + 4], 0x2);       /* the (-4, -4) one */
    ck_assert_uint_eq(m[15 * GRID + 3], 0x3);
}
END_TEST

Suite *sgx_pipeline_suite(void)
{
    Suite *s = suite_create("sgx_pipeline");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, top_left_rule);
    tcase_add_test(tc, shared_edges_once);
    tcase_add_test(tc, winding_and_degenerate);
    tcase_add_test(tc, barycentrics);
    tcase_add_test(tc, scissor);
    tcase_add_test(tc, compare_funcs);
    tcase_add_test(tc, stencil_ops);
    tcase_add_test(tc, blending);
    tcase_add_test(tc, formats);
    tcase_add_test(tc, multisample_coverage);
    suite_add_tcase(s, tc);
    return s;
}
