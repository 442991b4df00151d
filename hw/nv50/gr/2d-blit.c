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

/* A blit under way: the destination span, where it samples, buffers. */
typedef struct NV502dBlit {
    NV502dDraw dr;
    NV502dSource src;
    bool bilinear;
    bool contiguous;            /* point sampled at unit step in x */
    bool rows_up;               /* walk the rows bottom to top */
    int64_t x0, y0, n, rows;    /* the clipped destination */
    /*
     * Per column / row: the texel, and with bilinear the fraction
     * (32.33) at [2 * i + 1].
     */
    int64_t *tx, *ty;
    int64_t txmin, txmax, tymin, tymax;     /* the texels read */
    uint8_t *seg, *seg2;        /* source rows, txmin..txmax */
    uint8_t *sbuf;              /* the span drawn */
} NV502dBlit;

/*
 * Sample positions of @n destination pixels from @first on (relative to
 * BLIT_DST_X/Y), source start @start and step @d (32.32), in 32.33
 * fixed point (the half step of CENTER, |d| / 2, kept exact; 2d-draw.c
 * says why it is |d|); bilinear moves them half a texel back to the
 * texel grid.
 */
static void sample_positions(int64_t *t, int64_t n, int64_t first,
                             int64_t start, int64_t d, bool center,
                             bool bilinear)
{
    int64_t i;

    for (i = 0; i < n; i++) {
        i128 p = (i128)start * 2 + (i128)(2 * (first + i)) * d +
                 (center ? (i128)(d < 0 ? -d : d) : 0);

        if (bilinear) {
            p -= (i128)1 << 32;
            t[2 * i] = nv502d_floor_shift(p, 33);
            t[2 * i + 1] = (int64_t)(p - ((i128)t[2 * i] << 33));
        } else {
            t[2 * i] = nv502d_floor_shift(p, 33);
        }
    }
}

/* The texels the @n positions @t read (bilinear: the next one too). */
static void texel_range(const int64_t *t, int64_t n, bool bilinear,
                        int64_t *min, int64_t *max)
{
    int64_t i;

    *min = *max = t[0];
    for (i = 0; i < n; i++) {
        *min = MIN(*min, t[2 * i]);
        *max = MAX(*max, t[2 * i] + bilinear);
    }
}

/*
 * Clip the destination, place the samples and check that they stay in
 * the source; false if there is nothing to draw (the error raised, if
 * any).
 */
static bool blit_setup(NV50GrCall *c, NV502dState *st, NV502dBlit *b)
{
    NV502dDraw *dr = &b->dr;
    const NV502dTarget *t = &b->src.t;
    bool center = !(st->blit_control & 1);
    int64_t x1, y1;

    b->bilinear = st->blit_control & 0x10;
    b->x0 = MAX((int64_t)st->blit_dst_x, dr->cx0);
    x1 = MIN((int64_t)st->blit_dst_x + st->blit_dst_w, dr->cx1);
    b->y0 = MAX((int64_t)st->blit_dst_y, dr->cy0);
    y1 = MIN((int64_t)st->blit_dst_y + st->blit_dst_h, dr->cy1);
    if (b->x0 >= x1 || b->y0 >= y1) {
        return false;
    }
    b->n = x1 - b->x0;
    b->rows = y1 - b->y0;
    b->tx = g_new(int64_t, b->n * 2);
    b->ty = g_new(int64_t, b->rows * 2);
    sample_positions(b->tx, b->n, b->x0 - st->blit_dst_x,
                     nv502d_fix32(st->blit_src_x_int, st->blit_src_x_fract),
                     nv502d_fix32(st->blit_du_dx_int, st->blit_du_dx_fract),
                     center, b->bilinear);
    sample_positions(b->ty, b->rows, b->y0 - st->blit_dst_y,
                     nv502d_fix32(st->blit_src_y_int, st->blit_src_y_fract),
                     nv502d_fix32(st->blit_dv_dy_int, st->blit_dv_dy_fract),
                     center, b->bilinear);
    texel_range(b->tx, b->n, b->bilinear, &b->txmin, &b->txmax);
    texel_range(b->ty, b->rows, b->bilinear, &b->tymin, &b->tymax);
    if (b->bilinear) {
        b->txmin = MAX(b->txmin, 0);
        b->tymin = MAX(b->tymin, 0);
        b->txmax = MIN(b->txmax, (int64_t)t->width - 1);
        b->tymax = MIN(b->tymax, (int64_t)t->height - 1);
    }
    if (b->txmin < 0 || b->tymin < 0 || b->txmax >= t->width ||
        b->tymax >= t->height || b->txmin > b->txmax ||
        b->tymin > b->tymax) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: BLIT reads outside the %ux%u source "
                      "(texels %" PRId64 "..%" PRId64 " x %" PRId64 "..%"
                      PRId64 ")", t->width, t->height, b->txmin, b->txmax,
                      b->tymin, b->tymax);
        return false;
    }
    return true;
}

/*
 * If the source and the destination share memory: the same surface
 * unscaled walks its rows away from the overlap, anything else reads
 * the source first (up to 256 MiB).  False on a read fault.
 */
