/*
 * The NVIDIA G84 (NV50 family, "Tesla") card: state shared by its units.
 *
 * Each unit lives in its own file under hw/nv50/ and owns a range of BAR0
 * listed in the block table of nv50.c.  Register addresses are absolute
 * BAR0 addresses (nv50_regs.h) so that handlers read like the manual.
 * Threads: the machine's loop makes every MMIO access; the engine thread
 * (engine.c) runs PFIFO's channels and PGRAPH; what they share is
 * guarded by eng_lock and pmc.lock (docs/devel/threading.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_NV50_H
#define HW_NV50_NV50_H

#include "gemu/osdep.h"
#include "hw/core/clock.h"
#include "hw/core/dma.h"
#include "hw/core/memory.h"
#include "hw/pci/pci.h"
#include "hw/nv50/nv50_regs.h"

#define TYPE_NV50               "nv50"

#define NV50_BAR0_SIZE          0x01000000u     /* 16 MiB registers */
#define NV50_BAR3_SIZE          0x02000000u     /* 32 MiB instance aperture */
#define NV50_VRAM_DEFAULT       (256u << 20)
#define NV50_VRAM_MIN           (16u << 20)
#define NV50_VRAM_MAX           (1024u << 20)   /* BAR1 is a 32-bit BAR */

/* G84: PCI 10de:0400 (GeForce 8600 GTS), BOOT_0 0x084000a2 */
#define NV50_G84_BOOT0          0x084000a2u
#define NV50_G84_DEVICE_ID      0x0400

/* BAR indices as nouveau uses them (resource 0, 1 and 3) */
#define NV50_BAR_MMIO           0
#define NV50_BAR_VRAM           1
#define NV50_BAR_INST           3

typedef struct NV50State NV50State;

/* What a BAR aperture's handlers need: the card and which BAR (1, 3). */
typedef struct NV50BarAperture {
    NV50State *s;
    int bar;
} NV50BarAperture;

/*
 * One row of the block table: a unit's name (envytools), its BAR0 range,
 * and its handlers.  addr is the absolute BAR0 address.  Register units
 * take 32-bit accesses (impl 4..4, the default); byte-addressed units
 * (PROM, PMEM, PRMIO) say which sizes they take.
 */
typedef struct NV50Block {
    const char *name;
    hwaddr base;
    hwaddr size;
    uint64_t (*read)(NV50State *s, hwaddr addr, unsigned size);
    void (*write)(NV50State *s, hwaddr addr, uint64_t val, unsigned size);
    unsigned impl_min;
    unsigned impl_max;
} NV50Block;

typedef struct NV50BlockInst {
    NV50State *s;
    const NV50Block *blk;
    MemoryRegionOps ops;
    MemoryRegion mr;
} NV50BlockInst;

/* PMC interrupt sources (bits of PMC_INTR_HOST on G84, nvkm mc/g84.c) */
#define NV50_INTR_PFIFO         (1u << 8)
#define NV50_INTR_PGRAPH        (1u << 12)
#define NV50_INTR_PTIMER        (1u << 20)
#define NV50_INTR_PNVIO         (1u << 21)      /* GPIO and I2C */
#define NV50_INTR_PDISPLAY      (1u << 26)
#define NV50_INTR_PBUS          (1u << 28)

typedef struct NV50PMC {
    /*
     * Guards intr_en and sources: units raise interrupts from the MMIO
     * thread and from the engine thread alike (docs/devel/threading.md).
     */
    GMutex lock;
    uint32_t intr_en;           /* 0x000140 */
    uint32_t enable;            /* 0x000200 */
    uint32_t sources;           /* pending unit bits, as units report */
} NV50PMC;

typedef struct NV50PBus {
    uint32_t intr;              /* 0x001100 */
    uint32_t intr_en;           /* 0x001140 */
    uint32_t hwunits_0;         /* 0x001540 */
    uint32_t hwunits_1;         /* 0x00154c */
    uint32_t regs[0x1000 / 4];  /* plain storage of the rest */
} NV50PBus;

typedef struct NV50PTimer {
    uint32_t intr;              /* 0x009100, bit 0 ALARM */
    uint32_t intr_en;           /* 0x009140 */
    uint32_t clock_div;         /* 0x009200 */
    uint32_t clock_mul;         /* 0x009210 */
    uint32_t clock_source;      /* 0x009220 */
    uint32_t alarm;             /* 0x009420 */
    bool alarm_armed;
    int64_t offset;             /* counter = clock ns + offset */
    uint64_t last;              /* last value returned */
    GemuTimer alarm_timer;
} NV50PTimer;

