/*
 * A hostile guest program for tests/guest/hostile.sh, in two modes:
 *
 *   drm-hostile garbage SEED N
 *       With nouveau bound: a channel of its own through nouveau's ABI16
 *       ioctls (raw ioctls, as drm-accel.c), M2MF (0x5039) and 2D
 *       (0x502d) objects, then N push buffers of garbage submitted with
 *       DRM_NOUVEAU_GEM_PUSHBUF: first a few whose error is known (an
 *       old-style jump, which IB mode refuses: DMA_PUSHER; a method M2MF
 *       lacks: ILLEGAL_MTHD; SET_OBJECT of a handle that is not in the
 *       channel's RAMHT; an M2MF copy from an unmapped address: a VM
 *       fault and TRAP_M2MF), then random ones (random words; random
 *       method headers and data on every subchannel; SET_OBJECT of
 *       random handles; the objects' methods with random data; jumps,
 *       calls and returns to nowhere; small M2MF copies between random
 *       addresses; counts kept short, push_tidy()).  Nothing is sent to shader classes (3D, compute): a
 *       random program need not end, on the hardware as here, and the
 *       channel would stay busy (tests/device's nv50_stop covers that).
 *       Every few pushes it waits (bounded) until the GPU is done with
 *       the push buffer; a channel that never gets there ends the
 *       garbage early (as with the hardware: after a DMA_PUSHER that
 *       left GET at PUT nvkm skips every pending IB entry, the kernel's
 *       fences too; or random words made a semaphore acquire that waits
 *       for ever).  Then, on a fresh channel: an M2MF copy of 16 KiB
 *       between two VRAM buffers, every word checked ("drm-hostile:
 *       m2mf-after ok").  What nouveau logged about the garbage is
 *       checked by hostile.sh on the serial console.
 *
 *   drm-hostile storm SEED SECONDS
 *       Unbinds nouveau from the G84 (sysfs), maps its BAR0, BAR1 and
 *       BAR3 through /sys/bus/pci/devices/X/resourceN and applies
 *       hostile-storm.h's operations from SEED for SECONDS (wall time;
 *       its config writes, bus mastering on and off, go through the
 *       device's sysfs config file), printing the seed first (a failure
 *       replays with the same seed, in the guest or in tests/device's
 *       nv50_hostile), progress every few seconds and the counts and
 *       the command register at the end.
 *
 * Exit status: 0 done, 1 a check failed or the program could not do
 * what it should, 2 bad arguments.  Built statically by hostile.sh
 * against libdrm-dev's uapi headers (cc -static -I/usr/include/libdrm).
 *
 * SPDX-License-Identifier: MIT
 */
#include "nouveau-abi16.h"  /* first: it includes the uapi headers */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hostile-storm.h"

#define M2MF_NO_SUCH_MTHD       0x1ffc      /* not a method of 0x5039 */

#define PUSH_BYTES      0x40000u
#define PUSH_MAX_WORDS  256u        /* words of one garbage push */
#define WAIT_EVERY      8           /* pushes between waits */
#define WAIT_MS         8000        /* how long one wait may take */
#define COPY_BYTES      0x4000u     /* the copy on the fresh channel */
#define UNMAPPED_VA     0xfff0000000ull     /* past any client's buffer */

struct bo {
    uint32_t handle;
    uint32_t domain;
    uint64_t size;
    uint64_t va;
    volatile uint32_t *map;
};

