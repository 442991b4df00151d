/*
 * The g84 machine's QMP client (hw/remote/qmp.c) against a fake QMP server
 * on the other end of a socketpair (or a UNIX socket in a temporary
 * directory): greeting and capabilities handshake, key events as QEMU's
 * input-send-event takes them, error replies, replies arriving in
 * pieces, a server that stops reading, and a server that goes away.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/remote/qmp.h"
#include <check.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, " \
                 "\"minor\": 2, \"major\": 7}, \"package\": \"\"}, " \
                 "\"capabilities\": [\"oob\"]}}\r\n"
#define CAPS     "{\"execute\":\"qmp_capabilities\"}\n"
#define KEY_A_DOWN "{\"execute\":\"input-send-event\",\"arguments\":" \
                   "{\"events\":[{\"type\":\"key\",\"data\":{\"down\":true," \
                   "\"key\":{\"type\":\"qcode\",\"data\":\"a\"}}}]}}\n"
#define KEY_RET_UP "{\"execute\":\"input-send-event\",\"arguments\":" \
                   "{\"events\":[{\"type\":\"key\",\"data\":{\"down\":false," \
                   "\"key\":{\"type\":\"qcode\",\"data\":\"ret\"}}}]}}\n"

/* The server's end: write @s whole. */
static void srv_write(int fd, const char *s)
{
    ck_assert_int_eq(write(fd, s, strlen(s)), strlen(s));
}

/* Everything the client has written so far (non-blocking). */
static char *srv_read(int fd)
{
    GString *s = g_string_new(NULL);
    char buf[4096];
    ssize_t r;

    while ((r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
        g_string_append_len(s, buf, r);
    }
    return g_string_free(s, FALSE);
}

/* Let the client see what the server sent, as the machine's loop does. */
static void client_run(QmpClient *c)
{
    struct pollfd pfd;

    while (qmp_client_pollfd(c, &pfd) && poll(&pfd, 1, 0) > 0) {
        qmp_client_dispatch(c, pfd.revents);
        if (!(pfd.revents & POLLIN)) {
            break;
        }
    }
}

/* A client past the handshake; *srv is the server's end. */
static QmpClient *client_ready(int *srv)
{
    int sv[2];
    QmpClient *c;
    g_autofree char *got = NULL;

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    c = qmp_client_new_fd(sv[0]);
    *srv = sv[1];
    srv_write(sv[1], GREETING);
    client_run(c);
    got = srv_read(sv[1]);
    ck_assert_str_eq(got, CAPS);
    srv_write(sv[1], "{\"return\": {}}\r\n");
    client_run(c);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_READY);
    return c;
}

START_TEST(qmp_handshake)
{
    int sv[2];
    QmpClient *c;
    g_autofree char *before = NULL, *got = NULL;
    FILE *tmp = tmpfile();

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    c = qmp_client_new_fd(sv[0]);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GREETING);
    /* before the greeting: nothing is sent, keys are dropped (warned) */
    gemu_log_set_file(tmp);
    ck_assert(!qmp_client_send_key(c, "a", true));
    gemu_log_set_file(NULL);
    fclose(tmp);
    before = srv_read(sv[1]);
    ck_assert_str_eq(before, "");

    srv_write(sv[1], GREETING);
    client_run(c);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_NEGOTIATING);
    got = srv_read(sv[1]);
    ck_assert_str_eq(got, CAPS);
    /* an event before the reply is not the reply */
    srv_write(sv[1], "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 2},"
              " \"event\": \"RESUME\"}\r\n");
    client_run(c);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_NEGOTIATING);
    srv_write(sv[1], "{\"return\": {}}\r\n");
    client_run(c);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_READY);
    ck_assert_uint_eq(qmp_client_errors(c), 0);
    qmp_client_free(c);
    close(sv[1]);
}
END_TEST

