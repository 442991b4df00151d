/*
 * The human monitor, driven the way a machine drives it (its fds in a
 * poll() loop with other fds) through a socketpair or pipes standing in
 * for stdio, and through a UNIX socket in a temporary directory.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "monitor/monitor.h"
#include "monitor-rig.h"
#include "ui/console.h"
#include <check.h>
#include <fcntl.h>
#include <png.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>


/* The machine behind the monitor: up to 3 consoles and a quit count. */
typedef struct TestMachine {
    DisplayConsole *cons[3];
    int ncons;
    int quits;
} TestMachine;

static DisplayConsole *tm_console(void *opaque, int index)
{
    TestMachine *m = opaque;

    return index >= 0 && index < m->ncons ? m->cons[index] : NULL;
}

static void tm_quit(void *opaque)
{
    TestMachine *m = opaque;

    m->quits++;
}

static const MonitorOps tm_ops = { .console = tm_console, .quit = tm_quit };

static Monitor *pair_monitor(TestMachine *m, int *cfd, int *mfd)
{
    return mrig_pair(&tm_ops, m, cfd, mfd);
}

static void tm_free(TestMachine *m)
{
    for (int i = 0; i < m->ncons; i++) {
        display_console_free(m->cons[i]);
    }
}


/* A 4x2 BGRX surface with distinct pixels: byte B = 16x+1, G = 64y+2 */
static uint8_t surf_px[2 * 32];

static DisplaySurface test_surface(void)
{
    DisplaySurface s = {
        .data = surf_px, .addr = 0x50000, .width = 4, .height = 2,
        .pitch = 32, .format = DISPLAY_FORMAT_BGRX8888,
    };

    for (int y = 0; y < 2; y++) {
        for (int x = 0; x < 4; x++) {
            uint8_t *p = surf_px + y * 32 + x * 4;

            p[0] = 16 * x + 1;
            p[1] = 64 * y + 2;
            p[2] = 0xa0 + x + y;
            p[3] = 0x5a;        /* X: ignored */
        }
    }
    return s;
}

/* head-0 with the test surface, 3 frames and info; head-1 dark */
static void two_heads(TestMachine *m)
{
    DisplaySurface s = test_surface();

    m->cons[0] = display_console_new("head-0");
    m->cons[1] = display_console_new("head-1");
    m->ncons = 2;
    display_console_set_surface(m->cons[0], &s);
    display_console_set_info(m->cons[0],
                             "4x2 XRGB8888 linear, VRAM 0x50000, pitch 32");
    for (int i = 0; i < 3; i++) {
        display_console_frame(m->cons[0]);
    }
}

static char *read_file_all(const char *path, gsize *len)
{
    char *data = NULL;

    ck_assert_msg(g_file_get_contents(path, &data, len, NULL), "%s", path);
    return data;
}

/* ---------------------------------------------------------------- */

START_TEST(monitor_help)
{
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    g_autofree char *help = mrig_cmd(mon, c, c, "help\n");
    g_autofree char *qmark = mrig_cmd(mon, c, c, "?\n");
    g_autofree char *info = mrig_cmd(mon, c, c, "info\n");
    g_autofree char *help_info = mrig_cmd(mon, c, c, "help info\n");

    ck_assert_str_eq(help,
        "help|? [COMMAND] -- show the commands, or one command's help\n"
        "info [SUBCOMMAND] -- show information about the machine ('info' "
        "lists what)\n"
        "quit|q -- end gemu (the machine stops at once)\n"
        "screendump FILE.png [CONSOLE] -- write what display console "
        "CONSOLE (index or name, default 0) shows now to FILE.png\n"
        PROMPT);
    ck_assert_str_eq(qmark, help);
    ck_assert_ptr_nonnull(strstr(info, "info display -- "));
    ck_assert_ptr_nonnull(strstr(info, "info version -- "));
    ck_assert_str_eq(help_info, info);
    ck_cmd(mon, c, c, "help q\n",
           "quit|q -- end gemu (the machine stops at once)\n");
    ck_cmd(mon, c, c, "help nosuch\n", "unknown command: 'nosuch'\n");
    ck_cmd(mon, c, c, "info version\n", GEMU_VERSION "\n");
    ck_assert_int_eq(m.quits, 0);
    mrig_pair_free(mon, c, mc);
}
END_TEST

