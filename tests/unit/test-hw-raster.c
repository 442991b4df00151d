/*
 * hw/core/raster.c, the shared rasteriser: triangle coverage against a
 * brute-force reference (edge functions at every pixel and sample, at the
 * snapped positions, top-left rule) for random triangles at several
 * sub-pixel precisions, scissors and sample patterns; meshes drawn as
 * strips and fans cover each pixel once; aliased (diamond-exit) and wide
 * lines; points; barycentric weights, exactly the float of the double
 * quotient edge / area.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/raster.h"
#include <check.h>
#include <math.h>

#define GRID 48

typedef struct Cover {
    uint8_t hits[GRID][GRID];       /* times a pixel was covered */
    uint8_t samples[GRID][GRID];    /* its covered samples (OR) */
    uint8_t seen[GRID / 2][GRID / 2];   /* times a quad was reported */
    uint64_t nsamples;
    bool bad;                       /* a malformed quad */
    float bary_err;                 /* |sum - 1| */
    float pos_err;                  /* |weighted vertices - centre| */
    const RasterVert *v;            /* NULL: no position check */
    int nv;
} Cover;

static void collect(void *opaque, const RasterQuad *q)
{
    Cover *c = opaque;

    if ((q->x & 1) || (q->y & 1) || !q->mask || (q->mask & ~0xfu)) {
        c->bad = true;
        return;
    }
    if (q->x >= 0 && q->x < GRID && q->y >= 0 && q->y < GRID) {
        c->seen[q->y / 2][q->x / 2]++;
    }
    for (int i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        float sum = q->bary[i][0] + q->bary[i][1] + q->bary[i][2];

        c->bary_err = fmaxf(c->bary_err, fabsf(sum - 1.0f));
        if (c->v && c->nv == 3) {
            float px = 0, py = 0;

            for (int k = 0; k < 3; k++) {
                px += q->bary[i][k] * c->v[k].x;
                py += q->bary[i][k] * c->v[k].y;
            }
            c->pos_err = fmaxf(c->pos_err, fabsf(px - (x + 0.5f)));
            c->pos_err = fmaxf(c->pos_err, fabsf(py - (y + 0.5f)));
        }
        if (!(q->mask & (1u << i)) != !q->samples[i]) {
            c->bad = true;
        }
        if (!(q->mask & (1u << i))) {
            continue;
        }
        if (x < 0 || x >= GRID || y < 0 || y >= GRID) {
            c->bad = true;
            continue;
        }
        c->hits[y][x]++;
        c->samples[y][x] |= q->samples[i];
        c->nsamples += __builtin_popcount(q->samples[i]);
    }
}

static bool quads_once(const Cover *c)
{
    for (int y = 0; y < GRID / 2; y++) {
        for (int x = 0; x < GRID / 2; x++) {
            if (c->seen[y][x] > 1) {
                return false;
            }
        }
    }
    return true;
}

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state >> 16;
}

/* A coordinate in [lo, hi): often on a coarse grid, to make ties. */
static float rnd_coord(float lo, float hi)
{
    float v = lo + (hi - lo) * (rnd() % 65536) / 65536.0f;

    switch (rnd() % 4) {
    case 0:
        return floorf(v * 2.0f) / 2.0f;         /* pixel edges, centres */
    case 1:
        return floorf(v * 16.0f) / 16.0f;
    default:
        return v;
    }
}

/*
 * The reference: vertices snapped to 1 / 2^bits, then, in units of
 * 1 / (32 * 2^bits) pixel (so centres and 1/16 offsets are exact), each
 * sample of each pixel tested against the three edges of the clockwise
 * triangle: inside when every edge function is > 0, or 0 on a top or a
 * left edge.
 */
