/*
 * The pre-decoded form of one USSE (SGX543) instruction.
 *
 * The contract between the decoder (decode.c walking the opcode tables of
 * tables.c) and an interpreter.  Every field an instruction has lands in
 * raw form in f[] (indexed by UsseField), and the common things an
 * interpreter needs on every instruction are pre-digested into typed
 * members: predicate, repeat count, operands with bank, 32-bit register
 * index, swizzle and modifiers.  Decode once per code address and cache.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_USSE_INSN_H
#define TARGET_USSE_INSN_H

#include "gemu/osdep.h"

/* Register banks, after the bank-select/extension decode (sgx543.md §1.7). */
typedef enum UsseBank {
    USSE_BANK_NONE = 0,     /* operand absent */
    USSE_BANK_TEMP,         /* r */
    USSE_BANK_OUTPUT,       /* o */
    USSE_BANK_PA,           /* pa: primary attribute */
    USSE_BANK_SA,           /* sa: secondary attribute */
    USSE_BANK_FPI,          /* i: FP-internal (temp alias or gpi field) */
    USSE_BANK_CONST,        /* c: special bank, number < 0x40: constant ROM */
    USSE_BANK_GLOBAL,       /* g: special bank, number >= 0x40 (num & 0x3f) */
    USSE_BANK_IMM,          /* #: the number field is the value */
    USSE_BANK_INDEX,        /* idx: index register */
    USSE_BANK_INDEXED1,     /* xa: indexed through index register 1 */
    USSE_BANK_INDEXED2,     /* xb: indexed through index register 2 */
    USSE_BANK_NUM
} UsseBank;

/* Normalised predicate (all four encodings of §1.6 map onto these). */
typedef enum UssePred {
    USSE_PRED_ALWAYS = 0,
    USSE_PRED_P0, USSE_PRED_P1, USSE_PRED_P2, USSE_PRED_P3,
    USSE_PRED_NOT_P0, USSE_PRED_NOT_P1, USSE_PRED_NOT_P2, USSE_PRED_NOT_P3,
    USSE_PRED_PERCHAN,      /* per-channel predicate (vector groups) */
    USSE_PRED_PN,           /* ext value 7: semantics unknown */
} UssePred;

/* Data formats. */
typedef enum UsseFmt {
    USSE_FMT_NONE = 0,
    USSE_FMT_F32, USSE_FMT_F16, USSE_FMT_C10,
    USSE_FMT_U8, USSE_FMT_S8, USSE_FMT_O8,
    USSE_FMT_U16, USSE_FMT_S16, USSE_FMT_U32, USSE_FMT_S32,
    USSE_FMT_I8, USSE_FMT_I16, USSE_FMT_I32,    /* VMOV's untyped moves */
} UsseFmt;

/* Swizzle channel codes (§1.8). */
enum {
    USSE_CH_X, USSE_CH_Y, USSE_CH_Z, USSE_CH_W,
    USSE_CH_0, USSE_CH_1, USSE_CH_2, USSE_CH_HALF,
};

/* Operand modifiers (UsseOperand.mods). */
#define USSE_MOD_NEG    (1u << 0)
#define USSE_MOD_ABS    (1u << 1)
#define USSE_MOD_HIGH   (1u << 2)   /* IMAE: high 16 bits */
#define USSE_MOD_CMP    (1u << 3)   /* SOP: complement (1 - x) */

typedef struct UsseOperand {
    uint8_t bank;       /* UsseBank */
    uint8_t mods;       /* USSE_MOD_* */
    uint8_t swz[4];     /* USSE_CH_* per channel (x y z w if unswizzled) */
    uint16_t num;       /* 32-bit register index (64-bit unit operands
                           already doubled), FP-internal index, ROM index,
                           or immediate value; indexed banks: the offset
                           added to the index register */
    uint8_t mask;       /* destinations: the raw write mask */
    uint8_t comp;       /* VCOMP source component */
    uint8_t ibank;      /* indexed banks: the bank addressed (TEMP, OUTPUT,
                           PA or SA; UNVERIFIED layout, usse-isa.md) */
} UsseOperand;

