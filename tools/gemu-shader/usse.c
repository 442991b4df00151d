/*
 * gemu-shader for the SGX543's USSE: a "chip sgx543" state file names a
 * program (a .gxp, raw 64-bit words, or assembly), SA words for all
 * threads, PA words per thread and the registers to print.  The .gxp's
 * secondary program runs first, once, on SA; then the primary program
 * runs for every thread (fragments: quads of 4).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/file.h"
#include "gemu/strsplit.h"
#include "block/gxp.h"
#include "target/usse.h"
#include "target/usse/exec.h"
#include "state.h"
#include "usse.h"
#include "expect.h"

#define USSE_MAX_THREADS    0x10000u
#define USSE_MAX_CODE       0x100000u   /* 20-bit PC */

typedef struct UState {
    const char *path;
    UsseStage stage;
    uint64_t *primary, *secondary;
    size_t nprimary, nsecondary;
    unsigned threads;
    uint32_t sa[USSE_MAX_REGS];
    GArray *pa;             /* UPaWord */
    GArray *dumps;          /* UDump */
    bool *helper;           /* per thread, or NULL */
    GArray *helpers;        /* thread numbers (second pass) */
    UsseExpects ex;         /* expect, tolerance, rig */
    int depth;              /* include nesting */
    int chip_line, stage_line, code_line, threads_line, sec_line;
    int tol_line;
    int code_kind;          /* UCodeKind of the code line */
    int rig_line;
} UState;

#define USSE_MAX_INCLUDE    8

typedef struct UPaWord {
    uint32_t thread;        /* UINT32_MAX: all */
    uint32_t reg, value;
} UPaWord;

typedef struct UDump {
    UsseBank bank;
    uint32_t first, last;   /* inclusive */
} UDump;

static bool once(ShaderLexer *lx, int *line, const char *what)
{
    if (*line) {
        return shader_lex_error(lx, "'%s' given twice (first at line %d)",
                                what, *line);
    }
    *line = lx->line;
    return true;
}

/* Which program a code file fills. */
typedef enum UCodeKind {
    UCODE_GXP,          /* a .gxp: both programs */
    UCODE_PRIMARY,      /* 'code': words or assembly */
    UCODE_SECONDARY,    /* 'secondary': the same, for the secondary */
    UCODE_LISTING,      /* a gemu-dis listing of a .gxp: both programs */
} UCodeKind;

/* The path a state-file argument names: relative to the file it is in. */
static char *arg_path(ShaderLexer *lx, const UState *s)
{
    g_autofree char *arg = NULL;

    shader_lex_skip_ws(lx);
    arg = g_strstrip(g_strdup(lx->p));
    lx->p += strlen(lx->p);
    if (!*arg) {
        shader_lex_error(lx, "missing file name");
        return NULL;
    }
    if (g_path_is_absolute(arg) || !strcmp(s->path, "-")) {
        return g_steal_pointer(&arg);
    } else {
        g_autofree char *dir = g_path_get_dirname(lx->file);
        return g_build_filename(dir, arg, NULL);
    }
}

/* A file a state file names: regular, at most 64 MiB (gemu/file.h). */
#define USSE_MAX_FILE   (64u << 20)

static bool read_named(ShaderLexer *lx, const char *path, const char *what,
                       char **bytes, size_t *len)
{
    g_autofree char *err = NULL;

    if (!gemu_file_read(path, USSE_MAX_FILE, bytes, len, &err)) {
        return shader_lex_error(lx, "cannot %s %s", what, err);
    }
    return true;
}

