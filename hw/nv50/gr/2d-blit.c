/*
 * G80_2D BLIT (pixels from memory, BLIT_* 0x88c-0x8dc): the source
 * rectangle sampled point or bilinear at 32.32 steps, drawn through the
 * span pipeline of 2d-draw.c (whose header lists the UNVERIFIED
 * choices: sample positions, source bounds, overlap).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/gr/2d.h"

typedef __int128 i128;

/* Do two targets share memory? */
static bool targets_overlap(const NV502dTarget *a, const NV502dTarget *b)
{
    uint64_t as, ae, bs, be;

    if (a->dma->target != b->dma->target) {
        return false;
    }
    as = a->dma->start + a->base;
    bs = b->dma->start + b->base;
    ae = as + nv50_surface_size(&a->sf) + NV50_GOB_SIZE;
    be = bs + nv50_surface_size(&b->sf) + NV50_GOB_SIZE;
    return as < be && bs < ae;
}

typedef struct NV502dSource {
    NV502dTarget t;
    uint8_t *pre;               /* prefetched rows, or NULL */
    int64_t pre_x0, pre_y0, pre_w;
} NV502dSource;

static bool source_row(NV50GrCall *c, NV502dSource *s, int64_t y,
                       int64_t x0, int64_t n, uint8_t *buf)
{
    unsigned b = s->t.fmt->bpp;

    if (s->pre) {
        memcpy(buf, s->pre + ((y - s->pre_y0) * s->pre_w + (x0 - s->pre_x0))
               * b, n * b);
        return true;
    }
    return nv502d_target_rw(c, &s->t, x0, y, buf, n, false);
}

