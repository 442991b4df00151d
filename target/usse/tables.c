/*
 * USSE opcode tables: every op1 group's encodings.
 *
 * Facts (bit positions, sub-opcode numbers, bank and swizzle tables) from
 * sgx543.md (Appendix A, §1.3-§1.8), which summarises Vita3K's decoder and
 * the Vita dev wiki, and from Vita3K's shader decoder itself
 * (github.com/Vita3K/Vita3K, vita3k/shader/, GPL-2.0: facts only, the
 * tables here are our own): the VDUAL operations, source layouts and
 * swizzles, the float TEST operand units, the TESTMASK types and IMA16
 * modes.  Forms are matched in order; first match wins.  Groups 22-24
 * (ADIF/FIRH/DOT on older SGX cores) and 27 have no form: Vita3K decodes
 * them as illegal and the Vita dev wiki found only illegal words there.
 * FPMA (group 25) uses IMA8's layout (the wiki's "mad.u8" with .sat at
 * bit 43; UNVERIFIED beyond that).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/usse/opcodes.h"

#define OP1(n)      ((uint64_t)(n) << 59)
#define M_OP1       OP1(0x1f)
#define BIT(n)      (1ull << (n))
#define FLD(v, p, l)    ((uint64_t)(v) << (p))
#define MSK(p, l)   (((1ull << (l)) - 1) << (p))

/* ---- item constructors ---- */
#define PRED(p, l, t)   { .kind = UI_PRED, .where = UW_MNEM, .role = UF_PRED, \
                          .bits = B1(p, l), .names = t##_names, \
                          .vals = t##_vals }
#define FLAG(nm, b, r)  { .kind = UI_FLAG, .where = UW_MNEM, .role = r, \
                          .bits = B1(b, 1), .name = nm }
#define OFLAG(nm, b, r, m) { .kind = UI_FLAG, .where = UW_OPND, .role = r, \
                          .bits = B1(b, 1), .name = nm, .mod = m }
#define ENUM(t, bx, r)  { .kind = UI_ENUM, .where = UW_MNEM, .role = r, \
                          .bits = bx, .names = t }
#define FMTE(t, bx, r)  { .kind = UI_ENUM, .where = UW_MNEM, .role = r, \
                          .bits = bx, .names = t##_names, .vals = t##_vals }
#define OENUM(t, bx, r, a) { .kind = UI_ENUM, .where = UW_OPND, .role = r, \
                          .bits = bx, .names = t, .arg = a }
#define OMOD(p, l, r)   { .kind = UI_ENUM, .where = UW_OPND, .role = r, \
                          .bits = B1(p, l), .names = mod_names, .mod = 0xff }
#define LIT(nm)         { .kind = UI_LIT, .where = UW_MNEM, .name = nm }
#define LITF(nm, f)     { .kind = UI_LIT, .where = UW_MNEM, .name = nm, \
                          .role = UF_FMT, .arg = f }
#define RPT(p, l)       { .kind = UI_RPT, .where = UW_MNEM, .role = UF_REPEAT, \
                          .bits = B1(p, l) }
#define KEY(nm, bx, r)  { .kind = UI_KEY, .where = UW_LIST, .role = r, \
                          .bits = bx, .name = nm }
#define OPND(slot, d)   { .kind = UI_OPND, .where = UW_LIST, .role = slot, \
                          .opnd = &d }
#define MASK(p, l)      { .kind = UI_MASK, .where = UW_OPND, .bits = B1(p, l) }
#define SWZ(t, bx)      { .kind = UI_SWZ, .where = UW_OPND, .bits = bx, \
                          .names = t }
#define SWZ3(bx)        { .kind = UI_SWZ3, .where = UW_OPND, .bits = bx }
#define SWZ2(bx)        { .kind = UI_SWZ2, .where = UW_OPND, .bits = bx }
#define NUM(bx, r, s)   { .kind = UI_NUM, .where = UW_LIST, .role = r, \
                          .bits = bx, .arg = s }
#define HEX(bx, r)      { .kind = UI_HEX, .where = UW_LIST, .role = r, \
                          .bits = bx }
#define PREG(bx, r)     { .kind = UI_PREG, .where = UW_LIST, .role = r, \
                          .bits = bx }

/* ---- predicates (§1.6) ---- */
static const char *const pext_names[8] = {
    "", "p0", "p1", "p2", "p3", "!p0", "!p1", "pN" };
static const uint8_t pext_vals[8] = {
    USSE_PRED_ALWAYS, USSE_PRED_P0, USSE_PRED_P1, USSE_PRED_P2,
    USSE_PRED_P3, USSE_PRED_NOT_P0, USSE_PRED_NOT_P1, USSE_PRED_PN };
static const char *const pvec_names[8] = {
    "", "p0", "p1", "p2", "!p0", "!p1", "!p2", "pchan" };
static const uint8_t pvec_vals[8] = {
    USSE_PRED_ALWAYS, USSE_PRED_P0, USSE_PRED_P1, USSE_PRED_P2,
    USSE_PRED_NOT_P0, USSE_PRED_NOT_P1, USSE_PRED_NOT_P2,
    USSE_PRED_PERCHAN };
static const char *const psvec_names[4] = { "", "p0", "!p0", "pchan" };
static const uint8_t psvec_vals[4] = {
    USSE_PRED_ALWAYS, USSE_PRED_P0, USSE_PRED_NOT_P0, USSE_PRED_PERCHAN };
static const char *const pshort_names[4] = { "", "p0", "p1", "!p0" };
static const uint8_t pshort_vals[4] = {
    USSE_PRED_ALWAYS, USSE_PRED_P0, USSE_PRED_P1, USSE_PRED_NOT_P0 };

/* ---- formats ---- */
static const char *const f3216_names[2] = { "f32", "f16" };
static const uint8_t f3216_vals[2] = { USSE_FMT_F32, USSE_FMT_F16 };
static const char *const fcomp_names[4] = { "f32", "f16", "c10", NULL };
static const uint8_t fcomp_vals[4] = {
    USSE_FMT_F32, USSE_FMT_F16, USSE_FMT_C10, 0 };
static const char *const fmov_names[8] = {
    "i8", "i16", "i32", "c10", "f16", "f32", NULL, NULL };
static const uint8_t fmov_vals[8] = {
    USSE_FMT_I8, USSE_FMT_I16, USSE_FMT_I32, USSE_FMT_C10, USSE_FMT_F16,
    USSE_FMT_F32, 0, 0 };
static const char *const fpck_names[8] = {
    "u8", "s8", "o8", "u16", "s16", "f16", "f32", "c10" };
static const uint8_t fpck_vals[8] = {
    USSE_FMT_U8, USSE_FMT_S8, USSE_FMT_O8, USSE_FMT_U16, USSE_FMT_S16,
    USSE_FMT_F16, USSE_FMT_F32, USSE_FMT_C10 };

