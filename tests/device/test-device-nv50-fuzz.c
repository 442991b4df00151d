/*
 * PFIFO and PGRAPH fuzzed through the rig (nv50-gr-rig.h): random
 * pushbuffers and method streams on an IB channel (channel 1) and a
 * DMA-mode channel (channel 2) of the in-process card.
 *
 * Streams: random words; valid-looking headers (increasing,
 * non-increasing, long, empty) with random methods, subchannels and
 * counts, for the puller's methods and for objects of every class
 * pgraph.c registers (found with nv50_gr_class_find(), bound with
 * SET_OBJECT), plus bogus, NULL-class and software objects; random IB
 * entries (length 0, random or unmapped addresses, guest RAM, NOT_MAIN,
 * commands split across entries); in DMA mode forward jumps, old jumps,
 * calls and returns, and the wrap to the start; between streams, now and
 * then, channel teardown, disable, context unload and PGRAPH / PFIFO
 * resets through PMC_ENABLE.
 *
 * After every stream: nv50_engine_sync() returns, every PFIFO, PGRAPH
 * and PFB fault interrupt is acknowledged the way nvkm does (the channel
 * goes on), PMC's summary is clear, the card answers MMIO; a channel
 * parked on an acquire is released by writing the semaphore (or torn
 * down and set up again).  Nothing is asserted about what the methods
 * did: the point is that the card survives.
 *
 * Bounded: a fixed seed (GEMU_FUZZ_SEED), GEMU_FUZZ_ITERS streams per
 * test (FUZZ_ITERS by default).  Never sent: the compute LAUNCH method
 * 0x368 on any subchannel (every word that could be a header covering
 * it is changed, since a random program may loop forever); the sizes
 * of M2MF copies and 2D surfaces are kept small where the generator
 * knows the class.  A hang shows as the test's timeout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/pfifo.h"
#include <unistd.h>

#define FUZZ_ITERS      2000        /* streams per test by default */
#define FUZZ_SEED       0x6e763530u
#define FUZZ_ROUND      64          /* streams between full rig repairs */

#define FZ_CHID2        2
#define FZ_RAMFC1       GR_RAMFC
#define FZ_RAMFC2       (GR_INST + 0x38000)    /* after the runlist */
/* channel 2's pushbuffer: a DMA object over FZ_DMA_SIZE bytes only */
#define FZ_DMA_VA       (GR_VA_BASE + 0x80000)
#define FZ_DMA_SIZE     0x10000u
#define FZ_DMA_WORDS    (FZ_DMA_SIZE / 4)
#define FZ_DMA_OBJ      0x104       /* offset >> 4 */
/* a DMA object over the data area (classes' memory, semaphores) */
#define FZ_DATA_OBJ     0x106
#define FZ_DATA_SIZE    0x100000u
#define FZ_H_DATA       0xd0000003u
#define FZ_SEM_VA       (GR_VA_DATA + 0x1000)
#define FZ_SEM_SLOTS    16
#define FZ_H_CLASS      0xc0000000u /* + index in fz.classes[] */
#define FZ_H_BOGUS      0xc0000100u /* class 0x1234 */
#define FZ_H_NULL       0xc0000101u /* NV_CLASS_NULL */
#define FZ_H_SW         0xc0000102u /* a software-engine object */
#define FZ_MAX_CLASSES  32

/* the IB channel: a stream is at most this many bytes of pushbuffer */
#define FZ_IB_STREAM    0x2000u
#define FZ_IB_RESERVE   0x6000u

#define MTHD_LAUNCH     0x368       /* G80_COMPUTE LAUNCH: never sent */

typedef struct Fuzz {
    uint64_t rng;
    unsigned iters;
    uint16_t classes[FZ_MAX_CLASSES];
    unsigned nclasses;
    uint16_t bound[8];          /* what the generator believes is bound */
    uint32_t dma_pos;           /* channel 2: GET == PUT, byte offset */
    bool dma_up;
    unsigned streams, parks, teardowns, resets, stale_subr, subr_streak;
    unsigned n_pusher, n_cache, n_sem, n_gr, n_vm;
} Fuzz;

static Fuzz fz;

/* --- random numbers (xorshift64*, deterministic) --- */

static uint32_t rnd32(void)
{
    fz.rng ^= fz.rng >> 12;
    fz.rng ^= fz.rng << 25;
    fz.rng ^= fz.rng >> 27;
    return (fz.rng * 0x2545f4914f6cdd1dull) >> 32;
}

static uint32_t rnd(uint32_t n)
{
    return n ? rnd32() % n : 0;
}

static bool chance(unsigned pct)
{
    return rnd(100) < pct;
}

/*
 * Every word that reaches a pushbuffer goes through here: a word that
 * the pusher could take for a header delivering to LAUNCH (0x368) on
 * any subchannel is changed so that it does not.
 */
