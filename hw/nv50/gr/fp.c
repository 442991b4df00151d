/*
 * The 3D back end (pipe.h nv50_fp_begin/prim/end): one primitive after
 * clipping and the viewport -> coverage (hw/core/raster.h) -> early Z ->
 * FP quads on the TPC/MP model -> late Z -> ROP.
 *
 * - Per draw: the FP's code (copied and scanned at the draw's first
 *   primitive), its launch state and the c[] lines it has read are kept
 *   for every primitive of the draw, so the FP sees code and c[] as of
 *   their first read in the draw (UNVERIFIED: the hardware's code and
 *   constant caches may refetch within a draw, e.g. after a ROP write
 *   that aliases them).  Code that cannot be read traps at every
 *   primitive, as before.
 * - Coverage: raster_triangle/line/point inside nv50_rop_bounds()'s
 *   rectangle and sample pattern, positions snapped to 1/256 pixel
 *   (UNVERIFIED: the G84's sub-pixel precision).  POLYGON_MODE LINE and
 *   POINT arrive as lines and points (clip.c makes them).
 * - Early Z: every covered sample goes through nv50_rop_zs_test()
 *   before the FP unless FP_CONTROL says the FP exports Z or uses KIL,
 *   or ALPHA_TEST_ENABLE is set (UNVERIFIED: the hardware's own choice
 *   also looks at the early-Z state of ZCULL).  A pixel none of whose
 *   samples survives becomes a helper; a quad with none left is not
 *   shaded.  Otherwise the test is late, after the FP, with the FP's Z
 *   ($r[FP_RESULT_COUNT - 1]) for every sample when it exports one; the
 *   alpha test (nv50_rop_alpha_test, colour output 0's alpha) comes
 *   first and drops the fragment before it touches zeta.
 * - FP launches: quads are batched, up to FP_BATCH_QUADS a launch
 *   (warps of 8 quads, threads UL UR LL LR), each batch on the next of
 *   the 4 MPs (UNVERIFIED: the hardware's distribution); code from
 *   FP_ADDRESS + FP_START_ID in DMA_CODE_CB, FP_REG_ALLOC_TEMP
 *   registers, c[] through the FP's SET_PROGRAM_CB slots, textures
 *   through nv50_tex_sample (TeslaEnv.opaque starts with the
 *   NV50TexUnit).  Uncovered pixels of a quad run as helpers
 *   (TeslaLaunch.invisible).  A trap is reported as PGRAPH TRAP_MP
 *   (MPC TRAP bit of the MP, UNVERIFIED: without the ERROR_CODE words
 *   tpc.c writes for compute) and drops the rest of the primitive.
 * - v[] (what `interp` returns), per FP_INTERPOLANT_CTRL as Mesa's nv50
 *   driver lays it out (nv50_fragprog_assign_slots): first the position
 *   components UMASK selects (x, y: the pixel centre; z: the depth
 *   after the viewport, screen-linear; w: 1/w, screen-linear: the FP
 *   takes its rcp), then COUNT interpolants, interpolant k from result
 *   map slot OFFSET + k of the vertices (NV50PipeVertex.out[]): those
 *   below COUNT_NONFLAT interpolated, perspective ones as attr * 1/w
 *   (the FP multiplies by w), NOPERSPECTIVE_BITMAP ones as attr, the
 *   rest the provoking vertex's.  v[0x3fc] is the face (~0 front, 0
 *   back: what Mesa's FP turns into +-1).  SEMANTIC_COLOR: a back
 *   face reads its COLR_NR colour words from BFC0_ID instead of FFC0_ID
 *   (two-sided lighting), CLMP_EN clamps them to [0, 1] and SHADE_MODEL
 *   FLAT makes them flat (UNVERIFIED, the three).  Points with
 *   POINT_SPRITE_ENABLE replace the map slots POINT_COORD_REPLACE_MAP
 *   names (4 bits a slot: 1 s, 2 t, 3 0, 4 1) by the sprite coordinate
 *   (POINT_SPRITE_CTRL: origin upper or lower left).
 * - Results: colour of RT i in $r(4i)..$r(4i + 3) with MULTIPLE_RESULTS,
 *   else $r0..$r3 for every RT (UNVERIFIED); written to each surviving
 *   sample with nv50_rop_write().
 * - Counters: FP_PIXELS counts the visible pixels shaded, samplecnt the
 *   samples written while SAMPLECNT_ENABLE is set (the occlusion
 *   query's SAMPLECNT: Mesa sets it only while a query is active).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/engine.h"
#include "pipe.h"
#include "tpc.h"

/* 3D methods the back end reads (rnndb g80_3d.xml) */
#define M_FP_RESULT_COUNT           0x1298
#define M_SHADE_MODEL               0x12d4
#define M_LOCAL_SIZE_LOG            0x12e0
#define M_ALPHA_TEST_ENABLE         0x12ec
#define M_POINT_COORD_REPLACE_MAP   0x13c0      /* 16 words */
#define M_FP_START_ID               0x1414
#define M_SAMPLECNT_ENABLE          0x1514
#define M_POINT_SPRITE_ENABLE       0x1520
#define M_NOPERSPECTIVE_BITMAP      0x1540      /* 4 words */
#define M_POINT_SPRITE_CTRL         0x1660
#define M_SEMANTIC_COLOR            0x1904
#define M_FP_INTERPOLANT_CTRL       0x1988
#define M_FP_REG_ALLOC_TEMP         0x198c
#define M_FP_CONTROL                0x19a8

