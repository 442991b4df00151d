/*
 * USSE interpreter on real compiler output: every vertex program of
 * tests/data/sdl2-vitagxm/ computes what its Cg source says.
 *
 * For each *_v.gxp the test reads its .cg: the position is
 * float4(aPosition, A, B), multiplied by the uniform wvp when the source
 * says mul(..., wvp) (a row vector times the matrix: out_j = sum_i v_i *
 * wvp[i][j], row i of wvp at SA container-base + resource + 4 i, from the
 * GXP parameter table).  Outputs follow the GXM order: o0..o3 position,
 * then COLOR (4), TEXCOORD0 (2), PSIZE (1), those the source writes.  The
 * secondary program runs first, once, on SA; then the primary program
 * for several vertices, whose attributes go to the PA registers the
 * parameter table names.  The fragment programs are checked too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "block/gxp.h"
#include "target/usse/exec.h"
#include "test-usse-exec.h"
#include <check.h>

static char *corpus_path(const char *name)
{
    const char *src = getenv("GEMU_SRC");
    return g_build_filename(src ? src : GEMU_SRC_PATH, "tests", "data",
                            "sdl2-vitagxm", name, NULL);
}

static void load_gxp(const char *name, GxpProgram *p, char **cg)
{
    g_autofree char *path = corpus_path(name);
    g_autofree char *data = NULL;
    g_autofree char *err = NULL;
    g_autofree char *cgname = g_strdup(name);
    g_autofree char *cgpath = NULL;
    gsize len;

    ck_assert_msg(g_file_get_contents(path, &data, &len, NULL),
                  "corpus file missing: %s (set GEMU_SRC)", path);
    ck_assert_msg(gxp_parse(data, len, p, &err), "%s: %s", name, err);
    strcpy(strrchr(cgname, '.'), ".cg");
    cgpath = corpus_path(cgname);
    ck_assert_msg(g_file_get_contents(cgpath, cg, NULL, NULL),
                  "missing %s", cgpath);
}

static const GxpParam *param(const GxpProgram *p, const char *name)
{
    for (uint32_t i = 0; i < p->nparams; i++) {
        if (!strcmp(p->params[i].name, name)) {
            return &p->params[i];
        }
    }
    return NULL;
}

static unsigned sa_of(const GxpProgram *p, const GxpParam *par)
{
    for (uint32_t i = 0; i < p->ncontainers; i++) {
        if (p->containers[i].index == par->container) {
            return p->containers[i].base_sa + par->resource;
        }
    }
    ck_abort_msg("no container %u for %s", par->container, par->name);
    return 0;
}

/* Run the secondary program on @sa, then the primary on @n vertices. */
static UsseRun *run_gxp(const GxpProgram *p, uint32_t *sa, unsigned n,
                        const uint32_t *pa, unsigned pa_words,
                        UsseStage stage, UsseProgram **progs)
{
    UsseEnv env = { .stage = stage, .sa = sa, .sa_count = USSE_MAX_REGS,
                    .insn_budget = 100000 };
    UsseLaunch l = { .secondary = true };
    g_autofree char *err = NULL;
    UsseRun *run;

    progs[0] = usse_program_new(p->secondary, p->secondary_count);
    progs[1] = usse_program_new(p->primary, p->primary_count);
    if (p->secondary_count) {
        run = usse_run_new(&env, progs[0], &l, &err);
        ck_assert_msg(run, "%s", err);
        ck_assert_int_eq(usse_run_exec(run), USSE_RUN_DONE);
        usse_run_free(run);
    }
    l = (UsseLaunch){ .instances = n, .pa = pa, .pa_words = pa_words };
    run = usse_run_new(&env, progs[1], &l, &err);
    ck_assert_msg(run, "%s", err);
    ck_assert_msg(usse_run_exec(run) == USSE_RUN_DONE, "%s at %u: %s",
                  usse_error_name(usse_run_result(run)->error),
                  usse_run_result(run)->pc, usse_run_result(run)->msg);
    return run;
}

/* "float4(aPosition, A, B)" in the Cg source. */
static void pos_consts(const char *cg, float *z, float *w)
{
    const char *s = strstr(cg, "float4(aPosition,");

    ck_assert_ptr_nonnull(s);
    s += strlen("float4(aPosition,");
    *z = g_ascii_strtod(s, (char **)&s);
    s = strchr(s, ',');
    ck_assert_ptr_nonnull(s);
    *w = g_ascii_strtod(s + 1, NULL);
}

