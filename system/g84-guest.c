/*
 * The guest of "gemu -M g84 -guest": Debian's own kernel image
 * (linux-image-amd64), its nouveau module with the modules it depends on,
 * and busybox-static, packed into an initramfs (cpio "newc", uncompressed)
 * in $XDG_CACHE_HOME/gemu/.  The initramfs is rebuilt when an input is
 * newer than it.
 *
 * The guest's /init loads the modules (giving nouveau the "nouveau.*"
 * options of the kernel command line, as modprobe would), then runs
 * -guest-run's command ("gemu.runb64=") and powers off, or powers off
 * after a while ("gemu.poweroff=SECONDS": for tests), or runs a shell on
 * the console and powers off when it exits.
 *
 * -guest-mesa adds Mesa's userspace as a second archive after this one,
 * cached beside it (g84-mesa.c; docs/g84-guest.md).  /init is in
 * g84-init.c, the cpio writer in g84-cpio.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "g84.h"
#include "g84-guest.h"

#include <dirent.h>
#include <elf.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* A dynamically linked busybox (package busybox) cannot run alone. */
static bool elf_is_static(const char *path)
{
    g_autofree char *data = NULL;
    gsize len;
    const Elf64_Ehdr *eh;

    if (!g_file_get_contents(path, &data, &len, NULL) ||
        len < sizeof(Elf64_Ehdr)) {
        return false;
    }
    eh = (const Elf64_Ehdr *)data;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > len) {
        return false;
    }
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph =
            (const Elf64_Phdr *)(data + eh->e_phoff) + i;

        if (ph->p_type == PT_INTERP) {
            return false;
        }
    }
    return true;
}

static int64_t mtime_of(const char *path)
{
    struct stat st;

    return stat(path, &st) ? INT64_MAX : (int64_t)st.st_mtime;
}

/* The modules of K into C (lib/modules/...), their order in ORDER. */
static bool initramfs_modules(Cpio *c, GHashTable *done, const G84Kernel *k,
                              GString *order, GError **errp)
{
    for (guint i = 0; i < k->mods->len; i++) {
        const char *m = g_ptr_array_index(k->mods, i);
        g_autofree char *gm = g84_module_guest_name(m);
        g_autofree char *name = g_strdup_printf("lib/modules/%s", gm);
        g_autofree char *data = NULL;
        gsize len;

        if (!g84_module_read(k, m, &data, &len, errp)) {
            return false;
        }
        cpio_dirs(c, done, name);
        cpio_entry(c, name, 0100644, 0, 0, data, len);
        g_string_append_printf(order, "%s\n", gm);
    }
    return true;
}

static bool build_initramfs(const char *out, const G84Kernel *k,
                            GError **errp)
{
    Cpio c = { .buf = g_byte_array_new() };
    g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash,
                                                       g_str_equal, g_free,
                                                       NULL);
    GString *order = g_string_new(NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp%ld", out, (long)getpid());
    bool ok = false;
    static const char *const dirs[] = { "bin", "dev", "proc", "sys",
                                        "etc", "lib", "lib/modules" };

    for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
        cpio_entry(&c, dirs[i], 040755, 0, 0, NULL, 0);
        g_hash_table_add(done, g_strdup(dirs[i]));
    }
    /* the kernel opens /dev/console for init before devtmpfs is there */
    cpio_entry(&c, "dev/console", 020600, 5, 1, NULL, 0);
    if (!cpio_file(&c, done, "bin/busybox", "/bin/busybox", 0100755, errp)) {
        goto out;
    }
    cpio_entry(&c, "bin/sh", 0120777, 0, 0, "busybox", 7);
    cpio_entry(&c, "bin/gemu-mmiord", 0100755, 0, 0, g84_guest_mmiord,
               g84_guest_mmiord_len);
    cpio_entry(&c, "bin/gemu-screendump", 0100755, 0, 0,
               g84_guest_screendump, strlen(g84_guest_screendump));
    cpio_entry(&c, "init", 0100755, 0, 0, g84_guest_init,
               strlen(g84_guest_init));
    if (!initramfs_modules(&c, done, k, order, errp)) {
        goto out;
    }
    cpio_entry(&c, "etc/gemu-modules", 0100644, 0, 0, order->str,
               order->len);
    cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
    ok = g_file_set_contents(tmp, (const char *)c.buf->data, c.buf->len,
                             errp) && rename(tmp, out) == 0;
    if (!ok && errp && !*errp) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot write %s: %s", out, strerror(errno));
    }
out:
    g_string_free(order, TRUE);
    g_byte_array_free(c.buf, TRUE);
    return ok;
}

/* A file's size and times for a cache key ("-" if it is not there). */
static void key_stat(GString *s, const char *path)
{
    struct stat st;

    if (stat(path, &st) < 0) {
        g_string_append_printf(s, "%s -\n", path);
        return;
    }
    g_string_append_printf(s, "%s %jd %jd %jd\n", path, (intmax_t)st.st_size,
                           (intmax_t)st.st_mtime, (intmax_t)st.st_ctime);
}

/* The first 16 hex digits of TEXT's SHA-256. */
static char *short_hash(const char *text)
{
    char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);

    sum[16] = '\0';
    return sum;
}

/* Remove DIR's files named PREFIX*SUFFIX but KEEP. */
static void remove_others(const char *dir, const char *prefix,
                          const char *suffix, const char *keep)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        if (g_str_has_prefix(name, prefix) && g_str_has_suffix(name, suffix)
            && strcmp(name, keep)) {
            g_autofree char *p = g_build_filename(dir, name, NULL);

            unlink(p);
        }
    }
    if (d) {
        g_dir_close(d);
    }
}

