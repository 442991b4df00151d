/*
 * USSE assembler: walks the same form items as the disassembler over the
 * tokens of a line, so whatever usse_disasm prints assembles back to the
 * same word.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse.h"
#include "target/usse/opcodes.h"
#include "target/usse/priv.h"

/* Quoted text for an error message, cut short after 60 characters. */
static char *quote(const char *s)
{
    size_t n = strnlen(s, 61);

    return n > 60 ? g_strdup_printf("\"%.60s...\"", s)
                  : g_strdup_printf("\"%s\"", s);
}

typedef struct AsmState {
    char **sfx;         /* mnemonic suffixes */
    unsigned nsfx, si;
    char **list;        /* comma-separated entries */
    unsigned nlist, li;
    char **op;          /* the current list entry split at '.' */
    unsigned nop, oi;
    const UsseOpndDesc *cur;
    uint64_t w;
    const char *why;
} AsmState;

static bool parse_uint(const char *s, uint64_t max, uint32_t *v)
{
    char *end;
    unsigned long long x;

    if (!*s || *s == '-' || *s == '+') {
        return false;
    }
    errno = 0;
    x = strtoull(s, &end, 0);
    if (errno || *end || x > max) {
        return false;
    }
    *v = x;
    return true;
}

static bool put(AsmState *st, const UsseBits *b, uint32_t v)
{
    if (usse_bits_width(b) < 32 && v >> usse_bits_width(b)) {
        st->why = "value out of range";
        return false;
    }
    st->w = usse_bits_put(b, st->w, v);
    return true;
}

/*
 * Write bank @code_bank (through the operand's bank select and extension
 * bit, whichever combination names it) and register field @num into *w;
 * false if the operand cannot name that bank.
 */
static bool put_bank(const UsseOpndDesc *d, unsigned code_bank,
                     unsigned num, uint64_t *w)
{
    for (unsigned ext = 0; ext < 2; ext++) {
        if (ext && d->ext < 0) {
            break;
        }
        unsigned nsel = d->bank.n ? 1u << usse_bits_width(&d->bank) : 1;
        for (unsigned sel = 0; sel < nsel; sel++) {
            if (usse_bank_map[d->cls][ext][sel] != code_bank) {
                continue;
            }
            if (d->bank.n) {
                *w = usse_bits_put(&d->bank, *w, sel);
            }
            if (d->ext >= 0) {
                *w = usse_bits_put(&(UsseBits)B1(d->ext, 1), *w, ext);
            }
            *w = usse_bits_put(&d->num, *w, num);
            return true;
        }
    }
    return false;
}

/* An indexed operand "pa[idx1+3]" (bank layout UNVERIFIED, decode.c). */
static bool asm_indexed(const UsseOpndDesc *d, const char *tok, uint64_t *w,
                        const char **why)
{
    static const char *const names[4] = { "r", "o", "pa", "sa" };
    unsigned wd = usse_bits_width(&d->num);
    const char *p = strchr(tok, '[');
    char *end;
    unsigned long ib = 4, idx, off;

    for (unsigned i = 0; p && i < 4; i++) {
        if (strlen(names[i]) == (size_t)(p - tok) &&
            !strncmp(tok, names[i], p - tok)) {
            ib = i;
        }
    }
    if (ib > 3 || strncmp(p, "[idx", 4) || (p[4] != '0' && p[4] != '1') ||
        p[5] != '+' || !g_ascii_isdigit(p[6])) {
        *why = "bad indexed operand";
        return false;
    }
    idx = p[4] - '0';
    off = strtoul(p + 6, &end, 10);
    if (strcmp(end, "]")) {
        *why = "bad indexed operand";
        return false;
    }
    if (d->dbl) {
        if (off & 1) {
            *why = "index offset must be even (64-bit unit operand)";
            return false;
        }
        off >>= 1;
    }
    if (off >= (1u << (wd - 2))) {
        *why = "index offset out of range";
        return false;
    }
    if (put_bank(d, idx ? USSE_BANK_INDEXED2 : USSE_BANK_INDEXED1,
                 ib << (wd - 2) | off, w)) {
        return true;
    }
    *why = "indexed bank not allowed for this operand";
    return false;
}

