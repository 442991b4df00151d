/*
 * Independent reference check of the Tesla shader core (hwtest style).
 *
 * A reference model written straight from the documentation (seed 002 and
 * envytools cuda/int.rst pseudocode, isa.rst for $c flags and predicates,
 * float.rst and the CUDA 1.x programming guide for f32) is compared with
 * what gemu computes for real instruction words: each form is assembled
 * from envydis text with tesla_assemble(), wrapped in a small compute
 * program that loads per-thread random inputs from g0[]..g3[], and run
 * through the same runtime gemu-shader uses (target/tesla/exec.h).  No
 * code of gemu's interpreter or lane arithmetic is used for the expected
 * values: the point is independence.
 *
 * Inputs are seeded pseudo-random words mixed with edge values, so every
 * run checks the same vectors.  A failing test lists every failing form
 * with its words and the first few differing inputs; set
 * GEMU_REF_VERBOSE=1 to have the full list on stderr.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include <check.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include "target/tesla.h"
#include "target/tesla/exec.h"

/* $c bits (isa.rst "Registers") */
enum { VF_Z = 1, VF_S = 2, VF_C = 4, VF_O = 8 };

/* ---- seeded PRNG (xorshift64*) ---- */

typedef struct VrRng {
    uint64_t s;
} VrRng;

static uint32_t vr_rand(VrRng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545f4914f6cdd1dull) >> 32);
}

static const uint32_t vr_edge32[] = {
    0, 1, 2, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
    0xffffffff, 0x80000001, 0xfffffffe, 0x00ffffff, 0x00800000, 0x01000000,
    0xff800000, 0x7fff8000, 0x80007fff,
};

static const uint16_t vr_edge16[] = {
    0, 1, 2, 0x7fff, 0x8000, 0xffff, 0x8001, 0xfffe, 0x00ff, 0xff00,
};

/* One input word: edges (whole word or per half), small or random. */
static uint32_t vr_input(VrRng *r)
{
    uint32_t k = vr_rand(r) % 16;

    if (k < 4) {
        return vr_edge32[vr_rand(r) % ARRAY_SIZE(vr_edge32)];
    } else if (k < 7) {
        uint32_t lo = vr_edge16[vr_rand(r) % ARRAY_SIZE(vr_edge16)];
        uint32_t hi = vr_edge16[vr_rand(r) % ARRAY_SIZE(vr_edge16)];

        return k == 4 ? (hi << 16 | lo) :
               k == 5 ? (vr_rand(r) & 0xffff0000) | lo :
                        (hi << 16) | (vr_rand(r) & 0xffff);
    } else if (k < 9) {
        return vr_rand(r) % 64;
    } else if (k < 10) {
        return -(vr_rand(r) % 64);
    }
    return vr_rand(r);
}

/* ---- the harness: one form, 256 threads of inputs ---- */

#define VR_N 256

typedef struct VrRun {
    TeslaVariant variant;
    uint32_t in[4][VR_N];       /* g0[]..g3[]: $r2, $r3, $r4, $r5 */
    uint32_t c0[0x100 / 4];     /* c0[] contents */
    uint32_t out[4][VR_N];      /* $r6, $r7, $c0, $c1 after the body */
    bool exited[VR_N];          /* the thread ran to exit */
    uint32_t body[16];          /* words of the body alone, for reports */
    unsigned nbody;
} VrRun;

/*
 * Every thread t: $r2..$r5 = g0..g3[4t]; $c1 = $r5 & 0xf (the flag input:
 * addc carry, predicates); $c0 = ($r5 >> 4) & 0xf (so an unwritten $c0
 * is visible); $r6 = $r7 = $r4 (so a short "DST = SRC3" form and the
 * untouched half of a 16-bit destination are defined).  Then the body,
 * then $r8 = $c0, $r9 = $c1.
 */
static const char vr_prologue[] =
    "shl b32 $r1 $r0 0x2\n"
    "ld b32 $r2 g0[$r1]\n"
    "ld b32 $r3 g1[$r1]\n"
    "ld b32 $r4 g2[$r1]\n"
    "ld b32 $r5 g3[$r1]\n"
    "mov $c1 $r5\n"
    "shr u32 $r7 $r5 0x4\n"
    "mov $c0 $r7\n"
    "mov b32 $r6 $r4\n"
    "mov b32 $r7 $r4\n";
static const char vr_epilogue[] =
    "mov b32 $r15 $r15\n"       /* short filler: keeps a short body paired */
    "mov $r8 $c0\n"
    "mov $r9 $c1\n"
    "exit nop\n";

static void vr_words(GString *s, const VrRun *vr)
{
    for (unsigned i = 0; i < vr->nbody; i++) {
        g_string_append_printf(s, "%s%08x", i ? " " : "", vr->body[i]);
    }
}

/* Assemble and run @body; false (with a line in @fail) if it cannot. */
static bool vr_exec(VrRun *vr, TeslaProgType prog, const char *body,
                    GString *fail)
{
    g_autofree char *src = g_strconcat(vr_prologue, body, "\n",
                                       vr_epilogue, NULL);
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    g_autoptr(GArray) bw = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    TeslaEnv env = { 0 };
    TeslaLaunch launch = { 0 };
    TeslaRun *run;
    char *rerr = NULL;

    vr->nbody = 0;
    if (tesla_assemble(vr->variant, prog, body, bw, &err)) {
        for (unsigned i = 0; i < bw->len && i < ARRAY_SIZE(vr->body); i++) {
            vr->body[vr->nbody++] = g_array_index(bw, uint32_t, i);
        }
    }
    g_clear_pointer(&err, g_free);
    if (!tesla_assemble(vr->variant, prog, src, words, &err)) {
        g_string_append_printf(fail, "  [%s] does not assemble: %s\n",
                               body, err);
        return false;
    }
    env.variant = vr->variant;
    env.prog = prog;
    env.code = (const uint32_t *)words->data;
    env.code_words = words->len;
    env.gprs = 16;
    env.insn_budget = 100000;
    for (unsigned i = 0; i < 4; i++) {
        env.g[i].data = (uint8_t *)vr->in[i];
        env.g[i].size = sizeof(vr->in[i]);
    }
    env.c[0].data = (uint8_t *)vr->c0;
    env.c[0].size = sizeof(vr->c0);
    launch.block[0] = VR_N;
    launch.block[1] = 1;
    launch.block[2] = 1;
    launch.grid[0] = 1;
    launch.keep_regs = true;
    run = tesla_run_new(&env, &launch, &rerr);
    if (!run) {
        g_string_append_printf(fail, "  [%s] launch refused: %s\n", body,
                               rerr);
        g_free(rerr);
        return false;
    }
    if (tesla_run_exec(run) != TESLA_RUN_DONE) {
        const TeslaResult *r = tesla_run_result(run);

        g_string_append_printf(fail, "  [%s] (", body);
        vr_words(fail, vr);
        g_string_append_printf(fail, ") traps: %s at 0x%x: %s\n",
                               tesla_error_name(r->error), r->pc, r->msg);
        tesla_run_free(run);
        return false;
    }
    for (unsigned t = 0; t < VR_N; t++) {
        vr->out[0][t] = tesla_run_reg(run, t, 6);
        vr->out[1][t] = tesla_run_reg(run, t, 7);
        vr->out[2][t] = tesla_run_reg(run, t, 8);
        vr->out[3][t] = tesla_run_reg(run, t, 9);
        vr->exited[t] = tesla_run_exited(run, t);
    }
    tesla_run_free(run);
    return true;
}

static void vr_fill(VrRun *vr, VrRng *rng)
{
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned t = 0; t < VR_N; t++) {
            vr->in[i][t] = vr_input(rng);
        }
    }
    for (unsigned t = 0; t < VR_N; t++) {
        vr->in[3][t] = vr_rand(rng);
    }
    for (unsigned i = 0; i < ARRAY_SIZE(vr->c0); i++) {
        vr->c0[i] = vr_input(rng);
    }
}

/* Failure bookkeeping of one test: a list of failing forms. */
typedef struct VrReport {
    GString *text;
    unsigned forms, bad_forms;
} VrReport;

static void vr_report_init(VrReport *r)
{
    r->text = g_string_new(NULL);
    r->forms = r->bad_forms = 0;
}

static void vr_report_finish(VrReport *r, const char *what)
{
    if (r->bad_forms && getenv("GEMU_REF_VERBOSE")) {
        fprintf(stderr, "%s: %u of %u forms differ from the docs:\n%s",
                what, r->bad_forms, r->forms, r->text->str);
    }
    if (r->text->len > 3000) {
        g_string_truncate(r->text, 3000);
        g_string_append(r->text, "...\n");
    }
    ck_assert_msg(r->bad_forms == 0, "%s: %u of %u forms differ:\n%s",
                  what, r->bad_forms, r->forms, r->text->str);
    g_string_free(r->text, true);
}

/* ---- reference model: integer (int.rst / seed 002 pseudocode) ---- */

static inline uint32_t vr_mask(unsigned size)
{
    return size == 32 ? 0xffffffffu : 0xffffu;
}

/* S(x): the top bit of a size-bit value */
static inline unsigned vr_s(uint64_t x, unsigned size)
{
    return (x >> (size - 1)) & 1;
}

static inline unsigned vr_zs(uint32_t res, unsigned size)
{
    return (res == 0 ? VF_Z : 0) | (vr_s(res, size) ? VF_S : 0);
}

static inline int64_t vr_sex(uint32_t x, unsigned bits)
{
    uint64_t m = 1ull << (bits - 1);

    x &= (uint32_t)((1ull << bits) - 1);
    return (int64_t)((x ^ m) - m);
}

enum { VOP_ADD, VOP_SUB, VOP_SUBR, VOP_ADDC };
static const char *const vr_addop_name[] = { "add", "sub", "subr", "addc" };

/* 3.1 add/sub/subr/addc; also the add part of mad (size 32) */
static uint32_t ref_add(unsigned op, bool sat, unsigned size, uint32_t a,
                        uint32_t b, unsigned cin, unsigned *fl)
{
    uint64_t m = vr_mask(size);
    uint64_t s1 = a & m, s2 = b & m, res;
    unsigned c = 0, f = 0;

    switch (op) {
    case VOP_SUB:
        s2 = ~s2 & m;
        c = 1;
        break;
    case VOP_SUBR:
        s1 = ~s1 & m;
        c = 1;
        break;
    case VOP_ADDC:
        c = !!(cin & VF_C);
        break;
    }
    res = s1 + s2 + c;
    if (res >> size) {
        f |= VF_C;
    }
    res &= m;
    if (vr_s(s1, size) == vr_s(s2, size) &&
        vr_s(s1, size) != vr_s(res, size)) {
        f |= VF_O;
        if (sat) {
            res = vr_s(res, size) ? m >> 1 : (m >> 1) + 1;
        }
    }
    *fl = f | vr_zs(res, size);
    return res;
}

