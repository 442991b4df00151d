/*
 * USSE interpreter: TEST/TESTMASK, bitwise and shifts, the SOP blend
 * ALU, and the integer multiply-adds (IMA8, IMA16, IMAE, IMA32).
 * Operands are 32-bit registers; a repeat moves every register operand
 * on by one (MOE increments apply).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"
#include "gemu/log.h"
#include "target/usse/exec-priv.h"

static bool rd(UsseCtx *c, unsigned slot, unsigned it, uint32_t *v)
{
    UsseRef r = usse_ref(c, slot, it);
    return usse_rdw(c, &r, 0, v);
}

static bool wr(UsseCtx *c, unsigned it, uint32_t v)
{
    UsseRef r = usse_ref(c, USSE_DST, it);
    return usse_wrw(c, &r, 0, v);
}

/* ---- TEST / TESTMASK ---- */

typedef struct TestVal {
    double v;               /* exact result, for the tests */
    uint32_t raw;           /* what a write-back stores */
} TestVal;

/* The element format the test ALU operation works on. */
static unsigned test_fmt(unsigned alu, bool f16)
{
    switch (alu >> 4) {
    case 0:
        return f16 ? USSE_FMT_F16 : USSE_FMT_F32;
    case 1:
        return (alu & 15) >= 12 ? USSE_FMT_U32 : USSE_FMT_U16;
    case 2:
        return USSE_FMT_U8;
    default:
        return USSE_FMT_U32;
    }
}

/* Element @ch of a test source, in the width the ALU op works on. */
static bool test_src(UsseCtx *c, const UsseRef *r, unsigned alu, unsigned ch,
                     bool f16, uint32_t *raw)
{
    return usse_eget(c, r, test_fmt(alu, f16), ch, raw);
}

static float fval(uint32_t raw, bool f16)
{
    return f16 ? gemu_half_to_float(raw) : usse_f(raw);
}

static uint32_t fraw(float v, bool f16)
{
    return f16 ? gemu_float_to_half(v) : usse_u(v);
}

/* TEST's float operations (alu 0x00..0x0f) on @a and @b. */
static bool test_float(UsseCtx *c, const UsseRef *r2, unsigned ch,
                       bool f16, uint32_t a, uint32_t b, TestVal *out)
{
    const UsseInsn *insn = c->insn;
    unsigned alu = insn->f[UF_ALU];
    float x = fval(a, f16), y = fval(b, f16), r;

    if (insn->opnd[USSE_SRC1].mods & USSE_MOD_NEG) {
        x = -x;
    }
    switch (alu) {
    case 0x02: r = x + y; break;
    case 0x03: r = x - floorf(x); break;
    case 0x04: r = 1.0f / x; break;
    case 0x05: r = 1.0f / sqrtf(x); break;
    case 0x06: r = log2f(x); break;
    case 0x07: r = exp2f(x); break;
    case 0x08: r = x * y; break;       /* fdp: UNVERIFIED */
    case 0x09: r = fminf(x, y); break;
    case 0x0a: r = fmaxf(x, y); break;
    case 0x0b: case 0x0c: {
        /* the derivative of src2 (hardware: the vtstmsk_dsy cases
           follow pa20's, not pa16's, across the vertex quad) */
        unsigned sch = insn->f[UF_VSCOMP] ? 0 : ch;
        r = 0.0f;
        if (c->snap) {
            unsigned l = c->lane;
            unsigned qa = alu == 0x0b ? (l & 2) : (l & 1);
            unsigned qb = alu == 0x0b ? qa + 1 : qa + 2;
            UsseCtx na = *c, nb = *c;
            uint32_t va, vb;
            na.in = &c->snap[qa];
            nb.in = &c->snap[qb];
            if (!test_src(&na, r2, alu, sch, f16, &va) ||
                !test_src(&nb, r2, alu, sch, f16, &vb)) {
                usse_trap_fixup(c);
                return false;
            }
            r = fval(vb, f16) - fval(va, f16);
        }
        break;
    }
    case 0x0d: r = x * y; break;
    case 0x0e: r = x - y; break;
    default:
        return usse_trap(c, USSE_ERR_ILLEGAL, "test alu 0x%02x", alu);
    }
    out->v = r;
    out->raw = fraw(r, f16);
    return true;
}

