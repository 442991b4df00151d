/*
 * The 3D object: G80_3D (0x5097), G84_3D (0x8297), G200_3D (0x8397),
 * GT215_3D (0x8597) and MCP89_3D (0x8697), one handler (envytools
 * rnndb graph/g80_3d.xml; what userspace sends: Mesa's nv50 driver).
 *
 * Every method a class has (3d-names.c) is stored as written in
 * NV50Gr3dState.mthd[]; a method the class lacks is refused
 * (ILLEGAL_MTHD).  Methods with effects:
 *
 * - QUERY_ADDRESS_HIGH/LOW, QUERY_SEQUENCE, QUERY_GET: the query
 *   record at QUERY_ADDRESS in DMA_QUERY.  TYPE QUERY writes
 *   {SEQUENCE, value}, TYPE COUNTER {counter, 0}, then the PTIMER
 *   timestamp (64-bit): 16 bytes, or with SHORT only the first word
 *   (Mesa's fence: QUERY/ZERO/SHORT, it reads word 0).  SAMPLECNT and
 *   the counters are what the pipeline counted (3d-draw.c, gp.c,
 *   strmout.c, fp.c), the STRMOUT selects stream output's state
 *   (strmout.c); ZCULL (not modelled) and the UNK counters read 0 or
 *   the value last set, logged once.  MODE SYNC compares word 0 with
 *   SEQUENCE.
 * - The state 3D shares with compute (gr.h NV50GrShared, gr/shared.c)
 *   goes there, not to mthd[]: DMA_CODE_CB, VP/GP/FP_ADDRESS (the code
 *   segments), CB_DEF_SET (the 128-buffer table, at this class's
 *   CB_DEF_ADDRESS), CB_ADDR + CB_DATA[] (a word of buffer
 *   CB_ADDR.BUFFER at word CB_ADDR.ID to memory, ID counting on),
 *   SET_PROGRAM_CB (c[] slots per program type), and the texture state:
 *   DMA_TIC/TSC/TEXTURE, TIC/TSC_ADDRESS and LIMIT, LINKED_TSC,
 *   TEX_LIMITS[], BIND_TIC[]/BIND_TSC[] (what texture.c samples with).
 * - COND_ADDRESS_HIGH/LOW, COND_MODE: stored; nv50_3d_cond_passes()
 *   evaluates them (query records in DMA_QUERY) for draws and clears.
 * - COUNTER_RESET zeroes a counter.
 * - STRMOUT_PARAMS_LATCH: stream output's positions restart (strmout.c).
 * - CLEAR_BUFFERS: nv50_rop_clear() (gr/rop-clear.c) once COND_MODE passes.
 * - Draws (VERTEX_BEGIN/END, VB_ELEMENT_*, VERTEX_BUFFER_*, VERTEX_DATA,
 *   immediate VTX_ATTR_* inside BEGIN/END) are the pipeline's (pipe.h):
 *   3d-draw.c takes them.  DRAW_TFB_BYTES and CLIPID_FILL: accepted
 *   and logged once each, not modelled.
 * - Cache flushes (TIC/TSC/CODE_CB/VERTEX_ARRAY/WRCACHE_FLUSH),
 *   ZCULL_VALIDATE/INVALIDATE, DELAY: nothing to
 *   do, gemu has no caches and runs each method to its end.
 * - The common methods (NOP, NOTIFY, SERIALIZE, PM_TRIGGER,
 *   DMA_NOTIFY) are gr.h's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "3d.h"
#include "draw.h"
#include "msaa.h"
#include "pipe.h"

/* PFB VM trap subclients of DISPATCH (nvkm vm_client) */
#define NV50_VM_SUB_DISPATCH_QUERY 0x2
#define NV50_VM_SUB_DISPATCH_COND  0x3

