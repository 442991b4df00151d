/*
 * The warp interpreter's fast loop (target/tesla/warp-fast.h) against the
 * general path and the exact lane arithmetic: b32 loads and stores of
 * g[] s[] l[] (whole warps at consecutive words, permuted lanes, partial
 * warps, faults), and f32 add/mul/mad on inputs around the flush range,
 * where the fast loop relies on the host's denormal handling; a
 * fragment program's interp (alone and times a register) and rcp; the
 * fast loop's rcp over a warp's lanes against the scalar SFU model (every
 * significand of two exponents, every exponent, the special inputs); a
 * decode cache kept across runs; a VP's a[] loads and o[] moves.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include <check.h>
#include "gemu/bitops.h"
#include "target/tesla.h"
#include "target/tesla/exec.h"
#include "target/tesla/fpu.h"
#include "target/tesla/warp.h"

typedef struct FastRun {
    GArray *words;
    TeslaEnv env;
    TeslaLaunch launch;
    TeslaRun *run;
} FastRun;

static void fast_start(FastRun *fr, const char *src, unsigned block,
                       unsigned grid)
{
    char *err = NULL;
    bool ok;

    fr->words = g_array_new(false, false, sizeof(uint32_t));
    ok = tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, fr->words, &err);
    ck_assert_msg(ok, "assemble: %s", err ? err : "?");
    fr->env.variant = TESLA_G84;
    fr->env.prog = TESLA_PROG_CP;
    fr->env.code = (const uint32_t *)fr->words->data;
    fr->env.code_words = fr->words->len;
    fr->env.gprs = 16;
    fr->env.insn_budget = 1000000;
    fr->launch.block[0] = block;
    fr->launch.grid[0] = grid;
    fr->launch.keep_regs = true;
}

static TeslaRunStatus fast_exec(FastRun *fr)
{
    char *err = NULL;

    fr->run = tesla_run_new(&fr->env, &fr->launch, &err);
    ck_assert_msg(fr->run, "launch: %s", err ? err : "?");
    return tesla_run_exec(fr->run);
}

static void fast_end(FastRun *fr)
{
    tesla_run_free(fr->run);
    g_array_free(fr->words, true);
}

static const char mem_g_src[] =
    "shl b32 $r1 $r0 0x2\n"
    "xor b32 $r2 $r0 0x1\n"
    "shl b32 $r2 $r2 0x2\n"
    "st b32 g0[$r1] $r0\n"          /* consecutive words */
    "ld b32 $r3 g0[$r2]\n"          /* permuted */
    "st b32 g1[$r2] $r3\n"
    "ld b32 $r4 g1[$r1]\n"
    "exit nop\n";

/* Whole and partial warps, consecutive and permuted addresses. */
START_TEST(fast_mem_g)
{
    static const unsigned blocks[] = { 32, 64, 20, 1 };
    unsigned n = blocks[_i];
    g_autofree uint32_t *g0 = g_new0(uint32_t, 64);
    g_autofree uint32_t *g1 = g_new0(uint32_t, 64);
    FastRun fr = { 0 };

    fast_start(&fr, mem_g_src, n, 1);
    fr.env.g[0].data = (uint8_t *)g0;
    fr.env.g[0].size = 64 * 4;
    fr.env.g[1].data = (uint8_t *)g1;
    fr.env.g[1].size = 64 * 4;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    for (unsigned t = 0; t < n; t++) {
        uint32_t p = t ^ 1;

        ck_assert_uint_eq(GUINT32_FROM_LE(g0[t]), t);
        if (p < n) {
            ck_assert_uint_eq(tesla_run_reg(fr.run, t, 3), p);
            ck_assert_uint_eq(GUINT32_FROM_LE(g1[p]), p);
            ck_assert_uint_eq(tesla_run_reg(fr.run, t, 4), t);
        }
    }
    fast_end(&fr);
}
END_TEST

/* A lane out of range faults at the instruction, as the general path
   reports it; a load writes no register. */
