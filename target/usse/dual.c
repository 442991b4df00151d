/*
 * USSE VDUAL (op1 4/5, "dual issue"): decode, print and assemble the two
 * operations of one word.  Which of the four source slots (the unified
 * store slot, i0, i1, i2) feeds which operand depends on the operations'
 * source counts and on src_config; the tables are in tables.c (facts
 * from Vita3K's decoder, sgx543.md 1.5).
 *
 * Text (after "vdual.vec3|vec4[.f16][.skipinv][.cN]"):
 *
 *     OP1 DEST.mask, SRC, ... | OP2 DEST.mask, SRC, ...
 *
 * One destination is the unified store (any bank), the other an
 * FP-internal register; a unified destination that aliases an
 * FP-internal register is written "i1.us.mask".  Sources carry their
 * swizzle (".sN" for a table entry equal to an earlier one) and
 * ".neg"/".abs".  Bits an operation pair does not use are left to the
 * caller's "[unk ...]" so that every word round-trips.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse/opcodes.h"
#include "target/usse/priv.h"

#define E (&usse_dual_enc)

static uint32_t get(const UsseBits *b, uint64_t w, uint64_t *used)
{
    *used |= usse_bits_mask(b);
    return usse_bits_get(b, w);
}

/* The destination mask of the unified store: derived, not encoded
   (Vita3K; UNVERIFIED). */
static unsigned us_mask(const UsseOperand *d, bool vstore, bool vec4,
                        bool f16)
{
    if (d->bank == USSE_BANK_FPI) {
        return vec4 ? 0xf : 0x7;
    }
    if (vstore) {
        return f16 ? 0xf : 0x3;
    }
    return f16 ? 0x3 : 0x1;
}

static void set_swz(UsseOperand *o, const char *sw)
{
    static const char chans[] = "xyzw012h";

    for (int c = 0; c < 4; c++) {
        o->swz[c] = sw[c] ? strchr(chans, sw[c]) - chans : USSE_CH_W;
        if (!sw[c]) {
            break;
        }
    }
}

static void print_mask(GString *s, unsigned m)
{
    g_string_append_c(s, '.');
    if (!m) {
        g_string_append(s, "none");
    }
    for (int c = 0; c < 4; c++) {
        if (m & (1u << c)) {
            g_string_append_c(s, "xyzw"[c]);
        }
    }
}

