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
