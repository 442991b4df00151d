/*
 * The compute class 0x50c0 (hw/nv50/gr/compute.c) and the TPC/MP model
 * (tpc.c), driven method by method on a channel's PGRAPH context
 * (nv50-gr-rig.h): programs assembled in-tree run as grids, their
 * results read back from VRAM; traps as nvkm reads them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "nv50-gr-rig.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/gr/3d.h"
#include "target/tesla.h"

#define CP_SUBC         1
#define CP_CLASS        0x50c0

/* test memory (VAs) */
#define VA_CODE         (GR_VA_DATA + 0x00000)  /* code segment */
#define VA_CB           (GR_VA_DATA + 0x20000)  /* constant buffers */
#define VA_G0           (GR_VA_DATA + 0x40000)
#define VA_G1           (GR_VA_DATA + 0x50000)
#define VA_G2           (GR_VA_DATA + 0x60000)
#define VA_QUERY        (GR_VA_DATA + 0x70000)

/* methods (rnndb g80_compute.xml) */
#define M_DMA_GLOBAL            0x01a0
#define M_DMA_QUERY             0x01a4
#define M_DMA_CODE_CB           0x01c0
#define M_CP_ADDRESS_HIGH       0x0210
#define M_CP_ADDRESS_LOW        0x0214
#define M_TSC_ADDRESS_HIGH      0x022c
#define M_TSC_ADDRESS_LOW       0x0230
#define M_CB_ADDR               0x0238
#define M_CB_DATA               0x023c
#define M_LOCAL_SIZE_LOG        0x029c
#define M_CB_DEF_ADDRESS_HIGH   0x02a4
#define M_CB_DEF_ADDRESS_LOW    0x02a8
#define M_CB_DEF_SET            0x02ac
#define M_BLOCK_ALLOC           0x02b4
#define M_CP_REG_ALLOC_TEMP     0x02c0
#define M_BLOCKDIM_LATCH        0x02f8
#define M_QUERY_ADDRESS_HIGH    0x0310
#define M_QUERY_ADDRESS_LOW     0x0314
#define M_QUERY_SEQUENCE        0x0318
#define M_QUERY_GET             0x031c
#define M_LAUNCH                0x0368
#define M_USER_PARAM_COUNT      0x0374
#define M_GRIDID                0x0388
#define M_GRIDDIM               0x03a4
#define M_SHARED_SIZE           0x03a8
#define M_BLOCKDIM_XY           0x03ac
#define M_BLOCKDIM_Z            0x03b0
#define M_CP_START_ID           0x03b4
#define M_SET_PROGRAM_CB        0x03c8
#define M_GLOBAL(i)             (0x0400 + 0x20 * (i))
#define M_USER_PARAM(i)         (0x0600 + 4 * (i))

#define INTR_TRAP               0x00200000u
#define INTR_ILLEGAL_MTHD       0x00000010u
#define INTR_DATA_ERROR         0x00100000u
#define INTR_COMPUTE_QUERY      0x00000002u

static void cp(uint32_t mthd, uint32_t data)
{
    gr_call(CP_SUBC, mthd, data);
}

static void setup(void)
{
    gr_rig_init();
    gr_bind(CP_SUBC, gr_object(CP_CLASS, 0xbeef50c0));
}

static void teardown(void)
{
    gr_rig_teardown();
}

static uint32_t f2u(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/* Assemble @src and put it at VA_CODE + @at; returns its size. */
static uint32_t load_program(const char *src, uint32_t at)
{
    g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
    g_autofree char *err = NULL;

    ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP, src, w, &err),
                  "%s", err ? err : "");
    for (unsigned i = 0; i < w->len; i++) {
        gr_wr32(VA_CODE + at + i * 4, g_array_index(w, uint32_t, i));
    }
    return w->len * 4;
}

/* The state every launch here shares: DMA objects, code, registers. */
static void base_state(uint32_t gprs, uint32_t shared)
{
    cp(M_DMA_CODE_CB, GR_DMA_VM);
    cp(M_DMA_GLOBAL, GR_DMA_VM);
    cp(M_CP_ADDRESS_HIGH, (uint32_t)(VA_CODE >> 32));
    cp(M_CP_ADDRESS_LOW, (uint32_t)VA_CODE);
    cp(M_CP_START_ID, 0);
    cp(M_CP_REG_ALLOC_TEMP, gprs);
    cp(M_SHARED_SIZE, shared);
    cp(M_USER_PARAM_COUNT, 0);
}

static void global(unsigned i, uint64_t va, uint32_t bytes)
{
    cp(M_GLOBAL(i) + 0x0, (uint32_t)(va >> 32));
    cp(M_GLOBAL(i) + 0x4, (uint32_t)va);
    cp(M_GLOBAL(i) + 0x8, 0);
    cp(M_GLOBAL(i) + 0xc, bytes - 1);
    cp(M_GLOBAL(i) + 0x10, 1);          /* LINEAR */
}

static void dims(unsigned bx, unsigned by, unsigned bz, unsigned gx,
                 unsigned gy)
{
    cp(M_BLOCKDIM_XY, by << 16 | bx);
    cp(M_BLOCKDIM_Z, bz);
    cp(M_BLOCK_ALLOC, 1 << 16 | bx * by * bz);
    cp(M_BLOCKDIM_LATCH, 1);
    cp(M_GRIDDIM, gy << 16 | gx);
}

