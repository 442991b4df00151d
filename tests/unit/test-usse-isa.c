/*
 * USSE decoder, disassembler and assembler: per-group vectors built from
 * the encoding tables (sgx543.md Appendix A), random-word round trips for
 * every op1 group, assembler errors.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse.h"
#include <check.h>

/* Build a word: op1 plus (pos, len, value) triples; end with -1. */
static uint64_t mk(unsigned op1, ...)
{
    uint64_t w = (uint64_t)op1 << 59;
    va_list ap;
    int pos;

    va_start(ap, op1);
    while ((pos = va_arg(ap, int)) >= 0) {
        int len = va_arg(ap, int);
        uint64_t v = va_arg(ap, uint64_t);
        w |= (v & ((1ull << len) - 1)) << pos;
    }
    va_end(ap);
    return w;
}
#define V(x) ((uint64_t)(x))

static void check_text(uint64_t w, const char *exp)
{
    g_autoptr(GString) s = g_string_new(NULL);
    g_autofree char *err = NULL;
    uint64_t back = 0;

    usse_disasm(w, s);
    ck_assert_msg(!strcmp(s->str, exp), "%016" PRIx64 ": expected \"%s\" "
                  "got \"%s\"", w, exp, s->str);
    ck_assert_msg(usse_assemble_insn(s->str, &back, &err), "%s", err);
    ck_assert_uint_eq(back, w);
}

START_TEST(vec_vcomp)
{
    /* !p0 exp, dest f32 / src f16, repeat 3, r4.x <- pa6.z negated */
    uint64_t w = mk(6, 41, 2, V(3), 56, 3, V(5), 39, 2, V(1), 44, 4, V(2),
                    21, 7, V(2), 0, 4, V(1), 30, 2, V(2), 7, 7, V(3),
                    35, 2, V(2), 37, 2, V(1), -1);
    UsseInsn in;

    check_text(w, "!p0 vexp.f32.f16.rpt3 r4.x, pa6.z.neg");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_VEXP);
    ck_assert_int_eq(in.pred, USSE_PRED_NOT_P0);
    ck_assert_int_eq(in.repeat, 3);
    ck_assert_int_eq(in.fmt, USSE_FMT_F32);
    ck_assert_int_eq(in.sfmt, USSE_FMT_F16);
    ck_assert_int_eq(in.opnd[USSE_DST].bank, USSE_BANK_TEMP);
    ck_assert_int_eq(in.opnd[USSE_DST].num, 4);
    ck_assert_int_eq(in.opnd[USSE_DST].mask, 1);
    ck_assert_int_eq(in.opnd[USSE_SRC1].bank, USSE_BANK_PA);
    ck_assert_int_eq(in.opnd[USSE_SRC1].num, 6);
    ck_assert_int_eq(in.opnd[USSE_SRC1].comp, 2);
    ck_assert_int_eq(in.opnd[USSE_SRC1].mods, USSE_MOD_NEG);
    ck_assert_uint_eq(in.unknown, 0);
}
END_TEST

START_TEST(vec_vbw_imm)
{
    /* and r5, sa1, immediate 0x7f | 3 << 7 | 1 << 14 */
    uint64_t w = mk(10, 21, 7, V(5), 30, 2, V(3), 7, 7, V(1), 48, 1, V(1),
                    28, 2, V(2), 0, 7, V(0x7f), 14, 7, V(3), 36, 2, V(1), -1);
    UsseInsn in;

    check_text(w, "and r5, sa1, #127, sel=3, exth=1");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_AND);
    ck_assert_int_eq(in.opnd[USSE_SRC2].bank, USSE_BANK_IMM);
    ck_assert_uint_eq(in.opnd[USSE_SRC2].num, 0x41ff);
    /* bit 35 selects OR in group 10 */
    check_text(w | (1ull << 35), "or r5, sa1, #127, sel=3, exth=1");
}
END_TEST

