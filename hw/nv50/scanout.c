/*
 * nv50 scanout: what a head shows, converted from VRAM into a host image
 * for ui/ (a DisplayConsole per head, fed at vblank) and -screendump.
 *
 * The head shows the base channel's image (cl507c SURFACE_SET_OFFSET/
 * SIZE/STORAGE/PARAMS, SET_CONTEXT_DMA_ISO 0xc0) when one is armed --
 * nouveau's console lives there -- else the core channel's head surface
 * (cl507d HEAD_SET_OFFSET/SIZE/STORAGE/PARAMS/CONTEXT_DMA_ISO at
 * 0x860/0x868/0x86c/0x870/0x874 + head * 0x400; nouveau's is the whole
 * mode at VRAM 0, pitch ALIGN(w, 64) * 4, head507d.c:246-276).  The
 * overlay is composed over it and the hardware cursor blended on top
 * (both below); the viewport (VIEWPORT_POINT_IN/SIZE_IN) is not applied:
 * the whole surface is shown, and overlay and cursor are placed in its
 * coordinates.
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
 * - Formats (cl507c.h:129-137, wndw.c:229-262 DRM -> EVO, envytools
 *   docs/hw/memory/g80-surface.rst colour formats, components listed
 *   from the LSB of a little-endian element): 0xcf A8R8G8B8 = BGRA
 *   (bytes B, G, R, A: DRM XRGB/ARGB8888); 0xd5 A8B8G8R8 = RGBA (bytes
 *   R, G, B, A: DRM XBGR/ABGR8888); 0xe8 R5G6B5 = B 4:0, G 10:5, R 15:11
 *   (DRM RGB565); 0xe9 A1R5G5B5 = B 4:0, G 9:5, R 14:10, A 15 (DRM
 *   XRGB1555 and ARGB1555 alike); 0xd1 A2B10G10R10 = R 9:0, G 19:10,
 *   B 29:20, A 31:30 (DRM XBGR/ABGR2101010); 0x1e I8 = an index into
 *   the LUT.  The base layer is opaque: alpha is ignored.  0xca (FP16),
 *   0x1f/0x2e (VOID16/32) are not shown (LOG_UNIMP).
 * - Block-linear: the display's blocks are 1 GOB wide and 1 << BLOCK_
 *   HEIGHT GOBs high, PITCH / 64 blocks to a row of blocks; the layout
 *   itself (GOBs, blocks, their order) is hw/nv50/surface.c's, the one
 *   every unit uses.
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
 *   at once (evo.c).  So the cursor shows the core's armed control/
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
 * - Blending: A8R8G8B8 (nouveau's only cursor format, curs507a_format
 *   DRM_FORMAT_ARGB8888 -> 0xcf -> FORMAT A8R8G8B8) is blended over the
 *   converted base pixels (after the base LUT) as COMPOSITION says.
 *   nouveau 6.1 arms ALPHA_BLEND (head827d.c:64), although DRM takes a
 *   plane without a "pixel blend mode" property to hold premultiplied
 *   pixels (drm_blend.c, drm_atomic_state_helper.c: the default is
 *   DRM_MODE_BLEND_PREMULTI; nv50 cursors get no such property, wndw.c
 *   creates it only with blend_set, i.e. on GV100+ windows).  gemu
 *   emulates the hardware, so it does what the armed COMPOSITION names:
 *   ALPHA_BLEND out = (c * a + d * (255 - a)) / 255 (straight alpha),
 *   PREMULT out = min(255, c + d * (255 - a) / 255), rounded to nearest;
 *   premultiplied images armed as ALPHA_BLEND therefore come out darker
 *   at their soft edges, as they would on the hardware if its
 *   ALPHA_BLEND is straight alpha (UNVERIFIED).
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
 *   interlocked, armed at once (evo.c).  The overlay's own UPDATE is
 *   interlocked with the core in a modeset, else taken at the vblank.
 *   The overlay ISO ctxdma is resolved in the overlay channel.
 *   OPAQUE_SUSPEND_BASE: overlay pixels replace the base's (after the
 *   base's LUT) wherever the overlay is, alpha ignored; the cursor goes
 *   on top (DRM's plane order primary < overlay < cursor; the hardware
 *   order is UNVERIFIED).
 *
 * UNVERIFIED (overlay):
 * - The SIZE_OUT rectangle is SIZE_OUT.WIDTH x SIZE_IN.HEIGHT (no
 *   vertical scaling; bits 30:16 of SIZE_OUT ignored) and its pixel
 *   (0, 0) is at POINT_OUT (16-bit signed, like the cursor's); whatever
 *   lies outside the image is clipped.  SIZE_OUT != SIZE_IN scales
 *   nearest-neighbour: output (i, j) shows source (POINT_IN.X + i *
 *   SIZE_IN.W / SIZE_OUT.W, POINT_IN.Y + j * SIZE_IN.H / SIZE_OUT.H)
 *   (the hardware surely filters).  A source rectangle not within the
 *   surface, an empty SIZE_IN/SIZE_OUT, a reserved mode, a format not in
 *   the 827e list (I8, R5G6B5, A8B8G8R8 included) are guest errors.
 * - Colour keys compare the 8-bit R, G, B of a pixel as 0x00RRGGBB,
 *   masked by KEY_MASK (bits 23:0), with KEY_COLOR: SOURCE keying drops
 *   overlay pixels equal to the key (the base shows), DESTINATION keying
 *   shows the overlay only where the base pixel (after its LUT, before
 *   the cursor) equals the key.  The real key layout may follow the
 *   surfaces' own formats.
 * - No LUT applies to overlay pixels (cl827e has no LUT methods; rnndb's
 *   OVERLAY_LUT 0xb4 and DMA_LUT_HANDLE 0xb0 are not modelled); 10-bit
 *   components are truncated as for the base.  COLOR_SPACE is ignored
 *   for RGB formats.
 * - YUV (component names from cl827e: 0x28 is, from the LSB, Y of the
 *   even pixel, U, Y of the odd pixel, V = bytes Y0 U Y1 V, which is DRM
 *   YUYV as nouveau maps it; 0x29 = bytes U Y0 V Y1 = UYVY): both pixels
 *   of a 4-byte pair take its U and V (no chroma interpolation); limited
 *   range (Y 16-235), BT.601 coefficients unless COLOR_SPACE is YUV_709
 *   (RGB and the reserved value 3 are taken as 601), in 8.8 fixed point
 *   (R = (298 (Y-16) + 409 (V-128) + 128) >> 8, G = ... - 100 (U-128)
 *   - 208 (V-128), B = ... + 516 (U-128); 709: 459; -55, -136; 541),
 *   clamped.  A YUV surface of odd width is a guest error.
 *
 * UNVERIFIED:
 * - Cursor: the image is pitch-linear with packed rows (size x 4 or x 2
 *   bytes; cl507d has no cursor pitch or layout); ALPHA_BLEND is
 *   straight alpha and the rounding is to nearest; XOR flips the base's
 *   B, G, R bits with the cursor's and ignores alpha; A1R5G5B5 has alpha
 *   0 or 255 and 5-bit components widened by bit replication; no LUT
 *   applies to cursor pixels; an enabled cursor with CONTEXT_DMA_CURSOR
 *   0 (cl507d has no such method) is a guest error and is not drawn;
 *   the cursor sits in the surface's coordinates (no viewport).
 * - A LUT enabled with no LUT ctxdma (handle 0: cl507d has no such
 *   method) is read at VRAM offset 0 + origin.  ISO ctxdmas targeting
 *   guest memory are not shown (LOG_UNIMP).
 * - LUT entries are read as 14-bit unsigned fractions (bits 13:0, 0x3fff
 *   = full scale, larger values clamp); the LUT origin is HI << 8 |
 *   (LO & 0xfc).  8-bit components (and I8 indices) select entry c in
 *   either mode; 5/6-bit components are widened to 8 bits by bit
 *   replication first; 10-bit components select entry c >> 2 (LORES) or
 *   interpolate towards entry (c >> 2) + 1 by (c & 3) / 4 (HIRES).
 *   envytools (nv_evo.xml) says LORES ignores the first and last 64
 *   entries and interpolates the middle 128; nouveau's working 8 bpp
 *   path (LORES, entry i for index i) is followed instead.
 * - Without a LUT, 10-bit components are truncated to 8 bits (c >> 2).
 * - A base channel with SET_BASE_LUT_LO ENABLE = DISABLE shows direct
 *   colour without the core's LUT; ENABLE uses its own LUT at 0xe0/0xe4;
 *   value 2 is taken as DISABLE.  The core's OUTPUT_LUT is not applied.
 * - I8 without a LUT is an error (nouveau: "the HW error-checks for
 *   this", wndw.c:375-392).
 *
 * Console protocol, per vblank of a head with a console: a new surface
 * (display_console_set_surface) on the first frame, after the head showed
 * nothing, or when the size or source format changes, followed by a
 * whole-surface update and a frame; otherwise the rows whose VRAM bytes
 * differ from the previous vblank's are converted and one update with
 * their bounding rectangle is sent, then display_console_frame -- frames
 * are only counted when something changed, so a listener that writes a
 * file per frame writes nothing while the picture stands still.  A LUT
 * change redraws everything.  With no valid surface the console gets a
 * NULL surface (once) and the reason is logged once.  The cursor is
 * part of the image: when it moves, appears, goes, or its pixels (the
 * VRAM bytes it reads, compared at each vblank) or the surface under it
 * change, the part of the image it covered is converted afresh from the
 * previous vblank's surface rows, the cursor is blended where it now
 * is, and both rectangles join the update.  A bad cursor (beyond its
 * context DMA or VRAM, unbound handle, bad size/format) is logged once
 * and not drawn; the surface is still shown.  The overlay is composed
 * after the surface rows and before the cursor: when it moves, appears,
 * goes, changes its armed state or its source pixels (the VRAM bytes of
 * its POINT_IN/SIZE_IN rectangle, kept at each vblank), or the surface
 * changes under it, its old rectangle is converted afresh from the
 * surface rows, it is composed where it now is, and both rectangles join
 * the update; the cursor is redrawn (over surface and overlay) where
 * that touched it.  A bad overlay is logged once and not drawn.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/scanout.h"
#include "hw/nv50/surface.h"
#include "ui/console.h"

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

/* --- the pure conversion --- */

