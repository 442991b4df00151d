/*
 * The ROP's colour side (CROP): blending (every factor and equation,
 * per-RT enables, GT215 IBLEND, the blend colour), logic ops, colour
 * masks and sRGB, writing a fragment's colours to its render targets
 * sample by sample, and the plain single-sample path for a quad.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include <math.h>
#include "rop-int.h"

static float factor(unsigned f, unsigned ch, const float *s, const float *d,
                    const float *s1, const float *k)
{
    switch (f) {
    case BF_ZERO:
        return 0;
    case BF_ONE:
        return 1;
    case BF_SRC_COLOR:
        return s[ch];
    case BF_INV_SRC_COLOR:
        return 1 - s[ch];
    case BF_SRC_ALPHA:
        return s[3];
    case BF_INV_SRC_ALPHA:
        return 1 - s[3];
    case BF_DST_ALPHA:
        return d[3];
    case BF_INV_DST_ALPHA:
        return 1 - d[3];
    case BF_DST_COLOR:
        return d[ch];
    case BF_INV_DST_COLOR:
        return 1 - d[ch];
    case BF_SRC_ALPHA_SAT:
        return ch == 3 ? 1 : MIN(s[3], 1 - d[3]);
    case BF_CONST_COLOR:
        return k[ch];
    case BF_INV_CONST_COLOR:
        return 1 - k[ch];
    case BF_CONST_ALPHA:
        return k[3];
    case BF_INV_CONST_ALPHA:
        return 1 - k[3];
    case BF_SRC1_COLOR:
        return s1[ch];
    case BF_INV_SRC1_COLOR:
        return 1 - s1[ch];
    case BF_SRC1_ALPHA:
        return s1[3];
    case BF_INV_SRC1_ALPHA:
        return 1 - s1[3];
    }
    return 0;
}

static float equation(unsigned eq, float s, float sf, float d, float df)
{
    switch (eq) {
    case BE_SUB:
        return s * sf - d * df;
    case BE_REV_SUB:
        return d * df - s * sf;
    case BE_MIN:
        return MIN(s, d);
    case BE_MAX:
        return MAX(s, d);
    }
    return s * sf + d * df;
}

static void clampv(float *v, unsigned n, float lo, float hi)
{
    for (unsigned i = 0; i < n; i++) {
        v[i] = isnan(v[i]) ? 0 : MIN(MAX(v[i], lo), hi);
    }
}

static void blend(const RopBlend *b, const NV50RopFormat *f, float *s,
                  const float *src1, const float *d, const float *kc)
{
    float s1[4], k[4], out[4];

    memcpy(s1, src1, sizeof(s1));
    memcpy(k, kc, sizeof(k));
    /* fixed-point targets: inputs clamped to the format's range (GL) */
    if (f->kind == NV50_ROP_UNORM) {
        clampv(s, 4, 0, 1);
        clampv(s1, 4, 0, 1);
        clampv(k, 4, 0, 1);
    } else if (f->kind == NV50_ROP_SNORM) {
        clampv(s, 4, -1, 1);
        clampv(s1, 4, -1, 1);
        clampv(k, 4, -1, 1);
    }
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned eq = ch == 3 ? b->eq_a : b->eq_rgb;
        unsigned sfn = ch == 3 ? b->src_a : b->src_rgb;
        unsigned dfn = ch == 3 ? b->dst_a : b->dst_rgb;

        out[ch] = equation(eq, s[ch], factor(sfn, ch, s, d, s1, k), d[ch],
                           factor(dfn, ch, s, d, s1, k));
    }
    memcpy(s, out, sizeof(out));
}

static uint32_t logic(unsigned op, uint32_t s, uint32_t d)
{
    switch (op) {
    case 0x0:
        return 0;
    case 0x1:
        return s & d;
    case 0x2:
        return s & ~d;
    case 0x3:
        return s;
    case 0x4:
        return ~s & d;
    case 0x5:
        return d;
    case 0x6:
        return s ^ d;
    case 0x7:
        return s | d;
    case 0x8:
        return ~(s | d);
    case 0x9:
        return ~(s ^ d);
    case 0xa:
        return ~d;
    case 0xb:
        return s | ~d;
    case 0xc:
        return ~s;
    case 0xd:
        return ~s | d;
    case 0xe:
        return ~(s & d);
    }
    return ~0u;
}

/* @col into sample (xs, ys) of plain_unorm8 RT @i (in its bounds) */
static void rt_write_plain(NV50Rop *r, unsigned i, uint32_t xs, uint32_t ys,
                           const float *col)
{
    float c[4];

    if (r->alpha_to_one) {
        memcpy(c, col, sizeof(c));
        c[3] = 1;
        col = c;
    }
    rop_elem_put32(r, &r->surf[i], xs, ys, nv50_rop_unorm8x4(r->rt[i].fmt,
                                                            col));
}

