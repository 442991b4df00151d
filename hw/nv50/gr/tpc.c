/*
 * The TPC/MP model: a compute launch's blocks run as warps on the Tesla
 * core (target/tesla/exec.h), spread over the G84's 2 TPCs x 2 MPs.
 *
 * - Block b goes to MP b % 4 (TPC (b % 4) / 2, MP b % 2 there).  Each
 *   MP is one TeslaRun over its blocks (block_first/block_step), so
 *   $physid names the TPC and MP; a block's warps run together, bar
 *   syncs them; the MP's blocks run one after another.  UNVERIFIED: the
 *   hardware hands blocks to whichever MP has room and keeps several
 *   resident; no program can tell, short of spinning on another block.
 * - Huge grids run in waves (a few million threads at a time) so the
 *   core's per-thread bookkeeping stays small.
 * - Memory: code, c[] and g[] are read and written through the channel
 *   (context DMA or VM) at the time of the access, each MP with its own
 *   little TLB for the launch, so a warp does not walk page tables per
 *   load.  The code segment is copied once per launch: from its start
 *   up to CODE_WINDOW bytes past the entry, or to the first page after
 *   the entry that does not translate.  l[] and s[] are per-MP host
 *   memory (UNVERIFIED: the hardware keeps l[] at LOCAL_ADDRESS, in a
 *   layout no one documented; only the program itself can see it).
 * - Traps: the first trap ends the launch (UNVERIFIED: the hardware
 *   stops the MP and leaves the rest to the trap handler, which on nvkm
 *   resets PGRAPH's state).  It is reported as PGRAPH TRAP_MP: MPC TRAP
 *   (0x408314 + tp << 12) bit 16 + mp, or a LOCAL/GLOBAL_LIMIT bit, the
 *   MP's ERROR_CODE (+0x14), DECODE_ERROR with the pc and warp (+0x20,
 *   +0x24) and OPCODE (+0x70) at 0x408200 + tp << 12 + mp << 7: the
 *   words nvkm's nv50_gr_mp_trap prints.  A page fault also goes to
 *   PFB's VM trap.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "tpc.h"
#include "texture.h"

/* Code bytes copied past the entry point. */
#define CODE_WINDOW         0x40000u
/* Threads of one wave: blocks beyond run in the next wave. */
#define WAVE_THREADS        (1u << 22)
#define TLB_ENTRIES         64

/* PFB VM trap clients of PGRAPH (nvkm fb/nv50.c vm_client) */
#define VM_CLIENT_CCACHE    0x5
#define VM_SUBCLIENT_CB     0x0
#define VM_SUBCLIENT_LOCAL  0x9
#define VM_SUBCLIENT_GLOBAL 0xa

#define TPC_REG_BASE        0x408000
#define MP_REG(tp, mp, r)   (TPC_REG_BASE + ((tp) << 12) + 0x200 + \
                             ((mp) << 7) + (r))
#define MPC_TRAP(tp)        (TPC_REG_BASE + ((tp) << 12) + 0x314)
#define MP_ERROR_CODE       0x14
#define MP_DECODE_ERROR     0x20
#define MP_DECODE_ERROR_HI  0x24
#define MP_OPCODE           0x70
#define MP_OPCODE_HI        0x74

/* A window resolved for the launch: its context DMA read once. */
typedef struct CpWin {
    bool has_dma;
    NV50CtxDma d;
    uint64_t base, size;
} CpWin;


typedef struct TpcLaunch TpcLaunch;

/* One MP for the launch: what its memory callbacks need. */
typedef struct TpcMp {
    TpcLaunch *L;
    unsigned tp, mp;
    NV50TlbEntry tlb[TLB_ENTRIES];
    /* the g[] access that made the core trap */
    bool g_fault;
    bool g_limit;               /* over GLOBAL_LIMIT, not a page fault */
    NV50Fault fault;
} TpcMp;

struct TpcLaunch {
    NV50GrCall *c;
    const NV50CpLaunch *l;
    CpWin code, cw[TESLA_NUM_CSPACES], gw[TESLA_NUM_GSPACES];
    uint32_t *code_words;
    size_t ncode;
    TpcMp mp[NV50_MPS];
};

