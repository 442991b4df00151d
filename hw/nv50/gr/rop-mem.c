/*
 * The ROP's memory: a draw's surfaces are read and written through a
 * cache of 4 KiB chunks (aligned in the VA or DMA space, so one page
 * each), loaded on first touch with one nv50_gr_rw/nv50_gr_vm_rw per
 * chunk and written back (the dirty bytes) at nv50_rop_end, or when the
 * cache holds ROP_MAX_CHUNKS.  A fault traps (PROP, VM client PROP,
 * subclient RT0-7 or ZETA) and ends the ROP's memory work for that draw.
 * Element reads and writes, and rows filled from a pattern (clears).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "rop-int.h"

static bool chunk_io(NV50Rop *r, RopChunk *k, uint32_t off, uint32_t len,
                     bool is_write)
{
    bool ok;

    if (!r->dead && g_atomic_int_get(&r->root->faulted)) {
        r->dead = true;         /* another lane's fault */
    }
    if (!len || r->dead) {
        return !r->dead;
    }
    if (k->use_dma) {
        ok = nv50_gr_rw(r->c, &k->dma, k->addr + off, k->data + off, len,
                        is_write, NV50_VM_CLIENT_PROP, k->sub,
                        NV50_GR_TRAP_PROP);
    } else {
        ok = nv50_gr_vm_rw(r->c, k->addr + off, k->data + off, len,
                           is_write, NV50_VM_CLIENT_PROP, k->sub,
                           NV50_GR_TRAP_PROP);
    }
    if (!ok) {
        r->dead = true;
        g_atomic_int_set(&r->root->faulted, 1);
    }
    return ok;
}

/*
 * Write back chunk @k's dirty bytes: its range (the bytes between are
 * as loaded), or with lanes whose caches were written back while others
 * ran (NV50Rop.spilled), the runs of its dirty bits alone.
 */
static void chunk_write_back(NV50Rop *r, RopChunk *k)
{
    uint32_t i = k->dlo;

    if (!r->track || !g_atomic_int_get(&r->root->spilled)) {
        chunk_io(r, k, k->dlo, k->dhi - k->dlo, true);
        return;
    }
    while (i < k->dhi) {
        uint64_t w = k->dmask[i / 64] >> (i % 64);
        uint32_t j;

        if (!w) {
            i = (i / 64 + 1) * 64;  /* the next word */
            continue;
        }
        i += __builtin_ctzll(w);
        for (j = i; j < k->dhi; j = (j / 64 + 1) * 64) {
            uint64_t clean = ~k->dmask[j / 64] >> (j % 64);

            if (clean) {
                j += __builtin_ctzll(clean);
                break;
            }
        }
        j = MIN(j, k->dhi);
        chunk_io(r, k, i, j - i, true);
        i = j;
    }
}

void nv50_rop_cache_flush(NV50Rop *r)
{
    GHashTableIter it;
    gpointer key, val;

    g_hash_table_iter_init(&it, r->chunks);
    while (g_hash_table_iter_next(&it, &key, &val)) {
        RopChunk *k = val;

        if (k->dhi > k->dlo) {
            chunk_write_back(r, k);
        }
    }
    g_hash_table_remove_all(r->chunks);
    r->nchunks = 0;
    for (unsigned i = 0; i <= ZETA; i++) {
        rop_mru_forget(&r->surf[i]);
    }
}

/* Load bytes [@lo, @hi) of chunk @k (it keeps one range loaded). */
static bool chunk_load(NV50Rop *r, RopChunk *k, uint32_t lo, uint32_t hi)
{
    if (k->hi == k->lo) {
        if (!chunk_io(r, k, lo, hi - lo, false)) {
            return false;
        }
        k->lo = lo;
        k->hi = hi;
        return true;
    }
    if (lo < k->lo && !chunk_io(r, k, lo, k->lo - lo, false)) {
        return false;
    }
    if (hi > k->hi && !chunk_io(r, k, k->hi, hi - k->hi, false)) {
        return false;
    }
    k->lo = MIN(k->lo, lo);
    k->hi = MAX(k->hi, hi);
    return true;
}

