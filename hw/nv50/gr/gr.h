/*
 * PGRAPH internals shared by pgraph.c (registers, interrupts, traps,
 * contexts, method dispatch) and the class files of hw/nv50/gr/ (one
 * per class family: m2mf.c, 2d.c, compute.c, 3d.c).
 *
 * Contexts are HLE: gemu keeps each channel's PGRAPH state itself
 * (NV50GrCtx), keyed by channel; nvkm's ctxprog and context image are
 * accepted and never run.  Methods run on the card's engine thread
 * (hw/nv50/engine.c): a class's method handler may take its time, and
 * reaches card state only through the services below.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_GR_H
#define HW_NV50_GR_GR_H

#include "hw/nv50/nv50.h"
#include "hw/nv50/object.h"

#define NV50_GR_SUBCHANNELS     8

typedef enum {
    NV50_GR_M2MF,
    NV50_GR_2D,
    NV50_GR_3D,
    NV50_GR_COMPUTE,
    NV50_GR_FAMILIES,
} NV50GrFamily;

/* PGRAPH interrupt bits (0x400100, nvkm nv50_gr_intr_name) */
#define NV50_GR_INTR_NOTIFY         0x00000001u
#define NV50_GR_INTR_COMPUTE_QUERY  0x00000002u
#define NV50_GR_INTR_ILLEGAL_MTHD   0x00000010u
#define NV50_GR_INTR_ILLEGAL_CLASS  0x00000020u
#define NV50_GR_INTR_DOUBLE_NOTIFY  0x00000040u
#define NV50_GR_INTR_BUFFER_NOTIFY  0x00010000u
#define NV50_GR_INTR_DATA_ERROR     0x00100000u
#define NV50_GR_INTR_TRAP           0x00200000u

/* DATA_ERROR codes (0x400110, nvkm nv50_data_error_names) */
#define NV50_GR_DERR_INVALID_OPERATION  0x03
#define NV50_GR_DERR_INVALID_VALUE      0x04
#define NV50_GR_DERR_INVALID_ENUM       0x05
#define NV50_GR_DERR_INVALID_OBJECT     0x08
#define NV50_GR_DERR_INVALID_ALIGNMENT  0x0b
#define NV50_GR_DERR_INVALID_BITFIELD   0x0c
#define NV50_GR_DERR_CP_BLOCK_SIZE_MISMATCH 0x2b
#define NV50_GR_DERR_ENG2D_FORMAT_MISMATCH  0x31

/* TRAP units (0x400108 bits) and their status registers */
#define NV50_GR_TRAP_DISPATCH   0x001u      /* 0x400804 */
#define NV50_GR_TRAP_M2MF       0x002u      /* 0x406800 */
#define NV50_GR_TRAP_VFETCH     0x004u      /* 0x400c04 */
#define NV50_GR_TRAP_STRMOUT    0x008u      /* 0x401800 */
#define NV50_GR_TRAP_CCACHE     0x010u      /* 0x405018 */
#define NV50_GR_TRAP_TEXTURE    0x040u      /* 0x408900 + tp << 12 */
#define NV50_GR_TRAP_MP         0x080u      /* 0x408314 + tp << 12 */
#define NV50_GR_TRAP_PROP       0x100u      /* 0x408e08 + tp << 12 */

/* PGRAPH's registers (rnndb graph/g80_pgraph.xml names) */
#define NV_PGRAPH_INTR          0x400100
#define NV_PGRAPH_TRAP          0x400108
#define NV_PGRAPH_DATA_ERROR    0x400110
#define NV_PGRAPH_TRAP_EN       0x400138
#define NV_PGRAPH_INTR_EN       0x40013c
#define NV_PGRAPH_CTXCTL_UCODE_INDEX 0x400324
#define NV_PGRAPH_CTXCTL_UCODE_DATA  0x400328
#define NV_PGRAPH_CTXCTL_CUR    0x40032c
#define NV_PGRAPH_VSTATUS0      0x400380
#define NV_PGRAPH_VSTATUS1      0x400384
#define NV_PGRAPH_VSTATUS2      0x400388
#define NV_PGRAPH_FIFO_ACCESS   0x400500
#define NV_PGRAPH_STATUS        0x400700
#define NV_PGRAPH_TRAPPED_ADDR  0x400704
#define NV_PGRAPH_TRAPPED_DATA  0x400708
#define NV_PGRAPH_CLASS         0x400814

