/*
 * What the ROP suites (test-device-nv50-rop.c, -rop-zs.c, -rop-blend.c,
 * -rop-write.c) share on top of nv50-gr-rig.h: a 3D object on subchannel
 * SUBC_3D set up as Mesa's nv50_screen_init and validate_fb leave it,
 * render targets and zeta as methods set them, surfaces as the test
 * reads and writes them (TSurf), the call the back end makes
 * (nv50_rop_begin's NV50GrCall), and the plain C references for the
 * bytes a colour (TFmt, ref_encode) and a depth (TZeta, ref_zenc,
 * ref_zset) take in each format.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_ROP_RIG_H
#define TESTS_DEVICE_NV50_ROP_RIG_H

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

static inline void m(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_3D, mthd, data);
}

static inline void mf(uint32_t mthd, float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    m(mthd, u);
}

static inline NV50Gr3dState *state(void)
{
    return gr.ctx->state[NV50_GR_3D];
}

static inline void setup_class(uint16_t class_id)
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

static inline void setup(void)
{
    setup_class(0x8297);
}

/* --- surfaces, as the test sees them --- */

typedef struct TSurf {
    uint64_t va;
    unsigned bpp;
    NV50Surface sf;
} TSurf;

static inline TSurf tsurf(uint64_t va, unsigned bpp, bool linear, uint32_t w,
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

static inline uint8_t rd8(uint64_t va)
{
    return gr_rd32(va & ~3ull) >> (8 * (va & 3));
}

static inline void wr8(uint64_t va, uint8_t v)
{
    uint32_t w = gr_rd32(va & ~3ull);
    unsigned sh = 8 * (va & 3);

    gr_wr32(va & ~3ull, (w & ~(0xffu << sh)) | (uint32_t)v << sh);
}

static inline void elem_get(const TSurf *t, uint32_t x, uint32_t y, uint8_t *e)
{
    uint64_t off = nv50_surface_offset(&t->sf, x * t->bpp, y, 0);

    for (unsigned i = 0; i < t->bpp; i++) {
        e[i] = rd8(t->va + off + i);
    }
}

static inline void elem_put(const TSurf *t, uint32_t x, uint32_t y,
                            const uint8_t *e)
{
    uint64_t off = nv50_surface_offset(&t->sf, x * t->bpp, y, 0);

    for (unsigned i = 0; i < t->bpp; i++) {
        wr8(t->va + off + i, e[i]);
    }
}

/* The bytes of the surface's rows, filled with @v. */
static inline void fill_surf(const TSurf *t, uint32_t w, uint32_t h, uint8_t v)
{
    uint64_t size = nv50_surface_size(&t->sf);

    (void)w;
    (void)h;
    for (uint64_t i = 0; i < size; i += 4) {
        gr_wr32(t->va + i, v * 0x01010101u);
    }
}

static inline uint32_t le32(const uint8_t *e)
{
    return e[0] | e[1] << 8 | e[2] << 16 | (uint32_t)e[3] << 24;
}

static inline void set_rt(unsigned i, uint64_t va, uint32_t fmt, bool linear,
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

static inline void set_zeta(uint64_t va, uint32_t fmt, uint32_t w, uint32_t h,
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

static inline unsigned tfmt_bits(const TFmt *f)
{
    unsigned n = 0;

    for (const char *p = f->layout; *p; ) {
        p++;
        n += strtoul(p, (char **)&p, 10);
    }
    return n;
}

static inline double ref_srgb(double l)
{
    l = l < 0 ? 0 : l > 1 ? 1 : l;
    return l < 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

/* small unsigned floats of exactly representable values only */
static inline uint32_t ref_uf(float v, unsigned mbits)
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
static inline void ref_encode(const TFmt *f, const float *c, const int32_t *ci,
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

static inline void clear_color(const float *c, const int32_t *ci, bool ints)
{
    for (unsigned i = 0; i < 4; i++) {
        if (ints) {
            m(0x0d80 + i * 4, (uint32_t)ci[i]);
        } else {
            mf(0x0d80 + i * 4, c[i]);
        }
    }
}

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

static inline uint32_t ref_zenc(const TZeta *z, float v)
{
    uint32_t u;

    if (z->zbits == 32) {
        memcpy(&u, &v, 4);
        return u;
    }
    return (uint32_t)floor(v * (double)((1u << z->zbits) - 1) + 0.5);
}

static inline void ref_zset(const TZeta *z, uint8_t *e, uint32_t v)
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

/* The call the back end hands nv50_rop_begin(): the 3D object's. */
static inline NV50GrCall call(void)
{
    NV50GrCall c = {
        .s = rig.s, .ctx = gr.ctx, .subc = SUBC_3D,
        .class_id = nv50_object_class(rig.s, GR_INST + ((uint64_t)obj3d << 4)),
        .obj = GR_INST + ((uint64_t)obj3d << 4), .mthd = 0x15dc,
    };
    return c;
}

/* A test case of the ROP suites: the rig set up and torn down around
   each test, a minute for the exhaustive ones. */
static inline TCase *rop_rig_tcase(const char *name)
{
    TCase *tc = tcase_create(name);

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_set_timeout(tc, 60);
    return tc;
}

#endif