#define NV 3

static void check_vertex_program(const char *name)
{
    GxpProgram p;
    g_autofree char *cg = NULL;
    uint32_t sa[USSE_MAX_REGS] = { 0 };
    uint32_t pa[NV * 16] = { 0 };
    float m[4][4], z, w;
    const GxpParam *pos, *col, *tc, *wvp;
    bool has_wvp;
    UsseProgram *progs[2];
    UsseRun *run;
    int checked = 0;

    load_gxp(name, &p, &cg);
    ck_assert_msg(!p.fragment, "%s is a fragment program", name);
    pos_consts(cg, &z, &w);
    has_wvp = strstr(cg, "mul(") && strstr(cg, "wvp");
    pos = param(&p, "aPosition");
    col = param(&p, "aColor");
    tc = param(&p, "aTexcoord");
    wvp = param(&p, "wvp");
    ck_assert_ptr_nonnull(pos);
    ck_assert(!has_wvp || wvp);

    /* a matrix of distinct, exactly representable values */
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            m[i][j] = (i * 4 + j + 1) * 0.5f - 3.0f;
            if (wvp) {
                sa[sa_of(&p, wvp) + 4 * i + j] = fbits(m[i][j]);
            }
        }
    }
    for (unsigned v = 0; v < NV; v++) {
        uint32_t *vp = pa + v * 16;
        vp[pos->resource] = fbits(1.5f + v);
        vp[pos->resource + 1] = fbits(-2.0f * v + 0.25f);
        for (int c = 0; c < 4 && col; c++) {
            vp[col->resource + c] = fbits(0.125f * (c + 1) + v);
        }
        for (int c = 0; c < 2 && tc; c++) {
            vp[tc->resource + c] = fbits(0.75f - c * 0.5f + v);
        }
    }
    run = run_gxp(&p, sa, NV, pa, 16, USSE_STAGE_VERTEX, progs);

    for (unsigned v = 0; v < NV; v++) {
        const uint32_t *vp = pa + v * 16;
        /*
         * With a matrix, the secondary program folds its rows 2 and 3
         * with one VMAD2 (src0 * src1 + src2, the hardware's order):
         * row 2 times the constant 0.5, plus row 3.  So on a console
         * these programs compute mul(float4(pos, w, z), wvp), the Cg's
         * two constants swapped, and that is what SDL's GL-style
         * orthographic matrix (translation in row 3) needs: w = 1.
         */
        float in[4] = { bitsf(vp[pos->resource]),
                        bitsf(vp[pos->resource + 1]),
                        has_wvp ? w : z, has_wvp ? z : w };
        unsigned k = 4;

        for (int j = 0; j < 4; j++) {
            float want = in[j];
            if (has_wvp) {
                want = 0;
                for (int i = 0; i < 4; i++) {
                    want += in[i] * m[i][j];
                }
            }
            ck_assert_msg(fabsf(bitsf(usse_run_reg(run, v, USSE_BANK_OUTPUT,
                                                   j)) - want) < 1e-5f,
                          "%s vertex %u o%d = %g, want %g", name, v, j,
                          bitsf(usse_run_reg(run, v, USSE_BANK_OUTPUT, j)),
                          want);
            checked++;
        }
        if (strstr(cg, "vColor = aColor")) {
            for (int c = 0; c < 4; c++, k++) {
                ck_assert_uint_eq(usse_run_reg(run, v, USSE_BANK_OUTPUT, k),
                                  vp[col->resource + c]);
            }
        }
        if (strstr(cg, "vTexcoord = aTexcoord")) {
            for (int c = 0; c < 2; c++, k++) {
                ck_assert_uint_eq(usse_run_reg(run, v, USSE_BANK_OUTPUT, k),
                                  vp[tc->resource + c]);
            }
        }
        if (strstr(cg, "pSize = 1.f")) {
            ck_assert_uint_eq(usse_run_reg(run, v, USSE_BANK_OUTPUT, k),
                              fbits(1.0f));
        }
    }
    ck_assert_int_eq(checked, NV * 4);
    usse_run_free(run);
    usse_program_free(progs[0]);
    usse_program_free(progs[1]);
    gxp_program_clear(&p);
}

