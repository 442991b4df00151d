/*
 * Recordings (include/block/gemu-rec.h): the parser.  It takes any bytes
 * (a fuzzer's too): every length is checked against what is left before
 * it is used, and nothing is allocated from a length alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "block/gemu-rec.h"

static uint64_t ldn(const uint8_t *p, int n)
{
    uint64_t v = 0;

    for (int i = n - 1; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

typedef struct Cursor {
    const uint8_t *p;
    size_t len;
    size_t pos;
} Cursor;

/* false if the bytes end inside the number or it does not fit 64 bits */
static bool get_uleb(Cursor *c, uint64_t *v, bool *overlong)
{
    uint64_t r = 0;

    *overlong = false;
    for (int shift = 0; ; shift += 7) {
        uint8_t b;

        if (c->pos >= c->len) {
            return false;
        }
        b = c->p[c->pos++];
        if (shift == 63 && (b & 0x7e)) {
            *overlong = true;
            return false;
        }
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            break;
        }
        if (shift == 63) {
            *overlong = true;
            return false;
        }
    }
    *v = r;
    return true;
}

static bool parse_header(GemuRecHeader *h, const uint8_t *buf, size_t len,
                         GError **errp)
{
    uint32_t hsize;

    if (len < GEMU_REC_HEADER_SIZE) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "%zu bytes: too short for a "
                    "recording's %d-byte header", len, GEMU_REC_HEADER_SIZE);
        return false;
    }
    if (memcmp(buf, GEMU_REC_MAGIC, 8)) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "not a gemu recording (no "
                    "\"GEMUREC\" at offset 0)");
        return false;
    }
    if (ldn(buf + 60, 4) != gemu_rec_crc32(0, buf, 60)) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "the header's CRC (offset 60) "
                    "is wrong: the file is damaged");
        return false;
    }
    h->version = ldn(buf + 8, 4);
    hsize = ldn(buf + 12, 4);
    if (h->version != GEMU_REC_VERSION || hsize != GEMU_REC_HEADER_SIZE) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "recording version %u (header "
                    "%u bytes); this gemu reads version %d", h->version,
                    hsize, GEMU_REC_VERSION);
        return false;
    }
    memcpy(h->machine, buf + 16, GEMU_REC_MACHINE_LEN);
    h->machine[GEMU_REC_MACHINE_LEN] = 0;
    for (const char *m = h->machine; *m; m++) {
        if (!g_ascii_isalnum(*m) && *m != '-' && *m != '_') {
            g_set_error(errp, GEMU_REC_ERROR, 0, "the header's machine name "
                        "(offset 16) is not a name");
            return false;
        }
    }
    h->flags = ldn(buf + 32, 4);
    h->access_ns = ldn(buf + 36, 4);
    h->vram_size = ldn(buf + 40, 8);
    if (h->access_ns > GEMU_REC_MAX_ACCESS_NS) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "the header's access time "
                    "(offset 36) is %u ns, more than %d", h->access_ns,
                    GEMU_REC_MAX_ACCESS_NS);
        return false;
    }
    return true;
}

/* The payload of one record into r; false if it is malformed. */
static bool parse_payload(GemuRecord *r, Cursor *c)
{
    bool overlong;

    switch (r->type) {
    case GEMU_REC_BAR_READ:
    case GEMU_REC_BAR_WRITE:
    case GEMU_REC_CFG_READ:
    case GEMU_REC_CFG_WRITE:
        if (!get_uleb(c, &r->addr, &overlong) || c->pos >= c->len) {
            return false;
        }
        r->size = c->p[c->pos++];
        if ((r->size != 1 && r->size != 2 && r->size != 4 && r->size != 8) ||
            !get_uleb(c, &r->val, &overlong)) {
            return false;
        }
        return r->size == 8 || !(r->val >> (8 * r->size));
    case GEMU_REC_RESET:
        return true;
    case GEMU_REC_DMA_READ:
        if (!get_uleb(c, &r->addr, &overlong) ||
            !get_uleb(c, &r->val, &overlong) || c->pos >= c->len ||
            c->p[c->pos] > 1 || r->val > GEMU_REC_MAX_PAYLOAD) {
            return false;
        }
        r->ok = c->p[c->pos++];
        if (r->ok) {
            if (c->len - c->pos < r->val) {
                return false;
            }
            r->data = c->p + c->pos;
            c->pos += r->val;
        }
        return true;
    case GEMU_REC_IRQ:
        if (c->pos >= c->len || c->p[c->pos] > 1) {
            return false;
        }
        r->size = c->p[c->pos++];
        return true;
    case GEMU_REC_CLOCK:
        return get_uleb(c, &r->val, &overlong);
    case GEMU_REC_CHECK:
        if (c->len - c->pos < 4) {
            return false;
        }
        r->val = ldn(c->p + c->pos, 4);
        c->pos += 4;
        return true;
    case GEMU_REC_END:
        if (!get_uleb(c, &r->addr, &overlong) ||
            !get_uleb(c, &r->val, &overlong) ||
            !get_uleb(c, &r->host_ns, &overlong) || c->len - c->pos < 8) {
            return false;
        }
        r->digest = ldn(c->p + c->pos, 8);
        c->pos += 8;
        return true;
    default:
        return false;
    }
}