static void reference(const RasterVert v[3], unsigned bits,
                      const RasterParams *p, uint8_t out[GRID][GRID])
{
    int64_t unit = (int64_t)32 << bits;
    int64_t X[3], Y[3], area;
    const RasterSamples *s = p->samples ? p->samples
                                        : raster_standard_samples(1);

    for (int i = 0; i < 3; i++) {
        X[i] = llrintf(v[i].x * (float)(1 << bits)) * 32;
        Y[i] = llrintf(v[i].y * (float)(1 << bits)) * 32;
    }
    memset(out, 0, GRID * GRID);
    area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0) {
        return;
    }
    if (area < 0) {
        int64_t t = X[1];
        X[1] = X[2];
        X[2] = t;
        t = Y[1];
        Y[1] = Y[2];
        Y[2] = t;
    }
    for (int y = MAX(p->y0, 0); y < MIN(p->y1, GRID); y++) {
        for (int x = MAX(p->x0, 0); x < MIN(p->x1, GRID); x++) {
            for (unsigned sm = 0; sm < s->count; sm++) {
                int64_t sx = x * unit + unit / 2 + s->pos[sm][0] * unit / 16;
                int64_t sy = y * unit + unit / 2 + s->pos[sm][1] * unit / 16;
                bool in = true;

                for (int k = 0; k < 3; k++) {
                    int a = k, b = (k + 1) % 3;
                    int64_t ex = X[b] - X[a], ey = Y[b] - Y[a];
                    int64_t w = ex * (sy - Y[a]) - ey * (sx - X[a]);
                    bool tl = ey < 0 || (ey == 0 && ex > 0);

                    in = in && (w > 0 || (w == 0 && tl));
                }
                if (in) {
                    out[y][x] |= 1u << sm;
                }
            }
        }
    }
}

static RasterParams params(unsigned bits, unsigned nsamples)
{
    return (RasterParams) {
        .x1 = GRID, .y1 = GRID, .subpixel_bits = bits,
        .samples = nsamples > 1 ? raster_standard_samples(nsamples) : NULL,
    };
}

/* Random triangles and scissors, each precision and sample count; some
   from far away. */
START_TEST(triangles_match_reference)
{
    static const unsigned bits[] = { 0, 2, 4, 8 };
    static const unsigned counts[] = { 1, 2, 4, 8 };
    static uint8_t ref[GRID][GRID];

    rng_state = 0x9e3779b97f4a7c15ull;
    for (int b = 0; b < 4; b++) {
        for (int n = 0; n < 4; n++) {
            for (int iter = 0; iter < 150; iter++) {
                RasterParams p = params(bits[b], counts[n]);
                RasterVert v[3];
                Cover c = { .v = NULL };
                uint64_t ret, want = 0;

                for (int i = 0; i < 3; i++) {
                    v[i] = (RasterVert) { rnd_coord(-6, GRID + 6),
                                          rnd_coord(-6, GRID + 6), 0, 1 };
                }
                if (iter % 5 == 4) {
                    /* a wedge at v[2] of edges from 150000 pixels away:
                       edge functions past 2^50 at 8 bits (the int64
                       path), the reference's still below 2^63 */
                    v[0].x = v[2].x - 150000 + rnd_coord(0, 2000);
                    v[0].y = v[2].y - 150000 + rnd_coord(0, 2000);
                    v[1].x = v[2].x + 150000 - rnd_coord(0, 2000);
                    v[1].y = v[2].y - 150000 + rnd_coord(0, 2000);
                }
                if (iter % 3 == 0) {
                    /* a scissor, sometimes empty */
                    p.x0 = rnd() % GRID;
                    p.y0 = rnd() % GRID;
                    p.x1 = rnd() % (GRID + 1);
                    p.y1 = rnd() % (GRID + 1);
                }
                ret = raster_triangle(v, &p, collect, &c);
                reference(v, bits[b], &p, ref);
                /* (no ck_assert per pixel: Check logs each one) */
                for (int y = 0; y < GRID; y++) {
                    for (int x = 0; x < GRID; x++) {
                        if (c.samples[y][x] != ref[y][x]
                            || c.hits[y][x] > 1) {
                            ck_abort_msg("bits %u samples %u tri %d: "
                                         "pixel (%d, %d) %x x%d, want %x",
                                         bits[b], counts[n], iter, x, y,
                                         c.samples[y][x], c.hits[y][x],
                                         ref[y][x]);
                        }
                        want += __builtin_popcount(ref[y][x]);
                    }
                }
                ck_assert_uint_eq(ret, want);
                ck_assert_uint_eq(c.nsamples, want);
                ck_assert(!c.bad);
                ck_assert(quads_once(&c));
            }
        }
    }
}
END_TEST

/*
 * A jittered mesh over [0, GRID]^2 drawn as triangle strips (row by row,
 * the odd triangles' winding flipped as a strip's is) and as fans around
 * a point inside: every pixel once, none twice.
 */
