/*
 * -summary FILE.json: what a run of the g84 machine came to, for scripts
 * (docs/g84-guest.md): gemu's and the guest's exit status, the nouveau
 * lines of the console that complain, the screendumps and how they
 * compared, the run time.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "g84-check.h"

/* a console line longer than this is cut (it is still scanned) */
#define G84_CONSOLE_LINE_MAX    1024

/* Words of a nouveau line that complains (tests/guest/lib's probe_checks). */
static const char *const nouveau_complaints[] = {
    "error", "fail", "timeout", "timed out", "stall", "unable", "trap",
    "lockup", "fault",
};

void g84_json_string(GString *out, const char *s)
{
    g_autofree char *valid = g_utf8_make_valid(s, -1);

    g_string_append_c(out, '"');
    for (const unsigned char *p = (const unsigned char *)valid; *p; p++) {
        switch (*p) {
        case '"':
            g_string_append(out, "\\\"");
            break;
        case '\\':
            g_string_append(out, "\\\\");
            break;
        case '\n':
            g_string_append(out, "\\n");
            break;
        case '\t':
            g_string_append(out, "\\t");
            break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                g_string_append_printf(out, "\\u%04x", *p);
            } else {
                g_string_append_c(out, *p);
            }
        }
    }
    g_string_append_c(out, '"');
}

/*
 * Is LINE (lower case) the kernel's about nouveau: "nouveau 0000:...",
 * "nouveau: ..." after printk's optional "[ seconds] ", or a warning
 * from its source (".../drm/nouveau/...")?  Not the command line's
 * options (nouveau.config=), nor what the guest's programs print.
 */
static bool nouveau_line(const char *line)
{
    const char *p = line;

    if (strstr(line, "drm/nouveau/")) {
        return true;
    }
    if (*p == '[') {
        p += strspn(p + 1, " 0123456789.") + 1;
        if (*p++ != ']' || *p++ != ' ') {
            return false;
        }
    }
    return g_str_has_prefix(p, "nouveau") && (p[7] == ' ' || p[7] == ':');
}

static void console_line(G84Checks *c, const char *line)
{
    g_autofree char *low = g_ascii_strdown(line, -1);

    if (!nouveau_line(low)) {
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(nouveau_complaints); i++) {
        if (strstr(low, nouveau_complaints[i])) {
            g_ptr_array_add(c->nouveau_errors, g_strdup(line));
            return;
        }
    }
}

void g84_summary_console(G84Checks *c, const char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n') {
            g_strchomp(c->con_line->str);
            if (*c->con_line->str) {
                console_line(c, c->con_line->str);
            }
            g_string_truncate(c->con_line, 0);
        } else if (buf[i] && c->con_line->len < G84_CONSOLE_LINE_MAX) {
            g_string_append_c(c->con_line, buf[i]);
        }
    }
}

bool g84_summary_write(const G84Checks *c, const char *path, int status,
                       char **err)
{
    g_autoptr(GString) s = g_string_new("{\n");
    double secs = (g_get_monotonic_time() - c->t0) / 1e6;
    GError *gerr = NULL;

    g_string_append_printf(s, "  \"exit_status\": %d,\n", status);
    if (c->run_status >= 0) {
        g_string_append_printf(s, "  \"guest_exit_status\": %d,\n",
                               c->run_status);
    } else {
        g_string_append(s, "  \"guest_exit_status\": null,\n");
    }
    g_string_append_printf(s, "  \"run_time_s\": %.3f,\n", secs);
    if (c->con_seen) {
        g_string_append(s, "  \"nouveau_errors\": [");
        for (guint i = 0; i < c->nouveau_errors->len; i++) {
            g_string_append(s, i ? ",\n    " : "\n    ");
            g84_json_string(s, c->nouveau_errors->pdata[i]);
        }
        g_string_append(s, c->nouveau_errors->len ? "\n  ],\n" : "],\n");
    } else {
        /* no console seen: gemu's guest was not booted */
        g_string_append(s, "  \"nouveau_errors\": null,\n");
    }
    g_string_append_printf(s, "  \"frames_compared\": %u,\n", c->compared);
    g_string_append_printf(s, "  \"frames_differing\": %u,\n",
                           c->differing);
    if (c->worst >= 0) {
        g_string_append_printf(s, "  \"worst_pixel_difference\": %d,\n",
                               c->worst);
    } else {
        g_string_append(s, "  \"worst_pixel_difference\": null,\n");
    }
    g_string_append_printf(s, "  \"screendump_failures\": %u,\n", c->failed);
    if (c->poll_jumps >= 0) {
        g_string_append_printf(s, "  \"clock_jumps\": { \"at_polls\": %"
                               PRId64 ", \"host_timed\": %" PRId64 " },\n",
                               c->poll_jumps, c->host_jumps);
    } else {
        g_string_append(s, "  \"clock_jumps\": null,\n");
    }
    g_string_append_printf(s, "  \"screendumps\": [%s%s]\n}\n",
                           c->results->str, c->results->len ? "\n  " : "");
    if (!g_file_set_contents(path, s->str, s->len, &gerr)) {
        *err = g_strdup(gerr->message);
        g_error_free(gerr);
        return false;
    }
    return true;
}