/* Parse "r12", "pa4", "i1", "#3", ... into the descriptor's fields. */
bool usse_asm_opnd(const UsseOpndDesc *d, const char *tok, uint64_t *w,
                   const char **why)
{
    static const char *const order[] = {
        "idx", "pa", "sa", "xa", "xb", "r", "o", "i", "c", "g", "#",
    };
    static const uint8_t banks[] = {
        USSE_BANK_INDEX, USSE_BANK_PA, USSE_BANK_SA, USSE_BANK_INDEXED1,
        USSE_BANK_INDEXED2, USSE_BANK_TEMP, USSE_BANK_OUTPUT, USSE_BANK_FPI,
        USSE_BANK_CONST, USSE_BANK_GLOBAL, USSE_BANK_IMM,
    };
    unsigned bank = USSE_BANK_NONE;
    uint32_t k, n;
    unsigned width = usse_bits_width(&d->num);

    if (strchr(tok, '[') && d->cls != UBC_GPI) {
        return asm_indexed(d, tok, w, why);
    }
    for (unsigned i = 0; i < ARRAY_SIZE(order); i++) {
        size_t l = strlen(order[i]);
        if (!strncmp(tok, order[i], l) && g_ascii_isdigit(tok[l])) {
            bank = banks[i];
            tok += l;
            break;
        }
    }
    if (bank == USSE_BANK_NONE || !parse_uint(tok, 0xffff, &k)) {
        *why = "bad operand";
        return false;
    }
    if (d->cls == UBC_GPI) {
        if (bank != USSE_BANK_FPI) {
            *why = "operand must be an FP-internal register";
            return false;
        }
        if (k >> usse_bits_width(&d->num)) {
            *why = "value out of range";
            return false;
        }
        *w = usse_bits_put(&d->num, *w, k);
        return true;
    }

    /* the register number field */
    unsigned code_bank = bank;
    switch (bank) {
    case USSE_BANK_FPI:
        if (k > 3) {
            *why = "no such FP-internal register";
            return false;
        }
        n = (usse_fpi_limit(d) + (k << (d->dbl ? 1 : 0))) >> (d->dbl ? 1 : 0);
        code_bank = USSE_BANK_TEMP;
        break;
    case USSE_BANK_CONST:
        if (k >= 0x40) {
            *why = "constant ROM index out of range";
            return false;
        }
        n = k;
        break;
    case USSE_BANK_GLOBAL:
        if (k >= 0x40) {
            *why = "global register out of range";
            return false;
        }
        n = k | 0x40;
        code_bank = USSE_BANK_CONST;
        break;
    case USSE_BANK_IMM:
        n = k;
        break;
    default:
        if (d->dbl) {
            if (k & 1) {
                *why = "register must be even (64-bit unit operand)";
                return false;
            }
            n = k >> 1;
        } else {
            n = k;
        }
        if (bank == USSE_BANK_TEMP &&
            (d->dbl ? (n << 1) & 0xff : n) >= usse_fpi_limit(d)) {
            *why = "temporary aliases an FP-internal register";
            return false;
        }
        break;
    }
    if (width < 32 && n >> width) {
        *why = "register number out of range";
        return false;
    }
    if (put_bank(d, code_bank, n, w)) {
        return true;
    }
    *why = "bank not allowed for this operand";
    return false;
}

static bool asm_opnd(AsmState *st, const UsseOpndDesc *d, const char *tok)
{
    return usse_asm_opnd(d, tok, &st->w, &st->why);
}

/* Take the next suffix from the mnemonic or the current operand. */
static const char *peek(AsmState *st, uint8_t where)
{
    if (where == UW_MNEM) {
        return st->si < st->nsfx ? st->sfx[st->si] : NULL;
    }
    return st->oi < st->nop ? st->op[st->oi] : NULL;
}

static void take(AsmState *st, uint8_t where)
{
    if (where == UW_MNEM) {
        st->si++;
    } else {
        st->oi++;
    }
}

static bool next_entry(AsmState *st, const char **tok)
{
    if (st->op && st->oi < st->nop) {
        st->why = "unexpected operand suffix";
        return false;
    }
    g_strfreev(st->op);
    st->op = NULL;
    st->nop = st->oi = 0;
    if (st->li >= st->nlist) {
        st->why = "missing operand";
        return false;
    }
    *tok = st->list[st->li++];
    return true;
}

