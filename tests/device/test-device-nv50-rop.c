/*
 * The 3D ROP (hw/nv50/gr/rop.c) on a channel's PGRAPH context:
 * CLEAR_BUFFERS of every render target and zeta format, pitch and
 * block-linear, in a scissor, as Mesa's nv50_clear sends it; the
 * depth/stencil test and the colour write (blend factors and equations,
 * masks, logic ops) called the way the back end calls them, checked
 * pixel by pixel against plain C references on small surfaces.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "gemu/half.h"
#include "hw/nv50/surface.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/gr/pipe.h"
#include "hw/nv50/gr/rop.h"
#include "hw/nv50/gr/msaa.h"
#include <math.h>

#define SUBC_3D     7
#define H_3D        0xbeef3097u
#define INTR        0x400100

#define RT_VA       (GR_VA_DATA + 0x100000)
#define RT1_VA      (GR_VA_DATA + 0x200000)
#define ZETA_VA     (GR_VA_DATA + 0x300000)

#define W           16
#define H           8
#define PITCH       256

static uint32_t obj3d;

static void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_3D, mthd, data);
}

static void mf(uint32_t mthd, float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    m(mthd, u);
}

static NV50Gr3dState *state(void)
{
    return gr.ctx->state[NV50_GR_3D];
}

static void setup_class(uint16_t class_id)
{
    gr_rig_init();
    obj3d = gr_object(class_id, H_3D);
    gr_bind(SUBC_3D, obj3d);
    /* what Mesa's nv50_screen_init and validate_fb set */
    m(0x0184, GR_DMA_VM);                       /* DMA_ZETA */
    for (unsigned i = 0; i < 8; i++) {
        m(0x01c0 + i * 4, GR_DMA_VM);           /* DMA_COLOR */
    }
    m(0x143c, 0x10);                            /* CLEAR_FLAGS VIEWPORT */
    m(0x0c00, W << 16);                         /* VIEWPORT_HORIZ(0) */
    m(0x0c04, H << 16);
    m(0x0ff4, W << 16);                         /* SCREEN_SCISSOR */
    m(0x0ff8, H << 16);
    m(0x0e00, 1);                               /* SCISSOR_ENABLE(0) */
    m(0x0e04, 8192u << 16);
    m(0x0e08, 8192u << 16);
    m(0x133c, 1);                               /* BLEND_SEPARATE_ALPHA */
    m(0x13a8, 0x11111111);                      /* FRAG_COLOR_CLAMP_EN */
    m(0x0fbc, 0xffff);                          /* MSAA_MASK */
    ck_assert_ptr_nonnull(state());
}

static void setup(void)
{
    setup_class(0x8297);
}

/* --- surfaces, as the test sees them --- */

typedef struct TSurf {
    uint64_t va;
    unsigned bpp;
    NV50Surface sf;
} TSurf;

static TSurf tsurf(uint64_t va, unsigned bpp, bool linear, uint32_t w,
                   uint32_t h, uint32_t tile)
{
    TSurf t = { .va = va, .bpp = bpp };

    t.sf.block_linear = !linear;
    t.sf.pitch = PITCH;
    t.sf.width_bytes = w * bpp;
    t.sf.height = h;
    t.sf.depth = 1;
    t.sf.block_h = (tile >> 4) & 0xf;
    t.sf.block_d = (tile >> 8) & 0xf;
    return t;
}

static uint8_t rd8(uint64_t va)
{
    return gr_rd32(va & ~3ull) >> (8 * (va & 3));
}

static void wr8(uint64_t va, uint8_t v)
{
    uint32_t w = gr_rd32(va & ~3ull);
    unsigned sh = 8 * (va & 3);

    gr_wr32(va & ~3ull, (w & ~(0xffu << sh)) | (uint32_t)v << sh);
}

static void elem_get(const TSurf *t, uint32_t x, uint32_t y, uint8_t *e)
{
    uint64_t off = nv50_surface_offset(&t->sf, x * t->bpp, y, 0);

    for (unsigned i = 0; i < t->bpp; i++) {
        e[i] = rd8(t->va + off + i);
    }
}

static void elem_put(const TSurf *t, uint32_t x, uint32_t y, const uint8_t *e)
{
    uint64_t off = nv50_surface_offset(&t->sf, x * t->bpp, y, 0);

    for (unsigned i = 0; i < t->bpp; i++) {
        wr8(t->va + off + i, e[i]);
    }
}

/* The bytes of the surface's rows, filled with @v. */
static void fill_surf(const TSurf *t, uint32_t w, uint32_t h, uint8_t v)
{
    uint64_t size = nv50_surface_size(&t->sf);

    (void)w;
    (void)h;
    for (uint64_t i = 0; i < size; i += 4) {
        gr_wr32(t->va + i, v * 0x01010101u);
    }
}

static uint32_t le32(const uint8_t *e)
{
    return e[0] | e[1] << 8 | e[2] << 16 | (uint32_t)e[3] << 24;
}

static void set_rt(unsigned i, uint64_t va, uint32_t fmt, bool linear,
                   uint32_t w, uint32_t h, uint32_t tile)
{
    m(0x0200 + i * 32, va >> 32);
    m(0x0204 + i * 32, (uint32_t)va);
    m(0x0208 + i * 32, fmt);
    m(0x020c + i * 32, linear ? 0 : tile);
    m(0x0210 + i * 32, 0x10000 >> 2);
    m(0x1240 + i * 8, linear ? 0x80000000u | PITCH : w);
    m(0x1244 + i * 8, h);
}

static void set_zeta(uint64_t va, uint32_t fmt, uint32_t w, uint32_t h,
                     uint32_t tile)
{
    m(0x0fe0, va >> 32);
    m(0x0fe4, (uint32_t)va);
    m(0x0fe8, fmt);
    m(0x0fec, tile);
    m(0x0ff0, 0x10000 >> 2);
    m(0x1538, 1);                       /* ZETA_ENABLE */
    m(0x1228, w);
    m(0x122c, h);
    m(0x1230, 1);
}

/* --- the reference encoder: a layout string per format --- */

typedef struct TFmt {
    uint32_t id;
    const char *layout;         /* channels from bit 0: letter + bits */
    char kind;                  /* U S F I N (uint) */
    bool srgb;
} TFmt;

