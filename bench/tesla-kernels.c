/*
 * make bench: the Tesla kernels (tesla-kernels.h) and the program
 * builder they are written with.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "tesla-kernels.h"

#include <assert.h>

/*
 * A small program builder.  The encodings are the envydis ones (see
 * tesla-asm-catalogue.tsv); only the few forms the kernels use.
 */
static uint32_t here(const BenchProg *p)
{
    return p->n * 4;
}

static void s1(BenchProg *p, uint32_t w)
{
    assert(p->n < ARRAY_SIZE(p->w));
    p->w[p->n++] = w;
}

/* A long instruction; returns its word index (for patching targets). */
static unsigned l2(BenchProg *p, uint32_t w0, uint32_t w1)
{
    unsigned at = p->n;

    assert(p->n % 2 == 0 && p->n + 2 <= ARRAY_SIZE(p->w));
    p->w[p->n++] = w0;
    p->w[p->n++] = w1;
    return at;
}

/* Registers of short forms are 6 bits, of long forms 7 bits. */
#define D(r)    ((uint32_t)(r) << 2)
#define S1(r)   ((uint32_t)(r) << 9)
#define S2(r)   ((uint32_t)(r) << 16)
#define S3(r)   ((uint32_t)(r) << 14)       /* word 1 */

/* Long immediate: low 6 bits in word 0 bits 16-21, the rest in word 1. */
#define IMM0(i) (((uint32_t)(i) & 0x3f) << 16)
#define IMM1(i) ((((uint32_t)(i) >> 6) << 2) | 3)

#define PRED_ALWAYS   (0x0fu << 7)
#define PRED_E(c)     ((0x02u << 7) | (uint32_t)(c) << 12)
#define PRED_LG(c)    ((0x05u << 7) | (uint32_t)(c) << 12)

static void mov_imm(BenchProg *p, unsigned d, uint32_t imm)
{
    l2(p, 0x10008001 | D(d) | IMM0(imm), IMM1(imm));
}

static void and_imm(BenchProg *p, unsigned d, unsigned s, uint32_t imm)
{
    l2(p, 0xd0000001 | D(d) | S1(s) | IMM0(imm), IMM1(imm));
}

/* add b32 $d $a $b (short) */
static void add_b32(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    s1(p, 0x20008000 | D(d) | S1(a) | S2(b));
}

/* add f32 $d $a $b (short) */
static void add_f32(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    s1(p, 0xb0000000 | D(d) | S1(a) | S2(b));
}

/* mul f32 $d $a $b (short) */
static void mul_f32(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    s1(p, 0xc0000000 | D(d) | S1(a) | S2(b));
}

/* add f32 $d (mul $a $b) $d (short) */
static void mad_f32(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    s1(p, 0xe0000000 | D(d) | S1(a) | S2(b));
}

/* add $d (mul u24 $a $b) $d (short) */
static void mad_u24(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    s1(p, 0x60008100 | D(d) | S1(a) | S2(b));
}

/* add $d (mul u24 $a $b) $c (long) */
static void mad_u24_l(BenchProg *p, unsigned d, unsigned a, unsigned b,
                      unsigned c)
{
    l2(p, 0x60000001 | D(d) | S1(a) | S2(b), 0x60000780 | S3(c));
}

/* xor b32 $d $a $b (long) */
static void xor_b32(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    l2(p, 0xd0000001 | D(d) | S1(a) | S2(b), 0x04008780);
}

/* shl b32 $d $a IMM (long) */
static void shl_imm(BenchProg *p, unsigned d, unsigned a, unsigned sh)
{
    l2(p, 0x30000001 | D(d) | S1(a) | S2(sh), 0xc4100780);
}

/* shl $a[d] $r[a] IMM */
static void shl_areg(BenchProg *p, unsigned d, unsigned a, unsigned sh)
{
    l2(p, 0x00000001 | D(d) | S1(a) | S2(sh), 0xc0000780);
}

/* ld $d u16 s[addr] */
static void ld_s_u16(BenchProg *p, unsigned d, uint32_t addr)
{
    l2(p, 0x10000001 | D(d) | S1(addr / 2), 0x44004780);
}

