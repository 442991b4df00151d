/*
 * The 3D ROP's depth/stencil test (nv50_rop_zs_test) called the way the
 * back end calls it: every depth and stencil function, op, mask and
 * two-sided case on Z24_S8 against a plain C reference, every other
 * zeta format, depth bounds, zeta disabled.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rop-rig.h"

static const uint32_t gl_sop[8] = {
    0x1e00, 0x0000, 0x1e01, 0x1e02, 0x1e03, 0x150a, 0x8507, 0x8508,
};

static bool ref_cmp(unsigned f, double a, double b)
{
    switch (f) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return a != b;
    case 6: return a >= b;
    }
    return true;
}

static uint8_t ref_sop(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case 1: return 0;
    case 2: return ref;
    case 3: return s == 255 ? 255 : s + 1;
    case 4: return s == 0 ? 0 : s - 1;
    case 5: return ~s;
    case 6: return s + 1;
    case 7: return s - 1;
    }
    return s;
}

/*
 * Depth func x depth write x stencil func x ops x masks x two-sided on
 * Z24_S8, 4x4 pixels of stored values against fragments.
 */
START_TEST(test_rop_zs_exhaustive)
{
    const TZeta *z = &tzetas[4];            /* Z24_S8_UNORM */
    TSurf t = tsurf(ZETA_VA, 4, false, 4, 4, 0);
    NV50GrCall c = call();
    unsigned configs = 0;

    set_zeta(ZETA_VA, z->id, 4, 4, 0);
    m(0x121c, 0);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    for (unsigned df = 0; df < 8; df++) {
        for (unsigned wr = 0; wr < 2; wr++) {
            for (unsigned sf = 0; sf < 8; sf++) {
                for (unsigned k = 0; k < 8; k++) {
                    unsigned ops[2][3] = {
                        { k, (k + 3) % 8, (k + 5) % 8 },
                        { (k + 1) % 8, (k + 6) % 8, (k + 2) % 8 },
                    };
                    uint8_t fmask[2] = { 0xff, 0x0f };
                    uint8_t wmask[2] = { 0xff, 0xf0 };
                    uint8_t refs[2] = { 0x40, 0x0c };
                    bool two = k & 1, stencil = sf != 7 || k != 0;
                    uint8_t want[16][4];
                    bool want_pass[16];
                    NV50Rop *r;

                    m(0x12cc, df != 7 || wr);        /* DEPTH_TEST_ENABLE */
                    m(0x130c, 0x200 + df);
                    m(0x12e8, wr);
                    m(0x1380, stencil);
                    m(0x1384, gl_sop[ops[0][0]]);
                    m(0x1388, gl_sop[ops[0][1]]);
                    m(0x138c, gl_sop[ops[0][2]]);
                    m(0x1390, 0x200 + sf);
                    m(0x1394, refs[0]);
                    m(0x1398, wmask[0]);
                    m(0x139c, fmask[0]);
                    m(0x1594, two);
                    m(0x1598, gl_sop[ops[1][0]]);
                    m(0x159c, gl_sop[ops[1][1]]);
                    m(0x15a0, gl_sop[ops[1][2]]);
                    m(0x15a4, 0x200 + (7 - sf));
                    m(0x0f54, refs[1]);
                    m(0x0f58, wmask[1]);
                    m(0x0f5c, fmask[1]);
                    for (unsigned i = 0; i < 16; i++) {
                        uint8_t e[4] = { 0 };
                        uint32_t zs = (i * 0x111111u) & 0xffffff;
                        float fz = (float)((i * 7) % 16) / 15.0f;
                        bool front = !(i & 2) || !two;
                        unsigned side = front ? 0 : 1;
                        uint8_t s = i * 37 + 0x3c;
                        uint32_t fzi = ref_zenc(z, fz);
                        bool spass = true, zpass = true;
                        unsigned op;

                        ref_zset(z, e, zs);
                        e[3] = s;
                        elem_put(&t, i % 4, i / 4, e);
                        if (stencil) {
                            spass = ref_cmp(two ? (side ? 7 - sf : sf) : sf,
                                            refs[side] & fmask[side],
                                            s & fmask[side]);
                        }
                        if (spass && (df != 7 || wr)) {
                            zpass = ref_cmp(df, fzi, zs);
                        }
                        if (stencil) {
                            op = !spass ? ops[side][0] : !zpass ? ops[side][1]
                                                                : ops[side][2];
                            e[3] = (s & ~wmask[side]) |
                                   (ref_sop(op, s, refs[side]) & wmask[side]);
                        }
                        if (spass && zpass && wr) {
                            ref_zset(z, e, fzi);
                        }
                        memcpy(want[i], e, 4);
                        want_pass[i] = spass && zpass;
                    }
                    r = nv50_rop_begin(&c, state());
                    ck_assert_ptr_nonnull(r);
                    for (unsigned i = 0; i < 16; i++) {
                        bool front = !(i & 2) || !two;
                        float fz = (float)((i * 7) % 16) / 15.0f;

                        ck_assert_msg(nv50_rop_zs_test(r, i % 4, i / 4, 0, fz,
                                                       front) == want_pass[i],
                                      "df %u wr %u sf %u k %u px %u", df, wr,
                                      sf, k, i);
                    }
                    nv50_rop_end(r);
                    for (unsigned i = 0; i < 16; i++) {
                        uint8_t e[4];

                        elem_get(&t, i % 4, i / 4, e);
                        ck_assert_msg(!memcmp(e, want[i], 4),
                                      "df %u wr %u sf %u k %u px %u: %08x "
                                      "want %08x", df, wr, sf, k, i, le32(e),
                                      le32(want[i]));
                    }
                    configs++;
                }
            }
        }
    }
    ck_assert_uint_eq(configs, 8 * 2 * 8 * 8);
    ck_assert_uint_eq(rd32(INTR), 0);
}
END_TEST

