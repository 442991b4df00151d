/*
 * The whole 3D pipeline through PFIFO: what Mesa 22.3's nv50 driver
 * pushes for a draw (the screen's init sequence, nv50_validate_fb,
 * the viewport, the VP and FP with their result map and interpolants,
 * vertex arrays, VERTEX_BEGIN_GL / VERTEX_BUFFER_FIRST / COUNT /
 * VERTEX_END_GL, VB_ELEMENT_U16, TIC/TSC, blending, the occlusion
 * query), drawn by 3d-draw.c, vfetch.c, vp.c, clip.c, fp.c, rop.c and
 * texture.c, and every pixel of the render target checked against a C
 * reference: coverage by edge functions at 1/256 pixel with the
 * top-left rule, perspective-correct colours within 1/255, depth, the
 * alpha test, blending, nearest texels.
 *
 * Programs are written as Mesa's nv50 codegen lays them out (inputs
 * a[], position in o[0x0..0xc], the varying after it; the FP reads 1/w
 * at v[0x0] and its varyings from v[0x4] on, colour in $r0..$r3) and
 * assembled with tesla_assemble.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "nv50-gr-rig.h"
#include "hw/nv50/gr/3d.h"
#include "hw/nv50/surface.h"
#include "target/tesla.h"

#define SUBC        3           /* Mesa's SUBC_3D */
#define H_3D        0xbeef8297u

#define W           64
#define H           64
#define TILE_MODE   0x40        /* nv50_tex_choose_tile_dims, 64 rows */

/* Buffers, as Mesa's screen and context place them (addresses ours) */
#define CODE_VA     (GR_VA_DATA + 0x000000)   /* stage << 19 */
#define UNIF_VA     (GR_VA_DATA + 0x200000)   /* PVP +0, PFP +2<<16 ... */
#define TXC_VA      (GR_VA_DATA + 0x280000)   /* TIC +0, TSC +64 KiB */
#define TLS_VA      (GR_VA_DATA + 0x2a0000)
#define STACK_VA    (GR_VA_DATA + 0x2c0000)
#define RT_VA       (GR_VA_DATA + 0x300000)
#define ZETA_VA     (GR_VA_DATA + 0x340000)
#define VB_VA       (GR_VA_DATA + 0x380000)
#define TEX_VA      (GR_VA_DATA + 0x390000)
#define Q_VA        (GR_VA_DATA + 0x3a0000)

#define CB_PVP      123
#define CB_PFP      125
#define CB_AUX      127

#define FMT_BGRA8_UNORM     0xcf
#define FMT_Z24_S8_UNORM    0x16

/* VERTEX_ARRAY_ATTRIB (nv50_3d.xml.h) */
#define VA_32_32_32_32      0x00080000u
#define VA_FLOAT            0x7e000000u
#define VA_OFFSET(o)        ((uint32_t)(o) << 5)

#define PRIM_TRIANGLES      4
#define PRIM_TRIANGLE_STRIP 5
#define GL_LESS             0x201
#define GL_GEQUAL           0x206
#define GL_FUNC_ADD         0x8006
#define BF_ONE              0x4001
#define BF_SRC_ALPHA        0x4302
#define BF_ONE_MINUS_SRC_ALPHA 0x4303

/* --- methods by their rnndb name (3d-names.c) --- */

static GHashTable *names;

static uint32_t M(const char *name, unsigned i)
{
    const NV50Gr3dMthd *m;

    if (!names) {
        names = g_hash_table_new(g_str_hash, g_str_equal);
        for (uint32_t a = 0x180; a < NV50_3D_MTHD_SPACE; a += 4) {
            unsigned idx;

            m = nv50_3d_mthd_find(a, &idx);
            if (m && !idx) {
                g_hash_table_insert(names, (gpointer)m->name, (gpointer)m);
            }
        }
    }
    m = g_hash_table_lookup(names, name);
    ck_assert_msg(m && i < m->count, "method %s[%u]", name, i);
    return m->mthd + i * m->stride;
}

