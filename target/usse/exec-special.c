/*
 * USSE control, special, texture and memory instructions: the SPECIAL
 * group (branches, SETL/SAVL, LIMM, SMLSI/SMBO/IMO, LDR, ATST8,
 * DEPTHF, the no-effect ops), SMP (through the embedder's sampler) and
 * LD/ST (through its memory).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/usse/exec-priv.h"

/* ---- special group, texture, memory ---- */

/*
 * SMP's coordinates (src0, format @cfmt), state words (src1) and LOD
 * operands (src2) into @req (dim and lod_mode set), and the coordinate
 * differences across the quad.
 */
static bool smp_request(UsseCtx *c, const UsseRef *src0,
                        const UsseRef *src1, const UsseRef *src2,
                        unsigned cfmt, UsseSample *req)
{
    for (unsigned i = 0; i < req->dim; i++) {
        if (!usse_vget(c, src0, cfmt, i, &req->coord[i])) {
            return false;
        }
    }
    for (unsigned i = 0; i < 4; i++) {
        if (!usse_rdw(c, src1, i, &req->state[i])) {
            return false;
        }
    }
    if (req->lod_mode) {
        unsigned nlod = req->lod_mode == 3 ? 2 * req->dim : 1;
        for (unsigned i = 0; i < nlod; i++) {
            if (!usse_vget(c, src2, cfmt, i, &req->lod[i])) {
                return false;
            }
        }
    }
    if (c->snap) {
        /* coordinate differences across the quad */
        unsigned l = c->lane, row = l & 2, col = l & 1;
        for (unsigned i = 0; i < req->dim; i++) {
            float v[4];
            for (unsigned q = 0; q < 4; q++) {
                UsseCtx nc = *c;
                nc.in = &c->snap[q];
                nc.trapped = false;
                if (!usse_vget(&nc, src0, cfmt, i, &v[q])) {
                    usse_trap_fixup(c);
                    return false;
                }
            }
            req->dx[i] = v[row + 1] - v[row];
            req->dy[i] = v[2 + col] - v[col];
        }
    }
    return true;
}

/* SMP's result @out to @dst in the format FCONV asks for. */
static bool smp_result(UsseCtx *c, const UsseRef *dst, const float out[4])
{
    switch (c->insn->f[UF_FCONV]) {
    case 0: case 3:
        for (unsigned i = 0; i < 4; i++) {
            if (!usse_wrw(c, dst, i, usse_u(out[i]))) {
                return false;
            }
        }
        break;
    case 2:
        for (unsigned i = 0; i < 4; i++) {
            if (!usse_vput(c, dst, USSE_FMT_F16, i, out[i])) {
                return false;
            }
        }
        break;
    default:
        /* "native": gemu's texture unit hands out U8 x 4 (UNVERIFIED) */
        for (unsigned i = 0; i < 4; i++) {
            uint32_t raw = usse_fmt_raw(USSE_FMT_U8, out[i], true);
            if (!usse_eput(c, dst, USSE_FMT_U8, i, raw)) {
                return false;
            }
        }
        break;
    }
    return true;
}

bool usse_exec_smp(UsseCtx *c)
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
    if (!smp_request(c, &src0, &src1, &src2, cfmt, &req)) {
        return false;
    }
    if (c->run->env.sample) {
        c->run->env.sample(c->run->env.opaque, &req, out);
    } else {
        gemu_log_once(LOG_UNIMP, "usse-smp", 0,
                      "usse: no texture unit, smp returns 0\n");
    }
    return smp_result(c, &dst, out);
}

/*
 * LD/ST (UNVERIFIED beyond sgx543.md 1.5): address = src0 + src1 bytes,
 * an immediate src1 scaled by the element size; count+1 elements of
 * 32/16/8 bits, each in its own register (zero-extended).  ST stores the
 * registers starting at src2.
 */
bool usse_exec_ldst(UsseCtx *c, bool store)
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

/* SMLSI, SMBO, IMO: the MOE state of the instance. */
static bool exec_moe(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    UsseInst *in = c->in;

    switch (insn->op) {
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
    default:                /* IMO */
        /* "increment MOE offsets": base offset += increment per operand
           (UNVERIFIED; swizzle-mode operands add their first step) */
        for (int s = 0; s < USSE_NOPND; s++) {
            in->boff[s] += in->incswz[s] ? (in->inc[s] & 3) : in->inc[s];
        }
        return true;
    }
}

/* LIMM, DEPTHF, SETL, SAVL, LDR: values into and out of registers. */
static bool exec_move(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;
    UsseInst *in = c->in;

    switch (insn->op) {
    case UOP_LIMM: {
        UsseRef d = usse_ref(c, USSE_DST, 0);
        return usse_wrw(c, &d, 0, insn->f[UF_VALUE]);
    }
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
    default: {              /* LDR */
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
    }
}

bool usse_exec_special(UsseCtx *c)
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
    case UOP_SMLSI: case UOP_SMBO: case UOP_IMO:
        return exec_moe(c);
    case UOP_LIMM: case UOP_DEPTHF: case UOP_SETL: case UOP_SAVL:
    case UOP_LDR:
        return exec_move(c);
    case UOP_ATST8:
        /* the predicate passed: discard (sgx543.md: Vita3K's KILL) */
        in->killed = true;
        in->done = true;
        return true;
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
