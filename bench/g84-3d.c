/*
 * make bench: the G84's 3D pipeline through an in-process channel
 * (g84-eng.h): vertex fetch, VP, clip, raster, FP on the emulated MPs
 * (and host threads: GEMU_FP_THREADS), ROP, into a 1024x768 BGRA8 pitch
 * render target.  The time is taken around the pushing and the kicks,
 * never around the set-up; results are checked afterwards.  The state
 * every 3D benchmark starts from and the small ones (g84-cube.c has
 * kmscube's, g84-mesh.c glmark2 terrain's):
 *
 *   g84-fill   Mpixel/s of large flat-shaded quads (GL_QUADS), every
 *              pixel checked against a model
 *   g84-tri    triangles/s of small triangles (6 pixels each, a 4x4
 *              grid cell apiece), every pixel checked
 *   g84-draws  draws/s of one small triangle each (the per-draw cost:
 *              the VP's code and c[], the FP program check, the ROP's
 *              set-up and write-back); checked as g84-tri
 *   g84-lines  lines/s of piglit's lineloop: a GL_LINE_LOOP of 10000
 *              vertices on a circle 400 pixels across, each line an
 *              eighth of a pixel long (the per-primitive cost: vertex
 *              fetch, VP, clip, line set-up); checked: the circle's
 *              pixels on its axes drawn, its inside untouched
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "g84-3d.h"

bool d3_program(Eng *e, TeslaProgType t, const char *src,
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
bool d3_init(Eng *e, const char *name, unsigned nverts)
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
D3Vtx d3_vtx(int x, int y, uint32_t c)
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
uint32_t d3_colour(uint32_t i, uint32_t *bgra)
{
    uint32_t r = 51 * (i % 6), g = 51 * (i / 6 % 6), b = 51 * (i / 36 % 6);

    *bgra = b | g << 8 | r << 16 | 0xffu << 24;
    return r | g << 8 | b << 16 | 0xffu << 24;
}

void d3_draw(Eng *e, unsigned prim, unsigned first, unsigned count)
{
    mthd1(e, SUBC_3D, D3_VERTEX_BEGIN_GL, prim);
    mthd(e, SUBC_3D, D3_VERTEX_BUFFER_FIRST, (const uint32_t[]){
             first, count }, 2);
    mthd1(e, SUBC_3D, D3_VERTEX_END_GL, 0);
}

void d3_finish(Eng *e, const uint32_t *model, double work,
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

void bench_g84_3d(void)
{
    if (bench_wanted("g84-fill")) {
        bench_3d_fill();
    }
    if (bench_wanted("g84-tri")) {
        bench_3d_tri();
    }
    if (bench_wanted("g84-draws")) {
        bench_3d_draws();
    }
    bench_g84_cube();
    if (bench_wanted("g84-lines")) {
        bench_3d_lines();
    }
    bench_g84_mesh();
}
