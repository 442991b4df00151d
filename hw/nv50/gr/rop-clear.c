/*
 * The ROP's CLEAR_BUFFERS (pipe.h nv50_rop_clear): one RT's chosen
 * channels and/or zeta's depth and stencil over the clear's bounds,
 * in spans filled from a pattern, or pixel by pixel inside clip
 * rectangles.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "rop-int.h"

/*
 * Rows [y0, y1) x columns [x0, x1) in pixels of surface @s to @val
 * (bytes of @msk), every sample; pixel by pixel where clip rectangles
 * are on, else as one rectangle (whole blocks, rows around them).
 */
static void clear_rect(NV50Rop *r, RopSurf *s, const uint8_t *val,
                       const uint8_t *msk)
{
    int x0 = r->x0, y0 = r->y0;
    int x1 = MIN(r->x1, (int)(s->width >> r->ms.ms_x));
    int y1 = MIN(r->y1, (int)(s->height >> r->ms.ms_y));

    if (!r->cliprects) {
        if (x0 < x1 && y0 < y1) {
            nv50_rop_fill_rect(r, s, (uint32_t)x0 << r->ms.ms_x,
                               (uint32_t)x1 << r->ms.ms_x,
                               (uint32_t)y0 << r->ms.ms_y,
                               (uint32_t)y1 << r->ms.ms_y, val, msk);
        }
        return;
    }
    for (int y = y0; y < y1 && !r->dead; y++) {
        for (uint32_t ys = (uint32_t)y << r->ms.ms_y;
             ys < (uint32_t)(y + 1) << r->ms.ms_y; ys++) {
            for (int x = x0; x < x1; x++) {
                if (rop_cliprect_pass(r, x, y)) {
                    nv50_rop_fill_row(r, s, (uint32_t)x << r->ms.ms_x,
                                      (uint32_t)(x + 1) << r->ms.ms_x, ys,
                                      val, msk);
                }
            }
        }
    }
}

static void clear_color(NV50Rop *r, unsigned rt, unsigned chans)
{
    const NV50RopFormat *f = r->rt[rt].fmt;
    uint32_t raw[4], ones[4];
    uint8_t val[16], msk[16];
    bool full = true;
    float c[4];

    for (unsigned i = 0; i < 4; i++) {
        c[i] = getf(r->st, M_CLEAR_COLOR(i));
    }
    /* CLEAR_COLOR is the colour (integers as their bits), sRGB-encoded
     * for sRGB formats (UNVERIFIED); COLOR_MASK does not apply (Mesa) */
    nv50_rop_encode(f, c, raw);
    for (unsigned ch = 0; ch < f->nch; ch++) {
        unsigned comp = f->comp[ch];
        unsigned bit = comp == NV50_ROP_X ? 8 : 1u << comp;

        ones[ch] = (chans & bit) ? nv50_rop_ch_mask(f, ch) : 0;
        full &= !!(chans & bit);
    }
    nv50_rop_pack(f, raw, val);
    nv50_rop_pack(f, ones, msk);
    clear_rect(r, &r->surf[rt], val, full ? NULL : msk);
}

static void clear_zeta(NV50Rop *r, bool z, bool s)
{
    const RopZetaFormat *zf = r->zfmt;
    uint8_t val[8] = { 0 }, msk[8] = { 0 };
    uint8_t smask = 0xff;
    bool full = true;

    if (z) {
        rop_depth_set(zf, val,
                      rop_depth_encode(zf, getf(r->st, M_CLEAR_DEPTH)));
        rop_depth_set(zf, msk, zf->zbits == 16 ? 0xffff :
                      zf->zbits == 32 ? 0xffffffff : 0xffffff);
    }
    if (s && zf->sbyte >= 0) {
        if (get(r->st, M_CLEAR_FLAGS) & CLEAR_FLAGS_STENCIL_MASK) {
            smask = get(r->st, M_STENCIL_FRONT_MASK);
        }
        val[zf->sbyte] = get(r->st, M_CLEAR_STENCIL);
        msk[zf->sbyte] = smask;
    }
    /* every bit of the element: a plain fill, nothing loaded */
    for (unsigned i = 0; i < zf->bpp; i++) {
        full &= msk[i] == 0xff;
    }
    clear_rect(r, &r->surf[ZETA], val, full ? NULL : msk);
}

void nv50_rop_clear(NV50GrCall *c, NV50Gr3dState *st, uint32_t data)
{
    unsigned rt = (data >> 6) & 0xf, chans = (data >> CLEAR_RGBA_SHIFT) & 0xf;
    bool z = data & CLEAR_Z, s = data & CLEAR_S;
    NV50Rop *r;

    if (!(data & 0x3f)) {
        return;
    }
    r = nv50_rop_new(c, st, (data >> 10) & 0x7ff);
    if (chans) {
        if (rt >= NV50_PIPE_RTS || rt >= (get(st, M_RT_CONTROL) & 0xf)) {
            /* UNVERIFIED: what the hardware does */
            gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-clear-rt", rt,
                          "nv50: 3D CLEAR_BUFFERS of RT %u beyond "
                          "RT_CONTROL's count, not cleared\n", rt);
            chans = 0;
        } else if (!nv50_rop_setup_rt(r, rt)) {
            nv50_rop_free(r);
            return;
        }
    }
    if ((z || s) && !nv50_rop_setup_zeta(r)) {
        nv50_rop_free(r);
        return;
    }
    nv50_rop_setup_bounds(r, true);
    if (chans && r->surf[rt].on && r->rt[rt].fmt) {
        clear_color(r, rt, chans);
    }
    if ((z || s) && r->surf[ZETA].on) {
        clear_zeta(r, z, s);
    }
    nv50_rop_end(r);
}