struct GemuRecReader {
    Cursor c;
    size_t checked;             /* end of the last good CHECK */
    uint64_t unchecked;         /* records since it */
    bool ended;                 /* END was read */
    bool done;                  /* nothing more to parse: see note */
    char *note;
    /* the records up to the next CHECK, verified before they are given */
    GArray *chunk;              /* of GemuRecord */
    guint next;
};

static void set_note(GemuRecReader *rd, char *note)
{
    g_free(rd->note);
    rd->note = note;
}

/*
 * One record at c->pos.  1: parsed into *r; 0: the file stops inside it
 * (note set); -1: malformed (*errp set).
 */
static int parse_record(GemuRecReader *f, Cursor *c, GemuRecord *r,
                        GError **errp)
{
    size_t start = c->pos;
    uint64_t plen;
    bool overlong;
    Cursor pc;

    memset(r, 0, sizeof(*r));
    r->offset = start;
    r->type = c->p[c->pos++];
    if (r->type == 0 || r->type >= GEMU_REC_TYPE_MAX) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "unknown record type %u at "
                    "offset %zu", r->type, start);
        return -1;
    }
    if (!get_uleb(c, &plen, &overlong)) {
        if (overlong) {
            g_set_error(errp, GEMU_REC_ERROR, 0, "%s record at offset %zu: "
                        "its length does not fit 64 bits",
                        gemu_rec_type_name(r->type), start);
            return -1;
        }
        set_note(f, g_strdup_printf("the file stops inside a %s record at "
                                    "offset %zu", gemu_rec_type_name(r->type),
                                    start));
        return 0;
    }
    if (plen > GEMU_REC_MAX_PAYLOAD) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "%s record at offset %zu: a "
                    "payload of %" PRIu64 " bytes (at most %d)",
                    gemu_rec_type_name(r->type), start, plen,
                    GEMU_REC_MAX_PAYLOAD);
        return -1;
    }
    if (c->len - c->pos < plen) {
        set_note(f, g_strdup_printf("the file stops inside a %s record at "
                                    "offset %zu (%zu of its %" PRIu64
                                    " payload bytes)",
                                    gemu_rec_type_name(r->type), start,
                                    c->len - c->pos, plen));
        return 0;
    }
    pc = (Cursor){ .p = c->p + c->pos, .len = plen };
    if (!parse_payload(r, &pc) || pc.pos != pc.len) {
        g_set_error(errp, GEMU_REC_ERROR, 0, "malformed %s record at offset "
                    "%zu (%" PRIu64 " payload bytes)",
                    gemu_rec_type_name(r->type), start, plen);
        return -1;
    }
    if (r->data) {
        r->data = c->p + c->pos + (r->data - pc.p);
    }
    c->pos += plen;
    return 1;
}

GemuRecReader *gemu_rec_reader_new(const uint8_t *buf, size_t len,
                                   GemuRecHeader *hdr, GError **errp)
{
    GemuRecReader *rd;

    if (!parse_header(hdr, buf, len, errp)) {
        return NULL;
    }
    rd = g_new0(GemuRecReader, 1);
    rd->chunk = g_array_new(FALSE, FALSE, sizeof(GemuRecord));
    rd->c = (Cursor){ .p = buf, .len = len, .pos = GEMU_REC_HEADER_SIZE };
    rd->checked = rd->c.pos;
    return rd;
}