static bool load_words(ShaderLexer *lx, const char *path, const char *bytes,
                       size_t len, uint64_t **code, size_t *n)
{
    if (len == 0 || len % 8 || len / 8 > USSE_MAX_CODE) {
        return shader_lex_error(lx, "code file %s is %zu bytes: not a "
                                "non-empty whole number of 64-bit words "
                                "(at most 2^20)", path, len);
    }
    *n = len / 8;
    g_free(*code);          /* a gxp's, when both were given (an error) */
    *code = g_new(uint64_t, *n);
    for (size_t i = 0; i < *n; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) {
            w = w << 8 | (uint8_t)bytes[8 * i + b];
        }
        (*code)[i] = w;
    }
    return true;
}

/*
 * A listing line "PPPPP: WWWWWWWWWWWWWWWW  text" stands for its word:
 * the text is a disassembler's reading, which may be older than ours
 * (a bit it printed as [unk ...] may have a name now).  Other lines
 * stay assembly.
 */
static char *listing_to_words(const char *text)
{
    g_auto(GStrv) lines = gemu_strsplit_c(text, '\n');
    GString *out = g_string_new(NULL);

    for (int i = 0; lines[i]; i++) {
        const char *l = lines[i] + strspn(lines[i], " \t");
        size_t pc = strspn(l, "0123456789abcdefABCDEF");
        const char *w = l + pc + 1;

        w += pc && l[pc] == ':' ? strspn(w, " \t") : 0;
        if (pc && l[pc] == ':' &&
            strspn(w, "0123456789abcdefABCDEF") == 16 &&
            (!w[16] || g_ascii_isspace(w[16]))) {
            g_string_append_printf(out, ".word 0x%.16s\n", w);
        } else {
            g_string_append_printf(out, "%s\n", lines[i]);
        }
    }
    return g_string_free(out, FALSE);
}

static bool assemble(ShaderLexer *lx, const char *path, const char *src,
                     const char *what, uint64_t **code, size_t *n)
{
    g_autoptr(GArray) words = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autofree char *err = NULL;
    g_autofree char *text = listing_to_words(src);

    if (!usse_assemble(text, words, &err)) {
        return shader_lex_error(lx, "%s%s: %s", path, what, err);
    }
    if (!words->len || words->len > USSE_MAX_CODE) {
        return shader_lex_error(lx, "%s%s holds %s instructions", path,
                                what, words->len ? "over 2^20" : "no");
    }
    *n = words->len;
    g_free(*code);          /* a gxp's, when both were given (an error) */
    *code = (uint64_t *)g_array_free(g_steal_pointer(&words), FALSE);
    return true;
}

/*
 * A listing as gemu-dis prints a .gxp: "; primary program: ..." and
 * "; secondary program: ..." lines head the two programs' lines.
 */
static bool load_listing(ShaderLexer *lx, UState *s, const char *path,
                         char *text)
{
    static const char *const heads[2] = {
        "; primary program", "; secondary program"
    };
    char *at[2];

    for (int k = 0; k < 2; k++) {
        at[k] = strstr(text, heads[k]);
        if (!at[k] || (at[k] != text && at[k][-1] != '\n')) {
            return shader_lex_error(lx, "%s: no line starting '%s' (a "
                                    "listing is what gemu-dis -m usse "
                                    "prints for a .gxp)", path, heads[k]);
        }
    }
    /* each program runs from its head to the other's (or the end) */
    for (int k = 0; k < 2; k++) {
        char *other = at[!k];
        g_autofree char *part = g_strndup(at[k], other > at[k]
                                          ? (size_t)(other - at[k])
                                          : strlen(at[k]));
        g_autofree char *what = g_strdup_printf(" (%s)", heads[k] + 2);

        if (!assemble(lx, path, part, what,
                      k ? &s->secondary : &s->primary,
                      k ? &s->nsecondary : &s->nprimary)) {
            return false;
        }
    }
    return true;
}

