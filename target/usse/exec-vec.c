/*
 * USSE interpreter: the vector groups (op1 0..8): VMAD2, VECNONMAD
 * (F32/F16), SVEC VMAD/VDP, VCOMP, VMOV/VMOVC, VPCK.
 *
 * Every instruction works channel by channel: channel c of an F32
 * unified-store operand is 32-bit register num + c, of F16 half c, of
 * C10 field c; FP-internal registers hold four floats.  A repeat
 * iteration reads all its sources before it writes (dest may be a
 * source).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse/exec-priv.h"

/* Source channel c of an operand: its swizzle applied, modifiers too. */
static bool src_ch(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
                   float *v)
{
    if (!usse_vget(c, r, fmt, r->swz[ch], v)) {
        return false;
    }
    *v = usse_mod(*v, r->mods);
    return true;
}

/* The same channel as seen by quad member @q (before this instruction). */
static bool quad_ch(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
                    unsigned q, float *v)
{
    UsseCtx nc = *c;

    nc.in = &c->snap[q];
    nc.trapped = false;
    if (!src_ch(&nc, r, fmt, ch, v)) {
        usse_trap_fixup(c);
        return false;
    }
    return true;
}

static bool put_chans(UsseCtx *c, const UsseRef *d, unsigned fmt,
                      unsigned mask, const float res[4])
{
    for (unsigned ch = 0; ch < 4; ch++) {
        if ((mask & (1u << ch)) && !usse_vput(c, d, fmt, ch, res[ch])) {
            return false;
        }
    }
    return true;
}

static float dsxy(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
                  bool y, bool *ok)
{
    unsigned l = c->lane, a, b;
    float va, vb;

    *ok = true;
    if (!c->snap) {
        return 0.0f;        /* vertices: no neighbours */
    }
    if (y) {
        a = l & 1;
        b = a + 2;
    } else {
        a = l & 2;
        b = a + 1;
    }
    if (!quad_ch(c, r, fmt, ch, a, &va) || !quad_ch(c, r, fmt, ch, b, &vb)) {
        *ok = false;
        return 0.0f;
    }
    return vb - va;
}

/*
 * VMAD2's write mask on an F16 unified-store destination (r, o, pa, sa):
 * bit 0 (x) writes the 64-bit unit's first register (halves 0, 1), bit 2
 * (z) its second (halves 2, 3); bits 1 and 3 write nothing (Vita3K's
 * decoder; UNVERIFIED: no hardware case sets them).  Hardware: the
 * vmad16 and p4gfrag1 cases write .xz and read all four halves back.
 * Other banks and F32 take the mask as it is.
 */
unsigned usse_vmad2_mask(unsigned fmt, unsigned bank, unsigned mask)
{
    if (fmt != USSE_FMT_F16 ||
        (bank != USSE_BANK_TEMP && bank != USSE_BANK_OUTPUT &&
         bank != USSE_BANK_PA && bank != USSE_BANK_SA)) {
        return mask;
    }
    return (mask & 1 ? 3u : 0u) | (mask & 4 ? 12u : 0u);
}

/* VMAD2 (op1 0): dst = src0 * src1 + src2, for F32 and F16 alike.
   Hardware: the vmad16 cases (F16); SDL's color_v secondary (F32)
   folds 0.5 * row2 + row3 of its matrix this way, which is what SDL's
   orthographic matrix (translation in row 3) needs on a real console. */
static bool exec_vmad2(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    unsigned fmt = insn->fmt;

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s0 = usse_ref(c, USSE_SRC0, it);
        UsseRef s1 = usse_ref(c, USSE_SRC1, it);
        UsseRef s2 = usse_ref(c, USSE_SRC2, it);
        unsigned mask = usse_vmad2_mask(fmt, d.bank,
                                        insn->opnd[USSE_DST].mask) & pmask;
        float res[4] = { 0 };

        for (unsigned ch = 0; ch < 4; ch++) {
            float a, b, e;
            if (!(mask & (1u << ch))) {
                continue;
            }
            if (!src_ch(c, &s0, fmt, ch, &a) || !src_ch(c, &s1, fmt, ch, &b) ||
                !src_ch(c, &s2, fmt, ch, &e)) {
                return false;
            }
            res[ch] = a * b + e;
        }
        if (!put_chans(c, &d, fmt, mask, res)) {
            return false;
        }
    }
    return true;
}