/* --- memory -------------------------------------------------------------- */

static bool win_resolve(NV50GrCall *c, const NV50CpSpace *sp, CpWin *w)
{
    const char *why;

    w->base = sp->base;
    w->size = sp->size;
    w->has_dma = sp->dma != 0;
    if (!w->has_dma || !sp->size) {
        return true;
    }
    if (!nv50_ctxdma_read(c->s, c->ctx->inst + ((uint64_t)sp->dma << 4),
                          &w->d, &why)) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_OBJECT, "DMA object at 0x%x: %s",
                      sp->dma << 4, why);
        return false;
    }
    return true;
}

bool nv50_tlb_rw(NV50GrCall *c, NV50TlbEntry *tlb, unsigned entries,
                 uint64_t va, void *buf, size_t len, bool is_write,
                 NV50Fault *f)
{
    NV50State *s = c->s;
    uint8_t *b = buf;

    while (len) {
        uint64_t vp = va >> NV50_TLB_PAGE_BITS;
        NV50TlbEntry *e = &tlb[vp % entries];
        size_t n = MIN(len, NV50_TLB_PAGE_SIZE -
                            (va & (NV50_TLB_PAGE_SIZE - 1)));
        uint64_t pa;

        if (e->vpage != vp + 1) {
            NV50Translation t;

            if (!nv50_vm_translate(s, c->ctx->pd, vp << NV50_TLB_PAGE_BITS,
                                   &t)) {
                /* the slow path says why */
                if (!nv50_vm_rw(s, c->ctx->pd, va, b, n, is_write, f)) {
                    return false;
                }
                goto next;
            }
            e->vpage = vp + 1;
            e->phys = t.addr;
            e->target = t.target;
            e->read_only = t.read_only;
        }
        if (is_write && e->read_only) {
            f->reason = NV50_FAULT_PAGE_READ_ONLY;
            f->va = va;
            f->write = true;
            return false;
        }
        pa = e->phys + (va & (NV50_TLB_PAGE_SIZE - 1));
        if (e->target == NV50_TARGET_VRAM && pa + n <= s->vram_size) {
            if (is_write) {
                memcpy(s->vram + pa, b, n);
            } else {
                memcpy(b, s->vram + pa, n);
            }
        } else if (!nv50_phys_rw(s, e->target, pa, b, n, is_write)) {
            f->reason = NV50_FAULT_VRAM_LIMIT;
            f->va = va;
            f->write = is_write;
            return false;
        }
next:
        b += n;
        va += n;
        len -= n;
    }
    return true;
}

/* Access @len bytes at @off of window @w; false with *f on a fault. */
static bool win_rw(NV50GrCall *c, NV50TlbEntry *tlb, const CpWin *w,
                   uint64_t off, void *buf, size_t len, bool is_write,
                   NV50Fault *f)
{
    uint64_t addr = w->base + off;

    f->va = addr;
    f->write = is_write;
    if (off + len > w->size || off + len < off) {
        f->reason = NV50_FAULT_DMAOBJ_LIMIT;
        return false;
    }
    if (w->has_dma) {
        const NV50CtxDma *d = &w->d;
        uint64_t a = d->start + addr;

        if (d->target != NV50_DMA_VM || !tlb) {
            return nv50_ctxdma_rw(c->s, d, c->ctx->pd, addr, buf, len,
                                  is_write, f);
        }
        if (a < d->start || a + len - 1 > d->limit) {
            f->reason = NV50_FAULT_DMAOBJ_LIMIT;
            return false;
        }
        if (is_write && d->read_only) {
            f->reason = NV50_FAULT_PAGE_READ_ONLY;
            return false;
        }
        addr = a;
    }
    if (!tlb) {
        return nv50_vm_rw(c->s, c->ctx->pd, addr, buf, len, is_write, f);
    }
    return nv50_tlb_rw(c, tlb, TLB_ENTRIES, addr, buf, len, is_write, f);
}

