/*
 * The 3D object (G80_3D 0x5097, G84_3D 0x8297, G200_3D 0x8397,
 * GT215_3D 0x8597, MCP89_3D 0x8697): the state 3d.c keeps per channel
 * and the method table of 3d-names.c (envytools rnndb
 * graph/g80_3d.xml).  Drawing is not modelled yet; the pipeline will
 * read its state from NV50Gr3dState and, for what 3D shares with
 * compute (code segments, constant buffers, textures), from the
 * channel's NV50GrShared (gr.h).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_GR_3D_H
#define HW_NV50_GR_3D_H

#include "hw/nv50/gr/gr.h"

/* Which 3D classes have a method (NV50Gr3dMthd.classes). */
#define NV50_3D_G80     0x01u
#define NV50_3D_G84     0x02u
#define NV50_3D_G200    0x04u
#define NV50_3D_GT215   0x08u
#define NV50_3D_MCP89   0x10u

/* One method, or an array of methods, of g80_3d.xml. */
typedef struct NV50Gr3dMthd {
    uint16_t mthd;              /* the first (index 0) */
    uint8_t count;              /* array length, 1 for a single method */
    uint8_t stride;             /* bytes between elements */
    uint8_t classes;            /* NV50_3D_* bits */
    const char *name;           /* envytools' name, without NV50_3D_ */
} NV50Gr3dMthd;

/*
 * The entry of g80_3d.xml holding @mthd (0x180-0x1ffc) and the array
 * index in *@index, or NULL if no 3D class has that method.  Methods
 * below 0x180 are the common ones of gr.h.
 */
const NV50Gr3dMthd *nv50_3d_mthd_find(uint32_t mthd, unsigned *index);

#define NV50_3D_MTHD_SPACE      0x2000

/* Methods with side effects (g80_3d.xml names). */
#define NV50_3D_DMA_QUERY               0x0188
#define NV50_3D_DMA_CODE_CB             0x0198
#define NV50_3D_DMA_TSC                 0x019c
#define NV50_3D_DMA_TIC                 0x01a0
#define NV50_3D_DMA_TEXTURE             0x01a4
#define NV50_3D_VERTEX_BUFFER_FIRST     0x0d74
#define NV50_3D_VERTEX_BUFFER_COUNT     0x0d78
#define NV50_3D_CB_ADDR                 0x0f00
#define NV50_3D_CB_DATA(i)              (0x0f04 + (i) * 4)
#define NV50_3D_CB_DATA__LEN            16
#define NV50_3D_GP_ADDRESS_HIGH         0x0f70
#define NV50_3D_GP_ADDRESS_LOW          0x0f74
#define NV50_3D_VP_ADDRESS_HIGH         0x0f7c
#define NV50_3D_VP_ADDRESS_LOW          0x0f80
#define NV50_3D_FP_ADDRESS_HIGH         0x0fa4
#define NV50_3D_FP_ADDRESS_LOW          0x0fa8
#define NV50_3D_LINKED_TSC              0x1234
#define NV50_3D_DRAW_TFB_BYTES          0x123c
#define NV50_3D_CB_DEF_ADDRESS_HIGH     0x1280
#define NV50_3D_CB_DEF_ADDRESS_LOW      0x1284
#define NV50_3D_CB_DEF_SET              0x1288
#define NV50_3D_VB_ELEMENT_U8           0x1304
#define NV50_3D_TEX_LIMITS(i)           (0x13b4 + (i) * 4)
#define NV50_3D_BIND_TSC(i)             (0x1444 + (i) * 8)
#define NV50_3D_BIND_TIC(i)             (0x1448 + (i) * 8)
#define NV50_3D_COUNTER_RESET           0x1530
#define NV50_3D_COND_ADDRESS_HIGH       0x1550
#define NV50_3D_COND_ADDRESS_LOW        0x1554
#define NV50_3D_COND_MODE               0x1558
#define NV50_3D_TSC_ADDRESS_HIGH        0x155c
#define NV50_3D_TSC_ADDRESS_LOW         0x1560
#define NV50_3D_TSC_LIMIT               0x1564
#define NV50_3D_TIC_ADDRESS_HIGH        0x1574
#define NV50_3D_TIC_ADDRESS_LOW         0x1578
#define NV50_3D_TIC_LIMIT               0x157c
#define NV50_3D_VERTEX_BEGIN_D3D        0x15d4
#define NV50_3D_VERTEX_END_D3D          0x15d8
#define NV50_3D_VERTEX_BEGIN_GL         0x15dc
#define NV50_3D_VERTEX_END_GL           0x15e0
#define NV50_3D_VB_ELEMENT_U32          0x15e8
#define NV50_3D_VB_ELEMENT_U16          0x15f0
#define NV50_3D_VERTEX_DATA             0x1640
#define NV50_3D_SET_PROGRAM_CB          0x1694
#define NV50_3D_STRMOUT_OFFSET(i)       (0x1780 + (i) * 4)
#define NV50_3D_CLEAR_BUFFERS           0x19d0
#define NV50_3D_QUERY_ADDRESS_HIGH      0x1b00
#define NV50_3D_QUERY_ADDRESS_LOW       0x1b04
#define NV50_3D_QUERY_SEQUENCE          0x1b08
#define NV50_3D_QUERY_GET               0x1b0c

