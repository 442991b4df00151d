/*
 * Tesla disassembler: envydis text from the opcode tables.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

static uint64_t insn_bits(const uint32_t *code, size_t nwords, size_t idx)
{
    uint64_t bits = idx < nwords ? code[idx] : 0;

    if ((bits & 1) && idx + 1 < nwords) {
        bits |= (uint64_t)code[idx + 1] << 32;
    }
    return bits;
}

int tesla_disasm(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                 size_t nwords, uint32_t addr, GString *out, bool *clean)
{
    size_t idx = addr / 4;
    bool incomplete;
    TeslaWalk res;

    tesla_walk(v, p, insn_bits(code, nwords, idx), NULL, out, &res);
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

/* One listing line; @marks are the TESLA_MARK_* of this address. */
static int disasm_line(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                       size_t nwords, uint32_t addr, uint32_t base,
                       unsigned marks, GString *out)
{
    size_t idx = addr / 4;
    uint32_t w0 = idx < nwords ? code[idx] : 0;
    unsigned len = (w0 & 1) ? 2 : 1;

    /* envydis: address, two word columns (blank for a short insn), two
       spaces, the C (call target) and B (branch target) marks, a space */
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
    g_string_append_printf(out, "  %c%c ",
                           (marks & TESLA_MARK_C) ? 'C' : ' ',
                           (marks & TESLA_MARK_B) ? 'B' : ' ');
    return tesla_disasm(v, p, code, nwords, addr, out, NULL);
}

int tesla_disasm_line(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                      size_t nwords, uint32_t addr, uint32_t base,
                      GString *out)
{
    return disasm_line(v, p, code, nwords, addr, base, 0, out);
}

void tesla_disasm_listing(TeslaVariant v, TeslaProgType p,
                          const uint32_t *code, size_t nwords, uint32_t base,
                          GString *out)
{
    g_autofree uint8_t *marks = g_new0(uint8_t, nwords + 1);
    TeslaWalk res;

    /* First pass, as envydis does: mark every branch and call target that
       lies inside the listing (addresses count from @base). */
    for (size_t idx = 0; idx < nwords; idx += res.len / 4) {
        tesla_walk(v, p, insn_bits(code, nwords, idx), NULL, NULL, &res);
        if (res.target_mark && res.target >= base &&
            res.target - base < nwords * 4) {
            marks[(res.target - base) / 4] |= res.target_mark;
        }
    }
    for (size_t idx = 0; idx < nwords;) {
        /* a call target starts a new paragraph */
        if (marks[idx] & TESLA_MARK_C) {
            g_string_append_c(out, '\n');
        }
        idx += disasm_line(v, p, code, nwords, idx * 4, base, marks[idx],
                           out);
        g_string_append_c(out, '\n');
    }
}
