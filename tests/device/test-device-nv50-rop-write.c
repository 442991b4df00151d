/*
 * The 3D ROP's plain 8-bit UNORM colour writes (no blending, every
 * channel on): nv50_rop_write's plain_unorm8 path and the FP's
 * nv50_rop_write_quad against nv50_rop_encode + pack, at the rounding
 * boundaries, out of range, NaN and infinities, with and without
 * ALPHA_TO_ONE, pitch-linear and block-linear.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rop-rig.h"

/* Colour values at and around unorm8's rounding boundaries, specials */
static const float unorm8_values[] = {
    NAN, -0.0f, -1.0f, 0.0f, 0.5f / 255 - 1e-6f, 0.5f / 255,
    127.5f / 255, 127.5f / 255 + 1e-6f, 0.2f, 0.999f, 1.0f, 1.5f,
    INFINITY, -INFINITY,
};

/* One RT, every channel written, no blending, logic op or scissor */
static void plain_unorm8_state(void)
{
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 0);
    m(0x1a00, 0x1111);
    m(0x1360, 0);
}

/*
 * Writes to 8-bit UNORM formats with every channel on and no blending
 * (the ROP's plain_unorm8 path) against nv50_rop_encode + pack, with
 * and without ALPHA_TO_ONE: rounding boundaries, out of range, NaN,
 * infinities; the X channel of BGRX8; sRGB (not that path) alike.
 */
START_TEST(test_rop_write_unorm8_plain)
{
    static const uint32_t ids[] = { 0xcf, 0xd5, 0xe6, 0xd0 };
    const float *v = unorm8_values;
    const unsigned nv = G_N_ELEMENTS(unorm8_values);
    TSurf t = tsurf(RT_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();

    plain_unorm8_state();
    for (unsigned fi = 0; fi < G_N_ELEMENTS(ids); fi++) {
        const NV50RopFormat *f = nv50_rop_format(ids[fi]);

        ck_assert_ptr_nonnull(f);
        set_rt(0, RT_VA, ids[fi], false, 4, 4, 0);
        for (unsigned i = 0; i < nv * nv * 2; i++) {
            bool to_one = i % 2;
            float col[NV50_PIPE_RTS][4] = {
                { v[i / 2 % nv], v[i / 2 / nv], v[(i / 2 + 3) % nv],
                  v[(i / 2 * 7) % nv] },
            };
            float want_c[4];
            uint32_t raw[4];
            uint8_t want[16] = { 0 }, e[4];
            NV50Rop *r;

            m(NV50_3D_MULTISAMPLE_CTRL,
              to_one ? NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE : 0);
            memcpy(want_c, col[0], sizeof(want_c));
            if (to_one) {
                want_c[3] = 1.0f;
            }
            nv50_rop_encode(f, want_c, raw);
            nv50_rop_pack(f, raw, want);
            r = nv50_rop_begin(&c, state());
            nv50_rop_write(r, 1, 2, 0, col);
            nv50_rop_end(r);
            elem_get(&t, 1, 2, e);
            ck_assert_msg(!memcmp(e, want, 4), "format 0x%x colour %g %g %g "
                          "%g%s: %08x, not %08x", ids[fi], col[0][0],
                          col[0][1], col[0][2], col[0][3],
                          to_one ? " (alpha to one)" : "", le32(e),
                          le32(want));
        }
    }
}
END_TEST

/*
 * nv50_rop_write_quad (the FP's plain 8-bit path: four colours converted
 * at once, a row's two pixels stored at once) against nv50_rop_encode +
 * pack pixel by pixel: every coverage mask, with and without
 * ALPHA_TO_ONE, pitch-linear and block-linear targets, the colours of
 * test_rop_write_unorm8_plain; pixels left out keep their bytes, and a
 * quad half past the target's right edge writes only its left half.
 */
START_TEST(test_rop_write_quad_plain)
{
    static const uint32_t ids[] = { 0xcf, 0xd5, 0xe6 };
    const float *v = unorm8_values;
    const unsigned nv = G_N_ELEMENTS(unorm8_values);
    NV50GrCall c = call();

    plain_unorm8_state();
    for (unsigned n = 0; n < 2 * G_N_ELEMENTS(ids) * 32; n++) {
        bool linear = n % 2, to_one = n / 2 % 2;
        unsigned mask = n / 4 % 16, fi = n / 64;
        const NV50RopFormat *f = nv50_rop_format(ids[fi]);
        TSurf t = tsurf(RT_VA, 4, linear, 5, 4, 0);
        float col[4][4];
        NV50Rop *r;

        ck_assert_ptr_nonnull(f);
        set_rt(0, RT_VA, ids[fi], linear, 5, 4, 0);
        m(NV50_3D_MULTISAMPLE_CTRL,
          to_one ? NV50_3D_MULTISAMPLE_CTRL_ALPHA_TO_ONE : 0);
        fill_surf(&t, 5, 4, 0x5a);
        for (unsigned p = 0; p < 16; p++) {
            col[p / 4][p % 4] = v[(n * 5 + p * 3) % nv];
        }
        r = nv50_rop_begin(&c, state());
        ck_assert(nv50_rop_quad_plain(r));
        nv50_rop_write_quad(r, 2, 2, mask, col);
        nv50_rop_write_quad(r, 4, 0, 0xf, col);   /* x 5 is past */
        nv50_rop_end(r);
        for (unsigned p = 0; p < 8; p++) {
            unsigned x = p < 4 ? 2 + p % 2 : 4 + p % 2;
            unsigned y = p < 4 ? 2 + p / 2 % 2 : p / 2 % 2;
            bool on = p < 4 ? mask >> p & 1 : x < 5;
            uint8_t want[16] = { 0x5a, 0x5a, 0x5a, 0x5a }, e[4];
            float want_c[4];
            uint32_t raw[4];

            if (on) {
                memcpy(want_c, col[p % 4], sizeof(want_c));
                if (to_one) {
                    want_c[3] = 1.0f;
                }
                nv50_rop_encode(f, want_c, raw);
                nv50_rop_pack(f, raw, want);
            }
            if (x < 5) {
                elem_get(&t, x, y, e);
                ck_assert_msg(!memcmp(e, want, 4), "format 0x%x %s mask %x%s "
                              "pixel (%u, %u): %08x, not %08x", ids[fi],
                              linear ? "linear" : "block-linear", mask,
                              to_one ? " (alpha to one)" : "", x, y, le32(e),
                              le32(want));
            }
        }
    }
}
END_TEST

Suite *nv50_rop_write_suite(void)
{
    Suite *su = suite_create("nv50_rop_write");
    TCase *tc = rop_rig_tcase("write");

    tcase_add_test(tc, test_rop_write_unorm8_plain);
    tcase_add_test(tc, test_rop_write_quad_plain);
    suite_add_tcase(su, tc);
    return su;
}
