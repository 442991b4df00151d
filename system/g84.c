/*
 * The g84 machine: a G84 card (hw/nv50) served to a QEMU guest over
 * QEMU's multi-process protocol (hw/remote/mpqemu).
 *
 * gemu starts qemu-system-x86_64 with the user's options plus what the
 * proxy needs: guest RAM in a shared memfd backend (so that the card can
 * DMA), and "-device x-pci-proxy-dev,fd=N" on one end of a socketpair.
 * gemu lives as long as QEMU does and exits with its status.  Facts about
 * QEMU 7.2's proxy: the shared notes qemu-transport.md (outside the repo).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/affinity.h"
#include "hw/nv50/nv50.h"
#include "hw/remote/mpqemu.h"
#include "hw/remote/qmp.h"
#include "monitor/monitor.h"
#include "hw/nv50/inspect.h"
#include "ui/console.h"
#include "machines.h"
#include "g84.h"
#include "g84-check.h"
#include "g84-record.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* -guest without a terminal or a window: power off this long after boot */
#define G84_GUEST_BATCH_POWEROFF    5
/* the x86 kernel's command line is at most 2047 bytes (COMMAND_LINE_SIZE) */
#define G84_CMDLINE_MAX         2047
/* gemu's exit status when -guest-run's command left none */
#define G84_RUN_NO_STATUS       125

typedef struct G84Machine {
    NV50State *card;
    DisplayConsole *con[NV50_HEADS];
    Monitor *mon;
    pid_t qemu;
    bool stopping;              /* QEMU was asked to end */
    QmpClient *qmp;             /* keys from the window to QEMU */
    char *qmp_dir;              /* private directory of QEMU's QMP socket */
    char *qmp_sock;             /* the socket in it */
    bool pin_pending;           /* -pin-cpu: not done yet */
    int pin_cpu;                /* its CPU, or GEMU_PIN_CPU_AUTO */
    G84Checks chk;              /* screendumps, the guest's serial ports */
    G84Rec *rec;                /* -clock virtual, -record */
    GemuClock clk;              /* the card's */
    bool clk_up;
    uint64_t vram;              /* -vram; 0: the card's default */
    G84QemuUser user;           /* the user's QEMU options */
    char *kernel, *initrd;      /* -guest: the guest gemu built */
    bool initrd_temp;           /* the initrd is this run's: removed */
} G84Machine;

static volatile pid_t qemu_pid;

static void forward_signal(int sig)
{
    if (qemu_pid > 0) {
        kill(qemu_pid, sig);
    }
}

/* The user ended the machine (monitor "quit", window closed). */
static void g84_stop(G84Machine *m)
{
    if (!m->stopping && m->qemu > 0) {
        m->stopping = true;
        kill(m->qemu, SIGTERM);
    }
}

static DisplayConsole *g84_console(void *opaque, int index)
{
    G84Machine *m = opaque;

    return index >= 0 && index < NV50_HEADS ? m->con[index] : NULL;
}

/*
 * Before a monitor screendump: what the guest has submitted to the
 * engines is drawn, and the head shows it now, not at its next vblank.
 */
static void g84_refresh(void *opaque, int index)
{
    G84Machine *m = opaque;

    if (index >= 0 && index < NV50_HEADS && m->con[index]) {
        /* bounded: a guest may keep the engine busy for ever */
        nv50_engine_sync_for(m->card, 2 * 1000 * 1000);
        nv50_scanout_vblank(m->card, index);
    }
}

static void g84_quit(void *opaque)
{
    g84_stop(opaque);
}

/*
 * -pin-cpu, once QEMU has talked to the card: by then its vCPU thread
 * exists (QEMU creates the CPUs before it realizes -device's).  Failing
 * is not fatal: the machine only runs slower.
 */
