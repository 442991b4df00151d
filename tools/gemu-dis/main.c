/*
 * gemu-dis: disassemble shader code in envydis syntax.
 *
 *   gemu-dis [-m tesla] [-V VARIANT] [-O PROGTYPE] [-b] [-a BASE] [FILE]
 *
 * Input: whitespace-separated 32-bit hex words (0x optional) or, with -b,
 * raw little-endian binary; from FILE or stdin.
 *
 *   gemu-dis -m usse [-a PC] [FILE]
 *
 * USSE (SGX543): FILE is raw little-endian 64-bit words, or a .gxp
 * (recognised by its magic) whose primary and secondary programs are both
 * listed.  One instruction a line: PC (in instructions), word, text.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/usse.h"
#include "block/gxp.h"
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gemu-dis [-m tesla] [-V g80|g84|g200|mcp77|gt215]\n"
            "                [-O vp|gp|fp|cp] [-b] [-a BASE] [FILE]\n"
            "       gemu-dis -m usse [-a PC] [FILE]\n"
            "  -m ARCH     instruction set (tesla, usse)\n"
            "  -V VARIANT  ISA variant (default g84)\n"
            "  -O TYPE     program type (default cp)\n"
            "  -b          input is raw little-endian binary, not hex words\n"
            "  -a BASE     address of the first word (hex, default 0)\n");
}

static void usse_list(const uint64_t *w, uint32_t n, uint32_t base)
{
    g_autoptr(GString) line = g_string_new(NULL);

    for (uint32_t i = 0; i < n; i++) {
        g_string_truncate(line, 0);
        usse_disasm_line(base + i, w[i], line);
        puts(line->str);
    }
}

/* gemu-dis -m usse: a .gxp (by magic) or raw little-endian 64-bit words. */
static int usse_dis(const char *name, const char *data, size_t len,
                    uint32_t base)
{
    if (gxp_is_gxp(data, len)) {
        GxpProgram prog;
        g_autofree char *err = NULL;

        if (!gxp_parse(data, len, &prog, &err)) {
            fprintf(stderr, "gemu-dis: %s: %s\n", name, err);
            return 1;
        }
        printf("; %s: GXP %u.%u %s program\n", name, prog.major, prog.minor,
               prog.fragment ? "fragment" : "vertex");
        printf("; primary program: %u instructions at file offset 0x%x\n",
               prog.primary_count, prog.primary_off);
        usse_list(prog.primary, prog.primary_count, base);
        printf("; secondary program: %u instructions at file offset 0x%x\n",
               prog.secondary_count, prog.secondary_off);
        usse_list(prog.secondary, prog.secondary_count, base);
        gxp_program_clear(&prog);
        return 0;
    }
    if (len % 8) {
        fprintf(stderr, "gemu-dis: %s: %zu bytes is not a whole number of "
                "64-bit USSE instructions (nor a .gxp)\n", name, len);
        return 2;
    }
    g_autofree uint64_t *w = g_new0(uint64_t, len / 8 + 1);
    for (size_t i = 0; i < len / 8; i++) {
        const uint8_t *b = (const uint8_t *)data + i * 8;
        for (int k = 7; k >= 0; k--) {
            w[i] = w[i] << 8 | b[k];
        }
    }
    usse_list(w, len / 8, base);
    return 0;
}

/* Parse hex words; false with a message on a bad token. */
static bool parse_hex(const char *text, GArray *words, const char *name)
{
    const char *p = text;

    for (;;) {
        const char *start;
        uint64_t v = 0;
        int digits = 0;

        while (*p && (g_ascii_isspace(*p) || *p == ',')) {
            p++;
        }
        if (!*p) {
            return true;
        }
        start = p;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
        }
        while (g_ascii_isxdigit(*p)) {
            v = v * 16 + g_ascii_xdigit_value(*p++);
            digits++;
        }
        if (!digits || digits > 8 || (*p && !g_ascii_isspace(*p) &&
                                      *p != ',')) {
            int len = 0;
            while (start[len] && !g_ascii_isspace(start[len]) && len < 40) {
                len++;
            }
            fprintf(stderr, "gemu-dis: %s: not a 32-bit hex word: \"%.*s\"\n",
                    name, len, start);
            return false;
        }
        uint32_t w = v;
        g_array_append_val(words, w);
    }
}

int main(int argc, char **argv)
{
    const char *arch = "tesla";
    TeslaVariant var = TESLA_G84;
    TeslaProgType prog = TESLA_PROG_CP;
    bool binary = false;
    uint32_t base = 0;
    g_autofree char *data = NULL;
    gsize len = 0;
    g_autoptr(GError) gerr = NULL;
    g_autoptr(GArray) words = g_array_new(false, false, sizeof(uint32_t));
    const char *name;
    int c;

    while ((c = getopt(argc, argv, "m:V:O:ba:h")) != -1) {
        switch (c) {
        case 'm':
            arch = optarg;
            break;
        case 'V':
            if (!tesla_variant_parse(optarg, &var)) {
                fprintf(stderr, "gemu-dis: unknown variant \"%s\" (%s)\n",
                        optarg, tesla_variant_list());
                return 2;
            }
            break;
        case 'O':
            if (!tesla_prog_parse(optarg, &prog)) {
                fprintf(stderr, "gemu-dis: unknown program type \"%s\" "
                        "(%s)\n", optarg, tesla_prog_list());
                return 2;
            }
            break;
        case 'b':
            binary = true;
            break;
        case 'a': {
            char *end;
            unsigned long v = strtoul(optarg, &end, 16);
            if (!*optarg || *end || v > UINT32_MAX) {
                fprintf(stderr, "gemu-dis: bad base address \"%s\"\n",
                        optarg);
                return 2;
            }
            base = v;
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (strcmp(arch, "tesla") && strcmp(arch, "usse")) {
        fprintf(stderr, "gemu-dis: unsupported architecture \"%s\" "
                "(tesla, usse)\n", arch);
        return 2;
    }
    if (optind + 1 < argc) {
        usage(stderr);
        return 2;
    }
    if (optind < argc && strcmp(argv[optind], "-")) {
        name = argv[optind];
        if (!g_file_get_contents(name, &data, &len, &gerr)) {
            fprintf(stderr, "gemu-dis: %s\n", gerr->message);
            return 2;
        }
    } else {
        GString *s = g_string_new(NULL);
        char buf[4096];
        size_t n;
        name = "<stdin>";
        while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
            g_string_append_len(s, buf, n);
        }
        len = s->len;
        data = g_string_free(s, false);
    }
    if (!strcmp(arch, "usse")) {
        return usse_dis(name, data, len, base);
    }
    if (binary) {
        if (len % 4) {
            fprintf(stderr, "gemu-dis: %s: %zu bytes is not a whole number "
                    "of 32-bit words\n", name, (size_t)len);
            return 2;
        }
        for (gsize i = 0; i < len; i += 4) {
            const uint8_t *b = (const uint8_t *)data + i;
            uint32_t w = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
            g_array_append_val(words, w);
        }
    } else if (!parse_hex(data, words, name)) {
        return 2;
    }

    g_autoptr(GString) listing = g_string_new(NULL);
    tesla_disasm_listing(var, prog, (uint32_t *)words->data, words->len,
                         base, listing);
    fputs(listing->str, stdout);
    return 0;
}