bool nv50_cp_space_rw(NV50GrCall *c, const NV50CpSpace *sp, uint64_t off,
                      void *buf, size_t len, bool is_write, NV50Fault *f)
{
    CpWin w = { .base = sp->base, .size = sp->size };
    const char *why;

    if (sp->dma) {
        w.has_dma = true;
        if (!nv50_ctxdma_read(c->s, c->ctx->inst + ((uint64_t)sp->dma << 4),
                              &w.d, &why)) {
            f->reason = NV50_FAULT_NULL_DMAOBJ;
            f->va = sp->base + off;
            f->write = is_write;
            return false;
        }
    }
    return win_rw(c, NULL, &w, off, buf, len, is_write, f);
}

static void report_vm_fault(NV50GrCall *c, unsigned client,
                            unsigned subclient, const NV50Fault *f)
{
    g_mutex_lock(&c->s->eng_lock);
    nv50_vm_report_fault(c->s, NV50_VM_ENGINE_PGRAPH, client, subclient,
                         c->ctx->inst, f);
    g_mutex_unlock(&c->s->eng_lock);
}

/* The core's memory callbacks: c[] and g[] of one MP. */
static bool mp_mem_read(void *opaque, TeslaSpace space, unsigned idx,
                        uint32_t addr, void *buf, unsigned size)
{
    TpcMp *m = opaque;
    TpcLaunch *L = m->L;
    NV50Fault f;

    if (space == TSPACE_C) {
        if (win_rw(L->c, m->tlb, &L->cw[idx & 15], addr, buf, size, false,
                   &f)) {
            return true;
        }
        /* UNVERIFIED: the read gives 0 and the MP goes on */
        if (f.reason != NV50_FAULT_DMAOBJ_LIMIT) {
            report_vm_fault(L->c, VM_CLIENT_CCACHE, VM_SUBCLIENT_CB, &f);
        }
        return false;
    }
    if (space != TSPACE_G) {
        return false;
    }
    if (win_rw(L->c, m->tlb, &L->gw[idx & 15], addr, buf, size, false, &f)) {
        return true;
    }
    m->g_fault = true;
    m->g_limit = f.reason == NV50_FAULT_DMAOBJ_LIMIT;
    m->fault = f;
    return false;
}

static bool mp_mem_write(void *opaque, TeslaSpace space, unsigned idx,
                         uint32_t addr, const void *buf, unsigned size)
{
    TpcMp *m = opaque;
    TpcLaunch *L = m->L;
    NV50Fault f;

    if (space != TSPACE_G) {
        return false;
    }
    if (win_rw(L->c, m->tlb, &L->gw[idx & 15], addr, (void *)buf, size,
               true, &f)) {
        return true;
    }
    m->g_fault = true;
    m->g_limit = f.reason == NV50_FAULT_DMAOBJ_LIMIT;
    m->fault = f;
    return false;
}

/*
 * Copy the code segment: from its start to CODE_WINDOW past the entry.
 * Pages before the entry's that fault read as 0; the first one after
 * it that faults ends the copy.  False if the entry itself faults.
 */
static bool load_code(TpcLaunch *L)
{
    const NV50CpLaunch *l = L->l;
    uint64_t end = MIN((uint64_t)l->entry + CODE_WINDOW, L->code.size);
    uint64_t entry_page = l->entry & ~(uint64_t)(NV50_TLB_PAGE_SIZE - 1);
    uint8_t *b;
    NV50Fault f;

    end &= ~(uint64_t)3;
    if (l->entry >= end) {
        f.reason = NV50_FAULT_DMAOBJ_LIMIT;
        f.va = L->code.base + l->entry;
        f.write = false;
        goto fault;
    }
    L->code_words = g_new0(uint32_t, end / 4);
    b = (uint8_t *)L->code_words;
    for (uint64_t a = 0; a < end; ) {
        uint64_t n = MIN(end - a, NV50_TLB_PAGE_SIZE -
                                  (a & (NV50_TLB_PAGE_SIZE - 1)));

        if (!win_rw(L->c, L->mp[0].tlb, &L->code, a, b + a, n, false, &f)) {
            if (a < entry_page) {
                memset(b + a, 0, n);
            } else if (a == entry_page) {
                goto fault;
            } else {
                end = a;
                break;
            }
        }
        a += n;
    }
    L->ncode = end / 4;
    for (size_t i = 0; i < L->ncode; i++) {
        L->code_words[i] = ldn_le_p(&L->code_words[i], 4);
    }
    return true;

fault:
    if (f.reason != NV50_FAULT_DMAOBJ_LIMIT) {
        report_vm_fault(L->c, VM_CLIENT_CCACHE, VM_SUBCLIENT_CB, &f);
    }
    nv50_gr_trap(L->c, NV50_GR_TRAP_CCACHE, 1, "compute code at 0x%x "
                 "(segment 0x%010" PRIx64 ") cannot be read (%s)",
                 l->entry, L->code.base, nv50_fault_name(f.reason));
    return false;
}