START_TEST(fast_mem_g_fault)
{
    g_autofree uint32_t *g0 = g_new0(uint32_t, 16);
    FastRun fr = { 0 };
    const TeslaResult *res;

    fast_start(&fr,
               "shl b32 $r1 $r0 0x2\n"
               "mov b32 $r5 0x1234\n"
               "ld b32 $r5 g0[$r1]\n"
               "exit nop\n", 32, 1);
    fr.env.g[0].data = (uint8_t *)g0;
    fr.env.g[0].size = 16 * 4;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_TRAP);
    res = tesla_run_result(fr.run);
    ck_assert_int_eq(res->error, TESLA_ERR_MEMORY_FAULT);
    ck_assert_uint_eq(res->pc, 0x10);
    fast_end(&fr);

    memset(&fr, 0, sizeof(fr));
    fast_start(&fr,
               "shl b32 $r1 $r0 0x2\n"
               "st b32 g0[$r1] $r0\n"
               "exit nop\n", 32, 1);
    fr.env.g[0].data = (uint8_t *)g0;
    fr.env.g[0].size = 16 * 4;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_TRAP);
    res = tesla_run_result(fr.run);
    ck_assert_int_eq(res->error, TESLA_ERR_MEMORY_FAULT);
    ck_assert_uint_eq(res->pc, 0x8);
    fast_end(&fr);
}
END_TEST

static const char mem_sl_src[] =
    "shl $a1 $r0 0x2\n"
    "st b32 s[$a1+0x14] $r0\n"
    "ld $r2 b32 s[$a1+0x14]\n"
    "st b32 l[0x10] $r0\n"
    "ld b32 $r3 l[0x10]\n"
    "add b32 $r4 $r2 $r3\n"
    "ld $r5 b32 s[0xc]\n"           /* the same word for every lane */
    "exit nop\n";

START_TEST(fast_mem_s_l)
{
    static const unsigned blocks[] = { 32, 48, 7 };
    unsigned n = blocks[_i];
    FastRun fr = { 0 };
    const uint8_t *s;
    uint32_t size;

    fast_start(&fr, mem_sl_src, n, 2);
    fr.env.shared_bytes = 0x14 + 4 * n;
    fr.env.local_bytes = 0x20;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    for (unsigned t = 0; t < 2 * n; t++) {
        ck_assert_uint_eq(tesla_run_reg(fr.run, t, 2), t % n);
        ck_assert_uint_eq(tesla_run_reg(fr.run, t, 3), t % n);
        ck_assert_uint_eq(tesla_run_reg(fr.run, t, 4), 2 * (t % n));
        /* s[0xc]: block index x (16 bits), block index y */
        ck_assert_uint_eq(tesla_run_reg(fr.run, t, 5), t / n);
    }
    s = tesla_run_shared(fr.run, &size);
    ck_assert_uint_eq(size, 0x14 + 4 * n);
    for (unsigned t = 0; t < n; t++) {
        ck_assert_uint_eq(s[0x14 + 4 * t], t);
    }
    fast_end(&fr);

    /* s[] too small for the last lanes: a fault */
    memset(&fr, 0, sizeof(fr));
    fast_start(&fr, mem_sl_src, n, 1);
    fr.env.shared_bytes = 0x14 + 4 * (n - 1);
    fr.env.local_bytes = 0x20;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_TRAP);
    ck_assert_int_eq(tesla_run_result(fr.run)->error,
                     TESLA_ERR_MEMORY_FAULT);
    ck_assert_uint_eq(tesla_run_result(fr.run)->pc, 0x8);
    fast_end(&fr);
}
END_TEST

/* ---- f32 around the flush range ---- */

static uint64_t frng = 0x0123456789abcdefull;

static uint32_t frand(void)
{
    frng ^= frng << 13;
    frng ^= frng >> 7;
    frng ^= frng << 17;
    return (uint32_t)(frng >> 20);
}

/* Mostly normal numbers (the fast cases), with every kind of odd one. */
static uint32_t f_input(void)
{
    uint32_t sign = frand() & 0x80000000u, mant = frand() & 0x7fffff;

    switch (frand() % 10) {
    case 0:
        return sign | mant;                             /* denormal */
    case 1:
        return sign | (1 + frand() % 40) << 23 | mant;  /* tiny */
    case 2:
        return sign | (frand() & 7 ? 0x7f800000u : 0x7f800000u | mant);
    case 3:
        return sign;                                    /* zero */
    case 4:
        return sign | (200 + frand() % 54) << 23 | mant; /* huge */
    default:
        return sign | (100 + frand() % 56) << 23 | mant;
    }
}

