/*
 * SGX543 scene files: a command stream plus the memory it points to, in
 * a line-oriented text form (docs/scene-format.md).  The parser turns a
 * scene into memory blobs, register writes and command buffers; the
 * machine (system/sgx543.c) loads them into a device and kicks the CCB.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef BLOCK_SGX_SCENE_H
#define BLOCK_SGX_SCENE_H

#include "gemu/osdep.h"

#define SGX_SCENE_DEFAULT_MEMORY    (16u << 20)
#define SGX_SCENE_MAX_MEMORY        (256u << 20)

typedef struct SgxSceneBlob {
    uint32_t addr;
    GByteArray *data;
    unsigned line;
} SgxSceneBlob;

typedef struct SgxSceneReg {
    uint32_t offset, value;
} SgxSceneReg;

typedef struct SgxSceneCmd {
    uint32_t addr, size;        /* one TA command (CCB slot) each */
} SgxSceneCmd;

typedef struct SgxScene {
    uint32_t mem_size;
    GArray *blobs;              /* SgxSceneBlob, in file order */
    GArray *regs;               /* SgxSceneReg, in file order */
    GArray *cmds;               /* SgxSceneCmd, in file order */
} SgxScene;

/*
 * Parse scene text.  @dir is where "file" paths are relative to (NULL:
 * the current directory).  On error, NULL and *err = "line N: ...".
 * Blobs are checked to lie inside memory and not to overlap.
 */
SgxScene *sgx_scene_parse(const char *text, const char *dir, char **err);
void sgx_scene_free(SgxScene *scene);

/* Parse a register name ("USE_CODE_BASE_3", "BIF_CTRL") or offset. */
bool sgx_scene_reg_lookup(const char *name, uint32_t *offset);

#endif
