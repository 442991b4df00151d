/*
 * make bench: the G84's 3D pipeline through an in-process channel
 * (g84-eng.h): vertex fetch, VP, clip, raster, FP on the emulated MPs
 * (and host threads: GEMU_FP_THREADS), ROP, into a 1024x768 BGRA8 pitch
 * render target.  The time is taken around the pushing and the kicks,
 * never around the set-up; results are checked afterwards.
 *
 *   g84-fill   Mpixel/s of large flat-shaded quads (GL_QUADS), every
 *              pixel checked against a model
 *   g84-tri    triangles/s of small triangles (6 pixels each, a 4x4
 *              grid cell apiece), every pixel checked
 *   g84-cube   frames/s of kmscube's frame: a clear, then a lit cube
 *              with perspective-correct smooth colours (what kmscube's
 *              shaders compute), back faces culled as GL_CULL_FACE does,
 *              turning from frame to frame, most of the target covered;
 *              checked: the clear colour in the corners, the cube in the
 *              middle, its many colours; g84-cube-frame: the same as ms
 *              a frame
 *   g84-cube-bl  the same frames into what Mesa gives kmscube in the
 *              guest: a block-linear BGRX8 RT (XRGB8888) of tile mode 0x40
 *              (nv50_tex_choose_tile_dims for 768 rows: 64-row blocks,
 *              4 KiB each), no zeta (kmscube clears colour alone and
 *              tests no depth); g84-cube-bl-frame in ms a frame
 *   g84-clear-bl  clears/s of that RT with a Z24_S8 zeta of the same
 *              tile mode: colour, depth and stencil at once, as
 *              nv50_clear sends glClear of all three; every byte checked
 *   g84-draws  draws/s of one small triangle each (the per-draw cost:
 *              the VP's code and c[], the FP program check, the ROP's
 *              set-up and write-back); checked as g84-tri
 *   g84-lines  lines/s of piglit's lineloop: a GL_LINE_LOOP of 10000
 *              vertices on a circle 400 pixels across, each line an
 *              eighth of a pixel long (the per-primitive cost: vertex
 *              fetch, VP, clip, line set-up); checked: the circle's
 *              pixels on its axes drawn, its inside untouched
 *   g84-mesh   triangles/s of glmark2 terrain's shape: a 256x256 grid
 *              of 4x3-pixel cells, two triangles each, in one draw of
 *              393216 vertices (the per-vertex and per-triangle cost:
 *              fetch, the vertex cache, VP, assembly, clip, triangle
 *              set-up); g84-mesh-idx indexed (VB_ELEMENT_U32, each vertex
 *              shared by up to six triangles), g84-mesh-arrays six
 *              vertices a cell as terrain's glDrawArrays,
 *              g84-mesh-mvp those through a VP of Mesa's matrix form
 *              (c0[] operands: the identity; st o[] exports); every
 *              pixel checked
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "g84-eng.h"
#include "hw/nv50/surface.h"
#include "target/tesla.h"

#define SUBC_3D         3
#define H_3D            0xbeef8297u
#define D3_DMA_ZETA     0x0184      /* 11: ZETA .. CLIPID */
#define D3_DMA_COLOR    0x01c0
#define D3_RT_ADDRESS_HIGH 0x0200
#define D3_VERTEX_ARRAY_FETCH 0x0900
#define D3_VIEWPORT_SCALE_X 0x0a00
#define D3_VIEWPORT_TRANSLATE_X 0x0a0c
#define D3_VIEWPORT_HORIZ 0x0c00
#define D3_CLEAR_DEPTH  0x0d90
#define D3_CLEAR_STENCIL 0x0da0
#define D3_DEPTH_RANGE_NEAR 0x0c08
#define D3_VERTEX_BUFFER_FIRST 0x0d74
#define D3_CLEAR_COLOR  0x0d80
#define D3_SCISSOR_ENABLE 0x0e00
#define D3_VP_ADDRESS_HIGH 0x0f7c
#define D3_FP_ADDRESS_HIGH 0x0fa4
#define D3_ZETA_ADDRESS_HIGH 0x0fe0
#define D3_SCREEN_SCISSOR_HORIZ 0x0ff4
#define D3_VERTEX_ARRAY_LIMIT_HIGH 0x1080
#define D3_RT_CONTROL   0x121c
#define D3_RT_ARRAY_MODE 0x1224
#define D3_ZETA_HORIZ   0x1228
#define D3_RT_HORIZ     0x1240
#define D3_FP_RESULT_COUNT 0x1298
#define D3_DEPTH_TEST_ENABLE 0x12cc
#define D3_SHADE_MODEL  0x12d4
#define D3_BLEND_ENABLE 0x1360
#define D3_VP_START_ID  0x140c
#define D3_FP_START_ID  0x1414
#define D3_CLEAR_FLAGS  0x143c
#define D3_ZETA_ENABLE  0x1538
#define D3_COND_MODE    0x1558
#define D3_VERTEX_BEGIN_GL 0x15dc
#define D3_VERTEX_END_GL 0x15e0
#define D3_VB_ELEMENT_U32 0x15e8
#define D3_VP_ATTR_EN   0x1650
#define D3_PROVOKING_VERTEX_LAST 0x1684
#define D3_VP_RESULT_MAP_SIZE 0x16ac
#define D3_VP_REG_ALLOC_TEMP 0x16b0
#define D3_CB_DEF_ADDRESS_HIGH 0x1280
#define D3_SET_PROGRAM_CB 0x1694
#define D3_VP_REG_ALLOC_RESULT 0x16b8
#define D3_VP_RESULT_MAP 0x16bc
#define D3_RASTERIZE_ENABLE 0x17b4
#define D3_SEMANTIC_COLOR 0x1904
#define D3_CULL_FACE_ENABLE 0x1918
#define D3_VIEWPORT_TRANSFORM_EN 0x192c
#define D3_VIEW_VOLUME_CLIP_CTRL 0x193c
#define D3_FP_INTERPOLANT_CTRL 0x1988
#define D3_FP_REG_ALLOC_TEMP 0x198c
#define D3_FP_CONTROL   0x19a8
#define D3_CLEAR_BUFFERS 0x19d0
#define D3_COLOR_MASK   0x1a00
#define D3_VERTEX_ARRAY_ATTRIB 0x1ac0

