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
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

#define MAX_TOKS 48
#define MAX_VEC 8
#define STEP_LIMIT 2000000

typedef enum {
    K_NAME, K_OPEN, K_CLOSE, K_REG, K_NUM, K_MEM, K_VEC, K_DISCARD, K_ZVEC,
} TokKind;

typedef struct AsmTok {
    uint8_t kind;
    char name[32];          /* K_NAME */
    uint8_t rk;             /* K_REG: TeslaRegKind */
    bool named;             /* K_REG: $physid etc. rather than $srN */
    int64_t rnum;           /* K_REG: field value ($rNh: N * 2 + 1) */
    int64_t val;            /* K_NUM */
    /* K_MEM */
    uint8_t space;
    int idx;                /* -1: none */
    bool has_reg;
    uint8_t mrk;
    int64_t mreg;
    bool postinc;
    int64_t off;
    /* K_VEC */
    int nvec;
    int16_t vec[MAX_VEC];   /* register, -1 for "#" */
} AsmTok;

typedef struct AsmLine {
    AsmTok tok[MAX_TOKS];
    int ntok;
    bool force_long;
} AsmLine;

typedef struct AsmCtx {
    TeslaVariant var;
    TeslaProgType prog;
    uint32_t feat;
    unsigned progbit;
    const AsmLine *line;
    GHashTable *labels;     /* name -> byte address + 1 (NULL: none) */
    bool lenient;           /* first pass: unknown labels are 0 */
    long steps;
    bool found;
    uint64_t result;
} AsmCtx;

typedef struct Frame {
    const TeslaAtom *a;
    unsigned i;
    const struct Frame *up;
} Frame;

/* Quoted text for an error message, cut short after 60 characters. */
static char *quote(const char *s)
{
    size_t n = strnlen(s, 61);

    return n > 60 ? g_strdup_printf("\"%.60s...\"", s)
                  : g_strdup_printf("\"%s\"", s);
}

/* ---- tokenizer ---- */