static bool item(AsmState *st, const UsseItem *it)
{
    const char *p = NULL;
    uint32_t v = 0;

    switch (it->kind) {
    case UI_PRED:
        return true;    /* done by the caller */
    case UI_FLAG:
        p = peek(st, it->where);
        if (p && !strcmp(p, it->name)) {
            take(st, it->where);
            v = 1;
        }
        return put(st, &it->bits, v);
    case UI_ENUM: {
        unsigned n = 1u << usse_bits_width(&it->bits);
        int empty = -1;
        p = peek(st, it->where);
        for (unsigned i = 0; i < n; i++) {
            if (!it->names[i]) {
                continue;
            }
            if (!it->names[i][0]) {
                if (empty < 0) {
                    empty = i;
                }
            } else if (p && !strcmp(p, it->names[i])) {
                take(st, it->where);
                return put(st, &it->bits, i);
            }
        }
        if (empty < 0) {
            st->why = "missing or unknown suffix";
            return false;
        }
        return put(st, &it->bits, empty);
    }
    case UI_LIT:
        p = peek(st, it->where);
        if (!p || strcmp(p, it->name)) {
            st->why = "missing suffix";
            return false;
        }
        take(st, it->where);
        return true;
    case UI_RPT:
        p = peek(st, it->where);
        if (p && !strncmp(p, "rpt", 3)) {
            if (!parse_uint(p + 3, 1u << usse_bits_width(&it->bits), &v) ||
                v < 2) {
                st->why = "bad repeat count";
                return false;
            }
            take(st, it->where);
            return put(st, &it->bits, v - 1);
        }
        return put(st, &it->bits, 0);
    case UI_KEY: {
        size_t l = strlen(it->name);
        if (st->li < st->nlist && !strncmp(st->list[st->li], it->name, l) &&
            st->list[st->li][l] == '=') {
            const char *tok;
            if (!next_entry(st, &tok)) {
                return false;
            }
            if (!parse_uint(tok + l + 1, UINT32_MAX, &v) || !v) {
                st->why = "bad value";
                return false;
            }
        }
        return put(st, &it->bits, v);
    }
    case UI_OPND: {
        const char *tok;
        if (!next_entry(st, &tok)) {
            return false;
        }
        st->op = gemu_strsplit_c(tok, '.');
        st->nop = g_strv_length(st->op);
        st->oi = 1;
        return asm_opnd(st, it->opnd, st->op[0]);
    }
    case UI_MASK:
        p = peek(st, it->where);
        if (!p) {
            st->why = "missing write mask";
            return false;
        }
        if (strcmp(p, "none")) {
            int last = -1;
            for (const char *c = p; *c; c++) {
                const char *q = strchr("xyzw", *c);
                if (!q || (int)(q - "xyzw") <= last) {
                    st->why = "bad write mask";
                    return false;
                }
                last = q - "xyzw";
                v |= 1u << last;
            }
        }
        take(st, it->where);
        return put(st, &it->bits, v);
    case UI_SWZ: {
        unsigned n = 1u << usse_bits_width(&it->bits);
        p = peek(st, it->where);
        if (!p) {
            st->why = "missing swizzle";
            return false;
        }
        take(st, it->where);
        if (p[0] == 's' && g_ascii_isdigit(p[1])) {
            if (!parse_uint(p + 1, n - 1, &v) || !it->names[v]) {
                st->why = "bad swizzle index";
                return false;
            }
            return put(st, &it->bits, v);
        }
        for (unsigned i = 0; i < n; i++) {
            if (it->names[i] && !strcmp(it->names[i], p)) {
                return put(st, &it->bits, i);
            }
        }
        st->why = "swizzle not encodable here";
        return false;
    }
    case UI_SWZ3:
    case UI_SWZ2: {
        static const char chans[] = "xyzw012h";
        unsigned cb = it->kind == UI_SWZ3 ? 3 : 2;
        p = peek(st, it->where);
        if (!p || strlen(p) != 4) {
            st->why = "bad swizzle";
            return false;
        }
        for (int c = 0; c < 4; c++) {
            const char *q = strchr(chans, p[c]);
            if (!q || (unsigned)(q - chans) >= (1u << cb)) {
                st->why = "bad swizzle channel";
                return false;
            }
            v |= (uint32_t)(q - chans) << (c * cb);
        }
        take(st, it->where);
        return put(st, &it->bits, v);
    }
    case UI_NUM:
    case UI_HEX: {
        const char *tok;
        unsigned wd = usse_bits_width(&it->bits);
        if (!next_entry(st, &tok)) {
            return false;
        }
        if (it->kind == UI_NUM && it->arg) {
            char *end;
            long long x;
            errno = 0;
            x = strtoll(tok, &end, 0);
            if (!*tok || *end || errno || x < -(1ll << (wd - 1)) ||
                x >= (1ll << (wd - 1))) {
                st->why = "bad offset";
                return false;
            }
            v = (uint32_t)x & ((1ull << wd) - 1);
        } else if (!parse_uint(tok, (1ull << wd) - 1, &v)) {
            st->why = "bad number";
            return false;
        }
        return put(st, &it->bits, v);
    }
    case UI_DUAL: {
        /* the rest of the line: re-join the entries */
        g_autoptr(GString) t = g_string_new(NULL);
        const char *tok;
        while (st->li < st->nlist) {
            if (!next_entry(st, &tok)) {
                return false;
            }
            g_string_append_printf(t, "%s%s", t->len ? ", " : "", tok);
        }
        return usse_dual_assemble(t->str, &st->w, &st->why);
    }
    case UI_PREG: {
        const char *tok;
        if (!next_entry(st, &tok)) {
            return false;
        }
        if (tok[0] != 'p' || !parse_uint(tok + 1, 3, &v)) {
            st->why = "bad predicate register";
            return false;
        }
        return put(st, &it->bits, v);
    }
    }
    return false;
}

