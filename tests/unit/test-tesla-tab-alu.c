/*
 * Tesla decoder: the integer and f32 groups (tab-int.c, tab-float.c).
 * What the interpreter is handed for representative encodings of every
 * form (short, long immediate, long): op, add/log/compare ops, modifiers,
 * types, operands (registers, halves, s[]/c[], immediates), $c, and the
 * decode errors of the s[] memory classes.  Encodings are envyas output
 * (tesla-asm-catalogue.tsv) or built from the envydis bit positions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/tesla/insn.h"
#include "target/tesla/exec.h"
#include <check.h>

static TeslaInsn dec_v(TeslaVariant v, TeslaProgType p, uint32_t w0,
                       uint32_t w1)
{
    uint32_t code[2] = { w0, w1 };
    TeslaInsn insn;

    tesla_decode(v, p, code, (w0 & 1) ? 2 : 1, 0, &insn);
    return insn;
}

static TeslaInsn dec(uint32_t w0, uint32_t w1)
{
    return dec_v(TESLA_G84, TESLA_PROG_CP, w0, w1);
}

static char *dis_v(TeslaVariant v, TeslaProgType p, uint32_t w0,
                   uint32_t w1)
{
    uint32_t code[2] = { w0, w1 };
    GString *s = g_string_new(NULL);

    tesla_disasm(v, p, code, (w0 & 1) ? 2 : 1, 0, s, NULL);
    return g_string_free(s, false);
}

#define ck_ok(i) ck_assert_int_eq((i).error, TESLA_ERR_NONE)

static void ck_reg(const TeslaOperand *o, unsigned reg)
{
    ck_assert_int_eq(o->kind, TOPND_REG);
    ck_assert_uint_eq(o->reg, reg);
}

static void ck_hreg(const TeslaOperand *o, unsigned reg, unsigned half)
{
    ck_assert_int_eq(o->kind, TOPND_HREG);
    ck_assert_uint_eq(o->reg, reg);
    ck_assert_uint_eq(o->half, half);
}

static void ck_imm(const TeslaOperand *o, uint32_t v)
{
    ck_assert_int_eq(o->kind, TOPND_IMM);
    ck_assert_uint_eq(o->imm, v);
}

static void ck_mem(const TeslaOperand *o, unsigned space, unsigned idx,
                   uint32_t off, unsigned mtype)
{
    ck_assert_int_eq(o->kind, TOPND_MEM);
    ck_assert_uint_eq(o->space, space);
    ck_assert_uint_eq(o->space_idx, idx);
    ck_assert_uint_eq(o->imm, off);
    ck_assert_uint_eq(o->mtype, mtype);
}

/* ---- add / sub / subr / addc ---- */

START_TEST(int_add_short)
{
    /* add b32 $r1 $r2 $r3 */
    TeslaInsn i = dec(0x20038404, 0);

    ck_ok(i);
    ck_assert_int_eq(i.len, 4);
    ck_assert_int_eq(i.op, TOP_IADD);
    ck_assert_int_eq(i.addop, TADDOP_ADD);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    ck_assert_int_eq(i.dtype, TTYPE_B32);
    ck_assert_int_eq(i.cdst, -1);
    ck_assert_int_eq(i.pred, TPRED_ALWAYS);
    ck_reg(&i.dst, 1);
    ck_assert_int_eq(i.nsrc, 2);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);

    /* sub b32, subr b32, add sat b32 */
    i = dec(0x20438404, 0);
    ck_ok(i);
    ck_assert_int_eq(i.addop, TADDOP_SUB);
    i = dec(0x30038404, 0);
    ck_ok(i);
    ck_assert_int_eq(i.addop, TADDOP_SUBR);
    i = dec(0x20038504, 0);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_B32 | TMOD_SAT);
}
END_TEST

START_TEST(int_addc_short_reads_c0)
{
    /* addc b32 $r1 $r2 $r3 $c0: the short form's carry is always $c0 */
    TeslaInsn i = dec(0x30438404, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IADD);
    ck_assert_int_eq(i.addop, TADDOP_ADDC);
    ck_assert_uint_eq(i.csrc, 0);
    ck_assert_int_eq(i.nsrc, 2);
}
END_TEST

