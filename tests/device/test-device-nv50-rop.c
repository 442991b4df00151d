/*
 * The 3D ROP (hw/nv50/gr/rop.c) on a channel's PGRAPH context:
 * CLEAR_BUFFERS of every render target and zeta format, pitch and
 * block-linear, in a scissor, as Mesa's nv50_clear sends it, of some
 * channels, another RT and layer, in a clip rectangle, of every sample
 * of a 4-sample surface; the bounds a draw is cut to, and what a fault
 * leaves.  Checked pixel by pixel against plain C references on small
 * surfaces (nv50-rop-rig.h).  Depth/stencil, blending and the plain
 * writes have suites of their own (-rop-zs.c, -rop-blend.c,
 * -rop-write.c), the clear's block-linear fill too (-rop-clear.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-rop-rig.h"

/* Every RT format, pitch and block-linear, cleared in a screen scissor */
START_TEST(test_rop_clear_rt_formats)
{
    static const float c[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    static const int32_t ci[4] = { 5, -3, 300, 1 };

    for (unsigned lin = 0; lin < 2; lin++) {
        for (unsigned fi = 0; fi < G_N_ELEMENTS(tfmts); fi++) {
            const TFmt *f = &tfmts[fi];
            unsigned bpp = tfmt_bits(f) / 8;
            bool ints = f->kind == 'I' || f->kind == 'N';
            TSurf t = tsurf(RT_VA, bpp, lin, W, H, 0x10);
            uint8_t want[16], got[16], bg[16];

            fill_surf(&t, W, H, 0xa5);
            memset(bg, 0xa5, sizeof(bg));
            set_rt(0, RT_VA, f->id, lin, W, H, 0x10);
            m(0x121c, (076543210 << 4) | 1);        /* RT_CONTROL */
            m(0x0ff4, 3 | 7 << 16);                 /* x 3..9 */
            m(0x0ff8, 2 | 4 << 16);                 /* y 2..5 */
            clear_color(c, ci, ints);
            m(NV50_3D_CLEAR_BUFFERS, 0x3c);
            ck_assert_uint_eq(rd32(INTR), 0);
            ref_encode(f, c, ci, want);
            for (uint32_t y = 0; y < H; y++) {
                for (uint32_t x = 0; x < W; x++) {
                    bool in = x >= 3 && x < 10 && y >= 2 && y < 6;

                    elem_get(&t, x, y, got);
                    ck_assert_msg(!memcmp(got, in ? want : bg, bpp),
                                  "format 0x%x %s (%u,%u): %02x%02x%02x%02x"
                                  " want %02x%02x%02x%02x", f->id,
                                  lin ? "pitch" : "blocklinear", x, y,
                                  got[0], got[1], got[2], got[3],
                                  (in ? want : bg)[0], (in ? want : bg)[1],
                                  (in ? want : bg)[2], (in ? want : bg)[3]);
                }
            }
        }
    }
}
END_TEST

/* R/G/B/A bits, another RT, a layer, clip rectangles */
START_TEST(test_rop_clear_partial)
{
    static const float c[4] = { 1.0f, 0.0f, 1.0f, 0.0f };
    TSurf t0 = tsurf(RT_VA, 4, false, W, H, 0x10);
    TSurf t1 = tsurf(RT1_VA + 0x10000, 4, false, W, H, 0x10);
    uint8_t e[4];

    fill_surf(&t0, W, H, 0x55);
    fill_surf(&t1, W, H, 0x55);
    gr_wr32(RT1_VA, 0x55555555);
    set_rt(0, RT_VA, 0xd5, false, W, H, 0x10);
    set_rt(1, RT1_VA, 0xd5, false, W, H, 0x10);
    m(0x121c, (076543210 << 4) | 2);
    clear_color(c, NULL, false);
    m(NV50_3D_CLEAR_BUFFERS, 0x04 | 0x20);          /* R, A of RT 0 */
    /* RT 1, layer 1 (layer stride 0x10000), G only, in a clip rect */
    m(0x194c, 1);                                   /* CLIP_RECTS_EN */
    m(0x1950, 0);                                   /* INSIDE_ANY */
    m(0x0d00, 2 | 4 << 16);
    m(0x0d04, 1 | 3 << 16);
    m(NV50_3D_CLEAR_BUFFERS, 0x08 | 1 << 6 | 1 << 10);
    ck_assert_uint_eq(rd32(INTR), 0);
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            bool in = x >= 2 && x < 4 && y >= 1 && y < 3;

            elem_get(&t0, x, y, e);
            ck_assert_uint_eq(e[0], 0xff);
            ck_assert_uint_eq(e[1], 0x55);
            ck_assert_uint_eq(e[2], 0x55);
            ck_assert_uint_eq(e[3], 0x00);
            elem_get(&t1, x, y, e);
            ck_assert_uint_eq(e[0], 0x55);
            ck_assert_uint_eq(e[1], in ? 0x00 : 0x55);
        }
    }
    /* layer 0 of RT 1 untouched */
    ck_assert_uint_eq(gr_rd32(RT1_VA), 0x55555555);
}
END_TEST

