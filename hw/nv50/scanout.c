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
 * scanout-format.c has the pixels (formats, LUT, conversion, overlay
 * and cursor composition), scanout-plane.c the armed EVO state as
 * planes; both headers list their sources and UNVERIFIED choices.
 *
 * Console protocol, per vblank of a head with a console: a new surface
 * (display_console_set_surface) on the first frame, after the head showed
 * nothing, or when the size or source format changes, followed by a
 * whole-surface update and a frame; otherwise the pixels whose VRAM
 * bytes differ from the previous vblank's (kept and compared in the
 * surface's storage order, scanout-shadow.c) are converted and one
 * update with their bounding rectangle is sent (per row, the first to
 * the last changed pixel), then display_console_frame -- frames
 * are only counted when something changed, so a listener that writes a
 * file per frame writes nothing while the picture stands still.  A LUT
 * change redraws everything.  With no valid surface the console gets a
 * NULL surface (once) and the reason is logged once.  The cursor is
 * part of the image: when it moves, appears, goes, or its pixels (the
 * VRAM bytes it reads, compared at each vblank) or the surface under it
 * change, the part of the image it covered is converted afresh from the
 * surface bytes kept (the shadow), the cursor is blended where it now
 * is, and both rectangles join the update.  A bad cursor (beyond its
 * context DMA or VRAM, unbound handle, bad size/format) is logged once
 * and not drawn; the surface is still shown.  The overlay is composed
 * after the surface rows and before the cursor: when it moves, appears,
 * goes, changes its armed state or its source pixels (the VRAM bytes of
 * its POINT_IN/SIZE_IN rectangle, kept at each vblank), or the surface
 * changes under it, its old rectangle is converted afresh from the
 * surface rows, it is composed where it now is, and both rectangles join
 * the update; the cursor is redrawn (over surface and overlay) where
 * that touched it.  A bad overlay is logged once and not drawn.  The
 * head's description (display_console_set_info) is rebuilt only when
 * the surface's description changes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/scanout-int.h"
#include "hw/nv50/surface.h"
#include "ui/console.h"

/* A plane (overlay, cursor) as drawn into a head's image. */
typedef struct ScanoutPlane {
    bool on;                    /* drawn at the last vblank */
    ScanoutRect rect;           /* the part of the image it covers */
    char *why;                  /* why it is not drawn (logged once) */
} ScanoutPlane;

typedef struct NV50ScanoutHead {
    DisplayConsole *con;        /* not owned */
    bool shown;                 /* con's surface is @image */
    uint32_t width, height;     /* of @image */
    unsigned format;            /* source format @shadow holds */
    uint8_t *image;             /* BGRX8888, width * 4 bytes a row */
    ScanoutShadow shadow;       /* the last vblank's surface bytes */
    ColourMap map;              /* the LUT @image was converted with */
    bool identity;
    NV50ScanoutLut lut;
    char *why;                  /* why nothing is shown (logged once) */
    char *info;
    NV50ScanoutDesc info_desc;  /* what @info describes, if info_ok */
    bool info_ok;
    uint8_t *dump;              /* nv50_scanout_surface's image */
    /* the overlay composed into @image, as armed when drawn */
    ScanoutPlane ovly;
    NV50OverlayDesc ovly_desc;
    uint8_t *ovly_px;           /* its source rectangle's VRAM bytes */
    size_t ovly_px_len;
    /* the cursor blended into @image over it */
    ScanoutPlane curs;
    NV50CursorDesc curs_desc;
    uint8_t curs_px[NV50_CURSOR_SIZE_MAX * NV50_CURSOR_SIZE_MAX * 4];
} NV50ScanoutHead;

