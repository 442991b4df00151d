/*
 * Decode checks for the interp/SFU/cvt (tab-sfu.c), f64 (tab-double.c)
 * and texture/emit (tab-tex.c) opcode tables: the TeslaInsn fields the
 * interpreter runs, the envydis text, and assembly back to the same bits.
 * Encodings are worked out by hand from the field layout of envydis g80.c
 * (word 1 bit N is instruction bit 32 + N).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/tesla/exec.h"
#include <check.h>

static void dec(TeslaVariant v, TeslaProgType p, uint32_t w0, uint32_t w1,
                TeslaInsn *insn)
{
    uint32_t code[2] = { w0, w1 };

    tesla_decode(v, p, code, 2, 0, insn);
}

static char *dis(TeslaVariant v, TeslaProgType p, uint32_t w0, uint32_t w1)
{
    uint32_t code[2] = { w0, w1 };
    GString *s = g_string_new(NULL);

    tesla_disasm(v, p, code, 2, 0, s, NULL);
    return g_string_free(s, false);
}

/* Text of (w0, w1) is @text, and @text assembles back to the same words. */
static void check_text(TeslaVariant v, TeslaProgType p, uint32_t w0,
                       uint32_t w1, const char *text)
{
    g_autofree char *got = dis(v, p, w0, w1);
    uint32_t out[2] = { 0, 0 };
    g_autofree char *err = NULL;
    int n;

    ck_assert_str_eq(got, text);
    n = tesla_assemble_insn(v, p, text, 0, out, &err);
    ck_assert_msg(n > 0, "%s: %s", text, err ? err : "?");
    ck_assert_uint_eq(out[0], w0);
    if (w0 & 1) {
        ck_assert_int_eq(n, 2);
        ck_assert_uint_eq(out[1], w1);
    } else {
        ck_assert_int_eq(n, 1);
    }
}

static void check_illegal(TeslaVariant v, TeslaProgType p, uint32_t w0,
                          uint32_t w1, TeslaError e)
{
    TeslaInsn insn;

    dec(v, p, w0, w1, &insn);
    ck_assert_int_eq(insn.op, TOP_INVALID);
    ck_assert_int_eq(insn.error, e);
}

/* ---- SFU ---- */