static void g84_pin(G84Machine *m)
{
    g_autofree char *task_dir = g_strdup_printf("/proc/%ld/task",
                                                (long)m->qemu);
    g_autofree char *err = NULL;
    pid_t tid;
    int cpu;

    m->pin_pending = false;
    tid = gemu_vcpu_thread(task_dir, &err);
    if (!tid || !gemu_pin_with(tid, m->pin_cpu, &cpu, &err)) {
        gemu_log("gemu: g84: -pin-cpu: %s; not pinned\n", err);
        return;
    }
    gemu_log_mask(LOG_TRACE_MMIO, "g84: gemu and QEMU's vCPU thread %ld "
                  "on CPU %d\n", (long)tid, cpu);
}

/*
 * Serve the card until QEMU closes its end; false on a protocol error.
 * Between messages: the card's timers (vblank, PTIMER alarms), the
 * display (window events, new frames) and the monitor.
 */
static bool serve(G84Machine *m, MPQemuServer *srv)
{
    GemuClock *clk = &m->clk;
    int64_t next_ui = 0;

    for (;;) {
        struct pollfd pfd[6 + MONITOR_MAX_POLLFDS] = {
            { .fd = srv->fd, .events = POLLIN },
            { .fd = srv->resample_fd, .events = POLLIN },
        };
        int n = 2, nmon = 0, qi = -1, ci, nchk;
        bool pending = mpqemu_server_pending(srv);
        /* host ns: the window and QMP run on host time whatever -clock */
        int64_t now = g_get_monotonic_time() * 1000;
        int64_t wait = next_ui - now;
        int timeout;
        g_autoptr(GError) err = NULL;
        int r;

        if (m->mon) {
            nmon = monitor_pollfds(m->mon, pfd + n, MONITOR_MAX_POLLFDS);
            n += nmon;
        }
        if (m->qmp && qmp_client_pollfd(m->qmp, &pfd[n])) {
            qi = n++;
        }
        ci = n;
        nchk = g84_checks_pollfds(&m->chk, pfd + n);
        n += nchk;
        if (clk->kind == GEMU_CLOCK_HOST) {
            wait = MIN(wait, gemu_clock_next_deadline(clk) -
                             gemu_clock_get_ns(clk));
        } else {
            wait = MIN(wait, g84_rec_idle_wait(m->rec));
        }
        timeout = wait <= 0 || pending ? 0
                : (int)MIN((wait + 999999) / 1000000, 1000);
        r = poll(pfd, n, timeout);
        if (r < 0 && errno != EINTR) {
            gemu_error("g84: poll: %s", strerror(errno));
            return false;
        }
        if (clk->kind == GEMU_CLOCK_HOST) {
            gemu_clock_run_timers(clk);
        } else if (r == 0 && !pending) {
            /* virtual: timers fire as accesses move the clock, or here */
            g84_rec_idle(m->rec);
        }
        now = g_get_monotonic_time() * 1000;
        if (now >= next_ui) {
            next_ui = now + DISPLAY_POLL_INTERVAL_MS * 1000000LL;
            if (!display_poll()) {
                g84_stop(m);
            }
            if (m->qmp) {
                qmp_client_tick(m->qmp, now);
            }
        }
        g84_checks_tick(&m->chk, m->card);
        if (r <= 0 && !pending) {
            continue;
        }
        for (int i = 0; r < 0 && i < n; i++) {
            pfd[i].revents = 0;         /* interrupted: nothing is known */
        }
        if (m->mon) {
            monitor_dispatch(m->mon, pfd + 2, nmon);
        }
        if (qi >= 0 && pfd[qi].revents) {
            qmp_client_dispatch(m->qmp, pfd[qi].revents);
        }
        g84_checks_dispatch(&m->chk, m->card, pfd + ci, nchk);
        if (srv->resample_fd >= 0 && (pfd[1].revents & POLLIN)) {
            mpqemu_server_resample(srv);
        }
        if (pfd[0].revents || pending) {
            r = mpqemu_server_handle_one(srv, &err);
            if (r == 0) {
                return true;
            }
            if (r < 0) {
                gemu_error("g84: %s", err->message);
                return false;
            }
            if (m->pin_pending) {
                g84_pin(m);
            }
        }
    }
}

static void ram_changed(void *opaque, GuestRAM *ram)
{
    nv50_set_guest_ram(opaque, ram);
}

