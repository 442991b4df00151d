/*
 * Unit tests: the -frames listener (ui/png.c) -- only frames whose pixels
 * changed are written, at most one per DISPLAY_FRAMES_MIN_INTERVAL_MS of
 * an injected clock (no wall time), the held-back frame written by poll
 * or at close, file names, and errors; and -frames through display_open.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"
#include <check.h>
#include <glib/gstdio.h>
#include <png.h>

#define MS      1000000LL
#define LIMIT   ((int64_t)DISPLAY_FRAMES_MIN_INTERVAL_MS * MS)

typedef struct FakeClock {
    int64_t now;
} FakeClock;

static int64_t fake_now(void *opaque)
{
    return ((FakeClock *)opaque)->now;
}

/* A 4x2 BGRX picture in padded rows, painted with one colour per call. */
typedef struct Picture {
    uint8_t data[2 * 20];
    DisplaySurface s;
} Picture;

static void picture_init(Picture *p)
{
    memset(p->data, 0, sizeof(p->data));
    p->s = (DisplaySurface) {
        .data = p->data, .width = 4, .height = 2, .pitch = 20,
        .format = DISPLAY_FORMAT_BGRX8888,
    };
}

/* Pixel (1, 1) tells the pictures apart; the padding never matters. */
static void picture_paint(Picture *p, uint8_t v)
{
    p->data[20 + 4] = v;
    p->data[16] = v ^ 0xff;     /* padding of row 0 */
}

static char *tmpdir_new(void)
{
    char *dir = g_dir_make_tmp("gemu-ui-XXXXXX", NULL);

    ck_assert_ptr_nonnull(dir);
    return dir;
}

static void tree_remove(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    const char *n;

    if (d) {
        while ((n = g_dir_read_name(d))) {
            g_autofree char *p = g_build_filename(path, n, NULL);

            tree_remove(p);
        }
        g_dir_close(d);
        g_rmdir(path);
    } else {
        g_remove(path);
    }
}

static int cmp_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in @dir, sorted, joined with spaces ("" if none). */
static char *dir_list_sorted(const char *dir)
{
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;

    ck_assert_ptr_nonnull(d);
    while ((n = g_dir_read_name(d))) {
        g_ptr_array_add(names, g_strdup(n));
    }
    g_dir_close(d);
    g_ptr_array_sort(names, cmp_names);
    g_ptr_array_add(names, NULL);
    return g_strjoinv(" ", (char **)names->pdata);
}

/* Does the PNG at @path show @p's pixels now (RGB; alpha is dropped)? */
static bool file_shows(const char *path, const Picture *p)
{
    png_image img;
    uint8_t got[8 * 3];
    bool same = true;

    memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        return false;
    }
    ck_assert_uint_eq(img.width, p->s.width);
    ck_assert_uint_eq(img.height, p->s.height);
    ck_assert_uint_eq(img.format, PNG_FORMAT_RGB);
    ck_assert_uint_le(PNG_IMAGE_SIZE(img), sizeof(got));
    ck_assert(png_image_finish_read(&img, NULL, got, 0, NULL));
    for (uint32_t y = 0; y < p->s.height; y++) {
        for (uint32_t x = 0; x < p->s.width; x++) {
            uint8_t rgba[4];

            display_surface_get_rgba(&p->s, x, y, rgba);
            same &= !memcmp(rgba, got + 3 * (y * p->s.width + x), 3);
        }
    }
    return same;
}

static char *frame_path(const char *dir, const char *name)
{
    return g_build_filename(dir, name, NULL);
}

