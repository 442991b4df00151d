/*
 * The texture unit's TIC and TSC entries decoded (texture.h
 * nv50_tic_decode, nv50_tsc_decode; rnndb graph/g80_texture.xml): the
 * view's format, type, size and levels, the sampler's wrap modes,
 * filters, LOD range, compare and border.
 *
 * - Layout (envytools g80-surface.rst): pitch (TIC_2 LAYOUT_PITCH, one
 *   level) or block-linear; levels follow each other, each with the
 *   TIC's block size auto-sized to it (nv50_surface_shrink_blocks), and
 *   subtextures (array layers, cube faces) are the levels' total rounded
 *   up to level 0's block size apart.  Levels laid out: MAP_MIP_LEVEL+1;
 *   levels sampled: G84's RES_VIEW_MIN/MAX_MIP_LEVEL (TIC_7) when TIC_4
 *   USE_TEXTURE_HEADER_V2 is set (Mesa does so on G84+), else 0 to
 *   MAP_MIP_LEVEL.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "texture.h"

/* g80_max_anisotropy's ratio: 1:1, 2:1, 4:1 .. 12:1, 16:1 */
static unsigned aniso_ratio(uint32_t field)
{
    static const uint8_t ratio[8] = { 1, 2, 4, 6, 8, 10, 12, 16 };

    return ratio[field & NV50_TIC_6_MAX_ANISOTROPY_MASK];
}

bool nv50_tic_decode(const uint32_t w[8], NV50TexView *v)
{
    bool v2 = w[4] & 0x80000000u;
    unsigned map_levels;
    uint64_t sub = 0;

    memset(v, 0, sizeof(*v));
    memcpy(v->w, w, sizeof(v->w));
    v->format = w[0] & 0x3f;
    for (unsigned k = 0; k < 4; k++) {
        v->type[k] = (w[0] >> (6 + 3 * k)) & 7;
        v->src[k] = (w[0] >> (18 + 3 * k)) & 7;
    }
    if (!nv50_tex_format_info(v->format, &v->fmt)) {
        return false;
    }
    v->addr = w[1] | (uint64_t)(w[2] & 0xff) << 32;
    v->srgb = w[2] & 0x400;
    v->kind = (w[2] >> 14) & 0xf;
    v->pitch_layout = w[2] & 0x40000;
    v->block_w = MIN((w[2] >> 19) & 7, NV50_BLOCK_LOG2_MAX);
    v->block_h = MIN((w[2] >> 22) & 7, NV50_BLOCK_LOG2_MAX);
    v->block_d = MIN((w[2] >> 25) & 7, NV50_BLOCK_LOG2_MAX);
    v->normalized = w[2] & 0x80000000u;
    v->pitch = w[3] & 0xfffff;
    v->width = MAX(w[4] & 0x3fffffff, 1u);
    v->height = MAX(w[5] & 0xffff, 1u);
    v->depth = MAX((w[5] >> 16) & 0xfff, 1u);
    if (v2) {
        /* G84: HEIGHT_MSB, DEPTH_MSB (UNVERIFIED: only in the V2 header) */
        v->height |= (w[7] & 0x100) << 8;
        v->depth |= ((w[7] >> 28) & 7) << 12;
    }
    map_levels = (w[5] >> 28) + 1;
    if (v->pitch_layout || v->kind == NV50_TEX_2D_NO_MIPMAP ||
        v->kind == NV50_TEX_1D_BUFFER) {
        map_levels = 1;
    }
    v->levels = map_levels;
    v->hdr_opt = w[3] & NV50_TIC_3_USE_HEADER_OPT_CONTROL;
    v->hdr_aniso = aniso_ratio(w[6] >> NV50_TIC_6_MAX_ANISOTROPY_SHIFT);
    if (v2) {
        v->min_level = MIN(w[7] & 0xf, map_levels - 1);
        v->max_level = MIN((w[7] >> 4) & 0xf, map_levels - 1);
        v->max_level = MAX(v->max_level, v->min_level);
    } else {
        v->min_level = 0;
        v->max_level = map_levels - 1;
    }
    switch (v->kind) {
    case NV50_TEX_1D:
    case NV50_TEX_1D_BUFFER:
        v->height = v->depth = 1;
        v->layers = 1;
        break;
    case NV50_TEX_1D_ARRAY:
        v->height = 1;
        v->layers = v->depth;
        break;
    case NV50_TEX_3D:
        v->layers = 1;
        break;
    case NV50_TEX_CUBE:
    case NV50_TEX_CUBE_ARRAY:
        v->layers = 6 * v->depth;
        break;
    case NV50_TEX_2D_ARRAY:
        v->layers = v->depth;
        break;
    default:
        v->layers = 1;
        break;
    }
    for (unsigned l = 0; l < v->levels; l++) {
        NV50Surface *sf = &v->level_sf[l];
        uint32_t lw = MAX(v->width >> l, 1u), lh = MAX(v->height >> l, 1u);
        uint32_t ld = v->kind == NV50_TEX_3D ? MAX(v->depth >> l, 1u) : 1;

        v->level_w[l] = lw;
        v->level_h[l] = lh;
        v->level_d[l] = ld;
        sf->block_linear = !v->pitch_layout;
        sf->pitch = v->pitch;
        sf->width_bytes = ((lw + v->fmt.bw - 1) / v->fmt.bw) * v->fmt.bytes;
        sf->height = ((lh + v->fmt.bh - 1) / v->fmt.bh);
        sf->depth = ld;
        sf->block_w = v->block_w;
        sf->block_h = v->block_h;
        sf->block_d = v->block_d;
        nv50_surface_shrink_blocks(sf);
        v->level_off[l] = sub;
        sub += nv50_surface_size(sf);
    }
    if (!v->pitch_layout) {
        const NV50Surface *sf0 = &v->level_sf[0];
        uint64_t bb = (uint64_t)NV50_GOB_SIZE <<
                      (sf0->block_w + sf0->block_h + sf0->block_d);

        sub = (sub + bb - 1) / bb * bb;
    }
    v->layer_stride = sub;
    return true;
}

