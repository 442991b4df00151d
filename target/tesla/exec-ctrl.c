/*
 * Tesla warp interpreter: control flow (cuda/control.rst).
 *
 * Model.  Each thread is in one of four states: running (member of some
 * path), broken (brk), returned (ret), exited.  w->mask is the path being
 * run.  A path that runs out of threads resumes the next one from the
 * control stack:
 * - branch entry: the other side of a divergent bra (its threads, its pc);
 * - joinat entry: the threads that were active at joinat; they are resumed
 *   at the join address, where the instruction with "join" pops the entry
 *   and execution continues after it;
 * - prebrk entry: the loop's threads; broken threads are revived at the
 *   break address;
 * - call / preret entry: returned threads are revived at the return
 *   address;
 * - quadon entry: the mask before quadon.
 * Exited threads are never revived.
 *
 * UNVERIFIED: on a divergent bra the not-taken side runs first and the
 * taken side is pushed.  Results do not depend on the order unless the
 * two sides race on memory.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp.h"

static bool push(TeslaWarp *w, unsigned type, uint32_t pc, uint32_t mask)
{
    if (w->nstack >= TESLA_STACK_MAX) {
        /* No dedicated error code: the hardware spills to l[] memory. */
        tesla_warp_trap(w, TESLA_ERR_STACK_MISMATCH,
                        "control stack overflow (%u entries)", w->nstack);
        return false;
    }
    w->stack[w->nstack].type = type;
    w->stack[w->nstack].pc = pc;
    w->stack[w->nstack].mask = mask;
    w->stack[w->nstack].arrived = 0;
    w->stack[w->nstack].after = 0;
    w->nstack++;
    return true;
}

static inline uint32_t running(const TeslaWarp *w, uint32_t m)
{
    return m & ~w->exited & ~w->brk & ~w->ret;
}

bool tesla_warp_path_end(TeslaWarp *w)
{
    while (!w->mask) {
        TeslaStackEntry *e;
        uint32_t live;

        if (!w->nstack) {
            uint32_t stuck = w->valid & ~w->exited;

            if (stuck) {
                return tesla_warp_trap(w, TESLA_ERR_STACK_UNDERFLOW,
                                       "%s with no matching stack entry "
                                       "(threads 0x%08x)",
                                       (w->brk & stuck) ? "brk" : "ret",
                                       stuck);
            }
            w->done = true;
            return true;
        }
        e = &w->stack[w->nstack - 1];
        live = e->mask & ~w->exited;
        switch (e->type) {
        case TSTK_BRANCH:
            w->nstack--;
            w->mask = running(w, live);
            w->pc = e->pc;
            break;
        case TSTK_JOINAT: {
            uint32_t r = running(w, live);

            if (r & ~e->arrived) {
                /* Threads still to reach the join: the join there pops
                   the entry. */
                w->mask = r & ~e->arrived;
                w->pc = e->pc;
            } else {
                /* Everyone left already executed the join. */
                w->nstack--;
                w->mask = r;
                w->pc = e->after;
            }
            break;
        }
        case TSTK_PREBRK:
            w->nstack--;
            w->brk &= ~e->mask;
            w->mask = running(w, live);
            w->pc = e->pc;
            break;
        case TSTK_CALL:
        case TSTK_CALL_LIM:
        case TSTK_PRERET:
            w->nstack--;
            w->ret &= ~e->mask;
            w->mask = running(w, live);
            w->pc = e->pc;
            break;
        case TSTK_QUADON:
        default:
            return tesla_warp_trap(w, TESLA_ERR_STACK_MISMATCH,
                                   "path ended under quadon");
        }
    }
    return true;
}

/* Threads of m leave the path in state *state (brk/ret/exit). */
static void leave(TeslaWarp *w, uint32_t m, uint32_t *state)
{
    *state |= m;
    w->mask &= ~m;
}

