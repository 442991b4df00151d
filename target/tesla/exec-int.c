/*
 * Tesla warp interpreter: integer arithmetic (cuda/int.rst, with the flag
 * pseudocode of the seed ISA notes) and data movement (cuda/data.rst).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"
#include "target/tesla/fpu.h"

#define LANES for (unsigned l = 0; l < TESLA_WARP_SIZE; l++)

/* Fetch helper: bail out of the op on a trap. */
#define FETCH(var, i, buf) \
    const uint32_t *var = tesla_fetch(w, &insn->src[i], m, buf); \
    if (!var) { \
        return false; \
    }

/* Finish an op: post-increment, write flags and the result. */
static void carry_in(const TeslaWarp *w, unsigned c, uint32_t *cin)
{
    LANES {
        cin[l] = (w->c[c & 3][l] >> 2) & 1;
    }
}

/* add/sub/subr/addc with flags: the lane function of fpu.h. */
static void addop_lanes(const uint32_t *a, const uint32_t *b,
                        const uint32_t *cin, unsigned addop, bool sat,
                        bool b32, uint32_t *res, uint8_t *fl)
{
    LANES {
        unsigned cc;

        res[l] = tesla_iadd(a[l], b[l], addop, cin ? cin[l] : 0, sat, b32,
                            &cc);
        fl[l] = cc;
    }
}

static bool exec_iadd(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE], cin[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool b32 = insn->mods & TMOD_B32;
    bool sat = insn->mods & TMOD_SAT;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);

    /* The common cases: add/sub without sat or flags. */
    if (!sat && insn->cdst < 0 && insn->addop != TADDOP_ADDC) {
        uint32_t vmask = b32 ? 0xffffffffu : 0xffffu;

        switch (insn->addop) {
        case TADDOP_ADD:
            LANES {
                res[l] = (a[l] + b[l]) & vmask;
            }
            break;
        case TADDOP_SUB:
            LANES {
                res[l] = (a[l] - b[l]) & vmask;
            }
            break;
        default:
            LANES {
                res[l] = (b[l] - a[l]) & vmask;
            }
            break;
        }
        return tesla_finish(w, insn, res, NULL, m);
    }
    if (insn->addop == TADDOP_ADDC) {
        carry_in(w, insn->csrc, cin);
    }
    addop_lanes(a, b, insn->addop == TADDOP_ADDC ? cin : NULL, insn->addop,
                sat, b32, res, fl);
    return tesla_finish(w, insn, res, fl, m);
}

/* Signedness of a 16-bit multiply source (see exec-notes). */
static bool mul16_signed(const TeslaInsn *insn, unsigned i)
{
    unsigned t = insn->src[i].mtype;

    if (t == TTYPE_S16) {
        return true;
    }
    if (t == TTYPE_U16 || t == TTYPE_U8) {
        return false;
    }
    if (!(insn->mods & TMOD_SIGNED)) {
        return false;
    }
    return i != 0 || !(insn->mods & TMOD_UNSIGNED_SRC1);
}

static bool mul_is24(const TeslaInsn *insn)
{
    switch (insn->stype) {
    case TTYPE_U24:
    case TTYPE_S24:
        return true;
    case TTYPE_U16:
    case TTYPE_S16:
        return false;
    default:
        return insn->op == TOP_IMUL24;
    }
}

/* The multiply part of mul and mad, into mres. */
static void mul_core(const TeslaInsn *insn, const uint32_t *a,
                     const uint32_t *b, uint32_t *mres)
{
    if (mul_is24(insn)) {
        bool sgn = (insn->mods & TMOD_SIGNED) || insn->stype == TTYPE_S24;
        bool high = insn->mods & TMOD_HIGH;

        if (!sgn && !high) {
            LANES {
                mres[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff);
            }
        } else {
            LANES {
                mres[l] = tesla_imul24(a[l], b[l], sgn, high);
            }
        }
    } else {
        bool s1 = mul16_signed(insn, 0), s2 = mul16_signed(insn, 1);

        LANES {
            mres[l] = tesla_imul16(a[l], b[l], s1, s2);
        }
    }
}

static bool exec_imul(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);

    mul_core(insn, a, b, res);
    if (insn->cdst >= 0) {
        LANES {
            fl[l] = tesla_flags32(res[l]);
        }
        return tesla_finish(w, insn, res, fl, m);
    }
    return tesla_finish(w, insn, res, NULL, m);
}

static bool exec_imad(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE], b2[TESLA_WARP_SIZE];
    uint32_t mres[TESLA_WARP_SIZE], res[TESLA_WARP_SIZE];
    uint32_t cin[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool sat = insn->mods & TMOD_SAT;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);
    FETCH(c, 2, b2);

    mul_core(insn, a, b, mres);
    if (!sat && insn->cdst < 0 && insn->addop == TADDOP_ADD) {
        LANES {
            res[l] = mres[l] + c[l];
        }
        return tesla_finish(w, insn, res, NULL, m);
    }
    if (insn->addop == TADDOP_ADDC) {
        carry_in(w, insn->csrc, cin);
    }
    /* The add of mad is always 32-bit. */
    addop_lanes(mres, c, insn->addop == TADDOP_ADDC ? cin : NULL,
                insn->addop, sat, true, res, fl);
    return tesla_finish(w, insn, res, fl, m);
}

static bool exec_sad(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE], b2[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool b32 = insn->mods & TMOD_B32;
    bool sgn = insn->mods & TMOD_SIGNED;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);
    FETCH(c, 2, b2);

    LANES {
        unsigned cc;

        res[l] = tesla_sad(a[l], b[l], c[l], sgn, b32, &cc);
        fl[l] = cc;
    }
    return tesla_finish(w, insn, res, fl, m);
}

