/*
 * Tesla opcode tables: integer arithmetic (cuda/int.rst): add/sub/subr/addc,
 * mul (16-bit and 24-bit), mul+add (mad), sad, min/max, set, logic ops and
 * shifts, in their short, long immediate and long forms.
 *
 * Bit positions and the printed forms follow envydis g80.c (tabs, tabi,
 * tabl and their flag sub-tables); entries keep envydis' order.
 *
 * Semantics (see insn.h and the exec notes): sizes as TMOD_B32,
 * signedness as TMOD_SIGNED, 16-bit multiply sources carry their own
 * signedness in src[i].mtype.  A 16-bit c[] operand gets a 16-bit memory
 * type so that its (2-byte scaled) address is read as a half-word.
 *
 * UNVERIFIED: which s[] memory class (isa.rst "Shared memory access") each
 * instruction uses is not documented per instruction; we use halfword
 * classes for 16-bit sources, with the sign taken from the instruction's
 * own signedness where it has one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

/* ---- flags in the short/immediate misc bits (8, 15, 22) ---- */

TESLA_FLAG1(i_sm1sat, 8, MOD("sat", TMOD_SAT));
TESLA_FLAG1(i_sm1high, 8, MOD("high", TMOD_HIGH));
TESLA_FLAG1(i_sm3not, 22, NA("not", RO_NOT_NEXT, 1));

/* signedness of one 16-bit multiply source (the next one) */
#define MULSRC16(s, t) NA(s, RO_SRCTYPE_NEXT, t), SET(RO_MTYPE, t)
TESLA_FLAG2(i_sm1us16, 8, AT(MULSRC16("u16", TTYPE_U16)),
            AT(MULSRC16("s16", TTYPE_S16)));
TESLA_FLAG2(i_sm2us16, 15, AT(MULSRC16("u16", TTYPE_U16)),
            AT(MULSRC16("s16", TTYPE_S16)));

/* u24/s24 of mul24 */
#define T24U NA("u24", RO_STYPE, TTYPE_U24)
#define T24S NA("s24", RO_STYPE, TTYPE_S24), SET(RO_MOD, TMOD_SIGNED)
TESLA_FLAG2(i_sm2us24, 15, AT(T24U), AT(T24S));

/* sad signedness and size */
#define TU16 NA("u16", RO_TYPE, TTYPE_U16)
#define TS16 NA("s16", RO_TYPE, TTYPE_S16), SET(RO_MOD, TMOD_SIGNED)
#define TU32 NA("u32", RO_TYPE, TTYPE_U32)
#define TS32 NA("s32", RO_TYPE, TTYPE_S32), SET(RO_MOD, TMOD_SIGNED)
TESLA_FLAG2(i_sm1sad16, 8, AT(TU16), AT(TS16));
TESLA_FLAG2(i_sm1sad32, 8, AT(TU32), AT(TS32));

/* ---- flags stolen from the long SRC3 field and the misc bits ---- */

TESLA_FLAG2(i_s30us16, 46, AT(MULSRC16("u16", TTYPE_U16)),
            AT(MULSRC16("s16", TTYPE_S16)));
TESLA_FLAG1(i_s30high, 46, MOD("high", TMOD_HIGH));
TESLA_FLAG2(i_s31us16, 47, AT(MULSRC16("u16", TTYPE_U16)),
            AT(MULSRC16("s16", TTYPE_S16)));
TESLA_FLAG2(i_s31us24, 47, AT(T24U), AT(T24S));
TESLA_FLAG1(i_s32not, 48, NA("not", RO_NOT_NEXT, 1));
TESLA_FLAG1(i_s33not, 49, NA("not", RO_NOT_NEXT, 1));
TESLA_FLAG1(i_m2sat, 59, MOD("sat", TMOD_SAT));
TESLA_FLAG2(i_lm2us16, 59, AT(TU16), AT(TS16));
TESLA_FLAG2(i_lm2us32, 59, AT(TU32), AT(TS32));

/* ---- common pieces ---- */

#define B16 NA("b16", RO_TYPE, TTYPE_B16)
#define B32 NA("b32", RO_TYPE, TTYPE_B32), SET(RO_MOD, TMOD_B32)
#define W32 SET(RO_MOD, TMOD_B32)
/* the next c[] operand, if any, is read as a half-word / a word */
#define MT16 SET(RO_MTYPE, TTYPE_B16)
#define MT32 SET(RO_MTYPE, TTYPE_B32)

