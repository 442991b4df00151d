/*
 * Driving a monitor from a test (tests/unit/monitor-rig.c): the test
 * machine's side of a socketpair or pipes, stepping the monitor as a
 * machine's poll() loop does.  Used by the monitor suite and by the
 * device suites' monitor commands.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_UNIT_MONITOR_RIG_H
#define TESTS_UNIT_MONITOR_RIG_H

#include "monitor/monitor.h"

#define PROMPT      "(gemu) "
#define BANNER      "gemu " GEMU_VERSION " monitor - type 'help' for more " \
                    "information\n" PROMPT

void mrig_set_nonblock(int fd);
/*
 * One round of a machine's loop: the monitor's fds plus @cfd (the
 * client's end, a foreign fd the monitor must ignore) polled together;
 * what arrived on @cfd is appended to @got (unless NULL).
 */
void mrig_step(Monitor *mon, int cfd, GString *got);
/* How many times @needle occurs in @hay. */
unsigned mrig_count(const char *hay, const char *needle);
/* Step until @nprompts prompts arrived on @rfd; returns all that came. */
char *mrig_until_prompts(Monitor *mon, int rfd, unsigned nprompts);
/* Write @len bytes to @wfd, stepping the monitor while it is full. */
void mrig_send_all(Monitor *mon, int wfd, int rfd, const char *data,
                   size_t len, GString *got);
/* Send @line (with its line end), return the answer up to the prompt. */
char *mrig_cmd(Monitor *mon, int wfd, int rfd, const char *line);
/*
 * A monitor for @ops/@opaque on one end of a socketpair (*mfd), standing
 * in for stdio; the test talks on the other end (*cfd).  The banner has
 * been read.
 */
Monitor *mrig_pair(const MonitorOps *ops, void *opaque, int *cfd, int *mfd);
/* monitor_new_fds leaves the fds to the caller: free all three */
void mrig_pair_free(Monitor *mon, int cfd, int mfd);

#define ck_cmd(mon, wfd, rfd, line, answer) do {                        \
        g_autofree char *got_ = mrig_cmd(mon, wfd, rfd, line);          \
        ck_assert_str_eq(got_, answer PROMPT);                          \
    } while (0)

#endif
