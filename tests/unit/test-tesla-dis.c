/*
 * Tesla disassembler and decoder: every catalogue row against envydis'
 * text per variant, decode errors, variant gating.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/tesla/insn.h"
#include "test-tesla-catalogue.h"
#include <check.h>

/*
 * Compare each row's disassembly with the catalogue; print every
 * mismatch.  "-" below the row's minimum variant: the variant must not
 * decode it as the same clean text.  (The catalogue also has "-" for a
 * few gt215-only rows on gt215 itself, where envydis' tables do decode
 * them; those cells are skipped.)
 */
static int check_dis_rows(bool only_data_control)
{
    GPtrArray *rows = cat_load();
    int bad = 0, checked = 0;

    for (unsigned i = 0; i < rows->len; i++) {
        CatRow *r = g_ptr_array_index(rows, i);
        if (only_data_control && !cat_is_data_control(r)) {
            continue;
        }
        for (int v = 0; v < TESLA_NUM_VARIANTS; v++) {
            g_autoptr(GString) s = g_string_new(NULL);
            bool clean;
            tesla_disasm(v, r->prog, r->words, r->nwords, 0, s, &clean);
            if (!strcmp(r->dis[v], "-")) {
                if (v >= (int)r->min_variant) {
                    continue;
                }
                checked++;
                if (clean && !strcmp(s->str, r->source)) {
                    fprintf(stderr, "dis: line %d %s/%s %08x%s%.8s: "
                            "should not decode here, got \"%s\"\n",
                            r->lineno, tesla_variant_name(v),
                            tesla_prog_name(r->prog), r->words[0],
                            r->nwords > 1 ? " " : "",
                            r->nwords > 1 ? g_strdup_printf("%08x",
                                r->words[1]) : "", s->str);
                    bad++;
                }
                continue;
            }
            checked++;
            if (strcmp(s->str, r->dis[v])) {
                fprintf(stderr, "dis: line %d %s/%s %08x %08x: expected "
                        "\"%s\" got \"%s\"\n", r->lineno,
                        tesla_variant_name(v), tesla_prog_name(r->prog),
                        r->words[0], r->nwords > 1 ? r->words[1] : 0,
                        r->dis[v], s->str);
                bad++;
            }
        }
    }
    cat_free(rows);
    ck_assert_int_gt(checked, 0);
    return bad;
}

START_TEST(catalogue_dis_data_control)
{
    int bad = check_dis_rows(true);
    ck_assert_msg(bad == 0, "%d data/control catalogue cells differ "
                  "(listed above)", bad);
}
END_TEST

START_TEST(catalogue_dis_all)
{
    int bad = check_dis_rows(false);
    ck_assert_msg(bad == 0, "%d catalogue cells differ (listed above)", bad);
}
END_TEST

static void decode1(TeslaVariant v, TeslaProgType p, uint32_t w0,
                    uint32_t w1, TeslaInsn *insn)
{
    uint32_t code[2] = { w0, w1 };
    tesla_decode(v, p, code, (w0 & 1) ? 2 : 1, 0, insn);
}

START_TEST(listing_line_format)
{
    uint32_t code[] = { 0x20000005, 0x04000781, 0x10008404, 0x10004003 };
    g_autoptr(GString) s = g_string_new(NULL);

    /* long: both words; short: the second column blank */
    ck_assert_int_eq(tesla_disasm_line(TESLA_G84, TESLA_PROG_CP, code, 4, 8,
                                       0, s), 1);
    ck_assert_str_eq(s->str, "00000008: 10008404              "
                     "mov b32 $r1 $r2");
    g_string_truncate(s, 0);
    /* a long insn cut off by the end of the code */
    ck_assert_int_eq(tesla_disasm_line(TESLA_G84, TESLA_PROG_CP, code, 4,
                                       12, 0x100, s), 2);
    ck_assert_str_eq(s->str, "0000010c: 10004003 ????????     "
                     "(never) bra 0x20 [incomplete]");
}
END_TEST