#define SHADE_MODEL_FLAT            0x1d00
#define FP_CONTROL_MULTIPLE_RESULTS 0x00000001u
#define FP_CONTROL_EXPORTS_Z        0x00000100u
#define FP_CONTROL_USES_KIL         0x00100000u
#define POINT_SPRITE_UPPER_LEFT     0x00000010u
#define SEMANTIC_COLOR_CLMP_EN      0x01000000u

#define FP_CODE_SEGMENT     0x1000000u  /* 24-bit code addresses */
#define FP_CODE_MAX         0x10000u    /* code read past the entry */
#define FP_PAGE             0x1000u
#define FP_BATCH_QUADS      256         /* 1024 threads, 32 warps */
#define FP_MAP_SLOTS        64          /* VP_RESULT_MAP entries */
#define FP_POS_SLOTS        4
#define FP_FACE_WORD        (0x3fc / 4)
#define FP_CB_LINE          256
#define FP_CB_LINES(size)   (((size) + FP_CB_LINE - 1) / FP_CB_LINE)

/* Where a v[] word comes from. */
typedef enum FpSrc {
    SRC_POS_X,
    SRC_POS_Y,
    SRC_POS_Z,
    SRC_POS_W,
    SRC_INTERP,                 /* sum of bary * val[] */
    SRC_CONST,                  /* bits */
    SRC_SPRITE_S,
    SRC_SPRITE_T,
} FpSrc;

typedef struct FpSlot {
    FpSrc src;
    uint32_t bits;              /* SRC_CONST */
    float val[3];               /* SRC_INTERP: per vertex */
} FpSlot;

/* A c[] slot: its window and the lines of it read so far. */
typedef struct FpCb {
    NV50CpSpace sp;
    uint8_t **line;             /* sp.size / FP_CB_LINE entries, lazily */
} FpCb;

typedef struct FpQuad {
    int x, y;
    unsigned mask;              /* pixels with a surviving sample */
    uint8_t samples[4];         /* surviving samples of each pixel */
    float bary[4][3];           /* of the primitive's vertices */
    float z[4];                 /* at the pixel centres */
} FpQuad;

