/*
 * PGRAPH: the graphics engine's registers, interrupts and traps, the
 * per-channel contexts gemu keeps (HLE: nvkm's ctxprog is accepted, not
 * run) and the dispatch of methods to the classes of hw/nv50/gr/.
 *
 * Registers (envytools rnndb graph/g80_pgraph/pgraph.xml, nvkm
 * gr/nv50.c): INTR 0x400100 (W1C) / INTR_EN 0x40013c -> PMC bit 12;
 * TRAP 0x400108 (W1C) / TRAP_EN 0x400138 with one status word per unit
 * (gr.h); DATA_ERROR code 0x400110; the failing method 0x400704
 * (subc << 16 | mthd), data 0x400708, class 0x400814, channel 0x40032c
 * (instance >> 12); STATUS 0x400700 and the unit status words
 * 0x400380-0x400388 (3 bits a unit, 1 = busy) that nvkm polls before a
 * TLB flush; FIFO access 0x400500 bit 0 (clear: no new method starts).
 * The rest is kept as written (nvkm's init values, ctxctl state).
 *
 * Threads: the MMIO side reads and writes these registers holding
 * s->eng_lock; the engine thread runs methods without it and takes it to
 * report errors and traps.  Contexts belong to the engine thread; the
 * MMIO side touches them only with the engine paused.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "gr/gr.h"

#define PGRAPH_BASE             0x400000
#define PGRAPH_SIZE             0x20000

/* the classes gemu models, NULL-terminated (one line per class) */
static const NV50GrClass *const gr_classes[] = {
    &nv50_gr_m2mf_class,
    &nv50_gr_2d_class,
    &nv50_gr_g80_3d_class,
    &nv50_gr_3d_class,
    &nv50_gr_g200_3d_class,
    &nv50_gr_gt215_3d_class,
    &nv50_gr_mcp89_3d_class,
    &nv50_gr_compute_class,
    NULL
};

const NV50GrClass *nv50_gr_class_find(uint16_t class_id)
{
    for (size_t i = 0; gr_classes[i]; i++) {
        if (gr_classes[i]->class_id == class_id) {
            return gr_classes[i];
        }
    }
    return NULL;
}

static inline uint32_t *gr_reg(NV50State *s, hwaddr addr)
{
    return &s->pgraph->regs[(addr - PGRAPH_BASE) >> 2];
}

/* eng_lock held */
static void gr_update_irq(NV50State *s)
{
    nv50_pmc_set_source(s, NV50_INTR_PGRAPH,
                        *gr_reg(s, NV_PGRAPH_INTR) &
                        *gr_reg(s, NV_PGRAPH_INTR_EN));
}

/* The unit status register of a TRAP bit (tp 0 for the TP units). */
static hwaddr trap_status_reg(uint32_t unit)
{
    switch (unit) {
    case NV50_GR_TRAP_DISPATCH:
        return 0x400804;
    case NV50_GR_TRAP_M2MF:
        return 0x406800;
    case NV50_GR_TRAP_VFETCH:
        return 0x400c04;
    case NV50_GR_TRAP_STRMOUT:
        return 0x401800;
    case NV50_GR_TRAP_CCACHE:
        return 0x405018;
    case NV50_GR_TRAP_TEXTURE:
        return 0x408900;
    case NV50_GR_TRAP_MP:
        return 0x408314;
    case NV50_GR_TRAP_PROP:
        return 0x408e08;
    }
    return 0;
}

/* eng_lock held: latch the call's method for nvkm's interrupt handler */
static void gr_latch(NV50GrCall *c, uint32_t intr)
{
    NV50State *s = c->s;

    *gr_reg(s, NV_PGRAPH_TRAPPED_ADDR) = c->subc << 16 | (c->mthd & 0x1ffc);
    *gr_reg(s, NV_PGRAPH_TRAPPED_DATA) = c->data;
    *gr_reg(s, NV_PGRAPH_CLASS) = c->class_id;
    *gr_reg(s, NV_PGRAPH_CTXCTL_CUR) = 0x80000000u |
                                       (uint32_t)(c->ctx->inst >> 12);
    *gr_reg(s, NV_PGRAPH_INTR) |= intr;
    gr_update_irq(s);
}