/* ---- modifiers and small enums ---- */
static const char *const mod_names[4] = { "", "neg", "abs", "nabs" };
static const char *const comp_names[4] = { "x", "y", "z", "w" };
static const char *const rmode_names[4] = { "", "rm1", "rm2", "rm3" };
static const char *const movtest_names[4] = { "", "nez", "ltz", "lez" };
static const char *const movctest_names[4] = { "eqz", "nez", "ltz", "lez" };
static const char *const sign_names[4] = { "", "sn", "sp", "s3" };
static const char *const zero_names[4] = { "", "z", "nz", "z3" };
/* TEST channel: x..w; 4..6 test all four channels (UNVERIFIED: Vita3K
   implements 0..3 only and has no entry 7) */
static const char *const chan_names[8] = {
    "", "chy", "chz", "chw", "pchan", "all", "any", NULL };
/* TESTMASK result type (Vita3K): U8 bytes, F16 halves, F32 words */
static const char *const mtype_names[4] = { "", "mf16", "mf32", NULL };
static const char *const bop_names[4] = { "add", "sub", "min", "max" };
/* SOP3 operations: the wiki lists add and sub, the others invalid */
static const char *const sop3_names[4] = { "add", "sub", NULL, NULL };
static const char *const fconv_names[4] = { "", "native", "f16", "f32" };
static const char *const dim_names[4] = { "1d", "2d", "3d", "dim3" };
static const char *const lod_names[4] = { "", "bias", "lod", "grad" };
static const char *const sb_names[4] = { "", "gather4", "info", "gather4uv" };
static const char *const ldt_names[4] = { "b32", "b16", "b8", NULL };

/* VTST alu_sel << 4 | alu_op (§1.5); alu_sel 0 (float) has its own form */
static const char *const alu_names[64] = {
    [0x16] = "iadd16", [0x17] = "isub16", [0x18] = "imul16",
    [0x19] = "iaddu16", [0x1a] = "isubu16", [0x1b] = "imulu16",
    [0x1c] = "iadd32", [0x1d] = "iaddu32", [0x1e] = "isub32",
    [0x1f] = "isubu32",
    [0x20] = "iadd8", [0x21] = "isub8", [0x22] = "iaddu8", [0x23] = "isubu8",
    [0x24] = "imul8", [0x25] = "fpmul8", [0x26] = "imulu8",
    [0x27] = "fpadd8", [0x28] = "fpsub8",
    [0x30] = "and", [0x31] = "or", [0x32] = "xor", [0x33] = "shl",
    [0x34] = "shr", [0x35] = "rol", [0x37] = "asr",
};

/* the float TEST operations only (alu_sel 0) */
static const char *const falu_names[16] = {
    [0x02] = "fadd", [0x03] = "ffrc", [0x04] = "frcp", [0x05] = "frsq",
    [0x06] = "flog", [0x07] = "fexp", [0x08] = "fdp", [0x09] = "fmin",
    [0x0a] = "fmax", [0x0b] = "fdsx", [0x0c] = "fdsy", [0x0d] = "fmul",
    [0x0e] = "fsub",
};

/* ---- swizzle tables (§1.8) ---- */
#define V4STD "xxxx", "yyyy", "zzzz", "wwww", "xyzw", "yzww", "xyzz", "xxyz", \
              "xyxy", "xywz", "zxyw", "zwzw", "yzxz", "xxyy", "xzww", "xyz1"
#define V4EXT "yzxw", "zwxy", "xzwy", "yyww", "wyzw", "wzwz", "xyzx", "zzww", \
              "xwzx", "yyyx", "yyyz", "xzyw", "xxxy", "zyxw", "yyzz", "zzzy"
#define V3STD "xxx", "yyy", "zzz", "www", "xyz", "yzw", "xxy", "xyx", \
              "yyx", "yyz", "zxy", "xzy", "yzx", "zyx", "zzy", "xy1"
#define V3EXT "xyy", "yxy", "xxz", "yxx", "xy0", "x10", "000", "111", \
              "hhh", "222", "x00", NULL, NULL, NULL, NULL, NULL
static const char *const swz_v4[32] = { V4STD, V4EXT };
static const char *const swz_v3[32] = { V3STD, V3EXT };
static const char *const swz_v4std[16] = { V4STD };
static const char *const swz_v3std[16] = { V3STD };
static const char *const swz_m2s0[8] = {
    "xxxx", "yyyy", "zzzz", "wwww", "xyzw", "yzxw", "xyww", "zwxy" };
static const char *const swz_m2s1[8] = {
    "xxxx", "yyyy", "zzzz", "wwww", "xyzw", "xyyz", "yyww", "wyzw" };
static const char *const swz_m2s2[8] = {
    "xxxx", "yyyy", "zzzz", "wwww", "xyzw", "xzww", "xxyz", "xyzz" };

/* ---- operand descriptors ---- */
#define OD(c, bk, e, n, d, b) { .cls = c, .bank = bk, .ext = e, .num = n, \
                                .dbl = d, .bits = b }
/* vector groups: 6-bit numbers in 64-bit units */
static const UsseOpndDesc vd_dst = OD(UBC_DEST, B1(32, 2), 51, B1(22, 6), 1, 7);
static const UsseOpndDesc vd_dst_nx =
    OD(UBC_DEST, B1(32, 2), -1, B1(22, 6), 1, 7);
static const UsseOpndDesc vd_src0 =
    OD(UBC_SRC0, B1(34, 1), -1, B1(12, 6), 1, 7);
static const UsseOpndDesc vd_src1 =
    OD(UBC_SRC12, B1(30, 2), 49, B1(6, 6), 1, 7);
static const UsseOpndDesc vd_src2 =
    OD(UBC_SRC12, B1(28, 2), 48, B1(0, 6), 1, 7);
static const UsseOpndDesc sv_src1 =
    OD(UBC_SRC12, B1(30, 2), 49, B1(0, 6), 1, 7);
static const UsseOpndDesc sv_gpi0 = OD(UBC_GPI, NOBITS, -1, B1(28, 2), 0, 0);
static const UsseOpndDesc sv_gpi1 = OD(UBC_GPI, NOBITS, -1, B1(12, 2), 0, 0);
static const UsseOpndDesc vc_dst = OD(UBC_DEST, B1(32, 2), 51, B1(21, 7), 1, 8);
static const UsseOpndDesc vc_src1 =
    OD(UBC_SRC12, B1(30, 2), 49, B1(7, 7), 1, 8);
static const UsseOpndDesc mv_dst = OD(UBC_DEST, B1(32, 2), 51, B1(18, 6), 1, 7);
static const UsseOpndDesc mv_src0 =
    OD(UBC_SRC0, B1(34, 1), 50, B1(12, 6), 1, 7);
static const UsseOpndDesc pk_dst = OD(UBC_DEST, B1(32, 2), 51, B1(21, 7), 0, 7);
static const UsseOpndDesc pk_src1 =
    OD(UBC_SRC12, B1(30, 2), 49, B1(8, 6), 1, 7);