/*
 * The guest's archive for K in the cache DIR, made if needed.  Debian's
 * modules: g84-guest-VERSION-vN.cpio, made again when an input is newer.
 * -guest-modules: g84-own-guest-VERSION-vN-TREE-KEY.cpio, TREE a hash of
 * the module directory, KEY of every input's name, size and times (the
 * tree's older archive is removed).
 */
static char *guest_archive(const char *dir, const G84Kernel *k, bool own,
                           GError **errp)
{
    g_autofree char *out = NULL;

    if (!own) {
        int64_t newest = mtime_of("/bin/busybox");

        out = g_strdup_printf("%s/g84-guest-%s-v%d.cpio", dir, k->version,
                              G84_GUEST_FORMAT);
        for (guint i = 0; i < k->mods->len; i++) {
            g_autofree char *p = g_build_filename(k->moddir,
                                                  k->mods->pdata[i], NULL);

            newest = MAX(newest, mtime_of(p));
        }
        if (mtime_of(out) == INT64_MAX || mtime_of(out) < newest) {
            if (!build_initramfs(out, k, errp)) {
                return NULL;
            }
        }
    } else {
        g_autofree char *real = k->moddir ? realpath(k->moddir, NULL) : NULL;
        g_autofree char *tree = short_hash(real ? real : "(built in)");
        g_autofree char *prefix = g_strdup_printf("g84-own-guest-%s-v%d-%s-",
                                                  k->version,
                                                  G84_GUEST_FORMAT, tree);
        g_autoptr(GString) s = g_string_new(prefix);
        g_autofree char *key = NULL, *name = NULL;

        key_stat(s, "/bin/busybox");
        for (guint i = 0; i < k->mods->len; i++) {
            g_autofree char *p = g_build_filename(k->moddir,
                                                  k->mods->pdata[i], NULL);

            key_stat(s, p);
        }
        key = short_hash(s->str);
        name = g_strdup_printf("%s%s.cpio", prefix, key);
        out = g_build_filename(dir, name, NULL);
        if (!g_file_test(out, G_FILE_TEST_EXISTS)) {
            if (!build_initramfs(out, k, errp)) {
                return NULL;
            }
            remove_others(dir, prefix, ".cpio", name);
        }
    }
    return g_steal_pointer(&out);
}

/*
 * -guest-files: a file of this run in the cache DIR (the caller removes
 * it): BASE, then FILES (a cpio archive as it is, or a directory's tree
 * made into one), laid over the guest's root by the kernel's unpacking.
 * Such files of runs that are gone are removed first.
 */
static char *files_archive(const char *dir, const char *base,
                           const char *files, GError **errp)
{
    g_autofree char *name = g_strdup_printf("g84-files-%ld.cpio",
                                            (long)getpid());
    g_autofree char *out = g_build_filename(dir, name, NULL);
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *e;
    Cpio c = { 0 };
    bool ok;

    while (d && (e = g_dir_read_name(d))) {
        long pid;

        if (sscanf(e, "g84-files-%ld.cpio", &pid) == 1 && pid > 0 &&
            kill(pid, 0) < 0 && errno == ESRCH) {
            g_autofree char *p = g_build_filename(dir, e, NULL);

            unlink(p);
        }
    }
    if (d) {
        g_dir_close(d);
    }
    if (!g_file_test(files, G_FILE_TEST_EXISTS)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "-guest-files %s: no such file or directory", files);
        return NULL;
    }
    if (!cpio_open(&c, out, errp)) {
        return NULL;
    }
    ok = cpio_append(&c, base, errp);
    if (ok && g_file_test(files, G_FILE_TEST_IS_DIR)) {
        ok = cpio_tree(&c, files, "", errp);
        cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
    } else if (ok) {
        ok = g84_archive_check(files, errp) && cpio_append(&c, files, errp);
    }
    if (!cpio_close(&c, out, ok, errp)) {
        unlink(out);
        return NULL;
    }
    return g_steal_pointer(&out);
}

bool g84_guest_prepare(const G84GuestSpec *spec, char **kernel,
                       char **initrd, bool *initrd_is_temp, GError **errp)
{
    g_auto(G84Kernel) k = { 0 };
    g_autofree char *dir = NULL;
    g_autofree char *out = NULL;

    *initrd_is_temp = false;
    if (!elf_is_static("/bin/busybox")) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "/bin/busybox is missing or not statically linked "
                    "(apt-get install busybox-static)");
        return false;
    }
    if (!g84_kernel_find(&k, spec->kernel, spec->modules, errp)) {
        return false;
    }
    dir = g_build_filename(g_get_user_cache_dir(), "gemu", NULL);
    if (g_mkdir_with_parents(dir, 0755) < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    out = guest_archive(dir, &k, spec->modules || !k.moddir, errp);
    if (!out) {
        return false;
    }
    if (spec->mesa) {
        char *with_mesa = g84_mesa_prepare(dir, k.version, out, errp);

        if (!with_mesa) {
            return false;
        }
        g_free(out);
        out = with_mesa;
    }
    if (spec->files) {
        char *with_files = files_archive(dir, out, spec->files, errp);

        if (!with_files) {
            return false;
        }
        g_free(out);
        out = with_files;
        *initrd_is_temp = true;
    }
    *kernel = g_steal_pointer(&k.image);
    *initrd = g_steal_pointer(&out);
    return true;
}
