/*
 * IEEE half to and from single (include/gemu/half.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/half.h"

#include <math.h>

static float bits_float(uint32_t w)
{
    float f;

    memcpy(&f, &w, 4);
    return f;
}

float gemu_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;

    if (e == 0x1f) {
        return bits_float(sign | 0x7f800000 | m << 13);
    }
    if (e == 0) {
        float v = ldexpf((float)m, -24);

        return sign ? -v : v;
    }
    return bits_float(sign | (e + 112) << 23 | m << 13);
}

uint16_t gemu_float_to_half(float f)
{
    uint32_t w, m, e, hm, he, rest;
    uint16_t sign;
    float a = fabsf(f);

    memcpy(&w, &f, 4);
    sign = (w >> 16) & 0x8000;
    e = (w >> 23) & 0xff;
    m = w & 0x7fffff;
    if (e == 0xff) {
        return sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0);
    }
    if (a >= 65520.0f) {
        return sign | 0x7c00;
    }
    if (a < 6.103515625e-05f) {
        /* subnormal half: units of 2^-24, round to nearest even */
        return sign | (uint16_t)nearbyintf(a * 16777216.0f);
    }
    /* normal: round the 23-bit mantissa to 10 bits, nearest even */
    hm = m >> 13;
    rest = m & 0x1fff;
    he = e - 112;
    if (rest > 0x1000 || (rest == 0x1000 && (hm & 1))) {
        hm++;
        if (hm == 0x400) {
            hm = 0;
            he++;
        }
    }
    return sign | he << 10 | hm;
}