static const char f32_src[] =
    "shl b32 $r1 $r0 0x2\n"
    "ld b32 $r2 g0[$r1]\n"
    "ld b32 $r3 g1[$r1]\n"
    "ld b32 $r4 g2[$r1]\n"
    "add f32 $r5 $r2 $r3\n"
    "mul f32 $r6 $r2 $r3\n"
    "mov b32 $r7 $r4\n"
    "add f32 $r7 (mul $r2 $r3) $r7\n"
    "add f32 $r8 neg $r2 $r3\n"
    "mov b32 $r15 $r15\n"          /* short filler before a long one */
    "exit nop\n";

START_TEST(fast_f32_flush)
{
    enum { N = 1024 };
    g_autofree uint32_t *in0 = g_new0(uint32_t, N);
    g_autofree uint32_t *in1 = g_new0(uint32_t, N);
    g_autofree uint32_t *in2 = g_new0(uint32_t, N);

    for (unsigned round = 0; round < 8; round++) {
        FastRun fr = { 0 };

        for (unsigned t = 0; t < N; t++) {
            uint32_t a = f_input(), b = f_input();
            uint32_t ea = (a >> 23) & 0xff;

            if (round & 1) {
                /* a whole warp of normal numbers, but for one lane */
                a = (a & 0x807fffffu) | (100 + frand() % 56) << 23;
                b = (b & 0x807fffffu) | (100 + frand() % 56) << 23;
                ea = (a >> 23) & 0xff;
            }
            if ((t & 3) == 1 && ea && ea != 0xff) {
                /* a product near 2^-126 (or, for mad, near 2^-78) */
                int eb = (t & 4 ? 253 : 302) - (int)ea -
                         (int)(frand() % 3);

                if (eb > 0 && eb < 255) {
                    b = (b & 0x807fffffu) | (uint32_t)eb << 23;
                }
            }
            in0[t] = a;
            in1[t] = b;
            in2[t] = (round & 1) && (t % 32) != 5 ?
                     (f_input() & 0x807fffffu) | (100 + frand() % 56) << 23 :
                     f_input();
        }
        fast_start(&fr, f32_src, N, 1);
        fr.env.g[0].data = (uint8_t *)in0;
        fr.env.g[0].size = N * 4;
        fr.env.g[1].data = (uint8_t *)in1;
        fr.env.g[1].size = N * 4;
        fr.env.g[2].data = (uint8_t *)in2;
        fr.env.g[2].size = N * 4;
        ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
        for (unsigned t = 0; t < N; t++) {
            uint32_t a = in0[t], b = in1[t], c = in2[t];

            ck_assert_msg(tesla_run_reg(fr.run, t, 5) ==
                          tesla_f32_add_slow(a, b, TRND_RN),
                          "add %08x %08x: %08x", a, b,
                          tesla_run_reg(fr.run, t, 5));
            ck_assert_msg(tesla_run_reg(fr.run, t, 6) ==
                          tesla_f32_mul_slow(a, b, TRND_RN, 0),
                          "mul %08x %08x", a, b);
            ck_assert_msg(tesla_run_reg(fr.run, t, 7) ==
                          tesla_f32_mad_slow(a, b, c, 0),
                          "mad %08x %08x %08x", a, b, c);
            ck_assert_msg(tesla_run_reg(fr.run, t, 8) ==
                          tesla_f32_add_slow(a ^ 0x80000000u, b, TRND_RN),
                          "add neg %08x %08x", a, b);
        }
        fast_end(&fr);
    }
}
END_TEST

static const char fp_src[] =
    "interp $r0 v[0x0]\n"
    "interp $r1 v[0x4]\n"
    "interp $r2 v[0x8] $r1\n"
    "interp $r3 v[0x8] neg $r1\n"
    "interp $r4 v[0xc]\n"            /* past the input words: 0 */
    "rcp f32 $r5 $r0\n"
    "rcp f32 $r6 neg $r1\n"
    "rcp f32 $r7 abs $r0\n"
    "exit nop\n";