/* 3.2 mul 16x16 */
static uint32_t ref_mul16(bool sign1, bool sign2, uint32_t a, uint32_t b,
                          unsigned *fl)
{
    int64_t s1 = sign1 ? vr_sex(a, 16) : (a & 0xffff);
    int64_t s2 = sign2 ? vr_sex(b, 16) : (b & 0xffff);
    uint32_t res = (uint32_t)(s1 * s2);

    *fl = vr_zs(res, 32);
    return res;
}

/* 3.3 mul 24x24 */
static uint32_t ref_mul24(bool sign, bool high, uint32_t a, uint32_t b,
                          unsigned *fl)
{
    int64_t s1 = sign ? vr_sex(a, 24) : (a & 0xffffff);
    int64_t s2 = sign ? vr_sex(b, 24) : (b & 0xffffff);
    uint64_t m = (uint64_t)(s1 * s2) & ((1ull << 48) - 1);
    uint32_t res = high ? (uint32_t)(m >> 16) : (uint32_t)m;

    *fl = vr_zs(res, 32);
    return res;
}

/* 3.5 sad */
static uint32_t ref_sad(bool sign, unsigned size, uint32_t a, uint32_t b,
                        uint32_t c, unsigned *fl)
{
    uint64_t m = vr_mask(size);
    int64_t s1 = sign ? vr_sex(a, size) : (int64_t)(a & m);
    int64_t s2 = sign ? vr_sex(b, size) : (int64_t)(b & m);
    int64_t d = s1 - s2;
    uint32_t mres = (uint32_t)(d < 0 ? -d : d);
    uint64_t s3 = c & m;
    uint64_t res = (uint64_t)mres + s3;
    unsigned f = 0;

    if (res >> size) {
        f |= VF_C;
    }
    res &= m;
    if (vr_s(mres, size) == vr_s(s3, size) &&
        vr_s(mres, size) != vr_s(res, size)) {
        f |= VF_O;
    }
    *fl = f | vr_zs(res, size);
    return res;
}

static int vr_cmp(bool sign, unsigned size, uint32_t a, uint32_t b)
{
    int64_t s1 = sign ? vr_sex(a, size) : (int64_t)(a & vr_mask(size));
    int64_t s2 = sign ? vr_sex(b, size) : (int64_t)(b & vr_mask(size));

    return s1 < s2 ? -1 : s1 > s2;
}

/* 3.6 min/max */
static uint32_t ref_minmax(bool min, bool sign, unsigned size, uint32_t a,
                           uint32_t b, unsigned *fl)
{
    uint32_t res;

    a &= vr_mask(size);
    b &= vr_mask(size);
    if (vr_cmp(sign, size, a, b) < 0) {
        res = min ? a : b;
    } else {
        res = min ? b : a;
    }
    *fl = vr_zs(res, size);
    return res;
}

/* 3.7 set; cond bits l = 1, e = 2, g = 4 */
static uint32_t ref_set(unsigned cond, bool sign, unsigned size, uint32_t a,
                        uint32_t b, unsigned *fl)
{
    int c = vr_cmp(sign, size, a, b);
    bool t = c < 0 ? cond & 1 : c == 0 ? cond & 2 : cond & 4;
    uint32_t res = t ? vr_mask(size) : 0;

    *fl = vr_zs(res, size);
    return res;
}

enum { VLOG_AND, VLOG_OR, VLOG_XOR, VLOG_MOV2 };
static const char *const vr_logop_name[] = { "and", "or", "xor", "mov2" };

/* 4.1 bit operations */
static uint32_t ref_logop(unsigned op, bool not1, bool not2, unsigned size,
                          uint32_t a, uint32_t b, unsigned *fl)
{
    uint32_t s1 = (not1 ? ~a : a) & vr_mask(size);
    uint32_t s2 = (not2 ? ~b : b) & vr_mask(size);
    uint32_t res;

    switch (op) {
    case VLOG_AND:
        res = s1 & s2;
        break;
    case VLOG_OR:
        res = s1 | s2;
        break;
    case VLOG_XOR:
        res = s1 ^ s2;
        break;
    default:
        res = s2;
        break;
    }
    *fl = vr_zs(res, size);
    return res;
}

/* 4.2 shifts; @cnt is the full unsigned count (never wraps) */
static uint32_t ref_shift(bool shl, bool sign, unsigned size, uint32_t a,
                          uint32_t cnt, unsigned *fl)
{
    uint64_t m = vr_mask(size);
    uint64_t src = a & m, res;
    unsigned f = 0;

    if (shl) {
        res = cnt < size ? src << cnt : 0;
        if (cnt < size && ((res >> size) & 1)) {
            f |= VF_C;
        }
        res &= m;
    } else {
        res = cnt < size ? src >> cnt : 0;
        if (sign && vr_s(src, size)) {
            if (cnt < size) {
                res |= (1ull << size) - (1ull << (size - cnt));
            } else {
                res |= m;
            }
        }
        if (cnt < size && cnt > 0 && ((src >> (cnt - 1)) & 1)) {
            f |= VF_C;
        }
    }
    if (cnt == 1 && vr_s(src, size) != vr_s(res, size)) {
        f |= VF_O;
    }
    *fl = f | vr_zs(res, size);
    return res;
}

/* isa.rst "Predicates": the condition formula for each encoding */
static bool ref_pred(unsigned cond, unsigned c, bool *known)
{
    bool z = c & VF_Z, s = c & VF_S, cy = c & VF_C, o = c & VF_O;

    *known = true;
    switch (cond) {
    case 0x00: return false;
    case 0x01: return (s && !z) ^ o;
    case 0x02: return z && !s;
    case 0x03: return s ^ (z || o);
    case 0x04: return !z && !(s ^ o);
    case 0x05: return !z;
    case 0x06: return !(s ^ o);
    case 0x07: return !z || !s;
    case 0x08: return z && s;
    case 0x09: return s ^ o;
    case 0x0a: return z;
    case 0x0b: return z || (s ^ o);
    case 0x0c: return !s ^ (z || o);
    case 0x0d: return !z || s;
    case 0x0e: return (!s || z) ^ o;
    case 0x0f: return true;
    case 0x10: return o;
    case 0x11: return cy;
    case 0x12: return !z && cy;
    case 0x13: return s;
    case 0x1c: return !s;
    case 0x1d: return z || !cy;
    case 0x1e: return !cy;
    case 0x1f: return !o;
    }
    *known = false;         /* 0x14-0x1b: not documented */
    return false;
}

static const char *const vr_pred_name[32] = {
    "never", "l", "e", "le", "g", "lg", "ge", "lge",
    "u", "lu", "eu", "leu", "gu", "lgu", "geu", "always",
    "o", "c", "a", "s", NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, "ns", "na", "nc", "no",
};

/* ---- integer forms ---- */

/* Operand halves: -1 = the whole 32-bit register, 0 = low, 1 = high. */
typedef struct VrOpnds {
    int hd, h1, h2, h3;
} VrOpnds;

typedef enum VrKind {
    VK_ADD, VK_MUL16, VK_MUL24, VK_MAD16, VK_MAD24, VK_SAD, VK_MIN, VK_MAX,
    VK_SET, VK_LOGOP, VK_SHL, VK_SHR, VK_MOVC,
} VrKind;

typedef struct VrForm {
    VrKind kind;
    unsigned size;              /* 16 or 32 (operand size) */
    unsigned op;                /* addop / logop / set cond */
    bool sat, sign, sign2, high, not1, not2;
    bool cdst;                  /* writes $c0 */
    bool cin_c0;                /* addc carry from $c0 (short forms) */
    int src2_imm;               /* -1: $r3 (or half); else: the imm value
                                   is in .imm (shift counts included) */
    uint32_t imm;
    int src2_const;             /* >= 0: src2 is c0[src2_const] (bytes) */
    VrOpnds o;
} VrForm;

static uint32_t vr_half(uint32_t v, int h)
{
    return h < 0 ? v : h ? v >> 16 : v & 0xffff;
}

static const char *vr_reg(char *buf, unsigned r, int h)
{
    if (h < 0) {
        sprintf(buf, "$r%u", r);
    } else {
        sprintf(buf, "$r%u%c", r, h ? 'h' : 'l');
    }
    return buf;
}

/* Compute the reference $r6 and $c0 of one thread. */
static void vr_ref_int(const VrForm *f, const VrRun *vr, unsigned t,
                       uint32_t *r6, unsigned *c0)
{
    uint32_t a = vr_half(vr->in[0][t], f->o.h1);
    uint32_t b = vr_half(vr->in[1][t], f->o.h2);
    uint32_t c = vr_half(vr->in[2][t], f->o.h3);
    unsigned cin = (f->cin_c0 ? vr->in[3][t] >> 4 : vr->in[3][t]) & 0xf;
    unsigned fl = 0, fl2;
    uint32_t res = 0, m;

    if (f->src2_imm >= 0) {
        b = f->imm;
    } else if (f->src2_const >= 0) {
        b = vr->c0[f->src2_const / 4];
        if (f->o.h2 >= 0) {
            b = vr_half(b, (f->src2_const & 2) ? 1 : 0);
        }
    }
    switch (f->kind) {
    case VK_ADD:
        res = ref_add(f->op, f->sat, f->size, a, b, cin, &fl);
        break;
    case VK_MUL16:
        res = ref_mul16(f->sign, f->sign2, a, b, &fl);
        break;
    case VK_MUL24:
        res = ref_mul24(f->sign, f->high, a, b, &fl);
        break;
    case VK_MAD16:
        m = ref_mul16(f->sign, f->sign, a, b, &fl2);
        res = ref_add(f->op, f->sat, 32, m, c, cin, &fl);
        break;
    case VK_MAD24:
        m = ref_mul24(f->sign, f->high, a, b, &fl2);
        res = ref_add(f->op, f->sat, 32, m, c, cin, &fl);
        break;
    case VK_SAD:
        res = ref_sad(f->sign, f->size, a, b, c, &fl);
        break;
    case VK_MIN:
    case VK_MAX:
        res = ref_minmax(f->kind == VK_MIN, f->sign, f->size, a, b, &fl);
        break;
    case VK_SET:
        res = ref_set(f->op, f->sign, f->size, a, b, &fl);
        break;
    case VK_LOGOP:
        res = ref_logop(f->op, f->not1, f->not2, f->size, a, b, &fl);
        break;
    case VK_SHL:
    case VK_SHR:
        res = ref_shift(f->kind == VK_SHL, f->sign, f->size, a,
                        f->src2_imm >= 0 ? f->imm : b, &fl);
        break;
    case VK_MOVC:
        break;
    }
    /* the destination half, the other half keeps $r4 (the prologue) */
    if (f->o.hd < 0) {
        *r6 = res;
    } else if (f->o.hd) {
        *r6 = (vr->in[2][t] & 0xffff) | (res << 16);
    } else {
        *r6 = (vr->in[2][t] & 0xffff0000) | (res & 0xffff);
    }
    *c0 = f->cdst ? fl : (vr->in[3][t] >> 4) & 0xf;
}

