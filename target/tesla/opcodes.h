/*
 * Tesla opcode tables: the format shared by decoder, disassembler and
 * assembler (internal to target/tesla/).
 *
 * An instruction is matched against a tree of tables.  A table is a list
 * of entries; the first entry whose bits match ((insn & mask) == val) and
 * whose variant features and program types allow it is taken, its mask
 * bits count as "explained", and its atoms run in order.  An atom prints
 * a word or an operand (and says which TeslaInsn field it fills), or
 * descends into a sub-table.  Bits no atom or entry explains are shown
 * as "[unknown: ...]", an unknown encoding as "???" (UNK atom), the way
 * envydis does.  The instruction is w0 | (uint64_t)w1 << 32; bit numbers
 * below are in that 64-bit word (word 1 bit 0 is bit 32).
 *
 * The root splits by class (short normal, short control, long immediate,
 * long normal, long control) and primary opcode (w0 bits 28-31); each
 * instruction group (tab-*.c) contributes one table per class and opcode
 * through its TeslaGroup.  See docs/devel/tesla-isa.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_OPCODES_H
#define TARGET_TESLA_OPCODES_H

#include "target/tesla/insn.h"

/* A bit field: low piece at pos/len, optional high piece at pos2/len2,
   value scaled by << shl, sign-extended if sign, plus addend. */
typedef struct TeslaBits {
    uint8_t pos, len;
    uint8_t pos2, len2;
    uint8_t shl;
    uint8_t sign;
    uint8_t addend;
} TeslaBits;

/* Register kinds (how a field is printed and parsed). */
typedef enum TeslaRegKind {
    TRK_R,      /* $rN */
    TRK_H,      /* $rNl / $rNh: field is N * 2 + high */
    TRK_D,      /* $rNd */
    TRK_Q,      /* $rNq */
    TRK_A,      /* $aN; $a0 prints as 0x0 (as a memory base: nothing) */
    TRK_C,      /* $cN */
    TRK_T,      /* $tN (texture) */
    TRK_S,      /* $sN (sampler) */
    TRK_SR,     /* $physid, $clock, ... or $srN */
} TeslaRegKind;

typedef struct TeslaRegDesc {
    TeslaBits f;
    uint8_t kind;       /* TeslaRegKind */
} TeslaRegDesc;

#define TMEM_POSTINC 1

typedef struct TeslaMemDesc {
    uint8_t space;              /* TeslaSpace */
    uint8_t flags;              /* TMEM_* */
    TeslaBits idx;              /* c0..c15 / g0..g15 index; len 0: none */
    const TeslaRegDesc *reg;    /* $a base (or $r for g[]); NULL: none */
    TeslaBits off;              /* byte offset; len 0: none */
} TeslaMemDesc;

/* Texture register vector: base register, count, optional mask. */
typedef struct TeslaVecDesc {
    TeslaBits base;
    TeslaBits cnt;
    TeslaBits mask;     /* len 0: all present */
} TeslaVecDesc;

typedef struct TeslaDecodeCtx TeslaDecodeCtx;
typedef struct TeslaAtom TeslaAtom;

/* Escape hatch: a semantic-only atom run by the decoder (prints nothing,
   matches no text).  Read bits with tesla_dc_bits(). */
typedef struct TeslaHook {
    void (*decode)(TeslaDecodeCtx *dc, const TeslaAtom *at);
} TeslaHook;

typedef enum TeslaAtomKind {
    TA_END = 0,
    TA_NAME,        /* p: literal word; role/arg: action */
    TA_SET,         /* role/arg: action only, prints nothing */
    TA_TAB,         /* p: sub-table; role: operand role override;
                       arg: memory class (TESLA_MC_*) for s[] checks */
    TA_OPEN,        /* "(" */
    TA_CLOSE,       /* ")" */
    TA_UNK,         /* "???" */
    TA_REG,         /* p: TeslaRegDesc; role: where it goes */
    TA_MEM,         /* p: TeslaMemDesc */
    TA_IMM,         /* p: TeslaBits */
    TA_TARGET,      /* p: TeslaBits: code address */
    TA_IGN,         /* p: TeslaBits: explained but ignored field */
    TA_DISCARD,     /* "#": result dropped */
    TA_VEC,         /* p: TeslaVecDesc */
    TA_HOOK,        /* p: TeslaHook */
    TA_GROUPS,      /* root only: the groups' tables for the class and
                       primary opcode, else the class fallback */
} TeslaAtomKind;

