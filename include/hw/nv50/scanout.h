/*
 * nv50 scanout surfaces as pure data: a description of what a head reads
 * from VRAM (offset, size, pitch, pitch-linear or block-linear layout,
 * EVO surface format, LUT) and its conversion into a host image the ui/
 * layer shows (DISPLAY_FORMAT_BGRX8888, packed rows), the overlay
 * composed over it and the hardware cursor blended on top.  No card needed:
 * the unit tests drive it on plain byte arrays.  hw/nv50/scanout-format.c
 * has the facts (formats, GOBs, LUT layout) and where they come from.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_SCANOUT_H
#define HW_NV50_SCANOUT_H

#include "gemu/osdep.h"

/* cl507c SURFACE_SET_PARAMS / cl507d HEAD_SET_PARAMS FORMAT (15:8) */
#define NV50_SURFACE_I8             0x1e    /* through the LUT */
#define NV50_SURFACE_A8R8G8B8       0xcf    /* bytes B, G, R, A */
#define NV50_SURFACE_A2B10G10R10    0xd1    /* R 9:0, G 19:10, B 29:20 */
#define NV50_SURFACE_A8B8G8R8       0xd5    /* bytes R, G, B, A */
#define NV50_SURFACE_R5G6B5         0xe8    /* B 4:0, G 10:5, R 15:11 */
#define NV50_SURFACE_A1R5G5B5       0xe9    /* B 4:0, G 9:5, R 14:10 */

/* LUT in VRAM: 8-byte entries of LE u16 R, G, B (+6 unused). */
#define NV50_LUT_ENTRIES            257     /* 256 + one to interpolate to */
#define NV50_LUT_ENTRY_SIZE         8
#define NV50_LUT_BYTES              (NV50_LUT_ENTRIES * NV50_LUT_ENTRY_SIZE)

typedef struct NV50ScanoutLut {
    /*
     * HIRES: a 10-bit component interpolates between entries c >> 2 and
     * (c >> 2) + 1; LORES: entry c >> 2.  8-bit (and I8) inputs index
     * entry c directly in both modes.
     */
    bool hires;
    uint16_t entry[NV50_LUT_ENTRIES][3];    /* R, G, B as in VRAM */
} NV50ScanoutLut;

typedef struct NV50ScanoutDesc {
    uint64_t offset;            /* VRAM byte address of pixel (0, 0) */
    uint32_t width, height;     /* pixels */
    /*
     * Bytes from one row to the next (pitch-linear), or the width of a
     * row of blocks in bytes, i.e. 64 x the number of GOBs across
     * (block-linear).
     */
    uint32_t pitch;
    bool block_linear;
    unsigned block_height;      /* log2 GOBs per block vertically, 0-5 */
    unsigned format;            /* NV50_SURFACE_* */
    const NV50ScanoutLut *lut;  /* NULL: no LUT (I8 needs one) */
} NV50ScanoutDesc;

/* Bytes per pixel of an NV50_SURFACE_* format; 0 if not supported. */
unsigned nv50_scanout_format_bpp(unsigned format);
/* "XRGB8888", "I8", ...; NULL if not supported. */
const char *nv50_scanout_format_name(unsigned format);

/*
 * Is @d a surface the head can show out of @vram_size bytes of VRAM?
 * False with *err (g_free) set: bad size, format, pitch or block height,
 * I8 without a LUT, or pixels beyond VRAM.
 */
bool nv50_scanout_check(const NV50ScanoutDesc *d, uint64_t vram_size,
                        char **err);

/*
 * Convert surface @d in @vram into @dst: BGRX8888 rows of d->width * 4
 * bytes, @dst_pitch apart (the unused byte is written 0xff).  Checks @d
 * first (nv50_scanout_check); never reads outside @vram.
 */
bool nv50_scanout_convert(const uint8_t *vram, uint64_t vram_size,
                          const NV50ScanoutDesc *d, uint8_t *dst,
                          uint32_t dst_pitch, char **err);

/*
 * The hardware cursor (cl827d HEAD_SET_CONTROL_CURSOR 0x880, _OFFSET_
 * CURSOR 0x884, _CONTEXT_DMA_CURSOR 0x89c; cl507a SET_CURSOR_HOT_SPOT_
 * POINT_OUT 0x84): a square image of packed rows in VRAM, blended over
 * the converted surface.  hw/nv50/scanout-plane.c (methods) and
 * scanout-format.c (pixels) have the facts.
 */
#define NV50_CURSOR_A1R5G5B5        0       /* CONTROL_CURSOR FORMAT 25:24 */
#define NV50_CURSOR_A8R8G8B8        1
#define NV50_CURSOR_ALPHA_BLEND     0       /* COMPOSITION 29:28 */
#define NV50_CURSOR_PREMULT_ALPHA_BLEND 1
#define NV50_CURSOR_XOR             2
#define NV50_CURSOR_SIZE_MAX        64