typedef struct NV50GrSubchannel {
    uint64_t obj;               /* the bound object (VRAM), 0: none */
    uint16_t class_id;
} NV50GrSubchannel;

/*
 * What the 3D and compute objects of a channel share.  On the hardware
 * both classes write one set of PGRAPH registers for these (envytools
 * isa.rst: 128 const buffers "global (per channel)"; Mesa's nv50 driver
 * uploads compute code into the FP code segment and never writes
 * CP_ADDRESS, binds c15 for compute only through the 3D object, writes
 * compute's buffer info into a buffer only 3D defined, and re-validates
 * the other class's constbufs, TICs and TSCs after each side "because
 * they are aliased").  A compute program is of the FP program type: its
 * code segment (CP_ADDRESS = FP_ADDRESS), c[] slot bindings
 * (SET_PROGRAM_CB), TEX_LIMITS and TIC/TSC bindings are FP's
 * (UNVERIFIED which 3D type: Mesa binds the same c15 for all three).
 * Per class, not here: LOCAL_* and STACK_* (Mesa programs different l[]
 * addresses and sizes on the two objects), START_ID and REG_ALLOC, the
 * CB_DEF_ADDRESS latch, queries, the notifier.
 */
#define NV50_GR_PROG_VP         0       /* TEX_LIMITS/BIND_TIC index */
#define NV50_GR_PROG_GP         1
#define NV50_GR_PROG_FP         2
#define NV50_GR_PROG_CP         NV50_GR_PROG_FP
#define NV50_GR_PROGS           3
#define NV50_GR_CB_BUFFERS      128
#define NV50_GR_CB_SLOTS        16
#define NV50_GR_TIC_SLOTS       256     /* BIND_TIC.TEXTURE, 8 bits */
#define NV50_GR_TSC_SLOTS       16      /* BIND_TSC.SAMPLER, 4 bits */
#define NV50_GR_BIND_VALID      0x80000000u

/* A constant buffer as CB_DEF_SET defined it. */
typedef struct NV50GrCb {
    uint64_t addr;              /* in DMA_CODE_CB (0: a VA) */
    uint32_t size;              /* bytes; SIZE 0 is 0x10000 */
    bool valid;
} NV50GrCb;

typedef struct NV50GrShared {
    uint32_t dma_code_cb;       /* DMA_CODE_CB (offset >> 4; 0: the VM) */
    uint64_t code[NV50_GR_PROGS];   /* VP/GP/FP_ADDRESS; CP_ADDRESS is FP */
    NV50GrCb cb[NV50_GR_CB_BUFFERS];
    /* SET_PROGRAM_CB: c[i] -> buffer | NV50_GR_BIND_VALID */
    uint32_t prog_cb[NV50_GR_PROGS][NV50_GR_CB_SLOTS];
    uint32_t cb_addr;           /* CB_ADDR: BUFFER | ID << 8, ID counts on */
    /* textures (not sampled yet: kept for the unit to come) */
    uint32_t dma_tic, dma_tsc, dma_texture;
    uint64_t tic_addr, tsc_addr;
    uint32_t tic_limit, tsc_limit;
    uint32_t linked_tsc;
    uint32_t tex_limits[NV50_GR_PROGS];
    /* BIND_TIC/BIND_TSC: slot -> TIC/TSC index | NV50_GR_BIND_VALID */
    uint32_t bind_tic[NV50_GR_PROGS][NV50_GR_TIC_SLOTS];
    uint32_t bind_tsc[NV50_GR_PROGS][NV50_GR_TSC_SLOTS];
} NV50GrShared;

/* One channel's PGRAPH context, kept by gemu. */
typedef struct NV50GrCtx {
    int chid;
    uint64_t inst;              /* the channel's instance block (VRAM) */
    uint64_t pd;                /* its page directory (VRAM) */
    NV50GrSubchannel subc[NV50_GR_SUBCHANNELS];
    void *state[NV50_GR_FAMILIES];  /* per class family, made on first use */
    NV50GrShared shared;        /* 3D + compute (zeroed with the context) */
} NV50GrCtx;

/* One method call, as a class handler sees it. */
typedef struct NV50GrCall {
    NV50State *s;
    NV50GrCtx *ctx;
    unsigned subc;
    uint16_t class_id;
    uint64_t obj;               /* the object's VRAM address */
    uint32_t mthd;              /* the method being run (for errors) */
    uint32_t data;
} NV50GrCall;

