/*
 * A guest program for tests/guest/accel.sh: the emulated G84's PFIFO and
 * PGRAPH driven from user space the way Mesa's nv50 driver drives them,
 * through nouveau's ABI16 ioctls (raw ioctls, no libdrm_nouveau):
 *
 *   DRM_NOUVEAU_CHANNEL_ALLOC   a channel with the VRAM and GART context
 *                               DMAs FB_CTXDMA and TT_CTXDMA (on Tesla both
 *                               cover the channel's whole VM)
 *   DRM_NOUVEAU_GROBJ_ALLOC     M2MF (0x5039), 2D (0x502d), compute (0x50c0)
 *   DRM_NOUVEAU_GEM_NEW/INFO    buffers; GEM_INFO's offset is the buffer's
 *                               GPU virtual address on Tesla (the client's
 *                               VMA), map_handle the mmap offset
 *   DRM_NOUVEAU_GEM_PUSHBUF     our command words, in a GART buffer: on
 *                               Tesla the kernel makes an IB entry (address,
 *                               length) for each push; relocations are not
 *                               applied on Tesla, methods carry the VAs
 *   DRM_NOUVEAU_GEM_CPU_PREP    wait for the GPU to be done with a buffer
 *   DRM_NOUVEAU_CHANNEL_FREE    idles the channel first
 *
 * Checks, one line each ("drm-accel: NAME ok" or "drm-accel: NAME FAIL
 * ..."):
 *   channel, grobj-5039, grobj-502d, grobj-50c0   the objects exist
 *   m2mf         a 64 KiB pattern copied between two VRAM buffers as one
 *                line (Mesa's nv50_m2mf_copy_linear)
 *   m2mf-pitch   a 200x48-byte rectangle, pitch 256 in and 208 out; what
 *                lies around it in the destination is untouched
 *   2d-fill      solid rectangles (nv50_fbcon.c's fillrect) on a 256x256
 *                X8R8G8B8 pitch surface in VRAM, overlapping, one at the
 *                surface's edge
 *   2d-sifc      a 12x10 1 bpp image expanded to two colours, byte-wrapped
 *                rows (fbcon's imageblit, how it draws text)
 *   2d-blit      three blits (fbcon's copyarea): a patch the CPU wrote, a
 *                GPU-filled area, and an overlapping one (SAFE_OVERLAP)
 *   compute      a 3x2 grid of 16x4 blocks running accel-compute.s: every
 *                thread writes a word made of its tid and ctaid at its
 *                grid index; the words around are untouched
 *   channel-free the channel idles and goes away
 * Surfaces are compared in their low 24 bits (the X of X8R8G8B8 is not
 * defined).  Pixels are read back through BAR1 (an mmap of the buffer).
 *
 * Exit status: 0 every check ok, 1 a check failed, 2 no acceleration (a
 * nouveau.noaccel=1 kernel: no channel) or not nouveau / no such ioctl.
 *
 * Built statically by accel.sh against libdrm-dev's uapi headers
 * (cc -static -I/usr/include/libdrm), with accel-compute.h, which
 * accel.sh generates from accel-compute.s with build/gemu-as:
 *   static const uint32_t accel_compute_code[] = { 0x..., ... };
 *
 * SPDX-License-Identifier: MIT
 */
#include "nouveau-abi16.h"  /* first: it includes the uapi headers */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "accel-compute.h"

#define GRAPH_SERIALIZE         0x0110      /* 2D: WAIT_FOR_IDLE */

/* 0x502d (cl502d.h) */
#define TWOD_DST_CTXDMA         0x0184      /* SRC, SEMAPHORE follow */
#define TWOD_DST_FORMAT         0x0200      /* DST_MEMORY_LAYOUT follows */
#define TWOD_DST_PITCH          0x0214      /* WIDTH, HEIGHT, OFFSET_UPPER, */
                                            /* OFFSET_LOWER follow */
#define TWOD_SRC_FORMAT         0x0230      /* SRC_MEMORY_LAYOUT follows */
#define TWOD_SRC_PITCH          0x0244      /* as for DST */
#define TWOD_CLIP_ENABLE        0x0290
#define TWOD_ROP                0x02a0
#define TWOD_OPERATION          0x02ac
#define TWOD_PATTERN_COLOR_FMT  0x02e8      /* PATTERN_FORMAT follows */
#define TWOD_SOLID_PRIM_MODE    0x0580      /* COLOR_FORMAT, COLOR follow */
#define TWOD_SOLID_PRIM_COLOR   0x0588
#define TWOD_SOLID_POINT(j)     (0x0600 + (j) * 8)  /* X, Y */
#define TWOD_SIFC_DATA_TYPE     0x0800      /* COLOR_FORMAT, INDEX_FORMAT, */
                                            /* MONO_FORMAT, WRAP, COLOR0, */
                                            /* COLOR1, MONO_OPACITY follow */
#define TWOD_SIFC_SRC_WIDTH     0x0838      /* SRC_HEIGHT, DX_DU_FRAC, */
                                            /* DX_DU_INT, DY_DV_FRAC, */
                                            /* DY_DV_INT, DST_X0_FRAC, */
                                            /* DST_X0_INT, DST_Y0_FRAC, */
                                            /* DST_Y0_INT follow */
#define TWOD_SIFC_DATA          0x0860
#define TWOD_BLIT_SAFE_OVERLAP  0x0888
#define TWOD_BLIT_DST_X0        0x08b0      /* DST_Y0, DST_WIDTH, DST_HEIGHT, */
                                            /* DU_DX_FRAC/INT, DV_DY_FRAC/INT, */
                                            /* SRC_X0_FRAC/INT, */
                                            /* SRC_Y0_FRAC, SRC_Y0_INT follow */
#define TWOD_X8R8G8B8           0xe6
#define TWOD_LAYOUT_PITCH       1
#define TWOD_OP_SRCCOPY         3
#define TWOD_PRIM_RECTS         4