/* Blend/logic-op @col into sample (xs, ys) of RT @i through its mask. */
static void rt_write(NV50Rop *r, unsigned i, uint32_t xs, uint32_t ys,
                     const float *col, const float *col1)
{
    RopRt *t = &r->rt[i];
    RopSurf *s = &r->surf[i];
    const NV50RopFormat *f = t->fmt;
    bool ints = f->kind == NV50_ROP_SINT || f->kind == NV50_ROP_UINT;
    bool do_logic = r->logic && f->kind != NV50_ROP_FLOAT;
    bool do_blend = t->blend.enable && !ints && !r->logic;
    uint32_t raw[4], old[4] = { 0 };
    uint8_t e[16];
    float c[4];

    if (xs >= s->width || ys >= s->height) {
        return;
    }
    if (t->plain_unorm8) {
        rt_write_plain(r, i, xs, ys, col);
        return;
    }
    memcpy(c, col, sizeof(c));
    if (do_blend || do_logic || t->mask != 0xf) {
        if (!rop_elem_rw(r, s, xs, ys, e, false)) {
            return;
        }
        nv50_rop_unpack(f, e, old);
    }
    if (!ints) {
        if (t->clamp) {
            clampv(c, 4, 0, 1);
        }
        if (r->alpha_to_one) {
            c[3] = 1;
        }
        if (do_blend) {
            float d[4];

            nv50_rop_decode(f, old, d);
            blend(&t->blend, f, c, col1, d, r->blend_color);
        }
    }
    nv50_rop_encode(f, c, raw);
    for (unsigned ch = 0; ch < f->nch; ch++) {
        unsigned comp = f->comp[ch];
        unsigned bit = comp == NV50_ROP_X ? 8 : 1u << comp;

        if (do_logic) {
            raw[ch] = logic(r->logic_op, raw[ch], old[ch]) &
                      nv50_rop_ch_mask(f, ch);
        }
        /* UNVERIFIED: padding channels follow the alpha mask */
        if (!(t->mask & bit)) {
            raw[ch] = old[ch];
        }
    }
    nv50_rop_pack(f, raw, e);
    rop_elem_rw(r, s, xs, ys, e, true);
}

void nv50_rop_write(NV50Rop *r, int x, int y, unsigned sample,
                    const float color[NV50_PIPE_RTS][4])
{
    uint32_t smask;

    if (!r || x < r->x0 || y < r->y0 || x >= r->x1 || y >= r->y1) {
        return;
    }
    if (r->plain_rt >= 0 && sample == 0) {
        /* what the loops below come to for it */
        if ((uint32_t)x < r->surf[r->plain_rt].width &&
            (uint32_t)y < r->surf[r->plain_rt].height) {
            rt_write_plain(r, r->plain_rt, x, y, color[0]);
        }
        return;
    }
    if (!rop_cliprect_pass(r, x, y)) {
        return;
    }
    if (r->ms_raster || r->ms.samples == 1) {
        if (!rop_sample_enabled(r, sample)) {
            return;
        }
        smask = 1u << sample;
    } else {
        /* broadcast: the samples zs_test let through (or all) */
        smask = (x == r->last_x && y == r->last_y)
                ? r->last_pass : r->sample_mask;
    }
    for (unsigned o = 0; o < r->rt_count; o++) {
        unsigned i = r->rt_map[o];

        if (!r->surf[i].on || !r->rt[i].fmt || !r->rt[i].mask) {
            continue;
        }
        for (unsigned s = 0; s < r->ms.samples; s++) {
            unsigned sx, sy;

            if (!(smask >> s & 1)) {
                continue;
            }
            nv50_msaa_xy(&r->ms, s, &sx, &sy);
            /* UNVERIFIED: dual-source blending's second colour is o 1 */
            rt_write(r, i, (uint32_t)x << r->ms.ms_x | sx,
                     (uint32_t)y << r->ms.ms_y | sy, color[o], color[1]);
        }
    }
}

bool nv50_rop_quad_plain(const NV50Rop *r)
{
    return r && r->plain_rt >= 0;
}

void nv50_rop_write_quad(NV50Rop *r, int x, int y, unsigned mask,
                         const float col[4][4])
{
    RopSurf *s = &r->surf[r->plain_rt];
    /* nv50_rop_write's bounds, then rt_write's (sizes <= ROP_MAX_DIM) */
    int xe = MIN(r->x1, (int)s->width), ye = MIN(r->y1, (int)s->height);
    unsigned in = 0;
    uint32_t w[4];

    if (x >= r->x0 && y >= r->y0 && x + 1 < xe && y + 1 < ye) {
        in = mask & 0xf;        /* the whole quad is inside */
    }
    for (unsigned i = 0; i < 4 && in != (mask & 0xf); i++) {
        int px = x + (i & 1), py = y + (i >> 1);

        if ((mask & (1u << i)) && px >= r->x0 && py >= r->y0 &&
            px < xe && py < ye) {
            in |= 1u << i;
        }
    }
    if (!in) {
        return;
    }
    if (r->alpha_to_one) {
        for (unsigned i = 0; i < 4; i++) {
            if (in & (1u << i)) {
                rt_write_plain(r, r->plain_rt, x + (i & 1), y + (i >> 1),
                               col[i]);
            }
        }
        return;
    }
    /* rt_write_plain's words, four at once; a row's two in one store */
    nv50_rop_unorm8x4_quad(r->rt[r->plain_rt].fmt, col, w);
    if (in == 0xf && rop_elem_put32x2x2(r, s, x, y, w)) {
        return;
    }
    for (unsigned row = 0; row < 2; row++) {
        unsigned pair = in >> (2 * row) & 3;

        if (pair == 3 && rop_elem_put32x2(r, s, x, y + row, w + 2 * row)) {
            continue;
        }
        for (unsigned i = 0; i < 2; i++) {
            if (pair & (1u << i)) {
                rop_elem_put32(r, s, x + i, y + row, w[2 * row + i]);
            }
        }
    }
}

