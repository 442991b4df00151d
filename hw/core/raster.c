/*
 * The rasteriser (include/hw/core/raster.h): coverage of triangles,
 * lines and points in 2x2 quads by fixed-point edge functions.
 *
 * Positions are snapped to 1 / 2^subpixel_bits of a pixel, then all
 * coverage decisions are exact integer arithmetic on a grid fine enough
 * for the pixel centres (1/2) and the sample positions (1/16): no float
 * rounding decides a tie.  Triangles, wide (or multisampled) lines and
 * points are convex polygons of 3 or 4 edges with the top-left rule;
 * aliased lines of width 1 use the diamond-exit rule.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/raster.h"

#include <math.h>

/* Positions beyond this many pixels are clamped (the clippers' guard
   bands keep real geometry well inside). */
#define MAX_COORD           (1 << 20)
/* Line widths and point sizes beyond this are clamped. */
#define MAX_SIZE            65536.0f
/* The finest snapping offered: edge-function products stay in int64. */
#define MAX_SUBPIXEL_BITS   8
/* Sample positions are in 1/16 pixel: the grid is never coarser. */
#define SAMPLE_BITS         4
/* Polygons this many pixels wide or less skip quad_row_span. */
#define NARROW_ROW          8

typedef struct Fix {
    int64_t x, y;
} Fix;

/*
 * The integer grid coverage is decided on: 1 / 2^bits pixel, bits =
 * max(subpixel_bits, 4).  Positions are rounded to 1 / 2^snap first,
 * then scaled by 2^(bits - snap).
 */
typedef struct Grid {
    unsigned bits, snap;
    int64_t one, half, scale, sample_scale;
} Grid;

static Grid grid_of(const RasterParams *p)
{
    Grid g;

    g.snap = MIN(p->subpixel_bits, MAX_SUBPIXEL_BITS);
    g.bits = MAX(g.snap, SAMPLE_BITS);
    g.one = (int64_t)1 << g.bits;
    g.half = g.one / 2;
    g.scale = (int64_t)1 << (g.bits - g.snap);
    g.sample_scale = (int64_t)1 << (g.bits - SAMPLE_BITS);
    return g;
}

static int64_t snap(const Grid *g, float v)
{
    if (!(v > -MAX_COORD)) {            /* also NaN */
        v = -MAX_COORD;
    } else if (v > MAX_COORD) {
        v = MAX_COORD;
    }
    return llrintf(v * (float)(1 << g->snap)) * g->scale;
}

/* > 0 when (px, py) is right of a->b as seen on screen (y down). */
static int64_t edge(const Fix *a, const Fix *b, int64_t px, int64_t py)
{
    return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/*
 * Top-left rule, for a polygon that is clockwise on screen (y down): a
 * top edge runs left to right (dy == 0, dx > 0), a left edge runs
 * upwards (dy < 0).  Samples exactly on other edges belong to the
 * neighbouring primitive.
 */
static bool top_left(const Fix *a, const Fix *b)
{
    int64_t dx = b->x - a->x, dy = b->y - a->y;

    return (dy == 0 && dx > 0) || dy < 0;
}

static const RasterSamples standard_samples[4] = {
    { 1, { { 0, 0 } } },
    { 2, { { 4, 4 }, { -4, -4 } } },
    { 4, { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } } },
    { 8, { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
           { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } } },
};

const RasterSamples *raster_standard_samples(unsigned count)
{
    switch (count) {
    case 1:
        return &standard_samples[0];
    case 2:
        return &standard_samples[1];
    case 4:
        return &standard_samples[2];
    case 8:
        return &standard_samples[3];
    default:
        return NULL;
    }
}

float raster_triangle_area(const RasterVert v[3])
{
    return (v[1].x - v[0].x) * (v[2].y - v[0].y)
           - (v[2].x - v[0].x) * (v[1].y - v[0].y);
}

