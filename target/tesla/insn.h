/*
 * The pre-decoded form of one Tesla instruction.
 *
 * This is the contract between the decoder (decode.c and the opcode tables,
 * which fill it from the instruction bits) and the warp interpreter (exec*.c,
 * which runs it).  The disassembler and assembler work from the same opcode
 * tables, so text, bits and behaviour cannot drift apart.
 *
 * Decode happens once per code address; TeslaInsn is then cached, so keep
 * what the interpreter needs precomputed here (byte offsets already scaled,
 * register numbers already split from halves, ...).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TARGET_TESLA_INSN_H
#define TARGET_TESLA_INSN_H

#include "target/tesla.h"

/* What the instruction does.  One value per behaviour, not per encoding. */
typedef enum TeslaOp {
    TOP_INVALID = 0,    /* decode error: see TeslaInsn.error */

    /* data movement (cuda/data.rst) */
    TOP_MOV,            /* dst = src0 (lanemask honoured) */
    TOP_MOV_FROM_C,     /* dst = $c[src0] (4 flag bits) */
    TOP_MOV_TO_C,       /* $c[cdst] = src0 & 0xf */
    TOP_MOV_FROM_A,     /* dst = $a[src0] */
    TOP_SHL_A,          /* $a[dst] = src0 << src1 */
    TOP_ADD_A,          /* $a[dst] = $a[src0] + imm */
    TOP_MOV_FROM_SR,    /* dst = $sr[src0] */
    TOP_LD,             /* dst = memory src0 (c[] l[] s[] a[] p[] g[]) */
    TOP_ST,             /* memory dst = src0 (s[] l[] g[] o[]) */
    TOP_LD_LOCK,        /* s[] load with lock, $c result (G200+) */
    TOP_ST_UNLOCK,      /* s[] store with unlock (G200+) */
    TOP_ATOM,           /* dst = old value of g[src0]; g[src0] op= src1 */
    TOP_RED,            /* g[src0] op= src1, no result */
    TOP_VOTE,           /* $c[cdst] = any/all of the predicate (G200+) */

    /* integer (cuda/int.rst) */
    TOP_IADD,           /* add/sub/subr/addc: addop, sat, size */
    TOP_IMUL16,         /* 16x16->32, signedness per source */
    TOP_IMUL24,         /* 24x24, low or high 32 bits of 48 */
    TOP_IMAD,           /* mul (16 or 24) then addop with src2 */
    TOP_SAD,
    TOP_IMIN,
    TOP_IMAX,
    TOP_ISET,
    TOP_LOGOP,          /* and/or/xor/mov2 with not1/not2 */
    TOP_SHL,
    TOP_SHR,

    /* float (cuda/float.rst) and transcendentals (cuda/trans.rst) */
    TOP_FADD,
    TOP_FMUL,
    TOP_FMAD,
    TOP_FMIN,
    TOP_FMAX,
    TOP_FSET,
    TOP_FSLCT,
    TOP_QUADOP,
    TOP_INTERP,
    TOP_RCP,
    TOP_RSQRT,
    TOP_LG2,
    TOP_SIN,
    TOP_COS,
    TOP_EX2,
    TOP_PRESIN,
    TOP_PREEX2,
    TOP_CVT,            /* every cvt form: see TeslaInsn.dtype/stype/rnd */

    /* double (cuda/double.rst), G200 only */
    TOP_DFMA,
    TOP_DADD,
    TOP_DMUL,
    TOP_DMIN,
    TOP_DMAX,
    TOP_DSET,

    /* control (cuda/control.rst) */
    TOP_DISCARD,
    TOP_BRA,
    TOP_BRA_C,          /* indirect branch through c[] (GT215) */
    TOP_CALL,
    TOP_RET,
    TOP_PREBRK,
    TOP_BRK,
    TOP_PRERET,
    TOP_QUADON,
    TOP_QUADPOP,
    TOP_BAR,
    TOP_TRAP,
    TOP_JOINAT,
    TOP_BRKPT,
    TOP_NOP,            /* nop, and a bare exit/join carrier */
    TOP_PMEVENT,

    /* texture and geometry (cuda/texture.rst, misc.rst) */
    TOP_TEX,            /* every tex* form: see TeslaInsn.tex */
    TOP_EMIT,
    TOP_RESTART,
    TOP_EMIT_RESTART,

    TOP_NUM_OPS
} TeslaOp;

