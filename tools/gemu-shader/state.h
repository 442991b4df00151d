/*
 * gemu-shader: the state file (what to run, with which inputs, and what to
 * print afterwards).  docs/tools/gemu-shader.md is the user's reference.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_STATE_H
#define GEMU_SHADER_STATE_H

#include "gemu/osdep.h"
#include "target/tesla.h"
#include "target/tesla/exec.h"

/* Limits a state file is checked against (hardware limits where known). */
#define SHADER_SPACE_BYTES      0x10000u    /* c[] a[] v[] p[] o[]: 16-bit */
#define SHADER_MAX_SHARED       0x4000u     /* "shared": s[] per block */
#define SHADER_SHARED_HEADER    0x14u       /* compute launch words in s[] */
#define SHADER_MAX_LOCAL        0x10000u    /* l[] per thread */
#define SHADER_DEFAULT_LOCAL    0x1000u     /* enough for usual spills */
#define SHADER_MAX_CODE         0x1000000u  /* 24-bit code space */
#define SHADER_MAX_THREADS      0x10000u    /* vertex/geometry/fragment */
#define SHADER_MAX_BLOCK_THREADS 512u       /* compute block */
#define SHADER_MAX_GSIZE        0x40000000u /* g[] bytes gemu-shader backs */

/* One initial word of a per-thread input space (a[] or v[]). */
typedef struct ShaderThreadWord {
    uint32_t thread;
    uint32_t addr;
    uint32_t value;
    int line;
} ShaderThreadWord;

/* One initial word of a shared space (p[], s[]). */
typedef struct ShaderWord {
    uint32_t addr;
    uint32_t value;
    int line;
} ShaderWord;

typedef enum ShaderDumpKind {
    SHADER_DUMP_OUT,        /* o[A..B], per thread */
    SHADER_DUMP_REG,        /* $rA..$rB, per thread */
    SHADER_DUMP_GLOBAL,     /* gK[A..B] */
} ShaderDumpKind;

typedef struct ShaderDump {
    ShaderDumpKind kind;
    unsigned idx;           /* gK: K */
    uint32_t start;         /* bytes A (o[], g[]) or register A */
    uint32_t end;           /* bytes B exclusive, or register B inclusive */
    int line;
} ShaderDump;

typedef struct ShaderGlobal {
    int line;               /* where it was declared; 0: not declared */
    uint32_t size;
    uint8_t *data;
} ShaderGlobal;

typedef struct ShaderState {
    char *path;             /* the state file, as named by the user */

    TeslaVariant chip;
    TeslaProgType stage;
    char *code_path;        /* resolved */
    char *code_src;         /* the text, when code_path is a .s file */
    uint32_t *code;
    size_t code_words;
    unsigned gprs;

    uint8_t *cspace[TESLA_NUM_CSPACES];     /* NULL: never written */
    uint32_t cspace_size[TESLA_NUM_CSPACES];

    unsigned threads;       /* vertex/geometry/fragment */
    unsigned block[3];
    unsigned grid[3];
    uint32_t shared;        /* s[] bytes per block, header included */
    uint32_t local;         /* l[] bytes per thread */

    GArray *inputs;         /* ShaderThreadWord: a[] or v[] */
    GArray *pwords;         /* ShaderWord: p[] (geometry) */
    GArray *swords;         /* ShaderWord: s[] (compute, >= 0x14) */
    ShaderGlobal g[TESLA_NUM_GSPACES];
    GArray *dumps;          /* ShaderDump, in file order */

    /* Where each directive was given (0: not given), for messages. */
    int chip_line, stage_line, code_line, gprs_line, threads_line;
    int block_line, grid_line, shared_line, local_line;
} ShaderState;

/* The line lexer state files are read with (state.c; usse.c uses it). */
typedef struct ShaderLexer {
    const char *file;       /* for messages */
    int line;
    const char *p;          /* cursor in the line (comment stripped) */
    char **errp;
} ShaderLexer;

/* "FILE:LINE: message" into *errp (the first error wins); false. */
bool shader_lex_error(ShaderLexer *lx, const char *fmt, ...) GEMU_PRINTF(2, 3);
void shader_lex_skip_ws(ShaderLexer *lx);
bool shader_lex_at_end(ShaderLexer *lx);
char *shader_lex_peek_token(ShaderLexer *lx);
bool shader_lex_end(ShaderLexer *lx, const char *what);
bool shader_lex_char(ShaderLexer *lx, char c, const char *what);
bool shader_lex_try(ShaderLexer *lx, const char *s);
/* A directive or name: letters, digits, '_' and '-'.  "" if none. */
char *shader_lex_word(ShaderLexer *lx);
/* An unsigned number (hex or decimal), at most @max. */
bool shader_lex_number(ShaderLexer *lx, const char *what, uint64_t max,
                       uint64_t *out);
/* A 32-bit value: number, negative decimal, or float with an 'f'. */
bool shader_lex_value(ShaderLexer *lx, uint32_t *out);

/* The whole state file ("-": stdin); NULL with *errp on failure. */
char *shader_read_input(const char *path, size_t *len, char **errp);

/* Does the state file say "chip sgx543" (a USSE run, see usse.c)? */
bool shader_text_is_usse(const char *text);

/*
 * Parse the state file @path ("-" is stdin; code paths are then relative
 * to the working directory), load the code, and check everything against
 * the chip and stage.  On error returns NULL with *errp set to a message
 * "FILE:LINE: what is wrong".
 */
ShaderState *shader_state_load(const char *path, char **errp);
/* The same, with the file's @text (@len bytes) already read. */
ShaderState *shader_state_parse(const char *path, const char *text,
                                size_t len, char **errp);
void shader_state_free(ShaderState *s);

/* Threads the launch has (3D: threads; compute: block x grid). */
unsigned shader_state_threads(const ShaderState *s);

#endif
