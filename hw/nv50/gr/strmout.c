/*
 * Stream output (transform feedback): the vertices of the primitives
 * after the VP or GP, before clipping, written to up to four buffers.
 * What Mesa 22.3's nv50 sends (nv50_shader_state.c
 * nv50_stream_output_validate and the STRMOUT_MAP part of
 * nv50_fp_linkage_validate; nv50_program.c
 * nv50_program_create_strmout_state); rnndb g80_3d.xml.
 *
 * - STRMOUT_ENABLE: on for the draws that stream out.
 * - STRMOUT_BUFFERS_CTRL: INTERLEAVED (buffer 0 alone, STRIDE bytes a
 *   vertex) or SEPARATE buffers (that many, NUM_ATTRIBS * 4 bytes a
 *   vertex each); STRMOUT_ADDRESS_HIGH/LOW[i] (VM addresses, or in
 *   DMA_STRMOUT if one is bound), STRMOUT_NUM_ATTRIBS[i] words.
 * - STRMOUT_MAP: byte k for result k of the result map in use (the
 *   VP's, or the GP's with GP_ENABLE; NV50PipeVertex.out[k]): 0x80 | pos
 *   streams it to word pos of the buffers' words, buffer 0's first,
 *   each buffer's rounded up to 4 (how Mesa numbers them; UNVERIFIED);
 *   other bytes stream nothing.  Words of a vertex no byte names are
 *   left as they were (GL's skipped components; UNVERIFIED).
 * - A primitive is written whole (its vertices in order, strips as
 *   separate primitives) or not at all: not past STRMOUT_PRIMITIVE_LIMIT
 *   primitives since the latch (G84; on G200+ with LIMIT_MODE
 *   PRIMITIVES), nor, with LIMIT_MODE OFFSET (G200+), past
 *   STRMOUT_OFFSET_LIMIT[i] bytes of any buffer.  One that does not fit
 *   is dropped and counted as overflow.
 * - STRMOUT_PARAMS_LATCH: the buffers' write positions start again at
 *   0 (G84; Mesa moves the address on instead) or at STRMOUT_OFFSET[i]
 *   (G200+), the primitive count and overflow at 0.
 * - Counters: TRANSFORM_FEEDBACK (primitives written), strmout_vertices
 *   (QUERY STRMOUT_VERTICES), strmout_offset[] (QUERY STRMOUT_OFFSET),
 *   strmout_overflow (QUERY STRMOUT_NO_OVERFLOW); GENERATED_PRIMITIVES
 *   is 3d-draw.c's.
 * - A fault writing a buffer: PGRAPH TRAP_STRMOUT FAULT (nvkm's name),
 *   and the draw streams nothing more.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/engine.h"
#include "draw.h"
#include "tpc.h"

#define BUFS            4
#define MAP_BYTES       (NV50_3D_STRMOUT_MAP__LEN * 4)
#define MAX_ATTRIBS     0x40
#define STRMOUT_FAULT   0x00000001u     /* nvkm nv50_gr_trap_strmout */
#define VA_LIMIT        (1ull << 40)

typedef struct SoWord {
    uint8_t slot;               /* result k */
    uint8_t buf;
    uint8_t word;               /* in the buffer's vertex */
} SoWord;

struct NV50Strmout {
    NV50GrCall *c;
    NV50Gr3dState *st;
    unsigned nbufs;
    NV50CpSpace sp[BUFS];
    uint32_t stride[BUFS];      /* bytes a vertex */
    SoWord map[MAP_BYTES];
    unsigned nmap;
    bool limit_prims;           /* STRMOUT_PRIMITIVE_LIMIT applies */
    bool limit_offset;          /* STRMOUT_OFFSET_LIMIT[] applies */
    bool dead;                  /* faulted */
};

static bool is_g200(const NV50GrCall *c)
{
    return c->class_id >= 0x8397;
}

void nv50_strmout_latch(NV50GrCall *c, NV50Gr3dState *st)
{
    for (unsigned i = 0; i < BUFS; i++) {
        st->strmout_offset[i] = is_g200(c) ?
                                nv50_st(st, NV50_3D_STRMOUT_OFFSET(i)) : 0;
    }
    st->strmout_prims = 0;
    st->strmout_overflow = false;
}

/* STRMOUT_MAP into (result, buffer, word) triples. */
static void read_map(NV50Strmout *so, const unsigned num[BUFS])
{
    unsigned base[BUFS + 1] = { 0 };

    for (unsigned b = 0; b < so->nbufs; b++) {
        base[b + 1] = base[b] + ((num[b] + 3) & ~3u);
    }
    for (unsigned k = 0; k < MAP_BYTES; k++) {
        unsigned m = nv50_st(so->st, NV50_3D_STRMOUT_MAP(k / 4)) >>
                     (8 * (k % 4)) & 0xff;
        unsigned pos = m & 0x7f;

        if (!(m & 0x80)) {
            continue;
        }
        for (unsigned b = 0; b < so->nbufs; b++) {
            if (pos >= base[b] && pos < base[b] + num[b]) {
                so->map[so->nmap++] = (SoWord) {
                    .slot = k, .buf = b, .word = pos - base[b],
                };
                break;
            }
        }
    }
}

