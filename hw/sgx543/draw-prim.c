/*
 * SGX543 primitives: assembly of points, lines and triangles from the
 * vertex program's outputs, clipping against w > 0 and a guard band,
 * viewport and culling, lines and points as quadrilaterals, all handed
 * to the shared rasteriser (draw-frag.c takes its quads).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "draw-int.h"

#include <math.h>

/* ---- triangles ---- */

/* The shared rasteriser's parameters: the surface, SGX's snapping and
   sample pattern. */
static RasterParams raster_params(const Sgx543State *s)
{
    return (RasterParams) {
        .x1 = s->width,
        .y1 = s->height,
        .subpixel_bits = SGX_SUBPIXEL_BITS,
        .samples = s->pattern,
    };
}

static float guard_band(const DrawCtx *c)
{
    return c->s->viewport.enable ? 64.0f : 262144.0f;
}

/*
 * Distance to the clip planes: a guard band around x and y, then w > 0.
 * The guard planes come first: they cut an edge that crosses w = 0 well
 * away from it, where x / w and y / w are still accurate.
 */
static float plane_dist(const ClipVert *v, int plane, float guard)
{
    switch (plane) {
    case 0:
        return guard * v->pos[3] - v->pos[0];
    case 1:
        return guard * v->pos[3] + v->pos[0];
    case 2:
        return guard * v->pos[3] - v->pos[1];
    case 3:
        return guard * v->pos[3] + v->pos[1];
    default:
        return v->pos[3] - 1e-6f;
    }
}

static unsigned clip_polygon(ClipVert *poly, unsigned n, unsigned nvar,
                             float guard)
{
    ClipVert tmp[MAX_CLIP_VERTS];

    for (int plane = 0; plane < 5 && n; plane++) {
        unsigned m = 0;

        for (unsigned i = 0; i < n; i++) {
            const ClipVert *a = &poly[i], *b = &poly[(i + 1) % n];
            float da = plane_dist(a, plane, guard);
            float db = plane_dist(b, plane, guard);

            if (da >= 0 && m < MAX_CLIP_VERTS) {
                tmp[m++] = *a;
            }
            if ((da >= 0) != (db >= 0) && m < MAX_CLIP_VERTS) {
                float t = da / (da - db);
                ClipVert *o = &tmp[m++];
                for (int k = 0; k < 4; k++) {
                    o->pos[k] = a->pos[k] + (b->pos[k] - a->pos[k]) * t;
                }
                for (unsigned k = 0; k < nvar; k++) {
                    o->var[k] = a->var[k] + (b->var[k] - a->var[k]) * t;
                }
            }
        }
        memcpy(poly, tmp, sizeof(ClipVert) * m);
        n = m;
    }
    return n;
}

static void to_screen(const DrawCtx *c, const ClipVert *v, RasterVert *o)
{
    const SgxViewport *vp = &c->s->viewport;
    float iw = 1.0f / v->pos[3];

    o->inv_w = iw;
    if (vp->enable) {
        o->x = v->pos[0] * iw * vp->xs + vp->xo;
        o->y = v->pos[1] * iw * vp->ys + vp->yo;
        o->z = v->pos[2] * iw * vp->zs + vp->zo;
    } else {
        /* UNVERIFIED: disabled = x/w, y/w, z/w are window coordinates */
        o->x = v->pos[0] * iw;
        o->y = v->pos[1] * iw;
        o->z = v->pos[2] * iw;
    }
}

