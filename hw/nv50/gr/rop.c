/*
 * The G84's ROP (CROP and ZROP): render targets and zeta of a draw or
 * clear, the depth/stencil test, blending, colour masks, logic ops,
 * formats, CLEAR_BUFFERS (pipe.h).  Facts: envytools rnndb
 * graph/g80_3d.xml and g80_defs.xml; what Mesa 22.3's nv50 driver
 * sends (nv50_state_validate.c nv50_validate_fb, nv50_state.c blend and
 * zsa CSOs, nv50_surface.c nv50_clear).  docs/devel/nv50.md "3D: ROP".
 *
 * Memory: a draw's surfaces are read and written through a cache of
 * 4 KiB chunks (aligned in the VA or DMA space, so one page each),
 * loaded on first touch with one nv50_gr_rw/nv50_gr_vm_rw per chunk and
 * written back (the dirty bytes) at nv50_rop_end, or when the cache
 * holds ROP_MAX_CHUNKS.  A fault traps (PROP, VM client PROP, subclient
 * RT0-7 or ZETA) and ends the ROP's memory work for that draw.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
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
    uint32_t z;                 /* slice (3D), else 0 */
    unsigned bpp;
    uint32_t width, height;     /* in samples */
    struct RopChunk *mru;
} RopSurf;

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
    uint64_t addr;
    bool use_dma;
    NV50CtxDma dma;
    unsigned sub;
    uint32_t lo, hi;            /* bytes loaded */
    uint32_t dlo, dhi;          /* bytes dirty */
    uint8_t data[ROP_CHUNK];
} RopChunk;

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

    GHashTable *chunks;
    unsigned nchunks;
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

static bool compare(unsigned func, double a, double b)
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

/* --- the chunk cache --- */

static bool chunk_io(NV50Rop *r, RopChunk *k, uint32_t off, uint32_t len,
                     bool is_write)
{
    bool ok;

    if (!len || r->dead) {
        return !r->dead;
    }
    if (k->use_dma) {
        ok = nv50_gr_rw(r->c, &k->dma, k->addr + off, k->data + off, len,
                        is_write, NV50_VM_CLIENT_PROP, k->sub,
                        NV50_GR_TRAP_PROP);
    } else {
        ok = nv50_gr_vm_rw(r->c, k->addr + off, k->data + off, len,
                           is_write, NV50_VM_CLIENT_PROP, k->sub,
                           NV50_GR_TRAP_PROP);
    }
    if (!ok) {
        r->dead = true;
    }
    return ok;
}

static void cache_flush(NV50Rop *r)
{
    GHashTableIter it;
    gpointer key, val;

    g_hash_table_iter_init(&it, r->chunks);
    while (g_hash_table_iter_next(&it, &key, &val)) {
        RopChunk *k = val;

        if (k->dhi > k->dlo) {
            chunk_io(r, k, k->dlo, k->dhi - k->dlo, true);
        }
    }
    g_hash_table_remove_all(r->chunks);
    r->nchunks = 0;
    for (unsigned i = 0; i <= ZETA; i++) {
        r->surf[i].mru = NULL;
    }
}

/*
 * The chunk holding bytes [@addr, @addr + @len) of surface @s (within
 * one chunk), loaded; NULL after a fault.
 */
