/*
 * make bench: what the 3D benchmarks share (g84-3d.c: the channel's 3D
 * state and helpers, g84-fill, g84-tri, g84-draws, g84-lines;
 * g84-cube.c: kmscube's frames and clears; g84-mesh.c: glmark2
 * terrain's grid).  Methods of the G84's 3D class (rnndb nv50_3d.xml),
 * the channel's memory as the benchmarks lay it out, and the state
 * d3_init gives every one of them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_BENCH_G84_3D_H
#define GEMU_BENCH_G84_3D_H

#include "g84-eng.h"
#include "target/tesla.h"

#define SUBC_3D         3
#define H_3D            0xbeef8297u
#define D3_DMA_ZETA     0x0184      /* 11: ZETA .. CLIPID */
#define D3_DMA_COLOR    0x01c0
#define D3_RT_ADDRESS_HIGH 0x0200
#define D3_VERTEX_ARRAY_FETCH 0x0900
#define D3_VIEWPORT_SCALE_X 0x0a00
#define D3_VIEWPORT_TRANSLATE_X 0x0a0c
#define D3_VIEWPORT_HORIZ 0x0c00
#define D3_CLEAR_DEPTH  0x0d90
#define D3_CLEAR_STENCIL 0x0da0
#define D3_DEPTH_RANGE_NEAR 0x0c08
#define D3_VERTEX_BUFFER_FIRST 0x0d74
#define D3_CLEAR_COLOR  0x0d80
#define D3_SCISSOR_ENABLE 0x0e00
#define D3_VP_ADDRESS_HIGH 0x0f7c
#define D3_FP_ADDRESS_HIGH 0x0fa4
#define D3_ZETA_ADDRESS_HIGH 0x0fe0
#define D3_SCREEN_SCISSOR_HORIZ 0x0ff4
#define D3_VERTEX_ARRAY_LIMIT_HIGH 0x1080
#define D3_RT_CONTROL   0x121c
#define D3_RT_ARRAY_MODE 0x1224
#define D3_ZETA_HORIZ   0x1228
#define D3_RT_HORIZ     0x1240
#define D3_FP_RESULT_COUNT 0x1298
#define D3_DEPTH_TEST_ENABLE 0x12cc
#define D3_SHADE_MODEL  0x12d4
#define D3_BLEND_ENABLE 0x1360
#define D3_VP_START_ID  0x140c
#define D3_FP_START_ID  0x1414
#define D3_CLEAR_FLAGS  0x143c
#define D3_ZETA_ENABLE  0x1538
#define D3_COND_MODE    0x1558
#define D3_VERTEX_BEGIN_GL 0x15dc
#define D3_VERTEX_END_GL 0x15e0
#define D3_VB_ELEMENT_U32 0x15e8
#define D3_VP_ATTR_EN   0x1650
#define D3_PROVOKING_VERTEX_LAST 0x1684
#define D3_VP_RESULT_MAP_SIZE 0x16ac
#define D3_VP_REG_ALLOC_TEMP 0x16b0
#define D3_CB_DEF_ADDRESS_HIGH 0x1280
#define D3_SET_PROGRAM_CB 0x1694
#define D3_VP_REG_ALLOC_RESULT 0x16b8
#define D3_VP_RESULT_MAP 0x16bc
#define D3_RASTERIZE_ENABLE 0x17b4
#define D3_SEMANTIC_COLOR 0x1904
#define D3_CULL_FACE_ENABLE 0x1918
#define D3_VIEWPORT_TRANSFORM_EN 0x192c
#define D3_VIEW_VOLUME_CLIP_CTRL 0x193c
#define D3_FP_INTERPOLANT_CTRL 0x1988
#define D3_FP_REG_ALLOC_TEMP 0x198c
#define D3_FP_CONTROL   0x19a8
#define D3_CLEAR_BUFFERS 0x19d0
#define D3_COLOR_MASK   0x1a00
#define D3_VERTEX_ARRAY_ATTRIB 0x1ac0

#define D3_CODE_VA      ENG_VA_DATA                 /* VP +0, FP +1 MiB */
#define D3_CB_VA        (D3_CODE_VA + 0x80000)      /* g84-mesh-mvp's c0 */
#define D3_CB_VP        0                           /* its buffer */
#define D3_RT_VA        (ENG_VA_DATA + 0x200000)
#define D3_VB_VA        (ENG_VA_DATA + 0x800000)
#define D3_ZETA_VA      (D3_RT_VA + 0x300000)   /* the BL zeta, 3 MiB */
#define D3_FMT_BGRA8    0xcf
#define D3_FMT_BGRX8    0xe6
#define D3_ZFMT_Z24_S8  0x16
#define D3_TILE_768     0x40    /* block_h 4: Mesa's for 768 rows */

typedef struct D3Vtx {
    float pos[4];
    float col[4];
} D3Vtx;

/* Assemble @src as a program of type @t and write it at @va. */
bool d3_program(Eng *e, TeslaProgType t, const char *src, uint64_t va);
/*
 * A 3D object with Mesa's state for a flat-shaded draw of @nverts D3Vtx
 * at D3_VB_VA into a FB_W x FB_H BGRA8 pitch RT, cleared to black.
 */
bool d3_init(Eng *e, const char *name, unsigned nverts);
/* A vertex at pixel corner (x, y) with colour @c (multiples of 0.2). */
D3Vtx d3_vtx(int x, int y, uint32_t c);
/* An RGBA colour of bytes 51 k (exact in unorm8) from @i, as BGRA8 */
uint32_t d3_colour(uint32_t i, uint32_t *bgra);
/* A draw of @count vertices from @first, primitive @prim. */
void d3_draw(Eng *e, unsigned prim, unsigned first, unsigned count);
/*
 * The pitch RT checked against @model, then "@work / @secs @unit"
 * reported; ends the card (eng_fini) either way.
 */
void d3_finish(Eng *e, const uint32_t *model, double work, double secs,
               const char *unit);

/* g84-cube, g84-cube-bl, g84-clear-bl (g84-cube.c) */
void bench_g84_cube(void);
/* g84-mesh-idx, g84-mesh-arrays, g84-mesh-mvp (g84-mesh.c) */
void bench_g84_mesh(void);

#endif
