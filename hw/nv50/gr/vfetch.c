/*
 * Vertex fetch: the 16 vertex attributes of a 3D draw into VP inputs
 * (rnndb g80_3d.xml; what Mesa's nv50_vbo.c and nv50_push.c send).
 *
 * - VERTEX_ARRAY_ATTRIB[i]: BUFFER (the array, Mesa: i), CONST (the
 *   last VTX_ATTR_* value instead of memory), OFFSET (bytes into the
 *   array's element), FORMAT (g80_vtxelt_format: 1 to 4 components of
 *   8, 16 or 32 bits, 10_10_10_2, 11_11_10), TYPE (FLOAT, UNORM, SNORM,
 *   USCALED, SSCALED converted to float; UINT, SINT as integers; 16-bit
 *   FLOAT is half), BGRA (components 0 and 2 swapped).  Missing
 *   components read (0, 0, 0, 1), the 1 an integer for UINT/SINT.
 *   UNVERIFIED: TYPE is two 3-bit copies of g80_vtxelt_type; gemu reads
 *   the low one.
 * - VERTEX_ARRAY_FETCH[b]: STRIDE and ENABLE; START (40 bits, through
 *   DMA_VTXBUF, 0: the channel's VM, as Mesa leaves it), LIMIT (the last
 *   byte), PER_INSTANCE[b] with DIVISOR[b]: element VB_INSTANCE_BASE +
 *   InstanceID / DIVISOR (UNVERIFIED: DIVISOR 0 taken as 1).  Elements
 *   past LIMIT, or that fault, read as zero bytes (UNVERIFIED: the
 *   hardware's out-of-bounds rule; logged once).  A disabled array and
 *   an invalid FORMAT read (0, 0, 0, 1).
 * - Inline vertices (VERTEX_DATA): each non-CONST attribute with a valid
 *   format in order, its size rounded up to 4 bytes (Mesa's translate
 *   layout, nv50_push.c).
 * - VTX_ATTR_* (1F, 2H, 2F, 3F, 4F, 4H, 2I, 2NI, 4I, 4NI, 4UB, 4B, 4NUB,
 *   4NB): a write sets the attribute's value, the components the method
 *   lacks (0, 0, 0, 1) (UNVERIFIED); 2I/4I/4UB/4B taken as scaled
 *   integers, 2NI/4NI/4NUB/4NB normalised (nv50_vfetch_vtx_attr).
 * - VP inputs: VP_ATTR_EN[0..1] has 4 component bits per attribute; the
 *   enabled components are packed into a[] in attribute order, then
 *   VertexID and InstanceID if VP_GP_BUILTIN_ATTR_EN asks (Mesa's
 *   nv50_vertprog_assign_slots).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/bitops.h"
#include <math.h>
#include "gemu/log.h"
#include "gemu/half.h"
#include "draw.h"
#include "tpc.h"

#define CHUNK           4096u
/* chunks kept an array, by chunk address: an indexed mesh's rows lie
   apart (a grid's neighbouring rows a chunk or two), one chunk would
   be read again at every vertex */
#define CHUNK_WAYS      8u
#define CHUNK_NONE      UINT64_MAX

enum {
    TYPE_SNORM = 1, TYPE_UNORM = 2, TYPE_SINT = 3, TYPE_UINT = 4,
    TYPE_USCALED = 5, TYPE_SSCALED = 6, TYPE_FLOAT = 7,
};

typedef struct VfArray {
    NV50CpSpace sp;             /* START .. LIMIT */
    uint32_t stride;
    bool enabled;
    bool per_instance;
    uint32_t divisor;
    /* way w caches [chunk_off[w], + CHUNK), CHUNK_NONE if empty; the
       ways' memory is allocated at first use (a draw's set-up clears
       none of it) */
    uint64_t chunk_off[CHUNK_WAYS];
    uint8_t *chunk;
} VfArray;

struct NV50Vfetch {
    NV50GrCall *c;
    const NV50Gr3dState *st;
    /* the VP_ATTR_EN attributes in order, and their component masks */
    uint8_t used[NV50_VTX_ATTRIBS], used_mask[NV50_VTX_ATTRIBS];
    unsigned nused;
    uint32_t attrib[NV50_VTX_ATTRIBS];
    unsigned inl_off[NV50_VTX_ATTRIBS];  /* inline byte offsets */
    uint32_t attr_en[2];
    uint32_t builtin;
    uint32_t instance_base;
    VfArray arr[NV50_VTX_ATTRIBS];
};

