/*
 * What the texture unit's suites (test-device-nv50-texture.c,
 * -texture-filter.c, -texture-targets.c, -texture-fetch.c) share on top
 * of nv50-tex-rig.h: TIC/TSC entries written to memory the way Mesa's
 * nv50 driver writes them (nv50_tex.c, nv50_state.c), TIC 5 and TSC 3
 * bound to the FP's $t0/$s0, hand-made tex instructions run through
 * nv50_tex_sample(), texels laid out by envytools' g80-surface.rst rules
 * (ref_level), an 8x8 R32F texture of four mip levels.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_TEXTURE_RIG_H
#define TESTS_DEVICE_NV50_TEXTURE_RIG_H

#include "nv50-tex-rig.h"
#include "hw/nv50/surface.h"
#include "hw/nv50/gr/tpc.h"
#include "target/tesla.h"
#include <math.h>
#include "gemu/bitops.h"

#define TIC_VA      (GR_VA_DATA)
#define TSC_VA      (GR_VA_DATA + 0x10000)
#define TEX_VA      (GR_VA_DATA + 0x100000)

/* TIC word 0 as Mesa builds it: format, one type for all, sources */
#define S_0         0
#define S_R         2
#define S_G         3
#define S_B         4
#define S_A         5
#define S_1I        6
#define S_1F        7
#define T_SNORM     1
#define T_UNORM     2
#define T_SINT      3
#define T_UINT      4
#define T_FLOAT     7
#define TIC0(fmt, t0, t1, t2, t3, x, y, z, w) \
    ((fmt) | (t0) << 6 | (t1) << 9 | (t2) << 12 | (t3) << 15 | \
     (x) << 18 | (y) << 21 | (z) << 24 | (uint32_t)(w) << 27)
#define TIC0A(fmt, t, x, y, z, w)   TIC0(fmt, t, t, t, t, x, y, z, w)

/* TIC_2 texture types */
#define TT_1D       0
#define TT_2D       1
#define TT_3D       2
#define TT_CUBE     3
#define TT_2D_ARRAY 5
#define TT_RECT     7

/* TSC */
#define W_REPEAT    0
#define W_MIRROR    1
#define W_EDGE      2
#define W_BORDER    3
#define W_OGL       4
#define W_MO_EDGE   5
#define F_NEAREST   1
#define F_LINEAR    2
#define M_NONE      1
#define M_NEAREST   2
#define M_LINEAR    3

static inline void setup(void)
{
    /* Mesa: TIC/TSC_ADDRESS in the txc buffer */
    tex_rig_init(TIC_VA, TSC_VA);
}

static inline uint32_t fb(float f)
{
    return f32_to_bits(f);
}

static inline float bf(uint32_t u)
{
    return bits_to_f32(u);
}

static inline void mem_write(uint64_t va, const void *buf, size_t len)
{
    ck_assert(nv50_vram_write(rig.s, gr_va_to_vram(va), buf, len));
}

/* TIC 5 bound to $t0 of the FP, TSC 3 to $s0 (Mesa's BIND_TIC/TSC data) */
static inline void bind(void)
{
    nv50_gr_bind_tic(&call, NV50_GR_PROG_FP, 5u << 9 | 0 << 1 | 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_FP, 3u << 12 | 0 << 4 | 1);
}

/* A pitch-linear RECT-like 2D texture (nv50_create_texture_view's linear
   path), normalised coordinates. */
static inline void tic_pitch(uint32_t w0, uint32_t width, uint32_t height,
                             uint32_t pitch, bool srgb)
{
    uint32_t t[8] = {
        w0, (uint32_t)TEX_VA,
        0x10001000u | 0x40000000u | 0x80000000u | (TT_RECT << 14) |
        0x40000u | (srgb ? 0x400 : 0) | (uint32_t)(TEX_VA >> 32),
        pitch, width, 1u << 16 | height, 0, 0,
    };

    tex_rig_entry(TIC_VA + 5 * 32, t);
    bind();
}

/* A block-linear texture as Mesa's G84 path writes it. */
static inline void tic_bl(uint32_t w0, unsigned type, uint32_t width,
                          uint32_t height, uint32_t depth, unsigned last_level,
                          unsigned first_level, unsigned tile_mode)
{
    uint32_t t[8] = {
        w0, (uint32_t)TEX_VA,
        0x10001000u | 0x40000000u | 0x80000000u | type << 14 |
        (tile_mode & 0xf0) << 18 | (tile_mode & 0xf00) << 17 |
        (uint32_t)(TEX_VA >> 32),
        0x00300000, 0x80000000u | width,
        height | depth << 16 | last_level << 28, 0x03000000,
        last_level << 4 | first_level,
    };

    tex_rig_entry(TIC_VA + 5 * 32, t);
    bind();
}

/* nv50_sampler_state_create's words */
static inline void tsc(unsigned ws, unsigned wt, unsigned wr, unsigned mag,
                       unsigned min, unsigned mip, float bias, float min_lod,
                       float max_lod, int cmp_func, const float border[4])
{
    uint32_t t[8];

    t[0] = 0x00026000 | ws | wt << 3 | wr << 6;
    if (cmp_func >= 0) {
        t[0] |= 1 << 9 | (cmp_func & 7) << 10;
    }
    t[1] = mag | min << 4 | mip << 6 |
           ((uint32_t)(int)(bias * 256.0f) & 0x1fff) << 12;
    t[2] = ((uint32_t)(int)(max_lod * 256.0f) & 0xfff) << 12 |
           ((uint32_t)(int)(min_lod * 256.0f) & 0xfff);
    t[3] = 0;
    for (unsigned k = 0; k < 4; k++) {
        t[4 + k] = fb(border ? border[k] : 0.0f);
    }
    tex_rig_entry(TSC_VA + 3 * 32, t);
}