#define D3_CODE_VA      ENG_VA_DATA                 /* VP +0, FP +1 MiB */
#define D3_CB_VA        (D3_CODE_VA + 0x80000)      /* g84-mesh-mvp's c0 */
#define D3_CB_VP        0                           /* its buffer */
#define D3_RT_VA        (ENG_VA_DATA + 0x200000)
#define D3_VB_VA        (ENG_VA_DATA + 0x800000)
#define D3_ZETA_VA      (D3_RT_VA + 0x300000)   /* the BL zeta, 3 MiB */
#define D3_FMT_BGRA8    0xcf
#define D3_FMT_BGRX8    0xe6
#define D3_ZFMT_Z24_S8  0x16
#define D3_TILE_768     0x40    /* block_h 4: Mesa's for 768 rows */

typedef struct D3Vtx {
    float pos[4];
    float col[4];
} D3Vtx;

static bool d3_program(Eng *e, TeslaProgType t, const char *src,
                       uint64_t va)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    if (!tesla_assemble(TESLA_G84, t, src, w, &err)) {
        bench_fail(e->name, "%s", err);
        return false;
    }
    mem_write(e, va, w->data, w->len * 4);
    return true;
}

/*
 * A 3D object with Mesa's state for a flat-shaded draw into a
 * FB_W x FB_H BGRA8 pitch RT (nv50_screen_init_hwctx's DMA objects,
 * nv50_validate_fb's linear path, the viewport, a VP passing position
 * and colour, an FP interpolating the colour), cleared to black.
 */
