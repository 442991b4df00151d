/*
 * nv50 scanout: a head's shadow, the surface bytes it showed at the last
 * vblank, and what changed since (scanout.c's vblank).
 *
 * The shadow keeps the bytes in the surface's own storage order: a
 * pitch-linear surface's rows packed (width * bpp bytes a row), a
 * block-linear one as VRAM holds it, from its first byte to one past the
 * last one shown (nv50_scanout_surface_end), padding GOBs included.  A
 * vblank compares the block-linear surface a block (256 << block height
 * bytes, contiguous in VRAM) at a time with memcmp against the shadow;
 * only in a block that differs are its GOBs and their 64-byte rows
 * looked at, the changed bytes of each row inside the image found,
 * widened to whole pixels and converted, and the block copied into the
 * shadow.  No row is gathered: a surface that stands still costs one
 * memcmp over its bytes.  Bytes outside the image (GOB columns past the
 * width, rows past the height) are kept but never make a change.
 *
 * What changed is exactly what a row-by-row compare of the visible bytes
 * finds: per row the first and last differing byte, widened to pixels;
 * the dirty rectangle is their bounding box.  Pixels between two changed
 * spans of a row are equal in both frames and are not converted again.
 *
 * When the layout changes under the same size and format (pitch-linear
 * and block-linear, another block height or pitch: nouveau's console
 * then a client's block-linear buffers), the rows are gathered from
 * both and compared row by row once, and the shadow is taken afresh in
 * the new layout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/scanout-int.h"
#include "hw/nv50/surface.h"

/* The layout a shadow of @d keeps: at offset 0, pitch-linear packed. */
static NV50ScanoutDesc shadow_desc(const NV50ScanoutDesc *d)
{
    NV50ScanoutDesc sd = *d;

    sd.offset = 0;
    sd.lut = NULL;
    if (!d->block_linear) {
        sd.pitch = nv50_scanout_row_len(d);
        sd.block_height = 0;
    }
    return sd;
}

static bool same_layout(const NV50ScanoutDesc *a, const NV50ScanoutDesc *b)
{
    return a->width == b->width && a->height == b->height &&
           a->format == b->format && a->block_linear == b->block_linear &&
           a->pitch == b->pitch && a->block_height == b->block_height;
}

/* The first byte of @n at which @a and @b differ (they do). */
static uint32_t first_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t i = 0;

    for (; i + 8 <= n && !memcmp(a + i, b + i, 8); i += 8) {
    }
    while (a[i] == b[i]) {
        i++;
    }
    return i;
}

/* One past the last byte of @n at which @a and @b differ (they do). */
static uint32_t last_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t i = n;

    for (; i >= 8 && !memcmp(a + i - 8, b + i - 8, 8); i -= 8) {
    }
    while (a[i - 1] == b[i - 1]) {
        i--;
    }
    return i;
}

/*
 * Bytes @x .. @x + @n - 1 of row @y: @src now, @old at the last vblank.
 * If they differ, the changed bytes widened to whole pixels are
 * converted into @t and join @dirty; their range goes to *@a, *@b.
 */
static bool span_step(const ScanoutTarget *t, uint32_t bpp, uint32_t y,
                      uint32_t x, const uint8_t *src, const uint8_t *old,
                      uint32_t n, ScanoutRect *dirty, uint32_t *a,
                      uint32_t *b)
{
    uint32_t i, j;

    if (!memcmp(src, old, n)) {
        return false;
    }
    i = first_diff(src, old, n);
    j = last_diff(src, old, n);
    i -= i % bpp;
    j += (bpp - j % bpp) % bpp;
    nv50_scanout_convert_span(t->format, t->map, t->identity, src + i,
                              t->px + ((size_t)y * t->width +
                                       (x + i) / bpp) * 4,
                              (j - i) / bpp);
    dirty->x0 = MIN(dirty->x0, (x + i) / bpp);
    dirty->x1 = MAX(dirty->x1, (x + j) / bpp);
    dirty->y0 = MIN(dirty->y0, y);
    dirty->y1 = MAX(dirty->y1, y + 1);
    *a = i;
    *b = j;
    return true;
}

/* The shadow takes @d's bytes afresh, in @d's layout. */
static void shadow_take(ScanoutShadow *sh, const uint8_t *vram,
                        const NV50ScanoutDesc *d)
{
    uint64_t len = nv50_scanout_row_len(d);

    sh->d = shadow_desc(d);
    sh->size = nv50_scanout_surface_end(&sh->d);
    sh->bytes = g_realloc(sh->bytes, sh->size);
    sh->row = g_realloc(sh->row, len);
    if (d->block_linear) {
        memcpy(sh->bytes, vram + d->offset, sh->size);
        return;
    }
    for (uint32_t y = 0; y < d->height; y++) {
        memcpy(sh->bytes + y * len,
               nv50_scanout_row_bytes(vram, d, y, NULL), len);
    }
}

