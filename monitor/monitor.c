/*
 * The human monitor: QEMU-HMP-like commands on stdio or a UNIX socket,
 * driven from the machine's poll() loop (include/monitor/monitor.h,
 * docs/devel/monitor.md).
 *
 * I/O never blocks the machine: sockets are non-blocking, and fds the
 * monitor does not own (stdin/stdout, shared with the terminal) are
 * left blocking but only touched after poll() says they are ready, and
 * written at most PIPE_BUF bytes at a time.  Output waits in a buffer;
 * while more than MONITOR_OUT_HIGH bytes wait, no further command runs
 * and no input is read, so a client that does not read cannot make the
 * monitor grow without bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "monitor/monitor.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Room for a longest line, its "\r\n" and nothing more. */
#define MONITOR_IN_SIZE     (MONITOR_LINE_MAX + 2)
/* No command runs while this much output waits. */
#define MONITOR_OUT_HIGH    (16 * 1024)
/* "info display" lists at most this many consoles. */
#define MONITOR_MAX_CONSOLES 256

typedef enum MonitorKind {
    MONITOR_KIND_NONE,
    MONITOR_KIND_FDS,           /* stdio, or monitor_new_fds() */
    MONITOR_KIND_UNIX,          /* listening socket, one client at once */
} MonitorKind;

struct Monitor {
    MonitorKind kind;
    const MonitorOps *ops;
    void *opaque;
    char *desc;
    bool quit;

    /* The connection: stdio/fds, or the UNIX client (-1: none). */
    int in_fd;                  /* -1 after EOF */
    int out_fd;
    bool in_sock, out_sock;     /* use recv()/send() with MSG_DONTWAIT */

    /* UNIX socket listening */
    char *path;
    int listen_fd;
    dev_t sock_dev;             /* the file we created, to unlink only it */
    ino_t sock_ino;

    char in[MONITOR_IN_SIZE];
    size_t in_len;
    bool discarding;            /* in an overlong line: drop to its end */
    GByteArray *out;
};

/* ---------------------------------------------------------------- */
/* Output */

static bool fd_is_socket(int fd)
{
    struct stat st;

    return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Would an I/O on @fd in direction @events return at once? */
static bool fd_ready(int fd, short events)
{
    struct pollfd p = { .fd = fd, .events = events };

    return poll(&p, 1, 0) > 0 && p.revents;
}

static void monitor_disconnect(Monitor *mon);

static void monitor_puts(Monitor *mon, const char *s)
{
    if (mon->out_fd < 0) {
        return;
    }
    g_byte_array_append(mon->out, (const guint8 *)s, strlen(s));
}

static void GEMU_PRINTF(2, 3) monitor_printf(Monitor *mon,
                                             const char *fmt, ...)
{
    g_autofree char *s = NULL;
    va_list ap;

    va_start(ap, fmt);
    s = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    monitor_puts(mon, s);
}

static void monitor_prompt(Monitor *mon)
{
    monitor_puts(mon, "(gemu) ");
}

/* Write what can be written now. */
static void monitor_flush(Monitor *mon)
{
    if (mon->out_fd == STDOUT_FILENO) {
        /* keep order with what the machine printf()s */
        fflush(stdout);
    }
    while (mon->out_fd >= 0 && mon->out->len) {
        ssize_t n;

        if (mon->out_sock) {
            n = send(mon->out_fd, mon->out->data, mon->out->len,
                     MSG_DONTWAIT | MSG_NOSIGNAL);
        } else {
            if (!fd_ready(mon->out_fd, POLLOUT)) {
                return;
            }
            /* a pipe that polls writable takes PIPE_BUF without blocking */
            n = write(mon->out_fd, mon->out->data,
                      MIN(mon->out->len, PIPE_BUF));
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        if (n <= 0) {
            if (mon->kind == MONITOR_KIND_UNIX) {
                /* the client went away; recv() will see it too */
                monitor_disconnect(mon);
            } else {
                gemu_error("monitor: cannot write: %s",
                           n < 0 ? strerror(errno) : "no progress");
                mon->out_fd = -1;
                g_byte_array_set_size(mon->out, 0);
            }
            return;
        }
        g_byte_array_remove_range(mon->out, 0, n);
    }
}

/* ---------------------------------------------------------------- */
/* Commands */

typedef struct MonitorCmd {
    const char *name;           /* "quit|q": name and aliases */
    const char *params;         /* for help: "FILE.png [CONSOLE]" */
    const char *help;
    int min_args, max_args;     /* not counting the command name */
    void (*run)(Monitor *mon, int argc, char **argv);
} MonitorCmd;

static bool monitor_cmd_is(const MonitorCmd *cmd, const char *name)
{
    const char *p = cmd->name;
    size_t len = strlen(name);

    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);

        if (n == len && !memcmp(p, name, n)) {
            return true;
        }
        if (!bar) {
            return false;
        }
        p = bar + 1;
    }
}