/* Only new pixels make a file, named by the console's frame number. */
START_TEST(frames_only_changed)
{
    g_autofree char *tmp = tmpdir_new();
    /* a directory that does not exist yet, two levels deep */
    g_autofree char *dir = g_build_filename(tmp, "out", "frames", NULL);
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    g_autofree char *f2 = frame_path(dir, "frame-000002.png");
    g_autofree char *f5 = frame_path(dir, "frame-000005.png");
    FakeClock clk = { 0 };
    DisplayConsole *con = display_console_new("test");
    DisplayListener *dl;
    Picture p;

    dl = display_frames_listener_new(dir, "frame", fake_now, &clk, &err);
    ck_assert_msg(dl, "%s", err);
    ck_assert(g_file_test(dir, G_FILE_TEST_IS_DIR));
    display_console_add_listener(con, dl);
    picture_init(&p);
    picture_paint(&p, 0x40);

    /* a frame with no surface: nothing to write */
    display_console_frame(con);
    display_console_set_surface(con, &p.s);
    display_console_frame(con);                 /* 2: new */
    clk.now += 5 * LIMIT;
    display_console_frame(con);                 /* 3: the same pixels */
    clk.now += 5 * LIMIT;
    p.data[16] = 0x33;                          /* padding only */
    display_console_frame(con);                 /* 4: the same picture */
    clk.now += 5 * LIMIT;
    picture_paint(&p, 0x80);
    display_console_frame(con);                 /* 5: new */
    display_frames_listener_flush(dl);          /* nothing held back */

    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000002.png frame-000005.png");
    ck_assert(file_shows(f5, &p));
    picture_paint(&p, 0x40);
    ck_assert(file_shows(f2, &p));
    ck_assert(!file_shows(f5, &p));

    display_console_free(con);
    tree_remove(tmp);
}
END_TEST

/* At most one file per interval; the held-back frame comes later. */
START_TEST(frames_rate_limit)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    g_autofree char *path = NULL;
    FakeClock clk = { 1000 * MS };
    DisplayConsole *con = display_console_new("test");
    DisplayListener *dl;
    Picture p;

    dl = display_frames_listener_new(dir, "frame", fake_now, &clk, &err);
    ck_assert_msg(dl, "%s", err);
    display_console_add_listener(con, dl);
    picture_init(&p);
    picture_paint(&p, 1);
    display_console_set_surface(con, &p.s);
    display_console_frame(con);                 /* 1: written at t */

    clk.now += LIMIT / 2;
    picture_paint(&p, 2);
    display_console_frame(con);                 /* 2: too soon */
    clk.now += 10 * MS;
    picture_paint(&p, 3);
    display_console_frame(con);                 /* 3: too soon */
    clk.now += LIMIT / 2 - 10 * MS - 1;
    display_frames_listener_poll(dl);           /* 1 ns too soon */
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png");

    clk.now += 1;
    display_frames_listener_poll(dl);           /* due: frame 3's pixels */
    g_free(list);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png frame-000003.png");
    path = frame_path(dir, "frame-000003.png");
    ck_assert(file_shows(path, &p));
    clk.now += 3 * LIMIT;
    display_frames_listener_poll(dl);           /* nothing held back */

    picture_paint(&p, 4);
    display_console_frame(con);                 /* 4: due, written */
    clk.now += 1;
    picture_paint(&p, 5);
    display_console_frame(con);                 /* 5: held back ... */
    display_frames_poll_all();
    g_free(list);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png frame-000003.png "
                     "frame-000004.png");
    display_frames_flush_all();                 /* ... until the end */
    g_free(list);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png frame-000003.png "
                     "frame-000004.png frame-000005.png");
    g_free(path);
    path = frame_path(dir, "frame-000005.png");
    ck_assert(file_shows(path, &p));
    display_frames_listener_flush(dl);          /* written already */
    g_free(list);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png frame-000003.png "
                     "frame-000004.png frame-000005.png");

    display_console_free(con);
    tree_remove(dir);
}
END_TEST

/* A new mode is new even if the bytes happen to compare equal. */
START_TEST(frames_new_size)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    FakeClock clk = { 0 };
    DisplayConsole *con = display_console_new("test");
    DisplayListener *dl;
    Picture p;

    dl = display_frames_listener_new(dir, "x", fake_now, &clk, &err);
    ck_assert_msg(dl, "%s", err);
    display_console_add_listener(con, dl);
    picture_init(&p);
    display_console_set_surface(con, &p.s);
    display_console_frame(con);
    clk.now += LIMIT;
    /* 8x1 from the same bytes: same RGBA byte count, other picture */
    p.s.width = 8;
    p.s.height = 1;
    p.s.pitch = 32;
    memset(p.data, 0, sizeof(p.data));
    display_console_set_surface(con, &p.s);
    display_console_frame(con);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "x-000001.png x-000002.png");

    display_console_free(con);
    tree_remove(dir);
}
END_TEST

