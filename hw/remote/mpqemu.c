/*
 * The device side of QEMU's multi-process PCI protocol (x-pci-proxy-dev):
 * message parsing, and a server that runs one PCI function behind the
 * socket QEMU was given.  Wire facts: include/hw/remote/mpqemu.h and the
 * QEMU transport notes (shared reference qemu-transport.md, outside the
 * repository).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gemu/trace.h"
#include "hw/remote/mpqemu.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

G_DEFINE_QUARK(gemu-mpqemu-error-quark, mpqemu_error)

static const char *const cmd_names[MPQEMU_CMD_MAX] = {
    [MPQEMU_CMD_SYNC_SYSMEM] = "SYNC_SYSMEM",
    [MPQEMU_CMD_RET] = "RET",
    [MPQEMU_CMD_PCI_CFGWRITE] = "PCI_CFGWRITE",
    [MPQEMU_CMD_PCI_CFGREAD] = "PCI_CFGREAD",
    [MPQEMU_CMD_BAR_WRITE] = "BAR_WRITE",
    [MPQEMU_CMD_BAR_READ] = "BAR_READ",
    [MPQEMU_CMD_SET_IRQFD] = "SET_IRQFD",
    [MPQEMU_CMD_DEVICE_RESET] = "DEVICE_RESET",
};

const char *mpqemu_cmd_name(int cmd)
{
    return cmd >= 0 && cmd < MPQEMU_CMD_MAX ? cmd_names[cmd] : "?";
}

/* host-native loads: the protocol is QEMU's in-memory struct layout */
static uint32_t ld32(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

bool mpqemu_parse_header(const uint8_t *hdr, MPQemuMsg *msg, GError **errp)
{
    int32_t cmd = (int32_t)ld32(hdr);
    uint64_t size = ld64(hdr + 8);

    memset(msg, 0, sizeof(*msg));
    msg->num_fds = 0;
    if (cmd < 0 || cmd >= MPQEMU_CMD_MAX) {
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: unknown command %" PRId32, cmd);
        return false;
    }
    if (size > MPQEMU_MAX_PAYLOAD) {
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: %s with a payload of %" PRIu64 " bytes "
                    "(at most %d)", mpqemu_cmd_name(cmd), size,
                    MPQEMU_MAX_PAYLOAD);
        return false;
    }
    msg->cmd = cmd;
    msg->size = size;
    return true;
}

/* payload size and fd count each command must come with */
static bool expect(MPQemuMsg *msg, uint32_t size, int min_fds, int max_fds,
                   int num_fds, GError **errp)
{
    const char *name = mpqemu_cmd_name(msg->cmd);

    if (msg->size != size) {
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: %s with a payload of %u bytes (expected %u)",
                    name, msg->size, size);
        return false;
    }
    if (num_fds < min_fds || num_fds > max_fds) {
        if (min_fds == max_fds) {
            g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: %s with %d file "
                        "descriptors (expected %d)", name, num_fds, min_fds);
        } else {
            g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: %s with %d file "
                        "descriptors (expected %d to %d)", name, num_fds,
                        min_fds, max_fds);
        }
        return false;
    }
    return true;
}

