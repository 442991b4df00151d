/*
 * Anisotropic filtering in the texture unit (hw/nv50/gr/texture.c)
 * against a plain C reference: a mipmapped 64x64 R32F texture on a
 * ground plane seen at a grazing angle (u across the screen, v growing
 * as 1 / y towards the horizon), 32x32 pixels sampled a quad at a time
 * through nv50_tex_sample() as the FP does, with the TSC's
 * MAX_ANISOTROPY as Mesa's nv50_sampler_state_create writes it.
 *
 * The reference is the textbook filter gemu models (UNVERIFIED against
 * hardware): footprint axes from the quad's x and y derivatives, ratio
 * min(major / minor, max), LOD log2(major / ratio), ceil(ratio)
 * trilinear probes at the centres of equal parts of the major axis.
 * At 1:1 it is plain trilinear from the major axis; at 16:1 it keeps
 * the detail plain trilinear blurs away near the horizon.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-tex-rig.h"
#include "hw/nv50/gr/texture.h"
#include "hw/nv50/gr/tpc.h"
#include "target/tesla.h"
#include <math.h>

#define TIC_VA      (GR_VA_DATA)
#define TSC_VA      (GR_VA_DATA + 0x10000)
#define TEX_VA      (GR_VA_DATA + 0x100000)

#define TEX_SIZE    64
#define TEX_LEVELS  7               /* 64 .. 1 */
#define SCREEN      32

/* the texture's levels, as the reference reads them */
static float lvl[TEX_LEVELS][TEX_SIZE * TEX_SIZE];

static void setup(void)
{
    tex_rig_init(TIC_VA, TSC_VA);
    /* TIC 0 on $t0, TSC 0 on $s0 of the FP */
    nv50_gr_bind_tic(&call, NV50_GR_PROG_FP, 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_FP, 1);
}

