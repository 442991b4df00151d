/*
 * A scene on the SGX543 (hw/sgx543/scene.c): what the sgx543 machine
 * and the scene fuzzer do with a parsed scene; the reader's findings
 * (block/sgx-scene.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/sgx543/scene.h"
#include <check.h>

/*
 * An empty usse block is an empty blob: loading it copies nothing (it
 * passed a NULL source to memcpy before, which UBSan reports; found by
 * tests/fuzz/fuzz-sgx-scene.c).
 */
START_TEST(empty_blob)
{
    g_autofree char *err = NULL;
    g_autofree uint8_t *ram = NULL;
    SgxScene *s = sgx_scene_parse("sgx-scene 1\nmemory 0x10000\n"
                                  "usse 0x1000\nend\n"
                                  "data 0x2000 u32 0x12345678\n"
                                  "commands 0x3000\nend\n", NULL, &err);

    ck_assert_msg(s, "%s", err);
    ck_assert_uint_eq(s->blobs->len, 3);     /* usse, data, commands */
    ram = g_malloc0(s->mem_size);
    ck_assert_msg(sgx_scene_load(s, ram, &err), "%s", err);
    ck_assert_uint_eq(ram[0x1000], 0);
    ck_assert_uint_eq(ram[0x2000], 0x78);
    sgx_scene_free(s);
}
END_TEST

/* Data reaching the CCB area at the top of memory: an error naming it. */
START_TEST(blob_in_ccb_area)
{
    g_autofree char *err = NULL;
    g_autofree uint8_t *ram = NULL;
    SgxScene *s = sgx_scene_parse("sgx-scene 1\nmemory 0x10000\n"
                                  "data 0xe000 u32 1\n"
                                  "commands 0x3000\nend\n", NULL, &err);

    ck_assert_msg(s, "%s", err);
    ram = g_malloc0(s->mem_size);
    ck_assert(!sgx_scene_load(s, ram, &err));
    ck_assert_str_eq(err, "line 3: data at 0x0000e000 reaches the CCB area "
                     "(the top 0x3000 bytes of memory)");
    sgx_scene_free(s);
}
END_TEST

/*
 * "data" with nothing after it: a usage error naming the line (it read
 * past the end of the line's tokens before, which ASan reports; found by
 * tests/fuzz/fuzz-sgx-scene.c).
 */
START_TEST(data_alone)
{
    g_autofree char *err = NULL;
    SgxScene *s = sgx_scene_parse("sgx-scene 1\ndata\n", NULL, &err);

    ck_assert_ptr_null(s);
    ck_assert_str_eq(err, "line 2: usage: data ADDR u8|u16|u32|f32 "
                     "[VALUES...]");
}
END_TEST

Suite *sgx_scene_suite(void)
{
    Suite *s = suite_create("sgx_scene");
    TCase *tc = tcase_create("load");

    tcase_add_test(tc, empty_blob);
    tcase_add_test(tc, blob_in_ccb_area);
    tcase_add_test(tc, data_alone);
    suite_add_tcase(s, tc);
    return s;
}