bool mpqemu_parse_payload(MPQemuMsg *msg, const uint8_t *payload,
                          const int *fds, int num_fds, GError **errp)
{
    if (num_fds < 0 || num_fds > MPQEMU_MAX_FDS) {
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: %s with %d file descriptors (at most %d)",
                    mpqemu_cmd_name(msg->cmd), num_fds, MPQEMU_MAX_FDS);
        return false;
    }
    switch (msg->cmd) {
    case MPQEMU_CMD_SYNC_SYSMEM:
        if (!expect(msg, MPQEMU_SIZE_SYSMEM, 1, MPQEMU_MAX_FDS, num_fds,
                    errp)) {
            return false;
        }
        for (int i = 0; i < MPQEMU_MAX_FDS; i++) {
            msg->u.sysmem.gpas[i] = ld64(payload + 8 * i);
            msg->u.sysmem.sizes[i] = ld64(payload + 64 + 8 * i);
            msg->u.sysmem.offsets[i] = (int64_t)ld64(payload + 128 + 8 * i);
        }
        for (int i = 0; i < num_fds; i++) {
            uint64_t gpa = msg->u.sysmem.gpas[i];
            uint64_t sz = msg->u.sysmem.sizes[i];

            if (!sz || gpa + sz < gpa || msg->u.sysmem.offsets[i] < 0 ||
                sz > SIZE_MAX) {
                g_set_error(errp, MPQEMU_ERROR, 0,
                            "mpqemu: SYNC_SYSMEM region %d is invalid "
                            "(gpa 0x%" PRIx64 ", size 0x%" PRIx64
                            ", offset %" PRId64 ")", i, gpa, sz,
                            msg->u.sysmem.offsets[i]);
                return false;
            }
        }
        break;
    case MPQEMU_CMD_RET:
        if (!expect(msg, MPQEMU_SIZE_RET, 0, 0, num_fds, errp)) {
            return false;
        }
        msg->u.u64 = ld64(payload);
        break;
    case MPQEMU_CMD_PCI_CFGWRITE:
    case MPQEMU_CMD_PCI_CFGREAD:
        if (!expect(msg, MPQEMU_SIZE_CONF, 0, 0, num_fds, errp)) {
            return false;
        }
        msg->u.conf.addr = ld32(payload);
        msg->u.conf.val = ld32(payload + 4);
        msg->u.conf.len = (int32_t)ld32(payload + 8);
        break;
    case MPQEMU_CMD_BAR_WRITE:
    case MPQEMU_CMD_BAR_READ:
        if (!expect(msg, MPQEMU_SIZE_BAR, 0, 0, num_fds, errp)) {
            return false;
        }
        msg->u.bar.addr = ld64(payload);
        msg->u.bar.val = ld64(payload + 8);
        msg->u.bar.size = ld32(payload + 16);
        msg->u.bar.memory = payload[20] != 0;
        break;
    case MPQEMU_CMD_SET_IRQFD:
        if (!expect(msg, 0, 2, 2, num_fds, errp)) {
            return false;
        }
        break;
    case MPQEMU_CMD_DEVICE_RESET:
        if (!expect(msg, 0, 0, 0, num_fds, errp)) {
            return false;
        }
        break;
    default:
        g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: unknown command %d",
                    (int)msg->cmd);
        return false;
    }
    for (int i = 0; i < num_fds; i++) {
        msg->fds[i] = fds[i];
    }
    msg->num_fds = num_fds;
    return true;
}

size_t mpqemu_encode_ret(uint8_t *buf, uint64_t val)
{
    int32_t cmd = MPQEMU_CMD_RET;
    uint64_t size = MPQEMU_SIZE_RET;

    memset(buf, 0, MPQEMU_HDR_SIZE);
    memcpy(buf, &cmd, 4);
    memcpy(buf + 8, &size, 8);
    memcpy(buf + MPQEMU_HDR_SIZE, &val, 8);
    return MPQEMU_HDR_SIZE + MPQEMU_SIZE_RET;
}

/* --- the server --- */

static void signal_intx(MPQemuServer *srv)
{
    uint64_t one = 1;

    if (srv->intx_fd >= 0) {
        if (write(srv->intx_fd, &one, sizeof(one)) == sizeof(one)) {
            srv->irq_signals++;
        }
    }
}

static void server_intx_notify(void *opaque, int n, int level)
{
    MPQemuServer *srv = opaque;
    int old = srv->level;

    srv->level = level;
    /* QEMU's remote semantics: signal rising edges; deassert is silent */
    if (level && !old) {
        signal_intx(srv);
    }
}

void mpqemu_server_resample(MPQemuServer *srv)
{
    uint64_t cnt;

    if (srv->resample_fd >= 0 &&
        read(srv->resample_fd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN) {
        gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: resample eventfd: %s\n",
                      strerror(errno));
    }
    if (srv->level) {
        signal_intx(srv);
    }
}

static void unmap_ram(MPQemuServer *srv)
{
    for (guint i = 0; i < srv->maps->len; i++) {
        MPQemuMapping *m = &g_array_index(srv->maps, MPQemuMapping, i);

        munmap(m->host, m->len);
    }
    g_array_set_size(srv->maps, 0);
    guest_ram_clear(srv->ram);
}

static void close_irqfds(MPQemuServer *srv)
{
    if (srv->intx_fd >= 0) {
        close(srv->intx_fd);
    }
    if (srv->resample_fd >= 0) {
        close(srv->resample_fd);
    }
    srv->intx_fd = srv->resample_fd = -1;
}

MPQemuServer *mpqemu_server_new(int fd, PCIDevice *pci,
                                MPQemuRamChanged *ram_changed, void *opaque)
{
    MPQemuServer *srv = g_new0(MPQemuServer, 1);

    srv->fd = fd;
    srv->pci = pci;
    srv->ram = guest_ram_new();
    srv->maps = g_array_new(FALSE, FALSE, sizeof(MPQemuMapping));
    srv->ram_changed = ram_changed;
    srv->opaque = opaque;
    srv->intx_fd = srv->resample_fd = -1;
    srv->level = irq_get_level(&pci->intx);
    irq_line_connect(&pci->intx, server_intx_notify, srv, 0);
    return srv;
}