/* @v[0..2]: the vertices' outputs, o0..o3 then the varyings */
static void draw_triangle(DrawCtx *c, const float *v0, const float *v1,
                          const float *v2)
{
    Sgx543State *s = c->s;
    RasterParams rp = raster_params(s);
    ClipVert poly[MAX_CLIP_VERTS];
    const float *v[3] = { v0, v1, v2 };
    unsigned n;
    float guard = guard_band(c);

    for (int i = 0; i < 3; i++) {
        memcpy(poly[i].pos, v[i], 4 * sizeof(float));
        memcpy(poly[i].var, v[i] + 4, c->nvar * sizeof(float));
    }
    n = clip_polygon(poly, 3, c->nvar, guard);
    for (unsigned i = 1; i + 1 < n && !c->abort; i++) {
        float area;

        c->cv[0] = &poly[0];
        c->cv[1] = &poly[i];
        c->cv[2] = &poly[i + 1];
        for (int j = 0; j < 3; j++) {
            to_screen(c, c->cv[j], &c->sv[j]);
        }
        area = raster_triangle_area(c->sv);
        if ((s->raster.cull == SGX_CULL_CW && area > 0)
            || (s->raster.cull == SGX_CULL_CCW && area < 0)) {
            continue;
        }
        raster_triangle(c->sv, &rp, sgx_draw_raster_quad, c);
        sgx_draw_flush_quads(c);
    }
}

/* ---- lines and points ---- */

/*
 * Rasterise a quadrilateral (corners in order around it) as the
 * triangles (0, 1, 2) and (0, 2, 3); the top-left rule gives each pixel
 * on the shared diagonal to one of them.  @cv: the vertex whose
 * varyings each corner carries.
 */
static void raster_quadrilateral(DrawCtx *c, const RasterVert corner[4],
                                 const ClipVert *const cv[4])
{
    RasterParams rp = raster_params(c->s);

    for (int t = 0; t < 2 && !c->abort; t++) {
        const int idx[3] = { 0, 1 + t, 2 + t };

        for (int j = 0; j < 3; j++) {
            c->sv[j] = corner[idx[j]];
            c->cv[j] = cv[idx[j]];
        }
        raster_triangle(c->sv, &rp, sgx_draw_raster_quad, c);
    }
    sgx_draw_flush_quads(c);
}

/* Clip a segment against w > 0 and the guard band; false if nothing is
   left. */
static bool clip_segment(ClipVert *a, ClipVert *b, unsigned nvar,
                         float guard)
{
    for (int plane = 0; plane < 5; plane++) {
        float da = plane_dist(a, plane, guard);
        float db = plane_dist(b, plane, guard);
        ClipVert *out = da < 0 ? a : b;
        const ClipVert *in = da < 0 ? b : a;
        float din = da < 0 ? db : da, dout = da < 0 ? da : db, f;

        if (isnan(da) || isnan(db) || (da < 0 && db < 0)) {
            return false;
        }
        if (da >= 0 && db >= 0) {
            continue;
        }
        /* the outside end moves onto the plane */
        f = din / (din - dout);
        for (int k = 0; k < 4; k++) {
            out->pos[k] = in->pos[k] + (out->pos[k] - in->pos[k]) * f;
        }
        for (unsigned k = 0; k < nvar; k++) {
            out->var[k] = in->var[k] + (out->var[k] - in->var[k]) * f;
        }
    }
    return true;
}

/*
 * A line of @width pixels (docs/devel/sgx543.md, "Lines and points"):
 * the parallelogram around the segment, offset by width / 2 across the
 * major axis, rasterised with the triangle rules.  UNVERIFIED: SGX's
 * line rules.
 */
static void draw_line(DrawCtx *c, const float *v0, const float *v1,
                      float width)
{
    ClipVert a, b;
    RasterVert sa, sb, corner[4];
    const ClipVert *cv[4] = { &a, &b, &b, &a };
    float ox = 0, oy = 0;

    memcpy(a.pos, v0, 4 * sizeof(float));
    memcpy(a.var, v0 + 4, c->nvar * sizeof(float));
    memcpy(b.pos, v1, 4 * sizeof(float));
    memcpy(b.var, v1 + 4, c->nvar * sizeof(float));
    if (!clip_segment(&a, &b, c->nvar, guard_band(c))) {
        return;
    }
    to_screen(c, &a, &sa);
    to_screen(c, &b, &sb);
    if (fabsf(sb.x - sa.x) >= fabsf(sb.y - sa.y)) {
        oy = width * 0.5f;      /* x-major: a band of rows */
    } else {
        ox = width * 0.5f;
    }
    corner[0] = sa, corner[1] = sb, corner[2] = sb, corner[3] = sa;
    corner[0].x -= ox, corner[0].y -= oy;
    corner[1].x -= ox, corner[1].y -= oy;
    corner[2].x += ox, corner[2].y += oy;
    corner[3].x += ox, corner[3].y += oy;
    raster_quadrilateral(c, corner, cv);
}