bool usse_dual_decode(uint64_t w, UsseInsn *insn, GString *out,
                      uint64_t *used)
{
    bool vec4 = get(&E->vec4, w, used);
    bool f16 = get(&E->f16, w, used);
    unsigned b54 = get(&E->b54, w, used);
    unsigned i1 = get(&E->op1, w, used) | (!vec4 && b54) << 3;
    unsigned i2 = get(&E->op2, w, used) | get(&E->op2ext, w, used) << 3;
    int o[2] = { usse_dual_op1_code[i1], usse_dual_op2_code[i2] };
    unsigned cfg = get(&E->cfg, w, used);
    bool prim = get(&E->prim, w, used);
    const UsseDualOpInfo *inf[2];
    const uint8_t *lay[2];
    const char *const *swt = vec4 ? usse_dual_swz4 : usse_dual_swz3;
    unsigned swi[2][3];
    unsigned n1;

    if (o[0] < 0 || o[1] < 0) {
        return false;
    }
    inf[0] = &usse_dual_ops[o[0]];
    inf[1] = &usse_dual_ops[o[1]];
    n1 = inf[0]->nsrc;
    lay[0] = usse_dual_layout1[n1][cfg];
    lay[1] = usse_dual_layout2[n1][inf[1]->nsrc][cfg];
    if (!lay[0][0] || !lay[1][0]) {
        return false;
    }

    for (int k = 0; k < 2; k++) {
        UsseDualOp *d = &insn->dual[k];
        bool unified = prim == (k == 0);

        memset(d, 0, sizeof(*d));
        d->op = o[k];
        d->nsrc = inf[k]->nsrc;
        d->vec = inf[k]->vload;
        if (unified) {
            const UsseOpndDesc *dd = &usse_dual_dst[inf[k]->vstore];
            usse_opnd_decode(dd, w, &d->dst);
            *used |= usse_bits_mask(&dd->bank) | usse_bits_mask(&dd->num);
            d->mask = us_mask(&d->dst, inf[k]->vstore, vec4, f16);
        } else {
            d->dst.bank = USSE_BANK_FPI;
            d->dst.num = get(&E->dgpi, w, used);
            d->mask = get(&E->wmask, w, used) | (vec4 && b54) << 3;
        }
        d->dst.mask = d->mask;

        for (unsigned j = 0; j < d->nsrc; j++) {
            UsseOperand *s = &d->src[j];
            unsigned v;

            memset(s, 0, sizeof(*s));
            switch (lay[k][j]) {
            case UDS_US: {
                const UsseOpndDesc *sd = &usse_dual_us[inf[k]->vload];
                usse_opnd_decode(sd, w, s);
                *used |= usse_bits_mask(&sd->bank) |
                         usse_bits_mask(&sd->num);
                /* bit 15 extends the swizzle, bit 14 is abs, unless they
                   number i2 (op1 with 2 or 3 sources) */
                v = get(&E->usswz, w, used);
                if (n1 < 2) {
                    v |= get(&E->b15, w, used) << 4;
                }
                if (get(&E->usneg, w, used)) {
                    s->mods |= USSE_MOD_NEG;
                }
                if (n1 <= 2 && get(&E->b14, w, used)) {
                    s->mods |= USSE_MOD_ABS;
                }
                break;
            }
            case UDS_I0:
                s->bank = USSE_BANK_FPI;
                s->num = get(&E->g0num, w, used);
                v = get(&E->g0swz, w, used);
                break;
            case UDS_I1:
                s->bank = USSE_BANK_FPI;
                s->num = get(&E->g1num, w, used);
                v = get(&E->g1swz, w, used) |
                    get(&E->g1swzext, w, used) << 4;
                if (get(&E->g1neg, w, used)) {
                    s->mods |= USSE_MOD_NEG;
                }
                break;
            default:    /* UDS_I2: identity swizzle */
                s->bank = USSE_BANK_FPI;
                s->num = n1 >= 2 ? get(&E->b15, w, used) << 1 |
                                   get(&E->b14, w, used) : 2;
                v = 4;
                break;
            }
            if (!swt[v]) {
                return false;
            }
            swi[k][j] = v;
            set_swz(s, swt[v]);
        }
    }

    if (out) {
        g_string_append_c(out, ' ');
        for (int k = 0; k < 2; k++) {
            const UsseDualOp *d = &insn->dual[k];
            bool unified = prim == (k == 0);

            g_string_append_printf(out, "%s%s ", k ? " | " : "",
                                   inf[k]->name);
            usse_opnd_print(out, &d->dst);
            if (unified && d->dst.bank == USSE_BANK_FPI) {
                g_string_append(out, ".us");
            }
            print_mask(out, d->mask);
            for (unsigned j = 0; j < d->nsrc; j++) {
                const UsseOperand *s = &d->src[j];
                g_string_append(out, ", ");
                usse_opnd_print(out, s);
                usse_swz_print(out, swt, swi[k][j]);
                if (s->mods & USSE_MOD_NEG) {
                    g_string_append(out, ".neg");
                }
                if (s->mods & USSE_MOD_ABS) {
                    g_string_append(out, ".abs");
                }
            }
        }
    }
    return true;
}

/* ---- assembler ---- */

typedef struct DualAsm {
    uint64_t w;
    uint64_t set;           /* bits fixed so far (shared fields) */
    const char *why;
} DualAsm;

/* Set a field; a field set twice must get the same value. */
static bool cput(DualAsm *a, const UsseBits *b, uint32_t v)
{
    uint64_t m = usse_bits_mask(b);
    uint64_t nw = usse_bits_put(b, 0, v);

    if (v >> usse_bits_width(b)) {
        a->why = "value out of range";
        return false;
    }
    if ((a->set & m) && ((a->w ^ nw) & m)) {
        a->why = "operands disagree on a shared field";
        return false;
    }
    a->w = (a->w & ~m) | nw;
    a->set |= m;
    return true;
}

/* Encode an operand into the fields of @d, through cput. */
static bool cput_opnd(DualAsm *a, const UsseOpndDesc *d, const char *tok)
{
    uint64_t t = 0;
    uint64_t m = usse_bits_mask(&d->bank) | usse_bits_mask(&d->num);

    if (!usse_asm_opnd(d, tok, &t, &a->why)) {
        return false;
    }
    if ((a->set & m) && ((a->w ^ t) & m)) {
        a->why = "operands disagree on a shared field";
        return false;
    }
    a->w = (a->w & ~m) | (t & m);
    a->set |= m;
    return true;
}

/* "iN" with N <= 3. */
static bool fpi_num(const char *tok, unsigned *n)
{
    if (tok[0] != 'i' || tok[1] < '0' || tok[1] > '3' || tok[2]) {
        return false;
    }
    *n = tok[1] - '0';
    return true;
}

