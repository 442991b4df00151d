/*
 * Clipping, the perspective divide, the viewport, depth range, culling
 * and front face: assembled primitives of NV50PipeVertex into
 * NV50PipePrims (rnndb g80_3d.xml; what Mesa's nv50_state.c sends).
 *
 * - Planes, as signed distances (clip coordinates), a vertex inside
 *   where all are >= 0:
 *   - near z + w (DEPTH_CLIP_NEGATIVE_Z: z), unless VIEW_VOLUME_CLIP_CTRL
 *     DEPTH_CLAMP_NEAR; far w - z, unless DEPTH_CLAMP_FAR (Mesa sets
 *     both for depth_clip_near = false);
 *   - x and y: a guard band, not the view volume: a primitive is cut only
 *     where it leaves +-GUARD_BAND pixels of the render target's
 *     origin, so the rasteriser (hw/core/raster.c) gets coordinates it
 *     takes; what lies outside the viewport but inside the band is the
 *     back end's to bound (scissor/viewport rectangles, nv50_rop_bounds).
 *     UNVERIFIED: the G84's band size, and whether VIEW_VOLUME_CLIP_CTRL
 *     UNK7 (Mesa: set) asks for exact x/y clipping -- a triangle drawn
 *     through the band and bounded by the viewport rectangle covers the
 *     same pixels;
 *   - w >= W_MIN, so the divide is safe;
 *   - user clip distances: SEMANTIC_CLIP (first result, count), those
 *     CLIP_DISTANCE_ENABLE enables, CLIP mode cut, CULL mode (rnndb
 *     CLIP_DISTANCE_MODE) drops a primitive all of whose vertices have
 *     that distance < 0.
 *   Points are dropped when outside; lines cut; triangles cut
 *   (Sutherland-Hodgman) and the polygon fanned from its first vertex.
 *   New vertices interpolate position and every result word (as floats)
 *   linearly in clip space; the provoking vertex stays the original.
 * - VIEWPORT_TRANSFORM_EN: x / w * SCALE + TRANSLATE of the primitive's
 *   viewport, the same for y and z; without it the position is taken as
 *   window coordinates (Mesa's blits), unclipped and undivided
 *   (UNVERIFIED).  z is clamped to [DEPTH_RANGE_NEAR, DEPTH_RANGE_FAR]
 *   of that viewport (UNVERIFIED: that the clamp applies without the
 *   DEPTH_CLAMP bits; it only matters for those).
 * - The viewport: 0, or with GP_VIEWPORT_ID_ENABLE the provoking
 *   vertex's result word SEMANTIC_VIEWPORT.VIEWPORT_ID (an integer; what
 *   Mesa's GP writes for gl_ViewportIndex), 0 when it is 16 or more
 *   (UNVERIFIED, as D3D10 has it; GL leaves it undefined).  The layer:
 *   LAYER.IDX, or with LAYER USE_GP the provoking vertex's word
 *   SEMANTIC_LAYER.LAYER_ID (gl_Layer; UNVERIFIED: that a VP's outputs
 *   would be read the same without a GP).  Both go with every piece of
 *   the primitive (NV50PipePrim.layer, .viewport): the back end draws
 *   it into that layer (rop.c) inside that viewport's SCISSOR_*.
 *   UNVERIFIED: which vertex gives them (GL: undefined; Mesa reports
 *   GL_UNDEFINED_VERTEX), the provoking one here.
 * - Facing: the winding of the window-space triangle as seen with y
 *   down (window row 0 at the top), gallium's front_ccw convention:
 *   CCW is a negative signed area x0*y1 - x1*y0 + ... in raw window
 *   coordinates (softpipe's det < 0).  st/mesa flips y in a window
 *   surface's viewport (VIEWPORT_SCALE_Y < 0) and sends GL's FrontFace
 *   as it is, and for an FBO keeps y and inverts FrontFace, so GL's
 *   CCW-in-NDC front is front either way (kmscube's culled cube).
 *   FRONT_FACE CW/CCW names the front; CULL_FACE_ENABLE with
 *   CULL_FACE FRONT, BACK or FRONT_AND_BACK drops; zero-area triangles
 *   are dropped.  SCREEN_Y_CONTROL (Y_NEGATE, TRIANGLE_RAST_FLIP;
 *   Mesa writes 0) is not modelled: logged when set.
 * - POLYGON_MODE_FRONT/BACK LINE or POINT: the edges of the polygon
 *   the triangle came from (a quad's or polygon's inner diagonals are
 *   not drawn: nv50_clip_prim's @edges) or their first corners
 *   (UNVERIFIED: edges added by clipping are drawn too; EDGEFLAG is
 *   ignored).
 * - Widths: lines LINE_WIDTH, points the vertex's point size.
 * - Polygon offset (a triangle's, drawn filled, as lines or as points,
 *   when POLYGON_OFFSET_FILL/LINE/POINT_ENABLE): every window z of it
 *   moves by FACTOR * m + UNITS / 2 * r, m the larger of |dz/dx| and
 *   |dz/dy| over the triangle, r the smallest step of the depth
 *   buffer: 2^-16 or 2^-24 for Z16/Z24 formats, for a float one 2^(e -
 *   23) with e the exponent of the triangle's largest |z|; a CLAMP > 0
 *   caps it, < 0 floors it; then z is clamped to the depth range again.
 *   UNVERIFIED: UNITS / 2 -- Mesa sends GL's units * 2 (nv50_state.c),
 *   so the hardware's unit must be half of GL's r.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "draw.h"
#include "rop.h"

#include <math.h>

#define GUARD_BAND      16384.0f
#define W_MIN           1e-20f
#define MAX_PLANES      (6 + 8)
#define MAX_POLY        (3 + MAX_PLANES)
#define POLY_MODE_POINT 0x1b00
#define POLY_MODE_LINE  0x1b01

typedef struct ClipState {
    const NV50Gr3dState *st;
    unsigned viewport;
    uint32_t layer;
    bool transform;
    float scale[3], translate[3];
    float zmin, zmax;
    /* frustum planes: dist = dot(plane, clip) */
    float plane[MAX_PLANES][4];
    unsigned nplanes;
    /* user clip distances: result words */
    unsigned ucd_word[8];
    unsigned nucd;
    NV50PrimEmit emit;
    void *opaque;
    const NV50PipeVertex *provoking;
    /* vertices made by clipping */
    NV50PipeVertex *pool;
    unsigned npool;
    unsigned emitted;
} ClipState;

