/*
 * USSE interpreter: programs, traps, runs and the instance scheduler
 * (vertices one by one, fragments in lock-step quads).  Operands,
 * register banks and formats are in exec-reg.c; the control, special,
 * texture and memory instructions in exec-special.c; the ALU groups in
 * exec-vec.c and exec-int.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse/exec-priv.h"

/* ---- programs ---- */

/* Does the instruction read a neighbour's register (a derivative)? */
static bool is_derivative(const UsseInsn *insn)
{
    return insn->op == UOP_VDSX || insn->op == UOP_VDSY ||
           ((insn->op == UOP_VTST || insn->op == UOP_VTSTMSK) &&
            (insn->f[UF_ALU] == 0x0b || insn->f[UF_ALU] == 0x0c));
}

UsseProgram *usse_program_new(const uint64_t *code, size_t n)
{
    UsseProgram *p = g_new0(UsseProgram, 1);

    p->n = n;
    p->insn = g_new0(UsseInsn, MAX(n, 1));
    p->ok = g_new0(bool, MAX(n, 1));
    for (size_t i = 0; i < n; i++) {
        p->ok[i] = usse_decode(code[i], &p->insn[i]);
        /* group 27 is reserved: whatever it decodes to, it is illegal */
        if (p->insn[i].group == 27) {
            p->ok[i] = false;
        }
        if (p->ok[i] && is_derivative(&p->insn[i])) {
            p->derivatives = true;
        }
    }
    return p;
}

void usse_program_free(UsseProgram *prog)
{
    if (prog) {
        g_free(prog->insn);
        g_free(prog->ok);
        g_free(prog);
    }
}

size_t usse_program_len(const UsseProgram *prog)
{
    return prog->n;
}

const UsseInsn *usse_program_insn(const UsseProgram *prog, uint32_t pc)
{
    return pc < prog->n ? &prog->insn[pc] : NULL;
}

/* ---- traps ---- */

const char *usse_error_name(UsseError e)
{
    switch (e) {
    case USSE_ERR_NONE: return "NONE";
    case USSE_ERR_ILLEGAL: return "ILLEGAL_INSN";
    case USSE_ERR_UNSUPPORTED: return "UNSUPPORTED";
    case USSE_ERR_REGISTER: return "BAD_REGISTER";
    case USSE_ERR_MEMORY: return "MEMORY_FAULT";
    case USSE_ERR_TIMEOUT: return "TIMEOUT";
    }
    return "?";
}

bool usse_trap(UsseCtx *c, UsseError e, const char *fmt, ...)
{
    UsseResult *res = &c->run->res;
    va_list ap;

    if (!c->trapped) {
        c->trapped = true;
        res->status = USSE_RUN_TRAP;
        res->error = e;
        res->pc = c->in->pc;
        res->instance = c->in - c->run->inst;
        va_start(ap, fmt);
        g_vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
        va_end(ap);
    }
    return false;
}

void usse_trap_fixup(UsseCtx *c)
{
    c->trapped = true;
    c->run->res.pc = c->in->pc;
    c->run->res.instance = c->in - c->run->inst;
}

static bool exec_one(UsseCtx *c)
{
    const UsseInsn *insn = c->insn;

    switch (insn->group) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
        return usse_exec_vector(c);
    case 28:
        return usse_exec_smp(c);
    case 29: case 30:
        return usse_exec_ldst(c, insn->group == 30);
    case 31:
        return usse_exec_special(c);
    default:
        return usse_exec_int(c);
    }
}

/* ---- runs ---- */

static void inst_reset(UsseInst *in)
{
    memset(in, 0, sizeof(*in));
    for (int s = 0; s < USSE_NOPND; s++) {
        in->inc[s] = 1;
    }
}

UsseRun *usse_run_new(const UsseEnv *env, const UsseProgram *prog,
                      const UsseLaunch *launch, char **errp)
{
    UsseRun *run;
    unsigned n = launch->secondary ? 1 : launch->instances;

    if (!prog) {
        *errp = g_strdup("no program");
        return NULL;
    }
    if (n == 0) {
        *errp = g_strdup("no instances");
        return NULL;
    }
    if (!launch->secondary && env->stage == USSE_STAGE_FRAGMENT &&
        n % USSE_QUAD) {
        *errp = g_strdup_printf("fragment instances (%u) must be a multiple "
                                "of 4", n);
        return NULL;
    }
    if (env->sa_count > USSE_MAX_REGS || (env->sa_count && !env->sa)) {
        *errp = g_strdup("bad SA bank");
        return NULL;
    }
    if (launch->pa_words > USSE_MAX_REGS) {
        *errp = g_strdup_printf("%u PA words per instance (at most %u)",
                                launch->pa_words, USSE_MAX_REGS);
        return NULL;
    }
    run = g_try_new0(UsseRun, 1);
    if (run) {
        run->inst = g_try_new(UsseInst, n);
    }
    if (!run || !run->inst) {
        g_free(run);
        *errp = g_strdup_printf("%u instances do not fit in memory", n);
        return NULL;
    }
    run->env = *env;
    run->launch = *launch;
    run->prog = prog;
    run->n = n;
    for (unsigned i = 0; i < n; i++) {
        UsseInst *in = &run->inst[i];

        inst_reset(in);
        if (launch->pa && !launch->secondary) {
            memcpy(in->pa, launch->pa + (size_t)i * launch->pa_words,
                   launch->pa_words * 4);
        }
        in->helper = launch->helper && !launch->secondary &&
                     launch->helper[i];
    }
    return run;
}

void usse_run_free(UsseRun *run)
{
    if (run) {
        g_free(run->inst);
        g_free(run);
    }
}

const UsseResult *usse_run_result(const UsseRun *run)
{
    return &run->res;
}

