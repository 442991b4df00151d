/*
 * Tesla assembler: envydis syntax in, instruction words out.
 *
 * There is no separate encoding table: a line is tokenized, then the
 * opcode tables (the same ones the disassembler prints from) are
 * searched depth first, in table order, for an entry path whose atoms
 * consume exactly the tokens; the bits that path fixes form a candidate,
 * which is accepted only if disassembling it gives back the same tokens
 * with nothing unexplained.  Table order makes the first candidate the
 * canonical one (short before long, unprinted fields at their defaults).
 *
 * This file: one instruction, and whole programs (comments, labels,
 * gemu-dis listings, the two-pass layout that keeps long instructions
 * at even words); the tokenizer is asm-lex.c, the search asm-match.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/asm-int.h"

int tesla_assemble_insn(TeslaVariant v, TeslaProgType p, const char *line,
                        uint32_t addr, uint32_t out[2], char **err)
{
    g_autofree AsmLine *l = g_new0(AsmLine, 1);
    AsmCtx c;
    int n;

    (void)addr;
    tesla_asm_ctx_init(&c, v, p);
    if (!tesla_asm_prepare(line, l, err)) {
        return 0;
    }
    n = tesla_asm_line(&c, l, out);
    if (!n) {
        g_autofree char *t = g_strstrip(g_strdup(line));
        *err = tesla_asm_no_encoding(&c, t);
    }
    return n;
}

/* ---- whole programs ---- */

typedef struct AsmItem {
    int lineno;
    char *text;
    AsmLine *l;
    int size;
    int forced_by;      /* line of the long instruction that made it long */
} AsmItem;

/*
 * A line of a gemu-dis (envydis) listing -- "00000008: 20000005 04000781
 * CB exit ..." -- is taken as its instruction text, so that a listing can
 * be edited and assembled again.  Returns @s past the address, word and
 * mark columns, or @s itself for an ordinary line.
 */
static char *skip_listing_columns(char *s)
{
    char *p;

    for (int i = 0; i < 8; i++) {
        if (!g_ascii_isxdigit(s[i])) {
            return s;
        }
    }
    if (s[8] != ':') {
        return s;
    }
    p = s + 9;
    /* up to two word columns: 8 hex digits or ???????? each */
    for (int col = 0; col < 2; col++) {
        char *q = p;

        while (*q == ' ') {
            q++;
        }
        if (strspn(q, "0123456789abcdefABCDEF?") != 8 ||
            (q[8] != ' ' && q[8] != '\0')) {
            break;
        }
        p = q + 8;
    }
    /* the C and B target marks (instruction text is lower case) */
    return p + strspn(p, " CB");
}

/* Remove comments from @s (in place). */
static void strip_comments(char *s, bool *in_block)
{
    char *w = s;

    for (char *p = s; *p;) {
        if (*in_block) {
            if (p[0] == '*' && p[1] == '/') {
                *in_block = false;
                p += 2;
            } else {
                p++;
            }
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            *in_block = true;
            p += 2;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            break;
        }
        *w++ = *p++;
    }
    *w = 0;
}

static void free_items(GPtrArray *items)
{
    for (unsigned i = 0; i < items->len; i++) {
        AsmItem *it = g_ptr_array_index(items, i);
        g_free(it->text);
        g_free(it->l);
        g_free(it);
    }
    g_ptr_array_free(items, true);
}

