/*
 * USSE register access: the constant ROM, operands (MOE repeats,
 * indexed banks, the secondary program's redirect), the register banks
 * as words, and the data formats: elements, values and conversions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "gemu/log.h"
#include "target/usse/exec-priv.h"

/* ---- constant ROM ---- */

/*
 * The constant ROM (special bank numbers < 0x40): hardware data read out
 * on a PS Vita by motoharu, published in Vita3K
 * (vita3k/shader/include/shader/usse_constant_table.h, GPL-2.0), here
 * re-encoded as 64 pairs of 32-bit words: channel x reads word 0, y
 * word 1 (sgx543.md 1.10).  Vita3K's four F16 tables are the four halves
 * of each pair (low half of x first), except the first half of entries
 * 12 and 16, listed below.  NaN entries are the raw words 0x7fff7fff
 * and 0xffffffff.
 */
static const uint32_t const_rom[64][2] = {
    { 0x00000000, 0x00000000 }, { 0x00000000, 0x3f800000 },   /*  0 */
    { 0x3f800000, 0x00000000 }, { 0x3f800000, 0x3f800000 },   /*  2 */
    { 0x40000000, 0x40800000 }, { 0x41000000, 0x41800000 },   /*  4 */
    { 0x42000000, 0x42800000 }, { 0x43000000, 0x43800000 },   /*  6 */
    { 0x44000000, 0x44800000 }, { 0x45000000, 0x45800000 },   /*  8 */
    { 0x46000000, 0x46800000 }, { 0x47000000, 0x47800000 },   /* 10 */
    { 0x3f000000, 0x3e800000 }, { 0x3e000000, 0x3d800000 },   /* 12 */
    { 0x3d000000, 0x3c800000 }, { 0x3c000000, 0x3b800000 },   /* 14 */
    { 0x3b000000, 0x3a800000 }, { 0x3a000000, 0x39800000 },   /* 16 */
    { 0x39000000, 0x38800000 }, { 0x38000000, 0x37800000 },   /* 18 */
    { 0x402df854, 0x3ebc5ab2 }, { 0x3fb504f3, 0x3f3504f3 },   /* 20: e */
    { 0x40490fdb, 0x3fc90fdb }, { 0x3f490fdb, 0x3ec90fdb },   /* 22: pi */
    { 0x40c90fdb, 0x41490fdb }, { 0x41c90fdb, 0x00000000 },   /* 24 */
    { 0x37800000, 0x38000000 }, { 0x37800080, 0x38000100 },   /* 26 */
    { 0x35d00d01, 0x37b60b61 }, { 0x39888889, 0x3b2aaaab },   /* 28 */
    { 0x3caaaaab, 0x3e000000 }, { 0x3f000000, 0x3f800000 },   /* 30 */
    { 0x00000000, 0x3c000000 }, { 0x00000000, 0x00000000 },   /* 32 */
    { 0x3c003c00, 0x3c003c00 }, { 0x44004000, 0x4c004800 },   /* 34 */
    { 0x54005000, 0x5c005800 }, { 0x64006000, 0x6c006800 },   /* 36 */
    { 0x74007000, 0x00007800 }, { 0x34003800, 0x2c003000 },   /* 38 */
    { 0x24002800, 0x1c002000 }, { 0x14001800, 0x0c001000 },   /* 40 */
    { 0x04000800, 0x00000000 }, { 0x35e2416f, 0x00000000 },   /* 42 */
    { 0x39a83da8, 0x00000000 }, { 0x3e484248, 0x36483a48 },   /* 44 */
    { 0x4a484648, 0x00004e48 }, { 0x00000000, 0x00000000 },   /* 46 */
    { 0x00000000, 0x19550c44 }, { 0x30002555, 0x3c003800 },   /* 48 */
    { 0x00000000, 0x00000000 }, { 0x00000000, 0x00000000 },   /* 50 */
    { 0x00000000, 0x00000000 }, { 0x00000000, 0x00000000 },   /* 52 */
    { 0x00000000, 0x00000000 }, { 0x00000000, 0x00000000 },   /* 54 */
    { 0xffffffff, 0x00000000 }, { 0xffffffff, 0x00000000 },   /* 56 */
    { 0xffffffff, 0x00000000 }, { 0xffffffff, 0x00000000 },   /* 58 */
    { 0x7fff7fff, 0x00000000 }, { 0x7fff7fff, 0x00000000 },   /* 60 */
    { 0x7fff7fff, 0x00000000 }, { 0x7fff7fff, 0x00000000 },   /* 62 */
};