/* VECNONMAD (op1 1 F32, 2 F16): dst = op(src1, src2). */
static bool exec_vnmad(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    unsigned fmt = insn->fmt;

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s1 = usse_ref(c, USSE_SRC1, it);
        UsseRef s2 = usse_ref(c, USSE_SRC2, it);
        unsigned mask = insn->opnd[USSE_DST].mask & pmask;
        float a[4], b[4], res[4] = { 0 };
        bool ok = true;

        for (unsigned ch = 0; ch < 4; ch++) {
            if (!src_ch(c, &s1, fmt, ch, &a[ch]) ||
                !src_ch(c, &s2, fmt, ch, &b[ch])) {
                return false;
            }
        }
        for (unsigned ch = 0; ch < 4 && ok; ch++) {
            switch (insn->op) {
            case UOP_VMUL:
                res[ch] = a[ch] * b[ch];
                break;
            case UOP_VADD:
                res[ch] = a[ch] + b[ch];
                break;
            case UOP_VFRC:
                res[ch] = a[ch] - floorf(b[ch]);
                break;
            case UOP_VDSX:
            case UOP_VDSY:
                res[ch] = dsxy(c, &s1, fmt, ch, insn->op == UOP_VDSY, &ok);
                break;
            case UOP_VMIN:
                res[ch] = fminf(a[ch], b[ch]);
                break;
            case UOP_VMAX:
                res[ch] = fmaxf(a[ch], b[ch]);
                break;
            case UOP_VDP:
                /* UNVERIFIED: a 4-channel dot product in every channel */
                res[ch] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] +
                          a[3] * b[3];
                break;
            default:
                return usse_trap(c, USSE_ERR_UNSUPPORTED, "op %u", insn->op);
            }
        }
        if (!ok || !put_chans(c, &d, fmt, mask, res)) {
            return false;
        }
    }
    return true;
}

/*
 * SVEC (op1 3): VMAD3/4 dst = src0 * src1 + src2 (src0, src2 are
 * FP-internal; the corpus' vertex transforms fix the order), VDP3/4
 * dst = dot(src1, src2) in every written channel.  Repeats: unified
 * operands move 4 registers, FP-internal ones 1, and VDP's write mask
 * rotates (UNVERIFIED, sgx543.md 1.9).
 */
static bool exec_svec(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    bool dp = insn->op == UOP_VDP3 || insn->op == UOP_VDP4;
    unsigned n = insn->op == UOP_VMAD3 || insn->op == UOP_VDP3 ? 3 : 4;
    unsigned fmt = USSE_FMT_F32;

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s0 = usse_ref(c, USSE_SRC0, it);
        UsseRef s1 = usse_ref(c, USSE_SRC1, it);
        UsseRef s2 = usse_ref(c, USSE_SRC2, it);
        unsigned mask = insn->opnd[USSE_DST].mask;
        float res[4] = { 0 };

        if (dp && it) {
            mask = ((mask << it) | (mask >> (4 - (it & 3)))) & 0xf;
        }
        mask &= pmask;
        if (dp) {
            float sum = 0.0f;
            for (unsigned ch = 0; ch < n; ch++) {
                float a, b;
                if (!src_ch(c, &s1, fmt, ch, &a) ||
                    !src_ch(c, &s2, fmt, ch, &b)) {
                    return false;
                }
                sum += a * b;
            }
            res[0] = res[1] = res[2] = res[3] = sum;
        } else {
            if (n == 3) {
                mask &= 7;
            }
            for (unsigned ch = 0; ch < n; ch++) {
                float a, b, e;
                if (!src_ch(c, &s0, fmt, ch, &a) ||
                    !src_ch(c, &s1, fmt, ch, &b) ||
                    !src_ch(c, &s2, fmt, ch, &e)) {
                    return false;
                }
                res[ch] = a * b + e;
            }
        }
        if (!put_chans(c, &d, fmt, mask, res)) {
            return false;
        }
    }
    return true;
}

