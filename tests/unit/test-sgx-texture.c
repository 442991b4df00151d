/*
 * SGX543 textures (hw/sgx543/texture*.c): SceGxmTexture control words
 * built and decoded, layouts (linear, strided, swizzled, tiled, cube,
 * mip chains), texel formats and swizzles, address modes, LOD and mip
 * selection.  Expected words follow from the field positions and the
 * SceGxm enumeration values (docs/devel/sgx543.md, "Textures"); texel
 * offsets from the swizzle and tile orders worked out by hand.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/sgx543/texture.h"
#include <check.h>
#include <math.h>

static void params(SgxTexParams *p, uint32_t format, SgxTexType type,
                   unsigned w, unsigned h)
{
    sgx_tex_params_init(p);
    p->format = format;
    p->type = type;
    p->width = w;
    p->height = h;
    p->data = 0x1000;
}

static void make(SgxTexture *t, const SgxTexParams *p)
{
    uint32_t w[4];
    const char *why = NULL;

    if (!sgx_tex_encode(p, w, &why)) {
        ck_abort_msg("encode: %s", why);
    }
    ck_assert(sgx_tex_decode(w, t, &why));
}

START_TEST(format_names)
{
    uint32_t f;

    /* values of SceGxmTextureFormat (psp2/gxm.h) */
    ck_assert(sgx_tex_format_parse("U8U8U8U8_ABGR", &f));
    ck_assert_uint_eq(f, 0x0c000000);
    ck_assert(sgx_tex_format_parse("u8u8u8u8_argb", &f));
    ck_assert_uint_eq(f, 0x0c001000);
    ck_assert(sgx_tex_format_parse("U5U6U5_RGB", &f));
    ck_assert_uint_eq(f, 0x05001000);
    ck_assert(sgx_tex_format_parse("X8U8U8U8_1RGB", &f));
    ck_assert_uint_eq(f, 0x0c005000);
    ck_assert(sgx_tex_format_parse("U5U5U5U1_RGBA", &f));
    ck_assert_uint_eq(f, 0x04002000);
    ck_assert(sgx_tex_format_parse("U1U5U5U5_ARGB", &f));
    ck_assert_uint_eq(f, 0x04001000);
    ck_assert(sgx_tex_format_parse("U8_1RRR", &f));
    ck_assert_uint_eq(f, 0x00005000);
    ck_assert(sgx_tex_format_parse("P8_ABGR", &f));
    ck_assert_uint_eq(f, 0x95000000);
    ck_assert(sgx_tex_format_parse("U8U8U8_RGB", &f));
    ck_assert_uint_eq(f, 0x98001000);
    ck_assert(sgx_tex_format_parse("F16F16F16F16_ABGR", &f));
    ck_assert_uint_eq(f, 0x1b000000);
    ck_assert(sgx_tex_format_parse("U8U8_00RG", &f));
    ck_assert_uint_eq(f, 0x07005000);
    /* the RGBA order of U1U5U5U5 is spelt U5U5U5U1 */
    ck_assert(!sgx_tex_format_parse("U1U5U5U5_RGBA", &f));
    ck_assert(!sgx_tex_format_parse("U8U8U8U8", &f));
    ck_assert(!sgx_tex_format_parse("U8U8_RGBA", &f));
    ck_assert(!sgx_tex_format_parse("PVRTII4BPP_ABGR", &f));
    ck_assert(sgx_tex_format_parse("PVRT4BPP_1BGR", &f));
    ck_assert_uint_eq(f, 0x81004000);
    ck_assert(sgx_tex_format_parse("PVRT2BPP_ABGR", &f));
    ck_assert_uint_eq(f, 0x80000000);
    /* block-compressed and packed-float names */
    ck_assert(sgx_tex_format_parse("UBC1_ABGR", &f));
    ck_assert_uint_eq(f, 0x85000000);
    ck_assert(sgx_tex_format_parse("ubc3_abgr", &f));
    ck_assert_uint_eq(f, 0x87000000);
    ck_assert(!sgx_tex_format_parse("UBC2_ARGB", &f));
    ck_assert(sgx_tex_format_parse("F10F11F11_BGR", &f));
    ck_assert_uint_eq(f, 0x1a000000);
    ck_assert(sgx_tex_format_parse("F11F11F10_RGB", &f));
    ck_assert_uint_eq(f, 0x1a001000);
    ck_assert(!sgx_tex_format_parse("F11F11F10_BGR", &f));
    ck_assert(sgx_tex_format_parse("SE5M9M9M9_RGB", &f));
    ck_assert_uint_eq(f, 0x19001000);
    ck_assert_int_eq(sgx_tex_type_parse("tiled"), SGX_TEXTYPE_TILED);
    ck_assert_int_eq(sgx_tex_type_parse("Linear-Strided"),
                     SGX_TEXTYPE_LINEAR_STRIDED);
    ck_assert_int_eq(sgx_tex_type_parse("planar"), -1);
}
END_TEST

START_TEST(words)
{
    SgxTexParams p;
    SgxTexture t;
    uint32_t w[4];
    const char *why;

    /* a 640x480 linear ARGB texture, min linear, U clamp, V mirror */
    params(&p, 0x0c001000, SGX_TEXTYPE_LINEAR, 640, 480);
    p.data = 0x81000000;
    p.min_filter = SGX_TEX_LINEAR;
    p.addr_u = SGX_TEX_CLAMP;
    p.addr_v = SGX_TEX_MIRROR;
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[0], 0x03fe0488);
    ck_assert_uint_eq(w[1], 0x6c27f1df);
    ck_assert_uint_eq(w[2], 0x81000000);
    ck_assert_uint_eq(w[3], 0x10000000);
    ck_assert(sgx_tex_decode(w, &t, &why));
    ck_assert_uint_eq(t.width, 640);
    ck_assert_uint_eq(t.height, 480);
    ck_assert_uint_eq(t.levels, 1);
    ck_assert_int_eq(t.min_filter, SGX_TEX_LINEAR);
    ck_assert_int_eq(t.mag_filter, SGX_TEX_POINT);
    ck_assert_int_eq(t.addr_u, SGX_TEX_CLAMP);
    ck_assert_int_eq(t.addr_v, SGX_TEX_MIRROR);
    ck_assert(t.lod_bias == 0.0f);
    ck_assert_uint_eq(t.size, 640 * 480 * 4);

    /* P8, swizzled 256x128 with 8 levels: log2 sizes, format bit 31 */
    params(&p, 0x95000000, SGX_TEXTYPE_SWIZZLED, 256, 128);
    p.palette = 0x2040;
    p.levels = 8;
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[0], 0x83ee0000);
    ck_assert_uint_eq(w[1], 0x15080007);
    ck_assert_uint_eq(w[3], 0x00000081);
    ck_assert(sgx_tex_decode(w, &t, &why));
    ck_assert_uint_eq(t.levels, 8);
    ck_assert_uint_eq(t.palette, 0x2040);
    ck_assert_uint_eq(t.palette_size, 1024);
    ck_assert_uint_eq(t.size, 32768 + 8192 + 2048 + 512 + 128 + 32 + 8 + 2);
    ck_assert_uint_eq(t.level_offset[2], 32768 + 8192);

    /* tiled U5U6U5 40x33: whole 32x32 tiles */
    params(&p, 0x05001000, SGX_TEXTYPE_TILED, 40, 33);
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[1], 0x85027020);
    ck_assert(sgx_tex_decode(w, &t, &why));
    ck_assert_uint_eq(t.size, 64 * 64 * 2);

    /* strided F32: stride / 4 - 1 split over w0 [11:9] and [26:17] */
    params(&p, 0x12000000, SGX_TEXTYPE_LINEAR_STRIDED, 3, 2);
    p.stride = 20;
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[0], 0x00000800);
    ck_assert(sgx_tex_decode(w, &t, &why));
    ck_assert_uint_eq(t.stride, 20);
    ck_assert_uint_eq(t.size, 32);
    p.stride = 76;      /* 18: bits 9..11 = 2, 17.. = 2 */
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[0], 0x00040400);

    /* LOD bias and lod_min (w2 [1:0], w3 [27:26]) */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 16, 16);
    p.levels = 5;
    p.lod_bias = 39;
    p.lod_min = 6;
    p.mip_linear = true;
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert_uint_eq(w[0] & 0x07e00200u, 39u << 21 | 1u << 9);
    ck_assert_uint_eq(w[2], 0x1002);
    ck_assert_uint_eq(w[3], 0x04000000);
    ck_assert(sgx_tex_decode(w, &t, &why));
    ck_assert(t.lod_bias == 1.0f);
    ck_assert_uint_eq(t.lod_min, 6);
    ck_assert(t.mip_linear);
}
END_TEST

