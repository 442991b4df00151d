/*
 * make bench: the G84 card's MMIO round trip and boot time.
 *
 *   gemu-mmio-transport  one BAR0 read (PMC_BOOT_0) over the mpqemu
 *                        socketpair, in process: a client thread sends
 *                        BAR_READ, the server thread answers -- the
 *                        transport's bare cost, no QEMU, no guest.
 *   gemu-mmio            one 4-byte BAR0 read measured in the guest
 *                        ("gemu -M g84 -guest" with gemu.mmiobench=N, see
 *                        system/g84-guest.c): guest kernel -> QEMU's proxy
 *                        -> socket -> gemu and back (the reader's own
 *                        start-up, measured with 0 reads, removed).
 *   gemu-mmio-pinned     the same with "-pin-cpu auto": gemu and QEMU's
 *                        vCPU thread on one host CPU.
 *   g84-boot-to-fbcon    host seconds from starting gemu -M g84 -guest to
 *                        nouveau's fbcon on fb0 (bench_fbcon below).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/remote/mpqemu.h"
#include "bench.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_BAR0_GPA      0xfd000000u

static gpointer serve_thread(gpointer opaque)
{
    MPQemuServer *srv = opaque;

    while (mpqemu_server_handle_one(srv, NULL) > 0) {
        continue;
    }
    return NULL;
}

/* One request/answer: false if the link broke. */
static bool transact(int fd, int cmd, const uint8_t *payload, uint64_t size,
                     uint64_t *ret)
{
    uint8_t msg[MPQEMU_HDR_SIZE + 24] = { 0 };
    uint8_t ans[MPQEMU_HDR_SIZE + 8];
    int32_t c = cmd;
    size_t got = 0;

    memcpy(msg, &c, 4);
    memcpy(msg + 8, &size, 8);
    memcpy(msg + MPQEMU_HDR_SIZE, payload, size);
    if (write(fd, msg, MPQEMU_HDR_SIZE + size) !=
        (ssize_t)(MPQEMU_HDR_SIZE + size)) {
        return false;
    }
    while (got < sizeof(ans)) {
        ssize_t r = read(fd, ans + got, sizeof(ans) - got);

        if (r <= 0) {
            return false;
        }
        got += r;
    }
    memcpy(ret, ans + 16, 8);
    return true;
}

static bool cfg_write(int fd, uint32_t addr, uint32_t val, int32_t len)
{
    uint8_t p[12];
    uint64_t r;

    memcpy(p, &addr, 4);
    memcpy(p + 4, &val, 4);
    memcpy(p + 8, &len, 4);
    return transact(fd, MPQEMU_CMD_PCI_CFGWRITE, p, 12, &r);
}

static void bench_transport(void)
{
    const char *name = "gemu-mmio-transport";
    long n = MAX(100, (long)(200000 * bench_scale));
    GemuClock clk;
    NV50State *card;
    MPQemuServer *srv;
    GThread *th;
    uint8_t p[24] = { 0 };
    uint64_t addr = BENCH_BAR0_GPA, val = 0;
    uint32_t size = 4;
    int sv[2];
    double t0, t1;
    bool ok = true;

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
        bench_fail(name, "socketpair: %s", strerror(errno));
        return;
    }
    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    card = nv50_new(&clk, NULL, 0, NULL);
    device_reset(DEVICE(card));
    srv = mpqemu_server_new(sv[1], PCI_DEVICE(card), NULL, NULL);
    th = g_thread_new("mpqemu", serve_thread, srv);

    /* what the firmware does: place BAR0, enable memory decoding */
    ok = cfg_write(sv[0], 0x10, BENCH_BAR0_GPA, 4) &&
         cfg_write(sv[0], 0x04, PCI_COMMAND_MEMORY, 2);
    memcpy(p, &addr, 8);
    memcpy(p + 16, &size, 4);
    p[20] = 1;
    t0 = bench_now();
    for (long i = 0; ok && i < n; i++) {
        ok = transact(sv[0], MPQEMU_CMD_BAR_READ, p, 24, &val);
    }
    t1 = bench_now();
    close(sv[0]);
    g_thread_join(th);
    mpqemu_server_free(srv);
    nv50_free(card);
    gemu_clock_destroy(&clk);
    if (!ok || val != 0x084000a2) {
        bench_fail(name, "BAR_READ of PMC_BOOT_0 gave 0x%" PRIx64, val);
        return;
    }
    bench_report(name, (t1 - t0) * 1e6 / n, "us per read");
}

/* build/gemu next to build/bench/gemu-bench */
static char *gemu_binary(void)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *dir = NULL;

    if (!self) {
        return NULL;
    }
    dir = g_path_get_dirname(self);
    return g_build_filename(dir, "..", "gemu", NULL);
}

