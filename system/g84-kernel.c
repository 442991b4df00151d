/*
 * The G84 guest's kernel and its modules: Debian's (/boot, /lib/modules)
 * or the user's (-guest-kernel bzImage, -guest-modules DIR as "make
 * modules_install INSTALL_MOD_PATH=DIR" leaves it), checked to fit each
 * other and the guest before anything boots.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "g84-guest.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The x86 boot protocol's setup header (the kernel's
 * Documentation/x86/boot.rst): its magic, the protocol version, the
 * pointer to the version string and the 64-bit flag.
 */
#define BZ_HDR_MAGIC_OFF        0x202   /* "HdrS" */
#define BZ_HDR_VERSION_OFF      0x206
#define BZ_KERNEL_VERSION_OFF   0x20e   /* string at this + 0x200 */
#define BZ_XLOADFLAGS_OFF       0x236
#define BZ_XLF_KERNEL_64        0x1
#define BZ_HDR_READ             0x10000 /* enough for the version string */

/* modules "make modules_install" may have compressed */
static const struct {
    const char *suffix;
    const char *argv0;          /* the program that inflates it */
    const char *pkg;
} mod_compress[] = {
    { ".ko.xz", "xz", "xz-utils" },
    { ".ko.zst", "zstd", "zstd" },
    { ".ko.gz", "gzip", "gzip" },
};

static uint16_t le16_at(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

char *g84_bzimage_version(const char *path, GError **errp)
{
    g_autofree uint8_t *buf = g_malloc0(BZ_HDR_READ + 1);
    FILE *f = fopen(path, "rb");
    size_t len, off, end;

    if (!f) {
        g_set_error(errp, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "-guest-kernel %s: %s", path, strerror(errno));
        return NULL;
    }
    len = fread(buf, 1, BZ_HDR_READ, f);
    fclose(f);
    if (len < BZ_XLOADFLAGS_OFF + 2 ||
        memcmp(buf + BZ_HDR_MAGIC_OFF, "HdrS", 4)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "-guest-kernel %s: not an x86 bzImage (no \"HdrS\" "
                    "setup header at 0x%x)", path, BZ_HDR_MAGIC_OFF);
        return NULL;
    }
    if (le16_at(buf + BZ_HDR_VERSION_OFF) < 0x20c ||
        !(buf[BZ_XLOADFLAGS_OFF] & BZ_XLF_KERNEL_64)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "-guest-kernel %s: not a 64-bit x86 kernel (boot "
                    "protocol %x.%02x, xloadflags %#x): the guest's "
                    "busybox is x86-64", path,
                    buf[BZ_HDR_VERSION_OFF + 1], buf[BZ_HDR_VERSION_OFF],
                    buf[BZ_XLOADFLAGS_OFF]);
        return NULL;
    }
    off = le16_at(buf + BZ_KERNEL_VERSION_OFF) + 0x200u;
    for (end = off; end < len && buf[end] > ' ' && buf[end] < 0x7f; end++) {
        continue;
    }
    if (le16_at(buf + BZ_KERNEL_VERSION_OFF) == 0 || end == off ||
        end >= len) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "-guest-kernel %s: its setup header names no version "
                    "(kernel_version at 0x%x)", path, BZ_KERNEL_VERSION_OFF);
        return NULL;
    }
    return g_strndup((const char *)buf + off, end - off);
}

/*
 * The options the guest needs of a kernel and why, checked in its
 * .config when there is one; "m" takes "y" too.
 */
static const struct {
    const char *name;
    const char *want;
    const char *why;
} kernel_needs[] = {
    { "CONFIG_BLK_DEV_INITRD", "y", "the guest is an initramfs" },
    { "CONFIG_BINFMT_SCRIPT", "y", "/init is a shell script" },
    { "CONFIG_DEVTMPFS", "y", "/init mounts devtmpfs for /dev" },
    { "CONFIG_PROC_FS", "y", "/init reads /proc/cmdline" },
    { "CONFIG_SYSFS", "y", "/init mounts sysfs" },
    { "CONFIG_PCI", "y", "the card is a PCI device" },
    { "CONFIG_SERIAL_8250_CONSOLE", "y",
      "the console and -guest-run's status are serial ports" },
    { "CONFIG_DRM_NOUVEAU", "m", "the guest runs nouveau" },
};