/*
 * Each component as a 10-bit value (8-bit ones << 2) -> the 8 bits shown:
 * the LUT resolved once per frame, or the identity.
 */
typedef struct ColourMap {
    uint8_t c[3][1024];         /* R, G, B */
} ColourMap;

static const struct {
    unsigned format;
    unsigned bpp;
    const char *name;
} formats[] = {
    { NV50_SURFACE_A8R8G8B8, 4, "XRGB8888" },
    { NV50_SURFACE_A8B8G8R8, 4, "XBGR8888" },
    { NV50_SURFACE_A2B10G10R10, 4, "XBGR2101010" },
    { NV50_SURFACE_R5G6B5, 2, "RGB565" },
    { NV50_SURFACE_A1R5G5B5, 2, "XRGB1555" },
    { NV50_SURFACE_I8, 1, "I8" },
};

unsigned nv50_scanout_format_bpp(unsigned format)
{
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        if (formats[i].format == format) {
            return formats[i].bpp;
        }
    }
    return 0;
}

const char *nv50_scanout_format_name(unsigned format)
{
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
        if (formats[i].format == format) {
            return formats[i].name;
        }
    }
    return NULL;
}

/* Bytes per pixel of any surface format, the overlay's YUV included. */
static unsigned surface_bpp(unsigned format)
{
    if (format == NV50_OVLY_YUYV || format == NV50_OVLY_UYVY) {
        return 2;               /* a 4-byte pair of pixels */
    }
    return nv50_scanout_format_bpp(format);
}

/* A LUT entry (14-bit fraction, UNVERIFIED) as 8 bits, rounded. */
static uint8_t lut_out8(uint32_t e)
{
    if (e > 0x3fff) {
        e = 0x3fff;
    }
    return (e * 255 + 0x1fff) / 0x3fff;
}

static void colour_map_build(ColourMap *m, const NV50ScanoutLut *lut)
{
    for (unsigned v = 0; v < 1024; v++) {
        unsigned i = v >> 2, f = v & 3;

        for (int ch = 0; ch < 3; ch++) {
            uint32_t e;

            if (!lut) {
                m->c[ch][v] = v >> 2;
                continue;
            }
            e = lut->entry[i][ch];
            if (lut->hires && f) {
                int32_t next = lut->entry[i + 1][ch];

                e = (int32_t)e + ((next - (int32_t)e) * (int32_t)f) / 4;
            }
            m->c[ch][v] = lut_out8(e);
        }
    }
}

/* Bytes of one row that the head reads: width * bpp. */
static uint64_t row_len(const NV50ScanoutDesc *d)
{
    return (uint64_t)d->width * surface_bpp(d->format);
}

/* The surface module's view of @d (hw/nv50/surface.c has the layout). */
static NV50Surface desc_surface(const NV50ScanoutDesc *d)
{
    NV50Surface sf = {
        .block_linear = d->block_linear,
        .pitch = d->pitch,
        /* block-linear PITCH is the row of blocks: 64 x GOBs across */
        .width_bytes = d->pitch,
        .height = d->height,
        .depth = 1,
        .block_h = d->block_height,
    };

    return sf;
}

/* One past the last byte the head reads (@d checked but for its end). */
static uint64_t surface_end(const NV50ScanoutDesc *d)
{
    NV50Surface sf = desc_surface(d);

    return d->offset + nv50_surface_offset(&sf, row_len(d) - 1,
                                           d->height - 1, 0) + 1;
}

/* nv50_scanout_check with @bpp the format's bytes per pixel (0: bad) */
static bool surface_check(const NV50ScanoutDesc *d, unsigned bpp,
                          uint64_t vram_size, char **err)
{
    uint64_t len, end;

    if (!d->width || !d->height) {
        *err = g_strdup_printf("empty surface (%ux%u)", d->width, d->height);
        return false;
    }
    if (!bpp) {
        *err = g_strdup_printf("surface format 0x%02x is not one the head "
                               "can show", d->format);
        return false;
    }
    if (d->format == NV50_SURFACE_I8 && !d->lut) {
        *err = g_strdup("I8 surface without a LUT");
        return false;
    }
    len = row_len(d);
    if (d->pitch < len) {
        *err = g_strdup_printf("pitch %u is less than %u x %u bytes",
                               d->pitch, d->width, bpp);
        return false;
    }
    if (d->block_linear) {
        if (d->block_height > NV50_BLOCK_LOG2_MAX) {
            *err = g_strdup_printf("block height %u (at most %u: 32 GOBs)",
                                   d->block_height, NV50_BLOCK_LOG2_MAX);
            return false;
        }
        if (d->pitch % NV50_GOB_WIDTH) {
            *err = g_strdup_printf("block-linear pitch %u is not a whole "
                                   "number of 64-byte GOBs", d->pitch);
            return false;
        }
    }
    end = surface_end(d);
    if (end > vram_size) {
        *err = g_strdup_printf("%ux%u %s surface at 0x%" PRIx64 " ends at "
                               "0x%" PRIx64 ", beyond VRAM (%" PRIu64
                               " MiB)", d->width, d->height,
                               d->block_linear ? "block-linear" :
                               "pitch-linear", d->offset, end,
                               vram_size >> 20);
        return false;
    }
    return true;
}

