/*
 * Warp interpreter: memory spaces, $a addressing, the compute launch
 * convention, g[] atomics, faults, 3D inputs and outputs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "test-tesla-exec.h"

#define NONE ((TeslaOperand){ 0 })

static void cp_init(TProg *p, unsigned threads)
{
    tp_init(p, TESLA_G84, TESLA_PROG_CP);
    p->launch.block[0] = threads;
}

/* The nv50 compute launch: $r0 and the s[] header. */
START_TEST(compute_launch)
{
    TProg p;
    static const uint8_t user[4] = { 0x11, 0x22, 0x33, 0x44 };

    tp_init(&p, TESLA_G84, TESLA_PROG_CP);
    p.launch.block[0] = 4;
    p.launch.block[1] = 3;
    p.launch.block[2] = 2;
    p.launch.grid[0] = 2;
    p.launch.grid[1] = 3;
    p.launch.grid[2] = 1;
    p.launch.shared_init = user;
    p.launch.shared_init_bytes = 4;
    p.env.shared_bytes = 0x40;
    for (unsigned k = 0; k < 9; k++) {
        TP(&p, TOP_LD, R(1 + k), MEM(TSPACE_S, 0, TTYPE_U16, 0, 2 + 2 * k));
    }
    TP(&p, TOP_LD, R(10), MEM(TSPACE_S, 0, TTYPE_B32, 0, 0x14));
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(tesla_run_threads(p.run), 24 * 6);
    for (unsigned b = 0; b < 6; b++) {
        for (unsigned tid = 0; tid < 24; tid++) {
            unsigned t = b * 24 + tid;
            unsigned x = tid % 4, y = (tid / 4) % 3, z = tid / 12;
            uint32_t want[] = { 4, 3, 2, 2, 3, b % 2, b / 2, 1, 0 };

            ck_assert_uint_eq(tp_reg(&p, t, 0), x | y << 16 | z << 26);
            for (unsigned k = 0; k < 9; k++) {
                ck_assert_uint_eq(tp_reg(&p, t, 1 + k), want[k]);
            }
            ck_assert_uint_eq(tp_reg(&p, t, 10), 0x44332211);
        }
    }
    tp_done(&p);
}
END_TEST

/* c[] with $a and post-increment; sub-word loads. */
START_TEST(const_postinc)
{
    TProg p;
    uint8_t cbuf[16] = { 10, 0, 0, 0, 20, 0, 0, 0, 0xfe, 0xff, 0x80, 0x7f };
    TeslaInsn *i;

    cp_init(&p, 32);
    p.env.c[3].data = cbuf;
    p.env.c[3].size = sizeof(cbuf);
    i = TP(&p, TOP_LD, R(1), MEM(TSPACE_C, 3, TTYPE_B32, 1, 4));
    i->src[0].postinc = 1;
    i = TP(&p, TOP_LD, R(2), MEM(TSPACE_C, 3, TTYPE_B32, 1, 4));
    i->src[0].postinc = 1;
    TP(&p, TOP_MOV_FROM_A, R(3), AREG(1));
    TP(&p, TOP_LD, R(4), MEM(TSPACE_C, 3, TTYPE_S16, 0, 8));
    TP(&p, TOP_LD, R(5), MEM(TSPACE_C, 3, TTYPE_U16, 0, 8));
    TP(&p, TOP_LD, R(6), MEM(TSPACE_C, 3, TTYPE_S8, 0, 11));
    TP(&p, TOP_LD, R(7), MEM(TSPACE_C, 3, TTYPE_U8, 0, 10));
    /* beyond the bound buffer: 0 */
    TP(&p, TOP_LD, R(8), MEM(TSPACE_C, 3, TTYPE_B32, 0, 0x100));
    /* $a wraps at 16 bits */
    TP(&p, TOP_ADD_A, AREG(2), AREG(0), IMM(0xfffc));
    TP(&p, TOP_LD, R(9), MEM(TSPACE_C, 3, TTYPE_B32, 2, 8));
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(tp_reg(&p, 0, 1), 10);
    ck_assert_uint_eq(tp_reg(&p, 0, 2), 20);
    ck_assert_uint_eq(tp_reg(&p, 31, 3), 8);
    ck_assert_uint_eq(tp_reg(&p, 0, 4), 0xfffffffe);
    ck_assert_uint_eq(tp_reg(&p, 0, 5), 0xfffe);
    ck_assert_uint_eq(tp_reg(&p, 0, 6), 0x7f);
    ck_assert_uint_eq(tp_reg(&p, 0, 7), 0x80);
    ck_assert_uint_eq(tp_reg(&p, 0, 8), 0);
    ck_assert_uint_eq(tp_reg(&p, 0, 9), 20);
    tp_done(&p);
}
END_TEST

