/*
 * SGX543 device internals, shared by the files of hw/sgx543/.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_PRIV_H
#define HW_SGX543_PRIV_H

#include "hw/sgx543/sgx543.h"
#include "hw/sgx543/pipeline.h"
#include "hw/sgx543/texture.h"
#include "target/usse/exec.h"

#define SGX_MAX_ATTRIBS     16
#define SGX_MAX_STREAMS     16
#define SGX_MAX_FINPUTS     16
#define SGX_NUM_UB          15      /* 0..13 named, 14 default */
#define SGX_NUM_TEX         16
#define SGX_MAX_JUMPS       64      /* per command, against JUMP loops */
#define SGX_MAX_SURFACE     4096
#define SGX_MAX_STRIDE      16384   /* pixels or texels */
#define SGX_MAX_POINT_SIZE  1024.0f  /* pixels (UNVERIFIED) */
#define SGX_MAX_LINE_WIDTH  64      /* SET_RASTER_STATE (UNVERIFIED) */
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
    uint32_t w[4];              /* SceGxmTexture control words */
    SgxTexture tex;             /* decoded */
    uint32_t sa_reg;            /* SA copy of the words, or ~0 */
} SgxTexUnit;

typedef struct SgxRaster {
    unsigned cull;
    SgxCompare depth_func;
    bool depth_write;
    SgxCompare stencil_func;
    SgxStencilOp stencil_fail, depth_fail, depth_pass;
    uint8_t stencil_cmp_mask, stencil_write_mask, stencil_ref;
    float point_width;          /* pixels: lines, and points without PSIZE */
} SgxRaster;

typedef struct SgxViewport {
    bool enable;
    float xs, xo, ys, yo, zs, zo;
} SgxViewport;

struct Sgx543State {
    DeviceState parent_obj;
    DmaAddressSpace dma;        /* device memory (device-physical) */
    MemoryRegion mmio;          /* BAR0 */
    IRQLine irq;                /* MASTER_INTERRUPT */
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
    SgxSurfaceType color_type;
    /* multisampling: the samples live in the device (as in SGX's tile
       buffer) and are resolved into the colour surface at END_SCENE */
    unsigned msaa;              /* SceGxmMultisampleMode: 0, 1 2x, 2 4x */
    const RasterSamples *pattern;
    unsigned sx, sy;            /* sample grid per pixel (depth surface) */
    uint8_t *samples;           /* width x height x count, colour format */
    size_t samples_size;
    uint8_t *shadow;            /* the last frame, linear, for the console */
    size_t shadow_size;
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

/* The colour surface: bytes it spans, a pixel's byte offset. */
static inline uint64_t sgx_color_bytes(const Sgx543State *s)
{
    return sgx_surface_size(s->color_type, s->color_stride, s->width,
                            s->height, sgx_color_bpp(s->color_format));
}

static inline size_t sgx_color_offset(const Sgx543State *s, unsigned x,
                                      unsigned y)
{
    return sgx_surface_pixel(s->color_type, s->color_stride, s->height, x, y)
           * sgx_color_bpp(s->color_format);
}

/* A sample of pixel (x, y) in the device's sample buffer (MSAA). */
static inline uint8_t *sgx_sample_ptr(const Sgx543State *s, unsigned x,
                                      unsigned y, unsigned sample)
{
    return s->samples + (((size_t)y * s->width + x) * s->pattern->count
                         + sample) * sgx_color_bpp(s->color_format);
}

/* Depth/stencil element of sample @sample of pixel (x, y): with MSAA the
   depth surface holds the sample grid (sx x sy a pixel). */
static inline void sgx_depth_coord(const Sgx543State *s, unsigned x,
                                   unsigned y, unsigned sample,
                                   unsigned *dx, unsigned *dy)
{
    *dx = x * s->sx + sample % s->sx;
    *dy = y * s->sy + sample / s->sx;
}

static inline uint64_t sgx_depth_bytes(const Sgx543State *s)
{
    return ((uint64_t)s->depth_stride * (s->height * s->sy - 1)
            + s->width * s->sx) * 4;
}
/* transfer.c: the TRANSFER_* packets */
void sgx_pkt_transfer_copy(Sgx543State *s, const uint32_t *p, unsigned n);
void sgx_pkt_transfer_downscale(Sgx543State *s, const uint32_t *p,
                                unsigned n);
void sgx_pkt_transfer_fill(Sgx543State *s, const uint32_t *p, unsigned n);

/* draw.c */
void sgx_draw(Sgx543State *s, unsigned prim, unsigned index_format,
              uint32_t index_va, uint32_t count, uint32_t instances);
/* MSAA: average the samples into the colour surface (mapped at @color) */
void sgx_resolve(Sgx543State *s, uint8_t *color);
void sgx_clear(Sgx543State *s, const float color[4], float depth,
               uint8_t stencil, unsigned flags, int x, int y, int w, int h);

#endif