/* 0x50c0 (Mesa's nv50_compute.xml.h) */
#define CP_DMA_GLOBAL           0x01a0
#define CP_DMA_LOCAL            0x01b8
#define CP_DMA_STACK            0x01bc
#define CP_DMA_CODE_CB          0x01c0
#define CP_ADDRESS_HIGH         0x0210      /* CP_ADDRESS_LOW follows */
#define CP_STACK_ADDRESS_HIGH   0x0218      /* LOW follows */
#define CP_STACK_SIZE_LOG       0x0220
#define CP_UNK0290              0x0290
#define CP_LOCAL_ADDRESS_HIGH   0x0294      /* LOW follows */
#define CP_LOCAL_SIZE_LOG       0x029c
#define CP_UNK02A0              0x02a0
#define CP_BLOCK_ALLOC          0x02b4
#define CP_LANES32_ENABLE       0x02b8
#define CP_REG_ALLOC_TEMP       0x02c0
#define CP_BLOCKDIM_LATCH       0x02f8
#define CP_LOCAL_WARPS_LOG_ALLOC 0x02fc
#define CP_LOCAL_WARPS_NO_CLAMP 0x0300
#define CP_STACK_WARPS_LOG_ALLOC 0x0304
#define CP_STACK_WARPS_NO_CLAMP 0x0308
#define CP_LAUNCH               0x0368
#define CP_USER_PARAM_COUNT     0x0374
#define CP_CODE_CB_FLUSH        0x0380
#define CP_UNK0384              0x0384
#define CP_GRIDID               0x0388
#define CP_GRIDDIM              0x03a4
#define CP_SHARED_SIZE          0x03a8
#define CP_BLOCKDIM_XY          0x03ac      /* BLOCKDIM_Z follows */
#define CP_START_ID             0x03b4
#define CP_REG_MODE             0x03b8
#define CP_GLOBAL(i)            (0x0400 + (i) * 0x20)   /* ADDRESS_HIGH, LOW, */
                                                        /* PITCH, LIMIT, MODE */
#define CP_USER_PARAM(i)        (0x0600 + (i) * 4)
#define CP_REG_MODE_STRIPED     2
#define CP_GLOBAL_MODE_LINEAR   1

/* the compute launch */
#define CP_BLOCK_X      16
#define CP_BLOCK_Y      4
#define CP_GRID_X       3
#define CP_GRID_Y       2
#define CP_THREADS      (CP_BLOCK_X * CP_BLOCK_Y * CP_GRID_X * CP_GRID_Y)
#define CP_GPRS         16          /* accel-compute.s uses $r0..$r12 */

/* the 2D surface */
#define SURF_W          256
#define SURF_H          256
#define SURF_PITCH      (SURF_W * 4)

#define SENTINEL        0xdeadbeefu
#define WAIT_TRIES      3           /* GEM_CPU_PREP waits 30 s a try */

struct bo {
    const char *name;
    uint32_t handle;
    uint32_t domain;
    uint64_t size;
    uint64_t va;                /* GEM_INFO offset: the GPU VA on Tesla */
    uint64_t map_handle;
    volatile uint32_t *map;
};

static int channel = -1;
/* a notifier DMA object in the channel's notifier buffer (NOTIFIER_HANDLE) */
static uint32_t notifier;
static int checks, failures;
static const char *stuck;       /* the check after which the GPU hung */

