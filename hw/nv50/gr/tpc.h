/*
 * The TPC/MP model of hw/nv50/gr/ (tpc.c): runs a compute launch's
 * blocks, as warps of 32 threads, on the Tesla core (target/tesla).
 *
 * A G84 has 2 TPCs of 2 MPs.  Block b of a grid goes to MP b % 4 (TPC
 * (b % 4) / 2, MP b % 2 in it); each MP runs its blocks one after
 * another, the warps of a block together (so bar works), through one
 * TeslaRun per MP whose $physid names that TPC and MP.  The launch
 * description is plain data (NV50CpLaunch), filled by the compute class
 * from its methods (compute.c) -- or by any caller that has the state --
 * and run by nv50_tpc_launch().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_TPC_H
#define HW_NV50_GR_TPC_H

#include "gr.h"
#include "target/tesla/exec.h"

#define NV50_TPCS           2       /* G84 */
#define NV50_MPS_PER_TPC    2
#define NV50_MPS            (NV50_TPCS * NV50_MPS_PER_TPC)

/* MPC TRAP bits (0x408314 + tp << 12; nvkm nv50_mpc_traps) */
#define NV50_MPC_TRAP_LOCAL_LIMIT_READ      0x00000001u
#define NV50_MPC_TRAP_LOCAL_LIMIT_WRITE     0x00000010u
#define NV50_MPC_TRAP_STACK_LIMIT           0x00000040u
#define NV50_MPC_TRAP_GLOBAL_LIMIT_READ     0x00000100u
#define NV50_MPC_TRAP_GLOBAL_LIMIT_WRITE    0x00001000u
#define NV50_MPC_TRAP_MP(mp)                (0x00010000u << (mp))

/* MP ERROR_CODE bits (0x408214 + tp << 12 + mp << 7; rnndb mp.xml) */
#define NV50_MP_ERR_STACK_UNDERFLOW 0x01u
#define NV50_MP_ERR_STACK_MISMATCH  0x02u
#define NV50_MP_ERR_QUADON_ACTIVE   0x04u
#define NV50_MP_ERR_TIMEOUT         0x08u
#define NV50_MP_ERR_DECODE_ERROR    0x10u
#define NV50_MP_ERR_BREAKPOINT      0x40u

/*
 * A window of the channel's memory: @base bytes into context DMA
 * @dma (the offset >> 4 the 0x180-0x1fc methods carry; 0: none, @base
 * is then a VA in the channel's VM), @size bytes long (0: unbound).
 */
typedef struct NV50CpSpace {
    uint32_t dma;
    uint64_t base;
    uint64_t size;
} NV50CpSpace;

/* One launch, everything resolved to addresses and numbers. */
typedef struct NV50CpLaunch {
    /* code segment; the threads start at @entry (a byte address in it) */
    NV50CpSpace code;
    uint32_t entry;
    unsigned gprs;                  /* registers per thread, 0..128 */
    uint32_t shared_bytes;          /* s[] per block, header included */
    uint32_t local_bytes;           /* l[] per thread */
    unsigned block[3];
    unsigned grid[2];
    uint16_t gridid;                /* s[0x0] */
    /* s[0x10 + 4 * i]: the USER_PARAMs (0x10: grid z | block z << 16) */
    uint32_t user_param[64];
    unsigned user_params;
    NV50CpSpace c[TESLA_NUM_CSPACES];
    NV50CpSpace g[TESLA_NUM_GSPACES];
    bool mul_zero_wins;             /* UNVERIFIED: ISA_FLAGS bit 16, unused */
} NV50CpLaunch;

/* How a launch ended (for the class, and for tools that print it). */
typedef struct NV50CpResult {
    TeslaRunStatus status;          /* DONE or TRAP */
    TeslaError error;
    unsigned tp, mp;                /* where it trapped */
    unsigned block, warp;           /* grid block, warp in the block */
    uint32_t pc;
    uint32_t mpc_trap;              /* the MPC TRAP bits reported */
    uint32_t mp_error;              /* the MP ERROR_CODE reported */
    uint64_t insns;                 /* warp-instructions, all MPs */
    char msg[200];
} NV50CpResult;

/*
 * Run @l to its end (every block exited, or the first trap) on the
 * engine thread; reads and writes memory through the channel of @c.
 * A trap is reported the way the hardware does (PGRAPH TRAP_MP with the
 * MPC TRAP and MP ERROR_CODE / DECODE_ERROR / OPCODE words nvkm reads,
 * PFB's VM trap for a page fault) and the rest of the launch is
 * dropped.  Returns the status; *res (may be NULL) gets the details.
 * @runs keeps each MP's TeslaRun across launches (allocated here when
 * NULL, renewed for each run; their owner frees them).
 */
TeslaRunStatus nv50_tpc_launch(NV50GrCall *c, const NV50CpLaunch *l,
                               NV50CpResult *res, TeslaRun *runs[NV50_MPS]);

/*
 * Read or write through a window of the channel's memory (as launches
 * do): false, without reporting anything, if the window does not hold
 * [@off, @off + @len) or the memory faults (*f says why).
 */
bool nv50_cp_space_rw(NV50GrCall *c, const NV50CpSpace *sp, uint64_t off,
                      void *buf, size_t len, bool is_write, NV50Fault *f);

/*
 * A little TLB of the channel's VM for the length of one piece of work
 * (a compute launch's MP, one texture instruction): its owner zeroes it
 * and drops it before the page tables can have changed under it.
 */
#define NV50_TLB_PAGE_BITS      12
#define NV50_TLB_PAGE_SIZE      (1u << NV50_TLB_PAGE_BITS)

typedef struct NV50TlbEntry {
    uint64_t vpage;             /* va >> 12, +1 (0: empty) */
    uint64_t phys;              /* of the page's first byte */
    NV50Target target;
    bool read_only;
} NV50TlbEntry;

/*
 * The @len bytes at @va (inside one page) where they lie in @vram, when
 * @tlb already holds their page and it is in VRAM; NULL otherwise (then
 * nv50_tlb_rw fills the entry or reports the fault).
 */
static inline uint8_t *nv50_tlb_vram(const NV50TlbEntry *tlb,
                                     unsigned entries, uint8_t *vram,
                                     uint64_t vram_size, uint64_t va,
                                     size_t len)
{
    uint64_t vp = va >> NV50_TLB_PAGE_BITS;
    uint64_t in = va & (NV50_TLB_PAGE_SIZE - 1);
    const NV50TlbEntry *e = &tlb[vp % entries];

    if (e->vpage != vp + 1 || e->target != NV50_TARGET_VRAM ||
        in + len > NV50_TLB_PAGE_SIZE || e->phys + in + len > vram_size) {
        return NULL;
    }
    return vram + e->phys + in;
}

/*
 * @len bytes at @va through the channel's VM and the @entries entries
 * of @tlb (direct-mapped by page); false, without reporting anything,
 * at a fault (*f says why).
 */
bool nv50_tlb_rw(NV50GrCall *c, NV50TlbEntry *tlb, unsigned entries,
                 uint64_t va, void *buf, size_t len, bool is_write,
                 NV50Fault *f);

#endif
