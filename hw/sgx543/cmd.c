/*
 * SGX543 command processor: the packet stream of a TA command
 * (sgx543.md §3.7(c); layouts in docs/devel/sgx543.md).  Every packet is
 * checked (opcode, length, field values) before it changes any state; a
 * bad one sets the error registers and is skipped.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include "gemu/log.h"
#include "block/gxp.h"
#include "priv.h"

#define MAX_PAYLOAD     4096    /* dwords; larger packets are refused */
#define MAX_PROGRAM     65536   /* instructions */

typedef void (*PacketFn)(Sgx543State *s, const uint32_t *p, unsigned n);

typedef struct PacketDef {
    const char *name;
    unsigned min, max;          /* payload dwords */
    PacketFn fn;
} PacketDef;

/* ---- state reset ---- */

void sgx_program_clear(SgxProgram *p)
{
    usse_program_free(p->primary);
    usse_program_free(p->secondary);
    memset(p, 0, sizeof(*p));
    p->default_ub_sa = -1;
}

void sgx_cmd_reset(Sgx543State *s)
{
    sgx_program_clear(&s->prog[0]);
    sgx_program_clear(&s->prog[1]);
    s->waiting = false;
    s->in_scene = false;
    s->msaa = 0;
    s->pattern = sgx_sample_pattern(0);
    s->sx = s->sy = 1;
    s->nattribs = s->nstreams = 0;
    memset(s->ub, 0, sizeof(s->ub));
    memset(s->tex, 0, sizeof(s->tex));
    memset(&s->blend, 0, sizeof(s->blend));
    s->blend.mask = 0xf;
    memset(&s->raster, 0, sizeof(s->raster));
    s->raster.depth_func = SGX_CMP_ALWAYS;
    s->raster.stencil_func = SGX_CMP_ALWAYS;
    s->raster.stencil_cmp_mask = 0xff;
    s->raster.stencil_write_mask = 0xff;
    s->raster.point_width = 1.0f;
    memset(&s->viewport, 0, sizeof(s->viewport));
}

/* ---- scene ---- */

static void pkt_begin_scene(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t base = p[0], stride = p[1], fmt = p[2], w = p[3], h = p[4];
    uint32_t dbase = n > 6 ? p[6] : 0;
    uint32_t dfmt = n > 7 ? p[7] : SGX_DEPTH_NONE;
    uint32_t dstride = n > 8 ? p[8] : w;
    uint32_t msaa = n > 9 ? p[9] : 0;
    const RasterSamples *pat = sgx_sample_pattern(msaa);
    unsigned sx = msaa ? 2 : 1, sy = msaa == 2 ? 2 : 1;
    uint8_t *color;

    if (fmt >= SGX_COLOR_NUM) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "colour format %u", fmt);
        return;
    }
    if (!w || !h || w > SGX_MAX_SURFACE || h > SGX_MAX_SURFACE
        || stride < w || stride > SGX_MAX_STRIDE) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "colour surface %ux%u, stride %u", w, h, stride);
        return;
    }
    if (p[5] >= SGX_SURFACE_NUM
        || (p[5] == SGX_SURFACE_TILED && (stride & 31))
        || (p[5] == SGX_SURFACE_SWIZZLED && (stride & (stride - 1)))) {
        /* UNVERIFIED: tiled strides a multiple of 32, swizzled ones a
           power of two */
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "surface type %u, stride %u",
                        p[5], stride);
        return;
    }
    if (!pat) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "multisample mode %u", msaa);
        return;
    }
    if (dfmt >= SGX_DEPTH_NUM || (dfmt != SGX_DEPTH_NONE && !dbase)
        || (dfmt != SGX_DEPTH_NONE
            && (dstride < w * sx || dstride > SGX_MAX_STRIDE))) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "depth surface 0x%08x format %u stride %u",
                        dbase, dfmt, dstride);
        return;
    }
    color = sgx_dma_map(s, base, sgx_surface_size(p[5], stride, w, h,
                                                  sgx_color_bpp(fmt)), true);
    if (!color) {
        return;
    }
    if (dfmt != SGX_DEPTH_NONE
        && !sgx_dma_map(s, dbase, ((uint64_t)dstride * (h * sy - 1)
                                   + w * sx) * 4, true)) {
        return;
    }
    if (s->in_scene) {
        gemu_log_mask(LOG_GUEST_ERROR,
                      "sgx543: BEGIN_SCENE inside a scene (restarted)\n");
    }
    s->in_scene = true;
    s->color_base = base;
    s->color_stride = stride;
    s->color_type = p[5];
    s->color_format = fmt;
    s->width = w;
    s->height = h;
    s->depth_base = dbase;
    s->depth_format = dfmt;
    s->depth_stride = dstride;
    s->msaa = msaa;
    s->pattern = pat;
    s->sx = sx;
    s->sy = sy;
    if (msaa) {
        /* the samples start as the surface's pixels */
        unsigned bpp = sgx_color_bpp(fmt);
        size_t size = (size_t)w * h * pat->count * bpp;

        if (s->samples_size < size) {
            g_free(s->samples);
            s->samples = g_malloc(size);
            s->samples_size = size;
        }
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < w; x++) {
                for (unsigned k = 0; k < pat->count; k++) {
                    memcpy(sgx_sample_ptr(s, x, y, k),
                           color + sgx_color_offset(s, x, y), bpp);
                }
            }
        }
    }
}

