/*
 * The ROP's state for one draw or clear, shared by its files: rop.c
 * (set-up from the 3D state, the entry points), rop-mem.c (the chunk
 * cache the surfaces are read and written through), rop-zs.c (zeta
 * formats, the depth/stencil test), rop-color.c (blending, logic ops,
 * colour writes) and rop-clear.c (CLEAR_BUFFERS).  What the other
 * stages call is in pipe.h; formats in rop.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_ROP_INT_H
#define HW_NV50_GR_ROP_INT_H

#include <math.h>
#include "hw/nv50/surface.h"
#include "msaa.h"
#include "rop.h"

/* methods (g80_3d.xml names) */
#define M_DMA_ZETA              0x0184
#define M_DMA_COLOR(i)          (0x01c0 + (i) * 4)
#define M_RT_ADDRESS_HIGH(i)    (0x0200 + (i) * 32)
#define M_RT_ADDRESS_LOW(i)     (0x0204 + (i) * 32)
#define M_RT_FORMAT(i)          (0x0208 + (i) * 32)
#define M_RT_BLOCK_DIMENSIONS(i) (0x020c + (i) * 32)
#define M_RT_LAYER_STRIDE(i)    (0x0210 + (i) * 32)
#define M_VIEWPORT_HORIZ0       0x0c00
#define M_VIEWPORT_VERT0        0x0c04
#define M_CLIP_RECT_HORIZ(i)    (0x0d00 + (i) * 8)
#define M_CLIP_RECT_VERT(i)     (0x0d04 + (i) * 8)
#define M_CLEAR_COLOR(i)        (0x0d80 + (i) * 4)
#define M_CLEAR_DEPTH           0x0d90
#define M_CLEAR_STENCIL         0x0da0
#define M_SCISSOR_ENABLE0       0x0e00
#define M_SCISSOR_HORIZ0        0x0e04
#define M_SCISSOR_VERT0         0x0e08
#define M_SCISSOR_STRIDE        16      /* viewport i's: + 16 i */
#define M_STENCIL_BACK_FUNC_REF 0x0f54
#define M_STENCIL_BACK_MASK     0x0f58
#define M_STENCIL_BACK_FUNC_MASK 0x0f5c
#define M_COLOR_MASK_COMMON     0x0f90
#define M_DEPTH_BOUNDS(i)       (0x0f9c + (i) * 4)
#define M_ZETA_ADDRESS_HIGH     0x0fe0
#define M_ZETA_ADDRESS_LOW      0x0fe4
#define M_ZETA_FORMAT           0x0fe8
#define M_ZETA_BLOCK_DIMENSIONS 0x0fec
#define M_ZETA_LAYER_STRIDE     0x0ff0
#define M_SCREEN_SCISSOR_HORIZ  0x0ff4
#define M_SCREEN_SCISSOR_VERT   0x0ff8
#define M_RT_CONTROL            0x121c
#define M_RT_ARRAY_MODE         0x1224
#define M_ZETA_HORIZ            0x1228
#define M_ZETA_VERT             0x122c
#define M_ZETA_ARRAY_MODE       0x1230
#define M_RT_HORIZ(i)           (0x1240 + (i) * 8)
#define M_RT_VERT(i)            (0x1244 + (i) * 8)
#define M_DEPTH_TEST_ENABLE     0x12cc
#define M_BLEND_INDEPENDENT     0x12e4
#define M_DEPTH_WRITE_ENABLE    0x12e8
#define M_ALPHA_TEST_ENABLE     0x12ec
#define M_DEPTH_TEST_FUNC       NV50_3D_DEPTH_TEST_FUNC
#define M_ALPHA_TEST_REF        0x1310
#define M_ALPHA_TEST_FUNC       NV50_3D_ALPHA_TEST_FUNC
#define M_BLEND_COLOR(i)        (0x131c + (i) * 4)
#define M_BLEND_SEPARATE_ALPHA  0x133c
#define M_BLEND_EQUATION_RGB    0x1340
#define M_BLEND_FUNC_SRC_RGB    0x1344
#define M_BLEND_FUNC_DST_RGB    0x1348
#define M_BLEND_EQUATION_ALPHA  0x134c
#define M_BLEND_FUNC_SRC_ALPHA  0x1350
#define M_BLEND_FUNC_DST_ALPHA  0x1358
#define M_BLEND_ENABLE_COMMON   0x135c
#define M_BLEND_ENABLE(i)       (0x1360 + (i) * 4)
#define M_STENCIL_ENABLE        0x1380
/* OP_FAIL, then ZFAIL, ZPASS, FUNC(_FUNC), REF (front), MASK, FUNC_MASK */
#define M_STENCIL_FRONT_OP_FAIL NV50_3D_STENCIL_FRONT_OP_FAIL
#define M_STENCIL_FRONT_MASK    0x1398
#define M_FRAG_COLOR_CLAMP_EN   0x13a8
#define M_CLEAR_FLAGS           0x143c
#define M_ZETA_ENABLE           0x1538
#define M_STENCIL_TWO_SIDE_ENABLE 0x1594
#define M_STENCIL_BACK_OP_FAIL  NV50_3D_STENCIL_BACK_OP_FAIL
#define M_LAYER                 0x15cc
#define M_CLIP_RECTS_EN         0x194c
#define M_CLIP_RECTS_MODE       0x1950
#define M_DEPTH_BOUNDS_EN       0x19bc
#define M_LOGIC_OP_ENABLE       0x19c4
#define M_LOGIC_OP              0x19c8
#define M_COLOR_MASK(i)         (0x1a00 + (i) * 4)
#define M_IBLEND(i)             (0x1e00 + (i) * 0x20)   /* GT215_3D- */

