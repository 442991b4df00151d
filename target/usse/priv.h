/*
 * Helpers shared by the USSE decoder and assembler (internal).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_PRIV_H
#define TARGET_USSE_PRIV_H

#include "gemu/strsplit.h"
#include "target/usse/opcodes.h"

/* Bank of each class's (ext, sel); special reads as USSE_BANK_CONST. */
extern const uint8_t usse_bank_map[5][2][4];

/* First temp number that aliases the FP-internal registers. */
unsigned usse_fpi_limit(const UsseOpndDesc *d);

void usse_opnd_decode(const UsseOpndDesc *d, uint64_t w, UsseOperand *o);

/* Operand text: "r4", "pa[idx0+3]", "c12", "#5", ... */
void usse_opnd_print(GString *s, const UsseOperand *o);

/* Swizzle text of table entry @v (".sN" when an earlier entry is equal). */
void usse_swz_print(GString *s, const char *const *tab, unsigned v);

/*
 * Encode operand text @tok ("r4", "i1", "pa[idx1+2]", ...) into the
 * descriptor's fields of *w.  false with *why set on an error.
 */
bool usse_asm_opnd(const UsseOpndDesc *d, const char *tok, uint64_t *w,
                   const char **why);


/* VDUAL (dual.c): decode/print the body after the mnemonic; *used gets
   the bits the operations use.  false: an invalid combination. */
bool usse_dual_decode(uint64_t w, UsseInsn *insn, GString *out,
                      uint64_t *used);
/* Assemble the body text into *w (which holds the mnemonic's fields). */
bool usse_dual_assemble(const char *text, uint64_t *w, const char **why);

#endif