static DisplayFormat display_format(uint32_t f)
{
    switch (f) {
    case SGX_COLOR_U5U6U5_BGR:
        return DISPLAY_FORMAT_RGB565;
    case SGX_COLOR_F16F16F16F16:
        return DISPLAY_FORMAT_RGBA_F16;
    case SGX_COLOR_F32_R:
        return DISPLAY_FORMAT_R_F32;
    default:
        return DISPLAY_FORMAT_RGBA8888;
    }
}

/*
 * The frame as the display sees it: a linear copy in s->shadow, which
 * the console reads until the next frame (the device hands out no
 * pointers into device memory).
 */
static const uint8_t *frame_pixels(Sgx543State *s, const uint8_t *data,
                                   uint32_t *pitch)
{
    unsigned bpp = sgx_color_bpp(s->color_format);
    size_t size = (size_t)s->width * s->height * bpp;

    if (s->shadow_size < size) {
        g_free(s->shadow);
        s->shadow = g_malloc(size);
        s->shadow_size = size;
    }
    for (uint32_t y = 0; y < s->height; y++) {
        for (uint32_t x = 0; x < s->width; x++) {
            memcpy(s->shadow + ((size_t)y * s->width + x) * bpp,
                   data + sgx_color_offset(s, x, y), bpp);
        }
    }
    *pitch = s->width * bpp;
    return s->shadow;
}

static void pkt_end_scene(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint8_t *data;

    if (!s->in_scene) {
        sgx_raise_error(s, SGX_ERR_NO_SCENE, "END_SCENE without a scene");
        return;
    }
    s->in_scene = false;
    s->frames++;
    data = sgx_dma_map(s, s->color_base, sgx_color_bytes(s), s->msaa);
    if (data && s->msaa) {
        sgx_resolve(s, data);
    }
    if (s->con && data) {
        uint32_t pitch;
        const uint8_t *pixels = frame_pixels(s, data, &pitch);
        DisplaySurface surf = {
            .data = (uint8_t *)pixels,
            .addr = s->color_base,
            .width = s->width,
            .height = s->height,
            .pitch = pitch,
            .format = display_format(s->color_format),
        };
        display_console_set_surface(s->con, &surf);
        display_console_update(s->con, 0, 0, s->width, s->height);
        display_console_frame(s->con);
    }
    sgx_raise_event(s, SGX_EVENT_PIXELBE_END_RENDER);
}

