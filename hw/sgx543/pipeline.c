/*
 * SGX543 software pipeline, fixed-function parts: triangle coverage in
 * 2x2 quads, depth/stencil tests, blending and format conversions.  Pure
 * functions of their arguments (see include/hw/sgx543/pipeline.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "hw/sgx543/pipeline.h"
#include "hw/sgx543/texture.h"
#include "target/usse/exec.h"

#include <math.h>

#define SUB         (1 << SGX_SUBPIXEL_BITS)
/* Coordinates beyond this many pixels are clamped (the clipper's guard
   band keeps real geometry well inside). */
#define MAX_COORD   (1 << 20)

typedef struct FixVert {
    int64_t x, y;
} FixVert;

static int64_t snap(float v)
{
    if (!(v > -MAX_COORD)) {            /* also NaN */
        v = -MAX_COORD;
    } else if (v > MAX_COORD) {
        v = MAX_COORD;
    }
    return llrintf(v * SUB);
}

static int64_t edge(const FixVert *a, const FixVert *b, int64_t px,
                    int64_t py)
{
    return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/*
 * Top-left rule, for a triangle that is clockwise on screen (y down):
 * a top edge runs left to right (dy == 0, dx > 0), a left edge runs
 * upwards (dy < 0).  Pixels exactly on other edges belong to the
 * neighbouring triangle.  UNVERIFIED: that SGX uses this convention
 * (it is the D3D/GL one).
 */
static bool top_left(const FixVert *a, const FixVert *b)
{
    int64_t dx = b->x - a->x, dy = b->y - a->y;

    return (dy == 0 && dx > 0) || dy < 0;
}

float sgx_triangle_area(const SgxScreenVert v[3])
{
    return (v[1].x - v[0].x) * (v[2].y - v[0].y)
           - (v[2].x - v[0].x) * (v[1].y - v[0].y);
}

static const SgxSamplePattern patterns[3] = {
    { 1, { { 0, 0 } } },
    { 2, { { 4, 4 }, { -4, -4 } } },
    { 4, { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } } },
};

const SgxSamplePattern *sgx_sample_pattern(unsigned mode)
{
    return mode < ARRAY_SIZE(patterns) ? &patterns[mode] : NULL;
}

uint64_t sgx_raster_triangle(const SgxScreenVert v[3], int x0, int y0,
                             int x1, int y1, SgxQuadFn fn, void *opaque)
{
    return sgx_raster_triangle_ms(v, x0, y0, x1, y1, &patterns[0], fn,
                                  opaque);
}

uint64_t sgx_raster_triangle_ms(const SgxScreenVert v[3], int x0, int y0,
                                int x1, int y1, const SgxSamplePattern *pat,
                                SgxQuadFn fn, void *opaque)
{
    FixVert f[3];
    int order[3] = { 0, 1, 2 };
    int64_t area, minx, miny, maxx, maxy;
    int64_t bias[3];
    uint64_t covered = 0;
    int px0, py0, px1, py1;

    for (int i = 0; i < 3; i++) {
        f[i].x = snap(v[i].x);
        f[i].y = snap(v[i].y);
    }
    area = edge(&f[0], &f[1], f[2].x, f[2].y);
    if (area == 0) {
        return 0;
    }
    if (area < 0) {
        /* make it clockwise; barycentrics are mapped back via order[] */
        FixVert t = f[1];
        f[1] = f[2];
        f[2] = t;
        order[1] = 2;
        order[2] = 1;
        area = -area;
    }
    for (int i = 0; i < 3; i++) {
        bias[i] = top_left(&f[(i + 1) % 3], &f[(i + 2) % 3]) ? 0 : -1;
    }

    minx = MIN(f[0].x, MIN(f[1].x, f[2].x));
    maxx = MAX(f[0].x, MAX(f[1].x, f[2].x));
    miny = MIN(f[0].y, MIN(f[1].y, f[2].y));
    maxy = MAX(f[0].y, MAX(f[1].y, f[2].y));
    /* pixels with a sample (within half a pixel of the centre) inside */
    px0 = MAX((int64_t)x0, (minx - SUB) >> SGX_SUBPIXEL_BITS);
    px1 = MIN((int64_t)x1, (maxx >> SGX_SUBPIXEL_BITS) + 1);
    py0 = MAX((int64_t)y0, (miny - SUB) >> SGX_SUBPIXEL_BITS);
    py1 = MIN((int64_t)y1, (maxy >> SGX_SUBPIXEL_BITS) + 1);
    if (px0 >= px1 || py0 >= py1) {
        return 0;
    }
    px0 &= ~1;
    py0 &= ~1;

    for (int qy = py0; qy < py1; qy += 2) {
        for (int qx = px0; qx < px1; qx += 2) {
            SgxQuad q = { .x = qx, .y = qy };

            for (int i = 0; i < 4; i++) {
                int x = qx + (i & 1), y = qy + (i >> 1);
                int64_t cx = ((int64_t)x << SGX_SUBPIXEL_BITS) + SUB / 2;
                int64_t cy = ((int64_t)y << SGX_SUBPIXEL_BITS) + SUB / 2;
                /* e[i]: edge opposite vertex i, i.e. vertex i's weight */
                int64_t e[3] = {
                    edge(&f[1], &f[2], cx, cy),
                    edge(&f[2], &f[0], cx, cy),
                    edge(&f[0], &f[1], cx, cy),
                };
                bool inside = x >= x0 && x < x1 && y >= y0 && y < y1;

                for (int k = 0; k < 3; k++) {
                    q.bary[i][order[k]] = (float)((double)e[k] / area);
                }
                for (unsigned sm = 0; inside && sm < pat->count; sm++) {
                    int64_t sx = cx + pat->pos[sm][0];
                    int64_t sy = cy + pat->pos[sm][1];
                    bool in = true;

                    for (int k = 0; k < 3 && in; k++) {
                        int64_t ek = pat->count == 1 ? e[k]
                                     : edge(&f[(k + 1) % 3],
                                            &f[(k + 2) % 3], sx, sy);
                        in = ek + bias[k] >= 0;
                    }
                    if (in) {
                        q.samples[i] |= 1u << sm;
                        covered++;
                    }
                }
                if (q.samples[i]) {
                    q.mask |= 1u << i;
                }
            }
            if (q.mask) {
                fn(opaque, &q);
            }
        }
    }
    return covered;
}

