/*
 * The compute class 0x50c0 (G80_COMPUTE; envytools rnndb
 * graph/g80_compute.xml), as Mesa's nv50_compute.c drives it.
 *
 * Methods set up state; LAUNCH turns that state into an NV50CpLaunch
 * (tpc.h) and runs it on the TPC/MP model (tpc.c) to its end, on the
 * engine thread.  Any caller that has the state in hand can do the same
 * with nv50_tpc_launch().
 *
 * What a launch sees:
 * - What compute shares with the 3D object lives in the channel's
 *   NV50GrShared (gr.h, gr/shared.c), whichever class set it: compute
 *   runs as the FP program type.
 * - code: the FP code segment (CP_ADDRESS here, FP_ADDRESS on 3D: one
 *   register; Mesa sets only the latter) in DMA_CODE_CB (else a VA),
 *   the threads starting at CP_START_ID.
 * - c[i]: FP's slot i (SET_PROGRAM_CB here or 3D's with PROGRAM
 *   FRAGMENT) maps to one of the channel's 128 buffers (CB_DEF_SET of
 *   either class; address in DMA_CODE_CB; size 0 means 64 KiB).  CB_ADDR
 *   + CB_DATA upload words into a buffer, the word index counting up.
 * - TIC/TSC state (DMA_TIC/TSC/TEXTURE, TIC/TSC_ADDRESS and LIMIT,
 *   LINKED_TSC, TEX_LIMITS, BIND_TIC/TSC) is shared too; tex
 *   instructions sample through it (texture.c, the FP program type's
 *   bindings).
 * - g[i]: GLOBAL[i] ADDRESS (in DMA_GLOBAL) and LIMIT (inclusive);
 *   MODE other than LINEAR is taken as PITCH x (LIMIT.HEIGHT + 1)
 *   linear bytes (block-linear layouts: unimplemented, logged).
 * - l[]: 8 << LOCAL_SIZE_LOG bytes a thread (0: none).
 * - s[]: SHARED_SIZE bytes a block; the hardware's header at 0x0-0xf
 *   (GRIDID, block and grid sizes, block index) and USER_PARAM i at
 *   0x10 + 4 i for i < USER_PARAM_COUNT.COUNT (Mesa: 0x10 holds grid z |
 *   block z << 16); $r0 = tid x | y << 16 | z << 26: the convention of
 *   gemu-shader (docs/tools/gemu-shader.md).
 * - CP_REG_ALLOC_TEMP registers a thread; GRIDDIM, BLOCKDIM_XY/Z.
 * QUERY_GET writes QUERY_SEQUENCE (SHORT) or {sequence, 0, timestamp}
 * at QUERY_ADDRESS, and raises COMPUTE_QUERY with INTR.
 *
 * Every method is implemented, or accepted without effect where that is
 * what the hardware does as far as anyone knows (flushes, delays,
 * performance counters' setup, stack and warp allocation), or stored and
 * logged once as unimplemented by name (conditional launch, performance
 * counters, the UNK* methods).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "gr.h"
#include "tpc.h"

#define NV50_COMPUTE_DMA_GLOBAL             0x01a0
#define NV50_COMPUTE_DMA_QUERY              0x01a4
#define NV50_COMPUTE_DMA_LOCAL              0x01b8
#define NV50_COMPUTE_DMA_STACK              0x01bc
#define NV50_COMPUTE_DMA_CODE_CB            0x01c0
#define NV50_COMPUTE_DMA_TSC                0x01c4
#define NV50_COMPUTE_DMA_TIC                0x01c8
#define NV50_COMPUTE_DMA_TEXTURE            0x01cc
#define NV50_COMPUTE_CP_ADDRESS_HIGH        0x0210
#define NV50_COMPUTE_CP_ADDRESS_LOW         0x0214
#define NV50_COMPUTE_TSC_ADDRESS_HIGH       0x022c
#define NV50_COMPUTE_TSC_ADDRESS_LOW        0x0230
#define NV50_COMPUTE_TSC_LIMIT              0x0234
#define NV50_COMPUTE_CB_ADDR                0x0238
#define NV50_COMPUTE_CB_DATA(i)             (0x023c + 4 * (i))
#define NV50_COMPUTE_LOCAL_ADDRESS_HIGH     0x0294
#define NV50_COMPUTE_LOCAL_ADDRESS_LOW      0x0298
#define NV50_COMPUTE_LOCAL_SIZE_LOG         0x029c
#define NV50_COMPUTE_CB_DEF_ADDRESS_HIGH    0x02a4
#define NV50_COMPUTE_CB_DEF_ADDRESS_LOW     0x02a8
#define NV50_COMPUTE_CB_DEF_SET             0x02ac
#define NV50_COMPUTE_BLOCK_ALLOC            0x02b4
#define NV50_COMPUTE_LANES32_ENABLE         0x02b8
#define NV50_COMPUTE_CP_REG_ALLOC_TEMP      0x02c0
#define NV50_COMPUTE_TIC_ADDRESS_HIGH       0x02c4
#define NV50_COMPUTE_TIC_ADDRESS_LOW        0x02c8
#define NV50_COMPUTE_TIC_LIMIT              0x02cc
#define NV50_COMPUTE_QUERY_ADDRESS_HIGH     0x0310
#define NV50_COMPUTE_QUERY_ADDRESS_LOW      0x0314
#define NV50_COMPUTE_QUERY_SEQUENCE         0x0318
#define NV50_COMPUTE_QUERY_GET              0x031c
#define NV50_COMPUTE_QUERY_GET_INTR         (1u << 9)
#define NV50_COMPUTE_QUERY_GET_SHORT        (1u << 15)
#define NV50_COMPUTE_COND_MODE              0x0328
#define NV50_COMPUTE_LAUNCH                 0x0368
#define NV50_COMPUTE_USER_PARAM_COUNT       0x0374
#define NV50_COMPUTE_LINKED_TSC             0x0378
#define NV50_COMPUTE_ISA_FLAGS              0x037c
#define NV50_COMPUTE_GRIDID                 0x0388
#define NV50_COMPUTE_GRIDDIM                0x03a4
#define NV50_COMPUTE_SHARED_SIZE            0x03a8
#define NV50_COMPUTE_BLOCKDIM_XY            0x03ac
#define NV50_COMPUTE_BLOCKDIM_Z             0x03b0
#define NV50_COMPUTE_CP_START_ID            0x03b4
#define NV50_COMPUTE_TEX_LIMITS             0x03bc
#define NV50_COMPUTE_BIND_TSC               0x03c0
#define NV50_COMPUTE_BIND_TIC               0x03c4
#define NV50_COMPUTE_SET_PROGRAM_CB         0x03c8
#define NV50_COMPUTE_GLOBAL(i)              (0x0400 + 0x20 * (i))
#define NV50_COMPUTE_GLOBAL_ADDRESS_HIGH    0x00
#define NV50_COMPUTE_GLOBAL_ADDRESS_LOW     0x04
#define NV50_COMPUTE_GLOBAL_PITCH           0x08
#define NV50_COMPUTE_GLOBAL_LIMIT           0x0c
#define NV50_COMPUTE_GLOBAL_MODE            0x10
#define NV50_COMPUTE_GLOBAL_MODE_LINEAR     1u
#define NV50_COMPUTE_USER_PARAM(i)          (0x0600 + 4 * (i))
#define NV50_COMPUTE_MTHD_END               0x0700

#define CP_CODE_SEGMENT         0x1000000u  /* 24-bit code addresses */
#define CP_MAX_THREADS          512

