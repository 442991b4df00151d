/*
 * Tesla warp interpreter: f32 arithmetic, transcendentals, cvt and G200
 * f64 (cuda/float.rst, trans.rst, misc.rst, double.rst).  The lane
 * semantics are fpu.h's; this file applies operand modifiers, runs the
 * lanes and writes results and flags.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"
#include "target/tesla/fpu.h"

#define LANES for (unsigned l = 0; l < TESLA_WARP_SIZE; l++)

/* Fetch src[i] with its f32 abs/neg applied into buf. */
static const uint32_t *fetch_f32(TeslaWarp *w, const TeslaInsn *insn,
                                 unsigned i, uint32_t m, uint32_t *buf,
                                 bool neg_extra)
{
    const TeslaOperand *o = &insn->src[i];
    const uint32_t *v = tesla_fetch(w, o, m, buf);
    bool neg = o->neg ^ neg_extra;

    if (!v) {
        return NULL;
    }
    if (!o->abs && !neg) {
        return v;
    }
    LANES {
        buf[l] = tesla_f32_absneg(v[l], o->abs, neg);
    }
    return buf;
}

#define FETCHF(var, i, buf, negx) \
    const uint32_t *var = fetch_f32(w, insn, i, m, buf, negx); \
    if (!var) { \
        return false; \
    }

bool tesla_finish_f32(TeslaWarp *w, const TeslaInsn *insn, uint32_t *res,
                      uint32_t m, bool sat_ok)
{
    uint8_t fl[TESLA_WARP_SIZE];

    if (sat_ok && (insn->mods & TMOD_SAT)) {
        LANES {
            res[l] = tesla_f32_sat(res[l], 0);
        }
    }
    if (insn->cdst < 0) {
        return tesla_finish(w, insn, res, NULL, m);
    }
    LANES {
        fl[l] = tesla_f32_flags(res[l]);
    }
    return tesla_finish(w, insn, res, fl, m);
}

/* Results whose flags follow the 32-bit integer rule (set, slct, ...). */
static bool finish_bits(TeslaWarp *w, const TeslaInsn *insn,
                        const uint32_t *res, uint32_t m, bool slct)
{
    uint8_t fl[TESLA_WARP_SIZE];

    if (insn->cdst < 0) {
        return tesla_finish(w, insn, res, NULL, m);
    }
    LANES {
        fl[l] = slct ? tesla_slct_flags(res[l]) : tesla_flags32(res[l]);
    }
    return tesla_finish(w, insn, res, fl, m);
}

static bool exec_f32(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE], b2[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    unsigned rnd = insn->rnd <= TRND_RZ ? insn->rnd : TRND_RN;

    switch (insn->op) {
    case TOP_FADD: {
        FETCHF(a, 0, b0, false);
        FETCHF(b, 1, b1, false);

        if (rnd == TRND_RN) {
            LANES {
                res[l] = tesla_f32_add(a[l], b[l], TRND_RN);
            }
        } else {
            LANES {
                res[l] = tesla_f32_add(a[l], b[l], rnd);
            }
        }
        return tesla_finish_f32(w, insn, res, m, true);
    }
    case TOP_FMUL: {
        FETCHF(a, 0, b0, false);
        FETCHF(b, 1, b1, false);

        if (rnd == TRND_RN) {
            LANES {
                res[l] = tesla_f32_mul(a[l], b[l], TRND_RN, 0);
            }
        } else {
            LANES {
                res[l] = tesla_f32_mul(a[l], b[l], rnd, 0);
            }
        }
        return tesla_finish_f32(w, insn, res, m, true);
    }
    case TOP_FMAD: {
        FETCHF(a, 0, b0, insn->mods & TMOD_NEG_PROD);
        FETCHF(b, 1, b1, false);
        FETCHF(c, 2, b2, insn->mods & TMOD_NEG_ADD);

        LANES {
            res[l] = tesla_f32_mad(a[l], b[l], c[l], 0);
        }
        return tesla_finish_f32(w, insn, res, m, true);
    }
    case TOP_FMIN:
    case TOP_FMAX: {
        bool min = insn->op == TOP_FMIN;
        FETCHF(a, 0, b0, false);
        FETCHF(b, 1, b1, false);

        LANES {
            res[l] = tesla_f32_minmax(a[l], b[l], min);
        }
        return tesla_finish_f32(w, insn, res, m, false);
    }
    case TOP_FSET: {
        FETCHF(a, 0, b0, false);
        FETCHF(b, 1, b1, false);

        LANES {
            res[l] = tesla_f32_set(a[l], b[l], insn->cmp);
        }
        return finish_bits(w, insn, res, m, false);
    }
    case TOP_FSLCT: {
        uint32_t cneg = (insn->mods & TMOD_SLCT_NEG) ? 0x80000000u : 0;
        const uint32_t *a = tesla_fetch(w, &insn->src[0], m, b0);
        const uint32_t *b = a ? tesla_fetch(w, &insn->src[1], m, b1) : NULL;
        FETCHF(c, 2, b2, false);

        if (!b) {
            return false;
        }
        LANES {
            res[l] = tesla_f32_slct(a[l], b[l], c[l] ^ cneg);
        }
        return finish_bits(w, insn, res, m, true);
    }
    default:
        break;
    }
    return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE, "bad f32 op %u",
                           insn->op);
}

