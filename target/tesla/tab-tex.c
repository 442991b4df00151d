/*
 * Tesla opcode tables: texturing (cuda/texture.rst) -- texauto, texfetch
 * (short and long), texbias, texlod, texsize, texcsaa, and on GT215
 * texprep cube, texquerylod and texgather -- and the geometry program's
 * emit/restart (misc.rst), all of primary opcode 0xf except nop/pmevent
 * (tab-control.c).
 *
 * Bit positions and printed forms follow envydis g80.c; bit numbers are in
 * the 64-bit instruction (word 1 bit 0 is bit 32).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

/*
 * Register vectors: the destination (4 components, long form with a
 * write mask in bits 25-26 and 46-47; written components take consecutive
 * registers) and the sources (1-4 registers, count in bits 22-23) both
 * start at the destination register field.
 */
static const TeslaVecDesc v_sdst = {
    { 2, 6, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 4 }, { 0, 0, 0, 0, 0, 0, 0 }
};
static const TeslaVecDesc v_ldst = {
    { 2, 7, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0, 4 }, { 25, 2, 46, 2, 0, 0, 0 }
};
static const TeslaVecDesc v_ssrc = {
    { 2, 6, 0, 0, 0, 0, 0 }, { 22, 2, 0, 0, 0, 0, 1 }, { 0, 0, 0, 0, 0, 0, 0 }
};
static const TeslaVecDesc v_lsrc = {
    { 2, 7, 0, 0, 0, 0, 0 }, { 22, 2, 0, 0, 0, 0, 1 }, { 0, 0, 0, 0, 0, 0, 0 }
};

/* texel offsets x, y, z: signed 4-bit fields at bits 56, 52, 48 */
static const TeslaBits b_toffx = { 56, 4, 0, 0, 0, 1, 0 };
static const TeslaBits b_toffy = { 52, 4, 0, 0, 0, 1, 0 };
static const TeslaBits b_toffz = { 48, 4, 0, 0, 0, 1, 0 };

/* tex.dims: the number of source registers */
static void tex_dims(TeslaDecodeCtx *dc, const TeslaAtom *at G_GNUC_UNUSED)
{
    TeslaInsn *insn = tesla_dc_insn(dc);

    insn->tex.dims = insn->src[0].vcount;
}
static const TeslaHook h_dims = { tex_dims };

#define KIND(k)     SET(RO_TEXKIND, k)
#define CUBE        NA("cube", RO_TEXFLAGS, TTEXF_CUBE)
#define TEXR        REG(tesla_r_tex, RO_TEX), REG(tesla_r_samp, RO_SAMP)
#define SDSTV       VEC(v_sdst, RO_DST)
#define LDSTV       VEC(v_ldst, RO_DST)
#define SSRCV       VEC(v_ssrc, RO_S0), HOOK(h_dims, 0)
#define LSRCV       VEC(v_lsrc, RO_S0), HOOK(h_dims, 0)
#define TOFFS       SET(RO_TEXFLAGS, TTEXF_OFFS), IMM(b_toffx, RO_TEXOFF0), \
                    IMM(b_toffy, RO_TEXOFF1), IMM(b_toffz, RO_TEXOFF2)

/* ---- short: bit 24 texfetch, bit 8 live ---- */

TESLA_FLAG2(s_live, 8, AT(N("all")), AT(MOD("live", TMOD_LIVE)));

TESLA_TABLE(s_tex,
    TE(0xf0000000, 0xf1000002, .op = TOP_TEX,
       AT(N("texauto"), KIND(TTEX_AUTO), T(s_live), SDSTV, TEXR, SSRCV)),
    TE(0xf1000000, 0xf1000002, .op = TOP_TEX,
       AT(N("texfetch"), KIND(TTEX_FETCH), T(s_live), SDSTV, TEXR, SSRCV)),
);

/* ---- long: bit 34 live, bit 35 deriv ---- */

TESLA_FLAG2(l_live, 34, AT(N("all")), AT(MOD("live", TMOD_LIVE)));
/* derivatives outside fragment programs (texture.rst) */
TESLA_FLAG1(l_deriv, 35, MOD("deriv", TMOD_DERIV));
#define TEXF        T(l_live), T(l_deriv)

/*
 * Word 1 bits 28-31 are the sub-opcode (bit 28 must be 0); word 0 bit 27
 * selects cube coordinates (which have no texel offsets), bit 24 picks
 * texfetch/texgather.  Entry order matters where masks overlap.
 */
