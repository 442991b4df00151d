/*
 * Unit tests: -pin-cpu (util/affinity.c): the argument, finding QEMU's
 * vCPU thread by its name in a /proc/PID/task-like directory, and moving
 * two threads onto one CPU.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE             /* sched_getaffinity, gettid */
#include "gemu/osdep.h"
#include "gemu/affinity.h"
#include <check.h>
#include <sched.h>
#include <glib/gstdio.h>
#include <unistd.h>

/* A fake /proc/PID/task: one directory per thread with its "comm". */
static char *fake_tasks(const char *const *threads)
{
    char *dir = g_dir_make_tmp("gemu-tasks-XXXXXX", NULL);

    ck_assert_ptr_nonnull(dir);
    for (int i = 0; threads[i]; i += 2) {
        g_autofree char *t = g_build_filename(dir, threads[i], NULL);
        g_autofree char *comm = g_build_filename(t, "comm", NULL);
        g_autofree char *text = g_strdup_printf("%s\n", threads[i + 1]);

        ck_assert_int_eq(g_mkdir(t, 0700), 0);
        ck_assert(g_file_set_contents(comm, text, -1, NULL));
    }
    return dir;
}

static void rm_tasks(char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *t = g_build_filename(dir, name, NULL);
        g_autofree char *comm = g_build_filename(t, "comm", NULL);

        g_unlink(comm);
        g_rmdir(t);
    }
    g_rmdir(dir);
    g_free(dir);
}

START_TEST(test_pin_cpu_parse)
{
    cpu_set_t allowed;
    int cpu = 1234, first = -1;
    char *err = NULL;

    ck_assert(gemu_pin_cpu_parse("auto", &cpu, &err));
    ck_assert_int_eq(cpu, GEMU_PIN_CPU_AUTO);
    ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
    for (int i = 0; i < CPU_SETSIZE && first < 0; i++) {
        if (CPU_ISSET(i, &allowed)) {
            first = i;
        }
    }
    {
        g_autofree char *arg = g_strdup_printf("%d", first);

        ck_assert(gemu_pin_cpu_parse(arg, &cpu, &err));
        ck_assert_int_eq(cpu, first);
    }
    static const char *const bad[] = { "", "x", "1x", "-1", "auto2",
                                       "99999999999" };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        cpu = 1234;
        ck_assert_msg(!gemu_pin_cpu_parse(bad[i], &cpu, &err), "%s", bad[i]);
        ck_assert_ptr_nonnull(strstr(err, "-pin-cpu"));
        ck_assert_int_eq(cpu, 1234);
        g_clear_pointer(&err, g_free);
    }
    /* a CPU gemu may not run on (beyond the allowed set) */
    for (int i = CPU_SETSIZE - 1; i >= 0; i--) {
        if (!CPU_ISSET(i, &allowed)) {
            g_autofree char *arg = g_strdup_printf("%d", i);

            ck_assert(!gemu_pin_cpu_parse(arg, &cpu, &err));
            ck_assert_ptr_nonnull(strstr(err, "may not run"));
            g_clear_pointer(&err, g_free);
            break;
        }
    }
}
END_TEST

START_TEST(test_vcpu_thread)
{
    /* QEMU 7.2 with -name debug-threads=on and single-threaded TCG */
    static const char *const tcg[] = {
        "100", "qemu-system-x86", "101", "call_rcu", "102", "ALL CPUs/TCG",
        "103", "worker", NULL,
    };
    static const char *const kvm[] = {
        "200", "qemu-system-x86", "205", "CPU 0/KVM", NULL,
    };
    static const char *const smp[] = {
        "300", "qemu-system-x86", "301", "CPU 0/TCG", "302", "CPU 1/TCG",
        NULL,
    };
    /* QEMU without debug-threads: every thread has the program's name */
    static const char *const unnamed[] = {
        "400", "qemu-system-x86", "401", "qemu-system-x86", "notatid",
        "CPU 0/TCG", NULL,
    };
    char *dir, *err = NULL;

    dir = fake_tasks(tcg);
    ck_assert_int_eq(gemu_vcpu_thread(dir, &err), 102);
    rm_tasks(dir);
    dir = fake_tasks(kvm);
    ck_assert_int_eq(gemu_vcpu_thread(dir, &err), 205);
    rm_tasks(dir);
    ck_assert_ptr_null(err);

    dir = fake_tasks(smp);
    ck_assert_int_eq(gemu_vcpu_thread(dir, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "2 vCPU threads"));
    g_clear_pointer(&err, g_free);
    rm_tasks(dir);
    dir = fake_tasks(unnamed);
    ck_assert_int_eq(gemu_vcpu_thread(dir, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "no vCPU thread"));
    g_clear_pointer(&err, g_free);
    rm_tasks(dir);

    ck_assert_int_eq(gemu_vcpu_thread("/nonexistent/task", &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "cannot list"));
    g_free(err);
}
END_TEST

static gpointer spin_until(gpointer opaque)
{
    volatile int *stop = opaque;
    cpu_set_t *set = g_new0(cpu_set_t, 1);

    while (!*stop) {
        g_usleep(1000);
    }
    /* what the kernel says this thread may run on now */
    sched_getaffinity(0, sizeof(*set), set);
    return set;
}

START_TEST(test_pin_with)
{
    cpu_set_t saved, now;
    volatile int stop = 0;
    volatile pid_t tid = 0;
    GThread *th;
    cpu_set_t *other;
    char *err = NULL;
    int used = -1;

    ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
    th = g_thread_new("pinned", spin_until, (gpointer)&stop);
    /* the other thread's id, as /proc/self/task lists it */
    {
        g_autoptr(GDir) d = g_dir_open("/proc/self/task", 0, NULL);
        const char *name;

        while (d && (name = g_dir_read_name(d))) {
            if (atoi(name) != gettid()) {
                tid = atoi(name);
            }
        }
    }
    ck_assert_int_gt(tid, 0);
    ck_assert(gemu_pin_with(tid, GEMU_PIN_CPU_AUTO, &used, &err));
    ck_assert(CPU_ISSET(used, &saved));
    ck_assert_int_eq(sched_getaffinity(0, sizeof(now), &now), 0);
    ck_assert_int_eq(CPU_COUNT(&now), 1);
    ck_assert(CPU_ISSET(used, &now));
    stop = 1;
    other = g_thread_join(th);
    ck_assert_int_eq(CPU_COUNT(other), 1);
    ck_assert(CPU_ISSET(used, other));
    g_free(other);

    /* a thread that does not exist: refused, said */
    ck_assert(!gemu_pin_with(0x3fffffff, used, &used, &err));
    ck_assert_ptr_nonnull(strstr(err, "cannot move thread"));
    g_free(err);
    sched_setaffinity(0, sizeof(saved), &saved);
}
END_TEST

Suite *affinity_suite(void)
{
    Suite *s = suite_create("affinity");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_pin_cpu_parse);
    tcase_add_test(tc, test_vcpu_thread);
    tcase_add_test(tc, test_pin_with);
    suite_add_tcase(s, tc);
    return s;
}