/*
 * A point: a square of @size pixels centred on the vertex (raster_point),
 * its varyings and depth those of the vertex.  UNVERIFIED: the rules; no
 * sprite coordinates.  Points with w <= 0 or outside the guard band are
 * dropped.
 */
static void draw_point(DrawCtx *c, const float *v, float size)
{
    RasterParams rp = raster_params(c->s);
    ClipVert p;
    RasterVert sp;

    memcpy(p.pos, v, 4 * sizeof(float));
    memcpy(p.var, v + 4, c->nvar * sizeof(float));
    for (int plane = 0; plane < 5; plane++) {
        if (!(plane_dist(&p, plane, guard_band(c)) >= 0)) {
            return;
        }
    }
    to_screen(c, &p, &sp);
    /* weights (1, 0, 0); a degenerate triangle gives the same at samples */
    for (int j = 0; j < 3; j++) {
        c->sv[j] = sp;
        c->cv[j] = &p;
    }
    raster_point(&sp, size, &rp, sgx_draw_raster_quad, c);
    sgx_draw_flush_quads(c);
}

/* Point size: the program's PSIZE output (its last), else the raster
   state's width; at least 1 pixel (UNVERIFIED: the range). */
static float point_size(const DrawCtx *c, const float *v)
{
    float size = c->s->raster.point_width;

    if (c->vp->flags & SGX_PROG_PSIZE) {
        size = v[c->vp->vout - 1];
    }
    if (!(size >= 1.0f)) {
        return 1.0f;
    }
    return fminf(size, SGX_MAX_POINT_SIZE);
}

/* Primitives from the vertices' outputs (@vstride floats each). */
void sgx_draw_assemble(DrawCtx *c, unsigned prim, const float *vout,
                       size_t vstride, uint32_t count)
{
    float width = c->s->raster.point_width;
#define V(i) (vout + (size_t)(i) * vstride)

    switch (prim) {
    case SGX_PRIM_POINTS:
        for (uint32_t i = 0; i < count && !c->abort; i++) {
            draw_point(c, V(i), point_size(c, V(i)));
        }
        break;
    case SGX_PRIM_LINES:
        for (uint32_t i = 0; i + 1 < count && !c->abort; i += 2) {
            draw_line(c, V(i), V(i + 1), width);
        }
        break;
    case SGX_PRIM_LINE_STRIP:
        for (uint32_t i = 0; i + 1 < count && !c->abort; i++) {
            draw_line(c, V(i), V(i + 1), width);
        }
        break;
    case SGX_PRIM_TRIANGLE_EDGES:
        /* UNVERIFIED: every edge is drawn (no edge-enable flags) */
        for (uint32_t i = 0; i + 2 < count && !c->abort; i += 3) {
            draw_line(c, V(i), V(i + 1), width);
            draw_line(c, V(i + 1), V(i + 2), width);
            draw_line(c, V(i + 2), V(i), width);
        }
        break;
    default: {
        unsigned ntri = prim == SGX_PRIM_TRIANGLES ? count / 3 : count - 2;

        for (unsigned t = 0; t < ntri && !c->abort; t++) {
            unsigned a, b, d;
            if (prim == SGX_PRIM_TRIANGLES) {
                a = 3 * t, b = 3 * t + 1, d = 3 * t + 2;
            } else if (prim == SGX_PRIM_TRIANGLE_STRIP) {
                /* odd triangles swap to keep the winding */
                a = t + (t & 1), b = t + 1 - (t & 1), d = t + 2;
            } else {
                a = 0, b = t + 1, d = t + 2;
            }
            draw_triangle(c, V(a), V(b), V(d));
        }
        break;
    }
    }
#undef V
}
