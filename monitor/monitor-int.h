/*
 * Inside the monitor: what monitor.c (I/O, connections) and commands.c
 * (the commands) share.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MONITOR_MONITOR_INT_H
#define MONITOR_MONITOR_INT_H

#include "monitor/monitor.h"

/*
 * Run one command line (no line end, NUL-free) for the machine behind
 * @ops/@opaque; its answer is appended to @out.  True if the line was
 * "quit" and the machine's quit hook has been called.
 */
bool monitor_command_line(const MonitorOps *ops, void *opaque,
                          const char *line, GString *out);

#endif
