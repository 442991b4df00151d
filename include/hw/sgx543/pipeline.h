/*
 * The fixed-function parts of the SGX543 software pipeline, as pure
 * functions so that unit tests reach them: the sample patterns (coverage
 * is hw/core/raster.h's), depth/stencil compare and ops, blending, texture
 * sampling and the conversions between surface formats and floats.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_PIPELINE_H
#define HW_SGX543_PIPELINE_H

#include "gemu/osdep.h"
#include "hw/core/raster.h"
#include "hw/sgx543/packets.h"

/*
 * Sub-pixel precision of the rasteriser: 1/16 pixel.  Coverage is the
 * shared rasteriser's (include/hw/core/raster.h) with this snapping.
 */
#define SGX_SUBPIXEL_BITS   4

/*
 * Sample positions: SceGxmMultisampleMode 0 none (the centre), 1 2x,
 * 2 4x; NULL if not.  UNVERIFIED: SGX's patterns; gemu uses D3D's
 * standard ones (raster_standard_samples: 2x (4, 4), (-4, -4); 4x
 * (-2, -6), (6, -2), (-6, 2), (2, 6), in 1/16 pixel).
 */
const RasterSamples *sgx_sample_pattern(unsigned mode);

bool sgx_compare(SgxCompare f, uint32_t value, uint32_t ref);
bool sgx_compare_f(SgxCompare f, float value, float ref);
uint8_t sgx_stencil_apply(SgxStencilOp op, uint8_t value, uint8_t ref);

typedef struct SgxBlendState {
    bool enable;
    SgxBlendFunc color_func, alpha_func;
    SgxBlendFactor color_src, color_dst, alpha_src, alpha_dst;
    unsigned mask;          /* bit 0 R, 1 G, 2 B, 3 A */
} SgxBlendState;

/* out = blend(src, dst), then the colour mask keeps dst's channels. */
void sgx_blend(const SgxBlendState *b, const float src[4],
               const float dst[4], float out[4]);

/*
 * Pixel (x, y) of a surface of @stride pixels a row and @height rows in
 * layout @type, as a pixel index from the base: linear y * stride + x;
 * tiled: 32x32 tiles in rows of stride / 32 (the stride a multiple of
 * 32); swizzled: Morton order (y in bit 0) in squares of the smaller of
 * the power-of-two sizes, as swizzled textures.  Bytes the surface
 * spans: sgx_surface_size.
 */
uint64_t sgx_surface_pixel(SgxSurfaceType type, uint32_t stride,
                           uint32_t height, uint32_t x, uint32_t y);
uint64_t sgx_surface_size(SgxSurfaceType type, uint32_t stride,
                          uint32_t width, uint32_t height, unsigned bpp);

/*
 * Transfer-unit RGB pixels (SceGxmTransferFormat >> 16) <-> U8U8U8U8
 * (R, G, B, A): narrower fields expanded by repeating their high bits,
 * packing keeps the high bits; missing channels read G = B = 0, A = 255.
 */
void sgx_xfer_unpack(unsigned fmt, uint64_t raw, uint8_t rgba[4]);
uint64_t sgx_xfer_pack(unsigned fmt, const uint8_t rgba[4]);

/* Colour surface pixels <-> floats (RGBA); bytes per pixel. */
unsigned sgx_color_bpp(SgxColorFormat f);
void sgx_color_load(SgxColorFormat f, const uint8_t *p, float rgba[4]);
void sgx_color_store(SgxColorFormat f, uint8_t *p, const float rgba[4]);

#endif
