/*
 * The texture unit's texels and filters (texture-int.h): texel reads
 * through the instruction's TLB (faults as texture.c's head says),
 * depth compare, the TIC's sources, sRGB, border texels, wrap modes and
 * the filter of one level.
 *
 * - Texels: decoded (texture-format.c), depth compare per texel, the
 *   TIC's X/Y/Z/W sources, sRGB to linear for UNORM colour channels when
 *   both the TIC and the TSC say SRGB_CONVERSION, then filtered; integer
 *   channels take the texel of largest weight.  Border colour (TSC_4-7,
 *   the sRGB bytes of TSC_2/3 for sRGB views) is in the output space
 *   (not swizzled, UNVERIFIED).  Cube maps sample the face of the major
 *   axis with clamp to edge (no seamless filtering on G84).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include <math.h>
#include "hw/nv50/nv50.h"
#include "texture-int.h"

#define BORDER_INDEX            INT_MIN

/* --- memory -------------------------------------------------------------- */

/*
 * The VA of [@addr, @addr + @len) of the texture DMA object, when it is
 * a VM one holding it (its window as nv50_ctxdma_rw checks it); false
 * for the slow path, which reports the rest.
 */
static bool tex_dma_va(const Tex *t, uint64_t addr, size_t len, uint64_t *va)
{
    const NV50CtxDma *d = &t->dma;
    uint64_t a = d->start + addr;

    if (d->target != NV50_DMA_VM || addr > d->limit || a < d->start ||
        a + len - 1 > d->limit || a + len - 1 < a) {
        return false;
    }
    *va = a;
    return true;
}

static bool tex_read(Tex *t, uint64_t addr, void *buf, size_t len)
{
    NV50Fault f;
    uint64_t va = addr;

    if (t->fault) {
        memset(buf, 0, len);
        return false;
    }
    /* through the TLB: the VM's pages, also under a VM DMA object */
    if (!t->has_dma || tex_dma_va(t, addr, len, &va)) {
        const uint8_t *p = nv50_tlb_vram(t->tlb, TEX_TLB_ENTRIES,
                                         t->c->s->vram, t->c->s->vram_size,
                                         va, len);

        if (p) {
            memcpy(buf, p, len);
            return true;
        }
        if (nv50_tlb_rw(t->c, t->tlb, TEX_TLB_ENTRIES, va, buf, len, false,
                        &f)) {
            return true;
        }
    }
    /* the slow path reports the fault */
    if (t->has_dma ?
        nv50_gr_rw(t->c, &t->dma, addr, buf, len, false,
                   NV50_VM_CLIENT_TEXTURE, TEX_SUBCLIENT,
                   NV50_GR_TRAP_TEXTURE) :
        nv50_gr_vm_rw(t->c, addr, buf, len, false, NV50_VM_CLIENT_TEXTURE,
                      TEX_SUBCLIENT, NV50_GR_TRAP_TEXTURE)) {
        return true;
    }
    t->fault = true;
    memset(buf, 0, len);
    return false;
}

/* --- texels -------------------------------------------------------------- */

static bool compare(unsigned func, float ref, float d)
{
    switch (func) {
    case 0:
        return false;
    case 1:
        return ref < d;
    case 2:
        return ref == d;
    case 3:
        return ref <= d;
    case 4:
        return ref > d;
    case 5:
        return ref != d;
    case 6:
        return ref >= d;
    default:
        return true;
    }
}

/* the components @comp through the X/Y/Z/W sources into @out */
static void swizzle(const Tex *t, const uint32_t comp[4], uint32_t out[4])
{
    for (unsigned k = 0; k < 4; k++) {
        unsigned src = t->v.src[k];

        if (src >= NV50_TS_R && src <= NV50_TS_A) {
            out[k] = comp[src - NV50_TS_R];
            if (t->srgb_chan[k]) {
                out[k] = f32_to_bits(nv50_srgb_to_linear(bits_to_f32(out[k])));
            }
        } else if (src == NV50_TS_ONE_INT) {
            out[k] = 1;
        } else if (src == NV50_TS_ONE_FLOAT) {
            out[k] = f32_to_bits(1.0f);
        } else {
            out[k] = 0;     /* ZERO, and the unnamed 1 (UNVERIFIED) */
        }
    }
}