START_TEST(monitor_info_display)
{
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);

    ck_cmd(mon, c, c, "info display\n", "no display consoles\n");

    m.cons[0] = display_console_new("head-0");
    m.ncons = 1;
    ck_cmd(mon, c, c, "info display\n",
           "console 0 'head-0': no signal, 0 frames\n");
    display_console_frame(m.cons[0]);
    display_console_set_info(m.cons[0], "");
    ck_cmd(mon, c, c, "info display\n",
           "console 0 'head-0': no signal, 1 frame\n");
    tm_free(&m);

    two_heads(&m);
    ck_cmd(mon, c, c, "info display\n",
           "console 0 'head-0': 4x2 bgrx8888, pitch 32, address 0x50000, "
           "3 frames\n"
           "  4x2 XRGB8888 linear, VRAM 0x50000, pitch 32\n"
           "console 1 'head-1': no signal, 0 frames\n");
    ck_cmd(mon, c, c, "info display now\n",
           "info display: too many arguments (usage: info display)\n");
    tm_free(&m);
    mrig_pair_free(mon, c, mc);
}
END_TEST

/* A machine whose ops have no hooks at all */
START_TEST(monitor_no_hooks)
{
    static const MonitorOps none = { 0 };
    int sv[2];
    Monitor *mon;
    g_autofree char *banner = NULL;

    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    mrig_set_nonblock(sv[1]);
    mon = monitor_new_fds(sv[0], sv[0], &none, NULL);
    banner = mrig_until_prompts(mon, sv[1], 1);
    ck_cmd(mon, sv[1], sv[1], "info display\n", "no display consoles\n");
    ck_cmd(mon, sv[1], sv[1], "screendump x.png\n",
           "screendump: the machine has no display\n");
    ck_cmd(mon, sv[1], sv[1], "quit\n",
           "quit: this machine cannot be ended from the monitor\n");
    ck_assert(!monitor_quit_requested(mon));
    monitor_free(mon);
    close(sv[0]);
    close(sv[1]);
}
END_TEST