typedef struct NV50PFB {
    uint32_t cfg0;              /* 0x100200 */
    uint32_t cfg1;              /* 0x100204: row/column/bank layout */
    uint32_t mem_type;          /* 0x100714 */
    uint32_t nisobuf;           /* 0x100c08: scratch page for faults */
    /* VM trap: 0x100c90 selects one of six words read at 0x100c94 */
    uint32_t trap_sel;          /* 0x100c90 bits 30:0 */
    bool trap_pending;          /* 0x100c90 bit 31 */
    uint32_t trap[6];
    uint32_t vm_flush;          /* 0x100c80 */
    uint32_t regs[0x1000 / 4];
} NV50PFB;

typedef struct NV50VM {
    uint32_t pmem_base;         /* 0x001700: PRAMIN window, VRAM >> 16 */
    uint32_t bar_inst;          /* 0x001704 */
    uint32_t bar1_ctxdma;       /* 0x001708 */
    uint32_t bar3_ctxdma;       /* 0x00170c */
    uint32_t bar_unk[8];        /* 0x001900..0x00191c */
    uint32_t flush;             /* 0x070000 */
    uint64_t flushes;           /* TLB + BAR flushes seen (for tests) */
} NV50VM;

/* VGA index/data register sets behind the legacy ports (PRMIO) */
typedef struct NV50VGA {
    uint8_t sr_index, gr_index, cr_index;
    uint8_t sr[256], gr[256], cr[256];
} NV50VGA;

#define NV50_EDID_SIZE          128

/* A bit-banged I2C bus with an optional EEPROM slave (DDC). */
typedef struct NV50I2CBus {
    bool scl, sda;              /* what the card drives (1 = released) */
    bool slave_sda;             /* what the slave drives */
    int state;
    int bit;                    /* bits done in the current byte */
    uint8_t shift;
    bool reading;               /* the master reads from the slave */
    bool addr_phase;            /* next byte is the address byte */
    uint8_t offset;             /* EEPROM address pointer */
    bool offset_set;
    const uint8_t *eeprom;      /* 256-byte view; NULL: no slave */
} NV50I2CBus;

#define NV50_I2C_PORTS          4

typedef struct NV50NVIO {
    uint32_t regs[0x800 / 4];   /* PNVIO 0x00e000-0x00e7ff */
    NV50I2CBus i2c[NV50_I2C_PORTS];
    uint8_t edid[256];          /* EEPROM behind port 1 (TMDS) */
    uint32_t intr;              /* 0x00e054 */
    uint32_t intr_en;           /* 0x00e050 */
} NV50NVIO;

/* PDISPLAY: the display engine (pdisplay.c, evo.c) */
#define NV50_EVO_CHANNELS       9   /* core, base 0-1, ovly 0-1, PIO 5-8 */
#define NV50_EVO_DMA_CHANNELS   5   /* 0-4 fetch pushbuffers */
#define NV50_EVO_METHODS        (0x1000 / 4)
#define NV50_HEADS              2

/* EVO channel numbers (the USER page and 0x610200 control index) */
#define NV50_EVO_CORE           0
#define NV50_EVO_BASE(h)        (1 + (h))
#define NV50_EVO_OVLY(h)        (3 + (h))
#define NV50_EVO_OIMM(h)        (5 + (h))   /* PIO overlay-immediate */
#define NV50_EVO_CURS(h)        (7 + (h))   /* PIO cursor */

/*
 * One EVO channel.  assembly[] holds the method data as the channel
 * received it, armed[] the data as of the channel's last completed
 * UPDATE; both are indexed by method >> 2 (core head h's methods are at
 * 0x800 + h * 0x400 + m).  armed[] is what scanout.c shows.
 */
typedef struct NV50EvoChannel {
    uint32_t put;               /* USER+0, byte offset */
    uint32_t get;               /* USER+4, byte offset */
    bool busy;                  /* its pusher is running (no re-entry) */
    bool error;                 /* stopped on an error until acked */
    uint32_t resume;            /* GET to go on from once acked */
    /* the method the next data words go to (DMA channels) */
    uint32_t mthd;
    uint32_t count;
    bool nonincr;
    /* an UPDATE received and not yet completed: the channel waits */
    bool update_pending;
    bool update_vblank;         /* waiting for its head's vblank */
    uint32_t update_data;
    uint32_t update_ntfy_ctl;   /* notifier control/ctxdma at UPDATE */
    uint32_t update_ntfy_dma;
    uint32_t assembly[NV50_EVO_METHODS];
    uint32_t armed[NV50_EVO_METHODS];
} NV50EvoChannel;