static bool load_code(ShaderLexer *lx, UState *s, UCodeKind kind)
{
    g_autofree char *bytes = NULL;
    g_autofree char *path = arg_path(lx, s);
    size_t len;

    if (!path || !read_named(lx, path, "read code", &bytes, &len)) {
        return false;
    }
    if (kind == UCODE_GXP) {
        GxpProgram p;
        g_autofree char *err = NULL;

        if (!gxp_parse(bytes, len, &p, &err)) {
            return shader_lex_error(lx, "%s: %s", path, err);
        }
        /* a 'secondary' before the gxp is an error reported after */
        g_free(s->primary);
        g_free(s->secondary);
        s->nprimary = p.primary_count;
        s->primary = g_memdup2(p.primary, p.primary_count * 8);
        s->nsecondary = p.secondary_count;
        s->secondary = g_memdup2(p.secondary, p.secondary_count * 8);
        gxp_program_clear(&p);
        if (!s->nprimary) {
            return shader_lex_error(lx, "%s has no primary program", path);
        }
        return true;
    }
    if (kind == UCODE_LISTING || g_str_has_suffix(path, ".s") ||
        g_str_has_suffix(path, ".lst")) {
        if (strlen(bytes) != len) {
            return shader_lex_error(lx, "%s is not a text file", path);
        }
    }
    if (kind == UCODE_LISTING) {
        return load_listing(lx, s, path, bytes);
    }
    if (g_str_has_suffix(path, ".s") || g_str_has_suffix(path, ".lst")) {
        return kind == UCODE_SECONDARY
            ? assemble(lx, path, bytes, "", &s->secondary, &s->nsecondary)
            : assemble(lx, path, bytes, "", &s->primary, &s->nprimary);
    }
    return kind == UCODE_SECONDARY
        ? load_words(lx, path, bytes, len, &s->secondary, &s->nsecondary)
        : load_words(lx, path, bytes, len, &s->primary, &s->nprimary);
}

/* "NAME[N]" with NAME one of pa, sa, o, r; the bank or NONE. */
static UsseBank lex_bank(ShaderLexer *lx, const char *w)
{
    if (!strcmp(w, "pa")) {
        return USSE_BANK_PA;
    } else if (!strcmp(w, "sa")) {
        return USSE_BANK_SA;
    } else if (!strcmp(w, "o")) {
        return USSE_BANK_OUTPUT;
    } else if (!strcmp(w, "r")) {
        return USSE_BANK_TEMP;
    }
    return USSE_BANK_NONE;
}

static bool lex_reg_index(ShaderLexer *lx, const char *bank, uint32_t *n)
{
    uint64_t v;

    if (!shader_lex_char(lx, '[', "after the bank") ||
        !shader_lex_number(lx, "register", USSE_MAX_REGS - 1, &v) ||
        !shader_lex_char(lx, ']', "after the register")) {
        return false;
    }
    *n = v;
    return true;
}

/* "expect oN=B ...": thread @t's output N, as a colour byte, is B. */
static bool parse_expect(ShaderLexer *lx, UState *s, uint32_t t)
{
    if (t == UINT32_MAX) {
        return shader_lex_error(lx, "expect is per thread, not 'all'");
    }
    do {
        g_autofree char *w = shader_lex_word(lx);
        UsseExpect e = { .thread = t };
        char *end;
        uint64_t b;
        unsigned long r;

        if (w[0] != 'o' || !g_ascii_isdigit(w[1])) {
            return shader_lex_error(lx, "expect takes oN=BYTE items "
                                    "(found '%s')", w);
        }
        r = strtoul(w + 1, &end, 10);
        if (*end || r >= USSE_MAX_REGS) {
            return shader_lex_error(lx, "bad output register '%s' (o0 to "
                                    "o%d)", w, USSE_MAX_REGS - 1);
        }
        if (!shader_lex_char(lx, '=', "after the register") ||
            !shader_lex_number(lx, "the byte", 255, &b)) {
            return false;
        }
        e.reg = r;
        e.byte = b;
        g_array_append_val(s->ex.items, e);
    } while (!shader_lex_at_end(lx));
    return true;
}

