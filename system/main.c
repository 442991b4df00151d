/*
 * gemu: the system emulator's entry point -- options, machine creation and
 * the main loop.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "machines.h"

#include <getopt.h>

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: gemu [options]\n"
        "\n"
        "  -M, --machine NAME     machine to emulate ('-M help' lists them)\n"
        "  -d, --log ITEMS        log items: %s\n"
        "  -D, --logfile FILE     write the log to FILE instead of stderr\n"
        "  -trace PATTERN         enable the trace points matching PATTERN\n"
        "                         (glob, e.g. 'nv50_*'; '-trace help' lists)\n"
        "  -scene FILE            sgx543: run a scene (docs/scene-format.md)\n"
        "  -screendump OUT.png    write the last frame as a PNG at exit\n"
        "  -screendump when=WHEN,file=OUT.png[,compare=GOLDEN.png]\n"
        "                         g84: WHEN is exit, run (after -guest-run's\n"
        "                         command), frame:N (head 0's Nth vblank) or\n"
        "                         request[:NAME] (the guest's\n"
        "                         gemu-screendump); repeatable\n"
        "                         (docs/g84-guest.md)\n"
        "  -compare GOLDEN.png    g84: compare the screendumps with GOLDEN,\n"
        "                         write OUT-diff.png and exit with 122 when\n"
        "                         they differ\n"
        "  -compare-tolerance N   g84: pixels may differ by N/255 a channel\n"
        "  -summary FILE.json     g84: at exit, the run's results as JSON\n"
        "  -display sdl|png|none  where frames go (default: an SDL2 window\n"
        "                         when a display is available, else none)\n"
        "  -frames DIR            write every new frame to DIR as a PNG\n"
        "  -monitor stdio|unix:PATH  the monitor (screendump, info display,\n"
        "                         quit)\n"
        "  -vram SIZE             g84: VRAM size (e.g. 256M, 1G; default 256M)\n"
        "  -qemu PATH             g84: the QEMU to start (qemu-system-x86_64)\n"
        "  -guest                 g84: boot gemu's guest (Debian kernel,\n"
        "                         nouveau, busybox) with its console here\n"
        "  -guest-append ARGS     g84: more kernel options for -guest\n"
        "  -guest-run CMD         g84: run the shell command line CMD in the\n"
        "                         guest once nouveau is up, then power off;\n"
        "                         gemu exits with CMD's status (125: the\n"
        "                         guest ended without one); implies -guest\n"
        "  -guest-kernel BZIMAGE  g84: boot this kernel (implies -guest)\n"
        "  -guest-modules DIR     g84: nouveau and its modules from DIR/lib/\n"
        "                         modules (make modules_install\n"
        "                         INSTALL_MOD_PATH=DIR); implies -guest\n"
        "  -guest-files DIR|FILE.cpio  g84: laid over the guest's root after\n"
        "                         gemu's archives; implies -guest\n"
        "  -guest-mesa            g84: add Mesa's userspace to the guest\n"
        "                         (EGL/GLES/GBM, nouveau_dri, kmscube,\n"
        "                         eglinfo, glmark2-es2-drm; a second cached\n"
        "                         archive, ~230 MiB; RAM 1G unless -m);\n"
        "                         implies -guest\n"
        "  -pin-cpu auto|N        g84: run gemu and QEMU's vCPU thread on one\n"
        "                         host CPU (auto: the one gemu is on); they\n"
        "                         take turns, and a switch on one CPU costs\n"
        "                         less than a wakeup across CPUs\n"
        "  -engine-sync           g84: every kick waits until the card's\n"
        "                         engines are idle (reproducible runs)\n"
        "  -clock virtual|host    g84: the card's time; virtual: it moves by\n"
        "                         the guest's accesses, the engines work\n"
        "                         synchronously, QEMU runs the guest with\n"
        "                         -icount: two runs draw the same frames\n"
        "                         (docs/replay.md)\n"
        "  -record FILE           g84: keep what the guest did to the card\n"
        "                         in FILE for gemu-replay (implies -clock\n"
        "                         virtual)\n"
        "  -- QEMU-OPTIONS...     g84: options passed on to QEMU\n"
        "  -V, --version          print the version and exit\n"
        "  -h, --help             this text\n",
        gemu_log_mask_help());
}

/*
 * The machines gemu can build.  The G84 card (issue: nouveau probes and
 * initialises it) registers here when its device model lands.
 */
static const struct {
    const char *name;
    const char *desc;
    int (*run)(const MachineOptions *opts);
    bool takes_args;            /* accepts "-- ARGS..." */
} machines[] = {
    { "sgx543", "PowerVR SGX543 (PS Vita GPU), runs -scene files",
      sgx543_machine_run },
    { "g84", "NVIDIA G84 (GeForce 8600 GTS) in a QEMU guest (-- QEMU options)",
      g84_machine_run, true },
    { NULL, NULL, NULL },
};

