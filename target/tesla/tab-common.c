/*
 * Tesla opcode tables: fields, operand sub-tables and the root dispatch
 * shared by every instruction group (envydis g80.c is the reference for
 * every bit position and printed form here).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

/* ---- register fields: { pos, len, pos2, len2 }, kind ---- */

#define RF(name, pos, len, kind) \
    const TeslaRegDesc tesla_r_##name = { { pos, len, 0, 0, 0, 0, 0 }, kind }

RF(sdst, 2, 6, TRK_R);
RF(ldst, 2, 7, TRK_R);
RF(shdst, 2, 6, TRK_H);
RF(lhdst, 2, 7, TRK_H);
RF(lddst, 2, 7, TRK_D);
RF(lqdst, 2, 7, TRK_Q);
RF(ssrc, 9, 6, TRK_R);
RF(lsrc, 9, 7, TRK_R);
RF(shsrc, 9, 6, TRK_H);
RF(lhsrc, 9, 7, TRK_H);
RF(ldsrc, 9, 7, TRK_D);
RF(ssrc2, 16, 6, TRK_R);
RF(lsrc2, 16, 7, TRK_R);
RF(shsrc2, 16, 6, TRK_H);
RF(lhsrc2, 16, 7, TRK_H);
RF(ldsrc2, 16, 7, TRK_D);
RF(lsrc3, 46, 7, TRK_R);
RF(lhsrc3, 46, 7, TRK_H);
RF(ldsrc3, 46, 7, TRK_D);
RF(sareg, 26, 2, TRK_A);
RF(adst, 2, 3, TRK_A);
RF(cond, 44, 2, TRK_C);
RF(cdst, 36, 2, TRK_C);
RF(tex, 9, 8, TRK_T);
RF(samp, 17, 5, TRK_S);
RF(sreg, 46, 4, TRK_SR);
/* long $a: bits 26-27 and 34 */
const TeslaRegDesc tesla_r_lareg = { { 26, 2, 34, 1, 0, 0, 0 }, TRK_A };
/* a field of no bits: always $c0 (short addc) */
static const TeslaRegDesc r_c0 = { { 0, 0, 0, 0, 0, 0, 0 }, TRK_C };

/* ---- immediates ---- */

const TeslaBits tesla_b_imm = { 16, 6, 34, 26, 0, 0, 0 };
const TeslaBits tesla_b_shcnt = { 16, 7, 0, 0, 0, 0, 0 };
const TeslaBits tesla_b_hshcnt = { 16, 4, 0, 0, 0, 0, 0 };
const TeslaBits tesla_b_ign_ce = { 38, 1, 0, 0, 0, 0, 0 };
const TeslaBits tesla_b_ign_pred = { 39, 7, 0, 0, 0, 0, 0 };
const TeslaBits tesla_b_ctarg = { 11, 16, 46, 6, 2, 0, 0 };

/* ---- memory operands ---- */

#define BITS(pos, len, shl, sign) { pos, len, 0, 0, shl, sign, 0 }
#define NOBITS { 0, 0, 0, 0, 0, 0, 0 }
#define MD(name, space, flags, idx, reg, off) \
    const TeslaMemDesc tesla_m_##name = { space, flags, idx, reg, off }

#define FMEM8 BITS(9, 16, 0, 0)
#define FMEM16 BITS(9, 15, 1, 0)
#define FMEM32 BITS(9, 14, 2, 0)
#define SCIDX BITS(21, 1, 0, 0)
#define LCIDX BITS(54, 4, 0, 0)
#define PI TMEM_POSTINC

