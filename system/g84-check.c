/*
 * Checks without a person, for the g84 machine: screendumps at chosen
 * moments, compared with golden images, and the guest's control line.
 *
 * -screendump OUT.png, or -screendump when=WHEN,file=OUT.png[,compare=G]:
 * WHEN is "exit" (QEMU has ended: the default), "run" (-guest-run's
 * command has ended: its status came on the control line), "frame:N"
 * (head 0's frame counter, the vblanks 0x616340 counts, has reached N:
 * checked between the machine's messages, so at N or soon after) or
 * "request[:NAME]" (the guest ran /bin/gemu-screendump [NAME]).  Each
 * screendump taken is compared with its golden image (compare=, else
 * -compare's) when there is one: OUT-diff.png shows where they differ.
 *
 * The control line is the guest's second serial port (ttyS1), a socket
 * to gemu: the guest's /init writes "gemu-run-status N" there when
 * -guest-run's command ends, gemu-screendump "gemu-screendump NAME" (and
 * waits for gemu's "gemu-screendump-done ok|none|error TEXT").
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "ui/png-compare.h"
#include "g84-check.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define G84_CTL_LINE_MAX    256     /* a longer control line is dropped */

static void dump_clear(G84Dump *d)
{
    g_free(d->request);
    g_free(d->file);
    g_free(d->golden);
}

/* A request's NAME: what gemu-screendump takes. */
static bool name_ok(const char *s)
{
    return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
                           "wxyz0123456789._-") == strlen(s);
}

static bool parse_when(G84Dump *d, const char *v, char **err)
{
    char *end;

    if (!strcmp(v, "exit")) {
        d->when = G84_DUMP_EXIT;
    } else if (!strcmp(v, "run")) {
        d->when = G84_DUMP_RUN;
    } else if (g_str_has_prefix(v, "frame:")) {
        d->when = G84_DUMP_FRAME;
        errno = 0;
        d->frame = g_ascii_strtoull(v + 6, &end, 10);
        if (errno || end == v + 6 || *end) {
            *err = g_strdup_printf("when=%s: frame:N takes a number", v);
            return false;
        }
    } else if (!strcmp(v, "request") || g_str_has_prefix(v, "request:")) {
        d->when = G84_DUMP_REQUEST;
        if (v[7] == ':') {
            if (!name_ok(v + 8)) {
                *err = g_strdup_printf("when=%s: a request's NAME is "
                                       "letters, digits, '.', '_', '-'", v);
                return false;
            }
            d->request = g_strdup(v + 8);
        }
    } else {
        *err = g_strdup_printf("when=%s: exit, run, frame:N or "
                               "request[:NAME]", v);
        return false;
    }
    return true;
}

/* One -screendump's argument into D. */
static bool parse_dump(G84Dump *d, const char *arg, char **err)
{
    g_auto(GStrv) parts = NULL;

    memset(d, 0, sizeof(*d));
    if (!g_str_has_prefix(arg, "when=") && !g_str_has_prefix(arg, "file=")) {
        d->file = g_strdup(arg);    /* a plain file name, commas and all */
        return *arg || (*err = g_strdup("an empty file name"), false);
    }
    parts = g_strsplit(arg, ",", -1);
    for (char **p = parts; *p; p++) {
        if (g_str_has_prefix(*p, "when=")) {
            if (!parse_when(d, *p + 5, err)) {
                return false;
            }
        } else if (g_str_has_prefix(*p, "file=") && (*p)[5]) {
            g_free(d->file);
            d->file = g_strdup(*p + 5);
        } else if (g_str_has_prefix(*p, "compare=") && (*p)[8]) {
            g_free(d->golden);
            d->golden = g_strdup(*p + 8);
        } else {
            *err = g_strdup_printf("'%s': the keys are when=, file= and "
                                   "compare=", *p);
            return false;
        }
    }
    if (!d->file) {
        *err = g_strdup("no file=OUT.png");
        return false;
    }
    return true;
}