static uint32_t no_launch(uint32_t w)
{
    uint32_t mthd = w & 0x1ffc;

    if ((w & 0xe0030003) == 0) {
        uint32_t n = (w >> 18) & 0x7ff;

        if (mthd <= MTHD_LAUNCH && MTHD_LAUNCH < mthd + 4 * n) {
            n = (MTHD_LAUNCH - mthd) / 4;
            w = (w & ~(0x7ffu << 18)) | n << 18;
        }
    } else if ((w & 0xe0030003) == 0x40000000 ||
               (w & 0xffff0003) == 0x00030000) {
        if (mthd == MTHD_LAUNCH) {
            w = (w & ~0x1ffcu) | (MTHD_LAUNCH + 4);
        }
    }
    return w;
}

/*
 * How the pusher takes @w as a DMA-mode command word (dma-pusher.rst):
 * 0 method header, 1 jump, 2 old jump, 3 call, 4 return, 5 invalid.
 */
static int dma_kind(uint32_t w)
{
    if ((w & 0xe0030003) == 0 || (w & 0xe0030003) == 0x40000000) {
        return 0;
    }
    if ((w & 0xe0000003) == 0x20000000) {
        return 2;
    }
    if ((w & 3) == 1) {
        return 1;
    }
    if ((w & 3) == 2) {
        return 3;
    }
    return w == 0x00020000 ? 4 : 5;
}

/*
 * A random word for a DMA-mode pushbuffer: never a jump or call of its
 * own (those are placed by the generator, forward only, so that a
 * stream cannot loop).
 */
static uint32_t tame(uint32_t w)
{
    int k = dma_kind(w);

    if (k == 1 || k == 2 || k == 3) {
        w = (w & ~0xe0000003u) | 0x80000000u;   /* an invalid command */
    }
    return no_launch(w);
}

/* --- the rig: structures, channels, interrupts --- */

static uint64_t chan_ramfc(int chid)
{
    return chid == GR_CHID ? FZ_RAMFC1 : FZ_RAMFC2;
}

static void chan_down(int chid)
{
    wr32(0x002600 + chid * 4, 0);
    if (chid == GR_CHID) {
        gr.ch.push_put = gr.ch.push_sent = 0;
        gr.ch.ib_put = 0;
    } else {
        fz.dma_pos = 0;
    }
    fz.teardowns++;
}

static void chan_up(int chid)
{
    wr32(0x002600 + chid * 4, 0x80000000u |
         (uint32_t)(chan_ramfc(chid) >> 8));
}

/* nvkm's PFIFO and PGRAPH init, the parts with effects (as the rig) */
static void fz_pfifo_init(void)
{
    wr32(0x002100, 0xffffffff);
    wr32(0x002140, 0xbfffffff);
}

static void fz_pgraph_init(void)
{
    wr32(0x400108, 0xffffffff);
    wr32(0x400138, 0xffffffff);
    wr32(0x400100, 0xffffffff);
    wr32(0x40013c, 0xffffffff);
    wr32(0x400500, 0x00010001);
}

static void fz_runlist(void)
{
    nv50_vram_wr32(rig.s, GR_RUNLIST, GR_CHID);
    nv50_vram_wr32(rig.s, GR_RUNLIST + 4, FZ_CHID2);
    wr32(0x0032f4, (uint32_t)(GR_RUNLIST >> 12));
    wr32(0x0032ec, 2);
    wr32(0x002500, 0x101);
}

static void fz_ramfc(uint64_t ramfc, uint32_t push_obj, bool ib)
{
    NV50State *s = rig.s;

    for (uint32_t o = 0; o < 0x100; o += 4) {
        nv50_vram_wr32(s, ramfc + o, 0);
    }
    /* as gpfifog84.c writes it; DMA mode: no IB (0x54 order 0) */
    nv50_vram_wr32(s, ramfc + 0x3c, 0x403f6078);
    nv50_vram_wr32(s, ramfc + 0x44, 0x01003fff);
    nv50_vram_wr32(s, ramfc + 0x48, push_obj);
    if (ib) {
        nv50_vram_wr32(s, ramfc + 0x50, (uint32_t)GR_VA_IB);
        nv50_vram_wr32(s, ramfc + 0x54, (uint32_t)(GR_VA_IB >> 32) |
                       GR_IB_ORDER << 16);
    }
    nv50_vram_wr32(s, ramfc + 0x60, 0x7fffffff);
    nv50_vram_wr32(s, ramfc + 0x7c, 0x30000001);
    nv50_vram_wr32(s, ramfc + 0x80, (GR_RAMHT_BITS - 9) << 27 | 4 << 24 |
                   (uint32_t)((gr.ch.ramht - GR_INST) >> 4));
    nv50_vram_wr32(s, ramfc + 0x88, (uint32_t)((GR_INST + 0x4400) >> 10));
    nv50_vram_wr32(s, ramfc + 0x98, (uint32_t)(GR_INST >> 12));
}

/*
 * Everything the streams may have overwritten (semaphore releases and
 * class writes reach all of VRAM through GR_H_VRAM): page tables, DMA
 * objects, objects, RAMHT, RAMFCs.  Channels must be down.
 */
