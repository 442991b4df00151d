/*
 * SGX543 texture formats: the base formats, YUV names and swizzles of
 * SceGxmTextureFormat (psp2/gxm.h), and format and texture type names
 * parsed for tools and scenes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "texture-int.h"

static const SgxTexFormatInfo formats[] = {
    { "U8", SGX_TEXB_U8, 8, 1, K_UNORM, 1, { 8 } },
    { "S8", SGX_TEXB_S8, 8, 1, K_SNORM, 1, { 8 } },
    { "U4U4U4U4", SGX_TEXB_U4U4U4U4, 16, 4, K_UNORM, 4, { 4, 4, 4, 4 } },
    { "U1U5U5U5", SGX_TEXB_U1U5U5U5, 16, 4, K_UNORM, 4, { 1, 5, 5, 5 } },
    { "U5U6U5", SGX_TEXB_U5U6U5, 16, 3, K_UNORM, 3, { 5, 6, 5 } },
    { "U8U8", SGX_TEXB_U8U8, 16, 2, K_UNORM, 2, { 8, 8 } },
    { "S8S8", SGX_TEXB_S8S8, 16, 2, K_SNORM, 2, { 8, 8 } },
    { "U16", SGX_TEXB_U16, 16, 1, K_UNORM, 1, { 16 } },
    { "S16", SGX_TEXB_S16, 16, 1, K_SNORM, 1, { 16 } },
    { "F16", SGX_TEXB_F16, 16, 1, K_F16, 1, { 16 } },
    { "U8U8U8U8", SGX_TEXB_U8U8U8U8, 32, 4, K_UNORM, 4, { 8, 8, 8, 8 } },
    { "S8S8S8S8", SGX_TEXB_S8S8S8S8, 32, 4, K_SNORM, 4, { 8, 8, 8, 8 } },
    { "U2U10U10U10", SGX_TEXB_U2U10U10U10, 32, 4, K_UNORM, 4,
      { 2, 10, 10, 10 } },
    { "U16U16", SGX_TEXB_U16U16, 32, 2, K_UNORM, 2, { 16, 16 } },
    { "S16S16", SGX_TEXB_S16S16, 32, 2, K_SNORM, 2, { 16, 16 } },
    { "F16F16", SGX_TEXB_F16F16, 32, 2, K_F16, 2, { 16, 16 } },
    { "F32", SGX_TEXB_F32, 32, 1, K_F32, 1, { 32 } },
    { "F32M", SGX_TEXB_F32M, 32, 1, K_F32M, 1, { 32 } },
    { "F16F16F16F16", SGX_TEXB_F16F16F16F16, 64, 4, K_F16, 4,
      { 16, 16, 16, 16 } },
    { "U16U16U16U16", SGX_TEXB_U16U16U16U16, 64, 4, K_UNORM, 4,
      { 16, 16, 16, 16 } },
    { "S16S16S16S16", SGX_TEXB_S16S16S16S16, 64, 4, K_SNORM, 4,
      { 16, 16, 16, 16 } },
    { "F32F32", SGX_TEXB_F32F32, 64, 2, K_F32, 2, { 32, 32 } },
    { "P4", SGX_TEXB_P4, 4, 4, K_PAL, 1, { 4 } },
    { "P8", SGX_TEXB_P8, 8, 4, K_PAL, 1, { 8 } },
    { "U8U8U8", SGX_TEXB_U8U8U8, 24, 3, K_UNORM, 3, { 8, 8, 8 } },
    { "S8S8S8", SGX_TEXB_S8S8S8, 24, 3, K_SNORM, 3, { 8, 8, 8 } },
    /* F10F11F11_BGR: R in bits 0..10; F11F11F10_RGB: B in bits 0..9 */
    { "F10F11F11", SGX_TEXB_F11F11F10, 32, 3, K_UFLOAT, 3, { 10, 11, 11 },
      0, F_REV_RGB },
    { "SE5M9M9M9", SGX_TEXB_SE5M9M9M9, 32, 3, K_SE5, 3, { 9, 9, 9 },
      0, F_NAMED },
    /* bpp: bits a texel averaged over the block; only ABGR is named by
       the SDK, 1BGR is accepted as for PVRT (UNVERIFIED) */
    { "UBC1", SGX_TEXB_UBC1, 4, 4, K_BC1, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "UBC2", SGX_TEXB_UBC2, 8, 4, K_BC2, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "UBC3", SGX_TEXB_UBC3, 8, 4, K_BC3, 0, { 0 }, 4, F_NAMED, 0x11, 4 },
    { "PVRT4BPP", SGX_TEXB_PVRT4BPP, 4, 4, K_PVRT4, 0, { 0 }, 4, F_NAMED,
      0x11, 4 },
    { "PVRT2BPP", SGX_TEXB_PVRT2BPP, 2, 4, K_PVRT2, 0, { 0 }, 8, F_NAMED,
      0x11, 4 },
    /* YUV: bpp of the luma plane (420) or of a texel (422); named by
       yuv_names; swizzle: byte order (422) or U/V order (420), CSC */
    { "YUV420P2", SGX_TEXB_YUV420P2, 8, 4, K_YUV420P2, 0, { 0 }, 0, F_YUV,
      0x0f },
    { "YUV420P3", SGX_TEXB_YUV420P3, 8, 4, K_YUV420P3, 0, { 0 }, 0, F_YUV,
      0x0f },
    { "YUV422", SGX_TEXB_YUV422, 16, 4, K_YUV422, 0, { 0 }, 2, F_YUV, 0xff,
      1 },                  /* a 2x1 "block": Y0 U Y1 V in some order */
};