/* Operand slots. */
enum {
    USSE_DST = 0,
    USSE_SRC0,
    USSE_SRC1,
    USSE_SRC2,
    USSE_NOPND
};

/* What an instruction does: one value per table form (tables.c). */
typedef enum UsseOp {
    UOP_INVALID = 0,
    UOP_VMAD2,                                      /* VECMAD */
    UOP_VMUL, UOP_VADD, UOP_VFRC, UOP_VDSX, UOP_VDSY, UOP_VMIN, UOP_VMAX,
    UOP_VDP,                                        /* VECNONMAD (F32/F16) */
    UOP_VMAD3, UOP_VMAD4, UOP_VDP3, UOP_VDP4,       /* SVEC */
    UOP_VDUAL,                                      /* DVEC3/DVEC4 */
    UOP_VRCP, UOP_VRSQ, UOP_VLOG, UOP_VEXP,         /* VECCOMPLEX */
    UOP_VMOV, UOP_VMOVC, UOP_VMOVCU8,               /* VECMOV */
    UOP_VPCK,                                       /* PCKUNPCK */
    UOP_VTST, UOP_VTSTMSK,
    UOP_AND, UOP_OR, UOP_XOR, UOP_SHL, UOP_ROL, UOP_SHR, UOP_ASR, UOP_RLP,
    UOP_SOP2, UOP_SOP3, UOP_SOPWM,
    UOP_IMA8, UOP_IMA16, UOP_IMAE,
    UOP_FPMA,                                       /* layout UNVERIFIED */
    UOP_IMA32,
    UOP_SMP, UOP_LD, UOP_ST,
    /* SPECIAL (op1 31) */
    UOP_BA, UOP_BR, UOP_LAPC, UOP_SETL, UOP_SAVL, UOP_NOP,
    UOP_CFI, UOP_PHAS,
    UOP_SMOA, UOP_SMR, UOP_SMLSI, UOP_SMBO, UOP_IMO, UOP_SETFC,
    UOP_IDF, UOP_WDF, UOP_EMIT, UOP_LIMM, UOP_LOCK, UOP_LDR, UOP_WOP,
    UOP_PTCTRL, UOP_ATST8, UOP_DEPTHF,
    UOP_NUM
} UsseOp;

/*
 * Raw instruction fields by meaning (UsseInsn.f[]).  A field an
 * instruction lacks reads 0.  Names follow sgx543.md Appendix A.
 */
