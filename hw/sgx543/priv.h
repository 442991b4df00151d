/*
 * SGX543 device internals, shared by the files of hw/sgx543/.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_PRIV_H
#define HW_SGX543_PRIV_H

#include "hw/sgx543/sgx543.h"
#include "hw/sgx543/pipeline.h"
#include "target/usse/exec.h"

#define SGX_MAX_ATTRIBS     16
#define SGX_MAX_STREAMS     16
#define SGX_MAX_FINPUTS     16
#define SGX_NUM_UB          15      /* 0..13 named, 14 default */
#define SGX_NUM_TEX         16
#define SGX_MAX_JUMPS       64      /* per command, against JUMP loops */
#define SGX_MAX_SURFACE     4096
#define SGX_MAX_STRIDE      16384   /* pixels or texels */
#define SGX_SHADER_BUDGET   (1u << 20)  /* instance-insns per instance */

typedef struct SgxProgram {
    bool valid;
    UsseProgram *primary;
    UsseProgram *secondary;     /* NULL: none */
    unsigned sa_count;
    unsigned vout;              /* vertex: o-registers read per vertex */
    unsigned flags;             /* SGX_PROG_* */
    unsigned out_reg, out_fmt;  /* fragment output */
    unsigned ninputs;
    uint32_t inputs[SGX_MAX_FINPUTS];
    int default_ub_sa;          /* GXP: SA base of container 14, or -1 */
} SgxProgram;

typedef struct SgxAttrib {
    uint16_t stream, offset;
    uint8_t format, comps;
    uint16_t reg;
} SgxAttrib;

typedef struct SgxStream {
    uint32_t base;
    uint16_t stride, index_source;
} SgxStream;

typedef struct SgxUniformBuf {
    bool valid;
    uint32_t base, size, sa_reg;
} SgxUniformBuf;

typedef struct SgxTexUnit {
    bool valid;
    uint32_t w[4];
    uint32_t sa_reg;            /* SA copy of the words, or ~0 */
} SgxTexUnit;

typedef struct SgxRaster {
    unsigned cull;
    SgxCompare depth_func;
    bool depth_write;
    SgxCompare stencil_func;
    SgxStencilOp stencil_fail, depth_fail, depth_pass;
    uint8_t stencil_cmp_mask, stencil_write_mask, stencil_ref;
} SgxRaster;

typedef struct SgxViewport {
    bool enable;
    float xs, xo, ys, yo, zs, zo;
} SgxViewport;

struct Sgx543State {
    SgxMemory mem;
    SgxIrqFn irq;
    void *irq_opaque;
    bool irq_level;
    DisplayConsole *con;

    /* registers */
    uint32_t clkgatectl;
    uint32_t soft_reset;
    uint32_t event_status, event_enable;
    uint32_t event_status2, event_enable2;
    uint64_t timer;
    uint32_t code_base[SGX_USE_CODE_BASE_NUM];
    uint32_t bif_ctrl, bif_int_stat, bif_fault, dir_list_base0;
    uint32_t ccb_base, ccb_ctl;
    uint32_t err_info, err_slot, err_pc, err_code;

    /* command processor */
    uint32_t cur_slot;          /* CCB slot being run, for EMU_ERR_SLOT */
    uint32_t cur_pkt;           /* byte offset of the current packet */
    bool waiting;               /* a WAIT stopped the queue */
    uint32_t wait_va, wait_end; /* where to resume */
    uint32_t wait_cmd[8];       /* the CCB slot it stopped */
    bool error;                 /* an error in the current command */

    /* scene state */
    bool in_scene;
    uint32_t color_base, color_stride, color_format, width, height;
    uint32_t depth_base, depth_format, depth_stride;
    SgxProgram prog[2];
    SgxAttrib attribs[SGX_MAX_ATTRIBS];
    unsigned nattribs;
    SgxStream streams[SGX_MAX_STREAMS];
    unsigned nstreams;
    SgxUniformBuf ub[2][SGX_NUM_UB];
    SgxTexUnit tex[2][SGX_NUM_TEX];
    SgxBlendState blend;
    SgxRaster raster;
    SgxViewport viewport;

    uint64_t draws, frames;
};

/* sgx543.c */
void sgx_raise_error(Sgx543State *s, SgxErrCode code, const char *fmt, ...)
    GEMU_PRINTF(3, 4);
void sgx_raise_event(Sgx543State *s, uint32_t bits);
bool sgx_dma_read(Sgx543State *s, uint32_t va, void *buf, uint32_t len);
bool sgx_dma_write(Sgx543State *s, uint32_t va, const void *buf,
                   uint32_t len);
/* A host pointer to @len bytes at @va if they are contiguous, else NULL
   (an MMU fault is raised).  Sizes are 64-bit: callers compute surface
   sizes from guest values without overflow. */
uint8_t *sgx_dma_map(Sgx543State *s, uint32_t va, uint64_t len, bool write);

/* cmd.c */
void sgx_cmd_reset(Sgx543State *s);
/* Run packets from @va to @end; false if stopped by a WAIT. */
bool sgx_cmd_run(Sgx543State *s, uint32_t va, uint32_t end);
void sgx_program_clear(SgxProgram *p);

/* draw.c */
void sgx_draw(Sgx543State *s, unsigned prim, unsigned index_format,
              uint32_t index_va, uint32_t count, uint32_t instances);
void sgx_clear(Sgx543State *s, const float color[4], float depth,
               uint8_t stencil, unsigned flags, int x, int y, int w, int h);
void sgx_sample_texture(Sgx543State *s, const uint32_t w[4],
                        const float coord[2], float out[4]);

#endif
