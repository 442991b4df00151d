/*
 * The cpio "newc" archives of the G84 guest's initramfs (the format the
 * kernel unpacks: Documentation/driver-api/early-userspace/
 * buffer-format.rst), written into memory or straight to a file.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "g84-guest.h"

#include <sys/stat.h>

bool cpio_open(Cpio *c, const char *path, GError **errp)
{
    c->f = fopen(path, "wb");
    if (!c->f) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

bool cpio_close(Cpio *c, const char *path, bool ok, GError **errp)
{
    bool failed = fclose(c->f) != 0 || c->err;

    c->f = NULL;
    if (failed && ok) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_IO,
                    "cannot write %s: %s", path, strerror(errno));
    }
    return ok && !failed;
}

void cpio_put(Cpio *c, const void *data, size_t len)
{
    if (c->f) {
        if (len && fwrite(data, 1, len, c->f) != len) {
            c->err = true;
        }
    } else {
        g_byte_array_append(c->buf, data, len);
    }
    c->len += len;
}

void cpio_pad(Cpio *c)
{
    static const uint8_t zero[4];

    cpio_put(c, zero, (4 - c->len % 4) % 4);
}

void cpio_header(Cpio *c, const char *name, unsigned mode,
                 unsigned rmaj, unsigned rmin, size_t len)
{
    g_autofree char *hdr = g_strdup_printf(
        "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
        ++c->ino, mode, 0u, 0u, 1u, 0u, len, 0u, 0u, rmaj, rmin,
        strlen(name) + 1, 0u);

    cpio_put(c, hdr, strlen(hdr));
    cpio_put(c, name, strlen(name) + 1);
    cpio_pad(c);
}

void cpio_entry(Cpio *c, const char *name, unsigned mode,
                unsigned rmaj, unsigned rmin, const void *data,
                size_t len)
{
    cpio_header(c, name, mode, rmaj, rmin, len);
    if (len) {
        cpio_put(c, data, len);
        cpio_pad(c);
    }
}

void cpio_dirs(Cpio *c, GHashTable *done, const char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);

    if (!strcmp(dir, ".") || !strcmp(dir, "/") ||
        g_hash_table_contains(done, dir)) {
        return;
    }
    cpio_dirs(c, done, dir);
    cpio_entry(c, dir, 040755, 0, 0, NULL, 0);
    g_hash_table_add(done, g_steal_pointer(&dir));
}

bool cpio_file(Cpio *c, GHashTable *done, const char *name,
               const char *host, unsigned mode, GError **errp)
{
    g_autofree char *data = NULL;
    gsize len;

    if (!g_file_get_contents(host, &data, &len, errp)) {
        return false;
    }
    cpio_dirs(c, done, name);
    cpio_entry(c, name, mode, 0, 0, data, len);
    return true;
}

/* A host file into the archive, copied in pieces (some are 100 MB). */
bool cpio_copy(Cpio *c, const char *name, const char *host,
               GError **errp)
{
    FILE *in = fopen(host, "rb");
    struct stat st;
    char buf[1 << 16];
    size_t n, left;

    if (!in || fstat(fileno(in), &st) < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot read %s: %s", host, strerror(errno));
        if (in) {
            fclose(in);
        }
        return false;
    }
    cpio_header(c, name, 0100000 | (st.st_mode & 0755), 0, 0, st.st_size);
    for (left = st.st_size; left; left -= n) {
        n = fread(buf, 1, MIN(left, sizeof(buf)), in);
        if (!n) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_IO,
                        "%s changed while it was read", host);
            fclose(in);
            return false;
        }
        cpio_put(c, buf, n);
    }
    fclose(in);
    cpio_pad(c);
    return true;
}

bool cpio_append(Cpio *c, const char *path, GError **errp)
{
    FILE *in = fopen(path, "rb");
    char buf[1 << 16];
    size_t n;

    if (!in) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    /* the kernel wants each archive at a multiple of 4 (zeros between) */
    cpio_pad(c);
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
        cpio_put(c, buf, n);
    }
    if (ferror(in)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_IO,
                    "cannot read %s", path);
        fclose(in);
        return false;
    }
    fclose(in);
    cpio_pad(c);
    return true;
}

bool cpio_tree(Cpio *c, const char *dir, const char *name, GError **errp)
{
    GDir *d = g_dir_open(dir, 0, errp);
    const char *e;
    bool ok = true;

    if (!d) {
        return false;
    }
    while (ok && (e = g_dir_read_name(d))) {
        g_autofree char *host = g_build_filename(dir, e, NULL);
        g_autofree char *guest = *name ? g_strdup_printf("%s/%s", name, e)
                                       : g_strdup(e);
        struct stat st;

        if (lstat(host, &st) < 0) {
            g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                        "cannot read %s: %s", host, strerror(errno));
            ok = false;
        } else if (S_ISLNK(st.st_mode)) {
            g_autofree char *target = g_file_read_link(host, errp);

            ok = target != NULL;
            if (ok) {
                cpio_entry(c, guest, 0120777, 0, 0, target, strlen(target));
            }
        } else if (S_ISDIR(st.st_mode)) {
            cpio_entry(c, guest, 040000 | (st.st_mode & 07777), 0, 0,
                       NULL, 0);
            ok = cpio_tree(c, host, guest, errp);
        } else if (S_ISREG(st.st_mode)) {
            ok = cpio_copy(c, guest, host, errp);
        } else {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "%s is not a file, a directory or a link (devices "
                        "come from the guest's devtmpfs)", host);
            ok = false;
        }
    }
    g_dir_close(d);
    return ok;
}

bool g84_archive_check(const char *path, GError **errp)
{
    /* newc, newc with checksums, odc; gzip, bzip2, xz, lzma, lzo, lz4, zstd */
    static const struct {
        const char *magic;
        size_t len;
    } magics[] = {
        { "070701", 6 }, { "070702", 6 }, { "070707", 6 },
        { "\x1f\x8b", 2 }, { "BZh", 3 }, { "\xfd" "7zXZ", 5 },
        { "\x5d\x00\x00", 3 }, { "\x89LZO", 4 }, { "\x02\x21\x4c\x18", 4 },
        { "\x28\xb5\x2f\xfd", 4 },
    };
    unsigned char head[6] = { 0 };
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    n = fread(head, 1, sizeof(head), f);
    fclose(f);
    for (size_t i = 0; i < ARRAY_SIZE(magics); i++) {
        if (n >= magics[i].len && !memcmp(head, magics[i].magic,
                                          magics[i].len)) {
            return true;
        }
    }
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "%s is neither a directory nor a cpio archive (\"find . | "
                "cpio -o -H newc\" makes one)", path);
    return false;
}
