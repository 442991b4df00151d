/*
 * USSE (PowerVR SGX543 "USSE2") shader ISA: the public interface of
 * target/usse/.  Instructions are 64-bit words (bit 63 = MSB, word 1 =
 * bits 63:32); a program counter counts instructions.
 *
 * One set of opcode tables (target/usse/tables.c) drives decoding,
 * disassembly and assembly; see docs/devel/usse-isa.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_H
#define TARGET_USSE_H

#include "gemu/osdep.h"
#include "target/usse/insn.h"

/*
 * Decode @word into @insn.  Returns false (insn->op == UOP_INVALID) for a
 * word no table form matches; insn->unknown holds set bits no field
 * explains (the word still decodes).
 */
bool usse_decode(uint64_t word, UsseInsn *insn);

/*
 * Append the text of @word (no address, no newline) to @out: either the
 * instruction, or "??? 0x<word>".  Returns false for "???".
 */
bool usse_disasm(uint64_t word, GString *out);

/* One listing line: "PPPPP: WWWWWWWWWWWWWWWW  text" (PC in instructions). */
void usse_disasm_line(uint32_t pc, uint64_t word, GString *out);

/*
 * Assemble one instruction's text (what usse_disasm prints; "??? 0xW" and
 * ".word 0xW" give the word itself).  On failure, *err (g_free) says why.
 */
bool usse_assemble_insn(const char *text, uint64_t *word, char **err);

/*
 * Assemble a source file into @words (GArray of uint64_t), one
 * instruction a line.  Accepts listing lines ("PPPPP: WORD  text": the
 * address and word are skipped), comments ("//", ";" and lines starting
 * with "#") and blank lines.  *err is "line N: message".
 */
bool usse_assemble(const char *src, GArray *words, char **err);

const char *usse_op_name(UsseOp op);
const char *usse_bank_name(UsseBank b);     /* "r", "pa", ... */

#endif
