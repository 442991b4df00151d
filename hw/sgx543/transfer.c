/*
 * SGX543 transfer unit: the TRANSFER_COPY, TRANSFER_DOWNSCALE and
 * TRANSFER_FILL packets, gemu's command-stream form of libgxm's
 * sceGxmTransferCopy / Downscale / Fill (docs/devel/sgx543.md,
 * "Transfers").  The formats, layouts and the rules each packet is
 * checked against are those the PS Vita SDK documents for the three
 * calls (SceGxmTransferFormat/Type/ColorKeyMode values and the notes on
 * their parameters, psp2/gxm/transfer.h).
 *
 * Pixels of RGB formats go through U8U8U8U8_ABGR: fields narrower than
 * 8 bits are expanded by shifting them to the top and repeating their
 * high bits below (as the SDK describes for colour keys); packing keeps
 * the high bits.  UNVERIFIED: packing by truncation, the channels a
 * format lacks reading as G = B = 0, A = 255, the downscale's rounding
 * (half up), overlapping copies behaving as if the source were read
 * whole first.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "priv.h"

#define XFER_MAX_SIZE   1024    /* width, height */
#define XFER_MAX_COORD  8192    /* x + width, y + height: less than this */

typedef struct XferFormat {
    const char *name;
    uint8_t bytes;              /* a pixel; 0: not a format */
    uint8_t kind;               /* 0 RGB, 1 YUV, 2 RAW */
    uint8_t bits[4];            /* R G B A field widths, R lowest */
} XferFormat;

enum { RGB, YUV, RAW };

static const XferFormat xfer_formats[32] = {
    [0x00] = { "U8_R", 1, RGB, { 8, 0, 0, 0 } },
    [0x01] = { "U4U4U4U4_ABGR", 2, RGB, { 4, 4, 4, 4 } },
    [0x02] = { "U1U5U5U5_ABGR", 2, RGB, { 5, 5, 5, 1 } },
    [0x03] = { "U5U6U5_BGR", 2, RGB, { 5, 6, 5, 0 } },
    [0x04] = { "U8U8_GR", 2, RGB, { 8, 8, 0, 0 } },
    [0x05] = { "U8U8U8_BGR", 3, RGB, { 8, 8, 8, 0 } },
    [0x06] = { "U8U8U8U8_ABGR", 4, RGB, { 8, 8, 8, 8 } },
    [0x07] = { "VYUY422", 2, YUV, { 0 } },
    [0x08] = { "YVYU422", 2, YUV, { 0 } },
    [0x09] = { "UYVY422", 2, YUV, { 0 } },
    [0x0a] = { "YUYV422", 2, YUV, { 0 } },
    [0x0d] = { "U2U10U10U10_ABGR", 4, RGB, { 10, 10, 10, 2 } },
    [0x0f] = { "RAW16", 2, RAW, { 0 } },
    [0x11] = { "RAW32", 4, RAW, { 0 } },
    [0x12] = { "RAW64", 8, RAW, { 0 } },
    [0x13] = { "RAW128", 16, RAW, { 0 } },
};

#define XFER_U2U10U10U10    0x0d

/* One side of a transfer. */
typedef struct XferImage {
    unsigned fmt;               /* SceGxmTransferFormat >> 16 */
    SgxSurfaceType type;
    uint32_t addr, x, y;
    int32_t stride;             /* bytes */
    uint32_t w, h;              /* the area */
    uint8_t *host;              /* mapped: the bytes the area spans */
    int64_t lo;                 /* the area's lowest byte, from addr */
} XferImage;

/* ---- pixel formats ---- */

static unsigned expand8(uint32_t v, unsigned bits)
{
    unsigned r = 0;

    if (!bits) {
        return 0;
    }
    if (bits >= 8) {
        return v >> (bits - 8);
    }
    /* the field at the top, its high bits repeated below */
    for (int shift = 8 - bits; shift > -(int)bits; shift -= bits) {
        r |= shift >= 0 ? v << shift : v >> -shift;
    }
    return r & 0xff;
}

void sgx_xfer_unpack(unsigned fmt, uint64_t raw, uint8_t rgba[4])
{
    const XferFormat *f = &xfer_formats[fmt & 31];
    unsigned shift = 0;

    for (int c = 0; c < 4; c++) {
        unsigned bits = f->bits[c];
        uint32_t v = (raw >> shift) & ((1u << bits) - 1);

        rgba[c] = bits ? expand8(v, bits) : c == 3 ? 0xff : 0;
        shift += bits;
    }
}