static float lod_fixed(uint32_t v, unsigned bits, bool is_signed)
{
    int32_t s = is_signed ? (int32_t)(v << (32 - bits)) >> (32 - bits)
                          : (int32_t)v;

    /* 8 fraction bits, as Mesa writes them (rnndb says radix 8) */
    return (float)s / 256.0f;
}

void nv50_tsc_decode(const uint32_t w[8], NV50TexSampler *s)
{
    memset(s, 0, sizeof(*s));
    memcpy(s->w, w, sizeof(s->w));
    for (unsigned k = 0; k < 3; k++) {
        s->wrap[k] = (w[0] >> (3 * k)) & 7;
    }
    s->compare = w[0] & 0x200;
    s->compare_func = (w[0] >> 10) & 7;
    s->srgb = w[0] & 0x2000;
    s->max_aniso = aniso_ratio(w[0] >> NV50_TSC_0_MAX_ANISOTROPY_SHIFT);
    s->mag = w[1] & 3;
    s->min = (w[1] >> 4) & 3;
    s->mip = (w[1] >> 6) & 3;
    s->lod_bias = lod_fixed((w[1] >> 12) & 0x1fff, 13, true);
    s->min_lod = lod_fixed(w[2] & 0xfff, 12, false);
    s->max_lod = lod_fixed((w[2] >> 12) & 0xfff, 12, false);
    for (unsigned k = 0; k < 4; k++) {
        s->border_bits[k] = w[4 + k];
        s->border[k] = bits_to_f32(w[4 + k]);
    }
    s->srgb_border[0] = nv50_srgb_to_linear((w[2] >> 24) / 255.0f);
    s->srgb_border[1] = nv50_srgb_to_linear(((w[3] >> 12) & 0xff) / 255.0f);
    s->srgb_border[2] = nv50_srgb_to_linear(((w[3] >> 20) & 0xff) / 255.0f);
}
