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
#define G84_GUEST_FORMAT    10

/* /init, a busybox shell script (g84-init.c) */
extern const char g84_guest_init[];
/* /bin/gemu-mmiord FILE N: N reads of a BAR's first word (bench/g84.c) */
extern const unsigned char g84_guest_mmiord[];
extern const size_t g84_guest_mmiord_len;
/* /bin/gemu-screendump [NAME]: ask gemu for a screendump, wait for it */
extern const char g84_guest_screendump[];

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

/* Write into the file PATH (c->f) / close it: OK and no write error. */
bool cpio_open(Cpio *c, const char *path, GError **errp);
bool cpio_close(Cpio *c, const char *path, bool ok, GError **errp);
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

/* The guest's kernel and the modules it loads (g84-kernel.c). */
typedef struct G84Kernel {
    char *image;                /* the bzImage QEMU boots */
    char *version;              /* its release, as "uname -r" says */
    char *moddir;               /* ROOT/lib/modules/VERSION; NULL: none */
    GPtrArray *mods;            /* nouveau's, under moddir, load order */
} G84Kernel;

/*
 * The kernel IMAGE (NULL: Debian's newest in /boot) and its nouveau
 * modules under MODROOT/lib/modules (NULL: the host's), checked to fit:
 * the versions agree, the .config beside the image (if any) has what
 * the guest needs, there is a nouveau module (unless built in).  False
 * with *errp set, saying what does not fit.
 */
bool g84_kernel_find(G84Kernel *k, const char *image, const char *modroot,
                     GError **errp);
void g84_kernel_clear(G84Kernel *k);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(G84Kernel, g84_kernel_clear)
/* A bzImage's release (its setup header's kernel_version string). */
char *g84_bzimage_version(const char *path, GError **errp);
/* Module NAME of K (under moddir), inflated if compressed; nouveau's
 * vermagic must name K's version. */
bool g84_module_read(const G84Kernel *k, const char *name, char **data,
                     gsize *len, GError **errp);
/* Its name in the guest: NAME without the compression suffix. */
char *g84_module_guest_name(const char *name);

/* Append the file PATH as it is (an archive of its own), streamed. */
bool cpio_append(Cpio *c, const char *path, GError **errp);
/* Is PATH a cpio archive, or one compressed the ways the kernel knows? */
bool g84_archive_check(const char *path, GError **errp);
/* The tree under the host's DIR, as NAME/... ("" for the root). */
bool cpio_tree(Cpio *c, const char *dir, const char *name, GError **errp);

/*
 * -guest-mesa: the guest's archive BASE with Mesa's after it, in DIR
 * (the cache), made when its key is new, older ones removed; VER names
 * the kernel.  NULL with *errp set (naming the package) on failure.
 */
char *g84_mesa_prepare(const char *dir, const char *ver, const char *base,
                       GError **errp);

#endif
