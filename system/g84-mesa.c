/*
 * -guest-mesa: the Mesa archive of the G84 guest (docs/g84-guest.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "g84-guest.h"

#include <sys/stat.h>
#include <unistd.h>

/*
 * -guest-mesa: Mesa's userspace from the host's Debian packages, as a
 * second cpio archive after the guest's (the kernel unpacks one after
 * the other).  What it holds:
 *   - the programs and libraries of mesa_elves[] (each with the package
 *     that has it, for the error when it is missing) and every library
 *     they need, as the host's dynamic loader resolves them ("ld.so
 *     --list"), the loader itself included (lib64/ld-linux-x86-64.so.2);
 *     libraries go to usr/lib/x86_64-linux-gnu (merged /usr: the
 *     loader's default search path, so no ld.so.cache), with
 *     lib/x86_64-linux-gnu a link to it;
 *   - the DRI drivers nouveau, kms_swrast and swrast, links to one file
 *     when the host's are one (Mesa's megadriver: they are hard links);
 *   - what the libraries read at run time: glvnd's EGL vendor file
 *     (libEGL.so.1 finds libEGL_mesa.so.0 by it), drirc.d, glmark2's
 *     models, shaders and textures.
 * /dev/dri comes from the devtmpfs /init mounts.
 */
#define MESA_LIBDIR     "/usr/lib/x86_64-linux-gnu"
#define MESA_LOADER     "/lib64/ld-linux-x86-64.so.2"

/* bump when what goes into the Mesa archive changes */
#define G84_MESA_FORMAT 1

static const struct {
    const char *guest;          /* its name in the guest */
    const char *host;           /* the host's file (links followed) */
    const char *pkg;            /* the Debian package that has it */
} mesa_elves[] = {
    { "usr/lib/x86_64-linux-gnu/dri/nouveau_dri.so",
      MESA_LIBDIR "/dri/nouveau_dri.so", "libgl1-mesa-dri" },
    { "usr/lib/x86_64-linux-gnu/dri/kms_swrast_dri.so",
      MESA_LIBDIR "/dri/kms_swrast_dri.so", "libgl1-mesa-dri" },
    { "usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
      MESA_LIBDIR "/dri/swrast_dri.so", "libgl1-mesa-dri" },
    { "usr/lib/x86_64-linux-gnu/libEGL.so.1", MESA_LIBDIR "/libEGL.so.1",
      "libegl1" },
    { "usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0",
      MESA_LIBDIR "/libEGL_mesa.so.0", "libegl-mesa0" },
    { "usr/lib/x86_64-linux-gnu/libGLESv2.so.2",
      MESA_LIBDIR "/libGLESv2.so.2", "libgles2" },
    { "usr/lib/x86_64-linux-gnu/libgbm.so.1", MESA_LIBDIR "/libgbm.so.1",
      "libgbm1" },
    { "usr/lib/x86_64-linux-gnu/libglapi.so.0",
      MESA_LIBDIR "/libglapi.so.0", "libglapi-mesa" },
    { "usr/lib/x86_64-linux-gnu/libdrm_nouveau.so.2",
      MESA_LIBDIR "/libdrm_nouveau.so.2", "libdrm-nouveau2" },
    { "usr/bin/kmscube", "/usr/bin/kmscube", "kmscube" },
    { "usr/bin/eglinfo", "/usr/bin/eglinfo", "mesa-utils" },
    { "usr/bin/es2_info", "/usr/bin/es2_info", "mesa-utils" },
    { "usr/bin/glmark2-es2-drm", "/usr/bin/glmark2-es2-drm",
      "glmark2-es2-drm" },
};

static const struct {
    const char *dir;            /* the same path on host and guest */
    const char *pkg;
} mesa_data[] = {
    { "/usr/share/glvnd/egl_vendor.d", "libegl-mesa0" },
    { "/usr/share/drirc.d", "libgl1-mesa-dri" },
    { "/usr/share/glmark2", "glmark2-data" },
};

/* One file of the Mesa archive. */
typedef struct MesaFile {
    char *guest;                /* name in the archive */
    char *host;                 /* the file it is a copy of; NULL: a link */
    char *link;                 /* a symbolic link's target */
} MesaFile;

static void mesa_file_free(gpointer p)
{
    MesaFile *f = p;

    g_free(f->guest);
    g_free(f->host);
    g_free(f->link);
    g_free(f);
}

static void mesa_add(GHashTable *files, const char *guest, const char *host,
                     const char *link)
{
    MesaFile *f = g_new0(MesaFile, 1);

    f->guest = g_strdup(guest);
    f->host = g_strdup(host);
    f->link = g_strdup(link);
    g_hash_table_replace(files, f->guest, f);
}

