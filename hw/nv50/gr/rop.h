/*
 * ROP internals (rop.c, rop-format.c): the render target formats of
 * g80_defs.xml G80_SURFACE_FORMAT (the ones Mesa 22.3's nv50_formats.c
 * renders to) as channels, and their conversions.  pipe.h holds what
 * the other stages call.
 *
 * A format is up to four channels packed from bit 0 of the element
 * (little-endian), each holding one of R, G, B, A or padding (X); e.g.
 * BGRA8_UNORM is B in bits 0-7 ... A in bits 24-31, B5G6R5_UNORM is B
 * in bits 0-4, G 5-10, R 11-15, R11G11B10_FLOAT R in bits 0-10, G
 * 11-21, B 22-31 (Mesa's PIPE_FORMAT_* of the same name).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_ROP_H
#define HW_NV50_GR_ROP_H

#include "pipe.h"

typedef enum NV50RopKind {
    NV50_ROP_UNORM,
    NV50_ROP_SNORM,
    NV50_ROP_FLOAT,             /* 32, 16 (half), 11 and 10 (unsigned) */
    NV50_ROP_SINT,
    NV50_ROP_UINT,
} NV50RopKind;

#define NV50_ROP_X      4       /* a padding channel (NV50RopFormat.comp) */

typedef struct NV50RopFormat {
    uint16_t id;                /* RT_FORMAT */
    const char *name;           /* envytools' */
    uint8_t bpp;                /* bytes per element */
    uint8_t kind;               /* NV50RopKind, all channels alike */
    uint8_t nch;
    uint8_t bits[4];            /* channel widths, from bit 0 up */
    uint8_t comp[4];            /* 0-3: R, G, B, A; NV50_ROP_X */
    bool srgb;                  /* R, G, B sRGB-encoded */
} NV50RopFormat;

/* The format RT_FORMAT @id names, or NULL (unknown, or not modelled). */
const NV50RopFormat *nv50_rop_format(uint32_t id);
/* true if rnndb names @id (even if gemu does not render to it) */
bool nv50_rop_format_named(uint32_t id);

/*
 * RGBA (floats; for SINT/UINT formats integers as float bits) to the
 * format's raw channel values and back.  Encoding clamps to the
 * channel's range (integers too, UNVERIFIED), rounds to nearest, and
 * sRGB-encodes R, G, B of sRGB formats; padding channels get the value
 * 1 of their kind (UNVERIFIED).  Decoding gives what a missing channel
 * reads as 0 (R, G, B) or 1 (A).
 */
void nv50_rop_encode(const NV50RopFormat *f, const float rgba[4],
                     uint32_t raw[4]);
void nv50_rop_decode(const NV50RopFormat *f, const uint32_t raw[4],
                     float rgba[4]);
/*
 * Formats of four 8-bit UNORM channels, not sRGB (BGRA8, RGBA8, BGRX8 ...):
 * the element as a little-endian word, nv50_rop_encode and _pack in one.
 */
bool nv50_rop_is_unorm8x4(const NV50RopFormat *f);
uint32_t nv50_rop_unorm8x4(const NV50RopFormat *f, const float rgba[4]);
/* nv50_rop_unorm8x4 of four colours (a quad's) at once, to @w */
void nv50_rop_unorm8x4_quad(const NV50RopFormat *f, const float col[4][4],
                            uint32_t w[4]);
/* Raw channel values <-> the element's bytes. */
void nv50_rop_pack(const NV50RopFormat *f, const uint32_t raw[4],
                   uint8_t *elem);
void nv50_rop_unpack(const NV50RopFormat *f, const uint8_t *elem,
                     uint32_t raw[4]);
/* All-ones in the bits of channel @ch (for masks). */
static inline uint32_t nv50_rop_ch_mask(const NV50RopFormat *f, unsigned ch)
{
    return f->bits[ch] >= 32 ? 0xffffffffu : (1u << f->bits[ch]) - 1;
}

/* sRGB transfer functions on [0, 1] */
float nv50_rop_srgb_encode(float l);
float nv50_rop_srgb_decode(float s);

/* Z's bits in zeta format @fmt: 16 or 24 (unorm), 32 (float); 0: none. */
unsigned nv50_rop_zeta_bits(uint32_t fmt);

#endif
