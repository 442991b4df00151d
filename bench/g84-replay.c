/*
 * make bench: gemu-replay's speed (hw/pci/replay.c), in process.
 *
 *   g84-replay        accesses a second replayed of a recorded "guest"
 *                     run: a G84 channel whose pushbuffers are in guest
 *                     RAM, 1000 kicks of 64 REF_CNT/semaphore words each
 *                     with register polls between, under -clock
 *                     virtual's rules; the recording is made in memory
 *                     first (its time is reported as g84-record)
 *   g84-replay-file   with GEMU_BENCH_RECORDING=FILE (e.g. a guest boot
 *                     recorded with gemu -record): how many times faster
 *                     than the recorded run gemu-replay's loop runs it
 *
 * The replayed card must end with the recorded digest, or the benchmark
 * fails.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/hostchan.h"
#include "hw/pci/replay.h"
#include "bench.h"

#define RB_CHID         1
#define RB_INST         0x200000ull
#define RB_VA_BASE      0x20000000ull
#define RB_VA_GART      0x40000000ull
#define RB_GART_GPA     0x10000000ull
#define RB_GART_SIZE    (1u << 20)
#define RB_BAR0         0xfd000000ull
#define RB_KICKS        1000
#define RB_WORDS        64              /* per kick */
#define RB_SEM          (RB_GART_SIZE - 4096)

typedef struct RBench {
    GemuClock clk;
    GuestRAM *ram;
    uint8_t *sysmem;
    NV50State *s;
    NV50HostChan ch;
    PciRecorder *rec;
} RBench;