static void fz_repair(void)
{
    NV50HostChanConfig cfg = gr.ch.cfg;
    NV50State *s = rig.s;
    g_autofree char *err = NULL;
    uint32_t ofs;

    /* instance block, page tables, the two DMA objects, channel 1 up */
    ck_assert_msg(nv50_hostchan_init(&gr.ch, s, &cfg, &err), "%s", err);
    gr_ctxdma(FZ_DMA_OBJ, NV50_DMA_VM, FZ_DMA_VA,
              FZ_DMA_VA + FZ_DMA_SIZE - 1);
    gr_ctxdma(FZ_DATA_OBJ, NV50_DMA_VM, GR_VA_DATA,
              GR_VA_DATA + FZ_DATA_SIZE - 1);
    gr_ramht_insert(FZ_H_DATA, FZ_DATA_OBJ);
    for (unsigned i = 0; i < fz.nclasses; i++) {
        gr_object(fz.classes[i], FZ_H_CLASS + i);
    }
    gr_object(0x1234, FZ_H_BOGUS);
    gr_object(NV_CLASS_NULL, FZ_H_NULL);
    ofs = gr.ch.obj_next;
    gr.ch.obj_next += 0x20;
    nv50_vram_wr32(s, GR_INST + ofs, 0x506e);  /* nouveau's software class */
    gr_ramht_insert(FZ_H_SW, ofs >> 4);         /* engine 0: software */
    fz_ramfc(FZ_RAMFC2, FZ_DMA_OBJ, false);
}

static void fz_sync(void)
{
    nv50_engine_sync(rig.s);
}

static void fz_kick_ib(void)
{
    wr32(NV_USER_BASE + GR_CHID * NV_USER_STRIDE + NV_USER_IB_PUT,
         gr.ch.ib_put & ((1u << GR_IB_ORDER) - 1));
}

static void fz_kick_dma(uint32_t put)
{
    uint32_t user = NV_USER_BASE + FZ_CHID2 * NV_USER_STRIDE;

    if (chance(20)) {
        wr32(user + NV_USER_DMA_PUT_HIGH, 0);
    }
    wr32(user + NV_USER_DMA_PUT, put);
}

/* nv04_fifo_dma_pusher as nv50 runs it */
static void ack_dma_pusher(void)
{
    uint32_t get = rd32(0x003244), put = rd32(0x003240);
    uint32_t ho_get = rd32(0x003328), ho_put = rd32(0x003320);
    uint32_t ib_get = rd32(0x003334), ib_put = rd32(0x003330);

    (void)rd32(0x003228);
    (void)rd32(0x003204);
    wr32(0x003364, 0);
    if (get != put || ho_get != ho_put) {
        wr32(0x003244, put);
        wr32(0x003328, ho_put);
    } else if (ib_get != ib_put) {
        wr32(0x003334, ib_put);
    }
    wr32(0x003228, 0);
    wr32(0x003220, 1);
    wr32(0x002100, NV_PFIFO_INTR_DMA_PUSHER);
}

/* nv04_fifo_cache_error: skip the method, acknowledge */
static void ack_cache_error(void)
{
    uint32_t get = rd32(0x003270);

    (void)rd32(0x003204);
    (void)rd32(NV_PFIFO_CACHE1_METHOD(0));
    (void)rd32(NV_PFIFO_CACHE1_DATA(0));
    wr32(0x003250, rd32(0x003250) & ~1u);
    wr32(0x002100, NV_PFIFO_INTR_CACHE_ERROR);
    wr32(0x003270, get + 4);
    wr32(0x003250, 1);
}

/* nv50_gr_intr / nv50_gr_trap_handler, in short */
static void ack_pgraph(uint32_t intr)
{
    static const uint32_t units[] = {
        0x400804, 0x406800, 0x400c04, 0x401800, 0x405018,
        0x408900, 0x409900, 0x408314, 0x409314, 0x408e08, 0x409e08,
    };
    uint32_t trap = rd32(0x400108);

    (void)rd32(0x400704);
    (void)rd32(0x400708);
    (void)rd32(0x400814);
    (void)rd32(0x40032c);
    (void)rd32(0x400110);
    if (trap) {
        for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
            if (rd32(units[i]) & 0x80000000u) {
                wr32(units[i], 0xc0000000);
            }
        }
        wr32(0x400108, trap);
    }
    wr32(0x400100, intr);
    wr32(0x400500, 0x00010001);
}

/* nv50_fb_intr */
static void ack_vm_fault(void)
{
    uint32_t idx = rd32(0x100c90);

    if (!(idx & 0x80000000u)) {
        return;
    }
    fz.n_vm++;
    idx &= 0x00ffffff;
    for (uint32_t i = 0; i < 6; i++) {
        wr32(0x100c90, idx | i << 24);
        (void)rd32(0x100c94);
    }
    wr32(0x100c90, idx | 0x80000000u);
}

