/*
 * Recordings (block/gemu-rec.c): what is written reads back, and every
 * truncated or damaged file is a clear error or a noted prefix, never a
 * crash.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "block/gemu-rec.h"
#include <check.h>

static const GemuRecHeader test_hdr = {
    .machine = "g84", .version = GEMU_REC_VERSION,
    .flags = GEMU_REC_F_VIRTUAL_CLOCK, .access_ns = 1000,
    .vram_size = 256u << 20,
};

/* A small recording of each record type; END only if @end. */
static GByteArray *sample(bool end)
{
    GByteArray *out = g_byte_array_new();
    GemuRecWriter *w = gemu_rec_writer_new_mem(&test_hdr, out);
    uint8_t data[300];

    for (int i = 0; i < (int)sizeof(data); i++) {
        data[i] = i * 7;
    }
    gemu_rec_access(w, GEMU_REC_CFG_WRITE, 0x10, 4, 0xfd000000);
    gemu_rec_access(w, GEMU_REC_BAR_READ, 0xfd000000, 4, 0x084000a2);
    gemu_rec_dma_read(w, 0x10001000, data, sizeof(data), true);
    gemu_rec_dma_read(w, 0xfff00000, NULL, 16, false);
    gemu_rec_simple(w, GEMU_REC_IRQ, 1);
    gemu_rec_access(w, GEMU_REC_BAR_WRITE, 0xfd002140, 4, 0xffffffff);
    gemu_rec_flush(w);
    gemu_rec_simple(w, GEMU_REC_CLOCK, 16666667);
    gemu_rec_access(w, GEMU_REC_BAR_WRITE, 0xe0000000, 1, 0xab);
    gemu_rec_access(w, GEMU_REC_RESET, 0, 0, 0);
    gemu_rec_access(w, GEMU_REC_BAR_READ, 0xfd009400, 8,
                    0x123456789abcdef0ull);
    if (end) {
        ck_assert(gemu_rec_writer_close(w, 6, 123456, 0xfeedfacecafebeefull,
                                        NULL));
    } else {
        gemu_rec_writer_abandon(w);
    }
    return out;
}

START_TEST(round_trip)
{
    g_autoptr(GByteArray) b = sample(true);
    g_autoptr(GError) err = NULL;
    g_autoptr(GemuRecFile) f = gemu_rec_parse(b->data, b->len, &err);
    const GemuRecord *r;

    ck_assert_msg(f, "%s", err ? err->message : "");
    ck_assert(f->complete);
    ck_assert_ptr_null(f->note);
    ck_assert_str_eq(f->hdr.machine, "g84");
    ck_assert_uint_eq(f->hdr.access_ns, 1000);
    ck_assert_uint_eq(f->hdr.vram_size, 256u << 20);
    ck_assert_uint_eq(f->hdr.flags, GEMU_REC_F_VIRTUAL_CLOCK);
    ck_assert_uint_eq(f->records->len, 11);
    r = &g_array_index(f->records, GemuRecord, 0);
    ck_assert_uint_eq(r->type, GEMU_REC_CFG_WRITE);
    ck_assert_uint_eq(r->addr, 0x10);
    ck_assert_uint_eq(r->size, 4);
    ck_assert_uint_eq(r->val, 0xfd000000);
    r = &g_array_index(f->records, GemuRecord, 2);
    ck_assert_uint_eq(r->type, GEMU_REC_DMA_READ);
    ck_assert_uint_eq(r->addr, 0x10001000);
    ck_assert_uint_eq(r->val, 300);
    ck_assert(r->ok);
    ck_assert_uint_eq(r->data[299], (uint8_t)(299 * 7));
    r = &g_array_index(f->records, GemuRecord, 3);
    ck_assert(!r->ok && r->val == 16 && !r->data);
    r = &g_array_index(f->records, GemuRecord, 4);
    ck_assert_uint_eq(r->type, GEMU_REC_IRQ);
    ck_assert_uint_eq(r->size, 1);
    r = &g_array_index(f->records, GemuRecord, 6);
    ck_assert_uint_eq(r->type, GEMU_REC_CLOCK);
    ck_assert_uint_eq(r->val, 16666667);
    r = &g_array_index(f->records, GemuRecord, 9);
    ck_assert_uint_eq(r->size, 8);
    ck_assert_uint_eq(r->val, 0x123456789abcdef0ull);
    r = &g_array_index(f->records, GemuRecord, 10);
    ck_assert_uint_eq(r->type, GEMU_REC_END);
    ck_assert_uint_eq(r->addr, 6);
    ck_assert_uint_eq(r->val, 123456);
    ck_assert_uint_eq(r->digest, 0xfeedfacecafebeefull);
}
END_TEST

/* A killed run: no END; the prefix parses, and says so. */
START_TEST(no_end_is_a_noted_prefix)
{
    g_autoptr(GByteArray) b = sample(false);
    g_autoptr(GemuRecFile) f = gemu_rec_parse(b->data, b->len, NULL);

    ck_assert_ptr_nonnull(f);
    ck_assert(!f->complete);
    ck_assert_ptr_nonnull(strstr(f->note, "without an END"));
    ck_assert_uint_eq(f->records->len, 10);
}
END_TEST

/* Every length from 0 to the whole file: an error or a noted prefix. */
START_TEST(every_truncation)
{
    g_autoptr(GByteArray) b = sample(true);

    for (guint len = 0; len < b->len; len++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(GemuRecFile) f = gemu_rec_parse(b->data, len, &err);

        if (!f) {
            ck_assert_ptr_nonnull(err);
            ck_assert_msg(len < GEMU_REC_HEADER_SIZE,
                          "length %u: %s", len, err->message);
            continue;
        }
        ck_assert_msg(!f->complete, "length %u", len);
        ck_assert_ptr_nonnull(f->note);
        ck_assert_uint_le(f->records->len, 11);
    }
}
END_TEST