static void pkt_clear(Sgx543State *s, const uint32_t *p, unsigned n)
{
    float color[4] = {
        bits_to_f32(p[0]), bits_to_f32(p[1]), bits_to_f32(p[2]),
        bits_to_f32(p[3]),
    };
    int x = 0, y = 0, w, h;

    if (!s->in_scene) {
        sgx_raise_error(s, SGX_ERR_NO_SCENE, "CLEAR outside a scene");
        return;
    }
    if (p[6] & ~7u) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "CLEAR flags 0x%x", p[6]);
        return;
    }
    w = s->width;
    h = s->height;
    if (n == 11) {
        /* the rectangle, clipped to the surface */
        int64_t x1 = MIN((int64_t)p[7] + p[9], (int64_t)s->width);
        int64_t y1 = MIN((int64_t)p[8] + p[10], (int64_t)s->height);
        x = MIN(p[7], s->width);
        y = MIN(p[8], s->height);
        w = MAX(x1 - x, 0);
        h = MAX(y1 - y, 0);
    }
    sgx_clear(s, color, bits_to_f32(p[4]), p[5] & 0xff, p[6], x, y, w, h);
}

/* ---- programs ---- */

/* The words shared by both SET_PROGRAM forms: layout, output, inputs. */
static bool program_layout(Sgx543State *s, SgxProgram *prog, unsigned stage,
                           const uint32_t *p, unsigned n)
{
    uint32_t layout = p[0], out = n > 1 ? p[1] : 0;

    prog->vout = (layout >> 8) & 0xff;
    prog->flags = layout >> 16;
    prog->out_reg = out & 0xff;
    prog->out_fmt = (out >> 8) & 0xff;
    if (stage == SGX_STAGE_VERTEX
        && (prog->vout < ((prog->flags & SGX_PROG_PSIZE) ? 5 : 4)
            || prog->vout > USSE_MAX_REGS)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "vertex program output count %u", prog->vout);
        return false;
    }
    if (stage == SGX_STAGE_FRAGMENT
        && (prog->out_fmt > SGX_REG_U8 || prog->out_reg > 124)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "fragment output pa%u format %u", prog->out_reg,
                        prog->out_fmt);
        return false;
    }
    if (n > 2 + SGX_MAX_FINPUTS || (stage == SGX_STAGE_VERTEX && n > 2)) {
        sgx_raise_error(s, SGX_ERR_PACKET_LENGTH,
                        "%u input descriptors", n - 2);
        return false;
    }
    for (unsigned i = 2; i < n; i++) {
        uint32_t d = p[i];
        unsigned need = SGX_FIN_FORMAT(d) == SGX_REG_U8 ? 1
                        : SGX_FIN_FORMAT(d) == SGX_REG_F16
                        ? (SGX_FIN_COMPS(d) + 1) / 2 : SGX_FIN_COMPS(d);
        unsigned scomps = SGX_FIN_KIND(d) == 1 ? 2 : SGX_FIN_COMPS(d);

        if (SGX_FIN_KIND(d) > 1 || SGX_FIN_FORMAT(d) > SGX_REG_U8
            || SGX_FIN_DST(d) + need > USSE_MAX_REGS
            || SGX_FIN_SRC(d) < 4 || SGX_FIN_SRC(d) + scomps > USSE_MAX_REGS
            || (d & 0x00308080u)) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "fragment input descriptor 0x%08x", d);
            return false;
        }
        prog->inputs[prog->ninputs++] = d;
    }
    return true;
}

static UsseProgram *load_code(Sgx543State *s, uint32_t va, uint32_t count)
{
    g_autofree uint64_t *words = NULL;

    if (count > MAX_PROGRAM) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "program of %u instructions",
                        count);
        return NULL;
    }
    words = g_new(uint64_t, count ? count : 1);
    if (!sgx_dma_read(s, va, words, count * 8)) {
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++) {
        words[i] = GUINT64_FROM_LE(words[i]);
    }
    return usse_program_new(words, count);
}

