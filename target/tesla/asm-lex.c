/*
 * The Tesla assembler's tokenizer: an envydis-syntax line into tokens --
 * names, parentheses, registers ($r1, $r1h, $r2d, $a1, $c0, $physid ...),
 * numbers, memory operands (c0[$a1+0x10], s[$a1++0x4], g0[$r2]), vectors
 * of registers and "#" ($r0:$r1:#), "()" -- the same tokens whether they
 * come from the source or from disassembling a candidate.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/asm-int.h"

/* Quoted text for an error message, cut short after 60 characters. */
char *tesla_asm_quote(const char *s)
{
    size_t n = strnlen(s, 61);

    return n > 60 ? g_strdup_printf("\"%.60s...\"", s)
                  : g_strdup_printf("\"%s\"", s);
}

static bool parse_num(const char **pp, int64_t *out)
{
    const char *p = *pp;
    bool neg = false;
    uint64_t v = 0;
    int digits = 0;

    if (*p == '-') {
        neg = true;
        p++;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        while (g_ascii_isxdigit(*p)) {
            v = v * 16 + g_ascii_xdigit_value(*p++);
            digits++;
        }
    } else {
        while (g_ascii_isdigit(*p)) {
            v = v * 10 + (*p++ - '0');
            digits++;
        }
    }
    if (!digits || digits > 16 || tesla_asm_is_id(*p)) {
        return false;
    }
    *out = (int64_t)(neg ? 0 - v : v);    /* wraps, never overflows */
    *pp = p;
    return true;
}

static const char *const sreg_names[] = {
    [0] = "physid", [1] = "clock", [3] = "vstride",
    [4] = "pm0", [5] = "pm1", [6] = "pm2", [7] = "pm3", [8] = "sampleid",
};

/* "$..." at *pp (after the '$') into kind/number */
static bool parse_reg(const char **pp, uint8_t *rk, int64_t *num,
                      bool *named)
{
    const char *p = *pp;
    char id[32];
    size_t n = 0;
    char *end;
    const char *digits;
    unsigned long long v;

    while (tesla_asm_is_id(*p) && n + 1 < sizeof(id)) {
        id[n++] = *p++;
    }
    id[n] = 0;
    if (tesla_asm_is_id(*p) || !n) {
        return false;
    }
    for (unsigned i = 0; i < ARRAY_SIZE(sreg_names); i++) {
        if (sreg_names[i] && !strcmp(id, sreg_names[i])) {
            *rk = TRK_SR;
            *num = i;
            *named = true;
            *pp = p;
            return true;
        }
    }
    *named = false;
    if (g_str_has_prefix(id, "sr")) {
        *rk = TRK_SR;
        digits = id + 2;
    } else {
        switch (id[0]) {
        case 'r': *rk = TRK_R; break;
        case 'a': *rk = TRK_A; break;
        case 'c': *rk = TRK_C; break;
        case 't': *rk = TRK_T; break;
        case 's': *rk = TRK_S; break;
        default: return false;
        }
        digits = id + 1;
    }
    if (!g_ascii_isdigit(*digits)) {
        return false;
    }
    v = strtoull(digits, &end, 10);
    if (v > 0xffff) {
        return false;
    }
    *num = v;
    if (*rk == TRK_R && *end) {
        if (end[1]) {
            return false;
        }
        switch (*end) {
        case 'l': *rk = TRK_H; *num = v * 2; break;
        case 'h': *rk = TRK_H; *num = v * 2 + 1; break;
        case 'd': *rk = TRK_D; break;
        case 'q': *rk = TRK_Q; break;
        default: return false;
        }
    } else if (*end) {
        return false;
    }
    *pp = p;
    return true;
}

/* indexed by TeslaSpace */
static const char space_letters[] = "cslgapov";

static void skip_sp(const char **pp)
{
    while (**pp == ' ' || **pp == '\t') {
        (*pp)++;
    }
}

