/*
 * The monitor's commands: the built-in ones (help, info, quit,
 * screendump), the machine's own (MonitorOps.commands, .info), and the
 * parsing of a command line into words (include/monitor/monitor.h,
 * docs/devel/monitor.md).  Nothing here does I/O: a command line goes in,
 * its answer comes out in a GString (monitor.c sends it).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "monitor-int.h"

#include <limits.h>

/* "info display" lists at most this many consoles. */
#define MONITOR_MAX_CONSOLES 256

/* What a built-in command sees (its opaque). */
typedef struct MonitorCtx {
    const MonitorOps *ops;
    void *opaque;               /* the machine's */
    bool quit;
} MonitorCtx;

static bool monitor_cmd_is(const MonitorCommand *cmd, const char *name)
{
    const char *p = cmd->name;
    size_t len = strlen(name);

    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);

        if (n == len && !memcmp(p, name, n)) {
            return true;
        }
        if (!bar) {
            return false;
        }
        p = bar + 1;
    }
}

static const MonitorCommand *monitor_cmd_find(const MonitorCommand *table,
                                              const char *name)
{
    for (const MonitorCommand *cmd = table; cmd && cmd->name; cmd++) {
        if (monitor_cmd_is(cmd, name)) {
            return cmd;
        }
    }
    return NULL;
}

static void monitor_cmd_help(GString *out, const char *prefix,
                             const MonitorCommand *cmd)
{
    g_string_append_printf(out, "%s%s%s%s -- %s\n", prefix, cmd->name,
                           cmd->params[0] ? " " : "", cmd->params,
                           cmd->help);
}

static void monitor_table_help(GString *out, const char *prefix,
                               const MonitorCommand *table)
{
    for (const MonitorCommand *cmd = table; cmd && cmd->name; cmd++) {
        monitor_cmd_help(out, prefix, cmd);
    }
}

/* Every built-in and machine command a table level has, for help. */
typedef struct MonitorLevel {
    const MonitorCommand *builtin;  /* run with the MonitorCtx */
    const MonitorCommand *machine;  /* run with the machine's opaque */
    const char *prefix;             /* "" or "info " */
} MonitorLevel;

static void monitor_level_help(GString *out, const MonitorLevel *l)
{
    monitor_table_help(out, l->prefix, l->builtin);
    monitor_table_help(out, l->prefix, l->machine);
}

/* argv[0] of level @l: the built-in first, then the machine's. */
static void monitor_level_run(MonitorCtx *ctx, const MonitorLevel *l,
                              GString *out, int argc, char **argv)
{
    const MonitorCommand *cmd = monitor_cmd_find(l->builtin, argv[0]);
    void *opaque = ctx;
    int nargs = argc - 1;

    if (!cmd) {
        cmd = monitor_cmd_find(l->machine, argv[0]);
        opaque = ctx->ops && ctx->ops->commands_opaque
                 ? ctx->ops->commands_opaque : ctx->opaque;
    }
    if (!cmd) {
        g_string_append_printf(out, "unknown command: '%s%s'\n", l->prefix,
                               argv[0]);
        return;
    }
    if (nargs < cmd->min_args || nargs > cmd->max_args) {
        g_string_append_printf(out, "%s%s: %s (usage: %s%s%s%s)\n",
                               l->prefix, argv[0],
                               nargs < cmd->min_args ? "missing argument"
                                                     : "too many arguments",
                               l->prefix, argv[0],
                               cmd->params[0] ? " " : "", cmd->params);
        return;
    }
    cmd->run(opaque, out, argc, argv);
}

static DisplayConsole *monitor_console(MonitorCtx *ctx, int index)
{
    if (!ctx->ops || !ctx->ops->console || index >= MONITOR_MAX_CONSOLES) {
        return NULL;
    }
    return ctx->ops->console(ctx->opaque, index);
}