void nv50_gr_error(NV50GrCall *c, uint32_t intr, uint32_t code,
                   const char *fmt, ...)
{
    g_autofree char *why = NULL;
    va_list ap;

    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: PGRAPH ch %d subc %u class "
                  "0x%04x mthd 0x%04x data 0x%08x: %s\n", c->ctx->chid,
                  c->subc, c->class_id, c->mthd, c->data, why);
    g_mutex_lock(&c->s->eng_lock);
    if (intr == NV50_GR_INTR_DATA_ERROR) {
        *gr_reg(c->s, NV_PGRAPH_DATA_ERROR) = code;
    }
    gr_latch(c, intr);
    g_mutex_unlock(&c->s->eng_lock);
}

void nv50_gr_trap(NV50GrCall *c, uint32_t unit, uint32_t ustatus,
                  const char *fmt, ...)
{
    NV50State *s = c->s;
    g_autofree char *why = NULL;
    hwaddr reg = trap_status_reg(unit);
    va_list ap;

    va_start(ap, fmt);
    why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: PGRAPH TRAP 0x%03x ch %d class "
                  "0x%04x mthd 0x%04x: %s\n", unit, c->ctx->chid,
                  c->class_id, c->mthd, why);
    g_mutex_lock(&s->eng_lock);
    if (reg) {
        *gr_reg(s, reg) |= 0x80000000u | (ustatus & 0x7fffffff);
    }
    *gr_reg(s, NV_PGRAPH_TRAP) |= unit;
    gr_latch(c, NV50_GR_INTR_TRAP);
    g_mutex_unlock(&s->eng_lock);
}

bool nv50_gr_ctxdma(NV50GrCall *c, uint32_t ofs, NV50CtxDma *d)
{
    const char *why;

    if (!ofs) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_OBJECT, "no DMA object bound");
        return false;
    }
    if (!nv50_ctxdma_read(c->s, c->ctx->inst + ((uint64_t)ofs << 4), d,
                          &why)) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_OBJECT, "object at 0x%x: %s",
                      ofs << 4, why);
        return false;
    }
    return true;
}

/*
 * The unit status word of a memory fault: M2MF says which of its
 * streams faulted (nvkm's nv50_gr_trap_m2mf: bit 0 NOTIFY, 1 IN, 2 OUT);
 * UNVERIFIED: the other units get bit 0.
 */
static uint32_t fault_ustatus(uint32_t trap_unit, unsigned subclient)
{
    if (trap_unit == NV50_GR_TRAP_M2MF) {
        switch (subclient) {
        case NV50_VM_SUBCLIENT_M2M_IN:
            return 2;
        case NV50_VM_SUBCLIENT_M2M_OUT:
            return 4;
        default:
            return 1;
        }
    }
    return 1;
}

static void gr_fault(NV50GrCall *c, const NV50Fault *f, unsigned client,
                     unsigned subclient, uint32_t trap_unit)
{
    g_mutex_lock(&c->s->eng_lock);
    nv50_vm_report_fault(c->s, NV50_VM_ENGINE_PGRAPH, client, subclient,
                         c->ctx->inst, f);
    g_mutex_unlock(&c->s->eng_lock);
    nv50_gr_trap(c, trap_unit, fault_ustatus(trap_unit, subclient),
                 "%s at 0x%010" PRIx64 " faults (%s)",
                 f->write ? "write" : "read", f->va,
                 nv50_fault_name(f->reason));
}

bool nv50_gr_rw(NV50GrCall *c, const NV50CtxDma *d, uint64_t off,
                void *buf, size_t len, bool is_write, unsigned client,
                unsigned subclient, uint32_t trap_unit)
{
    NV50Fault f;

    if (nv50_ctxdma_rw(c->s, d, c->ctx->pd, off, buf, len, is_write, &f)) {
        return true;
    }
    gr_fault(c, &f, client, subclient, trap_unit);
    return false;
}

bool nv50_gr_vm_rw(NV50GrCall *c, uint64_t va, void *buf, size_t len,
                   bool is_write, unsigned client, unsigned subclient,
                   uint32_t trap_unit)
{
    NV50Fault f;

    if (nv50_vm_rw(c->s, c->ctx->pd, va, buf, len, is_write, &f)) {
        return true;
    }
    gr_fault(c, &f, client, subclient, trap_unit);
    return false;
}

uint64_t nv50_gr_timestamp(NV50GrCall *c)
{
    return nv50_ptimer_peek(c->s);
}