/*
 * Roles: what an atom fills in TeslaInsn.  Operand atoms (REG, MEM, IMM,
 * TARGET, DISCARD, VEC) take an operand role; NAME/SET atoms take an
 * action role with arg as the value.
 */
typedef enum TeslaRole {
    RO_NONE = 0,
    /* operands */
    RO_DST,         /* insn->dst */
    RO_SRC,         /* next free src[] (print order) */
    RO_S0, RO_S1, RO_S2, RO_S3,     /* a fixed src[] */
    RO_CDST,        /* $c written: insn->cdst */
    RO_CSRC,        /* $c read: insn->csrc */
    RO_PREDC,       /* $c of the predicate: insn->pred_c */
    RO_TEX,         /* $t: insn->tex.tex */
    RO_SAMP,        /* $s: insn->tex.samp */
    RO_BAR,         /* IMM: insn->bar */
    RO_TEXOFF0, RO_TEXOFF1, RO_TEXOFF2,     /* IMM: insn->tex.offs[] */
    /* actions (value = arg) */
    RO_OP,          /* insn->op */
    RO_MOD,         /* insn->mods |= arg */
    RO_DTYPE, RO_STYPE,
    RO_TYPE,        /* dtype and stype */
    RO_MTYPE,       /* type of the next memory operand */
    RO_RND, RO_ADDOP, RO_LOGOP, RO_CMP, RO_ATOMOP, RO_LANEMASK,
    RO_QOP0, RO_QOP1, RO_QOP2, RO_QOP3, RO_QSRC,
    RO_POST,        /* TPOST_* */
    RO_PRED,        /* predicate function */
    RO_NEG_NEXT, RO_ABS_NEXT, RO_NOT_NEXT,  /* modifier of the next src */
    RO_SRCTYPE_NEXT,/* src[next].mtype = arg (16-bit mul signedness) */
    RO_TEXKIND, RO_TEXDIMS, RO_TEXFLAGS,
    RO_NUM
} TeslaRole;

/* Memory classes of an s[] first source (isa.rst "Shared memory access"),
   passed as the arg of the TA_TAB atom that leads to it. */
enum {
    TESLA_MC_NONE = 0,
    TESLA_MC_WORD,      /* all modes valid */
    TESLA_MC_HALF,      /* u8 u16 s16 */
    TESLA_MC_UHALF,     /* u8 u16 */
    TESLA_MC_SHALF,     /* u8 s16 */
    TESLA_MC_BYTE,      /* u8 only (cvt from u8) */
    TESLA_MC_HALFSB,    /* u8 + u16 or s16 as selected by bit (arg >> 8) */
};
#define TESLA_MC_HALF_SIGNBIT(bit) (TESLA_MC_HALFSB | ((bit) << 8))

struct TeslaAtom {
    uint8_t kind;       /* TeslaAtomKind */
    uint8_t role;       /* TeslaRole */
    uint32_t arg;
    const void *p;
};

#define TESLA_MAX_ATOMS 16

/* Program type mask bits of TeslaEntry.progs */
#define TP_VP (1u << TESLA_PROG_VP)
#define TP_GP (1u << TESLA_PROG_GP)
#define TP_FP (1u << TESLA_PROG_FP)
#define TP_CP (1u << TESLA_PROG_CP)

typedef struct TeslaEntry {
    uint64_t val, mask;
    uint8_t feat;       /* TESLA_F_* all required; 0: any variant */
    uint8_t progs;      /* TP_* allowed; 0: any program type */
    uint8_t op;         /* TeslaOp set when taken; 0: unchanged */
    TeslaAtom a[TESLA_MAX_ATOMS];
} TeslaEntry;

typedef struct TeslaTable {
    const char *name;
    unsigned n;
    const TeslaEntry *e;
} TeslaTable;

/* Instruction classes of the root dispatch. */
typedef enum TeslaClass {
    TCLS_SHORT,         /* w0 bits 0-1 = 0 */
    TCLS_SHORT_CTL,     /* w0 bits 0-1 = 2 */
    TCLS_IMM,           /* w0 bits 0-1 = 1, w1 bits 0-1 = 3 */
    TCLS_LONG,          /* w0 bits 0-1 = 1, w1 bits 0-1 = 0-2 (exit/join) */
    TCLS_LONG_CTL,      /* w0 bits 0-1 = 3 */
    TCLS_NUM
} TeslaClass;

/* One instruction group: its table for each class and primary opcode. */
typedef struct TeslaGroup {
    const char *name;
    const TeslaTable *ops[TCLS_NUM][16];
} TeslaGroup;