/* Every row of @d converted (a new image or LUT), whole. */
static void rows_full(ScanoutShadow *sh, const uint8_t *vram,
                      const NV50ScanoutDesc *d, const ScanoutTarget *t,
                      ScanoutRect *dirty)
{
    g_autofree uint8_t *row = g_malloc(nv50_scanout_row_len(d));

    for (uint32_t y = 0; y < d->height; y++) {
        nv50_scanout_convert_span(d->format, t->map, t->identity,
                                  nv50_scanout_row_bytes(vram, d, y, row),
                                  t->px + (size_t)y * t->width * 4,
                                  d->width);
    }
    *dirty = (ScanoutRect){ 0, 0, d->width, d->height };
    shadow_take(sh, vram, d);
}

/* Row by row: the layout changed, or a pitch-linear surface. */
static void rows_compare(ScanoutShadow *sh, const uint8_t *vram,
                         const NV50ScanoutDesc *d, const ScanoutTarget *t,
                         ScanoutRect *dirty)
{
    uint32_t bpp = nv50_scanout_format_bpp(d->format);
    uint32_t len = nv50_scanout_row_len(d), a, b;
    NV50ScanoutDesc sd = shadow_desc(d);
    bool relayout = !same_layout(&sh->d, &sd);
    g_autofree uint8_t *row = relayout ? g_malloc(len) : NULL;

    for (uint32_t y = 0; y < d->height; y++) {
        const uint8_t *src = nv50_scanout_row_bytes(vram, d, y, row);
        uint8_t *old = (uint8_t *)nv50_shadow_row(sh, y);

        if (span_step(t, bpp, y, 0, src, old, len, dirty, &a, &b) &&
            !relayout) {
            memcpy(old + a, src + a, b - a);        /* packed: in place */
        }
    }
    if (relayout) {
        shadow_take(sh, vram, d);
    }
}

/*
 * Block-linear GOB @g (its first byte @at of the shadow, @n of its
 * bytes kept) differs: the rows of it inside the image, compared.
 */
static void gob_compare(ScanoutShadow *sh, const uint8_t *src,
                        const NV50ScanoutDesc *d, const ScanoutTarget *t,
                        uint32_t gx, uint32_t gy, uint64_t at, uint32_t n,
                        ScanoutRect *dirty)
{
    uint32_t bpp = nv50_scanout_format_bpp(d->format);
    uint32_t len = nv50_scanout_row_len(d);
    uint32_t x = gx * NV50_GOB_WIDTH, a, b;

    if (x >= len) {
        return;                 /* past the image's right edge */
    }
    for (uint32_t r = 0; r < NV50_GOB_HEIGHT; r++) {
        uint32_t y = gy * NV50_GOB_HEIGHT + r;
        uint32_t o = r * NV50_GOB_WIDTH;

        if (y >= d->height || o >= n) {
            return;
        }
        span_step(t, bpp, y, x, src + at + o, sh->bytes + at + o,
                  MIN(MIN(NV50_GOB_WIDTH, len - x), n - o), dirty, &a, &b);
    }
}

/* Block-linear, the layout unchanged: block by block in storage order. */
static void blocks_compare(ScanoutShadow *sh, const uint8_t *vram,
                           const NV50ScanoutDesc *d, const ScanoutTarget *t,
                           ScanoutRect *dirty)
{
    const uint8_t *src = vram + d->offset;
    unsigned bh = d->block_height;
    uint32_t gobs = 1u << bh, blocks_x = d->pitch / NV50_GOB_WIDTH;
    uint64_t block = (uint64_t)NV50_GOB_SIZE << bh, at = 0;

    for (uint32_t by = 0; at < sh->size; by++) {
        for (uint32_t bx = 0; bx < blocks_x && at < sh->size; bx++) {
            uint64_t n = MIN(block, sh->size - at);

            if (memcmp(src + at, sh->bytes + at, n)) {
                for (uint32_t i = 0; i < gobs; i++) {
                    uint64_t g = at + (uint64_t)i * NV50_GOB_SIZE;
                    uint32_t m;

                    if (g >= at + n) {
                        break;
                    }
                    m = MIN(NV50_GOB_SIZE, at + n - g);
                    if (memcmp(src + g, sh->bytes + g, m)) {
                        gob_compare(sh, src, d, t, bx, (by << bh) + i, g, m,
                                    dirty);
                    }
                }
                memcpy(sh->bytes + at, src + at, n);
            }
            at += block;
        }
    }
}

void nv50_shadow_update(ScanoutShadow *sh, const uint8_t *vram,
                        const NV50ScanoutDesc *d, bool full,
                        const ScanoutTarget *t, ScanoutRect *dirty)
{
    NV50ScanoutDesc sd = shadow_desc(d);

    if (full || !sh->bytes || sh->d.width != d->width ||
        sh->d.height != d->height || sh->d.format != d->format) {
        rows_full(sh, vram, d, t, dirty);
    } else if (d->block_linear && same_layout(&sh->d, &sd)) {
        blocks_compare(sh, vram, d, t, dirty);
    } else {
        rows_compare(sh, vram, d, t, dirty);
    }
}

const uint8_t *nv50_shadow_row(ScanoutShadow *sh, uint32_t y)
{
    return nv50_scanout_row_bytes(sh->bytes, &sh->d, y, sh->row);
}

void nv50_shadow_free(ScanoutShadow *sh)
{
    g_clear_pointer(&sh->bytes, g_free);
    g_clear_pointer(&sh->row, g_free);
    sh->size = 0;
}
