/*
 * nv50 scanout, the armed EVO state as planes: which surface a head
 * shows (the base channel's image, else the core's head surface) with
 * its LUT, the overlay and the cursor, decoded from the methods the
 * channels armed and checked against their context DMAs and VRAM.
 * scanout-format.c converts and composes what these describe;
 * scanout.c draws them at each vblank.
 *
 * Facts, and where they come from (Linux 6.1 nouveau; envytools):
 * - Methods (cl507c.h:110-164, cl507d.h:224-280): OFFSET = byte address
 *   >> 8; SIZE WIDTH 14:0, HEIGHT 30:16; STORAGE BLOCK_HEIGHT 3:0 (log2
 *   GOBs, ONE_GOB..THIRTYTWO_GOBS = 0..5), PITCH 17:8, MEMORY_LAYOUT
 *   20 (1 PITCH, 0 BLOCKLINEAR); PARAMS FORMAT 15:8.
 * - PITCH: bytes >> 8 for pitch layout, but the number of 64-byte GOB
 *   columns (fb pitch / 64) for block-linear: wndw.c:296-308 sets
 *   blocks = pitches[0] / 64 and pitch = 0 and head507d/base507c OR both
 *   into the PITCH field.  BLOCK_HEIGHT is the BO's tile_mode on
 *   chipsets < 0xc0 (wndw.c:298-301).
 * - LUT: cl507d HEAD_SET_BASE_LUT_LO 0x840 (ENABLE 31, MODE 30: 0 LORES,
 *   1 HIRES, ORIGIN 7:2), HEAD_SET_BASE_LUT_HI 0x844 (ORIGIN = address
 *   >> 8); G84's 827d adds HEAD_SET_CONTEXT_DMA_LUT 0x85c (head827d.c:
 *   128-146).  nouveau enables it with the core's VRAM ctxdma for a
 *   256-entry gamma blob, LORES for 8 bpp and HIRES otherwise
 *   (head507d.c:330-343), and writes head507d_olut_load's layout:
 *   8-byte entries of u16 R, G, B, each an 11-bit value << 3, plus a
 *   copy of the last entry "for the INTERPOLATE modes" (head507d.c:313-
 *   328; 257 entries on < GF110, lut.c).  Base channel SET_BASE_LUT_LO
 *   0xe0: ENABLE 31:30 (0 DISABLE, 1 USE_CORE_LUT, 3 ENABLE), MODE 29,
 *   ORIGIN 7:2; HI at 0xe4 (cl507c.h:93-101, rnndb display/nv_evo.xml);
 *   nouveau sets USE_CORE_LUT on the visible base (base507c_xlut_set).
 * - Context DMAs: the surface is at the ISO ctxdma's start + OFFSET and
 *   must end within its limit (and within VRAM); handles are resolved by
 *   pdisplay's nv50_evo_ctxdma in the owning channel (core 0, base 1 +
 *   head).  The LUT is read through the core's HEAD_SET_CONTEXT_DMA_LUT
 *   (827d 0x85c; the base's own through its DMA_LUT_HANDLE 0xfc).
 * - Cursor (G84 = core class 827d, head827d.c:29-71; cl827d.h:78-102;
 *   rnndb nv_evo.xml CTRL_CURSOR): HEAD_SET_CONTROL_CURSOR 0x880 +
 *   head * 0x400 = ENABLE 31, COMPOSITION 29:28 (0 ALPHA_BLEND, 1
 *   PREMULT_ALPHA_BLEND, 2 XOR), SIZE 26 (0 32x32, 1 64x64), FORMAT
 *   25:24 (0 A1R5G5B5, 1 A8R8G8B8), HOT_SPOT_Y 21:16, HOT_SPOT_X 13:8;
 *   HEAD_SET_OFFSET_CURSOR 0x884 = byte address >> 8 within
 *   HEAD_SET_CONTEXT_DMA_CURSOR 0x89c (resolved in the core channel;
 *   nouveau gives the core's VRAM ctxdma, curs507a_prepare).  The
 *   cursor channel (cl507a, PIO channel 7 + head) has only UPDATE 0x80
 *   and SET_CURSOR_HOT_SPOT_POINT_OUT 0x84 = X 15:0, Y 31:16; its UPDATE
 *   is never interlocked by nouveau (curs507a_update) and takes effect
 *   at once (evo-update.c).  So the cursor shows the core's armed control/
 *   offset/ctxdma and the cursor channel's armed point.
 * - Hot spot: nouveau always arms HOT_SPOT_X/Y = 0 and writes
 *   POINT_OUT = the plane's crtc_x/crtc_y (wndw.c:357-359), which DRM
 *   defines as the cursor image's top-left (drm_plane.c
 *   drm_mode_cursor_universal passes req->x/y unchanged; userspace has
 *   already subtracted its hotspot).  gemu places pixel (0, 0) at
 *   POINT_OUT - HOT_SPOT, i.e. at POINT_OUT for nouveau; X and Y are
 *   16-bit two's complement (nouveau writes negative crtc_x/y for a
 *   cursor partly off the left/top edge), and whatever lies outside the
 *   image is clipped.  DRM disables a cursor that is wholly off-screen
 *   (drm_atomic_helper_check_plane_state: not visible -> curs_clr); an
 *   enabled cursor wholly off the image is simply not drawn.
 * - Overlay (G84 = overlay class 827e, ovly827e.c, ovly507e.c:
 *   ovly507e_scale_set; cl827e.h, cl507e.h; rnndb nv_evo.xml
 *   NV_EVO_OVERLAY): EVO DMA channel 3 + head.  SET_CONTEXT_DMA_ISO 0xc0
 *   (0: no overlay -- base507c_image_clr, which nouveau's overlays use,
 *   writes 0), SURFACE_SET_OFFSET/SIZE/STORAGE/PARAMS 0x800/0x808/0x80c/
 *   0x810 laid out as the base's; formats A8R8G8B8 0xcf, A1R5G5B5 0xe9,
 *   A2B10G10R10 0xd1 (827e adds it) and the YUV VE8YO8UE8YE8 0x28 (DRM
 *   YUYV) / YO8VE8YE8UE8 0x29 (UYVY), PARAMS COLOR_SPACE 1:0 (RGB,
 *   YUV_601, YUV_709; nouveau: RGB, or 601 for YUV, wndw.c:208-224).
 *   SET_POINT_IN 0xe0 (X 14:0, Y 30:16) and SET_SIZE_IN 0xe4 (WIDTH
 *   14:0, HEIGHT 30:16) are the shown rectangle of the surface;
 *   SET_SIZE_OUT 0xe8 has a WIDTH 14:0 only in cl507e/cl827e (rnndb
 *   calls it wh15).  nouveau writes src_x/y, src_w/h and crtc_w
 *   unclipped (wndw.c:324-330) and refuses scaling
 *   (ovly507e_acquire: DRM_PLANE_NO_SCALING), so SIZE_OUT = SIZE_IN
 *   there.  SET_COMPOSITION_CONTROL 0x100 MODE 3:0: 0 SOURCE_COLOR_
 *   VALUE_KEYING, 1 DESTINATION_COLOR_VALUE_KEYING, 2 OPAQUE_SUSPEND_
 *   BASE, the one nouveau arms; SET_KEY_COLOR 0x104, SET_KEY_MASK 0x108
 *   (32 bits each, no layout given; NVIDIA's cl507e.h).  The position
 *   comes from the overlay-immediate PIO channel 5 + head, which
 *   nouveau drives with curs507a's functions (oimm507b.c): SET_POINT_OUT
 *   0x84 = X 15:0, Y 31:16 = the plane's crtc_x/y (wndw.c:357-359,
 *   negative when partly off the top/left), UPDATE 0x80 never
 *   interlocked, armed at once (evo-update.c).  The overlay's own UPDATE is
 *   interlocked with the core in a modeset, else taken at the vblank.
 *   The overlay ISO ctxdma is resolved in the overlay channel.
 *   OPAQUE_SUSPEND_BASE: overlay pixels replace the base's (after the
 *   base's LUT) wherever the overlay is, alpha ignored; the cursor goes
 *   on top (DRM's plane order primary < overlay < cursor; the hardware
 *   order is UNVERIFIED).
 *
 * UNVERIFIED:
 * - A LUT enabled with no LUT ctxdma (handle 0: cl507d has no such
 *   method) is read at VRAM offset 0 + origin.  ISO ctxdmas targeting
 *   guest memory are not shown (LOG_UNIMP).
 * - A base channel with SET_BASE_LUT_LO ENABLE = DISABLE shows direct
 *   colour without the core's LUT; ENABLE uses its own LUT at 0xe0/0xe4;
 *   value 2 is taken as DISABLE.  The core's OUTPUT_LUT is not applied.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/scanout-int.h"
#include "hw/nv50/surface.h"

#define CORE_HEAD_MTHD(h, m)    (0x800 + (h) * 0x400 + (m))
#define HEAD_SET_BASE_LUT_LO    0x040   /* ENABLE 31, MODE 30, ORIGIN 7:2 */
#define HEAD_SET_BASE_LUT_HI    0x044   /* ORIGIN: address >> 8 */
#define HEAD_SET_OFFSET         0x060   /* ORIGIN 31:0, bytes >> 8 */
#define HEAD_SET_SIZE           0x068   /* WIDTH 14:0, HEIGHT 30:16 */
#define HEAD_SET_STORAGE        0x06c   /* BH 3:0, PITCH 17:8, LAYOUT 20 */
#define HEAD_SET_PARAMS         0x070   /* FORMAT 15:8 */
#define HEAD_SET_CTXDMA_ISO     0x074   /* 0: no surface */
#define HEAD_SET_CTXDMA_LUT     0x05c   /* 827d */
#define HEAD_SET_CONTROL_CURSOR 0x080   /* see armed_cursor */
#define HEAD_SET_OFFSET_CURSOR  0x084   /* ORIGIN: bytes >> 8 */
#define HEAD_SET_CTXDMA_CURSOR  0x09c   /* 827d */
#define CURSOR_ENABLE           (1u << 31)

