/*
 * The 3D draw's vertex cache: the shaded vertices (NV50PipeVertex) of a
 * BEGIN/END's stream as 3d-draw.c's assembly asks for them, fetched
 * (vfetch.c) and run through the VP (vp.c) a batch of refs at a time,
 * kept in a ring of slots, so that a draw holds a bounded number of
 * vertices (VCACHE_SLOTS) and inputs (VCACHE_BATCH) however long its
 * stream is (up to 3d-draw.c's MAX_DRAW_VERTS).
 *
 * - A slot's key says what it holds: an index value for a VB_ELEMENT_*
 *   ref (so that repeated indices share a vertex while it is cached:
 *   one VP run), else the ref's position.  slot[k] remembers the slot
 *   of ref k; it is valid while that slot's key is still k's.
 * - A miss at ref k fetches and shades refs k .. k + batch - 1 (but
 *   restarts and refs whose vertex is cached) into the oldest slots,
 *   never into the slots of the primitive being resolved (pinned).  A
 *   primitive's vertices are used at once (the GP copies their words,
 *   stream output writes them, clipping emits them), so no pointer
 *   outlives the next nv50_vcache_get.
 * - A vertex evicted and needed again (a fan's or line loop's first
 *   vertex, a far-back index) is fetched and shaded again: VP_LAUNCHES
 *   counts every VP run (3d-draw.c counts VFETCH_VERTICES once a ref).
 *   UNVERIFIED: what the hardware's vertex cache holds and reuses.
 * - A VP trap in a batch stops the draw there: what was handed on
 *   before stays (the whole stream ran through the VP before the first
 *   primitive when draws were shaded whole).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/engine.h"
#include "vcache.h"

#define VCACHE_SLOTS    4096u
#define VCACHE_BATCH    256u        /* 8 VP warps */
#define KEY_NONE        UINT64_MAX
#define KEY_INDEX       (1ull << 32)

static unsigned cache_slots = VCACHE_SLOTS, cache_batch = VCACHE_BATCH;

struct NV50Vcache {
    NV50GrCall *c;
    NV50Gr3dState *st;
    NV50VcacheSrc src;
    uint32_t base;              /* VB_ELEMENT_BASE */
    NV50Vfetch *vf;
    NV50VpDraw *vp;             /* at the first batch */
    unsigned nslots, batch;
    NV50PipeVertex *vert;       /* the ring */
    uint64_t *key;              /* what each slot holds, KEY_NONE */
    uint32_t *slot;             /* ref -> slot, valid iff the key matches */
    GHashTable *index;          /* index value + 1 -> its slot */
    unsigned hand;              /* the oldest slot */
    uint32_t *in;               /* a batch's inputs */
    NV50PipeVertex **out;       /* ... the slots its VP results go to */
    unsigned in_words;
    bool failed;
};

void nv50_3d_draw_set_cache(unsigned slots, unsigned batch)
{
    if (!slots || !batch) {
        slots = VCACHE_SLOTS;
        batch = VCACHE_BATCH;
    }
    g_assert(slots >= batch + NV50_VCACHE_PINS);
    cache_slots = slots;
    cache_batch = batch;
}

NV50Vcache *nv50_vcache_new(NV50GrCall *c, NV50Gr3dState *st,
                            const NV50VcacheSrc *src)
{
    NV50Vcache *vc = g_new0(NV50Vcache, 1);

    vc->c = c;
    vc->st = st;
    vc->src = *src;
    vc->base = nv50_st(st, NV50_3D_VB_ELEMENT_BASE);
    /* a short draw needs a slot a ref at most: never evicts */
    vc->nslots = MAX(MIN(cache_slots, src->nrefs), 1u);
    vc->batch = MAX(MIN(cache_batch, src->nrefs), 1u);
    vc->vert = g_new(NV50PipeVertex, vc->nslots);
    vc->key = g_new(uint64_t, vc->nslots);
    memset(vc->key, 0xff, sizeof(uint64_t) * vc->nslots);
    vc->slot = g_new0(uint32_t, MAX(src->nrefs, 1u));
    vc->index = g_hash_table_new(NULL, NULL);
    vc->in = g_new(uint32_t, (size_t)vc->batch * NV50_VP_IN_WORDS);
    vc->out = g_new(NV50PipeVertex *, vc->batch);
    vc->vf = nv50_vfetch_begin(c, st);
    return vc;
}

void nv50_vcache_free(NV50Vcache *vc)
{
    if (vc) {
        nv50_vfetch_end(vc->vf);
        nv50_vp_end(vc->vp);
        g_hash_table_destroy(vc->index);
        g_free(vc->vert);
        g_free(vc->key);
        g_free(vc->slot);
        g_free(vc->in);
        g_free(vc->out);
        g_free(vc);
    }
}

unsigned nv50_vcache_in_words(const NV50Vcache *vc)
{
    return vc->in_words;
}

static uint64_t ref_key(const NV50Vcache *vc, uint32_t k)
{
    const NV50VtxRef *ref = &vc->src.refs[k];

    return ref->kind == NV50_REF_INDEX ? KEY_INDEX | ref->val : k;
}

