/*
 * The human monitor: a QEMU-HMP-like command line ("(gemu) " prompt) on
 * standard input/output or on a UNIX socket, for looking at a running
 * machine (info display, screendump) and ending it (quit).
 *
 * It knows no machine: the machine hands it MonitorOps (its display
 * consoles and a way to quit) and drives it from its own poll() loop --
 * no threads.  See docs/devel/monitor.md (API) and docs/monitor.md
 * (commands).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef MONITOR_MONITOR_H
#define MONITOR_MONITOR_H

#include "gemu/osdep.h"
#include "ui/console.h"

#include <poll.h>

typedef struct Monitor Monitor;

/*
 * A command: the built-in ones and a machine's own (MonitorOps.commands,
 * MonitorOps.info) alike.  @run gets the words of the line (argv[0] the
 * command's name; for "info" tables the sub-command's), at least
 * @min_args and at most @max_args after it, and appends its answer
 * (lines ending in '\n', errors included) to @out.  A machine's command
 * runs in monitor_dispatch(), on the machine's loop, with the machine's
 * opaque.
 */
typedef struct MonitorCommand {
    const char *name;           /* "quit|q": name and aliases */
    const char *params;         /* for help: "FILE.png [CONSOLE]" */
    const char *help;
    int min_args, max_args;     /* not counting the command name */
    void (*run)(void *opaque, GString *out, int argc, char **argv);
} MonitorCommand;

typedef struct MonitorOps {
    /*
     * Display console @index (0, 1, ...), or NULL past the last one.
     * Asked afresh by every command, so consoles may come and go.
     * NULL hook: the machine has no display.
     */
    DisplayConsole *(*console)(void *opaque, int index);
    /*
     * Bring console @index up to date before it is read (screendump):
     * the machine finishes the drawing it has been asked for and shows
     * the result now rather than at its next refresh.  NULL hook: the
     * console is always current.
     */
    void (*refresh)(void *opaque, int index);
    /*
     * The user asked the machine to end ("quit").  Called from
     * monitor_dispatch(); the machine should leave its main loop soon
     * and then call monitor_free().  NULL hook: "quit" answers an error.
     */
    void (*quit)(void *opaque);
    /*
     * The machine's own commands and "info" sub-commands ({ NULL }-ended
     * tables, or NULL): listed by "help" after the built-in ones, which
     * win on a name both have.
     */
    const MonitorCommand *commands;
    const MonitorCommand *info;
    /* what those commands get as opaque (NULL: the machine's opaque) */
    void *commands_opaque;
} MonitorOps;

/*
 * For a machine's "x"/"xp": QEMU HMP's /FMT -- /COUNT, a format (x hex,
 * d signed, u unsigned, f float) and a unit size (b h w g), e.g. /8xw.
 * At most MONITOR_MEMDUMP_MAX bytes at once.
 */
#define MONITOR_MEMDUMP_MAX 4096
typedef struct MonitorMemFmt {
    unsigned count;
    char format;                /* 'x', 'd', 'u', 'f' */
    unsigned size;              /* 1, 2, 4, 8 */
} MonitorMemFmt;

/* Parse "/FMT" (defaults /1xw); false with *err (g_free) if malformed. */
bool monitor_memfmt_parse(const char *arg, MonitorMemFmt *f, char **err);
/* @f->count units of @buf (little-endian), @addr on each line's left. */
void monitor_memdump(GString *out, uint64_t addr, const uint8_t *buf,
                     const MonitorMemFmt *f);

/* monitor_pollfds() never fills more entries than this. */
#define MONITOR_MAX_POLLFDS 2

/* Longest command line accepted, in bytes, without its line end. */
#define MONITOR_LINE_MAX 4096

/*
 * A monitor on @spec:
 *   "stdio"             commands from stdin, answers on stdout;
 *   "unix:PATH[,OPT]*"  a listening UNIX socket at PATH (QEMU's spelling:
 *                       OPT "server", "server=on", "nowait", "wait=off"
 *                       are accepted and change nothing -- gemu always
 *                       listens and never waits; ",," in PATH is a comma);
 *   "none"              no monitor (polls nothing).
 * A stale socket file at PATH (nobody listening) is replaced; any other
 * file, or a socket somebody is listening on, is refused.  @ops and
 * @opaque must outlive the monitor.  NULL with *err (g_free) on error.
 */
Monitor *monitor_new(const char *spec, const MonitorOps *ops, void *opaque,
                     char **err);

/*
 * A monitor reading @in_fd and answering on @out_fd (may be the same
 * fd, e.g. one end of a socketpair), as "stdio" does with 0 and 1.  The
 * fds stay the caller's: monitor_free() does not close them.  For tests
 * and embedding.
 */
Monitor *monitor_new_fds(int in_fd, int out_fd, const MonitorOps *ops,
                         void *opaque);

/*
 * Close the monitor: pending output is written if that can be done
 * without blocking, a client is disconnected, and the socket file the
 * monitor created is removed.  NULL is fine.
 */
void monitor_free(Monitor *mon);

/*
 * Fill @fds (room for @max entries; MONITOR_MAX_POLLFDS is always
 * enough) with what the monitor waits for; returns how many were
 * filled.  Call before every poll(): the set changes as clients come
 * and go and output is queued.
 */
int monitor_pollfds(Monitor *mon, struct pollfd *fds, int max);

/*
 * Handle what poll() reported.  @fds/@n may be the machine's whole
 * array: entries whose fd is not the monitor's are ignored.  Reads,
 * runs the commands whose lines are complete, writes; never blocks.
 * May call ops->quit.
 */
void monitor_dispatch(Monitor *mon, const struct pollfd *fds, int n);

/* True once "quit" ran (the machine may check this instead of a flag). */
bool monitor_quit_requested(const Monitor *mon);

/*
 * Where the monitor listens, for messages ("stdio", "unix:PATH",
 * "none", "fd:IN,OUT").
 */
const char *monitor_describe(const Monitor *mon);

#endif