/* PFB VM trap subclient (nvkm fb/nv50.c): DISPATCH/QUERY */
#define VM_SUBCLIENT_QUERY      0x2

typedef enum {
    M_STORE,        /* kept; LAUNCH or another method reads it */
    M_NO_EFFECT,    /* accepted; nothing gemu models depends on it */
    M_UNIMP,        /* kept; logged once as unimplemented */
} MthdKind;

typedef struct CpMthd {
    uint16_t mthd;
    uint8_t count;
    uint8_t stride;         /* bytes between array elements */
    MthdKind kind;
    const char *name;
} CpMthd;

/*
 * The methods of G80_COMPUTE on G84 (not GT215's TEX_MISC, not G80's
 * UNK0700), but for the common ones and the special cases of
 * compute_method().
 */
static const CpMthd cp_mthds[] = {
    { 0x01a0, 1, 4, M_STORE, "DMA_GLOBAL" },
    { 0x01a4, 1, 4, M_STORE, "DMA_QUERY" },
    { 0x01b8, 1, 4, M_STORE, "DMA_LOCAL" },
    { 0x01bc, 1, 4, M_NO_EFFECT, "DMA_STACK" },
    { 0x01c0, 1, 4, M_STORE, "DMA_CODE_CB" },
    { 0x01c4, 1, 4, M_STORE, "DMA_TSC" },
    { 0x01c8, 1, 4, M_STORE, "DMA_TIC" },
    { 0x01cc, 1, 4, M_STORE, "DMA_TEXTURE" },
    { 0x0200, 4, 4, M_UNIMP, "UNK0200" },
    { 0x0210, 1, 4, M_STORE, "CP_ADDRESS_HIGH" },
    { 0x0214, 1, 4, M_STORE, "CP_ADDRESS_LOW" },
    /* the call/return stack lives in the warp state (target/tesla) */
    { 0x0218, 1, 4, M_NO_EFFECT, "STACK_ADDRESS_HIGH" },
    { 0x021c, 1, 4, M_NO_EFFECT, "STACK_ADDRESS_LOW" },
    { 0x0220, 1, 4, M_NO_EFFECT, "STACK_SIZE_LOG" },
    { 0x0224, 1, 4, M_UNIMP, "CALL_LIMIT_LOG" },
    { 0x0228, 1, 4, M_UNIMP, "UNK0228" },
    { 0x022c, 1, 4, M_STORE, "TSC_ADDRESS_HIGH" },
    { 0x0230, 1, 4, M_STORE, "TSC_ADDRESS_LOW" },
    { 0x0234, 1, 4, M_STORE, "TSC_LIMIT" },
    /* no texture, code or constant caches are modelled */
    { 0x027c, 1, 4, M_NO_EFFECT, "TSC_FLUSH" },
    { 0x0280, 1, 4, M_NO_EFFECT, "TIC_FLUSH" },
    { 0x0284, 1, 4, M_NO_EFFECT, "DELAY1" },
    { 0x0288, 1, 4, M_UNIMP, "WATCHDOG_TIMER" },
    { 0x028c, 1, 4, M_NO_EFFECT, "DELAY2" },
    { 0x0290, 1, 4, M_UNIMP, "UNK0290" },
    /* l[] is host memory (tpc.c) */
    { 0x0294, 1, 4, M_NO_EFFECT, "LOCAL_ADDRESS_HIGH" },
    { 0x0298, 1, 4, M_NO_EFFECT, "LOCAL_ADDRESS_LOW" },
    { 0x029c, 1, 4, M_STORE, "LOCAL_SIZE_LOG" },
    { 0x02a0, 1, 4, M_UNIMP, "UNK02A0" },
    { 0x02a4, 1, 4, M_STORE, "CB_DEF_ADDRESS_HIGH" },
    { 0x02a8, 1, 4, M_STORE, "CB_DEF_ADDRESS_LOW" },
    { 0x02b0, 1, 4, M_UNIMP, "UNK02B0" },
    { 0x02b4, 1, 4, M_STORE, "BLOCK_ALLOC" },
    { 0x02b8, 1, 4, M_STORE, "LANES32_ENABLE" },
    { 0x02bc, 1, 4, M_UNIMP, "UNK02BC" },
    { 0x02c0, 1, 4, M_STORE, "CP_REG_ALLOC_TEMP" },
    { 0x02c4, 1, 4, M_STORE, "TIC_ADDRESS_HIGH" },
    { 0x02c8, 1, 4, M_STORE, "TIC_ADDRESS_LOW" },
    { 0x02cc, 1, 4, M_STORE, "TIC_LIMIT" },
    { 0x02d0, 4, 4, M_UNIMP, "MP_PM_SET" },
    { 0x02e0, 4, 4, M_UNIMP, "MP_PM_CONTROL" },
    { 0x02f0, 1, 4, M_UNIMP, "MP_PM_OVERFLOW_TRAP_ENABLE" },
    { 0x02f4, 1, 4, M_UNIMP, "UNK02F4" },
    /* UNVERIFIED: a launch without the latch is not refused */
    { 0x02f8, 1, 4, M_NO_EFFECT, "BLOCKDIM_LATCH" },
    { 0x02fc, 1, 4, M_NO_EFFECT, "LOCAL_WARPS_LOG_ALLOC" },
    { 0x0300, 1, 4, M_NO_EFFECT, "LOCAL_WARPS_NO_CLAMP" },
    { 0x0304, 1, 4, M_NO_EFFECT, "STACK_WARPS_LOG_ALLOC" },
    { 0x0308, 1, 4, M_NO_EFFECT, "STACK_WARPS_NO_CLAMP" },
    { 0x030c, 1, 4, M_UNIMP, "UNK030C" },
    { 0x0310, 1, 4, M_STORE, "QUERY_ADDRESS_HIGH" },
    { 0x0314, 1, 4, M_STORE, "QUERY_ADDRESS_LOW" },
    { 0x0318, 1, 4, M_STORE, "QUERY_SEQUENCE" },
    { 0x0320, 1, 4, M_STORE, "COND_ADDRESS_HIGH" },
    { 0x0324, 1, 4, M_STORE, "COND_ADDRESS_LOW" },
    { 0x032c, 1, 4, M_UNIMP, "UNK032C" },
    { 0x0330, 1, 4, M_UNIMP, "UNK0330" },
    { 0x0334, 3, 4, M_UNIMP, "UNK0334" },
    { 0x0340, 2, 4, M_UNIMP, "UNK0340" },
    { 0x0348, 2, 4, M_UNIMP, "UNK0348" },
    { 0x0350, 2, 4, M_UNIMP, "UNK0350" },
    { 0x0358, 1, 4, M_UNIMP, "UNK0358" },
    { 0x035c, 1, 4, M_UNIMP, "UNK035C" },
    { 0x0360, 1, 4, M_UNIMP, "UNK0360" },
    { 0x0364, 1, 4, M_UNIMP, "UNK0364" },
    { 0x036c, 1, 4, M_UNIMP, "UNK036C" },
    { 0x0370, 1, 4, M_UNIMP, "UNK0370" },
    { 0x0374, 1, 4, M_STORE, "USER_PARAM_COUNT" },
    { 0x0378, 1, 4, M_STORE, "LINKED_TSC" },
    { 0x0380, 1, 4, M_NO_EFFECT, "CODE_CB_FLUSH" },
    { 0x0384, 1, 4, M_UNIMP, "UNK0384" },
    { 0x0388, 1, 4, M_STORE, "GRIDID" },
    { 0x038c, 3, 4, M_UNIMP, "UNK038C" },
    { 0x0398, 1, 4, M_NO_EFFECT, "WRCACHE_FLUSH" },
    { 0x039c, 2, 4, M_UNIMP, "UNK039C" },
    { 0x03a4, 1, 4, M_STORE, "GRIDDIM" },
    { 0x03ac, 1, 4, M_STORE, "BLOCKDIM_XY" },
    { 0x03b0, 1, 4, M_STORE, "BLOCKDIM_Z" },
    { 0x03b4, 1, 4, M_STORE, "CP_START_ID" },
    /* register layout in the MP's file: invisible to a program */
    { 0x03b8, 1, 4, M_NO_EFFECT, "REG_MODE" },
    { 0x03bc, 1, 4, M_STORE, "TEX_LIMITS" },
    { 0x03c0, 1, 4, M_STORE, "BIND_TSC" },
    { 0x03c4, 1, 4, M_STORE, "BIND_TIC" },
    { 0x03cc, 1, 4, M_UNIMP, "UNK03CC" },
    { 0x03d0, 1, 4, M_NO_EFFECT, "TEX_CACHE_CTL" },
    { 0x03d4, 5, 4, M_UNIMP, "UNK03D4" },
    { 0x0400, 16, 0x20, M_STORE, "GLOBAL_ADDRESS_HIGH" },
    { 0x0404, 16, 0x20, M_STORE, "GLOBAL_ADDRESS_LOW" },
    { 0x0408, 16, 0x20, M_STORE, "GLOBAL_PITCH" },
    { 0x040c, 16, 0x20, M_STORE, "GLOBAL_LIMIT" },
    { 0x0410, 16, 0x20, M_STORE, "GLOBAL_MODE" },
    { 0x0600, 64, 4, M_STORE, "USER_PARAM" },
};