/* VCOMP (op1 6): a scalar function of one source channel; log/exp are
   base 2 (sgx543.md 1.13). */
static bool exec_vcomp(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s = usse_ref(c, USSE_SRC1, it);
        unsigned mask = insn->opnd[USSE_DST].mask & pmask;
        float v, r, res[4];

        if (!usse_vget(c, &s, insn->sfmt, insn->opnd[USSE_SRC1].comp, &v)) {
            return false;
        }
        v = usse_mod(v, s.mods);
        switch (insn->op) {
        case UOP_VRCP:
            r = 1.0f / v;
            break;
        case UOP_VRSQ:
            r = 1.0f / sqrtf(v);
            break;
        case UOP_VLOG:
            r = log2f(v);
            break;
        default:
            r = exp2f(v);
            break;
        }
        res[0] = res[1] = res[2] = res[3] = r;
        if (!put_chans(c, &d, insn->fmt, mask, res)) {
            return false;
        }
    }
    return true;
}

/* Raw element of a move source (swizzle constants in the format). */
static bool mov_get(UsseCtx *c, const UsseRef *r, unsigned fmt, unsigned ch,
                    uint32_t *raw)
{
    unsigned code = r->swz[ch];

    if (code >= 4 || (usse_fmt_is_float(fmt) && fmt != USSE_FMT_F32 &&
                      (r->bank == USSE_BANK_FPI ||
                       (r->bank == USSE_BANK_CONST &&
                        fmt == USSE_FMT_C10)))) {
        float v;
        if (!usse_vget(c, r, fmt, code, &v)) {
            return false;
        }
        *raw = usse_fmt_raw(fmt, v, false);
        return true;
    }
    return usse_eget(c, r, fmt, code, raw);
}

static bool mov_put(UsseCtx *c, const UsseRef *d, unsigned fmt, unsigned ch,
                    uint32_t raw)
{
    if (d->bank == USSE_BANK_FPI && usse_fmt_is_float(fmt) &&
        fmt != USSE_FMT_F32) {
        return usse_vput(c, d, fmt, ch, usse_fmt_value(fmt, raw, false));
    }
    return usse_eput(c, d, fmt, ch, raw);
}

static bool mov_test(unsigned fmt, uint32_t raw, unsigned test)
{
    double v = usse_fmt_is_float(fmt) ? usse_fmt_value(fmt, raw, false) :
               fmt == USSE_FMT_I8 ? (int8_t)raw :
               fmt == USSE_FMT_I16 ? (int16_t)raw : (int32_t)raw;

    switch (test) {
    case 0:
        return v == 0;
    case 1:
        return v != 0;
    case 2:
        return v < 0;
    default:
        return v <= 0;
    }
}

/*
 * VMOV (op1 7): bit-exact moves; VMOVC/VMOVCU8 pick src1 where src0
 * passes the test, else src2.  VMOVC tests src0 in the move's format;
 * VMOVCU8 tests byte c of src0 (a U8 test mask) for channel c and moves
 * the data in the move's format (hardware: vtstmsk_gt_mask0 and _dsy:
 * `vmovcu8.f32 pa8.x` moves whole F32 words, chosen by byte 0).
 */
