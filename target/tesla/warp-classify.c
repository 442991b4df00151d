/*
 * Tesla warp interpreter: which instructions the fast loop runs.
 * tesla_fast_classify makes an instruction's TeslaFastInsn once per code
 * address, next to its decoded TeslaInsn: the kind (TFK_*), register rows
 * clamped to the GPR count, the sources' modifiers as masks, immediates as
 * a lane vector.  TFK_NONE leaves the instruction to the general path.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"

static bool fast_operand(const TeslaInsn *i, const TeslaOperand *o,
                         unsigned gprs, uint8_t *row, bool *is_imm,
                         uint32_t *imm)
{
    if (o->kind == TOPND_REG) {
        *row = o->reg < gprs ? o->reg : WARP_ZERO_ROW;
        *is_imm = false;
        return true;
    }
    if (o->kind == TOPND_IMM) {
        *imm = o->imm;
        *is_imm = true;
        return true;
    }
    return false;
}

static void f32_masks(const TeslaOperand *o, bool negx, uint32_t *and_m,
                      uint32_t *xor_m)
{
    *and_m = o->abs ? 0x7fffffffu : 0xffffffffu;
    *xor_m = (o->neg ^ negx) ? 0x80000000u : 0;
}

/* A b32 memory operand the fast loop can access; sets f->kind's fields. */
static bool fast_mem_operand(TeslaRun *run, const TeslaOperand *o,
                             TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;

    if (o->kind != TOPND_MEM || tesla_type_size(o->mtype) != 4) {
        return false;
    }
    f->off = o->imm;
    f->sidx = o->space_idx & 15;
    switch (o->space) {
    case TSPACE_G:
        f->a = o->reg < gprs ? o->reg : WARP_ZERO_ROW;
        return run->env.g[f->sidx].data != NULL;
    case TSPACE_S:
    case TSPACE_L:
        f->space = o->space;
        f->areg = o->areg & 7;
        return !o->postinc;
    case TSPACE_C:
        return (o->areg & 7) == 0 && run->env.c[f->sidx].data != NULL;
    default:
        return false;
    }
}

/* A b32 a[] or o[] word at a fixed address ($a0: zero); f->off. */
static bool fast_io_operand(const TeslaOperand *o, unsigned space,
                            TeslaFastInsn *f)
{
    if (o->kind != TOPND_MEM || o->space != space ||
        tesla_type_size(o->mtype) != 4 || (o->areg & 7) || o->postinc ||
        (o->imm & 3)) {
        return false;
    }
    f->off = o->imm & 0xffff;
    return true;
}

/*
 * mov b32 of a register or an immediate to an o[] word (a VP's or GP's
 * results); TFK_NONE for other forms.
 */
static unsigned fast_classify_mov_o(TeslaRun *run, const TeslaInsn *i,
                                    TeslaFastInsn *f)
{
    bool imm;
    uint32_t val;

    if (!(i->mods & TMOD_B32) || (i->lanemask & 0xf) != 0xf ||
        i->nsrc != 1 || i->cdst >= 0 ||
        !fast_io_operand(&i->dst, TSPACE_O, f) ||
        !fast_operand(i, &i->src[0], run->env.gprs, &f->b, &imm, &val)) {
        return TFK_NONE;
    }
    f->bimm = imm;
    for (unsigned l = 0; imm && l < TESLA_WARP_SIZE; l++) {
        f->imm[l] = val;
    }
    return TFK_MOV_O;
}

/*
 * interp of a b32 v[] word at a fixed address (exec_interp: the input
 * word, times an optional register source) and rcp of a register
 * (exec_sfu); TFK_NONE for other forms.
 */
