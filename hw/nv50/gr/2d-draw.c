/*
 * G80_2D drawing: the destination and source surfaces, the per-pixel
 * operation, and solid primitives here; the other two sources in
 * 2d-blit.c (BLIT from memory) and 2d-sifc.c (SIFC from the
 * pushbuffer), which draw through nv502d_draw_span().  The methods that
 * set the state are in 2d.c; formats and ROPs in 2d-pixel.c.  The facts
 * and UNVERIFIED choices below are for all three.
 *
 * Everything is done a row span at a time: the source pixels of the
 * span are made (in the source's format), the destination span is read
 * only if the operation needs it, and the result is written back with
 * one nv50_gr_rw() per contiguous run (pitch: the whole span;
 * block-linear: up to the end of each GOB row).
 *
 * Facts (envytools docs/hw/graph/2d/ (intro, pattern, solid), rnndb graph/g80_2d.xml,
 * Linux 6.1 nv50_fbcon.c):
 * - ROP(D, S, P) bit = ROP >> (D | S << 1 | P << 2) & 1; 0x55 is NOT D
 *   (fbcon's cursor), 0xcc S.
 * - Pattern: 8x8 colour, or a two-colour bitmap 8x8 / 64x1 / 1x64,
 *   coordinates = destination x, y + PATTERN_OFFSET; a CGA6 bitmap has
 *   its bits reversed in each byte.
 * - Solid rectangles cover [x0, x1) x [y0, y1) (fbcon passes dx + width
 *   as x1); points are 1x1 rectangles; lines are "lins" (the last pixel
 *   not drawn) by the doc's Bresenham variant; triangles include top
 *   and left edges (the doc's half-plane rules).
 * - SIFC I1: COLOR0/COLOR1 for 0/1 bits, 0 bits left alone when
 *   WRITE_BIT0_ENABLE (MONO_OPACITY) is 0; CGA6_M1 = the first pixel in
 *   bit 7 of each byte, LE_M1 in bit 0; bytes in little-endian word
 *   order; ALIGN_BYTE / ALIGN_WORD start each row on a byte / word
 *   (fbcon: ALIGN_BYTE, ceil(align8(w) * h / 32) words).
 *
 * UNVERIFIED choices (no hardware to check against):
 * - Every primitive is clipped to the destination surface (the canvas,
 *   as the NV1-era rasterization rules in solid.rst have it) and to
 *   the CLIP rectangle when CLIP_ENABLE is set; nothing outside the
 *   surface is an error.  A BLIT whose point samples fall outside the
 *   source surface is DATA_ERROR INVALID_VALUE and draws nothing
 *   (bilinear samples are clamped to the edge instead).
 * - The *_AND operations discard a pixel whose SOURCE alpha is 0 (a
 *   format without alpha has alpha 1); the rnndb doc of ROP_AND says
 *   "R.A", intro.rst calls SRCCOPY_AND "source copy with 0-alpha
 *   discard".  ROPs work on the destination format's bits, the source
 *   and pattern converted to it first.
 * - BETA1 is bits 30:23 / 255, BETA4's channels / 255.
 * - Y (index) formats convert only to themselves: a solid colour, SIFC
 *   or BLIT source of another kind than the destination raises
 *   ENG2D_FORMAT_MISMATCH.
 * - BLIT: ORIGIN CENTER samples at SRC + i * DU_DX + |DU_DX| / 2,
 *   CORNER at SRC + i * DU_DX; point sampling takes the texel the sample
 *   is in, BILINEAR the four around it.  The half step goes the
 *   positive way whatever the sign of DU_DX: a mirrored copy (Mesa's
 *   Y-flipped blits, e.g. glReadPixels of a window surface) starts at
 *   SRC = the last texel (Mesa's nv50_blit_eng2d subtracts 1 from a
 *   negative-size box for that), as (i + 0.5) * DU_DX would read one
 *   texel too low and past the first row.  SIFC pixels cover the destination
 *   pixels whose centres fall in [DST + u * DX_DU, DST + (u+1) * DX_DU).
 * - Overlapping source and destination always behave as a memmove (as
 *   with SAFE_OVERLAP): rows are walked away from the overlap, or the
 *   source is read first when scaled or laid out differently.
 * - Vertices are taken in the order they arrive, whatever the index of
 *   DRAW_POINT32_X/Y (a vertex is complete at its Y); DRAW_SHAPE starts
 *   over.  A line strip goes on until DRAW_SHAPE is written again.
 * - SIFC data words after the image is complete are dropped (logged
 *   once); the image starts over when any SIFC method is written.
 *   Colour (non-bitmap) rows are packed, whatever LINE_PACK_MODE.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/gr/2d.h"

#include <math.h>

typedef __int128 i128;

bool nv502d_target_resolve(NV50GrCall *c, NV502dState *st, bool is_src,
                           NV502dTarget *t)
{
    const NV502dSurfRegs *r = is_src ? &st->src : &st->dst;
    const char *what = is_src ? "SRC" : "DST";

    memset(t, 0, sizeof(*t));
    t->fmt = nv502d_format(r->format);
    if (!t->fmt) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "G80_2D: %s_FORMAT 0x%x is not a 2D format", what,
                      r->format);
        return false;
    }
    if (!(is_src ? st->dma_src_ok : st->dma_dst_ok)) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_OBJECT,
                      "G80_2D: no DMA_%s context DMA bound", what);
        return false;
    }
    t->dma = is_src ? &st->dma_src : &st->dma_dst;
    if (r->width > 0x10000 || r->height > 0x10000) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: %s_WIDTH/HEIGHT %ux%u above 65536", what,
                      r->width, r->height);
        return false;
    }
    t->width = r->width;
    t->height = r->height;
    t->base = (uint64_t)(r->address_high & 0xff) << 32 | r->address_low;
    if (r->linear) {
        if (!r->pitch) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "G80_2D: %s_PITCH is 0", what);
            return false;
        }
        t->sf.block_linear = false;
        t->sf.pitch = r->pitch;
        t->sf.width_bytes = r->width * t->fmt->bpp;
        t->sf.height = r->height;
        t->sf.depth = 1;
    } else {
        uint32_t bd = r->block_dimensions;
        unsigned bw = bd & 0xf, bh = (bd >> 4) & 0xf, bdd = (bd >> 8) & 0xf;

        /* Tesla: GOB_HEIGHT TESLA_4, blocks 1 GOB wide (rnndb max) */
        if (bw > 1 || bh > 5 || bdd > 5 || ((bd >> 12) & 0xf)) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "G80_2D: bad %s_BLOCK_DIMENSIONS 0x%x", what, bd);
            return false;
        }
        t->sf.block_linear = true;
        t->sf.width_bytes = r->width * t->fmt->bpp;
        t->sf.height = r->height;
        t->sf.depth = r->depth ? r->depth : 1;
        t->sf.block_w = bw;
        t->sf.block_h = bh;
        t->sf.block_d = bdd;
        if (r->layer >= t->sf.depth) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "G80_2D: %s_LAYER %u not below %s_DEPTH %u", what,
                          r->layer, what, t->sf.depth);
            return false;
        }
        t->layer = r->layer;
    }
    return true;
}