START_TEST(vec_limm)
{
    uint32_t v = 0x3f800000;
    uint64_t w = mk(31, 56, 3, V(4), 52, 2, V(2), 51, 1, V(1), 21, 7, V(3),
                    0, 21, V(v & 0x1fffff), 36, 5, V((v >> 21) & 0x1f),
                    44, 6, V(v >> 26), -1);
    UsseInsn in;

    check_text(w, "limm sa3, 0x3f800000");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_LIMM);
    ck_assert_uint_eq(in.f[UF_VALUE], v);
    ck_assert_int_eq(in.opnd[USSE_DST].bank, USSE_BANK_SA);
}
END_TEST

START_TEST(vec_branch)
{
    uint64_t w = mk(31, 38, 3, V(1), 56, 3, V(2), 0, 20, V(0xffffd), -1);
    UsseInsn in;

    check_text(w, "p1 br -3");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_BR);
    ck_assert_int_eq(in.pred, USSE_PRED_P1);
    ck_assert_int_eq((int32_t)in.f[UF_OFFSET], -3);
    /* absolute branch with link (call) */
    check_text(mk(31, 41, 1, V(1), 0, 20, V(0x40), -1), "ba.link 0x40");
    check_text(mk(31, 38, 3, V(5), 50, 1, V(1), -1), "nop.end");
    /* flow-control op2 6 and 7 are not defined */
    ck_assert(!usse_decode(mk(31, 38, 3, V(6), -1), &in));
}
END_TEST

START_TEST(vec_vtst)
{
    uint64_t w = mk(9, 14, 4, V(12), 18, 2, V(1), 40, 2, V(1), 34, 2, V(2),
                    21, 7, V(1), 7, 7, V(2), 0, 7, V(3), -1);
    UsseInsn in;

    check_text(w, "vtst.iadd32.z p2, r1, r2, r3");
    ck_assert(usse_decode(w, &in));
    ck_assert_uint_eq(in.f[UF_ALU], 0x1c);
    ck_assert_uint_eq(in.f[UF_PDST], 2);
    /* alu_sel 0 / alu_op 0 is not a known ALU operation */
    ck_assert(!usse_decode(mk(9, -1), &in));
}
END_TEST

START_TEST(vec_sop2)
{
    uint64_t w = mk(16, 57, 2, V(2), 18, 2, V(1), 16, 2, V(3), 32, 2, V(1),
                    21, 7, V(2), 30, 2, V(2), 7, 7, V(1), 0, 7, V(3),
                    38, 3, V(1), -1);
    UsseInsn in;

    check_text(w, "p1 sop2.sub.max o2, pa1, r3, csel1=1");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.pred, USSE_PRED_P1);
    ck_assert_uint_eq(in.f[UF_COP], 1);
    ck_assert_uint_eq(in.f[UF_AOP], 3);
}
END_TEST

START_TEST(vec_smp_vdual)
{
    uint64_t w = mk(28, 42, 2, V(1), 40, 2, V(2), 39, 1, V(1), 14, 7, V(2),
                    35, 2, V(1), 30, 2, V(3), 7, 7, V(4), 0, 7, V(5), -1);
    UsseInsn in;

    check_text(w, "smp.2d.lod pa0, r2.f16, sa4, r5");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.opnd[USSE_DST].bank, USSE_BANK_PA);
    ck_assert_uint_eq(in.f[UF_DIM], 1);
}
END_TEST