/* SceGxmTextureFormat names of the YUV formats (psp2/gxm.h) */
static const struct {
    const char *name;
    uint8_t code, swizzle;
} yuv_names[] = {
    { "YUV420P2_CSC0", SGX_TEXB_YUV420P2, 0 },
    { "YVU420P2_CSC0", SGX_TEXB_YUV420P2, 1 },
    { "YUV420P2_CSC1", SGX_TEXB_YUV420P2, 2 },
    { "YVU420P2_CSC1", SGX_TEXB_YUV420P2, 3 },
    { "YUV420P3_CSC0", SGX_TEXB_YUV420P3, 0 },
    { "YVU420P3_CSC0", SGX_TEXB_YUV420P3, 1 },
    { "YUV420P3_CSC1", SGX_TEXB_YUV420P3, 2 },
    { "YVU420P3_CSC1", SGX_TEXB_YUV420P3, 3 },
    { "YUYV422_CSC0", SGX_TEXB_YUV422, 0 },
    { "YVYU422_CSC0", SGX_TEXB_YUV422, 1 },
    { "UYVY422_CSC0", SGX_TEXB_YUV422, 2 },
    { "VYUY422_CSC0", SGX_TEXB_YUV422, 3 },
    { "YUYV422_CSC1", SGX_TEXB_YUV422, 4 },
    { "YVYU422_CSC1", SGX_TEXB_YUV422, 5 },
    { "UYVY422_CSC1", SGX_TEXB_YUV422, 6 },
    { "VYUY422_CSC1", SGX_TEXB_YUV422, 7 },
};

/*
 * Swizzles: for output R, G, B, A, the field (0 = least significant)
 * or a constant.  The names read the output A B G R left to right for
 * four letters; shorter names list the fields most significant first.
 */
static const int8_t swizzle1[8][4] = {
    { 0, ZERO, ZERO, ONE },     /* R (UNVERIFIED: G, B = 0, A = 1) */
    { 0, ZERO, ZERO, ZERO },    /* 000R */
    { 0, ONE, ONE, ONE },       /* 111R */
    { 0, 0, 0, 0 },             /* RRRR */
    { 0, 0, 0, ZERO },          /* 0RRR */
    { 0, 0, 0, ONE },           /* 1RRR */
    { ZERO, ZERO, ZERO, 0 },    /* R000 */
    { ONE, ONE, ONE, 0 },       /* R111 */
};
static const int8_t swizzle2[6][4] = {
    { 0, 1, ZERO, ONE },        /* GR (UNVERIFIED: B = 0, A = 1) */
    { 0, 1, ZERO, ZERO },       /* 00GR */
    { 0, 0, 0, 1 },             /* GRRR */
    { 1, 1, 1, 0 },             /* RGGG */
    { 0, 1, 0, 1 },             /* GRGR */
    { 1, 0, ZERO, ZERO },       /* 00RG */
};
static const int8_t swizzle3[2][4] = {
    { 0, 1, 2, ONE },           /* BGR */
    { 2, 1, 0, ONE },           /* RGB */
};
static const int8_t swizzle4[8][4] = {
    { 0, 1, 2, 3 },             /* ABGR */
    { 2, 1, 0, 3 },             /* ARGB */
    { 3, 2, 1, 0 },             /* RGBA */
    { 1, 2, 3, 0 },             /* BGRA */
    { 0, 1, 2, ONE },           /* 1BGR */
    { 2, 1, 0, ONE },           /* 1RGB */
    { 3, 2, 1, ONE },           /* RGB1 */
    { 1, 2, 3, ONE },           /* BGR1 */
};

static const char *const swizzle_names[4][8] = {
    { "R", "000R", "111R", "RRRR", "0RRR", "1RRR", "R000", "R111" },
    { "GR", "00GR", "GRRR", "RGGG", "GRGR", "00RG" },
    { "BGR", "RGB" },
    { "ABGR", "ARGB", "RGBA", "BGRA", "1BGR", "1RGB", "RGB1", "BGR1" },
};
static const unsigned swizzle_count[4] = { 8, 6, 2, 8 };

