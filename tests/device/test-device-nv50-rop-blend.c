/*
 * The 3D ROP's colour write (nv50_rop_write) with blending, masks and
 * logic ops, called the way the back end calls it: every blend factor
 * and equation on RGBA32_FLOAT exactly, unorm blending's clamps and
 * rounding, channel masks, the logic ops, per-RT enables and masks,
 * GT215's independent blend, each against a plain C reference.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rop-rig.h"

/* --- colour --- */

static const uint32_t g80_bf[19] = {
    0x4000, 0x4001, 0x4300, 0x4301, 0x4302, 0x4303, 0x4304, 0x4305, 0x4306,
    0x4307, 0x4308, 0xc001, 0xc002, 0xc003, 0xc004, 0xc900, 0xc901, 0xc902,
    0xc903,
};
static const uint32_t gl_eq[5] = { 0x8006, 0x800a, 0x800b, 0x8007, 0x8008 };

static float ref_factor(unsigned f, unsigned ch, const float *s,
                        const float *d, const float *s1, const float *k)
{
    switch (f) {
    case 0: return 0;
    case 1: return 1;
    case 2: return s[ch];
    case 3: return 1 - s[ch];
    case 4: return s[3];
    case 5: return 1 - s[3];
    case 6: return d[3];
    case 7: return 1 - d[3];
    case 8: return d[ch];
    case 9: return 1 - d[ch];
    case 10: return ch == 3 ? 1 : MIN(s[3], 1 - d[3]);
    case 11: return k[ch];
    case 12: return 1 - k[ch];
    case 13: return k[3];
    case 14: return 1 - k[3];
    case 15: return s1[ch];
    case 16: return 1 - s1[ch];
    case 17: return s1[3];
    case 18: return 1 - s1[3];
    }
    return 0;
}

static float ref_eq(unsigned e, float s, float sf, float d, float df)
{
    switch (e) {
    case 1: return s * sf - d * df;
    case 2: return d * df - s * sf;
    case 3: return MIN(s, d);
    case 4: return MAX(s, d);
    }
    return s * sf + d * df;
}

static void put_f32x4(const TSurf *t, uint32_t x, uint32_t y, const float *v)
{
    uint8_t e[16];

    memcpy(e, v, 16);
    elem_put(t, x, y, e);
}