#define CLEAR_Z                 0x01u
#define CLEAR_S                 0x02u
#define CLEAR_RGBA_SHIFT        2
#define CLEAR_FLAGS_STENCIL_MASK 0x01u
#define CLEAR_FLAGS_RECT_VIEWPORT 0x10u

#define ROP_CHUNK_BITS          12
#define ROP_CHUNK               (1u << ROP_CHUNK_BITS)
#define ROP_MAX_CHUNKS          2048        /* 8 MiB buffered at most */
#define ROP_MAX_DIM             16384
#define ROP_MAX_LANES           8           /* nv50_rop_lanes */
#define ROP_MRU                 64          /* RopSurf.mru */
#define ROP_POOL_MAX            1024        /* NV50RopPool: 4.5 MiB kept */

/* canonical comparison functions, stencil ops, blend factors */
enum { CMP_NEVER, CMP_LESS, CMP_EQUAL, CMP_LEQUAL, CMP_GREATER,
       CMP_NOTEQUAL, CMP_GEQUAL, CMP_ALWAYS };
enum { SOP_KEEP, SOP_ZERO, SOP_REPLACE, SOP_INCR, SOP_DECR, SOP_INVERT,
       SOP_INCR_WRAP, SOP_DECR_WRAP };
enum { BF_ZERO, BF_ONE, BF_SRC_COLOR, BF_INV_SRC_COLOR, BF_SRC_ALPHA,
       BF_INV_SRC_ALPHA, BF_DST_ALPHA, BF_INV_DST_ALPHA, BF_DST_COLOR,
       BF_INV_DST_COLOR, BF_SRC_ALPHA_SAT, BF_CONST_COLOR,
       BF_INV_CONST_COLOR, BF_CONST_ALPHA, BF_INV_CONST_ALPHA,
       BF_SRC1_COLOR, BF_INV_SRC1_COLOR, BF_SRC1_ALPHA, BF_INV_SRC1_ALPHA };
enum { BE_ADD, BE_SUB, BE_REV_SUB, BE_MIN, BE_MAX };


/* A zeta format (g80_defs.xml G80_ZETA_FORMAT). */
typedef struct RopZetaFormat {
    uint16_t id;
    const char *name;
    uint8_t bpp;
    uint8_t zbits;              /* 16, 24: unorm; 32: float */
    uint8_t zshift;             /* Z's bit in the first word */
    int8_t sbyte;               /* the stencil's byte, -1: none */
} RopZetaFormat;