/*
 * interp and rcp of a fragment program (a whole warp and a partial one)
 * against the input words, the exact product and the SFU's rcp; odd
 * loops with the words word-major (TeslaLaunch.in_stride).
 */
START_TEST(fast_fp_interp_rcp)
{
    enum { N = 36, W = 3, S = 40 };
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    uint32_t in[N * W], wm[S * W];
    TeslaEnv env = {
        .variant = TESLA_G84, .prog = TESLA_PROG_FP, .gprs = 8,
        .insn_budget = 1000000,
    };
    TeslaLaunch launch = {
        .threads = N, .in = in, .in_words = W, .keep_regs = true,
    };
    TeslaRun *run;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_FP, fp_src, words,
                                 &err), "assemble: %s", err ? err : "?");
    env.code = (const uint32_t *)words->data;
    env.code_words = words->len;
    for (unsigned i = 0; i < N * W; i++) {
        in[i] = f_input();
        wm[(i % W) * S + i / W] = in[i];
    }
    if (_i & 1) {
        launch.in = wm;
        launch.in_stride = S;
    }
    run = tesla_run_new(&env, &launch, &err);
    ck_assert_msg(run, "launch: %s", err ? err : "?");
    ck_assert_int_eq(tesla_run_exec(run), TESLA_RUN_DONE);
    for (unsigned t = 0; t < N; t++) {
        uint32_t a = in[t * W], b = in[t * W + 1], c = in[t * W + 2];
        const uint32_t want[8] = {
            a, b, tesla_f32_mul_slow(c, b, TRND_RN, 0),
            tesla_f32_mul_slow(c, b ^ 0x80000000u, TRND_RN, 0), 0,
            tesla_sfu_rcp(a), tesla_sfu_rcp(b ^ 0x80000000u),
            tesla_sfu_rcp(a & 0x7fffffffu),
        };

        for (unsigned r = 0; r < 8; r++) {
            ck_assert_msg(tesla_run_reg(run, t, r) == want[r],
                          "thread %u $r%u: %08x, not %08x (v[] %08x %08x "
                          "%08x)", t, r, tesla_run_reg(run, t, r), want[r],
                          a, b, c);
        }
    }
    tesla_run_free(run);
    /* a stride below the thread count is refused */
    launch.in_stride = N - 1;
    g_clear_pointer(&err, g_free);
    ck_assert_ptr_null(tesla_run_new(&env, &launch, &err));
    ck_assert_ptr_nonnull(strstr(err, "stride"));
}
END_TEST

/* Lanes of @x whose fast rcp (build @avx2) differs from tesla_sfu_rcp. */
static unsigned rcp_warp_diff(bool avx2, const uint32_t *x, char *why,
                              size_t len)
{
    uint32_t res[TESLA_WARP_SIZE];
    unsigned bad = 0;

    ck_assert(tesla_fast_rcp_lanes(avx2, x, res));
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t want = tesla_sfu_rcp(x[l]);

        if (res[l] != want) {
            if (!bad++) {
                snprintf(why, len, "rcp(%08x) = %08x, not %08x", x[l],
                         res[l], want);
            }
        }
    }
    return bad;
}

/*
 * The fast loop's rcp (a warp's lanes at once, the special cases by the
 * scalar model) against tesla_sfu_rcp: all 2^23 significands of
 * exponents 127 and 252 (the last with a normal result) with both signs,
 * random ones of every exponent, and the special inputs (zeros,
 * denormals, Inf, NaN, exponents 253-254) mixed into warps of normal
 * numbers.  Loop 0: the portable build, 1: the AVX2 one (if the host
 * has it).
 */