/* cursor channel (cl507a) */
#define CURS_SET_HOT_SPOT_POINT_OUT 0x084   /* X 15:0, Y 31:16 */

/* base channel (cl507c), surface 0 */
#define BASE_SET_CTXDMA_ISO     0x0c0   /* 0: no image */
#define BASE_SET_BASE_LUT_LO    0x0e0   /* ENABLE 31:30, MODE 29 */
#define BASE_SET_BASE_LUT_HI    0x0e4
#define BASE_SET_CTXDMA_LUT     0x0fc   /* 827c (rnndb DMA_LUT_HANDLE) */
#define BASE_SURFACE_SET_OFFSET 0x800
#define BASE_SURFACE_SET_SIZE   0x808
#define BASE_SURFACE_SET_STORAGE 0x80c
#define BASE_SURFACE_SET_PARAMS 0x810

/* overlay channel (cl827e) and overlay-immediate channel (cl507b) */
#define OVLY_SET_CTXDMA_ISO     0x0c0   /* 0: no overlay */
#define OVLY_SET_POINT_IN       0x0e0   /* X 14:0, Y 30:16 */
#define OVLY_SET_SIZE_IN        0x0e4   /* WIDTH 14:0, HEIGHT 30:16 */
#define OVLY_SET_SIZE_OUT       0x0e8   /* WIDTH 14:0 */
#define OVLY_SET_COMPOSITION    0x100   /* MODE 3:0 */
#define OVLY_SET_KEY_COLOR      0x104
#define OVLY_SET_KEY_MASK       0x108
#define OVLY_SURFACE_SET_OFFSET 0x800   /* as the base's */
#define OIMM_SET_POINT_OUT      0x084   /* X 15:0, Y 31:16 */

