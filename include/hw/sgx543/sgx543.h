/*
 * The PowerVR SGX543 device model (sgx543.md §3.7): real SGX registers,
 * events and kernel CCB in front of a GXM-level command processor that
 * draws with the USSE interpreter.  See docs/devel/sgx543.md.
 *
 * A hw/core device: device memory is a GuestRAM reached through the
 * device's DmaAddressSpace (device-physical addresses), behind its MMU
 * (BIF_DIR_LIST_BASE0) or, after reset, flat (BIF_CTRL bypass bits
 * set); the interrupt is an IRQLine; BAR0 is a MemoryRegion.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_SGX543_H
#define HW_SGX543_SGX543_H

#include "gemu/osdep.h"
#include "hw/core/device.h"
#include "hw/core/dma.h"
#include "hw/core/irq.h"
#include "hw/core/memory.h"
#include "hw/sgx543/regs.h"
#include "hw/sgx543/packets.h"
#include "ui/console.h"

#define TYPE_SGX543 "sgx543"

typedef struct Sgx543State Sgx543State;

/*
 * Create and realize a device whose memory is @ram (device-physical
 * addresses; not owned, it must outlive the device; NULL: none yet, see
 * sgx543_set_guest_ram).
 */
Sgx543State *sgx543_new(GuestRAM *ram);
void sgx543_free(Sgx543State *s);
void sgx543_reset(Sgx543State *s);
void sgx543_set_guest_ram(Sgx543State *s, GuestRAM *ram);

/* BAR0 (64 KiB): 32-bit registers; narrower and wider accesses are
   split or widened by the memory API. */
MemoryRegion *sgx543_mmio_region(Sgx543State *s);
/* The same registers by offset (tests, tools): 4-byte aligned. */
uint32_t sgx543_mmio_read(Sgx543State *s, uint32_t offset);
void sgx543_mmio_write(Sgx543State *s, uint32_t offset, uint32_t value);

/* The interrupt line (MASTER_INTERRUPT): connect a notifier to it. */
IRQLine *sgx543_irq_line(Sgx543State *s);
bool sgx543_irq_level(const Sgx543State *s);

/*
 * The console END_SCENE presents the colour surface on (NULL: none).
 * The console shows a copy of the frame the device keeps (never a
 * pointer into device memory).
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