/* QUERY_GET fields */
#define NV50_3D_QUERY_GET_MODE_MASK     0x00000003u
#define NV50_3D_QUERY_GET_MODE_WRITE_UNK0 0
#define NV50_3D_QUERY_GET_MODE_SYNC     1
#define NV50_3D_QUERY_GET_MODE_WRITE_UNK2 2
#define NV50_3D_QUERY_GET_UNK4          0x00000010u
#define NV50_3D_QUERY_GET_INDEX_SHIFT   5          /* G200_3D- */
#define NV50_3D_QUERY_GET_UNIT_SHIFT    12
#define NV50_3D_QUERY_GET_SYNC_COND_GREATER 0x00010000u
#define NV50_3D_QUERY_GET_INTR          0x00100000u
#define NV50_3D_QUERY_GET_TYPE_COUNTER  0x00800000u
#define NV50_3D_QUERY_GET_SELECT_SHIFT  24
#define NV50_3D_QUERY_GET_SHORT         0x10000000u

/* QUERY_SELECT (TYPE QUERY) */
#define NV50_3D_QUERY_ZERO              0x0
#define NV50_3D_QUERY_SAMPLECNT         0x1
#define NV50_3D_QUERY_STRMOUT_NO_OVERFLOW 0x2
#define NV50_3D_QUERY_STRMOUT_DROPPED_PRIMITIVES 0x3   /* G200_3D- */
#define NV50_3D_QUERY_STRMOUT_VERTICES  0x4             /* G200_3D- */
#define NV50_3D_QUERY_ZCULL_STAT0       0x5             /* .. 0x8 */
#define NV50_3D_QUERY_RT_UNK14          0xc             /* G200_3D- */
#define NV50_3D_QUERY_STRMOUT_OFFSET    0xd             /* G200_3D- */

/* COUNTER_SELECT (TYPE COUNTER), also NV50Gr3dState.counter[] */
#define NV50_3D_COUNTER_VFETCH_VERTICES         0x0
#define NV50_3D_COUNTER_VFETCH_PRIMITIVES       0x1
#define NV50_3D_COUNTER_VP_LAUNCHES             0x2
#define NV50_3D_COUNTER_GP_LAUNCHES             0x3
#define NV50_3D_COUNTER_GP_PRIMITIVES_OUT       0x4
#define NV50_3D_COUNTER_TRANSFORM_FEEDBACK      0x5
#define NV50_3D_COUNTER_GENERATED_PRIMITIVES    0x6
#define NV50_3D_COUNTER_RAST_PRIMITIVES_PRECLIP 0x7
#define NV50_3D_COUNTER_RAST_PRIMITIVES_POSTCLIP 0x8
#define NV50_3D_COUNTER_FP_PIXELS               0x9
#define NV50_3D_COUNTER_UNK0A                   0xa     /* G84_3D- */
#define NV50_3D_COUNTER_UNK0C                   0xc     /* G200_3D- */
#define NV50_3D_COUNTERS                        16

/* the ROP's comparison functions and stencil ops (gr/rop.c reads them;
   nv50_3d_init gives them their fresh-context values) */
#define NV50_3D_DEPTH_TEST_FUNC         0x130c
#define NV50_3D_ALPHA_TEST_FUNC         0x1314
#define NV50_3D_STENCIL_FRONT_OP_FAIL   0x1384  /* ZFAIL, ZPASS, FUNC_FUNC */
#define NV50_3D_STENCIL_BACK_OP_FAIL    0x1598  /* ZFAIL, ZPASS, FUNC_FUNC */
#define NV50_3D_STENCIL_OP_FUNC         0x000c  /* FUNC_FUNC after OP_FAIL */

/* g80_defs.xml gl_comparison_op and gl_stencil_op: GL's values */
#define NV50_GL_NEVER                   0x0200
#define NV50_GL_KEEP                    0x1e00

/* COND_MODE (g80_defs.xml g80_cond_mode) */
#define NV50_3D_COND_NEVER              0
#define NV50_3D_COND_ALWAYS             1
#define NV50_3D_COND_RES_NON_ZERO       2
#define NV50_3D_COND_EQUAL              3
#define NV50_3D_COND_NOT_EQUAL          4

/* One channel's 3D state (the NV50_GR_3D family's, made at first use). */
typedef struct NV50Gr3dState {
    NV50GrNotify notify;
    /*
     * The last data of every method, by mthd >> 2, but for the state
     * shared with compute, which is in NV50GrCtx.shared (3d.c).
     */
    uint32_t mthd[NV50_3D_MTHD_SPACE / 4];
    /*
     * What the queries read: what the pipeline counted (3d-draw.c,
     * gp.c, strmout.c, fp.c); COUNTER_RESET zeroes them.
     */
    uint32_t counter[NV50_3D_COUNTERS];
    uint32_t samplecnt;
    uint32_t zcull_stat[4];
    uint32_t strmout_vertices;
    /* stream output (strmout.c): bytes written into each buffer since
       STRMOUT_PARAMS_LATCH, primitives written, one dropped */
    uint32_t strmout_offset[4];
    uint32_t strmout_prims;
    bool strmout_overflow;
    bool in_begin;              /* between VERTEX_BEGIN_* and END */
    struct NV50Draw *draw;      /* the draw front end's (3d-draw.c) */
    struct NV50FpProg *fp_prog; /* the back end's (fp-prog.c) */
    struct NV50VpCode *vp_code; /* the VP's code and decode (vp.c) */
    struct TeslaRun *vp_run;    /* kept across VP launches (vp.c) */
    struct TeslaRun *gp_run;    /* kept across GP launches (gp.c) */
    struct NV50RopPool *rop_pool;   /* the ROP's spare chunks (rop-mem.c) */
} NV50Gr3dState;

/*
 * COND_MODE's verdict for a draw or clear: false if it is to be
 * skipped.  Reads the query records at COND_ADDRESS (DMA_QUERY); a
 * fault there traps (DISPATCH) and skips.
 */
bool nv50_3d_cond_passes(NV50GrCall *c, NV50Gr3dState *st);

#endif
