/*
 * Tesla warp interpreter, the fast loop's SFU: rcp over a warp's lanes,
 * VL at a time.  Part of the warp-fast.h template (included by it, once
 * per host ISA build, with its FAST_FN, VL, NV, vector types and
 * helpers); tesla_sfu_rcp (fpu-sfu.c) stays the reference, and
 * test-tesla-fast.c compares every build's lanes with it.
 *
 * SPDX-License-Identifier: MIT
 */

TESLA_SFU_SQUARE_FN(FAST_FN(sfu_square_v), TeslaV)

/* rcp's slice fields of the lanes' slice numbers @i (0-127) */
FAST_INLINE void FAST_FN(rcp_slices)(TeslaV i, TeslaVS *a, TeslaVS *b,
                                     TeslaVS *c)
{
    const int *tab = (const int *)tesla_sfu_rcp_tab;
#if FAST_AVX2
    __m256i x;

    memcpy(&x, &i, sizeof(x));
    x = _mm256_mullo_epi32(x, _mm256_set1_epi32(3));
    *a = (TeslaVS)_mm256_i32gather_epi32(tab, x, 4);
    *b = (TeslaVS)_mm256_i32gather_epi32(tab + 1, x, 4);
    *c = (TeslaVS)_mm256_i32gather_epi32(tab + 2, x, 4);
#else
    for (unsigned j = 0; j < VL; j++) {
        (*a)[j] = tab[3 * i[j]];
        (*b)[j] = tab[3 * i[j] + 1];
        (*c)[j] = tab[3 * i[j] + 2];
    }
#endif
}

/*
 * rcp of a register, VL lanes at a time: tesla_sfu_rcp's steps for a
 * normal input whose result is normal, the rest (zero, denormal, Inf,
 * NaN, exponent 253 and up) through tesla_sfu_rcp itself.  Its 40-bit
 * sum A 2^13 + B r + C sq + k, shifted right by 15, in 32-bit lanes: with
 * r = rh 2^9 + rl that is (Q + (Y >> 9)) >> 6 for Q = A 2^4 + B rh and Y =
 * B rl + C sq + k (floors of divisions by powers of two compose), |Q| <
 * 2^31 and |Y| < 2^28 for any slice of the table.  No host floats: the
 * MXCSR mode does not matter.
 */
static void FAST_FN(rcp)(const uint32_t *src, const TeslaFastInsn *f,
                         uint32_t *res)
{
    TeslaV slow[NV], any = { 0 };

    FAST_UNROLL
    for (unsigned k = 0; k < NV; k++) {
        TeslaV x = (vld(src + VL * k) & f->am) ^ f->ax;
        TeslaV e = (x >> 23) & 0xff, m = x & 0x7fffffu;
        TeslaV r = m & 0xffff, sq = FAST_FN(sfu_square_v)(r << 1), cy;
        TeslaVS a, b, c, q, y, v;

        FAST_FN(rcp_slices)(m >> 16, &a, &b, &c);
        q = a * 16 + b * (TeslaVS)(r >> 9);
        y = b * (TeslaVS)(r & 0x1ff) + c * (TeslaVS)sq + 0x47e7;
        v = (q + (y >> 9)) >> 6;
        /* exponents 0, 253-255 (e - 1 wraps) and significands out of
           [2^23, 2^24] go the scalar way */
        slow[k] = (TeslaV)(e - 1 >= 252) | (TeslaV)(v < 0x800000) |
                  (TeslaV)(v > 0x1000000);
        any |= slow[k];
        cy = (TeslaV)v >> 24;               /* 2^24: 1.0 exactly */
        vst(res + VL * k, (x & 0x80000000u) | (253 - e + cy) << 23 |
                          (((TeslaV)v >> cy) & 0x7fffffu));
    }
    if (unlikely(v_any32(any))) {
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            if (slow[l / VL][l % VL]) {
                res[l] = tesla_sfu_rcp((src[l] & f->am) ^ f->ax);
            }
        }
    }
}