/* The options that go with the screendumps, checked. */
static bool checks_options(G84Checks *c, const MachineOptions *opts,
                           char **err)
{
    char *end;

    if (opts->compare_tolerance) {
        long t = strtol(opts->compare_tolerance, &end, 10);

        if (end == opts->compare_tolerance || *end || t < 0 || t > 255) {
            *err = g_strdup_printf("-compare-tolerance %s: a number from 0 "
                                   "to 255 (the difference allowed in each "
                                   "channel)", opts->compare_tolerance);
            return false;
        }
        c->tolerance = t;
    }
    if (opts->compare && !c->ndumps) {
        *err = g_strdup("-compare: no -screendump to compare");
        return false;
    }
    for (int i = 0; i < c->ndumps; i++) {
        G84Dump *d = &c->dumps[i];

        if (!d->golden && opts->compare) {
            d->golden = g_strdup(opts->compare);
        }
        if (d->golden && access(d->golden, R_OK) < 0) {
            *err = g_strdup_printf("golden image %s: %s", d->golden,
                                   strerror(errno));
            return false;
        }
        if (d->when == G84_DUMP_RUN && !opts->guest_run) {
            *err = g_strdup_printf("-screendump when=run (%s) needs "
                                   "-guest-run", d->file);
            return false;
        }
        if (d->when == G84_DUMP_REQUEST && !opts->guest) {
            *err = g_strdup_printf("-screendump when=request (%s) needs "
                                   "gemu's guest (-guest)", d->file);
            return false;
        }
    }
    return true;
}

bool g84_checks_init(G84Checks *c, const MachineOptions *opts, char **err)
{
    memset(c, 0, sizeof(*c));
    c->t0 = g_get_monotonic_time();
    c->ctl_fd = c->con_fd = c->con_in = c->ctl_qemu = -1;
    c->ctl_in = g_string_new(NULL);
    c->con_line = g_string_new(NULL);
    c->nouveau_errors = g_ptr_array_new_with_free_func(g_free);
    c->results = g_string_new(NULL);
    c->worst = -1;
    c->poll_jumps = c->host_jumps = -1;
    c->run_status = -1;
    c->dumps = g_new0(G84Dump, opts->n_screendumps);
    for (int i = 0; i < opts->n_screendumps; i++) {
        g_autofree char *perr = NULL;

        if (!parse_dump(&c->dumps[i], opts->screendumps[i], &perr)) {
            *err = g_strdup_printf("-screendump %s: %s",
                                   opts->screendumps[i], perr);
            return false;
        }
        c->ndumps++;
    }
    if (!checks_options(c, opts, err)) {
        return false;
    }
    for (int i = 0; i < c->ndumps; i++) {
        if (c->dumps[i].golden) {
            return true;
        }
    }
    if (opts->compare_tolerance) {
        *err = g_strdup("-compare-tolerance: nothing to compare "
                        "(-compare GOLDEN.png)");
        return false;
    }
    return true;
}

void g84_checks_free(G84Checks *c)
{
    for (int i = 0; i < c->ndumps; i++) {
        dump_clear(&c->dumps[i]);
    }
    g_clear_pointer(&c->dumps, g_free);
    if (c->ctl_fd >= 0) {
        close(c->ctl_fd);
    }
    if (c->con_fd >= 0) {
        close(c->con_fd);
    }
    if (c->con_in >= 0) {
        close(c->con_in);
    }
    c->ctl_fd = c->con_fd = c->con_in = -1;
    if (c->con_dir) {
        g_autofree char *in = g_build_filename(c->con_dir, "con.in", NULL);
        g_autofree char *out = g_build_filename(c->con_dir, "con.out", NULL);

        unlink(in);
        unlink(out);
        rmdir(c->con_dir);
        g_clear_pointer(&c->con_dir, g_free);
    }
    g84_checks_qemu_fds(c, false);
    if (c->ctl_in) {
        g_string_free(c->ctl_in, TRUE);
        g_string_free(c->con_line, TRUE);
        g_string_free(c->results, TRUE);
        g_ptr_array_unref(c->nouveau_errors);
        c->ctl_in = NULL;
    }
}