START_TEST(qmp_keys_serialised)
{
    int srv;
    QmpClient *c = client_ready(&srv);
    g_autofree char *got = NULL, *bad = NULL;

    ck_assert(qmp_client_send_key(c, "a", true));
    qmp_client_key_handler(c, "ret", false);
    got = srv_read(srv);
    ck_assert_str_eq(got, KEY_A_DOWN KEY_RET_UP);
    /* not a QKeyCode name: nothing may reach QEMU's JSON parser */
    ck_assert(!qmp_client_send_key(c, "a\"}", true));
    ck_assert(!qmp_client_send_key(c, "A", true));
    ck_assert(!qmp_client_send_key(c, "", true));
    ck_assert(!qmp_client_send_key(c, NULL, true));
    bad = srv_read(srv);
    ck_assert_str_eq(bad, "");
    qmp_client_free(c);
    close(srv);
}
END_TEST

/* Keys sent right after qmp_capabilities are queued behind it. */
START_TEST(qmp_keys_pipelined)
{
    int sv[2];
    QmpClient *c;
    g_autofree char *got = NULL;

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    c = qmp_client_new_fd(sv[0]);
    srv_write(sv[1], GREETING);
    client_run(c);
    ck_assert(qmp_client_send_key(c, "a", true));
    got = srv_read(sv[1]);
    ck_assert_str_eq(got, CAPS KEY_A_DOWN);
    qmp_client_free(c);
    close(sv[1]);
}
END_TEST

START_TEST(qmp_error_logged_once)
{
    int srv;
    QmpClient *c = client_ready(&srv);
    char *log = NULL;
    size_t log_len = 0;
    FILE *f = open_memstream(&log, &log_len);
    int saved = gemu_loglevel;

    gemu_loglevel = LOG_UNIMP;
    gemu_log_set_file(f);
    ck_assert(qmp_client_send_key(c, "a", true));
    srv_write(srv, "{\"error\": {\"class\": \"GenericError\", \"desc\": "
              "\"Invalid parameter \\\"x\\\"\"}}\r\n");
    client_run(c);
    srv_write(srv, "{\"error\": {\"class\": \"GenericError\", \"desc\": "
              "\"second\"}}\r\n");
    client_run(c);
    gemu_log_set_file(NULL);
    gemu_loglevel = saved;
    fclose(f);
    ck_assert_uint_eq(qmp_client_errors(c), 2);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_READY);
    ck_assert_ptr_nonnull(strstr(log, "Invalid parameter \"x\""));
    ck_assert_ptr_null(strstr(log, "second"));
    free(log);
    qmp_client_free(c);
    close(srv);
}
END_TEST

/* Lines split anywhere, several in one read, CRLF or LF. */
START_TEST(qmp_partial_reads)
{
    const char *all = GREETING "{\"event\": \"X\", \"data\": {}}\n"
                      "{\"return\": {}}\n";
    int sv[2];
    QmpClient *c;
    g_autofree char *got = NULL;

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    c = qmp_client_new_fd(sv[0]);
    for (const char *p = all; *p; p += MIN(strlen(p), 7)) {
        char piece[8] = { 0 };

        memcpy(piece, p, MIN(strlen(p), 7));
        srv_write(sv[1], piece);
        client_run(c);
        if (p + 7 < all + strlen(GREETING)) {
            ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GREETING);
        }
    }
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_READY);
    got = srv_read(sv[1]);
    ck_assert_str_eq(got, CAPS);
    qmp_client_free(c);
    close(sv[1]);
}
END_TEST

START_TEST(qmp_server_gone)
{
    int srv;
    QmpClient *c = client_ready(&srv);
    struct pollfd pfd;

    close(srv);
    client_run(c);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GONE);
    ck_assert(!qmp_client_pollfd(c, &pfd));
    ck_assert(!qmp_client_send_key(c, "a", true));
    /* gone is for good: no reconnection */
    qmp_client_tick(c, INT64_MAX);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GONE);
    qmp_client_free(c);
}
END_TEST

