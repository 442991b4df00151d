/*
 * SGX543 software pipeline (sgx543.md §3.7(d)): secondary programs,
 * vertex fetch and the vertex program, primitive assembly (triangles,
 * lines, points), clipping, viewport and culling, rasterisation in 2x2
 * quads (per sample when multisampling) with perspective-correct
 * varyings and non-dependent texture reads, the fragment program,
 * depth/stencil, blending and the store to the colour surface or the
 * sample buffer.  Also CLEAR, the MSAA resolve, and the SMP callback
 * into the texture sampler (texture-sample.c).
 *
 * This file: DRAW's checks, shader runs, vertex fetch, texture reads,
 * CLEAR and the resolve; primitives and clipping are in draw-prim.c,
 * the quads, depth/stencil and the fragment program in draw-frag.c
 * (their shared state: draw-int.h).
 *
 * A shader trap, a fault or illegal texture words set the error
 * registers and end the draw; what was already stored stays
 * (UNVERIFIED: hardware would render the tile list or nothing).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/half.h"
#include "gemu/log.h"
#include "draw-int.h"

#include <math.h>

#define MAX_INDICES     (1u << 20)
#define MAX_INSTANCES   1024
#define VERTEX_BATCH    256
#define MAX_VERTEX_FLOATS (1u << 24)    /* outputs kept for one draw */

/* ---- textures ---- */

/* The texture's bytes (and palette) mapped; false (error raised, draw
   aborted) on a fault. */
static bool tex_map(DrawCtx *c, const SgxTexture *t, const uint8_t **data,
                    const uint8_t **pal)
{
    *pal = NULL;
    *data = sgx_dma_map(c->s, t->data, t->size, false);
    if (*data && t->palette_size) {
        *pal = sgx_dma_map(c->s, t->palette, t->palette_size, false);
    }
    if (!*data || (t->palette_size && !*pal)) {
        c->abort = true;
        return false;
    }
    return true;
}

const SgxTexture *sgx_draw_unit_texture(DrawCtx *c, unsigned unit,
                                        const uint8_t **data,
                                        const uint8_t **pal)
{
    const SgxTexUnit *u = &c->s->tex[SGX_STAGE_FRAGMENT][unit];

    if (!u->valid) {
        gemu_log_once(LOG_GUEST_ERROR, "sgx543-tex", unit,
                      "sgx543: read of unset texture unit %u\n", unit);
        return NULL;
    }
    if (!c->unit_data[unit]
        && !tex_map(c, &u->tex, &c->unit_data[unit], &c->unit_pal[unit])) {
        return NULL;
    }
    *data = c->unit_data[unit];
    *pal = c->unit_pal[unit];
    return &u->tex;
}

/*
 * The USSE SMP callback: the texture words come from the program (SA).
 * Illegal words or a fault set the error registers and end the draw.
 */
static void usse_sample(void *opaque, const UsseSample *req, float out[4])
{
    DrawCtx *c = opaque;
    SgxTexLookup l = { .dim = req->dim, .lod_mode = req->lod_mode };
    const char *why;

    memset(out, 0, 4 * sizeof(float));
    if (c->abort) {
        return;
    }
    if (req->sb_mode) {
        gemu_log_once(LOG_UNIMP, "sgx543-smp-sb", req->sb_mode,
                      "sgx543: SMP mode %u (gather/info) samples\n",
                      req->sb_mode);
    }
    if (!c->smp_valid || memcmp(c->smp_w, req->state, sizeof(c->smp_w))) {
        c->smp_valid = false;
        memcpy(c->smp_w, req->state, sizeof(c->smp_w));
        if (!sgx_tex_decode(req->state, &c->smp_tex, &why)) {
            sgx_raise_error(c->s, SGX_ERR_BAD_VALUE,
                            "SMP with texture words %08x %08x %08x %08x: %s",
                            req->state[0], req->state[1], req->state[2],
                            req->state[3], why);
            c->abort = true;
            return;
        }
        if (!tex_map(c, &c->smp_tex, &c->smp_data, &c->smp_pal)) {
            return;
        }
        c->smp_valid = true;
    }
    memcpy(l.coord, req->coord, sizeof(l.coord));
    memcpy(l.dx, req->dx, sizeof(l.dx));
    memcpy(l.dy, req->dy, sizeof(l.dy));
    memcpy(l.lod, req->lod, sizeof(l.lod));
    sgx_tex_sample(&c->smp_tex, c->smp_data, c->smp_pal, &l, out);
}

