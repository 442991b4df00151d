/*
 * Tesla warp interpreter: quadop, interp, texturing and geometry emission
 * (cuda/misc.rst, texture.rst).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/tesla/warp.h"
#include "target/tesla/fpu.h"

#define LANES for (unsigned l = 0; l < TESLA_WARP_SIZE; l++)

static const uint32_t *fetch_absneg(TeslaWarp *w, const TeslaOperand *o,
                                    uint32_t m, uint32_t *buf)
{
    const uint32_t *v = tesla_fetch(w, o, m, buf);

    if (v && (o->abs || o->neg)) {
        LANES {
            buf[l] = tesla_f32_absneg(v[l], o->abs, o->neg);
        }
        return buf;
    }
    return v;
}

/*
 * quadop: SRC1 is read from the chosen lane of the quad (l0-l3, or in a
 * fragment program dox/doy: the lane ^ 1 / ^ 2), then each lane applies its
 * own op with SRC2.  Source lanes need not be active.  mov2 is SRC2 + 0
 * through the f32 adder (round to nearest, denormals flushed), so -0
 * becomes +0 and a NaN comes out canonical.
 */
static bool exec_quadop(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];
    const uint32_t *a, *b;
    bool fp = w->run->env.prog == TESLA_PROG_FP;

    /* Every lane of the quad is read, so fetch for all of them. */
    a = fetch_absneg(w, &insn->src[0], WARP_FULL & w->valid, b0);
    b = a ? fetch_absneg(w, &insn->src[1], m, b1) : NULL;
    if (!b) {
        return false;
    }
    LANES {
        unsigned q = l & 3, sl;
        uint32_t s1, s2 = b[l];

        if (insn->quad_src < 4) {
            sl = (l & ~3u) | insn->quad_src;
        } else if (fp) {
            sl = l ^ (insn->quad_src == 4 ? 1 : 2);
        } else {
            /* dox/doy outside a fragment program read 0 (misc.rst). */
            res[l] = 0;
            continue;
        }
        s1 = a[sl];
        switch (insn->quad_ops[q] & 3) {
        case TQOP_ADD:
            res[l] = tesla_f32_add(s1, s2, TRND_RN);
            break;
        case TQOP_SUBR:
            res[l] = tesla_f32_add(s2, s1 ^ 0x80000000u, TRND_RN);
            break;
        case TQOP_SUB:
            res[l] = tesla_f32_add(s1, s2 ^ 0x80000000u, TRND_RN);
            break;
        default:        /* TQOP_MOV2 */
            res[l] = tesla_f32_add(s2, 0, TRND_RN);
            break;
        }
    }
    return tesla_finish_f32(w, insn, res, m, false);
}

/*
 * interp: the v[] value the embedder computed for this thread, times the
 * optional source (perspective correction is the embedder's business).
 */
static bool exec_interp(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    uint32_t b0[TESLA_WARP_SIZE], b1[TESLA_WARP_SIZE];
    uint32_t res[TESLA_WARP_SIZE];

    if (!tesla_fetch_mem(w, &insn->src[0], m, b0)) {
        return false;
    }
    if (insn->nsrc > 1 && insn->src[1].kind != TOPND_NONE) {
        const uint32_t *s = fetch_absneg(w, &insn->src[1], m, b1);

        if (!s) {
            return false;
        }
        LANES {
            res[l] = tesla_f32_mul(b0[l], s[l], TRND_RN, 0);
        }
    } else {
        LANES {
            res[l] = b0[l];
        }
    }
    return tesla_finish(w, insn, res, NULL, m);
}

static bool exec_tex(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    TeslaRun *run = w->run;
    uint32_t coords[4][TESLA_WARP_SIZE];
    uint32_t out[4][TESLA_WARP_SIZE];
    const TeslaOperand *src = &insn->src[0];
    const TeslaOperand *dst = &insn->dst;
    unsigned nc = src->kind == TOPND_VREG ? MIN(src->vcount, 4u) : 1;
    unsigned vmask = dst->kind == TOPND_VREG ? dst->vmask : 0xf;
    unsigned r = dst->reg;

    if ((insn->mods & TMOD_LIVE) && run->env.prog == TESLA_PROG_FP) {
        m &= ~w->invisible;
    }
    for (unsigned c = 0; c < nc; c++) {
        memcpy(coords[c], warp_rrow(w, src->reg + c), sizeof(coords[c]));
    }
    memset(out, 0, sizeof(out));
    if (run->env.tex) {
        run->env.tex(run->env.opaque, insn, m, coords, nc, out);
    } else {
        gemu_log_once(LOG_UNIMP, "tesla-tex", 0,
                      "tesla: texture instruction without a texture unit; "
                      "results are 0\n");
    }
    /* Written components go to consecutive registers. */
    for (unsigned c = 0; c < 4; c++) {
        if (vmask & (1u << c)) {
            warp_blend(warp_wrow(w, r), out[c], m);
            r++;
        }
    }
    return true;
}

static bool exec_emit(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    TeslaRun *run = w->run;
    unsigned n = run->launch.out_words;
    bool emit = insn->op == TOP_EMIT || insn->op == TOP_EMIT_RESTART;
    bool restart = insn->op == TOP_RESTART || insn->op == TOP_EMIT_RESTART;

    LANES {
        if (!(m & (1u << l))) {
            continue;
        }
        if (emit && run->emitted && w->first_thread + l < run->threads &&
            run->emitted[w->first_thread + l]++ >= run->launch.max_emits) {
            /* past the limit: dropped, o[] cleared as by an emit */
            run->emitted[w->first_thread + l] = run->launch.max_emits;
            if (w->out) {
                memset(w->out + (size_t)l * n, 0, n * sizeof(uint32_t));
            }
        } else if (emit) {
            TeslaEmitRec rec = {
                .thread = w->first_thread + l,
                .restart = w->restart_pending[l],
                .out = g_new0(uint32_t, MAX(n, 1u)),
            };

            if (w->out) {
                memcpy(rec.out, w->out + (size_t)l * n, n * sizeof(uint32_t));
                /* misc.rst: emit clears o[].  UNVERIFIED. */
                memset(w->out + (size_t)l * n, 0, n * sizeof(uint32_t));
            }
            g_array_append_val(run->emits, rec);
            w->restart_pending[l] = false;
        }
        if (restart) {
            w->restart_pending[l] = true;
        }
    }
    return true;
}

bool tesla_exec_misc(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    switch (insn->op) {
    case TOP_QUADOP:
        return exec_quadop(w, insn, m);
    case TOP_INTERP:
        return exec_interp(w, insn, m);
    case TOP_TEX:
        return exec_tex(w, insn, m);
    case TOP_EMIT:
    case TOP_RESTART:
    case TOP_EMIT_RESTART:
        return exec_emit(w, insn, m);
    case TOP_PMEVENT:
        return true;    /* no performance counters */
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "not a misc op: %u", insn->op);
    }
}
