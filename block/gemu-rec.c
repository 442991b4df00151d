/*
 * Recordings of what a guest did to a card: writer and parser of the
 * file format in include/block/gemu-rec.h (docs/devel/replay.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "block/gemu-rec.h"

G_DEFINE_QUARK(gemu-rec-error-quark, gemu_rec_error)

/* a flush (CHECK and write) at least this often */
#define REC_FLUSH_BYTES     (256 * 1024)
#define ULEB_MAX            10      /* bytes of a 64-bit ULEB128 */

static const char *const type_names[GEMU_REC_TYPE_MAX] = {
    [GEMU_REC_BAR_READ] = "BAR_READ",
    [GEMU_REC_BAR_WRITE] = "BAR_WRITE",
    [GEMU_REC_CFG_READ] = "CFG_READ",
    [GEMU_REC_CFG_WRITE] = "CFG_WRITE",
    [GEMU_REC_RESET] = "RESET",
    [GEMU_REC_DMA_READ] = "DMA_READ",
    [GEMU_REC_IRQ] = "IRQ",
    [GEMU_REC_CLOCK] = "CLOCK",
    [GEMU_REC_CHECK] = "CHECK",
    [GEMU_REC_END] = "END",
};

const char *gemu_rec_type_name(int type)
{
    return type > 0 && type < GEMU_REC_TYPE_MAX ? type_names[type] : "?";
}

uint32_t gemu_rec_crc32(uint32_t crc, const void *buf, size_t len)
{
    static uint32_t table[256];
    const uint8_t *p = buf;

    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;

            for (int k = 0; k < 8; k++) {
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            }
            table[i] = c;   /* the same values from any racing thread */
        }
    }
    crc = ~crc;
    while (len--) {
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    }
    return ~crc;
}

static void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = v >> (8 * i);
    }
}

void gemu_rec_encode_header(uint8_t *out, const GemuRecHeader *hdr)
{
    memset(out, 0, GEMU_REC_HEADER_SIZE);
    memcpy(out, GEMU_REC_MAGIC, 8);
    st32(out + 8, hdr->version);
    st32(out + 12, GEMU_REC_HEADER_SIZE);
    memcpy(out + 16, hdr->machine,
           strnlen(hdr->machine, GEMU_REC_MACHINE_LEN - 1));
    st32(out + 32, hdr->flags);
    st32(out + 36, hdr->access_ns);
    st32(out + 40, (uint32_t)hdr->vram_size);
    st32(out + 44, (uint32_t)(hdr->vram_size >> 32));
    st32(out + 60, gemu_rec_crc32(0, out, 60));
}

/* --- writer --- */

struct GemuRecWriter {
    GMutex lock;
    FILE *f;                    /* NULL: into mem */
    GByteArray *mem;
    char *path;
    GByteArray *buf;            /* records since the last flush */
    int64_t t0;                 /* host us when it was made */
    bool failed;
};

static size_t put_uleb(uint8_t *p, uint64_t v)
{
    size_t n = 0;

    do {
        p[n] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
        v >>= 7;
        n++;
    } while (v);
    return n;
}

/* lock held: one record, its payload in two parts (data may be NULL) */
static void put_record(GemuRecWriter *w, uint8_t type, const uint8_t *head,
                       size_t hlen, const void *data, size_t dlen)
{
    uint8_t t[1 + ULEB_MAX];
    size_t n;

    t[0] = type;
    n = 1 + put_uleb(t + 1, hlen + dlen);
    g_byte_array_append(w->buf, t, n);
    g_byte_array_append(w->buf, head, hlen);
    if (dlen) {
        g_byte_array_append(w->buf, data, dlen);
    }
}

/* lock held */
static void flush_locked(GemuRecWriter *w)
{
    uint8_t crc[4];

    if (!w->buf->len) {
        return;
    }
    st32(crc, gemu_rec_crc32(0, w->buf->data, w->buf->len));
    put_record(w, GEMU_REC_CHECK, crc, 4, NULL, 0);
    if (w->mem) {
        g_byte_array_append(w->mem, w->buf->data, w->buf->len);
    } else if (!w->failed &&
               (fwrite(w->buf->data, 1, w->buf->len, w->f) != w->buf->len ||
                fflush(w->f))) {
        gemu_error("-record %s: %s; the recording stops here", w->path,
                   strerror(errno));
        w->failed = true;
    }
    g_byte_array_set_size(w->buf, 0);
}

static GemuRecWriter *writer_new(const GemuRecHeader *hdr)
{
    GemuRecWriter *w = g_new0(GemuRecWriter, 1);
    uint8_t h[GEMU_REC_HEADER_SIZE];

    g_mutex_init(&w->lock);
    w->t0 = g_get_monotonic_time();
    w->buf = g_byte_array_sized_new(REC_FLUSH_BYTES + 4096);
    gemu_rec_encode_header(h, hdr);
    g_byte_array_append(w->buf, h, sizeof(h));
    return w;
}

