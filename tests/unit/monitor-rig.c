/*
 * Driving a monitor from a test as a machine's loop does (socketpair or
 * pipes standing in for stdio): tests/unit/monitor-rig.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "monitor-rig.h"
#include <check.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

void mrig_set_nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/*
 * One round of a machine's loop: the monitor's fds plus @cfd (the
 * client's end, a foreign fd the monitor must ignore) polled together;
 * what arrived on @cfd is appended to @got (unless NULL).
 */
void mrig_step(Monitor *mon, int cfd, GString *got)
{
    struct pollfd fds[MONITOR_MAX_POLLFDS + 1];
    int n = monitor_pollfds(mon, fds, MONITOR_MAX_POLLFDS);

    ck_assert_int_ge(n, 0);
    ck_assert_int_le(n, MONITOR_MAX_POLLFDS);
    if (cfd >= 0 && got) {
        fds[n++] = (struct pollfd) { .fd = cfd, .events = POLLIN };
    }
    if (n) {
        poll(fds, n, 20);
    }
    monitor_dispatch(mon, fds, n);
    if (cfd >= 0 && got) {
        char buf[4096];
        ssize_t r;

        while ((r = read(cfd, buf, sizeof(buf))) > 0) {
            g_string_append_len(got, buf, r);
        }
    }
}

unsigned mrig_count(const char *hay, const char *needle)
{
    unsigned n = 0;

    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) {
        n++;
    }
    return n;
}

/* Step until @nprompts prompts arrived on @rfd; returns all that came. */
char *mrig_until_prompts(Monitor *mon, int rfd, unsigned nprompts)
{
    GString *got = g_string_new(NULL);

    for (int i = 0; i < 500 && mrig_count(got->str, PROMPT) < nprompts; i++) {
        mrig_step(mon, rfd, got);
    }
    ck_assert_msg(mrig_count(got->str, PROMPT) == nprompts &&
                  g_str_has_suffix(got->str, PROMPT),
                  "expected %u prompts, got '%s'", nprompts, got->str);
    return g_string_free(got, FALSE);
}

/* Write @len bytes to @wfd, stepping the monitor while it is full. */
void mrig_send_all(Monitor *mon, int wfd, int rfd, const char *data,
                     size_t len, GString *got)
{
    mrig_set_nonblock(wfd);
    for (int i = 0; len && i < 10000; i++) {
        ssize_t r = write(wfd, data, len);

        if (r > 0) {
            data += r;
            len -= r;
        } else {
            mrig_step(mon, rfd, got);
        }
    }
    ck_assert_uint_eq(len, 0);
}

/* Send @line (with its line end), return the answer up to the prompt. */
char *mrig_cmd(Monitor *mon, int wfd, int rfd, const char *line)
{
    mrig_send_all(mon, wfd, rfd, line, strlen(line), NULL);
    return mrig_until_prompts(mon, rfd, 1);
}


/*
 * A monitor on one end of a socketpair (*mfd), standing in for stdio;
 * the test talks on the other end (*cfd).
 */
Monitor *mrig_pair(const MonitorOps *ops, void *opaque, int *cfd, int *mfd)
{
    int sv[2];
    Monitor *mon;
    g_autofree char *banner = NULL;

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    mon = monitor_new_fds(sv[0], sv[0], ops, opaque);
    ck_assert_ptr_nonnull(mon);
    mrig_set_nonblock(sv[1]);
    banner = mrig_until_prompts(mon, sv[1], 1);
    ck_assert_str_eq(banner, BANNER);
    *mfd = sv[0];
    *cfd = sv[1];
    return mon;
}

/* monitor_new_fds leaves the fds to the caller */
void mrig_pair_free(Monitor *mon, int cfd, int mfd)
{
    monitor_free(mon);
    close(mfd);
    close(cfd);
}
