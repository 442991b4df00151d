/*
 * The G84's texture unit for tex instructions (pipe.h: nv50_tex_sample):
 * TIC/TSC entries, texel addressing, filtering and LOD.
 *
 * - Entries: BIND_TIC/BIND_TSC of the program type map $tN/$sN to TIC
 *   and TSC indices (LINKED_TSC: the TSC index is the TIC's,
 *   UNVERIFIED); entries are 32 bytes at TIC_ADDRESS/TSC_ADDRESS in
 *   DMA_TIC/DMA_TSC, texels in DMA_TEXTURE; with no DMA object bound the
 *   addresses are VAs (UNVERIFIED, as CB uploads).  Memory: PFB client
 *   TEXTURE, a fault traps TEXTURE once per instruction and the rest of
 *   the instruction reads 0.  An unbound slot, an index past TIC_LIMIT/
 *   TSC_LIMIT or an unknown format gives 0 (logged once, UNVERIFIED).
 * - Layout (envytools g80-surface.rst): pitch (TIC_2 LAYOUT_PITCH, one
 *   level) or block-linear; levels follow each other, each with the
 *   TIC's block size auto-sized to it (nv50_surface_shrink_blocks), and
 *   subtextures (array layers, cube faces) are the levels' total rounded
 *   up to level 0's block size apart.  Levels laid out: MAP_MIP_LEVEL+1;
 *   levels sampled: G84's RES_VIEW_MIN/MAX_MIP_LEVEL (TIC_7) when TIC_4
 *   USE_TEXTURE_HEADER_V2 is set (Mesa does so on G84+), else 0 to
 *   MAP_MIP_LEVEL.
 * - Sources (texture.rst, Mesa's nv50 codegen): coordinates by texture
 *   type (1D x; 2D/RECT x y; 3D and cube x y z; 1D array x layer; 2D
 *   array x y layer; buffer x), the layer an integer, then dref when the
 *   TSC compares, then the bias (texbias) or lod (texlod, texfetch).
 *   texfetch: integers; texsize: the lod in, width, height, depth
 *   (layers, cubes) and level count out.
 * - LOD: in the FP (or with deriv) from the quad's lanes: x derivative
 *   UR - UL, y derivative LL - UL, one per quad (Mesa: bias and lod must
 *   be uniform in a quad, so the hardware computes LOD per quad);
 *   elsewhere derivatives are 0.  lambda = log2(max(|dx|, |dy|)) in
 *   texels of the base level, + shader bias, + TSC bias, clamped to the
 *   TSC's min/max; <= 0 magnifies.  Mip filters none/nearest/linear.
 * - Anisotropic filtering up to the TSC's MAX_ANISOTROPY, or the TIC's
 *   (TIC_6) when TIC_3 says USE_HEADER_OPT_CONTROL: the LOD from the
 *   footprint's minor axis (widened so major / minor is at most the
 *   maximum), ceil(ratio) probes along the major axis, averaged
 *   (aniso_taps; UNVERIFIED: the hardware's pattern is not public).
 *   The header's is how Mesa resolves an 8x surface (4x2 samples a
 *   pixel) with one bilinear tex.
 * - Multisample surfaces are 2D_NO_MIPMAP textures (1 << ms_x) x
 *   (1 << ms_y) times the pixel size (Mesa's nv50_tex.c): texfetch of
 *   a sample and the resolve's bilinear tex need nothing more.
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
#include "gemu/log.h"
#include "texture.h"
#include "tpc.h"

/* VM pages a texture instruction remembers (a bilinear quad: 4 texels) */
#define TEX_TLB_ENTRIES     8

#define TEX_SUBCLIENT           0       /* UNVERIFIED */
#define BORDER_INDEX            INT_MIN

