/*
 * make bench: kmscube's frames on the G84's 3D pipeline (g84-3d.h's
 * channel and state):
 *
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
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include "g84-3d.h"
#include "hw/nv50/surface.h"

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

void bench_g84_cube(void)
{
    if (bench_wanted("g84-cube")) {
        bench_3d_cube("g84-cube", false);
    }
    if (bench_wanted("g84-cube-bl")) {
        bench_3d_cube("g84-cube-bl", true);
    }
    if (bench_wanted("g84-clear-bl")) {
        bench_3d_clear_bl();
    }
}