bool nv50_scanout_check(const NV50ScanoutDesc *d, uint64_t vram_size,
                        char **err)
{
    return surface_check(d, nv50_scanout_format_bpp(d->format), vram_size,
                         err);
}

/*
 * The bytes of row @y: a pointer into VRAM (pitch-linear) or the row
 * gathered GOB row by GOB row into @scratch (row_len bytes).  @d is
 * checked.
 */
static const uint8_t *row_bytes(const uint8_t *vram, const NV50ScanoutDesc *d,
                                uint32_t y, uint8_t *scratch)
{
    NV50Surface sf = desc_surface(d);
    uint64_t len = row_len(d);

    if (!d->block_linear) {
        return vram + d->offset + nv50_surface_offset(&sf, 0, y, 0);
    }
    for (uint64_t x = 0; x < len;) {
        uint64_t run = MIN((uint64_t)nv50_surface_run(&sf, x, y, 0),
                           len - x);

        memcpy(scratch + x, vram + d->offset +
               nv50_surface_offset(&sf, x, y, 0), run);
        x += run;
    }
    return scratch;
}

/* Widen a 5- or 6-bit component to 8 bits, then to the 10-bit index. */
#define X5(v)   ((((v) << 3) | ((v) >> 2)) << 2)
#define X6(v)   ((((v) << 2) | ((v) >> 4)) << 2)

/*
 * Convert @n pixels of @format at @src into BGRX at @dst.  @identity: no
 * LUT, which lets XRGB8888 skip the map.
 */
static void convert_span(unsigned format, const ColourMap *m, bool identity,
                         const uint8_t *src, uint8_t *dst, uint32_t n)
{
    const uint8_t *r = m->c[0], *g = m->c[1], *b = m->c[2];

    switch (format) {
    case NV50_SURFACE_A8R8G8B8:
        if (identity) {
            for (uint32_t i = 0; i < n; i++, src += 4, dst += 4) {
                dst[0] = src[0];
                dst[1] = src[1];
                dst[2] = src[2];
                dst[3] = 0xff;
            }
            break;
        }
        for (uint32_t i = 0; i < n; i++, src += 4, dst += 4) {
            dst[0] = b[src[0] << 2];
            dst[1] = g[src[1] << 2];
            dst[2] = r[src[2] << 2];
            dst[3] = 0xff;
        }
        break;
    case NV50_SURFACE_A8B8G8R8:
        for (uint32_t i = 0; i < n; i++, src += 4, dst += 4) {
            dst[0] = b[src[2] << 2];
            dst[1] = g[src[1] << 2];
            dst[2] = r[src[0] << 2];
            dst[3] = 0xff;
        }
        break;
    case NV50_SURFACE_A2B10G10R10:
        for (uint32_t i = 0; i < n; i++, src += 4, dst += 4) {
            uint32_t v = src[0] | src[1] << 8 | src[2] << 16 |
                         (uint32_t)src[3] << 24;

            dst[0] = b[(v >> 20) & 0x3ff];
            dst[1] = g[(v >> 10) & 0x3ff];
            dst[2] = r[v & 0x3ff];
            dst[3] = 0xff;
        }
        break;
    case NV50_SURFACE_R5G6B5:
        for (uint32_t i = 0; i < n; i++, src += 2, dst += 4) {
            unsigned v = src[0] | src[1] << 8;

            dst[0] = b[X5(v & 0x1f)];
            dst[1] = g[X6((v >> 5) & 0x3f)];
            dst[2] = r[X5(v >> 11)];
            dst[3] = 0xff;
        }
        break;
    case NV50_SURFACE_A1R5G5B5:
        for (uint32_t i = 0; i < n; i++, src += 2, dst += 4) {
            unsigned v = src[0] | src[1] << 8;

            dst[0] = b[X5(v & 0x1f)];
            dst[1] = g[X5((v >> 5) & 0x1f)];
            dst[2] = r[X5((v >> 10) & 0x1f)];
            dst[3] = 0xff;
        }
        break;
    case NV50_SURFACE_I8:
        for (uint32_t i = 0; i < n; i++, src++, dst += 4) {
            dst[0] = b[src[0] << 2];
            dst[1] = g[src[0] << 2];
            dst[2] = r[src[0] << 2];
            dst[3] = 0xff;
        }
        break;
    default:
        g_assert_not_reached();     /* nv50_scanout_check refused it */
    }
}

bool nv50_scanout_convert(const uint8_t *vram, uint64_t vram_size,
                          const NV50ScanoutDesc *d, uint8_t *dst,
                          uint32_t dst_pitch, char **err)
{
    g_autofree ColourMap *map = NULL;
    g_autofree uint8_t *scratch = NULL;

    if (!nv50_scanout_check(d, vram_size, err)) {
        return false;
    }
    map = g_new(ColourMap, 1);
    colour_map_build(map, d->lut);
    if (d->block_linear) {
        scratch = g_malloc(row_len(d));
    }
    for (uint32_t y = 0; y < d->height; y++) {
        convert_span(d->format, map, !d->lut, row_bytes(vram, d, y, scratch),
                     dst + (size_t)y * dst_pitch, d->width);
    }
    return true;
}

bool nv50_scanout_lut_read(const uint8_t *vram, uint64_t vram_size,
                           uint64_t addr, bool hires, NV50ScanoutLut *lut,
                           char **err)
{
    if (addr > vram_size || vram_size - addr < NV50_LUT_BYTES) {
        *err = g_strdup_printf("LUT at 0x%" PRIx64 " runs beyond VRAM "
                               "(%" PRIu64 " MiB)", addr, vram_size >> 20);
        return false;
    }
    lut->hires = hires;
    for (unsigned i = 0; i < NV50_LUT_ENTRIES; i++) {
        const uint8_t *p = vram + addr + i * NV50_LUT_ENTRY_SIZE;

        for (int ch = 0; ch < 3; ch++) {
            lut->entry[i][ch] = p[ch * 2] | p[ch * 2 + 1] << 8;
        }
    }
    return true;
}

/* --- the cursor, blended over the converted image --- */

uint32_t nv50_cursor_bytes(const NV50CursorDesc *c)
{
    unsigned bpp = c->format == NV50_CURSOR_A8R8G8B8 ? 4 :
                   c->format == NV50_CURSOR_A1R5G5B5 ? 2 : 0;

    return c->size * c->size * bpp;
}