bool usse_const_rom(unsigned n, unsigned table, uint32_t *value)
{
    if (n >= ARRAY_SIZE(const_rom) || table > 1) {
        *value = 0;
        return false;
    }
    *value = const_rom[n][table];
    return true;
}

/* Half @ch (0..3) of an F16 read of entry @n. */
static uint16_t const_rom_f16(unsigned n, unsigned ch)
{
    if (ch == 0 && n == 12) {
        return 0x3800;      /* 0.5 */
    }
    if (ch == 0 && n == 16) {
        return 0x3c00;      /* 1.0 */
    }
    if (n >= ARRAY_SIZE(const_rom)) {
        return 0;
    }
    return const_rom[n][ch >> 1] >> (16 * (ch & 1));
}

/* ---- operands ---- */

/* How far one MOE step moves an operand, in its number's units. */
static unsigned opnd_unit(const UsseInsn *insn, unsigned slot,
                          unsigned bank)
{
    if (bank == USSE_BANK_FPI) {
        return 1;
    }
    if (bank == USSE_BANK_IMM || bank == USSE_BANK_CONST ||
        bank == USSE_BANK_GLOBAL) {
        return 0;
    }
    switch (insn->group) {
    case 0: case 1: case 2: case 6: case 7:
        return 2;           /* 64-bit register units */
    case 3:
        return 4;           /* SVEC external repeat: UNVERIFIED */
    case 8:
        return slot == USSE_DST ? 1 : 2;
    case 9: case 15:
        /* float tests address 64-bit units (alu_sel 0) */
        return insn->f[UF_ALU] < 16 ? 2 : 1;
    default:
        return 1;
    }
}

/* Indexed banks and the secondary program's redirect (1.7 rule 4). */
static void ref_slow(UsseCtx *c, UsseRef *r, const UsseOperand *o)
{
    if (r->bank >= USSE_BANK_INDEXED1) {
        /* UNVERIFIED layout (usse-isa.md): the index register's value
           plus the offset, in the bank the number field names */
        r->num += (int)c->in->idx[r->bank == USSE_BANK_INDEXED2];
        r->bank = o->ibank;
    }
    if (c->run->launch.secondary &&
        (r->bank == USSE_BANK_TEMP || r->bank == USSE_BANK_OUTPUT ||
         r->bank == USSE_BANK_PA)) {
        r->bank = USSE_BANK_SA;
    }
}

static inline void ref_finish(UsseCtx *c, UsseRef *r, const UsseOperand *o)
{
    if (unlikely(r->bank >= USSE_BANK_INDEXED1 || c->run->launch.secondary)) {
        ref_slow(c, r, o);
    }
}

UsseRef usse_ref(UsseCtx *c, unsigned slot, unsigned iter)
{
    const UsseOperand *o = &c->insn->opnd[slot];
    UsseInst *in = c->in;
    UsseRef r = { .bank = o->bank, .mods = o->mods, .num = o->num,
                  .swz = o->swz };

    if (iter || in->incswz[slot] || in->boff[slot]) {
        unsigned unit = opnd_unit(c->insn, slot, o->bank);
        int step;

        if (in->incswz[slot]) {
            step = (in->inc[slot] >> (2 * (iter & 3))) & 3;
        } else {
            step = (int)iter * in->inc[slot];
        }
        r.num += (step + in->boff[slot]) * (int)unit;
    }
    ref_finish(c, &r, o);
    return r;
}

UsseRef usse_ref_opnd(UsseCtx *c, const UsseOperand *o)
{
    UsseRef r = { .bank = o->bank, .mods = o->mods, .num = o->num,
                  .swz = o->swz };

    ref_finish(c, &r, o);
    return r;
}

/* The per-instance word of a plain bank, or NULL (not plain/out of range). */
static inline uint32_t *fast_word(UsseCtx *c, unsigned bank, int k)
{
    if ((unsigned)k >= USSE_MAX_REGS) {
        return NULL;
    }
    switch (bank) {
    case USSE_BANK_TEMP:
        return &c->in->r[k];
    case USSE_BANK_PA:
        return &c->in->pa[k];
    case USSE_BANK_OUTPUT:
        return &c->in->o[k];
    default:
        return NULL;
    }
}

