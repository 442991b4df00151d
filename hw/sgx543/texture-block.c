/*
 * SGX543 compressed and YUV texels: BC1/2/3 blocks, PVRTC1 4bpp and
 * 2bpp words, YUV420 planes and YUV422 pairs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "texture-int.h"

#include <math.h>

/* ---- block-compressed texels ---- */

static void rgb565(uint32_t v, float c[3])
{
    c[0] = (float)(v >> 11) / 31.0f;
    c[1] = (float)((v >> 5) & 63) / 63.0f;
    c[2] = (float)(v & 31) / 31.0f;
}

/*
 * The colour half of a BC1/2/3 block (Microsoft's "Texture Block
 * Compression in Direct3D 11", the Khronos Data Format spec §S3TC):
 * two RGB565 endpoints, then 2-bit indices, texel i = 4y + x at bits
 * 2i.  BC1 with colour0 <= colour1 has the midpoint and transparent
 * black; otherwise (and always in BC2/3) the thirds.
 */
static void bc_colour(const uint8_t *b, bool bc1, unsigned i, float c[4])
{
    uint32_t c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
    uint32_t bits = b[4] | b[5] << 8 | b[6] << 16 | (uint32_t)b[7] << 24;
    unsigned idx = (bits >> (2 * i)) & 3;
    float e0[3], e1[3];

    rgb565(c0, e0);
    rgb565(c1, e1);
    c[3] = 1.0f;
    for (int k = 0; k < 3; k++) {
        switch (idx) {
        case 0:
            c[k] = e0[k];
            break;
        case 1:
            c[k] = e1[k];
            break;
        case 2:
            c[k] = !bc1 || c0 > c1 ? (2 * e0[k] + e1[k]) / 3.0f
                                   : (e0[k] + e1[k]) / 2.0f;
            break;
        default:
            if (!bc1 || c0 > c1) {
                c[k] = (e0[k] + 2 * e1[k]) / 3.0f;
            } else {
                c[k] = 0.0f;
                c[3] = 0.0f;
            }
            break;
        }
    }
}

/* BC3's alpha half: two 8-bit endpoints, 3-bit indices from bit 16 */
static float bc3_alpha(const uint8_t *b, unsigned i)
{
    uint64_t bits = sgx_tex_read_le(b, 8) >> 16;
    unsigned idx = (bits >> (3 * i)) & 7;
    float a0 = b[0], a1 = b[1];

    switch (idx) {
    case 0:
        return a0 / 255.0f;
    case 1:
        return a1 / 255.0f;
    default:
        if (b[0] > b[1]) {
            /* six interpolated values */
            return ((8 - idx) * a0 + (idx - 1) * a1) / (7.0f * 255.0f);
        }
        if (idx == 6) {
            return 0.0f;
        }
        if (idx == 7) {
            return 1.0f;
        }
        /* four interpolated values, then 0 and 1 */
        return ((6 - idx) * a0 + (idx - 1) * a1) / (5.0f * 255.0f);
    }
}

/*
 * PVRTC1 (the Khronos Data Format spec, "PVRTC Compressed Texture Image
 * Formats"): 64-bit words in reflected Morton order, bits 0..31
 * modulation, bit 32 the modulation mode M, bits 33..47 colour A and
 * 48..63 colour B.  The colours of the four words around a texel are
 * interpolated bilinearly (each centred on its block, wrapping around
 * the image), then blended by the texel's modulation weight (/8).
 */
typedef struct PvrtLevel {
    const SgxTexture *t;
    const uint8_t *data;
    unsigned face, level;
    int gw, gh;                 /* words across and down (powers of 2) */
    int bw, bh;                 /* texels a word: 4x4 or 8x4 */
} PvrtLevel;

static uint64_t pvrt_word(const PvrtLevel *p, int x, int y)
{
    uint64_t bit;

    x = ((x % p->gw) + p->gw) % p->gw;
    y = ((y % p->gh) + p->gh) % p->gh;
    bit = sgx_tex_texel_bit(p->t, p->face, p->level, x * p->bw, y * p->bh);
    if (bit / 8 + 8 > p->t->size) {
        return 0;                               /* cannot happen */
    }
    return sgx_tex_read_le(p->data + bit / 8, 8);
}

/* Colour A (@which 0) or B of a word as R G B (5 bits) and A (4 bits). */
static void pvrt_colour(uint64_t w, int which, int c[4])
{
    uint32_t v = (w >> (which ? 48 : 32)) & 0xffff;

    if (v & 0x8000) {                           /* opaque: 5 5 5 / 5 5 4 */
        c[0] = (v >> 10) & 31;
        c[1] = (v >> 5) & 31;
        c[2] = which ? (int)(v & 31)
                     : (int)(((v >> 1) & 15) << 1 | ((v >> 1) & 15) >> 3);
        c[3] = 15;
    } else {                                    /* 3 4 4 4 / 3 4 4 3 */
        unsigned r = (v >> 8) & 15, g = (v >> 4) & 15;

        c[0] = r << 1 | r >> 3;
        c[1] = g << 1 | g >> 3;
        if (which) {
            c[2] = (v & 15) << 1 | (v & 15) >> 3;
        } else {
            unsigned b = (v >> 1) & 7;
            c[2] = b << 2 | b >> 1;
        }
        c[3] = ((v >> 12) & 7) << 1;
    }
}

