/*
 * gemu-shader: parse and check a state file.
 *
 * The file is read in two passes so that checks do not depend on the order
 * of directives: the first pass takes the "shape" of the launch (chip,
 * stage, code, sizes, threads, g[] declarations), the second the initial
 * words and the dumps, which are checked against that shape.  Every
 * mistake is reported as "FILE:LINE: message" and nothing is run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/file.h"
#include "gemu/strsplit.h"
#include "state.h"

#include <math.h>

typedef ShaderLexer Lexer;

/* The lexer is shared with usse.c under its exported names (state.h). */
#define lex_error shader_lex_error
#define lex_skip_ws shader_lex_skip_ws
#define lex_at_end shader_lex_at_end
#define lex_peek_token shader_lex_peek_token
#define lex_end shader_lex_end
#define lex_char shader_lex_char
#define lex_try shader_lex_try
#define lex_word shader_lex_word
#define lex_number shader_lex_number
#define lex_value shader_lex_value
#define read_input shader_read_input

/* a message quoting a 2 MB token keeps its start and its end */
#define LEX_MSG_HEAD    200
#define LEX_MSG_TAIL    60

bool GEMU_PRINTF(2, 3) lex_error(Lexer *lx, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *msg = NULL;
    size_t len;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    len = strlen(msg);
    if (len > LEX_MSG_HEAD + LEX_MSG_TAIL + 3) {
        memcpy(msg + LEX_MSG_HEAD, "...", 3);
        memmove(msg + LEX_MSG_HEAD + 3, msg + len - LEX_MSG_TAIL,
                LEX_MSG_TAIL + 1);
    }
    if (!*lx->errp) {
        *lx->errp = g_strdup_printf("%s:%d: %s", lx->file, lx->line, msg);
    }
    return false;
}

void lex_skip_ws(Lexer *lx)
{
    while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r') {
        lx->p++;
    }
}

bool lex_at_end(Lexer *lx)
{
    lex_skip_ws(lx);
    return *lx->p == '\0';
}

/* A run of non-blank characters, for quoting in messages. */
char *lex_peek_token(Lexer *lx)
{
    const char *e;

    lex_skip_ws(lx);
    e = lx->p;
    while (*e && *e != ' ' && *e != '\t' && *e != '\r') {
        e++;
    }
    return g_strndup(lx->p, e - lx->p);
}

bool lex_end(Lexer *lx, const char *what)
{
    g_autofree char *tok = NULL;

    if (lex_at_end(lx)) {
        return true;
    }
    tok = lex_peek_token(lx);
    return lex_error(lx, "unexpected '%s' after %s", tok, what);
}

bool lex_char(Lexer *lx, char c, const char *what)
{
    lex_skip_ws(lx);
    if (*lx->p != c) {
        if (*lx->p == '\0') {
            return lex_error(lx, "expected '%c' %s, found end of line",
                             c, what);
        }
        return lex_error(lx, "expected '%c' %s, found '%c'", c, what, *lx->p);
    }
    lx->p++;
    return true;
}

bool lex_try(Lexer *lx, const char *s)
{
    size_t n = strlen(s);

    lex_skip_ws(lx);
    if (strncmp(lx->p, s, n) == 0) {
        lx->p += n;
        return true;
    }
    return false;
}

static bool is_word_char(char c)
{
    return g_ascii_isalnum(c) || c == '_' || c == '-';
}

/* A directive or name: letters, digits, '_' and '-'.  "" if none. */
char *lex_word(Lexer *lx)
{
    const char *s;

    lex_skip_ws(lx);
    s = lx->p;
    while (is_word_char(*lx->p)) {
        lx->p++;
    }
    return g_strndup(s, lx->p - s);
}

/* Parse hex "0x..." or decimal text of @len chars; false if malformed. */
static bool parse_uint(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    unsigned base = 10;
    size_t i = 0;

    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i == len) {
        return false;
    }
    for (; i < len; i++) {
        int d = g_ascii_xdigit_value(s[i]);

        if (d < 0 || (unsigned)d >= base) {
            return false;
        }
        v = v * base + d;
        if (v > 0xffffffffull) {
            v = 0x100000000ull;     /* saturate: "too large" below */
        }
    }
    *out = v;
    return true;
}