#define TX(hi, lo)  (((uint64_t)(hi) << 32) | (lo))
#define TXE(hi, lo, mhi, mlo, feat_, ...) \
    TE(TX(hi, lo), TX(mhi, mlo), .feat = (feat_), .op = TOP_TEX, \
       AT(__VA_ARGS__))
#define D3D TESLA_F_D3D10_1

TESLA_TABLE(l_tex,
    TXE(0x00000000, 0xf0000000, 0xf0000000, 0xf9000000, 0,
        N("texauto"), KIND(TTEX_AUTO), TEXF, LDSTV, TEXR, LSRCV, TOFFS),
    TXE(0x00000000, 0xf8000000, 0xf0000000, 0xf9000000, 0,
        N("texauto"), KIND(TTEX_AUTO), CUBE, TEXF, LDSTV, TEXR, LSRCV),
    TXE(0x00000000, 0xf1000000, 0xf0000000, 0xf1000000, 0,
        N("texfetch"), KIND(TTEX_FETCH), TEXF, LDSTV, TEXR, LSRCV, TOFFS),
    TXE(0x20000000, 0xf0000000, 0xf0000000, 0xf8000000, 0,
        N("texbias"), KIND(TTEX_BIAS), TEXF, LDSTV, TEXR, LSRCV, TOFFS),
    TXE(0x20000000, 0xf8000000, 0xf0000000, 0xf8000000, 0,
        N("texbias"), KIND(TTEX_BIAS), CUBE, TEXF, LDSTV, TEXR, LSRCV),
    TXE(0x40000000, 0xf0000000, 0xf0000000, 0xf8000000, 0,
        N("texlod"), KIND(TTEX_LOD), TEXF, LDSTV, TEXR, LSRCV, TOFFS),
    TXE(0x40000000, 0xf8000000, 0xf0000000, 0xf8000000, 0,
        N("texlod"), KIND(TTEX_LOD), CUBE, TEXF, LDSTV, TEXR, LSRCV),
    /* one integer source (the lod) in the destination register field */
    TXE(0x60000000, 0xf0000000, 0xf00f0000, 0xf0000000, 0,
        N("texsize"), KIND(TTEX_SIZE), SET(RO_TEXDIMS, 1), TEXF, LDSTV,
        TEXR, REG(tesla_r_ldst, RO_S0)),
    TXE(0x60010000, 0xf8000000, 0xf00f0000, 0xf8000000, D3D,
        N("texprep"), KIND(TTEX_PREP), CUBE, TEXF, LDSTV, TEXR, LSRCV),
    TXE(0x60020000, 0xf0000000, 0xf00f0000, 0xf8000000, D3D,
        N("texquerylod"), KIND(TTEX_QUERYLOD), TEXF, LDSTV, TEXR, LSRCV),
    TXE(0x60020000, 0xf8000000, 0xf00f0000, 0xf8000000, D3D,
        N("texquerylod"), KIND(TTEX_QUERYLOD), CUBE, TEXF, LDSTV, TEXR,
        LSRCV),
    TXE(0x80000000, 0xf0000000, 0xf0000000, 0xf1000000, 0,
        N("texcsaa"), KIND(TTEX_CSAA), TEXF, LDSTV, TEXR, LSRCV, TOFFS),
    TXE(0x80000000, 0xf1000000, 0xf0000000, 0xf9000000, D3D,
        N("texgather"), KIND(TTEX_GATHER), TEXF, LDSTV, TEXR, LSRCV,
        TOFFS),
    TXE(0x80000000, 0xf9000000, 0xf0000000, 0xf9000000, D3D,
        N("texgather"), KIND(TTEX_GATHER), CUBE, TEXF, LDSTV, TEXR, LSRCV),
    /*
     * Geometry programs only (elsewhere EMIT_NON_GP, decode.c).  Both
     * bits at once is not an encoding envydis knows: "???".
     */
    TE(0xc0000000f0000200ull, 0xe0000000f0000600ull, .progs = TP_GP,
       .op = TOP_EMIT, AT(N("emit"))),
    TE(0xc0000000f0000400ull, 0xe0000000f0000600ull, .progs = TP_GP,
       .op = TOP_RESTART, AT(N("restart"))),
);

const TeslaGroup tesla_group_tex = {
    .name = "tex",
    .ops = {
        [TCLS_SHORT] = {
            [0xf] = &s_tex,
        },
        [TCLS_LONG] = {
            [0xf] = &l_tex,
        },
    },
};
