/*
 * Tesla opcode tables: data movement (cuda/data.rst) -- mov in all forms,
 * ld/st on every space, $a/$c/$sr moves, atomics and reductions on g[],
 * vote, ld lock / st unlock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

static const TeslaBits b_offs = { 9, 16, 0, 0, 0, 0, 0 };  /* add $a */

#define MT(s, t) NA(s, RO_MTYPE, t)
#define B16 NA("b16", RO_TYPE, TTYPE_B16)
#define B32 NA("b32", RO_TYPE, TTYPE_B32), SET(RO_MOD, TMOD_B32)

/* ---- short: mov ---- */

TESLA_FLAG1(s_sfu, 17, MOD("sfu", TMOD_SFU));

TESLA_TABLE(short_mov,
    TE(0x10000000, 0xf0008002, .op = TOP_MOV,
       AT(N("mov"), T(s_sfu), B16, SHDST, TM(tesla_t_ssh, TESLA_MC_HALF))),
    TE(0x10008000, 0xf0008002, .op = TOP_MOV,
       AT(N("mov"), T(s_sfu), B32, SDST, T(tesla_t_ssw))),
);

/* ---- long immediate: mov ---- */

TESLA_TABLE(imm_mov,
    TE(0x10000000, 0xf0008000, .op = TOP_MOV,
       AT(N("mov"), B16, LHDST, LIMM)),
    /* the full 7-bit destination, unlike other immediate forms */
    TE(0x10008000, 0xf0008000, .op = TOP_MOV,
       AT(N("mov"), B32, LDST, LIMM)),
);

/* ---- long ---- */

/* mov lane mask: word 1 bits 14-17; all four lanes print nothing */
#define LANE(n, s) \
    TE((uint64_t)(n) << 46, 0x0003c00000000000ull, \
       AT(OPEN, NA(s, RO_LANEMASK, n), CLOSE))

TESLA_TABLE(lane,
    LANE(0x0, "lnone"), LANE(0x1, "l0"), LANE(0x2, "l1"), LANE(0x3, "l01"),
    LANE(0x4, "l2"), LANE(0x5, "l02"), LANE(0x6, "l12"), LANE(0x7, "l012"),
    LANE(0x8, "l3"), LANE(0x9, "l03"), LANE(0xa, "l13"), LANE(0xb, "l013"),
    LANE(0xc, "l23"), LANE(0xd, "l023"), LANE(0xe, "l123"),
    TE(0x0003c00000000000ull, 0x0003c00000000000ull,
       AT(SET(RO_LANEMASK, 0xf))),
    TE(0, 0, AT(UNK)),
);

TESLA_FLAG1(l_sfu, 57, MOD("sfu", TMOD_SFU));
TESLA_FLAG1V(l_unlock, TESLA_F_SM12, 55,
             NA("unlock", RO_OP, TOP_ST_UNLOCK));

/* s[] with $a and the full offset field; bit 25: postincrement */
TESLA_FLAG2(fs8, 25, AT(MEM(tesla_m_fs8, RO_DST)),
            AT(MEM(tesla_m_fs8pi, RO_DST)));
TESLA_FLAG2(fs16, 25, AT(MEM(tesla_m_fs16, RO_DST)),
            AT(MEM(tesla_m_fs16pi, RO_DST)));
TESLA_FLAG2(fs32, 25, AT(MEM(tesla_m_fs32, RO_DST)),
            AT(MEM(tesla_m_fs32pi, RO_DST)));
TESLA_FLAG2(local, 25, AT(MEM(tesla_m_local, RO_DST)),
            AT(MEM(tesla_m_localpi, RO_DST)));
/* value of st s[]: bit 53 selects a 32-bit register */
TESLA_FLAG2(sstreg, 53, AT(LHSRC3), AT(LSRC3));
/* destination of ld c[] / s[]: bit 58 selects a 32-bit register */
TESLA_FLAG2(csldreg, 58, AT(LLHDST), AT(LLDST));

