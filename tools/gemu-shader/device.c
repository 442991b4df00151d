/*
 * gemu-shader --device (device.h): a compute state file's launch run the
 * way a host program runs one on a G84, on the in-process card.
 *
 * - The card: nv50_new() on a virtual clock, 1 MiB of guest RAM as the
 *   GART window, one host channel (hw/nv50/hostchan.c) whose VA
 *   DEV_VA_BASE maps VRAM from DEV_VRAM_BASE (one page table: at most
 *   512 MiB) and DEV_VA_GART the guest RAM.
 * - Memory: the program, then CODE_PAD bytes of illegal instructions, a
 *   64 KiB constant buffer per cK written, and every gK declared go
 *   straight into VRAM, as the host CPU writes them through BAR1.
 * - The launch: G80_COMPUTE (0x50c0, subchannel 1) methods -- code
 *   address, CB_DEF_SET/SET_PROGRAM_CB for c0..c15, GLOBAL[K] for g0..g15,
 *   LOCAL_SIZE_LOG, SHARED_SIZE, CP_REG_ALLOC_TEMP, BLOCKDIM, GRIDDIM,
 *   the s[0x14..] words as USER_PARAM 1.. -- and, the class's grid having
 *   no z, one LAUNCH per z slice with USER_PARAM 0 (s[0x10]) = grid z |
 *   slice << 16.  The class rounds l[] up to a power of two and s[] up
 *   to a multiple of 0x40 bytes.
 * - Traps: what nvkm reads -- PGRAPH INTR.TRAP and TRAP.MP, each TP's
 *   MPC TRAP word (0x408314 + tp << 12), the MP's ERROR_CODE,
 *   DECODE_ERROR and pc/warp words (0x408200 + tp << 12 + mp << 7 +
 *   0x14, 0x20, 0x24; hw/nv50/gr/tpc.c writes them, nvkm's
 *   nv50_gr_mp_trap reads them).
 * - Budget: the launches share --max-insns warp-instructions
 *   (nv50_engine_set_insn_budget); past them the MP traps with TIMEOUT,
 *   as the interpreter's run does.
 * - Dumps: each gK range is copied by G80_M2MF (0x5039, subchannel 0)
 *   into the GART window and read from guest RAM, then printed by the
 *   interpreter path's printer (print.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/hostchan.h"
#include "hw/nv50/engine.h"
#include "device.h"
#include "print.h"

/* the channel's memory */
#define DEV_CHID            1
#define DEV_INST            0x200000ull
#define DEV_VRAM_BASE       0x1000000ull
#define DEV_VA_BASE         0x20000000ull
#define DEV_VA_GART         0x40000000ull
#define DEV_GART_GPA        0x10000000ull
#define DEV_GART_SIZE       0x100000u
#define DEV_WINDOW_MAX      0x20000000ull   /* one page table's reach */
#define DEV_DATA            0x20000u        /* after pushbuffer and IB */
#define DEV_ALIGN           0x10000u
#define DEV_VRAM_MIN        (64u << 20)
/*
 * Illegal instructions after the program, at least as much as tpc.c
 * copies past the entry point: a pc that leaves the program traps on
 * the device with a decode error there (ILLEGAL_OPCODE, or
 * UNALIGNED_LONG_INSTRUCTION at an odd word), where the interpreter
 * reports a MEMORY_FAULT ("pc outside the code"); dev_trap() says the
 * latter.
 */
#define CODE_PAD            0x40000u
#define CB_BYTES            0x10000u

/* objects: handles, and the notifier's context DMA (offset >> 4) */
#define H_M2MF              0xd0005039u
#define H_COMPUTE           0xd00050c0u
#define H_NOTIFY            0xd0000010u
#define DMA_NOTIFY          0x104
#define SUBC_M2MF           0
#define SUBC_COMPUTE        1

/* methods every class has, and G80_M2MF's (rnndb nv_m2mf.xml) */
#define MTHD_OBJECT                 0x0000
#define MTHD_DMA_NOTIFY             0x0180
#define M2MF_DMA_BUFFER_IN          0x0184
#define M2MF_DMA_BUFFER_OUT         0x0188
#define M2MF_LAYOUT_IN              0x0200
#define M2MF_LAYOUT_OUT             0x021c
#define M2MF_OFFSET_IN_HIGH         0x0238
#define M2MF_OFFSET_IN              0x030c  /* .. OUT, PITCHes, LINE_*, */
#define M2MF_LAYOUT_PITCH           1       /* FORMAT, BUF_NOTIFY */

