/*
 * SGX543 scene files (docs/scene-format.md): text in, memory blobs,
 * register writes and command buffers out.  Every error names its line.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/file.h"
#include "gemu/strsplit.h"
#include "block/sgx-scene.h"
#include "hw/sgx543/regs.h"
#include "hw/sgx543/packets.h"
#include "hw/sgx543/texture.h"
#include "target/usse.h"

#include <math.h>

typedef struct Parser {
    SgxScene *scene;
    const char *dir;
    char **lines;
    unsigned nlines;
    unsigned ln;                /* index of the current line */
    char *err;
} Parser;

static bool fail(Parser *p, const char *fmt, ...) GEMU_PRINTF(2, 3);

static bool fail(Parser *p, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (!p->err) {
        p->err = g_strdup_printf("line %u: %s", p->ln + 1, msg);
    }
    return false;
}

static const struct {
    const char *name;
    uint32_t offset;
} reg_names[] = {
    { "CLKGATECTL", SGX_CLKGATECTL },
    { "SOFT_RESET", SGX_SOFT_RESET },
    { "EVENT_HOST_ENABLE", SGX_EVENT_HOST_ENABLE },
    { "EVENT_HOST_CLEAR", SGX_EVENT_HOST_CLEAR },
    { "EVENT_HOST_ENABLE2", SGX_EVENT_HOST_ENABLE2 },
    { "EVENT_HOST_CLEAR2", SGX_EVENT_HOST_CLEAR2 },
    { "BIF_CTRL", SGX_BIF_CTRL },
    { "BIF_CTRL_INVAL", SGX_BIF_CTRL_INVAL },
    { "BIF_DIR_LIST_BASE0", SGX_BIF_DIR_LIST_BASE0 },
};

bool sgx_scene_reg_lookup(const char *name, uint32_t *offset)
{
    char *end;
    unsigned long v;

    for (size_t i = 0; i < ARRAY_SIZE(reg_names); i++) {
        if (!g_ascii_strcasecmp(name, reg_names[i].name)) {
            *offset = reg_names[i].offset;
            return true;
        }
    }
    if (!g_ascii_strncasecmp(name, "USE_CODE_BASE_", 14)) {
        errno = 0;
        v = strtoul(name + 14, &end, 10);
        if (!*end && end != name + 14 && v < SGX_USE_CODE_BASE_NUM) {
            *offset = SGX_USE_CODE_BASE(v);
            return true;
        }
        return false;
    }
    errno = 0;
    v = strtoul(name, &end, 0);
    if (!*end && end != name && !errno && v < SGX_MMIO_SIZE && !(v & 3)) {
        *offset = v;
        return true;
    }
    return false;
}