/* Buffer @b at @va of @size bytes, bound to c[@slot]. */
static void cbuf(unsigned b, unsigned slot, uint64_t va, uint32_t size)
{
    cp(M_CB_DEF_ADDRESS_HIGH, (uint32_t)(va >> 32));
    cp(M_CB_DEF_ADDRESS_LOW, (uint32_t)va);
    cp(M_CB_DEF_SET, b << 16 | (size & 0xffff));
    cp(M_SET_PROGRAM_CB, b << 12 | slot << 8 | 1);
}

static char *saxpy_source(void)
{
    const char *src = getenv("GEMU_SRC");
    g_autofree char *path = g_build_filename(src ? src : GEMU_SRC_PATH,
                                             "docs", "examples", "saxpy.s",
                                             NULL);
    char *text = NULL;

    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL),
                  "missing %s (set GEMU_SRC)", path);
    return text;
}

/* docs/examples/saxpy.s: y = a x + y over 2 blocks of 64, a in c0[0]. */
START_TEST(saxpy_two_blocks)
{
    g_autofree char *src = saxpy_source();

    load_program(src, 0);
    base_state(8, 0x40);
    for (unsigned i = 0; i < 128; i++) {
        gr_wr32(VA_G0 + 4 * i, f2u(i * 0.5f));
        gr_wr32(VA_G1 + 4 * i, f2u(1.0f + i));
    }
    global(0, VA_G0, 0x200);
    global(1, VA_G1, 0x200);
    /* c0[0] = a, uploaded through CB_ADDR/CB_DATA */
    cbuf(3, 0, VA_CB, 0x100);
    cp(M_CB_ADDR, 0 << 8 | 3);
    cp(M_CB_DATA, f2u(2.0f));
    dims(64, 1, 1, 2, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(gr_rd32(VA_CB), f2u(2.0f));
    for (unsigned i = 0; i < 128; i++) {
        ck_assert_msg(gr_rd32(VA_G1 + 4 * i) == f2u(2.0f * i * 0.5f + 1 + i),
                      "y[%u] = 0x%08x", i, gr_rd32(VA_G1 + 4 * i));
    }
    ck_assert_uint_eq(gr_rd32(VA_G1 + 0x200), 0);
}
END_TEST

/*
 * Every thread of a 3x2 grid of 4x2x2 blocks writes its $r0, its block
 * index and the grid size (s[] header), $physid and two USER_PARAMs.
 */
static const char cover_src[] =
    "and b32 $r1 $r0 0xffff\n"
    "shr u32 $r2 $r0 0x10\n"
    "and b32 $r2 $r2 0x3ff\n"
    "shr u32 $r3 $r0 0x1a\n"
    "shl b32 $r2 $r2 0x2\n"
    "shl b32 $r3 $r3 0x3\n"
    "add b32 $r1 $r1 $r2\n"
    "add b32 $r1 $r1 $r3\n"             /* linear tid */
    "ld $r4 u16 s[0xc]\n"               /* ctaid.x */
    "ld $r5 u16 s[0xe]\n"               /* ctaid.y */
    "ld $r6 u16 s[0x8]\n"               /* nctaid.x */
    "ld $r7 u16 s[0xa]\n"               /* nctaid.y */
    "mul $r8 u16 $r5l u16 $r6l\n"
    "add b32 $r8 $r8 $r4\n"
    "shl b32 $r8 $r8 0x4\n"
    "add b32 $r8 $r8 $r1\n"             /* global thread index */
    "shl b32 $r9 $r8 0x3\n"
    "st b32 g0[$r9] $r0\n"
    "shl b32 $r5 $r5 0x8\n"
    "shl b32 $r6 $r6 0x10\n"
    "shl b32 $r7 $r7 0x14\n"
    "ld $r10 u16 s[0x0]\n"              /* gridid */
    "shl b32 $r10 $r10 0x18\n"
    "add b32 $r4 $r4 $r5\n"
    "add b32 $r4 $r4 $r6\n"
    "add b32 $r4 $r4 $r7\n"
    "add b32 $r4 $r4 $r10\n"
    "add b32 $r9 $r9 0x4\n"
    "st b32 g0[$r9] $r4\n"
    "mov $r11 $physid\n"
    "shl b32 $r9 $r8 0x2\n"
    "st b32 g1[$r9] $r11\n"
    "ld $r12 b32 s[0x10]\n"
    "ld $r13 b32 s[0x14]\n"
    "shl b32 $r9 $r8 0x3\n"
    "st b32 g2[$r9] $r12\n"
    "add b32 $r9 $r9 0x4\n"
    "st b32 g2[$r9] $r13\n"
    "exit nop\n";

START_TEST(grid_coverage)
{
    /* the program at 0x100 of the segment: CP_START_ID */
    load_program("exit nop\n", 0);
    load_program(cover_src, 0x100);
    base_state(16, 0x40);
    cp(M_CP_START_ID, 0x100);
    global(0, VA_G0, 6 * 16 * 8);
    global(1, VA_G1, 6 * 16 * 4);
    global(2, VA_G2, 6 * 16 * 8);
    cp(M_GRIDID, 5);
    cp(M_USER_PARAM_COUNT, 2 << 8);
    cp(M_USER_PARAM(0), 0x00000001);
    cp(M_USER_PARAM(1), 0xcafe0123);
    dims(4, 2, 2, 3, 2);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100), 0);
    for (unsigned by = 0; by < 2; by++) {
        for (unsigned bx = 0; bx < 3; bx++) {
            unsigned b = by * 3 + bx, mp = b % 4;

            for (unsigned t = 0; t < 16; t++) {
                unsigned g = b * 16 + t;
                uint32_t r0 = (t & 3) | ((t >> 2) & 1) << 16 |
                              (t >> 3) << 26;
                uint32_t hdr = bx | by << 8 | 3 << 16 | 2 << 20 | 5 << 24;
                uint32_t physid = t | (mp % 2) << 16 | (mp / 2) << 20;

                ck_assert_uint_eq(gr_rd32(VA_G0 + g * 8), r0);
                ck_assert_uint_eq(gr_rd32(VA_G0 + g * 8 + 4), hdr);
                ck_assert_uint_eq(gr_rd32(VA_G1 + g * 4), physid);
                ck_assert_uint_eq(gr_rd32(VA_G2 + g * 8), 1);
                ck_assert_uint_eq(gr_rd32(VA_G2 + g * 8 + 4), 0xcafe0123);
            }
        }
    }
}
END_TEST