NV50RopPool *nv50_rop_pool(NV50Gr3dState *st)
{
    if (!st->rop_pool) {
        st->rop_pool = g_new0(NV50RopPool, 1);
        g_mutex_init(&st->rop_pool->lock);
    }
    return st->rop_pool;
}

void nv50_rop_pool_free(NV50RopPool *p)
{
    if (!p) {
        return;
    }
    while (p->spare) {
        RopChunk *k = p->spare;

        p->spare = k->next;
        g_free(k);
    }
    g_mutex_clear(&p->lock);
    g_free(p);
}

void nv50_rop_chunk_drop(void *chunk)
{
    RopChunk *k = chunk;
    NV50RopPool *p = k->pool;

    if (p) {
        g_mutex_lock(&p->lock);
        if (p->nspare < ROP_POOL_MAX) {
            k->next = p->spare;
            p->spare = k;
            p->nspare++;
            k = NULL;
        }
        g_mutex_unlock(&p->lock);
    }
    g_free(k);
}

static RopChunk *chunk_new(NV50Rop *r, uint64_t key, uint64_t base,
                           const RopSurf *s, uint32_t off)
{
    NV50RopPool *p = r->pool;
    RopChunk *k = NULL;

    if (p) {
        g_mutex_lock(&p->lock);
        k = p->spare;
        if (k) {
            p->spare = k->next;
            p->nspare--;
        }
        g_mutex_unlock(&p->lock);
    }
    if (!k) {
        k = g_new(RopChunk, 1);
    }
    k->pool = p;
    k->key = key;
    k->addr = base;
    k->use_dma = s->use_dma;
    k->dma = s->dma;
    k->sub = s->sub;
    k->lo = k->hi = off;
    k->dlo = ROP_CHUNK;
    k->dhi = 0;
    if (r->track) {
        memset(k->dmask, 0, sizeof(k->dmask));
    }
    g_hash_table_insert(r->chunks, &k->key, k);
    r->nchunks++;
    return k;
}

/* The first byte of the chunk at @base that surface @s spans. */
static uint32_t chunk_span_lo(const RopSurf *s, uint64_t base)
{
    return s->start > base ? (uint32_t)MIN(s->start - base, ROP_CHUNK) : 0;
}

/*
 * @s's chunk at @base (@off the first byte wanted), held or new (the
 * cache written back first when full); NULL after a fault.
 */
static RopChunk *chunk_find(NV50Rop *r, RopSurf *s, uint64_t base,
                            uint32_t off)
{
    uint64_t key = base >> ROP_CHUNK_BITS |
                   (uint64_t)(s->use_dma ? s->dma_ofs + 1 : 0) << 30;
    RopChunk *k;

    if (r->dead) {
        return NULL;
    }
    k = g_hash_table_lookup(r->chunks, &key);
    if (!k) {
        if (r->nchunks >= ROP_MAX_CHUNKS) {
            if (r->track) {
                /* written back while other lanes run: bits from now */
                g_atomic_int_set(&r->root->spilled, 1);
            }
            nv50_rop_cache_flush(r);
            if (r->dead) {
                return NULL;
            }
        }
        k = chunk_new(r, key, base, s, off);
    }
    return k;
}

/*
 * The chunk holding bytes [@addr, @addr + @len) of surface @s (within
 * one chunk), loaded; NULL after a fault.
 */
static RopChunk *chunk_get(NV50Rop *r, RopSurf *s, uint64_t addr,
                           uint32_t len)
{
    uint64_t base = addr & ~(uint64_t)(ROP_CHUNK - 1);
    uint32_t off = addr - base, lo, hi;
    RopChunk **mru = &s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];
    RopChunk *k = *mru;

    if (k && k->addr == base && off >= k->lo && off + len <= k->hi) {
        return k;
    }
    k = chunk_find(r, s, base, off);
    if (!k) {
        return NULL;
    }
    /* load the part of the chunk the surface spans (at least the bytes) */
    lo = MIN(chunk_span_lo(s, base), off);
    hi = s->end < base + ROP_CHUNK
         ? (uint32_t)(s->end > base ? s->end - base : 0) : ROP_CHUNK;
    hi = MAX(MAX(hi, off + len), lo);
    if (!chunk_load(r, k, lo, hi)) {
        return NULL;
    }
    *mru = k;
    s->mru_set = true;
    return k;
}

