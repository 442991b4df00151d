/*
 * Tesla opcode tables: interp (misc.rst), the SFU ops rcp, rsqrt, lg2,
 * sin, cos, ex2 and presin/preex2 (trans.rst), and every form of cvt
 * (misc.rst: i2i, i2f, f2i, f2f with f16/f32/f64 and 8..64-bit integers).
 *
 * Bit positions and printed forms follow envydis g80.c; bit numbers are in
 * the 64-bit instruction (word 1 bit 0 is bit 32).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

/* ---- type names ---- */

#define TY(s, t)    NA(s, RO_TYPE, t)
#define DT(s, t)    NA(s, RO_DTYPE, t)
#define ST(s, t)    NA(s, RO_STYPE, t)
#define F32         TY("f32", TTYPE_F32)

#define NEGN        NA("neg", RO_NEG_NEXT, 0)
#define ABSN        NA("abs", RO_ABS_NEXT, 0)

/* ---- interp: v[] is 32-bit ---- */

#define SVAR        SET(RO_MTYPE, TTYPE_B32), MEM(tesla_m_svar, RO_SRC)
#define LVAR        SET(RO_MTYPE, TTYPE_B32), MEM(tesla_m_lvar, RO_SRC)

/*
 * Short interp: bit 24 cent, bit 25 "multiply by SRC", bit 8 flat (only
 * alone).  Fragment programs only; elsewhere the MP reports
 * INTERP_NON_FP (decode.c) and envydis prints "???".
 */
TESLA_TABLE(s_interp,
    TE(0x80000000, 0xf3000102, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), SDST, SVAR)),
    TE(0x81000000, 0xf3000102, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), SDST, MOD("cent", TMOD_CENT), SVAR)),
    TE(0x82000000, 0xf3000102, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), SDST, SVAR, SSRC)),
    TE(0x83000000, 0xf3000102, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), SDST, MOD("cent", TMOD_CENT), SVAR, SSRC)),
    TE(0x80000100, 0xf3000102, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), SDST, MOD("flat", TMOD_FLAT), SVAR)),
);

/* short rcp: bit 22 neg, bit 15 abs */
TESLA_FLAG1(s_neg22, 22, NEGN);
TESLA_FLAG1(s_abs15, 15, ABSN);

TESLA_TABLE(s_rcp,
    TE(0x90000000, 0xf0000002, .op = TOP_RCP,
       AT(N("rcp"), F32, SDST, T(s_neg22), T(s_abs15), SSRC)),
);

/* ---- long: modifier bits ---- */

TESLA_FLAG1(l_neg58, 58, NEGN);
TESLA_FLAG1(l_neg61, 61, NEGN);
TESLA_FLAG1(l_abs52, 52, ABSN);
TESLA_FLAG1(l_sat51, 51, MOD("sat", TMOD_SAT));
TESLA_FLAG1(l_sat59, 59, MOD("sat", TMOD_SAT));

/* interp: word 1 bits 16-18 select the form; op2 is not decoded */
#define LI(v) (((uint64_t)(v) << 48) | 0x80000000ull)
#define LIM 0x00070000f0000000ull

TESLA_TABLE(l_interp,
    TE(LI(0), LIM, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), LDST, LVAR)),
    TE(LI(1), LIM, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), LDST, MOD("cent", TMOD_CENT), LVAR)),
    TE(LI(2), LIM, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), LDST, LVAR, T(l_neg58), LSRC)),
    TE(LI(3), LIM, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), LDST, MOD("cent", TMOD_CENT), LVAR, T(l_neg58),
          LSRC)),
    TE(LI(4), LIM, .progs = TP_FP, .op = TOP_INTERP,
       AT(N("interp"), LDST, MOD("flat", TMOD_FLAT), LVAR)),
);

/* op2 (word 1 bits 29-31) entries */
#define OP2(op2, op) (((uint64_t)(op2) << 61) | ((uint64_t)(op) << 28))
#define OP2M 0xe0000000f0000000ull