/* A 4-sample surface: every sample of the pixels cleared */
START_TEST(test_rop_clear_msaa)
{
    TSurf t = tsurf(RT_VA, 4, false, W * 2, H * 2, 0x10);
    static const float c[4] = { 0, 0, 0, 1 };
    uint8_t e[4];

    fill_surf(&t, W * 2, H * 2, 0x11);
    set_rt(0, RT_VA, 0xcf, false, W * 2, H * 2, 0x10);
    m(0x121c, (076543210 << 4) | 1);
    m(0x15d0, 2);                                   /* MULTISAMPLE_MODE */
    m(0x0ff4, 1 | 2 << 16);                         /* pixels 1..2 */
    m(0x0ff8, 0 | 1 << 16);                         /* row 0 */
    clear_color(c, NULL, false);
    m(NV50_3D_CLEAR_BUFFERS, 0x3c);
    for (uint32_t y = 0; y < H * 2; y++) {
        for (uint32_t x = 0; x < W * 2; x++) {
            bool in = x >= 2 && x < 6 && y < 2;

            elem_get(&t, x, y, e);
            ck_assert_uint_eq(le32(e), in ? 0xff000000 : 0x11111111);
        }
    }
}
END_TEST

/* Every zeta format: Z alone, S alone, in a screen scissor */
START_TEST(test_rop_clear_zeta_formats)
{
    for (unsigned zi = 0; zi < G_N_ELEMENTS(tzetas); zi++) {
        const TZeta *z = &tzetas[zi];
        TSurf t = tsurf(ZETA_VA, z->bpp, false, W, H, 0x10);
        uint8_t got[8], want[8];

        fill_surf(&t, W, H, 0xa5);
        set_zeta(ZETA_VA, z->id, W, H, 0x10);
        m(0x121c, 0);
        m(0x0ff4, 5 | 6 << 16);
        m(0x0ff8, 1 | 5 << 16);
        mf(0x0d90, 0.5f);                           /* CLEAR_DEPTH */
        m(0x0da0, 0x5a);                            /* CLEAR_STENCIL */
        m(NV50_3D_CLEAR_BUFFERS, 0x1);
        m(NV50_3D_CLEAR_BUFFERS, 0x2);
        ck_assert_uint_eq(rd32(INTR), 0);
        for (uint32_t y = 0; y < H; y++) {
            for (uint32_t x = 0; x < W; x++) {
                bool in = x >= 5 && x < 11 && y >= 1 && y < 6;

                memset(want, 0xa5, sizeof(want));
                if (in) {
                    ref_zset(z, want, ref_zenc(z, 0.5f));
                    if (z->sbyte >= 0) {
                        want[z->sbyte] = 0x5a;
                    }
                }
                elem_get(&t, x, y, got);
                ck_assert_msg(!memcmp(got, want, z->bpp), "zeta 0x%x (%u,%u)",
                              z->id, x, y);
            }
        }
    }
}
END_TEST

