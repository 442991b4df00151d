/*
 * PGRAPH class 0x5039 G80_M2MF: copies a rectangle of bytes from one
 * buffer to another, each side pitch or block-linear.
 *
 * Facts, and where they come from (envytools rnndb graph/nv_m2mf.xml and
 * nv_defs.xml, docs/hw/graph/intro.rst "Notifiers", docs/hw/memory/
 * g80-surface.rst; Linux 6.1 nouveau nouveau_bo5039.c, cl5039.h):
 * - DMA_NOTIFY 0x180, DMA_BUFFER_IN 0x184, DMA_BUFFER_OUT 0x188: context
 *   DMAs (the copy reads through BUFFER_IN, writes through BUFFER_OUT).
 * - Each side: LAYOUT 0x200/0x21c (0 BLOCKLINEAR, 1 PITCH), and for
 *   block-linear BLOCKLINEAR_DIMENSIONS 0x204/0x220 (WIDTH 3:0, HEIGHT
 *   7:4, DEPTH 11:8 log2 GOBs, GOB_HEIGHT 15:12 0 = TESLA_4), _PITCH
 *   0x208/0x224 (the surface's width in bytes: nouveau sets it to its
 *   64-byte stride, cl5039 calls it SET_SRC_WIDTH), _HEIGHT 0x20c/
 *   0x228 (rows), _DEPTH 0x210/0x22c (layers, 1-0x800), _POSITION_Z
 *   0x214/0x230 (layer), _POSITION 0x218/0x234 (X bytes 15:0, Y rows
 *   31:16); OFFSET_HIGH 0x238/0x23c (address bits 39:32, 7:0),
 *   OFFSET 0x30c/0x310 (bits 31:0: the start of the buffer, or of the
 *   block-linear surface), PITCH 0x314/0x318 (signed, pitch layout).
 * - LINE_LENGTH_IN 0x31c bytes, LINE_COUNT 0x320 lines; FORMAT 0x324
 *   INPUT_INC 7:0 and OUTPUT_INC 15:8, each 1, 2, 4, 8 or 16.
 * - BUF_NOTIFY 0x328 (0 WRITE_ONLY, 1 WRITE_THEN_AWAKEN) starts the
 *   copy: line l is LINE_LENGTH_IN bytes from (x, y + l, z) of the
 *   input to (x, y + l, z) of the output, pitch lines at OFFSET + l *
 *   PITCH.  When it is done the M2MF notifier is written: 16 bytes at
 *   offset 0x10 of the notify DMA (timestamp, 0, status 0: intro.rst),
 *   "cannot be turned off".  Then NOTIFY's ordinary notifier if armed.
 * - Memory goes through client DISPATCH, subclients M2M_IN 4, M2M_OUT
 *   5 and M2M_NOTIFY 6 (nvkm fb/nv50.c vm_dispatch_subclients); a fault
 *   traps unit M2MF (0x406800: NOTIFY 0, IN 1, OUT 2 in nvkm's names).
 *
 * The layouts are hw/nv50/surface.c's.  Bytes move in contiguous runs
 * (a pitch line, a GOB row), runs that follow each other in the buffer
 * merged, through a bounce buffer of at most M2MF_CHUNK bytes: the
 * input is read chunk by chunk, each chunk written before the next is
 * read (UNVERIFIED: what overlapping buffers give on hardware).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/core/memory.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/surface.h"
#include "gr.h"

#define NV50_M2MF_DMA_BUFFER_IN     0x184
#define NV50_M2MF_DMA_BUFFER_OUT    0x188
#define NV50_M2MF_LAYOUT_IN         0x200
#define NV50_M2MF_BLOCKLINEAR_DIMENSIONS_IN 0x204
#define NV50_M2MF_BLOCKLINEAR_PITCH_IN  0x208
#define NV50_M2MF_BLOCKLINEAR_HEIGHT_IN 0x20c
#define NV50_M2MF_BLOCKLINEAR_DEPTH_IN  0x210
#define NV50_M2MF_BLOCKLINEAR_POSITION_IN_Z 0x214
#define NV50_M2MF_BLOCKLINEAR_POSITION_IN   0x218
#define NV50_M2MF_LAYOUT_OUT        0x21c   /* the _OUT block: IN + 0x1c */
#define NV50_M2MF_OUT_DELTA         0x1c
#define NV50_M2MF_OFFSET_IN_HIGH    0x238
#define NV50_M2MF_OFFSET_OUT_HIGH   0x23c
#define NV50_M2MF_OFFSET_IN         0x30c
#define NV50_M2MF_OFFSET_OUT        0x310
#define NV50_M2MF_PITCH_IN          0x314
#define NV50_M2MF_PITCH_OUT         0x318
#define NV50_M2MF_LINE_LENGTH_IN    0x31c
#define NV50_M2MF_LINE_COUNT        0x320
#define NV50_M2MF_FORMAT            0x324
#define NV50_M2MF_BUF_NOTIFY        0x328