static uint32_t fu(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/* BEGIN_NV04(push, NV50_3D(name(i)), n) + data */
static void pn(const char *name, unsigned i, const uint32_t *d, unsigned n)
{
    push_mthd(SUBC, M(name, i), d, n);
}

static void p1(const char *name, uint32_t v)
{
    push_1(SUBC, M(name, 0), v);
}

static void pi(const char *name, unsigned i, uint32_t v)
{
    push_1(SUBC, M(name, i), v);
}

static void pf(const char *name, float f)
{
    p1(name, fu(f));
}

static void submit(void)
{
    push_submit();
    ck_assert_msg(rd32(0x400100) == 0, "PGRAPH INTR 0x%x", rd32(0x400100));
}

static void mem_write(uint64_t va, const void *buf, size_t len)
{
    ck_assert(nv50_vram_write(rig.s, gr_va_to_vram(va), buf, len));
}

/* --- Mesa's state --- */

/* nv50_screen_init_hwctx, the parts a draw depends on or meets */
static void mesa_screen_init(void)
{
    const uint32_t runout[4] = { 0, 0, 0, 0 };
    const uint32_t aux_cb[3] = {
        CB_AUX << 12 | 0xf01, CB_AUX << 12 | 0xf21, CB_AUX << 12 | 0xf31,
    };
    uint32_t d[16];

    push_1(SUBC, 0, H_3D);
    p1("COND_MODE", 1);                         /* ALWAYS */
    for (unsigned i = 0; i < 11; i++) {         /* DMA_ZETA .. CLIPID */
        d[i] = GR_H_VM;
    }
    pn("DMA_ZETA", 0, d, 11);
    pn("DMA_COLOR", 0, d, 8);
    p1("REG_MODE", 2);                          /* STRIPED */
    p1("UNK1400_LANES", 0xf);
    p1("ZETA_COMP_ENABLE", 1);
    for (unsigned i = 0; i < 8; i++) {
        d[i] = 1;
    }
    pn("RT_COMP_ENABLE", 0, d, 8);
    p1("RT_CONTROL", 1);
    p1("CSAA_ENABLE", 0);
    p1("MULTISAMPLE_ENABLE", 0);
    p1("MULTISAMPLE_MODE", 0);
    p1("MULTISAMPLE_CTRL", 0);
    p1("PRIM_RESTART_WITH_DRAW_ARRAYS", 1);
    p1("BLEND_SEPARATE_ALPHA", 1);
    p1("SCREEN_Y_CONTROL", 0);
    d[0] = d[1] = 0;
    pn("WINDOW_OFFSET_X", 0, d, 2);
    p1("ZCULL_REGION", 0x3f);
    for (unsigned s = 0; s < 3; s++) {
        static const char *const seg[3] = {
            "VP_ADDRESS_HIGH", "GP_ADDRESS_HIGH", "FP_ADDRESS_HIGH",
        };
        uint64_t a = CODE_VA + ((uint64_t)s << 19);

        d[0] = (uint32_t)(a >> 32);
        d[1] = (uint32_t)a;
        pn(seg[s], 0, d, 2);
    }
    d[0] = (uint32_t)(TLS_VA >> 32);
    d[1] = (uint32_t)TLS_VA;
    d[2] = 4;                                   /* 128 bytes a thread */
    pn("LOCAL_ADDRESS_HIGH", 0, d, 3);
    d[0] = (uint32_t)(STACK_VA >> 32);
    d[1] = (uint32_t)STACK_VA;
    d[2] = 4;
    pn("STACK_ADDRESS_HIGH", 0, d, 3);
    for (unsigned b = 0; b < 4; b++) {
        static const unsigned buf[4] = { CB_PVP, 124, CB_PFP, CB_AUX };
        static const unsigned ofs[4] = { 0, 1, 2, 4 };
        uint64_t a = UNIF_VA + ((uint64_t)ofs[b] << 16);

        d[0] = (uint32_t)(a >> 32);
        d[1] = (uint32_t)a;
        d[2] = buf[b] << 16;                    /* size 0: 64 KiB */
        pn("CB_DEF_ADDRESS_HIGH", 0, d, 3);
    }
    nv50_hostchan_mthd_ni(&gr.ch, SUBC, M("SET_PROGRAM_CB", 0), aux_cb, 3);
    p1("CB_ADDR", (0x10000 - 0x10) << (8 - 2) | CB_AUX);
    nv50_hostchan_mthd_ni(&gr.ch, SUBC, M("CB_DATA", 0), runout, 4);
    d[0] = (uint32_t)((UNIF_VA + (4 << 16) + 0x10000 - 0x10) >> 32);
    d[1] = (uint32_t)(UNIF_VA + (4 << 16) + 0x10000 - 0x10);
    pn("VERTEX_RUNOUT_ADDRESS_HIGH", 0, d, 2);
    for (unsigned i = 0; i < 3; i++) {
        pi("TEX_LIMITS", i, 0x54);
    }
    d[0] = (uint32_t)(TXC_VA >> 32);
    d[1] = (uint32_t)TXC_VA;
    d[2] = 2047;
    pn("TIC_ADDRESS_HIGH", 0, d, 3);
    d[0] = (uint32_t)((TXC_VA + 0x10000) >> 32);
    d[1] = (uint32_t)(TXC_VA + 0x10000);
    pn("TSC_ADDRESS_HIGH", 0, d, 3);
    p1("LINKED_TSC", 0);
    p1("CLIP_RECTS_EN", 0);
    p1("CLIP_RECTS_MODE", 0);                   /* INSIDE_ANY */
    memset(d, 0, sizeof(d));
    pn("CLIP_RECT_HORIZ", 0, d, 16);
    p1("CLIPID_ENABLE", 0);
    p1("VIEWPORT_TRANSFORM_EN", 1);
    for (unsigned i = 0; i < 16; i++) {
        const uint32_t dr[2] = { fu(0.0f), fu(1.0f) };
        const uint32_t vp[2] = { 8192 << 16, 8192 << 16 };
        const uint32_t sc[3] = { 1, 8192 << 16, 8192 << 16 };

        pn("DEPTH_RANGE_NEAR", i, dr, 2);
        pn("VIEWPORT_HORIZ", i, vp, 2);
        pn("SCISSOR_ENABLE", i, sc, 3);
    }
    p1("VIEW_VOLUME_CLIP_CTRL", 0x1080);
    p1("CLEAR_FLAGS", 0x10);                    /* CLEAR_RECT_VIEWPORT */
    p1("RASTERIZE_ENABLE", 1);
    p1("POINT_RASTER_RULES", 0);                /* OGL */
    p1("FRAG_COLOR_CLAMP_EN", 0x11111111);
    p1("EDGEFLAG", 1);
    p1("VB_ELEMENT_BASE", 0);
    p1("VERTEX_ID_BASE", 0);
    p1("UNK0FDC", 1);
    p1("UNK19C0", 1);
    submit();
}

/* nv50_validate_fb: one BGRA8 RT, optionally Z24_S8, both block-linear */
static void mesa_fb(bool zeta)
{
    const uint32_t rt[5] = {
        (uint32_t)(RT_VA >> 32), (uint32_t)RT_VA, FMT_BGRA8_UNORM,
        TILE_MODE, 0,
    };
    const uint32_t zs[5] = {
        (uint32_t)(ZETA_VA >> 32), (uint32_t)ZETA_VA, FMT_Z24_S8_UNORM,
        TILE_MODE, 0,
    };
    const uint32_t wh[3] = { W, H, 1u << 16 | 1 };
    const uint32_t sc[2] = { W << 16, H << 16 };

    p1("RT_CONTROL", 076543210 << 4 | 1);
    pn("SCREEN_SCISSOR_HORIZ", 0, sc, 2);
    pn("RT_ADDRESS_HIGH", 0, rt, 5);
    pn("RT_HORIZ", 0, wh, 2);
    p1("RT_ARRAY_MODE", 1);
    if (zeta) {
        pn("ZETA_ADDRESS_HIGH", 0, zs, 5);
        p1("ZETA_ENABLE", 1);
        pn("ZETA_HORIZ", 0, wh, 3);
    } else {
        p1("ZETA_ENABLE", 0);
    }
    p1("MULTISAMPLE_MODE", 0);
    pn("VIEWPORT_HORIZ", 0, sc, 2);
}

/*
 * A window-system surface (kmscube's GBM surface): st/mesa's viewport is
 * Y_0_TOP, its y scale negated and translate H - H / 2, and front_ccw
 * is GL's FrontFace unflipped.  Otherwise (FBOs, and these tests'
 * default) y is not flipped.
 */
static bool window_surface;

/* nv50_validate_viewport and _scissor for a W x H viewport at 0, 0 */
static void mesa_viewport(void)
{
    const float sy = window_surface ? -H / 2.0f : H / 2.0f;
    const uint32_t tr[3] = { fu(W / 2.0f), fu(H / 2.0f), fu(0.5f) };
    const uint32_t sc[3] = { fu(W / 2.0f), fu(sy), fu(0.5f) };
    const uint32_t dr[2] = { fu(0.0f), fu(1.0f) };
    const uint32_t sci[2] = { (uint32_t)W << 16, (uint32_t)H << 16 };

    pn("VIEWPORT_TRANSLATE_X", 0, tr, 3);
    pn("VIEWPORT_SCALE_X", 0, sc, 3);
    pn("DEPTH_RANGE_NEAR", 0, dr, 2);
    pn("SCISSOR_HORIZ", 0, sci, 2);
}

/*
 * The rasterizer CSO: fill, smooth, GL's last vertex; @cull_back:
 * GL_CULL_FACE with glCullFace(GL_BACK) and glFrontFace(GL_CCW), which
 * nv50_rasterizer_state_create sends as FRONT_FACE CCW when front_ccw
 * (a window surface; an FBO's flips it to CW).
 */
static void mesa_rast_cull(bool cull_back)
{
    const uint32_t poly[3] = { 0x1b02, 0x1b02, 0 };     /* FILL */
    const uint32_t cull[3] = {
        cull_back, window_surface ? 0x0901 : 0x0900, 0x0405,
    };

    pi("SCISSOR_ENABLE", 0, 0);
    p1("SHADE_MODEL", 0x1d01);                          /* SMOOTH */
    p1("PROVOKING_VERTEX_LAST", 1);
    p1("VERTEX_TWO_SIDE_ENABLE", 0);
    p1("MULTISAMPLE_ENABLE", 0);
    pf("LINE_WIDTH", 1.0f);
    pf("POINT_SIZE", 1.0f);
    p1("POINT_SPRITE_ENABLE", 0);
    pn("POLYGON_MODE_FRONT", 0, poly, 3);
    pn("CULL_FACE_ENABLE", 0, cull, 3);
    p1("DEPTH_CLIP_NEGATIVE_Z", 0);
    p1("PIXEL_CENTER_INTEGER", 0);
}

/* The rasterizer CSO without culling */
static void mesa_rast(void)
{
    mesa_rast_cull(false);
}

/* The blend CSO: one RT, @blend with SRC_ALPHA, ONE_MINUS_SRC_ALPHA */
static void mesa_blend(bool blend)
{
    const uint32_t eq[5] = {
        GL_FUNC_ADD, blend ? BF_SRC_ALPHA : BF_ONE,
        blend ? BF_ONE_MINUS_SRC_ALPHA : 0x4000,        /* ZERO */
        GL_FUNC_ADD, BF_ONE,
    };

    p1("COLOR_MASK_COMMON", 1);
    p1("BLEND_ENABLE_COMMON", 1);
    pi("BLEND_ENABLE", 0, blend);
    pn("BLEND_EQUATION_RGB", 0, eq, 5);
    p1("BLEND_FUNC_DST_ALPHA", blend ? BF_ONE_MINUS_SRC_ALPHA : 0x4000);
    p1("LOGIC_OP_ENABLE", 0);
    pi("COLOR_MASK", 0, 0x1111);
}

/* The zsa CSO: depth LESS with writes, or off; @alpha_ref >= 0: GEQUAL */
static void mesa_zsa(bool depth, float alpha_ref)
{
    p1("DEPTH_WRITE_ENABLE", depth);
    p1("DEPTH_TEST_ENABLE", depth);
    if (depth) {
        p1("DEPTH_TEST_FUNC", GL_LESS);
    }
    p1("DEPTH_BOUNDS_EN", 0);
    p1("STENCIL_ENABLE", 0);
    p1("STENCIL_TWO_SIDE_ENABLE", 0);
    p1("ALPHA_TEST_ENABLE", alpha_ref >= 0);
    if (alpha_ref >= 0) {
        const uint32_t at[2] = { fu(alpha_ref), GL_GEQUAL };

        pn("ALPHA_TEST_REF", 0, at, 2);
    }
}

/* nv50_clear: colour and depth of RT 0 */
static void mesa_clear(const float rgba[4], bool depth)
{
    const uint32_t c[4] = { fu(rgba[0]), fu(rgba[1]), fu(rgba[2]),
                            fu(rgba[3]) };

    pn("CLEAR_COLOR", 0, c, 4);
    if (depth) {
        pf("CLEAR_DEPTH", 1.0f);
        p1("CLEAR_STENCIL", 0);
    }
    p1("CLEAR_BUFFERS", 0x3c | (depth ? 0x3 : 0));
}

/* --- programs --- */

static unsigned assemble(TeslaProgType type, const char *src, uint64_t va)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    ck_assert_msg(tesla_assemble(TESLA_G84, type, src, w, &err), "%s\n%s",
                  err ? err : "", src);
    mem_write(va, w->data, w->len * 4);
    return w->len;
}