uint64_t sgx_xfer_pack(unsigned fmt, const uint8_t rgba[4])
{
    const XferFormat *f = &xfer_formats[fmt & 31];
    unsigned shift = 0;
    uint64_t raw = 0;

    for (int c = 0; c < 4; c++) {
        unsigned bits = f->bits[c];
        uint32_t v = bits >= 8 ? (uint32_t)rgba[c] << (bits - 8)
                               | rgba[c] >> (16 - bits)
                               : (uint32_t)rgba[c] >> (8 - bits);

        /* 10-bit fields from 8: the byte and its top bits repeated */
        raw |= (uint64_t)(v & ((1u << bits) - 1)) << shift;
        shift += bits;
    }
    return raw;
}

static uint64_t ld_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < n && i < 8; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static void st_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n && i < 8; i++) {
        p[i] = v >> (8 * i);
    }
}

/* ---- images ---- */

static bool is_pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

/* Byte offset of pixel (x, y) of the area from the image's address. */
static int64_t pixel_offset(const XferImage *im, uint32_t x, uint32_t y)
{
    unsigned bpp = xfer_formats[im->fmt].bytes;

    if (im->type == SGX_SURFACE_LINEAR) {
        return (int64_t)(im->y + y) * im->stride
               + (int64_t)(im->x + x) * bpp;
    }
    /* tiled/swizzled: the stride is the width; x = y = 0 */
    return sgx_surface_pixel(im->type, im->w, im->h, x, y) * bpp;
}

/* Check one side; false with the error raised. */
static bool image_check(Sgx543State *s, const char *what, XferImage *im)
{
    const XferFormat *f = im->fmt < 32 ? &xfer_formats[im->fmt] : NULL;
    unsigned bpp = f ? f->bytes : 0;
    const char *why = NULL;

    if (!bpp) {
        why = "format";
    } else if (f->kind == YUV) {
        gemu_log_once(LOG_UNIMP, "sgx543-yuv", im->fmt,
                      "sgx543: YUV transfers are not implemented\n");
        why = "YUV format (not implemented)";
    } else if (im->type >= SGX_SURFACE_NUM) {
        why = "type";
    } else if (im->x + im->w >= XFER_MAX_COORD
               || im->y + im->h >= XFER_MAX_COORD) {
        why = "x + width or y + height over 8191";
    } else if (im->stride % (int32_t)bpp) {
        why = "stride not a multiple of the pixel size";
    } else if (im->type != SGX_SURFACE_LINEAR
               && (im->x || im->y
                   || im->stride != (int32_t)(im->w * bpp))) {
        why = "tiled or swizzled: x, y must be 0, the stride the width";
    } else if (im->type == SGX_SURFACE_TILED
               && ((im->w & 31) || (im->h & 31) || f->kind == RAW)) {
        why = "tiled: sizes a multiple of 32, no RAW format";
    } else if (im->type == SGX_SURFACE_SWIZZLED
               && (!is_pow2(im->w) || !is_pow2(im->h))) {
        why = "swizzled: power-of-two sizes";
    }
    if (why) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "transfer %s: %s (format 0x%x type %u x %u y %u "
                        "stride %d)", what, why, im->fmt, im->type, im->x,
                        im->y, im->stride);
        return false;
    }
    return true;
}

/* Map the bytes the area spans; false with a fault raised. */
static bool image_map(Sgx543State *s, XferImage *im, bool write)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    unsigned bpp = xfer_formats[im->fmt].bytes;
    const uint32_t cx[2] = { 0, im->w - 1 }, cy[2] = { 0, im->h - 1 };
    int64_t a;

    if (im->type == SGX_SURFACE_LINEAR) {
        /* the corners bound a linear area (negative strides too) */
        for (int i = 0; i < 4; i++) {
            int64_t o = pixel_offset(im, cx[i & 1], cy[i >> 1]);
            lo = MIN(lo, o);
            hi = MAX(hi, o + bpp);
        }
    } else {
        lo = 0;
        hi = (int64_t)sgx_surface_size(im->type, im->w, im->w, im->h, bpp);
    }
    a = (int64_t)im->addr + lo;
    if (a < 0 || a + (hi - lo) > 0x100000000ll) {
        sgx_raise_error(s, SGX_ERR_MMU_FAULT,
                        "transfer area at 0x%08x wraps the address space",
                        im->addr);
        return false;
    }
    im->lo = lo;
    im->host = sgx_dma_map(s, (uint32_t)a, hi - lo, write);
    return im->host != NULL;
}