static const TFmt tfmts[] = {
    { 0xc0, "R32G32B32A32", 'F' }, { 0xc1, "R32G32B32A32", 'I' },
    { 0xc2, "R32G32B32A32", 'N' }, { 0xc3, "R32G32B32X32", 'F' },
    { 0xc4, "R32G32B32X32", 'I' }, { 0xc5, "R32G32B32X32", 'N' },
    { 0xc6, "R16G16B16A16", 'U' }, { 0xc7, "R16G16B16A16", 'S' },
    { 0xc8, "R16G16B16A16", 'I' }, { 0xc9, "R16G16B16A16", 'N' },
    { 0xca, "R16G16B16A16", 'F' }, { 0xcb, "R32G32", 'F' },
    { 0xcc, "R32G32", 'I' }, { 0xcd, "R32G32", 'N' },
    { 0xce, "R16G16B16X16", 'F' }, { 0xcf, "B8G8R8A8", 'U' },
    { 0xd0, "B8G8R8A8", 'U', true }, { 0xd1, "R10G10B10A2", 'U' },
    { 0xd2, "R10G10B10A2", 'N' }, { 0xd5, "R8G8B8A8", 'U' },
    { 0xd6, "R8G8B8A8", 'U', true }, { 0xd7, "R8G8B8A8", 'S' },
    { 0xd8, "R8G8B8A8", 'I' }, { 0xd9, "R8G8B8A8", 'N' },
    { 0xda, "R16G16", 'U' }, { 0xdb, "R16G16", 'S' },
    { 0xdc, "R16G16", 'I' }, { 0xdd, "R16G16", 'N' },
    { 0xde, "R16G16", 'F' }, { 0xdf, "B10G10R10A2", 'U' },
    { 0xe0, "R11G11B10", 'F' }, { 0xe3, "R32", 'I' }, { 0xe4, "R32", 'N' },
    { 0xe5, "R32", 'F' }, { 0xe6, "B8G8R8X8", 'U' },
    { 0xe7, "B8G8R8X8", 'U', true }, { 0xe8, "B5G6R5", 'U' },
    { 0xe9, "B5G5R5A1", 'U' }, { 0xea, "R8G8", 'U' }, { 0xeb, "R8G8", 'S' },
    { 0xec, "R8G8", 'I' }, { 0xed, "R8G8", 'N' }, { 0xee, "R16", 'U' },
    { 0xef, "R16", 'S' }, { 0xf0, "R16", 'I' }, { 0xf1, "R16", 'N' },
    { 0xf2, "R16", 'F' }, { 0xf3, "R8", 'U' }, { 0xf4, "R8", 'S' },
    { 0xf5, "R8", 'I' }, { 0xf6, "R8", 'N' }, { 0xf7, "A8", 'U' },
    { 0xf8, "B5G5R5X1", 'U' }, { 0xf9, "R8G8B8X8", 'U' },
    { 0xfa, "R8G8B8X8", 'U', true },
};

static unsigned tfmt_bits(const TFmt *f)
{
    unsigned n = 0;

    for (const char *p = f->layout; *p; ) {
        p++;
        n += strtoul(p, (char **)&p, 10);
    }
    return n;
}

static double ref_srgb(double l)
{
    l = l < 0 ? 0 : l > 1 ? 1 : l;
    return l < 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

/* small unsigned floats of exactly representable values only */
static uint32_t ref_uf(float v, unsigned mbits)
{
    int e;
    float mant;

    if (v <= 0) {
        return 0;
    }
    mant = frexpf(v, &e);               /* v = mant * 2^e, mant in [.5, 1) */
    return (uint32_t)(e - 1 + 15) << mbits |
           (uint32_t)((mant * 2 - 1) * (1 << mbits));
}

/* Encode colour @c (@ci: integer formats) as format @f's bytes. */
static void ref_encode(const TFmt *f, const float *c, const int32_t *ci,
                       uint8_t *out)
{
    unsigned bit = 0;

    memset(out, 0, 16);
    for (const char *p = f->layout; *p; ) {
        char comp = *p++;
        unsigned bits = strtoul(p, (char **)&p, 10);
        int idx = comp == 'R' ? 0 : comp == 'G' ? 1 : comp == 'B' ? 2 :
                  comp == 'A' ? 3 : -1;
        uint64_t mask = bits == 32 ? 0xffffffffull : (1ull << bits) - 1;
        uint64_t raw = 0;
        double v = idx < 0 ? 1.0 : c[idx];

        switch (f->kind) {
        case 'U':
            if (f->srgb && idx >= 0 && idx < 3) {
                v = ref_srgb(v);
            }
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            raw = (uint64_t)floor(v * mask + 0.5);
            break;
        case 'S':
            v = v < -1 ? -1 : v > 1 ? 1 : v;
            raw = (uint64_t)(int64_t)llrint(v * (double)(mask >> 1)) & mask;
            break;
        case 'F':
            if (bits == 32) {
                float fv = v;
                uint32_t u;

                memcpy(&u, &fv, 4);
                raw = u;
            } else if (bits == 16) {
                raw = gemu_float_to_half(v);
            } else {
                raw = ref_uf(v, bits - 5);
            }
            break;
        case 'I': {
            int64_t iv = idx < 0 ? 1 : ci[idx];
            int64_t lo = -(int64_t)(mask >> 1) - 1, hi = mask >> 1;

            raw = (uint64_t)(iv < lo ? lo : iv > hi ? hi : iv) & mask;
            break;
        }
        case 'N': {
            uint64_t uv = idx < 0 ? 1 : (uint32_t)ci[idx];

            raw = uv > mask ? mask : uv;
            break;
        }
        }
        for (unsigned b = 0; b < bits; b++) {
            if (raw >> b & 1) {
                out[(bit + b) / 8] |= 1u << ((bit + b) % 8);
            }
        }
        bit += bits;
    }
}

static void clear_color(const float *c, const int32_t *ci, bool ints)
{
    for (unsigned i = 0; i < 4; i++) {
        if (ints) {
            m(0x0d80 + i * 4, (uint32_t)ci[i]);
        } else {
            mf(0x0d80 + i * 4, c[i]);
        }
    }
}

/* Every RT format, pitch and block-linear, cleared in a screen scissor */
START_TEST(test_rop_clear_rt_formats)
{
    static const float c[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    static const int32_t ci[4] = { 5, -3, 300, 1 };

    for (unsigned lin = 0; lin < 2; lin++) {
        for (unsigned fi = 0; fi < G_N_ELEMENTS(tfmts); fi++) {
            const TFmt *f = &tfmts[fi];
            unsigned bpp = tfmt_bits(f) / 8;
            bool ints = f->kind == 'I' || f->kind == 'N';
            TSurf t = tsurf(RT_VA, bpp, lin, W, H, 0x10);
            uint8_t want[16], got[16], bg[16];

            fill_surf(&t, W, H, 0xa5);
            memset(bg, 0xa5, sizeof(bg));
            set_rt(0, RT_VA, f->id, lin, W, H, 0x10);
            m(0x121c, (076543210 << 4) | 1);        /* RT_CONTROL */
            m(0x0ff4, 3 | 7 << 16);                 /* x 3..9 */
            m(0x0ff8, 2 | 4 << 16);                 /* y 2..5 */
            clear_color(c, ci, ints);
            m(NV50_3D_CLEAR_BUFFERS, 0x3c);
            ck_assert_uint_eq(rd32(INTR), 0);
            ref_encode(f, c, ci, want);
            for (uint32_t y = 0; y < H; y++) {
                for (uint32_t x = 0; x < W; x++) {
                    bool in = x >= 3 && x < 10 && y >= 2 && y < 6;

                    elem_get(&t, x, y, got);
                    ck_assert_msg(!memcmp(got, in ? want : bg, bpp),
                                  "format 0x%x %s (%u,%u): %02x%02x%02x%02x"
                                  " want %02x%02x%02x%02x", f->id,
                                  lin ? "pitch" : "blocklinear", x, y,
                                  got[0], got[1], got[2], got[3],
                                  (in ? want : bg)[0], (in ? want : bg)[1],
                                  (in ? want : bg)[2], (in ? want : bg)[3]);
                }
            }
        }
    }
}
END_TEST

/* R/G/B/A bits, another RT, a layer, clip rectangles */
START_TEST(test_rop_clear_partial)
{
    static const float c[4] = { 1.0f, 0.0f, 1.0f, 0.0f };
    TSurf t0 = tsurf(RT_VA, 4, false, W, H, 0x10);
    TSurf t1 = tsurf(RT1_VA + 0x10000, 4, false, W, H, 0x10);
    uint8_t e[4];

    fill_surf(&t0, W, H, 0x55);
    fill_surf(&t1, W, H, 0x55);
    gr_wr32(RT1_VA, 0x55555555);
    set_rt(0, RT_VA, 0xd5, false, W, H, 0x10);
    set_rt(1, RT1_VA, 0xd5, false, W, H, 0x10);
    m(0x121c, (076543210 << 4) | 2);
    clear_color(c, NULL, false);
    m(NV50_3D_CLEAR_BUFFERS, 0x04 | 0x20);          /* R, A of RT 0 */
    /* RT 1, layer 1 (layer stride 0x10000), G only, in a clip rect */
    m(0x194c, 1);                                   /* CLIP_RECTS_EN */
    m(0x1950, 0);                                   /* INSIDE_ANY */
    m(0x0d00, 2 | 4 << 16);
    m(0x0d04, 1 | 3 << 16);
    m(NV50_3D_CLEAR_BUFFERS, 0x08 | 1 << 6 | 1 << 10);
    ck_assert_uint_eq(rd32(INTR), 0);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            bool in = x >= 2 && x < 4 && y >= 1 && y < 3;

            elem_get(&t0, x, y, e);
            ck_assert_uint_eq(e[0], 0xff);
            ck_assert_uint_eq(e[1], 0x55);
            ck_assert_uint_eq(e[2], 0x55);
            ck_assert_uint_eq(e[3], 0x00);
            elem_get(&t1, x, y, e);
            ck_assert_uint_eq(e[0], 0x55);
            ck_assert_uint_eq(e[1], in ? 0x00 : 0x55);
        }
    }
    /* layer 0 of RT 1 untouched */
    ck_assert_uint_eq(gr_rd32(RT1_VA), 0x55555555);
}
END_TEST

