/*
 * The texture unit's shortcuts (hw/nv50/gr/texture*.c) against its
 * plain paths and a C reference: texels read under a DMA_TEXTURE
 * object (a VM one goes through the instruction's TLB: the same texels
 * as by VA, its window and faults as nv50_ctxdma_rw has them), the
 * whole-byte UNORM formats decoded from a table (A8B8G8R8, G8R8, R8
 * against a bilinear reference of bytes / 255), and the LOD made once
 * a quad (a warp of quads of different footprints gives what each quad
 * alone gives, with any of a quad's lanes first).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-tex-rig.h"
#include "gemu/bitops.h"
#include "hw/nv50/gr/texture.h"
#include "target/tesla.h"
#include <math.h>

#define TIC_VA      (GR_VA_DATA)
#define TSC_VA      (GR_VA_DATA + 0x10000)
#define TEX_VA      (GR_VA_DATA + 0x100000)
#define TEX_W       8
#define TEX_H       4
#define DMA_OBJ     0x40            /* the DMA object's offset / 16 */

#define F_NEAREST   1
#define F_LINEAR    2
#define M_NONE      1
#define W_REPEAT    0
#define TT_RECT     7

static uint8_t texels[TEX_W * TEX_H * 4];
static uint32_t co[4][TESLA_WARP_SIZE];
static uint32_t res[4][TESLA_WARP_SIZE];

/*
 * TIC 1 on $t0, TSC 1 on $s0 of the FP: a pitch TEX_W x TEX_H texture
 * of @format (@bytes a texel, every type UNORM, sources R G B A) at
 * @addr, normalised coordinates, REPEAT, @mag and @min filters.
 */
static void tex_setup(unsigned format, unsigned bytes, uint64_t addr,
                      unsigned mag, unsigned min)
{
    uint32_t tic[8] = {
        format | 2 << 6 | 2 << 9 | 2 << 12 | 2 << 15 |
        2u << 18 | 3u << 21 | 4u << 24 | 5u << 27,
        (uint32_t)addr,
        0x10001000u | 0x40000000u | 0x80000000u | TT_RECT << 14 |
        0x40000u | (uint32_t)(addr >> 32),
        TEX_W * bytes, TEX_W, 1u << 16 | TEX_H, 0, 0,
    };
    uint32_t tsc[8] = {
        0x00026000 | W_REPEAT | W_REPEAT << 3 | W_REPEAT << 6,
        mag | min << 4 | M_NONE << 6, 15u << 20, 0, 0, 0, 0, 0,
    };

    tex_rig_entry(TIC_VA + 32, tic);
    tex_rig_entry(TSC_VA + 32, tsc);
    nv50_gr_bind_tic(&call, NV50_GR_PROG_FP, 1u << 9 | 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_FP, 1u << 12 | 1);
}

static void setup(void)
{
    tex_rig_init(TIC_VA, TSC_VA);
    for (unsigned i = 0; i < sizeof(texels); i++) {
        texels[i] = (i * 97 + 31) ^ (i >> 3);
    }
    for (unsigned i = 0; i < sizeof(texels); i += 4) {
        uint32_t w = texels[i] | texels[i + 1] << 8 | texels[i + 2] << 16 |
                     (uint32_t)texels[i + 3] << 24;

        gr_wr32(TEX_VA + i, w);
    }
}

/* lane l's coordinates: quad l / 4 spans @scale[q] texels a pixel */
static void coords_of(const float *scale)
{
    memset(co, 0, sizeof(co));
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        float s = scale[l / 4];
        float x = 0.3f + 0.7f * (l / 4) + s * (l & 1);
        float y = 0.6f + 0.45f * (l / 4) + s * (l >> 1 & 1);

        co[0][l] = f32_to_bits(x / TEX_W);
        co[1][l] = f32_to_bits(y / TEX_H);
    }
}

static void run(uint32_t mask)
{
    TeslaInsn i;

    memset(&i, 0, sizeof(i));
    i.op = TOP_TEX;
    i.tex.kind = TTEX_AUTO;
    memset(res, 0xcc, sizeof(res));
    nv50_tex_sample(&unit, &i, mask, co, 2, res);
}

/* the bilinear reference of channel @k of @bytes-byte texels, REPEAT */
static float ref_bilinear(unsigned bytes, unsigned k, float s, float t)
{
    float u = s * TEX_W - 0.5f, v = t * TEX_H - 0.5f;
    int x0 = (int)floorf(u), y0 = (int)floorf(v);
    float fx = u - floorf(u), fy = v - floorf(v), sum = 0.0f;

    if (k >= bytes) {
        return 0.0f;        /* absent: the sources read 0 */
    }
    for (unsigned c = 0; c < 4; c++) {
        int x = ((x0 + (int)(c & 1)) % TEX_W + TEX_W) % TEX_W;
        int y = ((y0 + (int)(c >> 1)) % TEX_H + TEX_H) % TEX_H;
        float w = (c & 1 ? fx : 1 - fx) * (c >> 1 ? fy : 1 - fy);

        sum += w * texels[(y * TEX_W + x) * bytes + k] / 255.0f;
    }
    return sum;
}