START_TEST(test_corpus_vertex)
{
    g_autofree char *dir = corpus_path("");
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    int n = 0;

    ck_assert_msg(d, "corpus folder missing: %s (set GEMU_SRC)", dir);
    while ((name = g_dir_read_name(d))) {
        if (g_str_has_suffix(name, "_v.gxp")) {
            check_vertex_program(name);
            n++;
        }
    }
    g_dir_close(d);
    ck_assert_int_ge(n, 3);
}
END_TEST

static uint32_t h2(float a, float b)
{
    return gemu_float_to_half(a) | (uint32_t)gemu_float_to_half(b) << 16;
}

START_TEST(test_corpus_fragment)
{
    static const float col[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    static const float tex[4] = { 0.5f, 2.0f, 1.0f, 0.25f };
    uint32_t sa[USSE_MAX_REGS] = { 0 };
    uint32_t pa[4 * 8] = { 0 };
    UsseProgram *progs[2];
    g_autofree char *cg = NULL;
    GxpProgram p;
    UsseRun *run;

    /* color_f: the COLOR varying (F32 x4 in pa0..3) as F16 x4 in pa0 */
    load_gxp("color_f.gxp", &p, &cg);
    for (int q = 0; q < 4; q++) {
        for (int c = 0; c < 4; c++) {
            pa[q * 8 + c] = fbits(col[c] * (q + 1));
        }
    }
    run = run_gxp(&p, sa, 4, pa, 8, USSE_STAGE_FRAGMENT, progs);
    for (unsigned q = 0; q < 4; q++) {
        ck_assert_uint_eq(usse_run_reg(run, q, USSE_BANK_PA, 0),
                          h2(col[0] * (q + 1), col[1] * (q + 1)));
        ck_assert_uint_eq(usse_run_reg(run, q, USSE_BANK_PA, 1),
                          h2(col[2] * (q + 1), col[3] * (q + 1)));
    }
    usse_run_free(run);
    usse_program_free(progs[0]);
    usse_program_free(progs[1]);
    gxp_program_clear(&p);
    g_free(g_steal_pointer(&cg));

    /* clear_f: uClearColor (SA) as F16 x4 */
    load_gxp("clear_f.gxp", &p, &cg);
    for (int c = 0; c < 4; c++) {
        sa[sa_of(&p, param(&p, "uClearColor")) + c] = fbits(col[c]);
    }
    run = run_gxp(&p, sa, 4, NULL, 0, USSE_STAGE_FRAGMENT, progs);
    ck_assert_uint_eq(usse_run_reg(run, 3, USSE_BANK_PA, 0),
                      h2(col[0], col[1]));
    ck_assert_uint_eq(usse_run_reg(run, 3, USSE_BANK_PA, 1),
                      h2(col[2], col[3]));
    usse_run_free(run);
    usse_program_free(progs[0]);
    usse_program_free(progs[1]);
    gxp_program_clear(&p);
    g_free(g_steal_pointer(&cg));

    /* texture_f: the non-dependent read's result (pa0..3) times the
       colour (pa4..7), as F16 x4 */
    load_gxp("texture_f.gxp", &p, &cg);
    for (int q = 0; q < 4; q++) {
        for (int c = 0; c < 4; c++) {
            pa[q * 8 + c] = fbits(tex[c]);
            pa[q * 8 + 4 + c] = fbits(col[c] + q);
        }
    }
    run = run_gxp(&p, sa, 4, pa, 8, USSE_STAGE_FRAGMENT, progs);
    for (unsigned q = 0; q < 4; q++) {
        ck_assert_uint_eq(usse_run_reg(run, q, USSE_BANK_PA, 0),
                          h2(tex[0] * (col[0] + q), tex[1] * (col[1] + q)));
        ck_assert_uint_eq(usse_run_reg(run, q, USSE_BANK_PA, 1),
                          h2(tex[2] * (col[2] + q), tex[3] * (col[3] + q)));
    }
    usse_run_free(run);
    usse_program_free(progs[0]);
    usse_program_free(progs[1]);
    gxp_program_clear(&p);
}
END_TEST

Suite *usse_exec_corpus_suite(void)
{
    Suite *s = suite_create("usse_exec_corpus");
    TCase *tc = tcase_create("corpus");

    tcase_add_test(tc, test_corpus_vertex);
    tcase_add_test(tc, test_corpus_fragment);
    suite_add_tcase(s, tc);
    return s;
}