static uint32_t *bank_word(UsseCtx *c, unsigned bank, int k)
{
    UsseInst *in = c->in;

    switch (bank) {
    case USSE_BANK_TEMP:
        return k >= 0 && k < USSE_MAX_REGS ? &in->r[k] : NULL;
    case USSE_BANK_PA:
        return k >= 0 && k < USSE_MAX_REGS ? &in->pa[k] : NULL;
    case USSE_BANK_OUTPUT:
        return k >= 0 && k < USSE_MAX_REGS ? &in->o[k] : NULL;
    case USSE_BANK_SA:
        return k >= 0 && k < (int)c->run->env.sa_count ?
               &c->run->env.sa[k] : NULL;
    case USSE_BANK_FPI:
        return &in->fpi[k & (USSE_NUM_FPI * 4 - 1)];
    case USSE_BANK_INDEX:
        return k >= 0 && k < 2 ? &in->idx[k] : NULL;
    default:
        return NULL;
    }
}

/* The word behind @r + @k in a register file; NULL after a trap. */
static uint32_t *bank_ref(UsseCtx *c, const UsseRef *r, int k)
{
    uint32_t *p;

    switch (r->bank) {
    case USSE_BANK_INDEXED1:
    case USSE_BANK_INDEXED2:
        /* resolved by usse_ref; not reachable */
        usse_trap(c, USSE_ERR_REGISTER, "unresolved indexed operand");
        return NULL;
    case USSE_BANK_FPI:
        p = bank_word(c, r->bank, r->num * 4 + k);
        break;
    default:
        p = bank_word(c, r->bank, r->num + k);
        break;
    }
    if (!p) {
        usse_trap(c, USSE_ERR_REGISTER, "%s%d out of range",
                  usse_bank_name(r->bank), r->num + k);
    }
    return p;
}

bool usse_rdw(UsseCtx *c, const UsseRef *r, int k, uint32_t *v)
{
    uint32_t *p = fast_word(c, r->bank, r->num + k);

    if (p) {
        *v = *p;
        return true;
    }
    switch (r->bank) {
    case USSE_BANK_IMM:
        *v = r->num;
        return true;
    case USSE_BANK_CONST: {
        unsigned n = r->num + k / 2;
        if (!usse_const_rom(n, k & 1, v)) {
            gemu_log_once(LOG_GUEST_ERROR, "usse-const", n,
                          "usse: constant ROM entry %u does not exist, "
                          "reads 0\n", n);
        }
        return true;
    }
    case USSE_BANK_GLOBAL:
        gemu_log_once(LOG_UNIMP, "usse-global", r->num,
                      "usse: global special register g%d reads 0\n", r->num);
        *v = 0;
        return true;
    default:
        p = bank_ref(c, r, k);
        break;
    }
    if (!p) {
        return false;
    }
    *v = *p;
    return true;
}

bool usse_wrw(UsseCtx *c, const UsseRef *r, int k, uint32_t v)
{
    uint32_t *p = fast_word(c, r->bank, r->num + k);

    if (p) {
        *p = v;
        return true;
    }
    switch (r->bank) {
    case USSE_BANK_IMM:
    case USSE_BANK_CONST:
    case USSE_BANK_GLOBAL:
        return usse_trap(c, USSE_ERR_REGISTER, "write to read-only bank %s",
                         usse_bank_name(r->bank));
    default:
        p = bank_ref(c, r, k);
        break;
    }
    if (!p) {
        return false;
    }
    *p = v;
    return true;
}

/* ---- formats ---- */

bool usse_fmt_is_float(unsigned fmt)
{
    return fmt == USSE_FMT_F32 || fmt == USSE_FMT_F16 || fmt == USSE_FMT_C10;
}

static unsigned fmt_bits(unsigned fmt)
{
    switch (fmt) {
    case USSE_FMT_U8: case USSE_FMT_S8: case USSE_FMT_O8: case USSE_FMT_I8:
        return 8;
    case USSE_FMT_U16: case USSE_FMT_S16: case USSE_FMT_F16:
    case USSE_FMT_I16:
        return 16;
    case USSE_FMT_C10:
        return 10;
    default:
        return 32;
    }
}