/* ld $d b32 s[$a1+addr] */
static void ld_s_a1(BenchProg *p, unsigned d, uint32_t addr)
{
    l2(p, 0x14000001 | D(d) | S1(addr / 4), 0x4400c780);
}

/* st b32 s[$a1+addr] $v */
static void st_s_a1(BenchProg *p, uint32_t addr, unsigned v)
{
    l2(p, 0x04000001 | S1(addr / 4), 0xe4200780 | S3(v));
}

/* ld $d b32 c0[addr] */
static void ld_c0(BenchProg *p, unsigned d, uint32_t addr)
{
    l2(p, 0x10000001 | D(d) | S1(addr / 4), 0x2400c780);
}

/* ld b32 $d g0[$a] / st b32 g0[$a] $v */
static void ld_g0(BenchProg *p, unsigned d, unsigned a)
{
    l2(p, 0xd0000001 | D(d) | S1(a), 0x80c00780);
}

static void st_g0(BenchProg *p, unsigned a, unsigned v)
{
    l2(p, 0xd0000001 | D(v) | S1(a), 0xa0c00780);
}

/* ld b32 $d l[addr] / st b32 l[addr] $v (byte address) */
static void ld_l(BenchProg *p, unsigned d, uint32_t addr)
{
    l2(p, 0xd0000001 | D(d) | S1(addr), 0x40c00780);
}

static void st_l(BenchProg *p, uint32_t addr, unsigned v)
{
    l2(p, 0xd0000001 | D(v) | S1(addr), 0x60c00780);
}

/* mov $c[c] $r[s] */
static void mov_to_c(BenchProg *p, unsigned c, unsigned s)
{
    l2(p, 0x00000001 | S1(s), 0xa0000780 | (uint32_t)c << 4);
}

/* add b32 $c0 $d $a $b (long, flags to $c0) */
static void add_b32_c0(BenchProg *p, unsigned d, unsigned a, unsigned b)
{
    l2(p, 0x20000001 | D(d) | S1(a), 0x040007c0 | S3(b));
}

/* Control: the target is word 0 bits 11 and up, in words. */
static unsigned ctl(BenchProg *p, uint32_t op, uint32_t target, uint32_t w1)
{
    return l2(p, op | 3 | (target / 4) << 11, w1);
}

static void patch_target(BenchProg *p, unsigned at, uint32_t target)
{
    p->w[at] = (p->w[at] & 0x7ff) | (p->w[at] & 0xf0000000) |
               (target / 4) << 11;
}

#define OP_BRA    0x10000000u
#define OP_JOINAT 0xa0000000u

static void exit_nop(BenchProg *p)
{
    l2(p, 0xf0000001, 0xe0000781);
}

static void join_nop(BenchProg *p)
{
    l2(p, 0xf0000001, 0xe0000782);
}

/*
 * The loop frame every kernel shares: $r1 counts down from @iters ($r2 is
 * -1), the body runs once per count.  Returns the loop start address.
 */
static uint32_t loop_begin(BenchProg *p, uint32_t iters)
{
    mov_imm(p, 1, iters);
    mov_imm(p, 2, 0xffffffff);
    return here(p);
}

/* The count and the branch back (2 warp-instructions a round). */
static void loop_close(BenchProg *p, uint32_t start)
{
    add_b32_c0(p, 1, 1, 2);
    ctl(p, OP_BRA, start, PRED_LG(0));
}

static void loop_end(BenchProg *p, uint32_t start)
{
    loop_close(p, start);
    exit_nop(p);
}

/* $r6 = global thread id (x only), from the launch's s[] header. */
static void global_id(BenchProg *p)
{
    ld_s_u16(p, 3, 0xc);                /* block index x */
    ld_s_u16(p, 4, 0x2);                /* block size x */
    and_imm(p, 5, 0, 0xffff);           /* tid.x */
    mad_u24_l(p, 6, 3, 4, 5);
}