/* LD/ST from shaders reach device memory through the MMU. */
static bool usse_mem(void *opaque, bool write, uint32_t addr, void *buf,
                     unsigned size)
{
    DrawCtx *c = opaque;

    return write ? sgx_dma_write(c->s, addr, buf, size)
                 : sgx_dma_read(c->s, addr, buf, size);
}

/* ---- shader runs ---- */

bool sgx_draw_run_program(DrawCtx *c, UsseStage stage,
                          const UsseProgram *prog, uint32_t *sa,
                          const UsseLaunch *launch, UsseRun **runp)
{
    UsseEnv env = {
        .stage = stage,
        .sa = sa,
        .sa_count = USSE_MAX_REGS,
        .sample = usse_sample,
        .mem = usse_mem,
        .opaque = c,
        .insn_budget = (uint64_t)SGX_SHADER_BUDGET
                       * (launch->secondary ? 1 : launch->instances),
    };
    g_autofree char *err = NULL;
    const UsseResult *r;
    UsseRun *run = usse_run_new(&env, prog, launch, &err);

    *runp = run;
    if (!run) {
        sgx_raise_error(c->s, SGX_ERR_SHADER_TRAP, "shader launch: %s", err);
        return false;
    }
    if (usse_run_exec(run) == USSE_RUN_DONE) {
        return true;
    }
    r = usse_run_result(run);
    c->s->err_pc = r->pc;
    sgx_raise_error(c->s, SGX_ERR_SHADER_TRAP,
                    "%s program trap %s at pc 0x%x (instance %u): %s",
                    stage == USSE_STAGE_VERTEX ? "vertex" : "fragment",
                    usse_error_name(r->error), r->pc, r->instance, r->msg);
    return false;
}

/* Build a stage's SA bank and run its secondary program. */
static bool setup_sa(DrawCtx *c, unsigned stage, uint32_t *sa)
{
    Sgx543State *s = c->s;
    SgxProgram *p = &s->prog[stage];

    memset(sa, 0, USSE_MAX_REGS * 4);
    for (unsigned i = 0; i < SGX_NUM_UB; i++) {
        SgxUniformBuf *ub = &s->ub[stage][i];
        int reg;

        if (!ub->valid) {
            continue;
        }
        reg = ub->sa_reg != ~0u ? (int)ub->sa_reg
              : i == 14 ? p->default_ub_sa : -1;
        if (reg < 0) {
            gemu_log_once(LOG_UNIMP, "sgx543-ub", i,
                          "sgx543: uniform buffer %u has no SA slot\n", i);
            continue;
        }
        if (i == 14) {
            /* the default buffer is copied into SA */
            uint32_t n = MIN(ub->size / 4, USSE_MAX_REGS - (uint32_t)reg);
            if (!sgx_dma_read(s, ub->base, sa + reg, n * 4)) {
                return false;
            }
            for (uint32_t k = 0; k < n; k++) {
                sa[reg + k] = GUINT32_FROM_LE(sa[reg + k]);
            }
        } else {
            sa[reg] = ub->base;
        }
    }
    for (unsigned i = 0; i < SGX_NUM_TEX; i++) {
        SgxTexUnit *t = &s->tex[stage][i];
        if (t->valid && t->sa_reg != ~0u) {
            memcpy(sa + t->sa_reg, t->w, sizeof(t->w));
        }
    }
    if (p->secondary) {
        UsseLaunch l = { .instances = 1, .secondary = true };
        UsseRun *run;
        bool ok = sgx_draw_run_program(c, stage == SGX_STAGE_VERTEX
                              ? USSE_STAGE_VERTEX : USSE_STAGE_FRAGMENT,
                              p->secondary, sa, &l, &run);
        usse_run_free(run);
        return ok && !c->abort;
    }
    return true;
}

/* ---- vertex fetch ---- */

static unsigned attr_size(unsigned fmt)
{
    static const uint8_t size[SGX_ATTR_NUM] = {
        1, 1, 2, 2, 1, 1, 2, 2, 2, 4, 4,
    };
    return size[fmt];
}

