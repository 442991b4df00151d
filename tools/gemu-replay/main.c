/*
 * gemu-replay: run a recording (gemu -M g84 -record FILE) against the
 * card alone -- no QEMU, no guest -- and check that the card does what
 * it did then: the same DMA reads, interrupts and read values at every
 * access, the same state at the end.  Frames go where gemu's would
 * (-frames, -screendump, -display).  docs/replay.md.
 *
 *   gemu-replay [-screendump OUT.png] [-frames DIR] [-display SPEC]
 *               [-d ITEMS] [-q] FILE
 *
 * Exit status: 0 the replay matched, 1 it diverged (the access number is
 * printed) or the final state differs, 2 the file or the options are
 * unusable.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "block/gemu-rec.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/replay.h"
#include "hw/pci/replay.h"
#include "ui/console.h"

#include <getopt.h>

/* the window and -frames are looked after this often (accesses) */
#define REPLAY_UI_STEPS     4096

typedef struct ReplayOpts {
    const char *file;
    const char *screendump;
    const char *frames;
    const char *display;
    bool quiet;
} ReplayOpts;

static void GEMU_PRINTF(1, 2) replay_error(const char *fmt, ...)
{
    va_list ap;

    fputs("gemu-replay: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: gemu-replay [options] FILE\n"
        "  run FILE (made by gemu -M g84 -record FILE) against the card\n"
        "  alone and check it against what was recorded\n"
        "  -screendump OUT.png    head 0's last frame as a PNG\n"
        "  -frames DIR            every changed frame as DIR/frame-N.png\n"
        "  -display none|png:PREFIX|sdl  (default: none)\n"
        "  -d ITEMS               log items: %s\n"
        "  -q                     no summary line\n"
        "exit status: 0 matched, 1 diverged or another final state,\n"
        "2 the file or the options cannot be used\n",
        gemu_log_mask_help());
}