static RopChunk *chunk_get(NV50Rop *r, RopSurf *s, uint64_t addr,
                           uint32_t len)
{
    uint64_t base = addr & ~(uint64_t)(ROP_CHUNK - 1);
    uint32_t off = addr - base, lo, hi;
    RopChunk *k = s->mru;
    uint64_t key;

    if (k && k->addr == base && off >= k->lo && off + len <= k->hi) {
        return k;
    }
    if (r->dead) {
        return NULL;
    }
    key = base >> ROP_CHUNK_BITS |
          (uint64_t)(s->use_dma ? s->dma_ofs + 1 : 0) << 30;
    k = g_hash_table_lookup(r->chunks, &key);
    if (!k) {
        if (r->nchunks >= ROP_MAX_CHUNKS) {
            cache_flush(r);
            if (r->dead) {
                return NULL;
            }
        }
        k = g_new(RopChunk, 1);
        k->key = key;
        k->addr = base;
        k->use_dma = s->use_dma;
        k->dma = s->dma;
        k->sub = s->sub;
        k->lo = k->hi = off;
        k->dlo = ROP_CHUNK;
        k->dhi = 0;
        g_hash_table_insert(r->chunks, &k->key, k);
        r->nchunks++;
    }
    /* load the part of the chunk the surface spans (at least the bytes) */
    lo = s->start > base ? (uint32_t)MIN(s->start - base, ROP_CHUNK) : 0;
    hi = s->end < base + ROP_CHUNK
         ? (uint32_t)(s->end > base ? s->end - base : 0) : ROP_CHUNK;
    lo = MIN(lo, off);
    hi = MAX(MAX(hi, off + len), lo);
    if (k->hi == k->lo) {
        if (!chunk_io(r, k, lo, hi - lo, false)) {
            return NULL;
        }
        k->lo = lo;
        k->hi = hi;
    } else {
        if (lo < k->lo && !chunk_io(r, k, lo, k->lo - lo, false)) {
            return NULL;
        }
        if (hi > k->hi && !chunk_io(r, k, k->hi, hi - k->hi, false)) {
            return NULL;
        }
        k->lo = MIN(k->lo, lo);
        k->hi = MAX(k->hi, hi);
    }
    s->mru = k;
    return k;
}

static inline void chunk_dirty(RopChunk *k, uint32_t off, uint32_t len)
{
    k->dlo = MIN(k->dlo, off);
    k->dhi = MAX(k->dhi, off + len);
}

static inline uint64_t elem_addr(const RopSurf *s, uint32_t x, uint32_t y)
{
    return s->addr + nv50_surface_offset(&s->sf, x * s->bpp, y, s->z);
}

/* Read (or write) the element at sample coordinates (x, y) of @s. */
static bool elem_rw(NV50Rop *r, RopSurf *s, uint32_t x, uint32_t y,
                    uint8_t *buf, bool is_write)
{
    uint64_t addr = elem_addr(s, x, y);
    unsigned done = 0;

    while (done < s->bpp) {
        uint32_t off = (addr + done) & (ROP_CHUNK - 1);
        uint32_t n = MIN(s->bpp - done, ROP_CHUNK - off);
        RopChunk *k = chunk_get(r, s, addr + done, n);

        if (!k) {
            memset(buf, 0, s->bpp);
            return false;
        }
        if (is_write) {
            memcpy(k->data + off, buf + done, n);
            chunk_dirty(k, off, n);
        } else {
            memcpy(buf + done, k->data + off, n);
        }
        done += n;
    }
    return true;
}

/*
 * Elements [@x0, @x1) of row @y of @s to @val where @msk has bits (all
 * of @val if @msk is NULL): span by span, chunk by chunk.
 */
#define FILL_PATTERN    64      /* bytes: a multiple of every bpp but 3 */

/*
 * @n bytes at @p of elements @pat repeats (FILL_PATTERN bytes of them),
 * from byte @ph of an element of @bpp bytes; returns the byte after.
 */
static unsigned fill_pattern(uint8_t *p, uint32_t n, const uint8_t *pat,
                             unsigned ph, unsigned bpp)
{
    uint32_t done = MIN(n, FILL_PATTERN - ph);

    memcpy(p, pat + ph, done);
    while (done < n) {
        uint32_t k = MIN(n - done, (uint32_t)FILL_PATTERN);

        memcpy(p + done, pat, k);
        done += k;
    }
    return (ph + n) % bpp;
}