/* G80_COMPUTE (rnndb g80_compute.xml) */
#define CP_DMA_GLOBAL               0x01a0
#define CP_DMA_CODE_CB              0x01c0
#define CP_CP_ADDRESS_HIGH          0x0210
#define CP_LOCAL_SIZE_LOG           0x029c
#define CP_CB_DEF_ADDRESS_HIGH      0x02a4
#define CP_CB_DEF_SET               0x02ac
#define CP_BLOCK_ALLOC              0x02b4
#define CP_CP_REG_ALLOC_TEMP        0x02c0
#define CP_LAUNCH                   0x0368
#define CP_USER_PARAM_COUNT         0x0374
#define CP_GRIDDIM                  0x03a4
#define CP_SHARED_SIZE              0x03a8
#define CP_BLOCKDIM_XY              0x03ac
#define CP_BLOCKDIM_Z               0x03b0
#define CP_CP_START_ID              0x03b4
#define CP_SET_PROGRAM_CB           0x03c8
#define CP_GLOBAL(i)                (0x0400 + 0x20 * (i))
#define CP_GLOBAL_MODE_LINEAR       1
#define CP_USER_PARAM(i)            (0x0600 + 4 * (i))
#define CP_USER_PARAMS              64
#define CP_SHARED_STEP              0x40u
#define CP_USER_BASE                0x10u   /* s[] of USER_PARAM 0 */

/* registers */
#define PFIFO_INTR                  0x002100
#define PFIFO_INTR_EN               0x002140
#define PGRAPH_INTR                 0x400100
#define PGRAPH_INTR_TRAP            0x00200000u
#define PGRAPH_TRAP                 0x400108
#define PGRAPH_TRAP_MP              0x080u
#define PGRAPH_DATA_ERROR           0x400110
#define PGRAPH_TRAP_EN              0x400138
#define PGRAPH_INTR_EN              0x40013c
#define PGRAPH_TRAPPED_ADDR         0x400704
#define MPC_TRAP(tp)                (0x408314 + ((tp) << 12))
#define MPC_TRAP_LIMITS             0x00001151u /* LOCAL/GLOBAL/STACK */
#define MPC_TRAP_MP(mp)             (0x00010000u << (mp))
#define MP_REG(tp, mp, r)           (0x408200 + ((tp) << 12) + \
                                     ((mp) << 7) + (r))
#define MP_ERROR_CODE               0x14
#define MP_ERROR_DECODE             0x10u
#define MP_DECODE_ERROR             0x20
#define MP_PC_WARP                  0x24
#define MP_OPCODE                   0x70
#define MP_OPCODE_HI                0x74
#define G84_TPS                     2
#define G84_MPS_PER_TP              2

#define DIV_ROUND_UP(n, d)          (((n) + (d) - 1) / (d))
#define ALIGN_UP(n, a)              (DIV_ROUND_UP(n, a) * (a))

/* Where everything goes: offsets in the VRAM window (= VA - DEV_VA_BASE) */
typedef struct DevLayout {
    uint64_t notify;
    uint64_t code;
    uint64_t cb[TESLA_NUM_CSPACES];
    uint64_t g[TESLA_NUM_GSPACES];
    uint64_t end;
} DevLayout;

typedef struct Dev {
    const ShaderState *st;
    DevLayout lay;
    GemuClock clk;
    GuestRAM *ram;
    uint8_t *sysmem;
    NV50State *s;
    NV50HostChan ch;
} Dev;

/* false with *line: the directive whose memory does not fit. */
static bool dev_layout(const ShaderState *st, DevLayout *l, int *line)
{
    uint64_t off = DEV_DATA;

    memset(l, 0, sizeof(*l));
    l->notify = off;
    off += DEV_ALIGN;
    l->code = off;
    off += ALIGN_UP((uint64_t)st->code_words * 4 + CODE_PAD, DEV_ALIGN);
    for (int i = 0; i < TESLA_NUM_CSPACES; i++) {
        if (st->cspace[i]) {
            l->cb[i] = off;
            off += CB_BYTES;
        }
    }
    *line = st->code_line;
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        if (st->g[i].line) {
            l->g[i] = off;
            off += ALIGN_UP((uint64_t)st->g[i].size, DEV_ALIGN);
            if (off > DEV_WINDOW_MAX) {
                *line = st->g[i].line;
                break;
            }
        }
    }
    l->end = off;
    return off <= DEV_WINDOW_MAX;
}