/* An unsigned number (hex or decimal), at most @max. */
bool lex_number(Lexer *lx, const char *what, uint64_t max,
                       uint64_t *out)
{
    const char *s;
    uint64_t v;

    lex_skip_ws(lx);
    s = lx->p;
    while (g_ascii_isalnum(*lx->p) || *lx->p == '_') {
        lx->p++;
    }
    if (lx->p == s) {
        g_autofree char *tok = lex_peek_token(lx);
        if (!*tok) {
            return lex_error(lx, "missing %s", what);
        }
        return lex_error(lx, "expected a number for %s, found '%s'", what,
                         tok);
    }
    if (!parse_uint(s, lx->p - s, &v)) {
        return lex_error(lx, "bad number '%.*s' for %s",
                         (int)(lx->p - s), s, what);
    }
    if (v > max) {
        /* the limit in the base the user wrote */
        bool hex = lx->p - s > 2 && s[1] == 'x';
        return lex_error(lx, hex ? "%s %.*s out of range (at most 0x%"
                         PRIx64 ")" : "%s %.*s out of range (at most %"
                         PRIu64 ")", what, (int)(lx->p - s), s, max);
    }
    *out = v;
    return true;
}

/*
 * A 32-bit word value: a number (hex or decimal), a negative decimal
 * (two's complement), or a float with an 'f' suffix ("1.5f", "-2e3f":
 * its IEEE single bits).
 */
bool lex_value(Lexer *lx, uint32_t *out)
{
    g_autofree char *tok = lex_peek_token(lx);
    size_t len = strlen(tok);
    bool hex = len > 1 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
    uint64_t v;

    if (len == 0) {
        return lex_error(lx, "missing value");
    }
    lx->p += len;
    if (!hex && len > 1 && (tok[len - 1] == 'f' || tok[len - 1] == 'F')) {
        char *end;
        double d;
        float f;
        union { float f; uint32_t u; } bits;

        tok[len - 1] = '\0';
        d = g_ascii_strtod(tok, &end);
        if (*end || end == tok || !strpbrk(tok, "0123456789") ||
            g_ascii_isalpha(tok[tok[0] == '-' || tok[0] == '+'])) {
            return lex_error(lx, "bad float value '%sf'", tok);
        }
        f = (float)d;
        if (isinf(f) && !isinf(d)) {
            return lex_error(lx, "float value '%sf' out of range", tok);
        }
        bits.f = f;
        *out = bits.u;
        return true;
    }
    if (tok[0] == '-') {
        if (!parse_uint(tok + 1, len - 1, &v) || hex ||
            (len > 2 && tok[2] == 'x')) {
            return lex_error(lx, "bad value '%s'", tok);
        }
        if (v > 0x80000000ull) {
            return lex_error(lx, "value %s out of range", tok);
        }
        *out = (uint32_t)-(int64_t)v;
        return true;
    }
    if (!parse_uint(tok, len, &v)) {
        return lex_error(lx, "bad value '%s'", tok);
    }
    if (v > 0xffffffffull) {
        return lex_error(lx, "value %s does not fit in 32 bits", tok);
    }
    *out = v;
    return true;
}

/* "NAME[" already read: "ADDR]" of a word access in a @size byte space. */
static bool lex_word_addr(Lexer *lx, const char *space, uint64_t size,
                          uint32_t *addr)
{
    uint64_t a;

    if (!lex_number(lx, "address", 0xffffffffull, &a) ||
        !lex_char(lx, ']', "after the address")) {
        return false;
    }
    if (a & 3) {
        return lex_error(lx, "address 0x%" PRIx64 " in %s[] is not 4-byte "
                         "aligned", a, space);
    }
    if (a + 4 > size) {
        return lex_error(lx, "address 0x%" PRIx64 " is outside %s[] "
                         "(0x%" PRIx64 " bytes)", a, space, size);
    }
    *addr = a;
    return true;
}

/* "= VALUE" to the end of the line. */
static bool lex_assign(Lexer *lx, uint32_t *value)
{
    return lex_char(lx, '=', "before the value") && lex_value(lx, value) &&
           lex_end(lx, "the value");
}

/* "c12" -> 12 for @letter 'c' (@count spaces); -1 if @w is not such a name;
   -2 (error set) when the index is out of range. */
