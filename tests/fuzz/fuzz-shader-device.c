/*
 * gemu-shader --device (tools/gemu-shader/device.c): the input is a
 * state file; one that parses and that --device accepts
 * (shader_device_check) runs on the in-process G84 through its channel,
 * the compute and M2MF classes, with the card's launches bounded by
 * FUZZ_SHADER_DEVICE_BUDGET warp-instructions together
 * (nv50_engine_set_insn_budget: past it the MP traps with TIMEOUT).  The
 * tool maps VRAM for every gK declared: inputs declaring more than
 * FUZZ_SHADER_DEVICE_G bytes in all are only parsed and checked, since a
 * card is made (and cleared) for every input.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "tools/gemu-shader/device.h"
#include "tools/gemu-shader/usse.h"

#define FUZZ_SHADER_DEVICE_BUDGET   100000u
#define FUZZ_SHADER_DEVICE_G        (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size);
    g_autofree char *err = NULL;
    g_autofree char *refused = NULL;
    uint64_t g = 0;
    ShaderState *s;

    fuzz_quiet();
    if (!text || shader_text_is_usse(text)) {
        return 0;
    }
    s = shader_state_parse("fuzz.state", text, size, &err);
    if (!s) {
        return 0;
    }
    refused = shader_device_check(s);
    if (refused && !g_str_has_prefix(refused, "fuzz.state:")) {
        fprintf(stderr, "--device refusal not naming the file: %s\n",
                refused);
        abort();
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        g += s->g[i].line ? s->g[i].size : 0;
    }
    if (!refused && g <= FUZZ_SHADER_DEVICE_G) {
        shader_device_run(s, FUZZ_SHADER_DEVICE_BUDGET);
    }
    shader_state_free(s);
    return 0;
}