static const char *when_name(const G84Dump *d, char *buf, size_t len)
{
    switch (d->when) {
    case G84_DUMP_RUN:
        return "run";
    case G84_DUMP_FRAME:
        snprintf(buf, len, "frame:%" PRIu64, d->frame);
        return buf;
    case G84_DUMP_REQUEST:
        snprintf(buf, len, "request%s%s", d->request ? ":" : "",
                 d->request ? d->request : "");
        return buf;
    default:
        return "exit";
    }
}

/* OUT.png -> OUT-diff.png */
static char *diff_name(const char *file)
{
    size_t n = strlen(file);

    if (g_str_has_suffix(file, ".png")) {
        n -= 4;
    }
    return g_strdup_printf("%.*s-diff.png", (int)n, file);
}

/* D's file for its N-th screendump ("%d" in it: N). */
static char *dump_file(const G84Dump *d, unsigned n)
{
    const char *pct = strstr(d->file, "%d");

    if (!pct) {
        return g_strdup(d->file);
    }
    return g_strdup_printf("%.*s%u%s", (int)(pct - d->file), d->file, n,
                           pct + 2);
}

/* The result of one screendump, as a JSON object in c->results. */
static void record(G84Checks *c, const G84Dump *d, const char *file,
                   const char *diff, const PngDiff *r, const char *err)
{
    GString *s = c->results;
    char wbuf[64];

    g_string_append_printf(s, "%s\n    { \"file\": ", s->len ? "," : "");
    g84_json_string(s, file);
    g_string_append(s, ", \"when\": ");
    g84_json_string(s, when_name(d, wbuf, sizeof(wbuf)));
    if (c->frame >= 0) {
        g_string_append_printf(s, ", \"frame\": %" PRId64, c->frame);
    }
    g_string_append(s, ", \"golden\": ");
    if (d->golden) {
        g84_json_string(s, d->golden);
    } else {
        g_string_append(s, "null");
    }
    if (r) {
        g_string_append_printf(s, ", \"same\": %s, \"worst_difference\": %d,"
                               " \"pixels_differing\": %" PRIu64,
                               r->differing ? "false" : "true", r->worst,
                               r->differing);
        g_string_append(s, ", \"diff_image\": ");
        if (r->differing && diff) {
            g84_json_string(s, diff);
        } else {
            g_string_append(s, "null");
        }
    }
    g_string_append(s, ", \"error\": ");
    if (err) {
        g84_json_string(s, err);
    } else {
        g_string_append(s, "null");
    }
    g_string_append(s, " }");
}

/* Compare FILE with D's golden image; false if that could not be done. */
static bool compare(G84Checks *c, const G84Dump *d, const char *file)
{
    g_autofree char *diff = diff_name(file);
    g_autofree char *err = NULL;
    PngDiff r;

    unlink(diff);               /* an older run's */
    if (!png_compare(file, d->golden, c->tolerance, diff, &r, &err)) {
        gemu_log("gemu: g84: -compare: %s\n", err);
        record(c, d, file, NULL, NULL, err);
        c->failed++;
        return false;
    }
    c->compared++;
    c->worst = MAX(c->worst, r.worst);
    if (r.differing) {
        c->differing++;
        gemu_log("gemu: g84: %s differs from %s: %" PRIu64 " pixels "
                 "(%ux%u against %ux%u), worst %d/255 (tolerance %d); "
                 "see %s\n", file, d->golden, r.differing, r.width, r.height,
                 r.golden_width, r.golden_height, r.worst, c->tolerance,
                 diff);
    } else {
        gemu_log("gemu: g84: %s is the same as %s (worst %d/255)\n", file,
                 d->golden, r.worst);
    }
    record(c, d, file, diff, &r, NULL);
    return true;
}