#define MC_HALF TESLA_MC_HALF
#define MC_UHALF TESLA_MC_UHALF
#define MC_SHALF TESLA_MC_SHALF
#define MC_WORD TESLA_MC_WORD
/* halfword class whose sign is the instruction's u/s bit */
#define MC_SB(bit) TESLA_MC_HALF_SIGNBIT(bit)

/* set conditions, word 1 bits 14-16: l e g */
#define SETI(v, s) \
    TE((uint64_t)(v) << 46, 0x0001c00000000000ull, AT(NA(s, RO_CMP, v)))
TESLA_TABLE(i_seti,
    SETI(0, "never"), SETI(1, "l"), SETI(2, "e"), SETI(3, "le"),
    SETI(4, "g"), SETI(5, "lg"), SETI(6, "ge"), SETI(7, "always"),
    TE(0, 0, AT(UNK)),
);

/* logic ops, word 1 bits 14-15 */
#define LOGOP(v, s) \
    TE((uint64_t)(v) << 46, 0x0000c00000000000ull, AT(NA(s, RO_LOGOP, v)))
TESLA_TABLE(i_logop,
    LOGOP(TLOGOP_AND, "and"), LOGOP(TLOGOP_OR, "or"),
    LOGOP(TLOGOP_XOR, "xor"), LOGOP(TLOGOP_MOV2, "mov2"),
    TE(0, 0, AT(UNK)),
);

/* shift count: source 2 (or c[]) or, with bit 52, a 7-bit immediate */
TESLA_FLAG2(i_shcnt, 52, AT(MT32, T(tesla_t_lc2w)),
            AT(IMM(tesla_b_shcnt, RO_SRC)));
TESLA_FLAG2(i_hshcnt, 52, AT(MT16, T(tesla_t_lc2h)),
            AT(IMM(tesla_b_shcnt, RO_SRC)));

/* ================= short ================= */

TESLA_TABLE(i_short_add,
    TE(0x20000000, 0xe0008002, .op = TOP_IADD,
       AT(T(tesla_t_addop), T(i_sm1sat), B16, SHDST,
          TM(tesla_t_ssh, MC_HALF), MT16, T(tesla_t_sch),
          T(tesla_t_addc0))),
    TE(0x20008000, 0xe0008002, .op = TOP_IADD,
       AT(T(tesla_t_addop), T(i_sm1sat), B32, SDST,
          TM(tesla_t_ssw, MC_WORD), MT32, T(tesla_t_scw),
          T(tesla_t_addc0))),
);

TESLA_TABLE(i_short_mul,
    TE(0x40000000, 0xf0400002, .op = TOP_IMUL16,
       AT(N("mul"), SDST, T(i_sm2us16), TM(tesla_t_ssh, MC_SB(15)),
          T(i_sm1us16), T(tesla_t_sch))),
    TE(0x40400000, 0xf0400002, .op = TOP_IMUL24,
       AT(N("mul"), SDST, T(i_sm1high), T(i_sm2us24),
          TM(tesla_t_ssw, MC_WORD), MT32, T(tesla_t_scw))),
);

TESLA_TABLE(i_short_sad,
    TE(0x50000000, 0xf0008002, .op = TOP_SAD,
       AT(N("sad"), SDST, T(i_sm1sad16), SHSRC, SHSRC2, SDST_SRC)),
    TE(0x50008000, 0xf0008002, .op = TOP_SAD,
       AT(N("sad"), SDST, T(i_sm1sad32), W32, SSRC, SSRC2, SDST_SRC)),
);

/* mad, restricted to DST = SRC3 */
#define SMUL16(s, t, mc) \
    NA(s, RO_STYPE, t), TM(tesla_t_ssh, mc), \
    SET(RO_SRCTYPE_NEXT, t), SET(RO_MTYPE, t), T(tesla_t_sch)
