/*
 * Tesla disassembler: envydis text from the opcode tables.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

int tesla_disasm(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                 size_t nwords, uint32_t addr, GString *out, bool *clean)
{
    size_t idx = addr / 4;
    uint64_t bits = idx < nwords ? code[idx] : 0;
    bool incomplete;
    TeslaWalk res;

    if ((bits & 1) && idx + 1 < nwords) {
        bits |= (uint64_t)code[idx + 1] << 32;
    }
    tesla_walk(v, p, bits, NULL, out, &res);
    incomplete = idx + res.len / 4 > nwords;
    if (res.unknown) {
        g_string_append(out, " [unknown:");
        for (unsigned i = 0; i < res.len / 4; i++) {
            if (idx + i >= nwords) {
                g_string_append(out, " ????????");
            } else {
                g_string_append_printf(out, " %08x",
                                       (uint32_t)(res.unknown >> (32 * i)));
            }
        }
        g_string_append_c(out, ']');
    }
    if (incomplete) {
        g_string_append(out, " [incomplete]");
    }
    if (res.unk_insn) {
        g_string_append(out, " [unknown instruction]");
    }
    if (res.unk_operand) {
        g_string_append(out, " [unknown operand]");
    }
    if (clean) {
        *clean = !res.unknown && !incomplete && !res.unk_insn &&
                 !res.unk_operand;
    }
    return res.len / 4;
}

int tesla_disasm_line(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                      size_t nwords, uint32_t addr, uint32_t base,
                      GString *out)
{
    size_t idx = addr / 4;
    uint32_t w0 = idx < nwords ? code[idx] : 0;
    unsigned len = (w0 & 1) ? 2 : 1;

    /* envydis: address, two word columns (blank for a short insn),
       two spaces, the C/B target marks (none here), a space */
    g_string_append_printf(out, "%08x:", addr + base);
    for (unsigned i = 0; i < 2; i++) {
        if (i >= len) {
            g_string_append(out, "         ");
        } else if (idx + i >= nwords) {
            g_string_append(out, " ????????");
        } else {
            g_string_append_printf(out, " %08x", code[idx + i]);
        }
    }
    g_string_append(out, "     ");
    return tesla_disasm(v, p, code, nwords, addr, out, NULL);
}