/* Take D's screendump now; false (with *err) if it was not written. */
static bool take(G84Checks *c, NV50State *card, G84Dump *d, char **err)
{
    g_autofree char *file = dump_file(d, ++d->taken);
    g_autofree char *serr = NULL;
    uint32_t vline, hline;
    uint64_t frames;

    c->frame = nv50_pdisplay_scanout_pos(card, 0, &vline, &hline, &frames)
               ? (int64_t)frames : -1;

    if (!nv50_screendump(card, 0, file, &serr)) {
        gemu_log("gemu: g84: -screendump %s: %s\n", file, serr);
        record(c, d, file, NULL, NULL, serr);
        c->failed++;
        if (err) {
            *err = g_steal_pointer(&serr);
        }
        return false;
    }
    if (!d->golden) {
        record(c, d, file, NULL, NULL, NULL);
        return true;
    }
    return compare(c, d, file);
}

/* Every screendump of WHEN (REQUEST: the request's name); how many. */
static int take_all(G84Checks *c, NV50State *card, G84DumpWhen when,
                    const char *request, char **err)
{
    int n = 0;

    for (int i = 0; i < c->ndumps; i++) {
        G84Dump *d = &c->dumps[i];

        if (d->when != when || (d->when == G84_DUMP_REQUEST && d->request &&
                                g_strcmp0(d->request, request))) {
            continue;
        }
        if (d->when != G84_DUMP_REQUEST && d->taken) {
            continue;           /* once */
        }
        take(c, card, d, err && !*err ? err : NULL);
        n++;
    }
    return n;
}

/* One line from the guest's control line. */
static void ctl_line(G84Checks *c, NV50State *card, const char *line)
{
    int st;

    if (sscanf(line, "gemu-run-status %d", &st) == 1 && st >= 0 &&
        st <= 255) {
        c->run_status = st;
        take_all(c, card, G84_DUMP_RUN, NULL, NULL);
    } else if (g_str_has_prefix(line, "gemu-screendump ")) {
        const char *name = line + strlen("gemu-screendump ");
        g_autofree char *err = NULL;
        g_autofree char *reply = NULL;
        int n = take_all(c, card, G84_DUMP_REQUEST, name, &err);

        reply = g_strdup_printf("gemu-screendump-done %s%s\n",
                                err ? "error " : n ? "ok" : "none",
                                err ? err : "");
        g_strdelimit(reply, "\r", ' ');
        /* no SIGPIPE if QEMU is gone */
        if (c->ctl_fd >= 0 &&
            send(c->ctl_fd, reply, strlen(reply), MSG_NOSIGNAL) !=
            (ssize_t)strlen(reply)) {
            gemu_log("gemu: g84: cannot answer the guest's gemu-screendump: "
                     "%s\n", strerror(errno));
        }
    }
}

/*
 * What can be read of the control line now: > 0 bytes were read, 0 at its
 * end (or on an error), < 0 nothing now.
 */
static int ctl_read(G84Checks *c, NV50State *card)
{
    char buf[512];
    ssize_t n = read(c->ctl_fd, buf, sizeof(buf));

    if (n <= 0) {
        return n < 0 && (errno == EAGAIN || errno == EINTR) ? -1 : 0;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            ctl_line(c, card, g_strstrip(c->ctl_in->str));
            g_string_truncate(c->ctl_in, 0);
        } else if (c->ctl_in->len < G84_CTL_LINE_MAX) {
            g_string_append_c(c->ctl_in, buf[i]);
        }
    }
    return 1;
}

/* The console: to stdout, and its lines seen; as ctl_read. */
static int con_read(G84Checks *c)
{
    char buf[4096];
    ssize_t n = read(c->con_fd, buf, sizeof(buf));

    if (n <= 0) {
        return n < 0 && (errno == EAGAIN || errno == EINTR) ? -1 : 0;
    }
    if (fwrite(buf, 1, n, stdout) != (size_t)n || fflush(stdout)) {
        /* stdout gone: the lines are still seen */
    }
    g84_summary_console(c, buf, n);
    return 1;
}