/* Wait for the engine, acknowledge what it raised, until it is quiet. */
static void fz_settle(void)
{
    for (unsigned n = 0;; n++) {
        uint32_t pf, gr_intr;

        fz_sync();
        ack_vm_fault();
        pf = rd32(0x002100);
        gr_intr = rd32(0x400100);
        if (!pf && !gr_intr) {
            break;
        }
        if (n == 100000 && getenv("GEMU_FUZZ_DEBUG")) {
            g_autofree char *log = rig_log();
            size_t l = strlen(log);

            fputs(log + (l > 4000 ? l - 4000 : 0), stderr);
        }
        ck_assert_msg(n < 100000, "interrupts do not stop (PFIFO 0x%x "
                      "PGRAPH 0x%x)", pf, gr_intr);
        if (gr_intr) {
            fz.n_gr++;
            ack_pgraph(gr_intr);
        }
        if (pf & NV_PFIFO_INTR_DMA_PUSHER) {
            fz.n_pusher++;
            ack_dma_pusher();
        }
        if (pf & NV_PFIFO_INTR_CACHE_ERROR) {
            fz.n_cache++;
            ack_cache_error();
        }
        fz.n_sem += !!(pf & NV_PFIFO_INTR_SEMAPHORE);
        pf &= ~(NV_PFIFO_INTR_DMA_PUSHER | NV_PFIFO_INTR_CACHE_ERROR);
        if (pf) {
            wr32(0x002100, pf);     /* SEMAPHORE, NON_STALL, the rest */
        }
    }
    ck_assert_uint_eq(rd32(NV_PMC_INTR_HOST) &
                      (NV50_INTR_PFIFO | NV50_INTR_PGRAPH), 0);
}

typedef struct ParkInfo {
    bool parked;
    bool subr_active;
    uint32_t sem_dma;
    uint64_t off;
    uint32_t value;
} ParkInfo;

/* The engine's view of a channel, read with the engine paused. */
static ParkInfo fz_peek(int chid)
{
    NV50Chan *ch;
    ParkInfo p;

    nv50_engine_pause(rig.s, NV50_ENGINE_NO_ABORT);
    ch = &rig.s->pfifo->chan[chid];
    p.parked = ch->parked || ch->acq != ACQ_NONE;
    p.subr_active = ch->subr_active;
    p.sem_dma = ch->sem_dma;
    p.off = ch->acq_new_style ? ch->sem_addr : ch->sem_offset;
    p.value = ch->acq_value;
    nv50_engine_resume(rig.s);
    return p;
}

/* Write the value a parked acquire waits for; false if it cannot be. */
static bool fz_release(const ParkInfo *p)
{
    NV50CtxDma d;
    NV50Fault f;
    const char *why;
    uint8_t b[4];

    if (!p->sem_dma ||
        !nv50_ctxdma_read(rig.s, GR_INST + ((uint64_t)p->sem_dma << 4), &d,
                          &why)) {
        return false;
    }
    stn_le_p(b, 4, p->value);
    return nv50_ctxdma_rw(rig.s, &d, GR_PD, p->off, b, 4, true, &f);
}

/*
 * After a stream: quiet, parked channels released (by the semaphore,
 * else torn down), a DMA channel left inside a subroutine by an error
 * set up again, and the card still answering.
 */
static void fz_check(void)
{
    static const int chids[] = { GR_CHID, FZ_CHID2 };

    fz_settle();
    for (size_t i = 0; i < ARRAY_SIZE(chids); i++) {
        int c = chids[i];

        for (int tries = 0;; tries++) {
            ParkInfo p = fz_peek(c);

            if (!p.parked) {
                /*
                 * An error inside a subroutine leaves it active: the
                 * next return goes back to its caller.  Every jump the
                 * generator writes goes forward, so that still ends.
                 */
                fz.stale_subr += p.subr_active;
                if (c != FZ_CHID2) {
                    break;
                }
                fz.subr_streak = p.subr_active ? fz.subr_streak + 1 : 0;
                if (fz.subr_streak > 4) {
                    /* calls would all fail: start over now and then */
                    chan_down(c);
                    chan_up(c);
                    fz.subr_streak = 0;
                }
                break;
            }
            fz.parks++;
            if (tries >= 3 || !fz_release(&p)) {
                chan_down(c);
                chan_up(c);
                fz_settle();
                break;
            }
            /* a kick looks at parked channels again */
            if (c == GR_CHID) {
                fz_kick_ib();
            } else {
                fz_kick_dma(rd32(NV_USER_BASE + c * NV_USER_STRIDE +
                                 NV_USER_DMA_PUT));
            }
            fz_settle();
        }
    }
    ck_assert_uint_eq(rd32(NV_PMC_ID), rig.s->boot0);
    (void)rd32(0x400700);
    (void)rd32(0x002600 + GR_CHID * 4);
    (void)rd32(NV_USER_BASE + GR_CHID * NV_USER_STRIDE + NV_USER_REF);
}

/* --- what goes into a stream --- */

static uint32_t rnd_handle(void)
{
    switch (rnd(8)) {
    case 0:
        return GR_H_VM;
    case 1:
        return GR_H_VRAM;
    case 2:
    case 3:
        return FZ_H_DATA;
    case 4:
        return FZ_H_CLASS + rnd(fz.nclasses);
    case 5:
        return rnd(2) ? FZ_H_SW : FZ_H_BOGUS + rnd(2);
    case 6:
        return rnd(16);
    }
    return rnd32();
}