static void add_plane(ClipState *cs, float a, float b, float c, float d)
{
    float *p = cs->plane[cs->nplanes++];

    p[0] = a;
    p[1] = b;
    p[2] = c;
    p[3] = d;
}

/* Result word @w of @v as an integer (0 if it has none). */
static uint32_t result_word(const NV50PipeVertex *v, unsigned w)
{
    return v && w < v->out_words && w < NV50_PIPE_OUT_WORDS ? v->out[w] : 0;
}

/* The viewport and layer of a primitive whose provoking vertex is @pv. */
static void clip_select(ClipState *cs, const NV50Gr3dState *st,
                        const NV50PipeVertex *pv)
{
    uint32_t layer = nv50_st(st, NV50_3D_LAYER);
    uint32_t vp = 0;

    if (nv50_st(st, NV50_3D_GP_VIEWPORT_ID_ENABLE) & 1) {
        vp = result_word(pv, nv50_st(st, NV50_3D_SEMANTIC_VIEWPORT) & 0xff);
    }
    cs->viewport = vp < NV50_3D_VIEWPORTS ? vp : 0;
    cs->layer = layer & NV50_3D_LAYER_IDX;
    if (layer & NV50_3D_LAYER_USE_GP) {
        cs->layer = result_word(pv, nv50_st(st, NV50_3D_SEMANTIC_LAYER) &
                                    0xff);
    }
}