static const UsseOpndDesc pk_src2 =
    OD(UBC_SRC12, B1(28, 2), 48, B1(1, 6), 1, 7);
/* scalar/integer groups: 7-bit numbers in 32-bit units */
static const UsseOpndDesc d7 = OD(UBC_DEST, B1(32, 2), 51, B1(21, 7), 0, 7);
static const UsseOpndDesc d7_nobank = OD(UBC_DEST, NOBITS, -1, B1(21, 7), 0, 7);
static const UsseOpndDesc s0_7 = OD(UBC_SRC0, B1(34, 1), -1, B1(14, 7), 0, 7);
static const UsseOpndDesc s0_7e50 =
    OD(UBC_SRC0, B1(34, 1), 50, B1(14, 7), 0, 7);
static const UsseOpndDesc s0_7e51 =
    OD(UBC_SRC0, B1(34, 1), 51, B1(14, 7), 0, 7);
static const UsseOpndDesc s0_7e47 =
    OD(UBC_SRC0, B1(34, 1), 47, B1(14, 7), 0, 7);
static const UsseOpndDesc s1_7 = OD(UBC_SRC12, B1(30, 2), 49, B1(7, 7), 0, 7);
static const UsseOpndDesc s2_7 = OD(UBC_SRC12, B1(28, 2), 48, B1(0, 7), 0, 7);
static const UsseOpndDesc tp_dst =
    OD(UBC_TEMP_PA, B1(39, 1), -1, B1(21, 7), 0, 7);
/* float TEST operands: 7-bit numbers in 64-bit units (Vita3K) */
static const UsseOpndDesc ft_dst = OD(UBC_DEST, B1(32, 2), 51, B1(21, 7), 1, 8);
static const UsseOpndDesc ft_src1 =
    OD(UBC_SRC12, B1(30, 2), 49, B1(7, 7), 1, 8);
static const UsseOpndDesc ft_src2 =
    OD(UBC_SRC12, B1(28, 2), 48, B1(0, 7), 1, 8);

/* ---- shared item runs ---- */
#define COMMON3 /* dest, src1, src2 in the 7-bit layout */ \
    OPND(USSE_DST, d7), OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7)
#define COMMON4 \
    OPND(USSE_DST, d7), OPND(USSE_SRC0, s0_7), OPND(USSE_SRC1, s1_7), \
    OPND(USSE_SRC2, s2_7)

/* ---- VECMAD (op1 0) ---- */
#define VMAD2_ITEMS \
    PRED(56, 2, psvec), FMTE(f3216, B1(58, 1), UF_FMT), \
    FLAG("skipinv", 55, UF_SKIPINV), FLAG("syncs", 52, UF_SYNCSTART), \
    FLAG("nosched", 43, UF_NOSCHED), \
    OPND(USSE_DST, vd_dst_nx), MASK(39, 4), \
    OPND(USSE_SRC0, vd_src0), SWZ(swz_m2s0, B2(18, 2, 53, 1)), \
    OFLAG("abs", 50, 0, USSE_MOD_ABS), \
    OPND(USSE_SRC1, vd_src1), SWZ(swz_m2s1, B2(20, 2, 44, 1)), \
    OMOD(37, 2, UF_SRC1_MOD), \
    OPND(USSE_SRC2, vd_src2), SWZ(swz_m2s2, B1(45, 3)), OMOD(35, 2, 0)

/* ---- VECNONMAD (op1 1 F32, 2 F16): op2 at 14:12 ---- */
#define VNMAD_ITEMS(fmtname, fmt) \
    PRED(56, 3, pvec), LITF(fmtname, fmt), \
    FLAG("skipinv", 55, UF_SKIPINV), FLAG("syncs", 52, UF_SYNCSTART), \
    FLAG("nosched", 43, UF_NOSCHED), \
    OPND(USSE_DST, vd_dst), MASK(39, 4), \
    OPND(USSE_SRC1, vd_src1), \
    SWZ3(B4(15, 7, 34, 2, 50, 1, 53, 2)), \
    OMOD(37, 2, UF_SRC1_MOD), \
    OPND(USSE_SRC2, vd_src2), SWZ(swz_v4std, B1(44, 4)), \
    OFLAG("abs", 36, 0, USSE_MOD_ABS)

#define VNMAD(grp, code, name, o, fmtname, fmt) \
    { name, o, OP1(grp) | FLD(code, 12, 3), M_OP1 | MSK(12, 3), \
      { VNMAD_ITEMS(fmtname, fmt) } }

/* ---- SVEC (op1 3) ---- */
#define SVMAD_ITEMS(tab) \
    PRED(56, 3, pvec), FLAG("skipinv", 55, UF_SKIPINV), \
    FLAG("end", 50, UF_END), ENUM(rmode_names, B1(47, 2), UF_REPEAT_MODE), \
    RPT(44, 2), FLAG("nosched", 43, UF_NOSCHED), \
    OPND(USSE_DST, vd_dst), MASK(39, 4), \
    OPND(USSE_SRC0, sv_gpi0), SWZ(tab, B2(18, 4, 34, 1)), \
    OFLAG("neg", 11, 0, USSE_MOD_NEG), OFLAG("abs", 46, 0, USSE_MOD_ABS), \
    OPND(USSE_SRC1, sv_src1), SWZ(tab, B2(6, 4, 10, 1)), \
    OFLAG("neg", 38, 0, USSE_MOD_NEG), OFLAG("abs", 37, 0, USSE_MOD_ABS), \
    OPND(USSE_SRC2, sv_gpi1), SWZ(tab, B2(14, 4, 54, 1)), \
    OFLAG("neg", 36, 0, USSE_MOD_NEG), OFLAG("abs", 35, 0, USSE_MOD_ABS)

#define SVDP_ITEMS(tab) \
    PRED(56, 3, pvec), FLAG("skipinv", 55, UF_SKIPINV), \
    FLAG("clip", 54, UF_CLIP), \
    FLAG("end", 50, UF_END), ENUM(rmode_names, B1(47, 2), UF_REPEAT_MODE), \
    RPT(44, 2), FLAG("nosched", 43, UF_NOSCHED), \
    OPND(USSE_DST, vd_dst), MASK(39, 4), \
    OPND(USSE_SRC1, sv_src1), SWZ3(B1(6, 12)), \
    OFLAG("neg", 38, 0, USSE_MOD_NEG), OFLAG("abs", 37, 0, USSE_MOD_ABS), \
    OPND(USSE_SRC2, sv_gpi0), SWZ(tab, B1(18, 4)), \
    OFLAG("abs", 46, 0, USSE_MOD_ABS), \
    KEY("plane", B1(34, 3), UF_CLIP_N)

/* ---- VDUAL (op1 4/5): tables used by dual.c ---- */
static const char *const dvec_names[2] = { "vec3", "vec4" };
static const char *const dcfg_names[4] = { "", "c1", "c2", "c3" };

