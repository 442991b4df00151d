/*
 * The texture unit (hw/nv50/gr/texture.c) against plain C references:
 * TIC/TSC entries written to memory the way Mesa's nv50 driver writes
 * them (nv50_tex.c, nv50_state.c; formats as nv50_formats.c maps them),
 * texels laid out by envytools' g80-surface.rst rules, sampled by
 * calling nv50_tex_sample() with hand-made instructions: format
 * decoding, filtering weights, wrap modes, mip levels and LOD, arrays,
 * cube faces, 3D, shadow compare, texfetch and texsize.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-tex-rig.h"
#include "hw/nv50/surface.h"
#include "hw/nv50/gr/tpc.h"
#include "target/tesla.h"
#include <math.h>

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

static void setup(void)
{
    /* Mesa: TIC/TSC_ADDRESS in the txc buffer */
    tex_rig_init(TIC_VA, TSC_VA);
}

static uint32_t fb(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static float bf(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static void mem_write(uint64_t va, const void *buf, size_t len)
{
    ck_assert(nv50_vram_write(rig.s, gr_va_to_vram(va), buf, len));
}

static void entry_write(uint64_t va, const uint32_t w[8])
{
    for (unsigned i = 0; i < 8; i++) {
        gr_wr32(va + 4 * i, w[i]);
    }
}

/* TIC 5 bound to $t0 of the FP, TSC 3 to $s0 (Mesa's BIND_TIC/TSC data) */
static void bind(void)
{
    nv50_gr_bind_tic(&call, NV50_GR_PROG_FP, 5u << 9 | 0 << 1 | 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_FP, 3u << 12 | 0 << 4 | 1);
}

/* A pitch-linear RECT-like 2D texture (nv50_create_texture_view's linear
   path), normalised coordinates. */
static void tic_pitch(uint32_t w0, uint32_t width, uint32_t height,
                      uint32_t pitch, bool srgb)
{
    uint32_t t[8] = {
        w0, (uint32_t)TEX_VA,
        0x10001000u | 0x40000000u | 0x80000000u | (TT_RECT << 14) |
        0x40000u | (srgb ? 0x400 : 0) | (uint32_t)(TEX_VA >> 32),
        pitch, width, 1u << 16 | height, 0, 0,
    };

    entry_write(TIC_VA + 5 * 32, t);
    bind();
}

/* A block-linear texture as Mesa's G84 path writes it. */
static void tic_bl(uint32_t w0, unsigned type, uint32_t width,
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

    entry_write(TIC_VA + 5 * 32, t);
    bind();
}

/* nv50_sampler_state_create's words */
static void tsc(unsigned ws, unsigned wt, unsigned wr, unsigned mag,
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
    entry_write(TSC_VA + 3 * 32, t);
}

static void tsc_simple(unsigned wrap, unsigned filter)
{
    tsc(wrap, wrap, wrap, filter, filter, M_NONE, 0, 0, 15, -1,
        NULL);
}

/* --- running the sampler --- */

static TeslaInsn insn_of(unsigned kind)
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
static void run(const TeslaInsn *i, const uint32_t *src, unsigned n,
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

static void sample(unsigned kind, const float *src, unsigned n,
                   uint32_t out[4])
{
    TeslaInsn i = insn_of(kind);
    uint32_t s[4];

    for (unsigned c = 0; c < n; c++) {
        s[c] = fb(src[c]);
    }
    run(&i, s, n, out);
}

static float sample2(float x, float y)
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

static float srgb(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/*
 * g80-surface.rst: level l's surface (TIC block size auto-sized) and its
 * offset, the subtexture size rounded up to level 0's block.
 */
static NV50Surface ref_level(unsigned bytes, uint32_t w, uint32_t h,
                             uint32_t d, unsigned tile_mode, unsigned l,
                             unsigned levels, uint64_t *off, uint64_t *sub)
{
    NV50Surface sf;
    uint64_t o = 0, bb = 0;

    for (unsigned i = 0; i < levels; i++) {
        memset(&sf, 0, sizeof(sf));
        sf.block_linear = true;
        sf.width_bytes = MAX(w >> i, 1u) * bytes;
        sf.height = MAX(h >> i, 1u);
        sf.depth = MAX(d >> i, 1u);
        sf.block_h = (tile_mode >> 4) & 0xf;
        sf.block_d = (tile_mode >> 8) & 0xf;
        nv50_surface_shrink_blocks(&sf);
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
    /* return level l's surface */
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

static void put_f32(uint64_t base, const NV50Surface *sf, uint32_t x,
                    uint32_t y, uint32_t z, float v)
{
    uint32_t u = fb(v);
    uint8_t b[4] = { u, u >> 8, u >> 16, u >> 24 };

    mem_write(base + nv50_surface_offset(sf, 4 * x, y, z), b, 4);
}

/* --- formats --- */

typedef struct FmtCase {
    const char *name;
    uint32_t w0;
    unsigned bytes;
    uint8_t texel[16];
    bool srgb;
    float want[4];
    bool want_int;          /* want[] are integers */
} FmtCase;

#define RGBA(f, t)  TIC0A(f, t, S_R, S_G, S_B, S_A)
#define BGRA(f, t)  TIC0A(f, t, S_B, S_G, S_R, S_A)

static const FmtCase fmt_cases[] = {
    { "BGRA8_UNORM", BGRA(0x08, T_UNORM), 4, { 0x10, 0x20, 0x30, 0x40 },
      false, { 0x30 / 255.0f, 0x20 / 255.0f, 0x10 / 255.0f, 0x40 / 255.0f } },
    { "RGBA8_SNORM", RGBA(0x08, T_SNORM), 4, { 0x81, 0x80, 0x7f, 0x40 },
      false, { -1, -1, 1, 64 / 127.0f } },
    { "RGBX8_UINT", TIC0A(0x08, T_UINT, S_R, S_G, S_B, S_1I), 4,
      { 1, 2, 0xff, 9 }, false, { 1, 2, 255, 1 }, true },
    { "RGBA8_SINT", RGBA(0x08, T_SINT), 4, { 0xff, 2, 0x80, 9 },
      false, { -1, 2, -128, 9 }, true },
    { "RGBA8_SRGB", RGBA(0x08, T_UNORM), 4, { 0x80, 0x40, 0xff, 0x80 },
      true, { 0, 0, 1, 0x80 / 255.0f } },   /* rgb filled in below */
    { "R16_FLOAT", TIC0A(0x1b, T_FLOAT, S_R, S_0, S_0, S_1F), 2,
      { 0x00, 0xc0 }, false, { -2, 0, 0, 1 } },
    { "R32_FLOAT", TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), 4,
      { 0x00, 0x00, 0x80, 0x3e }, false, { 0.25f, 0, 0, 1 } },
    { "RG16_SNORM", TIC0A(0x0c, T_SNORM, S_R, S_G, S_0, S_1F), 4,
      { 0xff, 0x7f, 0x01, 0x80 }, false, { 1, -1, 0, 1 } },
    { "RGBA32_FLOAT", RGBA(0x01, T_FLOAT), 16,
      { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80,
        0xbf }, false, { 1, 2, 3, -1 } },
    { "RGBA16_UNORM", RGBA(0x03, T_UNORM), 8,
      { 0xff, 0xff, 0, 0x80, 0, 0, 0, 0 }, false,
      { 1, 32768 / 65535.0f, 0, 0 } },
    { "B5G6R5_UNORM", TIC0A(0x15, T_UNORM, S_B, S_G, S_R, S_1F), 2,
      { 0x0f, 0xf8 }, false, { 1, 0, 15 / 31.0f, 1 } },
    { "B5G5R5A1_UNORM", BGRA(0x14, T_UNORM), 2, { 0x1f, 0x80 }, false,
      { 0, 0, 1, 1 } },
    { "B4G4R4A4_UNORM", BGRA(0x12, T_UNORM), 2, { 0x21, 0x43 }, false,
      { 3 / 15.0f, 2 / 15.0f, 1 / 15.0f, 4 / 15.0f } },
    { "R10G10B10A2_UNORM", RGBA(0x09, T_UNORM), 4,
      { 0xff, 0x03, 0x08, 0xc0 }, false, { 1, 512 / 1023.0f, 0, 1 } },
    /* R 1.0 (e 15), G 0.5 (e 14), B 2.0 (e 16) */
    { "R11G11B10_FLOAT", TIC0A(0x21, T_FLOAT, S_R, S_G, S_B, S_1F), 4,
      { 0xc0, 0x03, 0x1c, 0x80 }, false, { 1, 0.5f, 2, 1 } },
    /* mantissas 256, 128, 0, exponent 16: 1.0, 0.5, 0 */
    { "R9G9B9E5_FLOAT", TIC0A(0x20, T_FLOAT, S_R, S_G, S_B, S_1F), 4,
      { 0x00, 0x01, 0x01, 0x80 }, false, { 1, 0.5f, 0, 1 } },
    { "L8A8_UNORM", TIC0A(0x18, T_UNORM, S_R, S_R, S_R, S_G), 2,
      { 0xff, 0x00 }, false, { 1, 1, 1, 0 } },
    { "A8_UNORM", TIC0A(0x1d, T_UNORM, S_0, S_0, S_0, S_R), 1,
      { 0x33 }, false, { 0, 0, 0, 0x33 / 255.0f } },
    /* depth: SZ X8Z24 (Z24S8, Z in G), ZS Z24S8 (S8Z24), ZF32, Z16 */
    { "X8Z24_UNORM", TIC0(0x29, T_UINT, T_UNORM, T_UINT, T_UINT, S_G, S_G,
                          S_G, S_1F), 4, { 0x55, 0x00, 0x00, 0x80 }, false,
      { 0x800000 / 16777215.0f, 0x800000 / 16777215.0f,
        0x800000 / 16777215.0f, 1 } },
    { "Z24_UNORM_S8_UINT", TIC0(0x2b, T_UNORM, T_UINT, T_UINT, T_UINT, S_R,
                                S_R, S_R, S_1F), 4, { 0xff, 0xff, 0xff, 0x12 },
      false, { 1, 1, 1, 1 } },
    { "Z32_FLOAT", TIC0(0x2f, T_FLOAT, T_UINT, T_UINT, T_UINT, S_R, S_R, S_R,
                        S_1F), 4, { 0, 0, 0x80, 0x3e }, false,
      { 0.25f, 0.25f, 0.25f, 1 } },
    { "Z16_UNORM", TIC0(0x3a, T_UNORM, T_UINT, T_UINT, T_UINT, S_R, S_R, S_R,
                        S_1F), 2, { 0x00, 0x80 }, false,
      { 32768 / 65535.0f, 32768 / 65535.0f, 32768 / 65535.0f, 1 } },
    { "X24S8_UINT", TIC0A(0x0d, T_UINT, S_G, S_G, S_G, S_G), 4,
      { 0, 0, 0, 0x42 }, false, { 0x42, 0x42, 0x42, 0x42 }, true },
};

START_TEST(test_tex_formats)
{
    for (size_t k = 0; k < ARRAY_SIZE(fmt_cases); k++) {
        const FmtCase *fc = &fmt_cases[k];
        float want[4];
        uint32_t o[4];
        float s[2] = { 0.75f, 0.5f };   /* texel 1 of a 2x1 texture */

        memcpy(want, fc->want, sizeof(want));
        if (fc->srgb) {
            want[0] = srgb(0x80 / 255.0f);
            want[1] = srgb(0x40 / 255.0f);
            want[2] = 1.0f;
        }
        tic_pitch(fc->w0, 2, 1, 64, fc->srgb);
        tsc_simple(W_EDGE, F_NEAREST);
        mem_write(TEX_VA + fc->bytes, fc->texel, fc->bytes);
        sample(TTEX_AUTO, s, 2, o);
        for (unsigned c = 0; c < 4; c++) {
            if (fc->want_int) {
                ck_assert_msg(o[c] == (uint32_t)(int32_t)want[c],
                              "%s: channel %u = 0x%x, want %d", fc->name, c,
                              o[c], (int)want[c]);
            } else {
                ck_assert_msg(fabsf(bf(o[c]) - want[c]) < 1e-5f,
                              "%s: channel %u = %f, want %f", fc->name, c,
                              (double)bf(o[c]), (double)want[c]);
            }
        }
    }
}
END_TEST

/* --- compressed --- */

static void sample_block(uint32_t w0, const uint8_t *blk, unsigned bytes,
                         unsigned x, unsigned y, float out[4])
{
    float s[2] = { (x + 0.5f) / 4, (y + 0.5f) / 4 };
    uint32_t o[4];

    tic_pitch(w0, 4, 4, bytes, false);
    tsc_simple(W_EDGE, F_NEAREST);
    mem_write(TEX_VA, blk, bytes);
    sample(TTEX_AUTO, s, 2, o);
    for (unsigned c = 0; c < 4; c++) {
        out[c] = bf(o[c]);
    }
}

START_TEST(test_tex_compressed)
{
    /* DXT1: red, blue, 2/3 red, 1/3 red across row 0 */
    static const uint8_t dxt1[8] = { 0x00, 0xf8, 0x1f, 0x00, 0xe4, 0, 0, 0 };
    /* DXT1 punch-through: c0 < c1, index 3 transparent black */
    static const uint8_t dxt1a[8] = { 0x1f, 0x00, 0x00, 0xf8, 0xe4, 0, 0, 0 };
    /* DXT3: alphas 0, 15, ... then the DXT1 colours */
    static const uint8_t dxt3[16] = { 0xf0, 0x00, 0, 0, 0, 0, 0, 0,
                                      0x00, 0xf8, 0x1f, 0x00, 0xe4, 0, 0, 0 };
    /* DXT5: a0 255 a1 0 (8 values), texel 1 index 2: 6/7 */
    static const uint8_t dxt5[16] = { 0xff, 0x00, 0x10, 0, 0, 0, 0, 0,
                                      0x00, 0xf8, 0x1f, 0x00, 0xe4, 0, 0, 0 };
    /* RGTC1: a0 0 <= a1 255 (6 values): idx 2 = 0.2, idx 6 = 0, 7 = 1 */
    static const uint8_t rgtc1[8] = { 0x00, 0xff, 0x82, 0x0f, 0, 0, 0, 0 };
    /* signed RGTC1: 127 > -127 (8 values): index 2 = 5/7 */
    static const uint8_t rgtc1s[8] = { 0x7f, 0x81, 0x10, 0, 0, 0, 0, 0 };
    uint8_t rgtc2[16];
    float o[4];
    const uint32_t rgba = RGBA(0x24, T_UNORM);

    sample_block(rgba, dxt1, 8, 0, 0, o);
    CK_F(o[0], 1); CK_F(o[1], 0); CK_F(o[2], 0); CK_F(o[3], 1);
    sample_block(rgba, dxt1, 8, 1, 0, o);
    CK_F(o[0], 0); CK_F(o[2], 1);
    sample_block(rgba, dxt1, 8, 2, 0, o);
    CK_F(o[0], 2 / 3.0f); CK_F(o[2], 1 / 3.0f);
    sample_block(rgba, dxt1, 8, 3, 0, o);
    CK_F(o[0], 1 / 3.0f); CK_F(o[2], 2 / 3.0f);
    sample_block(rgba, dxt1, 8, 0, 1, o);       /* index 0 */
    CK_F(o[0], 1);
    sample_block(rgba, dxt1a, 8, 2, 0, o);
    CK_F(o[0], 0.5f); CK_F(o[2], 0.5f); CK_F(o[3], 1);
    sample_block(rgba, dxt1a, 8, 3, 0, o);
    CK_F(o[0], 0); CK_F(o[1], 0); CK_F(o[2], 0); CK_F(o[3], 0);
    /* DXT1_RGB: alpha from ONE_FLOAT */
    sample_block(TIC0A(0x24, T_UNORM, S_R, S_G, S_B, S_1F), dxt1a, 8, 3, 0,
                 o);
    CK_F(o[3], 1);

    sample_block(RGBA(0x25, T_UNORM), dxt3, 16, 1, 0, o);
    CK_F(o[3], 1); CK_F(o[2], 1);
    sample_block(RGBA(0x25, T_UNORM), dxt3, 16, 0, 0, o);
    CK_F(o[3], 0); CK_F(o[0], 1);
    sample_block(RGBA(0x26, T_UNORM), dxt5, 16, 1, 0, o);
    CK_F(o[3], 6 / 7.0f);
    sample_block(RGBA(0x26, T_UNORM), dxt5, 16, 0, 0, o);
    CK_F(o[3], 1);

    /* RGTC1_UNORM (F1), texels 0..3 of row 0: idx 2, 0, 0, 0 ... */
    sample_block(TIC0A(0x27, T_UNORM, S_R, S_0, S_0, S_1F), rgtc1, 8, 0, 0,
                 o);
    CK_F(o[0], 0.2f); CK_F(o[1], 0); CK_F(o[3], 1);
    /* texel 3 of row 0 (bits 9-11 = 7) */
    sample_block(TIC0A(0x27, T_UNORM, S_R, S_0, S_0, S_1F), rgtc1, 8, 3, 0,
                 o);
    CK_F(o[0], 1);
    /* texel 4 (row 1, x 0): bits 12-14 = 6 */
    sample_block(TIC0A(0x27, T_UNORM, S_R, S_0, S_0, S_1F), rgtc1, 8, 0, 1,
                 o);
    CK_F(o[0], 0);
    sample_block(TIC0A(0x27, T_SNORM, S_R, S_0, S_0, S_1F), rgtc1s, 8, 1, 0,
                 o);
    CK_F(o[0], 5 / 7.0f);
    sample_block(TIC0A(0x27, T_SNORM, S_R, S_0, S_0, S_1F), rgtc1s, 8, 0, 0,
                 o);
    CK_F(o[0], 1);
    /* RGTC2: R from the first half, G from the second */
    memcpy(rgtc2, rgtc1, 8);
    memcpy(rgtc2 + 8, rgtc1s, 8);
    rgtc2[8] = 0xff;
    rgtc2[9] = 0x00;
    sample_block(TIC0A(0x28, T_UNORM, S_R, S_G, S_0, S_1F), rgtc2, 16, 1, 0,
                 o);
    CK_F(o[0], 0); CK_F(o[1], 6 / 7.0f); CK_F(o[2], 0);
}
END_TEST

/* --- filtering and wrapping --- */

static void r32f_pitch(uint32_t w, uint32_t h, const float *v)
{
    for (uint32_t i = 0; i < w * h; i++) {
        gr_wr32(TEX_VA + 4 * i, fb(v[i]));
    }
    tic_pitch(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), w, h, 4 * w, false);
}

START_TEST(test_tex_bilinear)
{
    static const float v[4] = { 0, 1, 2, 3 };   /* x + 2y */

    r32f_pitch(2, 2, v);
    tsc_simple(W_EDGE, F_LINEAR);
    /* plain C reference: bilinear weights of (u, v) in texels */
    for (float u = 0.25f; u <= 0.75f; u += 0.125f) {
        for (float t = 0.25f; t <= 0.75f; t += 0.125f) {
            float fx = u * 2 - 0.5f, fy = t * 2 - 0.5f;

            CK_F(sample2(u, t), fx + 2 * fy);
        }
    }
    /* nearest */
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(0.74f, 0.26f), 1);
    CK_F(sample2(0.24f, 0.76f), 2);
}
END_TEST

START_TEST(test_tex_wrap)
{
    static const float v[4] = { 10, 11, 12, 13 };
    static const float border[4] = { 7, 6, 5, 4 };
    uint32_t o[4];
    float s[2] = { -0.125f, 0.5f };

    r32f_pitch(4, 1, v);
    tsc_simple(W_REPEAT, F_NEAREST);
    CK_F(sample2(-0.125f, 0.5f), 13);
    CK_F(sample2(1.125f, 0.5f), 10);
    CK_F(sample2(2.375f, 0.5f), 11);
    tsc_simple(W_MIRROR, F_NEAREST);
    CK_F(sample2(-0.125f, 0.5f), 10);
    CK_F(sample2(1.125f, 0.5f), 13);
    CK_F(sample2(1.375f, 0.5f), 12);
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(-3.0f, 0.5f), 10);
    CK_F(sample2(3.0f, 0.5f), 13);
    tsc_simple(W_MO_EDGE, F_NEAREST);
    CK_F(sample2(-0.375f, 0.5f), 11);
    CK_F(sample2(-3.0f, 0.5f), 13);
    /* border: the TSC colour, all four channels, unswizzled */
    tsc(W_BORDER, W_BORDER, W_BORDER, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
        -1, border);
    sample(TTEX_AUTO, s, 2, o);
    CK_F(bf(o[0]), 7); CK_F(bf(o[1]), 6); CK_F(bf(o[2]), 5);
    CK_F(bf(o[3]), 4);
    CK_F(sample2(0.375f, 0.5f), 11);
    /* linear at the edge: border mixes in */
    tsc(W_BORDER, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(0.0f, 0.5f), 0.5f * 7 + 0.5f * 10);
    /* GL_CLAMP: coordinate clamped to [0, 1], half the border */
    tsc(W_OGL, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(1.5f, 0.5f), 0.5f * 13 + 0.5f * 7);
    CK_F(sample2(0.5f, 0.5f), 11.5f);
    /* clamp to edge, linear: never the border */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(1.5f, 0.5f), 13);
    /* repeat, linear: wraps around */
    tsc(W_REPEAT, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(0.0f, 0.5f), 0.5f * 13 + 0.5f * 10);
}
END_TEST

/* --- mip levels (block-linear) --- */

/* an 8x8 R32F texture, levels 0-3, texel value (level + 1) */
static void mip_texture(unsigned first_level)
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

static float sample_lod(unsigned kind, float lod)
{
    float s[3] = { 0.3f, 0.6f, lod };
    uint32_t o[4];

    sample(kind, s, 3, o);
    return bf(o[0]);
}

START_TEST(test_tex_mips)
{
    uint64_t off;

    /* the reference layout: 512 + 256 + 256 + 256 */
    ref_level(4, 8, 8, 1, 0x10, 3, 4, &off, NULL);
    ck_assert_uint_eq(off, 1024);

    mip_texture(0);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NEAREST, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 1);
    CK_F(sample_lod(TTEX_LOD, 1), 2);
    CK_F(sample_lod(TTEX_LOD, 1.4f), 2);
    CK_F(sample_lod(TTEX_LOD, 1.6f), 3);
    CK_F(sample_lod(TTEX_LOD, 3), 4);
    CK_F(sample_lod(TTEX_LOD, 9), 4);           /* past the last level */
    CK_F(sample_lod(TTEX_LOD, -2), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 1.25f), 2.25f);
    CK_F(sample_lod(TTEX_LOD, 2.5f), 3.5f);
    CK_F(sample_lod(TTEX_LOD, 3.5f), 4);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 2), 1);           /* no mipmapping */
    /* TSC: bias, then min/max clamps */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 1.0f, 0, 15,
        -1, NULL);
    CK_F(sample_lod(TTEX_LOD, 1), 3);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 0, 1.5f, 2.0f,
        -1, NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 2.5f);
    CK_F(sample_lod(TTEX_LOD, 3), 3);
    /* the view's first level (TIC_7) */
    mip_texture(1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NEAREST, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 2);
    CK_F(sample_lod(TTEX_LOD, 1), 3);
}
END_TEST