static bool d3_init(Eng *e, const char *name, unsigned nverts)
{
    const uint32_t vm[11] = {
        [0 ... 10] = NV50_HOSTCHAN_H_VM,
    };
    uint64_t end = D3_VB_VA + (uint64_t)nverts * sizeof(D3Vtx) - 1;

    if (!eng_init(e, name) ||
        !d3_program(e, TESLA_PROG_VP,
                    "ld b32 $r0 a[0x0]\nld b32 $r1 a[0x4]\n"
                    "ld b32 $r2 a[0x8]\nld b32 $r3 a[0xc]\n"
                    "mov b32 o[0x0] $r0\nmov b32 o[0x4] $r1\n"
                    "mov b32 o[0x8] $r2\nmov b32 o[0xc] $r3\n"
                    "ld b32 $r0 a[0x10]\nld b32 $r1 a[0x14]\n"
                    "ld b32 $r2 a[0x18]\nld b32 $r3 a[0x1c]\n"
                    "mov b32 o[0x10] $r0\nmov b32 o[0x14] $r1\n"
                    "mov b32 o[0x18] $r2\nmov b32 o[0x1c] $r3\n"
                    "exit nop\n", D3_CODE_VA) ||
        !d3_program(e, TESLA_PROG_FP,
                    "interp $r4 v[0x0]\nrcp f32 $r4 $r4\n"
                    "interp $r0 v[0x4] $r4\ninterp $r1 v[0x8] $r4\n"
                    "interp $r2 v[0xc] $r4\ninterp $r3 v[0x10] $r4\n"
                    "exit nop\n", D3_CODE_VA + 0x100000)) {
        return false;
    }
    nv50_hostchan_object(&e->ch, 0x8297, H_3D);
    mthd1(e, SUBC_3D, M_OBJECT, H_3D);
    mthd1(e, SUBC_3D, D3_COND_MODE, 1);
    mthd(e, SUBC_3D, D3_DMA_ZETA, vm, 11);
    mthd(e, SUBC_3D, D3_DMA_COLOR, vm, 8);
    mthd(e, SUBC_3D, D3_VP_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)(D3_CODE_VA >> 32), (uint32_t)D3_CODE_VA }, 2);
    mthd(e, SUBC_3D, D3_FP_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)((D3_CODE_VA + 0x100000) >> 32),
             (uint32_t)(D3_CODE_VA + 0x100000) }, 2);
    mthd1(e, SUBC_3D, D3_VIEWPORT_TRANSFORM_EN, 1);
    mthd1(e, SUBC_3D, D3_VIEW_VOLUME_CLIP_CTRL, 0x1080);
    mthd1(e, SUBC_3D, D3_CLEAR_FLAGS, 0x10);
    mthd1(e, SUBC_3D, D3_RASTERIZE_ENABLE, 1);
    /* nv50_validate_fb, linear */
    mthd1(e, SUBC_3D, D3_RT_CONTROL, 076543210 << 4 | 1);
    mthd(e, SUBC_3D, D3_SCREEN_SCISSOR_HORIZ, (const uint32_t[]){
             FB_W << 16, FB_H << 16 }, 2);
    mthd(e, SUBC_3D, D3_RT_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)(D3_RT_VA >> 32), (uint32_t)D3_RT_VA, D3_FMT_BGRA8,
             0, 0 }, 5);
    mthd(e, SUBC_3D, D3_RT_HORIZ, (const uint32_t[]){
             0x80000000u | FB_PITCH, FB_H }, 2);
    mthd1(e, SUBC_3D, D3_RT_ARRAY_MODE, 0);
    mthd1(e, SUBC_3D, D3_ZETA_ENABLE, 0);
    mthd(e, SUBC_3D, D3_VIEWPORT_HORIZ, (const uint32_t[]){
             FB_W << 16, FB_H << 16 }, 2);
    /* the viewport, no scissor, no culling, depth, blending */
    mthd(e, SUBC_3D, D3_VIEWPORT_TRANSLATE_X, (const uint32_t[]){
             0x44000000 /* 512 */, 0x43c00000 /* 384 */, 0x3f000000 }, 3);
    mthd(e, SUBC_3D, D3_VIEWPORT_SCALE_X, (const uint32_t[]){
             0x44000000, 0x43c00000, 0x3f000000 }, 3);
    mthd(e, SUBC_3D, D3_DEPTH_RANGE_NEAR, (const uint32_t[]){
             0, 0x3f800000 }, 2);
    mthd1(e, SUBC_3D, D3_SCISSOR_ENABLE, 0);
    mthd1(e, SUBC_3D, D3_CULL_FACE_ENABLE, 0);
    mthd1(e, SUBC_3D, D3_DEPTH_TEST_ENABLE, 0);
    mthd1(e, SUBC_3D, D3_BLEND_ENABLE, 0);
    mthd1(e, SUBC_3D, D3_COLOR_MASK, 0x1111);
    mthd1(e, SUBC_3D, D3_SHADE_MODEL, 0x1d00);          /* FLAT */
    mthd1(e, SUBC_3D, D3_PROVOKING_VERTEX_LAST, 1);
    /* the programs and their linkage (nv50_fp_linkage_validate) */
    mthd(e, SUBC_3D, D3_VP_ATTR_EN, (const uint32_t[]){ 0xff, 0 }, 2);
    mthd1(e, SUBC_3D, D3_VP_REG_ALLOC_RESULT, 8);
    mthd1(e, SUBC_3D, D3_VP_REG_ALLOC_TEMP, 4);
    mthd1(e, SUBC_3D, D3_VP_START_ID, 0);
    mthd1(e, SUBC_3D, D3_VP_RESULT_MAP_SIZE, 8);
    mthd(e, SUBC_3D, D3_VP_RESULT_MAP, (const uint32_t[]){
             0x03020100, 0x07060504 }, 2);
    mthd1(e, SUBC_3D, D3_SEMANTIC_COLOR, 4 << 16 | 4 << 8 | 4);
    mthd1(e, SUBC_3D, D3_FP_INTERPOLANT_CTRL, 8u << 24 | 4 << 16 | 4 << 8 |
          4);
    mthd1(e, SUBC_3D, D3_FP_REG_ALLOC_TEMP, 5);
    mthd1(e, SUBC_3D, D3_FP_RESULT_COUNT, 4);
    mthd1(e, SUBC_3D, D3_FP_CONTROL, 0);
    mthd1(e, SUBC_3D, D3_FP_START_ID, 0);
    /* one array: position and colour, vec4 floats */
    mthd1(e, SUBC_3D, D3_VERTEX_ARRAY_ATTRIB, 0x7e080000);
    mthd1(e, SUBC_3D, D3_VERTEX_ARRAY_ATTRIB + 4, 0x7e080000 | 16 << 5);
    mthd1(e, SUBC_3D, D3_VERTEX_ARRAY_FETCH, 0x20000000 | sizeof(D3Vtx));
    mthd(e, SUBC_3D, D3_VERTEX_ARRAY_FETCH + 4, (const uint32_t[]){
             (uint32_t)(D3_VB_VA >> 32), (uint32_t)D3_VB_VA }, 2);
    mthd(e, SUBC_3D, D3_VERTEX_ARRAY_LIMIT_HIGH, (const uint32_t[]){
             (uint32_t)(end >> 32), (uint32_t)end }, 2);
    /* nv50_clear to black */
    mthd(e, SUBC_3D, D3_CLEAR_COLOR, (const uint32_t[]){ 0, 0, 0, 0 }, 4);
    mthd1(e, SUBC_3D, D3_CLEAR_BUFFERS, 0x3c);
    eng_submit(e);
    return eng_ok(e);
}

/* A vertex at pixel corner (x, y) with colour @c (multiples of 0.2). */
static D3Vtx d3_vtx(int x, int y, uint32_t c)
{
    D3Vtx v = {
        { (x - FB_W / 2) / (float)(FB_W / 2),
          (y - FB_H / 2) / (float)(FB_H / 2), 0.0f, 1.0f },
    };

    for (unsigned i = 0; i < 4; i++) {
        v.col[i] = ((c >> (8 * i)) & 0xff) / 255.0f;
    }
    return v;
}

/* An RGBA colour of bytes 51 k (exact in unorm8) from @i, as BGRA8 */
static uint32_t d3_colour(uint32_t i, uint32_t *bgra)
{
    uint32_t r = 51 * (i % 6), g = 51 * (i / 6 % 6), b = 51 * (i / 36 % 6);

    *bgra = b | g << 8 | r << 16 | 0xffu << 24;
    return r | g << 8 | b << 16 | 0xffu << 24;
}

static void d3_draw(Eng *e, unsigned prim, unsigned first, unsigned count)
{
    mthd1(e, SUBC_3D, D3_VERTEX_BEGIN_GL, prim);
    mthd(e, SUBC_3D, D3_VERTEX_BUFFER_FIRST, (const uint32_t[]){
             first, count }, 2);
    mthd1(e, SUBC_3D, D3_VERTEX_END_GL, 0);
}