#define M2MF_LAYOUT_PITCH           1       /* inv_memory_layout */
#define M2MF_DEPTH_MAX              0x800   /* rnndb: 1-0x800 */
#define M2MF_NOTIFIER_OFFSET        0x10    /* intro.rst: the M2MF notifier */
#define M2MF_BUF_NOTIFY_AWAKEN      1


#define M2MF_CHUNK                  (256 * 1024)

/* One side of the copy: where its bytes are and how they are laid out. */
typedef struct M2mfSide {
    bool dma_valid;             /* a context DMA is bound */
    NV50CtxDma dma;
    bool pitch_layout;          /* LAYOUT: 1 PITCH, 0 BLOCKLINEAR */
    uint32_t dims;              /* BLOCKLINEAR_DIMENSIONS */
    uint32_t width, height, depth;  /* BLOCKLINEAR_PITCH/HEIGHT/DEPTH */
    uint32_t pos_z;             /* BLOCKLINEAR_POSITION_Z */
    uint32_t pos_x, pos_y;      /* BLOCKLINEAR_POSITION */
    uint64_t offset;            /* OFFSET_HIGH:OFFSET */
    int32_t pitch;              /* PITCH */
    /* the transfer, filled at BUF_NOTIFY */
    NV50Surface sf;
    uint32_t line_len;
} M2mfSide;

typedef struct M2mfState {
    NV50GrNotify notify;        /* first, as gr.h asks */
    M2mfSide in, out;
    uint32_t line_len, line_count;
    uint32_t format;
} M2mfState;

static void m2mf_init(void *opaque)
{
    M2mfState *st = opaque;

    /*
     * UNVERIFIED: the reset values; these are what a context nvkm's
     * ctxprog makes would need to be for a lone BUF_NOTIFY to be sane.
     */
    st->in.pitch_layout = st->out.pitch_layout = true;
    st->in.depth = st->out.depth = 1;
    st->format = 0x0101;
}

/* Offset in the side's context DMA of byte @x of line @line. */
static uint64_t side_addr(const M2mfSide *sd, uint32_t line, uint32_t x)
{
    if (sd->pitch_layout) {
        return sd->offset + (uint64_t)((int64_t)line * sd->pitch) + x;
    }
    return sd->offset + nv50_surface_offset(&sd->sf, sd->pos_x + x,
                                            sd->pos_y + line, sd->pos_z);
}

/* Contiguous bytes from byte @x of line @line on, within the line. */
static uint32_t side_run(const M2mfSide *sd, uint32_t line, uint32_t x)
{
    uint32_t run = sd->line_len - x;

    if (!sd->pitch_layout) {
        run = MIN(run, nv50_surface_run(&sd->sf, sd->pos_x + x,
                                        sd->pos_y + line, sd->pos_z));
    }
    return run;
}

/*
 * Move @len bytes of the transfer, starting at byte @pos of it (line
 * pos / line_len), between @buf and side @sd, run by run, runs that
 * follow each other in memory merged into one access.  False on a
 * fault (trapped by nv50_gr_rw).
 */
