/*
 * USSE interpreter: programs, runs, the instance scheduler (vertices one
 * by one, fragments in lock-step quads), register banks, data formats,
 * MOE repeats, and the control/special/texture/memory instructions.
 * The ALU groups are in exec-vec.c and exec-int.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/half.h"
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

/* ---- programs ---- */

/* Does the instruction read a neighbour's register (a derivative)? */
static bool is_derivative(const UsseInsn *insn)
{
    return insn->op == UOP_VDSX || insn->op == UOP_VDSY ||
           ((insn->op == UOP_VTST || insn->op == UOP_VTSTMSK) &&
            (insn->f[UF_ALU] == 0x0b || insn->f[UF_ALU] == 0x0c));
}

UsseProgram *usse_program_new(const uint64_t *code, size_t n)
{
    UsseProgram *p = g_new0(UsseProgram, 1);

    p->n = n;
    p->insn = g_new0(UsseInsn, MAX(n, 1));
    p->ok = g_new0(bool, MAX(n, 1));
    for (size_t i = 0; i < n; i++) {
        p->ok[i] = usse_decode(code[i], &p->insn[i]);
        /* group 27 is reserved: whatever it decodes to, it is illegal */
        if (p->insn[i].group == 27) {
            p->ok[i] = false;
        }
        if (p->ok[i] && is_derivative(&p->insn[i])) {
            p->derivatives = true;
        }
    }
    return p;
}

void usse_program_free(UsseProgram *prog)
{
    if (prog) {
        g_free(prog->insn);
        g_free(prog->ok);
        g_free(prog);
    }
}

size_t usse_program_len(const UsseProgram *prog)
{
    return prog->n;
}

const UsseInsn *usse_program_insn(const UsseProgram *prog, uint32_t pc)
{
    return pc < prog->n ? &prog->insn[pc] : NULL;
}

/* ---- traps ---- */

const char *usse_error_name(UsseError e)
{
    switch (e) {
    case USSE_ERR_NONE: return "NONE";
    case USSE_ERR_ILLEGAL: return "ILLEGAL_INSN";
    case USSE_ERR_UNSUPPORTED: return "UNSUPPORTED";
    case USSE_ERR_REGISTER: return "BAD_REGISTER";
    case USSE_ERR_MEMORY: return "MEMORY_FAULT";
    case USSE_ERR_TIMEOUT: return "TIMEOUT";
    }
    return "?";
}

bool usse_trap(UsseCtx *c, UsseError e, const char *fmt, ...)
{
    UsseResult *res = &c->run->res;
    va_list ap;

    if (!c->trapped) {
        c->trapped = true;
        res->status = USSE_RUN_TRAP;
        res->error = e;
        res->pc = c->in->pc;
        res->instance = c->in - c->run->inst;
        va_start(ap, fmt);
        g_vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
        va_end(ap);
    }
    return false;
}

