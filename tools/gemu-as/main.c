/*
 * gemu-as: assemble shader code written in envydis syntax.
 *
 *   gemu-as [-m tesla] [-V VARIANT] [-O PROGTYPE] [-x] [-o OUT] FILE.s
 *
 * Output: raw little-endian words to OUT ("-": stdout); with -x, or
 * without -o, hex words as gemu-dis reads them, one instruction a line.
 *
 *   gemu-as -m usse [-x] [-o OUT] FILE.s
 *
 * USSE (SGX543): one instruction a line as gemu-dis -m usse prints it
 * (listing addresses and words are skipped); output is 64-bit
 * little-endian words, or with -x 16-digit hex words.  There are no
 * labels: a line holding only a label or address is an error.
 *
 * Exit status: 0; 1 for an error in the source, reported as
 * "FILE:LINE: message" (long text cut short); 2 for a usage, input or
 * output error.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/usse.h"
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gemu-as [-m tesla] [-V g80|g84|g200|mcp77|gt215]\n"
            "               [-O vp|gp|fp|cp] [-x] [-o OUT] FILE.s\n"
            "       gemu-as -m usse [-x] [-o OUT] FILE.s\n"
            "  -m ARCH     instruction set (tesla, usse)\n"
            "  -V VARIANT  ISA variant (default g84)\n"
            "  -O TYPE     program type (default cp)\n"
            "  -o OUT      write raw little-endian words to OUT (- = stdout)\n"
            "  -x          write hex words instead (default without -o)\n");
}

/* An assembler error "line N: msg" is reported as "FILE:N: msg". */
static void report_error(const char *name, const char *err)
{
    int lineno, off = 0;

    if (sscanf(err, "line %d: %n", &lineno, &off) == 1 && off) {
        fprintf(stderr, "%s:%d: %s\n", name, lineno, err + off);
    } else {
        fprintf(stderr, "%s: %s\n", name, err);
    }
}

/* The output: OUT, or stdout for none or "-".  NULL (reported) on error. */
static FILE *open_output(const char *outname, bool text)
{
    FILE *f;

    if (!outname || !strcmp(outname, "-")) {
        return stdout;
    }
    f = fopen(outname, text ? "w" : "wb");
    if (!f) {
        fprintf(stderr, "gemu-as: %s: %s\n", outname, strerror(errno));
    }
    return f;
}

/* Close (or flush stdout); exit status 0, or 2 after reporting an error. */
static int close_output(FILE *f, const char *outname)
{
    if ((f != stdout && fclose(f)) || (f == stdout && fflush(f))) {
        fprintf(stderr, "gemu-as: %s: %s\n", outname ? outname : "-",
                strerror(errno));
        return 2;
    }
    return 0;
}

/* gemu-as -m usse: 64-bit words out. */
static int usse_as(const char *name, const char *src, const char *outname,
                   bool hex)
{
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint64_t));
    g_autofree char *err = NULL;
    FILE *f;

    if (!usse_assemble(src, words, &err)) {
        report_error(name, err);
        return 1;
    }
    f = open_output(outname, hex || !outname);
    if (!f) {
        return 2;
    }
    for (guint i = 0; i < words->len; i++) {
        uint64_t w = g_array_index(words, uint64_t, i);
        if (hex || !outname) {
            fprintf(f, "%016" PRIx64 "\n", w);
        } else {
            uint8_t b[8];
            for (int k = 0; k < 8; k++) {
                b[k] = w >> (8 * k);
            }
            fwrite(b, 1, 8, f);
        }
    }
    return close_output(f, outname);
}

int main(int argc, char **argv)
{
    const char *arch = "tesla";
    TeslaVariant var = TESLA_G84;
    TeslaProgType prog = TESLA_PROG_CP;
    const char *outname = NULL, *name;
    bool hex = false;
    g_autofree char *src = NULL;
    gsize len = 0;
    g_autofree char *err = NULL;
    g_autoptr(GError) gerr = NULL;
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    int c;

    while ((c = getopt(argc, argv, "m:V:O:o:xh")) != -1) {
        switch (c) {
        case 'm':
            arch = optarg;
            break;
        case 'V':
            if (!tesla_variant_parse(optarg, &var)) {
                fprintf(stderr, "gemu-as: unknown variant \"%s\" (%s)\n",
                        optarg, tesla_variant_list());
                return 2;
            }
            break;
        case 'O':
            if (!tesla_prog_parse(optarg, &prog)) {
                fprintf(stderr, "gemu-as: unknown program type \"%s\" "
                        "(%s)\n", optarg, tesla_prog_list());
                return 2;
            }
            break;
        case 'o':
            outname = optarg;
            break;
        case 'x':
            hex = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (strcmp(arch, "tesla") && strcmp(arch, "usse")) {
        fprintf(stderr, "gemu-as: unsupported architecture \"%s\" "
                "(tesla, usse)\n", arch);
        return 2;
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 2;
    }
    name = argv[optind];
    if (!strcmp(name, "-")) {
        GString *s = g_string_new(NULL);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
            g_string_append_len(s, buf, n);
        }
        len = s->len;
        src = g_string_free(s, false);
        name = "<stdin>";
    } else if (!g_file_get_contents(name, &src, &len, &gerr)) {
        fprintf(stderr, "gemu-as: %s\n", gerr->message);
        return 2;
    }
    /* a NUL byte would end the text early, silently */
    if (strlen(src) != len) {
        unsigned line = 1;
        for (const char *p = src; *p; p++) {
            line += *p == '\n';
        }
        fprintf(stderr, "%s:%u: a NUL byte: not a text file\n", name, line);
        return 1;
    }

    if (!strcmp(arch, "usse")) {
        return usse_as(name, src, outname, hex);
    }
    if (!tesla_assemble(var, prog, src, words, &err)) {
        report_error(name, err);
        return 1;
    }

    FILE *f = open_output(outname, hex || !outname);
    if (!f) {
        return 2;
    }
    const uint32_t *w = (const uint32_t *)words->data;
    for (guint i = 0; i < words->len;) {
        if (hex || !outname) {
            /* hex: one instruction a line, as gemu-dis reads them */
            if ((w[i] & 1) && i + 1 < words->len) {
                fprintf(f, "%08x %08x\n", w[i], w[i + 1]);
                i += 2;
            } else {
                fprintf(f, "%08x\n", w[i]);
                i++;
            }
        } else {
            uint8_t b[4] = { w[i], w[i] >> 8, w[i] >> 16, w[i] >> 24 };
            fwrite(b, 1, 4, f);
            i++;
        }
    }
    return close_output(f, outname);
}
