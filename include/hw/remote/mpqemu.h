/*
 * The device side of QEMU's multi-process PCI protocol ("mpqemu", used by
 * QEMU 6.0-7.2's -device x-pci-proxy-dev,fd=N).
 *
 * QEMU is always the requester: it sends a 16-byte header (int32 command,
 * 4 bytes padding, u64 payload size) and the payload, with file descriptors
 * as SCM_RIGHTS; the device answers some commands with RET (a u64).  The
 * layout is host-native (x86_64 here).  Facts measured on Debian's QEMU
 * 7.2 are in the QEMU transport notes (shared reference
 * qemu-transport.md, outside the repository).
 *
 * The parser (mpqemu_parse_header, mpqemu_parse_payload) is pure so that
 * malformed input can be tested; MPQemuServer runs one PCI function
 * behind a connected socket.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_REMOTE_MPQEMU_H
#define HW_REMOTE_MPQEMU_H

#include "gemu/osdep.h"
#include "hw/core/dma.h"
#include "hw/pci/pci.h"

/* wire values, in the order of QEMU's enum */
typedef enum MPQemuCmd {
    MPQEMU_CMD_SYNC_SYSMEM = 0,
    MPQEMU_CMD_RET = 1,
    MPQEMU_CMD_PCI_CFGWRITE = 2,
    MPQEMU_CMD_PCI_CFGREAD = 3,
    MPQEMU_CMD_BAR_WRITE = 4,
    MPQEMU_CMD_BAR_READ = 5,
    MPQEMU_CMD_SET_IRQFD = 6,
    MPQEMU_CMD_DEVICE_RESET = 7,
    MPQEMU_CMD_MAX,
} MPQemuCmd;

#define MPQEMU_HDR_SIZE         16
#define MPQEMU_MAX_PAYLOAD      192     /* the largest member: SYNC_SYSMEM */
#define MPQEMU_MAX_FDS          8
#define MPQEMU_SIZE_CONF        12      /* u32 addr, u32 val, i32 len */
#define MPQEMU_SIZE_BAR         24      /* u64 addr, u64 val, u32 size, u8 mem */
#define MPQEMU_SIZE_SYSMEM      192     /* u64 gpas[8], sizes[8], offsets[8] */
#define MPQEMU_SIZE_RET         8
#define MPQEMU_RET_ERROR        UINT64_MAX

typedef struct MPQemuMsg {
    MPQemuCmd cmd;
    uint32_t size;              /* payload bytes */
    union {
        uint64_t u64;           /* RET */
        struct {
            uint32_t addr;
            uint32_t val;
            int32_t len;
        } conf;                 /* PCI_CFGREAD / PCI_CFGWRITE */
        struct {
            uint64_t addr;      /* guest-physical address (or I/O port) */
            uint64_t val;
            uint32_t size;
            bool memory;        /* false: an I/O BAR */
        } bar;                  /* BAR_READ / BAR_WRITE */
        struct {
            uint64_t gpas[MPQEMU_MAX_FDS];
            uint64_t sizes[MPQEMU_MAX_FDS];
            int64_t offsets[MPQEMU_MAX_FDS];
        } sysmem;               /* SYNC_SYSMEM: region i backed by fds[i] */
    } u;
    int fds[MPQEMU_MAX_FDS];
    int num_fds;
} MPQemuMsg;

GQuark mpqemu_error_quark(void);
#define MPQEMU_ERROR mpqemu_error_quark()

const char *mpqemu_cmd_name(int cmd);

/*
 * Check a 16-byte header: command and payload size.  Fills msg->cmd and
 * msg->size; false with *errp set if the header is malformed (the stream
 * cannot be trusted after that).
 */
bool mpqemu_parse_header(const uint8_t *hdr, MPQemuMsg *msg, GError **errp);

/*
 * Decode the payload of a message whose header passed, with the fds that
 * came with it (copied into msg; the caller still owns them and closes
 * them when this fails).  Checks that the size and the fd count fit the
 * command and that the fields are sane.
 */
bool mpqemu_parse_payload(MPQemuMsg *msg, const uint8_t *payload,
                          const int *fds, int num_fds, GError **errp);

/* Encode a RET reply (header + u64) into buf; returns the length. */
size_t mpqemu_encode_ret(uint8_t *buf, uint64_t val);

/* One guest RAM region mapped from a SYNC_SYSMEM fd. */
typedef struct MPQemuMapping {
    void *host;
    size_t len;
} MPQemuMapping;

typedef struct MPQemuServer MPQemuServer;

/*
 * Told of every access that reaches the function (a well-formed BAR or
 * config read or write, a DEVICE_RESET): before it (done false) and
 * after it (done true, @ret what a read returned).  -clock virtual moves
 * the card's time before; -record writes the access after.
 */
typedef void MPQemuAccessHook(void *opaque, const MPQemuMsg *msg, bool done,
                              uint64_t ret);

/* Called after every SYNC_SYSMEM with the new guest RAM map. */
typedef void MPQemuRamChanged(void *opaque, GuestRAM *ram);

struct MPQemuServer {
    int fd;                     /* connected socket (owned) */
    PCIDevice *pci;             /* the function served (not owned) */
    GuestRAM *ram;              /* what SYNC_SYSMEM mapped (owned) */
    GArray *maps;               /* of MPQemuMapping */
    MPQemuRamChanged *ram_changed;
    void *opaque;
    int intx_fd;                /* -1 until SET_IRQFD */
    int resample_fd;
    int level;                  /* INTx as the function drives it */
    uint64_t irq_signals;       /* eventfd writes (for tests) */
    MPQemuAccessHook *hook;     /* NULL: none */
    void *hook_opaque;
    uint64_t messages;
    /*
     * What was read but not handled yet: one recvmsg takes a message's
     * header and payload at once, and sometimes the start of the next
     * (QEMU does not wait for an answer to SYNC_SYSMEM or SET_IRQFD).
     * File descriptors come with the last byte a recvmsg returns (the
     * kernel ends a read after the data they were sent with, and QEMU
     * sends each message with one sendmsg), so they belong to the
     * message that holds byte rfds_end - 1.
     */
    uint8_t rbuf[2 * (MPQEMU_HDR_SIZE + MPQEMU_MAX_PAYLOAD)];
    size_t rlen;
    int rfds[MPQEMU_MAX_FDS + 1];
    int rnum_fds;               /* MPQEMU_MAX_FDS + 1: too many (refused) */
    size_t rfds_end;
};

/*
 * Serve pci on fd (which the server owns from now on).  The function's
 * INTx line is connected to the eventfds SET_IRQFD hands over.
 */
MPQemuServer *mpqemu_server_new(int fd, PCIDevice *pci,
                                MPQemuRamChanged *ram_changed, void *opaque);
void mpqemu_server_free(MPQemuServer *srv);

/*
 * Read and handle one message (blocks until it is complete).  Returns 1
 * after a message, 0 on a clean end of stream (QEMU went away) and -1 with
 * *errp set on a malformed message or a socket error.
 */
int mpqemu_server_handle_one(MPQemuServer *srv, GError **errp);

/*
 * A whole message is already read and waits to be handled: call
 * mpqemu_server_handle_one even though the socket may not be readable.
 */
bool mpqemu_server_pending(const MPQemuServer *srv);

/* The resample eventfd fired: re-signal INTx if it is still asserted. */
void mpqemu_server_resample(MPQemuServer *srv);

#endif