START_TEST(frames_bad_directory)
{
    g_autofree char *tmp = tmpdir_new();
    g_autofree char *file = g_build_filename(tmp, "file", NULL);
    g_autofree char *under = g_build_filename(file, "frames", NULL);
    g_autofree char *err = NULL;

    ck_assert(g_file_set_contents(file, "x", 1, NULL));
    ck_assert_ptr_null(display_frames_listener_new(file, "frame", NULL, NULL,
                                                   &err));
    ck_assert_ptr_nonnull(strstr(err, file));
    g_clear_pointer(&err, g_free);
    ck_assert_ptr_null(display_frames_listener_new(under, "frame", NULL,
                                                   NULL, &err));
    ck_assert_ptr_nonnull(strstr(err, under));
    g_clear_pointer(&err, g_free);
    ck_assert_ptr_null(display_frames_listener_new("", "frame", NULL, NULL,
                                                   &err));
    tree_remove(tmp);
}
END_TEST

/* After a write error (reported once) no more files are tried. */
START_TEST(frames_write_error_stops)
{
    g_autofree char *tmp = tmpdir_new();
    g_autofree char *dir = g_build_filename(tmp, "f", NULL);
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    FakeClock clk = { 0 };
    DisplayConsole *con = display_console_new("test");
    DisplayListener *dl;
    Picture p;

    dl = display_frames_listener_new(dir, "frame", fake_now, &clk, &err);
    ck_assert_msg(dl, "%s", err);
    display_console_add_listener(con, dl);
    ck_assert_int_eq(g_rmdir(dir), 0);
    picture_init(&p);
    display_console_set_surface(con, &p.s);
    display_console_frame(con);                 /* fails: no directory */
    ck_assert_int_eq(g_mkdir(dir, 0755), 0);
    clk.now += LIMIT;
    picture_paint(&p, 9);
    display_console_frame(con);
    display_frames_listener_flush(dl);
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "");

    display_console_free(con);
    tree_remove(tmp);
}
END_TEST

/*
 * -frames through display_open: the last picture is written by
 * display_close whatever the host clock did; a second console in the
 * same directory gets its own names.
 */
START_TEST(frames_display_open)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    g_autofree char *last = NULL;
    DisplayConsole *con = display_console_new("sgx");
    DisplayConsole *con2 = display_console_new("g84 head/1");
    Picture p, q;

    ck_assert_msg(display_open(con, "none", dir, &err), "%s", err);
    ck_assert_msg(display_open(con2, "png", dir, &err), "%s", err);
    ck_assert(!display_has_window());
    picture_init(&p);
    picture_init(&q);
    display_console_set_surface(con, &p.s);
    display_console_set_surface(con2, &q.s);
    display_console_frame(con);
    display_console_frame(con2);
    picture_paint(&p, 0x11);
    display_console_frame(con);     /* written now or held back */
    ck_assert(display_poll());
    display_close();
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png frame-000002.png "
                     "g84-head-1-frame-000001.png");
    last = frame_path(dir, "frame-000002.png");
    ck_assert(file_shows(last, &p));
    display_close();                /* twice is fine */

    display_console_free(con);
    display_console_free(con2);
    tree_remove(dir);
}
END_TEST

/* The console may go first; display_close then has nothing to write. */
START_TEST(frames_console_freed_first)
{
    g_autofree char *dir = tmpdir_new();
    g_autofree char *err = NULL;
    g_autofree char *list = NULL;
    DisplayConsole *con = display_console_new("sgx");
    Picture p;

    ck_assert_msg(display_open(con, "png", dir, &err), "%s", err);
    picture_init(&p);
    display_console_set_surface(con, &p.s);
    display_console_frame(con);
    display_console_free(con);
    display_close();
    list = dir_list_sorted(dir);
    ck_assert_str_eq(list, "frame-000001.png");
    tree_remove(dir);
}
END_TEST

Suite *ui_frames_suite(void)
{
    Suite *s = suite_create("ui-frames");
    TCase *tc = tcase_create("frames");

    tcase_add_test(tc, frames_only_changed);
    tcase_add_test(tc, frames_rate_limit);
    tcase_add_test(tc, frames_new_size);
    tcase_add_test(tc, frames_bad_directory);
    tcase_add_test(tc, frames_write_error_stops);
    tcase_add_test(tc, frames_display_open);
    tcase_add_test(tc, frames_console_freed_first);
    suite_add_tcase(s, tc);
    return s;
}
