/*
 * G80_2D (class 0x502d) internals shared by 2d.c (methods, surfaces,
 * drawing) and 2d-pixel.c (surface formats, colour conversion, ROPs).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_2D_H
#define HW_NV50_GR_2D_H

#include "gemu/osdep.h"
#include "hw/nv50/gr/gr.h"
#include "hw/nv50/surface.h"

/* The largest element of a 2D format: RGBA32_FLOAT. */
#define NV502D_MAX_BPP  16

/* How a format's channels are stored. */
typedef enum {
    NV502D_KIND_UNORM,      /* bit fields of one <= 32-bit word */
    NV502D_KIND_FLOAT,      /* 16- or 32-bit floats, R first */
} NV502dKind;

typedef struct NV502dFormat {
    uint8_t id;             /* G80_SURFACE_FORMAT */
    const char *name;       /* rnndb g80_defs.xml */
    uint8_t bpp;            /* bytes per element */
    NV502dKind kind;
    /*
     * UNORM: shift and width of R, G, B, A in the little-endian word
     * (width 0: absent).  FLOAT: width is 16 or 32 and the shift the
     * bit offset in the element.
     */
    uint8_t shift[4], bits[4];
    /*
     * Y formats (Y8, Y16, Y32: the 2D engine's index formats) only
     * convert to themselves: anything else is ENG2D_FORMAT_MISMATCH.
     */
    bool is_y;
    /* bits no channel covers: written as ones unless zero_x */
    bool zero_x;
} NV502dFormat;

/* A colour between formats: R, G, B, A, UNORM as 0..1. */
typedef struct NV502dColor {
    double c[4];
} NV502dColor;

/* The format @id names, or NULL if the 2D engine has no such format. */
const NV502dFormat *nv502d_format(uint32_t id);

void nv502d_unpack(const NV502dFormat *f, const uint8_t *px,
                   NV502dColor *col);
void nv502d_pack(const NV502dFormat *f, const NV502dColor *col,
                 uint8_t *px);
/* True unless the element's alpha is zero (no alpha channel: true). */
bool nv502d_alpha_nonzero(const NV502dFormat *f, const uint8_t *px);
/*
 * @n elements from @sf to @df: bit for bit when the formats are the
 * same, else through NV502dColor.
 */
void nv502d_convert(const NV502dFormat *sf, const uint8_t *src,
                    const NV502dFormat *df, uint8_t *dst, size_t n);
/*
 * The ternary ROP over @len bytes: bit i of the result is bit
 * (D | S << 1 | P << 2) of @rop, D/S/P bit i of @d, @s, @p (rnndb ROP).
 */
void nv502d_rop(uint8_t rop, const uint8_t *d, const uint8_t *s,
                const uint8_t *p, uint8_t *out, size_t len);

/* PGRAPH's VM subclient for 2D surface accesses (nvkm: DST2D) */
#define NV502D_VM_SUBCLIENT     0xc

/*
 * Methods (rnndb g80_2d.xml names; cl502d.h's, where different, in
 * comments).  DST_* and SRC_* are the same ten methods 0x30 apart.
 */