static const char *vr_sizename(const VrForm *f, bool sign)
{
    static const char *const n[2][2] = { { "u16", "s16" },
                                         { "u32", "s32" } };

    return n[f->size == 32][sign];
}

/* The envydis text of a form (long form with $c0 when f->cdst). */
static void vr_text_int(const VrForm *f, bool shortf, GString *s)
{
    char d[16], s1[16], s2[16], s3[16];
    const char *cd = f->cdst ? "$c0 " : "";
    const char *b = f->size == 32 ? "b32" : "b16";

    vr_reg(d, 6, f->o.hd);
    vr_reg(s1, 2, f->o.h1);
    vr_reg(s3, 4, f->o.h3);
    if (f->src2_imm >= 0) {
        sprintf(s2, "0x%x", f->imm);
    } else if (f->src2_const >= 0) {
        sprintf(s2, "c0[0x%x]", f->src2_const);
    } else {
        vr_reg(s2, 3, f->o.h2);
    }
    switch (f->kind) {
    case VK_ADD:
        /* envydis prints "sat" before the size in short/imm forms and
           after it in long forms */
        g_string_append_printf(s, "%s%s %s%s %s%s %s %s%s",
                               vr_addop_name[f->op],
                               f->sat && shortf ? " sat" : "", b,
                               f->sat && !shortf ? " sat" : "", cd, d, s1,
                               s2, f->op == VOP_ADDC ?
                               (shortf ? " $c0" : " $c1") : "");
        break;
    case VK_MUL16:
        if (f->src2_imm >= 0) {
            /* the imm form names the type of both sources */
            g_string_append_printf(s, "mul %s %s %s %s %s", d,
                                   f->sign ? "s16" : "u16", s1,
                                   f->sign2 ? "s16" : "u16", s2);
            break;
        }
        g_string_append_printf(s, "mul %s%s %s %s %s %s", cd, d,
                               f->sign ? "s16" : "u16", s1,
                               f->sign2 ? "s16" : "u16", s2);
        break;
    case VK_MUL24:
        g_string_append_printf(s, "mul %s%s %s%s %s %s", cd, d,
                               f->high ? "high " : "",
                               f->sign ? "s24" : "u24", s1, s2);
        break;
    case VK_MAD16:
    case VK_MAD24:
        g_string_append_printf(s, "%s%s %s%s (mul %s%s %s %s) %s%s",
                               vr_addop_name[f->op], f->sat ? " sat" : "",
                               cd, d, f->high ? "high " : "",
                               f->kind == VK_MAD16 ?
                               (f->sign ? "s16" : "u16") :
                               (f->sign ? "s24" : "u24"),
                               s1, s2, s3, f->op == VOP_ADDC ?
                               (shortf ? " $c0" : " $c1") : "");
        break;
    case VK_SAD:
        g_string_append_printf(s, "sad %s%s %s %s %s %s", cd, d,
                               vr_sizename(f, f->sign), s1, s2, s3);
        break;
    case VK_MIN:
    case VK_MAX:
        g_string_append_printf(s, "%s %s %s%s %s %s",
                               f->kind == VK_MIN ? "min" : "max",
                               vr_sizename(f, f->sign), cd, d, s1, s2);
        break;
    case VK_SET: {
        static const char *const cn[8] = {
            "never", "l", "e", "le", "g", "lg", "ge", "always",
        };

        g_string_append_printf(s, "set %s%s %s %s %s %s", cd, d, cn[f->op],
                               vr_sizename(f, f->sign), s1, s2);
        break;
    }
    case VK_LOGOP:
        g_string_append_printf(s, "%s %s %s%s %s%s %s%s",
                               vr_logop_name[f->op], b, cd, d,
                               f->not1 ? "not " : "", s1,
                               f->not2 ? "not " : "", s2);
        break;
    case VK_SHL:
        g_string_append_printf(s, "shl %s %s%s %s %s", b, cd, d, s1, s2);
        break;
    case VK_SHR:
        g_string_append_printf(s, "shr %s %s%s %s %s",
                               vr_sizename(f, f->sign), cd, d, s1, s2);
        break;
    case VK_MOVC:
        break;
    }
}

/*
 * Run one form over @runs rounds of VR_N random inputs; add it to @rep.
 * @shortf: use the short/immediate spelling (no $c0, "DST = SRC3").
 */
static void vr_check_int(VrReport *rep, TeslaVariant v, const VrForm *f,
                         bool shortf, unsigned runs, uint64_t seed)
{
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GString) bad = g_string_new(NULL);
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { seed * 0x9e3779b97f4a7c15ull + 12345 };
    unsigned nbad = 0;
    VrForm ff = *f;

    if (shortf) {
        ff.cdst = false;
        ff.cin_c0 = true;
    }
    /* every form exists on every variant: spread them over all five */
    v = (TeslaVariant)((seed + v) % TESLA_NUM_VARIANTS);
    vr_text_int(&ff, shortf, text);
    if (shortf && (ff.kind == VK_MAD16 || ff.kind == VK_MAD24 ||
                   ff.kind == VK_SAD)) {
        /* short forms are restricted to DST = SRC3 */
        g_string_replace(text, "$r4", "$r6", 0);
        ff.o.h3 = ff.o.hd;
    }
    vr->variant = v;
    rep->forms++;
    for (unsigned r = 0; r < runs; r++) {
        vr_fill(vr, &rng);
        if (!vr_exec(vr, TESLA_PROG_CP, text->str, bad)) {
            nbad = 1;
            break;
        }
        for (unsigned t = 0; t < VR_N; t++) {
            uint32_t er6, got6 = vr->out[0][t], gotc = vr->out[2][t];
            unsigned ec0;

            vr_ref_int(&ff, vr, t, &er6, &ec0);
            if (got6 == er6 && gotc == ec0) {
                continue;
            }
            if (nbad++ < 4) {
                g_string_append_printf(bad,
                    "    in %08x %08x %08x c=%x: want %08x $c0=%x, "
                    "got %08x $c0=%x\n", vr->in[0][t], vr->in[1][t],
                    vr->in[2][t], vr->in[3][t] & 0xf, er6, ec0, got6,
                    gotc);
            }
        }
    }
    if (nbad) {
        rep->bad_forms++;
        g_string_append_printf(rep->text, "  %s (", text->str);
        vr_words(rep->text, vr);
        g_string_append_printf(rep->text, "): %u mismatches\n%s", nbad,
                               bad->str);
    }
    g_free(vr);
}

static const VrOpnds vr_o32 = { -1, -1, -1, -1 };

/* A few 16-bit operand half patterns (dst, src1, src2, src3). */
static const VrOpnds vr_o16[] = {
    { 0, 0, 1, 0 }, { 1, 1, 0, 1 }, { 0, 1, 1, 1 }, { 1, 0, 0, 0 },
};

START_TEST(test_ref_add)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned op = 0; op < 4; op++) {
        for (unsigned sat = 0; sat < 2; sat++) {
            for (unsigned sz = 0; sz < 2; sz++) {
                VrForm f = { .kind = VK_ADD, .op = op, .sat = sat,
                             .size = sz ? 32 : 16, .src2_imm = -1,
                             .src2_const = -1, .cdst = true };

                for (unsigned k = 0; k < (sz ? 1 : 2); k++) {
                    f.o = sz ? vr_o32 : vr_o16[k + 2 * sat];
                    /* long, with $c0 */
                    vr_check_int(&rep, TESLA_G84, &f, false, 2,
                                 op * 16 + sat * 4 + sz * 2 + k);
                    /* short */
                    vr_check_int(&rep, TESLA_G84, &f, true, 1,
                                 op * 16 + sat * 4 + sz * 2 + k + 100);
                }
            }
        }
    }
    /* b16 immediates: the low 16 bits are the operand */
    for (unsigned op = 0; op < 3; op++) {
        static const uint32_t imms[] = { 0x1234, 0xffff, 0x8000, 0x7fff };

        for (unsigned k = 0; k < ARRAY_SIZE(imms); k++) {
            VrForm f = { .kind = VK_ADD, .op = op, .size = 16,
                         .src2_imm = 1, .imm = imms[k], .src2_const = -1,
                         .o = vr_o16[k], .sat = k & 1 };

            vr_check_int(&rep, TESLA_G84, &f, true, 1, 250 + op * 8 + k);
        }
    }
    /* immediate and c0[] second operands */
    for (unsigned op = 0; op < 4; op++) {
        static const uint32_t imms[] = { 0, 1, 0x7fffffff, 0x80000000,
                                         0xffffffff, 0x12345678 };

        for (unsigned k = 0; k < ARRAY_SIZE(imms); k++) {
            VrForm f = { .kind = VK_ADD, .op = op, .size = 32,
                         .src2_imm = 1, .imm = imms[k], .src2_const = -1,
                         .o = vr_o32, .sat = k & 1 };

            if (op == VOP_ADDC) {
                continue;   /* no imm addc (the carry is $c0 in short) */
            }
            vr_check_int(&rep, TESLA_G84, &f, true, 1, 200 + op * 8 + k);
        }
        {
            VrForm f = { .kind = VK_ADD, .op = op, .size = 32,
                         .src2_imm = -1, .src2_const = 0x24, .o = vr_o32 };

            vr_check_int(&rep, TESLA_G84, &f, op != VOP_ADDC, 1, 300 + op);
        }
    }
    vr_report_finish(&rep, "add/sub/subr/addc");
}
END_TEST

