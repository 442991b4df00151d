/*
 * Tesla decode + disassemble (gemu-dis): the first byte picks the variant
 * and program type, the rest are little-endian code words.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "target/tesla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint32_t sel = fuzz_take(&in, 1);
    TeslaVariant var = sel % TESLA_NUM_VARIANTS;
    TeslaProgType prog = (sel / TESLA_NUM_VARIANTS) % TESLA_NUM_PROGS;
    size_t n = in.left / 4;
    g_autofree uint32_t *w = g_new0(uint32_t, n + 1);
    g_autoptr(GString) out = g_string_new(NULL);

    for (size_t i = 0; i < n; i++) {
        w[i] = fuzz_take(&in, 4);
    }
    tesla_disasm_listing(var, prog, w, n, sel & 0x80 ? 0x1000 : 0, out);
    return 0;
}
