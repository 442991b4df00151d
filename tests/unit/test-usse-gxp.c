/*
 * GXP container reader and the real-program corpus: every .gxp in
 * tests/data/sdl2-vitagxm/ parses, every instruction of both programs
 * decodes with no unknown bits, and agrees with the corpus' field dumps
 * (sdl2__*.fields.txt, made from the Appendix A tables); truncated and
 * corrupted files give errors, never crashes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "block/gxp.h"
#include "target/usse.h"
#include <check.h>

static char *corpus_dir(void)
{
    const char *src = getenv("GEMU_SRC");
    return g_build_filename(src ? src : GEMU_SRC_PATH, "tests", "data",
                            "sdl2-vitagxm", NULL);
}

static char *load(const char *name, gsize *len)
{
    g_autofree char *dir = corpus_dir();
    g_autofree char *path = g_build_filename(dir, name, NULL);
    char *data = NULL;

    if (!g_file_get_contents(path, &data, len, NULL)) {
        ck_abort_msg("corpus file missing: %s (set GEMU_SRC)", path);
    }
    return data;
}

/* Fields of the dump that map onto UsseInsn.f[] (same raw value). */
static const struct {
    const char *name;
    int field;
} fieldmap[] = {
    { "skipinv", UF_SKIPINV }, { "nosched", UF_NOSCHED },
    { "repeat_count", UF_REPEAT }, { "repeat_mode", UF_REPEAT_MODE },
    { "dat_fmt", UF_FMT }, { "move_data_type", UF_FMT },
    { "src_fmt", UF_SFMT }, { "dest_fmt", UF_FMT }, { "scale", UF_SCALE },
    { "pred", UF_PRED }, { "wait_cond", UF_WAIT }, { "imm", UF_IMM },
    { "temp_count", UF_TEMPS }, { "dest_inc", UF_INC_D },
    { "src0_inc", UF_INC_0 }, { "src1_inc", UF_INC_1 },
    { "src2_inc", UF_INC_2 }, { "src1_inc_mode", UF_INC_MODE_1 },
    { "src1_mod", UF_SRC1_MOD }, { "test_bit_1", -2 },
};

/* Check one "  p[N] WORD name f=v ..." line against our decode. */
static int check_fields_line(const char *line, const GxpProgram *p)
{
    g_autofree char *own = g_strdup(line);
    g_auto(GStrv) tok = g_strsplit_set(g_strstrip(own), " ", -1);
    unsigned idx;
    char which;
    uint64_t word;
    UsseInsn in;
    int bad = 0;

    /* tok[0] is "p[N]" or "s[N]" */
    if (sscanf(tok[0], "%c[%u]", &which, &idx) != 2) {
        return 0;
    }
    word = g_ascii_strtoull(tok[1], NULL, 16);
    if (which == 'p') {
        ck_assert_uint_lt(idx, p->primary_count);
        ck_assert_uint_eq(p->primary[idx], word);
    } else {
        ck_assert_uint_lt(idx, p->secondary_count);
        ck_assert_uint_eq(p->secondary[idx], word);
    }
    ck_assert(usse_decode(word, &in));
    for (unsigned i = 3; tok[i]; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) {
            continue;
        }
        *eq = 0;
        unsigned v = strtoul(eq + 1, NULL, 10);
        if (!strcmp(tok[i], "dest_mask") || !strcmp(tok[i], "write_mask")) {
            if (in.opnd[USSE_DST].mask != v) {
                fprintf(stderr, "%016" PRIx64 ": %s=%u, we have %u\n", word,
                        tok[i], v, in.opnd[USSE_DST].mask);
                bad++;
            }
            continue;
        }
        for (unsigned k = 0; k < ARRAY_SIZE(fieldmap); k++) {
            if (strcmp(tok[i], fieldmap[k].name) || fieldmap[k].field < 0) {
                continue;
            }
            if (in.f[fieldmap[k].field] != v) {
                fprintf(stderr, "%016" PRIx64 ": %s=%u, we have %u\n", word,
                        tok[i], v, in.f[fieldmap[k].field]);
                bad++;
            }
        }
    }
    return bad;
}

