/*
 * USSE decode + disassemble (gemu-dis -m usse): the input is 64-bit
 * little-endian instruction words; every one that disassembles must
 * assemble again to the same word (the round trip test-usse-isa.c
 * checks on random words).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "target/usse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    g_autoptr(GString) line = g_string_new(NULL);

    while (in.left >= 8) {
        uint64_t w = fuzz_take(&in, 4);
        uint64_t back = 0;
        UsseInsn insn;

        w |= (uint64_t)fuzz_take(&in, 4) << 32;
        g_string_truncate(line, 0);
        usse_disasm_line(in.left / 8, w, line);
        (void)usse_decode(w, &insn);
        g_string_truncate(line, 0);
        if (usse_disasm(w, line)) {
            g_autofree char *err = NULL;

            if (!usse_assemble_insn(line->str, &back, &err) || back != w) {
                fprintf(stderr, "%016" PRIx64 " \"%s\" assembles to "
                        "%016" PRIx64 " %s\n", w, line->str, back,
                        err ? err : "");
                abort();
            }
        }
    }
    return 0;
}