/* ---- what every primitive shares: scissor, samples, quads ---- */

typedef enum BaryKind {
    BARY_TRIANGLE,
    BARY_LINE,
    BARY_POINT,
} BaryKind;

typedef struct Raster {
    Grid g;
    int x0, y0, x1, y1;             /* the scissor */
    const RasterSamples *samples;
    unsigned nsamples;
    RasterQuadFn fn;
    void *opaque;

    /* barycentric weights */
    BaryKind kind;
    int order[3];                   /* triangle: input vertex of p[k] */
    int64_t area;                   /* triangle: 2 * area, > 0 */
    Fix a, d;                       /* line: start, end - start */
} Raster;

static void raster_init(Raster *r, const RasterParams *p, RasterQuadFn fn,
                        void *opaque)
{
    r->g = grid_of(p);
    r->x0 = MAX(p->x0, -2 * MAX_COORD);
    r->y0 = MAX(p->y0, -2 * MAX_COORD);
    r->x1 = MIN(p->x1, 2 * MAX_COORD);
    r->y1 = MIN(p->y1, 2 * MAX_COORD);
    r->samples = p->samples && p->samples->count ? p->samples
                                                 : &standard_samples[0];
    r->nsamples = MIN(r->samples->count, 8);
    r->fn = fn;
    r->opaque = opaque;
}

static bool in_scissor(const Raster *r, int x, int y)
{
    return x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1;
}

/* Line weights at (cx, cy): its projection onto the segment. */
static void line_bary(const Raster *r, int64_t cx, int64_t cy, float b[3])
{
    double len2 = (double)r->d.x * r->d.x + (double)r->d.y * r->d.y;
    double t = ((double)(cx - r->a.x) * r->d.x
                + (double)(cy - r->a.y) * r->d.y) / len2;

    b[0] = (float)(1.0 - t);
    b[1] = (float)t;
    b[2] = 0.0f;
}

/* ---- convex polygons: triangles, rectangles, squares ---- */

typedef struct Poly {
    unsigned n;                     /* 3 or 4 */
    Fix p[4];                       /* clockwise on screen */
} Poly;

typedef double RasterV2d __attribute__((vector_size(16)));
typedef float RasterV2f __attribute__((vector_size(8)));
typedef int64_t RasterV2q __attribute__((vector_size(16)));

/*
 * A triangle's weights at quad @q's pixels: p[k]'s is the edge opposite,
 * (k + 1, k + 2), over the area, each (float)((double)e / area) -- two
 * pixels a division (the same IEEE quotient, half the dividing).
 */
static void tri_weights(const Raster *r, RasterQuad *q, int64_t e[4][4])
{
    const RasterV2d area = { (double)r->area, (double)r->area };

    for (int k = 0; k < 3; k++) {
        int j = (k + 1) % 3, o = r->order[k];

        for (int i = 0; i < 4; i += 2) {
            RasterV2d n = { (double)e[i][j], (double)e[i + 1][j] };
            RasterV2f w = __builtin_convertvector(n / area, RasterV2f);

            q->bary[i][o] = w[0];
            q->bary[i + 1][o] = w[1];
        }
    }
}

