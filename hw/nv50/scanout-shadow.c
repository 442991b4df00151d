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
 * only in a block that differs are its GOBs' 64-byte rows compared
 * (word by word), the changed bytes of each row inside the image found,
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
#include "gemu/bitops.h"
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

static uint64_t word(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

/* The first byte of @n at which @a and @b differ; @n if none does. */
static uint32_t first_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t i = 0;

    while (i + 8 <= n && word(a + i) == word(b + i)) {
        i += 8;
    }
    while (i < n && a[i] == b[i]) {
        i++;
    }
    return i;
}

/* One past the last byte of @n at which @a and @b differ (they do). */
static uint32_t last_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t i = n;

    while (i >= 8 && word(a + i - 8) == word(b + i - 8)) {
        i -= 8;
    }
    while (a[i - 1] == b[i - 1]) {
        i--;
    }
    return i;
}

/* log2 of @d's bytes a pixel (1, 2 or 4) */
static unsigned bpp_shift(const NV50ScanoutDesc *d)
{
    return ctz32(nv50_scanout_format_bpp(d->format));
}

/*
 * Bytes @x .. @x + @n - 1 of row @y: @src now, @old at the last vblank.
 * If they differ, the changed bytes widened to whole pixels (@shift:
 * log2 of a pixel's bytes), [*@a, *@b) of the span, are converted into
 * @t.
 */
static inline bool span_step(const ScanoutTarget *t, unsigned shift,
                             uint32_t y, uint32_t x, const uint8_t *src,
                             const uint8_t *old, uint32_t n, uint32_t *a,
                             uint32_t *b)
{
    /* a whole row at once with memcmp; a GOB's 64 bytes word by word */
    uint32_t i = n > NV50_GOB_WIDTH && !memcmp(src, old, n) ? n
                 : first_diff(src, old, n), j;

    if (i == n) {
        return false;
    }
    j = last_diff(src, old, n);
    i &= ~0u << shift;
    j = (j + (1u << shift) - 1) & ~0u << shift;
    nv50_scanout_convert_span(t->format, t->map, t->identity, src + i,
                              t->px + ((size_t)y * t->width +
                                       ((x + i) >> shift)) * 4,
                              (j - i) >> shift);
    *a = i;
    *b = j;
    return true;
}

/* Pixels [@x0, @x1) of rows [@y0, @y1) join @dirty. */
static void dirty_add(ScanoutRect *dirty, uint32_t x0, uint32_t x1,
                      uint32_t y0, uint32_t y1)
{
    dirty->x0 = MIN(dirty->x0, x0);
    dirty->x1 = MAX(dirty->x1, x1);
    dirty->y0 = MIN(dirty->y0, y0);
    dirty->y1 = MAX(dirty->y1, y1);
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
    unsigned shift = bpp_shift(d);
    uint32_t len = nv50_scanout_row_len(d), a, b;
    NV50ScanoutDesc sd = shadow_desc(d);
    bool relayout = !same_layout(&sh->d, &sd);
    g_autofree uint8_t *row = relayout ? g_malloc(len) : NULL;

    for (uint32_t y = 0; y < d->height; y++) {
        const uint8_t *src = nv50_scanout_row_bytes(vram, d, y, row);
        uint8_t *old = (uint8_t *)nv50_shadow_row(sh, y);

        if (span_step(t, shift, y, 0, src, old, len, &a, &b)) {
            dirty_add(dirty, a >> shift, b >> shift, y, y + 1);
            if (!relayout) {
                memcpy(old + a, src + a, b - a);    /* packed: in place */
            }
        }
    }
    if (relayout) {
        shadow_take(sh, vram, d);
    }
}

/* A pass over a block-linear surface, the layout unchanged. */
typedef struct BlockPass {
    const uint8_t *src;         /* the surface in VRAM */
    const uint8_t *old;         /* the shadow */
    const ScanoutTarget *t;
    uint32_t len, height;       /* row_len bytes, rows */
    unsigned shift;             /* log2 of a pixel's bytes */
} BlockPass;

/*
 * The block-linear GOB in column @gx, row @gy (its first byte @at of
 * the surface, @n of its bytes kept): its rows inside the image,
 * compared.
 */
static void gob_compare(const BlockPass *p, uint32_t gx, uint32_t gy,
                        uint64_t at, uint32_t n, ScanoutRect *dirty)
{
    uint32_t x = gx * NV50_GOB_WIDTH, a, b;
    uint32_t x0 = UINT32_MAX, x1 = 0, y0 = UINT32_MAX, y1 = 0;

    if (x >= p->len) {
        return;                 /* past the image's right edge */
    }
    for (uint32_t r = 0; r < NV50_GOB_HEIGHT; r++) {
        uint32_t y = gy * NV50_GOB_HEIGHT + r;
        uint32_t o = r * NV50_GOB_WIDTH;

        if (y >= p->height || o >= n) {
            break;
        }
        if (span_step(p->t, p->shift, y, x, p->src + at + o,
                      p->old + at + o,
                      MIN(MIN(NV50_GOB_WIDTH, p->len - x), n - o), &a, &b)) {
            x0 = MIN(x0, a);
            x1 = MAX(x1, b);
            y0 = MIN(y0, y);
            y1 = y + 1;
        }
    }
    if (y1) {
        dirty_add(dirty, (x + x0) >> p->shift, (x + x1) >> p->shift, y0, y1);
    }
}

/* Block-linear, the layout unchanged: block by block in storage order. */
static void blocks_compare(ScanoutShadow *sh, const uint8_t *vram,
                           const NV50ScanoutDesc *d, const ScanoutTarget *t,
                           ScanoutRect *dirty)
{
    BlockPass p = {
        .src = vram + d->offset, .old = sh->bytes, .t = t,
        .len = nv50_scanout_row_len(d), .height = d->height,
        .shift = bpp_shift(d),
    };
    unsigned bh = d->block_height;
    uint32_t gobs = 1u << bh, blocks_x = d->pitch / NV50_GOB_WIDTH;
    uint64_t block = (uint64_t)NV50_GOB_SIZE << bh, at = 0;

    for (uint32_t by = 0; at < sh->size; by++) {
        for (uint32_t bx = 0; bx < blocks_x && at < sh->size; bx++) {
            uint64_t n = MIN(block, sh->size - at);

            if (memcmp(p.src + at, sh->bytes + at, n)) {
                /* a GOB's rows compare word by word: no memcmp a GOB */
                for (uint32_t i = 0; i < gobs && i * NV50_GOB_SIZE < n;
                     i++) {
                    uint64_t g = at + (uint64_t)i * NV50_GOB_SIZE;

                    gob_compare(&p, bx, (by << bh) + i, g,
                                MIN(NV50_GOB_SIZE, at + n - g), dirty);
                }
                memcpy(sh->bytes + at, p.src + at, n);
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