const SgxTexFormatInfo *sgx_tex_format_info(unsigned code)
{
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        if (formats[i].code == code) {
            return &formats[i];
        }
    }
    return NULL;
}

bool sgx_tex_swizzle_ok(const SgxTexFormatInfo *f, unsigned swz)
{
    return swz < swizzle_count[f->comps - 1]
           && (!f->swizzles || (f->swizzles >> swz) & 1);
}

/* Does @swz read the fields in the reverse order of f->width? */
bool sgx_tex_fields_reversed(const SgxTexFormatInfo *f, unsigned swz)
{
    return (f->comps == 4 && !f->block && (swz & 2))
           || ((f->flags & F_REV_RGB) && swz == 1);
}

const int8_t *sgx_tex_swizzle_map(unsigned comps, unsigned swz)
{
    switch (comps) {
    case 1:
        return swizzle1[swz];
    case 2:
        return swizzle2[swz];
    case 3:
        return swizzle3[swz];
    default:
        return swizzle4[swz];
    }
}

/*
 * "X8U8U8U8" against "U8U8U8U8": fields by letter and width, X matching
 * any letter.  Bit 0: the fields match in order; bit 1: reversed (the
 * SDK names the RGBA-order layouts of U1U5U5U5 "U5U5U5U1").
 */
static unsigned base_name_matches(const char *given, const char *base)
{
    char g[8][2], b[8][2];
    unsigned ng = 0, nb = 0, m = 0;
    const char *s;
    char *end;

    for (s = given; *s && ng < 8; ng++) {
        g[ng][0] = g_ascii_toupper(*s++);
        g[ng][1] = (char)strtoul(s, &end, 10);
        s = end;
    }
    if (*s) {
        return 0;
    }
    for (s = base; *s && nb < 8; nb++) {
        b[nb][0] = *s++;
        b[nb][1] = (char)strtoul(s, &end, 10);
        s = end;
    }
    if (ng != nb) {
        return 0;
    }
    for (int rev = 0; rev < 2; rev++) {
        bool ok = true;
        for (unsigned i = 0; i < ng && ok; i++) {
            const char *x = b[rev ? nb - 1 - i : i];
            ok = g[i][1] == x[1] && (g[i][0] == x[0] || g[i][0] == 'X');
        }
        if (ok) {
            m |= 1u << rev;
        }
    }
    return m;
}

bool sgx_tex_format_parse(const char *name, uint32_t *format)
{
    const char *us = strrchr(name, '_');
    g_autofree char *base = NULL;

    if (!us) {
        return false;
    }
    for (size_t i = 0; i < ARRAY_SIZE(yuv_names); i++) {
        if (!g_ascii_strcasecmp(name, yuv_names[i].name)) {
            *format = SGX_TEX_FORMAT(yuv_names[i].code, yuv_names[i].swizzle);
            return true;
        }
    }
    base = g_strndup(name, us - name);
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        const SgxTexFormatInfo *f = &formats[i];
        unsigned m = f->flags & F_YUV ? 0
                     : f->flags & F_NAMED
                     ? (g_ascii_strcasecmp(base, f->name) ? 0 : 3)
                     : base_name_matches(base, f->name);

        for (unsigned k = 0; m && k < swizzle_count[f->comps - 1]; k++) {
            /* RGBA-order swizzles of four-field formats name the fields
               the other way round */
            unsigned need = sgx_tex_fields_reversed(f, k) ? 2 : 1;

            if (!sgx_tex_swizzle_ok(f, k)) {
                continue;
            }

            if ((m & need)
                && !g_ascii_strcasecmp(us + 1,
                                       swizzle_names[f->comps - 1][k])) {
                *format = SGX_TEX_FORMAT(f->code, k);
                return true;
            }
        }
    }
    return false;
}

int sgx_tex_type_parse(const char *name)
{
    static const char *const names[] = {
        [SGX_TEXTYPE_SWIZZLED] = "swizzled",
        [SGX_TEXTYPE_CUBE] = "cube",
        [SGX_TEXTYPE_LINEAR] = "linear",
        [SGX_TEXTYPE_TILED] = "tiled",
        [SGX_TEXTYPE_SWIZZLED_ARBITRARY] = "swizzled-arbitrary",
        [SGX_TEXTYPE_LINEAR_STRIDED] = "linear-strided",
        [SGX_TEXTYPE_CUBE_ARBITRARY] = "cube-arbitrary",
    };

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (names[i] && !g_ascii_strcasecmp(name, names[i])) {
            return i;
        }
    }
    return -1;
}
