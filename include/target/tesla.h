/*
 * Tesla (G80-family) shader ISA: the public interface of target/tesla/.
 *
 * target/ knows nothing of hw/: the card (hw/nv50/gr/) and the tools hand a
 * shader core its code and memory spaces through TeslaEnv (see
 * target/tesla/exec.h) and read its results back.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_H
#define TARGET_TESLA_H

#include "gemu/osdep.h"

/* ISA variants, in the order envydis knows them (-V). */
typedef enum TeslaVariant {
    TESLA_G80,
    TESLA_G84,      /* SM11: brkpt, new bar, g[] atomics, ld s[] */
    TESLA_G200,     /* SM12 + FP64: s[] lock, vote, 64-bit atomics, f64 */
    TESLA_MCP77,    /* SM12 without FP64 */
    TESLA_GT215,    /* SM12 + D3D10.1: $sampleid, texprep cube, ... */
    TESLA_NUM_VARIANTS
} TeslaVariant;

/* Feature bits of a variant (tesla_variant_features()). */
#define TESLA_F_SM11      (1u << 0)
#define TESLA_F_SM12      (1u << 1)
#define TESLA_F_FP64      (1u << 2)
#define TESLA_F_D3D10_1   (1u << 3)

/* Program types: what some encodings mean depends on them. */
typedef enum TeslaProgType {
    TESLA_PROG_VP,      /* vertex */
    TESLA_PROG_GP,      /* geometry */
    TESLA_PROG_FP,      /* fragment */
    TESLA_PROG_CP,      /* compute */
    TESLA_NUM_PROGS
} TeslaProgType;

bool tesla_variant_parse(const char *name, TeslaVariant *v);
const char *tesla_variant_name(TeslaVariant v);
uint32_t tesla_variant_features(TeslaVariant v);
/* Accepts vp/gp/fp/cp and vertex/geometry/fragment/compute. */
bool tesla_prog_parse(const char *name, TeslaProgType *p);
const char *tesla_prog_name(TeslaProgType p);   /* "vp", ... */
/* The accepted names, for messages: "g80, g84, ..." */
const char *tesla_variant_list(void);
const char *tesla_prog_list(void);

/*
 * Errors a Tesla MP reports.  The values are bit numbers of the MP's
 * DECODE_ERROR register (rnndb graph/g80_pgraph/mp.xml) for decode errors;
 * run-time errors (ERROR_CODE register) start at TESLA_ERR_RUNTIME.
 */
typedef enum TeslaError {
    TESLA_ERR_NONE = -1,
    TESLA_ERR_TRAP_INSTRUCTION = 0,
    TESLA_ERR_ILLEGAL_OPCODE = 1,
    TESLA_ERR_UNALIGNED_LONG_INSTRUCTION = 8,
    TESLA_ERR_ILLEGAL_POSTINCR = 9,
    TESLA_ERR_LD_A_ST_O_NON_VP_GP = 10,
    TESLA_ERR_INTERP_NON_FP = 14,
    TESLA_ERR_EMIT_NON_GP = 15,
    TESLA_ERR_ILLEGAL_MEMORY_BYTE = 23,
    TESLA_ERR_ILLEGAL_MEMORY_SIGN = 24,
    TESLA_ERR_ILLEGAL_MEMORY_SIZE = 25,
    /* ERROR_CODE bits, offset by TESLA_ERR_RUNTIME */
    TESLA_ERR_RUNTIME = 64,
    TESLA_ERR_STACK_UNDERFLOW = TESLA_ERR_RUNTIME + 0,
    TESLA_ERR_STACK_MISMATCH = TESLA_ERR_RUNTIME + 1,
    TESLA_ERR_QUADON_ACTIVE = TESLA_ERR_RUNTIME + 2,
    TESLA_ERR_TIMEOUT = TESLA_ERR_RUNTIME + 3,
    TESLA_ERR_BREAKPOINT = TESLA_ERR_RUNTIME + 6,
    /* Faults outside the MP: a memory access the space does not back. */
    TESLA_ERR_MEMORY_FAULT = 128,
} TeslaError;

const char *tesla_error_name(TeslaError e);

/*
 * Disassembly in envydis syntax (target/tesla/dis.c).  @addr is the byte
 * address of the instruction in @code (@nwords words from address 0).
 * tesla_disasm appends the instruction text, with envydis' markers for
 * what it cannot explain ("???", " [unknown: ...]", " [incomplete]",
 * " [unknown instruction]", " [unknown operand]"), and returns the words
 * it takes (1 or 2).  *clean (may be NULL) is set when there is no marker.
 */
int tesla_disasm(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                 size_t nwords, uint32_t addr, GString *out, bool *clean);
/* One envydis listing line (no newline): address + @base, words, text. */
int tesla_disasm_line(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                      size_t nwords, uint32_t addr, uint32_t base,
                      GString *out);
/*
 * A whole listing, one line per instruction as envydis prints it: branch
 * and call targets inside the listing marked B and C, and a blank line
 * before each call target.
 */
void tesla_disasm_listing(TeslaVariant v, TeslaProgType p,
                          const uint32_t *code, size_t nwords, uint32_t base,
                          GString *out);

/*
 * Assembly of envydis syntax (target/tesla/asm.c): one instruction per
 * line, "label:" definitions, "//" and C block comments, branch targets
 * as numbers or labels, an optional "long" prefix forcing the 8-byte form.
 * Returns true and appends the words to @words (a GArray of uint32_t);
 * false with *err (g_free it) naming the line ("line N: ...").
 */
bool tesla_assemble(TeslaVariant v, TeslaProgType p, const char *src,
                    GArray *words, char **err);
/* One instruction at byte address @addr: returns 1 or 2 words, 0 on error. */
int tesla_assemble_insn(TeslaVariant v, TeslaProgType p, const char *line,
                        uint32_t addr, uint32_t out[2], char **err);

#endif