static int space_index(Lexer *lx, const char *w, char letter, int count)
{
    uint64_t n;

    if (w[0] != letter || !g_ascii_isdigit(w[1])) {
        return -1;
    }
    if (!parse_uint(w + 1, strlen(w + 1), &n)) {
        return -1;
    }
    if (n >= (uint64_t)count) {
        lex_error(lx, "no space %s (%c0..%c%d)", w, letter, letter,
                  count - 1);
        return -2;
    }
    return n;
}

static const char *stage_name(TeslaProgType p)
{
    static const char *const names[] = {
        [TESLA_PROG_VP] = "vertex",
        [TESLA_PROG_GP] = "geometry",
        [TESLA_PROG_FP] = "fragment",
        [TESLA_PROG_CP] = "compute",
    };
    return names[p];
}

static bool need_stage(Lexer *lx, ShaderState *s, const char *what,
                       unsigned mask)
{
    if (mask & (1u << s->stage)) {
        return true;
    }
    return lex_error(lx, "%s does not fit a %s program", what,
                     stage_name(s->stage));
}

#define ST_VP (1u << TESLA_PROG_VP)
#define ST_GP (1u << TESLA_PROG_GP)
#define ST_FP (1u << TESLA_PROG_FP)
#define ST_CP (1u << TESLA_PROG_CP)

static bool once(Lexer *lx, int *line, const char *what)
{
    if (*line) {
        return lex_error(lx, "%s given twice (first on line %d)", what,
                         *line);
    }
    *line = lx->line;
    return true;
}

/* "X [Y [Z]]" of block/grid. */
static bool lex_dims(Lexer *lx, const char *what, const unsigned *max,
                     unsigned *dims)
{
    static const char *const axis[] = { "x", "y", "z" };

    for (int i = 0; i < 3; i++) {
        g_autofree char *name = g_strdup_printf("%s %s", what, axis[i]);
        uint64_t v;

        dims[i] = 1;
        if (i > 0 && lex_at_end(lx)) {
            continue;
        }
        if (!lex_number(lx, name, max[i], &v)) {
            return false;
        }
        if (v == 0) {
            return lex_error(lx, "%s is 0", name);
        }
        dims[i] = v;
    }
    return lex_end(lx, what);
}

static bool load_code(Lexer *lx, ShaderState *s, const char *arg)
{
    g_autofree char *dir = NULL;
    g_autofree char *err = NULL;
    char *bytes;
    size_t len;

    if (g_path_is_absolute(arg) || strcmp(s->path, "-") == 0) {
        s->code_path = g_strdup(arg);
    } else {
        dir = g_path_get_dirname(s->path);
        s->code_path = g_build_filename(dir, arg, NULL);
    }
    /* a .s file may be larger than the code it makes, not unboundedly */
    if (!gemu_file_read(s->code_path, 4 * (size_t)SHADER_MAX_CODE, &bytes,
                        &len, &err)) {
        return lex_error(lx, "cannot read code: %s", err);
    }
    if (g_str_has_suffix(s->code_path, ".s")) {
        /* assembly source: assembled once chip and stage are known */
        s->code_src = bytes;
        return true;
    }
    if (len == 0 || len % 4 || len > SHADER_MAX_CODE) {
        g_free(bytes);
        if (len == 0) {
            return lex_error(lx, "code file %s is empty", s->code_path);
        }
        if (len % 4) {
            return lex_error(lx, "code file %s is %zu bytes, not a whole "
                             "number of 32-bit words", s->code_path,
                             (size_t)len);
        }
        return lex_error(lx, "code file %s is larger than the 16 MiB code "
                         "space", s->code_path);
    }
    s->code_words = len / 4;
    s->code = g_new(uint32_t, s->code_words);
    for (size_t i = 0; i < s->code_words; i++) {
        const uint8_t *b = (const uint8_t *)bytes + 4 * i;
        s->code[i] = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
    }
    g_free(bytes);
    return true;
}

/* A "code FILE.s": assemble it for the state's chip and stage. */
static bool assemble_code(Lexer *lx, ShaderState *s)
{
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autofree char *err = NULL;

    if (!tesla_assemble(s->chip, s->stage, s->code_src, words, &err)) {
        lx->line = s->code_line;
        return lex_error(lx, "%s: %s", s->code_path, err);
    }
    if (!words->len) {
        lx->line = s->code_line;
        return lex_error(lx, "%s holds no instruction", s->code_path);
    }
    s->code_words = words->len;
    s->code = (uint32_t *)g_array_free(g_steal_pointer(&words), FALSE);
    return true;
}

