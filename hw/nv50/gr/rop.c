/*
 * The G84's ROP (CROP and ZROP): render targets and zeta of a draw or
 * clear, the depth/stencil test, blending, colour masks, logic ops,
 * formats, CLEAR_BUFFERS (pipe.h).  Facts: envytools rnndb
 * graph/g80_3d.xml and g80_defs.xml; what Mesa 22.3's nv50 driver
 * sends (nv50_state_validate.c nv50_validate_fb, nv50_state.c blend and
 * zsa CSOs, nv50_surface.c nv50_clear).  docs/devel/nv50.md "3D: ROP".
 *
 * This file sets the ROP of a draw or clear up from the 3D state (its
 * surfaces, bounds, depth/stencil and blend state decoded into NV50Rop,
 * rop-int.h) and holds the calls around a draw; the depth/stencil test
 * is in rop-zs.c, blending and colour writes in rop-color.c,
 * CLEAR_BUFFERS in rop-clear.c, all reaching memory through rop-mem.c's
 * chunk cache; formats are rop-format.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include <math.h>
#include "rop-int.h"

static void unimp(const char *what)
{
    gemu_log_once(LOG_UNIMP, "nv50-rop", (uintptr_t)what, "nv50: 3D ROP: "
                  "%s is not modelled\n", what);
}

/* --- enumerants (GL values as Mesa sends them; D3D ones UNVERIFIED) --- */

static unsigned cmp_func(uint32_t v)
{
    if (v >= 0x200 && v <= 0x207) {
        return v - 0x200;
    }
    if (v >= 1 && v <= 8) {             /* D3D (UNVERIFIED) */
        return v - 1;
    }
    gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-cmp", v, "nv50: 3D ROP: "
                  "comparison 0x%x is not a function, ALWAYS\n", v);
    return CMP_ALWAYS;
}

static unsigned stencil_op(uint32_t v)
{
    switch (v) {
    case 0x1e00:
        return SOP_KEEP;
    case 0x0000:
        return SOP_ZERO;
    case 0x1e01:
        return SOP_REPLACE;
    case 0x1e02:
        return SOP_INCR;
    case 0x1e03:
        return SOP_DECR;
    case 0x150a:
        return SOP_INVERT;
    case 0x8507:
        return SOP_INCR_WRAP;
    case 0x8508:
        return SOP_DECR_WRAP;
    }
    if (v >= 1 && v <= 8) {             /* D3D (UNVERIFIED) */
        static const uint8_t d3d[] = {
            SOP_KEEP, SOP_ZERO, SOP_REPLACE, SOP_INCR, SOP_DECR,
            SOP_INVERT, SOP_INCR_WRAP, SOP_DECR_WRAP,
        };
        return d3d[v - 1];
    }
    gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-sop", v, "nv50: 3D ROP: "
                  "stencil op 0x%x is not an op, KEEP\n", v);
    return SOP_KEEP;
}

static unsigned blend_factor(uint32_t v)
{
    uint32_t lo = v & 0x3fff;

    /* G80_BLEND_FACTOR (0x4000 | ...) as Mesa sends, or plain GL */
    if ((v & ~0x4000u) == 0 || v == 0x4000) {
        return BF_ZERO;
    }
    if (v == 1 || v == 0x4001) {
        return BF_ONE;
    }
    if ((v == (0x4000 | lo) || v == lo) && lo >= 0x300 && lo <= 0x308) {
        return BF_SRC_COLOR + (lo - 0x300);
    }
    if ((v >= 0xc001 && v <= 0xc004) || (v >= 0x8001 && v <= 0x8004)) {
        return BF_CONST_COLOR + ((v & 0xf) - 1);
    }
    switch (v) {
    case 0xc900:
    case 0x88f9:
        return BF_SRC1_COLOR;
    case 0xc901:
    case 0x88fa:
        return BF_INV_SRC1_COLOR;
    case 0xc902:
    case 0x8589:
        return BF_SRC1_ALPHA;
    case 0xc903:
    case 0x88fb:
        return BF_INV_SRC1_ALPHA;
    }
    gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-bf", v, "nv50: 3D ROP: blend "
                  "factor 0x%x is not a factor, ZERO\n", v);
    return BF_ZERO;
}