/* Free what g84_machine_run made, windows before the VRAM they show. */
static void g84_teardown(G84Machine *m)
{
    display_set_key_handler(NULL, NULL);
    display_close();
    monitor_free(m->mon);
    qmp_client_free(m->qmp);
    if (m->qmp_dir) {
        unlink(m->qmp_sock);
        rmdir(m->qmp_dir);
        g_free(m->qmp_sock);
        g_free(m->qmp_dir);
    }
    g84_checks_free(&m->chk);
    g84_rec_free(m->rec);
    nv50_free(m->card);
    for (int h = 0; h < NV50_HEADS; h++) {
        display_console_free(m->con[h]);
    }
    if (m->clk_up) {
        gemu_clock_destroy(&m->clk);
    }
    if (m->initrd_temp) {
        unlink(m->initrd);
    }
    g_free(m->kernel);
    g_free(m->initrd);
}

/*
 * The guest's kernel command line.  A batch run (stdin not a terminal, no
 * window, no monitor) has nobody to type at the guest's shell: unless the
 * user chose "gemu.poweroff=", the guest powers off once it is up.
 * -guest-run's command goes as "gemu.runb64=" in base64 (any text
 * survives; the guest's /init decodes it and powers off after it).
 * @tsc_khz (0: none) goes as tsc_early_khz=.  NULL with *errp set if the
 * line is too long for the kernel.
 */
static char *g84_guest_cmdline(const MachineOptions *opts, unsigned tsc_khz,
                               GError **errp)
{
    GString *s = g_string_new(G84_GUEST_CMDLINE);

    if (tsc_khz) {
        /* before -guest-append: the user's own value wins */
        g_string_append_printf(s, " tsc_early_khz=%u", tsc_khz);
    }
    if (opts->guest_append) {
        g_string_append_printf(s, " %s", opts->guest_append);
    }
    if (opts->guest_run) {
        g_autofree char *b64 = g_base64_encode(
            (const guchar *)opts->guest_run, strlen(opts->guest_run));

        g_string_append_printf(s, " gemu.runb64=%s", b64);
    } else if (!isatty(STDIN_FILENO) && !display_has_window() &&
               !opts->monitor && !strstr(s->str, "gemu.poweroff=")) {
        g_string_append_printf(s, " gemu.poweroff=%d",
                               G84_GUEST_BATCH_POWEROFF);
    }
    if (s->len > G84_CMDLINE_MAX) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                    "the kernel command line would be %zu bytes, more than "
                    "the %d the kernel takes%s", s->len, G84_CMDLINE_MAX,
                    opts->guest_run ? " (-guest-run's command goes on it "
                    "in base64: put a long one in a script)" : "");
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
}

/*
 * gemu's exit status before the checks: -guest-run's (125 when the guest
 * gave none), else QEMU's; 1 if gemu failed (OK false).
 */