/* First pass: the shape of the launch.  Other directives are skipped. */
static bool parse_shape(Lexer *lx, ShaderState *s, const char *dir)
{
    uint64_t v;
    int gi;

    if (!strcmp(dir, "chip")) {
        g_autofree char *name = lex_word(lx);

        if (!once(lx, &s->chip_line, "chip")) {
            return false;
        }
        if (!*name) {
            return lex_error(lx, "missing chip name");
        }
        if (!tesla_variant_parse(name, &s->chip)) {
            return lex_error(lx, "unknown chip '%s' (%s, sgx543)", name,
                             tesla_variant_list());
        }
        return lex_end(lx, "the chip name");
    }
    if (!strcmp(dir, "stage")) {
        g_autofree char *name = lex_word(lx);

        if (!once(lx, &s->stage_line, "stage")) {
            return false;
        }
        if (!*name) {
            return lex_error(lx, "missing stage name");
        }
        if (!tesla_prog_parse(name, &s->stage)) {
            return lex_error(lx, "unknown stage '%s' (vertex, geometry, "
                             "fragment, compute)", name);
        }
        return lex_end(lx, "the stage name");
    }
    if (!strcmp(dir, "code")) {
        g_autofree char *arg = NULL;

        if (!once(lx, &s->code_line, "code")) {
            return false;
        }
        arg = g_strstrip(g_strdup(lx->p));
        if (!*arg) {
            return lex_error(lx, "missing code file name");
        }
        return load_code(lx, s, arg);
    }
    if (!strcmp(dir, "gprs")) {
        if (!once(lx, &s->gprs_line, "gprs") ||
            !lex_number(lx, "gprs", TESLA_MAX_GPRS, &v)) {
            return false;
        }
        s->gprs = v;
        return lex_end(lx, "the register count");
    }
    if (!strcmp(dir, "threads")) {
        if (!once(lx, &s->threads_line, "threads") ||
            !lex_number(lx, "threads", SHADER_MAX_THREADS, &v)) {
            return false;
        }
        if (v == 0) {
            return lex_error(lx, "threads is 0");
        }
        s->threads = v;
        return lex_end(lx, "the thread count");
    }
    if (!strcmp(dir, "block")) {
        static const unsigned max[3] = { 512, 512, 64 };

        if (!once(lx, &s->block_line, "block") ||
            !lex_dims(lx, "block", max, s->block)) {
            return false;
        }
        if (s->block[0] * s->block[1] * s->block[2] >
            SHADER_MAX_BLOCK_THREADS) {
            return lex_error(lx, "block of %u threads: at most %u",
                             s->block[0] * s->block[1] * s->block[2],
                             SHADER_MAX_BLOCK_THREADS);
        }
        return true;
    }
    if (!strcmp(dir, "grid")) {
        static const unsigned max[3] = { 0xffff, 0xffff, 0xffff };

        return once(lx, &s->grid_line, "grid") &&
               lex_dims(lx, "grid", max, s->grid);
    }
    if (!strcmp(dir, "shared")) {
        if (!once(lx, &s->shared_line, "shared") ||
            !lex_number(lx, "shared", SHADER_MAX_SHARED, &v)) {
            return false;
        }
        /* the launch header always occupies the first 0x14 bytes */
        s->shared = MAX(v, SHADER_SHARED_HEADER);
        return lex_end(lx, "the s[] size");
    }
    if (!strcmp(dir, "local")) {
        if (!once(lx, &s->local_line, "local") ||
            !lex_number(lx, "local", SHADER_MAX_LOCAL, &v)) {
            return false;
        }
        s->local = v;
        return lex_end(lx, "the l[] size");
    }
    gi = space_index(lx, dir, 'g', TESLA_NUM_GSPACES);
    if (gi == -2) {
        return false;
    }
    if (gi >= 0 && !lex_try(lx, "[")) {
        ShaderGlobal *g = &s->g[gi];

        if (!once(lx, &g->line, dir) ||
            !lex_number(lx, "size", SHADER_MAX_GSIZE, &v)) {
            return false;
        }
        if (v == 0) {
            return lex_error(lx, "%s size is 0", dir);
        }
        g->size = v;
        g->data = g_try_malloc0(v);
        if (!g->data) {
            return lex_error(lx, "cannot allocate 0x%" PRIx64 " bytes for "
                             "%s", v, dir);
        }
        return lex_end(lx, "the size");
    }
    return true;
}