/* components and bits of each FORMAT (0: not a format) */
static const struct {
    uint8_t n, bits;
} formats[64] = {
    [0x01] = { 4, 32 }, [0x02] = { 3, 32 }, [0x03] = { 4, 16 },
    [0x04] = { 2, 32 }, [0x05] = { 3, 16 }, [0x0a] = { 4, 8 },
    [0x0f] = { 2, 16 }, [0x12] = { 1, 32 }, [0x13] = { 3, 8 },
    [0x18] = { 2, 8 }, [0x1b] = { 1, 16 }, [0x1d] = { 1, 8 },
    [0x30] = { 4, 0 }, [0x31] = { 3, 0 },      /* packed in 32 bits */
};

static unsigned attr_format(uint32_t attrib)
{
    return (attrib >> 19) & 0x3f;
}

unsigned nv50_vfetch_size(uint32_t attrib)
{
    unsigned f = attr_format(attrib);

    if (!formats[f].n) {
        return 0;
    }
    return formats[f].bits ? formats[f].n * formats[f].bits / 8 : 4;
}

/* An unsigned float of 11 or 10 bits (5-bit exponent) to float. */
static float small_float(uint32_t v, unsigned mbits)
{
    unsigned e = v >> mbits, m = v & ((1u << mbits) - 1);

    if (e == 31) {
        return m ? NAN : INFINITY;
    }
    if (!e) {
        return ldexpf((float)m, -14 - (int)mbits);
    }
    return ldexpf(1.0f + (float)m / (float)(1u << mbits), (int)e - 15);
}

/* One raw component of @bits (1..32) to the type's 32-bit value. */
static uint32_t convert(uint32_t raw, unsigned bits, unsigned type)
{
    uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    int64_t s;

    raw &= mask;
    if (bits == 32) {
        s = (int32_t)raw;
    } else {
        s = (raw >> (bits - 1)) & 1 ? (int64_t)raw - ((int64_t)mask + 1)
                                    : (int64_t)raw;
    }
    switch (type) {
    case TYPE_FLOAT:
        if (bits == 32) {
            return raw;
        }
        if (bits == 16) {
            return f32_to_bits(gemu_half_to_float(raw));
        }
        return 0;       /* UNVERIFIED: no 8- or 10-bit floats */
    case TYPE_UNORM:
        return f32_to_bits((float)((double)raw / (double)mask));
    case TYPE_SNORM:
        return f32_to_bits(MAX((float)((double)s / (double)(mask >> 1)),
                               -1.0f));
    case TYPE_USCALED:
        return f32_to_bits((float)raw);
    case TYPE_SSCALED:
        return f32_to_bits((float)s);
    case TYPE_UINT:
        return raw;
    case TYPE_SINT:
        return (uint32_t)(int32_t)s;
    }
    return 0;
}

bool nv50_vfetch_decode(uint32_t attrib, const uint8_t *b, uint32_t out[4])
{
    unsigned f = attr_format(attrib);
    unsigned type = (attrib >> 25) & 7;
    bool is_int = type == TYPE_UINT || type == TYPE_SINT;
    unsigned n = formats[f].n, bits = formats[f].bits;

    out[0] = out[1] = out[2] = 0;
    out[3] = is_int ? 1 : f32_to_bits(1.0f);
    if (!n) {
        return false;
    }
    if (f == 0x30) {                    /* 10_10_10_2 */
        uint32_t w = ldn_le_p(b, 4);

        out[0] = convert(w, 10, type);
        out[1] = convert(w >> 10, 10, type);
        out[2] = convert(w >> 20, 10, type);
        out[3] = convert(w >> 30, 2, type);
    } else if (f == 0x31) {             /* 11_11_10, always float */
        uint32_t w = ldn_le_p(b, 4);

        if (type == TYPE_FLOAT) {
            out[0] = f32_to_bits(small_float(w & 0x7ff, 6));
            out[1] = f32_to_bits(small_float((w >> 11) & 0x7ff, 6));
            out[2] = f32_to_bits(small_float(w >> 22, 5));
        } else {
            out[0] = convert(w, 11, type);
            out[1] = convert(w >> 11, 11, type);
            out[2] = convert(w >> 22, 10, type);
        }
    } else if (bits == 32 && type != TYPE_UNORM && type != TYPE_SNORM &&
               type != TYPE_USCALED && type != TYPE_SSCALED) {
        /* FLOAT, UINT, SINT of 32 bits: the words as they are (convert's
           result), and a type convert does not know gives 0 */
        bool raw = type == TYPE_FLOAT || is_int;

        for (unsigned i = 0; i < n; i++) {
            out[i] = raw ? (uint32_t)ldn_le_p(b + 4 * i, 4) : 0;
        }
    } else {
        for (unsigned i = 0; i < n; i++) {
            uint32_t raw = bits == 32 ? (uint32_t)ldn_le_p(b + 4 * i, 4) :
                           bits == 16 ? (uint32_t)ldn_le_p(b + 2 * i, 2) : b[i];

            out[i] = convert(raw, bits, type);
        }
    }
    if (attrib & 0x80000000u) {         /* BGRA */
        uint32_t t = out[0];

        out[0] = out[2];
        out[2] = t;
    }
    return true;
}