static int g84_exit_status(G84Machine *m, const MachineOptions *opts,
                           int status, bool ok)
{
    if (opts->guest_run) {
        if (m->chk.run_status >= 0) {
            return ok ? m->chk.run_status : 1;
        }
        gemu_error("g84: -guest-run: the guest ended without the "
                   "command's exit status (%s)",
                   m->stopping ? "stopped before it finished"
                   : WIFSIGNALED(status) ? "QEMU was killed by a signal"
                   : WEXITSTATUS(status) ? "QEMU failed"
                   : "see the guest's console above");
        return G84_RUN_NO_STATUS;
    }
    if (m->stopping) {
        /* the user ended it: QEMU's SIGTERM is no failure */
        return ok ? 0 : 1;
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    if (!ok) {
        return 1;
    }
    return WEXITSTATUS(status);
}

/*
 * What needs no card: the options gemu reads, the user's QEMU options,
 * the guest gemu builds, the checks.  False (said) if one cannot be used.
 */
static bool g84_prepare(G84Machine *m, const MachineOptions *opts)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *derr = NULL;

    /* first: g84_teardown frees them whatever fails after */
    if (!g84_checks_init(&m->chk, opts, &derr)) {
        gemu_error("g84: %s", derr);
        return false;
    }
    if (opts->vram && !(m->vram = g84_parse_size(opts->vram))) {
        gemu_error("g84: bad -vram size '%s' (e.g. 256M, 1G)", opts->vram);
        return false;
    }
    if (opts->scene) {
        gemu_error("g84: -scene is for the sgx543 machine");
        return false;
    }
    if (opts->pin_cpu) {
        if (!gemu_pin_cpu_parse(opts->pin_cpu, &m->pin_cpu, &derr)) {
            gemu_error("g84: %s", derr);
            return false;
        }
        m->pin_pending = true;
    }
    if (!g84_qemu_scan(opts, &m->user, &err)) {
        gemu_error("g84: %s", err->message);
        return false;
    }
    if (opts->guest_run && !*opts->guest_run) {
        gemu_error("g84: -guest-run: the command is empty");
        return false;
    }
    if (opts->guest) {
        const G84GuestSpec spec = {
            .kernel = opts->guest_kernel, .modules = opts->guest_modules,
            .files = opts->guest_files, .mesa = opts->guest_mesa,
        };

        if (!g84_guest_prepare(&spec, &m->kernel, &m->initrd,
                               &m->initrd_temp, &err)) {
            gemu_error("g84: cannot make the guest: %s", err->message);
            return false;
        }
    }
    if (opts->guest_mesa && m->user.has_mem &&
        m->user.ram < ((uint64_t)G84_MESA_RAM_MIB << 20)) {
        gemu_log("gemu: g84: -guest-mesa with -m %" PRIu64 "M: the guest "
                 "may not have room for Mesa's initramfs (%dM is the "
                 "default with -guest-mesa)\n", m->user.ram >> 20,
                 G84_MESA_RAM_MIB);
    }
    return true;
}

/*
 * The card and what shows it: the clock, the card, -clock/-record, the
 * heads' consoles, the window or -frames, the monitor, QMP for keys.
 */
static bool g84_card_up(G84Machine *m, const MachineOptions *opts,
                        MonitorOps *mon_ops)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *derr = NULL;
    GemuClockKind kind;

    if (!g84_rec_clock_kind(opts, &kind, &err)) {
        gemu_error("g84: %s", err->message);
        return false;
    }
    gemu_clock_init(&m->clk, kind);
    m->clk_up = true;
    m->card = nv50_new(&m->clk, NULL, m->vram, &err);
    if (!m->card) {
        gemu_error("g84: %s", err->message);
        return false;
    }
    mon_ops->commands_opaque = m->card;     /* the card's monitor commands */
    device_reset(DEVICE(m->card));
    nv50_engine_set_deterministic(m->card, opts->engine_sync);
    /* before display_open: -clock virtual has its own -frames clock */
    m->rec = g84_rec_new(opts, m->card, &m->clk, &err);
    if (!m->rec) {
        gemu_error("g84: -record: %s", err->message);
        return false;
    }
    for (int h = 0; h < NV50_HEADS; h++) {
        g_autofree char *name = g_strdup_printf("g84 head %d", h);

        m->con[h] = display_console_new(name);
        nv50_scanout_set_console(m->card, h, m->con[h]);
    }
    /* the window shows head 0, where nouveau puts its console */
    if (!display_open(m->con[0], opts->display, opts->frames, &derr) ||
        (opts->monitor &&
         !(m->mon = monitor_new(opts->monitor, mon_ops, m, &derr)))) {
        gemu_error("g84: %s", derr);
        return false;
    }
    /* keys typed into the window reach the guest through QEMU's QMP */
    if (display_has_window()) {
        m->qmp_dir = g_dir_make_tmp("gemu-qmp-XXXXXX", NULL);
        if (m->qmp_dir) {
            m->qmp_sock = g_build_filename(m->qmp_dir, "qmp.sock", NULL);
            m->qmp = qmp_client_new(m->qmp_sock);
            display_set_key_handler(qmp_client_key_handler, m->qmp);
        } else {
            gemu_log("g84: no directory for QEMU's QMP socket: "
                     "the window takes no keys\n");
        }
    }
    return true;
}