START_TEST(meshes_cover_once)
{
    enum { N = 7 };
    static const unsigned bits[] = { 0, 4, 8 };

    rng_state = 12345;
    for (int b = 0; b < 3; b++) {
        for (int iter = 0; iter < 10; iter++) {
            RasterParams p = params(bits[b], 1);
            RasterVert m[N + 1][N + 1];
            Cover strip = { .v = NULL }, fan = { .v = NULL };
            RasterVert centre = { rnd_coord(8, GRID - 8),
                                  rnd_coord(8, GRID - 8), 0, 1 };
            RasterVert ring[4 * N];
            int nring = 0;

            for (int j = 0; j <= N; j++) {
                for (int i = 0; i <= N; i++) {
                    float step = (float)GRID / N;

                    m[j][i].x = i * step;
                    m[j][i].y = j * step;
                    if (i > 0 && i < N) {
                        m[j][i].x += rnd_coord(-2, 2);
                    }
                    if (j > 0 && j < N) {
                        m[j][i].y += rnd_coord(-2, 2);
                    }
                    m[j][i].x = i == 0 ? 0 : i == N ? GRID : m[j][i].x;
                    m[j][i].y = j == 0 ? 0 : j == N ? GRID : m[j][i].y;
                }
            }
            for (int j = 0; j < N; j++) {
                /* strip order: top, bottom, top, bottom ... */
                RasterVert s[2 * (N + 1)];

                for (int i = 0; i <= N; i++) {
                    s[2 * i] = m[j][i];
                    s[2 * i + 1] = m[j + 1][i];
                }
                for (int t = 0; t + 2 < 2 * (N + 1); t++) {
                    RasterVert tri[3] = { s[t + (t & 1)], s[t + 1 - (t & 1)],
                                          s[t + 2] };
                    raster_triangle(tri, &p, collect, &strip);
                }
            }
            /* the fan: the mesh's border, clockwise, around the centre */
            for (int i = 0; i < N; i++) {
                ring[nring++] = m[0][i];
            }
            for (int j = 0; j < N; j++) {
                ring[nring++] = m[j][N];
            }
            for (int i = N; i > 0; i--) {
                ring[nring++] = m[N][i];
            }
            for (int j = N; j > 0; j--) {
                ring[nring++] = m[j][0];
            }
            for (int k = 0; k < nring; k++) {
                RasterVert tri[3] = { centre, ring[k],
                                      ring[(k + 1) % nring] };
                raster_triangle(tri, &p, collect, &fan);
            }
            for (int y = 0; y < GRID; y++) {
                for (int x = 0; x < GRID; x++) {
                    if (strip.hits[y][x] != 1 || fan.hits[y][x] != 1) {
                        ck_abort_msg("bits %u: (%d, %d) hit %d times by "
                                     "the strips, %d by the fan", bits[b],
                                     x, y, strip.hits[y][x],
                                     fan.hits[y][x]);
                    }
                }
            }
            ck_assert(!strip.bad && !fan.bad);
        }
    }
}
END_TEST

/* A vertex is snapped before coverage: at 0 bits 0.49 is 0, at 4 bits it
   stays 0.5 (0.49 * 16 = 7.84 -> 8). */
START_TEST(snapping)
{
    RasterVert v[3] = {
        { 0.49f, 0, 0, 1 }, { 10, 0, 0, 1 }, { 0.49f, 10, 0, 1 },
    };
    RasterParams p0 = params(0, 1), p4 = params(4, 1);
    Cover a = { .v = NULL }, b = { .v = NULL };

    raster_triangle(v, &p0, collect, &a);
    raster_triangle(v, &p4, collect, &b);
    ck_assert_int_eq(a.hits[0][0], 1);      /* left edge at 0 */
    ck_assert_int_eq(b.hits[0][0], 1);      /* left edge at 0.5: on it */
    v[0].x = v[2].x = 0.53f;                /* 8.48 -> 8: still 0.5 */
    memset(&b, 0, sizeof(b));
    raster_triangle(v, &p4, collect, &b);
    ck_assert_int_eq(b.hits[0][0], 1);
    v[0].x = v[2].x = 0.54f;                /* 8.64 -> 9: 0.5625 */
    memset(&b, 0, sizeof(b));
    raster_triangle(v, &p4, collect, &b);
    ck_assert_int_eq(b.hits[0][0], 0);
    /* more than 8 bits is 8; huge and NaN positions do not hang */
    p4.subpixel_bits = 30;
    v[1].x = 1e30f;
    v[2].y = NAN;
    raster_triangle(v, &p4, collect, &b);
}
END_TEST

