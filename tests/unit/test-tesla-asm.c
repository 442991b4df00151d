/*
 * Tesla assembler: catalogue sources assemble to envyas' encodings, the
 * disassembler's output re-assembles (catalogue and random words),
 * labels, alignment, errors.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/tesla/insn.h"
#include "test-tesla-catalogue.h"
#include <check.h>

static int check_asm_rows(bool only_data_control)
{
    GPtrArray *rows = cat_load();
    int bad = 0, checked = 0;

    for (unsigned i = 0; i < rows->len; i++) {
        CatRow *r = g_ptr_array_index(rows, i);
        uint32_t out[2] = { 0, 0 };
        g_autofree char *err = NULL;
        int n;

        if (!r->status_ok ||
            (only_data_control && !cat_is_data_control(r))) {
            continue;
        }
        checked++;
        n = tesla_assemble_insn(r->min_variant, r->prog, r->source, 0, out,
                                &err);
        if (n != r->nwords || out[0] != r->words[0] ||
            (n == 2 && out[1] != r->words[1])) {
            fprintf(stderr, "asm: line %d %s/%s \"%s\": expected %08x %08x"
                    " got %s%08x %08x\n", r->lineno,
                    tesla_variant_name(r->min_variant),
                    tesla_prog_name(r->prog), r->source, r->words[0],
                    r->nwords > 1 ? r->words[1] : 0, n ? "" : err,
                    out[0], out[1]);
            bad++;
        }
    }
    cat_free(rows);
    ck_assert_int_gt(checked, 0);
    return bad;
}

START_TEST(catalogue_asm_data_control)
{
    int bad = check_asm_rows(true);
    ck_assert_msg(bad == 0, "%d data/control rows differ (listed above)",
                  bad);
}
END_TEST

START_TEST(catalogue_asm_all)
{
    int bad = check_asm_rows(false);
    ck_assert_msg(bad == 0, "%d rows differ (listed above)", bad);
}
END_TEST

/* every clean catalogue disassembly re-assembles to the same bits */
START_TEST(catalogue_round_trip)
{
    GPtrArray *rows = cat_load();
    int bad = 0;

    for (unsigned i = 0; i < rows->len; i++) {
        CatRow *r = g_ptr_array_index(rows, i);
        for (int v = 0; v < TESLA_NUM_VARIANTS; v++) {
            g_autoptr(GString) s = g_string_new(NULL);
            g_autofree char *err = NULL;
            uint32_t out[2] = { 0, 0 };
            bool clean;
            int n;

            tesla_disasm(v, r->prog, r->words, r->nwords, 0, s, &clean);
            if (!clean) {
                continue;
            }
            n = tesla_assemble_insn(v, r->prog, s->str, 0, out, &err);
            if (n != r->nwords || out[0] != r->words[0] ||
                (n == 2 && out[1] != r->words[1])) {
                fprintf(stderr, "round trip: line %d %s/%s \"%s\": %08x "
                        "%08x -> %s%08x %08x\n", r->lineno,
                        tesla_variant_name(v), tesla_prog_name(r->prog),
                        s->str, r->words[0],
                        r->nwords > 1 ? r->words[1] : 0, n ? "" : err,
                        out[0], out[1]);
                bad++;
            }
        }
    }
    cat_free(rows);
    ck_assert_msg(bad == 0, "%d round trips differ (listed above)", bad);
}
END_TEST

static bool same_insn(TeslaInsn *a, TeslaInsn *b)
{
    a->w[0] = a->w[1] = b->w[0] = b->w[1] = 0;
    return !memcmp(a, b, sizeof(*a));
}

/*
 * Random words: each one the disassembler decodes fully must re-assemble
 * to bits that print the same text and decode to the same TeslaInsn.
 * Usually those are the very same bits; they differ only where envydis
 * prints two encodings alike (fields it ignores, such as the predicate of
 * call or bar, or equivalent operand selectors), which are counted.
 */