static void pkt_set_program_raw(Sgx543State *s, const uint32_t *p,
                                unsigned n)
{
    unsigned stage = p[0], base = p[1];
    SgxProgram prog = { .default_ub_sa = -1 };
    uint32_t code;

    if (stage > SGX_STAGE_FRAGMENT || base >= SGX_USE_CODE_BASE_NUM
        || !p[3] || (p[6] & 0xff) > USSE_MAX_REGS) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "SET_PROGRAM_RAW stage %u base %u count %u sa %u",
                        stage, base, p[3], p[6] & 0xff);
        return;
    }
    /* USE_CODE_BASE [25:0] is the base; each instruction is 8 bytes */
    code = s->code_base[base] & 0x03ffffff;
    prog.sa_count = p[6] & 0xff;
    if (!program_layout(s, &prog, stage, p + 6, n - 6)) {
        return;
    }
    prog.primary = load_code(s, code + p[2] * 8, p[3]);
    if (prog.primary && p[5]) {
        prog.secondary = load_code(s, code + p[4] * 8, p[5]);
        if (!prog.secondary) {
            sgx_program_clear(&prog);
        }
    }
    sgx_program_clear(&s->prog[stage]);
    if (prog.primary) {
        prog.valid = true;
        s->prog[stage] = prog;
    }
}

static void pkt_set_program(Sgx543State *s, const uint32_t *p, unsigned n)
{
    unsigned stage = p[0];
    uint32_t va = p[1], size = p[2];
    SgxProgram prog = { .default_ub_sa = -1 };
    GxpProgram gxp;
    g_autofree uint8_t *blob = NULL;
    g_autofree char *err = NULL;

    if (size == 0) {
        /* 0: the size the GXP header gives (offset 8) */
        uint32_t hdr[3];
        if (!sgx_dma_read(s, va, hdr, sizeof(hdr))) {
            return;
        }
        size = GUINT32_FROM_LE(hdr[2]);
    }
    if (stage > SGX_STAGE_FRAGMENT || size < GXP_HEADER_SIZE
        || size > (1u << 20)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "SET_PROGRAM stage %u size %u", stage, size);
        return;
    }
    blob = g_malloc(size);
    if (!sgx_dma_read(s, va, blob, size)) {
        return;
    }
    if (!gxp_parse(blob, size, &gxp, &err)) {
        sgx_raise_error(s, SGX_ERR_BAD_GXP, "GXP at 0x%08x: %s", va, err);
        return;
    }
    if (gxp.fragment != (stage == SGX_STAGE_FRAGMENT)) {
        sgx_raise_error(s, SGX_ERR_BAD_GXP, "GXP at 0x%08x is a %s program",
                        va, gxp.fragment ? "fragment" : "vertex");
        gxp_program_clear(&gxp);
        return;
    }
    prog.sa_count = MIN(gxp.sa_count, USSE_MAX_REGS);
    for (uint32_t i = 0; i < gxp.ncontainers; i++) {
        if (gxp.containers[i].index == 14) {
            prog.default_ub_sa = gxp.containers[i].base_sa;
        }
    }
    if (!program_layout(s, &prog, stage, p + 3, n - 3)) {
        gxp_program_clear(&gxp);
        return;
    }
    prog.primary = usse_program_new(gxp.primary, gxp.primary_count);
    if (gxp.secondary_count) {
        prog.secondary = usse_program_new(gxp.secondary,
                                          gxp.secondary_count);
    }
    gxp_program_clear(&gxp);
    prog.valid = true;
    sgx_program_clear(&s->prog[stage]);
    s->prog[stage] = prog;
}

/* ---- vertex input, uniforms, textures ---- */