static const MonitorCmd *monitor_cmd_find(const MonitorCmd *table,
                                          const char *name)
{
    for (const MonitorCmd *cmd = table; cmd->name; cmd++) {
        if (monitor_cmd_is(cmd, name)) {
            return cmd;
        }
    }
    return NULL;
}

static void monitor_cmd_help(Monitor *mon, const char *prefix,
                             const MonitorCmd *cmd)
{
    monitor_printf(mon, "%s%s%s%s -- %s\n", prefix, cmd->name,
                   cmd->params[0] ? " " : "", cmd->params, cmd->help);
}

static void monitor_table_help(Monitor *mon, const char *prefix,
                               const MonitorCmd *table)
{
    for (const MonitorCmd *cmd = table; cmd->name; cmd++) {
        monitor_cmd_help(mon, prefix, cmd);
    }
}

/*
 * Run argv[0] from @table; @prefix is what came before it on the line
 * ("" or "info "), for messages.
 */
static void monitor_run(Monitor *mon, const MonitorCmd *table,
                        const char *prefix, int argc, char **argv)
{
    const MonitorCmd *cmd = monitor_cmd_find(table, argv[0]);
    int nargs = argc - 1;

    if (!cmd) {
        monitor_printf(mon, "unknown command: '%s%s'\n", prefix, argv[0]);
        return;
    }
    if (nargs < cmd->min_args || nargs > cmd->max_args) {
        monitor_printf(mon, "%s%s: %s (usage: %s%s%s%s)\n", prefix, argv[0],
                       nargs < cmd->min_args ? "missing argument"
                                             : "too many arguments",
                       prefix, argv[0], cmd->params[0] ? " " : "",
                       cmd->params);
        return;
    }
    cmd->run(mon, argc, argv);
}

static DisplayConsole *monitor_console(Monitor *mon, int index)
{
    if (!mon->ops || !mon->ops->console || index >= MONITOR_MAX_CONSOLES) {
        return NULL;
    }
    return mon->ops->console(mon->opaque, index);
}

/* Console @sel: a decimal index or a console name; NULL if none. */
static DisplayConsole *monitor_console_by_sel(Monitor *mon, const char *sel,
                                              int *index)
{
    char *end;
    unsigned long v;
    DisplayConsole *con;

    errno = 0;
    v = strtoul(sel, &end, 10);
    if (g_ascii_isdigit(sel[0]) && !*end && !errno) {
        if (v >= MONITOR_MAX_CONSOLES) {
            return NULL;
        }
        *index = v;
        return monitor_console(mon, v);
    }
    for (int i = 0; (con = monitor_console(mon, i)); i++) {
        if (!strcmp(display_console_name(con), sel)) {
            *index = i;
            return con;
        }
    }
    return NULL;
}