/* The groups, tried in this order for each class and opcode. */
extern const TeslaGroup tesla_group_data;       /* tab-data.c */
extern const TeslaGroup tesla_group_control;    /* tab-control.c */
extern const TeslaGroup tesla_group_int;        /* tab-int.c */
extern const TeslaGroup tesla_group_float;      /* tab-float.c */
extern const TeslaGroup tesla_group_sfu;        /* tab-sfu.c */
extern const TeslaGroup tesla_group_double;     /* tab-double.c */
extern const TeslaGroup tesla_group_tex;        /* tab-tex.c */

/* ---- writing tables ---- */

#define TESLA_TABLE(name, ...) \
    static const TeslaEntry name##_e[] = { __VA_ARGS__ }; \
    static const TeslaTable name = { #name, ARRAY_SIZE(name##_e), name##_e }
/* a table other files use (declare it with extern in opcodes.h) */
#define TESLA_TABLE_GLOBAL(name, ...) \
    static const TeslaEntry name##_e[] = { __VA_ARGS__ }; \
    const TeslaTable name = { #name, ARRAY_SIZE(name##_e), name##_e }

/* entry: TE(val, mask, [.op = ..,] [.feat = ..,] [.progs = ..,] AT(atoms)) */
#define TE(v, m, ...) { .val = (v), .mask = (m), __VA_ARGS__ }
#define AT(...) .a = { __VA_ARGS__ }

/* atoms */
#define N(s)            { TA_NAME, RO_NONE, 0, (s) }
#define NA(s, r, v)     { TA_NAME, (r), (v), (s) }
#define SET(r, v)       { TA_SET, (r), (v), NULL }
#define T(t)            { TA_TAB, RO_NONE, 0, &(t) }
#define TR(t, r)        { TA_TAB, (r), 0, &(t) }
#define TM(t, mc)       { TA_TAB, RO_NONE, (mc), &(t) }
#define OPEN            { TA_OPEN, RO_NONE, 0, NULL }
#define CLOSE           { TA_CLOSE, RO_NONE, 0, NULL }
#define UNK             { TA_UNK, RO_NONE, 0, NULL }
#define REG(d, r)       { TA_REG, (r), 0, &(d) }
#define MEM(d, r)       { TA_MEM, (r), 0, &(d) }
#define IMM(b, r)       { TA_IMM, (r), 0, &(b) }
#define TARGET(b)       { TA_TARGET, RO_S0, TESLA_MARK_B, &(b) }
#define CTARGET(b)      { TA_TARGET, RO_S0, TESLA_MARK_C, &(b) }
#define IGN(b)          { TA_IGN, RO_NONE, 0, &(b) }
#define DISCARDOP(r)    { TA_DISCARD, (r), 0, NULL }
#define VEC(d, r)       { TA_VEC, (r), 0, &(d) }
#define HOOK(h, v)      { TA_HOOK, RO_NONE, (v), &(h) }
#define MOD(s, flag)    NA(s, RO_MOD, flag)
#define GROUPS          { TA_GROUPS, RO_NONE, 0, NULL }

/* single-bit flag tables (envydis F1/F/F1V shapes) */
#define TESLA_FLAG1(name, bit, ...) \
    TESLA_TABLE(name, \
        TE(0, 1ull << (bit)), \
        TE(1ull << (bit), 1ull << (bit), AT(__VA_ARGS__)), \
        TE(0, 0, AT(UNK)))
/* a0, a1: AT(...) lists for the bit clear / set */
#define TESLA_FLAG2(name, bit, a0, a1) \
    TESLA_TABLE(name, \
        TE(0, 1ull << (bit), a0), \
        TE(1ull << (bit), 1ull << (bit), a1), \
        TE(0, 0, AT(UNK)))
/* flag only explained on variants with feature f */
#define TESLA_FLAG1V(name, f, bit, ...) \
    TESLA_TABLE(name, \
        TE(0, 1ull << (bit), .feat = (f)), \
        TE(1ull << (bit), 1ull << (bit), .feat = (f), AT(__VA_ARGS__)), \
        TE(0, 0))

/* ---- shared fields and operand tables (tab-common.c) ---- */

/* register fields */
extern const TeslaRegDesc tesla_r_sdst, tesla_r_ldst, tesla_r_shdst,
    tesla_r_lhdst, tesla_r_lddst, tesla_r_lqdst;
extern const TeslaRegDesc tesla_r_ssrc, tesla_r_lsrc, tesla_r_shsrc,
    tesla_r_lhsrc, tesla_r_ldsrc;
extern const TeslaRegDesc tesla_r_ssrc2, tesla_r_lsrc2, tesla_r_shsrc2,
    tesla_r_lhsrc2, tesla_r_ldsrc2;
extern const TeslaRegDesc tesla_r_lsrc3, tesla_r_lhsrc3, tesla_r_ldsrc3;
extern const TeslaRegDesc tesla_r_sareg, tesla_r_lareg, tesla_r_adst;
extern const TeslaRegDesc tesla_r_cond, tesla_r_cdst;
extern const TeslaRegDesc tesla_r_tex, tesla_r_samp, tesla_r_sreg;

/* immediate fields */
extern const TeslaBits tesla_b_imm;     /* long immediate, 32 bits */
extern const TeslaBits tesla_b_shcnt, tesla_b_hshcnt;
extern const TeslaBits tesla_b_ign_ce, tesla_b_ign_pred;
extern const TeslaBits tesla_b_ctarg;   /* code target, bytes */

/* memory operands (envydis names: S = short, L = long, F = full field) */
extern const TeslaMemDesc tesla_m_ss8, tesla_m_ss16, tesla_m_ss32,
    tesla_m_ss8pi, tesla_m_ss16pi, tesla_m_ss32pi;
extern const TeslaMemDesc tesla_m_ls8, tesla_m_ls16, tesla_m_ls32,
    tesla_m_ls8pi, tesla_m_ls16pi, tesla_m_ls32pi;
extern const TeslaMemDesc tesla_m_fs8, tesla_m_fs16, tesla_m_fs32,
    tesla_m_fs8pi, tesla_m_fs16pi, tesla_m_fs32pi;
extern const TeslaMemDesc tesla_m_sc16, tesla_m_sc32, tesla_m_sc16pi,
    tesla_m_sc32pi;
extern const TeslaMemDesc tesla_m_l2c16, tesla_m_l2c32, tesla_m_l2c16pi,
    tesla_m_l2c32pi, tesla_m_l2c16na, tesla_m_l2c32na;
extern const TeslaMemDesc tesla_m_l3c16, tesla_m_l3c32, tesla_m_l3c16pi,
    tesla_m_l3c32pi, tesla_m_l3c16na, tesla_m_l3c32na;
extern const TeslaMemDesc tesla_m_fc8, tesla_m_fc16, tesla_m_fc32,
    tesla_m_fc8pi, tesla_m_fc16pi, tesla_m_fc32pi;
extern const TeslaMemDesc tesla_m_local, tesla_m_localpi;
extern const TeslaMemDesc tesla_m_sattr, tesla_m_lattr, tesla_m_fattr;
extern const TeslaMemDesc tesla_m_sprim, tesla_m_lprim;
extern const TeslaMemDesc tesla_m_svar, tesla_m_lvar;
extern const TeslaMemDesc tesla_m_global, tesla_m_global2;
extern const TeslaMemDesc tesla_m_out16, tesla_m_out32, tesla_m_fout32;

/*
 * Operand sub-tables (envydis tab* of the same name):
 *  short:  tesla_t_ssh/ssw (src1: reg or s[]), tesla_t_sch/scw (src2:
 *          reg or c[]), tesla_t_ss (s[]/a[]/p[] by program type)
 *  imm:    tesla_t_ish/isw (src1), tesla_t_is
 *  long:   tesla_t_lsh/lsw (src1), tesla_t_lc2h/lc2w (src2 or c[]),
 *          tesla_t_lc3h/lc3w (src3 or c[]), tesla_t_realls (s[]/a[]),
 *          tesla_t_lldst/llhdst (dst: $r, o[] or discard),
 *          tesla_t_mcdst ($c written if bit 38)
 *  misc:   tesla_t_pred (predicate, long insns), tesla_t_addop (short/imm
 *          add/sub/subr/addc, bits 22+28), tesla_t_addc0 ($c0 for short
 *          addc), tesla_t_addcond ($c for long addc), tesla_t_addop2 /
 *          tesla_t_addcond2 (mad, bits 58-59)
 * Operands inside take RO_SRC (dst tables RO_DST); the TR() atom that
 * descends into one may override the role.
 */
extern const TeslaTable tesla_t_ss, tesla_t_ssh, tesla_t_ssw, tesla_t_sch,
    tesla_t_scw;
extern const TeslaTable tesla_t_is, tesla_t_ish, tesla_t_isw;
extern const TeslaTable tesla_t_realls, tesla_t_lsh, tesla_t_lsw,
    tesla_t_lc2h, tesla_t_lc2w, tesla_t_lc3h, tesla_t_lc3w;
extern const TeslaTable tesla_t_lldst, tesla_t_llhdst, tesla_t_mcdst;
extern const TeslaTable tesla_t_pred;
extern const TeslaTable tesla_t_addop, tesla_t_addc0, tesla_t_addcond,
    tesla_t_addop2, tesla_t_addcond2;

/* common operand atoms */
#define SDST    REG(tesla_r_sdst, RO_DST)
#define LDST    REG(tesla_r_ldst, RO_DST)
#define SHDST   REG(tesla_r_shdst, RO_DST)
#define LHDST   REG(tesla_r_lhdst, RO_DST)
#define LDDST   REG(tesla_r_lddst, RO_DST)
#define LQDST   REG(tesla_r_lqdst, RO_DST)
#define SSRC    REG(tesla_r_ssrc, RO_SRC)
#define LSRC    REG(tesla_r_lsrc, RO_SRC)
#define SHSRC   REG(tesla_r_shsrc, RO_SRC)
#define LHSRC   REG(tesla_r_lhsrc, RO_SRC)
#define LDSRC   REG(tesla_r_ldsrc, RO_SRC)
#define SSRC2   REG(tesla_r_ssrc2, RO_SRC)
#define LSRC2   REG(tesla_r_lsrc2, RO_SRC)
#define SHSRC2  REG(tesla_r_shsrc2, RO_SRC)
#define LHSRC2  REG(tesla_r_lhsrc2, RO_SRC)
#define LDSRC2  REG(tesla_r_ldsrc2, RO_SRC)
#define LSRC3   REG(tesla_r_lsrc3, RO_SRC)
#define LHSRC3  REG(tesla_r_lhsrc3, RO_SRC)
#define LDSRC3  REG(tesla_r_ldsrc3, RO_SRC)
#define SDST_SRC REG(tesla_r_sdst, RO_SRC)  /* short "DST = SRC3" forms */
#define LIMM    IMM(tesla_b_imm, RO_SRC)
#define COND    REG(tesla_r_cond, RO_CSRC)
#define CDST    REG(tesla_r_cdst, RO_CDST)
#define IGNCE   IGN(tesla_b_ign_ce)
#define IGNPRED IGN(tesla_b_ign_pred)
#define MCDST   T(tesla_t_mcdst)
#define LLDST   T(tesla_t_lldst)
#define LLHDST  T(tesla_t_llhdst)

/* ---- the engine (decode.c) ---- */

/* Result of one walk over the tables. */
typedef struct TeslaWalk {
    unsigned len;           /* 4 or 8 bytes */
    uint64_t unknown;       /* bits nobody explained (within len) */
    bool unk_insn;          /* "???" as the instruction name */
    bool unk_operand;       /* "???" elsewhere */
    uint8_t target_mark;    /* a code target: TESLA_MARK_B/C, 0 if none */
    uint32_t target;        /* its byte address */
} TeslaWalk;

/* How envydis marks the target of a branch (B) and of a call (C). */
#define TESLA_MARK_B 1
#define TESLA_MARK_C 2

/*
 * Decode the 64-bit @bits (word 1 only meaningful for long insns) for
 * variant @v / program @p: fill @insn (may be NULL) and append the text
 * to @text (may be NULL).
 */
void tesla_walk(TeslaVariant v, TeslaProgType p, uint64_t bits,
                TeslaInsn *insn, GString *text, TeslaWalk *res);

/* the entry of @t that @bits takes (NULL if none) */
const TeslaEntry *tesla_table_find(const TeslaTable *t, uint64_t bits,
                                   uint32_t feat, unsigned progbit);

/* for hooks: read (and mark explained) bits; the insn being filled */
uint64_t tesla_dc_bits(TeslaDecodeCtx *dc, unsigned pos, unsigned len);
TeslaInsn *tesla_dc_insn(TeslaDecodeCtx *dc);

/* value of a field in @bits (no marking) */
int64_t tesla_bits_get(const TeslaBits *b, uint64_t bits);
/* mask of the bits a field occupies */
uint64_t tesla_bits_mask(const TeslaBits *b);

/* the class of an instruction and its root dispatch (tab-common.c) */
TeslaClass tesla_class_of(uint64_t bits);
extern const TeslaTable tesla_t_root;
extern const TeslaTable *const tesla_class_fallback[TCLS_NUM];
extern const TeslaGroup *const tesla_groups[];
extern const unsigned tesla_ngroups;

#endif