MD(ss8, TSPACE_S, 0, NOBITS, &tesla_r_sareg, BITS(9, 4, 0, 0));
MD(ss16, TSPACE_S, 0, NOBITS, &tesla_r_sareg, BITS(9, 4, 1, 0));
MD(ss32, TSPACE_S, 0, NOBITS, &tesla_r_sareg, BITS(9, 4, 2, 0));
MD(ss8pi, TSPACE_S, PI, NOBITS, &tesla_r_sareg, BITS(9, 4, 0, 1));
MD(ss16pi, TSPACE_S, PI, NOBITS, &tesla_r_sareg, BITS(9, 4, 1, 1));
MD(ss32pi, TSPACE_S, PI, NOBITS, &tesla_r_sareg, BITS(9, 4, 2, 1));
MD(ls8, TSPACE_S, 0, NOBITS, &tesla_r_lareg, BITS(9, 5, 0, 0));
MD(ls16, TSPACE_S, 0, NOBITS, &tesla_r_lareg, BITS(9, 5, 1, 0));
MD(ls32, TSPACE_S, 0, NOBITS, &tesla_r_lareg, BITS(9, 5, 2, 0));
MD(ls8pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, BITS(9, 5, 0, 1));
MD(ls16pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, BITS(9, 5, 1, 1));
MD(ls32pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, BITS(9, 5, 2, 1));
MD(fs8, TSPACE_S, 0, NOBITS, &tesla_r_lareg, FMEM8);
MD(fs16, TSPACE_S, 0, NOBITS, &tesla_r_lareg, FMEM16);
MD(fs32, TSPACE_S, 0, NOBITS, &tesla_r_lareg, FMEM32);
MD(fs8pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, FMEM8);
MD(fs16pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, FMEM16);
MD(fs32pi, TSPACE_S, PI, NOBITS, &tesla_r_lareg, FMEM32);

MD(sc16, TSPACE_C, 0, SCIDX, &tesla_r_sareg, BITS(16, 5, 1, 0));
MD(sc32, TSPACE_C, 0, SCIDX, &tesla_r_sareg, BITS(16, 5, 2, 0));
MD(sc16pi, TSPACE_C, PI, SCIDX, &tesla_r_sareg, BITS(16, 5, 1, 1));
MD(sc32pi, TSPACE_C, PI, SCIDX, &tesla_r_sareg, BITS(16, 5, 2, 1));
MD(l2c16, TSPACE_C, 0, LCIDX, &tesla_r_lareg, BITS(16, 7, 1, 0));
MD(l2c32, TSPACE_C, 0, LCIDX, &tesla_r_lareg, BITS(16, 7, 2, 0));
MD(l2c16pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, BITS(16, 7, 1, 1));
MD(l2c32pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, BITS(16, 7, 2, 1));
MD(l2c16na, TSPACE_C, 0, LCIDX, NULL, BITS(16, 7, 1, 0));
MD(l2c32na, TSPACE_C, 0, LCIDX, NULL, BITS(16, 7, 2, 0));
MD(l3c16, TSPACE_C, 0, LCIDX, &tesla_r_lareg, BITS(46, 7, 1, 0));
MD(l3c32, TSPACE_C, 0, LCIDX, &tesla_r_lareg, BITS(46, 7, 2, 0));
MD(l3c16pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, BITS(46, 7, 1, 1));
MD(l3c32pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, BITS(46, 7, 2, 1));
MD(l3c16na, TSPACE_C, 0, LCIDX, NULL, BITS(46, 7, 1, 0));
MD(l3c32na, TSPACE_C, 0, LCIDX, NULL, BITS(46, 7, 2, 0));
MD(fc8, TSPACE_C, 0, LCIDX, &tesla_r_lareg, FMEM8);
MD(fc16, TSPACE_C, 0, LCIDX, &tesla_r_lareg, FMEM16);
MD(fc32, TSPACE_C, 0, LCIDX, &tesla_r_lareg, FMEM32);
MD(fc8pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, FMEM8);
MD(fc16pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, FMEM16);
MD(fc32pi, TSPACE_C, PI, LCIDX, &tesla_r_lareg, FMEM32);

MD(local, TSPACE_L, 0, NOBITS, &tesla_r_lareg, FMEM8);
MD(localpi, TSPACE_L, PI, NOBITS, &tesla_r_lareg, FMEM8);