/* Per-sample coverage: an edge at x = 4.5 splits pixel 4's samples by
   their x offsets; a triangle over everything covers every sample. */
START_TEST(multisample_counts)
{
    const RasterVert half[3] = {
        { 4.5f, -100, 0, 1 }, { 4.5f, 100, 0, 1 }, { -1000, 0, 0, 1 },
    };
    const RasterVert all[3] = {
        { -200, -200, 0, 1 }, { 300, -200, 0, 1 }, { -200, 300, 0, 1 },
    };

    ck_assert(raster_standard_samples(0) == NULL);
    ck_assert(raster_standard_samples(3) == NULL);
    ck_assert(raster_standard_samples(16) == NULL);
    for (unsigned n = 1; n <= 8; n *= 2) {
        const RasterSamples *s = raster_standard_samples(n);
        RasterParams p = params(4, n);
        Cover c = { .v = NULL };
        unsigned left = 0;

        ck_assert_uint_eq(s->count, n);
        for (unsigned k = 0; k < n; k++) {
            ck_assert(abs(s->pos[k][0]) < 8 && abs(s->pos[k][1]) < 8);
            left |= s->pos[k][0] < 0 ? 1u << k : 0;
        }
        raster_triangle(half, &p, collect, &c);
        ck_assert_uint_eq(c.samples[20][4], left);
        ck_assert_uint_eq(c.samples[20][3], (1u << n) - 1);
        ck_assert_uint_eq(c.samples[20][5], 0);
        memset(&c, 0, sizeof(c));
        ck_assert_uint_eq(raster_triangle(all, &p, collect, &c),
                          (uint64_t)GRID * GRID * n);
    }
}
END_TEST

/* Weights at pixel centres sum to 1 and give back the centre, for both
   windings, helper pixels included. */
START_TEST(barycentrics)
{
    rng_state = 777;
    for (int iter = 0; iter < 200; iter++) {
        RasterVert v[3];
        RasterParams p = params(4, 1);
        Cover c = { .v = v, .nv = 3 };

        for (int i = 0; i < 3; i++) {
            /* on the 1/16 grid: snapping leaves them be */
            v[i].x = (rnd() % (GRID * 16)) / 16.0f;
            v[i].y = (rnd() % (GRID * 16)) / 16.0f;
            v[i].z = 0;
            v[i].inv_w = 1;
        }
        if (fabsf(raster_triangle_area(v)) < 4.0f) {
            continue;
        }
        raster_triangle(v, &p, collect, &c);
        ck_assert_float_le(c.bary_err, 1e-5f);
        ck_assert_float_le(c.pos_err, 1e-3f);
    }
}
END_TEST

/* A triangle on the raster's grid, clockwise, for exact weights. */
typedef struct ExactTri {
    int64_t X[3], Y[3], area, one;
    int order[3];
    unsigned bad;
    char why[128];
} ExactTri;

static void exact_bary(void *opaque, const RasterQuad *q)
{
    ExactTri *t = opaque;

    for (int i = 0; i < 4; i++) {
        int64_t cx = (q->x + (i & 1)) * t->one + t->one / 2;
        int64_t cy = (q->y + (i >> 1)) * t->one + t->one / 2;

        for (int k = 0; k < 3; k++) {
            int a = (k + 1) % 3, b = (k + 2) % 3;
            int64_t e = (t->X[b] - t->X[a]) * (cy - t->Y[a]) -
                        (t->Y[b] - t->Y[a]) * (cx - t->X[a]);
            float want = (float)((double)e / (double)t->area);
            float got = q->bary[i][t->order[k]];

            if (memcmp(&want, &got, sizeof(got)) && !t->bad++) {
                snprintf(t->why, sizeof(t->why), "pixel (%d, %d) vertex "
                         "%d: %a, not %a (%" PRId64 " / %" PRId64 ")",
                         q->x + (i & 1), q->y + (i >> 1), t->order[k], got,
                         want, e, t->area);
            }
        }
    }
}