static bool side_xfer(NV50GrCall *c, const M2mfSide *sd, uint64_t pos,
                      uint8_t *buf, size_t len, bool is_write)
{
    uint32_t line = pos / sd->line_len, x = pos % sd->line_len;
    uint64_t start = 0;
    size_t pending = 0, done = 0;
    unsigned subclient = is_write ? NV50_VM_SUBCLIENT_M2M_OUT : NV50_VM_SUBCLIENT_M2M_IN;

    while (done < len) {
        uint64_t addr = side_addr(sd, line, x);
        size_t run = MIN((size_t)side_run(sd, line, x), len - done);

        if (pending && addr != start + pending) {
            if (!nv50_gr_rw(c, &sd->dma, start, buf + done - pending,
                            pending, is_write, NV50_VM_CLIENT_DISPATCH,
                            subclient, NV50_GR_TRAP_M2MF)) {
                return false;
            }
            pending = 0;
        }
        if (!pending) {
            start = addr;
        }
        pending += run;
        done += run;
        x += run;
        if (x == sd->line_len) {
            line++;
            x = 0;
        }
    }
    return !pending ||
           nv50_gr_rw(c, &sd->dma, start, buf + done - pending, pending,
                      is_write, NV50_VM_CLIENT_DISPATCH, subclient,
                      NV50_GR_TRAP_M2MF);
}

/* Fill in @sd's surface for the transfer; false (DATA_ERROR) if bad. */
static bool side_setup(NV50GrCall *c, M2mfState *st, M2mfSide *sd,
                       const char *name)
{
    if (!sd->dma_valid) {
        /* UNVERIFIED: the error a copy without a buffer DMA gives */
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_OBJECT, "M2MF copy without a "
                      "BUFFER_%s context DMA", name);
        return false;
    }
    sd->line_len = st->line_len;
    if (sd->pitch_layout) {
        return true;
    }
    /* UNVERIFIED: which sizes the hardware refuses, and how */
    if (!sd->width || !sd->height || !sd->depth ||
        (int32_t)sd->width < 0 || (int32_t)sd->height < 0 ||
        sd->depth > M2MF_DEPTH_MAX) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                      NV50_GR_DERR_INVALID_VALUE, "M2MF block-linear %s "
                      "surface of %d x %d x %u bytes", name,
                      (int32_t)sd->width, (int32_t)sd->height, sd->depth);
        return false;
    }
    /* UNVERIFIED: positions beyond the surface are not checked */
    sd->sf = (NV50Surface) {
        .block_linear = true,
        .width_bytes = sd->width,
        .height = sd->height,
        .depth = sd->depth,
        .block_w = sd->dims & 0xf,
        .block_h = (sd->dims >> 4) & 0xf,
        .block_d = (sd->dims >> 8) & 0xf,
    };
    return true;
}

/* The M2MF notifier: the copy is done. */
static void m2mf_notify(NV50GrCall *c, M2mfState *st, uint32_t type)
{
    /* UNVERIFIED: the error when no notify DMA is bound */
    if (!nv50_gr_write_notifier(c, st->notify.dma, M2MF_NOTIFIER_OFFSET,
                                NV50_VM_SUBCLIENT_M2M_NOTIFY,
                                NV50_GR_TRAP_M2MF)) {
        return;
    }
    if (type == M2MF_BUF_NOTIFY_AWAKEN) {
        /* UNVERIFIED: AWAKEN raises PGRAPH's BUFFER_NOTIFY interrupt */
        nv50_gr_error(c, NV50_GR_INTR_BUFFER_NOTIFY, 0,
                      "M2MF BUFFER_NOTIFY (WRITE_THEN_AWAKEN)");
    }
}