static bool exec_vmov(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    bool cond = insn->op != UOP_VMOV;
    unsigned fmt = insn->fmt;
    unsigned tfmt = insn->op == UOP_VMOVCU8 ? USSE_FMT_U8 : fmt;

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s1 = usse_ref(c, USSE_SRC1, it);
        unsigned mask = insn->opnd[USSE_DST].mask & pmask;
        uint32_t res[4] = { 0 };

        for (unsigned ch = 0; ch < 4; ch++) {
            if (!(mask & (1u << ch))) {
                continue;
            }
            if (cond) {
                UsseRef s0 = usse_ref(c, USSE_SRC0, it);
                UsseRef s2 = usse_ref(c, USSE_SRC2, it);
                uint32_t t;
                /* csel: test channel x for all (UNVERIFIED) */
                unsigned tch = insn->f[UF_CSEL] ? 0 : ch;
                if (!usse_eget(c, &s0, tfmt, tch, &t)) {
                    return false;
                }
                if (!mov_test(tfmt, t, insn->f[UF_TEST])) {
                    if (!usse_eget(c, &s2, fmt, ch, &res[ch])) {
                        return false;
                    }
                    continue;
                }
            }
            if (!mov_get(c, &s1, fmt, ch, &res[ch])) {
                return false;
            }
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            if ((mask & (1u << ch)) && !mov_put(c, &d, fmt, ch, res[ch])) {
                return false;
            }
        }
    }
    return true;
}

/*
 * VPCK (op1 8): convert up to 4 elements.  The source vector is src1's
 * elements; for 32-bit sources elements 0-1 are src1's two registers
 * and 2-3 src2's.  Destination channel c takes source element sel[c]
 * and goes to element c of the destination format; scale normalises
 * integer formats to [0, 1] / [-1, 1].
 */
/*
 * The channels a VPCK converts: those of its mask, but from a packed
 * (not F32) source only the first two of them: hardware
 * (vtstmsk_gt_mask0_reg) `vpck.f16.u8 pa8.xyzw` writes pa8 and leaves
 * pa9 as it was.  UNVERIFIED beyond U8 sources and the mask xyzw; F32
 * sources convert all four (p4gfrag1's `vpck.f16.f32 sa0.xyzw`).
 */
unsigned usse_vpck_mask(unsigned sfmt, unsigned mask)
{
    if (sfmt != USSE_FMT_F32) {
        unsigned first = mask & -mask;
        unsigned rest = mask & ~first;
        return first | (rest & -rest);
    }
    return mask;
}

static bool exec_vpck(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    unsigned sf = insn->sfmt, df = insn->fmt;
    bool scale = insn->f[UF_SCALE];

    for (unsigned it = 0; it < insn->repeat; it++) {
        UsseRef d = usse_ref(c, USSE_DST, it);
        UsseRef s1 = usse_ref(c, USSE_SRC1, it);
        UsseRef s2 = usse_ref(c, USSE_SRC2, it);
        unsigned mask = usse_vpck_mask(sf, insn->opnd[USSE_DST].mask) &
                        pmask;
        double val[4] = { 0 };

        for (unsigned ch = 0; ch < 4; ch++) {
            unsigned e = insn->opnd[USSE_SRC1].swz[ch] & 3;
            uint32_t raw;
            bool ok;

            if (!(mask & (1u << ch))) {
                continue;
            }
            if (s1.bank == USSE_BANK_FPI || s1.bank == USSE_BANK_CONST) {
                float f;
                ok = usse_vget(c, &s1, USSE_FMT_F32, e, &f);
                val[ch] = f;
                if (ok && s1.bank == USSE_BANK_FPI && !usse_fmt_is_float(sf)) {
                    /* an integer held in an i-register: its raw word */
                    val[ch] = usse_fmt_value(sf, usse_u(f), scale);
                }
            } else {
                if (sf == USSE_FMT_F32 && e >= 2) {
                    ok = usse_rdw(c, &s2, e - 2, &raw);
                } else {
                    ok = usse_eget(c, &s1, sf, e, &raw);
                }
                val[ch] = usse_fmt_value(sf, raw, scale);
            }
            if (!ok) {
                return false;
            }
        }
        for (unsigned ch = 0; ch < 4; ch++) {
            bool ok;
            if (!(mask & (1u << ch))) {
                continue;
            }
            if (d.bank == USSE_BANK_FPI && usse_fmt_is_float(df)) {
                ok = usse_wrw(c, &d, ch, usse_u((float)val[ch]));
            } else {
                ok = usse_eput(c, &d, df, ch,
                               usse_fmt_raw(df, val[ch], scale));
            }
            if (!ok) {
                return false;
            }
        }
    }
    return true;
}