void usse_trap_fixup(UsseCtx *c)
{
    c->trapped = true;
    c->run->res.pc = c->in->pc;
    c->run->res.instance = c->in - c->run->inst;
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

/* ---- special group, texture, memory ---- */

static bool exec_smp(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    UsseRef src0 = usse_ref(c, USSE_SRC0, 0);
    UsseRef src1 = usse_ref(c, USSE_SRC1, 0);
    UsseRef src2 = usse_ref(c, USSE_SRC2, 0);
    UsseRef dst = usse_ref(c, USSE_DST, 0);
    unsigned cfmt = insn->f[UF_SFMT] == 0 ? USSE_FMT_F32 :
                    insn->f[UF_SFMT] == 1 ? USSE_FMT_F16 : USSE_FMT_C10;
    UsseSample req = { 0 };
    float out[4] = { 0 };

    if (insn->f[UF_SFMT] == 3) {
        return usse_trap(c, USSE_ERR_ILLEGAL, "smp coordinate type 3");
    }
    req.instance = c->in - c->run->inst;
    req.dim = insn->f[UF_DIM] + 1;
    if (req.dim > 3) {
        return usse_trap(c, USSE_ERR_ILLEGAL, "smp dimension 4");
    }
    req.lod_mode = insn->f[UF_LOD_MODE];
    req.sb_mode = insn->f[UF_SB_MODE];
    for (unsigned i = 0; i < req.dim; i++) {
        if (!usse_vget(c, &src0, cfmt, i, &req.coord[i])) {
            return false;
        }
    }
    for (unsigned i = 0; i < 4; i++) {
        if (!usse_rdw(c, &src1, i, &req.state[i])) {
            return false;
        }
    }
    if (req.lod_mode) {
        unsigned nlod = req.lod_mode == 3 ? 2 * req.dim : 1;
        for (unsigned i = 0; i < nlod; i++) {
            if (!usse_vget(c, &src2, cfmt, i, &req.lod[i])) {
                return false;
            }
        }
    }
    if (c->snap) {
        /* coordinate differences across the quad */
        unsigned l = c->lane, row = l & 2, col = l & 1;
        for (unsigned i = 0; i < req.dim; i++) {
            float v[4];
            for (unsigned q = 0; q < 4; q++) {
                UsseCtx nc = *c;
                nc.in = &c->snap[q];
                nc.trapped = false;
                if (!usse_vget(&nc, &src0, cfmt, i, &v[q])) {
                    usse_trap_fixup(c);
                    return false;
                }
            }
            req.dx[i] = v[row + 1] - v[row];
            req.dy[i] = v[2 + col] - v[col];
        }
    }
    if (c->run->env.sample) {
        c->run->env.sample(c->run->env.opaque, &req, out);
    } else {
        gemu_log_once(LOG_UNIMP, "usse-smp", 0,
                      "usse: no texture unit, smp returns 0\n");
    }
    switch (insn->f[UF_FCONV]) {
    case 0: case 3:
        for (unsigned i = 0; i < 4; i++) {
            if (!usse_wrw(c, &dst, i, usse_u(out[i]))) {
                return false;
            }
        }
        break;
    case 2:
        for (unsigned i = 0; i < 4; i++) {
            if (!usse_vput(c, &dst, USSE_FMT_F16, i, out[i])) {
                return false;
            }
        }
        break;
    default:
        /* "native": gemu's texture unit hands out U8 x 4 (UNVERIFIED) */
        for (unsigned i = 0; i < 4; i++) {
            uint32_t raw = usse_fmt_raw(USSE_FMT_U8, out[i], true);
            if (!usse_eput(c, &dst, USSE_FMT_U8, i, raw)) {
                return false;
            }
        }
        break;
    }
    return true;
}

/*
 * LD/ST (UNVERIFIED beyond sgx543.md 1.5): address = src0 + src1 bytes,
 * an immediate src1 scaled by the element size; count+1 elements of
 * 32/16/8 bits, each in its own register (zero-extended).  ST stores the
 * registers starting at src2.
 */
static bool exec_ldst(UsseCtx *c, bool store)
{
    const UsseInsn *insn = c->insn;
    static const unsigned size_of[3] = { 4, 2, 1 };
    unsigned size, count = insn->f[UF_COUNT] + 1;
    UsseRef src0 = usse_ref(c, USSE_SRC0, 0);
    UsseRef src1 = usse_ref(c, USSE_SRC1, 0);
    UsseRef data = usse_ref(c, store ? USSE_SRC2 : USSE_DST, 0);
    uint32_t base, off;

    if (insn->f[UF_FMT] > 2) {
        return usse_trap(c, USSE_ERR_ILLEGAL, "ld/st data type 3");
    }
    size = size_of[insn->f[UF_FMT]];
    if (!usse_rdw(c, &src0, 0, &base) || !usse_rdw(c, &src1, 0, &off)) {
        return false;
    }
    if (src1.bank == USSE_BANK_IMM) {
        off *= size;
    }
    for (unsigned i = 0; i < count; i++) {
        uint32_t addr = base + off + i * size;
        uint8_t buf[4] = { 0 };
        uint32_t v = 0;

        if (store) {
            if (!usse_rdw(c, &data, i, &v)) {
                return false;
            }
            for (unsigned b = 0; b < size; b++) {
                buf[b] = v >> (8 * b);
            }
        }
        if (!c->run->env.mem) {
            gemu_log_once(LOG_UNIMP, "usse-mem", store,
                          "usse: no memory: %s ignored\n",
                          store ? "st" : "ld reads 0,");
        } else if (!c->run->env.mem(c->run->env.opaque, store, addr, buf,
                                    size)) {
            return usse_trap(c, USSE_ERR_MEMORY, "%s at 0x%08x",
                             store ? "st" : "ld", addr);
        }
        if (!store) {
            for (unsigned b = 0; b < size; b++) {
                v |= (uint32_t)buf[b] << (8 * b);
            }
            if (!usse_wrw(c, &data, i, v)) {
                return false;
            }
        }
    }
    return true;
}

static bool exec_special(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    UsseInst *in = c->in;

    switch (insn->op) {
    case UOP_BA:
        if (insn->f[UF_LINK]) {
            in->link = in->pc + 1;
        }
        c->next_pc = insn->f[UF_OFFSET];
        return true;
    case UOP_BR:
        /* relative to this instruction */
        if (insn->f[UF_LINK]) {
            in->link = in->pc + 1;
        }
        c->next_pc = in->pc + (int32_t)insn->f[UF_OFFSET];
        return true;
    case UOP_LAPC:
        c->next_pc = in->link;
        return true;
    case UOP_NOP: case UOP_PHAS: case UOP_CFI: case UOP_IDF: case UOP_WDF:
        return true;
    case UOP_EMIT:
        /* a vertex program's results are in o[]; EMIT itself just ends
           (its end bit) */
        return true;
    case UOP_SMLSI:
        in->inc[USSE_DST] = (int8_t)insn->f[UF_INC_D];
        in->inc[USSE_SRC0] = (int8_t)insn->f[UF_INC_0];
        in->inc[USSE_SRC1] = (int8_t)insn->f[UF_INC_1];
        in->inc[USSE_SRC2] = (int8_t)insn->f[UF_INC_2];
        in->incswz[USSE_DST] = insn->f[UF_INC_MODE_D];
        in->incswz[USSE_SRC0] = insn->f[UF_INC_MODE_0];
        in->incswz[USSE_SRC1] = insn->f[UF_INC_MODE_1];
        in->incswz[USSE_SRC2] = insn->f[UF_INC_MODE_2];
        return true;
    case UOP_SMBO:
        /* base offsets in the operand's units (UNVERIFIED) */
        in->boff[USSE_DST] = insn->f[UF_OFF_D];
        in->boff[USSE_SRC0] = insn->f[UF_OFF_0];
        in->boff[USSE_SRC1] = insn->f[UF_OFF_1];
        in->boff[USSE_SRC2] = insn->f[UF_OFF_2];
        return true;
    case UOP_LIMM: {
        UsseRef d = usse_ref(c, USSE_DST, 0);
        return usse_wrw(c, &d, 0, insn->f[UF_VALUE]);
    }
    case UOP_ATST8:
        /* the predicate passed: discard (sgx543.md: Vita3K's KILL) */
        in->killed = true;
        in->done = true;
        return true;
    case UOP_DEPTHF: {
        /* UNVERIFIED: the depth is src0 as F32 */
        UsseRef s = usse_ref(c, USSE_SRC0, 0);
        uint32_t v;
        if (!usse_rdw(c, &s, 0, &v)) {
            return false;
        }
        in->depth = usse_f(v);
        in->has_depth = true;
        return true;
    }
    case UOP_SETL: {
        /* link <- src1 (operand layout UNVERIFIED) */
        UsseRef s = usse_ref(c, USSE_SRC1, 0);
        uint32_t v;
        if (!usse_rdw(c, &s, 0, &v)) {
            return false;
        }
        in->link = v;
        return true;
    }
    case UOP_SAVL: {
        UsseRef d = usse_ref(c, USSE_DST, 0);
        return usse_wrw(c, &d, 0, in->link);
    }
    case UOP_IMO:
        /* "increment MOE offsets": base offset += increment per operand
           (UNVERIFIED; swizzle-mode operands add their first step) */
        for (int s = 0; s < USSE_NOPND; s++) {
            in->boff[s] += in->incswz[s] ? (in->inc[s] & 3) : in->inc[s];
        }
        return true;
    case UOP_LDR: {
        /* UNVERIFIED: dest <- the global register numbered by src1 */
        UsseRef s = usse_ref(c, USSE_SRC1, 0);
        UsseRef d = usse_ref(c, USSE_DST, 0);
        uint32_t reg, v = 0;
        if (!usse_rdw(c, &s, 0, &reg)) {
            return false;
        }
        if (!c->run->env.ctrl_reg) {
            gemu_log_once(LOG_UNIMP, "usse-ldr", 0,
                          "usse: no global registers, ldr reads 0\n");
        } else if (!c->run->env.ctrl_reg(c->run->env.opaque, reg, &v)) {
            return usse_trap(c, USSE_ERR_MEMORY, "ldr of global register "
                             "0x%x", reg);
        }
        return usse_wrw(c, &d, 0, v);
    }
    case UOP_LOCK: case UOP_WOP:
        /* mutual exclusion / ordering between instances: the interpreter
           runs instances one group at a time, so both already hold */
        return true;
    case UOP_SMOA: case UOP_SMR: case UOP_SETFC: case UOP_PTCTRL:
        /* UNVERIFIED: accepted without effect (usse-exec.md) */
        gemu_log_once(LOG_UNIMP, "usse-noeffect", insn->op,
                      "usse: %s has no modelled effect\n",
                      usse_op_name(insn->op));
        return true;
    default:
        return usse_trap(c, USSE_ERR_ILLEGAL, "illegal instruction "
                         "0x%016" PRIx64, insn->word);
    }
}

static bool exec_one(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;

    switch (insn->group) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
        return usse_exec_vector(c);
    case 28:
        return exec_smp(c);
    case 29: case 30:
        return exec_ldst(c, insn->group == 30);
    case 31:
        return exec_special(c);
    default:
        return usse_exec_int(c);
    }
}