static uint8_t *image_pixel(const XferImage *im, uint32_t x, uint32_t y)
{
    return im->host + (pixel_offset(im, x, y) - im->lo);
}

/* Read the whole area as U8U8U8U8 or (@raw) as the pixels' bytes. */
static void *image_read(const XferImage *im, bool raw)
{
    unsigned bpp = xfer_formats[im->fmt].bytes;
    uint8_t *buf = g_malloc((size_t)im->w * im->h * (raw ? bpp : 4));

    for (uint32_t y = 0; y < im->h; y++) {
        for (uint32_t x = 0; x < im->w; x++) {
            size_t i = (size_t)y * im->w + x;
            const uint8_t *p = image_pixel(im, x, y);
            if (raw) {
                memcpy(buf + i * bpp, p, bpp);
            } else {
                sgx_xfer_unpack(im->fmt, ld_le(p, bpp), buf + i * 4);
            }
        }
    }
    return buf;
}

/* Source and destination as packets give them: format | type, then
   address, x, y, stride. */
static void image_from(XferImage *im, uint32_t fmt_type, const uint32_t *p,
                       uint32_t w, uint32_t h)
{
    im->fmt = (fmt_type >> 16) & 31;
    im->type = (fmt_type >> 22) & 3;
    if (fmt_type & ~0x00df0000u) {
        im->fmt = 31;           /* stray bits: no such format */
    }
    im->addr = p[0];
    im->x = p[1];
    im->y = p[2];
    im->stride = (int32_t)p[3];
    im->w = w;
    im->h = h;
}

static bool stride_ok(Sgx543State *s, int32_t stride)
{
    if (stride < -32768 || stride > 32767) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "transfer stride %d", stride);
        return false;
    }
    return true;
}

/* ---- the packets ---- */

/*
 * TRANSFER_COPY: width, height, colour key value, key mask, key mode,
 * source format|type, address, x, y, stride, destination format|type,
 * address, x, y, stride.
 */
void sgx_pkt_transfer_copy(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t w = p[0], h = p[1], key = p[2], mask = p[3], mode = p[4];
    XferImage src, dst;
    g_autofree uint8_t *buf = NULL;
    const XferFormat *fs, *fd;
    unsigned sb, db;
    bool rawcopy;

    if (!w || !h || w > XFER_MAX_SIZE || h > XFER_MAX_SIZE || mode > 2) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "TRANSFER_COPY %ux%u colour key mode %u", w, h, mode);
        return;
    }
    image_from(&src, p[5], p + 6, w, h);
    image_from(&dst, p[10], p + 11, w, h);
    if (!stride_ok(s, src.stride) || !stride_ok(s, dst.stride)
        || !image_check(s, "source", &src)
        || !image_check(s, "destination", &dst)) {
        return;
    }
    fs = &xfer_formats[src.fmt];
    fd = &xfer_formats[dst.fmt];
    if ((src.type == SGX_SURFACE_SWIZZLED && dst.type != SGX_SURFACE_LINEAR)
        || (dst.type == SGX_SURFACE_SWIZZLED
            && src.type != SGX_SURFACE_LINEAR)
        || fs->kind != fd->kind
        || (fs->kind == RAW && src.fmt != dst.fmt)
        || (mode && (fs->kind == RAW || src.type || dst.type
                     || ((src.fmt == XFER_U2U10U10U10
                          || dst.fmt == XFER_U2U10U10U10)
                         && src.fmt != dst.fmt)))
        || (src.fmt == 0x12 && (uint64_t)w * h > 524288)
        || (src.fmt == 0x13 && (uint64_t)w * h > 262144)) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "TRANSFER_COPY from %s (type %u) to %s (type %u), "
                        "colour key mode %u not allowed", fs->name, src.type,
                        fd->name, dst.type, mode);
        return;
    }
    if (!image_map(s, &src, false)) {
        return;
    }
    /* the source is read whole first: overlapping copies are defined.
       RAW formats, and U2U10U10U10 to itself, copy the bits as they are */
    rawcopy = fs->kind == RAW || src.fmt == dst.fmt;
    buf = image_read(&src, rawcopy);
    if (!image_map(s, &dst, true)) {
        return;
    }
    sb = fs->bytes;
    db = fd->bytes;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *c = buf + ((size_t)y * w + x) * (rawcopy ? sb : 4);
            uint32_t v = ld_le(c, rawcopy ? MIN(sb, 4u) : 4);

            /* the key compares U8U8U8U8_ABGR, or the U2U10U10U10 bits
               (a copy to the same format keeps the source's bits) */
            if (mode && rawcopy && src.fmt != XFER_U2U10U10U10) {
                uint8_t e[4];
                sgx_xfer_unpack(src.fmt, ld_le(c, sb), e);
                v = e[0] | e[1] << 8 | e[2] << 16 | (uint32_t)e[3] << 24;
            }
            /* PASS writes the matching pixels, REJECT the others */
            if (mode && (((v ^ key) & mask) == 0) != (mode == 1)) {
                continue;
            }
            if (rawcopy) {
                memcpy(image_pixel(&dst, x, y), c, sb);
            } else {
                st_le(image_pixel(&dst, x, y), db,
                      sgx_xfer_pack(dst.fmt, c));
            }
        }
    }
}