START_TEST(illegal_words)
{
    SgxTexParams p;
    SgxTexture t;
    uint32_t w[4];
    const char *why;

    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 4, 4);
    ck_assert(sgx_tex_encode(&p, w, &why));
    ck_assert(sgx_tex_decode(w, &t, &why));

    /* type 1 is not a SceGxmTextureType */
    {
        uint32_t b[4] = { w[0], (w[1] & 0x1fffffff) | 1u << 29, w[2], w[3] };
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    /* PVRTII4BPP (0x83000000) and U32 (0x17000000): not decoded */
    {
        uint32_t b[4] = { w[0] | 1u << 31, (w[1] & ~0x1f000000u) | 3u << 24,
                          w[2], w[3] };
        ck_assert(!sgx_tex_decode(b, &t, &why));
        b[0] = w[0];
        b[1] = (w[1] & ~0x1f000000u) | 0x17u << 24;
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    /* UBC1 swizzle ARGB is not defined; tiled UBC1 is not supported */
    {
        uint32_t b[4] = { w[0] | 1u << 31, (w[1] & ~0x1f000000u) | 5u << 24,
                          w[2], 1u << 28 };
        ck_assert(!sgx_tex_decode(b, &t, &why));
        b[3] = 0;
        ck_assert(sgx_tex_decode(b, &t, &why));
        b[1] = (b[1] & 0x1fffffff) | (uint32_t)SGX_TEXTYPE_TILED << 29;
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    /* swizzle 6 of a two-component format */
    {
        uint32_t b[4] = { w[0], (w[1] & ~0x1f000000u) | 7u << 24, w[2],
                          6u << 28 };
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    /* no data; a swizzled texture over 4096; P8 without a palette */
    {
        uint32_t b[4] = { w[0], w[1], 0, w[3] };
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    {
        uint32_t b[4] = { w[0], 13u << 16 | 1, w[2], w[3] };
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    {
        uint32_t b[4] = { w[0] | 1u << 31, (w[1] & ~0x1f000000u) | 0x15u << 24,
                          w[2], 0 };
        ck_assert(!sgx_tex_decode(b, &t, &why));
    }
    /* a cube that is not square, a stride shorter than a row */
    params(&p, 0x0c000000, SGX_TEXTYPE_CUBE_ARBITRARY, 4, 8);
    ck_assert(!sgx_tex_encode(&p, w, &why));
    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR_STRIDED, 8, 2);
    p.stride = 16;
    ck_assert(!sgx_tex_encode(&p, w, &why));
    /* sizes that do not encode */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 12, 8);
    ck_assert(!sgx_tex_encode(&p, w, &why));
    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 4097, 8);
    ck_assert(!sgx_tex_encode(&p, w, &why));
}
END_TEST

START_TEST(layouts)
{
    SgxTexParams p;
    SgxTexture t;

    /* swizzled: Morton order, y in bit 0, x in bit 1 */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 4, 4);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 1), 1 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 1, 0), 2 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 1, 1), 3 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 2), 4 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 2, 0), 8 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 3, 3), 15 * 32);
    /* non-square: 4x4 squares one after the other along the long side */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 8, 4);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 4, 0), 16 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 5, 1), 19 * 32);
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 4, 8);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 4), 16 * 32);
    /* arbitrary: 6x3 is laid out as 8x4 */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED_ARBITRARY, 6, 3);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 5, 2), (16 + 4 + 2) * 32);
    ck_assert_uint_eq(t.size, 8 * 4 * 4);

    /* tiled: 32x32 tiles in rows, texels in rows inside */
    params(&p, 0x0c000000, SGX_TEXTYPE_TILED, 40, 40);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 1, 1), 33 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 32, 0), 1024 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 32), 2048 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 39, 33),
                      (3 * 1024 + 32 + 7) * 32);

    /* linear: rows of 8 texels; with a chain, power-of-two levels */
    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 5, 3);
    make(&t, &p);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 1), 8 * 32);
    ck_assert_uint_eq(t.size, (8 * 2 + 5) * 4);
    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 10, 6);
    p.levels = 2;
    make(&t, &p);
    ck_assert_uint_eq(t.levels, 2);
    ck_assert_uint_eq(t.level_offset[1], 16 * 8 * 4);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 1), 16 * 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 1, 1, 1),
                      (16 * 8 * 4 + 9 * 4) * 8);
    /* more levels than the size allows are cut */
    p.levels = 15;
    make(&t, &p);
    ck_assert_uint_eq(t.levels, 3);

    /* swizzled chain: 8x8 x 4 bytes, 4 levels */
    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 8, 8);
    p.levels = 4;
    make(&t, &p);
    ck_assert_uint_eq(t.level_offset[1], 256);
    ck_assert_uint_eq(t.level_offset[2], 320);
    ck_assert_uint_eq(t.level_offset[3], 336);
    ck_assert_uint_eq(t.size, 340);

    /* cube: a whole chain per face, large faces 2 KiB aligned */
    params(&p, 0x0c000000, SGX_TEXTYPE_CUBE, 16, 16);
    p.levels = 2;
    make(&t, &p);
    ck_assert_uint_eq(t.face_size, 2048);
    ck_assert_uint_eq(t.size, 5 * 2048 + 1024 + 256 + 64 + 16 + 4);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 3, 1, 0, 0),
                      (3 * 2048 + 1024) * 8);
    params(&p, 0x0c000000, SGX_TEXTYPE_CUBE, 2, 2);
    make(&t, &p);
    ck_assert_uint_eq(t.face_size, 16);
}
END_TEST

/* One 1x1 (or 2x1) linear texel of @format from @raw. */
static void texel(uint32_t format, uint64_t raw, unsigned x,
                  const uint8_t *pal, float out[4])
{
    SgxTexParams p;
    SgxTexture t;
    uint8_t buf[8];

    params(&p, format, SGX_TEXTYPE_LINEAR, x + 1, 1);
    p.palette = pal ? 0x4000 : 0;
    make(&t, &p);
    for (int i = 0; i < 8; i++) {
        buf[i] = raw >> (8 * i);
    }
    sgx_tex_fetch(&t, buf, pal, 0, 0, x, 0, out);
}

