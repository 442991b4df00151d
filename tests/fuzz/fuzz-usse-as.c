/*
 * The USSE assembler (gemu-as -m usse): the input is the source text.
 * An error names its line; what assembles disassembles again.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "target/usse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *src = fuzz_text(data, size);
    g_autofree char *err = NULL;
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));

    if (!src) {
        return 0;
    }
    if (usse_assemble(src, words, &err)) {
        g_autoptr(GString) out = g_string_new(NULL);

        for (guint i = 0; i < words->len; i++) {
            usse_disasm_line(i, g_array_index(words, uint64_t, i), out);
        }
    } else if (!err || strncmp(err, "line ", 5)) {
        fprintf(stderr, "error without a line: %s\n", err ? err : "(none)");
        abort();
    }
    return 0;
}
