/*
 * nv50 scanout: the surface a head shows, as a ui/ DisplaySurface over
 * VRAM, and the -screendump PNG made from it: the base channel's image
 * (cl507c SURFACE_SET_OFFSET/SIZE/STORAGE/PARAMS and SET_CONTEXT_DMA_ISO)
 * when one is armed -- nouveau's console lives there -- else the core
 * channel's head surface (cl507d HEAD_SET_OFFSET/SIZE/STORAGE/PARAMS/
 * CONTEXT_DMA_ISO; nouveau's is the whole mode at VRAM offset 0,
 * head507d_core_calc).  Overlays are not composed.
 *
 * UNVERIFIED: the ISO context DMA is taken to start at VRAM 0 (nouveau's
 * core VRAM ctxdma does); its object is not looked up.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "ui/console.h"

#define CORE_HEAD_MTHD(h, m)    (0x800 + (h) * 0x400 + (m))
#define HEAD_SET_OFFSET         0x060   /* ORIGIN 31:0, bytes >> 8 */
#define HEAD_SET_SIZE           0x068   /* WIDTH 14:0, HEIGHT 30:16 */
#define HEAD_SET_STORAGE        0x06c   /* PITCH 17:8 (>> 8), LAYOUT 20 */
#define HEAD_SET_PARAMS         0x070   /* FORMAT 15:8 */
#define HEAD_SET_CTXDMA_ISO     0x074   /* 0: no surface */

/* base channel (cl507c), surface 0 */
#define BASE_SET_CTXDMA_ISO     0x0c0   /* 0: no image */
#define BASE_SURFACE_SET_OFFSET 0x800
#define BASE_SURFACE_SET_SIZE   0x808
#define BASE_SURFACE_SET_STORAGE 0x80c
#define BASE_SURFACE_SET_PARAMS 0x810

#define STORAGE_LAYOUT_PITCH    (1u << 20)
#define FORMAT_A8R8G8B8         0xcf
#define FORMAT_X8R8G8B8         0xe6    /* UNVERIFIED for the head */

/* Where a channel keeps the five methods that describe a surface. */
typedef struct SurfaceMethods {
    unsigned offset, size, storage, params, ctxdma;
} SurfaceMethods;

/* The surface described by armed methods @m of @armed, for head @head. */
static bool armed_surface(NV50State *s, const uint32_t *armed,
                          const SurfaceMethods *m, int head,
                          DisplaySurface *out, char **err)
{
    uint32_t size = armed[m->size >> 2];
    uint32_t storage = armed[m->storage >> 2];
    uint32_t params = armed[m->params >> 2];
    uint64_t offset = (uint64_t)armed[m->offset >> 2] << 8;
    uint32_t fmt;
    uint64_t need;

    memset(out, 0, sizeof(*out));
    out->width = size & 0x7fff;
    out->height = (size >> 16) & 0x7fff;
    out->pitch = ((storage >> 8) & 0x3ff) << 8;
    if (!armed[m->ctxdma >> 2] || !out->width || !out->height) {
        *err = g_strdup_printf("no scanout surface armed on head %d (the "
                               "guest has not set a mode)", head);
        return false;
    }
    if (!(storage & STORAGE_LAYOUT_PITCH)) {
        *err = g_strdup_printf("head %d scans out a block-linear surface "
                               "(not supported yet)", head);
        return false;
    }
    fmt = (params >> 8) & 0xff;
    if (fmt != FORMAT_A8R8G8B8 && fmt != FORMAT_X8R8G8B8) {
        *err = g_strdup_printf("head %d scanout format 0x%02x is not "
                               "supported (only A8R8G8B8/X8R8G8B8)",
                               head, fmt);
        return false;
    }
    /* scanout ignores alpha: bytes B, G, R, x in VRAM */
    out->format = DISPLAY_FORMAT_BGRX8888;
    out->addr = offset;
    if (out->pitch < out->width * 4u) {
        *err = g_strdup_printf("head %d pitch %u is less than %u x 4 bytes",
                               head, out->pitch, out->width);
        return false;
    }
    need = offset + (uint64_t)out->pitch * (out->height - 1) +
           out->width * 4u;
    if (need > s->vram_size) {
        *err = g_strdup_printf("head %d surface %ux%u at 0x%" PRIx64
                               " ends beyond VRAM (%" PRIu64 " MiB)", head,
                               out->width, out->height, offset,
                               s->vram_size >> 20);
        return false;
    }
    out->data = s->vram + offset;
    return true;
}

bool nv50_scanout_surface(NV50State *s, int head, DisplaySurface *out,
                          char **err)
{
    const SurfaceMethods core = {
        CORE_HEAD_MTHD(head, HEAD_SET_OFFSET),
        CORE_HEAD_MTHD(head, HEAD_SET_SIZE),
        CORE_HEAD_MTHD(head, HEAD_SET_STORAGE),
        CORE_HEAD_MTHD(head, HEAD_SET_PARAMS),
        CORE_HEAD_MTHD(head, HEAD_SET_CTXDMA_ISO),
    };
    const SurfaceMethods base = {
        BASE_SURFACE_SET_OFFSET, BASE_SURFACE_SET_SIZE,
        BASE_SURFACE_SET_STORAGE, BASE_SURFACE_SET_PARAMS,
        BASE_SET_CTXDMA_ISO,
    };

    if (head < 0 || head > 1) {
        *err = g_strdup_printf("no head %d (the G84 has heads 0 and 1)",
                               head);
        return false;
    }
    /*
     * The base channel's image is what the head shows over the core
     * surface (nouveau's console lives there); without one, the core's.
     */
    if (s->pdisp->chan[1 + head].armed[BASE_SET_CTXDMA_ISO >> 2]) {
        return armed_surface(s, s->pdisp->chan[1 + head].armed, &base, head,
                             out, err);
    }
    return armed_surface(s, s->pdisp->chan[0].armed, &core, head, out, err);
}

bool nv50_screendump(NV50State *s, int head, const char *path, char **err)
{
    DisplaySurface surf;

    return nv50_scanout_surface(s, head, &surf, err) &&
           display_png_write(&surf, path, err);
}

/* --- per-head consoles (being written: see nv50_scanout_vblank) --- */

typedef struct NV50Scanout {
    DisplayConsole *con[2];
} NV50Scanout;

void nv50_scanout_init(NV50State *s)
{
    s->scanout = g_new0(NV50Scanout, 1);
}

void nv50_scanout_fini(NV50State *s)
{
    g_clear_pointer(&s->scanout, g_free);
}

void nv50_scanout_set_console(NV50State *s, int head, DisplayConsole *con)
{
    if (head >= 0 && head < 2) {
        s->scanout->con[head] = con;
    }
}

void nv50_scanout_vblank(NV50State *s, int head)
{
    DisplaySurface surf;
    g_autofree char *err = NULL;
    DisplayConsole *con;

    if (head < 0 || head > 1 || !(con = s->scanout->con[head])) {
        return;
    }
    if (nv50_scanout_surface(s, head, &surf, &err)) {
        display_console_set_surface(con, &surf);
        display_console_frame(con);
    }
}