/*
 * A butterfly sum over s[] between barriers: every thread of each
 * 64-thread block ends with the sum of the block's 64 inputs.  Without
 * the barriers the two warps would read each other's words too early.
 */
static char *reduce_source(void)
{
    GString *s = g_string_new(
        "and b32 $r1 $r0 0xffff\n"
        "ld $r2 u16 s[0xc]\n"
        "shl b32 $r3 $r2 0x6\n"
        "add b32 $r3 $r3 $r1\n"
        "shl b32 $r3 $r3 0x2\n"
        "ld b32 $r4 g0[$r3]\n"
        "shl $a1 $r1 0x2\n"
        "st b32 s[$a1+0x20] $r4\n"
        "bar inc wait 0x0 all\n");

    for (unsigned stride = 32; stride; stride >>= 1) {
        g_string_append_printf(s,
            "xor b32 $r6 $r1 0x%x\n"
            "shl $a2 $r6 0x2\n"
            "ld $r5 b32 s[$a2+0x20]\n"
            "bar inc wait 0x0 all\n"
            "add b32 $r4 $r4 $r5\n"
            "st b32 s[$a1+0x20] $r4\n"
            "bar inc wait 0x0 all\n", stride);
    }
    g_string_append(s,
        "shl b32 $r7 $r2 0x8\n"
        "shl b32 $r8 $r1 0x2\n"
        "add b32 $r7 $r7 $r8\n"
        "st b32 g1[$r7] $r4\n"
        "exit nop\n");
    return g_string_free(s, false);
}

START_TEST(barrier_shared_reduction)
{
    g_autofree char *src = reduce_source();

    load_program(src, 0);
    base_state(16, 0x140);
    for (unsigned i = 0; i < 3 * 64; i++) {
        gr_wr32(VA_G0 + 4 * i, i * 3 + 1);
    }
    global(0, VA_G0, 3 * 64 * 4);
    global(1, VA_G1, 3 * 64 * 4);
    dims(64, 1, 1, 3, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100), 0);
    for (unsigned b = 0; b < 3; b++) {
        uint32_t sum = 0;

        for (unsigned i = 0; i < 64; i++) {
            sum += (b * 64 + i) * 3 + 1;
        }
        for (unsigned t = 0; t < 64; t++) {
            ck_assert_uint_eq(gr_rd32(VA_G1 + b * 0x100 + t * 4), sum);
        }
    }
}
END_TEST

/* c0 uploaded at a word offset, c1 written straight to memory. */
START_TEST(const_buffers)
{
    load_program("ld $r1 b32 c0[0x8]\n"
                 "ld $r2 b32 c1[0x4]\n"
                 "ld $r3 b32 c1[0x100]\n"       /* past c1's end: 0 */
                 "add b32 $r1 $r1 $r2\n"
                 "add b32 $r1 $r1 $r3\n"
                 "and b32 $r4 $r0 0xffff\n"
                 "shl b32 $r4 $r4 0x2\n"
                 "st b32 g0[$r4] $r1\n"
                 "exit nop\n", 0);
    base_state(8, 0x40);
    global(0, VA_G0, 0x100);
    gr_wr32(VA_CB + 0x1004, 0x1000);
    gr_wr32(VA_CB + 0x1100, 0x5555);
    cbuf(7, 0, VA_CB, 0x40);
    cbuf(9, 1, VA_CB + 0x1000, 0x100);
    cp(M_CB_ADDR, 2 << 8 | 7);
    cp(M_CB_DATA + 4, 0x20);            /* any CB_DATA: word 2 */
    cp(M_CB_DATA, 0x300);               /* word 3 */
    dims(32, 1, 1, 1, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(gr_rd32(VA_CB + 8), 0x20);
    ck_assert_uint_eq(gr_rd32(VA_CB + 12), 0x300);
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_uint_eq(gr_rd32(VA_G0 + 4 * t), 0x1020);
    }
    /* a buffer unbound from its slot reads 0 */
    cp(M_SET_PROGRAM_CB, 1 << 8 | 0);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(gr_rd32(VA_G0), 0x20);
}
END_TEST

