/*
 * Tesla opcode tables: f32 arithmetic (cuda/float.rst): add, mul, mad
 * (add of a mul), min/max, set, slct and quadop, in their short, long
 * immediate and long forms.
 *
 * Bit positions and the printed forms follow envydis g80.c (tabs, tabi,
 * tabl and their flag sub-tables); entries keep envydis' order.
 *
 * Semantics (see insn.h): operand neg/abs go on the operand they precede;
 * for mad the neg before "(mul ...)" is TMOD_NEG_PROD and the neg before
 * the addend TMOD_NEG_ADD; slct's neg is TMOD_SLCT_NEG.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

/* ---- flags ---- */

TESLA_FLAG1(f_sm1sat, 8, MOD("sat", TMOD_SAT));
/* mul's sat exists from G200 on; earlier the bit is unknown */
TESLA_FLAG1V(f_sm1satg200, TESLA_F_SM12, 8, MOD("sat", TMOD_SAT));
TESLA_FLAG1(f_sm2neg, 15, NA("neg", RO_NEG_NEXT, 1));
TESLA_FLAG1(f_sm3neg, 22, NA("neg", RO_NEG_NEXT, 1));
TESLA_FLAG1(f_sm2negp, 15, MOD("neg", TMOD_NEG_PROD));
TESLA_FLAG1(f_sm3nega, 22, MOD("neg", TMOD_NEG_ADD));

TESLA_FLAG1(f_s35abs, 51, NA("abs", RO_ABS_NEXT, 1));
TESLA_FLAG1(f_s36abs, 52, NA("abs", RO_ABS_NEXT, 1));
TESLA_FLAG1V(f_s36satg200, TESLA_F_SM12, 52, MOD("sat", TMOD_SAT));
TESLA_FLAG1(f_m1neg, 58, NA("neg", RO_NEG_NEXT, 1));
TESLA_FLAG1(f_m2neg, 59, NA("neg", RO_NEG_NEXT, 1));
TESLA_FLAG1(f_m1negp, 58, MOD("neg", TMOD_NEG_PROD));
TESLA_FLAG1(f_m2nega, 59, MOD("neg", TMOD_NEG_ADD));
TESLA_FLAG1(f_o0sat, 61, MOD("sat", TMOD_SAT));
TESLA_FLAG1(f_o0neg, 61, MOD("neg", TMOD_SLCT_NEG));

