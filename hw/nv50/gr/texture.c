/*
 * The G84's texture unit for tex instructions (pipe.h: nv50_tex_sample):
 * the entries an instruction names, its coordinates, LOD and
 * anisotropic footprint, cube faces, texfetch and texsize.  Its other
 * files: texture-tic.c (the TIC/TSC entries decoded, the layout),
 * texture-filter.c (texels and filtering, texture-int.h), texture-format.c
 * (texel formats).
 *
 * - Entries: BIND_TIC/BIND_TSC of the program type map $tN/$sN to TIC
 *   and TSC indices (LINKED_TSC: the TSC index is the TIC's,
 *   UNVERIFIED); entries are 32 bytes at TIC_ADDRESS/TSC_ADDRESS in
 *   DMA_TIC/DMA_TSC, texels in DMA_TEXTURE; with no DMA object bound the
 *   addresses are VAs (UNVERIFIED, as CB uploads).  Memory: PFB client
 *   TEXTURE, a fault traps TEXTURE once per instruction and the rest of
 *   the instruction reads 0.  An unbound slot, an index past TIC_LIMIT/
 *   TSC_LIMIT or an unknown format gives 0 (logged once, UNVERIFIED).
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
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include <math.h>
#include "gemu/log.h"
#include "texture-int.h"

/* --- entries ------------------------------------------------------------- */

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

/*
 * The LOD (and anisotropic probes) of @lane's quad: the same for the
 * quad's four lanes on one face, made for the first and kept.
 */
static void quad_lod(Tex *t, uint32_t coords[][TESLA_WARP_SIZE],
                     unsigned ncoords, unsigned lane, int face,
                     unsigned max_ratio, float *lambda, unsigned *taps,
                     float step[3])
{
    TexQuadLod *q = &t->quad;
    unsigned key = (lane / 4 + 1) * 8 + face;

    if (q->key != key) {
        q->key = key;
        q->taps = 1;
        memset(q->step, 0, sizeof(q->step));
        q->lambda = quad_lambda(t, coords, ncoords, lane, face);
        if (max_ratio > 1) {
            q->taps = aniso_taps(t, coords, ncoords, lane, face, max_ratio,
                                 q->step, &q->lambda);
        }
    }
    *lambda = q->lambda;
    *taps = q->taps;
    memcpy(step, q->step, sizeof(q->step));
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
    TexAcc a;

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
        if (derivs) {
            quad_lod(t, coords, ncoords, lane, face, max_ratio, &lambda,
                     &taps, step);
        } else {
            lambda = -INFINITY;
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
        nv50_tex_filter_level(t, &a, lv0, ci, layer, linear, cmp, dref,
                              (1.0f - lfrac) / taps);
        if (lfrac > 0.0f) {
            nv50_tex_filter_level(t, &a, lv1, ci, layer, linear, cmp,
                                  dref, lfrac / taps);
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
    nv50_tex_texel(t, l, xyz[0], xyz[1], xyz[2], layer, false, 0.0f, res);
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
    nv50_tex_decode_prep(&t->v, &t->dec);
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
        t->any_int |= t->int_chan[k];
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