START_TEST(fast_rcp_lanes)
{
    static const uint32_t special[] = {
        0, 0x80000000u, 1, 0x807fffffu, 0x7f800000u, 0xff800000u,
        0x7fc00000u, 0xffffffffu, 0x7f800001u, 0x7e800000u, 0x7effffffu,
        0xfe800001u, 0x7f7fffffu, 0x00800000u, 0x80ffffffu, 0x3f800000u,
    };
    const bool avx2 = _i;
    uint32_t x[TESLA_WARP_SIZE], probe[TESLA_WARP_SIZE] = { 0 };
    uint64_t seed = 0x2545f4914f6cdd1dull;
    unsigned bad = 0;
    char why[96] = "";

    if (!tesla_fast_rcp_lanes(avx2, probe, x)) {
        return;         /* no AVX2 build on this host */
    }
    for (uint32_t m = 0; m < (1u << 23); m += TESLA_WARP_SIZE) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            x[l] = (l & 1) << 31 | 127u << 23 | (m + l);
        }
        bad += rcp_warp_diff(avx2, x, why, sizeof(why));
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            x[l] = (~l & 1) << 31 | 252u << 23 | (m + l);
        }
        bad += rcp_warp_diff(avx2, x, why, sizeof(why));
    }
    for (unsigned e = 0; e < 256; e++) {
        for (unsigned i = 0; i < 64; i++) {
            for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                x[l] = (uint32_t)(seed >> 40) << 31 | e << 23 |
                       ((uint32_t)seed & 0x7fffffu);
                if (i & 1 && (seed >> 32) % 5 == 0) {
                    x[l] = special[(seed >> 36) % G_N_ELEMENTS(special)];
                }
            }
            bad += rcp_warp_diff(avx2, x, why, sizeof(why));
        }
    }
    ck_assert_msg(!bad, "%u lanes differ, first %s", bad, why);
}
END_TEST

typedef struct LiveTex {
    unsigned calls;
    uint32_t mask[4];
} LiveTex;

static void live_tex(void *opaque, const TeslaInsn *insn, uint32_t mask,
                     uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                     uint32_t out[4][TESLA_WARP_SIZE])
{
    LiveTex *lt = opaque;

    if (lt->calls < 4) {
        lt->mask[lt->calls] = mask;
    }
    lt->calls++;
}

/*
 * A fragment launch's invisible (helper) pixels: a "live" texture
 * request leaves them out, warp by warp (a whole warp, a partial one).
 */
START_TEST(fp_invisible_live)
{
    enum { N = 40 };
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    bool inv[N];
    LiveTex lt = { 0 };
    TeslaEnv env = {
        .variant = TESLA_G84, .prog = TESLA_PROG_FP, .gprs = 4,
        .insn_budget = 1000000, .tex = live_tex, .opaque = &lt,
    };
    TeslaLaunch launch = { .threads = N, .invisible = inv };
    uint32_t want[2] = { 0, 0 };
    TeslaRun *run;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_FP,
                                 "texauto live $r0:$r1:$r2:$r3 $t0 $s0 "
                                 "$r0:$r1\n"
                                 "mov b32 $r1 $r0\n"
                                 "exit nop\n", words, &err),
                  "assemble: %s", err ? err : "?");
    env.code = (const uint32_t *)words->data;
    env.code_words = words->len;
    for (unsigned t = 0; t < N; t++) {
        inv[t] = (t * 7 + _i) % 3 == 0;
        want[t / 32] |= (uint32_t)!inv[t] << (t % 32);
    }
    run = tesla_run_new(&env, &launch, &err);
    ck_assert_msg(run, "launch: %s", err ? err : "?");
    ck_assert_int_eq(tesla_run_exec(run), TESLA_RUN_DONE);
    ck_assert_uint_eq(lt.calls, 2);
    ck_assert_uint_eq(lt.mask[0], want[0]);
    ck_assert_uint_eq(lt.mask[1], want[1]);
    tesla_run_free(run);
}
END_TEST

static bool vp_trace_all(void *opaque, TeslaRun *run, TeslaWarp *w,
                         const TeslaInsn *insn)
{
    return true;
}

/*
 * A VP's a[] loads and o[] moves and stores (TFK_LD_A, TFK_MOV_O) against
 * the input words and the general path (forced by a trace hook): a whole
 * and a partial warp, an a[] word past the inputs (0), o[] words past
 * the outputs (the general path's, logged and dropped); loop 1
 * word-major inputs.
 */