typedef struct NV50FpDraw {
    NV50TexUnit tex;            /* first: TeslaEnv.opaque for tex too */
    NV50GrCall *c;
    NV50Gr3dState *st;
    NV50Rop *rop;
    const NV50PipePrim *prim;
    RasterParams rp;
    /* the program */
    uint32_t *code;
    TeslaEnv env;
    uint32_t entry;
    unsigned results;
    bool multiple, exports_z, late_z, alpha_test;
    bool samplecnt;             /* SAMPLECNT_ENABLE */
    /* interpolants */
    FpSlot slot[FP_POS_SLOTS + FP_MAP_SLOTS];
    unsigned nslots;
    unsigned in_words;          /* nslots, or up to the face word */
    bool face;
    FpCb cb[TESLA_NUM_CSPACES];
    /* the sub-primitive being rasterised: its vertices in prim's */
    unsigned vidx[3], nsub;
    float point_size;
    /* the batch */
    FpQuad quad[FP_BATCH_QUADS];
    unsigned nquads;
    uint32_t *in;
    bool *invisible;
    unsigned mp_next;
    bool stopped;               /* a trap or an abort: drop the rest */
    /* per draw */
    bool loaded;                /* code, env and cb[] set up */
    size_t in_cap;              /* words of in[] */
} FpDraw;

static inline uint32_t st_get(const NV50Gr3dState *st, uint32_t mthd)
{
    return st->mthd[mthd >> 2];
}

/* --- code and c[] -------------------------------------------------------- */

static bool insn_is_end(const TeslaInsn *insn, uint32_t max_target)
{
    if (insn->pred != TPRED_ALWAYS || insn->addr < max_target) {
        return false;
    }
    return insn->post == TPOST_EXIT || insn->op == TOP_RET;
}

/*
 * Copy the FP's code: the pages from the entry's on, as far as the
 * program goes (decoded up to an unconditional exit that no branch
 * jumps past), FP_CODE_MAX bytes at most; the words before the entry's
 * page stay 0 (a program does not branch out of itself).  Notes
 * whether the program reads the face (v[0x3fc], or v[] through $a).
 */
static bool fp_load_code(FpDraw *d)
{
    NV50GrCall *c = d->c;
    const NV50GrShared *sh = &c->ctx->shared;
    NV50CpSpace sp = {
        .dma = sh->dma_code_cb,
        .base = sh->code[NV50_GR_PROG_FP],
        .size = FP_CODE_SEGMENT,
    };
    uint32_t entry = st_get(d->st, M_FP_START_ID) & (FP_CODE_SEGMENT - 1);
    uint32_t first = entry & ~(FP_PAGE - 1);
    uint32_t cap = MIN(first + FP_CODE_MAX, FP_CODE_SEGMENT);
    uint32_t loaded = first, pc = entry, max_target = entry;
    NV50Fault f;

    entry &= ~3u;
    pc = entry;
    d->entry = entry;
    d->code = g_malloc0(cap);
    for (;;) {
        TeslaInsn insn;

        while (pc + 8 > loaded && loaded < cap) {
            if (!nv50_cp_space_rw(c, &sp, loaded, (uint8_t *)d->code + loaded,
                                  FP_PAGE, false, &f)) {
                if (loaded == first) {
                    nv50_gr_trap(c, NV50_GR_TRAP_CCACHE, 1, "FP code at "
                                 "0x%x (segment 0x%010" PRIx64 ") cannot be "
                                 "read (%s)", entry, sp.base,
                                 nv50_fault_name(f.reason));
                    return false;
                }
                cap = loaded;
                break;
            }
            for (uint32_t i = loaded / 4; i < (loaded + FP_PAGE) / 4; i++) {
                d->code[i] = ldn_le_p(&d->code[i], 4);
            }
            loaded += FP_PAGE;
        }
        if (pc + 4 > loaded) {
            break;
        }
        tesla_decode(TESLA_G84, TESLA_PROG_FP, d->code, loaded / 4, pc,
                     &insn);
        if (insn.op == TOP_INVALID) {
            break;
        }
        if (insn.op == TOP_INTERP && insn.src[0].kind == TOPND_MEM &&
            (insn.src[0].areg || insn.src[0].imm >= FP_FACE_WORD * 4)) {
            d->face = true;
        }
        for (unsigned i = 0; i < insn.nsrc; i++) {
            if (insn.src[i].kind == TOPND_TARGET) {
                max_target = MAX(max_target, insn.src[i].imm);
            }
        }
        pc += insn.len;
        if (insn_is_end(&insn, max_target)) {
            break;
        }
    }
    d->env.code = d->code;
    d->env.code_words = loaded / 4;
    return true;
}