static bool exec_minmax_set(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool b32 = insn->mods & TMOD_B32;
    bool sgn = insn->mods & TMOD_SIGNED;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);

    LANES {
        unsigned cc;

        if (insn->op == TOP_ISET) {
            res[l] = tesla_iset(a[l], b[l], insn->cmp, sgn, b32, &cc);
        } else {
            res[l] = tesla_iminmax(a[l], b[l], insn->op == TOP_IMIN, sgn, b32,
                                   &cc);
        }
        fl[l] = cc;
    }
    return tesla_finish(w, insn, res, fl, m);
}

static bool exec_logop(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool b32 = insn->mods & TMOD_B32;
    uint32_t vmask = b32 ? 0xffffffffu : 0xffffu;
    uint32_t n1 = insn->src[0].not_ ? ~0u : 0;
    uint32_t n2 = insn->src[1].not_ ? ~0u : 0;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);

    switch (insn->logop) {
    case TLOGOP_AND:
        LANES {
            res[l] = ((a[l] ^ n1) & (b[l] ^ n2)) & vmask;
        }
        break;
    case TLOGOP_OR:
        LANES {
            res[l] = ((a[l] ^ n1) | (b[l] ^ n2)) & vmask;
        }
        break;
    case TLOGOP_XOR:
        LANES {
            res[l] = ((a[l] ^ n1) ^ (b[l] ^ n2)) & vmask;
        }
        break;
    default:
        LANES {
            res[l] = (b[l] ^ n2) & vmask;
        }
        break;
    }
    if (insn->cdst >= 0) {
        LANES {
            fl[l] = b32 ? tesla_flags32(res[l]) : tesla_flags16(res[l]);
        }
        return tesla_finish(w, insn, res, fl, m);
    }
    return tesla_finish(w, insn, res, NULL, m);
}

static bool exec_shift(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    bool b32 = insn->mods & TMOD_B32;
    bool sgn = insn->mods & TMOD_SIGNED;
    FETCH(a, 0, b0);
    FETCH(b, 1, b1);

    if (insn->op == TOP_SHL) {
        LANES {
            unsigned cc;

            res[l] = tesla_shl(a[l], b[l], b32, &cc);
            fl[l] = cc;
        }
    } else {
        LANES {
            unsigned cc;

            res[l] = tesla_shr(a[l], b[l], sgn, b32, &cc);
            fl[l] = cc;
        }
    }
    return tesla_finish(w, insn, res, fl, m);
}

bool tesla_exec_int(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    switch (insn->op) {
    case TOP_IADD:
        return exec_iadd(w, insn, m);
    case TOP_IMUL16:
    case TOP_IMUL24:
        return exec_imul(w, insn, m);
    case TOP_IMAD:
        return exec_imad(w, insn, m);
    case TOP_SAD:
        return exec_sad(w, insn, m);
    case TOP_IMIN:
    case TOP_IMAX:
    case TOP_ISET:
        return exec_minmax_set(w, insn, m);
    case TOP_LOGOP:
        return exec_logop(w, insn, m);
    case TOP_SHL:
    case TOP_SHR:
        return exec_shift(w, insn, m);
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "not an integer op: %u", insn->op);
    }
}

/* --- data movement ---------------------------------------------------- */

static uint32_t quad_lanes(unsigned lanemask)
{
    return (lanemask & 0xf) * 0x11111111u;
}

static bool exec_vote(TeslaWarp *w, const TeslaInsn *insn)
{
    /* The predicate field is the input; the whole path takes part. */
    uint32_t m = w->mask;
    uint32_t p = tesla_pred_mask(w, insn->pred, insn->pred_c) & m;
    bool r = (insn->mods & TMOD_VOTE_ALL) ? p == m : p != 0;
    uint8_t fl[TESLA_WARP_SIZE];

    memset(fl, r ? TFL_TRUE : TFL_FALSE, sizeof(fl));
    if (insn->cdst >= 0) {
        warp_blend8(w->c[insn->cdst & 3], fl, m);
    }
    return true;
}

bool tesla_exec_data(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];

    switch (insn->op) {
    case TOP_MOV: {
        FETCH(a, 0, b0);

        if ((insn->lanemask & 0xf) != 0xf) {
            m &= quad_lanes(insn->lanemask);
        }
        return tesla_finish(w, insn, a, NULL, m);
    }
    case TOP_MOV_FROM_C:
        LANES {
            res[l] = w->c[insn->csrc & 3][l];
        }
        return tesla_store_dst(w, insn, res, m);
    case TOP_MOV_TO_C: {
        uint8_t fl[TESLA_WARP_SIZE];
        FETCH(a, 0, b0);

        LANES {
            fl[l] = a[l] & 15;
        }
        tesla_postinc(w, insn, m);
        if (insn->cdst >= 0) {
            warp_blend8(w->c[insn->cdst & 3], fl, m);
        }
        return true;
    }
    case TOP_MOV_FROM_A:
    case TOP_MOV_FROM_SR: {
        FETCH(a, 0, b0);

        return tesla_store_dst(w, insn, a, m);
    }
    case TOP_SHL_A: {
        FETCH(a, 0, b0);
        FETCH(b, 1, b1);

        LANES {
            res[l] = (a[l] << (b[l] & 31)) & 0xffff;
        }
        return tesla_finish(w, insn, res, NULL, m);
    }
    case TOP_ADD_A: {
        FETCH(a, 0, b0);
        uint32_t off = insn->nsrc > 1 ? insn->src[1].imm : 0;

        LANES {
            res[l] = (a[l] + off) & 0xffff;
        }
        return tesla_store_dst(w, insn, res, m);
    }
    case TOP_VOTE:
        return exec_vote(w, insn);
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "not a data op: %u", insn->op);
    }
}