/*
 * A clear's rows are filled without loading them first (rop-mem.c's
 * chunk_get_fill), yet a fault still ends the clear before anything is
 * written back, whichever chunk the write-back reaches first.  A
 * pitch-linear target of rows of 256 bytes whose first 256 are the last
 * 64 KiB the VM maps and whose last 8 are past it, then one whose first
 * 8 are below the first mapped byte and whose next 56 are mapped (the
 * 14 KiB there, unused by these direct calls): each traps, and the
 * mapped rows keep their bytes.  Its mapped rows alone are cleared, no
 * trap.
 */
START_TEST(test_rop_clear_fault_unwritten)
{
    static const float c[4] = { 1.0f, 0.0f, 1.0f, 0.0f };
    static const unsigned rows[2] = { 256, 56 };
    const uint64_t va[2] = { GR_VA_BASE + (64u << 20) - 256 * 256,
                             GR_VA_BASE - 8 * 256 };
    uint8_t e[4];

    m(0x121c, (076543210 << 4) | 1);
    m(0x0c00, 64 << 16);                        /* the viewport, screen */
    m(0x0c04, 264 << 16);
    m(0x0ff4, 64 << 16);
    m(0x0ff8, 264 << 16);
    clear_color(c, NULL, false);
    for (unsigned n = 0; n < 4; n++) {
        bool all = n % 2 == 0;
        unsigned h = rows[n / 2];
        uint64_t at = va[n / 2] + (n / 2 ? 8 * 256 : 0);
        TSurf t = tsurf(at, 4, true, 64, h, 0);

        fill_surf(&t, 64, h, 0x5a);
        set_rt(0, all ? at : va[n / 2], 0xd5, true, 64, all ? h : h + 8, 0);
        m(NV50_3D_CLEAR_BUFFERS, 0x3c);
        if (all) {
            ck_assert_uint_eq(rd32(INTR), 0);
        } else {
            ck_assert_uint_ne(rd32(INTR) & NV50_GR_INTR_TRAP, 0);
            wr32(INTR, rd32(INTR));
        }
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < 64; x++) {
                elem_get(&t, x, y, e);
                ck_assert_msg(le32(e) == (all ? 0x00ff00ffu : 0x5a5a5a5au),
                              "target at 0x%" PRIx64 ", %s (%u, %u): %08x",
                              va[n / 2], all ? "mapped rows" : "all rows", x,
                              y, le32(e));
            }
        }
    }
}
END_TEST

/* Bounds: scissor, screen scissor, the surfaces; a fault traps */
START_TEST(test_rop_bounds_fault)
{
    NV50GrCall c = call();
    RasterParams p = { 0 };
    NV50Rop *r;

    set_rt(0, RT_VA, 0xcf, false, 64, 32, 0x10);
    m(0x121c, (076543210 << 4) | 1);
    m(0x0ff4, 2 << 16);
    m(0x0ff8, 0);
    m(0x0e04, 1 | 40 << 16);
    m(0x0e08, 3 | 100 << 16);
    r = nv50_rop_begin(&c, state());
    nv50_rop_bounds(r, &p);
    nv50_rop_end(r);
    ck_assert_int_eq(p.x0, 1);
    ck_assert_int_eq(p.x1, 2);
    ck_assert_int_eq(p.y0, 3);
    ck_assert_int_eq(p.y1, 32);
    ck_assert_ptr_null(p.samples);
    /* an unmapped render target: PROP trap, once */
    set_rt(0, 0x7000000000ull, 0xcf, false, 64, 32, 0x10);
    m(0x0ff4, 0);
    m(0x0e04, 8192u << 16);
    m(NV50_3D_CLEAR_BUFFERS, 0x3c);
    ck_assert_uint_ne(rd32(INTR) & NV50_GR_INTR_TRAP, 0);
}
END_TEST

Suite *nv50_rop_suite(void)
{
    Suite *su = suite_create("nv50_rop");
    TCase *tc = rop_rig_tcase("rop");

    tcase_add_test(tc, test_rop_clear_rt_formats);
    tcase_add_test(tc, test_rop_clear_partial);
    tcase_add_test(tc, test_rop_clear_msaa);
    tcase_add_test(tc, test_rop_clear_zeta_formats);
    tcase_add_test(tc, test_rop_bounds_fault);
    tcase_add_test(tc, test_rop_clear_fault_unwritten);
    suite_add_tcase(su, tc);
    return su;
}