static void monitor_cmd_run_screendump(Monitor *mon, int argc, char **argv)
{
    const char *path = argv[1];
    g_autofree char *err = NULL;
    const DisplaySurface *s;
    DisplayConsole *con;
    int index = 0;

    if (!monitor_console(mon, 0)) {
        monitor_printf(mon, "screendump: the machine has no display\n");
        return;
    }
    con = monitor_console_by_sel(mon, argc > 2 ? argv[2] : "0", &index);
    if (!con) {
        monitor_printf(mon, "screendump: no console '%s' "
                       "(see 'info display')\n", argv[2]);
        return;
    }
    if (mon->ops->refresh) {
        mon->ops->refresh(mon->opaque, index);
    }
    s = display_console_surface(con);
    if (!s) {
        monitor_printf(mon, "screendump: console %d '%s' has no frame to "
                       "dump: no frame has been shown yet (no signal)\n",
                       index, display_console_name(con));
        return;
    }
    if (!display_png_write(s, path, &err)) {
        monitor_printf(mon, "screendump: %s\n", err);
    }
}

static void monitor_cmd_run_quit(Monitor *mon, int argc, char **argv)
{
    if (!mon->ops || !mon->ops->quit) {
        monitor_printf(mon, "quit: this machine cannot be ended from the "
                       "monitor\n");
        return;
    }
    mon->quit = true;
    mon->ops->quit(mon->opaque);
}

static void monitor_cmd_run_info_display(Monitor *mon, int argc, char **argv)
{
    DisplayConsole *con;
    int i;

    for (i = 0; (con = monitor_console(mon, i)); i++) {
        const DisplaySurface *s = display_console_surface(con);
        const char *info = display_console_info(con);
        uint64_t frames = display_console_frames(con);

        monitor_printf(mon, "console %d '%s': ", i, display_console_name(con));
        if (s) {
            monitor_printf(mon, "%ux%u %s, pitch %u, address 0x%" PRIx64,
                           s->width, s->height,
                           display_format_name(s->format), s->pitch,
                           s->addr);
        } else {
            monitor_puts(mon, "no signal");
        }
        monitor_printf(mon, ", %" PRIu64 " frame%s\n", frames,
                       frames == 1 ? "" : "s");
        if (info && info[0]) {
            monitor_printf(mon, "  %s\n", info);
        }
    }
    if (i == 0) {
        monitor_puts(mon, "no display consoles\n");
    }
}

static void monitor_cmd_run_info_version(Monitor *mon, int argc, char **argv)
{
    monitor_printf(mon, "%s\n", GEMU_VERSION);
}

/* they list the tables below */
static void monitor_cmd_run_help(Monitor *mon, int argc, char **argv);
static void monitor_cmd_run_info(Monitor *mon, int argc, char **argv);

static const MonitorCmd monitor_cmds[] = {
    { "help|?", "[COMMAND]", "show the commands, or one command's help",
      0, 1, monitor_cmd_run_help },
    { "info", "[SUBCOMMAND]", "show information about the machine "
      "('info' lists what)", 0, INT_MAX, monitor_cmd_run_info },
    { "quit|q", "", "end gemu (the machine stops at once)",
      0, 0, monitor_cmd_run_quit },
    { "screendump", "FILE.png [CONSOLE]", "write what display console "
      "CONSOLE (index or name, default 0) shows now to FILE.png",
      1, 2, monitor_cmd_run_screendump },
    { NULL },
};

static const MonitorCmd monitor_info_cmds[] = {
    { "display", "", "show the display consoles: mode, frames shown, "
      "what the device scans out", 0, 0, monitor_cmd_run_info_display },
    { "version", "", "show gemu's version", 0, 0,
      monitor_cmd_run_info_version },
    { NULL },
};