/* A head's raster generator: timing of the armed mode on s->clock. */
typedef struct NV50Raster {
    bool running;
    int64_t t0;                 /* clock ns at line 0, pixel 0 */
    uint32_t khz;               /* pixel clock */
    uint32_t htotal, vtotal;
    uint32_t vblank_start;      /* line where the vblank interrupt fires */
    uint64_t frames_base;       /* vblanks counted before t0 */
    uint32_t hline_latch;       /* 0x616344, latched by a 0x616340 read */
    GemuTimer timer;            /* next vblank */
} NV50Raster;

typedef struct NV50PDisplay {
    uint32_t regs[0x20000 / 4];     /* 0x610000-0x62ffff */
    NV50EvoChannel chan[NV50_EVO_CHANNELS];
    uint64_t updates;               /* core UPDATEs completed (tests) */
    /* the supervisor sequence of a core UPDATE (0x610024 bits 4-6) */
    int super_stage;                /* 0 idle, 1-3: waiting for the ack */
    uint32_t super_heads;           /* 0x610030 head bits */
    uint32_t super_chans;           /* channels interlocked with it */
    GemuTimer super_timer;          /* the ack was not seen in time */
    NV50Raster raster[NV50_HEADS];
} NV50PDisplay;

/* PFIFO channels: 0 is PIO, 127 the "inactive" channel (nvkm) */
#define NV50_FIFO_CHANNELS      128

struct NV50GrCtx;

/* PGRAPH (pgraph.c, hw/nv50/gr/): registers and per-channel contexts */
typedef struct NV50PGraph {
    uint32_t regs[0x20000 / 4];     /* 0x400000-0x41ffff, as written */
    struct NV50GrCtx *ctx[NV50_FIFO_CHANNELS];  /* engine thread's */
    int busy;                       /* atomic: a method is running */
} NV50PGraph;

struct NV50PFifo;
struct NV50Engine;

struct NV50State {
    PCIDevice parent_obj;

    /* properties (set before realize) */
    uint32_t boot0;
    uint64_t vram_size;

    GemuClock *clock;           /* not owned */
    DmaAddressSpace dma;        /* guest RAM, for host-memory PTEs */

    uint8_t *vram;
    uint8_t *vbios;
    size_t vbios_size;

    MemoryRegion bar0;          /* container of the unit blocks */
    MemoryRegion bar1;
    MemoryRegion bar3;
    NV50BarAperture bar1_ap, bar3_ap;
    MemoryRegion rom;
    NV50BlockInst *blocks;
    size_t num_blocks;

    NV50PMC pmc;
    NV50PBus pbus;
    NV50PTimer ptimer;
    NV50PFB pfb;
    NV50VM vm;
    NV50VGA vga;
    NV50NVIO nvio;
    NV50PDisplay *pdisp;        /* large: allocated at realize */
    /*
     * The engines: PFIFO's channels and PGRAPH run on the engine thread
     * (engine.c).  eng_lock guards what that thread shares with the MMIO
     * side: PFIFO and PGRAPH registers and channel state.  Lock order:
     * eng_lock, then pmc.lock (docs/devel/threading.md).
     */
    GMutex eng_lock;
    struct NV50Engine *engine;
    struct NV50PFifo *pfifo;
    NV50PGraph *pgraph;
    struct NV50Scanout *scanout;    /* scanout.c: per-head consoles */
    GHashTable *plain_regs;     /* plain RW units: addr -> value */
};

#define NV50(obj) ((NV50State *)(obj))

/*
 * Create a card.  clock: where PTIMER reads time (not owned; it must
 * outlive the card).  ram: guest RAM for host-memory pages (may be NULL
 * and set later with nv50_set_guest_ram).  Returns NULL with *errp set if
 * a property is bad.  vram_size 0 means the default.
 */
NV50State *nv50_new(GemuClock *clock, GuestRAM *ram, uint64_t vram_size,
                    GError **errp);
void nv50_free(NV50State *s);
void nv50_set_guest_ram(NV50State *s, GuestRAM *ram);