/* A 4-sample surface: every sample of the pixels cleared */
START_TEST(test_rop_clear_msaa)
{
    TSurf t = tsurf(RT_VA, 4, false, W * 2, H * 2, 0x10);
    static const float c[4] = { 0, 0, 0, 1 };
    uint8_t e[4];

    fill_surf(&t, W * 2, H * 2, 0x11);
    set_rt(0, RT_VA, 0xcf, false, W * 2, H * 2, 0x10);
    m(0x121c, (076543210 << 4) | 1);
    m(0x15d0, 2);                                   /* MULTISAMPLE_MODE */
    m(0x0ff4, 1 | 2 << 16);                         /* pixels 1..2 */
    m(0x0ff8, 0 | 1 << 16);                         /* row 0 */
    clear_color(c, NULL, false);
    m(NV50_3D_CLEAR_BUFFERS, 0x3c);
    for (uint32_t y = 0; y < H * 2; y++) {
        for (uint32_t x = 0; x < W * 2; x++) {
            bool in = x >= 2 && x < 6 && y < 2;

            elem_get(&t, x, y, e);
            ck_assert_uint_eq(le32(e), in ? 0xff000000 : 0x11111111);
        }
    }
}
END_TEST

/* --- zeta --- */

typedef struct TZeta {
    uint32_t id;
    unsigned bpp;
    unsigned zbits;             /* 16, 24 unorm, 32 float */
    unsigned zshift;
    int sbyte;
} TZeta;

static const TZeta tzetas[] = {
    { 0x0a, 4, 32, 0, -1 }, { 0x13, 2, 16, 0, -1 }, { 0x14, 4, 24, 8, 0 },
    { 0x15, 4, 24, 0, -1 }, { 0x16, 4, 24, 0, 3 }, { 0x18, 4, 24, 0, -1 },
    { 0x19, 8, 32, 0, 4 }, { 0x1d, 8, 24, 0, 4 }, { 0x1e, 8, 32, 0, -1 },
    { 0x1f, 8, 32, 0, 4 },
};

static uint32_t ref_zenc(const TZeta *z, float v)
{
    uint32_t u;

    if (z->zbits == 32) {
        memcpy(&u, &v, 4);
        return u;
    }
    return (uint32_t)floor(v * (double)((1u << z->zbits) - 1) + 0.5);
}

static void ref_zset(const TZeta *z, uint8_t *e, uint32_t v)
{
    uint32_t w = z->bpp == 2 ? (uint32_t)(e[0] | e[1] << 8) : le32(e);

    if (z->zbits == 24) {
        w = (w & ~(0xffffffu << z->zshift)) | v << z->zshift;
    } else {
        w = v;
    }
    for (unsigned i = 0; i < MIN(z->bpp, 4u); i++) {
        e[i] = w >> (8 * i);
    }
}