bool nv50_cursor_check(const NV50CursorDesc *c, uint64_t vram_size,
                       char **err)
{
    uint64_t len = nv50_cursor_bytes(c);

    if (c->size != 32 && c->size != 64) {
        *err = g_strdup_printf("cursor size %u (32 or 64)", c->size);
        return false;
    }
    if (!len) {
        *err = g_strdup_printf("cursor format %u is not one the head can "
                               "show", c->format);
        return false;
    }
    if (c->composition > NV50_CURSOR_XOR) {
        *err = g_strdup_printf("cursor composition %u is reserved",
                               c->composition);
        return false;
    }
    if (c->offset > vram_size || vram_size - c->offset < len) {
        *err = g_strdup_printf("%ux%u cursor at 0x%" PRIx64 " runs beyond "
                               "VRAM (%" PRIu64 " MiB)", c->size, c->size,
                               c->offset, vram_size >> 20);
        return false;
    }
    return true;
}

/*
 * A w x h rectangle at (x, y), clipped to a @width x @height image:
 * columns [*x0, *x1), rows [*y0, *y1); false if nothing is left.
 */
static bool clip_rect(int32_t x, int32_t y, uint32_t w, uint32_t h,
                      uint32_t width, uint32_t height, uint32_t *x0,
                      uint32_t *y0, uint32_t *x1, uint32_t *y1)
{
    int64_t l = MAX((int64_t)x, 0), t = MAX((int64_t)y, 0);
    int64_t r = MIN((int64_t)x + w, (int64_t)width);
    int64_t b = MIN((int64_t)y + h, (int64_t)height);

    if (l >= r || t >= b) {
        return false;
    }
    *x0 = l;
    *y0 = t;
    *x1 = r;
    *y1 = b;
    return true;
}

bool nv50_cursor_rect(const NV50CursorDesc *c, uint32_t width,
                      uint32_t height, uint32_t *x0, uint32_t *y0,
                      uint32_t *x1, uint32_t *y1)
{
    return clip_rect(c->x, c->y, c->size, c->size, width, height,
                     x0, y0, x1, y1);
}

/* v / 255, rounded to nearest, for v <= 255 * 255 */
static inline uint32_t div255(uint32_t v)
{
    v += 128;
    return (v + (v >> 8)) >> 8;
}

bool nv50_cursor_compose(const uint8_t *vram, uint64_t vram_size,
                         const NV50CursorDesc *c, uint8_t *dst,
                         uint32_t width, uint32_t height,
                         uint32_t dst_pitch, char **err)
{
    unsigned bpp = c->format == NV50_CURSOR_A8R8G8B8 ? 4 : 2;
    uint32_t x0, y0, x1, y1;

    if (!nv50_cursor_check(c, vram_size, err)) {
        return false;
    }
    if (!nv50_cursor_rect(c, width, height, &x0, &y0, &x1, &y1)) {
        return true;
    }
    for (uint32_t y = y0; y < y1; y++) {
        const uint8_t *src = vram + c->offset +
                             (uint64_t)(y - c->y) * c->size * bpp +
                             (uint64_t)((int64_t)x0 - c->x) * bpp;
        uint8_t *d = dst + (size_t)y * dst_pitch + (size_t)x0 * 4;

        for (uint32_t x = x0; x < x1; x++, src += bpp, d += 4) {
            uint32_t a, rgb[3];     /* B, G, R as in BGRX */

            if (bpp == 4) {
                rgb[0] = src[0];
                rgb[1] = src[1];
                rgb[2] = src[2];
                a = src[3];
            } else {
                unsigned v = src[0] | src[1] << 8;

                rgb[0] = (v & 0x1f) << 3 | (v & 0x1f) >> 2;
                rgb[1] = ((v >> 5) & 0x1f) << 3 | ((v >> 5) & 0x1f) >> 2;
                rgb[2] = ((v >> 10) & 0x1f) << 3 | ((v >> 10) & 0x1f) >> 2;
                a = v & 0x8000 ? 0xff : 0;
            }
            for (int ch = 0; ch < 3; ch++) {
                switch (c->composition) {
                case NV50_CURSOR_ALPHA_BLEND:
                    d[ch] = div255(rgb[ch] * a + d[ch] * (255 - a));
                    break;
                case NV50_CURSOR_PREMULT_ALPHA_BLEND:
                    d[ch] = MIN(255u, rgb[ch] + div255(d[ch] * (255 - a)));
                    break;
                default:                /* XOR */
                    d[ch] ^= rgb[ch];
                    break;
                }
            }
        }
    }
    return true;
}

/* --- the overlay, composed over the converted base image --- */

bool nv50_overlay_check(const NV50OverlayDesc *o, uint64_t vram_size,
                        char **err)
{
    const NV50ScanoutDesc *d = &o->surf;

    bool yuv = d->format == NV50_OVLY_YUYV || d->format == NV50_OVLY_UYVY;

    if (!yuv && d->format != NV50_SURFACE_A8R8G8B8 &&
        d->format != NV50_SURFACE_A1R5G5B5 &&
        d->format != NV50_SURFACE_A2B10G10R10) {
        *err = g_strdup_printf("surface format 0x%02x is not an overlay "
                               "format", d->format);
        return false;
    }
    if (d->lut) {
        *err = g_strdup("overlay with a LUT");
        return false;
    }
    if (yuv && (d->width & 1)) {
        *err = g_strdup_printf("YUV overlay of odd width %u", d->width);
        return false;
    }
    if (!surface_check(d, surface_bpp(d->format), vram_size, err)) {
        return false;
    }
    if (!o->in_w || !o->in_h || !o->out_w || !o->out_h) {
        *err = g_strdup_printf("empty overlay (SIZE_IN %ux%u, SIZE_OUT "
                               "%ux%u)", o->in_w, o->in_h, o->out_w,
                               o->out_h);
        return false;
    }
    if ((uint64_t)o->in_x + o->in_w > d->width ||
        (uint64_t)o->in_y + o->in_h > d->height) {
        *err = g_strdup_printf("overlay source %ux%u at (%u, %u) is not "
                               "within its %ux%u surface", o->in_w, o->in_h,
                               o->in_x, o->in_y, d->width, d->height);
        return false;
    }
    if (o->mode > NV50_OVLY_OPAQUE) {
        *err = g_strdup_printf("overlay composition mode %u is reserved",
                               o->mode);
        return false;
    }
    return true;
}

bool nv50_overlay_rect(const NV50OverlayDesc *o, uint32_t width,
                       uint32_t height, uint32_t *x0, uint32_t *y0,
                       uint32_t *x1, uint32_t *y1)
{
    return clip_rect(o->x, o->y, o->out_w, o->out_h, width, height,
                     x0, y0, x1, y1);
}

/* (v + 128) >> 8, clamped to 0-255 */
static inline uint8_t yuv_clamp(int32_t v)
{
    return v < -128 ? 0 : MIN((v + 128) >> 8, 255);
}

/*
 * Convert pixels [x, x + n) of a YUYV/UYVY @row into BGRX at @dst: the
 * two pixels of a 4-byte pair share its U and V; limited-range BT.601
 * (or BT.709 for COLOR_SPACE YUV_709), 8.8 fixed point.
 */
static void yuv_span(unsigned format, unsigned color_space,
                     const uint8_t *row, uint32_t x, uint32_t n,
                     uint8_t *dst)
{
    /* Y (even, odd), U, V byte of a pair */
    const unsigned *at = format == NV50_OVLY_YUYV ?
                         (const unsigned[]){ 0, 2, 1, 3 } :
                         (const unsigned[]){ 1, 3, 0, 2 };
    /* R from V, G from U, G from V, B from U; Y scale 298 */
    const int32_t *k = color_space == 2 ?
                       (const int32_t[]){ 459, -55, -136, 541 } :
                       (const int32_t[]){ 409, -100, -208, 516 };

    for (uint32_t i = 0; i < n; i++, dst += 4) {
        const uint8_t *pair = row + (size_t)((x + i) & ~1u) * 2;
        int32_t c = 298 * ((int32_t)pair[at[(x + i) & 1]] - 16);
        int32_t u = (int32_t)pair[at[2]] - 128;
        int32_t v = (int32_t)pair[at[3]] - 128;

        dst[0] = yuv_clamp(c + k[3] * u);
        dst[1] = yuv_clamp(c + k[1] * u + k[2] * v);
        dst[2] = yuv_clamp(c + k[0] * v);
        dst[3] = 0xff;
    }
}