#define STORAGE_LAYOUT_PITCH    (1u << 20)

/*
 * Context DMA @handle of EVO channel @chid (@what names it for messages):
 * its VRAM start and end (one past its limit).
 */
static ScanoutState ctxdma(NV50State *s, int head, int chid,
                           uint32_t handle, const char *what,
                           uint64_t *start, uint64_t *end, char **err)
{
    uint64_t limit;
    bool vram;

    if (!nv50_evo_ctxdma(s, chid, handle, start, &limit, &vram)) {
        *err = g_strdup_printf("head %d: %s context DMA 0x%08x is not "
                               "bound in the display RAMHT", head, what,
                               handle);
        return SCANOUT_GUEST_ERROR;
    }
    if (!vram) {
        *err = g_strdup_printf("head %d: %s context DMA 0x%08x is in guest "
                               "memory (not shown by gemu)", head, what,
                               handle);
        return SCANOUT_UNIMP;
    }
    *end = limit + 1;
    return SCANOUT_OK;
}

/*
 * A @w x @h @what at @offset whose last byte is @last_end - 1: is it
 * within its context DMA (@end one past its limit)?
 */
static ScanoutState within_ctxdma(int head, const char *what, uint32_t w,
                                  uint32_t h, uint64_t offset,
                                  uint64_t last_end, uint64_t end,
                                  char **err)
{
    if (last_end > end) {
        *err = g_strdup_printf("head %d: %ux%u %s at 0x%" PRIx64
                               " runs past its context DMA (limit 0x%"
                               PRIx64 ")", head, w, h, what, offset,
                               end - 1);
        return SCANOUT_GUEST_ERROR;
    }
    return SCANOUT_OK;
}