/* The barycentric weights of quad @q's pixels, edges @e at their centres */
static void quad_weights(const Raster *r, RasterQuad *q, int64_t e[4][4])
{
    const Grid *g = &r->g;

    if (r->kind == BARY_TRIANGLE) {
        tri_weights(r, q, e);
        return;
    }
    for (int i = 0; i < 4; i++) {
        int64_t cx = (int64_t)(q->x + (i & 1)) * g->one + g->half;
        int64_t cy = (int64_t)(q->y + (i >> 1)) * g->one + g->half;

        if (r->kind == BARY_LINE) {
            line_bary(r, cx, cy, q->bary[i]);
        } else {
            q->bary[i][0] = 1.0f;
        }
    }
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;

    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/*
 * Narrow the quads [*x0, *x1) (even *x0) of the quad row at pixel row
 * @qy to those that may hold a covered sample: a quad whose 2x2 pixel
 * box lies wholly where an edge function is below -1 cannot (every
 * sample and centre of its pixels is inside the box, and an edge
 * function is linear: its maximum over the box is at a corner).  The
 * bounds are widened by a quad each way; the per-sample test decides.
 * False if no quad of the row can be covered.
 */
static bool quad_row_span(const Grid *g, const Poly *poly, int qy,
                          int64_t *x0, int64_t *x1)
{
    int64_t lo = *x0, hi = *x1, two = 2 * g->one;

    for (unsigned j = 0; j < poly->n; j++) {
        const Fix *a = &poly->p[j], *b = &poly->p[(j + 1) % poly->n];
        int64_t dx = b->x - a->x, dy = b->y - a->y;
        int64_t y = (int64_t)qy * g->one + (dx > 0 ? two : 0);
        /* e(X, y) = c - dy * X, at its largest over the row's y */
        int64_t c = dx * (y - a->y) + dy * a->x;

        /* floor division by g->one is a shift (arithmetic, as gcc's
           and clang's are) */
        if (dy > 0) {
            /* largest at the box's left: X <= (c + 1) / dy */
            hi = MIN(hi, (floor_div(c + 1, dy) >> g->bits) + 3);
        } else if (dy < 0) {
            /* largest at the box's right, X + two */
            lo = MAX(lo, (floor_div(c + 1 - two * dy, dy) >> g->bits) - 3);
        } else if (c < -1) {
            return false;
        }
    }
    lo = MAX(lo, *x0) & ~(int64_t)1;
    lo = MAX(lo, *x0);
    if (lo >= hi) {
        return false;
    }
    *x0 = lo;
    *x1 = MIN(hi, *x1);
    return true;
}

/* A polygon's edge functions at the centre of a quad row's first pixel,
   their steps a pixel right and down, and the top-left rule's bias. */
typedef struct PolyEdges {
    unsigned n;
    int64_t row[4], step_x[4], step_y[4], bias[4];
    /* quad_tri_d: a quad's pixels (0, 1) from the row's value, (2, 3)
       from those; the value a sample needs; the area */
    RasterV2d right[3], down[3], min[3], area;
} PolyEdges;

/*
 * Quad @q's coverage (samples, mask; the covered samples' count) and its
 * pixels' edge functions at their centres @e, any sample pattern.
 */
static uint64_t quad_cover(const Raster *r, const Poly *poly,
                           const PolyEdges *pe, RasterQuad *q,
                           int64_t e[4][4])
{
    const Grid *g = &r->g;
    unsigned n = pe->n;
    uint64_t covered = 0;

    for (int i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);
        int64_t cx = (int64_t)x * g->one + g->half;
        int64_t cy = (int64_t)y * g->one + g->half;

        for (unsigned j = 0; j < n; j++) {
            e[i][j] = pe->row[j] + (i & 1 ? pe->step_x[j] : 0) +
                      (i >> 1 ? pe->step_y[j] : 0);
        }
        if (!in_scissor(r, x, y)) {
            continue;
        }
        for (unsigned sm = 0; sm < r->nsamples; sm++) {
            const int8_t *pos = r->samples->pos[sm];
            int64_t sx = cx + pos[0] * g->sample_scale;
            int64_t sy = cy + pos[1] * g->sample_scale;
            bool in = true;

            for (unsigned j = 0; j < n && in; j++) {
                int64_t ej = !pos[0] && !pos[1] ? e[i][j]
                             : edge(&poly->p[j], &poly->p[(j + 1) % n],
                                    sx, sy);
                in = ej + pe->bias[j] >= 0;
            }
            if (in) {
                q->samples[i] |= 1u << sm;
                covered++;
            }
        }
        if (q->samples[i]) {
            q->mask |= 1u << i;
        }
    }
    return covered;
}