/* quad derivatives: lanes UL UR LL LR @step texels apart */
static float sample_quad(unsigned kind, float step, float bias)
{
    TeslaInsn i = insn_of(kind);

    memset(co, 0, sizeof(co));
    for (unsigned l = 0; l < 4; l++) {
        co[0][l] = fb(0.25f + (l & 1) * step / 8);
        co[1][l] = fb(0.25f + (l >> 1) * step / 8);
        co[2][l] = fb(bias);
    }
    nv50_tex_sample(&unit, &i, 0xf, co, kind == TTEX_BIAS ? 3 : 2, res);
    for (unsigned l = 1; l < 4; l++) {
        ck_assert_uint_eq(res[0][l], res[0][0]);
    }
    return bf(res[0][0]);
}

START_TEST(test_tex_lod_quad)
{
    mip_texture(0);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NEAREST, 0, 0, 15,
        -1, NULL);
    /* lambda = log2(step) */
    CK_F(sample_quad(TTEX_AUTO, 0.5f, 0), 1);
    CK_F(sample_quad(TTEX_AUTO, 1, 0), 1);
    CK_F(sample_quad(TTEX_AUTO, 2, 0), 2);
    CK_F(sample_quad(TTEX_AUTO, 4, 0), 3);
    CK_F(sample_quad(TTEX_AUTO, 8, 0), 4);
    CK_F(sample_quad(TTEX_BIAS, 2, 1.0f), 3);
    CK_F(sample_quad(TTEX_BIAS, 2, -1.0f), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_LINEAR, 0, 0, 15,
        -1, NULL);
    /* lambda = log2(2 * sqrt(2)) = 1.5: halfway between levels 1 and 2 */
    {
        TeslaInsn i = insn_of(TTEX_AUTO);

        memset(co, 0, sizeof(co));
        for (unsigned l = 0; l < 4; l++) {
            co[0][l] = fb(0.25f + ((l & 1) + (l >> 1)) * 2.0f / 8);
            co[1][l] = fb(0.25f + ((l & 1) + (l >> 1)) * 2.0f / 8);
        }
        nv50_tex_sample(&unit, &i, 0x1, co, 2, res);
        CK_F(bf(res[0][0]), 2.5f);
    }
    /* not a fragment program: derivatives are 0, level 0 */
    unit.prog = NV50_GR_PROG_VP;
    nv50_gr_bind_tic(&call, NV50_GR_PROG_VP, 5u << 9 | 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_VP, 3u << 12 | 1);
    CK_F(sample_quad(TTEX_AUTO, 4, 0), 1);
}
END_TEST

