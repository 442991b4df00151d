/*
 * The texture unit's other ways in: texfetch (integer texels, LOD, texel
 * offsets) and texsize; nothing bound, a TIC past TIC_LIMIT, an unknown
 * format; a warp's lane mask; a compute launch sampling through the same
 * unit (tpc.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-texture-rig.h"

/* --- texfetch, texsize --- */

START_TEST(test_tex_fetch_size)
{
    TeslaInsn i = insn_of(TTEX_FETCH);
    uint32_t src[3], o[4];

    mip_texture(0);
    /* no TSC needed */
    gr.ctx->shared.bind_tsc[NV50_GR_PROG_FP][0] = 0;
    src[0] = 3;
    src[1] = 1;
    src[2] = 1;                     /* lod */
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 2);
    src[2] = 3;
    src[0] = 0;
    src[1] = 0;
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 4);
    src[0] = 1;                     /* outside level 3's 1x1 */
    run(&i, src, 3, o);
    ck_assert_uint_eq(o[0], 0);
    src[0] = 0;
    src[2] = 4;                     /* no level 4 */
    run(&i, src, 3, o);
    ck_assert_uint_eq(o[0], 0);
    /* texel offsets */
    i.tex.flags = TTEXF_OFFS;
    i.tex.offs[0] = 1;
    i.tex.offs[1] = -1;
    src[0] = 2;
    src[1] = 3;
    src[2] = 2;
    run(&i, src, 3, o);             /* (3, 2) of level 2's 2x2: outside */
    ck_assert_uint_eq(o[0], 0);
    src[0] = 0;
    src[1] = 1;
    run(&i, src, 3, o);
    CK_F(bf(o[0]), 3);

    i = insn_of(TTEX_SIZE);
    src[0] = 0;
    run(&i, src, 1, o);
    ck_assert_uint_eq(o[0], 8);
    ck_assert_uint_eq(o[1], 8);
    ck_assert_uint_eq(o[2], 1);
    ck_assert_uint_eq(o[3], 4);
    src[0] = 2;
    run(&i, src, 1, o);
    ck_assert_uint_eq(o[0], 2);
    ck_assert_uint_eq(o[1], 2);
    ck_assert_uint_eq(o[3], 4);
}
END_TEST

/* --- what goes wrong --- */

START_TEST(test_tex_unbound)
{
    float s[2] = { 0.5f, 0.5f };
    uint32_t o[4];

    /* nothing bound: 0 */
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
    ck_assert_uint_eq(o[3], 0);
    /* a TIC past TIC_LIMIT: 0 */
    r32f_pitch(1, 1, s);
    tsc_simple(W_EDGE, F_NEAREST);
    CK_F(sample2(0.5f, 0.5f), 0.5f);
    gr.ctx->shared.tic_limit = 4;
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
    /* an unknown format: 0 */
    gr.ctx->shared.tic_limit = 2047;
    tic_pitch(TIC0A(0x3f, T_FLOAT, S_R, S_0, S_0, S_1F), 1, 1, 4, false);
    sample(TTEX_AUTO, s, 2, o);
    ck_assert_uint_eq(o[0], 0);
}
END_TEST

START_TEST(test_tex_mask)
{
    static const float v[4] = { 1, 2, 3, 4 };
    TeslaInsn i = insn_of(TTEX_AUTO);

    r32f_pitch(4, 1, v);
    tsc_simple(W_EDGE, F_NEAREST);
    memset(co, 0, sizeof(co));
    memset(res, 0xcc, sizeof(res));
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        co[0][l] = fb((l % 4 + 0.5f) / 4);
        co[1][l] = fb(0.5f);
    }
    nv50_tex_sample(&unit, &i, 0x0000ff0fu, co, 2, res);
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (0x0000ff0fu & (1u << l)) {
            CK_F(bf(res[0][l]), l % 4 + 1);
        } else {
            ck_assert_uint_eq(res[0][l], 0xccccccccu);
        }
    }
}
END_TEST

/* a compute launch samples through the same unit (tpc.c) */
START_TEST(test_tex_compute)
{
    static const char src[] =
        "shl b32 $r9 $r0 0x2\n"            /* tid x: $r0 */
        "mov b32 $r1 0x0\n"
        "mov b32 $r2 0x1\n"                /* lod 1 */
        "texfetch all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2\n"
        "mov b32 $r8 $r9\n"                /* pairs the short tex */
        "st b32 g0[$r8] $r0\n"
        "exit nop\n";
    const uint64_t code_va = GR_VA_DATA + 0x200000;
    const uint64_t out_va = GR_VA_DATA + 0x300000;
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    NV50CpLaunch l;
    NV50CpResult r;
    TeslaRun *runs[NV50_MPS] = { 0 };

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, w, &err),
                  "%s", err ? err : "");
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(code_va + 4 * i, g_array_index(w, uint32_t, i));
    }
    mip_texture(0);
    /* level 1 (4x4) texel x: 10 + x */
    {
        uint64_t off;
        NV50Surface sf = ref_level(4, 8, 8, 1, 0x10, 1, 4, &off, NULL);

        for (uint32_t x = 0; x < 4; x++) {
            put_f32(TEX_VA + off, &sf, x, 0, 0, 10.0f + x);
        }
    }
    memset(&l, 0, sizeof(l));
    l.code.base = code_va;
    l.code.size = 4 * w->len;
    l.gprs = 16;
    l.shared_bytes = 0x100;
    l.block[0] = 4;
    l.block[1] = l.block[2] = 1;
    l.grid[0] = l.grid[1] = 1;
    l.g[0].base = out_va;
    l.g[0].size = 16;
    ck_assert_int_eq(nv50_tpc_launch(&call, &l, &r, runs), TESLA_RUN_DONE);
    for (unsigned i = 0; i < NV50_MPS; i++) {
        tesla_run_free(runs[i]);
    }
    for (uint32_t x = 0; x < 4; x++) {
        CK_F(bf(gr_rd32(out_va + 4 * x)), 10.0f + x);
    }
}
END_TEST

Suite *nv50_texture_fetch_suite(void)
{
    Suite *su = suite_create("nv50_texture_fetch");
    TCase *tc = tex_rig_tcase("fetch");

    tcase_add_test(tc, test_tex_fetch_size);
    tcase_add_test(tc, test_tex_unbound);
    tcase_add_test(tc, test_tex_mask);
    tcase_add_test(tc, test_tex_compute);
    suite_add_tcase(su, tc);
    return su;
}