#define NV502D_DMA_DST                      0x0184  /* SET_DST_CONTEXT_DMA */
#define NV502D_DMA_SRC                      0x0188
#define NV502D_DMA_COND                     0x018c  /* SET_SEMAPHORE_... */
#define NV502D_DST_FORMAT                   0x0200
#define NV502D_DST_LINEAR                   0x0204
#define NV502D_DST_TILE_MODE                0x0208  /* SET_DST_BLOCK_SIZE */
#define NV502D_DST_DEPTH                    0x020c
#define NV502D_DST_LAYER                    0x0210
#define NV502D_DST_PITCH                    0x0214
#define NV502D_DST_WIDTH                    0x0218
#define NV502D_DST_HEIGHT                   0x021c
#define NV502D_DST_ADDRESS_HIGH             0x0220
#define NV502D_DST_ADDRESS_LOW              0x0224
#define NV502D_UNK228                       0x0228
#define NV502D_SRC_FORMAT                   0x0230
#define NV502D_SRC_LINEAR                   0x0234
#define NV502D_SRC_TILE_MODE                0x0238
#define NV502D_SRC_DEPTH                    0x023c
#define NV502D_SRC_LAYER                    0x0240
#define NV502D_SRC_PITCH                    0x0244
#define NV502D_SRC_WIDTH                    0x0248
#define NV502D_SRC_HEIGHT                   0x024c
#define NV502D_SRC_ADDRESS_HIGH             0x0250
#define NV502D_SRC_ADDRESS_LOW              0x0254
#define NV502D_UNK260                       0x0260
#define NV502D_COND_ADDRESS_HIGH            0x0264
#define NV502D_COND_ADDRESS_LOW             0x0268
#define NV502D_COND_MODE                    0x026c
#define NV502D_CLIP_X                       0x0280
#define NV502D_CLIP_Y                       0x0284
#define NV502D_CLIP_W                       0x0288
#define NV502D_CLIP_H                       0x028c
#define NV502D_CLIP_ENABLE                  0x0290
#define NV502D_COLOR_KEY_FORMAT             0x0294
#define NV502D_COLOR_KEY                    0x0298
#define NV502D_COLOR_KEY_ENABLE             0x029c
#define NV502D_ROP                          0x02a0
#define NV502D_BETA1                        0x02a4
#define NV502D_BETA4                        0x02a8
#define NV502D_OPERATION                    0x02ac
#define NV502D_PATTERN_OFFSET               0x02b0
#define NV502D_PATTERN_SELECT               0x02b4
#define NV502D_PATTERN_COLOR_FORMAT         0x02e8  /* MONOCHROME_... */
#define NV502D_PATTERN_BITMAP_FORMAT        0x02ec
#define NV502D_PATTERN_BITMAP_COLOR(i)      (0x02f0 + 4 * (i))  /* 2 */
#define NV502D_PATTERN_BITMAP(i)            (0x02f8 + 4 * (i))  /* 2 */
#define NV502D_PATTERN_X8R8G8B8(i)          (0x0300 + 4 * (i))  /* 64 */
#define NV502D_PATTERN_R5G6B5(i)            (0x0400 + 4 * (i))  /* 32 */
#define NV502D_PATTERN_X1R5G5B5(i)          (0x0480 + 4 * (i))  /* 32 */
#define NV502D_PATTERN_Y8(i)                (0x0500 + 4 * (i))  /* 16 */
#define NV502D_DRAW_SHAPE                   0x0580  /* ..._SOLID_PRIM_MODE */
#define NV502D_DRAW_COLOR_FORMAT            0x0584
#define NV502D_DRAW_COLOR                   0x0588
#define NV502D_UNK58C                       0x058c
#define NV502D_DRAW_POINT16                 0x05e0
#define NV502D_DRAW_POINT32_X(i)            (0x0600 + 8 * (i))  /* 64 */
#define NV502D_DRAW_POINT32_Y(i)            (0x0604 + 8 * (i))
#define NV502D_SIFC_BITMAP_ENABLE           0x0800  /* PIXELS_FROM_CPU_... */
#define NV502D_SIFC_FORMAT                  0x0804
#define NV502D_SIFC_BITMAP_FORMAT           0x0808  /* ..._INDEX_FORMAT */
#define NV502D_SIFC_BITMAP_LSB_FIRST        0x080c  /* ..._MONO_FORMAT */
#define NV502D_SIFC_BITMAP_LINE_PACK_MODE   0x0810  /* ..._WRAP */
#define NV502D_SIFC_BITMAP_COLOR_BIT0       0x0814  /* ..._COLOR0 */
#define NV502D_SIFC_BITMAP_COLOR_BIT1       0x0818
#define NV502D_SIFC_BITMAP_WRITE_BIT0_ENABLE 0x081c /* ..._MONO_OPACITY */
#define NV502D_SIFC_WIDTH                   0x0838
#define NV502D_SIFC_HEIGHT                  0x083c
#define NV502D_SIFC_DX_DU_FRACT             0x0840
#define NV502D_SIFC_DX_DU_INT               0x0844
#define NV502D_SIFC_DY_DV_FRACT             0x0848
#define NV502D_SIFC_DY_DV_INT               0x084c
#define NV502D_SIFC_DST_X_FRACT             0x0850
#define NV502D_SIFC_DST_X_INT               0x0854
#define NV502D_SIFC_DST_Y_FRACT             0x0858
#define NV502D_SIFC_DST_Y_INT               0x085c
#define NV502D_SIFC_DATA                    0x0860
#define NV502D_UNK0870                      0x0870
#define NV502D_UNK0880                      0x0880
/* SET_PIXELS_FROM_MEMORY_CORRAL_SIZE, ..._SAFE_OVERLAP */
#define NV502D_UNK0884                      0x0884
#define NV502D_UNK0888                      0x0888
#define NV502D_BLIT_CONTROL                 0x088c
#define NV502D_BLIT_DST_X                   0x08b0
#define NV502D_BLIT_DST_Y                   0x08b4
#define NV502D_BLIT_DST_W                   0x08b8
#define NV502D_BLIT_DST_H                   0x08bc
#define NV502D_BLIT_DU_DX_FRACT             0x08c0
#define NV502D_BLIT_DU_DX_INT               0x08c4
#define NV502D_BLIT_DV_DY_FRACT             0x08c8
#define NV502D_BLIT_DV_DY_INT               0x08cc
#define NV502D_BLIT_SRC_X_FRACT             0x08d0
#define NV502D_BLIT_SRC_X_INT               0x08d4
#define NV502D_BLIT_SRC_Y_FRACT             0x08d8
#define NV502D_BLIT_SRC_Y_INT               0x08dc  /* the blit goes */
#define NV502D_MTHD_END                     0x08e0