/* --- arrays, cube maps, 3D --- */

START_TEST(test_tex_array)
{
    uint64_t off, sub;
    NV50Surface sf = ref_level(4, 4, 4, 1, 0, 0, 1, &off, &sub);
    uint32_t src[3], o[4];
    TeslaInsn i = insn_of(TTEX_AUTO);

    for (unsigned layer = 0; layer < 3; layer++) {
        for (uint32_t y = 0; y < 4; y++) {
            for (uint32_t x = 0; x < 4; x++) {
                put_f32(TEX_VA + layer * sub, &sf, x, y, 0,
                        100 * layer + x + 4 * y);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_2D_ARRAY, 4, 4, 3,
           0, 0, 0);
    tsc_simple(W_EDGE, F_NEAREST);
    src[0] = fb(0.6f);
    src[1] = fb(0.9f);
    for (unsigned layer = 0; layer < 5; layer++) {
        src[2] = layer;             /* an integer, as Mesa converts it */
        run(&i, src, 3, o);
        CK_F(bf(o[0]), 100 * MIN(layer, 2u) + 2 + 4 * 3);
    }
}
END_TEST

START_TEST(test_tex_cube)
{
    static const float dirs[][3] = {
        { 1, 0.2f, 0.1f }, { -1, 0.2f, 0.1f }, { 0.1f, 1, -0.3f },
        { 0.1f, -1, 0.2f }, { 0.3f, 0.1f, 1 }, { 0.2f, 0.3f, -1 },
    };
    uint64_t off, sub;
    NV50Surface sf = ref_level(4, 4, 4, 1, 0, 0, 1, &off, &sub);
    uint32_t o[4];

    for (unsigned face = 0; face < 6; face++) {
        for (uint32_t y = 0; y < 4; y++) {
            for (uint32_t x = 0; x < 4; x++) {
                put_f32(TEX_VA + face * sub, &sf, x, y, 0,
                        face * 100 + x + 4 * y);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_CUBE, 4, 4, 1, 0, 0,
           0);
    tsc_simple(W_REPEAT, F_NEAREST);
    for (unsigned face = 0; face < 6; face++) {
        sample(TTEX_AUTO, dirs[face], 3, o);
        ck_assert_msg(bf(o[0]) >= face * 100 && bf(o[0]) < face * 100 + 16,
                      "face %u: %f", face, (double)bf(o[0]));
    }
    /* +Z: s = (x / z + 1) / 2, t = (-y / z + 1) / 2 */
    {
        float d[3] = { -0.5f, 0.5f, 1 };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 400 + 1 + 4 * 1);
    }
    /* +X: s = (-z / x + 1) / 2, t = (-y / x + 1) / 2 */
    {
        float d[3] = { 2, -1.8f, -1.8f };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 0 + 3 + 4 * 3);
    }
    /* -Y: s = (x / |y| + 1) / 2, t = (-z / |y| + 1) / 2 */
    {
        float d[3] = { 0.9f, -1, 0.9f };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 300 + 3 + 4 * 0);
    }
}
END_TEST

START_TEST(test_tex_3d)
{
    const unsigned tm = 0x100;  /* Mesa: depth 2 */
    uint64_t off;
    NV50Surface sf = ref_level(4, 2, 2, 2, tm, 0, 1, &off, NULL);
    float s[3] = { 0.75f, 0.25f, 0.75f };
    uint32_t o[4];

    for (uint32_t z = 0; z < 2; z++) {
        for (uint32_t y = 0; y < 2; y++) {
            for (uint32_t x = 0; x < 2; x++) {
                put_f32(TEX_VA, &sf, x, y, z, x + 2 * y + 4 * z);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_3D, 2, 2, 2, 0, 0,
           tm);
    tsc_simple(W_EDGE, F_NEAREST);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 5);
    tsc_simple(W_EDGE, F_LINEAR);
    s[0] = s[1] = s[2] = 0.5f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 3.5f);
}
END_TEST

/* --- shadow compare --- */

START_TEST(test_tex_shadow)
{
    static const float v[2] = { 0.25f, 0.75f };
    static const float border[4] = { 0.5f, 0, 0, 0 };
    float s[3] = { 0.25f, 0.5f, 0.5f };
    uint32_t o[4];

    r32f_pitch(2, 1, v);
    /* Z32_FLOAT's TIC: R, R, R, ONE_FLOAT */
    tic_pitch(TIC0(0x2f, T_FLOAT, T_UINT, T_UINT, T_UINT, S_R, S_R, S_R,
                   S_1F), 2, 1, 8, false);
    /* LEQUAL: dref <= texel */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 3,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0); CK_F(bf(o[1]), 0); CK_F(bf(o[3]), 1);
    s[0] = 0.75f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1); CK_F(bf(o[2]), 1);
    /* linear: compare each texel, then filter (PCF) */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, 3,
        NULL);
    s[0] = 0.5f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0.5f);
    /* GREATER, ALWAYS, NEVER */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 4,
        NULL);
    s[0] = 0.25f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 7,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 0,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0);
    /* the border compares too */
    tsc(W_BORDER, W_BORDER, W_BORDER, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
        3, border);
    s[0] = -1.0f;
    s[2] = 0.4f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    /* texlod with compare: dref before the lod */
    {
        float s4[4] = { 0.75f, 0.5f, 0.5f, 0.0f };

        tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
            3, NULL);
        sample(TTEX_LOD, s4, 4, o);
        CK_F(bf(o[0]), 1);
    }
}
END_TEST