typedef struct NV50CursorDesc {
    uint64_t offset;            /* VRAM byte address of pixel (0, 0) */
    uint32_t size;              /* 32 or 64: size x size pixels */
    unsigned format;            /* NV50_CURSOR_A1R5G5B5 / _A8R8G8B8 */
    unsigned composition;       /* NV50_CURSOR_ALPHA_BLEND, ... */
    /* image position of pixel (0, 0): POINT_OUT - HOT_SPOT, may be < 0 */
    int32_t x, y;
} NV50CursorDesc;

/* Bytes of cursor image @c reads from VRAM (0 if the format is bad). */
uint32_t nv50_cursor_bytes(const NV50CursorDesc *c);

/*
 * Is @c a cursor the head can show out of @vram_size bytes of VRAM?
 * False with *err (g_free) set: bad size, format or composition, or
 * pixels beyond VRAM.
 */
bool nv50_cursor_check(const NV50CursorDesc *c, uint64_t vram_size,
                       char **err);

/*
 * The part of a @width x @height image that cursor @c covers: columns
 * [*x0, *x1), rows [*y0, *y1).  False if it is wholly off the image.
 */
bool nv50_cursor_rect(const NV50CursorDesc *c, uint32_t width,
                      uint32_t height, uint32_t *x0, uint32_t *y0,
                      uint32_t *x1, uint32_t *y1);

/*
 * Blend cursor @c (its pixels in @vram) over @dst, a BGRX8888 image of
 * @width x @height pixels, rows @dst_pitch apart, clipped to it.
 * Checks @c first (nv50_cursor_check); never reads outside @vram.
 */
bool nv50_cursor_compose(const uint8_t *vram, uint64_t vram_size,
                         const NV50CursorDesc *c, uint8_t *dst,
                         uint32_t width, uint32_t height,
                         uint32_t dst_pitch, char **err);

/*
 * The overlay (cl827e, EVO DMA channel 3 + head; its position from the
 * overlay-immediate PIO channel 5 + head, cl507b SET_POINT_OUT 0x84): a
 * surface like the base's, the rectangle POINT_IN/SIZE_IN of it shown
 * SIZE_OUT big at POINT_OUT over the base image (below the cursor).
 * hw/nv50/scanout-plane.c (methods) and scanout-format.c (pixels) have
 * the facts.
 */
#define NV50_OVLY_SRC_COLOR_KEYING  0   /* SET_COMPOSITION_CONTROL 3:0 */
#define NV50_OVLY_DST_COLOR_KEYING  1
#define NV50_OVLY_OPAQUE            2   /* OPAQUE_SUSPEND_BASE */
#define NV50_OVLY_YUYV              0x28    /* VE8YO8UE8YE8: Y0 U Y1 V */
#define NV50_OVLY_UYVY              0x29    /* YO8VE8YE8UE8: U Y0 V Y1 */

typedef struct NV50OverlayDesc {
    NV50ScanoutDesc surf;       /* the overlay image; lut must be NULL */
    uint32_t in_x, in_y;        /* POINT_IN: source rectangle origin */
    uint32_t in_w, in_h;        /* SIZE_IN */
    uint32_t out_w, out_h;      /* SIZE_OUT: scaled (nearest) if != in */
    int32_t x, y;               /* POINT_OUT: image position, may be < 0 */
    unsigned color_space;       /* PARAMS 1:0; YUV: 2 BT.709, else 601 */
    unsigned mode;              /* NV50_OVLY_* composition */
    uint32_t key_color, key_mask;   /* SET_KEY_COLOR/MASK, 0x00RRGGBB */
} NV50OverlayDesc;

/*
 * Is @o an overlay the head can show out of @vram_size bytes of VRAM?
 * False with *err (g_free) set: a bad surface (nv50_scanout_check) or
 * one not in an overlay format (A8R8G8B8, A1R5G5B5, A2B10G10R10, YUYV,
 * UYVY), a YUV one of odd width, an empty or out-of-surface source
 * rectangle, an empty output, a reserved composition mode.
 */
bool nv50_overlay_check(const NV50OverlayDesc *o, uint64_t vram_size,
                        char **err);

/*
 * The part of a @width x @height image that overlay @o covers: columns
 * [*x0, *x1), rows [*y0, *y1).  False if it is wholly off the image.
 */
bool nv50_overlay_rect(const NV50OverlayDesc *o, uint32_t width,
                       uint32_t height, uint32_t *x0, uint32_t *y0,
                       uint32_t *x1, uint32_t *y1);

/*
 * Compose overlay @o (its pixels in @vram) over @dst, a BGRX8888 image
 * of @width x @height pixels, rows @dst_pitch apart, clipped to it.
 * Checks @o first (nv50_overlay_check); never reads outside @vram.
 */
bool nv50_overlay_compose(const uint8_t *vram, uint64_t vram_size,
                          const NV50OverlayDesc *o, uint8_t *dst,
                          uint32_t width, uint32_t height,
                          uint32_t dst_pitch, char **err);

/*
 * Read the 257 LUT entries at VRAM byte address @addr (the head's
 * BASE_LUT origin); false with *err set if they run beyond VRAM.
 */
bool nv50_scanout_lut_read(const uint8_t *vram, uint64_t vram_size,
                           uint64_t addr, bool hires, NV50ScanoutLut *lut,
                           char **err);

#endif