/* Every factor (RGB and alpha) and equation on RGBA32_FLOAT, exact */
START_TEST(test_rop_blend_exhaustive)
{
    static const float k[4] = { 0.3f, 0.6f, 0.9f, 0.2f };
    static const float dst[4] = { 0.25f, 0.5f, 0.125f, 0.375f };
    TSurf t = tsurf(RT_VA, 16, false, 4, 4, 0);
    NV50GrCall c = call();
    float col[NV50_PIPE_RTS][4] = {
        { 0.8f, 0.4f, 0.2f, 0.6f }, { 0.1f, 0.7f, 0.5f, 0.9f },
    };

    set_rt(0, RT_VA, 0xc0, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 1);                               /* COLOR_MASK_COMMON */
    m(0x1a00, 0x1111);
    m(0x135c, 1);                               /* BLEND_ENABLE_COMMON */
    m(0x1360, 1);
    m(0x13a8, 0);                               /* no clamp: float RT */
    for (unsigned i = 0; i < 4; i++) {
        mf(0x131c + i * 4, k[i]);
    }
    for (unsigned e = 0; e < 5; e++) {
        for (unsigned sf = 0; sf < 19; sf++) {
            for (unsigned df = 0; df < 19; df++) {
                unsigned ea = (e + 2) % 5, sa = (sf + 5) % 19;
                unsigned da = (df + 11) % 19;
                float want[4], got[4];
                uint8_t b[16];
                NV50Rop *r;

                m(0x1340, gl_eq[e]);
                m(0x1344, g80_bf[sf]);
                m(0x1348, g80_bf[df]);
                m(0x134c, gl_eq[ea]);
                m(0x1350, g80_bf[sa]);
                m(0x1358, g80_bf[da]);
                put_f32x4(&t, 1, 2, dst);
                for (unsigned ch = 0; ch < 4; ch++) {
                    const float *s = col[0], *s1 = col[1];

                    want[ch] = ch < 3
                        ? ref_eq(e, s[ch], ref_factor(sf, ch, s, dst, s1, k),
                                 dst[ch], ref_factor(df, ch, s, dst, s1, k))
                        : ref_eq(ea, s[ch], ref_factor(sa, ch, s, dst, s1, k),
                                 dst[ch], ref_factor(da, ch, s, dst, s1, k));
                }
                r = nv50_rop_begin(&c, state());
                ck_assert_ptr_nonnull(r);
                nv50_rop_write(r, 1, 2, 0, col);
                nv50_rop_end(r);
                elem_get(&t, 1, 2, b);
                memcpy(got, b, 16);
                ck_assert_msg(!memcmp(got, want, 16), "eq %u sf %u df %u: "
                              "%g %g %g %g want %g %g %g %g", e, sf, df,
                              got[0], got[1], got[2], got[3], want[0],
                              want[1], want[2], want[3]);
            }
        }
    }
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Unorm blending: inputs clamped, results rounded; masks; logic ops */
START_TEST(test_rop_write_unorm_masks_logic)
{
    TSurf t = tsurf(RT_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();
    float col[NV50_PIPE_RTS][4] = { { 1.5f, 0.4f, -0.2f, 0.6f } };
    static const uint8_t d[4] = { 0x20, 0x80, 0xc0, 0x40 };
    const TFmt *f = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(tfmts); i++) {
        if (tfmts[i].id == 0xd5) {
            f = &tfmts[i];
        }
    }
    set_rt(0, RT_VA, 0xd5, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x0f90, 0);
    m(0x135c, 0);
    /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA, masks 0..15 */
    m(0x1340, 0x8006);
    m(0x1344, 0x4302);
    m(0x1348, 0x4303);
    m(0x134c, 0x8006);
    m(0x1350, 0x4302);
    m(0x1358, 0x4303);
    for (unsigned blend = 0; blend < 2; blend++) {
        for (unsigned mask = 0; mask < 16; mask++) {
            uint8_t want[16], e[4];
            float s[4], dd[4];
            NV50Rop *r;

            m(0x1360, blend);
            m(0x1a00, (mask & 1) | (mask & 2) << 3 | (mask & 4) << 6 |
                      (mask & 8) << 9);
            elem_put(&t, 3, 3, d);
            for (unsigned ch = 0; ch < 4; ch++) {
                s[ch] = MIN(MAX(col[0][ch], 0.0f), 1.0f);
                dd[ch] = d[ch] / 255.0f;
            }
            if (blend) {
                for (unsigned ch = 0; ch < 4; ch++) {
                    s[ch] = s[ch] * s[3] + dd[ch] * (1 - s[3]);
                }
            }
            ref_encode(f, s, NULL, want);
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!(mask >> ch & 1)) {
                    want[ch] = d[ch];
                }
            }
            r = nv50_rop_begin(&c, state());
            nv50_rop_write(r, 3, 3, 0, col);
            nv50_rop_end(r);
            elem_get(&t, 3, 3, e);
            ck_assert_msg(!memcmp(e, want, 4), "blend %u mask %u: %08x want "
                          "%08x", blend, mask, le32(e), le32(want));
        }
    }
    /* logic ops (blending ignored) */
    m(0x1a00, 0x1111);
    m(0x1360, 1);
    m(0x19c4, 1);
    for (unsigned op = 0; op < 16; op++) {
        uint8_t src[16], e[4];
        NV50Rop *r;

        m(0x19c8, 0x1500 + op);
        elem_put(&t, 0, 1, d);
        ref_encode(f, col[0], NULL, src);
        r = nv50_rop_begin(&c, state());
        nv50_rop_write(r, 0, 1, 0, col);
        nv50_rop_end(r);
        elem_get(&t, 0, 1, e);
        for (unsigned ch = 0; ch < 4; ch++) {
            uint8_t sv = src[ch], dv = d[ch], w;

            switch (op) {
            case 0: w = 0; break;
            case 1: w = sv & dv; break;
            case 2: w = sv & ~dv; break;
            case 3: w = sv; break;
            case 4: w = ~sv & dv; break;
            case 5: w = dv; break;
            case 6: w = sv ^ dv; break;
            case 7: w = sv | dv; break;
            case 8: w = ~(sv | dv); break;
            case 9: w = ~(sv ^ dv); break;
            case 10: w = ~dv; break;
            case 11: w = sv | ~dv; break;
            case 12: w = ~sv; break;
            case 13: w = ~sv | dv; break;
            case 14: w = ~(sv & dv); break;
            default: w = 0xff; break;
            }
            ck_assert_msg(e[ch] == w, "logic op %u ch %u: %02x want %02x", op,
                          ch, e[ch], w);
        }
    }
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Per-RT blend enables and masks; GT215's IBLEND */
static void two_rts(void)
{
    set_rt(0, RT_VA, 0xc0, false, 4, 4, 0);
    set_rt(1, RT1_VA, 0xc0, false, 4, 4, 0);
    m(0x121c, (076543210 << 4) | 2);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x13a8, 0);
    m(0x0f90, 0);
    m(0x135c, 0);
    m(0x1a00, 0x1111);
    m(0x1a04, 0x0011);                          /* RT 1: R, G */
    m(0x1360, 1);
    m(0x1364, 0);
    m(0x1340, 0x8006);
    m(0x1344, 0x4001);
    m(0x1348, 0x4001);
    m(0x134c, 0x8006);
    m(0x1350, 0x4001);
    m(0x1358, 0x4001);
}