/* g[]: 8..128-bit loads and stores, l[] per thread. */
START_TEST(global_local)
{
    TProg p;
    uint8_t g[0x400] = { 0 };
    TeslaInsn *i;

    cp_init(&p, 32);
    p.env.g[1].data = g;
    p.env.g[1].size = sizeof(g);
    p.env.local_bytes = 0x20;
    TP(&p, TOP_SHL, R(1), R(0), IMM(4));                /* r1 = tid * 16 */
    TP(&p, TOP_IADD, R(4), R(0), IMM(0x100));
    TP(&p, TOP_IADD, R(5), R(0), IMM(0x200));
    TP(&p, TOP_IADD, R(6), R(0), IMM(0x300));
    TP(&p, TOP_IADD, R(7), R(0), IMM(0x400));
    TP(&p, TOP_ST, GMEM(1, TTYPE_B128, 1), Q(4));
    TP(&p, TOP_LD, D(8), GMEM(1, TTYPE_B64, 1));
    TP(&p, TOP_LD, R(10), GMEM(1, TTYPE_S8, 1));
    i = TP(&p, TOP_ST, MEM(TSPACE_L, 0, TTYPE_B32, 0, 0x1c), R(0));
    TP(&p, TOP_LD, R(11), MEM(TSPACE_L, 0, TTYPE_B32, 0, 0x1c));
    (void)i;
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 32; t++) {
        uint32_t w0 = g[t * 16] | g[t * 16 + 1] << 8 | g[t * 16 + 2] << 16 |
                      (uint32_t)g[t * 16 + 3] << 24;

        ck_assert_uint_eq(w0, t + 0x100);
        ck_assert_uint_eq(g[t * 16 + 12], (t + 0x400) & 0xff);
        ck_assert_uint_eq(tp_reg(&p, t, 8), t + 0x100);
        ck_assert_uint_eq(tp_reg(&p, t, 9), t + 0x200);
        ck_assert_uint_eq(tp_reg(&p, t, 10), (uint32_t)(int8_t)t);
        ck_assert_uint_eq(tp_reg(&p, t, 11), t);
    }
    tp_done(&p);
}
END_TEST

START_TEST(faults)
{
    TProg p;
    uint8_t g[0x100];
    const TeslaResult *r;

    /* g[] beyond its size */
    cp_init(&p, 32);
    p.env.g[0].data = g;
    p.env.g[0].size = sizeof(g);
    TP(&p, TOP_SHL, R(1), R(0), IMM(4));                /* tid * 16 */
    TP(&p, TOP_LD, R(2), GMEM(0, TTYPE_B32, 1));
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    r = tesla_run_result(p.run);
    ck_assert_int_eq(r->error, TESLA_ERR_MEMORY_FAULT);
    ck_assert_uint_eq(r->pc, 8);
    ck_assert(strstr(r->msg, "g0[0x100]"));
    tp_done(&p);

    /* an unbound g[] space */
    cp_init(&p, 32);
    TP(&p, TOP_ST, GMEM(5, TTYPE_B32, 0), R(0));
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_MEMORY_FAULT);
    tp_done(&p);

    /* s[] and l[] beyond their sizes */
    cp_init(&p, 32);
    p.env.shared_bytes = 0x40;
    TP(&p, TOP_LD, R(1), MEM(TSPACE_S, 0, TTYPE_B32, 0, 0x40));
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_MEMORY_FAULT);
    tp_done(&p);

    cp_init(&p, 32);
    TP(&p, TOP_ST, MEM(TSPACE_L, 0, TTYPE_B32, 0, 0), R(0));
    tp_exit(&p);
    ck_assert_int_eq(tp_run(&p), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(p.run)->error, TESLA_ERR_MEMORY_FAULT);
    tp_done(&p);

    /* inactive lanes do not fault: only tid < 16 reads tid * 16 */
    cp_init(&p, 32);
    p.env.g[0].data = g;
    p.env.g[0].size = sizeof(g);
    TP(&p, TOP_SHL, R(1), R(0), IMM(4));
    {
        TeslaInsn *i = TP(&p, TOP_IADD,
                          (TeslaOperand){ .kind = TOPND_DISCARD },
                          R(0), IMM(16));

        i->addop = TADDOP_SUB;
        i->cdst = 0;
        i = TP(&p, TOP_LD, R(2), GMEM(0, TTYPE_B32, 1));
        i->pred = 0x01;         /* l: tid < 16 */
    }
    tp_exit(&p);
    tp_run_ok(&p);
    tp_done(&p);
}
END_TEST