bool nv50_gr_common_method(NV50GrCall *c, NV50GrNotify *n, uint32_t mthd,
                           uint32_t data)
{
    switch (mthd) {
    case NV50_GR_MTHD_NOP:
    case NV50_GR_MTHD_WAIT_FOR_IDLE:
        /* methods run in order, each to its end: always idle here */
        return true;
    case NV50_GR_MTHD_PM_TRIGGER:
        gemu_log_once(LOG_UNIMP, "nv50-gr-pm", 0, "nv50: PGRAPH "
                      "PM_TRIGGER (performance counters not modelled)\n");
        return true;
    case NV50_GR_MTHD_NOTIFY:
        if (data > 1) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_ENUM, "NOTIFY type %u", data);
            return true;
        }
        if (n->armed) {
            nv50_gr_error(c, NV50_GR_INTR_DOUBLE_NOTIFY, 0,
                          "NOTIFY while a notify is pending");
        }
        n->armed = true;
        n->type = data;
        return true;
    case NV50_GR_MTHD_DMA_NOTIFY:
        n->dma = data;
        return true;
    }
    return false;
}

bool nv50_gr_write_notifier(NV50GrCall *c, uint32_t dma, uint64_t offset,
                            unsigned subclient, uint32_t trap_unit)
{
    NV50CtxDma d;
    uint8_t b[16];
    uint64_t t;

    if (!nv50_gr_ctxdma(c, dma, &d)) {
        return false;
    }
    /* the NV50 notifier: timestamp, return value 0, status 0 (done) */
    t = nv50_gr_timestamp(c);
    stn_le_p(b, 4, (uint32_t)t);
    stn_le_p(b + 4, 4, (uint32_t)(t >> 32));
    stn_le_p(b + 8, 4, 0);
    stn_le_p(b + 12, 4, 0);
    return nv50_gr_rw(c, &d, offset, b, sizeof(b), true,
                      NV50_VM_CLIENT_DISPATCH, subclient, trap_unit);
}

void nv50_gr_notify_done(NV50GrCall *c, NV50GrNotify *n)
{
    if (!n->armed) {
        return;
    }
    n->armed = false;
    if (nv50_gr_write_notifier(c, n->dma, 0, NV50_VM_SUBCLIENT_NOTIFY,
                               NV50_GR_TRAP_DISPATCH) && n->type == 1) {
        g_mutex_lock(&c->s->eng_lock);
        gr_latch(c, NV50_GR_INTR_NOTIFY);
        g_mutex_unlock(&c->s->eng_lock);
    }
}

/* --- contexts and dispatch (engine thread) --- */

static void ctx_free(NV50GrCtx *ctx)
{
    for (int f = 0; f < NV50_GR_FAMILIES; f++) {
        if (!ctx->state[f]) {
            continue;
        }
        for (size_t i = 0; gr_classes[i]; i++) {
            if (gr_classes[i]->family == (NV50GrFamily)f &&
                gr_classes[i]->fini) {
                gr_classes[i]->fini(ctx->state[f]);
                break;
            }
        }
        g_free(ctx->state[f]);
    }
    g_free(ctx);
}

NV50GrCtx *nv50_pgraph_ctx(NV50State *s, int chid, uint64_t inst,
                           uint64_t pd)
{
    NV50GrCtx **slot = &s->pgraph->ctx[chid];

    if (*slot && (*slot)->inst != inst) {
        ctx_free(*slot);
        *slot = NULL;
    }
    if (!*slot) {
        *slot = g_new0(NV50GrCtx, 1);
        (*slot)->chid = chid;
        (*slot)->inst = inst;
    }
    (*slot)->pd = pd;
    return *slot;
}

void nv50_pgraph_ctx_drop(NV50State *s, int chid)
{
    if (s->pgraph->ctx[chid]) {
        ctx_free(s->pgraph->ctx[chid]);
        s->pgraph->ctx[chid] = NULL;
    }
}

static void *family_state(NV50GrCtx *ctx, const NV50GrClass *cls)
{
    void **st = &ctx->state[cls->family];

    if (!*st) {
        *st = g_malloc0(cls->state_size);
        if (cls->init) {
            cls->init(*st);
        }
    }
    return *st;
}

