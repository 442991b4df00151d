/*
 * Multisampling modes and the coverage they add (msaa.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include <math.h>
#include "msaa.h"

/* positions in 1/16 pixel from the pixel's corner, Mesa's tables */
static const int8_t ms2[2][2] = { { 4, 4 }, { 12, 12 } };
static const int8_t ms4[4][2] = {
    { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 },
};
static const int8_t ms8[8][2] = {
    { 1, 7 }, { 5, 3 }, { 3, 13 }, { 7, 11 },
    { 9, 5 }, { 15, 1 }, { 11, 15 }, { 13, 9 },
};

bool nv50_msaa_mode(uint32_t mode, NV50Msaa *m)
{
    const int8_t (*pos)[2] = NULL;
    bool known = true;

    memset(m, 0, sizeof(*m));
    m->samples = 1;
    switch (mode) {
    case NV50_MSAA_1X1:
        break;
    case NV50_MSAA_2X1:
    case NV50_MSAA_2X1_D3D:             /* UNVERIFIED: as 2X1 */
        m->samples = 2;
        m->ms_x = 1;
        pos = ms2;
        break;
    case NV50_MSAA_2X2:
    case NV50_MSAA_2X2_VC_4:
    case NV50_MSAA_2X2_VC_12:
        m->samples = 4;
        m->ms_x = m->ms_y = 1;
        pos = ms4;
        break;
    case NV50_MSAA_4X2:
    case NV50_MSAA_4X2_D3D:             /* UNVERIFIED: as 4X2 */
    case NV50_MSAA_4X2_VC_8:
        m->samples = 8;
        m->ms_x = 2;
        m->ms_y = 1;
        pos = ms8;
        break;
    default:
        known = false;
        break;
    }
    m->csaa = mode >= NV50_MSAA_2X2_VC_4 && known;
    m->pattern.count = m->samples;
    for (unsigned i = 0; pos && i < m->samples; i++) {
        m->pattern.pos[i][0] = pos[i][0] - 8;
        m->pattern.pos[i][1] = pos[i][1] - 8;
    }
    return known;
}

uint32_t nv50_msaa_alpha_coverage(const NV50Msaa *m, float alpha)
{
    float n;

    if (isnan(alpha) || alpha <= 0.0f) {
        return 0;
    }
    n = floorf(MIN(alpha, 1.0f) * m->samples + 0.5f);
    return (1u << (unsigned)n) - 1;
}
