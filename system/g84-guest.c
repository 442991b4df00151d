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

/* The newest kernel in /boot that has a nouveau module. */
static char *find_kernel_version(void)
{
    GDir *d = g_dir_open("/boot", 0, NULL);
    const char *name;
    char *best = NULL;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *ko = NULL;
        const char *ver;

        if (!g_str_has_prefix(name, "vmlinuz-")) {
            continue;
        }
        ver = name + strlen("vmlinuz-");
        ko = g_strdup_printf("/lib/modules/%s/kernel/drivers/gpu/drm/"
                             "nouveau/nouveau.ko", ver);
        if (g_file_test(ko, G_FILE_TEST_EXISTS) &&
            (!best || g_strcmp0(ver, best) > 0)) {
            g_free(best);
            best = g_strdup(ver);
        }
    }
    if (d) {
        g_dir_close(d);
    }
    return best;
}

/* nouveau and its dependencies, in load order (modules.dep lists them
 * last-loaded first) */
static GPtrArray *nouveau_modules(const char *ver, GError **errp)
{
    g_autofree char *dep = g_strdup_printf("/lib/modules/%s/modules.dep",
                                           ver);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GPtrArray *mods;

    if (!g_file_get_contents(dep, &text, NULL, errp)) {
        return NULL;
    }
    lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        g_auto(GStrv) words = NULL;
        char *colon = strchr(*l, ':');
        guint n;

        if (!colon) {
            continue;
        }
        *colon = '\0';
        if (!g_str_has_suffix(*l, "/nouveau.ko")) {
            continue;
        }
        *colon = ' ';
        words = g_strsplit_set(*l, " ", -1);
        n = g_strv_length(words);
        mods = g_ptr_array_new_with_free_func(g_free);
        for (guint i = n; i-- > 1;) {
            if (*words[i]) {
                g_ptr_array_add(mods, g_strdup(words[i]));
            }
        }
        g_ptr_array_add(mods, g_strdup(words[0]));
        return mods;
    }
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                "nouveau is not in %s", dep);
    return NULL;
}

static bool build_initramfs(const char *out, const char *ver,
                            GPtrArray *mods, GError **errp)
{
    Cpio c = { .buf = g_byte_array_new() };
    g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash,
                                                       g_str_equal, g_free,
                                                       NULL);
    GString *order = g_string_new(NULL);
    g_autofree char *tmp = g_strdup_printf("%s.tmp", out);
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
    cpio_entry(&c, "init", 0100755, 0, 0, g84_guest_init,
               strlen(g84_guest_init));
    for (guint i = 0; i < mods->len; i++) {
        const char *m = g_ptr_array_index(mods, i);
        g_autofree char *host = g_strdup_printf("/lib/modules/%s/%s", ver, m);
        g_autofree char *name = g_strdup_printf("lib/modules/%s", m);

        if (!cpio_file(&c, done, name, host, 0100644, errp)) {
            goto out;
        }
        g_string_append_printf(order, "%s\n", m);
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

bool g84_guest_prepare(char **kernel, char **initrd, bool mesa,
                       GError **errp)
{
    g_autofree char *ver = find_kernel_version();
    g_autofree char *dir = NULL;
    g_autofree char *out = NULL;
    g_autoptr(GPtrArray) mods = NULL;
    int64_t newest;

    if (!ver) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "no kernel with a nouveau module in /boot and "
                    "/lib/modules (apt-get install linux-image-amd64)");
        return false;
    }
    if (!elf_is_static("/bin/busybox")) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "/bin/busybox is missing or not statically linked "
                    "(apt-get install busybox-static)");
        return false;
    }
    mods = nouveau_modules(ver, errp);
    if (!mods) {
        return false;
    }
    dir = g_build_filename(g_get_user_cache_dir(), "gemu", NULL);
    if (g_mkdir_with_parents(dir, 0755) < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    out = g_strdup_printf("%s/g84-guest-%s-v%d.cpio", dir, ver,
                          G84_GUEST_FORMAT);
    newest = mtime_of("/bin/busybox");
    for (guint i = 0; i < mods->len; i++) {
        g_autofree char *p = g_strdup_printf("/lib/modules/%s/%s", ver,
                                             (char *)mods->pdata[i]);

        newest = MAX(newest, mtime_of(p));
    }
    if (mtime_of(out) == INT64_MAX || mtime_of(out) < newest) {
        if (!build_initramfs(out, ver, mods, errp)) {
            return false;
        }
    }
    if (mesa) {
        char *with_mesa = g84_mesa_prepare(dir, ver, out, errp);

        if (!with_mesa) {
            return false;
        }
        g_free(out);
        out = with_mesa;
    }
    *kernel = g_strdup_printf("/boot/vmlinuz-%s", ver);
    *initrd = g_steal_pointer(&out);
    return true;
}