/* The value of NAME in a .config's TEXT ("y", "m", ...), NULL if unset. */
static char *config_value(const char *text, const char *name)
{
    g_autofree char *key = g_strdup_printf("\n%s=", name);
    g_autofree char *padded = g_strconcat("\n", text, NULL);
    const char *p = strstr(padded, key);
    size_t n;

    if (!p) {
        return NULL;
    }
    p += strlen(key);
    n = strcspn(p, "\n");
    return g_strndup(p, n);
}

/* A kernel's .config: beside the image or in its build tree. */
static char *find_config(const char *image, const char *ver,
                         const char *moddir, GString *looked)
{
    g_autofree char *dir = g_path_get_dirname(image);
    g_autofree char *c1 = g_strdup_printf("%s/config-%s", dir, ver);
    g_autofree char *c2 = g_build_filename(dir, ".config", NULL);
    /* arch/x86/boot/bzImage in a build tree */
    g_autofree char *c3 = g_build_filename(dir, "..", "..", "..", ".config",
                                           NULL);
    g_autofree char *c4 = moddir ? g_build_filename(moddir, "build",
                                                    ".config", NULL) : NULL;
    const char *paths[] = { c1, c2, c3, c4 };

    for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
        if (paths[i] && g_file_test(paths[i], G_FILE_TEST_IS_REGULAR)) {
            return g_strdup(paths[i]);
        }
        if (paths[i]) {
            g_string_append_printf(looked, "%s%s", looked->len ? ", " : "",
                                   paths[i]);
        }
    }
    return NULL;
}

/*
 * Check what can be checked of the kernel K: its .config's options
 * (kernel_needs[]).  *builtin: nouveau is built in (1, no module
 * needed), a module (0), or not known (-1: without a .config nothing is
 * checked, and gemu says so).
 */
static bool check_config(G84Kernel *k, const char *moddir, int *builtin,
                         GError **errp)
{
    g_autoptr(GString) looked = g_string_new(NULL);
    g_autofree char *path = find_config(k->image, k->version, moddir,
                                        looked);
    g_autofree char *text = NULL;

    *builtin = -1;
    if (!path) {
        gemu_log("gemu: g84: no .config found for %s (looked for %s): its "
                 "options are not checked\n", k->image, looked->str);
        return true;
    }
    if (!g_file_get_contents(path, &text, NULL, errp)) {
        return false;
    }
    for (size_t i = 0; i < ARRAY_SIZE(kernel_needs); i++) {
        g_autofree char *v = config_value(text, kernel_needs[i].name);

        if (!v || (strcmp(v, "y") && strcmp(v, kernel_needs[i].want))) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "the kernel %s lacks %s=%s (%s: %s), which the "
                        "guest needs: %s", k->image, kernel_needs[i].name,
                        kernel_needs[i].want, path,
                        v ? v : "not set", kernel_needs[i].why);
            return false;
        }
        if (!strcmp(kernel_needs[i].name, "CONFIG_DRM_NOUVEAU")) {
            *builtin = !strcmp(v, "y") ? 1 : 0;
        }
    }
    return true;
}

/* Is NAME (a modules.dep path) nouveau's module, compressed or not? */
static bool is_nouveau(const char *name)
{
    if (g_str_has_suffix(name, "/nouveau.ko")) {
        return true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(mod_compress); i++) {
        g_autofree char *n = g_strconcat("/nouveau", mod_compress[i].suffix,
                                         NULL);

        if (g_str_has_suffix(name, n)) {
            return true;
        }
    }
    return false;
}

/*
 * nouveau and its dependencies in MODDIR, in load order (modules.dep
 * lists them last-loaded first); NULL with *errp set if it has none.
 */
