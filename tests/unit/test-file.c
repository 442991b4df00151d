/*
 * gemu_file_read (util/file.c): files an input names are read only when
 * regular and small enough, so that a scene or state file naming
 * /dev/zero or a FIFO gets an error instead of a hang; the scene reader
 * uses it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/file.h"
#include "block/sgx-scene.h"
#include <check.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(regular_file)
{
    g_autofree char *dir = g_dir_make_tmp("gemu-file-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "f", NULL);
    g_autofree char *data = NULL;
    g_autofree char *err = NULL;
    g_autofree char *want = NULL;
    size_t len = 0;

    ck_assert(g_file_set_contents(path, "abc\0de", 6, NULL));
    ck_assert_msg(gemu_file_read(path, 6, &data, &len, &err), "%s", err);
    ck_assert_uint_eq(len, 6);
    ck_assert_int_eq(memcmp(data, "abc\0de", 7), 0);   /* NUL-terminated */
    g_free(data);
    data = NULL;
    ck_assert(!gemu_file_read(path, 5, &data, &len, &err));
    want = g_strdup_printf("%s: 6 bytes is more than 5", path);
    ck_assert_str_eq(err, want);
    ck_assert_ptr_null(data);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(not_regular)
{
    g_autofree char *dir = g_dir_make_tmp("gemu-file-XXXXXX", NULL);
    g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
    g_autofree char *missing = g_build_filename(dir, "missing", NULL);
    char *data = NULL;
    size_t len;
    char *err = NULL;

    /* before util/file.c, each of these read for ever (or blocked) */
    ck_assert(!gemu_file_read("/dev/zero", 1 << 20, &data, &len, &err));
    ck_assert_str_eq(err, "/dev/zero: not a regular file");
    g_free(err);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert(!gemu_file_read(fifo, 1 << 20, &data, &len, &err));
    ck_assert(g_str_has_suffix(err, "/fifo: not a regular file"));
    g_free(err);
    ck_assert(!gemu_file_read(dir, 1 << 20, &data, &len, &err));
    ck_assert(g_str_has_suffix(err, ": not a regular file"));
    g_free(err);
    ck_assert(!gemu_file_read(missing, 1 << 20, &data, &len, &err));
    ck_assert(strstr(err, "/missing: "));
    g_free(err);
    ck_assert_ptr_null(data);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

/* A scene's "file" line naming a device is an error naming the line. */
START_TEST(scene_file_device)
{
    g_autofree char *err = NULL;
    SgxScene *s = sgx_scene_parse("sgx-scene 1\nfile 0x1000 /dev/zero\n",
                                  NULL, &err);

    ck_assert_ptr_null(s);
    ck_assert_str_eq(err, "line 2: /dev/zero: not a regular file");
}
END_TEST

Suite *util_file_suite(void)
{
    Suite *s = suite_create("util_file");
    TCase *tc = tcase_create("file");

    tcase_add_test(tc, regular_file);
    tcase_add_test(tc, not_regular);
    tcase_add_test(tc, scene_file_device);
    suite_add_tcase(s, tc);
    return s;
}