static void expect(const float f[4], float r, float g, float b, float a)
{
    if (fabsf(f[0] - r) > 1e-6f || fabsf(f[1] - g) > 1e-6f
        || fabsf(f[2] - b) > 1e-6f || fabsf(f[3] - a) > 1e-6f) {
        ck_abort_msg("got (%g %g %g %g), expected (%g %g %g %g)", f[0], f[1],
                     f[2], f[3], r, g, b, a);
    }
}

START_TEST(texel_formats)
{
    uint8_t pal[1024] = { 0 };
    float f[4];

    texel(0x05001000, 0xf800, 0, NULL, f);          /* U5U6U5_RGB */
    expect(f, 1, 0, 0, 1);
    texel(0x05001000, 0x001f, 0, NULL, f);
    expect(f, 0, 0, 1, 1);
    texel(0x05000000, 0xf800, 0, NULL, f);          /* U5U6U5_BGR */
    expect(f, 0, 0, 1, 1);
    texel(0x05000000, 0x07e0, 0, NULL, f);
    expect(f, 0, 1, 0, 1);
    texel(0x04001000, 0xfc00, 0, NULL, f);          /* U1U5U5U5_ARGB */
    expect(f, 1, 0, 0, 1);
    texel(0x04001000, 0x03e0, 0, NULL, f);
    expect(f, 0, 1, 0, 0);
    texel(0x04002000, 0x0001, 0, NULL, f);          /* U5U5U5U1_RGBA */
    expect(f, 0, 0, 0, 1);
    texel(0x04002000, 0xf800, 0, NULL, f);
    expect(f, 1, 0, 0, 0);
    texel(0x0c000000, 0x40302010, 0, NULL, f);      /* U8U8U8U8_ABGR */
    expect(f, 0x10 / 255.0f, 0x20 / 255.0f, 0x30 / 255.0f, 0x40 / 255.0f);
    texel(0x0c001000, 0x40302010, 0, NULL, f);      /* _ARGB */
    expect(f, 0x30 / 255.0f, 0x20 / 255.0f, 0x10 / 255.0f, 0x40 / 255.0f);
    texel(0x0c002000, 0x40302010, 0, NULL, f);      /* _RGBA */
    expect(f, 0x40 / 255.0f, 0x30 / 255.0f, 0x20 / 255.0f, 0x10 / 255.0f);
    texel(0x0c003000, 0x40302010, 0, NULL, f);      /* _BGRA */
    expect(f, 0x20 / 255.0f, 0x30 / 255.0f, 0x40 / 255.0f, 0x10 / 255.0f);
    texel(0x0c004000, 0x40302010, 0, NULL, f);      /* X8U8U8U8_1BGR */
    expect(f, 0x10 / 255.0f, 0x20 / 255.0f, 0x30 / 255.0f, 1);
    texel(0x00005000, 0x80, 0, NULL, f);            /* U8_1RRR */
    expect(f, 0x80 / 255.0f, 0x80 / 255.0f, 0x80 / 255.0f, 1);
    texel(0x00000000, 0x80, 0, NULL, f);            /* U8_R */
    expect(f, 0x80 / 255.0f, 0, 0, 1);
    texel(0x00006000, 0xff, 0, NULL, f);            /* U8_R000 */
    expect(f, 0, 0, 0, 1);
    texel(0x07004000, 0x2010, 0, NULL, f);          /* U8U8_GRGR */
    expect(f, 0x10 / 255.0f, 0x20 / 255.0f, 0x10 / 255.0f, 0x20 / 255.0f);
    texel(0x07005000, 0x2010, 0, NULL, f);          /* U8U8_00RG */
    expect(f, 0x20 / 255.0f, 0x10 / 255.0f, 0, 0);
    texel(0x01000000, 0x80, 0, NULL, f);            /* S8_R */
    expect(f, -1, 0, 0, 1);
    texel(0x01000000, 0x7f, 0, NULL, f);
    expect(f, 1, 0, 0, 1);
    texel(0x1b000000, 0x00003800c0003c00ull, 0, NULL, f);   /* F16 x 4 */
    expect(f, 1, -2, 0.5f, 0);
    texel(0x13000000, 0xc0200000, 0, NULL, f);      /* F32M: no sign */
    expect(f, 2.5f, 0, 0, 1);
    texel(0x0e000000, 0xc00003ff, 0, NULL, f);      /* U2U10U10U10_ABGR */
    expect(f, 1, 0, 0, 1);
    texel(0x98001000, 0x030201, 0, NULL, f);        /* U8U8U8_RGB */
    expect(f, 3 / 255.0f, 2 / 255.0f, 1 / 255.0f, 1);

    /* P8_ARGB: index 2 -> 0x80ff0000 (A 0x80, R 0xff) */
    pal[8] = 0x00, pal[9] = 0x00, pal[10] = 0xff, pal[11] = 0x80;
    texel(0x95001000, 0x02, 0, pal, f);
    expect(f, 1, 0, 0, 0x80 / 255.0f);
    /* P4_ABGR: the low nibble first */
    pal[4] = 0x40, pal[7] = 0xff;
    texel(0x94000000, 0x21, 0, pal, f);
    expect(f, 0x40 / 255.0f, 0, 0, 1);
    texel(0x94000000, 0x21, 1, pal, f);
    expect(f, 0, 0, 1, 0x80 / 255.0f);
}
END_TEST


/* Texel (x, y) of @t through the sampler: point, at the texel centre. */
static void sample_at(const SgxTexture *t, const uint8_t *buf, unsigned x,
                      unsigned y, float out[4])
{
    SgxTexLookup l = {
        .dim = 2,
        .coord = { (x + 0.5f) / t->width, (y + 0.5f) / t->height },
    };

    sgx_tex_sample(t, buf, NULL, &l, out);
}

/* Little-endian 16-bit and 32-bit values into a block. */
static void put16(uint8_t *b, uint16_t v)
{
    b[0] = v;
    b[1] = v >> 8;
}

static void put32(uint8_t *b, uint32_t v)
{
    put16(b, v);
    put16(b + 2, v >> 16);
}

/*
 * BC1 (Microsoft "Texture Block Compression in Direct3D 11", Khronos
 * Data Format §S3TC): RGB565 colour0, colour1, 2-bit indices with texel
 * 4y + x at bits 2(4y + x).  colour0 > colour1: c2 = (2c0 + c1) / 3, c3
 * = (c0 + 2c1) / 3; else c2 = (c0 + c1) / 2 and c3 transparent black.
 */