/* BUF_NOTIFY: the copy, then the notifier. */
static void m2mf_launch(NV50GrCall *c, M2mfState *st, uint32_t type)
{
    uint32_t fin = st->format & 0xff, fout = (st->format >> 8) & 0xff;
    uint64_t total = (uint64_t)st->line_len * st->line_count;
    g_autofree uint8_t *buf = NULL;

    if (type > M2MF_BUF_NOTIFY_AWAKEN) {
        nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR, NV50_GR_DERR_INVALID_ENUM,
                      "M2MF BUF_NOTIFY type %u", type);
        return;
    }
    if (!side_setup(c, st, &st->in, "IN") ||
        !side_setup(c, st, &st->out, "OUT")) {
        return;
    }
    if (fin != fout) {
        /*
         * Different increments scatter or gather the bytes (NV3-style
         * M2MF formats); nouveau and Mesa only use 1/1.
         */
        gemu_log_once(LOG_UNIMP, "nv50-m2mf-format", st->format,
                      "nv50: G80_M2MF FORMAT input %u != output %u not "
                      "modelled, copying bytes as with 1/1\n", fin, fout);
    }
    /* LINE_LENGTH_IN or LINE_COUNT 0: nothing to copy (UNVERIFIED) */
    if (total) {
        buf = g_malloc(MIN(total, (uint64_t)M2MF_CHUNK));
    }
    for (uint64_t pos = 0; pos < total;) {
        size_t n = MIN(total - pos, (uint64_t)M2MF_CHUNK);

        if (!side_xfer(c, &st->in, pos, buf, n, false) ||
            !side_xfer(c, &st->out, pos, buf, n, true)) {
            return;         /* trapped: no notifier */
        }
        pos += n;
    }
    m2mf_notify(c, st, type);
}

static bool format_inc_ok(uint32_t inc)
{
    return inc == 1 || inc == 2 || inc == 4 || inc == 8 || inc == 16;
}

/* The per-side methods 0x200-0x218 (@m relative to 0x200). */
static void side_method(NV50GrCall *c, M2mfSide *sd, uint32_t m,
                        uint32_t data)
{
    switch (m) {
    case NV50_M2MF_LAYOUT_IN - NV50_M2MF_LAYOUT_IN:
        if (data > M2MF_LAYOUT_PITCH) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_ENUM, "M2MF LAYOUT %u", data);
            return;
        }
        sd->pitch_layout = data == M2MF_LAYOUT_PITCH;
        return;
    case NV50_M2MF_BLOCKLINEAR_DIMENSIONS_IN - NV50_M2MF_LAYOUT_IN:
        /*
         * UNVERIFIED: g80-surface.rst says M2MF supports block width 0
         * only; gemu lays out whatever width is asked for.  Fields above
         * 5, a Fermi GOB height and bits 31:16 are refused.
         */
        if ((data & ~0xffffu) || (data >> 12) & 0xf ||
            (data & 0xf) > NV50_BLOCK_LOG2_MAX ||
            ((data >> 4) & 0xf) > NV50_BLOCK_LOG2_MAX ||
            ((data >> 8) & 0xf) > NV50_BLOCK_LOG2_MAX) {
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_VALUE,
                          "M2MF BLOCKLINEAR_DIMENSIONS 0x%08x", data);
            return;
        }
        sd->dims = data;
        return;
    case NV50_M2MF_BLOCKLINEAR_PITCH_IN - NV50_M2MF_LAYOUT_IN:
        sd->width = data;
        return;
    case NV50_M2MF_BLOCKLINEAR_HEIGHT_IN - NV50_M2MF_LAYOUT_IN:
        sd->height = data;
        return;
    case NV50_M2MF_BLOCKLINEAR_DEPTH_IN - NV50_M2MF_LAYOUT_IN:
        sd->depth = data;
        return;
    case NV50_M2MF_BLOCKLINEAR_POSITION_IN_Z - NV50_M2MF_LAYOUT_IN:
        sd->pos_z = data;
        return;
    case NV50_M2MF_BLOCKLINEAR_POSITION_IN - NV50_M2MF_LAYOUT_IN:
        sd->pos_x = data & 0xffff;
        sd->pos_y = data >> 16;
        return;
    }
}