/* the depth a compare reads: the component X reads (R if none) */
static unsigned depth_comp(const Tex *t)
{
    unsigned src = t->v.src[0];

    return src >= NV50_TS_R && src <= NV50_TS_A ? src - NV50_TS_R : 0;
}

static void compared(const Tex *t, float depth, float dref, uint32_t out[4])
{
    uint32_t comp[4];
    float r = compare(t->s.compare_func, dref, depth) ? 1.0f : 0.0f;

    for (unsigned k = 0; k < 4; k++) {
        comp[k] = f32_to_bits(r);
    }
    swizzle(t, comp, out);
}

static void border_texel(const Tex *t, bool cmp, float dref, uint32_t out[4])
{
    if (cmp) {
        compared(t, t->s.border[0], dref, out);
        return;
    }
    memcpy(out, t->s.border_bits, 4 * sizeof(out[0]));
    if (t->v.srgb && t->s.srgb) {
        for (unsigned k = 0; k < 3; k++) {
            out[k] = f32_to_bits(t->s.srgb_border[k]);
        }
    }
}

static inline void texel(Tex *t, unsigned l, int x, int y, int z,
                         int layer, bool cmp, float dref, uint32_t out[4])
{
    const NV50TexView *v = &t->v;
    const NV50TexFormat *f = &v->fmt;
    uint8_t el[16];
    uint32_t comp[4];
    uint64_t off;

    if (!(t->walk_made & 1u << l)) {
        nv50_surface_walk(&v->level_sf[l], &t->walk[l]);
        t->walk_made |= 1u << l;
    }
    /* elements of one texel (all but the compressed and the 2x1 ones):
       no division */
    off = v->addr + (uint64_t)layer * v->layer_stride + v->level_off[l] +
          nv50_surface_walk_offset(&t->walk[l],
                                   (f->bw == 1 ? x : x / f->bw) * f->bytes,
                                   f->bh == 1 ? y : y / f->bh, z);
    tex_read(t, off, el, f->bytes);
    if (t->dec.plain8) {
        nv50_tex_decode8(&t->dec, el, comp);
    } else {
        nv50_tex_decode(v, el, x % f->bw, y % f->bh, comp);
    }
    if (cmp) {
        float d = bits_to_f32(comp[depth_comp(t)]);

        /* UNVERIFIED: dref is clamped to [0, 1] for UNORM depth */
        if (v->type[depth_comp(t)] == NV50_TT_UNORM) {
            dref = MIN(MAX(dref, 0.0f), 1.0f);
        }
        compared(t, d, dref, out);
        return;
    }
    swizzle(t, comp, out);
}

void nv50_tex_texel(Tex *t, unsigned l, int x, int y, int z, int layer,
                    bool cmp, float dref, uint32_t out[4])
{
    texel(t, l, x, y, z, layer, cmp, dref, out);
}

/* --- filtering ----------------------------------------------------------- */

static void acc_add(const Tex *t, TexAcc *a, const uint32_t tx[4], float w)
{
    for (unsigned k = 0; k < 4; k++) {
        if (t->int_chan[k]) {
            if (w > a->best[k]) {
                a->best[k] = w;
                a->bits[k] = tx[k];
            }
        } else {
            a->f[k] += w * bits_to_f32(tx[k]);
        }
    }
}

static int wrap_index(unsigned mode, int i, int size)
{
    int m;

    switch (mode) {
    case NV50_WRAP_REPEAT:
        if ((size & (size - 1)) == 0) {
            return i & (size - 1);      /* the same, without a division */
        }
        m = i % size;
        return m < 0 ? m + size : m;
    case NV50_WRAP_MIRROR:
        m = i % (2 * size);
        m = m < 0 ? m + 2 * size : m;
        return m >= size ? 2 * size - 1 - m : m;
    case NV50_WRAP_CLAMP_EDGE:
    case NV50_WRAP_MIRROR_ONCE_EDGE:
        return MIN(MAX(i, 0), size - 1);
    default:
        /* border, and GL_CLAMP's half border (the coordinate is clamped) */
        return i < 0 || i >= size ? BORDER_INDEX : i;
    }
}