typedef struct NV50ComputeState {
    NV50GrNotify notify;        /* first, as gr.h asks */
    /* last data of each method, but for the shared state's (gr.h) */
    uint32_t m[NV50_COMPUTE_MTHD_END / 4];
    NV50CpLaunch *launch;       /* the launch being built (big) */
    NV50CpResult last;          /* how the last launch ended */
    TeslaRun *runs[NV50_MPS];   /* each MP's, kept across launches */
} NV50ComputeState;

#define M(st, mthd) ((st)->m[(mthd) / 4])

static uint64_t addr64(NV50ComputeState *st, uint32_t high_mthd)
{
    return (uint64_t)(M(st, high_mthd) & 0xff) << 32 |
           M(st, high_mthd + 4);
}

static void compute_init(void *opaque)
{
    NV50ComputeState *st = opaque;

    M(st, NV50_COMPUTE_BLOCKDIM_XY) = 0x00010001;
    M(st, NV50_COMPUTE_BLOCKDIM_Z) = 1;
    M(st, NV50_COMPUTE_GRIDDIM) = 0x00010001;
    M(st, NV50_COMPUTE_LANES32_ENABLE) = 1;     /* UNVERIFIED default */
    st->launch = g_new0(NV50CpLaunch, 1);
}

static void compute_fini(void *opaque)
{
    NV50ComputeState *st = opaque;

    g_clear_pointer(&st->launch, g_free);
    for (unsigned i = 0; i < NV50_MPS; i++) {
        g_clear_pointer(&st->runs[i], tesla_run_free);
    }
}