/* Bind BUFFER_IN/OUT: the DMA object is read now, as PGRAPH caches it. */
static void side_dma(NV50GrCall *c, M2mfSide *sd, uint32_t data)
{
    sd->dma_valid = nv50_gr_ctxdma(c, data, &sd->dma);
}

static bool m2mf_own_method(NV50GrCall *c, M2mfState *st, uint32_t mthd,
                            uint32_t data)
{
    switch (mthd) {
    case NV50_M2MF_DMA_BUFFER_IN:
        side_dma(c, &st->in, data);
        return true;
    case NV50_M2MF_DMA_BUFFER_OUT:
        side_dma(c, &st->out, data);
        return true;
    case NV50_M2MF_LAYOUT_IN ... NV50_M2MF_BLOCKLINEAR_POSITION_IN:
        side_method(c, &st->in, mthd - NV50_M2MF_LAYOUT_IN, data);
        return true;
    case NV50_M2MF_LAYOUT_OUT ... NV50_M2MF_LAYOUT_OUT +
         (NV50_M2MF_BLOCKLINEAR_POSITION_IN - NV50_M2MF_LAYOUT_IN):
        side_method(c, &st->out, mthd - NV50_M2MF_LAYOUT_OUT, data);
        return true;
    case NV50_M2MF_OFFSET_IN_HIGH:
    case NV50_M2MF_OFFSET_OUT_HIGH: {
        M2mfSide *sd = mthd == NV50_M2MF_OFFSET_IN_HIGH ? &st->in : &st->out;

        /* UNVERIFIED: bits 31:8 ignored (cl5039: VALUE 7:0) */
        sd->offset = (uint64_t)(data & 0xff) << 32 | (uint32_t)sd->offset;
        return true;
    }
    case NV50_M2MF_OFFSET_IN:
    case NV50_M2MF_OFFSET_OUT: {
        M2mfSide *sd = mthd == NV50_M2MF_OFFSET_IN ? &st->in : &st->out;

        sd->offset = (sd->offset & ~(uint64_t)UINT32_MAX) | data;
        return true;
    }
    case NV50_M2MF_PITCH_IN:
        st->in.pitch = (int32_t)data;
        return true;
    case NV50_M2MF_PITCH_OUT:
        st->out.pitch = (int32_t)data;
        return true;
    case NV50_M2MF_LINE_LENGTH_IN:
        st->line_len = data;
        return true;
    case NV50_M2MF_LINE_COUNT:
        st->line_count = data;
        return true;
    case NV50_M2MF_FORMAT:
        if ((data & ~0xffffu) || !format_inc_ok(data & 0xff) ||
            !format_inc_ok((data >> 8) & 0xff)) {
            /* UNVERIFIED: the code for a bad increment */
            nv50_gr_error(c, NV50_GR_INTR_DATA_ERROR,
                          NV50_GR_DERR_INVALID_ENUM, "M2MF FORMAT 0x%08x",
                          data);
            return true;
        }
        st->format = data;
        return true;
    case NV50_M2MF_BUF_NOTIFY:
        m2mf_launch(c, st, data);
        return true;
    }
    return false;
}

static bool m2mf_method(NV50GrCall *c, void *opaque, uint32_t mthd,
                        uint32_t data)
{
    M2mfState *st = opaque;

    if (nv50_gr_common_method(c, &st->notify, mthd, data)) {
        return true;
    }
    if (!m2mf_own_method(c, st, mthd, data)) {
        return false;
    }
    nv50_gr_notify_done(c, &st->notify);
    return true;
}

const NV50GrClass nv50_gr_m2mf_class = {
    .class_id = 0x5039,
    .name = "G80_M2MF",
    .family = NV50_GR_M2MF,
    .state_size = sizeof(M2mfState),
    .init = m2mf_init,
    .method = m2mf_method,
};