/*
 * quad_cover for a triangle, one sample at the pixel centre, the quad
 * inside the scissor: a pixel is in when no edge function plus its bias
 * is negative (their OR is not).
 */
static uint64_t quad_cover_tri(const PolyEdges *pe, RasterQuad *q,
                               int64_t e[4][4])
{
    uint64_t covered = 0;

    for (int i = 0; i < 4; i++) {
        for (unsigned j = 0; j < 3; j++) {
            e[i][j] = pe->row[j] + (i & 1 ? pe->step_x[j] : 0) +
                      (i >> 1 ? pe->step_y[j] : 0);
        }
        if (((e[i][0] + pe->bias[0]) | (e[i][1] + pe->bias[1]) |
             (e[i][2] + pe->bias[2])) >= 0) {
            q->samples[i] = 1;
            q->mask |= 1u << i;
            covered++;
        }
    }
    return covered;
}

/*
 * quad_cover_tri and tri_weights in doubles, two pixels a vector, for a
 * triangle whose edge functions are below 2^53 wherever a quad may be
 * (tri_in_double): every value and step is an integer a double holds,
 * every sum exact, so the same coverage and the same quotients.
 */
static uint64_t quad_tri_d(const Raster *r, const PolyEdges *pe,
                           RasterQuad *q)
{
    RasterV2d up[3], lo[3];
    RasterV2q in_up = { -1, -1 }, in_lo = { -1, -1 };
    uint64_t covered = 0;

    for (int j = 0; j < 3; j++) {
        double v = (double)pe->row[j];

        up[j] = (RasterV2d) { v, v } + pe->right[j];
        lo[j] = up[j] + pe->down[j];
        in_up &= up[j] >= pe->min[j];
        in_lo &= lo[j] >= pe->min[j];
    }
    q->mask = (in_up[0] & 1) | (in_up[1] & 2) | (in_lo[0] & 4) |
              (in_lo[1] & 8);
    if (!q->mask) {
        return 0;
    }
    for (int i = 0; i < 4; i++) {
        q->samples[i] = (q->mask >> i) & 1;
        covered += q->samples[i];
    }
    for (int k = 0; k < 3; k++) {
        int j = (k + 1) % 3, o = r->order[k];
        RasterV2f wu = __builtin_convertvector(up[j] / pe->area, RasterV2f);
        RasterV2f wl = __builtin_convertvector(lo[j] / pe->area, RasterV2f);

        q->bary[0][o] = wu[0];
        q->bary[1][o] = wu[1];
        q->bary[2][o] = wl[0];
        q->bary[3][o] = wl[1];
    }
    return covered;
}

/*
 * Whether triangle @poly's edge functions stay below 2^50 over pixels
 * [px0, px1] x [py0, py1] and a quad past them (then quad_tri_d is
 * exact), and @pe's vectors for it.
 */
static bool tri_in_double(const Raster *r, const Poly *poly, PolyEdges *pe,
                          int64_t px0, int64_t px1, int64_t py0,
                          int64_t py1)
{
    const Grid *g = &r->g;
    double x0 = (double)px0 * g->one, x1 = (double)(px1 + 3) * g->one;
    double y0 = (double)py0 * g->one, y1 = (double)(py1 + 3) * g->one;

    for (int j = 0; j < 3; j++) {
        const Fix *a = &poly->p[j], *b = &poly->p[(j + 1) % 3];
        /* finite values: MAX is fmax, without libm's call */
        double bx = MAX(fabs(x0 - a->x), fabs(x1 - a->x));
        double by = MAX(fabs(y0 - a->y), fabs(y1 - a->y));

        if (fabs((double)(b->x - a->x)) * by +
            fabs((double)(b->y - a->y)) * bx >= 0x1p50) {
            return false;
        }
        pe->right[j] = (RasterV2d) { 0, (double)pe->step_x[j] };
        pe->down[j] = (RasterV2d) { (double)pe->step_y[j],
                                    (double)pe->step_y[j] };
        pe->min[j] = (RasterV2d) { (double)-pe->bias[j],
                                   (double)-pe->bias[j] };
    }
    pe->area = (RasterV2d) { (double)r->area, (double)r->area };
    return true;
}