static bool fp_cb_read(FpDraw *d, unsigned idx, uint32_t addr, void *buf,
                       unsigned size)
{
    FpCb *cb = &d->cb[idx & (TESLA_NUM_CSPACES - 1)];
    uint8_t *b = buf;

    if (!cb->sp.size || (uint64_t)addr + size > cb->sp.size) {
        return false;
    }
    if (!cb->line) {
        cb->line = g_new0(uint8_t *, FP_CB_LINES(cb->sp.size));
    }
    while (size) {
        uint32_t li = addr / FP_CB_LINE, off = addr % FP_CB_LINE;
        unsigned n = MIN(size, FP_CB_LINE - off);

        if (!cb->line[li]) {
            uint64_t base = (uint64_t)li * FP_CB_LINE;
            size_t len = MIN((uint64_t)FP_CB_LINE, cb->sp.size - base);
            NV50Fault f;

            cb->line[li] = g_malloc0(FP_CB_LINE);
            if (!nv50_cp_space_rw(d->c, &cb->sp, base, cb->line[li], len,
                                  false, &f)) {
                /* UNVERIFIED: reads 0, as tpc.c's c[] do */
                gemu_log_mask(LOG_GUEST_ERROR, "nv50 FP: c%u[0x%x] cannot "
                              "be read (%s)\n", idx, (unsigned)base,
                              nv50_fault_name(f.reason));
                memset(cb->line[li], 0, FP_CB_LINE);
            }
        }
        memcpy(b, cb->line[li] + off, n);
        b += n;
        addr += n;
        size -= n;
    }
    return true;
}

static bool fp_mem_read(void *opaque, TeslaSpace space, unsigned idx,
                        uint32_t addr, void *buf, unsigned size)
{
    FpDraw *d = opaque;

    if (space == TSPACE_C) {
        return fp_cb_read(d, idx, addr, buf, size);
    }
    return false;               /* no g[] for an FP */
}

static bool fp_mem_write(void *opaque, TeslaSpace space, unsigned idx,
                         uint32_t addr, const void *buf, unsigned size)
{
    return false;
}

static void fp_env(FpDraw *d)
{
    NV50GrCall *c = d->c;
    const NV50GrShared *sh = &c->ctx->shared;
    uint32_t fc = st_get(d->st, M_FP_CONTROL);
    uint32_t lsl = st_get(d->st, M_LOCAL_SIZE_LOG);

    d->results = MIN(st_get(d->st, M_FP_RESULT_COUNT),
                     (uint32_t)TESLA_MAX_GPRS);
    d->multiple = fc & FP_CONTROL_MULTIPLE_RESULTS;
    d->exports_z = fc & FP_CONTROL_EXPORTS_Z;
    d->alpha_test = st_get(d->st, M_ALPHA_TEST_ENABLE) & 1;
    d->samplecnt = st_get(d->st, M_SAMPLECNT_ENABLE) & 1;
    d->late_z = d->exports_z || (fc & FP_CONTROL_USES_KIL) || d->alpha_test;

    d->env.variant = TESLA_G84;
    d->env.prog = TESLA_PROG_FP;
    d->env.gprs = MIN(MAX(st_get(d->st, M_FP_REG_ALLOC_TEMP), d->results),
                      (uint32_t)TESLA_MAX_GPRS);
    /* log2(bytes / 8), 0: no l[] (as compute's) */
    d->env.local_bytes = lsl ? MIN(8u << MIN(lsl, 13u), 0x10000u) : 0;
    d->env.mem_read = fp_mem_read;
    d->env.mem_write = fp_mem_write;
    d->env.tex = nv50_tex_sample;
    d->env.opaque = d;
    d->env.stop = nv50_engine_abort_flag(c->s);
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        const NV50GrCb *cb = nv50_gr_prog_cb(sh, NV50_GR_PROG_FP, i);

        if (cb) {
            d->cb[i].sp = (NV50CpSpace) {
                .dma = sh->dma_code_cb, .base = cb->addr, .size = cb->size,
            };
            d->env.c[i].size = cb->size;
        }
    }
    d->tex.c = c;
    d->tex.prog = NV50_GR_PROG_FP;
}