START_TEST(corpus_decodes)
{
    g_autofree char *dir = corpus_dir();
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    unsigned files = 0, insns = 0, checked = 0;

    ck_assert_msg(d, "corpus folder missing: %s (set GEMU_SRC)", dir);
    while ((name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".gxp")) {
            continue;
        }
        gsize len;
        g_autofree char *data = load(name, &len);
        g_autofree char *err = NULL;
        GxpProgram p;

        ck_assert(gxp_is_gxp(data, len));
        ck_assert_msg(gxp_parse(data, len, &p, &err), "%s: %s", name, err);
        ck_assert_uint_gt(p.primary_count, 0);
        for (unsigned i = 0; i < p.primary_count + p.secondary_count; i++) {
            uint64_t w = i < p.primary_count ? p.primary[i]
                                             : p.secondary[i - p.primary_count];
            UsseInsn in;
            g_autoptr(GString) s = g_string_new(NULL);
            g_autofree char *aerr = NULL;
            uint64_t back;

            ck_assert_msg(usse_decode(w, &in), "%s: %016" PRIx64 " is ???",
                          name, w);
            ck_assert_msg(!in.unknown, "%s: %016" PRIx64 " unknown bits "
                          "%" PRIx64, name, w, in.unknown);
            usse_disasm(w, s);
            ck_assert_msg(usse_assemble_insn(s->str, &back, &aerr), "%s",
                          aerr);
            ck_assert_uint_eq(back, w);
            insns++;
        }
        /* the reference field dump: every corpus program has one */
        g_autofree char *base = g_strndup(name, strlen(name) - 4);
        g_autofree char *fname = g_strdup_printf("sdl2__%s.fields.txt", base);
        g_autofree char *fpath = g_build_filename(dir, fname, NULL);
        g_autofree char *fields = NULL;
        ck_assert_msg(g_file_get_contents(fpath, &fields, NULL, NULL),
                      "corpus file missing: %s (set GEMU_SRC)", fpath);
        g_auto(GStrv) lines = g_strsplit(fields, "\n", -1);
        for (unsigned i = 0; lines[i]; i++) {
            if (strstr(lines[i], "[")) {
                ck_assert_int_eq(check_fields_line(lines[i], &p), 0);
                checked++;
            }
        }
        /* the first instruction of every corpus program is PHAS */
        UsseInsn in;
        ck_assert(usse_decode(p.primary[0], &in));
        ck_assert_int_eq(in.op, UOP_PHAS);
        gxp_program_clear(&p);
        files++;
    }
    g_dir_close(d);
    ck_assert_uint_ge(files, 6);
    ck_assert_uint_ge(insns, 38);
    ck_assert_uint_ge(checked, 30);
}
END_TEST

START_TEST(color_v_layout)
{
    gsize len;
    g_autofree char *data = load("color_v.gxp", &len);
    g_autofree char *err = NULL;
    GxpProgram p;
    UsseInsn in;

    ck_assert(gxp_parse(data, len, &p, &err));
    ck_assert(!p.fragment);
    ck_assert_uint_eq(p.major, 1);
    ck_assert_uint_eq(p.minor, 5);
    ck_assert_uint_eq(p.primary_count, 9);
    ck_assert_uint_eq(p.primary_off, 0xd8);
    ck_assert_uint_eq(p.secondary_count, 3);
    ck_assert_uint_eq(p.secondary_off, 0xbc);
    ck_assert_uint_eq(p.pa_count, 8);
    ck_assert_uint_eq(p.sa_count, 16);
    ck_assert_uint_eq(p.nparams, 3);
    ck_assert_str_eq(p.params[0].name, "aPosition");
    ck_assert_str_eq(p.params[1].name, "aColor");
    ck_assert_uint_eq(p.params[1].resource, 4);
    ck_assert_str_eq(p.params[2].name, "wvp");
    ck_assert_uint_eq(p.params[2].category, GXP_PARAM_UNIFORM);
    ck_assert_uint_eq(p.params[2].array_size, 4);
    ck_assert_uint_eq(p.ncontainers, 1);
    ck_assert_uint_eq(p.containers[0].index, 14);
    ck_assert_uint_eq(p.containers[0].size, 16);
    /* the last primary instruction is EMIT, the secondary ends with NOP */
    ck_assert(usse_decode(p.primary[8], &in));
    ck_assert_int_eq(in.op, UOP_EMIT);
    ck_assert(usse_decode(p.secondary[2], &in));
    ck_assert_int_eq(in.op, UOP_NOP);
    ck_assert_uint_eq(in.f[UF_END], 1);
    gxp_program_clear(&p);
}
END_TEST