typedef struct Tex {
    NV50GrCall *c;
    NV50TexView v;
    NV50TexSampler s;
    bool has_dma;
    NV50CtxDma dma;
    bool fault;
    bool int_chan[4];           /* output channels that are integers */
    bool srgb_chan[4];          /* output channels sRGB-converted */
    int8_t offs[3];             /* texel offsets of the instruction */
    /* the VM pages of this instruction's texels: it lasts one warp's tex
       instruction, during which the page tables are not written */
    NV50TlbEntry tlb[TEX_TLB_ENTRIES];
} Tex;

/* --- TIC / TSC ----------------------------------------------------------- */

static unsigned coord_dims(unsigned kind)
{
    switch (kind) {
    case NV50_TEX_1D:
    case NV50_TEX_1D_ARRAY:
    case NV50_TEX_1D_BUFFER:
        return 1;
    case NV50_TEX_3D:
        return 3;
    default:
        return 2;
    }
}

static bool is_array(unsigned kind)
{
    return kind == NV50_TEX_1D_ARRAY || kind == NV50_TEX_2D_ARRAY ||
           kind == NV50_TEX_CUBE_ARRAY;
}

static bool is_cube(unsigned kind)
{
    return kind == NV50_TEX_CUBE || kind == NV50_TEX_CUBE_ARRAY;
}

/* g80_max_anisotropy's ratio: 1:1, 2:1, 4:1 .. 12:1, 16:1 */
static unsigned aniso_ratio(uint32_t field)
{
    static const uint8_t ratio[8] = { 1, 2, 4, 6, 8, 10, 12, 16 };

    return ratio[field & NV50_TIC_6_MAX_ANISOTROPY_MASK];
}

bool nv50_tic_decode(const uint32_t w[8], NV50TexView *v)
{
    bool v2 = w[4] & 0x80000000u;
    unsigned map_levels;
    uint64_t sub = 0;

    memset(v, 0, sizeof(*v));
    memcpy(v->w, w, sizeof(v->w));
    v->format = w[0] & 0x3f;
    for (unsigned k = 0; k < 4; k++) {
        v->type[k] = (w[0] >> (6 + 3 * k)) & 7;
        v->src[k] = (w[0] >> (18 + 3 * k)) & 7;
    }
    if (!nv50_tex_format_info(v->format, &v->fmt)) {
        return false;
    }
    v->addr = w[1] | (uint64_t)(w[2] & 0xff) << 32;
    v->srgb = w[2] & 0x400;
    v->kind = (w[2] >> 14) & 0xf;
    v->pitch_layout = w[2] & 0x40000;
    v->block_w = MIN((w[2] >> 19) & 7, NV50_BLOCK_LOG2_MAX);
    v->block_h = MIN((w[2] >> 22) & 7, NV50_BLOCK_LOG2_MAX);
    v->block_d = MIN((w[2] >> 25) & 7, NV50_BLOCK_LOG2_MAX);
    v->normalized = w[2] & 0x80000000u;
    v->pitch = w[3] & 0xfffff;
    v->width = MAX(w[4] & 0x3fffffff, 1u);
    v->height = MAX(w[5] & 0xffff, 1u);
    v->depth = MAX((w[5] >> 16) & 0xfff, 1u);
    if (v2) {
        /* G84: HEIGHT_MSB, DEPTH_MSB (UNVERIFIED: only in the V2 header) */
        v->height |= (w[7] & 0x100) << 8;
        v->depth |= ((w[7] >> 28) & 7) << 12;
    }
    map_levels = (w[5] >> 28) + 1;
    if (v->pitch_layout || v->kind == NV50_TEX_2D_NO_MIPMAP ||
        v->kind == NV50_TEX_1D_BUFFER) {
        map_levels = 1;
    }
    v->levels = map_levels;
    v->hdr_opt = w[3] & NV50_TIC_3_USE_HEADER_OPT_CONTROL;
    v->hdr_aniso = aniso_ratio(w[6] >> NV50_TIC_6_MAX_ANISOTROPY_SHIFT);
    if (v2) {
        v->min_level = MIN(w[7] & 0xf, map_levels - 1);
        v->max_level = MIN((w[7] >> 4) & 0xf, map_levels - 1);
        v->max_level = MAX(v->max_level, v->min_level);
    } else {
        v->min_level = 0;
        v->max_level = map_levels - 1;
    }
    switch (v->kind) {
    case NV50_TEX_1D:
    case NV50_TEX_1D_BUFFER:
        v->height = v->depth = 1;
        v->layers = 1;
        break;
    case NV50_TEX_1D_ARRAY:
        v->height = 1;
        v->layers = v->depth;
        break;
    case NV50_TEX_3D:
        v->layers = 1;
        break;
    case NV50_TEX_CUBE:
    case NV50_TEX_CUBE_ARRAY:
        v->layers = 6 * v->depth;
        break;
    case NV50_TEX_2D_ARRAY:
        v->layers = v->depth;
        break;
    default:
        v->layers = 1;
        break;
    }
    for (unsigned l = 0; l < v->levels; l++) {
        NV50Surface *sf = &v->level_sf[l];
        uint32_t lw = MAX(v->width >> l, 1u), lh = MAX(v->height >> l, 1u);
        uint32_t ld = v->kind == NV50_TEX_3D ? MAX(v->depth >> l, 1u) : 1;

        v->level_w[l] = lw;
        v->level_h[l] = lh;
        v->level_d[l] = ld;
        sf->block_linear = !v->pitch_layout;
        sf->pitch = v->pitch;
        sf->width_bytes = ((lw + v->fmt.bw - 1) / v->fmt.bw) * v->fmt.bytes;
        sf->height = ((lh + v->fmt.bh - 1) / v->fmt.bh);
        sf->depth = ld;
        sf->block_w = v->block_w;
        sf->block_h = v->block_h;
        sf->block_d = v->block_d;
        nv50_surface_shrink_blocks(sf);
        v->level_off[l] = sub;
        sub += nv50_surface_size(sf);
    }
    if (!v->pitch_layout) {
        const NV50Surface *sf0 = &v->level_sf[0];
        uint64_t bb = (uint64_t)NV50_GOB_SIZE <<
                      (sf0->block_w + sf0->block_h + sf0->block_d);

        sub = (sub + bb - 1) / bb * bb;
    }
    v->layer_stride = sub;
    return true;
}

