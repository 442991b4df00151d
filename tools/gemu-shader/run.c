/*
 * gemu-shader: a Tesla state file on the bare interpreter (run.h): the
 * launch built from the state, the run, the trap and the dumps printed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "print.h"
#include "run.h"
#include "target/tesla/exec.h"

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

/* --trace: one line per warp instruction, before it runs. */
static bool trace_insn(void *opaque, TeslaRun *run, TeslaWarp *warp,
                       const TeslaInsn *insn)
{
    const ShaderState *s = opaque;
    g_autoptr(GString) line = g_string_new(NULL);

    (void)run;
    tesla_disasm_line(s->chip, s->stage, s->code, s->code_words, insn->addr,
                      0, line);
    if (s->stage == TESLA_PROG_CP) {
        unsigned per_block = s->block[0] * s->block[1] * s->block[2];

        fprintf(stderr, "trace: block %u warp %u [0x%08x] %s\n",
                tesla_warp_first_thread(warp) / per_block,
                tesla_warp_index(warp), tesla_warp_active(warp), line->str);
    } else {
        fprintf(stderr, "trace: warp %u [0x%08x] %s\n",
                tesla_warp_index(warp), tesla_warp_active(warp), line->str);
    }
    return true;
}

/* The buffers a launch points into; freed after the run. */
typedef struct LaunchBufs {
    uint32_t *in;
    uint32_t *p;
    uint8_t *shared_init;
} LaunchBufs;

static bool build_launch(const ShaderState *s, TeslaEnv *env,
                         TeslaLaunch *launch, LaunchBufs *bufs, char **errp)
{
    bool keep_regs = false;
    uint32_t out_bytes = 0x400;

    memset(env, 0, sizeof(*env));
    memset(launch, 0, sizeof(*launch));
    env->variant = s->chip;
    env->prog = s->stage;
    env->code = s->code;
    env->code_words = s->code_words;
    for (int i = 0; i < TESLA_NUM_CSPACES; i++) {
        env->c[i].data = s->cspace[i];
        env->c[i].size = s->cspace_size[i];
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        env->g[i].data = s->g[i].data;
        env->g[i].size = s->g[i].size;
    }
    env->gprs = s->gprs;
    env->local_bytes = s->local;

    for (guint i = 0; i < s->dumps->len; i++) {
        const ShaderDump *d = &g_array_index(s->dumps, ShaderDump, i);

        if (d->kind == SHADER_DUMP_REG) {
            keep_regs = true;
        } else if (d->kind == SHADER_DUMP_OUT) {
            out_bytes = MAX(out_bytes, d->end);
        }
    }
    launch->keep_regs = keep_regs;

    if (s->stage == TESLA_PROG_CP) {
        uint32_t user = s->shared - SHADER_SHARED_HEADER;

        env->shared_bytes = s->shared;
        memcpy(launch->block, s->block, sizeof(launch->block));
        memcpy(launch->grid, s->grid, sizeof(launch->grid));
        if (s->swords->len) {
            bufs->shared_init = g_malloc0(user);
            for (guint i = 0; i < s->swords->len; i++) {
                const ShaderWord *w = &g_array_index(s->swords, ShaderWord,
                                                     i);
                uint32_t a = w->addr - SHADER_SHARED_HEADER;

                bufs->shared_init[a] = w->value;
                bufs->shared_init[a + 1] = w->value >> 8;
                bufs->shared_init[a + 2] = w->value >> 16;
                bufs->shared_init[a + 3] = w->value >> 24;
            }
            launch->shared_init = bufs->shared_init;
            launch->shared_init_bytes = user;
        }
        return true;
    }

    launch->threads = s->threads;
    if (s->stage == TESLA_PROG_VP || s->stage == TESLA_PROG_GP) {
        launch->out_words = out_bytes / 4;
    }
    if (s->inputs->len) {
        unsigned words = 0;
        uint64_t total;

        for (guint i = 0; i < s->inputs->len; i++) {
            const ShaderThreadWord *w =
                &g_array_index(s->inputs, ShaderThreadWord, i);
            words = MAX(words, w->addr / 4 + 1);
        }
        total = (uint64_t)words * s->threads;
        bufs->in = g_try_new0(uint32_t, total);
        if (!bufs->in) {
            *errp = g_strdup_printf("%s: inputs of %u threads x %u words do "
                                    "not fit in memory", s->path, s->threads,
                                    words);
            return false;
        }
        /* In file order, so that a later line wins over "thread all". */
        for (guint i = 0; i < s->inputs->len; i++) {
            const ShaderThreadWord *w =
                &g_array_index(s->inputs, ShaderThreadWord, i);

            if (w->thread == UINT32_MAX) {
                for (unsigned t = 0; t < s->threads; t++) {
                    bufs->in[(uint64_t)t * words + w->addr / 4] = w->value;
                }
            } else {
                bufs->in[(uint64_t)w->thread * words + w->addr / 4] =
                    w->value;
            }
        }
        launch->in = bufs->in;
        launch->in_words = words;
    }
    if (s->pwords->len) {
        unsigned words = 0;

        for (guint i = 0; i < s->pwords->len; i++) {
            words = MAX(words,
                        g_array_index(s->pwords, ShaderWord, i).addr / 4 + 1);
        }
        bufs->p = g_new0(uint32_t, words);
        for (guint i = 0; i < s->pwords->len; i++) {
            const ShaderWord *w = &g_array_index(s->pwords, ShaderWord, i);
            bufs->p[w->addr / 4] = w->value;
        }
        launch->p = bufs->p;
        launch->p_words = words;
    }
    return true;
}