/* ---- runs ---- */

static void inst_reset(UsseInst *in)
{
    memset(in, 0, sizeof(*in));
    for (int s = 0; s < USSE_NOPND; s++) {
        in->inc[s] = 1;
    }
}

UsseRun *usse_run_new(const UsseEnv *env, const UsseProgram *prog,
                      const UsseLaunch *launch, char **errp)
{
    UsseRun *run;
    unsigned n = launch->secondary ? 1 : launch->instances;

    if (!prog) {
        *errp = g_strdup("no program");
        return NULL;
    }
    if (n == 0) {
        *errp = g_strdup("no instances");
        return NULL;
    }
    if (!launch->secondary && env->stage == USSE_STAGE_FRAGMENT &&
        n % USSE_QUAD) {
        *errp = g_strdup_printf("fragment instances (%u) must be a multiple "
                                "of 4", n);
        return NULL;
    }
    if (env->sa_count > USSE_MAX_REGS || (env->sa_count && !env->sa)) {
        *errp = g_strdup("bad SA bank");
        return NULL;
    }
    if (launch->pa_words > USSE_MAX_REGS) {
        *errp = g_strdup_printf("%u PA words per instance (at most %u)",
                                launch->pa_words, USSE_MAX_REGS);
        return NULL;
    }
    run = g_try_new0(UsseRun, 1);
    if (run) {
        run->inst = g_try_new(UsseInst, n);
    }
    if (!run || !run->inst) {
        g_free(run);
        *errp = g_strdup_printf("%u instances do not fit in memory", n);
        return NULL;
    }
    run->env = *env;
    run->launch = *launch;
    run->prog = prog;
    run->n = n;
    for (unsigned i = 0; i < n; i++) {
        UsseInst *in = &run->inst[i];

        inst_reset(in);
        if (launch->pa && !launch->secondary) {
            memcpy(in->pa, launch->pa + (size_t)i * launch->pa_words,
                   launch->pa_words * 4);
        }
        in->helper = launch->helper && !launch->secondary &&
                     launch->helper[i];
    }
    return run;
}