/* Console @sel: a decimal index or a console name; NULL if none. */
static DisplayConsole *monitor_console_by_sel(MonitorCtx *ctx,
                                              const char *sel, int *index)
{
    char *end;
    unsigned long v;
    DisplayConsole *con;

    errno = 0;
    v = strtoul(sel, &end, 10);
    if (g_ascii_isdigit(sel[0]) && !*end && !errno) {
        if (v >= MONITOR_MAX_CONSOLES) {
            return NULL;
        }
        *index = v;
        return monitor_console(ctx, v);
    }
    for (int i = 0; (con = monitor_console(ctx, i)); i++) {
        if (!strcmp(display_console_name(con), sel)) {
            *index = i;
            return con;
        }
    }
    return NULL;
}

static void monitor_cmd_run_screendump(void *opaque, GString *out, int argc,
                                       char **argv)
{
    MonitorCtx *ctx = opaque;
    const char *path = argv[1];
    g_autofree char *err = NULL;
    const DisplaySurface *s;
    DisplayConsole *con;
    int index = 0;

    if (!monitor_console(ctx, 0)) {
        g_string_append(out, "screendump: the machine has no display\n");
        return;
    }
    con = monitor_console_by_sel(ctx, argc > 2 ? argv[2] : "0", &index);
    if (!con) {
        g_string_append_printf(out, "screendump: no console '%s' "
                               "(see 'info display')\n", argv[2]);
        return;
    }
    if (ctx->ops->refresh) {
        ctx->ops->refresh(ctx->opaque, index);
    }
    s = display_console_surface(con);
    if (!s) {
        g_string_append_printf(out, "screendump: console %d '%s' has no "
                               "frame to dump: no frame has been shown yet "
                               "(no signal)\n", index,
                               display_console_name(con));
        return;
    }
    if (!display_png_write(s, path, &err)) {
        g_string_append_printf(out, "screendump: %s\n", err);
    }
}

static void monitor_cmd_run_quit(void *opaque, GString *out, int argc,
                                 char **argv)
{
    MonitorCtx *ctx = opaque;

    if (!ctx->ops || !ctx->ops->quit) {
        g_string_append(out, "quit: this machine cannot be ended from the "
                        "monitor\n");
        return;
    }
    ctx->quit = true;
    ctx->ops->quit(ctx->opaque);
}

static void monitor_cmd_run_info_display(void *opaque, GString *out,
                                         int argc, char **argv)
{
    MonitorCtx *ctx = opaque;
    DisplayConsole *con;
    int i;

    for (i = 0; (con = monitor_console(ctx, i)); i++) {
        const DisplaySurface *s = display_console_surface(con);
        const char *info = display_console_info(con);
        uint64_t frames = display_console_frames(con);

        g_string_append_printf(out, "console %d '%s': ", i,
                               display_console_name(con));
        if (s) {
            g_string_append_printf(out, "%ux%u %s, pitch %u, address 0x%"
                                   PRIx64, s->width, s->height,
                                   display_format_name(s->format), s->pitch,
                                   s->addr);
        } else {
            g_string_append(out, "no signal");
        }
        g_string_append_printf(out, ", %" PRIu64 " frame%s\n", frames,
                               frames == 1 ? "" : "s");
        if (info && info[0]) {
            g_string_append_printf(out, "  %s\n", info);
        }
    }
    if (i == 0) {
        g_string_append(out, "no display consoles\n");
    }
}

static void monitor_cmd_run_info_version(void *opaque, GString *out,
                                         int argc, char **argv)
{
    g_string_append_printf(out, "%s\n", GEMU_VERSION);
}

/* they list the tables below */
static void monitor_cmd_run_help(void *opaque, GString *out, int argc,
                                 char **argv);
static void monitor_cmd_run_info(void *opaque, GString *out, int argc,
                                 char **argv);