static inline void tsc_simple(unsigned wrap, unsigned filter)
{
    tsc(wrap, wrap, wrap, filter, filter, M_NONE, 0, 0, 15, -1,
        NULL);
}

/* --- running the sampler --- */

static inline TeslaInsn insn_of(unsigned kind)
{
    TeslaInsn i;

    memset(&i, 0, sizeof(i));
    i.op = TOP_TEX;
    i.tex.kind = kind;
    return i;
}

static uint32_t co[4][TESLA_WARP_SIZE];
static uint32_t res[4][TESLA_WARP_SIZE];

/* the same sources in every lane of quad 0; lane 0's result */
static inline void run(const TeslaInsn *i, const uint32_t *src, unsigned n,
                       uint32_t out[4])
{
    memset(co, 0, sizeof(co));
    memset(res, 0xcc, sizeof(res));
    for (unsigned c = 0; c < n; c++) {
        for (unsigned l = 0; l < 4; l++) {
            co[c][l] = src[c];
        }
    }
    nv50_tex_sample(&unit, i, 0xf, co, n, res);
    for (unsigned c = 0; c < 4; c++) {
        out[c] = res[c][0];
    }
}

static inline void sample(unsigned kind, const float *src, unsigned n,
                          uint32_t out[4])
{
    TeslaInsn i = insn_of(kind);
    uint32_t s[4];

    for (unsigned c = 0; c < n; c++) {
        s[c] = fb(src[c]);
    }
    run(&i, s, n, out);
}

static inline float sample2(float x, float y)
{
    float s[2] = { x, y };
    uint32_t o[4];

    sample(TTEX_AUTO, s, 2, o);
    return bf(o[0]);
}

#define CK_F(got, want) \
    ck_assert_msg(fabsf((got) - (want)) < 1e-5f, "%s = %f, want %f", \
                  #got, (double)(got), (double)(want))

/* --- references --- */

/* g80-surface.rst: level @l's surface (TIC block size auto-sized) */
static inline NV50Surface ref_level_surface(unsigned bytes, uint32_t w,
                                            uint32_t h, uint32_t d,
                                            unsigned tile_mode, unsigned l)
{
    NV50Surface sf;

    memset(&sf, 0, sizeof(sf));
    sf.block_linear = true;
    sf.width_bytes = MAX(w >> l, 1u) * bytes;
    sf.height = MAX(h >> l, 1u);
    sf.depth = MAX(d >> l, 1u);
    sf.block_h = (tile_mode >> 4) & 0xf;
    sf.block_d = (tile_mode >> 8) & 0xf;
    nv50_surface_shrink_blocks(&sf);
    return sf;
}

/*
 * Level @l of @levels: its surface and its offset, the subtexture size
 * rounded up to level 0's block.
 */
static inline NV50Surface ref_level(unsigned bytes, uint32_t w, uint32_t h,
                                    uint32_t d, unsigned tile_mode,
                                    unsigned l, unsigned levels,
                                    uint64_t *off, uint64_t *sub)
{
    uint64_t o = 0, bb = 0;

    *off = 0;                   /* @l of @levels: set below */
    for (unsigned i = 0; i < levels; i++) {
        NV50Surface sf = ref_level_surface(bytes, w, h, d, tile_mode, i);

        if (i == 0) {
            bb = (uint64_t)NV50_GOB_SIZE << (sf.block_h + sf.block_d);
        }
        if (i == l) {
            *off = o;
        }
        o += nv50_surface_size(&sf);
    }
    if (sub) {
        *sub = (o + bb - 1) / bb * bb;
    }
    return ref_level_surface(bytes, w, h, d, tile_mode, l);
}

static inline void put_f32(uint64_t base, const NV50Surface *sf, uint32_t x,
                           uint32_t y, uint32_t z, float v)
{
    uint32_t u = fb(v);
    uint8_t b[4] = { u, u >> 8, u >> 16, u >> 24 };

    mem_write(base + nv50_surface_offset(sf, 4 * x, y, z), b, 4);
}

static inline void r32f_pitch(uint32_t w, uint32_t h, const float *v)
{
    for (uint32_t i = 0; i < w * h; i++) {
        gr_wr32(TEX_VA + 4 * i, fb(v[i]));
    }
    tic_pitch(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), w, h, 4 * w, false);
}

/* an 8x8 R32F texture, levels 0-3, texel value (level + 1) */
static inline void mip_texture(unsigned first_level)
{
    const unsigned tm = 0x10;   /* Mesa's tile mode for 8 rows */

    for (unsigned l = 0; l < 4; l++) {
        uint64_t off;
        NV50Surface sf = ref_level(4, 8, 8, 1, tm, l, 4, &off, NULL);

        for (uint32_t y = 0; y < MAX(8u >> l, 1u); y++) {
            for (uint32_t x = 0; x < MAX(8u >> l, 1u); x++) {
                put_f32(TEX_VA + off, &sf, x, y, 0, (float)(l + 1));
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_2D, 8, 8, 1, 3,
           first_level, tm);
}

/* A test case of the texture suites: the rig around each test. */
static inline TCase *tex_rig_tcase(const char *name)
{
    TCase *tc = tcase_create(name);

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    return tc;
}

#endif