/* The encodings above against envyas output (tesla-asm-catalogue.tsv). */
bool bench_tesla_check_encodings(void)
{
    BenchProg p = { .n = 0 };
    static const uint32_t want[] = {
        0x10108005, 0x00000003,     /* mov b32 $r1 0x10 */
        0xd0000405, 0x00000ff3,     /* and b32 $r1 $r2 0xff00 */
        0x20038404,                 /* add b32 $r1 $r2 $r3 */
        0xb0030404,                 /* add f32 $r1 $r2 $r3 */
        0xc0030404,                 /* mul f32 $r1 $r2 $r3 */
        0xe0030404,                 /* add f32 $r1 (mul $r2 $r3) $r1 */
        0x60038504,                 /* add $r1 (mul u24 $r2 $r3) $r1 */
        0x20038404,                 /* add b32 $r1 $r2 $r3 */
        0x60030405, 0x60010780,     /* add $r1 (mul u24 $r2 $r3) $r4 */
        0xd0030405, 0x04028780,     /* xor b32 $r1 $r2 not $r3, less not */
        0x30030405, 0xc4100780,     /* shl b32 $r1 $r2 0x3 */
        0x00020405, 0xc0000780,     /* shl $a1 $r2 0x2 */
        0x10000205, 0x44004780,     /* ld $r1 u16 s[0x2] */
        0x14000a05, 0x4400c780,     /* ld $r1 b32 s[$a1+0x14] */
        0x04002001, 0xe4204780,     /* st b32 s[$a1+0x40] $r1 */
        0x10000805, 0x2400c780,     /* ld $r1 b32 c0[0x10] */
        0xd0000011, 0x80c00780,     /* ld b32 $r4 g0[$r0] */
        0xd0000019, 0xa0c00780,     /* st b32 g0[$r0] $r6 */
        0xd0002005, 0x40c00780,     /* ld b32 $r1 l[0x10] */
        0xd0002005, 0x60c00780,     /* st b32 l[0x10] $r1 */
        0x00000201, 0xa0000790,     /* mov $c1 $r1 */
        0x20000405, 0x0400c7c0,     /* add b32 $c0 $r1 $r2 $r3 */
        0x10004003, 0x00000100,     /* (e $c0) bra 0x20 */
        0xa0008003, 0x00000000,     /* joinat 0x40 */
    };

    mov_imm(&p, 1, 0x10);
    and_imm(&p, 1, 2, 0xff00);
    add_b32(&p, 1, 2, 3);
    add_f32(&p, 1, 2, 3);
    mul_f32(&p, 1, 2, 3);
    mad_f32(&p, 1, 2, 3);
    mad_u24(&p, 1, 2, 3);
    add_b32(&p, 1, 2, 3);
    mad_u24_l(&p, 1, 2, 3, 4);
    xor_b32(&p, 1, 2, 3);
    p.w[p.n - 1] |= 0x00020000;         /* the catalogue's "not $r3" */
    shl_imm(&p, 1, 2, 3);
    shl_areg(&p, 1, 2, 2);
    ld_s_u16(&p, 1, 0x2);
    ld_s_a1(&p, 1, 0x14);
    st_s_a1(&p, 0x40, 1);
    ld_c0(&p, 1, 0x10);
    ld_g0(&p, 4, 0);
    st_g0(&p, 0, 6);
    ld_l(&p, 1, 0x10);
    st_l(&p, 0x10, 1);
    mov_to_c(&p, 1, 1);
    add_b32_c0(&p, 1, 2, 3);
    ctl(&p, OP_BRA, 0x20, PRED_E(0));
    ctl(&p, OP_JOINAT, 0x40, 0);

    if (p.n != ARRAY_SIZE(want)) {
        return false;
    }
    for (unsigned i = 0; i < p.n; i++) {
        if (p.w[i] != want[i]) {
            fprintf(stderr, "bench: word %u is %08x, envyas says %08x\n",
                    i, p.w[i], want[i]);
            return false;
        }
    }
    return true;
}

/*
 * ALU: 2 x (6 short + 2 long) + 2 loop = 18 warp-instructions a round;
 * then $r3 (6 x iters) to g0[gid], gid's byte address in $r23 from
 * before the loop.
 */