/* One surface of the draw: where its elements are. */
typedef struct RopSurf {
    bool on;
    unsigned sub;               /* VM subclient: RT index or ZETA */
    bool use_dma;
    NV50CtxDma dma;
    uint32_t dma_ofs;
    uint64_t addr;              /* the layer's start (VA or DMA offset) */
    uint64_t start, end;        /* the bytes the layer spans */
    NV50Surface sf;
    NV50SurfaceWalk walk;       /* sf's, for the per-pixel addresses */
    uint32_t z;                 /* slice (3D), else 0 */
    unsigned bpp;
    uint32_t width, height;     /* in samples */
    /* the last chunk used, by address bits above the chunk's (so the
       rows of a quad in a pitch-linear surface keep theirs, and a row
       of 4 KiB blocks of a block-linear one keeps its 64) */
    struct RopChunk *mru[ROP_MRU];
    bool mru_set;               /* mru[] may hold chunks */
} RopSurf;

/* @s's mru[] emptied (its chunks are going), if it holds any. */
static inline void rop_mru_forget(RopSurf *s)
{
    if (s->mru_set) {
        memset(s->mru, 0, sizeof(s->mru));
        s->mru_set = false;
    }
}

typedef struct RopBlend {
    bool enable;
    unsigned eq_rgb, eq_a;
    unsigned src_rgb, dst_rgb, src_a, dst_a;
} RopBlend;

typedef struct RopRt {
    const NV50RopFormat *fmt;
    unsigned mask;              /* RGBA write mask, bit 0 = R */
    bool clamp;                 /* FRAG_COLOR_CLAMP_EN */
    RopBlend blend;
    /* 8-bit UNORM x 4, every channel written, no blending or logic op:
       nothing read, no clamp needed (nv50_rop_unorm8x4) */
    bool plain_unorm8;
} RopRt;

typedef struct RopStencilSide {
    unsigned func, op_fail, op_zfail, op_zpass;
    uint8_t ref, func_mask, write_mask;
} RopStencilSide;

typedef struct RopChunk {
    uint64_t key;
    struct NV50RopPool *pool;   /* where it goes when dropped, or NULL */
    struct RopChunk *next;      /* in the pool's spares */
    uint64_t addr;
    bool use_dma;
    NV50CtxDma dma;
    unsigned sub;
    uint32_t lo, hi;            /* bytes loaded */
    uint32_t dlo, dhi;          /* bytes dirty: [dlo, dhi) holds them */
    /* with NV50Rop.track, the dirty bytes themselves, a bit each */
    uint64_t dmask[ROP_CHUNK / 64];
    uint8_t data[ROP_CHUNK];
} RopChunk;

/*
 * The 3D state's spare chunks (NV50Gr3dState.rop_pool): a draw's or
 * clear's cache takes its chunks from here and gives them back, so the
 * memory of one frame's surfaces is allocated (and its pages faulted
 * in) once, not at every draw.  Lanes on other threads take and give
 * too, under @lock.
 */
typedef struct NV50RopPool {
    GMutex lock;
    RopChunk *spare;
    unsigned nspare;
} NV50RopPool;

struct NV50Rop {
    NV50GrCall *c;
    NV50Gr3dState *st;
    bool dead;                  /* a fault: no more memory work */

    RopSurf surf[NV50_PIPE_RTS + 1];    /* RTs, then zeta */
    RopRt rt[NV50_PIPE_RTS];
    unsigned rt_count;
    uint8_t rt_map[NV50_PIPE_RTS];      /* colour output i -> RT */
    const RopZetaFormat *zfmt;
    unsigned layer;
    bool layer_gp;              /* the GP's (LAYER USE_GP): range-checked */
    unsigned viewport;          /* its SCISSOR_* bound a draw */