static inline uint32_t st_get(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

/* a 40-bit address from an ADDRESS_HIGH/ADDRESS_LOW pair */
static uint64_t st_addr(const NV50Gr3dState *st, uint32_t high)
{
    return (uint64_t)(st_get(st, high) & 0xff) << 32 | st_get(st, high + 4);
}

static unsigned class_bit(uint16_t class_id)
{
    switch (class_id) {
    case 0x5097:
        return NV50_3D_G80;
    case 0x8297:
        return NV50_3D_G84;
    case 0x8397:
        return NV50_3D_G200;
    case 0x8597:
        return NV50_3D_GT215;
    case 0x8697:
        return NV50_3D_MCP89;
    }
    return 0;
}

static const char *mthd_name(uint32_t mthd, char *buf, size_t len)
{
    unsigned i;
    const NV50Gr3dMthd *m = nv50_3d_mthd_find(mthd, &i);

    if (!m) {
        snprintf(buf, len, "0x%04x", mthd);
    } else if (m->count > 1) {
        snprintf(buf, len, "%s[%u]", m->name, i);
    } else {
        snprintf(buf, len, "%s", m->name);
    }
    return buf;
}

/* --- queries --- */

static bool query_rw(NV50GrCall *c, NV50Gr3dState *st, uint64_t off,
                     void *buf, size_t len, bool is_write, unsigned sub)
{
    NV50CtxDma d;

    if (!nv50_gr_ctxdma(c, st_get(st, NV50_3D_DMA_QUERY), &d)) {
        return false;
    }
    return nv50_gr_rw(c, &d, off, buf, len, is_write,
                      NV50_VM_CLIENT_DISPATCH, sub, NV50_GR_TRAP_DISPATCH);
}

static void unmodelled(NV50GrCall *c, const char *what)
{
    gemu_log_once(LOG_UNIMP, "nv50-3d-query", (uintptr_t)what,
                  "nv50: 3D QUERY_GET %s: what it counts is not modelled "
                  "(ZCULL, UNK counters), it reads 0 (UNVERIFIED)\n",
                  what);
}

/*
 * The value of a TYPE QUERY select; false (DATA_ERROR raised) if the
 * class has no such select.  *@swap: the value goes to word 0.
 */
static bool query_value(NV50GrCall *c, NV50Gr3dState *st, unsigned sel,
                        unsigned index, uint32_t *val, bool *swap)
{
    bool g200 = class_bit(c->class_id) >= NV50_3D_G200;

    *swap = false;
    switch (sel) {
    case NV50_3D_QUERY_ZERO:
        *val = 0;
        return true;
    case NV50_3D_QUERY_SAMPLECNT:
        *val = st->samplecnt;       /* fp.c: the samples written */
        return true;
    case NV50_3D_QUERY_STRMOUT_NO_OVERFLOW:
        /* UNVERIFIED: since STRMOUT_PARAMS_LATCH */
        *val = !st->strmout_overflow;
        return true;
    case NV50_3D_QUERY_STRMOUT_DROPPED_PRIMITIVES:
        if (!g200) {
            break;
        }
        /* rnndb: the result goes to word 0, SEQUENCE to word 1 */
        *val = st->counter[NV50_3D_COUNTER_GENERATED_PRIMITIVES] -
               st->counter[NV50_3D_COUNTER_TRANSFORM_FEEDBACK];
        *swap = true;
        return true;
    case NV50_3D_QUERY_STRMOUT_VERTICES:
        if (!g200) {
            break;
        }
        *val = st->strmout_vertices;
        return true;
    case NV50_3D_QUERY_ZCULL_STAT0:
    case NV50_3D_QUERY_ZCULL_STAT0 + 1:
    case NV50_3D_QUERY_ZCULL_STAT0 + 2:
    case NV50_3D_QUERY_ZCULL_STAT0 + 3:
        unmodelled(c, "ZCULL_STAT");
        *val = st->zcull_stat[sel - NV50_3D_QUERY_ZCULL_STAT0];
        return true;
    case NV50_3D_QUERY_RT_UNK14:
        if (!g200) {
            break;
        }
        /* UNVERIFIED: what this reads of RT[INDEX] is unknown */
        *val = st_get(st, 0x0214 + index * 32);
        return true;
    case NV50_3D_QUERY_STRMOUT_OFFSET:
        if (!g200 || index >= 4) {
            break;
        }
        *val = st->strmout_offset[index];    /* strmout.c */
        return true;
    }
    nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                  "QUERY_GET QUERY_SELECT 0x%x (UNVERIFIED error)", sel);
    return false;
}