typedef enum UsseField {
    UF_NONE = 0,
    UF_PRED,            /* raw predicate field */
    UF_SKIPINV, UF_NOSCHED, UF_SYNCSTART, UF_END, UF_SYNCEND,
    UF_REPEAT,          /* raw repeat field (count - 1) */
    UF_FMT,             /* dat_fmt / dest type / move data type / dest fmt */
    UF_SFMT,            /* source type / source format */
    UF_REPEAT_MODE,     /* SVEC */
    UF_CLIP,            /* VDP clip_plane_enable */
    UF_CLIP_N,
    UF_SCALE,           /* VPCK normalise */
    UF_UNK53,
    UF_TEST,            /* VMOV test condition (bit54 << 1 | bit39) */
    UF_CSEL,            /* VMOV src0_comp_sel */
    UF_ALU,             /* VTST alu_sel << 4 | alu_op */
    UF_SIGN_TEST, UF_ZERO_TEST, UF_TEST_AND, UF_CHAN_CC, UF_PDST, UF_PREC,
    UF_VSCOMP, UF_WBEN, UF_ONCEONLY, UF_MASK_TYPE, UF_TEST_FLAG2,
    UF_REPEAT_SEL, UF_PARTIAL, UF_SRC2_INV, UF_SRC2_ROT, UF_SRC2_SEL,
    UF_SRC2_EXTH,
    UF_COP, UF_AOP, UF_CSEL1, UF_CSEL2, UF_ASEL1, UF_ASEL2,
    UF_CMOD1, UF_CMOD2, UF_AMOD1, UF_AMOD2, UF_DMOD, UF_SRC1_MOD,
    UF_ASRC1_MOD, UF_DEST_MOD,
    UF_CSEL0, UF_CMOD0, UF_ASEL0, UF_AMOD0, UF_SAT,
    UF_ABS,
    UF_MODE, UF_SEL1H, UF_SEL2H, UF_OR_SHIFT, UF_SIGNED, UF_SN,
    UF_MINPACK, UF_FCONV, UF_COUNT, UF_DIM, UF_LOD_MODE, UF_SB_MODE,
    UF_DRC, UF_MOE_EXPAND, UF_CACHE_EXT, UF_ADDR_MODE, UF_RANGE,
    UF_INCDEC, UF_BYPASS,
    UF_EXCEPTION, UF_PWAIT, UF_SYNC_EXT, UF_MONITOR, UF_LINK,
    UF_ANY_INST, UF_ALL_INST, UF_OFFSET,
    UF_SPRVV, UF_IMM, UF_RATE, UF_WAIT, UF_TEMPS, UF_ADDR,
    UF_S1BANK, UF_S2BANK, UF_S1EXT, UF_S2EXT,
    UF_LIMIT_TEMP, UF_LIMIT_PA, UF_LIMIT_SA,
    UF_INC_MODE_D, UF_INC_MODE_0, UF_INC_MODE_1, UF_INC_MODE_2,
    UF_INC_D, UF_INC_0, UF_INC_1, UF_INC_2,
    UF_OFF_D, UF_OFF_0, UF_OFF_1, UF_OFF_2,
    UF_VALUE,           /* LIMM immediate */
    UF_TWO_SIDED, UF_FEEDBACK,
    UF_X4744,           /* SPECIAL "other" bits 47:44 (UNVERIFIED) */
    /* VDUAL (the rest of its fields are in UsseInsn.dual) */
    UF_DV_VEC4, UF_DV_F16, UF_DV_SRCCFG,
    UF_NUM
} UsseField;

/* The operations of a dual-issue VDUAL (op1 4/5) half (sgx543.md 1.5). */
typedef enum UsseDualOpc {
    UDV_VMAD, UDV_VDP, UDV_VSSQ, UDV_VMUL, UDV_VADD, UDV_VMOV,
    UDV_FRSQ, UDV_FRCP, UDV_FMAD, UDV_FADD, UDV_FMUL, UDV_FSUBFLR,
    UDV_FEXP, UDV_FLOG,
    UDV_NUM
} UsseDualOpc;

/* One half of a VDUAL: its operation, destination and sources. */
typedef struct UsseDualOp {
    uint8_t op;             /* UsseDualOpc */
    uint8_t nsrc;
    uint8_t mask;           /* destination channels written */
    uint8_t vec;            /* vector operation (else scalar: channel x) */
    UsseOperand dst;
    UsseOperand src[3];
} UsseDualOp;

typedef struct UsseInsn {
    uint64_t word;
    uint16_t op;            /* UsseOp; UOP_INVALID: the word is ??? */
    uint8_t group;          /* op1, bits 63:59 */
    uint8_t pred;           /* UssePred */
    uint8_t repeat;         /* 1..16 */
    uint8_t fmt, sfmt;      /* UsseFmt of result / sources (if typed) */
    uint8_t nsrc;           /* printed sources */
    uint64_t unknown;       /* bits no table entry explains (nonzero ones) */
    UsseOperand opnd[USSE_NOPND];
    UsseDualOp dual[2];     /* VDUAL: [0] the primary op, [1] the second */
    uint32_t f[UF_NUM];     /* raw fields */
} UsseInsn;

#endif