START_TEST(int_add_b16_halves)
{
    /* add b16 $r1l $r2h $r3l */
    TeslaInsn i = dec(0x20060a08, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IADD);
    ck_assert_uint_eq(i.mods & TMOD_B32, 0);
    ck_assert_int_eq(i.dtype, TTYPE_B16);
    ck_hreg(&i.dst, 1, 0);
    ck_hreg(&i.src[0], 2, 1);
    ck_hreg(&i.src[1], 3, 0);
}
END_TEST

START_TEST(int_add_operand_forms)
{
    /* add b32 $r1 $r2 0x1234 (long immediate) */
    TeslaInsn i = dec(0x20348405, 0x00000123);

    ck_ok(i);
    ck_assert_int_eq(i.len, 8);
    ck_assert_int_eq(i.op, TOP_IADD);
    ck_reg(&i.dst, 1);
    ck_reg(&i.src[0], 2);
    ck_imm(&i.src[1], 0x1234);

    /* add b32 $r1 $r2 c0[0x4] */
    i = dec(0x20818404, 0);
    ck_ok(i);
    ck_mem(&i.src[1], TSPACE_C, 0, 0x4, TTYPE_B32);

    /* add b32 $r1 b32 s[0x14] $r2 */
    i = dec(0x2102ea04, 0);
    ck_ok(i);
    ck_mem(&i.src[0], TSPACE_S, 0, 0x14, TTYPE_B32);
    ck_reg(&i.src[1], 2);

    /* add b16 $r1l $r2l c1[0x6]: a 16-bit c[] source is a half-word */
    i = dec(0x20a30808, 0);
    ck_ok(i);
    ck_mem(&i.src[1], TSPACE_C, 1, 0x6, TTYPE_B16);
}
END_TEST

START_TEST(int_add_long)
{
    /* add b32 $c0 $r1 $r2 $r3: the second source is the SRC3 field */
    TeslaInsn i = dec(0x20000405, 0x0400c7c0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IADD);
    ck_assert_int_eq(i.cdst, 0);
    ck_reg(&i.dst, 1);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);

    /* add b32 sat $c0 $r8 $r3 $r4 */
    i = dec(0x20000621, 0x0c0107c0);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_B32 | TMOD_SAT);
    ck_reg(&i.dst, 8);
    ck_reg(&i.src[1], 4);

    /* (ge $c2) addc b32 $r1 $r2 $r3 $c2: predicate and carry share $c */
    i = dec(0x30400405, 0x0400e300);
    ck_ok(i);
    ck_assert_int_eq(i.addop, TADDOP_ADDC);
    ck_assert_uint_eq(i.csrc, 2);
    ck_assert_uint_eq(i.pred, 0x6);
    ck_assert_uint_eq(i.pred_c, 2);
}
END_TEST

/* ---- mul ---- */

START_TEST(int_mul16)
{
    /* mul $r1 u16 $r2l u16 $r3h */
    TeslaInsn i = dec(0x40070804, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMUL16);
    ck_reg(&i.dst, 1);
    ck_hreg(&i.src[0], 2, 0);
    ck_hreg(&i.src[1], 3, 1);
    ck_assert_uint_eq(i.src[0].mtype, TTYPE_U16);
    ck_assert_uint_eq(i.src[1].mtype, TTYPE_U16);

    /* mul $r1 s16 $r2l u16 $r3h: the signs are independent */
    i = dec(0x40078804, 0);
    ck_ok(i);
    ck_assert_uint_eq(i.src[0].mtype, TTYPE_S16);
    ck_assert_uint_eq(i.src[1].mtype, TTYPE_U16);

    /* mul $c0 $r1 s16 $r2l s16 $r3l (long) */
    i = dec(0x40060805, 0x0000c7c0);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMUL16);
    ck_assert_int_eq(i.cdst, 0);
    ck_assert_uint_eq(i.src[0].mtype, TTYPE_S16);
    ck_assert_uint_eq(i.src[1].mtype, TTYPE_S16);
}
END_TEST