static uint32_t *pb;            /* the push buffer's mapping */
static struct bo pushbo;
static uint32_t pb_start, pb_cur;   /* words: this submission, its end */

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
    va_list ap;

    printf("drm-accel: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static void ok(const char *name, const char *fmt, ...)
{
    va_list ap;

    checks++;
    printf("drm-accel: %s ok", name);
    if (fmt && *fmt) {
        printf(" (");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(")");
    }
    printf("\n");
    fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static void fail(const char *name, const char *fmt, ...)
{
    va_list ap;

    checks++;
    failures++;
    printf("drm-accel: %s FAIL ", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* no acceleration, or not the driver this program is for: exit 2 */
__attribute__((format(printf, 1, 2), noreturn))
static void no_accel(const char *fmt, ...)
{
    va_list ap;

    printf("drm-accel: no acceleration: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    exit(2);
}

static void on_alarm(int sig)
{
    static const char msg[] =
        "drm-accel: FAIL: still running after 300 s, giving up\n";

    (void)sig;
    (void)!write(1, msg, sizeof(msg) - 1);
    _exit(1);
}

/* ---- buffers ---------------------------------------------------------- */

static int bo_new(struct bo *bo, const char *check, const char *name,
                  uint32_t domain, uint64_t size)
{
    struct drm_nouveau_gem_new req;
    struct drm_nouveau_gem_info info;
    void *p;
    int r;

    memset(bo, 0, sizeof(*bo));
    bo->name = name;
    memset(&req, 0, sizeof(req));
    req.info.size = size;
    req.info.domain = domain;
    req.info.tile_mode = 0;
    req.info.tile_flags = 0;        /* kind 0: pitch-linear */
    req.align = 0x1000;
    r = xioctl(IOCTL_GEM_NEW, &req);
    if (r) {
        fail(check, "DRM_NOUVEAU_GEM_NEW (%s, %llu bytes, domain %#x): %s",
             name, (unsigned long long)size, domain, strerror(-r));
        return r;
    }
    bo->handle = req.info.handle;
    /* GEM_INFO as a user would ask again: on Tesla offset is the VA */
    memset(&info, 0, sizeof(info));
    info.handle = bo->handle;
    r = xioctl(IOCTL_GEM_INFO, &info);
    if (r) {
        fail(check, "DRM_NOUVEAU_GEM_INFO (%s): %s", name, strerror(-r));
        return r;
    }
    if (info.offset != req.info.offset) {
        fail(check, "%s: GEM_INFO offset %#llx, GEM_NEW said %#llx", name,
             (unsigned long long)info.offset,
             (unsigned long long)req.info.offset);
        return -EINVAL;
    }
    bo->domain = info.domain;
    bo->size = info.size;
    bo->va = info.offset;
    bo->map_handle = info.map_handle;
    p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
             bo->map_handle);
    if (p == MAP_FAILED) {
        r = -errno;
        fail(check, "mmap of %s (map_handle %#llx): %s", name,
             (unsigned long long)bo->map_handle, strerror(-r));
        return r;
    }
    bo->map = p;
    say("%s: %llu bytes in %s at GPU VA %#llx", name,
        (unsigned long long)bo->size,
        bo->domain == NOUVEAU_GEM_DOMAIN_VRAM ? "VRAM" :
        bo->domain == NOUVEAU_GEM_DOMAIN_GART ? "GART" : "?",
        (unsigned long long)bo->va);
    return 0;
}

/* CPU accesses through the mapping (BAR1 for VRAM): 32 bits at a time */
static void bo_fill(struct bo *bo, uint32_t from, uint32_t words, uint32_t v)
{
    for (uint32_t i = 0; i < words; i++) {
        bo->map[from + i] = v;
    }
}

static void bo_read(const struct bo *bo, uint32_t *out, uint32_t words)
{
    for (uint32_t i = 0; i < words; i++) {
        out[i] = bo->map[i];
    }
}

/*
 * Wait until the GPU is done with bo (GEM_CPU_PREP: the fences of every
 * push that listed it).  0, or -errno with the check failed.
 */
static int bo_wait(struct bo *bo, const char *check)
{
    struct drm_nouveau_gem_cpu_prep req = {
        .handle = bo->handle,
        .flags = NOUVEAU_GEM_CPU_PREP_WRITE,
    };
    int r = 0;

    for (int i = 0; i < WAIT_TRIES; i++) {
        r = xioctl(IOCTL_CPU_PREP, &req);
        if (r != -EBUSY) {
            break;
        }
        say("%s: the GPU is still busy with %s after %d s", check, bo->name,
            30 * (i + 1));
    }
    if (r == -EBUSY) {
        fail(check, "the GPU never finished with %s (GEM_CPU_PREP busy for "
             "%d s): the channel is stuck", bo->name, 30 * WAIT_TRIES);
        stuck = check;
    } else if (r) {
        fail(check, "DRM_NOUVEAU_GEM_CPU_PREP (%s): %s", bo->name,
             strerror(-r));
    }
    return r;
}

/* ---- the push buffer ------------------------------------------------ */

static void out(uint32_t v)
{
    if (pb_cur < pushbo.size / 4) {
        pb[pb_cur] = v;
    }
    pb_cur++;
}

/* an incrementing method header and its n data words follow */
static void begin(int subc, uint32_t mthd, uint32_t n)
{
    out(n << 18 | (uint32_t)subc << 13 | mthd);
}

/* a non-incrementing one */
static void begin_ni(int subc, uint32_t mthd, uint32_t n)
{
    out(0x40000000u | n << 18 | (uint32_t)subc << 13 | mthd);
}

static void mthd1(int subc, uint32_t mthd, uint32_t v)
{
    begin(subc, mthd, 1);
    out(v);
}

/*
 * Submit the words since the last submission, listing the buffers the
 * GPU reads or writes (writes: write != 0).  0, or -errno with the check
 * failed.
 */
struct use {
    struct bo *bo;
    int write;
};

static int submit(const char *check, const struct use *use, int n)
{
    struct drm_nouveau_gem_pushbuf_bo bos[8];
    struct drm_nouveau_gem_pushbuf_push push;
    struct drm_nouveau_gem_pushbuf req;
    int r;

    if (pb_cur > pushbo.size / 4) {
        fail(check, "internal: push buffer full");
        return -ENOSPC;
    }
    memset(bos, 0, sizeof(bos));
    bos[0].handle = pushbo.handle;
    bos[0].read_domains = NOUVEAU_GEM_DOMAIN_GART;
    bos[0].valid_domains = NOUVEAU_GEM_DOMAIN_GART;
    for (int i = 0; i < n && i < 7; i++) {
        uint32_t d = use[i].bo->domain;

        bos[i + 1].handle = use[i].bo->handle;
        bos[i + 1].read_domains = d;
        bos[i + 1].write_domains = use[i].write ? d : 0;
        bos[i + 1].valid_domains = d;
    }
    memset(&push, 0, sizeof(push));
    push.bo_index = 0;
    push.offset = (uint64_t)pb_start * 4;
    push.length = (uint64_t)(pb_cur - pb_start) * 4;
    memset(&req, 0, sizeof(req));
    req.channel = (uint32_t)channel;
    req.nr_buffers = (uint32_t)n + 1;
    req.buffers = (uintptr_t)bos;
    req.nr_push = 1;
    req.push = (uintptr_t)&push;
    __sync_synchronize();
    r = xioctl(IOCTL_PUSHBUF, &req);
    pb_start = pb_cur;          /* taken or not, these words are done */
    if (r) {
        fail(check, "DRM_NOUVEAU_GEM_PUSHBUF (%u words at push buffer "
             "offset %#x): %s", (unsigned)push.length / 4,
             (unsigned)push.offset, strerror(-r));
        return r;
    }
    return 0;
}

/* the checks that depend on a failed one: FAIL, "not run" */
static void not_run(const char *const *names, int n, const char *why)
{
    for (int i = 0; i < n; i++) {
        fail(names[i], "not run: %s", why);
    }
}

/*
 * The checks names[0..n-1] cannot run: a GPU hang before them, or a
 * missing object.  1 (and each FAIL printed) if so.
 */
static int skipped(const char *const *names, int n, int have_object,
                   const char *object)
{
    char why[96];

    if (stuck) {
        snprintf(why, sizeof(why), "the channel is stuck since check %s",
                 stuck);
    } else if (!have_object) {
        snprintf(why, sizeof(why), "no %s object", object);
    } else {
        return 0;
    }
    not_run(names, n, why);
    return 1;
}

/* ---- (a) M2MF --------------------------------------------------------- */

static uint32_t m2mf_pattern(uint32_t i)
{
    return (i * 0x9e3779b9u) ^ 0x5a5a0000u ^ (i << 7);
}

#define M2MF_BYTES      0x10000u
#define M2MF_GUARD      64              /* words after the copy */
#define RECT_SRC        0x104u          /* m2mf-pitch: source offset */
#define RECT_PITCH_IN   256u
#define RECT_DST        0x11008u        /* destination offset: past the guard */
#define RECT_PITCH_OUT  208u
#define RECT_LINE       200u
#define RECT_LINES      48u
#define RECT_AREA       (8 + RECT_LINES * RECT_PITCH_OUT + 64) /* bytes */

static void m2mf_copy(uint64_t src, uint64_t dst, uint32_t pitch_in,
                      uint32_t pitch_out, uint32_t line, uint32_t count)
{
    mthd1(SUBC_M2MF, M2MF_SRC_LAYOUT, M2MF_LAYOUT_PITCH);
    mthd1(SUBC_M2MF, M2MF_DST_LAYOUT, M2MF_LAYOUT_PITCH);
    begin(SUBC_M2MF, M2MF_OFFSET_IN_UPPER, 2);
    out((uint32_t)(src >> 32));
    out((uint32_t)(dst >> 32));
    begin(SUBC_M2MF, M2MF_OFFSET_IN, 8);
    out((uint32_t)src);
    out((uint32_t)dst);
    out(pitch_in);
    out(pitch_out);
    out(line);
    out(count);
    out(M2MF_FORMAT_1_1);
    out(0);                     /* BUFFER_NOTIFY: the copy starts */
}

static void test_m2mf(int have)
{
    struct bo src, dst;
    uint32_t *got;
    uint32_t words = M2MF_BYTES / 4, bad = 0, first = 0;
    uint32_t area0 = (RECT_DST - 8) / 4, area_words = RECT_AREA / 4;

    static const char *const names[] = { "m2mf", "m2mf-pitch" };

    if (skipped(names, 2, have, "M2MF")) {
        return;
    }
    if (bo_new(&src, "m2mf", "m2mf source", NOUVEAU_GEM_DOMAIN_VRAM,
               M2MF_BYTES) ||
        bo_new(&dst, "m2mf", "m2mf destination", NOUVEAU_GEM_DOMAIN_VRAM,
               2 * M2MF_BYTES)) {
        not_run(names + 1, 1, "see m2mf");
        return;
    }
    for (uint32_t i = 0; i < words; i++) {
        src.map[i] = m2mf_pattern(i);
        dst.map[i] = ~m2mf_pattern(i);
    }
    bo_fill(&dst, words, M2MF_GUARD, SENTINEL);
    bo_fill(&dst, area0, area_words, SENTINEL);

    mthd1(SUBC_M2MF, SET_OBJECT, M2MF_HANDLE);
    /*
     * M2MF writes a notifier after every transfer, whether anyone waits
     * for it or not (envytools graph/intro.rst): it needs a notify DMA
     * (nouveau_bo5039.c binds the kernel's NvNotify0 the same way)
     */
    begin(SUBC_M2MF, M2MF_DMA_NOTIFY, 3);
    out(notifier);
    out(FB_CTXDMA);
    out(FB_CTXDMA);
    /* one line of 64 KiB (Mesa's nv50_m2mf_copy_linear) */
    m2mf_copy(src.va, dst.va, M2MF_BYTES, M2MF_BYTES, M2MF_BYTES, 1);
    /* a rectangle, pitch 256 in, 208 out */
    m2mf_copy(src.va + RECT_SRC, dst.va + RECT_DST, RECT_PITCH_IN,
              RECT_PITCH_OUT, RECT_LINE, RECT_LINES);
    if (submit("m2mf", (struct use[]){ { &src, 0 }, { &dst, 1 } }, 2) ||
        bo_wait(&dst, "m2mf")) {
        not_run(names + 1, 1, "see m2mf");
        return;
    }
    got = malloc(2 * M2MF_BYTES);
    bo_read(&dst, got, 2 * M2MF_BYTES / 4);

    for (uint32_t i = 0; i < words + M2MF_GUARD; i++) {
        uint32_t want = i < words ? m2mf_pattern(i) : SENTINEL;

        if (got[i] != want && !bad++) {
            first = i;
        }
    }
    if (bad) {
        uint32_t i = first;

        fail("m2mf", "%u of %u words wrong; the first at byte %#x: 0x%08x, "
             "want 0x%08x%s", bad, words + M2MF_GUARD, i * 4, got[i],
             i < words ? m2mf_pattern(i) : SENTINEL,
             i < words ? "" : " (past the copy: untouched)");
    } else {
        ok("m2mf", "64 KiB VRAM to VRAM, %d guard words untouched",
           M2MF_GUARD);
    }

    bad = 0;
    for (uint32_t w = area0; w < area0 + area_words; w++) {
        uint32_t off = w * 4, want = SENTINEL;

        if (off >= RECT_DST) {
            uint32_t rel = off - RECT_DST;
            uint32_t line = rel / RECT_PITCH_OUT, col = rel % RECT_PITCH_OUT;

            if (line < RECT_LINES && col < RECT_LINE) {
                want = m2mf_pattern((RECT_SRC + line * RECT_PITCH_IN + col)
                                    / 4);
            }
        }
        if (got[w] != want && !bad++) {
            first = w;
        }
    }
    if (bad) {
        uint32_t off = first * 4;
        int in = off >= RECT_DST;

        fail("m2mf-pitch", "%u of %u words wrong; the first at destination "
             "byte %#x (line %d, byte %d of it): 0x%08x", bad, area_words,
             off, in ? (int)((off - RECT_DST) / RECT_PITCH_OUT) : -1,
             in ? (int)((off - RECT_DST) % RECT_PITCH_OUT) : -1, got[first]);
    }
    if (!bad) {
        ok("m2mf-pitch", "%ux%u bytes, pitch %u to %u", RECT_LINE, RECT_LINES,
           RECT_PITCH_IN, RECT_PITCH_OUT);
    }
    free(got);
}

/* ---- (b) 2D ----------------------------------------------------------- */

enum { BY_FILL, BY_CPU, BY_SIFC, BY_BLIT };
static const char *const by_name[] = { "fill", "CPU write", "sifc", "blit" };

static uint32_t model[SURF_H][SURF_W];
static uint8_t model_by[SURF_H][SURF_W];

static void model_rect(int x0, int y0, int x1, int y1, uint32_t c, int by)
{
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            model[y][x] = c;
            model_by[y][x] = (uint8_t)by;
        }
    }
}

static void model_blit(int sx, int sy, int dx, int dy, int w, int h)
{
    static uint32_t tmp[SURF_H][SURF_W];

    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            tmp[y][x] = model[sy + y][sx + x];
        }
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            model[dy + y][dx + x] = tmp[y][x];
            model_by[dy + y][dx + x] = BY_BLIT;
        }
    }
}