/* --- interpolants -------------------------------------------------------- */

static float vert_word(const NV50PipeVertex *v, unsigned w)
{
    return v && w < v->out_words && w < NV50_PIPE_OUT_WORDS
           ? bits_to_f32(v->out[w]) : 0.0f;
}

/* The v[] words of the FP for primitive @p (see the header comment). */
static void fp_slots(FpDraw *d)
{
    const NV50Gr3dState *st = d->st;
    const NV50PipePrim *p = d->prim;
    uint32_t ic = st_get(st, M_FP_INTERPOLANT_CTRL);
    uint32_t sc = st_get(st, M_SEMANTIC_COLOR);
    unsigned count = ic & 0xff, offset = (ic >> 8) & 0xff;
    unsigned nonflat = (ic >> 16) & 0xff, umask = (ic >> 24) & 0xf;
    unsigned ffc = sc & 0xff, bfc = (sc >> 8) & 0xff;
    unsigned ncol = (sc >> 16) & 0xff;
    bool clamp = sc & SEMANTIC_COLOR_CLMP_EN;
    bool shade_flat = st_get(st, M_SHADE_MODEL) == SHADE_MODEL_FLAT;
    bool sprite = p->kind == NV50_PRIM_POINTS &&
                  (st_get(st, M_POINT_SPRITE_ENABLE) & 1);
    unsigned n = 0;

    for (unsigned i = 0; i < FP_POS_SLOTS; i++) {
        if (umask & (1u << i)) {
            FpSlot *s = &d->slot[n++];

            s->src = SRC_POS_X + i;
            for (unsigned j = 0; j < p->nverts; j++) {
                s->val[j] = i == 2 ? p->scr[j].z : p->scr[j].inv_w;
            }
            if (i >= 2) {
                s->src = SRC_INTERP;
            }
        }
    }
    for (unsigned k = 0; k < count && offset + k < FP_MAP_SLOTS; k++) {
        unsigned ms = offset + k, word = ms;
        FpSlot *s = &d->slot[n++];
        bool colour = ms >= ffc && ms < ffc + ncol;
        bool flat = k >= nonflat || (colour && shade_flat);
        bool linear = st_get(st, M_NOPERSPECTIVE_BITMAP + ms / 32 * 4) &
                      (1u << (ms % 32));

        if (sprite) {
            uint32_t map = st_get(st, M_POINT_COORD_REPLACE_MAP + ms / 8 * 4);

            switch ((map >> (ms % 8 * 4)) & 0xf) {
            case 1:
                s->src = SRC_SPRITE_S;
                continue;
            case 2:
                s->src = SRC_SPRITE_T;
                continue;
            case 3:
                s->src = SRC_CONST;
                s->bits = 0;
                continue;
            case 4:
                s->src = SRC_CONST;
                s->bits = f32_to_bits(1.0f);
                continue;
            }
        }
        if (colour && !p->front && bfc != ffc) {
            word = bfc + (ms - ffc);
        }
        if (flat) {
            const NV50PipeVertex *pv = p->provoking ? p->provoking : p->v[0];

            s->src = SRC_CONST;
            s->bits = pv && word < pv->out_words ? pv->out[word] : 0;
            if (colour && clamp) {
                float f = bits_to_f32(s->bits);

                s->bits = f32_to_bits(MIN(MAX(f, 0.0f), 1.0f));
            }
            continue;
        }
        s->src = SRC_INTERP;
        for (unsigned j = 0; j < p->nverts; j++) {
            float a = vert_word(p->v[j], word);

            if (colour && clamp) {
                a = MIN(MAX(a, 0.0f), 1.0f);
            }
            s->val[j] = linear ? a : a * p->scr[j].inv_w;
        }
    }
    d->nslots = n;
    d->in_words = d->face ? MAX(n, FP_FACE_WORD + 1u) : n;
}