static unsigned fast_classify_fp(TeslaRun *run, const TeslaInsn *i,
                                 TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;
    const TeslaOperand *s0 = &i->src[0], *s1 = &i->src[1];

    if (i->dst.kind != TOPND_REG || i->nsrc < 1) {
        return TFK_NONE;
    }
    f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
    f->am = f->bm = f->cm = 0xffffffffu;
    if (i->op == TOP_RCP) {
        if (i->cdst >= 0 || i->nsrc != 1 || s0->kind != TOPND_REG) {
            return TFK_NONE;
        }
        f->a = s0->reg < gprs ? s0->reg : WARP_ZERO_ROW;
        f32_masks(s0, false, &f->am, &f->ax);
        return TFK_RCP;
    }
    if (s0->kind != TOPND_MEM || s0->space != TSPACE_V ||
        tesla_type_size(s0->mtype) != 4 || (s0->areg & 7) || s0->postinc) {
        return TFK_NONE;
    }
    f->off = s0->imm & 0xffff;
    if (i->nsrc < 2 || s1->kind == TOPND_NONE) {
        return TFK_INTERP;
    }
    if (s1->kind != TOPND_REG) {
        return TFK_NONE;
    }
    f->b = s1->reg < gprs ? s1->reg : WARP_ZERO_ROW;
    f32_masks(s1, false, &f->bm, &f->bx);
    f->fmods = f->bm != 0xffffffffu || f->bx;
    return TFK_INTERP_MUL;
}

/* Memory and control kinds; TFK_NONE if not one of them. */
static unsigned fast_classify_other(TeslaRun *run, const TeslaInsn *i,
                                    TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;
    bool imm;
    uint32_t val;

    switch (i->op) {
    case TOP_NOP:
        f->pred = TPRED_ALWAYS;     /* nothing depends on it */
        return TFK_NOP;
    case TOP_BRA:
        /* the fast loop checks the alignment of pc only on entry */
        if (i->nsrc < 1 || i->src[0].kind != TOPND_TARGET ||
            (i->src[0].imm & 3)) {
            return TFK_NONE;
        }
        f->target = i->src[0].imm;
        return TFK_BRA;
    case TOP_JOINAT:
        if (i->nsrc < 1 || i->src[0].kind != TOPND_TARGET) {
            return TFK_NONE;
        }
        f->target = i->src[0].imm;
        f->pred = TPRED_ALWAYS;     /* joinat ignores its predicate */
        return TFK_JOINAT;
    case TOP_MOV:
        return i->dst.kind == TOPND_MEM ? fast_classify_mov_o(run, i, f)
                                        : TFK_NONE;
    case TOP_LD:
        if (i->dst.kind == TOPND_REG && i->nsrc == 1 && i->cdst < 0 &&
            fast_io_operand(&i->src[0], TSPACE_A, f)) {
            f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
            return TFK_LD_A;
        }
        if (i->dst.kind != TOPND_REG || i->nsrc != 1 || i->cdst >= 0 ||
            !fast_mem_operand(run, &i->src[0], f)) {
            return TFK_NONE;
        }
        f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
        return i->src[0].space == TSPACE_G ? TFK_LD_G :
               i->src[0].space == TSPACE_C ? TFK_LD_C : TFK_LD_SL;
    case TOP_ST:
        if (i->nsrc == 1 && i->src[0].kind == TOPND_REG && i->cdst < 0 &&
            fast_io_operand(&i->dst, TSPACE_O, f)) {
            /* Mesa's VP/GP exports: st b32 o[off] $r (little-endian
               bytes, as exec_st stores them) */
            f->b = i->src[0].reg < gprs ? i->src[0].reg : WARP_ZERO_ROW;
            f->space = TSPACE_O;
            return TFK_MOV_O;
        }
        if (i->nsrc != 1 || i->src[0].kind != TOPND_REG || i->cdst >= 0 ||
            i->dst.space == TSPACE_C ||
            !fast_mem_operand(run, &i->dst, f) ||
            !fast_operand(i, &i->src[0], gprs, &f->b, &imm, &val)) {
            return TFK_NONE;
        }
        return i->dst.space == TSPACE_G ? TFK_ST_G : TFK_ST_SL;
    case TOP_INTERP:
    case TOP_RCP:
        return fast_classify_fp(run, i, f);
    default:
        return TFK_NONE;
    }
}