/* VDUAL: two operations, sources by slot layout (Vita3K's tables). */
START_TEST(vec_vdual)
{
    UsseInsn in;
    /* vec4; op1 vmad (3 sources), op2 frsq (index 6); src_config 0:
       vmad = US, i1, i2 (i2 numbered by bits 15:14 = 2), frsq = i0;
       op1 writes the unified store (bit 42): o0, F32 vector = .xy;
       the internal mask is bits 9:7 = xyz plus bit 54 = w */
    uint64_t w = mk(5, 54, 1, V(1), 48, 4, V(4), 18, 3, V(6), 42, 1, V(1),
                    34, 4, V(4), 32, 2, V(1), 30, 2, V(2), 15, 1, V(1),
                    12, 2, V(1), 7, 3, V(7), -1);

    check_text(w, "vdual.vec4 vmad o0.xy, pa0.xyzw, i1.xyzw, i2.xyzw | "
               "frsq i0.xyzw, i0.xxxx");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_VDUAL);
    ck_assert_int_eq(in.dual[0].op, UDV_VMAD);
    ck_assert_int_eq(in.dual[0].dst.bank, USSE_BANK_OUTPUT);
    ck_assert_uint_eq(in.dual[0].mask, 0x3);
    ck_assert_int_eq(in.dual[0].src[0].bank, USSE_BANK_PA);
    ck_assert_int_eq(in.dual[0].src[1].bank, USSE_BANK_FPI);
    ck_assert_uint_eq(in.dual[0].src[1].num, 1);
    ck_assert_uint_eq(in.dual[0].src[2].num, 2);
    ck_assert_int_eq(in.dual[1].op, UDV_FRSQ);
    ck_assert_int_eq(in.dual[1].dst.bank, USSE_BANK_FPI);
    ck_assert_uint_eq(in.dual[1].mask, 0xf);
    ck_assert_uint_eq(in.dual[1].src[0].swz[1], USSE_CH_X);

    /* vec3, F16: op1 fmad (bit 54 extends op1: 8), op2 vmov (5); config
       3: fmad = i0, i1, i2 (i2 = bits 15:14 = 3), vmov = US; op2 writes
       the unified store: r4 in 64-bit units, F16 vector = .xyzw */
    w = mk(4, 53, 1, V(1), 54, 1, V(1), 18, 3, V(5), 16, 2, V(3),
           28, 2, V(2), 7, 3, V(7), 38, 4, V(1), 12, 2, V(1), 34, 4, V(2),
           58, 1, V(1), 15, 1, V(1), 14, 1, V(1), 21, 7, V(2), 30, 2, V(3),
           0, 7, V(3), 48, 4, V(4), -1);
    check_text(w, "vdual.vec3.f16.c3 fmad i2.xyz, i0.yyy, i1.zzz.neg, "
               "i3.xyz | vmov r4.xyzw, sa6.xyz");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.dual[0].op, UDV_FMAD);
    ck_assert_uint_eq(in.dual[0].src[1].mods, USSE_MOD_NEG);
    ck_assert_uint_eq(in.dual[0].src[2].num, 3);
    ck_assert_int_eq(in.dual[1].dst.bank, USSE_BANK_TEMP);
    ck_assert_uint_eq(in.dual[1].dst.num, 4);
    ck_assert_uint_eq(in.dual[1].src[0].num, 6);

    /* a unified destination aliasing i1 (field 125) is marked .us; an
       extended swizzle equal to a standard one prints by index */
    check_text(mk(5, 44, 3, V(5), 18, 3, V(6), 21, 7, V(125), 42, 1, V(1),
                  48, 4, V(11), 15, 1, V(1), 10, 2, V(2), -1),
               "vdual.vec4 vmov i1.us.xyzw, r0.s27 | frsq i0.none, i2.xxxx");
    /* op2 0 is no operation; vmad + vdp needs five source slots */
    ck_assert(!usse_decode(mk(5, -1), &in));
    ck_assert(!usse_decode(mk(5, 18, 3, V(1), -1), &in));
    /* the wiki's vec3 0x2000, bit 43 set: only 1-source op1s decode */
    for (unsigned op = 0; op < 16; op++) {
        uint64_t x = mk(4, 43, 1, V(1), 44, 3, V(op & 7), 54, 1, V(op >> 3),
                        -1);
        bool one = op == 2 || op == 5 || op == 6 || op == 7 || op == 12 ||
                   op == 13;
        ck_assert_msg(usse_decode(x, &in) == one, "op1 %u", op);
    }
}
END_TEST

/* Every VDUAL operation pair and src_config: decodes exactly when the
   two operations fit the four source slots, and round-trips. */