static void pkt_set_vertex_attribs(Sgx543State *s, const uint32_t *p,
                                   unsigned n)
{
    SgxAttrib a[SGX_MAX_ATTRIBS];

    if (n & 1) {
        sgx_raise_error(s, SGX_ERR_PACKET_LENGTH,
                        "SET_VERTEX_ATTRIBS: odd payload (%u)", n);
        return;
    }
    for (unsigned i = 0; i < n / 2; i++) {
        /* SceGxmVertexAttribute: u16 stream, u16 offset, u8 format,
           u8 componentCount, u16 regIndex */
        a[i].stream = p[2 * i] & 0xffff;
        a[i].offset = p[2 * i] >> 16;
        a[i].format = p[2 * i + 1] & 0xff;
        a[i].comps = (p[2 * i + 1] >> 8) & 0xff;
        a[i].reg = p[2 * i + 1] >> 16;
        if (a[i].stream >= SGX_MAX_STREAMS || a[i].format >= SGX_ATTR_NUM
            || a[i].comps < 1 || a[i].comps > 4
            || a[i].reg + a[i].comps > USSE_MAX_REGS) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "vertex attribute %u: stream %u format %u "
                            "components %u register %u", i, a[i].stream,
                            a[i].format, a[i].comps, a[i].reg);
            return;
        }
    }
    memcpy(s->attribs, a, sizeof(a[0]) * (n / 2));
    s->nattribs = n / 2;
}

static void pkt_set_vertex_streams(Sgx543State *s, const uint32_t *p,
                                   unsigned n)
{
    if (n & 1) {
        sgx_raise_error(s, SGX_ERR_PACKET_LENGTH,
                        "SET_VERTEX_STREAMS: odd payload (%u)", n);
        return;
    }
    for (unsigned i = 0; i < n / 2; i++) {
        if ((p[2 * i + 1] >> 16) > 1) {
            sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                            "vertex stream %u: index source %u", i,
                            p[2 * i + 1] >> 16);
            return;
        }
    }
    for (unsigned i = 0; i < n / 2; i++) {
        s->streams[i].base = p[2 * i];
        s->streams[i].stride = p[2 * i + 1] & 0xffff;
        s->streams[i].index_source = p[2 * i + 1] >> 16;
    }
    s->nstreams = n / 2;
}

static void pkt_set_uniform_buffer(Sgx543State *s, const uint32_t *p,
                                   unsigned n)
{
    uint32_t sa = n > 4 ? p[4] : ~0u;

    if (p[0] > SGX_STAGE_FRAGMENT || p[1] >= SGX_NUM_UB
        || (p[1] == 14 && (p[3] > USSE_MAX_REGS * 4 || (p[3] & 3)))
        || (sa != ~0u && sa >= USSE_MAX_REGS)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "uniform buffer stage %u index %u size %u sa %d",
                        p[0], p[1], p[3], (int)sa);
        return;
    }
    s->ub[p[0]][p[1]] = (SgxUniformBuf) {
        .valid = true, .base = p[2], .size = p[3], .sa_reg = sa,
    };
}

static void pkt_set_texture(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t sa = n > 6 ? p[6] : ~0u;
    SgxTexture tex;
    const char *why;

    if (p[0] > SGX_STAGE_FRAGMENT || p[1] >= SGX_NUM_TEX
        || (sa != ~0u && sa + 4 > USSE_MAX_REGS)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "SET_TEXTURE stage %u unit %u SA register %d",
                        p[0], p[1], (int)sa);
        return;
    }
    if (!sgx_tex_decode(p + 2, &tex, &why)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "texture stage %u unit %u: words %08x %08x %08x "
                        "%08x: %s", p[0], p[1], p[2], p[3], p[4], p[5], why);
        return;
    }
    s->tex[p[0]][p[1]] = (SgxTexUnit) {
        .valid = true, .w = { p[2], p[3], p[4], p[5] }, .tex = tex,
        .sa_reg = sa,
    };
}

/* ---- fixed-function state ---- */