unsigned nv50_vfetch_inline_words(const NV50Gr3dState *st)
{
    unsigned bytes = 0;

    for (unsigned i = 0; i < NV50_VTX_ATTRIBS; i++) {
        uint32_t a = nv50_st(st, NV50_3D_VERTEX_ARRAY_ATTRIB(i));

        if (!(a & 0x10)) {
            bytes += ((nv50_vfetch_size(a) + 3) & ~3u);
        }
    }
    return bytes / 4;
}

NV50Vfetch *nv50_vfetch_begin(NV50GrCall *c, const NV50Gr3dState *st)
{
    NV50Vfetch *vf = g_new0(NV50Vfetch, 1);
    unsigned off = 0;

    vf->c = c;
    vf->st = st;
    vf->attr_en[0] = nv50_st(st, NV50_3D_VP_ATTR_EN(0));
    vf->attr_en[1] = nv50_st(st, NV50_3D_VP_ATTR_EN(1));
    for (unsigned i = 0; i < NV50_VTX_ATTRIBS; i++) {
        unsigned mask = (vf->attr_en[i / 8] >> (4 * (i % 8))) & 0xf;

        if (mask) {
            vf->used[vf->nused] = i;
            vf->used_mask[vf->nused++] = mask;
        }
    }
    vf->builtin = nv50_st(st, NV50_3D_VP_GP_BUILTIN_ATTR_EN);
    vf->instance_base = nv50_st(st, NV50_3D_VB_INSTANCE_BASE);
    for (unsigned i = 0; i < NV50_VTX_ATTRIBS; i++) {
        uint32_t a = nv50_st(st, NV50_3D_VERTEX_ARRAY_ATTRIB(i));
        uint32_t fetch = nv50_st(st, NV50_3D_VERTEX_ARRAY_FETCH(i));
        uint64_t start, limit;
        VfArray *ar = &vf->arr[i];

        vf->attrib[i] = a;
        vf->inl_off[i] = off;
        if (!(a & 0x10)) {
            off += ((nv50_vfetch_size(a) + 3) & ~3u);
        }
        start = (uint64_t)(nv50_st(st, NV50_3D_VERTEX_ARRAY_START_HIGH(i)) &
                           0xff) << 32 |
                nv50_st(st, NV50_3D_VERTEX_ARRAY_START_HIGH(i) + 4);
        limit = (uint64_t)(nv50_st(st, NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(i)) &
                           0xff) << 32 |
                nv50_st(st, NV50_3D_VERTEX_ARRAY_LIMIT_HIGH(i) + 4);
        ar->enabled = (fetch & NV50_3D_VERTEX_ARRAY_FETCH_ENABLE) &&
                      limit >= start;
        ar->stride = fetch & 0xfff;
        ar->sp.dma = nv50_st(st, 0x018c);       /* DMA_VTXBUF */
        ar->sp.base = start;
        ar->sp.size = ar->enabled ? limit - start + 1 : 0;
        ar->per_instance = nv50_st(st, NV50_3D_VERTEX_ARRAY_PER_INSTANCE(i))
                           & 1;
        ar->divisor = MAX(nv50_st(st, NV50_3D_VERTEX_ARRAY_DIVISOR(i)), 1u);
        for (unsigned w = 0; w < CHUNK_WAYS; w++) {
            ar->chunk_off[w] = CHUNK_NONE;
        }
    }
    return vf;
}