static void d3_finish(Eng *e, const uint32_t *model, double work,
                      double secs, const char *unit)
{
    g_autofree uint32_t *fb = g_new(uint32_t, FB_W * FB_H);

    if (!eng_ok(e)) {
        eng_fini(e);
        return;
    }
    mem_read(e, D3_RT_VA, fb, FB_PITCH * FB_H);
    for (uint32_t i = 0; i < FB_W * FB_H; i++) {
        if (fb[i] != model[i]) {
            bench_fail(e->name, "pixel (%u, %u) is 0x%08x, expected 0x%08x",
                       i % FB_W, i / FB_W, fb[i], model[i]);
            eng_fini(e);
            return;
        }
    }
    bench_report(e->name, work / secs, unit);
    eng_fini(e);
}

/* Large quads with corners on pixel corners: [x0, x1) x [y0, y1). */
static void bench_3d_fill(void)
{
    const char *name = "g84-fill";
    unsigned nquads = MAX(2u, (unsigned)(16 * bench_scale));
    g_autofree uint32_t *model = g_new0(uint32_t, FB_W * FB_H);
    g_autofree D3Vtx *v = g_new(D3Vtx, nquads * 4);
    double pixels = 0, t0, secs;
    Eng e;

    for (unsigned q = 0; q < nquads; q++) {
        int x0 = (q * 37) % 200, y0 = (q * 53) % 150;
        int x1 = FB_W - (q * 29) % 180, y1 = FB_H - (q * 41) % 120;
        uint32_t bgra, c = d3_colour(q * 7 + 3, &bgra);

        /* GL_QUADS: the 4th vertex provokes the flat colour */
        v[q * 4 + 0] = d3_vtx(x0, y0, 0);
        v[q * 4 + 1] = d3_vtx(x1, y0, 0);
        v[q * 4 + 2] = d3_vtx(x1, y1, 0);
        v[q * 4 + 3] = d3_vtx(x0, y1, c);
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                model[y * FB_W + x] = bgra;
            }
        }
        pixels += (double)(x1 - x0) * (y1 - y0);
    }
    if (!d3_init(&e, name, nquads * 4)) {
        eng_fini(&e);
        return;
    }
    mem_write(&e, D3_VB_VA, v, nquads * 4 * sizeof(D3Vtx));

    t0 = bench_now();
    for (unsigned q = 0; q < nquads; q++) {
        d3_draw(&e, 7 /* QUADS */, q * 4, 4);
        eng_submit(&e);
    }
    secs = bench_now() - t0;
    d3_finish(&e, model, pixels / 1e6, secs, "Mpixel/s");
}

/*
 * Small triangles, one a 4x4 cell: (0, 0), (4, 0), (0, 4) of the cell,
 * whose pixel centres inside by the top-left rule are i + j <= 2 (the
 * hypotenuse's centres, i + j = 3, lie on a right edge): 6 pixels.
 * @ntris of them (at most the grid's) drawn @per_draw a draw, 64 draws
 * a kick; reported as triangles (@unit) a second.
 */
static void bench_tri_grid(const char *name, unsigned ntris,
                           unsigned per_draw, const char *unit)
{
    unsigned cells = (FB_W / 4) * (FB_H / 4), draws = 0;
    g_autofree uint32_t *model = g_new0(uint32_t, FB_W * FB_H);
    g_autofree D3Vtx *v = NULL;
    double t0, secs;
    Eng e;

    ntris = MIN(ntris, cells);
    v = g_new(D3Vtx, ntris * 3);
    for (unsigned t = 0; t < ntris; t++) {
        int cx = t % (FB_W / 4) * 4, cy = t / (FB_W / 4) * 4;
        uint32_t bgra, c = d3_colour(t, &bgra);

        v[t * 3 + 0] = d3_vtx(cx, cy, 0);
        v[t * 3 + 1] = d3_vtx(cx + 4, cy, 0);
        v[t * 3 + 2] = d3_vtx(cx, cy + 4, c);
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i + j <= 2; i++) {
                model[(cy + j) * FB_W + cx + i] = bgra;
            }
        }
    }
    if (!d3_init(&e, name, ntris * 3)) {
        eng_fini(&e);
        return;
    }
    mem_write(&e, D3_VB_VA, v, ntris * 3 * sizeof(D3Vtx));

    t0 = bench_now();
    for (unsigned t = 0; t < ntris; t += per_draw) {
        d3_draw(&e, 4 /* TRIANGLES */, t * 3, MIN(per_draw, ntris - t) * 3);
        if (++draws % 64 == 0) {
            eng_submit(&e);
        }
    }
    eng_submit(&e);
    secs = bench_now() - t0;
    d3_finish(&e, model, ntris, secs, unit);
}

static void bench_3d_tri(void)
{
    unsigned cells = (FB_W / 4) * (FB_H / 4);

    bench_tri_grid("g84-tri", MAX(64u, (unsigned)(cells * bench_scale)),
                   4096, "triangles/s");
}

/* One draw per triangle of g84-tri's grid (its first rows). */
static void bench_3d_draws(void)
{
    bench_tri_grid("g84-draws", MAX(16u, (unsigned)(2000 * bench_scale)), 1,
                   "draws/s");
}

/* --- g84-cube ------------------------------------------------------------ */

#define CUBE_CLEAR      0xff808080u     /* kmscube's grey (0.5), as BGRA8 */

typedef struct CubeMat {
    float m[3][3];
} CubeMat;