/* --- texfetch, texsize --- */

START_TEST(test_tex_fetch_size)
{
    TeslaInsn i = insn_of(TTEX_FETCH);
    uint32_t src[3], o[4];

    mip_texture(0);
    /* no TSC needed */
    gr.ctx->shared.bind_tsc[NV50_GR_PROG_FP][0] = 0;
    src[0] = 3;
    src[1] = 1;
    src[2] = 1;                     /* lod */
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 2);
    src[2] = 3;
    src[0] = 0;
    src[1] = 0;
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 4);
    src[0] = 1;                     /* outside level 3's 1x1 */
    run(&i, src, 3, o);
    ck_assert_uint_eq(o[0], 0);
    src[0] = 0;
    src[2] = 4;                     /* no level 4 */
    run(&i, src, 3, o);
    ck_assert_uint_eq(o[0], 0);
    /* texel offsets */
    i.tex.flags = TTEXF_OFFS;
    i.tex.offs[0] = 1;
    i.tex.offs[1] = -1;
    src[0] = 2;
    src[1] = 3;
    src[2] = 2;
    run(&i, src, 3, o);             /* (3, 2) of level 2's 2x2: outside */
    ck_assert_uint_eq(o[0], 0);
    src[0] = 0;
    src[1] = 1;
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 3);

    i = insn_of(TTEX_SIZE);
    src[0] = 0;
    run(&i, src, 1, o);
    ck_assert_uint_eq(o[0], 8);
    ck_assert_uint_eq(o[1], 8);
    ck_assert_uint_eq(o[2], 1);
    ck_assert_uint_eq(o[3], 4);
    src[0] = 2;
    run(&i, src, 1, o);
    ck_assert_uint_eq(o[0], 2);
    ck_assert_uint_eq(o[1], 2);
    ck_assert_uint_eq(o[3], 4);
}
END_TEST