static const CpMthd *mthd_find(uint32_t mthd)
{
    for (size_t i = 0; i < ARRAY_SIZE(cp_mthds); i++) {
        const CpMthd *d = &cp_mthds[i];

        if (mthd >= d->mthd && mthd < d->mthd + d->count * d->stride &&
            (mthd - d->mthd) % d->stride == 0) {
            return d;
        }
    }
    return NULL;
}

/* A window in the DMA object bound at @dma_mthd (0: the VM). */
static NV50CpSpace space(NV50ComputeState *st, uint32_t dma_mthd,
                         uint64_t base, uint64_t size)
{
    NV50CpSpace sp = { .dma = M(st, dma_mthd), .base = base, .size = size };

    return sp;
}

/* --- what compute shares with 3D (gr.h NV50GrShared) ------------------ */

/*
 * A method of the shared state: done, and true (the state lives in
 * c->ctx->shared, not in m[]).
 */
static bool shared_method(NV50GrCall *c, NV50ComputeState *st,
                          uint32_t mthd, uint32_t data)
{
    NV50GrShared *sh = &c->ctx->shared;

    switch (mthd) {
    case NV50_COMPUTE_DMA_CODE_CB:
        sh->dma_code_cb = data;
        return true;
    case NV50_COMPUTE_DMA_TSC:
        sh->dma_tsc = data;
        return true;
    case NV50_COMPUTE_DMA_TIC:
        sh->dma_tic = data;
        return true;
    case NV50_COMPUTE_DMA_TEXTURE:
        sh->dma_texture = data;
        return true;
    case NV50_COMPUTE_CP_ADDRESS_HIGH:
    case NV50_COMPUTE_CP_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->code[NV50_GR_PROG_CP],
                         mthd == NV50_COMPUTE_CP_ADDRESS_HIGH, data);
        return true;
    case NV50_COMPUTE_CB_ADDR:
        sh->cb_addr = data;
        return true;
    case NV50_COMPUTE_CB_DATA(0) ... NV50_COMPUTE_CB_DATA(15):
        nv50_gr_cb_data(c, "G80_COMPUTE", data);
        return true;
    case NV50_COMPUTE_CB_DEF_SET:
        if (data & ~0x007fffffu) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE, "CB_DEF_SET 0x%08x",
                          data);
            return true;
        }
        nv50_gr_cb_def_set(c, addr64(st, NV50_COMPUTE_CB_DEF_ADDRESS_HIGH),
                           data);
        return true;
    case NV50_COMPUTE_SET_PROGRAM_CB:
        nv50_gr_set_program_cb(c, NV50_GR_PROG_CP, data);
        return true;
    case NV50_COMPUTE_TSC_ADDRESS_HIGH:
    case NV50_COMPUTE_TSC_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->tsc_addr,
                         mthd == NV50_COMPUTE_TSC_ADDRESS_HIGH, data);
        return true;
    case NV50_COMPUTE_TSC_LIMIT:
        sh->tsc_limit = data;
        return true;
    case NV50_COMPUTE_TIC_ADDRESS_HIGH:
    case NV50_COMPUTE_TIC_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->tic_addr,
                         mthd == NV50_COMPUTE_TIC_ADDRESS_HIGH, data);
        return true;
    case NV50_COMPUTE_TIC_LIMIT:
        sh->tic_limit = data;
        return true;
    case NV50_COMPUTE_LINKED_TSC:
        sh->linked_tsc = data;
        return true;
    case NV50_COMPUTE_TEX_LIMITS:
        sh->tex_limits[NV50_GR_PROG_CP] = data;
        return true;
    case NV50_COMPUTE_BIND_TSC:
        nv50_gr_bind_tsc(c, NV50_GR_PROG_CP, data);
        return true;
    case NV50_COMPUTE_BIND_TIC:
        nv50_gr_bind_tic(c, NV50_GR_PROG_CP, data);
        return true;
    }
    return false;
}