/* kmscube's turn at frame @i: about x, then y, then z (degrees) */
static CubeMat cube_rotation(unsigned i)
{
    float a[3] = { 45.0f + 0.25f * i, 45.0f - 0.5f * i, 10.0f + 0.15f * i };
    CubeMat r = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

    for (unsigned k = 0; k < 3; k++) {
        float c = cosf(a[k] * (float)M_PI / 180.0f);
        float s = sinf(a[k] * (float)M_PI / 180.0f);
        unsigned p = (k + 1) % 3, q = (k + 2) % 3;
        CubeMat t = r;

        /* r = rot_k * r */
        for (unsigned j = 0; j < 3; j++) {
            t.m[p][j] = c * r.m[p][j] - s * r.m[q][j];
            t.m[q][j] = s * r.m[p][j] + c * r.m[q][j];
        }
        r = t;
    }
    return r;
}

static void cube_apply(const CubeMat *r, const float in[3], float out[3])
{
    for (unsigned i = 0; i < 3; i++) {
        out[i] = r->m[i][0] * in[0] + r->m[i][1] * in[1] + r->m[i][2] * in[2];
    }
}

/*
 * The front-facing triangles of frame @f (at most 6 of the 12), to @v;
 * returns how many vertices.  The cube is [-1, 1]^3, 5 units away,
 * projected to cover most of a 4:3 target; a vertex's colour is its
 * object position as RGB lit by the face's normal (ambient 0.3).
 */
static unsigned cube_frame(unsigned f, D3Vtx *v)
{
    CubeMat r = cube_rotation(f);
    unsigned n = 0;

    for (unsigned face = 0; face < 6; face++) {
        unsigned a = face / 2, u = (a + 1) % 3, w = (a + 2) % 3;
        float s = face % 2 ? -1.0f : 1.0f;
        float nrm[3] = { 0 }, en[3], corner[4][3];
        float light;
        D3Vtx q[4];

        nrm[a] = s;
        if (s < 0) {
            unsigned t = u;

            u = w;
            w = t;
        }
        cube_apply(&r, nrm, en);
        light = 0.3f + 0.7f * MAX(en[2], 0.0f);
        for (unsigned k = 0; k < 4; k++) {
            float ob[3], eye[3], cw;

            ob[a] = s;
            ob[u] = k == 1 || k == 2 ? 1.0f : -1.0f;
            ob[w] = k >= 2 ? 1.0f : -1.0f;
            cube_apply(&r, ob, eye);
            eye[2] -= 5.0f;
            cw = -eye[2];
            q[k] = (D3Vtx) {
                { 2.4f * eye[0], 3.2f * eye[1], (cw - 5.0f) / 3.0f * cw, cw },
                { (ob[0] + 1) / 2 * light, (ob[1] + 1) / 2 * light,
                  (ob[2] + 1) / 2 * light, 1.0f },
            };
            memcpy(corner[k], q[k].pos, sizeof(corner[k]));
            corner[k][0] /= cw;
            corner[k][1] /= cw;
        }
        /* GL_CULL_FACE with CCW fronts: the winding in NDC */
        if ((corner[1][0] - corner[0][0]) * (corner[2][1] - corner[0][1]) -
            (corner[2][0] - corner[0][0]) * (corner[1][1] - corner[0][1]) <=
            0) {
            continue;
        }
        v[n++] = q[0];
        v[n++] = q[1];
        v[n++] = q[2];
        v[n++] = q[0];
        v[n++] = q[2];
        v[n++] = q[3];
    }
    return n;
}

/* The FB_W x FB_H block-linear surface of tile mode D3_TILE_768. */
static NV50Surface d3_bl_surface(void)
{
    return (NV50Surface) {
        .block_linear = true, .width_bytes = FB_PITCH, .height = FB_H,
        .depth = 1, .block_h = (D3_TILE_768 >> 4) & 0xf,
    };
}

/* The RT's pixels, rows of FB_W, from its pitch or block-linear layout. */
static void d3_read_rt(Eng *e, bool bl, uint32_t *fb)
{
    NV50Surface sf = d3_bl_surface();
    g_autofree uint8_t *raw = NULL;

    if (!bl) {
        mem_read(e, D3_RT_VA, fb, FB_PITCH * FB_H);
        return;
    }
    raw = g_malloc(nv50_surface_size(&sf));
    mem_read(e, D3_RT_VA, raw, nv50_surface_size(&sf));
    for (uint32_t y = 0; y < FB_H; y++) {
        for (uint32_t x = 0; x < FB_PITCH; x += NV50_GOB_WIDTH) {
            memcpy((uint8_t *)fb + y * FB_PITCH + x,
                   raw + nv50_surface_offset(&sf, x, y, 0), NV50_GOB_WIDTH);
        }
    }
}

/*
 * The RT as Mesa's nv50_validate_fb sends kmscube's GBM surface: BGRX8
 * (XRGB8888), block-linear of tile mode D3_TILE_768; and with @zeta a
 * Z24_S8 zeta of the same size and tile mode (else none).
 */
static void d3_rt_bl(Eng *e, bool zeta)
{
    mthd(e, SUBC_3D, D3_RT_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)(D3_RT_VA >> 32), (uint32_t)D3_RT_VA, D3_FMT_BGRX8,
             D3_TILE_768, 0 }, 5);
    mthd(e, SUBC_3D, D3_RT_HORIZ, (const uint32_t[]){ FB_W, FB_H }, 2);
    mthd1(e, SUBC_3D, D3_ZETA_ENABLE, zeta);
    if (zeta) {
        mthd(e, SUBC_3D, D3_ZETA_ADDRESS_HIGH, (const uint32_t[]){
                 (uint32_t)(D3_ZETA_VA >> 32), (uint32_t)D3_ZETA_VA,
                 D3_ZFMT_Z24_S8, D3_TILE_768, 0 }, 5);
        mthd(e, SUBC_3D, D3_ZETA_HORIZ, (const uint32_t[]){ FB_W, FB_H },
             2);
    }
}