START_TEST(test_ref_mul)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned s1 = 0; s1 < 2; s1++) {
        for (unsigned s2 = 0; s2 < 2; s2++) {
            for (unsigned k = 0; k < 2; k++) {
                VrForm f = { .kind = VK_MUL16, .sign = s1, .sign2 = s2,
                             .src2_imm = -1, .src2_const = -1,
                             .cdst = true, .o = vr_o16[k] };

                f.o.hd = -1;
                vr_check_int(&rep, TESLA_G84, &f, false, 2,
                             400 + s1 * 4 + s2 * 2 + k);
                if (s1 == s2) {
                    vr_check_int(&rep, TESLA_G84, &f, true, 1,
                                 410 + s1 * 4 + s2 * 2 + k);
                }
            }
        }
    }
    for (unsigned k = 0; k < 4; k++) {
        static const uint32_t imms[] = { 0x1234, 0xfffff234, 0x7fff,
                                         0xffff8000 };
        VrForm f = { .kind = VK_MUL16, .sign = k & 1, .sign2 = k & 1,
                     .src2_imm = 1, .imm = imms[k], .src2_const = -1,
                     .o = vr_o16[k] };

        if (!(k & 1) && imms[k] > 0xffff) {
            continue;
        }
        f.o.hd = -1;
        vr_check_int(&rep, TESLA_G84, &f, true, 1, 450 + k);
    }
    for (unsigned sign = 0; sign < 2; sign++) {
        for (unsigned high = 0; high < 2; high++) {
            VrForm f = { .kind = VK_MUL24, .sign = sign, .high = high,
                         .src2_imm = -1, .src2_const = -1, .cdst = true,
                         .o = vr_o32 };

            vr_check_int(&rep, TESLA_G84, &f, false, 2,
                         420 + sign * 2 + high);
            vr_check_int(&rep, TESLA_G84, &f, true, 1,
                         430 + sign * 2 + high);
            f.src2_imm = 1;
            f.imm = sign ? 0xfff123 : 0x123456;
            vr_check_int(&rep, TESLA_G84, &f, true, 1,
                         440 + sign * 2 + high);
        }
    }
    vr_report_finish(&rep, "mul16/mul24");
}
END_TEST

START_TEST(test_ref_mad)
{
    /* the nine multiply kinds of int.rst, O1:O2 order */
    static const struct {
        VrKind kind;
        bool sign, sat, high;
    } mk[] = {
        { VK_MAD16, false, false, false }, { VK_MAD16, true, false, false },
        { VK_MAD16, true, true, false },   { VK_MAD24, false, false, false },
        { VK_MAD24, true, false, false },  { VK_MAD24, true, true, false },
        { VK_MAD24, false, false, true },  { VK_MAD24, true, false, true },
        { VK_MAD24, true, true, true },
    };
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned i = 0; i < ARRAY_SIZE(mk); i++) {
        for (unsigned op = 0; op < 4; op++) {
            VrForm f = { .kind = mk[i].kind, .sign = mk[i].sign,
                         .sat = mk[i].sat, .high = mk[i].high, .op = op,
                         .src2_imm = -1, .src2_const = -1, .cdst = true,
                         .o = vr_o32 };

            if (f.kind == VK_MAD16) {
                f.o = (VrOpnds){ -1, op & 1, (op >> 1) & 1, -1 };
            }
            vr_check_int(&rep, TESLA_G84, &f, false, 2, 500 + i * 4 + op);
        }
    }
    /* short forms (DST = SRC3): the encodable ones, see int.rst */
    {
        static const struct {
            VrKind kind;
            bool sign, sat, high;
            unsigned op;
        } sk[] = {
            { VK_MAD16, false, false, false, VOP_ADD },
            { VK_MAD16, true, false, false, VOP_ADD },
            { VK_MAD24, false, false, false, VOP_ADD },
            { VK_MAD24, true, false, false, VOP_SUB },
            { VK_MAD24, true, true, true, VOP_ADD },
            { VK_MAD24, false, false, false, VOP_ADDC },
            { VK_MAD24, true, false, true, VOP_SUBR },
        };

        for (unsigned i = 0; i < ARRAY_SIZE(sk); i++) {
            VrForm f = { .kind = sk[i].kind, .sign = sk[i].sign,
                         .sat = sk[i].sat, .high = sk[i].high,
                         .op = sk[i].op, .src2_imm = -1,
                         .src2_const = -1, .o = vr_o32 };

            if (f.kind == VK_MAD16) {
                f.o = (VrOpnds){ -1, 0, 1, -1 };
            }
            vr_check_int(&rep, TESLA_G84, &f, true, 1, 600 + i);
        }
    }
    vr_report_finish(&rep, "mad");
}
END_TEST

START_TEST(test_ref_sad_minmax_set)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned sz = 0; sz < 2; sz++) {
        for (unsigned sign = 0; sign < 2; sign++) {
            VrForm f = { .sign = sign, .size = sz ? 32 : 16,
                         .src2_imm = -1, .src2_const = -1, .cdst = true,
                         .o = sz ? vr_o32 : vr_o16[sign] };
            uint64_t seed = 700 + sz * 2 + sign;

            /*
             * sad u16/s16: int.rst says every operand is 16-bit, but the
             * encoding (envydis) has a 32-bit DST and SRC3 there; what
             * the upper half gets is not documented, so only the 32-bit
             * forms are checked.
             */
            if (sz) {
                f.kind = VK_SAD;
                vr_check_int(&rep, TESLA_G84, &f, false, 2, seed);
                vr_check_int(&rep, TESLA_G84, &f, true, 1, seed + 10);
            }
            f.kind = VK_MIN;
            vr_check_int(&rep, TESLA_G84, &f, false, 2, seed + 20);
            f.kind = VK_MAX;
            vr_check_int(&rep, TESLA_G84, &f, false, 2, seed + 30);
            f.kind = VK_SET;
            for (unsigned c = 0; c < 8; c++) {
                f.op = c;
                f.o = sz ? vr_o32 : vr_o16[(sign + c) & 3];
                vr_check_int(&rep, TESLA_G84, &f, false, 1, seed + 40 + c);
            }
        }
    }
    vr_report_finish(&rep, "sad/min/max/set");
}
END_TEST

START_TEST(test_ref_logop)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned op = 0; op < 4; op++) {
        for (unsigned n = 0; n < 4; n++) {
            for (unsigned sz = 0; sz < 2; sz++) {
                VrForm f = { .kind = VK_LOGOP, .op = op, .not1 = n & 1,
                             .not2 = n >> 1, .size = sz ? 32 : 16,
                             .src2_imm = -1, .src2_const = -1,
                             .cdst = true,
                             .o = sz ? vr_o32 : vr_o16[n] };

                vr_check_int(&rep, TESLA_G84, &f, false, 1,
                             800 + op * 8 + n * 2 + sz);
            }
        }
        /* immediate forms: b32, not1 only */
        for (unsigned n = 0; n < 2; n++) {
            VrForm f = { .kind = VK_LOGOP, .op = op, .not1 = n, .size = 32,
                         .src2_imm = 1, .imm = n ? 0xffff : 0xff00ff0f,
                         .src2_const = -1, .o = vr_o32 };

            vr_check_int(&rep, TESLA_G84, &f, true, 1, 850 + op * 2 + n);
        }
    }
    vr_report_finish(&rep, "and/or/xor/mov2");
}
END_TEST

START_TEST(test_ref_shift)
{
    static const uint32_t counts[] = {
        0, 1, 2, 15, 16, 17, 31, 32, 33, 64, 127,
    };
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned k = 0; k < 3; k++) {          /* shl, shr u, shr s */
        for (unsigned sz = 0; sz < 2; sz++) {
            VrForm f = { .kind = k ? VK_SHR : VK_SHL, .sign = k == 2,
                         .size = sz ? 32 : 16, .src2_imm = -1,
                         .src2_const = -1, .cdst = true,
                         .o = sz ? vr_o32 : vr_o16[k] };
            VrRng rng = { 900 + k * 2 + sz };

            /* register count: random words and small counts mixed */
            vr_check_int(&rep, TESLA_G84, &f, false, 2, 900 + k * 2 + sz);
            /* the count register holds one of the edge counts */
            f.src2_imm = -1;
            for (unsigned c = 0; c < ARRAY_SIZE(counts); c++) {
                f.src2_imm = 1;
                f.imm = counts[c];
                vr_check_int(&rep, TESLA_G84, &f, false, 1,
                             vr_rand(&rng));
            }
        }
    }
    vr_report_finish(&rep, "shl/shr");
}
END_TEST

/*
 * Shift counts in a register: the counts of the brief (0, 1, 15, 16, 31,
 * 32, 33, 255, 0x10000, 0x80000000) put into g1[] for every thread.
 */
START_TEST(test_ref_shift_regcount)
{
    static const uint32_t counts[] = {
        0, 1, 15, 16, 31, 32, 33, 255, 0x10000, 0x10001, 0x80000000,
        0xffffffff, 0x20, 0x1f,
    };
    VrReport rep;
    VrRun *vr = g_new0(VrRun, 1);

    vr_report_init(&rep);
    vr->variant = TESLA_G84;
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned sz = 0; sz < 2; sz++) {
            VrForm f = { .kind = k ? VK_SHR : VK_SHL, .sign = k == 2,
                         .size = sz ? 32 : 16, .src2_imm = -1,
                         .src2_const = -1, .cdst = true,
                         .o = sz ? vr_o32 : vr_o16[3 - k] };
            g_autoptr(GString) text = g_string_new(NULL);
            g_autoptr(GString) bad = g_string_new(NULL);
            VrRng rng = { 950 + k * 2 + sz };
            unsigned nbad = 0;

            vr_text_int(&f, false, text);
            rep.forms++;
            vr_fill(vr, &rng);
            for (unsigned t = 0; t < VR_N; t++) {
                uint32_t c = counts[t % ARRAY_SIZE(counts)];

                /* the count is the selected half for b16 forms */
                vr->in[1][t] = f.o.h2 < 0 ? c :
                               f.o.h2 ? (vr->in[1][t] & 0xffff) | c << 16 :
                               (vr->in[1][t] & 0xffff0000) | (c & 0xffff);
            }
            if (!vr_exec(vr, TESLA_PROG_CP, text->str, bad)) {
                nbad = 1;
            } else {
                for (unsigned t = 0; t < VR_N; t++) {
                    uint32_t er6;
                    unsigned ec0;

                    vr_ref_int(&f, vr, t, &er6, &ec0);
                    if (vr->out[0][t] == er6 && vr->out[2][t] == ec0) {
                        continue;
                    }
                    if (nbad++ < 4) {
                        g_string_append_printf(bad,
                            "    in %08x count %08x: want %08x $c0=%x, "
                            "got %08x $c0=%x\n", vr->in[0][t],
                            vr->in[1][t], er6, ec0, vr->out[0][t],
                            vr->out[2][t]);
                    }
                }
            }
            if (nbad) {
                rep.bad_forms++;
                g_string_append_printf(rep.text, "  %s (", text->str);
                vr_words(rep.text, vr);
                g_string_append_printf(rep.text, "): %u mismatches\n%s",
                                       nbad, bad->str);
            }
        }
    }
    g_free(vr);
    vr_report_finish(&rep, "shl/shr register counts");
}
END_TEST