START_TEST(sfu_short_rcp)
{
    TeslaInsn i;

    /* op 9, dst 1 (bits 2-7), src 2 (bits 9-14), neg bit 22, abs bit 15 */
    dec(TESLA_G80, TESLA_PROG_CP, 0x90408404, 0, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.op, TOP_RCP);
    ck_assert_int_eq(i.len, 4);
    ck_assert_int_eq(i.dtype, TTYPE_F32);
    ck_assert_int_eq(i.dst.kind, TOPND_REG);
    ck_assert_int_eq(i.dst.reg, 1);
    ck_assert_int_eq(i.nsrc, 1);
    ck_assert_int_eq(i.src[0].kind, TOPND_REG);
    ck_assert_int_eq(i.src[0].reg, 2);
    ck_assert(i.src[0].neg && i.src[0].abs);
    check_text(TESLA_G80, TESLA_PROG_CP, 0x90408404, 0,
               "rcp f32 $r1 neg abs $r2");
    /* bits 16-21 are not part of rcp: envydis shows them as unknown */
    {
        g_autofree char *t = dis(TESLA_G80, TESLA_PROG_CP, 0x90010404, 0);
        ck_assert_str_eq(t, "rcp f32 $r1 $r2 [unknown: 00010000]");
    }
    check_illegal(TESLA_G80, TESLA_PROG_CP, 0x90010404, 0,
                  TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(sfu_long)
{
    TeslaInsn i;

    /* rsqrt (op2 2), neg bit 58, abs bit 52, o[] dst (bit 35) */
    dec(TESLA_G84, TESLA_PROG_VP, 0x90000409, 0x44100788, &i);
    ck_assert_int_eq(i.op, TOP_RSQRT);
    ck_assert_int_eq(i.dst.kind, TOPND_MEM);
    ck_assert_int_eq(i.dst.space, TSPACE_O);
    ck_assert_uint_eq(i.dst.imm, 8);
    ck_assert(i.src[0].neg && i.src[0].abs);
    check_text(TESLA_G84, TESLA_PROG_VP, 0x90000409, 0x44100788,
               "rsqrt f32 o[0x8] neg abs $r2");

    /* lg2 with exit, o[] 127 = result dropped */
    dec(TESLA_G84, TESLA_PROG_VP, 0x900005fd, 0x60000789, &i);
    ck_assert_int_eq(i.op, TOP_LG2);
    ck_assert_int_eq(i.post, TPOST_EXIT);
    ck_assert_int_eq(i.dst.kind, TOPND_DISCARD);
    check_text(TESLA_G84, TESLA_PROG_VP, 0x900005fd, 0x60000789,
               "exit lg2 f32 # $r2");

    /* ex2 sat (bit 59) */
    dec(TESLA_G80, TESLA_PROG_CP, 0x90000205, 0xc8000780, &i);
    ck_assert_int_eq(i.op, TOP_EX2);
    ck_assert(i.mods & TMOD_SAT);
    check_text(TESLA_G80, TESLA_PROG_CP, 0x90000205, 0xc8000780,
               "ex2 f32 sat $r1 $r1");

    /* sin/cos have no neg: bit 58 stays unexplained */
    dec(TESLA_G80, TESLA_PROG_CP, 0x90000205, 0xa0000780, &i);
    ck_assert_int_eq(i.op, TOP_COS);
    check_illegal(TESLA_G80, TESLA_PROG_CP, 0x90000205, 0x84000780,
                  TESLA_ERR_ILLEGAL_OPCODE);
    {
        g_autofree char *t = dis(TESLA_G80, TESLA_PROG_CP, 0x90000205,
                                 0x84000780);
        ck_assert_str_eq(t, "sin f32 $r1 $r1 [unknown: 00000000 04000000]");
    }
    /* op2 1 and 7 of opcode 9 do not exist */
    check_illegal(TESLA_G80, TESLA_PROG_CP, 0x90000205, 0x20000780,
                  TESLA_ERR_ILLEGAL_OPCODE);

    /* presin / preex2: op 0xb op2 6, bit 46 picks ex2; s[] source */
    dec(TESLA_G80, TESLA_PROG_CP, 0xb000c205, 0xc4204780, &i);
    ck_assert_int_eq(i.op, TOP_PREEX2);
    ck_assert_int_eq(i.src[0].kind, TOPND_MEM);
    ck_assert_int_eq(i.src[0].space, TSPACE_S);
    ck_assert_int_eq(i.src[0].mtype, TTYPE_B32);
    ck_assert_uint_eq(i.src[0].imm, 4);
    ck_assert(i.src[0].neg);
    check_text(TESLA_G80, TESLA_PROG_CP, 0xb000c205, 0xc4204780,
               "preex2 f32 $r1 neg b32 s[0x4]");
    dec(TESLA_G80, TESLA_PROG_CP, 0xb0000405, 0xc0000780, &i);
    ck_assert_int_eq(i.op, TOP_PRESIN);
}
END_TEST

START_TEST(sfu_interp)
{
    TeslaInsn i;

    /* short: bit 24 cent, bit 25 multiply by SRC, v[] offset bits 16-23 */
    dec(TESLA_G80, TESLA_PROG_FP, 0x83040004, 0, &i);
    ck_assert_int_eq(i.op, TOP_INTERP);
    ck_assert(i.mods & TMOD_CENT);
    ck_assert_int_eq(i.nsrc, 2);
    ck_assert_int_eq(i.src[0].kind, TOPND_MEM);
    ck_assert_int_eq(i.src[0].space, TSPACE_V);
    ck_assert_uint_eq(i.src[0].imm, 0x10);
    ck_assert_int_eq(i.src[1].kind, TOPND_REG);
    ck_assert_int_eq(i.src[1].reg, 0);
    check_text(TESLA_G80, TESLA_PROG_FP, 0x83040004, 0,
               "interp $r1 cent v[0x10] $r0");
    /* flat with $a2 (bits 26-27) */
    dec(TESLA_G80, TESLA_PROG_FP, 0x88040104, 0, &i);
    ck_assert(i.mods & TMOD_FLAT);
    ck_assert_int_eq(i.src[0].areg, 2);
    check_text(TESLA_G80, TESLA_PROG_FP, 0x88040104, 0,
               "interp $r1 flat v[$a2+0x10]");
    /* long, word 1 bits 16-18 = 3: cent, neg SRC (bit 58) */
    dec(TESLA_G80, TESLA_PROG_FP, 0x80040005, 0x04030780, &i);
    ck_assert(i.mods & TMOD_CENT);
    ck_assert(i.src[1].neg);
    check_text(TESLA_G80, TESLA_PROG_FP, 0x80040005, 0x04030780,
               "interp $r1 cent v[0x10] neg $r0");
    /* flat + cent is no encoding; outside FP: INTERP_NON_FP */
    check_illegal(TESLA_G80, TESLA_PROG_FP, 0x81040104, 0,
                  TESLA_ERR_ILLEGAL_OPCODE);
    check_illegal(TESLA_G80, TESLA_PROG_VP, 0x80040004, 0,
                  TESLA_ERR_INTERP_NON_FP);
    check_illegal(TESLA_G80, TESLA_PROG_CP, 0x80040005, 0x00000780,
                  TESLA_ERR_INTERP_NON_FP);
}
END_TEST

/* ---- cvt ---- */

START_TEST(cvt_forms)
{
    TeslaInsn i;

    /* f2i: rzi (bits 49-50 = 3), s32 dst (bits 58-59 = 3), f32 src bit 46 */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000405, 0x8c064780, &i);
    ck_assert_int_eq(i.op, TOP_CVT);
    ck_assert_int_eq(i.dtype, TTYPE_S32);
    ck_assert_int_eq(i.stype, TTYPE_F32);
    ck_assert_int_eq(i.rnd, TRND_RZI);
    ck_assert_int_eq(i.dst.kind, TOPND_REG);
    ck_assert_int_eq(i.src[0].kind, TOPND_REG);
    ck_assert_int_eq(i.src[0].reg, 2);

    /* i2f: u16 source from a high half ($r3h = field 7) */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000e21, 0x44000780, &i);
    ck_assert_int_eq(i.dtype, TTYPE_F32);
    ck_assert_int_eq(i.stype, TTYPE_U16);
    ck_assert_int_eq(i.rnd, TRND_RN);
    ck_assert_int_eq(i.src[0].kind, TOPND_HREG);
    ck_assert_int_eq(i.src[0].reg, 3);
    ck_assert_int_eq(i.src[0].half, 1);

    /* i2f rp, s8 from a full register (bits 46-48 = 7), sat bit 51 */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000621, 0x440dc780, &i);
    ck_assert_int_eq(i.stype, TTYPE_S8);
    ck_assert_int_eq(i.rnd, TRND_RP);
    ck_assert(i.mods & TMOD_SAT);
    ck_assert_int_eq(i.src[0].kind, TOPND_REG);
    check_text(TESLA_G80, TESLA_PROG_CP, 0xa0000621, 0x440dc780,
               "cvt sat rp f32 $r8 s8 $r3");

    /* i2i: u8 to a full register (bit 51), abs (52) and neg (61), $c2 */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000405, 0x241947e0, &i);
    ck_assert_int_eq(i.dtype, TTYPE_U8);
    ck_assert_int_eq(i.stype, TTYPE_S32);
    ck_assert_int_eq(i.dst.kind, TOPND_REG);
    ck_assert(i.src[0].neg && i.src[0].abs);
    ck_assert_int_eq(i.cdst, 2);
    check_text(TESLA_G80, TESLA_PROG_CP, 0xa0000405, 0x241947e0,
               "cvt neg abs u8 $c2 $r1 s32 $r2");

    /* i2i s16 to a low half */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000409, 0x08014780, &i);
    ck_assert_int_eq(i.dtype, TTYPE_S16);
    ck_assert_int_eq(i.dst.kind, TOPND_HREG);
    ck_assert_int_eq(i.dst.reg, 1);
    ck_assert_int_eq(i.dst.half, 0);

    /* f2f: rmi to integral value; f32 -> f16 rz to a high half */
    dec(TESLA_G80, TESLA_PROG_CP, 0xa0000405, 0xcc024780, &i);
    ck_assert_int_eq(i.rnd, TRND_RMI);
    ck_assert_int_eq(i.dtype, TTYPE_F32);
    dec(TESLA_G80, TESLA_PROG_CP, 0xa000040d, 0xc0064780, &i);
    ck_assert_int_eq(i.dtype, TTYPE_F16);
    ck_assert_int_eq(i.stype, TTYPE_F32);
    ck_assert_int_eq(i.rnd, TRND_RZ);
    ck_assert_int_eq(i.dst.kind, TOPND_HREG);
    ck_assert_int_eq(i.dst.half, 1);
    check_text(TESLA_G80, TESLA_PROG_CP, 0xa000040d, 0xc0064780,
               "cvt rz f16 $r1h f32 $r2");

    /* bits 49-50 are not part of i2i: unknown, so illegal */
    check_illegal(TESLA_G80, TESLA_PROG_CP, 0xa0000405, 0x0c034780,
                  TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(cvt_f64)
{
    TeslaInsn i;

    /* f64 unit (bit 54): s32 -> f64, u64 <- f64, f64 -> f32 */
    dec(TESLA_G200, TESLA_PROG_CP, 0xa0000209, 0x44410780, &i);
    ck_assert_int_eq(i.op, TOP_CVT);
    ck_assert_int_eq(i.dtype, TTYPE_F64);
    ck_assert_int_eq(i.stype, TTYPE_S32);
    ck_assert_int_eq(i.dst.kind, TOPND_DREG);
    ck_assert_int_eq(i.dst.reg, 2);
    dec(TESLA_G200, TESLA_PROG_CP, 0xa0000421, 0x84464780, &i);
    ck_assert_int_eq(i.dtype, TTYPE_U64);
    ck_assert_int_eq(i.stype, TTYPE_F64);
    ck_assert_int_eq(i.rnd, TRND_RZI);
    ck_assert_int_eq(i.src[0].kind, TOPND_DREG);
    ck_assert_int_eq(i.src[0].reg, 2);
    check_text(TESLA_G200, TESLA_PROG_CP, 0xa0000421, 0x84464780,
               "cvt rzi u64 $r8d f64 $r2d");
    dec(TESLA_G200, TESLA_PROG_CP, 0xa0000405, 0xc0424780, &i);
    ck_assert_int_eq(i.dtype, TTYPE_F32);
    ck_assert_int_eq(i.stype, TTYPE_F64);
    ck_assert_int_eq(i.rnd, TRND_RM);
    /* without FP64 these are unknown instructions */
    check_illegal(TESLA_G84, TESLA_PROG_CP, 0xa0000209, 0x44410780,
                  TESLA_ERR_ILLEGAL_OPCODE);
    check_illegal(TESLA_GT215, TESLA_PROG_CP, 0xa0000421, 0x84464780,
                  TESLA_ERR_ILLEGAL_OPCODE);
    {
        g_autofree char *t = dis(TESLA_MCP77, TESLA_PROG_CP, 0xa0000209,
                                 0x44410780);
        ck_assert_str_eq(t, "??? $r2 $r1 $r0 $r4 [unknown: a0000000 "
                         "44400000] [unknown instruction]");
    }
}
END_TEST

START_TEST(cvt_shared)
{
    TeslaInsn i;

    /* s[] source (bit 53): mode in bits 14-15, offset bits 9-13 */
    dec(TESLA_G84, TESLA_PROG_CP, 0xa0000205, 0x44208780, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.stype, TTYPE_U8);
    ck_assert_int_eq(i.src[0].kind, TOPND_MEM);
    ck_assert_int_eq(i.src[0].mtype, TTYPE_U8);
    ck_assert_uint_eq(i.src[0].imm, 1);
    check_text(TESLA_G84, TESLA_PROG_CP, 0xa0000205, 0x44208780,
               "cvt rn f32 $r1 u8 u8 s[0x1]");
    /* isa.rst: u8 source only with u8 mode; halves without b32; sign */
    check_illegal(TESLA_G84, TESLA_PROG_CP, 0xa0004205, 0x44208780,
                  TESLA_ERR_ILLEGAL_MEMORY_BYTE);
    check_illegal(TESLA_G84, TESLA_PROG_CP, 0xa000c205, 0x04200780,
                  TESLA_ERR_ILLEGAL_MEMORY_SIZE);
    check_illegal(TESLA_G84, TESLA_PROG_CP, 0xa0008205, 0x04200780,
                  TESLA_ERR_ILLEGAL_MEMORY_SIGN);
    /* s32 source: every mode */
    dec(TESLA_G84, TESLA_PROG_CP, 0xa0008205, 0x04214780, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.src[0].mtype, TTYPE_S16);
}
END_TEST

/* ---- f64 ---- */

START_TEST(double_ops)
{
    TeslaInsn i;

    /* fma rp (bits 54-55 = 2), neg product (58) and addend (59), $c1 */
    dec(TESLA_G200, TESLA_PROG_CP, 0xe0060809, 0x4c8207d0, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.op, TOP_DFMA);
    ck_assert_int_eq(i.rnd, TRND_RP);
    ck_assert(i.mods & TMOD_NEG_PROD);
    ck_assert(i.mods & TMOD_NEG_ADD);
    ck_assert_int_eq(i.cdst, 1);
    ck_assert_int_eq(i.nsrc, 3);
    ck_assert_int_eq(i.dst.kind, TOPND_DREG);
    ck_assert_int_eq(i.dst.reg, 2);
    ck_assert_int_eq(i.src[0].kind, TOPND_DREG);
    ck_assert_int_eq(i.src[0].reg, 4);
    ck_assert_int_eq(i.src[1].reg, 6);
    ck_assert_int_eq(i.src[2].reg, 8);
    check_text(TESLA_G200, TESLA_PROG_CP, 0xe0060809, 0x4c8207d0,
               "fma rp f64 $c1 $r2d neg $r4d $r6d neg $r8d");

    /* add rm (word 0 bits 16-17), neg src2: SRC3 field */
    dec(TESLA_G200, TESLA_PROG_CP, 0xe0010809, 0x68018780, &i);
    ck_assert_int_eq(i.op, TOP_DADD);
    ck_assert_int_eq(i.rnd, TRND_RM);
    ck_assert(!i.src[0].neg && i.src[1].neg);
    ck_assert_int_eq(i.src[1].reg, 6);

    /* mul rz (bits 49-50) */
    dec(TESLA_G200, TESLA_PROG_CP, 0xe0060809, 0x84060780, &i);
    ck_assert_int_eq(i.op, TOP_DMUL);
    ck_assert_int_eq(i.rnd, TRND_RZ);
    ck_assert(i.src[0].neg);

    /* max abs src1 (52), neg src2 (59) */
    dec(TESLA_G200, TESLA_PROG_CP, 0xe0040421, 0xc8100780, &i);
    ck_assert_int_eq(i.op, TOP_DMAX);
    ck_assert(i.src[0].abs && !i.src[0].neg);
    ck_assert(i.src[1].neg && !i.src[1].abs);

    /* set geu (bits 46-49 = 0xe) to a 32-bit register */
    dec(TESLA_G200, TESLA_PROG_CP, 0xe0040421, 0xe0038780, &i);
    ck_assert_int_eq(i.op, TOP_DSET);
    ck_assert_int_eq(i.cmp, TCMP_G | TCMP_E | TCMP_U);
    ck_assert_int_eq(i.stype, TTYPE_F64);
    ck_assert_int_eq(i.dst.kind, TOPND_REG);
    check_text(TESLA_G200, TESLA_PROG_CP, 0xe0040421, 0xe0038780,
               "set $r8 geu f64 $r2d $r4d");

    /* only G200 has the f64 unit */
    for (int v = 0; v < TESLA_NUM_VARIANTS; v++) {
        if (v == TESLA_G200) {
            continue;
        }
        check_illegal(v, TESLA_PROG_CP, 0xe0060809, 0x4c8207d0,
                      TESLA_ERR_ILLEGAL_OPCODE);
        check_illegal(v, TESLA_PROG_CP, 0xe0040421, 0xe0038780,
                      TESLA_ERR_ILLEGAL_OPCODE);
    }
}
END_TEST

/* ---- texture ---- */

START_TEST(tex_short)
{
    TeslaInsn i;

    /* texfetch (bit 24) live (bit 8), $t5 (bits 9-16), $s3 (17-21),
       3 sources (bits 22-23 = 2), base $r4 */
    dec(TESLA_G80, TESLA_PROG_FP, 0xf1860b10, 0, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.op, TOP_TEX);
    ck_assert_int_eq(i.tex.kind, TTEX_FETCH);
    ck_assert_int_eq(i.tex.tex, 5);
    ck_assert_int_eq(i.tex.samp, 3);
    ck_assert_int_eq(i.tex.dims, 3);
    ck_assert(i.mods & TMOD_LIVE);
    ck_assert_int_eq(i.dst.kind, TOPND_VREG);
    ck_assert_int_eq(i.dst.reg, 4);
    ck_assert_int_eq(i.dst.vmask, 0xf);
    ck_assert_int_eq(i.src[0].kind, TOPND_VREG);
    ck_assert_int_eq(i.src[0].reg, 4);
    ck_assert_int_eq(i.src[0].vcount, 3);
    check_text(TESLA_G80, TESLA_PROG_FP, 0xf1860b10, 0,
               "texfetch live $r4:$r5:$r6:$r7 $t5 $s3 $r4:$r5:$r6");
    /* bits 25-27 are not part of the short form */
    check_illegal(TESLA_G80, TESLA_PROG_FP, 0xf2000000, 0,
                  TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(tex_long)
{
    TeslaInsn i;

    /* texauto: write mask bits 25-26 (x y) + 46-47 (w), offsets x=-1
       (bits 56-59), y=7 (52-55), z=-8 (48-51) */
    dec(TESLA_G84, TESLA_PROG_FP, 0xf6400001, 0x0f788784, &i);
    ck_assert_int_eq(i.op, TOP_TEX);
    ck_assert_int_eq(i.tex.kind, TTEX_AUTO);
    ck_assert_int_eq(i.dst.vmask, 0xb);
    ck_assert_int_eq(i.tex.dims, 2);
    ck_assert(i.tex.flags & TTEXF_OFFS);
    ck_assert(!(i.tex.flags & TTEXF_CUBE));
    ck_assert_int_eq(i.tex.offs[0], -1);
    ck_assert_int_eq(i.tex.offs[1], 7);
    ck_assert_int_eq(i.tex.offs[2], -8);
    check_text(TESLA_G84, TESLA_PROG_FP, 0xf6400001, 0x0f788784,
               "texauto live $r0:$r1:#:$r2 $t0 $s0 $r0:$r1 -0x1 0x7 -0x8");

    /* texbias all deriv (bit 35), $t3 $s2, 4 sources at $r4 */
    dec(TESLA_G84, TESLA_PROG_VP, 0xf6c40611, 0x2000c788, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_BIAS);
    ck_assert(i.mods & TMOD_DERIV);
    ck_assert(!(i.mods & TMOD_LIVE));
    ck_assert_int_eq(i.tex.tex, 3);
    ck_assert_int_eq(i.tex.samp, 2);
    ck_assert_int_eq(i.src[0].vcount, 4);
    check_text(TESLA_G84, TESLA_PROG_VP, 0xf6c40611, 0x2000c788,
               "texbias all deriv $r4:$r5:$r6:$r7 $t3 $s2 $r4:$r5:$r6:$r7 "
               "0x0 0x0 0x0");

    /* texlod cube (bit 27): no offsets */
    dec(TESLA_G80, TESLA_PROG_CP, 0xfec00001, 0x4000c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_LOD);
    ck_assert(i.tex.flags & TTEXF_CUBE);
    ck_assert(!(i.tex.flags & TTEXF_OFFS));
    check_text(TESLA_G80, TESLA_PROG_CP, 0xfec00001, 0x4000c780,
               "texlod cube all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2:$r3");

    /* texsize: one lod source, the destination register field */
    dec(TESLA_G80, TESLA_PROG_CP, 0xf6000009, 0x6000c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_SIZE);
    ck_assert_int_eq(i.src[0].kind, TOPND_REG);
    ck_assert_int_eq(i.src[0].reg, 2);
    ck_assert_int_eq(i.dst.reg, 2);

    /* texcsaa on every variant; texgather/texprep/texquerylod GT215 */
    dec(TESLA_G80, TESLA_PROG_FP, 0xf6400001, 0x8000c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_CSAA);
    dec(TESLA_GT215, TESLA_PROG_FP, 0xf7400001, 0x8000c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_GATHER);
    check_illegal(TESLA_G200, TESLA_PROG_FP, 0xf7400001, 0x8000c780,
                  TESLA_ERR_ILLEGAL_OPCODE);
    dec(TESLA_GT215, TESLA_PROG_FP, 0xfec00001, 0x6001c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_PREP);
    ck_assert(i.tex.flags & TTEXF_CUBE);
    check_illegal(TESLA_MCP77, TESLA_PROG_FP, 0xfec00001, 0x6001c780,
                  TESLA_ERR_ILLEGAL_OPCODE);
    dec(TESLA_GT215, TESLA_PROG_FP, 0xf6400001, 0x6002c780, &i);
    ck_assert_int_eq(i.tex.kind, TTEX_QUERYLOD);
    /* word 1 bit 28 set: no tex form */
    check_illegal(TESLA_G80, TESLA_PROG_FP, 0xf6400001, 0x1000c780,
                  TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(tex_emit)
{
    TeslaInsn i;

    dec(TESLA_G80, TESLA_PROG_GP, 0xf0000201, 0xc0000780, &i);
    ck_assert_int_eq(i.error, TESLA_ERR_NONE);
    ck_assert_int_eq(i.op, TOP_EMIT);
    dec(TESLA_G80, TESLA_PROG_GP, 0xf0000401, 0xc0000781, &i);
    ck_assert_int_eq(i.op, TOP_RESTART);
    ck_assert_int_eq(i.post, TPOST_EXIT);
    check_text(TESLA_G80, TESLA_PROG_GP, 0xf0000401, 0xc0000781,
               "exit restart");
    check_illegal(TESLA_G80, TESLA_PROG_VP, 0xf0000201, 0xc0000780,
                  TESLA_ERR_EMIT_NON_GP);
    /* envydis knows no emit+restart in one instruction */
    check_illegal(TESLA_G80, TESLA_PROG_GP, 0xf0000601, 0xc0000780,
                  TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

/* ---- through the interpreter: assembled text, decoded, run ---- */

typedef struct RunCtx {
    TeslaRun *run;
    GArray *words;
} RunCtx;

static void run_src(RunCtx *c, TeslaVariant v, TeslaProgType p,
                    const char *src, TeslaEnv *env, TeslaLaunch *l)
{
    g_autofree char *err = NULL;
    g_autofree char *rerr = NULL;
    TeslaRunStatus st;

    c->words = g_array_new(false, true, sizeof(uint32_t));
    ck_assert_msg(tesla_assemble(v, p, src, c->words, &err), "%s", err);
    env->variant = v;
    env->prog = p;
    env->code = (const uint32_t *)c->words->data;
    env->code_words = c->words->len;
    env->gprs = 32;
    l->keep_regs = true;
    c->run = tesla_run_new(env, l, &rerr);
    ck_assert_msg(c->run, "%s", rerr);
    st = tesla_run_exec(c->run);
    ck_assert_msg(st == TESLA_RUN_DONE, "%s",
                  tesla_run_result(c->run)->msg);
}

static void run_free(RunCtx *c)
{
    tesla_run_free(c->run);
    g_array_free(c->words, true);
}

static uint32_t f2u(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

START_TEST(run_cvt_sfu_f64)
{
    TeslaEnv env = { 0 };
    TeslaLaunch l = { .block = { 4, 1, 1 } };
    RunCtx c;

    run_src(&c, TESLA_G200, TESLA_PROG_CP,
            "cvt rn f32 $r1 u32 $r0\n"
            "rcp f32 $r2 $r1\n"
            "cvt neg rzi s32 $r3 f32 $r1\n"
            "cvt f64 $r4d f32 $r1\n"
            "add rn f64 $r6d $r4d $r4d\n"
            "cvt rn f32 $r8 f64 $r6d\n"
            "preex2 f32 $r9 $r1\n"
            "ex2 f32 $r9 $r9\n"
            "cvt u8 $r10 s32 $r3\n"
            "exit cvt rn f16 $r11l f32 $r1\n",
            &env, &l);
    for (unsigned t = 0; t < 4; t++) {
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 1), f2u(t));
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 2), f2u(1.0f / t));
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 3), -t);
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 8), f2u(2.0f * t));
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 9), f2u(1 << t));
        /* integer destinations saturate: -t to u8 is 0 */
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 10), 0);
    }
    /* f16 of 3.0 is 0x4200, in the low half */
    ck_assert_uint_eq(tesla_run_reg(c.run, 3, 11) & 0xffff, 0x4200);
    run_free(&c);
}
END_TEST