START_TEST(unknown_bits_marker)
{
    uint32_t code[] = { 0x00000801, 0xe4a04780 };
    g_autoptr(GString) s = g_string_new(NULL);
    bool clean;

    /* st unlock needs SM12: on G84 the unlock bit is unexplained */
    tesla_disasm(TESLA_G84, TESLA_PROG_CP, code, 2, 0, s, &clean);
    ck_assert_str_eq(s->str, "st b32 s[0x10] $r1 [unknown: 00000000 "
                     "00800000]");
    ck_assert(!clean);
    g_string_truncate(s, 0);
    tesla_disasm(TESLA_G200, TESLA_PROG_CP, code, 2, 0, s, &clean);
    ck_assert_str_eq(s->str, "st unlock b32 s[0x10] $r1");
    ck_assert(clean);
}
END_TEST

START_TEST(decode_mov_exit)
{
    TeslaInsn insn;

    /* exit mov b32 $r1 $r2: post EXIT, pred always */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x10000405, 0x0403c781, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_NONE);
    ck_assert_int_eq(insn.op, TOP_MOV);
    ck_assert_int_eq(insn.len, 8);
    ck_assert_int_eq(insn.post, TPOST_EXIT);
    ck_assert_int_eq(insn.pred, TPRED_ALWAYS);
    ck_assert_int_eq(insn.dst.kind, TOPND_REG);
    ck_assert_int_eq(insn.dst.reg, 1);
    ck_assert_int_eq(insn.nsrc, 1);
    ck_assert_int_eq(insn.src[0].kind, TOPND_REG);
    ck_assert_int_eq(insn.src[0].reg, 2);
    ck_assert(insn.mods & TMOD_B32);
    ck_assert_int_eq(insn.lanemask, 0xf);

    /* (never) join nop... exit nop: a bare exit is nop + post */
    decode1(TESLA_G84, TESLA_PROG_CP, 0xf0000001, 0xe0000781, &insn);
    ck_assert_int_eq(insn.op, TOP_NOP);
    ck_assert_int_eq(insn.post, TPOST_EXIT);
    decode1(TESLA_G84, TESLA_PROG_CP, 0xf0000001, 0xe0000002, &insn);
    ck_assert_int_eq(insn.op, TOP_NOP);
    ck_assert_int_eq(insn.post, TPOST_JOIN);
    ck_assert_int_eq(insn.pred, TPRED_NEVER);

    /* (l02) mov: lanes 0 and 2 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x10000201, 0x04014780, &insn);
    ck_assert_int_eq(insn.lanemask, 0x5);
}
END_TEST

START_TEST(decode_memory_operands)
{
    TeslaInsn insn;

    /* ld $r3 b32 c0[$a1++0x4] */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x1600020d, 0x2400c780, &insn);
    ck_assert_int_eq(insn.op, TOP_LD);
    ck_assert_int_eq(insn.src[0].kind, TOPND_MEM);
    ck_assert_int_eq(insn.src[0].space, TSPACE_C);
    ck_assert_int_eq(insn.src[0].space_idx, 0);
    ck_assert_int_eq(insn.src[0].areg, 1);
    ck_assert(insn.src[0].postinc);
    ck_assert_int_eq(insn.src[0].imm, 4);
    ck_assert_int_eq(insn.src[0].mtype, TTYPE_B32);

    /* cas b32 $r1 g0[$r2] $r3 $r4 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0xd0030405, 0xe0c10788, &insn);
    ck_assert_int_eq(insn.op, TOP_ATOM);
    ck_assert_int_eq(insn.atomop, TATOM_CAS);
    ck_assert_int_eq(insn.dst.reg, 1);
    ck_assert_int_eq(insn.nsrc, 3);
    ck_assert_int_eq(insn.src[0].space, TSPACE_G);
    ck_assert_int_eq(insn.src[0].reg, 2);
    ck_assert_int_eq(insn.src[1].reg, 3);
    ck_assert_int_eq(insn.src[2].reg, 4);

    /* red max s32 g0[$r2] $r3: no destination */
    decode1(TESLA_G84, TESLA_PROG_CP, 0xd000040d, 0xc0e00798, &insn);
    ck_assert_int_eq(insn.op, TOP_RED);
    ck_assert_int_eq(insn.atomop, TATOM_MAX);
    ck_assert_int_eq(insn.dst.kind, TOPND_NONE);
    ck_assert_int_eq(insn.src[0].mtype, TTYPE_S32);
    ck_assert_int_eq(insn.src[1].reg, 3);

    /* st b16 s[0x12] $r1l: dst memory, src0 the value */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x00001201, 0xe0008780, &insn);
    ck_assert_int_eq(insn.op, TOP_ST);
    ck_assert_int_eq(insn.dst.kind, TOPND_MEM);
    ck_assert_int_eq(insn.dst.space, TSPACE_S);
    ck_assert_int_eq(insn.dst.imm, 0x12);
    ck_assert_int_eq(insn.src[0].kind, TOPND_HREG);
    ck_assert_int_eq(insn.src[0].reg, 1);
    ck_assert_int_eq(insn.src[0].half, 0);
}
END_TEST