static const char *stage_name(TeslaProgType p)
{
    switch (p) {
    case TESLA_PROG_VP:
        return "vertex";
    case TESLA_PROG_GP:
        return "geometry";
    case TESLA_PROG_FP:
        return "fragment";
    default:
        return "compute";
    }
}

char *shader_device_check(const ShaderState *st)
{
    DevLayout lay;
    int line;

    if (st->stage != TESLA_PROG_CP) {
        return g_strdup_printf("%s:%d: --device runs compute programs "
                               "only, not stage %s", st->path,
                               st->stage_line, stage_name(st->stage));
    }
    if (st->chip != TESLA_G84) {
        return g_strdup_printf("%s:%d: --device runs on a G84, not chip "
                               "%s", st->path, st->chip_line,
                               tesla_variant_name(st->chip));
    }
    for (guint i = 0; i < st->dumps->len; i++) {
        const ShaderDump *d = &g_array_index(st->dumps, ShaderDump, i);

        if (d->kind != SHADER_DUMP_GLOBAL) {
            return g_strdup_printf("%s:%d: --device cannot dump registers "
                                   "(nothing reads them back from the "
                                   "card); dump gK[] instead", st->path,
                                   d->line);
        }
    }
    for (guint i = 0; i < st->swords->len; i++) {
        const ShaderWord *w = &g_array_index(st->swords, ShaderWord, i);

        if (w->addr >= CP_USER_BASE + 4 * CP_USER_PARAMS) {
            return g_strdup_printf("%s:%d: --device passes s[] words as "
                                   "the compute class's %u USER_PARAMs: "
                                   "s[0x%x..0x%x] only, not s[0x%x]",
                                   st->path, w->line, CP_USER_PARAMS - 1,
                                   SHADER_SHARED_HEADER,
                                   CP_USER_BASE + 4 * CP_USER_PARAMS - 4,
                                   w->addr);
        }
    }
    if (!dev_layout(st, &lay, &line)) {
        return g_strdup_printf("%s:%d: --device: the program and the "
                               "spaces declared need 0x%" PRIx64 " bytes "
                               "of VRAM, more than the 0x%llx the tool "
                               "maps", st->path, line, lay.end,
                               (unsigned long long)DEV_WINDOW_MAX);
    }
    return NULL;
}

/* --- the channel --------------------------------------------------------- */

static uint32_t rd(Dev *d, hwaddr reg)
{
    return nv50_rd32(d->s, reg);
}

static void wr(Dev *d, hwaddr reg, uint32_t v)
{
    nv50_wr32(d->s, reg, v);
}

static uint64_t va(uint64_t off)
{
    return DEV_VA_BASE + off;
}

/* The host CPU writing VRAM through BAR1. */
static void vram_put(Dev *d, uint64_t off, const void *buf, size_t len)
{
    nv50_vram_write(d->s, DEV_VRAM_BASE + off, buf, len);
}

static void mthd(Dev *d, unsigned subc, uint32_t m, const uint32_t *data,
                 unsigned n)
{
    if (!nv50_hostchan_room(&d->ch, n + 1)) {
        nv50_hostchan_submit(&d->ch);
    }
    nv50_hostchan_mthd(&d->ch, subc, m, data, n);
}

static void mthd1(Dev *d, unsigned subc, uint32_t m, uint32_t v)
{
    mthd(d, subc, m, &v, 1);
}

/*
 * Submit what was pushed and wait for it.  Anything PFIFO or PGRAPH
 * complains about, but an MP trap when @trap_ok, is the tool's mistake:
 * false with a message.
 */