const UsseDualEnc usse_dual_enc = {
    .vec4 = B1(59, 1), .f16 = B1(53, 1), .b54 = B1(54, 1),
    .op1 = B1(44, 3), .op2 = B1(18, 3), .op2ext = B1(43, 1),
    .prim = B1(42, 1), .cfg = B1(16, 2),
    .dgpi = B1(28, 2), .wmask = B1(7, 3), .b15 = B1(15, 1), .b14 = B1(14, 1),
    .usswz = B1(48, 4), .usneg = B1(47, 1),
    .g0num = B1(10, 2), .g0swz = B1(38, 4),
    .g1num = B1(12, 2), .g1swz = B1(34, 4), .g1swzext = B1(52, 1),
    .g1neg = B1(58, 1),
};

const UsseDualOpInfo usse_dual_ops[UDV_NUM] = {
    [UDV_VMAD] = { "vmad", 3, 1, 1 },
    [UDV_VDP] = { "vdp", 2, 1, 0 },
    [UDV_VSSQ] = { "vssq", 1, 1, 0 },
    [UDV_VMUL] = { "vmul", 2, 1, 1 },
    [UDV_VADD] = { "vadd", 2, 1, 1 },
    [UDV_VMOV] = { "vmov", 1, 1, 1 },
    [UDV_FRSQ] = { "frsq", 1, 0, 0 },
    [UDV_FRCP] = { "frcp", 1, 0, 0 },
    [UDV_FMAD] = { "fmad", 3, 0, 0 },
    [UDV_FADD] = { "fadd", 2, 0, 0 },
    [UDV_FMUL] = { "fmul", 2, 0, 0 },
    [UDV_FSUBFLR] = { "fsubflr", 2, 0, 0 },
    [UDV_FEXP] = { "fexp", 1, 0, 0 },
    [UDV_FLOG] = { "flog", 1, 0, 0 },
};

/* op1 = (vec3 ? bit 54 : 0) << 3 | bits 46:44; op2 = bit 43 << 3 |
   bits 20:18 (op2 0 is not an operation); -1 = invalid */
const int8_t usse_dual_op1_code[16] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -1, -1 };
const int8_t usse_dual_op2_code[16] = {
    -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -1, -1 };

#define US  UDS_US
#define I0  UDS_I0
#define I1  UDS_I1
#define I2  UDS_I2
/* the first operation's sources by its source count and src_config */
const uint8_t usse_dual_layout1[4][4][3] = {
    [1] = { { US }, { I0 }, { I1 }, { I2 } },
    [2] = { { US, I1 }, { I0, US }, { I0, I1 }, { 0 } },
    [3] = { { US, I1, I2 }, { I0, US, I2 }, { I0, I1, US }, { I0, I1, I2 } },
};
/* the second's, by both source counts and src_config; the missing
   combinations need more than the four source slots (the wiki saw them
   as invalid instructions) */
const uint8_t usse_dual_layout2[4][4][4][3] = {
    [1] = {
        [1] = { { I0 }, { US }, { US }, { US } },
        [2] = { { I0, I1 }, { US, I1 }, { I0, US }, { I1, US } },
        [3] = { { I0, I1, I2 }, { US, I1, I2 }, { I0, US, I2 },
                { I0, US, I1 } },
    },
    [2] = {
        [1] = { { I0 }, { I1 }, { US }, { 0 } },
        [2] = { { I0, I2 }, { I1, I2 }, { I2, US }, { 0 } },
    },
    [3] = {
        [1] = { { I0 }, { I1 }, { I2 }, { US } },
    },
};
#undef US
#undef I0
#undef I1
#undef I2

/* VDUAL swizzles: 16 standard then 16 extended entries */
const char *const usse_dual_swz4[32] = {
    "xxxx", "yyyy", "zzzz", "wwww", "xyzw", "yzww", "xyzz", "xxyz",
    "xyxy", "xywz", "zxyw", "zwzw", "0000", "hhhh", "1111", "2222",
    "yzxw", "zwxy", "xzwy", "yyww", "wyzw", "wzwz", "xyzx", "zzww",
    "xwzx", "yyyx", "yyyz", "zwzw", "yzxz", "xxyy", "xzww", "xyz1",
};
const char *const usse_dual_swz3[32] = {
    "xxx", "yyy", "zzz", "www", "xyz", "yzw", "xxy", "xyx",
    "yyx", "yyz", "zxy", "xzy", "000", "hhh", "111", "222",
    "xyy", "yxy", "xxz", "yxx", "xy0", "x10", "xzy", "yzx",
    "zyx", "zzy", "xy1", NULL, NULL, NULL, NULL, NULL,
};

/* unified-store destination and source: 7-bit numbers, in 64-bit units
   for vector operations */
const UsseOpndDesc usse_dual_dst[2] = {
    OD(UBC_DEST, B1(32, 2), -1, B1(21, 7), 0, 7),
    OD(UBC_DEST, B1(32, 2), -1, B1(21, 7), 1, 8),
};
const UsseOpndDesc usse_dual_us[2] = {
    OD(UBC_SRC12, B1(30, 2), -1, B1(0, 7), 0, 7),
    OD(UBC_SRC12, B1(30, 2), -1, B1(0, 7), 1, 8),
};

/* ---- VECCOMPLEX (op1 6): op2 at 42:41 ---- */
#define VCOMP(code, name, o) \
    { name, o, OP1(6) | FLD(code, 41, 2), M_OP1 | MSK(41, 2), { \
      PRED(56, 3, pext), FMTE(fcomp, B1(53, 2), UF_FMT), \
      FMTE(fcomp, B1(39, 2), UF_SFMT), \
      FLAG("skipinv", 55, UF_SKIPINV), FLAG("syncs", 52, UF_SYNCSTART), \
      FLAG("end", 50, UF_END), RPT(44, 4), FLAG("nosched", 43, UF_NOSCHED), \
      OPND(USSE_DST, vc_dst), MASK(0, 4), \
      OPND(USSE_SRC1, vc_src1), OENUM(comp_names, B1(35, 2), 0, 1), \
      OMOD(37, 2, UF_SRC1_MOD) } }

/* ---- VECMOV (op1 7): move_type at 47:46 ---- */
#define VMOV_HEAD(testnames) \
    PRED(56, 3, pext), FMTE(fmov, B1(40, 3), UF_FMT), \
    ENUM(testnames, B2(39, 1, 54, 1), UF_TEST), \
    FLAG("skipinv", 55, UF_SKIPINV), FLAG("syncs", 52, UF_SYNCSTART), \
    RPT(44, 2), FLAG("nosched", 43, UF_NOSCHED), \
    OPND(USSE_DST, mv_dst), MASK(24, 4)