/* Differences from (float)(e / area) in the weights of triangle @v. */
static unsigned exact_check(const RasterVert v[3], unsigned bits,
                            char *why, size_t len)
{
    RasterParams p = params(bits, 1);
    unsigned grid = MAX(bits, 4);
    ExactTri t = { .one = (int64_t)1 << grid, .order = { 0, 1, 2 } };

    for (int i = 0; i < 3; i++) {
        t.X[i] = llrintf(v[i].x * (float)(1 << bits)) * (1 << (grid - bits));
        t.Y[i] = llrintf(v[i].y * (float)(1 << bits)) * (1 << (grid - bits));
    }
    t.area = (t.X[1] - t.X[0]) * (t.Y[2] - t.Y[0]) -
             (t.X[2] - t.X[0]) * (t.Y[1] - t.Y[0]);
    if (t.area < 0) {
        int64_t x = t.X[1], y = t.Y[1];

        t.X[1] = t.X[2];
        t.Y[1] = t.Y[2];
        t.X[2] = x;
        t.Y[2] = y;
        t.order[1] = 2;
        t.order[2] = 1;
        t.area = -t.area;
    }
    raster_triangle(v, &p, exact_bary, &t);
    if (t.bad) {
        snprintf(why, len, "%s", t.why);
    }
    return t.bad;
}

/*
 * Each weight is exactly the float of the double quotient edge / area,
 * whatever the rasteriser's way to it: random triangles reaching far
 * outside the target (large areas, many bits), each precision, and two
 * at whose pixels e * (1 / area), a reciprocal's shortcut, would round
 * to another float (found by a search).
 */
START_TEST(weights_exact)
{
    static const float found[2][6] = {
        { -28301, 504064, 442284, 153145, -333786, -162617 },
        { 57639, 495571, 96097, -455058, -416791, 373999 },
    };
    static const unsigned bits[] = { 0, 4, 8 };
    unsigned bad = 0;
    char why[128] = "";

    for (int f = 0; f < 2; f++) {
        RasterVert v[3];

        for (int i = 0; i < 3; i++) {
            v[i] = (RasterVert) { found[f][2 * i] / 256,
                                  found[f][2 * i + 1] / 256, 0, 1 };
        }
        bad += exact_check(v, 8, why, sizeof(why));
    }
    rng_state = 4242;
    for (int iter = 0; iter < 600; iter++) {
        RasterVert v[3];

        for (int i = 0; i < 3; i++) {
            float span = iter % 4 == 3 ? 200000 : iter & 1 ? 4000
                                                          : GRID + 12;

            v[i] = (RasterVert) { rnd_coord(-span / 2, span / 2 + GRID),
                                  rnd_coord(-span / 2, span / 2 + GRID),
                                  0, 1 };
        }
        bad += exact_check(v, bits[iter % 3], why, sizeof(why));
    }
    ck_assert_msg(!bad, "%u weights differ, first %s", bad, why);
}
END_TEST

static uint64_t line(Cover *c, float x0, float y0, float x1, float y1,
                     float width, unsigned nsamples)
{
    RasterVert v[2] = { { x0, y0, 0, 1 }, { x1, y1, 0, 1 } };
    RasterParams p = params(4, nsamples);

    return raster_line(v, width, &p, collect, c);
}

static int count_hits(const Cover *c)
{
    int n = 0;

    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            n += c->hits[y][x];
        }
    }
    return n;
}

/* Width 1: the diamond-exit rule. */
START_TEST(lines_diamond)
{
    Cover c = { .v = NULL };

    /* centre to centre: the start pixel in, the end pixel out */
    ck_assert_uint_eq(line(&c, 0.5f, 0.5f, 4.5f, 0.5f, 1, 1), 4);
    for (int x = 0; x < 4; x++) {
        ck_assert_int_eq(c.hits[0][x], 1);
    }
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 4.5f, 0.5f, 0.5f, 0.5f, 1, 1), 4);
    ck_assert_int_eq(c.hits[0][0], 0);
    ck_assert_int_eq(c.hits[0][4], 1);
    /* on a row boundary: the bottom corner is in, the top one out */
    memset(&c, 0, sizeof(c));
    line(&c, 0.5f, 3.0f, 4.5f, 3.0f, 1, 1);
    ck_assert_int_eq(c.hits[2][1], 1);
    ck_assert_int_eq(c.hits[3][1], 0);
    /* 45 degrees, centre to centre */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 0.5f, 0.5f, 4.5f, 4.5f, 1, 1), 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(c.hits[i][i], 1);
    }
    /* y-major: one pixel per row */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 2.2f, 1.1f, 5.3f, 11.1f, 1, 1), 10);
    for (int y = 1; y < 11; y++) {
        int n = 0;
        for (int x = 0; x < GRID; x++) {
            n += c.hits[y][x];
        }
        ck_assert_int_eq(n, 1);
    }
    /* y-major on a column boundary: the right corner is in */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 1.0f, 0.2f, 1.0f, 5.8f, 1, 1), 6);
    for (int y = 0; y < 6; y++) {
        ck_assert_int_eq(c.hits[y][0], 1);
    }
    /* ending on a right corner: in the test area, so not exited */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 1.0f, 0.2f, 1.0f, 3.5f, 1, 1), 3);
    ck_assert_int_eq(c.hits[3][0], 0);
    /* inside one diamond: nothing; zero length: nothing */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 3.4f, 3.5f, 3.6f, 3.5f, 1, 1), 0);
    ck_assert_uint_eq(line(&c, 3.4f, 3.5f, 3.4f, 3.5f, 1, 1), 0);
    ck_assert_int_eq(count_hits(&c), 0);
}
END_TEST