static bool blit_overlap(NV50GrCall *c, NV502dState *st, NV502dBlit *b)
{
    NV502dSource *src = &b->src;
    const NV502dTarget *d = &b->dr.dst;
    unsigned sb = src->t.fmt->bpp;
    int64_t dv = nv502d_fix32(st->blit_dv_dy_int, st->blit_dv_dy_fract);
    uint64_t bytes;
    int64_t k;

    if (!targets_overlap(&src->t, d)) {
        return true;
    }
    if (b->contiguous && dv == (int64_t)1 << 32 &&
        src->t.base == d->base && src->t.fmt == d->fmt &&
        !memcmp(&src->t.sf, &d->sf, sizeof(src->t.sf)) &&
        src->t.layer == d->layer) {
        b->rows_up = b->ty[0] < b->y0;
        return true;
    }
    bytes = (uint64_t)(b->txmax - b->txmin + 1) *
            (b->tymax - b->tymin + 1) * sb;
    if (bytes > (256u << 20)) {
        return true;
    }
    src->pre = g_malloc(bytes);
    src->pre_x0 = b->txmin;
    src->pre_y0 = b->tymin;
    src->pre_w = b->txmax - b->txmin + 1;
    for (k = b->tymin; k <= b->tymax; k++) {
        if (!nv502d_target_rw(c, &src->t, b->txmin, k, src->pre +
                              (k - b->tymin) * src->pre_w * sb, src->pre_w,
                              false)) {
            return false;
        }
    }
    return true;
}

/* Destination row @r's span, bilinear: blend the rows around it. */
static bool blit_row_bilinear(NV50GrCall *c, NV502dBlit *b, int64_t r)
{
    const NV502dFormat *f = b->src.t.fmt;
    unsigned sb = f->bpp;
    int64_t t0 = b->ty[2 * r], w = b->txmax - b->txmin + 1, i;
    int64_t ta = MAX(MIN(t0, b->tymax), b->tymin);
    int64_t tb = MAX(MIN(t0 + 1, b->tymax), b->tymin);
    double fy = b->ty[2 * r + 1] / 8589934592.0;

    if (!source_row(c, &b->src, ta, b->txmin, w, b->seg) ||
        !source_row(c, &b->src, tb, b->txmin, w, b->seg2)) {
        return false;
    }
    for (i = 0; i < b->n; i++) {
        int64_t ua = MAX(MIN(b->tx[2 * i], b->txmax), b->txmin) - b->txmin;
        int64_t ub = MAX(MIN(b->tx[2 * i] + 1, b->txmax), b->txmin) -
                     b->txmin;
        double fx = b->tx[2 * i + 1] / 8589934592.0;
        NV502dColor c00, c01, c10, c11, o;
        int ch;

        nv502d_unpack(f, b->seg + ua * sb, &c00);
        nv502d_unpack(f, b->seg + ub * sb, &c01);
        nv502d_unpack(f, b->seg2 + ua * sb, &c10);
        nv502d_unpack(f, b->seg2 + ub * sb, &c11);
        for (ch = 0; ch < 4; ch++) {
            double top = c00.c[ch] + (c01.c[ch] - c00.c[ch]) * fx;
            double bot = c10.c[ch] + (c11.c[ch] - c10.c[ch]) * fx;

            o.c[ch] = top + (bot - top) * fy;
        }
        nv502d_pack(f, &o, b->sbuf + i * sb);
    }
    return true;
}

/* Destination row @r's span into b->sbuf; false on a read fault. */
static bool blit_row(NV50GrCall *c, NV502dBlit *b, int64_t r)
{
    unsigned sb = b->src.t.fmt->bpp;
    int64_t t0 = b->ty[2 * r], i;

    if (b->contiguous) {
        return source_row(c, &b->src, t0, b->tx[0], b->n, b->sbuf);
    }
    if (b->bilinear) {
        return blit_row_bilinear(c, b, r);
    }
    if (!source_row(c, &b->src, t0, b->txmin, b->txmax - b->txmin + 1,
                    b->seg)) {
        return false;
    }
    for (i = 0; i < b->n; i++) {
        memcpy(b->sbuf + i * sb, b->seg + (b->tx[2 * i] - b->txmin) * sb,
               sb);
    }
    return true;
}

void nv502d_blit(NV50GrCall *c, NV502dState *st)
{
    NV502dBlit b = { 0 };
    int64_t du = nv502d_fix32(st->blit_du_dx_int, st->blit_du_dx_fract);
    unsigned sb;
    int64_t k;

    if (!nv502d_draw_begin(c, st, st->src.format, "SRC_FORMAT", &b.dr)) {
        return;
    }
    if (!nv502d_target_resolve(c, st, true, &b.src.t) ||
        !blit_setup(c, st, &b)) {
        goto out;
    }
    b.contiguous = !b.bilinear && du == (int64_t)1 << 32;
    if (!blit_overlap(c, st, &b)) {
        goto out;
    }
    sb = b.src.t.fmt->bpp;
    b.seg = g_malloc((b.txmax - b.txmin + 2) * sb);
    b.seg2 = g_malloc((b.txmax - b.txmin + 2) * sb);
    b.sbuf = g_malloc(b.n * sb);
    b.dr.sfmt = b.src.t.fmt;
    for (k = 0; k < b.rows; k++) {
        int64_t r = b.rows_up ? b.rows - 1 - k : k;

        if (!blit_row(c, &b, r) ||
            !nv502d_draw_span(&b.dr, b.x0, b.y0 + r, b.n, b.sbuf, NULL)) {
            break;
        }
    }
out:
    g_free(b.tx);
    g_free(b.ty);
    g_free(b.seg);
    g_free(b.seg2);
    g_free(b.sbuf);
    g_free(b.src.pre);
    nv502d_draw_end(&b.dr);
}
