/*
 * GXP: the PS Vita's compiled shader container (SceGxmProgram), as laid
 * out in sgx543.md §2.  The parser checks every offset against the file
 * and copies the programs out, so a truncated or corrupt file gives an
 * error, never a bad read.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef BLOCK_GXP_H
#define BLOCK_GXP_H

#include "gemu/osdep.h"

#define GXP_HEADER_SIZE 0x9c

/* program_flags bits */
#define GXP_FLAG_FRAGMENT       (1u << 0)
#define GXP_FLAG_DISCARD        (1u << 3)
#define GXP_FLAG_DEPTH_REPLACE  (1u << 4)
#define GXP_FLAG_NATIVE_COLOR   (1u << 6)

typedef enum GxpParamCategory {
    GXP_PARAM_ATTRIBUTE = 0,
    GXP_PARAM_UNIFORM = 1,
    GXP_PARAM_SAMPLER = 2,
    GXP_PARAM_AUX_SURFACE = 3,
    GXP_PARAM_UNIFORM_BUFFER = 4,
} GxpParamCategory;

typedef struct GxpParam {
    char *name;
    uint8_t category;       /* GxpParamCategory */
    uint8_t type;           /* 0 F32, 1 F16, 2 C10, 3 U32, ... 9 aggregate */
    uint8_t comps;
    uint8_t container;
    uint8_t semantic;
    uint8_t semantic_index;
    uint32_t array_size;
    uint32_t resource;      /* PA register / dword in container / unit */
} GxpParam;

typedef struct GxpContainer {
    uint16_t index;         /* 0..13 BUFFERn, 14 DEFAULT, ... 19 DATA */
    uint16_t base_sa;
    uint16_t size;          /* dwords */
} GxpContainer;

typedef struct GxpProgram {
    uint8_t major, minor;
    uint16_t sdk_version;
    uint32_t size;          /* the header's size field */
    uint32_t flags;         /* program_flags */
    bool fragment;
    uint16_t pa_count, sa_count;
    uint32_t temp_count;
    uint16_t phase_count;
    uint32_t primary_off, secondary_off;    /* file offsets of the code */
    uint32_t primary_count, secondary_count;
    uint64_t *primary;      /* instructions (host order) */
    uint64_t *secondary;
    uint32_t nparams;
    GxpParam *params;
    uint32_t ncontainers;
    GxpContainer *containers;
} GxpProgram;

/* Does the buffer start with the GXP magic "GXP\0"? */
bool gxp_is_gxp(const void *data, size_t size);

/*
 * Parse a GXP file.  On success fill @prog (free with gxp_program_clear);
 * on failure *err (g_free) says what is wrong and @prog holds nothing.
 */
bool gxp_parse(const void *data, size_t size, GxpProgram *prog, char **err);

void gxp_program_clear(GxpProgram *prog);

#endif
