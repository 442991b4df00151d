/*
 * Guest RAM blocks and DMA copies.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/core/dma.h"

GuestRAM *guest_ram_new(void)
{
    GuestRAM *ram = g_new0(GuestRAM, 1);

    ram->blocks = g_array_new(FALSE, FALSE, sizeof(GuestRAMBlock));
    return ram;
}

void guest_ram_free(GuestRAM *ram)
{
    if (ram) {
        g_array_free(ram->blocks, TRUE);
        g_free(ram);
    }
}

bool guest_ram_add(GuestRAM *ram, hwaddr gpa, hwaddr size, void *host)
{
    GuestRAMBlock nb = { .gpa = gpa, .size = size, .host = host };
    guint i;

    if (!size || gpa + size < gpa) {
        return false;
    }
    for (i = 0; i < ram->blocks->len; i++) {
        GuestRAMBlock *b = &g_array_index(ram->blocks, GuestRAMBlock, i);

        if (gpa < b->gpa + b->size && b->gpa < gpa + size) {
            return false;
        }
        if (b->gpa > gpa) {
            break;
        }
    }
    g_array_insert_val(ram->blocks, i, nb);
    return true;
}

void guest_ram_clear(GuestRAM *ram)
{
    g_array_set_size(ram->blocks, 0);
}

static GuestRAMBlock *find_block(GuestRAM *ram, hwaddr gpa)
{
    for (guint i = 0; i < ram->blocks->len; i++) {
        GuestRAMBlock *b = &g_array_index(ram->blocks, GuestRAMBlock, i);

        if (gpa >= b->gpa && gpa - b->gpa < b->size) {
            return b;
        }
    }
    return NULL;
}

void *guest_ram_ptr(GuestRAM *ram, hwaddr gpa, hwaddr len)
{
    GuestRAMBlock *b = ram ? find_block(ram, gpa) : NULL;

    if (!b || len > b->size - (gpa - b->gpa)) {
        return NULL;
    }
    return b->host + (gpa - b->gpa);
}

void dma_as_init(DmaAddressSpace *as, const char *name, GuestRAM *ram)
{
    as->name = name;
    as->ram = ram;
    as->tap = NULL;
    as->master = NULL;
}

/*
 * The master may not issue the access: refuse it whole (a read's @buf
 * all-ones) before any tap, so a recording holds no DMA_READ for it and
 * a replay serves none (the bus master state comes from the replayed
 * config writes).
 */
static bool dma_refused(DmaAddressSpace *as, hwaddr addr, void *buf,
                        size_t len, bool is_write)
{
    const DmaMaster *m = as->master;

    if (!m || m->enabled(m->opaque)) {
        return false;
    }
    gemu_log_mask(LOG_GUEST_ERROR, "%s: DMA %s of %zu bytes at 0x%" PRIx64
                  " refused: bus mastering is off (master abort)\n",
                  as->name, is_write ? "write" : "read", len, addr);
    if (!is_write) {
        memset(buf, 0xff, len);
    }
    m->aborted(m->opaque);
    return true;
}

/* Walk [addr, addr+len) block by block; false at the first hole. */
static bool dma_rw(DmaAddressSpace *as, hwaddr addr, uint8_t *buf,
                   size_t len, bool is_write)
{
    hwaddr start = addr;

    while (len) {
        GuestRAMBlock *b = as->ram ? find_block(as->ram, addr) : NULL;
        size_t n;

        if (!b) {
            gemu_log_mask(LOG_GUEST_ERROR,
                          "%s: DMA %s at 0x%" PRIx64 " (from 0x%" PRIx64
                          ") outside guest RAM\n", as->name,
                          is_write ? "write" : "read", addr, start);
            if (!is_write) {
                memset(buf, 0, len);
            }
            return false;
        }
        n = MIN(len, b->size - (addr - b->gpa));
        if (is_write) {
            memcpy(b->host + (addr - b->gpa), buf, n);
        } else {
            memcpy(buf, b->host + (addr - b->gpa), n);
        }
        buf += n;
        addr += n;
        len -= n;
    }
    return true;
}

bool dma_read(DmaAddressSpace *as, hwaddr addr, void *buf, size_t len)
{
    const DmaTap *tap = as->tap;
    bool ok;

    if (dma_refused(as, addr, buf, len, false)) {
        return false;
    }
    if (tap && tap->read) {
        return tap->read(tap->opaque, addr, buf, len);
    }
    ok = dma_rw(as, addr, buf, len, false);
    if (tap && tap->read_done) {
        tap->read_done(tap->opaque, addr, buf, len, ok);
    }
    return ok;
}

bool dma_write(DmaAddressSpace *as, hwaddr addr, const void *buf,
               size_t len)
{
    const DmaTap *tap = as->tap;

    if (dma_refused(as, addr, NULL, len, true)) {
        return false;
    }
    if (tap && tap->write) {
        return tap->write(tap->opaque, addr, buf, len);
    }
    return dma_rw(as, addr, (uint8_t *)buf, len, true);
}