/* A8B8G8R8, G8R8, R8 UNORM: bilinear as the reference says */
START_TEST(test_tex_paths_bytes)
{
    static const struct {
        unsigned format, bytes;
    } fmts[] = { { 0x08, 4 }, { 0x18, 2 }, { 0x1d, 1 } };
    static const float scale[8] = { 0.5f, 0.5f, 0.5f, 0.5f,
                                    0.5f, 0.5f, 0.5f, 0.5f };

    for (unsigned f = 0; f < 3; f++) {
        tex_setup(fmts[f].format, fmts[f].bytes, TEX_VA, F_LINEAR,
                  F_LINEAR);
        coords_of(scale);
        run(0xffffffffu);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            for (unsigned k = 0; k < 4; k++) {
                float want = ref_bilinear(fmts[f].bytes, k,
                                          bits_to_f32(co[0][l]),
                                          bits_to_f32(co[1][l]));
                float got = bits_to_f32(res[k][l]);

                ck_assert_msg(fabsf(got - want) < 1e-5f,
                              "format 0x%02x lane %u channel %u: %f, want "
                              "%f", fmts[f].format, l, k, (double)got,
                              (double)want);
            }
        }
    }
}
END_TEST

/*
 * DMA_TEXTURE: a VM object from 0 and one from 0x1000 below the
 * texture (the TIC's address an offset in it) read what the VA reads;
 * one whose limit ends before the texture reads 0 (a fault).
 */
START_TEST(test_tex_paths_dma)
{
    static const float scale[8] = { 0.25f, 1.5f, 0.5f, 3, 0.75f, 2, 1, 6 };
    uint32_t want[4][TESLA_WARP_SIZE];

    tex_setup(0x08, 4, TEX_VA, F_LINEAR, F_LINEAR);
    coords_of(scale);
    run(0xffffffffu);
    memcpy(want, res, sizeof(want));
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        ck_assert_uint_ne(want[0][l], 0xccccccccu);
    }

    gr_ctxdma(DMA_OBJ, NV50_DMA_VM, 0, 0xffffffffffull);
    gr.ctx->shared.dma_texture = DMA_OBJ;
    run(0xffffffffu);
    ck_assert_mem_eq(res, want, sizeof(want));

    gr_ctxdma(DMA_OBJ, NV50_DMA_VM, TEX_VA - 0x1000, 0xffffffffffull);
    tex_setup(0x08, 4, 0x1000, F_LINEAR, F_LINEAR);
    run(0xffffffffu);
    ck_assert_mem_eq(res, want, sizeof(want));

    /* the limit (inclusive) ends a byte before the texture */
    gr_ctxdma(DMA_OBJ, NV50_DMA_VM, TEX_VA - 0x1000, TEX_VA - 1);
    run(0xffffffffu);
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            ck_assert_uint_eq(res[k][l], 0);
        }
    }
}
END_TEST

/*
 * The LOD of a quad: magnified quads filter linearly, minified ones
 * nearest; a warp of both gives each quad what it gives alone, also
 * when a quad's first lanes are masked off.
 */
START_TEST(test_tex_paths_quads)
{
    static const float scale[8] = { 0.25f, 4, 0.5f, 2, 0.125f, 8, 1.5f,
                                    0.75f };
    static const uint32_t masks[] = { 0xffffffffu, 0xeeeeeeeeu, 0x8c8c8c8cu,
                                      0x0f0ff0f0u };
    uint32_t want[4][TESLA_WARP_SIZE];
    unsigned linear = 0;

    tex_setup(0x08, 4, TEX_VA, F_LINEAR, F_NEAREST);
    coords_of(scale);
    for (unsigned q = 0; q < 8; q++) {
        float r;

        run(0xfu << (4 * q));
        for (unsigned k = 0; k < 4; k++) {
            memcpy(&want[k][4 * q], &res[k][4 * q], 4 * sizeof(uint32_t));
        }
        /* a nearest texel is a multiple of 1/255 */
        r = bits_to_f32(res[0][4 * q]) * 255.0f;
        if (fabsf(r - rintf(r)) > 1e-3f) {
            linear |= 1u << q;
        }
    }
    /* scale below 1: magnified (linear) */
    ck_assert_uint_eq(linear, 0x95);
    for (unsigned m = 0; m < ARRAY_SIZE(masks); m++) {
        run(masks[m]);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            for (unsigned k = 0; k < 4; k++) {
                ck_assert_uint_eq(res[k][l], masks[m] & 1u << l ?
                                  want[k][l] : 0xccccccccu);
            }
        }
    }
}
END_TEST

Suite *nv50_tex_paths_suite(void)
{
    Suite *su = suite_create("nv50_tex_paths");
    TCase *tc = tcase_create("tex_paths");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_add_test(tc, test_tex_paths_bytes);
    tcase_add_test(tc, test_tex_paths_dma);
    tcase_add_test(tc, test_tex_paths_quads);
    suite_add_tcase(su, tc);
    return su;
}
