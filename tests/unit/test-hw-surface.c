/*
 * nv50 surface addressing (hw/nv50/surface.c): pitch and block-linear
 * offsets, contiguous runs and sizes.
 *
 * The reference here is built the other way round from the module: it
 * walks memory in storage order (blocks x, y, z; GOBs in a block x, y,
 * z; the four 64-byte rows of a GOB) handing out consecutive addresses,
 * and records which byte of the surface each address holds.  Plus the
 * worked example of envytools docs/hw/memory/g80-surface.rst (13 x 17 x
 * 3 elements of 16 bytes, 2 x 2 x 2 GOB blocks).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/surface.h"
#include <check.h>

typedef struct RefMap {
    uint32_t w, h, d;           /* bytes, rows, layers walked */
    uint32_t *addr;             /* [z][y][x] */
    uint64_t total;             /* bytes walked */
} RefMap;

static void ref_walk(RefMap *m, unsigned bw, unsigned bh, unsigned bd,
                     uint32_t width, uint32_t height, uint32_t depth)
{
    uint32_t block_w = 64u << bw, block_h = 4u << bh, block_d = 1u << bd;
    uint32_t nbx = (width + block_w - 1) / block_w;
    uint32_t nby = (height + block_h - 1) / block_h;
    uint32_t nbz = (depth + block_d - 1) / block_d;
    uint32_t next = 0;

    m->w = nbx * block_w;
    m->h = nby * block_h;
    m->d = nbz * block_d;
    m->addr = g_new0(uint32_t, (size_t)m->w * m->h * m->d);
    for (uint32_t bz = 0; bz < nbz; bz++) {
        for (uint32_t by = 0; by < nby; by++) {
            for (uint32_t bx = 0; bx < nbx; bx++) {
                for (uint32_t gz = 0; gz < block_d; gz++) {
                    for (uint32_t gy = 0; gy < (1u << bh); gy++) {
                        for (uint32_t gx = 0; gx < (1u << bw); gx++) {
                            for (uint32_t r = 0; r < 4; r++) {
                                for (uint32_t b = 0; b < 64; b++) {
                                    uint32_t x = bx * block_w + gx * 64 + b;
                                    uint32_t y = by * block_h + gy * 4 + r;
                                    uint32_t z = bz * block_d + gz;

                                    m->addr[((size_t)z * m->h + y) * m->w +
                                            x] = next++;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    m->total = next;
}

typedef struct BlCase {
    uint8_t bw, bh, bd;
    uint32_t width, height, depth;
} BlCase;

static const BlCase bl_cases[] = {
    { 0, 0, 0, 64, 4, 1 },
    { 0, 0, 0, 100, 9, 1 },
    { 0, 1, 0, 256, 8, 1 },
    { 0, 3, 0, 300, 50, 1 },
    { 0, 5, 0, 64, 200, 1 },
    { 1, 1, 1, 208, 17, 3 },        /* the doc's example */
    { 2, 0, 0, 100, 9, 1 },
    { 1, 2, 3, 130, 20, 9 },
    { 0, 4, 2, 192, 70, 5 },
    { 3, 1, 1, 700, 10, 3 },
};

/* Case @c's surface, and the reference walk of it in *m (g_free m->addr). */
static NV50Surface bl_case(const BlCase *c, RefMap *m)
{
    NV50Surface sf = {
        .block_linear = true,
        .width_bytes = c->width, .height = c->height, .depth = c->depth,
        .block_w = c->bw, .block_h = c->bh, .block_d = c->bd,
    };

    ref_walk(m, c->bw, c->bh, c->bd, c->width, c->height, c->depth);
    return sf;
}

START_TEST(test_blocklinear_offsets)
{
    RefMap m;
    NV50Surface sf = bl_case(&bl_cases[_i], &m);

    ck_assert_uint_eq(nv50_surface_size(&sf), m.total);
    for (uint32_t z = 0; z < m.d; z++) {
        for (uint32_t y = 0; y < m.h; y++) {
            for (uint32_t x = 0; x < m.w; x++) {
                uint64_t want = m.addr[((size_t)z * m.h + y) * m.w + x];
                uint64_t got = nv50_surface_offset(&sf, x, y, z);

                if (got != want) {
                    ck_abort_msg("case %d: byte (%u, %u, %u) at 0x%" PRIx64
                                 ", expected 0x%" PRIx64, _i, x, y, z, got,
                                 want);
                }
            }
        }
    }
    g_free(m.addr);
}
END_TEST

/*
 * Runs: every byte of a run is the one after the previous, and the byte
 * after the run is somewhere else (within the walked surface).
 */
START_TEST(test_blocklinear_runs)
{
    RefMap m;
    NV50Surface sf = bl_case(&bl_cases[_i], &m);

    for (uint32_t z = 0; z < m.d; z++) {
        for (uint32_t y = 0; y < m.h; y += 3) {
            for (uint32_t x = 0; x < m.w; x += 7) {
                const uint32_t *row = &m.addr[((size_t)z * m.h + y) * m.w];
                uint32_t run = nv50_surface_run(&sf, x, y, z);

                ck_assert_uint_ge(run, 1);
                ck_assert_uint_le(x + run, m.w);
                for (uint32_t i = 1; i < run; i++) {
                    ck_assert_uint_eq(row[x + i], row[x] + i);
                }
                if (x + run < m.w) {
                    ck_assert_uint_ne(row[x + run], row[x] + run);
                }
            }
        }
    }
    g_free(m.addr);
}
END_TEST

/*
 * The step to the next GOB column: from the start of each GOB row to
 * the start of the one after it across the same row, as the reference
 * walk lays them out.
 */
START_TEST(test_blocklinear_next_gob)
{
    RefMap m;
    NV50Surface sf = bl_case(&bl_cases[_i], &m);

    for (uint32_t z = 0; z < m.d; z++) {
        for (uint32_t y = 0; y < m.h; y++) {
            const uint32_t *row = &m.addr[((size_t)z * m.h + y) * m.w];

            for (uint32_t x = 0; x + NV50_GOB_WIDTH < m.w;
                 x += NV50_GOB_WIDTH) {
                ck_assert_uint_eq(row[x] + nv50_surface_next_gob(&sf, x),
                                  row[x + NV50_GOB_WIDTH]);
            }
        }
    }
    g_free(m.addr);
}
END_TEST

/*
 * envytools' formula written out as a block index (x first, then y,
 * then z) times a block's bytes, plus the GOB in the block and the byte
 * in the GOB: what the surface's addressing gives beyond the bytes the
 * reference walk lays out.
 */
static uint64_t ref_formula(const NV50Surface *sf, uint32_t x, uint32_t y,
                            uint32_t z)
{
    unsigned bw = sf->block_w, bh = sf->block_h, bd = sf->block_d;
    uint64_t bw_bytes = (uint64_t)NV50_GOB_WIDTH << bw;
    uint64_t bh_rows = (uint64_t)NV50_GOB_HEIGHT << bh;
    uint64_t bx = (sf->width_bytes + bw_bytes - 1) / bw_bytes;
    uint64_t by = (sf->height + bh_rows - 1) / bh_rows;
    uint32_t gx = x / NV50_GOB_WIDTH, gy = y / NV50_GOB_HEIGHT;
    uint64_t block = ((uint64_t)(z >> bd) * by + (gy >> bh)) * bx +
                     (gx >> bw);
    uint64_t gob = ((uint64_t)(z & ((1u << bd) - 1)) << (bw + bh)) |
                   ((uint64_t)(gy & ((1u << bh) - 1)) << bw) |
                   (gx & ((1u << bw) - 1));

    return ((block << (bw + bh + bd)) + gob) * NV50_GOB_SIZE +
           (y % NV50_GOB_HEIGHT) * NV50_GOB_WIDTH + x % NV50_GOB_WIDTH;
}

/*
 * nv50_surface_walk_offset: the reference walk's address for every byte
 * walked, ref_formula's beyond it (the formula goes on there);
 * the run as nv50_surface_run's; the row step where there is one (the
 * first three rows of a GOB) gives the next row's byte.
 */
START_TEST(test_blocklinear_walk)
{
    RefMap m;
    NV50Surface sf = bl_case(&bl_cases[_i], &m);
    NV50SurfaceWalk w;

    nv50_surface_walk(&sf, &w);
    for (uint32_t z = 0; z < m.d + 3; z++) {
        for (uint32_t y = 0; y < m.h + 40; y++) {
            for (uint32_t x = 0; x < m.w + 300; x++) {
                bool in = x < m.w && y < m.h && z < m.d;
                uint64_t want = in ? m.addr[((size_t)z * m.h + y) * m.w + x]
                                   : ref_formula(&sf, x, y, z);
                uint64_t got = nv50_surface_walk_offset(&w, x, y, z);

                uint64_t step = nv50_surface_walk_row_step(&w, y);

                if (got != want ||
                    nv50_surface_walk_run(&w, x) !=
                    nv50_surface_run(&sf, x, y, z) ||
                    (step && ref_formula(&sf, x, y + 1, z) !=
                     got + step) || (!step && y % NV50_GOB_HEIGHT != 3)) {
                    ck_abort_msg("case %d: byte (%u, %u, %u) at 0x%" PRIx64
                                 ", expected 0x%" PRIx64, _i, x, y, z, got,
                                 want);
                }
            }
        }
    }
    g_free(m.addr);
}
END_TEST

/* envytools' example, element (x, y, z) of 16 bytes, from its tables */
START_TEST(test_doc_example)
{
    static const struct {
        uint32_t x, y, z, addr;
    } v[] = {
        { 0, 0, 0, 0x0000 }, { 1, 0, 0, 0x0010 }, { 3, 3, 0, 0x00f0 },
        { 4, 0, 0, 0x0100 }, { 5, 7, 0, 0x03d0 }, { 8, 0, 0, 0x0800 },
        { 12, 0, 0, 0x0900 }, { 11, 3, 0, 0x08f0 }, { 0, 8, 0, 0x1000 },
        { 8, 13, 0, 0x1a40 }, { 12, 16, 0, 0x2900 }, { 0, 0, 1, 0x0400 },
        { 6, 7, 1, 0x07e0 }, { 10, 9, 1, 0x1c60 }, { 12, 16, 1, 0x2d00 },
        { 0, 0, 2, 0x3000 }, { 4, 0, 2, 0x3100 }, { 10, 12, 2, 0x4a20 },
        { 12, 15, 2, 0x4bc0 }, { 9, 16, 2, 0x5810 },
    };
    NV50Surface sf = {
        .block_linear = true,
        .width_bytes = 13 * 16, .height = 17, .depth = 3,
        .block_w = 1, .block_h = 1, .block_d = 1,
    };

    ck_assert_uint_eq(nv50_surface_size(&sf), 0x6000);
    for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
        ck_assert_msg(nv50_surface_offset(&sf, v[i].x * 16, v[i].y,
                                          v[i].z) == v[i].addr,
                      "element (%u, %u, %u)", v[i].x, v[i].y, v[i].z);
        /* every byte of the element follows the first */
        ck_assert_uint_eq(nv50_surface_offset(&sf, v[i].x * 16 + 15, v[i].y,
                                              v[i].z), v[i].addr + 15);
    }
}
END_TEST

START_TEST(test_pitch)
{
    NV50Surface sf = {
        .pitch = 0x140, .width_bytes = 0x120, .height = 7, .depth = 1,
    };

    ck_assert_uint_eq(nv50_surface_offset(&sf, 0, 0, 0), 0);
    ck_assert_uint_eq(nv50_surface_offset(&sf, 5, 0, 0), 5);
    ck_assert_uint_eq(nv50_surface_offset(&sf, 0x11f, 6, 0), 6 * 0x140 +
                      0x11f);
    /* z is the caller's */
    ck_assert_uint_eq(nv50_surface_offset(&sf, 3, 2, 9), 2 * 0x140 + 3);
    /* no 32-bit overflow */
    sf.pitch = 0x10000;
    ck_assert_uint_eq(nv50_surface_offset(&sf, 1, 0x20000, 0),
                      0x200000001ull);
    sf.pitch = 0x140;
    ck_assert_uint_eq(nv50_surface_run(&sf, 0, 0, 0), UINT32_MAX);
    ck_assert_uint_eq(nv50_surface_run(&sf, 77, 3, 0), UINT32_MAX);
    ck_assert_uint_eq(nv50_surface_next_gob(&sf, 77), 0);
    /* the last row only as far as the width */
    ck_assert_uint_eq(nv50_surface_size(&sf), 6 * 0x140 + 0x120);
    sf.height = 1;
    ck_assert_uint_eq(nv50_surface_size(&sf), 0x120);
    sf.height = 0;
    ck_assert_uint_eq(nv50_surface_size(&sf), 0);
}
END_TEST

START_TEST(test_sizes)
{
    NV50Surface sf = {
        .block_linear = true, .width_bytes = 64, .height = 4, .depth = 1,
    };

    ck_assert_uint_eq(nv50_surface_size(&sf), 256);
    /* one byte more across: another GOB; block height 3: 8 GOBs each */
    sf.width_bytes = 65;
    sf.block_h = 3;
    ck_assert_uint_eq(nv50_surface_size(&sf), 2 * 8 * 256);
    /* rows 0..32 need two rows of 32-row blocks */
    sf.height = 33;
    ck_assert_uint_eq(nv50_surface_size(&sf), 4 * 8 * 256);
    /* depth 3 with 4-deep blocks: one slice of blocks, 4 GOBs deep */
    sf.depth = 3;
    sf.block_d = 2;
    ck_assert_uint_eq(nv50_surface_size(&sf), 4 * 32 * 256);
    sf.depth = 0;
    ck_assert_uint_eq(nv50_surface_size(&sf), 0);
    /* the largest blocks: 32 x 32 x 32 GOBs */
    sf = (NV50Surface) {
        .block_linear = true, .width_bytes = 1, .height = 1, .depth = 1,
        .block_w = 5, .block_h = 5, .block_d = 5,
    };
    ck_assert_uint_eq(nv50_surface_size(&sf), 256ull << 15);
    /* GOB (31, 31, 31) of the block is its last */
    ck_assert_uint_eq(nv50_surface_offset(&sf, 31 * 64 + 63, 31 * 4 + 3, 31),
                      (256ull << 15) - 1);
}
END_TEST

START_TEST(test_shrink)
{
    NV50Surface sf = {
        .block_linear = true, .width_bytes = 100, .height = 9, .depth = 2,
        .block_w = 3, .block_h = 5, .block_d = 4,
    };
    NV50Surface p = { .pitch = 64, .width_bytes = 1, .height = 1,
                      .depth = 1, .block_h = 4 };

    /* 100 bytes: 2 GOBs across (128 >= 100, 64 < 100) */
    nv50_surface_shrink_blocks(&sf);
    ck_assert_uint_eq(sf.block_w, 1);
    /* 9 rows: 4 GOBs of 4 (16 >= 9, 8 < 9) */
    ck_assert_uint_eq(sf.block_h, 2);
    /* 2 layers: 2 deep */
    ck_assert_uint_eq(sf.block_d, 1);
    /* small enough already */
    sf.width_bytes = 64;
    sf.block_w = 0;
    nv50_surface_shrink_blocks(&sf);
    ck_assert_uint_eq(sf.block_w, 0);
    nv50_surface_shrink_blocks(&p);
    ck_assert_uint_eq(p.block_h, 4);
}
END_TEST

Suite *hw_surface_suite(void)
{
    Suite *s = suite_create("hw_surface");
    TCase *tc = tcase_create("surface");

    tcase_add_loop_test(tc, test_blocklinear_offsets, 0,
                        ARRAY_SIZE(bl_cases));
    tcase_add_loop_test(tc, test_blocklinear_runs, 0, ARRAY_SIZE(bl_cases));
    tcase_add_loop_test(tc, test_blocklinear_next_gob, 0,
                        ARRAY_SIZE(bl_cases));
    tcase_add_loop_test(tc, test_blocklinear_walk, 0, ARRAY_SIZE(bl_cases));
    tcase_add_test(tc, test_doc_example);
    tcase_add_test(tc, test_pitch);
    tcase_add_test(tc, test_sizes);
    tcase_add_test(tc, test_shrink);
    suite_add_tcase(s, tc);
    return s;
}