static bool cube_check(Eng *e, const char *name, bool bl)
{
    g_autofree uint32_t *fb = g_new(uint32_t, FB_W * FB_H);
    g_autoptr(GHashTable) colours = g_hash_table_new(NULL, NULL);
    const uint32_t corner[4] = {
        0, FB_W - 1, (FB_H - 1) * FB_W, FB_H * FB_W - 1,
    };
    uint32_t mid;

    d3_read_rt(e, bl, fb);
    for (unsigned i = 0; i < 4; i++) {
        if (fb[corner[i]] != CUBE_CLEAR) {
            bench_fail(name, "corner %u is 0x%08x, not the clear colour", i,
                       fb[corner[i]]);
            return false;
        }
    }
    mid = fb[FB_H / 2 * FB_W + FB_W / 2];
    if (mid == CUBE_CLEAR) {
        bench_fail(name, "no cube in the middle");
        return false;
    }
    /* enough colours is enough: the count stops at 1000 (it ran over
       every pixel, a cost of the bench's own in its CPU figures) */
    for (uint32_t i = 0; i < FB_W * FB_H &&
         g_hash_table_size(colours) < 1000; i++) {
        g_hash_table_add(colours, GUINT_TO_POINTER(fb[i]));
    }
    if (g_hash_table_size(colours) < 1000) {
        bench_fail(name, "%u colours: no smooth shading?",
                   g_hash_table_size(colours));
        return false;
    }
    return true;
}

/*
 * kmscube's frames, a clear and the cube each, into the pitch RT or
 * (@bl) the block-linear one; reported as @name and @name-frame.
 */
static void bench_3d_cube(const char *name, bool bl)
{
    g_autofree char *per_frame = g_strdup_printf("%s-frame", name);
    unsigned frames = MAX(3u, (unsigned)(60 * bench_scale));
    g_autofree D3Vtx *v = g_new(D3Vtx, frames * 36);
    g_autofree unsigned *count = g_new(unsigned, frames);
    double t0, secs;
    Eng e;

    for (unsigned f = 0; f < frames; f++) {
        count[f] = cube_frame(f, v + f * 36);
    }
    if (!d3_init(&e, name, frames * 36)) {
        eng_fini(&e);
        return;
    }
    mem_write(&e, D3_VB_VA, v, frames * 36 * sizeof(D3Vtx));
    if (bl) {
        d3_rt_bl(&e, false);
    }
    mthd1(&e, SUBC_3D, D3_SHADE_MODEL, 0x1d01);         /* SMOOTH */
    mthd(&e, SUBC_3D, D3_CLEAR_COLOR, (const uint32_t[]){
             0x3f000000, 0x3f000000, 0x3f000000, 0x3f800000 }, 4);
    eng_submit(&e);

    t0 = bench_now();
    for (unsigned f = 0; f < frames; f++) {
        mthd1(&e, SUBC_3D, D3_CLEAR_BUFFERS, 0x3c);
        d3_draw(&e, 4 /* TRIANGLES */, f * 36, count[f]);
        eng_submit(&e);
    }
    secs = bench_now() - t0;
    if (eng_ok(&e) && cube_check(&e, name, bl)) {
        bench_report(name, frames / secs, "frames/s");
        bench_report(per_frame, secs * 1e3 / frames, "ms/frame");
    }
    eng_fini(&e);
}

/* Every byte of @len at @va is the 4-byte word @w (little-endian). */
static bool clear_check(Eng *e, const char *name, const char *what,
                        uint64_t va, uint64_t len, uint32_t w)
{
    g_autofree uint32_t *m = g_new(uint32_t, len / 4);

    mem_read(e, va, m, len);
    for (uint64_t i = 0; i < len / 4; i++) {
        if (GUINT32_FROM_LE(m[i]) != w) {
            bench_fail(name, "%s word %" PRIu64 " is 0x%08x, not 0x%08x",
                       what, i, GUINT32_FROM_LE(m[i]), w);
            return false;
        }
    }
    return true;
}

/* glClear of colour, depth and stencil of the block-linear RT and zeta. */
static void bench_3d_clear_bl(void)
{
    const char *name = "g84-clear-bl";
    unsigned clears = MAX(2u, (unsigned)(200 * bench_scale)), c = 0;
    NV50Surface sf = d3_bl_surface();
    double t0, secs;
    Eng e;

    if (!d3_init(&e, name, 3)) {
        eng_fini(&e);
        return;
    }
    d3_rt_bl(&e, true);
    eng_submit(&e);

    t0 = bench_now();
    for (c = 0; c < clears; c++) {
        /* a grey, depth and stencil of the clear's number */
        float grey = (c % 256) / 255.0f, depth = (c % 16) / 16.0f;
        uint32_t gw, dw;

        memcpy(&gw, &grey, 4);
        memcpy(&dw, &depth, 4);
        mthd(&e, SUBC_3D, D3_CLEAR_COLOR, (const uint32_t[]){
                 gw, gw, gw, 0x3f800000 }, 4);
        mthd1(&e, SUBC_3D, D3_CLEAR_DEPTH, dw);
        mthd1(&e, SUBC_3D, D3_CLEAR_STENCIL, c & 0xff);
        mthd1(&e, SUBC_3D, D3_CLEAR_BUFFERS, 0x3f);
        if (c % 8 == 7) {
            eng_submit(&e);
        }
    }
    eng_submit(&e);
    secs = bench_now() - t0;
    c = clears - 1;
    /* BGRX8 with X written as 1s; Z24_S8: depth * (2^24 - 1), exact */
    if (eng_ok(&e) &&
        clear_check(&e, name, "RT", D3_RT_VA, nv50_surface_size(&sf),
                    0xffu << 24 | (c % 256) * 0x010101u) &&
        clear_check(&e, name, "zeta", D3_ZETA_VA, nv50_surface_size(&sf),
                    (c & 0xff) << 24 | (c % 16) * 0x100000u)) {
        bench_report(name, clears / secs, "clears/s");
    }
    eng_fini(&e);
}

