/*
 * G80_2D (class 0x502d): the 2D engine's methods.  Names are rnndb
 * graph/g80_2d.xml's; nvhw/class/cl502d.h (Linux 6.1) names, where
 * different, are in the comments (fbcon uses those).  The drawing is in
 * 2d-draw.c, formats and ROPs in 2d-pixel.c.
 *
 * State is per channel (the class family's state, NV502dState).  Values
 * are checked when written where the method has an enum (INVALID_ENUM,
 * the value not taken) and when a draw uses them otherwise.
 *
 * UNVERIFIED: the defaults (SRCCOPY, ROP 0xcc, COND_MODE ALWAYS, BETA1
 * and BETA4 all ones, unit scale factors for BLIT and SIFC): nvkm's
 * context image is not run, and a guest that relies on a default other
 * than these is not known.  DMA objects are decoded when bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/gr/2d.h"

static void nv502d_init(void *opaque)
{
    NV502dState *st = opaque;

    st->operation = NV502D_OP_SRCCOPY;
    st->rop = 0xcc;
    st->cond_mode = 1;                  /* ALWAYS */
    st->beta1 = 0x7f800000;
    st->beta4 = 0xffffffff;
    st->pattern_color_format = 2;       /* A8R8G8B8 */
    st->pattern_bitmap_format = 1;      /* LE */
    st->draw_shape = NV502D_SHAPE_RECTANGLES;
    st->draw_color_format = 0xcf;
    st->sifc_format = 0xcf;
    st->sifc_dx_du_int = 1;
    st->sifc_dy_dv_int = 1;
    st->blit_du_dx_int = 1;
    st->blit_dv_dy_int = 1;
    st->dst.format = st->src.format = 0xcf;
    st->dst.linear = st->src.linear = 1;
    st->dst.depth = st->src.depth = 1;
    st->corral_size = 4;
    st->unk870 = 4444480;
}

static void nv502d_fini(void *opaque)
{
    nv502d_sifc_reset(opaque);
}

/* Check @v against a format method; false (error raised) if not 2D's. */
static bool check_format(NV50GrCall *c, const char *name, uint32_t v)
{
    if (nv502d_format(v)) {
        return true;
    }
    nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                  "G80_2D: %s 0x%x is not a 2D format", name, v);
    return false;
}

static bool check_enum(NV50GrCall *c, const char *name, uint32_t v,
                       uint32_t max)
{
    if (v <= max) {
        return true;
    }
    nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                  "G80_2D: %s 0x%x (at most %u)", name, v, max);
    return false;
}

static void unimp(uint32_t mthd, const char *name)
{
    gemu_log_once(LOG_UNIMP, "nv50 G80_2D", mthd,
                  "nv50: G80_2D: %s (0x%03x) not implemented\n", name, mthd);
}

static void bind_dma(NV50GrCall *c, uint32_t data, NV50CtxDma *d, bool *ok)
{
    *ok = false;
    if (!data) {
        return;             /* unbound */
    }
    *ok = nv50_gr_ctxdma(c, data, d);
}

/* A surface method 0x200-0x224 / 0x230-0x254 (index 0-9). */
static bool surf_method(NV50GrCall *c, NV502dSurfRegs *r, bool is_src,
                        unsigned idx, uint32_t data)
{
    switch (idx) {
    case 0:
        if (check_format(c, is_src ? "SRC_FORMAT" : "DST_FORMAT", data)) {
            r->format = data;
        }
        break;
    case 1:
        r->linear = data & 1;
        break;
    case 2:
        r->block_dimensions = data;
        break;
    case 3:
        r->depth = data;
        break;
    case 4:
        r->layer = data;
        break;
    case 5:
        if (is_src && data > 0x40000) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "G80_2D: SRC_PITCH 0x%x above 0x40000", data);
            break;
        }
        r->pitch = data;
        break;
    case 6:
        r->width = data;
        break;
    case 7:
        r->height = data;
        break;
    case 8:
        r->address_high = data & 0xff;
        break;
    default:
        r->address_low = data;
        break;
    }
    return true;
}