static unsigned tex_calls;

/* A texture unit that returns coordinate 0 plus the component index,
   and checks what the decoder handed over. */
static void fake_tex(void *opaque, const TeslaInsn *insn, uint32_t mask,
                     uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                     uint32_t out[4][TESLA_WARP_SIZE])
{
    tex_calls++;
    ck_assert_int_eq(insn->tex.kind, TTEX_LOD);
    ck_assert_int_eq(insn->tex.tex, 2);
    ck_assert_int_eq(insn->tex.samp, 1);
    ck_assert_int_eq(insn->tex.dims, 2);
    ck_assert_int_eq(ncoords, 2);
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        for (unsigned k = 0; k < 4; k++) {
            out[k][l] = coords[0][l] + coords[1][l] + 10 * k;
        }
    }
}

START_TEST(run_interp_tex)
{
    TeslaEnv env = { .tex = fake_tex };
    uint32_t in[4 * 2];
    TeslaLaunch l = { .threads = 4, .in = in, .in_words = 2 };
    RunCtx c;

    for (unsigned t = 0; t < 4; t++) {
        in[t * 2] = 100 * t;
        in[t * 2 + 1] = f2u(1.5f);
    }
    tex_calls = 0;
    /* interp v[0x0] (flat) -> $r4, v[0x4] * -2 -> $r5; texlod writes
       components 0 and 2 only, to $r4 and $r5 */
    run_src(&c, TESLA_G80, TESLA_PROG_FP,
            "interp $r4 flat v[0x0]\n"
            "mov b32 $r0 0x2\n"
            "cvt rn f32 $r0 u32 $r0\n"
            "interp $r5 v[0x4] neg $r0\n"
            "cvt neg rzi u32 $r5 f32 $r5\n"
            "texlod all $r4:#:$r5:# $t2 $s1 $r4:$r5 0x0 0x0 0x0\n"
            "exit nop\n",
            &env, &l);
    ck_assert_uint_eq(tex_calls, 1);
    for (unsigned t = 0; t < 4; t++) {
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 4), 100 * t + 3);
        ck_assert_uint_eq(tesla_run_reg(c.run, t, 5), 100 * t + 3 + 20);
    }
    run_free(&c);
}
END_TEST

Suite *tesla_tab_sfu_suite(void)
{
    Suite *s = suite_create("tesla-tab-sfu");
    TCase *tc = tcase_create("sfu");

    tcase_add_test(tc, sfu_short_rcp);
    tcase_add_test(tc, sfu_long);
    tcase_add_test(tc, sfu_interp);
    suite_add_tcase(s, tc);

    tc = tcase_create("cvt");
    tcase_add_test(tc, cvt_forms);
    tcase_add_test(tc, cvt_f64);
    tcase_add_test(tc, cvt_shared);
    suite_add_tcase(s, tc);

    tc = tcase_create("double");
    tcase_add_test(tc, double_ops);
    suite_add_tcase(s, tc);

    tc = tcase_create("tex");
    tcase_add_test(tc, tex_short);
    tcase_add_test(tc, tex_long);
    tcase_add_test(tc, tex_emit);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_add_test(tc, run_cvt_sfu_f64);
    tcase_add_test(tc, run_interp_tex);
    suite_add_tcase(s, tc);
    return s;
}