static void expect_error(const void *data, size_t len, const char *what)
{
    GxpProgram p;
    g_autofree char *err = NULL;

    ck_assert_msg(!gxp_parse(data, len, &p, &err), "parsed: %s", what);
    ck_assert_msg(err && strstr(err, what), "error \"%s\" lacks \"%s\"",
                  err ? err : "(null)", what);
    ck_assert_ptr_null(p.primary);
}

static void put32(char *d, size_t off, uint32_t v)
{
    d[off] = v;
    d[off + 1] = v >> 8;
    d[off + 2] = v >> 16;
    d[off + 3] = v >> 24;
}

START_TEST(gxp_errors)
{
    gsize len;
    g_autofree char *data = load("color_v.gxp", &len);
    g_autofree char *copy = g_memdup2(data, len);

    expect_error("", 0, "bad magic");
    expect_error("GXQ\0", 4, "bad magic");
    expect_error(data, 0x50, "truncated header");
    expect_error(data, 0x100, "truncated");
    /* primary program pointing past the end */
    put32(copy, 0x40, 0x1000);
    expect_error(copy, len, "primary program");
    memcpy(copy, data, len);
    put32(copy, 0x3c, 0xffffffff);
    expect_error(copy, len, "instruction count");
    memcpy(copy, data, len);
    /* secondary count disagreeing with its range */
    put32(copy, 0x44, 2);
    expect_error(copy, len, "disagrees");
    memcpy(copy, data, len);
    /* a count with no offset */
    put32(copy, 0x94, 0);
    expect_error(copy, len, "no offset");
    memcpy(copy, data, len);
    copy[4] = 2;
    expect_error(copy, len, "version");
    ck_assert(!gxp_is_gxp("GX", 2));
}
END_TEST

/* Truncations and random corruption: an error or a consistent program. */
START_TEST(gxp_fuzz)
{
    gsize len;
    g_autofree char *data = load("texture_v.gxp", &len);
    g_autofree char *copy = g_memdup2(data, len);
    GRand *r = g_rand_new_with_seed(543);
    unsigned ok = 0, failed = 0;

    for (gsize n = 0; n < len; n++) {
        GxpProgram p;
        g_autofree char *err = NULL;
        g_autofree char *buf = g_memdup2(data, n);     /* exact size */
        if (gxp_parse(buf, n, &p, &err)) {
            ck_assert_uint_le(p.primary_off + 8ull * p.primary_count, n);
            gxp_program_clear(&p);
        } else {
            ck_assert(err);
        }
    }
    for (int i = 0; i < 3000; i++) {
        GxpProgram p;
        g_autofree char *err = NULL;
        memcpy(copy, data, len);
        for (int k = 0; k < 1 + (i % 4); k++) {
            gsize at = g_rand_int_range(r, 0, i & 1 ? GXP_HEADER_SIZE : len);
            copy[at] = g_rand_int(r);
        }
        if (gxp_parse(copy, len, &p, &err)) {
            ck_assert_uint_le(p.primary_off + 8ull * p.primary_count, len);
            ck_assert_uint_le(p.secondary_off + 8ull * p.secondary_count, len);
            for (unsigned k = 0; k < p.primary_count; k++) {
                g_autoptr(GString) s = g_string_new(NULL);
                usse_disasm(p.primary[k], s);
            }
            gxp_program_clear(&p);
            ok++;
        } else {
            ck_assert(err && *err);
            failed++;
        }
    }
    g_rand_free(r);
    ck_assert_uint_gt(ok, 0);
    ck_assert_uint_gt(failed, 0);
}
END_TEST

Suite *usse_gxp_suite(void)
{
    Suite *s = suite_create("usse_gxp");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, corpus_decodes);
    tcase_add_test(tc, color_v_layout);
    tcase_add_test(tc, gxp_errors);
    tcase_add_test(tc, gxp_fuzz);
    suite_add_tcase(s, tc);
    return s;
}