START_TEST(decode_control)
{
    TeslaInsn insn;

    /* (e $c0) bra 0x20 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x10004003, 0x00000100, &insn);
    ck_assert_int_eq(insn.op, TOP_BRA);
    ck_assert_int_eq(insn.pred, 2);
    ck_assert_int_eq(insn.pred_c, 0);
    ck_assert_int_eq(insn.src[0].kind, TOPND_TARGET);
    ck_assert_int_eq(insn.src[0].imm, 0x20);

    /* bar wait 0x1 0x40 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x84208003, 0x00000000, &insn);
    ck_assert_int_eq(insn.op, TOP_BAR);
    ck_assert_int_eq(insn.bar, 1);
    ck_assert(insn.mods & TMOD_BAR_WAIT);
    ck_assert(!(insn.mods & TMOD_BAR_INC));
    ck_assert_int_eq(insn.src[0].imm, 0x40);

    /* call lim 0x40 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x20008003, 0x00000040, &insn);
    ck_assert_int_eq(insn.op, TOP_CALL);
    ck_assert(insn.mods & TMOD_CALL_LIM);
    ck_assert_int_eq(insn.src[0].imm, 0x40);

    /* discard only exists in fragment programs */
    decode1(TESLA_G84, TESLA_PROG_FP, 0x00000003, 0x00000780, &insn);
    ck_assert_int_eq(insn.op, TOP_DISCARD);
    decode1(TESLA_G84, TESLA_PROG_CP, 0x00000003, 0x00000780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

START_TEST(decode_errors)
{
    TeslaInsn insn;
    uint32_t code[4] = { 0x10008404, 0x10000405, 0x0403c780, 0 };

    /* a long instruction at an odd word address */
    tesla_decode(TESLA_G84, TESLA_PROG_CP, code, 4, 4, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_UNALIGNED_LONG_INSTRUCTION);
    ck_assert_int_eq(insn.op, TOP_INVALID);

    /* ld $r3 b32 c0[$a0++0x4]: postincrement of $a0 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x1200020d, 0x2400c780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_POSTINCR);
    /* ... of $a5 / $a6 too ($a high bit is word 1 bit 2), not $a7 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x1600020d, 0x2400c784, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_POSTINCR);
    decode1(TESLA_G84, TESLA_PROG_CP, 0x1a00020d, 0x2400c784, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_POSTINCR);
    decode1(TESLA_G84, TESLA_PROG_CP, 0x1e00020d, 0x2400c784, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_NONE);

    /* mov b16 $r1l b32 s[0x8]: b32 mode for a 16-bit source */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x11006404, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_MEMORY_SIZE);
    decode1(TESLA_G84, TESLA_PROG_CP, 0x11002404, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_NONE);
    ck_assert_int_eq(insn.src[0].mtype, TTYPE_U16);

    /* ld a[] outside vertex/geometry programs */
    decode1(TESLA_G84, TESLA_PROG_VP, 0x00000805, 0x0423c780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_NONE);
    ck_assert_int_eq(insn.op, TOP_LD);
    decode1(TESLA_G84, TESLA_PROG_CP, 0x00000805, 0x0423c780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_LD_A_ST_O_NON_VP_GP);

    /* interp outside fragment programs, emit outside geometry */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x80000000, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_INTERP_NON_FP);
    decode1(TESLA_G84, TESLA_PROG_FP, 0xf0000201, 0xc0000780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_EMIT_NON_GP);

    /* an unknown opcode */
    decode1(TESLA_G84, TESLA_PROG_CP, 0xf0000003, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
}
END_TEST

/* isa.rst: u16/s16 must agree with the operand's sign (needs tab-int.c),
   only u8 for cvt from u8 (needs tab-sfu.c) */
START_TEST(decode_memory_sign_byte)
{
    TeslaInsn insn;

    /* mul $r1 u16 s16 s[0x0] ...: unsigned source, signed s[] mode */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x41004004, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_MEMORY_SIGN);
    /* cvt u32 $r1 u8 u16 s[0x0]: u8 source read as u16 */
    decode1(TESLA_G84, TESLA_PROG_CP, 0xa0004005, 0x04208780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_MEMORY_BYTE);
}
END_TEST