static void fill_row(NV50Rop *r, RopSurf *s, uint32_t x0, uint32_t x1,
                     uint32_t y, const uint8_t *val, const uint8_t *msk)
{
    uint64_t xb = (uint64_t)x0 * s->bpp, end = (uint64_t)x1 * s->bpp;
    unsigned bpp = s->bpp;
    uint8_t patbuf[FILL_PATTERN];
    const uint8_t *pat = NULL;

    if (bpp && FILL_PATTERN % bpp == 0) {
        for (unsigned i = 0; i < FILL_PATTERN; i++) {
            patbuf[i] = val[i % bpp];
        }
        pat = patbuf;
    }

    while (xb < end && !r->dead) {
        uint64_t addr = s->addr + nv50_surface_offset(&s->sf, xb, y, s->z);
        uint64_t run = MIN((uint64_t)nv50_surface_run(&s->sf, xb, y, s->z),
                           end - xb);
        unsigned ph = 0;

        xb += run;
        while (run) {
            uint32_t off = addr & (ROP_CHUNK - 1);
            uint32_t n = MIN(run, (uint64_t)(ROP_CHUNK - off));
            RopChunk *k = chunk_get(r, s, addr, n);
            uint8_t *p;

            if (!k) {
                return;
            }
            p = k->data + off;
            if (!msk && pat) {
                ph = fill_pattern(p, n, pat, ph, bpp);
            } else {
                for (uint32_t i = 0; i < n; i++) {
                    p[i] = msk ? (p[i] & ~msk[ph]) | (val[ph] & msk[ph])
                               : val[ph];
                    if (++ph == bpp) {
                        ph = 0;
                    }
                }
            }
            chunk_dirty(k, off, n);
            addr += n;
            run -= n;
        }
    }
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
}

static bool setup_rt(NV50Rop *r, unsigned i)
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
               amode & 0x10000, amode & 0xffff, r->layer);
    s->on = s->width && s->height;
    r->rt[i].fmt = f;
    return true;
}

static bool setup_zeta(NV50Rop *r)
{
    NV50Gr3dState *st = r->st;
    RopSurf *s = &r->surf[ZETA];
    uint32_t fmt = get(st, M_ZETA_FORMAT);
    uint64_t base = (uint64_t)(get(st, M_ZETA_ADDRESS_HIGH) & 0xff) << 32 |
                    get(st, M_ZETA_ADDRESS_LOW);

    if (!get(st, M_ZETA_ENABLE)) {
        return true;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(zeta_formats); i++) {
        if (zeta_formats[i].id == fmt) {
            r->zfmt = &zeta_formats[i];
        }
    }
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
               false, 1, r->layer);
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

static void setup_bounds(NV50Rop *r, bool clear)
{
    NV50Gr3dState *st = r->st;
    int x0 = 0, y0 = 0, x1 = ROP_MAX_DIM, y1 = ROP_MAX_DIM;

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
    } else if (get(st, M_SCISSOR_ENABLE0)) {
        uint32_t h = get(st, M_SCISSOR_HORIZ0), v = get(st, M_SCISSOR_VERT0);

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

/* Is pixel (x, y) kept by the clip rectangles (window rectangles)? */
static bool cliprect_pass(const NV50Rop *r, int x, int y)
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
    if (get(st, M_LAYER) & 0x10000) {
        unimp("LAYER USE_GP (the GP's layer; LAYER.IDX is used)");
    }
}

static NV50Rop *rop_new(NV50GrCall *c, NV50Gr3dState *st, unsigned layer)
{
    NV50Rop *r = g_new0(NV50Rop, 1);

    r->c = c;
    r->st = st;
    r->layer = layer;
    r->plain_rt = -1;
    r->chunks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                      g_free);
    setup_ms(r);
    return r;
}

static void rop_free(NV50Rop *r)
{
    g_hash_table_destroy(r->chunks);
    g_free(r);
}

NV50Rop *nv50_rop_begin(NV50GrCall *c, NV50Gr3dState *st)
{
    NV50Rop *r = rop_new(c, st, get(st, M_LAYER) & 0xffff);

    for (unsigned i = 0; i < NV50_PIPE_RTS; i++) {
        if (i < (get(st, M_RT_CONTROL) & 0xf) && !setup_rt(r, i)) {
            rop_free(r);
            return NULL;
        }
    }
    if (!setup_zeta(r)) {
        rop_free(r);
        return NULL;
    }
    setup_state(r);
    setup_bounds(r, false);
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
    cache_flush(r);
    rop_free(r);
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
    return compare(cmp_func(get(r->st, M_ALPHA_TEST_FUNC)), alpha,
                   getf(r->st, M_ALPHA_TEST_REF));
}