TESLA_TABLE(i_short_mad,
    TE(0x60000000, 0xe0008102, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"),
          SMUL16("u16", TTYPE_U16, MC_UHALF), CLOSE, SDST_SRC,
          T(tesla_t_addc0))),
    TE(0x60000100, 0xe0008102, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"), SET(RO_MOD, TMOD_SIGNED),
          SMUL16("s16", TTYPE_S16, MC_SHALF), CLOSE, SDST_SRC,
          T(tesla_t_addc0))),
    TE(0x60008000, 0xe0008102, .op = TOP_IMAD,
       AT(T(tesla_t_addop), MOD("sat", TMOD_SAT), SDST, OPEN, N("mul"),
          SET(RO_MOD, TMOD_SIGNED), SMUL16("s16", TTYPE_S16, MC_SHALF),
          CLOSE, SDST_SRC, T(tesla_t_addc0))),
    TE(0x60008100, 0xe0008102, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"),
          NA("u24", RO_STYPE, TTYPE_U24), TM(tesla_t_ssw, MC_WORD), MT32,
          T(tesla_t_scw), CLOSE, SDST_SRC, T(tesla_t_addc0))),
);

/* ================= long immediate ================= */

TESLA_TABLE(i_imm_add,
    TE(0x20000000, 0xe0008000, .op = TOP_IADD,
       AT(T(tesla_t_addop), T(i_sm1sat), B16, SHDST,
          TM(tesla_t_ish, MC_HALF), LIMM, T(tesla_t_addc0))),
    TE(0x20008000, 0xe0008000, .op = TOP_IADD,
       AT(T(tesla_t_addop), T(i_sm1sat), B32, SDST,
          TM(tesla_t_isw, MC_WORD), LIMM, T(tesla_t_addc0))),
);

TESLA_TABLE(i_imm_mul,
    TE(0x40000000, 0xf0400000, .op = TOP_IMUL16,
       AT(N("mul"), SDST, T(i_sm2us16), TM(tesla_t_ish, MC_SB(15)),
          T(i_sm1us16), LIMM)),
    TE(0x40400000, 0xf0400000, .op = TOP_IMUL24,
       AT(N("mul"), SDST, T(i_sm1high), T(i_sm2us24),
          TM(tesla_t_isw, MC_WORD), LIMM)),
);

#define IMUL16(s, t, mc) \
    NA(s, RO_STYPE, t), TM(tesla_t_ish, mc), SET(RO_SRCTYPE_NEXT, t), LIMM
TESLA_TABLE(i_imm_mad,
    TE(0x60000000, 0xe0008100, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"),
          IMUL16("u16", TTYPE_U16, MC_UHALF), CLOSE, SDST_SRC,
          T(tesla_t_addc0))),
    TE(0x60000100, 0xe0008100, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"), SET(RO_MOD, TMOD_SIGNED),
          IMUL16("s16", TTYPE_S16, MC_SHALF), CLOSE, SDST_SRC,
          T(tesla_t_addc0))),
    TE(0x60008000, 0xe0008100, .op = TOP_IMAD,
       AT(T(tesla_t_addop), MOD("sat", TMOD_SAT), SDST, OPEN, N("mul"),
          SET(RO_MOD, TMOD_SIGNED), IMUL16("s16", TTYPE_S16, MC_SHALF),
          CLOSE, SDST_SRC, T(tesla_t_addc0))),
    TE(0x60008100, 0xe0008100, .op = TOP_IMAD,
       AT(T(tesla_t_addop), SDST, OPEN, N("mul"),
          NA("u24", RO_STYPE, TTYPE_U24), TM(tesla_t_isw, MC_WORD), LIMM,
          CLOSE, SDST_SRC, T(tesla_t_addc0))),
);

/* logic ops with an immediate: always b32, no not on the immediate */
#define ILOG(v, m, s, lop) \
    TE(v, m, .op = TOP_LOGOP, \
       AT(NA(s, RO_LOGOP, lop), B32, SDST, T(i_sm3not), \
          TM(tesla_t_isw, MC_WORD), LIMM))
TESLA_TABLE(i_imm_logop,
    ILOG(0xd0000000, 0xf0008100, "and", TLOGOP_AND),
    ILOG(0xd0000100, 0xf0008100, "or", TLOGOP_OR),
    ILOG(0xd0008000, 0xf0008100, "xor", TLOGOP_XOR),
    ILOG(0xd0008100, 0xf0008100, "mov2", TLOGOP_MOV2),
);

/* ================= long ================= */