static bool is_pred(const char *s)
{
    static const char *const preds[] = {
        "p0", "p1", "p2", "p3", "!p0", "!p1", "!p2", "pN", "pchan",
    };
    for (unsigned i = 0; i < ARRAY_SIZE(preds); i++) {
        if (!strcmp(s, preds[i])) {
            return true;
        }
    }
    return false;
}

static bool try_form(const UsseForm *fm, const char *pred, char **sfx,
                     char **list, uint64_t unk, uint64_t *word,
                     const char **why)
{
    AsmState st = {
        .sfx = sfx, .nsfx = g_strv_length(sfx),
        .list = list, .nlist = g_strv_length(list),
        .w = fm->val,
    };
    bool ok = true;
    bool pred_done = false;

    for (const UsseItem *it = fm->items; ok && it->kind != UI_END; it++) {
        if (it->kind == UI_PRED) {
            unsigned n = 1u << usse_bits_width(&it->bits);
            unsigned i;
            for (i = 0; i < n; i++) {
                if (!strcmp(it->names[i], pred)) {
                    break;
                }
            }
            if (i == n) {
                st.why = "predicate not available here";
                ok = false;
                break;
            }
            ok = put(&st, &it->bits, i);
            pred_done = true;
            continue;
        }
        ok = item(&st, it);
    }
    if (ok && *pred && !pred_done) {
        st.why = "instruction takes no predicate";
        ok = false;
    }
    if (ok && st.op && st.oi < st.nop) {
        st.why = "unexpected operand suffix";
        ok = false;
    }
    if (ok && st.si < st.nsfx) {
        st.why = "unknown suffix";
        ok = false;
    }
    if (ok && st.li < st.nlist) {
        st.why = "too many operands";
        ok = false;
    }
    g_strfreev(st.op);
    if (ok) {
        UsseInsn insn;
        uint64_t w = st.w | unk;
        /* the word must come back as this form with these unknown bits */
        if (usse_find_form(w) != fm || !usse_decode(w, &insn) ||
            insn.unknown != unk) {
            st.why = "bits conflict with the encoding";
            ok = false;
        } else {
            *word = w;
        }
    }
    if (!ok) {
        *why = st.why;
    }
    return ok;
}