/* stdin to the console, as it comes (a line at a time on a terminal). */
static void stdin_read(G84Checks *c)
{
    char buf[1024];
    ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

    if (n <= 0) {
        if (n == 0 || errno != EINTR) {
            c->con_stdin = false;
        }
        return;
    }
    /* gemu holds con.in open for reading too: no SIGPIPE */
    if (write(c->con_in, buf, n) != n) {
        c->con_stdin = false;
    }
}

int g84_checks_pollfds(G84Checks *c, struct pollfd *pfd)
{
    int n = 0;

    if (c->ctl_fd >= 0) {
        pfd[n++] = (struct pollfd) { .fd = c->ctl_fd, .events = POLLIN };
    }
    if (c->con_fd >= 0) {
        pfd[n++] = (struct pollfd) { .fd = c->con_fd, .events = POLLIN };
        if (c->con_stdin) {
            pfd[n++] = (struct pollfd) { .fd = STDIN_FILENO,
                                         .events = POLLIN };
        }
    }
    return n;
}

void g84_checks_dispatch(G84Checks *c, NV50State *card,
                         const struct pollfd *pfd, int n)
{
    for (int i = 0; i < n; i++) {
        if (!pfd[i].revents) {
            continue;
        }
        if (pfd[i].fd == c->ctl_fd && ctl_read(c, card) == 0) {
            close(c->ctl_fd);
            c->ctl_fd = -1;
        } else if (pfd[i].fd == c->con_fd && con_read(c) == 0) {
            close(c->con_fd);
            c->con_fd = -1;
        } else if (pfd[i].fd == STDIN_FILENO) {
            stdin_read(c);
        }
    }
}

void g84_checks_tick(G84Checks *c, NV50State *card)
{
    for (int i = 0; i < c->ndumps; i++) {
        G84Dump *d = &c->dumps[i];
        uint32_t vline, hline;
        uint64_t frames;

        if (d->when == G84_DUMP_FRAME && !d->taken &&
            nv50_pdisplay_scanout_pos(card, 0, &vline, &hline, &frames) &&
            frames >= d->frame) {
            take(c, card, d, NULL);
        }
    }
}

void g84_checks_end(G84Checks *c, NV50State *card)
{
    /* what QEMU wrote before it ended: the sockets hold it */
    if (c->ctl_fd >= 0) {
        fcntl(c->ctl_fd, F_SETFL, O_NONBLOCK);
        while (ctl_read(c, card) > 0) {
            continue;
        }
    }
    if (c->con_fd >= 0) {
        fcntl(c->con_fd, F_SETFL, O_NONBLOCK);
        while (con_read(c) > 0) {
            continue;
        }
        g84_summary_console(c, "\n", 1);    /* a last line without \n */
    }
    take_all(c, card, G84_DUMP_EXIT, NULL, NULL);
    for (int i = 0; i < c->ndumps; i++) {
        const G84Dump *d = &c->dumps[i];
        char wbuf[64];

        if (!d->taken) {
            g_autofree char *why = g_strdup_printf(
                "not taken: the run ended before when=%s",
                when_name(d, wbuf, sizeof(wbuf)));

            gemu_log("gemu: g84: -screendump %s: %s\n", d->file, why);
            c->frame = -1;
            record(c, d, d->file, NULL, NULL, why);
            c->failed++;
        }
    }
}

int g84_checks_status(G84Checks *c, const MachineOptions *opts, int status)
{
    g_autofree char *err = NULL;

    if (!status && c->failed) {
        status = 1;
    } else if (!status && c->differing) {
        status = G84_EXIT_FRAMES_DIFFER;
    }
    if (opts->summary && !g84_summary_write(c, opts->summary, status, &err)) {
        gemu_error("g84: -summary: %s", err);
        status = status ? status : 1;
    }
    return status;
}