void nv50_vfetch_end(NV50Vfetch *vf)
{
    if (vf) {
        for (unsigned i = 0; i < NV50_VTX_ATTRIBS; i++) {
            g_free(vf->arr[i].chunk);
        }
        g_free(vf);
    }
}

/*
 * @len bytes at @off of array @ar: in its cached chunk (no copy), else
 * read into @buf; zeros past LIMIT or on a fault.
 */
static const uint8_t *array_read(NV50Vfetch *vf, VfArray *ar, uint64_t off,
                                 uint8_t *buf, unsigned len)
{
    NV50Fault f;

    if (off + len > ar->sp.size) {
        gemu_log_once(LOG_GUEST_ERROR, "nv50-vfetch-limit", 0, "nv50: 3D "
                      "vertex fetch past VERTEX_ARRAY_LIMIT reads zeros "
                      "(UNVERIFIED)\n");
        memset(buf, 0, len);
        return buf;
    }
    if ((off & ~(uint64_t)(CHUNK - 1)) ==
        ((off + len - 1) & ~(uint64_t)(CHUNK - 1))) {
        uint64_t co = off & ~(uint64_t)(CHUNK - 1);
        unsigned w = (co / CHUNK) % CHUNK_WAYS;
        uint8_t *chunk;

        if (!ar->chunk) {
            ar->chunk = g_malloc((size_t)CHUNK * CHUNK_WAYS);
        }
        chunk = ar->chunk + (size_t)w * CHUNK;
        if (ar->chunk_off[w] != co) {
            unsigned n = MIN((uint64_t)CHUNK, ar->sp.size - co);

            ar->chunk_off[w] = nv50_cp_space_rw(vf->c, &ar->sp, co, chunk, n,
                                                false, &f) ? co : CHUNK_NONE;
        }
        if (ar->chunk_off[w] == co) {
            return chunk + (off - co);
        }
    } else if (nv50_cp_space_rw(vf->c, &ar->sp, off, buf, len, false, &f)) {
        return buf;
    }
    gemu_log_once(LOG_GUEST_ERROR, "nv50-vfetch-fault", 0, "nv50: 3D vertex "
                  "fetch faults at 0x%" PRIx64 ": reads zeros (UNVERIFIED)\n",
                  ar->sp.base + off);
    memset(buf, 0, len);
    return buf;
}

/* The 4 words of attribute @i for one vertex. */
static void fetch_attr(NV50Vfetch *vf, unsigned i, uint32_t index,
                       const uint32_t *words, uint32_t instance_id,
                       const uint32_t cur[NV50_VTX_ATTRIBS][4],
                       bool all_const, uint32_t out[4])
{
    uint32_t a = vf->attrib[i];
    unsigned size = nv50_vfetch_size(a);
    uint8_t bytes[16];
    VfArray *ar;
    uint64_t elem;

    if ((a & 0x10) || all_const) {      /* CONST */
        memcpy(out, cur[i], 16);
        return;
    }
    if (words) {
        for (unsigned k = 0; k < (size + 3) / 4; k++) {
            stn_le_p(bytes + 4 * k, 4, words[vf->inl_off[i] / 4 + k]);
        }
        nv50_vfetch_decode(a, bytes, out);
        return;
    }
    ar = &vf->arr[a & 0xf];
    if (!ar->enabled || !size) {
        nv50_vfetch_decode(0, bytes, out);
        out[3] = f32_to_bits(1.0f);
        return;
    }
    elem = ar->per_instance ? vf->instance_base + instance_id / ar->divisor
                            : index;
    nv50_vfetch_decode(a, array_read(vf, ar, elem * ar->stride +
                                         ((a >> 5) & 0x3fff), bytes, size),
                       out);
}