/*
 * Whether a read of one byte of the chunk at @base faults as a read of
 * any of its bytes would (nv50_ctxdma_rw's checks): through the VM (the
 * chunk is within a page), or a DMA object onto the VM whose limit
 * holds the chunk and whose start keeps it within a page.
 */
static bool chunk_probe_ok(const RopSurf *s, uint64_t base)
{
    const NV50CtxDma *d = &s->dma;
    uint64_t a = d->start + base;

    if (!s->use_dma) {
        return true;
    }
    return d->target == NV50_DMA_VM && !(d->start & (ROP_CHUNK - 1)) &&
           base <= d->limit && a >= d->start &&
           a + ROP_CHUNK - 1 <= d->limit && a + ROP_CHUNK - 1 > a;
}

/*
 * chunk_get for bytes [@addr, @addr + @len) that the caller overwrites
 * whole (a clear's row without a mask): they are not loaded.  A fresh
 * chunk is read one byte where chunk_get's load would start (when that
 * faults as the load would: chunk_probe_ok; else it is loaded as
 * there), so that a fault traps as there and ends the work before
 * anything is written back; a range apart from the one held loads the
 * bytes between.
 */
static RopChunk *chunk_get_fill(NV50Rop *r, RopSurf *s, uint64_t addr,
                                uint32_t len)
{
    uint64_t base = addr & ~(uint64_t)(ROP_CHUNK - 1);
    uint32_t off = addr - base;
    RopChunk **mru = &s->mru[addr >> ROP_CHUNK_BITS & (ROP_MRU - 1)];
    RopChunk *k = *mru;

    if (!chunk_probe_ok(s, base)) {
        return chunk_get(r, s, addr, len);
    }
    if (k && k->addr == base && off >= k->lo && off + len <= k->hi) {
        return k;
    }
    k = chunk_find(r, s, base, off);
    if (!k) {
        return NULL;
    }
    if (k->hi == k->lo) {
        uint32_t at = MIN(chunk_span_lo(s, base), off);

        if (!chunk_io(r, k, at, 1, false)) {
            return NULL;
        }
        k->lo = off;
        k->hi = off + len;
    } else if (off <= k->hi && off + len >= k->lo) {
        k->lo = MIN(k->lo, off);
        k->hi = MAX(k->hi, off + len);
    } else if (!chunk_load(r, k, MIN(k->lo, off), MAX(k->hi, off + len))) {
        return NULL;
    }
    *mru = k;
    s->mru_set = true;
    return k;
}

void nv50_rop_chunk_mask_set(RopChunk *k, uint32_t off, uint32_t len)
{
    while (len) {
        uint32_t b = off % 64, n = MIN(len, 64 - b);

        k->dmask[off / 64] |= (n == 64 ? ~0ull : ((1ull << n) - 1) << b);
        off += n;
        len -= n;
    }
}

/* Read (or write) the element at sample coordinates (x, y) of @s. */
bool nv50_rop_elem_rw(NV50Rop *r, RopSurf *s, uint32_t x, uint32_t y,
                      uint8_t *buf, bool is_write)
{
    uint64_t addr = rop_elem_addr(s, x, y);
    unsigned done = 0;

    while (done < s->bpp) {
        uint32_t off = (addr + done) & (ROP_CHUNK - 1);
        uint32_t n = MIN(s->bpp - done, ROP_CHUNK - off);
        RopChunk *k = chunk_get(r, s, addr + done, n);

        if (!k) {
            memset(buf, 0, s->bpp);
            return false;
        }
        if (is_write) {
            memcpy(k->data + off, buf + done, n);
            rop_chunk_dirty(r, k, off, n);
        } else {
            memcpy(buf + done, k->data + off, n);
        }
        done += n;
    }
    return true;
}