static uint32_t attr_convert(unsigned fmt, const uint8_t *p)
{
    uint16_t u16 = p[0] | p[1] << 8;
    uint32_t u32 = u16 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

    switch (fmt) {
    case SGX_ATTR_U8:
        return f32_to_bits(p[0]);
    case SGX_ATTR_S8:
        return f32_to_bits((int8_t)p[0]);
    case SGX_ATTR_U16:
        return f32_to_bits(u16);
    case SGX_ATTR_S16:
        return f32_to_bits((int16_t)u16);
    case SGX_ATTR_U8N:
        return f32_to_bits(p[0] / 255.0f);
    case SGX_ATTR_S8N:
        return f32_to_bits(fmaxf((int8_t)p[0] / 127.0f, -1.0f));
    case SGX_ATTR_U16N:
        return f32_to_bits(u16 / 65535.0f);
    case SGX_ATTR_S16N:
        return f32_to_bits(fmaxf((int16_t)u16 / 32767.0f, -1.0f));
    case SGX_ATTR_F16:
        return f32_to_bits(gemu_half_to_float(u16));
    default:                /* F32 and UNTYPED: the dword as it is */
        return u32;
    }
}

static bool fetch_vertex(DrawCtx *c, uint32_t index, uint32_t instance,
                         uint32_t *pa)
{
    Sgx543State *s = c->s;

    for (unsigned i = 0; i < s->nattribs; i++) {
        const SgxAttrib *a = &s->attribs[i];
        const SgxStream *st = &s->streams[a->stream];
        unsigned sz = attr_size(a->format);
        uint8_t buf[16];
        uint32_t elem, addr;

        if (a->stream >= s->nstreams) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "attribute %u reads unset stream %u", i,
                            a->stream);
            return false;
        }
        elem = st->index_source ? instance : index;
        addr = st->base + elem * st->stride + a->offset;
        if (!sgx_dma_read(s, addr, buf, sz * a->comps)) {
            return false;
        }
        for (unsigned k = 0; k < a->comps; k++) {
            pa[a->reg + k] = attr_convert(a->format, buf + k * sz);
        }
    }
    return true;
}

/* The programs, the sizes and the fragment inputs; false if nothing is
   drawn (an error raised if the DRAW is wrong). */
static bool draw_check(DrawCtx *c, unsigned prim, uint32_t count,
                       uint32_t instances)
{
    Sgx543State *s = c->s;

    if (!c->vp->valid || !c->fp->valid) {
        sgx_raise_error(s, SGX_ERR_NO_PROGRAM, "DRAW without %s program",
                        c->vp->valid ? "a fragment" : "a vertex");
        return false;
    }
    if (count > MAX_INDICES || instances > MAX_INSTANCES
        || (uint64_t)count * instances > MAX_INDICES) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "DRAW of %u indices x %u",
                        count, instances);
        return false;
    }
    if (count < (prim == SGX_PRIM_POINTS ? 1
                 : prim == SGX_PRIM_LINES || prim == SGX_PRIM_LINE_STRIP ? 2
                 : 3) || !instances) {
        return false;
    }
    for (unsigned k = 0; k < c->fp->ninputs; k++) {
        if (SGX_FIN_SRC(c->fp->inputs[k])
            + (SGX_FIN_KIND(c->fp->inputs[k]) ? 2
               : SGX_FIN_COMPS(c->fp->inputs[k])) > c->vp->vout) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "fragment input reads o%u, beyond the vertex "
                            "program's %u outputs",
                            SGX_FIN_SRC(c->fp->inputs[k]), c->vp->vout);
            return false;
        }
    }
    return true;
}

/* The surfaces mapped and the draw's constants set; false on a fault
   or a draw too large. */
