/*
 * The PowerVR SGX543 device model (sgx543.md §3.7): real SGX registers,
 * events and kernel CCB in front of a GXM-level command processor that
 * draws with the USSE interpreter.  See docs/devel/sgx543.md.
 *
 * Device memory is a host buffer the embedder owns (SgxMemory); the
 * device reaches it through its MMU (BIF_DIR_LIST_BASE0) or, after
 * reset, flat (BIF_CTRL bypass bits set).
 *
 * UNIFY: a minimal stand-in for hw/core's memory regions, IRQ lines and
 * clocks, which are being written at the same time; sgx543 moves onto
 * them once they land.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_SGX543_H
#define HW_SGX543_SGX543_H

#include "gemu/osdep.h"
#include "hw/sgx543/regs.h"
#include "hw/sgx543/packets.h"
#include "ui/console.h"

typedef struct Sgx543State Sgx543State;

/* Device memory: @size bytes of host memory at @host (not owned). */
typedef struct SgxMemory {
    uint8_t *host;
    uint64_t size;
} SgxMemory;

/* Interrupt line: called when MASTER_INTERRUPT changes. */
typedef void (*SgxIrqFn)(void *opaque, bool level);

Sgx543State *sgx543_new(const SgxMemory *mem);
void sgx543_free(Sgx543State *s);
void sgx543_reset(Sgx543State *s);

/* MMIO (BAR0, 64 KiB): 32-bit accesses at 4-byte aligned offsets. */
uint32_t sgx543_mmio_read(Sgx543State *s, uint32_t offset);
void sgx543_mmio_write(Sgx543State *s, uint32_t offset, uint32_t value);

void sgx543_set_irq(Sgx543State *s, SgxIrqFn fn, void *opaque);
bool sgx543_irq_level(const Sgx543State *s);

/*
 * The console END_SCENE presents the colour surface on (NULL: none).
 * The surface's data points into device memory.
 */
void sgx543_set_console(Sgx543State *s, DisplayConsole *con);

/* Counters, for tools and tests. */
uint64_t sgx543_draws(const Sgx543State *s);     /* draws rasterised */
uint64_t sgx543_frames(const Sgx543State *s);    /* END_SCENEs */

/*
 * Run a packet stream at device address @va (@size bytes) directly, as
 * one TA command would, without the CCB.  Returns false if an error was
 * recorded (EVENT_STATUS2 / EMU_ERR_*).  For tests and tools.
 */
bool sgx543_run_commands(Sgx543State *s, uint32_t va, uint32_t size);

#endif