/* ---- PCKUNPCK (op1 8) ---- */
/* ---- TEST / TESTMASK (op1 9, 15) ---- */
#define VTST_TAIL \
    ENUM(sign_names, B1(42, 2), UF_SIGN_TEST), \
    ENUM(zero_names, B1(40, 2), UF_ZERO_TEST), \
    FLAG("and", 39, UF_TEST_AND), FLAG("prec", 47, UF_PREC), \
    FLAG("vscomp", 46, UF_VSCOMP), FLAG("wb", 20, UF_WBEN), \
    FLAG("once", 53, UF_ONCEONLY), FLAG("skipinv", 55, UF_SKIPINV), \
    FLAG("nosched", 54, UF_NOSCHED), \
    FLAG("syncs", 52, UF_SYNCSTART), RPT(44, 2)

/* ---- bitwise (op1 10..14) ---- */
#define VBW(grp, code, cmask, name, o) \
    { name, o, OP1(grp) | FLD(code, 35, 1), M_OP1 | (cmask), { \
      PRED(56, 3, pext), FLAG("skipinv", 55, UF_SKIPINV), \
      FLAG("nosched", 54, UF_NOSCHED), FLAG("rsel", 53, UF_REPEAT_SEL), \
      FLAG("syncs", 52, UF_SYNCSTART), FLAG("end", 50, UF_END), \
      RPT(44, 4), FLAG("p16", 34, UF_PARTIAL), \
      OPND(USSE_DST, d7), OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7), \
      OFLAG("inv", 43, UF_SRC2_INV, 0), \
      KEY("sel", B1(14, 7), UF_SRC2_SEL), \
      KEY("exth", B1(36, 2), UF_SRC2_EXTH), \
      KEY("rot", B1(38, 5), UF_SRC2_ROT) } }

/* ---- IMA8 and FPMA (op1 19, 25) ---- */
#define IMA8_ITEMS \
      PRED(57, 2, pshort), FLAG("sat", 43, UF_SAT), \
      FLAG("skipinv", 55, UF_SKIPINV), FLAG("nosched", 54, UF_NOSCHED), \
      FLAG("end", 50, UF_END), RPT(44, 3), \
      OPND(USSE_DST, d7), OPND(USSE_SRC0, s0_7), \
      OFLAG("neg", 35, 0, USSE_MOD_NEG), \
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7), \
      KEY("csel0", B1(52, 2), UF_CSEL0), KEY("cmod0", B1(42, 1), UF_CMOD0), \
      KEY("csel1", B1(37, 1), UF_CSEL1), KEY("cmod1", B1(56, 1), UF_CMOD1), \
      KEY("csel2", B1(36, 1), UF_CSEL2), KEY("cmod2", B1(47, 1), UF_CMOD2), \
      KEY("asel0", B1(41, 1), UF_ASEL0), KEY("amod0", B1(38, 1), UF_AMOD0), \
      KEY("amod1", B1(39, 1), UF_AMOD1), KEY("amod2", B1(40, 1), UF_AMOD2)

/* ---- SPECIAL (op1 31) ---- */
#define SPC(op2, cat) (OP1(31) | FLD(op2, 56, 3) | FLD(cat, 52, 2))
#define M_SPC (M_OP1 | MSK(56, 3) | MSK(52, 2))
#define FLOW(code, name, o) \
    { name, o, OP1(31) | FLD(code, 38, 3), M_OP1 | MSK(52, 3) | MSK(38, 3), { \
      PRED(56, 3, pext), FLAG("syncend", 55, UF_SYNCEND), \
      FLAG("end", 50, UF_END), FLAG("nosched", 43, UF_NOSCHED) } }
/* "other" special instructions: common layout, UNVERIFIED */
#define SPC_OTHER(op2, cat, name, o) \
    { name, o, SPC(op2, cat), M_SPC, { \
      FLAG("skipinv", 55, UF_SKIPINV), FLAG("end", 50, UF_END), \
      FLAG("nosched", 43, UF_NOSCHED), KEY("t", B1(44, 4), UF_X4744), \
      COMMON4 } }
#define VISTEST(op2, name, o) \
    { name, o, SPC(op2, 3), M_SPC, { \
      PRED(41, 2, pshort), FLAG("sync", 55, UF_SYNCSTART), \
      FLAG("end", 50, UF_END), FLAG("nosched", 43, UF_NOSCHED), \
      FLAG("twosided", 37, UF_TWO_SIDED), \
      KEY("feedback", B1(35, 2), UF_FEEDBACK), \
      OPND(USSE_DST, d7_nobank), OPND(USSE_SRC0, s0_7e51), \
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7) } }