/* --- depth and stencil --- */

static uint32_t zmax(const RopZetaFormat *zf)
{
    return zf->zbits == 16 ? 0xffff : 0xffffff;
}

static uint32_t depth_get(const RopZetaFormat *zf, const uint8_t *e)
{
    if (zf->zbits == 16) {
        return (uint32_t)ldn_le_p(e, 2);
    }
    if (zf->zbits == 32) {
        return (uint32_t)ldn_le_p(e, 4);
    }
    return ((uint32_t)ldn_le_p(e, 4) >> zf->zshift) & 0xffffff;
}

static void depth_set(const RopZetaFormat *zf, uint8_t *e, uint32_t z)
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
static uint32_t depth_encode(const RopZetaFormat *zf, float z)
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
    return (uint32_t)floor((double)z * zmax(zf) + 0.5);
}

static double depth_value(const RopZetaFormat *zf, uint32_t v)
{
    float f;

    if (zf->zbits == 32) {
        memcpy(&f, &v, 4);
        return f;
    }
    return (double)v / zmax(zf);
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

static bool sample_enabled(const NV50Rop *r, unsigned sample)
{
    return sample < 32 && (r->sample_mask >> sample) & 1;
}

/* The test of one stored sample at (xs, ys). */
static bool zs_one(NV50Rop *r, uint32_t xs, uint32_t ys, float z, bool front)
{
    const RopZetaFormat *zf = r->zfmt;
    RopSurf *s = &r->surf[ZETA];
    const RopStencilSide *sd = &r->side[front ? 0 : 1];
    bool has_s = zf->sbyte >= 0 && r->stencil;
    uint8_t e[8], old[8];
    uint32_t zs, zf_val = depth_encode(zf, z);
    uint8_t st = 0;
    bool pass = true, spass = true;

    if (xs >= s->width || ys >= s->height) {
        return false;
    }
    if (!elem_rw(r, s, xs, ys, e, false)) {
        return false;
    }
    memcpy(old, e, sizeof(e));
    zs = depth_get(zf, e);
    if (r->depth_bounds) {
        double v = depth_value(zf, zs);

        if (v < r->bounds_min || v > r->bounds_max) {
            return false;
        }
    }
    if (has_s) {
        st = e[zf->sbyte];
        spass = compare(sd->func, sd->ref & sd->func_mask,
                        st & sd->func_mask);
    }
    if (spass && r->depth_test) {
        if (zf->zbits == 32) {
            pass = compare(r->depth_func, depth_value(zf, zf_val),
                           depth_value(zf, zs));
        } else {
            pass = compare(r->depth_func, zf_val, zs);
        }
    }
    if (has_s) {
        unsigned op = !spass ? sd->op_fail : !pass ? sd->op_zfail
                                                   : sd->op_zpass;
        uint8_t ns = stencil_apply(op, st, sd->ref);

        e[zf->sbyte] = (st & ~sd->write_mask) | (ns & sd->write_mask);
    }
    if (spass && pass && r->depth_test && r->depth_write) {
        depth_set(zf, e, zf_val);
    }
    if (memcmp(e, old, s->bpp)) {
        elem_rw(r, s, xs, ys, e, true);
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
        !cliprect_pass(r, x, y)) {
        return false;
    }
    if (r->ms_raster || r->ms.samples == 1) {
        if (!sample_enabled(r, sample)) {
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
        if (!sample_enabled(r, s)) {
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

/* --- colour --- */

static float factor(unsigned f, unsigned ch, const float *s, const float *d,
                    const float *s1, const float *k)
{
    switch (f) {
    case BF_ZERO:
        return 0;
    case BF_ONE:
        return 1;
    case BF_SRC_COLOR:
        return s[ch];
    case BF_INV_SRC_COLOR:
        return 1 - s[ch];
    case BF_SRC_ALPHA:
        return s[3];
    case BF_INV_SRC_ALPHA:
        return 1 - s[3];
    case BF_DST_ALPHA:
        return d[3];
    case BF_INV_DST_ALPHA:
        return 1 - d[3];
    case BF_DST_COLOR:
        return d[ch];
    case BF_INV_DST_COLOR:
        return 1 - d[ch];
    case BF_SRC_ALPHA_SAT:
        return ch == 3 ? 1 : MIN(s[3], 1 - d[3]);
    case BF_CONST_COLOR:
        return k[ch];
    case BF_INV_CONST_COLOR:
        return 1 - k[ch];
    case BF_CONST_ALPHA:
        return k[3];
    case BF_INV_CONST_ALPHA:
        return 1 - k[3];
    case BF_SRC1_COLOR:
        return s1[ch];
    case BF_INV_SRC1_COLOR:
        return 1 - s1[ch];
    case BF_SRC1_ALPHA:
        return s1[3];
    case BF_INV_SRC1_ALPHA:
        return 1 - s1[3];
    }
    return 0;
}

static float equation(unsigned eq, float s, float sf, float d, float df)
{
    switch (eq) {
    case BE_SUB:
        return s * sf - d * df;
    case BE_REV_SUB:
        return d * df - s * sf;
    case BE_MIN:
        return MIN(s, d);
    case BE_MAX:
        return MAX(s, d);
    }
    return s * sf + d * df;
}

static void clampv(float *v, unsigned n, float lo, float hi)
{
    for (unsigned i = 0; i < n; i++) {
        v[i] = isnan(v[i]) ? 0 : MIN(MAX(v[i], lo), hi);
    }
}

static void blend(const RopBlend *b, const NV50RopFormat *f, float *s,
                  const float *src1, const float *d, const float *kc)
{
    float s1[4], k[4], out[4];

    memcpy(s1, src1, sizeof(s1));
    memcpy(k, kc, sizeof(k));
    /* fixed-point targets: inputs clamped to the format's range (GL) */
    if (f->kind == NV50_ROP_UNORM) {
        clampv(s, 4, 0, 1);
        clampv(s1, 4, 0, 1);
        clampv(k, 4, 0, 1);
    } else if (f->kind == NV50_ROP_SNORM) {
        clampv(s, 4, -1, 1);
        clampv(s1, 4, -1, 1);
        clampv(k, 4, -1, 1);
    }
    for (unsigned ch = 0; ch < 4; ch++) {
        unsigned eq = ch == 3 ? b->eq_a : b->eq_rgb;
        unsigned sfn = ch == 3 ? b->src_a : b->src_rgb;
        unsigned dfn = ch == 3 ? b->dst_a : b->dst_rgb;

        out[ch] = equation(eq, s[ch], factor(sfn, ch, s, d, s1, k), d[ch],
                           factor(dfn, ch, s, d, s1, k));
    }
    memcpy(s, out, sizeof(out));
}

static uint32_t logic(unsigned op, uint32_t s, uint32_t d)
{
    switch (op) {
    case 0x0:
        return 0;
    case 0x1:
        return s & d;
    case 0x2:
        return s & ~d;
    case 0x3:
        return s;
    case 0x4:
        return ~s & d;
    case 0x5:
        return d;
    case 0x6:
        return s ^ d;
    case 0x7:
        return s | d;
    case 0x8:
        return ~(s | d);
    case 0x9:
        return ~(s ^ d);
    case 0xa:
        return ~d;
    case 0xb:
        return s | ~d;
    case 0xc:
        return ~s;
    case 0xd:
        return ~s | d;
    case 0xe:
        return ~(s & d);
    }
    return ~0u;
}

/* @col into sample (xs, ys) of plain_unorm8 RT @i (in its bounds) */
static void rt_write_plain(NV50Rop *r, unsigned i, uint32_t xs, uint32_t ys,
                           const float *col)
{
    float c[4];
    uint8_t e[4];

    memcpy(c, col, sizeof(c));
    if (r->alpha_to_one) {
        c[3] = 1;
    }
    stn_le_p(e, 4, nv50_rop_unorm8x4(r->rt[i].fmt, c));
    elem_rw(r, &r->surf[i], xs, ys, e, true);
}

/* Blend/logic-op @col into sample (xs, ys) of RT @i through its mask. */
static void rt_write(NV50Rop *r, unsigned i, uint32_t xs, uint32_t ys,
                     const float *col, const float *col1)
{
    RopRt *t = &r->rt[i];
    RopSurf *s = &r->surf[i];
    const NV50RopFormat *f = t->fmt;
    bool ints = f->kind == NV50_ROP_SINT || f->kind == NV50_ROP_UINT;
    bool do_logic = r->logic && f->kind != NV50_ROP_FLOAT;
    bool do_blend = t->blend.enable && !ints && !r->logic;
    uint32_t raw[4], old[4] = { 0 };
    uint8_t e[16];
    float c[4];

    if (xs >= s->width || ys >= s->height) {
        return;
    }
    if (t->plain_unorm8) {
        rt_write_plain(r, i, xs, ys, col);
        return;
    }
    memcpy(c, col, sizeof(c));
    if (do_blend || do_logic || t->mask != 0xf) {
        if (!elem_rw(r, s, xs, ys, e, false)) {
            return;
        }
        nv50_rop_unpack(f, e, old);
    }
    if (!ints) {
        if (t->clamp) {
            clampv(c, 4, 0, 1);
        }
        if (r->alpha_to_one) {
            c[3] = 1;
        }
        if (do_blend) {
            float d[4];

            nv50_rop_decode(f, old, d);
            blend(&t->blend, f, c, col1, d, r->blend_color);
        }
    }
    nv50_rop_encode(f, c, raw);
    for (unsigned ch = 0; ch < f->nch; ch++) {
        unsigned comp = f->comp[ch];
        unsigned bit = comp == NV50_ROP_X ? 8 : 1u << comp;

        if (do_logic) {
            raw[ch] = logic(r->logic_op, raw[ch], old[ch]) &
                      nv50_rop_ch_mask(f, ch);
        }
        /* UNVERIFIED: padding channels follow the alpha mask */
        if (!(t->mask & bit)) {
            raw[ch] = old[ch];
        }
    }
    nv50_rop_pack(f, raw, e);
    elem_rw(r, s, xs, ys, e, true);
}

void nv50_rop_write(NV50Rop *r, int x, int y, unsigned sample,
                    const float color[NV50_PIPE_RTS][4])
{
    uint32_t smask;

    if (!r || x < r->x0 || y < r->y0 || x >= r->x1 || y >= r->y1) {
        return;
    }
    if (r->plain_rt >= 0 && sample == 0) {
        /* what the loops below come to for it */
        if ((uint32_t)x < r->surf[r->plain_rt].width &&
            (uint32_t)y < r->surf[r->plain_rt].height) {
            rt_write_plain(r, r->plain_rt, x, y, color[0]);
        }
        return;
    }
    if (!cliprect_pass(r, x, y)) {
        return;
    }
    if (r->ms_raster || r->ms.samples == 1) {
        if (!sample_enabled(r, sample)) {
            return;
        }
        smask = 1u << sample;
    } else {
        /* broadcast: the samples zs_test let through (or all) */
        smask = (x == r->last_x && y == r->last_y)
                ? r->last_pass : r->sample_mask;
    }
    for (unsigned o = 0; o < r->rt_count; o++) {
        unsigned i = r->rt_map[o];

        if (!r->surf[i].on || !r->rt[i].fmt || !r->rt[i].mask) {
            continue;
        }
        for (unsigned s = 0; s < r->ms.samples; s++) {
            unsigned sx, sy;

            if (!(smask >> s & 1)) {
                continue;
            }
            nv50_msaa_xy(&r->ms, s, &sx, &sy);
            /* UNVERIFIED: dual-source blending's second colour is o 1 */
            rt_write(r, i, (uint32_t)x << r->ms.ms_x | sx,
                     (uint32_t)y << r->ms.ms_y | sy, color[o], color[1]);
        }
    }
}

bool nv50_rop_quad_plain(const NV50Rop *r)
{
    return r && r->plain_rt >= 0;
}

void nv50_rop_write_quad(NV50Rop *r, int x, int y, unsigned mask,
                         const float col[4][4])
{
    const RopSurf *s = &r->surf[r->plain_rt];

    for (unsigned i = 0; i < 4; i++) {
        int px = x + (i & 1), py = y + (i >> 1);

        /* nv50_rop_write's bounds, then rt_write's */
        if ((mask & (1u << i)) && px >= r->x0 && py >= r->y0 &&
            px < r->x1 && py < r->y1 && (uint32_t)px < s->width &&
            (uint32_t)py < s->height) {
            rt_write_plain(r, r->plain_rt, px, py, col[i]);
        }
    }
}

/* --- CLEAR_BUFFERS --- */

/*
 * Rows [y0, y1) x columns [x0, x1) in pixels of surface @s to @val
 * (bytes of @msk), every sample; pixel by pixel where clip rectangles
 * are on, else in spans.
 */
static void clear_rect(NV50Rop *r, RopSurf *s, const uint8_t *val,
                       const uint8_t *msk)
{
    int x0 = r->x0, y0 = r->y0;
    int x1 = MIN(r->x1, (int)(s->width >> r->ms.ms_x));
    int y1 = MIN(r->y1, (int)(s->height >> r->ms.ms_y));

    for (int y = y0; y < y1 && !r->dead; y++) {
        for (uint32_t ys = (uint32_t)y << r->ms.ms_y;
             ys < (uint32_t)(y + 1) << r->ms.ms_y; ys++) {
            if (!r->cliprects) {
                fill_row(r, s, (uint32_t)x0 << r->ms.ms_x,
                         (uint32_t)x1 << r->ms.ms_x, ys, val, msk);
                continue;
            }
            for (int x = x0; x < x1; x++) {
                if (cliprect_pass(r, x, y)) {
                    fill_row(r, s, (uint32_t)x << r->ms.ms_x,
                             (uint32_t)(x + 1) << r->ms.ms_x, ys, val, msk);
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

    if (z) {
        depth_set(zf, val, depth_encode(zf, getf(r->st, M_CLEAR_DEPTH)));
        depth_set(zf, msk, zf->zbits == 16 ? 0xffff :
                  zf->zbits == 32 ? 0xffffffff : 0xffffff);
    }
    if (s && zf->sbyte >= 0) {
        if (get(r->st, M_CLEAR_FLAGS) & CLEAR_FLAGS_STENCIL_MASK) {
            smask = get(r->st, M_STENCIL_FRONT_MASK);
        }
        val[zf->sbyte] = get(r->st, M_CLEAR_STENCIL);
        msk[zf->sbyte] = smask;
    }
    clear_rect(r, &r->surf[ZETA], val, msk);
}

void nv50_rop_clear(NV50GrCall *c, NV50Gr3dState *st, uint32_t data)
{
    unsigned rt = (data >> 6) & 0xf, chans = (data >> CLEAR_RGBA_SHIFT) & 0xf;
    bool z = data & CLEAR_Z, s = data & CLEAR_S;
    NV50Rop *r;

    if (!(data & 0x3f)) {
        return;
    }
    r = rop_new(c, st, (data >> 10) & 0x7ff);
    if (chans) {
        if (rt >= NV50_PIPE_RTS || rt >= (get(st, M_RT_CONTROL) & 0xf)) {
            /* UNVERIFIED: what the hardware does */
            gemu_log_once(LOG_GUEST_ERROR, "nv50-rop-clear-rt", rt,
                          "nv50: 3D CLEAR_BUFFERS of RT %u beyond "
                          "RT_CONTROL's count, not cleared\n", rt);
            chans = 0;
        } else if (!setup_rt(r, rt)) {
            rop_free(r);
            return;
        }
    }
    if ((z || s) && !setup_zeta(r)) {
        rop_free(r);
        return;
    }
    setup_bounds(r, true);
    if (chans && r->surf[rt].on && r->rt[rt].fmt) {
        clear_color(r, rt, chans);
    }
    if ((z || s) && r->surf[ZETA].on) {
        clear_zeta(r, z, s);
    }
    nv50_rop_end(r);
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