static const MonitorCommand monitor_cmds[] = {
    { "help|?", "[COMMAND]", "show the commands, or one command's help",
      0, 1, monitor_cmd_run_help },
    { "info", "[SUBCOMMAND]", "show information about the machine "
      "('info' lists what)", 0, INT_MAX, monitor_cmd_run_info },
    { "quit|q", "", "end gemu (the machine stops at once)",
      0, 0, monitor_cmd_run_quit },
    { "screendump", "FILE.png [CONSOLE]", "write what display console "
      "CONSOLE (index or name, default 0) shows now to FILE.png",
      1, 2, monitor_cmd_run_screendump },
    { NULL },
};

static const MonitorCommand monitor_info_cmds[] = {
    { "display", "", "show the display consoles: mode, frames shown, "
      "what the device scans out", 0, 0, monitor_cmd_run_info_display },
    { "version", "", "show gemu's version", 0, 0,
      monitor_cmd_run_info_version },
    { NULL },
};

static MonitorLevel monitor_top(const MonitorCtx *ctx)
{
    return (MonitorLevel) { monitor_cmds, ctx->ops ? ctx->ops->commands
                                                   : NULL, "" };
}

static MonitorLevel monitor_info(const MonitorCtx *ctx)
{
    return (MonitorLevel) { monitor_info_cmds, ctx->ops ? ctx->ops->info
                                                        : NULL, "info " };
}

static void monitor_cmd_run_help(void *opaque, GString *out, int argc,
                                 char **argv)
{
    MonitorCtx *ctx = opaque;
    MonitorLevel top = monitor_top(ctx), info = monitor_info(ctx);
    const MonitorCommand *cmd;

    if (argc < 2) {
        monitor_level_help(out, &top);
        return;
    }
    cmd = monitor_cmd_find(top.builtin, argv[1]);
    if (!cmd) {
        cmd = monitor_cmd_find(top.machine, argv[1]);
    }
    if (!cmd) {
        g_string_append_printf(out, "unknown command: '%s'\n", argv[1]);
    } else if (cmd->run == monitor_cmd_run_info) {
        monitor_level_help(out, &info);
    } else {
        monitor_cmd_help(out, "", cmd);
    }
}

static void monitor_cmd_run_info(void *opaque, GString *out, int argc,
                                 char **argv)
{
    MonitorCtx *ctx = opaque;
    MonitorLevel info = monitor_info(ctx);

    if (argc < 2) {
        monitor_level_help(out, &info);
        return;
    }
    monitor_level_run(ctx, &info, out, argc - 1, argv + 1);
}

/*
 * Split @line into words: blanks separate, a word starting with '"'
 * runs to the next unescaped '"' (\" \\ inside), as QEMU's HMP does for
 * file names with spaces.  False with *err (g_free) if malformed.
 */
static bool monitor_split(const char *line, GPtrArray *words, char **err)
{
    const char *p = line;

    for (;;) {
        GString *w;

        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (!*p) {
            return true;
        }
        w = g_string_new(NULL);
        if (*p == '"') {
            p++;
            while (*p != '"') {
                if (!*p) {
                    g_string_free(w, TRUE);
                    *err = g_strdup("unterminated string");
                    return false;
                }
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) {
                    p++;
                }
                g_string_append_c(w, *p++);
            }
            p++;
            if (*p && *p != ' ' && *p != '\t') {
                g_string_free(w, TRUE);
                *err = g_strdup("expected a blank after a quoted string");
                return false;
            }
        } else {
            while (*p && *p != ' ' && *p != '\t') {
                g_string_append_c(w, *p++);
            }
        }
        g_ptr_array_add(words, g_string_free(w, FALSE));
    }
}

bool monitor_command_line(const MonitorOps *ops, void *opaque,
                          const char *line, GString *out)
{
    g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *err = NULL;
    MonitorCtx ctx = { .ops = ops, .opaque = opaque };

    if (!monitor_split(line, words, &err)) {
        g_string_append_printf(out, "parse error: %s\n", err);
    } else if (words->len) {
        MonitorLevel top = monitor_top(&ctx);

        g_ptr_array_add(words, NULL);
        monitor_level_run(&ctx, &top, out, words->len - 1,
                          (char **)words->pdata);
    }
    return ctx.quit;
}
