/*
 * The SGX543 command-buffer packet stream (gemu's GXM-level command
 * processor, sgx543.md §3.7(c)).  A packet is a u32 header, opcode
 * [31:24] | payload dwords [23:0], followed by that many payload dwords,
 * one field a dword.  The layouts are in docs/devel/sgx543.md.
 *
 * Enumerations reuse the order of the libgxm ones where gemu knows it
 * (UNVERIFIED: the numeric values of the SceGxm enums).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_PACKETS_H
#define HW_SGX543_PACKETS_H

#define SGX_PKT_HEADER(op, n)   (((uint32_t)(op) << 24) | ((n) & 0xffffff))
#define SGX_PKT_OP(h)           ((h) >> 24)
#define SGX_PKT_LEN(h)          ((h) & 0xffffff)

typedef enum SgxPacket {
    SGX_PKT_BEGIN_SCENE = 0x01,
    SGX_PKT_END_SCENE = 0x02,
    SGX_PKT_CLEAR = 0x03,
    SGX_PKT_SET_PROGRAM = 0x10,
    SGX_PKT_SET_PROGRAM_RAW = 0x11,
    SGX_PKT_SET_VERTEX_ATTRIBS = 0x12,
    SGX_PKT_SET_VERTEX_STREAMS = 0x13,
    SGX_PKT_SET_UNIFORM_BUFFER = 0x14,
    SGX_PKT_SET_TEXTURE = 0x15,
    SGX_PKT_SET_FRAGMENT_OUTPUT = 0x16,
    SGX_PKT_SET_RASTER_STATE = 0x17,
    SGX_PKT_SET_VIEWPORT = 0x18,
    SGX_PKT_DRAW = 0x20,
    SGX_PKT_TRANSFER_COPY = 0x21,
    SGX_PKT_TRANSFER_DOWNSCALE = 0x22,
    SGX_PKT_TRANSFER_FILL = 0x23,
    SGX_PKT_FENCE = 0x30,
    SGX_PKT_WAIT = 0x31,
    SGX_PKT_JUMP = 0x3E,
    SGX_PKT_NOP = 0x3F,
} SgxPacket;

/* Name of a packet opcode ("DRAW"), NULL if unknown; and back (-1). */
const char *sgx_packet_name(unsigned op);
int sgx_packet_lookup(const char *name);

/* Colour surface formats (BEGIN_SCENE, gemu numbering) */
typedef enum SgxColorFormat {
    SGX_COLOR_U8U8U8U8_ABGR = 0,    /* bytes R, G, B, A */
    SGX_COLOR_U5U6U5_BGR = 1,       /* u16: R[15:11] G[10:5] B[4:0] */
    SGX_COLOR_F16F16F16F16 = 2,     /* R, G, B, A halves */
    SGX_COLOR_F32_R = 3,
    SGX_COLOR_NUM
} SgxColorFormat;

/* Colour surface layouts (BEGIN_SCENE): SceGxmColorSurfaceType >> 26 */
typedef enum SgxSurfaceType {
    SGX_SURFACE_LINEAR = 0,
    SGX_SURFACE_TILED = 1,          /* 32x32-pixel tiles */
    SGX_SURFACE_SWIZZLED = 2,       /* Morton order */
    SGX_SURFACE_NUM
} SgxSurfaceType;

/* TRANSFER_*: SceGxmTransferFormat | SceGxmTransferType in one dword */
#define SGX_XFER_FORMAT(f)      ((uint32_t)(f) << 16)   /* 0 U8_R .. */
#define SGX_XFER_U8U8U8U8_ABGR  SGX_XFER_FORMAT(6)
#define SGX_XFER_U5U6U5_BGR     SGX_XFER_FORMAT(3)
#define SGX_XFER_TILED          0x00400000u
#define SGX_XFER_SWIZZLED       0x00800000u

/* Depth/stencil formats (gemu numbering) */
typedef enum SgxDepthFormat {
    SGX_DEPTH_NONE = 0,
    SGX_DEPTH_F32 = 1,              /* float depth, no stencil */
    SGX_DEPTH_S8D24 = 2,            /* u32: stencil [31:24], unorm24 depth */
    SGX_DEPTH_NUM
} SgxDepthFormat;

/* CLEAR flags */
#define SGX_CLEAR_COLOR     (1u << 0)
#define SGX_CLEAR_DEPTH     (1u << 1)
#define SGX_CLEAR_STENCIL   (1u << 2)

/* Program stages */
#define SGX_STAGE_VERTEX    0
#define SGX_STAGE_FRAGMENT  1

/* Fragment input descriptors (SET_PROGRAM*, fragment stage) */
#define SGX_FIN_KIND(d)     (((d) >> 30) & 3)   /* 0 varying, 1 texture */
#define SGX_FIN_FORMAT(d)   (((d) >> 28) & 3)   /* SgxRegFormat */
#define SGX_FIN_COMPS(d)    ((((d) >> 26) & 3) + 1)
#define SGX_FIN_UNIT(d)     (((d) >> 22) & 15)
#define SGX_FIN_SRC(d)      (((d) >> 8) & 0x7f) /* vertex o-register */
#define SGX_FIN_DST(d)      ((d) & 0x7f)        /* fragment pa-register */
#define SGX_FIN(kind, fmt, comps, unit, src, dst) \
    (((uint32_t)(kind) << 30) | ((uint32_t)(fmt) << 28) | \
     ((uint32_t)((comps) - 1) << 26) | ((uint32_t)(unit) << 22) | \
     ((uint32_t)(src) << 8) | (uint32_t)(dst))