/*
 * TRANSFER_DOWNSCALE: source format, address, x, y, width, height,
 * stride, destination format, address, x, y, stride.  A 2x2 box filter;
 * linear RGB images only.
 */
void sgx_pkt_transfer_downscale(Sgx543State *s, const uint32_t *p,
                                unsigned n)
{
    uint32_t w = p[4], h = p[5];
    XferImage src, dst;
    g_autofree uint8_t *buf = NULL;
    const uint32_t sp[4] = { p[1], p[2], p[3], p[6] };

    image_from(&src, p[0], sp, w, h);
    image_from(&dst, p[7], p + 8, w / 2, h / 2);
    if (w < 2 || h < 2 || w > XFER_MAX_SIZE || h > XFER_MAX_SIZE
        || (w & 1) || (h & 1) || (w >= 16 && (w & 15))) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "TRANSFER_DOWNSCALE of %ux%u (even, 2..1024, "
                        "under 16 or a multiple of 16)", w, h);
        return;
    }
    if (!stride_ok(s, src.stride) || !stride_ok(s, dst.stride)
        || !image_check(s, "source", &src)
        || !image_check(s, "destination", &dst)) {
        return;
    }
    if (src.type || dst.type || xfer_formats[src.fmt].kind != RGB
        || xfer_formats[dst.fmt].kind != RGB) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "TRANSFER_DOWNSCALE: linear RGB images only");
        return;
    }
    if (!image_map(s, &src, false)) {
        return;
    }
    buf = image_read(&src, false);
    if (!image_map(s, &dst, true)) {
        return;
    }
    for (uint32_t y = 0; y < h / 2; y++) {
        for (uint32_t x = 0; x < w / 2; x++) {
            uint8_t out[4];

            for (int c = 0; c < 4; c++) {
                unsigned sum = 2;   /* UNVERIFIED: rounding half up */
                for (int k = 0; k < 4; k++) {
                    sum += buf[((size_t)(2 * y + (k >> 1)) * w
                                + 2 * x + (k & 1)) * 4 + c];
                }
                out[c] = sum / 4;
            }
            st_le(image_pixel(&dst, x, y), xfer_formats[dst.fmt].bytes,
                  sgx_xfer_pack(dst.fmt, out));
        }
    }
}

/*
 * TRANSFER_FILL: colour (U8U8U8U8_ABGR; U2U10U10U10_ABGR for that
 * destination), destination format, address, x, y, width, height,
 * stride.  Linear RGB destinations only.
 */
void sgx_pkt_transfer_fill(Sgx543State *s, const uint32_t *p, unsigned n)
{
    uint32_t w = p[5], h = p[6];
    XferImage dst;
    const uint32_t dp[4] = { p[2], p[3], p[4], p[7] };
    uint8_t c[4] = { p[0], p[0] >> 8, p[0] >> 16, p[0] >> 24 };
    uint64_t v;
    unsigned db;

    image_from(&dst, p[1], dp, w, h);
    if (!w || !h || w > XFER_MAX_SIZE || h > XFER_MAX_SIZE) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE, "TRANSFER_FILL of %ux%u", w,
                        h);
        return;
    }
    if (!stride_ok(s, dst.stride) || !image_check(s, "destination", &dst)) {
        return;
    }
    if (dst.type || xfer_formats[dst.fmt].kind != RGB) {
        sgx_raise_error(s, SGX_ERR_BAD_VALUE,
                        "TRANSFER_FILL: linear RGB destinations only");
        return;
    }
    if (!image_map(s, &dst, true)) {
        return;
    }
    db = xfer_formats[dst.fmt].bytes;
    v = dst.fmt == XFER_U2U10U10U10 ? p[0] : sgx_xfer_pack(dst.fmt, c);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            st_le(image_pixel(&dst, x, y), db, v);
        }
    }
}
