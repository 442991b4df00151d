/*
 * QEMU's multi-process protocol, device side: the parser with malformed
 * messages, and the server driven over a socketpair as QEMU 7.2's
 * x-pci-proxy-dev drives it (config cycles, BAR sizing, guest-physical
 * BAR accesses, SYNC_SYSMEM, SET_IRQFD, DEVICE_RESET, QEMU going away).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/remote/mpqemu.h"
#include <check.h>

#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static void put_hdr(uint8_t *b, int32_t cmd, uint64_t size)
{
    memset(b, 0, MPQEMU_HDR_SIZE);
    memcpy(b, &cmd, 4);
    memcpy(b + 8, &size, 8);
}

START_TEST(test_header_malformed)
{
    uint8_t h[MPQEMU_HDR_SIZE];
    MPQemuMsg m;
    GError *err = NULL;

    put_hdr(h, 8, 0);
    ck_assert(!mpqemu_parse_header(h, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "unknown command 8"));
    g_clear_error(&err);

    put_hdr(h, -1, 0);
    ck_assert(!mpqemu_parse_header(h, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "unknown command -1"));
    g_clear_error(&err);

    put_hdr(h, MPQEMU_CMD_BAR_READ, 193);
    ck_assert(!mpqemu_parse_header(h, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "193 bytes"));
    g_clear_error(&err);

    /* a huge size must not be taken as a small one */
    put_hdr(h, MPQEMU_CMD_BAR_READ, 0x100000018ull);
    ck_assert(!mpqemu_parse_header(h, &m, &err));
    g_clear_error(&err);

    put_hdr(h, MPQEMU_CMD_PCI_CFGREAD, 12);
    ck_assert(mpqemu_parse_header(h, &m, &err));
    ck_assert_int_eq(m.cmd, MPQEMU_CMD_PCI_CFGREAD);
    ck_assert_uint_eq(m.size, 12);
}
END_TEST

static bool parse(int cmd, const void *payload, uint32_t size,
                  const int *fds, int nfds, MPQemuMsg *m, GError **err)
{
    uint8_t h[MPQEMU_HDR_SIZE];

    put_hdr(h, cmd, size);
    ck_assert(mpqemu_parse_header(h, m, NULL));
    return mpqemu_parse_payload(m, payload, fds, nfds, err);
}

START_TEST(test_payload_malformed)
{
    uint8_t p[MPQEMU_MAX_PAYLOAD] = { 0 };
    int fds[MPQEMU_MAX_FDS] = { 10, 11, 12, 13, 14, 15, 16, 17 };
    uint64_t gpa = 0, sz = 0x1000;
    MPQemuMsg m;
    GError *err = NULL;

    /* a config read one byte short */
    ck_assert(!parse(MPQEMU_CMD_PCI_CFGREAD, p, 11, NULL, 0, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "PCI_CFGREAD"));
    ck_assert_ptr_nonnull(strstr(err->message, "expected 12"));
    g_clear_error(&err);

    /* fds where none belong */
    ck_assert(!parse(MPQEMU_CMD_BAR_WRITE, p, 24, fds, 1, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "1 file descriptors"));
    g_clear_error(&err);

    /* SET_IRQFD needs the INTx and the resample eventfd */
    ck_assert(!parse(MPQEMU_CMD_SET_IRQFD, p, 0, fds, 1, &m, &err));
    g_clear_error(&err);
    ck_assert(!parse(MPQEMU_CMD_SET_IRQFD, p, 8, fds, 2, &m, &err));
    g_clear_error(&err);
    ck_assert(parse(MPQEMU_CMD_SET_IRQFD, p, 0, fds, 2, &m, &err));
    ck_assert_int_eq(m.num_fds, 2);
    ck_assert_int_eq(m.fds[1], 11);

    /* SYNC_SYSMEM: no fd, a region of size 0, a region that wraps */
    ck_assert(!parse(MPQEMU_CMD_SYNC_SYSMEM, p, 192, fds, 0, &m, &err));
    g_clear_error(&err);
    ck_assert(!parse(MPQEMU_CMD_SYNC_SYSMEM, p, 192, fds, 1, &m, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "region 0"));
    g_clear_error(&err);
    gpa = ~0ull - 0x10;
    memcpy(p, &gpa, 8);
    memcpy(p + 64, &sz, 8);
    ck_assert(!parse(MPQEMU_CMD_SYNC_SYSMEM, p, 192, fds, 1, &m, &err));
    g_clear_error(&err);
    gpa = 0x100000;
    memcpy(p, &gpa, 8);
    ck_assert(parse(MPQEMU_CMD_SYNC_SYSMEM, p, 192, fds, 1, &m, &err));
    ck_assert_uint_eq(m.u.sysmem.gpas[0], 0x100000);
    ck_assert_uint_eq(m.u.sysmem.sizes[0], 0x1000);

    /* DEVICE_RESET carries nothing */
    ck_assert(!parse(MPQEMU_CMD_DEVICE_RESET, p, 8, NULL, 0, &m, &err));
    g_clear_error(&err);
    ck_assert(parse(MPQEMU_CMD_DEVICE_RESET, p, 0, NULL, 0, &m, &err));
}
END_TEST