/* QEMU, started on the other end of *FD; false (said) if it cannot be. */
static bool g84_launch(G84Machine *m, const MachineOptions *opts, int *fd)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *derr = NULL, *cmdline = NULL;
    g_autoptr(GPtrArray) serial = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) args = NULL;
    bool mon_stdio = opts->monitor && !strcmp(opts->monitor, "stdio");
    G84QemuLaunch l = {
        .thread_names = m->pin_pending, .qmp_sock = m->qmp_sock,
        .deterministic = m->clk.kind == GEMU_CLOCK_VIRTUAL,
    };
    int sv[2];
    pid_t pid;

    /* after display_open: a batch run (no window) powers off by itself */
    if (opts->guest) {
        cmdline = g84_guest_cmdline(opts,
                                    g84_guest_tsc_khz(&m->user,
                                                      l.deterministic),
                                    &err);
        if (!cmdline) {
            gemu_error("g84: -guest: %s", err->message);
            return false;
        }
        if (!g84_checks_serial(&m->chk, serial, mon_stdio, opts->summary,
                               &derr)) {
            gemu_error("g84: %s", derr);
            return false;
        }
        l.kernel = m->kernel;
        l.initrd = m->initrd;
        l.cmdline = cmdline;
        l.serial = serial;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        gemu_error("g84: socketpair: %s", strerror(errno));
        return false;
    }
    l.fd = sv[1];
    args = g84_qemu_argv(opts, &m->user, &l);
    if (gemu_loglevel & LOG_TRACE_MMIO) {
        g_autofree char *cmd = g_strjoinv(" ", (char **)args->pdata);

        gemu_log("g84: starting %s\n", cmd);
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        gemu_error("g84: fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return false;
    }
    if (pid == 0) {
        /* QEMU must not outlive gemu: its device would be gone */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        fcntl(sv[1], F_SETFD, 0);
        g84_checks_qemu_fds(&m->chk, true);
        execvp(args->pdata[0], (char **)args->pdata);
        fprintf(stderr, "gemu: g84: cannot start %s: %s\n",
                (char *)args->pdata[0], strerror(errno));
        _exit(127);
    }
    qemu_pid = m->qemu = pid;
    close(sv[1]);
    g84_checks_qemu_fds(&m->chk, false);
    *fd = sv[0];
    return true;
}

int g84_machine_run(const MachineOptions *opts)
{
    g_autoptr(GError) err = NULL;
    MonitorOps mon_ops = {
        .console = g84_console, .refresh = g84_refresh, .quit = g84_quit,
        .commands = nv50_monitor_commands, .info = nv50_monitor_info,
    };
    G84Machine m = { 0 };
    MPQemuServer *srv;
    int fd, status = 0;
    bool ok;

    if (!g84_prepare(&m, opts) || !g84_card_up(&m, opts, &mon_ops) ||
        !g84_launch(&m, opts, &fd)) {
        g84_teardown(&m);
        return 1;
    }
    /* Ctrl-C reaches QEMU too; gemu follows it out when it exits */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, forward_signal);
    signal(SIGHUP, forward_signal);

    srv = mpqemu_server_new(fd, PCI_DEVICE(m.card), ram_changed, m.card);
    g84_rec_attach(m.rec, srv);
    ok = serve(&m, srv);
    if (!g84_rec_finish(m.rec, &err)) {
        gemu_error("g84: -record: %s", err->message);
        ok = false;
    }
    mpqemu_server_free(srv);
    if (!ok) {
        kill(m.qemu, SIGTERM);
    }
    while (waitpid(m.qemu, &status, 0) < 0 && errno == EINTR) {
        continue;
    }
    qemu_pid = 0;
    g84_checks_end(&m.chk, m.card);
    g84_rec_jumps(m.rec, &m.chk.poll_jumps, &m.chk.host_jumps);
    status = g84_exit_status(&m, opts, status, ok);
    status = g84_checks_status(&m.chk, opts, status);
    g84_teardown(&m);
    return status;
}