    /* multisampling: sample s at (sx, sy) of a (1 << ms_x) x (1 << ms_y) */
    NV50Msaa ms;
    bool ms_raster;             /* MULTISAMPLE_ENABLE: per-sample coverage */
    uint32_t sample_mask;
    /* broadcast (multisample surface, one sample rasterised) */
    int last_x, last_y;
    uint32_t last_pass;

    int x0, y0, x1, y1;         /* pixels fragments may touch */
    bool cliprects;
    unsigned cliprect_mode;
    uint16_t cliprect[8][4];    /* xmin, xmax, ymin, ymax */

    /* depth / stencil */
    bool depth_test, depth_write, depth_bounds, stencil;
    unsigned depth_func;
    float bounds_min, bounds_max;
    RopStencilSide side[2];     /* front, back */

    /* colour */
    float blend_color[4];
    bool logic;
    unsigned logic_op;
    bool alpha_to_one;
    bool alpha_cov;             /* ALPHA_TO_COVERAGE, with ms_raster */
    /* the one RT sample 0 of a one-sample target goes to, when it is
       plain_unorm8 and nothing else (clip rectangles) is on; else -1 */
    int plain_rt;

    /*
     * The chunk cache and the broadcast state above are a lane's own
     * (nv50_rop_lanes: copies of the ROP, each used by one thread at a
     * time); the rest is read-only once set up.  @root is the ROP the
     * lanes were made from (itself for it), whose @faulted any of them
     * sets; @track: dirty bytes are kept a bit each (several caches may
     * hold one chunk, each writing back only its own bytes).
     */
    GHashTable *chunks;
    unsigned nchunks;
    NV50RopPool *pool;          /* the 3D state's; NULL without one */
    struct NV50Rop *root;
    int faulted;                /* atomic, the root's */
    int spilled;                /* atomic, the root's: a track flush */
    bool track;
    unsigned nlanes;
    struct NV50Rop *lane[ROP_MAX_LANES];
};

#define ZETA NV50_PIPE_RTS