/*
 * Element ch of a packed register pair: 8-bit: byte ch of word 0;
 * 16-bit: half ch & 1 of word ch / 2; 32-bit: word ch; C10: 10-bit
 * fields at 9:0, 19:10, 29:20 of word 0, the fourth at 9:0 of word 1
 * (UNVERIFIED: sgx543.md says the C10 layout is uncertain).
 */
static void elem_pos(unsigned fmt, unsigned ch, int *word, unsigned *shift,
                     uint32_t *mask)
{
    unsigned bits = fmt_bits(fmt);

    *mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    switch (bits) {
    case 8:
        *word = 0;
        *shift = 8 * ch;
        break;
    case 16:
        *word = ch / 2;
        *shift = 16 * (ch & 1);
        break;
    case 10:
        *word = ch / 3;
        *shift = 10 * (ch % 3);
        break;
    default:
        *word = ch;
        *shift = 0;
        break;
    }
}

bool usse_eget(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               uint32_t *raw)
{
    int word;
    unsigned shift;
    uint32_t mask, w;
    const uint32_t *p;

    if (unlikely(r->bank == USSE_BANK_FPI)) {
        return usse_rdw(c, r, ch, raw);
    }
    elem_pos(fmt, ch, &word, &shift, &mask);
    p = fast_word(c, r->bank, r->num + word);
    if (likely(p)) {
        *raw = (*p >> shift) & mask;
        return true;
    }
    if (r->bank == USSE_BANK_CONST && fmt == USSE_FMT_F16 && ch < 4) {
        *raw = const_rom_f16(r->num, ch);
        return true;
    }
    if (!usse_rdw(c, r, word, &w)) {
        return false;
    }
    *raw = (w >> shift) & mask;
    return true;
}

bool usse_eput(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               uint32_t raw)
{
    int word;
    unsigned shift;
    uint32_t mask, w;

    if (r->bank == USSE_BANK_FPI) {
        return usse_wrw(c, r, ch, raw);
    }
    elem_pos(fmt, ch, &word, &shift, &mask);
    if (mask == 0xffffffffu) {
        return usse_wrw(c, r, word, raw);
    }
    if (!usse_rdw(c, r, word, &w)) {
        return false;
    }
    w = (w & ~(mask << shift)) | (raw & mask) << shift;
    return usse_wrw(c, r, word, w);
}

double usse_fmt_value(unsigned fmt, uint32_t raw, bool scale)
{
    switch (fmt) {
    case USSE_FMT_F32:
        return usse_f(raw);
    case USSE_FMT_F16:
        return gemu_half_to_float(raw);
    case USSE_FMT_C10: {
        /* signed 10-bit fixed point, 1.0 = 255 */
        int32_t v = (int32_t)(raw << 22) >> 22;
        return v / 255.0;
    }
    case USSE_FMT_U8: case USSE_FMT_I8:
        return scale ? (raw & 0xff) / 255.0 : (raw & 0xff);
    case USSE_FMT_S8: {
        int8_t v = raw;
        return scale ? MAX(v / 127.0, -1.0) : v;
    }
    case USSE_FMT_O8: {
        /* offset 8-bit: stored value - 128 (UNVERIFIED scale) */
        int v = (int)(raw & 0xff) - 128;
        return scale ? MAX(v / 127.0, -1.0) : v;
    }
    case USSE_FMT_U16: case USSE_FMT_I16:
        return scale ? (raw & 0xffff) / 65535.0 : (raw & 0xffff);
    case USSE_FMT_S16: {
        int16_t v = raw;
        return scale ? MAX(v / 32767.0, -1.0) : v;
    }
    case USSE_FMT_S32:
        return (int32_t)raw;
    default:
        return raw;
    }
}

static uint32_t clamp_round(double v, double lo, double hi)
{
    if (isnan(v)) {
        return 0;
    }
    v = nearbyint(v);
    v = v < lo ? lo : v > hi ? hi : v;
    return (uint32_t)(int64_t)v;
}

/* Normalised signed formats map [-1, 1] (-128 is never produced). */
static double fclamp1(double v)
{
    return v < -1.0 ? -1.0 : v > 1.0 ? 1.0 : v;
}