static bool parse_text(UState *s, const char *file, const char *text,
                       int pass, char **errp);

/* "include FILE": its lines are read here, in each pass. */
static bool include_file(ShaderLexer *lx, UState *s, int pass)
{
    g_autofree char *path = arg_path(lx, s);
    g_autofree char *text = NULL;
    size_t len;

    if (!path) {
        return false;
    }
    if (s->depth >= USSE_MAX_INCLUDE) {
        return shader_lex_error(lx, "includes nest over %d deep",
                                USSE_MAX_INCLUDE);
    }
    if (!read_named(lx, path, "include", &text, &len)) {
        return false;
    }
    if (strlen(text) != len) {
        return shader_lex_error(lx, "%s is not a text file", path);
    }
    s->depth++;
    bool ok = parse_text(s, path, text, pass, lx->errp);
    s->depth--;
    return ok;
}

static bool parse_line(ShaderLexer *lx, UState *s, const char *dir,
                       int pass)
{
    uint64_t v;

    if (!strcmp(dir, "chip")) {
        g_autofree char *name = shader_lex_word(lx);
        if (pass) {
            return true;
        }
        if (!once(lx, &s->chip_line, "chip")) {
            return false;
        }
        if (strcmp(name, "sgx543")) {
            return shader_lex_error(lx, "a state file is for one chip "
                                    "('%s' here, sgx543 first)", name);
        }
        return shader_lex_end(lx, "the chip");
    }
    if (!strcmp(dir, "stage")) {
        g_autofree char *name = shader_lex_word(lx);
        if (pass) {
            return true;
        }
        if (!once(lx, &s->stage_line, "stage")) {
            return false;
        }
        if (!strcmp(name, "vertex")) {
            s->stage = USSE_STAGE_VERTEX;
        } else if (!strcmp(name, "fragment")) {
            s->stage = USSE_STAGE_FRAGMENT;
        } else {
            return shader_lex_error(lx, "unknown USSE stage '%s' (vertex, "
                                    "fragment)", name);
        }
        return shader_lex_end(lx, "the stage");
    }
    if (!strcmp(dir, "gxp") || !strcmp(dir, "code") ||
        !strcmp(dir, "listing")) {
        if (pass) {
            return true;
        }
        if (!once(lx, &s->code_line, "gxp/code/listing")) {
            return false;
        }
        s->code_kind = !strcmp(dir, "gxp") ? UCODE_GXP
            : !strcmp(dir, "code") ? UCODE_PRIMARY : UCODE_LISTING;
        return load_code(lx, s, s->code_kind);
    }
    if (!strcmp(dir, "secondary")) {
        if (pass) {
            return true;
        }
        if (!once(lx, &s->sec_line, "secondary")) {
            return false;
        }
        return load_code(lx, s, UCODE_SECONDARY);
    }
    if (!strcmp(dir, "tolerance")) {
        if (pass) {
            return true;
        }
        if (!once(lx, &s->tol_line, "tolerance") ||
            !shader_lex_number(lx, "the tolerance", 255, &v)) {
            return false;
        }
        s->ex.tolerance = v;
        return shader_lex_end(lx, "the tolerance");
    }
    if (!strcmp(dir, "rig")) {
        g_autofree char *kind = shader_lex_word(lx);
        uint64_t w, h;
        if (pass) {
            return true;
        }
        if (!once(lx, &s->rig_line, "rig")) {
            return false;
        }
        if (strcmp(kind, "corners")) {
            return shader_lex_error(lx, "unknown rig '%s' (corners W H)",
                                    kind);
        }
        if (!shader_lex_number(lx, "the width", 16384, &w) ||
            !shader_lex_number(lx, "the height", 16384, &h)) {
            return false;
        }
        if (!w || !h) {
            return shader_lex_error(lx, "an empty rig target");
        }
        s->ex.rig_w = w;
        s->ex.rig_h = h;
        return shader_lex_end(lx, "the rig");
    }
    if (!strcmp(dir, "include")) {
        return include_file(lx, s, pass);
    }
    if (!strcmp(dir, "threads")) {
        if (pass) {
            return true;
        }
        if (!once(lx, &s->threads_line, "threads") ||
            !shader_lex_number(lx, "the thread count", USSE_MAX_THREADS,
                               &v)) {
            return false;
        }
        if (v == 0) {
            return shader_lex_error(lx, "threads must be at least 1");
        }
        s->threads = v;
        return shader_lex_end(lx, "the thread count");
    }
    if (!pass) {
        return true;
    }
    /* second pass: words, helpers and dumps, checked against the shape */
    if (!strcmp(dir, "sa")) {
        uint32_t n, val;
        if (!lex_reg_index(lx, "sa", &n) || !shader_lex_char(lx, '=', "") ||
            !shader_lex_value(lx, &val)) {
            return false;
        }
        s->sa[n] = val;
        return shader_lex_end(lx, "the value");
    }
    if (!strcmp(dir, "vertex") && s->stage != USSE_STAGE_VERTEX) {
        return shader_lex_error(lx, "'vertex T' lines are for vertex "
                                "programs ('thread T' here)");
    }
    if (!strcmp(dir, "thread") || !strcmp(dir, "helper") ||
        !strcmp(dir, "vertex")) {
        bool helper = !strcmp(dir, "helper");
        uint32_t t;

        if (!helper && shader_lex_try(lx, "all")) {
            t = UINT32_MAX;
        } else {
            if (!shader_lex_number(lx, "the thread", UINT32_MAX, &v)) {
                return false;
            }
            if (v >= s->threads) {
                return shader_lex_error(lx, "thread %" PRIu64 " out of "
                                        "range (%u threads)", v, s->threads);
            }
            t = v;
        }
        if (helper) {
            if (s->stage != USSE_STAGE_FRAGMENT) {
                return shader_lex_error(lx, "helper threads are for "
                                        "fragment programs");
            }
            s->helper[t] = true;
            return shader_lex_end(lx, "the thread");
        }
        g_autofree char *w = shader_lex_word(lx);
        UPaWord pw = { .thread = t };
        if (!strcmp(w, "expect")) {
            return parse_expect(lx, s, t);
        }
        if (strcmp(w, "pa")) {
            return shader_lex_error(lx, "per-thread lines are pa[N] = V or "
                                    "expect oN=B ... (found '%s')", w);
        }
        if (!lex_reg_index(lx, "pa", &pw.reg) ||
            !shader_lex_char(lx, '=', "") ||
            !shader_lex_value(lx, &pw.value)) {
            return false;
        }
        g_array_append_val(s->pa, pw);
        return shader_lex_end(lx, "the value");
    }
    if (!strcmp(dir, "dump")) {
        g_autofree char *w = shader_lex_word(lx);
        UDump d = { .bank = lex_bank(lx, w) };
        uint64_t a, b;

        if (d.bank == USSE_BANK_NONE) {
            return shader_lex_error(lx, "dump what? '%s' (o, pa, r, sa)", w);
        }
        if (!shader_lex_char(lx, '[', "after the bank") ||
            !shader_lex_number(lx, "register", USSE_MAX_REGS - 1, &a)) {
            return false;
        }
        b = a + 1;
        if (shader_lex_try(lx, "..")) {
            if (!shader_lex_number(lx, "register", USSE_MAX_REGS, &b)) {
                return false;
            }
            if (b <= a) {
                return shader_lex_error(lx, "empty range %s[%" PRIu64 "..%"
                                        PRIu64 "]", w, a, b);
            }
        }
        if (!shader_lex_char(lx, ']', "after the range")) {
            return false;
        }
        d.first = a;
        d.last = b - 1;
        g_array_append_val(s->dumps, d);
        return shader_lex_end(lx, "the dump");
    }
    return shader_lex_error(lx, "unknown directive '%s' for sgx543", dir);
}