START_TEST(monitor_screendump)
{
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    g_autofree char *dir = g_dir_make_tmp("gemu-mon-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(dir, "out.png", NULL);
    g_autofree char *out1 = g_build_filename(dir, "out1.png", NULL);
    g_autofree char *ref = g_build_filename(dir, "ref.png", NULL);
    g_autofree char *spaced = g_build_filename(dir, "a \"b\".png", NULL);
    g_autofree char *bad = g_build_filename(dir, "nodir", "x.png", NULL);
    g_autofree char *line = NULL, *expect = NULL;
    g_autofree char *err = NULL, *a = NULL, *b = NULL, *q = NULL;
    g_autofree uint8_t *px = NULL;
    png_image img = { .version = PNG_IMAGE_VERSION };
    gsize alen, blen, qlen;

    ck_assert_ptr_nonnull(dir);
    two_heads(&m);

    /* success answers nothing, as QEMU's does */
    line = g_strdup_printf("screendump %s\n", out);
    ck_cmd(mon, c, c, line, "");
    ck_assert(display_png_write(display_console_surface(m.cons[0]), ref,
                                &err));
    a = read_file_all(out, &alen);
    b = read_file_all(ref, &blen);
    ck_assert_uint_eq(alen, blen);
    ck_assert(!memcmp(a, b, alen));

    /* the pixels: R G B from bytes 2 1 0 of each BGRX pixel */
    ck_assert(png_image_begin_read_from_file(&img, out));
    ck_assert_uint_eq(img.width, 4);
    ck_assert_uint_eq(img.height, 2);
    img.format = PNG_FORMAT_RGB;
    px = g_malloc(PNG_IMAGE_SIZE(img));
    ck_assert(png_image_finish_read(&img, NULL, px, 0, NULL));
    for (int y = 0; y < 2; y++) {
        for (int x = 0; x < 4; x++) {
            const uint8_t *p = px + (y * 4 + x) * 3;

            ck_assert_uint_eq(p[0], 0xa0 + x + y);
            ck_assert_uint_eq(p[1], 64 * y + 2);
            ck_assert_uint_eq(p[2], 16 * x + 1);
        }
    }

    /* by index and by name; a quoted name with a blank and quotes */
    g_free(line);
    line = g_strdup_printf("screendump %s 0\n", out1);
    ck_cmd(mon, c, c, line, "");
    g_free(a);
    a = read_file_all(out1, &alen);
    ck_assert(alen == blen && !memcmp(a, b, alen));
    unlink(out1);
    g_free(line);
    line = g_strdup_printf("screendump %s head-0\n", out1);
    ck_cmd(mon, c, c, line, "");
    ck_assert(g_file_test(out1, G_FILE_TEST_IS_REGULAR));
    g_free(line);
    line = g_strdup_printf("screendump \"%s/a \\\"b\\\".png\"\n", dir);
    ck_cmd(mon, c, c, line, "");
    q = read_file_all(spaced, &qlen);
    ck_assert(qlen == blen && !memcmp(q, b, qlen));

    /* no surface on head-1, by index or name: an error, no file */
    unlink(out1);
    g_free(line);
    line = g_strdup_printf("screendump %s 1\n", out1);
    expect = g_strdup("screendump: console 1 'head-1' has no frame to dump: "
                      "no frame has been shown yet (no signal)\n" PROMPT);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, expect);
    }
    g_free(line);
    line = g_strdup_printf("screendump %s head-1\n", out1);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, expect);
    }
    ck_assert(!g_file_test(out1, G_FILE_TEST_EXISTS));

    /* unwritable path, unknown console, argument count */
    g_free(line);
    line = g_strdup_printf("screendump %s\n", bad);
    g_free(expect);
    expect = g_strdup_printf("screendump: cannot write '%s': No such file "
                             "or directory\n" PROMPT, bad);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, expect);
    }
    g_free(line);
    line = g_strdup_printf("screendump %s 2\n", out1);
    ck_cmd(mon, c, c, line,
           "screendump: no console '2' (see 'info display')\n");
    g_free(line);
    line = g_strdup_printf("screendump %s head-9\n", out1);
    ck_cmd(mon, c, c, line,
           "screendump: no console 'head-9' (see 'info display')\n");
    ck_cmd(mon, c, c, "screendump\n", "screendump: missing argument "
           "(usage: screendump FILE.png [CONSOLE])\n");
    ck_cmd(mon, c, c, "screendump a b c\n", "screendump: too many "
           "arguments (usage: screendump FILE.png [CONSOLE])\n");
    ck_cmd(mon, c, c, "screendump \"abc\n",
           "parse error: unterminated string\n");
    ck_assert(!g_file_test(out1, G_FILE_TEST_EXISTS));

    /* and the monitor still works */
    ck_cmd(mon, c, c, "info version\n", GEMU_VERSION "\n");
    ck_assert_int_eq(m.quits, 0);

    unlink(out);
    unlink(ref);
    unlink(spaced);
    ck_assert_int_eq(rmdir(dir), 0);
    tm_free(&m);
    mrig_pair_free(mon, c, mc);
}
END_TEST

START_TEST(monitor_quit)
{
    static const char *const lines[] = { "quit\n", "q\n", "  quit  \r\n" };

    for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
        TestMachine m = { 0 };
        int c, mc;
        Monitor *mon = pair_monitor(&m, &c, &mc);
        GString *got = g_string_new(NULL);

        ck_assert(!monitor_quit_requested(mon));
        /* the second line is not run: the machine is ending */
        mrig_send_all(mon, c, c, lines[i], strlen(lines[i]), got);
        mrig_send_all(mon, c, c, "quit\n", 5, got);
        for (int j = 0; j < 500 && !m.quits; j++) {
            mrig_step(mon, c, got);
        }
        for (int j = 0; j < 3; j++) {
            mrig_step(mon, c, got);
        }
        ck_assert_int_eq(m.quits, 1);
        ck_assert(monitor_quit_requested(mon));
        ck_assert_str_eq(got->str, "");
        g_string_free(got, TRUE);
        mrig_pair_free(mon, c, mc);
    }
}
END_TEST