static bool exec_sfu(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    const uint32_t *a;

    switch (insn->op) {
    case TOP_SIN:
    case TOP_COS:
    case TOP_EX2:
        /* Fixed-point input: the hardware ignores abs/neg. */
        a = tesla_fetch(w, &insn->src[0], m, b0);
        break;
    default:
        a = fetch_f32(w, insn, 0, m, b0, false);
        break;
    }
    if (!a) {
        return false;
    }
    switch (insn->op) {
    case TOP_RCP:
        LANES {
            res[l] = tesla_sfu_rcp(a[l]);
        }
        break;
    case TOP_RSQRT:
        LANES {
            res[l] = tesla_sfu_rsqrt(a[l]);
        }
        break;
    case TOP_LG2:
        LANES {
            res[l] = tesla_sfu_lg2(a[l]);
        }
        break;
    case TOP_SIN:
        LANES {
            res[l] = tesla_sfu_sin(a[l]);
        }
        break;
    case TOP_COS:
        LANES {
            res[l] = tesla_sfu_cos(a[l]);
        }
        break;
    case TOP_EX2:
        LANES {
            res[l] = tesla_sfu_ex2(a[l]);
        }
        break;
    case TOP_PRESIN:
        LANES {
            res[l] = tesla_sfu_presin(a[l]);
        }
        return finish_bits(w, insn, res, m, false);
    default:
        LANES {
            res[l] = tesla_sfu_preex2(a[l]);
        }
        return finish_bits(w, insn, res, m, false);
    }
    return tesla_finish_f32(w, insn, res, m, insn->op == TOP_EX2);
}

/* --- cvt ------------------------------------------------------------------ */

static bool type_is64(unsigned t)
{
    return t == TTYPE_U64 || t == TTYPE_S64 || t == TTYPE_F64 ||
           t == TTYPE_B64;
}