typedef struct NV50GrClass {
    uint16_t class_id;
    const char *name;           /* envytools' name, e.g. "G80_2D" */
    NV50GrFamily family;
    size_t state_size;          /* the family's state, zeroed at creation */
    void (*init)(void *state);  /* optional: defaults after zeroing */
    void (*fini)(void *state);  /* optional: free what init allocated */
    /*
     * Run method @mthd (>= 0x100) with @data; for 0x180-0x1fc @data is
     * the object's offset in the channel >> 4 as PFIFO found it in
     * RAMHT.  Return false if the class has no such method (PGRAPH
     * raises ILLEGAL_MTHD); errors in the data are the handler's to
     * report with nv50_gr_error().
     */
    bool (*method)(NV50GrCall *c, void *state, uint32_t mthd,
                   uint32_t data);
} NV50GrClass;

/*
 * The classes, one per file; each is listed in pgraph.c's gr_classes[].
 * Classes of one family that differ by chip (0x8297/0x8397/0x8597 3D,
 * 0x50c0/0x85c0 compute) are one NV50GrClass each sharing a handler.
 */
extern const NV50GrClass nv50_gr_m2mf_class;       /* 0x5039 */
extern const NV50GrClass nv50_gr_2d_class;         /* 0x502d */
extern const NV50GrClass nv50_gr_compute_class;    /* 0x50c0 */
extern const NV50GrClass nv50_gr_3d_class;         /* 0x8297 */
extern const NV50GrClass nv50_gr_g80_3d_class;     /* 0x5097 */
extern const NV50GrClass nv50_gr_g200_3d_class;    /* 0x8397 */
extern const NV50GrClass nv50_gr_gt215_3d_class;   /* 0x8597 */
extern const NV50GrClass nv50_gr_mcp89_3d_class;   /* 0x8697 */

/* The class of @class_id gemu models, or NULL. */
const NV50GrClass *nv50_gr_class_find(uint16_t class_id);

/* --- what PFIFO calls (engine thread) --- */

/*
 * The PGRAPH context of channel @chid, made on first use (or anew when
 * the channel's instance block moved); @pd is its page directory.
 */
NV50GrCtx *nv50_pgraph_ctx(NV50State *s, int chid, uint64_t inst,
                           uint64_t pd);
/* Forget channel @chid's context (channel torn down; engine paused). */
void nv50_pgraph_ctx_drop(NV50State *s, int chid);
/* SET_OBJECT: bind the object at VRAM @obj to @subc. */
void nv50_pgraph_bind(NV50State *s, NV50GrCtx *ctx, unsigned subc,
                      uint64_t obj);
/* Run one method on @subc's object (errors become PGRAPH interrupts). */
void nv50_pgraph_method(NV50State *s, NV50GrCtx *ctx, unsigned subc,
                        uint32_t mthd, uint32_t data);
/* FIFO access (0x400500 bit 0): may a new method start? */
bool nv50_pgraph_accepting(NV50State *s);

/* --- services for class handlers (pgraph.c) --- */

/*
 * Raise a PGRAPH interrupt for the call's method: @intr is one of
 * NV50_GR_INTR_*, @code the DATA_ERROR code (0x400110) for DATA_ERROR.
 * The method, data, class and channel go to 0x400704/0x400708/
 * 0x400814/0x40032c the way nvkm's nv50_gr_intr reads them; the
 * message is logged as a guest error.
 */
void GEMU_PRINTF(4, 5)
nv50_gr_error(NV50GrCall *c, uint32_t intr, uint32_t code,
              const char *fmt, ...);
/*
 * A unit trap (NV50_GR_TRAP_*): 0x400108 and the unit's status word
 * (@ustatus, bit 31 is set for it), then INTR TRAP.  Logged.
 */
void GEMU_PRINTF(4, 5)
nv50_gr_trap(NV50GrCall *c, uint32_t unit, uint32_t ustatus,
             const char *fmt, ...);
/*
 * The DMA object at offset @ofs >> 4 (as 0x180-0x1fc methods carry it)
 * in the channel; false with DATA_ERROR INVALID_OBJECT raised if it is
 * not a DMA object.
 */
bool nv50_gr_ctxdma(NV50GrCall *c, uint32_t ofs, NV50CtxDma *d);
/*
 * Memory through a DMA object (VM targets through the channel's page
 * directory).  On a fault: PFB's VM trap (PGRAPH, @client/@subclient:
 * NV50_VM_CLIENT_*), then the caller's unit trap @trap_unit, and false.
 */