static void monitor_cmd_run_help(Monitor *mon, int argc, char **argv)
{
    const MonitorCmd *cmd;

    if (argc < 2) {
        monitor_table_help(mon, "", monitor_cmds);
        return;
    }
    cmd = monitor_cmd_find(monitor_cmds, argv[1]);
    if (!cmd) {
        monitor_printf(mon, "unknown command: '%s'\n", argv[1]);
        return;
    }
    if (monitor_cmd_is(cmd, "info")) {
        monitor_table_help(mon, "info ", monitor_info_cmds);
    } else {
        monitor_cmd_help(mon, "", cmd);
    }
}

static void monitor_cmd_run_info(Monitor *mon, int argc, char **argv)
{
    if (argc < 2) {
        monitor_table_help(mon, "info ", monitor_info_cmds);
        return;
    }
    monitor_run(mon, monitor_info_cmds, "info ", argc - 1, argv + 1);
}

/*
 * Split @line into words: blanks separate, a word starting with '"'
 * runs to the next unescaped '"' (\" \\ inside), as QEMU's HMP does for
 * file names with spaces.  False with *err (g_free) if malformed.
 */
static bool monitor_split(const char *line, GPtrArray *words, char **err)
{
    const char *p = line;

    for (;;) {
        GString *w;

        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (!*p) {
            return true;
        }
        w = g_string_new(NULL);
        if (*p == '"') {
            p++;
            while (*p != '"') {
                if (!*p) {
                    g_string_free(w, TRUE);
                    *err = g_strdup("unterminated string");
                    return false;
                }
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) {
                    p++;
                }
                g_string_append_c(w, *p++);
            }
            p++;
            if (*p && *p != ' ' && *p != '\t') {
                g_string_free(w, TRUE);
                *err = g_strdup("expected a blank after a quoted string");
                return false;
            }
        } else {
            while (*p && *p != ' ' && *p != '\t') {
                g_string_append_c(w, *p++);
            }
        }
        g_ptr_array_add(words, g_string_free(w, FALSE));
    }
}

/* Run one command line (no line end, NUL-free). */
static void monitor_handle_line(Monitor *mon, const char *line)
{
    g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *err = NULL;

    if (!monitor_split(line, words, &err)) {
        monitor_printf(mon, "parse error: %s\n", err);
    } else if (words->len) {
        g_ptr_array_add(words, NULL);
        monitor_run(mon, monitor_cmds, "", words->len - 1,
                    (char **)words->pdata);
    }
}

/* ---------------------------------------------------------------- */
/* Input */

static bool monitor_line_pending(const Monitor *mon)
{
    return memchr(mon->in, '\n', mon->in_len) != NULL;
}

/* Run complete lines while the output is not backed up. */
static void monitor_run_lines(Monitor *mon)
{
    while (!mon->quit && mon->out->len < MONITOR_OUT_HIGH) {
        char *nl = memchr(mon->in, '\n', mon->in_len);
        size_t len, used;

        if (!nl) {
            if (mon->in_len == MONITOR_IN_SIZE) {
                /* no line end in a full buffer: too long, drop it */
                mon->discarding = true;
                mon->in_len = 0;
            }
            return;
        }
        used = nl - mon->in + 1;
        len = used - 1;
        if (len && mon->in[len - 1] == '\r') {
            len--;
        }
        if (mon->discarding || len > MONITOR_LINE_MAX) {
            monitor_printf(mon, "line too long (at most %d bytes)\n",
                           MONITOR_LINE_MAX);
            mon->discarding = false;
        } else if (memchr(mon->in, '\0', len)) {
            monitor_puts(mon, "parse error: NUL byte in the line\n");
        } else {
            g_autofree char *line = g_strndup(mon->in, len);

            monitor_handle_line(mon, line);
        }
        memmove(mon->in, mon->in + used, mon->in_len - used);
        mon->in_len -= used;
        if (!mon->quit) {
            monitor_prompt(mon);
        }
    }
}

static void monitor_input_eof(Monitor *mon)
{
    if (mon->kind == MONITOR_KIND_UNIX) {
        monitor_disconnect(mon);
        return;
    }
    /*
     * stdin closed: stop reading it, keep the machine running (as QEMU
     * does).  An unfinished last line is dropped: commands run on Enter.
     */
    mon->in_fd = -1;
    mon->in_len = 0;
    mon->discarding = false;
}

