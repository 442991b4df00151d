/*
 * USSE opcode tables: the format shared by decoder, disassembler and
 * assembler (internal to target/usse/).
 *
 * A **form** is one instruction encoding: the bits it fixes (val/mask over
 * the 64-bit word), a mnemonic, an op and a list of **items**.  Each item
 * owns a bit field and says how it is printed and where its value goes in
 * UsseInsn.  The first form whose fixed bits match is taken (tables.c
 * keeps them in that order, per op1 group).  Set bits owned by no item
 * and fixed by no mask are "unknown": shown as "[unk 0x...]" and kept.
 *
 * Text of a form:  [PRED ]MNEMONIC[.SUFFIX...] [LIST, LIST, ...]
 * Items print in three places: mnemonic suffixes (UW_MNEM), list entries
 * (UW_LIST: operands, keys, numbers) and suffixes of the last operand
 * (UW_OPND: masks, swizzles, modifiers).  The assembler walks the same
 * items over the tokens, so every table entry round-trips.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_OPCODES_H
#define TARGET_USSE_OPCODES_H

#include "target/usse/insn.h"

/* A field of up to 5 pieces, low piece first. */
#define USSE_MAX_PIECES 5
typedef struct UsseBits {
    uint8_t n;
    struct {
        uint8_t pos, len;
    } p[USSE_MAX_PIECES];
} UsseBits;

#define B1(p0, l0)                  { 1, { { p0, l0 } } }
#define B2(p0, l0, p1, l1)          { 2, { { p0, l0 }, { p1, l1 } } }
#define B3(p0, l0, p1, l1, p2, l2) \
    { 3, { { p0, l0 }, { p1, l1 }, { p2, l2 } } }
#define B4(p0, l0, p1, l1, p2, l2, p3, l3) \
    { 4, { { p0, l0 }, { p1, l1 }, { p2, l2 }, { p3, l3 } } }
#define B5(p0, l0, p1, l1, p2, l2, p3, l3, p4, l4) \
    { 5, { { p0, l0 }, { p1, l1 }, { p2, l2 }, { p3, l3 }, { p4, l4 } } }
#define NOBITS                      { 0, { { 0, 0 } } }

/* How an operand's bank is selected (sgx543.md §1.7). */
typedef enum UsseBankClass {
    UBC_DEST,       /* 2-bit sel + ext: r o pa xa | sa special idx xb */
    UBC_SRC0,       /* 1-bit sel + ext: r pa | o sa */
    UBC_SRC12,      /* 2-bit sel + ext: r o pa sa | xa special imm xb */
    UBC_GPI,        /* no bank: number is an FP-internal register */
    UBC_TEMP_PA,    /* 1-bit sel: r pa (SMP/LD dest) */
} UsseBankClass;

typedef struct UsseOpndDesc {
    uint8_t cls;        /* UsseBankClass */
    UsseBits bank;      /* bank select (n = 0: select 0) */
    int8_t ext;         /* bank extension bit, -1: none */
    UsseBits num;       /* register number */
    uint8_t dbl;        /* number in 64-bit units */
    uint8_t bits;       /* register-number width for the FP-internal alias */
} UsseOpndDesc;

typedef enum UsseItemKind {
    UI_END = 0,
    UI_PRED,        /* names: predicate table; printed before mnemonic */
    UI_FLAG,        /* 1-bit: ".name" when set */
    UI_ENUM,        /* ".names[v]" ("" = nothing; NULL = invalid word) */
    UI_LIT,         /* ".name", no bits; role/arg: insn field := arg */
    UI_RPT,         /* ".rptN" when N = v + 1 > 1 */
    UI_KEY,         /* "name=v" when v != 0 (decimal) */
    UI_OPND,        /* an operand (desc); role = operand slot */
    UI_MASK,        /* ".xyzw" write mask of the operand ("none" if 0) */
    UI_SWZ,         /* swizzle from a table (names, 2^len entries) */
    UI_SWZ3,        /* swizzle: 3 bits per channel, 4 channels */
    UI_SWZ2,        /* component select: 2 bits per channel, 4 channels */
    UI_NUM,         /* a number as a list entry; arg 1: signed */
    UI_HEX,         /* a 32-bit value "0x%08x" as a list entry */
    UI_PREG,        /* "pN" predicate register as a list entry */
    UI_DUAL,        /* VDUAL: both operations with their operands (dual.c);
                       the bits it uses depend on the operations */
} UsseItemKind;

