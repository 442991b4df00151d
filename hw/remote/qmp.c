/*
 * A small QMP client: connect to QEMU's "-qmp unix:PATH,server=on,
 * wait=off" socket, read the greeting, negotiate capabilities, then send
 * key events with "input-send-event".  Replies are read and dropped; an
 * error reply is logged (once).  The socket never blocks the machine's
 * loop: output waits in a small buffer, and key events that do not fit
 * (QEMU stopped reading) are dropped with one warning.
 *
 * QMP facts used: the server speaks first ({"QMP": {...}}), one JSON
 * object per line; every command is answered by {"return": ...} or
 * {"error": {"class": ..., "desc": ...}} in order; asynchronous
 * {"event": ...} lines may come at any time.  Commands may be sent
 * before the reply to qmp_capabilities: QEMU handles them in order.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/remote/qmp.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct QmpClient {
    char *path;                 /* NULL: made from an fd */
    int fd;                     /* -1 while not connected */
    QmpState state;
    int64_t next_try_ns;
    GString *in;                /* a reply line read in part */
    bool skipping;              /* the rest of an overlong line */
    GString *out;               /* waiting to be written */
    unsigned errors;
    bool warned_full, warned_early, warned_line;
};

static QmpClient *qmp_client_alloc(void)
{
    QmpClient *c = g_new0(QmpClient, 1);

    c->fd = -1;
    c->in = g_string_new(NULL);
    c->out = g_string_new(NULL);
    return c;
}

QmpClient *qmp_client_new(const char *path)
{
    QmpClient *c = qmp_client_alloc();

    c->path = g_strdup(path);
    c->state = QMP_STATE_CONNECTING;
    return c;
}

QmpClient *qmp_client_new_fd(int fd)
{
    QmpClient *c = qmp_client_alloc();
    int fl = fcntl(fd, F_GETFL);

    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    c->fd = fd;
    c->state = QMP_STATE_GREETING;
    return c;
}

void qmp_client_free(QmpClient *c)
{
    if (!c) {
        return;
    }
    if (c->fd >= 0) {
        close(c->fd);
    }
    g_string_free(c->in, TRUE);
    g_string_free(c->out, TRUE);
    g_free(c->path);
    g_free(c);
}

QmpState qmp_client_state(const QmpClient *c)
{
    return c->state;
}

unsigned qmp_client_errors(const QmpClient *c)
{
    return c->errors;
}

/* QEMU closed the socket (it is exiting): normal, and for good. */
static void qmp_client_gone(QmpClient *c)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    c->state = QMP_STATE_GONE;
    g_string_truncate(c->out, 0);
    g_string_truncate(c->in, 0);
}

void qmp_client_tick(QmpClient *c, int64_t now_ns)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    if (c->state != QMP_STATE_CONNECTING || !c->path ||
        now_ns < c->next_try_ns) {
        return;
    }
    c->next_try_ns = now_ns + QMP_RETRY_MS * 1000000LL;
    if (strlen(c->path) >= sizeof(sa.sun_path)) {
        gemu_error("qmp: socket path too long: %s", c->path);
        c->state = QMP_STATE_GONE;
        return;
    }
    strcpy(sa.sun_path, c->path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return;
    }
    /*
     * A UNIX socket connects at once or fails (not there yet: ENOENT,
     * ECONNREFUSED; backlog full: EAGAIN): try again on a later tick.
     */
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        close(fd);
        return;
    }
    c->fd = fd;
    c->state = QMP_STATE_GREETING;
}

/* Write what is queued, as much as the socket takes now. */
static void qmp_client_flush(QmpClient *c)
{
    while (c->fd >= 0 && c->out->len) {
        ssize_t r = send(c->fd, c->out->str, c->out->len,
                         MSG_NOSIGNAL | MSG_DONTWAIT);

        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                qmp_client_gone(c);
            }
            return;
        }
        g_string_erase(c->out, 0, r);
    }
    if (!c->out->len) {
        c->warned_full = false;
    }
}

/* Queue @msg whole, or not at all. */
static bool qmp_client_queue(QmpClient *c, const char *msg)
{
    size_t len = strlen(msg);

    if (c->out->len + len > QMP_OUT_MAX) {
        if (!c->warned_full) {
            c->warned_full = true;
            gemu_log("qmp: QEMU is not reading its QMP socket: "
                     "key events dropped\n");
        }
        return false;
    }
    g_string_append(c->out, msg);
    qmp_client_flush(c);
    return true;
}