void mpqemu_server_free(MPQemuServer *srv)
{
    if (!srv) {
        return;
    }
    irq_line_connect(&srv->pci->intx, NULL, NULL, 0);
    if (srv->ram_changed) {
        srv->ram_changed(srv->opaque, NULL);
    }
    unmap_ram(srv);
    guest_ram_free(srv->ram);
    g_array_free(srv->maps, TRUE);
    close_irqfds(srv);
    if (srv->fd >= 0) {
        close(srv->fd);
    }
    g_free(srv);
}

static void close_fds(const int *fds, int n)
{
    for (int i = 0; i < n; i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
}

/* Forget what was read and not handled (after an error). */
static void drop_unhandled(MPQemuServer *srv)
{
    close_fds(srv->rfds, MIN(srv->rnum_fds, MPQEMU_MAX_FDS));
    srv->rnum_fds = 0;
    srv->rlen = 0;
}

/*
 * One recvmsg into what is free of srv->rbuf (at least one whole message:
 * the caller reads only while no whole message is buffered).  Returns the
 * bytes read, 0 at end of stream, -1 on error.
 */
static ssize_t read_more(MPQemuServer *srv, GError **errp)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * MPQEMU_MAX_FDS)];
    } ctl;
    struct iovec iov = {
        .iov_base = srv->rbuf + srv->rlen,
        .iov_len = sizeof(srv->rbuf) - srv->rlen,
    };
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1,
        .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
    };
    ssize_t r;

    do {
        r = recvmsg(srv->fd, &mh, MSG_CMSG_CLOEXEC);
    } while (r < 0 && errno == EINTR);
    if (r < 0) {
        g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: socket read: %s",
                    strerror(errno));
        return -1;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        bool second = srv->rnum_fds > 0;
        int n;

        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
            continue;
        }
        n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (int i = 0; i < n; i++) {
            int fd;

            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (!second && srv->rnum_fds < MPQEMU_MAX_FDS) {
                srv->rfds[srv->rnum_fds++] = fd;
            } else {
                close(fd);
                if (!second) {
                    srv->rnum_fds = MPQEMU_MAX_FDS + 1;  /* refused */
                }
            }
        }
        if (second) {
            g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: file descriptors "
                        "for a message whose last ones were not used yet");
            return -1;
        }
        srv->rfds_end = srv->rlen + r;
    }
    if (mh.msg_flags & MSG_CTRUNC) {
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: more file descriptors than %d in a message",
                    MPQEMU_MAX_FDS);
        return -1;
    }
    srv->rlen += r;
    return r;
}

/*
 * The length of the whole message at the start of srv->rbuf, with its
 * header parsed into *msg; 0 if it is not all there yet, -1 if the header
 * is bad.
 */
static ssize_t buffered_message(const MPQemuServer *srv, MPQemuMsg *msg,
                                GError **errp)
{
    if (srv->rlen < MPQEMU_HDR_SIZE) {
        return 0;
    }
    if (!mpqemu_parse_header(srv->rbuf, msg, errp)) {
        return -1;
    }
    return srv->rlen >= MPQEMU_HDR_SIZE + msg->size
           ? (ssize_t)(MPQEMU_HDR_SIZE + msg->size) : 0;
}

bool mpqemu_server_pending(const MPQemuServer *srv)
{
    MPQemuMsg msg;

    /* a bad header counts: handle_one reports it */
    return buffered_message(srv, &msg, NULL) != 0;
}

static bool send_ret(MPQemuServer *srv, uint64_t val, GError **errp)
{
    uint8_t buf[MPQEMU_HDR_SIZE + MPQEMU_SIZE_RET];
    size_t len = mpqemu_encode_ret(buf, val), done = 0;

    gemu_trace(TRACE_MPQEMU_RET, "0x%" PRIx64, val);
    while (done < len) {
        ssize_t w = send(srv->fd, buf + done, len - done, MSG_NOSIGNAL);

        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0) {
            g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: socket write: %s",
                        strerror(errno));
            return false;
        }
        done += w;
    }
    return true;
}