static bool draw_setup(DrawCtx *c, uint32_t count)
{
    Sgx543State *s = c->s;

    c->bpp = sgx_color_bpp(s->color_format);
    if (!s->msaa) {
        c->color = sgx_dma_map(s, s->color_base, sgx_color_bytes(s), true);
        if (!c->color) {
            return false;
        }
    }
    if (s->depth_format != SGX_DEPTH_NONE) {
        c->depth = sgx_dma_map(s, s->depth_base, sgx_depth_bytes(s), true);
        if (!c->depth) {
            return false;
        }
    }
    c->late_z = c->fp->flags & SGX_PROG_DISCARD;
    c->nvar = c->vp->vout - 4;
    if ((uint64_t)count * c->vp->vout > MAX_VERTEX_FLOATS) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "DRAW of %u indices x %u outputs is too large",
                        count, c->vp->vout);
        return false;
    }
    c->pa_words = 1;
    for (unsigned k = 0; k < c->fp->ninputs; k++) {
        c->pa_words = MAX(c->pa_words, SGX_FIN_DST(c->fp->inputs[k]) + 4);
    }
    c->pa_words = MIN(c->pa_words, USSE_MAX_REGS);
    return true;
}

/* The @count indices at @index_va, 16-bit (@index_format 0) or 32-bit;
   false on a fault. */
static bool read_indices(Sgx543State *s, unsigned index_format,
                         uint32_t index_va, uint32_t count, uint32_t *idx)
{
    if (index_format == 0) {
        g_autofree uint16_t *i16 = g_new(uint16_t, count);
        if (!sgx_dma_read(s, index_va, i16, count * 2)) {
            return false;
        }
        for (uint32_t i = 0; i < count; i++) {
            idx[i] = GUINT16_FROM_LE(i16[i]);
        }
    } else {
        if (!sgx_dma_read(s, index_va, idx, count * 4)) {
            return false;
        }
        for (uint32_t i = 0; i < count; i++) {
            idx[i] = GUINT32_FROM_LE(idx[i]);
        }
    }
    return true;
}

/*
 * The vertex program for instance @inst, one program instance per
 * index, in batches (@vpa: VERTEX_BATCH x @vpa_words primary
 * attributes); the outputs to @vout, @vstride floats a vertex.
 */
static bool run_vertices(DrawCtx *c, const uint32_t *idx, uint32_t count,
                         uint32_t inst, uint32_t *vpa, unsigned vpa_words,
                         float *vout, size_t vstride)
{
    for (uint32_t first = 0; first < count; first += VERTEX_BATCH) {
        uint32_t n = MIN(VERTEX_BATCH, count - first);
        UsseLaunch l = {
            .instances = n, .pa = vpa, .pa_words = vpa_words,
        };
        UsseRun *run;

        memset(vpa, 0, (size_t)n * vpa_words * 4);
        for (uint32_t i = 0; i < n; i++) {
            if (!fetch_vertex(c, idx[first + i], inst,
                              vpa + (size_t)i * vpa_words)) {
                return false;
            }
        }
        if (!sgx_draw_run_program(c, USSE_STAGE_VERTEX, c->vp->primary,
                                  c->vsa, &l, &run) || c->abort) {
            usse_run_free(run);
            return false;
        }
        for (uint32_t i = 0; i < n; i++) {
            float *v = vout + (size_t)(first + i) * vstride;
            for (unsigned k = 0; k < vstride; k++) {
                v[k] = bits_to_f32(usse_run_reg(run, i, USSE_BANK_OUTPUT, k));
            }
        }
        usse_run_free(run);
    }
    return true;
}

void sgx_draw(Sgx543State *s, unsigned prim, unsigned index_format,
              uint32_t index_va, uint32_t count, uint32_t instances)
{
    g_autofree DrawCtx *c = g_new0(DrawCtx, 1);
    g_autofree uint32_t *idx = NULL;
    g_autofree uint32_t *vpa = NULL;
    g_autofree float *vout = NULL;
    unsigned vpa_words = 1;
    size_t vstride;

    c->s = s;
    c->vp = &s->prog[SGX_STAGE_VERTEX];
    c->fp = &s->prog[SGX_STAGE_FRAGMENT];
    if (!draw_check(c, prim, count, instances) || !draw_setup(c, count)) {
        return;
    }
    vstride = c->vp->vout;
    idx = g_new(uint32_t, count);
    if (!read_indices(s, index_format, index_va, count, idx)) {
        return;
    }
    if (!setup_sa(c, SGX_STAGE_VERTEX, c->vsa)
        || !setup_sa(c, SGX_STAGE_FRAGMENT, c->fsa)) {
        return;
    }
    for (unsigned i = 0; i < s->nattribs; i++) {
        vpa_words = MAX(vpa_words,
                        (unsigned)s->attribs[i].reg + s->attribs[i].comps);
    }
    vpa = g_new(uint32_t, (size_t)VERTEX_BATCH * vpa_words);
    vout = g_new(float, (size_t)count * vstride);

    for (uint32_t inst = 0; inst < instances; inst++) {
        if (!run_vertices(c, idx, count, inst, vpa, vpa_words, vout,
                          vstride)) {
            return;
        }
        /* primitive assembly */
        sgx_draw_assemble(c, prim, vout, vstride, count);
        if (c->abort) {
            return;
        }
    }
    s->draws++;
    sgx_raise_event(s, SGX_EVENT_TA_FINISHED);
}