/* BGRX pixel as the 0x00RRGGBB value colour keys compare */
static inline uint32_t bgrx_rgb(const uint8_t *p)
{
    return (uint32_t)p[2] << 16 | p[1] << 8 | p[0];
}

/*
 * Compose checked overlay @o over the part [cx0, cx1) x [cy0, cy1) of
 * @dst (already clipped to the image).  @map is the identity.
 */
static void overlay_compose_clip(const uint8_t *vram,
                                 const NV50OverlayDesc *o,
                                 const ColourMap *map, uint8_t *dst,
                                 uint32_t dst_pitch, uint32_t cx0,
                                 uint32_t cy0, uint32_t cx1, uint32_t cy1)
{
    const NV50ScanoutDesc *d = &o->surf;
    unsigned bpp = surface_bpp(d->format);
    bool yuv = d->format == NV50_OVLY_YUYV || d->format == NV50_OVLY_UYVY;
    g_autofree uint8_t *scratch = d->block_linear ?
                                  g_malloc(row_len(d)) : NULL;
    g_autofree uint8_t *px = g_malloc((size_t)o->in_w * 4);
    uint32_t key = o->key_color & o->key_mask & 0xffffff;
    uint32_t mask = o->key_mask & 0xffffff;
    int64_t prev_sy = -1;

    for (uint32_t y = cy0; y < cy1; y++) {
        /* nearest: output row j shows source row j * in_h / out_h */
        uint32_t sy = o->in_y + (uint32_t)((uint64_t)(y - o->y) * o->in_h /
                                           o->out_h);
        uint8_t *dp = dst + (size_t)y * dst_pitch + (size_t)cx0 * 4;

        if (sy != prev_sy) {
            const uint8_t *row = row_bytes(vram, d, sy, scratch);

            if (yuv) {
                yuv_span(d->format, o->color_space, row, o->in_x, o->in_w,
                         px);
            } else {
                convert_span(d->format, map, true,
                             row + (size_t)o->in_x * bpp, px, o->in_w);
            }
            prev_sy = sy;
        }
        for (uint32_t x = cx0; x < cx1; x++, dp += 4) {
            uint32_t sx = (uint32_t)((uint64_t)(x - o->x) * o->in_w /
                                     o->out_w);
            const uint8_t *sp = px + (size_t)sx * 4;

            switch (o->mode) {
            case NV50_OVLY_SRC_COLOR_KEYING:
                if ((bgrx_rgb(sp) & mask) == key) {
                    continue;           /* keyed out: the base shows */
                }
                break;
            case NV50_OVLY_DST_COLOR_KEYING:
                if ((bgrx_rgb(dp) & mask) != key) {
                    continue;           /* not the key: the base shows */
                }
                break;
            default:                    /* OPAQUE_SUSPEND_BASE */
                break;
            }
            dp[0] = sp[0];
            dp[1] = sp[1];
            dp[2] = sp[2];
        }
    }
}

static const ColourMap *identity_map(void)
{
    static ColourMap map;
    static gsize done;

    if (g_once_init_enter(&done)) {
        colour_map_build(&map, NULL);
        g_once_init_leave(&done, 1);
    }
    return &map;
}

bool nv50_overlay_compose(const uint8_t *vram, uint64_t vram_size,
                          const NV50OverlayDesc *o, uint8_t *dst,
                          uint32_t width, uint32_t height,
                          uint32_t dst_pitch, char **err)
{
    uint32_t x0, y0, x1, y1;

    if (!nv50_overlay_check(o, vram_size, err)) {
        return false;
    }
    if (nv50_overlay_rect(o, width, height, &x0, &y0, &x1, &y1)) {
        overlay_compose_clip(vram, o, identity_map(), dst, dst_pitch, x0,
                             y0, x1, y1);
    }
    return true;
}

/* --- the card side: the armed surface of a head --- */

typedef enum ScanoutState {
    SCANOUT_OK,
    SCANOUT_OFF,            /* nothing armed: no mode set */
    SCANOUT_GUEST_ERROR,    /* armed, but not something a G84 shows */
    SCANOUT_UNIMP,          /* a real format gemu does not convert */
} ScanoutState;

typedef struct NV50ScanoutHead {
    DisplayConsole *con;        /* not owned */
    bool shown;                 /* con's surface is @image */
    uint32_t width, height;     /* of @image */
    unsigned format;            /* source format @shadow holds */
    uint8_t *image;             /* BGRX8888, width * 4 bytes a row */
    uint8_t *shadow;            /* last vblank's source rows, packed */
    uint8_t *scratch;           /* a gathered block-linear row */
    ColourMap map;              /* the LUT @image was converted with */
    bool identity;
    NV50ScanoutLut lut;
    char *why;                  /* why nothing is shown (logged once) */
    char *info;
    uint8_t *dump;              /* nv50_scanout_surface's image */
    /* the cursor blended into @image, if curs_on */
    bool curs_on;
    NV50CursorDesc curs;
    uint32_t cx0, cy0, cx1, cy1;    /* the part of @image it covers */
    uint8_t curs_px[NV50_CURSOR_SIZE_MAX * NV50_CURSOR_SIZE_MAX * 4];
    char *curs_why;             /* why it is not drawn (logged once) */
    /* the overlay composed into @image, if ovly_on */
    bool ovly_on;
    NV50OverlayDesc ovly;
    uint32_t ox0, oy0, ox1, oy1;    /* the part of @image it covers */
    uint8_t *ovly_px;           /* its source rectangle's VRAM bytes */
    size_t ovly_px_len;
    char *ovly_why;             /* why it is not drawn (logged once) */
} NV50ScanoutHead;

typedef struct NV50Scanout {
    NV50ScanoutHead head[NV50_HEADS];
} NV50Scanout;

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