static void do_sync_sysmem(MPQemuServer *srv, MPQemuMsg *msg)
{
    unmap_ram(srv);
    for (int i = 0; i < msg->num_fds; i++) {
        uint64_t gpa = msg->u.sysmem.gpas[i];
        size_t len = msg->u.sysmem.sizes[i];
        int64_t off = msg->u.sysmem.offsets[i];
        struct stat st;
        void *p;

        /*
         * A region past the end of its file would map, and the card's
         * first DMA there would take SIGBUS: refuse it (QEMU's RAM fds
         * are memfds or files, sized to the region).
         */
        if (fstat(msg->fds[i], &st) || (S_ISREG(st.st_mode) &&
            (off < 0 || len > (uint64_t)st.st_size ||
             (uint64_t)off > (uint64_t)st.st_size - len))) {
            gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: guest RAM region "
                          "[0x%" PRIx64 ", +0x%zx) at offset 0x%" PRIx64
                          " lies outside its file (no DMA there)\n",
                          gpa, len, (uint64_t)off);
            continue;
        }
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
                 msg->fds[i], off);
        if (p == MAP_FAILED) {
            gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: cannot map guest RAM "
                          "[0x%" PRIx64 ", +0x%zx): %s (no DMA there)\n",
                          gpa, len, strerror(errno));
            continue;
        }
        if (!guest_ram_add(srv->ram, gpa, len, p)) {
            gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: guest RAM region "
                          "[0x%" PRIx64 ", +0x%zx) overlaps another\n",
                          gpa, len);
            munmap(p, len);
            continue;
        }
        g_array_append_val(srv->maps, ((MPQemuMapping){ p, len }));
    }
    /* QEMU sends fresh fds every time: the mappings keep what they need */
    close_fds(msg->fds, msg->num_fds);
    if (srv->ram_changed) {
        srv->ram_changed(srv->opaque, srv->ram);
    }
}

static bool conf_ok(const MPQemuMsg *msg)
{
    int32_t len = msg->u.conf.len;

    return (len == 1 || len == 2 || len == 4) &&
           msg->u.conf.addr < PCI_CONFIG_SIZE &&
           msg->u.conf.addr + len <= PCI_CONFIG_SIZE &&
           !(msg->u.conf.addr & (len - 1));
}

static bool bar_ok(const MPQemuMsg *msg)
{
    uint32_t sz = msg->u.bar.size;

    if (sz != 1 && sz != 2 && sz != 4 && sz != 8) {
        gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: BAR access of %u bytes at "
                      "0x%" PRIx64 "\n", sz, msg->u.bar.addr);
        return false;
    }
    if (!msg->u.bar.memory) {
        gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: I/O port access at 0x%"
                      PRIx64 " (the function has no I/O BAR)\n",
                      msg->u.bar.addr);
        return false;
    }
    return true;
}

/* An access that reaches the function, between the hook's two calls. */
static uint64_t device_access(MPQemuServer *srv, const MPQemuMsg *msg)
{
    PCIDevice *pci = srv->pci;
    uint64_t ret = 0;

    if (srv->hook) {
        srv->hook(srv->hook_opaque, msg, false, 0);
    }
    switch (msg->cmd) {
    case MPQEMU_CMD_PCI_CFGREAD:
        ret = pci_config_read(pci, msg->u.conf.addr, msg->u.conf.len);
        break;
    case MPQEMU_CMD_PCI_CFGWRITE:
        pci_config_write(pci, msg->u.conf.addr, msg->u.conf.val,
                         msg->u.conf.len);
        break;
    case MPQEMU_CMD_BAR_READ:
        ret = pci_mmio_read(pci, msg->u.bar.addr, msg->u.bar.size);
        break;
    case MPQEMU_CMD_BAR_WRITE:
        pci_mmio_write(pci, msg->u.bar.addr, msg->u.bar.val,
                       msg->u.bar.size);
        break;
    default:        /* MPQEMU_CMD_DEVICE_RESET */
        device_reset(DEVICE(pci));
        break;
    }
    if (srv->hook) {
        srv->hook(srv->hook_opaque, msg, true, ret);
    }
    return ret;
}