void nv50_pgraph_bind(NV50State *s, NV50GrCtx *ctx, unsigned subc,
                      uint64_t obj)
{
    uint16_t class_id = nv50_object_class(s, obj);
    NV50GrCall c = {
        .s = s, .ctx = ctx, .subc = subc, .class_id = class_id,
        .obj = obj, .mthd = 0, .data = (uint32_t)((obj - ctx->inst) >> 4),
    };

    ctx->subc[subc].obj = obj;
    ctx->subc[subc].class_id = class_id;
    if (!nv50_gr_class_find(class_id)) {
        nv50_gr_error(&c, NV50_GR_INTR_ILLEGAL_CLASS, 0, "class 0x%04x "
                      "is not a PGRAPH class gemu models", class_id);
    }
}

void nv50_pgraph_method(NV50State *s, NV50GrCtx *ctx, unsigned subc,
                        uint32_t mthd, uint32_t data)
{
    NV50GrSubchannel *sc = &ctx->subc[subc];
    const NV50GrClass *cls = nv50_gr_class_find(sc->class_id);
    NV50GrCall c = {
        .s = s, .ctx = ctx, .subc = subc, .class_id = sc->class_id,
        .obj = sc->obj, .mthd = mthd, .data = data,
    };

    if (!sc->obj || !cls) {
        nv50_gr_error(&c, NV50_GR_INTR_ILLEGAL_CLASS, 0, "method on a "
                      "subchannel with %s", sc->obj ? "an unknown class"
                      : "no object");
        return;
    }
    /*
     * STATUS reads @busy on the main thread. Plain stores: the release
     * makes a method's effects visible before a read sees 0, and the
     * fence (a store-store barrier; nothing on x86) keeps 1 visible
     * before any of them; sequentially consistent stores were an xchg
     * each, ~4% of an index-heavy draw.
     */
    __atomic_store_n(&s->pgraph->busy, 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (!cls->method(&c, family_state(ctx, cls), mthd, data)) {
        nv50_gr_error(&c, NV50_GR_INTR_ILLEGAL_MTHD, 0, "%s has no "
                      "method 0x%04x", cls->name, mthd);
    }
    __atomic_store_n(&s->pgraph->busy, 0, __ATOMIC_RELEASE);
}

bool nv50_pgraph_accepting(NV50State *s)
{
    return g_atomic_int_get((gint *)gr_reg(s, NV_PGRAPH_FIFO_ACCESS)) & 1;
}

/* --- MMIO (eng_lock taken here) --- */

void nv50_pgraph_init(NV50State *s)
{
    s->pgraph = g_new0(NV50PGraph, 1);
}

/* engine paused or not running; eng_lock held */
static void pgraph_reset_locked(NV50State *s)
{
    for (int i = 0; i < NV50_FIFO_CHANNELS; i++) {
        nv50_pgraph_ctx_drop(s, i);
    }
    memset(s->pgraph->regs, 0, sizeof(s->pgraph->regs));
    /* UNVERIFIED: FIFO access comes up enabled */
    *gr_reg(s, NV_PGRAPH_FIFO_ACCESS) = 0x00010001;
    gr_update_irq(s);
}

void nv50_pgraph_reset(NV50State *s)
{
    nv50_engine_pause(s, NV50_ENGINE_ANY);
    g_mutex_lock(&s->eng_lock);
    pgraph_reset_locked(s);
    g_mutex_unlock(&s->eng_lock);
    nv50_engine_resume(s);
}

void nv50_pgraph_fini(NV50State *s)
{
    if (s->pgraph) {
        for (int i = 0; i < NV50_FIFO_CHANNELS; i++) {
            nv50_pgraph_ctx_drop(s, i);
        }
        g_clear_pointer(&s->pgraph, g_free);
    }
}

/* a unit's trap status word (the TP units for both of the G84's TPs) */
static bool trap_status(hwaddr addr)
{
    for (uint32_t u = 1; u <= NV50_GR_TRAP_PROP; u <<= 1) {
        hwaddr reg = trap_status_reg(u);

        if (reg && (addr == reg || (reg >= 0x408000 &&
                                    addr == reg + (1 << 12)))) {
            return true;
        }
    }
    return false;
}

/*
 * The TP/MP trap words nvkm's trap handler reads and writes on a G84
 * (nv50_gr_tp_trap, nv50_gr_mp_trap, nv50_gr_prop_trap; chipsets below
 * 0xa0): per TP at 0x408000 + tp << 12 the TEXTURE status 0x900 and its
 * words 0x904-0x910, MPC TRAP 0x314, PROP status 0xe08 and its words
 * 0xe0c-0xe24; per MP at 0x200 + mp << 7 (nvkm looks at up to 4 MPs)
 * the words 0x10, 0x14 (ERROR_CODE), 0x20, 0x24, 0x70, 0x74.
 */
static bool tp_trap_reg(hwaddr addr)
{
    hwaddr off = addr & 0xfff;

    if (addr < 0x408000 || addr >= 0x408000 + (2 << 12) || (addr & 3)) {
        return false;
    }
    if (off == 0x314 || (off >= 0x900 && off <= 0x910) ||
        (off >= 0xe08 && off <= 0xe24)) {
        return true;
    }
    if (off >= 0x200 && off < 0x400) {
        switch (off & 0x7f) {
        case 0x10:
        case 0x14:
        case 0x20:
        case 0x24:
        case 0x70:
        case 0x74:
            return true;
        }
    }
    return false;
}

static bool pgraph_known(hwaddr addr)
{
    switch (addr) {
    case NV_PGRAPH_INTR:
    case NV_PGRAPH_TRAP:
    case NV_PGRAPH_DATA_ERROR:
    case NV_PGRAPH_TRAP_EN:
    case NV_PGRAPH_INTR_EN:
    case NV_PGRAPH_CTXCTL_UCODE_INDEX:
    case NV_PGRAPH_CTXCTL_UCODE_DATA:
    case NV_PGRAPH_CTXCTL_CUR:
    case NV_PGRAPH_VSTATUS0:
    case NV_PGRAPH_VSTATUS1:
    case NV_PGRAPH_VSTATUS2:
    case NV_PGRAPH_FIFO_ACCESS:
    case NV_PGRAPH_STATUS:
    case NV_PGRAPH_TRAPPED_ADDR:
    case NV_PGRAPH_TRAPPED_DATA:
    case NV_PGRAPH_CLASS:
        return true;
    }
    return trap_status(addr) || tp_trap_reg(addr);
}

uint64_t nv50_pgraph_read(NV50State *s, hwaddr addr, unsigned size)
{
    bool busy = g_atomic_int_get(&s->pgraph->busy);
    uint32_t v;

    switch (addr) {
    case NV_PGRAPH_STATUS:
        return busy;                    /* bit 0: PGRAPH busy */
    case NV_PGRAPH_VSTATUS0:
    case NV_PGRAPH_VSTATUS1:
    case NV_PGRAPH_VSTATUS2:
        /* UNVERIFIED: which unit's 3-bit field says busy; nvkm tests any */
        return busy;
    default:
        break;
    }
    if (!pgraph_known(addr)) {
        nv50_unimp(s, addr, false, 0);
    }
    g_mutex_lock(&s->eng_lock);
    v = *gr_reg(s, addr);
    g_mutex_unlock(&s->eng_lock);
    return v;
}

void nv50_pgraph_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size)
{
    uint32_t *r = gr_reg(s, addr);

    if (!pgraph_known(addr)) {
        nv50_unimp(s, addr, true, val);
    }
    g_mutex_lock(&s->eng_lock);
    switch (addr) {
    case NV_PGRAPH_INTR:
    case NV_PGRAPH_TRAP:
        *r &= ~(uint32_t)val;           /* write 1 to clear */
        gr_update_irq(s);
        break;
    case NV_PGRAPH_INTR_EN:
        *r = val;
        gr_update_irq(s);
        break;
    case NV_PGRAPH_CTXCTL_UCODE_DATA:
        /* the ctxprog is accepted, not run: contexts are gemu's own */
        break;
    case NV_PGRAPH_FIFO_ACCESS:
        *r = val;
        if (val & 1) {
            nv50_engine_kick_locked(s);     /* channels waiting for it */
        }
        break;
    case NV_PGRAPH_STATUS:
    case NV_PGRAPH_VSTATUS0:
    case NV_PGRAPH_VSTATUS1:
    case NV_PGRAPH_VSTATUS2:
        break;                          /* read-only */
    default:
        if (trap_status(addr)) {
            /* 0xc0000000 resets the unit's status and enables it */
            *r = val & 0x40000000u;
            break;
        }
        *r = val;
        break;
    }
    g_mutex_unlock(&s->eng_lock);
}