START_TEST(random_round_trip)
{
    g_autoptr(GRand) rnd = g_rand_new_with_seed(0x7e51a);
    int clean_n = 0, same = 0, bad = 0;

    for (int i = 0; i < 60000; i++) {
        TeslaVariant v = g_rand_int_range(rnd, 0, TESLA_NUM_VARIANTS);
        TeslaProgType p = g_rand_int_range(rnd, 0, TESLA_NUM_PROGS);
        uint32_t code[2] = { g_rand_int(rnd), g_rand_int(rnd) };
        g_autoptr(GString) s = g_string_new(NULL);
        g_autoptr(GString) s2 = g_string_new(NULL);
        g_autofree char *err = NULL;
        uint32_t out[2] = { 0, 0 };
        TeslaInsn a, b;
        bool clean;
        int n, m;

        /* sparser words hit more real encodings */
        if (i & 2) {
            code[0] &= g_rand_int(rnd) | g_rand_int(rnd);
            code[1] &= g_rand_int(rnd) & g_rand_int(rnd);
        }
        if (i & 1) {
            code[0] &= ~1u;
        }
        n = tesla_disasm(v, p, code, 2, 0, s, &clean);
        if (!clean) {
            continue;
        }
        clean_n++;
        m = tesla_assemble_insn(v, p, s->str, 0, out, &err);
        if (!m) {
            fprintf(stderr, "random: %s/%s %08x %08x \"%s\": %s\n",
                    tesla_variant_name(v), tesla_prog_name(p), code[0],
                    code[1], s->str, err);
            bad++;
            continue;
        }
        tesla_disasm(v, p, out, m, 0, s2, NULL);
        tesla_decode(v, p, code, n, 0, &a);
        tesla_decode(v, p, out, m, 0, &b);
        if (m != n || strcmp(s->str, s2->str) || !same_insn(&a, &b)) {
            fprintf(stderr, "random: %s/%s %08x %08x \"%s\" -> %08x %08x "
                    "\"%s\"\n", tesla_variant_name(v), tesla_prog_name(p),
                    code[0], code[1], s->str, out[0], out[1], s2->str);
            bad++;
            continue;
        }
        if (out[0] == code[0] && (m == 1 || out[1] == code[1])) {
            same++;
        }
    }
    fprintf(stderr, "random round trip: %d clean words, %d identical bits, "
            "%d equivalent encodings\n", clean_n, same, clean_n - same - bad);
    ck_assert_int_gt(clean_n, 1000);
    ck_assert_msg(bad == 0, "%d random words fail (listed above)", bad);
}
END_TEST

START_TEST(program_labels_and_alignment)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    const char *src =
        "// a loop\n"
        "start:\n"
        "    mov b32 $r1 $r2      /* short, made long below */\n"
        "    exit mov b32 $r1 $r2\n"
        "loop: (e $c0) bra loop\n"
        "    bra 0x20\n"
        "    joinat end\n"
        "end:\n"
        "    trap\n";
    static const uint32_t expect[] = {
        0x10000405, 0x0403c780,     /* long: keeps the next one aligned */
        0x10000405, 0x0403c781,
        0x10002003, 0x00000100,     /* loop = 0x10 */
        0x10004003, 0x00000780,
        0xa0005003, 0x00000000,     /* end = 0x28 */
        0x90000002,
    };

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, w, &err),
                  "%s", err);
    ck_assert_int_eq(w->len, ARRAY_SIZE(expect));
    for (unsigned i = 0; i < w->len; i++) {
        ck_assert_uint_eq(g_array_index(w, uint32_t, i), expect[i]);
    }
}
END_TEST

START_TEST(asm_errors)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    uint32_t out[2];
    char *err = NULL;

    ck_assert(!tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                              "mov b32 $r1 $r2\nfrobnicate $r1\n", w, &err));
    ck_assert_msg(g_str_has_prefix(err, "line 2: "), "%s", err);
    g_free(err);
    ck_assert(!tesla_assemble(TESLA_G84, TESLA_PROG_CP, "bra nowhere\n", w,
                              &err));
    ck_assert_msg(g_str_has_prefix(err, "line 1: "), "%s", err);
    g_free(err);
    ck_assert(!tesla_assemble(TESLA_G84, TESLA_PROG_CP, "a:\na: trap\n", w,
                              &err));
    ck_assert_msg(strstr(err, "twice"), "%s", err);
    g_free(err);
    /*
     * A short-only spelling before a long instruction cannot be made long:
     * the error names both lines; with a short filler it assembles.
     */
    ck_assert(!tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                              "add sat b32 $r6 $r2 $r3\nexit nop\n", w,
                              &err));
    ck_assert_msg(g_str_has_prefix(err, "line 1: ") &&
                  strstr(err, "line 2"), "%s", err);
    g_free(err);
    g_array_set_size(w, 0);
    ck_assert(tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                             "add sat b32 $r6 $r2 $r3\n"
                             "add b32 $r1 $r1 $r1\nexit nop\n", w, &err));
    ck_assert_uint_eq(w->len, 4);
    /* vote needs G200; $r128 does not exist; odd branch target */
    ck_assert_int_eq(tesla_assemble_insn(TESLA_G84, TESLA_PROG_CP,
                                         "vote any $c0", 0, out, &err), 0);
    g_free(err);
    ck_assert_int_eq(tesla_assemble_insn(TESLA_G200, TESLA_PROG_CP,
                                         "vote any $c0", 0, out, &err), 2);
    ck_assert_int_eq(tesla_assemble_insn(TESLA_G84, TESLA_PROG_CP,
                                         "mov b32 $r128 $r1", 0, out, &err),
                     0);
    g_free(err);
    ck_assert_int_eq(tesla_assemble_insn(TESLA_G84, TESLA_PROG_CP,
                                         "bra 0x22", 0, out, &err), 0);
    g_free(err);
    /* "long" forces the 8-byte form */
    ck_assert_int_eq(tesla_assemble_insn(TESLA_G84, TESLA_PROG_CP,
                                         "long mov b32 $r1 $r2", 0, out,
                                         &err), 2);
    ck_assert_uint_eq(out[0], 0x10000405);
    ck_assert_uint_eq(out[1], 0x0403c780);
}
END_TEST

