/*
 * Helpers shared by the USSE decoder and assembler (internal).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_PRIV_H
#define TARGET_USSE_PRIV_H

#include "target/usse/opcodes.h"

/* Bank of each class's (ext, sel); special reads as USSE_BANK_CONST. */
extern const uint8_t usse_bank_map[5][2][4];

/* First temp number that aliases the FP-internal registers. */
unsigned usse_fpi_limit(const UsseOpndDesc *d);

void usse_opnd_decode(const UsseOpndDesc *d, uint64_t w, UsseOperand *o);

#endif