/*
 * A surface from its SURFACE_SET_OFFSET/SIZE/STORAGE/PARAMS words (the
 * core's HEAD_SET_* alike): no LUT, the offset not yet in its ctxdma.
 */
static void desc_decode(NV50ScanoutDesc *d, uint32_t offset, uint32_t size,
                        uint32_t storage, uint32_t params)
{
    d->offset = (uint64_t)offset << 8;
    d->width = size & 0x7fff;
    d->height = (size >> 16) & 0x7fff;
    d->block_linear = !(storage & STORAGE_LAYOUT_PITCH);
    d->block_height = storage & 0xf;
    d->pitch = ((storage >> 8) & 0x3ff) *
               (d->block_linear ? NV50_GOB_WIDTH : 256);
    d->format = (params >> 8) & 0xff;
    d->lut = NULL;
}

/* The LUT that applies to @head's pixels, from the armed methods. */
static ScanoutState armed_lut(NV50State *s, int head, bool base_image,
                              NV50ScanoutLut *lut, bool *enabled,
                              char **err)
{
    const uint32_t *core = s->pdisp->chan[NV50_EVO_CORE].armed;
    uint32_t lo = core[CORE_HEAD_MTHD(head, HEAD_SET_BASE_LUT_LO) >> 2];
    uint32_t hi = core[CORE_HEAD_MTHD(head, HEAD_SET_BASE_LUT_HI) >> 2];
    uint32_t dma = core[CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_LUT) >> 2];
    int chid = NV50_EVO_CORE;
    bool on = lo & (1u << 31), hires = lo & (1u << 30);
    uint64_t start = 0, end = s->vram_size, addr;
    g_autofree char *why = NULL;
    ScanoutState st;

    if (base_image) {
        const uint32_t *base = s->pdisp->chan[NV50_EVO_BASE(head)].armed;
        uint32_t blo = base[BASE_SET_BASE_LUT_LO >> 2];

        switch (blo >> 30) {
        case 1:                 /* USE_CORE_LUT */
            break;
        case 3:                 /* ENABLE: the base's own */
            on = true;
            hires = blo & (1u << 29);
            lo = blo;
            hi = base[BASE_SET_BASE_LUT_HI >> 2];
            dma = base[BASE_SET_CTXDMA_LUT >> 2];
            chid = NV50_EVO_BASE(head);
            break;
        default:                /* DISABLE */
            on = false;
            break;
        }
    }
    *enabled = on;
    if (!on) {
        return SCANOUT_OK;
    }
    if (dma) {
        st = ctxdma(s, head, chid, dma, "LUT", &start, &end, err);
        if (st != SCANOUT_OK) {
            return st;
        }
    }
    addr = start + ((uint64_t)hi << 8 | (lo & 0xfc));
    if (addr + NV50_LUT_BYTES > end) {
        *err = g_strdup_printf("head %d: LUT at 0x%" PRIx64 " runs past its "
                               "context DMA (limit 0x%" PRIx64 ")", head,
                               addr, end - 1);
        return SCANOUT_GUEST_ERROR;
    }
    if (!nv50_scanout_lut_read(s->vram, s->vram_size, addr, hires, lut,
                               &why)) {
        *err = g_strdup_printf("head %d: %s", head, why);
        return SCANOUT_GUEST_ERROR;
    }
    return SCANOUT_OK;
}

