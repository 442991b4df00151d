/*
 * The GXP reader (block/gxp.c): the input is the file.  A program that
 * parses is disassembled (its code words must lie where the header
 * said, which ASan checks).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "block/gxp.h"
#include "target/usse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GxpProgram prog;
    g_autofree char *err = NULL;
    g_autoptr(GString) out = g_string_new(NULL);

    (void)gxp_is_gxp(data, size);
    if (!gxp_parse(data, size, &prog, &err)) {
        if (!err) {
            fprintf(stderr, "gxp_parse failed without a message\n");
            abort();
        }
        return 0;
    }
    for (uint32_t i = 0; i < prog.primary_count; i++) {
        usse_disasm_line(i, prog.primary[i], out);
    }
    for (uint32_t i = 0; i < prog.secondary_count; i++) {
        usse_disasm_line(i, prog.secondary[i], out);
    }
    for (uint32_t i = 0; i < prog.nparams; i++) {
        g_string_append(out, prog.params[i].name ? prog.params[i].name : "");
    }
    gxp_program_clear(&prog);
    return 0;
}