/*
 * The VP: o[0..3] = the 4x4 matrix in c0 (column-major, GL's) times
 * a[0..3], one mul and three mul + add per row; o[4..] = the @n
 * components of attribute 1.  nv50_vertprog_validate and the result
 * map of nv50_fp_linkage_validate (HPOS, then the FP's varying).
 */
static void mesa_vp(unsigned n)
{
    g_autoptr(GString) s = g_string_new(NULL);
    uint32_t map[2] = { 0x03020100, 0 };

    for (unsigned i = 0; i < 4; i++) {
        g_string_append_printf(s, "ld b32 $r%u a[0x%x]\n", i, i * 4);
    }
    for (unsigned r = 0; r < 4; r++) {
        g_string_append_printf(s, "mul f32 $r%u $r0 c0[0x%x]\n", 4 + r,
                               r * 4);
        for (unsigned c = 1; c < 4; c++) {
            g_string_append_printf(s, "mul f32 $r8 $r%u c0[0x%x]\n", c,
                                   (c * 4 + r) * 4);
            g_string_append_printf(s, "add f32 $r%u $r%u $r8\n", 4 + r,
                                   4 + r);
        }
    }
    for (unsigned i = 0; i < 4; i++) {
        g_string_append_printf(s, "mov b32 o[0x%x] $r%u\n", i * 4, 4 + i);
    }
    for (unsigned i = 0; i < n; i++) {
        g_string_append_printf(s, "ld b32 $r9 a[0x%x]\n", 0x10 + i * 4);
        g_string_append_printf(s, "mov b32 o[0x%x] $r9\n", 0x10 + i * 4);
        map[1] |= (4 + i) << (8 * i);
    }
    g_string_append(s, "exit nop\n");
    assemble(TESLA_PROG_VP, s->str, CODE_VA);

    p1("VP_ATTR_EN", 0xf | ((1u << n) - 1) << 4);
    pi("VP_ATTR_EN", 1, 0);
    p1("VP_REG_ALLOC_RESULT", 4 + n);
    p1("VP_REG_ALLOC_TEMP", 10);
    p1("VP_START_ID", 0);
    p1("VP_GP_BUILTIN_ATTR_EN", 0);
    p1("SEMANTIC_PRIM_ID", 0);
    p1("VP_RESULT_MAP_SIZE", 4 + n);
    pn("VP_RESULT_MAP", 0, map, 2);
}