/* A library the loader found at HOST: its name in the guest. */
static char *mesa_lib_name(const char *host)
{
    g_autofree char *dir = g_path_get_dirname(host);
    g_autofree char *base = g_path_get_basename(host);

    if (!strcmp(host, MESA_LOADER)) {
        return g_strdup(host + 1);
    }
    if (!strcmp(dir, "/lib/x86_64-linux-gnu") || !strcmp(dir, MESA_LIBDIR)) {
        return g_strdup_printf("%s/%s", &MESA_LIBDIR[1], base);  /* no "/" */
    }
    if (g_str_has_prefix(host, "/lib/")) {
        return g_strdup_printf("usr%s", host);  /* merged /usr */
    }
    return g_strdup(host + 1);
}

/*
 * The libraries ELF needs, as the host's dynamic loader finds them
 * (what ldd prints), added to FILES.  False if one is not found.
 */
static bool mesa_elf_deps(GHashTable *files, const char *elf, GError **errp)
{
    const char *argv[] = { MESA_LOADER, "--list", elf, NULL };
    g_auto(GStrv) env = g_get_environ();
    g_autofree char *out = NULL, *err = NULL;
    g_auto(GStrv) lines = NULL;
    int status;

    env = g_environ_unsetenv(env, "LD_LIBRARY_PATH");
    env = g_environ_unsetenv(env, "LD_PRELOAD");
    if (!g_spawn_sync(NULL, (char **)argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                      &out, &err, &status, errp)) {
        return false;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "%s --list %s failed: %s", MESA_LOADER, elf,
                    g_strstrip(err));
        return false;
    }
    lines = g_strsplit(out, "\n", -1);
    for (char **l = lines; *l; l++) {
        char *line = g_strstrip(*l);
        char *arrow = strstr(line, " => ");
        char *host = arrow ? arrow + 4 : line;
        char *paren;
        g_autofree char *guest = NULL;

        if (!*line || g_str_has_prefix(line, "linux-vdso")) {
            continue;
        }
        if (g_str_has_prefix(host, "not found")) {
            *arrow = '\0';
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                        "%s needs %s, which the host does not have", elf,
                        line);
            return false;
        }
        paren = strstr(host, " (0x");
        if (paren) {
            *paren = '\0';
        }
        if (host[0] != '/') {
            continue;
        }
        guest = mesa_lib_name(host);
        if (!g_hash_table_contains(files, guest)) {
            g_autofree char *real = realpath(host, NULL);

            mesa_add(files, guest, real ? real : host, NULL);
        }
    }
    return true;
}

/* The files under the host's DIR, as they are (links stay links). */
static bool mesa_dir(GHashTable *files, const char *dir, const char *pkg,
                     GError **errp)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;

    if (!d) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "%s is missing (apt-get install %s)", dir, pkg);
        return false;
    }
    while ((name = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, name, NULL);
        struct stat st;

        if (lstat(p, &st) < 0) {
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            g_autofree char *target = g_file_read_link(p, NULL);

            if (target) {
                mesa_add(files, p + 1, NULL, target);
            }
        } else if (S_ISDIR(st.st_mode)) {
            if (!mesa_dir(files, p, pkg, errp)) {
                g_dir_close(d);
                return false;
            }
        } else if (S_ISREG(st.st_mode)) {
            mesa_add(files, p + 1, p, NULL);
        }
    }
    g_dir_close(d);
    return true;
}

/* Everything that goes into the Mesa archive, by guest name. */
static GHashTable *mesa_files(GError **errp)
{
    g_autoptr(GHashTable) files = g_hash_table_new_full(g_str_hash,
                                                         g_str_equal, NULL,
                                                         mesa_file_free);
    /* a file already in: its device and inode -> its guest name */
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash,
                                                        g_str_equal, g_free,
                                                        g_free);

    for (size_t i = 0; i < ARRAY_SIZE(mesa_elves); i++) {
        const char *host = mesa_elves[i].host;
        g_autofree char *real = realpath(host, NULL);
        g_autofree char *key = NULL;
        struct stat st;

        if (!real || stat(real, &st) < 0) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                        "%s is missing (apt-get install %s)", host,
                        mesa_elves[i].pkg);
            return NULL;
        }
        key = g_strdup_printf("%ju:%ju", (uintmax_t)st.st_dev,
                              (uintmax_t)st.st_ino);
        if (g_hash_table_contains(seen, key)) {
            /* one more name of a file in the same directory */
            const char *first = g_hash_table_lookup(seen, key);
            g_autofree char *dir1 = g_path_get_dirname(first);
            g_autofree char *dir2 = g_path_get_dirname(mesa_elves[i].guest);

            if (!strcmp(dir1, dir2)) {
                g_autofree char *base = g_path_get_basename(first);

                mesa_add(files, mesa_elves[i].guest, NULL, base);
                continue;
            }
        }
        g_hash_table_insert(seen, g_steal_pointer(&key),
                            g_strdup(mesa_elves[i].guest));
        mesa_add(files, mesa_elves[i].guest, real, NULL);
        if (!mesa_elf_deps(files, real, errp)) {
            return NULL;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(mesa_data); i++) {
        if (!mesa_dir(files, mesa_data[i].dir, mesa_data[i].pkg, errp)) {
            return NULL;
        }
    }
    mesa_add(files, "lib/x86_64-linux-gnu", NULL,
             "../usr/lib/x86_64-linux-gnu");
    return g_steal_pointer(&files);
}