/* Integer ALU kinds (and mov); TFK_NONE for other forms.  mov moves its
   source to b (*bimm, *bval). */
static unsigned fast_kind_int(const TeslaInsn *i, TeslaFastInsn *f,
                              bool aimm, uint32_t aval, bool *bimm,
                              uint32_t *bval)
{
    bool b32 = i->mods & TMOD_B32;

    switch (i->op) {
    case TOP_MOV:
        if (b32 && (i->lanemask & 0xf) == 0xf &&
            i->nsrc == 1) {
            /* the source goes to b */
            f->b = f->a;
            *bimm = aimm;
            *bval = aval;
            return TFK_MOV;
        }
        return TFK_NONE;
    case TOP_IADD:
        if (!b32 || (i->mods & TMOD_SAT) || i->nsrc != 2 ||
            i->addop == TADDOP_ADDC) {
            return TFK_NONE;
        }
        if (i->cdst < 0) {
            return i->addop == TADDOP_ADD ? TFK_ADD :
                   i->addop == TADDOP_SUB ? TFK_SUB : TFK_SUBR;
        }
        if (i->addop != TADDOP_SUBR) {
            f->cdst = i->cdst & 3;
            return i->addop == TADDOP_ADD ? TFK_ADD_CC : TFK_SUB_CC;
        }
        return TFK_NONE;
    case TOP_LOGOP:
        if (!b32 || i->cdst >= 0 || i->nsrc != 2) {
            return TFK_NONE;
        }
        f->am = i->src[0].not_ ? ~0u : 0;   /* xor masks here */
        f->bm = i->src[1].not_ ? ~0u : 0;
        return TFK_AND + (i->logop & 3);
    case TOP_SHL:
    case TOP_SHR:
        if (!b32 || i->cdst >= 0 || i->nsrc != 2 || !*bimm || *bval >= 32) {
            return TFK_NONE;
        }
        f->am = *bval;
        return i->op == TOP_SHL ? TFK_SHL :
               (i->mods & TMOD_SIGNED) ? TFK_SAR : TFK_SHR;
    case TOP_IMUL24:
        if (i->cdst < 0 && i->nsrc == 2 &&
            !(i->mods & (TMOD_HIGH | TMOD_SIGNED)) &&
            i->stype != TTYPE_S24 && i->stype != TTYPE_U16 &&
            i->stype != TTYPE_S16) {
            return TFK_MUL24;
        }
        return TFK_NONE;
    case TOP_IMAD:
        if (i->cdst < 0 && i->nsrc == 3 && i->stype == TTYPE_U24 &&
            !(i->mods & (TMOD_HIGH | TMOD_SIGNED | TMOD_SAT)) &&
            i->addop == TADDOP_ADD) {
            return TFK_MAD24;
        }
        return TFK_NONE;
    default:
        return TFK_NONE;
    }
}

/* fadd, fmul, fmad in round-to-nearest without sat; TFK_NONE else. */
static unsigned fast_kind_float(const TeslaInsn *i, TeslaFastInsn *f)
{
    switch (i->op) {
    case TOP_FADD:
    case TOP_FMUL:
        if (i->cdst < 0 && i->nsrc == 2 && i->rnd == TRND_RN &&
            !(i->mods & TMOD_SAT)) {
            f32_masks(&i->src[0], false, &f->am, &f->ax);
            f32_masks(&i->src[1], false, &f->bm, &f->bx);
            return i->op == TOP_FADD ? TFK_FADD : TFK_FMUL;
        }
        return TFK_NONE;
    case TOP_FMAD:
        if (i->cdst < 0 && i->nsrc == 3 && !(i->mods & TMOD_SAT)) {
            f32_masks(&i->src[0], i->mods & TMOD_NEG_PROD, &f->am, &f->ax);
            f32_masks(&i->src[1], false, &f->bm, &f->bx);
            f32_masks(&i->src[2], i->mods & TMOD_NEG_ADD, &f->cm, &f->cx);
            return TFK_FMAD;
        }
        return TFK_NONE;
    default:
        return TFK_NONE;
    }
}