void sgx_clear(Sgx543State *s, const float color[4], float depth,
               uint8_t stencil, unsigned flags, int x, int y, int w, int h)
{
    if (!w || !h) {
        return;
    }
    if (flags & SGX_CLEAR_COLOR) {
        unsigned bpp = sgx_color_bpp(s->color_format);
        uint8_t px[16];
        uint8_t *p = NULL;

        if (!s->msaa) {
            p = sgx_dma_map(s, s->color_base, sgx_color_bytes(s), true);
            if (!p) {
                return;
            }
        }
        sgx_color_store(s->color_format, px, color);
        for (int j = y; j < y + h; j++) {
            for (int i = x; i < x + w; i++) {
                if (!s->msaa) {
                    memcpy(p + sgx_color_offset(s, i, j), px, bpp);
                    continue;
                }
                for (unsigned k = 0; k < s->pattern->count; k++) {
                    memcpy(sgx_sample_ptr(s, i, j, k), px, bpp);
                }
            }
        }
    }
    if ((flags & (SGX_CLEAR_DEPTH | SGX_CLEAR_STENCIL))
        && s->depth_format != SGX_DEPTH_NONE) {
        uint8_t *p = sgx_dma_map(s, s->depth_base, sgx_depth_bytes(s), true);

        if (!p) {
            return;
        }
        /* the rectangle in the depth surface's sample grid */
        for (int j = y * s->sy; j < (y + h) * (int)s->sy; j++) {
            for (int i = x * s->sx; i < (x + w) * (int)s->sx; i++) {
                uint8_t *q = p + ((size_t)j * s->depth_stride + i) * 4;
                uint32_t v;

                memcpy(&v, q, 4);
                v = GUINT32_FROM_LE(v);
                if (s->depth_format == SGX_DEPTH_F32) {
                    if (flags & SGX_CLEAR_DEPTH) {
                        v = f32_to_bits(depth);
                    }
                } else {
                    if (flags & SGX_CLEAR_DEPTH) {
                        float d = fminf(fmaxf(depth, 0.0f), 1.0f);
                        v = (v & 0xff000000u)
                            | (uint32_t)lrint((double)d * 0xffffff);
                    }
                    if (flags & SGX_CLEAR_STENCIL) {
                        v = (v & 0xffffff) | (uint32_t)stencil << 24;
                    }
                }
                v = GUINT32_TO_LE(v);
                memcpy(q, &v, 4);
            }
        }
    }
}

/*
 * MSAA resolve: each pixel the box-filtered average of its samples (in
 * float, converted to the surface format).  UNVERIFIED: SGX's resolve
 * filter (a box is what sceGxmColorSurfaceInit's MSAA downscale names).
 */
void sgx_resolve(Sgx543State *s, uint8_t *color)
{
    unsigned n = s->pattern->count;

    for (uint32_t y = 0; y < s->height; y++) {
        for (uint32_t x = 0; x < s->width; x++) {
            float sum[4] = { 0, 0, 0, 0 }, v[4];

            for (unsigned k = 0; k < n; k++) {
                sgx_color_load(s->color_format, sgx_sample_ptr(s, x, y, k),
                               v);
                for (int c = 0; c < 4; c++) {
                    sum[c] += v[c];
                }
            }
            for (int c = 0; c < 4; c++) {
                sum[c] /= n;
            }
            sgx_color_store(s->color_format,
                            color + sgx_color_offset(s, x, y), sum);
        }
    }
}