typedef enum UsseWhere {
    UW_MNEM,
    UW_LIST,
    UW_OPND,
} UsseWhere;

typedef struct UsseItem {
    uint8_t kind;           /* UsseItemKind */
    uint8_t where;          /* UsseWhere */
    uint8_t role;           /* UsseField, or operand slot for UI_OPND */
    uint8_t arg;
    UsseBits bits;
    const char *name;
    const char *const *names;   /* UI_PRED, UI_ENUM, UI_SWZ */
    const uint8_t *vals;        /* UI_PRED: UssePred; UI_ENUM with
                                   role UF_FMT/UF_SFMT: UsseFmt */
    const UsseOpndDesc *opnd;
    uint8_t mod;                /* UI_FLAG/UI_ENUM on an operand: the
                                   USSE_MOD_* it sets (ENUM: 1 neg 2 abs) */
} UsseItem;

#define USSE_MAX_ITEMS 40

typedef struct UsseForm {
    const char *mnem;
    uint16_t op;            /* UsseOp */
    uint64_t val, mask;
    UsseItem items[USSE_MAX_ITEMS];
} UsseForm;

extern const UsseForm usse_forms[];
extern const unsigned usse_nforms;

/*
 * VDUAL (op1 4/5) tables, from Vita3K's decoder (sgx543.md 1.5): the
 * operations, the source slot each operand comes from for (source
 * counts, src_config), the swizzle tables and the field positions.
 */
enum {
    UDS_NONE = 0,   /* no operand */
    UDS_US,         /* the unified-store slot (any bank) */
    UDS_I0, UDS_I1, UDS_I2,     /* FP-internal slots */
};

typedef struct UsseDualOpInfo {
    const char *name;
    uint8_t nsrc;
    uint8_t vload;          /* vector sources (else channel x only) */
    uint8_t vstore;         /* vector result to the unified store */
} UsseDualOpInfo;

typedef struct UsseDualEnc {
    UsseBits vec4, f16, b54, op1, op2, op2ext, prim, cfg;
    UsseBits dgpi, wmask, b15, b14;
    UsseBits usswz, usneg;
    UsseBits g0num, g0swz, g1num, g1swz, g1swzext, g1neg;
} UsseDualEnc;

extern const UsseDualEnc usse_dual_enc;
extern const UsseDualOpInfo usse_dual_ops[UDV_NUM];
extern const int8_t usse_dual_op1_code[16];
extern const int8_t usse_dual_op2_code[16];
extern const uint8_t usse_dual_layout1[4][4][3];        /* [n1][cfg] */
extern const uint8_t usse_dual_layout2[4][4][4][3];     /* [n1][n2][cfg] */
extern const char *const usse_dual_swz4[32];            /* std, then ext */
extern const char *const usse_dual_swz3[32];
extern const UsseOpndDesc usse_dual_dst[2];             /* [vector] */
extern const UsseOpndDesc usse_dual_us[2];              /* [vector] */

/* Field helpers (decode.c). */
uint32_t usse_bits_get(const UsseBits *b, uint64_t word);
uint64_t usse_bits_put(const UsseBits *b, uint64_t word, uint32_t v);
uint64_t usse_bits_mask(const UsseBits *b);
unsigned usse_bits_width(const UsseBits *b);

/* The form a word matches, or NULL. */
const UsseForm *usse_find_form(uint64_t word);

#endif