/*
 * The surface methods @head's image comes from: the base channel's if
 * it has an ISO context DMA (*@base_image), else the core's head
 * surface.  *@dma is the ISO handle; SCANOUT_OFF if nothing is armed.
 */
static ScanoutState armed_surface(NV50State *s, int head,
                                  NV50ScanoutDesc *d, uint32_t *dma,
                                  bool *base_image, char **err)
{
    const uint32_t *a = s->pdisp->chan[NV50_EVO_BASE(head)].armed;

    *base_image = a[BASE_SET_CTXDMA_ISO >> 2];
    if (*base_image) {
        *dma = a[BASE_SET_CTXDMA_ISO >> 2];
        desc_decode(d, a[BASE_SURFACE_SET_OFFSET >> 2],
                    a[BASE_SURFACE_SET_SIZE >> 2],
                    a[BASE_SURFACE_SET_STORAGE >> 2],
                    a[BASE_SURFACE_SET_PARAMS >> 2]);
    } else {
        a = s->pdisp->chan[NV50_EVO_CORE].armed;
        *dma = a[CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_ISO) >> 2];
        if (!*dma) {
            *err = g_strdup_printf("no scanout surface armed on head %d "
                                   "(the guest has not set a mode)", head);
            return SCANOUT_OFF;
        }
        desc_decode(d, a[CORE_HEAD_MTHD(head, HEAD_SET_OFFSET) >> 2],
                    a[CORE_HEAD_MTHD(head, HEAD_SET_SIZE) >> 2],
                    a[CORE_HEAD_MTHD(head, HEAD_SET_STORAGE) >> 2],
                    a[CORE_HEAD_MTHD(head, HEAD_SET_PARAMS) >> 2]);
    }
    if (!d->width || !d->height) {
        *err = g_strdup_printf("no scanout surface armed on head %d "
                               "(%s surface of %ux%u)", head,
                               *base_image ? "base" : "core",
                               d->width, d->height);
        return SCANOUT_OFF;
    }
    return SCANOUT_OK;
}