static bool exec_cvt(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    const TeslaOperand *src = &insn->src[0];
    const TeslaOperand *dst = &insn->dst;
    uint32_t b0[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    unsigned flags = 0;
    const uint32_t *lo = NULL, *hi = NULL;
    bool wide_dst = dst->kind == TOPND_DREG || type_is64(insn->dtype);

    if (src->abs) {
        flags |= TESLA_CVT_ABS;
    }
    if (src->neg) {
        flags |= TESLA_CVT_NEG;
    }
    if (insn->mods & TMOD_SAT) {
        flags |= TESLA_CVT_SAT;
    }
    if ((insn->dtype == TTYPE_U8 || insn->dtype == TTYPE_S8) &&
        dst->kind != TOPND_HREG) {
        flags |= TESLA_CVT_DST32;
    }
    if (src->kind == TOPND_DREG) {
        lo = warp_rrow(w, src->reg);
        hi = warp_rrow(w, src->reg + 1);
    } else {
        lo = tesla_fetch(w, src, m, b0);
        if (!lo) {
            return false;
        }
    }
    LANES {
        uint64_t s = lo[l], r;
        unsigned cc;

        if (!(m & (1u << l))) {
            res[l] = 0;
            fl[l] = 0;
            continue;
        }
        if (hi) {
            s |= (uint64_t)hi[l] << 32;
        }
        r = tesla_cvt(insn->dtype, insn->stype, insn->rnd, flags, s, &cc);
        res[l] = (uint32_t)r;
        fl[l] = cc;
        if (wide_dst && dst->kind == TOPND_DREG) {
            warp_wrow(w, dst->reg + 1)[l] = (uint32_t)(r >> 32);
        }
    }
    tesla_postinc(w, insn, m);
    tesla_store_flags(w, insn, fl, m);
    if (dst->kind == TOPND_DREG) {
        warp_blend(warp_wrow(w, dst->reg), res, m);
        return true;
    }
    return tesla_store_dst(w, insn, res, m);
}

/* --- f64 (G200) ---------------------------------------------------------- */

static inline uint64_t rd64(const TeslaWarp *w, const TeslaOperand *o,
                            unsigned l, bool neg_extra)
{
    uint64_t v = warp_rrow(w, o->reg)[l] |
                 (uint64_t)warp_rrow(w, o->reg + 1)[l] << 32;

    if (o->abs || o->neg || neg_extra) {
        v = tesla_f64_srcmod(v, o->abs, o->neg ^ neg_extra);
    }
    return v;
}

static bool exec_f64(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t lo[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    unsigned rnd = insn->rnd <= TRND_RZ ? insn->rnd : TRND_RN;
    bool npr = insn->mods & TMOD_NEG_PROD, nad = insn->mods & TMOD_NEG_ADD;
    const TeslaOperand *s = insn->src;

    if (insn->op == TOP_DSET) {
        LANES {
            lo[l] = 0;
            if (m & (1u << l)) {
                lo[l] = tesla_f64_set(rd64(w, &s[0], l, false),
                                      rd64(w, &s[1], l, false), insn->cmp);
            }
            fl[l] = tesla_flags32(lo[l]);
        }
        tesla_store_flags(w, insn, fl, m);
        return tesla_store_dst(w, insn, lo, m);
    }
    LANES {
        uint64_t r = 0;

        if (!(m & (1u << l))) {
            continue;
        }
        switch (insn->op) {
        case TOP_DFMA:
            r = tesla_f64_fma(rd64(w, &s[0], l, npr), rd64(w, &s[1], l, false),
                              rd64(w, &s[2], l, nad), rnd);
            break;
        case TOP_DADD:
            r = tesla_f64_add(rd64(w, &s[0], l, false),
                              rd64(w, &s[1], l, false), rnd);
            break;
        case TOP_DMUL:
            r = tesla_f64_mul(rd64(w, &s[0], l, false),
                              rd64(w, &s[1], l, false), rnd);
            break;
        case TOP_DMIN:
            r = tesla_f64_min(rd64(w, &s[0], l, false),
                              rd64(w, &s[1], l, false));
            break;
        default:
            r = tesla_f64_max(rd64(w, &s[0], l, false),
                              rd64(w, &s[1], l, false));
            break;
        }
        /* Sources are read per lane before this lane's write. */
        warp_wrow(w, insn->dst.reg)[l] = (uint32_t)r;
        warp_wrow(w, insn->dst.reg + 1)[l] = (uint32_t)(r >> 32);
        fl[l] = tesla_f64_flags(r);
    }
    tesla_store_flags(w, insn, fl, m);
    return true;
}

bool tesla_exec_float(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    switch (insn->op) {
    case TOP_FADD:
    case TOP_FMUL:
    case TOP_FMAD:
    case TOP_FMIN:
    case TOP_FMAX:
    case TOP_FSET:
    case TOP_FSLCT:
        return exec_f32(w, insn, m);
    case TOP_RCP:
    case TOP_RSQRT:
    case TOP_LG2:
    case TOP_SIN:
    case TOP_COS:
    case TOP_EX2:
    case TOP_PRESIN:
    case TOP_PREEX2:
        return exec_sfu(w, insn, m);
    case TOP_CVT:
        return exec_cvt(w, insn, m);
    case TOP_DFMA:
    case TOP_DADD:
    case TOP_DMUL:
    case TOP_DMIN:
    case TOP_DMAX:
    case TOP_DSET:
        return exec_f64(w, insn, m);
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "not a float op: %u", insn->op);
    }
}