static bool is_id(int c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.';
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
    if (!digits || digits > 16 || is_id(*p)) {
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

    while (is_id(*p) && n + 1 < sizeof(id)) {
        id[n++] = *p++;
    }
    id[n] = 0;
    if (is_id(*p) || !n) {
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
static bool tokenize(const char *s, AsmLine *l, char **err)
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
        } else if (is_id(*p)) {
            size_t n = 0;
            while (is_id(*p)) {
                if (n + 1 >= sizeof(t->name)) {
                    goto bad;
                }
                t->name[n++] = *p++;
            }
            t->name[n] = 0;
            if (*p == '[') {
                const char *q = strchr(space_letters, t->name[0]);
                char *end;
                if (!q || !t->name[0] || (t->name[1] && !g_ascii_isdigit(t->name[1]))) {
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
            g_autofree char *q = quote(p);
            *err = g_strdup_printf("cannot parse %s", q);
        }
        return false;
    }
}

/* ---- matching ---- */

static bool label_value(AsmCtx *c, const char *name, int64_t *v)
{
    gpointer val;

    if (c->labels && g_hash_table_lookup_extended(c->labels, name, NULL,
                                                  &val)) {
        *v = GPOINTER_TO_SIZE(val);
        return true;
    }
    if (c->lenient) {
        *v = 0;
        return true;
    }
    return false;
}

static bool tok_equal(AsmCtx *c, const AsmTok *a, const AsmTok *d)
{
    int64_t lv;

    /* a: the input, d: what the disassembler printed */
    if (a->kind == K_NAME && d->kind == K_NUM) {
        return label_value(c, a->name, &lv) &&
               (c->lenient || (uint32_t)lv == (uint32_t)d->val);
    }
    if (a->kind == K_REG && a->rk == TRK_A && a->rnum == 0 &&
        d->kind == K_NUM) {
        return d->val == 0;
    }
    if (a->kind != d->kind) {
        return false;
    }
    switch (a->kind) {
    case K_NAME:
        return !strcmp(a->name, d->name);
    case K_REG:
        return a->rk == d->rk && a->rnum == d->rnum;
    case K_NUM:
        return (uint32_t)a->val == (uint32_t)d->val;
    case K_MEM:
        return a->space == d->space && a->idx == d->idx &&
               a->has_reg == d->has_reg &&
               (!a->has_reg || (a->mrk == d->mrk && a->mreg == d->mreg)) &&
               a->postinc == d->postinc &&
               (uint32_t)a->off == (uint32_t)d->off;
    case K_VEC:
        return a->nvec == d->nvec &&
               !memcmp(a->vec, d->vec, a->nvec * sizeof(a->vec[0]));
    default:
        return true;
    }
}

static bool verify(AsmCtx *c, uint64_t bits)
{
    g_autoptr(GString) s = g_string_new(NULL);
    g_autofree AsmLine *dl = g_new0(AsmLine, 1);
    g_autofree char *err = NULL;
    TeslaWalk res;

    tesla_walk(c->var, c->prog, bits, NULL, s, &res);
    if (res.unknown || res.unk_insn || res.unk_operand) {
        return false;
    }
    if (c->line->force_long && res.len != 8) {
        return false;
    }
    if (!tokenize(s->str, dl, &err) || dl->ntok != c->line->ntok) {
        return false;
    }
    for (int i = 0; i < dl->ntok; i++) {
        if (!tok_equal(c, &c->line->tok[i], &dl->tok[i])) {
            return false;
        }
    }
    c->found = true;
    c->result = res.len == 8 ? bits : (bits & 0xffffffffull);
    return true;
}

/* Put @value into field @b of (*v, *m); false if it does not fit or
   contradicts bits already fixed. */
static bool set_field(const TeslaBits *b, int64_t value, uint64_t *v,
                      uint64_t *m)
{
    unsigned n = b->len + b->len2;
    int64_t x = (int64_t)((uint64_t)value - (uint64_t)b->addend);
    int64_t lo, hi;
    uint64_t u, bits, fm;

    if (b->shl) {
        if (x & ((1ll << b->shl) - 1)) {
            return false;
        }
        x /= 1ll << b->shl;
    }
    if (!n) {
        return x == 0;
    }
    if (b->sign) {
        lo = -(1ll << (n - 1));
        hi = (1ll << (n - 1)) - 1;
    } else {
        /* a full 32-bit field takes negative numbers as they wrap */
        lo = n + b->shl >= 32 ? -(1ll << (n - 1)) : 0;
        hi = (1ll << n) - 1;
    }
    if (x < lo || x > hi) {
        return false;
    }
    u = (uint64_t)x & ((1ull << n) - 1);
    bits = (u & ((1ull << b->len) - 1)) << b->pos;
    if (b->len2) {
        bits |= (u >> b->len) << b->pos2;
    }
    fm = tesla_bits_mask(b);
    if ((*v ^ bits) & *m & fm) {
        return false;
    }
    *v = (*v & ~fm) | bits;
    *m |= fm;
    return true;
}

static bool match(AsmCtx *c, const Frame *f, int tp, uint64_t v, uint64_t m);

static bool entry_ok(AsmCtx *c, const TeslaEntry *e)
{
    return (e->feat & c->feat) == e->feat &&
           (!e->progs || (e->progs & c->progbit));
}

static bool try_table(AsmCtx *c, const TeslaTable *t, const Frame *next,
                      int tp, uint64_t v, uint64_t m)
{
    for (unsigned i = 0; i < t->n; i++) {
        const TeslaEntry *e = &t->e[i];
        Frame sub = { e->a, 0, next };
        if (!entry_ok(c, e) || ((e->val ^ v) & e->mask & m)) {
            continue;
        }
        if (match(c, &sub, tp, (v & ~e->mask) | e->val, m | e->mask)) {
            return true;
        }
    }
    return false;
}

static bool try_groups(AsmCtx *c, const Frame *next, int tp, uint64_t v,
                       uint64_t m)
{
    TeslaClass cls[2];
    int ncls = 0;

    if (!(v & 1)) {
        cls[ncls++] = TCLS_SHORT;
        cls[ncls++] = TCLS_SHORT_CTL;
    } else if ((v & 3) == 3) {
        cls[ncls++] = TCLS_LONG_CTL;
    } else if (((v >> 32) & 3) == 3) {
        cls[ncls++] = TCLS_IMM;
    } else {
        cls[ncls++] = TCLS_LONG;
    }
    for (int k = 0; k < ncls; k++) {
        uint64_t cv = v, cm = m;
        if (cls[k] == TCLS_SHORT || cls[k] == TCLS_SHORT_CTL) {
            cv = (cv & ~2ull) | (cls[k] == TCLS_SHORT_CTL ? 2 : 0);
            cm |= 2;
        }
        for (unsigned op = 0; op < 16; op++) {
            uint64_t ov = (cv & ~0xf0000000ull) | (uint64_t)op << 28;
            if ((cv ^ ov) & cm & 0xf0000000ull) {
                continue;
            }
            for (unsigned g = 0; g < tesla_ngroups; g++) {
                const TeslaTable *t = tesla_groups[g]->ops[cls[k]][op];
                if (t && try_table(c, t, next, tp, ov, cm | 0xf0000000ull)) {
                    return true;
                }
            }
        }
    }
    return false;
}

static bool match_reg(AsmCtx *c, const TeslaRegDesc *rd, const AsmTok *t,
                      uint64_t *v, uint64_t *m)
{
    int64_t num;

    if (!t) {
        return false;
    }
    if (rd->kind == TRK_A && t->kind == K_NUM) {
        if (t->val != 0) {
            return false;
        }
        num = 0;
    } else if (t->kind != K_REG || t->rk != rd->kind) {
        return false;
    } else {
        num = t->rnum;
        if (rd->kind == TRK_SR && t->named && num == 8 &&
            !(c->feat & TESLA_F_D3D10_1)) {
            /* "$sampleid" only exists on D3D10.1 parts ("$sr8" does) */
            return false;
        }
    }
    return set_field(&rd->f, num, v, m);
}

static bool match_mem(const TeslaMemDesc *md, const AsmTok *t, uint64_t *v,
                      uint64_t *m)
{
    if (!t || t->kind != K_MEM || t->space != md->space) {
        return false;
    }
    if (md->idx.len) {
        if (t->idx < 0 || !set_field(&md->idx, t->idx, v, m)) {
            return false;
        }
    } else if (t->idx >= 0) {
        return false;
    }
    if (md->reg) {
        if (md->reg->kind == TRK_A) {
            int64_t n = 0;
            if (t->has_reg) {
                if (t->mrk != TRK_A) {
                    return false;
                }
                n = t->mreg;
            }
            if (!set_field(&md->reg->f, n, v, m)) {
                return false;
            }
        } else if (!t->has_reg || t->mrk != md->reg->kind ||
                   !set_field(&md->reg->f, t->mreg, v, m)) {
            return false;
        }
    } else if (t->has_reg) {
        return false;
    }
    if (!!(md->flags & TMEM_POSTINC) != t->postinc) {
        return false;
    }
    if (md->off.len) {
        return set_field(&md->off, t->off, v, m);
    }
    return t->off == 0;
}

static bool match_vec(const TeslaVecDesc *vd, const AsmTok *t, uint64_t *v,
                      uint64_t *m)
{
    int16_t el[MAX_VEC];
    int n, base = -1, k = 0;
    uint64_t mask = 0;

    if (!t) {
        return false;
    }
    switch (t->kind) {
    case K_VEC:
        n = t->nvec;
        memcpy(el, t->vec, sizeof(el));
        break;
    case K_REG:
        if (t->rk != TRK_R) {
            return false;
        }
        n = 1;
        el[0] = t->rnum;
        break;
    case K_DISCARD:
        n = 1;
        el[0] = -1;
        break;
    case K_ZVEC:
        n = 0;
        break;
    default:
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (el[i] < 0) {
            continue;
        }
        if (base < 0) {
            base = el[i];
        }
        if (el[i] != base + k++) {
            return false;
        }
        mask |= 1ull << i;
    }
    if (!set_field(&vd->cnt, n, v, m)) {
        return false;
    }
    if (vd->mask.len || vd->mask.len2) {
        if (!set_field(&vd->mask, mask, v, m)) {
            return false;
        }
    } else if (mask != (n ? (1ull << n) - 1 : 0)) {
        return false;
    }
    return base < 0 || set_field(&vd->base, base, v, m);
}

static bool match(AsmCtx *c, const Frame *f, int tp, uint64_t v, uint64_t m)
{
    const TeslaAtom *at;
    const AsmTok *t;
    Frame nx;
    int64_t val;

    if (++c->steps > STEP_LIMIT) {
        return false;
    }
    while (f && (f->i >= TESLA_MAX_ATOMS || f->a[f->i].kind == TA_END)) {
        f = f->up;
    }
    if (!f) {
        return tp == c->line->ntok && verify(c, v);
    }
    at = &f->a[f->i];
    nx = (Frame){ f->a, f->i + 1, f->up };
    t = tp < c->line->ntok ? &c->line->tok[tp] : NULL;

    switch (at->kind) {
    case TA_NAME:
        return t && t->kind == K_NAME && !strcmp(t->name, at->p) &&
               match(c, &nx, tp + 1, v, m);
    case TA_SET:
    case TA_IGN:
    case TA_HOOK:
        return match(c, &nx, tp, v, m);
    case TA_TAB:
        return try_table(c, at->p, &nx, tp, v, m);
    case TA_GROUPS:
        return try_groups(c, &nx, tp, v, m);
    case TA_OPEN:
        return t && t->kind == K_OPEN && match(c, &nx, tp + 1, v, m);
    case TA_CLOSE:
        return t && t->kind == K_CLOSE && match(c, &nx, tp + 1, v, m);
    case TA_REG:
        return match_reg(c, at->p, t, &v, &m) && match(c, &nx, tp + 1, v, m);
    case TA_MEM:
        return match_mem(at->p, t, &v, &m) && match(c, &nx, tp + 1, v, m);
    case TA_VEC:
        return match_vec(at->p, t, &v, &m) && match(c, &nx, tp + 1, v, m);
    case TA_DISCARD:
        return t && t->kind == K_DISCARD && match(c, &nx, tp + 1, v, m);
    case TA_IMM:
    case TA_TARGET:
        if (!t) {
            return false;
        }
        if (t->kind == K_NUM) {
            val = t->val;
        } else if (at->kind == TA_TARGET && t->kind == K_NAME &&
                   label_value(c, t->name, &val)) {
            /* label */
        } else {
            return false;
        }
        return set_field(at->p, val, &v, &m) && match(c, &nx, tp + 1, v, m);
    default:
        return false;
    }
}

/* Assemble one tokenized line; 0 when no encoding fits. */
static int assemble_line(AsmCtx *c, const AsmLine *l, uint32_t out[2])
{
    c->line = l;
    c->steps = 0;
    c->found = false;
    for (unsigned i = 0; i < tesla_t_root.n; i++) {
        const TeslaEntry *e = &tesla_t_root.e[i];
        Frame f = { e->a, 0, NULL };
        if (l->force_long && !(e->val & 1)) {
            continue;
        }
        if (match(c, &f, 0, e->val, e->mask)) {
            break;
        }
    }
    if (!c->found) {
        return 0;
    }
    out[0] = c->result;
    out[1] = c->result >> 32;
    return (c->result & 1) ? 2 : 1;
}

static void ctx_init(AsmCtx *c, TeslaVariant v, TeslaProgType p)
{
    memset(c, 0, sizeof(*c));
    c->var = v;
    c->prog = p;
    c->feat = tesla_variant_features(v);
    c->progbit = 1u << p;
}

/* Tokenize an instruction, taking a leading "long" as the length hint. */
static bool prepare(const char *text, AsmLine *l, char **err)
{
    if (!tokenize(text, l, err)) {
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

static char *no_encoding(AsmCtx *c, const char *text)
{
    g_autofree char *q = quote(text);

    return g_strdup_printf("no encoding of %s on %s (%s program)%s",
                           q, tesla_variant_name(c->var),
                           tesla_prog_name(c->prog),
                           c->steps > STEP_LIMIT ? " (search too long)" : "");
}

int tesla_assemble_insn(TeslaVariant v, TeslaProgType p, const char *line,
                        uint32_t addr, uint32_t out[2], char **err)
{
    g_autofree AsmLine *l = g_new0(AsmLine, 1);
    AsmCtx c;
    int n;

    (void)addr;
    ctx_init(&c, v, p);
    if (!prepare(line, l, err)) {
        return 0;
    }
    n = assemble_line(&c, l, out);
    if (!n) {
        g_autofree char *t = g_strstrip(g_strdup(line));
        *err = no_encoding(&c, t);
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

    ctx_init(&c, v, p);
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
            while (is_id(*q)) {
                q++;
            }
            if (q == s || *q != ':' || g_ascii_isdigit(*s)) {
                break;
            }
            *q = 0;
            if (g_hash_table_contains(label_item, s)) {
                g_autofree char *lq = quote(s);
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
            if (!prepare(s, it->l, &e)) {
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
            it->size = assemble_line(&c, it->l, out);
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
                g_autofree char *e = no_encoding(&c, it->text);
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
        int n = assemble_line(&c, it->l, out);
        if (n != it->size) {
            g_autofree char *e = n ? g_strdup("instruction size changed")
                                   : no_encoding(&c, it->text);
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