/* The matrix (column-major) into the VP's c0: PVP through CB_DATA */
static void mesa_vp_uniforms(const float m[16])
{
    uint32_t d[16];

    for (unsigned i = 0; i < 16; i++) {
        d[i] = fu(m[i]);
    }
    p1("SET_PROGRAM_CB", CB_PVP << 12 | 0 << 8 | 0x00 | 1);
    p1("CB_ADDR", 0 << 8 | CB_PVP);
    nv50_hostchan_mthd_ni(&gr.ch, SUBC, M("CB_DATA", 0), d, 16);
}

/*
 * The FP and its linkage: UMASK w (1/w at v[0x0]), @n perspective
 * varyings from v[0x4] (map slot 4 on); @src the code after the rcp of
 * 1/w into $r4.  SEMANTIC_COLOR as nv50_fp_linkage_validate sets it
 * when the varying is COLOR (@colour).
 */
static void mesa_fp(unsigned n, const char *src, unsigned gprs,
                    bool colour)
{
    g_autoptr(GString) s = g_string_new("interp $r4 v[0x0]\n"
                                        "rcp f32 $r4 $r4\n");
    const uint32_t linkage[5] = {
        0, colour ? 4u << 16 | 4 << 8 | 4 : 4 << 8 | 4, 0 << 8 | 4, 0, 0,
    };
    const uint32_t lin[4] = { 0, 0, 0, 0 };

    g_string_append(s, src);
    assemble(TESLA_PROG_FP, s->str, CODE_VA + (2u << 19));
    p1("FP_REG_ALLOC_TEMP", gprs);
    p1("FP_RESULT_COUNT", 4);
    p1("FP_CONTROL", 0);
    p1("FP_CTRL_UNK196C", 0);
    p1("FP_START_ID", 0);
    pn("GP_VIEWPORT_ID_ENABLE", 0, linkage, 5);
    p1("SEMANTIC_VIEWPORT", 0);
    p1("LAYER", 0);
    p1("FP_INTERPOLANT_CTRL", 8u << 24 | n << 16 | 4 << 8 | n);
    pn("NOPERSPECTIVE_BITMAP", 0, lin, 4);
    p1("GP_ENABLE", 0);
}

static const char fp_colour[] =
    "interp $r0 v[0x4] $r4\n"
    "interp $r1 v[0x8] $r4\n"
    "interp $r2 v[0xc] $r4\n"
    "interp $r3 v[0x10] $r4\n"
    "exit nop\n";

/* nv50_vertex_arrays_validate: attributes 0 (vec4) and 1 in one buffer */
static void mesa_arrays(unsigned stride, unsigned nverts)
{
    const uint32_t start[2] = { (uint32_t)(VB_VA >> 32), (uint32_t)VB_VA };
    uint64_t end = VB_VA + (uint64_t)stride * nverts - 1;
    const uint32_t limit[2] = { (uint32_t)(end >> 32), (uint32_t)end };

    pi("VERTEX_ARRAY_ATTRIB", 0, VA_32_32_32_32 | VA_FLOAT | VA_OFFSET(0));
    pi("VERTEX_ARRAY_ATTRIB", 1, VA_32_32_32_32 | VA_FLOAT |
       VA_OFFSET(16));
    pi("VERTEX_ARRAY_FETCH", 0, 0x20000000 | stride);
    pn("VERTEX_ARRAY_START_HIGH", 0, start, 2);
    pn("VERTEX_ARRAY_LIMIT_HIGH", 0, limit, 2);
    pi("VERTEX_ARRAY_PER_INSTANCE", 0, 0);
    for (unsigned i = 1; i < 16; i++) {
        pi("VERTEX_ARRAY_FETCH", i, 0);
    }
}

/* nv50_draw_arrays */
static void draw_arrays(unsigned prim, unsigned first, unsigned count)
{
    p1("VERTEX_BEGIN_GL", prim);
    p1("VERTEX_BUFFER_FIRST", first);
    p1("VERTEX_BUFFER_COUNT", count);
    p1("VERTEX_END_GL", 0);
}

/* nv50_draw_elements_inline_u16: an odd first index as U32, then pairs */
static void draw_elements_u16(unsigned prim, const uint16_t *idx,
                              unsigned count)
{
    uint32_t d[64];
    unsigned n = 0;

    p1("VERTEX_BEGIN_GL", prim);
    if (count & 1) {
        p1("VB_ELEMENT_U32", *idx++);
        count--;
    }
    for (unsigned i = 0; i < count; i += 2) {
        d[n++] = idx[i] | (uint32_t)idx[i + 1] << 16;
    }
    nv50_hostchan_mthd_ni(&gr.ch, SUBC, M("VB_ELEMENT_U16", 0), d, n);
    p1("VERTEX_END_GL", 0);
}

/* nv50_hw_query_get into Q_VA + @ofs */
static void query_get(unsigned ofs, uint32_t seq, uint32_t get)
{
    const uint32_t d[4] = {
        (uint32_t)((Q_VA + ofs) >> 32), (uint32_t)(Q_VA + ofs), seq, get,
    };

    pn("QUERY_ADDRESS_HIGH", 0, d, 4);
}