/* Swizzle text -> table index (first equal entry; ".sN" raw). */
static bool swz_index(const char *const *tab, unsigned n, const char *t,
                      unsigned *v)
{
    char *end;

    if (t[0] == 's' && g_ascii_isdigit(t[1])) {
        unsigned long x = strtoul(t + 1, &end, 10);
        if (*end || x >= n || !tab[x]) {
            return false;
        }
        *v = x;
        return true;
    }
    for (unsigned i = 0; i < n; i++) {
        if (tab[i] && !strcmp(tab[i], t)) {
            *v = i;
            return true;
        }
    }
    return false;
}

static bool parse_mask(const char *t, unsigned *m)
{
    int last = -1;

    *m = 0;
    if (!strcmp(t, "none")) {
        return true;
    }
    for (const char *c = t; *c; c++) {
        const char *q = strchr("xyzw", *c);
        if (!q || (int)(q - "xyzw") <= last) {
            return false;
        }
        last = q - "xyzw";
        *m |= 1u << last;
    }
    return *t != 0;
}

/* One source of slot @slot: "REG.SWZ[.neg][.abs]". */
static bool asm_src(DualAsm *a, unsigned slot, const char *text, bool vec4,
                    unsigned n1, bool vload)
{
    g_auto(GStrv) p = gemu_strsplit_c(text, '.');
    unsigned np = g_strv_length(p), v, n = 0, k = 2;
    const char *const *swt = vec4 ? usse_dual_swz4 : usse_dual_swz3;
    bool neg = false, abs = false;

    if (np < 2) {
        a->why = "source needs a swizzle";
        return false;
    }
    if (k < np && !strcmp(p[k], "neg")) {
        neg = true;
        k++;
    }
    if (k < np && !strcmp(p[k], "abs")) {
        abs = true;
        k++;
    }
    if (k != np) {
        a->why = "bad source suffix";
        return false;
    }
    switch (slot) {
    case UDS_US: {
        bool ext = n1 < 2;
        if (!swz_index(swt, ext ? 32 : 16, p[1], &v)) {
            a->why = "swizzle not encodable here";
            return false;
        }
        if (!cput_opnd(a, &usse_dual_us[vload], p[0]) ||
            !cput(a, &E->usswz, v & 15) ||
            (ext && !cput(a, &E->b15, v >> 4)) ||
            !cput(a, &E->usneg, neg)) {
            return false;
        }
        if (n1 <= 2) {
            return cput(a, &E->b14, abs);
        }
        if (abs) {
            a->why = "no .abs on this source";
            return false;
        }
        return true;
    }
    case UDS_I0:
    case UDS_I1:
    case UDS_I2:
        if (!fpi_num(p[0], &n)) {
            a->why = "source must be an FP-internal register i0..i3";
            return false;
        }
        if (abs || (neg && slot != UDS_I1)) {
            a->why = "no modifier on this source";
            return false;
        }
        break;
    }
    if (slot == UDS_I0) {
        if (!swz_index(swt, 16, p[1], &v)) {
            a->why = "swizzle not encodable here";
            return false;
        }
        return cput(a, &E->g0num, n) && cput(a, &E->g0swz, v);
    }
    if (slot == UDS_I1) {
        if (!swz_index(swt, 32, p[1], &v)) {
            a->why = "swizzle not encodable here";
            return false;
        }
        return cput(a, &E->g1num, n) && cput(a, &E->g1swz, v & 15) &&
               cput(a, &E->g1swzext, v >> 4) && cput(a, &E->g1neg, neg);
    }
    /* i2: fixed identity swizzle; its number is encoded only when op1
       has 2 or 3 sources */
    if (strcmp(p[1], swt[4])) {
        a->why = "the i2 slot has no swizzle";
        return false;
    }
    if (n1 >= 2) {
        return cput(a, &E->b15, n >> 1) && cput(a, &E->b14, n & 1);
    }
    if (n != 2) {
        a->why = "this i2 slot always reads i2";
        return false;
    }
    return true;
}