START_TEST(vdual_round_trip)
{
    static const uint8_t nsrc[14] = { 3, 2, 1, 2, 2, 1, 1, 1, 3, 2, 2, 2,
                                      1, 1 };
    GRand *r = g_rand_new_with_seed(7);
    unsigned good = 0;

    for (unsigned i = 0; i < 16 * 16 * 4 * 2 * 2 * 4; i++) {
        unsigned vec4 = i & 1, prim = i >> 1 & 1, cfg = i >> 2 & 3;
        unsigned o1 = i >> 4 & 15, o2 = i >> 8 & 15;
        uint64_t w = (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
        g_autoptr(GString) s = g_string_new(NULL);
        g_autofree char *err = NULL;
        uint64_t back = 0;
        bool valid;
        unsigned n1, n2;

        if (vec4 && o1 >= 8) {
            continue;           /* bit 54 is the w mask bit in vec4 */
        }
        w &= ~(0x1full << 59 | 7ull << 44 | 1ull << 54 | 7ull << 18 |
               1ull << 43 | 3ull << 16 | 1ull << 42);
        w |= mk(4 | vec4, 44, 3, V(o1 & 7), 18, 3, V(o2 & 7),
                43, 1, V(o2 >> 3), 16, 2, V(cfg), 42, 1, V(prim), -1);
        if (!vec4) {
            w |= (uint64_t)(o1 >> 3) << 54;
        }
        /* swizzle indices 11..15 of the vec3 extended table are unused */
        w &= ~(1ull << 52 | 1ull << 15);
        n1 = o1 < 14 ? nsrc[o1] : 0;
        n2 = o2 && o2 < 14 ? nsrc[o2] : 0;
        valid = n1 && n2 && (n1 == 1 || (n1 == 2 && cfg != 3 && n2 < 3) ||
                             (n1 == 3 && n2 == 1));
        ck_assert_msg(usse_disasm(w, s) == valid, "%016" PRIx64 " %s",
                      w, s->str);
        if (!valid) {
            continue;
        }
        good++;
        ck_assert_msg(usse_assemble_insn(s->str, &back, &err) && back == w,
                      "%016" PRIx64 " \"%s\": %s %016" PRIx64, w, s->str,
                      err ? err : "", back);
    }
    ck_assert_uint_gt(good, 1000);
    g_rand_free(r);
}
END_TEST

/* Indexed operands: bank in the top two bits of the number (UNVERIFIED
   layout), offset below, index register 0 (xa) or 1 (xb). */
START_TEST(vec_indexed)
{
    UsseInsn in;
    /* or: dest bank 3 + ext = xb, number 3 << 5 | 7: sa[idx1+7]; src1
       bank 0 + ext = xa, number 2 << 5 | 3: pa[idx0+3] */
    uint64_t w = mk(10, 35, 1, V(1), 32, 2, V(3), 51, 1, V(1),
                    21, 7, V(3 << 5 | 7), 30, 2, V(0), 49, 1, V(1),
                    7, 7, V(2 << 5 | 3), 0, 7, V(4), -1);

    check_text(w, "or sa[idx1+7], pa[idx0+3], r4");
    ck_assert(usse_decode(w, &in));
    ck_assert_int_eq(in.opnd[USSE_DST].bank, USSE_BANK_INDEXED2);
    ck_assert_int_eq(in.opnd[USSE_DST].ibank, USSE_BANK_SA);
    ck_assert_uint_eq(in.opnd[USSE_DST].num, 7);
    ck_assert_int_eq(in.opnd[USSE_SRC1].bank, USSE_BANK_INDEXED1);
    ck_assert_int_eq(in.opnd[USSE_SRC1].ibank, USSE_BANK_PA);
    ck_assert_uint_eq(in.opnd[USSE_SRC1].num, 3);
    /* 64-bit unit operands: the offset counts register pairs */
    check_text(mk(1, 28, 2, V(0), 48, 1, V(1), 0, 6, V(1 << 4 | 5),
                  39, 4, V(3), -1),
               "vmul.f32 r0.xy, r0.xxxx, o[idx0+10].xxxx");
    /* the index registers themselves: dest bank 2 + ext */
    check_text(mk(31, 56, 3, V(4), 52, 2, V(2), 51, 1, V(1), 32, 2, V(2),
                  21, 7, V(1), 0, 21, V(9), -1), "limm idx1, 0x00000009");
}
END_TEST

START_TEST(vec_test_forms)
{
    UsseInsn in;
    /* float tests (alu_sel 0): numbers in 64-bit units (Vita3K) */
    uint64_t w = mk(9, 14, 4, V(2), 47, 1, V(1), 42, 2, V(1), 36, 3, V(4),
                    30, 2, V(2), 7, 7, V(2), 28, 2, V(2), 0, 7, V(3), -1);

    check_text(w, "vtst.fadd.sn.prec.pchan p0, r0, pa4, pa6");
    ck_assert(usse_decode(w, &in));
    ck_assert_uint_eq(in.opnd[USSE_SRC1].num, 4);
    ck_assert_uint_eq(in.f[UF_CHAN_CC], 4);
    /* channel 7 does not exist; float alu_op 0 either */
    ck_assert(!usse_decode(w | 7ull << 36, &in));
    ck_assert(!usse_decode(mk(9, 18, 2, V(0), -1), &in));
    /* TESTMASK types: 3 is invalid; the flag at bit 50 negates src1 */
    w = mk(15, 14, 4, V(12), 18, 2, V(1), 36, 2, V(2), 50, 1, V(1),
           21, 7, V(5), 7, 7, V(1), 0, 7, V(2), -1);
    check_text(w, "vtstmsk.iadd32.mf32 r5, r1.neg, r2");
    ck_assert(!usse_decode(w | 3ull << 36, &in));
}
END_TEST

START_TEST(vec_groups)
{
    UsseInsn in;

    /* 22..24: illegal on SGX543 (Vita3K, the wiki) */
    for (unsigned g = 22; g <= 24; g++) {
        ck_assert(!usse_decode(mk(g, 0, 7, V(1), -1), &in));
    }
    /* 25: FPMA in IMA8's layout; .sat at bit 43 */
    check_text(mk(25, 43, 1, V(1), 57, 2, V(1), 21, 7, V(1), 14, 7, V(2),
                  7, 7, V(3), 0, 7, V(4), -1), "p0 fpma.sat r1, r2, r3, r4");
    /* SOP3: add/sub only */
    check_text(mk(17, 52, 2, V(1), 21, 7, V(1), 14, 7, V(2), 7, 7, V(3),
                  0, 7, V(4), 38, 3, V(6), -1),
               "sop3.sub.add r1, r2, r3, r4, csel1=6");
    ck_assert(!usse_decode(mk(17, 52, 2, V(2), -1), &in));
    ck_assert(!usse_decode(mk(17, 41, 2, V(3), -1), &in));
    /* RLP, SETL, SAVL */
    check_text(mk(14, 21, 7, V(1), 7, 7, V(2), 48, 1, V(1), 28, 2, V(2),
                  0, 7, V(1), -1), "rlp r1, r2, #1");
    check_text(mk(31, 38, 3, V(3), 30, 2, V(2), 7, 7, V(9), -1), "setl pa9");
    check_text(mk(31, 38, 3, V(4), 21, 7, V(3), -1), "savl r3");
}
END_TEST

START_TEST(vec_vector_operands)
{
    UsseInsn in;

    /* SVEC vmad4: 6-bit numbers in 64-bit units, n = 61 aliases i1 */
    ck_assert(usse_decode(0x18b18f80cf451102ull, &in));
    ck_assert_int_eq(in.op, UOP_VMAD4);
    ck_assert_int_eq(in.opnd[USSE_DST].bank, USSE_BANK_FPI);
    ck_assert_int_eq(in.opnd[USSE_DST].num, 1);
    ck_assert_int_eq(in.opnd[USSE_SRC1].bank, USSE_BANK_SA);
    ck_assert_int_eq(in.opnd[USSE_SRC1].num, 4);
    ck_assert_int_eq(in.opnd[USSE_SRC0].swz[0], USSE_CH_Y);
    check_text(0x18b18f80cf451102ull,
               "vmad4.f32.skipinv.rm3.nosched i1.xyzw, i0.yyyy, sa4.xyzw, "
               "i1.xyzw");
    /* V32NMAD: 12-bit src1 swizzle in four pieces, immediate bank */
    check_text(0x0883118190568001ull,
               "vmul.f32.skipinv o2.xy, #0.11xx, c1.yyyy");
    ck_assert(usse_decode(0x0883118190568001ull, &in));
    ck_assert_int_eq(in.opnd[USSE_SRC1].swz[1], USSE_CH_1);
    ck_assert_int_eq(in.opnd[USSE_SRC2].bank, USSE_BANK_CONST);
    /* VPCK: 7-bit dest r125 is i1; sources doubled */
    check_text(0x40c00dbcffb9840aull,
               "vpck.f32.f32.skipinv.nosched i1.xyzw, sa8.xyzw, sa10");
    /* VMAD2 (2-bit predicate: 2 = !p0) */
    check_text(0x00a2818661004306ull | (2ull << 56),
               "!p0 vmad.f32.skipinv pa8.xy, pa8.xyzw, c12.xxxx, pa12.xyzw");
    /* unexplained bits are kept and printed */
    check_text(mk(6, 14, 1, V(1), -1),
               "vrcp.f32.f32 r0.none, r0.x [unk 0x4000]");
}
END_TEST

START_TEST(vec_illegal)
{
    g_autoptr(GString) s = g_string_new(NULL);
    UsseInsn in;
    uint64_t w = mk(27, 0, 8, V(0x12), -1);

    ck_assert(!usse_disasm(w, s));
    ck_assert_str_eq(s->str, "??? 0xd800000000000012");
    ck_assert(!usse_decode(w, &in));
    ck_assert_int_eq(in.op, UOP_INVALID);
    /* VMOV move type 3 */
    ck_assert(!usse_decode(mk(7, 46, 2, V(3), -1), &in));
    /* VCOMP source type 3 */
    ck_assert(!usse_decode(mk(6, 39, 2, V(3), -1), &in));
    check_text(w, "??? 0xd800000000000012");
}
END_TEST

/* Random words of every group: each one that decodes re-assembles. */
START_TEST(round_trip_random)
{
    GRand *r = g_rand_new_with_seed(5);
    int fails = 0;

    for (unsigned g = 0; g < 32; g++) {
        unsigned good = 0;
        for (int i = 0; i < 4000; i++) {
            uint64_t w = (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
            g_autoptr(GString) s = g_string_new(NULL);
            g_autofree char *err = NULL;
            uint64_t back = 0;

            /* also sparse words, closer to real code */
            if (i & 1) {
                w &= (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
            }
            w = (w & ~(0x1full << 59)) | (uint64_t)g << 59;
            if (!usse_disasm(w, s)) {
                continue;
            }
            good++;
            if (!usse_assemble_insn(s->str, &back, &err) || back != w) {
                if (fails++ < 20) {
                    fprintf(stderr, "round trip %016" PRIx64 " \"%s\": %s "
                            "%016" PRIx64 "\n", w, s->str,
                            err ? err : "", back);
                }
            }
        }
        if (g == 27 || (g >= 22 && g <= 24)) {
            ck_assert_uint_eq(good, 0);
        } else {
            ck_assert_msg(good > 0, "group %u never decodes", g);
        }
    }
    g_rand_free(r);
    ck_assert_int_eq(fails, 0);
}
END_TEST

START_TEST(asm_errors)
{
    uint64_t w;
    const char *bad[] = {
        "frob r1",                              /* unknown mnemonic */
        "vexp.f32.f16 r5.x, pa6.z",             /* odd 64-bit-unit reg */
        "vmad4.f32 i1.xyzw, i0.yyyy, sa4.xyzw", /* missing operand */
        "p3 vmad4.f32 i1.xyzw, i0.yyyy, sa4.xyzw, i1.xyzw", /* no p3 */
        "vmul.f32 o2.xy, pa0.xyzw, c1.qqqq",    /* bad swizzle */
        "limm sa3",                             /* missing value */
        "and r5, sa1, #128",                    /* immediate too wide */
        "nop.end.end",                          /* suffix twice */
        "vexp.f32.f32 r4.x, pa6.x, r1",         /* too many operands */
        "vmov.f32 r120.xy, pa0.xyzw",           /* r120 is i0 here */
        "??? zz",
    };

    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *err = NULL;
        ck_assert_msg(!usse_assemble_insn(bad[i], &w, &err),
                      "accepted \"%s\"", bad[i]);
        ck_assert(err && *err);
    }
    {
        g_autofree char *err = NULL;
        ck_assert(usse_assemble_insn("vexp.f32.f32 i0.x, pa6.x", &w, &err));
        ck_assert_uint_eq((w >> 21) & 0x7f, 124);
    }
}
END_TEST

START_TEST(asm_file)
{
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
    g_autofree char *err = NULL;
    const char *src =
        "; a listing and plain lines\n"
        "00000: fa44070000000000  phas.imm wait=7\n"
        "# comment line\n"
        "  vmov.f32.skipinv o8.x, c1.yyyy   // pSize\n"
        "\n"
        "??? 0xd800000000000012\n";

    ck_assert_msg(usse_assemble(src, words, &err), "%s", err);
    ck_assert_uint_eq(words->len, 3);
    ck_assert_uint_eq(g_array_index(words, uint64_t, 0), 0xfa44070000000000ull);
    ck_assert_uint_eq(g_array_index(words, uint64_t, 1), 0x3882050941100040ull);
    ck_assert_uint_eq(g_array_index(words, uint64_t, 2), 0xd800000000000012ull);
    g_clear_pointer(&err, g_free);
    ck_assert(!usse_assemble("nop\nbogus r1\n", words, &err));
    ck_assert_msg(g_str_has_prefix(err, "line 2: "), "%s", err);
}
END_TEST

/*
 * Hostile input (issue 14): empty operands, label- or address-only lines,
 * very long lines -- an error naming the line, never a crash, and linear
 * time (a 2 MB line under ASan once took minutes through g_strsplit).
 */
START_TEST(asm_hostile)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "vtst.iadd32.nz p0,", "empty operand" },
        { "vtst.iadd32.nz p0, , r1", "empty operand" },
        { "vtst.iadd32.nz ,p0", "empty operand" },
        { "nop ,", "empty operand" },
        { "vdual.vec4 vmad o0.xy, , i1.xyzw, i2.xyzw | frsq i0.xyzw, "
          "i0.xxxx", "empty operand" },
        { "", "no instruction" },
        { "   ", "no instruction" },
        { "[unk 1]", "no instruction" },
        { "p0 [unk 1]", NULL },
        { ".", "unknown instruction" },
        { "vmov.f32 .x, r1.xyzw", NULL },
        { "vmov.f32 r1.xy, .", NULL },
        { "vdual.vec4 vmad o0.xy, pa0.xyzw, i1.xyzw, i2.xyzw | frsq , ",
          NULL },
        { "vdual.vec4 | ", NULL },
        { "vdual.vec4 |||", NULL },
        { "or sa[, pa[idx0+3], r4", NULL },
        { "or sa[idx1+, pa[idx0+3], r4", NULL },
        { "limm sa3, ", "empty operand" },
    };
    uint64_t w;

    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *err = NULL;
        ck_assert_msg(!usse_assemble_insn(bad[i].text, &w, &err),
                      "accepted \"%s\"", bad[i].text);
        ck_assert(err && *err);
        ck_assert_msg(!bad[i].msg || strstr(err, bad[i].msg),
                      "\"%s\": %s", bad[i].text, err);
    }

    /* label and address lines name the line */
    static const char *const files[] = {
        "nop\nabc:\n", "nop\nabc:   ; comment\n", "nop\nloop:\n",
        "nop\n00001:\n", "nop\n:\n", "nop\n0: \n",
    };
    for (unsigned i = 0; i < ARRAY_SIZE(files); i++) {
        g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
        g_autofree char *err = NULL;
        ck_assert_msg(!usse_assemble(files[i], words, &err), "accepted %s",
                      files[i]);
        ck_assert_msg(g_str_has_prefix(err, "line 2: ") &&
                      strstr(err, "label"), "%s", err);
    }
    {
        g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
        g_autofree char *err = NULL;
        ck_assert(!usse_assemble("nop\n\nvtst.iadd32.nz p0,", words, &err));
        ck_assert_msg(g_str_has_prefix(err, "line 3: ") &&
                      strstr(err, "empty operand"), "%s", err);
    }
    /* ';' before "//" cuts the line there too */
    {
        g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
        g_autofree char *err = NULL;
        ck_assert_msg(usse_assemble("nop ; a // b\nnop // c ; d\n"
                                    "nop\t// tab\n", words, &err),
                      "%s", err);
        ck_assert_uint_eq(words->len, 3);
    }
}
END_TEST