/* --- queries ------------------------------------------------------------- */

static void query_get(NV50GrCall *c, NV50ComputeState *st, uint32_t data)
{
    uint64_t va = addr64(st, NV50_COMPUTE_QUERY_ADDRESS_HIGH);
    uint64_t t = nv50_gr_timestamp(c);
    uint8_t b[16];
    size_t len = 16;
    bool ok;
    NV50CtxDma d;

    stn_le_p(b, 4, M(st, NV50_COMPUTE_QUERY_SEQUENCE));
    if (data & NV50_COMPUTE_QUERY_GET_SHORT) {
        len = 4;
    } else {
        /* UNVERIFIED: compute counts nothing; the value word is 0 */
        stn_le_p(b + 4, 4, 0);
        stn_le_p(b + 8, 4, (uint32_t)t);
        stn_le_p(b + 12, 4, (uint32_t)(t >> 32));
    }
    if (M(st, NV50_COMPUTE_DMA_QUERY)) {
        ok = nv50_gr_ctxdma(c, M(st, NV50_COMPUTE_DMA_QUERY), &d) &&
             nv50_gr_rw(c, &d, va, b, len, true, NV50_VM_CLIENT_DISPATCH,
                        VM_SUBCLIENT_QUERY, NV50_GR_TRAP_DISPATCH);
    } else {
        ok = nv50_gr_vm_rw(c, va, b, len, true, NV50_VM_CLIENT_DISPATCH,
                           VM_SUBCLIENT_QUERY, NV50_GR_TRAP_DISPATCH);
    }
    if (ok && (data & NV50_COMPUTE_QUERY_GET_INTR)) {
        nv50_gr_error(c, NV50_GR_INTR_COMPUTE_QUERY, 0,
                      "QUERY_GET with INTR (sequence 0x%x)",
                      M(st, NV50_COMPUTE_QUERY_SEQUENCE));
    }
}