/* The LUT that applies to @head's pixels, from the armed methods. */
static ScanoutState armed_lut(NV50State *s, int head, bool base_image,
                              NV50ScanoutLut *lut, bool *enabled,
                              char **err)
{
    const uint32_t *core = s->pdisp->chan[0].armed;
    uint32_t lo = core[CORE_HEAD_MTHD(head, HEAD_SET_BASE_LUT_LO) >> 2];
    uint32_t hi = core[CORE_HEAD_MTHD(head, HEAD_SET_BASE_LUT_HI) >> 2];
    uint32_t dma = core[CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_LUT) >> 2];
    int chid = 0;
    bool on = lo & (1u << 31), hires = lo & (1u << 30);
    uint64_t start = 0, end = s->vram_size, addr;
    g_autofree char *why = NULL;
    ScanoutState st;

    if (base_image) {
        const uint32_t *base = s->pdisp->chan[1 + head].armed;
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
            chid = 1 + head;
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
 * The surface @head shows, from the armed state: the base image if one
 * is armed, else the core's head surface.  @lut is where the LUT goes.
 */
static ScanoutState armed_desc(NV50State *s, int head, NV50ScanoutDesc *d,
                               NV50ScanoutLut *lut, char **err)
{
    const uint32_t *a;
    uint32_t size, storage, fmt, dma;
    uint64_t start, end;
    bool base_image, lut_on;
    ScanoutState st;
    g_autofree char *why = NULL;

    if (head < 0 || head >= NV50_HEADS) {
        *err = g_strdup_printf("no head %d (the G84 has heads 0 and 1)",
                               head);
        return SCANOUT_OFF;
    }
    base_image = s->pdisp->chan[1 + head].armed[BASE_SET_CTXDMA_ISO >> 2];
    if (base_image) {
        a = s->pdisp->chan[1 + head].armed;
        dma = a[BASE_SET_CTXDMA_ISO >> 2];
        d->offset = (uint64_t)a[BASE_SURFACE_SET_OFFSET >> 2] << 8;
        size = a[BASE_SURFACE_SET_SIZE >> 2];
        storage = a[BASE_SURFACE_SET_STORAGE >> 2];
        fmt = (a[BASE_SURFACE_SET_PARAMS >> 2] >> 8) & 0xff;
    } else {
        a = s->pdisp->chan[0].armed;
        dma = a[CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_ISO) >> 2];
        if (!dma) {
            *err = g_strdup_printf("no scanout surface armed on head %d "
                                   "(the guest has not set a mode)", head);
            return SCANOUT_OFF;
        }
        d->offset = (uint64_t)a[CORE_HEAD_MTHD(head, HEAD_SET_OFFSET) >> 2]
                    << 8;
        size = a[CORE_HEAD_MTHD(head, HEAD_SET_SIZE) >> 2];
        storage = a[CORE_HEAD_MTHD(head, HEAD_SET_STORAGE) >> 2];
        fmt = (a[CORE_HEAD_MTHD(head, HEAD_SET_PARAMS) >> 2] >> 8) & 0xff;
    }
    d->width = size & 0x7fff;
    d->height = (size >> 16) & 0x7fff;
    d->block_linear = !(storage & STORAGE_LAYOUT_PITCH);
    d->block_height = storage & 0xf;
    d->pitch = ((storage >> 8) & 0x3ff) *
               (d->block_linear ? NV50_GOB_WIDTH : 256);
    d->format = fmt;
    d->lut = NULL;
    if (!d->width || !d->height) {
        *err = g_strdup_printf("no scanout surface armed on head %d "
                               "(%s surface of %ux%u)", head,
                               base_image ? "base" : "core",
                               d->width, d->height);
        return SCANOUT_OFF;
    }
    if (!nv50_scanout_format_bpp(fmt)) {
        bool known = fmt == 0x1f || fmt == 0x2e || fmt == 0xca;

        *err = g_strdup_printf("head %d scanout format 0x%02x %s", head, fmt,
                               known ? "(VOID16/VOID32/RF16_GF16_BF16_AF16) "
                               "is not shown by gemu" :
                               "is not an EVO surface format");
        return known ? SCANOUT_UNIMP : SCANOUT_GUEST_ERROR;
    }
    st = ctxdma(s, head, base_image ? 1 + head : 0, dma, "ISO", &start,
                &end, err);
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
    if (surface_end(d) > end) {
        *err = g_strdup_printf("head %d: %ux%u surface at 0x%" PRIx64
                               " runs past its context DMA (limit 0x%"
                               PRIx64 ")", head, d->width, d->height,
                               d->offset, end - 1);
        return SCANOUT_GUEST_ERROR;
    }
    return SCANOUT_OK;
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
    if (c->offset + nv50_cursor_bytes(c) > end) {
        *err = g_strdup_printf("head %d: %ux%u cursor at 0x%" PRIx64
                               " runs past its context DMA (limit 0x%"
                               PRIx64 ")", head, c->size, c->size,
                               c->offset, end - 1);
        return SCANOUT_GUEST_ERROR;
    }
    return SCANOUT_OK;
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

/* The cursor to draw on @head's image, if any. */
static bool head_cursor(NV50State *s, int head, NV50CursorDesc *c)
{
    g_autofree char *err = NULL;
    ScanoutState st = armed_cursor(s, head, c, &err);

    return plane_drawn(st, &err, &s->scanout->head[head].curs_why);
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
    uint32_t size = a[(OVLY_SURFACE_SET_OFFSET + 0x08) >> 2];
    uint32_t storage = a[(OVLY_SURFACE_SET_OFFSET + 0x0c) >> 2];
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
    d->offset = (uint64_t)a[OVLY_SURFACE_SET_OFFSET >> 2] << 8;
    d->width = size & 0x7fff;
    d->height = (size >> 16) & 0x7fff;
    d->block_linear = !(storage & STORAGE_LAYOUT_PITCH);
    d->block_height = storage & 0xf;
    d->pitch = ((storage >> 8) & 0x3ff) *
               (d->block_linear ? NV50_GOB_WIDTH : 256);
    d->format = (a[(OVLY_SURFACE_SET_OFFSET + 0x10) >> 2] >> 8) & 0xff;
    o->color_space = a[(OVLY_SURFACE_SET_OFFSET + 0x10) >> 2] & 3;
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
    if (surface_end(d) > end) {
        *err = g_strdup_printf("head %d: %ux%u overlay at 0x%" PRIx64
                               " runs past its context DMA (limit 0x%"
                               PRIx64 ")", head, d->width, d->height,
                               d->offset, end - 1);
        return SCANOUT_GUEST_ERROR;
    }
    return SCANOUT_OK;
}

/* The overlay to compose on @head's image, if any. */
static bool head_overlay(NV50State *s, int head, NV50OverlayDesc *o)
{
    g_autofree char *err = NULL;
    ScanoutState st = armed_overlay(s, head, o, &err);

    return plane_drawn(st, &err, &s->scanout->head[head].ovly_why);
}

/* "1024x768 XRGB8888 pitch-linear, VRAM 0x50000, pitch 4096" */
static char *describe(const NV50ScanoutDesc *d)
{
    g_autofree char *layout = d->block_linear ?
        g_strdup_printf("block-linear (%u GOBs high)", 1u << d->block_height)
        : g_strdup("pitch-linear");

    return g_strdup_printf("%ux%u %s %s, VRAM 0x%" PRIx64 ", pitch %u%s",
                           d->width, d->height,
                           nv50_scanout_format_name(d->format), layout,
                           d->offset, d->pitch, d->lut ? ", LUT" : "");
}

bool nv50_scanout_surface(NV50State *s, int head, DisplaySurface *out,
                          char **err)
{
    NV50ScanoutHead *h;
    NV50ScanoutDesc d;
    NV50CursorDesc curs;
    NV50OverlayDesc ovly;
    g_autofree NV50ScanoutLut *lut = NULL;

    memset(out, 0, sizeof(*out));
    if (head < 0 || head >= NV50_HEADS) {
        *err = g_strdup_printf("no head %d (the G84 has heads 0 and 1)",
                               head);
        return false;
    }
    h = &s->scanout->head[head];
    lut = g_new(NV50ScanoutLut, 1);
    if (armed_desc(s, head, &d, lut, err) != SCANOUT_OK) {
        return false;
    }
    g_free(h->dump);
    h->dump = g_malloc((size_t)d.width * d.height * 4);
    if (!nv50_scanout_convert(s->vram, s->vram_size, &d, h->dump,
                              d.width * 4, err)) {
        return false;
    }
    if (head_overlay(s, head, &ovly)) {
        g_autofree char *why = NULL;

        /* checked by armed_overlay: cannot fail */
        nv50_overlay_compose(s->vram, s->vram_size, &ovly, h->dump,
                             d.width, d.height, d.width * 4, &why);
    }
    if (head_cursor(s, head, &curs)) {
        g_autofree char *why = NULL;

        /* checked by armed_cursor: cannot fail */
        nv50_cursor_compose(s->vram, s->vram_size, &curs, h->dump,
                            d.width, d.height, d.width * 4, &why);
    }
    out->data = h->dump;
    out->addr = d.offset;
    out->width = d.width;
    out->height = d.height;
    out->pitch = d.width * 4;
    out->format = DISPLAY_FORMAT_BGRX8888;
    return true;
}

/* How long a screendump waits for the engines to finish (host time). */
#define NV50_SCREENDUMP_WAIT_US (2 * 1000 * 1000)

bool nv50_screendump(NV50State *s, int head, const char *path, char **err)
{
    DisplaySurface surf;

    /*
     * What the guest has asked the engines to draw is drawn first: a
     * screendump shows the frame as of the work submitted, not a state
     * halfway through a pushbuffer (the engine runs beside the guest) --
     * unless the engine stays busy (a launch that never ends): then the
     * frame as it is.
     */
    if (!nv50_engine_sync_for(s, NV50_SCREENDUMP_WAIT_US)) {
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: screendump: the engines are "
                      "still busy; dumping the frame as it is\n");
    }
    return nv50_scanout_surface(s, head, &surf, err) &&
           display_png_write(&surf, path, err);
}