START_TEST(test_payload_fields)
{
    uint8_t p[24] = { 0 };
    uint64_t addr = 0xfd000100, val = 0x1122334455667788ull;
    uint32_t size = 4, caddr = 0x3c, cval = 0xab;
    int32_t len = 1;
    MPQemuMsg m;

    memcpy(p, &addr, 8);
    memcpy(p + 8, &val, 8);
    memcpy(p + 16, &size, 4);
    p[20] = 1;
    ck_assert(parse(MPQEMU_CMD_BAR_WRITE, p, 24, NULL, 0, &m, NULL));
    ck_assert_uint_eq(m.u.bar.addr, addr);
    ck_assert_uint_eq(m.u.bar.val, val);
    ck_assert_uint_eq(m.u.bar.size, 4);
    ck_assert(m.u.bar.memory);

    memcpy(p, &caddr, 4);
    memcpy(p + 4, &cval, 4);
    memcpy(p + 8, &len, 4);
    ck_assert(parse(MPQEMU_CMD_PCI_CFGWRITE, p, 12, NULL, 0, &m, NULL));
    ck_assert_uint_eq(m.u.conf.addr, 0x3c);
    ck_assert_uint_eq(m.u.conf.val, 0xab);
    ck_assert_int_eq(m.u.conf.len, 1);
}
END_TEST

/* --- the server over a socketpair --- */

typedef struct Link {
    int qemu;                   /* QEMU's end */
    GemuClock clk;
    NV50State *card;
    MPQemuServer *srv;
    GuestRAM *seen_ram;
    int ram_calls;
    FILE *log;
} Link;

static Link L;

static void ram_cb(void *opaque, GuestRAM *ram)
{
    Link *l = opaque;

    l->seen_ram = ram;
    l->ram_calls++;
}

static void link_setup(void)
{
    int sv[2];

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    gemu_clock_init(&L.clk, GEMU_CLOCK_VIRTUAL);
    L.card = nv50_new(&L.clk, NULL, 0, NULL);
    ck_assert_ptr_nonnull(L.card);
    L.qemu = sv[0];
    L.srv = mpqemu_server_new(sv[1], PCI_DEVICE(L.card), ram_cb, &L);
    L.seen_ram = NULL;
    L.ram_calls = 0;
    L.log = tmpfile();
    gemu_log_set_file(L.log);
}

static void link_teardown(void)
{
    gemu_log_set_file(NULL);
    fclose(L.log);
    mpqemu_server_free(L.srv);
    if (L.qemu >= 0) {
        close(L.qemu);
    }
    nv50_free(L.card);
    gemu_clock_destroy(&L.clk);
}

static void send_msg(int cmd, const void *payload, uint64_t size,
                     const int *fds, int nfds)
{
    uint8_t h[MPQEMU_HDR_SIZE];
    struct iovec iov[2] = {
        { h, sizeof(h) }, { (void *)payload, size },
    };
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * MPQEMU_MAX_FDS)];
    } ctl;
    struct msghdr mh = { .msg_iov = iov, .msg_iovlen = size ? 2 : 1 };

    put_hdr(h, cmd, size);
    if (nfds) {
        struct cmsghdr *c;

        mh.msg_control = ctl.buf;
        mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    }
    ck_assert_int_eq(sendmsg(L.qemu, &mh, 0), (ssize_t)(sizeof(h) + size));
}

static uint64_t recv_ret(void)
{
    uint8_t b[MPQEMU_HDR_SIZE + 8];
    int32_t cmd;
    uint64_t size, val;

    ck_assert_int_eq(read(L.qemu, b, sizeof(b)), sizeof(b));
    memcpy(&cmd, b, 4);
    memcpy(&size, b + 8, 8);
    memcpy(&val, b + 16, 8);
    ck_assert_int_eq(cmd, MPQEMU_CMD_RET);
    ck_assert_uint_eq(size, 8);
    return val;
}