unsigned nv50_vfetch_vertex(NV50Vfetch *vf, uint32_t index,
                            const uint32_t *words, uint32_t vertex_id,
                            uint32_t instance_id,
                            const uint32_t cur[NV50_VTX_ATTRIBS][4],
                            bool all_const, uint32_t *in)
{
    unsigned n = 0;

    for (unsigned u = 0; u < vf->nused; u++) {
        unsigned mask = vf->used_mask[u];
        uint32_t v[4];

        fetch_attr(vf, vf->used[u], index, words, instance_id, cur,
                   all_const, v);
        if (mask == 0xf) {
            memcpy(in + n, v, sizeof(v));
            n += 4;
            continue;
        }
        for (unsigned k = 0; k < 4; k++) {
            if (mask & (1u << k)) {
                in[n++] = v[k];
            }
        }
    }
    if (vf->builtin & NV50_3D_BUILTIN_VERTEX_ID) {
        in[n++] = vertex_id;
    }
    if (vf->builtin & NV50_3D_BUILTIN_INSTANCE_ID) {
        in[n++] = instance_id;
    }
    return n;
}

/* --- VTX_ATTR_* (3d-draw.c keeps the values) --- */

int nv50_vfetch_vtx_attr(uint32_t cur[NV50_VTX_ATTRIBS][4], uint32_t mthd,
                         uint32_t data, bool *last)
{
    uint32_t off = mthd - NV50_3D_VTX_ATTR_FIRST;
    unsigned a, comp, ncomp;
    uint32_t *v;

    *last = false;
    if (off < 0x40) {                       /* 1F */
        a = off / 4;
        cur[a][0] = data;
        comp = 0;
        ncomp = 1;
    } else if (off < 0x80) {                /* 2H */
        a = (off - 0x40) / 4;
        cur[a][0] = f32_to_bits(gemu_half_to_float(data));
        cur[a][1] = f32_to_bits(gemu_half_to_float(data >> 16));
        comp = 1;
        ncomp = 2;
    } else if (off < 0x100) {               /* 2F */
        a = (off - 0x80) / 8;
        comp = (off / 4) & 1;
        cur[a][comp] = data;
        ncomp = 2;
    } else if (off < 0x200) {               /* 3F */
        a = (off - 0x100) / 16;
        comp = (off / 4) & 3;
        if (comp == 3) {
            return -1;
        }
        cur[a][comp] = data;
        ncomp = 3;
    } else if (off < 0x300) {               /* 4F */
        a = (off - 0x200) / 16;
        comp = (off / 4) & 3;
        cur[a][comp] = data;
        ncomp = 4;
    } else if (off < 0x380) {               /* 4H */
        a = (off - 0x300) / 8;
        comp = (off / 4) & 1 ? 3 : 1;
        cur[a][comp - 1] = f32_to_bits(gemu_half_to_float(data));
        cur[a][comp] = f32_to_bits(gemu_half_to_float(data >> 16));
        ncomp = 4;
    } else if (off < 0x500) {               /* 2I, 2NI, 4I, 4NI: 16-bit */
        bool norm = (off >= 0x3c0 && off < 0x400) || off >= 0x480;
        bool four = off >= 0x400;
        unsigned base;

        if (four) {
            a = (off - (off >= 0x480 ? 0x480 : 0x400)) / 8;
            base = (off / 4) & 1 ? 2 : 0;
        } else {
            a = (off - (off >= 0x3c0 ? 0x3c0 : 0x380)) / 4;
            base = 0;
        }
        for (unsigned k = 0; k < 2; k++) {
            float f = (int16_t)(data >> (16 * k));

            if (norm) {
                f = MAX(f / 32767.0f, -1.0f);
            }
            cur[a][base + k] = f32_to_bits(f);
        }
        comp = base + 1;
        ncomp = four ? 4 : 2;
    } else {                                /* 4UB, 4B, 4NUB, 4NB */
        unsigned kind = (off - 0x500) / 0x40;

        a = ((off - 0x500) % 0x40) / 4;
        for (unsigned k = 0; k < 4; k++) {
            uint8_t b = data >> (8 * k);
            float f = (kind & 1) ? (float)(int8_t)b : (float)b;

            if (kind == 2) {
                f /= 255.0f;
            } else if (kind == 3) {
                f = MAX(f / 127.0f, -1.0f);
            }
            cur[a][k] = f32_to_bits(f);
        }
        comp = 3;
        ncomp = 4;
    }
    v = cur[a];
    if (comp + 1 == ncomp) {
        *last = true;
        for (unsigned k = ncomp; k < 4; k++) {
            v[k] = k == 3 ? f32_to_bits(1.0f) : 0;
        }
    }
    return a;
}