static void fill(int x0, int y0, int x1, int y1, uint32_t c)
{
    mthd1(SUBC_2D, TWOD_SOLID_PRIM_COLOR, c);
    begin(SUBC_2D, TWOD_SOLID_POINT(0), 4);
    out((uint32_t)x0);
    out((uint32_t)y0);
    out((uint32_t)x1);
    out((uint32_t)y1);
    model_rect(x0, y0, x1, y1, c, BY_FILL);
}

static void blit(int sx, int sy, int dx, int dy, int w, int h)
{
    mthd1(SUBC_2D, GRAPH_SERIALIZE, 0);        /* WAIT_FOR_IDLE, as fbcon */
    begin(SUBC_2D, TWOD_BLIT_DST_X0, 4);
    out((uint32_t)dx);
    out((uint32_t)dy);
    out((uint32_t)w);
    out((uint32_t)h);
    begin(SUBC_2D, TWOD_BLIT_DST_X0 + 0x20, 4);  /* SRC_X0_FRAC.. */
    out(0);
    out((uint32_t)sx);
    out(0);
    out((uint32_t)sy);          /* SRC_Y0_INT: the blit starts */
    model_blit(sx, sy, dx, dy, w, h);
}

/* a 12x10 1 bpp image, rows of 2 bytes, bit 7 leftmost (fbcon's) */
#define MONO_W  12
#define MONO_H  10
#define MONO_X  100
#define MONO_Y  180