/*
 * Elements [@x0, @x1) of row @y of @s to @val where @msk has bits (all
 * of @val if @msk is NULL): span by span, chunk by chunk.
 */
#define FILL_PATTERN    64      /* bytes: a multiple of every bpp but 3 */

/*
 * @n bytes at @p of elements @pat repeats (FILL_PATTERN bytes of them),
 * from byte @ph of an element of @bpp bytes; returns the byte after.
 */
static unsigned fill_pattern(uint8_t *p, uint32_t n, const uint8_t *pat,
                             unsigned ph, unsigned bpp)
{
    uint32_t done = MIN(n, FILL_PATTERN - ph);

    memcpy(p, pat + ph, done);
    /* whole patterns as stores of a known size, then the tail */
    for (; n - done >= FILL_PATTERN; done += FILL_PATTERN) {
        memcpy(p + done, pat, FILL_PATTERN);
    }
    memcpy(p + done, pat, n - done);
    return (ph + n) % bpp;
}

/* fill_pattern's bytes merged under mask @msk (as many bytes as @pat). */
static unsigned fill_pattern_masked(uint8_t *p, uint32_t n,
                                    const uint8_t *pat, const uint8_t *msk,
                                    unsigned ph, unsigned bpp)
{
    uint32_t i = 0;

    for (; i < n && ph; i++, ph = (ph + 1) % bpp) {
        p[i] = (p[i] & ~msk[ph]) | (pat[ph] & msk[ph]);
    }
    /* from a whole element on: the pattern's bytes in step */
    for (; n - i >= FILL_PATTERN; i += FILL_PATTERN) {
        for (unsigned j = 0; j < FILL_PATTERN; j++) {
            p[i + j] = (p[i + j] & ~msk[j]) | (pat[j] & msk[j]);
        }
    }
    for (; i < n; i++, ph = (ph + 1) % bpp) {
        p[i] = (p[i] & ~msk[ph]) | (pat[ph] & msk[ph]);
    }
    return ph;
}

/* @val (and @msk) repeated to FILL_PATTERN bytes, if @bpp divides it. */
static bool fill_patterns(unsigned bpp, const uint8_t *val,
                          const uint8_t *msk, uint8_t *pat, uint8_t *mpat)
{
    if (!bpp || FILL_PATTERN % bpp) {
        return false;
    }
    for (unsigned i = 0; i < FILL_PATTERN; i++) {
        pat[i] = val[i % bpp];
        mpat[i] = msk ? msk[i % bpp] : 0xff;
    }
    return true;
}

/*
 * Bytes [@addr, @addr + @len) of @s, which start an element, to the
 * pattern @pat (under @mpat with @msk): chunk by chunk.
 */
static void fill_span(NV50Rop *r, RopSurf *s, uint64_t addr, uint64_t len,
                      const uint8_t *pat, const uint8_t *mpat, bool msk)
{
    unsigned ph = 0;

    while (len && !r->dead) {
        uint32_t off = addr & (ROP_CHUNK - 1);
        uint32_t n = MIN(len, (uint64_t)(ROP_CHUNK - off));
        RopChunk *k = !msk ? chunk_get_fill(r, s, addr, n)
                           : chunk_get(r, s, addr, n);

        if (!k) {
            return;
        }
        ph = !msk ? fill_pattern(k->data + off, n, pat, ph, s->bpp)
                  : fill_pattern_masked(k->data + off, n, pat, mpat, ph,
                                        s->bpp);
        rop_chunk_dirty(r, k, off, n);
        addr += n;
        len -= n;
    }
}

/*
 * The blocks of block row @by of @s from block column @bx0 to @bx1
 * (each whole in the rectangle being filled) to @pat: a block's GOBs of
 * layer s->z are one contiguous run, and the runs of neighbouring
 * blocks meet when a block is one layer deep.
 */
