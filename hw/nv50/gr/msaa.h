/*
 * Multisampling on the G84 (msaa.c): what MULTISAMPLE_MODE makes of a
 * pixel (its samples, where they sit in the pixel and in the surface),
 * and the coverage the ROP and the back end add to the rasteriser's
 * (MSAA_MASK, MULTISAMPLE_CTRL ALPHA_TO_COVERAGE).  Facts: rnndb
 * graph/g80_3d.xml and g80_defs.xml (g80_msaa_mode); Mesa 22.3's
 * nv50_miptree.c (ms_x/ms_y: a 4x surface is 2x2 elements per pixel)
 * and nv50_context.c (nv50_context_get_sample_position).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_MSAA_H
#define HW_NV50_GR_MSAA_H

#include "hw/core/raster.h"

/* 3D methods (rnndb g80_3d.xml) */
#define NV50_3D_MSAA_MASK(i)            (0x0fbc + (i) * 4)
#define NV50_3D_MULTISAMPLE_ENABLE      0x1534
#define NV50_3D_MULTISAMPLE_CTRL        0x153c
#define NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_COVERAGE  0x01u
#define NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE       0x10u
#define NV50_3D_MULTISAMPLE_MODE        0x15d0

/* g80_msaa_mode (MULTISAMPLE_MODE, the TIC's MULTI_SAMPLE_COUNT) */
enum {
    NV50_MSAA_1X1 = 0x0,
    NV50_MSAA_2X1 = 0x1,
    NV50_MSAA_2X2 = 0x2,
    NV50_MSAA_4X2 = 0x3,
    NV50_MSAA_4X2_D3D = 0x4,
    NV50_MSAA_2X1_D3D = 0x5,
    NV50_MSAA_2X2_VC_4 = 0x8,
    NV50_MSAA_2X2_VC_12 = 0x9,
    NV50_MSAA_4X2_VC_8 = 0xa,
};

#define NV50_MSAA_MAX_SAMPLES   8

/*
 * A mode: @samples samples per pixel, stored as a (1 << ms_x) x
 * (1 << ms_y) block of surface elements (sample s at nv50_msaa_xy), at
 * @pattern's positions (1/16 pixel from the pixel centre).
 */
typedef struct NV50Msaa {
    unsigned samples;
    unsigned ms_x, ms_y;
    bool csaa;                  /* a *_VC_* mode (drawn as its colour samples) */
    RasterSamples pattern;
} NV50Msaa;

/* MULTISAMPLE_MODE @mode into @m; false (and one sample) if unknown. */
bool nv50_msaa_mode(uint32_t mode, NV50Msaa *m);

/* Where sample @s of a pixel lies in its block of surface elements. */
static inline void nv50_msaa_xy(const NV50Msaa *m, unsigned s, unsigned *sx,
                                unsigned *sy)
{
    /* Mesa's table: (0,0) (1,0) (0,1) (1,1) (2,0) (3,0) (2,1) (3,1) */
    *sx = ((s & 1) | ((s >> 2) & 1) << 1) & ((1u << m->ms_x) - 1);
    *sy = ((s >> 1) & 1) & ((1u << m->ms_y) - 1);
}

/*
 * ALPHA_TO_COVERAGE: the samples a fragment of alpha @alpha keeps
 * (bit s = sample s): round(alpha * samples) of them, clamped, the
 * first ones in sample order.  UNVERIFIED: the hardware dithers the
 * pattern over pixels; GL only asks for a count that grows with alpha.
 */
uint32_t nv50_msaa_alpha_coverage(const NV50Msaa *m, float alpha);

#endif
