/*
 * The card's monitor commands (include/hw/nv50/inspect.h; the user's
 * side is docs/monitor.md): their arguments and answers.  What they show
 * comes from inspect.c; the engine's stop/cont from engine.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/inspect.h"
#include "hw/nv50/engine.h"
#include "target/tesla.h"

#include <limits.h>

/* "disas": instructions shown by default and at most */
#define DISAS_DEFAULT   16
#define DISAS_MAX       256

/* A number (0x hex or decimal) filling the whole word. */
static bool parse_u64(const char *arg, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = g_ascii_strtoull(arg, &end, 0);
    return arg[0] && g_ascii_isdigit(arg[0]) && !*end && !errno;
}

/* "vram" or a channel number; *chid -1 for VRAM */
static bool parse_space(const char *arg, int *chid, GString *out)
{
    uint64_t v;

    if (!strcmp(arg, "vram")) {
        *chid = -1;
        return true;
    }
    if (!parse_u64(arg, &v) || v >= NV50_FIFO_CHANNELS) {
        g_string_append_printf(out, "'%s' is neither 'vram' nor a channel "
                               "(0-%d)\n", arg, NV50_FIFO_CHANNELS - 1);
        return false;
    }
    *chid = v;
    return true;
}

static bool parse_addr(const char *arg, uint64_t *addr, GString *out)
{
    if (!parse_u64(arg, addr)) {
        g_string_append_printf(out, "'%s' is not an address\n", arg);
        return false;
    }
    return true;
}

/* x/xp: [/FMT] then @nspace words of space (0 or 1) and the address */
static void memdump(NV50State *s, GString *out, int argc, char **argv,
                    bool physical)
{
    g_autofree uint8_t *buf = NULL;
    g_autofree char *err = NULL;
    MonitorMemFmt f = { .count = 1, .format = 'x', .size = 4 };
    int i = 1, chid = -1, want = physical ? 1 : 2;
    uint64_t addr;

    if (argv[i][0] == '/') {
        if (!monitor_memfmt_parse(argv[i], &f, &err)) {
            g_string_append_printf(out, "%s: %s\n", argv[0], err);
            return;
        }
        i++;
    }
    if (argc - i != want) {
        g_string_append_printf(out, "%s: usage: %s\n", argv[0], physical
                               ? "xp [/FMT] ADDR" : "x [/FMT] CHANNEL ADDR");
        return;
    }
    if ((!physical && !parse_space(argv[i++], &chid, out)) ||
        !parse_addr(argv[i], &addr, out)) {
        return;
    }
    buf = g_malloc((size_t)f.count * f.size);
    if (!nv50_inspect_read(s, chid, addr, buf, (size_t)f.count * f.size,
                           &err)) {
        g_string_append_printf(out, "%s: %s\n", argv[0],
                               err ? err : "cannot read there");
        return;
    }
    monitor_memdump(out, addr, buf, &f);
}

static void cmd_x(void *opaque, GString *out, int argc, char **argv)
{
    memdump(opaque, out, argc, argv, false);
}

static void cmd_xp(void *opaque, GString *out, int argc, char **argv)
{
    memdump(opaque, out, argc, argv, true);
}

/* disas [/COUNT] CHANNEL|vram ADDR [vp|gp|fp|cp] */
static void cmd_disas(void *opaque, GString *out, int argc, char **argv)
{
    NV50State *s = opaque;
    g_autofree char *err = NULL;
    uint32_t code[DISAS_MAX * 2];
    TeslaProgType type = TESLA_PROG_FP;
    uint64_t count = DISAS_DEFAULT, addr;
    size_t nwords = 0, pos = 0;
    int i = 1, chid;

    if (argv[i][0] == '/' && (!parse_u64(argv[i] + 1, &count) ||
                              count == 0 || count > DISAS_MAX)) {
        g_string_append_printf(out, "disas: '%s': the count must be "
                               "1-%d\n", argv[i], DISAS_MAX);
        return;
    }
    i += argv[i][0] == '/';
    if (argc - i < 2 || argc - i > 3) {
        g_string_append(out, "disas: usage: disas [/COUNT] CHANNEL|vram "
                        "ADDR [vp|gp|fp|cp]\n");
        return;
    }
    if (!parse_space(argv[i], &chid, out) ||
        !parse_addr(argv[i + 1], &addr, out)) {
        return;
    }
    if (argc - i == 3 && !tesla_prog_parse(argv[i + 2], &type)) {
        g_string_append_printf(out, "disas: '%s' is not a program type "
                               "(%s)\n", argv[i + 2], tesla_prog_list());
        return;
    }
    /* word by word: a listing may run up to the end of a mapping */
    while (nwords < count * 2) {
        g_autofree char *why = NULL;

        if (!nv50_inspect_read(s, chid, addr + nwords * 4, &code[nwords], 4,
                               &why)) {
            err = nwords ? NULL : g_steal_pointer(&why);
            break;
        }
        nwords++;
    }
    if (!nwords) {
        g_string_append_printf(out, "disas: %s\n",
                               err ? err : "cannot read there");
        return;
    }
    for (uint64_t n = 0; n < count && pos < nwords; n++) {
        /* the G84's ISA: the card is one */
        pos += tesla_disasm_line(TESLA_G84, type, code, nwords, pos * 4,
                                 addr, out);
        g_string_append_c(out, '\n');
    }
}

static void cmd_stop(void *opaque, GString *out, int argc, char **argv)
{
    if (!nv50_engine_hold(opaque, true)) {
        g_string_append(out, "the engine is already stopped\n");
    }
}

static void cmd_cont(void *opaque, GString *out, int argc, char **argv)
{
    if (!nv50_engine_hold(opaque, false)) {
        g_string_append(out, "the engine is not stopped\n");
    }
}

static void cmd_info_channels(void *opaque, GString *out, int argc,
                              char **argv)
{
    nv50_inspect_channels(opaque, out);
}

static void cmd_info_pgraph(void *opaque, GString *out, int argc,
                            char **argv)
{
    nv50_inspect_pgraph(opaque, out);
}

const MonitorCommand nv50_monitor_commands[] = {
    { "x", "[/FMT] CHANNEL ADDR", "show the channel's virtual memory at "
      "ADDR (FMT: count, format x/d/u/f, size b/h/w/g; e.g. /8xw)",
      2, 3, cmd_x },
    { "xp", "[/FMT] ADDR", "show VRAM at ADDR (FMT as for x)", 1, 2, cmd_xp },
    { "disas", "[/COUNT] CHANNEL|vram ADDR [vp|gp|fp|cp]", "disassemble "
      "COUNT (16) Tesla instructions at ADDR of the channel's virtual "
      "memory or VRAM, as a program of that type (fp)", 2, 4, cmd_disas },
    { "stop", "", "stop the card's engine after the slice it is running "
      "(channels, PGRAPH; the guest and the display go on)", 0, 0,
      cmd_stop },
    { "cont|c", "", "let the card's engine run again", 0, 0, cmd_cont },
    { NULL },
};

const MonitorCommand nv50_monitor_info[] = {
    { "channels", "", "show the card's channels: GET/PUT, their state, "
      "what their subchannels hold", 0, 0, cmd_info_channels },
    { "pgraph", "", "show PGRAPH's status and interrupt registers and its "
      "contexts", 0, 0, cmd_info_pgraph },
    { NULL },
};