GemuRecWriter *gemu_rec_writer_open(const char *path,
                                    const GemuRecHeader *hdr, GError **errp)
{
    GemuRecWriter *w;
    FILE *f = fopen(path, "wb");

    if (!f) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "cannot write '%s': %s", path,
                    strerror(errno));
        return NULL;
    }
    w = writer_new(hdr);
    w->f = f;
    w->path = g_strdup(path);
    /* the header alone, at once: the file is a recording from the start */
    if (fwrite(w->buf->data, 1, w->buf->len, f) != w->buf->len ||
        fflush(f)) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "cannot write '%s': %s", path,
                    strerror(errno));
        gemu_rec_writer_abandon(w);
        return NULL;
    }
    g_byte_array_set_size(w->buf, 0);
    return w;
}

GemuRecWriter *gemu_rec_writer_new_mem(const GemuRecHeader *hdr,
                                       GByteArray *out)
{
    GemuRecWriter *w = writer_new(hdr);

    w->mem = out;
    g_byte_array_append(out, w->buf->data, w->buf->len);
    g_byte_array_set_size(w->buf, 0);
    return w;
}

static void maybe_flush_locked(GemuRecWriter *w)
{
    if (w->buf->len >= REC_FLUSH_BYTES) {
        flush_locked(w);
    }
}

void gemu_rec_access(GemuRecWriter *w, GemuRecType type, uint64_t addr,
                     unsigned size, uint64_t val)
{
    uint8_t p[2 * ULEB_MAX + 1];
    size_t n = 0;

    if (type != GEMU_REC_RESET) {       /* a reset has no fields */
        n = put_uleb(p, addr);
        p[n++] = size;
        n += put_uleb(p + n, val);
    }
    g_mutex_lock(&w->lock);
    put_record(w, type, p, n, NULL, 0);
    maybe_flush_locked(w);
    g_mutex_unlock(&w->lock);
}

void gemu_rec_dma_read(GemuRecWriter *w, uint64_t addr, const void *buf,
                       size_t len, bool ok)
{
    uint8_t p[2 * ULEB_MAX + 1];
    size_t n = put_uleb(p, addr);

    n += put_uleb(p + n, len);
    p[n++] = ok;
    g_mutex_lock(&w->lock);
    put_record(w, GEMU_REC_DMA_READ, p, n, buf, ok ? len : 0);
    maybe_flush_locked(w);
    g_mutex_unlock(&w->lock);
}

void gemu_rec_simple(GemuRecWriter *w, GemuRecType type, uint64_t val)
{
    uint8_t p[ULEB_MAX];
    size_t n = 0;

    if (type == GEMU_REC_IRQ) {
        p[n++] = !!val;
    } else if (type == GEMU_REC_CLOCK) {
        n = put_uleb(p, val);
    }
    g_mutex_lock(&w->lock);
    put_record(w, type, p, n, NULL, 0);
    maybe_flush_locked(w);
    g_mutex_unlock(&w->lock);
}

void gemu_rec_flush(GemuRecWriter *w)
{
    g_mutex_lock(&w->lock);
    flush_locked(w);
    g_mutex_unlock(&w->lock);
}

size_t gemu_rec_pending(GemuRecWriter *w)
{
    size_t n;

    g_mutex_lock(&w->lock);
    n = w->buf->len;
    g_mutex_unlock(&w->lock);
    return n;
}

static void writer_free(GemuRecWriter *w)
{
    g_byte_array_free(w->buf, TRUE);
    g_mutex_clear(&w->lock);
    g_free(w->path);
    g_free(w);
}

void gemu_rec_writer_abandon(GemuRecWriter *w)
{
    if (!w) {
        return;
    }
    gemu_rec_flush(w);
    if (w->f) {
        fclose(w->f);
    }
    writer_free(w);
}

bool gemu_rec_writer_close(GemuRecWriter *w, uint64_t accesses,
                           uint64_t clock_ns, uint64_t digest,
                           GError **errp)
{
    uint8_t p[3 * ULEB_MAX + 8];
    size_t n = put_uleb(p, accesses);
    bool ok;

    n += put_uleb(p + n, clock_ns);
    n += put_uleb(p + n, (g_get_monotonic_time() - w->t0) * 1000);
    for (int i = 0; i < 8; i++) {
        p[n++] = digest >> (8 * i);
    }
    g_mutex_lock(&w->lock);
    put_record(w, GEMU_REC_END, p, n, NULL, 0);
    flush_locked(w);
    ok = !w->failed;
    g_mutex_unlock(&w->lock);
    if (w->f && fclose(w->f) && ok) {
        ok = false;
        errno = errno ? errno : EIO;
    }
    if (!ok) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "cannot write '%s': %s",
                    w->path, strerror(errno));
    }
    writer_free(w);
    return ok;
}

/* --- parser: see gemu-rec-parse.c --- */