bool nv50_gr_rw(NV50GrCall *c, const NV50CtxDma *d, uint64_t off,
                void *buf, size_t len, bool is_write, unsigned client,
                unsigned subclient, uint32_t trap_unit);
/* Memory by VA through the channel's page directory (no ctxdma). */
bool nv50_gr_vm_rw(NV50GrCall *c, uint64_t va, void *buf, size_t len,
                   bool is_write, unsigned client, unsigned subclient,
                   uint32_t trap_unit);
/* PTIMER now, for notifiers and query timestamps. */
uint64_t nv50_gr_timestamp(NV50GrCall *c);

/*
 * The shared state's methods (gr/shared.c), for the 3D and compute
 * handlers: each class decodes its method to one of these.
 */
/* the low 32 (@high false) or high 8 bits of *@addr */
static inline void nv50_gr_addr_set(uint64_t *addr, bool high, uint32_t data)
{
    if (high) {
        *addr = (uint64_t)(data & 0xff) << 32 | (uint32_t)*addr;
    } else {
        *addr = (*addr & ~0xffffffffull) | data;
    }
}
/* CB_DEF_SET: buffer BUFFER at @addr (the class's CB_DEF_ADDRESS) */
void nv50_gr_cb_def_set(NV50GrCall *c, uint64_t addr, uint32_t data);
/* CB_DATA: a word to buffer CB_ADDR.BUFFER at word CB_ADDR.ID, ID + 1 */
void nv50_gr_cb_data(NV50GrCall *c, const char *cls, uint32_t data);
/* SET_PROGRAM_CB of program @prog (NV50_GR_PROG_*) */
void nv50_gr_set_program_cb(NV50GrCall *c, unsigned prog, uint32_t data);
/* BIND_TIC / BIND_TSC of program @prog */
void nv50_gr_bind_tic(NV50GrCall *c, unsigned prog, uint32_t data);
void nv50_gr_bind_tsc(NV50GrCall *c, unsigned prog, uint32_t data);
/*
 * The buffer c[@slot] of program @prog reads, or NULL if the slot is
 * unbound or its buffer undefined.
 */
const NV50GrCb *nv50_gr_prog_cb(const NV50GrShared *sh, unsigned prog,
                                unsigned slot);

/*
 * The methods every class has (nv_object.xml, g80 family): NOP 0x100,
 * NOTIFY 0x104, WAIT_FOR_IDLE 0x110, PM_TRIGGER 0x140, and the notify
 * context DMA at 0x180.  A class keeps one NV50GrNotify in its state
 * and calls nv50_gr_common_method() first, then
 * nv50_gr_notify_done() once each method of its own is done.
 */
typedef struct NV50GrNotify {
    uint32_t dma;               /* SET_CONTEXT_DMA_NOTIFY (offset >> 4) */
    bool armed;                 /* NOTIFY seen; written after the next */
    uint32_t type;              /* NOTIFY data: 0 WRITE, 1 WRITE_AND_AWAKEN */
} NV50GrNotify;

#define NV50_GR_MTHD_NOP            0x100
#define NV50_GR_MTHD_NOTIFY         0x104
#define NV50_GR_MTHD_WAIT_FOR_IDLE  0x110
#define NV50_GR_MTHD_PM_TRIGGER     0x140
#define NV50_GR_MTHD_DMA_NOTIFY     0x180

/*
 * Write a notifier (16 bytes: PTIMER low/high, return value 0, status 0)
 * at @offset of the DMA object @dma (offset >> 4); a fault traps
 * @trap_unit (VM client DISPATCH, @subclient).  False if it was not
 * written (the error raised).
 */
bool nv50_gr_write_notifier(NV50GrCall *c, uint32_t dma, uint64_t offset,
                            unsigned subclient, uint32_t trap_unit);

/* True if @mthd was one of the common methods (and is done). */
bool nv50_gr_common_method(NV50GrCall *c, NV50GrNotify *n, uint32_t mthd,
                           uint32_t data);
/*
 * After a method: write an armed notifier (16 bytes at offset 0 of the
 * notify DMA: timestamp low/high, 0, status 0) and raise NOTIFY for
 * WRITE_AND_AWAKEN.
 */
void nv50_gr_notify_done(NV50GrCall *c, NV50GrNotify *n);

#endif