/* The v[] words of pixel @i of quad @q, to @out. */
static void fp_pixel_in(const FpDraw *d, const FpQuad *q, unsigned i,
                        uint32_t *out)
{
    const NV50PipePrim *p = d->prim;
    float px = q->x + (i & 1) + 0.5f, py = q->y + (i >> 1) + 0.5f;
    const float *b = q->bary[i];

    for (unsigned k = 0; k < d->nslots; k++) {
        const FpSlot *s = &d->slot[k];
        float v = 0.0f;

        switch (s->src) {
        case SRC_POS_X:
            v = px;
            break;
        case SRC_POS_Y:
            v = py;
            break;
        case SRC_POS_Z:
        case SRC_POS_W:
        case SRC_INTERP:
            for (unsigned j = 0; j < p->nverts; j++) {
                v += b[j] * s->val[j];
            }
            break;
        case SRC_CONST:
            out[k] = s->bits;
            continue;
        case SRC_SPRITE_S:
            v = (px - (p->scr[0].x - d->point_size / 2)) / d->point_size;
            break;
        case SRC_SPRITE_T:
            v = (py - (p->scr[0].y - d->point_size / 2)) / d->point_size;
            if (!(st_get(d->st, M_POINT_SPRITE_CTRL) &
                  POINT_SPRITE_UPPER_LEFT)) {
                v = 1.0f - v;
            }
            break;
        }
        out[k] = f32_to_bits(v);
    }
    if (d->face) {
        out[FP_FACE_WORD] = p->front ? 0xffffffffu : 0;
    }
}

/* --- the batch ----------------------------------------------------------- */

static void fp_report_trap(FpDraw *d, unsigned mp, const TeslaResult *r)
{
    nv50_gr_trap(d->c, NV50_GR_TRAP_MP, NV50_MPC_TRAP_MP(mp % 2),
                 "FP on TP %u MP %u: %s at 0x%06x (warp %u): %s", mp / 2,
                 mp % 2, tesla_error_name(r->error), r->pc, r->warp, r->msg);
}

/* The depth of sample @s of pixel @i (the plane through the centres). */
static float fp_sample_z(const FpDraw *d, const FpQuad *q, unsigned i,
                         unsigned s)
{
    const RasterSamples *rs = d->rp.samples;
    float dzdx, dzdy;

    if (!rs || s >= rs->count || (!rs->pos[s][0] && !rs->pos[s][1])) {
        return q->z[i];
    }
    dzdx = q->z[1] - q->z[0];
    dzdy = q->z[2] - q->z[0];
    return q->z[i] + dzdx * rs->pos[s][0] / 16.0f +
           dzdy * rs->pos[s][1] / 16.0f;
}

static void fp_output(FpDraw *d, const TeslaRun *run, const FpQuad *q,
                      unsigned i, unsigned t)
{
    float color[NV50_PIPE_RTS][4];
    unsigned samples = q->samples[i];
    unsigned ncol = d->results;
    float zout = 0.0f;

    if (d->exports_z && d->results) {
        zout = bits_to_f32(tesla_run_reg(run, t, d->results - 1));
        ncol = d->results - 1;
    }
    for (unsigned rt = 0; rt < NV50_PIPE_RTS; rt++) {
        unsigned base = d->multiple ? rt * 4 : 0;

        for (unsigned k = 0; k < 4; k++) {
            color[rt][k] = base + k < ncol
                ? bits_to_f32(tesla_run_reg(run, t, base + k)) : 0.0f;
        }
    }
    if (d->alpha_test && !nv50_rop_alpha_test(d->rop, color[0][3])) {
        return;
    }
    if (d->late_z) {
        for (unsigned s = 0; s < 8; s++) {
            float z;

            if (!(samples & (1u << s))) {
                continue;
            }
            z = d->exports_z ? zout : fp_sample_z(d, q, i, s);
            if (!nv50_rop_zs_test(d->rop, q->x + (i & 1), q->y + (i >> 1),
                                  s, z, d->prim->front)) {
                samples &= ~(1u << s);
            }
        }
    }
    for (unsigned s = 0; s < 8; s++) {
        if (samples & (1u << s)) {
            nv50_rop_write(d->rop, q->x + (i & 1), q->y + (i >> 1), s,
                           color);
            d->st->samplecnt += d->samplecnt;
        }
    }
}