/* TEST's integer and bitwise operations (alu 0x10..0x3f) on @a, @b. */
static bool test_int(UsseCtx *c, uint32_t a, uint32_t b, TestVal *out)
{
    const UsseInsn *insn = c->insn;
    unsigned alu = insn->f[UF_ALU];
    int64_t x, y, r;
    unsigned bits;
    bool sgn;

    switch (alu >> 4) {
    case 1:
        bits = (alu & 15) >= 12 ? 32 : 16;
        sgn = alu == 0x16 || alu == 0x17 || alu == 0x18 || alu == 0x1c ||
              alu == 0x1e;
        break;
    case 2:
        bits = 8;
        sgn = alu == 0x20 || alu == 0x21 || alu == 0x24;
        break;
    default:
        bits = 32;
        sgn = true;
        break;
    }
    if (sgn) {
        x = (int64_t)((int32_t)(a << (32 - bits)) >> (32 - bits));
        y = (int64_t)((int32_t)(b << (32 - bits)) >> (32 - bits));
    } else {
        x = a;
        y = b;
    }
    if (insn->opnd[USSE_SRC1].mods & USSE_MOD_NEG) {
        x = -x;
    }
    switch (alu) {
    case 0x16: case 0x19: case 0x1c: case 0x1d: case 0x20: case 0x22:
        r = x + y;
        break;
    case 0x17: case 0x1a: case 0x1e: case 0x1f: case 0x21: case 0x23:
        r = x - y;
        break;
    case 0x18: case 0x1b: case 0x24: case 0x26:
        r = x * y;
        break;
    case 0x25:  /* fixed-point 8-bit: 255 = 1.0 */
        r = (x * y + 127) / 255;
        break;
    case 0x27:
        r = MIN(x + y, 255);
        break;
    case 0x28:
        r = MAX(x - y, 0);
        break;
    case 0x30: r = (int32_t)(a & b); break;
    case 0x31: r = (int32_t)(a | b); break;
    case 0x32: r = (int32_t)(a ^ b); break;
    case 0x33: r = (int32_t)(a << (b & 31)); break;
    case 0x34: r = (int32_t)(a >> (b & 31)); break;
    case 0x35: r = (int32_t)((a << (b & 31)) | (a >> ((32 - (b & 31)) & 31)));
        break;
    case 0x37: r = (int32_t)a >> (b & 31); break;
    default:
        return usse_trap(c, USSE_ERR_ILLEGAL, "test alu 0x%02x", alu);
    }
    out->v = (double)r;
    out->raw = bits == 32 ? (uint32_t)r : (uint32_t)r & ((1u << bits) - 1);
    return true;
}

static bool test_alu(UsseCtx *c, unsigned it, unsigned ch, TestVal *out)
{
    const UsseInsn *insn = c->insn;
    unsigned alu = insn->f[UF_ALU];
    /* prec set = F32 (hardware: every vtstmsk case sets it and tests
       F32 words); UNVERIFIED: clear = F16 */
    bool f16 = !insn->f[UF_PREC];
    UsseRef r1 = usse_ref(c, USSE_SRC1, it), r2 = usse_ref(c, USSE_SRC2, it);
    uint32_t a, b;

    /*
     * The scalar operations (RCP, RSQ, LOG, EXP) work on src1's channel
     * x and every channel tests that one result (hardware:
     * vtstmsk_log_mask2 writes channel x's outcome to i0.x and i0.y).
     */
    if (alu >= 0x04 && alu <= 0x07) {
        ch = 0;
    }
    /* vscomp: src2's channel x against every channel (Vita3K) */
    if (!test_src(c, &r1, alu, ch, f16, &a) ||
        !test_src(c, &r2, alu, insn->f[UF_VSCOMP] ? 0 : ch, f16, &b)) {
        return false;
    }
    if (alu >> 4 == 0) {
        return test_float(c, &r2, ch, f16, a, b, out);
    }
    return test_int(c, a, b, out);
}

/* zero_test 1 = zero, 2 = non-zero; sign_test 1 = negative, 2 =
   positive; both given: AND if the and-flag is set, else OR. */
