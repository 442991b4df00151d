/*
 * gemu's QMP client (hw/remote/qmp.c) against a hostile QEMU: the input
 * is what the "QEMU" end of the socket sends (cut into sends at each
 * 0xff byte), the client reads it as the machine's loop would and is
 * asked to send a key between sends.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "hw/remote/qmp.h"
#include <sys/socket.h>
#include <unistd.h>

static void client_run(QmpClient *c, int other)
{
    struct pollfd pfd;
    char drain[4096];

    while (qmp_client_pollfd(c, &pfd) && poll(&pfd, 1, 0) > 0) {
        qmp_client_dispatch(c, pfd.revents);
        while (recv(other, drain, sizeof(drain), MSG_DONTWAIT) > 0) {
        }
        if (!(pfd.revents & POLLIN)) {
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QmpClient *c;
    int sv[2];
    size_t at = 0;

    fuzz_quiet();
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        abort();
    }
    c = qmp_client_new_fd(sv[1]);
    while (at < size) {
        const uint8_t *end = memchr(data + at, 0xff, size - at);
        size_t len = end ? (size_t)(end - (data + at)) : size - at;

        if (len && send(sv[0], data + at, len, MSG_DONTWAIT) != (ssize_t)len) {
            break;
        }
        at += len + 1;
        client_run(c, sv[0]);
        (void)qmp_client_send_key(c, "a", at & 1);
        client_run(c, sv[0]);
    }
    close(sv[0]);
    client_run(c, -1);
    qmp_client_free(c);
    return 0;
}