static void clip_setup(ClipState *cs, const NV50Gr3dState *st,
                       const NV50PipeVertex *pv)
{
    uint32_t vvcc = nv50_st(st, NV50_3D_VIEW_VOLUME_CLIP_CTRL);
    uint32_t en = nv50_st(st, NV50_3D_CLIP_DISTANCE_ENABLE);
    uint32_t mode = nv50_st(st, NV50_3D_CLIP_DISTANCE_MODE);
    uint32_t sem = nv50_st(st, NV50_3D_SEMANTIC_CLIP);
    uint32_t vpo, dro;
    float n, f;

    /* every field a primitive reads, set (planes and user distance
       words as far as nplanes and nucd; no memset of the rest a
       primitive) */
    cs->st = st;
    cs->nplanes = 0;
    cs->nucd = 0;
    cs->emit = NULL;
    cs->opaque = NULL;
    cs->provoking = NULL;
    cs->pool = NULL;
    cs->npool = 0;
    cs->emitted = 0;
    clip_select(cs, st, pv);
    vpo = cs->viewport * NV50_3D_VIEWPORT_STRIDE;
    dro = cs->viewport * NV50_3D_DEPTH_RANGE_STRIDE;
    n = nv50_stf(st, NV50_3D_DEPTH_RANGE_NEAR + dro);
    f = nv50_stf(st, NV50_3D_DEPTH_RANGE_FAR + dro);
    cs->transform = nv50_st(st, NV50_3D_VIEWPORT_TRANSFORM_EN) & 1;
    for (unsigned i = 0; i < 3; i++) {
        cs->scale[i] = nv50_stf(st, NV50_3D_VIEWPORT_SCALE_X + vpo + 4 * i);
        cs->translate[i] = nv50_stf(st, NV50_3D_VIEWPORT_TRANSLATE_X + vpo +
                                        4 * i);
    }
    cs->zmin = MIN(n, f);
    cs->zmax = MAX(n, f);
    if (!cs->transform) {
        return;
    }
    if (!(vvcc & NV50_3D_VVCC_DEPTH_CLAMP_NEAR)) {
        if (nv50_st(st, NV50_3D_DEPTH_CLIP_NEGATIVE_Z) & 1) {
            add_plane(cs, 0, 0, 1, 0);
        } else {
            add_plane(cs, 0, 0, 1, 1);
        }
    }
    if (!(vvcc & NV50_3D_VVCC_DEPTH_CLAMP_FAR)) {
        add_plane(cs, 0, 0, -1, 1);
    }
    /* -L <= s x / w + t <= L */
    add_plane(cs, cs->scale[0], 0, 0, cs->translate[0] + GUARD_BAND);
    add_plane(cs, -cs->scale[0], 0, 0, GUARD_BAND - cs->translate[0]);
    add_plane(cs, 0, cs->scale[1], 0, cs->translate[1] + GUARD_BAND);
    add_plane(cs, 0, -cs->scale[1], 0, GUARD_BAND - cs->translate[1]);
    add_plane(cs, 0, 0, 0, 1);      /* w >= W_MIN, see dist() */
    for (unsigned k = 0; k < 8 && k < ((sem >> 8) & 0xf); k++) {
        if ((en >> k) & 1 && !((mode >> (4 * k)) & 1)) {
            cs->ucd_word[cs->nucd++] = (sem & 0xff) + k;
        }
    }
}

/* Distance of @v to plane @p (frustum planes, then user distances). */
static inline float dist(const ClipState *cs, const NV50PipeVertex *v, unsigned p)
{
    if (p < cs->nplanes) {
        const float *pl = cs->plane[p];

        if (p == cs->nplanes - 1) {
            return v->clip[3] - W_MIN;
        }
        return pl[0] * v->clip[0] + pl[1] * v->clip[1] +
               pl[2] * v->clip[2] + pl[3] * v->clip[3];
    }
    p -= cs->nplanes;
    return cs->ucd_word[p] < v->out_words
           ? bits_to_f32(v->out[cs->ucd_word[p]]) : 0;
}

/* CULL-mode user distances: true if the primitive is to be dropped. */
static bool ucd_culled(const NV50Gr3dState *st, const NV50PipeVertex *const *v,
                       unsigned n)
{
    uint32_t en = nv50_st(st, NV50_3D_CLIP_DISTANCE_ENABLE);
    uint32_t mode = nv50_st(st, NV50_3D_CLIP_DISTANCE_MODE);
    uint32_t sem = nv50_st(st, NV50_3D_SEMANTIC_CLIP);

    for (unsigned k = 0; k < 8 && k < ((sem >> 8) & 0xf); k++) {
        unsigned w = (sem & 0xff) + k;
        bool all_out = true;

        if (!((en >> k) & 1) || !((mode >> (4 * k)) & 1)) {
            continue;
        }
        for (unsigned i = 0; i < n && all_out; i++) {
            all_out = w < v[i]->out_words && bits_to_f32(v[i]->out[w]) < 0;
        }
        if (all_out) {
            return true;
        }
    }
    return false;
}

