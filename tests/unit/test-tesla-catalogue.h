/*
 * The Tesla catalogue (real envyas encodings and envydis text per
 * variant, tests/data/envytools/tesla-asm-catalogue.tsv) for the
 * disassembler and assembler tests.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TEST_TESLA_CATALOGUE_H
#define TEST_TESLA_CATALOGUE_H

#include "gemu/osdep.h"
#include "target/tesla/insn.h"
#include <check.h>

typedef struct CatRow {
    int lineno;
    TeslaVariant min_variant;
    TeslaProgType prog;
    char *source;
    uint32_t words[2];
    int nwords;
    bool status_ok;
    char *dis[TESLA_NUM_VARIANTS];  /* "-": not given */
} CatRow;

/* Find and parse the catalogue; fails the test loudly if it is missing. */
static GPtrArray *cat_load(void)
{
    const char *src = getenv("GEMU_SRC");
    g_autofree char *path = g_build_filename(src ? src : GEMU_SRC_PATH,
                                             "tests", "data", "envytools",
                                             "tesla-asm-catalogue.tsv", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GPtrArray *rows = g_ptr_array_new();

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        ck_abort_msg("Tesla catalogue missing: %s (set GEMU_SRC)", path);
    }
    lines = g_strsplit(text, "\n", -1);
    for (int i = 1; lines[i]; i++) {
        g_auto(GStrv) f = NULL;
        g_auto(GStrv) hex = NULL;
        CatRow *r;

        if (!lines[i][0]) {
            continue;
        }
        f = g_strsplit(lines[i], "\t", -1);
        ck_assert_msg(g_strv_length(f) == 5 + TESLA_NUM_VARIANTS,
                      "catalogue line %d: bad field count", i + 1);
        r = g_new0(CatRow, 1);
        r->lineno = i + 1;
        ck_assert(tesla_variant_parse(f[0], &r->min_variant));
        ck_assert(tesla_prog_parse(f[1], &r->prog));
        r->source = g_strdup(f[2]);
        hex = g_strsplit(f[3], " ", -1);
        r->nwords = g_strv_length(hex);
        ck_assert(r->nwords == 1 || r->nwords == 2);
        for (int w = 0; w < r->nwords; w++) {
            r->words[w] = strtoul(hex[w], NULL, 16);
        }
        r->status_ok = !strcmp(f[4], "ok");
        for (int v = 0; v < TESLA_NUM_VARIANTS; v++) {
            r->dis[v] = g_strdup(f[5 + v]);
        }
        g_ptr_array_add(rows, r);
    }
    ck_assert_msg(rows->len > 100, "catalogue %s: only %u rows", path,
                  rows->len);
    return rows;
}

static void cat_free(GPtrArray *rows)
{
    for (unsigned i = 0; i < rows->len; i++) {
        CatRow *r = g_ptr_array_index(rows, i);
        g_free(r->source);
        for (int v = 0; v < TESLA_NUM_VARIANTS; v++) {
            g_free(r->dis[v]);
        }
        g_free(r);
    }
    g_ptr_array_free(rows, true);
}

/* Whether the row's instruction belongs to the data/control groups. */
static bool cat_is_data_control(const CatRow *r)
{
    TeslaInsn insn;

    tesla_decode(TESLA_GT215, r->prog, r->words, r->nwords, 0, &insn);
    if (insn.op == TOP_INVALID) {
        tesla_decode(TESLA_G200, r->prog, r->words, r->nwords, 0, &insn);
    }
    return (insn.op >= TOP_MOV && insn.op <= TOP_VOTE) ||
           (insn.op >= TOP_DISCARD && insn.op <= TOP_PMEVENT);
}

#endif