static void pkt_set_fragment_output(Sgx543State *s, const uint32_t *p,
                                    unsigned n)
{
    if (p[0] > 0xf || p[1] > SGX_BLEND_MAX || p[2] > SGX_BLEND_MAX
        || p[3] > SGX_BF_DST_ALPHA_SATURATE || p[4] > SGX_BF_DST_ALPHA_SATURATE
        || p[5] > SGX_BF_DST_ALPHA_SATURATE
        || p[6] > SGX_BF_DST_ALPHA_SATURATE) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "blend state");
        return;
    }
    s->blend = (SgxBlendState) {
        .mask = p[0],
        .color_func = p[1], .alpha_func = p[2],
        .color_src = p[3], .color_dst = p[4],
        .alpha_src = p[5], .alpha_dst = p[6],
        .enable = p[1] != SGX_BLEND_NONE || p[2] != SGX_BLEND_NONE,
    };
}

static void pkt_set_raster_state(Sgx543State *s, const uint32_t *p,
                                 unsigned n)
{
    SgxRaster r = {
        .cull = p[0],
        .depth_func = p[1],
        .depth_write = p[2] != 0,
        .stencil_func = n > 3 ? p[3] : SGX_CMP_ALWAYS,
        .stencil_fail = n > 4 ? p[4] : SGX_STENCIL_KEEP,
        .depth_fail = n > 5 ? p[5] : SGX_STENCIL_KEEP,
        .depth_pass = n > 6 ? p[6] : SGX_STENCIL_KEEP,
        .stencil_cmp_mask = n > 7 ? p[7] : 0xff,
        .stencil_write_mask = n > 8 ? p[8] : 0xff,
        .stencil_ref = n > 9 ? p[9] : 0,
        .point_width = n > 10 ? p[10] : 1,
    };

    if (p[0] > SGX_CULL_CCW || p[1] > SGX_CMP_ALWAYS || p[2] > 1
        || (n > 3 && p[3] > SGX_CMP_ALWAYS)
        || (n > 4 && p[4] > SGX_STENCIL_DECR_WRAP)
        || (n > 5 && p[5] > SGX_STENCIL_DECR_WRAP)
        || (n > 6 && p[6] > SGX_STENCIL_DECR_WRAP)
        || (n > 7 && p[7] > 0xff) || (n > 8 && p[8] > 0xff)
        || (n > 9 && p[9] > 0xff)
        || (n > 10 && (p[10] < 1 || p[10] > SGX_MAX_LINE_WIDTH))) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "raster state");
        return;
    }
    s->raster = r;
}

static void pkt_set_viewport(Sgx543State *s, const uint32_t *p, unsigned n)
{
    if (p[0] > 1) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "viewport enable %u", p[0]);
        return;
    }
    s->viewport = (SgxViewport) {
        .enable = p[0],
        .xs = bits_to_f32(p[1]), .xo = bits_to_f32(p[2]),
        .ys = bits_to_f32(p[3]), .yo = bits_to_f32(p[4]),
        .zs = bits_to_f32(p[5]), .zo = bits_to_f32(p[6]),
    };
}

static void pkt_draw(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t instances = n > 4 ? p[4] : 1;

    if (!s->in_scene) {
        sgx_raise_error(s, SGX_ERR_NO_SCENE, "DRAW outside a scene");
        return;
    }
    if (p[0] > SGX_PRIM_LINE_STRIP || p[1] > 1) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "DRAW primitive %u index format %u", p[0], p[1]);
        return;
    }
    sgx_draw(s, p[0], p[1], p[2], p[3], instances);
}

/* ---- synchronisation ---- */

static void pkt_fence(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t v = GUINT32_TO_LE(p[1]);

    if (!sgx_dma_write(s, p[0], &v, 4)) {
        return;
    }
    if (n > 2 && (p[2] & SGX_CMD_FLAG_SW_EVENT)) {
        sgx_raise_event(s, SGX_EVENT_SW_EVENT);
    }
}