/* Read or write @n elements from (@x, @y) of @t, run by run. */
bool nv502d_target_rw(NV50GrCall *c, const NV502dTarget *t, uint32_t x,
                      uint32_t y, uint8_t *buf, uint32_t n, bool is_write)
{
    uint64_t xb = (uint64_t)x * t->fmt->bpp;
    uint64_t len = (uint64_t)n * t->fmt->bpp;

    while (len) {
        uint64_t off = nv50_surface_offset(&t->sf, xb, y, t->layer);
        uint64_t run = nv50_surface_run(&t->sf, xb, y, t->layer);

        if (run > len) {
            run = len;
        }
        if (!nv50_gr_rw(c, t->dma, t->base + off, buf, run, is_write,
                        NV50_VM_CLIENT_PROP, NV502D_VM_SUBCLIENT,
                        NV50_GR_TRAP_PROP)) {
            return false;
        }
        buf += run;
        xb += run;
        len -= run;
    }
    return true;
}

/* A pattern colour register in PATTERN_COLOR_FORMAT as a colour. */
static void pattern_bitmap_color(const NV502dState *st, uint32_t v,
                                 NV502dColor *col)
{
    uint8_t lo[2] = { v, v >> 8 };

    switch (st->pattern_color_format) {
    case 0:     /* A16R5G6B5 (cl502d A8X8R5G6B5): alpha 31:24 */
        nv502d_unpack(nv502d_format(0xe8), lo, col);
        col->c[3] = (v >> 24) / 255.0;
        break;
    case 1:     /* X16A1R5G5B5 */
        nv502d_unpack(nv502d_format(0xe9), lo, col);
        break;
    case 3:     /* X16A8Y8 */
        col->c[0] = col->c[1] = col->c[2] = (v & 0xff) / 255.0;
        col->c[3] = ((v >> 8) & 0xff) / 255.0;
        break;
    case 4:     /* A8X8Y16 */
        col->c[0] = col->c[1] = col->c[2] = (v & 0xffff) / 65535.0;
        col->c[3] = (v >> 24) / 255.0;
        break;
    case 5:     /* Y32 */
        col->c[0] = col->c[1] = col->c[2] = v / 4294967295.0;
        col->c[3] = 1.0;
        break;
    default:    /* 2: A8R8G8B8 */
        col->c[2] = (v & 0xff) / 255.0;
        col->c[1] = ((v >> 8) & 0xff) / 255.0;
        col->c[0] = ((v >> 16) & 0xff) / 255.0;
        col->c[3] = (v >> 24) / 255.0;
        break;
    }
}

