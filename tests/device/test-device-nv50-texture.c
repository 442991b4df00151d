/*
 * The texture unit (hw/nv50/gr/texture.c) against plain C references:
 * what a texel of each format decodes to -- formats as Mesa's
 * nv50_formats.c maps them, sRGB, depth and stencil, the DXT and RGTC
 * compressed blocks -- sampled through nv50-texture-rig.h.  Filtering,
 * wrapping, mip levels, LOD and shadow compare are in
 * -texture-filter.c, arrays, cube maps and 3D in -texture-targets.c,
 * texfetch, texsize and what goes wrong in -texture-fetch.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-texture-rig.h"

/* --- references --- */

static float srgb(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
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

Suite *nv50_texture_suite(void)
{
    Suite *su = suite_create("nv50_texture");
    TCase *tc = tex_rig_tcase("texture");

    tcase_add_test(tc, test_tex_formats);
    tcase_add_test(tc, test_tex_compressed);
    suite_add_tcase(su, tc);
    return su;
}