static const PacketDef packets[64] = {
    [SGX_PKT_BEGIN_SCENE] = { "BEGIN_SCENE", 6, 10, pkt_begin_scene },
    [SGX_PKT_END_SCENE] = { "END_SCENE", 0, 0, pkt_end_scene },
    [SGX_PKT_CLEAR] = { "CLEAR", 7, 11, pkt_clear },
    [SGX_PKT_SET_PROGRAM] = { "SET_PROGRAM", 4, 5 + SGX_MAX_FINPUTS,
                              pkt_set_program },
    [SGX_PKT_SET_PROGRAM_RAW] = { "SET_PROGRAM_RAW", 7,
                                  8 + SGX_MAX_FINPUTS, pkt_set_program_raw },
    [SGX_PKT_SET_VERTEX_ATTRIBS] = { "SET_VERTEX_ATTRIBS", 0,
                                     2 * SGX_MAX_ATTRIBS,
                                     pkt_set_vertex_attribs },
    [SGX_PKT_SET_VERTEX_STREAMS] = { "SET_VERTEX_STREAMS", 0,
                                     2 * SGX_MAX_STREAMS,
                                     pkt_set_vertex_streams },
    [SGX_PKT_SET_UNIFORM_BUFFER] = { "SET_UNIFORM_BUFFER", 4, 5,
                                     pkt_set_uniform_buffer },
    [SGX_PKT_SET_TEXTURE] = { "SET_TEXTURE", 6, 7, pkt_set_texture },
    [SGX_PKT_SET_FRAGMENT_OUTPUT] = { "SET_FRAGMENT_OUTPUT", 7, 7,
                                      pkt_set_fragment_output },
    [SGX_PKT_SET_RASTER_STATE] = { "SET_RASTER_STATE", 3, 11,
                                   pkt_set_raster_state },
    [SGX_PKT_SET_VIEWPORT] = { "SET_VIEWPORT", 7, 7, pkt_set_viewport },
    [SGX_PKT_DRAW] = { "DRAW", 4, 5, pkt_draw },
    [SGX_PKT_TRANSFER_COPY] = { "TRANSFER_COPY", 15, 15,
                                sgx_pkt_transfer_copy },
    [SGX_PKT_TRANSFER_DOWNSCALE] = { "TRANSFER_DOWNSCALE", 12, 12,
                                     sgx_pkt_transfer_downscale },
    [SGX_PKT_TRANSFER_FILL] = { "TRANSFER_FILL", 8, 8,
                                sgx_pkt_transfer_fill },
    [SGX_PKT_FENCE] = { "FENCE", 2, 3, pkt_fence },
    [SGX_PKT_WAIT] = { "WAIT", 3, 3, NULL },
    [SGX_PKT_JUMP] = { "JUMP", 2, 2, NULL },
    [SGX_PKT_NOP] = { "NOP", 0, 0xffffff, NULL },
};

const char *sgx_packet_name(unsigned op)
{
    return op < ARRAY_SIZE(packets) ? packets[op].name : NULL;
}

int sgx_packet_lookup(const char *name)
{
    for (unsigned i = 0; i < ARRAY_SIZE(packets); i++) {
        if (packets[i].name && !g_ascii_strcasecmp(packets[i].name, name)) {
            return i;
        }
    }
    return -1;
}

/* WAIT {addr, value, compare}: 0 equal, 1 unsigned >=. */
static bool wait_done(Sgx543State *s, const uint32_t *p, bool *bad)
{
    uint32_t v;

    *bad = false;
    if (p[2] > 1) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "WAIT compare %u", p[2]);
        *bad = true;
        return true;
    }
    if (!sgx_dma_read(s, p[0], &v, 4)) {
        *bad = true;
        return true;
    }
    v = GUINT32_FROM_LE(v);
    return p[2] ? v >= p[1] : v == p[1];
}