/* Operand kinds. */
typedef enum TeslaOpndKind {
    TOPND_NONE = 0,
    TOPND_REG,          /* $rN (32-bit); reg = N */
    TOPND_HREG,         /* $rNl / $rNh; reg = N, half = 0 low / 1 high */
    TOPND_DREG,         /* $rNd: $rN, $rN+1 */
    TOPND_QREG,         /* $rNq: $rN .. $rN+3 */
    TOPND_VREG,         /* texture vector: regs reg.. with mask (tex) */
    TOPND_IMM,          /* imm */
    TOPND_MEM,          /* space[...]: see the mem fields */
    TOPND_CREG,         /* $cN */
    TOPND_AREG,         /* $aN */
    TOPND_SREG,         /* $srN: 0 physid, 1 clock, 3 vstride, 4-7 pm, 8 sampleid */
    TOPND_TARGET,       /* code address (imm, bytes) */
    TOPND_DISCARD,      /* long destination 127 with o[] type: result dropped */
} TeslaOpndKind;

typedef enum TeslaSpace {
    TSPACE_C,           /* c0[]..c15[]: space_idx */
    TSPACE_S,           /* s[] */
    TSPACE_L,           /* l[] */
    TSPACE_G,           /* g0[]..g15[]: space_idx; address is $r[reg] */
    TSPACE_A,           /* a[] */
    TSPACE_P,           /* p[] */
    TSPACE_O,           /* o[] */
    TSPACE_V,           /* v[] (interp) */
} TeslaSpace;

/* Data types, for memory accesses, cvt and typed integer ops. */
typedef enum TeslaType {
    TTYPE_NONE = 0,
    TTYPE_U8, TTYPE_S8,
    TTYPE_U16, TTYPE_S16,
    TTYPE_U32, TTYPE_S32,
    TTYPE_U64, TTYPE_S64,
    TTYPE_B16, TTYPE_B32, TTYPE_B64, TTYPE_B128,
    TTYPE_F16, TTYPE_F32, TTYPE_F64,
    TTYPE_U24, TTYPE_S24,
} TeslaType;

typedef struct TeslaOperand {
    uint8_t kind;       /* TeslaOpndKind */
    uint8_t half;       /* TOPND_HREG: 0 low, 1 high */
    uint8_t space;      /* TOPND_MEM: TeslaSpace */
    uint8_t space_idx;  /* c0..c15, g0..g15 */
    uint8_t mtype;      /* TOPND_MEM: TeslaType of the access */
    uint8_t areg;       /* TOPND_MEM: $a index (0: none); TOPND_AREG index */
    uint8_t postinc;    /* TOPND_MEM: $a += offset after the access */
    uint8_t neg, abs, not_; /* source modifiers that belong to the operand */
    uint8_t vmask;      /* TOPND_VREG: component mask */
    uint8_t vcount;     /* TOPND_VREG: register count */
    uint16_t reg;       /* register number (g[]: the $r address register) */
    uint32_t imm;       /* TOPND_IMM value; TOPND_MEM byte offset (scaled);
                           TOPND_TARGET byte address */
} TeslaOperand;

/* TeslaInsn.post: the exit/join part of a long instruction. */
enum { TPOST_NONE = 0, TPOST_EXIT = 1, TPOST_JOIN = 2 };

/* Predicate functions: word 1 bits 7-11 (isa.rst "Predicates"). */
enum { TPRED_NEVER = 0x00, TPRED_ALWAYS = 0x0f };