static uint32_t bitrev_bytes(uint32_t v)
{
    v = (v & 0xaaaaaaaau) >> 1 | (v & 0x55555555u) << 1;
    v = (v & 0xccccccccu) >> 2 | (v & 0x33333333u) << 2;
    return (v & 0xf0f0f0f0u) >> 4 | (v & 0x0f0f0f0fu) << 4;
}

/* The 64 pattern cells in the destination format. */
static void pattern_prepare(NV502dDraw *dr)
{
    const NV502dState *st = dr->st;
    const NV502dFormat *df = dr->dst.fmt;
    NV502dColor col;
    int i;

    if (st->pattern_select == NV502D_PAT_COLOR) {
        const NV502dFormat *xrgb = nv502d_format(0xe6);

        for (i = 0; i < 64; i++) {
            uint8_t px[4];

            px[0] = st->pattern_color[i];
            px[1] = st->pattern_color[i] >> 8;
            px[2] = st->pattern_color[i] >> 16;
            px[3] = 0xff;
            nv502d_convert(xrgb, px, df, dr->pat + i * df->bpp, 1);
        }
        return;
    }
    {
        uint8_t c[2][NV502D_MAX_BPP];
        uint32_t bits[2] = { st->pattern_bitmap[0], st->pattern_bitmap[1] };

        for (i = 0; i < 2; i++) {
            pattern_bitmap_color(st, st->pattern_bitmap_color[i], &col);
            nv502d_pack(df, &col, c[i]);
        }
        if (st->pattern_bitmap_format == 0) {       /* CGA6 */
            bits[0] = bitrev_bytes(bits[0]);
            bits[1] = bitrev_bytes(bits[1]);
        }
        for (i = 0; i < 64; i++) {
            memcpy(dr->pat + i * df->bpp, c[(bits[i >> 5] >> (i & 31)) & 1],
                   df->bpp);
        }
    }
}

static unsigned pattern_index(const NV502dDraw *dr, int64_t x, int64_t y)
{
    uint32_t px = (uint32_t)(x + (dr->st->pattern_offset & 0x3f));
    uint32_t py = (uint32_t)(y + ((dr->st->pattern_offset >> 8) & 0x3f));

    switch (dr->st->pattern_select) {
    case NV502D_PAT_BITMAP_64X1:
        return px & 63;
    case NV502D_PAT_BITMAP_1X64:
        return py & 63;
    default:
        return (py & 7) << 3 | (px & 7);
    }
}

/*
 * Set up a draw from a source of format @sfmt_id onto the destination;
 * false (the error raised) if the state does not allow it.
 */
