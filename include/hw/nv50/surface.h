/*
 * Surface addressing on G80-family cards (envytools
 * docs/hw/memory/g80-surface.rst): pitch and block-linear layouts, the
 * one module scanout, M2MF, 2D and 3D use to find the bytes of an
 * element.  Everything here is in bytes: an element of N bytes at
 * column x is bytes N * x .. N * x + N - 1 of its row.
 *
 * Pitch: byte x of row y is at y * pitch + x.
 *
 * Block-linear: a GOB is 64 bytes x 4 rows (256 bytes) on Tesla, its
 * rows stored one after the other (64-byte rows, row-major); a block is
 * (1 << block_w) x (1 << block_h) x (1 << block_d) GOBs, its GOBs
 * stored x fastest, then y, then z; blocks are stored the same way: x
 * fastest across the row of blocks that covers the surface's width in
 * bytes (rounded up to whole blocks), then rows of blocks down the
 * surface's height, then slices of blocks through its depth.  This is
 * the layout seen through the VM with the right storage type; the
 * storage-type dependent reordering below it (partitions, banks) is
 * invisible to every gemu unit, since VRAM is one flat array.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_SURFACE_H
#define HW_NV50_SURFACE_H

#include "gemu/osdep.h"

/* Tesla GOB: 64 bytes x 4 rows (GF100+ have 64 x 8, not modelled). */
#define NV50_GOB_WIDTH          64      /* bytes */
#define NV50_GOB_HEIGHT         4       /* rows */
#define NV50_GOB_SIZE           (NV50_GOB_WIDTH * NV50_GOB_HEIGHT)
/* block_w/h/d are log2 GOBs: 0 (one GOB) .. 5 (32 GOBs) */
#define NV50_BLOCK_LOG2_MAX     5

typedef struct NV50Surface {
    bool block_linear;
    uint32_t pitch;             /* pitch layout: bytes from row to row */
    /*
     * The surface's size: width in bytes, height in rows, depth in
     * layers.  Block-linear addressing needs width and height (how many
     * blocks a row and a slice of blocks hold); both layouts use all
     * three for nv50_surface_size().
     */
    uint32_t width_bytes;
    uint32_t height;            /* rows */
    uint32_t depth;             /* layers (1 for 2D) */
    uint8_t block_w, block_h, block_d;  /* log2 GOBs per block, 0..5 */
} NV50Surface;

/*
 * Offset from the surface's start of byte @x (in bytes) of row @y of
 * layer @z.  Pitch: y * pitch + x (z ignored: callers add their layer
 * stride).  Coordinates beyond the surface's size are not checked: the
 * formula goes on (block-linear: into the following blocks).
 */
uint64_t nv50_surface_offset(const NV50Surface *sf, uint32_t x, uint32_t y,
                             uint32_t z);
/*
 * How many bytes from (@x, @y, @z) on are contiguous in memory (up to
 * the end of the GOB row for block-linear, unlimited (UINT32_MAX) for
 * pitch), so that callers copy runs instead of single bytes.
 */
uint32_t nv50_surface_run(const NV50Surface *sf, uint32_t x, uint32_t y,
                          uint32_t z);
/*
 * Block-linear: how far the GOB row holding byte @x of a row lies from
 * the one in the next GOB column of the same row and layer (256 bytes
 * inside a block, one block less the GOBs passed at a block's edge), so
 * that callers walk a row run by run without nv50_surface_offset's
 * divisions.  Pitch surfaces have one run a row: 0.
 */
uint64_t nv50_surface_next_gob(const NV50Surface *sf, uint32_t x);
/*
 * nv50_surface_offset() and nv50_surface_run() with the divisions done
 * once, for callers that address many elements of one surface (the
 * ROP's pixels): nv50_surface_walk() makes one from a surface (redo it
 * when the surface changes), nv50_surface_walk_offset() gives the same
 * offsets for every (x, y, z), beyond the surface's size too.
 */
typedef struct NV50SurfaceWalk {
    bool block_linear;
    uint8_t bw, bh, bd;         /* log2 GOBs per block */
    uint8_t block_shift;        /* log2 bytes of a block */
    uint32_t pitch;
    uint64_t row_bytes;         /* from a row of blocks to the next */
    uint64_t slice_bytes;       /* from a slice of blocks to the next */
} NV50SurfaceWalk;

void nv50_surface_walk(const NV50Surface *sf, NV50SurfaceWalk *w);

static inline uint64_t nv50_surface_walk_offset(const NV50SurfaceWalk *w,
                                                uint32_t x, uint32_t y,
                                                uint32_t z)
{
    uint32_t gx = x / NV50_GOB_WIDTH, gy = y / NV50_GOB_HEIGHT;
    uint64_t gob;

    if (!w->block_linear) {
        return (uint64_t)y * w->pitch + x;
    }
    gob = ((uint64_t)(z & ((1u << w->bd) - 1)) << (w->bw + w->bh)) |
          ((uint64_t)(gy & ((1u << w->bh) - 1)) << w->bw) |
          (gx & ((1u << w->bw) - 1));
    return (uint64_t)(z >> w->bd) * w->slice_bytes +
           (uint64_t)(gy >> w->bh) * w->row_bytes +
           ((uint64_t)(gx >> w->bw) << w->block_shift) +
           gob * NV50_GOB_SIZE +
           (y % NV50_GOB_HEIGHT) * NV50_GOB_WIDTH + x % NV50_GOB_WIDTH;
}

static inline uint32_t nv50_surface_walk_run(const NV50SurfaceWalk *w,
                                             uint32_t x)
{
    return w->block_linear ? NV50_GOB_WIDTH - x % NV50_GOB_WIDTH
                           : UINT32_MAX;
}

/*
 * From byte x of row @y to byte x of row @y + 1, when that is one step
 * for every x: pitch surfaces, and block-linear rows in one GOB (@y % 4
 * below 3); 0 otherwise.
 */
static inline uint64_t nv50_surface_walk_row_step(const NV50SurfaceWalk *w,
                                                  uint32_t y)
{
    if (!w->block_linear) {
        return w->pitch;
    }
    return y % NV50_GOB_HEIGHT < NV50_GOB_HEIGHT - 1 ? NV50_GOB_WIDTH : 0;
}

/*
 * Size in bytes the surface spans from its start (the offset one past
 * its last byte), for bounds checks.  Pitch: (height - 1) * pitch +
 * width_bytes (one layer); block-linear: whole blocks, every block the
 * width x height x depth surface touches.  0 for an empty surface.
 */
uint64_t nv50_surface_size(const NV50Surface *sf);

/*
 * The "auto-sizing" some binding points do (g80-surface.rst, e.g. the
 * texture units): shrink each block dimension while half of it still
 * covers the whole surface in that dimension.  Pitch surfaces are left
 * alone.
 */
void nv50_surface_shrink_blocks(NV50Surface *sf);

#endif