/*
 * Predicates: "(cond $c1) mov b32 $r6 $r2" over $r6 = $r4, for every
 * documented condition and every $c1 value; plus $c0 <-> $r round trips.
 */
START_TEST(test_ref_pred)
{
    VrReport rep;
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { 1000 };

    vr_report_init(&rep);
    vr->variant = TESLA_G84;
    for (unsigned cond = 0; cond < 32; cond++) {
        g_autofree char *text = NULL;
        g_autoptr(GString) bad = g_string_new(NULL);
        unsigned nbad = 0;
        bool known;

        if (!vr_pred_name[cond]) {
            continue;       /* 0x14-0x1b: isa.rst does not list them */
        }
        if (cond == 0x00) {
            text = g_strdup("(never) mov b32 $r6 $r2");
        } else if (cond == 0x0f) {
            text = g_strdup("long mov b32 $r6 $r2");
        } else {
            text = g_strdup_printf("(%s $c1) mov b32 $r6 $r2",
                                   vr_pred_name[cond]);
        }
        rep.forms++;
        vr_fill(vr, &rng);
        if (!vr_exec(vr, TESLA_PROG_CP, text, bad)) {
            nbad = 1;
        } else {
            for (unsigned t = 0; t < VR_N; t++) {
                unsigned c = vr->in[3][t] & 0xf;
                bool p = ref_pred(cond, c, &known);
                uint32_t want = p ? vr->in[0][t] : vr->in[2][t];

                if (vr->out[0][t] == want &&
                    vr->out[2][t] == ((vr->in[3][t] >> 4) & 0xf) &&
                    vr->out[3][t] == c) {
                    continue;
                }
                if (nbad++ < 4) {
                    g_string_append_printf(bad,
                        "    $c1=%x: want %s (%08x), got %08x "
                        "($c0=%x $c1=%x)\n", c, p ? "moved" : "kept",
                        want, vr->out[0][t], vr->out[2][t], vr->out[3][t]);
                }
            }
        }
        if (nbad) {
            rep.bad_forms++;
            g_string_append_printf(rep.text, "  %s (", text);
            vr_words(rep.text, vr);
            g_string_append_printf(rep.text, "): %u mismatches\n%s", nbad,
                                   bad->str);
        }
    }
    g_free(vr);
    vr_report_finish(&rep, "predicates");
}
END_TEST

/* ---- reference model: f32 ----
 *
 * float.rst gives the operations; what it leaves open comes from the CUDA
 * programming guide's section on compute capability 1.x floating point
 * (appendix "Floating-Point Standard"): add and mul round to nearest even
 * or towards zero only; denormal operands are treated as zero and
 * underflowed results are flushed to zero; a result involving NaN is the
 * quiet NaN 0x7fffffff; the multiply-add (FMAD) truncates the product's
 * mantissa before the add; fmin/fmax of a NaN and a number is the number;
 * float to integer conversion clamps to the destination range.
 * What neither says is not asserted (see the notes at each check).
 */

static inline bool vr_isnan(uint32_t x)
{
    return (x & 0x7fffffff) > 0x7f800000;
}

static inline bool vr_isdenorm(uint32_t x)
{
    return (x & 0x7f800000) == 0 && (x & 0x007fffff) != 0;
}

/* denormal operand -> zero of the same sign */
static inline uint32_t vr_ftz(uint32_t x)
{
    return vr_isdenorm(x) ? x & 0x80000000 : x;
}

static const uint32_t vr_fedge[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00400000,
    0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000,
    0x3f000000, 0x40000000, 0x7f7fffff, 0xff7fffff, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff,
    0x4b000000, 0x4effffff, 0x4f000000, 0xcf000000, 0x4f800000,
    0x3effffff, 0x3fc00000, 0xbfc00000, 0x40200000, 0x33800000,
};

static uint32_t vr_finput(VrRng *r)
{
    uint32_t k = vr_rand(r) % 16;

    if (k < 4) {
        return vr_fedge[vr_rand(r) % ARRAY_SIZE(vr_fedge)];
    } else if (k < 10) {
        /* moderate exponents: cancellation, rounding */
        uint32_t e = 120 + vr_rand(r) % 16;

        return (vr_rand(r) & 0x807fffff) | e << 23;
    } else if (k < 12) {
        /* near the bottom of the normal range: underflow */
        uint32_t e = vr_rand(r) % 4;

        return (vr_rand(r) & 0x807fffff) | e << 23;
    } else if (k < 13) {
        /* small integers as floats */
        return f32_to_bits((float)((int)(vr_rand(r) % 64) - 32));
    }
    return vr_rand(r);
}

/* a + b with host IEEE arithmetic in rounding mode @rz */
static uint32_t vr_host_add(uint32_t a, uint32_t b, bool rz)
{
    volatile float fa = bits_to_f32(a), fb = bits_to_f32(b), fr;

    fesetround(rz ? FE_TOWARDZERO : FE_TONEAREST);
    fr = fa + fb;
    fesetround(FE_TONEAREST);
    return f32_to_bits(fr);
}

static uint32_t vr_host_mul(uint32_t a, uint32_t b, bool rz)
{
    volatile float fa = bits_to_f32(a), fb = bits_to_f32(b), fr;

    fesetround(rz ? FE_TOWARDZERO : FE_TONEAREST);
    fr = fa * fb;
    fesetround(FE_TONEAREST);
    return f32_to_bits(fr);
}

/*
 * Compare a f32 result with the IEEE reference @want (computed from
 * flushed operands).  NaN must be 0x7fffffff (unless @anynan); a result
 * in the denormal range must be flushed (a zero; the value that rounds to
 * the smallest normal is accepted too: the guide does not say whether
 * the flush looks before or after rounding); zeros from flushed operands
 * may have either sign.
 */
static bool vr_fmatch(uint32_t got, uint32_t want, bool anynan,
                      bool zero_sign_free)
{
    if (vr_isnan(want)) {
        return anynan ? vr_isnan(got) : got == 0x7fffffff;
    }
    if ((want & 0x7fffffff) <= 0x00800000 && (want & 0x7fffffff) != 0) {
        return (got & 0x7fffffff) == 0 ||
               (got & 0x7fffffff) == 0x00800000;
    }
    if ((want & 0x7fffffff) == 0 && zero_sign_free) {
        return (got & 0x7fffffff) == 0;
    }
    return got == want;
}

static uint32_t vr_fsat(uint32_t x)
{
    if (vr_isnan(x)) {
        return x;
    }
    if (x & 0x80000000) {
        return 0;
    }
    return x > 0x3f800000 ? 0x3f800000 : x;
}

/* isa.rst: float Z = zero or NaN, S = negative or NaN */
static unsigned vr_fflags(uint32_t x)
{
    if (vr_isnan(x)) {
        return VF_Z | VF_S;
    }
    return ((x & 0x7fffffff) == 0 ? VF_Z : 0) |
           ((x & 0x80000000) ? VF_S : 0);
}

typedef enum VrFKind {
    VFK_ADD, VFK_MUL, VFK_MAD, VFK_MIN, VFK_MAX, VFK_SET, VFK_SLCT,
} VrFKind;

typedef struct VrFForm {
    VrFKind kind;
    bool rz, sat, cdst;
    bool shortf;                /* short spelling (rn, no $c0) */
    bool imm;                   /* src2 is .immv */
    uint32_t immv;
    bool neg1, neg2, neg3, abs1, abs2;
    unsigned cond;              /* fset: l e g u bits */
} VrFForm;

/* fset condition of two flushed operands: bit l/e/g/u */
static unsigned vr_fcmp(uint32_t a, uint32_t b)
{
    float fa, fb;

    if (vr_isnan(a) || vr_isnan(b)) {
        return 8;
    }
    fa = bits_to_f32(vr_ftz(a));
    fb = bits_to_f32(vr_ftz(b));
    return fa < fb ? 1 : fa == fb ? 2 : 4;
}

/*
 * Reference of one f32 form.  Returns false when the docs leave the
 * result of these inputs open (nothing is asserted then).
 */
static bool vr_ref_float(const VrFForm *f, uint32_t a, uint32_t b,
                         uint32_t c, uint32_t *want, unsigned *flmask,
                         bool *anynan, bool *zfree)
{
    bool den = vr_isdenorm(a) || vr_isdenorm(b) || vr_isdenorm(c);

    *flmask = VF_Z | VF_S;      /* C and O of float ops: not documented */
    *anynan = false;
    *zfree = den;
    if (f->abs1) {
        a &= 0x7fffffff;
    }
    if (f->abs2) {
        b &= 0x7fffffff;
    }
    if (f->neg1) {
        a ^= 0x80000000;
    }
    if (f->neg2) {
        b ^= 0x80000000;
    }
    if (f->neg3) {
        c ^= 0x80000000;
    }
    switch (f->kind) {
    case VFK_ADD:
        *want = vr_host_add(vr_ftz(a), vr_ftz(b), f->rz);
        break;
    case VFK_MUL:
        *want = vr_host_mul(vr_ftz(a), vr_ftz(b), f->rz);
        break;
    case VFK_MAD: {
        /* product truncated to f32 (exact in double first), then RN add */
        double p = (double)bits_to_f32(vr_ftz(a)) * (double)bits_to_f32(vr_ftz(b));
        volatile double vp = p;
        volatile float tp;
        uint32_t pu;

        if (!isnan(p) && !isinf(p) && fabs(p) > FLT_MAX) {
            return false;   /* product overflow (FLT_MAX or inf?): open */
        }
        if (isnan(p) || isinf(p) || vr_isnan(c) ||
            (vr_ftz(c) & 0x7fffffff) == 0x7f800000) {
            /* NaN/inf operands: only the NaN rule is clear */
            *want = vr_host_add(f32_to_bits((float)p), vr_ftz(c), false);
            if (!vr_isnan(*want)) {
                return false;
            }
            break;
        }
        if ((vr_ftz(c) & 0x7fffffff) == 0) {
            /* UNVERIFIED in the docs: whether the product is still
               truncated when nothing is added */
            return false;
        }
        fesetround(FE_TOWARDZERO);
        tp = (float)vp;
        fesetround(FE_TONEAREST);
        pu = f32_to_bits(tp);
        if ((pu & 0x7f800000) == 0 || (pu & 0x7f800000) == 0x7f800000) {
            return false;   /* product under/overflow: not documented */
        }
        *want = vr_host_add(pu, vr_ftz(c), false);
        break;
    }
    case VFK_MIN:
    case VFK_MAX: {
        bool na = vr_isnan(a), nb = vr_isnan(b);

        if (den) {
            return false;   /* denormal operands of min/max: open */
        }
        if (na && nb) {
            *want = 0x7fffffff;
            *anynan = true;
        } else if (na || nb) {
            *want = na ? b : a;
        } else if ((a & 0x7fffffff) == 0 && (b & 0x7fffffff) == 0) {
            return false;   /* min/max of +0 and -0: open */
        } else {
            bool lt = bits_to_f32(a) < bits_to_f32(b);

            *want = (f->kind == VFK_MIN) == lt ? a : b;
        }
        break;
    }
    case VFK_SET:
        *want = (vr_fcmp(a, b) & f->cond) ? 0xffffffff : 0;
        *zfree = false;
        return true;
    case VFK_SLCT:
        if (vr_isdenorm(c)) {
            return false;   /* sign of a flushed selector: open */
        }
        /* SRC1 if SRC3 is positive or 0 (either zero), SRC2 otherwise */
        *want = !vr_isnan(c) && (!(c & 0x80000000) || !(c & 0x7fffffff)) ?
                a : b;
        *zfree = false;
        *flmask = 0;        /* slct flags: not documented */
        return true;
    }
    if (f->sat) {
        if (vr_isnan(*want)) {
            return false;   /* sat of NaN: not documented */
        }
        *want = vr_fsat(*want);
    }
    return true;
}