START_TEST(variant_gating)
{
    TeslaInsn insn;

    /* vote: G200 and later */
    decode1(TESLA_G84, TESLA_PROG_CP, 0x10000201, 0x60000780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
    decode1(TESLA_G200, TESLA_PROG_CP, 0x10000201, 0x60000780, &insn);
    ck_assert_int_eq(insn.op, TOP_VOTE);
    ck_assert_int_eq(insn.cdst, 0);
    /* brkpt: G84 and later */
    decode1(TESLA_G80, TESLA_PROG_CP, 0xb0000002, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
    decode1(TESLA_G84, TESLA_PROG_CP, 0xb0000002, 0, &insn);
    ck_assert_int_eq(insn.op, TOP_BRKPT);
    /* ld s[]: G84 and later */
    decode1(TESLA_G80, TESLA_PROG_CP, 0x10000805, 0x4400c780, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
    /* preret: GT215 */
    decode1(TESLA_G200, TESLA_PROG_CP, 0xd0002003, 0, &insn);
    ck_assert_int_eq(insn.error, TESLA_ERR_ILLEGAL_OPCODE);
    decode1(TESLA_GT215, TESLA_PROG_CP, 0xd0002003, 0, &insn);
    ck_assert_int_eq(insn.op, TOP_PRERET);
    /* $sampleid is only named on GT215 */
    g_autoptr(GString) s = g_string_new(NULL);
    uint32_t code[2] = { 0x00000005, 0x60020780 };
    tesla_disasm(TESLA_G200, TESLA_PROG_FP, code, 2, 0, s, NULL);
    ck_assert_str_eq(s->str, "mov $r1 $sr8");
}
END_TEST

Suite *tesla_dis_suite(void)
{
    Suite *s = suite_create("tesla_dis");
    TCase *tc = tcase_create("dis");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, catalogue_dis_data_control);
    tcase_add_test(tc, catalogue_dis_all);
    tcase_add_test(tc, listing_line_format);
    tcase_add_test(tc, unknown_bits_marker);
    tcase_add_test(tc, decode_mov_exit);
    tcase_add_test(tc, decode_memory_operands);
    tcase_add_test(tc, decode_control);
    tcase_add_test(tc, decode_errors);
    tcase_add_test(tc, decode_memory_sign_byte);
    tcase_add_test(tc, variant_gating);
    suite_add_tcase(s, tc);
    return s;
}