/* --- traps --------------------------------------------------------------- */

static uint32_t *gr_reg(NV50State *s, hwaddr addr)
{
    return &s->pgraph->regs[(addr - 0x400000) >> 2];
}

/* What the hardware would say about a TeslaError, and where. */
static void classify(TpcMp *m, const TeslaResult *r, NV50CpResult *res,
                     uint32_t *decode)
{
    TeslaError e = r->error;
    bool write = g_str_has_prefix(r->msg, "write");

    res->mpc_trap = NV50_MPC_TRAP_MP(m->mp);
    res->mp_error = 0;
    *decode = 0;
    if (e >= TESLA_ERR_RUNTIME && e < TESLA_ERR_MEMORY_FAULT) {
        res->mp_error = 1u << (e - TESLA_ERR_RUNTIME);
    } else if (e >= 0 && e < TESLA_ERR_RUNTIME) {
        res->mp_error = NV50_MP_ERR_DECODE_ERROR;
        *decode = 1u << e;
    } else if (m->g_fault) {
        res->mpc_trap = m->fault.write ? NV50_MPC_TRAP_GLOBAL_LIMIT_WRITE
                                       : NV50_MPC_TRAP_GLOBAL_LIMIT_READ;
    } else if (strstr(r->msg, " at l[") || strstr(r->msg, " at s[")) {
        /* UNVERIFIED: s[] past SHARED_SIZE reported as l[] is */
        res->mpc_trap = write ? NV50_MPC_TRAP_LOCAL_LIMIT_WRITE
                              : NV50_MPC_TRAP_LOCAL_LIMIT_READ;
    } else {
        /* UNVERIFIED: a pc outside the code (or an unbound g[] through
           the core) as an illegal opcode */
        res->mp_error = NV50_MP_ERR_DECODE_ERROR;
        *decode = 1u << TESLA_ERR_ILLEGAL_OPCODE;
    }
}

static void report_trap(TpcLaunch *L, TpcMp *m, const TeslaResult *r,
                        NV50CpResult *res)
{
    NV50GrCall *c = L->c;
    NV50State *s = c->s;
    unsigned tp = m->tp, mp = m->mp;
    uint32_t decode, op[2] = { 0, 0 };
    size_t idx = r->pc / 4;

    classify(m, r, res, &decode);
    if (idx < L->ncode) {
        op[0] = L->code_words[idx];
        op[1] = idx + 1 < L->ncode ? L->code_words[idx + 1] : 0;
    }
    if (m->g_fault && !m->g_limit) {
        report_vm_fault(c, NV50_VM_CLIENT_PROP, VM_SUBCLIENT_GLOBAL,
                        &m->fault);
    }
    g_mutex_lock(&s->eng_lock);
    *gr_reg(s, MP_REG(tp, mp, MP_ERROR_CODE)) = res->mp_error;
    *gr_reg(s, MP_REG(tp, mp, MP_DECODE_ERROR)) = decode;
    *gr_reg(s, MP_REG(tp, mp, MP_DECODE_ERROR_HI)) =
        (r->pc & 0xffffff) | (r->warp & 0x1f) << 24;
    *gr_reg(s, MP_REG(tp, mp, MP_OPCODE)) = op[0];
    *gr_reg(s, MP_REG(tp, mp, MP_OPCODE_HI)) = op[1];
    if (tp) {
        /* nv50_gr_trap() sets TPC 0's word; TPC 1's is ours to set */
        *gr_reg(s, MPC_TRAP(tp)) |= 0x80000000u | res->mpc_trap;
    }
    g_mutex_unlock(&s->eng_lock);
    nv50_gr_trap(c, NV50_GR_TRAP_MP, tp ? 0 : res->mpc_trap,
                 "TP %u MP %u: %s at 0x%06x (block %u warp %u): %s", tp, mp,
                 tesla_error_name(r->error), r->pc, r->block, r->warp,
                 r->msg);
}

