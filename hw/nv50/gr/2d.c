/*
 * G80_2D (class 0x502d): the 2D engine's methods.  Names are rnndb
 * graph/g80_2d.xml's; nvhw/class/cl502d.h (Linux 6.1) names, where
 * different, are in the comments (fbcon uses those).  The drawing is in
 * 2d-draw.c, formats and ROPs in 2d-pixel.c.
 *
 * The methods are data: nv502d_mthds[], indexed by method / 4, holds a
 * row {handler, name, field, argument} for each, grouped by concern
 * (surfaces, condition, clip, operation/ROP/pattern, solid primitives,
 * SIFC, BLIT).  Most rows only keep the value (masked, or checked
 * against an enum or the 2D formats); the handlers of the others follow
 * their concern's heading below.
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

/* --- the method table ---------------------------------------------------- */

typedef struct NV502dMthd NV502dMthd;

/* A method's handler: @m its row, @mthd the method (in @m's range). */
typedef void NV502dMthdFn(NV50GrCall *c, NV502dState *st,
                          const NV502dMthd *m, uint32_t mthd, uint32_t data);

struct NV502dMthd {
    NV502dMthdFn *fn;           /* NULL: G80_2D has no such method */
    const char *name;           /* g80_2d.xml's, for messages */
    uint16_t first;             /* the method of the row's index 0 */
    uint16_t field;             /* the uint32_t of NV502dState it sets */
    uint32_t arg;               /* the handler's: a mask, a maximum... */
};

G_STATIC_ASSERT(sizeof(NV502dState) <= UINT16_MAX);     /* .field */

/* The state word @m sets for @mthd: word i of an array for index i. */
static uint32_t *field(NV502dState *st, const NV502dMthd *m, uint32_t mthd)
{
    return (uint32_t *)((uint8_t *)st + m->field + (mthd - m->first));
}

/* Kept, masked with arg. */
static void mthd_store(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                       uint32_t mthd, uint32_t data)
{
    *field(st, m, mthd) = data & m->arg;
}

/* Kept and logged unimplemented: no effect is modelled. */
static void mthd_unimp(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                       uint32_t mthd, uint32_t data)
{
    *field(st, m, mthd) = data;
    unimp(mthd, m->name);
}

/* An enum of values 0..arg: anything else is INVALID_ENUM, not kept. */
static void mthd_enum(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                      uint32_t mthd, uint32_t data)
{
    if (check_enum(c, m->name, data, m->arg)) {
        *field(st, m, mthd) = data;
    }
}

/* A surface format: one 2D has, or INVALID_ENUM and not kept. */
static void mthd_format(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                        uint32_t mthd, uint32_t data)
{
    if (check_format(c, m->name, data)) {
        *field(st, m, mthd) = data;
    }
}

/* A DMA object, decoded here: field the NV50CtxDma, arg its bool ok. */
static void mthd_dma(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                     uint32_t mthd, uint32_t data)
{
    NV50CtxDma *d = (NV50CtxDma *)((uint8_t *)st + m->field);
    bool *ok = (bool *)((uint8_t *)st + m->arg);

    *ok = false;
    if (!data) {
        return;             /* unbound */
    }
    *ok = nv50_gr_ctxdma(c, data, d);
}

/*
 * Rows, indexed by method / 4.  MTHD is one method, MTHDS @n of them
 * (an array, stride 4); names drop the "NV502D_" of the defines.  Each
 * macro stringifies its own @m: passed on, @m would be expanded first.
 */
#define ROW(m, name_, fn_, f, a) {                                          \
        .fn = (fn_), .name = (name_) + sizeof("NV502D_") - 1,              \
        .first = (m), .field = offsetof(NV502dState, f), .arg = (a) }