START_TEST(monitor_errors)
{
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    g_autofree char *two = NULL;

    ck_cmd(mon, c, c, "foo bar\n", "unknown command: 'foo'\n");
    ck_cmd(mon, c, c, "info foo\n", "unknown command: 'info foo'\n");
    ck_cmd(mon, c, c, "quit now\n",
           "quit: too many arguments (usage: quit)\n");
    ck_cmd(mon, c, c, "\n", "");
    ck_cmd(mon, c, c, " \t \r\n", "");
    ck_cmd(mon, c, c, "info version\r\n", GEMU_VERSION "\n");
    ck_cmd(mon, c, c, "\tinfo   version \n", GEMU_VERSION "\n");
    /* a NUL inside a line */
    mrig_send_all(mon, c, c, "info\0version\n", 13, NULL);
    {
        g_autofree char *got = mrig_until_prompts(mon, c, 1);
        ck_assert_str_eq(got, "parse error: NUL byte in the line\n" PROMPT);
    }
    /* two lines in one write: two answers */
    mrig_send_all(mon, c, c, "info version\nfoo\n", 17, NULL);
    two = mrig_until_prompts(mon, c, 2);
    ck_assert_str_eq(two, GEMU_VERSION "\n" PROMPT
                     "unknown command: 'foo'\n" PROMPT);
    ck_assert_int_eq(m.quits, 0);
    mrig_pair_free(mon, c, mc);
}
END_TEST

/* Lines of MONITOR_LINE_MAX bytes are run, longer ones refused */
START_TEST(monitor_long_lines)
{
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    size_t big = 100000;
    char *line = g_malloc(big + 2);
    g_autofree char *expect = NULL;
    const char *too_long = "line too long (at most 4096 bytes)\n" PROMPT;

    ck_assert_int_eq(MONITOR_LINE_MAX, 4096);
    memset(line, 'a', big);

    /* exactly the limit: run (an unknown command) */
    memcpy(line + MONITOR_LINE_MAX, "\n", 2);
    expect = g_strdup_printf("unknown command: '%.*s'\n" PROMPT,
                             MONITOR_LINE_MAX, line);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_uint_eq(strlen(got), strlen(expect));
        ck_assert_str_eq(got, expect);
    }
    /* the limit plus CRLF */
    memcpy(line + MONITOR_LINE_MAX, "\r\n", 3);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, expect);
    }
    /* one more byte, with and without CR */
    memcpy(line + MONITOR_LINE_MAX, "a\n", 3);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, too_long);
    }
    memcpy(line + MONITOR_LINE_MAX, "a\r\n", 4);
    {
        g_autofree char *got = mrig_cmd(mon, c, c, line);
        ck_assert_str_eq(got, too_long);
    }
    /* far longer than the buffer: one error, then the next line runs */
    memset(line, 'a', big);
    memcpy(line + big, "\n", 2);
    mrig_send_all(mon, c, c, line, big + 1, NULL);
    mrig_send_all(mon, c, c, "info version\n", 13, NULL);
    {
        g_autofree char *got = mrig_until_prompts(mon, c, 2);
        g_autofree char *want = g_strconcat(too_long, GEMU_VERSION "\n"
                                            PROMPT, NULL);
        ck_assert_str_eq(got, want);
    }
    g_free(line);
    mrig_pair_free(mon, c, mc);
}
END_TEST

