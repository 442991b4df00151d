/*
 * The texture unit's targets other than 2D: a 2D array's layers (the
 * layer clamped), a cube map's faces and their coordinates, a 3D
 * texture's slices, nearest and linear; texels laid out as
 * g80-surface.rst says (ref_level).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-texture-rig.h"

START_TEST(test_tex_array)
{
    uint64_t off, sub;
    NV50Surface sf = ref_level(4, 4, 4, 1, 0, 0, 1, &off, &sub);
    uint32_t src[3], o[4];
    TeslaInsn i = insn_of(TTEX_AUTO);

    for (unsigned layer = 0; layer < 3; layer++) {
        for (uint32_t y = 0; y < 4; y++) {
            for (uint32_t x = 0; x < 4; x++) {
                put_f32(TEX_VA + layer * sub, &sf, x, y, 0,
                        100 * layer + x + 4 * y);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_2D_ARRAY, 4, 4, 3,
           0, 0, 0);
    tsc_simple(W_EDGE, F_NEAREST);
    src[0] = fb(0.6f);
    src[1] = fb(0.9f);
    for (unsigned layer = 0; layer < 5; layer++) {
        src[2] = layer;             /* an integer, as Mesa converts it */
        run(&i, src, 3, o);
        CK_F(bf(o[0]), 100 * MIN(layer, 2u) + 2 + 4 * 3);
    }
}
END_TEST

START_TEST(test_tex_cube)
{
    static const float dirs[][3] = {
        { 1, 0.2f, 0.1f }, { -1, 0.2f, 0.1f }, { 0.1f, 1, -0.3f },
        { 0.1f, -1, 0.2f }, { 0.3f, 0.1f, 1 }, { 0.2f, 0.3f, -1 },
    };
    uint64_t off, sub;
    NV50Surface sf = ref_level(4, 4, 4, 1, 0, 0, 1, &off, &sub);
    uint32_t o[4];

    for (unsigned face = 0; face < 6; face++) {
        for (uint32_t y = 0; y < 4; y++) {
            for (uint32_t x = 0; x < 4; x++) {
                put_f32(TEX_VA + face * sub, &sf, x, y, 0,
                        face * 100 + x + 4 * y);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_CUBE, 4, 4, 1, 0, 0,
           0);
    tsc_simple(W_REPEAT, F_NEAREST);
    for (unsigned face = 0; face < 6; face++) {
        sample(TTEX_AUTO, dirs[face], 3, o);
        ck_assert_msg(bf(o[0]) >= face * 100 && bf(o[0]) < face * 100 + 16,
                      "face %u: %f", face, (double)bf(o[0]));
    }
    /* +Z: s = (x / z + 1) / 2, t = (-y / z + 1) / 2 */
    {
        float d[3] = { -0.5f, 0.5f, 1 };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 400 + 1 + 4 * 1);
    }
    /* +X: s = (-z / x + 1) / 2, t = (-y / x + 1) / 2 */
    {
        float d[3] = { 2, -1.8f, -1.8f };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 0 + 3 + 4 * 3);
    }
    /* -Y: s = (x / |y| + 1) / 2, t = (-z / |y| + 1) / 2 */
    {
        float d[3] = { 0.9f, -1, 0.9f };

        sample(TTEX_AUTO, d, 3, o);
        CK_F(bf(o[0]), 300 + 3 + 4 * 0);
    }
}
END_TEST

START_TEST(test_tex_3d)
{
    const unsigned tm = 0x100;  /* Mesa: depth 2 */
    uint64_t off;
    NV50Surface sf = ref_level(4, 2, 2, 2, tm, 0, 1, &off, NULL);
    float s[3] = { 0.75f, 0.25f, 0.75f };
    uint32_t o[4];

    for (uint32_t z = 0; z < 2; z++) {
        for (uint32_t y = 0; y < 2; y++) {
            for (uint32_t x = 0; x < 2; x++) {
                put_f32(TEX_VA, &sf, x, y, z, x + 2 * y + 4 * z);
            }
        }
    }
    tic_bl(TIC0A(0x0f, T_FLOAT, S_R, S_0, S_0, S_1F), TT_3D, 2, 2, 2, 0, 0,
           tm);
    tsc_simple(W_EDGE, F_NEAREST);
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 5);
    tsc_simple(W_EDGE, F_LINEAR);
    s[0] = s[1] = s[2] = 0.5f;
    sample(TTEX_AUTO, s, 3, o);
    CK_F(bf(o[0]), 3.5f);
}
END_TEST

Suite *nv50_texture_targets_suite(void)
{
    Suite *su = suite_create("nv50_texture_targets");
    TCase *tc = tex_rig_tcase("targets");

    tcase_add_test(tc, test_tex_array);
    tcase_add_test(tc, test_tex_cube);
    tcase_add_test(tc, test_tex_3d);
    suite_add_tcase(su, tc);
    return su;
}