/* "trap" in every block: the first, on TPC 0 MP 0, stops the launch. */
START_TEST(trap_instruction_is_trap_mp)
{
    load_program("and b32 $r4 $r0 0xffff\n"
                 "shl b32 $r4 $r4 0x2\n"
                 "mov b32 $r1 0x7\n"
                 "st b32 g0[$r4] $r1\n"
                 "trap\n"
                 "exit nop\n", 0);
    base_state(8, 0x40);
    global(0, VA_G0, 0x100);
    dims(32, 1, 1, 4, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400108) & 0x80, 0x80);
    ck_assert_uint_eq(rd32(0x408314), 0x80010000);      /* MP0 */
    ck_assert_uint_eq(rd32(0x408214), 0x10);            /* DECODE_ERROR */
    ck_assert_uint_eq(rd32(0x408220), 0x1);             /* TRAP_INSN */
    ck_assert_uint_eq(rd32(0x408224), 0x20);        /* pc, warp 0 */
    ck_assert_uint_eq(rd32(0x408270) >> 28, 0x9);       /* the opcode */
    ck_assert_uint_eq(rd32(0x409314) & 0x7fffffff, 0);
    ck_assert_uint_eq(gr_rd32(VA_G0), 7);
}
END_TEST

/*
 * nvkm's trap handler (nv50_gr_tp_trap, nv50_gr_mp_trap, prop_trap)
 * reads and acknowledges the TP and MP words: known registers, nothing
 * logged as unimplemented.
 */
START_TEST(trap_registers_known)
{
    g_autofree char *log = NULL;

    gemu_loglevel |= LOG_UNIMP;
    for (unsigned tp = 0; tp < 2; tp++) {
        uint32_t base = 0x408000 + (tp << 12);

        for (uint32_t r = 0x900; r <= 0x910; r += 4) {
            rd32(base + r);
        }
        for (uint32_t r = 0xe08; r <= 0xe24; r += 4) {
            rd32(base + r);
        }
        rd32(base + 0x314);
        wr32(base + 0x314, 0xc0000000);
        wr32(base + 0x900, 0xc0000000);
        wr32(base + 0xe08, 0xc0000000);
        for (unsigned mp = 0; mp < 4; mp++) {
            static const uint32_t words[] = {
                0x10, 0x14, 0x20, 0x24, 0x70, 0x74,
            };
            uint32_t a = base + 0x200 + (mp << 7);

            for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
                rd32(a + words[i]);
            }
            wr32(a + 0x10, 0);
            wr32(a + 0x14, 0);
        }
    }
    log = rig_log();
    ck_assert_msg(!strstr(log, "unimplemented"), "%s", log);
}
END_TEST

/* Block 2 (TPC 1 MP 0) writes past GLOBAL_LIMIT: GLOBAL_LIMIT_WRITE. */
START_TEST(global_limit_is_trap_mp)
{
    load_program("and b32 $r4 $r0 0xffff\n"
                 "ld $r2 u16 s[0xc]\n"
                 "shl b32 $r3 $r2 0x5\n"
                 "add b32 $r4 $r4 $r3\n"
                 "shl b32 $r4 $r4 0x2\n"
                 "mov b32 $r1 0x9\n"
                 "st b32 g0[$r4] $r1\n"
                 "exit nop\n", 0);
    base_state(8, 0x40);
    global(0, VA_G0, 2 * 32 * 4);
    dims(32, 1, 1, 4, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x400108) & 0x80, 0x80);
    ck_assert_uint_eq(rd32(0x409314), 0x80001000);
    ck_assert_uint_eq(rd32(0x408314) & 0x7fffffff, 0);
    ck_assert_uint_eq(gr_rd32(VA_G0 + 63 * 4), 9);      /* blocks 0, 1 */
    ck_assert_uint_eq(gr_rd32(VA_G0 + 64 * 4), 0);      /* not past it */
}
END_TEST

/* An unknown opcode traps too (ILLEGAL_OPCODE); gemu goes on. */
START_TEST(illegal_opcode_is_trap_mp)
{
    gr_wr32(VA_CODE, 0xffffffff);
    gr_wr32(VA_CODE + 4, 0xffffffff);
    base_state(8, 0x40);
    dims(1, 1, 1, 1, 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x408314), 0x80010000);
    ck_assert_uint_eq(rd32(0x408214), 0x10);
    ck_assert_uint_eq(rd32(0x408220), 0x2);             /* ILLEGAL_OPCODE */
}
END_TEST

/*
 * nv50_engine_set_insn_budget (gemu-shader --device, the fuzz
 * harnesses): a launch that never ends traps with the MP's TIMEOUT
 * (ERROR_CODE 0x08) once the launches have run the budget; a launch
 * after that traps at its entry; budget 0 lifts the bound.
 */
START_TEST(insn_budget_is_timeout)
{
    load_program("forever: bra forever\n", 0);
    load_program("exit nop\n", 0x100);
    base_state(8, 0x40);
    dims(64, 1, 1, 4, 1);
    nv50_engine_set_insn_budget(rig.s, 1000);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x408314), 0x80010000);      /* MP0 */
    ck_assert_uint_eq(rd32(0x408214), 0x08);            /* TIMEOUT */
    ck_assert_uint_eq(rd32(0x408224) & 0xffffff, 0);    /* at the bra */
    wr32(0x408214, 0);
    wr32(0x408314, 0xc0000000);
    wr32(0x400108, 0x80);
    wr32(0x400100, INTR_TRAP);

    /* used up: the next launch traps before it runs */
    cp(M_CP_START_ID, 0x100);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x408214), 0x08);
    ck_assert_uint_eq(rd32(0x408224) & 0xffffff, 0x100);
    wr32(0x408214, 0);
    wr32(0x408314, 0xc0000000);
    wr32(0x400108, 0x80);
    wr32(0x400100, INTR_TRAP);

    nv50_engine_set_insn_budget(rig.s, 0);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, 0);
}
END_TEST