static GPtrArray *nouveau_modules(const char *moddir, const char *ver,
                                  GError **errp)
{
    g_autofree char *dep = g_build_filename(moddir, "modules.dep", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GPtrArray *mods;

    if (!g_file_get_contents(dep, &text, NULL, NULL)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "no modules.dep in %s (\"make modules_install\" makes "
                    "it, or \"depmod -b ROOT %s\")", moddir, ver);
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
        if (!is_nouveau(*l)) {
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
                "no nouveau module for the kernel %s in %s (not in its "
                "modules.dep: CONFIG_DRM_NOUVEAU=m)", ver, moddir);
    return NULL;
}

/* The versions ROOT/lib/modules has, for an error ("" if none). */
static char *versions_in(const char *libmod)
{
    GDir *d = g_dir_open(libmod, 0, NULL);
    GString *s = g_string_new(NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        g_string_append_printf(s, "%s%s", s->len ? ", " : "", name);
    }
    if (d) {
        g_dir_close(d);
    }
    return g_string_free(s, FALSE);
}

/* The newest Debian kernel in /boot with modules under ROOT/lib/modules. */
static char *debian_kernel_version(const char *root)
{
    GDir *d = g_dir_open("/boot", 0, NULL);
    const char *name;
    char *best = NULL;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *dep = NULL;
        const char *ver;

        if (!g_str_has_prefix(name, "vmlinuz-")) {
            continue;
        }
        ver = name + strlen("vmlinuz-");
        dep = g_strdup_printf("%s/lib/modules/%s/modules.dep", root, ver);
        if (g_file_test(dep, G_FILE_TEST_EXISTS) &&
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

/* K's image and version: -guest-kernel's, or Debian's newest. */
static bool kernel_image(G84Kernel *k, const char *image, const char *root,
                         GError **errp)
{
    if (image) {
        k->image = g_strdup(image);
        k->version = g84_bzimage_version(image, errp);
        return k->version != NULL;
    }
    k->version = debian_kernel_version(root);
    if (!k->version) {
        g_autofree char *libmod = g_strdup_printf("%s/lib/modules", root);
        g_autofree char *have = versions_in(libmod);

        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    *root ? "no kernel in /boot for the modules of %s "
                    "(it has %s): pass -guest-kernel" :
                    "no kernel in /boot with modules in /lib/modules%s%s "
                    "(apt-get install linux-image-amd64)",
                    *root ? root : "", *root ? have : "");
        return false;
    }
    k->image = g_strdup_printf("/boot/vmlinuz-%s", k->version);
    return true;
}

bool g84_kernel_find(G84Kernel *k, const char *image, const char *modroot,
                     GError **errp)
{
    const char *root = modroot ? modroot : "";
    g_autofree char *libmod = g_strdup_printf("%s/lib/modules", root);
    /* when no .config said how nouveau is built */
    const char *hint = " (if nouveau is built in, put the kernel's .config "
                       "beside it)";
    int builtin;

    memset(k, 0, sizeof(*k));
    if (modroot && !g_file_test(libmod, G_FILE_TEST_IS_DIR)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "-guest-modules %s: no lib/modules in it (give the "
                    "INSTALL_MOD_PATH of \"make modules_install\")", modroot);
        return false;
    }
    if (!kernel_image(k, image, root, errp)) {
        return false;
    }
    k->moddir = g_strdup_printf("%s/%s", libmod, k->version);
    if (!check_config(k, k->moddir, &builtin, errp)) {
        return false;
    }
    if (!g_file_test(k->moddir, G_FILE_TEST_IS_DIR)) {
        g_autofree char *have = versions_in(libmod);

        if (builtin == 1) {
            g_clear_pointer(&k->moddir, g_free);
            k->mods = g_ptr_array_new_with_free_func(g_free);
            return true;
        }
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "no modules for the kernel %s (%s) in %s%s%s%s%s",
                    k->version, k->image, libmod,
                    *have ? ": it has modules for " : "", have,
                    modroot ? "" : " (pass -guest-modules DIR)",
                    builtin < 0 ? hint : "");
        return false;
    }
    k->mods = nouveau_modules(k->moddir, k->version,
                              builtin == 1 ? NULL : errp);
    if (!k->mods && builtin == 1) {
        k->mods = g_ptr_array_new_with_free_func(g_free);
    }
    if (!k->mods && builtin < 0 && errp && *errp) {
        char *msg = g_strconcat((*errp)->message, hint, NULL);

        g_free((*errp)->message);
        (*errp)->message = msg;
    }
    return k->mods != NULL;
}