static unsigned blend_eq(uint32_t v)
{
    switch (v) {
    case 0x8006:
    case 1:                             /* D3D (UNVERIFIED) */
        return BE_ADD;
    case 0x800a:
    case 2:
        return BE_SUB;
    case 0x800b:
    case 3:
        return BE_REV_SUB;
    case 0x8007:
    case 4:
        return BE_MIN;
    case 0x8008:
    case 5:
        return BE_MAX;
    }
    gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-be", v, "nv50: 3D ROP: blend "
                  "equation 0x%x is not an equation, FUNC_ADD\n", v);
    return BE_ADD;
}

/* --- set-up --- */

static bool block_dims(NV50GrCall *c, const char *what, uint32_t bd,
                       NV50Surface *sf)
{
    unsigned bw = bd & 0xf, bh = (bd >> 4) & 0xf, bdd = (bd >> 8) & 0xf;

    /* Tesla: GOB_HEIGHT TESLA_4, blocks 1 GOB wide at most (rnndb) */
    if (bw > 1 || bh > NV50_BLOCK_LOG2_MAX || bdd > NV50_BLOCK_LOG2_MAX ||
        (bd >> 12) & 0xf) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "3D ROP: %s_BLOCK_DIMENSIONS 0x%x (UNVERIFIED error)",
                      what, bd);
        return false;
    }
    sf->block_w = bw;
    sf->block_h = bh;
    sf->block_d = bdd;
    return true;
}

/* The DMA object of @mthd (0: surfaces by VA through the channel VM). */
static bool surf_dma(NV50Rop *r, RopSurf *s, uint32_t mthd)
{
    uint32_t ofs = get(r->st, mthd);

    s->use_dma = ofs != 0;
    s->dma_ofs = ofs;
    return !ofs || nv50_gr_ctxdma(r->c, ofs, &s->dma);
}

/* The layer's addresses once sf, bpp, base and layer stride are known. */
static void surf_place(RopSurf *s, uint64_t base, uint64_t layer_stride,
                       bool mode_3d, unsigned layers, unsigned layer)
{
    uint64_t size;

    if (mode_3d && s->sf.block_linear) {
        s->z = layer;
        s->sf.depth = MAX(layers, layer + 1);
        s->addr = base;
        size = nv50_surface_size(&s->sf);
    } else {
        s->z = 0;
        s->sf.depth = 1;
        s->addr = base + layer * layer_stride;
        size = nv50_surface_size(&s->sf);
    }
    s->start = s->addr;
    s->end = s->addr + size;
    nv50_surface_walk(&s->sf, &s->walk);
}

/*
 * The layer of a surface of @layers layers: a GP's layer past them is
 * layer 0 (UNVERIFIED: D3D10's rule for an out-of-range render target
 * array index; GL leaves it undefined, and a non-layered surface, which
 * Mesa sends as LAYERS 1 or 0, must ignore the GP's layer).
 */
static unsigned surf_layer(const NV50Rop *r, unsigned layers)
{
    return r->layer_gp && r->layer >= MAX(layers, 1u) ? 0 : r->layer;
}