/* Atomics: every lane adds to one word; lanes are applied in order. */
START_TEST(atomics)
{
    TProg p;
    uint32_t g[16] = { 0 };
    TeslaInsn *i;

    cp_init(&p, 32);
    g[1] = 5;
    g[2] = 0x100;
    p.env.g[0].data = (uint8_t *)g;
    p.env.g[0].size = sizeof(g);
    TP(&p, TOP_MOV, R(1), IMM(0));
    TP(&p, TOP_MOV, R(2), IMM(1));
    i = TP(&p, TOP_ATOM, R(3), GMEM(0, TTYPE_U32, 1), R(2));
    i->atomop = TATOM_ADD;
    /* inc with wrap at 5 on g[1] (starts at 5 -> 0, 1, ...) */
    TP(&p, TOP_MOV, R(4), IMM(4));
    TP(&p, TOP_MOV, R(5), IMM(5));
    i = TP(&p, TOP_ATOM, R(6), GMEM(0, TTYPE_U32, 4), R(5));
    i->atomop = TATOM_INC;
    /* cas on g[2]: only the lane that sees 0x100 + tid... lane 0 wins */
    TP(&p, TOP_MOV, R(7), IMM(8));
    TP(&p, TOP_MOV, R(8), IMM(0x100));
    i = TP(&p, TOP_ATOM, R(9), GMEM(0, TTYPE_B32, 7), R(8), R(0));
    i->atomop = TATOM_CAS;
    /* red max s32 on g[3] */
    TP(&p, TOP_MOV, R(10), IMM(12));
    i = TP(&p, TOP_IADD, R(11), R(0), IMM(-16));
    i = TP(&p, TOP_RED, (TeslaOperand){ 0 }, GMEM(0, TTYPE_S32, 10), R(11));
    i->atomop = TATOM_MAX;
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(g[0], 32);
    ck_assert_uint_eq(g[2], 0);
    ck_assert_uint_eq(g[3], 15);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 3), t);
        ck_assert_uint_eq(tp_reg(&p, t, 6), t == 0 ? 5 : (t - 1) % 6);
        ck_assert_uint_eq(tp_reg(&p, t, 9), t == 0 ? 0x100 : 0);
    }
    tp_done(&p);
}
END_TEST

/* G200: 64-bit atomic add, vote, s[] lock. */
START_TEST(g200_features)
{
    TProg p;
    uint32_t g[4] = { 0xffffffff, 0, 0, 0 };
    TeslaInsn *i;

    tp_init(&p, TESLA_G200, TESLA_PROG_CP);
    p.launch.block[0] = 32;
    p.env.shared_bytes = 0x40;
    p.env.g[0].data = (uint8_t *)g;
    p.env.g[0].size = sizeof(g);
    TP(&p, TOP_MOV, R(1), IMM(0));
    TP(&p, TOP_MOV, R(2), IMM(1));
    TP(&p, TOP_MOV, R(3), IMM(0));
    i = TP(&p, TOP_ATOM, D(4), GMEM(0, TTYPE_U64, 1), D(2));
    i->atomop = TATOM_ADD;
    /* vote: $c1 = any(tid == 5), $c2 = all(tid == 5) */
    i = TP(&p, TOP_IADD, (TeslaOperand){ .kind = TOPND_DISCARD }, R(0),
           IMM(5));
    i->addop = TADDOP_SUB;
    i->cdst = 0;
    i = TP0(&p, TOP_VOTE);
    i->pred = 0x02;
    i->cdst = 1;
    i = TP0(&p, TOP_VOTE);
    i->pred = 0x02;
    i->cdst = 2;
    i->mods |= TMOD_VOTE_ALL;
    i = TP(&p, TOP_MOV_FROM_C, R(6));
    i->csrc = 1;
    i = TP(&p, TOP_MOV_FROM_C, R(7));
    i->csrc = 2;
    /* ld lock: only lane 0 gets the word */
    i = TP(&p, TOP_LD_LOCK, R(8), MEM(TSPACE_S, 0, TTYPE_B32, 0, 0x20));
    i->cdst = 3;
    i = TP(&p, TOP_MOV_FROM_C, R(9));
    i->csrc = 3;
    tp_exit(&p);
    tp_run_ok(&p);
    ck_assert_uint_eq(g[0], 31);
    ck_assert_uint_eq(g[1], 1);
    ck_assert_uint_eq(tp_reg(&p, 0, 4), 0xffffffff);
    ck_assert_uint_eq(tp_reg(&p, 0, 5), 0);
    ck_assert_uint_eq(tp_reg(&p, 1, 4), 0);
    ck_assert_uint_eq(tp_reg(&p, 1, 5), 1);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(tp_reg(&p, t, 6), 2);     /* true */
        ck_assert_uint_eq(tp_reg(&p, t, 7), 1);     /* false */
        ck_assert_uint_eq(tp_reg(&p, t, 9), t == 0 ? 2 : 1);
    }
    tp_done(&p);
}
END_TEST