bool nv502d_draw_begin(NV50GrCall *c, NV502dState *st, uint32_t sfmt_id,
                       const char *src_what, NV502dDraw *dr)
{
    memset(dr, 0, sizeof(*dr));
    dr->c = c;
    dr->st = st;
    if (st->cond_mode == 0) {       /* NEVER */
        return false;
    }
    if (!nv502d_target_resolve(c, st, false, &dr->dst)) {
        return false;
    }
    dr->sfmt = nv502d_format(sfmt_id);
    if (!dr->sfmt) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "G80_2D: %s 0x%x is not a 2D format", src_what,
                      sfmt_id);
        return false;
    }
    if (dr->sfmt->is_y != dr->dst.fmt->is_y ||
        (dr->sfmt->is_y && dr->sfmt != dr->dst.fmt)) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_ENG2D_FORMAT_MISMATCH,
                      "G80_2D: %s %s cannot go to DST_FORMAT %s", src_what,
                      dr->sfmt->name, dr->dst.fmt->name);
        return false;
    }
    if (st->color_key_enable) {
        gemu_log_once(LOG_UNIMP, "nv50 G80_2D", 0x29c,
                      "nv50: G80_2D: COLOR_KEY_ENABLE not implemented "
                      "(drawing without the colour key)\n");
    }
    dr->cx0 = 0;
    dr->cy0 = 0;
    dr->cx1 = dr->dst.width;
    dr->cy1 = dr->dst.height;
    if (st->clip_enable) {
        dr->cx0 = MAX(dr->cx0, (int64_t)st->clip_x);
        dr->cy0 = MAX(dr->cy0, (int64_t)st->clip_y);
        dr->cx1 = MIN(dr->cx1, (int64_t)st->clip_x + st->clip_w);
        dr->cy1 = MIN(dr->cy1, (int64_t)st->clip_y + st->clip_h);
    }
    dr->op = st->operation;
    dr->rop = st->rop;
    switch (dr->op) {
    case NV502D_OP_ROP:
    case NV502D_OP_ROP_AND:
        dr->need_dst = ((dr->rop >> 1) ^ dr->rop) & 0x55;
        dr->need_pat = ((dr->rop >> 4) ^ dr->rop) & 0x0f;
        dr->need_dst |= dr->op == NV502D_OP_ROP_AND;
        break;
    case NV502D_OP_SRCCOPY:
    case NV502D_OP_SRCCOPY_PREMULT:
        break;
    default:
        dr->need_dst = true;
        break;
    }
    if (dr->need_pat) {
        pattern_prepare(dr);
    }
    return true;
}

void nv502d_draw_end(NV502dDraw *dr)
{
    g_free(dr->sbuf);
    g_free(dr->dbuf);
    g_free(dr->obuf);
    g_free(dr->pbuf);
}

static void draw_grow(NV502dDraw *dr, size_t n)
{
    size_t bytes;

    if (n <= dr->cap) {
        return;
    }
    dr->cap = MAX(n, dr->cap * 2);
    bytes = dr->cap * NV502D_MAX_BPP;
    dr->sbuf = g_realloc(dr->sbuf, bytes);
    dr->dbuf = g_realloc(dr->dbuf, bytes);
    dr->obuf = g_realloc(dr->obuf, bytes);
    dr->pbuf = g_realloc(dr->pbuf, bytes);
}

static void blend_pixel(const NV502dDraw *dr, const uint8_t *s,
                        const uint8_t *d, uint8_t *out)
{
    const NV502dState *st = dr->st;
    NV502dColor sc, dc, oc;
    double b4[4], f;
    int i;

    nv502d_unpack(dr->sfmt, s, &sc);
    if (dr->op != NV502D_OP_SRCCOPY_PREMULT) {
        nv502d_unpack(dr->dst.fmt, d, &dc);
    }
    b4[0] = ((st->beta4 >> 16) & 0xff) / 255.0;
    b4[1] = ((st->beta4 >> 8) & 0xff) / 255.0;
    b4[2] = (st->beta4 & 0xff) / 255.0;
    b4[3] = (st->beta4 >> 24) / 255.0;
    switch (dr->op) {
    case NV502D_OP_BLEND_AND:
        f = sc.c[3] * (((st->beta1 >> 23) & 0xff) / 255.0);
        for (i = 0; i < 4; i++) {
            oc.c[i] = (1.0 - f) * dc.c[i] + f * sc.c[i];
        }
        break;
    case NV502D_OP_SRCCOPY_PREMULT:
        for (i = 0; i < 4; i++) {
            oc.c[i] = sc.c[i] * b4[i];
        }
        break;
    default:    /* BLEND_PREMULT */
        f = sc.c[3] * b4[3];
        for (i = 0; i < 4; i++) {
            oc.c[i] = (1.0 - f) * dc.c[i] + sc.c[i] * b4[i];
        }
        break;
    }
    nv502d_pack(dr->dst.fmt, &oc, out);
}

/*
 * Draw the @n source pixels @src (in dr->sfmt) at (@x, @y) on; @mask,
 * if not NULL, says which of them are drawn.  Clipped here.
 */