START_TEST(fast_vp_io)
{
    enum { N = 40, W = 3, O = 5, S = 48 };
    static const char src[] =
        "ld b32 $r0 a[0x0]\n"
        "ld b32 $r1 a[0x4]\n"
        "ld b32 $r2 a[0x10]\n"         /* past the input words: 0 */
        "mov b32 o[0x0] $r1\n"
        "mov b32 o[0x4] $r0\n"
        "add b32 $r3 $r0 $r1\n"
        "mov b32 o[0xc] $r3\n"
        "add b32 $r2 $r2 0x5\n"
        "mov b32 o[0x8] $r2\n"
        "st b32 o[0x10] $r1\n"         /* Mesa's export form */
        "mov b32 o[0x40] $r0\n"        /* past the output words */
        "st b32 o[0x44] $r0\n"
        "exit nop\n";
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    uint32_t in[N * W], wm[S * W], got[2][N][O];
    TeslaEnv env = {
        .variant = TESLA_G84, .prog = TESLA_PROG_VP, .gprs = 4,
        .insn_budget = 1000000,
    };
    TeslaLaunch launch = {
        .threads = N, .in = in, .in_words = W, .out_words = O,
    };

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_VP, src, words,
                                 &err), "assemble: %s", err ? err : "?");
    env.code = (const uint32_t *)words->data;
    env.code_words = words->len;
    for (unsigned i = 0; i < N * W; i++) {
        in[i] = 0x1000u * i + 7;
        wm[(i % W) * S + i / W] = in[i];
    }
    if (_i) {
        launch.in = wm;
        launch.in_stride = S;
    }
    for (unsigned k = 0; k < 2; k++) {
        TeslaRun *run;

        env.trace = k ? vp_trace_all : NULL;
        run = tesla_run_new(&env, &launch, &err);
        ck_assert_msg(run, "launch: %s", err ? err : "?");
        ck_assert_int_eq(tesla_run_exec(run), TESLA_RUN_DONE);
        if (!k) {
            /* the fast loop's kinds were taken (entries by code word) */
            unsigned lda = 0, movo = 0;

            for (size_t c = 0; c < env.code_words; c++) {
                lda += run->fcache[c].kind == TFK_LD_A;
                movo += run->fcache[c].kind == TFK_MOV_O;
            }
            ck_assert_uint_eq(lda, 3);
            ck_assert_uint_eq(movo, 7);
        }
        for (unsigned t = 0; t < N; t++) {
            memcpy(got[k][t], tesla_run_out(run, t), sizeof(got[k][t]));
        }
        tesla_run_free(run);
    }
    for (unsigned t = 0; t < N; t++) {
        const uint32_t want[O] = {
            in[t * W + 1], in[t * W], 5, in[t * W] + in[t * W + 1],
            in[t * W + 1],
        };

        for (unsigned o = 0; o < O; o++) {
            ck_assert_msg(got[0][t][o] == want[o] &&
                          got[1][t][o] == want[o], "thread %u o[%u]: fast "
                          "%08x, general %08x, not %08x", t, o,
                          got[0][t][o], got[1][t][o], want[o]);
        }
    }
}
END_TEST

/*
 * ALU ops with a c[] word as their second source (TeslaFastInsn.bconst:
 * flat c[], read at run time) against the general path (a trace hook)
 * and the arithmetic: f32 mul, add with a negated c[] word, b32 add, a
 * word past the space's end (0), a full and a partial warp.
 */
START_TEST(fast_const_operand)
{
    static const char src[] =
        "add b32 $r1 $r0 0x3f800000\n"    /* 1 + tid * 2^-23 */
        "mul f32 $r2 $r1 c0[0x4]\n"
        "add f32 $r3 $r1 neg c0[0x8]\n"
        "add b32 $r4 $r0 c0[0x0]\n"
        "mul f32 $r5 $r1 c0[0x3c]\n"      /* past the space: 0 */
        "exit nop\n";
    uint32_t cb[4] = { 0x12345, f32_to_bits(1.5f), f32_to_bits(0.25f), 7 };
    uint32_t got[2][40][4];

    for (unsigned k = 0; k < 2; k++) {
        FastRun fr = { 0 };
        unsigned nconst = 0;

        fast_start(&fr, src, 40, 1);
        fr.env.c[0].data = (uint8_t *)cb;
        fr.env.c[0].size = sizeof(cb);
        fr.env.trace = k ? vp_trace_all : NULL;
        ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
        for (size_t c = 0; !k && c < fr.env.code_words; c++) {
            nconst += fr.run->fcache[c].kind != TFK_NONE &&
                      fr.run->fcache[c].bconst;
        }
        ck_assert(k || nconst == 4);     /* the four c[] forms */
        for (unsigned t = 0; t < 40; t++) {
            for (unsigned r = 0; r < 4; r++) {
                got[k][t][r] = tesla_run_reg(fr.run, t, 2 + r);
            }
        }
        fast_end(&fr);
    }
    for (unsigned t = 0; t < 40; t++) {
        /* $r0: the thread's index; $r1 a float near 1, exact below */
        float x = bits_to_f32(0x3f800000u + t);
        const uint32_t want[4] = {
            f32_to_bits(x * 1.5f), f32_to_bits(x - 0.25f), t + 0x12345, 0,
        };

        for (unsigned r = 0; r < 4; r++) {
            ck_assert_msg(got[0][t][r] == want[r] &&
                          got[1][t][r] == want[r], "thread %u $r%u: fast "
                          "%08x, general %08x, want %08x", t, 2 + r,
                          got[0][t][r], got[1][t][r], want[r]);
        }
    }
}
END_TEST