#define SFU1(op2, name, top) \
    TE(OP2(op2, 0x9), OP2M, .op = top, \
       AT(N(name), F32, LLDST, T(l_neg58), T(l_abs52), LSRC))

TESLA_TABLE(l_sfu,
    SFU1(0, "rcp", TOP_RCP),
    SFU1(2, "rsqrt", TOP_RSQRT),
    SFU1(3, "lg2", TOP_LG2),
    /* sin/cos/ex2 take presin/preex2's fixed-point output: no abs/neg */
    TE(OP2(4, 0x9), OP2M, .op = TOP_SIN, AT(N("sin"), F32, LLDST, LSRC)),
    TE(OP2(5, 0x9), OP2M, .op = TOP_COS, AT(N("cos"), F32, LLDST, LSRC)),
    TE(OP2(6, 0x9), OP2M, .op = TOP_EX2,
       AT(N("ex2"), F32, T(l_sat59), LLDST, LSRC)),
);

/* presin/preex2 share op2 6 of opcode 0xb; word 1 bit 14 picks */
TESLA_TABLE(l_pre,
    TE(0xc0000000b0000000ull, 0xe0004000f0000000ull, .op = TOP_PRESIN,
       AT(N("presin"), F32, LLDST, T(l_neg58), T(l_abs52),
          T(tesla_t_lsw))),
    TE(0xc0004000b0000000ull, 0xe0004000f0000000ull, .op = TOP_PREEX2,
       AT(N("preex2"), F32, LLDST, T(l_neg58), T(l_abs52),
          T(tesla_t_lsw))),
);

/* ---- cvt (opcode 0xa, long only) ---- */

/* abs (bit 52) and neg (bit 61) apply to the source before converting */
#define CVTMOD      T(l_neg61), T(l_abs52)
#define SAT         T(l_sat51)

