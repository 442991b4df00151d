/*
 * The g84 machine's QEMU command line: what the user's options after
 * "--" already say, and the options gemu adds around them (the guest it
 * builds, guest RAM the card can reach, the proxy device, and under
 * -clock virtual a guest whose own time follows its instructions).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/host-tsc.h"
#include "gemu/log.h"
#include "g84.h"

uint64_t g84_parse_size(const char *str)
{
    char *end;
    uint64_t v;

    errno = 0;
    v = g_ascii_strtoull(str, &end, 10);
    if (errno || end == str) {
        return 0;
    }
    switch (g_ascii_toupper(*end)) {
    case '\0':
        return v << 20;
    case 'K':
        v <<= 10;
        break;
    case 'M':
        v <<= 20;
        break;
    case 'G':
        v <<= 30;
        break;
    case 'T':
        v <<= 40;
        break;
    default:
        return 0;
    }
    if (end[1] && g_ascii_toupper(end[1]) != 'B') {
        return 0;
    }
    return v;
}

/* "-m 512M" or "-m size=512M,slots=..." */
static uint64_t parse_qemu_mem(const char *arg)
{
    g_auto(GStrv) parts = g_strsplit(arg, ",", -1);

    for (char **p = parts; *p; p++) {
        if (g_str_has_prefix(*p, "size=")) {
            return g84_parse_size(*p + 5);
        }
        if (p == parts && !strchr(*p, '=')) {
            return g84_parse_size(*p);
        }
    }
    return 0;
}

static bool is_opt(const char *arg, const char *name)
{
    /* QEMU takes both -opt and --opt */
    if (arg[0] == '-' && arg[1] == '-') {
        arg++;
    }
    return arg[0] == '-' && !strcmp(arg + 1, name);
}

bool g84_qemu_scan(const MachineOptions *opts, G84QemuUser *u,
                   GError **errp)
{
    memset(u, 0, sizeof(*u));
    for (int i = 0; i < opts->argc; i++) {
        const char *a = opts->argv[i];

        if (is_opt(a, "m") && i + 1 < opts->argc) {
            u->ram = parse_qemu_mem(opts->argv[i + 1]);
            u->has_mem = true;
            if (!u->ram) {
                g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "cannot read the memory size in '-m %s'",
                            opts->argv[i + 1]);
                return false;
            }
        } else if (is_opt(a, "accel") || is_opt(a, "enable-kvm")) {
            u->has_accel = true;
        } else if (is_opt(a, "vga") || is_opt(a, "nodefaults")) {
            u->has_vga = true;
        } else if (is_opt(a, "icount")) {
            u->has_icount = true;
        } else if (is_opt(a, "seed")) {
            u->has_seed = true;
        } else if (is_opt(a, "rtc")) {
            u->has_rtc = true;
        } else if (is_opt(a, "object") && i + 1 < opts->argc &&
                   strstr(opts->argv[i + 1], "id=" G84_RAM_BACKEND)) {
            g_set_error(errp, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "the object id '%s' is gemu's", G84_RAM_BACKEND);
            return false;
        }
    }
    if (!u->has_mem) {
        u->ram = (uint64_t)(opts->guest_mesa ? G84_MESA_RAM_MIB
                                             : G84_DEFAULT_RAM_MIB) << 20;
    }
    return true;
}

static void add(GPtrArray *args, const char *opt, char *val)
{
    g_ptr_array_add(args, g_strdup(opt));
    if (val) {
        g_ptr_array_add(args, val);
    }
}

/*
 * -clock virtual: the guest's own time too.  QEMU's -icount makes the
 * guest's clocks (TSC, PIT, HPET, the RTC with clock=vm) count its
 * instructions, and sleep=off jumps them over idle time instead of
 * waiting for the host; -seed makes what the guest takes as random (the
 * kernel's boot seed) the same each run; the RTC starts at a fixed date.
 * Each only where the user gave no option of that name, and none with an
 * accelerator the user chose (-icount is TCG's).
 */
static void add_deterministic(GPtrArray *args, const G84QemuUser *u)
{
    if (u->has_accel) {
        gemu_log("gemu: g84: -clock virtual with the accelerator given "
                 "after '--': the guest's own time stays the host's (see "
                 "docs/replay.md)\n");
        return;
    }
    if (!u->has_icount) {
        add(args, "-icount", g_strdup_printf("shift=%d,sleep=off",
                                             G84_VCLOCK_ICOUNT_SHIFT));
    }
    if (!u->has_seed) {
        add(args, "-seed", g_strdup("1"));
    }
    if (!u->has_rtc) {
        add(args, "-rtc", g_strdup("base=" G84_VCLOCK_RTC_BASE ",clock=vm"));
    }
}

unsigned g84_guest_tsc_khz(const G84QemuUser *u, bool deterministic)
{
    if (u->has_accel) {
        return 0;
    }
    if (u->has_icount || deterministic) {
        return 1000000;
    }
    return host_tsc_khz();
}

GPtrArray *g84_qemu_argv(const MachineOptions *opts, const G84QemuUser *u,
                         const G84QemuLaunch *l)
{
    GPtrArray *args = g_ptr_array_new_with_free_func(g_free);

    g_ptr_array_add(args, g_strdup(opts->qemu ? opts->qemu
                                              : G84_DEFAULT_QEMU));
    if (l->kernel) {
        /* first, so that the user's options after "--" win */
        add(args, "-kernel", g_strdup(l->kernel));
        add(args, "-initrd", g_strdup(l->initrd));
        add(args, "-append", g_strdup(l->cmdline));
        add(args, "-display", g_strdup("none"));
        /* ttyS0, the console; ttyS1, the control line (g84-check.c) */
        for (guint i = 0; l->serial && i < l->serial->len; i++) {
            g_ptr_array_add(args, g_strdup(l->serial->pdata[i]));
        }
        add(args, "-monitor", g_strdup("none"));
        add(args, "-no-reboot", NULL);
        add(args, "-nic", g_strdup("none"));
    }
    if (l->thread_names) {
        /* to find the vCPU thread by (-pin-cpu; -name merges) */
        add(args, "-name", g_strdup("debug-threads=on"));
    }
    for (int i = 0; i < opts->argc; i++) {
        g_ptr_array_add(args, g_strdup(opts->argv[i]));
    }
    if (!u->has_mem) {
        add(args, "-m", g_strdup_printf("%" PRIu64 "M", u->ram >> 20));
    }
    if (l->qmp_sock) {
        add(args, "-qmp", g_strdup_printf("unix:%s,server=on,wait=off",
                                          l->qmp_sock));
    }
    /* fd-backed RAM: SYNC_SYSMEM can only pass RAM that has an fd */
    add(args, "-object", g_strdup_printf("memory-backend-memfd,id="
                                         G84_RAM_BACKEND ",size=%" PRIu64
                                         ",share=on", u->ram));
    add(args, "-machine", g_strdup("memory-backend=" G84_RAM_BACKEND));
    if (!u->has_accel) {
        /* QEMU 7.2's proxy deadlocks with multi-threaded TCG */
        add(args, "-accel", g_strdup("tcg,thread=single"));
    }
    if (l->deterministic) {
        add_deterministic(args, u);
    }
    if (!u->has_vga) {
        /* the card is the VGA device */
        add(args, "-vga", g_strdup("none"));
    }
    add(args, "-device", g_strdup_printf("x-pci-proxy-dev,id=gemu-gpu,"
                                         "fd=%d", l->fd));
    g_ptr_array_add(args, NULL);
    return args;
}