void bench_tesla_build_alu(BenchKernel *k)
{
    BenchProg *p = &k->prog;
    uint32_t start;
    unsigned init;

    mov_imm(p, 4, 3);
    mov_imm(p, 6, 0x3f800000);          /* 1.0 */
    mov_imm(p, 8, 0x3e800000);          /* 0.25 */
    mov_imm(p, 9, 0x3f000000);          /* 0.5 */
    mov_imm(p, 11, 5);
    mov_imm(p, 12, 7);
    mov_imm(p, 14, 0x5a5a5a5a);
    mov_imm(p, 17, 0x3f800000);
    ld_s_u16(p, 20, 0xc);               /* block index x */
    ld_s_u16(p, 21, 0x2);               /* block size x */
    and_imm(p, 22, 0, 0xffff);          /* tid.x */
    mad_u24_l(p, 23, 20, 21, 22);
    shl_imm(p, 23, 23, 2);
    start = loop_begin(p, k->iters);
    init = p->n / 2;                    /* all long so far */
    for (int i = 0; i < 2; i++) {
        add_b32(p, 3, 3, 4);
        mul_f32(p, 5, 5, 6);
        mad_f32(p, 7, 8, 9);
        mad_u24(p, 10, 11, 12);
        add_b32(p, 18, 18, 0);
        add_f32(p, 16, 16, 17);
        xor_b32(p, 13, 13, 14);
        shl_imm(p, 15, 3, 1);
    }
    loop_close(p, start);
    st_g0(p, 23, 3);
    exit_nop(p);
    k->insns_per_warp = init + (uint64_t)k->iters * 18 + 2;
    k->use_g0 = true;
    k->g0_want = 6 * k->iters;
}

/*
 * Memory: per round, g0[gid] += c0[0x10], s[] and l[] words of the thread
 * accumulate it too: 4 loads, 3 stores, 4 adds, 2 loop = 13.
 */
void bench_tesla_build_mem(BenchKernel *k)
{
    BenchProg *p = &k->prog;
    uint32_t start;
    unsigned init;

    global_id(p);                       /* 4 */
    shl_imm(p, 7, 6, 2);                /* $r7 = g0 byte address */
    shl_areg(p, 1, 5, 2);               /* $a1 = tid.x * 4 */
    start = loop_begin(p, k->iters);    /* 2 */
    init = 8;
    ld_g0(p, 8, 7);
    ld_s_a1(p, 9, 0x14);
    ld_l(p, 10, 0x10);
    ld_c0(p, 11, 0x10);
    add_b32(p, 8, 8, 11);
    add_b32(p, 9, 9, 8);
    st_g0(p, 7, 8);
    st_s_a1(p, 0x14, 9);
    add_b32(p, 10, 10, 9);
    add_b32(p, 12, 12, 10);
    st_l(p, 0x10, 10);
    loop_end(p, start);
    k->insns_per_warp = init + (uint64_t)k->iters * 13 + 1;
    k->local_bytes = 0x20;
    k->shared_bytes = 0x14 + 4 * k->block;
    k->use_g0 = true;
    k->g0_want = k->iters;
}

/*
 * Divergent: odd lanes take the else side.  A round runs joinat, bra,
 * then (4 + bra), join, else (4), join, and the loop's 2: 15.
 */
void bench_tesla_build_divergent(BenchKernel *k)
{
    BenchProg *p = &k->prog;
    uint32_t start;
    unsigned joinat, bra_else, bra_end;
    unsigned init;

    and_imm(p, 3, 0, 1);                /* $r3 = tid & 1 */
    mov_to_c(p, 1, 3);                  /* Z of $c1 set on odd lanes */
    mov_imm(p, 4, 3);
    mov_imm(p, 7, 0x3f800000);
    start = loop_begin(p, k->iters);
    init = 6;
    joinat = ctl(p, OP_JOINAT, 0, 0);
    bra_else = ctl(p, OP_BRA, 0, PRED_E(1));
    add_b32(p, 5, 5, 0);
    mul_f32(p, 6, 6, 7);
    add_f32(p, 8, 8, 7);
    add_b32(p, 9, 9, 4);
    bra_end = ctl(p, OP_BRA, 0, PRED_ALWAYS);
    patch_target(p, bra_else, here(p));
    add_b32(p, 10, 10, 0);
    mul_f32(p, 11, 11, 7);
    mad_f32(p, 12, 7, 7);
    add_b32(p, 13, 13, 4);
    patch_target(p, joinat, here(p));
    patch_target(p, bra_end, here(p));
    join_nop(p);
    loop_end(p, start);
    k->insns_per_warp = init + (uint64_t)k->iters * 15 + 1;
}