START_TEST(int_mul24)
{
    /* mul $r1 u24 $r2 $r3 */
    TeslaInsn i = dec(0x40430404, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMUL24);
    ck_assert_int_eq(i.stype, TTYPE_U24);
    ck_assert_uint_eq(i.mods & (TMOD_SIGNED | TMOD_HIGH), 0);

    /* mul $r1 high s24 $r2 $r3 */
    i = dec(0x40438504, 0);
    ck_ok(i);
    ck_assert_int_eq(i.stype, TTYPE_S24);
    ck_assert_uint_eq(i.mods, TMOD_SIGNED | TMOD_HIGH);

    /* mul $r8 u24 $r3 0x123456 */
    i = dec(0x40560621, 0x00012347);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMUL24);
    ck_reg(&i.dst, 8);
    ck_reg(&i.src[0], 3);
    ck_imm(&i.src[1], 0x123456);
}
END_TEST

/* ---- mad ---- */

START_TEST(int_mad_long)
{
    /* add $r1 (mul u24 $r2 $r3) $r4 */
    TeslaInsn i = dec(0x60030405, 0x60010780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAD);
    ck_assert_int_eq(i.addop, TADDOP_ADD);
    ck_assert_int_eq(i.stype, TTYPE_U24);
    ck_assert_int_eq(i.nsrc, 3);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);
    ck_reg(&i.src[2], 4);

    /* sub $r1 (mul high s24 $r2 $r3) $r4 */
    i = dec(0x60030405, 0xe4010780);
    ck_ok(i);
    ck_assert_int_eq(i.addop, TADDOP_SUB);
    ck_assert_int_eq(i.stype, TTYPE_S24);
    ck_assert_uint_eq(i.mods, TMOD_HIGH | TMOD_SIGNED);

    /* addc $r1 (mul u24 $r2 $r3) $r4 $c1 */
    i = dec(0x60030405, 0x6c011780);
    ck_ok(i);
    ck_assert_int_eq(i.addop, TADDOP_ADDC);
    ck_assert_uint_eq(i.csrc, 1);

    /* add sat $r8 (mul high s24 $r3 $r4) $r5 (opcode 7) */
    i = dec(0x70040621, 0x00014780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAD);
    ck_assert_uint_eq(i.mods, TMOD_SAT | TMOD_HIGH | TMOD_SIGNED);
    ck_reg(&i.dst, 8);
    ck_reg(&i.src[2], 5);
}
END_TEST

START_TEST(int_mad_short_dst_is_src3)
{
    /* add $r1 (mul u24 $r2 $r3) $r1 */
    TeslaInsn i = dec(0x60038504, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAD);
    ck_assert_int_eq(i.stype, TTYPE_U24);
    ck_assert_int_eq(i.nsrc, 3);
    ck_reg(&i.dst, 1);
    ck_reg(&i.src[2], 1);

    /* add $r1 (mul u16 $r2l $r3l) $r1 */
    i = dec(0x60060804, 0);
    ck_ok(i);
    ck_assert_int_eq(i.stype, TTYPE_U16);
    ck_assert_uint_eq(i.mods & TMOD_SIGNED, 0);
    ck_hreg(&i.src[0], 2, 0);
    ck_hreg(&i.src[1], 3, 0);
    ck_reg(&i.src[2], 1);

    /* add sat $r1 (mul s16 $r2l $r3l) $r1 */
    i = dec(0x60068804, 0);
    ck_ok(i);
    ck_assert_int_eq(i.stype, TTYPE_S16);
    ck_assert_uint_eq(i.mods, TMOD_SAT | TMOD_SIGNED);
}
END_TEST

/* ---- sad, set, min/max, shifts ---- */

START_TEST(int_sad)
{
    /* sad $r1 u32 $r2 $r3 $r4 */
    TeslaInsn i = dec(0x50030405, 0x04010780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_SAD);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    ck_assert_int_eq(i.stype, TTYPE_U32);
    ck_reg(&i.src[2], 4);

    /* sad $r1 u32 $r2 $r3 $r1 (short: DST = SRC3) */
    i = dec(0x50038404, 0);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_SAD);
    ck_assert_int_eq(i.nsrc, 3);
    ck_reg(&i.src[2], 1);

    /* sad $r1 s16 $r2l $r3h $r1 */
    i = dec(0x50070904, 0);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SIGNED);
    ck_hreg(&i.src[0], 2, 0);
    ck_hreg(&i.src[1], 3, 1);
}
END_TEST

