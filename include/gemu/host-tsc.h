/*
 * The host's time-stamp counter rate.  Under TCG without -icount, QEMU
 * gives the guest the host's TSC as it is (its rdtsc helper reads the
 * host's counter), and the guest kernel then measures its rate against
 * the emulated PIT or HPET at boot.  On a loaded host that measurement
 * can be far off (a guest once found 83.661 MHz on a 2.6 GHz host, so
 * its clock ran 31 times fast and every timeout in it fired early), and
 * the refinement a second later gives up beyond 1%.  gemu measures the
 * rate on the host, where nothing is emulated, and hands it to the guest
 * (system/g84.c: tsc_early_khz=).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_HOST_TSC_H
#define GEMU_HOST_TSC_H

#include "gemu/osdep.h"

/*
 * The host TSC's rate in kHz, measured against CLOCK_MONOTONIC_RAW over
 * about 50 ms (once; later calls return the same), or 0 where it is not
 * known: not an x86-64 host, a TSC without constant_tsc, or a
 * measurement the host kept interrupting.
 */
unsigned host_tsc_khz(void);

#endif