/* "N|all SPACE[ADDR] = VALUE" after "thread". */
static bool parse_thread_word(Lexer *lx, ShaderState *s)
{
    ShaderThreadWord w = { .line = lx->line };
    g_autofree char *space = NULL;
    const char *want;
    uint64_t v;

    if (!need_stage(lx, s, "thread", ST_VP | ST_GP | ST_FP)) {
        return false;
    }
    if (lex_try(lx, "all")) {
        w.thread = UINT32_MAX;
    } else {
        if (!lex_number(lx, "thread number", 0xffffffffull, &v)) {
            return false;
        }
        if (v >= s->threads) {
            return lex_error(lx, "thread %" PRIu64 " out of range (%u "
                             "threads)", v, s->threads);
        }
        w.thread = v;
    }
    want = s->stage == TESLA_PROG_FP ? "v" : "a";
    space = lex_word(lx);
    if (!*space) {
        return lex_error(lx, "expected %s[ADDR] after the thread", want);
    }
    if (strcmp(space, want)) {
        if (!strcmp(space, "p") && s->stage == TESLA_PROG_GP) {
            return lex_error(lx, "p[] is shared by all threads: write "
                             "p[ADDR] = VALUE");
        }
        if (!strcmp(space, "a") || !strcmp(space, "v") ||
            !strcmp(space, "p")) {
            return lex_error(lx, "%s[] does not fit a %s program (inputs "
                             "are %s[])", space, stage_name(s->stage), want);
        }
        return lex_error(lx, "unknown per-thread space '%s' (inputs of a "
                         "%s program are %s[])", space,
                         stage_name(s->stage), want);
    }
    if (!lex_char(lx, '[', "after the space") ||
        !lex_word_addr(lx, space, SHADER_SPACE_BYTES, &w.addr) ||
        !lex_assign(lx, &w.value)) {
        return false;
    }
    g_array_append_val(s->inputs, w);
    return true;
}

/* "[A..B]" of a byte range in a @size byte space (or "[A]": one word). */
static bool lex_byte_range(Lexer *lx, const char *space, uint64_t size,
                           ShaderDump *d)
{
    uint64_t a, b;

    if (!lex_char(lx, '[', "after the space") ||
        !lex_number(lx, "start address", 0xffffffffull, &a)) {
        return false;
    }
    if (lex_try(lx, "..")) {
        if (!lex_number(lx, "end address", 0xffffffffull, &b)) {
            return false;
        }
    } else {
        b = a + 4;
    }
    if (!lex_char(lx, ']', "after the range")) {
        return false;
    }
    if ((a | b) & 3) {
        return lex_error(lx, "%s[0x%" PRIx64 "..0x%" PRIx64 "]: bounds must "
                         "be 4-byte aligned", space, a, b);
    }
    if (b <= a) {
        return lex_error(lx, "%s[0x%" PRIx64 "..0x%" PRIx64 "] is empty (the "
                         "end is exclusive)", space, a, b);
    }
    if (b > size) {
        return lex_error(lx, "%s[0x%" PRIx64 "..0x%" PRIx64 "] is outside "
                         "%s[] (0x%" PRIx64 " bytes)", space, a, b, space,
                         size);
    }
    d->start = a;
    d->end = b;
    return true;
}

static bool lex_reg(Lexer *lx, uint64_t *r)
{
    if (!lex_try(lx, "$r")) {
        g_autofree char *tok = lex_peek_token(lx);
        return lex_error(lx, "expected a register $rN, found '%s'", tok);
    }
    return lex_number(lx, "register", TESLA_MAX_GPRS - 1, r);
}

