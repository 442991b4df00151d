/*
 * host-tsc: print the host TSC's rate in kHz as gemu measures it for
 * its own guests (util/host-tsc.c, system/g84.c's tsc_early_khz=), or
 * nothing where it is not known (not x86-64, no constant_tsc, a
 * measurement the host kept interrupting).  For the guest tests that
 * launch QEMU with a kernel command line of their own
 * (debian-initramfs.sh).  Built as tests/host-tsc.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/host-tsc.h"

int main(void)
{
    unsigned khz = host_tsc_khz();

    if (khz) {
        printf("%u\n", khz);
    }
    return 0;
}
