/*
 * Surface addressing on G80-family cards: pitch and block-linear.
 *
 * Facts (envytools docs/hw/memory/g80-surface.rst, "Pitch surfaces" and
 * "Blocklinear surfaces"), all in bytes since every user here has its
 * element size folded into x:
 * - Pitch: byte x of row y is at pitch * y + x.
 * - Block-linear, G80:GF100: a GOB is 64 bytes x 4 rows x 1, 256 bytes,
 *   bytes within it at x_in_gob + y_in_gob * 64.  A block is 1 << bw x
 *   1 << bh x 1 << bd GOBs (bw, bh, bd 0..5), 256 << (bw + bh + bd)
 *   bytes, 64 << bw bytes wide, 4 << bh rows high, 1 << bd layers deep.
 *   GOBs inside a block are stored x first, then y, then z:
 *     gob = gx + gy * (1 << bw) + gz * (1 << bw) * (1 << bh)
 *   and blocks in the surface likewise, x first across
 *   ceil(width_bytes / block width) blocks, then y down
 *   ceil(height / block height) rows of blocks, then z.
 *   So, with every GOB and block dimension a power of two, the offset of
 *   byte (x, y, z) is
 *     block_index * block_bytes + gob_in_block * 256
 *       + (y % 4) * 64 + x % 64.
 * - The worked example in the doc (13 x 17 x 3 elements of 16 bytes,
 *   bw = bh = bd = 1: 0x6000 bytes, element (8, 0, 0) at 0x800, (0, 8,
 *   0) at 0x1000, (0, 0, 1) at 0x400) is one of the unit tests.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/surface.h"

/* Blocks across a row of blocks and rows of blocks in a slice. */
static void blocks_xy(const NV50Surface *sf, uint64_t *bx, uint64_t *by)
{
    uint64_t bw_bytes = (uint64_t)NV50_GOB_WIDTH << sf->block_w;
    uint64_t bh_rows = (uint64_t)NV50_GOB_HEIGHT << sf->block_h;

    *bx = (sf->width_bytes + bw_bytes - 1) / bw_bytes;
    *by = (sf->height + bh_rows - 1) / bh_rows;
}

void nv50_surface_walk(const NV50Surface *sf, NV50SurfaceWalk *w)
{
    uint64_t blocks_x = 0, blocks_y = 0;

    memset(w, 0, sizeof(*w));
    w->block_linear = sf->block_linear;
    w->pitch = sf->pitch;
    if (!sf->block_linear) {
        return;
    }
    w->bw = sf->block_w;
    w->bh = sf->block_h;
    w->bd = sf->block_d;
    /* the block index (x first, then y, then z) times a block's bytes
       (a GOB is 1 << 8), split by slice, row and column */
    w->block_shift = sf->block_w + sf->block_h + sf->block_d + 8;
    blocks_xy(sf, &blocks_x, &blocks_y);
    w->row_bytes = blocks_x << w->block_shift;
    w->slice_bytes = blocks_x * blocks_y << w->block_shift;
}

uint64_t nv50_surface_offset(const NV50Surface *sf, uint32_t x, uint32_t y,
                             uint32_t z)
{
    NV50SurfaceWalk w;

    nv50_surface_walk(sf, &w);
    return nv50_surface_walk_offset(&w, x, y, z);
}

uint32_t nv50_surface_run(const NV50Surface *sf, uint32_t x, uint32_t y,
                          uint32_t z)
{
    if (!sf->block_linear) {
        return UINT32_MAX;
    }
    return NV50_GOB_WIDTH - x % NV50_GOB_WIDTH;
}

uint64_t nv50_surface_next_gob(const NV50Surface *sf, uint32_t x)
{
    uint32_t last = (1u << sf->block_w) - 1;

    if (!sf->block_linear) {
        return 0;
    }
    if ((x / NV50_GOB_WIDTH & last) != last) {
        return NV50_GOB_SIZE;
    }
    return ((uint64_t)NV50_GOB_SIZE <<
            (sf->block_w + sf->block_h + sf->block_d)) -
           (uint64_t)last * NV50_GOB_SIZE;
}

uint64_t nv50_surface_size(const NV50Surface *sf)
{
    uint64_t blocks_x, blocks_y, blocks_z;
    unsigned bd = sf->block_d;

    if (!sf->width_bytes || !sf->height || !sf->depth) {
        return 0;
    }
    if (!sf->block_linear) {
        return (uint64_t)(sf->height - 1) * sf->pitch + sf->width_bytes;
    }
    blocks_xy(sf, &blocks_x, &blocks_y);
    blocks_z = ((uint64_t)sf->depth + (1u << bd) - 1) >> bd;
    return blocks_x * blocks_y * blocks_z *
           ((uint64_t)NV50_GOB_SIZE << (sf->block_w + sf->block_h + bd));
}

void nv50_surface_shrink_blocks(NV50Surface *sf)
{
    if (!sf->block_linear) {
        return;
    }
    /* the doc's loops: shrink while half the block covers the surface */
    while (sf->block_w > 0 &&
           ((uint64_t)NV50_GOB_WIDTH << (sf->block_w - 1)) >=
           sf->width_bytes) {
        sf->block_w--;
    }
    while (sf->block_h > 0 &&
           ((uint64_t)NV50_GOB_HEIGHT << (sf->block_h - 1)) >= sf->height) {
        sf->block_h--;
    }
    while (sf->block_d > 0 &&
           ((uint64_t)1 << (sf->block_d - 1)) >= sf->depth) {
        sf->block_d--;
    }
}