/* The block table, in address order (for docs, tests and the monitor). */
const NV50Block *nv50_block_table(size_t *count);
/* The unit owning a BAR0 address, or NULL. */
const NV50Block *nv50_block_find(hwaddr addr);

/* BAR0 register access by offset (for tests and in-card callers). */
uint32_t nv50_rd32(NV50State *s, hwaddr addr);
void nv50_wr32(NV50State *s, hwaddr addr, uint32_t val);

/* Log an access nobody models, once per address, with the unit's name. */
void nv50_unimp(NV50State *s, hwaddr addr, bool is_write, uint64_t val);

/* --- units, as nv50.c wires them --- */

/* PMC: a unit's interrupt source changed; recomputes INTR and INTx. */
void nv50_pmc_set_source(NV50State *s, uint32_t bit, bool pending);
void nv50_pmc_reset(NV50State *s);
uint64_t nv50_pmc_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pmc_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);

void nv50_pbus_reset(NV50State *s);
uint64_t nv50_pbus_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pbus_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);

void nv50_ptimer_init(NV50State *s);
void nv50_ptimer_reset(NV50State *s);
void nv50_ptimer_fini(NV50State *s);
/* The 64-bit counter as TIME_0/TIME_1 hold it (ns, low 5 bits zero). */
uint64_t nv50_ptimer_now(NV50State *s);
/*
 * The counter without touching PTIMER's state (no alarm check, no
 * stall avoidance): for the engine thread's timestamps.
 */
uint64_t nv50_ptimer_peek(NV50State *s);
uint64_t nv50_ptimer_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_ptimer_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size);

void nv50_pfb_reset(NV50State *s);
/* The PFB_CFG1 layout that makes nouveau's row math equal vram_size. */
uint32_t nv50_pfb_cfg1_for_size(uint64_t vram_size);
uint64_t nv50_pfb_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pfb_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);
uint64_t nv50_pstraps_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pstraps_write(NV50State *s, hwaddr addr, uint64_t val,
                        unsigned size);

/* VRAM, by byte address; out of range reads 0 and is a guest error. */
bool nv50_vram_read(NV50State *s, uint64_t addr, void *buf, size_t len);
bool nv50_vram_write(NV50State *s, uint64_t addr, const void *buf,
                     size_t len);
uint32_t nv50_vram_rd32(NV50State *s, uint64_t addr);
void nv50_vram_wr32(NV50State *s, uint64_t addr, uint32_t val);
uint64_t nv50_pmem_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pmem_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);

/* VM: NV50 page tables, the BAR VMs, flushes. */
typedef enum {
    NV50_TARGET_VRAM = 0,
    NV50_TARGET_HOST = 2,       /* snooped system memory */
    NV50_TARGET_HOST_NC = 3,    /* non-snooped system memory */
} NV50Target;

typedef struct NV50Translation {
    uint64_t addr;              /* physical: VRAM offset or guest-phys */
    NV50Target target;
    bool read_only;
    uint64_t page_size;
} NV50Translation;

/*
 * Why an access through a VM or a context DMA failed: the reason codes
 * of PFB's VM trap (nvkm fb/nv50.c vm_fault).
 */
typedef enum {
    NV50_FAULT_PT_NOT_PRESENT = 0x0,
    NV50_FAULT_PT_TOO_SHORT = 0x1,
    NV50_FAULT_PAGE_NOT_PRESENT = 0x2,
    NV50_FAULT_PAGE_READ_ONLY = 0x4,
    NV50_FAULT_NULL_DMAOBJ = 0x6,
    NV50_FAULT_VRAM_LIMIT = 0xb,        /* also guest RAM not there */
    NV50_FAULT_DMAOBJ_LIMIT = 0xf,
} NV50FaultReason;

