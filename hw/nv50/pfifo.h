/*
 * PFIFO internals shared by pfifo.c (registers, channels, the USER area,
 * interrupts) and pusher.c (IB and pushbuffer fetch, commands, the
 * puller's methods), and the engine thread (engine.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_PFIFO_H
#define HW_NV50_PFIFO_H

#include "hw/nv50/nv50.h"
#include "hw/nv50/object.h"

#define NV_PFIFO_INTR           0x002100
#define NV_PFIFO_INTR_EN        0x002140
#define NV_PFIFO_CACHES         0x002500    /* bit 0 reassign, 8 runlist */
#define NV_PFIFO_ENGINE_MASK    0x002520
#define NV_PFIFO_CTX_TABLE(c)   (0x002600 + (c) * 4)
#define NV_PFIFO_CACHE1_PUSH0   0x003200
#define NV_PFIFO_CACHE1_PUSH1   0x003204    /* chid of the current channel */
#define NV_PFIFO_CACHE1_DMA_PUSH 0x003220
#define NV_PFIFO_CACHE1_DMA_STATE 0x003228
#define NV_PFIFO_CACHE1_DMA_PUT 0x003240
#define NV_PFIFO_CACHE1_DMA_GET 0x003244
#define NV_PFIFO_CACHE1_PULL0   0x003250
#define NV_PFIFO_CACHE1_GET     0x003270
#define NV_PFIFO_RUNLIST_COUNT  0x0032ec
#define NV_PFIFO_RUNLIST        0x0032f4    /* address >> 12 */
#define NV_PFIFO_CTX_UNLOAD     0x0032fc    /* instance >> 12; ~0 busy */
#define NV_PFIFO_DMA_PUT_HIGH   0x003320
#define NV_PFIFO_DMA_GET_HIGH   0x003328
#define NV_PFIFO_IB_PUT         0x003330
#define NV_PFIFO_IB_GET         0x003334
#define NV_PFIFO_METHOD_COUNT   0x003364
#define NV_PFIFO_CACHE1_METHOD(i) (0x090000 + (i) * 8)
#define NV_PFIFO_CACHE1_DATA(i)   (0x090004 + (i) * 8)

/* PFIFO INTR bits (nvkm regsnv04.h, fifo/nv04.c) */
#define NV_PFIFO_INTR_CACHE_ERROR   0x00000001u
#define NV_PFIFO_INTR_DMA_PUSHER    0x00001000u
#define NV_PFIFO_INTR_SEMAPHORE     0x00100000u
#define NV_PFIFO_INTR_NON_STALL     0x40000000u

/* DMA_PUSHER error types (DMA_STATE bits 31:29, dma-pusher.rst) */
#define NV_PUSHER_CALL_SUBR_ACTIVE  1
#define NV_PUSHER_INVALID_MTHD      2
#define NV_PUSHER_RET_SUBR_INACTIVE 3
#define NV_PUSHER_INVALID_CMD       4
#define NV_PUSHER_IB_EMPTY          5
#define NV_PUSHER_MEM_FAULT         6

/* USER area of a channel (BAR0 0xc00000 + chid * 0x2000) */
#define NV_USER_BASE            0xc00000
#define NV_USER_STRIDE          0x2000
#define NV_USER_DMA_PUT         0x40
#define NV_USER_DMA_GET         0x44
#define NV_USER_REF             0x48
#define NV_USER_DMA_PUT_HIGH    0x4c
#define NV_USER_DMA_MGET        0x58
#define NV_USER_DMA_MGET_HIGH   0x5c
#define NV_USER_DMA_GET_HIGH    0x60
#define NV_USER_IB_GET          0x88
#define NV_USER_IB_PUT          0x8c

struct NV50GrCtx;

/* What an acquire waits for. */
typedef enum {
    ACQ_NONE,
    ACQ_EQUAL,
    ACQ_GEQUAL,
} AcquireMode;

typedef struct NV50Chan {
    /* --- guarded by eng_lock --- */
    bool runnable;              /* kicked; the engine should look */
    bool parked;                /* waiting on a semaphore */
    uint32_t ib_put;            /* USER+0x8c */
    uint64_t dma_put;           /* USER+0x40 (+0x4c high), DMA mode */
    uint32_t put_high_ws;       /* DMA_PUT_HIGH write shadow */
    uint32_t get_high_rs;       /* DMA_GET_HIGH read shadow */
    uint32_t mget_high_rs;
    /* what the engine published */
    uint32_t ib_get;
    uint64_t dma_get;
    uint64_t dma_mget;
    uint32_t ref;               /* USER+0x48 */

    /* --- the engine thread's (or the MMIO side's with it paused) --- */
    bool loaded;                /* RAMFC read since the channel was set up */
    uint64_t inst, ramfc, pd;
    NV50CtxDma push;            /* the pushbuffer DMA object */
    NV50Ramht ramht;
    bool ib_mode;
    uint64_t ib_base;
    unsigned ib_order;
    uint32_t ib_cur;            /* IB entries fetched */
    uint64_t get, put;          /* the segment being read */
    bool nonmain;
    /* the command being assembled */
    uint32_t mthd;              /* byte address */
    unsigned subc;
    uint32_t mcnt;
    bool ni;
    bool lenp;                  /* next word is a long command's count */
    bool subr_active;
    uint64_t subr_return;
    uint8_t engines[8];         /* per subchannel, NV50_ENGINE_* */
    /* semaphores */
    uint32_t sem_dma;           /* DMA_SEMAPHORE object offset >> 4 */
    uint32_t sem_offset;
    bool sem_off_valid;
    uint64_t sem_addr;
    uint32_t sem_seq;
    AcquireMode acq;            /* an acquire in progress */
    uint32_t acq_value;
    bool acq_new_style;
    struct NV50GrCtx *gr;
} NV50Chan;

typedef struct NV50PFifo {
    uint32_t regs[0x2000 / 4];  /* 0x002000-0x003fff, as written */
    uint32_t cache[2];          /* CACHE1 slot 0: method, data */
    NV50Chan chan[NV50_FIFO_CHANNELS];
    bool in_runlist[NV50_FIFO_CHANNELS];
    /* an error stopped PFIFO on this channel until it is acknowledged */
    int stalled_chid;           /* -1: none */
    uint32_t stalled_intr;      /* the INTR bit that stopped it */
    /* a context unload (0x32fc) waits for the engine to be between slices */
    bool unload_pending;
    uint32_t unload_val;
    int rr;                     /* round-robin position */
} NV50PFifo;

static inline uint32_t *nv50_pfifo_reg(NV50State *s, hwaddr addr)
{
    return &s->pfifo->regs[(addr - 0x2000) >> 2];
}

/* pfifo.c, eng_lock held */
void nv50_pfifo_update_irq(NV50State *s);
/* A channel that can run (-1 if none); *parked: some wait on semaphores */
int nv50_pfifo_pick(NV50State *s, bool *parked);
/* Let parked channels look at their semaphores again. */
void nv50_pfifo_unpark(NV50State *s);

/* pusher.c, engine thread, eng_lock not held: run a slice of @chid */
void nv50_pfifo_run(NV50State *s, int chid);

/* Is channel @chid enabled in the channel table (eng_lock held)? */
bool nv50_pfifo_chan_enabled(NV50State *s, int chid);

/*
 * Where the channel of channel-table entry @entry lives in VRAM: its
 * instance block, RAMFC and page directory (G80 and G84 layouts).
 */
void nv50_chan_locate(NV50State *s, uint32_t entry, uint64_t *inst,
                      uint64_t *ramfc, uint64_t *pd);

#endif