/* QUERY_GET: the sequence alone (SHORT), or sequence, 0, timestamp. */
START_TEST(query_get)
{
    cp(M_DMA_QUERY, GR_DMA_VM);
    cp(M_QUERY_ADDRESS_HIGH, (uint32_t)(VA_QUERY >> 32));
    cp(M_QUERY_ADDRESS_LOW, (uint32_t)VA_QUERY);
    cp(M_QUERY_SEQUENCE, 0x1234);
    cp(M_QUERY_GET, 1u << 15);
    ck_assert_uint_eq(gr_rd32(VA_QUERY), 0x1234);
    ck_assert_uint_eq(gr_rd32(VA_QUERY + 8), 0);

    cp(M_QUERY_ADDRESS_LOW, (uint32_t)VA_QUERY + 0x10);
    cp(M_QUERY_SEQUENCE, 0x5678);
    cp(M_QUERY_GET, 0);
    ck_assert_uint_eq(gr_rd32(VA_QUERY + 0x10), 0x5678);
    ck_assert_uint_eq(gr_rd32(VA_QUERY + 0x14), 0);
    ck_assert_uint_eq(rd32(0x400100), 0);

    cp(M_QUERY_GET, 1u << 15 | 1u << 9);
    ck_assert_uint_eq(rd32(0x400100) & INTR_COMPUTE_QUERY,
                      INTR_COMPUTE_QUERY);
}
END_TEST

/* Mesa's nv50_screen_compute_setup: accepted, no error. */
START_TEST(mesa_setup_accepted)
{
    static const uint32_t seq[][2] = {
        { 0x02a0, 1 }, { 0x01bc, GR_DMA_VM }, { 0x0218, 0 },
        { 0x021c, 0x100000 }, { 0x0220, 4 }, { 0x0290, 1 },
        { 0x02b8, 1 }, { 0x03b8, 0 }, { 0x0384, 0x100 },
        { 0x01a0, GR_DMA_VM }, { 0x040c, 0 }, { 0x0410, 1 },
        { 0x05ec, ~0u }, { 0x05f0, 1 }, { 0x02fc, 7 }, { 0x0300, 1 },
        { 0x0304, 7 }, { 0x0308, 1 }, { 0x0374, 0 },
        { 0x01cc, GR_DMA_VM }, { 0x03bc, 0x54 }, { 0x0378, 0 },
        { 0x01c8, GR_DMA_VM }, { 0x02c4, 0 }, { 0x02c8, 0x200000 },
        { 0x02cc, 0x7ff }, { 0x01c4, GR_DMA_VM }, { 0x022c, 0 },
        { 0x0230, 0x210000 }, { 0x0234, 0x7ff }, { 0x01c0, GR_DMA_VM },
        { 0x01b8, GR_DMA_VM }, { 0x0294, 0 }, { 0x0298, 0x400000 },
        { 0x029c, 0xd }, { 0x02a4, 0 }, { 0x02a8, 0x30000 },
        { 0x02ac, 0x7f << 16 }, { 0x0310, 0 }, { 0x0314, 0x10 },
        { 0x0380, 0 }, { 0x0398, 0 },
    };
    g_autofree char *log = NULL;

    gemu_loglevel |= LOG_UNIMP;
    for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
        cp(seq[i][0], seq[i][1]);
        ck_assert_msg(rd32(0x400100) == 0, "method 0x%04x: intr 0x%x",
                      seq[i][0], rd32(0x400100));
    }
    /* methods gemu does not model are named, once (UNK030C twice) */
    cp(0x030c, 0);
    cp(0x030c, 1);
    log = rig_log();
    ck_assert_ptr_nonnull(strstr(log, "UNK030C"));
    ck_assert_ptr_null(strstr(strstr(log, "UNK030C") + 1, "UNK030C"));
    /* the texture state Mesa sets is stored, not logged */
    ck_assert_ptr_null(strstr(log, "TSC_ADDRESS"));
    ck_assert_ptr_null(strstr(log, "TIC_LIMIT"));
    ck_assert_uint_eq(gr.ctx->shared.tsc_addr, 0x210000);
    ck_assert_uint_eq(gr.ctx->shared.tic_limit, 0x7ff);
}
END_TEST

/* Methods G84's compute class lacks; bad data. */
START_TEST(bad_methods)
{
    cp(0x03e8, 0);                      /* GT215's TEX_MISC */
    ck_assert_uint_eq(rd32(0x400100) & INTR_ILLEGAL_MTHD, INTR_ILLEGAL_MTHD);
    wr32(0x400100, 0xffffffff);
    cp(M_SHARED_SIZE, 0x8000);
    ck_assert_uint_eq(rd32(0x400100) & INTR_DATA_ERROR, INTR_DATA_ERROR);
    wr32(0x400100, 0xffffffff);
    /* a block of 1024 threads is too big */
    base_state(8, 0x40);
    dims(32, 32, 1, 1, 1);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100) & INTR_DATA_ERROR, INTR_DATA_ERROR);
}
END_TEST