MD(sattr, TSPACE_A, 0, NOBITS, NULL, BITS(9, 6, 2, 0));
MD(lattr, TSPACE_A, 0, NOBITS, NULL, BITS(9, 7, 2, 0));
MD(fattr, TSPACE_A, 0, NOBITS, &tesla_r_lareg, BITS(9, 7, 2, 0));
MD(sprim, TSPACE_P, 0, NOBITS, &tesla_r_sareg, BITS(9, 6, 2, 0));
MD(lprim, TSPACE_P, 0, NOBITS, &tesla_r_lareg, BITS(9, 7, 2, 0));
MD(svar, TSPACE_V, 0, NOBITS, &tesla_r_sareg, BITS(16, 8, 2, 0));
MD(lvar, TSPACE_V, 0, NOBITS, &tesla_r_lareg, BITS(16, 8, 2, 0));

MD(global, TSPACE_G, 0, BITS(16, 4, 0, 0), &tesla_r_lsrc, NOBITS);
MD(global2, TSPACE_G, 0, BITS(23, 4, 0, 0), &tesla_r_lsrc, NOBITS);

MD(out16, TSPACE_O, 0, NOBITS, NULL, BITS(2, 7, 1, 0));
MD(out32, TSPACE_O, 0, NOBITS, NULL, BITS(2, 7, 2, 0));
MD(fout32, TSPACE_O, 0, NOBITS, &tesla_r_lareg, FMEM32);

/* memory type names */
#define MU8  NA("u8", RO_MTYPE, TTYPE_U8)
#define MU16 NA("u16", RO_MTYPE, TTYPE_U16)
#define MS16 NA("s16", RO_MTYPE, TTYPE_S16)
#define MB32 NA("b32", RO_MTYPE, TTYPE_B32)
#define SRCM(m) MEM(tesla_m_##m, RO_SRC)

/* ---- short operands ---- */