#define RNDM 0x0006000000000000ull
TESLA_TABLE(cvt_rnd,
    TE(0x0000000000000000ull, RNDM, AT(NA("rn", RO_RND, TRND_RN))),
    TE(0x0002000000000000ull, RNDM, AT(NA("rm", RO_RND, TRND_RM))),
    TE(0x0004000000000000ull, RNDM, AT(NA("rp", RO_RND, TRND_RP))),
    TE(0x0006000000000000ull, RNDM, AT(NA("rz", RO_RND, TRND_RZ))),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(cvt_rint,
    TE(0x0000000000000000ull, RNDM, AT(NA("rni", RO_RND, TRND_RNI))),
    TE(0x0002000000000000ull, RNDM, AT(NA("rmi", RO_RND, TRND_RMI))),
    TE(0x0004000000000000ull, RNDM, AT(NA("rpi", RO_RND, TRND_RPI))),
    TE(0x0006000000000000ull, RNDM, AT(NA("rzi", RO_RND, TRND_RZI))),
    TE(0, 0, AT(UNK)),
);
#define RND         T(cvt_rnd)
#define RINT        T(cvt_rint)

/*
 * Sources.  An s[] source must fit the source type (isa.rst "Shared
 * memory access"); UNVERIFIED: that s8 sources are byte sources like u8
 * and that u16/s16 sources only take the matching sign.
 */
#define SRC_H       TM(tesla_t_lsh, TESLA_MC_HALF)
#define SRC_UH      TM(tesla_t_lsh, TESLA_MC_UHALF)
#define SRC_SH      TM(tesla_t_lsh, TESLA_MC_SHALF)
#define SRC_B       TM(tesla_t_lsh, TESLA_MC_BYTE)
#define SRC_W       TM(tesla_t_lsw, TESLA_MC_WORD)

/* integer source: word 1 bits 46-48 */
#define ISM 0x0001c00000000000ull
TESLA_TABLE(cvt_isrc,
    TE(0x0000000000000000ull, ISM, AT(ST("u16", TTYPE_U16), SRC_UH)),
    TE(0x0000400000000000ull, ISM, AT(ST("u32", TTYPE_U32), SRC_W)),
    TE(0x0000800000000000ull, ISM, AT(ST("u8", TTYPE_U8), SRC_B)),
    TE(0x0000c00000000000ull, ISM, AT(ST("u8", TTYPE_U8), LSRC)),
    TE(0x0001000000000000ull, ISM, AT(ST("s16", TTYPE_S16), SRC_SH)),
    TE(0x0001400000000000ull, ISM, AT(ST("s32", TTYPE_S32), SRC_W)),
    TE(0x0001800000000000ull, ISM, AT(ST("s8", TTYPE_S8), SRC_B)),
    TE(0x0001c00000000000ull, ISM, AT(ST("s8", TTYPE_S8), LSRC)),
    TE(0, 0, AT(UNK)),
);
#define ISRC        T(cvt_isrc)

#define CV(hi)      (((uint64_t)(hi) << 32) | 0xa0000000ull)
#define CVM(hi)     (((uint64_t)(hi) << 32) | 0xf0000000ull)
#define CVT(hi, mhi, feat_, ...) \
    TE(CV(hi), CVM(mhi), .feat = (feat_), .op = TOP_CVT, \
       AT(N("cvt"), __VA_ARGS__))

#define D_F16   DT("f16", TTYPE_F16), MCDST, LLHDST
#define D_F32   DT("f32", TTYPE_F32), MCDST, LLDST
#define D_F64   DT("f64", TTYPE_F64), MCDST, LDDST
#define D_U16   DT("u16", TTYPE_U16), MCDST, LLHDST
#define D_S16   DT("s16", TTYPE_S16), MCDST, LLHDST
#define D_U32   DT("u32", TTYPE_U32), MCDST, LLDST
#define D_S32   DT("s32", TTYPE_S32), MCDST, LLDST
#define D_U64   DT("u64", TTYPE_U64), MCDST, LDDST
#define D_S64   DT("s64", TTYPE_S64), MCDST, LDDST
#define D_U8H   DT("u8", TTYPE_U8), MCDST, LLHDST
#define D_S8H   DT("s8", TTYPE_S8), MCDST, LLHDST
#define D_U8    DT("u8", TTYPE_U8), MCDST, LLDST
#define D_S8    DT("s8", TTYPE_S8), MCDST, LLDST

#define S_F16   ST("f16", TTYPE_F16), SRC_H
#define S_F32   ST("f32", TTYPE_F32), SRC_W
#define S_F64   ST("f64", TTYPE_F64), LDSRC
#define S_U32   ST("u32", TTYPE_U32), SRC_W
#define S_S32   ST("s32", TTYPE_S32), SRC_W
#define S_U64   ST("u64", TTYPE_U64), LDSRC
#define S_S64   ST("s64", TTYPE_S64), LDSRC

#define FP64    TESLA_F_FP64

/*
 * Word 1: bits 30-31 class (3 f2f, 2 f2i, 1 i2f, 0 i2i), bit 26 32-bit
 * (or 64-bit) destination, bit 27 signed destination / round to integer,
 * bit 22 f64 unit, bit 14 32-bit (or 64-bit) float source, bit 16 signed
 * source (f64 unit i2f), bit 19 u8/s8 destination (i2i) or sat.  The
 * first matching entry wins, as in envydis.
 */
TESLA_TABLE(l_cvt,
    /* f2f */
    CVT(0xc0000000, 0xcc404000, 0, CVTMOD, SAT, D_F16, S_F16),
    CVT(0xc8000000, 0xcc404000, 0, CVTMOD, SAT, RINT, D_F16, S_F16),
    CVT(0xc0004000, 0xc4404000, 0, CVTMOD, SAT, RND, D_F16, S_F32),
    CVT(0xc4004000, 0xcc404000, 0, CVTMOD, SAT, D_F32, S_F32),
    CVT(0xcc004000, 0xcc404000, 0, CVTMOD, SAT, RINT, D_F32, S_F32),
    CVT(0xc4000000, 0xc4404000, 0, CVTMOD, SAT, D_F32, S_F16),
    CVT(0xc0404000, 0xc4404000, FP64, CVTMOD, RND, D_F32, S_F64),
    CVT(0xc4404000, 0xcc404000, FP64, CVTMOD, D_F64, S_F64),
    CVT(0xcc404000, 0xcc404000, FP64, CVTMOD, RINT, D_F64, S_F64),
    CVT(0xc4400000, 0xc4404000, FP64, CVTMOD, D_F64, S_F32),
    /* f2i: integer destinations always saturate */
    CVT(0x80000000, 0xcc404000, 0, CVTMOD, RINT, D_U16, S_F16),
    CVT(0x80004000, 0xcc404000, 0, CVTMOD, RINT, D_U16, S_F32),
    CVT(0x88000000, 0xcc404000, 0, CVTMOD, RINT, D_S16, S_F16),
    CVT(0x88004000, 0xcc404000, 0, CVTMOD, RINT, D_S16, S_F32),
    CVT(0x84000000, 0xcc404000, 0, CVTMOD, RINT, D_U32, S_F16),
    CVT(0x84004000, 0xcc404000, 0, CVTMOD, RINT, D_U32, S_F32),
    CVT(0x8c000000, 0xcc404000, 0, CVTMOD, RINT, D_S32, S_F16),
    CVT(0x8c004000, 0xcc404000, 0, CVTMOD, RINT, D_S32, S_F32),
    CVT(0x80404000, 0xcc404000, FP64, CVTMOD, RINT, D_U32, S_F64),
    CVT(0x88404000, 0xcc404000, FP64, CVTMOD, RINT, D_S32, S_F64),
    CVT(0x84400000, 0xcc404000, FP64, CVTMOD, RINT, D_U64, S_F32),
    CVT(0x84404000, 0xcc404000, FP64, CVTMOD, RINT, D_U64, S_F64),
    CVT(0x8c400000, 0xcc404000, FP64, CVTMOD, RINT, D_S64, S_F32),
    CVT(0x8c404000, 0xcc404000, FP64, CVTMOD, RINT, D_S64, S_F64),
    /* i2f */
    CVT(0x40000000, 0xc4400000, 0, CVTMOD, SAT, RND, D_F16, ISRC),
    CVT(0x44000000, 0xc4400000, 0, CVTMOD, SAT, RND, D_F32, ISRC),
    CVT(0x44400000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F64, S_U32),
    CVT(0x44410000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F64, S_S32),
    CVT(0x40404000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F32, S_U64),
    CVT(0x40414000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F32, S_S64),
    CVT(0x44404000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F64, S_U64),
    CVT(0x44414000, 0xc4414000, FP64, CVTMOD, SAT, RND, D_F64, S_S64),
    /* i2i */
    CVT(0x00000000, 0xcc080000, 0, CVTMOD, D_U16, ISRC),
    CVT(0x00080000, 0xcc080000, 0, CVTMOD, D_U8H, ISRC),
    CVT(0x04000000, 0xcc080000, 0, CVTMOD, D_U32, ISRC),
    CVT(0x04080000, 0xcc080000, 0, CVTMOD, D_U8, ISRC),
    CVT(0x08000000, 0xcc080000, 0, CVTMOD, D_S16, ISRC),
    CVT(0x08080000, 0xcc080000, 0, CVTMOD, D_S8H, ISRC),
    CVT(0x0c000000, 0xcc080000, 0, CVTMOD, D_S32, ISRC),
    CVT(0x0c080000, 0xcc080000, 0, CVTMOD, D_S8, ISRC),
);

const TeslaGroup tesla_group_sfu = {
    .name = "sfu",
    .ops = {
        [TCLS_SHORT] = {
            [0x8] = &s_interp,
            [0x9] = &s_rcp,
        },
        [TCLS_LONG] = {
            [0x8] = &l_interp,
            [0x9] = &l_sfu,
            [0xa] = &l_cvt,
            [0xb] = &l_pre,
        },
    },
};