START_TEST(int_set_minmax)
{
    /* set $r1 l u32 $r2 $r3 */
    TeslaInsn i = dec(0x30030405, 0x64004780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_ISET);
    ck_assert_uint_eq(i.cmp, TCMP_L);
    ck_assert_uint_eq(i.mods, TMOD_B32);

    /* set $c1 $r1 ge s32 $r2 $r3 */
    i = dec(0x30030405, 0x6c0187d0);
    ck_ok(i);
    ck_assert_uint_eq(i.cmp, TCMP_G | TCMP_E);
    ck_assert_uint_eq(i.mods, TMOD_B32 | TMOD_SIGNED);
    ck_assert_int_eq(i.cdst, 1);

    /* max u32, min s32 */
    i = dec(0x30030405, 0x84000780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAX);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    i = dec(0x30030405, 0xac000780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMIN);
    ck_assert_uint_eq(i.mods, TMOD_B32 | TMOD_SIGNED);

    /* max s16 $r8l $r3l $r4l */
    i = dec(0x30080c41, 0x88000780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAX);
    ck_assert_uint_eq(i.mods, TMOD_SIGNED);
    ck_hreg(&i.dst, 8, 0);
    ck_hreg(&i.src[0], 3, 0);
    ck_hreg(&i.src[1], 4, 0);
}
END_TEST

START_TEST(int_shifts)
{
    /* shl b32 $r1 $r2 $r3 */
    TeslaInsn i = dec(0x30030405, 0xc4000780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_SHL);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    ck_reg(&i.src[1], 3);

    /* shl b32 $r1 $r2 0x3 */
    i = dec(0x30030405, 0xc4100780);
    ck_ok(i);
    ck_imm(&i.src[1], 3);

    /* shr s32 $r1 $r2 $r3 */
    i = dec(0x30030405, 0xec000780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_SHR);
    ck_assert_uint_eq(i.mods, TMOD_B32 | TMOD_SIGNED);

    /* shr s16 $r8l $r3h 0x4 */
    i = dec(0x30040e41, 0xe8100780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_SHR);
    ck_assert_uint_eq(i.mods, TMOD_SIGNED);
    ck_hreg(&i.dst, 8, 0);
    ck_hreg(&i.src[0], 3, 1);
    ck_imm(&i.src[1], 4);
}
END_TEST

/* ---- logic ops ---- */

START_TEST(int_logops)
{
    /* and b32 $r1 $r2 $r3 */
    TeslaInsn i = dec(0xd0030405, 0x04000780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_LOGOP);
    ck_assert_int_eq(i.logop, TLOGOP_AND);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    ck_assert(!i.src[0].not_ && !i.src[1].not_);

    /* or b32 $r1 not $r2 $r3 */
    i = dec(0xd0030405, 0x04014780);
    ck_ok(i);
    ck_assert_int_eq(i.logop, TLOGOP_OR);
    ck_assert(i.src[0].not_ && !i.src[1].not_);

    /* xor b32 $r1 $r2 not $r3 */
    i = dec(0xd0030405, 0x04028780);
    ck_ok(i);
    ck_assert_int_eq(i.logop, TLOGOP_XOR);
    ck_assert(!i.src[0].not_ && i.src[1].not_);

    /* mov2 b32 $r1 $r2 $r3 */
    i = dec(0xd0030405, 0x0400c780);
    ck_ok(i);
    ck_assert_int_eq(i.logop, TLOGOP_MOV2);

    /* xor b32 $r8 not $r3 0xffff (immediate) */
    i = dec(0xd07f8621, 0x00000fff);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_LOGOP);
    ck_assert_int_eq(i.logop, TLOGOP_XOR);
    ck_assert_uint_eq(i.mods, TMOD_B32);
    ck_assert(i.src[0].not_);
    ck_reg(&i.src[0], 3);
    ck_imm(&i.src[1], 0xffff);
}
END_TEST

/* ---- s[] memory classes (isa.rst "Shared memory access") ---- */