static void fill_blocks(NV50Rop *r, RopSurf *s, uint32_t by, uint32_t bx0,
                        uint32_t bx1, const uint8_t *pat,
                        const uint8_t *mpat, bool msk)
{
    const NV50Surface *sf = &s->sf;
    uint32_t bw_bytes = NV50_GOB_WIDTH << sf->block_w;
    uint32_t bh_rows = NV50_GOB_HEIGHT << sf->block_h;
    uint64_t slice = (uint64_t)NV50_GOB_SIZE << (sf->block_w + sf->block_h);
    uint64_t at = 0, len = 0;

    for (uint32_t bx = bx0; bx < bx1 && !r->dead; bx++) {
        uint64_t a = s->addr + nv50_surface_offset(sf, bx * bw_bytes,
                                                   by * bh_rows, s->z);

        if (len && a == at + len) {
            len += slice;
            continue;
        }
        fill_span(r, s, at, len, pat, mpat, msk);
        at = a;
        len = slice;
    }
    fill_span(r, s, at, len, pat, mpat, msk);
}

void nv50_rop_fill_rect(NV50Rop *r, RopSurf *s, uint32_t x0, uint32_t x1,
                        uint32_t y0, uint32_t y1, const uint8_t *val,
                        const uint8_t *msk)
{
    const NV50Surface *sf = &s->sf;
    uint8_t pat[FILL_PATTERN], mpat[FILL_PATTERN];
    uint32_t bw_bytes = NV50_GOB_WIDTH << sf->block_w;
    uint32_t bh_rows = NV50_GOB_HEIGHT << sf->block_h;
    uint32_t bx0 = 0, bx1 = 0, by0 = 0, by1 = 0, ex0, ex1, y;

    if (sf->block_linear && fill_patterns(s->bpp, val, msk, pat, mpat)) {
        /* the blocks inside the rectangle */
        bx0 = ((uint64_t)x0 * s->bpp + bw_bytes - 1) / bw_bytes;
        bx1 = (uint64_t)x1 * s->bpp / bw_bytes;
        by0 = (y0 + bh_rows - 1) / bh_rows;
        by1 = y1 / bh_rows;
    }
    if (x0 >= x1 || bx0 >= bx1 || by0 >= by1) {
        for (y = y0; y < y1 && !r->dead; y++) {
            nv50_rop_fill_row(r, s, x0, x1, y, val, msk);
        }
        return;
    }
    /* the blocks' edges in elements (a bpp dividing FILL_PATTERN) */
    ex0 = bx0 * bw_bytes / s->bpp;
    ex1 = bx1 * bw_bytes / s->bpp;
    for (y = y0; y < by0 * bh_rows && !r->dead; y++) {
        nv50_rop_fill_row(r, s, x0, x1, y, val, msk);
    }
    for (uint32_t by = by0; by < by1 && !r->dead; by++) {
        /* each row's part left of the blocks, the blocks, the right */
        for (y = by * bh_rows; y < (by + 1) * bh_rows && x0 < ex0; y++) {
            nv50_rop_fill_row(r, s, x0, ex0, y, val, msk);
        }
        fill_blocks(r, s, by, bx0, bx1, pat, mpat, msk != NULL);
        for (y = by * bh_rows; y < (by + 1) * bh_rows && ex1 < x1; y++) {
            nv50_rop_fill_row(r, s, ex1, x1, y, val, msk);
        }
    }
    for (y = by1 * bh_rows; y < y1 && !r->dead; y++) {
        nv50_rop_fill_row(r, s, x0, x1, y, val, msk);
    }
}