static uint32_t pb_start, pb_words;     /* the push being built: words */
static struct bo pushbo;

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
    va_list ap;

    printf("drm-hostile: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- nouveau's ABI16 ------------------------------------------------ */

static int bo_new(struct bo *bo, uint32_t domain, uint64_t size)
{
    struct drm_nouveau_gem_new req;
    void *p;
    int r;

    memset(&req, 0, sizeof(req));
    req.info.size = size;
    req.info.domain = domain;
    req.align = 0x1000;
    r = xioctl(IOCTL_GEM_NEW, &req);
    if (r) {
        say("FAIL: DRM_NOUVEAU_GEM_NEW (%llu bytes): %s",
            (unsigned long long)size, strerror(-r));
        return r;
    }
    bo->handle = req.info.handle;
    bo->domain = req.info.domain;
    bo->size = req.info.size;
    bo->va = req.info.offset;           /* the GPU VA on Tesla */
    p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
             req.info.map_handle);
    if (p == MAP_FAILED) {
        r = -errno;
        say("FAIL: mmap of a buffer: %s", strerror(-r));
        return r;
    }
    bo->map = p;
    return 0;
}

static int channel_new(void)
{
    struct drm_nouveau_channel_alloc ca;
    int r;

    memset(&ca, 0, sizeof(ca));
    ca.fb_ctxdma_handle = FB_CTXDMA;
    ca.tt_ctxdma_handle = TT_CTXDMA;
    r = xioctl(IOCTL_CHAN_ALLOC, &ca);
    if (r) {
        say("FAIL: DRM_NOUVEAU_CHANNEL_ALLOC: %s", strerror(-r));
        return r;
    }
    return ca.channel;
}

static void channel_free(int ch)
{
    struct drm_nouveau_channel_free cf = { .channel = ch };
    int r = xioctl(IOCTL_CHAN_FREE, &cf);

    if (r) {
        say("channel %d: DRM_NOUVEAU_CHANNEL_FREE: %s", ch, strerror(-r));
    }
}

static int grobj(int ch, uint32_t handle, int cls)
{
    struct drm_nouveau_grobj_alloc req = {
        .channel = ch, .handle = handle, .class = cls,
    };
    int r = xioctl(IOCTL_GROBJ, &req);

    if (r) {
        say("channel %d: DRM_NOUVEAU_GROBJ_ALLOC class 0x%04x: %s", ch, cls,
            strerror(-r));
    }
    return r;
}

static int notifier(int ch)
{
    struct drm_nouveau_notifierobj_alloc na = {
        .channel = ch, .handle = NOTIFIER_HANDLE, .size = 32,
    };
    int r = xioctl(IOCTL_NOTIFIER, &na);

    if (r) {
        say("channel %d: DRM_NOUVEAU_NOTIFIEROBJ_ALLOC: %s", ch,
            strerror(-r));
    }
    return r;
}

static void out(uint32_t v)
{
    if (pb_words < PUSH_BYTES / 4) {
        pushbo.map[pb_words] = v;
    }
    pb_words++;
}

static void mthd(int subc, uint32_t m, uint32_t n)
{
    out(n << 18 | (uint32_t)subc << 13 | m);
}

static void mthd1(int subc, uint32_t m, uint32_t v)
{
    mthd(subc, m, 1);
    out(v);
}

/*
 * The words out() wrote since the last push, as one push; the other
 * buffers listed too.  Pushes follow each other in the push buffer until
 * the GPU is done with it (push_rewind()).
 */
static int submit(int ch, const struct bo *const *bos, int n)
{
    struct drm_nouveau_gem_pushbuf_bo list[4];
    struct drm_nouveau_gem_pushbuf_push push;
    struct drm_nouveau_gem_pushbuf req;
    int r;

    memset(list, 0, sizeof(list));
    list[0].handle = pushbo.handle;
    list[0].read_domains = NOUVEAU_GEM_DOMAIN_GART;
    list[0].valid_domains = NOUVEAU_GEM_DOMAIN_GART;
    for (int i = 0; i < n && i < 3; i++) {
        list[i + 1].handle = bos[i]->handle;
        list[i + 1].read_domains = bos[i]->domain;
        list[i + 1].write_domains = bos[i]->domain;
        list[i + 1].valid_domains = bos[i]->domain;
    }
    if (pb_words > PUSH_BYTES / 4) {
        say("FAIL: internal: push buffer full");
        pb_words = pb_start;
        return -ENOSPC;
    }
    memset(&push, 0, sizeof(push));
    push.offset = (uint64_t)pb_start * 4;
    push.length = (uint64_t)(pb_words - pb_start) * 4;
    memset(&req, 0, sizeof(req));
    req.channel = (uint32_t)ch;
    req.nr_buffers = (uint32_t)(n < 3 ? n : 3) + 1;
    req.buffers = (uintptr_t)list;
    req.nr_push = 1;
    req.push = (uintptr_t)&push;
    __sync_synchronize();
    r = xioctl(IOCTL_PUSHBUF, &req);
    pb_start = pb_words;
    return r;
}