/* Shade the batched quads on the next MP, then late Z and ROP. */
static void fp_flush(FpDraw *d)
{
    unsigned threads = d->nquads * 4, mp = d->mp_next++ % NV50_MPS;
    unsigned visible = 0;
    g_autofree char *err = NULL;
    const TeslaResult *r;
    TeslaLaunch tl = { 0 };
    TeslaRun *run;

    if (!d->nquads || d->stopped) {
        d->nquads = 0;
        return;
    }
    if (d->in_words) {
        memset(d->in, 0, (size_t)threads * d->in_words * 4);
    }
    for (unsigned q = 0; q < d->nquads; q++) {
        for (unsigned i = 0; i < 4; i++) {
            unsigned t = q * 4 + i;

            d->invisible[t] = !(d->quad[q].mask & (1u << i));
            visible += !d->invisible[t];
            if (d->in_words) {
                fp_pixel_in(d, &d->quad[q], i,
                            d->in + (size_t)t * d->in_words);
            }
        }
    }
    tl.threads = threads;
    tl.in = d->in_words ? d->in : NULL;
    tl.in_words = d->in_words;
    tl.invisible = d->invisible;
    tl.entry = d->entry;
    tl.local_uncleared = true;
    tl.keep_regs = true;
    d->env.tpc_index = mp / NV50_MPS_PER_TPC;
    d->env.mp_index = mp % NV50_MPS_PER_TPC;
    run = tesla_run_new(&d->env, &tl, &err);
    d->nquads = 0;
    if (!run) {
        nv50_gr_error(d->c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_VALUE, "FP launch: %s", err);
        d->stopped = true;
        return;
    }
    tesla_run_exec(run);
    r = tesla_run_result(run);
    if (r->status == TESLA_RUN_PAUSED) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: FP launch on channel %d "
                      "abandoned (reset or teardown)\n", d->c->ctx->chid);
        d->stopped = true;
    } else if (r->status != TESLA_RUN_DONE) {
        fp_report_trap(d, mp, r);
        d->stopped = true;
    } else {
        d->st->counter[NV50_3D_COUNTER_FP_PIXELS] += visible;
        for (unsigned q = 0; q < threads / 4; q++) {
            for (unsigned i = 0; i < 4; i++) {
                unsigned t = q * 4 + i;

                if (!d->invisible[t] && !tesla_run_killed(run, t)) {
                    fp_output(d, run, &d->quad[q], i, t);
                }
            }
        }
    }
    tesla_run_free(run);
}

/* The rasteriser's callback: early Z, then into the batch. */
static void fp_quad(void *opaque, const RasterQuad *rq)
{
    FpDraw *d = opaque;
    const NV50PipePrim *p = d->prim;
    FpQuad *q;

    if (d->stopped) {
        return;
    }
    q = &d->quad[d->nquads];
    q->x = rq->x;
    q->y = rq->y;
    q->mask = 0;
    for (unsigned i = 0; i < 4; i++) {
        q->z[i] = 0.0f;
        memset(q->bary[i], 0, sizeof(q->bary[i]));
        for (unsigned k = 0; k < d->nsub; k++) {
            q->bary[i][d->vidx[k]] += rq->bary[i][k];
        }
        for (unsigned j = 0; j < p->nverts; j++) {
            q->z[i] += q->bary[i][j] * p->scr[j].z;
        }
    }
    for (unsigned i = 0; i < 4; i++) {
        unsigned samples = (rq->mask & (1u << i)) ? rq->samples[i] : 0;

        if (!d->late_z) {
            for (unsigned s = 0; s < 8; s++) {
                if ((samples & (1u << s)) &&
                    !nv50_rop_zs_test(d->rop, q->x + (i & 1),
                                      q->y + (i >> 1), s,
                                      fp_sample_z(d, q, i, s), p->front)) {
                    samples &= ~(1u << s);
                }
            }
        }
        q->samples[i] = samples;
        if (samples) {
            q->mask |= 1u << i;
        }
    }
    if (!q->mask) {
        return;                 /* nothing left to shade */
    }
    if (++d->nquads == FP_BATCH_QUADS) {
        fp_flush(d);
    }
}