static bool test_cond(UsseCtx *c, const TestVal *t, bool *res)
{
    const UsseInsn *insn = c->insn;
    unsigned zt = insn->f[UF_ZERO_TEST], st = insn->f[UF_SIGN_TEST];
    bool z = false, s = false;

    if (zt == 3 || st == 3) {
        return usse_trap(c, USSE_ERR_ILLEGAL, "test mode 3");
    }
    if (zt) {
        z = zt == 1 ? t->v == 0 : t->v != 0;
    }
    if (st) {
        s = st == 1 ? t->v < 0 : t->v > 0;
    }
    if (zt && st) {
        *res = insn->f[UF_TEST_AND] ? z && s : z || s;
    } else if (zt) {
        *res = z;
    } else if (st) {
        *res = s;
    } else {
        *res = true;
    }
    return true;
}

/*
 * TEST writes predicates: chan_cc 0..3 tests one channel into p[pdst];
 * UNVERIFIED (Vita3K has 0..3 only): "pchan" (4) tests channel c into
 * p[c] for all four, "all"/"any" (5/6) combine the four into p[pdst].
 * TESTMASK tests all four channels and writes a mask per channel in its
 * type: U8 bytes 0xff, F16 halves 1.0, F32 words 1.0, else 0 (Vita3K;
 * hardware: the vtstmsk cases' U8 and F32 masks; F16 UNVERIFIED).
 */
static bool exec_test(UsseCtx *c, bool to_mask)
{
    const UsseInsn *insn = c->insn;
    unsigned cc = to_mask ? 4 : insn->f[UF_CHAN_CC];
    unsigned lo = cc < 4 ? cc : 0, hi = cc < 4 ? cc : 3;
    bool f16 = !insn->f[UF_PREC];

    if (likely(cc < 4 && !insn->f[UF_WBEN])) {
        /* the common case: one channel into one predicate */
        for (unsigned it = 0; it < insn->repeat; it++) {
            TestVal t;
            bool res;
            if (!test_alu(c, it, cc, &t) || !test_cond(c, &t, &res)) {
                return false;
            }
            c->in->p[insn->f[UF_PDST]] = res;
        }
        return true;
    }
    for (unsigned it = 0; it < insn->repeat; it++) {
        TestVal t[4];
        bool res[4];

        for (unsigned ch = lo; ch <= hi; ch++) {
            if (!test_alu(c, it, ch, &t[ch]) ||
                !test_cond(c, &t[ch], &res[ch])) {
                return false;
            }
        }
        if (to_mask) {
            static const uint8_t fmts[3] = {
                USSE_FMT_U8, USSE_FMT_F16, USSE_FMT_F32 };
            static const uint32_t ones[3] = { 0xff, 0x3c00, 0x3f800000 };
            unsigned mt = insn->f[UF_MASK_TYPE];
            UsseRef d = usse_ref(c, USSE_DST, it);
            for (unsigned ch = 0; ch < 4; ch++) {
                if (!usse_eput(c, &d, fmts[mt], ch,
                               res[ch] ? ones[mt] : 0)) {
                    return false;
                }
            }
            continue;
        }
        switch (cc) {
        case 4:
            for (unsigned ch = 0; ch < 4; ch++) {
                c->in->p[ch] = res[ch];
            }
            break;
        case 5:
            c->in->p[insn->f[UF_PDST]] = res[0] && res[1] && res[2] &&
                                         res[3];
            break;
        case 6:
            c->in->p[insn->f[UF_PDST]] = res[0] || res[1] || res[2] ||
                                         res[3];
            break;
        default:
            c->in->p[insn->f[UF_PDST]] = res[cc];
            break;
        }
        if (insn->f[UF_WBEN]) {
            /* the ALU result of the tested channels (UNVERIFIED) */
            UsseRef d = usse_ref(c, USSE_DST, it);
            unsigned fmt = test_fmt(insn->f[UF_ALU], f16);
            for (unsigned ch = lo; ch <= hi; ch++) {
                if (!usse_eput(c, &d, fmt, ch, t[ch].raw)) {
                    return false;
                }
            }
        }
    }
    return true;
}

/* ---- bitwise ---- */