/*
 * Hostile input (issue 14): label-only lines, very long lines, many lines,
 * many forced-long instructions, extreme numbers -- an error naming the
 * line (and not quoting megabytes), or words, in linear time.
 */
START_TEST(asm_hostile)
{
    const size_t len = 2 << 20;
    static const char *const unit[] = { " ", "$r2 ", "x", "(", "c0[" };

    /* one 2 MB line of each kind */
    for (unsigned i = 0; i < ARRAY_SIZE(unit); i++) {
        g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
        g_autoptr(GString) s = g_string_new("trap\nmov b32 $r1 ");
        g_autofree char *err = NULL;
        size_t ul = strlen(unit[i]);

        while (s->len < len) {
            g_string_append_len(s, unit[i], ul);
        }
        g_string_append(s, i ? "\n" : "$r2\n");
        if (!i) {
            /* blanks between operands */
            ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                         &err), "%s", err);
            ck_assert_uint_eq(w->len, 2);
            continue;
        }
        ck_assert_msg(!tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                      &err), "unit %u", i);
        ck_assert_msg(g_str_has_prefix(err, "line 2: "), "%s", err);
        ck_assert_msg(strlen(err) < 200, "unit %u: %zu-byte message", i,
                      strlen(err));
    }
    /* a 2 MB label, alone on its line: a label at the end */
    {
        g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
        g_autoptr(GString) s = g_string_new("trap\n");
        g_autofree char *err = NULL;

        while (s->len < len) {
            g_string_append_c(s, 'l');
        }
        g_string_append(s, ":\n");
        ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                     &err), "%s", err);
        ck_assert_uint_eq(w->len, 1);
    }
    /* label-only lines and labels at the end; 2 MB of empty lines */
    {
        g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
        g_autoptr(GString) s = g_string_new("a:\nb:\n");
        g_autofree char *err = NULL;

        ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                     &err), "%s", err);
        ck_assert_uint_eq(w->len, 0);
        g_string_truncate(s, 0);
        for (size_t i = 0; i < len; i++) {
            g_string_append_c(s, '\n');
        }
        g_string_append(s, "frob\n");
        ck_assert(!tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                  &err));
        ck_assert_msg(g_str_has_prefix(err, "line 2097153: "), "%s", err);
    }
    /*
     * 5000 short instructions each made long for the long one after it
     * (once a restart from the top each: quadratic), and a label on each
     * line branched to from the end.
     */
    {
        g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
        g_autoptr(GString) s = g_string_new(NULL);
        g_autofree char *err = NULL;
        const unsigned n = 5000;

        for (unsigned i = 0; i < n; i++) {
            g_string_append_printf(s, "l%u: mov b32 $r1 $r2\n"
                                   "exit mov b32 $r1 $r2\n", i);
        }
        g_string_append_printf(s, "bra l%u\n", n - 1);
        ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, s->str, w,
                                     &err), "%s", err);
        ck_assert_uint_eq(w->len, 4 * n + 2);
        for (unsigned i = 0; i < n; i++) {
            ck_assert_uint_eq(g_array_index(w, uint32_t, 4 * i), 0x10000405);
            ck_assert_uint_eq(g_array_index(w, uint32_t, 4 * i + 1),
                              0x0403c780);
        }
        /* bra to 16 * (n - 1): the target field holds it */
        ck_assert_uint_eq(g_array_index(w, uint32_t, 4 * n) & 3, 3);
    }
    /* numbers at the edge of int64: rejected, without overflow */
    {
        static const char *const edge[] = {
            "mov b32 $r1 -0x8000000000000000",
            "mov b32 $r1 c0[$a1-0x8000000000000000]",
            "mov b32 $r1 c0[$a1+0xffffffffffffffff]",
            "bra -0x8000000000000000",
            "bra 0xffffffffffffffff",
            "mov b32 $r1 99999999999999999999",
        };
        uint32_t out[2];

        for (unsigned i = 0; i < ARRAY_SIZE(edge); i++) {
            g_autofree char *err = NULL;
            ck_assert_msg(!tesla_assemble_insn(TESLA_G84, TESLA_PROG_CP,
                                               edge[i], 0, out, &err),
                          "accepted \"%s\"", edge[i]);
        }
    }
}
END_TEST

Suite *tesla_asm_suite(void)
{
    Suite *s = suite_create("tesla_asm");
    TCase *tc = tcase_create("asm");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, catalogue_asm_data_control);
    tcase_add_test(tc, catalogue_asm_all);
    tcase_add_test(tc, catalogue_round_trip);
    tcase_add_test(tc, random_round_trip);
    tcase_add_test(tc, program_labels_and_alignment);
    tcase_add_test(tc, asm_errors);
    tcase_add_test(tc, asm_hostile);
    suite_add_tcase(s, tc);
    return s;
}
