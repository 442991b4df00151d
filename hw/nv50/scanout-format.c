/*
 * nv50 scanout, the pixels: EVO surface formats, the LUT, the
 * conversion of a surface (pitch- or block-linear) into the BGRX image
 * ui/ shows, the overlay composed over it and the cursor blended on
 * top.  Pure: no card state, only VRAM bytes and descriptions
 * (include/hw/nv50/scanout.h); the unit tests drive it on plain byte
 * arrays.  scanout-plane.c decodes the armed EVO methods into those
 * descriptions, scanout.c feeds the heads' consoles.
 *
 * Facts, and where they come from (Linux 6.1 nouveau; envytools):
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
 * - I8 without a LUT is an error (nouveau: "the HW error-checks for
 *   this", wndw.c:375-392).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/scanout-int.h"
#include "hw/nv50/surface.h"

/* --- the surface, converted --- */

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

unsigned nv50_scanout_surface_bpp(unsigned format)
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

void nv50_scanout_map_build(ColourMap *m, const NV50ScanoutLut *lut)
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

uint64_t nv50_scanout_row_len(const NV50ScanoutDesc *d)
{
    return (uint64_t)d->width * nv50_scanout_surface_bpp(d->format);
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

uint64_t nv50_scanout_surface_end(const NV50ScanoutDesc *d)
{
    NV50Surface sf = desc_surface(d);

    return d->offset + nv50_surface_offset(&sf, nv50_scanout_row_len(d) - 1,
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
    len = nv50_scanout_row_len(d);
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
    end = nv50_scanout_surface_end(d);
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
 * Block-linear row @y of @d into @scratch (row_len bytes): one address
 * computed, then GOB by GOB with nv50_surface_next_gob's steps.
 */
static void gather_row(const uint8_t *vram, const NV50ScanoutDesc *d,
                       uint32_t y, uint8_t *scratch)
{
    NV50Surface sf = desc_surface(d);
    uint64_t len = nv50_scanout_row_len(d);
    uint64_t at = d->offset + nv50_surface_offset(&sf, 0, y, 0);

    for (uint64_t x = 0; x < len; x += NV50_GOB_WIDTH) {
        memcpy(scratch + x, vram + at, MIN((uint64_t)NV50_GOB_WIDTH, len - x));
        at += nv50_surface_next_gob(&sf, x);
    }
}

const uint8_t *nv50_scanout_row_bytes(const uint8_t *vram,
                                      const NV50ScanoutDesc *d, uint32_t y,
                                      uint8_t *scratch)
{
    NV50Surface sf = desc_surface(d);

    if (!d->block_linear) {
        return vram + d->offset + nv50_surface_offset(&sf, 0, y, 0);
    }
    gather_row(vram, d, y, scratch);
    return scratch;
}

/* Widen a 5- or 6-bit component to 8 bits, then to the 10-bit index. */
#define X5(v)   ((((v) << 3) | ((v) >> 2)) << 2)
#define X6(v)   ((((v) << 2) | ((v) >> 4)) << 2)

void nv50_scanout_convert_span(unsigned format, const ColourMap *m,
                               bool identity, const uint8_t *src,
                               uint8_t *dst, uint32_t n)
{
    const uint8_t *r = m->c[0], *g = m->c[1], *b = m->c[2];

    switch (format) {
    case NV50_SURFACE_A8R8G8B8:
        if (identity) {
            /* bytes B, G, R kept, X made 0xff: a word at a time */
            for (uint32_t i = 0; i < n; i++, src += 4, dst += 4) {
                uint32_t v;

                memcpy(&v, src, 4);
                v |= GUINT32_TO_LE(0xff000000u);
                memcpy(dst, &v, 4);
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
    nv50_scanout_map_build(map, d->lut);
    if (d->block_linear) {
        scratch = g_malloc(nv50_scanout_row_len(d));
    }
    for (uint32_t y = 0; y < d->height; y++) {
        nv50_scanout_convert_span(d->format, map, !d->lut,
                                  nv50_scanout_row_bytes(vram, d, y, scratch),
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
    if (!surface_check(d, nv50_scanout_surface_bpp(d->format), vram_size,
                       err)) {
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

void nv50_overlay_compose_clip(const uint8_t *vram, const NV50OverlayDesc *o,
                               const ColourMap *map, uint8_t *dst,
                               uint32_t dst_pitch, const ScanoutRect *r)
{
    uint32_t cx0 = r->x0, cy0 = r->y0, cx1 = r->x1, cy1 = r->y1;
    const NV50ScanoutDesc *d = &o->surf;
    unsigned bpp = nv50_scanout_surface_bpp(d->format);
    bool yuv = d->format == NV50_OVLY_YUYV || d->format == NV50_OVLY_UYVY;
    g_autofree uint8_t *scratch = d->block_linear ?
                                  g_malloc(nv50_scanout_row_len(d)) : NULL;
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
            const uint8_t *row = nv50_scanout_row_bytes(vram, d, sy, scratch);

            if (yuv) {
                yuv_span(d->format, o->color_space, row, o->in_x, o->in_w,
                         px);
            } else {
                nv50_scanout_convert_span(d->format, map, true,
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

const ColourMap *nv50_scanout_identity_map(void)
{
    static ColourMap map;
    static gsize done;

    if (g_once_init_enter(&done)) {
        nv50_scanout_map_build(&map, NULL);
        g_once_init_leave(&done, 1);
    }
    return &map;
}

bool nv50_overlay_compose(const uint8_t *vram, uint64_t vram_size,
                          const NV50OverlayDesc *o, uint8_t *dst,
                          uint32_t width, uint32_t height,
                          uint32_t dst_pitch, char **err)
{
    ScanoutRect r;

    if (!nv50_overlay_check(o, vram_size, err)) {
        return false;
    }
    if (nv50_overlay_rect(o, width, height, &r.x0, &r.y0, &r.x1, &r.y1)) {
        nv50_overlay_compose_clip(vram, o, nv50_scanout_identity_map(), dst,
                                  dst_pitch, &r);
    }
    return true;
}
