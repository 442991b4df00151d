/*
 * IRQ lines.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/irq.h"

void irq_line_init(IRQLine *irq, IRQNotify *notify, void *opaque, int n)
{
    irq->notify = notify;
    irq->opaque = opaque;
    irq->n = n;
    irq->level = 0;
}

void irq_line_connect(IRQLine *irq, IRQNotify *notify, void *opaque, int n)
{
    irq->notify = notify;
    irq->opaque = opaque;
    irq->n = n;
}

void irq_set_level(IRQLine *irq, int level)
{
    level = !!level;
    if (level == irq->level) {
        return;
    }
    irq->level = level;
    if (irq->notify) {
        irq->notify(irq->opaque, irq->n, level);
    }
}