/* One read from the connection, if it would not block. */
static void monitor_read(Monitor *mon)
{
    size_t room = MONITOR_IN_SIZE - mon->in_len;
    ssize_t n;

    if (mon->in_fd < 0 || !room || monitor_line_pending(mon)) {
        return;
    }
    do {
        if (mon->in_sock) {
            n = recv(mon->in_fd, mon->in + mon->in_len, room, MSG_DONTWAIT);
        } else if (fd_ready(mon->in_fd, POLLIN)) {
            n = read(mon->in_fd, mon->in + mon->in_len, room);
        } else {
            return;
        }
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
    }
    if (n < 0) {
        if (errno != ECONNRESET) {
            gemu_error("monitor: cannot read: %s", strerror(errno));
        }
        monitor_input_eof(mon);
        return;
    }
    if (n == 0) {
        monitor_input_eof(mon);
        return;
    }
    mon->in_len += n;
}

/* ---------------------------------------------------------------- */
/* Connections */

static void monitor_banner(Monitor *mon)
{
    monitor_printf(mon, "gemu %s monitor - type 'help' for more "
                   "information\n", GEMU_VERSION);
    monitor_prompt(mon);
}

static void monitor_reset_conn(Monitor *mon)
{
    mon->in_len = 0;
    mon->discarding = false;
    g_byte_array_set_size(mon->out, 0);
}

/* UNIX: drop the client and go back to accepting. */
static void monitor_disconnect(Monitor *mon)
{
    if (mon->in_fd >= 0) {
        close(mon->in_fd);
    }
    mon->in_fd = mon->out_fd = -1;
    monitor_reset_conn(mon);
}

static void monitor_accept(Monitor *mon)
{
    int fd;

    do {
        fd = accept(mon->listen_fd, NULL, NULL);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK &&
            errno != ECONNABORTED) {
            gemu_error("monitor: accept on '%s': %s", mon->path,
                       strerror(errno));
        }
        return;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    mon->in_fd = mon->out_fd = fd;
    mon->in_sock = mon->out_sock = true;
    monitor_reset_conn(mon);
    monitor_banner(mon);
    monitor_flush(mon);
}

static Monitor *monitor_alloc(MonitorKind kind, const MonitorOps *ops,
                              void *opaque)
{
    Monitor *mon = g_new0(Monitor, 1);

    mon->kind = kind;
    mon->ops = ops;
    mon->opaque = opaque;
    mon->in_fd = mon->out_fd = mon->listen_fd = -1;
    mon->out = g_byte_array_new();
    return mon;
}

Monitor *monitor_new_fds(int in_fd, int out_fd, const MonitorOps *ops,
                         void *opaque)
{
    Monitor *mon = monitor_alloc(MONITOR_KIND_FDS, ops, opaque);

    mon->in_fd = in_fd;
    mon->out_fd = out_fd;
    mon->in_sock = fd_is_socket(in_fd);
    mon->out_sock = fd_is_socket(out_fd);
    if (in_fd == STDIN_FILENO && out_fd == STDOUT_FILENO) {
        mon->desc = g_strdup("stdio");
    } else {
        mon->desc = g_strdup_printf("fd:%d,%d", in_fd, out_fd);
    }
    monitor_banner(mon);
    monitor_flush(mon);
    return mon;
}

/*
 * Parse "PATH[,OPT]*" (",," is a comma in PATH); the QEMU options that
 * say "listen, do not wait" are accepted, anything else refused.
 */
