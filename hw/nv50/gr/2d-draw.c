/*
 * G80_2D drawing: the destination and source surfaces, the per-pixel
 * operation, and the three sources (solid primitives, BLIT from memory,
 * SIFC from the pushbuffer).  The methods that set the state are in
 * 2d.c; formats and ROPs in 2d-pixel.c.
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
 * - BLIT: ORIGIN CENTER samples at SRC + (i + 0.5) * DU_DX, CORNER at
 *   SRC + i * DU_DX; point sampling takes the texel the sample is in,
 *   BILINEAR the four around it.  SIFC pixels cover the destination
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

/* A surface as a draw sees it, resolved from the DST_* or SRC_* state. */
typedef struct NV502dTarget {
    const NV502dFormat *fmt;
    const NV50CtxDma *dma;
    NV50Surface sf;
    uint64_t base;              /* ADDRESS_HIGH/LOW: offset in the dma */
    uint32_t width, height, layer;
} NV502dTarget;

typedef struct NV502dDraw {
    NV50GrCall *c;
    NV502dState *st;
    NV502dTarget dst;
    const NV502dFormat *sfmt;   /* the source's format */
    int64_t cx0, cy0, cx1, cy1; /* the clip: canvas and CLIP, exclusive */
    uint8_t rop;
    unsigned op;
    bool need_dst;              /* the operation reads the destination */
    bool need_pat;              /* ... and the pattern */
    uint8_t pat[64 * NV502D_MAX_BPP];   /* in the destination format */
    /* span scratch, grown as needed */
    uint8_t *sbuf, *dbuf, *obuf, *pbuf;
    size_t cap;
} NV502dDraw;

static bool target_resolve(NV50GrCall *c, NV502dState *st, bool is_src,
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
static bool target_rw(NV50GrCall *c, const NV502dTarget *t, uint32_t x,
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
static bool draw_begin(NV50GrCall *c, NV502dState *st, uint32_t sfmt_id,
                       const char *src_what, NV502dDraw *dr)
{
    memset(dr, 0, sizeof(*dr));
    dr->c = c;
    dr->st = st;
    if (st->cond_mode == 0) {       /* NEVER */
        return false;
    }
    if (!target_resolve(c, st, false, &dr->dst)) {
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

static void draw_end(NV502dDraw *dr)
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
static bool draw_span(NV502dDraw *dr, int64_t x, int64_t y, int64_t n,
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
        return target_rw(c, &dr->dst, x, y, (uint8_t *)src, n, true);
    }
    draw_grow(dr, n);
    if (dr->need_dst || !all) {
        if (!target_rw(c, &dr->dst, x, y, dr->dbuf, n, false)) {
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
        return target_rw(c, &dr->dst, x, y, dr->obuf, n, true);
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
    return target_rw(c, &dr->dst, x, y, dr->obuf, n, true);
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
    if (!draw_begin(c, st, st->draw_color_format, "DRAW_COLOR_FORMAT",
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
            if (!draw_span(&dr, x0, y, n, row, NULL)) {
                break;
            }
        }
        g_free(row);
    }
    draw_end(&dr);
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
            if (!draw_span(&dr, x, y, 1, color, NULL)) {
                break;
            }
        }
    }
    draw_end(&dr);
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
                if (!draw_span(&dr, run, y, x - run, row, NULL)) {
                    y = y1;
                    break;
                }
                run = -1;
            }
        }
    }
    g_free(row);
    draw_end(&dr);
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

/* --- BLIT: pixels from memory --- */

static int64_t fix32(int32_t i, uint32_t f)
{
    return (int64_t)((uint64_t)(int64_t)i << 32 | f);
}

/* floor(v / 2^k) for signed v */
static int64_t floor_shift(i128 v, unsigned k)
{
    return (int64_t)(v >> k);
}

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
    return target_rw(c, &s->t, x0, y, buf, n, false);
}