START_TEST(bc1_blocks)
{
    uint8_t buf[8];
    SgxTexParams p;
    SgxTexture t;
    float f[4];

    params(&p, 0x85000000, SGX_TEXTYPE_LINEAR, 4, 4);   /* UBC1_ABGR */
    make(&t, &p);
    ck_assert_uint_eq(t.size, 8);
    /* four-colour mode: red, blue; texels 0..3 use indices 0..3 */
    put16(buf, 0xf800);
    put16(buf + 2, 0x001f);
    put32(buf + 4, 0 | 1 << 2 | 2 << 4 | 3 << 6);
    sample_at(&t, buf, 0, 0, f);
    expect(f, 1, 0, 0, 1);
    sample_at(&t, buf, 1, 0, f);
    expect(f, 0, 0, 1, 1);
    sample_at(&t, buf, 2, 0, f);
    expect(f, 2 / 3.0f, 0, 1 / 3.0f, 1);
    sample_at(&t, buf, 3, 0, f);
    expect(f, 1 / 3.0f, 0, 2 / 3.0f, 1);
    sample_at(&t, buf, 3, 3, f);                /* index 0 */
    expect(f, 1, 0, 0, 1);
    /* three-colour mode (colour0 <= colour1): midpoint, transparent */
    put16(buf, 0x001f);
    put16(buf + 2, 0xf800);
    put32(buf + 4, 2u << 30 | 3u << 28);        /* texels 15 and 14 */
    sample_at(&t, buf, 3, 3, f);
    expect(f, 0.5f, 0, 0.5f, 1);
    sample_at(&t, buf, 2, 3, f);
    expect(f, 0, 0, 0, 0);
    sample_at(&t, buf, 1, 3, f);
    expect(f, 0, 0, 1, 1);
    /* green channel: 6 bits */
    put16(buf, 0x07e0);
    put16(buf + 2, 0x0020);                     /* G = 1/63 */
    put32(buf + 4, 1);
    sample_at(&t, buf, 0, 0, f);
    expect(f, 0, 1 / 63.0f, 0, 1);
}
END_TEST

/* BC2: 64 bits of 4-bit alpha (texel i at bits 4i), then a BC1 colour
   block always in four-colour mode. */
START_TEST(bc2_blocks)
{
    uint8_t buf[16] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    float f[4];

    params(&p, 0x86000000, SGX_TEXTYPE_LINEAR, 4, 4);   /* UBC2_ABGR */
    make(&t, &p);
    ck_assert_uint_eq(t.size, 16);
    buf[0] = 0x5f;                              /* texel 0: 15, 1: 5 */
    buf[1] = 0x00;                              /* texel 2: 0 */
    buf[2] = 0xa0;                              /* texel 5: 10 */
    put16(buf + 8, 0x07e0);                     /* green */
    put16(buf + 10, 0xffff);                    /* white: c0 < c1 */
    put32(buf + 12, 1 << 2 | 2 << 4 | 3 << 10);
    sample_at(&t, buf, 0, 0, f);
    expect(f, 0, 1, 0, 1);
    sample_at(&t, buf, 1, 0, f);
    expect(f, 1, 1, 1, 5 / 15.0f);
    sample_at(&t, buf, 2, 0, f);                /* thirds, not midpoint */
    expect(f, 1 / 3.0f, 1, 1 / 3.0f, 0);
    sample_at(&t, buf, 1, 1, f);
    expect(f, 2 / 3.0f, 1, 2 / 3.0f, 10 / 15.0f);
}
END_TEST

/* BC3: alpha0, alpha1, 3-bit indices (texel i at bit 16 + 3i); alpha0 >
   alpha1: six interpolated values, else four then 0 and 1. */
START_TEST(bc3_blocks)
{
    uint8_t buf[16] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    float f[4];

    params(&p, 0x87000000, SGX_TEXTYPE_LINEAR, 4, 4);   /* UBC3_ABGR */
    make(&t, &p);
    ck_assert_uint_eq(t.size, 16);
    put16(buf + 8, 0xffff);                     /* white everywhere */
    put16(buf + 10, 0xffff);
    /* 8-alpha mode: 200, 100; texels 0..3: indices 0, 1, 2, 7 */
    buf[0] = 200;
    buf[1] = 100;
    put32(buf + 2, 0 | 1 << 3 | 2 << 6 | 7 << 9);
    sample_at(&t, buf, 0, 0, f);
    expect(f, 1, 1, 1, 200 / 255.0f);
    sample_at(&t, buf, 1, 0, f);
    expect(f, 1, 1, 1, 100 / 255.0f);
    sample_at(&t, buf, 2, 0, f);
    expect(f, 1, 1, 1, (6 * 200 + 100) / 7.0f / 255.0f);
    sample_at(&t, buf, 3, 0, f);
    expect(f, 1, 1, 1, (200 + 6 * 100) / 7.0f / 255.0f);
    /* 6-alpha mode: 100, 200; texels 2..5: indices 2, 6, 7, 5 */
    buf[0] = 100;
    buf[1] = 200;
    put32(buf + 2, 1 << 3 | 2 << 6 | 6 << 9 | 7 << 12 | 5 << 15);
    sample_at(&t, buf, 2, 0, f);
    expect(f, 1, 1, 1, (4 * 100 + 200) / 5.0f / 255.0f);
    sample_at(&t, buf, 3, 0, f);
    expect(f, 1, 1, 1, 0);
    sample_at(&t, buf, 0, 1, f);
    expect(f, 1, 1, 1, 1);
    sample_at(&t, buf, 1, 1, f);
    expect(f, 1, 1, 1, (100 + 4 * 200) / 5.0f / 255.0f);
    /* the last texel's index straddles no byte: bits 61..63 */
    buf[7] = 0xe0;                              /* texel 15: 7 */
    sample_at(&t, buf, 3, 3, f);
    expect(f, 1, 1, 1, 1);
}
END_TEST

/* Blocks in the layouts: linear rows of blocks 8-texel aligned, Morton
   order of blocks when swizzled; sizes of chains and strides. */
START_TEST(block_layouts)
{
    uint8_t buf[64] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    const char *why;
    uint32_t w[4];
    float f[4];

    /* 12x8 linear: 16 texels (4 blocks) a row, the last row unpadded */
    params(&p, 0x85000000, SGX_TEXTYPE_LINEAR, 12, 8);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 32 + 24);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 5, 6), (4 + 1) * 64);
    put16(buf + 5 * 8, 0xf800);                 /* block (1, 1): red */
    sample_at(&t, buf, 7, 5, f);
    expect(f, 1, 0, 0, 1);
    sample_at(&t, buf, 3, 5, f);
    expect(f, 0, 0, 0, 1);
    /* 8x8 swizzled: blocks (0,0) (0,1) (1,0) (1,1) */
    params(&p, 0x85000000, SGX_TEXTYPE_SWIZZLED, 8, 8);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 5, 1), 2 * 64);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 1, 5), 1 * 64);
    memset(buf, 0, sizeof(buf));
    put16(buf + 2 * 8, 0x001f);                 /* block (1, 0): blue */
    sample_at(&t, buf, 5, 1, f);
    expect(f, 0, 0, 1, 1);
    sample_at(&t, buf, 1, 5, f);
    expect(f, 0, 0, 0, 1);
    /* a chain: 8x8, 4x4, then 2x2 and 1x1 each a whole block */
    p.levels = 4;
    make(&t, &p);
    ck_assert_uint_eq(t.level_offset[1], 32);
    ck_assert_uint_eq(t.level_offset[2], 40);
    ck_assert_uint_eq(t.level_offset[3], 48);
    ck_assert_uint_eq(t.size, 56);
    /* strided: the stride runs from one row of blocks to the next */
    params(&p, 0x87000000, SGX_TEXTYPE_LINEAR_STRIDED, 8, 8);
    p.stride = 48;
    make(&t, &p);
    ck_assert_uint_eq(t.size, 48 + 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 4, 4), (48 + 16) * 8);
    p.stride = 16;                              /* a row is 32 bytes */
    ck_assert(!sgx_tex_encode(&p, w, &why));
    /* a 1x1 UBC1 texture still spans one block */
    params(&p, 0x85000000, SGX_TEXTYPE_LINEAR, 1, 1);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 8);
}
END_TEST