START_TEST(int_shared_memory_classes)
{
    /* add b16 $r1l b32 s[0x4] $r3l: a 16-bit source cannot read b32 */
    TeslaInsn i = dec(0x21066208, 0);

    ck_assert_int_eq(i.error, TESLA_ERR_ILLEGAL_MEMORY_SIZE);
    ck_assert_int_eq(i.op, TOP_INVALID);
    /* the same bits are an a[] source in a vertex program */
    i = dec_v(TESLA_G84, TESLA_PROG_VP, 0x21066208, 0);
    ck_ok(i);
    ck_assert_int_eq(i.src[0].space, TSPACE_A);

    /* add $r1 (mul s16 u16 s[0x0] $r3l) $r1: wrong sign */
    i = dec(0x61062104, 0);
    ck_assert_int_eq(i.error, TESLA_ERR_ILLEGAL_MEMORY_SIGN);
    /* with s16 s[0x0] it is fine */
    i = dec(0x61064104, 0);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_IMAD);
    ck_mem(&i.src[0], TSPACE_S, 0, 0, TTYPE_S16);
}
END_TEST

/* ---- f32 ---- */

START_TEST(float_add_mul)
{
    /* add f32 $r1 $r2 $r3 */
    TeslaInsn i = dec(0xb0030404, 0);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FADD);
    ck_assert_int_eq(i.dtype, TTYPE_F32);
    ck_assert_int_eq(i.stype, TTYPE_F32);
    ck_assert_int_eq(i.rnd, TRND_RN);
    ck_assert_uint_eq(i.mods, 0);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);

    /* add f32 $r1 neg $r2 $r3 */
    i = dec(0xb0038404, 0);
    ck_ok(i);
    ck_assert(i.src[0].neg && !i.src[1].neg);

    /* add sat f32 $r1 $r2 $r3 */
    i = dec(0xb0030504, 0);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SAT);

    /* add rz f32 $r1 $r2 $r3 (long: second source in the SRC3 field) */
    i = dec(0xb0030405, 0x0000c780);
    ck_ok(i);
    ck_assert_int_eq(i.rnd, TRND_RZ);
    ck_reg(&i.src[1], 3);

    /* add rn f32 $c0 $r9 $r3 $r4 */
    i = dec(0xb0000625, 0x000107c0);
    ck_ok(i);
    ck_assert_int_eq(i.cdst, 0);
    ck_reg(&i.dst, 9);
    ck_reg(&i.src[1], 4);

    /* add f32 $r1 $r2 0x3f800000 */
    i = dec(0xb0000405, 0x03f80003);
    ck_ok(i);
    ck_imm(&i.src[1], 0x3f800000);

    /* mul rz f32 $r1 $r2 $r3 */
    i = dec(0xc0030405, 0x0000c780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FMUL);
    ck_assert_int_eq(i.rnd, TRND_RZ);
    ck_reg(&i.src[1], 3);
}
END_TEST

START_TEST(float_mul_sat_g200_only)
{
    /* mul sat rn f32 $r1 $r2 $r3: the sat bit exists from G200 on */
    TeslaInsn i = dec_v(TESLA_G200, TESLA_PROG_CP, 0xc0030405, 0x00100780);
    g_autofree char *t80 = dis_v(TESLA_G80, TESLA_PROG_CP, 0xc0030405,
                                 0x00100780);

    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SAT);
    i = dec_v(TESLA_G84, TESLA_PROG_CP, 0xc0030405, 0x00100780);
    ck_assert_int_eq(i.error, TESLA_ERR_ILLEGAL_OPCODE);
    ck_assert_str_eq(t80,
                     "mul rn f32 $r1 $r2 $r3 [unknown: 00000000 00100000]");

    /* short: mul sat f32 $r1 $r2 $r3 */
    i = dec_v(TESLA_G200, TESLA_PROG_CP, 0xc0030504, 0);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SAT);
    i = dec_v(TESLA_G80, TESLA_PROG_CP, 0xc0030504, 0);
    ck_assert_int_eq(i.error, TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(float_add_bad_rounding)
{
    /* long add f32 knows rn (0) and rz (3) only */
    g_autofree char *t = dis_v(TESLA_G84, TESLA_PROG_CP, 0xb0010405,
                               0x00000780);
    TeslaInsn i = dec(0xb0010405, 0x00000780);

    ck_assert(g_str_has_prefix(t, "add ??? f32 $r1 $r2 $r0"));
    ck_assert_int_eq(i.error, TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(float_mad)
{
    /* add f32 $r1 (mul $r2 $r3) $r4 */
    TeslaInsn i = dec(0xe0030405, 0x00010780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FMAD);
    ck_assert_int_eq(i.nsrc, 3);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);
    ck_reg(&i.src[2], 4);
    ck_assert_uint_eq(i.mods, 0);

    /* add f32 $r1 neg (mul $r2 $r3) $r4 */
    i = dec(0xe0030405, 0x04010780);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_NEG_PROD);

    /* add sat f32 $r1 (mul $r2 $r3) neg $r4 */
    i = dec(0xe0030405, 0x28010780);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SAT | TMOD_NEG_ADD);

    /* add f32 $r1 (mul $r2 $r3) $r1 (short: DST = SRC3) */
    i = dec(0xe0030404, 0);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FMAD);
    ck_reg(&i.src[2], 1);

    /* add f32 $r1 (mul $r2 0x3f800000) $r1 */
    i = dec(0xe0000405, 0x03f80003);
    ck_ok(i);
    ck_imm(&i.src[1], 0x3f800000);
    ck_reg(&i.src[2], 1);
}
END_TEST