/* TeslaInsn.addop (add/sub/subr/addc), as encoded O2:O1. */
enum { TADDOP_ADD = 0, TADDOP_SUB = 1, TADDOP_SUBR = 2, TADDOP_ADDC = 3 };
/* TeslaInsn.logop */
enum { TLOGOP_AND = 0, TLOGOP_OR = 1, TLOGOP_XOR = 2, TLOGOP_MOV2 = 3 };
/* TeslaInsn.cmp: set/fset/dset condition as bits l=1 e=2 g=4 u=8 */
enum { TCMP_L = 1, TCMP_E = 2, TCMP_G = 4, TCMP_U = 8 };
/* TeslaInsn.rnd: rounding for f32 ops and cvt */
enum {
    TRND_RN = 0, TRND_RM, TRND_RP, TRND_RZ,         /* to float */
    TRND_RNI, TRND_RMI, TRND_RPI, TRND_RZI,         /* to integral value */
};
/* TeslaInsn.atomop */
enum {
    TATOM_ADD, TATOM_INC, TATOM_DEC, TATOM_MAX, TATOM_MIN,
    TATOM_AND, TATOM_OR, TATOM_XOR, TATOM_EXCH, TATOM_CAS,
};
/* TeslaInsn.quad_ops[]: quadop per lane */
enum { TQOP_ADD = 0, TQOP_SUBR = 1, TQOP_SUB = 2, TQOP_MOV2 = 3 };

/* Modifier flags (TeslaInsn.mods). */
#define TMOD_SAT      (1u << 0)   /* saturate (int: signed clamp; f32: [0,1]) */
#define TMOD_HIGH     (1u << 1)   /* mul24: high 32 bits of the 48 */
#define TMOD_SIGNED   (1u << 2)   /* integer compare/shift/min/max signed */
#define TMOD_B32      (1u << 3)   /* 32-bit integer op (else 16-bit) */
#define TMOD_FLAT     (1u << 4)   /* interp flat */
#define TMOD_CENT     (1u << 5)   /* interp centroid */
#define TMOD_LIVE     (1u << 6)   /* tex: live threads only */
#define TMOD_DERIV    (1u << 7)   /* tex: compute derivatives */
#define TMOD_SFU      (1u << 8)   /* mov via the SFU path (no effect) */
#define TMOD_NEG_PROD (1u << 9)   /* fmad/dfma: negate the product */
#define TMOD_NEG_ADD  (1u << 10)  /* fmad/dfma: negate the addend */
#define TMOD_SLCT_NEG (1u << 11)  /* fslct neg: select on src2 < 0 */
#define TMOD_VOTE_ALL (1u << 13)  /* vote all (else any) */
#define TMOD_UNSIGNED_SRC1 (1u << 14)
/* bar: inc and/or wait (both for "bar sync"); ALL: the whole block, else
   src[0] is an IMM thread count (BARMASK field) */
#define TMOD_BAR_INC  (1u << 15)
#define TMOD_BAR_WAIT (1u << 16)
#define TMOD_BAR_ALL  (1u << 17)
#define TMOD_CALL_LIM (1u << 18)  /* call/preret/bra c[] "lim" */

/*
 * TeslaTex.kind (cuda/texture.rst).  Sources (src[0], a TOPND_VREG of
 * tex.dims registers; texsize: one TOPND_REG) in order x, y, z, array
 * index, dref, then bias/lod; which are present depends on the texture
 * header, not on the instruction.
 */
enum {
    TTEX_AUTO,          /* texauto: float coords, implicit lod */
    TTEX_FETCH,         /* texfetch: integer texel coords and lod */
    TTEX_BIAS,          /* texbias: last source is the lod bias */
    TTEX_LOD,           /* texlod: last source is the lod */
    TTEX_SIZE,          /* texsize: in integer lod; out w, h, d, levels */
    TTEX_PREP,          /* texprep cube (GT215): cube coords to 2d array */
    TTEX_QUERYLOD,      /* texquerylod (GT215): lod, fixed point 8.6 */
    TTEX_CSAA,          /* texcsaa: float coords + CSAA mask */
    TTEX_GATHER,        /* texgather (GT215): 2x2 footprint, one comp. */
};
/* TeslaTex.flags (live/all and deriv are TMOD_LIVE / TMOD_DERIV) */
#define TTEXF_CUBE    (1u << 0)   /* cube coordinates (no texel offsets) */
#define TTEXF_OFFS    (1u << 1)   /* the encoding has texel offsets offs[] */