/* The units of PFB's VM trap (vm_engine / vm_client in nvkm). */
#define NV50_VM_ENGINE_PGRAPH   0x0
#define NV50_VM_ENGINE_PFIFO    0x5
#define NV50_VM_ENGINE_BAR      0x6
#define NV50_VM_CLIENT_STRMOUT  0x0
#define NV50_VM_CLIENT_DISPATCH 0x3
#define NV50_VM_CLIENT_PFIFO_WRITE 0x4
#define NV50_VM_CLIENT_CCACHE   0x5
#define NV50_VM_CLIENT_PFIFO_READ 0x8
#define NV50_VM_CLIENT_VFETCH   0x9
#define NV50_VM_CLIENT_TEXTURE  0xa
#define NV50_VM_CLIENT_PROP     0xb
/* subclients of CCACHE (vm_ccache_subclients) */
#define NV50_VM_SUBCLIENT_CB        0x0
#define NV50_VM_SUBCLIENT_TIC       0x1
#define NV50_VM_SUBCLIENT_TSC       0x2
/* subclients of PROP (vm_prop_subclients): RT0-7 are 0-7 */
#define NV50_VM_SUBCLIENT_ZETA      0x8
#define NV50_VM_SUBCLIENT_LOCAL     0x9
#define NV50_VM_SUBCLIENT_GLOBAL    0xa
#define NV50_VM_SUBCLIENT_STACK     0xb
#define NV50_VM_SUBCLIENT_DST2D     0xc
/* subclients of DISPATCH (vm_dispatch_subclients in nvkm) */
#define NV50_VM_SUBCLIENT_GRCTX     0x0
#define NV50_VM_SUBCLIENT_NOTIFY    0x1
#define NV50_VM_SUBCLIENT_QUERY     0x2
#define NV50_VM_SUBCLIENT_M2M_IN    0x4
#define NV50_VM_SUBCLIENT_M2M_OUT   0x5
#define NV50_VM_SUBCLIENT_M2M_NOTIFY 0x6

typedef struct NV50Fault {
    NV50FaultReason reason;
    uint64_t va;                /* the VA (or object offset) that failed */
    bool write;
} NV50Fault;

const char *nv50_fault_name(NV50FaultReason r);

/*
 * Read or write @len bytes of physical memory: VRAM or guest RAM (the
 * snooped and non-snooped targets alike).  False if any byte is outside.
 */
bool nv50_phys_rw(NV50State *s, NV50Target target, uint64_t addr,
                  void *buf, size_t len, bool is_write);
/*
 * Read or write @len bytes at @va through the page directory at VRAM
 * @pd, page by page.  False at the first faulting page, with *f filled
 * (bytes before it were done).  Engines (PFIFO, PGRAPH) and the BARs
 * all come here.
 */
bool nv50_vm_rw(NV50State *s, uint64_t pd, uint64_t va, void *buf,
                size_t len, bool is_write, NV50Fault *f);
/*
 * Record fault @f of (@engine, @client, @subclient) on the channel whose
 * instance block is at VRAM @inst in PFB's VM trap registers
 * (0x100c90/0x100c94, the six words nvkm's nv50_fb_intr reads), if no
 * trap is pending there yet, and log it.  Called with eng_lock held
 * (the engine thread and BAR accesses both report faults).
 */
void nv50_vm_report_fault(NV50State *s, unsigned engine, unsigned client,
                          unsigned subclient, uint64_t inst,
                          const NV50Fault *f);

/* Walk the page directory at pd (VRAM address) for va; false on fault. */
bool nv50_vm_translate(NV50State *s, uint64_t pd, uint64_t va,
                       NV50Translation *t);
void nv50_vm_reset(NV50State *s);
uint64_t nv50_vm_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_vm_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);
uint64_t nv50_pflush_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pflush_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size);
/* Initialise the BAR1/BAR3 regions (apertures through the BAR VM). */
void nv50_vm_init_bars(NV50State *s);

/* VBIOS: a generated image, served by PROM and the ROM BAR. */
uint8_t *nv50_vbios_build(uint32_t boot0, uint16_t device_id, size_t *size);
uint64_t nv50_prom_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_prom_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size);

/* PRMIO: the VGA CRTC registers nvkm reads to decide "posted". */
void nv50_vga_reset(NV50State *s);
uint64_t nv50_prmio_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_prmio_write(NV50State *s, hwaddr addr, uint64_t val,
                      unsigned size);

/* The EDID of the monitor on the TMDS output (edid.c). */
void nv50_edid_build(uint8_t edid[NV50_EDID_SIZE]);

/* PNVIO: GPIO and the bit-banged I2C buses. */
void nv50_nvio_reset(NV50State *s);
uint64_t nv50_nvio_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_nvio_write(NV50State *s, hwaddr addr, uint64_t val,
                     unsigned size);

/* PDISPLAY (0x610000) and its channels' USER area (0x640000). */
/*
 * What head 0 or 1 shows now (scanout.c): its armed base image, else its
 * core surface, read from VRAM (any layout and format, through the LUT)
 * and converted into a DISPLAY_FORMAT_BGRX8888 host image with packed
 * rows.  out->data belongs to the card and stays valid until the next
 * call for that head; out->addr is the surface's VRAM address.  False
 * with *err set if nothing is armed or the surface is not showable.
 */
