/*
 * Tesla opcode tables: control flow (cuda/control.rst) -- short and long
 * control instructions, and nop/pmevent among the long normal ones.  The
 * exit/join part of long instructions is in the root (tab-common.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/opcodes.h"

static const TeslaBits b_pm = { 10, 4, 0, 0, 0, 0, 0 };
static const TeslaBits b_bar = { 21, 4, 0, 0, 0, 0, 0 };
static const TeslaBits b_barmask = { 9, 12, 0, 0, 0, 0, 0 };

#define BTARG TARGET(tesla_b_ctarg)
#define CTARG CTARGET(tesla_b_ctarg)
#define PRED T(tesla_t_pred)

/* ---- short control ---- */

TESLA_TABLE(sctl_trap,
    TE(0x90000002, 0xf0000002, .op = TOP_TRAP, AT(N("trap"))),
);
TESLA_TABLE(sctl_brkpt,
    TE(0xb0000002, 0xf0000002, .feat = TESLA_F_SM11, .op = TOP_BRKPT,
       AT(N("brkpt"))),
);

/* ---- long control: opcode in word 0 bits 28-31 ---- */

/* call/preret/bra c[] "lim": word 1 bit 6 */
TESLA_FLAG1(lim, 38, MOD("lim", TMOD_CALL_LIM));
TESLA_FLAG1(barinc, 25, MOD("inc", TMOD_BAR_INC));
TESLA_FLAG1(barwait, 26, MOD("wait", TMOD_BAR_WAIT));

#define C(op) ((uint64_t)(op) << 28)
#define CM 0x00000000f0000000ull

TESLA_TABLE(lctl_discard,
    TE(C(0x0), CM, .progs = TP_FP, .op = TOP_DISCARD,
       AT(PRED, N("discard"))),
);
TESLA_TABLE(lctl_bra,
    TE(C(0x1), CM, .op = TOP_BRA, AT(PRED, N("bra"), BTARG)),
);
TESLA_TABLE(lctl_call,
    TE(C(0x2), CM, .op = TOP_CALL, AT(IGNPRED, N("call"), T(lim), CTARG)),
);
TESLA_TABLE(lctl_ret,
    TE(C(0x3), CM, .op = TOP_RET, AT(PRED, N("ret"))),
);
TESLA_TABLE(lctl_prebrk,
    TE(C(0x4), CM, .op = TOP_PREBRK, AT(IGNPRED, N("breakaddr"), BTARG)),
);
TESLA_TABLE(lctl_brk,
    TE(C(0x5), CM, .op = TOP_BRK, AT(PRED, N("break"))),
);
TESLA_TABLE(lctl_quadon,
    TE(C(0x6), CM, .op = TOP_QUADON, AT(IGNPRED, N("quadon"))),
);
TESLA_TABLE(lctl_quadpop,
    TE(C(0x7), CM, .op = TOP_QUADPOP, AT(IGNPRED, N("quadpop"))),
);
/* word 1 bit 14: the whole block, else a thread count */
TESLA_TABLE(lctl_bar,
    TE(C(0x8), 0x00004000f0000000ull, .op = TOP_BAR,
       AT(IGNPRED, N("bar"), T(barinc), T(barwait), IMM(b_bar, RO_BAR),
          IMM(b_barmask, RO_SRC))),
    TE(0x0000400000000000ull | C(0x8), 0x00004000f0000000ull,
       .op = TOP_BAR,
       AT(IGNPRED, N("bar"), T(barinc), T(barwait), IMM(b_bar, RO_BAR),
          MOD("all", TMOD_BAR_ALL))),
);
TESLA_TABLE(lctl_trap,
    TE(C(0x9), CM, .op = TOP_TRAP, AT(IGNPRED, N("trap"))),
);
TESLA_TABLE(lctl_joinat,
    TE(C(0xa), CM, .op = TOP_JOINAT, AT(IGNPRED, N("joinat"), BTARG)),
);
TESLA_TABLE(lctl_brkpt,
    TE(C(0xb), CM, .feat = TESLA_F_SM11, .op = TOP_BRKPT,
       AT(PRED, N("brkpt"))),
);
/* UNVERIFIED (envydis: "check variants") */
TESLA_TABLE(lctl_brac,
    TE(C(0xc), CM, .feat = TESLA_F_D3D10_1, .op = TOP_BRA_C,
       AT(IGNPRED, N("bra"), T(lim), SET(RO_MTYPE, TTYPE_U8),
          MEM(tesla_m_fc8, RO_S0))),
);
TESLA_TABLE(lctl_preret,
    TE(C(0xd), CM, .feat = TESLA_F_D3D10_1, .op = TOP_PRERET,
       AT(IGNPRED, N("preret"), T(lim), BTARG)),
);

/* ---- long normal, opcode 0xf, secondary 7: nop / pmevent ---- */

TESLA_TABLE(long_nop,
    TE(0xe0000000f0000000ull, 0xe0000004f0000000ull, .op = TOP_NOP,
       AT(N("nop"))),
    TE(0xe0000004f0000000ull, 0xe0000004f0000000ull, .op = TOP_PMEVENT,
       AT(N("pmevent"), IMM(b_pm, RO_SRC))),
);

const TeslaGroup tesla_group_control = {
    .name = "control",
    .ops[TCLS_SHORT_CTL] = { [0x9] = &sctl_trap, [0xb] = &sctl_brkpt },
    .ops[TCLS_LONG_CTL] = {
        [0x0] = &lctl_discard, [0x1] = &lctl_bra, [0x2] = &lctl_call,
        [0x3] = &lctl_ret, [0x4] = &lctl_prebrk, [0x5] = &lctl_brk,
        [0x6] = &lctl_quadon, [0x7] = &lctl_quadpop, [0x8] = &lctl_bar,
        [0x9] = &lctl_trap, [0xa] = &lctl_joinat, [0xb] = &lctl_brkpt,
        [0xc] = &lctl_brac, [0xd] = &lctl_preret,
    },
    .ops[TCLS_LONG] = { [0xf] = &long_nop },
};