static const int pvrt_weights[4] = { 0, 4, 4, 8 };   /* M = 1 */

/* 2bpp: the weight of a texel whose modulation is stored in its word. */
static int pvrt2_stored(const PvrtLevel *p, int x, int y, bool *punch)
{
    int W = p->gw * 8, H = p->gh * 4;
    uint64_t w;
    unsigned xo, yo, v;

    x = ((x % W) + W) % W;
    y = ((y % H) + H) % H;
    w = pvrt_word(p, x / 8, y / 4);
    xo = x % 8;
    yo = y % 4;
    if (!((w >> 32) & 1)) {
        /* direct: one bit a texel, image A or B (UNVERIFIED: also as
           the neighbour of an interpolated texel) */
        return (w >> (8 * yo + xo)) & 1 ? 8 : 0;
    }
    if (xo == 0 && yo == 0) {
        v = (w >> 1) & 1 ? 3 : 0;               /* bit 0 is the mode */
    } else if ((w & 1) && xo == 4 && yo == 2) {
        v = (w >> 21) & 1 ? 3 : 0;              /* bit 20 is flag F */
    } else {
        v = (w >> (8 * yo + (xo & ~1u))) & 3;
    }
    if (punch) {
        *punch = v == 2;
    }
    return pvrt_weights[v];
}

/* The modulation weight (0..8) of texel (x, y), and punch-through. */
static int pvrt_modulation(const PvrtLevel *p, int x, int y, bool *punch)
{
    uint64_t w = pvrt_word(p, x / p->bw, y / p->bh);
    bool m = (w >> 32) & 1;
    unsigned xo = x % p->bw, yo = y % p->bh;

    *punch = false;
    if (p->bw == 4) {
        unsigned v = (w >> (2 * (4 * yo + xo))) & 3;
        static const int standard[4] = { 0, 3, 5, 8 };

        *punch = m && v == 2;
        return m ? pvrt_weights[v] : standard[v];
    }
    if (!m || !((xo + yo) & 1)) {
        return pvrt2_stored(p, x, y, punch);
    }
    /* 2bpp, interpolated: the mean of the stored neighbours' weights */
    if (!(w & 1)) {
        return (pvrt2_stored(p, x - 1, y, NULL) + pvrt2_stored(p, x, y - 1,
                NULL) + pvrt2_stored(p, x + 1, y, NULL)
                + pvrt2_stored(p, x, y + 1, NULL) + 2) / 4;
    }
    if ((w >> 20) & 1) {
        return (pvrt2_stored(p, x, y - 1, NULL)
                + pvrt2_stored(p, x, y + 1, NULL) + 1) / 2;
    }
    return (pvrt2_stored(p, x - 1, y, NULL) + pvrt2_stored(p, x + 1, y, NULL)
            + 1) / 2;
}

void sgx_tex_pvrt_texel(const SgxTexture *t, const uint8_t *data,
                        unsigned face, unsigned level, int x, int y,
                        float out[4])
{
    PvrtLevel p = {
        .t = t, .data = data, .face = face, .level = level,
        .bw = t->block_w, .bh = t->block_h,
    };
    int xx, yy, x0, y0, xr, yr, wgt[4], sum[2][4] = { { 0 } };
    int shift, weight;
    bool punch;

    p.gw = sgx_pow2ceil(DIV_ROUND_UP(sgx_tex_level_width(t, level), p.bw));
    p.gh = sgx_pow2ceil(DIV_ROUND_UP(sgx_tex_level_height(t, level), p.bh));
    /* the four words whose colour samples (at block centres) surround */
    xx = x - p.bw / 2;
    yy = y - p.bh / 2;
    x0 = xx >= 0 ? xx / p.bw : -1;
    y0 = yy >= 0 ? yy / p.bh : -1;
    xr = xx - p.bw * x0;
    yr = yy - p.bh * y0;
    wgt[0] = (p.bw - xr) * (p.bh - yr);
    wgt[1] = xr * (p.bh - yr);
    wgt[2] = (p.bw - xr) * yr;
    wgt[3] = xr * yr;
    for (int i = 0; i < 4; i++) {
        uint64_t w = pvrt_word(&p, x0 + (i & 1), y0 + (i >> 1));

        for (int ab = 0; ab < 2; ab++) {
            int c[4];

            pvrt_colour(w, ab, c);
            for (int k = 0; k < 4; k++) {
                sum[ab][k] += c[k] * wgt[i];
            }
        }
    }
    weight = pvrt_modulation(&p, x, y, &punch);
    shift = p.bw == 4 ? 0 : 1;                  /* 4.4 / 5.4 or .5 bits */
    for (int k = 0; k < 4; k++) {
        int v[2];

        for (int ab = 0; ab < 2; ab++) {
            int c = sum[ab][k] >> shift;
            /* to 8 bits: 5.4 as C/2 + C/64, 4.4 as C + C/16 */
            v[ab] = k < 3 ? c / 2 + c / 64 : c + c / 16;
        }
        out[k] = (float)((v[0] * (8 - weight) + v[1] * weight) / 8) / 255.0f;
    }
    if (punch) {
        out[3] = 0.0f;
    }
}