static float lod_fixed(uint32_t v, unsigned bits, bool is_signed)
{
    int32_t s = is_signed ? (int32_t)(v << (32 - bits)) >> (32 - bits)
                          : (int32_t)v;

    /* 8 fraction bits, as Mesa writes them (rnndb says radix 8) */
    return (float)s / 256.0f;
}

void nv50_tsc_decode(const uint32_t w[8], NV50TexSampler *s)
{
    memset(s, 0, sizeof(*s));
    memcpy(s->w, w, sizeof(s->w));
    for (unsigned k = 0; k < 3; k++) {
        s->wrap[k] = (w[0] >> (3 * k)) & 7;
    }
    s->compare = w[0] & 0x200;
    s->compare_func = (w[0] >> 10) & 7;
    s->srgb = w[0] & 0x2000;
    s->max_aniso = aniso_ratio(w[0] >> NV50_TSC_0_MAX_ANISOTROPY_SHIFT);
    s->mag = w[1] & 3;
    s->min = (w[1] >> 4) & 3;
    s->mip = (w[1] >> 6) & 3;
    s->lod_bias = lod_fixed((w[1] >> 12) & 0x1fff, 13, true);
    s->min_lod = lod_fixed(w[2] & 0xfff, 12, false);
    s->max_lod = lod_fixed((w[2] >> 12) & 0xfff, 12, false);
    for (unsigned k = 0; k < 4; k++) {
        s->border_bits[k] = w[4 + k];
        s->border[k] = bits_to_f32(w[4 + k]);
    }
    s->srgb_border[0] = nv50_srgb_to_linear((w[2] >> 24) / 255.0f);
    s->srgb_border[1] = nv50_srgb_to_linear(((w[3] >> 12) & 0xff) / 255.0f);
    s->srgb_border[2] = nv50_srgb_to_linear(((w[3] >> 20) & 0xff) / 255.0f);
}