/* The GPU is done with the push buffer: the next push at its start. */
static void push_rewind(void)
{
    pb_start = pb_words = 0;
}

/* Until the GPU is done with bo, at most ms: 0, -EBUSY or -errno. */
static int bo_wait(const struct bo *bo, int ms)
{
    struct drm_nouveau_gem_cpu_prep req = {
        .handle = bo->handle,
        .flags = NOUVEAU_GEM_CPU_PREP_WRITE | NOUVEAU_GEM_CPU_PREP_NOWAIT,
    };
    int r = -EBUSY;

    for (int t = 0; t < ms && r == -EBUSY; t += 10) {
        r = xioctl(IOCTL_CPU_PREP, &req);
        if (r == -EBUSY) {
            usleep(10000);
        }
    }
    return r;
}

/* ---- garbage ---------------------------------------------------------- */

static void m2mf_copy(uint64_t src, uint64_t dst, uint32_t bytes)
{
    mthd1(SUBC_M2MF, M2MF_SRC_LAYOUT, M2MF_LAYOUT_PITCH);
    mthd1(SUBC_M2MF, M2MF_DST_LAYOUT, M2MF_LAYOUT_PITCH);
    mthd(SUBC_M2MF, M2MF_OFFSET_IN_UPPER, 2);
    out((uint32_t)(src >> 32));
    out((uint32_t)(dst >> 32));
    mthd(SUBC_M2MF, M2MF_OFFSET_IN, 8);
    out((uint32_t)src);
    out((uint32_t)dst);
    out(bytes);                 /* PITCH_IN */
    out(bytes);                 /* PITCH_OUT */
    out(bytes);                 /* LINE_LENGTH_IN */
    out(1);                     /* LINE_COUNT */
    out(M2MF_FORMAT_1_1);
    out(0);                     /* BUFFER_NOTIFY: the copy starts */
}

static void bind_m2mf(void)
{
    mthd1(SUBC_M2MF, SET_OBJECT, M2MF_HANDLE);
    mthd(SUBC_M2MF, M2MF_DMA_NOTIFY, 3);
    out(NOTIFIER_HANDLE);
    out(FB_CTXDMA);
    out(FB_CTXDMA);
}

/* The pushes whose error is known: nouveau must report each. */
static const char *known_push(int i, const struct bo *target)
{
    switch (i) {
    case 0:
        bind_m2mf();
        mthd1(SUBC_2D, SET_OBJECT, TWOD_HANDLE);
        out(0x20001000);        /* an old jump: IB mode has none */
        return "old-style jump in IB mode (DMA_PUSHER INVALID_CMD)";
    case 1:
        mthd1(SUBC_M2MF, M2MF_NO_SUCH_MTHD, 0x1234);
        return "method 0x1ffc on M2MF (PGRAPH ILLEGAL_MTHD)";
    case 2:
        mthd1(3, SET_OBJECT, 0xbad0b1ec);
        return "SET_OBJECT 0xbad0b1ec, not in RAMHT (CACHE_ERROR)";
    case 3:
        m2mf_copy(UNMAPPED_VA, target->va, 0x100);
        return "M2MF from an unmapped address (VM fault, TRAP_M2MF)";
    }
    return NULL;
}