void nv50_rop_fill_row(NV50Rop *r, RopSurf *s, uint32_t x0, uint32_t x1,
                       uint32_t y, const uint8_t *val, const uint8_t *msk)
{
    uint64_t xb = (uint64_t)x0 * s->bpp, end = (uint64_t)x1 * s->bpp;
    unsigned bpp = s->bpp;
    uint8_t patbuf[FILL_PATTERN];
    const uint8_t *pat = NULL;
    uint64_t at;

    if (bpp && FILL_PATTERN % bpp == 0) {
        for (unsigned i = 0; i < FILL_PATTERN; i++) {
            patbuf[i] = val[i % bpp];
        }
        pat = patbuf;
    }

    /* one address computed a row, then nv50_surface_next_gob's steps */
    at = s->addr + nv50_surface_offset(&s->sf, xb, y, s->z);

    while (xb < end && !r->dead) {
        uint64_t addr = at;
        uint64_t run = MIN((uint64_t)nv50_surface_run(&s->sf, xb, y, s->z),
                           end - xb);
        unsigned ph = 0;

        at = s->sf.block_linear ? addr - xb % NV50_GOB_WIDTH +
                                  nv50_surface_next_gob(&s->sf, xb)
                                : addr + run;
        xb += run;
        while (run) {
            uint32_t off = addr & (ROP_CHUNK - 1);
            uint32_t n = MIN(run, (uint64_t)(ROP_CHUNK - off));
            RopChunk *k = !msk ? chunk_get_fill(r, s, addr, n)
                               : chunk_get(r, s, addr, n);
            uint8_t *p;

            if (!k) {
                return;
            }
            p = k->data + off;
            if (!msk && pat) {
                ph = fill_pattern(p, n, pat, ph, bpp);
            } else {
                for (uint32_t i = 0; i < n; i++) {
                    p[i] = msk ? (p[i] & ~msk[ph]) | (val[ph] & msk[ph])
                               : val[ph];
                    if (++ph == bpp) {
                        ph = 0;
                    }
                }
            }
            rop_chunk_dirty(r, k, off, n);
            addr += n;
            run -= n;
        }
    }
}


/* Lane chunk @lk's dirty bytes into @r's chunk @k (loaded around them). */
static void chunk_merge(NV50Rop *r, RopChunk *k, const RopChunk *lk)
{
    if (!chunk_load(r, k, lk->lo, lk->hi)) {
        return;
    }
    if (!r->track) {
        /* one lane: its whole dirty range is its own */
        memcpy(k->data + lk->dlo, lk->data + lk->dlo, lk->dhi - lk->dlo);
    }
    for (uint32_t w = lk->dlo / 64; r->track && w * 64 < lk->dhi; w++) {
        uint64_t m = lk->dmask[w];

        if (m == ~0ull) {
            memcpy(k->data + w * 64, lk->data + w * 64, 64);
        }
        for (; m && m != ~0ull; m &= m - 1) {
            unsigned byte = w * 64 + __builtin_ctzll(m);

            k->data[byte] = lk->data[byte];
        }
        k->dmask[w] |= lk->dmask[w];
    }
    k->dlo = MIN(k->dlo, lk->dlo);
    k->dhi = MAX(k->dhi, lk->dhi);
}

void nv50_rop_cache_merge(NV50Rop *r, NV50Rop *l)
{
    GHashTableIter it;
    gpointer key, val;

    /* nothing is written back after a fault */
    g_hash_table_iter_init(&it, l->chunks);
    while (!r->dead && !l->dead && !g_atomic_int_get(&r->root->faulted) &&
           g_hash_table_iter_next(&it, &key, &val)) {
        RopChunk *lk = val, *k;

        if (lk->dhi <= lk->dlo) {
            continue;
        }
        k = g_hash_table_lookup(r->chunks, &lk->key);
        if (!k) {
            /* the lane's chunk as it is: its loaded bytes are memory's */
            g_hash_table_iter_steal(&it);
            g_hash_table_insert(r->chunks, &lk->key, lk);
            r->nchunks++;
            continue;
        }
        chunk_merge(r, k, lk);
    }
    g_hash_table_remove_all(l->chunks);
    l->nchunks = 0;
    for (unsigned i = 0; i <= ZETA; i++) {
        rop_mru_forget(&l->surf[i]);
    }
}