bool nv50_rop_setup_rt(NV50Rop *r, unsigned i)
{
    NV50Gr3dState *st = r->st;
    RopSurf *s = &r->surf[i];
    uint32_t fmt = get(st, M_RT_FORMAT(i));
    uint32_t horiz = get(st, M_RT_HORIZ(i)), vert = get(st, M_RT_VERT(i));
    uint32_t amode = get(st, M_RT_ARRAY_MODE);
    uint64_t base = (uint64_t)(get(st, M_RT_ADDRESS_HIGH(i)) & 0xff) << 32 |
                    get(st, M_RT_ADDRESS_LOW(i));
    const NV50RopFormat *f;
    char what[8];

    if (!fmt) {
        return true;            /* Mesa's null RT */
    }
    f = nv50_rop_format(fmt);
    if (!f) {
        if (nv50_rop_format_named(fmt)) {
            gemu_log_once(LOG_UNIMP, "nv50-rop-fmt", fmt, "nv50: 3D ROP: "
                          "RT_FORMAT 0x%x is not modelled, RT %u not "
                          "drawn\n", fmt, i);
            return true;
        }
        nv50_gr_error(r->c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_ENUM,
                      "3D ROP: RT_FORMAT[%u] 0x%x (UNVERIFIED error)", i,
                      fmt);
        return false;
    }
    if (!surf_dma(r, s, M_DMA_COLOR(i))) {
        return false;
    }
    memset(&s->sf, 0, sizeof(s->sf));
    s->bpp = f->bpp;
    s->sub = i;
    if (horiz & 0x80000000u) {
        /* LAYOUT: WIDTH is the byte pitch */
        s->sf.block_linear = false;
        s->sf.pitch = horiz & 0x0fffffff;
        s->width = s->sf.pitch / f->bpp;
    } else {
        snprintf(what, sizeof(what), "RT%u", i);
        if (!block_dims(r->c, what, get(st, M_RT_BLOCK_DIMENSIONS(i)),
                        &s->sf)) {
            return false;
        }
        s->sf.block_linear = true;
        s->width = horiz & 0x0fffffff;
    }
    s->height = vert;
    s->width = MIN(s->width, ROP_MAX_DIM);
    s->height = MIN(s->height, ROP_MAX_DIM);
    s->sf.width_bytes = s->width * f->bpp;
    s->sf.height = s->height;
    surf_place(s, base, (uint64_t)get(st, M_RT_LAYER_STRIDE(i)) << 2,
               amode & 0x10000, amode & 0xffff,
               surf_layer(r, amode & 0xffff));
    s->on = s->width && s->height;
    r->rt[i].fmt = f;
    return true;
}

bool nv50_rop_setup_zeta(NV50Rop *r)
{
    NV50Gr3dState *st = r->st;
    RopSurf *s = &r->surf[ZETA];
    uint32_t fmt = get(st, M_ZETA_FORMAT);
    uint64_t base = (uint64_t)(get(st, M_ZETA_ADDRESS_HIGH) & 0xff) << 32 |
                    get(st, M_ZETA_ADDRESS_LOW);

    if (!get(st, M_ZETA_ENABLE)) {
        return true;
    }
    r->zfmt = nv50_rop_zeta_format(fmt);
    if (!r->zfmt) {
        nv50_gr_error(r->c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_ENUM,
                      "3D ROP: ZETA_FORMAT 0x%x (UNVERIFIED error)", fmt);
        return false;
    }
    if (!surf_dma(r, s, M_DMA_ZETA)) {
        return false;
    }
    memset(&s->sf, 0, sizeof(s->sf));
    if (!block_dims(r->c, "ZETA", get(st, M_ZETA_BLOCK_DIMENSIONS), &s->sf)) {
        return false;
    }
    s->sf.block_linear = true;
    s->bpp = r->zfmt->bpp;
    s->sub = NV50_VM_SUBCLIENT_ZETA;
    s->width = MIN(get(st, M_ZETA_HORIZ), ROP_MAX_DIM);
    s->height = MIN(get(st, M_ZETA_VERT), ROP_MAX_DIM);
    s->sf.width_bytes = s->width * s->bpp;
    s->sf.height = s->height;
    /* UNVERIFIED: zeta layers are always LAYER_STRIDE apart */
    surf_place(s, base, (uint64_t)get(st, M_ZETA_LAYER_STRIDE) << 2,
               false, 1, surf_layer(r, get(st, M_ZETA_ARRAY_MODE) & 0xffff));
    s->on = s->width && s->height;
    return true;
}

