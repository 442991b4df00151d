/*
 * nv50 scanout surfaces as pure data: a description of what a head reads
 * from VRAM (offset, size, pitch, pitch-linear or block-linear layout,
 * EVO surface format, LUT) and its conversion into a host image the ui/
 * layer shows (DISPLAY_FORMAT_BGRX8888, packed rows).  No card needed:
 * the unit tests drive it on plain byte arrays.  hw/nv50/scanout.c has
 * the facts (formats, GOBs, LUT layout) and where they come from.
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

/* Tesla GOB: 64 bytes x 4 rows (GF100+ have 64 x 8). */
#define NV50_GOB_WIDTH              64
#define NV50_GOB_HEIGHT             4
#define NV50_GOB_SIZE               (NV50_GOB_WIDTH * NV50_GOB_HEIGHT)
#define NV50_BLOCK_HEIGHT_MAX       5       /* log2: 32 GOBs */

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
 * Read the 257 LUT entries at VRAM byte address @addr (the head's
 * BASE_LUT origin); false with *err set if they run beyond VRAM.
 */
bool nv50_scanout_lut_read(const uint8_t *vram, uint64_t vram_size,
                           uint64_t addr, bool hires, NV50ScanoutLut *lut,
                           char **err);

#endif