/* --- memory -------------------------------------------------------------- */

static bool tex_read(Tex *t, uint64_t addr, void *buf, size_t len)
{
    NV50Fault f;

    if (t->fault) {
        memset(buf, 0, len);
        return false;
    }
    if (!t->has_dma && nv50_tlb_rw(t->c, t->tlb, TEX_TLB_ENTRIES, addr, buf,
                                   len, false, &f)) {
        return true;
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

/* entry @idx of the table at @addr in DMA object @dma (0: VAs) */
static bool entry_read(Tex *t, uint32_t dma, uint64_t addr, uint32_t idx,
                       uint32_t w[8])
{
    uint8_t b[32];
    NV50CtxDma d;
    bool ok;

    if (dma) {
        if (!nv50_gr_ctxdma(t->c, dma, &d)) {
            return false;
        }
        ok = nv50_gr_rw(t->c, &d, addr + 32ull * idx, b, 32, false,
                        NV50_VM_CLIENT_TEXTURE, TEX_SUBCLIENT,
                        NV50_GR_TRAP_TEXTURE);
    } else {
        ok = nv50_gr_vm_rw(t->c, addr + 32ull * idx, b, 32, false,
                           NV50_VM_CLIENT_TEXTURE, TEX_SUBCLIENT,
                           NV50_GR_TRAP_TEXTURE);
    }
    for (unsigned i = 0; ok && i < 8; i++) {
        w[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 |
               (uint32_t)b[4 * i + 3] << 24;
    }
    return ok;
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

/*
 * Texel (@x, @y, @z) of level @l of subtexture @layer (in range), after
 * the compare (@cmp) and the sources.
 */
static void texel(Tex *t, unsigned l, int x, int y, int z, int layer,
                  bool cmp, float dref, uint32_t out[4])
{
    const NV50TexView *v = &t->v;
    const NV50TexFormat *f = &v->fmt;
    uint8_t el[16];
    uint32_t comp[4];
    uint64_t off;

    off = v->addr + (uint64_t)layer * v->layer_stride + v->level_off[l] +
          nv50_surface_offset(&v->level_sf[l], (x / f->bw) * f->bytes,
                              y / f->bh, z);
    tex_read(t, off, el, f->bytes);
    nv50_tex_decode(v, el, x % f->bw, y % f->bh, comp);
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

/* --- filtering ----------------------------------------------------------- */

typedef struct Acc {
    float f[4];
    uint32_t bits[4];
    float best[4];
} Acc;

static void acc_add(const Tex *t, Acc *a, const uint32_t tx[4], float w)
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
 * Filter level @l at coordinates @c (normalised or texels, per the TIC)
 * into @a with weight @weight.
 */
static void filter_level(Tex *t, Acc *a, unsigned l, const float c[3],
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
            texel(t, l, idx[0], idx[1], idx[2], layer, cmp, dref, tx);
        }
        acc_add(t, a, tx, w);
    }
}

/* --- cube maps ----------------------------------------------------------- */

/* the face of the major axis of (x, y, z): 0..5 = +X -X +Y -Y +Z -Z */
static unsigned cube_face(float x, float y, float z)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);

    if (ax >= ay && ax >= az) {
        return x >= 0 ? 0 : 1;
    }
    if (ay >= az) {
        return y >= 0 ? 2 : 3;
    }
    return z >= 0 ? 4 : 5;
}

/* (x, y, z) projected on face @face: s, t in 0..1 */
static void cube_project(unsigned face, float x, float y, float z,
                         float *s, float *t)
{
    float sc, tc, ma;

    switch (face) {
    case 0:
        sc = -z, tc = -y, ma = x;
        break;
    case 1:
        sc = z, tc = -y, ma = -x;
        break;
    case 2:
        sc = x, tc = z, ma = y;
        break;
    case 3:
        sc = x, tc = -z, ma = -y;
        break;
    case 4:
        sc = x, tc = -y, ma = z;
        break;
    default:
        sc = -x, tc = -y, ma = -z;
        break;
    }
    if (ma <= 0.0f) {
        *s = *t = 0.5f;
        return;
    }
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
}

/* --- the instruction ----------------------------------------------------- */

/* lane @lane's coordinates for filtering (cube: projected on @face) */
static void lane_coords(const Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                        unsigned ncoords, unsigned lane, int face,
                        float c[3])
{
    unsigned n = is_cube(t->v.kind) ? 3 : coord_dims(t->v.kind);
    float in[3] = { 0, 0, 0 };

    for (unsigned d = 0; d < n && d < ncoords; d++) {
        in[d] = bits_to_f32(coords[d][lane]);
    }
    if (is_cube(t->v.kind)) {
        cube_project(face, in[0], in[1], in[2], &c[0], &c[1]);
        c[2] = 0.0f;
        return;
    }
    memcpy(c, in, sizeof(in));
}

/*
 * The x and y derivatives of @lane's coordinates from its quad, in
 * coordinate units (@dx, @dy) and their squared lengths in texels of
 * the base level (@lx2, @ly2).
 */
static void quad_derivs(const Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                        unsigned ncoords, unsigned lane, int face,
                        float dx[3], float dy[3], float *lx2, float *ly2)
{
    const NV50TexView *v = &t->v;
    unsigned q = lane & ~3u, n = coord_dims(v->kind);
    float c0[3], cx[3], cy[3];
    float size[3] = { v->level_w[v->min_level], v->level_h[v->min_level],
                      v->level_d[v->min_level] };

    lane_coords(t, coords, ncoords, q, face, c0);
    lane_coords(t, coords, ncoords, q + 1, face, cx);
    lane_coords(t, coords, ncoords, q + 2, face, cy);
    *lx2 = *ly2 = 0.0f;
    for (unsigned d = 0; d < 3; d++) {
        float s = v->normalized ? size[d] : 1.0f;

        dx[d] = d < n ? cx[d] - c0[d] : 0.0f;
        dy[d] = d < n ? cy[d] - c0[d] : 0.0f;
        *lx2 += dx[d] * s * dx[d] * s;
        *ly2 += dy[d] * s * dy[d] * s;
    }
}

/* lambda from the quad of @lane (texels of the base level) */
static float quad_lambda(const Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                         unsigned ncoords, unsigned lane, int face)
{
    float dx[3], dy[3], lx2, ly2;

    quad_derivs(t, coords, ncoords, lane, face, dx, dy, &lx2, &ly2);
    return 0.5f * log2f(MAX(lx2, ly2));
}

/*
 * The anisotropic footprint (UNVERIFIED: NVIDIA's pattern is not
 * public; this is the textbook one).  The quad's derivatives span an
 * ellipse-like footprint, major and minor axes in texels of the first
 * level; ratio = min(major / minor, @max_ratio), the LOD from
 * major / ratio (the minor axis, widened where the ratio is clamped)
 * and ceil(ratio) trilinear probes at the centres of equal parts of the
 * major axis (@step apart, coordinate units), averaged.  A footprint
 * whose major axis is at most a texel is magnified: one probe.  Mesa's
 * 8x resolve (header MAX_ANISOTROPY, 4x2 samples a pixel) relies on
 * the equal parts: two bilinear probes, each the mean of 2x2 samples.
 */
static unsigned aniso_taps(const Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                           unsigned ncoords, unsigned lane, int face,
                           unsigned max_ratio, float step[3], float *lambda)
{
    float dx[3], dy[3], lx2, ly2, major, minor, ratio;
    const float *axis;
    unsigned taps;

    quad_derivs(t, coords, ncoords, lane, face, dx, dy, &lx2, &ly2);
    axis = lx2 >= ly2 ? dx : dy;
    major = sqrtf(MAX(lx2, ly2));
    minor = sqrtf(MIN(lx2, ly2));
    if (!(major > 1.0f) || !isfinite(major)) {
        return 1;
    }
    ratio = minor > 0.0f ? MIN(major / minor, (float)max_ratio)
                         : (float)max_ratio;
    /* a ratio a hair over an integer is that integer's probes */
    taps = MAX((unsigned)ceilf(ratio - 1e-4f), 1u);
    for (unsigned d = 0; d < 3; d++) {
        step[d] = axis[d] / taps;
    }
    *lambda = log2f(major / ratio);
    return taps;
}

static void sample_lane(Tex *t, const TeslaInsn *insn, bool derivs,
                        uint32_t coords[][TESLA_WARP_SIZE],
                        unsigned ncoords, unsigned lane, uint32_t res[4])
{
    const NV50TexView *v = &t->v;
    const NV50TexSampler *s = &t->s;
    unsigned n = is_cube(v->kind) ? 3 : coord_dims(v->kind);
    unsigned arg = n, lv0, lv1;
    int layer = 0, face = 0;
    float c[3], dref = 0.0f, lambda, lfrac = 0.0f, step[3] = { 0, 0, 0 };
    bool cmp = s->compare, linear;
    unsigned taps = 1, max_ratio = v->hdr_opt ? v->hdr_aniso : s->max_aniso;
    Acc a;

#define ARG(i) ((i) < ncoords ? coords[i][lane] : 0u)
    if (is_array(v->kind)) {
        layer = MIN(ARG(arg), v->depth - 1);
        arg++;
    }
    if (cmp) {
        dref = bits_to_f32(ARG(arg));
        arg++;
    }
    if (is_cube(v->kind)) {
        face = cube_face(bits_to_f32(ARG(0)), bits_to_f32(ARG(1)),
                         bits_to_f32(ARG(2)));
        layer = layer * 6 + face;
    }
    lane_coords(t, coords, ncoords, lane, face, c);

    if (insn->tex.kind == TTEX_LOD) {
        lambda = bits_to_f32(ARG(arg));
    } else {
        lambda = derivs ? quad_lambda(t, coords, ncoords, lane, face)
                        : -INFINITY;
        if (derivs && max_ratio > 1) {
            taps = aniso_taps(t, coords, ncoords, lane, face, max_ratio,
                              step, &lambda);
        }
        if (insn->tex.kind == TTEX_BIAS) {
            lambda += bits_to_f32(ARG(arg));
        }
    }
#undef ARG
    lambda += s->lod_bias;
    if (isnan(lambda)) {
        lambda = 0.0f;
    }
    lambda = MIN(MAX(lambda, s->min_lod), s->max_lod);

    lv0 = lv1 = v->min_level;
    if (lambda <= 0.0f) {
        linear = s->mag == NV50_FILTER_LINEAR;
    } else {
        linear = s->min == NV50_FILTER_LINEAR;
        if (s->mip == NV50_MIP_NEAREST) {
            lv0 = v->min_level +
                  (lambda <= 0.5f ? 0 : (unsigned)(ceilf(lambda + 0.5f) - 1));
            lv0 = lv1 = MIN(lv0, v->max_level);
        } else if (s->mip == NV50_MIP_LINEAR) {
            float fl = floorf(lambda);

            lv0 = MIN(v->min_level + (unsigned)MIN(fl, 15.0f), v->max_level);
            lv1 = MIN(lv0 + 1, v->max_level);
            lfrac = lv1 == lv0 ? 0.0f : lambda - fl;
        }
    }

    memset(&a, 0, sizeof(a));
    for (unsigned k = 0; k < 4; k++) {
        a.best[k] = -1.0f;
    }
    for (unsigned i = 0; i < taps; i++) {
        float ci[3], o = i - (taps - 1) / 2.0f;

        for (unsigned d = 0; d < 3; d++) {
            ci[d] = c[d] + step[d] * o;
        }
        filter_level(t, &a, lv0, ci, layer, linear, cmp, dref,
                     (1.0f - lfrac) / taps);
        if (lfrac > 0.0f) {
            filter_level(t, &a, lv1, ci, layer, linear, cmp, dref,
                         lfrac / taps);
        }
    }
    for (unsigned k = 0; k < 4; k++) {
        res[k] = t->int_chan[k] ? a.bits[k] : f32_to_bits(a.f[k]);
    }
}

static void fetch_lane(Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                       unsigned ncoords, unsigned lane, uint32_t res[4])
{
    const NV50TexView *v = &t->v;
    unsigned n = coord_dims(v->kind), arg = n;
    int xyz[3] = { 0, 0, 0 }, layer = 0;
    unsigned l;

#define ARG(i) ((i) < ncoords ? coords[i][lane] : 0u)
    for (unsigned d = 0; d < n; d++) {
        xyz[d] = (int32_t)ARG(d) + t->offs[d];
    }
    if (is_array(v->kind) || is_cube(v->kind)) {
        layer = (int32_t)ARG(arg);
        arg++;
    }
    l = v->min_level + ARG(arg);
#undef ARG
    memset(res, 0, 4 * sizeof(res[0]));
    /* UNVERIFIED: out of range fetches read 0 (as D3D10's Load) */
    if (l > v->max_level || layer < 0 || (unsigned)layer >= v->layers) {
        return;
    }
    for (unsigned d = 0; d < n; d++) {
        uint32_t size = d == 0 ? v->level_w[l] :
                        d == 1 ? v->level_h[l] : v->level_d[l];

        if (xyz[d] < 0 || (uint32_t)xyz[d] >= size) {
            return;
        }
    }
    texel(t, l, xyz[0], xyz[1], xyz[2], layer, false, 0.0f, res);
}

static void size_lane(Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                      unsigned ncoords, unsigned lane, uint32_t res[4])
{
    const NV50TexView *v = &t->v;
    uint32_t lod = ncoords ? coords[0][lane] : 0;
    unsigned l = v->min_level + MIN(lod, 31u);

    /* UNVERIFIED: levels past the last read as 0 */
    if (l > v->max_level) {
        memset(res, 0, 4 * sizeof(res[0]));
        res[3] = v->max_level - v->min_level + 1;
        return;
    }
    res[0] = v->level_w[l];
    res[1] = v->level_h[l];
    res[2] = v->kind == NV50_TEX_3D ? v->level_d[l] : v->depth;
    res[3] = v->max_level - v->min_level + 1;
}

/* The TIC and TSC the instruction names; false (logged) if unusable. */
static bool tex_setup(Tex *t, unsigned prog, const TeslaInsn *insn)
{
    const NV50GrShared *sh = &t->c->ctx->shared;
    uint32_t tic = sh->bind_tic[prog][insn->tex.tex % NV50_GR_TIC_SLOTS];
    uint32_t tsc = sh->bind_tsc[prog][insn->tex.samp % NV50_GR_TSC_SLOTS];
    uint32_t w[8];

    if (!(tic & NV50_GR_BIND_VALID)) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-tex-unbound", 0, "nv50: tex "
                      "instruction on unbound $t%u (reads 0)\n",
                      insn->tex.tex);
        return false;
    }
    tic &= ~NV50_GR_BIND_VALID;
    if (sh->linked_tsc & 1) {
        tsc = NV50_GR_BIND_VALID | tic;
    }
    if (insn->tex.kind != TTEX_FETCH && insn->tex.kind != TTEX_SIZE &&
        !(tsc & NV50_GR_BIND_VALID)) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-tex-unbound", 1, "nv50: tex "
                      "instruction on unbound $s%u (reads 0)\n",
                      insn->tex.samp);
        return false;
    }
    tsc &= ~NV50_GR_BIND_VALID;
    if (tic > sh->tic_limit || tsc > sh->tsc_limit) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-tex-limit", 0, "nv50: TIC %u "
                      "/ TSC %u past TIC_LIMIT %u / TSC_LIMIT %u (reads 0)\n",
                      tic, tsc, sh->tic_limit, sh->tsc_limit);
        return false;
    }
    if (!entry_read(t, sh->dma_tic, sh->tic_addr, tic, w)) {
        return false;
    }
    if (!nv50_tic_decode(w, &t->v)) {
        gemu_log_once(LOG_UNIMP, "nv50-tex-format", w[0] & 0x3f,
                      "nv50: texture format 0x%02x not modelled (reads 0)\n",
                      w[0] & 0x3f);
        return false;
    }
    if (insn->tex.kind != TTEX_FETCH && insn->tex.kind != TTEX_SIZE) {
        if (!entry_read(t, sh->dma_tsc, sh->tsc_addr, tsc, w)) {
            return false;
        }
        nv50_tsc_decode(w, &t->s);
    }
    if (sh->dma_texture) {
        if (!nv50_gr_ctxdma(t->c, sh->dma_texture, &t->dma)) {
            return false;
        }
        t->has_dma = true;
    }
    for (unsigned k = 0; k < 4; k++) {
        unsigned src = t->v.src[k];
        unsigned type = src >= NV50_TS_R && src <= NV50_TS_A ?
                        t->v.type[src - NV50_TS_R] : 0;

        t->int_chan[k] = src == NV50_TS_ONE_INT ||
                         ((type == NV50_TT_SINT || type == NV50_TT_UINT) &&
                          !t->s.compare);
        t->srgb_chan[k] = k < 3 && t->v.srgb && t->s.srgb &&
                          type == NV50_TT_UNORM && !t->s.compare;
    }
    if ((insn->tex.flags & TTEXF_OFFS) && !is_cube(t->v.kind)) {
        memcpy(t->offs, insn->tex.offs, sizeof(t->offs));
    }
    return true;
}