/* Texel (x, y) (within the block) of a 4x4 block, as fields R G B A. */
void sgx_tex_block_texel(unsigned kind, const uint8_t *b, unsigned x,
                         unsigned y, float c[4])
{
    unsigned i = 4 * (y & 3) + (x & 3);

    switch (kind) {
    case K_BC1:
        bc_colour(b, true, i, c);
        break;
    case K_BC2:
        /* explicit 4-bit alpha, texel i at bits 4i, then the colours */
        bc_colour(b + 8, false, i, c);
        c[3] = (float)((sgx_tex_read_le(b, 8) >> (4 * i)) & 15) / 15.0f;
        break;
    default:
        bc_colour(b + 8, false, i, c);
        c[3] = bc3_alpha(b, i);
        break;
    }
}

/*
 * Y'CbCr (8-bit, limited range: Y 16..235, Cb/Cr 16..240) to RGB.  CSC0
 * is ITU-R BT.601, CSC1 BT.709.  UNVERIFIED: which matrices and ranges
 * SGX's CSC0/CSC1 are (Vita3K converts with BT.601 limited range).
 */
static void yuv_to_rgb(unsigned y, unsigned u, unsigned v, bool csc1,
                       float rgba[4])
{
    float yy = 1.164383f * ((float)y - 16.0f);
    float cb = (float)u - 128.0f, cr = (float)v - 128.0f;
    float c[3];

    if (csc1) {
        c[0] = yy + 1.792741f * cr;
        c[1] = yy - 0.213249f * cb - 0.532909f * cr;
        c[2] = yy + 2.112402f * cb;
    } else {
        c[0] = yy + 1.596027f * cr;
        c[1] = yy - 0.391762f * cb - 0.812968f * cr;
        c[2] = yy + 2.017232f * cb;
    }
    for (int k = 0; k < 3; k++) {
        rgba[k] = fminf(fmaxf(c[k] / 255.0f, 0.0f), 1.0f);
    }
    rgba[3] = 1.0f;
}

/*
 * YUV422: 4 bytes a pair of texels, in the swizzle's order (YUYV, YVYU,
 * UYVY, VYUY; swizzle 4..7 the same with CSC1).  YUV420: the luma plane
 * (rows 8-byte aligned), then at half resolution in both directions
 * interleaved U,V (P2) or a U plane then a V plane at half the pitch
 * (P3); swizzle bit 0 swaps U and V, bit 1 selects CSC1.  Chroma is not
 * interpolated (UNVERIFIED).  Layout facts: Vita3K's YUV conversion.
 */
void sgx_tex_yuv_texel(const SgxTexture *t, const uint8_t *data,
                       unsigned x, unsigned y, float rgba[4])
{
    unsigned swz = t->swizzle, yv, u, v;

    if (t->fmt->kind == K_YUV422) {
        const uint8_t *b = data + sgx_tex_texel_bit(t, 0, 0, x, y) / 8;
        static const uint8_t pos[4][4] = {      /* Y0 Y1 U V */
            { 0, 2, 1, 3 }, { 0, 2, 3, 1 }, { 1, 3, 0, 2 }, { 1, 3, 2, 0 },
        };
        const uint8_t *o = pos[swz & 3];

        yv = b[o[x & 1]];
        u = b[o[2]];
        v = b[o[3]];
        yuv_to_rgb(yv, u, v, swz >> 2, rgba);
        return;
    }
    {
        uint64_t pitch = sgx_tex_align_up(t->width, 8), c = pitch * t->height;
        unsigned first, second;

        yv = data[y * pitch + x];
        if (t->fmt->kind == K_YUV420P2) {
            const uint8_t *b = data + c + (y / 2) * pitch + (x / 2) * 2;
            first = b[0];
            second = b[1];
        } else {
            uint64_t off = (y / 2) * (pitch / 2) + x / 2;
            first = data[c + off];
            second = data[c + pitch / 2 * DIV_ROUND_UP(t->height, 2) + off];
        }
        u = swz & 1 ? second : first;
        v = swz & 1 ? first : second;
        yuv_to_rgb(yv, u, v, swz >> 1, rgba);
    }
}