bool nv502d_draw_span(NV502dDraw *dr, int64_t x, int64_t y, int64_t n,
                      const uint8_t *src, const uint8_t *mask)
{
    const NV502dFormat *sf = dr->sfmt, *df = dr->dst.fmt;
    unsigned sb = sf->bpp, db = df->bpp;
    NV50GrCall *c = dr->c;
    int64_t skip;
    bool all = !mask;
    const uint8_t *s;
    int64_t i;

    if (y < dr->cy0 || y >= dr->cy1) {
        return true;
    }
    if (x < dr->cx0) {
        skip = dr->cx0 - x;
        if (skip >= n) {
            return true;
        }
        x += skip;
        n -= skip;
        src += skip * sb;
        mask = mask ? mask + skip : NULL;
    }
    if (x + n > dr->cx1) {
        n = dr->cx1 - x;
    }
    if (n <= 0) {
        return true;
    }
    if (mask) {
        all = memchr(mask, 0, n) == NULL;
        if (!memchr(mask, 1, n)) {
            return true;
        }
    }
    if (dr->op == NV502D_OP_SRCCOPY && all && sf == df) {
        return nv502d_target_rw(c, &dr->dst, x, y, (uint8_t *)src, n, true);
    }
    draw_grow(dr, n);
    if (dr->need_dst || !all) {
        if (!nv502d_target_rw(c, &dr->dst, x, y, dr->dbuf, n, false)) {
            return false;
        }
    }
    /* the source in the destination's format */
    if (sf == df) {
        s = src;
    } else {
        nv502d_convert(sf, src, df, dr->sbuf, n);
        s = dr->sbuf;
    }
    switch (dr->op) {
    case NV502D_OP_SRCCOPY:
    case NV502D_OP_SRCCOPY_AND:
        memcpy(dr->obuf, s, n * db);
        break;
    case NV502D_OP_ROP:
    case NV502D_OP_ROP_AND:
        if (dr->need_pat) {
            for (i = 0; i < n; i++) {
                memcpy(dr->pbuf + i * db,
                       dr->pat + pattern_index(dr, x + i, y) * db, db);
            }
        }
        nv502d_rop(dr->rop, (dr->need_dst || !all) ? dr->dbuf : s, s,
                   dr->need_pat ? dr->pbuf : s, dr->obuf, n * db);
        break;
    default:
        for (i = 0; i < n; i++) {
            if ((!mask || mask[i]) &&
                (dr->op != NV502D_OP_BLEND_AND ||
                 nv502d_alpha_nonzero(sf, src + i * sb))) {
                blend_pixel(dr, src + i * sb, dr->dbuf + i * db,
                            dr->obuf + i * db);
            } else {
                memcpy(dr->obuf + i * db, dr->dbuf + i * db, db);
            }
        }
        return nv502d_target_rw(c, &dr->dst, x, y, dr->obuf, n, true);
    }
    /* pixels left alone: masked out, or a zero source alpha for *_AND */
    for (i = 0; i < n; i++) {
        bool keep = mask && !mask[i];

        if (!keep && (dr->op == NV502D_OP_SRCCOPY_AND ||
                      dr->op == NV502D_OP_ROP_AND)) {
            keep = !nv502d_alpha_nonzero(sf, src + i * sb);
        }
        if (keep) {
            memcpy(dr->obuf + i * db, dr->dbuf + i * db, db);
        }
    }
    return nv502d_target_rw(c, &dr->dst, x, y, dr->obuf, n, true);
}

/* --- solid primitives --- */

/* The solid colour as one element of dr->sfmt. */
static void solid_color(const NV502dDraw *dr, uint8_t *px)
{
    uint32_t v = dr->st->draw_color;
    unsigned i;

    for (i = 0; i < dr->sfmt->bpp; i++) {
        px[i] = i < 4 ? v >> (8 * i) : 0;
    }
}