static bool dev_submit(Dev *d, const char *what, bool trap_ok)
{
    uint32_t fintr, gintr, trap;

    nv50_hostchan_submit(&d->ch);
    fintr = rd(d, PFIFO_INTR);
    gintr = rd(d, PGRAPH_INTR);
    trap = rd(d, PGRAPH_TRAP);
    if (!fintr && (!gintr || (trap_ok && gintr == PGRAPH_INTR_TRAP &&
                              trap == PGRAPH_TRAP_MP))) {
        return true;
    }
    fprintf(stderr, "gemu-shader: --device: the card refused %s: PFIFO "
            "INTR 0x%08x, PGRAPH INTR 0x%08x TRAP 0x%08x DATA_ERROR 0x%x "
            "(subchannel/method 0x%x)\n", what, fintr, gintr, trap,
            rd(d, PGRAPH_DATA_ERROR), rd(d, PGRAPH_TRAPPED_ADDR));
    return false;
}

static bool dev_init(Dev *d, const ShaderState *st)
{
    NV50HostChanConfig cfg = {
        .chid = DEV_CHID, .inst = DEV_INST,
        .va_base = DEV_VA_BASE, .vram_base = DEV_VRAM_BASE,
        .gart_va = DEV_VA_GART, .gart_gpa = DEV_GART_GPA,
        .gart_len = DEV_GART_SIZE,
    };
    g_autofree char *err = NULL;
    GError *gerr = NULL;
    uint64_t vram = DEV_VRAM_MIN;
    int line;

    d->st = st;
    if (!dev_layout(st, &d->lay, &line)) {
        return false;           /* shader_device_check() said so */
    }
    cfg.vram_len = MAX(ALIGN_UP(d->lay.end, DEV_ALIGN), 0x20000);
    while (vram < DEV_VRAM_BASE + cfg.vram_len) {
        vram <<= 1;
    }
    gemu_clock_init(&d->clk, GEMU_CLOCK_VIRTUAL);
    d->ram = guest_ram_new();
    d->sysmem = g_malloc0(DEV_GART_SIZE);
    guest_ram_add(d->ram, DEV_GART_GPA, DEV_GART_SIZE, d->sysmem);
    d->s = nv50_new(&d->clk, d->ram, vram, &gerr);
    if (!d->s) {
        fprintf(stderr, "gemu-shader: --device: %s\n", gerr->message);
        g_error_free(gerr);
        return false;
    }
    /* nv50_fifo_init, nv50_gr_init: interrupts on, nothing pending */
    wr(d, PFIFO_INTR, 0xffffffff);
    wr(d, PFIFO_INTR_EN, 0xbfffffff);
    wr(d, PGRAPH_TRAP, 0xffffffff);
    wr(d, PGRAPH_TRAP_EN, 0xffffffff);
    wr(d, PGRAPH_INTR, 0xffffffff);
    wr(d, PGRAPH_INTR_EN, 0xffffffff);
    if (!nv50_hostchan_init(&d->ch, d->s, &cfg, &err)) {
        fprintf(stderr, "gemu-shader: --device: %s\n", err);
        return false;
    }
    nv50_hostchan_ctxdma(&d->ch, DMA_NOTIFY, NV50_DMA_VM,
                         va(d->lay.notify), va(d->lay.notify) + 0xff);
    nv50_hostchan_ramht_insert(&d->ch, H_NOTIFY, DMA_NOTIFY);
    nv50_hostchan_object(&d->ch, 0x5039, H_M2MF);
    nv50_hostchan_object(&d->ch, 0x50c0, H_COMPUTE);
    return true;
}

static void dev_fini(Dev *d)
{
    if (d->s) {
        nv50_free(d->s);
    }
    if (d->ram) {
        guest_ram_free(d->ram);
        gemu_clock_destroy(&d->clk);
    }
    g_free(d->sysmem);
}

/* --- the work ------------------------------------------------------------ */

