/*
 * gemu-shader: run one Tesla program (or, with "chip sgx543", one USSE
 * program: usse.c) with the inputs a state file gives, and print the
 * state it asks for; with --device, a compute program on the in-process
 * G84 instead (device.c).  docs/tools/gemu-shader.md is the user's
 * reference; state.c reads the state file, run.c runs it on the
 * interpreter, print.c prints what both ways of running share.
 *
 * Exit status: 0 the program ran to exit, 1 it trapped (the trap is the
 * first line printed), 2 bad usage or a bad state file.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "device.h"
#include "run.h"
#include "state.h"
#include "usse.h"

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
        "                 bare interpreter (its launches share the\n"
        "                 --max-insns budget); no --trace\n"
        "  -h, --help     this text\n"
        "\n"
        "Exit status: 0 the program ran to exit, 1 it trapped,\n"
        "2 bad usage or a bad state file.  See docs/tools/gemu-shader.md.\n",
        DEFAULT_MAX_INSNS);
}

int main(int argc, char **argv)
{
    g_autofree char *err = NULL;
    uint64_t max_insns = DEFAULT_MAX_INSNS;
    bool trace = false, device = false;
    const char *path = NULL;
    ShaderState *s;
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
    if (device && trace) {
        /* the compute class runs a launch to its end, unseen */
        fprintf(stderr, "gemu-shader: --device cannot --trace (the card "
                "runs a launch to its end)\n");
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
        status = err ? EXIT_BAD : shader_device_run(s, max_insns);
        if (err) {
            fprintf(stderr, "gemu-shader: %s\n", err);
        }
        shader_state_free(s);
        return status;
    }
    status = shader_run(s, max_insns, trace);
    shader_state_free(s);
    return status;
}
