/*
 * Tesla opcode tables: the G200 f64 unit (cuda/double.rst): fma, add, mul,
 * min, max and set f64, op2 2-7 of long opcode 0xe.  Other variants lack
 * FP64: there these encodings print "???" and decode as illegal opcodes.
 *
 * Bit positions and printed forms follow envydis g80.c; bit numbers are in
 * the 64-bit instruction (word 1 bit 0 is bit 32).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

#define F64         NA("f64", RO_TYPE, TTYPE_F64)
#define NEGN        NA("neg", RO_NEG_NEXT, 0)
#define ABSN        NA("abs", RO_ABS_NEXT, 0)

/* source modifiers: neg src1 bit 58, neg src2 bit 59, abs 52 / 51 */
TESLA_FLAG1(neg58, 58, NEGN);
TESLA_FLAG1(neg59, 59, NEGN);
TESLA_FLAG1(abs52, 52, ABSN);
TESLA_FLAG1(abs51, 51, ABSN);
/* fma: the same bits negate the product and the addend */
TESLA_FLAG1(negprod, 58, MOD("neg", TMOD_NEG_PROD));
TESLA_FLAG1(negadd, 59, MOD("neg", TMOD_NEG_ADD));

/* rounding: fma bits 54-55, add word 0 bits 16-17, mul bits 49-50 */
#define RNDTAB(name, shift) \
    TESLA_TABLE(name, \
        TE(0ull << (shift), 3ull << (shift), \
           AT(NA("rn", RO_RND, TRND_RN))), \
        TE(1ull << (shift), 3ull << (shift), \
           AT(NA("rm", RO_RND, TRND_RM))), \
        TE(2ull << (shift), 3ull << (shift), \
           AT(NA("rp", RO_RND, TRND_RP))), \
        TE(3ull << (shift), 3ull << (shift), \
           AT(NA("rz", RO_RND, TRND_RZ))), \
        TE(0, 0, AT(UNK)))
RNDTAB(rnd_fma, 54);
RNDTAB(rnd_add, 16);
RNDTAB(rnd_mul, 49);

/* set condition: bits 46-49 are TCMP_* (l=1 e=2 g=4 u=8) */
#define CMPE(n, s) \
    TE((uint64_t)(n) << 46, 0xfull << 46, AT(NA(s, RO_CMP, n)))
TESLA_TABLE(setf,
    CMPE(0x0, "never"), CMPE(0x1, "l"), CMPE(0x2, "e"), CMPE(0x3, "le"),
    CMPE(0x4, "g"), CMPE(0x5, "lg"), CMPE(0x6, "ge"), CMPE(0x7, "lge"),
    CMPE(0x8, "u"), CMPE(0x9, "lu"), CMPE(0xa, "eu"), CMPE(0xb, "leu"),
    CMPE(0xc, "gu"), CMPE(0xd, "lgu"), CMPE(0xe, "geu"),
    CMPE(0xf, "always"),
    TE(0, 0, AT(UNK)),
);

#define OP2(op2)    (((uint64_t)(op2) << 61) | 0xe0000000ull)
#define OP2M        0xe0000000f0000000ull
#define D(op2, top, ...) \
    TE(OP2(op2), OP2M, .feat = TESLA_F_FP64, .op = top, AT(__VA_ARGS__))

TESLA_TABLE(l_double,
    /* fused: no intermediate rounding */
    D(2, TOP_DFMA, N("fma"), T(rnd_fma), F64, MCDST, LDDST, T(negprod),
      LDSRC, LDSRC2, T(negadd), LDSRC3),
    D(3, TOP_DADD, N("add"), T(rnd_add), F64, MCDST, LDDST, T(neg58),
      LDSRC, T(neg59), LDSRC3),
    D(4, TOP_DMUL, N("mul"), T(rnd_mul), F64, MCDST, LDDST, T(neg58),
      LDSRC, LDSRC2),
    D(5, TOP_DMIN, N("min"), F64, MCDST, LDDST, T(neg58), T(abs52), LDSRC,
      T(neg59), T(abs51), LDSRC2),
    D(6, TOP_DMAX, N("max"), F64, MCDST, LDDST, T(neg58), T(abs52), LDSRC,
      T(neg59), T(abs51), LDSRC2),
    /* the result is a 32-bit mask: 0xffffffff true, 0 false */
    D(7, TOP_DSET, N("set"), SET(RO_DTYPE, TTYPE_U32), MCDST, LLDST,
      T(setf), NA("f64", RO_STYPE, TTYPE_F64), T(neg58), T(abs52), LDSRC,
      T(neg59), T(abs51), LDSRC2),
);

const TeslaGroup tesla_group_double = {
    .name = "double",
    .ops = {
        [TCLS_LONG] = {
            [0xe] = &l_double,
        },
    },
};