/* --- the reference --- */

typedef struct Vtx {
    float pos[4];
    float attr[4];
} Vtx;

typedef struct Frame {
    float rgba[H][W][4];
    float z[H][W];
    bool touched[H][W];         /* drawn at least once */
    bool fuzzy[H][W];           /* too close to a test's threshold */
} Frame;

static Frame ref;

/* The VP's arithmetic: mul, then mul + add per column, in floats. */
static void ref_vp(const float m[16], const float p[4], float o[4])
{
    for (unsigned r = 0; r < 4; r++) {
        volatile float acc = p[0] * m[r];

        for (unsigned c = 1; c < 4; c++) {
            volatile float t = p[c] * m[c * 4 + r];

            acc = acc + t;
        }
        o[r] = acc;
    }
}

typedef struct ScrVtx {
    float x, y, z, iw;
    int64_t fx, fy;             /* 1/256 pixel */
    const float *attr;
} ScrVtx;

/* clip.c's to_screen for the viewport of mesa_viewport() */
static void ref_screen(const float c[4], const float *attr, ScrVtx *s)
{
    volatile float iw = 1.0f / c[3];
    volatile float x = c[0] * iw, y = c[1] * iw, z = c[2] * iw;

    x = x * (W / 2.0f);
    y = y * (window_surface ? -H / 2.0f : H / 2.0f);
    z = z * 0.5f;
    s->x = x + W / 2.0f;
    s->y = y + H / 2.0f;
    s->z = MIN(MAX(z + 0.5f, 0.0f), 1.0f);
    s->iw = iw;
    s->fx = llrintf(s->x * 256.0f);
    s->fy = llrintf(s->y * 256.0f);
    s->attr = attr;
}

static int64_t edge(const ScrVtx *a, const ScrVtx *b, int64_t px, int64_t py)
{
    return (b->fx - a->fx) * (py - a->fy) - (b->fy - a->fy) * (px - a->fx);
}

/* D3D10 top-left, y down, vertices clockwise on screen */
static bool top_left(const ScrVtx *a, const ScrVtx *b)
{
    int64_t dx = b->fx - a->fx, dy = b->fy - a->fy;

    return dy < 0 || (dy == 0 && dx > 0);
}

typedef void RefShade(const float attr[4], float out[4], int x, int y,
                      void *opaque);

typedef struct RefState {
    bool depth;
    float alpha_ref;            /* < 0: no alpha test */
    bool blend;
    RefShade *shade;
    void *opaque;
    bool cull_back;             /* GL's CULL_FACE BACK, FrontFace CCW */
    unsigned samples;           /* written, for the occlusion query */
} RefState;

static void ref_tri(RefState *rs, const float m[16], const Vtx *tv[3])
{
    ScrVtx v[3];
    float clip[3][4];
    int64_t area;

    for (unsigned i = 0; i < 3; i++) {
        ref_vp(m, tv[i]->pos, clip[i]);
        ref_screen(clip[i], tv[i]->attr, &v[i]);
    }
    if (rs->cull_back) {
        /* GL: the winding in normalised device coordinates, y up */
        double nx[3], ny[3];

        for (unsigned i = 0; i < 3; i++) {
            nx[i] = clip[i][0] / clip[i][3];
            ny[i] = clip[i][1] / clip[i][3];
        }
        if ((nx[1] - nx[0]) * (ny[2] - ny[0]) -
            (ny[1] - ny[0]) * (nx[2] - nx[0]) <= 0) {
            return;             /* clockwise: a back face */
        }
    }
    area = edge(&v[0], &v[1], v[2].fx, v[2].fy);
    if (area == 0) {
        return;
    }
    if (area < 0) {
        ScrVtx t = v[1];

        v[1] = v[2];
        v[2] = t;
        area = -area;
    }
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int64_t px = (int64_t)x * 256 + 128, py = (int64_t)y * 256 + 128;
            int64_t e[3];
            double b[3], sw = 0;
            float attr[4] = { 0 }, col[4], z = 0;
            bool in = true;

            for (unsigned k = 0; k < 3; k++) {
                const ScrVtx *a = &v[(k + 1) % 3], *c = &v[(k + 2) % 3];

                e[k] = edge(a, c, px, py);      /* opposite vertex k */
                in = in && (e[k] > 0 || (e[k] == 0 && top_left(a, c)));
            }
            if (!in) {
                continue;
            }
            for (unsigned k = 0; k < 3; k++) {
                b[k] = (double)e[k] / area;
                sw += b[k] * v[k].iw;
                z += b[k] * v[k].z;
            }
            for (unsigned c = 0; c < 4; c++) {
                double a = 0;

                for (unsigned k = 0; k < 3; k++) {
                    a += b[k] * v[k].attr[c] * v[k].iw;
                }
                attr[c] = a / sw;
            }
            rs->shade(attr, col, x, y, rs->opaque);
            if (rs->alpha_ref >= 0) {
                if (fabsf(col[3] - rs->alpha_ref) < 1e-3f) {
                    ref.fuzzy[y][x] = true;
                }
                if (!(col[3] >= rs->alpha_ref)) {
                    continue;
                }
            }
            if (rs->depth) {
                if (fabsf(z - ref.z[y][x]) < 1e-4f) {
                    ref.fuzzy[y][x] = true;
                }
                if (!(z < ref.z[y][x])) {
                    continue;
                }
                ref.z[y][x] = z;
            }
            rs->samples++;
            for (unsigned c = 0; c < 4; c++) {
                float s = MIN(MAX(col[c], 0.0f), 1.0f);
                float d = ref.rgba[y][x][c];

                /* the framebuffer holds unorm8: blend with what it holds */
                d = roundf(d * 255.0f) / 255.0f;
                if (rs->blend && c < 3) {
                    float a = MIN(MAX(col[3], 0.0f), 1.0f);

                    s = s * a + d * (1.0f - a);
                } else if (rs->blend) {
                    s = s + d * (1.0f - MIN(MAX(col[3], 0.0f), 1.0f));
                }
                ref.rgba[y][x][c] = s;
            }
            ref.touched[y][x] = true;
        }
    }
}

static void ref_clear(const float rgba[4])
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            memcpy(ref.rgba[y][x], rgba, 16);
            ref.z[y][x] = 1.0f;
        }
    }
}