typedef struct TeslaTex {
    uint8_t kind;       /* TTEX_*: texauto, texfetch, texbias, ... */
    uint8_t tex, samp;  /* $tN, $sN */
    uint8_t dims;       /* coordinate count */
    uint8_t flags;      /* array, shadow, offsets, cube ... */
    int8_t offs[3];     /* texel offsets */
} TeslaTex;

/*
 * Operand conventions (decoder and interpreter both rely on them):
 * - Every operand is explicit, even where the encoding implies it (short
 *   mad/sad "DST = SRC3" forms fill src[2] with the destination register;
 *   short addc fills csrc = 0).
 * - src[] are in the order envydis prints them: src[0] is SRC1, src[1] is
 *   SRC2, src[2] is SRC3.
 * - st / st unlock: dst is the memory operand, src[0] the value.
 * - ld / atom: dst is the register, src[0] the memory operand; atom's value
 *   is src[1] and cas's second value src[2]; red has no dst.
 * - mov to $c: cdst is the $c written; mov from $c: csrc is the $c read.
 * - control flow: the code address is src[0] (TOPND_TARGET), bar's index
 *   is TeslaInsn.bar.
 * - 16-bit halves are TOPND_HREG; immediates of b16 ops keep their 32 bits
 *   as encoded (the interpreter truncates).
 * - Integer ops: TMOD_B32 = 32-bit (else 16-bit), TMOD_SIGNED = signed;
 *   mul24/mad: stype U16/S16/U24/S24 is the multiply; a 16-bit multiply
 *   source also carries its own signedness in src[i].mtype (U16/S16, on
 *   register and immediate operands too).  A 16-bit c[] source has a
 *   16-bit mtype (it is read as a half-word at its 2-scaled offset).
 * - f32: neg/abs on the operand; mad's negated product / addend are
 *   TMOD_NEG_PROD / TMOD_NEG_ADD; slct's neg is TMOD_SLCT_NEG.
 */
typedef struct TeslaInsn {
    uint32_t addr;      /* byte address in the code space */
    uint32_t w[2];      /* the raw words */
    uint8_t len;        /* 4 or 8 bytes */
    uint8_t op;         /* TeslaOp */
    int8_t error;       /* TeslaError of a decode error, TESLA_ERR_NONE if ok */
    uint8_t post;       /* TPOST_* */

    uint8_t pred;       /* predicate function (TPRED_ALWAYS if none) */
    uint8_t pred_c;     /* $c the predicate reads */
    int8_t cdst;        /* $c written with the result flags, -1 if none */
    uint8_t csrc;       /* $c read as an input (addc carry, mov from $c) */

    uint8_t nsrc;       /* number of src[] in use */
    uint8_t dtype;      /* TeslaType of the result */
    uint8_t stype;      /* TeslaType of the sources */
    uint8_t rnd;        /* TRND_* */

    uint8_t addop;      /* TADDOP_* (iadd, imad) */
    uint8_t logop;      /* TLOGOP_* */
    uint8_t cmp;        /* TCMP_* bits */
    uint8_t atomop;     /* TATOM_* */

    uint8_t lanemask;   /* mov: quad lanes written (0xf all) */
    uint8_t quad_ops[4];/* quadop: op per lane */
    uint8_t quad_src;   /* quadop: source lane (0-3, 4 dox, 5 doy) */
    uint8_t bar;        /* bar: barrier index */

    uint32_t mods;      /* TMOD_* */
    TeslaTex tex;

    TeslaOperand dst;
    TeslaOperand src[4];
} TeslaInsn;

/*
 * Decode the instruction at byte address @addr of @code (@nwords words).
 * Always fills @insn; on a decode error insn->op is TOP_INVALID and
 * insn->error says which (the warp then traps with it).
 */
void tesla_decode(TeslaVariant v, TeslaProgType p, const uint32_t *code,
                  size_t nwords, uint32_t addr, TeslaInsn *insn);

#endif