bool tesla_assemble(TeslaVariant v, TeslaProgType p, const char *src,
                    GArray *words, char **err)
{
    g_autofree char *buf = g_strdup(src);
    char *next = buf;
    g_autoptr(GHashTable) labels =
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GPtrArray *items = g_ptr_array_new();
    GHashTable *label_item = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                   g_free, NULL);
    bool in_block = false, ok = false;
    AsmCtx c;
    uint32_t out[2];

    tesla_asm_ctx_init(&c, v, p);
    /* parse: labels and instruction texts */
    /* lines by hand: g_strsplit is quadratic under ASan (strstr) */
    for (int i = 0; next; i++) {
        char *s = next;
        char *nl;

        for (nl = s; *nl && *nl != '\n'; nl++) {
            continue;
        }
        next = *nl ? nl + 1 : NULL;
        *nl = 0;
        strip_comments(s, &in_block);
        s = g_strstrip(s);
        if (s[0] == '#') {      /* a "# ..." comment line */
            continue;
        }
        s = skip_listing_columns(s);
        for (;;) {
            char *q = s;
            while (tesla_asm_is_id(*q)) {
                q++;
            }
            if (q == s || *q != ':' || g_ascii_isdigit(*s)) {
                break;
            }
            *q = 0;
            if (g_hash_table_contains(label_item, s)) {
                g_autofree char *lq = tesla_asm_quote(s);
                *err = g_strdup_printf("line %d: label %s defined twice",
                                       i + 1, lq);
                goto out;
            }
            g_hash_table_insert(label_item, g_strdup(s),
                                GUINT_TO_POINTER(items->len));
            s = g_strstrip(q + 1);
        }
        if (*s) {
            AsmItem *it = g_new0(AsmItem, 1);
            g_autofree char *e = NULL;
            it->lineno = i + 1;
            it->text = g_strdup(s);
            it->l = g_new0(AsmLine, 1);
            g_ptr_array_add(items, it);
            if (!tesla_asm_prepare(s, it->l, &e)) {
                *err = g_strdup_printf("line %d: %s", i + 1, e);
                goto out;
            }
        }
    }

    /*
     * Pass 1: sizes with labels unknown.  A long instruction must start at
     * an even word; when one would not, the short instruction before it
     * is made long and the layout redone.
     */
    c.lenient = true;
    {
        uint32_t addr = 0;
        /* a forced instruction is sized again (those before it keep
           their sizes): each is forced once, so this is linear */
        for (unsigned i = 0; i < items->len; i++) {
            AsmItem *it = g_ptr_array_index(items, i);
            it->size = tesla_asm_line(&c, it->l, out);
            if (!it->size && it->forced_by) {
                *err = g_strdup_printf("line %d: this instruction has no "
                                       "long form, but the long instruction "
                                       "on line %d after it must start at an "
                                       "even word address (put another "
                                       "short instruction between them)",
                                       it->lineno, it->forced_by);
                goto out;
            }
            if (!it->size) {
                g_autofree char *e = tesla_asm_no_encoding(&c, it->text);
                *err = g_strdup_printf("line %d: %s", it->lineno, e);
                goto out;
            }
            if (it->size == 2 && (addr & 4)) {
                AsmItem *prev = i ? g_ptr_array_index(items, i - 1) : NULL;
                if (!prev || prev->l->force_long) {
                    *err = g_strdup_printf("line %d: long instruction at "
                                           "an odd word address",
                                           it->lineno);
                    goto out;
                }
                prev->l->force_long = true;
                prev->forced_by = it->lineno;
                addr -= prev->size * 4;
                i -= 2;         /* to prev (wraps, then ++, for i == 1) */
                continue;
            }
            addr += it->size * 4;
        }
    }

    /* label addresses (from the items' start addresses) */
    {
        GHashTableIter iter;
        gpointer key, val;
        g_autofree uint32_t *start = g_new(uint32_t, items->len + 1);

        start[0] = 0;
        for (unsigned i = 0; i < items->len; i++) {
            start[i + 1] = start[i] +
                ((AsmItem *)g_ptr_array_index(items, i))->size * 4;
        }
        g_hash_table_iter_init(&iter, label_item);
        while (g_hash_table_iter_next(&iter, &key, &val)) {
            g_hash_table_insert(labels, g_strdup(key),
                                GSIZE_TO_POINTER(start[GPOINTER_TO_UINT(val)]));
        }
    }

    /* pass 2 */
    c.lenient = false;
    c.labels = labels;
    for (unsigned i = 0; i < items->len; i++) {
        AsmItem *it = g_ptr_array_index(items, i);
        int n = tesla_asm_line(&c, it->l, out);
        if (n != it->size) {
            g_autofree char *e = n ? g_strdup("instruction size changed")
                                   : tesla_asm_no_encoding(&c, it->text);
            *err = g_strdup_printf("line %d: %s", it->lineno, e);
            goto out;
        }
        g_array_append_vals(words, out, n);
    }
    ok = true;
out:
    free_items(items);
    g_hash_table_destroy(label_item);
    return ok;
}