struct DisplaySurface;
bool nv50_scanout_surface(NV50State *s, int head,
                          struct DisplaySurface *out, char **err);
/*
 * Write that surface as a PNG (-screendump, the monitor), once the
 * engines are idle; false with *err set.
 */
bool nv50_screendump(NV50State *s, int head, const char *path, char **err);
struct DisplayConsole;
void nv50_scanout_init(NV50State *s);
void nv50_scanout_fini(NV50State *s);
/* Show head @head on @con (NULL: detach); the console is not owned. */
void nv50_scanout_set_console(NV50State *s, int head,
                              struct DisplayConsole *con);
/*
 * Vertical blank of head @head (pdisplay.c's refresh timer): read the
 * armed surface from VRAM and hand what changed to the head's console.
 */
void nv50_scanout_vblank(NV50State *s, int head);

/*
 * Resolve a context DMA handle of EVO channel @chid through the display
 * RAMHT: start and limit (inclusive) of the object and whether it targets
 * VRAM (else guest memory).  False if the handle is not bound.
 */
bool nv50_evo_ctxdma(NV50State *s, int chid, uint32_t handle,
                     uint64_t *start, uint64_t *limit, bool *vram);
/* Head @head's beam position now (as 0x616340/0x616344 would read). */
bool nv50_pdisplay_scanout_pos(NV50State *s, int head, uint32_t *vline,
                               uint32_t *hline, uint64_t *frames);

void nv50_pdisplay_init(NV50State *s);
void nv50_pdisplay_reset(NV50State *s);
void nv50_pdisplay_fini(NV50State *s);
uint64_t nv50_pdisplay_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pdisplay_write(NV50State *s, hwaddr addr, uint64_t val,
                         unsigned size);
uint64_t nv50_pdisplay_user_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pdisplay_user_write(NV50State *s, hwaddr addr, uint64_t val,
                              unsigned size);

/* PFIFO (pfifo.c, pusher.c) and PGRAPH (pgraph.c) registers */
void nv50_pfifo_init(NV50State *s);
void nv50_pfifo_reset(NV50State *s);
void nv50_pfifo_fini(NV50State *s);
uint64_t nv50_pfifo_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pfifo_write(NV50State *s, hwaddr addr, uint64_t val,
                      unsigned size);
uint64_t nv50_pfifo_user_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pfifo_user_write(NV50State *s, hwaddr addr, uint64_t val,
                           unsigned size);
uint64_t nv50_pfifo_cache_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pfifo_cache_write(NV50State *s, hwaddr addr, uint64_t val,
                            unsigned size);

void nv50_pgraph_init(NV50State *s);
void nv50_pgraph_reset(NV50State *s);
void nv50_pgraph_fini(NV50State *s);
uint64_t nv50_pgraph_read(NV50State *s, hwaddr addr, unsigned size);
void nv50_pgraph_write(NV50State *s, hwaddr addr, uint64_t val,
                       unsigned size);

/*
 * The engine thread (engine.c).  nv50_engine_sync() waits (eng_lock not
 * held) until no channel can make progress: every channel is empty,
 * parked on a semaphore, or stopped on an error.
 */
void nv50_engine_sync(NV50State *s);
/*
 * The same, giving up after @timeout_us of host time (a guest may keep
 * the engine busy for ever); false if the engine was still busy.
 */
bool nv50_engine_sync_for(NV50State *s, int64_t timeout_us);
/* Deterministic mode: every kick returns only once the engine is idle. */
void nv50_engine_set_deterministic(NV50State *s, bool on);
/*
 * The card's state as one number (digest.c): VRAM, PFIFO/PGRAPH/PDISPLAY
 * registers, PMC's interrupts, PTIMER; after the engines finish.  For
 * -record's END record and gemu-replay (docs/devel/replay.md).
 */
uint64_t nv50_state_digest(NV50State *s);
/*
 * Could a guest that makes no access be waiting for one of the card's
 * timers: a vblank interrupt enabled on a running head (vblank waits,
 * flips), a display supervisor stage, a PTIMER alarm with its interrupt
 * enabled, a parked channel?  -clock virtual's idle jumps only then.
 */
bool nv50_timer_awaited(NV50State *s);

#endif