/* l[] per thread (LOCAL_SIZE_LOG) is private to the thread. */
START_TEST(local_memory)
{
    load_program("and b32 $r1 $r0 0xffff\n"
                 "mov b32 $r2 0x10\n"
                 "shl $a1 $r2 0x2\n"
                 "st b32 l[$a1+0x0] $r1\n"
                 "ld b32 $r3 l[$a1+0x0]\n"
                 "shl b32 $r4 $r1 0x2\n"
                 "st b32 g0[$r4] $r3\n"
                 "exit nop\n", 0);
    base_state(8, 0x40);
    cp(M_LOCAL_SIZE_LOG, 4);            /* 0x80 bytes a thread */
    global(0, VA_G0, 0x100);
    dims(64, 1, 1, 1, 1);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100), 0);
    for (unsigned t = 0; t < 64; t++) {
        ck_assert_uint_eq(gr_rd32(VA_G0 + 4 * t), t);
    }
}
END_TEST

/* l[] past 8 << LOCAL_SIZE_LOG bytes: LOCAL_LIMIT_WRITE on TPC 0. */
START_TEST(local_limit_is_trap_mp)
{
    load_program("mov b32 $r2 0x10\n"
                 "shl $a1 $r2 0x2\n"
                 "st b32 l[$a1+0x0] $r2\n"
                 "exit nop\n", 0);
    base_state(8, 0x40);
    cp(M_LOCAL_SIZE_LOG, 1);            /* 16 bytes a thread */
    dims(32, 1, 1, 1, 1);
    cp(M_LAUNCH, 0);
    ck_assert_uint_eq(rd32(0x400100) & INTR_TRAP, INTR_TRAP);
    ck_assert_uint_eq(rd32(0x408314), 0x80000010);
}
END_TEST

/* The same saxpy, its methods through the channel's pushbuffer. */
START_TEST(through_the_channel)
{
    g_autofree char *src = saxpy_source();
    static const uint32_t g[2][5] = {
        { 0, (uint32_t)VA_G0, 0, 0x1ff, 1 },
        { 0, (uint32_t)VA_G1, 0, 0x1ff, 1 },
    };
    uint32_t v;

    load_program(src, 0);
    for (unsigned i = 0; i < 128; i++) {
        gr_wr32(VA_G0 + 4 * i, f2u(i));
        gr_wr32(VA_G1 + 4 * i, f2u(1.0f));
    }
    push_1(2, 0x0000, 0xbeef50c0);      /* OBJECT: the class */
    /* PFIFO turns the handles into the objects' offsets */
    push_1(2, M_DMA_CODE_CB, GR_H_VM);
    push_1(2, M_DMA_GLOBAL, GR_H_VM);
    push_1(2, M_CP_ADDRESS_HIGH, 0);
    push_1(2, M_CP_ADDRESS_LOW, (uint32_t)VA_CODE);
    push_1(2, M_CP_REG_ALLOC_TEMP, 8);
    push_1(2, M_SHARED_SIZE, 0x40);
    push_mthd(2, M_GLOBAL(0), g[0], 5);
    push_mthd(2, M_GLOBAL(1), g[1], 5);
    push_1(2, M_CB_DEF_ADDRESS_HIGH, 0);
    push_1(2, M_CB_DEF_ADDRESS_LOW, (uint32_t)VA_CB);
    push_1(2, M_CB_DEF_SET, 0x100);
    push_1(2, M_SET_PROGRAM_CB, 1);
    push_1(2, M_CB_ADDR, 0);
    push_1(2, M_CB_DATA, f2u(-1.0f));
    v = 1 << 16 | 64;
    push_mthd(2, M_BLOCKDIM_XY, &v, 1);
    push_1(2, M_BLOCKDIM_Z, 1);
    push_1(2, M_GRIDDIM, 1 << 16 | 2);
    push_1(2, M_LAUNCH, 0);
    push_submit();

    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(rd32(0x002100), 0);
    for (unsigned i = 0; i < 128; i++) {
        ck_assert_uint_eq(gr_rd32(VA_G1 + 4 * i), f2u(1.0f - i));
    }
}
END_TEST

/*
 * State shared with the 3D object, set up the way Mesa's nv50 driver
 * does it (nv50_screen_init_hwctx, nv50_screen_compute_setup,
 * nv50_program_upload_code, nv50_compute_validate_*): the 3D object
 * sets the code segments and defines and binds the aux buffer (c15) for
 * all three program types; compute code goes into the FP segment and
 * CP_ADDRESS is never written; compute writes buffer info into the aux
 * buffer it never defined, and its user buffer (PCP) to c0.
 */
#define SUBC_3D         7
#define H_3D            0xbeef8297u
#define VA_CODE_BO      (GR_VA_DATA + 0x100000)     /* Mesa screen->code */
#define VA_FP_SEG       (VA_CODE_BO + (2 << 19))    /* FP << CODE_BO_LOG2 */
#define VA_UNIFORMS     (GR_VA_DATA + 0x400000)     /* screen->uniforms */
#define VA_AUX          (VA_UNIFORMS + (4 << 16))
#define VA_PCP          (VA_UNIFORMS + (3 << 16))
#define CB_AUX          127
#define CB_PCP          126