/* --- launch -------------------------------------------------------------- */

static void build_launch(NV50GrCall *c, NV50ComputeState *st,
                         NV50CpLaunch *l)
{
    const NV50GrShared *sh = &c->ctx->shared;
    uint32_t lsl = M(st, NV50_COMPUTE_LOCAL_SIZE_LOG);

    memset(l, 0, sizeof(*l));
    l->code = (NV50CpSpace) {
        .dma = sh->dma_code_cb,
        .base = sh->code[NV50_GR_PROG_CP],
        .size = CP_CODE_SEGMENT,
    };
    l->entry = M(st, NV50_COMPUTE_CP_START_ID) & (CP_CODE_SEGMENT - 1);
    l->gprs = MIN(M(st, NV50_COMPUTE_CP_REG_ALLOC_TEMP),
                  (uint32_t)TESLA_MAX_GPRS);
    l->shared_bytes = M(st, NV50_COMPUTE_SHARED_SIZE);
    /* log2(bytes / 8), 0: no l[] (rnndb); Mesa's 64 KiB is 0xd */
    l->local_bytes = lsl ? MIN(8u << MIN(lsl, 13u), 0x10000u) : 0;
    l->block[0] = M(st, NV50_COMPUTE_BLOCKDIM_XY) & 0xffff;
    l->block[1] = M(st, NV50_COMPUTE_BLOCKDIM_XY) >> 16;
    l->block[2] = M(st, NV50_COMPUTE_BLOCKDIM_Z);
    l->grid[0] = M(st, NV50_COMPUTE_GRIDDIM) & 0xffff;
    l->grid[1] = M(st, NV50_COMPUTE_GRIDDIM) >> 16;
    l->gridid = M(st, NV50_COMPUTE_GRIDID);
    l->user_params = MIN((M(st, NV50_COMPUTE_USER_PARAM_COUNT) >> 8) & 0xff,
                         64u);
    for (unsigned i = 0; i < l->user_params; i++) {
        l->user_param[i] = M(st, NV50_COMPUTE_USER_PARAM(i));
    }
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        const NV50GrCb *cb = nv50_gr_prog_cb(sh, NV50_GR_PROG_CP, i);

        if (cb) {
            l->c[i] = (NV50CpSpace) {
                .dma = sh->dma_code_cb, .base = cb->addr, .size = cb->size,
            };
        }
    }
    for (unsigned i = 0; i < TESLA_NUM_GSPACES; i++) {
        uint32_t g = NV50_COMPUTE_GLOBAL(i);
        uint32_t limit = M(st, g + NV50_COMPUTE_GLOBAL_LIMIT);
        uint32_t mode = M(st, g + NV50_COMPUTE_GLOBAL_MODE);
        uint64_t size = (uint64_t)limit + 1;

        if (!(mode & NV50_COMPUTE_GLOBAL_MODE_LINEAR)) {
            gemu_log_once(LOG_UNIMP, "nv50-cp-gmode", i, "nv50: G80_COMPUTE "
                          "GLOBAL_MODE 0x%x of g%u: block-linear surfaces "
                          "are unimplemented (taken as pitch-linear)\n",
                          mode, i);
            size = (uint64_t)M(st, g + NV50_COMPUTE_GLOBAL_PITCH) *
                   ((limit >> 16) + 1);
        }
        l->g[i] = space(st, NV50_COMPUTE_DMA_GLOBAL,
                        addr64(st, g + NV50_COMPUTE_GLOBAL_ADDRESS_HIGH),
                        size);
    }
    l->mul_zero_wins = M(st, NV50_COMPUTE_ISA_FLAGS) & (1u << 16);
}