static bool counter_valid(NV50GrCall *c, unsigned sel)
{
    unsigned cls = class_bit(c->class_id);

    if (sel <= NV50_3D_COUNTER_FP_PIXELS) {
        return true;
    }
    if (sel == NV50_3D_COUNTER_UNK0A) {
        return cls >= NV50_3D_G84;
    }
    if (sel == NV50_3D_COUNTER_UNK0C) {
        return cls >= NV50_3D_G200;
    }
    return false;
}

static void query_sync(NV50GrCall *c, NV50Gr3dState *st, uint64_t addr,
                       uint32_t get)
{
    uint32_t seq = st_get(st, NV50_3D_QUERY_SEQUENCE);
    uint8_t b[4];
    uint32_t mem;
    bool met;

    if (!query_rw(c, st, addr, b, 4, false, NV50_VM_SUB_DISPATCH_QUERY)) {
        return;
    }
    mem = (uint32_t)ldn_le_p(b, 4);
    if (get & NV50_3D_QUERY_GET_SYNC_COND_GREATER) {
        met = !(seq > mem);
    } else {
        met = mem == seq;
    }
    if (!met) {
        /*
         * UNVERIFIED: the hardware waits here until the word changes;
         * only another engine or the CPU could change it, and gemu's
         * engine runs one method at a time, so gemu goes on.
         */
        gemu_log_once(LOG_UNIMP, "nv50-3d-sync", 0, "nv50: 3D QUERY_GET "
                      "SYNC: word 0x%08x, sequence 0x%08x: the wait is "
                      "not modelled, continuing\n", mem, seq);
    }
}

static void query_get(NV50GrCall *c, NV50Gr3dState *st, uint32_t get)
{
    unsigned mode = get & NV50_3D_QUERY_GET_MODE_MASK;
    unsigned sel = get >> NV50_3D_QUERY_GET_SELECT_SHIFT & 0xf;
    unsigned index = get >> NV50_3D_QUERY_GET_INDEX_SHIFT & 7;
    uint64_t addr = st_addr(st, NV50_3D_QUERY_ADDRESS_HIGH);
    uint32_t seq = st_get(st, NV50_3D_QUERY_SEQUENCE);
    uint32_t w0, w1, val;
    uint64_t t;
    uint8_t b[16];
    bool swap;

    if (class_bit(c->class_id) < NV50_3D_G200) {
        index = 0;
    }
    if (mode > NV50_3D_QUERY_GET_MODE_WRITE_UNK2) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "QUERY_GET MODE 3 (UNVERIFIED error)");
        return;
    }
    if (mode == NV50_3D_QUERY_GET_MODE_SYNC) {
        query_sync(c, st, addr, get);
        return;
    }
    if (get & NV50_3D_QUERY_GET_TYPE_COUNTER) {
        if (!counter_valid(c, sel)) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_ENUM, "QUERY_GET "
                          "COUNTER_SELECT 0x%x (UNVERIFIED error)", sel);
            return;
        }
        switch (sel) {
        case NV50_3D_COUNTER_UNK0A:
        case NV50_3D_COUNTER_UNK0C:
            unmodelled(c, "COUNTER UNK");
            break;
        }
        /* rnndb: the counter at word 0, zero at word 1 */
        w0 = st->counter[sel];
        w1 = 0;
    } else {
        if (!query_value(c, st, sel, index, &val, &swap)) {
            return;
        }
        w0 = swap ? val : seq;
        w1 = swap ? seq : val;
    }
    if (get & NV50_3D_QUERY_GET_INTR) {
        gemu_log_once(LOG_UNIMP, "nv50-3d-qintr", 0, "nv50: 3D QUERY_GET "
                      "INTR: the interrupt is not modelled (UNVERIFIED)\n");
    }
    t = nv50_gr_timestamp(c);
    stn_le_p(b, 4, w0);
    stn_le_p(b + 4, 4, w1);
    stn_le_p(b + 8, 4, (uint32_t)t);
    stn_le_p(b + 12, 4, (uint32_t)(t >> 32));
    query_rw(c, st, addr, b, (get & NV50_3D_QUERY_GET_SHORT) ? 4 : 16,
             true, NV50_VM_SUB_DISPATCH_QUERY);
}