static char *monitor_parse_unix(const char *arg, char **err)
{
    g_autoptr(GString) path = g_string_new(NULL);
    const char *p = arg;

    while (*p && !(*p == ',' && p[1] != ',')) {
        if (*p == ',') {
            p++;
        }
        g_string_append_c(path, *p++);
    }
    if (!path->len) {
        *err = g_strdup("monitor: 'unix:' needs a socket path");
        return NULL;
    }
    while (*p == ',') {
        const char *start = ++p;
        g_autofree char *opt = NULL;

        while (*p && *p != ',') {
            p++;
        }
        opt = g_strndup(start, p - start);
        if (!strcmp(opt, "server") || !strcmp(opt, "server=on") ||
            !strcmp(opt, "nowait") || !strcmp(opt, "wait=off")) {
            continue;
        }
        if (!strcmp(opt, "server=off") || !strcmp(opt, "wait") ||
            !strcmp(opt, "wait=on")) {
            *err = g_strdup_printf("monitor: '%s' is not supported: gemu's "
                                   "monitor always listens and never waits "
                                   "for a client", opt);
        } else {
            *err = g_strdup_printf("monitor: unknown socket option '%s' "
                                   "(accepted: server, nowait)", opt);
        }
        return NULL;
    }
    return g_string_free(g_steal_pointer(&path), FALSE);
}

/* Is a stale socket file at @addr (nobody listening)? */
static bool monitor_socket_stale(const struct sockaddr_un *addr,
                                 socklen_t len, char **err)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int r, e;

    if (fd < 0) {
        *err = g_strdup_printf("monitor: socket: %s", strerror(errno));
        return false;
    }
    r = connect(fd, (const struct sockaddr *)addr, len);
    e = errno;
    close(fd);
    if (r < 0 && (e == ECONNREFUSED || e == ENOENT)) {
        return true;
    }
    if (r == 0 || e == EAGAIN || e == EINPROGRESS) {
        *err = g_strdup_printf("monitor: '%s' is in use: another program "
                               "listens on it", addr->sun_path);
    } else {
        *err = g_strdup_printf("monitor: cannot check '%s': %s",
                               addr->sun_path, strerror(e));
    }
    return false;
}