/* The program, the const spaces, the global spaces: into VRAM. */
static void dev_upload(Dev *d)
{
    const ShaderState *st = d->st;
    size_t code_bytes = st->code_words * 4;
    g_autofree uint8_t *code = g_malloc(code_bytes + CODE_PAD);

    for (size_t i = 0; i < st->code_words; i++) {
        uint32_t w = st->code[i];

        code[4 * i] = w;
        code[4 * i + 1] = w >> 8;
        code[4 * i + 2] = w >> 16;
        code[4 * i + 3] = w >> 24;
    }
    memset(code + code_bytes, 0xff, CODE_PAD);
    vram_put(d, d->lay.code, code, code_bytes + CODE_PAD);
    for (int i = 0; i < TESLA_NUM_CSPACES; i++) {
        if (st->cspace[i]) {
            vram_put(d, d->lay.cb[i], st->cspace[i],
                     MIN(st->cspace_size[i], CB_BYTES));
        }
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        if (st->g[i].line) {
            vram_put(d, d->lay.g[i], st->g[i].data, st->g[i].size);
        }
    }
}

/* log2(bytes / 8) for LOCAL_SIZE_LOG: the power of two at or above. */
static uint32_t local_size_log(uint32_t bytes)
{
    uint32_t lg = 1;

    if (!bytes) {
        return 0;               /* no l[] */
    }
    while ((8u << lg) < bytes) {
        lg++;
    }
    return lg;
}

/* Everything but the z slice's USER_PARAM 0 and LAUNCH. */
static void dev_compute_state(Dev *d)
{
    const ShaderState *st = d->st;
    uint32_t user[CP_USER_PARAMS] = { 0 };
    unsigned nuser = 1;
    uint32_t threads = st->block[0] * st->block[1] * st->block[2];
    uint64_t code = va(d->lay.code);

    mthd1(d, SUBC_M2MF, MTHD_OBJECT, H_M2MF);
    mthd1(d, SUBC_M2MF, MTHD_DMA_NOTIFY, H_NOTIFY);
    mthd1(d, SUBC_M2MF, M2MF_DMA_BUFFER_IN, NV50_HOSTCHAN_H_VM);
    mthd1(d, SUBC_M2MF, M2MF_DMA_BUFFER_OUT, NV50_HOSTCHAN_H_VM);
    mthd1(d, SUBC_M2MF, M2MF_LAYOUT_IN, M2MF_LAYOUT_PITCH);
    mthd1(d, SUBC_M2MF, M2MF_LAYOUT_OUT, M2MF_LAYOUT_PITCH);

    mthd1(d, SUBC_COMPUTE, MTHD_OBJECT, H_COMPUTE);
    mthd1(d, SUBC_COMPUTE, CP_DMA_CODE_CB, NV50_HOSTCHAN_H_VM);
    mthd1(d, SUBC_COMPUTE, CP_DMA_GLOBAL, NV50_HOSTCHAN_H_VM);
    mthd(d, SUBC_COMPUTE, CP_CP_ADDRESS_HIGH,
         (uint32_t[]){ code >> 32, (uint32_t)code }, 2);
    mthd1(d, SUBC_COMPUTE, CP_CP_START_ID, 0);
    mthd1(d, SUBC_COMPUTE, CP_CP_REG_ALLOC_TEMP, st->gprs);
    mthd1(d, SUBC_COMPUTE, CP_LOCAL_SIZE_LOG, local_size_log(st->local));
    mthd1(d, SUBC_COMPUTE, CP_SHARED_SIZE,
          ALIGN_UP(st->shared, CP_SHARED_STEP));
    for (int i = 0; i < TESLA_NUM_CSPACES; i++) {
        uint64_t a = va(d->lay.cb[i]);

        if (!st->cspace[i]) {
            continue;
        }
        /* buffer i, 64 KiB (size 0), bound to c[i] */
        mthd(d, SUBC_COMPUTE, CP_CB_DEF_ADDRESS_HIGH,
             (uint32_t[]){ a >> 32, (uint32_t)a, i << 16 }, 3);
        mthd1(d, SUBC_COMPUTE, CP_SET_PROGRAM_CB, i << 12 | i << 8 | 1);
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        uint64_t a = va(d->lay.g[i]);

        if (!st->g[i].line) {
            continue;           /* unbound: any access faults */
        }
        mthd(d, SUBC_COMPUTE, CP_GLOBAL(i),
             (uint32_t[]){ a >> 32, (uint32_t)a, 0, st->g[i].size - 1,
                           CP_GLOBAL_MODE_LINEAR }, 5);
    }
    mthd1(d, SUBC_COMPUTE, CP_BLOCKDIM_XY, st->block[1] << 16 | st->block[0]);
    mthd1(d, SUBC_COMPUTE, CP_BLOCKDIM_Z, st->block[2]);
    mthd1(d, SUBC_COMPUTE, CP_BLOCK_ALLOC, 1 << 16 | threads);
    mthd1(d, SUBC_COMPUTE, CP_GRIDDIM, st->grid[1] << 16 | st->grid[0]);
    for (guint i = 0; i < st->swords->len; i++) {
        const ShaderWord *w = &g_array_index(st->swords, ShaderWord, i);
        unsigned p = (w->addr - CP_USER_BASE) / 4;

        user[p] = w->value;
        nuser = MAX(nuser, p + 1);
    }
    mthd1(d, SUBC_COMPUTE, CP_USER_PARAM_COUNT, nuser << 8);
    if (nuser > 1) {
        mthd(d, SUBC_COMPUTE, CP_USER_PARAM(1), user + 1, nuser - 1);
    }
}

