/*
 * make bench: glmark2 terrain's shape on the G84's 3D pipeline (g84-3d.h's
 * channel and state), triangles/s of a 256x256 grid of 4x3-pixel cells,
 * two triangles each, in one draw of 393216 vertices (the per-vertex and
 * per-triangle cost: fetch, the vertex cache, VP, assembly, clip,
 * triangle set-up); every pixel checked:
 *
 *   g84-mesh-idx     indexed (VB_ELEMENT_U32, each vertex shared by up
 *                    to six triangles)
 *   g84-mesh-arrays  six vertices a cell, as terrain's glDrawArrays
 *   g84-mesh-mvp     those through a VP of Mesa's matrix form (c0[]
 *                    operands: the identity; st o[] exports)
 *
 * SPDX-License-Identifier: MIT
 */
#include "g84-3d.h"

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

void bench_g84_mesh(void)
{
    if (bench_wanted("g84-mesh-idx")) {
        bench_3d_mesh("g84-mesh-idx", true, false);
    }
    if (bench_wanted("g84-mesh-arrays")) {
        bench_3d_mesh("g84-mesh-arrays", false, false);
    }
    if (bench_wanted("g84-mesh-mvp")) {
        bench_3d_mesh("g84-mesh-mvp", false, true);
    }
}