/*
 * Random x-major line strips, left to right: each pixel column from the
 * start's to the end's is covered once, the joints once, and the pixels
 * of a column are those nearest the line.
 */
START_TEST(line_strips)
{
    rng_state = 4242;
    for (int iter = 0; iter < 100; iter++) {
        float x = rnd_coord(0, 4), y = rnd_coord(GRID / 2 - 4, GRID / 2 + 4);
        float sx = x;
        Cover c = { .v = NULL };

        /* slopes within +-0.5: x-major after snapping too, on the grid */
        while (x < GRID - 12) {
            float nx = x + rnd_coord(1, 8);
            float ny = y + (nx - x) * rnd_coord(-0.5f, 0.5f);

            line(&c, x, y, nx, ny, 1, 1);
            ck_assert_float_le(c.bary_err, 1e-5f);
            x = nx;
            y = ny;
        }
        ck_assert(!c.bad);
        for (int col = 0; col < GRID; col++) {
            int n = 0;

            for (int row = 0; row < GRID; row++) {
                n += c.hits[row][col];
            }
            /* columns whose centre the strip passes: exactly one */
            if (col + 0.5f > sx + 0.5f && col + 0.5f < x - 0.5f) {
                ck_assert_msg(n == 1, "strip %d: column %d hit %d times",
                              iter, col, n);
            }
            ck_assert_int_le(n, 1);
        }
    }
}
END_TEST

/* Wide lines (and width 1 with samples): the rectangle. */
START_TEST(lines_wide)
{
    Cover c = { .v = NULL };
    uint64_t n;

    /* x from 0 to 10, y from 3.5 to 6.5: rows 3..5, 10 columns */
    ck_assert_uint_eq(line(&c, 0, 5, 10, 5, 3, 1), 30);
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert_int_eq(c.hits[y][x], x < 10 && y >= 3 && y < 6);
        }
    }
    /* the same line, drawn the other way */
    memset(&c, 0, sizeof(c));
    ck_assert_uint_eq(line(&c, 10, 5, 0, 5, 3, 1), 30);
    ck_assert_int_eq(c.hits[3][0], 1);
    /* width 1 with 4 samples: y in [4.5, 5.5]: the samples of row 4 below
       its centre and of row 5 above (offsets -6, -2, 2, 6) */
    memset(&c, 0, sizeof(c));
    n = line(&c, 0, 5, 10, 5, 1, 4);
    ck_assert_uint_eq(n, 10 * 4);
    ck_assert_uint_eq(c.samples[4][2], 0xc);
    ck_assert_uint_eq(c.samples[5][2], 0x3);
    /* a diagonal one: about length x width */
    memset(&c, 0, sizeof(c));
    n = line(&c, 4.3f, 6.1f, 34.7f, 30.2f, 4, 1);
    ck_assert(fabs(n - hypot(30.4, 24.1) * 4) < 12);
    ck_assert(!c.bad && quads_once(&c));
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert_int_le(c.hits[y][x], 1);
        }
    }
    ck_assert_float_le(c.bary_err, 1e-5f);
}
END_TEST