/* c[] loads: bits 46-47 type, bit 25 postincrement */
#define FCMASK 0x0000c00002000000ull
TESLA_TABLE(fcon,
    TE(0x0000000000000000ull, FCMASK,
       AT(MT("u8", TTYPE_U8), MEM(tesla_m_fc8, RO_SRC))),
    TE(0x0000400000000000ull, FCMASK,
       AT(MT("u16", TTYPE_U16), MEM(tesla_m_fc16, RO_SRC))),
    TE(0x0000800000000000ull, FCMASK,
       AT(MT("s16", TTYPE_S16), MEM(tesla_m_fc16, RO_SRC))),
    TE(0x0000c00000000000ull, FCMASK,
       AT(MT("b32", TTYPE_B32), MEM(tesla_m_fc32, RO_SRC))),
    TE(0x0000000002000000ull, FCMASK,
       AT(MT("u8", TTYPE_U8), MEM(tesla_m_fc8pi, RO_SRC))),
    TE(0x0000400002000000ull, FCMASK,
       AT(MT("u16", TTYPE_U16), MEM(tesla_m_fc16pi, RO_SRC))),
    TE(0x0000800002000000ull, FCMASK,
       AT(MT("s16", TTYPE_S16), MEM(tesla_m_fc16pi, RO_SRC))),
    TE(0x0000c00002000000ull, FCMASK,
       AT(MT("b32", TTYPE_B32), MEM(tesla_m_fc32pi, RO_SRC))),
    TE(0, 0, AT(UNK)),
);

/* l[] / g[] access type: bits 53-55 */
#define TMASK 0x00e0000000000000ull
#define TV(n) ((uint64_t)(n) << 53)
TESLA_TABLE(ldstm,
    TE(TV(0), TMASK, AT(MT("u8", TTYPE_U8))),
    TE(TV(1), TMASK, AT(MT("s8", TTYPE_S8))),
    TE(TV(2), TMASK, AT(MT("u16", TTYPE_U16))),
    TE(TV(3), TMASK, AT(MT("s16", TTYPE_S16))),
    TE(TV(4), TMASK, AT(MT("b64", TTYPE_B64))),
    TE(TV(5), TMASK, AT(MT("b128", TTYPE_B128))),
    TE(TV(6), TMASK, AT(MT("b32", TTYPE_B32))),
    TE(0, 0, AT(UNK)),
);

/* the register of an l[] / g[] access, sized by the same type field */
TESLA_TABLE(ldsto,
    TE(TV(0), TMASK, AT(LDST)),
    TE(TV(1), TMASK, AT(LDST)),
    TE(TV(2), TMASK, AT(LDST)),
    TE(TV(3), TMASK, AT(LDST)),
    TE(TV(4), TMASK, AT(LDDST)),
    TE(TV(5), TMASK, AT(LQDST)),
    TE(TV(6), TMASK, AT(LDST)),
    TE(TV(7), TMASK, AT(LDST)),
    TE(0, 0, AT(UNK)),
);