/*
 * An MP trap, as nvkm finds it: which TP's MPC TRAP word, which MP
 * (its bit, or for a LOCAL/GLOBAL limit the MP whose words are set),
 * then the MP's ERROR_CODE, DECODE_ERROR and pc/warp words.  Prints
 * the trap line, acknowledges the trap as nvkm does.
 */
static void dev_trap(Dev *d, unsigned z)
{
    const ShaderState *st = d->st;
    unsigned tp = 0, mp = 0, w, per_block, nb;
    uint32_t mpc = 0, err, decode, pcw, op, op_hi, pc;
    TeslaError e = TESLA_ERR_ILLEGAL_OPCODE;

    for (tp = 0; tp < G84_TPS; tp++) {
        mpc = rd(d, MPC_TRAP(tp));
        if (mpc & 0x7fffffff) {
            break;
        }
    }
    tp = MIN(tp, G84_TPS - 1u);
    for (mp = 0; mp < G84_MPS_PER_TP; mp++) {
        if (mpc & MPC_TRAP_MP(mp)) {
            break;
        }
    }
    if (mp == G84_MPS_PER_TP) {
        for (mp = 0; mp < G84_MPS_PER_TP; mp++) {
            if (rd(d, MP_REG(tp, mp, MP_OPCODE)) ||
                rd(d, MP_REG(tp, mp, MP_PC_WARP))) {
                break;
            }
        }
        mp %= G84_MPS_PER_TP;
    }
    err = rd(d, MP_REG(tp, mp, MP_ERROR_CODE));
    decode = rd(d, MP_REG(tp, mp, MP_DECODE_ERROR));
    pcw = rd(d, MP_REG(tp, mp, MP_PC_WARP));
    op = rd(d, MP_REG(tp, mp, MP_OPCODE));
    op_hi = rd(d, MP_REG(tp, mp, MP_OPCODE_HI));
    pc = pcw & 0xffffff;
    w = (pcw >> 24) & 0x1f;

    if (mpc & MPC_TRAP_LIMITS) {
        e = TESLA_ERR_MEMORY_FAULT;
    } else if ((err & MP_ERROR_DECODE) && decode) {
        e = __builtin_ctz(decode);
    } else if (err) {
        e = TESLA_ERR_RUNTIME + __builtin_ctz(err);
    }
    if (e < TESLA_ERR_RUNTIME && pc >= st->code_words * 4) {
        /* CODE_PAD (or past it): the pc left the program */
        e = TESLA_ERR_MEMORY_FAULT;
    }

    per_block = st->block[0] * st->block[1] * st->block[2];
    nb = st->grid[0] * st->grid[1];
    if (nb <= G84_TPS * G84_MPS_PER_TP && tp * G84_MPS_PER_TP + mp < nb) {
        /* block b of the slice runs on MP b % 4: with 4 or fewer, b */
        unsigned block = z * nb + tp * G84_MPS_PER_TP + mp;

        shader_print_trap(e, pc, block * DIV_ROUND_UP(per_block,
                                                      TESLA_WARP_SIZE) + w);
        fflush(stdout);
        fprintf(stderr, "gemu-shader: trap in block %u, its warp %u (TP %u "
                "MP %u: MPC TRAP 0x%08x, ERROR_CODE 0x%x, DECODE_ERROR "
                "0x%x, opcode %08x %08x)\n", block, w, tp, mp, mpc, err,
                decode, op, op_hi);
    } else {
        printf("trap: %s at 0x%08x (TP %u MP %u, its warp %u)\n",
               tesla_error_name(e), pc, tp, mp, w);
        fflush(stdout);
        fprintf(stderr, "gemu-shader: --device: the card does not say which "
                "block of grid slice z = %u ran on TP %u MP %u (block %u, "
                "%u, ... of %u); MPC TRAP 0x%08x, ERROR_CODE 0x%x, "
                "DECODE_ERROR 0x%x, opcode %08x %08x\n", z, tp, mp,
                tp * G84_MPS_PER_TP + mp,
                tp * G84_MPS_PER_TP + mp + G84_TPS * G84_MPS_PER_TP, nb,
                mpc, err, decode, op, op_hi);
    }

    /* nv50_gr_mp_trap, nv50_gr_tp_trap, nv50_gr_trap_handler */
    wr(d, MP_REG(tp, mp, MP_ERROR_CODE), 0);
    for (unsigned t = 0; t < G84_TPS; t++) {
        wr(d, MPC_TRAP(t), 0xc0000000);
    }
    wr(d, PGRAPH_TRAP, PGRAPH_TRAP_MP);
    wr(d, PGRAPH_INTR, PGRAPH_INTR_TRAP);
}