static NV50PipeVertex *lerp(ClipState *cs, const NV50PipeVertex *a,
                            const NV50PipeVertex *b, float t)
{
    NV50PipeVertex *v;

    if (!cs->pool) {
        cs->pool = g_new(NV50PipeVertex, MAX_POLY * 2);
    }
    g_assert(cs->npool < MAX_POLY * 2);
    v = &cs->pool[cs->npool++];
    for (unsigned i = 0; i < 4; i++) {
        v->clip[i] = a->clip[i] + t * (b->clip[i] - a->clip[i]);
    }
    v->point_size = a->point_size + t * (b->point_size - a->point_size);
    v->out_words = a->out_words;
    for (unsigned i = 0; i < a->out_words; i++) {
        float fa = bits_to_f32(a->out[i]), fb = bits_to_f32(b->out[i]);

        v->out[i] = a->out[i] == b->out[i] ? a->out[i]
                                           : f32_to_bits(fa + t * (fb - fa));
    }
    return v;
}

static void to_screen(const ClipState *cs, const NV50PipeVertex *v,
                      RasterVert *r)
{
    float w = v->clip[3];

    if (cs->transform) {
        float iw = 1.0f / w;

        r->x = v->clip[0] * iw * cs->scale[0] + cs->translate[0];
        r->y = v->clip[1] * iw * cs->scale[1] + cs->translate[1];
        r->z = v->clip[2] * iw * cs->scale[2] + cs->translate[2];
        r->inv_w = iw;
    } else {
        r->x = v->clip[0];
        r->y = v->clip[1];
        r->z = v->clip[2];
        r->inv_w = w != 0 ? 1.0f / w : 1.0f;
    }
    r->z = MIN(MAX(r->z, cs->zmin), cs->zmax);
}

/*
 * The polygon offset of triangle @r drawn as @kind (0 unless that
 * kind's POLYGON_OFFSET_*_ENABLE is set).
 */
static float poly_offset(const ClipState *cs, const RasterVert *r,
                         NV50PrimKind kind)
{
    static const uint32_t enable[] = {
        [NV50_PRIM_POINTS] = NV50_3D_POLYGON_OFFSET_POINT_ENABLE,
        [NV50_PRIM_LINES] = NV50_3D_POLYGON_OFFSET_LINE_ENABLE,
        [NV50_PRIM_TRIANGLES] = NV50_3D_POLYGON_OFFSET_FILL_ENABLE,
    };
    const NV50Gr3dState *st = cs->st;
    float factor, units, clamp;
    unsigned zbits;
    float ax = r[1].x - r[0].x, ay = r[1].y - r[0].y, az = r[1].z - r[0].z;
    float bx = r[2].x - r[0].x, by = r[2].y - r[0].y, bz = r[2].z - r[0].z;
    float det = ax * by - bx * ay, m = 0, res, off;

    if (!(nv50_st(st, enable[kind]) & 1)) {
        return 0;
    }
    factor = nv50_stf(st, NV50_3D_POLYGON_OFFSET_FACTOR);
    units = nv50_stf(st, NV50_3D_POLYGON_OFFSET_UNITS);
    clamp = nv50_stf(st, NV50_3D_POLYGON_OFFSET_CLAMP);
    zbits = nv50_rop_zeta_bits(nv50_st(st, NV50_3D_ZETA_FORMAT));
    if (det != 0) {
        m = MAX(fabsf((az * by - bz * ay) / det),
                fabsf((bz * ax - az * bx) / det));
    }
    if (zbits == 16 || zbits == 24) {
        res = ldexpf(1.0f, -(int)zbits);
    } else {
        float zmax = MAX(MAX(fabsf(r[0].z), fabsf(r[1].z)), fabsf(r[2].z));
        int e;

        frexpf(zmax, &e);           /* zmax = f * 2^e, 0.5 <= f < 1 */
        res = ldexpf(1.0f, e - 1 - 23);
    }
    off = factor * m + units * 0.5f * res;
    if (clamp > 0) {
        off = MIN(off, clamp);
    } else if (clamp < 0) {
        off = MAX(off, clamp);
    }
    return isfinite(off) ? off : 0;
}

