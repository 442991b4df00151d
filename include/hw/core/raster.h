/*
 * The rasteriser: edge functions and plane equations, the one module
 * every GPU model here draws with (the SGX543's pipeline, the G84's 3D
 * pipeline).  Device-neutral: coverage of triangles, lines and points on
 * a pixel grid, in 2x2 quads, with a configurable sub-pixel precision,
 * the top-left fill rule (D3D10's), optional multisample patterns, and
 * the barycentric weights a device needs to interpolate attributes.
 *
 * Conventions: screen space in pixels, y down, pixel centres at +0.5;
 * vertex positions are snapped to 1 / (1 << subpixel_bits) of a pixel
 * before coverage is computed, so results do not depend on float
 * rounding past that grid.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_RASTER_H
#define HW_CORE_RASTER_H

#include "gemu/osdep.h"

/* A screen-space vertex: pixels, depth (as the device maps it), 1/w. */
typedef struct RasterVert {
    float x, y, z, inv_w;
} RasterVert;

/* Sample positions, in 1/16 pixel from the pixel centre (at most 8). */
typedef struct RasterSamples {
    unsigned count;
    int8_t pos[8][2];
} RasterSamples;

/*
 * One 2x2 quad the primitive touches: its upper-left pixel (x, y), the
 * coverage mask (bit i = pixel i: UL, UR, LL, LR; a pixel with any
 * covered sample), the covered samples of each pixel (bit s = sample s;
 * bit 0 alone without multisampling), and per pixel the screen-space
 * barycentric weights of the primitive's vertices at the pixel centre
 * (extrapolated outside the primitive; lines and points give weights of
 * their 2 or 1 vertices, the rest 0).
 */
typedef struct RasterQuad {
    int x, y;
    unsigned mask;
    uint8_t samples[4];
    float bary[4][3];
} RasterQuad;

typedef void (*RasterQuadFn)(void *opaque, const RasterQuad *q);

/*
 * What bounds and shapes the coverage.  subpixel_bits is at most 8 (more
 * is taken as 8); coverage is decided on a grid of 1/16 pixel or finer,
 * so sample positions are exact whatever the snapping.
 */
typedef struct RasterParams {
    int x0, y0, x1, y1;         /* scissor: [x0, x1) x [y0, y1) */
    unsigned subpixel_bits;     /* snap positions to 1 / 2^bits pixel */
    const RasterSamples *samples;   /* NULL: one sample at the centre */
} RasterParams;

/*
 * Rasterise a triangle (either winding) into quads; quads with no
 * covered pixel are not reported.  Returns the number of covered samples
 * (pixels without multisampling).
 */
uint64_t raster_triangle(const RasterVert v[3], const RasterParams *p,
                         RasterQuadFn fn, void *opaque);
/*
 * A line from v[0] to v[1] of @width pixels.  Width 1 with one sample:
 * D3D10's aliased line, the pixels whose diamond test area the segment
 * exits (so a strip of lines covers each joint once).  Otherwise (wide,
 * or multisampled) the rectangle around the segment, not extended past
 * its ends, covered with the top-left rule like a triangle pair; note
 * GL's aliased wide lines are parallelograms instead.  Zero length (after
 * snapping) or width <= 0: nothing.
 */
uint64_t raster_line(const RasterVert v[2], float width,
                     const RasterParams *p, RasterQuadFn fn, void *opaque);
/*
 * A point sprite: the @size x @size square centred on v, its sides
 * snapped (v->x - size / 2 etc.), covered with the top-left rule; every
 * pixel's weights are (1, 0, 0).
 */
uint64_t raster_point(const RasterVert *v, float size,
                      const RasterParams *p, RasterQuadFn fn, void *opaque);

/* Signed area * 2 in screen space; > 0 = clockwise on screen (y down). */
float raster_triangle_area(const RasterVert v[3]);

/*
 * The standard D3D sample patterns for 1, 2, 4 and 8 samples (1: the
 * centre); NULL for other counts.
 */
const RasterSamples *raster_standard_samples(unsigned count);

#endif