static bool exec_bitwise(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    unsigned rot = insn->f[UF_SRC2_ROT];

    for (unsigned it = 0; it < insn->repeat; it++) {
        uint32_t a, b, r, old = 0;

        if (!rd(c, USSE_SRC1, it, &a) || !rd(c, USSE_SRC2, it, &b)) {
            return false;
        }
        if (rot) {
            b = (b << rot) | (b >> (32 - rot));
        }
        if (insn->f[UF_SRC2_INV]) {
            b = ~b;
        }
        switch (insn->op) {
        case UOP_AND: r = a & b; break;
        case UOP_OR: r = a | b; break;
        case UOP_XOR: r = a ^ b; break;
        case UOP_SHL: r = a << (b & 31); break;
        case UOP_SHR: r = a >> (b & 31); break;
        case UOP_ASR: r = (uint32_t)((int32_t)a >> (b & 31)); break;
        case UOP_RLP: {
            /* UNVERIFIED: rotate left by one through predicate p[src2 &
               3]: its old value enters bit 0, bit 31 leaves into it */
            uint8_t *p = &c->in->p[b & 3];
            r = a << 1 | *p;
            *p = a >> 31;
            break;
        }
        default:    /* ROL */
            r = (a << (b & 31)) | (a >> ((32 - (b & 31)) & 31));
            break;
        }
        if (insn->f[UF_PARTIAL]) {
            /* 16-bit operation: the upper half is kept (UNVERIFIED) */
            UsseRef d = usse_ref(c, USSE_DST, it);
            if (!usse_rdw(c, &d, 0, &old)) {
                return false;
            }
            r = (old & 0xffff0000u) | (r & 0xffff);
        }
        if (!wr(c, it, r)) {
            return false;
        }
    }
    return true;
}

/* ---- SOP: the U8 blend ALU (byte 3 is alpha) ---- */

static double u8v(uint32_t w, unsigned ch)
{
    return ((w >> (8 * ch)) & 0xff) / 255.0;
}

/* Colour factor selector (sgx543.md 1.3): 0 zero, 1 src1, 2 src2,
   3 src1.a, 4 src2.a, 5 alpha saturate min(src1.a, 1 - src2.a). */
static bool sop_factor(UsseCtx *c, unsigned sel, bool cmp, uint32_t s1,
                       uint32_t s2, unsigned ch, double *f)
{
    switch (sel) {
    case 0: *f = 0; break;
    case 1: *f = u8v(s1, ch); break;
    case 2: *f = u8v(s2, ch); break;
    case 3: *f = u8v(s1, 3); break;
    case 4: *f = u8v(s2, 3); break;
    case 5: *f = MIN(u8v(s1, 3), 1.0 - u8v(s2, 3)); break;
    default:
        return usse_trap(c, USSE_ERR_UNSUPPORTED, "sop selector %u", sel);
    }
    if (cmp) {
        *f = 1.0 - *f;
    }
    return true;
}

/* Alpha selector: 0 zero, 1 src1.a, 2 src2.a. */
static bool sop_afactor(UsseCtx *c, unsigned sel, bool cmp, uint32_t s1,
                        uint32_t s2, double *f)
{
    switch (sel) {
    case 0: *f = 0; break;
    case 1: *f = u8v(s1, 3); break;
    case 2: *f = u8v(s2, 3); break;
    default:
        return usse_trap(c, USSE_ERR_UNSUPPORTED, "sop alpha selector %u",
                         sel);
    }
    if (cmp) {
        *f = 1.0 - *f;
    }
    return true;
}

static double sop_op(unsigned op, double a, double b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return MIN(a, b);
    default: return MAX(a, b);
    }
}

static uint32_t u8raw(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint32_t)nearbyint(v * 255.0);
}

