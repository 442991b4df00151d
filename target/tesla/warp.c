/*
 * Tesla warp interpreter: the instruction loop.
 *
 * A warp runs 32 threads in lock-step.  Each instruction is computed for
 * all 32 lanes and written back under the mask of the threads that execute
 * it (the current path's threads whose predicate holds).  tesla_warp_run
 * hands the warp to the fast loop (warp-fast.c) while its instructions
 * are common ones, and runs any other instruction here, on the general
 * path: decoded once per code address, executed by its group
 * (exec-*.c; operands in warp-operand.c, predicates in warp-pred.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/tesla/warp.h"

/* --- traps ------------------------------------------------------------ */

bool tesla_warp_trap(TeslaWarp *w, TeslaError e, const char *fmt, ...)
{
    TeslaRun *run = w->run;
    TeslaResult *r = &run->result;
    va_list ap;

    r->status = TESLA_RUN_TRAP;
    r->error = e;
    r->pc = w->insn_pc;
    r->warp = w->index;
    r->block = w->block;
    va_start(ap, fmt);
    g_vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "tesla: %s at 0x%06x (warp %u): %s\n",
                  tesla_error_name(e), w->insn_pc, w->index, r->msg);
    return false;
}

/* --- decode cache ------------------------------------------------------- */

static const TeslaInsn *insn_at(TeslaWarp *w, uint32_t pc)
{
    TeslaRun *run = w->run;
    size_t idx = pc >> 2;
    TeslaInsn *insn;

    if ((pc & 3) || idx >= run->env.code_words) {
        tesla_warp_trap(w, TESLA_ERR_MEMORY_FAULT,
                        "pc 0x%x outside the code (%zu words)", pc,
                        run->env.code_words);
        return NULL;
    }
    insn = &run->icache[idx];
    if (likely(run->ivalid[idx])) {
        return insn;
    }
    tesla_decode(run->env.variant, run->env.prog, run->env.code,
                 run->env.code_words, pc, insn);
    run->ivalid[idx] = 1;
    run->cc->decodes++;
    tesla_fast_classify(run, idx);
    return insn;
}


/* --- the loop ---------------------------------------------------------- */

/* Ops whose predicate field is not a condition (envydis IGNPRED). */
static bool op_ignores_pred(unsigned op)
{
    switch (op) {
    case TOP_CALL:
    case TOP_PREBRK:
    case TOP_PRERET:
    case TOP_JOINAT:
    case TOP_QUADON:
    case TOP_QUADPOP:
    case TOP_BAR:
    case TOP_TRAP:
    case TOP_BRA_C:
    case TOP_VOTE:
        return true;
    default:
        return false;
    }
}

/* Which tesla_exec_* runs an op (0: none, ILLEGAL_OPCODE). */
enum { WG_NONE, WG_INT, WG_DATA, WG_MEM, WG_FLOAT, WG_MISC, WG_NOP, WG_CTRL };