static inline uint32_t get(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

static inline float getf(const NV50Gr3dState *st, uint32_t mthd)
{
    uint32_t u = get(st, mthd);
    float f;

    memcpy(&f, &u, 4);
    return f;
}

/* Is pixel (x, y) kept by the clip rectangles (window rectangles)? */
static inline bool rop_cliprect_pass(const NV50Rop *r, int x, int y)
{
    bool inside = false;

    if (!r->cliprects) {
        return true;
    }
    for (unsigned i = 0; i < 8 && !inside; i++) {
        inside = x >= r->cliprect[i][0] && x < r->cliprect[i][1] &&
                 y >= r->cliprect[i][2] && y < r->cliprect[i][3];
    }
    return r->cliprect_mode == 0 ? inside : !inside;
}

static inline bool rop_sample_enabled(const NV50Rop *r, unsigned sample)
{
    return sample < 32 && (r->sample_mask >> sample) & 1;
}

/* How a zeta format stores Z (rop-zs.c, rop-clear.c). */

static inline uint32_t rop_zmax(const RopZetaFormat *zf)
{
    return zf->zbits == 16 ? 0xffff : 0xffffff;
}

static inline uint32_t rop_depth_get(const RopZetaFormat *zf, const uint8_t *e)
{
    if (zf->zbits == 16) {
        return (uint32_t)ldn_le_p(e, 2);
    }
    if (zf->zbits == 32) {
        return (uint32_t)ldn_le_p(e, 4);
    }
    return ((uint32_t)ldn_le_p(e, 4) >> zf->zshift) & 0xffffff;
}

static inline void rop_depth_set(const RopZetaFormat *zf, uint8_t *e,
                                 uint32_t z)
{
    if (zf->zbits == 16) {
        stn_le_p(e, 2, z);
    } else if (zf->zbits == 32) {
        stn_le_p(e, 4, z);
    } else {
        uint32_t w = (uint32_t)ldn_le_p(e, 4) & ~(0xffffffu << zf->zshift);

        stn_le_p(e, 4, w | z << zf->zshift);
    }
}

/* The fragment's depth as the format stores it. */
static inline uint32_t rop_depth_encode(const RopZetaFormat *zf, float z)
{
    uint32_t u;

    /* UNVERIFIED: float zeta clamps to [0, 1] like unorm */
    if (!(z > 0)) {
        z = 0;
    } else if (z > 1) {
        z = 1;
    }
    if (zf->zbits == 32) {
        memcpy(&u, &z, 4);
        return u;
    }
    return (uint32_t)floor((double)z * rop_zmax(zf) + 0.5);
}

static inline double rop_depth_value(const RopZetaFormat *zf, uint32_t v)
{
    float f;

    if (zf->zbits == 32) {
        memcpy(&f, &v, 4);
        return f;
    }
    return (double)v / rop_zmax(zf);
}

/* rop.c: a ROP for the 3D state; its surfaces and bounds */
NV50Rop *nv50_rop_new(NV50GrCall *c, NV50Gr3dState *st, unsigned layer);
void nv50_rop_free(NV50Rop *r);
bool nv50_rop_setup_rt(NV50Rop *r, unsigned i);
bool nv50_rop_setup_zeta(NV50Rop *r);
void nv50_rop_setup_bounds(NV50Rop *r, bool clear);

/* rop-mem.c: the chunk cache */
/* @st's chunk pool, made at first use */
NV50RopPool *nv50_rop_pool(NV50Gr3dState *st);
/* GDestroyNotify of a cache's chunks: back to its pool (or freed) */
void nv50_rop_chunk_drop(void *chunk);
void nv50_rop_cache_flush(NV50Rop *r);
/* Dirty bits [@off, @off + @len) of chunk @k (NV50Rop.track). */
void nv50_rop_chunk_mask_set(RopChunk *k, uint32_t off, uint32_t len);

static inline void rop_chunk_dirty(const NV50Rop *r, RopChunk *k,
                                   uint32_t off, uint32_t len)
{
    k->dlo = MIN(k->dlo, off);
    k->dhi = MAX(k->dhi, off + len);
    if (!r->track) {
        return;
    }
    if (off % 64 + len < 64) {
        k->dmask[off / 64] |= ((1ull << len) - 1) << (off % 64);
    } else {
        nv50_rop_chunk_mask_set(k, off, len);
    }
}

/* The address of the element at sample coordinates (x, y) of @s. */
static inline uint64_t rop_elem_addr(const RopSurf *s, uint32_t x,
                                     uint32_t y)
{
    return s->addr + nv50_surface_walk_offset(&s->walk, x * s->bpp, y,
                                              s->z);
}
/* Move lane @l's dirty bytes into @r's cache (nv50_rop_end). */
void nv50_rop_cache_merge(NV50Rop *r, NV50Rop *l);
/* Read (or write) the element at sample coordinates (x, y) of @s. */
bool nv50_rop_elem_rw(NV50Rop *r, RopSurf *s, uint32_t x, uint32_t y,
                      uint8_t *buf, bool is_write);
void nv50_rop_fill_row(NV50Rop *r, RopSurf *s, uint32_t x0, uint32_t x1,
                       uint32_t y, const uint8_t *val, const uint8_t *msk);
/*
 * Rows [@y0, @y1) of nv50_rop_fill_row's [@x0, @x1) (sample
 * coordinates), the same bytes: the block-linear blocks the rectangle
 * holds whole are filled as the contiguous runs they are, a chunk at a
 * time, and rows only around them.
 */
void nv50_rop_fill_rect(NV50Rop *r, RopSurf *s, uint32_t x0, uint32_t x1,
                        uint32_t y0, uint32_t y1, const uint8_t *val,
                        const uint8_t *msk);

/*
 * nv50_rop_elem_rw, the element copied at once when the surface's last
 * chunk holds it (4 and 8 bytes: one access).
 */
static inline bool rop_elem_rw(NV50Rop *r, RopSurf *s, uint32_t x,
                               uint32_t y, uint8_t *buf, bool is_write)
{
    uint64_t addr = rop_elem_addr(s, x, y);
    uint32_t off = addr & (ROP_CHUNK - 1);
    RopChunk *k = s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];

    if (k && k->addr == addr - off && off >= k->lo &&
        off + s->bpp <= k->hi && (s->bpp == 4 || s->bpp == 8)) {
        uint8_t *p = k->data + off;

        if (!is_write) {
            memcpy(buf, p, s->bpp == 4 ? 4 : 8);
            return true;
        }
        memcpy(p, buf, s->bpp == 4 ? 4 : 8);
        rop_chunk_dirty(r, k, off, s->bpp);
        return true;
    }
    return nv50_rop_elem_rw(r, s, x, y, buf, is_write);
}