static void print_out_words(const uint32_t *out, unsigned out_words,
                            const ShaderDump *d, const char *prefix)
{
    for (uint32_t a = d->start; a < d->end; a += 4) {
        uint32_t v = out && a / 4 < out_words ? out[a / 4] : 0;
        printf("%so[0x%x] = 0x%08x\n", prefix, a, v);
    }
}

static void print_dump(const ShaderState *s, const TeslaRun *run,
                       const TeslaLaunch *launch, const ShaderDump *d)
{
    unsigned threads = tesla_run_threads(run);

    switch (d->kind) {
    case SHADER_DUMP_REG:
        for (unsigned t = 0; t < threads; t++) {
            if (tesla_run_killed(run, t)) {
                continue;
            }
            for (uint32_t r = d->start; r <= d->end; r++) {
                printf("thread %u $r%u = 0x%08x\n", t, r,
                       tesla_run_reg(run, t, r));
            }
        }
        break;
    case SHADER_DUMP_OUT:
        if (s->stage == TESLA_PROG_GP) {
            unsigned count;
            const TeslaEmitRec *e = tesla_run_emits(run, &count);

            for (unsigned i = 0; i < count; i++) {
                g_autofree char *prefix =
                    g_strdup_printf("emit %u thread %u ", i, e[i].thread);

                if (e[i].restart) {
                    printf("emit %u thread %u restart\n", i, e[i].thread);
                }
                print_out_words(e[i].out, launch->out_words, d, prefix);
            }
        }
        for (unsigned t = 0; t < threads; t++) {
            g_autofree char *prefix = g_strdup_printf("thread %u ", t);

            if (tesla_run_killed(run, t)) {
                continue;
            }
            print_out_words(tesla_run_out(run, t), launch->out_words, d,
                            prefix);
        }
        break;
    case SHADER_DUMP_GLOBAL:
        shader_print_global(d, s->g[d->idx].data + d->start);
        break;
    }
}

int shader_run(const ShaderState *s, uint64_t max_insns, bool trace)
{
    g_autofree char *err = NULL;
    TeslaEnv env;
    TeslaLaunch launch;
    LaunchBufs bufs = { 0 };
    TeslaRun *run;
    const TeslaResult *res;
    int status;

    if (!build_launch(s, &env, &launch, &bufs, &err)) {
        fprintf(stderr, "gemu-shader: %s\n", err);
        status = EXIT_BAD;
        goto out;
    }
    env.insn_budget = max_insns;
    if (trace) {
        env.trace = trace_insn;
        env.opaque = (void *)s;
    }
    run = tesla_run_new(&env, &launch, &err);
    if (!run) {
        fprintf(stderr, "gemu-shader: %s: %s\n", s->path, err);
        status = EXIT_BAD;
        goto out;
    }

    status = EXIT_RAN;
    if (tesla_run_exec(run) != TESLA_RUN_DONE) {
        res = tesla_run_result(run);
        unsigned warp = res->warp;

        if (s->stage == TESLA_PROG_CP) {
            /* Warps numbered across the launch, like threads. */
            unsigned per_block = s->block[0] * s->block[1] * s->block[2];

            warp += res->block * DIV_ROUND_UP(per_block, TESLA_WARP_SIZE);
        }
        shader_print_trap(res->error, res->pc, warp);
        fflush(stdout);
        if (s->stage == TESLA_PROG_CP) {
            fprintf(stderr, "gemu-shader: trap in block %u, its warp %u%s%s\n",
                    res->block, res->warp, res->msg[0] ? ": " : "", res->msg);
        } else if (res->msg[0]) {
            fprintf(stderr, "gemu-shader: %s\n", res->msg);
        }
        status = EXIT_TRAP;
    }
    for (unsigned t = 0; t < tesla_run_threads(run); t++) {
        if (tesla_run_killed(run, t)) {
            printf("thread %u killed\n", t);
        }
    }
    for (guint i = 0; i < s->dumps->len; i++) {
        print_dump(s, run, &launch, &g_array_index(s->dumps, ShaderDump, i));
    }
    tesla_run_free(run);

out:
    g_free(bufs.in);
    g_free(bufs.p);
    g_free(bufs.shared_init);
    return status;
}