/* @scr: the vertices' to_screen() if the caller has it, else NULL */
static void emit_prim(ClipState *cs, NV50PrimKind kind,
                      const NV50PipeVertex *const *v, const RasterVert *scr,
                      bool front, float zoff)
{
    NV50PipePrim p = {
        .kind = kind,
        .nverts = kind == NV50_PRIM_POINTS ? 1 :
                  kind == NV50_PRIM_LINES ? 2 : 3,
        .provoking = cs->provoking,
        .front = front,
        .layer = cs->layer,
        .viewport = cs->viewport,
    };

    for (unsigned i = 0; i < p.nverts; i++) {
        p.v[i] = v[i];
        if (scr) {
            p.scr[i] = scr[i];
        } else {
            to_screen(cs, v[i], &p.scr[i]);
        }
        if (zoff != 0) {
            p.scr[i].z = MIN(MAX(p.scr[i].z + zoff, cs->zmin), cs->zmax);
        }
    }
    if (kind == NV50_PRIM_LINES) {
        p.width = nv50_stf(cs->st, NV50_3D_LINE_WIDTH);
    } else if (kind == NV50_PRIM_POINTS) {
        p.width = v[0]->point_size;
    }
    cs->emit(cs->opaque, &p);
    cs->emitted++;
}

/*
 * A triangle (already clipped): facing, culling, polygon mode; @edges
 * as nv50_clip_prim's.
 */
static void emit_triangle(ClipState *cs, const NV50PipeVertex *const *v,
                          unsigned edges)
{
    const NV50Gr3dState *st = cs->st;
    RasterVert r[3];
    float area;
    bool ccw, front;
    uint32_t mode;

    for (unsigned i = 0; i < 3; i++) {
        to_screen(cs, v[i], &r[i]);
    }
    area = (r[0].x * r[1].y - r[1].x * r[0].y) +
           (r[1].x * r[2].y - r[2].x * r[1].y) +
           (r[2].x * r[0].y - r[0].x * r[2].y);
    if (!(area != 0)) {
        return;         /* zero area, or NaN */
    }
    ccw = area < 0;             /* counter-clockwise with y down */
    if (nv50_st(st, NV50_3D_SCREEN_Y_CONTROL) & 0x11) {
        gemu_log_once(LOG_UNIMP, "nv50-3d-screen-y",
                      nv50_st(st, NV50_3D_SCREEN_Y_CONTROL), "nv50: 3D "
                      "SCREEN_Y_CONTROL 0x%x (Y_NEGATE, TRIANGLE_RAST_FLIP) "
                      "is not modelled: ignored\n",
                      nv50_st(st, NV50_3D_SCREEN_Y_CONTROL));
    }
    front = ccw == (nv50_st(st, NV50_3D_FRONT_FACE) == NV50_3D_FRONT_FACE_CCW);
    if (nv50_st(st, NV50_3D_CULL_FACE_ENABLE) & 1) {
        switch (nv50_st(st, NV50_3D_CULL_FACE)) {
        case NV50_3D_CULL_FACE_FRONT:
            if (front) {
                return;
            }
            break;
        case NV50_3D_CULL_FACE_BACK:
            if (!front) {
                return;
            }
            break;
        case NV50_3D_CULL_FACE_FRONT_AND_BACK:
            return;
        }
    }
    mode = nv50_st(st, front ? NV50_3D_POLYGON_MODE_FRONT
                             : NV50_3D_POLYGON_MODE_BACK);
    if (mode == POLY_MODE_LINE) {
        float zoff = poly_offset(cs, r, NV50_PRIM_LINES);

        for (unsigned i = 0; i < 3; i++) {
            const NV50PipeVertex *e[2] = { v[i], v[(i + 1) % 3] };

            if (edges & (1u << i)) {
                emit_prim(cs, NV50_PRIM_LINES, e, NULL, front, zoff);
            }
        }
        return;
    }
    if (mode == POLY_MODE_POINT) {
        float zoff = poly_offset(cs, r, NV50_PRIM_POINTS);

        for (unsigned i = 0; i < 3; i++) {
            if (edges & (1u << i)) {
                emit_prim(cs, NV50_PRIM_POINTS, &v[i], NULL, front, zoff);
            }
        }
        return;
    }
    emit_prim(cs, NV50_PRIM_TRIANGLES, v, r, front,
              poly_offset(cs, r, NV50_PRIM_TRIANGLES));
}