/* Writing to a closed socket is no SIGPIPE, just gone. */
START_TEST(qmp_server_gone_on_write)
{
    int srv;
    QmpClient *c = client_ready(&srv);

    close(srv);
    ck_assert(!qmp_client_send_key(c, "a", true) ||
              qmp_client_state(c) == QMP_STATE_GONE);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GONE);
    qmp_client_free(c);
}
END_TEST

/* A server that stops reading: keys are dropped, never blocking. */
START_TEST(qmp_output_full)
{
    int srv;
    QmpClient *c = client_ready(&srv);
    struct pollfd pfd;
    int sent = 0;
    g_autofree char *drained = NULL;
    FILE *f = tmpfile();

    gemu_log_set_file(f);
    while (qmp_client_send_key(c, "a", true)) {
        sent++;
        ck_assert_int_lt(sent, 1000000);
    }
    /* the client's own buffer holds at most QMP_OUT_MAX */
    ck_assert(qmp_client_pollfd(c, &pfd));
    ck_assert(pfd.events & POLLOUT);
    ck_assert(!qmp_client_send_key(c, "b", true));
    gemu_log_set_file(NULL);
    fclose(f);

    /* the server reads again: the queue drains and keys go through */
    drained = srv_read(srv);
    ck_assert_uint_eq(strlen(drained) % strlen(KEY_A_DOWN), 0);
    while (qmp_client_pollfd(c, &pfd) && (pfd.events & POLLOUT)) {
        g_free(srv_read(srv));
        ck_assert_int_eq(poll(&pfd, 1, 1000), 1);
        qmp_client_dispatch(c, pfd.revents);
    }
    g_free(srv_read(srv));
    ck_assert(qmp_client_send_key(c, "a", true));
    {
        g_autofree char *got = srv_read(srv);

        ck_assert_str_eq(got, KEY_A_DOWN);
    }
    qmp_client_free(c);
    close(srv);
}
END_TEST

/* Through a path: retried until QEMU's socket is there. */
START_TEST(qmp_connect_retry)
{
    g_autofree char *dir = g_dir_make_tmp("gemu-qmp-test-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "qmp.sock", NULL);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    QmpClient *c = qmp_client_new(path);
    struct pollfd pfd;
    int lfd, afd;
    g_autofree char *got = NULL;

    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_CONNECTING);
    qmp_client_tick(c, 0);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_CONNECTING);
    ck_assert(!qmp_client_pollfd(c, &pfd));

    strcpy(sa.sun_path, path);
    lfd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    ck_assert_int_eq(listen(lfd, 1), 0);
    /* not before the retry interval */
    qmp_client_tick(c, QMP_RETRY_MS * 1000000LL - 1);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_CONNECTING);
    qmp_client_tick(c, QMP_RETRY_MS * 1000000LL);
    ck_assert_int_eq(qmp_client_state(c), QMP_STATE_GREETING);
    afd = accept(lfd, NULL, NULL);
    ck_assert_int_ge(afd, 0);
    srv_write(afd, GREETING);
    client_run(c);
    got = srv_read(afd);
    ck_assert_str_eq(got, CAPS);
    qmp_client_free(c);
    close(afd);
    close(lfd);
    unlink(path);
    rmdir(dir);
}
END_TEST

Suite *qmp_suite(void)
{
    Suite *s = suite_create("qmp");
    TCase *tc = tcase_create("client");

    tcase_add_test(tc, qmp_handshake);
    tcase_add_test(tc, qmp_keys_serialised);
    tcase_add_test(tc, qmp_keys_pipelined);
    tcase_add_test(tc, qmp_error_logged_once);
    tcase_add_test(tc, qmp_partial_reads);
    tcase_add_test(tc, qmp_server_gone);
    tcase_add_test(tc, qmp_server_gone_on_write);
    tcase_add_test(tc, qmp_output_full);
    tcase_add_test(tc, qmp_connect_retry);
    suite_add_tcase(s, tc);
    return s;
}