/*
 * Every byte flipped in turn: never a crash, and a damaged byte in the
 * header or in a checked part is reported, not taken.
 */
START_TEST(every_byte_damaged)
{
    g_autoptr(GByteArray) b = sample(true);
    g_autofree uint8_t *copy = g_memdup2(b->data, b->len);

    for (guint i = 0; i < b->len; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            g_autoptr(GError) err = NULL;
            g_autoptr(GemuRecFile) f = NULL;

            copy[i] ^= 1 << bit;
            f = gemu_rec_parse(copy, b->len, &err);
            copy[i] ^= 1 << bit;
            ck_assert_msg(!f || !f->complete, "byte %u bit %d: taken as a "
                          "good recording", i, bit);
            ck_assert(f || err);
        }
    }
}
END_TEST

static void expect_error(const uint8_t *buf, size_t len, const char *what)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GemuRecFile) f = gemu_rec_parse(buf, len, &err);

    ck_assert_ptr_null(f);
    ck_assert_msg(strstr(err->message, what), "'%s' has no '%s'",
                  err->message, what);
}

START_TEST(malformed_files)
{
    uint8_t b[GEMU_REC_HEADER_SIZE + 32] = { 0 };
    GemuRecHeader h = test_hdr;
    size_t n = GEMU_REC_HEADER_SIZE;

    expect_error(b, 10, "too short");
    expect_error(b, sizeof(b), "not a gemu recording");
    gemu_rec_encode_header(b, &h);
    b[20] ^= 1;
    expect_error(b, n, "CRC");
    h.version = 2;
    gemu_rec_encode_header(b, &h);
    expect_error(b, n, "version 2");
    h = test_hdr;
    h.access_ns = 5000000;
    gemu_rec_encode_header(b, &h);
    expect_error(b, n, "access time");
    h = test_hdr;
    g_strlcpy(h.machine, "g8 4", sizeof(h.machine));
    gemu_rec_encode_header(b, &h);
    expect_error(b, n, "machine name");
    gemu_rec_encode_header(b, &test_hdr);
    b[n] = 0x7f;                                    /* unknown type */
    expect_error(b, n + 1, "unknown record type 127 at offset 64");
    b[n] = GEMU_REC_BAR_READ;                       /* a 64-bit length */
    memset(b + n + 1, 0xff, 10);
    b[n + 11] = 0x01;
    expect_error(b, n + 12, "does not fit 64 bits");
    b[n + 1] = 0x80;                                /* 32 MiB + ... */
    b[n + 2] = 0x80;
    b[n + 3] = 0x80;
    b[n + 4] = 0x40;
    expect_error(b, n + 5, "at most");
    b[n + 1] = 3;                                   /* size 3 */
    b[n + 2] = 0x10;
    b[n + 3] = 3;
    b[n + 4] = 0;
    expect_error(b, n + 5, "malformed BAR_READ record at offset 64");
    b[n + 3] = 1;                                   /* 0x100 in a byte */
    b[n + 1] = 4;
    b[n + 4] = 0x80;
    b[n + 5] = 0x02;
    expect_error(b, n + 6, "malformed BAR_READ");
    b[n] = GEMU_REC_IRQ;                            /* level 2 */
    b[n + 1] = 1;
    b[n + 2] = 2;
    expect_error(b, n + 3, "malformed IRQ");
    b[n] = GEMU_REC_CHECK;                          /* a wrong CRC */
    b[n + 1] = 4;
    memset(b + n + 2, 0, 4);
    b[n + 2] = 1;               /* the CRC of no bytes is 0 */
    expect_error(b, n + 6, "CHECK at offset 64");
}
END_TEST

/* DMA data length against what the record holds. */
START_TEST(dma_lengths)
{
    uint8_t b[GEMU_REC_HEADER_SIZE + 16] = { 0 };
    size_t n = GEMU_REC_HEADER_SIZE;
    g_autoptr(GemuRecFile) f = NULL;

    gemu_rec_encode_header(b, &test_hdr);
    b[n] = GEMU_REC_DMA_READ;
    b[n + 1] = 5;               /* addr 0, len 4, ok, only 2 data bytes */
    b[n + 2] = 0;
    b[n + 3] = 4;
    b[n + 4] = 1;
    expect_error(b, n + 7, "malformed DMA_READ");
    b[n + 4] = 2;               /* ok must be 0 or 1 */
    expect_error(b, n + 7, "malformed DMA_READ");
    b[n + 1] = 3;               /* not ok: no data */
    b[n + 4] = 0;
    f = gemu_rec_parse(b, n + 5, NULL);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->records->len, 1);
    ck_assert(!g_array_index(f->records, GemuRecord, 0).ok);
}
END_TEST

START_TEST(crc32_known_value)
{
    /* the standard check value of CRC-32/ISO-HDLC */
    ck_assert_uint_eq(gemu_rec_crc32(0, "123456789", 9), 0xcbf43926);
}
END_TEST

Suite *gemu_rec_suite(void)
{
    Suite *s = suite_create("gemu_rec");
    TCase *tc = tcase_create("format");

    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, no_end_is_a_noted_prefix);
    tcase_add_test(tc, every_truncation);
    tcase_add_test(tc, every_byte_damaged);
    tcase_add_test(tc, malformed_files);
    tcase_add_test(tc, dma_lengths);
    tcase_add_test(tc, crc32_known_value);
    suite_add_tcase(s, tc);
    return s;
}