static uint32_t fb(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/*
 * The TIC as Mesa's G84 path writes a block-linear 2D R32_FLOAT texture
 * (one GOB a block), all levels; @hdr_aniso >= 0: USE_HEADER_OPT_CONTROL
 * with that MAX_ANISOTROPY field.  Level 0 random, each next level the
 * 2x2 mean of the one before, written where the TIC's layout puts it.
 */
static void texture(int hdr_aniso)
{
    const unsigned last = TEX_LEVELS - 1;
    uint32_t w[8] = {
        0x0f | 7u << 6 | 7u << 9 | 7u << 12 | 7u << 15 | 2u << 18 |
        7u << 27,                               /* R32 FLOAT: R 0 0 1 */
        (uint32_t)TEX_VA,
        0x10001000u | 0x40000000u | 0x80000000u | NV50_TEX_2D << 14 |
        (uint32_t)(TEX_VA >> 32),
        0x00300000, 0x80000000u | TEX_SIZE,
        TEX_SIZE | 1u << 16 | last << 28, 0x03000000, last << 4,
    };
    NV50TexView v;

    if (hdr_aniso >= 0) {
        w[3] |= NV50_TIC_3_USE_HEADER_OPT_CONTROL;
        w[6] |= (uint32_t)hdr_aniso << NV50_TIC_6_MAX_ANISOTROPY_SHIFT;
    }
    tex_rig_entry(TIC_VA, w);
    ck_assert(nv50_tic_decode(w, &v));
    ck_assert_uint_eq(v.max_level, last);
    srand(10);
    for (unsigned l = 0; l < TEX_LEVELS; l++) {
        unsigned n = TEX_SIZE >> l;

        for (unsigned y = 0; y < n; y++) {
            for (unsigned x = 0; x < n; x++) {
                float *t = &lvl[l][y * n + x];
                const float *p = lvl[l ? l - 1 : 0];
                uint64_t off;
                uint32_t bits;

                *t = l == 0 ? (float)(rand() % 256) / 255.0f
                     : (p[2 * y * 2 * n + 2 * x] +
                        p[2 * y * 2 * n + 2 * x + 1] +
                        p[(2 * y + 1) * 2 * n + 2 * x] +
                        p[(2 * y + 1) * 2 * n + 2 * x + 1]) / 4.0f;
                off = v.level_off[l] +
                      nv50_surface_offset(&v.level_sf[l], x * 4, y, 0);
                bits = fb(*t);
                gr_wr32(TEX_VA + off, bits);
            }
        }
    }
}

/* nv50_sampler_state_create: repeat, linear, mip linear, @aniso field */
static void sampler(unsigned aniso)
{
    uint32_t w[8] = {
        0x00026000 | aniso << NV50_TSC_0_MAX_ANISOTROPY_SHIFT,
        NV50_FILTER_LINEAR | NV50_FILTER_LINEAR << 4 | NV50_MIP_LINEAR << 6,
        15u * 256 << 12, 0, 0, 0, 0, 0,
    };

    tex_rig_entry(TSC_VA, w);
}

/* --- the grazing plane and the reference --- */

/*
 * Pixel (x, y)'s texture coordinates: the ground in perspective, the
 * horizon just above the top row; a row's distance is 1 / ys, so a
 * pixel spans ~1 / ys texels across and ~1 / ys^2 along the view.
 */
static void plane(unsigned x, unsigned y, float c[2])
{
    float ys = 0.05f + ((float)y + 0.5f) / SCREEN;
    float z = 1.0f / ys;

    c[0] = ((float)x + 0.5f - SCREEN / 2) / SCREEN * z * 0.5f;
    c[1] = z * 0.5f;
}

static float texel(unsigned l, int x, int y)
{
    int n = TEX_SIZE >> l;

    x %= n;
    y %= n;
    return lvl[l][(y < 0 ? y + n : y) * n + (x < 0 ? x + n : x)];
}

static float bilinear(unsigned l, float u, float v)
{
    int n = TEX_SIZE >> l;
    float x = u * n - 0.5f, y = v * n - 0.5f;
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float fx = x - floorf(x), fy = y - floorf(y);

    return texel(l, x0, y0) * (1 - fx) * (1 - fy) +
           texel(l, x0 + 1, y0) * fx * (1 - fy) +
           texel(l, x0, y0 + 1) * (1 - fx) * fy +
           texel(l, x0 + 1, y0 + 1) * fx * fy;
}

static float trilinear(float lambda, float u, float v)
{
    float fl;
    unsigned l0;

    lambda = MIN(MAX(lambda, 0.0f), 15.0f);
    fl = floorf(lambda);
    l0 = MIN((unsigned)fl, TEX_LEVELS - 1u);
    if (l0 == TEX_LEVELS - 1 || lambda == fl) {
        return bilinear(l0, u, v);
    }
    return bilinear(l0, u, v) * (1 - (lambda - fl)) +
           bilinear(l0 + 1, u, v) * (lambda - fl);
}

/* the quad UL UR LL LR's filtered value at @c (one of its pixels) */
static float reference(const float q[4][2], const float c[2],
                       unsigned max_ratio)
{
    float dx[2] = { q[1][0] - q[0][0], q[1][1] - q[0][1] };
    float dy[2] = { q[2][0] - q[0][0], q[2][1] - q[0][1] };
    float lx = hypotf(dx[0] * TEX_SIZE, dx[1] * TEX_SIZE);
    float ly = hypotf(dy[0] * TEX_SIZE, dy[1] * TEX_SIZE);
    float major = MAX(lx, ly), minor = MIN(lx, ly), ratio, sum = 0;
    const float *axis = lx >= ly ? dx : dy;
    unsigned n;

    if (max_ratio == 1 || major <= 1.0f) {
        return trilinear(log2f(major), c[0], c[1]);
    }
    ratio = MIN(major / minor, (float)max_ratio);
    n = (unsigned)ceilf(ratio - 1e-4f);
    for (unsigned i = 0; i < n; i++) {
        float o = ((float)i + 0.5f) / n - 0.5f;

        sum += trilinear(log2f(major / ratio), c[0] + axis[0] * o,
                         c[1] + axis[1] * o);
    }
    return sum / n;
}

/*
 * Every pixel of the plane through the texture unit (@got) and the
 * reference at @max_ratio (@want); how many quads had a footprint
 * more anisotropic than 2:1.
 */
static unsigned draw(unsigned max_ratio, float *got, float *want)
{
    TeslaInsn insn;
    unsigned stretched = 0;

    memset(&insn, 0, sizeof(insn));
    insn.op = TOP_TEX;
    insn.tex.kind = TTEX_AUTO;
    for (unsigned qy = 0; qy < SCREEN; qy += 2) {
        for (unsigned qx = 0; qx < SCREEN; qx += 2) {
            uint32_t co[2][TESLA_WARP_SIZE], out[4][TESLA_WARP_SIZE];
            float q[4][2];

            memset(co, 0, sizeof(co));
            for (unsigned l = 0; l < 4; l++) {
                plane(qx + (l & 1), qy + (l >> 1), q[l]);
                co[0][l] = fb(q[l][0]);
                co[1][l] = fb(q[l][1]);
            }
            nv50_tex_sample(&unit, &insn, 0xf, co, 2, out);
            for (unsigned l = 0; l < 4; l++) {
                unsigned p = (qy + (l >> 1)) * SCREEN + qx + (l & 1);

                memcpy(&got[p], &out[0][l], 4);
                want[p] = reference(q, q[l], max_ratio);
            }
            if (fabsf(q[2][1] - q[0][1]) > 2 * fabsf(q[1][0] - q[0][0])) {
                stretched++;
            }
        }
    }
    return stretched;
}

static void check_pixels(const float *got, const float *want)
{
    for (unsigned p = 0; p < SCREEN * SCREEN; p++) {
        ck_assert_msg(fabsf(got[p] - want[p]) < 1e-4f, "pixel (%u, %u): "
                      "%f, reference %f", p % SCREEN, p / SCREEN,
                      (double)got[p], (double)want[p]);
    }
}

/* pixels where two images differ by more than 1/64 */
static unsigned differing(const float *a, const float *b)
{
    unsigned n = 0;

    for (unsigned p = 0; p < SCREEN * SCREEN; p++) {
        n += fabsf(a[p] - b[p]) > 1.0f / 64;
    }
    return n;
}

/* the variance of an image's far half (rows 0 .. SCREEN / 2 - 1): the
   texture's contrast a filter kept where the plane is stretched */
static float far_variance(const float *a)
{
    const unsigned n = SCREEN * SCREEN / 2;
    double s = 0, s2 = 0;

    for (unsigned p = 0; p < n; p++) {
        s += a[p];
        s2 += (double)a[p] * a[p];
    }
    s /= n;
    return (float)(s2 / n - s * s);
}

static float got1[SCREEN * SCREEN], want1[SCREEN * SCREEN];
static float got16[SCREEN * SCREEN], want16[SCREEN * SCREEN];
static float got[SCREEN * SCREEN], want[SCREEN * SCREEN];

START_TEST(test_aniso_grazing)
{
    unsigned stretched;

    texture(-1);
    sampler(0);                         /* 1:1 */
    stretched = draw(1, got1, want1);
    check_pixels(got1, want1);
    /* the far part of the plane is stretched more than 2:1 */
    ck_assert_uint_gt(stretched, SCREEN * SCREEN / 4 / 3);
    sampler(7);                         /* 16:1 */
    draw(16, got16, want16);
    check_pixels(got16, want16);
    /* the reference says 16:1 differs from 1:1 over most of the plane and
       keeps more of the texture's contrast there */
    ck_assert_uint_gt(differing(want1, want16), SCREEN * SCREEN / 3);
    ck_assert_uint_gt(differing(got1, got16), SCREEN * SCREEN / 3);
    ck_assert_float_gt(far_variance(got16), 2 * far_variance(got1));
    /* 4:1 (Mesa: max_anisotropy 4): the ratio clamped, LOD from it */
    sampler(2);
    draw(4, got, want);
    check_pixels(got, want);
    ck_assert_uint_gt(differing(got, got16), 0);
    ck_assert_uint_gt(differing(got, got1), 0);
}
END_TEST

/* USE_HEADER_OPT_CONTROL: the TIC's MAX_ANISOTROPY wins over the TSC's */
START_TEST(test_aniso_header)
{
    texture(0);                         /* header 1:1 */
    sampler(7);
    draw(1, got, want);
    check_pixels(got, want);
    texture(7);                         /* header 16:1 */
    sampler(0);
    draw(16, got, want);
    check_pixels(got, want);
}
END_TEST

Suite *nv50_aniso_suite(void)
{
    Suite *su = suite_create("nv50_aniso");
    TCase *tc = tcase_create("aniso");

    tcase_add_checked_fixture(tc, setup, gr_rig_teardown);
    tcase_add_test(tc, test_aniso_grazing);
    tcase_add_test(tc, test_aniso_header);
    suite_add_tcase(su, tc);
    return su;
}