static uint32_t rnd_value(void)
{
    switch (rnd(10)) {
    case 0:
        return 0;
    case 1:
    case 2:
        return rnd(16);
    case 3:
    case 4:
        return rnd(0x1000);
    case 5:
        return (uint32_t)GR_VA_DATA + (rnd(FZ_DATA_SIZE) & ~3u);
    case 6:
        return rnd(FZ_DATA_SIZE);
    case 7:
        return rnd(2) ? 0xffffffffu : 0x80000000u >> rnd(32);
    }
    return rnd32();
}

static uint32_t rnd_data(uint16_t cls, uint32_t mthd)
{
    uint32_t v;

    if (mthd >= 0x180 && mthd < 0x200) {
        return rnd_handle();
    }
    v = rnd_value();
    switch (cls) {
    case 0x5039:
        if (mthd == 0x31c) {            /* LINE_LENGTH_IN */
            v &= 0x3fff;
        } else if (mthd == 0x320) {     /* LINE_COUNT */
            v &= 0x3f;
        }
        break;
    case 0x502d:
        if (mthd == 0x218 || mthd == 0x21c || mthd == 0x248 ||
            mthd == 0x24c) {            /* DST/SRC WIDTH, HEIGHT */
            v &= 0x1ff;
        }
        break;
    case 0x50c0:
        if (mthd == 0x3a4 || mthd == 0x3ac) {   /* GRIDDIM, BLOCKDIM_XY */
            v &= 0x00030003;
        } else if (mthd == 0x3b0) {
            v &= 3;
        }
        break;
    }
    return v;
}

/* A method of the class bound to a subchannel (as far as we know). */
static uint32_t rnd_class_mthd(uint16_t cls)
{
    static const uint32_t common[] = { 0x100, 0x104, 0x110, 0x140, 0x180 };
    uint32_t lo = 0x100, hi = 0x2000;

    if (chance(15)) {
        return common[rnd(ARRAY_SIZE(common))];
    }
    if (!chance(10)) {
        switch (cls) {
        case 0x5039:
            lo = 0x180, hi = 0x330;
            break;
        case 0x502d:
            lo = 0x180, hi = 0x8e0;
            break;
        case 0x50c0:
            lo = 0x180, hi = 0x700;
            break;
        }
    }
    return (lo + rnd(hi - lo)) & ~3u;
}

/* A puller method (below 0x100) with plausible data. */
static void rnd_puller(uint32_t *mthd, uint32_t *data)
{
    static const uint32_t m[] = {
        0x00, 0x10, 0x14, 0x18, 0x1c, 0x1c, 0x20, 0x24, 0x50, 0x60,
        0x64, 0x68, 0x6c, 0x80,
    };
    uint32_t slot = FZ_SEM_VA + rnd(FZ_SEM_SLOTS) * 16;

    *mthd = chance(5) ? rnd(0x40) * 4 : m[rnd(ARRAY_SIZE(m))];
    switch (*mthd) {
    case 0x00:
    case 0x60:
        *data = rnd_handle();
        break;
    case 0x10:
        *data = chance(90) ? (uint32_t)(GR_VA_DATA >> 32) : rnd32();
        break;
    case 0x14:
        *data = chance(80) ? slot : chance(50) ? slot - GR_VA_DATA
                                               : rnd_value();
        break;
    case 0x18:
    case 0x68:
    case 0x6c:
        *data = chance(80) ? rnd(4) : rnd32();
        break;
    case 0x1c:
        *data = chance(90) ? 1u << rnd(3) : rnd32();
        break;
    case 0x64:
        *data = chance(70) ? (slot - (uint32_t)GR_VA_DATA) : rnd_value();
        break;
    default:
        *data = rnd_value();
        break;
    }
}

/*
 * One command into @w (at most @max words): returns its length.  IB
 * mode may use the long non-increasing form.
 */
static unsigned gen_cmd(uint32_t *w, unsigned max, bool ib)
{
    unsigned subc = chance(70) ? rnd(4) : rnd(8);
    unsigned n = 0, count, kind = rnd(100);
    uint32_t mthd, data;
    uint16_t cls = fz.bound[subc];

    if (kind < 8) {                             /* random words */
        count = 1 + rnd(MIN(8u, max));
        for (unsigned i = 0; i < count; i++) {
            w[n++] = ib ? rnd32() : tame(rnd32());
        }
        return n;
    }
    if (kind < 10) {                            /* empty headers */
        w[n++] = chance(50) ? 0 : subc << 13 | rnd(0x800) * 4;
        return n;
    }
    if (kind < 22) {                            /* SET_OBJECT */
        uint32_t h = chance(85) ? FZ_H_CLASS + rnd(fz.nclasses)
                                : rnd_handle();

        w[n++] = 1 << 18 | subc << 13;
        w[n++] = h;
        if (h >= FZ_H_CLASS && h < FZ_H_CLASS + fz.nclasses) {
            fz.bound[subc] = fz.classes[h - FZ_H_CLASS];
        }
        return n;
    }
    if (kind < 40) {                            /* a puller method */
        rnd_puller(&mthd, &data);
        w[n++] = 1 << 18 | subc << 13 | mthd;
        w[n++] = data;
        return n;
    }
    /* a class method: one, a few increasing, a run non-increasing */
    mthd = rnd_class_mthd(cls);
    count = chance(60) ? 1 : chance(80) ? 1 + rnd(8) : rnd(0x800);
    if (!cls) {
        count = MIN(count, 4u);     /* each word would be a CACHE_ERROR */
    }
    /* no_launch() must leave the header alone, or data become commands */
    if (mthd == MTHD_LAUNCH) {
        mthd += 4;
    } else if (mthd < MTHD_LAUNCH && MTHD_LAUNCH < mthd + 4 * count) {
        count = (MTHD_LAUNCH - mthd) / 4;
    }
    count = MIN(count, max - 2);
    if (ib && chance(5)) {
        w[n++] = 0x00030000 | subc << 13 | mthd;
        w[n++] = count;
    } else if (chance(20)) {
        w[n++] = 0x40000000 | count << 18 | subc << 13 | mthd;
    } else {
        w[n++] = count << 18 | subc << 13 | mthd;
    }
    for (unsigned i = 0; i < count; i++) {
        w[n++] = rnd_data(cls, (w[0] & 0x40030000) ? mthd : mthd + i * 4);
    }
    return n;
}