START_TEST(float_set_minmax_slct)
{
    /* set $r1 lgu f32 $r2 $r3 */
    TeslaInsn i = dec(0xb0030405, 0x60034780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FSET);
    ck_assert_uint_eq(i.cmp, TCMP_L | TCMP_G | TCMP_U);

    /* set $c0 $r1 ge f32 $r2 $r3 */
    i = dec(0xb0030405, 0x600187c0);
    ck_ok(i);
    ck_assert_uint_eq(i.cmp, TCMP_G | TCMP_E);
    ck_assert_int_eq(i.cdst, 0);

    /* min f32 $r1 abs $r2 neg $r3 */
    i = dec(0xb0030405, 0xa8100780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FMIN);
    ck_assert(i.src[0].abs && !i.src[0].neg);
    ck_assert(i.src[1].neg && !i.src[1].abs);

    /* max f32 $r1 $r2 $r3 */
    i = dec(0xb0030405, 0x80000780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FMAX);

    /* slct b32 $r1 $r2 $r3 f32 $r4, and with neg */
    i = dec(0xc0030405, 0x40010780);
    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_FSLCT);
    ck_assert_int_eq(i.dtype, TTYPE_B32);
    ck_assert_int_eq(i.stype, TTYPE_F32);
    ck_assert_uint_eq(i.mods, 0);
    ck_reg(&i.src[2], 4);
    i = dec(0xc0030405, 0x60010780);
    ck_ok(i);
    ck_assert_uint_eq(i.mods, TMOD_SLCT_NEG);
}
END_TEST

START_TEST(float_quadop)
{
    /* quadop f32 add subr sub mov2 $r1 l0 $r2 $r3 */
    TeslaInsn i = dec(0xc0300405, 0x8180c780);

    ck_ok(i);
    ck_assert_int_eq(i.op, TOP_QUADOP);
    ck_assert_int_eq(i.quad_ops[0], TQOP_ADD);
    ck_assert_int_eq(i.quad_ops[1], TQOP_SUBR);
    ck_assert_int_eq(i.quad_ops[2], TQOP_SUB);
    ck_assert_int_eq(i.quad_ops[3], TQOP_MOV2);
    ck_assert_int_eq(i.quad_src, 0);
    ck_reg(&i.dst, 1);
    ck_reg(&i.src[0], 2);
    ck_reg(&i.src[1], 3);

    /* quadop f32 sub subr sub subr $r1 dx $r2 $r2 */
    i = dec_v(TESLA_G80, TESLA_PROG_FP, 0xc0140405, 0x89808780);
    ck_ok(i);
    ck_assert_int_eq(i.quad_src, 4);
    ck_assert_int_eq(i.quad_ops[0], TQOP_SUB);
    ck_assert_int_eq(i.quad_ops[3], TQOP_SUBR);
}
END_TEST


/* ---- end to end: text -> words -> decode -> warp ---- */

/* c0[0x0..0x8] and the user s[] bytes of the runs below */
static uint8_t e2e_c0[8] = { 0x34, 0x12, 0xcd, 0xab, 0, 0, 0, 0 };
static const uint8_t e2e_s[4] = { 0x34, 0x12, 0xff, 0xff };