/* s[] (compute), a[] (vertex/geometry), p[] (geometry) as short src1 */
TESLA_TABLE_GLOBAL(tesla_t_ss,
    TE(0x01800000, 0x01800000, .progs = TP_GP, AT(SRCM(sprim))),
    TE(0x01000000, 0x03806000, .progs = TP_CP, AT(MU8, SRCM(ss8))),
    TE(0x01002000, 0x03806000, .progs = TP_CP, AT(MU16, SRCM(ss16))),
    TE(0x01004000, 0x03806000, .progs = TP_CP, AT(MS16, SRCM(ss16))),
    TE(0x01006000, 0x03806000, .progs = TP_CP, AT(MB32, SRCM(ss32))),
    TE(0x03000000, 0x03806000, .progs = TP_CP, AT(MU8, SRCM(ss8pi))),
    TE(0x03002000, 0x03806000, .progs = TP_CP, AT(MU16, SRCM(ss16pi))),
    TE(0x03004000, 0x03806000, .progs = TP_CP, AT(MS16, SRCM(ss16pi))),
    TE(0x03006000, 0x03806000, .progs = TP_CP, AT(MB32, SRCM(ss32pi))),
    TE(0x01000000, 0x01800000, .progs = TP_VP | TP_GP, AT(SRCM(sattr))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_ssh,
    TE(0x00000000, 0x01000000, AT(SHSRC)),
    TE(0x01000000, 0x01000000, AT(T(tesla_t_ss))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_ssw,
    TE(0x00000000, 0x01000000, AT(SSRC)),
    TE(0x01000000, 0x01000000, AT(T(tesla_t_ss))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_sch,
    TE(0x00000000, 0x01800000, AT(SHSRC2)),
    TE(0x00800000, 0x03800000, AT(SRCM(sc16))),
    TE(0x02800000, 0x03800000, AT(SRCM(sc16pi))),
    TE(0x01000000, 0x01800000, AT(SHSRC2)),
    TE(0x01800000, 0x01800000, AT(SHSRC2)),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_scw,
    TE(0x00000000, 0x01800000, AT(SSRC2)),
    TE(0x00800000, 0x03800000, AT(SRCM(sc32))),
    TE(0x02800000, 0x03800000, AT(SRCM(sc32pi))),
    TE(0x01000000, 0x01800000, AT(SSRC2)),
    TE(0x01800000, 0x01800000, AT(SSRC2)),
    TE(0, 0, AT(UNK)),
);

/* ---- immediate-form operands ---- */

TESLA_TABLE_GLOBAL(tesla_t_is,
    TE(0x01000000, 0x01000000, .progs = TP_GP, AT(SRCM(sprim))),
    TE(0x01000000, 0x03006000, .progs = TP_CP, AT(MU8, SRCM(ss8))),
    TE(0x01002000, 0x03006000, .progs = TP_CP, AT(MU16, SRCM(ss16))),
    TE(0x01004000, 0x03006000, .progs = TP_CP, AT(MS16, SRCM(ss16))),
    TE(0x01006000, 0x03006000, .progs = TP_CP, AT(MB32, SRCM(ss32))),
    TE(0x03000000, 0x03006000, .progs = TP_CP, AT(MU8, SRCM(ss8pi))),
    TE(0x03002000, 0x03006000, .progs = TP_CP, AT(MU16, SRCM(ss16pi))),
    TE(0x03004000, 0x03006000, .progs = TP_CP, AT(MS16, SRCM(ss16pi))),
    TE(0x03006000, 0x03006000, .progs = TP_CP, AT(MB32, SRCM(ss32pi))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_ish,
    TE(0x00000000, 0x01000000, AT(SHSRC)),
    TE(0x01000000, 0x01000000, AT(T(tesla_t_is))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_isw,
    TE(0x00000000, 0x01000000, AT(SSRC)),
    TE(0x01000000, 0x01000000, AT(T(tesla_t_is))),
    TE(0, 0, AT(UNK)),
);

/* ---- long operands ---- */

TESLA_TABLE_GLOBAL(tesla_t_realls,
    TE(0x00000000, 0x0200c000, .progs = TP_CP, AT(MU8, SRCM(ls8))),
    TE(0x00004000, 0x0200c000, .progs = TP_CP, AT(MU16, SRCM(ls16))),
    TE(0x00008000, 0x0200c000, .progs = TP_CP, AT(MS16, SRCM(ls16))),
    TE(0x0000c000, 0x0200c000, .progs = TP_CP, AT(MB32, SRCM(ls32))),
    TE(0x02000000, 0x0200c000, .progs = TP_CP, AT(MU8, SRCM(ls8pi))),
    TE(0x02004000, 0x0200c000, .progs = TP_CP, AT(MU16, SRCM(ls16pi))),
    TE(0x02008000, 0x0200c000, .progs = TP_CP, AT(MS16, SRCM(ls16pi))),
    TE(0x0200c000, 0x0200c000, .progs = TP_CP, AT(MB32, SRCM(ls32pi))),
    TE(0, 0, .progs = TP_VP | TP_GP, AT(SRCM(lattr))),
    TE(0, 0, AT(UNK)),
);

#define LSMASK 0x0020000001800000ull

TESLA_TABLE_GLOBAL(tesla_t_lsh,
    TE(0x0000000000000000ull, LSMASK, AT(LHSRC)),
    TE(0x0000000000800000ull, LSMASK, AT(LHSRC)),
    TE(0x0000000001000000ull, LSMASK, AT(LHSRC)),
    TE(0x0000000001800000ull, LSMASK, .progs = TP_GP, AT(SRCM(lprim))),
    TE(0x0020000000000000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000000800000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000001000000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000001800000ull, LSMASK, .progs = TP_GP, AT(SRCM(lprim))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_lsw,
    TE(0x0000000000000000ull, LSMASK, AT(LSRC)),
    TE(0x0000000000800000ull, LSMASK, AT(LSRC)),
    TE(0x0000000001000000ull, LSMASK, AT(LSRC)),
    TE(0x0000000001800000ull, LSMASK, .progs = TP_GP, AT(SRCM(lprim))),
    TE(0x0020000000000000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000000800000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000001000000ull, LSMASK, AT(T(tesla_t_realls))),
    TE(0x0020000001800000ull, LSMASK, .progs = TP_GP, AT(SRCM(lprim))),
    TE(0, 0, AT(UNK)),
);

#define NCP (TP_VP | TP_GP | TP_FP)

TESLA_TABLE_GLOBAL(tesla_t_lc2h,
    TE(0x0000000000000000ull, 0x0000000001800000ull, AT(LHSRC2)),
    TE(0x0000000000800000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l2c16))),
    TE(0x0000000002800000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l2c16pi))),
    TE(0x0020000000800000ull, 0x0020000001800000ull, .progs = TP_CP,
       AT(SRCM(l2c16na))),
    TE(0x0000000000800000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l2c16))),
    TE(0x0000000002800000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l2c16pi))),
    TE(0x0000000001000000ull, 0x0000000001800000ull, AT(LHSRC2)),
    TE(0x0000000001800000ull, 0x0020000001800000ull, .progs = TP_GP,
       AT(SRCM(l2c16na))),
    TE(0x0020000001800000ull, 0x0020000001800000ull, AT(LHSRC2)),
    TE(0, 0, AT(UNK)),
);

