/*
 * A small client for QEMU's QMP socket, as the g84 machine uses it: keys
 * typed into gemu's window go to the guest with "input-send-event".
 * Never blocks: the socket is non-blocking and the machine's poll loop
 * drives it (qmp_client_pollfd / qmp_client_dispatch / qmp_client_tick).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_REMOTE_QMP_H
#define HW_REMOTE_QMP_H

#include "gemu/osdep.h"

#include <poll.h>

/* How often to try the socket again while QEMU is starting. */
#define QMP_RETRY_MS        100
/* Queued output at most; key events beyond it are dropped. */
#define QMP_OUT_MAX         8192
/* A reply line longer than this is skipped. */
#define QMP_LINE_MAX        65536

typedef enum QmpState {
    QMP_STATE_CONNECTING,   /* the socket is not there yet */
    QMP_STATE_GREETING,     /* connected, waiting for {"QMP": ...} */
    QMP_STATE_NEGOTIATING,  /* qmp_capabilities sent, no reply yet */
    QMP_STATE_READY,        /* in command mode */
    QMP_STATE_GONE,         /* QEMU closed it (normal at exit): for good */
} QmpState;

typedef struct QmpClient QmpClient;

/* A client for the QMP server socket at @path; connects in tick. */
QmpClient *qmp_client_new(const char *path);
/* A client on @fd, a connected stream socket (taken over; for tests). */
QmpClient *qmp_client_new_fd(int fd);
void qmp_client_free(QmpClient *c);

/* Try to connect, at most every QMP_RETRY_MS of @now_ns. */
void qmp_client_tick(QmpClient *c, int64_t now_ns);
/* The fd and events to poll for; false if there is nothing to poll. */
bool qmp_client_pollfd(QmpClient *c, struct pollfd *pfd);
/* Handle what poll() said (@revents of the fd qmp_client_pollfd gave). */
void qmp_client_dispatch(QmpClient *c, short revents);

/*
 * Send a key event (@qcode: QEMU's QKeyCode name).  False if it was
 * dropped: not connected yet, gone, output full, or a bad name.
 */
bool qmp_client_send_key(QmpClient *c, const char *qcode, bool down);
/* The same as a DisplayKeyFn (@opaque: the client). */
void qmp_client_key_handler(void *opaque, const char *qcode, bool down);

QmpState qmp_client_state(const QmpClient *c);
/* Error replies QEMU sent so far. */
unsigned qmp_client_errors(const QmpClient *c);

#endif
