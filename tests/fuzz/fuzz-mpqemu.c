/*
 * The mpqemu message parser and server (hw/remote/mpqemu.c), as a
 * hostile QEMU would drive it: the input is cut into sends, each
 * "LEN NFDS bytes[LEN]" (NFDS % 10 file descriptors go with the send:
 * 64 KiB temporary files, so that SYNC_SYSMEM maps something; 9 is more than
 * QEMU ever sends), written to the server's socket with one sendmsg
 * each; then the server handles messages until the end of the stream
 * or an error.  Every input gets a fresh card (nv50_new, the least
 * VRAM: a card's VRAM is cleared) and server.
 * The same bytes go through mpqemu_parse_header/_payload directly too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "hw/nv50/nv50.h"
#include "hw/remote/mpqemu.h"
#include <sys/socket.h>
#include <unistd.h>

#define FUZZ_MEMFD_SIZE 0x10000

static void parse_direct(const uint8_t *data, size_t size)
{
    while (size >= MPQEMU_HDR_SIZE) {
        MPQemuMsg msg;
        g_autoptr(GError) err = NULL;
        int fds[MPQEMU_MAX_FDS] = { -1, -1, -1, -1, -1, -1, -1, -1 };
        size_t n;

        if (!mpqemu_parse_header(data, &msg, &err)) {
            return;
        }
        data += MPQEMU_HDR_SIZE;
        size -= MPQEMU_HDR_SIZE;
        n = MIN(size, msg.size);
        if (n == msg.size) {
            /* as many fds as the payload's first byte says (none: 0) */
            int nfds = n ? data[0] % 9 : 0;

            (void)mpqemu_parse_payload(&msg, data, fds, nfds, &err);
        }
        data += n;
        size -= n;
    }
}

static bool send_chunk(int fd, const uint8_t *p, size_t len, int nfds)
{
    int fds[MPQEMU_MAX_FDS + 1];
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * (MPQEMU_MAX_FDS + 1))];
    } ctl;
    struct iovec iov = { (void *)p, len };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    bool ok;

    for (int i = 0; i < nfds; i++) {
        FILE *tf = tmpfile();       /* stands in for QEMU's memfd */

        fds[i] = tf ? dup(fileno(tf)) : -1;
        if (fds[i] < 0 || ftruncate(fds[i], FUZZ_MEMFD_SIZE)) {
            abort();
        }
        fclose(tf);
    }
    if (nfds) {
        struct cmsghdr *cm;

        mh.msg_control = ctl.buf;
        mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
    }
    ok = sendmsg(fd, &mh, MSG_DONTWAIT) == (ssize_t)len;
    for (int i = 0; i < nfds; i++) {
        close(fds[i]);
    }
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    GemuClock clk;
    NV50State *card;
    MPQemuServer *srv;
    int sv[2];
    char drain[4096];

    fuzz_quiet();
    parse_direct(data, size);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        abort();
    }
    gemu_clock_init(&clk, GEMU_CLOCK_VIRTUAL);
    card = nv50_new(&clk, NULL, NV50_VRAM_MIN, NULL);
    srv = mpqemu_server_new(sv[1], PCI_DEVICE(card), NULL, NULL);
    /* every send first (64 KiB at most: the socket holds it), then the
     * server reads them as it would QEMU's, up to the end of the stream */
    while (in.left) {
        size_t len = fuzz_take(&in, 1);
        int nfds = fuzz_take(&in, 1) % 10;

        len = MIN(len, in.left);
        if (!len || !send_chunk(sv[0], in.p, len, nfds)) {
            break;
        }
        in.p += len;
        in.left -= len;
    }
    shutdown(sv[0], SHUT_WR);
    for (;;) {
        g_autoptr(GError) err = NULL;
        int r = mpqemu_server_handle_one(srv, &err);

        while (recv(sv[0], drain, sizeof(drain), MSG_DONTWAIT) > 0) {
        }
        if (r <= 0) {
            break;
        }
    }
    mpqemu_server_free(srv);
    close(sv[0]);
    nv50_free(card);
    gemu_clock_destroy(&clk);
    return 0;
}