/* MULTISAMPLE_MODE, MULTISAMPLE_ENABLE, MSAA_MASK (msaa.h) */
static void setup_ms(NV50Rop *r)
{
    uint32_t mode = get(r->st, NV50_3D_MULTISAMPLE_MODE);

    if (!nv50_msaa_mode(mode, &r->ms)) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-ms", mode, "nv50: 3D ROP: "
                      "MULTISAMPLE_MODE 0x%x unknown, one sample\n", mode);
    }
    if (r->ms.csaa) {
        unimp("CSAA (MULTISAMPLE_MODE *_VC_*: virtual coverage samples)");
    }
    r->ms_raster = r->ms.samples > 1 &&
                   get(r->st, NV50_3D_MULTISAMPLE_ENABLE);
    /* UNVERIFIED: bit s of MSAA_MASK[0] enables sample s */
    r->sample_mask = r->ms.samples > 1 ? get(r->st, NV50_3D_MSAA_MASK(0)) : 1;
    r->last_x = r->last_y = -1;
}

static void intersect(int *x0, int *y0, int *x1, int *y1, int ax0, int ay0,
                      int ax1, int ay1)
{
    *x0 = MAX(*x0, ax0);
    *y0 = MAX(*y0, ay0);
    *x1 = MIN(*x1, ax1);
    *y1 = MIN(*y1, ay1);
}

/* SCREEN_SCISSOR (UNVERIFIED: W or H 0 bounds nothing) */
static void screen_scissor(const NV50Gr3dState *st, int *x0, int *y0,
                           int *x1, int *y1)
{
    uint32_t h = get(st, M_SCREEN_SCISSOR_HORIZ);
    uint32_t v = get(st, M_SCREEN_SCISSOR_VERT);

    if (h >> 16) {
        intersect(x0, y0, x1, y1, h & 0xffff, INT_MIN,
                  (h & 0xffff) + (h >> 16), INT_MAX);
    }
    if (v >> 16) {
        intersect(x0, y0, x1, y1, INT_MIN, v & 0xffff, INT_MAX,
                  (v & 0xffff) + (v >> 16));
    }
}

void nv50_rop_setup_bounds(NV50Rop *r, bool clear)
{
    NV50Gr3dState *st = r->st;
    int x0 = 0, y0 = 0, x1 = ROP_MAX_DIM, y1 = ROP_MAX_DIM;
    uint32_t sc = r->viewport * M_SCISSOR_STRIDE;

    screen_scissor(st, &x0, &y0, &x1, &y1);
    if (clear && (get(st, M_CLEAR_FLAGS) & CLEAR_FLAGS_RECT_VIEWPORT)) {
        /* UNVERIFIED: VIEWPORT_HORIZ/VERT[0] bound it (W, H 0: not) */
        uint32_t h = get(st, M_VIEWPORT_HORIZ0), v = get(st, M_VIEWPORT_VERT0);

        if (h >> 16) {
            intersect(&x0, &y0, &x1, &y1, h & 0xffff, INT_MIN,
                      (h & 0xffff) + (h >> 16), INT_MAX);
        }
        if (v >> 16) {
            intersect(&x0, &y0, &x1, &y1, INT_MIN, v & 0xffff, INT_MAX,
                      (v & 0xffff) + (v >> 16));
        }
    } else if (get(st, M_SCISSOR_ENABLE0 + sc)) {
        uint32_t h = get(st, M_SCISSOR_HORIZ0 + sc);
        uint32_t v = get(st, M_SCISSOR_VERT0 + sc);

        intersect(&x0, &y0, &x1, &y1, h & 0xffff, v & 0xffff, h >> 16,
                  v >> 16);
    }
    if (!clear) {
        /* the surfaces bound a draw (clears: each surface its own) */
        for (unsigned i = 0; i <= ZETA; i++) {
            if (r->surf[i].on) {
                intersect(&x0, &y0, &x1, &y1, 0, 0,
                          r->surf[i].width >> r->ms.ms_x,
                          r->surf[i].height >> r->ms.ms_y);
            }
        }
    }
    r->x0 = x0;
    r->y0 = y0;
    r->x1 = MAX(x1, x0);
    r->y1 = MAX(y1, y0);

    r->cliprects = get(st, M_CLIP_RECTS_EN);
    r->cliprect_mode = get(st, M_CLIP_RECTS_MODE);
    if (r->cliprects && r->cliprect_mode > 1) {
        unimp("CLIP_RECTS_MODE NEVER (taken as no clip rectangles)");
        r->cliprects = false;
    }
    for (unsigned i = 0; i < 8; i++) {
        uint32_t h = get(st, M_CLIP_RECT_HORIZ(i));
        uint32_t v = get(st, M_CLIP_RECT_VERT(i));

        r->cliprect[i][0] = h & 0xffff;
        r->cliprect[i][1] = h >> 16;
        r->cliprect[i][2] = v & 0xffff;
        r->cliprect[i][3] = v >> 16;
    }
}