static Monitor *monitor_new_unix(const char *arg, const MonitorOps *ops,
                                 void *opaque, char **err)
{
    g_autofree char *path = monitor_parse_unix(arg, err);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    socklen_t len = sizeof(addr);
    struct stat st;
    Monitor *mon;
    int fd;

    if (!path) {
        return NULL;
    }
    if (strlen(path) >= sizeof(addr.sun_path)) {
        *err = g_strdup_printf("monitor: socket path '%s' is too long "
                               "(at most %zu bytes)", path,
                               sizeof(addr.sun_path) - 1);
        return NULL;
    }
    strcpy(addr.sun_path, path);
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            *err = g_strdup_printf("monitor: '%s' exists and is not a "
                                   "socket; not replacing it", path);
            return NULL;
        }
        if (!monitor_socket_stale(&addr, len, err)) {
            return NULL;
        }
        if (unlink(path) < 0 && errno != ENOENT) {
            *err = g_strdup_printf("monitor: cannot remove the stale socket "
                                   "'%s': %s", path, strerror(errno));
            return NULL;
        }
    } else if (errno != ENOENT) {
        *err = g_strdup_printf("monitor: '%s': %s", path, strerror(errno));
        return NULL;
    }

    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *err = g_strdup_printf("monitor: socket: %s", strerror(errno));
        return NULL;
    }
    if (bind(fd, (struct sockaddr *)&addr, len) < 0) {
        *err = g_strdup_printf("monitor: cannot create the socket '%s': %s",
                               path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (listen(fd, 8) < 0 || stat(path, &st) < 0) {
        *err = g_strdup_printf("monitor: cannot listen on '%s': %s",
                               path, strerror(errno));
        close(fd);
        unlink(path);
        return NULL;
    }
    mon = monitor_alloc(MONITOR_KIND_UNIX, ops, opaque);
    mon->listen_fd = fd;
    mon->sock_dev = st.st_dev;
    mon->sock_ino = st.st_ino;
    mon->path = g_steal_pointer(&path);
    mon->desc = g_strdup_printf("unix:%s", mon->path);
    return mon;
}

Monitor *monitor_new(const char *spec, const MonitorOps *ops, void *opaque,
                     char **err)
{
    Monitor *mon;

    if (!strcmp(spec, "stdio")) {
        return monitor_new_fds(STDIN_FILENO, STDOUT_FILENO, ops, opaque);
    }
    if (g_str_has_prefix(spec, "unix:")) {
        return monitor_new_unix(spec + 5, ops, opaque, err);
    }
    if (!strcmp(spec, "none")) {
        mon = monitor_alloc(MONITOR_KIND_NONE, ops, opaque);
        mon->desc = g_strdup("none");
        return mon;
    }
    *err = g_strdup_printf("monitor: unknown monitor '%s' (use stdio, "
                           "unix:PATH or none)", spec);
    return NULL;
}

void monitor_free(Monitor *mon)
{
    struct stat st;

    if (!mon) {
        return;
    }
    monitor_flush(mon);
    if (mon->kind == MONITOR_KIND_UNIX) {
        if (mon->in_fd >= 0) {
            close(mon->in_fd);
        }
        close(mon->listen_fd);
        /* only the file we made: somebody may have replaced it since */
        if (lstat(mon->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
            st.st_dev == mon->sock_dev && st.st_ino == mon->sock_ino) {
            unlink(mon->path);
        }
    }
    g_byte_array_free(mon->out, TRUE);
    g_free(mon->path);
    g_free(mon->desc);
    g_free(mon);
}

/* ---------------------------------------------------------------- */
/* Main-loop interface */

static int monitor_add_pollfd(struct pollfd *fds, int n, int max, int fd,
                              short events)
{
    for (int i = 0; i < n; i++) {
        if (fds[i].fd == fd) {
            fds[i].events |= events;
            return n;
        }
    }
    if (n < max) {
        fds[n] = (struct pollfd) { .fd = fd, .events = events };
        n++;
    }
    return n;
}

int monitor_pollfds(Monitor *mon, struct pollfd *fds, int max)
{
    int n = 0;

    if (mon->kind == MONITOR_KIND_UNIX && mon->in_fd < 0 && !mon->quit) {
        return monitor_add_pollfd(fds, n, max, mon->listen_fd, POLLIN);
    }
    /* no reading while output is backed up: see the header comment */
    if (mon->in_fd >= 0 && !mon->quit && !monitor_line_pending(mon) &&
        mon->out->len < MONITOR_OUT_HIGH) {
        n = monitor_add_pollfd(fds, n, max, mon->in_fd, POLLIN);
    }
    if (mon->out_fd >= 0 && mon->out->len) {
        n = monitor_add_pollfd(fds, n, max, mon->out_fd, POLLOUT);
    }
    return n;
}

void monitor_dispatch(Monitor *mon, const struct pollfd *fds, int n)
{
    bool do_read = false, do_write = false, do_accept = false;

    for (int i = 0; i < n; i++) {
        if (!fds[i].revents || fds[i].fd < 0) {
            continue;
        }
        if (fds[i].fd == mon->listen_fd && mon->in_fd < 0) {
            do_accept = true;
        }
        if (fds[i].fd == mon->in_fd) {
            do_read = true;
        }
        if (fds[i].fd == mon->out_fd) {
            do_write = true;
        }
    }
    if (do_accept && !mon->quit) {
        monitor_accept(mon);
        return;
    }
    if (do_write) {
        monitor_flush(mon);
    }
    /* lines left over while the output was backed up */
    monitor_run_lines(mon);
    if (do_read && !mon->quit) {
        monitor_read(mon);
        monitor_run_lines(mon);
    }
    monitor_flush(mon);
}

bool monitor_quit_requested(const Monitor *mon)
{
    return mon->quit;
}

const char *monitor_describe(const Monitor *mon)
{
    return mon->desc;
}