/* One random push: a few pieces of garbage of random kinds. */
static void random_push(uint64_t *rng, const struct bo *target)
{
    uint32_t pieces = 1 + (uint32_t)(storm_rand(rng) % 6);

    uint32_t end = pb_words + PUSH_MAX_WORDS;

    for (uint32_t p = 0; p < pieces && pb_words < end; p++) {
        uint64_t r = storm_rand(rng);
        uint32_t n = 1 + (uint32_t)(r >> 8) % 16;
        int subc = (int)(r >> 16) & 7;

        switch (r % 7) {
        case 0:                 /* words */
            for (uint32_t i = 0; i < n; i++) {
                out(storm_value(rng));
            }
            break;
        case 1:                 /* a header of any kind, random data */
            out(((uint32_t)storm_rand(rng) & 0xe0031ffc) |
                n << 18 | (uint32_t)subc << 13);
            for (uint32_t i = 0; i < n; i++) {
                out(storm_value(rng));
            }
            break;
        case 2:                 /* SET_OBJECT of anything */
            mthd1(subc, SET_OBJECT, (r >> 24) & 1 ? storm_value(rng) :
                  (r >> 25) & 1 ? M2MF_HANDLE : TWOD_HANDLE);
            break;
        case 3:                 /* the objects' methods, random data */
            mthd(r & 0x100 ? SUBC_2D : SUBC_M2MF,
                 0x100 + ((uint32_t)(r >> 32) % 0x700) * 4, n);
            for (uint32_t i = 0; i < n; i++) {
                out(storm_value(rng));
            }
            break;
        case 4:                 /* jump, call, return to nowhere */
            out(((uint32_t)(r >> 32) & ~3u) | (uint32_t)(r >> 8) % 3);
            out(0x00020000);
            break;
        case 5: {               /* a small copy, random ends */
            uint64_t a = (r >> 24) & 1 ? target->va : storm_rand(rng);
            uint64_t b = (r >> 25) & 1 ? target->va + 0x8000 :
                         storm_rand(rng) & 0xffffffffffull;

            m2mf_copy(a & 0xffffffffffull, b, (uint32_t)(r >> 40) % 0x8000);
            break;
        }
        default:                /* the puller's own methods */
            mthd(subc, (uint32_t)(r >> 32) % 0x100 & ~3u, 1);
            out(storm_value(rng));
            break;
        }
    }
}

/*
 * The pusher's view of the words since the last push, as
 * hw/nv50/pusher.c decodes IB-mode pushes: headers' counts are cut to
 * MAX_COUNT and the data of one that would run past the push's end is
 * made up with random words, so that the next push (and the kernel's
 * fence after each) starts on a header, not inside garbage's data: one
 * runaway count would otherwise swallow every later push, as it would on
 * the hardware, and each method on a subchannel with no object costs a
 * CACHE_ERROR interrupt.  After an invalid command nvkm's DMA_PUSHER
 * handler skips the rest of the push.
 */
#define MAX_COUNT       32

static void push_tidy(uint64_t *rng)
{
    uint32_t mcnt = 0;
    int lenp = 0;

    for (uint32_t i = pb_start; i < pb_words && i < PUSH_BYTES / 4; i++) {
        uint32_t w = pushbo.map[i];

        if (lenp) {
            lenp = 0;
            if ((w & 0xffffff) > MAX_COUNT) {
                w = (w & ~0xffffffu) | (w % (MAX_COUNT + 1));
                pushbo.map[i] = w;
            }
            mcnt = w & 0xffffff;
        } else if (mcnt) {
            mcnt--;
        } else if ((w & 0xe0030003) == 0 ||
                   (w & 0xe0030003) == 0x40000000) {
            mcnt = (w >> 18) & 0x7ff;
            if (mcnt > MAX_COUNT) {
                mcnt %= MAX_COUNT + 1;
                w = (w & ~(0x7ffu << 18)) | mcnt << 18;
                pushbo.map[i] = w;
            }
        } else if ((w & 0xffff0003) == 0x00030000) {
            lenp = 1;
        } else {
            return;             /* DMA_PUSHER: the rest is skipped */
        }
    }
    if (lenp) {
        out(0);
    }
    while (mcnt--) {
        out(storm_value(rng));
    }
}

