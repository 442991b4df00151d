/*
 * USSE decoder and disassembler: one walk over a form's items fills the
 * pre-decoded UsseInsn and, if asked, prints the text.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse.h"
#include "target/usse/opcodes.h"
#include "target/usse/priv.h"

uint32_t usse_bits_get(const UsseBits *b, uint64_t word)
{
    uint32_t v = 0;
    unsigned sh = 0;

    for (unsigned i = 0; i < b->n; i++) {
        uint64_t piece = (word >> b->p[i].pos) & ((1ull << b->p[i].len) - 1);
        v |= (uint32_t)piece << sh;
        sh += b->p[i].len;
    }
    return v;
}

uint64_t usse_bits_put(const UsseBits *b, uint64_t word, uint32_t v)
{
    for (unsigned i = 0; i < b->n; i++) {
        uint64_t m = ((1ull << b->p[i].len) - 1) << b->p[i].pos;
        word = (word & ~m) | (((uint64_t)v << b->p[i].pos) & m);
        v >>= b->p[i].len;
    }
    return word;
}

uint64_t usse_bits_mask(const UsseBits *b)
{
    uint64_t m = 0;

    for (unsigned i = 0; i < b->n; i++) {
        m |= ((1ull << b->p[i].len) - 1) << b->p[i].pos;
    }
    return m;
}

unsigned usse_bits_width(const UsseBits *b)
{
    unsigned w = 0;

    for (unsigned i = 0; i < b->n; i++) {
        w += b->p[i].len;
    }
    return w;
}

const UsseForm *usse_find_form(uint64_t word)
{
    for (unsigned i = 0; i < usse_nforms; i++) {
        if ((word & usse_forms[i].mask) == usse_forms[i].val) {
            return &usse_forms[i];
        }
    }
    return NULL;
}

static const char *const bank_names[USSE_BANK_NUM] = {
    [USSE_BANK_NONE] = "?",
    [USSE_BANK_TEMP] = "r",
    [USSE_BANK_OUTPUT] = "o",
    [USSE_BANK_PA] = "pa",
    [USSE_BANK_SA] = "sa",
    [USSE_BANK_FPI] = "i",
    [USSE_BANK_CONST] = "c",
    [USSE_BANK_GLOBAL] = "g",
    [USSE_BANK_IMM] = "#",
    [USSE_BANK_INDEX] = "idx",
    [USSE_BANK_INDEXED1] = "xa",
    [USSE_BANK_INDEXED2] = "xb",
};

const char *usse_bank_name(UsseBank b)
{
    return b < USSE_BANK_NUM ? bank_names[b] : "?";
}

/* Bank by class, [ext][sel].  Special is split into CONST/GLOBAL later. */
#define SPECIAL USSE_BANK_CONST
const uint8_t usse_bank_map[5][2][4] = {
    [UBC_DEST] = {
        { USSE_BANK_TEMP, USSE_BANK_OUTPUT, USSE_BANK_PA,
          USSE_BANK_INDEXED1 },
        { USSE_BANK_SA, SPECIAL, USSE_BANK_INDEX, USSE_BANK_INDEXED2 },
    },
    [UBC_SRC0] = {
        { USSE_BANK_TEMP, USSE_BANK_PA },
        { USSE_BANK_OUTPUT, USSE_BANK_SA },
    },
    [UBC_SRC12] = {
        { USSE_BANK_TEMP, USSE_BANK_OUTPUT, USSE_BANK_PA, USSE_BANK_SA },
        { USSE_BANK_INDEXED1, SPECIAL, USSE_BANK_IMM, USSE_BANK_INDEXED2 },
    },
    [UBC_TEMP_PA] = {
        { USSE_BANK_TEMP, USSE_BANK_PA },
    },
};
#undef SPECIAL

unsigned usse_fpi_limit(const UsseOpndDesc *d)
{
    return (1u << d->bits) - (d->dbl ? 8 : 4);
}

void usse_opnd_decode(const UsseOpndDesc *d, uint64_t w, UsseOperand *o)
{
    unsigned n = usse_bits_get(&d->num, w);

    memset(o, 0, sizeof(*o));
    for (int c = 0; c < 4; c++) {
        o->swz[c] = c;
    }
    if (d->cls == UBC_GPI) {
        o->bank = USSE_BANK_FPI;
        o->num = n;
        return;
    }
    unsigned sel = d->bank.n ? usse_bits_get(&d->bank, w) : 0;
    unsigned ext = d->ext >= 0 ? (w >> d->ext) & 1 : 0;
    unsigned bank = usse_bank_map[d->cls][ext][sel];
    unsigned num = n;

    if (bank == USSE_BANK_INDEXED1 || bank == USSE_BANK_INDEXED2) {
        /*
         * UNVERIFIED (no public source has the layout): the top two bits
         * of the number pick the bank addressed, the rest is an offset
         * added to the index register (in the operand's units).
         */
        static const uint8_t ibanks[4] = {
            USSE_BANK_TEMP, USSE_BANK_OUTPUT, USSE_BANK_PA, USSE_BANK_SA };
        unsigned wd = usse_bits_width(&d->num);
        o->bank = bank;
        o->ibank = ibanks[n >> (wd - 2)];
        o->num = (n & ((1u << (wd - 2)) - 1)) << (d->dbl ? 1 : 0);
        return;
    }
    if (bank == USSE_BANK_CONST || bank == USSE_BANK_IMM) {
        /* special and immediate numbers are never doubled */
        if (bank == USSE_BANK_CONST && (num & 0x40)) {
            bank = USSE_BANK_GLOBAL;
            num &= 0x3f;
        }
    } else {
        if (d->dbl) {
            num = (num << 1) & 0xff;
        }
        if (bank == USSE_BANK_TEMP && num >= usse_fpi_limit(d)) {
            bank = USSE_BANK_FPI;
            num = (num - usse_fpi_limit(d)) >> (d->dbl ? 1 : 0);
        }
    }
    o->bank = bank;
    o->num = num;
}

