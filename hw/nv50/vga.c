/*
 * PRMIO: the legacy VGA ports at BAR0 0x601000 + port.  nvkm reads the
 * CRTC registers CR00 and CR1A to decide whether the card was POSTed
 * (both zero: it runs the VBIOS init scripts) and writes CR3F to unlock
 * the extended registers.  gemu's card comes up "posted": CR00 holds a
 * VGA text-mode horizontal total.  SR and GR are index/data storage.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define PRMIO_BASE      0x601000
#define VGA_CR00_POSTED 0x5f        /* 80-column text horizontal total */

void nv50_vga_reset(NV50State *s)
{
    memset(&s->vga, 0, sizeof(s->vga));
    s->vga.cr[0x00] = VGA_CR00_POSTED;
}

static bool vga_port(NV50State *s, unsigned port, uint8_t **index,
                     uint8_t **regs)
{
    NV50VGA *v = &s->vga;

    switch (port) {
    case 0x3c4: case 0x3c5:
        *index = &v->sr_index;
        *regs = v->sr;
        return true;
    case 0x3ce: case 0x3cf:
        *index = &v->gr_index;
        *regs = v->gr;
        return true;
    case 0x3d4: case 0x3d5:
        *index = &v->cr_index;
        *regs = v->cr;
        return true;
    default:
        return false;
    }
}

static uint8_t vga_read8(NV50State *s, hwaddr addr)
{
    unsigned port = addr - PRMIO_BASE;
    uint8_t *index, *regs;

    if (!vga_port(s, port, &index, &regs)) {
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
    /* even port: index, odd port: data of the selected register */
    return (port & 1) ? regs[*index] : *index;
}

static void vga_write8(NV50State *s, hwaddr addr, uint8_t val)
{
    unsigned port = addr - PRMIO_BASE;
    uint8_t *index, *regs;

    if (!vga_port(s, port, &index, &regs)) {
        nv50_unimp(s, addr, true, val);
        return;
    }
    if (port & 1) {
        regs[*index] = val;
    } else {
        *index = val;
    }
}

uint64_t nv50_prmio_read(NV50State *s, hwaddr addr, unsigned size)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < size; i++) {
        v |= (uint64_t)vga_read8(s, addr + i) << (8 * i);
    }
    return v;
}

void nv50_prmio_write(NV50State *s, hwaddr addr, uint64_t val,
                      unsigned size)
{
    /* a 16-bit write to an index port sets index, then data */
    for (unsigned i = 0; i < size; i++) {
        vga_write8(s, addr + i, val >> (8 * i));
    }
}