void usse_run_free(UsseRun *run)
{
    if (run) {
        g_free(run->inst);
        g_free(run);
    }
}

const UsseResult *usse_run_result(const UsseRun *run)
{
    return &run->res;
}

unsigned usse_run_instances(const UsseRun *run)
{
    return run->n;
}

/* Does the instruction read other instances of its quad?  Vertices:
   derivatives only (a vertex SMP has no implicit LOD). */
static bool needs_quad(const UsseRun *run, const UsseInsn *insn)
{
    return is_derivative(insn) ||
           (insn->op == UOP_SMP && run->env.stage == USSE_STAGE_FRAGMENT);
}

/* Run one group (a quad, or one instance) to the end. */
static UsseRunStatus run_group(UsseRun *run, unsigned first, unsigned size)
{
    const UsseProgram *prog = run->prog;
    UsseInst snap[USSE_QUAD];

    for (;;) {
        uint32_t pc = UINT32_MAX;

        for (unsigned i = 0; i < size; i++) {
            UsseInst *in = &run->inst[first + i];
            if (!in->done && in->pc >= prog->n) {
                in->done = true;
            }
            if (!in->done) {
                pc = MIN(pc, in->pc);
            }
        }
        if (pc == UINT32_MAX) {
            return USSE_RUN_DONE;
        }

        const UsseInsn *insn = &prog->insn[pc];
        bool quad = size == USSE_QUAD && needs_quad(run, insn);

        if (run->env.trace &&
            !run->env.trace(run->env.opaque, run, first, pc, insn)) {
            return USSE_RUN_PAUSED;
        }
        if (quad) {
            memcpy(snap, &run->inst[first], sizeof(snap));
        }
        for (unsigned i = 0; i < size; i++) {
            UsseInst *in = &run->inst[first + i];
            UsseCtx c = { .run = run, .in = in, .insn = insn, .lane = i,
                          .snap = quad ? snap : NULL };

            if (in->done || in->pc != pc) {
                continue;
            }
            if (run->env.insn_budget &&
                run->res.insns >= run->env.insn_budget) {
                usse_trap(&c, USSE_ERR_TIMEOUT, "instruction budget of "
                          "%" PRIu64 " used up", run->env.insn_budget);
                return USSE_RUN_TRAP;
            }
            run->res.insns++;
            c.next_pc = pc + 1;
            if (!prog->ok[pc]) {
                usse_trap(&c, USSE_ERR_ILLEGAL, "illegal instruction "
                          "0x%016" PRIx64, insn->word);
                return USSE_RUN_TRAP;
            }
            if (!(in->helper && insn->f[UF_SKIPINV])) {
                /* predicates gate everything but the per-channel ones,
                   which the vector groups apply per channel */
                bool run_it = insn->pred == USSE_PRED_PERCHAN ||
                              usse_pred_mask(in, insn->pred) != 0;
                if (run_it && !exec_one(&c)) {
                    return USSE_RUN_TRAP;
                }
            }
            if (in->done) {
                continue;
            }
            in->pc = c.next_pc;
            if (insn->f[UF_END] && insn->op != UOP_PHAS) {
                in->done = true;
            }
        }
    }
}

