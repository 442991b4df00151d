/*
 * make bench: the in-process G84 channel the engine benchmarks share
 * (g84-engine.c: M2MF, 2D, compute and the helpers; g84-3d.h: 3D).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_BENCH_G84_ENG_H
#define GEMU_BENCH_G84_ENG_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/hostchan.h"
#include "bench.h"

#define ENG_CHID        1
#define ENG_INST        0x200000ull
#define ENG_VRAM_BASE   0x1000000ull
#define ENG_VRAM_LEN    (128ull << 20)
#define ENG_VA_BASE     0x20000000ull
#define ENG_VA_DATA     (ENG_VA_BASE + 0x100000)

#define DMA_NTFY        0x104       /* a VM ctxdma over NTFY_VA */
#define H_NTFY          0xd0000010u
#define NTFY_VA         (ENG_VA_BASE + 0x80000)

/* methods every class has (rnndb nv_object.xml) */
#define M_OBJECT        0x000
#define M_NOP           0x100
#define M_WAIT_FOR_IDLE 0x110
#define M_DMA_NOTIFY    0x180

#define PGRAPH_INTR     0x400100
#define PFIFO_INTR      0x002100
#define USER_IB_GET     (0xc00000 + ENG_CHID * 0x2000 + 0x88)

typedef struct Eng {
    const char *name;           /* for failures */
    GemuClock clk;
    NV50State *s;
    NV50HostChan ch;
    bool broken;                /* the channel stopped: push no more */
} Eng;

/* the 1024x768 screen the 2D and 3D benchmarks draw on */
#define FB_W            1024
#define FB_H            768
#define FB_PITCH        (FB_W * 4)

/* A card with channel ENG_CHID up, its interrupts enabled as nvkm does. */
bool eng_init(Eng *e, const char *name);
void eng_fini(Eng *e);
/* The channel's memory by VA (VRAM behind it). */
void mem_write(Eng *e, uint64_t va, const void *buf, size_t len);
void mem_read(Eng *e, uint64_t va, void *buf, size_t len);
/* Submit what was pushed and wait for the engine. */
void eng_submit(Eng *e);
void mthd(Eng *e, unsigned subc, uint32_t m, const uint32_t *d, unsigned n);
void mthd_ni(Eng *e, unsigned subc, uint32_t m, const uint32_t *d,
             unsigned n);
void mthd1(Eng *e, unsigned subc, uint32_t m, uint32_t v);
/* Everything pushed was consumed and nothing complained. */
bool eng_ok(Eng *e);

/* the 3D benchmarks (g84-3d.c) */
void bench_g84_3d(void);

#endif