static void vr_text_float(const VrFForm *f, GString *s)
{
    static const char *const cn[16] = {
        "never", "l", "e", "le", "g", "lg", "ge", "lge",
        "u", "lu", "eu", "leu", "gu", "lgu", "geu", "always",
    };
    const char *cd = f->cdst ? "$c0 " : "";
    const char *rnd = f->rz ? "rz" : "rn";
    /* envydis prints "neg abs" (the order is not the semantics: abs is
       applied first, float.rst / cvt) */
    const char *a1 = f->abs1 ? "abs " : "";
    const char *a2 = f->abs2 ? "abs " : "";
    const char *n1 = f->neg1 ? "neg " : "";
    const char *n2 = f->neg2 ? "neg " : "";

    if (f->shortf) {
        g_autofree char *s2 = f->imm ? g_strdup_printf("0x%x", f->immv) :
                                       g_strdup("$r3");

        switch (f->kind) {
        case VFK_ADD:
        case VFK_MUL:
            g_string_append_printf(s, "%s%s f32 $r6 %s$r2 %s",
                                   f->kind == VFK_ADD ? "add" : "mul",
                                   f->sat ? " sat" : "", n1, s2);
            return;
        case VFK_MAD:
            g_string_append_printf(s, "add f32 $r6 (mul $r2 %s) $r6", s2);
            return;
        default:
            g_assert_not_reached();
        }
    }
    switch (f->kind) {
    case VFK_ADD:
    case VFK_MUL:
        g_string_append_printf(s, "%s%s %s f32 %s$r6 %s$r2 %s$r3",
                               f->kind == VFK_ADD ? "add" : "mul",
                               f->sat ? " sat" : "", rnd, cd, n1, n2);
        break;
    case VFK_MAD:
        g_string_append_printf(s, "add%s f32 %s$r6 %s(mul $r2 $r3) %s$r4",
                               f->sat ? " sat" : "", cd, n1,
                               f->neg3 ? "neg " : "");
        break;
    case VFK_MIN:
    case VFK_MAX:
        g_string_append_printf(s, "%s f32 %s$r6 %s%s$r2 %s%s$r3",
                               f->kind == VFK_MIN ? "min" : "max", cd,
                               n1, a1, n2, a2);
        break;
    case VFK_SET:
        g_string_append_printf(s, "set %s$r6 %s f32 %s%s$r2 %s%s$r3", cd,
                               cn[f->cond], n1, a1, n2, a2);
        break;
    case VFK_SLCT:
        g_string_append_printf(s, "slct b32 %s$r6 $r2 $r3 f32 $r4", cd);
        break;
    }
}

static void vr_fill_float(VrRun *vr, VrRng *rng)
{
    vr_fill(vr, rng);
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned t = 0; t < VR_N; t++) {
            vr->in[i][t] = vr_finput(rng);
        }
    }
    /* some exact cancellations and equal operands */
    for (unsigned t = 0; t < VR_N; t += 7) {
        vr->in[1][t] = vr->in[0][t] ^ (t & 8 ? 0x80000000 : 0);
    }
}

static void vr_check_float(VrReport *rep, TeslaVariant v, const VrFForm *f,
                           unsigned runs, uint64_t seed)
{
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GString) bad = g_string_new(NULL);
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { seed * 0x9e3779b97f4a7c15ull + 777 };
    unsigned nbad = 0;

    vr_text_float(f, text);
    vr->variant = v;
    rep->forms++;
    for (unsigned r = 0; r < runs; r++) {
        vr_fill_float(vr, &rng);
        if (!vr_exec(vr, TESLA_PROG_CP, text->str, bad)) {
            nbad = 1;
            break;
        }
        for (unsigned t = 0; t < VR_N; t++) {
            uint32_t want = 0, got = vr->out[0][t];
            unsigned flm, gotc = vr->out[2][t], wantc;
            bool anynan, zfree, ok;

            if (!vr_ref_float(f, vr->in[0][t],
                              f->imm ? f->immv : vr->in[1][t],
                              vr->in[2][t], &want, &flm, &anynan,
                              &zfree)) {
                continue;
            }
            if (f->kind == VFK_SET || f->kind == VFK_SLCT) {
                ok = got == want;       /* bit patterns, not floats */
            } else {
                ok = vr_fmatch(got, want, anynan, zfree);
            }
            if (f->cdst) {
                /* flags of what was written (isa.rst); whether -0 counts
                   as "negative" for S is not said: not checked */
                if (f->kind != VFK_SET && (got & 0x7fffffff) == 0) {
                    flm &= ~VF_S;
                }
                wantc = (f->kind == VFK_SET ? vr_zs(want, 32) :
                         vr_fflags(got)) & flm;
                ok = ok && (gotc & flm) == wantc;
            } else {
                wantc = (vr->in[3][t] >> 4) & 0xf;
                ok = ok && gotc == wantc;
            }
            if (ok) {
                continue;
            }
            if (nbad++ < 4) {
                g_string_append_printf(bad,
                    "    in %08x %08x %08x: want %08x $c0=%x (mask %x), "
                    "got %08x $c0=%x\n", vr->in[0][t], vr->in[1][t],
                    vr->in[2][t], want, wantc, f->cdst ? flm : 0xf, got,
                    gotc);
            }
        }
    }
    if (nbad) {
        rep->bad_forms++;
        g_string_append_printf(rep->text, "  %s (", text->str);
        vr_words(rep->text, vr);
        g_string_append_printf(rep->text, "): %u mismatches\n%s", nbad,
                               bad->str);
    }
    g_free(vr);
}

START_TEST(test_ref_fadd_fmul)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned m = 0; m < 16; m++) {
            VrFForm f = { .kind = k ? VFK_MUL : VFK_ADD, .rz = m & 1,
                          .sat = (m >> 1) & 1, .neg1 = (m >> 2) & 1,
                          .neg2 = (m >> 3) & 1, .cdst = !(m & 2) };

            if (f.kind == VFK_MUL && f.neg1 && f.neg2) {
                continue;   /* fmul has one neg bit for the product */
            }
            /* fmul sat is G200+ (envydis); fadd sat is everywhere */
            vr_check_float(&rep, f.sat && k ? TESLA_G200 : TESLA_G84, &f,
                           2, 2000 + k * 16 + m);
        }
    }
    /* short and immediate forms: rn */
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned m = 0; m < 4; m++) {
            static const uint32_t imms[] = { 0x3f800000, 0xc0490fdb,
                                             0x00400000, 0x7f000000 };
            VrFForm f = { .kind = k == 0 ? VFK_ADD : k == 1 ? VFK_MUL :
                          VFK_MAD, .shortf = true, .imm = m > 0,
                          .immv = imms[m], .sat = k == 0 && m == 1,
                          .neg1 = k == 0 && m == 0 };

            vr_check_float(&rep, TESLA_G84, &f, 1, 2050 + k * 4 + m);
        }
    }
    vr_report_finish(&rep, "fadd/fmul");
}
END_TEST

START_TEST(test_ref_fmad)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned m = 0; m < 8; m++) {
        VrFForm f = { .kind = VFK_MAD, .neg1 = m & 1, .neg3 = (m >> 1) & 1,
                      .sat = (m >> 2) & 1, .cdst = !(m & 4) };

        vr_check_float(&rep, TESLA_G84, &f, 3, 2100 + m);
    }
    vr_report_finish(&rep, "fmad");
}
END_TEST

START_TEST(test_ref_fminmax_set_slct)
{
    VrReport rep;

    vr_report_init(&rep);
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned m = 0; m < 16; m++) {
            VrFForm f = { .kind = k ? VFK_MAX : VFK_MIN, .abs1 = m & 1,
                          .abs2 = (m >> 1) & 1, .neg1 = (m >> 2) & 1,
                          .neg2 = (m >> 3) & 1, .cdst = k };

            vr_check_float(&rep, TESLA_G84, &f, 1, 2200 + k * 16 + m);
        }
    }
    for (unsigned c = 0; c < 16; c++) {
        VrFForm f = { .kind = VFK_SET, .cond = c, .cdst = true,
                      .neg1 = c & 1, .abs2 = (c >> 1) & 1 };

        vr_check_float(&rep, TESLA_G84, &f, 1, 2300 + c);
    }
    {
        VrFForm f = { .kind = VFK_SLCT };

        vr_check_float(&rep, TESLA_G84, &f, 2, 2400);
    }
    vr_report_finish(&rep, "fmin/fmax/fset/fslct");
}
END_TEST

/* ---- cvt (seed 002 section 5, envydis' cvt notes) ----
 *
 * "For integer destinations, always clamps result to target type range";
 * the modifiers apply in the order abs, neg, convert + round, sat.
 * Not asserted (not documented): NaN to integer, denormal f32 sources,
 * flags other than Z/S of 16/32-bit integer results, s8 destinations.
 */

typedef enum VrCType {
    VC_U8, VC_S8, VC_U16, VC_S16, VC_U32, VC_S32, VC_F32,
} VrCType;

typedef struct VrCvt {
    const char *text;
    VrCType dt, st;
    int dh, sh;                 /* halves as in VrOpnds (-1: 32-bit) */
    unsigned rnd;               /* 0 n, 1 m, 2 p, 3 z (float or integral) */
    bool abs, neg, sat, cdst;
} VrCvt;

