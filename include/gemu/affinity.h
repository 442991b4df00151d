/*
 * Host CPU affinity for a device process and the QEMU it serves.
 *
 * QEMU's proxy (x-pci-proxy-dev) makes its vCPU thread and gemu take
 * turns: every BAR access is a message and a blocking wait for the
 * answer.  When the two run on different host CPUs, each turn is a
 * cross-CPU wakeup; on one CPU it is a plain switch, which on the
 * virtual machines CI runs on costs a fraction (measured: a socketpair
 * round trip 25 us across CPUs, 10 us on one).  "-pin-cpu" puts them
 * together.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_AFFINITY_H
#define GEMU_AFFINITY_H

#include "gemu/osdep.h"

/* "-pin-cpu auto": the CPU gemu runs on when the pinning happens */
#define GEMU_PIN_CPU_AUTO   (-1)

/*
 * Parse a "-pin-cpu" argument: "auto" (GEMU_PIN_CPU_AUTO) or a CPU
 * number that gemu may run on.  False with *err (g_free) set otherwise.
 */
bool gemu_pin_cpu_parse(const char *arg, int *cpu, char **err);

/*
 * The one thread of a QEMU process that runs its vCPUs, found by the
 * names QEMU gives its threads with "-name debug-threads=on" ("CPU 0/TCG",
 * "ALL CPUs/TCG", "CPU 0/KVM"): @task_dir is /proc/PID/task.  0 with
 * *err set if there is none yet, or several (a multi-vCPU guest: pinning
 * them all to one CPU would serialise it).
 */
pid_t gemu_vcpu_thread(const char *task_dir, char **err);

/*
 * Run the calling thread and thread @tid on host CPU @cpu (or, for
 * GEMU_PIN_CPU_AUTO, the CPU the caller is on).  The CPU used is stored
 * in *used.  False with *err set if the kernel refused.
 */
bool gemu_pin_with(pid_t tid, int cpu, int *used, char **err);

#endif