static bool dispatch(MPQemuServer *srv, MPQemuMsg *msg, GError **errp)
{
    switch (msg->cmd) {
    case MPQEMU_CMD_SYNC_SYSMEM:
        do_sync_sysmem(srv, msg);
        return true;
    case MPQEMU_CMD_SET_IRQFD:
        close_irqfds(srv);
        srv->intx_fd = msg->fds[0];
        srv->resample_fd = msg->fds[1];
        if (srv->level) {
            signal_intx(srv);
        }
        return true;
    case MPQEMU_CMD_PCI_CFGREAD:
    case MPQEMU_CMD_PCI_CFGWRITE:
        if (!conf_ok(msg)) {
            gemu_log_mask(LOG_GUEST_ERROR, "mpqemu: bad config %s of %d "
                          "bytes at 0x%x\n",
                          msg->cmd == MPQEMU_CMD_PCI_CFGREAD ? "read"
                                                             : "write",
                          msg->u.conf.len, msg->u.conf.addr);
            return send_ret(srv, MPQEMU_RET_ERROR, errp);
        }
        return send_ret(srv, device_access(srv, msg), errp);
    case MPQEMU_CMD_BAR_READ:
        if (!bar_ok(msg)) {
            return send_ret(srv, MPQEMU_RET_ERROR, errp);
        }
        return send_ret(srv, device_access(srv, msg), errp);
    case MPQEMU_CMD_BAR_WRITE:
        if (bar_ok(msg)) {
            device_access(srv, msg);
        }
        return send_ret(srv, 0, errp);
    case MPQEMU_CMD_DEVICE_RESET:
        device_access(srv, msg);
        return send_ret(srv, 0, errp);
    case MPQEMU_CMD_RET:
    default:
        g_set_error(errp, MPQEMU_ERROR, 0,
                    "mpqemu: unexpected %s from QEMU",
                    mpqemu_cmd_name(msg->cmd));
        return false;
    }
}

int mpqemu_server_handle_one(MPQemuServer *srv, GError **errp)
{
    int fds[MPQEMU_MAX_FDS + 1] = { 0 };
    int num_fds = 0;
    MPQemuMsg msg;
    ssize_t len;

    while ((len = buffered_message(srv, &msg, errp)) == 0) {
        ssize_t r = read_more(srv, errp);

        if (r < 0) {
            drop_unhandled(srv);
            return -1;
        }
        if (r == 0) {
            size_t had = srv->rlen;

            drop_unhandled(srv);
            if (had == 0) {
                return 0;
            }
            g_set_error(errp, MPQEMU_ERROR, 0, "mpqemu: connection closed "
                        "in the middle of a message (%zu bytes of it)", had);
            return -1;
        }
    }
    if (len < 0) {
        drop_unhandled(srv);
        return -1;
    }
    /* the fds are this message's if they came with one of its bytes */
    if (srv->rnum_fds && srv->rfds_end <= (size_t)len) {
        num_fds = srv->rnum_fds;
        memcpy(fds, srv->rfds, sizeof(fds));
        srv->rnum_fds = 0;
    }
    if (!mpqemu_parse_payload(&msg, srv->rbuf + MPQEMU_HDR_SIZE, fds,
                              num_fds, errp)) {
        close_fds(fds, MIN(num_fds, MPQEMU_MAX_FDS));
        drop_unhandled(srv);
        return -1;
    }
    srv->rlen -= len;
    memmove(srv->rbuf, srv->rbuf + len, srv->rlen);
    srv->rfds_end -= srv->rnum_fds ? len : 0;
    srv->messages++;
    if (trace_enabled(TRACE_MPQEMU_MSG)) {
        if (msg.cmd == MPQEMU_CMD_BAR_READ ||
            msg.cmd == MPQEMU_CMD_BAR_WRITE) {
            gemu_trace_emit(TRACE_MPQEMU_MSG, "%s addr 0x%" PRIx64
                            " size %u val 0x%" PRIx64,
                            mpqemu_cmd_name(msg.cmd), msg.u.bar.addr,
                            msg.u.bar.size, msg.u.bar.val);
        } else if (msg.cmd == MPQEMU_CMD_PCI_CFGREAD ||
                   msg.cmd == MPQEMU_CMD_PCI_CFGWRITE) {
            gemu_trace_emit(TRACE_MPQEMU_MSG, "%s addr 0x%x len %d "
                            "val 0x%x", mpqemu_cmd_name(msg.cmd),
                            msg.u.conf.addr, msg.u.conf.len,
                            msg.u.conf.val);
        } else {
            gemu_trace_emit(TRACE_MPQEMU_MSG, "%s size %u fds %d",
                            mpqemu_cmd_name(msg.cmd), msg.size,
                            msg.num_fds);
        }
    }
    if (msg.cmd == MPQEMU_CMD_BAR_READ || msg.cmd == MPQEMU_CMD_BAR_WRITE) {
        gemu_log_mask(LOG_TRACE_MMIO, "mpqemu: %s 0x%" PRIx64 " size %u"
                      " val 0x%" PRIx64 "\n", mpqemu_cmd_name(msg.cmd),
                      msg.u.bar.addr, msg.u.bar.size, msg.u.bar.val);
    }
    return dispatch(srv, &msg, errp) ? 1 : -1;
}