typedef struct NV50Scanout {
    NV50ScanoutHead head[NV50_HEADS];
} NV50Scanout;

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
    if (nv50_scanout_armed_desc(s, head, &d, lut, err) != SCANOUT_OK) {
        return false;
    }
    g_free(h->dump);
    h->dump = g_malloc((size_t)d.width * d.height * 4);
    if (!nv50_scanout_convert(s->vram, s->vram_size, &d, h->dump,
                              d.width * 4, err)) {
        return false;
    }
    if (nv50_scanout_head_overlay(s, head, &ovly, &h->ovly.why)) {
        g_autofree char *why = NULL;

        /* checked by nv50_scanout_head_overlay: cannot fail */
        nv50_overlay_compose(s->vram, s->vram_size, &ovly, h->dump,
                             d.width, d.height, d.width * 4, &why);
    }
    if (nv50_scanout_head_cursor(s, head, &curs, &h->curs.why)) {
        g_autofree char *why = NULL;

        /* checked by nv50_scanout_head_cursor: cannot fail */
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
    nv50_shadow_free(&h->shadow);
    g_clear_pointer(&h->dump, g_free);
    g_clear_pointer(&h->why, g_free);
    g_clear_pointer(&h->info, g_free);
    g_clear_pointer(&h->curs.why, g_free);
    g_clear_pointer(&h->ovly.why, g_free);
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
    h->curs.on = false;
    h->ovly.on = false;
    g_clear_pointer(&h->why, g_free);
    g_clear_pointer(&h->info, g_free);
    h->info_ok = false;
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
    h->curs.on = false;
    h->ovly.on = false;
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
    h->info_ok = false;
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
        h->image = g_malloc((size_t)d->width * d->height * 4);
        h->width = d->width;
        h->height = d->height;
    }
    surf.data = h->image;
    display_console_set_surface(h->con, &surf);
    h->shown = true;
}

/* --- the dirty rectangle --- */

/* Grow the bounding box @box to take in @r. */
static void rect_add(ScanoutRect *box, const ScanoutRect *r)
{
    box->x0 = MIN(box->x0, r->x0);
    box->y0 = MIN(box->y0, r->y0);
    box->x1 = MAX(box->x1, r->x1);
    box->y1 = MAX(box->y1, r->y1);
}

/* Does the bounding box @box (empty: y0 == UINT32_MAX) meet @r? */
static bool rect_meets(const ScanoutRect *box, const ScanoutRect *r)
{
    return box->y0 != UINT32_MAX && box->x0 < r->x1 && r->x0 < box->x1 &&
           box->y0 < r->y1 && r->y0 < box->y1;
}

/* Draw a layer (or what lies below one) into @h->image over @r. */
typedef void ScanoutPaintFn(NV50State *s, NV50ScanoutHead *h,
                            const ScanoutRect *r);

/* Put the surface's own pixels back into @h->image over @r. */
static void head_restore(NV50State *s, NV50ScanoutHead *h,
                         const ScanoutRect *r)
{
    uint32_t bpp = nv50_scanout_format_bpp(h->format);

    for (uint32_t y = r->y0; y < r->y1; y++) {
        nv50_scanout_convert_span(h->format, &h->map, h->identity,
                                  nv50_shadow_row(&h->shadow, y) +
                                  r->x0 * bpp,
                                  h->image +
                                  ((size_t)y * h->width + r->x0) * 4,
                                  r->x1 - r->x0);
    }
}

/* head_restore, then the overlay (as armed now) over @r. */
static void head_restore_layers(NV50State *s, NV50ScanoutHead *h,
                                const ScanoutRect *r)
{
    ScanoutRect o;

    head_restore(s, h, r);
    if (!h->ovly.on) {
        return;
    }
    o.x0 = MAX(r->x0, h->ovly.rect.x0);
    o.y0 = MAX(r->y0, h->ovly.rect.y0);
    o.x1 = MIN(r->x1, h->ovly.rect.x1);
    o.y1 = MIN(r->y1, h->ovly.rect.y1);
    if (o.x0 < o.x1 && o.y0 < o.y1) {
        nv50_overlay_compose_clip(s->vram, &h->ovly_desc,
                                  nv50_scanout_identity_map(), h->image,
                                  h->width * 4, &o);
    }
}