/* Every zeta format: Z alone, S alone, in a screen scissor */
START_TEST(test_rop_clear_zeta_formats)
{
    for (unsigned zi = 0; zi < G_N_ELEMENTS(tzetas); zi++) {
        const TZeta *z = &tzetas[zi];
        TSurf t = tsurf(ZETA_VA, z->bpp, false, W, H, 0x10);
        uint8_t got[8], want[8];

        fill_surf(&t, W, H, 0xa5);
        set_zeta(ZETA_VA, z->id, W, H, 0x10);
        m(0x121c, 0);
        m(0x0ff4, 5 | 6 << 16);
        m(0x0ff8, 1 | 5 << 16);
        mf(0x0d90, 0.5f);                           /* CLEAR_DEPTH */
        m(0x0da0, 0x5a);                            /* CLEAR_STENCIL */
        m(NV50_3D_CLEAR_BUFFERS, 0x1);
        m(NV50_3D_CLEAR_BUFFERS, 0x2);
        ck_assert_uint_eq(rd32(INTR), 0);
        for (uint32_t y = 0; y < H; y++) {
            for (uint32_t x = 0; x < W; x++) {
                bool in = x >= 5 && x < 11 && y >= 1 && y < 6;

                memset(want, 0xa5, sizeof(want));
                if (in) {
                    ref_zset(z, want, ref_zenc(z, 0.5f));
                    if (z->sbyte >= 0) {
                        want[z->sbyte] = 0x5a;
                    }
                }
                elem_get(&t, x, y, got);
                ck_assert_msg(!memcmp(got, want, z->bpp), "zeta 0x%x (%u,%u)",
                              z->id, x, y);
            }
        }
    }
}
END_TEST

static NV50GrCall call(void)
{
    NV50GrCall c = {
        .s = rig.s, .ctx = gr.ctx, .subc = SUBC_3D,
        .class_id = nv50_object_class(rig.s, GR_INST + ((uint64_t)obj3d << 4)),
        .obj = GR_INST + ((uint64_t)obj3d << 4), .mthd = 0x15dc,
    };
    return c;
}

static const uint32_t gl_sop[8] = {
    0x1e00, 0x0000, 0x1e01, 0x1e02, 0x1e03, 0x150a, 0x8507, 0x8508,
};

static bool ref_cmp(unsigned f, double a, double b)
{
    switch (f) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a != b;
    case 6: return a >= b;
    }
    return true;
}

static uint8_t ref_sop(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case 1: return 0;
    case 2: return ref;
    case 3: return s == 255 ? 255 : s + 1;
    case 4: return s == 0 ? 0 : s - 1;
    case 5: return ~s;
    case 6: return s + 1;
    case 7: return s - 1;
    }
    return s;
}

/*
 * Depth func x depth write x stencil func x ops x masks x two-sided on
 * Z24_S8, 4x4 pixels of stored values against fragments.
 */