/* --- g84-lines ----------------------------------------------------------- */

#define LOOP_VERTS      10000
#define LOOP_RADIUS     200             /* pixels */
#define LOOP_COLOUR     0xffff00ffu     /* magenta, as BGRA8 */

static bool loop_check(Eng *e, const char *name)
{
    g_autofree uint32_t *fb = g_new(uint32_t, FB_W * FB_H);
    const int cx = FB_W / 2, cy = FB_H / 2, r = LOOP_RADIUS;
    /* where the circle crosses its axes (a pixel either side) */
    const int on[4][2] = {
        { cx + r, cy }, { cx - r, cy }, { cx, cy + r }, { cx, cy - r },
    };

    mem_read(e, D3_RT_VA, fb, FB_PITCH * FB_H);
    for (unsigned i = 0; i < 4; i++) {
        int x = on[i][0], y = on[i][1];
        bool hit = false;

        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                hit |= fb[(y + dy) * FB_W + x + dx] == LOOP_COLOUR;
            }
        }
        if (!hit) {
            bench_fail(name, "no line near (%d, %d)", x, y);
            return false;
        }
    }
    /* piglit's probe: the square inside the circle stays clear */
    for (int y = cy - r * 7 / 10; y < cy + r * 7 / 10; y++) {
        for (int x = cx - r * 7 / 10; x < cx + r * 7 / 10; x++) {
            if (fb[y * FB_W + x]) {
                bench_fail(name, "pixel (%d, %d) inside the loop is 0x%08x",
                           x, y, fb[y * FB_W + x]);
                return false;
            }
        }
    }
    return true;
}

static void bench_3d_lines(void)
{
    const char *name = "g84-lines";
    unsigned loops = MAX(1u, (unsigned)(20 * bench_scale));
    g_autofree D3Vtx *v = g_new(D3Vtx, LOOP_VERTS);
    double t0, secs;
    Eng e;

    for (unsigned i = 0; i < LOOP_VERTS; i++) {
        double a = i * 2 * M_PI / LOOP_VERTS;

        v[i] = (D3Vtx) {
            { (float)(sin(a) * LOOP_RADIUS / (FB_W / 2)),
              (float)(cos(a) * LOOP_RADIUS / (FB_H / 2)), 0.0f, 1.0f },
            { 1.0f, 0.0f, 1.0f, 1.0f },
        };
    }
    if (!d3_init(&e, name, LOOP_VERTS)) {
        eng_fini(&e);
        return;
    }
    mem_write(&e, D3_VB_VA, v, LOOP_VERTS * sizeof(D3Vtx));

    t0 = bench_now();
    for (unsigned i = 0; i < loops; i++) {
        d3_draw(&e, 2 /* LINE_LOOP */, 0, LOOP_VERTS);
        eng_submit(&e);
    }
    secs = bench_now() - t0;
    if (eng_ok(&e) && loop_check(&e, name)) {
        bench_report(name, (double)loops * LOOP_VERTS / secs, "lines/s");
    }
    eng_fini(&e);
}

/* --- g84-mesh ------------------------------------------------------------ */

#define MESH_N          256             /* cells a side */
#define MESH_CW         (FB_W / MESH_N) /* 4 pixels */
#define MESH_CH         (FB_H / MESH_N) /* 3 pixels */
#define MESH_VTX(i, j)  ((j) * (MESH_N + 1) + (i))

/*
 * Cell (ci, cj)'s six grid vertices: triangle A (v00, v10, v01) and B
 * (v01, v10, v11), the last vertex provoking the flat colour.  The
 * diagonal from (4, 0) to (0, 3) of a cell passes no pixel centre
 * (3i + 4j = 8.5 there), so A holds the centres 3i + 4j <= 8.
 */
static void mesh_cell(unsigned ci, unsigned cj, uint32_t out[6])
{
    uint32_t v00 = MESH_VTX(ci, cj), v10 = MESH_VTX(ci + 1, cj);
    uint32_t v01 = MESH_VTX(ci, cj + 1), v11 = MESH_VTX(ci + 1, cj + 1);

    out[0] = v00;
    out[1] = v10;
    out[2] = v01;
    out[3] = v01;
    out[4] = v10;
    out[5] = v11;
}

static void mesh_model(uint32_t *model)
{
    for (unsigned y = 0; y < FB_H; y++) {
        for (unsigned x = 0; x < FB_W; x++) {
            unsigned ci = x / MESH_CW, cj = y / MESH_CH;
            unsigned i = x % MESH_CW, j = y % MESH_CH;
            uint32_t bgra;

            d3_colour(3 * i + 4 * j <= 8 ? MESH_VTX(ci, cj + 1)
                                         : MESH_VTX(ci + 1, cj + 1), &bgra);
            model[y * FB_W + x] = bgra;
        }
    }
}

/*
 * g84-mesh-mvp's VP: Mesa's form of a matrix transform (nv50 codegen
 * folds a uniform into its mul: c0[] operands; a[] loads; its exports
 * are st b32 o[]),
 * the identity matrix in c0 (a buffer bound to the VP as SET_PROGRAM_CB
 * does), the colour passed on.
 */