/* --- the primitive ------------------------------------------------------- */

static void fp_sub(FpDraw *d, unsigned n, unsigned a, unsigned b,
                   unsigned c)
{
    d->nsub = n;
    d->vidx[0] = a;
    d->vidx[1] = b;
    d->vidx[2] = c;
}

static void fp_rasterise(FpDraw *d)
{
    const NV50PipePrim *p = d->prim;
    const RasterParams *rp = &d->rp;

    switch (p->kind) {
    case NV50_PRIM_POINTS:
        fp_sub(d, 1, 0, 0, 0);
        d->point_size = p->width > 0 ? p->width : 1.0f;
        raster_point(&p->scr[0], d->point_size, rp, fp_quad, d);
        return;
    case NV50_PRIM_LINES:
        fp_sub(d, 2, 0, 1, 0);
        raster_line(p->scr, p->width > 0 ? p->width : 1.0f, rp, fp_quad, d);
        return;
    case NV50_PRIM_TRIANGLES:
        fp_sub(d, 3, 0, 1, 2);
        raster_triangle(p->scr, rp, fp_quad, d);
        return;
    }
}

static void fp_unload(FpDraw *d)
{
    for (unsigned i = 0; i < TESLA_NUM_CSPACES; i++) {
        if (d->cb[i].line) {
            for (uint64_t l = 0; l < FP_CB_LINES(d->cb[i].sp.size); l++) {
                g_free(d->cb[i].line[l]);
            }
            g_free(d->cb[i].line);
        }
        d->cb[i] = (FpCb) { 0 };
    }
    g_free(d->code);
    d->code = NULL;
    d->face = false;
    d->loaded = false;
}

NV50FpDraw *nv50_fp_begin(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop)
{
    FpDraw *d = g_new0(FpDraw, 1);

    d->c = c;
    d->st = st;
    d->rop = rop;
    nv50_rop_bounds(rop, &d->rp);
    d->rp.subpixel_bits = 8;    /* UNVERIFIED for the G84 */
    d->invisible = g_new(bool, FP_BATCH_QUADS * 4);
    return d;
}

void nv50_fp_prim(NV50FpDraw *d, const NV50PipePrim *prim)
{
    size_t in_need;

    if (!prim->nverts || prim->nverts > 3) {
        return;
    }
    if (!d->loaded) {
        fp_env(d);
        if (!fp_load_code(d)) {
            fp_unload(d);       /* tried again at the next primitive */
            return;
        }
        d->loaded = true;
    }
    d->prim = prim;
    d->nquads = 0;
    d->mp_next = 0;
    d->stopped = false;
    fp_slots(d);
    in_need = (size_t)FP_BATCH_QUADS * 4 * MAX(d->in_words, 1u);
    if (in_need > d->in_cap) {
        g_free(d->in);
        d->in = g_new(uint32_t, in_need);
        d->in_cap = in_need;
    }
    fp_rasterise(d);
    fp_flush(d);
}

void nv50_fp_end(NV50FpDraw *d)
{
    if (!d) {
        return;
    }
    fp_unload(d);
    g_free(d->in);
    g_free(d->invisible);
    g_free(d);
}

void nv50_fp_draw(NV50GrCall *c, NV50Gr3dState *st, NV50Rop *rop,
                  const NV50PipePrim *prim)
{
    NV50FpDraw *d = nv50_fp_begin(c, st, rop);

    nv50_fp_prim(d, prim);
    nv50_fp_end(d);
}
