/*
 * SGX543 software pipeline, fixed-function parts: sample patterns,
 * depth/stencil tests, blending and format conversions.  Pure
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

const RasterSamples *sgx_sample_pattern(unsigned mode)
{
    return mode <= 2 ? raster_standard_samples(1u << mode) : NULL;
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