/* Points: a square, its left and top sides in, weights (1, 0, 0). */
START_TEST(points)
{
    static const struct {
        float x, y, size;
        int x0, y0, n;
    } cases[] = {
        { 2.5f, 2.5f, 1, 2, 2, 1 },
        { 3.0f, 3.0f, 2, 2, 2, 2 },
        { 2.5f, 2.5f, 2, 1, 1, 2 },     /* [1.5, 3.5): 1.5 in, 3.5 out */
        { 2.5f, 2.5f, 3, 1, 1, 3 },
        { 10.2f, 7.9f, 5, 8, 5, 5 },    /* [7.7, 12.7) x [5.4, 10.4) */
        { 2.5f, 2.5f, 0.5f, 2, 2, 1 },
        { 2.0f, 2.0f, 0.5f, 0, 0, 0 },  /* no centre inside */
    };

    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        RasterVert v = { cases[i].x, cases[i].y, 0.25f, 1 };
        RasterParams p = params(4, 1);
        Cover c = { .v = NULL };
        int n = cases[i].n;

        ck_assert_uint_eq(raster_point(&v, cases[i].size, &p, collect, &c),
                          n * n);
        for (int y = 0; y < GRID; y++) {
            for (int x = 0; x < GRID; x++) {
                bool in = x >= cases[i].x0 && x < cases[i].x0 + n
                          && y >= cases[i].y0 && y < cases[i].y0 + n;
                ck_assert_msg(c.hits[y][x] == in, "point %u: (%d, %d)", i,
                              x, y);
            }
        }
        ck_assert_float_eq(c.bary_err, 0);
    }
}
END_TEST

static void check_point_bary(void *opaque, const RasterQuad *q)
{
    for (int i = 0; i < 4; i++) {
        ck_assert(q->bary[i][0] == 1 && !q->bary[i][1] && !q->bary[i][2]);
    }
}

static void check_line_bary(void *opaque, const RasterQuad *q)
{
    const RasterVert *v = opaque;

    for (int i = 0; i < 4; i++) {
        float cx = q->x + (i & 1) + 0.5f, cy = q->y + (i >> 1) + 0.5f;
        float px = q->bary[i][0] * v[0].x + q->bary[i][1] * v[1].x;
        float py = q->bary[i][0] * v[0].y + q->bary[i][1] * v[1].y;
        float dx = v[1].x - v[0].x, dy = v[1].y - v[0].y;

        /* the weights give the centre's projection onto the line */
        ck_assert_float_eq(q->bary[i][2], 0);
        ck_assert(fabsf(q->bary[i][0] + q->bary[i][1] - 1) < 1e-5f);
        ck_assert(fabsf((cx - px) * dx + (cy - py) * dy) < 1e-2f);
    }
}

/* Lines' and points' weights; the scissor bounds them all. */
START_TEST(lines_points_bary_scissor)
{
    RasterVert v[2] = { { 1.5f, 2.25f, 0, 1 }, { 20.75f, 9.5f, 0, 1 } };
    RasterParams p = params(4, 1);
    Cover c = { .v = NULL };

    ck_assert_uint_gt(raster_line(v, 1, &p, check_line_bary, v), 0);
    ck_assert_uint_gt(raster_line(v, 3, &p, check_line_bary, v), 0);
    ck_assert_uint_gt(raster_point(&v[0], 4, &p, check_point_bary, NULL), 0);

    p.x0 = 5;
    p.x1 = 9;
    p.y0 = 0;
    p.y1 = 7;
    raster_line(v, 1, &p, collect, &c);
    raster_line(v, 5, &p, collect, &c);
    raster_point(&v[1], 9, &p, collect, &c);
    raster_point(&(RasterVert) { 6, 5, 0, 1 }, 2, &p, collect, &c);
    for (int y = 0; y < GRID; y++) {
        for (int x = 0; x < GRID; x++) {
            ck_assert(!c.hits[y][x] || (x >= 5 && x < 9 && y < 7));
        }
    }
    ck_assert(c.hits[4][5] && c.hits[4][6]);
}
END_TEST

Suite *hw_raster_suite(void)
{
    Suite *s = suite_create("hw_raster");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, triangles_match_reference);
    tcase_add_test(tc, meshes_cover_once);
    tcase_add_test(tc, snapping);
    tcase_add_test(tc, multisample_counts);
    tcase_add_test(tc, barycentrics);
    tcase_add_test(tc, weights_exact);
    tcase_add_test(tc, lines_diamond);
    tcase_add_test(tc, line_strips);
    tcase_add_test(tc, lines_wide);
    tcase_add_test(tc, points);
    tcase_add_test(tc, lines_points_bary_scissor);
    suite_add_tcase(s, tc);
    return s;
}