const UsseForm usse_forms[] = {
    /* 0: VECMAD */
    { "vmad", UOP_VMAD2, OP1(0), M_OP1, { VMAD2_ITEMS } },

    /* 1, 2: VECNONMAD */
    VNMAD(1, 0, "vmul", UOP_VMUL, "f32", USSE_FMT_F32),
    VNMAD(1, 1, "vadd", UOP_VADD, "f32", USSE_FMT_F32),
    VNMAD(1, 2, "vfrc", UOP_VFRC, "f32", USSE_FMT_F32),
    VNMAD(1, 3, "vdsx", UOP_VDSX, "f32", USSE_FMT_F32),
    VNMAD(1, 4, "vdsy", UOP_VDSY, "f32", USSE_FMT_F32),
    VNMAD(1, 5, "vmin", UOP_VMIN, "f32", USSE_FMT_F32),
    VNMAD(1, 6, "vmax", UOP_VMAX, "f32", USSE_FMT_F32),
    VNMAD(1, 7, "vdp", UOP_VDP, "f32", USSE_FMT_F32),
    VNMAD(2, 0, "vmul", UOP_VMUL, "f16", USSE_FMT_F16),
    VNMAD(2, 1, "vadd", UOP_VADD, "f16", USSE_FMT_F16),
    VNMAD(2, 2, "vfrc", UOP_VFRC, "f16", USSE_FMT_F16),
    VNMAD(2, 3, "vdsx", UOP_VDSX, "f16", USSE_FMT_F16),
    VNMAD(2, 4, "vdsy", UOP_VDSY, "f16", USSE_FMT_F16),
    VNMAD(2, 5, "vmin", UOP_VMIN, "f16", USSE_FMT_F16),
    VNMAD(2, 6, "vmax", UOP_VMAX, "f16", USSE_FMT_F16),
    VNMAD(2, 7, "vdp", UOP_VDP, "f16", USSE_FMT_F16),

    /* 3: SVEC; bit 53 = 1 VMAD, 0 VDP; bit 52 = 1 vec4 */
    { "vmad3", UOP_VMAD3, OP1(3) | BIT(53), M_OP1 | BIT(53) | BIT(52),
      { LITF("f32", USSE_FMT_F32), SVMAD_ITEMS(swz_v3) } },
    { "vmad4", UOP_VMAD4, OP1(3) | BIT(53) | BIT(52),
      M_OP1 | BIT(53) | BIT(52),
      { LITF("f32", USSE_FMT_F32), SVMAD_ITEMS(swz_v4) } },
    { "vdp3", UOP_VDP3, OP1(3), M_OP1 | BIT(53) | BIT(52),
      { LITF("f32", USSE_FMT_F32), SVDP_ITEMS(swz_v3std) } },
    { "vdp4", UOP_VDP4, OP1(3) | BIT(52), M_OP1 | BIT(53) | BIT(52),
      { LITF("f32", USSE_FMT_F32), SVDP_ITEMS(swz_v4std) } },

    /* 4, 5: DVEC3/DVEC4 (bit 59 = vec4): two operations */
    { "vdual", UOP_VDUAL, OP1(4), M_OP1 & ~BIT(59), {
      PRED(56, 2, psvec), ENUM(dvec_names, B1(59, 1), UF_DV_VEC4),
      FLAG("f16", 53, UF_DV_F16), FLAG("skipinv", 55, UF_SKIPINV),
      ENUM(dcfg_names, B1(16, 2), UF_DV_SRCCFG),
      { .kind = UI_DUAL, .where = UW_LIST } } },

    /* 6: VECCOMPLEX */
    VCOMP(0, "vrcp", UOP_VRCP),
    VCOMP(1, "vrsq", UOP_VRSQ),
    VCOMP(2, "vlog", UOP_VLOG),
    VCOMP(3, "vexp", UOP_VEXP),

    /* 7: VECMOV.  Plain moves copy src1; bit 50 is end. */
    { "vmov", UOP_VMOV, OP1(7), M_OP1 | MSK(46, 2), {
      VMOV_HEAD(movtest_names), FLAG("end", 50, UF_END),
      KEY("csel", B1(53, 1), UF_CSEL),
      OPND(USSE_SRC1, vd_src1), SWZ(swz_v4std, B1(35, 4)),
      KEY("s0bank", B1(34, 1), 0), KEY("s0", B1(12, 6), 0),
      KEY("s2bank", B1(28, 2), 0), KEY("s2ext", B1(48, 1), 0),
      KEY("s2", B1(0, 6), 0) } },
    { "vmovc", UOP_VMOVC, OP1(7) | FLD(1, 46, 2), M_OP1 | MSK(46, 2), {
      VMOV_HEAD(movctest_names), KEY("csel", B1(53, 1), UF_CSEL),
      OPND(USSE_SRC0, mv_src0), OPND(USSE_SRC1, vd_src1),
      SWZ(swz_v4std, B1(35, 4)), OPND(USSE_SRC2, vd_src2) } },
    { "vmovcu8", UOP_VMOVCU8, OP1(7) | FLD(2, 46, 2), M_OP1 | MSK(46, 2), {
      VMOV_HEAD(movctest_names), KEY("csel", B1(53, 1), UF_CSEL),
      OPND(USSE_SRC0, mv_src0), OPND(USSE_SRC1, vd_src1),
      SWZ(swz_v4std, B1(35, 4)), OPND(USSE_SRC2, vd_src2) } },

    /* 8: PCKUNPCK: vpck.DEST.SRC; src1:src2 is the source pair, the
       component selects (per dest channel) print on src1 */
    { "vpck", UOP_VPCK, OP1(8), M_OP1, {
      PRED(56, 3, pext), FMTE(fpck, B1(38, 3), UF_FMT),
      FMTE(fpck, B1(41, 3), UF_SFMT), FLAG("scale", 18, UF_SCALE),
      FLAG("skipinv", 55, UF_SKIPINV), FLAG("nosched", 54, UF_NOSCHED),
      FLAG("u53", 53, UF_UNK53), FLAG("syncs", 52, UF_SYNCSTART),
      FLAG("end", 50, UF_END), RPT(44, 4),
      OPND(USSE_DST, pk_dst), MASK(34, 4),
      OPND(USSE_SRC1, pk_src1),
      SWZ2(B5(0, 1, 7, 1, 16, 2, 14, 2, 19, 2)),
      OPND(USSE_SRC2, pk_src2) } },

    /* 9: TEST (predicate destination) */
    { "vtst", UOP_VTST, OP1(9), M_OP1 | MSK(18, 2), {
      PRED(56, 3, pext), ENUM(falu_names, B1(14, 4), UF_ALU),
      VTST_TAIL, ENUM(chan_names, B1(36, 3), UF_CHAN_CC),
      PREG(B1(34, 2), UF_PDST), OPND(USSE_DST, ft_dst),
      OPND(USSE_SRC1, ft_src1), OFLAG("neg", 50, 0, USSE_MOD_NEG),
      OPND(USSE_SRC2, ft_src2) } },
    { "vtst", UOP_VTST, OP1(9), M_OP1, {
      PRED(56, 3, pext), ENUM(alu_names, B2(14, 4, 18, 2), UF_ALU),
      VTST_TAIL, ENUM(chan_names, B1(36, 3), UF_CHAN_CC),
      PREG(B1(34, 2), UF_PDST), OPND(USSE_DST, d7),
      OPND(USSE_SRC1, s1_7), OFLAG("neg", 50, 0, USSE_MOD_NEG),
      OPND(USSE_SRC2, s2_7) } },

    /* 10..14: bitwise */
    VBW(10, 0, BIT(35), "and", UOP_AND),
    VBW(10, 1, BIT(35), "or", UOP_OR),
    VBW(11, 0, 0, "xor", UOP_XOR),
    VBW(12, 0, BIT(35), "shl", UOP_SHL),
    VBW(12, 1, BIT(35), "rol", UOP_ROL),
    VBW(13, 0, BIT(35), "shr", UOP_SHR),
    VBW(13, 1, BIT(35), "asr", UOP_ASR),
    VBW(14, 0, 0, "rlp", UOP_RLP),

    /* 15: TESTMASK (register destination; float: 64-bit units) */
    { "vtstmsk", UOP_VTSTMSK, OP1(15), M_OP1 | MSK(18, 2), {
      PRED(56, 3, pext), ENUM(falu_names, B1(14, 4), UF_ALU),
      VTST_TAIL, ENUM(mtype_names, B1(36, 2), UF_MASK_TYPE),
      OPND(USSE_DST, ft_dst), OPND(USSE_SRC1, ft_src1),
      OFLAG("neg", 50, UF_TEST_FLAG2, USSE_MOD_NEG),
      OPND(USSE_SRC2, ft_src2) } },
    { "vtstmsk", UOP_VTSTMSK, OP1(15), M_OP1, {
      PRED(56, 3, pext), ENUM(alu_names, B2(14, 4, 18, 2), UF_ALU),
      VTST_TAIL, ENUM(mtype_names, B1(36, 2), UF_MASK_TYPE),
      OPND(USSE_DST, d7), OPND(USSE_SRC1, s1_7),
      OFLAG("neg", 50, UF_TEST_FLAG2, USSE_MOD_NEG),
      OPND(USSE_SRC2, s2_7) } },

    /* 16: SOP2 */
    { "sop2", UOP_SOP2, OP1(16), M_OP1, {
      PRED(57, 2, pshort), ENUM(bop_names, B1(18, 2), UF_COP),
      ENUM(bop_names, B1(16, 2), UF_AOP), FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END),
      RPT(44, 3), FLAG("dmod", 14, UF_DEST_MOD),
      COMMON3,
      KEY("csel1", B1(38, 3), UF_CSEL1), KEY("cmod1", B1(56, 1), UF_CMOD1),
      KEY("csel2", B1(35, 3), UF_CSEL2), KEY("cmod2", B1(47, 1), UF_CMOD2),
      KEY("asel1", B1(52, 2), UF_ASEL1), KEY("amod1", B1(43, 1), UF_AMOD1),
      KEY("asel2", B1(41, 2), UF_ASEL2), KEY("amod2", B1(34, 1), UF_AMOD2),
      KEY("s1mod", B1(20, 1), UF_SRC1_MOD),
      KEY("as1mod", B1(15, 1), UF_ASRC1_MOD) } },

    /* 17: SOP3 */
    { "sop3", UOP_SOP3, OP1(17), M_OP1, {
      PRED(57, 2, pshort), ENUM(sop3_names, B1(52, 2), UF_COP),
      ENUM(sop3_names, B1(41, 2), UF_AOP), FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END),
      COMMON4,
      KEY("csel1", B1(38, 3), UF_CSEL1), KEY("cmod1", B1(56, 1), UF_CMOD1),
      KEY("csel2", B1(35, 3), UF_CSEL2), KEY("cmod2", B1(47, 1), UF_CMOD2),
      KEY("asel1", B1(44, 2), UF_ASEL1), KEY("amod1", B1(46, 1), UF_AMOD1),
      KEY("dmod", B1(43, 1), UF_DMOD) } },

    /* 18: SOPWM */
    { "sopwm", UOP_SOPWM, OP1(18), M_OP1, {
      PRED(57, 2, pshort), ENUM(bop_names, B1(52, 2), UF_COP),
      ENUM(bop_names, B1(41, 2), UF_AOP), FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END),
      OPND(USSE_DST, d7), MASK(43, 4),
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7),
      KEY("sel1", B1(38, 3), UF_CSEL1), KEY("mod1", B1(56, 1), UF_CMOD1),
      KEY("sel2", B1(35, 3), UF_CSEL2), KEY("mod2", B1(47, 1), UF_CMOD2) } },

    /* 19: IMA8 */
    { "ima8", UOP_IMA8, OP1(19), M_OP1, { IMA8_ITEMS } },

    /* 20: IMA16 */
    { "ima16", UOP_IMA16, OP1(20), M_OP1, {
      PRED(57, 2, pshort), FLAG("abs", 56, UF_ABS),
      FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END), RPT(44, 3),
      OPND(USSE_DST, d7), OPND(USSE_SRC0, s0_7),
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7),
      OFLAG("neg", 53, 0, USSE_MOD_NEG),
      KEY("mode", B1(42, 2), UF_MODE), KEY("f1", B1(38, 2), UF_SFMT),
      KEY("f2", B1(40, 2), UF_FMT), KEY("sel1h", B1(52, 1), UF_SEL1H),
      KEY("sel2h", B1(37, 1), UF_SEL2H),
      KEY("orshift", B1(35, 2), UF_OR_SHIFT) } },

    /* 21: IMAE (fixed zero bits 47, 41:40, 37:35) */
    { "imae", UOP_IMAE, OP1(21),
      M_OP1 | BIT(47) | MSK(40, 2) | MSK(35, 3), {
      PRED(57, 2, pshort), FLAG("signed", 43, UF_SIGNED),
      FLAG("sat", 42, UF_SAT), FLAG("nosched", 54, UF_NOSCHED),
      FLAG("end", 50, UF_END), RPT(44, 3),
      OPND(USSE_DST, d7), OPND(USSE_SRC0, s0_7),
      OFLAG("hi", 56, 0, USSE_MOD_HIGH),
      OPND(USSE_SRC1, s1_7), OFLAG("hi", 53, 0, USSE_MOD_HIGH),
      OPND(USSE_SRC2, s2_7), OFLAG("hi", 52, 0, USSE_MOD_HIGH),
      KEY("s2type", B1(38, 2), UF_SFMT) } },

    /* 22..24: illegal on SGX543 (no form); 25: FPMA, IMA8's layout */
    { "fpma", UOP_FPMA, OP1(25), M_OP1, { IMA8_ITEMS } },

    /* 26: IMA32 (fixed zero bits 43:42, 38:35) */
    { "ima32", UOP_IMA32, OP1(26), M_OP1 | MSK(42, 2) | MSK(35, 4), {
      PRED(56, 3, pext), FLAG("signed", 41, UF_SIGNED),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END), RPT(44, 3),
      OPND(USSE_DST, d7), OPND(USSE_SRC0, s0_7e47),
      OPND(USSE_SRC1, s1_7), OFLAG("neg", 40, 0, USSE_MOD_NEG),
      OPND(USSE_SRC2, s2_7), OFLAG("neg", 39, 0, USSE_MOD_NEG),
      KEY("sn", B1(52, 2), UF_SN) } },

    /* 28: SMP */
    { "smp", UOP_SMP, OP1(28), M_OP1, {
      PRED(56, 3, pext), ENUM(dim_names, B1(42, 2), UF_DIM),
      ENUM(lod_names, B1(40, 2), UF_LOD_MODE),
      ENUM(sb_names, B1(37, 2), UF_SB_MODE),
      ENUM(fconv_names, B1(46, 2), UF_FCONV),
      FLAG("minpack", 51, UF_MINPACK), FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("syncs", 52, UF_SYNCSTART),
      OPND(USSE_DST, tp_dst), OPND(USSE_SRC0, s0_7e50),
      OENUM(fcomp_names, B1(35, 2), UF_SFMT, 0),
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7),
      KEY("count", B1(44, 2), UF_COUNT), KEY("drc", B1(32, 2), UF_DRC) } },

    /* 29, 30: LD / ST */