ScanoutState nv50_scanout_armed_desc(NV50State *s, int head,
                                     NV50ScanoutDesc *d, NV50ScanoutLut *lut,
                                     char **err)
{
    uint32_t dma;
    uint64_t start, end;
    bool base_image, lut_on;
    ScanoutState st;
    g_autofree char *why = NULL;

    if (head < 0 || head >= NV50_HEADS) {
        *err = g_strdup_printf("no head %d (the G84 has heads 0 and 1)",
                               head);
        return SCANOUT_OFF;
    }
    st = armed_surface(s, head, d, &dma, &base_image, err);
    if (st != SCANOUT_OK) {
        return st;
    }
    if (!nv50_scanout_format_bpp(d->format)) {
        unsigned fmt = d->format;
        bool known = fmt == 0x1f || fmt == 0x2e || fmt == 0xca;

        *err = g_strdup_printf("head %d scanout format 0x%02x %s", head, fmt,
                               known ? "(VOID16/VOID32/RF16_GF16_BF16_AF16) "
                               "is not shown by gemu" :
                               "is not an EVO surface format");
        return known ? SCANOUT_UNIMP : SCANOUT_GUEST_ERROR;
    }
    st = ctxdma(s, head, base_image ? NV50_EVO_BASE(head) : NV50_EVO_CORE,
                dma, "ISO", &start, &end, err);
    if (st != SCANOUT_OK) {
        return st;
    }
    d->offset += start;
    st = armed_lut(s, head, base_image, lut, &lut_on, err);
    if (st != SCANOUT_OK) {
        return st;
    }
    d->lut = lut_on ? lut : NULL;
    if (!nv50_scanout_check(d, s->vram_size, &why)) {
        *err = g_strdup_printf("head %d: %s", head, why);
        return SCANOUT_GUEST_ERROR;
    }
    return within_ctxdma(head, "surface", d->width, d->height, d->offset,
                         nv50_scanout_surface_end(d), end, err);
}

/*
 * The cursor @head shows, from the armed core head methods and cursor
 * channel: SCANOUT_OFF if it is disabled, else checked against its
 * context DMA and VRAM.
 */
static ScanoutState armed_cursor(NV50State *s, int head, NV50CursorDesc *c,
                                 char **err)
{
    const uint32_t *core = s->pdisp->chan[NV50_EVO_CORE].armed;
    const uint32_t *curs = s->pdisp->chan[NV50_EVO_CURS(head)].armed;
    uint32_t ctl = core[CORE_HEAD_MTHD(head, HEAD_SET_CONTROL_CURSOR) >> 2];
    uint32_t dma = core[CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_CURSOR) >> 2];
    uint32_t pt = curs[CURS_SET_HOT_SPOT_POINT_OUT >> 2];
    uint64_t start, end;
    g_autofree char *why = NULL;
    ScanoutState st;

    if (!(ctl & CURSOR_ENABLE)) {
        return SCANOUT_OFF;
    }
    c->size = ctl & (1u << 26) ? 64 : 32;
    c->format = (ctl >> 24) & 3;
    c->composition = (ctl >> 28) & 3;
    c->offset = (uint64_t)core[CORE_HEAD_MTHD(head,
                                              HEAD_SET_OFFSET_CURSOR) >> 2]
                << 8;
    c->x = (int16_t)(pt & 0xffff) - (int32_t)((ctl >> 8) & 0x3f);
    c->y = (int16_t)(pt >> 16) - (int32_t)((ctl >> 16) & 0x3f);
    if (!dma) {
        *err = g_strdup_printf("head %d: cursor enabled without a context "
                               "DMA", head);
        return SCANOUT_GUEST_ERROR;
    }
    st = ctxdma(s, head, NV50_EVO_CORE, dma, "cursor", &start, &end, err);
    if (st != SCANOUT_OK) {
        return st;
    }
    c->offset += start;
    if (!nv50_cursor_check(c, s->vram_size, &why)) {
        *err = g_strdup_printf("head %d: %s", head, why);
        return SCANOUT_GUEST_ERROR;
    }
    return within_ctxdma(head, "cursor", c->size, c->size, c->offset,
                         c->offset + nv50_cursor_bytes(c), end, err);
}

/*
 * The overlay @head shows, from the armed overlay channel and overlay-
 * immediate channel: SCANOUT_OFF if it has no ISO context DMA, else
 * checked against its context DMA and VRAM.
 */