unsigned nv50_clip_prim(const NV50Gr3dState *st, NV50PrimKind kind,
                        const NV50PipeVertex *const *v, unsigned edges,
                        const NV50PipeVertex *provoking,
                        NV50PrimEmit emit, void *opaque)
{
    unsigned n = kind == NV50_PRIM_POINTS ? 1 :
                 kind == NV50_PRIM_LINES ? 2 : 3;
    unsigned planes, out_mask = 0;
    ClipState cs;

    if (ucd_culled(st, v, n)) {
        return 0;
    }
    clip_setup(&cs, st, provoking);
    cs.emit = emit;
    cs.opaque = opaque;
    cs.provoking = provoking;
    planes = cs.nplanes + cs.nucd;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned p = 0; p < planes; p++) {
            out_mask |= (unsigned)!(dist(&cs, v[i], p) >= 0) << p;
        }
    }
    if (!out_mask) {
        if (kind == NV50_PRIM_TRIANGLES) {
            emit_triangle(&cs, v, edges);
        } else {
            emit_prim(&cs, kind, v, NULL, true, 0);
        }
        return cs.emitted;
    }
    if (kind == NV50_PRIM_POINTS) {
        return 0;
    }
    if (kind == NV50_PRIM_LINES) {
        float t0 = 0, t1 = 1;
        const NV50PipeVertex *e[2];

        for (unsigned p = 0; p < planes; p++) {
            float d0 = dist(&cs, v[0], p), d1 = dist(&cs, v[1], p);

            if (!(out_mask & (1u << p))) {
                continue;
            }
            if (!(d0 >= 0) && !(d1 >= 0)) {
                return 0;
            }
            if (d0 < 0) {
                t0 = MAX(t0, d0 / (d0 - d1));
            } else if (d1 < 0) {
                t1 = MIN(t1, d0 / (d0 - d1));
            }
        }
        if (t0 >= t1) {
            return 0;
        }
        e[0] = t0 > 0 ? lerp(&cs, v[0], v[1], t0) : v[0];
        e[1] = t1 < 1 ? lerp(&cs, v[0], v[1], t1) : v[1];
        emit_prim(&cs, NV50_PRIM_LINES, e, NULL, true, 0);
        g_free(cs.pool);
        return cs.emitted;
    }
    {
        const NV50PipeVertex *poly[2][MAX_POLY];
        bool edge[2][MAX_POLY];     /* poly[i] -> poly[i + 1] is an edge */
        unsigned cnt = 3, cur = 0;

        for (unsigned i = 0; i < 3; i++) {
            poly[0][i] = v[i];
            edge[0][i] = edges & (1u << i);
        }
        for (unsigned p = 0; p < planes && cnt >= 3; p++) {
            const NV50PipeVertex **in = poly[cur], **out = poly[cur ^ 1];
            const bool *ein = edge[cur];
            bool *eout = edge[cur ^ 1];
            unsigned m = 0;

            if (!(out_mask & (1u << p))) {
                continue;
            }
            for (unsigned i = 0; i < cnt; i++) {
                const NV50PipeVertex *a = in[i], *b = in[(i + 1) % cnt];
                float da = dist(&cs, a, p), db = dist(&cs, b, p);

                if (da >= 0) {
                    eout[m] = ein[i];   /* a -> (b or the cut): its edge */
                    out[m++] = a;
                }
                if ((da >= 0) != (db >= 0) && m < MAX_POLY) {
                    /* entering: the rest of a -> b; leaving: the cut */
                    eout[m] = da >= 0 ? true : ein[i];
                    out[m++] = lerp(&cs, a, b, da / (da - db));
                }
            }
            cnt = MIN(m, (unsigned)MAX_POLY);
            cur ^= 1;
        }
        for (unsigned i = 1; i + 1 < cnt; i++) {
            const NV50PipeVertex *t[3] = {
                poly[cur][0], poly[cur][i], poly[cur][i + 1],
            };
            unsigned e = (edge[cur][i] ? 2u : 0) |
                         (i == 1 && edge[cur][0] ? 1u : 0) |
                         (i + 2 == cnt && edge[cur][cnt - 1] ? 4u : 0);

            emit_triangle(&cs, t, e);
        }
    }
    g_free(cs.pool);
    return cs.emitted;
}