#define LDST(grp, name, o) \
    { name, o, OP1(grp), M_OP1, { \
      PRED(56, 3, pext), ENUM(ldt_names, B1(36, 2), UF_FMT), \
      FLAG("skipinv", 55, UF_SKIPINV), FLAG("nosched", 54, UF_NOSCHED), \
      FLAG("moe", 53, UF_MOE_EXPAND), FLAG("syncs", 52, UF_SYNCSTART), \
      FLAG("range", 38, UF_RANGE), FLAG("dec", 35, UF_INCDEC), \
      FLAG("bypass", 33, UF_BYPASS), \
      OPND(USSE_DST, tp_dst), OPND(USSE_SRC0, s0_7e50), \
      OPND(USSE_SRC1, s1_7), OPND(USSE_SRC2, s2_7), \
      KEY("count", B1(44, 4), UF_COUNT), \
      KEY("amode", B1(42, 2), UF_ADDR_MODE), \
      KEY("mode", B1(40, 2), UF_MODE), KEY("cext", B1(51, 1), UF_CACHE_EXT), \
      KEY("drc", B1(32, 1), UF_DRC) } }
    LDST(29, "ld", UOP_LD),
    LDST(30, "st", UOP_ST),

    /* 31: SPECIAL.  opcat 0 (bits 54:52 = 000): flow control, op2 40:38 */
    { "ba", UOP_BA, OP1(31), M_OP1 | MSK(52, 3) | MSK(38, 3), {
      PRED(56, 3, pext), FLAG("link", 41, UF_LINK),
      FLAG("syncend", 55, UF_SYNCEND), FLAG("exception", 51, UF_EXCEPTION),
      FLAG("pwait", 45, UF_PWAIT), FLAG("syncext", 44, UF_SYNC_EXT),
      FLAG("nosched", 43, UF_NOSCHED), FLAG("monitor", 42, UF_MONITOR),
      FLAG("anyinst", 21, UF_ANY_INST), FLAG("allinst", 20, UF_ALL_INST),
      NUM(B1(0, 20), UF_OFFSET, 0) } },
    { "br", UOP_BR, OP1(31) | BIT(38), M_OP1 | MSK(52, 3) | MSK(38, 3), {
      PRED(56, 3, pext), FLAG("link", 41, UF_LINK),
      FLAG("syncend", 55, UF_SYNCEND), FLAG("exception", 51, UF_EXCEPTION),
      FLAG("pwait", 45, UF_PWAIT), FLAG("syncext", 44, UF_SYNC_EXT),
      FLAG("nosched", 43, UF_NOSCHED), FLAG("monitor", 42, UF_MONITOR),
      FLAG("anyinst", 21, UF_ANY_INST), FLAG("allinst", 20, UF_ALL_INST),
      NUM(B1(0, 20), UF_OFFSET, 1) } },
    FLOW(2, "lapc", UOP_LAPC),
    /* set / save the link register (operand layout UNVERIFIED: the
       common layout's src1 / dest) */
    { "setl", UOP_SETL, OP1(31) | FLD(3, 38, 3),
      M_OP1 | MSK(52, 3) | MSK(38, 3), {
      PRED(56, 3, pext), FLAG("syncend", 55, UF_SYNCEND),
      FLAG("end", 50, UF_END), FLAG("nosched", 43, UF_NOSCHED),
      OPND(USSE_SRC1, s1_7) } },
    { "savl", UOP_SAVL, OP1(31) | FLD(4, 38, 3),
      M_OP1 | MSK(52, 3) | MSK(38, 3), {
      PRED(56, 3, pext), FLAG("syncend", 55, UF_SYNCEND),
      FLAG("end", 50, UF_END), FLAG("nosched", 43, UF_NOSCHED),
      OPND(USSE_DST, d7) } },
    FLOW(5, "nop", UOP_NOP),

    /* opcat 0 with bit 54 set: CFI (op2 0), PHAS (op2 2) */
    { "cfi", UOP_CFI, SPC(0, 0) | BIT(54), M_SPC | BIT(54), {
      FLAG("nosched", 43, UF_NOSCHED), COMMON4 } },
    { "phas", UOP_PHAS, SPC(2, 0) | BIT(54), M_SPC | BIT(54), {
      FLAG("imm", 50, UF_IMM), FLAG("end", 51, UF_END),
      FLAG("sprvv", 55, UF_SPRVV), FLAG("mode", 45, UF_MODE),
      KEY("addr", B3(0, 7, 7, 7, 14, 6), UF_ADDR),
      KEY("temps", B1(32, 8), UF_TEMPS), KEY("rate", B1(43, 2), UF_RATE),
      KEY("wait", B1(40, 3), UF_WAIT),
      KEY("s1bank", B1(30, 2), UF_S1BANK), KEY("s1ext", B1(49, 1), UF_S1EXT),
      KEY("s2bank", B1(28, 2), UF_S2BANK),
      KEY("s2ext", B1(48, 1), UF_S2EXT) } },

    /* opcat 1: MOE control */
    { "smoa", UOP_SMOA, SPC(0, 1), M_SPC, { FLAG("nosched", 50, UF_NOSCHED) } },
    { "smr", UOP_SMR, SPC(1, 1), M_SPC, { FLAG("nosched", 50, UF_NOSCHED) } },
    { "smlsi", UOP_SMLSI, SPC(2, 1), M_SPC, {
      FLAG("nosched", 50, UF_NOSCHED),
      KEY("dinc", B1(24, 8), UF_INC_D), KEY("s0inc", B1(16, 8), UF_INC_0),
      KEY("s1inc", B1(8, 8), UF_INC_1), KEY("s2inc", B1(0, 8), UF_INC_2),
      KEY("dswz", B1(35, 1), UF_INC_MODE_D),
      KEY("s0swz", B1(34, 1), UF_INC_MODE_0),
      KEY("s1swz", B1(33, 1), UF_INC_MODE_1),
      KEY("s2swz", B1(32, 1), UF_INC_MODE_2),
      KEY("tlimit", B1(44, 4), UF_LIMIT_TEMP),
      KEY("palimit", B1(40, 4), UF_LIMIT_PA),
      KEY("salimit", B1(36, 4), UF_LIMIT_SA) } },
    { "smbo", UOP_SMBO, SPC(3, 1), M_SPC, {
      FLAG("nosched", 50, UF_NOSCHED),
      KEY("doff", B1(36, 12), UF_OFF_D), KEY("s0off", B1(24, 12), UF_OFF_0),
      KEY("s1off", B1(12, 12), UF_OFF_1), KEY("s2off", B1(0, 12), UF_OFF_2) } },
    { "imo", UOP_IMO, SPC(4, 1), M_SPC, { FLAG("nosched", 50, UF_NOSCHED) } },
    { "setfc", UOP_SETFC, SPC(5, 1), M_SPC,
      { FLAG("nosched", 50, UF_NOSCHED) } },

    /* opcat 2: other */
    SPC_OTHER(0, 2, "idf", UOP_IDF),
    SPC_OTHER(1, 2, "wdf", UOP_WDF),
    SPC_OTHER(3, 2, "emit", UOP_EMIT),
    { "limm", UOP_LIMM, SPC(4, 2), M_SPC, {
      PRED(41, 3, pext), FLAG("skipinv", 55, UF_SKIPINV),
      FLAG("nosched", 54, UF_NOSCHED), FLAG("end", 50, UF_END),
      OPND(USSE_DST, d7),
      HEX(B3(0, 21, 36, 5, 44, 6), UF_VALUE) } },
    SPC_OTHER(5, 2, "lock", UOP_LOCK),
    SPC_OTHER(6, 2, "ldr", UOP_LDR),
    SPC_OTHER(7, 2, "wop", UOP_WOP),

    /* opcat 3: visibility test */
    VISTEST(0, "ptctrl", UOP_PTCTRL),
    VISTEST(1, "atst8", UOP_ATST8),
    VISTEST(3, "depthf", UOP_DEPTHF),
};

const unsigned usse_nforms = ARRAY_SIZE(usse_forms);