/* @n copies of the 64-bit little-endian word @w. */
static void fill_words(uint8_t *buf, unsigned n, uint64_t w)
{
    for (unsigned i = 0; i < n; i++) {
        put32(buf + 8 * i, w);
        put32(buf + 8 * i + 4, w >> 32);
    }
}

#define PVRT_WORD(mod, a, b) \
    ((uint64_t)(mod) | (uint64_t)(a) << 32 | (uint64_t)(b) << 48)
#define RED_A   0xfc00u     /* colour A opaque: R 31, G 0, B 0, M 0 */
#define BLUE_B  0x801fu     /* colour B opaque: R 0, G 0, B 31 */

/*
 * PVRTC1 4bpp (Khronos Data Format spec, PVRTC): colours interpolated
 * between block centres (C / 2 + C / 64 to 8 bits), then blended by
 * the modulation weight: M = 0: 0 3 5 8; M = 1: 0 4 4(alpha 0) 8 (/8).
 */
START_TEST(pvrtc4_words)
{
    uint8_t buf[64] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    float f[4];

    params(&p, 0x81000000, SGX_TEXTYPE_SWIZZLED, 8, 8);  /* PVRT4BPP */
    make(&t, &p);
    ck_assert_uint_eq(t.size, 32);
    /* words in Morton order, y in the low bit */
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 4, 0), 2 * 64);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 0, 4), 1 * 64);
    /* same word everywhere: images A (red) and B (blue) are flat */
    fill_words(buf, 4, PVRT_WORD(0xe4, RED_A, BLUE_B));
    sample_at(&t, buf, 0, 0, f);
    expect(f, 1, 0, 0, 1);
    sample_at(&t, buf, 1, 0, f);                /* weight 3 */
    expect(f, 159 / 255.0f, 0, 95 / 255.0f, 1);
    sample_at(&t, buf, 2, 0, f);                /* weight 5 */
    expect(f, 95 / 255.0f, 0, 159 / 255.0f, 1);
    sample_at(&t, buf, 3, 0, f);
    expect(f, 0, 0, 1, 1);
    /* punch-through mode */
    fill_words(buf, 4, PVRT_WORD(0xe4, RED_A | 1, BLUE_B));
    sample_at(&t, buf, 1, 0, f);
    expect(f, 127 / 255.0f, 0, 127 / 255.0f, 1);
    sample_at(&t, buf, 2, 0, f);
    expect(f, 127 / 255.0f, 0, 127 / 255.0f, 0);
    sample_at(&t, buf, 3, 0, f);
    expect(f, 0, 0, 1, 1);
    /* translucent colours: A = 3:4:4:3, B = 3:4:4:4, bits replicated */
    fill_words(buf, 4, PVRT_WORD(0, 0x5f0e, 0x3842));
    sample_at(&t, buf, 5, 6, f);
    expect(f, 1, 0, 1, 170 / 255.0f);
    fill_words(buf, 4, PVRT_WORD(0xffffffff, 0x5f0e, 0x3842));
    sample_at(&t, buf, 5, 6, f);
    expect(f, 140 / 255.0f, 66 / 255.0f, 33 / 255.0f, 102 / 255.0f);
    /* interpolation: only word (0, 0) is red; the others black */
    fill_words(buf, 4, PVRT_WORD(0, 0x8000, BLUE_B));
    fill_words(buf, 1, PVRT_WORD(0, RED_A, BLUE_B));
    sample_at(&t, buf, 2, 2, f);                /* its centre */
    expect(f, 1, 0, 0, 1);
    sample_at(&t, buf, 4, 2, f);                /* halfway to (1, 0) */
    expect(f, 127 / 255.0f, 0, 0, 1);
    sample_at(&t, buf, 0, 2, f);                /* wraps to (1, 0) */
    expect(f, 127 / 255.0f, 0, 0, 1);
    sample_at(&t, buf, 3, 3, f);                /* weight 9 / 16 */
    expect(f, 143 / 255.0f, 0, 0, 1);
    sample_at(&t, buf, 6, 6, f);                /* word (1, 1)'s centre */
    expect(f, 0, 0, 0, 1);
    /* 1BGR: alpha 1 */
    p.format = 0x81004000;
    make(&t, &p);
    fill_words(buf, 4, PVRT_WORD(0, 0x5f0e, 0x3842));
    sample_at(&t, buf, 5, 6, f);
    expect(f, 1, 0, 1, 1);
    /* a chain: 8x8, then 4x4, 2x2, 1x1 in one word each */
    params(&p, 0x81000000, SGX_TEXTYPE_SWIZZLED, 8, 8);
    p.levels = 4;
    make(&t, &p);
    ck_assert_uint_eq(t.size, 56);
    /* linear textures keep the Morton order (UNVERIFIED) */
    params(&p, 0x81000000, SGX_TEXTYPE_LINEAR, 8, 8);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 4, 0), 2 * 64);
}
END_TEST

/*
 * PVRTC1 2bpp: 8x4 texels a word.  M = 0: one bit a texel (bit 8y + x).
 * M = 1: 2-bit values for texels with x + y even (texel (0, 0): bit 1
 * alone, bit 0 the mode); the others are the mean of the four
 * neighbours (bit 0 = 0), of the vertical (bit 0 = 1, F = bit 20 = 1) or
 * horizontal ones (F = 0).
 */
START_TEST(pvrtc2_words)
{
    uint8_t buf[64] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    float f[4];

    params(&p, 0x80000000, SGX_TEXTYPE_SWIZZLED, 16, 8);  /* PVRT2BPP */
    make(&t, &p);
    ck_assert_uint_eq(t.size, 32);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 8, 0), 2 * 64);
    /* direct */
    fill_words(buf, 4, PVRT_WORD(1u << 9, RED_A, BLUE_B));
    sample_at(&t, buf, 0, 0, f);
    expect(f, 1, 0, 0, 1);
    sample_at(&t, buf, 1, 1, f);
    expect(f, 0, 0, 1, 1);
    /* interpolated, four neighbours: (0,0) 0, (2,0) 8, (1,-1) 0, (1,1) 0
       -> (8 + 2) / 4 = 2 */
    fill_words(buf, 4, PVRT_WORD(3u << 2 | 2u << 4, RED_A | 1, BLUE_B));
    sample_at(&t, buf, 2, 0, f);
    expect(f, 0, 0, 1, 1);
    sample_at(&t, buf, 1, 0, f);
    expect(f, 191 / 255.0f, 0, 63 / 255.0f, 1);
    sample_at(&t, buf, 4, 0, f);                /* stored 2: punch */
    expect(f, 127 / 255.0f, 0, 127 / 255.0f, 0);
    /* horizontal: (0 + 8 + 1) / 2 = 4 */
    fill_words(buf, 4, PVRT_WORD(3u << 2 | 1, RED_A | 1, BLUE_B));
    sample_at(&t, buf, 1, 0, f);
    expect(f, 127 / 255.0f, 0, 127 / 255.0f, 1);
    /* vertical: (1,-1) and (1,1) are 0 */
    fill_words(buf, 4, PVRT_WORD(3u << 2 | 1 | 1u << 20, RED_A | 1,
                                 BLUE_B));
    sample_at(&t, buf, 1, 0, f);
    expect(f, 1, 0, 0, 1);
    /* (0, 0) reads bit 1 alone: 1 is image B */
    fill_words(buf, 4, PVRT_WORD(2, RED_A | 1, BLUE_B));
    sample_at(&t, buf, 0, 0, f);
    expect(f, 0, 0, 1, 1);
}
END_TEST

