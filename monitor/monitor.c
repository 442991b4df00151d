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
#include "monitor-int.h"

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

            g_autoptr(GString) out = g_string_new(NULL);

            if (monitor_command_line(mon->ops, mon->opaque, line, out)) {
                mon->quit = true;
            }
            monitor_puts(mon, out->str);
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