START_TEST(test_rop_zs_exhaustive)
{
    const TZeta *z = &tzetas[4];            /* Z24_S8_UNORM */
    TSurf t = tsurf(ZETA_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();
    unsigned configs = 0;

    set_zeta(ZETA_VA, z->id, 4, 4, 0);
    m(0x121c, 0);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    for (unsigned df = 0; df < 8; df++) {
        for (unsigned wr = 0; wr < 2; wr++) {
            for (unsigned sf = 0; sf < 8; sf++) {
                for (unsigned k = 0; k < 8; k++) {
                    unsigned ops[2][3] = {
                        { k, (k + 3) % 8, (k + 5) % 8 },
                        { (k + 1) % 8, (k + 6) % 8, (k + 2) % 8 },
                    };
                    uint8_t fmask[2] = { 0xff, 0x0f };
                    uint8_t wmask[2] = { 0xff, 0xf0 };
                    uint8_t refs[2] = { 0x40, 0x0c };
                    bool two = k & 1, stencil = sf != 7 || k != 0;
                    uint8_t want[16][4];
                    bool want_pass[16];
                    NV50Rop *r;

                    m(0x12cc, df != 7 || wr);        /* DEPTH_TEST_ENABLE */
                    m(0x130c, 0x200 + df);
                    m(0x12e8, wr);
                    m(0x1380, stencil);
                    m(0x1384, gl_sop[ops[0][0]]);
                    m(0x1388, gl_sop[ops[0][1]]);
                    m(0x138c, gl_sop[ops[0][2]]);
                    m(0x1390, 0x200 + sf);
                    m(0x1394, refs[0]);
                    m(0x1398, wmask[0]);
                    m(0x139c, fmask[0]);
                    m(0x1594, two);
                    m(0x1598, gl_sop[ops[1][0]]);
                    m(0x159c, gl_sop[ops[1][1]]);
                    m(0x15a0, gl_sop[ops[1][2]]);
                    m(0x15a4, 0x200 + (7 - sf));
                    m(0x0f54, refs[1]);
                    m(0x0f58, wmask[1]);
                    m(0x0f5c, fmask[1]);
                    for (unsigned i = 0; i < 16; i++) {
                        uint8_t e[4];
                        uint32_t zs = (i * 0x111111u) & 0xffffff;
                        float fz = (float)((i * 7) % 16) / 15.0f;
                        bool front = !(i & 2) || !two;
                        unsigned side = front ? 0 : 1;
                        uint8_t s = i * 37 + 0x3c;
                        uint32_t fzi = ref_zenc(z, fz);
                        bool spass = true, zpass = true;
                        unsigned op;

                        ref_zset(z, e, zs);
                        e[3] = s;
                        elem_put(&t, i % 4, i / 4, e);
                        if (stencil) {
                            spass = ref_cmp(two ? (side ? 7 - sf : sf) : sf,
                                            refs[side] & fmask[side],
                                            s & fmask[side]);
                        }
                        if (spass && (df != 7 || wr)) {
                            zpass = ref_cmp(df, fzi, zs);
                        }
                        if (stencil) {
                            op = !spass ? ops[side][0] : !zpass ? ops[side][1]
                                                                : ops[side][2];
                            e[3] = (s & ~wmask[side]) |
                                   (ref_sop(op, s, refs[side]) & wmask[side]);
                        }
                        if (spass && zpass && wr) {
                            ref_zset(z, e, fzi);
                        }
                        memcpy(want[i], e, 4);
                        want_pass[i] = spass && zpass;
                    }
                    r = nv50_rop_begin(&c, state());
                    ck_assert_ptr_nonnull(r);
                    for (unsigned i = 0; i < 16; i++) {
                        bool front = !(i & 2) || !two;
                        float fz = (float)((i * 7) % 16) / 15.0f;

                        ck_assert_msg(nv50_rop_zs_test(r, i % 4, i / 4, 0, fz,
                                                       front) == want_pass[i],
                                      "df %u wr %u sf %u k %u px %u", df, wr,
                                      sf, k, i);
                    }
                    nv50_rop_end(r);
                    for (unsigned i = 0; i < 16; i++) {
                        uint8_t e[4];

                        elem_get(&t, i % 4, i / 4, e);
                        ck_assert_msg(!memcmp(e, want[i], 4),
                                      "df %u wr %u sf %u k %u px %u: %08x "
                                      "want %08x", df, wr, sf, k, i, le32(e),
                                      le32(want[i]));
                    }
                    configs++;
                }
            }
        }
    }
    ck_assert_uint_eq(configs, 8 * 2 * 8 * 8);
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Other zeta formats, depth bounds, zeta disabled */
START_TEST(test_rop_zs_formats)
{
    NV50GrCall c = call();

    m(0x121c, 0);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x12cc, 1);
    m(0x130c, 0x201);                           /* LESS */
    m(0x12e8, 1);
    m(0x1380, 1);
    m(0x1384, 0x1e00);
    m(0x1388, 0x1e00);
    m(0x138c, 0x1e02);                          /* INCR on pass */
    m(0x1390, 0x207);
    m(0x1398, 0xff);
    m(0x139c, 0xff);
    for (unsigned zi = 0; zi < G_N_ELEMENTS(tzetas); zi++) {
        const TZeta *z = &tzetas[zi];
        TSurf t = tsurf(ZETA_VA, z->bpp, false, 4, 4, 0);
        uint8_t e[8], want[8];
        NV50Rop *r;

        set_zeta(ZETA_VA, z->id, 4, 4, 0);
        memset(e, 0, 8);
        ref_zset(z, e, ref_zenc(z, 0.5f));
        for (unsigned i = 0; i < 16; i++) {
            elem_put(&t, i % 4, i / 4, e);
        }
        r = nv50_rop_begin(&c, state());
        ck_assert_ptr_nonnull(r);
        ck_assert(nv50_rop_zs_test(r, 0, 0, 0, 0.25f, true));
        ck_assert(!nv50_rop_zs_test(r, 1, 0, 0, 0.75f, true));
        ck_assert(!nv50_rop_zs_test(r, 4, 0, 0, 0.0f, true));  /* outside */
        nv50_rop_end(r);
        memcpy(want, e, 8);
        ref_zset(z, want, ref_zenc(z, 0.25f));
        if (z->sbyte >= 0) {
            want[z->sbyte] = 1;
        }
        elem_get(&t, 0, 0, e);
        ck_assert_msg(!memcmp(e, want, z->bpp), "zeta 0x%x", z->id);
    }
    /* depth bounds: the stored value (0.5) outside [0.6, 1] fails */
    m(0x19bc, 1);
    mf(0x0f9c, 0.6f);
    mf(0x0fa0, 1.0f);
    {
        NV50Rop *r = nv50_rop_begin(&c, state());

        ck_assert(!nv50_rop_zs_test(r, 2, 2, 0, 0.1f, true));
        nv50_rop_end(r);
    }
    m(0x19bc, 0);
    /* no zeta: everything passes */
    m(0x1538, 0);
    {
        NV50Rop *r = nv50_rop_begin(&c, state());

        ck_assert(nv50_rop_zs_test(r, 2, 2, 0, 0.9f, true));
        nv50_rop_end(r);
    }
}
END_TEST

/* --- colour --- */

static const uint32_t g80_bf[19] = {
    0x4000, 0x4001, 0x4300, 0x4301, 0x4302, 0x4303, 0x4304, 0x4305, 0x4306,
    0x4307, 0x4308, 0xc001, 0xc002, 0xc003, 0xc004, 0xc900, 0xc901, 0xc902,
    0xc903,
};
static const uint32_t gl_eq[5] = { 0x8006, 0x800a, 0x800b, 0x8007, 0x8008 };

static float ref_factor(unsigned f, unsigned ch, const float *s,
                        const float *d, const float *s1, const float *k)
{
    switch (f) {
    case 0: return 0;
    case 1: return 1;
    case 2: return s[ch];
    case 3: return 1 - s[ch];
    case 4: return s[3];
    case 5: return 1 - s[3];
    case 6: return d[3];
    case 7: return 1 - d[3];
    case 8: return d[ch];
    case 9: return 1 - d[ch];
    case 10: return ch == 3 ? 1 : MIN(s[3], 1 - d[3]);
    case 11: return k[ch];
    case 12: return 1 - k[ch];
    case 13: return k[3];
    case 14: return 1 - k[3];
    case 15: return s1[ch];
    case 16: return 1 - s1[ch];
    case 17: return s1[3];
    case 18: return 1 - s1[3];
    }
    return 0;
}

static float ref_eq(unsigned e, float s, float sf, float d, float df)
{
    switch (e) {
    case 1: return s * sf - d * df;
    case 2: return d * df - s * sf;
    case 3: return MIN(s, d);
    case 4: return MAX(s, d);
    }
    return s * sf + d * df;
}

static void put_f32x4(const TSurf *t, uint32_t x, uint32_t y, const float *v)
{
    uint8_t e[16];

    memcpy(e, v, 16);
    elem_put(t, x, y, e);
}

/* Every factor (RGB and alpha) and equation on RGBA32_FLOAT, exact */
START_TEST(test_rop_blend_exhaustive)
{
    static const float k[4] = { 0.3f, 0.6f, 0.9f, 0.2f };
    static const float dst[4] = { 0.25f, 0.5f, 0.125f, 0.375f };
    TSurf t = tsurf(RT_VA, 16, false, 4, 4, 0);
    NV50GrCall c = call();
    float col[NV50_PIPE_RTS][4] = {
        { 0.8f, 0.4f, 0.2f, 0.6f }, { 0.1f, 0.7f, 0.5f, 0.9f },
    };

    set_rt(0, RT_VA, 0xc0, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 1);                               /* COLOR_MASK_COMMON */
    m(0x1a00, 0x1111);
    m(0x135c, 1);                               /* BLEND_ENABLE_COMMON */
    m(0x1360, 1);
    m(0x13a8, 0);                               /* no clamp: float RT */
    for (unsigned i = 0; i < 4; i++) {
        mf(0x131c + i * 4, k[i]);
    }
    for (unsigned e = 0; e < 5; e++) {
        for (unsigned sf = 0; sf < 19; sf++) {
            for (unsigned df = 0; df < 19; df++) {
                unsigned ea = (e + 2) % 5, sa = (sf + 5) % 19;
                unsigned da = (df + 11) % 19;
                float want[4], got[4];
                uint8_t b[16];
                NV50Rop *r;

                m(0x1340, gl_eq[e]);
                m(0x1344, g80_bf[sf]);
                m(0x1348, g80_bf[df]);
                m(0x134c, gl_eq[ea]);
                m(0x1350, g80_bf[sa]);
                m(0x1358, g80_bf[da]);
                put_f32x4(&t, 1, 2, dst);
                for (unsigned ch = 0; ch < 4; ch++) {
                    const float *s = col[0], *s1 = col[1];

                    want[ch] = ch < 3
                        ? ref_eq(e, s[ch], ref_factor(sf, ch, s, dst, s1, k),
                                 dst[ch], ref_factor(df, ch, s, dst, s1, k))
                        : ref_eq(ea, s[ch], ref_factor(sa, ch, s, dst, s1, k),
                                 dst[ch], ref_factor(da, ch, s, dst, s1, k));
                }
                r = nv50_rop_begin(&c, state());
                ck_assert_ptr_nonnull(r);
                nv50_rop_write(r, 1, 2, 0, col);
                nv50_rop_end(r);
                elem_get(&t, 1, 2, b);
                memcpy(got, b, 16);
                ck_assert_msg(!memcmp(got, want, 16), "eq %u sf %u df %u: "
                              "%g %g %g %g want %g %g %g %g", e, sf, df,
                              got[0], got[1], got[2], got[3], want[0],
                              want[1], want[2], want[3]);
            }
        }
    }
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Unorm blending: inputs clamped, results rounded; masks; logic ops */
START_TEST(test_rop_write_unorm_masks_logic)
{
    TSurf t = tsurf(RT_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();
    float col[NV50_PIPE_RTS][4] = { { 1.5f, 0.4f, -0.2f, 0.6f } };
    static const uint8_t d[4] = { 0x20, 0x80, 0xc0, 0x40 };
    const TFmt *f = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(tfmts); i++) {
        if (tfmts[i].id == 0xd5) {
            f = &tfmts[i];
        }
    }
    set_rt(0, RT_VA, 0xd5, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 0);
    m(0x135c, 0);
    /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA, masks 0..15 */
    m(0x1340, 0x8006);
    m(0x1344, 0x4302);
    m(0x1348, 0x4303);
    m(0x134c, 0x8006);
    m(0x1350, 0x4302);
    m(0x1358, 0x4303);
    for (unsigned blend = 0; blend < 2; blend++) {
        for (unsigned mask = 0; mask < 16; mask++) {
            uint8_t want[16], e[4];
            float s[4], dd[4];
            NV50Rop *r;

            m(0x1360, blend);
            m(0x1a00, (mask & 1) | (mask & 2) << 3 | (mask & 4) << 6 |
                      (mask & 8) << 9);
            elem_put(&t, 3, 3, d);
            for (unsigned ch = 0; ch < 4; ch++) {
                s[ch] = MIN(MAX(col[0][ch], 0.0f), 1.0f);
                dd[ch] = d[ch] / 255.0f;
            }
            if (blend) {
                for (unsigned ch = 0; ch < 4; ch++) {
                    s[ch] = s[ch] * s[3] + dd[ch] * (1 - s[3]);
                }
            }
            ref_encode(f, s, NULL, want);
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(mask >> ch & 1)) {
                    want[ch] = d[ch];
                }
            }
            r = nv50_rop_begin(&c, state());
            nv50_rop_write(r, 3, 3, 0, col);
            nv50_rop_end(r);
            elem_get(&t, 3, 3, e);
            ck_assert_msg(!memcmp(e, want, 4), "blend %u mask %u: %08x want "
                          "%08x", blend, mask, le32(e), le32(want));
        }
    }
    /* logic ops (blending ignored) */
    m(0x1a00, 0x1111);
    m(0x1360, 1);
    m(0x19c4, 1);
    for (unsigned op = 0; op < 16; op++) {
        uint8_t src[16], e[4];
        NV50Rop *r;

        m(0x19c8, 0x1500 + op);
        elem_put(&t, 0, 1, d);
        ref_encode(f, col[0], NULL, src);
        r = nv50_rop_begin(&c, state());
        nv50_rop_write(r, 0, 1, 0, col);
        nv50_rop_end(r);
        elem_get(&t, 0, 1, e);
        for (unsigned ch = 0; ch < 4; ch++) {
            uint8_t sv = src[ch], dv = d[ch], w;

            switch (op) {
            case 0: w = 0; break;
            case 1: w = sv & dv; break;
            case 2: w = sv & ~dv; break;
            case 3: w = sv; break;
            case 4: w = ~sv & dv; break;
            case 5: w = dv; break;
            case 6: w = sv ^ dv; break;
            case 7: w = sv | dv; break;
            case 8: w = ~(sv | dv); break;
            case 9: w = ~(sv ^ dv); break;
            case 10: w = ~dv; break;
            case 11: w = sv | ~dv; break;
            case 12: w = ~sv; break;
            case 13: w = ~sv | dv; break;
            case 14: w = ~(sv & dv); break;
            default: w = 0xff; break;
            }
            ck_assert_msg(e[ch] == w, "logic op %u ch %u: %02x want %02x", op,
                          ch, e[ch], w);
        }
    }
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Per-RT blend enables and masks; GT215's IBLEND */
static void two_rts(void)
{
    set_rt(0, RT_VA, 0xc0, false, 4, 4, 0);
    set_rt(1, RT1_VA, 0xc0, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 2);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x13a8, 0);
    m(0x0f90, 0);
    m(0x135c, 0);
    m(0x1a00, 0x1111);
    m(0x1a04, 0x0011);                          /* RT 1: R, G */
    m(0x1360, 1);
    m(0x1364, 0);
    m(0x1340, 0x8006);
    m(0x1344, 0x4001);
    m(0x1348, 0x4001);
    m(0x134c, 0x8006);
    m(0x1350, 0x4001);
    m(0x1358, 0x4001);
}