/* The end of the bytes: whether the file was complete, and why not. */
static void reader_end(GemuRecReader *rd)
{
    rd->done = true;
    if (rd->ended && rd->checked == rd->c.len) {
        g_clear_pointer(&rd->note, g_free);
        return;
    }
    if (!rd->note) {
        set_note(rd, g_strdup_printf("the file stops at offset %zu without "
                                     "an END record (the run did not "
                                     "finish)", rd->c.pos));
    }
    if (rd->unchecked) {
        g_autofree char *old = g_steal_pointer(&rd->note);

        rd->note = g_strdup_printf("%s; the last %" PRIu64 " records are "
                                   "after the last CHECK (offset %zu), not "
                                   "verified", old, rd->unchecked,
                                   rd->checked);
    }
}

/*
 * Parse the records up to and including the next CHECK into rd->chunk
 * and verify it, so that no record of a damaged stretch is given out;
 * the tail after the last CHECK of a file that stops is given out
 * unverified (the note says so).  False with *errp if malformed.
 */
static bool read_chunk(GemuRecReader *rd, GError **errp)
{
    Cursor *c = &rd->c;
    GemuRecord r;

    g_array_set_size(rd->chunk, 0);
    rd->next = 0;
    while (!rd->done) {
        int st;

        if (c->pos >= c->len) {
            reader_end(rd);
            break;
        }
        if (rd->ended && c->p[c->pos] != GEMU_REC_CHECK) {
            g_set_error(errp, GEMU_REC_ERROR, 0, "bytes after the END "
                        "record, at offset %zu", c->pos);
            return false;
        }
        st = parse_record(rd, c, &r, errp);
        if (st < 0) {
            return false;
        }
        if (st == 0) {
            reader_end(rd);
            break;
        }
        if (r.type != GEMU_REC_CHECK) {
            rd->ended |= r.type == GEMU_REC_END;
            rd->unchecked++;
            g_array_append_val(rd->chunk, r);
            continue;
        }
        if (r.val != gemu_rec_crc32(0, c->p + rd->checked,
                                    r.offset - rd->checked)) {
            g_set_error(errp, GEMU_REC_ERROR, 0, "CHECK at offset %" PRIu64
                        ": the CRC of bytes %zu to %" PRIu64 " is wrong: "
                        "the file is damaged", r.offset, rd->checked,
                        r.offset);
            return false;
        }
        rd->checked = c->pos;
        rd->unchecked = 0;
        if (rd->chunk->len) {
            break;
        }
    }
    return true;
}

int gemu_rec_reader_next(GemuRecReader *rd, GemuRecord *r, GError **errp)
{
    if (rd->next >= rd->chunk->len && !read_chunk(rd, errp)) {
        return -1;
    }
    if (rd->next >= rd->chunk->len) {
        return 0;
    }
    *r = g_array_index(rd->chunk, GemuRecord, rd->next++);
    return 1;
}

const char *gemu_rec_reader_note(const GemuRecReader *rd)
{
    return rd->note;
}

void gemu_rec_reader_free(GemuRecReader *rd)
{
    if (rd) {
        g_array_free(rd->chunk, TRUE);
        g_free(rd->note);
        g_free(rd);
    }
}

GemuRecFile *gemu_rec_parse(const uint8_t *buf, size_t len, GError **errp)
{
    g_autoptr(GemuRecFile) f = g_new0(GemuRecFile, 1);
    GemuRecReader *rd = gemu_rec_reader_new(buf, len, &f->hdr, errp);
    GemuRecord r;
    int st;

    if (!rd) {
        return NULL;
    }
    f->records = g_array_new(FALSE, FALSE, sizeof(GemuRecord));
    while ((st = gemu_rec_reader_next(rd, &r, errp)) > 0) {
        g_array_append_val(f->records, r);
    }
    if (st == 0) {
        f->note = g_strdup(gemu_rec_reader_note(rd));
        f->complete = !f->note;
    }
    gemu_rec_reader_free(rd);
    return st < 0 ? NULL : g_steal_pointer(&f);
}

void gemu_rec_file_free(GemuRecFile *f)
{
    if (!f) {
        return;
    }
    if (f->records) {
        g_array_free(f->records, TRUE);
    }
    g_free(f->note);
    g_free(f);
}