static int mesa_file_cmp(gconstpointer a, gconstpointer b)
{
    const MesaFile *fa = *(MesaFile *const *)a;
    const MesaFile *fb = *(MesaFile *const *)b;

    return strcmp(fa->guest, fb->guest);
}

/*
 * The cache key: the formats, the guest's archive, and every input's
 * name, size and times (ctime too: dpkg keeps a package's mtimes, so an
 * upgrade can bring files older than the cache).
 */
static char *mesa_key(const char *base, GPtrArray *list)
{
    GString *s = g_string_new(NULL);
    char *sum;
    struct stat st;

    g_string_append_printf(s, "g%d m%d %s", G84_GUEST_FORMAT,
                           G84_MESA_FORMAT, base);
    if (stat(base, &st) == 0) {
        g_string_append_printf(s, " %jd %jd\n", (intmax_t)st.st_size,
                               (intmax_t)st.st_mtime);
    }
    for (guint i = 0; i < list->len; i++) {
        const MesaFile *f = list->pdata[i];

        g_string_append_printf(s, "%s %s %s", f->guest,
                               f->host ? f->host : "->",
                               f->link ? f->link : "");
        if (f->host && stat(f->host, &st) == 0) {
            g_string_append_printf(s, " %jd %jd %jd", (intmax_t)st.st_size,
                                   (intmax_t)st.st_mtime,
                                   (intmax_t)st.st_ctime);
        }
        g_string_append_c(s, '\n');
    }
    sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, s->len);
    sum[16] = '\0';
    g_string_free(s, TRUE);
    return sum;
}


/* The guest's archive BASE, then the Mesa archive of LIST, into OUT. */
static bool build_mesa_initramfs(const char *out, const char *base,
                                 GPtrArray *list, GError **errp)
{
    g_autofree char *tmp = g_strdup_printf("%s.tmp%ld", out, (long)getpid());
    g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash,
                                                       g_str_equal, g_free,
                                                       NULL);
    /* what the guest's archive has made already */
    static const char *const dirs[] = { "bin", "dev", "proc", "sys",
                                        "etc", "lib", "lib/modules" };
    Cpio c = { 0 };
    bool ok = false;

    if (!cpio_open(&c, tmp, errp)) {
        return false;
    }
    if (!cpio_append(&c, base, errp)) {
        goto out;
    }
    for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
        g_hash_table_add(done, g_strdup(dirs[i]));
    }
    for (guint i = 0; i < list->len; i++) {
        const MesaFile *f = list->pdata[i];

        cpio_dirs(&c, done, f->guest);
        if (f->link) {
            cpio_entry(&c, f->guest, 0120777, 0, 0, f->link,
                       strlen(f->link));
        } else if (!cpio_copy(&c, f->guest, f->host, errp)) {
            goto out;
        }
    }
    cpio_entry(&c, "TRAILER!!!", 0, 0, 0, NULL, 0);
    ok = true;
out:
    ok = cpio_close(&c, tmp, ok, errp);
    if (ok && rename(tmp, out) < 0) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot write %s: %s", out, strerror(errno));
        ok = false;
    }
    if (!ok) {
        unlink(tmp);
    }
    return ok;
}

/*
 * The guest's archive BASE with Mesa's after it, in DIR: made when its
 * key (mesa_key) is new, older ones removed.
 */
char *g84_mesa_prepare(const char *dir, const char *ver,
                       const char *base, GError **errp)
{
    g_autoptr(GHashTable) files = mesa_files(errp);
    g_autoptr(GPtrArray) list = NULL;
    g_autofree char *key = NULL;
    g_autofree char *name = NULL;
    g_autofree char *out = NULL;
    GHashTableIter it;
    gpointer v;
    GDir *d;
    const char *other;

    if (!files) {
        return NULL;
    }
    list = g_ptr_array_new();
    g_hash_table_iter_init(&it, files);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        g_ptr_array_add(list, v);
    }
    g_ptr_array_sort(list, mesa_file_cmp);
    key = mesa_key(base, list);
    name = g_strdup_printf("g84-mesa-guest-%s-%s.cpio", ver, key);
    out = g_build_filename(dir, name, NULL);
    if (g_file_test(out, G_FILE_TEST_EXISTS)) {
        return g_steal_pointer(&out);
    }
    if (!build_mesa_initramfs(out, base, list, errp)) {
        return NULL;
    }
    d = g_dir_open(dir, 0, NULL);
    while (d && (other = g_dir_read_name(d))) {
        if (g_str_has_prefix(other, "g84-mesa-guest-") &&
            g_str_has_suffix(other, ".cpio") && strcmp(other, name)) {
            g_autofree char *p = g_build_filename(dir, other, NULL);

            unlink(p);
        }
    }
    if (d) {
        g_dir_close(d);
    }
    return g_steal_pointer(&out);
}