static void sifc_mono(uint32_t bg, uint32_t fg)
{
    uint8_t bits[32] = { 0 };
    uint32_t words[8];
    int stride = (MONO_W + 7) / 8;
    int dwords = ((stride * 8 * MONO_H + 31) & ~31) >> 5;

    for (int y = 0; y < MONO_H; y++) {
        for (int x = 0; x < MONO_W; x++) {
            int on = (x == y) || (x == MONO_W - 1 - y) || y == 0 ||
                     x == MONO_W - 1;

            if (on) {
                bits[y * stride + x / 8] |= (uint8_t)(0x80 >> (x % 8));
            }
            model[MONO_Y + y][MONO_X + x] = on ? fg : bg;
            model_by[MONO_Y + y][MONO_X + x] = BY_SIFC;
        }
    }
    memcpy(words, bits, sizeof(words));     /* little-endian, as fbcon's */
    begin(SUBC_2D, TWOD_SIFC_DATA_TYPE + 0x14, 2);  /* COLOR0, COLOR1 */
    out(bg);
    out(fg);
    begin(SUBC_2D, TWOD_SIFC_SRC_WIDTH, 2);
    out(MONO_W);
    out(MONO_H);
    begin(SUBC_2D, TWOD_SIFC_SRC_WIDTH + 0x18, 4);  /* DST_X0_FRAC.. */
    out(0);
    out(MONO_X);
    out(0);
    out(MONO_Y);
    begin_ni(SUBC_2D, TWOD_SIFC_DATA, (uint32_t)dwords);
    for (int i = 0; i < dwords; i++) {
        out(words[i]);
    }
}

