/*
 * gemu-shader: run one Tesla program (or, with "chip sgx543", one USSE
 * program: usse.c) with the inputs a state file gives, and print the
 * state it asks for; with --device, a compute program on the in-process
 * G84 instead (device.c).  docs/tools/gemu-shader.md is the user's
 * reference; state.c reads the state file, print.c prints what both
 * ways of running share.
 *
 * Exit status: 0 the program ran to exit, 1 it trapped (the trap is the
 * first line printed), 2 bad usage or a bad state file.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "device.h"
#include "print.h"
#include "state.h"
#include "usse.h"
#include "target/tesla/exec.h"

enum {
    EXIT_RAN = 0,
    EXIT_TRAP = 1,
    EXIT_BAD = 2,
};

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

/* About a second of plain ALU code at interpreter speed. */
#define DEFAULT_MAX_INSNS 100000000ull

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gemu-shader [OPTIONS] STATE-FILE\n"
        "Run one Tesla or USSE (chip sgx543) shader program as STATE-FILE\n"
        "describes ('-': stdin) and print the state it dumps.\n"
        "\n"
        "  --max-insns N  stop with a TIMEOUT trap after N warp-instructions\n"
        "                 (default %llu; 0: no limit)\n"
        "  --trace        print every warp instruction to stderr as it "
        "issues\n"
        "  --device       run a compute program on the in-process G84\n"
        "                 (channel, compute class, M2MF) instead of the\n"
        "                 bare interpreter; no --trace, --max-insns\n"
        "  -h, --help     this text\n"
        "\n"
        "Exit status: 0 the program ran to exit, 1 it trapped,\n"
        "2 bad usage or a bad state file.  See docs/tools/gemu-shader.md.\n",
        DEFAULT_MAX_INSNS);
}

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

int main(int argc, char **argv)
{
    g_autofree char *err = NULL;
    uint64_t max_insns = DEFAULT_MAX_INSNS;
    bool trace = false, device = false, max_insns_given = false;
    const char *path = NULL;
    ShaderState *s;
    TeslaEnv env;
    TeslaLaunch launch;
    LaunchBufs bufs = { 0 };
    TeslaRun *run;
    const TeslaResult *res;
    int status;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return EXIT_RAN;
        } else if (!strcmp(a, "--trace")) {
            trace = true;
        } else if (!strcmp(a, "--device")) {
            device = true;
        } else if (!strcmp(a, "--max-insns") ||
                   g_str_has_prefix(a, "--max-insns=")) {
            const char *v = strchr(a, '=') ? strchr(a, '=') + 1 : argv[++i];
            char *end;

            if (!v || !*v || !g_ascii_isdigit(*v)) {
                fprintf(stderr, "gemu-shader: --max-insns needs a count\n");
                return EXIT_BAD;
            }
            errno = 0;
            if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
                max_insns = g_ascii_strtoull(v + 2, &end, 16);
            } else {
                max_insns = g_ascii_strtoull(v, &end, 10);
            }
            if (*end || errno) {
                fprintf(stderr, "gemu-shader: bad --max-insns count '%s'\n",
                        v);
                return EXIT_BAD;
            }
            max_insns_given = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "gemu-shader: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_BAD;
        } else if (path) {
            fprintf(stderr, "gemu-shader: one state file only ('%s' and "
                    "'%s')\n", path, a);
            return EXIT_BAD;
        } else {
            path = a;
        }
    }
    if (!path) {
        usage(stderr);
        return EXIT_BAD;
    }
    if (device && (trace || max_insns_given)) {
        /* the compute class runs a launch to its end, unseen */
        fprintf(stderr, "gemu-shader: --device cannot %s\n",
                trace ? "--trace (the card runs a launch to its end)"
                      : "--max-insns (the compute class has no budget)");
        return EXIT_BAD;
    }

    {
        g_autofree char *text = NULL;
        size_t len = 0;

        text = shader_read_input(path, &len, &err);
        if (!text) {
            fprintf(stderr, "gemu-shader: %s\n", err);
            return EXIT_BAD;
        }
        if (strlen(text) == len && shader_text_is_usse(text)) {
            if (device) {
                fprintf(stderr, "gemu-shader: %s: --device runs Tesla "
                        "compute programs, not chip sgx543\n", path);
                return EXIT_BAD;
            }
            return usse_shader_main(path, text, len, max_insns, trace);
        }
        s = shader_state_parse(path, text, len, &err);
    }
    if (!s) {
        fprintf(stderr, "gemu-shader: %s\n", err);
        return EXIT_BAD;
    }
    if (device) {
        err = shader_device_check(s);
        status = err ? EXIT_BAD : shader_device_run(s);
        if (err) {
            fprintf(stderr, "gemu-shader: %s\n", err);
        }
        shader_state_free(s);
        return status;
    }
    if (!build_launch(s, &env, &launch, &bufs, &err)) {
        fprintf(stderr, "gemu-shader: %s\n", err);
        shader_state_free(s);
        return EXIT_BAD;
    }
    env.insn_budget = max_insns;
    if (trace) {
        env.trace = trace_insn;
        env.opaque = s;
    }
    run = tesla_run_new(&env, &launch, &err);
    if (!run) {
        fprintf(stderr, "gemu-shader: %s: %s\n", path, err);
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
    shader_state_free(s);
    return status;
}