/* add: bit 28 is part of the add op, so both opcodes 2 and 3 */
TESLA_TABLE(i_long_add,
    TE(0x0000000020000000ull, 0xe4000000e0000000ull, .op = TOP_IADD,
       AT(T(tesla_t_addop), B16, T(i_m2sat), MCDST, LLHDST,
          TM(tesla_t_lsh, MC_HALF), MT16, T(tesla_t_lc3h),
          T(tesla_t_addcond))),
    TE(0x0400000020000000ull, 0xe4000000e0000000ull, .op = TOP_IADD,
       AT(T(tesla_t_addop), B32, T(i_m2sat), MCDST, LLDST,
          TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc3w),
          T(tesla_t_addcond))),
);

/* opcode 3: add (subr/addc, bit 28 set), then set, max, min, shl, shr */
#define L3(v, op_, ...) TE(v, 0xe4000000f0000000ull, .op = op_, AT(__VA_ARGS__))
TESLA_TABLE(i_long_op3,
    TE(0x0000000030000000ull, 0xe0000000f0000000ull, AT(T(i_long_add))),

    L3(0x6000000030000000ull, TOP_ISET, N("set"), MCDST, LLHDST, T(i_seti),
       T(i_lm2us16), TM(tesla_t_lsh, MC_SB(59)), MT16, T(tesla_t_lc2h)),
    L3(0x6400000030000000ull, TOP_ISET, N("set"), MCDST, LLDST, T(i_seti),
       T(i_lm2us32), W32, TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc2w)),

    L3(0x8000000030000000ull, TOP_IMAX, N("max"), T(i_lm2us16), MCDST,
       LLHDST, TM(tesla_t_lsh, MC_SB(59)), MT16, T(tesla_t_lc2h)),
    L3(0x8400000030000000ull, TOP_IMAX, N("max"), T(i_lm2us32), W32, MCDST,
       LLDST, TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc2w)),

    L3(0xa000000030000000ull, TOP_IMIN, N("min"), T(i_lm2us16), MCDST,
       LLHDST, TM(tesla_t_lsh, MC_SB(59)), MT16, T(tesla_t_lc2h)),
    L3(0xa400000030000000ull, TOP_IMIN, N("min"), T(i_lm2us32), W32, MCDST,
       LLDST, TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc2w)),

    L3(0xc000000030000000ull, TOP_SHL, N("shl"), B16, MCDST, LLHDST,
       TM(tesla_t_lsh, MC_HALF), T(i_hshcnt)),
    L3(0xc400000030000000ull, TOP_SHL, N("shl"), B32, MCDST, LLDST,
       TM(tesla_t_lsw, MC_WORD), T(i_shcnt)),

    L3(0xe000000030000000ull, TOP_SHR, N("shr"), T(i_lm2us16), MCDST,
       LLHDST, TM(tesla_t_lsh, MC_SB(59)), T(i_hshcnt)),
    L3(0xe400000030000000ull, TOP_SHR, N("shr"), T(i_lm2us32), W32, MCDST,
       LLDST, TM(tesla_t_lsw, MC_WORD), T(i_shcnt)),
);

TESLA_TABLE(i_long_mul,
    TE(0x0000000040000000ull, 0xe0010000f0000000ull, .op = TOP_IMUL16,
       AT(N("mul"), MCDST, LLDST, T(i_s31us16), TM(tesla_t_lsh, MC_SB(47)),
          T(i_s30us16), T(tesla_t_lc2h))),
    TE(0x0001000040000000ull, 0xe0010000f0000000ull, .op = TOP_IMUL24,
       AT(N("mul"), MCDST, LLDST, T(i_s30high), T(i_s31us24),
          TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc2w))),
);

TESLA_TABLE(i_long_sad,
    TE(0x0000000050000000ull, 0xe4000000f0000000ull, .op = TOP_SAD,
       AT(N("sad"), MCDST, LLDST, T(i_lm2us16), TM(tesla_t_lsh, MC_SB(59)),
          MT16, T(tesla_t_lc2h), MT32, T(tesla_t_lc3w))),
    TE(0x0400000050000000ull, 0xe4000000f0000000ull, .op = TOP_SAD,
       AT(N("sad"), MCDST, LLDST, T(i_lm2us32), W32,
          TM(tesla_t_lsw, MC_WORD), MT32, T(tesla_t_lc2w), MT32,
          T(tesla_t_lc3w))),
);

/*
 * mad: word 1 bits 61-63 (and bit 28) pick the multiply, bits 58-59 the
 * add op.  The add part is always 32-bit; src3 is a word.
 */