bool sgx_cmd_run(Sgx543State *s, uint32_t va, uint32_t end)
{
    g_autofree uint32_t *payload = g_new(uint32_t, MAX_PAYLOAD);
    unsigned jumps = 0;

    s->waiting = false;
    while (va < end) {
        uint32_t hdr, op, n;
        const PacketDef *def;

        s->cur_pkt = va;
        s->timer++;
        if (end - va < 4) {
            sgx_raise_error(s, SGX_ERR_PACKET_OVERRUN,
                            "%u stray bytes at the end", end - va);
            return true;
        }
        if (!sgx_dma_read(s, va, &hdr, 4)) {
            return true;
        }
        hdr = GUINT32_FROM_LE(hdr);
        op = SGX_PKT_OP(hdr);
        n = SGX_PKT_LEN(hdr);
        if ((uint64_t)n * 4 > end - va - 4) {
            sgx_raise_error(s, SGX_ERR_PACKET_OVERRUN,
                            "packet 0x%08x runs past the end (0x%08x)", hdr,
                            end);
            return true;
        }
        def = op < ARRAY_SIZE(packets) ? &packets[op] : NULL;
        va += 4 + n * 4;
        if (!def || !def->name) {
            sgx_raise_error(s, SGX_ERR_UNKNOWN_PACKET,
                            "unknown packet 0x%02x", op);
            continue;
        }
        if (n < def->min || n > def->max || n > MAX_PAYLOAD) {
            if (op == SGX_PKT_NOP) {
                continue;       /* any length: skipped unread */
            }
            sgx_raise_error(s, SGX_ERR_PACKET_LENGTH,
                            "%s with %u payload dwords (%u..%u)", def->name,
                            n, def->min, def->max);
            continue;
        }
        if (op == SGX_PKT_NOP) {
            continue;
        }
        if (!sgx_dma_read(s, s->cur_pkt + 4, payload, n * 4)) {
            return true;
        }
        for (uint32_t i = 0; i < n; i++) {
            payload[i] = GUINT32_FROM_LE(payload[i]);
        }
        if (op == SGX_PKT_JUMP) {
            if (++jumps > SGX_MAX_JUMPS) {
                sgx_raise_error(s, SGX_ERR_JUMP_LOOP,
                                "more than %d JUMPs", SGX_MAX_JUMPS);
                return true;
            }
            if ((uint64_t)payload[0] + payload[1] > 0x100000000ull) {
                sgx_raise_error(s, SGX_ERR_BAD_VALUE, "JUMP target wraps");
                return true;
            }
            va = payload[0];
            end = payload[0] + payload[1];
            continue;
        }
        if (op == SGX_PKT_WAIT) {
            bool bad;
            if (!wait_done(s, payload, &bad)) {
                /* stop here; the next kick re-checks this WAIT */
                s->waiting = true;
                s->wait_va = s->cur_pkt;
                s->wait_end = end;
                return false;
            }
            continue;
        }
        def->fn(s, payload, n);
    }
    return true;
}

const char *sgx_error_name(unsigned code)
{
    static const char *const names[] = {
        [SGX_ERR_NONE] = "NONE",
        [SGX_ERR_UNKNOWN_PACKET] = "UNKNOWN_PACKET",
        [SGX_ERR_PACKET_LENGTH] = "PACKET_LENGTH",
        [SGX_ERR_PACKET_OVERRUN] = "PACKET_OVERRUN",
        [SGX_ERR_BAD_VALUE] = "BAD_VALUE",
        [SGX_ERR_NO_SCENE] = "NO_SCENE",
        [SGX_ERR_NO_PROGRAM] = "NO_PROGRAM",
        [SGX_ERR_SHADER_TRAP] = "SHADER_TRAP",
        [SGX_ERR_MMU_FAULT] = "MMU_FAULT",
        [SGX_ERR_CCB] = "CCB",
        [SGX_ERR_JUMP_LOOP] = "JUMP_LOOP",
        [SGX_ERR_BAD_GXP] = "BAD_GXP",
    };
    return code < ARRAY_SIZE(names) && names[code] ? names[code] : "?";
}