/*
 * Instances per group.  Fragments: quads.  Vertices run in quads too
 * when the program takes a derivative: hardware computes a vertex
 * program's DSY from the other vertices of its group of four, the lanes
 * laid out as a fragment quad's (vertex 0, 1 above 2, 3: the
 * vtstmsk_dsy cases); otherwise one at a time.  A last group of fewer
 * than four vertices sees no neighbours (UNVERIFIED: derivative 0).
 */
static unsigned group_size(const UsseRun *run)
{
    if (run->launch.secondary) {
        return 1;
    }
    if (run->env.stage == USSE_STAGE_FRAGMENT || run->prog->derivatives) {
        return USSE_QUAD;
    }
    return 1;
}

UsseRunStatus usse_run_exec(UsseRun *run)
{
    unsigned size = group_size(run);

    if (run->res.status == USSE_RUN_TRAP) {
        return USSE_RUN_TRAP;
    }
    run->res.status = USSE_RUN_DONE;
    while (run->next_group * size < run->n) {
        unsigned first = run->next_group * size;
        UsseRunStatus st = run_group(run, first, MIN(size, run->n - first));
        if (st != USSE_RUN_DONE) {
            run->res.status = st;
            return st;
        }
        run->next_group++;
    }
    return USSE_RUN_DONE;
}

uint32_t usse_run_reg(const UsseRun *run, unsigned inst, UsseBank bank,
                      unsigned num)
{
    const UsseInst *in;

    if (bank == USSE_BANK_SA) {
        return num < run->env.sa_count ? run->env.sa[num] : 0;
    }
    if (inst >= run->n) {
        return 0;
    }
    in = &run->inst[inst];
    switch (bank) {
    case USSE_BANK_TEMP:
        return num < USSE_MAX_REGS ? in->r[num] : 0;
    case USSE_BANK_PA:
        return num < USSE_MAX_REGS ? in->pa[num] : 0;
    case USSE_BANK_OUTPUT:
        return num < USSE_MAX_REGS ? in->o[num] : 0;
    case USSE_BANK_FPI:
        return num < USSE_NUM_FPI * 4 ? in->fpi[num] : 0;
    case USSE_BANK_INDEX:
        return num < 2 ? in->idx[num] : 0;
    default:
        return 0;
    }
}

bool usse_run_pred(const UsseRun *run, unsigned inst, unsigned p)
{
    return inst < run->n && p < USSE_NUM_PREDS && run->inst[inst].p[p];
}

bool usse_run_killed(const UsseRun *run, unsigned inst)
{
    return inst < run->n && run->inst[inst].killed;
}

bool usse_run_depth(const UsseRun *run, unsigned inst, float *depth)
{
    if (inst >= run->n || !run->inst[inst].has_depth) {
        return false;
    }
    *depth = run->inst[inst].depth;
    return true;
}