typedef struct E2E {
    GArray *words;      /* the code, alive as long as the run */
    TeslaRun *run;
} E2E;

/* Assemble @src for g84 compute and run it as one thread. */
static E2E e2e_run(const char *src)
{
    GArray *words = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;
    TeslaEnv env = { 0 };
    TeslaLaunch launch = { 0 };
    TeslaRun *run;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, words, &err),
                  "%s", err ? err : "");
    env.variant = TESLA_G84;
    env.prog = TESLA_PROG_CP;
    env.code = (const uint32_t *)(void *)words->data;
    env.code_words = words->len;
    env.gprs = 32;
    env.shared_bytes = 0x100;
    env.c[0].data = e2e_c0;
    env.c[0].size = sizeof(e2e_c0);
    launch.block[0] = launch.block[1] = launch.block[2] = 1;
    launch.grid[0] = launch.grid[1] = launch.grid[2] = 1;
    launch.shared_init = e2e_s;
    launch.shared_init_bytes = sizeof(e2e_s);
    launch.keep_regs = true;
    run = tesla_run_new(&env, &launch, &err);
    ck_assert_msg(run != NULL, "%s", err ? err : "");
    ck_assert_int_eq(tesla_run_exec(run), TESLA_RUN_DONE);
    return (E2E){ words, run };
}

static void e2e_done(E2E *e)
{
    tesla_run_free(e->run);
    g_array_free(e->words, true);
}

static void ck_r(E2E *e, unsigned reg, uint32_t v)
{
    uint32_t got = tesla_run_reg(e->run, 0, reg);

    ck_assert_msg(got == v, "$r%u = 0x%08x, expected 0x%08x", reg, got, v);
}

START_TEST(e2e_int_halfwords)
{
    /* 16-bit c[]/s[] sources and per-source mul16 signedness */
    E2E e = e2e_run(
        "mov b32 $r1 0x0\n"
        "mov b32 $r2 0x1\n"
        "mov b32 $r6 0xffff\n"
        "mov b32 $r5 0x0\n"
        "add b16 $r1l $r2l c0[0x2]\n"
        "mul $r3 s16 $r2l s16 c0[0x2]\n"
        "mul $r4 u16 $r2l u16 c0[0x2]\n"
        "add $r5 (mul s16 $r6l c0[0x2]) $r5\n"
        "mul $r7 s16 $r6l u16 $r6l\n"
        "mul $r8 u16 $r6l s16 $r6l\n"
        "mul $r9 s16 $r6l s16 0xffff\n"
        "add b32 $r10 s16 s[0x16] $r2\n"
        "add b32 $r11 u16 s[0x16] $r2\n"
        "exit nop\n");

    ck_r(&e, 1, 0x0000abce);
    ck_r(&e, 3, 0xffffabcd);
    ck_r(&e, 4, 0x0000abcd);
    ck_r(&e, 5, 0x00005433);       /* (-1) * (-0x5433) */
    ck_r(&e, 7, 0xffff0001);
    ck_r(&e, 8, 0xffff0001);
    ck_r(&e, 9, 0x00000001);
    ck_r(&e, 10, 0x00000000);
    ck_r(&e, 11, 0x00010000);
    e2e_done(&e);
}
END_TEST

START_TEST(e2e_int_mad_logic_shift_set)
{
    E2E e = e2e_run(
        "mov b32 $r2 0x7fff\n"
        "mov b32 $r4 0x7fffffff\n"
        "add sat $r5 (mul s16 $r2l $r2l) $r4\n"
        "add $r6 (mul s16 $r2l $r2l) $r4\n"
        "mov b32 $r12 0x800000\n"
        "mov b32 $r13 0x2\n"
        "mov b32 $r14 0x100\n"
        "sub $r7 (mul high s24 $r12 $r13) $r14\n"
        "mov b32 $r15 0xf0f0f0f0\n"
        "mov b32 $r16 0xffff\n"
        "or b32 $r8 not $r15 $r16\n"
        "xor b32 $r9 not $r15 0xffff\n"
        "mov b32 $r10 0x0\n"
        "shr s16 $r10l $r15h 0x4\n"
        "set $r11 l s32 $r15 $r16\n"
        "set $r17 l u32 $r15 $r16\n"
        "shl b32 $r18 $r16 0x10\n"
        "exit nop\n");

    ck_r(&e, 5, 0x7fffffff);       /* 0x3fff0001 + 0x7fffffff saturates */
    ck_r(&e, 6, 0xbfff0000);
    ck_r(&e, 7, 0xfffffe00);       /* (-0x800000 * 2) >> 16, - 0x100 */
    ck_r(&e, 8, 0x0f0fffff);
    ck_r(&e, 9, 0x0f0ff0f0);
    ck_r(&e, 10, 0x0000ff0f);
    ck_r(&e, 11, 0xffffffff);
    ck_r(&e, 17, 0x00000000);
    ck_r(&e, 18, 0xffff0000);
    e2e_done(&e);
}
END_TEST