void nv502d_blit(NV50GrCall *c, NV502dState *st)
{
    NV502dDraw dr;
    NV502dSource src = { 0 };
    bool center = !(st->blit_control & 1);
    bool bilinear = st->blit_control & 0x10;
    int64_t du = fix32(st->blit_du_dx_int, st->blit_du_dx_fract);
    int64_t dv = fix32(st->blit_dv_dy_int, st->blit_dv_dy_fract);
    int64_t sx = fix32(st->blit_src_x_int, st->blit_src_x_fract);
    int64_t sy = fix32(st->blit_src_y_int, st->blit_src_y_fract);
    int64_t x0, x1, y0, y1, n, i, k, y;
    int64_t txmin, txmax, tymin, tymax;
    int64_t *tx = NULL, *ty = NULL;
    uint8_t *seg = NULL, *seg2 = NULL, *sbuf = NULL;
    unsigned sb;
    bool overlap, rows_up = false, contiguous;

    if (!draw_begin(c, st, st->src.format, "SRC_FORMAT", &dr)) {
        return;
    }
    if (!target_resolve(c, st, true, &src.t)) {
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
            tx[2 * i] = floor_shift(p, 33);
            tx[2 * i + 1] = (int64_t)(p - ((i128)tx[2 * i] << 33));
        } else {
            tx[2 * i] = floor_shift(p, 33);
        }
    }
    for (i = 0; i < y1 - y0; i++) {
        i128 p = (i128)sy * 2 +
                 (i128)(2 * (y0 + i - st->blit_dst_y) + center) * dv;

        if (bilinear) {
            p -= (i128)1 << 32;
            ty[2 * i] = floor_shift(p, 33);
            ty[2 * i + 1] = (int64_t)(p - ((i128)ty[2 * i] << 33));
        } else {
            ty[2 * i] = floor_shift(p, 33);
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
                if (!target_rw(c, &src.t, txmin, k, src.pre +
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
        if (!draw_span(&dr, x0, y, n, sbuf, NULL)) {
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
    draw_end(&dr);
}

/* --- SIFC: pixels from the CPU --- */

void nv502d_sifc_reset(NV502dState *st)
{
    g_free(st->sifc_row);
    g_free(st->sifc_mask);
    st->sifc_row = NULL;
    st->sifc_mask = NULL;
    st->sifc_open = false;
    st->sifc_dead = false;
    st->sifc_px = 0;
    st->sifc_v = 0;
    st->sifc_skip = 0;
    st->sifc_elem_bytes = 0;
}

/* The source format of the SIFC pixels (bitmap colours or data). */
static uint32_t sifc_format(const NV502dState *st)
{
    return st->sifc_format;
}

static bool sifc_open(NV50GrCall *c, NV502dState *st)
{
    const NV502dFormat *f = nv502d_format(sifc_format(st));

    if (!f) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "G80_2D: SIFC_FORMAT 0x%x is not a 2D format",
                      st->sifc_format);
        return false;
    }
    if (st->sifc_bitmap_enable && st->sifc_bitmap_format != 0) {
        gemu_log_once(LOG_UNIMP, "nv50 G80_2D", 0x808,
                      "nv50: G80_2D: SIFC_BITMAP_FORMAT I4/I8 (palette in "
                      "SRC) not implemented: image dropped\n");
        return false;
    }
    if (!st->sifc_width || !st->sifc_height ||
        st->sifc_width > 0x10000 || st->sifc_height > 0x10000) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: SIFC_WIDTH/HEIGHT %ux%u", st->sifc_width,
                      st->sifc_height);
        return false;
    }
    if (st->sifc_dx_du_int < 0 || st->sifc_dy_dv_int < 0 ||
        fix32(st->sifc_dx_du_int, st->sifc_dx_du_fract & 0xfffff000u) == 0 ||
        fix32(st->sifc_dy_dv_int, st->sifc_dy_dv_fract & 0xfffff000u) == 0) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: SIFC_DX_DU/DY_DV not positive");
        return false;
    }
    st->sifc_row = g_malloc0((size_t)st->sifc_width * f->bpp);
    st->sifc_mask = g_malloc0(st->sifc_width);
    st->sifc_open = true;
    return true;
}

/* smallest integer i with i + 0.5 >= p (p in 32.32) */
static int64_t first_centre(i128 p)
{
    return -floor_shift(-(p - ((i128)1 << 31)), 32);
}