unsigned usse_run_instances(const UsseRun *run)
{
    return run->n;
}

/* Does the instruction read other instances of its quad?  Vertices:
   derivatives only (a vertex SMP has no implicit LOD). */
static bool needs_quad(const UsseRun *run, const UsseInsn *insn)
{
    return is_derivative(insn) ||
           (insn->op == UOP_SMP && run->env.stage == USSE_STAGE_FRAGMENT);
}

/* Run one group (a quad, or one instance) to the end. */
static UsseRunStatus run_group(UsseRun *run, unsigned first, unsigned size)
{
    const UsseProgram *prog = run->prog;
    UsseInst snap[USSE_QUAD];

    for (;;) {
        uint32_t pc = UINT32_MAX;

        for (unsigned i = 0; i < size; i++) {
            UsseInst *in = &run->inst[first + i];
            if (!in->done && in->pc >= prog->n) {
                in->done = true;
            }
            if (!in->done) {
                pc = MIN(pc, in->pc);
            }
        }
        if (pc == UINT32_MAX) {
            return USSE_RUN_DONE;
        }

        const UsseInsn *insn = &prog->insn[pc];
        bool quad = size == USSE_QUAD && needs_quad(run, insn);

        if (run->env.trace &&
            !run->env.trace(run->env.opaque, run, first, pc, insn)) {
            return USSE_RUN_PAUSED;
        }
        if (quad) {
            memcpy(snap, &run->inst[first], sizeof(snap));
        }
        for (unsigned i = 0; i < size; i++) {
            UsseInst *in = &run->inst[first + i];
            UsseCtx c = { .run = run, .in = in, .insn = insn, .lane = i,
                          .snap = quad ? snap : NULL };

            if (in->done || in->pc != pc) {
                continue;
            }
            if (run->env.insn_budget &&
                run->res.insns >= run->env.insn_budget) {
                usse_trap(&c, USSE_ERR_TIMEOUT, "instruction budget of "
                          "%" PRIu64 " used up", run->env.insn_budget);
                return USSE_RUN_TRAP;
            }
            run->res.insns++;
            c.next_pc = pc + 1;
            if (!prog->ok[pc]) {
                usse_trap(&c, USSE_ERR_ILLEGAL, "illegal instruction "
                          "0x%016" PRIx64, insn->word);
                return USSE_RUN_TRAP;
            }
            if (!(in->helper && insn->f[UF_SKIPINV])) {
                /* predicates gate everything but the per-channel ones,
                   which the vector groups apply per channel */
                bool run_it = insn->pred == USSE_PRED_PERCHAN ||
                              usse_pred_mask(in, insn->pred) != 0;
                if (run_it && !exec_one(&c)) {
                    return USSE_RUN_TRAP;
                }
            }
            if (in->done) {
                continue;
            }
            in->pc = c.next_pc;
            if (insn->f[UF_END] && insn->op != UOP_PHAS) {
                in->done = true;
            }
        }
    }
}

/*
 * Instances per group.  Fragments: quads.  Vertices run in quads too
 * when the program takes a derivative: hardware computes a vertex
 * program's DSY from the other vertices of its group of four, the lanes
 * laid out as a fragment quad's (vertex 0, 1 above 2, 3: the
 * vtstmsk_dsy cases); otherwise one at a time.  A last group of fewer
 * than four vertices sees no neighbours (UNVERIFIED: derivative 0).
 */
static unsigned group_size(const UsseRun *run)
{
    if (run->launch.secondary) {
        return 1;
    }
    if (run->env.stage == USSE_STAGE_FRAGMENT || run->prog->derivatives) {
        return USSE_QUAD;
    }
    return 1;
}

UsseRunStatus usse_run_exec(UsseRun *run)
{
    unsigned size = group_size(run);

    if (run->res.status == USSE_RUN_TRAP) {
        return USSE_RUN_TRAP;
    }
    run->res.status = USSE_RUN_DONE;
    while (run->next_group * size < run->n) {
        unsigned first = run->next_group * size;
        UsseRunStatus st = run_group(run, first, MIN(size, run->n - first));
        if (st != USSE_RUN_DONE) {
            run->res.status = st;
            return st;
        }
        run->next_group++;
    }
    return USSE_RUN_DONE;
}

uint32_t usse_run_reg(const UsseRun *run, unsigned inst, UsseBank bank,
                      unsigned num)
{
    const UsseInst *in;

    if (bank == USSE_BANK_SA) {
        return num < run->env.sa_count ? run->env.sa[num] : 0;
    }
    if (inst >= run->n) {
        return 0;
    }
    in = &run->inst[inst];
    switch (bank) {
    case USSE_BANK_TEMP:
        return num < USSE_MAX_REGS ? in->r[num] : 0;
    case USSE_BANK_PA:
        return num < USSE_MAX_REGS ? in->pa[num] : 0;
    case USSE_BANK_OUTPUT:
        return num < USSE_MAX_REGS ? in->o[num] : 0;
    case USSE_BANK_FPI:
        return num < USSE_NUM_FPI * 4 ? in->fpi[num] : 0;
    case USSE_BANK_INDEX:
        return num < 2 ? in->idx[num] : 0;
    default:
        return 0;
    }
}

bool usse_run_pred(const UsseRun *run, unsigned inst, unsigned p)
{
    return inst < run->n && p < USSE_NUM_PREDS && run->inst[inst].p[p];
}

bool usse_run_killed(const UsseRun *run, unsigned inst)
{
    return inst < run->n && run->inst[inst].killed;
}

bool usse_run_depth(const UsseRun *run, unsigned inst, float *depth)
{
    if (inst >= run->n || !run->inst[inst].has_depth) {
        return false;
    }
    *depth = run->inst[inst].depth;
    return true;
}
