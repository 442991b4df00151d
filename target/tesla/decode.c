/*
 * The Tesla table engine: walks the opcode tables (opcodes.h) for one
 * instruction, filling TeslaInsn and/or printing envydis text, and
 * tesla_decode() for the interpreter.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

#define MAX_DEPTH 8

struct TeslaDecodeCtx {
    uint64_t bits;
    uint64_t used;
    uint32_t feat;
    unsigned progbit;
    TeslaVariant var;
    TeslaInsn *insn;
    GString *text;
    size_t text_start;
    /* printing */
    int depth;
    bool named[MAX_DEPTH];
    bool unk_insn, unk_operand;
    uint8_t target_mark;
    uint32_t target;
    /* semantics */
    uint8_t role_override;
    uint8_t nextsrc;
    uint8_t mtype;
    uint16_t memclass;
    bool pend_neg, pend_abs, pend_not;
    uint8_t pend_srctype;
    int8_t err;
};

/* ---- bit fields ---- */

static uint64_t piece(uint64_t bits, unsigned pos, unsigned len)
{
    if (!len) {
        return 0;
    }
    return (bits >> pos) & (len >= 64 ? ~0ull : (1ull << len) - 1);
}

static uint64_t piece_mask(unsigned pos, unsigned len)
{
    if (!len) {
        return 0;
    }
    return (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
}

int64_t tesla_bits_get(const TeslaBits *b, uint64_t bits)
{
    uint64_t v = piece(bits, b->pos, b->len) |
                 piece(bits, b->pos2, b->len2) << b->len;
    unsigned tot = b->len + b->len2 + b->shl;

    v <<= b->shl;
    if (b->sign && tot && (v >> (tot - 1)) & 1) {
        v -= 1ull << tot;
    }
    return (int64_t)(v + b->addend);
}

uint64_t tesla_bits_mask(const TeslaBits *b)
{
    return piece_mask(b->pos, b->len) | piece_mask(b->pos2, b->len2);
}

static int64_t field(TeslaDecodeCtx *dc, const TeslaBits *b)
{
    dc->used |= tesla_bits_mask(b);
    return tesla_bits_get(b, dc->bits);
}

uint64_t tesla_dc_bits(TeslaDecodeCtx *dc, unsigned pos, unsigned len)
{
    dc->used |= piece_mask(pos, len);
    return piece(dc->bits, pos, len);
}

TeslaInsn *tesla_dc_insn(TeslaDecodeCtx *dc)
{
    return dc->insn;
}

/* ---- text ---- */

enum { TOK_NAME, TOK_UNK, TOK_EXPR, TOK_OPEN, TOK_CLOSE };

static void emit(TeslaDecodeCtx *dc, int kind, const char *s)
{
    GString *t = dc->text;

    if (kind == TOK_NAME || kind == TOK_UNK) {
        if (!dc->named[dc->depth]) {
            dc->named[dc->depth] = true;
            if (kind == TOK_UNK) {
                dc->unk_insn = true;
            }
        } else if (kind == TOK_UNK) {
            dc->unk_operand = true;
        }
    }
    if (kind == TOK_OPEN && dc->depth + 1 < MAX_DEPTH) {
        dc->depth++;
        dc->named[dc->depth] = false;
    } else if (kind == TOK_CLOSE && dc->depth > 0) {
        dc->depth--;
    }
    if (!t) {
        return;
    }
    if (t->len > dc->text_start && kind != TOK_CLOSE &&
        t->str[t->len - 1] != '(') {
        g_string_append_c(t, ' ');
    }
    g_string_append(t, s);
}

static void append_num(GString *t, int64_t v)
{
    if (v < 0) {
        g_string_append_printf(t, "-0x%" PRIx64, (uint64_t)-v);
    } else {
        g_string_append_printf(t, "0x%" PRIx64, (uint64_t)v);
    }
}

static const char *const sreg_names[] = {
    [0] = "physid", [1] = "clock", [3] = "vstride",
    [4] = "pm0", [5] = "pm1", [6] = "pm2", [7] = "pm3", [8] = "sampleid",
};

/* the name of $sr@n on this variant, NULL if unnamed */
static const char *sreg_name(uint32_t feat, int64_t n)
{
    if (n < 0 || n >= (int64_t)ARRAY_SIZE(sreg_names)) {
        return NULL;
    }
    if (n == 8 && !(feat & TESLA_F_D3D10_1)) {
        return NULL;
    }
    return sreg_names[n];
}

/* Print register @n of @kind; returns false for "$a0" (prints nothing). */
static bool format_reg(GString *t, uint32_t feat, int kind, int64_t n,
                       bool a0_as_zero)
{
    const char *name;

    switch (kind) {
    case TRK_R:
        g_string_append_printf(t, "$r%" PRId64, n);
        break;
    case TRK_H:
        g_string_append_printf(t, "$r%" PRId64 "%c", n >> 1,
                               (n & 1) ? 'h' : 'l');
        break;
    case TRK_D:
        g_string_append_printf(t, "$r%" PRId64 "d", n);
        break;
    case TRK_Q:
        g_string_append_printf(t, "$r%" PRId64 "q", n);
        break;
    case TRK_A:
        if (n == 0) {
            if (a0_as_zero) {
                g_string_append(t, "0x0");
            }
            return false;
        }
        g_string_append_printf(t, "$a%" PRId64, n);
        break;
    case TRK_C:
        g_string_append_printf(t, "$c%" PRId64, n);
        break;
    case TRK_T:
        g_string_append_printf(t, "$t%" PRId64, n);
        break;
    case TRK_S:
        g_string_append_printf(t, "$s%" PRId64, n);
        break;
    case TRK_SR:
        name = sreg_name(feat, n);
        if (name) {
            g_string_append_printf(t, "$%s", name);
        } else {
            g_string_append_printf(t, "$sr%" PRId64, n);
        }
        break;
    }
    return true;
}

static const char *const space_names[] = {
    [TSPACE_C] = "c", [TSPACE_S] = "s", [TSPACE_L] = "l", [TSPACE_G] = "g",
    [TSPACE_A] = "a", [TSPACE_P] = "p", [TSPACE_O] = "o", [TSPACE_V] = "v",
};

/* ---- semantics ---- */

static uint8_t eff_role(TeslaDecodeCtx *dc, uint8_t role)
{
    if (dc->role_override && (role == RO_DST || role == RO_SRC)) {
        return dc->role_override;
    }
    return role;
}

/* The operand an operand role designates, NULL if none. */
static TeslaOperand *role_opnd(TeslaDecodeCtx *dc, uint8_t role)
{
    TeslaInsn *insn = dc->insn;
    unsigned idx;
    TeslaOperand *o;

    switch (role) {
    case RO_DST:
        return &insn->dst;
    case RO_SRC:
        idx = dc->nextsrc++;
        break;
    case RO_S0: case RO_S1: case RO_S2: case RO_S3:
        idx = role - RO_S0;
        if (idx >= dc->nextsrc) {
            dc->nextsrc = idx + 1;
        }
        break;
    default:
        return NULL;
    }
    if (idx >= ARRAY_SIZE(insn->src)) {
        return NULL;
    }
    if (idx + 1 > insn->nsrc) {
        insn->nsrc = idx + 1;
    }
    o = &insn->src[idx];
    o->neg |= dc->pend_neg;
    o->abs |= dc->pend_abs;
    o->not_ |= dc->pend_not;
    if (dc->pend_srctype) {
        o->mtype = dc->pend_srctype;
    }
    dc->pend_neg = dc->pend_abs = dc->pend_not = false;
    dc->pend_srctype = 0;
    return o;
}

static void set_err(TeslaDecodeCtx *dc, TeslaError e)
{
    if (dc->err == TESLA_ERR_NONE) {
        dc->err = e;
    }
}

static void do_action(TeslaDecodeCtx *dc, uint8_t role, uint32_t v)
{
    TeslaInsn *insn = dc->insn;

    switch (role) {
    case RO_OP: insn->op = v; break;
    case RO_MOD: insn->mods |= v; break;
    case RO_DTYPE: insn->dtype = v; break;
    case RO_STYPE: insn->stype = v; break;
    case RO_TYPE: insn->dtype = insn->stype = v; break;
    case RO_MTYPE: dc->mtype = v; break;
    case RO_RND: insn->rnd = v; break;
    case RO_ADDOP: insn->addop = v; break;
    case RO_LOGOP: insn->logop = v; break;
    case RO_CMP: insn->cmp = v; break;
    case RO_ATOMOP: insn->atomop = v; break;
    case RO_LANEMASK: insn->lanemask = v; break;
    case RO_QOP0: case RO_QOP1: case RO_QOP2: case RO_QOP3:
        insn->quad_ops[role - RO_QOP0] = v;
        break;
    case RO_QSRC: insn->quad_src = v; break;
    case RO_POST: insn->post = v; break;
    case RO_PRED: insn->pred = v; break;
    case RO_NEG_NEXT: dc->pend_neg = true; break;
    case RO_ABS_NEXT: dc->pend_abs = true; break;
    case RO_NOT_NEXT: dc->pend_not = true; break;
    case RO_SRCTYPE_NEXT: dc->pend_srctype = v; break;
    case RO_TEXKIND: insn->tex.kind = v; break;
    case RO_TEXDIMS: insn->tex.dims = v; break;
    case RO_TEXFLAGS: insn->tex.flags |= v; break;
    default: break;
    }
}

/* isa.rst "Shared memory access": which s[] modes a source allows */
static void check_memclass(TeslaDecodeCtx *dc, uint8_t mtype)
{
    unsigned cls = dc->memclass & 0xff;
    bool sgn;

    switch (cls) {
    case TESLA_MC_HALF:
    case TESLA_MC_UHALF:
    case TESLA_MC_SHALF:
    case TESLA_MC_HALFSB:
        if (mtype == TTYPE_B32) {
            set_err(dc, TESLA_ERR_ILLEGAL_MEMORY_SIZE);
            return;
        }
        if (cls == TESLA_MC_HALF) {
            return;
        }
        if (cls == TESLA_MC_HALFSB) {
            sgn = (dc->bits >> (dc->memclass >> 8)) & 1;
        } else {
            sgn = cls == TESLA_MC_SHALF;
        }
        if ((sgn && mtype == TTYPE_U16) || (!sgn && mtype == TTYPE_S16)) {
            set_err(dc, TESLA_ERR_ILLEGAL_MEMORY_SIGN);
        }
        break;
    case TESLA_MC_BYTE:
        if (mtype != TTYPE_U8) {
            set_err(dc, TESLA_ERR_ILLEGAL_MEMORY_BYTE);
        }
        break;
    default:
        break;
    }
}

/* ---- atoms ---- */

static void walk_table(TeslaDecodeCtx *dc, const TeslaTable *t);

static void do_reg(TeslaDecodeCtx *dc, const TeslaAtom *at)
{
    const TeslaRegDesc *rd = at->p;
    int64_t n = field(dc, &rd->f);
    uint8_t role = eff_role(dc, at->role);
    TeslaInsn *insn = dc->insn;
    TeslaOperand *o;

    if (dc->text) {
        g_autoptr(GString) s = g_string_new(NULL);
        format_reg(s, dc->feat, rd->kind, n, true);
        emit(dc, TOK_EXPR, s->str);
    }
    switch (role) {
    case RO_CDST: insn->cdst = n; return;
    case RO_CSRC: insn->csrc = n; return;
    case RO_PREDC: insn->pred_c = n; return;
    case RO_TEX: insn->tex.tex = n; return;
    case RO_SAMP: insn->tex.samp = n; return;
    default: break;
    }
    o = role_opnd(dc, role);
    if (!o) {
        return;
    }
    switch (rd->kind) {
    case TRK_H:
        o->kind = TOPND_HREG;
        o->reg = n >> 1;
        o->half = n & 1;
        break;
    case TRK_D: o->kind = TOPND_DREG; o->reg = n; break;
    case TRK_Q: o->kind = TOPND_QREG; o->reg = n; break;
    case TRK_A: o->kind = TOPND_AREG; o->areg = n; break;
    case TRK_C: o->kind = TOPND_CREG; o->reg = n; break;
    case TRK_SR: o->kind = TOPND_SREG; o->reg = n; break;
    default: o->kind = TOPND_REG; o->reg = n; break;
    }
}

static void do_mem(TeslaDecodeCtx *dc, const TeslaAtom *at)
{
    const TeslaMemDesc *md = at->p;
    int64_t idx = 0, off = 0, rn = 0;
    bool has_reg = false;
    TeslaOperand *o;

    if (md->idx.len) {
        idx = field(dc, &md->idx);
    }
    if (md->reg) {
        rn = field(dc, &md->reg->f);
        has_reg = md->reg->kind != TRK_A || rn != 0;
    }
    if (md->off.len) {
        off = field(dc, &md->off);
    }
    if (dc->text) {
        g_autoptr(GString) s = g_string_new(space_names[md->space]);
        if (md->idx.len) {
            g_string_append_printf(s, "%" PRId64, idx);
        }
        g_string_append_c(s, '[');
        if (md->flags & TMEM_POSTINC) {
            if (has_reg) {
                format_reg(s, dc->feat, md->reg->kind, rn, false);
            } else {
                g_string_append(s, "0x0");
            }
            g_string_append(s, "++");
            append_num(s, off);
        } else if (has_reg) {
            format_reg(s, dc->feat, md->reg->kind, rn, false);
            if (off > 0) {
                g_string_append_c(s, '+');
                append_num(s, off);
            } else if (off < 0) {
                g_string_append_c(s, '-');
                append_num(s, -off);
            }
        } else {
            append_num(s, off);
        }
        g_string_append_c(s, ']');
        emit(dc, TOK_EXPR, s->str);
    }
    if ((md->flags & TMEM_POSTINC) && md->reg && md->reg->kind == TRK_A &&
        (rn == 0 || rn == 5 || rn == 6)) {
        set_err(dc, TESLA_ERR_ILLEGAL_POSTINCR);
    }
    if (md->space == TSPACE_S && dc->memclass) {
        check_memclass(dc, dc->mtype);
    }
    o = role_opnd(dc, eff_role(dc, at->role));
    if (o) {
        o->kind = TOPND_MEM;
        o->space = md->space;
        o->space_idx = idx;
        o->mtype = dc->mtype;
        o->postinc = !!(md->flags & TMEM_POSTINC);
        o->imm = (uint32_t)off;
        if (md->reg && md->reg->kind == TRK_A) {
            o->areg = rn;
        } else if (md->reg) {
            o->reg = rn;
        }
    }
    dc->mtype = TTYPE_NONE;
}

static void do_vec(TeslaDecodeCtx *dc, const TeslaAtom *at)
{
    const TeslaVecDesc *vd = at->p;
    int64_t base = field(dc, &vd->base);
    int64_t cnt = field(dc, &vd->cnt);
    uint64_t mask = vd->mask.len || vd->mask.len2 ? field(dc, &vd->mask)
                                                   : ~0ull;
    TeslaOperand *o;

    if (dc->text) {
        g_autoptr(GString) s = g_string_new(NULL);
        int k = 0;
        for (int i = 0; i < cnt; i++) {
            if (i) {
                g_string_append_c(s, ':');
            }
            if (mask & (1ull << i)) {
                g_string_append_printf(s, "$r%" PRId64, base + k++);
            } else {
                g_string_append_c(s, '#');
            }
        }
        if (!cnt) {
            g_string_append(s, "()");
        }
        emit(dc, TOK_EXPR, s->str);
    }
    o = role_opnd(dc, eff_role(dc, at->role));
    if (o) {
        o->kind = TOPND_VREG;
        o->reg = base;
        o->vmask = mask & ((1u << (cnt < 8 ? cnt : 8)) - 1);
        o->vcount = cnt;
    }
}

static void do_atom(TeslaDecodeCtx *dc, const TeslaAtom *at)
{
    TeslaOperand *o;
    int64_t v;

    switch (at->kind) {
    case TA_NAME:
        emit(dc, TOK_NAME, at->p);
        do_action(dc, at->role, at->arg);
        break;
    case TA_SET:
        do_action(dc, at->role, at->arg);
        break;
    case TA_TAB: {
        uint8_t save_role = dc->role_override;
        uint16_t save_mc = dc->memclass;
        if (at->role) {
            dc->role_override = at->role;
        }
        if (at->arg) {
            dc->memclass = at->arg;
        }
        walk_table(dc, at->p);
        dc->role_override = save_role;
        dc->memclass = save_mc;
        break;
    }
    case TA_OPEN:
        emit(dc, TOK_OPEN, "(");
        break;
    case TA_CLOSE:
        emit(dc, TOK_CLOSE, ")");
        break;
    case TA_UNK:
        emit(dc, TOK_UNK, "???");
        break;
    case TA_REG:
        do_reg(dc, at);
        break;
    case TA_MEM:
        do_mem(dc, at);
        break;
    case TA_IMM:
    case TA_TARGET:
        v = field(dc, at->p);
        if (at->kind == TA_TARGET) {
            dc->target_mark = at->arg;
            dc->target = v;
        }
        if (dc->text) {
            g_autoptr(GString) s = g_string_new(NULL);
            append_num(s, v);
            emit(dc, TOK_EXPR, s->str);
        }
        if (at->role == RO_BAR) {
            dc->insn->bar = v;
        } else if (at->role >= RO_TEXOFF0 && at->role <= RO_TEXOFF2) {
            dc->insn->tex.offs[at->role - RO_TEXOFF0] = v;
        } else if ((o = role_opnd(dc, eff_role(dc, at->role)))) {
            o->kind = at->kind == TA_TARGET ? TOPND_TARGET : TOPND_IMM;
            o->imm = (uint32_t)v;
        }
        break;
    case TA_IGN:
        field(dc, at->p);
        break;
    case TA_DISCARD:
        emit(dc, TOK_EXPR, "#");
        if ((o = role_opnd(dc, eff_role(dc, at->role)))) {
            o->kind = TOPND_DISCARD;
        }
        break;
    case TA_VEC:
        do_vec(dc, at);
        break;
    case TA_HOOK: {
        const TeslaHook *h = at->p;
        if (h->decode) {
            h->decode(dc, at);
        }
        break;
    }
    case TA_GROUPS: {
        TeslaClass cls = tesla_class_of(dc->bits);
        unsigned op = (dc->bits >> 28) & 0xf;
        for (unsigned g = 0; g < tesla_ngroups; g++) {
            const TeslaTable *t = tesla_groups[g]->ops[cls][op];
            if (t && tesla_table_find(t, dc->bits, dc->feat, dc->progbit)) {
                walk_table(dc, t);
                return;
            }
        }
        walk_table(dc, tesla_class_fallback[cls]);
        break;
    }
    default:
        break;
    }
}

const TeslaEntry *tesla_table_find(const TeslaTable *t, uint64_t bits,
                                   uint32_t feat, unsigned progbit)
{
    for (unsigned i = 0; i < t->n; i++) {
        const TeslaEntry *e = &t->e[i];
        if ((bits & e->mask) == e->val &&
            (e->feat & feat) == e->feat &&
            (!e->progs || (e->progs & progbit))) {
            return e;
        }
    }
    return NULL;
}

static void walk_table(TeslaDecodeCtx *dc, const TeslaTable *t)
{
    const TeslaEntry *e = tesla_table_find(t, dc->bits, dc->feat,
                                           dc->progbit);

    if (!e) {
        return;
    }
    dc->used |= e->mask;
    if (e->op) {
        dc->insn->op = e->op;
    }
    for (unsigned i = 0; i < TESLA_MAX_ATOMS && e->a[i].kind != TA_END;
         i++) {
        do_atom(dc, &e->a[i]);
    }
}

static void insn_init(TeslaInsn *insn)
{
    memset(insn, 0, sizeof(*insn));
    insn->error = TESLA_ERR_NONE;
    insn->pred = TPRED_ALWAYS;
    insn->cdst = -1;
    insn->lanemask = 0xf;
}

void tesla_walk(TeslaVariant v, TeslaProgType p, uint64_t bits,
                TeslaInsn *insn, GString *text, TeslaWalk *res)
{
    TeslaDecodeCtx dc = { 0 };
    TeslaInsn scratch;

    if (!insn) {
        insn = &scratch;
    }
    insn_init(insn);
    dc.var = v;
    dc.feat = tesla_variant_features(v);
    dc.progbit = 1u << p;
    dc.insn = insn;
    dc.text = text;
    dc.text_start = text ? text->len : 0;
    dc.err = TESLA_ERR_NONE;
    if (!(bits & 1)) {
        bits &= 0xffffffffull;
    }
    dc.bits = bits;

    walk_table(&dc, &tesla_t_root);

    res->len = (bits & 1) ? 8 : 4;
    res->unknown = bits & ~dc.used;
    res->unk_insn = dc.unk_insn;
    res->unk_operand = dc.unk_operand;
    res->target_mark = dc.target_mark;
    res->target = dc.target;
    insn->len = res->len;
    insn->w[0] = bits;
    insn->w[1] = res->len == 8 ? bits >> 32 : 0;
    insn->error = dc.err;
}

/* ---- tesla_decode ---- */

/* Program-type errors the MP reports for opcodes valid elsewhere. */
static TeslaError progtype_error(TeslaProgType p, uint64_t bits)
{
    TeslaClass cls = tesla_class_of(bits);
    bool vpgp = p == TESLA_PROG_VP || p == TESLA_PROG_GP;

    if (cls == TCLS_LONG && !vpgp &&
        ((bits & 0xe4200000f0000000ull) == 0x0420000000000000ull ||
         (bits & 0xe0c00000f0000000ull) == 0x80c0000000000000ull)) {
        return TESLA_ERR_LD_A_ST_O_NON_VP_GP;
    }
    if (p != TESLA_PROG_FP &&
        ((cls == TCLS_SHORT && (bits & 0xf0000000) == 0x80000000) ||
         (cls == TCLS_LONG && (bits & 0xf0000000) == 0x80000000))) {
        return TESLA_ERR_INTERP_NON_FP;
    }
    if (p != TESLA_PROG_GP && cls == TCLS_LONG &&
        (bits & 0xe0000000f0000000ull) == 0xc0000000f0000000ull &&
        (bits & 0x600)) {
        return TESLA_ERR_EMIT_NON_GP;
    }
    return TESLA_ERR_NONE;
}

void tesla_decode(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                  size_t nwords, uint32_t addr, TeslaInsn *insn)
{
    size_t idx = addr / 4;
    uint64_t bits;
    TeslaWalk res;
    TeslaError err;

    if ((addr & 3) || idx >= nwords) {
        insn_init(insn);
        insn->addr = addr;
        insn->len = 4;
        insn->op = TOP_INVALID;
        insn->error = TESLA_ERR_ILLEGAL_OPCODE;
        return;
    }
    bits = code[idx];
    if ((bits & 1) && idx + 1 < nwords) {
        bits |= (uint64_t)code[idx + 1] << 32;
    }
    tesla_walk(v, p, bits, insn, NULL, &res);
    insn->addr = addr;

    err = TESLA_ERR_NONE;
    if (res.len == 8 && (idx & 1)) {
        err = TESLA_ERR_UNALIGNED_LONG_INSTRUCTION;
    } else if (res.len == 8 && idx + 1 >= nwords) {
        err = TESLA_ERR_ILLEGAL_OPCODE;
    }
    if (err == TESLA_ERR_NONE) {
        err = progtype_error(p, bits);
    }
    if (err == TESLA_ERR_NONE && insn->error != TESLA_ERR_NONE) {
        err = insn->error;
    }
    /*
     * UNVERIFIED: bits envydis cannot explain are treated as an illegal
     * opcode, like encodings it prints as "???" (also what a variant
     * lacking a feature sees).
     */
    if (err == TESLA_ERR_NONE &&
        (res.unk_insn || res.unk_operand || res.unknown ||
         insn->op == TOP_INVALID)) {
        err = TESLA_ERR_ILLEGAL_OPCODE;
    }
    insn->error = err;
    if (err != TESLA_ERR_NONE) {
        insn->op = TOP_INVALID;
    }
}