/* OPERATION (0x2ac) */
enum {
    NV502D_OP_SRCCOPY_AND = 0,
    NV502D_OP_ROP_AND = 1,
    NV502D_OP_BLEND_AND = 2,
    NV502D_OP_SRCCOPY = 3,
    NV502D_OP_ROP = 4,
    NV502D_OP_SRCCOPY_PREMULT = 5,
    NV502D_OP_BLEND_PREMULT = 6,
};

/* DRAW_SHAPE (0x580) */
enum {
    NV502D_SHAPE_POINTS = 0,
    NV502D_SHAPE_LINES = 1,
    NV502D_SHAPE_LINE_STRIP = 2,
    NV502D_SHAPE_TRIANGLES = 3,
    NV502D_SHAPE_RECTANGLES = 4,
};

/* PATTERN_SELECT (0x2b4) */
enum {
    NV502D_PAT_BITMAP_8X8 = 0,
    NV502D_PAT_BITMAP_64X1 = 1,
    NV502D_PAT_BITMAP_1X64 = 2,
    NV502D_PAT_COLOR = 3,
};

/* DST_* 0x200-0x224 and SRC_* 0x230-0x254, in method order */
typedef struct NV502dSurfRegs {
    uint32_t format;
    uint32_t linear;
    uint32_t block_dimensions;
    uint32_t depth;
    uint32_t layer;
    uint32_t pitch;
    uint32_t width;
    uint32_t height;
    uint32_t address_high;
    uint32_t address_low;
} NV502dSurfRegs;