static void shade_attr(const float attr[4], float out[4], int x, int y,
                       void *opaque)
{
    memcpy(out, attr, 16);
}

/* Every pixel of the RT (BGRA8, block-linear) against the reference. */
static void check_rt(const char *what)
{
    NV50Surface sf = {
        .block_linear = true, .width_bytes = W * 4, .height = H,
        .depth = 1, .block_h = (TILE_MODE >> 4) & 0xf,
    };
    unsigned bad = 0;

    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint32_t px = gr_rd32(RT_VA + nv50_surface_offset(&sf, x * 4, y,
                                                              0));
            static const unsigned sh[4] = { 16, 8, 0, 24 };  /* B G R A */

            if (ref.fuzzy[y][x]) {
                continue;
            }
            for (unsigned c = 0; c < 4; c++) {
                int got = (px >> sh[c]) & 0xff;
                float want = MIN(MAX(ref.rgba[y][x][c], 0.0f), 1.0f) * 255;

                if (fabsf(got - want) > 1.0f) {
                    if (bad++ < 8) {
                        fprintf(stderr, "%s: (%d, %d) channel %u: %d, "
                                "want %.2f\n", what, x, y, c, got, want);
                    }
                }
            }
        }
    }
    ck_assert_msg(!bad, "%s: %u channels off", what, bad);
}

/* --- the tests --- */

static void setup(void)
{
    gr_rig_init();
    gr_object(0x8297, H_3D);
    memset(&ref, 0, sizeof(ref));
    window_surface = false;
    mesa_screen_init();
}

static void teardown(void)
{
    gr_rig_teardown();
}

static void upload_vertices(const Vtx *v, unsigned n)
{
    mem_write(VB_VA, v, sizeof(*v) * n);
}

/*
 * kmscube's case: a perspective matrix, two vertex-coloured triangles
 * overlapping at different depths, the nearer drawn first, depth test
 * LESS on a cleared Z24_S8; the occlusion query (COUNTER_RESET,
 * SAMPLECNT_ENABLE, QUERY_GET 0x0100f002) counts what passed, and
 * nothing drawn with SAMPLECNT_ENABLE 0.
 */