static bool solid_begin(NV50GrCall *c, NV502dState *st, NV502dDraw *dr,
                        uint8_t *color)
{
    if (!nv502d_draw_begin(c, st, st->draw_color_format, "DRAW_COLOR_FORMAT",
                    dr)) {
        return false;
    }
    if (dr->sfmt->bpp > 4) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "G80_2D: DRAW_COLOR_FORMAT %s is wider than "
                      "DRAW_COLOR", dr->sfmt->name);
        return false;
    }
    solid_color(dr, color);
    /*
     * Convert once when the operation does not look at the source's
     * own alpha.
     */
    if (dr->sfmt != dr->dst.fmt &&
        (dr->op == NV502D_OP_SRCCOPY || dr->op == NV502D_OP_ROP)) {
        uint8_t tmp[NV502D_MAX_BPP];

        nv502d_convert(dr->sfmt, color, dr->dst.fmt, tmp, 1);
        memcpy(color, tmp, NV502D_MAX_BPP);
        dr->sfmt = dr->dst.fmt;
    }
    return true;
}

static void solid_rect(NV50GrCall *c, NV502dState *st, int64_t x0,
                       int64_t y0, int64_t x1, int64_t y1)
{
    NV502dDraw dr;
    uint8_t color[NV502D_MAX_BPP];
    uint8_t *row;
    int64_t y, n, i;

    if (x1 < x0) {
        int64_t t = x0;

        x0 = x1;
        x1 = t;
    }
    if (y1 < y0) {
        int64_t t = y0;

        y0 = y1;
        y1 = t;
    }
    if (!solid_begin(c, st, &dr, color)) {
        return;
    }
    x0 = MAX(x0, dr.cx0);
    x1 = MIN(x1, dr.cx1);
    y0 = MAX(y0, dr.cy0);
    y1 = MIN(y1, dr.cy1);
    if (x0 < x1 && y0 < y1) {
        n = x1 - x0;
        row = g_malloc(n * dr.sfmt->bpp);
        for (i = 0; i < n; i++) {
            memcpy(row + i * dr.sfmt->bpp, color, dr.sfmt->bpp);
        }
        for (y = y0; y < y1; y++) {
            if (!nv502d_draw_span(&dr, x0, y, n, row, NULL)) {
                break;
            }
        }
        g_free(row);
    }
    nv502d_draw_end(&dr);
}

static void solid_line(NV50GrCall *c, NV502dState *st, int64_t xa,
                       int64_t ya, int64_t xb, int64_t yb)
{
    NV502dDraw dr;
    uint8_t color[NV502D_MAX_BPP];
    bool xmajor = llabs(xa - xb) > llabs(ya - yb);
    int64_t min0, min1, maj0, maj1, dmin, dmaj, step, k, klo, khi;
    int64_t cmaj0, cmaj1;

    if (!solid_begin(c, st, &dr, color)) {
        return;
    }
    if (xmajor) {
        maj0 = xa, maj1 = xb, min0 = ya, min1 = yb;
        cmaj0 = dr.cx0, cmaj1 = dr.cx1;
    } else {
        maj0 = ya, maj1 = yb, min0 = xa, min1 = xb;
        cmaj0 = dr.cy0, cmaj1 = dr.cy1;
    }
    if (min1 < min0) {
        int64_t t;

        t = min0, min0 = min1, min1 = t;
        t = maj0, maj0 = maj1, maj1 = t;
    }
    dmin = min1 - min0;
    dmaj = llabs(maj1 - maj0);
    step = maj1 > maj0 ? 1 : -1;
    /*
     * The doc's loop steps k = 0..dmaj along the major axis, the minor
     * one going up when the error reaches dmaj (ties go up): after k
     * steps it went up (2 k dmin + dmaj) / (2 dmaj) times.  Only the
     * steps inside the clip are walked.
     */
    if (step > 0) {
        klo = MAX(0, cmaj0 - maj0);
        khi = MIN(dmaj, cmaj1 - 1 - maj0);
    } else {
        klo = MAX(0, maj0 - (cmaj1 - 1));
        khi = MIN(dmaj, maj0 - cmaj0);
    }
    for (k = klo; k <= khi; k++) {
        int64_t mn = min0 + (dmaj ? (int64_t)(((i128)2 * k * dmin + dmaj) /
                                              ((i128)2 * dmaj)) : 0);
        int64_t mj = maj0 + k * step;
        int64_t x = xmajor ? mj : mn;
        int64_t y = xmajor ? mn : mj;

        /* a lin: the second endpoint is not drawn */
        if (!(x == xb && y == yb)) {
            if (!nv502d_draw_span(&dr, x, y, 1, color, NULL)) {
                break;
            }
        }
    }
    nv502d_draw_end(&dr);
}