static uint64_t cfg(int cmd, uint32_t addr, uint32_t val, int32_t len)
{
    uint8_t p[12];

    memcpy(p, &addr, 4);
    memcpy(p + 4, &val, 4);
    memcpy(p + 8, &len, 4);
    send_msg(cmd, p, 12, NULL, 0);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    return recv_ret();
}

static uint64_t bar(int cmd, uint64_t addr, uint64_t val, uint32_t size)
{
    uint8_t p[24] = { 0 };

    memcpy(p, &addr, 8);
    memcpy(p + 8, &val, 8);
    memcpy(p + 16, &size, 4);
    p[20] = 1;
    send_msg(cmd, p, 24, NULL, 0);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    return recv_ret();
}

START_TEST(test_server_config_and_bars)
{
    /* QEMU's realize: IDs, then sizing of BAR0 like probe_pci_info */
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x00, 0, 2), 0x10de);
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x02, 0, 2), 0x0400);
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x0a, 0, 2), 0x0300);
    cfg(MPQEMU_CMD_PCI_CFGWRITE, 0x10, 0xffffffff, 4);
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x10, 0, 4), 0xff000000);
    /* firmware places BAR0, enables memory decoding; the driver, DMA */
    cfg(MPQEMU_CMD_PCI_CFGWRITE, 0x10, 0xfd000000, 4);
    cfg(MPQEMU_CMD_PCI_CFGWRITE, 0x04,
        PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x04, 0, 2),
                      PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    /* guest-physical address -> BAR0 offset 0: PMC_BOOT_0 */
    ck_assert_uint_eq(bar(MPQEMU_CMD_BAR_READ, 0xfd000000, 0, 4),
                      0x084000a2);
    /* a write and its read-back (PMC_ENABLE) */
    bar(MPQEMU_CMD_BAR_WRITE, 0xfd000200, 0x1234, 4);
    ck_assert_uint_eq(bar(MPQEMU_CMD_BAR_READ, 0xfd000200, 0, 4), 0x1234);
    /* bad values get QEMU's error sentinel, and the link lives on */
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0xfe, 0, 4),
                      MPQEMU_RET_ERROR);
    ck_assert_uint_eq(bar(MPQEMU_CMD_BAR_READ, 0xfd000000, 0, 3),
                      MPQEMU_RET_ERROR);
    ck_assert_uint_eq(bar(MPQEMU_CMD_BAR_READ, 0xfd000000, 0, 4),
                      0x084000a2);
    /* DEVICE_RESET: config back to power-on, BAR0 unassigned, no DMA */
    send_msg(MPQEMU_CMD_DEVICE_RESET, NULL, 0, NULL, 0);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    recv_ret();
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x10, 0, 4), 0);
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x04, 0, 2), 0);
}
END_TEST

START_TEST(test_server_malformed_and_eof)
{
    uint8_t junk[MPQEMU_HDR_SIZE];
    GError *err = NULL;

    put_hdr(junk, 42, 0);
    ck_assert_int_eq(write(L.qemu, junk, sizeof(junk)), sizeof(junk));
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, &err), -1);
    ck_assert_ptr_nonnull(strstr(err->message, "unknown command 42"));
    g_clear_error(&err);

    /* a header promising a payload that never comes */
    put_hdr(junk, MPQEMU_CMD_BAR_READ, 24);
    ck_assert_int_eq(write(L.qemu, junk, sizeof(junk)), sizeof(junk));
    ck_assert_int_eq(write(L.qemu, junk, 4), 4);
    shutdown(L.qemu, SHUT_WR);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, &err), -1);
    ck_assert_ptr_nonnull(strstr(err->message, "middle of a message"));
    g_clear_error(&err);

    /* and then a clean end of stream */
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, &err), 0);
    ck_assert_ptr_null(err);
}
END_TEST

START_TEST(test_server_unexpected_ret)
{
    uint64_t v = 0;
    GError *err = NULL;

    send_msg(MPQEMU_CMD_RET, &v, 8, NULL, 0);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, &err), -1);
    ck_assert_ptr_nonnull(strstr(err->message, "unexpected RET"));
    g_clear_error(&err);
}
END_TEST

