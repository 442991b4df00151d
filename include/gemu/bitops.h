/*
 * Bit field helpers (the extract/deposit family).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_BITOPS_H
#define GEMU_BITOPS_H

#include <assert.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t extract32(uint32_t value, int start, int length)
{
    assert(start >= 0 && length > 0 && length <= 32 - start);
    return (value >> start) & (~0U >> (32 - length));
}

static inline uint64_t extract64(uint64_t value, int start, int length)
{
    assert(start >= 0 && length > 0 && length <= 64 - start);
    return (value >> start) & (~0ULL >> (64 - length));
}

static inline int32_t sextract32(uint32_t value, int start, int length)
{
    assert(start >= 0 && length > 0 && length <= 32 - start);
    return ((int32_t)(value << (32 - length - start))) >> (32 - length);
}

static inline int64_t sextract64(uint64_t value, int start, int length)
{
    assert(start >= 0 && length > 0 && length <= 64 - start);
    return ((int64_t)(value << (64 - length - start))) >> (64 - length);
}

static inline uint32_t deposit32(uint32_t value, int start, int length,
                                 uint32_t fieldval)
{
    uint32_t mask;

    assert(start >= 0 && length > 0 && length <= 32 - start);
    mask = (~0U >> (32 - length)) << start;
    return (value & ~mask) | ((fieldval << start) & mask);
}

static inline uint64_t deposit64(uint64_t value, int start, int length,
                                 uint64_t fieldval)
{
    uint64_t mask;

    assert(start >= 0 && length > 0 && length <= 64 - start);
    mask = (~0ULL >> (64 - length)) << start;
    return (value & ~mask) | ((fieldval << start) & mask);
}

/* The bits of an IEEE single, and back (no conversion). */
/* The index of the lowest set bit of @v, which must not be 0. */
static inline unsigned ctz32(uint32_t v)
{
    return (unsigned)__builtin_ctz(v);
}

static inline uint32_t f32_to_bits(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static inline float bits_to_f32(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static inline double bits_to_f64(uint64_t u)
{
    double d;

    memcpy(&d, &u, 8);
    return d;
}

#endif