/*
 * A compare function applied to an ordering.  For floats a NaN is neither
 * less, equal nor greater, so only NOT_EQUAL (and ALWAYS) pass it.
 */
static bool compare_order(SgxCompare f, bool lt, bool eq, bool gt)
{
    switch (f) {
    case SGX_CMP_NEVER:
        return false;
    case SGX_CMP_LESS:
        return lt;
    case SGX_CMP_EQUAL:
        return eq;
    case SGX_CMP_LESS_EQUAL:
        return lt || eq;
    case SGX_CMP_GREATER:
        return gt;
    case SGX_CMP_NOT_EQUAL:
        return !eq;
    case SGX_CMP_GREATER_EQUAL:
        return gt || eq;
    default:
        return true;
    }
}

bool sgx_compare(SgxCompare f, uint32_t value, uint32_t ref)
{
    return compare_order(f, value < ref, value == ref, value > ref);
}

bool sgx_compare_f(SgxCompare f, float value, float ref)
{
    return compare_order(f, value < ref, value == ref, value > ref);
}

uint8_t sgx_stencil_apply(SgxStencilOp op, uint8_t value, uint8_t ref)
{
    switch (op) {
    case SGX_STENCIL_ZERO:
        return 0;
    case SGX_STENCIL_REPLACE:
        return ref;
    case SGX_STENCIL_INCR:
        return value == 255 ? 255 : value + 1;
    case SGX_STENCIL_DECR:
        return value == 0 ? 0 : value - 1;
    case SGX_STENCIL_INVERT:
        return ~value;
    case SGX_STENCIL_INCR_WRAP:
        return value + 1;
    case SGX_STENCIL_DECR_WRAP:
        return value - 1;
    default:
        return value;
    }
}

static float blend_factor(SgxBlendFactor f, const float s[4],
                          const float d[4], int c)
{
    switch (f) {
    case SGX_BF_ZERO:
        return 0.0f;
    case SGX_BF_ONE:
        return 1.0f;
    case SGX_BF_SRC_COLOR:
        return s[c];
    case SGX_BF_ONE_MINUS_SRC_COLOR:
        return 1.0f - s[c];
    case SGX_BF_SRC_ALPHA:
        return s[3];
    case SGX_BF_ONE_MINUS_SRC_ALPHA:
        return 1.0f - s[3];
    case SGX_BF_DST_COLOR:
        return d[c];
    case SGX_BF_ONE_MINUS_DST_COLOR:
        return 1.0f - d[c];
    case SGX_BF_DST_ALPHA:
        return d[3];
    case SGX_BF_ONE_MINUS_DST_ALPHA:
        return 1.0f - d[3];
    case SGX_BF_SRC_ALPHA_SATURATE:
        /* GL's rule; UNVERIFIED for SGX */
        return c == 3 ? 1.0f : fminf(s[3], 1.0f - d[3]);
    case SGX_BF_DST_ALPHA_SATURATE:
        /* UNVERIFIED: the mirror image of SRC_ALPHA_SATURATE */
        return c == 3 ? 1.0f : fminf(d[3], 1.0f - s[3]);
    default:
        return 0.0f;
    }
}

