/*
 * SGX543 software pipeline (sgx543.md §3.7(d)): secondary programs,
 * vertex fetch and the vertex program, primitive assembly (triangles,
 * lines, points), clipping, viewport and culling, rasterisation in 2x2
 * quads (per sample when multisampling) with perspective-correct
 * varyings and non-dependent texture reads, the fragment program,
 * depth/stencil, blending and the store to the colour surface or the
 * sample buffer.  Also CLEAR, the MSAA resolve, and the SMP callback
 * into the texture sampler (texture.c).
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
#include "priv.h"

#include <math.h>

#define MAX_INDICES     (1u << 20)
#define MAX_INSTANCES   1024
#define QUAD_BATCH      64
#define VERTEX_BATCH    256
#define MAX_VERTEX_FLOATS (1u << 24)    /* outputs kept for one draw */
#define MAX_CLIP_VERTS  16
#define MAX_VARYINGS    (USSE_MAX_REGS - 4)

typedef struct ClipVert {
    float pos[4];
    float var[MAX_VARYINGS];
} ClipVert;

typedef struct DrawCtx {
    Sgx543State *s;
    SgxProgram *vp, *fp;
    uint32_t vsa[USSE_MAX_REGS], fsa[USSE_MAX_REGS];
    unsigned nvar;                  /* varyings per vertex (vout - 4) */
    bool late_z;
    bool abort;
    uint8_t *color;                 /* mapped colour surface */
    uint8_t *depth;                 /* mapped depth surface or NULL */
    unsigned bpp;

    /* textures: the last SMP words, and the units' mappings */
    bool smp_valid;
    uint32_t smp_w[4];
    SgxTexture smp_tex;
    const uint8_t *smp_data, *smp_pal;
    const uint8_t *unit_data[SGX_NUM_TEX], *unit_pal[SGX_NUM_TEX];

    /* the triangle being rasterised */
    RasterVert sv[3];
    const ClipVert *cv[3];

    /* the batch of quads waiting for the fragment program */
    unsigned nquads;
    RasterQuad quads[QUAD_BATCH];
    float qz[QUAD_BATCH][4][4];     /* depth per pixel and sample */
    uint32_t pa[QUAD_BATCH * 4 * USSE_MAX_REGS];
    unsigned pa_words;
    bool helper[QUAD_BATCH * 4];
} DrawCtx;

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

