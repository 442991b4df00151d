/*
 * Replay files (docs/devel/replay.md): the input is a recording, as
 * gemu -record writes it and gemu-replay reads it.
 *
 * - gemu_rec_parse() takes the bytes as they are: a damaged file must
 *   get an error (or parse as a noted prefix), never more.
 * - Most mutations break a CRC, and the replay would never be reached;
 *   so a copy with the header's CRC and every CHECK's CRC made right
 *   is parsed too and, when it parses, replayed as gemu-replay does:
 *   against a fresh card (nv50_replay_card_new(), at most
 *   FUZZ_VRAM_SIZE of VRAM) by hw/pci/replay.c, until the end, a
 *   divergence or FUZZ_REC_MAX_ACCESSES.  A kick waits for the engine
 *   FUZZ_ENGINE_WAIT_US at most and compute launches share
 *   FUZZ_INSN_BUDGET warp-instructions; once the engine is still
 *   busy after a kick (a draw that never ends) the replay stops: the
 *   run is no longer reproducible, and the card must only be freed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "nv50-card.h"
#include "block/gemu-rec.h"
#include "hw/nv50/engine.h"
#include "hw/nv50/replay.h"
#include "hw/pci/replay.h"

#define FUZZ_REC_MAX_ACCESSES   10000

static void check_parse(GemuRecFile *f, GError *err)
{
    if (!f && (!err || !err->message[0])) {
        fprintf(stderr, "gemu_rec_parse failed without an error\n");
        abort();
    }
    if (f && f->complete != !f->note) {
        fprintf(stderr, "gemu_rec_parse: complete %d but note '%s'\n",
                f->complete, f->note ? f->note : "(none)");
        abort();
    }
}

/* A ULEB128 number at @p (at most 10 bytes before @end); 0 if cut. */
static size_t get_uleb(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (unsigned i = 0; i < 10 && p + i < end; i++) {
        *v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            return i + 1;
        }
    }
    return 0;
}

/* Make the header's and the CHECK records' CRCs right, in place. */
static void fix_crcs(uint8_t *buf, size_t len)
{
    size_t pos = GEMU_REC_HEADER_SIZE, last = pos;

    if (len < GEMU_REC_HEADER_SIZE) {
        return;
    }
    stn_le_p(buf + 60, 4, gemu_rec_crc32(0, buf, 60));
    while (pos < len) {
        uint64_t plen;
        size_t n = get_uleb(buf + pos + 1, buf + len, &plen);

        if (!n || plen > len - pos - 1 - n) {
            return;
        }
        if (buf[pos] == GEMU_REC_CHECK && plen >= 4) {
            stn_le_p(buf + pos + 1 + n, 4,
                     gemu_rec_crc32(0, buf + last, pos - last));
            last = pos + 1 + n + plen;
        }
        pos += 1 + n + plen;
    }
}

static void replay(const GemuRecFile *f)
{
    g_autoptr(GError) err = NULL;
    GemuClock clk;
    NV50State *s = nv50_replay_card_new(&f->hdr, &clk, FUZZ_VRAM_SIZE,
                                        NULL);
    PciReplay *r;
    unsigned n = 0;
    int st;

    if (!s) {
        return;
    }
    nv50_engine_set_sync_limit(s, FUZZ_ENGINE_WAIT_US);
    nv50_engine_set_insn_budget(s, FUZZ_INSN_BUDGET);
    r = pci_replay_new(PCI_DEVICE(s), &s->dma, &clk, f);
    while ((st = pci_replay_step(r, &err)) > 0 &&
           ++n < FUZZ_REC_MAX_ACCESSES && nv50_engine_sync_for(s, 0)) {
        continue;
    }
    if (st < 0 && (!err || !err->message[0])) {
        fprintf(stderr, "pci_replay_step: %d without an error\n", st);
        abort();
    }
    if (st == 0 && pci_replay_end(r)) {
        /* gemu-replay compares it: the digest of any state is made */
        (void)nv50_state_digest(s);
    }
    pci_replay_free(r);
    nv50_replay_card_free(s, &clk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree uint8_t *fixed = NULL;
    GError *err = NULL;
    GemuRecFile *f;

    fuzz_quiet();
    f = gemu_rec_parse(data, size, &err);
    check_parse(f, err);
    g_clear_error(&err);
    if (!f) {
        fixed = g_memdup2(data, size);
        fix_crcs(fixed, size);
        f = gemu_rec_parse(fixed, size, &err);
        check_parse(f, err);
        g_clear_error(&err);
    }
    if (f) {
        replay(f);
        gemu_rec_file_free(f);
    }
    return 0;
}