/* F11/F10: no sign, 5-bit exponent (bias 15), 6/5-bit mantissa; shared
   exponent: 9-bit mantissas without implicit one, value m 2^(E - 24). */
START_TEST(packed_floats)
{
    float f[4];

    /* F10F11F11_BGR: R bits 0..10 = 1.0, G 11..21 = 0.5, B 22..31 = 2 */
    texel(0x1a000000, 0x3c0u | 0x380u << 11 | 0x200u << 22, 0, NULL, f);
    expect(f, 1, 0.5f, 2, 1);
    /* F11F11F10_RGB: R bits 21..31, G 10..20, B 0..9 */
    texel(0x1a001000, 0x3c0u << 21 | 0x380u << 10 | 0x200u, 0, NULL, f);
    expect(f, 1, 0.5f, 2, 1);
    /* denormal R (m / 64 * 2^-14), G 1.5, B infinity */
    texel(0x1a000000, 0x001u | 0x3e0u << 11 | 0x3e0u << 22, 0, NULL, f);
    ck_assert(fabsf(f[0] - ldexpf(1.0f, -20)) < 1e-12f);
    ck_assert(f[1] == 1.5f && isinf(f[2]) && f[3] == 1);
    /* SE5M9M9M9_BGR: E = 16, mantissas 256, 128, 511 */
    texel(0x19000000, 256u | 128u << 9 | 511u << 18 | 16u << 27, 0, NULL,
          f);
    expect(f, 1, 0.5f, 511 / 256.0f, 1);
    /* _RGB: R is the field in bits 18..26 */
    texel(0x19001000, 256u | 128u << 9 | 511u << 18 | 16u << 27, 0, NULL,
          f);
    expect(f, 511 / 256.0f, 0.5f, 1, 1);
    texel(0x19000000, 1u | 0u << 27, 0, NULL, f);
    ck_assert(fabsf(f[0] - ldexpf(1.0f, -24)) < 1e-12f);
}
END_TEST

/* One texel with a gamma mode (SceGxmTextureGammaMode >> 27). */
static void texel_gamma(uint32_t format, unsigned gamma, uint64_t raw,
                        float out[4])
{
    SgxTexParams p;
    SgxTexture t;
    uint8_t buf[8];

    params(&p, format, SGX_TEXTYPE_LINEAR, 1, 1);
    p.gamma = gamma;
    make(&t, &p);
    for (int i = 0; i < 8; i++) {
        buf[i] = raw >> (8 * i);
    }
    sgx_tex_fetch(&t, buf, NULL, 0, 0, 0, 0, out);
}

static void expect_near(const float f[4], float r, float g, float b,
                        float a)
{
    if (fabsf(f[0] - r) > 1e-5f || fabsf(f[1] - g) > 1e-5f
        || fabsf(f[2] - b) > 1e-5f || fabsf(f[3] - a) > 1e-5f) {
        ck_abort_msg("got (%g %g %g %g), expected (%g %g %g %g)", f[0], f[1],
                     f[2], f[3], r, g, b, a);
    }
}

/* sRGB: c <= 0.04045: c / 12.92, else ((c + 0.055) / 1.055)^2.4;
   128/255 -> 0.2158605, 10/255 -> 0.0030353. */
START_TEST(gamma_modes)
{
    const float s128 = 0.2158605f, s10 = (10 / 255.0f) / 12.92f;
    float f[4];

    /* GAMMA_BGR (1): the colour fields, not alpha */
    texel_gamma(0x0c000000, 1, 0x80ff0a80, f);  /* U8U8U8U8_ABGR */
    expect_near(f, s128, s10, 1, 128 / 255.0f);
    texel_gamma(0x0c002000, 1, 0x80ff0a80, f);  /* _RGBA: A is byte 0 */
    expect_near(f, s128, 1, s10, 128 / 255.0f);
    texel_gamma(0x0c002000, 1, 0x80ff0a0a, f);
    expect_near(f, s128, 1, s10, 10 / 255.0f);
    texel_gamma(0x0c000000, 0, 0x80ff0a80, f);  /* none */
    expect_near(f, 128 / 255.0f, 10 / 255.0f, 1, 128 / 255.0f);
    /* GAMMA_R (1) and GAMMA_GR (3) on two components */
    texel_gamma(0x07000000, 1, 0x8080, f);      /* U8U8_GR */
    expect_near(f, s128, 128 / 255.0f, 0, 1);
    texel_gamma(0x07000000, 3, 0x8080, f);
    expect_near(f, s128, s128, 0, 1);
    texel_gamma(0x00005000, 1, 0x80, f);        /* U8_1RRR */
    expect_near(f, s128, s128, s128, 1);
    /* snorm and float fields are not decoded */
    texel_gamma(0x01000000, 1, 0x40, f);        /* S8_R */
    expect_near(f, 64 / 127.0f, 0, 0, 1);
    /* UBC1: colours decoded, alpha kept */
    texel_gamma(0x85000000, 1, 0x0000f800ull | 0x0000ull << 16, f);
    expect_near(f, 1, 0, 0, 1);
    texel_gamma(0x85000000, 1, 0x8410u | 0x8410u << 16, f); /* 16, 32, 16 */
    {
        float c = 16 / 31.0f, g = 32 / 63.0f;
        float sc = powf((c + 0.055f) / 1.055f, 2.4f);
        float sg = powf((g + 0.055f) / 1.055f, 2.4f);
        expect_near(f, sc, sg, sc, 1);
    }
}
END_TEST

/* Texel (x, y) of a linear @w x @h texture of @format over @buf. */
static void texel_at(uint32_t format, unsigned w, unsigned h,
                     const uint8_t *buf, unsigned x, unsigned y, float out[4])
{
    SgxTexParams p;
    SgxTexture t;

    params(&p, format, SGX_TEXTYPE_LINEAR, w, h);
    make(&t, &p);
    sgx_tex_fetch(&t, buf, NULL, 0, 0, x, y, out);
}

/*
 * YUV, limited range: BT.601 (CSC0) R = 1.164383 (Y - 16) + 1.596027
 * (Cr - 128), B = ... + 2.017232 (Cb - 128); BT.709 (CSC1) R = ... +
 * 1.792741 (Cr - 128).  With Y = 16 and the other chroma 128: Cr 240 ->
 * R 112 * 1.596027 / 255 = 0.700999 (709: 0.787400); Cb 240 -> B
 * 0.886000.  Y 16 / 235 with neutral chroma: black / white.
 */