static const char chan_chars[] = "xyzw012h";

void usse_opnd_print(GString *s, const UsseOperand *o)
{
    if (o->bank == USSE_BANK_INDEXED1 || o->bank == USSE_BANK_INDEXED2) {
        g_string_append_printf(s, "%s[idx%u+%u]", bank_names[o->ibank],
                               o->bank == USSE_BANK_INDEXED2, o->num);
    } else {
        g_string_append_printf(s, "%s%u", bank_names[o->bank], o->num);
    }
}

void usse_swz_print(GString *s, const char *const *tab, unsigned v)
{
    unsigned first = 0;

    while (!tab[first] || strcmp(tab[first], tab[v])) {
        first++;
    }
    if (first != v) {
        g_string_append_printf(s, ".s%u", v);
    } else {
        g_string_append_printf(s, ".%s", tab[v]);
    }
}

static void put_sep(GString *s, bool *first)
{
    g_string_append(s, *first ? " " : ", ");
    *first = false;
}

/*
 * The core walk.  @out may be NULL (decode only).  Returns false for a
 * field value the tables call invalid.
 */
static bool walk(const UsseForm *fm, uint64_t w, UsseInsn *insn,
                 GString *out)
{
    g_autoptr(GString) pre = g_string_new(NULL);
    g_autoptr(GString) mn = g_string_new(fm->mnem);
    g_autoptr(GString) list = g_string_new(NULL);
    uint64_t explained = fm->mask;
    UsseOperand *cur = NULL;
    bool first = true;

    insn->op = fm->op;
    for (const UsseItem *it = fm->items; it->kind != UI_END; it++) {
        GString *s = it->where == UW_MNEM ? mn : list;
        uint32_t v = it->bits.n ? usse_bits_get(&it->bits, w) : 0;

        explained |= usse_bits_mask(&it->bits);
        if (it->kind != UI_OPND && it->role) {
            insn->f[it->role] = v;
        }
        switch (it->kind) {
        case UI_PRED:
            insn->pred = it->vals[v];
            if (it->names[v][0]) {
                g_string_append_printf(pre, "%s ", it->names[v]);
            }
            break;
        case UI_FLAG:
            if (v) {
                g_string_append_printf(s, ".%s", it->name);
                if (cur && it->where == UW_OPND) {
                    cur->mods |= it->mod;
                }
            }
            break;
        case UI_ENUM:
            if (!it->names[v]) {
                return false;
            }
            if (it->names[v][0]) {
                g_string_append_printf(s, ".%s", it->names[v]);
            }
            if (it->role == UF_FMT && it->vals) {
                insn->fmt = it->vals[v];
            } else if (it->role == UF_SFMT && it->vals) {
                insn->sfmt = it->vals[v];
            }
            if (cur && it->where == UW_OPND) {
                if (it->mod == 0xff) {
                    cur->mods |= (v & 1 ? USSE_MOD_NEG : 0) |
                                 (v & 2 ? USSE_MOD_ABS : 0);
                } else if (it->arg == 1) {
                    cur->comp = v;
                }
            }
            break;
        case UI_LIT:
            g_string_append_printf(s, ".%s", it->name);
            if (it->role == UF_FMT) {
                insn->fmt = it->arg;
                insn->f[UF_FMT] = 0;
            }
            break;
        case UI_RPT:
            insn->repeat = v + 1;
            if (v) {
                g_string_append_printf(s, ".rpt%u", v + 1);
            }
            break;
        case UI_KEY:
            if (v) {
                put_sep(list, &first);
                g_string_append_printf(list, "%s=%u", it->name, v);
            }
            cur = NULL;
            break;
        case UI_OPND: {
            UsseOperand *o = &insn->opnd[it->role];
            usse_opnd_decode(it->opnd, w, o);
            explained |= usse_bits_mask(&it->opnd->bank) |
                         usse_bits_mask(&it->opnd->num) |
                         (it->opnd->ext >= 0 ? 1ull << it->opnd->ext : 0);
            if (it->role >= USSE_SRC0) {
                insn->nsrc++;
            }
            put_sep(list, &first);
            usse_opnd_print(list, o);
            cur = o;
            break;
        }
        case UI_MASK:
            g_string_append_c(list, '.');
            if (!v) {
                g_string_append(list, "none");
            }
            for (int c = 0; c < 4; c++) {
                if (v & (1u << c)) {
                    g_string_append_c(list, "xyzw"[c]);
                }
            }
            if (cur) {
                cur->mask = v;
            }
            break;
        case UI_SWZ: {
            const char *sw = it->names[v];
            if (!sw) {
                return false;
            }
            usse_swz_print(list, it->names, v);
            if (cur) {
                for (int c = 0; sw[c] && c < 4; c++) {
                    cur->swz[c] = strchr(chan_chars, sw[c]) - chan_chars;
                }
            }
            break;
        }
        case UI_SWZ3:
        case UI_SWZ2: {
            unsigned cb = it->kind == UI_SWZ3 ? 3 : 2;
            g_string_append_c(list, '.');
            for (int c = 0; c < 4; c++) {
                unsigned ch = (v >> (c * cb)) & ((1u << cb) - 1);
                g_string_append_c(list, chan_chars[ch]);
                if (cur) {
                    cur->swz[c] = ch;
                }
            }
            break;
        }
        case UI_NUM:
            put_sep(list, &first);
            if (it->arg) {
                unsigned wd = usse_bits_width(&it->bits);
                int32_t sv = (int32_t)(v << (32 - wd)) >> (32 - wd);
                g_string_append_printf(list, "%d", sv);
            } else {
                g_string_append_printf(list, "0x%x", v);
            }
            cur = NULL;
            break;
        case UI_HEX:
            put_sep(list, &first);
            g_string_append_printf(list, "0x%08x", v);
            cur = NULL;
            break;
        case UI_PREG:
            put_sep(list, &first);
            g_string_append_printf(list, "p%u", v);
            cur = NULL;
            break;
        case UI_DUAL: {
            uint64_t used = 0;
            if (!usse_dual_decode(w, insn, out ? list : NULL, &used)) {
                return false;
            }
            explained |= used;
            first = false;
            cur = NULL;
            break;
        }
        }
    }
    insn->unknown = w & ~explained;
    if (out) {
        g_string_append(out, pre->str);
        g_string_append(out, mn->str);
        g_string_append(out, list->str);
        if (insn->unknown) {
            g_string_append_printf(out, " [unk 0x%" PRIx64 "]",
                                   insn->unknown);
        }
    }
    return true;
}