static void ustate_free(UState *s)
{
    g_free(s->primary);
    g_free(s->secondary);
    g_free(s->helper);
    g_array_free(s->pa, TRUE);
    g_array_free(s->dumps, TRUE);
    g_array_free(s->ex.items, TRUE);
}

static bool parse_text(UState *s, const char *file, const char *text,
                       int pass, char **errp)
{
    g_auto(GStrv) lines = gemu_strsplit_c(text, '\n');
    ShaderLexer lx = { .file = file, .errp = errp };

    for (int i = 0; lines[i]; i++) {
        g_autofree char *line = g_strdup(lines[i]);
        g_autofree char *dir = NULL;
        char *hash = strchr(line, '#');

        if (hash) {
            *hash = '\0';
        }
        lx.line = i + 1;
        lx.p = line;
        if (shader_lex_at_end(&lx)) {
            continue;
        }
        dir = shader_lex_word(&lx);
        if (!*dir) {
            g_autofree char *tok = shader_lex_peek_token(&lx);
            return shader_lex_error(&lx, "expected a directive, found "
                                    "'%s'", tok);
        }
        if (!parse_line(&lx, s, dir, pass)) {
            return false;
        }
    }
    return true;
}

static bool ustate_parse(UState *s, const char *text, char **errp)
{
    const char *file = strcmp(s->path, "-") ? s->path : "<stdin>";
    ShaderLexer lx = { .file = file, .errp = errp };

    if (!parse_text(s, file, text, 0, errp)) {
        return false;
    }
    lx.line = s->threads_line ? s->threads_line : 1;
    if (!s->code_line) {
        return shader_lex_error(&lx, "no program: give 'gxp FILE', "
                                "'code FILE' or 'listing FILE'");
    }
    if (s->sec_line && s->code_kind != UCODE_PRIMARY) {
        lx.line = s->sec_line;
        return shader_lex_error(&lx, "'secondary' goes with 'code' (a "
                                "gxp or listing has its own)");
    }
    if (!s->threads_line) {
        s->threads = s->stage == USSE_STAGE_FRAGMENT ? 4 : 1;
    }
    if (s->rig_line && (s->threads != 4 || s->stage != USSE_STAGE_VERTEX)) {
        lx.line = s->rig_line;
        return shader_lex_error(&lx, "'rig corners' is four vertices "
                                "(threads 4, stage vertex)");
    }
    if (s->stage == USSE_STAGE_FRAGMENT && s->threads % 4) {
        return shader_lex_error(&lx, "fragment threads come in "
                                "quads: %u is not a multiple of 4",
                                s->threads);
    }
    s->helper = g_new0(bool, s->threads);
    return parse_text(s, file, text, 1, errp);
}