/* The "desc" of an error reply, unescaped enough for a log line. */
static char *qmp_error_desc(const char *line)
{
    const char *p = strstr(line, "\"desc\"");
    GString *s;

    if (!p || !(p = strchr(p + 6, '"'))) {
        return g_strdup(line);
    }
    s = g_string_new(NULL);
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) {
            p++;
        }
        g_string_append_c(s, *p);
    }
    return g_string_free(s, FALSE);
}

static void qmp_client_line(QmpClient *c, const char *line)
{
    while (g_ascii_isspace(*line)) {
        line++;
    }
    if (!*line) {
        return;
    }
    switch (c->state) {
    case QMP_STATE_GREETING:
        if (g_str_has_prefix(line, "{\"QMP\"")) {
            c->state = QMP_STATE_NEGOTIATING;
            qmp_client_queue(c, "{\"execute\":\"qmp_capabilities\"}\n");
        }
        return;
    case QMP_STATE_NEGOTIATING:
    case QMP_STATE_READY:
        break;
    default:
        return;
    }
    /* anything else ({"timestamp": ..., "event": ...}) is no reply */
    if (!g_str_has_prefix(line, "{\"return\"") &&
        !g_str_has_prefix(line, "{\"error\"")) {
        return;
    }
    if (g_str_has_prefix(line, "{\"error\"")) {
        c->errors++;
        if (c->errors == 1) {
            g_autofree char *desc = qmp_error_desc(line);

            gemu_log_mask(LOG_UNIMP, "qmp: QEMU refused a command: %s\n",
                          desc);
        }
    }
    /* the first reply is qmp_capabilities': command mode from now on */
    if (c->state == QMP_STATE_NEGOTIATING) {
        c->state = QMP_STATE_READY;
    }
}

static void qmp_client_read(QmpClient *c)
{
    char buf[4096];

    while (c->fd >= 0) {
        ssize_t r = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
        char *p, *nl;

        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                qmp_client_gone(c);
            }
            return;
        }
        if (r == 0) {
            qmp_client_gone(c);
            return;
        }
        g_string_append_len(c->in, buf, r);
        p = c->in->str;
        while ((nl = memchr(p, '\n', c->in->str + c->in->len - p))) {
            *nl = '\0';
            if (!c->skipping) {
                qmp_client_line(c, p);
            }
            c->skipping = false;
            if (c->fd < 0) {
                return;
            }
            p = nl + 1;
        }
        g_string_erase(c->in, 0, p - c->in->str);
        if (c->in->len > QMP_LINE_MAX) {
            /* nothing we wait for is that long: drop it to its end */
            if (!c->warned_line) {
                c->warned_line = true;
                gemu_log_mask(LOG_UNIMP, "qmp: skipping a reply longer "
                              "than %d bytes\n", QMP_LINE_MAX);
            }
            c->skipping = true;
            g_string_truncate(c->in, 0);
        }
    }
}

bool qmp_client_pollfd(QmpClient *c, struct pollfd *pfd)
{
    if (c->fd < 0) {
        return false;
    }
    pfd->fd = c->fd;
    pfd->events = POLLIN | (c->out->len ? POLLOUT : 0);
    pfd->revents = 0;
    return true;
}

void qmp_client_dispatch(QmpClient *c, short revents)
{
    if (c->fd < 0) {
        return;
    }
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        qmp_client_read(c);
    }
    if (revents & POLLOUT) {
        qmp_client_flush(c);
    }
}

/* QKeyCode names are lower-case letters, digits and '_'. */
static bool qmp_qcode_valid(const char *qcode)
{
    if (!*qcode || strlen(qcode) > 32) {
        return false;
    }
    for (const char *p = qcode; *p; p++) {
        if (!g_ascii_islower(*p) && !g_ascii_isdigit(*p) && *p != '_') {
            return false;
        }
    }
    return true;
}

bool qmp_client_send_key(QmpClient *c, const char *qcode, bool down)
{
    g_autofree char *msg = NULL;

    if (!qcode || !qmp_qcode_valid(qcode)) {
        return false;
    }
    if (c->state != QMP_STATE_NEGOTIATING && c->state != QMP_STATE_READY) {
        if (c->state != QMP_STATE_GONE && !c->warned_early) {
            c->warned_early = true;
            gemu_log("qmp: QEMU's QMP socket is not up yet: key dropped\n");
        }
        return false;
    }
    msg = g_strdup_printf("{\"execute\":\"input-send-event\","
                          "\"arguments\":{\"events\":[{\"type\":\"key\","
                          "\"data\":{\"down\":%s,\"key\":{\"type\":\"qcode\","
                          "\"data\":\"%s\"}}}]}}\n",
                          down ? "true" : "false", qcode);
    return qmp_client_queue(c, msg);
}

void qmp_client_key_handler(void *opaque, const char *qcode, bool down)
{
    qmp_client_send_key(opaque, qcode, down);
}