void nv502d_blit(NV50GrCall *c, NV502dState *st)
{
    NV502dDraw dr;
    NV502dSource src = { 0 };
    bool center = !(st->blit_control & 1);
    bool bilinear = st->blit_control & 0x10;
    int64_t du = nv502d_fix32(st->blit_du_dx_int, st->blit_du_dx_fract);
    int64_t dv = nv502d_fix32(st->blit_dv_dy_int, st->blit_dv_dy_fract);
    int64_t sx = nv502d_fix32(st->blit_src_x_int, st->blit_src_x_fract);
    int64_t sy = nv502d_fix32(st->blit_src_y_int, st->blit_src_y_fract);
    int64_t x0, x1, y0, y1, n, i, k, y;
    int64_t txmin, txmax, tymin, tymax;
    int64_t *tx = NULL, *ty = NULL;
    uint8_t *seg = NULL, *seg2 = NULL, *sbuf = NULL;
    unsigned sb;
    bool overlap, rows_up = false, contiguous;

    if (!nv502d_draw_begin(c, st, st->src.format, "SRC_FORMAT", &dr)) {
        return;
    }
    if (!nv502d_target_resolve(c, st, true, &src.t)) {
        goto out;
    }
    sb = src.t.fmt->bpp;
    x0 = MAX((int64_t)st->blit_dst_x, dr.cx0);
    x1 = MIN((int64_t)st->blit_dst_x + st->blit_dst_w, dr.cx1);
    y0 = MAX((int64_t)st->blit_dst_y, dr.cy0);
    y1 = MIN((int64_t)st->blit_dst_y + st->blit_dst_h, dr.cy1);
    if (x0 >= x1 || y0 >= y1) {
        goto out;
    }
    n = x1 - x0;
    /*
     * Sample positions in 32.33 fixed point (the half pixel of CENTER
     * kept exact); bilinear moves them half a texel back to the texel
     * grid.
     */
    tx = g_new(int64_t, n * 2);
    ty = g_new(int64_t, (y1 - y0) * 2);
    for (i = 0; i < n; i++) {
        i128 p = (i128)sx * 2 +
                 (i128)(2 * (x0 + i - st->blit_dst_x) + center) * du;

        if (bilinear) {
            p -= (i128)1 << 32;
            tx[2 * i] = nv502d_floor_shift(p, 33);
            tx[2 * i + 1] = (int64_t)(p - ((i128)tx[2 * i] << 33));
        } else {
            tx[2 * i] = nv502d_floor_shift(p, 33);
        }
    }
    for (i = 0; i < y1 - y0; i++) {
        i128 p = (i128)sy * 2 +
                 (i128)(2 * (y0 + i - st->blit_dst_y) + center) * dv;

        if (bilinear) {
            p -= (i128)1 << 32;
            ty[2 * i] = nv502d_floor_shift(p, 33);
            ty[2 * i + 1] = (int64_t)(p - ((i128)ty[2 * i] << 33));
        } else {
            ty[2 * i] = nv502d_floor_shift(p, 33);
        }
    }
    txmin = txmax = tx[0];
    for (i = 0; i < n; i++) {
        txmin = MIN(txmin, tx[2 * i]);
        txmax = MAX(txmax, tx[2 * i] + bilinear);
    }
    tymin = tymax = ty[0];
    for (i = 0; i < y1 - y0; i++) {
        tymin = MIN(tymin, ty[2 * i]);
        tymax = MAX(tymax, ty[2 * i] + bilinear);
    }
    if (bilinear) {
        txmin = MAX(txmin, 0);
        tymin = MAX(tymin, 0);
        txmax = MIN(txmax, (int64_t)src.t.width - 1);
        tymax = MIN(tymax, (int64_t)src.t.height - 1);
    }
    if (txmin < 0 || tymin < 0 || txmax >= src.t.width ||
        tymax >= src.t.height || txmin > txmax || tymin > tymax) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: BLIT reads outside the %ux%u source "
                      "(texels %" PRId64 "..%" PRId64 " x %" PRId64 "..%"
                      PRId64 ")", src.t.width, src.t.height, txmin, txmax,
                      tymin, tymax);
        goto out;
    }
    contiguous = !bilinear && du == (int64_t)1 << 32;
    overlap = targets_overlap(&src.t, &dr.dst);
    if (overlap && contiguous && dv == (int64_t)1 << 32 &&
        src.t.base == dr.dst.base && src.t.fmt == dr.dst.fmt &&
        !memcmp(&src.t.sf, &dr.dst.sf, sizeof(src.t.sf)) &&
        src.t.layer == dr.dst.layer) {
        /* the same surface, unscaled: walk rows away from the overlap */
        rows_up = ty[0] < y0;
    } else if (overlap) {
        uint64_t bytes = (uint64_t)(txmax - txmin + 1) *
                         (tymax - tymin + 1) * sb;

        if (bytes <= (256u << 20)) {
            src.pre = g_malloc(bytes);
            src.pre_x0 = txmin;
            src.pre_y0 = tymin;
            src.pre_w = txmax - txmin + 1;
            for (k = tymin; k <= tymax; k++) {
                if (!nv502d_target_rw(c, &src.t, txmin, k, src.pre +
                               (k - tymin) * src.pre_w * sb, src.pre_w,
                               false)) {
                    goto out;
                }
            }
        }
    }
    seg = g_malloc((txmax - txmin + 2) * sb);
    seg2 = g_malloc((txmax - txmin + 2) * sb);
    sbuf = g_malloc(n * sb);
    dr.sfmt = src.t.fmt;
    for (k = 0; k < y1 - y0; k++) {
        int64_t r = rows_up ? y1 - y0 - 1 - k : k;
        int64_t t0 = ty[2 * r];

        y = y0 + r;
        if (contiguous) {
            if (!source_row(c, &src, t0, tx[0], n, sbuf)) {
                goto out;
            }
        } else if (!bilinear) {
            if (!source_row(c, &src, t0, txmin, txmax - txmin + 1, seg)) {
                goto out;
            }
            for (i = 0; i < n; i++) {
                memcpy(sbuf + i * sb, seg + (tx[2 * i] - txmin) * sb, sb);
            }
        } else {
            int64_t ta = MAX(MIN(t0, tymax), tymin);
            int64_t tb = MAX(MIN(t0 + 1, tymax), tymin);
            double fy = ty[2 * r + 1] / 8589934592.0;

            if (!source_row(c, &src, ta, txmin, txmax - txmin + 1, seg) ||
                !source_row(c, &src, tb, txmin, txmax - txmin + 1, seg2)) {
                goto out;
            }
            for (i = 0; i < n; i++) {
                int64_t ua = MAX(MIN(tx[2 * i], txmax), txmin) - txmin;
                int64_t ub = MAX(MIN(tx[2 * i] + 1, txmax), txmin) - txmin;
                double fx = tx[2 * i + 1] / 8589934592.0;
                NV502dColor c00, c01, c10, c11, o;
                int ch;

                nv502d_unpack(src.t.fmt, seg + ua * sb, &c00);
                nv502d_unpack(src.t.fmt, seg + ub * sb, &c01);
                nv502d_unpack(src.t.fmt, seg2 + ua * sb, &c10);
                nv502d_unpack(src.t.fmt, seg2 + ub * sb, &c11);
                for (ch = 0; ch < 4; ch++) {
                    double top = c00.c[ch] + (c01.c[ch] - c00.c[ch]) * fx;
                    double bot = c10.c[ch] + (c11.c[ch] - c10.c[ch]) * fx;

                    o.c[ch] = top + (bot - top) * fy;
                }
                nv502d_pack(src.t.fmt, &o, sbuf + i * sb);
            }
        }
        if (!nv502d_draw_span(&dr, x0, y, n, sbuf, NULL)) {
            goto out;
        }
    }
out:
    g_free(tx);
    g_free(ty);
    g_free(seg);
    g_free(seg2);
    g_free(sbuf);
    g_free(src.pre);
    nv502d_draw_end(&dr);
}