static uint64_t raster_poly(Raster *r, const Poly *poly)
{
    const Grid *g = &r->g;
    unsigned n = poly->n;
    int64_t minx, miny, maxx, maxy, px0, py0, px1, py1;
    uint64_t covered = 0;
    PolyEdges pe = { .n = n };
    /* sampled at the pixel centres only; a triangle so: quad_cover_tri */
    bool centre = r->nsamples == 1 && !r->samples->pos[0][0] &&
                  !r->samples->pos[0][1];
    bool tri = n == 3 && centre, tri_d;

    minx = maxx = poly->p[0].x;
    miny = maxy = poly->p[0].y;
    for (unsigned j = 0; j < n; j++) {
        const Fix *a = &poly->p[j], *b = &poly->p[(j + 1) % n];

        pe.bias[j] = top_left(a, b) ? 0 : -1;
        /* an edge function's steps: a pixel right, a pixel down */
        pe.step_x[j] = -(b->y - a->y) * g->one;
        pe.step_y[j] = (b->x - a->x) * g->one;
        minx = MIN(minx, a->x);
        maxx = MAX(maxx, a->x);
        miny = MIN(miny, a->y);
        maxy = MAX(maxy, a->y);
    }
    if (centre) {
        /* pixels whose centre is in the (closed) bounding box: a centre
           inside the polygon or on its edge is */
        px0 = MAX((int64_t)r->x0, (minx - g->half + g->one - 1) >> g->bits);
        px1 = MIN((int64_t)r->x1, ((maxx - g->half) >> g->bits) + 1);
        py0 = MAX((int64_t)r->y0, (miny - g->half + g->one - 1) >> g->bits);
        py1 = MIN((int64_t)r->y1, ((maxy - g->half) >> g->bits) + 1);
    } else {
        /* pixels with a sample (within half a pixel of the centre) in */
        px0 = MAX((int64_t)r->x0, (minx - g->one) >> g->bits);
        px1 = MIN((int64_t)r->x1, (maxx >> g->bits) + 1);
        py0 = MAX((int64_t)r->y0, (miny - g->one) >> g->bits);
        py1 = MIN((int64_t)r->y1, (maxy >> g->bits) + 1);
    }
    if (px0 >= px1 || py0 >= py1) {
        return 0;
    }
    px0 &= ~(int64_t)1;
    py0 &= ~(int64_t)1;
    tri_d = tri && r->kind == BARY_TRIANGLE &&
            tri_in_double(r, poly, &pe, px0, px1, py0, py1);

    for (int qy = py0; qy < py1; qy += 2) {
        int64_t qx0 = px0, qx1 = px1;
        bool tri_row = tri && qy >= r->y0 && qy + 2 <= r->y1;

        /* a row of a few quads is tested whole: its span's divisions
           cost more than the quads they would rule out (the per-quad
           test decides coverage either way) */
        if (px1 - px0 > NARROW_ROW &&
            !quad_row_span(g, poly, qy, &qx0, &qx1)) {
            continue;
        }
        /* at the centre of the row's first pixel, then stepped: exact
           integers, the same as edge() at each centre */
        for (unsigned j = 0; j < n; j++) {
            pe.row[j] = edge(&poly->p[j], &poly->p[(j + 1) % n],
                             qx0 * g->one + g->half,
                             (int64_t)qy * g->one + g->half);
        }
        for (int qx = qx0; qx < qx1; qx += 2) {
            RasterQuad q = { .x = qx, .y = qy };
            int64_t e[4][4];
            bool inner = tri_row && qx >= r->x0 && qx + 2 <= r->x1;

            /* coverage first: the weights only for quads with a sample */
            if (inner && tri_d) {
                covered += quad_tri_d(r, &pe, &q);
            } else {
                covered += inner ? quad_cover_tri(&pe, &q, e)
                                 : quad_cover(r, poly, &pe, &q, e);
                if (q.mask) {
                    quad_weights(r, &q, e);
                }
            }
            if (q.mask) {
                r->fn(r->opaque, &q);
            }
            for (unsigned j = 0; j < n; j++) {
                pe.row[j] += 2 * pe.step_x[j];
            }
        }
    }
    return covered;
}