static const VrCvt vr_cvts[] = {
    /* integer <- integer */
    { "cvt u8 $r6 s32 $r2", VC_U8, VC_S32, -1, -1 },
    { "cvt u8 $r6 u32 $r2", VC_U8, VC_U32, -1, -1 },
    { "cvt s16 $c0 $r6l s32 $r2", VC_S16, VC_S32, 0, -1, .cdst = true },
    { "cvt s16 $r6h u32 $r2", VC_S16, VC_U32, 1, -1 },
    { "cvt u16 $c0 $r6h s16 $r2l", VC_U16, VC_S16, 1, 0, .cdst = true },
    { "cvt u16 $r6l u16 $r2h", VC_U16, VC_U16, 0, 1 },
    { "cvt s16 $r6l u16 $r2l", VC_S16, VC_U16, 0, 0 },
    { "cvt s32 $c0 $r6 u32 $r2", VC_S32, VC_U32, -1, -1, .cdst = true },
    { "cvt u32 $c0 $r6 s32 $r2", VC_U32, VC_S32, -1, -1, .cdst = true },
    { "cvt s32 $r6 s16 $r2h", VC_S32, VC_S16, -1, 1 },
    { "cvt u32 $r6 s16 $r2l", VC_U32, VC_S16, -1, 0 },
    { "cvt u32 $r6 u16 $r2h", VC_U32, VC_U16, -1, 1 },
    { "cvt s32 $r6 s8 $r2", VC_S32, VC_S8, -1, -1 },
    { "cvt u32 $r6 u8 $r2", VC_U32, VC_U8, -1, -1 },
    { "cvt neg s32 $c0 $r6 s32 $r2", VC_S32, VC_S32, -1, -1, .neg = true,
      .cdst = true },
    { "cvt abs s32 $r6 s32 $r2", VC_S32, VC_S32, -1, -1, .abs = true },
    { "cvt neg abs s32 $r6 s32 $r2", VC_S32, VC_S32, -1, -1, .abs = true,
      .neg = true },
    { "cvt neg u32 $r6 s32 $r2", VC_U32, VC_S32, -1, -1, .neg = true },
    { "cvt abs u16 $r6l s16 $r2l", VC_U16, VC_S16, 0, 0, .abs = true },
    /* integer <- f32 */
    { "cvt rni s32 $c0 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 0,
      .cdst = true },
    { "cvt rmi s32 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 1 },
    { "cvt rpi s32 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 2 },
    { "cvt rzi s32 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 3 },
    { "cvt rni u32 $r6 f32 $r2", VC_U32, VC_F32, -1, -1, 0 },
    { "cvt rzi u32 $c0 $r6 f32 $r2", VC_U32, VC_F32, -1, -1, 3,
      .cdst = true },
    { "cvt rmi s16 $r6h f32 $r2", VC_S16, VC_F32, 1, -1, 1 },
    { "cvt rpi u16 $r6l f32 $r2", VC_U16, VC_F32, 0, -1, 2 },
    { "cvt neg rzi s32 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 3,
      .neg = true },
    { "cvt abs rni s32 $r6 f32 $r2", VC_S32, VC_F32, -1, -1, 0,
      .abs = true },
    /* f32 <- integer */
    { "cvt rn f32 $r6 s32 $r2", VC_F32, VC_S32, -1, -1, 0 },
    { "cvt rm f32 $r6 s32 $r2", VC_F32, VC_S32, -1, -1, 1 },
    { "cvt rp f32 $r6 s32 $r2", VC_F32, VC_S32, -1, -1, 2 },
    { "cvt rz f32 $r6 s32 $r2", VC_F32, VC_S32, -1, -1, 3 },
    { "cvt rn f32 $r6 u32 $r2", VC_F32, VC_U32, -1, -1, 0 },
    { "cvt rz f32 $r6 u32 $r2", VC_F32, VC_U32, -1, -1, 3 },
    { "cvt rp f32 $r6 u32 $r2", VC_F32, VC_U32, -1, -1, 2 },
    { "cvt rn f32 $r6 s16 $r2h", VC_F32, VC_S16, -1, 1, 0 },
    { "cvt rn f32 $r6 u16 $r2l", VC_F32, VC_U16, -1, 0, 0 },
    { "cvt rm f32 $r6 u8 $r2", VC_F32, VC_U8, -1, -1, 1 },
    { "cvt rp f32 $r6 s8 $r2", VC_F32, VC_S8, -1, -1, 2 },
    /* f32 <- f32 */
    { "cvt rni f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 0 },
    { "cvt rmi f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 1 },
    { "cvt rpi f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 2 },
    { "cvt rzi f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 3 },
    { "cvt f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 4 },
    { "cvt neg f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 4, .neg = true },
    { "cvt abs f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 4, .abs = true },
    { "cvt sat f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 4, .sat = true },
    { "cvt neg abs f32 $r6 f32 $r2", VC_F32, VC_F32, -1, -1, 4,
      .abs = true, .neg = true },
};

static void vr_crange(VrCType t, int64_t *lo, int64_t *hi)
{
    static const int64_t r[][2] = {
        [VC_U8] = { 0, 0xff }, [VC_S8] = { -0x80, 0x7f },
        [VC_U16] = { 0, 0xffff }, [VC_S16] = { -0x8000, 0x7fff },
        [VC_U32] = { 0, 0xffffffffll },
        [VC_S32] = { -0x80000000ll, 0x7fffffffll },
    };

    *lo = r[t][0];
    *hi = r[t][1];
}

static int64_t vr_cint(VrCType t, uint32_t v)
{
    switch (t) {
    case VC_U8:
        return v & 0xff;
    case VC_S8:
        return vr_sex(v, 8);
    case VC_U16:
        return v & 0xffff;
    case VC_S16:
        return vr_sex(v, 16);
    case VC_U32:
        return v;
    default:
        return vr_sex(v, 32);
    }
}

static const int vr_fe_mode[4] = {
    FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO,
};

/* Reference: the destination value (low 32 bits) or false if open. */
static bool vr_ref_cvt(const VrCvt *c, uint32_t in, uint32_t *res,
                       unsigned *fl)
{
    uint32_t src = vr_half(in, c->sh);

    *fl = 0;
    if (c->st != VC_F32) {
        int64_t v = vr_cint(c->st, src);

        if (c->abs && v < 0) {
            v = -v;
        }
        if (c->neg) {
            v = -v;
        }
        if (c->dt == VC_F32) {
            volatile int64_t vv = v;
            volatile float f;

            fesetround(vr_fe_mode[c->rnd]);
            f = (float)vv;
            fesetround(FE_TONEAREST);
            *res = f32_to_bits(f);
            return true;
        } else {
            int64_t lo, hi;

            vr_crange(c->dt, &lo, &hi);
            v = v < lo ? lo : v > hi ? hi : v;
            *res = (uint32_t)v;
        }
    } else {
        volatile float f;
        volatile double d;

        if (vr_isdenorm(src) || vr_isnan(src)) {
            return false;
        }
        if (c->abs) {
            src &= 0x7fffffff;
        }
        if (c->neg) {
            src ^= 0x80000000;
        }
        f = bits_to_f32(src);
        if (c->dt == VC_F32) {
            if (c->rnd < 4) {
                fesetround(vr_fe_mode[c->rnd]);
                f = nearbyintf(f);
                fesetround(FE_TONEAREST);
            }
            *res = f32_to_bits(f);
            if (c->sat) {
                *res = vr_fsat(*res);
            }
            return true;
        } else {
            int64_t lo, hi;

            fesetround(vr_fe_mode[c->rnd]);
            d = nearbyint((double)f);
            fesetround(FE_TONEAREST);
            vr_crange(c->dt, &lo, &hi);
            *res = d < (double)lo ? (uint32_t)lo :
                   d > (double)hi ? (uint32_t)hi : (uint32_t)(int64_t)d;
        }
    }
    /* integer result: Z/S at the destination width (isa.rst) */
    {
        unsigned w = c->dt == VC_U16 || c->dt == VC_S16 ? 16 : 32;

        *res &= vr_mask(w);
        *fl = vr_zs(*res, w);
    }
    return true;
}

START_TEST(test_ref_cvt)
{
    VrReport rep;
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { 3000 };

    vr_report_init(&rep);
    vr->variant = TESLA_G84;
    for (unsigned i = 0; i < ARRAY_SIZE(vr_cvts); i++) {
        const VrCvt *c = &vr_cvts[i];
        g_autoptr(GString) bad = g_string_new(NULL);
        unsigned nbad = 0;

        rep.forms++;
        for (unsigned r = 0; r < 2 && !nbad; r++) {
            if (c->st == VC_F32) {
                vr_fill_float(vr, &rng);
                /* values around the integer ranges and halves */
                for (unsigned t = 0; t < VR_N; t += 3) {
                    static const float near[] = {
                        0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f,
                        65535.5f, 65536.0f, -32768.5f, 32767.5f,
                        2147483520.0f, 2147483648.0f, -2147483648.0f,
                        4294967040.0f, 4294967296.0f, -1.0f, 1e10f,
                    };

                    vr->in[0][t] = f32_to_bits(near[vr_rand(&rng) %
                                             ARRAY_SIZE(near)]);
                }
            } else {
                vr_fill(vr, &rng);
            }
            if (!vr_exec(vr, TESLA_PROG_CP, c->text, bad)) {
                nbad = 1;
                break;
            }
            for (unsigned t = 0; t < VR_N; t++) {
                uint32_t want, got = vr->out[0][t];
                unsigned fl, gotc = vr->out[2][t] & (VF_Z | VF_S);
                bool ok;

                if (!vr_ref_cvt(c, vr->in[0][t], &want, &fl)) {
                    continue;
                }
                if (c->dh >= 0) {
                    want = c->dh ? (vr->in[2][t] & 0xffff) | want << 16 :
                           (vr->in[2][t] & 0xffff0000) | (want & 0xffff);
                }
                if (c->dt == VC_F32 && vr_isnan(want)) {
                    ok = vr_isnan(got);
                } else {
                    ok = got == want;
                }
                if (c->cdst) {
                    ok = ok && gotc == fl;
                }
                if (ok) {
                    continue;
                }
                if (nbad++ < 4) {
                    g_string_append_printf(bad,
                        "    in %08x: want %08x $c0.zs=%x, got %08x "
                        "$c0.zs=%x\n", vr->in[0][t], want, fl, got, gotc);
                }
            }
        }
        if (nbad) {
            rep.bad_forms++;
            g_string_append_printf(rep.text, "  %s (", c->text);
            vr_words(rep.text, vr);
            g_string_append_printf(rep.text, "): %u mismatches\n%s", nbad,
                                   bad->str);
        }
    }
    g_free(vr);
    vr_report_finish(&rep, "cvt");
}
END_TEST

/* ---- control flow: results worked out by hand per thread ---- */

typedef struct VrFlow {
    const char *name;
    const char *body;
    /* expected $r6 and $r7 of thread t; @r4 is its preset value */
    void (*want)(unsigned t, uint32_t r2, uint32_t r4, uint32_t *r6,
                 uint32_t *r7);
} VrFlow;

/* if/else with joinat/join, and a nested if in the else part */
static const char vr_flow_ifelse[] =
    "mov b32 $r12 0x1\n"
    "mov b32 $r10 0x2\n"
    "mov b32 $r13 0x0\n"
    "mov b32 $r9 0x10\n"
    "and b32 $c2 $r11 $r0 $r12\n"
    "joinat ljoin\n"
    "(e $c2) bra leven\n"
    "mov b32 $r6 0x111\n"
    "bra ljoin\n"
    "leven:\n"
    "mov b32 $r6 0x222\n"
    "and b32 $c3 $r11 $r0 $r10\n"
    "joinat lnest\n"
    "(lg $c3) bra lnest\n"
    "add b32 $r6 $r6 0x1\n"
    "lnest:\n"
    "join add b32 $r6 $r6 $r9\n"
    "add b32 $r13 $r13 0x100\n"
    "ljoin:\n"
    "join nop\n"
    "add b32 $r13 $r13 0x1\n"
    "mov b32 $r7 $r13\n";

static void vr_want_ifelse(unsigned t, uint32_t r2, uint32_t r4,
                           uint32_t *r6, uint32_t *r7)
{
    if (t & 1) {
        *r6 = 0x111;
        *r7 = 0x1;
    } else {
        /* both nested paths pass "join add"; only tid & 2 == 0 adds 1 */
        *r6 = 0x222 + ((t & 2) ? 0 : 1) + 0x10;
        *r7 = 0x101;
    }
}

/* loop: thread t runs t & 7 iterations, leaving with a predicated break */
static const char vr_flow_loop[] =
    "and b32 $r1 $r0 0x7\n"
    "mov b32 $r13 0x0\n"
    "mov b32 $r14 0x0\n"
    "breakaddr lend\n"
    "lloop:\n"
    "sub b32 $c2 $r11 $r13 $r1\n"
    "(e $c2) break\n"
    "add b32 $r14 $r14 $r13\n"
    "add b32 $r13 $r13 0x1\n"
    "bra lloop\n"
    "lend:\n"
    "mov b32 $r6 $r14\n"
    "mov b32 $r7 $r13\n";

static void vr_want_loop(unsigned t, uint32_t r2, uint32_t r4,
                         uint32_t *r6, uint32_t *r7)
{
    unsigned n = t & 7;

    *r6 = n * (n - 1) / 2;
    *r7 = n;
}

/* call/ret with a divergent early return */
static const char vr_flow_call[] =
    "mov b32 $r12 0x1\n"
    "mov b32 $r13 0x0\n"
    "call lfn\n"
    "add b32 $r13 $r13 0x10\n"
    "mov b32 $r7 $r13\n"
    "bra lout\n"
    "lfn:\n"
    "and b32 $c2 $r11 $r0 $r12\n"
    "mov b32 $r6 0x5\n"
    "(lg $c2) ret\n"
    "mov b32 $r6 0x6\n"
    "ret\n"
    "lout:\n";

static void vr_want_call(unsigned t, uint32_t r2, uint32_t r4,
                         uint32_t *r6, uint32_t *r7)
{
    *r6 = (t & 1) ? 5 : 6;
    *r7 = 0x10;
}

/* divergent exit: odd threads branch to an exit, even ones go on */
static const char vr_flow_exit[] =
    "mov b32 $r12 0x1\n"
    "and b32 $c2 $r11 $r0 $r12\n"
    "(lg $c2) bra lexit\n"
    "mov b32 $r6 0x77\n"
    "bra lcont\n"
    "lexit:\n"
    "exit nop\n"
    "lcont:\n"
    "mov b32 $r7 0x88\n";

static void vr_want_exit(unsigned t, uint32_t r2, uint32_t r4,
                         uint32_t *r6, uint32_t *r7)
{
    *r6 = (t & 1) ? r4 : 0x77;
    *r7 = (t & 1) ? r4 : 0x88;
}

/*
 * DESIGN.md errata: the exit part of a long instruction applies even
 * when its predicate is false.  Every thread exits here; the mov happens
 * only where "e" holds for $c1.
 */
static const char vr_flow_predexit[] =
    "exit (e $c1) mov b32 $r6 $r2\n"
    "mov b32 $r7 0x1234\n";

static unsigned vr_flow_c1[VR_N];

static void vr_want_predexit(unsigned t, uint32_t r2, uint32_t r4,
                             uint32_t *r6, uint32_t *r7)
{
    bool known;

    *r6 = ref_pred(0x02, vr_flow_c1[t], &known) ? r2 : r4;
    *r7 = r4;
}

static const VrFlow vr_flows[] = {
    { "if/else joinat/join (nested)", vr_flow_ifelse, vr_want_ifelse },
    { "breakaddr/break loop", vr_flow_loop, vr_want_loop },
    { "call/ret divergent", vr_flow_call, vr_want_call },
    { "divergent exit", vr_flow_exit, vr_want_exit },
    { "predicated exit", vr_flow_predexit, vr_want_predexit },
};

START_TEST(test_ref_flow)
{
    VrReport rep;
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { 4000 };

    vr_report_init(&rep);
    vr->variant = TESLA_G84;
    for (unsigned i = 0; i < ARRAY_SIZE(vr_flows); i++) {
        const VrFlow *fl = &vr_flows[i];
        g_autoptr(GString) bad = g_string_new(NULL);
        unsigned nbad = 0;

        rep.forms++;
        vr_fill(vr, &rng);
        for (unsigned t = 0; t < VR_N; t++) {
            vr_flow_c1[t] = vr->in[3][t] & 0xf;
        }
        if (!vr_exec(vr, TESLA_PROG_CP, fl->body, bad)) {
            nbad = 1;
        } else {
            for (unsigned t = 0; t < VR_N; t++) {
                uint32_t r6, r7;

                fl->want(t, vr->in[0][t], vr->in[2][t], &r6, &r7);
                if (vr->out[0][t] == r6 && vr->out[1][t] == r7 &&
                    vr->exited[t]) {
                    continue;
                }
                if (nbad++ < 4) {
                    g_string_append_printf(bad,
                        "    thread %u: want $r6=%08x $r7=%08x exited, got "
                        "%08x %08x%s\n", t, r6, r7, vr->out[0][t],
                        vr->out[1][t], vr->exited[t] ? "" : " not exited");
                }
            }
        }
        if (nbad) {
            rep.bad_forms++;
            g_string_append_printf(rep.text, "  %s: %u mismatches\n%s",
                                   fl->name, nbad, bad->str);
        }
    }
    g_free(vr);
    vr_report_finish(&rep, "control flow");
}
END_TEST

/*
 * mov lane masks (data.rst: written where lanemask & 1 << (laneid & 3)),
 * and DESIGN.md's errata: registers at or beyond the allocated count
 * (16 here) read 0 and ignore writes.
 */
START_TEST(test_ref_lanemask_gprs)
{
    static const char *const lm[16] = {
        "lnone", "l0", "l1", "l01", "l2", "l02", "l12", "l012",
        "l3", "l03", "l13", "l013", "l23", "l023", "l123", NULL,
    };
    VrReport rep;
    VrRun *vr = g_new0(VrRun, 1);
    VrRng rng = { 5000 };

    vr_report_init(&rep);
    vr->variant = TESLA_G80;
    for (unsigned m = 0; m < 17; m++) {
        g_autofree char *text = NULL;
        g_autoptr(GString) bad = g_string_new(NULL);
        unsigned nbad = 0;

        if (m == 15) {
            continue;           /* 0xf is the unprinted "all lanes" */
        }
        if (m < 16) {
            text = g_strdup_printf("(%s) mov b32 $r6 $r2", lm[m]);
        } else {
            /* $r40 reads 0; the write to $r41 is dropped */
            text = g_strdup("add b32 $r6 $r2 $r40\n"
                            "add b32 $r41 $r2 $r3\n"
                            "add b32 $r7 $r41 $r3");
        }
        rep.forms++;
        vr_fill(vr, &rng);
        if (!vr_exec(vr, TESLA_PROG_CP, text, bad)) {
            nbad = 1;
        } else {
            for (unsigned t = 0; t < VR_N; t++) {
                uint32_t w6, w7 = vr->in[2][t];

                if (m < 16) {
                    w6 = (m >> (t & 3)) & 1 ? vr->in[0][t] : vr->in[2][t];
                } else {
                    w6 = vr->in[0][t];
                    w7 = vr->in[1][t];
                }
                if (vr->out[0][t] == w6 && vr->out[1][t] == w7) {
                    continue;
                }
                if (nbad++ < 4) {
                    g_string_append_printf(bad,
                        "    thread %u: want %08x %08x, got %08x %08x\n", t,
                        w6, w7, vr->out[0][t], vr->out[1][t]);
                }
            }
        }
        if (nbad) {
            rep.bad_forms++;
            g_string_append_printf(rep.text, "  %s (", text);
            vr_words(rep.text, vr);
            g_string_append_printf(rep.text, "): %u mismatches\n%s", nbad,
                                   bad->str);
        }
    }
    g_free(vr);
    vr_report_finish(&rep, "lane masks, unallocated registers");
}
END_TEST

Suite *tesla_ref_suite(void)
{
    Suite *s = suite_create("tesla_ref");
    TCase *tc = tcase_create("int");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ref_add);
    tcase_add_test(tc, test_ref_mul);
    tcase_add_test(tc, test_ref_mad);
    tcase_add_test(tc, test_ref_sad_minmax_set);
    tcase_add_test(tc, test_ref_logop);
    tcase_add_test(tc, test_ref_shift);
    tcase_add_test(tc, test_ref_shift_regcount);
    tcase_add_test(tc, test_ref_pred);
    tcase_add_test(tc, test_ref_lanemask_gprs);
    suite_add_tcase(s, tc);

    tc = tcase_create("float");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ref_fadd_fmul);
    tcase_add_test(tc, test_ref_fmad);
    tcase_add_test(tc, test_ref_fminmax_set_slct);
    tcase_add_test(tc, test_ref_cvt);
    suite_add_tcase(s, tc);

    tc = tcase_create("flow");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ref_flow);
    suite_add_tcase(s, tc);
    return s;
}