/* Register formats of fragment inputs and of the fragment output */
typedef enum SgxRegFormat {
    SGX_REG_F32 = 0,    /* one float a register */
    SGX_REG_F16 = 1,    /* two halves a register, x in [15:0] */
    SGX_REG_U8 = 2,     /* four unorm bytes in one register, x in [7:0] */
} SgxRegFormat;

/* Fragment program flags (SET_PROGRAM* dw6 [31:16]) */
#define SGX_PROG_DISCARD    (1u << 0)   /* KILL/depth replace: late depth */
#define SGX_PROG_OUT_O      (1u << 1)   /* output in o-bank, else pa */
#define SGX_PROG_PSIZE      (1u << 2)   /* vertex: last output = point size */

/* SceGxmPrimitiveType order */
typedef enum SgxPrimitive {
    SGX_PRIM_TRIANGLES = 0,
    SGX_PRIM_LINES = 1,
    SGX_PRIM_POINTS = 2,
    SGX_PRIM_TRIANGLE_STRIP = 3,
    SGX_PRIM_TRIANGLE_FAN = 4,
    SGX_PRIM_TRIANGLE_EDGES = 5,
    SGX_PRIM_LINE_STRIP = 6,        /* gemu's: no SceGxm value */
} SgxPrimitive;

/* SceGxmAttributeFormat order */
typedef enum SgxAttribFormat {
    SGX_ATTR_U8 = 0, SGX_ATTR_S8, SGX_ATTR_U16, SGX_ATTR_S16,
    SGX_ATTR_U8N, SGX_ATTR_S8N, SGX_ATTR_U16N, SGX_ATTR_S16N,
    SGX_ATTR_F16, SGX_ATTR_F32, SGX_ATTR_UNTYPED,
    SGX_ATTR_NUM
} SgxAttribFormat;

/* SceGxmCullMode */
#define SGX_CULL_NONE   0
#define SGX_CULL_CW     1
#define SGX_CULL_CCW    2

/* SceGxmDepthFunc / stencil functions */
typedef enum SgxCompare {
    SGX_CMP_NEVER = 0, SGX_CMP_LESS, SGX_CMP_EQUAL, SGX_CMP_LESS_EQUAL,
    SGX_CMP_GREATER, SGX_CMP_NOT_EQUAL, SGX_CMP_GREATER_EQUAL,
    SGX_CMP_ALWAYS,
} SgxCompare;

/* SceGxmStencilOp */
typedef enum SgxStencilOp {
    SGX_STENCIL_KEEP = 0, SGX_STENCIL_ZERO, SGX_STENCIL_REPLACE,
    SGX_STENCIL_INCR, SGX_STENCIL_DECR, SGX_STENCIL_INVERT,
    SGX_STENCIL_INCR_WRAP, SGX_STENCIL_DECR_WRAP,
} SgxStencilOp;

/* SceGxmBlendFunc */
typedef enum SgxBlendFunc {
    SGX_BLEND_NONE = 0, SGX_BLEND_ADD, SGX_BLEND_SUBTRACT,
    SGX_BLEND_REVERSE_SUBTRACT, SGX_BLEND_MIN, SGX_BLEND_MAX,
} SgxBlendFunc;

/* SceGxmBlendFactor */
typedef enum SgxBlendFactor {
    SGX_BF_ZERO = 0, SGX_BF_ONE, SGX_BF_SRC_COLOR, SGX_BF_ONE_MINUS_SRC_COLOR,
    SGX_BF_SRC_ALPHA, SGX_BF_ONE_MINUS_SRC_ALPHA, SGX_BF_DST_COLOR,
    SGX_BF_ONE_MINUS_DST_COLOR, SGX_BF_DST_ALPHA, SGX_BF_ONE_MINUS_DST_ALPHA,
    SGX_BF_SRC_ALPHA_SATURATE, SGX_BF_DST_ALPHA_SATURATE,
} SgxBlendFactor;

/* Texture control words (SET_TEXTURE): SceGxmTexture, hw/sgx543/texture.h */

/* Error codes in EMU_ERR_CODE */
typedef enum SgxErrCode {
    SGX_ERR_NONE = 0,
    SGX_ERR_UNKNOWN_PACKET,     /* opcode not in the list */
    SGX_ERR_PACKET_LENGTH,      /* payload too short/long for the opcode */
    SGX_ERR_PACKET_OVERRUN,     /* packet runs past the command buffer */
    SGX_ERR_BAD_VALUE,          /* a field holds an invalid value */
    SGX_ERR_NO_SCENE,           /* draw/clear outside BEGIN/END_SCENE */
    SGX_ERR_NO_PROGRAM,         /* draw without both programs */
    SGX_ERR_SHADER_TRAP,        /* USSE trap (EMU_ERR_PC) */
    SGX_ERR_MMU_FAULT,          /* BIF_FAULT holds the address */
    SGX_ERR_CCB,                /* bad CCB slot or offsets */
    SGX_ERR_JUMP_LOOP,          /* too many JUMPs in one command */
    SGX_ERR_BAD_GXP,            /* SET_PROGRAM blob is not a valid GXP */
} SgxErrCode;

const char *sgx_error_name(unsigned code);     /* "BAD_VALUE", ... */

#endif