uint32_t usse_fmt_raw(unsigned fmt, double v, bool scale)
{
    switch (fmt) {
    case USSE_FMT_F32:
        return usse_u((float)v);
    case USSE_FMT_F16:
        return gemu_float_to_half((float)v);
    case USSE_FMT_C10:
        return clamp_round(v * 255.0, -512, 511) & 0x3ff;
    case USSE_FMT_U8: case USSE_FMT_I8:
        return clamp_round(scale ? v * 255.0 : v, 0, 255);
    case USSE_FMT_S8:
        return clamp_round(scale ? fclamp1(v) * 127.0 : v, -128, 127) & 0xff;
    case USSE_FMT_O8:
        return (clamp_round(scale ? fclamp1(v) * 127.0 : v, -128, 127) +
                128) & 0xff;
    case USSE_FMT_U16: case USSE_FMT_I16:
        return clamp_round(scale ? v * 65535.0 : v, 0, 65535);
    case USSE_FMT_S16:
        return clamp_round(scale ? fclamp1(v) * 32767.0 : v, -32768, 32767) &
               0xffff;
    case USSE_FMT_S32:
        return clamp_round(v, INT32_MIN, INT32_MAX);
    default:
        return clamp_round(v, 0, UINT32_MAX);
    }
}

static const float swz_const[4] = { 0.0f, 1.0f, 2.0f, 0.5f };

bool usse_vget(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               float *v)
{
    uint32_t raw;

    if (fmt == USSE_FMT_F32 && ch < 4) {
        uint32_t *p = fast_word(c, r->bank, r->num + ch);
        unsigned n = r->num + ch / 2;
        if (p) {
            *v = usse_f(*p);
            return true;
        }
        if (r->bank == USSE_BANK_CONST && n < ARRAY_SIZE(const_rom)) {
            *v = usse_f(const_rom[n][ch & 1]);
            return true;
        }
    }

    if (ch >= 4) {
        *v = swz_const[ch - 4];
        return true;
    }
    if (r->bank == USSE_BANK_FPI) {
        /* FP-internal registers hold floats whatever the op's format */
        if (!usse_rdw(c, r, ch, &raw)) {
            return false;
        }
        *v = usse_f(raw);
        return true;
    }
    if (r->bank == USSE_BANK_CONST && fmt == USSE_FMT_C10) {
        /* C10 reads of the ROM: the F32 value (UNVERIFIED: no C10 table
           is known) */
        if (!usse_rdw(c, r, ch, &raw)) {
            return false;
        }
        *v = usse_f(raw);
        return true;
    }
    if (!usse_eget(c, r, fmt, ch, &raw)) {
        return false;
    }
    *v = usse_fmt_value(fmt, raw, false);
    return true;
}

bool usse_vput(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
               float v)
{
    if (fmt == USSE_FMT_F32) {
        uint32_t *p = fast_word(c, r->bank, r->num + ch);
        if (p) {
            *p = usse_u(v);
            return true;
        }
    }
    if (r->bank == USSE_BANK_FPI) {
        return usse_wrw(c, r, ch, usse_u(v));
    }
    return usse_eput(c, r, fmt, ch, usse_fmt_raw(fmt, v, false));
}

unsigned usse_pred_mask(const UsseInst *in, unsigned pred)
{
    switch (pred) {
    case USSE_PRED_ALWAYS:
        return 0xf;
    case USSE_PRED_P0: case USSE_PRED_P1: case USSE_PRED_P2:
    case USSE_PRED_P3:
        return in->p[pred - USSE_PRED_P0] ? 0xf : 0;
    case USSE_PRED_NOT_P0: case USSE_PRED_NOT_P1: case USSE_PRED_NOT_P2:
    case USSE_PRED_NOT_P3:
        return in->p[pred - USSE_PRED_NOT_P0] ? 0 : 0xf;
    case USSE_PRED_PERCHAN:
        /* channel c runs if p[c] (UNVERIFIED) */
        return (in->p[0] ? 1 : 0) | (in->p[1] ? 2 : 0) |
               (in->p[2] ? 4 : 0) | (in->p[3] ? 8 : 0);
    default:
        /* "pN": semantics unknown; runs (logged) */
        gemu_log_once(LOG_UNIMP, "usse-pn", 0,
                      "usse: predicate pN treated as always\n");
        return 0xf;
    }
}