void nv50_tex_exec(NV50GrCall *c, unsigned prog, bool quads,
                   const TeslaInsn *insn, uint32_t mask,
                   uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                   uint32_t out[4][TESLA_WARP_SIZE])
{
    g_autofree Tex *t = g_new0(Tex, 1);
    bool derivs = quads || (insn->mods & TMOD_DERIV);

    t->c = c;
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned lane = 0; lane < TESLA_WARP_SIZE; lane++) {
            if (mask & (1u << lane)) {
                out[k][lane] = 0;
            }
        }
    }
    switch (insn->tex.kind) {
    case TTEX_AUTO:
    case TTEX_BIAS:
    case TTEX_LOD:
    case TTEX_FETCH:
    case TTEX_SIZE:
        break;
    default:
        /* texprep, texquerylod, texgather: GT215; texcsaa */
        gemu_log_once(LOG_UNIMP, "nv50-tex-kind", insn->tex.kind,
                      "nv50: tex instruction kind %u not modelled "
                      "(reads 0)\n", insn->tex.kind);
        return;
    }
    if (prog >= NV50_GR_PROGS || !tex_setup(t, prog, insn)) {
        return;
    }
    for (unsigned lane = 0; lane < TESLA_WARP_SIZE; lane++) {
        uint32_t res[4];

        if (!(mask & (1u << lane))) {
            continue;
        }
        switch (insn->tex.kind) {
        case TTEX_FETCH:
            fetch_lane(t, coords, ncoords, lane, res);
            break;
        case TTEX_SIZE:
            size_lane(t, coords, ncoords, lane, res);
            break;
        default:
            sample_lane(t, insn, derivs, coords, ncoords, lane, res);
            break;
        }
        for (unsigned k = 0; k < 4; k++) {
            out[k][lane] = res[k];
        }
    }
}

void nv50_tex_sample(void *opaque, const TeslaInsn *insn, uint32_t mask,
                     uint32_t coords[][TESLA_WARP_SIZE], unsigned ncoords,
                     uint32_t out[4][TESLA_WARP_SIZE])
{
    NV50TexUnit *u = opaque;

    nv50_tex_exec(u->c, u->prog, u->prog == NV50_GR_PROG_FP, insn, mask,
                  coords, ncoords, out);
}