uint64_t raster_triangle(const RasterVert v[3], const RasterParams *p,
                         RasterQuadFn fn, void *opaque)
{
    Raster r = { .kind = BARY_TRIANGLE, .order = { 0, 1, 2 } };
    Poly poly = { .n = 3 };

    raster_init(&r, p, fn, opaque);
    for (int i = 0; i < 3; i++) {
        poly.p[i].x = snap(&r.g, v[i].x);
        poly.p[i].y = snap(&r.g, v[i].y);
    }
    r.area = edge(&poly.p[0], &poly.p[1], poly.p[2].x, poly.p[2].y);
    if (r.area == 0) {
        return 0;
    }
    if (r.area < 0) {
        /* make it clockwise; barycentrics are mapped back via order[] */
        Fix t = poly.p[1];

        poly.p[1] = poly.p[2];
        poly.p[2] = t;
        r.order[1] = 2;
        r.order[2] = 1;
        r.area = -r.area;
    }
    return raster_poly(&r, &poly);
}

uint64_t raster_point(const RasterVert *v, float size, const RasterParams *p,
                      RasterQuadFn fn, void *opaque)
{
    Raster r = { .kind = BARY_POINT };
    Poly poly = { .n = 4 };
    int64_t l, t, rt, b;
    float h;

    if (!(size > 0.0f)) {
        return 0;
    }
    h = MIN(size, MAX_SIZE) * 0.5f;
    raster_init(&r, p, fn, opaque);
    /* each side snapped on its own, as a clipped quad's corners would be */
    l = snap(&r.g, v->x - h);
    rt = snap(&r.g, v->x + h);
    t = snap(&r.g, v->y - h);
    b = snap(&r.g, v->y + h);
    if (l >= rt || t >= b) {
        return 0;
    }
    poly.p[0] = (Fix) { l, t };
    poly.p[1] = (Fix) { rt, t };
    poly.p[2] = (Fix) { rt, b };
    poly.p[3] = (Fix) { l, b };
    return raster_poly(&r, &poly);
}

/* ---- lines ---- */

/*
 * The rectangle around the segment, @width pixels across, not extended
 * past the end points (D3D10's lines with multisampling, GL's
 * multisampled lines).  The offset across is snapped once, so the four
 * corners form an exact parallelogram.
 */
static uint64_t raster_line_rect(Raster *r, float width)
{
    const Grid *g = &r->g;
    double len = hypot((double)r->d.x, (double)r->d.y);
    double k = MIN(width, MAX_SIZE) * 0.5 * (1 << g->snap) / len;
    Fix o = {
        llrint(-r->d.y * k) * g->scale,
        llrint(r->d.x * k) * g->scale,
    };
    Poly poly = { .n = 4 };

    poly.p[0] = (Fix) { r->a.x - o.x, r->a.y - o.y };
    poly.p[1] = (Fix) { r->a.x + r->d.x - o.x, r->a.y + r->d.y - o.y };
    poly.p[2] = (Fix) { r->a.x + r->d.x + o.x, r->a.y + r->d.y + o.y };
    poly.p[3] = (Fix) { r->a.x + o.x, r->a.y + o.y };
    if (edge(&poly.p[0], &poly.p[1], poly.p[2].x, poly.p[2].y) <= 0) {
        /* counter-clockwise, or too thin to cover anything */
        Fix t = poly.p[1];

        poly.p[1] = poly.p[3];
        poly.p[3] = t;
        if (edge(&poly.p[0], &poly.p[1], poly.p[2].x, poly.p[2].y) <= 0) {
            return 0;
        }
    }
    return raster_poly(r, &poly);
}