/* rounding: add in word 0 bits 16-17, mul in word 1 bits 14-15 */
TESLA_TABLE(f_af32r,
    TE(0x00000000, 0x00030000, AT(NA("rn", RO_RND, TRND_RN))),
    TE(0x00030000, 0x00030000, AT(NA("rz", RO_RND, TRND_RZ))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE(f_mf32r,
    TE(0x0000000000000000ull, 0x0000c00000000000ull,
       AT(NA("rn", RO_RND, TRND_RN))),
    TE(0x0000c00000000000ull, 0x0000c00000000000ull,
       AT(NA("rz", RO_RND, TRND_RZ))),
    TE(0, 0, AT(UNK)),
);

/* set conditions, word 1 bits 14-17: l e g u */
#define SETF(v, s) \
    TE((uint64_t)(v) << 46, 0x0003c00000000000ull, AT(NA(s, RO_CMP, v)))
TESLA_TABLE(f_setf,
    SETF(0x0, "never"), SETF(0x1, "l"), SETF(0x2, "e"), SETF(0x3, "le"),
    SETF(0x4, "g"), SETF(0x5, "lg"), SETF(0x6, "ge"), SETF(0x7, "lge"),
    SETF(0x8, "u"), SETF(0x9, "lu"), SETF(0xa, "eu"), SETF(0xb, "leu"),
    SETF(0xc, "gu"), SETF(0xd, "lgu"), SETF(0xe, "geu"),
    SETF(0xf, "always"),
    TE(0, 0, AT(UNK)),
);

/* quadop: the op of each lane and the source lane */
#define QOPS(name, pos, role) \
    TESLA_TABLE(name, \
        TE(0ull << (pos), 3ull << (pos), AT(NA("add", role, TQOP_ADD))), \
        TE(1ull << (pos), 3ull << (pos), AT(NA("subr", role, TQOP_SUBR))), \
        TE(2ull << (pos), 3ull << (pos), AT(NA("sub", role, TQOP_SUB))), \
        TE(3ull << (pos), 3ull << (pos), AT(NA("mov2", role, TQOP_MOV2))), \
        TE(0, 0, AT(UNK)))
QOPS(f_qop0, 58, RO_QOP0);
QOPS(f_qop1, 56, RO_QOP1);
QOPS(f_qop2, 54, RO_QOP2);
QOPS(f_qop3, 20, RO_QOP3);

/* dx/dy leave bit 17 unexplained, as envydis does */
TESLA_TABLE(f_qs1,
    TE(0x00000000, 0x00070000, AT(NA("l0", RO_QSRC, 0))),
    TE(0x00010000, 0x00070000, AT(NA("l1", RO_QSRC, 1))),
    TE(0x00020000, 0x00070000, AT(NA("l2", RO_QSRC, 2))),
    TE(0x00030000, 0x00070000, AT(NA("l3", RO_QSRC, 3))),
    TE(0x00040000, 0x00050000, AT(NA("dx", RO_QSRC, 4))),
    TE(0x00050000, 0x00050000, AT(NA("dy", RO_QSRC, 5))),
    TE(0, 0, AT(UNK)),
);

#define F32 NA("f32", RO_TYPE, TTYPE_F32)
#define WORD TESLA_MC_WORD

/* ================= short ================= */

TESLA_TABLE(f_short_add,
    TE(0xb0000000, 0xf0000002, .op = TOP_FADD,
       AT(N("add"), T(f_sm1sat), F32, SDST, T(f_sm2neg),
          TM(tesla_t_ssw, WORD), T(f_sm3neg), T(tesla_t_scw))),
);

TESLA_TABLE(f_short_mul,
    TE(0xc0000000, 0xf0000002, .op = TOP_FMUL,
       AT(N("mul"), T(f_sm1satg200), F32, SDST, T(f_sm2neg),
          TM(tesla_t_ssw, WORD), T(f_sm3neg), T(tesla_t_scw))),
);

/* mad, restricted to DST = SRC3 */
TESLA_TABLE(f_short_mad,
    TE(0xe0000000, 0xf0000002, .op = TOP_FMAD,
       AT(N("add"), T(f_sm1sat), F32, SDST, T(f_sm2negp), OPEN, N("mul"),
          TM(tesla_t_ssw, WORD), T(tesla_t_scw), CLOSE, T(f_sm3nega),
          SDST_SRC)),
);

/* ================= long immediate ================= */

TESLA_TABLE(f_imm_add,
    TE(0xb0000000, 0xf0000000, .op = TOP_FADD,
       AT(N("add"), T(f_sm1sat), F32, SDST, T(f_sm2neg),
          TM(tesla_t_isw, WORD), T(f_sm3neg), LIMM)),
);

TESLA_TABLE(f_imm_mul,
    TE(0xc0000000, 0xf0000000, .op = TOP_FMUL,
       AT(N("mul"), T(f_sm1satg200), F32, SDST, T(f_sm2neg),
          TM(tesla_t_isw, WORD), T(f_sm3neg), LIMM)),
);

TESLA_TABLE(f_imm_mad,
    TE(0xe0000000, 0xf0000000, .op = TOP_FMAD,
       AT(N("add"), T(f_sm1sat), F32, SDST, T(f_sm2negp), OPEN, N("mul"),
          TM(tesla_t_isw, WORD), LIMM, CLOSE, T(f_sm3nega), SDST_SRC)),
);

/* ================= long ================= */

/* (presin/preex2 share opcode 0xb: tab-sfu.c) */
TESLA_TABLE(f_long_opb,
    /* add's second source is the src3 field */
    TE(0x00000000b0000000ull, 0xc0000000f0000000ull, .op = TOP_FADD,
       AT(N("add"), T(f_o0sat), T(f_af32r), F32, MCDST, LLDST, T(f_m1neg),
          TM(tesla_t_lsw, WORD), T(f_m2neg), T(tesla_t_lc3w))),
    TE(0x60000000b0000000ull, 0xe0000000f0000000ull, .op = TOP_FSET,
       AT(N("set"), MCDST, LLDST, T(f_setf), F32, T(f_m1neg), T(f_s36abs),
          TM(tesla_t_lsw, WORD), T(f_m2neg), T(f_s35abs),
          T(tesla_t_lc2w))),
    TE(0x80000000b0000000ull, 0xe0000000f0000000ull, .op = TOP_FMAX,
       AT(N("max"), F32, MCDST, LLDST, T(f_m1neg), T(f_s36abs),
          TM(tesla_t_lsw, WORD), T(f_m2neg), T(f_s35abs),
          T(tesla_t_lc2w))),
    TE(0xa0000000b0000000ull, 0xe0000000f0000000ull, .op = TOP_FMIN,
       AT(N("min"), F32, MCDST, LLDST, T(f_m1neg), T(f_s36abs),
          TM(tesla_t_lsw, WORD), T(f_m2neg), T(f_s35abs),
          T(tesla_t_lc2w))),
);

TESLA_TABLE(f_long_opc,
    TE(0x00000000c0000000ull, 0xe0000000f0000000ull, .op = TOP_FMUL,
       AT(N("mul"), T(f_s36satg200), T(f_mf32r), F32, MCDST, LLDST,
          T(f_m1neg), TM(tesla_t_lsw, WORD), T(f_m2neg), T(tesla_t_lc2w))),
    /* slct: src3 < 0 (or with neg, > 0) selects src2 */
    TE(0x40000000c0000000ull, 0xc0000000f0000000ull, .op = TOP_FSLCT,
       AT(N("slct"), NA("b32", RO_DTYPE, TTYPE_B32), MCDST, LLDST,
          TM(tesla_t_lsw, WORD), T(tesla_t_lc2w),
          NA("f32", RO_STYPE, TTYPE_F32), T(f_o0neg), T(tesla_t_lc3w))),
    TE(0x80000000c0000000ull, 0xe0000000f0000000ull, .op = TOP_QUADOP,
       AT(N("quadop"), F32, T(f_qop0), T(f_qop1), T(f_qop2), T(f_qop3),
          MCDST, LLDST, T(f_qs1), LSRC, LSRC3)),
);

/* (the f64 forms of opcode 0xe: tab-double.c) */
TESLA_TABLE(f_long_ope,
    TE(0x00000000e0000000ull, 0xc0000000f0000000ull, .op = TOP_FMAD,
       AT(N("add"), T(f_o0sat), F32, MCDST, LLDST, T(f_m1negp), OPEN,
          N("mul"), TM(tesla_t_lsw, WORD), T(tesla_t_lc2w), CLOSE,
          T(f_m2nega), T(tesla_t_lc3w))),
);

const TeslaGroup tesla_group_float = {
    .name = "float",
    .ops[TCLS_SHORT] = {
        [0xb] = &f_short_add, [0xc] = &f_short_mul, [0xe] = &f_short_mad,
    },
    .ops[TCLS_IMM] = {
        [0xb] = &f_imm_add, [0xc] = &f_imm_mul, [0xe] = &f_imm_mad,
    },
    .ops[TCLS_LONG] = {
        [0xb] = &f_long_opb, [0xc] = &f_long_opc, [0xe] = &f_long_ope,
    },
};