/* --- what goes wrong --- */

START_TEST(test_tex_unbound)
{
    float s[2] = { 0.5f, 0.5f };
    uint32_t o[4];

    /* nothing bound: 0 */
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
    ck_assert_uint_eq(o[3], 0);
    /* a TIC past TIC_LIMIT: 0 */
    r32f_pitch(1, 1, s);
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(0.5f, 0.5f), 0.5f);
    gr.ctx->shared.tic_limit = 4;
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
    /* an unknown format: 0 */
    gr.ctx->shared.tic_limit = 2047;
    tic_pitch(TIC0A(0x3f, T_FLOAT, S_R, S_0, S_0, S_1F), 1, 1, 4, false);
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
}
END_TEST

START_TEST(test_tex_mask)
{
    static const float v[4] = { 1, 2, 3, 4 };
    TeslaInsn i = insn_of(TTEX_AUTO);

    r32f_pitch(4, 1, v);
    tsc_simple(W_EDGE, F_NEAREST);
    memset(co, 0, sizeof(co));
    memset(res, 0xcc, sizeof(res));
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        co[0][l] = fb((l % 4 + 0.5f) / 4);
        co[1][l] = fb(0.5f);
    }
    nv50_tex_sample(&unit, &i, 0x0000ff0fu, co, 2, res);
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (0x0000ff0fu & (1u << l)) {
            CK_F(bf(res[0][l]), l % 4 + 1);
        } else {
            ck_assert_uint_eq(res[0][l], 0xccccccccu);
        }
    }
}
END_TEST

