/*
 * The pieces of the G84 guest's builder (system/g84-guest.c), shared by
 * its files: the cpio writer (g84-cpio.c), what the guest runs of its own
 * (g84-init.c) and the Mesa archive (g84-mesa.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_G84_GUEST_H
#define SYSTEM_G84_GUEST_H

#include "gemu/osdep.h"

/* bump when the layout or /init changes, so caches are rebuilt */
#define G84_GUEST_FORMAT    9

/* /init, a busybox shell script (g84-init.c) */
extern const char g84_guest_init[];
/* /bin/gemu-mmiord FILE N: N reads of a BAR's first word (bench/g84.c) */
extern const unsigned char g84_guest_mmiord[];
extern const size_t g84_guest_mmiord_len;

/*
 * A cpio "newc" archive being written: into memory (buf) or straight to a
 * file (f, for the large Mesa archive); err is set on a write error.
 */
typedef struct Cpio {
    GByteArray *buf;
    FILE *f;
    uint64_t len;
    unsigned ino;
    bool err;
} Cpio;

void cpio_put(Cpio *c, const void *data, size_t len);
/* zeros up to the next multiple of 4 bytes */
void cpio_pad(Cpio *c);
/* an entry's header and name; LEN bytes of data follow it */
void cpio_header(Cpio *c, const char *name, unsigned mode,
                 unsigned rmaj, unsigned rmin, size_t len);
/* a whole entry (a directory, a device, a link: DATA is its target) */
void cpio_entry(Cpio *c, const char *name, unsigned mode,
                unsigned rmaj, unsigned rmin, const void *data,
                size_t len);
/* the directories above PATH not in DONE yet (added to it) */
void cpio_dirs(Cpio *c, GHashTable *done, const char *path);
/* the host's file HOST as NAME, read whole, its directories first */
bool cpio_file(Cpio *c, GHashTable *done, const char *name,
               const char *host, unsigned mode, GError **errp);
/* the host's file HOST as NAME, copied in pieces (some are 100 MB) */
bool cpio_copy(Cpio *c, const char *name, const char *host,
               GError **errp);

/*
 * -guest-mesa: the guest's archive BASE with Mesa's after it, in DIR
 * (the cache), made when its key is new, older ones removed; VER names
 * the kernel.  NULL with *errp set (naming the package) on failure.
 */
char *g84_mesa_prepare(const char *dir, const char *ver, const char *base,
                       GError **errp);

#endif