static uint32_t quad_expand(uint32_t m)
{
    uint32_t q = 0;

    for (unsigned i = 0; i < TESLA_WARP_SIZE; i += 4) {
        if ((m >> i) & 0xf) {
            q |= 0xfu << i;
        }
    }
    return q;
}

static TeslaCtrlResult bra_c(TeslaWarp *w, const TeslaInsn *insn)
{
    uint32_t tgt[TESLA_WARP_SIZE];
    uint32_t rest = w->mask;
    uint32_t first_t;
    uint32_t first_m = 0;
    TeslaOperand src = insn->src[0];

    /* UNVERIFIED: the c[] word is the 32-bit target byte address. */
    src.mtype = TTYPE_B32;
    if (!tesla_fetch_mem(w, &src, w->mask, tgt)) {
        return TCR_TRAP;
    }
    tesla_postinc(w, insn, w->mask);
    first_t = tgt[__builtin_ctz(rest)];
    /* Group the threads by target; all but the first group wait. */
    while (rest) {
        unsigned l0 = __builtin_ctz(rest);
        uint32_t t = tgt[l0], g = 0;

        for (unsigned l = l0; l < TESLA_WARP_SIZE; l++) {
            if ((rest & (1u << l)) && tgt[l] == t) {
                g |= 1u << l;
            }
        }
        rest &= ~g;
        if (t == first_t) {
            first_m = g;
        } else if (!push(w, TSTK_BRANCH, t, g)) {
            return TCR_TRAP;
        }
    }
    w->mask = first_m;
    w->pc = first_t;
    return TCR_JUMPED;
}

TeslaCtrlResult tesla_exec_ctrl(TeslaWarp *w, const TeslaInsn *insn,
                                uint32_t m)
{
    uint32_t target = insn->src[0].imm;
    uint32_t next = insn->addr + insn->len;

    if (w->quadon && insn->op != TOP_QUADPOP && insn->op != TOP_DISCARD &&
        insn->op != TOP_TRAP && insn->op != TOP_BRKPT) {
        tesla_warp_trap(w, TESLA_ERR_QUADON_ACTIVE,
                        "control instruction under quadon");
        return TCR_TRAP;
    }

    switch (insn->op) {
    case TOP_BRA:
        if (!m) {
            return TCR_NEXT;
        }
        if (m == w->mask) {
            w->pc = target;
            return TCR_JUMPED;
        }
        if (!push(w, TSTK_BRANCH, target, m)) {
            return TCR_TRAP;
        }
        w->mask &= ~m;
        return TCR_NEXT;

    case TOP_BRA_C:
        return bra_c(w, insn);

    case TOP_CALL:
        if (!push(w, (insn->mods & TMOD_CALL_LIM) ? TSTK_CALL_LIM : TSTK_CALL,
                  next, w->mask)) {
            return TCR_TRAP;
        }
        w->pc = target;
        return TCR_JUMPED;

    case TOP_PRERET:
        return push(w, TSTK_PRERET, target, w->mask) ? TCR_NEXT : TCR_TRAP;

    case TOP_PREBRK:
        return push(w, TSTK_PREBRK, target, w->mask) ? TCR_NEXT : TCR_TRAP;

    case TOP_JOINAT:
        return push(w, TSTK_JOINAT, target, w->mask) ? TCR_NEXT : TCR_TRAP;

    case TOP_RET:
        leave(w, m, &w->ret);
        return TCR_NEXT;    /* an empty path resumes from the stack */

    case TOP_BRK:
        leave(w, m, &w->brk);
        return TCR_NEXT;

    case TOP_DISCARD:
        if (m) {
            TeslaRun *run = w->run;

            for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
                unsigned t = w->first_thread + l;

                if ((m & (1u << l)) && t < run->threads) {
                    run->tstate[t] |= TTS_KILLED;
                }
            }
            w->killed |= m;
            leave(w, m, &w->exited);
        }
        return TCR_NEXT;

    case TOP_QUADON:
        if (!push(w, TSTK_QUADON, next, w->mask)) {
            return TCR_TRAP;
        }
        w->quadon++;
        w->mask = quad_expand(w->mask) & w->valid;
        return TCR_NEXT;

    case TOP_QUADPOP: {
        TeslaStackEntry *e;

        if (!w->nstack) {
            tesla_warp_trap(w, TESLA_ERR_STACK_UNDERFLOW,
                            "quadpop with an empty stack");
            return TCR_TRAP;
        }
        e = &w->stack[w->nstack - 1];
        if (e->type != TSTK_QUADON) {
            tesla_warp_trap(w, TESLA_ERR_STACK_MISMATCH,
                            "quadpop reached a stack entry of type %u",
                            e->type);
            return TCR_TRAP;
        }
        w->nstack--;
        w->quadon--;
        w->mask = running(w, e->mask);
        return TCR_NEXT;
    }

    case TOP_BAR:
        w->pc = next;
        tesla_run_barrier_arrive(w->run, w, insn);
        return w->waiting ? TCR_BARRIER : TCR_JUMPED;

    case TOP_TRAP:
        tesla_warp_trap(w, TESLA_ERR_TRAP_INSTRUCTION, "trap instruction");
        return TCR_TRAP;

    case TOP_BRKPT:
        /*
         * Choice: a brkpt that any thread executes stops the run with
         * BREAKPOINT (as if PGRAPH had breakpoints enabled), so that
         * a user sees where it was hit.
         */
        if (m) {
            tesla_warp_trap(w, TESLA_ERR_BREAKPOINT, "brkpt");
            return TCR_TRAP;
        }
        return TCR_NEXT;

    default:
        tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                        "not a control op: %u", insn->op);
        return TCR_TRAP;
    }
}