/*
 * VDUAL (op1 4/5): two operations issued together; both read their
 * sources before either writes (Vita3K stores after both).  Vector
 * operations work per written channel (VDP/VSSQ over 3 or 4 channels);
 * scalar ones on channel x, the result copied to every written channel.
 * FEXP/FLOG are base 2 (sgx543.md 1.13; Vita3K uses e).
 */
static bool exec_vdual(UsseCtx *c, unsigned pmask)
{
    const UsseInsn *insn = c->insn;
    unsigned fmt = insn->f[UF_DV_F16] ? USSE_FMT_F16 : USSE_FMT_F32;
    unsigned n = insn->f[UF_DV_VEC4] ? 4 : 3;
    float res[2][4];

    for (int k = 0; k < 2; k++) {
        const UsseDualOp *d = &insn->dual[k];
        UsseRef s[3];
        float a[4] = { 0 }, b[4] = { 0 }, e[4] = { 0 }, r = 0.0f;

        for (unsigned j = 0; j < d->nsrc; j++) {
            s[j] = usse_ref_opnd(c, &d->src[j]);
        }
        for (unsigned ch = 0; ch < (d->vec ? 4 : 1); ch++) {
            bool need = d->op == UDV_VDP || d->op == UDV_VSSQ ? ch < n :
                        !d->vec || (d->mask & (1u << ch));
            if (!need) {
                continue;
            }
            if (!src_ch(c, &s[0], fmt, ch, &a[ch]) ||
                (d->nsrc > 1 && !src_ch(c, &s[1], fmt, ch, &b[ch])) ||
                (d->nsrc > 2 && !src_ch(c, &s[2], fmt, ch, &e[ch]))) {
                return false;
            }
        }
        switch (d->op) {
        case UDV_VMAD:
        case UDV_VMUL:
        case UDV_VADD:
        case UDV_VMOV:
            for (unsigned ch = 0; ch < 4; ch++) {
                res[k][ch] = d->op == UDV_VMAD ? a[ch] * b[ch] + e[ch] :
                             d->op == UDV_VMUL ? a[ch] * b[ch] :
                             d->op == UDV_VADD ? a[ch] + b[ch] : a[ch];
            }
            continue;
        case UDV_VDP:
        case UDV_VSSQ:
            for (unsigned ch = 0; ch < n; ch++) {
                r += a[ch] * (d->op == UDV_VDP ? b[ch] : a[ch]);
            }
            break;
        case UDV_FRSQ:
            r = 1.0f / sqrtf(a[0]);
            break;
        case UDV_FRCP:
            r = 1.0f / a[0];
            break;
        case UDV_FMAD:
            r = a[0] * b[0] + e[0];
            break;
        case UDV_FADD:
            r = a[0] + b[0];
            break;
        case UDV_FMUL:
            r = a[0] * b[0];
            break;
        case UDV_FSUBFLR:
            r = a[0] - floorf(b[0]);
            break;
        case UDV_FEXP:
            r = exp2f(a[0]);
            break;
        default:    /* UDV_FLOG */
            r = log2f(a[0]);
            break;
        }
        res[k][0] = res[k][1] = res[k][2] = res[k][3] = r;
    }
    for (int k = 0; k < 2; k++) {
        const UsseDualOp *d = &insn->dual[k];
        UsseRef dr = usse_ref_opnd(c, &d->dst);
        if (!put_chans(c, &dr, fmt, d->mask & pmask, res[k])) {
            return false;
        }
    }
    return true;
}

bool usse_exec_vector(UsseCtx *c)
{
    unsigned pmask = usse_pred_mask(c->in, c->insn->pred);

    switch (c->insn->group) {
    case 0:
        return exec_vmad2(c, pmask);
    case 1: case 2:
        return exec_vnmad(c, pmask);
    case 3:
        return exec_svec(c, pmask);
    case 6:
        return exec_vcomp(c, pmask);
    case 7:
        return exec_vmov(c, pmask);
    case 8:
        return exec_vpck(c, pmask);
    default:
        return exec_vdual(c, pmask);
    }
}