/* One channel's G80_2D state (the class's family state). */
typedef struct NV502dState {
    NV50GrNotify notify;        /* first, as gr.h asks */

    /* DMA_DST 0x184, DMA_SRC 0x188, DMA_COND 0x18c, decoded at bind */
    NV50CtxDma dma_dst, dma_src, dma_cond;
    bool dma_dst_ok, dma_src_ok, dma_cond_ok;

    NV502dSurfRegs dst, src;
    uint32_t cond_address_high, cond_address_low, cond_mode;
    int32_t clip_x, clip_y;
    uint32_t clip_w, clip_h, clip_enable;
    uint32_t color_key_format, color_key, color_key_enable;
    uint32_t rop, beta1, beta4, operation;
    uint32_t pattern_offset, pattern_select;
    uint32_t pattern_color_format, pattern_bitmap_format;
    uint32_t pattern_bitmap_color[2], pattern_bitmap[2];
    uint32_t pattern_color[64];     /* X8R8G8B8, however it was set */

    /* solid primitives */
    uint32_t draw_shape, draw_color_format, draw_color;
    int32_t vtx_x[3], vtx_y[3];
    unsigned nvtx;
    int32_t point32_x;              /* DRAW_POINT32_X, until its Y */

    /* SIFC (pixels from CPU) */
    uint32_t sifc_bitmap_enable, sifc_format, sifc_bitmap_format;
    uint32_t sifc_bitmap_lsb_first, sifc_bitmap_line_pack_mode;
    uint32_t sifc_bitmap_color[2], sifc_bitmap_write_bit0_enable;
    uint32_t sifc_width, sifc_height;
    uint32_t sifc_dx_du_fract, sifc_dy_dv_fract;
    int32_t sifc_dx_du_int, sifc_dy_dv_int;
    uint32_t sifc_dst_x_fract, sifc_dst_y_fract;
    int32_t sifc_dst_x_int, sifc_dst_y_int;
    /* the image being received: row buffer, progress */
    bool sifc_open;                 /* set up by the first data word */
    bool sifc_dead;                 /* an error: drop the rest */
    uint8_t *sifc_row;              /* one source row, SIFC_FORMAT */
    uint8_t *sifc_mask;             /* bitmap: 1 where drawn */
    uint32_t sifc_px;               /* pixels of the row so far */
    uint32_t sifc_v;                /* rows done */
    uint32_t sifc_skip;             /* pad bits before the next row */
    uint8_t sifc_elem[NV502D_MAX_BPP];
    unsigned sifc_elem_bytes;

    /* BLIT (pixels from memory) */
    uint32_t safe_overlap, blit_control;
    int32_t blit_dst_x, blit_dst_y;
    uint32_t blit_dst_w, blit_dst_h;
    uint32_t blit_du_dx_fract, blit_dv_dy_fract;
    int32_t blit_du_dx_int, blit_dv_dy_int;
    uint32_t blit_src_x_fract, blit_src_y_fract;
    int32_t blit_src_x_int, blit_src_y_int;

    /* accepted, no effect modelled */
    uint32_t unk228, unk260, unk58c, unk870, unk880, corral_size;
} NV502dState;

/* 2d-draw.c: surfaces and the per-pixel pipeline, for the sources */

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

/* DST_* or SRC_* as a target; false (the error raised) if unusable. */
bool nv502d_target_resolve(NV50GrCall *c, NV502dState *st, bool is_src,
                           NV502dTarget *t);
/* Read or write @n elements from (@x, @y) of @t, run by run. */
bool nv502d_target_rw(NV50GrCall *c, const NV502dTarget *t, uint32_t x,
                      uint32_t y, uint8_t *buf, uint32_t n, bool is_write);
/*
 * Set up a draw from a source of format @sfmt_id (named @src_what in
 * errors) onto the destination; false (the error raised) if the state
 * does not allow it.  nv502d_draw_end() frees what the spans grew.
 */
bool nv502d_draw_begin(NV50GrCall *c, NV502dState *st, uint32_t sfmt_id,
                       const char *src_what, NV502dDraw *dr);
void nv502d_draw_end(NV502dDraw *dr);
/*
 * Draw the @n source pixels @src (in dr->sfmt) at (@x, @y) on; @mask,
 * if not NULL, says which of them are drawn.  Clipped here.
 */
bool nv502d_draw_span(NV502dDraw *dr, int64_t x, int64_t y, int64_t n,
                      const uint8_t *src, const uint8_t *mask);

/* 32.32 fixed point from a method pair */
static inline int64_t nv502d_fix32(int32_t i, uint32_t f)
{
    return (int64_t)((uint64_t)(int64_t)i << 32 | f);
}

/* floor(v / 2^k) for signed v */
static inline int64_t nv502d_floor_shift(__int128 v, unsigned k)
{
    return (int64_t)(v >> k);
}

/* the operations the methods trigger (2d-draw.c, 2d-blit.c, 2d-sifc.c) */
void nv502d_solid_vertex(NV50GrCall *c, NV502dState *st, int32_t x,
                         int32_t y);
void nv502d_blit(NV50GrCall *c, NV502dState *st);
void nv502d_sifc_data(NV50GrCall *c, NV502dState *st, uint32_t data);
/* Forget the image being received (a SIFC parameter changed). */
void nv502d_sifc_reset(NV502dState *st);

#endif