/*
 * One dimension: texel coordinate @u (texels) of a level @size texels
 * wide to the indices and weight of the footprint.
 */
static void wrap(unsigned mode, float u, int size, bool linear, int *i0,
                 int *i1, float *frac)
{
    if (mode >= NV50_WRAP_MIRROR_ONCE_EDGE) {
        u = fabsf(u);
    }
    if (mode == NV50_WRAP_CLAMP_OGL || mode == NV50_WRAP_MIRROR_ONCE_OGL) {
        u = MIN(MAX(u, 0.0f), (float)size);
    }
    if (!isfinite(u)) {
        u = 0.0f;
    }
    u = MIN(MAX(u, -1e9f), 1e9f);
    if (!linear) {
        int i = (int)floorf(u);

        if (mode == NV50_WRAP_CLAMP_OGL || mode == NV50_WRAP_MIRROR_ONCE_OGL) {
            i = MIN(i, size - 1);
        }
        *i0 = *i1 = wrap_index(mode, i, size);
        *frac = 0.0f;
        return;
    }
    u -= 0.5f;
    *i0 = (int)floorf(u);
    *frac = u - floorf(u);
    *i1 = wrap_index(mode, *i0 + 1, size);
    *i0 = wrap_index(mode, *i0, size);
}

/*
 * nv50_tex_filter_level's bilinear filter of a 2D level (no compare,
 * no border texel, no integer channel): its weights and sums in its
 * order, without its per-corner choices.
 */
static void filter_2d(Tex *t, TexAcc *a, unsigned l, const int i0[3],
                      const int i1[3], const float fr[3], int layer,
                      float weight)
{
    for (unsigned corner = 0; corner < 4; corner++) {
        float w = weight;
        uint32_t tx[4];

        w *= corner & 1 ? fr[0] : 1.0f - fr[0];
        w *= corner & 2 ? fr[1] : 1.0f - fr[1];
        if (w == 0.0f) {
            continue;
        }
        texel(t, l, corner & 1 ? i1[0] : i0[0], corner & 2 ? i1[1] : i0[1],
              0, layer, false, 0.0f, tx);
        for (unsigned k = 0; k < 4; k++) {
            a->f[k] += w * bits_to_f32(tx[k]);
        }
    }
}

void nv50_tex_filter_level(Tex *t, TexAcc *a, unsigned l, const float c[3],
                           int layer, bool linear, bool cmp, float dref,
                           float weight)
{
    const NV50TexView *v = &t->v;
    unsigned n = coord_dims(v->kind);
    int size[3] = { v->level_w[l], v->level_h[l], v->level_d[l] };
    int i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
    float fr[3] = { 0, 0, 0 };
    bool cube = is_cube(v->kind);

    for (unsigned d = 0; d < n; d++) {
        float u = v->normalized ? c[d] * size[d] : c[d];

        u += t->offs[d];
        wrap(cube ? NV50_WRAP_CLAMP_EDGE : t->s.wrap[d], u, size[d], linear,
             &i0[d], &i1[d], &fr[d]);
    }
    if (linear && n == 2 && !cmp && !t->any_int &&
        i0[0] != BORDER_INDEX && i1[0] != BORDER_INDEX &&
        i0[1] != BORDER_INDEX && i1[1] != BORDER_INDEX) {
        filter_2d(t, a, l, i0, i1, fr, layer, weight);
        return;
    }
    for (unsigned corner = 0; corner < (linear ? 1u << n : 1u); corner++) {
        int idx[3];
        float w = weight;
        bool border = false;
        uint32_t tx[4];

        for (unsigned d = 0; d < 3; d++) {
            bool hi = d < n && linear && (corner >> d & 1);

            idx[d] = hi ? i1[d] : i0[d];
            if (d < n && linear) {
                w *= hi ? fr[d] : 1.0f - fr[d];
            }
            border |= idx[d] == BORDER_INDEX;
        }
        if (w == 0.0f && linear) {
            continue;
        }
        if (border) {
            border_texel(t, cmp, dref, tx);
        } else {
            nv50_tex_texel(t, l, idx[0], idx[1], idx[2], layer, cmp, dref,
                           tx);
        }
        acc_add(t, a, tx, w);
    }
}