static int garbage(uint64_t seed, int n)
{
    const struct bo *tlist[1];
    struct bo target;
    int ch, stuck = -1, sent = 0, refused = 0;
    uint64_t rng = seed;

    ch = channel_new();
    if (ch < 0 || notifier(ch) || grobj(ch, M2MF_HANDLE, 0x5039) ||
        grobj(ch, TWOD_HANDLE, 0x502d) ||
        bo_new(&pushbo, NOUVEAU_GEM_DOMAIN_GART, PUSH_BYTES) ||
        bo_new(&target, NOUVEAU_GEM_DOMAIN_VRAM, 0x10000)) {
        return 1;
    }
    tlist[0] = &target;
    say("garbage: seed %llu, %d pushes on channel %d",
        (unsigned long long)seed, n, ch);
    for (int i = 0; i < n; i++) {
        const char *what = known_push(i, &target);
        int r;

        if (!what) {
            random_push(&rng, &target);
            push_tidy(&rng);
        }
        /*
         * A valid method last: an error on the push's last word leaves
         * GET at PUT, and nvkm's DMA_PUSHER handler then skips every
         * pending IB entry, the kernel's fence too if it is queued yet.
         */
        mthd1(SUBC_M2MF, SET_OBJECT, M2MF_HANDLE);
        r = submit(ch, tlist, 1);
        if (r) {
            refused++;          /* the kernel may refuse: that is fine */
        } else {
            sent++;
        }
        if (what) {
            say("garbage: push %d: %s: %s", i, what,
                r ? strerror(-r) : "submitted");
        }
        if (what || i % WAIT_EVERY == WAIT_EVERY - 1 || i == n - 1) {
            r = bo_wait(&pushbo, WAIT_MS);
            if (r == -EBUSY) {
                stuck = i;
                break;
            }
            push_rewind();
        }
    }
    if (stuck >= 0) {
        say("garbage: the channel did not get past push %d in %d ms: "
            "stopped there (as with the hardware: nvkm's DMA_PUSHER "
            "handler skips every pending IB entry, the kernel's fences "
            "too, when the error left GET at PUT; or random words made a "
            "semaphore acquire that waits for ever)", stuck, WAIT_MS);
    }
    say("garbage: %d pushes submitted, %d refused by the kernel", sent,
        refused);
    channel_free(ch);
    return 0;
}

/* A 16 KiB M2MF copy on a fresh channel, every word checked. */
static int m2mf_after(void)
{
    const struct bo *list[2];
    struct bo src, dst;
    uint32_t bad = 0, first = 0;
    int ch = channel_new();

    if (ch < 0 || notifier(ch) || grobj(ch, M2MF_HANDLE, 0x5039) ||
        bo_new(&src, NOUVEAU_GEM_DOMAIN_VRAM, COPY_BYTES) ||
        bo_new(&dst, NOUVEAU_GEM_DOMAIN_VRAM, COPY_BYTES)) {
        say("m2mf-after FAIL: no fresh channel with M2MF");
        return 1;
    }
    for (uint32_t i = 0; i < COPY_BYTES / 4; i++) {
        src.map[i] = i * 0x9e3779b9u ^ 0xc0ffee00u;
        dst.map[i] = 0xdeadbeef;
    }
    push_rewind();             /* the garbage channel is gone */
    bind_m2mf();
    m2mf_copy(src.va, dst.va, COPY_BYTES);
    list[0] = &src;
    list[1] = &dst;
    if (submit(ch, list, 2) || bo_wait(&dst, 30000)) {
        say("m2mf-after FAIL: the copy was not submitted or never ended");
        return 1;
    }
    for (uint32_t i = 0; i < COPY_BYTES / 4; i++) {
        if (dst.map[i] != (i * 0x9e3779b9u ^ 0xc0ffee00u) && !bad++) {
            first = i;
        }
    }
    channel_free(ch);
    if (bad) {
        say("m2mf-after FAIL: %u of %u words wrong, the first word %u: "
            "0x%08x", bad, COPY_BYTES / 4, first, dst.map[first]);
        return 1;
    }
    say("m2mf-after ok (16 KiB VRAM to VRAM on a fresh channel)");
    return 0;
}