START_TEST(test_rop_write_independent)
{
    static const float d[4] = { 1, 2, 3, 4 };
    float col[NV50_PIPE_RTS][4] = { { 10, 20, 30, 40 }, { 5, 6, 7, 8 } };
    TSurf t0 = tsurf(RT_VA, 16, false, 4, 4, 0);
    TSurf t1 = tsurf(RT1_VA, 16, false, 4, 4, 0);
    NV50GrCall c = call();
    uint8_t b[16];
    float g[4];
    NV50Rop *r;

    two_rts();
    put_f32x4(&t0, 2, 1, d);
    put_f32x4(&t1, 2, 1, d);
    r = nv50_rop_begin(&c, state());
    nv50_rop_write(r, 2, 1, 0, col);
    nv50_rop_end(r);
    elem_get(&t0, 2, 1, b);
    memcpy(g, b, 16);
    ck_assert(g[0] == 11 && g[1] == 22 && g[2] == 33 && g[3] == 44);
    elem_get(&t1, 2, 1, b);
    memcpy(g, b, 16);
    ck_assert(g[0] == 5 && g[1] == 6 && g[2] == 3 && g[3] == 4);
}
END_TEST

START_TEST(test_rop_write_iblend)
{
    static const float d[4] = { 1, 2, 3, 4 };
    float col[NV50_PIPE_RTS][4] = { { 10, 20, 30, 40 }, { 5, 6, 7, 8 } };
    TSurf t0 = tsurf(RT_VA, 16, false, 4, 4, 0);
    TSurf t1 = tsurf(RT1_VA, 16, false, 4, 4, 0);
    NV50GrCall c;
    uint8_t b[16];
    float g[4];
    NV50Rop *r;

    gr_rig_teardown();
    setup_class(0x8597);
    c = call();
    two_rts();
    m(0x12e4, 1);                               /* BLEND_INDEPENDENT */
    m(0x1364, 1);
    /* RT 1: REVERSE_SUBTRACT, ONE, ONE; RT 0 keeps the common ADD */
    m(0x1e00 + 0x20 * 1 + 0x04, 0x800b);
    m(0x1e00 + 0x20 * 1 + 0x08, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x0c, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x10, 0x800b);
    m(0x1e00 + 0x20 * 1 + 0x14, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x18, 0x4001);
    m(0x1e00 + 0x04, 0x8006);
    m(0x1e00 + 0x08, 0x4001);
    m(0x1e00 + 0x0c, 0x4001);
    m(0x1e00 + 0x10, 0x8006);
    m(0x1e00 + 0x14, 0x4001);
    m(0x1e00 + 0x18, 0x4001);
    put_f32x4(&t0, 0, 0, d);
    put_f32x4(&t1, 0, 0, d);
    r = nv50_rop_begin(&c, state());
    nv50_rop_write(r, 0, 0, 0, col);
    nv50_rop_end(r);
    elem_get(&t0, 0, 0, b);
    memcpy(g, b, 16);
    ck_assert(g[0] == 11 && g[3] == 44);
    elem_get(&t1, 0, 0, b);
    memcpy(g, b, 16);
    ck_assert(g[0] == -4 && g[1] == -4 && g[2] == 3 && g[3] == 4);
}
END_TEST