static bool trace_cb(void *opaque, UsseRun *run, unsigned inst, uint32_t pc,
                     const UsseInsn *insn)
{
    g_autoptr(GString) line = g_string_new(NULL);

    usse_disasm_line(pc, insn->word, line);
    fprintf(stderr, "trace: %s %u %s\n",
            opaque ? "quad" : "thread", opaque ? inst / 4 : inst, line->str);
    return true;
}

static void print_trap(const UsseResult *res, const char *what)
{
    printf("trap: %s at 0x%08x (%s)\n", usse_error_name(res->error),
           res->pc, what);
    fflush(stdout);
    if (res->msg[0]) {
        fprintf(stderr, "gemu-shader: %s\n", res->msg);
    }
}

static void print_dumps(const UState *s, const UsseRun *run)
{
    for (guint i = 0; i < s->dumps->len; i++) {
        const UDump *d = &g_array_index(s->dumps, UDump, i);
        const char *name = usse_bank_name(d->bank);

        if (d->bank == USSE_BANK_SA) {
            for (uint32_t r = d->first; r <= d->last; r++) {
                printf("sa[%u] = 0x%08x\n", r, s->sa[r]);
            }
            continue;
        }
        for (unsigned t = 0; t < s->threads; t++) {
            if (run && usse_run_killed(run, t)) {
                continue;
            }
            for (uint32_t r = d->first; r <= d->last; r++) {
                printf("thread %u %s[%u] = 0x%08x\n", t, name, r,
                       run ? usse_run_reg(run, t, d->bank, r) : 0);
            }
        }
    }
}

