/*
 * Recording what a guest does to a PCI function (gemu -record) and
 * replaying it against the function alone (gemu-replay, device tests).
 * The file format is block/gemu-rec.h's; the rules (what is recorded,
 * in which order, what a divergence is) are in docs/devel/replay.md.
 *
 * The recorder is told of every access by the transport (before it, to
 * move the virtual clock, and after it, with the value a read returned)
 * and taps the function's DMA reads and its INTx line itself.  Events
 * (DMA reads, INTx changes) are written as they happen, so they come
 * before the access, or clock step, during which they happened.
 *
 * The replayer performs the recording's accesses and clock steps in
 * order and serves the card's DMA reads from the recording; the card
 * must read the same guest memory (address and length), raise the same
 * INTx changes and return the same read values, or the replay stops
 * and says where, by access sequence number (from 1).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_PCI_REPLAY_H
#define HW_PCI_REPLAY_H

#include "gemu/osdep.h"
#include "block/gemu-rec.h"
#include "hw/core/clock.h"
#include "hw/core/dma.h"
#include "hw/pci/pci.h"

typedef struct PciRecorder PciRecorder;

/*
 * Record @pci's traffic into @w (not owned): its DMA reads through @as,
 * INTx changes (chained before whoever is connected to the line now).
 */
PciRecorder *pci_recorder_new(PCIDevice *pci, DmaAddressSpace *as,
                              GemuRecWriter *w);
/*
 * One access of the guest: type is BAR_READ/WRITE, CFG_READ/WRITE or
 * RESET; val what a read returned or a write wrote.  After the access.
 */
void pci_recorder_access(PciRecorder *r, GemuRecType type, uint64_t addr,
                         unsigned size, uint64_t val);
/* The machine moved the virtual clock by @ns (after doing it). */
void pci_recorder_clock(PciRecorder *r, int64_t ns);
uint64_t pci_recorder_accesses(const PciRecorder *r);
/* Unhook from the device (the writer stays the caller's). */
void pci_recorder_free(PciRecorder *r);

typedef struct PciReplay PciReplay;

/*
 * Replay @f (not owned; it must outlive the replay) against @pci, whose
 * DMA goes through @as and whose time is @clk (virtual).  @as gets an
 * empty guest RAM if it has none, and the replay's tap.
 */
PciReplay *pci_replay_new(PCIDevice *pci, DmaAddressSpace *as,
                          GemuClock *clk, const GemuRecFile *f);
/*
 * The same, its records from @next (gemu_rec_reader_next's contract:
 * 1 a record, 0 no more, -1 with *errp a malformed one), so that a
 * recording need not be held parsed; records' data must stay valid.
 */
typedef int PciReplaySource(void *opaque, GemuRecord *r, GError **errp);
PciReplay *pci_replay_new_source(PCIDevice *pci, DmaAddressSpace *as,
                                 GemuClock *clk, PciReplaySource *next,
                                 void *opaque);
/*
 * Perform the next access or clock step.  1: done; 0: the recording has
 * no more (its END, if any, is pci_replay_end()); -1: the card diverged
 * (*errp says where); -2: the source gave a malformed record (*errp).
 */
int pci_replay_step(PciReplay *r, GError **errp);
/* Accesses performed so far (the last one's sequence number). */
uint64_t pci_replay_seq(const PciReplay *r);
/* The recording's END record, or NULL if it has none. */
const GemuRecord *pci_replay_end(const PciReplay *r);
void pci_replay_free(PciReplay *r);

#endif