/* COUNTER_RESET values 0x10-0x1e -> counter[] (-1: not a counter) */
static const int8_t reset_counter[] = {
    [0x10] = NV50_3D_COUNTER_TRANSFORM_FEEDBACK,
    [0x11] = NV50_3D_COUNTER_GENERATED_PRIMITIVES,
    [0x12] = NV50_3D_COUNTER_VFETCH_VERTICES,
    [0x13] = NV50_3D_COUNTER_VFETCH_PRIMITIVES,
    [0x14] = -1,
    [0x15] = NV50_3D_COUNTER_VP_LAUNCHES,
    [0x16 ... 0x19] = -1,
    [0x1a] = NV50_3D_COUNTER_GP_LAUNCHES,
    [0x1b] = NV50_3D_COUNTER_GP_PRIMITIVES_OUT,
    [0x1c] = NV50_3D_COUNTER_RAST_PRIMITIVES_PRECLIP,
    [0x1d] = NV50_3D_COUNTER_RAST_PRIMITIVES_POSTCLIP,
    [0x1e] = NV50_3D_COUNTER_FP_PIXELS,
};

static void counter_reset(NV50GrCall *c, NV50Gr3dState *st, uint32_t what)
{
    if (what == 0x01) {                 /* SAMPLECNT */
        st->samplecnt = 0;
        return;
    }
    if (what == 0x02) {                 /* ZCULL_STATS */
        memset(st->zcull_stat, 0, sizeof(st->zcull_stat));
        return;
    }
    if (what == 0x08 && class_bit(c->class_id) >= NV50_3D_G200) {
        st->strmout_vertices = 0;       /* STRMOUT_VERTICES */
        return;
    }
    if (what >= 0x10 && what < G_N_ELEMENTS(reset_counter) &&
        reset_counter[what] >= 0) {
        st->counter[reset_counter[what]] = 0;
        return;
    }
    /* UNVERIFIED: how the hardware takes a value rnndb does not list */
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: 3D COUNTER_RESET 0x%x is not "
                  "in rnndb, ignored\n", what);
}

/* --- conditional rendering --- */

bool nv50_3d_cond_passes(NV50GrCall *c, NV50Gr3dState *st)
{
    uint32_t mode = st_get(st, NV50_3D_COND_MODE);
    uint64_t addr = st_addr(st, NV50_3D_COND_ADDRESS_HIGH);
    uint8_t b[32];

    switch (mode) {
    case NV50_3D_COND_NEVER:
        return false;
    case NV50_3D_COND_ALWAYS:
        return true;
    case NV50_3D_COND_RES_NON_ZERO:
        /* UNVERIFIED: the result word (word 1) of the record */
        if (!query_rw(c, st, addr, b, 8, false, NV50_VM_SUB_DISPATCH_COND)) {
            return false;
        }
        return (uint32_t)ldn_le_p(b + 4, 4) != 0;
    case NV50_3D_COND_EQUAL:
    case NV50_3D_COND_NOT_EQUAL:
        /*
         * rnndb: two records (at +0 and +16), their words 0 and 1
         * compared; Mesa relies on it (nv50_hw_begin_query seeds them).
         */
        if (!query_rw(c, st, addr, b, 32, false,
                      NV50_VM_SUB_DISPATCH_COND)) {
            return false;
        }
        return (memcmp(b, b + 16, 8) == 0) == (mode == NV50_3D_COND_EQUAL);
    }
    /* UNVERIFIED: what the hardware does with other modes */
    gemu_log_once(LOG_GUEST_ERROR, "nv50-3d-cond", mode, "nv50: 3D "
                  "COND_MODE %u is not a mode; drawing as ALWAYS\n", mode);
    return true;
}

