/*
 * The Tesla assembler's pieces (asm.c drives them): a line's tokens
 * (asm-lex.c), the search of the opcode tables for an encoding that
 * consumes them (asm-match.c).  Private to target/tesla/asm*.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_ASM_INT_H
#define TARGET_TESLA_ASM_INT_H

#include "target/tesla/opcodes.h"

#define MAX_TOKS 48
#define MAX_VEC 8
#define STEP_LIMIT 2000000

typedef enum {
    K_NAME, K_OPEN, K_CLOSE, K_REG, K_NUM, K_MEM, K_VEC, K_DISCARD, K_ZVEC,
} TokKind;

typedef struct AsmTok {
    uint8_t kind;
    char name[32];          /* K_NAME */
    uint8_t rk;             /* K_REG: TeslaRegKind */
    bool named;             /* K_REG: $physid etc. rather than $srN */
    int64_t rnum;           /* K_REG: field value ($rNh: N * 2 + 1) */
    int64_t val;            /* K_NUM */
    /* K_MEM */
    uint8_t space;
    int idx;                /* -1: none */
    bool has_reg;
    uint8_t mrk;
    int64_t mreg;
    bool postinc;
    int64_t off;
    /* K_VEC */
    int nvec;
    int16_t vec[MAX_VEC];   /* register, -1 for "#" */
} AsmTok;

typedef struct AsmLine {
    AsmTok tok[MAX_TOKS];
    int ntok;
    bool force_long;
} AsmLine;

typedef struct AsmCtx {
    TeslaVariant var;
    TeslaProgType prog;
    uint32_t feat;
    unsigned progbit;
    const AsmLine *line;
    GHashTable *labels;     /* name -> byte address + 1 (NULL: none) */
    bool lenient;           /* first pass: unknown labels are 0 */
    long steps;
    bool found;
    uint64_t result;
} AsmCtx;

/* A character of a name, label or mnemonic */
static inline bool tesla_asm_is_id(int c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '.';
}

/* asm-lex.c: @s quoted for a message; a line's tokens (false with a
   message in *err); an instruction's, a leading "long" taken as a hint */
char *tesla_asm_quote(const char *s);
bool tesla_asm_tokenize(const char *s, AsmLine *l, char **err);
bool tesla_asm_prepare(const char *text, AsmLine *l, char **err);

/* asm-match.c: a context for variant @v and program type @p; one line's
   words (how many: 1, 2, or 0 when no encoding fits); the message for
   a line with none */
void tesla_asm_ctx_init(AsmCtx *c, TeslaVariant v, TeslaProgType p);
int tesla_asm_line(AsmCtx *c, const AsmLine *l, uint32_t out[2]);
char *tesla_asm_no_encoding(AsmCtx *c, const char *text);

#endif
