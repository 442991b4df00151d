/*
 * The texture unit's filtering against plain C references: bilinear
 * weights, every wrap mode and the border colour, mip level selection
 * from an explicit LOD, the TSC's bias and clamps and the view's first
 * level, LOD from a quad's derivatives, shadow compare (before the
 * filter: PCF).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-texture-rig.h"

/* --- filtering and wrapping --- */

START_TEST(test_tex_bilinear)
{
    static const float v[4] = { 0, 1, 2, 3 };   /* x + 2y */

    r32f_pitch(2, 2, v);
    tsc_simple(W_EDGE, F_LINEAR);
    /* plain C reference: bilinear weights of (u, v) in texels */
    for (float u = 0.25f; u <= 0.75f; u += 0.125f) {
        for (float t = 0.25f; t <= 0.75f; t += 0.125f) {
            float fx = u * 2 - 0.5f, fy = t * 2 - 0.5f;

            CK_F(sample2(u, t), fx + 2 * fy);
        }
    }
    /* nearest */
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(0.74f, 0.26f), 1);
    CK_F(sample2(0.24f, 0.76f), 2);
}
END_TEST

START_TEST(test_tex_wrap)
{
    static const float v[4] = { 10, 11, 12, 13 };
    static const float border[4] = { 7, 6, 5, 4 };
    uint32_t o[4];
    float s[2] = { -0.125f, 0.5f };

    r32f_pitch(4, 1, v);
    tsc_simple(W_REPEAT, F_NEAREST);
    CK_F(sample2(-0.125f, 0.5f), 13);
    CK_F(sample2(1.125f, 0.5f), 10);
    CK_F(sample2(2.375f, 0.5f), 11);
    tsc_simple(W_MIRROR, F_NEAREST);
    CK_F(sample2(-0.125f, 0.5f), 10);
    CK_F(sample2(1.125f, 0.5f), 13);
    CK_F(sample2(1.375f, 0.5f), 12);
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(-3.0f, 0.5f), 10);
    CK_F(sample2(3.0f, 0.5f), 13);
    tsc_simple(W_MO_EDGE, F_NEAREST);
    CK_F(sample2(-0.375f, 0.5f), 11);
    CK_F(sample2(-3.0f, 0.5f), 13);
    /* border: the TSC colour, all four channels, unswizzled */
    tsc(W_BORDER, W_BORDER, W_BORDER, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
        -1, border);
    sample(TTEX_AUTO, s, 2, o);
    CK_F(bf(o[0]), 7); CK_F(bf(o[1]), 6); CK_F(bf(o[2]), 5);
    CK_F(bf(o[3]), 4);
    CK_F(sample2(0.375f, 0.5f), 11);
    /* linear at the edge: border mixes in */
    tsc(W_BORDER, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(0.0f, 0.5f), 0.5f * 7 + 0.5f * 10);
    /* GL_CLAMP: coordinate clamped to [0, 1], half the border */
    tsc(W_OGL, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(1.5f, 0.5f), 0.5f * 13 + 0.5f * 7);
    CK_F(sample2(0.5f, 0.5f), 11.5f);
    /* clamp to edge, linear: never the border */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(1.5f, 0.5f), 13);
    /* repeat, linear: wraps around */
    tsc(W_REPEAT, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        border);
    CK_F(sample2(0.0f, 0.5f), 0.5f * 13 + 0.5f * 10);
}
END_TEST

/* --- mip levels (block-linear) --- */

static float sample_lod(unsigned kind, float lod)
{
    float s[3] = { 0.3f, 0.6f, lod };
    uint32_t o[4];

    sample(kind, s, 3, o);
    return bf(o[0]);
}

START_TEST(test_tex_mips)
{
    uint64_t off;

    /* the reference layout: 512 + 256 + 256 + 256 */
    ref_level(4, 8, 8, 1, 0x10, 3, 4, &off, NULL);
    ck_assert_uint_eq(off, 1024);

    mip_texture(0);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NEAREST, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 1);
    CK_F(sample_lod(TTEX_LOD, 1), 2);
    CK_F(sample_lod(TTEX_LOD, 1.4f), 2);
    CK_F(sample_lod(TTEX_LOD, 1.6f), 3);
    CK_F(sample_lod(TTEX_LOD, 3), 4);
    CK_F(sample_lod(TTEX_LOD, 9), 4);           /* past the last level */
    CK_F(sample_lod(TTEX_LOD, -2), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 1.25f), 2.25f);
    CK_F(sample_lod(TTEX_LOD, 2.5f), 3.5f);
    CK_F(sample_lod(TTEX_LOD, 3.5f), 4);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 2), 1);           /* no mipmapping */
    /* TSC: bias, then min/max clamps */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 1.0f, 0, 15,
        -1, NULL);
    CK_F(sample_lod(TTEX_LOD, 1), 3);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_LINEAR, 0, 1.5f, 2.0f,
        -1, NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 2.5f);
    CK_F(sample_lod(TTEX_LOD, 3), 3);
    /* the view's first level (TIC_7) */
    mip_texture(1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NEAREST, 0, 0, 15, -1,
        NULL);
    CK_F(sample_lod(TTEX_LOD, 0), 2);
    CK_F(sample_lod(TTEX_LOD, 1), 3);
}
END_TEST