static bool parse_dump(Lexer *lx, ShaderState *s)
{
    ShaderDump d = { .line = lx->line };
    g_autofree char *what = NULL;
    int gi;

    lex_skip_ws(lx);
    if (*lx->p == '$') {
        uint64_t a, b;

        if (!lex_reg(lx, &a)) {
            return false;
        }
        b = a;
        if (lex_try(lx, "..") && !lex_reg(lx, &b)) {
            return false;
        }
        if (b < a) {
            return lex_error(lx, "register range $r%" PRIu64 "..$r%" PRIu64
                             " is backwards", a, b);
        }
        if (shader_state_threads(s) > SHADER_MAX_THREADS) {
            return lex_error(lx, "dump $r: at most %u threads (the launch "
                             "has %u)", SHADER_MAX_THREADS,
                             shader_state_threads(s));
        }
        d.kind = SHADER_DUMP_REG;
        d.start = a;
        d.end = b;
        g_array_append_val(s->dumps, d);
        return lex_end(lx, "the register range");
    }
    what = lex_word(lx);
    if (!strcmp(what, "o")) {
        if (!need_stage(lx, s, "dump o[]", ST_VP | ST_GP) ||
            !lex_byte_range(lx, "o", SHADER_SPACE_BYTES, &d)) {
            return false;
        }
        d.kind = SHADER_DUMP_OUT;
        g_array_append_val(s->dumps, d);
        return lex_end(lx, "the range");
    }
    gi = space_index(lx, what, 'g', TESLA_NUM_GSPACES);
    if (gi == -2) {
        return false;
    }
    if (gi >= 0) {
        if (!s->g[gi].line) {
            return lex_error(lx, "%s is not declared (add '%s SIZE')", what,
                             what);
        }
        if (!lex_byte_range(lx, what, s->g[gi].size, &d)) {
            return false;
        }
        d.kind = SHADER_DUMP_GLOBAL;
        d.idx = gi;
        g_array_append_val(s->dumps, d);
        return lex_end(lx, "the range");
    }
    if (!*what) {
        g_autofree char *tok = lex_peek_token(lx);
        if (!*tok) {
            return lex_error(lx, "dump what? (o[A..B], $rA..$rB, gK[A..B])");
        }
        return lex_error(lx, "cannot dump '%s' (o[A..B], $rA..$rB, "
                         "gK[A..B])", tok);
    }
    return lex_error(lx, "cannot dump '%s' (o[A..B], $rA..$rB, gK[A..B])",
                     what);
}

static void store_word(uint8_t *mem, uint32_t addr, uint32_t value)
{
    mem[addr] = value;
    mem[addr + 1] = value >> 8;
    mem[addr + 2] = value >> 16;
    mem[addr + 3] = value >> 24;
}

/* Second pass: words and dumps. */
static bool parse_data(Lexer *lx, ShaderState *s, const char *dir)
{
    ShaderWord w = { .line = lx->line };
    int idx;

    if (!strcmp(dir, "thread")) {
        return parse_thread_word(lx, s);
    }
    if (!strcmp(dir, "dump")) {
        return parse_dump(lx, s);
    }
    if (!strcmp(dir, "p")) {
        if (!need_stage(lx, s, "p[]", ST_GP) ||
            !lex_char(lx, '[', "after p") ||
            !lex_word_addr(lx, "p", SHADER_SPACE_BYTES, &w.addr) ||
            !lex_assign(lx, &w.value)) {
            return false;
        }
        g_array_append_val(s->pwords, w);
        return true;
    }
    if (!strcmp(dir, "s")) {
        if (!need_stage(lx, s, "s[]", ST_CP) ||
            !lex_char(lx, '[', "after s") ||
            !lex_word_addr(lx, "s", s->shared, &w.addr)) {
            return false;
        }
        if (w.addr < SHADER_SHARED_HEADER) {
            return lex_error(lx, "s[0x%x] is in the launch header "
                             "(s[0x0..0x%x]); user data starts at s[0x%x]",
                             w.addr, SHADER_SHARED_HEADER,
                             SHADER_SHARED_HEADER);
        }
        if (!lex_assign(lx, &w.value)) {
            return false;
        }
        g_array_append_val(s->swords, w);
        return true;
    }
    idx = space_index(lx, dir, 'c', TESLA_NUM_CSPACES);
    if (idx == -2) {
        return false;
    }
    if (idx >= 0) {
        if (!lex_char(lx, '[', "after the const space") ||
            !lex_word_addr(lx, dir, SHADER_SPACE_BYTES, &w.addr) ||
            !lex_assign(lx, &w.value)) {
            return false;
        }
        if (!s->cspace[idx]) {
            s->cspace[idx] = g_malloc0(SHADER_SPACE_BYTES);
            s->cspace_size[idx] = SHADER_SPACE_BYTES;
        }
        store_word(s->cspace[idx], w.addr, w.value);
        return true;
    }
    idx = space_index(lx, dir, 'g', TESLA_NUM_GSPACES);
    if (idx == -2) {
        return false;
    }
    if (idx >= 0) {
        if (!lex_try(lx, "[")) {
            return true;            /* a declaration: first pass */
        }
        if (!s->g[idx].line) {
            return lex_error(lx, "%s is not declared (add '%s SIZE')", dir,
                             dir);
        }
        if (!lex_word_addr(lx, dir, s->g[idx].size, &w.addr) ||
            !lex_assign(lx, &w.value)) {
            return false;
        }
        store_word(s->g[idx].data, w.addr, w.value);
        return true;
    }
    if (!strcmp(dir, "chip") || !strcmp(dir, "stage") ||
        !strcmp(dir, "code") || !strcmp(dir, "gprs") ||
        !strcmp(dir, "threads") || !strcmp(dir, "block") ||
        !strcmp(dir, "grid") || !strcmp(dir, "shared") ||
        !strcmp(dir, "local")) {
        return true;                /* first pass */
    }
    if (!strcmp(dir, "a") || !strcmp(dir, "v")) {
        return lex_error(lx, "%s[] is per thread: write 'thread N %s[ADDR] "
                         "= VALUE'", dir, dir);
    }
    if (!strcmp(dir, "o") || !strcmp(dir, "l")) {
        return lex_error(lx, "%s[] cannot be given initial values", dir);
    }
    return lex_error(lx, "unknown directive '%s'", dir);
}