/* --- the IB channel --- */

static void ib_entry(uint64_t va, uint32_t len, bool nonmain)
{
    uint32_t e = gr.ch.ib_put & ((1u << GR_IB_ORDER) - 1);

    gr_wr32(GR_VA_IB + e * 8, (uint32_t)va);
    gr_wr32(GR_VA_IB + e * 8 + 4, (uint32_t)(va >> 32 & 0xff) | len << 10 |
            (nonmain ? 1u << 9 : 0));
    gr.ch.ib_put++;
}

/* The words since the last entry, as an entry, sometimes a bad one. */
static void ib_submit_pushed(void)
{
    uint64_t va = GR_VA_PUSH + gr.ch.push_sent;
    uint32_t len = (gr.ch.push_put - gr.ch.push_sent) / 4;
    bool nonmain = chance(5);

    gr.ch.push_sent = gr.ch.push_put;
    switch (rnd(40)) {
    case 0:
        len = 0;                                /* IB_EMPTY */
        break;
    case 1:
        va = ((uint64_t)rnd32() << 8 | rnd(256)) & ~3ull;   /* unmapped */
        break;
    case 2:
        va = GR_VA_GART + (rnd(GART_SIZE) & ~3u);
        len = MIN(1 + rnd(256), (GR_VA_GART + GART_SIZE - va) / 4);
        break;
    case 3:
        va = GR_VA_PUSH + (rnd(NV50_HOSTCHAN_PUSH_SIZE) & ~3u);
        len = 1 + rnd(512);
        break;
    case 4:
        len = 1 + rnd(0x4000);                  /* past what was written */
        break;
    }
    ib_entry(va, len, nonmain);
}

static void fz_gart_fill(void)
{
    uint32_t at = rnd(GART_SIZE / 4 - 64);

    for (unsigned i = 0; i < 64; i++) {
        stn_le_p(rig.sysmem + (at + i) * 4, 4, no_launch(rnd32()));
    }
}

static void fz_ib_stream(void)
{
    uint32_t w[0x800 + 8];
    uint32_t start;
    unsigned cmds = 1 + rnd(24);

    if (gr.ch.push_put > NV50_HOSTCHAN_PUSH_SIZE - FZ_IB_RESERVE) {
        gr.ch.push_put = gr.ch.push_sent = 0;
    }
    start = gr.ch.push_put;
    if (chance(10)) {
        fz_gart_fill();
    }
    for (unsigned c = 0; c < cmds && gr.ch.push_put - start < FZ_IB_STREAM;
         c++) {
        unsigned n = gen_cmd(w, ARRAY_SIZE(w), true);

        for (unsigned i = 0; i < n; i++) {
            push_word(no_launch(w[i]));
            if (chance(2)) {
                ib_submit_pushed();             /* split anywhere */
            }
        }
        if (chance(10)) {
            ib_submit_pushed();
        }
        if (chance(5)) {
            fz_kick_ib();                       /* the engine runs on */
        }
    }
    if (gr.ch.push_put != gr.ch.push_sent || chance(10)) {
        ib_submit_pushed();
    }
    if (chance(3)) {
        /* a raw random entry (length kept reasonable) */
        uint32_t w0 = rnd32(), w1 = rnd32();

        w1 = (w1 & ~(0x1fffffu << 10)) | rnd(0x400) << 10;
        ib_entry((uint64_t)(w1 & 0xff) << 32 | (w0 & ~3u), w1 >> 10 &
                 0x1fffff, w1 & (1u << 9));
    }
    fz_kick_ib();
}

/* --- the DMA-mode channel --- */

typedef struct DmaBuild {
    uint32_t w[FZ_DMA_WORDS];
    unsigned n;
    /* jumps to patch: word index -> target index (in main) */
    unsigned jmp_at[256], jmp_to[256], njmp;
    unsigned call_at[16], ncall;
} DmaBuild;

static DmaBuild db;