/* @len bytes at window offset @off, by M2MF through the GART window. */
static bool dev_read(Dev *d, uint64_t off, uint8_t *buf, uint64_t len)
{
    while (len) {
        uint32_t n = MIN(len, (uint64_t)DEV_GART_SIZE);
        uint64_t src = va(off);
        /* OFFSET_IN/OUT, PITCH_IN/OUT, LINE_LENGTH_IN, LINE_COUNT,
           FORMAT (1-byte increments), BUF_NOTIFY (WRITE_ONLY) */
        uint32_t lo[8] = {
            (uint32_t)src, (uint32_t)DEV_VA_GART, n, n, n, 1, 0x101, 0,
        };

        mthd(d, SUBC_M2MF, M2MF_OFFSET_IN_HIGH,
             (uint32_t[]){ src >> 32, DEV_VA_GART >> 32 }, 2);
        mthd(d, SUBC_M2MF, M2MF_OFFSET_IN, lo, 8);
        if (!dev_submit(d, "an M2MF copy", false)) {
            return false;
        }
        memcpy(buf, d->sysmem, n);
        buf += n;
        off += n;
        len -= n;
    }
    return true;
}

int shader_device_run(const ShaderState *st, uint64_t max_insns)
{
    Dev d = { 0 };
    int status = 2;

    if (!dev_init(&d, st)) {
        goto out;
    }
    nv50_engine_set_insn_budget(d.s, max_insns);
    dev_upload(&d);
    dev_compute_state(&d);
    if (!dev_submit(&d, "the compute state", false)) {
        goto out;
    }
    status = 0;
    for (unsigned z = 0; z < st->grid[2]; z++) {
        mthd1(&d, SUBC_COMPUTE, CP_USER_PARAM(0), st->grid[2] | z << 16);
        mthd1(&d, SUBC_COMPUTE, CP_LAUNCH, 0);
        if (!dev_submit(&d, "the launch", true)) {
            status = 2;
            goto out;
        }
        if (rd(&d, PGRAPH_INTR) & PGRAPH_INTR_TRAP) {
            dev_trap(&d, z);
            status = 1;
            break;
        }
    }
    for (guint i = 0; i < st->dumps->len; i++) {
        const ShaderDump *dp = &g_array_index(st->dumps, ShaderDump, i);
        g_autofree uint8_t *buf = g_try_malloc(dp->end - dp->start);

        if (!buf && dp->end > dp->start) {
            fprintf(stderr, "gemu-shader: %s:%d: cannot allocate 0x%x "
                    "bytes for the dump\n", st->path, dp->line,
                    dp->end - dp->start);
            status = 2;
            goto out;
        }
        if (!dev_read(&d, d.lay.g[dp->idx] + dp->start, buf,
                      dp->end - dp->start)) {
            status = 2;
            goto out;
        }
        shader_print_global(dp, buf);
    }
out:
    fflush(stdout);
    dev_fini(&d);
    return status;
}