/* (envydis takes the non-postincrement c[] for 0x2800000 in compute) */
TESLA_TABLE_GLOBAL(tesla_t_lc2w,
    TE(0x0000000000000000ull, 0x0000000001800000ull, AT(LSRC2)),
    TE(0x0000000000800000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l2c32))),
    TE(0x0000000002800000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l2c32))),
    TE(0x0020000000800000ull, 0x0020000001800000ull, .progs = TP_CP,
       AT(SRCM(l2c32na))),
    TE(0x0000000000800000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l2c32))),
    TE(0x0000000002800000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l2c32pi))),
    TE(0x0000000001000000ull, 0x0000000001800000ull, AT(LSRC2)),
    TE(0x0000000001800000ull, 0x0020000001800000ull, .progs = TP_GP,
       AT(SRCM(l2c32na))),
    TE(0x0020000001800000ull, 0x0020000001800000ull, AT(LSRC2)),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_lc3h,
    TE(0x0000000000000000ull, 0x0000000001800000ull, AT(LHSRC3)),
    TE(0x0000000000800000ull, 0x0000000001800000ull, AT(LHSRC3)),
    TE(0x0000000001000000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l3c16))),
    TE(0x0000000003000000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l3c16pi))),
    TE(0x0020000001000000ull, 0x0020000001800000ull, .progs = TP_CP,
       AT(SRCM(l3c16na))),
    TE(0x0000000001000000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l3c16))),
    TE(0x0000000003000000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l3c16pi))),
    TE(0x0000000001800000ull, 0x0020000001800000ull, .progs = TP_GP,
       AT(SRCM(l3c16na))),
    TE(0x0020000001800000ull, 0x0020000001800000ull, AT(LHSRC3)),
    TE(0, 0, AT(UNK)),
);

/* (envydis uses the 16-bit c[] for the geometry no-$a form here too) */
TESLA_TABLE_GLOBAL(tesla_t_lc3w,
    TE(0x0000000000000000ull, 0x0000000001800000ull, AT(LSRC3)),
    TE(0x0000000000800000ull, 0x0000000001800000ull, AT(LSRC3)),
    TE(0x0000000001000000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l3c32))),
    TE(0x0000000003000000ull, 0x0020000003800000ull, .progs = TP_CP,
       AT(SRCM(l3c32pi))),
    TE(0x0020000001000000ull, 0x0020000001800000ull, .progs = TP_CP,
       AT(SRCM(l3c32na))),
    TE(0x0000000001000000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l3c32))),
    TE(0x0000000003000000ull, 0x0000000003800000ull, .progs = NCP,
       AT(SRCM(l3c32pi))),
    TE(0x0000000001800000ull, 0x0020000001800000ull, .progs = TP_GP,
       AT(SRCM(l3c16na))),
    TE(0x0020000001800000ull, 0x0020000001800000ull, AT(LSRC3)),
    TE(0, 0, AT(UNK)),
);