static void bench_guest(const char *name, bool pinned)
{
    long n = MAX(1000, (long)(5000 * bench_scale));
    g_autofree char *gemu = gemu_binary();
    g_autofree char *append = g_strdup_printf("gemu.mmiobench=%ld", n);
    g_autofree char *out = NULL, *qemu = NULL;
    g_autoptr(GError) err = NULL;
    const char *line;
    long reads = 0;
    long long mmio_ns = 0, base_ns = 0;
    int status = 0;

    qemu = g_find_program_in_path("qemu-system-x86_64");
    if (!qemu || !gemu || !g_file_test(gemu, G_FILE_TEST_IS_EXECUTABLE)) {
        printf("%s: skipped (%s missing)\n", name,
               qemu ? "build/gemu" : "qemu-system-x86_64");
        return;
    }
    {
        char *argv[] = { "timeout", "-k", "10", "300", gemu, "-M", "g84",
                         "-guest", "-guest-append", append,
                         pinned ? "-pin-cpu" : NULL, "auto", NULL };

        if (!g_spawn_sync(NULL, argv, NULL,
                          G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                          NULL, NULL, &out, NULL, &status, &err)) {
            bench_fail(name, "cannot run gemu: %s", err->message);
            return;
        }
    }
    line = strstr(out, "gemu-guest: mmiobench ");
    if (!line || sscanf(line, "gemu-guest: mmiobench reads=%ld mmio_ns=%lld "
                        "base_ns=%lld", &reads, &mmio_ns, &base_ns) != 3 ||
        reads != n || mmio_ns <= 0) {
        const char *fail = strstr(out, "mmiobench: mmap");

        size_t len = strlen(out);

        bench_fail(name, "no measurement in the guest's log%s "
                   "(exit status %d); its end: %s",
                   fail ? " (mmap of resource0 failed)" : "", status,
                   out + (len > 300 ? len - 300 : 0));
        return;
    }
    printf("%s-start: %.1f us (the guest's reader with 0 reads)\n",
           name, base_ns / 1e3);
    bench_report(name, MAX(0, mmio_ns - base_ns) / 1e3 / n, "us per read");
}

/*
 * g84-boot-to-fbcon: host seconds from starting gemu (which starts QEMU)
 * to the guest's "fbcon: nouveaudrmfb (fb0) is primary device" on the
 * serial console, under TCG with acceleration (fbcon through the 2D
 * engine); gemu is stopped there.  The guest's own clock at that line is
 * printed beside it.  The host figure includes fbcon's first full
 * redraw: the line is logged before it but reaches the serial port only
 * when fbcon lets go of the console lock after it.
 */
static void bench_fbcon(void)
{
    const char *name = "g84-boot-to-fbcon";
    static const char want[] = "fbcon: nouveaudrmfb (fb0) is primary device";
    g_autofree char *gemu = gemu_binary();
    g_autofree char *qemu = g_find_program_in_path("qemu-system-x86_64");
    g_autoptr(GError) err = NULL;
    g_autoptr(GString) line = g_string_new(NULL);
    char *argv[] = { gemu, "-display", "none", "-M", "g84", "-guest",
                     "-guest-append", "gemu.poweroff=0",
                     NULL };
    double t0, guest_s = -1;
    bool seen = false;
    GPid pid;
    int out, status;
    FILE *f;

    if (!qemu || !gemu || !g_file_test(gemu, G_FILE_TEST_IS_EXECUTABLE)) {
        printf("%s: skipped (%s missing)\n", name,
               qemu ? "build/gemu" : "qemu-system-x86_64");
        return;
    }
    t0 = bench_now();
    if (!g_spawn_async_with_pipes(NULL, argv, NULL,
                                  G_SPAWN_DO_NOT_REAP_CHILD |
                                  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                  &pid, NULL, &out, NULL, &err)) {
        bench_fail(name, "cannot run gemu: %s", err->message);
        return;
    }
    f = fdopen(out, "r");
    for (int c; !seen && (c = fgetc(f)) != EOF;) {
        if (c != '\n') {
            g_string_append_c(line, c);
            continue;
        }
        if (strstr(line->str, want)) {
            seen = true;
            sscanf(line->str, "[ %lf]", &guest_s);
        }
        g_string_truncate(line, 0);
    }
    if (seen) {
        double t1 = bench_now();

        kill(pid, SIGTERM);
        printf("%s-guest: %.1f s (the guest kernel's clock)\n", name,
               guest_s);
        bench_report(name, t1 - t0, "s");
    } else {
        bench_fail(name, "the guest never printed '%s'", want);
    }
    fclose(f);
    waitpid(pid, &status, 0);
    g_spawn_close_pid(pid);
}

void bench_g84(void)
{
    if (bench_wanted("gemu-mmio-transport")) {
        bench_transport();
    }
    if (bench_wanted("gemu-mmio")) {
        bench_guest("gemu-mmio", false);
    }
    if (bench_wanted("gemu-mmio-pinned")) {
        bench_guest("gemu-mmio-pinned", true);
    }
    if (bench_wanted("g84-boot-to-fbcon")) {
        bench_fbcon();
    }
}