static bool exec_sop(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    const uint32_t *f = insn->f;
    bool wm = insn->op == UOP_SOPWM;

    for (unsigned it = 0; it < insn->repeat; it++) {
        uint32_t s1, s2, old = 0, r = 0;
        unsigned mask = wm ? insn->opnd[USSE_DST].mask : 0xf;

        if (!rd(c, USSE_SRC1, it, &s1) || !rd(c, USSE_SRC2, it, &s2)) {
            return false;
        }
        if (wm) {
            UsseRef d = usse_ref(c, USSE_DST, it);
            if (!usse_rdw(c, &d, 0, &old)) {
                return false;
            }
        }
        if (!wm && f[UF_SRC1_MOD]) {
            s1 = (s1 & 0xff000000u) | (~s1 & 0x00ffffffu);
        }
        if (!wm && f[UF_ASRC1_MOD]) {
            s1 ^= 0xff000000u;
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            double f1 = 0, f2 = 0, v;
            bool ok;

            if (!(mask & (1u << ch))) {
                r |= old & (0xffu << (8 * ch));
                continue;
            }
            if (ch < 3 || wm) {
                ok = sop_factor(c, f[UF_CSEL1], f[UF_CMOD1], s1, s2, ch,
                                &f1) &&
                     sop_factor(c, f[UF_CSEL2], f[UF_CMOD2], s1, s2, ch,
                                &f2);
                v = sop_op(ch < 3 ? f[UF_COP] : f[UF_AOP],
                           u8v(s1, ch) * f1, u8v(s2, ch) * f2);
            } else {
                ok = sop_afactor(c, f[UF_ASEL1], f[UF_AMOD1], s1, s2, &f1) &&
                     sop_afactor(c, f[UF_ASEL2], f[UF_AMOD2], s1, s2, &f2);
                v = sop_op(f[UF_AOP], u8v(s1, 3) * f1, u8v(s2, 3) * f2);
            }
            if (!ok) {
                return false;
            }
            if (!wm && f[UF_DEST_MOD]) {
                v = 1.0 - v;    /* UNVERIFIED */
            }
            r |= u8raw(v) << (8 * ch);
        }
        if (!wr(c, it, r)) {
            return false;
        }
    }
    return true;
}

/*
 * SOP3: the three-source blend ALU.  Facts: the fields (sgx543.md
 * Appendix A), ADD/SUB only (the wiki).  UNVERIFIED (Vita3K implements
 * it only in part, and no public source has the selectors): colour =
 * cop(src1 * F1, src2 * F2) with the factors chosen like SOP2's (0 zero,
 * 1 src1, 2 src2, 3 src1.a, 4 src2.a) plus 5 src0, 6 src0.a, 7 alpha
 * saturate; alpha = aop(src1.a * A, src2.a * (1 - A)), A by asel1 (0
 * zero, 1 src1.a, 2 src2.a, 3 src0.a); cmod/amod complement a factor,
 * dmod the result.
 */
static double sop3_factor(unsigned sel, bool cmp, const uint32_t s[3],
                          unsigned ch)
{
    double f;

    switch (sel) {
    case 0: f = 0; break;
    case 1: f = u8v(s[1], ch); break;
    case 2: f = u8v(s[2], ch); break;
    case 3: f = u8v(s[1], 3); break;
    case 4: f = u8v(s[2], 3); break;
    case 5: f = u8v(s[0], ch); break;
    case 6: f = u8v(s[0], 3); break;
    default: f = MIN(u8v(s[1], 3), 1.0 - u8v(s[2], 3)); break;
    }
    return cmp ? 1.0 - f : f;
}

static bool exec_sop3(UsseCtx *c)
{
    const uint32_t *f = c->insn->f;

    for (unsigned it = 0; it < c->insn->repeat; it++) {
        uint32_t s[3], r = 0;

        if (!rd(c, USSE_SRC0, it, &s[0]) || !rd(c, USSE_SRC1, it, &s[1]) ||
            !rd(c, USSE_SRC2, it, &s[2])) {
            return false;
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            double v;
            if (ch < 3) {
                v = sop_op(f[UF_COP],
                           u8v(s[1], ch) * sop3_factor(f[UF_CSEL1],
                                                       f[UF_CMOD1], s, ch),
                           u8v(s[2], ch) * sop3_factor(f[UF_CSEL2],
                                                       f[UF_CMOD2], s, ch));
            } else {
                unsigned as = f[UF_ASEL1];
                double a = as ? u8v(s[as == 3 ? 0 : as], 3) : 0;
                if (f[UF_AMOD1]) {
                    a = 1.0 - a;
                }
                v = sop_op(f[UF_AOP], u8v(s[1], 3) * a,
                           u8v(s[2], 3) * (1.0 - a));
            }
            if (f[UF_DMOD]) {
                v = 1.0 - v;
            }
            r |= u8raw(v) << (8 * ch);
        }
        if (!wr(c, it, r)) {
            return false;
        }
    }
    return true;
}

/* ---- integer multiply-add ---- */

/*
 * IMA8 (Vita3K, whose fuzzing checked it): per byte src1 * src2 +
 * addend, or - addend with src0's neg.  csel1/csel2 replace a
 * multiplicand's colour bytes by its alpha; the addend's colour is
 * csel0: 0 src0, 1 src1, 2 src0.a, 3 src1.a; its alpha asel0: 0 src0.a,
 * 1 src1.a.  .sat clamps to 0..255, else the byte wraps.  UNVERIFIED:
 * the cmod/amod bits complement (255 - x) the colour/alpha of sources
 * 0, 1, 2.  FPMA (group 25, the wiki's other "mad.u8") does the same in
 * fixed point (src1 * src2 / 255, rounded): UNVERIFIED.
 */