static void twod_setup(const struct bo *surf)
{
    mthd1(SUBC_2D, SET_OBJECT, TWOD_HANDLE);
    begin(SUBC_2D, TWOD_DST_CTXDMA, 3);
    out(FB_CTXDMA);
    out(FB_CTXDMA);
    out(FB_CTXDMA);
    begin(SUBC_2D, TWOD_DST_FORMAT, 2);
    out(TWOD_X8R8G8B8);
    out(TWOD_LAYOUT_PITCH);
    begin(SUBC_2D, TWOD_DST_PITCH, 5);
    out(SURF_PITCH);
    out(SURF_W);
    out(SURF_H);
    out((uint32_t)(surf->va >> 32));
    out((uint32_t)surf->va);
    begin(SUBC_2D, TWOD_SRC_FORMAT, 2);
    out(TWOD_X8R8G8B8);
    out(TWOD_LAYOUT_PITCH);
    begin(SUBC_2D, TWOD_SRC_PITCH, 5);
    out(SURF_PITCH);
    out(SURF_W);
    out(SURF_H);
    out((uint32_t)(surf->va >> 32));
    out((uint32_t)surf->va);
    mthd1(SUBC_2D, TWOD_CLIP_ENABLE, 0);
    mthd1(SUBC_2D, TWOD_ROP, 0xcc);             /* SRCCOPY, unused */
    mthd1(SUBC_2D, TWOD_OPERATION, TWOD_OP_SRCCOPY);
    begin(SUBC_2D, TWOD_PATTERN_COLOR_FMT, 2);
    out(2);                                     /* A8R8G8B8 */
    out(1);                                     /* LE_M1 */
    begin(SUBC_2D, TWOD_SOLID_PRIM_MODE, 2);
    out(TWOD_PRIM_RECTS);
    out(TWOD_X8R8G8B8);
    begin(SUBC_2D, TWOD_SIFC_DATA_TYPE, 5);
    out(1);                                     /* INDEX */
    out(TWOD_X8R8G8B8);
    out(0);                                     /* I1 */
    out(0);                                     /* CGA6_M1: bit 7 first */
    out(1);                                     /* WRAP_BYTE */
    mthd1(SUBC_2D, TWOD_SIFC_DATA_TYPE + 0x1c, 1);  /* MONO_OPACITY opaque */
    begin(SUBC_2D, TWOD_SIFC_SRC_WIDTH + 0x08, 4);  /* DX_DU, DY_DV = 1 */
    out(0);
    out(1);
    out(0);
    out(1);
    mthd1(SUBC_2D, TWOD_BLIT_SAFE_OVERLAP, 1);
    begin(SUBC_2D, TWOD_BLIT_DST_X0 + 0x10, 4);     /* DU_DX, DV_DY = 1 */
    out(0);
    out(1);
    out(0);
    out(1);
}

#define PATCH_X 200
#define PATCH_Y 8
#define PATCH_W 24
#define PATCH_H 20

static uint32_t patch_pixel(int x, int y)
{
    return (uint32_t)(0x80 + y) << 16 | (uint32_t)(x * 9) << 8 |
           (uint32_t)((x ^ y) * 5);
}

static void test_2d(int have)
{
    static uint32_t got[SURF_H * SURF_W];
    struct bo surf;
    static const char *const names[] = { "2d-fill", "2d-sifc", "2d-blit" };
    static const char *const what[] = {
        "4 rectangles on 256x256 X8R8G8B8, every pixel",
        "12x10 1 bpp image, two colours",
        "3 blits, one overlapping itself",
    };
    struct { uint32_t bad, first; } cls[3];

    if (skipped(names, 3, have, "2D")) {
        return;
    }
    if (bo_new(&surf, "2d-fill", "2d surface", NOUVEAU_GEM_DOMAIN_VRAM,
               SURF_PITCH * SURF_H)) {
        not_run(names + 1, 2, "see 2d-fill");
        return;
    }
    /* first: the whole surface, then the CPU writes a patch on it */
    twod_setup(&surf);
    fill(0, 0, SURF_W, SURF_H, 0x00102030);
    if (submit("2d-fill", (struct use[]){ { &surf, 1 } }, 1) ||
        bo_wait(&surf, "2d-fill")) {
        not_run(names + 1, 2, "see 2d-fill");
        return;
    }
    for (int y = 0; y < PATCH_H; y++) {
        for (int x = 0; x < PATCH_W; x++) {
            surf.map[(PATCH_Y + y) * SURF_W + PATCH_X + x] = patch_pixel(x, y);
        }
    }
    model_rect(PATCH_X, PATCH_Y, PATCH_X + PATCH_W, PATCH_Y + PATCH_H, 0,
               BY_CPU);
    for (int y = 0; y < PATCH_H; y++) {
        for (int x = 0; x < PATCH_W; x++) {
            model[PATCH_Y + y][PATCH_X + x] = patch_pixel(x, y);
        }
    }
    /* then rectangles, text-like mono expansion, blits */
    fill(16, 32, 80, 96, 0x00ff8000);
    fill(64, 80, 128, 112, 0x000080ff);         /* over the first */
    fill(240, 240, 256, 256, 0x0000ff00);       /* the bottom-right corner */
    sifc_mono(0xff203040u, 0xfff0e0d0u);        /* fbcon ORs in alpha */
    blit(PATCH_X, PATCH_Y, 8, 200, PATCH_W, PATCH_H);   /* the CPU's patch */
    blit(56, 72, 150, 150, 32, 32);             /* both rectangles' corner */
    blit(150, 150, 160, 156, 32, 32);           /* overlapping itself */
    if (submit("2d-fill", (struct use[]){ { &surf, 1 } }, 1) ||
        bo_wait(&surf, "2d-fill")) {
        not_run(names + 1, 2, "see 2d-fill");
        return;
    }
    bo_read(&surf, got, SURF_W * SURF_H);

    memset(cls, 0, sizeof(cls));
    for (int y = 0; y < SURF_H; y++) {
        for (int x = 0; x < SURF_W; x++) {
            uint32_t i = (uint32_t)(y * SURF_W + x);
            int by = model_by[y][x];
            int c = by == BY_BLIT ? 2 : by == BY_SIFC ? 1 : 0;

            if (((got[i] ^ model[y][x]) & 0xffffff) && !cls[c].bad++) {
                cls[c].first = i;
            }
        }
    }
    for (int c = 0; c < 3; c++) {
        uint32_t i = cls[c].first;
        int x = (int)(i % SURF_W), y = (int)(i / SURF_W);

        if (cls[c].bad) {
            fail(names[c], "%u pixels wrong; the first at (%d, %d): 0x%06x, "
                 "want 0x%06x (drawn by: %s)", cls[c].bad, x, y,
                 got[i] & 0xffffff, model[y][x] & 0xffffff,
                 by_name[model_by[y][x]]);
        } else {
            ok(names[c], "%s", what[c]);
        }
    }
}

/* ---- (c) compute ------------------------------------------------------ */