static void d3(uint32_t mthd, uint32_t data)
{
    gr_call(SUBC_3D, mthd, data);
}

static void mesa_3d_hwctx(void)
{
    gr_bind(SUBC_3D, gr_object(0x8297, H_3D));
    d3(NV50_3D_DMA_CODE_CB, GR_DMA_VM);
    d3(NV50_3D_VP_ADDRESS_HIGH, (uint32_t)(VA_CODE_BO >> 32));
    d3(NV50_3D_VP_ADDRESS_LOW, (uint32_t)VA_CODE_BO);
    d3(NV50_3D_FP_ADDRESS_HIGH, (uint32_t)(VA_FP_SEG >> 32));
    d3(NV50_3D_FP_ADDRESS_LOW, (uint32_t)VA_FP_SEG);
    d3(NV50_3D_GP_ADDRESS_HIGH, (uint32_t)((VA_CODE_BO + (1 << 19)) >> 32));
    d3(NV50_3D_GP_ADDRESS_LOW, (uint32_t)(VA_CODE_BO + (1 << 19)));
    d3(NV50_3D_CB_DEF_ADDRESS_HIGH, (uint32_t)(VA_AUX >> 32));
    d3(NV50_3D_CB_DEF_ADDRESS_LOW, (uint32_t)VA_AUX);
    d3(NV50_3D_CB_DEF_SET, CB_AUX << 16 | 0);          /* 64 KiB */
    d3(NV50_3D_SET_PROGRAM_CB, CB_AUX << 12 | 0xf01);  /* VP c15 */
    d3(NV50_3D_SET_PROGRAM_CB, CB_AUX << 12 | 0xf21);  /* GP c15 */
    d3(NV50_3D_SET_PROGRAM_CB, CB_AUX << 12 | 0xf31);  /* FP c15 */
    /* the membar word, uploaded through 3D (NV50_CB_AUX_MEMBAR_OFFSET) */
    d3(NV50_3D_CB_ADDR, (0x6c4 >> 2) << 8 | CB_AUX);
    d3(NV50_3D_CB_DATA(0), 0x600dcafe);
    /* a c1 bound for vertex programs only */
    d3(NV50_3D_SET_PROGRAM_CB, CB_AUX << 12 | 0x101);
    d3(NV50_3D_TIC_ADDRESS_HIGH, 0);
    d3(NV50_3D_TIC_ADDRESS_LOW, 0x200000);
    ck_assert_uint_eq(rd32(0x400100), 0);
}

START_TEST(mesa_3d_state_seen_by_compute)
{
    NV50GrShared *sh = &gr.ctx->shared;
    uint32_t at;

    mesa_3d_hwctx();
    /* nv50_screen_compute_setup: its DMAs, the PCP buffer; no CP_ADDRESS */
    cp(M_DMA_CODE_CB, GR_DMA_VM);
    cp(M_DMA_GLOBAL, GR_DMA_VM);
    cp(M_CB_DEF_ADDRESS_HIGH, (uint32_t)(VA_PCP >> 32));
    cp(M_CB_DEF_ADDRESS_LOW, (uint32_t)VA_PCP);
    cp(M_CB_DEF_SET, CB_PCP << 16 | 0);
    /* the compute program: uploaded at FP segment offset 0 */
    for (at = 0; at < 0x100; at += 4) {
        gr_wr32(VA_CODE_BO + at, 0xffffffff);   /* VP/CP_ADDRESS 0: decoys */
    }
    at = 0;
    {
        g_autoptr(GArray) w = g_array_new(false, false, sizeof(uint32_t));
        g_autofree char *err = NULL;

        ck_assert_msg(tesla_assemble(TESLA_G84, TESLA_PROG_CP,
                                     "ld $r1 b32 c15[0x6c4]\n"
                                     "ld $r2 b32 c15[0x3c4]\n"
                                     "ld $r3 b32 c0[0x4]\n"
                                     "ld $r5 b32 c1[0x6c4]\n"
                                     "and b32 $r4 $r0 0xffff\n"
                                     "shl b32 $r4 $r4 0x4\n"
                                     "st b32 g0[$r4] $r1\n"
                                     "add b32 $r4 $r4 0x4\n"
                                     "st b32 g0[$r4] $r2\n"
                                     "add b32 $r4 $r4 0x4\n"
                                     "st b32 g0[$r4] $r3\n"
                                     "add b32 $r4 $r4 0x4\n"
                                     "st b32 g0[$r4] $r5\n"
                                     "exit nop\n", w, &err),
                      "%s", err ? err : "");
        for (unsigned i = 0; i < w->len; i++) {
            gr_wr32(VA_FP_SEG + i * 4, g_array_index(w, uint32_t, i));
        }
    }
    /* nv50_compute_validate_constbufs: the user buffer to c0 */
    cp(M_SET_PROGRAM_CB, CB_PCP << 12 | 0 << 8 | 1);
    cp(M_CB_ADDR, 0 << 8 | CB_PCP);
    cp(M_CB_DATA, 0x11111111);
    cp(M_CB_DATA, 0x22222222);
    /* nv50_compute_validate_surfaces: g0 and its size in the aux buffer */
    global(0, VA_G0, 0x100);
    cp(M_CB_ADDR, (0x3c4 >> 2) << 8 | CB_AUX);
    cp(M_CB_DATA, 0x100);
    /* nv50_launch_grid */
    cp(M_CP_START_ID, 0);
    cp(M_SHARED_SIZE, 0x40);
    cp(M_CP_REG_ALLOC_TEMP, 8);
    dims(4, 1, 1, 1, 1);
    cp(M_GRIDID, 1);
    cp(M_USER_PARAM(0), 1);
    cp(M_LAUNCH, 0);

    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(gr_rd32(VA_AUX + 0x3c4), 0x100);
    ck_assert_uint_eq(gr_rd32(VA_PCP + 4), 0x22222222);
    for (unsigned t = 0; t < 4; t++) {
        ck_assert_uint_eq(gr_rd32(VA_G0 + t * 16), 0x600dcafe);
        ck_assert_uint_eq(gr_rd32(VA_G0 + t * 16 + 4), 0x100);
        ck_assert_uint_eq(gr_rd32(VA_G0 + t * 16 + 8), 0x22222222);
        /* c1 is bound for VP only: compute (FP type) reads 0 */
        ck_assert_uint_eq(gr_rd32(VA_G0 + t * 16 + 12), 0);
    }
    /* one copy of each fact, whichever class set it */
    ck_assert_uint_eq(sh->code[NV50_GR_PROG_FP], VA_FP_SEG);
    ck_assert_uint_eq(sh->prog_cb[NV50_GR_PROG_FP][0],
                      NV50_GR_BIND_VALID | CB_PCP);
    ck_assert_uint_eq(sh->prog_cb[NV50_GR_PROG_FP][15],
                      NV50_GR_BIND_VALID | CB_AUX);
    ck_assert_uint_eq(sh->prog_cb[NV50_GR_PROG_VP][1],
                      NV50_GR_BIND_VALID | CB_AUX);
    ck_assert_uint_eq(sh->tic_addr, 0x200000);
}
END_TEST