static void db_jump(unsigned gap)
{
    if (db.njmp == ARRAY_SIZE(db.jmp_at)) {
        return;
    }
    db.jmp_at[db.njmp] = db.n;
    db.jmp_to[db.njmp++] = db.n + 1 + gap;
    db.w[db.n++] = 0;
    for (unsigned i = 0; i < gap; i++) {
        db.w[db.n++] = tame(rnd32());         /* skipped garbage */
    }
}

static void db_call(void)
{
    if (db.ncall == ARRAY_SIZE(db.call_at)) {
        return;
    }
    db.call_at[db.ncall++] = db.n;
    db.w[db.n++] = 0;
}

/*
 * The main part of a DMA stream in execution order: commands, some of
 * them random words taken the way the pusher takes them; every jump
 * forward, calls to subroutines placed after the end (past PUT).
 */
static void db_main(unsigned max)
{
    uint32_t w[0x800 + 8];

    db.n = db.njmp = db.ncall = 0;
    while (db.n + 32 < max && chance(94)) {
        unsigned k = rnd(100);

        if (k < 6) {
            db_jump(rnd(8));
            continue;
        }
        if (k < 10) {
            db_call();
            continue;
        }
        if (k < 12) {
            db.w[db.n++] = 0x00020000;          /* return (outside: error) */
            continue;
        }
        if (k < 22) {
            /* random words as the pusher reads them */
            for (unsigned i = 0; i < 4 && db.n + 16 < max; i++) {
                uint32_t x = no_launch(rnd32());
                unsigned cnt;

                switch (dma_kind(x)) {
                case 0:
                    cnt = MIN((x >> 18) & 0x7ff, max - db.n - 2);
                    x = (x & ~(0x7ffu << 18)) | cnt << 18;
                    db.w[db.n++] = x;
                    for (unsigned j = 0; j < cnt; j++) {
                        db.w[db.n++] = no_launch(rnd32());
                    }
                    break;
                case 1:
                case 2:
                    db_jump(rnd(4));
                    break;
                case 3:
                    db_call();
                    break;
                default:
                    db.w[db.n++] = x;           /* return, invalid */
                    break;
                }
            }
            continue;
        }
        {
            unsigned n = gen_cmd(w, MIN(ARRAY_SIZE(w), max - db.n - 1),
                                 false);

            for (unsigned i = 0; i < n; i++) {
                db.w[db.n++] = no_launch(w[i]);
            }
        }
    }
}

static void dma_wr(uint32_t off, uint32_t w)
{
    gr_wr32(FZ_DMA_VA + off, w);
}

/* A subroutine at @off: commands, then (mostly) return; its words. */
static unsigned dma_sub(uint32_t off, unsigned max)
{
    uint32_t w[64];
    unsigned n = 0;

    while (n + 66 < max && chance(70)) {
        unsigned k = gen_cmd(w, ARRAY_SIZE(w), false);

        for (unsigned i = 0; i < k; i++) {
            dma_wr(off + n++ * 4, no_launch(w[i]));
        }
    }
    if (chance(5)) {
        /* a call inside the subroutine: CALL_SUBR_ACTIVE */
        dma_wr(off + n * 4, 0x00000002 | (off + n * 4 + 4));
        n++;
    }
    if (chance(92)) {
        dma_wr(off + n++ * 4, 0x00020000);
    }
    return n;
}

static void fz_dma_stream(void)
{
    unsigned max = 64 + rnd(chance(10) ? 2048 : 256);
    uint32_t start, end, sub;

    if (!fz.dma_up) {
        return;
    }
    db_main(max);
    /* room for main, a wrap jump and the subroutines */
    if (fz.dma_pos + (db.n + 1 + 16 * 70) * 4 > FZ_DMA_SIZE) {
        if (chance(50)) {
            /* nouveau's wrap: a jump to 0, PUT goes to 0 with it */
            dma_wr(fz.dma_pos, 0x00000001);
            fz.dma_pos = 0;
        } else {
            chan_down(FZ_CHID2);
            chan_up(FZ_CHID2);
        }
    }
    start = fz.dma_pos;
    end = start + db.n * 4;
    for (unsigned i = 0; i < db.n; i++) {
        dma_wr(start + i * 4, db.w[i]);
    }
    for (unsigned i = 0; i < db.njmp; i++) {
        uint32_t to = MIN(db.jmp_to[i], db.n);
        uint32_t target = start + to * 4;

        if (target < 0x20000000 && chance(30)) {
            dma_wr(start + db.jmp_at[i] * 4, 0x20000000 | target);
        } else {
            dma_wr(start + db.jmp_at[i] * 4, target | 1);
        }
    }
    sub = end;
    for (unsigned i = 0; i < db.ncall; i++) {
        dma_wr(start + db.call_at[i] * 4, sub | 2);
        sub += dma_sub(sub, 70) * 4;
    }
    fz.dma_pos = end;
    fz_kick_dma(end);
}

/* --- events between streams --- */