static uint32_t cp_value(uint32_t i)
{
    uint32_t per_block = CP_BLOCK_X * CP_BLOCK_Y;
    uint32_t b = i / per_block, t = i % per_block;
    uint32_t bx = b % CP_GRID_X, by = b / CP_GRID_X;
    uint32_t tx = t % CP_BLOCK_X, ty = t / CP_BLOCK_X;

    return (bx | by << 4) << 24 | ty << 16 | tx << 8 | 0xc5;
}

static void test_compute(int have)
{
    struct bo code, res, scratch;
    uint32_t ncode = sizeof(accel_compute_code) / 4;
    uint32_t got[1024], words = 1024, bad = 0, first = 0;

    static const char *const names[] = { "compute" };

    if (skipped(names, 1, have, "compute")) {
        return;
    }
    if (bo_new(&code, "compute", "compute code", NOUVEAU_GEM_DOMAIN_VRAM,
               0x1000) ||
        bo_new(&res, "compute", "compute results", NOUVEAU_GEM_DOMAIN_VRAM,
               0x1000) ||
        bo_new(&scratch, "compute", "compute stack+local",
               NOUVEAU_GEM_DOMAIN_VRAM, 0x40000)) {
        return;
    }
    for (uint32_t i = 0; i < ncode; i++) {
        code.map[i] = accel_compute_code[i];
    }
    bo_fill(&res, 0, words, SENTINEL);

    /* nv50_screen_compute_setup's state (no textures, no constbufs) */
    mthd1(SUBC_CP, SET_OBJECT, CP_HANDLE);
    mthd1(SUBC_CP, CP_UNK02A0, 1);
    mthd1(SUBC_CP, CP_DMA_STACK, FB_CTXDMA);
    begin(SUBC_CP, CP_STACK_ADDRESS_HIGH, 2);
    out((uint32_t)(scratch.va >> 32));
    out((uint32_t)scratch.va);
    mthd1(SUBC_CP, CP_STACK_SIZE_LOG, 4);
    mthd1(SUBC_CP, CP_UNK0290, 1);
    mthd1(SUBC_CP, CP_LANES32_ENABLE, 1);
    mthd1(SUBC_CP, CP_REG_MODE, CP_REG_MODE_STRIPED);
    mthd1(SUBC_CP, CP_UNK0384, 0x100);
    mthd1(SUBC_CP, CP_DMA_GLOBAL, FB_CTXDMA);
    for (int i = 0; i < 16; i++) {
        begin(SUBC_CP, CP_GLOBAL(i), 2);
        out(0);
        out(0);
        mthd1(SUBC_CP, CP_GLOBAL(i) + 0xc, i == 15 ? ~0u : 0);   /* LIMIT */
        mthd1(SUBC_CP, CP_GLOBAL(i) + 0x10, CP_GLOBAL_MODE_LINEAR);
    }
    mthd1(SUBC_CP, CP_LOCAL_WARPS_LOG_ALLOC, 7);
    mthd1(SUBC_CP, CP_LOCAL_WARPS_NO_CLAMP, 1);
    mthd1(SUBC_CP, CP_STACK_WARPS_LOG_ALLOC, 7);
    mthd1(SUBC_CP, CP_STACK_WARPS_NO_CLAMP, 1);
    mthd1(SUBC_CP, CP_USER_PARAM_COUNT, 0);
    mthd1(SUBC_CP, CP_DMA_CODE_CB, FB_CTXDMA);
    mthd1(SUBC_CP, CP_DMA_LOCAL, FB_CTXDMA);
    begin(SUBC_CP, CP_LOCAL_ADDRESS_HIGH, 2);
    out((uint32_t)((scratch.va + 0x10000) >> 32));
    out((uint32_t)(scratch.va + 0x10000));
    mthd1(SUBC_CP, CP_LOCAL_SIZE_LOG, 1);
    /*
     * The code segment.  Mesa uploads compute code into the fragment
     * program segment the 3D object's FP_ADDRESS set (the hardware shares
     * it); with no 3D object here, the compute class's own CP_ADDRESS.
     */
    begin(SUBC_CP, CP_ADDRESS_HIGH, 2);
    out((uint32_t)(code.va >> 32));
    out((uint32_t)code.va);
    mthd1(SUBC_CP, CP_CODE_CB_FLUSH, 0);

    /* the results buffer as g0[] (nv50_compute_validate_surfaces) */
    begin(SUBC_CP, CP_GLOBAL(0), 5);
    out((uint32_t)(res.va >> 32));
    out((uint32_t)res.va);
    out(0);                                     /* pitch */
    out((uint32_t)res.size - 1);                /* limit */
    out(CP_GLOBAL_MODE_LINEAR);

    /* nv50_launch_grid */
    mthd1(SUBC_CP, CP_USER_PARAM_COUNT, 1 << 8);
    mthd1(SUBC_CP, CP_START_ID, 0);
    mthd1(SUBC_CP, CP_SHARED_SIZE, 0x40);
    mthd1(SUBC_CP, CP_REG_ALLOC_TEMP, CP_GPRS);
    begin(SUBC_CP, CP_BLOCKDIM_XY, 2);
    out(CP_BLOCK_Y << 16 | CP_BLOCK_X);
    out(1);
    mthd1(SUBC_CP, CP_BLOCK_ALLOC, 1 << 16 | CP_BLOCK_X * CP_BLOCK_Y);
    mthd1(SUBC_CP, CP_BLOCKDIM_LATCH, 1);
    mthd1(SUBC_CP, CP_GRIDDIM, CP_GRID_Y << 16 | CP_GRID_X);
    mthd1(SUBC_CP, CP_GRIDID, 1);
    mthd1(SUBC_CP, CP_USER_PARAM(0), 1 | 0 << 16);  /* grid z 1, z 0 */
    mthd1(SUBC_CP, CP_LAUNCH, 0);
    mthd1(SUBC_CP, GRAPH_SERIALIZE, 0);
    if (submit("compute", (struct use[]){ { &code, 0 }, { &res, 1 },
                                          { &scratch, 1 } }, 3) ||
        bo_wait(&res, "compute")) {
        return;
    }
    bo_read(&res, got, words);
    for (uint32_t i = 0; i < words; i++) {
        uint32_t want = i < CP_THREADS ? cp_value(i) : SENTINEL;

        if (got[i] != want && !bad++) {
            first = i;
        }
    }
    if (bad) {
        fail("compute", "%u of %u words wrong; the first, word %u%s: "
             "0x%08x, want 0x%08x", bad, words, first,
             first < CP_THREADS ? "" : " (past the grid: untouched)",
             got[first], first < CP_THREADS ? cp_value(first) : SENTINEL);
    } else {
        ok("compute", "grid %dx%d of %dx%d threads, %u words, the rest "
           "untouched", CP_GRID_X, CP_GRID_Y, CP_BLOCK_X, CP_BLOCK_Y,
           CP_THREADS);
    }
}

