/*
 * The 3D draw's vertex stream and its vertex cache (vcache.c): what
 * 3d-draw.c's assembly reads the shaded vertices through, so that a
 * draw holds a bounded number of them however long its stream is.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_VCACHE_H
#define HW_NV50_GR_VCACHE_H

#include "draw.h"

typedef enum NV50RefKind {
    NV50_REF_ARRAY,         /* VERTEX_BUFFER_*: fetch at .val */
    NV50_REF_INDEX,         /* VB_ELEMENT_*: fetch at .val + VB_ELEMENT_BASE */
    NV50_REF_WORDS,         /* VERTEX_DATA: words at .val */
    NV50_REF_IMMEDIATE,     /* VTX_ATTR snapshot at .val */
    NV50_REF_BREAK,         /* primitive restart */
} NV50RefKind;

/* One vertex of a BEGIN/END's stream (a "ref", by its position k). */
typedef struct NV50VtxRef {
    uint8_t kind;
    uint32_t val;
    uint32_t vertex_id;
} NV50VtxRef;

/* What the stream's vertices are fetched from. */
typedef struct NV50VcacheSrc {
    const NV50VtxRef *refs;
    unsigned nrefs;
    const uint32_t *words;      /* inline and immediate vertex words */
    uint32_t instance;          /* InstanceID */
    const uint32_t (*cur)[4];   /* VTX_ATTR values */
} NV50VcacheSrc;

typedef struct NV50Vcache NV50Vcache;

NV50Vcache *nv50_vcache_new(NV50GrCall *c, NV50Gr3dState *st,
                            const NV50VcacheSrc *src);
void nv50_vcache_free(NV50Vcache *vc);
/*
 * The shaded vertices of refs @k[0..@n) (n <= NV50_VCACHE_PINS, none a
 * break) into @v, fetching and shading the missing ones in batches; the
 * pointers hold until the next call.  False if the VP trapped (raised),
 * then and at every later call.
 */
#define NV50_VCACHE_PINS    7
bool nv50_vcache_get(NV50Vcache *vc, const uint32_t *k, unsigned n,
                     const NV50PipeVertex **v);
/* The inputs' words a vertex of the last batch had (the trace point's). */
unsigned nv50_vcache_in_words(const NV50Vcache *vc);

/*
 * For tests only: the cache's @slots vertices and @batch refs a VP run
 * (@slots >= @batch + NV50_VCACHE_PINS, @batch >= 1); 0, 0: the
 * defaults.  Process-wide.
 */
void nv50_3d_draw_set_cache(unsigned slots, unsigned batch);

#endif