/* The doc's edge test: is (x, y) on the inner side of edge a -> b? */
static bool tri_inside(int64_t xa, int64_t ya, int64_t xb, int64_t yb,
                       int64_t x, int64_t y)
{
    i128 cross = (i128)(xb - xa) * (y - ya) - (i128)(x - xa) * (yb - ya);

    if (cross == 0) {       /* on the edge: the pixel to the right */
        cross = (i128)(xb - xa) * (y - ya) - (i128)(x + 1 - xa) * (yb - ya);
    }
    if (cross == 0) {       /* horizontal edge: the pixel below */
        cross = (i128)(xb - xa) * (y + 1 - ya) - (i128)(x - xa) * (yb - ya);
    }
    return cross >= 0;
}

static void solid_triangle(NV50GrCall *c, NV502dState *st,
                           const int32_t *vx, const int32_t *vy)
{
    NV502dDraw dr;
    uint8_t color[NV502D_MAX_BPP];
    int64_t X[3] = { vx[0], vx[1], vx[2] }, Y[3] = { vy[0], vy[1], vy[2] };
    int64_t x0, x1, y0, y1, x, y;
    uint8_t *row = NULL;
    i128 cross;
    int e;

    cross = (i128)(X[1] - X[0]) * (Y[2] - Y[0]) -
            (i128)(X[2] - X[0]) * (Y[1] - Y[0]);
    if (cross == 0) {
        return;         /* degenerate */
    }
    if (cross < 0) {
        int64_t t;

        t = X[1], X[1] = X[2], X[2] = t;
        t = Y[1], Y[1] = Y[2], Y[2] = t;
    }
    if (!solid_begin(c, st, &dr, color)) {
        return;
    }
    x0 = MAX(dr.cx0, MIN(X[0], MIN(X[1], X[2])));
    x1 = MIN(dr.cx1, MAX(X[0], MAX(X[1], X[2])) + 1);
    y0 = MAX(dr.cy0, MIN(Y[0], MIN(Y[1], Y[2])));
    y1 = MIN(dr.cy1, MAX(Y[0], MAX(Y[1], Y[2])) + 1);
    if (x0 < x1) {
        row = g_malloc((x1 - x0) * dr.sfmt->bpp);
        for (x = 0; x < x1 - x0; x++) {
            memcpy(row + x * dr.sfmt->bpp, color, dr.sfmt->bpp);
        }
    }
    for (y = y0; y < y1 && row; y++) {
        int64_t run = -1;

        for (x = x0; x <= x1; x++) {
            bool in = x < x1;

            for (e = 0; e < 3 && in; e++) {
                in = tri_inside(X[e], Y[e], X[(e + 1) % 3], Y[(e + 1) % 3],
                                x, y);
            }
            if (in && run < 0) {
                run = x;
            } else if (!in && run >= 0) {
                if (!nv502d_draw_span(&dr, run, y, x - run, row, NULL)) {
                    y = y1;
                    break;
                }
                run = -1;
            }
        }
    }
    g_free(row);
    nv502d_draw_end(&dr);
}

void nv502d_solid_vertex(NV50GrCall *c, NV502dState *st, int32_t x,
                         int32_t y)
{
    st->vtx_x[st->nvtx] = x;
    st->vtx_y[st->nvtx] = y;
    st->nvtx++;
    switch (st->draw_shape) {
    case NV502D_SHAPE_POINTS:
        solid_rect(c, st, x, y, (int64_t)x + 1, (int64_t)y + 1);
        st->nvtx = 0;
        break;
    case NV502D_SHAPE_LINES:
    case NV502D_SHAPE_LINE_STRIP:
        if (st->nvtx == 2) {
            solid_line(c, st, st->vtx_x[0], st->vtx_y[0], x, y);
            if (st->draw_shape == NV502D_SHAPE_LINE_STRIP) {
                st->vtx_x[0] = x;
                st->vtx_y[0] = y;
                st->nvtx = 1;
            } else {
                st->nvtx = 0;
            }
        }
        break;
    case NV502D_SHAPE_TRIANGLES:
        if (st->nvtx == 3) {
            solid_triangle(c, st, st->vtx_x, st->vtx_y);
            st->nvtx = 0;
        }
        break;
    default:    /* RECTANGLES */
        if (st->nvtx == 2) {
            solid_rect(c, st, st->vtx_x[0], st->vtx_y[0], x, y);
            st->nvtx = 0;
        }
        break;
    }
}
