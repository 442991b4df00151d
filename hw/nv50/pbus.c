/*
 * PBUS: bus interface control.  Its interrupt pair, the HWUNITS straps
 * that say which units the chip has (nvkm sizes VRAM partitions and
 * removes engines from them), and storage for the rest.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

/*
 * G84 units: TP mask 0x3 (bits 15:0), partitions 0x3 (23:16: nvkm's VRAM
 * row size needs at least one), MPs 0x3 (27:24), bit 30 clear = no video
 * engines.  HWUNITS_1 bit 2: display present; BSP/CIPHER absent.
 */
#define G84_HWUNITS_0   0x03030003u
#define G84_HWUNITS_1   0x00000004u

static void pbus_update_irq(NV50State *s)
{
    nv50_pmc_set_source(s, NV50_INTR_PBUS,
                        s->pbus.intr & s->pbus.intr_en);
}

void nv50_pbus_reset(NV50State *s)
{
    memset(&s->pbus, 0, sizeof(s->pbus));
    s->pbus.hwunits_0 = G84_HWUNITS_0;
    s->pbus.hwunits_1 = G84_HWUNITS_1;
    pbus_update_irq(s);
}

uint64_t nv50_pbus_read(NV50State *s, hwaddr addr, unsigned size)
{
    switch (addr) {
    case NV_PBUS_FUSE_1084:
        return s->pbus.regs[(addr & 0xfff) / 4];
    case NV_PBUS_INTR:
        return s->pbus.intr;
    case NV_PBUS_INTR_EN:
        return s->pbus.intr_en;
    case NV_PBUS_HWUNITS_0:
        return s->pbus.hwunits_0;
    case NV_PBUS_HWUNITS_1:
        return s->pbus.hwunits_1;
    default:
        nv50_unimp(s, addr, false, 0);
        return s->pbus.regs[(addr & 0xfff) / 4];
    }
}

void nv50_pbus_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    switch (addr) {
    case NV_PBUS_FUSE_1084:
        s->pbus.regs[(addr & 0xfff) / 4] = val;
        break;
    case NV_PBUS_INTR:
        s->pbus.intr &= ~val;           /* write one to clear */
        pbus_update_irq(s);
        break;
    case NV_PBUS_INTR_EN:
        s->pbus.intr_en = val;
        pbus_update_irq(s);
        break;
    case NV_PBUS_HWUNITS_0:
        break;                          /* straps: read-only */
    case NV_PBUS_HWUNITS_1:
        /* nvkm's PCIe path writes it back; keep the display bit */
        s->pbus.hwunits_1 = val;
        break;
    default:
        nv50_unimp(s, addr, true, val);
        s->pbus.regs[(addr & 0xfff) / 4] = val;
        break;
    }
}