/* quad derivatives: lanes UL UR LL LR @step texels apart */
static float sample_quad(unsigned kind, float step, float bias)
{
    TeslaInsn i = insn_of(kind);

    memset(co, 0, sizeof(co));
    for (unsigned l = 0; l < 4; l++) {
        co[0][l] = fb(0.25f + (l & 1) * step / 8);
        co[1][l] = fb(0.25f + (l >> 1) * step / 8);
        co[2][l] = fb(bias);
    }
    nv50_tex_sample(&unit, &i, 0xf, co, kind == TTEX_BIAS ? 3 : 2, res);
    for (unsigned l = 1; l < 4; l++) {
        ck_assert_uint_eq(res[0][l], res[0][0]);
    }
    return bf(res[0][0]);
}

START_TEST(test_tex_lod_quad)
{
    mip_texture(0);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NEAREST, 0, 0, 15,
        -1, NULL);
    /* lambda = log2(step) */
    CK_F(sample_quad(TTEX_AUTO, 0.5f, 0), 1);
    CK_F(sample_quad(TTEX_AUTO, 1, 0), 1);
    CK_F(sample_quad(TTEX_AUTO, 2, 0), 2);
    CK_F(sample_quad(TTEX_AUTO, 4, 0), 3);
    CK_F(sample_quad(TTEX_AUTO, 8, 0), 4);
    CK_F(sample_quad(TTEX_BIAS, 2, 1.0f), 3);
    CK_F(sample_quad(TTEX_BIAS, 2, -1.0f), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_LINEAR, 0, 0, 15,
        -1, NULL);
    /* lambda = log2(2 * sqrt(2)) = 1.5: halfway between levels 1 and 2 */
    {
        TeslaInsn i = insn_of(TTEX_AUTO);

        memset(co, 0, sizeof(co));
        for (unsigned l = 0; l < 4; l++) {
            co[0][l] = fb(0.25f + ((l & 1) + (l >> 1)) * 2.0f / 8);
            co[1][l] = fb(0.25f + ((l & 1) + (l >> 1)) * 2.0f / 8);
        }
        nv50_tex_sample(&unit, &i, 0x1, co, 2, res);
        CK_F(bf(res[0][0]), 2.5f);
    }
    /* not a fragment program: derivatives are 0, level 0 */
    unit.prog = NV50_GR_PROG_VP;
    nv50_gr_bind_tic(&call, NV50_GR_PROG_VP, 5u << 9 | 1);
    nv50_gr_bind_tsc(&call, NV50_GR_PROG_VP, 3u << 12 | 1);
    CK_F(sample_quad(TTEX_AUTO, 4, 0), 1);
}
END_TEST

/* --- shadow compare --- */

START_TEST(test_tex_shadow)
{
    static const float v[2] = { 0.25f, 0.75f };
    static const float border[4] = { 0.5f, 0, 0, 0 };
    float s[3] = { 0.25f, 0.5f, 0.5f };
    uint32_t o[4];

    r32f_pitch(2, 1, v);
    /* Z32_FLOAT's TIC: R, R, R, ONE_FLOAT */
    tic_pitch(TIC0(0x2f, T_FLOAT, T_UINT, T_UINT, T_UINT, S_R, S_R, S_R,
                   S_1F), 2, 1, 8, false);
    /* LEQUAL: dref <= texel */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 3,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0); CK_F(bf(o[1]), 0); CK_F(bf(o[3]), 1);
    s[0] = 0.75f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1); CK_F(bf(o[2]), 1);
    /* linear: compare each texel, then filter (PCF) */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_LINEAR, F_LINEAR, M_NONE, 0, 0, 15, 3,
        NULL);
    s[0] = 0.5f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0.5f);
    /* GREATER, ALWAYS, NEVER */
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 4,
        NULL);
    s[0] = 0.25f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 7,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15, 0,
        NULL);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 0);
    /* the border compares too */
    tsc(W_BORDER, W_BORDER, W_BORDER, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
        3, border);
    s[0] = -1.0f;
    s[2] = 0.4f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 1);
    /* texlod with compare: dref before the lod */
    {
        float s4[4] = { 0.75f, 0.5f, 0.5f, 0.0f };

        tsc(W_EDGE, W_EDGE, W_EDGE, F_NEAREST, F_NEAREST, M_NONE, 0, 0, 15,
            3, NULL);
        sample(TTEX_LOD, s4, 4, o);
        CK_F(bf(o[0]), 1);
    }
}
END_TEST

Suite *nv50_texture_filter_suite(void)
{
    Suite *su = suite_create("nv50_texture_filter");
    TCase *tc = tex_rig_tcase("filter");

    tcase_add_test(tc, test_tex_bilinear);
    tcase_add_test(tc, test_tex_wrap);
    tcase_add_test(tc, test_tex_mips);
    tcase_add_test(tc, test_tex_lod_quad);
    tcase_add_test(tc, test_tex_shadow);
    suite_add_tcase(su, tc);
    return su;
}