static bool exec_ima8(UsseCtx *c)
{
    const uint32_t *f = c->insn->f;
    bool fixed = c->insn->op == UOP_FPMA;
    bool neg = c->insn->opnd[USSE_SRC0].mods & USSE_MOD_NEG;

    for (unsigned it = 0; it < c->insn->repeat; it++) {
        uint32_t s[3], r = 0;
        static const unsigned slot[3] = { USSE_SRC0, USSE_SRC1, USSE_SRC2 };

        for (int i = 0; i < 3; i++) {
            if (!rd(c, slot[i], it, &s[i])) {
                return false;
            }
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            bool alpha = ch == 3;
            /* addend: source and byte */
            unsigned asrc = alpha ? f[UF_ASEL0] : f[UF_CSEL0] & 1;
            unsigned abyte = alpha || f[UF_CSEL0] >= 2 ? 3 : ch;
            int m1 = (s[1] >> (8 * (alpha || f[UF_CSEL1] ? 3 : ch))) & 0xff;
            int m2 = (s[2] >> (8 * (alpha || f[UF_CSEL2] ? 3 : ch))) & 0xff;
            int add = (s[asrc] >> (8 * abyte)) & 0xff;
            int res;

            if (alpha ? f[UF_AMOD0] : f[UF_CMOD0]) {
                add = 255 - add;
            }
            if (alpha ? f[UF_AMOD1] : f[UF_CMOD1]) {
                m1 = 255 - m1;
            }
            if (alpha ? f[UF_AMOD2] : f[UF_CMOD2]) {
                m2 = 255 - m2;
            }
            res = fixed ? (m1 * m2 + 127) / 255 : m1 * m2;
            res += neg ? -add : add;
            if (f[UF_SAT]) {
                res = res < 0 ? 0 : res > 255 ? 255 : res;
            }
            r |= (uint32_t)(res & 0xff) << (8 * ch);
        }
        if (!wr(c, it, r)) {
            return false;
        }
    }
    return true;
}

static int64_t half16(uint32_t v, bool hi, bool sgn)
{
    uint32_t h = hi ? v >> 16 : v & 0xffff;
    return sgn ? (int64_t)(int16_t)h : (int64_t)h;
}

/* An IMA16 multiplier/addend: format 0 the low half, 1 a byte with the
   mode's sign, 2 an unsigned byte, 3 a signed byte; @hi picks byte 1
   (Vita3K: formats 0/1, the upper-byte selects; 2/3 UNVERIFIED). */
static int64_t ima16_src(uint32_t v, unsigned fmt, bool hi, bool sgn)
{
    uint32_t b = (v >> (hi ? 8 : 0)) & 0xff;

    switch (fmt) {
    case 0:
        return half16(v, false, sgn);
    case 1:
        return sgn ? (int64_t)(int8_t)b : (int64_t)b;
    case 2:
        return b;
    default:
        return (int8_t)b;
    }
}

/*
 * IMA16 (Vita3K): two 16-bit lanes, dest.half[i] = src0.half[i] * src1 +
 * src2, 16-bit results; mode 0 unsigned, 1 unsigned saturating, 2
 * signed, 3 signed saturating; source format 1 = 8-bit.  UNVERIFIED:
 * saturation clamps each lane to its 16-bit range (else it wraps), abs
 * takes |lane| first, or_shift n shifts each lane right by 8n bits.
 */