/* Colour values at and around unorm8's rounding boundaries, specials */
static const float unorm8_values[] = {
    NAN, -0.0f, -1.0f, 0.0f, 0.5f / 255 - 1e-6f, 0.5f / 255,
    127.5f / 255, 127.5f / 255 + 1e-6f, 0.2f, 0.999f, 1.0f, 1.5f,
    INFINITY, -INFINITY,
};

/* One RT, every channel written, no blending, logic op or scissor */
static void plain_unorm8_state(void)
{
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 0);
    m(0x1a00, 0x1111);
    m(0x1360, 0);
}

/*
 * Writes to 8-bit UNORM formats with every channel on and no blending
 * (the ROP's plain_unorm8 path) against nv50_rop_encode + pack, with
 * and without ALPHA_TO_ONE: rounding boundaries, out of range, NaN,
 * infinities; the X channel of BGRX8; sRGB (not that path) alike.
 */
START_TEST(test_rop_write_unorm8_plain)
{
    static const uint32_t ids[] = { 0xcf, 0xd5, 0xe6, 0xd0 };
    const float *v = unorm8_values;
    const unsigned nv = G_N_ELEMENTS(unorm8_values);
    TSurf t = tsurf(RT_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();

    plain_unorm8_state();
    for (unsigned fi = 0; fi < G_N_ELEMENTS(ids); fi++) {
        const NV50RopFormat *f = nv50_rop_format(ids[fi]);

        ck_assert_ptr_nonnull(f);
        set_rt(0, RT_VA, ids[fi], false, 4, 4, 0);
        for (unsigned i = 0; i < nv * nv * 2; i++) {
            bool to_one = i % 2;
            float col[NV50_PIPE_RTS][4] = {
                { v[i / 2 % nv], v[i / 2 / nv], v[(i / 2 + 3) % nv],
                  v[(i / 2 * 7) % nv] },
            };
            float want_c[4];
            uint32_t raw[4];
            uint8_t want[16] = { 0 }, e[4];
            NV50Rop *r;

            m(NV50_3D_MULTISAMPLE_CTRL,
              to_one ? NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE : 0);
            memcpy(want_c, col[0], sizeof(want_c));
            if (to_one) {
                want_c[3] = 1.0f;
            }
            nv50_rop_encode(f, want_c, raw);
            nv50_rop_pack(f, raw, want);
            r = nv50_rop_begin(&c, state());
            nv50_rop_write(r, 1, 2, 0, col);
            nv50_rop_end(r);
            elem_get(&t, 1, 2, e);
            ck_assert_msg(!memcmp(e, want, 4), "format 0x%x colour %g %g %g "
                          "%g%s: %08x, not %08x", ids[fi], col[0][0],
                          col[0][1], col[0][2], col[0][3],
                          to_one ? " (alpha to one)" : "", le32(e),
                          le32(want));
        }
    }
}
END_TEST

/*
 * nv50_rop_write_quad (the FP's plain 8-bit path: four colours converted
 * at once, a row's two pixels stored at once) against nv50_rop_encode +
 * pack pixel by pixel: every coverage mask, with and without
 * ALPHA_TO_ONE, pitch-linear and block-linear targets, the colours of
 * test_rop_write_unorm8_plain; pixels left out keep their bytes, and a
 * quad half past the target's right edge writes only its left half.
 */
START_TEST(test_rop_write_quad_plain)
{
    static const uint32_t ids[] = { 0xcf, 0xd5, 0xe6 };
    const float *v = unorm8_values;
    const unsigned nv = G_N_ELEMENTS(unorm8_values);
    NV50GrCall c = call();

    plain_unorm8_state();
    for (unsigned n = 0; n < 2 * G_N_ELEMENTS(ids) * 32; n++) {
        bool linear = n % 2, to_one = n / 2 % 2;
        unsigned mask = n / 4 % 16, fi = n / 64;
        const NV50RopFormat *f = nv50_rop_format(ids[fi]);
        TSurf t = tsurf(RT_VA, 4, linear, 5, 4, 0);
        float col[4][4];
        NV50Rop *r;

        ck_assert_ptr_nonnull(f);
        set_rt(0, RT_VA, ids[fi], linear, 5, 4, 0);
        m(NV50_3D_MULTISAMPLE_CTRL,
          to_one ? NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE : 0);
        fill_surf(&t, 5, 4, 0x5a);
        for (unsigned p = 0; p < 16; p++) {
            col[p / 4][p % 4] = v[(n * 5 + p * 3) % nv];
        }
        r = nv50_rop_begin(&c, state());
        ck_assert(nv50_rop_quad_plain(r));
        nv50_rop_write_quad(r, 2, 2, mask, col);
        nv50_rop_write_quad(r, 4, 0, 0xf, col);   /* x 5 is past */
        nv50_rop_end(r);
        for (unsigned p = 0; p < 8; p++) {
            unsigned x = p < 4 ? 2 + p % 2 : 4 + p % 2;
            unsigned y = p < 4 ? 2 + p / 2 % 2 : p / 2 % 2;
            bool on = p < 4 ? mask >> p & 1 : x < 5;
            uint8_t want[16] = { 0x5a, 0x5a, 0x5a, 0x5a }, e[4];
            float want_c[4];
            uint32_t raw[4];

            if (on) {
                memcpy(want_c, col[p % 4], sizeof(want_c));
                if (to_one) {
                    want_c[3] = 1.0f;
                }
                nv50_rop_encode(f, want_c, raw);
                nv50_rop_pack(f, raw, want);
            }
            if (x < 5) {
                elem_get(&t, x, y, e);
                ck_assert_msg(!memcmp(e, want, 4), "format 0x%x %s mask %x%s "
                              "pixel (%u, %u): %08x, not %08x", ids[fi],
                              linear ? "linear" : "block-linear", mask,
                              to_one ? " (alpha to one)" : "", x, y, le32(e),
                              le32(want));
            }
        }
    }
}
END_TEST

/*
 * A clear's rows are filled without loading them first (rop-mem.c's
 * chunk_get_fill), yet a fault still ends the clear before anything is
 * written back, whichever chunk the write-back reaches first.  A
 * pitch-linear target of rows of 256 bytes whose first 256 are the last
 * 64 KiB the VM maps and whose last 8 are past it, then one whose first
 * 8 are below the first mapped byte and whose next 56 are mapped (the
 * 14 KiB there, unused by these direct calls): each traps, and the
 * mapped rows keep their bytes.  Its mapped rows alone are cleared, no
 * trap.
 */
START_TEST(test_rop_clear_fault_unwritten)
{
    static const float c[4] = { 1.0f, 0.0f, 1.0f, 0.0f };
    static const unsigned rows[2] = { 256, 56 };
    const uint64_t va[2] = { GR_VA_BASE + (64u << 20) - 256 * 256,
                             GR_VA_BASE - 8 * 256 };
    uint8_t e[4];

    m(0x121c, (076543210 << 4) | 1);
    m(0x0c00, 64 << 16);                        /* the viewport, screen */
    m(0x0c04, 264 << 16);
    m(0x0ff4, 64 << 16);
    m(0x0ff8, 264 << 16);
    clear_color(c, NULL, false);
    for (unsigned n = 0; n < 4; n++) {
        bool all = n % 2 == 0;
        unsigned h = rows[n / 2];
        uint64_t at = va[n / 2] + (n / 2 ? 8 * 256 : 0);
        TSurf t = tsurf(at, 4, true, 64, h, 0);

        fill_surf(&t, 64, h, 0x5a);
        set_rt(0, all ? at : va[n / 2], 0xd5, true, 64, all ? h : h + 8, 0);
        m(NV50_3D_CLEAR_BUFFERS, 0x3c);
        if (all) {
            ck_assert_uint_eq(rd32(INTR), 0);
        } else {
            ck_assert_uint_ne(rd32(INTR) & NV50_GR_INTR_TRAP, 0);
            wr32(INTR, rd32(INTR));
        }
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < 64; x++) {
                elem_get(&t, x, y, e);
                ck_assert_msg(le32(e) == (all ? 0x00ff00ffu : 0x5a5a5a5au),
                              "target at 0x%" PRIx64 ", %s (%u, %u): %08x",
                              va[n / 2], all ? "mapped rows" : "all rows", x,
                              y, le32(e));
            }
        }
    }
}
END_TEST

