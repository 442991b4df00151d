/*
 * The Tesla assembler (gemu-as): the first byte picks the variant and
 * program type, the rest is the source text.  What assembles is
 * disassembled again (the listing must not fail on the assembler's
 * own output).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "target/tesla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TeslaVariant var;
    TeslaProgType prog;
    g_autofree char *src = NULL;
    g_autofree char *err = NULL;
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));

    if (!size) {
        return 0;
    }
    var = data[0] % TESLA_NUM_VARIANTS;
    prog = (data[0] / TESLA_NUM_VARIANTS) % TESLA_NUM_PROGS;
    src = fuzz_text(data + 1, size - 1);
    if (!src) {
        return 0;
    }
    if (tesla_assemble(var, prog, src, words, &err)) {
        g_autoptr(GString) out = g_string_new(NULL);

        tesla_disasm_listing(var, prog, (uint32_t *)words->data, words->len,
                             0, out);
    } else if (!err || strncmp(err, "line ", 5)) {
        fprintf(stderr, "error without a line: %s\n", err ? err : "(none)");
        abort();
    }
    return 0;
}