/* atomic operand types */
TESLA_TABLE(raadd,
    TE(TV(4), TMASK, .feat = TESLA_F_SM12, AT(MT("u64", TTYPE_U64))),
    TE(TV(6), TMASK, AT(MT("u32", TTYPE_U32))),
    TE(TV(7), TMASK, AT(MT("s32", TTYPE_S32))),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(rab,
    TE(TV(4), TMASK, .feat = TESLA_F_SM12, AT(MT("b64", TTYPE_B64))),
    TE(TV(6), TMASK, AT(MT("b32", TTYPE_B32))),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(ramm,
    TE(TV(6), TMASK, AT(MT("u32", TTYPE_U32))),
    TE(TV(7), TMASK, AT(MT("s32", TTYPE_S32))),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(rab32,
    TE(TV(6), TMASK, AT(MT("b32", TTYPE_B32))),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(rau32,
    TE(TV(6), TMASK, AT(MT("u32", TTYPE_U32))),
    TE(0, 0, AT(UNK)),
);

/* atomic values: 64-bit for the b64/u64 types */
TESLA_TABLE(ldsts2,
    TE(TV(4), TMASK, AT(LDSRC2)),
    TE(TV(6), TMASK, AT(LSRC2)),
    TE(TV(7), TMASK, AT(LSRC2)),
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(ldsts3,
    TE(TV(4), TMASK, AT(LDSRC3)),
    TE(TV(6), TMASK, AT(LSRC3)),
    TE(TV(7), TMASK, AT(LSRC3)),
    TE(0, 0, AT(UNK)),
);

/* atomic op: word 1 bits 2-5 */
#define AMASK 0x0000003c00000000ull
#define AV(n) ((uint64_t)(n) << 34)
TESLA_TABLE(mldsts3,      /* cas has a third source */
    TE(AV(0), 0x0000003800000000ull),
    TE(AV(2), AMASK, AT(T(ldsts3))),
    TE(AV(3), AMASK),
    TE(AV(4), 0x0000003000000000ull),
    TE(AV(8), 0x0000002000000000ull),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE(redm,
    TE(AV(0x0), AMASK, AT(NA("add", RO_ATOMOP, TATOM_ADD), T(raadd))),
    TE(AV(0x4), AMASK, AT(NA("inc", RO_ATOMOP, TATOM_INC), T(rau32))),
    TE(AV(0x5), AMASK, AT(NA("dec", RO_ATOMOP, TATOM_DEC), T(rau32))),
    TE(AV(0x6), AMASK, AT(NA("max", RO_ATOMOP, TATOM_MAX), T(ramm))),
    TE(AV(0x7), AMASK, AT(NA("min", RO_ATOMOP, TATOM_MIN), T(ramm))),
    TE(AV(0xa), AMASK, AT(NA("and", RO_ATOMOP, TATOM_AND), T(rab32))),
    TE(AV(0xb), AMASK, AT(NA("or", RO_ATOMOP, TATOM_OR), T(rab32))),
    TE(AV(0xc), AMASK, AT(NA("xor", RO_ATOMOP, TATOM_XOR), T(rab32))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE(atomm,
    TE(AV(0x1), AMASK, AT(NA("exch", RO_ATOMOP, TATOM_EXCH), T(rab))),
    TE(AV(0x2), AMASK, AT(NA("cas", RO_ATOMOP, TATOM_CAS), T(rab))),
    TE(0, 0, AT(N("ld"), T(redm))),
);

#define OPM 0xe0000000f0000000ull

TESLA_TABLE(long_op0,
    TE(0x0420000000000000ull, 0xe4200000f0000000ull,
       .progs = TP_VP | TP_GP, .op = TOP_LD,
       AT(T(lane), N("ld"), MT("b32", TTYPE_B32), LLDST,
          MEM(tesla_m_fattr, RO_SRC))),
    TE(0x2000000000000000ull, OPM, .op = TOP_MOV_FROM_C,
       AT(N("mov"), LDST, COND)),
    TE(0x4000000000000000ull, OPM, .op = TOP_MOV_FROM_A,
       AT(N("mov"), LDST, REG(tesla_r_lareg, RO_SRC))),
    TE(0x6000000000000000ull, OPM, .op = TOP_MOV_FROM_SR,
       AT(N("mov"), LDST, REG(tesla_r_sreg, RO_SRC))),
    TE(0x80c0000000000000ull, 0xe0c00000f0000000ull, .op = TOP_ST,
       AT(N("st"), MT("b32", TTYPE_B32), MEM(tesla_m_fout32, RO_DST),
          LSRC3)),
    TE(0xa000000000000000ull, OPM, .op = TOP_MOV_TO_C,
       AT(N("mov"), CDST, LSRC, IGNCE)),
    TE(0xc000000000000000ull, OPM, .op = TOP_SHL_A,
       AT(N("shl"), REG(tesla_r_adst, RO_DST), T(tesla_t_lsw),
          IMM(tesla_b_hshcnt, RO_SRC))),
    TE(0xe040000000000000ull, 0xe0400000f0000000ull, .progs = TP_CP,
       .op = TOP_ST,
       AT(N("st"), MT("b8", TTYPE_U8), T(fs8), TR(sstreg, RO_S0))),
    TE(0xe000000000000000ull, 0xe4400000f0000000ull, .progs = TP_CP,
       .op = TOP_ST,
       AT(N("st"), MT("b16", TTYPE_B16), T(fs16), TR(sstreg, RO_S0))),
    TE(0xe400000000000000ull, 0xe4400000f0000000ull, .progs = TP_CP,
       .op = TOP_ST,
       AT(N("st"), T(l_unlock), MT("b32", TTYPE_B32), T(fs32),
          TR(sstreg, RO_S0))),
);

#define LDS(val, mask, name, t, fs) \
    TE(val, mask, .feat = TESLA_F_SM11, .progs = TP_CP, .op = TOP_LD, \
       AT(N("ld"), T(csldreg), MT(name, t), TR(fs, RO_S0)))

TESLA_TABLE(long_op1,
    TE(0x0000000010000000ull, 0xe4000000f0000000ull, .op = TOP_MOV,
       AT(T(lane), N("mov"), T(l_sfu), B16, LLHDST,
          TM(tesla_t_lsh, TESLA_MC_HALF))),
    TE(0x0400000010000000ull, 0xe4000000f0000000ull, .op = TOP_MOV,
       AT(T(lane), N("mov"), T(l_sfu), B32, LLDST, T(tesla_t_lsw))),
    TE(0x2000000010000000ull, OPM, .op = TOP_LD,
       AT(N("ld"), T(csldreg), T(fcon))),
    LDS(0x4000000010000000ull, 0xe000c000f0000000ull, "u8", TTYPE_U8, fs8),
    LDS(0x4000400010000000ull, 0xe000c000f0000000ull, "u16", TTYPE_U16,
        fs16),
    LDS(0x4000800010000000ull, 0xe000c000f0000000ull, "s16", TTYPE_S16,
        fs16),
    LDS(0x4000c00010000000ull, 0xe080c000f0000000ull, "b32", TTYPE_B32,
        fs32),
    TE(0x4080c00010000000ull, 0xe080c000f0000000ull,
       .feat = TESLA_F_SM12, .progs = TP_CP, .op = TOP_LD_LOCK,
       AT(N("ld"), N("lock"), CDST, T(csldreg), MT("b32", TTYPE_B32),
          TR(fs32, RO_S0), IGNCE)),
    TE(0x6000000010000200ull, 0xe0000000f0000600ull,
       .feat = TESLA_F_SM12, .op = TOP_VOTE,
       AT(N("vote"), N("any"), CDST, IGNCE)),
    TE(0x6000000010000400ull, 0xe0000000f0000600ull,
       .feat = TESLA_F_SM12, .op = TOP_VOTE,
       AT(N("vote"), MOD("all", TMOD_VOTE_ALL), CDST, IGNCE)),
);

TESLA_TABLE(long_opd,
    TE(0x20000000d0000000ull, OPM, .op = TOP_ADD_A,
       AT(N("add"), REG(tesla_r_adst, RO_DST), REG(tesla_r_lareg, RO_SRC),
          IMM(b_offs, RO_SRC))),
    TE(0x40000000d0000000ull, OPM, .op = TOP_LD,
       AT(N("ld"), T(ldstm), TR(ldsto, RO_DST), TR(local, RO_S0))),
    TE(0x60000000d0000000ull, OPM, .op = TOP_ST,
       AT(N("st"), T(ldstm), TR(local, RO_DST), TR(ldsto, RO_S0))),
    TE(0x80000000d0000000ull, OPM, .progs = TP_CP, .op = TOP_LD,
       AT(N("ld"), T(ldstm), TR(ldsto, RO_DST),
          MEM(tesla_m_global, RO_S0))),
    TE(0xa0000000d0000000ull, OPM, .progs = TP_CP, .op = TOP_ST,
       AT(N("st"), T(ldstm), MEM(tesla_m_global, RO_DST),
          TR(ldsto, RO_S0))),
    TE(0xc0000000d0000000ull, OPM, .feat = TESLA_F_SM11, .progs = TP_CP,
       .op = TOP_RED,
       AT(N("red"), T(redm), MEM(tesla_m_global, RO_S0),
          TR(ldsto, RO_S1))),
    TE(0xe0000000d0000000ull, OPM, .feat = TESLA_F_SM11, .progs = TP_CP,
       .op = TOP_ATOM,
       AT(T(atomm), TR(ldsto, RO_DST), MEM(tesla_m_global2, RO_S0),
          TR(ldsts2, RO_S1), TR(mldsts3, RO_S2))),
);

const TeslaGroup tesla_group_data = {
    .name = "data",
    .ops[TCLS_SHORT] = { [0x1] = &short_mov },
    .ops[TCLS_IMM] = { [0x1] = &imm_mov },
    .ops[TCLS_LONG] = {
        [0x0] = &long_op0, [0x1] = &long_op1, [0xd] = &long_opd,
    },
};