/*
 * The values of t in [0, 1] a segment P(t) = A + t D keeps after linear
 * constraints: lo < t < hi, each bound n / d (d > 0) and open or closed.
 * Numerators and denominators stay below 2^31 (grid units of positions
 * under 2^29), so products fit int64.
 */
typedef struct Span {
    int64_t lo_n, lo_d, hi_n, hi_d;
    bool lo_open, hi_open, empty;
} Span;

static int cmp_frac(int64_t n1, int64_t d1, int64_t n2, int64_t d2)
{
    int64_t l = n1 * d2, r = n2 * d1;

    return (l > r) - (l < r);
}

/* Keep the t with a + t b < c (@strict) or a + t b <= c. */
static void span_clip(Span *s, int64_t a, int64_t b, int64_t c, bool strict)
{
    int k;

    if (b == 0) {
        if (strict ? !(a < c) : !(a <= c)) {
            s->empty = true;
        }
    } else if (b > 0) {
        k = cmp_frac(c - a, b, s->hi_n, s->hi_d);
        if (k < 0) {
            s->hi_n = c - a;
            s->hi_d = b;
            s->hi_open = strict;
        } else if (k == 0) {
            s->hi_open |= strict;
        }
    } else {
        k = cmp_frac(a - c, -b, s->lo_n, s->lo_d);
        if (k > 0) {
            s->lo_n = a - c;
            s->lo_d = -b;
            s->lo_open = strict;
        } else if (k == 0) {
            s->lo_open |= strict;
        }
    }
}

static bool span_empty(const Span *s)
{
    int k;

    if (s->empty) {
        return true;
    }
    k = cmp_frac(s->lo_n, s->lo_d, s->hi_n, s->hi_d);
    return k > 0 || (k == 0 && (s->lo_open || s->hi_open));
}

/*
 * D3D10's diamond test area of a pixel, relative to its centre, h = half
 * a pixel: |x| + |y| < h, plus the lower-left and lower-right edges and
 * the bottom corner; for a y-major line the right corner too.  With
 * u = x + y and v = y - x: u <= h, v <= h, u > -h, v > -h.
 */
static bool diamond_holds(int64_t x, int64_t y, int64_t h, bool ymajor)
{
    int64_t u = x + y, v = y - x;

    return (u <= h && v <= h && -u < h && -v < h)
           || (ymajor && x == h && y == 0);
}

/*
 * Whether the segment exits the diamond of the pixel centred at (cx, cy):
 * it meets the test area, and its end point is not in it.
 */
static bool diamond_exit(const Raster *r, int64_t cx, int64_t cy,
                         bool ymajor)
{
    int64_t h = r->g.half;
    int64_t ax = r->a.x - cx, ay = r->a.y - cy;
    int64_t ua = ax + ay, va = ay - ax;
    int64_t du = r->d.x + r->d.y, dv = r->d.y - r->d.x;
    Span s = { .lo_n = 0, .lo_d = 1, .hi_n = 1, .hi_d = 1 };

    if (diamond_holds(ax + r->d.x, ay + r->d.y, h, ymajor)) {
        return false;
    }
    span_clip(&s, ua, du, h, false);
    span_clip(&s, va, dv, h, false);
    span_clip(&s, -ua, -du, h, true);
    span_clip(&s, -va, -dv, h, true);
    if (!span_empty(&s)) {
        return true;
    }
    if (ymajor) {
        /* the right corner (h, 0) on the segment */
        int64_t rx = h - ax, ry = -ay;
        int64_t dot = rx * r->d.x + ry * r->d.y;

        return r->d.x * ry == r->d.y * rx && dot >= 0
               && dot <= r->d.x * r->d.x + r->d.y * r->d.y;
    }
    return false;
}