static bool parse_args(int argc, char **argv, ReplayOpts *o)
{
    static const struct option longopts[] = {
        { "screendump", required_argument, NULL, 'P' },
        { "frames", required_argument, NULL, 'F' },
        { "display", required_argument, NULL, 'I' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;

    while ((c = getopt_long_only(argc, argv, "d:qh", longopts,
                                 NULL)) != -1) {
        g_autofree char *err = NULL;

        switch (c) {
        case 'P':
            o->screendump = optarg;
            break;
        case 'F':
            o->frames = optarg;
            break;
        case 'I':
            o->display = optarg;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'd':
            if (!gemu_log_parse_mask(optarg, &gemu_loglevel, &err)) {
                replay_error("%s", err);
                return false;
            }
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return false;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return false;
    }
    o->file = argv[optind];
    return true;
}

/* -frames: every changed frame is past the interval (as -clock virtual) */
static int64_t frames_clock(void *opaque)
{
    int64_t *t = opaque;

    *t += (DISPLAY_FRAMES_MIN_INTERVAL_MS + 1) * 1000000LL;
    return *t;
}

static int reader_next(void *opaque, GemuRecord *r, GError **errp)
{
    return gemu_rec_reader_next(opaque, r, errp);
}

/*
 * Run the replay; the exit status.  The card's frames go to the display
 * as they come.
 */
static int run(const ReplayOpts *o, GemuRecReader *rd, NV50State *card,
               GemuClock *clk)
{
    g_autoptr(GError) err = NULL;
    PciReplay *r = pci_replay_new_source(PCI_DEVICE(card), &card->dma, clk,
                                         reader_next, rd);
    const GemuRecord *end;
    double t0 = g_get_monotonic_time() / 1e6, secs;
    uint64_t steps = 0;
    int st, status = 0;

    while ((st = pci_replay_step(r, &err)) > 0) {
        if (++steps % REPLAY_UI_STEPS == 0 && !display_poll()) {
            gemu_log("gemu-replay: stopped by the window at access %"
                     PRIu64 "\n", pci_replay_seq(r));
            break;
        }
    }
    secs = g_get_monotonic_time() / 1e6 - t0;
    end = pci_replay_end(r);
    if (st == -2) {
        replay_error("%s: %s (after access %" PRIu64 ")", o->file,
                     err->message, pci_replay_seq(r));
        status = 2;
    } else if (st < 0) {
        replay_error("%s: diverged at %s", o->file, err->message);
        status = 1;
    } else if (gemu_rec_reader_note(rd)) {
        gemu_log("gemu-replay: %s: %s; replayed what there was\n",
                 o->file, gemu_rec_reader_note(rd));
    } else if (end && end->digest != nv50_state_digest(card)) {
        replay_error("%s: all %" PRIu64 " accesses replayed, "
                   "but the card's final state differs (digest %016"
                   PRIx64 ", recorded %016" PRIx64 ")", o->file,
                   pci_replay_seq(r), nv50_state_digest(card), end->digest);
        status = 1;
    }
    if (!o->quiet) {
        printf("gemu-replay: %s: %" PRIu64 " accesses, card time %.3f s, "
               "replayed in %.3f s", o->file, pci_replay_seq(r),
               gemu_clock_get_ns(clk) / 1e9, secs);
        if (end && end->host_ns) {
            printf(" (recorded run %.3f s: %.1fx)", end->host_ns / 1e9,
                   end->host_ns / 1e9 / MAX(secs, 1e-6));
        }
        printf("; %s\n", status == 2 ? "STOPPED" : status ? "DIVERGED"
               : end ? "final state matches" : "no END record: final "
               "state not compared");
    }
    pci_replay_free(r);
    return status;
}

int main(int argc, char **argv)
{
    ReplayOpts o = { 0 };
    g_autoptr(GError) err = NULL;
    GemuRecReader *rd;
    GemuRecHeader hdr;
    GMappedFile *map;
    g_autofree char *derr = NULL;
    DisplayConsole *con[NV50_HEADS] = { 0 };
    int64_t frames_t = 0;
    NV50State *card;
    GemuClock clk;
    int status;

    if (!parse_args(argc, argv, &o)) {
        return 2;
    }
    /* mapped, read as it goes: a long recording is never held parsed */
    map = g_mapped_file_new(o.file, FALSE, &err);
    if (!map) {
        replay_error("%s", err->message);
        return 2;
    }
    rd = gemu_rec_reader_new((const uint8_t *)g_mapped_file_get_contents(map),
                             g_mapped_file_get_length(map), &hdr, &err);
    card = rd ? nv50_replay_card_new(&hdr, &clk, 0, &err) : NULL;
    if (!card) {
        replay_error("%s: %s", o.file, err->message);
        gemu_rec_reader_free(rd);
        g_mapped_file_unref(map);
        return 2;
    }
    for (int h = 0; h < NV50_HEADS; h++) {
        g_autofree char *name = g_strdup_printf("g84 head %d", h);

        con[h] = display_console_new(name);
        nv50_scanout_set_console(card, h, con[h]);
    }
    display_set_frames_clock(frames_clock, &frames_t);
    if (!display_open(con[0], o.display ? o.display : "none", o.frames,
                      &derr)) {
        replay_error("%s", derr);
        status = 2;
    } else {
        status = run(&o, rd, card, &clk);
    }
    if (o.screendump && status != 2) {
        g_autofree char *serr = NULL;

        if (!nv50_screendump(card, 0, o.screendump, &serr)) {
            replay_error("-screendump %s: %s", o.screendump, serr);
            status = status ? status : 2;
        }
    }
    display_close();
    nv50_replay_card_free(card, &clk);
    for (int h = 0; h < NV50_HEADS; h++) {
        display_console_free(con[h]);
    }
    gemu_rec_reader_free(rd);
    g_mapped_file_unref(map);
    return status;
}