void nv50_scanout_init(NV50State *s)
{
    s->scanout = g_new0(NV50Scanout, 1);
}

static void head_free_buffers(NV50ScanoutHead *h)
{
    g_clear_pointer(&h->image, g_free);
    g_clear_pointer(&h->shadow, g_free);
    g_clear_pointer(&h->scratch, g_free);
    g_clear_pointer(&h->dump, g_free);
    g_clear_pointer(&h->why, g_free);
    g_clear_pointer(&h->info, g_free);
    g_clear_pointer(&h->curs_why, g_free);
    g_clear_pointer(&h->ovly_why, g_free);
    g_clear_pointer(&h->ovly_px, g_free);
    h->ovly_px_len = 0;
}

void nv50_scanout_fini(NV50State *s)
{
    if (!s->scanout) {
        return;
    }
    for (int i = 0; i < NV50_HEADS; i++) {
        head_free_buffers(&s->scanout->head[i]);
    }
    g_clear_pointer(&s->scanout, g_free);
}

void nv50_scanout_set_console(NV50State *s, int head, DisplayConsole *con)
{
    NV50ScanoutHead *h;

    if (head < 0 || head >= NV50_HEADS) {
        return;
    }
    h = &s->scanout->head[head];
    h->con = con;
    /* the next vblank starts afresh on this console */
    h->shown = false;
    h->curs_on = false;
    h->ovly_on = false;
    g_clear_pointer(&h->why, g_free);
    g_clear_pointer(&h->info, g_free);
}

static void head_set_info(NV50ScanoutHead *h, char *info)
{
    if (g_strcmp0(h->info, info)) {
        display_console_set_info(h->con, info);
        g_free(h->info);
        h->info = info;
    } else {
        g_free(info);
    }
}

/* The head shows nothing: tell the console once, log the reason once. */
static void head_blank(NV50ScanoutHead *h, ScanoutState st, char *why)
{
    if (h->shown) {
        display_console_set_surface(h->con, NULL);
        h->shown = false;
    }
    h->curs_on = false;
    h->ovly_on = false;
    if (g_strcmp0(h->why, why)) {
        if (st == SCANOUT_GUEST_ERROR) {
            gemu_log_mask(LOG_GUEST_ERROR, "nv50 scanout: %s\n", why);
        } else if (st == SCANOUT_UNIMP) {
            gemu_log_mask(LOG_UNIMP, "nv50 scanout: %s\n", why);
        }
        g_free(h->why);
        h->why = g_strdup(why);
    }
    head_set_info(h, g_strdup(why));
}

/* A new image size: new buffers and a new console surface. */
static void head_new_surface(NV50ScanoutHead *h, const NV50ScanoutDesc *d)
{
    DisplaySurface surf = {
        .addr = d->offset,
        .width = d->width,
        .height = d->height,
        .pitch = d->width * 4,
        .format = DISPLAY_FORMAT_BGRX8888,
    };

    if (!h->image || h->width != d->width || h->height != d->height) {
        g_free(h->image);
        g_free(h->shadow);
        g_free(h->scratch);
        h->image = g_malloc((size_t)d->width * d->height * 4);
        h->shadow = g_malloc((size_t)d->width * d->height * 4);
        h->scratch = g_malloc((size_t)d->width * 4);
        h->width = d->width;
        h->height = d->height;
    }
    surf.data = h->image;
    display_console_set_surface(h->con, &surf);
    h->shown = true;
}

/* Put the surface's own pixels back into @h->image over a rectangle. */
static void head_restore(NV50ScanoutHead *h, uint32_t x0, uint32_t y0,
                         uint32_t x1, uint32_t y1)
{
    uint32_t bpp = nv50_scanout_format_bpp(h->format);
    uint32_t len = h->width * bpp;

    for (uint32_t y = y0; y < y1; y++) {
        convert_span(h->format, &h->map, h->identity,
                     h->shadow + (size_t)y * len + x0 * bpp,
                     h->image + ((size_t)y * h->width + x0) * 4, x1 - x0);
    }
}

/* head_restore, then the overlay (as armed now) over the rectangle. */
static void head_restore_layers(NV50State *s, NV50ScanoutHead *h,
                                uint32_t x0, uint32_t y0, uint32_t x1,
                                uint32_t y1)
{
    uint32_t l, t, r, b;

    head_restore(h, x0, y0, x1, y1);
    if (!h->ovly_on) {
        return;
    }
    l = MAX(x0, h->ox0);
    t = MAX(y0, h->oy0);
    r = MIN(x1, h->ox1);
    b = MIN(y1, h->oy1);
    if (l < r && t < b) {
        overlay_compose_clip(s->vram, &h->ovly, identity_map(), h->image,
                             h->width * 4, l, t, r, b);
    }
}

/*
 * Keep overlay @o's source rectangle bytes (checked @o); true if they
 * differ from what was kept at the last vblank.
 */
static bool overlay_snapshot(NV50State *s, NV50ScanoutHead *h,
                             const NV50OverlayDesc *o)
{
    const NV50ScanoutDesc *d = &o->surf;
    unsigned bpp = surface_bpp(d->format);
    /* whole YUV pairs: one more pixel each side is harmless */
    uint32_t sx0 = o->in_x & ~1u;
    uint32_t sx1 = MIN(o->in_x + o->in_w + 1, d->width);
    size_t len = (size_t)(sx1 - sx0) * bpp, n = len * o->in_h;
    g_autofree uint8_t *scratch = d->block_linear ?
                                  g_malloc(row_len(d)) : NULL;
    bool changed = n != h->ovly_px_len;

    if (changed) {
        h->ovly_px = g_realloc(h->ovly_px, n);
        h->ovly_px_len = n;
    }
    for (uint32_t j = 0; j < o->in_h; j++) {
        const uint8_t *row = row_bytes(s->vram, d, o->in_y + j, scratch) +
                             (size_t)sx0 * bpp;
        uint8_t *kept = h->ovly_px + j * len;

        if (changed || memcmp(kept, row, len)) {
            memcpy(kept, row, len);
            changed = true;
        }
    }
    return changed;
}