/* --- what 3D shares with compute (gr.h NV50GrShared) --- */

/* SET_PROGRAM_CB.PROGRAM -> NV50_GR_PROG_* (g80_3d.xml), -1: unnamed */
static int program_type(uint32_t data)
{
    switch ((data >> 4) & 0xf) {
    case 0x0:
        return NV50_GR_PROG_VP;
    case 0x2:
        return NV50_GR_PROG_GP;
    case 0x3:
        return NV50_GR_PROG_FP;
    }
    return -1;
}

/*
 * A method of the shared state: done, and true (the state lives in
 * c->ctx->shared, not in mthd[]).
 */
static bool shared_method(NV50GrCall *c, NV50Gr3dState *st, uint32_t mthd,
                          uint32_t data)
{
    NV50GrShared *sh = &c->ctx->shared;
    int prog;

    if (mthd >= NV50_3D_CB_DATA(0) &&
        mthd < NV50_3D_CB_DATA(NV50_3D_CB_DATA__LEN)) {
        nv50_gr_cb_data(c, "3D", data);
        return true;
    }
    if (mthd >= NV50_3D_TEX_LIMITS(0) &&
        mthd < NV50_3D_TEX_LIMITS(NV50_GR_PROGS)) {
        sh->tex_limits[(mthd - NV50_3D_TEX_LIMITS(0)) / 4] = data;
        return true;
    }
    if (mthd >= NV50_3D_BIND_TSC(0) &&
        mthd < NV50_3D_BIND_TSC(NV50_GR_PROGS) &&
        (mthd - NV50_3D_BIND_TSC(0)) % 8 == 0) {
        nv50_gr_bind_tsc(c, (mthd - NV50_3D_BIND_TSC(0)) / 8, data);
        return true;
    }
    if (mthd >= NV50_3D_BIND_TIC(0) &&
        mthd < NV50_3D_BIND_TIC(NV50_GR_PROGS) &&
        (mthd - NV50_3D_BIND_TIC(0)) % 8 == 0) {
        nv50_gr_bind_tic(c, (mthd - NV50_3D_BIND_TIC(0)) / 8, data);
        return true;
    }
    switch (mthd) {
    case NV50_3D_DMA_CODE_CB:
        sh->dma_code_cb = data;
        return true;
    case NV50_3D_DMA_TSC:
        sh->dma_tsc = data;
        return true;
    case NV50_3D_DMA_TIC:
        sh->dma_tic = data;
        return true;
    case NV50_3D_DMA_TEXTURE:
        sh->dma_texture = data;
        return true;
    case NV50_3D_CB_ADDR:
        sh->cb_addr = data;
        return true;
    case NV50_3D_VP_ADDRESS_HIGH:
    case NV50_3D_VP_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->code[NV50_GR_PROG_VP],
                         mthd == NV50_3D_VP_ADDRESS_HIGH, data);
        return true;
    case NV50_3D_GP_ADDRESS_HIGH:
    case NV50_3D_GP_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->code[NV50_GR_PROG_GP],
                         mthd == NV50_3D_GP_ADDRESS_HIGH, data);
        return true;
    case NV50_3D_FP_ADDRESS_HIGH:
    case NV50_3D_FP_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->code[NV50_GR_PROG_FP],
                         mthd == NV50_3D_FP_ADDRESS_HIGH, data);
        return true;
    case NV50_3D_CB_DEF_SET:
        nv50_gr_cb_def_set(c, st_addr(st, NV50_3D_CB_DEF_ADDRESS_HIGH), data);
        return true;
    case NV50_3D_SET_PROGRAM_CB:
        prog = program_type(data);
        if (prog < 0) {
            /* UNVERIFIED: rnndb names no program type 1 */
            gemu_log_once(LOG_UNIMP, "nv50-3d-progcb", 0, "nv50: 3D "
                          "SET_PROGRAM_CB 0x%08x: program type %u is not "
                          "VERTEX, GEOMETRY or FRAGMENT, ignored\n", data,
                          (data >> 4) & 0xf);
            return true;
        }
        nv50_gr_set_program_cb(c, prog, data);
        return true;
    case NV50_3D_LINKED_TSC:
        sh->linked_tsc = data;
        return true;
    case NV50_3D_TSC_ADDRESS_HIGH:
    case NV50_3D_TSC_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->tsc_addr, mthd == NV50_3D_TSC_ADDRESS_HIGH,
                         data);
        return true;
    case NV50_3D_TSC_LIMIT:
        sh->tsc_limit = data;
        return true;
    case NV50_3D_TIC_ADDRESS_HIGH:
    case NV50_3D_TIC_ADDRESS_LOW:
        nv50_gr_addr_set(&sh->tic_addr, mthd == NV50_3D_TIC_ADDRESS_HIGH,
                         data);
        return true;
    case NV50_3D_TIC_LIMIT:
        sh->tic_limit = data;
        return true;
    }
    return false;
}