START_TEST(e2e_float)
{
    E2E e = e2e_run(
        "mov b32 $r2 0x40000000\n"      /* 2.0 */
        "mov b32 $r3 0x40400000\n"      /* 3.0 */
        "mov b32 $r4 0x3f800000\n"      /* 1.0 */
        "mov b32 $r5 0xc0800000\n"      /* -4.0 */
        "add f32 $r6 neg (mul $r2 $r3) $r4\n"
        "mov b32 $r7 0x3f800000\n"
        "add f32 $r7 (mul $r2 $r3) neg $r7\n"
        "slct b32 $r8 $r2 $r3 f32 neg $r3\n"
        "slct b32 $r9 $r2 $r3 f32 $r3\n"
        "min f32 $r10 abs $r5 neg $r3\n"
        "set $r11 lgu f32 $r2 $r3\n"
        "set $r12 e f32 $r2 $r3\n"
        "add f32 $r13 neg $r2 $r3\n"
        "mul f32 $r14 $r2 neg $r3\n"
        "exit nop\n");

    ck_r(&e, 6, 0xc0a00000);       /* -(2 * 3) + 1 */
    ck_r(&e, 7, 0x40a00000);       /* 2 * 3 - 1 */
    ck_r(&e, 8, 0x40400000);       /* -3 < 0: src2 */
    ck_r(&e, 9, 0x40000000);       /* 3 >= 0: src1 */
    ck_r(&e, 10, 0xc0400000);      /* min(4, -3) */
    ck_r(&e, 11, 0xffffffff);
    ck_r(&e, 12, 0x00000000);
    ck_r(&e, 13, 0x3f800000);
    ck_r(&e, 14, 0xc0c00000);
    e2e_done(&e);
}
END_TEST

Suite *tesla_tab_alu_suite(void)
{
    Suite *s = suite_create("tesla-tab-alu");
    TCase *tc = tcase_create("int");

    tcase_add_test(tc, int_add_short);
    tcase_add_test(tc, int_addc_short_reads_c0);
    tcase_add_test(tc, int_add_b16_halves);
    tcase_add_test(tc, int_add_operand_forms);
    tcase_add_test(tc, int_add_long);
    tcase_add_test(tc, int_mul16);
    tcase_add_test(tc, int_mul24);
    tcase_add_test(tc, int_mad_long);
    tcase_add_test(tc, int_mad_short_dst_is_src3);
    tcase_add_test(tc, int_sad);
    tcase_add_test(tc, int_set_minmax);
    tcase_add_test(tc, int_shifts);
    tcase_add_test(tc, int_logops);
    tcase_add_test(tc, int_shared_memory_classes);
    suite_add_tcase(s, tc);

    tc = tcase_create("float");
    tcase_add_test(tc, float_add_mul);
    tcase_add_test(tc, float_mul_sat_g200_only);
    tcase_add_test(tc, float_add_bad_rounding);
    tcase_add_test(tc, float_mad);
    tcase_add_test(tc, float_set_minmax_slct);
    tcase_add_test(tc, float_quadop);
    suite_add_tcase(s, tc);

    tc = tcase_create("end-to-end");
    tcase_add_test(tc, e2e_int_halfwords);
    tcase_add_test(tc, e2e_int_mad_logic_shift_set);
    tcase_add_test(tc, e2e_float);
    suite_add_tcase(s, tc);
    return s;
}