/*
 * RGBA (1, 2, 3, 4) in both RTs' pixel (@x, @y), then colours
 * (10, 20, 30, 40) and (5, 6, 7, 8) written there: what each RT holds.
 */
static void write_two_rts(uint32_t x, uint32_t y, float got[2][4])
{
    static const float d[4] = { 1, 2, 3, 4 };
    float col[NV50_PIPE_RTS][4] = { { 10, 20, 30, 40 }, { 5, 6, 7, 8 } };
    const TSurf t[2] = {
        tsurf(RT_VA, 16, false, 4, 4, 0), tsurf(RT1_VA, 16, false, 4, 4, 0),
    };
    NV50GrCall c = call();
    uint8_t b[16];
    NV50Rop *r;

    for (unsigned i = 0; i < 2; i++) {
        put_f32x4(&t[i], x, y, d);
    }
    r = nv50_rop_begin(&c, state());
    nv50_rop_write(r, x, y, 0, col);
    nv50_rop_end(r);
    for (unsigned i = 0; i < 2; i++) {
        elem_get(&t[i], x, y, b);
        memcpy(got[i], b, 16);
    }
}

START_TEST(test_rop_write_independent)
{
    float g[2][4];

    two_rts();
    write_two_rts(2, 1, g);
    ck_assert(g[0][0] == 11 && g[0][1] == 22 && g[0][2] == 33 &&
              g[0][3] == 44);
    ck_assert(g[1][0] == 5 && g[1][1] == 6 && g[1][2] == 3 && g[1][3] == 4);
}
END_TEST

START_TEST(test_rop_write_iblend)
{
    float g[2][4];

    gr_rig_teardown();
    setup_class(0x8597);
    two_rts();
    m(0x12e4, 1);                               /* BLEND_INDEPENDENT */
    m(0x1364, 1);
    /* RT 1: REVERSE_SUBTRACT, ONE, ONE; RT 0 keeps the common ADD */
    m(0x1e00 + 0x20 * 1 + 0x04, 0x800b);
    m(0x1e00 + 0x20 * 1 + 0x08, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x0c, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x10, 0x800b);
    m(0x1e00 + 0x20 * 1 + 0x14, 0x4001);
    m(0x1e00 + 0x20 * 1 + 0x18, 0x4001);
    m(0x1e00 + 0x04, 0x8006);
    m(0x1e00 + 0x08, 0x4001);
    m(0x1e00 + 0x0c, 0x4001);
    m(0x1e00 + 0x10, 0x8006);
    m(0x1e00 + 0x14, 0x4001);
    m(0x1e00 + 0x18, 0x4001);
    write_two_rts(0, 0, g);
    ck_assert(g[0][0] == 11 && g[0][3] == 44);
    ck_assert(g[1][0] == -4 && g[1][1] == -4 && g[1][2] == 3 &&
              g[1][3] == 4);
}
END_TEST

Suite *nv50_rop_blend_suite(void)
{
    Suite *su = suite_create("nv50_rop_blend");
    TCase *tc = rop_rig_tcase("blend");

    tcase_add_test(tc, test_rop_blend_exhaustive);
    tcase_add_test(tc, test_rop_write_unorm_masks_logic);
    tcase_add_test(tc, test_rop_write_independent);
    tcase_add_test(tc, test_rop_write_iblend);
    suite_add_tcase(su, tc);
    return su;
}