/* --- draws and clears --- */

/* What the pipeline's front end (3d-draw.c) does not take. */
static bool is_draw(uint32_t mthd)
{
    switch (mthd) {
    case NV50_3D_DRAW_TFB_BYTES:
    case NV50_3D_CLEAR_BUFFERS:
    case 0x19d4:    /* CLIPID_FILL */
        return true;
    }
    return false;
}

static void draw(NV50GrCall *c, NV50Gr3dState *st, uint32_t mthd)
{
    char name[48];

    if (mthd == NV50_3D_CLEAR_BUFFERS) {
        if (!nv50_3d_cond_passes(c, st)) {
            gemu_log_once(LOG_UNIMP, "nv50-3d-cond-skip", mthd, "nv50: 3D "
                          "%s skipped by COND_MODE %u\n",
                          mthd_name(mthd, name, sizeof(name)),
                          st_get(st, NV50_3D_COND_MODE));
            return;
        }
        nv50_rop_clear(c, st, st_get(st, mthd));    /* gr/rop-clear.c */
        return;
    }
    /* UNVERIFIED: stream output and clip IDs are not modelled */
    gemu_log_once(LOG_UNIMP, "nv50-3d-draw", mthd, "nv50: 3D %s accepted: "
                  "not modelled\n", mthd_name(mthd, name, sizeof(name)));
}

/* --- the class --- */

/*
 * A fresh 3D context's methods that are not 0: what nvkm's context image
 * (Linux 6.1 nvkm/engine/gr/ctxnv50.c) starts a channel with, where gemu
 * reads a method Mesa 22.3 may never send (nv50_screen_init_hwctx sets
 * much, but e.g. DEPTH_TEST_FUNC only with the depth test on, the
 * stencil words only with the stencil test on, MSAA_MASK only once GL's
 * sample mask changes).  ctxnv50.c stores these in the hardware's own
 * 3-bit encoding, 0 there being the first of D3D's order: NEVER for a
 * comparison, KEEP for a stencil op (UNVERIFIED: the image's comments
 * name the fields, not the values' meaning); gemu keeps the method
 * values, so they are given as the GL enums Mesa would send.
 */
static const struct {
    uint16_t mthd;
    uint16_t count;             /* consecutive methods */
    uint32_t value;
} ctx_defaults[] = {
    /* UNVERIFIED: a fresh context draws (Mesa sets ALWAYS anyway) */
    { NV50_3D_COND_MODE, 1, NV50_3D_COND_ALWAYS },
    /* ctxnv50.c: every sample enabled */
    { NV50_3D_MSAA_MASK(0), 4, 0xffff },
    /* ctxnv50.c: DEPTH_TEST_FUNC, ALPHA_TEST_FUNC 0 (NEVER) */
    { NV50_3D_DEPTH_TEST_FUNC, 1, NV50_GL_NEVER },
    { NV50_3D_ALPHA_TEST_FUNC, 1, NV50_GL_NEVER },
    /* ctxnv50.c: STENCIL_{FRONT,BACK}_OP_FAIL, ZFAIL, ZPASS 0 (KEEP),
       STENCIL_{FRONT,BACK}_FUNC_FUNC 0 (NEVER) */
    { NV50_3D_STENCIL_FRONT_OP_FAIL, 3, NV50_GL_KEEP },
    { NV50_3D_STENCIL_FRONT_OP_FAIL + NV50_3D_STENCIL_OP_FUNC, 1,
      NV50_GL_NEVER },
    { NV50_3D_STENCIL_BACK_OP_FAIL, 3, NV50_GL_KEEP },
    { NV50_3D_STENCIL_BACK_OP_FAIL + NV50_3D_STENCIL_OP_FUNC, 1,
      NV50_GL_NEVER },
};