/* A socketpair: gemu's end non-blocking, QEMU's end *qemu. */
static int line_new(int *qemu, char **err)
{
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        *err = g_strdup_printf("socketpair: %s", strerror(errno));
        return -1;
    }
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    *qemu = sv[1];
    return sv[0];
}

/*
 * The console's FIFOs (G84Checks.con_dir).  gemu opens both ends it uses
 * read-write, as QEMU does: no open waits for the other side, and a
 * write to con.in never meets a FIFO without a reader.
 */
static bool console_fifos(G84Checks *c, char **err)
{
    g_autofree char *in = NULL, *out = NULL;

    c->con_dir = g_dir_make_tmp("gemu-console-XXXXXX", NULL);
    if (!c->con_dir) {
        *err = g_strdup_printf("no directory for the console's FIFOs: %s",
                               strerror(errno));
        return false;
    }
    in = g_build_filename(c->con_dir, "con.in", NULL);
    out = g_build_filename(c->con_dir, "con.out", NULL);
    if (mkfifo(in, 0600) < 0 || mkfifo(out, 0600) < 0 ||
        (c->con_fd = open(out, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0 ||
        (c->con_in = open(in, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
        *err = g_strdup_printf("the console's FIFOs in %s: %s", c->con_dir,
                               strerror(errno));
        return false;
    }
    return true;
}

/* The next serial port on chardev ID, FMT its kind and options. */
static void G_GNUC_PRINTF(3, 4) serial_arg(GPtrArray *args, const char *id,
                                           const char *fmt, ...)
{
    g_autofree char *backend = NULL;
    va_list ap;

    va_start(ap, fmt);
    backend = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_ptr_array_add(args, g_strdup("-chardev"));
    g_ptr_array_add(args, g_strdup_printf("%s,id=%s", backend, id));
    g_ptr_array_add(args, g_strdup("-serial"));
    g_ptr_array_add(args, g_strdup_printf("chardev:%s", id));
}

bool g84_checks_serial(G84Checks *c, GPtrArray *args, bool mon_stdio,
                       bool console, char **err)
{
    c->ctl_qemu = -1;
    if (console) {
        /* -summary: the console through gemu, which sees its lines */
        if (!console_fifos(c, err)) {
            return false;
        }
        c->con_stdin = !mon_stdio;
        c->con_seen = true;
        serial_arg(args, "gemu-serial", "pipe,path=%s/con", c->con_dir);
    } else if (mon_stdio) {
        /*
         * stdin is the monitor's: the guest console only prints, QEMU
         * appending to stdout opened again.  gemu's own stdout (the
         * monitor's answers) appends too: in a file opened with ">" it
         * would write over the console from the file's start.
         */
        int fl = fcntl(STDOUT_FILENO, F_GETFL);

        if (fl >= 0 && !(fl & O_APPEND)) {
            fcntl(STDOUT_FILENO, F_SETFL, fl | O_APPEND);
        }
        serial_arg(args, "gemu-serial", "file,path=/dev/stdout,append=on");
    } else {
        g_ptr_array_add(args, g_strdup("-serial"));
        g_ptr_array_add(args, g_strdup("stdio"));
    }
    /* ttyS1: the control line */
    c->ctl_fd = line_new(&c->ctl_qemu, err);
    if (c->ctl_fd < 0) {
        return false;
    }
    serial_arg(args, "gemu-ctl", "socket,fd=%d", c->ctl_qemu);
    return true;
}

void g84_checks_qemu_fds(G84Checks *c, bool child)
{
    if (c->ctl_qemu < 0) {
        return;
    }
    if (child) {
        fcntl(c->ctl_qemu, F_SETFD, 0);     /* QEMU inherits it */
    } else {
        close(c->ctl_qemu);
        c->ctl_qemu = -1;
    }
}
