/*
 * GXP shader container reader (layout: sgx543.md §2).
 *
 * Every self-relative offset is resolved and checked against the buffer
 * before use; the code is copied out, so the caller may free the file.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "block/gxp.h"

typedef struct GxpReader {
    const uint8_t *d;
    size_t size;
    char **err;
} GxpReader;

static uint32_t rd32(const GxpReader *r, size_t off)
{
    const uint8_t *b = r->d + off;
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t rd16(const GxpReader *r, size_t off)
{
    return r->d[off] | r->d[off + 1] << 8;
}

GEMU_PRINTF(2, 3)
static bool fail(GxpReader *r, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_autofree char *m = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    *r->err = g_strdup_printf("gxp: %s", m);
    return false;
}

/*
 * Resolve the self-relative offset stored at @field for an array of
 * @count elements of @elsize bytes.  0 means absent (allowed only if
 * count is 0).  Result in *off.
 */
static bool resolve(GxpReader *r, size_t field, uint32_t count, size_t elsize,
                    const char *what, size_t *off)
{
    uint32_t rel = rd32(r, field);
    uint64_t target = (uint64_t)field + rel;

    if (!count) {
        *off = 0;
        return true;
    }
    if (!rel) {
        return fail(r, "%s: %u entries but no offset", what, count);
    }
    if (target > r->size ||
        (uint64_t)count * elsize > r->size - target) {
        return fail(r, "%s: %u entries at 0x%" PRIx64 " run past the end "
                    "of the file (%zu bytes)", what, count, target, r->size);
    }
    *off = target;
    return true;
}

bool gxp_is_gxp(const void *data, size_t size)
{
    return size >= 4 && !memcmp(data, "GXP\0", 4);
}

void gxp_program_clear(GxpProgram *prog)
{
    g_free(prog->primary);
    g_free(prog->secondary);
    for (uint32_t i = 0; i < prog->nparams; i++) {
        g_free(prog->params[i].name);
    }
    g_free(prog->params);
    g_free(prog->containers);
    memset(prog, 0, sizeof(*prog));
}

static uint64_t *copy_code(const GxpReader *r, size_t off, uint32_t n)
{
    uint64_t *w = g_new0(uint64_t, n ? n : 1);

    for (uint32_t i = 0; i < n; i++) {
        w[i] = rd32(r, off + i * 8) | (uint64_t)rd32(r, off + i * 8 + 4) << 32;
    }
    return w;
}

/* Limits that keep a corrupt header from asking for absurd allocations
   (the byte-range checks bound them too; these give clearer errors). */
#define GXP_MAX_INSNS   (1u << 20)

static bool parse(GxpReader *r, GxpProgram *p)
{
    size_t off;

    if (r->size < 4 || memcmp(r->d, "GXP\0", 4)) {
        return fail(r, "not a GXP file (bad magic)");
    }
    if (r->size < GXP_HEADER_SIZE) {
        return fail(r, "truncated header: %zu bytes, need %u", r->size,
                    GXP_HEADER_SIZE);
    }
    p->major = r->d[4];
    p->minor = r->d[5];
    p->sdk_version = rd16(r, 6);
    p->size = rd32(r, 8);
    if (p->major != 1) {
        return fail(r, "unsupported version %u.%u", p->major, p->minor);
    }
    if (p->size > r->size) {
        return fail(r, "truncated: header says %u bytes, file has %zu",
                    p->size, r->size);
    }
    p->flags = rd32(r, 0x14);
    p->fragment = p->flags & GXP_FLAG_FRAGMENT;
    p->pa_count = rd16(r, 0x30);
    p->sa_count = rd16(r, 0x32);
    p->temp_count = rd32(r, 0x34);
    p->phase_count = rd16(r, 0x3a);

    p->primary_count = rd32(r, 0x3c);
    p->secondary_count = rd32(r, 0x44);
    if (p->primary_count > GXP_MAX_INSNS ||
        p->secondary_count > GXP_MAX_INSNS) {
        return fail(r, "implausible instruction count (%u primary, "
                    "%u secondary)", p->primary_count, p->secondary_count);
    }
    if (!resolve(r, 0x40, p->primary_count, 8, "primary program", &off)) {
        return false;
    }
    p->primary_off = off;
    p->primary = copy_code(r, off, p->primary_count);
    if (!resolve(r, 0x48, p->secondary_count, 8, "secondary program",
                 &off)) {
        return false;
    }
    if (p->secondary_count) {
        /* the end field (0x4c, exclusive) must agree with the count */
        uint64_t end = 0x4c + (uint64_t)rd32(r, 0x4c);
        if (end != off + (uint64_t)p->secondary_count * 8) {
            return fail(r, "secondary program: count %u disagrees with its "
                        "range 0x%zx..0x%" PRIx64, p->secondary_count, off,
                        end);
        }
    }
    p->secondary_off = off;
    p->secondary = copy_code(r, off, p->secondary_count);

    /* parameters: 16 bytes each, the name self-relative to the entry */
    uint32_t nparams = rd32(r, 0x24);
    if (nparams > r->size / 16) {
        return fail(r, "implausible parameter count %u", nparams);
    }
    if (!resolve(r, 0x28, nparams, 16, "parameters", &off)) {
        return false;
    }
    /* nparams is set only once params exists: clear() walks it */
    p->params = g_new0(GxpParam, nparams ? nparams : 1);
    p->nparams = nparams;
    for (uint32_t i = 0; i < p->nparams; i++) {
        size_t e = off + i * 16;
        GxpParam *pa = &p->params[i];
        uint64_t name = (uint64_t)e + (int32_t)rd32(r, e);
        const uint8_t *nul;

        if (name >= r->size ||
            !(nul = memchr(r->d + name, 0, r->size - name))) {
            /* set what was parsed so clear() frees it */
            p->nparams = i;
            return fail(r, "parameter %u: name outside the file", i);
        }
        pa->name = g_strndup((const char *)r->d + name,
                             nul - (r->d + name));
        pa->category = r->d[e + 4] & 0xf;
        pa->type = r->d[e + 4] >> 4;
        pa->comps = r->d[e + 5] & 0xf;
        pa->container = r->d[e + 5] >> 4;
        pa->semantic = r->d[e + 6];
        pa->semantic_index = r->d[e + 7];
        pa->array_size = rd32(r, e + 8);
        pa->resource = rd32(r, e + 12);
    }

    /* containers: 8 bytes each */
    p->ncontainers = rd32(r, 0x90);
    if (p->ncontainers > r->size / 8) {
        return fail(r, "implausible container count %u", p->ncontainers);
    }
    if (!resolve(r, 0x94, p->ncontainers, 8, "containers", &off)) {
        return false;
    }
    p->containers = g_new0(GxpContainer, p->ncontainers ? p->ncontainers : 1);
    for (uint32_t i = 0; i < p->ncontainers; i++) {
        p->containers[i].index = rd16(r, off + i * 8);
        p->containers[i].base_sa = rd16(r, off + i * 8 + 4);
        p->containers[i].size = rd16(r, off + i * 8 + 6);
    }
    return true;
}

bool gxp_parse(const void *data, size_t size, GxpProgram *prog, char **err)
{
    GxpReader r = { .d = data, .size = size, .err = err };

    memset(prog, 0, sizeof(*prog));
    if (!parse(&r, prog)) {
        gxp_program_clear(prog);
        return false;
    }
    return true;
}