/* The overlay as armed now (h->ovly_desc) over @r, its rectangle. */
static void overlay_paint(NV50State *s, NV50ScanoutHead *h,
                          const ScanoutRect *r)
{
    nv50_overlay_compose_clip(s->vram, &h->ovly_desc,
                              nv50_scanout_identity_map(), h->image,
                              h->width * 4, r);
}

/* The cursor as armed now (h->curs_desc), where it is (@r). */
static void cursor_paint(NV50State *s, NV50ScanoutHead *h,
                         const ScanoutRect *r)
{
    g_autofree char *why = NULL;

    /* checked by nv50_scanout_head_cursor: cannot fail */
    nv50_cursor_compose(s->vram, s->vram_size, &h->curs_desc, h->image,
                        h->width, h->height, h->width * 4, &why);
}

/*
 * One plane's part of a vblank: where it was (@p) and where it is now
 * (@now, if @on) are given back the layers below (@restore) and it is
 * drawn again (@paint) when it moved, appeared, went or @changed, and
 * where it is when the rows in @dirty changed under it; whatever is
 * redrawn joins @dirty.  @full: the whole image is new, only draw.
 */
static void plane_step(NV50State *s, NV50ScanoutHead *h, ScanoutPlane *p,
                       bool on, const ScanoutRect *now, bool changed,
                       bool full, ScanoutRect *dirty,
                       ScanoutPaintFn *restore, ScanoutPaintFn *paint)
{
    bool redraw = on != p->on;

    if (on) {
        redraw |= changed || rect_meets(dirty, now);
    }
    if (!full && redraw) {
        if (p->on) {
            restore(s, h, &p->rect);
            rect_add(dirty, &p->rect);
        }
        if (on) {
            restore(s, h, now);
        }
    }
    if (on && (full || redraw)) {
        paint(s, h, now);
        rect_add(dirty, now);
    }
    p->on = on;
    if (on) {
        p->rect = *now;
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
    unsigned bpp = nv50_scanout_surface_bpp(d->format);
    /* whole YUV pairs: one more pixel each side is harmless */
    uint32_t sx0 = o->in_x & ~1u;
    uint32_t sx1 = MIN(o->in_x + o->in_w + 1, d->width);
    size_t len = (size_t)(sx1 - sx0) * bpp, n = len * o->in_h;
    g_autofree uint8_t *scratch = d->block_linear ?
                                  g_malloc(nv50_scanout_row_len(d)) : NULL;
    bool changed = n != h->ovly_px_len;

    if (changed) {
        h->ovly_px = g_realloc(h->ovly_px, n);
        h->ovly_px_len = n;
    }
    for (uint32_t j = 0; j < o->in_h; j++) {
        const uint8_t *row = nv50_scanout_row_bytes(s->vram, d, o->in_y + j,
                                                    scratch) +
                             (size_t)sx0 * bpp;
        uint8_t *kept = h->ovly_px + j * len;

        if (changed || memcmp(kept, row, len)) {
            memcpy(kept, row, len);
            changed = true;
        }
    }
    return changed;
}

/* The overlay's step: changed if its armed state or source pixels did. */
static void head_overlay_step(NV50State *s, int head, NV50ScanoutHead *h,
                              bool full, ScanoutRect *dirty)
{
    NV50OverlayDesc ovly;
    ScanoutRect r = { 0 };
    bool on, changed = false;

    on = nv50_scanout_head_overlay(s, head, &ovly, &h->ovly.why) &&
         nv50_overlay_rect(&ovly, h->width, h->height, &r.x0, &r.y0,
                           &r.x1, &r.y1);
    if (on) {
        changed = overlay_snapshot(s, h, &ovly);
        changed |= memcmp(&ovly, &h->ovly_desc, sizeof(ovly)) != 0;
        memcpy(&h->ovly_desc, &ovly, sizeof(ovly));
    }
    plane_step(s, h, &h->ovly, on, &r, changed, full, dirty, head_restore,
               overlay_paint);
}

static bool cursor_equal(const NV50CursorDesc *a, const NV50CursorDesc *b)
{
    return a->offset == b->offset && a->size == b->size &&
           a->format == b->format && a->composition == b->composition &&
           a->x == b->x && a->y == b->y;
}

/*
 * The cursor's step, over the surface and the overlay: changed if its
 * armed state or pixels did.
 */
static void head_cursor_step(NV50State *s, int head, NV50ScanoutHead *h,
                             bool full, ScanoutRect *dirty)
{
    NV50CursorDesc curs;
    ScanoutRect r = { 0 };
    bool on, changed = false;

    on = nv50_scanout_head_cursor(s, head, &curs, &h->curs.why) &&
         nv50_cursor_rect(&curs, h->width, h->height, &r.x0, &r.y0, &r.x1,
                          &r.y1);
    if (on) {
        const uint8_t *px = s->vram + curs.offset;
        uint32_t n = nv50_cursor_bytes(&curs);

        changed = !cursor_equal(&curs, &h->curs_desc) ||
                  memcmp(px, h->curs_px, n);
        memcpy(h->curs_px, px, n);
        h->curs_desc = curs;
    }
    plane_step(s, h, &h->curs, on, &r, changed, full, dirty,
               head_restore_layers, cursor_paint);
}

/*
 * Take surface @d (and its LUT) on for this vblank: true if the whole
 * image is to be converted afresh (a new console surface, or a new LUT).
 */
static bool head_take_surface(NV50ScanoutHead *h, const NV50ScanoutDesc *d)
{
    ColourMap map;
    bool full;

    nv50_scanout_map_build(&map, d->lut);
    full = !h->shown || h->width != d->width || h->height != d->height ||
           h->format != d->format;
    if (full) {
        head_new_surface(h, d);
    } else if (!d->lut != h->identity || memcmp(&map, &h->map, sizeof(map))) {
        full = true;            /* a new LUT: every pixel may change */
    }
    h->format = d->format;
    h->map = map;
    h->identity = !d->lut;
    return full;
}

/* A described surface: is @b what @a described? */
static bool desc_same(const NV50ScanoutDesc *a, const NV50ScanoutDesc *b)
{
    return a->offset == b->offset && a->width == b->width &&
           a->height == b->height && a->pitch == b->pitch &&
           a->block_linear == b->block_linear &&
           a->block_height == b->block_height && a->format == b->format &&
           !a->lut == !b->lut;
}

void nv50_scanout_vblank(NV50State *s, int head)
{
    NV50ScanoutHead *h;
    NV50ScanoutDesc d;
    g_autofree char *err = NULL;
    ScanoutState st;
    ScanoutRect dirty = { UINT32_MAX, UINT32_MAX, 0, 0 };
    ScanoutTarget target;
    bool full;

    if (head < 0 || head >= NV50_HEADS || !s->scanout->head[head].con) {
        return;
    }
    h = &s->scanout->head[head];
    st = nv50_scanout_armed_desc(s, head, &d, &h->lut, &err);
    if (st != SCANOUT_OK) {
        head_blank(h, st, err);
        return;
    }
    g_clear_pointer(&h->why, g_free);
    if (!h->info_ok || !desc_same(&h->info_desc, &d)) {
        head_set_info(h, describe(&d));
        h->info_desc = d;
        h->info_ok = true;
    }

    full = head_take_surface(h, &d);
    target = (ScanoutTarget){ h->image, h->width, d.format, &h->map,
                              h->identity };
    nv50_shadow_update(&h->shadow, s->vram, &d, full, &target, &dirty);
    /* the overlay over the rows, the cursor over both */
    head_overlay_step(s, head, h, full, &dirty);
    head_cursor_step(s, head, h, full, &dirty);

    if (full) {
        display_console_update(h->con, 0, 0, d.width, d.height);
        display_console_frame(h->con);
    } else if (dirty.y0 != UINT32_MAX) {
        display_console_update(h->con, dirty.x0, dirty.y0,
                               dirty.x1 - dirty.x0, dirty.y1 - dirty.y0);
        display_console_frame(h->con);
    }
}