/* SYNC_SYSMEM of one region backed by @fd (closed here, as QEMU does) */
static void send_sysmem(uint64_t gpa, uint64_t size, uint64_t off, int fd)
{
    uint8_t p[192] = { 0 };

    memcpy(p, &gpa, 8);
    memcpy(p + 64, &size, 8);
    memcpy(p + 128, &off, 8);
    send_msg(MPQEMU_CMD_SYNC_SYSMEM, p, 192, &fd, 1);
    close(fd);
}

START_TEST(test_server_sysmem)
{
    FILE *tf = tmpfile();       /* stands in for QEMU's memfd */
    int fd = dup(fileno(tf));
    uint64_t gpa = 0x100000, size = 0x2000, off = 0x1000;
    uint8_t *mine, *dev;

    fclose(tf);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 0x3000), 0);
    mine = mmap(NULL, 0x3000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ck_assert_ptr_ne(mine, MAP_FAILED);
    mine[0x1000 + 0x10] = 0x5a;
    send_sysmem(gpa, size, off, fd);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert_int_eq(L.ram_calls, 1);
    ck_assert_ptr_nonnull(L.seen_ram);
    /* gpa 0x100010 is byte 0x10 of the region, fd offset 0x1000 */
    dev = guest_ram_ptr(L.seen_ram, 0x100010, 1);
    ck_assert_ptr_nonnull(dev);
    ck_assert_uint_eq(*dev, 0x5a);
    *dev = 0xa5;
    ck_assert_uint_eq(mine[0x1010], 0xa5);
    ck_assert_ptr_null(guest_ram_ptr(L.seen_ram, 0x102000, 1));
    munmap(mine, 0x3000);
}
END_TEST

/*
 * A region reaching past the end of its file is refused: mapped, the
 * card's first DMA into it would have taken SIGBUS.
 */
START_TEST(test_server_sysmem_past_file)
{
    FILE *tf = tmpfile();
    int fd = dup(fileno(tf));
    uint64_t gpa = 0x100000, size = 0x2000, off = 0x2000;

    fclose(tf);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 0x3000), 0);
    send_sysmem(gpa, size, off, fd);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert_int_eq(L.ram_calls, 1);
    ck_assert_ptr_null(guest_ram_ptr(L.seen_ram, gpa, 1));
    ck_assert_int_eq(L.srv->maps->len, 0);
}
END_TEST

/* BAR_READ's payload: addr, val, size, memory */
static void bar_payload(uint8_t *p, uint64_t addr, uint32_t size)
{
    memset(p, 0, 24);
    memcpy(p, &addr, 8);
    memcpy(p + 16, &size, 4);
    p[20] = 1;
}

/*
 * What arrives in one read is handled one message at a time: the second
 * of two messages written at once waits in the server (pending), and fds
 * go with the message they were sent with, not with the one before.
 */
START_TEST(test_server_buffered_messages)
{
    uint8_t two[2 * (MPQEMU_HDR_SIZE + 24)], p[24];
    int fds[2] = { eventfd(0, EFD_NONBLOCK), eventfd(0, EFD_NONBLOCK) };
    uint64_t cnt = 0;

    cfg(MPQEMU_CMD_PCI_CFGWRITE, 0x10, 0xfd000000, 4);
    cfg(MPQEMU_CMD_PCI_CFGWRITE, 0x04, PCI_COMMAND_MEMORY, 2);
    bar(MPQEMU_CMD_BAR_WRITE, 0xfd000200, 0x1234, 4);
    ck_assert(!mpqemu_server_pending(L.srv));

    /* two BAR reads in one write: PMC_BOOT_0, then PMC_ENABLE */
    put_hdr(two, MPQEMU_CMD_BAR_READ, 24);
    bar_payload(two + MPQEMU_HDR_SIZE, 0xfd000000, 4);
    put_hdr(two + MPQEMU_HDR_SIZE + 24, MPQEMU_CMD_BAR_READ, 24);
    bar_payload(two + 2 * MPQEMU_HDR_SIZE + 24, 0xfd000200, 4);
    ck_assert_int_eq(write(L.qemu, two, sizeof(two)), sizeof(two));
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert(mpqemu_server_pending(L.srv));
    ck_assert_uint_eq(recv_ret(), 0x084000a2);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert(!mpqemu_server_pending(L.srv));
    ck_assert_uint_eq(recv_ret(), 0x1234);

    /*
     * a message without fds, then SET_IRQFD with its two, before the
     * server reads: the fds are SET_IRQFD's (INTx then reaches them)
     */
    bar_payload(p, 0xfd000000, 4);
    send_msg(MPQEMU_CMD_BAR_READ, p, 24, NULL, 0);
    send_msg(MPQEMU_CMD_SET_IRQFD, NULL, 0, fds, 2);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert_uint_eq(recv_ret(), 0x084000a2);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert(!mpqemu_server_pending(L.srv));
    pci_set_irq(PCI_DEVICE(L.card), 1);
    ck_assert_int_eq(read(fds[0], &cnt, 8), 8);
    ck_assert_uint_eq(cnt, 1);

    /* a message that comes in pieces is put together */
    put_hdr(two, MPQEMU_CMD_BAR_READ, 24);
    bar_payload(two + MPQEMU_HDR_SIZE, 0xfd000000, 4);
    ck_assert_int_eq(write(L.qemu, two, 7), 7);
    ck_assert(!mpqemu_server_pending(L.srv));
    ck_assert_int_eq(write(L.qemu, two + 7, MPQEMU_HDR_SIZE + 24 - 7),
                     MPQEMU_HDR_SIZE + 24 - 7);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    ck_assert_uint_eq(recv_ret(), 0x084000a2);
    close(fds[0]);
    close(fds[1]);
}
END_TEST