/* One quad of a diamond-rule line; returns the covered pixels. */
static uint64_t diamond_quad(const Raster *r, int qx, int qy, bool ymajor)
{
    RasterQuad q = { .x = qx, .y = qy };
    uint64_t covered = 0;

    for (int i = 0; i < 4; i++) {
        int x = qx + (i & 1), y = qy + (i >> 1);
        int64_t cx = (int64_t)x * r->g.one + r->g.half;
        int64_t cy = (int64_t)y * r->g.one + r->g.half;

        line_bary(r, cx, cy, q.bary[i]);
        if (in_scissor(r, x, y) && diamond_exit(r, cx, cy, ymajor)) {
            q.samples[i] = 1;
            q.mask |= 1u << i;
            covered++;
        }
    }
    if (q.mask) {
        r->fn(r->opaque, &q);
    }
    return covered;
}

/*
 * Aliased lines: pixels whose diamond the segment exits.  Candidates:
 * along the major axis two columns (rows) at a time, the rows (columns)
 * the segment crosses there, one more on each side.
 */
static uint64_t raster_line_diamond(Raster *r)
{
    const Grid *g = &r->g;
    bool ymajor = llabs(r->d.y) > llabs(r->d.x);
    /* major (m) and minor (n) coordinates, pixels */
    double ma = (ymajor ? r->a.y : r->a.x) / (double)g->one;
    double na = (ymajor ? r->a.x : r->a.y) / (double)g->one;
    double dm = (ymajor ? r->d.y : r->d.x) / (double)g->one;
    double dn = (ymajor ? r->d.x : r->d.y) / (double)g->one;
    double mlo = MIN(ma, ma + dm), mhi = MAX(ma, ma + dm);
    int m0 = ymajor ? r->y0 : r->x0, m1 = ymajor ? r->y1 : r->x1;
    int n0 = ymajor ? r->x0 : r->y0, n1 = ymajor ? r->x1 : r->y1;
    uint64_t covered = 0;

    m0 = MAX(m0, (int)floor(mlo) - 1) & ~1;
    m1 = MIN(m1, (int)floor(mhi) + 2);
    for (int qm = m0; qm < m1; qm += 2) {
        /* the segment's minor extent over [qm - 1, qm + 3] */
        double s = MAX(mlo, qm - 1.0), e = MIN(mhi, qm + 3.0);
        double ns, ne;
        int lo, hi;

        if (s > e) {
            continue;
        }
        ns = na + (s - ma) * dn / dm;
        ne = na + (e - ma) * dn / dm;
        lo = MAX(n0, (int)floor(MIN(ns, ne)) - 1) & ~1;
        hi = MIN(n1, (int)floor(MAX(ns, ne)) + 2);
        for (int qn = lo; qn < hi; qn += 2) {
            covered += ymajor ? diamond_quad(r, qn, qm, true)
                              : diamond_quad(r, qm, qn, false);
        }
    }
    return covered;
}

uint64_t raster_line(const RasterVert v[2], float width,
                     const RasterParams *p, RasterQuadFn fn, void *opaque)
{
    Raster r = { .kind = BARY_LINE };

    raster_init(&r, p, fn, opaque);
    r.a.x = snap(&r.g, v[0].x);
    r.a.y = snap(&r.g, v[0].y);
    r.d.x = snap(&r.g, v[1].x) - r.a.x;
    r.d.y = snap(&r.g, v[1].y) - r.a.y;
    if ((r.d.x == 0 && r.d.y == 0) || !(width > 0.0f)) {
        return 0;
    }
    if (width == 1.0f && r.nsamples == 1) {
        return raster_line_diamond(&r);
    }
    return raster_line_rect(&r, width);
}