/* An unsigned or negative integer that fits 32 bits. */
static bool parse_u32(const char *s, uint32_t *v)
{
    char *end;
    long long x;

    errno = 0;
    x = strtoll(s, &end, 0);
    if (errno || *end || end == s || x < INT32_MIN || x > UINT32_MAX) {
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

static bool is_float_token(const char *s)
{
    if (g_str_has_prefix(s, "0x") || g_str_has_prefix(s, "0X")
        || g_str_has_prefix(s, "-0x")) {
        return false;
    }
    return strpbrk(s, ".eEfn") != NULL;    /* 1.0, 1e3, 2f, inf, nan */
}

static bool parse_f32(const char *s, float *f)
{
    g_autofree char *t = g_strdup(s);
    size_t n = strlen(t);
    char *end;

    if (n > 1 && (t[n - 1] == 'f' || t[n - 1] == 'F')
        && g_ascii_strcasecmp(t, "inf") && g_ascii_strcasecmp(t, "-inf")) {
        t[n - 1] = 0;
    }
    errno = 0;
    *f = strtof(t, &end);
    return !*end && end != t && !errno;
}

static int name_index(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        if (names[i] && !g_ascii_strcasecmp(name, names[i])) {
            return i;
        }
    }
    return -1;
}

static const char *const reg_formats[] = { "f32", "f16", "u8" };
static const char *const attr_formats[] = {
    "u8", "s8", "u16", "s16", "u8n", "s8n", "u16n", "s16n", "f16", "f32",
    "untyped",
};
static const char *const tex_addr[] = {
    "repeat", "mirror", "clamp", "mirror-clamp", "repeat-ignore-border",
    "clamp-full-border", "clamp-ignore-border", "clamp-half-border",
};
/* SceGxmTransferFormat >> 16 */
static const char *const xfer_formats[] = {
    [0x00] = "U8_R", [0x01] = "U4U4U4U4_ABGR", [0x02] = "U1U5U5U5_ABGR",
    [0x03] = "U5U6U5_BGR", [0x04] = "U8U8_GR", [0x05] = "U8U8U8_BGR",
    [0x06] = "U8U8U8U8_ABGR", [0x07] = "VYUY422", [0x08] = "YVYU422",
    [0x09] = "UYVY422", [0x0a] = "YUYV422", [0x0d] = "U2U10U10U10_ABGR",
    [0x0f] = "RAW16", [0x11] = "RAW32", [0x12] = "RAW64", [0x13] = "RAW128",
};
static const char *const xfer_types[] = { "linear", "tiled", "swizzled" };

static const char *const tex_filters[] = {
    "point", "linear", "mipmap-linear", "mipmap-point",
};

/*
 * tex:FORMAT:TYPE:WIDTH:HEIGHT:DATA[:OPTION...]: the four SceGxmTexture
 * control words (docs/scene-format.md).
 */
static bool parse_texture(Parser *p, char **f, unsigned n, uint32_t v[4])
{
    SgxTexParams t;
    const char *why;
    uint32_t a;
    int i;

    sgx_tex_params_init(&t);
    if (n < 6) {
        return fail(p, "usage: tex:FORMAT:TYPE:WIDTH:HEIGHT:DATA[:OPTION...]");
    }
    if (!sgx_tex_format_parse(f[1], &t.format)
        && !parse_u32(f[1], &t.format)) {
        return fail(p, "unknown texture format '%s' (U8U8U8U8_ABGR, "
                    "U5U6U5_RGB, P8_ABGR, ... or a number)", f[1]);
    }
    i = sgx_tex_type_parse(f[2]);
    if (i < 0) {
        return fail(p, "unknown texture type '%s' (linear, linear-strided, "
                    "swizzled, swizzled-arbitrary, tiled, cube, "
                    "cube-arbitrary)", f[2]);
    }
    t.type = i;
    if (!parse_u32(f[3], &t.width) || !parse_u32(f[4], &t.height)
        || !parse_u32(f[5], &t.data)) {
        return fail(p, "bad texture size or address in '%s:%s:%s'", f[3],
                    f[4], f[5]);
    }
    for (unsigned m = 6; m < n; m++) {
        const char *o = f[m], *eq = strchr(o, '=');
        g_autofree char *key = eq ? g_strndup(o, eq - o) : g_strdup(o);
        const char *val = eq ? eq + 1 : "";

        if (!strcmp(o, "point") || !strcmp(o, "linear")) {
            t.min_filter = t.mag_filter = !strcmp(o, "linear");
        } else if (!strcmp(o, "normalize")) {
            t.normalize = true;
        } else if ((!strcmp(key, "min") || !strcmp(key, "mag"))
                   && (i = name_index(val, tex_filters, 4)) >= 0) {
            *(!strcmp(key, "min") ? &t.min_filter : &t.mag_filter) = i;
        } else if (!strcmp(key, "mipfilter")
                   && (i = name_index(val, tex_filters, 2)) >= 0) {
            t.mip_linear = i;
        } else if ((!strcmp(key, "u") || !strcmp(key, "v")
                    || !strcmp(key, "uv"))
                   && (i = name_index(val, tex_addr, 8)) >= 0) {
            if (strcmp(key, "v")) {
                t.addr_u = i;
            }
            if (strcmp(key, "u")) {
                t.addr_v = i;
            }
        } else if (eq && parse_u32(val, &a)) {
            if (!strcmp(key, "mips")) {
                t.levels = a;
            } else if (!strcmp(key, "bias")) {
                t.lod_bias = a;
            } else if (!strcmp(key, "lodmin")) {
                t.lod_min = a;
            } else if (!strcmp(key, "stride")) {
                t.stride = a;
            } else if (!strcmp(key, "palette")) {
                t.palette = a;
            } else if (!strcmp(key, "gamma")) {
                t.gamma = a;
            } else {
                return fail(p, "unknown texture option '%s'", o);
            }
        } else {
            return fail(p, "unknown texture option '%s'", o);
        }
    }
    if (!sgx_tex_encode(&t, v, &why)) {
        return fail(p, "texture '%s': %s", f[1], why);
    }
    return true;
}

/* "o12" / "pa3" / "12": a register number with an optional bank prefix. */
static bool parse_reg(const char *s, const char *prefix, uint32_t *v)
{
    if (g_str_has_prefix(s, prefix)) {
        s += strlen(prefix);
    }
    return parse_u32(s, v) && *v < 128;
}

/*
 * Symbolic payload tokens (docs/scene-format.md), NAME:FIELD:...; each
 * gives one to four dwords.
 */
static int parse_symbolic(Parser *p, const char *tok, uint32_t v[4])
{
    g_auto(GStrv) f = gemu_strsplit_c(tok, ':');
    unsigned n = g_strv_length(f);
    uint32_t a, b, c, d;
    int i;

    if (!strcmp(f[0], "varying") && n == 5) {
        /* varying:FMT:COMPS:oSRC:paDST */
        i = name_index(f[1], reg_formats, 3);
        if (i >= 0 && parse_u32(f[2], &a) && a >= 1 && a <= 4
            && parse_reg(f[3], "o", &b) && parse_reg(f[4], "pa", &c)) {
            v[0] = SGX_FIN(0, i, a, 0, b, c);
            return 1;
        }
    } else if (!strcmp(f[0], "texture") && n == 5) {
        /* texture:UNIT:FMT:oSRC:paDST (4 components) */
        i = name_index(f[2], reg_formats, 3);
        if (i >= 0 && parse_u32(f[1], &a) && a < 16
            && parse_reg(f[3], "o", &b) && parse_reg(f[4], "pa", &c)) {
            v[0] = SGX_FIN(1, i, 4, a, b, c);
            return 1;
        }
    } else if (!strcmp(f[0], "attrib") && n == 6) {
        /* attrib:STREAM:OFFSET:FORMAT:COMPS:paREG (2 dwords) */
        i = name_index(f[3], attr_formats, ARRAY_SIZE(attr_formats));
        if (i >= 0 && parse_u32(f[1], &a) && a <= 0xffff
            && parse_u32(f[2], &b) && b <= 0xffff && parse_u32(f[4], &c)
            && c <= 0xff && parse_reg(f[5], "pa", &d)) {
            v[0] = a | b << 16;
            v[1] = i | c << 8 | d << 16;
            return 2;
        }
    } else if (!strcmp(f[0], "stream") && (n == 3 || n == 4)) {
        /* stream:BASE:STRIDE[:instance] (2 dwords) */
        if (parse_u32(f[1], &a) && parse_u32(f[2], &b) && b <= 0xffff
            && (n == 3 || !strcmp(f[3], "instance"))) {
            v[0] = a;
            v[1] = b | (n == 4 ? 1u << 16 : 0);
            return 2;
        }
    } else if (!strcmp(f[0], "layout") && n >= 3) {
        /* layout:SA_COUNT:OUTPUTS[:discard][:out-o][:psize] */
        if (parse_u32(f[1], &a) && a <= 128 && parse_u32(f[2], &b)
            && b <= 128) {
            v[0] = a | b << 8;
            for (unsigned m = 3; m < n; m++) {
                if (!strcmp(f[m], "discard")) {
                    v[0] |= SGX_PROG_DISCARD << 16;
                } else if (!strcmp(f[m], "out-o")) {
                    v[0] |= SGX_PROG_OUT_O << 16;
                } else if (!strcmp(f[m], "psize")) {
                    v[0] |= SGX_PROG_PSIZE << 16;
                } else {
                    goto bad;
                }
            }
            return 1;
        }
    } else if (!strcmp(f[0], "output") && n == 3) {
        /* output:REG:FMT */
        i = name_index(f[2], reg_formats, 3);
        if (i >= 0 && parse_u32(f[1], &a) && a < 128) {
            v[0] = a | i << 8;
            return 1;
        }
    } else if (!strcmp(f[0], "xfer") && (n == 2 || n == 3)) {
        /* xfer:FORMAT[:TYPE]: SceGxmTransferFormat | SceGxmTransferType */
        i = name_index(f[1], xfer_formats, ARRAY_SIZE(xfer_formats));
        a = n == 3 ? name_index(f[2], xfer_types, 3) : 0;
        if (i >= 0 && (int)a >= 0) {
            v[0] = (uint32_t)i << 16 | a << 22;
            return 1;
        }
    } else if (!strcmp(f[0], "tex")) {
        return parse_texture(p, f, n, v) ? 4 : -1;
    } else if (!strcmp(f[0], "texctl") || !strcmp(f[0], "size")) {
        fail(p, "'%s:' was gemu's old texture layout; textures now take "
             "SceGxmTexture words: tex:FORMAT:TYPE:WIDTH:HEIGHT:DATA", f[0]);
        return -1;
    }
bad:
    fail(p, "bad symbolic value '%s' (see docs/scene-format.md)", tok);
    return -1;
}

/*
 * A payload value: a number, a float (its f32 bits) or a symbolic token.
 * Returns the number of dwords (1 to 4), -1 on error.
 */
static int parse_value(Parser *p, const char *tok, uint32_t v[4])
{
    if (strchr(tok, ':')) {
        return parse_symbolic(p, tok, v);
    }
    if (is_float_token(tok)) {
        float f;
        if (!parse_f32(tok, &f)) {
            fail(p, "bad number '%s'", tok);
            return -1;
        }
        memcpy(v, &f, 4);
        return 1;
    }
    if (!parse_u32(tok, v)) {
        fail(p, "bad number '%s'", tok);
        return -1;
    }
    return 1;
}

static char **split(const char *line)
{
    g_autofree char *t = g_strdup(line);
    char *hash = strchr(t, '#');

    if (hash) {
        *hash = 0;
    }
    g_strstrip(t);
    if (!*t) {
        return g_new0(char *, 1);
    }
    {
        char **v = g_strsplit_set(t, " \t,", -1);
        unsigned k = 0;
        for (unsigned i = 0; v[i]; i++) {
            if (*v[i]) {
                v[k++] = v[i];
            } else {
                g_free(v[i]);
            }
        }
        v[k] = NULL;
        return v;
    }
}

static bool add_blob(Parser *p, uint32_t addr, GByteArray *data)
{
    SgxSceneBlob b = { .addr = addr, .data = data, .line = p->ln + 1 };
    GArray *blobs = p->scene->blobs;

    if ((uint64_t)addr + data->len > p->scene->mem_size) {
        g_byte_array_unref(data);
        return fail(p, "0x%x bytes at 0x%08x do not fit in memory (0x%x)",
                    data->len, addr, p->scene->mem_size);
    }
    for (guint i = 0; i < blobs->len; i++) {
        SgxSceneBlob *o = &g_array_index(blobs, SgxSceneBlob, i);
        if (addr < o->addr + o->data->len && o->addr < addr + data->len) {
            unsigned l = o->line;
            g_byte_array_unref(data);
            return fail(p, "data at 0x%08x overlaps the data of line %u",
                        addr, l);
        }
    }
    g_array_append_val(blobs, b);
    return true;
}

static void append_le(GByteArray *a, uint32_t v, unsigned size)
{
    uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

    g_byte_array_append(a, b, size);
}

/* Values of type @type into @out; "f32" takes floats, the rest ints. */
static bool data_values(Parser *p, char **tok, const char *type,
                        GByteArray *out)
{
    unsigned size = !strcmp(type, "u8") ? 1 : !strcmp(type, "u16") ? 2 : 4;

    for (unsigned i = 0; tok[i]; i++) {
        uint32_t v;

        if (!strcmp(type, "f32")) {
            float f;
            if (!parse_f32(tok[i], &f)) {
                return fail(p, "bad float '%s'", tok[i]);
            }
            memcpy(&v, &f, 4);
        } else if (!parse_u32(tok[i], &v)) {
            return fail(p, "bad number '%s'", tok[i]);
        } else if (size < 4 && v >= (1u << (8 * size))
                   && (int32_t)v < -(1 << (8 * size - 1))) {
            return fail(p, "'%s' does not fit %s", tok[i], type);
        }
        append_le(out, v, size);
    }
    return true;
}

/* Lines up to "end" (the index of that line in *endp). */
static bool block_end(Parser *p, unsigned *endp)
{
    for (unsigned i = p->ln + 1; i < p->nlines; i++) {
        g_autofree char *t = g_strstrip(g_strdup(p->lines[i]));
        if (!strcmp(t, "end")) {
            *endp = i;
            return true;
        }
    }
    return fail(p, "block has no 'end'");
}

static bool do_data(Parser *p, char **tok)
{
    GByteArray *data;
    uint32_t addr;
    const char *type;

    /* tok[2] only once tok[1] is there: "data" alone ends at tok[1] */
    if (!tok[1] || !tok[2] || !parse_u32(tok[1], &addr)) {
        return fail(p, "usage: data ADDR u8|u16|u32|f32 [VALUES...]");
    }
    type = tok[2];
    if (strcmp(type, "u8") && strcmp(type, "u16") && strcmp(type, "u32")
        && strcmp(type, "f32")) {
        return fail(p, "unknown data type '%s' (u8, u16, u32, f32)", type);
    }
    data = g_byte_array_new();
    if (tok[3]) {
        if (!data_values(p, tok + 3, type, data)) {
            g_byte_array_unref(data);
            return false;
        }
    } else {
        unsigned end, start = p->ln;
        if (!block_end(p, &end)) {
            g_byte_array_unref(data);
            return false;
        }
        for (p->ln = start + 1; p->ln < end; p->ln++) {
            g_auto(GStrv) t = split(p->lines[p->ln]);
            if (!data_values(p, t, type, data)) {
                g_byte_array_unref(data);
                return false;
            }
        }
        p->ln = start;
        if (!add_blob(p, addr, data)) {
            return false;
        }
        p->ln = end;
        return true;
    }
    return add_blob(p, addr, data);
}

static bool do_file(Parser *p, char **tok)
{
    g_autofree char *path = NULL;
    g_autofree char *err = NULL;
    char *contents;
    size_t len;
    uint32_t addr;

    if (!tok[1] || !tok[2] || tok[3] || !parse_u32(tok[1], &addr)) {
        return fail(p, "usage: file ADDR PATH");
    }
    path = g_path_is_absolute(tok[2]) || !p->dir
           ? g_strdup(tok[2]) : g_build_filename(p->dir, tok[2], NULL);
    /* a regular file no larger than memory: not /dev/zero, not a FIFO */
    if (!gemu_file_read(path, SGX_SCENE_MAX_MEMORY, &contents, &len, &err)) {
        return fail(p, "%s", err);
    }
    return add_blob(p, addr,
                    g_byte_array_new_take((guint8 *)contents, len));
}

static bool do_usse(Parser *p, char **tok)
{
    g_autoptr(GString) src = g_string_new(NULL);
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autofree char *err = NULL;
    GByteArray *data;
    unsigned end, start = p->ln;
    uint32_t addr;

    if (!tok[1] || tok[2] || !parse_u32(tok[1], &addr)) {
        return fail(p, "usage: usse ADDR (then code lines, then 'end')");
    }
    if (!block_end(p, &end)) {
        return false;
    }
    for (unsigned i = start + 1; i < end; i++) {
        g_string_append_printf(src, "%s\n", p->lines[i]);
    }
    if (!usse_assemble(src->str, words, &err)) {
        /* err is "line N: ..." relative to the block */
        unsigned rel = 0;
        const char *msg = err;
        if (sscanf(err, "line %u:", &rel) == 1 && strchr(err, ':')) {
            msg = strchr(err, ':') + 2;
        }
        p->ln = start + rel;
        return fail(p, "%s", msg);
    }
    data = g_byte_array_new();
    for (guint i = 0; i < words->len; i++) {
        uint64_t w = g_array_index(words, uint64_t, i);
        append_le(data, (uint32_t)w, 4);
        append_le(data, (uint32_t)(w >> 32), 4);
    }
    if (!add_blob(p, addr, data)) {
        return false;
    }
    p->ln = end;
    return true;
}

static bool do_commands(Parser *p, char **tok)
{
    GByteArray *data;
    unsigned end, start = p->ln;
    uint32_t addr;
    SgxSceneCmd cmd;

    if (!tok[1] || tok[2] || !parse_u32(tok[1], &addr)) {
        return fail(p, "usage: commands ADDR (then packets, then 'end')");
    }
    if (!block_end(p, &end)) {
        return false;
    }
    data = g_byte_array_new();
    for (p->ln = start + 1; p->ln < end; p->ln++) {
        g_auto(GStrv) t = split(p->lines[p->ln]);
        unsigned n = g_strv_length(t);
        uint32_t v, vals[4], hdr;
        GByteArray *pl;
        int op, nv;

        if (!n) {
            continue;
        }
        if (!g_ascii_strcasecmp(t[0], "word")) {
            /* raw dwords, for malformed streams in tests */
            for (unsigned i = 1; i < n; i++) {
                nv = parse_value(p, t[i], vals);
                if (nv < 0) {
                    goto err;
                }
                for (int k = 0; k < nv; k++) {
                    append_le(data, vals[k], 4);
                }
            }
            continue;
        }
        if (!g_ascii_strcasecmp(t[0], "packet")) {
            /* packet OP VALUES...: any opcode, length from the values */
            if (n < 2 || !parse_u32(t[1], &v) || v > 0xff) {
                fail(p, "usage: packet OPCODE [VALUES...]");
                goto err;
            }
            op = v;
            t[1][0] = 0;
        } else {
            op = sgx_packet_lookup(t[0]);
            if (op < 0) {
                fail(p, "unknown packet '%s'", t[0]);
                goto err;
            }
        }
        pl = g_byte_array_new();
        for (unsigned i = t[1] && !t[1][0] ? 2 : 1; i < n; i++) {
            nv = parse_value(p, t[i], vals);
            if (nv < 0) {
                g_byte_array_unref(pl);
                goto err;
            }
            for (int k = 0; k < nv; k++) {
                append_le(pl, vals[k], 4);
            }
        }
        hdr = SGX_PKT_HEADER(op, pl->len / 4);
        append_le(data, hdr, 4);
        g_byte_array_append(data, pl->data, pl->len);
        g_byte_array_unref(pl);
    }
    p->ln = start;
    cmd.addr = addr;
    cmd.size = data->len;
    if (!add_blob(p, addr, data)) {
        return false;
    }
    g_array_append_val(p->scene->cmds, cmd);
    p->ln = end;
    return true;

err:
    g_byte_array_unref(data);
    return false;
}

static bool do_reg(Parser *p, char **tok)
{
    SgxSceneReg r;

    if (!tok[1] || !tok[2] || tok[3]) {
        return fail(p, "usage: reg NAME|OFFSET VALUE");
    }
    if (!sgx_scene_reg_lookup(tok[1], &r.offset)) {
        return fail(p, "unknown register '%s'", tok[1]);
    }
    if (!parse_u32(tok[2], &r.value)) {
        return fail(p, "bad number '%s'", tok[2]);
    }
    g_array_append_val(p->scene->regs, r);
    return true;
}

void sgx_scene_free(SgxScene *scene)
{
    if (!scene) {
        return;
    }
    for (guint i = 0; i < scene->blobs->len; i++) {
        g_byte_array_unref(g_array_index(scene->blobs, SgxSceneBlob,
                                         i).data);
    }
    g_array_free(scene->blobs, TRUE);
    g_array_free(scene->regs, TRUE);
    g_array_free(scene->cmds, TRUE);
    g_free(scene);
}

SgxScene *sgx_scene_parse(const char *text, const char *dir, char **err)
{
    Parser p = { .dir = dir };
    bool seen_magic = false, seen_data = false;
    bool ok = true;

    p.scene = g_new0(SgxScene, 1);
    p.scene->mem_size = SGX_SCENE_DEFAULT_MEMORY;
    p.scene->blobs = g_array_new(FALSE, FALSE, sizeof(SgxSceneBlob));
    p.scene->regs = g_array_new(FALSE, FALSE, sizeof(SgxSceneReg));
    p.scene->cmds = g_array_new(FALSE, FALSE, sizeof(SgxSceneCmd));
    p.lines = gemu_strsplit_c(text, '\n');
    p.nlines = g_strv_length(p.lines);

    for (p.ln = 0; ok && p.ln < p.nlines; p.ln++) {
        g_auto(GStrv) tok = split(p.lines[p.ln]);
        uint32_t v;

        if (!tok[0]) {
            continue;
        }
        if (!seen_magic) {
            if (strcmp(tok[0], "sgx-scene") || !tok[1]
                || strcmp(tok[1], "1") || tok[2]) {
                ok = fail(&p, "not a scene file (expected 'sgx-scene 1')");
            }
            seen_magic = true;
            continue;
        }
        if (!strcmp(tok[0], "memory")) {
            if (seen_data) {
                ok = fail(&p, "'memory' must come before any data");
            } else if (!tok[1] || tok[2] || !parse_u32(tok[1], &v)
                       || v < 0x10000 || v > SGX_SCENE_MAX_MEMORY
                       || (v & 0xfff)) {
                ok = fail(&p, "memory: a multiple of 4 KiB from 64 KiB "
                          "to %u MiB", SGX_SCENE_MAX_MEMORY >> 20);
            } else {
                p.scene->mem_size = v;
            }
        } else if (!strcmp(tok[0], "data")) {
            seen_data = true;
            ok = do_data(&p, tok);
        } else if (!strcmp(tok[0], "file")) {
            seen_data = true;
            ok = do_file(&p, tok);
        } else if (!strcmp(tok[0], "usse")) {
            seen_data = true;
            ok = do_usse(&p, tok);
        } else if (!strcmp(tok[0], "commands")) {
            seen_data = true;
            ok = do_commands(&p, tok);
        } else if (!strcmp(tok[0], "reg")) {
            ok = do_reg(&p, tok);
        } else {
            ok = fail(&p, "unknown directive '%s'", tok[0]);
        }
    }
    if (ok && !seen_magic) {
        p.ln = 0;
        ok = fail(&p, "empty scene file");
    }
    if (ok && !p.scene->cmds->len) {
        p.ln = p.nlines ? p.nlines - 1 : 0;
        ok = fail(&p, "no 'commands' block");
    }
    g_strfreev(p.lines);
    if (!ok) {
        *err = p.err;
        sgx_scene_free(p.scene);
        return NULL;
    }
    return p.scene;
}