/* Other zeta formats, depth bounds, zeta disabled */
START_TEST(test_rop_zs_formats)
{
    NV50GrCall c = call();

    m(0x121c, 0);
    m(0x0ff4, 0);
    m(0x0ff8, 0);
    m(0x12cc, 1);
    m(0x130c, 0x201);                           /* LESS */
    m(0x12e8, 1);
    m(0x1380, 1);
    m(0x1384, 0x1e00);
    m(0x1388, 0x1e00);
    m(0x138c, 0x1e02);                          /* INCR on pass */
    m(0x1390, 0x207);
    m(0x1398, 0xff);
    m(0x139c, 0xff);
    for (unsigned zi = 0; zi < G_N_ELEMENTS(tzetas); zi++) {
        const TZeta *z = &tzetas[zi];
        TSurf t = tsurf(ZETA_VA, z->bpp, false, 4, 4, 0);
        uint8_t e[8], want[8];
        NV50Rop *r;

        set_zeta(ZETA_VA, z->id, 4, 4, 0);
        memset(e, 0, 8);
        ref_zset(z, e, ref_zenc(z, 0.5f));
        for (unsigned i = 0; i < 16; i++) {
            elem_put(&t, i % 4, i / 4, e);
        }
        r = nv50_rop_begin(&c, state());
        ck_assert_ptr_nonnull(r);
        ck_assert(nv50_rop_zs_test(r, 0, 0, 0, 0.25f, true));
        ck_assert(!nv50_rop_zs_test(r, 1, 0, 0, 0.75f, true));
        ck_assert(!nv50_rop_zs_test(r, 4, 0, 0, 0.0f, true));  /* outside */
        nv50_rop_end(r);
        memcpy(want, e, 8);
        ref_zset(z, want, ref_zenc(z, 0.25f));
        if (z->sbyte >= 0) {
            want[z->sbyte] = 1;
        }
        elem_get(&t, 0, 0, e);
        ck_assert_msg(!memcmp(e, want, z->bpp), "zeta 0x%x", z->id);
    }
    /* depth bounds: the stored value (0.5) outside [0.6, 1] fails */
    m(0x19bc, 1);
    mf(0x0f9c, 0.6f);
    mf(0x0fa0, 1.0f);
    {
        NV50Rop *r = nv50_rop_begin(&c, state());

        ck_assert(!nv50_rop_zs_test(r, 2, 2, 0, 0.1f, true));
        nv50_rop_end(r);
    }
    m(0x19bc, 0);
    /* no zeta: everything passes */
    m(0x1538, 0);
    {
        NV50Rop *r = nv50_rop_begin(&c, state());

        ck_assert(nv50_rop_zs_test(r, 2, 2, 0, 0.9f, true));
        nv50_rop_end(r);
    }
}
END_TEST

Suite *nv50_rop_zs_suite(void)
{
    Suite *su = suite_create("nv50_rop_zs");
    TCase *tc = rop_rig_tcase("zs");

    tcase_add_test(tc, test_rop_zs_exhaustive);
    tcase_add_test(tc, test_rop_zs_formats);
    suite_add_tcase(su, tc);
    return su;
}