/*
 * A b32 c[] word at a fixed address of a flat c[] space as an ALU's b
 * source (Mesa folds uniforms into mul/add so): read at run time, the
 * same for every lane.
 */
static bool fast_const_operand(TeslaRun *run, const TeslaOperand *o,
                               TeslaFastInsn *f)
{
    if (o->kind != TOPND_MEM || o->space != TSPACE_C ||
        tesla_type_size(o->mtype) != 4 || (o->areg & 7) || o->postinc ||
        !run->env.c[o->space_idx & 15].data) {
        return false;
    }
    f->bconst = 1;
    f->sidx = o->space_idx & 15;
    f->off = o->imm & 0xfffcu;
    return true;
}

/* ALU ops on registers and one immediate (b) or c[] word (b); f stays
   TFK_NONE else. */
static void fast_classify_alu(TeslaRun *run, const TeslaInsn *i,
                              TeslaFastInsn *f)
{
    unsigned gprs = run->env.gprs;
    bool aimm = false, bimm = false, cimm = false;
    uint32_t aval = 0, bval = 0, cval = 0;
    unsigned kind;
    bool is_f32;

    if (i->dst.kind != TOPND_REG || i->nsrc < 1 || i->nsrc > 3) {
        return;
    }
    if (!fast_operand(i, &i->src[0], gprs, &f->a, &aimm, &aval) ||
        (i->nsrc > 1 &&
         !fast_operand(i, &i->src[1], gprs, &f->b, &bimm, &bval) &&
         !fast_const_operand(run, &i->src[1], f)) ||
        (i->nsrc > 2 &&
         !fast_operand(i, &i->src[2], gprs, &f->c, &cimm, &cval)) ||
        cimm || (aimm && i->nsrc > 1)) {
        return;
    }
    f->d = i->dst.reg < gprs ? i->dst.reg : WARP_SINK_ROW;
    f->am = f->bm = f->cm = 0xffffffffu;
    kind = fast_kind_int(i, f, aimm, aval, &bimm, &bval);
    if (kind == TFK_NONE) {
        kind = fast_kind_float(i, f);
    }
    if (kind == TFK_NONE) {
        return;
    }
    is_f32 = kind == TFK_FADD || kind == TFK_FMUL || kind == TFK_FMAD;
    if (bimm && is_f32) {
        /* Apply the immediate's modifiers once. */
        bval = (bval & f->bm) ^ f->bx;
        f->bm = 0xffffffffu;
        f->bx = 0;
    }
    if (is_f32) {
        f->fmods = (f->am & f->bm & f->cm) != 0xffffffffu ||
                   (f->ax | f->bx | f->cx) != 0;
    }
    f->kind = kind;
    f->len = i->len;
    f->pred = i->pred;
    f->pred_c = i->pred_c;
    f->post = i->post;
    f->bimm = bimm;
    if (bimm) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            f->imm[l] = bval;
        }
    }
}

void tesla_fast_classify(TeslaRun *run, size_t idx)
{
    const TeslaInsn *i = &run->icache[idx];
    TeslaFastInsn *f = &run->fcache[idx];
    unsigned kind;

    memset(f, 0, offsetof(TeslaFastInsn, imm));
    if (i->error != TESLA_ERR_NONE) {
        return;
    }
    f->pred = i->pred;
    f->pred_c = i->pred_c;
    kind = fast_classify_other(run, i, f);
    if (kind != TFK_NONE) {
        f->kind = kind;
        f->len = i->len;
        f->post = i->post;
        return;
    }
    memset(f, 0, offsetof(TeslaFastInsn, imm));
    fast_classify_alu(run, i, f);
}