#define LMAD(v, ...) \
    TE(v, 0xe0000000f0000000ull, .op = TOP_IMAD, AT(__VA_ARGS__))
#define LMUL16(s, t, mc) \
    NA(s, RO_STYPE, t), TM(tesla_t_lsh, mc), SET(RO_SRCTYPE_NEXT, t), \
    SET(RO_MTYPE, t), T(tesla_t_lc2h)
#define LMUL24(mc) TM(tesla_t_lsw, mc), MT32, T(tesla_t_lc2w)
#define LMADEND CLOSE, MT32, T(tesla_t_lc3w), T(tesla_t_addcond2)
#define SGN SET(RO_MOD, TMOD_SIGNED)
#define HIGH NA("high", RO_MOD, TMOD_HIGH)
TESLA_TABLE(i_long_mad,
    LMAD(0x0000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), LMUL16("u16", TTYPE_U16, MC_UHALF), LMADEND),
    LMAD(0x2000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), SGN, LMUL16("s16", TTYPE_S16, MC_SHALF), LMADEND),
    LMAD(0x4000000060000000ull, T(tesla_t_addop2), MOD("sat", TMOD_SAT),
         MCDST, LLDST, OPEN, N("mul"), SGN,
         LMUL16("s16", TTYPE_S16, MC_SHALF), LMADEND),
    LMAD(0x6000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), NA("u24", RO_STYPE, TTYPE_U24), LMUL24(MC_WORD),
         LMADEND),
    LMAD(0x8000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), NA("s24", RO_STYPE, TTYPE_S24), SGN, LMUL24(MC_WORD),
         LMADEND),
    LMAD(0xa000000060000000ull, T(tesla_t_addop2), MOD("sat", TMOD_SAT),
         MCDST, LLDST, OPEN, N("mul"), NA("s24", RO_STYPE, TTYPE_S24), SGN,
         LMUL24(MC_WORD), LMADEND),
    LMAD(0xc000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), HIGH, NA("u24", RO_STYPE, TTYPE_U24), LMUL24(MC_WORD),
         LMADEND),
    LMAD(0xe000000060000000ull, T(tesla_t_addop2), MCDST, LLDST, OPEN,
         N("mul"), HIGH, NA("s24", RO_STYPE, TTYPE_S24), SGN,
         LMUL24(MC_WORD), LMADEND),
);

TESLA_TABLE(i_long_mad7,
    LMAD(0x0000000070000000ull, T(tesla_t_addop2), MOD("sat", TMOD_SAT),
         MCDST, LLDST, OPEN, N("mul"), HIGH,
         NA("s24", RO_STYPE, TTYPE_S24), SGN, LMUL24(MC_WORD), LMADEND),
);

TESLA_TABLE(i_long_logop,
    TE(0x00000000d0000000ull, 0xe4000000f0000000ull, .op = TOP_LOGOP,
       AT(T(i_logop), B16, MCDST, LLHDST, T(i_s32not),
          TM(tesla_t_lsh, MC_HALF), T(i_s33not), MT16, T(tesla_t_lc2h))),
    TE(0x04000000d0000000ull, 0xe4000000f0000000ull, .op = TOP_LOGOP,
       AT(T(i_logop), B32, MCDST, LLDST, T(i_s32not),
          TM(tesla_t_lsw, MC_WORD), T(i_s33not), MT32, T(tesla_t_lc2w))),
);

const TeslaGroup tesla_group_int = {
    .name = "int",
    .ops[TCLS_SHORT] = {
        [0x2] = &i_short_add, [0x3] = &i_short_add,
        [0x4] = &i_short_mul,
        [0x5] = &i_short_sad,
        [0x6] = &i_short_mad, [0x7] = &i_short_mad,
    },
    .ops[TCLS_IMM] = {
        [0x2] = &i_imm_add, [0x3] = &i_imm_add,
        [0x4] = &i_imm_mul,
        [0x6] = &i_imm_mad, [0x7] = &i_imm_mad,
        [0xd] = &i_imm_logop,
    },
    .ops[TCLS_LONG] = {
        [0x2] = &i_long_add, [0x3] = &i_long_op3,
        [0x4] = &i_long_mul,
        [0x5] = &i_long_sad,
        [0x6] = &i_long_mad, [0x7] = &i_long_mad7,
        [0xd] = &i_long_logop,
    },
};
