/*
 * nv50 scanout: the surface a head shows, from the core channel's armed
 * method state (cl507d HEAD_SET_OFFSET/SIZE/STORAGE/PARAMS/
 * CONTEXT_DMA_ISO), as a ui/ DisplaySurface over VRAM; and the
 * -screendump PNG made from it.
 *
 * nouveau's core surface is the whole mode at VRAM offset 0 with pitch
 * ALIGN(w, 64) * 4, A8R8G8B8 (head507d_core_calc); the console image
 * itself comes from the base channel, which this does not read yet.
 *
 * UNVERIFIED: the ISO context DMA is taken to start at VRAM 0 (nouveau's
 * core VRAM ctxdma does); its object is not looked up.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "ui/console.h"

#define CORE_HEAD(h, m)         (((0x800 + (h) * 0x400) + (m)) >> 2)
#define HEAD_SET_OFFSET         0x060   /* ORIGIN 31:0, bytes >> 8 */
#define HEAD_SET_SIZE           0x068   /* WIDTH 14:0, HEIGHT 30:16 */
#define HEAD_SET_STORAGE        0x06c   /* PITCH 17:8 (>> 8), LAYOUT 20 */
#define HEAD_SET_PARAMS         0x070   /* FORMAT 15:8 */
#define HEAD_SET_CTXDMA_ISO     0x074   /* 0: no surface */

#define STORAGE_LAYOUT_PITCH    (1u << 20)
#define FORMAT_A8R8G8B8         0xcf
#define FORMAT_X8R8G8B8         0xe6    /* UNVERIFIED for the head */

bool nv50_scanout_surface(NV50State *s, int head, DisplaySurface *out,
                          char **err)
{
    const uint32_t *armed = s->pdisp->chan[0].armed;
    uint32_t size, storage, params, fmt;
    uint64_t offset, need;

    if (head < 0 || head > 1) {
        *err = g_strdup_printf("no head %d (the G84 has heads 0 and 1)",
                               head);
        return false;
    }
    size = armed[CORE_HEAD(head, HEAD_SET_SIZE)];
    storage = armed[CORE_HEAD(head, HEAD_SET_STORAGE)];
    params = armed[CORE_HEAD(head, HEAD_SET_PARAMS)];
    offset = (uint64_t)armed[CORE_HEAD(head, HEAD_SET_OFFSET)] << 8;
    memset(out, 0, sizeof(*out));
    out->width = size & 0x7fff;
    out->height = (size >> 16) & 0x7fff;
    out->pitch = ((storage >> 8) & 0x3ff) << 8;
    if (!armed[CORE_HEAD(head, HEAD_SET_CTXDMA_ISO)] || !out->width ||
        !out->height) {
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

bool nv50_screendump(NV50State *s, int head, const char *path, char **err)
{
    DisplaySurface surf;

    return nv50_scanout_surface(s, head, &surf, err) &&
           display_png_write(&surf, path, err);
}