/* A line arriving in pieces runs when its end comes */
START_TEST(monitor_partial_lines)
{
    static const char *const pieces[] = { "in", "fo ", "ver", "sion", "\r",
                                          "\n" };
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    GString *got = g_string_new(NULL);

    for (size_t i = 0; i < ARRAY_SIZE(pieces); i++) {
        mrig_send_all(mon, c, c, pieces[i], strlen(pieces[i]), got);
        for (int j = 0; j < 3; j++) {
            mrig_step(mon, c, got);
        }
        if (i + 1 < ARRAY_SIZE(pieces)) {
            ck_assert_str_eq(got->str, "");
        }
    }
    for (int j = 0; j < 500 && !g_str_has_suffix(got->str, PROMPT); j++) {
        mrig_step(mon, c, got);
    }
    ck_assert_str_eq(got->str, GEMU_VERSION "\n" PROMPT);
    g_string_free(got, TRUE);
    mrig_pair_free(mon, c, mc);
}
END_TEST

/*
 * Pipes for stdin/stdout (not sockets: the read()/write() path).  EOF on
 * the input stops reading, drops an unfinished line and does not quit.
 */
START_TEST(monitor_pipes_eof)
{
    TestMachine m = { 0 };
    int in[2], out[2];
    Monitor *mon;
    struct pollfd fds[MONITOR_MAX_POLLFDS];
    g_autofree char *banner = NULL;

    ck_assert_int_eq(pipe(in), 0);
    ck_assert_int_eq(pipe(out), 0);
    mrig_set_nonblock(out[0]);
    mon = monitor_new_fds(in[0], out[1], &tm_ops, &m);
    banner = mrig_until_prompts(mon, out[0], 1);
    ck_assert_str_eq(banner, BANNER);
    ck_cmd(mon, in[1], out[0], "info version\n", GEMU_VERSION "\n");
    ck_cmd(mon, in[1], out[0], "help quit\n",
           "quit|q -- end gemu (the machine stops at once)\n");

    mrig_send_all(mon, in[1], out[0], "quit", 4, NULL);
    close(in[1]);
    for (int i = 0; i < 20; i++) {
        mrig_step(mon, out[0], NULL);
    }
    ck_assert_int_eq(m.quits, 0);
    ck_assert(!monitor_quit_requested(mon));
    ck_assert_int_eq(monitor_pollfds(mon, fds, MONITOR_MAX_POLLFDS), 0);
    monitor_free(mon);
    close(in[0]);
    close(out[0]);
    close(out[1]);
}
END_TEST

/*
 * A client sending many commands without reading the answers: the
 * monitor never blocks, and once the client reads, every answer is
 * there, in order.
 */
START_TEST(monitor_slow_client)
{
    enum { N = 1000 };
    TestMachine m = { 0 };
    int c, mc;
    Monitor *mon = pair_monitor(&m, &c, &mc);
    GString *lines = g_string_new(NULL);
    g_autofree char *got = NULL;
    g_autofree char *help = mrig_cmd(mon, c, c, "help\n");

    for (int i = 0; i < N; i++) {
        g_string_append(lines, "help\n");
    }
    mrig_send_all(mon, c, -1, lines->str, lines->len, NULL);
    for (int i = 0; i < 50; i++) {
        mrig_step(mon, -1, NULL);
    }
    got = mrig_until_prompts(mon, c, N);
    ck_assert_uint_eq(strlen(got), N * strlen(help));
    for (int i = 0; i < N; i++) {
        ck_assert(!memcmp(got + i * strlen(help), help, strlen(help)));
    }
    g_string_free(lines, TRUE);
    mrig_pair_free(mon, c, mc);
}
END_TEST

/* ---------------------------------------------------------------- */
/* UNIX sockets */

static int unix_connect(const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    g_strlcpy(addr.sun_path, path, sizeof(addr.sun_path));
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    mrig_set_nonblock(fd);
    return fd;
}