START_TEST(yuv_formats)
{
    const float r601 = 0.700999f, r709 = 0.787400f, b601 = 0.886000f;
    uint8_t buf[32] = { 0 };
    SgxTexParams p;
    SgxTexture t;
    const char *why;
    uint32_t w[4], f;
    float o[4];

    ck_assert(sgx_tex_format_parse("YVU420P3_CSC1", &f));
    ck_assert_uint_eq(f, 0x91003000);
    ck_assert(sgx_tex_format_parse("vyuy422_csc1", &f));
    ck_assert_uint_eq(f, 0x92007000);
    ck_assert(!sgx_tex_format_parse("YUV420P2_ABGR", &f));
    ck_assert(!sgx_tex_format_parse("YUV422_CSC0", &f));

    /* YUV422: a pair of texels in 4 bytes, in the swizzle's order */
    memcpy(buf, (uint8_t[]){ 16, 128, 235, 128 }, 4);     /* YUYV */
    texel_at(0x92000000, 2, 1, buf, 0, 0, o);
    expect_near(o, 0, 0, 0, 1);
    texel_at(0x92000000, 2, 1, buf, 1, 0, o);
    expect_near(o, 1, 1, 1, 1);
    memcpy(buf, (uint8_t[]){ 16, 240, 16, 128 }, 4);      /* YVYU */
    texel_at(0x92001000, 2, 1, buf, 1, 0, o);
    expect_near(o, r601, 0, 0, 1);
    memcpy(buf, (uint8_t[]){ 128, 16, 128, 235 }, 4);     /* UYVY */
    texel_at(0x92002000, 2, 1, buf, 1, 0, o);
    expect_near(o, 1, 1, 1, 1);
    memcpy(buf, (uint8_t[]){ 128, 16, 240, 16 }, 4);      /* VYUY */
    texel_at(0x92003000, 2, 1, buf, 0, 0, o);
    expect_near(o, 0, 0, b601, 1);
    memcpy(buf, (uint8_t[]){ 16, 128, 16, 240 }, 4);      /* YUYV, CSC1 */
    texel_at(0x92004000, 2, 1, buf, 0, 0, o);
    expect_near(o, r709, 0, 0, 1);
    /* rows 8 texels (4 pairs) apart; odd widths keep whole pairs */
    params(&p, 0x92000000, SGX_TEXTYPE_LINEAR, 3, 2);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 16 + 8);
    ck_assert_uint_eq(sgx_tex_texel_bit(&t, 0, 0, 3, 1), (16 + 4) * 8);

    /* YUV420P2 4x2: luma rows 8 bytes apart, then U,V pairs */
    memset(buf, 16, 16);
    memcpy(buf + 16, (uint8_t[]){ 240, 128, 128, 240 }, 4);
    texel_at(0x90000000, 4, 2, buf, 2, 1, o);
    expect_near(o, r601, 0, 0, 1);
    texel_at(0x90000000, 4, 2, buf, 1, 1, o);
    expect_near(o, 0, 0, b601, 1);
    texel_at(0x90001000, 4, 2, buf, 2, 1, o);             /* YVU */
    expect_near(o, 0, 0, b601, 1);
    texel_at(0x90002000, 4, 2, buf, 3, 0, o);             /* CSC1 */
    expect_near(o, r709, 0, 0, 1);
    params(&p, 0x90000000, SGX_TEXTYPE_LINEAR, 4, 2);
    make(&t, &p);
    ck_assert_uint_eq(t.size, 24);
    /* YUV420P3 4x2: U plane (pitch 4) at 16, V plane at 20 */
    memset(buf + 16, 128, 8);
    buf[16] = 240;                                          /* U0 */
    buf[21] = 240;                                          /* V1 */
    texel_at(0x91000000, 4, 2, buf, 1, 1, o);
    expect_near(o, 0, 0, b601, 1);
    texel_at(0x91000000, 4, 2, buf, 3, 0, o);
    expect_near(o, r601, 0, 0, 1);
    texel_at(0x91001000, 4, 2, buf, 3, 0, o);             /* YVU */
    expect_near(o, 0, 0, b601, 1);
    buf[0] = 235;
    texel_at(0x91000000, 4, 2, buf, 0, 0, o);
    ck_assert(o[0] > 0.9f && o[2] == 1.0f);               /* clamped */

    /* linear only, no mips; YUV422 may be strided */
    params(&p, 0x90000000, SGX_TEXTYPE_SWIZZLED, 4, 2);
    ck_assert(!sgx_tex_encode(&p, w, &why));
    params(&p, 0x90000000, SGX_TEXTYPE_LINEAR, 4, 2);
    p.levels = 2;
    ck_assert(!sgx_tex_encode(&p, w, &why));
    params(&p, 0x91000000, SGX_TEXTYPE_LINEAR_STRIDED, 4, 2);
    p.stride = 16;
    ck_assert(!sgx_tex_encode(&p, w, &why));
    params(&p, 0x92000000, SGX_TEXTYPE_LINEAR_STRIDED, 4, 2);
    p.stride = 16;
    make(&t, &p);
    ck_assert_uint_eq(t.size, 16 + 8);
}
END_TEST

START_TEST(wrap_modes)
{
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_REPEAT, -1, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_REPEAT, 9, 4), 1);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_REPEAT_IGNORE_BORDER, -5, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR, 4, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR, 7, 4), 0);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR, 8, 4), 0);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR, -1, 4), 0);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_CLAMP, -5, 4), 0);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_CLAMP, 5, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR_CLAMP, -1, 4), 0);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR_CLAMP, -3, 4), 2);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR_CLAMP, -9, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_MIRROR_CLAMP, 6, 4), 3);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_CLAMP_FULL_BORDER, 4, 4), -1);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_CLAMP_FULL_BORDER, -1, 4), -1);
    ck_assert_int_eq(sgx_tex_wrap(SGX_TEX_CLAMP_FULL_BORDER, 3, 4), 3);
}
END_TEST

/* An 8x8 swizzled chain of 4 levels; level l is solid R = 10 (l + 1). */
static void mip_texture(SgxTexture *t, uint8_t *buf, bool mip_linear,
                        unsigned bias, unsigned lod_min)
{
    SgxTexParams p;

    params(&p, 0x0c000000, SGX_TEXTYPE_SWIZZLED, 8, 8);
    p.levels = 4;
    p.mip_linear = mip_linear;
    p.lod_bias = bias;
    p.lod_min = lod_min;
    make(t, &p);
    for (unsigned l = 0; l < 4; l++) {
        unsigned n = (8 >> l) * (8 >> l);
        for (unsigned i = 0; i < n; i++) {
            uint8_t *q = buf + t->level_offset[l] + 4 * i;
            q[0] = 10 * (l + 1);
            q[1] = q[2] = 0;
            q[3] = 255;
        }
    }
}

static float sample_r(const SgxTexture *t, const uint8_t *buf, float d,
                      unsigned mode, float lod)
{
    SgxTexLookup l = {
        .dim = 2, .coord = { 0.3f, 0.6f }, .dx = { d, 0 }, .dy = { 0, d },
        .lod_mode = mode, .lod = { lod },
    };
    float out[4];

    sgx_tex_sample(t, buf, NULL, &l, out);
    return out[0] * 255.0f;
}