int usse_shader_main(const char *path, const char *text, size_t len,
                     uint64_t max_insns, bool trace)
{
    UState s = { .path = path };
    g_autofree char *err = NULL;
    g_autofree uint32_t *pa = NULL;
    UsseProgram *prim = NULL, *sec = NULL;
    UsseRun *run = NULL;
    UsseEnv env = { 0 };
    UsseLaunch l = { 0 };
    int status = 0;

    s.pa = g_array_new(FALSE, FALSE, sizeof(UPaWord));
    s.dumps = g_array_new(FALSE, FALSE, sizeof(UDump));
    s.ex.items = g_array_new(FALSE, FALSE, sizeof(UsseExpect));
    if (strlen(text) != len) {
        fprintf(stderr, "gemu-shader: %s: not a text file (it holds a NUL "
                "byte)\n", path);
        ustate_free(&s);
        return 2;
    }
    if (!ustate_parse(&s, text, &err)) {
        fprintf(stderr, "gemu-shader: %s\n", err);
        ustate_free(&s);
        return 2;
    }

    env.stage = s.stage;
    env.sa = s.sa;
    env.sa_count = USSE_MAX_REGS;
    env.insn_budget = max_insns;
    if (trace) {
        env.trace = trace_cb;
        env.opaque = s.stage == USSE_STAGE_FRAGMENT ? &s : NULL;
    }

    if (s.nsecondary) {
        sec = usse_program_new(s.secondary, s.nsecondary);
        l.secondary = true;
        run = usse_run_new(&env, sec, &l, &err);
        if (usse_run_exec(run) != USSE_RUN_DONE) {
            print_trap(usse_run_result(run), "secondary program");
            status = 1;
        }
        usse_run_free(run);
        run = NULL;
    }
    if (status == 0) {
        pa = g_new0(uint32_t, (size_t)s.threads * USSE_MAX_REGS);
        for (guint i = 0; i < s.pa->len; i++) {
            const UPaWord *w = &g_array_index(s.pa, UPaWord, i);
            for (unsigned t = 0; t < s.threads; t++) {
                if (w->thread == UINT32_MAX || w->thread == t) {
                    pa[(size_t)t * USSE_MAX_REGS + w->reg] = w->value;
                }
            }
        }
        prim = usse_program_new(s.primary, s.nprimary);
        l = (UsseLaunch){ .instances = s.threads, .pa = pa,
                          .pa_words = USSE_MAX_REGS, .helper = s.helper };
        run = usse_run_new(&env, prim, &l, &err);
        if (!run) {
            fprintf(stderr, "gemu-shader: %s: %s\n", path, err);
            status = 2;
            goto out;
        }
        if (usse_run_exec(run) != USSE_RUN_DONE) {
            const UsseResult *res = usse_run_result(run);
            g_autofree char *what = g_strdup_printf("thread %u",
                                                    res->instance);
            print_trap(res, what);
            status = 1;
        }
        for (unsigned t = 0; t < s.threads; t++) {
            if (usse_run_killed(run, t)) {
                printf("thread %u killed\n", t);
            }
        }
    }
    print_dumps(&s, run);
    if (run && s.ex.items->len && !usse_expects_check(&s.ex, run) &&
        !status) {
        status = 1;
    }
out:
    usse_run_free(run);
    usse_program_free(prim);
    usse_program_free(sec);
    ustate_free(&s);
    return status;
}