/* Checks of the shape against the stage, after the first pass. */
static bool check_shape(Lexer *lx, ShaderState *s)
{
    bool cp = s->stage == TESLA_PROG_CP;
    struct {
        int line;
        const char *what;
        bool ok;
    } fit[] = {
        { s->threads_line, "threads", !cp },
        { s->block_line, "block", cp },
        { s->grid_line, "grid", cp },
        { s->shared_line, "shared", cp },
    };

    for (size_t i = 0; i < ARRAY_SIZE(fit); i++) {
        if (fit[i].line && !fit[i].ok) {
            lx->line = fit[i].line;
            if (cp) {
                return lex_error(lx, "threads does not fit a compute "
                                 "program (use block and grid)");
            }
            return lex_error(lx, "%s does not fit a %s program (compute "
                             "only)", fit[i].what, stage_name(s->stage));
        }
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        if (s->g[i].line && !cp) {
            lx->line = s->g[i].line;
            return lex_error(lx, "g%d[] does not fit a %s program (compute "
                             "only)", i, stage_name(s->stage));
        }
    }
    if (s->stage == TESLA_PROG_FP && s->threads % 4) {
        lx->line = s->threads_line;
        return lex_error(lx, "a fragment launch needs whole quads: %u "
                         "threads is not a multiple of 4", s->threads);
    }
    if (!s->code_line) {
        lx->line = 0;
        *lx->errp = g_strdup_printf("%s: no 'code' directive: nothing to "
                                    "run", lx->file);
        return false;
    }
    return true;
}

char *read_input(const char *path, size_t *len, char **errp)
{
    g_autoptr(GError) gerr = NULL;
    GString *buf;
    char chunk[4096];
    size_t n;
    char *text;
    gsize glen;

    if (strcmp(path, "-")) {
        if (!g_file_get_contents(path, &text, &glen, &gerr)) {
            *errp = g_strdup_printf("%s", gerr->message);
            return NULL;
        }
        *len = glen;
        return text;
    }
    buf = g_string_new(NULL);
    while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
        g_string_append_len(buf, chunk, n);
    }
    if (ferror(stdin)) {
        g_string_free(buf, TRUE);
        *errp = g_strdup("<stdin>: read error");
        return NULL;
    }
    *len = buf->len;
    return g_string_free(buf, FALSE);
}

ShaderState *shader_state_load(const char *path, char **errp)
{
    g_autofree char *text = NULL;
    size_t len = 0;

    *errp = NULL;
    text = read_input(path, &len, errp);
    if (!text) {
        return NULL;
    }
    return shader_state_parse(path, text, len, errp);
}