/* ---- main ------------------------------------------------------------- */

static int grobj(uint32_t handle, int cls)
{
    struct drm_nouveau_grobj_alloc req = {
        .channel = channel, .handle = handle, .class = cls,
    };
    char name[16];
    int r = xioctl(IOCTL_GROBJ, &req);

    snprintf(name, sizeof(name), "grobj-%04x", cls);
    if (r) {
        fail(name, "DRM_NOUVEAU_GROBJ_ALLOC class 0x%04x handle 0x%08x: %s",
             cls, handle, strerror(-r));
        return 0;
    }
    ok(name, "handle 0x%08x", handle);
    return 1;
}

static void noaccel_param(char *buf, size_t len)
{
    FILE *f = fopen("/sys/module/nouveau/parameters/noaccel", "r");

    snprintf(buf, len, "?");
    if (f) {
        if (fgets(buf, (int)len, f)) {
            buf[strcspn(buf, "\n")] = 0;
        }
        fclose(f);
    }
}

int main(void)
{
    char drv[32] = { 0 }, param[16];
    struct drm_version ver = { .name = drv, .name_len = sizeof(drv) - 1 };
    struct drm_nouveau_getparam gp = { .param = NOUVEAU_GETPARAM_CHIPSET_ID };
    struct drm_nouveau_channel_alloc ca;
    struct drm_nouveau_channel_free cf;
    int have_m2mf, have_2d, have_cp, r;

    signal(SIGALRM, on_alarm);
    alarm(300);
    fd = open("/dev/dri/card0", O_RDWR);
    if (fd < 0) {
        no_accel("cannot open /dev/dri/card0: %s", strerror(errno));
    }
    if (xioctl(DRM_IOCTL_VERSION, &ver) || strcmp(drv, "nouveau") != 0) {
        no_accel("/dev/dri/card0 is not nouveau (driver '%s')", drv);
    }
    r = xioctl(IOCTL_GETPARAM, &gp);
    if (r) {
        no_accel("DRM_NOUVEAU_GETPARAM(CHIPSET_ID): %s", strerror(-r));
    }
    say("nouveau on chipset %#llx", (unsigned long long)gp.value);

    memset(&ca, 0, sizeof(ca));
    ca.fb_ctxdma_handle = FB_CTXDMA;
    ca.tt_ctxdma_handle = TT_CTXDMA;
    r = xioctl(IOCTL_CHAN_ALLOC, &ca);
    if (r == -ENODEV || r == -ENOTTY || r == -ENOSYS) {
        noaccel_param(param, sizeof(param));
        no_accel("DRM_NOUVEAU_CHANNEL_ALLOC: %s: nouveau has no channel "
                 "(module parameter noaccel=%s; boot without "
                 "nouveau.noaccel=1)", strerror(-r), param);
    }
    if (r) {
        fail("channel", "DRM_NOUVEAU_CHANNEL_ALLOC: %s", strerror(-r));
        say("done: %d checks, %d not ok", checks, failures);
        return 1;
    }
    channel = ca.channel;
    ok("channel", "id %d, push buffers in %s%s, notifier handle %u",
       channel, ca.pushbuf_domains & NOUVEAU_GEM_DOMAIN_VRAM ? "VRAM " : "",
       ca.pushbuf_domains & NOUVEAU_GEM_DOMAIN_GART ? "GART" : "",
       ca.notifier_handle);
    {
        /* a DMA object over 32 bytes of the channel's notifier buffer */
        struct drm_nouveau_notifierobj_alloc na = {
            .channel = channel, .handle = NOTIFIER_HANDLE, .size = 32,
        };

        r = xioctl(IOCTL_NOTIFIER, &na);
        if (r) {
            fail("channel", "DRM_NOUVEAU_NOTIFIEROBJ_ALLOC: %s",
                 strerror(-r));
        } else {
            notifier = NOTIFIER_HANDLE;
        }
    }

    have_m2mf = grobj(M2MF_HANDLE, 0x5039);
    have_2d = grobj(TWOD_HANDLE, 0x502d);
    have_cp = grobj(CP_HANDLE, 0x50c0);

    if (bo_new(&pushbo, "push-buffer", "push buffer",
               NOUVEAU_GEM_DOMAIN_GART, 0x10000)) {
        say("done: %d checks, %d not ok", checks, failures);
        return 1;
    }
    pb = (uint32_t *)pushbo.map;

    test_m2mf(have_m2mf);
    test_2d(have_2d);
    test_compute(have_cp);

    cf.channel = channel;
    r = xioctl(IOCTL_CHAN_FREE, &cf);
    if (r) {
        fail("channel-free", "DRM_NOUVEAU_CHANNEL_FREE: %s", strerror(-r));
    } else {
        ok("channel-free", NULL);
    }
    say("done: %d checks, %d not ok", checks, failures);
    return failures ? 1 : 0;
}