/* "x[...]" with *pp at the '[' */
static bool parse_mem(const char **pp, AsmTok *t)
{
    const char *p = *pp + 1;
    int64_t first = 0;
    bool have_first_num = false;

    t->has_reg = false;
    t->postinc = false;
    t->off = 0;
    skip_sp(&p);
    if (*p == '$') {
        p++;
        bool named;
        if (!parse_reg(&p, &t->mrk, &t->mreg, &named)) {
            return false;
        }
        t->has_reg = true;
    } else if (parse_num(&p, &first)) {
        have_first_num = true;
    } else {
        return false;
    }
    skip_sp(&p);
    if (p[0] == '+' && p[1] == '+') {
        p += 2;
        skip_sp(&p);
        if (!parse_num(&p, &t->off)) {
            return false;
        }
        if (have_first_num && first != 0) {
            return false;
        }
        t->postinc = true;
    } else if (*p == '+' || *p == '-') {
        bool minus = *p == '-';
        if (have_first_num) {
            return false;
        }
        p++;
        skip_sp(&p);
        if (!parse_num(&p, &t->off)) {
            return false;
        }
        if (minus) {
            t->off = (int64_t)(0 - (uint64_t)t->off);
        }
    } else if (have_first_num) {
        t->off = first;
    }
    skip_sp(&p);
    if (*p != ']') {
        return false;
    }
    /* $a0 as a base is no base */
    if (t->has_reg && t->mrk == TRK_A && t->mreg == 0) {
        t->has_reg = false;
    }
    *pp = p + 1;
    return true;
}

/* Tokenize @s into @l; false with a message in *err. */
bool tesla_asm_tokenize(const char *s, AsmLine *l, char **err)
{
    const char *p = s;

    l->ntok = 0;
    for (;;) {
        AsmTok *t;

        skip_sp(&p);
        if (!*p) {
            return true;
        }
        if (l->ntok == MAX_TOKS) {
            *err = g_strdup("line too long");
            return false;
        }
        t = &l->tok[l->ntok++];
        memset(t, 0, sizeof(*t));
        t->idx = -1;
        if (p[0] == '(' && p[1] == ')') {
            t->kind = K_ZVEC;
            p += 2;
        } else if (*p == '(') {
            t->kind = K_OPEN;
            p++;
        } else if (*p == ')') {
            t->kind = K_CLOSE;
            p++;
        } else if (*p == '$' || *p == '#') {
            /* register, "#", or a vector of them joined by ':' */
            int n = 0;
            for (;;) {
                int16_t e = -1;
                uint8_t rk = TRK_R;
                int64_t num = 0;
                bool named = false;
                if (*p == '#') {
                    p++;
                } else if (*p == '$') {
                    p++;
                    if (!parse_reg(&p, &rk, &num, &named)) {
                        goto bad;
                    }
                    e = num;
                } else {
                    goto bad;
                }
                if (n == 0 && *p != ':') {
                    if (e < 0) {
                        t->kind = K_DISCARD;
                    } else {
                        t->kind = K_REG;
                        t->rk = rk;
                        t->rnum = num;
                        t->named = named;
                    }
                    break;
                }
                if (n == MAX_VEC || (e >= 0 && rk != TRK_R)) {
                    goto bad;
                }
                t->kind = K_VEC;
                t->vec[n++] = e;
                t->nvec = n;
                if (*p != ':') {
                    break;
                }
                p++;
            }
        } else if (g_ascii_isdigit(*p) || *p == '-') {
            t->kind = K_NUM;
            if (!parse_num(&p, &t->val)) {
                goto bad;
            }
        } else if (tesla_asm_is_id(*p)) {
            size_t n = 0;
            while (tesla_asm_is_id(*p)) {
                if (n + 1 >= sizeof(t->name)) {
                    goto bad;
                }
                t->name[n++] = *p++;
            }
            t->name[n] = 0;
            if (*p == '[') {
                const char *q = strchr(space_letters, t->name[0]);
                char *end;
                if (!q || !t->name[0] ||
                    (t->name[1] && !g_ascii_isdigit(t->name[1]))) {
                    goto bad;
                }
                t->kind = K_MEM;
                t->space = q - space_letters;
                if (t->name[1]) {
                    if (!g_ascii_isdigit(t->name[1])) {
                        goto bad;
                    }
                    t->idx = strtol(t->name + 1, &end, 10);
                    if (*end) {
                        goto bad;
                    }
                }
                if (!parse_mem(&p, t)) {
                    goto bad;
                }
            } else {
                t->kind = K_NAME;
            }
        } else {
            goto bad;
        }
        continue;
bad:
        {
            g_autofree char *q = tesla_asm_quote(p);
            *err = g_strdup_printf("cannot parse %s", q);
        }
        return false;
    }
}

/* Tokenize an instruction, taking a leading "long" as the length hint. */
bool tesla_asm_prepare(const char *text, AsmLine *l, char **err)
{
    if (!tesla_asm_tokenize(text, l, err)) {
        return false;
    }
    l->force_long = false;
    if (l->ntok && l->tok[0].kind == K_NAME &&
        !strcmp(l->tok[0].name, "long")) {
        l->force_long = true;
        memmove(&l->tok[0], &l->tok[1], (l->ntok - 1) * sizeof(AsmTok));
        l->ntok--;
    }
    if (!l->ntok) {
        *err = g_strdup("no instruction");
        return false;
    }
    return true;
}