static bool cursor_equal(const NV50CursorDesc *a, const NV50CursorDesc *b)
{
    return a->offset == b->offset && a->size == b->size &&
           a->format == b->format && a->composition == b->composition &&
           a->x == b->x && a->y == b->y;
}

/* Grow the bounding box [*x0, *x1) x [*y0, *y1) to take in a rectangle. */
static void box_add(uint32_t *x0, uint32_t *y0, uint32_t *x1, uint32_t *y1,
                    uint32_t rx0, uint32_t ry0, uint32_t rx1, uint32_t ry1)
{
    *x0 = MIN(*x0, rx0);
    *y0 = MIN(*y0, ry0);
    *x1 = MAX(*x1, rx1);
    *y1 = MAX(*y1, ry1);
}

/* Does the bounding box (empty: y0 == UINT32_MAX) meet a rectangle? */
static bool box_meets(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                      uint32_t rx0, uint32_t ry0, uint32_t rx1, uint32_t ry1)
{
    return y0 != UINT32_MAX && x0 < rx1 && rx0 < x1 && y0 < ry1 && ry0 < y1;
}

void nv50_scanout_vblank(NV50State *s, int head)
{
    NV50ScanoutHead *h;
    NV50ScanoutDesc d;
    ColourMap map;
    g_autofree char *err = NULL;
    ScanoutState st;
    bool full, curs_on, ovly_on, redraw;
    NV50CursorDesc curs;
    NV50OverlayDesc ovly;
    uint32_t ox0 = 0, oy0 = 0, ox1 = 0, oy1 = 0;
    uint32_t len, bpp, x0 = UINT32_MAX, x1 = 0, y0 = UINT32_MAX, y1 = 0;
    uint32_t cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;

    if (head < 0 || head >= NV50_HEADS || !s->scanout->head[head].con) {
        return;
    }
    h = &s->scanout->head[head];
    st = armed_desc(s, head, &d, &h->lut, &err);
    if (st != SCANOUT_OK) {
        head_blank(h, st, err);
        return;
    }
    g_clear_pointer(&h->why, g_free);
    head_set_info(h, describe(&d));

    colour_map_build(&map, d.lut);
    full = !h->shown || h->width != d.width || h->height != d.height ||
           h->format != d.format;
    if (full) {
        head_new_surface(h, &d);
    } else if (!d.lut != h->identity || memcmp(&map, &h->map, sizeof(map))) {
        full = true;            /* a new LUT: every pixel may change */
    }
    h->format = d.format;
    h->map = map;
    h->identity = !d.lut;

    bpp = nv50_scanout_format_bpp(d.format);
    len = d.width * bpp;
    for (uint32_t y = 0; y < d.height; y++) {
        const uint8_t *src = row_bytes(s->vram, &d, y, h->scratch);
        uint8_t *shadow = h->shadow + (size_t)y * len;
        uint8_t *dst = h->image + (size_t)y * d.width * 4;
        uint32_t a = 0, b = len;

        if (!full) {
            if (!memcmp(src, shadow, len)) {
                continue;
            }
            /* the changed bytes, widened to whole pixels */
            while (src[a] == shadow[a]) {
                a++;
            }
            while (src[b - 1] == shadow[b - 1]) {
                b--;
            }
            a -= a % bpp;
            b += (bpp - b % bpp) % bpp;
        }
        memcpy(shadow + a, src + a, b - a);
        convert_span(d.format, &h->map, h->identity, src + a,
                     dst + a / bpp * 4, (b - a) / bpp);
        x0 = MIN(x0, a / bpp);
        x1 = MAX(x1, b / bpp);
        y0 = MIN(y0, y);
        y1 = y + 1;
    }

    /*
     * The overlay, the same way: where it was and where it is now are
     * redrawn when it moved, appeared, went, changed its state or its
     * source pixels, and where it is when the surface changed under it.
     */
    ovly_on = head_overlay(s, head, &ovly) &&
              nv50_overlay_rect(&ovly, d.width, d.height, &ox0, &oy0, &ox1,
                                &oy1);
    redraw = ovly_on != h->ovly_on;
    if (ovly_on) {
        redraw |= overlay_snapshot(s, h, &ovly);
        redraw |= memcmp(&ovly, &h->ovly, sizeof(ovly)) != 0;
        redraw |= box_meets(x0, y0, x1, y1, ox0, oy0, ox1, oy1);
    }
    if (!full && redraw) {
        if (h->ovly_on) {
            head_restore(h, h->ox0, h->oy0, h->ox1, h->oy1);
            box_add(&x0, &y0, &x1, &y1, h->ox0, h->oy0, h->ox1, h->oy1);
        }
        if (ovly_on) {
            head_restore(h, ox0, oy0, ox1, oy1);
        }
    }
    if (ovly_on && (full || redraw)) {
        overlay_compose_clip(s->vram, &ovly, identity_map(), h->image,
                             d.width * 4, ox0, oy0, ox1, oy1);
        box_add(&x0, &y0, &x1, &y1, ox0, oy0, ox1, oy1);
    }
    h->ovly_on = ovly_on;
    if (ovly_on) {
        memcpy(&h->ovly, &ovly, sizeof(ovly));
        h->ox0 = ox0;
        h->oy0 = oy0;
        h->ox1 = ox1;
        h->oy1 = oy1;
    }

    /*
     * The cursor: where it was and where it is now are redrawn when it
     * moved, appeared, went or changed its pixels, and where it is when
     * the surface changed under it.
     */
    curs_on = head_cursor(s, head, &curs) &&
              nv50_cursor_rect(&curs, d.width, d.height, &cx0, &cy0, &cx1,
                               &cy1);
    redraw = curs_on != h->curs_on;
    if (curs_on) {
        const uint8_t *px = s->vram + curs.offset;
        uint32_t n = nv50_cursor_bytes(&curs);

        redraw |= !cursor_equal(&curs, &h->curs) ||
                  memcmp(px, h->curs_px, n);
        memcpy(h->curs_px, px, n);
        redraw |= box_meets(x0, y0, x1, y1, cx0, cy0, cx1, cy1);
    }
    if (!full && redraw) {
        if (h->curs_on) {
            head_restore_layers(s, h, h->cx0, h->cy0, h->cx1, h->cy1);
            box_add(&x0, &y0, &x1, &y1, h->cx0, h->cy0, h->cx1, h->cy1);
        }
        if (curs_on) {
            head_restore_layers(s, h, cx0, cy0, cx1, cy1);
        }
    }
    if (curs_on && (full || redraw)) {
        g_autofree char *why = NULL;

        /* checked by armed_cursor: cannot fail */
        nv50_cursor_compose(s->vram, s->vram_size, &curs, h->image,
                            d.width, d.height, d.width * 4, &why);
        box_add(&x0, &y0, &x1, &y1, cx0, cy0, cx1, cy1);
    }
    h->curs_on = curs_on;
    if (curs_on) {
        h->curs = curs;
        h->cx0 = cx0;
        h->cy0 = cy0;
        h->cx1 = cx1;
        h->cy1 = cy1;
    }

    if (full) {
        display_console_update(h->con, 0, 0, d.width, d.height);
        display_console_frame(h->con);
    } else if (y0 != UINT32_MAX) {
        display_console_update(h->con, x0, y0, x1 - x0, y1 - y0);
        display_console_frame(h->con);
    }
}