bool usse_assemble_insn(const char *text, uint64_t *word, char **err)
{
    g_autofree char *line = g_strstrip(g_strdup(text));
    g_auto(GStrv) sfx = NULL;
    g_auto(GStrv) list = NULL;
    g_autofree char *q = NULL;
    const char *pred = "";
    char *mn, *rest, *u;
    uint64_t unk = 0;
    const char *why = "unknown instruction";
    bool seen = false;

    if (!strncmp(line, "???", 3) || !strncmp(line, ".word", 5)) {
        char *end;
        const char *p = line + (line[0] == '?' ? 3 : 5);
        errno = 0;
        *word = strtoull(p, &end, 16);
        if (errno || end == p || *g_strstrip(end)) {
            q = quote(line);
            *err = g_strdup_printf("bad word in %s", q);
            return false;
        }
        return true;
    }
    u = strstr(line, "[unk ");
    if (u) {
        char *end;
        unk = strtoull(u + 5, &end, 16);
        if (*end != ']' || end[1]) {
            *err = g_strdup("bad [unk ...] marker");
            return false;
        }
        *u = 0;
        g_strstrip(line);
    }
    mn = line;
    rest = strpbrk(mn, " \t");
    if (rest) {
        *rest++ = 0;
        if (is_pred(mn)) {
            pred = mn;
            mn = g_strchug(rest);
            rest = strpbrk(mn, " \t");
            if (rest) {
                *rest++ = 0;
            }
        }
    }
    if (!*mn) {
        *err = g_strdup(*pred ? "a predicate with no instruction"
                              : "no instruction");
        return false;
    }
    sfx = gemu_strsplit_c(mn, '.');
    if (rest && *g_strstrip(rest)) {
        list = gemu_strsplit_c(rest, ',');
        for (char **t = list; *t; t++) {
            if (!*g_strstrip(*t)) {
                q = quote(text);
                *err = g_strdup_printf("empty operand (a stray comma?): %s",
                                       q);
                return false;
            }
        }
    } else {
        list = g_new0(char *, 1);
    }
    for (unsigned i = 0; i < usse_nforms; i++) {
        if (strcmp(usse_forms[i].mnem, sfx[0])) {
            continue;
        }
        const char *w = NULL;
        if (try_form(&usse_forms[i], pred, sfx + 1, list, unk, word, &w)) {
            return true;
        }
        /* several forms share a mnemonic (float/integer tests): a form
           that got past the suffixes says more than one that did not */
        if (!seen || strstr(why, "suffix")) {
            why = w;
        }
        seen = true;
    }
    q = quote(seen ? text : sfx[0]);
    *err = seen ? g_strdup_printf("%s: %s", why, q)
                : g_strdup_printf("unknown instruction %s", q);
    return false;
}

/* Cut @l at its comment ("//" or ';', whichever comes first). */
static void strip_comment(char *l)
{
    for (char *c = l; *c; c++) {
        if (*c == ';' || (c[0] == '/' && c[1] == '/')) {
            *c = 0;
            return;
        }
    }
}

bool usse_assemble(const char *src, GArray *words, char **err)
{
    g_autofree char *buf = g_strdup(src);
    char *next = buf;

    /* lines by hand: one pass over the source (see gemu/strsplit.h) */
    for (unsigned n = 1; next; n++) {
        char *l = next;
        char *c, *nl;
        g_autofree char *msg = NULL;
        uint64_t w;

        for (nl = l; *nl && *nl != '\n'; nl++) {
            continue;
        }
        next = *nl ? nl + 1 : NULL;
        *nl = 0;

        strip_comment(l);
        g_strstrip(l);
        if (!*l || *l == '#') {
            continue;
        }
        /* listing lines: "PPPPP: WWWWWWWWWWWWWWWW  text" */
        c = strchr(l, ':');
        if (c && !c[1 + strspn(c + 1, " \t")]) {
            /* "abc:" -- an address, or a label (there are none) */
            g_autofree char *q = quote(l);
            *err = g_strdup_printf("line %u: a label or address with no "
                                   "instruction (the USSE assembler takes "
                                   "no labels): %s", n, q);
            return false;
        }
        if (c && c > l &&
            strspn(l, "0123456789abcdefABCDEF") == (size_t)(c - l)) {
            l = g_strchug(c + 1);
            size_t hx = strspn(l, "0123456789abcdefABCDEF");
            if (hx == 16 && g_ascii_isspace(l[16])) {
                l = g_strchug(l + 16);
            }
        }
        if (!usse_assemble_insn(l, &w, &msg)) {
            *err = g_strdup_printf("line %u: %s", n, msg);
            return false;
        }
        g_array_append_val(words, w);
    }
    return true;
}