bool usse_dual_assemble(const char *text, uint64_t *w, const char **why)
{
    g_auto(GStrv) half = gemu_strsplit_c(text, '|');
    DualAsm a = { .w = *w };
    bool vec4 = usse_bits_get(&E->vec4, *w);
    bool f16 = usse_bits_get(&E->f16, *w);
    unsigned cfg = usse_bits_get(&E->cfg, *w);
    g_auto(GStrv) ent0 = NULL;
    g_auto(GStrv) ent1 = NULL;
    char **ent[2];
    int op[2] = { -1, -1 };
    const uint8_t *lay[2];
    int unified = -1;
    unsigned n1;

    if (g_strv_length(half) != 2) {
        *why = "expected two operations separated by '|'";
        return false;
    }
    for (int k = 0; k < 2; k++) {
        char *t = g_strstrip(half[k]);
        char *sp = strchr(t, ' ');

        if (!sp) {
            *why = "an operation needs a destination";
            return false;
        }
        *sp = 0;
        for (int i = 0; i < UDV_NUM; i++) {
            if (!strcmp(usse_dual_ops[i].name, t)) {
                op[k] = i;
            }
        }
        if (op[k] < 0 || (k == 1 && op[k] == UDV_VMAD) ||
            (k == 0 && vec4 && op[k] >= 8)) {
            *why = "operation not available here";
            return false;
        }
        ent[k] = gemu_strsplit_c(sp + 1, ',');
        if (k) {
            ent1 = ent[k];
        } else {
            ent0 = ent[k];
        }
        for (char **e = ent[k]; *e; e++) {
            g_strstrip(*e);
        }
    }
    n1 = usse_dual_ops[op[0]].nsrc;
    lay[0] = usse_dual_layout1[n1][cfg];
    lay[1] = usse_dual_layout2[n1][usse_dual_ops[op[1]].nsrc][cfg];
    if (!lay[0][0] || !lay[1][0]) {
        *why = "no source configuration for these operations";
        return false;
    }
    /* the operation codes (bit 54 is op1's extension in vec3 mode) */
    if (!cput(&a, &E->op1, op[0] & 7) ||
        (!vec4 && !cput(&a, &E->b54, op[0] >> 3)) ||
        !cput(&a, &E->op2, op[1] & 7) || !cput(&a, &E->op2ext, op[1] >> 3)) {
        *why = a.why;
        return false;
    }

    /* which destination is the unified store */
    for (int k = 0; k < 2; k++) {
        const UsseDualOpInfo *inf = &usse_dual_ops[op[k]];
        g_auto(GStrv) p = NULL;
        unsigned n, m;

        if (g_strv_length(ent[k]) != 1u + inf->nsrc) {
            *why = "wrong number of operands";
            return false;
        }
        p = gemu_strsplit_c(ent[k][0], '.');
        if (g_strv_length(p) < 2 || !parse_mask(p[g_strv_length(p) - 1],
                                                 &m)) {
            *why = "destination needs a write mask";
            return false;
        }
        if (g_strv_length(p) == 3 && !strcmp(p[1], "us")) {
            if (!fpi_num(p[0], &n)) {
                *why = ".us marks an FP-internal unified destination";
                return false;
            }
        } else if (g_strv_length(p) != 2) {
            *why = "bad destination suffix";
            return false;
        } else if (fpi_num(p[0], &n)) {
            /* the internal destination: mask bit 3 is bit 54 (vec4) */
            if (!cput(&a, &E->dgpi, n) || !cput(&a, &E->wmask, m & 7)) {
                *why = a.why;
                return false;
            }
            if (vec4 ? !cput(&a, &E->b54, m >> 3) : (m >> 3) != 0) {
                *why = a.why ? a.why : "vec3: no w in the write mask";
                return false;
            }
            continue;
        }
        if (unified >= 0) {
            *why = "two unified-store destinations";
            return false;
        }
        unified = k;
        if (!cput_opnd(&a, &usse_dual_dst[inf->vstore], p[0])) {
            *why = a.why;
            return false;
        }
        {
            UsseOperand d;
            usse_opnd_decode(&usse_dual_dst[inf->vstore], a.w, &d);
            if (m != us_mask(&d, inf->vstore, vec4, f16)) {
                *why = "the unified-store write mask is implied and "
                       "differs";
                return false;
            }
        }
    }
    if (unified < 0) {
        *why = "no unified-store destination";
        return false;
    }
    if (!cput(&a, &E->prim, unified == 0)) {
        *why = a.why;
        return false;
    }
    for (int k = 0; k < 2; k++) {
        const UsseDualOpInfo *inf = &usse_dual_ops[op[k]];
        for (unsigned j = 0; j < inf->nsrc; j++) {
            if (!asm_src(&a, lay[k][j], ent[k][1 + j], vec4, n1,
                         inf->vload)) {
                *why = a.why;
                return false;
            }
        }
    }
    *w = a.w;
    return true;
}
