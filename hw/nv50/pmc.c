/*
 * PMC: master control.  Chip identification, the unit enable bits, and
 * the interrupt summary: units report pending sources, PMC ORs them into
 * INTR_HOST and drives the PCI INTx line when INTR_EN_HOST allows.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

static void pmc_update_irq(NV50State *s)
{
    pci_set_irq(PCI_DEVICE(s), (s->pmc.intr_en & 1) && s->pmc.sources);
}

void nv50_pmc_set_source(NV50State *s, uint32_t bit, bool pending)
{
    g_mutex_lock(&s->pmc.lock);
    if (pending) {
        s->pmc.sources |= bit;
    } else {
        s->pmc.sources &= ~bit;
    }
    pmc_update_irq(s);
    g_mutex_unlock(&s->pmc.lock);
}

void nv50_pmc_reset(NV50State *s)
{
    g_mutex_lock(&s->pmc.lock);
    s->pmc.intr_en = 0;
    s->pmc.sources = 0;
    /* UNVERIFIED: a posted card comes up with every unit enabled */
    s->pmc.enable = 0xffffffff;
    pmc_update_irq(s);
    g_mutex_unlock(&s->pmc.lock);
}

/*
 * PMC_ENABLE: a unit whose bit goes from 1 to 0 is held in reset (nvkm
 * toggles PFIFO's bit 8 at init, PGRAPH's bits 0x00201000 on G84 in
 * its reset path).  UNVERIFIED: other units are only stored.
 */
static void pmc_enable(NV50State *s, uint32_t val)
{
    uint32_t off = s->pmc.enable & ~val;

    s->pmc.enable = val;
    if (off & NV50_INTR_PFIFO) {
        nv50_pfifo_reset(s);
    }
    if (off & NV50_INTR_PGRAPH) {
        nv50_pgraph_reset(s);
    }
}

uint64_t nv50_pmc_read(NV50State *s, hwaddr addr, unsigned size)
{
    switch (addr) {
    case NV_PMC_ID:
        return s->boot0;
    case NV_PMC_ENDIAN:
        return 0;                   /* little endian */
    case NV_PMC_INTR_HOST: {
        uint32_t v;

        g_mutex_lock(&s->pmc.lock);
        v = s->pmc.sources;
        g_mutex_unlock(&s->pmc.lock);
        return v;
    }
    case NV_PMC_INTR_EN_HOST:
        return s->pmc.intr_en;
    case NV_PMC_ENABLE:
        return s->pmc.enable;
    default:
        nv50_unimp(s, addr, false, 0);
        return 0;
    }
}

void nv50_pmc_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    switch (addr) {
    case NV_PMC_ID:
        break;                      /* read-only, ignored by hardware */
    case NV_PMC_ENDIAN:
        if (val & 1) {
            gemu_log_once(LOG_UNIMP, "nv50-pmc", addr,
                          "nv50: PMC_ENDIAN: big-endian BAR0 not modelled"
                          "\n");
        }
        break;
    case NV_PMC_INTR_HOST:
        /* summary only: units are acknowledged in their own registers */
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: write 0x%" PRIx64
                      " to read-only PMC_INTR_HOST\n", val);
        break;
    case NV_PMC_INTR_EN_HOST:
        g_mutex_lock(&s->pmc.lock);
        s->pmc.intr_en = val & 3;
        pmc_update_irq(s);
        g_mutex_unlock(&s->pmc.lock);
        break;
    case NV_PMC_ENABLE:
        pmc_enable(s, val);
        break;
    default:
        nv50_unimp(s, addr, true, val);
        break;
    }
}
