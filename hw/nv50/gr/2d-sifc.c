/*
 * G80_2D SIFC (pixels from the CPU, SIFC_* 0x800-0x860): colour data or
 * I1 bitmaps arriving a word at a time in SIFC_DATA, each source row
 * drawn through the span pipeline of 2d-draw.c as soon as it is
 * complete (its header lists the bit orders, row packing and the
 * UNVERIFIED choices).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/gr/2d.h"

typedef __int128 i128;

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
        nv502d_fix32(st->sifc_dx_du_int, st->sifc_dx_du_fract & 0xfffff000u) == 0 ||
        nv502d_fix32(st->sifc_dy_dv_int, st->sifc_dy_dv_fract & 0xfffff000u) == 0) {
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
    return -nv502d_floor_shift(-(p - ((i128)1 << 31)), 32);
}

/* Source row sifc_v is complete: draw it. */
static void sifc_row_done(NV50GrCall *c, NV502dState *st)
{
    NV502dDraw dr;
    int64_t dxdu = nv502d_fix32(st->sifc_dx_du_int,
                         st->sifc_dx_du_fract & 0xfffff000u);
    int64_t dydv = nv502d_fix32(st->sifc_dy_dv_int,
                         st->sifc_dy_dv_fract & 0xfffff000u);
    int64_t X0 = nv502d_fix32(st->sifc_dst_x_int, st->sifc_dst_x_fract);
    int64_t Y0 = nv502d_fix32(st->sifc_dst_y_int, st->sifc_dst_y_fract);
    uint32_t w = st->sifc_width, v = st->sifc_v;
    int64_t ya, yb, xa, xb, x, y;
    const uint8_t *mask = st->sifc_bitmap_enable ? st->sifc_mask : NULL;
    unsigned b;
    uint8_t *row = NULL, *rmask = NULL;

    if (!nv502d_draw_begin(c, st, sifc_format(st), "SIFC_FORMAT", &dr)) {
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
                nv502d_draw_end(&dr);
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
            if (!nv502d_draw_span(&dr, xa, y, xb - xa, row, rmask)) {
                st->sifc_dead = true;
                break;
            }
        }
        if (row != st->sifc_row) {
            g_free(row);
            g_free(rmask);
        }
    }
    nv502d_draw_end(&dr);
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
