/*
 * Recordings of what a guest did to a card (gemu -record FILE, read by
 * gemu-replay): the file format.  docs/devel/replay.md describes it byte
 * by byte; in short:
 *
 *   header (64 bytes): "GEMUREC\n", u32 version, u32 header size,
 *     char machine[16], u32 flags, u32 access_ns, u64 vram size,
 *     12 bytes reserved (0), u32 CRC-32 of the 60 bytes before it
 *   records: u8 type, ULEB128 payload length, payload
 *
 * Numbers inside payloads are ULEB128 unless said otherwise; everything
 * is little-endian.  A CHECK record carries the CRC-32 of every byte
 * since the header or the previous CHECK; the writer puts one before each
 * flush, so a killed run leaves a prefix whose checked part is known
 * good.  An END record closes a finished recording.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef BLOCK_GEMU_REC_H
#define BLOCK_GEMU_REC_H

#include "gemu/osdep.h"

#define GEMU_REC_MAGIC          "GEMUREC\n"
#define GEMU_REC_VERSION        1
#define GEMU_REC_HEADER_SIZE    64
#define GEMU_REC_MACHINE_LEN    16
/* largest payload a reader accepts (a DMA read of this much, and more) */
#define GEMU_REC_MAX_PAYLOAD    (64 * 1024 * 1024)

/* the header's access_ns at most (1 ms) */
#define GEMU_REC_MAX_ACCESS_NS  1000000
#define GEMU_REC_F_VIRTUAL_CLOCK    1u  /* recorded with -clock virtual */

typedef enum GemuRecType {
    /* the guest's accesses, numbered from 1 in file order ("seq") */
    GEMU_REC_BAR_READ = 1,      /* addr, size (u8), value the guest got */
    GEMU_REC_BAR_WRITE = 2,     /* addr, size (u8), value */
    GEMU_REC_CFG_READ = 3,      /* config space: the same fields */
    GEMU_REC_CFG_WRITE = 4,
    GEMU_REC_RESET = 5,         /* the guest reset the function: empty */
    /* what the card did during the access (or clock step) that follows */
    GEMU_REC_DMA_READ = 6,      /* addr, len, ok (u8), len bytes if ok */
    GEMU_REC_IRQ = 7,           /* INTx level (u8) */
    /* the machine moved the virtual clock (the guest was idle) */
    GEMU_REC_CLOCK = 8,         /* ns */
    GEMU_REC_CHECK = 9,         /* u32 CRC-32 since the previous check */
    GEMU_REC_END = 10,          /* accesses, clock ns, host ns the run
                                   took, u64 state digest */
    GEMU_REC_TYPE_MAX,
} GemuRecType;

typedef struct GemuRecHeader {
    char machine[GEMU_REC_MACHINE_LEN + 1];
    uint32_t version;
    uint32_t flags;
    uint32_t access_ns;         /* the virtual clock's rule (clock.h) */
    uint64_t vram_size;
} GemuRecHeader;

/* One record as read: the fields its type has, the rest 0. */
typedef struct GemuRecord {
    uint8_t type;
    uint8_t size;               /* access size (1, 2, 4, 8), IRQ level */
    bool ok;                    /* DMA_READ: the addresses were guest RAM */
    uint64_t addr;              /* accesses, DMA_READ; END: accesses */
    uint64_t val;               /* accesses: value; DMA_READ: length;
                                   CLOCK/END: ns */
    uint64_t digest;            /* END */
    uint64_t host_ns;           /* END: the recorded run's wall time */
    const uint8_t *data;        /* DMA_READ: into the parsed buffer */
    uint64_t offset;            /* where the record starts in the file */
} GemuRecord;

typedef struct GemuRecFile {
    GemuRecHeader hdr;
    GArray *records;            /* of GemuRecord (CHECKs left out) */
    bool complete;              /* ended with END, every CHECK right */
    char *note;                 /* why not complete (NULL if it is) */
} GemuRecFile;

GQuark gemu_rec_error_quark(void);
#define GEMU_REC_ERROR gemu_rec_error_quark()

const char *gemu_rec_type_name(int type);

/*
 * Parse a recording held in @buf (which must outlive the result: DMA
 * data points into it).  Any bytes are safe to hand in.  A bad header,
 * a record that cannot be (unknown type, impossible length or field), a
 * CHECK whose CRC is wrong: NULL, with *errp naming the byte offset.  A
 * file that merely stops (a run that was killed: a partial last record,
 * no END) parses, with complete false and note saying where it stops;
 * records after the last good CHECK are kept but noted as unchecked.
 */
GemuRecFile *gemu_rec_parse(const uint8_t *buf, size_t len, GError **errp);
void gemu_rec_file_free(GemuRecFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GemuRecFile, gemu_rec_file_free)

/*
 * The same, one record at a time, for recordings too long to hold
 * parsed (gemu-replay): the header is checked at once (NULL with *errp
 * if it is bad); gemu_rec_reader_next() gives the next record (CHECKs
 * left out; the records up to a CHECK are verified before the first of
 * them is given): 1, or 0 when there are no more (the note says why,
 * NULL if the file was complete), or -1 with *errp on a malformed
 * record or a wrong CRC.  @buf must outlive the reader and its records.
 */
typedef struct GemuRecReader GemuRecReader;
GemuRecReader *gemu_rec_reader_new(const uint8_t *buf, size_t len,
                                   GemuRecHeader *hdr, GError **errp);
int gemu_rec_reader_next(GemuRecReader *rd, GemuRecord *r, GError **errp);
const char *gemu_rec_reader_note(const GemuRecReader *rd);
void gemu_rec_reader_free(GemuRecReader *rd);

/* The header's first GEMU_REC_HEADER_SIZE bytes, encoded. */
void gemu_rec_encode_header(uint8_t *out, const GemuRecHeader *hdr);

/* CRC-32 (IEEE 802.3, as zlib's crc32), continued from @crc. */
uint32_t gemu_rec_crc32(uint32_t crc, const void *buf, size_t len);

typedef struct GemuRecWriter GemuRecWriter;

/*
 * Start writing a recording to @path (created or truncated).  The
 * writer is safe to call from several threads (one lock).  Writing
 * errors are reported once and stop the recording, not the machine.
 */
GemuRecWriter *gemu_rec_writer_open(const char *path,
                                    const GemuRecHeader *hdr,
                                    GError **errp);
/* The same, into a GByteArray the caller reads (tests, benchmarks). */
GemuRecWriter *gemu_rec_writer_new_mem(const GemuRecHeader *hdr,
                                       GByteArray *out);
void gemu_rec_access(GemuRecWriter *w, GemuRecType type, uint64_t addr,
                     unsigned size, uint64_t val);
void gemu_rec_dma_read(GemuRecWriter *w, uint64_t addr, const void *buf,
                       size_t len, bool ok);
void gemu_rec_simple(GemuRecWriter *w, GemuRecType type, uint64_t val);
/* CHECK, then flush to the file: a killed run keeps what is written. */
void gemu_rec_flush(GemuRecWriter *w);
/* Bytes since the last flush (the caller flushes when it likes). */
size_t gemu_rec_pending(GemuRecWriter *w);
/*
 * END (accesses, virtual clock ns, the host time since the writer was
 * made, the card's digest), flush, close and free.
 */
bool gemu_rec_writer_close(GemuRecWriter *w, uint64_t accesses,
                           uint64_t clock_ns, uint64_t digest,
                           GError **errp);
/* Close without END (an aborted run); the file stays readable. */
void gemu_rec_writer_abandon(GemuRecWriter *w);

#endif
