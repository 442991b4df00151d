/*
 * Reading a file an input names, regular files only (include/gemu/file.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

bool gemu_file_read(const char *path, size_t max, char **data, size_t *len,
                    char **err)
{
    struct stat st;
    char *buf;
    size_t got = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

    if (fd < 0) {
        *err = g_strdup_printf("%s: %s", path, g_strerror(errno));
        return false;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        *err = g_strdup_printf("%s: not a regular file", path);
        close(fd);
        return false;
    }
    if ((uint64_t)st.st_size > max) {
        *err = g_strdup_printf("%s: %" PRIu64 " bytes is more than %zu",
                               path, (uint64_t)st.st_size, max);
        close(fd);
        return false;
    }
    buf = g_malloc(st.st_size + 1);
    /* the size fstat gave, at most: the file may change meanwhile */
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, st.st_size - got);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            *err = g_strdup_printf("%s: %s", path, g_strerror(errno));
            g_free(buf);
            close(fd);
            return false;
        }
        if (r == 0) {
            break;
        }
        got += r;
    }
    close(fd);
    buf[got] = '\0';
    *data = buf;
    *len = got;
    return true;
}
