/*
 * nv50 scanout internals shared by scanout.c (the heads' images, dirty
 * rectangles, consoles), scanout-format.c (pixel formats, conversion,
 * composition) and scanout-plane.c (the armed EVO state as planes).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_SCANOUT_INT_H
#define HW_NV50_SCANOUT_INT_H

#include "hw/nv50/nv50.h"
#include "hw/nv50/scanout.h"

/* A rectangle of an image: columns [x0, x1), rows [y0, y1). */
typedef struct ScanoutRect {
    uint32_t x0, y0, x1, y1;
} ScanoutRect;

/* --- scanout-format.c: the pixels --- */

/*
 * Each component as a 10-bit value (8-bit ones << 2) -> the 8 bits shown:
 * the LUT resolved once per frame, or the identity.
 */
typedef struct ColourMap {
    uint8_t c[3][1024];         /* R, G, B */
} ColourMap;

/* Bytes per pixel of any surface format, the overlay's YUV included. */
unsigned nv50_scanout_surface_bpp(unsigned format);
/* @m from @lut (NULL: the identity). */
void nv50_scanout_map_build(ColourMap *m, const NV50ScanoutLut *lut);
/* The identity map, built once. */
const ColourMap *nv50_scanout_identity_map(void);
/* Bytes of one row that the head reads: width * bpp. */
uint64_t nv50_scanout_row_len(const NV50ScanoutDesc *d);
/* One past the last byte the head reads (@d checked but for its end). */
uint64_t nv50_scanout_surface_end(const NV50ScanoutDesc *d);
/*
 * The bytes of row @y: a pointer into VRAM (pitch-linear) or the row
 * gathered GOB row by GOB row into @scratch (row_len bytes).  @d is
 * checked.
 */
const uint8_t *nv50_scanout_row_bytes(const uint8_t *vram,
                                      const NV50ScanoutDesc *d, uint32_t y,
                                      uint8_t *scratch);
/*
 * Convert @n pixels of @format at @src into BGRX at @dst.  @identity: no
 * LUT, which lets XRGB8888 skip the map.
 */
void nv50_scanout_convert_span(unsigned format, const ColourMap *m,
                               bool identity, const uint8_t *src,
                               uint8_t *dst, uint32_t n);
/*
 * Compose checked overlay @o over the part @r of @dst (already clipped
 * to the image).  @map is the identity.
 */
void nv50_overlay_compose_clip(const uint8_t *vram, const NV50OverlayDesc *o,
                               const ColourMap *map, uint8_t *dst,
                               uint32_t dst_pitch, const ScanoutRect *r);

/* --- scanout-shadow.c: the last vblank's surface bytes --- */

/* A head's shadow: the bytes it showed, in the surface's storage order. */
typedef struct ScanoutShadow {
    NV50ScanoutDesc d;          /* their layout: offset 0, no LUT;
                                   pitch-linear rows packed */
    uint8_t *bytes;             /* NULL: none yet */
    uint64_t size;
    uint8_t *row;               /* a gathered row (row_len bytes) */
} ScanoutShadow;

/* Where the changed pixels go: a BGRX image @width pixels a row. */
typedef struct ScanoutTarget {
    uint8_t *px;
    uint32_t width;
    unsigned format;            /* the surface's */
    const ColourMap *map;
    bool identity;
} ScanoutTarget;

/*
 * The pixels of checked surface @d that changed since @sh was taken
 * (every pixel if @full, or the size or format changed) converted into
 * @t; their bounding box joins @dirty (the whole image when all are).
 * @sh then holds @d's bytes.
 */
void nv50_shadow_update(ScanoutShadow *sh, const uint8_t *vram,
                        const NV50ScanoutDesc *d, bool full,
                        const ScanoutTarget *t, ScanoutRect *dirty);
/* Row @y's bytes as @sh holds them (row_len bytes; @sh->row reused). */
const uint8_t *nv50_shadow_row(ScanoutShadow *sh, uint32_t y);
void nv50_shadow_free(ScanoutShadow *sh);

/* --- scanout-plane.c: the armed EVO state --- */

typedef enum ScanoutState {
    SCANOUT_OK,
    SCANOUT_OFF,            /* nothing armed: no mode set */
    SCANOUT_GUEST_ERROR,    /* armed, but not something a G84 shows */
    SCANOUT_UNIMP,          /* a real format gemu does not convert */
} ScanoutState;

/*
 * The surface @head shows, from the armed state: the base image if one
 * is armed, else the core's head surface.  @lut is where the LUT goes.
 */
ScanoutState nv50_scanout_armed_desc(NV50State *s, int head,
                                     NV50ScanoutDesc *d, NV50ScanoutLut *lut,
                                     char **err);
/*
 * The overlay / cursor to draw on @head's image: false if there is none
 * or it is bad (logged once per distinct reason, kept in *@why).
 */
bool nv50_scanout_head_overlay(NV50State *s, int head, NV50OverlayDesc *o,
                               char **why);
bool nv50_scanout_head_cursor(NV50State *s, int head, NV50CursorDesc *c,
                              char **why);

#endif