/* ---- the BAR storm ---------------------------------------------------- */

/* the G84's sysfs directory, or NULL */
static char *find_card(void)
{
    static char path[300];
    DIR *d = opendir("/sys/bus/pci/devices");
    struct dirent *e;

    while (d && (e = readdir(d))) {
        char vend[16] = { 0 };
        FILE *f;

        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
                 e->d_name);
        f = fopen(path, "r");
        if (f) {
            if (!fgets(vend, sizeof(vend), f)) {
                vend[0] = 0;
            }
            fclose(f);
        }
        if (strncmp(vend, "0x10de", 6) == 0) {
            snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s",
                     e->d_name);
            closedir(d);
            return path;
        }
    }
    if (d) {
        closedir(d);
    }
    return NULL;
}

static int write_file(const char *path, const char *text)
{
    int f = open(path, O_WRONLY);
    ssize_t n;

    if (f < 0) {
        return -errno;
    }
    n = write(f, text, strlen(text));
    close(f);
    return n < 0 ? -errno : 0;
}

static volatile uint32_t *map_bar(const char *card, int n, uint32_t *size)
{
    char path[340];
    struct stat st;
    void *p;
    int f;

    snprintf(path, sizeof(path), "%s/resource%d", card, n);
    f = open(path, O_RDWR | O_SYNC);
    if (f < 0 || fstat(f, &st) || st.st_size < 4096) {
        say("FAIL: cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
             f, 0);
    close(f);
    if (p == MAP_FAILED) {
        say("FAIL: cannot map %s: %s", path, strerror(errno));
        return NULL;
    }
    *size = (uint32_t)st.st_size;
    say("storm: BAR%d mapped, %u KiB", n, *size / 1024);
    return p;
}

static int unbind(const char *card)
{
    char path[340];
    const char *slot = strrchr(card, '/') + 1;
    int r;

    snprintf(path, sizeof(path), "%s/driver", card);
    if (access(path, F_OK) != 0) {
        say("storm: no driver bound to %s", slot);
        return 0;
    }
    r = write_file("/sys/bus/pci/drivers/nouveau/unbind", slot);
    if (r || access(path, F_OK) == 0) {
        say("FAIL: cannot unbind nouveau from %s: %s", slot,
            r ? strerror(-r) : "still bound");
        return 1;
    }
    say("storm: nouveau unbound from %s", slot);
    return 0;
}

/* the function's PCI command register, as the storm starts */
static void say_command(const char *card)
{
    char path[340];
    uint8_t cfg[6] = { 0 };
    int f;

    snprintf(path, sizeof(path), "%s/config", card);
    f = open(path, O_RDONLY);
    if (f < 0 || read(f, cfg, sizeof(cfg)) != (ssize_t)sizeof(cfg)) {
        say("storm: cannot read %s: %s", path, strerror(errno));
    } else {
        say("storm: PCI command 0x%04x (memory %s, bus mastering %s)",
            cfg[4] | cfg[5] << 8, cfg[4] & 2 ? "on" : "off",
            cfg[4] & 4 ? "on" : "off");
    }
    if (f >= 0) {
        close(f);
    }
}

/* the function's config space, for the storm's STORM_CONFIG writes */
static int open_config(const char *card)
{
    char path[340];
    int f;

    snprintf(path, sizeof(path), "%s/config", card);
    f = open(path, O_RDWR);
    if (f < 0) {
        say("FAIL: cannot open %s: %s", path, strerror(errno));
    }
    return f;
}

static int storm(uint64_t seed, int seconds)
{
    volatile uint32_t *bar[4] = { NULL };
    uint32_t size[4] = { 0 }, sink = 0;
    unsigned long ops[4][2] = { { 0 } }, cfg_failed = 0;
    char *card = find_card(), path[340];
    uint64_t rng = seed;
    double t0, next;
    StormOp op;
    int cfg;

    if (!card) {
        say("FAIL: no PCI device of vendor 0x10de");
        return 1;
    }
    if (unbind(card)) {
        return 1;
    }
    snprintf(path, sizeof(path), "%s/enable", card);
    write_file(path, "1");      /* memory decoding stays on */
    say_command(card);
    bar[0] = map_bar(card, 0, &size[0]);
    bar[1] = map_bar(card, 1, &size[1]);
    bar[3] = map_bar(card, 3, &size[3]);
    if (!bar[0] || !bar[1] || !bar[3] || size[0] < STORM_BAR0_SIZE) {
        return 1;
    }
    cfg = open_config(card);
    if (cfg < 0) {
        return 1;
    }
    say("storm: seed %llu, %d s (replay: drm-hostile storm %llu %d)",
        (unsigned long long)seed, seconds, (unsigned long long)seed,
        seconds);
    t0 = now_s();
    next = t0 + 5;
    for (unsigned long i = 0;; i++) {
        if ((i & 255) == 0) {
            double t = now_s();

            if (t - t0 >= seconds) {
                break;
            }
            if (t >= next) {
                say("storm: %lu operations after %.0f s", i, t - t0);
                next += 5;
            }
        }
        storm_next(&rng, size[1], size[3], &op);
        if (op.bar == STORM_CONFIG) {
            cfg_failed += pwrite(cfg, &op.val, 4, op.off) != 4;
        } else if (op.write) {
            bar[op.bar][op.off / 4] = op.val;
        } else {
            sink ^= bar[op.bar][op.off / 4];
        }
        ops[op.bar][op.write]++;
    }
    say("storm: done after %.1f s: BAR0 %lu writes %lu reads, BAR1 %lu "
        "writes %lu reads, BAR3 %lu writes %lu reads, %lu config writes "
        "(xor of reads %08x)", now_s() - t0, ops[0][1], ops[0][0],
        ops[1][1], ops[1][0], ops[3][1], ops[3][0], ops[STORM_CONFIG][1],
        sink);
    say_command(card);
    close(cfg);
    if (cfg_failed) {
        say("FAIL: %lu config writes failed", cfg_failed);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed;
    int n;

    if (argc != 4 || (strcmp(argv[1], "garbage") != 0 &&
                      strcmp(argv[1], "storm") != 0)) {
        fprintf(stderr, "usage: drm-hostile garbage SEED PUSHES\n"
                        "       drm-hostile storm SEED SECONDS\n");
        return 2;
    }
    seed = strtoull(argv[2], NULL, 0);
    n = atoi(argv[3]);
    if (n <= 0) {
        fprintf(stderr, "drm-hostile: '%s' is not a positive count\n",
                argv[3]);
        return 2;
    }
    if (strcmp(argv[1], "storm") == 0) {
        return storm(seed, n);
    }
    fd = open("/dev/dri/card0", O_RDWR);
    if (fd < 0) {
        say("FAIL: cannot open /dev/dri/card0: %s", strerror(errno));
        return 1;
    }
    if (garbage(seed, n)) {
        return 1;
    }
    return m2mf_after();
}