/* --- textures ------------------------------------------------------------ */

/*
 * tex instructions: the texture unit (texture.c) with the FP program
 * type's bindings (compute's), no implicit derivatives (texture.rst:
 * only in the FP or with deriv).
 */
static void mp_tex(void *opaque, const TeslaInsn *insn, uint32_t mask,
                   uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                   uint32_t out[4][TESLA_WARP_SIZE])
{
    TpcMp *m = opaque;

    nv50_tex_exec(m->L->c, NV50_GR_PROG_CP, false, insn, mask, coords,
                  ncoords, out);
}

/* --- launch -------------------------------------------------------------- */

static void set_result(NV50CpResult *res, TpcMp *m, const TeslaResult *r)
{
    res->status = r->status;
    res->error = r->error;
    res->tp = m->tp;
    res->mp = m->mp;
    res->block = r->block;
    res->warp = r->warp;
    res->pc = r->pc;
    g_strlcpy(res->msg, r->msg, sizeof(res->msg));
}

/*
 * A bounded launch (nv50_engine_set_insn_budget): the MP's run gets what
 * is left of the budget; false if nothing is.
 */
static bool budget_out(TeslaEnv *env, NV50State *s)
{
    uint64_t left;

    nv50_engine_insn_budget(s, &left);
    env->insn_budget = left;
    return left != 0;
}

/* The budget was used up before this MP's first block: its TIMEOUT. */
static TeslaRunStatus budget_trap(TpcLaunch *L, TpcMp *m,
                                  const TeslaLaunch *tl, NV50CpResult *res)
{
    TeslaResult r = {
        .status = TESLA_RUN_TRAP, .error = TESLA_ERR_TIMEOUT,
        .pc = tl->entry, .block = tl->block_first,
    };

    g_strlcpy(r.msg, "the launches' instruction budget is used up",
              sizeof(r.msg));
    set_result(res, m, &r);
    report_trap(L, m, &r, res);
    g_free(L->code_words);
    return TESLA_RUN_TRAP;
}

