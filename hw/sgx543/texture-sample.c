/*
 * SGX543 texture sampling: cube face selection, the LOD, wrapping,
 * point and bilinear filtering within a level, and between levels.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "texture-int.h"

#include <math.h>

/* ---- sampling ---- */

/* GL's cube face selection: face 0..5 = +X -X +Y -Y +Z -Z. */
static unsigned cube_face(const float r[3], float *s, float *tc, float *ma)
{
    float ax = fabsf(r[0]), ay = fabsf(r[1]), az = fabsf(r[2]);
    float sc, tcc;
    unsigned face;

    if (ax >= ay && ax >= az) {
        face = r[0] >= 0 ? 0 : 1;
        sc = r[0] >= 0 ? -r[2] : r[2];
        tcc = -r[1];
        *ma = ax;
    } else if (ay >= az) {
        face = r[1] >= 0 ? 2 : 3;
        sc = r[0];
        tcc = r[1] >= 0 ? r[2] : -r[2];
        *ma = ay;
    } else {
        face = r[2] >= 0 ? 4 : 5;
        sc = r[2] >= 0 ? r[0] : -r[0];
        tcc = -r[1];
        *ma = az;
    }
    if (*ma > 0) {
        *s = (sc / *ma + 1.0f) * 0.5f;
        *tc = (tcc / *ma + 1.0f) * 0.5f;
    } else {
        *s = *tc = 0.5f;
    }
    return face;
}

static float safe(float v)
{
    return isfinite(v) ? fminf(fmaxf(v, -1e7f), 1e7f) : 0.0f;
}

float sgx_tex_lod(const SgxTexture *t, const SgxTexLookup *l)
{
    unsigned dim = MIN(MAX(l->dim, 1u), 3u);
    float dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };
    float rx, ry, rho, lod;

    if (l->lod_mode == 2) {
        return safe(l->lod[0]);
    }
    for (unsigned i = 0; i < dim; i++) {
        /* UNVERIFIED: explicit gradients as dx.. then dy.. */
        dx[i] = safe(l->lod_mode == 3 ? l->lod[i] : l->dx[i]);
        dy[i] = safe(l->lod_mode == 3 ? l->lod[dim + i] : l->dy[i]);
    }
    if (sgx_tex_is_cube(t) && dim == 3) {
        float s, tc, ma;
        cube_face(l->coord, &s, &tc, &ma);
        ma = fmaxf(ma, 1e-20f);
        rx = sqrtf(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
        ry = sqrtf(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
        rho = fmaxf(rx, ry) * t->width * 0.5f / ma;
    } else {
        rx = hypotf(dx[0] * t->width, dx[1] * t->height);
        ry = hypotf(dy[0] * t->width, dy[1] * t->height);
        rho = fmaxf(rx, ry);
    }
    lod = rho > 0 ? log2f(rho) : -1000.0f;
    if (l->lod_mode == 1) {
        lod += safe(l->lod[0]);
    }
    return lod;
}

static void texel_wrapped(const SgxTexture *t, const uint8_t *data,
                          const uint8_t *palette, unsigned face,
                          unsigned level, int x, int y, float out[4])
{
    unsigned lw = sgx_tex_level_width(t, level);
    unsigned lh = sgx_tex_level_height(t, level);
    bool cube = sgx_tex_is_cube(t);
    int xx = sgx_tex_wrap(cube ? SGX_TEX_CLAMP : t->addr_u, x, lw);
    int yy = sgx_tex_wrap(cube ? SGX_TEX_CLAMP : t->addr_v, y, lh);

    if (xx < 0 || yy < 0) {
        memset(out, 0, 4 * sizeof(float));
        return;
    }
    sgx_tex_fetch(t, data, palette, face, level, xx, yy, out);
}

static void sample_level(const SgxTexture *t, const uint8_t *data,
                         const uint8_t *palette, unsigned face,
                         unsigned level, SgxTexFilter filter, float s,
                         float tc, float out[4])
{
    float u = safe(s * sgx_tex_level_width(t, level));
    float v = safe(tc * sgx_tex_level_height(t, level));

    if (filter == SGX_TEX_POINT || filter == SGX_TEX_MIPMAP_POINT) {
        texel_wrapped(t, data, palette, face, level, (int)floorf(u),
                      (int)floorf(v), out);
    } else {
        float fu = u - 0.5f, fv = v - 0.5f;
        int x0 = (int)floorf(fu), y0 = (int)floorf(fv);
        float ax = fu - x0, ay = fv - y0;
        float c[4][4];

        for (int i = 0; i < 4; i++) {
            texel_wrapped(t, data, palette, face, level, x0 + (i & 1),
                          y0 + (i >> 1), c[i]);
        }
        for (int k = 0; k < 4; k++) {
            float top = c[0][k] + (c[1][k] - c[0][k]) * ax;
            float bot = c[2][k] + (c[3][k] - c[2][k]) * ax;
            out[k] = top + (bot - top) * ay;
        }
    }
}

void sgx_tex_sample(const SgxTexture *t, const uint8_t *data,
                    const uint8_t *palette, const SgxTexLookup *l,
                    float out[4])
{
    unsigned face = 0, maxl = t->levels - 1;
    float s, tc, lod;

    if (sgx_tex_is_cube(t)) {
        float ma, r[3] = { safe(l->coord[0]), safe(l->coord[1]),
                           safe(l->coord[2]) };
        if (l->dim < 3) {
            gemu_log_once(LOG_GUEST_ERROR, "sgx543-cube", l->dim,
                          "sgx543: %uD lookup of a cube texture\n", l->dim);
            memset(out, 0, 4 * sizeof(float));
            return;
        }
        face = cube_face(r, &s, &tc, &ma);
    } else {
        s = l->coord[0];
        tc = l->dim >= 2 ? l->coord[1] : 0.0f;
    }
    lod = sgx_tex_lod(t, l) + t->lod_bias;
    lod = fmaxf(lod, (float)t->lod_min);
    if (lod <= 0.0f) {
        sample_level(t, data, palette, face, 0, t->mag_filter, s, tc, out);
    } else if (!maxl) {
        sample_level(t, data, palette, face, 0, t->min_filter, s, tc, out);
    } else if (t->mip_linear) {
        unsigned l0 = (unsigned)MIN(floorf(lod), (float)maxl);
        float f = lod - l0, a[4], b[4];

        if (l0 >= maxl) {
            sample_level(t, data, palette, face, maxl, t->min_filter, s, tc,
                         out);
            return;
        }
        sample_level(t, data, palette, face, l0, t->min_filter, s, tc, a);
        sample_level(t, data, palette, face, l0 + 1, t->min_filter, s, tc,
                     b);
        for (int k = 0; k < 4; k++) {
            out[k] = a[k] + (b[k] - a[k]) * f;
        }
    } else {
        /* the nearest level, as GL: ceil(lod + 1/2) - 1 */
        float n = lod > 0.5f ? ceilf(lod + 0.5f) - 1.0f : 0.0f;
        unsigned level = (unsigned)MIN(n, (float)maxl);

        sample_level(t, data, palette, face, level, t->min_filter, s, tc,
                     out);
    }
}
