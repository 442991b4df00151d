/*
 * Host CPU affinity for a device process and the QEMU it serves
 * (include/gemu/affinity.h).
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE             /* sched_getcpu, cpu_set_t */
#include "gemu/osdep.h"
#include "gemu/affinity.h"

#include <sched.h>

bool gemu_pin_cpu_parse(const char *arg, int *cpu, char **err)
{
    cpu_set_t allowed;
    char *end;
    long n;

    if (!strcmp(arg, "auto")) {
        *cpu = GEMU_PIN_CPU_AUTO;
        return true;
    }
    errno = 0;
    n = strtol(arg, &end, 10);
    if (errno || end == arg || *end || n < 0 || n >= CPU_SETSIZE) {
        *err = g_strdup_printf("bad -pin-cpu '%s' (auto or a CPU number)",
                               arg);
        return false;
    }
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
        !CPU_ISSET(n, &allowed)) {
        *err = g_strdup_printf("-pin-cpu %ld: gemu may not run on CPU %ld",
                               n, n);
        return false;
    }
    *cpu = n;
    return true;
}

/* QEMU's names for the threads that run vCPUs (cpus-common, accel/) */
static bool is_vcpu_name(const char *comm)
{
    return g_str_has_suffix(comm, "/TCG") || g_str_has_suffix(comm, "/KVM");
}

pid_t gemu_vcpu_thread(const char *task_dir, char **err)
{
    g_autoptr(GDir) dir = g_dir_open(task_dir, 0, NULL);
    const char *name;
    pid_t found = 0;
    int count = 0;

    if (!dir) {
        *err = g_strdup_printf("cannot list %s", task_dir);
        return 0;
    }
    while ((name = g_dir_read_name(dir))) {
        g_autofree char *path = g_build_filename(task_dir, name, "comm",
                                                 NULL);
        g_autofree char *comm = NULL;
        char *end;
        long tid = strtol(name, &end, 10);

        if (*end || tid <= 0 ||
            !g_file_get_contents(path, &comm, NULL, NULL)) {
            continue;
        }
        g_strchomp(comm);
        if (is_vcpu_name(comm)) {
            found = tid;
            count++;
        }
    }
    if (count == 1) {
        return found;
    }
    *err = count ? g_strdup_printf("%d vCPU threads in %s: only a guest "
                                   "with one is pinned", count, task_dir)
                 : g_strdup_printf("no vCPU thread (named .../TCG or "
                                   ".../KVM) in %s", task_dir);
    return 0;
}

bool gemu_pin_with(pid_t tid, int cpu, int *used, char **err)
{
    cpu_set_t set;

    if (cpu == GEMU_PIN_CPU_AUTO) {
        cpu = sched_getcpu();
        if (cpu < 0) {
            *err = g_strdup_printf("sched_getcpu: %s", strerror(errno));
            return false;
        }
    }
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(tid, sizeof(set), &set) < 0) {
        *err = g_strdup_printf("cannot move thread %ld to CPU %d: %s",
                               (long)tid, cpu, strerror(errno));
        return false;
    }
    if (sched_setaffinity(0, sizeof(set), &set) < 0) {
        *err = g_strdup_printf("cannot move gemu to CPU %d: %s", cpu,
                               strerror(errno));
        return false;
    }
    *used = cpu;
    return true;
}