void g84_kernel_clear(G84Kernel *k)
{
    g_clear_pointer(&k->image, g_free);
    g_clear_pointer(&k->version, g_free);
    g_clear_pointer(&k->moddir, g_free);
    g_clear_pointer(&k->mods, g_ptr_array_unref);
}

char *g84_module_guest_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(mod_compress); i++) {
        if (g_str_has_suffix(name, mod_compress[i].suffix)) {
            size_t keep = strlen(name) - strlen(mod_compress[i].suffix);

            return g_strdup_printf("%.*s.ko", (int)keep, name);
        }
    }
    return g_strdup(name);
}

/* The vermagic's release in a module's .modinfo, NULL if none. */
static char *module_release(const char *data, gsize len)
{
    static const char key[] = "vermagic=";
    const gsize klen = sizeof(key) - 1;

    for (gsize i = 0; i + klen < len; i++) {
        if ((i == 0 || data[i - 1] == '\0') &&
            !memcmp(data + i, key, klen)) {
            gsize end = i + klen;

            while (end < len && data[end] != ' ' && data[end] != '\0') {
                end++;
            }
            return g_strndup(data + i + klen, end - i - klen);
        }
    }
    return NULL;
}

/* What "PROG -dc HOST" writes (a compressed module inflated). */
static bool inflate(const char *prog, const char *pkg, const char *host,
                    char **data, gsize *len, GError **errp)
{
    const char *argv[] = { prog, "-dc", host, NULL };
    GByteArray *out = g_byte_array_new();
    char buf[1 << 16];
    GPid pid;
    int fd, st;
    ssize_t n;

    if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
                                  G_SPAWN_SEARCH_PATH |
                                  G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                  &pid, NULL, &fd, NULL, NULL)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "cannot inflate %s: no %s (apt-get install %s)", host,
                    prog, pkg);
        g_byte_array_free(out, TRUE);
        return false;
    }
    while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
        if (n > 0) {
            g_byte_array_append(out, (const guint8 *)buf, n);
        }
    }
    close(fd);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        continue;
    }
    g_spawn_close_pid(pid);
    if (n < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                    "cannot inflate %s: %s -dc failed", host, prog);
        g_byte_array_free(out, TRUE);
        return false;
    }
    *len = out->len;
    *data = (char *)g_byte_array_free(out, FALSE);
    return true;
}

bool g84_module_read(const G84Kernel *k, const char *name, char **data,
                     gsize *len, GError **errp)
{
    g_autofree char *host = g_build_filename(k->moddir, name, NULL);
    g_autofree char *rel = NULL;
    bool read = false;

    *data = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(mod_compress) && !read; i++) {
        if (g_str_has_suffix(name, mod_compress[i].suffix)) {
            if (!inflate(mod_compress[i].argv0, mod_compress[i].pkg, host,
                         data, len, errp)) {
                return false;
            }
            read = true;
        }
    }
    if (!read && !g_file_get_contents(host, data, len, errp)) {
        return false;
    }
    if (!is_nouveau(name)) {
        return true;
    }
    rel = module_release(*data, *len);
    if (rel && strcmp(rel, k->version)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s was built for the kernel %s, not for %s (%s)", host,
                    rel, k->version, k->image);
        g_clear_pointer(data, g_free);
        return false;
    }
    return true;
}