static void list_machines(void)
{
    printf("Supported machines:\n");
    if (!machines[0].name) {
        printf("  (none yet: the device models are still being written)\n");
    }
    for (size_t i = 0; machines[i].name; i++) {
        printf("  %-12s %s\n", machines[i].name, machines[i].desc);
    }
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "machine", required_argument, NULL, 'M' },
        { "log", required_argument, NULL, 'd' },
        { "logfile", required_argument, NULL, 'D' },
        { "version", no_argument, NULL, 'V' },
        { "help", no_argument, NULL, 'h' },
        { "scene", required_argument, NULL, 'S' },
        { "screendump", required_argument, NULL, 'P' },
        { "display", required_argument, NULL, 'I' },
        { "frames", required_argument, NULL, 'F' },
        { "monitor", required_argument, NULL, 'O' },
        { "vram", required_argument, NULL, 'R' },
        { "qemu", required_argument, NULL, 'Q' },
        { "guest", no_argument, NULL, 'G' },
        { "guest-append", required_argument, NULL, 'A' },
        { "guest-run", required_argument, NULL, 'U' },
        { "guest-mesa", no_argument, NULL, 'L' },
        { "pin-cpu", required_argument, NULL, 'C' },
        { "trace", required_argument, NULL, 'T' },
        { "engine-sync", no_argument, NULL, 'E' },
        { "guest-kernel", required_argument, NULL, 'K' },
        { "guest-modules", required_argument, NULL, 'W' },
        { "guest-files", required_argument, NULL, 'X' },
        { "compare", required_argument, NULL, 'Y' },
        { "compare-tolerance", required_argument, NULL, 'Z' },
        { "summary", required_argument, NULL, 'J' },
        { "clock", required_argument, NULL, 0x100 },
        { "record", required_argument, NULL, 0x101 },
        { NULL, 0, NULL, 0 },
    };
    MachineOptions opts = { 0 };
    const char *machine = NULL;
    FILE *logf = NULL;
    int c;

    /* _only: QEMU-style "-scene FILE" as well as "--scene FILE" */
    while ((c = getopt_long_only(argc, argv, "M:d:D:Vh", longopts,
                                 NULL)) != -1) {
        switch (c) {
        case 'S':
            opts.scene = optarg;
            break;
        case 'P':
            if (opts.n_screendumps == MACHINE_MAX_SCREENDUMPS) {
                gemu_error("-screendump: at most %d",
                           MACHINE_MAX_SCREENDUMPS);
                return 1;
            }
            opts.screendumps[opts.n_screendumps++] = optarg;
            opts.screendump = opts.screendump ? opts.screendump : optarg;
            break;
        case 'K':
            opts.guest_kernel = optarg;
            opts.guest = true;
            break;
        case 'W':
            opts.guest_modules = optarg;
            opts.guest = true;
            break;
        case 'X':
            opts.guest_files = optarg;
            opts.guest = true;
            break;
        case 'Y':
            opts.compare = optarg;
            break;
        case 'Z':
            opts.compare_tolerance = optarg;
            break;
        case 'J':
            opts.summary = optarg;
            break;
        case 'I':
            opts.display = optarg;
            break;
        case 'F':
            opts.frames = optarg;
            break;
        case 'O':
            opts.monitor = optarg;
            break;
        case 'R':
            opts.vram = optarg;
            break;
        case 'Q':
            opts.qemu = optarg;
            break;
        case 'G':
            opts.guest = true;
            break;
        case 'A':
            opts.guest_append = optarg;
            break;
        case 'U':
            opts.guest_run = optarg;
            opts.guest = true;
            break;
        case 'L':
            opts.guest_mesa = true;
            opts.guest = true;
            break;
        case 'C':
            opts.pin_cpu = optarg;
            break;
        case 'E':
            opts.engine_sync = true;
            break;
        case 0x100:
            opts.clock = optarg;
            break;
        case 0x101:
            opts.record = optarg;
            break;
        case 'T': {
            g_autofree char *err = NULL;

            if (!strcmp(optarg, "help")) {
                gemu_trace_list(stdout);
                return 0;
            }
            if (!gemu_trace_parse(optarg, &err)) {
                gemu_error("-trace: %s", err);
                return 1;
            }
            break;
        }
        case 'M':
            machine = optarg;
            break;
        case 'd': {
            g_autofree char *err = NULL;
            if (!gemu_log_parse_mask(optarg, &gemu_loglevel, &err)) {
                gemu_error("%s", err);
                return 1;
            }
            break;
        }
        case 'D':
            logf = fopen(optarg, "w");
            if (!logf) {
                gemu_error("cannot open log file '%s': %s", optarg,
                           strerror(errno));
                return 1;
            }
            gemu_log_set_file(logf);
            break;
        case 'V':
            printf("gemu version %s\n", GEMU_VERSION);
            return 0;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 1;
        }
    }
    opts.argc = argc - optind;
    opts.argv = argv + optind;
    if (!machine || !strcmp(machine, "help")) {
        if (optind < argc) {
            gemu_error("unexpected argument '%s' (see --help)",
                       argv[optind]);
            return 1;
        }
        list_machines();
        return machine ? 0 : 1;
    }
    if ((opts.clock || opts.record) && strcmp(machine, "g84")) {
        gemu_error("%s is an option of the g84 machine",
                   opts.record ? "-record" : "-clock");
        return 1;
    }
    if ((opts.guest || opts.compare || opts.compare_tolerance ||
         opts.summary) && strcmp(machine, "g84")) {
        gemu_error("%s is an option of the g84 machine",
                   opts.guest_run ? "-guest-run"
                   : opts.guest_mesa ? "-guest-mesa"
                   : opts.guest ? "-guest and -guest-*"
                   : opts.summary ? "-summary" : "-compare");
        return 1;
    }
    if (strcmp(machine, "g84") && opts.screendump &&
        (opts.n_screendumps > 1 ||
         g_str_has_prefix(opts.screendump, "when=") ||
         g_str_has_prefix(opts.screendump, "file="))) {
        gemu_error("-screendump: moments and more than one are the g84 "
                   "machine's; %s takes -screendump OUT.png", machine);
        return 1;
    }
    for (size_t i = 0; machines[i].name; i++) {
        if (!strcmp(machine, machines[i].name)) {
            if (optind < argc && !machines[i].takes_args) {
                gemu_error("unexpected argument '%s' (see --help)",
                           argv[optind]);
                return 1;
            }
            return machines[i].run(&opts);
        }
    }
    gemu_error("unknown machine '%s' ('-M help' lists them)", machine);
    return 1;
}