static bool mesh_mvp(Eng *e)
{
    g_autoptr(GString) src = g_string_new(NULL);
    float m[16] = { 0 };

    for (unsigned i = 0; i < 4; i++) {
        g_string_append_printf(src, "ld b32 $r%u a[0x%x]\n", i, i * 4);
        m[i * 5] = 1.0f;
    }
    for (unsigned r = 0; r < 4; r++) {
        g_string_append_printf(src, "mul f32 $r%u $r0 c0[0x%x]\n", 4 + r,
                               r * 4);
        for (unsigned c = 1; c < 4; c++) {
            g_string_append_printf(src, "mul f32 $r8 $r%u c0[0x%x]\n"
                                   "add f32 $r%u $r%u $r8\n", c,
                                   (c * 4 + r) * 4, 4 + r, 4 + r);
        }
    }
    /* (an even number of short instructions before the long ones) */
    for (unsigned r = 0; r < 4; r++) {
        g_string_append_printf(src, "st b32 o[0x%x] $r%u\n", r * 4, 4 + r);
    }
    for (unsigned i = 4; i < 8; i++) {
        g_string_append_printf(src, "ld b32 $r9 a[0x%x]\n"
                               "st b32 o[0x%x] $r9\n", i * 4, i * 4);
    }
    g_string_append(src, "exit nop\n");
    if (!d3_program(e, TESLA_PROG_VP, src->str, D3_CODE_VA)) {
        return false;
    }
    mem_write(e, D3_CB_VA, m, sizeof(m));
    mthd(e, SUBC_3D, D3_CB_DEF_ADDRESS_HIGH, (const uint32_t[]){
             (uint32_t)(D3_CB_VA >> 32), (uint32_t)D3_CB_VA,
             D3_CB_VP << 16 | 0x100 }, 3);
    mthd1(e, SUBC_3D, D3_SET_PROGRAM_CB, D3_CB_VP << 12 | 0 << 8 | 1);
    mthd1(e, SUBC_3D, D3_VP_REG_ALLOC_TEMP, 10);
    eng_submit(e);
    return eng_ok(e);
}

/*
 * The grid as one GL_TRIANGLES draw, by indices or as arrays; @mvp:
 * through mesh_mvp's VP.
 */
static void bench_3d_mesh(const char *name, bool indexed, bool mvp)
{
    const unsigned nidx = MESH_N * MESH_N * 6;
    const unsigned ngrid = (MESH_N + 1) * (MESH_N + 1);
    unsigned draws = MAX(1u, (unsigned)(2 * bench_scale));
    unsigned nverts = indexed ? ngrid : nidx;
    g_autofree uint32_t *model = g_new(uint32_t, FB_W * FB_H);
    g_autofree uint32_t *idx = g_new(uint32_t, nidx);
    g_autofree D3Vtx *v = g_new(D3Vtx, nverts);
    double t0, secs;
    Eng e;

    for (unsigned c = 0; c < MESH_N * MESH_N; c++) {
        mesh_cell(c % MESH_N, c / MESH_N, idx + 6 * c);
    }
    for (unsigned k = 0; k < nverts; k++) {
        uint32_t g = indexed ? k : idx[k], bgra;

        v[k] = d3_vtx(g % (MESH_N + 1) * MESH_CW, g / (MESH_N + 1) * MESH_CH,
                      d3_colour(g, &bgra));
    }
    mesh_model(model);
    if (!d3_init(&e, name, nverts) || (mvp && !mesh_mvp(&e))) {
        eng_fini(&e);
        return;
    }
    mem_write(&e, D3_VB_VA, v, nverts * sizeof(D3Vtx));

    t0 = bench_now();
    for (unsigned d = 0; d < draws; d++) {
        if (!indexed) {
            d3_draw(&e, 4 /* TRIANGLES */, 0, nidx);
            eng_submit(&e);
            continue;
        }
        mthd1(&e, SUBC_3D, D3_VERTEX_BEGIN_GL, 4 /* TRIANGLES */);
        for (unsigned k = 0; k < nidx; k += 2047) {
            mthd_ni(&e, SUBC_3D, D3_VB_ELEMENT_U32, idx + k,
                    MIN(2047u, nidx - k));
        }
        mthd1(&e, SUBC_3D, D3_VERTEX_END_GL, 0);
        eng_submit(&e);
    }
    secs = bench_now() - t0;
    d3_finish(&e, model, (double)draws * nidx / 3, secs, "triangles/s");
}

void bench_g84_3d(const char *filter)
{
    if (eng_wanted(filter, "g84-fill")) {
        bench_3d_fill();
    }
    if (eng_wanted(filter, "g84-tri")) {
        bench_3d_tri();
    }
    if (eng_wanted(filter, "g84-draws")) {
        bench_3d_draws();
    }
    if (eng_wanted(filter, "g84-cube")) {
        bench_3d_cube("g84-cube", false);
    }
    if (eng_wanted(filter, "g84-cube-bl")) {
        bench_3d_cube("g84-cube-bl", true);
    }
    if (eng_wanted(filter, "g84-clear-bl")) {
        bench_3d_clear_bl();
    }
    if (eng_wanted(filter, "g84-lines")) {
        bench_3d_lines();
    }
    if (eng_wanted(filter, "g84-mesh-idx")) {
        bench_3d_mesh("g84-mesh-idx", true, false);
    }
    if (eng_wanted(filter, "g84-mesh-arrays")) {
        bench_3d_mesh("g84-mesh-arrays", false, false);
    }
    if (eng_wanted(filter, "g84-mesh-mvp")) {
        bench_3d_mesh("g84-mesh-mvp", false, true);
    }
}
