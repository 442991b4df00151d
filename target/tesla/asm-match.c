/*
 * The Tesla assembler's search: the opcode tables walked depth first, in
 * table order, for an entry path whose atoms consume exactly a line's
 * tokens; the bits the path fixes are a candidate, taken only if
 * disassembling it gives back the same tokens (see asm.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/asm-int.h"

typedef struct Frame {
    const TeslaAtom *a;
    unsigned i;
    const struct Frame *up;
} Frame;

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
    if (!tesla_asm_tokenize(s->str, dl, &err) || dl->ntok != c->line->ntok) {
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
int tesla_asm_line(AsmCtx *c, const AsmLine *l, uint32_t out[2])
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

void tesla_asm_ctx_init(AsmCtx *c, TeslaVariant v, TeslaProgType p)
{
    memset(c, 0, sizeof(*c));
    c->var = v;
    c->prog = p;
    c->feat = tesla_variant_features(v);
    c->progbit = 1u << p;
}

char *tesla_asm_no_encoding(AsmCtx *c, const char *text)
{
    g_autofree char *q = tesla_asm_quote(text);

    return g_strdup_printf("no encoding of %s on %s (%s program)%s",
                           q, tesla_variant_name(c->var),
                           tesla_prog_name(c->prog),
                           c->steps > STEP_LIMIT ? " (search too long)" : "");
}