static void nv50_3d_init(void *opaque)
{
    NV50Gr3dState *st = opaque;

    for (unsigned i = 0; i < ARRAY_SIZE(ctx_defaults); i++) {
        for (unsigned k = 0; k < ctx_defaults[i].count; k++) {
            st->mthd[(ctx_defaults[i].mthd >> 2) + k] = ctx_defaults[i].value;
        }
    }
}

static void nv50_3d_fini(void *opaque)
{
    NV50Gr3dState *st = opaque;

    nv50_3d_draw_free(st);
    nv50_fp_prog_free(st->fp_prog);
    st->fp_prog = NULL;
    nv50_vp_code_free(st->vp_code);
    st->vp_code = NULL;
    tesla_run_free(st->vp_run);
    st->vp_run = NULL;
    tesla_run_free(st->gp_run);
    st->gp_run = NULL;
    nv50_rop_pool_free(st->rop_pool);
    st->rop_pool = NULL;
}

static bool nv50_3d_method(NV50GrCall *c, void *opaque, uint32_t mthd,
                           uint32_t data)
{
    NV50Gr3dState *st = opaque;
    const NV50Gr3dMthd *m;

    if (nv50_gr_common_method(c, &st->notify, mthd, data)) {
        st->mthd[mthd >> 2] = data;
        return true;
    }
    m = nv50_3d_mthd_find(mthd, NULL);
    if (!m || !(m->classes & class_bit(c->class_id))) {
        return false;
    }
    if (shared_method(c, st, mthd, data)) {
        goto done;
    }
    st->mthd[mthd >> 2] = data;

    if (nv50_3d_draw_method(c, st, mthd, data)) {
        /* a draw method: the front end's (3d-draw.c) */
    } else if (is_draw(mthd)) {
        draw(c, st, mthd);
    } else {
        switch (mthd) {
        case NV50_3D_QUERY_GET:
            query_get(c, st, data);
            break;
        case NV50_3D_COUNTER_RESET:
            counter_reset(c, st, data);
            break;
        case NV50_3D_STRMOUT_PARAMS_LATCH:
            nv50_strmout_latch(c, st);
            break;
        default:
            break;
        }
    }
done:
    nv50_gr_notify_done(c, &st->notify);
    return true;
}

#define NV50_3D_CLASS(id, nm) {                 \
    .class_id = (id),                           \
    .name = (nm),                               \
    .family = NV50_GR_3D,                       \
    .state_size = sizeof(NV50Gr3dState),        \
    .init = nv50_3d_init,                       \
    .fini = nv50_3d_fini,                       \
    .method = nv50_3d_method,                   \
}

const NV50GrClass nv50_gr_g80_3d_class = NV50_3D_CLASS(0x5097, "G80_3D");
const NV50GrClass nv50_gr_3d_class = NV50_3D_CLASS(0x8297, "G84_3D");
const NV50GrClass nv50_gr_g200_3d_class = NV50_3D_CLASS(0x8397, "G200_3D");
const NV50GrClass nv50_gr_gt215_3d_class =
    NV50_3D_CLASS(0x8597, "GT215_3D");
const NV50GrClass nv50_gr_mcp89_3d_class =
    NV50_3D_CLASS(0x8697, "MCP89_3D");
