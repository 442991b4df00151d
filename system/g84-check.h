/*
 * Checks without a person (system/g84-check.c, g84-summary.c):
 * -screendump at chosen moments, -compare with golden images, the
 * guest's control line (its second serial port: -guest-run's status,
 * gemu-screendump's requests), the console seen for -summary's JSON.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_CHECK_H
#define SYSTEM_G84_CHECK_H

#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include "machines.h"

#include <poll.h>

/* gemu's exit status when a screendump differs from its golden image */
#define G84_EXIT_FRAMES_DIFFER  122

typedef enum G84DumpWhen {
    G84_DUMP_EXIT,              /* when QEMU has ended (the default) */
    G84_DUMP_RUN,               /* when -guest-run's command has ended */
    G84_DUMP_FRAME,             /* at head 0's frame (vblank) N */
    G84_DUMP_REQUEST,           /* at the guest's gemu-screendump [NAME] */
} G84DumpWhen;

typedef struct G84Dump {
    G84DumpWhen when;
    uint64_t frame;             /* frame:N */
    char *request;              /* request:NAME; NULL: every request */
    char *file;                 /* OUT.png; "%d": the how-manyth dump */
    char *golden;               /* compare= or -compare; NULL: none */
    unsigned taken;
} G84Dump;

typedef struct G84Checks {
    G84Dump *dumps;
    int ndumps;
    int tolerance;              /* -compare-tolerance, 0-255 */
    int64_t t0;                 /* monotonic us at the start */
    int ctl_fd;                 /* gemu's end of the guest's ttyS1; -1 */
    int ctl_qemu;               /* QEMU's end, until QEMU has it; -1 */
    GString *ctl_in;            /* what came of a line so far */
    /*
     * -summary: the console through gemu, on two FIFOs in con_dir
     * (QEMU's "pipe" chardev): con.out, what the guest prints, read at
     * con_fd; con.in, what gemu's stdin sends it, written at con_in.
     * FIFOs, not a socket: QEMU's serial port writes a byte at a time,
     * and a socket's buffer fills after a few hundred of them (each
     * byte is a buffer of its own), after which QEMU retries the guest's
     * output on host time -- a run under -clock virtual would no longer
     * repeat.  A FIFO holds 64 KiB of such bytes.
     */
    char *con_dir;
    int con_fd;
    int con_in;
    bool con_stdin;             /* stdin goes to the console */
    bool con_seen;              /* gemu carries the console (-summary) */
    GString *con_line;
    GPtrArray *nouveau_errors;  /* console lines */
    GString *results;           /* the screendumps, JSON objects */
    unsigned compared, differing, failed;
    int worst;                  /* the worst pixel difference; -1: none */
    /* -clock virtual's clock jumps, at the guest's polls and on host
       time (g84-record.c); -1: not under -clock virtual */
    int64_t poll_jumps, host_jumps;
    int run_status;             /* -guest-run's, -1 until it comes */
    int64_t frame;              /* head 0's frame at this dump; -1 */
} G84Checks;

/*
 * From OPTS (-screendump, -compare, -compare-tolerance, -summary): false
 * with *err set if something is malformed or missing (a golden image that
 * cannot be read), before anything boots.
 */
bool g84_checks_init(G84Checks *c, const MachineOptions *opts, char **err);
void g84_checks_free(G84Checks *c);
/*
 * The guest's serial ports onto ARGS (QEMU's): the console (ttyS0) on
 * gemu's stdio (with MON_STDIO only its output), through gemu when
 * CONSOLE (-summary sees its lines); the control line (ttyS1).
 */
bool g84_checks_serial(G84Checks *c, GPtrArray *args, bool mon_stdio,
                       bool console, char **err);
/* QEMU's end of the control line: kept open across exec (CHILD), or
   closed (the console's FIFOs QEMU opens by name). */
void g84_checks_qemu_fds(G84Checks *c, bool child);
/* Its file descriptors to poll; how many were put in PFD (at most 3). */
int g84_checks_pollfds(G84Checks *c, struct pollfd *pfd);
/* What came on them (PFD: as g84_checks_pollfds filled it). */
void g84_checks_dispatch(G84Checks *c, NV50State *card,
                         const struct pollfd *pfd, int n);
/* Between messages: the frame:N screendumps whose frame has come. */
void g84_checks_tick(G84Checks *c, NV50State *card);
/* QEMU has ended: what is left on the lines, the at-exit screendumps. */
void g84_checks_end(G84Checks *c, NV50State *card);
/*
 * gemu's exit status from STATUS (the guest's or QEMU's) and the checks:
 * STATUS if non-zero, else 1 if a screendump failed, else
 * G84_EXIT_FRAMES_DIFFER if one differs.  -summary's file is written.
 */
int g84_checks_status(G84Checks *c, const MachineOptions *opts,
                      int status);

/* g84-summary.c: the console's lines, and -summary's JSON */
void g84_summary_console(G84Checks *c, const char *buf, size_t len);
bool g84_summary_write(const G84Checks *c, const char *path, int status,
                       char **err);
/* JSON string S (any bytes: invalid UTF-8 is replaced) onto OUT */
void g84_json_string(GString *out, const char *s);

#endif