START_TEST(depth_triangles)
{
    /* clip = (x, y, z, 1 + z / 4): w between 0.875 and 1.125 */
    static const float mvp[16] = {
        1, 0, 0, 0,   0, 1, 0, 0,   0, 0, 1, 0.25f,   0, 0, 0, 1,
    };
    static const Vtx v[9] = {
        /* near: z -0.4 .. -0.2 */
        { { -0.83f, -0.71f, -0.4f, 1 }, { 1, 0, 0, 1 } },
        { { 0.61f, -0.52f, -0.3f, 1 }, { 0, 1, 0, 1 } },
        { { -0.12f, 0.77f, -0.2f, 1 }, { 0, 0, 1, 1 } },
        /* far: z 0.2 .. 0.4, crossing the near one */
        { { -0.35f, -0.93f, 0.3f, 1 }, { 1, 1, 0, 1 } },
        { { 0.91f, 0.27f, 0.2f, 1 }, { 0, 1, 1, 1 } },
        { { -0.66f, 0.58f, 0.4f, 1 }, { 1, 0, 1, 1 } },
        /* drawn with SAMPLECNT_ENABLE 0, nearest of all */
        { { -0.2f, -0.2f, -0.5f, 1 }, { 1, 1, 1, 1 } },
        { { 0.2f, -0.2f, -0.5f, 1 }, { 1, 1, 1, 1 } },
        { { 0.0f, 0.2f, -0.5f, 1 }, { 1, 1, 1, 1 } },
    };
    const float bg[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    RefState rs = { .depth = true, .alpha_ref = -1, .shade = shade_attr };
    unsigned counted;

    upload_vertices(v, 9);
    mesa_fb(true);
    mesa_viewport();
    mesa_rast();
    mesa_blend(false);
    mesa_zsa(true, -1);
    mesa_vp(4);
    mesa_vp_uniforms(mvp);
    mesa_fp(4, fp_colour, 5, true);
    mesa_arrays(sizeof(Vtx), 9);
    mesa_clear(bg, true);
    /* nv50_hw_begin_query (the first occlusion query) */
    p1("COUNTER_RESET", 1);                     /* SAMPLECNT */
    p1("SAMPLECNT_ENABLE", 1);
    draw_arrays(PRIM_TRIANGLES, 0, 6);
    query_get(0, 1, 0x0100f002);
    p1("SAMPLECNT_ENABLE", 0);
    draw_arrays(PRIM_TRIANGLES, 6, 3);
    query_get(16, 2, 0x0100f002);
    submit();

    ref_clear(bg);
    for (unsigned t = 0; t < 3; t++) {
        const Vtx *tv[3] = { &v[t * 3], &v[t * 3 + 1], &v[t * 3 + 2] };

        ref_tri(&rs, mvp, tv);
        if (t == 1) {
            counted = rs.samples;
        }
    }
    check_rt("depth");
    ck_assert_uint_eq(gr_rd32(Q_VA), 1);
    ck_assert_uint_eq(gr_rd32(Q_VA + 4), counted);
    ck_assert_uint_eq(gr_rd32(Q_VA + 16), 2);
    ck_assert_uint_eq(gr_rd32(Q_VA + 20), counted);
    ck_assert_uint_gt(counted, 500);
}
END_TEST

/*
 * An indexed quad (two triangles sharing a diagonal, VB_ELEMENT_U16)
 * with alpha across it, blended SRC_ALPHA / ONE_MINUS_SRC_ALPHA over the
 * clear colour: a pixel drawn twice on the diagonal would show.  Then
 * the same with the alpha test (GEQUAL 0.5) on: fp.c's
 * nv50_rop_alpha_test before late Z.
 */
static void blend_quad(bool alpha_test)
{
    static const float ident[16] = {
        1, 0, 0, 0,   0, 1, 0, 0,   0, 0, 1, 0,   0, 0, 0, 1,
    };
    static const Vtx v[4] = {
        { { -0.9f, -0.7f, 0, 1 }, { 1, 0, 0, 0.0f } },
        { { 0.8f, -0.85f, 0, 1 }, { 0, 1, 0, 0.4f } },
        { { -0.75f, 0.8f, 0, 1 }, { 0, 0, 1, 0.7f } },
        { { 0.7f, 0.9f, 0, 1 }, { 1, 1, 1, 1.0f } },
    };
    static const uint16_t idx[6] = { 0, 1, 2, 2, 1, 3 };
    const float bg[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
    float aref = alpha_test ? 0.5f : -1.0f;
    RefState rs = { .alpha_ref = aref, .blend = true, .shade = shade_attr };

    upload_vertices(v, 4);
    mesa_fb(false);
    mesa_viewport();
    mesa_rast();
    mesa_blend(true);
    mesa_zsa(false, aref);
    mesa_vp(4);
    mesa_vp_uniforms(ident);
    mesa_fp(4, fp_colour, 5, true);
    mesa_arrays(sizeof(Vtx), 4);
    mesa_clear(bg, false);
    draw_elements_u16(PRIM_TRIANGLES, idx, 6);
    submit();

    ref_clear(bg);
    for (unsigned t = 0; t < 2; t++) {
        const Vtx *tv[3] = {
            &v[idx[t * 3]], &v[idx[t * 3 + 1]], &v[idx[t * 3 + 2]],
        };

        ref_tri(&rs, ident, tv);
    }
    check_rt(alpha_test ? "alpha test" : "blend");
}

START_TEST(indexed_quad_blend)
{
    blend_quad(false);
}
END_TEST

START_TEST(indexed_quad_alpha_test)
{
    blend_quad(true);
}
END_TEST

/* An 8x8 RGBA8 texture, block-linear, texel (x, y) = these bytes */
static uint32_t texel(unsigned x, unsigned y)
{
    return (x * 31 + 7) | (y * 29 + 11) << 8 | ((x ^ y) * 30) << 16 |
           0xffu << 24;
}

static void shade_tex(const float attr[4], float out[4], int x, int y,
                      void *opaque)
{
    int tx = (int)floorf(attr[0] * 8), ty = (int)floorf(attr[1] * 8);
    uint32_t t;

    /* nearest at a texel boundary is not the reference's to decide */
    if (fabsf(attr[0] * 8 - roundf(attr[0] * 8)) < 1e-3f ||
        fabsf(attr[1] * 8 - roundf(attr[1] * 8)) < 1e-3f) {
        ref.fuzzy[y][x] = true;
    }
    tx = MIN(MAX(tx, 0), 7);            /* CLAMP_TO_EDGE */
    ty = MIN(MAX(ty, 0), 7);
    t = texel(tx, ty);
    for (unsigned c = 0; c < 4; c++) {
        out[c] = ((t >> (8 * c)) & 0xff) / 255.0f;
    }
}

/*
 * A textured quad: TIC as nv50_create_texture_view writes a 2D
 * block-linear R8G8B8A8_UNORM texture on G84, TSC as
 * nv50_sampler_state_create writes CLAMP_TO_EDGE / NEAREST / no mips,
 * BIND_TIC/TSC of the FP (nv50_validate_tic/tsc), the FP's texauto.
 */
START_TEST(textured_quad)
{
    static const float ident[16] = {
        1, 0, 0, 0,   0, 1, 0, 0,   0, 0, 1, 0,   0, 0, 0, 1,
    };
    static const Vtx v[4] = {
        { { -0.7f, -0.6f, 0, 1 }, { 0, 0, 0, 1 } },
        { { 0.65f, -0.7f, 0, 1 }, { 1, 0, 0, 1 } },
        { { -0.6f, 0.75f, 0, 1 }, { 0, 1, 0, 1 } },
        { { 0.8f, 0.6f, 0, 1 }, { 1, 1, 0, 1 } },
    };
    /* 8x8 RGBA8: one GOB is 64 bytes x 4 rows; block 1 GOB x 2 */
    NV50Surface tsf = {
        .block_linear = true, .width_bytes = 32, .height = 8, .depth = 1,
        .block_h = 1,
    };
    const uint32_t tic[8] = {
        0x08 | 2 << 6 | 2 << 9 | 2 << 12 | 2 << 15 |    /* A8B8G8R8 UNORM */
        2u << 18 | 3u << 21 | 4u << 24 | 5u << 27,      /* R G B A */
        (uint32_t)TEX_VA,
        0x10001000u | 0x40000000u | 0x80000000u |       /* NORMALIZED */
        1u << 14 |                                      /* TWO_D */
        (0x10u & 0xf0) << 18 | (uint32_t)(TEX_VA >> 32),
        0x00300000, 0x80000000u | 8, 8 | 1u << 16, 0x03000000, 0,
    };
    const uint32_t tsc[8] = {
        0x00026000 | 2 | 2 << 3 | 2 << 6,               /* CLAMP_TO_EDGE */
        1 | 1 << 4 | 1 << 6,                            /* NEAREST, no mip */
        (15u * 256) << 12, 0, 0, 0, 0, 0,
    };
    const float bg[4] = { 0, 0, 0, 0 };
    RefState rs = { .alpha_ref = -1, .shade = shade_tex };

    for (unsigned y = 0; y < 8; y++) {
        for (unsigned x = 0; x < 8; x++) {
            gr_wr32(TEX_VA + nv50_surface_offset(&tsf, x * 4, y, 0),
                    texel(x, y));
        }
    }
    mem_write(TXC_VA + 3 * 32, tic, 32);
    mem_write(TXC_VA + 0x10000 + 5 * 32, tsc, 32);
    upload_vertices(v, 4);
    mesa_fb(false);
    mesa_viewport();
    mesa_rast();
    mesa_blend(false);
    mesa_zsa(false, -1);
    mesa_vp(2);
    mesa_vp_uniforms(ident);
    mesa_fp(2, "interp $r0 v[0x4] $r4\n"
               "interp $r1 v[0x8] $r4\n"
               "texauto all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1\n"
               "mov b32 $r3 $r3\n"
               "exit nop\n", 5, false);
    pi("BIND_TIC", 2, 3u << 9 | 0 << 1 | 1);    /* FP $t0 = TIC 3 */
    pi("BIND_TSC", 2, 5u << 12 | 0 << 4 | 1);   /* FP $s0 = TSC 5 */
    p1("TIC_FLUSH", 0);
    p1("TSC_FLUSH", 0);
    mesa_arrays(sizeof(Vtx), 4);
    mesa_clear(bg, false);
    draw_arrays(5, 0, 4);                       /* TRIANGLE_STRIP */
    submit();

    ref_clear(bg);
    for (unsigned t = 0; t < 2; t++) {
        /* GL's strip: the odd triangle's first two swapped */
        const Vtx *tv[3] = {
            &v[t ? 2 : 0], &v[t ? 1 : 1], &v[t ? 3 : 2],
        };

        ref_tri(&rs, ident, tv);
    }
    check_rt("texture");
}
END_TEST

/* kmscube's cube (cube-smooth.c): 6 faces of 4 vertices, strips */
static const float cube_pos[24][3] = {
    { -1, -1, +1 }, { +1, -1, +1 }, { -1, +1, +1 }, { +1, +1, +1 },
    { +1, -1, -1 }, { -1, -1, -1 }, { +1, +1, -1 }, { -1, +1, -1 },
    { +1, -1, +1 }, { +1, -1, -1 }, { +1, +1, +1 }, { +1, +1, -1 },
    { -1, -1, -1 }, { -1, -1, +1 }, { -1, +1, -1 }, { -1, +1, +1 },
    { -1, +1, +1 }, { +1, +1, +1 }, { -1, +1, -1 }, { +1, +1, -1 },
    { -1, -1, -1 }, { +1, -1, -1 }, { -1, -1, +1 }, { +1, -1, +1 },
};
static const float cube_col[24][3] = {
    { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 },
    { 1, 0, 0 }, { 0, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 },
    { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 1 }, { 1, 1, 0 },
    { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 },
    { 0, 1, 1 }, { 1, 1, 1 }, { 0, 1, 0 }, { 1, 1, 0 },
    { 0, 0, 0 }, { 1, 0, 0 }, { 0, 0, 1 }, { 1, 0, 1 },
};

/* column-major 4x4: @a = @a * @b */
static void mat_mul(double a[16], const double b[16])
{
    double r[16];

    for (unsigned c = 0; c < 4; c++) {
        for (unsigned k = 0; k < 4; k++) {
            double s = 0;

            for (unsigned i = 0; i < 4; i++) {
                s += a[i * 4 + k] * b[c * 4 + i];
            }
            r[c * 4 + k] = s;
        }
    }
    memcpy(a, r, sizeof(r));
}

/* @m = @m * rotation by @deg about the unit axis x, y or z (@axis) */
static void mat_rotate(double m[16], double deg, unsigned axis)
{
    double c = cos(deg * G_PI / 180), s = sin(deg * G_PI / 180);
    double r[16] = { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 };
    unsigned a = (axis + 1) % 3, b = (axis + 2) % 3;

    r[a * 4 + a] = c;
    r[a * 4 + b] = s;
    r[b * 4 + a] = -s;
    r[b * 4 + b] = c;
    mat_mul(m, r);
}

/*
 * kmscube's case as it runs on a GBM surface: its cube (24 vertices,
 * per-vertex colours, six 4-vertex TRIANGLE_STRIP draws), a frame's
 * modelview-projection (esFrustum(-2.8, 2.8, -2.8, 2.8, 6, 10),
 * translate -8, rotations), no depth buffer, GL_CULL_FACE: only the
 * front faces may reach the render target.  The surface is a window
 * system one, so st/mesa flips y in the viewport (scale -H / 2) and
 * sends FRONT_FACE CCW: the hardware's counter-clockwise is as seen on
 * a y-down screen.  A back face drawn instead of the front one (the
 * facing inverted) paints the cube with the far faces: in kmscube, the
 * unlit, black ones.
 */
START_TEST(window_cube_culled)
{
    const double n = 6, f = 10, l = 2.8;
    double mv[16] = { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, -8, 1 };
    double mvp[16] = {
        n / l, 0, 0, 0,  0, n / l, 0, 0,
        0, 0, -(f + n) / (f - n), -1,  0, 0, -2 * f * n / (f - n), 0,
    };
    float m[16];
    Vtx v[24];
    const float bg[4] = { 0.5f, 0.5f, 0.5f, 1.0f };
    RefState rs = { .alpha_ref = -1, .shade = shade_attr, .cull_back = true };
    unsigned drawn = 0;

    mat_rotate(mv, 52.5, 0);
    mat_rotate(mv, 30, 1);
    mat_rotate(mv, 14.5, 2);
    mat_mul(mvp, mv);
    for (unsigned i = 0; i < 16; i++) {
        m[i] = mvp[i];
    }
    for (unsigned i = 0; i < 24; i++) {
        v[i] = (Vtx) {
            { cube_pos[i][0], cube_pos[i][1], cube_pos[i][2], 1 },
            { cube_col[i][0], cube_col[i][1], cube_col[i][2], 1 },
        };
    }
    window_surface = true;
    upload_vertices(v, 24);
    mesa_fb(false);
    mesa_viewport();
    mesa_rast_cull(true);
    mesa_blend(false);
    mesa_zsa(false, -1);
    mesa_vp(4);
    mesa_vp_uniforms(m);
    mesa_fp(4, fp_colour, 5, false);
    mesa_arrays(sizeof(Vtx), 24);
    mesa_clear(bg, false);
    for (unsigned face = 0; face < 6; face++) {
        draw_arrays(PRIM_TRIANGLE_STRIP, face * 4, 4);
    }
    submit();

    ref_clear(bg);
    for (unsigned face = 0; face < 6; face++) {
        const Vtx *b = &v[face * 4];
        const Vtx *t0[3] = { &b[0], &b[1], &b[2] };
        const Vtx *t1[3] = { &b[2], &b[1], &b[3] };     /* GL's odd one */

        ref_tri(&rs, m, t0);
        ref_tri(&rs, m, t1);
    }
    check_rt("window cube");
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            drawn += ref.touched[y][x];
        }
    }
    ck_assert_uint_gt(drawn, W * H / 16);       /* the cube is there */
}
END_TEST

Suite *nv50_3d_e2e_suite(void)
{
    Suite *su = suite_create("nv50_3d_e2e");
    TCase *tc = tcase_create("draw");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, depth_triangles);
    tcase_add_test(tc, indexed_quad_blend);
    tcase_add_test(tc, indexed_quad_alpha_test);
    tcase_add_test(tc, textured_quad);
    tcase_add_test(tc, window_cube_culled);
    suite_add_tcase(su, tc);
    return su;
}
