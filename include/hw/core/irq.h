/*
 * IRQ lines: a level (0 or 1) and a notifier called when it changes.
 * A device raises or lowers its line; whoever delivers the interrupt
 * (the PCI function, a transport, a test) connects the notifier.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_IRQ_H
#define HW_CORE_IRQ_H

#include "gemu/osdep.h"

typedef void IRQNotify(void *opaque, int n, int level);

typedef struct IRQLine {
    IRQNotify *notify;
    void *opaque;
    int n;
    int level;
} IRQLine;

void irq_line_init(IRQLine *irq, IRQNotify *notify, void *opaque, int n);
/* Change the notifier (NULL: nobody listens); the level is kept. */
void irq_line_connect(IRQLine *irq, IRQNotify *notify, void *opaque, int n);
/* Set the level; the notifier runs only when the level changes. */
void irq_set_level(IRQLine *irq, int level);

static inline void irq_raise(IRQLine *irq)
{
    irq_set_level(irq, 1);
}

static inline void irq_lower(IRQLine *irq)
{
    irq_set_level(irq, 0);
}

static inline int irq_get_level(const IRQLine *irq)
{
    return irq->level;
}

#endif