/*
 * nv50_rop_elem_rw's write of 4-byte element @w at (x, y) of @s (bpp
 * 4), stored at once when the surface's last chunk holds it.
 */
static inline void rop_elem_put32(NV50Rop *r, RopSurf *s, uint32_t x,
                                  uint32_t y, uint32_t w)
{
    uint64_t addr = rop_elem_addr(s, x, y);
    uint32_t off = addr & (ROP_CHUNK - 1);
    RopChunk *k = s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];
    uint8_t e[4];

    if (k && k->addr == addr - off && off >= k->lo && off + 4 <= k->hi) {
        stn_le_p(k->data + off, 4, w);
        rop_chunk_dirty(r, k, off, 4);
        return;
    }
    stn_le_p(e, 4, w);
    nv50_rop_elem_rw(r, s, x, y, e, true);
}

/*
 * rop_elem_put32 of elements (x, y) and (x + 1, y) of @s, @w[0] and
 * @w[1], stored at once when they are adjacent in the surface's last
 * chunk; false (nothing stored) otherwise.
 */
static inline bool rop_elem_put32x2(NV50Rop *r, RopSurf *s, uint32_t x,
                                    uint32_t y, const uint32_t *w)
{
    uint64_t addr = rop_elem_addr(s, x, y);
    uint32_t off = addr & (ROP_CHUNK - 1);
    RopChunk *k = s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];

    if (!k || k->addr != addr - off || off < k->lo || off + 8 > k->hi ||
        nv50_surface_walk_run(&s->walk, x * 4) < 8) {
        return false;
    }
    stn_le_p(k->data + off, 4, w[0]);
    stn_le_p(k->data + off + 4, 4, w[1]);
    rop_chunk_dirty(r, k, off, 8);
    return true;
}

/*
 * rop_elem_put32x2 of rows @y and @y + 1 (@w[0..1], @w[2..3]), stored
 * at once when all four are in the surface's last chunk; false
 * (nothing stored) otherwise.
 */
static inline bool rop_elem_put32x2x2(NV50Rop *r, RopSurf *s, uint32_t x,
                                      uint32_t y, const uint32_t *w)
{
    uint64_t addr = rop_elem_addr(s, x, y);
    uint64_t step = nv50_surface_walk_row_step(&s->walk, y);
    uint32_t off = addr & (ROP_CHUNK - 1);
    RopChunk *k = s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];

    if (!k || k->addr != addr - off || off < k->lo || !step ||
        step > ROP_CHUNK || off + step + 8 > k->hi ||
        nv50_surface_walk_run(&s->walk, x * 4) < 8) {
        return false;
    }
    stn_le_p(k->data + off, 4, w[0]);
    stn_le_p(k->data + off + 4, 4, w[1]);
    stn_le_p(k->data + off + step, 4, w[2]);
    stn_le_p(k->data + off + step + 4, 4, w[3]);
    rop_chunk_dirty(r, k, off, 8);
    rop_chunk_dirty(r, k, off + step, 8);
    return true;
}

/* rop-zs.c: comparison functions (CMP_*), zeta formats by ZETA_FORMAT */
bool nv50_rop_compare(unsigned func, double a, double b);
const RopZetaFormat *nv50_rop_zeta_format(uint32_t fmt);

#endif