/* long destination: $r, or o[] when bit 35 is set; o[] 127: discarded */
TESLA_TABLE_GLOBAL(tesla_t_lldst,
    TE(0x0000000000000000ull, 0x0000000800000000ull, AT(LDST)),
    TE(0x00000008000001fcull, 0x00000008000001fcull, AT(DISCARDOP(RO_DST))),
    TE(0x0000000800000000ull, 0x0000000800000000ull,
       AT(SET(RO_MTYPE, TTYPE_B32), MEM(tesla_m_out32, RO_DST))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_llhdst,
    TE(0x0000000000000000ull, 0x0000000800000000ull, AT(LHDST)),
    TE(0x00000008000001fcull, 0x00000008000001fcull, AT(DISCARDOP(RO_DST))),
    /* a 16-bit result to o[] is written to both halves of the word */
    TE(0x0000000800000000ull, 0x0000000800000000ull,
       AT(SET(RO_MTYPE, TTYPE_B16), MEM(tesla_m_out16, RO_DST))),
    TE(0, 0, AT(UNK)),
);

/* $c written when bit 38 is set */
TESLA_TABLE_GLOBAL(tesla_t_mcdst,
    TE(0, 1ull << 38),
    TE(1ull << 38, 1ull << 38, AT(CDST)),
    TE(0, 0, AT(UNK)),
);

/* ---- predicates: word 1 bits 7-11 function, 12-13 $c ---- */

#define PMASK 0x00000f8000000000ull
#define PRED(n, s) \
    TE((uint64_t)(n) << 39, PMASK, \
       AT(OPEN, NA(s, RO_PRED, n), REG(tesla_r_cond, RO_PREDC), CLOSE))

TESLA_TABLE_GLOBAL(tesla_t_pred,
    TE(0, PMASK, AT(OPEN, NA("never", RO_PRED, 0), CLOSE)),
    PRED(0x01, "l"), PRED(0x02, "e"), PRED(0x03, "le"),
    PRED(0x04, "g"), PRED(0x05, "lg"), PRED(0x06, "ge"),
    PRED(0x07, "lge"), PRED(0x08, "u"), PRED(0x09, "lu"),
    PRED(0x0a, "eu"), PRED(0x0b, "leu"), PRED(0x0c, "gu"),
    PRED(0x0d, "lgu"), PRED(0x0e, "geu"),
    TE(0x0full << 39, PMASK, AT(SET(RO_PRED, TPRED_ALWAYS))),
    PRED(0x10, "o"), PRED(0x11, "c"), PRED(0x12, "a"), PRED(0x13, "s"),
    PRED(0x1c, "ns"), PRED(0x1d, "na"), PRED(0x1e, "nc"), PRED(0x1f, "no"),
    TE(0, 0, AT(UNK)),
);

/* ---- add/sub/subr/addc selectors ---- */

TESLA_TABLE_GLOBAL(tesla_t_addop,
    TE(0x00000000, 0x10400000, AT(NA("add", RO_ADDOP, TADDOP_ADD))),
    TE(0x00400000, 0x10400000, AT(NA("sub", RO_ADDOP, TADDOP_SUB))),
    TE(0x10000000, 0x10400000, AT(NA("subr", RO_ADDOP, TADDOP_SUBR))),
    TE(0x10400000, 0x10400000, AT(NA("addc", RO_ADDOP, TADDOP_ADDC))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_addc0,
    TE(0x00000000, 0x10400000),
    TE(0x00400000, 0x10400000),
    TE(0x10000000, 0x10400000),
    TE(0x10400000, 0x10400000, AT(REG(r_c0, RO_CSRC))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_addcond,
    TE(0x00000000, 0x10400000),
    TE(0x00400000, 0x10400000),
    TE(0x10000000, 0x10400000),
    TE(0x10400000, 0x10400000, AT(COND)),
    TE(0, 0, AT(UNK)),
);

#define A2MASK 0x0c00000000000000ull

TESLA_TABLE_GLOBAL(tesla_t_addop2,
    TE(0x0000000000000000ull, A2MASK, AT(NA("add", RO_ADDOP, TADDOP_ADD))),
    TE(0x0400000000000000ull, A2MASK, AT(NA("sub", RO_ADDOP, TADDOP_SUB))),
    TE(0x0800000000000000ull, A2MASK,
       AT(NA("subr", RO_ADDOP, TADDOP_SUBR))),
    TE(0x0c00000000000000ull, A2MASK,
       AT(NA("addc", RO_ADDOP, TADDOP_ADDC))),
    TE(0, 0, AT(UNK)),
);

TESLA_TABLE_GLOBAL(tesla_t_addcond2,
    TE(0x0000000000000000ull, A2MASK),
    TE(0x0400000000000000ull, A2MASK),
    TE(0x0800000000000000ull, A2MASK),
    TE(0x0c00000000000000ull, A2MASK, AT(COND)),
    TE(0, 0, AT(UNK)),
);

/* ---- root ---- */

TESLA_TABLE_GLOBAL(tesla_t_root,
    TE(0x0000000000000000ull, 0x0000000000000001ull, AT(GROUPS)),
    TE(0x0000000000000003ull, 0x0000000000000003ull, AT(GROUPS)),
    TE(0x0000000000000001ull, 0x0000000300000003ull,
       AT(T(tesla_t_pred), GROUPS)),
    TE(0x0000000100000001ull, 0x0000000300000003ull,
       AT(NA("exit", RO_POST, TPOST_EXIT), T(tesla_t_pred), GROUPS)),
    TE(0x0000000200000001ull, 0x0000000300000003ull,
       AT(NA("join", RO_POST, TPOST_JOIN), T(tesla_t_pred), GROUPS)),
    TE(0x0000000300000001ull, 0x0000000300000003ull, AT(GROUPS)),
);

/* what each class prints for an opcode no group knows */
TESLA_TABLE(fb_short,
    TE(0, 2, AT(UNK, SDST, T(tesla_t_ssw), T(tesla_t_scw))),
);
TESLA_TABLE(fb_short_ctl,
    TE(0, 0, AT(UNK)),
);
TESLA_TABLE(fb_imm,
    TE(0, 0, AT(UNK, SDST, T(tesla_t_isw), LIMM)),
);
TESLA_TABLE(fb_long,
    TE(0, 0, AT(UNK, MCDST, LLDST, T(tesla_t_lsw), T(tesla_t_lc2w),
                T(tesla_t_lc3w))),
);
TESLA_TABLE(fb_long_ctl,
    TE(0, 0, AT(T(tesla_t_pred), UNK, TARGET(tesla_b_ctarg))),
);

const TeslaTable *const tesla_class_fallback[TCLS_NUM] = {
    [TCLS_SHORT] = &fb_short,
    [TCLS_SHORT_CTL] = &fb_short_ctl,
    [TCLS_IMM] = &fb_imm,
    [TCLS_LONG] = &fb_long,
    [TCLS_LONG_CTL] = &fb_long_ctl,
};

const TeslaGroup *const tesla_groups[] = {
    &tesla_group_data,
    &tesla_group_control,
    &tesla_group_int,
    &tesla_group_float,
    &tesla_group_sfu,
    &tesla_group_double,
    &tesla_group_tex,
};
const unsigned tesla_ngroups = ARRAY_SIZE(tesla_groups);

TeslaClass tesla_class_of(uint64_t bits)
{
    if (!(bits & 1)) {
        return (bits & 2) ? TCLS_SHORT_CTL : TCLS_SHORT;
    }
    if ((bits & 3) == 3) {
        return TCLS_LONG_CTL;
    }
    if (((bits >> 32) & 3) == 3) {
        return TCLS_IMM;
    }
    return TCLS_LONG;
}
