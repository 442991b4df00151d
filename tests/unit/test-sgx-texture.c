/*
 * SGX543 textures (hw/sgx543/texture.c): SceGxmTexture control words
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
    ck_assert(!sgx_tex_format_parse("UBC1_ABGR", &f));
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
    /* UBC1 (0x85000000): not decoded */
    {
        uint32_t b[4] = { w[0] | 1u << 31, (w[1] & ~0x1f000000u) | 5u << 24,
                          w[2], w[3] };
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
    suite_add_tcase(s, tc);
    return s;
}