static bool rb_init(RBench *b, const char *name)
{
    NV50HostChanConfig cfg = {
        .chid = RB_CHID, .inst = RB_INST, .va_base = RB_VA_BASE,
        .vram_base = 0x1000000ull, .vram_len = 16u << 20,
        .gart_va = RB_VA_GART, .gart_gpa = RB_GART_GPA,
        .gart_len = RB_GART_SIZE,
    };
    g_autofree char *err = NULL;
    PCIDevice *pci;

    memset(b, 0, sizeof(*b));
    gemu_clock_init(&b->clk, GEMU_CLOCK_VIRTUAL);
    b->ram = guest_ram_new();
    b->sysmem = g_malloc0(RB_GART_SIZE);
    guest_ram_add(b->ram, RB_GART_GPA, RB_GART_SIZE, b->sysmem);
    b->s = nv50_new(&b->clk, b->ram, 0, NULL);
    pci = PCI_DEVICE(b->s);
    pci_config_write(pci, 0x10, RB_BAR0, 4);
    pci_config_write(pci, PCI_COMMAND,
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    nv50_wr32(b->s, 0x002100, 0xffffffff);
    nv50_wr32(b->s, 0x002140, 0xbfffffff);
    nv50_wr32(b->s, 0x400500, 0x00010001);
    if (!nv50_hostchan_init(&b->ch, b->s, &cfg, &err)) {
        bench_fail(name, "channel: %s", err);
        return false;
    }
    nv50_engine_set_virtual_clock(b->s, true);
    /* IB entry k -> guest RAM chunk k (the same on both cards) */
    for (uint32_t k = 0; k < RB_KICKS; k++) {
        uint64_t va = RB_VA_GART + k * RB_WORDS * 4;
        uint64_t ib = nv50_hostchan_va_to_vram(&b->ch, RB_VA_BASE +
                                               NV50_HOSTCHAN_PUSH_SIZE);

        nv50_vram_wr32(b->s, ib + k * 8, (uint32_t)va);
        nv50_vram_wr32(b->s, ib + k * 8 + 4, RB_WORDS << 10);
    }
    return true;
}

static void rb_fini(RBench *b)
{
    nv50_free(b->s);
    guest_ram_free(b->ram);
    g_free(b->sysmem);
    gemu_clock_destroy(&b->clk);
}

static uint32_t rb_access(RBench *b, GemuRecType type, hwaddr reg,
                          uint32_t val)
{
    PCIDevice *pci = PCI_DEVICE(b->s);

    gemu_clock_bus_access(&b->clk);
    if (type == GEMU_REC_BAR_READ) {
        val = pci_mmio_read(pci, RB_BAR0 + reg, 4);
    } else {
        pci_mmio_write(pci, RB_BAR0 + reg, val, 4);
    }
    pci_recorder_access(b->rec, type, RB_BAR0 + reg, 4, val);
    return val;
}

/* The guest: fill chunk k, kick, poll the reference and PTIMER. */
static void rb_guest(RBench *b)
{
    uint64_t sem = RB_VA_GART + RB_SEM;

    for (uint32_t k = 0; k < RB_KICKS; k++) {
        uint32_t *w = (uint32_t *)(b->sysmem + k * RB_WORDS * 4);
        uint32_t n = 0;

        w[n++] = 1 << 18 | 0x60;
        w[n++] = NV50_HOSTCHAN_H_VM;
        while (n + 8 <= RB_WORDS) {
            w[n++] = 1 << 18 | 0x50;                /* REF_CNT */
            w[n++] = k;
            w[n++] = 4 << 18 | 0x10;                /* SEMAPHORE release */
            w[n++] = (uint32_t)(sem >> 32);
            w[n++] = (uint32_t)sem;
            w[n] = k * RB_WORDS + n;
            n++;
            w[n++] = 2;
            w[n++] = 0;                             /* a skip */
        }
        while (n < RB_WORDS) {
            w[n++] = 0;
        }
        rb_access(b, GEMU_REC_BAR_WRITE,
                  0xc00000 + RB_CHID * 0x2000 + 0x8c, k + 1);
        rb_access(b, GEMU_REC_BAR_READ, 0xc00000 + RB_CHID * 0x2000 + 0x48,
                  0);
        rb_access(b, GEMU_REC_BAR_READ, 0x009400, 0);
        rb_access(b, GEMU_REC_BAR_READ, 0x002100, 0);
    }
}

/*
 * Replay @f on @s, the time it took in *secs (the final state's check
 * not counted: hashing VRAM); false (reported) if it diverged or ended
 * elsewhere.
 */
static bool rb_replay(const char *name, NV50State *s, GemuClock *clk,
                      const GemuRecFile *f, uint64_t *accesses, double *secs)
{
    double t0 = bench_now();
    g_autoptr(GError) err = NULL;
    PciReplay *r = pci_replay_new(PCI_DEVICE(s), &s->dma, clk, f);
    const GemuRecord *end;
    int st;

    while ((st = pci_replay_step(r, &err)) > 0) {
        continue;
    }
    *secs = bench_now() - t0;
    end = pci_replay_end(r);
    *accesses = pci_replay_seq(r);
    pci_replay_free(r);
    if (st < 0) {
        bench_fail(name, "diverged: %s", err->message);
        return false;
    }
    if (end && end->digest != nv50_state_digest(s)) {
        bench_fail(name, "the final state differs from the recording's");
        return false;
    }
    return true;
}

static void bench_replay_synthetic(void)
{
    const char *name = "g84-replay";
    g_autoptr(GByteArray) buf = g_byte_array_new();
    g_autoptr(GemuRecFile) f = NULL;
    GemuRecHeader hdr = {
        .machine = "g84", .version = GEMU_REC_VERSION,
        .flags = GEMU_REC_F_VIRTUAL_CLOCK, .access_ns = 1000,
    };
    GemuRecWriter *w;
    RBench b;
    uint64_t accesses;
    double t0, t1, secs;

    if (!rb_init(&b, name)) {
        return;
    }
    hdr.vram_size = b.s->vram_size;
    w = gemu_rec_writer_new_mem(&hdr, buf);
    b.rec = pci_recorder_new(PCI_DEVICE(b.s), &b.s->dma, w);
    t0 = bench_now();
    rb_guest(&b);
    t1 = bench_now();
    pci_recorder_free(b.rec);
    gemu_rec_writer_close(w, RB_KICKS * 4, gemu_clock_get_ns(&b.clk),
                          nv50_state_digest(b.s), NULL);
    rb_fini(&b);
    bench_report("g84-record", RB_KICKS * 4 / (t1 - t0), "accesses/s");
    f = gemu_rec_parse(buf->data, buf->len, NULL);
    if (!f || !rb_init(&b, name)) {
        bench_fail(name, "the recording does not parse");
        return;
    }
    if (rb_replay(name, b.s, &b.clk, f, &accesses, &secs)) {
        bench_report(name, accesses / secs, "accesses/s");
    }
    rb_fini(&b);
}

/* GEMU_BENCH_RECORDING: a real recording, against its own wall time. */
static void bench_replay_file(const char *path)
{
    const char *name = "g84-replay-file";
    g_autoptr(GError) err = NULL;
    g_autoptr(GemuRecFile) f = NULL;
    g_autofree uint8_t *data = NULL;
    const GemuRecord *end;
    GemuClock clk;
    NV50State *s;
    uint64_t accesses;
    gsize len;
    double secs;

    if (!g_file_get_contents(path, (char **)&data, &len, &err) ||
        !(f = gemu_rec_parse(data, len, &err))) {
        bench_fail(name, "%s: %s", path, err->message);
        return;
    }
    end = &g_array_index(f->records, GemuRecord, f->records->len - 1);
    if (!f->complete || end->type != GEMU_REC_END || !end->host_ns) {
        bench_fail(name, "%s: not a finished recording", path);
        return;
    }
    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    clk.access_ns = f->hdr.access_ns;
    s = nv50_new(&clk, NULL, f->hdr.vram_size, &err);
    if (s) {
        device_reset(DEVICE(s));
        nv50_engine_set_virtual_clock(s, true);
        if (rb_replay(name, s, &clk, f, &accesses, &secs)) {
            bench_report(name, end->host_ns / 1e9 / secs,
                         "x the recorded run's speed");
        }
        nv50_free(s);
    } else {
        bench_fail(name, "%s", err->message);
    }
    gemu_clock_destroy(&clk);
}

void bench_g84_replay(void)
{
    const char *path = getenv("GEMU_BENCH_RECORDING");

    if (bench_wanted("g84-replay")) {
        bench_replay_synthetic();
    }
    if (bench_wanted("g84-replay-file") && path) {
        bench_replay_file(path);
    }
}