static void setup_blend(NV50Rop *r, unsigned i)
{
    NV50Gr3dState *st = r->st;
    RopBlend *b = &r->rt[i].blend;
    bool sep = get(st, M_BLEND_SEPARATE_ALPHA);
    bool gt215 = r->c->class_id == 0x8597 || r->c->class_id == 0x8697;
    uint32_t eq_rgb, src_rgb, dst_rgb, eq_a, src_a, dst_a;

    b->enable = get(st, get(st, M_BLEND_ENABLE_COMMON) ? M_BLEND_ENABLE(0)
                                                        : M_BLEND_ENABLE(i));
    if (!b->enable) {
        return;
    }
    if (gt215 && get(st, M_BLEND_INDEPENDENT)) {
        /* UNVERIFIED: IBLEND's SEPARATE_ALPHA is not used, Mesa never
         * sets it; BLEND_SEPARATE_ALPHA decides */
        uint32_t m = M_IBLEND(i);

        eq_rgb = get(st, m + 0x04);
        src_rgb = get(st, m + 0x08);
        dst_rgb = get(st, m + 0x0c);
        eq_a = get(st, m + 0x10);
        src_a = get(st, m + 0x14);
        dst_a = get(st, m + 0x18);
    } else {
        eq_rgb = get(st, M_BLEND_EQUATION_RGB);
        src_rgb = get(st, M_BLEND_FUNC_SRC_RGB);
        dst_rgb = get(st, M_BLEND_FUNC_DST_RGB);
        eq_a = get(st, M_BLEND_EQUATION_ALPHA);
        src_a = get(st, M_BLEND_FUNC_SRC_ALPHA);
        dst_a = get(st, M_BLEND_FUNC_DST_ALPHA);
    }
    if (!sep) {
        eq_a = eq_rgb;
        src_a = src_rgb;
        dst_a = dst_rgb;
    }
    b->eq_rgb = blend_eq(eq_rgb);
    b->eq_a = blend_eq(eq_a);
    b->src_rgb = blend_factor(src_rgb);
    b->dst_rgb = blend_factor(dst_rgb);
    b->src_a = blend_factor(src_a);
    b->dst_a = blend_factor(dst_a);
}