static void launch(NV50GrCall *c, NV50ComputeState *st)
{
    NV50CpLaunch *l = st->launch;
    uint64_t threads;
    uint32_t alloc = M(st, NV50_COMPUTE_BLOCK_ALLOC) & 0xffff;

    build_launch(c, st, l);
    threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!threads || threads > CP_MAX_THREADS || l->block[2] > 64) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_VALUE,
                      "LAUNCH: block %ux%ux%u", l->block[0], l->block[1],
                      l->block[2]);
        return;
    }
    if (alloc > threads) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_CP_BLOCK_SIZE_MISMATCH,
                      "LAUNCH: BLOCK_ALLOC %u threads, block of %" PRIu64,
                      alloc, threads);
        return;
    }
    if (alloc && alloc < threads) {
        /* UNVERIFIED: the hardware leaves the last tids out */
        gemu_log_once(LOG_UNIMP, "nv50-cp-alloc", 0, "nv50: G80_COMPUTE "
                      "BLOCK_ALLOC below the block size: every thread "
                      "runs\n");
    }
    if (!M(st, NV50_COMPUTE_LANES32_ENABLE)) {
        gemu_log_once(LOG_UNIMP, "nv50-cp-lanes", 0, "nv50: G80_COMPUTE "
                      "LANES32_ENABLE 0 (16-lane warps) unimplemented\n");
    }
    if (l->mul_zero_wins) {
        gemu_log_once(LOG_UNIMP, "nv50-cp-isa", 0, "nv50: G80_COMPUTE "
                      "ISA_FLAGS.MUL_ZERO_WINS unimplemented\n");
    }
    if (!l->grid[0] || !l->grid[1]) {
        return;                 /* UNVERIFIED: an empty grid runs nothing */
    }
    nv50_tpc_launch(c, l, &st->last, st->runs);
}

