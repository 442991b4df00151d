/*
 * SGX543 fragments: the rasteriser's quads get their depth/stencil
 * test (early, or late after a program that may discard), their
 * perspective-correct varyings and non-dependent texture reads as
 * fragment program inputs; the program runs on batches of quads, its
 * output blended and stored to each covered pixel or sample.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/half.h"
#include "draw-int.h"

#include <math.h>

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

void sgx_draw_flush_quads(DrawCtx *c)
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
    if (!sgx_draw_run_program(c, USSE_STAGE_FRAGMENT, c->fp->primary,
                              c->fsa, &l, &run) || c->abort) {
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

/*
 * The depth of each pixel's samples (@z), and the early depth/stencil
 * test (unless late Z) taking the samples that fail out of @samples;
 * the mask of the pixels with a sample left.
 */
static unsigned quad_depth(DrawCtx *c, const RasterQuad *q,
                           uint8_t samples[4], float z[4][4])
{
    const Sgx543State *s = c->s;
    const RasterSamples *pat = s->pattern;
    unsigned mask = q->mask;

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
    return mask;
}

/* Fragment input @d at the quad's four pixels; false if the draw was
   aborted (a texture that faults). */
static bool quad_input(DrawCtx *c, const RasterQuad *q, uint32_t d,
                       float v[4][4])
{
    if (SGX_FIN_KIND(d) == 1) {
        /* a non-dependent read: the coordinates at the four pixels
           give the differences across the quad for the LOD */
        const uint8_t *data = NULL, *pal = NULL;
        const SgxTexture *t = sgx_draw_unit_texture(c, SGX_FIN_UNIT(d),
                                                    &data, &pal);
        float uv[4][2];

        if (c->abort) {
            return false;
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
            interp(c, q->bary[i], SGX_FIN_SRC(d), SGX_FIN_COMPS(d), v[i]);
        }
    }
    return true;
}

void sgx_draw_raster_quad(void *opaque, const RasterQuad *q)
{
    DrawCtx *c = opaque;
    unsigned slot, mask;
    uint8_t samples[4];
    float z[4][4];

    if (c->abort) {
        return;
    }
    memcpy(samples, q->samples, sizeof(samples));
    mask = quad_depth(c, q, samples, z);
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

        if (!quad_input(c, q, d, v)) {
            c->nquads--;
            return;
        }
        for (unsigned i = 0; i < 4; i++) {
            store_input(c->pa + (slot * 4 + i) * c->pa_words, d, v[i]);
        }
    }
    if (c->nquads == QUAD_BATCH) {
        sgx_draw_flush_quads(c);
    }
}