/* Bounds: scissor, screen scissor, the surfaces; a fault traps */
START_TEST(test_rop_bounds_fault)
{
    NV50GrCall c = call();
    RasterParams p = { 0 };
    NV50Rop *r;

    set_rt(0, RT_VA, 0xcf, false, 64, 32, 0x10);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 2 << 16);
    m(0x0ff8, 0);
    m(0x0e04, 1 | 40 << 16);
    m(0x0e08, 3 | 100 << 16);
    r = nv50_rop_begin(&c, state());
    nv50_rop_bounds(r, &p);
    nv50_rop_end(r);
    ck_assert_int_eq(p.x0, 1);
    ck_assert_int_eq(p.x1, 2);
    ck_assert_int_eq(p.y0, 3);
    ck_assert_int_eq(p.y1, 32);
    ck_assert_ptr_null(p.samples);
    /* an unmapped render target: PROP trap, once */
    set_rt(0, 0x7000000000ull, 0xcf, false, 64, 32, 0x10);
    m(0x0ff4, 0);
    m(0x0e04, 8192u << 16);
    m(NV50_3D_CLEAR_BUFFERS, 0x3c);
    ck_assert_uint_ne(rd32(INTR) & NV50_GR_INTR_TRAP, 0);
}
END_TEST

Suite *nv50_rop_suite(void)
{
    Suite *su = suite_create("nv50_rop");
    TCase *tc = tcase_create("rop");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rop_clear_rt_formats);
    tcase_add_test(tc, test_rop_clear_partial);
    tcase_add_test(tc, test_rop_clear_msaa);
    tcase_add_test(tc, test_rop_clear_zeta_formats);
    tcase_add_test(tc, test_rop_zs_exhaustive);
    tcase_add_test(tc, test_rop_zs_formats);
    tcase_add_test(tc, test_rop_blend_exhaustive);
    tcase_add_test(tc, test_rop_write_unorm_masks_logic);
    tcase_add_test(tc, test_rop_write_independent);
    tcase_add_test(tc, test_rop_write_iblend);
    tcase_add_test(tc, test_rop_write_unorm8_plain);
    tcase_add_test(tc, test_rop_write_quad_plain);
    tcase_add_test(tc, test_rop_bounds_fault);
    tcase_add_test(tc, test_rop_clear_fault_unwritten);
    suite_add_tcase(su, tc);
    return su;
}