/* A texture unit's mapping, made on its first use in the draw. */
static const SgxTexture *unit_texture(DrawCtx *c, unsigned unit,
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

/* Run @prog; false (error raised) on a trap.  The caller frees *runp. */
static bool run_program(DrawCtx *c, UsseStage stage, const UsseProgram *prog,
                        uint32_t *sa, const UsseLaunch *launch,
                        UsseRun **runp)
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
        bool ok = run_program(c, stage == SGX_STAGE_VERTEX
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

/* ---- depth / stencil ---- */

/* Test and update one pixel; true if the fragment survives. */
static bool depth_stencil(DrawCtx *c, int x, int y, float z)
{
    Sgx543State *s = c->s;
    const SgxRaster *r = &s->raster;
    uint8_t *p;
    uint32_t v;

    if (!c->depth) {
        return true;
    }
    p = c->depth + ((size_t)y * s->depth_stride + x) * 4;
    memcpy(&v, p, 4);
    v = GUINT32_FROM_LE(v);
    if (s->depth_format == SGX_DEPTH_F32) {
        if (!sgx_compare_f(r->depth_func, z, bits_to_f32(v))) {
            return false;
        }
        if (r->depth_write) {
            v = GUINT32_TO_LE(f32_to_bits(z));
            memcpy(p, &v, 4);
        }
        return true;
    } else {
        uint8_t st = v >> 24, m = r->stencil_cmp_mask;
        uint32_t zd = v & 0xffffff;
        uint32_t zi = !(z > 0.0f) ? 0 : z >= 1.0f ? 0xffffff
                      : (uint32_t)lrint((double)z * 0xffffff);
        bool pass = true;
        SgxStencilOp op;

        if (!sgx_compare(r->stencil_func, r->stencil_ref & m, st & m)) {
            op = r->stencil_fail;
            pass = false;
        } else if (!sgx_compare(r->depth_func, zi, zd)) {
            op = r->depth_fail;
            pass = false;
        } else {
            op = r->depth_pass;
            if (r->depth_write) {
                zd = zi;
            }
        }
        st = (st & ~r->stencil_write_mask)
             | (sgx_stencil_apply(op, st, r->stencil_ref)
                & r->stencil_write_mask);
        v = GUINT32_TO_LE((uint32_t)st << 24 | zd);
        memcpy(p, &v, 4);
        return pass;
    }
}

/* ---- fragments ---- */

static void store_input(uint32_t *pa, uint32_t d, const float *v)
{
    unsigned dst = SGX_FIN_DST(d), comps = SGX_FIN_COMPS(d);

    for (unsigned k = 0; k < comps; k++) {
        switch (SGX_FIN_FORMAT(d)) {
        case SGX_REG_F32:
            pa[dst + k] = f32_to_bits(v[k]);
            break;
        case SGX_REG_F16:
            if (!(k & 1)) {
                pa[dst + k / 2] = 0;
            }
            pa[dst + k / 2] |= (uint32_t)gemu_float_to_half(v[k])
                               << (16 * (k & 1));
            break;
        default: {
            float f = fminf(fmaxf(v[k], 0.0f), 1.0f);
            if (k == 0) {
                pa[dst] = 0;
            }
            pa[dst] |= (uint32_t)lrintf(f * 255.0f) << (8 * k);
            break;
        }
        }
    }
}

static void load_output(DrawCtx *c, UsseRun *run, unsigned inst,
                        float rgba[4])
{
    const SgxProgram *fp = c->fp;
    UsseBank bank = fp->flags & SGX_PROG_OUT_O ? USSE_BANK_OUTPUT
                                                : USSE_BANK_PA;
    unsigned r = fp->out_reg;

    for (unsigned k = 0; k < 4; k++) {
        switch (fp->out_fmt) {
        case SGX_REG_F32:
            rgba[k] = bits_to_f32(usse_run_reg(run, inst, bank, r + k));
            break;
        case SGX_REG_F16:
            rgba[k] = gemu_half_to_float(usse_run_reg(run, inst, bank,
                                                   r + k / 2)
                                      >> (16 * (k & 1)));
            break;
        default:
            rgba[k] = ((usse_run_reg(run, inst, bank, r) >> (8 * k))
                       & 0xff) / 255.0f;
            break;
        }
    }
}

static void flush_quads(DrawCtx *c)
{
    Sgx543State *s = c->s;
    UsseLaunch l = {
        .instances = c->nquads * 4,
        .pa = c->pa,
        .pa_words = c->pa_words,
        .helper = c->helper,
    };
    bool unorm = s->color_format == SGX_COLOR_U8U8U8U8_ABGR
                 || s->color_format == SGX_COLOR_U5U6U5_BGR;
    UsseRun *run;

    if (!c->nquads || c->abort) {
        c->nquads = 0;
        return;
    }
    if (!run_program(c, USSE_STAGE_FRAGMENT, c->fp->primary, c->fsa, &l,
                     &run) || c->abort) {
        /* a trap, or a bad texture or fault in SMP: nothing is stored */
        usse_run_free(run);
        c->abort = true;
        c->nquads = 0;
        return;
    }
    for (unsigned q = 0; q < c->nquads; q++) {
        const RasterQuad *qd = &c->quads[q];

        for (unsigned i = 0; i < 4; i++) {
            unsigned inst = q * 4 + i;
            int x = qd->x + (i & 1), y = qd->y + (i >> 1);
            float src[4], dst[4], out[4];

            if (!(qd->mask & (1u << i)) || usse_run_killed(run, inst)) {
                continue;
            }
            load_output(c, run, inst, src);
            if (unorm) {
                for (int k = 0; k < 4; k++) {
                    src[k] = fminf(fmaxf(src[k], 0.0f), 1.0f);
                }
            }
            /* the pixel's colour goes to each covered sample */
            for (unsigned k = 0; k < s->pattern->count; k++) {
                float z = c->qz[q][i][k];
                uint8_t *p;

                if (!(qd->samples[i] & (1u << k))) {
                    continue;
                }
                if (c->late_z) {
                    unsigned dx, dy;

                    /* the shader's depth, if it wrote one, for all */
                    usse_run_depth(run, inst, &z);
                    sgx_depth_coord(s, x, y, k, &dx, &dy);
                    if (!depth_stencil(c, dx, dy, z)) {
                        continue;
                    }
                }
                p = s->msaa ? sgx_sample_ptr(s, x, y, k)
                            : c->color + sgx_color_offset(s, x, y);
                sgx_color_load(s->color_format, p, dst);
                sgx_blend(&s->blend, src, dst, out);
                sgx_color_store(s->color_format, p, out);
            }
        }
    }
    usse_run_free(run);
    c->nquads = 0;
}

static void interp(const DrawCtx *c, const float bary[3], unsigned reg,
                   unsigned comps, float *out)
{
    float w[3], sum = 0.0f;

    for (int j = 0; j < 3; j++) {
        w[j] = bary[j] * c->sv[j].inv_w;
        sum += w[j];
    }
    for (unsigned k = 0; k < comps; k++) {
        float v = 0.0f;
        for (int j = 0; j < 3; j++) {
            v += w[j] * c->cv[j]->var[reg - 4 + k];
        }
        out[k] = sum != 0.0f ? v / sum : 0.0f;
    }
}

/* Screen-space barycentric weights of (x, y) in triangle @v. */
static void bary_at(const RasterVert v[3], float x, float y, float b[3])
{
    float area = raster_triangle_area(v);

    if (area == 0.0f) {
        b[0] = 1.0f;
        b[1] = b[2] = 0.0f;
        return;
    }
    b[0] = ((v[1].x - x) * (v[2].y - y) - (v[2].x - x) * (v[1].y - y))
           / area;
    b[1] = ((v[2].x - x) * (v[0].y - y) - (v[0].x - x) * (v[2].y - y))
           / area;
    b[2] = 1.0f - b[0] - b[1];
}

static void raster_quad(void *opaque, const RasterQuad *q)
{
    DrawCtx *c = opaque;
    const Sgx543State *s = c->s;
    const RasterSamples *pat = s->pattern;
    unsigned slot, mask = q->mask;
    uint8_t samples[4];
    float z[4][4];

    if (c->abort) {
        return;
    }
    memcpy(samples, q->samples, sizeof(samples));
    for (unsigned i = 0; i < 4; i++) {
        int x = q->x + (i & 1), y = q->y + (i >> 1);

        for (unsigned k = 0; k < pat->count; k++) {
            float b[3];
            unsigned dx, dy;

            if (pat->count == 1) {
                memcpy(b, q->bary[i], sizeof(b));
            } else {
                /* the depth at the sample */
                bary_at(c->sv, x + 0.5f + pat->pos[k][0] / 16.0f,
                        y + 0.5f + pat->pos[k][1] / 16.0f, b);
            }
            z[i][k] = b[0] * c->sv[0].z + b[1] * c->sv[1].z
                      + b[2] * c->sv[2].z;
            sgx_depth_coord(s, x, y, k, &dx, &dy);
            if (!c->late_z && (samples[i] & (1u << k))
                && !depth_stencil(c, dx, dy, z[i][k])) {
                samples[i] &= ~(1u << k);
            }
        }
        if (!samples[i]) {
            mask &= ~(1u << i);
        }
    }
    if (!mask) {
        return;
    }
    slot = c->nquads++;
    c->quads[slot] = *q;
    c->quads[slot].mask = mask;
    memcpy(c->quads[slot].samples, samples, sizeof(samples));
    memcpy(c->qz[slot], z, sizeof(z));
    for (unsigned i = 0; i < 4; i++) {
        c->helper[slot * 4 + i] = !(mask & (1u << i));
        memset(c->pa + (slot * 4 + i) * c->pa_words, 0, c->pa_words * 4);
    }
    for (unsigned k = 0; k < c->fp->ninputs; k++) {
        uint32_t d = c->fp->inputs[k];
        float v[4][4] = { { 0 } };

        if (SGX_FIN_KIND(d) == 1) {
            /* a non-dependent read: the coordinates at the four pixels
               give the differences across the quad for the LOD */
            const uint8_t *data = NULL, *pal = NULL;
            const SgxTexture *t = unit_texture(c, SGX_FIN_UNIT(d), &data,
                                               &pal);
            float uv[4][2];

            if (c->abort) {
                c->nquads--;
                return;
            }
            for (unsigned i = 0; i < 4; i++) {
                interp(c, q->bary[i], SGX_FIN_SRC(d), 2, uv[i]);
            }
            for (unsigned i = 0; t && i < 4; i++) {
                unsigned row = i & 2, col = i & 1;
                SgxTexLookup l = { .dim = 2 };

                for (int a = 0; a < 2; a++) {
                    l.coord[a] = uv[i][a];
                    l.dx[a] = uv[row + 1][a] - uv[row][a];
                    l.dy[a] = uv[2 + col][a] - uv[col][a];
                }
                sgx_tex_sample(t, data, pal, &l, v[i]);
            }
        } else {
            for (unsigned i = 0; i < 4; i++) {
                interp(c, q->bary[i], SGX_FIN_SRC(d), SGX_FIN_COMPS(d),
                       v[i]);
            }
        }
        for (unsigned i = 0; i < 4; i++) {
            store_input(c->pa + (slot * 4 + i) * c->pa_words, d, v[i]);
        }
    }
    if (c->nquads == QUAD_BATCH) {
        flush_quads(c);
    }
}

/* ---- triangles ---- */

/* The shared rasteriser's parameters: the surface, SGX's snapping and
   sample pattern. */
static RasterParams raster_params(const Sgx543State *s)
{
    return (RasterParams) {
        .x1 = s->width,
        .y1 = s->height,
        .subpixel_bits = SGX_SUBPIXEL_BITS,
        .samples = s->pattern,
    };
}

static float guard_band(const DrawCtx *c)
{
    return c->s->viewport.enable ? 64.0f : 262144.0f;
}

/*
 * Distance to the clip planes: a guard band around x and y, then w > 0.
 * The guard planes come first: they cut an edge that crosses w = 0 well
 * away from it, where x / w and y / w are still accurate.
 */
static float plane_dist(const ClipVert *v, int plane, float guard)
{
    switch (plane) {
    case 0:
        return guard * v->pos[3] - v->pos[0];
    case 1:
        return guard * v->pos[3] + v->pos[0];
    case 2:
        return guard * v->pos[3] - v->pos[1];
    case 3:
        return guard * v->pos[3] + v->pos[1];
    default:
        return v->pos[3] - 1e-6f;
    }
}

static unsigned clip_polygon(ClipVert *poly, unsigned n, unsigned nvar,
                             float guard)
{
    ClipVert tmp[MAX_CLIP_VERTS];

    for (int plane = 0; plane < 5 && n; plane++) {
        unsigned m = 0;

        for (unsigned i = 0; i < n; i++) {
            const ClipVert *a = &poly[i], *b = &poly[(i + 1) % n];
            float da = plane_dist(a, plane, guard);
            float db = plane_dist(b, plane, guard);

            if (da >= 0 && m < MAX_CLIP_VERTS) {
                tmp[m++] = *a;
            }
            if ((da >= 0) != (db >= 0) && m < MAX_CLIP_VERTS) {
                float t = da / (da - db);
                ClipVert *o = &tmp[m++];
                for (int k = 0; k < 4; k++) {
                    o->pos[k] = a->pos[k] + (b->pos[k] - a->pos[k]) * t;
                }
                for (unsigned k = 0; k < nvar; k++) {
                    o->var[k] = a->var[k] + (b->var[k] - a->var[k]) * t;
                }
            }
        }
        memcpy(poly, tmp, sizeof(ClipVert) * m);
        n = m;
    }
    return n;
}

static void to_screen(const DrawCtx *c, const ClipVert *v, RasterVert *o)
{
    const SgxViewport *vp = &c->s->viewport;
    float iw = 1.0f / v->pos[3];

    o->inv_w = iw;
    if (vp->enable) {
        o->x = v->pos[0] * iw * vp->xs + vp->xo;
        o->y = v->pos[1] * iw * vp->ys + vp->yo;
        o->z = v->pos[2] * iw * vp->zs + vp->zo;
    } else {
        /* UNVERIFIED: disabled = x/w, y/w, z/w are window coordinates */
        o->x = v->pos[0] * iw;
        o->y = v->pos[1] * iw;
        o->z = v->pos[2] * iw;
    }
}

/* @v[0..2]: the vertices' outputs, o0..o3 then the varyings */
static void draw_triangle(DrawCtx *c, const float *v0, const float *v1,
                          const float *v2)
{
    Sgx543State *s = c->s;
    RasterParams rp = raster_params(s);
    ClipVert poly[MAX_CLIP_VERTS];
    const float *v[3] = { v0, v1, v2 };
    unsigned n;
    float guard = guard_band(c);

    for (int i = 0; i < 3; i++) {
        memcpy(poly[i].pos, v[i], 4 * sizeof(float));
        memcpy(poly[i].var, v[i] + 4, c->nvar * sizeof(float));
    }
    n = clip_polygon(poly, 3, c->nvar, guard);
    for (unsigned i = 1; i + 1 < n && !c->abort; i++) {
        float area;

        c->cv[0] = &poly[0];
        c->cv[1] = &poly[i];
        c->cv[2] = &poly[i + 1];
        for (int j = 0; j < 3; j++) {
            to_screen(c, c->cv[j], &c->sv[j]);
        }
        area = raster_triangle_area(c->sv);
        if ((s->raster.cull == SGX_CULL_CW && area > 0)
            || (s->raster.cull == SGX_CULL_CCW && area < 0)) {
            continue;
        }
        raster_triangle(c->sv, &rp, raster_quad, c);
        flush_quads(c);
    }
}

/* ---- lines and points ---- */

/*
 * Rasterise a quadrilateral (corners in order around it) as the
 * triangles (0, 1, 2) and (0, 2, 3); the top-left rule gives each pixel
 * on the shared diagonal to one of them.  @cv: the vertex whose
 * varyings each corner carries.
 */
static void raster_quadrilateral(DrawCtx *c, const RasterVert corner[4],
                                 const ClipVert *const cv[4])
{
    RasterParams rp = raster_params(c->s);

    for (int t = 0; t < 2 && !c->abort; t++) {
        const int idx[3] = { 0, 1 + t, 2 + t };

        for (int j = 0; j < 3; j++) {
            c->sv[j] = corner[idx[j]];
            c->cv[j] = cv[idx[j]];
        }
        raster_triangle(c->sv, &rp, raster_quad, c);
    }
    flush_quads(c);
}

/* Clip a segment against w > 0 and the guard band; false if nothing is
   left. */
static bool clip_segment(ClipVert *a, ClipVert *b, unsigned nvar,
                         float guard)
{
    for (int plane = 0; plane < 5; plane++) {
        float da = plane_dist(a, plane, guard);
        float db = plane_dist(b, plane, guard);
        ClipVert *out = da < 0 ? a : b;
        const ClipVert *in = da < 0 ? b : a;
        float din = da < 0 ? db : da, dout = da < 0 ? da : db, f;

        if (isnan(da) || isnan(db) || (da < 0 && db < 0)) {
            return false;
        }
        if (da >= 0 && db >= 0) {
            continue;
        }
        /* the outside end moves onto the plane */
        f = din / (din - dout);
        for (int k = 0; k < 4; k++) {
            out->pos[k] = in->pos[k] + (out->pos[k] - in->pos[k]) * f;
        }
        for (unsigned k = 0; k < nvar; k++) {
            out->var[k] = in->var[k] + (out->var[k] - in->var[k]) * f;
        }
    }
    return true;
}

/*
 * A line of @width pixels (docs/devel/sgx543.md, "Lines and points"):
 * the parallelogram around the segment, offset by width / 2 across the
 * major axis, rasterised with the triangle rules.  UNVERIFIED: SGX's
 * line rules.
 */
static void draw_line(DrawCtx *c, const float *v0, const float *v1,
                      float width)
{
    ClipVert a, b;
    RasterVert sa, sb, corner[4];
    const ClipVert *cv[4] = { &a, &b, &b, &a };
    float ox = 0, oy = 0;

    memcpy(a.pos, v0, 4 * sizeof(float));
    memcpy(a.var, v0 + 4, c->nvar * sizeof(float));
    memcpy(b.pos, v1, 4 * sizeof(float));
    memcpy(b.var, v1 + 4, c->nvar * sizeof(float));
    if (!clip_segment(&a, &b, c->nvar, guard_band(c))) {
        return;
    }
    to_screen(c, &a, &sa);
    to_screen(c, &b, &sb);
    if (fabsf(sb.x - sa.x) >= fabsf(sb.y - sa.y)) {
        oy = width * 0.5f;      /* x-major: a band of rows */
    } else {
        ox = width * 0.5f;
    }
    corner[0] = sa, corner[1] = sb, corner[2] = sb, corner[3] = sa;
    corner[0].x -= ox, corner[0].y -= oy;
    corner[1].x -= ox, corner[1].y -= oy;
    corner[2].x += ox, corner[2].y += oy;
    corner[3].x += ox, corner[3].y += oy;
    raster_quadrilateral(c, corner, cv);
}

/*
 * A point: a square of @size pixels centred on the vertex (raster_point),
 * its varyings and depth those of the vertex.  UNVERIFIED: the rules; no
 * sprite coordinates.  Points with w <= 0 or outside the guard band are
 * dropped.
 */
static void draw_point(DrawCtx *c, const float *v, float size)
{
    RasterParams rp = raster_params(c->s);
    ClipVert p;
    RasterVert sp;

    memcpy(p.pos, v, 4 * sizeof(float));
    memcpy(p.var, v + 4, c->nvar * sizeof(float));
    for (int plane = 0; plane < 5; plane++) {
        if (!(plane_dist(&p, plane, guard_band(c)) >= 0)) {
            return;
        }
    }
    to_screen(c, &p, &sp);
    /* weights (1, 0, 0); a degenerate triangle gives the same at samples */
    for (int j = 0; j < 3; j++) {
        c->sv[j] = sp;
        c->cv[j] = &p;
    }
    raster_point(&sp, size, &rp, raster_quad, c);
    flush_quads(c);
}

/* Point size: the program's PSIZE output (its last), else the raster
   state's width; at least 1 pixel (UNVERIFIED: the range). */
static float point_size(const DrawCtx *c, const float *v)
{
    float size = c->s->raster.point_width;

    if (c->vp->flags & SGX_PROG_PSIZE) {
        size = v[c->vp->vout - 1];
    }
    if (!(size >= 1.0f)) {
        return 1.0f;
    }
    return fminf(size, SGX_MAX_POINT_SIZE);
}

/* Primitives from the vertices' outputs (@vstride floats each). */
static void assemble(DrawCtx *c, unsigned prim, const float *vout,
                     size_t vstride, uint32_t count)
{
    float width = c->s->raster.point_width;
#define V(i) (vout + (size_t)(i) * vstride)

    switch (prim) {
    case SGX_PRIM_POINTS:
        for (uint32_t i = 0; i < count && !c->abort; i++) {
            draw_point(c, V(i), point_size(c, V(i)));
        }
        break;
    case SGX_PRIM_LINES:
        for (uint32_t i = 0; i + 1 < count && !c->abort; i += 2) {
            draw_line(c, V(i), V(i + 1), width);
        }
        break;
    case SGX_PRIM_LINE_STRIP:
        for (uint32_t i = 0; i + 1 < count && !c->abort; i++) {
            draw_line(c, V(i), V(i + 1), width);
        }
        break;
    case SGX_PRIM_TRIANGLE_EDGES:
        /* UNVERIFIED: every edge is drawn (no edge-enable flags) */
        for (uint32_t i = 0; i + 2 < count && !c->abort; i += 3) {
            draw_line(c, V(i), V(i + 1), width);
            draw_line(c, V(i + 1), V(i + 2), width);
            draw_line(c, V(i + 2), V(i), width);
        }
        break;
    default: {
        unsigned ntri = prim == SGX_PRIM_TRIANGLES ? count / 3 : count - 2;

        for (unsigned t = 0; t < ntri && !c->abort; t++) {
            unsigned a, b, d;
            if (prim == SGX_PRIM_TRIANGLES) {
                a = 3 * t, b = 3 * t + 1, d = 3 * t + 2;
            } else if (prim == SGX_PRIM_TRIANGLE_STRIP) {
                /* odd triangles swap to keep the winding */
                a = t + (t & 1), b = t + 1 - (t & 1), d = t + 2;
            } else {
                a = 0, b = t + 1, d = t + 2;
            }
            draw_triangle(c, V(a), V(b), V(d));
        }
        break;
    }
    }
#undef V
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
    if (!c->vp->valid || !c->fp->valid) {
        sgx_raise_error(s, SGX_ERR_NO_PROGRAM, "DRAW without %s program",
                        c->vp->valid ? "a fragment" : "a vertex");
        return;
    }
    if (count > MAX_INDICES || instances > MAX_INSTANCES
        || (uint64_t)count * instances > MAX_INDICES) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "DRAW of %u indices x %u",
                        count, instances);
        return;
    }
    if (count < (prim == SGX_PRIM_POINTS ? 1
                 : prim == SGX_PRIM_LINES || prim == SGX_PRIM_LINE_STRIP ? 2
                 : 3) || !instances) {
        return;
    }
    for (unsigned k = 0; k < c->fp->ninputs; k++) {
        if (SGX_FIN_SRC(c->fp->inputs[k])
            + (SGX_FIN_KIND(c->fp->inputs[k]) ? 2
               : SGX_FIN_COMPS(c->fp->inputs[k])) > c->vp->vout) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "fragment input reads o%u, beyond the vertex "
                            "program's %u outputs",
                            SGX_FIN_SRC(c->fp->inputs[k]), c->vp->vout);
            return;
        }
    }

    /* surfaces */
    c->bpp = sgx_color_bpp(s->color_format);
    if (!s->msaa) {
        c->color = sgx_dma_map(s, s->color_base, sgx_color_bytes(s), true);
        if (!c->color) {
            return;
        }
    }
    if (s->depth_format != SGX_DEPTH_NONE) {
        c->depth = sgx_dma_map(s, s->depth_base, sgx_depth_bytes(s), true);
        if (!c->depth) {
            return;
        }
    }
    c->late_z = c->fp->flags & SGX_PROG_DISCARD;
    c->nvar = c->vp->vout - 4;
    vstride = c->vp->vout;
    if ((uint64_t)count * vstride > MAX_VERTEX_FLOATS) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "DRAW of %u indices x %u outputs is too large",
                        count, c->vp->vout);
        return;
    }
    c->pa_words = 1;
    for (unsigned k = 0; k < c->fp->ninputs; k++) {
        c->pa_words = MAX(c->pa_words, SGX_FIN_DST(c->fp->inputs[k]) + 4);
    }
    c->pa_words = MIN(c->pa_words, USSE_MAX_REGS);

    /* indices */
    idx = g_new(uint32_t, count);
    if (index_format == 0) {
        g_autofree uint16_t *i16 = g_new(uint16_t, count);
        if (!sgx_dma_read(s, index_va, i16, count * 2)) {
            return;
        }
        for (uint32_t i = 0; i < count; i++) {
            idx[i] = GUINT16_FROM_LE(i16[i]);
        }
    } else {
        if (!sgx_dma_read(s, index_va, idx, count * 4)) {
            return;
        }
        for (uint32_t i = 0; i < count; i++) {
            idx[i] = GUINT32_FROM_LE(idx[i]);
        }
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
        /* the vertex program, one instance per index, in batches */
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
                    return;
                }
            }
            if (!run_program(c, USSE_STAGE_VERTEX, c->vp->primary, c->vsa,
                             &l, &run) || c->abort) {
                usse_run_free(run);
                return;
            }
            for (uint32_t i = 0; i < n; i++) {
                float *v = vout + (size_t)(first + i) * vstride;
                for (unsigned k = 0; k < vstride; k++) {
                    v[k] = bits_to_f32(
                        usse_run_reg(run, i, USSE_BANK_OUTPUT, k));
                }
            }
            usse_run_free(run);
        }

        /* primitive assembly */
        assemble(c, prim, vout, vstride, count);
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