/* Threads in m exited: mark them in the run's thread states. */
static void record_exit(TeslaWarp *w, uint32_t m)
{
    TeslaRun *run = w->run;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        if (m & (1u << l)) {
            unsigned t = w->first_thread + l;

            if (t < run->threads) {
                run->tstate[t] |= TTS_EXITED;
            }
        }
    }
}

TeslaCtrlResult tesla_exec_post(TeslaWarp *w, const TeslaInsn *insn)
{
    if (insn->post == TPOST_EXIT) {
        /* The exit part applies even where the predicate was false. */
        record_exit(w, w->mask & ~w->exited);
        w->exited |= w->mask;
        w->mask = 0;
        return TCR_JUMPED;
    }
    if (insn->post == TPOST_JOIN) {
        TeslaStackEntry *e;

        if (w->quadon) {
            tesla_warp_trap(w, TESLA_ERR_QUADON_ACTIVE, "join under quadon");
            return TCR_TRAP;
        }
        if (!w->nstack) {
            tesla_warp_trap(w, TESLA_ERR_STACK_UNDERFLOW,
                            "join with an empty stack");
            return TCR_TRAP;
        }
        e = &w->stack[w->nstack - 1];
        if (e->type == TSTK_BRANCH) {
            /* Another path of this level has yet to arrive: run it.  The
               joinat entry remembers who is waiting at the join. */
            for (unsigned k = w->nstack - 1; k-- > 0;) {
                TeslaStackEntry *j = &w->stack[k];

                if (j->type == TSTK_JOINAT) {
                    j->arrived |= w->mask;
                    j->after = insn->addr + insn->len;
                    break;
                }
                if (j->type != TSTK_BRANCH) {
                    break;
                }
            }
            w->nstack--;
            w->mask = running(w, e->mask);
            w->pc = e->pc;
            return TCR_JUMPED;
        }
        if (e->type == TSTK_JOINAT) {
            w->nstack--;
            w->mask = running(w, e->mask);
            return TCR_NEXT;    /* continue after the join instruction */
        }
        /* UNVERIFIED: the hardware may pop anything here. */
        tesla_warp_trap(w, TESLA_ERR_STACK_MISMATCH,
                        "join reached a stack entry of type %u", e->type);
        return TCR_TRAP;
    }
    return TCR_NEXT;
}