static bool is_socket(const char *path)
{
    struct stat st;

    return lstat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

START_TEST(monitor_unix)
{
    TestMachine m = { 0 };
    g_autofree char *dir = g_dir_make_tmp("gemu-mon-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "mon.sock", NULL);
    g_autofree char *spec = g_strdup_printf("unix:%s,server,nowait", path);
    g_autofree char *desc = g_strdup_printf("unix:%s", path);
    g_autofree char *err = NULL, *banner = NULL, *b3 = NULL;
    struct pollfd fds[MONITOR_MAX_POLLFDS];
    Monitor *mon;
    GString *got2 = g_string_new(NULL);
    int c1, c2, c3;

    mon = monitor_new(spec, &tm_ops, &m, &err);
    ck_assert_msg(mon != NULL, "%s", err);
    ck_assert_str_eq(monitor_describe(mon), desc);
    ck_assert(is_socket(path));
    /* nobody connected: the listening socket is all it waits for */
    ck_assert_int_eq(monitor_pollfds(mon, fds, MONITOR_MAX_POLLFDS), 1);
    ck_assert(fds[0].events & POLLIN);

    c1 = unix_connect(path);
    banner = mrig_until_prompts(mon, c1, 1);
    ck_assert_str_eq(banner, BANNER);
    ck_cmd(mon, c1, c1, "info version\n", GEMU_VERSION "\n");

    /* a second client waits while the first is served */
    c2 = unix_connect(path);
    ck_cmd(mon, c1, c1, "info display\n", "no display consoles\n");
    mrig_send_all(mon, c2, c1, "info version\n", 13, NULL);
    for (int i = 0; i < 5; i++) {
        mrig_step(mon, c2, got2);
    }
    ck_assert_str_eq(got2->str, "");

    /* the first leaves mid-line; the line is dropped, c2 is served */
    mrig_send_all(mon, c1, c1, "qu", 2, NULL);
    mrig_step(mon, c1, NULL);
    close(c1);
    for (int i = 0; i < 500 && mrig_count(got2->str, PROMPT) < 2; i++) {
        mrig_step(mon, c2, got2);
    }
    ck_assert_str_eq(got2->str, BANNER GEMU_VERSION "\n" PROMPT);
    ck_cmd(mon, c2, c2, "it\n", "unknown command: 'it'\n");
    ck_assert_int_eq(m.quits, 0);

    /* reconnect after a disconnect */
    close(c2);
    c3 = unix_connect(path);
    b3 = mrig_until_prompts(mon, c3, 1);
    ck_assert_str_eq(b3, BANNER);
    mrig_send_all(mon, c3, c3, "quit\n", 5, NULL);
    for (int i = 0; i < 500 && !m.quits; i++) {
        mrig_step(mon, c3, NULL);
    }
    ck_assert_int_eq(m.quits, 1);

    /* the socket file goes with the monitor */
    monitor_free(mon);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    close(c3);
    g_string_free(got2, TRUE);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(monitor_unix_stale)
{
    TestMachine m = { 0 };
    g_autofree char *dir = g_dir_make_tmp("gemu-mon-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "mon.sock", NULL);
    g_autofree char *spec = g_strdup_printf("unix:%s", path);
    g_autofree char *err = NULL, *banner = NULL;
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    Monitor *mon, *mon2;
    int fd, c;

    /* a socket left by a process that died: nobody listens */
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    g_strlcpy(addr.sun_path, path, sizeof(addr.sun_path));
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    close(fd);
    ck_assert(is_socket(path));

    mon = monitor_new(spec, &tm_ops, &m, &err);
    ck_assert_msg(mon != NULL, "%s", err);
    c = unix_connect(path);
    banner = mrig_until_prompts(mon, c, 1);
    ck_assert_str_eq(banner, BANNER);

    /* a socket somebody listens on is not taken over */
    mon2 = monitor_new(spec, &tm_ops, &m, &err);
    ck_assert_ptr_null(mon2);
    ck_assert_ptr_nonnull(strstr(err, "is in use"));
    ck_cmd(mon, c, c, "info version\n", GEMU_VERSION "\n");

    monitor_free(mon);
    close(c);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(monitor_unix_not_socket)
{
    g_autofree char *dir = g_dir_make_tmp("gemu-mon-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "notes.txt", NULL);
    g_autofree char *spec = g_strdup_printf("unix:%s,server,nowait", path);
    g_autofree char *err = NULL, *data = NULL;
    gsize len;

    ck_assert(g_file_set_contents(path, "keep me\n", -1, NULL));
    ck_assert_ptr_null(monitor_new(spec, &tm_ops, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err, "is not a socket"));
    ck_assert(g_file_get_contents(path, &data, &len, NULL));
    ck_assert_str_eq(data, "keep me\n");
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(monitor_specs)
{
    static const struct {
        const char *spec;
        const char *err;
    } bad[] = {
        { "tcp:localhost:4444", "unknown monitor 'tcp:localhost:4444'" },
        { "", "unknown monitor ''" },
        { "unix:", "needs a socket path" },
        { "unix:,server", "needs a socket path" },
        { "unix:/tmp/x.sock,server=off", "'server=off' is not supported" },
        { "unix:/tmp/x.sock,wait=on", "'wait=on' is not supported" },
        { "unix:/tmp/x.sock,bogus", "unknown socket option 'bogus'" },
        { "unix:/nonexistent-gemu-dir/x.sock", "cannot create the socket" },
    };
    g_autofree char *dir = g_dir_make_tmp("gemu-mon-XXXXXX", NULL);
    g_autofree char *comma = g_build_filename(dir, "a,b.sock", NULL);
    g_autofree char *spec = NULL, *longpath = NULL;
    struct pollfd fds[MONITOR_MAX_POLLFDS];
    Monitor *mon;

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *err = NULL;

        ck_assert_ptr_null(monitor_new(bad[i].spec, &tm_ops, NULL, &err));
        ck_assert_msg(err && strstr(err, bad[i].err), "%s: '%s'",
                      bad[i].spec, err);
    }
    {
        g_autofree char *err = NULL;

        longpath = g_strdup_printf("unix:/tmp/%0200d.sock", 0);
        ck_assert_ptr_null(monitor_new(longpath, &tm_ops, NULL, &err));
        ck_assert_ptr_nonnull(strstr(err, "too long"));
    }

    /* ",," is a comma in the path; QEMU's newer option spelling */
    spec = g_strdup_printf("unix:%s/a,,b.sock,server=on,wait=off", dir);
    {
        g_autofree char *err = NULL;

        mon = monitor_new(spec, &tm_ops, NULL, &err);
        ck_assert_msg(mon != NULL, "%s", err);
    }
    ck_assert(is_socket(comma));
    monitor_free(mon);
    ck_assert(!g_file_test(comma, G_FILE_TEST_EXISTS));

    mon = monitor_new("none", &tm_ops, NULL, NULL);
    ck_assert_ptr_nonnull(mon);
    ck_assert_str_eq(monitor_describe(mon), "none");
    ck_assert_int_eq(monitor_pollfds(mon, fds, MONITOR_MAX_POLLFDS), 0);
    monitor_dispatch(mon, fds, 0);
    monitor_free(mon);
    monitor_free(NULL);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *monitor_suite(void)
{
    Suite *s = suite_create("monitor");
    TCase *tc = tcase_create("hmp");
    TCase *tu = tcase_create("unix");

    tcase_add_test(tc, monitor_help);
    tcase_add_test(tc, monitor_info_display);
    tcase_add_test(tc, monitor_no_hooks);
    tcase_add_test(tc, monitor_screendump);
    tcase_add_test(tc, monitor_quit);
    tcase_add_test(tc, monitor_errors);
    tcase_add_test(tc, monitor_long_lines);
    tcase_add_test(tc, monitor_partial_lines);
    tcase_add_test(tc, monitor_pipes_eof);
    tcase_add_test(tc, monitor_slow_client);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    tcase_add_test(tu, monitor_unix);
    tcase_add_test(tu, monitor_unix_stale);
    tcase_add_test(tu, monitor_unix_not_socket);
    tcase_add_test(tu, monitor_specs);
    tcase_set_timeout(tu, 30);
    suite_add_tcase(s, tu);
    return s;
}