static void insn_init(UsseInsn *insn, uint64_t word)
{
    memset(insn, 0, sizeof(*insn));
    insn->word = word;
    insn->group = word >> 59;
    insn->repeat = 1;
}

/* Semantic fix-ups the tables cannot express. */
static void post_decode(UsseInsn *insn)
{
    switch (insn->op) {
    case UOP_AND: case UOP_OR: case UOP_XOR: case UOP_SHL: case UOP_ROL:
    case UOP_SHR: case UOP_ASR: case UOP_RLP:
        /* VBW: an immediate src2 is 16 bits spread over three fields */
        if (insn->opnd[USSE_SRC2].bank == USSE_BANK_IMM) {
            insn->opnd[USSE_SRC2].num |= insn->f[UF_SRC2_SEL] << 7 |
                                         insn->f[UF_SRC2_EXTH] << 14;
        }
        break;
    case UOP_BA: case UOP_BR:
        /* relative branches: signed 20-bit offset */
        if (insn->op == UOP_BR && (insn->f[UF_OFFSET] & 0x80000)) {
            insn->f[UF_OFFSET] |= 0xfff00000;
        }
        break;
    default:
        break;
    }
}

bool usse_decode(uint64_t word, UsseInsn *insn)
{
    const UsseForm *fm = usse_find_form(word);

    insn_init(insn, word);
    if (!fm || !walk(fm, word, insn, NULL)) {
        insn_init(insn, word);
        return false;
    }
    post_decode(insn);
    return true;
}

bool usse_disasm(uint64_t word, GString *out)
{
    const UsseForm *fm = usse_find_form(word);
    UsseInsn insn;
    size_t len = out->len;

    insn_init(&insn, word);
    if (fm && walk(fm, word, &insn, out)) {
        return true;
    }
    g_string_truncate(out, len);
    g_string_append_printf(out, "??? 0x%016" PRIx64, word);
    return false;
}

void usse_disasm_line(uint32_t pc, uint64_t word, GString *out)
{
    g_string_append_printf(out, "%05x: %016" PRIx64 "  ", pc, word);
    usse_disasm(word, out);
}

const char *usse_op_name(UsseOp op)
{
    for (unsigned i = 0; i < usse_nforms; i++) {
        if (usse_forms[i].op == op) {
            return usse_forms[i].mnem;
        }
    }
    return "???";
}