static const uint8_t op_group[TOP_NUM_OPS] = {
    [TOP_IADD] = WG_INT, [TOP_IMUL16] = WG_INT, [TOP_IMUL24] = WG_INT,
    [TOP_IMAD] = WG_INT, [TOP_SAD] = WG_INT, [TOP_IMIN] = WG_INT,
    [TOP_IMAX] = WG_INT, [TOP_ISET] = WG_INT, [TOP_LOGOP] = WG_INT,
    [TOP_SHL] = WG_INT, [TOP_SHR] = WG_INT,

    [TOP_MOV] = WG_DATA, [TOP_MOV_FROM_C] = WG_DATA,
    [TOP_MOV_TO_C] = WG_DATA, [TOP_MOV_FROM_A] = WG_DATA,
    [TOP_SHL_A] = WG_DATA, [TOP_ADD_A] = WG_DATA,
    [TOP_MOV_FROM_SR] = WG_DATA, [TOP_VOTE] = WG_DATA,

    [TOP_LD] = WG_MEM, [TOP_ST] = WG_MEM, [TOP_LD_LOCK] = WG_MEM,
    [TOP_ST_UNLOCK] = WG_MEM, [TOP_ATOM] = WG_MEM, [TOP_RED] = WG_MEM,

    [TOP_FADD] = WG_FLOAT, [TOP_FMUL] = WG_FLOAT, [TOP_FMAD] = WG_FLOAT,
    [TOP_FMIN] = WG_FLOAT, [TOP_FMAX] = WG_FLOAT, [TOP_FSET] = WG_FLOAT,
    [TOP_FSLCT] = WG_FLOAT, [TOP_RCP] = WG_FLOAT, [TOP_RSQRT] = WG_FLOAT,
    [TOP_LG2] = WG_FLOAT, [TOP_SIN] = WG_FLOAT, [TOP_COS] = WG_FLOAT,
    [TOP_EX2] = WG_FLOAT, [TOP_PRESIN] = WG_FLOAT, [TOP_PREEX2] = WG_FLOAT,
    [TOP_CVT] = WG_FLOAT, [TOP_DFMA] = WG_FLOAT, [TOP_DADD] = WG_FLOAT,
    [TOP_DMUL] = WG_FLOAT, [TOP_DMIN] = WG_FLOAT, [TOP_DMAX] = WG_FLOAT,
    [TOP_DSET] = WG_FLOAT,

    [TOP_QUADOP] = WG_MISC, [TOP_INTERP] = WG_MISC, [TOP_TEX] = WG_MISC,
    [TOP_EMIT] = WG_MISC, [TOP_RESTART] = WG_MISC,
    [TOP_EMIT_RESTART] = WG_MISC, [TOP_PMEVENT] = WG_MISC,

    [TOP_NOP] = WG_NOP,

    [TOP_DISCARD] = WG_CTRL, [TOP_BRA] = WG_CTRL, [TOP_BRA_C] = WG_CTRL,
    [TOP_CALL] = WG_CTRL, [TOP_RET] = WG_CTRL, [TOP_PREBRK] = WG_CTRL,
    [TOP_BRK] = WG_CTRL, [TOP_PRERET] = WG_CTRL, [TOP_QUADON] = WG_CTRL,
    [TOP_QUADPOP] = WG_CTRL, [TOP_BAR] = WG_CTRL, [TOP_TRAP] = WG_CTRL,
    [TOP_JOINAT] = WG_CTRL, [TOP_BRKPT] = WG_CTRL,
};

/*
 * Run insn for lanes m (control ops even with none: they move the pc).
 * False after a trap; *cr: what a control op did.
 */
static bool exec_insn(TeslaWarp *w, const TeslaInsn *insn, uint32_t m,
                      TeslaCtrlResult *cr)
{
    switch (insn->op < TOP_NUM_OPS ? op_group[insn->op] : WG_NONE) {
    case WG_INT:
        return !m || tesla_exec_int(w, insn, m);
    case WG_DATA:
        return !m || tesla_exec_data(w, insn, m);
    case WG_MEM:
        return !m || tesla_exec_mem(w, insn, m);
    case WG_FLOAT:
        return !m || tesla_exec_float(w, insn, m);
    case WG_MISC:
        return !m || tesla_exec_misc(w, insn, m);
    case WG_NOP:
        return true;
    case WG_CTRL:
        *cr = tesla_exec_ctrl(w, insn, m);
        return *cr != TCR_TRAP;
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "no execution for op %u", insn->op);
    }
}

/*
 * The general path: the instruction at w->pc, of any kind.  False when
 * the warp stops, *stop saying why; *n counts the instruction if it ran.
 */
static bool general_step(TeslaWarp *w, uint64_t *n, bool tracing,
                         TeslaWarpStop *stop)
{
    TeslaRun *run = w->run;
    uint32_t pc = w->pc, m;
    size_t idx = pc >> 2;
    bool fresh = !(pc & 3) && idx < run->env.code_words &&
                 !run->ivalid[idx];
    const TeslaInsn *insn;
    TeslaCtrlResult cr = TCR_NEXT;

    w->insn_pc = pc;
    *stop = TWS_TRAP;
    insn = insn_at(w, pc);
    if (unlikely(!insn)) {
        return false;
    }
    if (unlikely(insn->error != TESLA_ERR_NONE)) {
        return tesla_warp_trap(w, insn->error, "decode error (%08x %08x)",
                               insn->w[0], insn->len == 8 ? insn->w[1] : 0);
    }
    if (unlikely(tracing)) {
        if (run->skip_trace) {
            run->skip_trace = false;
        } else if (!run->env.trace(run->env.opaque, run, w, insn)) {
            run->skip_trace = true;
            *stop = TWS_PAUSE;
            return false;
        }
    } else if (fresh && run->fcache[idx].kind) {
        return true;        /* just decoded: take the fast path */
    }
    (*n)++;

    m = w->mask;
    if (insn->pred != TPRED_ALWAYS && !op_ignores_pred(insn->op)) {
        m &= tesla_pred_mask(w, insn->pred, insn->pred_c);
    }
    if (unlikely(!exec_insn(w, insn, m, &cr))) {
        return false;
    }
    if (cr != TCR_JUMPED && cr != TCR_BARRIER) {
        w->pc += insn->len;
    }
    if (unlikely(insn->post != TPOST_NONE) &&
        tesla_exec_post(w, insn) == TCR_TRAP) {
        return false;
    }
    if (unlikely(cr == TCR_BARRIER)) {
        *stop = TWS_BARRIER;
        return false;
    }
    return true;
}