/* --- dispatch ------------------------------------------------------------ */

static bool compute_method(NV50GrCall *c, void *opaque, uint32_t mthd,
                           uint32_t data)
{
    NV50ComputeState *st = opaque;
    const CpMthd *d;

    if (nv50_gr_common_method(c, &st->notify, mthd, data)) {
        goto done;
    }
    if (mthd >= NV50_COMPUTE_MTHD_END) {
        return false;
    }
    switch (mthd) {
    case NV50_COMPUTE_CB_ADDR:
    case NV50_COMPUTE_CB_DATA(0) ... NV50_COMPUTE_CB_DATA(15):
    case NV50_COMPUTE_CB_DEF_SET:
    case NV50_COMPUTE_SET_PROGRAM_CB:
        shared_method(c, st, mthd, data);
        goto done;
    case NV50_COMPUTE_SHARED_SIZE:
        if (data > 0x4000 || (data & 0x3f)) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          data > 0x4000 ? NV50_GR_DERR_INVALID_VALUE
                                        : NV50_GR_DERR_INVALID_ALIGNMENT,
                          "SHARED_SIZE 0x%x", data);
            goto done;
        }
        M(st, mthd) = data;
        goto done;
    case NV50_COMPUTE_QUERY_GET:
        query_get(c, st, data);
        goto done;
    case NV50_COMPUTE_COND_MODE:
        M(st, mthd) = data;
        if (data != 1) {        /* 1: ALWAYS */
            gemu_log_once(LOG_UNIMP, "nv50-cp-cond", 0, "nv50: G80_COMPUTE "
                          "COND_MODE %u unimplemented (launches always "
                          "run)\n", data);
        }
        goto done;
    case NV50_COMPUTE_LAUNCH:
        launch(c, st);
        goto done;
    }
    d = mthd_find(mthd);
    if (!d) {
        return false;
    }
    if ((mthd >= 0x1a0 && mthd < 0x200) && data &&
        d->kind != M_NO_EFFECT) {
        NV50CtxDma dma;

        /* checked as it is bound; INVALID_OBJECT if not a DMA object */
        if (!nv50_gr_ctxdma(c, data, &dma)) {
            goto done;
        }
    }
    if (!shared_method(c, st, mthd, data)) {
        M(st, mthd) = data;
    }
    if (d->kind == M_UNIMP) {
        gemu_log_once(LOG_UNIMP, "nv50-cp-mthd", mthd, "nv50: G80_COMPUTE "
                      "method %s (0x%04x) unimplemented, data 0x%08x\n",
                      d->name, mthd, data);
    }
done:
    nv50_gr_notify_done(c, &st->notify);
    return true;
}

const NV50GrClass nv50_gr_compute_class = {
    .class_id = 0x50c0,
    .name = "G80_COMPUTE",
    .family = NV50_GR_COMPUTE,
    .state_size = sizeof(NV50ComputeState),
    .init = compute_init,
    .fini = compute_fini,
    .method = compute_method,
};