static bool nv502d_method(NV50GrCall *c, void *opaque, uint32_t mthd,
                          uint32_t data)
{
    NV502dState *st = opaque;

    if (nv50_gr_common_method(c, &st->notify, mthd, data)) {
        return true;
    }
    /* any SIFC parameter starts the image over */
    if (mthd >= 0x800 && mthd < 0x860) {
        nv502d_sifc_reset(st);
    }
    switch (mthd) {
    case 0x184:     /* DMA_DST (SET_DST_CONTEXT_DMA) */
        bind_dma(c, data, &st->dma_dst, &st->dma_dst_ok);
        break;
    case 0x188:     /* DMA_SRC */
        bind_dma(c, data, &st->dma_src, &st->dma_src_ok);
        break;
    case 0x18c:     /* DMA_COND (SET_SEMAPHORE_CONTEXT_DMA) */
        bind_dma(c, data, &st->dma_cond, &st->dma_cond_ok);
        break;
    case 0x200 ... 0x224:
        surf_method(c, &st->dst, false, (mthd - 0x200) / 4, data);
        break;
    case 0x228:
        st->unk228 = data;
        unimp(mthd, "UNK228");
        break;
    case 0x230 ... 0x254:
        surf_method(c, &st->src, true, (mthd - 0x230) / 4, data);
        break;
    case 0x260:
        st->unk260 = data;
        unimp(mthd, "UNK260");
        break;
    case 0x264:
        st->cond_address_high = data & 0xff;
        break;
    case 0x268:
        st->cond_address_low = data;
        break;
    case 0x26c:     /* COND_MODE */
        if (check_enum(c, "COND_MODE", data, 4)) {
            st->cond_mode = data;
            if (data > 1) {
                /* the query comparison is not modelled: draws go on */
                unimp(mthd, "COND_MODE RES_NON_ZERO/EQUAL/NOT_EQUAL");
            }
        }
        break;
    case 0x280:
        st->clip_x = data;
        break;
    case 0x284:
        st->clip_y = data;
        break;
    case 0x288:
        st->clip_w = data;
        break;
    case 0x28c:
        st->clip_h = data;
        break;
    case 0x290:
        st->clip_enable = data & 1;
        break;
    case 0x294:
        if (check_enum(c, "COLOR_KEY_FORMAT", data, 6)) {
            st->color_key_format = data;
        }
        break;
    case 0x298:
        st->color_key = data;
        break;
    case 0x29c:     /* COLOR_KEY_ENABLE: a draw logs it unimplemented */
        st->color_key_enable = data & 1;
        break;
    case 0x2a0:     /* ROP */
        if (data > 0xff) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "G80_2D: ROP 0x%x", data);
            break;
        }
        st->rop = data;
        break;
    case 0x2a4:
        st->beta1 = data;
        break;
    case 0x2a8:
        st->beta4 = data;
        break;
    case 0x2ac:     /* OPERATION */
        if (check_enum(c, "OPERATION", data, NV502D_OP_BLEND_PREMULT)) {
            st->operation = data;
        }
        break;
    case 0x2b0:
        st->pattern_offset = data & 0x3f3f;
        break;
    case 0x2b4:
        if (check_enum(c, "PATTERN_SELECT", data, NV502D_PAT_COLOR)) {
            st->pattern_select = data;
        }
        break;
    case 0x2e8:     /* PATTERN_COLOR_FORMAT (MONOCHROME_PATTERN_...) */
        if (check_enum(c, "PATTERN_COLOR_FORMAT", data, 5)) {
            st->pattern_color_format = data;
        }
        break;
    case 0x2ec:     /* PATTERN_BITMAP_FORMAT: 0 CGA6, 1 LE */
        if (check_enum(c, "PATTERN_BITMAP_FORMAT", data, 1)) {
            st->pattern_bitmap_format = data;
        }
        break;
    case 0x2f0:
    case 0x2f4:
        st->pattern_bitmap_color[(mthd - 0x2f0) / 4] = data;
        break;
    case 0x2f8:
    case 0x2fc:
        st->pattern_bitmap[(mthd - 0x2f8) / 4] = data;
        break;
    case 0x300 ... 0x3fc:   /* PATTERN_X8R8G8B8 */
        st->pattern_color[(mthd - 0x300) / 4] = data & 0xffffff;
        break;
    case 0x400 ... 0x47c:   /* PATTERN_R5G6B5: two cells a word */
    case 0x480 ... 0x4fc: { /* PATTERN_X1R5G5B5 */
        bool is565 = mthd < 0x480;
        unsigned i = (mthd - (is565 ? 0x400 : 0x480)) / 4 * 2, k;

        for (k = 0; k < 2; k++) {
            uint32_t v = data >> (16 * k) & 0xffff;
            uint32_t r, g, b;

            if (is565) {
                r = (v >> 11) & 0x1f;
                g = (v >> 5) & 0x3f;
                b = v & 0x1f;
                g = g << 2 | g >> 4;
            } else {
                r = (v >> 10) & 0x1f;
                g = (v >> 5) & 0x1f;
                b = v & 0x1f;
                g = g << 3 | g >> 2;
            }
            r = r << 3 | r >> 2;
            b = b << 3 | b >> 2;
            st->pattern_color[i + k] = r << 16 | g << 8 | b;
        }
        break;
    }
    case 0x500 ... 0x53c: { /* PATTERN_Y8: four cells a word */
        unsigned i = (mthd - 0x500), k;

        for (k = 0; k < 4; k++) {
            uint32_t y = data >> (8 * k) & 0xff;

            st->pattern_color[i + k] = y << 16 | y << 8 | y;
        }
        break;
    }
    case 0x580:     /* DRAW_SHAPE (RENDER_SOLID_PRIM_MODE) */
        if (check_enum(c, "DRAW_SHAPE", data, NV502D_SHAPE_RECTANGLES)) {
            st->draw_shape = data;
        }
        st->nvtx = 0;
        break;
    case 0x584:     /* DRAW_COLOR_FORMAT */
        if (check_format(c, "DRAW_COLOR_FORMAT", data)) {
            st->draw_color_format = data;
        }
        break;
    case 0x588:     /* DRAW_COLOR (SET_RENDER_SOLID_PRIM_COLOR) */
        st->draw_color = data;
        break;
    case 0x58c:
        st->unk58c = data;
        unimp(mthd, "UNK58C");
        break;
    case 0x5e0:     /* DRAW_POINT16 */
        nv502d_solid_vertex(c, st, (int16_t)(data & 0xffff),
                            (int16_t)(data >> 16));
        break;
    case 0x600 ... 0x7fc:   /* DRAW_POINT32_X/Y (RENDER_SOLID_PRIM_POINT) */
        if (mthd & 4) {
            nv502d_solid_vertex(c, st, st->point32_x, data);
        } else {
            st->point32_x = data;
        }
        break;
    case 0x800:     /* SIFC_BITMAP_ENABLE (PIXELS_FROM_CPU_DATA_TYPE) */
        st->sifc_bitmap_enable = data & 1;
        break;
    case 0x804:     /* SIFC_FORMAT (PIXELS_FROM_CPU_COLOR_FORMAT) */
        if (check_format(c, "SIFC_FORMAT", data)) {
            st->sifc_format = data;
        }
        break;
    case 0x808:     /* SIFC_BITMAP_FORMAT (..._INDEX_FORMAT) */
        if (check_enum(c, "SIFC_BITMAP_FORMAT", data, 2)) {
            st->sifc_bitmap_format = data;
        }
        break;
    case 0x80c:     /* SIFC_BITMAP_LSB_FIRST (..._MONO_FORMAT) */
        st->sifc_bitmap_lsb_first = data & 1;
        break;
    case 0x810:     /* SIFC_BITMAP_LINE_PACK_MODE (..._WRAP) */
        if (check_enum(c, "SIFC_BITMAP_LINE_PACK_MODE", data, 2)) {
            st->sifc_bitmap_line_pack_mode = data;
        }
        break;
    case 0x814:     /* SIFC_BITMAP_COLOR_BIT0 (..._COLOR0) */
    case 0x818:
        st->sifc_bitmap_color[(mthd - 0x814) / 4] = data;
        break;
    case 0x81c:     /* SIFC_BITMAP_WRITE_BIT0_ENABLE (..._MONO_OPACITY) */
        st->sifc_bitmap_write_bit0_enable = data & 1;
        break;
    case 0x838:
        st->sifc_width = data;
        break;
    case 0x83c:
        st->sifc_height = data;
        break;
    case 0x840:
        st->sifc_dx_du_fract = data;
        break;
    case 0x844:
        st->sifc_dx_du_int = data;
        break;
    case 0x848:
        st->sifc_dy_dv_fract = data;
        break;
    case 0x84c:
        st->sifc_dy_dv_int = data;
        break;
    case 0x850:
        st->sifc_dst_x_fract = data;
        break;
    case 0x854:
        st->sifc_dst_x_int = data;
        break;
    case 0x858:
        st->sifc_dst_y_fract = data;
        break;
    case 0x85c:
        st->sifc_dst_y_int = data;
        break;
    case 0x860:     /* SIFC_DATA (PIXELS_FROM_CPU_DATA) */
        nv502d_sifc_data(c, st, data);
        break;
    case 0x870:
        st->unk870 = data;
        unimp(mthd, "UNK0870");
        break;
    case 0x880:
        st->unk880 = data;
        unimp(mthd, "UNK0880");
        break;
    case 0x884:     /* SET_PIXELS_FROM_MEMORY_CORRAL_SIZE: a hint */
        st->corral_size = data & 0x3f;
        break;
    case 0x888:     /* SAFE_OVERLAP: gemu's blits always are */
        st->safe_overlap = data & 1;
        break;
    case 0x88c:     /* BLIT_CONTROL: ORIGIN 0, FILTER 4 */
        st->blit_control = data & 0x11;
        break;
    case 0x8b0:
        st->blit_dst_x = data;
        break;
    case 0x8b4:
        st->blit_dst_y = data;
        break;
    case 0x8b8:
        st->blit_dst_w = data;
        break;
    case 0x8bc:
        st->blit_dst_h = data;
        break;
    case 0x8c0:
        st->blit_du_dx_fract = data;
        break;
    case 0x8c4:
        st->blit_du_dx_int = data;
        break;
    case 0x8c8:
        st->blit_dv_dy_fract = data;
        break;
    case 0x8cc:
        st->blit_dv_dy_int = data;
        break;
    case 0x8d0:
        st->blit_src_x_fract = data;
        break;
    case 0x8d4:
        st->blit_src_x_int = data;
        break;
    case 0x8d8:
        st->blit_src_y_fract = data;
        break;
    case 0x8dc:     /* BLIT_SRC_Y_INT: the blit goes */
        st->blit_src_y_int = data;
        nv502d_blit(c, st);
        break;
    default:
        return false;
    }
    nv50_gr_notify_done(c, &st->notify);
    return true;
}

const NV50GrClass nv50_gr_2d_class = {
    .class_id = 0x502d,
    .name = "G80_2D",
    .family = NV50_GR_2D,
    .state_size = sizeof(NV502dState),
    .init = nv502d_init,
    .fini = nv502d_fini,
    .method = nv502d_method,
};