static float blend_one(SgxBlendFunc fn, SgxBlendFactor fs, SgxBlendFactor fd,
                       const float s[4], const float d[4], int c)
{
    float a = s[c] * blend_factor(fs, s, d, c);
    float b = d[c] * blend_factor(fd, s, d, c);

    switch (fn) {
    case SGX_BLEND_ADD:
        return a + b;
    case SGX_BLEND_SUBTRACT:
        return a - b;
    case SGX_BLEND_REVERSE_SUBTRACT:
        return b - a;
    case SGX_BLEND_MIN:
        /* factors do not apply to MIN/MAX (as in GL) */
        return fminf(s[c], d[c]);
    case SGX_BLEND_MAX:
        return fmaxf(s[c], d[c]);
    default:                /* NONE: this component is not blended */
        return s[c];
    }
}

void sgx_blend(const SgxBlendState *b, const float src[4],
               const float dst[4], float out[4])
{
    for (int c = 0; c < 4; c++) {
        float v = src[c];

        if (b->enable) {
            v = c < 3 ? blend_one(b->color_func, b->color_src, b->color_dst,
                                  src, dst, c)
                      : blend_one(b->alpha_func, b->alpha_src, b->alpha_dst,
                                  src, dst, c);
        }
        out[c] = (b->mask >> c) & 1 ? v : dst[c];
    }
}

uint64_t sgx_surface_pixel(SgxSurfaceType type, uint32_t stride,
                           uint32_t height, uint32_t x, uint32_t y)
{
    switch (type) {
    case SGX_SURFACE_TILED:
        return sgx_tiled_index(x, y, stride >> 5);
    case SGX_SURFACE_SWIZZLED:
        return sgx_swizzled_index(x, y, stride, height);
    default:
        return (uint64_t)y * stride + x;
    }
}

uint64_t sgx_surface_size(SgxSurfaceType type, uint32_t stride,
                          uint32_t width, uint32_t height, unsigned bpp)
{
    switch (type) {
    case SGX_SURFACE_TILED:
        return (uint64_t)stride * ((height + 31) & ~31u) * bpp;
    case SGX_SURFACE_SWIZZLED:
        return (uint64_t)sgx_pow2ceil(stride) * sgx_pow2ceil(height) * bpp;
    default:
        return ((uint64_t)stride * (height - 1) + width) * bpp;
    }
}

static uint32_t unorm(float v, unsigned max)
{
    if (!(v > 0.0f)) {
        return 0;
    }
    if (v >= 1.0f) {
        return max;
    }
    return (uint32_t)lrintf(v * (float)max);
}

unsigned sgx_color_bpp(SgxColorFormat f)
{
    switch (f) {
    case SGX_COLOR_U8U8U8U8_ABGR:
    case SGX_COLOR_F32_R:
        return 4;
    case SGX_COLOR_U5U6U5_BGR:
        return 2;
    case SGX_COLOR_F16F16F16F16:
        return 8;
    default:
        return 0;
    }
}

void sgx_color_load(SgxColorFormat f, const uint8_t *p, float rgba[4])
{
    switch (f) {
    case SGX_COLOR_U8U8U8U8_ABGR:
        for (int c = 0; c < 4; c++) {
            rgba[c] = p[c] / 255.0f;
        }
        break;
    case SGX_COLOR_U5U6U5_BGR: {
        unsigned v = p[0] | p[1] << 8;
        rgba[0] = (v >> 11) / 31.0f;
        rgba[1] = ((v >> 5) & 0x3f) / 63.0f;
        rgba[2] = (v & 0x1f) / 31.0f;
        rgba[3] = 1.0f;
        break;
    }
    case SGX_COLOR_F16F16F16F16:
        for (int c = 0; c < 4; c++) {
            rgba[c] = gemu_half_to_float(p[2 * c] | p[2 * c + 1] << 8);
        }
        break;
    case SGX_COLOR_F32_R:
        memcpy(&rgba[0], p, 4);
        rgba[1] = rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    default:
        memset(rgba, 0, 4 * sizeof(float));
        break;
    }
}

void sgx_color_store(SgxColorFormat f, uint8_t *p, const float rgba[4])
{
    switch (f) {
    case SGX_COLOR_U8U8U8U8_ABGR:
        for (int c = 0; c < 4; c++) {
            p[c] = unorm(rgba[c], 255);
        }
        break;
    case SGX_COLOR_U5U6U5_BGR: {
        unsigned v = unorm(rgba[0], 31) << 11 | unorm(rgba[1], 63) << 5
                     | unorm(rgba[2], 31);
        p[0] = v;
        p[1] = v >> 8;
        break;
    }
    case SGX_COLOR_F16F16F16F16:
        for (int c = 0; c < 4; c++) {
            uint16_t h = gemu_float_to_half(rgba[c]);
            p[2 * c] = h;
            p[2 * c + 1] = h >> 8;
        }
        break;
    case SGX_COLOR_F32_R:
        memcpy(p, &rgba[0], 4);
        break;
    default:
        break;
    }
}