/* fds sent with a message that takes none: refused, not kept for later */
START_TEST(test_server_stray_fds)
{
    int fd = eventfd(0, EFD_NONBLOCK);
    uint8_t p[24];
    GError *err = NULL;

    bar_payload(p, 0xfd000000, 4);
    send_msg(MPQEMU_CMD_BAR_READ, p, 24, &fd, 1);
    close(fd);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, &err), -1);
    ck_assert_ptr_nonnull(err);
    g_clear_error(&err);
    ck_assert(!mpqemu_server_pending(L.srv));
    ck_assert_int_eq(L.srv->rnum_fds, 0);
    /* the link goes on with the next message */
    ck_assert_uint_eq(cfg(MPQEMU_CMD_PCI_CFGREAD, 0x00, 0, 2), 0x10de);
}
END_TEST

START_TEST(test_server_irqfd)
{
    int fds[2] = { eventfd(0, EFD_NONBLOCK), eventfd(0, EFD_NONBLOCK) };
    uint64_t cnt = 0, one = 1;
    PCIDevice *pci = PCI_DEVICE(L.card);

    send_msg(MPQEMU_CMD_SET_IRQFD, NULL, 0, fds, 2);
    ck_assert_int_eq(mpqemu_server_handle_one(L.srv, NULL), 1);
    /* rising edge: one eventfd write; staying high: none */
    pci_set_irq(pci, 1);
    pci_set_irq(pci, 1);
    ck_assert_int_eq(read(fds[0], &cnt, 8), 8);
    ck_assert_uint_eq(cnt, 1);
    ck_assert(pci_config_read(pci, PCI_STATUS, 2) & PCI_STATUS_INTERRUPT);
    /* EOI while still asserted: signalled again */
    ck_assert_int_eq(write(fds[1], &one, 8), 8);
    mpqemu_server_resample(L.srv);
    ck_assert_int_eq(read(fds[0], &cnt, 8), 8);
    ck_assert_uint_eq(cnt, 1);
    /* deassert is silent, and a resample then does nothing */
    pci_set_irq(pci, 0);
    ck_assert_int_eq(write(fds[1], &one, 8), 8);
    mpqemu_server_resample(L.srv);
    ck_assert_int_eq(read(fds[0], &cnt, 8), -1);
    close(fds[0]);
    close(fds[1]);
}
END_TEST

Suite *mpqemu_suite(void)
{
    Suite *s = suite_create("mpqemu");
    TCase *tc = tcase_create("parser");
    TCase *ts = tcase_create("server");

    tcase_add_test(tc, test_header_malformed);
    tcase_add_test(tc, test_payload_malformed);
    tcase_add_test(tc, test_payload_fields);
    suite_add_tcase(s, tc);
    tcase_add_checked_fixture(ts, link_setup, link_teardown);
    tcase_add_test(ts, test_server_config_and_bars);
    tcase_add_test(ts, test_server_malformed_and_eof);
    tcase_add_test(ts, test_server_unexpected_ret);
    tcase_add_test(ts, test_server_sysmem);
    tcase_add_test(ts, test_server_sysmem_past_file);
    tcase_add_test(ts, test_server_irqfd);
    tcase_add_test(ts, test_server_buffered_messages);
    tcase_add_test(ts, test_server_stray_fds);
    suite_add_tcase(s, ts);
    return s;
}
