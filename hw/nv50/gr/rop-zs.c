/*
 * The ROP's depth/stencil test (ZROP): zeta formats, the depth test,
 * depth bounds, the stencil test and ops, one- and two-sided, per
 * sample; the comparison functions the alpha test uses too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include <math.h>
#include "rop-int.h"

static const RopZetaFormat zeta_formats[] = {
    { 0x0a, "Z32_FLOAT", 4, 32, 0, -1 },
    { 0x13, "Z16_UNORM", 2, 16, 0, -1 },
    { 0x14, "S8_Z24_UNORM", 4, 24, 8, 0 },
    { 0x15, "Z24_X8_UNORM", 4, 24, 0, -1 },
    { 0x16, "Z24_S8_UNORM", 4, 24, 0, 3 },
    /* UNVERIFIED: coverage (CSAA) bits are kept, never written */
    { 0x18, "Z24_C8_UNORM", 4, 24, 0, -1 },
    { 0x19, "Z32_S8_X24_FLOAT", 8, 32, 0, 4 },
    { 0x1d, "Z24_X8_S8_C8_X16_UNORM", 8, 24, 0, 4 },
    { 0x1e, "Z32_X8_C8_X16_FLOAT", 8, 32, 0, -1 },
    { 0x1f, "Z32_S8_C8_X16_FLOAT", 8, 32, 0, 4 },
};

const RopZetaFormat *nv50_rop_zeta_format(uint32_t fmt)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(zeta_formats); i++) {
        if (zeta_formats[i].id == fmt) {
            return &zeta_formats[i];
        }
    }
    return NULL;
}

unsigned nv50_rop_zeta_bits(uint32_t fmt)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(zeta_formats); i++) {
        if (zeta_formats[i].id == fmt) {
            return zeta_formats[i].zbits;
        }
    }
    return 0;
}

bool nv50_rop_compare(unsigned func, double a, double b)
{
    switch (func) {
    case CMP_NEVER:
        return false;
    case CMP_LESS:
        return a < b;
    case CMP_EQUAL:
        return a == b;
    case CMP_LEQUAL:
        return a <= b;
    case CMP_GREATER:
        return a > b;
    case CMP_NOTEQUAL:
        return a != b;
    case CMP_GEQUAL:
        return a >= b;
    }
    return true;
}

static uint8_t stencil_apply(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case SOP_ZERO:
        return 0;
    case SOP_REPLACE:
        return ref;
    case SOP_INCR:
        return s == 0xff ? s : s + 1;
    case SOP_DECR:
        return s == 0 ? s : s - 1;
    case SOP_INVERT:
        return ~s;
    case SOP_INCR_WRAP:
        return s + 1;
    case SOP_DECR_WRAP:
        return s - 1;
    }
    return s;
}

/* The test of one stored sample at (xs, ys). */
static bool zs_one(NV50Rop *r, uint32_t xs, uint32_t ys, float z, bool front)
{
    const RopZetaFormat *zf = r->zfmt;
    RopSurf *s = &r->surf[ZETA];
    const RopStencilSide *sd = &r->side[front ? 0 : 1];
    bool has_s = zf->sbyte >= 0 && r->stencil;
    uint8_t e[8], old[8];
    uint32_t zs, zf_val = rop_depth_encode(zf, z);
    uint8_t st = 0;
    bool pass = true, spass = true;

    if (xs >= s->width || ys >= s->height) {
        return false;
    }
    if (!rop_elem_rw(r, s, xs, ys, e, false)) {
        return false;
    }
    memcpy(old, e, sizeof(e));
    zs = rop_depth_get(zf, e);
    if (r->depth_bounds) {
        double v = rop_depth_value(zf, zs);

        if (v < r->bounds_min || v > r->bounds_max) {
            return false;
        }
    }
    if (has_s) {
        st = e[zf->sbyte];
        spass = nv50_rop_compare(sd->func, sd->ref & sd->func_mask,
                                 st & sd->func_mask);
    }
    if (spass && r->depth_test) {
        if (zf->zbits == 32) {
            pass = nv50_rop_compare(r->depth_func, rop_depth_value(zf, zf_val),
                                    rop_depth_value(zf, zs));
        } else {
            pass = nv50_rop_compare(r->depth_func, zf_val, zs);
        }
    }
    if (has_s) {
        unsigned op = !spass ? sd->op_fail : !pass ? sd->op_zfail
                                                   : sd->op_zpass;
        uint8_t ns = stencil_apply(op, st, sd->ref);

        e[zf->sbyte] = (st & ~sd->write_mask) | (ns & sd->write_mask);
    }
    if (spass && pass && r->depth_test && r->depth_write) {
        rop_depth_set(zf, e, zf_val);
    }
    if (memcmp(e, old, s->bpp)) {
        rop_elem_rw(r, s, xs, ys, e, true);
    }
    return spass && pass;
}

bool nv50_rop_zs_passes(const NV50Rop *r)
{
    /* one sample: the rasteriser's only sample is 0 */
    return r && !r->surf[ZETA].on && r->ms.samples == 1 && !r->cliprects &&
           (r->sample_mask & 1);
}

bool nv50_rop_zs_test(NV50Rop *r, int x, int y, unsigned sample, float z,
                      bool front)
{
    unsigned sx, sy;
    uint32_t pass = 0;

    if (!r || x < r->x0 || y < r->y0 || x >= r->x1 || y >= r->y1 ||
        !rop_cliprect_pass(r, x, y)) {
        return false;
    }
    if (r->ms_raster || r->ms.samples == 1) {
        if (!rop_sample_enabled(r, sample)) {
            return false;
        }
        if (!r->surf[ZETA].on) {
            return true;
        }
        nv50_msaa_xy(&r->ms, sample, &sx, &sy);
        return zs_one(r, (uint32_t)x << r->ms.ms_x | sx,
                      (uint32_t)y << r->ms.ms_y | sy, z, front);
    }
    /* one sample rasterised on a multisample surface: every sample */
    for (unsigned s = 0; s < r->ms.samples; s++) {
        if (!rop_sample_enabled(r, s)) {
            continue;
        }
        if (!r->surf[ZETA].on) {
            pass |= 1u << s;
            continue;
        }
        nv50_msaa_xy(&r->ms, s, &sx, &sy);
        if (zs_one(r, (uint32_t)x << r->ms.ms_x | sx,
                   (uint32_t)y << r->ms.ms_y | sy, z, front)) {
            pass |= 1u << s;
        }
    }
    r->last_x = x;
    r->last_y = y;
    r->last_pass = pass;
    return pass != 0;
}


bool nv50_rop_broadcasts(const NV50Rop *r)
{
    return r && !r->ms_raster && r->ms.samples > 1;
}

uint8_t nv50_rop_zs_broadcast(const NV50Rop *r, int x, int y)
{
    return r && x == r->last_x && y == r->last_y ? r->last_pass : 0xff;
}

void nv50_rop_zs_broadcast_set(NV50Rop *r, int x, int y, uint8_t pass)
{
    if (r) {
        r->last_x = pass == 0xff ? -1 : x;
        r->last_y = y;
        r->last_pass = pass;
    }
}