bool shader_text_is_usse(const char *text)
{
    g_auto(GStrv) lines = gemu_strsplit_c(text, '\n');

    for (int i = 0; lines[i]; i++) {
        g_auto(GStrv) tok = NULL;
        char *hash = strchr(lines[i], '#');

        if (hash) {
            *hash = '\0';
        }
        tok = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
        if (tok[0] && !strcmp(tok[0], "chip")) {
            for (int k = 1; tok[k]; k++) {
                if (*tok[k]) {
                    return !strcmp(tok[k], "sgx543");
                }
            }
        }
    }
    return false;
}

ShaderState *shader_state_parse(const char *path, const char *text,
                                size_t len, char **errp)
{
    ShaderState *s = g_new0(ShaderState, 1);
    g_auto(GStrv) lines = NULL;
    Lexer lx = {
        .file = strcmp(path, "-") ? path : "<stdin>",
        .errp = errp,
    };

    *errp = NULL;
    s->path = g_strdup(path);
    s->chip = TESLA_G84;
    s->stage = TESLA_PROG_CP;
    s->gprs = TESLA_MAX_GPRS;
    s->shared = SHADER_MAX_SHARED;
    s->local = SHADER_DEFAULT_LOCAL;
    for (int i = 0; i < 3; i++) {
        s->block[i] = s->grid[i] = 1;
    }
    s->inputs = g_array_new(FALSE, FALSE, sizeof(ShaderThreadWord));
    s->pwords = g_array_new(FALSE, FALSE, sizeof(ShaderWord));
    s->swords = g_array_new(FALSE, FALSE, sizeof(ShaderWord));
    s->dumps = g_array_new(FALSE, FALSE, sizeof(ShaderDump));

    if (strlen(text) != len) {
        *errp = g_strdup_printf("%s: not a text file (it holds a NUL byte)",
                                lx.file);
        goto fail;
    }
    lines = gemu_strsplit_c(text, '\n');

    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; lines[i]; i++) {
            g_autofree char *line = g_strdup(lines[i]);
            g_autofree char *dir = NULL;
            char *hash = strchr(line, '#');
            bool ok;

            if (hash) {
                *hash = '\0';
            }
            lx.line = i + 1;
            lx.p = line;
            if (lex_at_end(&lx)) {
                continue;
            }
            dir = lex_word(&lx);
            if (!*dir) {
                g_autofree char *tok = lex_peek_token(&lx);
                lex_error(&lx, "expected a directive, found '%s'", tok);
                goto fail;
            }
            ok = pass == 0 ? parse_shape(&lx, s, dir)
                           : parse_data(&lx, s, dir);
            if (!ok) {
                goto fail;
            }
        }
        if (pass == 0) {
            if (!s->threads_line) {
                s->threads = s->stage == TESLA_PROG_FP ? 4 : 1;
            }
            if (!check_shape(&lx, s)) {
                goto fail;
            }
            if (s->code_src && !assemble_code(&lx, s)) {
                goto fail;
            }
        }
    }
    return s;

fail:
    if (!*errp) {
        *errp = g_strdup_printf("%s: cannot parse", lx.file);
    }
    shader_state_free(s);
    return NULL;
}

unsigned shader_state_threads(const ShaderState *s)
{
    if (s->stage == TESLA_PROG_CP) {
        uint64_t n = (uint64_t)s->block[0] * s->block[1] * s->block[2] *
                     s->grid[0] * s->grid[1] * s->grid[2];
        return n > UINT_MAX ? UINT_MAX : n;
    }
    return s->threads;
}

void shader_state_free(ShaderState *s)
{
    if (!s) {
        return;
    }
    g_free(s->path);
    g_free(s->code_path);
    g_free(s->code_src);
    g_free(s->code);
    for (int i = 0; i < TESLA_NUM_CSPACES; i++) {
        g_free(s->cspace[i]);
    }
    for (int i = 0; i < TESLA_NUM_GSPACES; i++) {
        g_free(s->g[i].data);
    }
    g_array_free(s->inputs, TRUE);
    g_array_free(s->pwords, TRUE);
    g_array_free(s->swords, TRUE);
    g_array_free(s->dumps, TRUE);
    g_free(s);
}