/* A 2 MB line of each kind, and 2 MB of short lines: errors (cut short)
   or words, in linear time. */
START_TEST(asm_long_lines)
{
    static const char *const unit[] = {
        "r1, ",                 /* operands */
        ".x",                   /* operand suffixes */
        ".f32",                 /* mnemonic suffixes */
        "  ",                   /* blanks */
        ",",                    /* empty operands */
        "| ",                   /* VDUAL halves */
        "frob",                 /* one long word */
    };
    static const char *const head[] = {
        "vmov.f32 r1.xyzw, ", "vmov.f32 r1.xyzw, r2", "vmov", "nop",
        "vmov.f32 r1.xyzw, r2", "vdual.vec4 vmad o0.xy, pa0.xyzw ", "",
    };
    const size_t len = 2 << 20;

    for (unsigned i = 0; i < ARRAY_SIZE(unit); i++) {
        g_autoptr(GString) s = g_string_new(head[i]);
        g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
        g_autofree char *err = NULL;
        size_t ul = strlen(unit[i]);

        while (s->len < len) {
            g_string_append_len(s, unit[i], ul);
        }
        g_string_append(s, "\n");
        if (i == 3) {
            /* "nop" and trailing blanks is an instruction */
            ck_assert_msg(usse_assemble(s->str, words, &err), "%s", err);
            ck_assert_uint_eq(words->len, 1);
            continue;
        }
        ck_assert_msg(!usse_assemble(s->str, words, &err), "unit %u", i);
        ck_assert_msg(g_str_has_prefix(err, "line 1: "), "%s", err);
        ck_assert_msg(strlen(err) < 200, "unit %u: %zu-byte message", i,
                      strlen(err));
    }
    {
        g_autoptr(GString) s = g_string_new(NULL);
        g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
        g_autofree char *err = NULL;
        unsigned n = 0;

        while (s->len < len) {
            g_string_append(s, n & 1 ? "\n" : "nop\n");
            n++;
        }
        ck_assert_msg(usse_assemble(s->str, words, &err), "%s", err);
        ck_assert_uint_eq(words->len, (n + 1) / 2);
    }
}
END_TEST

Suite *usse_isa_suite(void)
{
    Suite *s = suite_create("usse_isa");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, vec_vcomp);
    tcase_add_test(tc, vec_vbw_imm);
    tcase_add_test(tc, vec_limm);
    tcase_add_test(tc, vec_branch);
    tcase_add_test(tc, vec_vtst);
    tcase_add_test(tc, vec_sop2);
    tcase_add_test(tc, vec_smp_vdual);
    tcase_add_test(tc, vec_vdual);
    tcase_add_test(tc, vdual_round_trip);
    tcase_add_test(tc, vec_indexed);
    tcase_add_test(tc, vec_test_forms);
    tcase_add_test(tc, vec_groups);
    tcase_add_test(tc, vec_vector_operands);
    tcase_add_test(tc, vec_illegal);
    tcase_add_test(tc, round_trip_random);
    tcase_add_test(tc, asm_errors);
    tcase_add_test(tc, asm_file);
    tcase_add_test(tc, asm_hostile);
    tcase_add_test(tc, asm_long_lines);
    suite_add_tcase(s, tc);
    return s;
}