static void fz_event(void)
{
    switch (rnd(12)) {
    case 0:     /* channel 1 torn down and set up again */
        chan_down(GR_CHID);
        chan_up(GR_CHID);
        memset(fz.bound, 0, sizeof(fz.bound));
        break;
    case 1:     /* disabled (nvkm's fini), unloaded, enabled again */
        wr32(0x002600 + GR_CHID * 4, rd32(0x002600 + GR_CHID * 4) &
             ~0x80000000u);
        wr32(0x0032fc, (uint32_t)(GR_INST >> 12));
        nv50_engine_sync(rig.s);
        ck_assert_uint_ne(rd32(0x0032fc), 0xffffffff);
        chan_up(GR_CHID);
        fz_kick_ib();
        break;
    case 2:     /* PGRAPH reset (PMC_ENABLE bit 12) */
        wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) & ~NV50_INTR_PGRAPH);
        wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) | NV50_INTR_PGRAPH);
        fz_pgraph_init();
        fz.resets++;
        break;
    case 3:     /* PFIFO reset (PMC_ENABLE bit 8): everything again */
        wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) & ~NV50_INTR_PFIFO);
        wr32(NV_PMC_ENABLE, rd32(NV_PMC_ENABLE) | NV50_INTR_PFIFO);
        fz_pfifo_init();
        gr.ch.push_put = gr.ch.push_sent = gr.ch.ib_put = 0;
        fz.dma_pos = 0;
        chan_up(GR_CHID);
        chan_up(FZ_CHID2);
        fz_runlist();
        memset(fz.bound, 0, sizeof(fz.bound));
        fz.resets++;
        break;
    default:
        break;
    }
}

/* --- the rounds --- */

static void fz_round_start(void)
{
    chan_down(GR_CHID);
    chan_down(FZ_CHID2);
    fz_settle();
    fz_repair();
    chan_up(FZ_CHID2);
    fz_runlist();
    memset(fz.bound, 0, sizeof(fz.bound));
    /* the log would grow without bound: start it over */
    fflush(rig.log);
    ck_assert_int_eq(ftruncate(fileno(rig.log), 0), 0);
    rewind(rig.log);
}

static unsigned env_uint(const char *name, unsigned def)
{
    const char *v = getenv(name);

    return v && *v ? (unsigned)strtoul(v, NULL, 0) : def;
}

static void setup(void)
{
    gr_rig_init();
    gemu_loglevel |= LOG_UNIMP;
    memset(&fz, 0, sizeof(fz));
    fz.rng = env_uint("GEMU_FUZZ_SEED", FUZZ_SEED) | 1ull << 40;
    fz.iters = env_uint("GEMU_FUZZ_ITERS", FUZZ_ITERS);
    for (uint32_t id = 1; id < 0x10000; id++) {
        if (nv50_gr_class_find(id)) {
            ck_assert_uint_lt(fz.nclasses, FZ_MAX_CLASSES);
            fz.classes[fz.nclasses++] = id;
        }
    }
    ck_assert_uint_gt(fz.nclasses, 0);
    /* channel 2 in DMA mode joins channel 1 on the runlist */
    fz_ramfc(FZ_RAMFC2, FZ_DMA_OBJ, false);
    chan_up(FZ_CHID2);
    fz_runlist();
    fz.dma_up = true;
}

static void teardown(void)
{
    fprintf(stderr, "nv50-fuzz: %u streams; acknowledged: %u DMA_PUSHER, "
            "%u CACHE_ERROR, %u SEMAPHORE, %u PGRAPH, %u VM faults; "
            "%u parked, %u teardowns, %u resets, %u left in a subroutine\n",
            fz.streams, fz.n_pusher, fz.n_cache, fz.n_sem, fz.n_gr, fz.n_vm,
            fz.parks, fz.teardowns, fz.resets, fz.stale_subr);
    gr_rig_teardown();
}

/* @mix: 0 IB only, 1 DMA only, 2 both (and events) */
static void fz_run(unsigned seed_salt, int mix)
{
    fz.rng ^= (uint64_t)seed_salt * 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < fz.iters; i++) {
        if (i % FUZZ_ROUND == 0) {
            fz_round_start();
        }
        if (mix == 2 && chance(4)) {
            fz_event();
        }
        if (mix == 0 || (mix == 2 && chance(60))) {
            fz_ib_stream();
            if (mix == 2 && chance(30)) {
                fz_dma_stream();                /* both run at once */
            }
        } else {
            fz_dma_stream();
        }
        fz.streams++;
        fz_check();
    }
}

START_TEST(fuzz_ib)
{
    fz_run(1, 0);
}
END_TEST

START_TEST(fuzz_dma)
{
    fz_run(2, 1);
}
END_TEST

START_TEST(fuzz_mixed)
{
    fz_run(3, 2);
}
END_TEST

Suite *nv50_fuzz_suite(void)
{
    Suite *s = suite_create("nv50-fuzz");
    TCase *tc = tcase_create("streams");

    tcase_add_checked_fixture(tc, setup, teardown);
    /* a hang is a failure: the timeout is the watchdog */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, fuzz_ib);
    tcase_add_test(tc, fuzz_dma);
    tcase_add_test(tc, fuzz_mixed);
    suite_add_tcase(s, tc);
    return s;
}