static ScanoutState armed_overlay(NV50State *s, int head,
                                  NV50OverlayDesc *o, char **err)
{
    const uint32_t *a = s->pdisp->chan[NV50_EVO_OVLY(head)].armed;
    const uint32_t *imm = s->pdisp->chan[NV50_EVO_OIMM(head)].armed;
    NV50ScanoutDesc *d = &o->surf;
    uint32_t dma = a[OVLY_SET_CTXDMA_ISO >> 2];
    uint32_t params = a[(OVLY_SURFACE_SET_OFFSET + 0x10) >> 2];
    uint32_t pin = a[OVLY_SET_POINT_IN >> 2];
    uint32_t sin = a[OVLY_SET_SIZE_IN >> 2];
    uint32_t pt = imm[OIMM_SET_POINT_OUT >> 2];
    uint64_t start, end;
    g_autofree char *why = NULL;
    ScanoutState st;

    memset(o, 0, sizeof(*o));       /* compared with memcmp */
    if (!dma) {
        return SCANOUT_OFF;
    }
    desc_decode(d, a[OVLY_SURFACE_SET_OFFSET >> 2],
                a[(OVLY_SURFACE_SET_OFFSET + 0x08) >> 2],
                a[(OVLY_SURFACE_SET_OFFSET + 0x0c) >> 2], params);
    o->color_space = params & 3;
    o->in_x = pin & 0x7fff;
    o->in_y = (pin >> 16) & 0x7fff;
    o->in_w = sin & 0x7fff;
    o->in_h = (sin >> 16) & 0x7fff;
    /* cl827e SIZE_OUT has a WIDTH only: no vertical scaling (UNVERIFIED) */
    o->out_w = a[OVLY_SET_SIZE_OUT >> 2] & 0x7fff;
    o->out_h = o->in_h;
    o->x = (int16_t)(pt & 0xffff);
    o->y = (int16_t)(pt >> 16);
    o->mode = a[OVLY_SET_COMPOSITION >> 2] & 0xf;
    o->key_color = a[OVLY_SET_KEY_COLOR >> 2];
    o->key_mask = a[OVLY_SET_KEY_MASK >> 2];
    st = ctxdma(s, head, NV50_EVO_OVLY(head), dma, "overlay ISO", &start,
                &end, err);
    if (st != SCANOUT_OK) {
        return st;
    }
    d->offset += start;
    if (!nv50_overlay_check(o, s->vram_size, &why)) {
        *err = g_strdup_printf("head %d: %s", head, why);
        return SCANOUT_GUEST_ERROR;
    }
    return within_ctxdma(head, "overlay", d->width, d->height, d->offset,
                         nv50_scanout_surface_end(d), end, err);
}

/*
 * Is a plane (cursor, overlay) in armed state @st to be drawn?  A bad
 * one is logged once per distinct reason (*err, kept in *why) and not
 * drawn.
 */
static bool plane_drawn(ScanoutState st, char **err, char **why)
{
    if (st == SCANOUT_OK || st == SCANOUT_OFF) {
        g_clear_pointer(why, g_free);
        return st == SCANOUT_OK;
    }
    if (g_strcmp0(*why, *err)) {
        gemu_log_mask(st == SCANOUT_UNIMP ? LOG_UNIMP : LOG_GUEST_ERROR,
                      "nv50 scanout: %s (not drawn)\n", *err);
        g_free(*why);
        *why = g_steal_pointer(err);
    }
    return false;
}

bool nv50_scanout_head_overlay(NV50State *s, int head, NV50OverlayDesc *o,
                               char **why)
{
    g_autofree char *err = NULL;
    ScanoutState st = armed_overlay(s, head, o, &err);

    return plane_drawn(st, &err, why);
}

bool nv50_scanout_head_cursor(NV50State *s, int head, NV50CursorDesc *c,
                              char **why)
{
    g_autofree char *err = NULL;
    ScanoutState st = armed_cursor(s, head, c, &err);

    return plane_drawn(st, &err, why);
}