/* Vertex program: a[] inputs (thread-major, then word-major with a
   stride past the thread count), o[] outputs (also via a long dst). */
START_TEST(vertex_io)
{
    TProg p;
    uint32_t in[11 * 2];
    TeslaInsn *i;

    tp_init(&p, TESLA_G80, TESLA_PROG_VP);
    p.launch.threads = 8;
    for (unsigned t = 0; t < 8; t++) {
        in[_i ? t : t * 2] = t * 3;
        in[_i ? 11 + t : t * 2 + 1] = 0x1000 + t;
    }
    p.launch.in = in;
    p.launch.in_words = 2;
    p.launch.in_stride = _i ? 11 : 0;
    p.launch.out_words = 4;
    TP(&p, TOP_LD, R(1), MEM(TSPACE_A, 0, TTYPE_B32, 0, 4));
    TP(&p, TOP_ST, MEM(TSPACE_O, 0, TTYPE_B32, 0, 8), R(1));
    i = TP(&p, TOP_IADD, MEM(TSPACE_O, 0, TTYPE_B32, 0, 4), R(1), IMM(1));
    (void)i;
    TP(&p, TOP_LD, R(2), MEM(TSPACE_A, 0, TTYPE_B32, 0, 0x40));
    tp_exit(&p);
    tp_run_ok(&p);
    for (unsigned t = 0; t < 8; t++) {
        const uint32_t *o = tesla_run_out(p.run, t);

        ck_assert_ptr_nonnull(o);
        ck_assert_uint_eq(o[0], 0);
        ck_assert_uint_eq(o[1], 0x1001 + t);
        ck_assert_uint_eq(o[2], 0x1000 + t);
        ck_assert_uint_eq(tp_reg(&p, t, 2), 0);
    }
    tp_done(&p);
}
END_TEST

/* Geometry: emit snapshots o[] (and clears it), restart marks a new
   primitive. */
START_TEST(geometry_emit)
{
    TProg p;
    const TeslaEmitRec *e;
    unsigned n;

    tp_init(&p, TESLA_G80, TESLA_PROG_GP);
    p.launch.threads = 2;
    p.launch.out_words = 2;
    TP(&p, TOP_ST, MEM(TSPACE_O, 0, TTYPE_B32, 0, 0), R(0));
    TP0(&p, TOP_EMIT);
    TP(&p, TOP_MOV, R(1), IMM(7));
    TP(&p, TOP_ST, MEM(TSPACE_O, 0, TTYPE_B32, 0, 4), R(1));
    TP0(&p, TOP_RESTART);
    TP0(&p, TOP_EMIT);
    tp_exit(&p);
    tp_run_ok(&p);
    e = tesla_run_emits(p.run, &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(e[0].thread, 0);
    ck_assert_uint_eq(e[1].thread, 1);
    ck_assert(!e[0].restart);
    ck_assert_uint_eq(e[2].thread, 0);
    ck_assert(e[2].restart);
    ck_assert_uint_eq(e[2].out[0], 0);
    ck_assert_uint_eq(e[2].out[1], 7);
    tp_done(&p);
}
END_TEST

Suite *tesla_exec_mem_suite(void)
{
    Suite *s = suite_create("tesla_exec_mem");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, compute_launch);
    tcase_add_test(tc, const_postinc);
    tcase_add_test(tc, global_local);
    tcase_add_test(tc, faults);
    tcase_add_test(tc, atomics);
    tcase_add_test(tc, g200_features);
    tcase_add_loop_test(tc, vertex_io, 0, 2);
    tcase_add_test(tc, geometry_emit);
    suite_add_tcase(s, tc);
    return s;
}