static void setup_state(NV50Rop *r)
{
    NV50Gr3dState *st = r->st;
    uint32_t rtc = get(st, M_RT_CONTROL);
    uint32_t clampen = get(st, M_FRAG_COLOR_CLAMP_EN);
    bool mask_common = get(st, M_COLOR_MASK_COMMON);

    r->rt_count = MIN(rtc & 0xf, NV50_PIPE_RTS);
    for (unsigned i = 0; i < NV50_PIPE_RTS; i++) {
        uint32_t cm = get(st, mask_common ? M_COLOR_MASK(0) : M_COLOR_MASK(i));

        r->rt_map[i] = (rtc >> (4 + 3 * i)) & 7;
        r->rt[i].mask = (cm & 0xf ? 1 : 0) | (cm & 0xf0 ? 2 : 0) |
                        (cm & 0xf00 ? 4 : 0) | (cm & 0xf000 ? 8 : 0);
        r->rt[i].clamp = (clampen >> (4 * i)) & 1;
        setup_blend(r, i);
    }
    for (unsigned i = 0; i < 4; i++) {
        r->blend_color[i] = getf(st, M_BLEND_COLOR(i));
    }
    r->logic = get(st, M_LOGIC_OP_ENABLE);
    r->logic_op = get(st, M_LOGIC_OP) & 0xf;
    if (r->logic && (get(st, M_LOGIC_OP) & ~0xfu) != 0x1500) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-lop", get(st, M_LOGIC_OP),
                      "nv50: 3D ROP: LOGIC_OP 0x%x is not an op, COPY\n",
                      get(st, M_LOGIC_OP));
        r->logic_op = 3;
    }
    for (unsigned i = 0; i < NV50_PIPE_RTS; i++) {
        RopRt *t = &r->rt[i];

        t->plain_unorm8 = t->fmt && nv50_rop_is_unorm8x4(t->fmt) &&
                          t->mask == 0xf && !t->blend.enable && !r->logic;
    }
    r->alpha_to_one = get(st, NV50_3D_MULTISAMPLE_CTRL) &
                      NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE;
    /* GL: no coverage from alpha without multisample rasterisation */
    r->alpha_cov = r->ms_raster && (get(st, NV50_3D_MULTISAMPLE_CTRL) &
                                    NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_COVERAGE);

    r->depth_test = get(st, M_DEPTH_TEST_ENABLE);
    r->depth_func = cmp_func(get(st, M_DEPTH_TEST_FUNC));
    r->depth_write = get(st, M_DEPTH_WRITE_ENABLE);
    r->depth_bounds = get(st, M_DEPTH_BOUNDS_EN);
    r->bounds_min = getf(st, M_DEPTH_BOUNDS(0));
    r->bounds_max = getf(st, M_DEPTH_BOUNDS(1));
    r->stencil = get(st, M_STENCIL_ENABLE);
    for (unsigned f = 0; f < 2; f++) {
        bool back = f && get(st, M_STENCIL_TWO_SIDE_ENABLE);
        uint32_t ops = back ? M_STENCIL_BACK_OP_FAIL : M_STENCIL_FRONT_OP_FAIL;
        RopStencilSide *sd = &r->side[f];

        sd->op_fail = stencil_op(get(st, ops));
        sd->op_zfail = stencil_op(get(st, ops + 4));
        sd->op_zpass = stencil_op(get(st, ops + 8));
        sd->func = cmp_func(get(st, ops + 12));
        if (back) {
            sd->ref = get(st, M_STENCIL_BACK_FUNC_REF);
            sd->write_mask = get(st, M_STENCIL_BACK_MASK);
            sd->func_mask = get(st, M_STENCIL_BACK_FUNC_MASK);
        } else {
            sd->ref = get(st, M_STENCIL_FRONT_OP_FAIL + 16);
            sd->write_mask = get(st, M_STENCIL_FRONT_MASK);
            sd->func_mask = get(st, M_STENCIL_FRONT_MASK + 4);
        }
    }
}

NV50Rop *nv50_rop_new(NV50GrCall *c, NV50Gr3dState *st, unsigned layer)
{
    NV50Rop *r = g_new0(NV50Rop, 1);

    r->c = c;
    r->st = st;
    r->layer = layer;
    r->plain_rt = -1;
    r->chunks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                      nv50_rop_chunk_drop);
    r->pool = st ? nv50_rop_pool(st) : NULL;
    r->root = r;
    setup_ms(r);
    return r;
}

void nv50_rop_free(NV50Rop *r)
{
    for (unsigned i = 0; i < r->nlanes; i++) {
        nv50_rop_free(r->lane[i]);
    }
    g_hash_table_destroy(r->chunks);
    g_free(r);
}