/* Is ref @k's vertex cached?  Then vc->slot[k] is its slot. */
static bool lookup(NV50Vcache *vc, uint32_t k)
{
    const NV50VtxRef *ref = &vc->src.refs[k];
    gpointer hit;

    if (vc->key[vc->slot[k]] == ref_key(vc, k)) {
        return true;
    }
    if (ref->kind == NV50_REF_INDEX &&
        g_hash_table_lookup_extended(vc->index,
                                     GUINT_TO_POINTER(ref->val + 1),
                                     NULL, &hit)) {
        vc->slot[k] = GPOINTER_TO_UINT(hit);
        return true;
    }
    return false;
}

/* The oldest slot but the @npin pinned ones, emptied. */
static unsigned take_slot(NV50Vcache *vc, const uint32_t *pin, unsigned npin)
{
    for (;;) {
        unsigned s = vc->hand;
        bool pinned = false;

        vc->hand = (vc->hand + 1) % vc->nslots;
        for (unsigned i = 0; i < npin; i++) {
            pinned |= pin[i] == s;
        }
        if (pinned) {
            continue;
        }
        if (vc->key[s] != KEY_NONE && (vc->key[s] & KEY_INDEX)) {
            gpointer v = GUINT_TO_POINTER((uint32_t)vc->key[s] + 1);

            if (GPOINTER_TO_UINT(g_hash_table_lookup(vc->index, v)) == s) {
                g_hash_table_remove(vc->index, v);
            }
        }
        vc->key[s] = KEY_NONE;
        return s;
    }
}

/* Ref @k's VP inputs into @in; their word count. */
static unsigned fetch(NV50Vcache *vc, uint32_t k, uint32_t *in)
{
    const NV50VtxRef *ref = &vc->src.refs[k];
    const NV50VcacheSrc *src = &vc->src;

    switch (ref->kind) {
    case NV50_REF_ARRAY:
        return nv50_vfetch_vertex(vc->vf, ref->val, NULL, ref->vertex_id,
                                  src->instance, src->cur, false, in);
    case NV50_REF_INDEX:
        return nv50_vfetch_vertex(vc->vf, ref->val + vc->base, NULL,
                                  ref->vertex_id, src->instance, src->cur,
                                  false, in);
    case NV50_REF_WORDS:
        return nv50_vfetch_vertex(vc->vf, 0, src->words + ref->val,
                                  ref->vertex_id, src->instance, src->cur,
                                  false, in);
    default:            /* NV50_REF_IMMEDIATE */
        return nv50_vfetch_vertex(vc->vf, 0, NULL, ref->vertex_id,
                                  src->instance,
                                  (const uint32_t (*)[4])(src->words +
                                                          ref->val),
                                  true, in);
    }
}

/* Fetch and shade the batch from ref @k0 (a miss) on; false: trapped. */
static bool fill(NV50Vcache *vc, uint32_t k0, const uint32_t *pin,
                 unsigned npin)
{
    uint32_t end = MIN(k0 + vc->batch, vc->src.nrefs);
    unsigned n = 0, in_words = 0;

    for (uint32_t k = k0; k < end; k++) {
        const NV50VtxRef *ref = &vc->src.refs[k];
        unsigned s;

        if (ref->kind == NV50_REF_BREAK || (k != k0 && lookup(vc, k))) {
            continue;
        }
        s = take_slot(vc, pin, npin);
        in_words = fetch(vc, k, vc->in + (size_t)n * NV50_VP_IN_WORDS);
        vc->key[s] = ref_key(vc, k);
        vc->slot[k] = s;
        if (ref->kind == NV50_REF_INDEX) {
            g_hash_table_insert(vc->index, GUINT_TO_POINTER(ref->val + 1),
                                GUINT_TO_POINTER(s));
        }
        vc->out[n++] = &vc->vert[s];
    }
    /* the VP reads in_words-word inputs: pack them */
    for (unsigned v = 1; v < n && in_words < NV50_VP_IN_WORDS; v++) {
        memmove(vc->in + (size_t)v * in_words,
                vc->in + (size_t)v * NV50_VP_IN_WORDS, 4ull * in_words);
    }
    vc->in_words = in_words;
    vc->st->counter[NV50_3D_COUNTER_VP_LAUNCHES] += n;
    /* straight into the slots: a trap leaves them keyed but the draw
       stops (vc->failed) before any is read */
    if (!vc->vp) {
        vc->vp = nv50_vp_begin(vc->c, vc->st);
    }
    if (!vc->vp || !nv50_vp_run(vc->vp, vc->in, MAX(in_words, 1u), n,
                                vc->out)) {
        vc->failed = true;
        return false;
    }
    return true;
}

bool nv50_vcache_get(NV50Vcache *vc, const uint32_t *k, unsigned n,
                     const NV50PipeVertex **v)
{
    uint32_t pin[2 * NV50_VCACHE_PINS];
    unsigned npin = 0;

    g_assert(n <= NV50_VCACHE_PINS);
    if (vc->failed) {
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        if (lookup(vc, k[i])) {
            pin[npin++] = vc->slot[k[i]];
        }
    }
    for (unsigned i = 0; i < n; i++) {
        if (!lookup(vc, k[i]) && !fill(vc, k[i], pin, npin)) {
            return false;
        }
        pin[npin++] = vc->slot[k[i]];
    }
    for (unsigned i = 0; i < n; i++) {
        v[i] = &vc->vert[vc->slot[k[i]]];
    }
    return true;
}