/*
 * A decode cache kept across runs (TeslaEnv.decoded): a second run of
 * the same code decodes nothing; new words at the same place, after
 * tesla_code_cache_invalidate, run as new; another gprs (which the fast
 * loop's entries depend on) starts it afresh.
 */
START_TEST(fast_code_cache)
{
    g_autofree uint32_t *g0 = g_new0(uint32_t, 32);
    TeslaCodeCache *cc = tesla_code_cache_new();
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    FastRun fr = { 0 };
    uint64_t n;

    fast_start(&fr, "shl b32 $r1 $r0 0x2\n"
                    "add b32 $r2 $r0 0x5\n"
                    "st b32 g0[$r1] $r2\n"
                    "exit nop\n", 32, 1);
    fr.env.g[0].data = (uint8_t *)g0;
    fr.env.g[0].size = 32 * 4;
    fr.env.decoded = cc;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    tesla_run_free(fr.run);
    n = tesla_code_cache_decodes(cc);
    ck_assert_uint_ge(n, 1);
    ck_assert_uint_eq(g0[31], 36);
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    tesla_run_free(fr.run);
    ck_assert_uint_eq(tesla_code_cache_decodes(cc), n);
    /* add 0x5 -> add 0x7 in place: stale without the invalidation */
    ck_assert(tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                             "shl b32 $r1 $r0 0x2\n"
                             "add b32 $r2 $r0 0x7\n"
                             "st b32 g0[$r1] $r2\n"
                             "exit nop\n", w, &err));
    ck_assert_uint_eq(w->len, fr.words->len);
    memcpy(fr.words->data, w->data, w->len * 4);
    tesla_code_cache_invalidate(cc);
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    tesla_run_free(fr.run);
    ck_assert_uint_eq(g0[31], 38);
    ck_assert_uint_gt(tesla_code_cache_decodes(cc), n);
    n = tesla_code_cache_decodes(cc);
    fr.env.gprs = 8;
    ck_assert_int_eq(fast_exec(&fr), TESLA_RUN_DONE);
    ck_assert_uint_gt(tesla_code_cache_decodes(cc), n);
    ck_assert_uint_eq(g0[31], 38);
    fast_end(&fr);
    tesla_code_cache_free(cc);
}
END_TEST

Suite *tesla_fast_suite(void)
{
    Suite *s = suite_create("tesla-fast");
    TCase *tc = tcase_create("fast");

    tcase_add_loop_test(tc, fast_mem_g, 0, 4);
    tcase_add_test(tc, fast_mem_g_fault);
    tcase_add_loop_test(tc, fast_mem_s_l, 0, 3);
    tcase_add_test(tc, fast_f32_flush);
    tcase_add_loop_test(tc, fast_fp_interp_rcp, 0, 4);
    tcase_add_loop_test(tc, fast_rcp_lanes, 0, 2);
    tcase_add_loop_test(tc, fp_invisible_live, 0, 3);
    tcase_add_test(tc, fast_code_cache);
    tcase_add_loop_test(tc, fast_vp_io, 0, 2);
    tcase_add_test(tc, fast_const_operand);
    suite_add_tcase(s, tc);
    return s;
}