/* And back: what compute sets, 3D uploads through and sees. */
START_TEST(compute_state_seen_by_3d)
{
    NV50GrShared *sh = &gr.ctx->shared;

    gr_bind(SUBC_3D, gr_object(0x8297, H_3D));
    cp(M_DMA_CODE_CB, GR_DMA_VM);
    cp(M_CP_ADDRESS_HIGH, 0);
    cp(M_CP_ADDRESS_LOW, (uint32_t)VA_FP_SEG);
    cbuf(5, 3, VA_CB, 0x100);
    cp(M_TSC_ADDRESS_HIGH, 0);
    cp(M_TSC_ADDRESS_LOW, 0x210000);
    cp(0x03c4, 7 << 9 | 2 << 1 | 1);    /* BIND_TIC: texture 2 -> TIC 7 */
    /* 3D uploads into buffer 5 with the DMA_CODE_CB compute bound */
    d3(NV50_3D_CB_ADDR, 1 << 8 | 5);
    d3(NV50_3D_CB_DATA(0), 0xabcd0123);
    ck_assert_uint_eq(rd32(0x400100), 0);
    ck_assert_uint_eq(gr_rd32(VA_CB + 4), 0xabcd0123);
    ck_assert_uint_eq(sh->dma_code_cb, GR_DMA_VM);
    ck_assert_uint_eq(sh->code[NV50_GR_PROG_FP], VA_FP_SEG);
    ck_assert_uint_eq(sh->prog_cb[NV50_GR_PROG_FP][3],
                      NV50_GR_BIND_VALID | 5);
    ck_assert_uint_eq(sh->tsc_addr, 0x210000);
    ck_assert_uint_eq(sh->bind_tic[NV50_GR_PROG_FP][2],
                      NV50_GR_BIND_VALID | 7);
    /* 3D unbinding FP's c3 unbinds compute's */
    d3(NV50_3D_SET_PROGRAM_CB, 3 << 8 | 0x30);
    ck_assert_ptr_null(nv50_gr_prog_cb(sh, NV50_GR_PROG_CP, 3));
    /* the shared methods are not kept per class as well */
    ck_assert_uint_eq(((NV50Gr3dState *)gr.ctx->state[NV50_GR_3D])
                      ->mthd[NV50_3D_CB_ADDR >> 2], 0);
}
END_TEST

Suite *nv50_compute_suite(void)
{
    Suite *s = suite_create("nv50_compute");
    TCase *tc = tcase_create("class");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, saxpy_two_blocks);
    tcase_add_test(tc, grid_coverage);
    tcase_add_test(tc, barrier_shared_reduction);
    tcase_add_test(tc, const_buffers);
    tcase_add_test(tc, trap_instruction_is_trap_mp);
    tcase_add_test(tc, trap_registers_known);
    tcase_add_test(tc, global_limit_is_trap_mp);
    tcase_add_test(tc, illegal_opcode_is_trap_mp);
    tcase_add_test(tc, insn_budget_is_timeout);
    tcase_add_test(tc, query_get);
    tcase_add_test(tc, mesa_setup_accepted);
    tcase_add_test(tc, bad_methods);
    tcase_add_test(tc, local_memory);
    tcase_add_test(tc, local_limit_is_trap_mp);
    tcase_add_test(tc, through_the_channel);
    suite_add_tcase(s, tc);

    tc = tcase_create("shared_with_3d");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, mesa_3d_state_seen_by_compute);
    tcase_add_test(tc, compute_state_seen_by_3d);
    suite_add_tcase(s, tc);
    return s;
}