/* Publish the instructions run so far (and $clock, one per insn). */
static inline void sync_count(TeslaRun *run, uint64_t base, uint64_t cbase,
                              uint64_t n)
{
    run->insns = base + n;
    run->clock = cbase + n;
}

TeslaWarpStop tesla_warp_run(TeslaWarp *w, uint64_t slice)
{
    TeslaRun *run = w->run;
    uint64_t budget = run->env.insn_budget;
    uint64_t base = run->insns, cbase = run->clock;
    uint64_t limit = slice, n = 0;
    bool by_budget = false;
    bool tracing = run->env.trace != NULL;
    TeslaWarpStop stop = TWS_DONE, why;

    if (budget) {
        uint64_t left = budget > base ? budget - base : 0;

        if (left <= limit) {
            limit = left;
            by_budget = true;
        }
    }
    if (w->waiting) {
        if (!tesla_run_barrier_passed(run, w)) {
            return TWS_BARRIER;
        }
        w->waiting = false;
    }
    while (!w->done) {
        if (unlikely(!w->mask)) {
            if (!tesla_warp_path_end(w)) {
                stop = TWS_TRAP;
                break;
            }
            continue;
        }
        if (unlikely(n >= limit)) {
            stop = TWS_SLICE;
            if (by_budget) {
                w->insn_pc = w->pc;
                tesla_warp_trap(w, TESLA_ERR_TIMEOUT,
                                "instruction budget of %" PRIu64
                                " exhausted", budget);
                stop = TWS_TRAP;
            }
            break;
        }
        if (likely(!tracing)) {
            uint64_t n0 = n;
            bool trap = false;

            n = tesla_fast_run(w, n, limit, &trap);
            if (unlikely(trap)) {
                stop = TWS_TRAP;
                break;
            }
            if (n != n0) {
                continue;
            }
        }
        sync_count(run, base, cbase, n);
        if (unlikely(!general_step(w, &n, tracing, &why))) {
            stop = why;
            break;
        }
    }
    sync_count(run, base, cbase, n);
    return stop;
}

/* --- inspection --------------------------------------------------------- */

uint32_t tesla_warp_pc(const TeslaWarp *w)
{
    return w->pc;
}

uint32_t tesla_warp_active(const TeslaWarp *w)
{
    return w->mask;
}

unsigned tesla_warp_index(const TeslaWarp *w)
{
    return w->index;
}

unsigned tesla_warp_first_thread(const TeslaWarp *w)
{
    return w->first_thread;
}

uint32_t tesla_warp_reg(const TeslaWarp *w, unsigned lane, unsigned reg)
{
    if (lane >= TESLA_WARP_SIZE || reg >= TESLA_MAX_GPRS) {
        return 0;
    }
    return warp_rrow(w, reg)[lane];
}

uint32_t tesla_warp_areg(const TeslaWarp *w, unsigned lane, unsigned idx)
{
    if (lane >= TESLA_WARP_SIZE || idx >= 8) {
        return 0;
    }
    return w->a[idx][lane];
}

uint32_t tesla_warp_flags(const TeslaWarp *w, unsigned lane, unsigned c)
{
    if (lane >= TESLA_WARP_SIZE || c >= 4) {
        return 0;
    }
    return w->c[c][lane];
}

unsigned tesla_warp_stack_depth(const TeslaWarp *w)
{
    return w->nstack;
}

void tesla_warp_init_tables(void)
{
    tesla_pred_init();
    tesla_fast_init();
}