static bool exec_ima16(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    const uint32_t *f = insn->f;
    bool sgn = f[UF_MODE] >= 2, sat = f[UF_MODE] & 1;

    for (unsigned it = 0; it < insn->repeat; it++) {
        uint32_t a, b, e, out = 0;
        int64_t m, x;

        if (!rd(c, USSE_SRC0, it, &a) || !rd(c, USSE_SRC1, it, &b) ||
            !rd(c, USSE_SRC2, it, &e)) {
            return false;
        }
        m = ima16_src(b, f[UF_SFMT], f[UF_SEL1H], sgn);
        x = ima16_src(e, f[UF_FMT], f[UF_SEL2H], sgn);
        if (insn->opnd[USSE_SRC2].mods & USSE_MOD_NEG) {
            x = -x;
        }
        for (unsigned lane = 0; lane < 2; lane++) {
            int64_t r = half16(a, lane, sgn) * m + x;
            if (f[UF_ABS] && r < 0) {
                r = -r;
            }
            r >>= 8 * f[UF_OR_SHIFT];
            if (sat) {
                int64_t lo = sgn ? INT16_MIN : 0;
                int64_t hi = sgn ? INT16_MAX : UINT16_MAX;
                r = r < lo ? lo : r > hi ? hi : r;
            }
            out |= ((uint32_t)r & 0xffff) << (16 * lane);
        }
        if (!wr(c, it, out)) {
            return false;
        }
    }
    return true;
}

/* IMAE: src0.16 * src1.16 + src2 (32-bit, or 16-bit when s2type != 0),
   .hi picks the upper halves, .signed sign-extends, .sat clamps. */
static bool exec_imae(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    bool sgn = insn->f[UF_SIGNED];

    for (unsigned it = 0; it < insn->repeat; it++) {
        uint32_t a, b, e;
        int64_t r, x;

        if (!rd(c, USSE_SRC0, it, &a) || !rd(c, USSE_SRC1, it, &b) ||
            !rd(c, USSE_SRC2, it, &e)) {
            return false;
        }
        if (insn->f[UF_SFMT]) {
            x = half16(e, insn->opnd[USSE_SRC2].mods & USSE_MOD_HIGH, sgn);
        } else {
            x = sgn ? (int64_t)(int32_t)e : (int64_t)e;
        }
        r = half16(a, insn->opnd[USSE_SRC0].mods & USSE_MOD_HIGH, sgn) *
            half16(b, insn->opnd[USSE_SRC1].mods & USSE_MOD_HIGH, sgn) + x;
        if (insn->f[UF_SAT]) {
            int64_t lo = sgn ? INT32_MIN : 0;
            int64_t hi = sgn ? INT32_MAX : UINT32_MAX;
            r = r < lo ? lo : r > hi ? hi : r;
        }
        if (!wr(c, it, (uint32_t)r)) {
            return false;
        }
    }
    return true;
}

/* IMA32: src0 * src1 + src2, 32-bit wrap.  sn = 1 writes src2 through
   (Vita3K, from hardware tests); sn 2/3 are not modelled. */
static bool exec_ima32(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;

    if (insn->f[UF_SN] > 1) {
        return usse_trap(c, USSE_ERR_UNSUPPORTED, "ima32 sn=%u",
                         insn->f[UF_SN]);
    }
    for (unsigned it = 0; it < insn->repeat; it++) {
        uint32_t a, b, e;

        if (!rd(c, USSE_SRC0, it, &a) || !rd(c, USSE_SRC1, it, &b) ||
            !rd(c, USSE_SRC2, it, &e)) {
            return false;
        }
        if (insn->opnd[USSE_SRC1].mods & USSE_MOD_NEG) {
            b = -b;
        }
        if (insn->opnd[USSE_SRC2].mods & USSE_MOD_NEG) {
            e = -e;
        }
        if (!wr(c, it, insn->f[UF_SN] ? e : a * b + e)) {
            return false;
        }
    }
    return true;
}

bool usse_exec_int(UsseCtx *c)
{
    switch (c->insn->op) {
    case UOP_VTST:
        return exec_test(c, false);
    case UOP_VTSTMSK:
        return exec_test(c, true);
    case UOP_AND: case UOP_OR: case UOP_XOR: case UOP_SHL: case UOP_ROL:
    case UOP_SHR: case UOP_ASR: case UOP_RLP:
        return exec_bitwise(c);
    case UOP_SOP2: case UOP_SOPWM:
        return exec_sop(c);
    case UOP_SOP3:
        return exec_sop3(c);
    case UOP_IMA8: case UOP_FPMA:
        return exec_ima8(c);
    case UOP_IMA16:
        return exec_ima16(c);
    case UOP_IMAE:
        return exec_imae(c);
    case UOP_IMA32:
        return exec_ima32(c);
    default:
        return usse_trap(c, USSE_ERR_ILLEGAL, "illegal instruction "
                         "0x%016" PRIx64, c->insn->word);
    }
}
