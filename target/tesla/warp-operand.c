/*
 * Tesla warp interpreter: operands.  Sources are fetched for all 32 lanes
 * (a register row as it is, other kinds into a buffer); results, flags
 * and $a post-increments are written back under the mask of the threads
 * that execute the instruction.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"

static uint32_t sreg_value(TeslaWarp *w, unsigned sr, unsigned lane)
{
    TeslaRun *run = w->run;

    switch (sr) {
    case 0:     /* $physid */
        return lane | (w->index & 0xff) << 8 |
               (run->env.mp_index & 0xf) << 16 |
               (run->env.tpc_index & 0xf) << 20;
    case 1:     /* $clock: UNVERIFIED rate, one tick per warp-insn */
        return (uint32_t)run->clock;
    case 3:     /* $vstride */
        return 0x20;
    case 8:     /* $sampleid */
        return run->launch.sampleid;
    default:    /* $sr2, $pm0-$pm3 (no performance counters) */
        return 0;
    }
}

const uint32_t *tesla_fetch(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                            uint32_t *buf)
{
    switch (o->kind) {
    case TOPND_REG:
        return warp_rrow(w, o->reg);
    case TOPND_HREG: {
        const uint32_t *row = warp_rrow(w, o->reg);
        unsigned sh = o->half ? 16 : 0;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = (row[l] >> sh) & 0xffff;
        }
        return buf;
    }
    case TOPND_IMM:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = o->imm;
        }
        return buf;
    case TOPND_MEM:
        return tesla_fetch_mem(w, o, m, buf) ? buf : NULL;
    case TOPND_AREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = w->a[o->areg & 7][l];
        }
        return buf;
    case TOPND_CREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = w->c[o->reg & 3][l];
        }
        return buf;
    case TOPND_SREG:
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = sreg_value(w, o->reg, l);
        }
        return buf;
    default:
        memset(buf, 0, TESLA_WARP_SIZE * sizeof(uint32_t));
        return buf;
    }
}

/* Write $a[idx] for lanes m; $a7 is one register per warp. */
static void store_areg(TeslaWarp *w, unsigned idx, const uint32_t *v,
                       uint32_t m)
{
    idx &= 7;
    if (idx == 0 || idx == 5 || idx == 6 || !m) {
        return;     /* $a0 is zero; $a5/$a6 do not exist */
    }
    if (idx == 7) {
        /* UNVERIFIED: the lowest active lane's value wins. */
        uint16_t x = v[__builtin_ctz(m)];

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            w->a[7][l] = x;
        }
        return;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            w->a[idx][l] = v[l];
        }
    }
}

bool tesla_store_dst(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                     uint32_t m)
{
    const TeslaOperand *d = &insn->dst;

    switch (d->kind) {
    case TOPND_REG:
        warp_blend(warp_wrow(w, d->reg), res, m);
        return true;
    case TOPND_HREG: {
        uint32_t *row = warp_wrow(w, d->reg);
        unsigned sh = d->half ? 16 : 0;
        uint32_t keep = d->half ? 0x0000ffffu : 0xffff0000u;
        uint32_t lm[TESLA_WARP_SIZE];

        warp_lanemask(m, lm);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            uint32_t nv = (row[l] & keep) | ((res[l] & 0xffff) << sh);

            row[l] = (row[l] & ~lm[l]) | (nv & lm[l]);
        }
        return true;
    }
    case TOPND_MEM: {
        bool half = d->mtype == TTYPE_B16 || d->mtype == TTYPE_U16 ||
                    d->mtype == TTYPE_S16;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            uint32_t v, addr;

            if (!(m & (1u << l))) {
                continue;
            }
            v = res[l];
            addr = tesla_mem_addr(w, d, l);
            if (half) {
                /* A 16-bit result to o[] is duplicated in both halves. */
                v = (v & 0xffff) * 0x10001u;
                addr &= ~3u;
            }
            if (!tesla_mem_write(w, d->space, d->space_idx, addr, 4, l,
                                 &v)) {
                return false;
            }
        }
        return true;
    }
    case TOPND_AREG:
        store_areg(w, d->areg, res, m);
        return true;
    case TOPND_CREG: {
        uint8_t fl[TESLA_WARP_SIZE];

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            fl[l] = res[l] & 15;
        }
        warp_blend8(w->c[d->reg & 3], fl, m);
        return true;
    }
    default:
        return true;    /* no destination, or the result is discarded */
    }
}

void tesla_store_flags(TeslaWarp *w, const TeslaInsn *insn,
                       const uint8_t *fl, uint32_t m)
{
    if (insn->cdst >= 0) {
        warp_blend8(w->c[insn->cdst & 3], fl, m);
    }
}

static void postinc_one(TeslaWarp *w, const TeslaOperand *o, uint32_t m)
{
    unsigned a = o->areg & 7;

    if (o->kind != TOPND_MEM || !o->postinc || o->space == TSPACE_G ||
        a == 0 || a == 5 || a == 6) {
        return;
    }
    if (a == 7) {
        uint16_t x = w->a[7][0] + o->imm;

        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            w->a[7][l] = x;
        }
        return;
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            w->a[a][l] += o->imm;
        }
    }
}

void tesla_postinc(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    /* Only one $a field exists, so at most one operand post-increments. */
    if (insn->dst.kind == TOPND_MEM && insn->dst.postinc) {
        postinc_one(w, &insn->dst, m);
        return;
    }
    for (unsigned i = 0; i < insn->nsrc && i < 4; i++) {
        if (insn->src[i].kind == TOPND_MEM && insn->src[i].postinc) {
            postinc_one(w, &insn->src[i], m);
            return;
        }
    }
}

bool tesla_finish(TeslaWarp *w, const TeslaInsn *insn, const uint32_t *res,
                  const uint8_t *fl, uint32_t m)
{
    tesla_postinc(w, insn, m);
    if (fl) {
        tesla_store_flags(w, insn, fl, m);
    }
    return tesla_store_dst(w, insn, res, m);
}