NV50Strmout *nv50_strmout_begin(NV50GrCall *c, NV50Gr3dState *st)
{
    uint32_t ctrl = nv50_st(st, NV50_3D_STRMOUT_BUFFERS_CTRL);
    bool interleaved = ctrl & NV50_3D_STRMOUT_BUFFERS_CTRL_INTERLEAVED;
    unsigned num[BUFS] = { 0 };
    NV50Strmout *so;

    if (!(nv50_st(st, NV50_3D_STRMOUT_ENABLE) & 1)) {
        return NULL;
    }
    so = g_new0(NV50Strmout, 1);
    so->c = c;
    so->st = st;
    so->nbufs = interleaved ? 1 : MIN((ctrl >> 4) & 0xf, (unsigned)BUFS);
    for (unsigned b = 0; b < so->nbufs; b++) {
        uint64_t va = (uint64_t)(nv50_st(st, NV50_3D_STRMOUT_ADDRESS_HIGH(b))
                                 & 0xff) << 32 |
                      nv50_st(st, NV50_3D_STRMOUT_ADDRESS_LOW(b));

        num[b] = MIN(nv50_st(st, NV50_3D_STRMOUT_NUM_ATTRIBS(b)),
                     (uint32_t)MAX_ATTRIBS);
        so->sp[b] = (NV50CpSpace) {
            .dma = nv50_st(st, NV50_3D_DMA_STRMOUT), .base = va,
            .size = VA_LIMIT - MIN(va, VA_LIMIT),
        };
        so->stride[b] = interleaved ? (ctrl >> 8) & 0xfff : num[b] * 4;
        if (so->stride[b] < num[b] * 4) {
            /* UNVERIFIED: the hardware's error for such a stride */
            gemu_log_once(LOG_GUEST_ERROR, "nv50-strmout-stride", 0,
                          "nv50: 3D STRMOUT_BUFFERS_CTRL STRIDE %u below "
                          "NUM_ATTRIBS %u words: words past it dropped\n",
                          so->stride[b], num[b]);
            num[b] = so->stride[b] / 4;
        }
    }
    read_map(so, num);
    so->limit_offset = is_g200(c) &&
                       (ctrl & NV50_3D_STRMOUT_BUFFERS_CTRL_LIMIT_MODE_OFFSET);
    so->limit_prims = !so->limit_offset;
    return so;
}

/* Does a primitive of @n vertices fit? */
static bool fits(const NV50Strmout *so, unsigned n)
{
    const NV50Gr3dState *st = so->st;

    if (so->limit_prims &&
        st->strmout_prims >= nv50_st(st, NV50_3D_STRMOUT_PRIMITIVE_LIMIT)) {
        return false;
    }
    for (unsigned b = 0; so->limit_offset && b < so->nbufs; b++) {
        if ((uint64_t)st->strmout_offset[b] + (uint64_t)n * so->stride[b] >
            nv50_st(st, NV50_3D_STRMOUT_OFFSET_LIMIT(b))) {
            return false;
        }
    }
    return true;
}

/* Vertex @v's words of buffer @b at its write position, in runs. */
static bool write_vertex(NV50Strmout *so, unsigned b, uint64_t off,
                         const NV50PipeVertex *v)
{
    uint32_t words[MAX_ATTRIBS];
    uint64_t have = 0;          /* bit w: word w is streamed */
    NV50Fault f;
    uint8_t bytes[MAX_ATTRIBS * 4];

    for (unsigned i = 0; i < so->nmap; i++) {
        const SoWord *w = &so->map[i];

        if (w->buf == b) {
            words[w->word] = w->slot < v->out_words ? v->out[w->slot] : 0;
            have |= 1ull << w->word;
        }
    }
    while (have) {
        unsigned first = __builtin_ctzll(have), n = 0;

        while (first + n < MAX_ATTRIBS && (have >> (first + n)) & 1) {
            stn_le_p(bytes + 4 * n, 4, words[first + n]);
            have &= ~(1ull << (first + n));
            n++;
        }
        if (!nv50_cp_space_rw(so->c, &so->sp[b], off + 4 * first, bytes,
                              4 * n, true, &f)) {
            nv50_gr_trap(so->c, NV50_GR_TRAP_STRMOUT, STRMOUT_FAULT,
                         "STRMOUT buffer %u write at 0x%010" PRIx64
                         " faults", b, so->sp[b].base + off + 4 * first);
            return false;
        }
    }
    return true;
}

void nv50_strmout_prim(NV50Strmout *so, const NV50PipeVertex *const *v,
                       unsigned n)
{
    NV50Gr3dState *st = so->st;

    if (so->dead) {
        return;
    }
    if (!fits(so, n)) {
        st->strmout_overflow = true;
        return;
    }
    for (unsigned b = 0; b < so->nbufs; b++) {
        for (unsigned i = 0; i < n; i++) {
            uint64_t off = st->strmout_offset[b] + (uint64_t)i * so->stride[b];

            if (!write_vertex(so, b, off, v[i])) {
                so->dead = true;
                return;
            }
        }
        st->strmout_offset[b] += n * so->stride[b];
    }
    st->strmout_prims++;
    st->strmout_vertices += n;
    st->counter[NV50_3D_COUNTER_TRANSFORM_FEEDBACK]++;
}

void nv50_strmout_end(NV50Strmout *so)
{
    g_free(so);
}