unsigned nv50_rop_lanes(NV50Rop *r, unsigned n)
{
    n = MIN(n, (unsigned)ROP_MAX_LANES);
    if (!r || r->root != r || r->nlanes) {
        return r ? MAX(r->nlanes, 1u) : 0;
    }
    if (n <= 1) {
        return n;               /* the ROP is its own lane */
    }
    /* what it buffered, for the lanes to load; a byte may then be in
       several caches (rop-mem.c) */
    nv50_rop_cache_flush(r);
    r->track = true;
    for (unsigned i = 0; i < n; i++) {
        NV50Rop *l = g_new(NV50Rop, 1);

        *l = *r;
        l->chunks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                          nv50_rop_chunk_drop);
        l->nchunks = 0;
        l->nlanes = 0;
        l->last_x = l->last_y = -1;
        for (unsigned j = 0; j <= ZETA; j++) {
            rop_mru_forget(&l->surf[j]);
        }
        r->lane[i] = l;
    }
    r->nlanes = n;
    return n;
}

NV50Rop *nv50_rop_lane(NV50Rop *r, unsigned i)
{
    return r && i < r->nlanes ? r->lane[i] : r;
}

void nv50_rop_lanes_sync(NV50Rop *r)
{
    if (!r || !r->nlanes) {
        return;
    }
    for (unsigned i = 0; i < r->nlanes; i++) {
        nv50_rop_cache_merge(r, r->lane[i]);
    }
    /* memory then holds every lane's writes, for whoever loads next */
    nv50_rop_cache_flush(r);
}

NV50Rop *nv50_rop_begin(NV50GrCall *c, NV50Gr3dState *st)
{
    return nv50_rop_begin_at(c, st, get(st, M_LAYER) & 0xffff, 0);
}

NV50Rop *nv50_rop_begin_at(NV50GrCall *c, NV50Gr3dState *st, uint32_t layer,
                           unsigned viewport)
{
    NV50Rop *r = nv50_rop_new(c, st, layer);

    r->layer_gp = get(st, M_LAYER) & 0x10000;
    r->viewport = viewport < 16 ? viewport : 0;
    for (unsigned i = 0; i < NV50_PIPE_RTS; i++) {
        if (i < (get(st, M_RT_CONTROL) & 0xf) && !nv50_rop_setup_rt(r, i)) {
            nv50_rop_free(r);
            return NULL;
        }
    }
    if (!nv50_rop_setup_zeta(r)) {
        nv50_rop_free(r);
        return NULL;
    }
    setup_state(r);
    nv50_rop_setup_bounds(r, false);
    /* after the clip rectangles' set-up: the single-sample fast path */
    if (r->rt_count == 1 && r->ms.samples == 1 && !r->cliprects &&
        (r->sample_mask & 1) && r->surf[r->rt_map[0]].on &&
        r->rt[r->rt_map[0]].plain_unorm8) {
        r->plain_rt = r->rt_map[0];
    }
    return r;
}

void nv50_rop_end(NV50Rop *r)
{
    if (!r) {
        return;
    }
    nv50_rop_lanes_sync(r);
    nv50_rop_cache_flush(r);
    nv50_rop_free(r);
}

void nv50_rop_bounds(const NV50Rop *r, RasterParams *p)
{
    p->x0 = r->x0;
    p->y0 = r->y0;
    p->x1 = r->x1;
    p->y1 = r->y1;
    p->samples = r->ms_raster ? &r->ms.pattern : NULL;
}

unsigned nv50_rop_outputs(const NV50Rop *r)
{
    /* colour output 1 is dual-source blending's second colour */
    return r ? MAX(r->rt_count, 2u) : NV50_PIPE_RTS;
}

bool nv50_rop_alpha_coverage_on(const NV50Rop *r)
{
    return r && r->alpha_cov;
}

uint32_t nv50_rop_alpha_coverage(const NV50Rop *r, float alpha)
{
    return nv50_rop_alpha_coverage_on(r)
           ? nv50_msaa_alpha_coverage(&r->ms, alpha) : ~0u;
}

bool nv50_rop_alpha_test(const NV50Rop *r, float alpha)
{
    if (!get(r->st, M_ALPHA_TEST_ENABLE)) {
        return true;
    }
    return nv50_rop_compare(cmp_func(get(r->st, M_ALPHA_TEST_FUNC)), alpha,
                            getf(r->st, M_ALPHA_TEST_REF));
}