/* Source row sifc_v is complete: draw it. */
static void sifc_row_done(NV50GrCall *c, NV502dState *st)
{
    NV502dDraw dr;
    int64_t dxdu = fix32(st->sifc_dx_du_int,
                         st->sifc_dx_du_fract & 0xfffff000u);
    int64_t dydv = fix32(st->sifc_dy_dv_int,
                         st->sifc_dy_dv_fract & 0xfffff000u);
    int64_t X0 = fix32(st->sifc_dst_x_int, st->sifc_dst_x_fract);
    int64_t Y0 = fix32(st->sifc_dst_y_int, st->sifc_dst_y_fract);
    uint32_t w = st->sifc_width, v = st->sifc_v;
    int64_t ya, yb, xa, xb, x, y;
    const uint8_t *mask = st->sifc_bitmap_enable ? st->sifc_mask : NULL;
    unsigned b;
    uint8_t *row = NULL, *rmask = NULL;

    if (!draw_begin(c, st, sifc_format(st), "SIFC_FORMAT", &dr)) {
        st->sifc_dead = true;
        return;
    }
    b = dr.sfmt->bpp;
    ya = first_centre((i128)Y0 + (i128)v * dydv);
    yb = first_centre((i128)Y0 + (i128)(v + 1) * dydv);
    xa = first_centre(X0);
    xb = first_centre((i128)X0 + (i128)w * dxdu);
    ya = MAX(ya, dr.cy0);
    yb = MIN(yb, dr.cy1);
    if (mask && !memchr(mask, 0, w)) {
        mask = NULL;
    }
    if (ya < yb && xa < xb) {
        if (dxdu == (int64_t)1 << 32 && (X0 & 0xffffffff) == 0) {
            row = st->sifc_row;
            rmask = (uint8_t *)mask;
        } else {
            xa = MAX(xa, dr.cx0);
            xb = MIN(xb, dr.cx1);
            if (xa >= xb) {
                draw_end(&dr);
                return;
            }
            row = g_malloc((xb - xa) * b);
            rmask = mask ? g_malloc(xb - xa) : NULL;
            for (x = xa; x < xb; x++) {
                i128 u = (((i128)x << 32) + ((i128)1 << 31) - X0) / dxdu;

                u = MAX(MIN(u, (i128)w - 1), 0);
                memcpy(row + (x - xa) * b, st->sifc_row + u * b, b);
                if (rmask) {
                    rmask[x - xa] = mask[u];
                }
            }
        }
        for (y = ya; y < yb; y++) {
            if (!draw_span(&dr, xa, y, xb - xa, row, rmask)) {
                st->sifc_dead = true;
                break;
            }
        }
        if (row != st->sifc_row) {
            g_free(row);
            g_free(rmask);
        }
    }
    draw_end(&dr);
}

/* One more source pixel: the element in st->sifc_elem or bit @bit. */
static void sifc_pixel(NV50GrCall *c, NV502dState *st, int bit)
{
    const NV502dFormat *f = nv502d_format(sifc_format(st));
    uint32_t i = st->sifc_px;

    if (bit >= 0) {
        uint32_t col = st->sifc_bitmap_color[bit];
        unsigned k;

        for (k = 0; k < f->bpp; k++) {
            st->sifc_row[i * f->bpp + k] = k < 4 ? col >> (8 * k) : 0;
        }
        st->sifc_mask[i] = bit || st->sifc_bitmap_write_bit0_enable;
    } else {
        memcpy(st->sifc_row + i * f->bpp, st->sifc_elem, f->bpp);
        st->sifc_mask[i] = 1;
    }
    if (++st->sifc_px < st->sifc_width) {
        return;
    }
    sifc_row_done(c, st);
    st->sifc_px = 0;
    st->sifc_v++;
}

void nv502d_sifc_data(NV50GrCall *c, NV502dState *st, uint32_t data)
{
    unsigned pos;

    if (st->sifc_dead) {
        return;
    }
    if (!st->sifc_open && !sifc_open(c, st)) {
        st->sifc_dead = true;
        return;
    }
    if (st->sifc_v >= st->sifc_height) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50 G80_2D", 0x860,
                      "nv50: G80_2D: SIFC_DATA after the %ux%u image is "
                      "complete: dropped\n", st->sifc_width,
                      st->sifc_height);
        return;
    }
    if (st->sifc_bitmap_enable) {
        for (pos = 0; pos < 32 && st->sifc_v < st->sifc_height; pos++) {
            unsigned byte = (data >> (pos & ~7u)) & 0xff;
            unsigned j = pos & 7;
            int bit;

            if (st->sifc_skip) {
                st->sifc_skip--;
                continue;
            }
            bit = st->sifc_bitmap_lsb_first ? (byte >> j) & 1
                                             : (byte >> (7 - j)) & 1;
            sifc_pixel(c, st, bit);
            if (st->sifc_dead) {
                return;
            }
            if (st->sifc_px == 0) {
                /* a row ended with bit pos: pad to the next row start */
                switch (st->sifc_bitmap_line_pack_mode) {
                case 1:     /* ALIGN_BYTE */
                    st->sifc_skip = 7 - j;
                    break;
                case 2:     /* ALIGN_WORD */
                    st->sifc_skip = 31 - pos;
                    break;
                default:    /* PACKED */
                    break;
                }
            }
        }
        return;
    }
    {
        const NV502dFormat *f = nv502d_format(sifc_format(st));

        for (pos = 0; pos < 4 && st->sifc_v < st->sifc_height; pos++) {
            st->sifc_elem[st->sifc_elem_bytes++] = data >> (8 * pos);
            if (st->sifc_elem_bytes == f->bpp) {
                st->sifc_elem_bytes = 0;
                sifc_pixel(c, st, -1);
                if (st->sifc_dead) {
                    return;
                }
            }
        }
    }
}