TeslaRunStatus nv50_tpc_launch(NV50GrCall *c, const NV50CpLaunch *l,
                               NV50CpResult *res, TeslaRun *runs[NV50_MPS])
{
    g_autofree TpcLaunch *L = g_new0(TpcLaunch, 1);
    NV50CpResult dummy;
    uint32_t params[64];
    uint64_t bt, nblocks, wave;
    TeslaEnv env = { 0 };
    TeslaLaunch tl = { 0 };
    uint64_t budget_left;       /* read again for each MP's run */
    bool budgeted = nv50_engine_insn_budget(c->s, &budget_left);

    if (!res) {
        res = &dummy;
    }
    memset(res, 0, sizeof(*res));
    res->status = TESLA_RUN_TRAP;
    res->error = TESLA_ERR_NONE;
    L->c = c;
    L->l = l;
    if (!win_resolve(c, &l->code, &L->code)) {
        g_strlcpy(res->msg, "bad code DMA object", sizeof(res->msg));
        return TESLA_RUN_TRAP;
    }
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        if (!win_resolve(c, &l->c[i], &L->cw[i]) ||
            !win_resolve(c, &l->g[i], &L->gw[i])) {
            g_strlcpy(res->msg, "bad DMA object", sizeof(res->msg));
            return TESLA_RUN_TRAP;
        }
    }
    for (unsigned i = 0; i < NV50_MPS; i++) {
        L->mp[i].L = L;
        L->mp[i].tp = i / NV50_MPS_PER_TPC;
        L->mp[i].mp = i % NV50_MPS_PER_TPC;
    }
    if (!load_code(L)) {
        g_strlcpy(res->msg, "code fault", sizeof(res->msg));
        g_free(L->code_words);
        return TESLA_RUN_TRAP;
    }

    env.variant = TESLA_G84;
    env.prog = TESLA_PROG_CP;
    env.code = L->code_words;
    env.code_words = L->ncode;
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        env.c[i].size = L->cw[i].size;
    }
    for (unsigned i = 0; i < TESLA_NUM_GSPACES; i++) {
        /* g[] addresses are 32-bit; the window checks GLOBAL_LIMIT */
        env.g[i].size = 1ull << 32;
    }
    env.mem_read = mp_mem_read;
    /* a reset or the channel's teardown abandons the launch (engine.h) */
    env.stop = nv50_engine_abort_flag(c->s);
    env.mem_write = mp_mem_write;
    env.tex = mp_tex;
    env.gprs = MIN(l->gprs, (unsigned)TESLA_MAX_GPRS);
    env.local_bytes = MIN(l->local_bytes, 0x10000u);
    /* at least the header and the USER_PARAMs (0x14, as gemu-shader) */
    env.shared_bytes = MIN(MAX(l->shared_bytes,
                               0x10u + 4 * MAX(l->user_params, 1u)),
                           0x10000u);

    for (unsigned i = 0; i < l->user_params && i < 64; i++) {
        stn_le_p(&params[i], 4, l->user_param[i]);
    }
    tl.block[0] = l->block[0];
    tl.block[1] = l->block[1];
    tl.block[2] = l->block[2];
    tl.grid[0] = l->grid[0];
    tl.grid[1] = l->grid[1];
    tl.grid[2] = 1;
    tl.shared_init = (const uint8_t *)params;
    tl.shared_init_bytes = 4 * MIN(l->user_params, 64u);
    tl.shared_init_addr = 0x10;
    tl.gridid = l->gridid;
    tl.entry = l->entry;
    tl.local_uncleared = true;
    tl.block_step = NV50_MPS;

    bt = (uint64_t)MAX(l->block[0], 1u) * MAX(l->block[1], 1u) *
         MAX(l->block[2], 1u);
    nblocks = (uint64_t)MAX(l->grid[0], 1u) * MAX(l->grid[1], 1u);
    wave = MAX((WAVE_THREADS / bt) & ~(uint64_t)(NV50_MPS - 1),
               (uint64_t)NV50_MPS);

    for (uint64_t w0 = 0; w0 < nblocks; w0 += wave) {
        uint64_t wend = MIN(w0 + wave, nblocks);

        for (unsigned i = 0; i < NV50_MPS; i++) {
            TpcMp *m = &L->mp[i];
            g_autofree char *err = NULL;
            const TeslaResult *r;
            TeslaRun *run;

            if (w0 + i >= wend) {
                break;
            }
            env.opaque = m;
            env.tpc_index = m->tp;
            env.mp_index = m->mp;
            tl.block_first = w0 + i;
            tl.block_count = (wend - (w0 + i) + NV50_MPS - 1) / NV50_MPS;
            if (budgeted && !budget_out(&env, c->s)) {
                return budget_trap(L, m, &tl, res);
            }
            if (!runs[i]) {
                runs[i] = tesla_run_alloc();
            }
            run = runs[i];
            if (!tesla_run_renew(run, &env, &tl, &err)) {
                /* the class checked the sizes: only absurd grids get here */
                nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                              NV50_GR_DERR_INVALID_VALUE, "launch: %s", err);
                g_strlcpy(res->msg, err, sizeof(res->msg));
                g_free(L->code_words);
                return TESLA_RUN_TRAP;
            }
            tesla_run_exec(run);
            r = tesla_run_result(run);
            res->insns += r->insns;
            if (budgeted) {
                nv50_engine_insn_charge(c->s, r->insns);
            }
            if (r->status == TESLA_RUN_PAUSED) {
                gemu_log_mask(LOG_GUEST_ERROR, "nv50: compute launch on "
                              "channel %d abandoned (reset or teardown)\n",
                              c->ctx->chid);
                res->status = TESLA_RUN_PAUSED;
                g_free(L->code_words);
                return TESLA_RUN_PAUSED;
            }
            if (r->status != TESLA_RUN_DONE) {
                set_result(res, m, r);
                report_trap(L, m, r, res);
                g_free(L->code_words);
                return TESLA_RUN_TRAP;
            }
        }
    }
    res->status = TESLA_RUN_DONE;
    g_free(L->code_words);
    return TESLA_RUN_DONE;
}