#define MTHD(m, fn_, f, a)          [(m) / 4] = ROW(m, #m, fn_, f, a)
#define MTHDS(m, n, fn_, f, a)                                              \
    [(m) / 4 ... (m) / 4 + (n) - 1] = ROW(m, #m, fn_, f, a)
#define STORE(m, f)                                                         \
    [(m) / 4] = ROW(m, #m, mthd_store, f, UINT32_MAX)
#define STORE_MASK(m, f, mask)                                              \
    [(m) / 4] = ROW(m, #m, mthd_store, f, mask)
#define CALL(m, fn_)                [(m) / 4] = ROW(m, #m, fn_, notify, 0)
#define CALLS(m, n, fn_)                                                    \
    [(m) / 4 ... (m) / 4 + (n) - 1] = ROW(m, #m, fn_, notify, 0)

/* --- surfaces ------------------------------------------------------------ */

static void mthd_src_pitch(NV50GrCall *c, NV502dState *st,
                           const NV502dMthd *m, uint32_t mthd, uint32_t data)
{
    if (data > 0x40000) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: SRC_PITCH 0x%x above 0x40000", data);
        return;
    }
    st->src.pitch = data;
}

#define SURFACE_ROWS(S, s)                                                  \
    MTHD(NV502D_##S##_FORMAT, mthd_format, s.format, 0),                    \
    STORE_MASK(NV502D_##S##_LINEAR, s.linear, 1),                           \
    STORE(NV502D_##S##_TILE_MODE, s.block_dimensions),                      \
    STORE(NV502D_##S##_DEPTH, s.depth),                                     \
    STORE(NV502D_##S##_LAYER, s.layer),                                     \
    STORE(NV502D_##S##_WIDTH, s.width),                                     \
    STORE(NV502D_##S##_HEIGHT, s.height),                                   \
    STORE_MASK(NV502D_##S##_ADDRESS_HIGH, s.address_high, 0xff),            \
    STORE(NV502D_##S##_ADDRESS_LOW, s.address_low)

/* --- the condition ------------------------------------------------------- */

static void mthd_cond_mode(NV50GrCall *c, NV502dState *st,
                           const NV502dMthd *m, uint32_t mthd, uint32_t data)
{
    if (check_enum(c, "COND_MODE", data, 4)) {
        st->cond_mode = data;
        if (data > 1) {
            /* the query comparison is not modelled: draws go on */
            unimp(mthd, "COND_MODE RES_NON_ZERO/EQUAL/NOT_EQUAL");
        }
    }
}

/* --- operation, ROP and pattern ------------------------------------------ */

static void mthd_rop(NV50GrCall *c, NV502dState *st, const NV502dMthd *m,
                     uint32_t mthd, uint32_t data)
{
    if (data > 0xff) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "G80_2D: ROP 0x%x", data);
        return;
    }
    st->rop = data;
}

/* Two 16-bit pattern cells from @data, widened to X8R8G8B8. */
static void pattern_16(NV502dState *st, unsigned i, uint32_t data,
                       bool is565)
{
    unsigned k;

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
}

static void mthd_pattern_r5g6b5(NV50GrCall *c, NV502dState *st,
                                const NV502dMthd *m, uint32_t mthd,
                                uint32_t data)
{
    pattern_16(st, (mthd - m->first) / 4 * 2, data, true);
}

static void mthd_pattern_x1r5g5b5(NV50GrCall *c, NV502dState *st,
                                  const NV502dMthd *m, uint32_t mthd,
                                  uint32_t data)
{
    pattern_16(st, (mthd - m->first) / 4 * 2, data, false);
}

/* Four cells a word. */
static void mthd_pattern_y8(NV50GrCall *c, NV502dState *st,
                            const NV502dMthd *m, uint32_t mthd, uint32_t data)
{
    unsigned i = mthd - m->first, k;

    for (k = 0; k < 4; k++) {
        uint32_t y = data >> (8 * k) & 0xff;

        st->pattern_color[i + k] = y << 16 | y << 8 | y;
    }
}

/* --- solid primitives ---------------------------------------------------- */

static void mthd_draw_shape(NV50GrCall *c, NV502dState *st,
                            const NV502dMthd *m, uint32_t mthd, uint32_t data)
{
    mthd_enum(c, st, m, mthd, data);
    st->nvtx = 0;
}

static void mthd_draw_point16(NV50GrCall *c, NV502dState *st,
                              const NV502dMthd *m, uint32_t mthd,
                              uint32_t data)
{
    nv502d_solid_vertex(c, st, (int16_t)(data & 0xffff),
                        (int16_t)(data >> 16));
}

/* DRAW_POINT32_X(i) / _Y(i) alternate: Y draws the vertex. */
static void mthd_draw_point32(NV50GrCall *c, NV502dState *st,
                              const NV502dMthd *m, uint32_t mthd,
                              uint32_t data)
{
    if (mthd & 4) {
        nv502d_solid_vertex(c, st, st->point32_x, data);
    } else {
        st->point32_x = data;
    }
}

/* --- SIFC (pixels from CPU) ---------------------------------------------- */

static void mthd_sifc_data(NV50GrCall *c, NV502dState *st,
                           const NV502dMthd *m, uint32_t mthd, uint32_t data)
{
    nv502d_sifc_data(c, st, data);
}

/* --- BLIT (pixels from memory) ------------------------------------------- */

static void mthd_blit_src_y_int(NV50GrCall *c, NV502dState *st,
                                const NV502dMthd *m, uint32_t mthd,
                                uint32_t data)
{
    st->blit_src_y_int = data;
    nv502d_blit(c, st);
}

static const NV502dMthd nv502d_mthds[NV502D_MTHD_END / 4] = {
    /* surfaces */
    MTHD(NV502D_DMA_DST, mthd_dma, dma_dst, offsetof(NV502dState,
                                                     dma_dst_ok)),
    MTHD(NV502D_DMA_SRC, mthd_dma, dma_src, offsetof(NV502dState,
                                                     dma_src_ok)),
    SURFACE_ROWS(DST, dst),
    STORE(NV502D_DST_PITCH, dst.pitch),
    SURFACE_ROWS(SRC, src),
    CALL(NV502D_SRC_PITCH, mthd_src_pitch),
    MTHD(NV502D_UNK228, mthd_unimp, unk228, 0),

    /* the condition */
    MTHD(NV502D_DMA_COND, mthd_dma, dma_cond, offsetof(NV502dState,
                                                       dma_cond_ok)),
    MTHD(NV502D_UNK260, mthd_unimp, unk260, 0),
    STORE_MASK(NV502D_COND_ADDRESS_HIGH, cond_address_high, 0xff),
    STORE(NV502D_COND_ADDRESS_LOW, cond_address_low),
    CALL(NV502D_COND_MODE, mthd_cond_mode),

    /* clip and colour key */
    STORE(NV502D_CLIP_X, clip_x),
    STORE(NV502D_CLIP_Y, clip_y),
    STORE(NV502D_CLIP_W, clip_w),
    STORE(NV502D_CLIP_H, clip_h),
    STORE_MASK(NV502D_CLIP_ENABLE, clip_enable, 1),
    MTHD(NV502D_COLOR_KEY_FORMAT, mthd_enum, color_key_format, 6),
    STORE(NV502D_COLOR_KEY, color_key),
    /* a draw logs it unimplemented */
    STORE_MASK(NV502D_COLOR_KEY_ENABLE, color_key_enable, 1),

    /* operation, ROP and pattern */
    CALL(NV502D_ROP, mthd_rop),
    STORE(NV502D_BETA1, beta1),
    STORE(NV502D_BETA4, beta4),
    MTHD(NV502D_OPERATION, mthd_enum, operation, NV502D_OP_BLEND_PREMULT),
    STORE_MASK(NV502D_PATTERN_OFFSET, pattern_offset, 0x3f3f),
    MTHD(NV502D_PATTERN_SELECT, mthd_enum, pattern_select,
         NV502D_PAT_COLOR),
    MTHD(NV502D_PATTERN_COLOR_FORMAT, mthd_enum, pattern_color_format, 5),
    /* 0 CGA6, 1 LE */
    MTHD(NV502D_PATTERN_BITMAP_FORMAT, mthd_enum, pattern_bitmap_format, 1),
    MTHDS(NV502D_PATTERN_BITMAP_COLOR(0), 2, mthd_store,
          pattern_bitmap_color, UINT32_MAX),
    MTHDS(NV502D_PATTERN_BITMAP(0), 2, mthd_store, pattern_bitmap,
          UINT32_MAX),
    MTHDS(NV502D_PATTERN_X8R8G8B8(0), 64, mthd_store, pattern_color,
          0xffffff),
    CALLS(NV502D_PATTERN_R5G6B5(0), 32, mthd_pattern_r5g6b5),
    CALLS(NV502D_PATTERN_X1R5G5B5(0), 32, mthd_pattern_x1r5g5b5),
    CALLS(NV502D_PATTERN_Y8(0), 16, mthd_pattern_y8),

    /* solid primitives */
    MTHD(NV502D_DRAW_SHAPE, mthd_draw_shape, draw_shape,
         NV502D_SHAPE_RECTANGLES),
    MTHD(NV502D_DRAW_COLOR_FORMAT, mthd_format, draw_color_format, 0),
    STORE(NV502D_DRAW_COLOR, draw_color),
    MTHD(NV502D_UNK58C, mthd_unimp, unk58c, 0),
    CALL(NV502D_DRAW_POINT16, mthd_draw_point16),
    CALLS(NV502D_DRAW_POINT32_X(0), 128, mthd_draw_point32),

    /* SIFC: any parameter starts the image over (nv502d_method) */
    STORE_MASK(NV502D_SIFC_BITMAP_ENABLE, sifc_bitmap_enable, 1),
    MTHD(NV502D_SIFC_FORMAT, mthd_format, sifc_format, 0),
    MTHD(NV502D_SIFC_BITMAP_FORMAT, mthd_enum, sifc_bitmap_format, 2),
    STORE_MASK(NV502D_SIFC_BITMAP_LSB_FIRST, sifc_bitmap_lsb_first, 1),
    MTHD(NV502D_SIFC_BITMAP_LINE_PACK_MODE, mthd_enum,
         sifc_bitmap_line_pack_mode, 2),
    MTHDS(NV502D_SIFC_BITMAP_COLOR_BIT0, 2, mthd_store, sifc_bitmap_color,
          UINT32_MAX),
    STORE_MASK(NV502D_SIFC_BITMAP_WRITE_BIT0_ENABLE,
               sifc_bitmap_write_bit0_enable, 1),
    STORE(NV502D_SIFC_WIDTH, sifc_width),
    STORE(NV502D_SIFC_HEIGHT, sifc_height),
    STORE(NV502D_SIFC_DX_DU_FRACT, sifc_dx_du_fract),
    STORE(NV502D_SIFC_DX_DU_INT, sifc_dx_du_int),
    STORE(NV502D_SIFC_DY_DV_FRACT, sifc_dy_dv_fract),
    STORE(NV502D_SIFC_DY_DV_INT, sifc_dy_dv_int),
    STORE(NV502D_SIFC_DST_X_FRACT, sifc_dst_x_fract),
    STORE(NV502D_SIFC_DST_X_INT, sifc_dst_x_int),
    STORE(NV502D_SIFC_DST_Y_FRACT, sifc_dst_y_fract),
    STORE(NV502D_SIFC_DST_Y_INT, sifc_dst_y_int),
    CALL(NV502D_SIFC_DATA, mthd_sifc_data),

    /* BLIT */
    MTHD(NV502D_UNK0870, mthd_unimp, unk870, 0),
    MTHD(NV502D_UNK0880, mthd_unimp, unk880, 0),
    STORE_MASK(NV502D_UNK0884, corral_size, 0x3f),  /* a hint */
    STORE_MASK(NV502D_UNK0888, safe_overlap, 1),    /* gemu's always are */
    STORE_MASK(NV502D_BLIT_CONTROL, blit_control, 0x11), /* ORIGIN, FILTER */
    STORE(NV502D_BLIT_DST_X, blit_dst_x),
    STORE(NV502D_BLIT_DST_Y, blit_dst_y),
    STORE(NV502D_BLIT_DST_W, blit_dst_w),
    STORE(NV502D_BLIT_DST_H, blit_dst_h),
    STORE(NV502D_BLIT_DU_DX_FRACT, blit_du_dx_fract),
    STORE(NV502D_BLIT_DU_DX_INT, blit_du_dx_int),
    STORE(NV502D_BLIT_DV_DY_FRACT, blit_dv_dy_fract),
    STORE(NV502D_BLIT_DV_DY_INT, blit_dv_dy_int),
    STORE(NV502D_BLIT_SRC_X_FRACT, blit_src_x_fract),
    STORE(NV502D_BLIT_SRC_X_INT, blit_src_x_int),
    STORE(NV502D_BLIT_SRC_Y_FRACT, blit_src_y_fract),
    CALL(NV502D_BLIT_SRC_Y_INT, mthd_blit_src_y_int),
};

static bool nv502d_method(NV50GrCall *c, void *opaque, uint32_t mthd,
                          uint32_t data)
{
    NV502dState *st = opaque;
    const NV502dMthd *m;

    if (nv50_gr_common_method(c, &st->notify, mthd, data)) {
        return true;
    }
    /* any SIFC parameter starts the image over */
    if (mthd >= NV502D_SIFC_BITMAP_ENABLE && mthd < NV502D_SIFC_DATA) {
        nv502d_sifc_reset(st);
    }
    if (mthd >= NV502D_MTHD_END || !nv502d_mthds[mthd / 4].fn) {
        return false;
    }
    m = &nv502d_mthds[mthd / 4];
    m->fn(c, st, m, mthd, data);
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
