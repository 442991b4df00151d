/*
 * gemu-shader's state files (tools/gemu-shader/state.c, usse.c) and the
 * runs they ask for (run.c, usse.c): the input is a state file, Tesla
 * or "chip sgx543"; one that parses runs on the interpreter with an
 * instruction budget of FUZZ_SHADER_BUDGET (past it the run traps with
 * TIMEOUT, as gemu-shader --max-insns does), its dumps printed to
 * /dev/null.  --device has its own harness (fuzz-shader-device.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "tools/gemu-shader/run.h"
#include "tools/gemu-shader/usse.h"

#define FUZZ_SHADER_BUDGET  100000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size);
    g_autofree char *err = NULL;
    ShaderState *s;

    fuzz_quiet();
    if (!text) {
        return 0;
    }
    if (shader_text_is_usse(text)) {
        usse_shader_main("fuzz.state", text, size, FUZZ_SHADER_BUDGET, false);
        return 0;
    }
    s = shader_state_parse("fuzz.state", text, size, &err);
    if (!s) {
        if (!err || !g_str_has_prefix(err, "fuzz.state")) {
            fprintf(stderr, "state file error not naming the file: %s\n",
                    err ? err : "(none)");
            abort();
        }
        return 0;
    }
    shader_run(s, FUZZ_SHADER_BUDGET, false);
    shader_state_free(s);
    return 0;
}