START_TEST(lod_and_mips)
{
    uint8_t buf[340];
    SgxTexture t;
    SgxTexLookup l = { .dim = 2, .dx = { 1.0f / 16, 0 } };
    SgxTexParams p;

    /* the LOD: log2 of the larger footprint, in texels */
    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 64, 16);
    make(&t, &p);
    ck_assert(sgx_tex_lod(&t, &l) == 2.0f);
    l.dx[0] = 0;
    l.dy[1] = 1.0f / 4;
    ck_assert(sgx_tex_lod(&t, &l) == 2.0f);
    l.dy[0] = 3.0f / 64;        /* |(3, 4)| = 5 texels */
    ck_assert(fabsf(sgx_tex_lod(&t, &l) - log2f(5)) < 1e-6f);
    l.lod_mode = 1;
    l.lod[0] = -1;
    ck_assert(fabsf(sgx_tex_lod(&t, &l) - (log2f(5) - 1)) < 1e-6f);
    l.lod_mode = 2;
    l.lod[0] = 3.5f;
    ck_assert(sgx_tex_lod(&t, &l) == 3.5f);
    l.lod_mode = 3;             /* gradients dx.x dx.y dy.x dy.y */
    l.lod[0] = 0, l.lod[1] = 0, l.lod[2] = 0, l.lod[3] = 0.5f;
    ck_assert(sgx_tex_lod(&t, &l) == 3.0f);

    /* nearest level: ceil(lod + 1/2) - 1, clamped to the chain */
    mip_texture(&t, buf, false, 31, 0);
    /* lod 0 */
    ck_assert(fabsf(sample_r(&t, buf, 1.0f / 8, 0, 0) - 10) < 1e-3f);
    /* lod 1 */
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 0, 0) - 20) < 1e-3f);
    /* lod 2 */
    ck_assert(fabsf(sample_r(&t, buf, 4.0f / 8, 0, 0) - 30) < 1e-3f);
    /* lod 4 */
    ck_assert(fabsf(sample_r(&t, buf, 16.0f / 8, 0, 0) - 40) < 1e-3f);
    /* 1.49 */
    ck_assert(fabsf(sample_r(&t, buf, 2.8f / 8, 0, 0) - 20) < 1e-3f);
    /* 1.54 */
    ck_assert(fabsf(sample_r(&t, buf, 2.9f / 8, 0, 0) - 30) < 1e-3f);
    /* replace */
    ck_assert(fabsf(sample_r(&t, buf, 1.0f / 8, 2, 2.0f) - 30) < 1e-3f);
    /* bias */
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 1, 1.0f) - 30) < 1e-3f);
    /* linear between levels */
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 2, 1.5f) - 20) < 1e-4f);
    mip_texture(&t, buf, true, 31, 0);
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 2, 1.5f) - 25) < 1e-4f);
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 2, 2.25f) - 32.5f) < 1e-4f);
    ck_assert(fabsf(sample_r(&t, buf, 2.0f / 8, 2, 7.0f) - 40) < 1e-4f);
    /* the texture's bias (39: +1 level) and lod_min */
    mip_texture(&t, buf, false, 39, 0);
    ck_assert(fabsf(sample_r(&t, buf, 1.0f / 8, 0, 0) - 20) < 1e-3f);
    mip_texture(&t, buf, false, 31, 2);
    ck_assert(fabsf(sample_r(&t, buf, 1.0f / 8, 0, 0) - 30) < 1e-3f);
}
END_TEST

START_TEST(filters)
{
    /* 2x1: black, white; magnified: the mag filter, else the min one */
    uint8_t buf[8] = { 0, 0, 0, 255, 255, 255, 255, 255 };
    SgxTexParams p;
    SgxTexture t;
    SgxTexLookup l = { .dim = 2, .coord = { 0.5f, 0.5f } };
    float out[4];

    params(&p, 0x0c000000, SGX_TEXTYPE_LINEAR, 2, 1);
    p.mag_filter = SGX_TEX_LINEAR;
    p.min_filter = SGX_TEX_POINT;
    make(&t, &p);
    l.dx[0] = 0.1f;         /* 0.2 texels: magnified */
    sgx_tex_sample(&t, buf, NULL, &l, out);
    ck_assert(out[0] == 0.5f && out[3] == 1.0f);
    l.dx[0] = 2.0f;         /* 4 texels: minified, point */
    sgx_tex_sample(&t, buf, NULL, &l, out);
    ck_assert(out[0] == 1.0f);
    l.coord[0] = 0.49f;
    sgx_tex_sample(&t, buf, NULL, &l, out);
    ck_assert(out[0] == 0.0f);
    /* clamp-to-border reads transparent black outside */
    p.addr_u = SGX_TEX_CLAMP_FULL_BORDER;
    make(&t, &p);
    l.coord[0] = 1.2f;
    sgx_tex_sample(&t, buf, NULL, &l, out);
    ck_assert(out[0] == 0.0f && out[3] == 0.0f);
    /* bilinear at the edge with repeat: halfway to the first texel */
    p.addr_u = SGX_TEX_REPEAT;
    make(&t, &p);
    l.coord[0] = 1.0f;
    l.dx[0] = 0;
    sgx_tex_sample(&t, buf, NULL, &l, out);
    ck_assert(out[0] == 0.5f);
}
END_TEST

START_TEST(cube_faces)
{
    /* 2x2 faces, face f solid R = 40 f */
    uint8_t buf[6 * 16];
    SgxTexParams p;
    SgxTexture t;
    static const float dir[6][3] = {
        { 1, 0.2f, 0.1f }, { -1, 0, 0 }, { 0.3f, 1, 0 }, { 0, -1, 0.5f },
        { 0, 0, 1 }, { 0.2f, 0.1f, -1 },
    };

    for (int i = 0; i < 6 * 16; i++) {
        buf[i] = (i & 3) == 0 ? 40 * (i / 16) : (i & 3) == 3 ? 255 : 0;
    }
    params(&p, 0x0c000000, SGX_TEXTYPE_CUBE, 2, 2);
    make(&t, &p);
    for (int f = 0; f < 6; f++) {
        SgxTexLookup l = { .dim = 3 };
        float out[4];

        memcpy(l.coord, dir[f], sizeof(l.coord));
        sgx_tex_sample(&t, buf, NULL, &l, out);
        ck_assert_msg(fabsf(out[0] * 255.0f - 40.0f * f) < 1e-3f,
                      "face %d: %g", f, out[0] * 255.0f);
    }
    /* a cube's LOD: the derivative over the major axis, in face texels */
    {
        SgxTexLookup l = { .dim = 3, .coord = { 1, 0, 0 },
                           .dx = { 0, 0, 4.0f } };
        ck_assert(sgx_tex_lod(&t, &l) == 2.0f);
    }
}
END_TEST

Suite *sgx_texture_suite(void)
{
    Suite *s = suite_create("sgx_texture");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, format_names);
    tcase_add_test(tc, words);
    tcase_add_test(tc, illegal_words);
    tcase_add_test(tc, layouts);
    tcase_add_test(tc, texel_formats);
    tcase_add_test(tc, wrap_modes);
    tcase_add_test(tc, lod_and_mips);
    tcase_add_test(tc, filters);
    tcase_add_test(tc, cube_faces);
    tcase_add_test(tc, bc1_blocks);
    tcase_add_test(tc, bc2_blocks);
    tcase_add_test(tc, bc3_blocks);
    tcase_add_test(tc, block_layouts);
    tcase_add_test(tc, packed_floats);
    tcase_add_test(tc, pvrtc4_words);
    tcase_add_test(tc, pvrtc2_words);
    tcase_add_test(tc, gamma_modes);
    tcase_add_test(tc, yuv_formats);
    suite_add_tcase(s, tc);
    return s;
}