/* a compute launch samples through the same unit (tpc.c) */
START_TEST(test_tex_compute)
{
    static const char src[] =
        "shl b32 $r9 $r0 0x2\n"            /* tid x: $r0 */
        "mov b32 $r1 0x0\n"
        "mov b32 $r2 0x1\n"                /* lod 1 */
        "texfetch all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2\n"
        "mov b32 $r8 $r9\n"                /* pairs the short tex */
        "st b32 g0[$r8] $r0\n"
        "exit nop\n";
    const uint64_t code_va = GR_VA_DATA + 0x200000;
    const uint64_t out_va = GR_VA_DATA + 0x300000;
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    NV50CpLaunch l;
    NV50CpResult r;
    TeslaRun *runs[NV50_MPS] = { 0 };

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, w, &err),
                  "%s", err ? err : "");
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(code_va + 4 * i, g_array_index(w, uint32_t, i));
    }
    mip_texture(0);
    /* level 1 (4x4) texel x: 10 + x */
    {
        uint64_t off;
        NV50Surface sf = ref_level(4, 8, 8, 1, 0x10, 1, 4, &off, NULL);

        for (uint32_t x = 0; x < 4; x++) {
            put_f32(TEX_VA + off, &sf, x, 0, 0, 10.0f + x);
        }
    }
    memset(&l, 0, sizeof(l));
    l.code.base = code_va;
    l.code.size = 4 * w->len;
    l.gprs = 16;
    l.shared_bytes = 0x100;
    l.block[0] = 4;
    l.block[1] = l.block[2] = 1;
    l.grid[0] = l.grid[1] = 1;
    l.g[0].base = out_va;
    l.g[0].size = 16;
    ck_assert_int_eq(nv50_tpc_launch(&call, &l, &r, runs), TESLA_RUN_DONE);
    for (unsigned i = 0; i < NV50_MPS; i++) {
        tesla_run_free(runs[i]);
    }
    for (uint32_t x = 0; x < 4; x++) {
        CK_F(bf(gr_rd32(out_va + 4 * x)), 10.0f + x);
    }
}
END_TEST

Suite *nv50_texture_suite(void)
{
    Suite *su = suite_create("nv50_texture");
    TCase *tc = tcase_create("texture");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_add_test(tc, test_tex_formats);
    tcase_add_test(tc, test_tex_compressed);
    tcase_add_test(tc, test_tex_bilinear);
    tcase_add_test(tc, test_tex_wrap);
    tcase_add_test(tc, test_tex_mips);
    tcase_add_test(tc, test_tex_lod_quad);
    tcase_add_test(tc, test_tex_array);
    tcase_add_test(tc, test_tex_cube);
    tcase_add_test(tc, test_tex_3d);
    tcase_add_test(tc, test_tex_shadow);
    tcase_add_test(tc, test_tex_fetch_size);
    tcase_add_test(tc, test_tex_unbound);
    tcase_add_test(tc, test_tex_mask);
    tcase_add_test(tc, test_tex_compute);
    suite_add_tcase(su, tc);
    return su;
}
