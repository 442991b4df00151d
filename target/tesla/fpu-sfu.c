/*
 * Tesla shader core lane arithmetic: the special function unit (SFU).
 *
 * rcp, rsqrt, lg2, sin, cos and ex2 are computed as the G80 SFU does it:
 * the significand's high bits pick a slice of the function, whose value A
 * and derivatives B, C come from a lookup table, and the low bits r give
 * A + B * r + C * r^2 in fixed point, with the hardware's own truncated
 * squaring and rounding constants.  The results are then bit-exact.
 *
 * The table contents are the SFU ROM of the chip, as read back from the
 * hardware and documented by envytools (nvhw/sfu_tab.c, MIT licence);
 * they are not the exact mathematical values: the hardware's were tuned
 * to minimise the error of this very evaluation.  The evaluation itself
 * (shifts, rounding constants, special cases) follows the envytools
 * hwtest reference model, verified there against G80 hardware.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/fpu-impl.h"

/* One slice: function value A (0.26 fixed point), slope B, curvature C. */
typedef struct SfuSlice {
    int32_t a, b, c;
} SfuSlice;

/* 1/x on [1, 2): 128 slices */
static const SfuSlice sfu_rcp[128] = {
    { 0x3fffffe, -65534, 1013 },
    { 0x3f80fe0, -64522, 989 },
    { 0x3f03f04, -63533, 966 },
    { 0x3e88cb3, -62567, 945 },
    { 0x3e0f83c, -61622, 923 },
    { 0x3d980f6, -60699, 902 },
    { 0x3d22636, -59797, 883 },
    { 0x3cae758, -58914, 863 },
    { 0x3c3c3c2, -58051, 845 },
    { 0x3bcbadc, -57207, 827 },
    { 0x3b5cc0f, -56381, 809 },
    { 0x3aef6c9, -55572, 791 },
    { 0x3a83a83, -54781, 774 },
    { 0x3a196b2, -54007, 758 },
    { 0x39b0ad1, -53249, 742 },
    { 0x3949660, -52507, 727 },
    { 0x38e38e3, -51780, 711 },
    { 0x387f1e0, -51068, 696 },
    { 0x381c0e0, -50371, 682 },
    { 0x37ba570, -49688, 669 },
    { 0x3759f21, -49019, 656 },
    { 0x36fad87, -48363, 642 },
    { 0x369d035, -47721, 631 },
    { 0x36406c8, -47091, 618 },
    { 0x35e50d7, -46473, 605 },
    { 0x358ae04, -45868, 594 },
    { 0x3531dec, -45274, 582 },
    { 0x34da034, -44692, 572 },
    { 0x3483484, -44121, 561 },
    { 0x342da7f, -43560, 549 },
    { 0x33d91d3, -43011, 540 },
    { 0x3385a29, -42471, 529 },
    { 0x3333333, -41942, 519 },
    { 0x32e1c9f, -41423, 510 },
    { 0x329161e, -40913, 501 },
    { 0x3241f69, -40412, 490 },
    { 0x31f3831, -39921, 482 },
    { 0x31a6032, -39439, 474 },
    { 0x3159722, -38965, 465 },
    { 0x310dcbf, -38500, 457 },
    { 0x30c30c3, -38043, 449 },
    { 0x30792ef, -37594, 441 },
    { 0x3030303, -37153, 433 },
    { 0x2fe80c0, -36720, 426 },
    { 0x2fa0be8, -36294, 418 },
    { 0x2f5a441, -35876, 412 },
    { 0x2f14990, -35464, 403 },
    { 0x2ecfb9c, -35060, 397 },
    { 0x2e8ba2f, -34663, 390 },
    { 0x2e4850f, -34272, 383 },
    { 0x2e05c0a, -33888, 377 },
    { 0x2dc3eee, -33511, 371 },
    { 0x2d82d83, -33140, 366 },
    { 0x2d4279a, -32774, 358 },
    { 0x2d02d02, -32415, 353 },
    { 0x2cc3d8c, -32062, 348 },
    { 0x2c8590b, -31714, 341 },
    { 0x2c47f50, -31373, 337 },
    { 0x2c0b02c, -31036, 331 },
    { 0x2bceb76, -30705, 326 },
    { 0x2b93105, -30379, 320 },
    { 0x2b580ae, -30059, 316 },
    { 0x2b1da47, -29743, 310 },
    { 0x2ae3da7, -29432, 305 },
    { 0x2aaaaaa, -29127, 302 },
    { 0x2a7212a, -28826, 297 },
    { 0x2a3a0fe, -28529, 291 },
    { 0x2a02a02, -28237, 287 },
    { 0x29cbc15, -27950, 283 },
    { 0x2995710, -27667, 279 },
    { 0x295fad4, -27388, 274 },
    { 0x292a73d, -27114, 271 },
    { 0x28f5c29, -26843, 266 },
    { 0x28c1979, -26577, 263 },
    { 0x288df0c, -26314, 258 },
    { 0x285acc4, -26056, 256 },
    { 0x2828283, -25801, 251 },
    { 0x27f6028, -25550, 248 },
    { 0x27c4598, -25302, 243 },
    { 0x27932b4, -25058, 240 },
    { 0x2762762, -24818, 237 },
    { 0x2732386, -24581, 233 },
    { 0x2702703, -24348, 231 },
    { 0x26d31bf, -24117, 226 },
    { 0x26a439f, -23890, 223 },
    { 0x2675c8b, -23667, 222 },
    { 0x2647c69, -23446, 218 },
    { 0x261a320, -23228, 214 },
    { 0x25ed098, -23014, 212 },
    { 0x25c04b9, -22802, 208 },
    { 0x2593f69, -22593, 205 },
    { 0x2568096, -22388, 204 },
    { 0x253c825, -22184, 199 },
    { 0x2511602, -21984, 197 },
    { 0x24e6a17, -21787, 196 },
    { 0x24bc44e, -21592, 193 },
    { 0x2492492, -21399, 189 },
    { 0x2468acf, -21209, 186 },
    { 0x243f6f1, -21022, 184 },
    { 0x24168e1, -20837, 182 },
    { 0x23ee090, -20655, 180 },
    { 0x23c5de7, -20475, 178 },
    { 0x239e0d5, -20297, 175 },
    { 0x2376948, -20122, 173 },
    { 0x234f72c, -19949, 171 },
    { 0x2328a6f, -19778, 169 },
    { 0x2302302, -19609, 166 },
    { 0x22dc0d1, -19443, 165 },
    { 0x22b63cc, -19278, 161 },
    { 0x2290be2, -19116, 160 },
    { 0x226b902, -18956, 159 },
    { 0x2246b1d, -18797, 155 },
    { 0x2222222, -18641, 154 },
    { 0x21fde02, -18487, 153 },
    { 0x21d9ead, -18334, 150 },
    { 0x21b6416, -18184, 149 },
    { 0x2192e2a, -18035, 147 },
    { 0x216fcdd, -17888, 145 },
    { 0x214d022, -17743, 143 },
    { 0x212a7e6, -17600, 143 },
    { 0x2108421, -17458, 140 },
    { 0x20e64c2, -17318, 138 },
    { 0x20c49bb, -17180, 137 },
    { 0x20a32ff, -17043, 135 },
    { 0x2082082, -16908, 133 },
    { 0x2061237, -16775, 132 },
    { 0x204080f, -16643, 131 },
    { 0x2020201, -16513, 130 },
};

/* x^-1/2 on [1, 2) then [2, 4): 64 + 64 slices */
static const SfuSlice sfu_rsqrt[128] = {
    { 0x3fffffd, -65531, 754 },
    { 0x3f817ad, -64024, 725 },
    { 0x3f05d8f, -62575, 698 },
    { 0x3e8cfe3, -61179, 672 },
    { 0x3e16d08, -59835, 648 },
    { 0x3da336d, -58539, 625 },
    { 0x3d32199, -57289, 603 },
    { 0x3cc3625, -56083, 582 },
    { 0x3c56fbb, -54919, 562 },
    { 0x3becd12, -53794, 543 },
    { 0x3b84cf4, -52708, 526 },
    { 0x3b1ee3f, -51657, 508 },
    { 0x3abafd2, -50641, 492 },
    { 0x3a590a6, -49658, 476 },
    { 0x39f8fb3, -48706, 461 },
    { 0x399ac08, -47784, 446 },
    { 0x393e4b6, -46891, 433 },
    { 0x38e38e3, -46026, 420 },
    { 0x388a7b0, -45186, 407 },
    { 0x3833055, -44372, 395 },
    { 0x37dd20a, -43582, 383 },
    { 0x3788c11, -42815, 372 },
    { 0x3735db5, -42071, 362 },
    { 0x36e4649, -41348, 352 },
    { 0x3694525, -40645, 342 },
    { 0x36459ab, -39962, 332 },
    { 0x35f833b, -39298, 323 },
    { 0x35ac144, -38652, 314 },
    { 0x3561336, -38023, 305 },
    { 0x3517888, -37412, 298 },
    { 0x34cf0b4, -36816, 290 },
    { 0x3487b40, -36237, 283 },
    { 0x34417ae, -35672, 275 },
    { 0x33fc587, -35122, 268 },
    { 0x33b8456, -34586, 262 },
    { 0x33753b4, -34063, 255 },
    { 0x3333333, -33553, 248 },
    { 0x32f226c, -33056, 242 },
    { 0x32b20fe, -32571, 236 },
    { 0x3272e85, -32098, 231 },
    { 0x3234aac, -31636, 225 },
    { 0x31f7512, -31185, 220 },
    { 0x31bad67, -30745, 215 },
    { 0x317f355, -30315, 210 },
    { 0x314468b, -29895, 205 },
    { 0x310a6ba, -29485, 201 },
    { 0x30d139a, -29084, 196 },
    { 0x3098cdc, -28691, 191 },
    { 0x306123e, -28308, 187 },
    { 0x302a377, -27933, 183 },
    { 0x2ff4047, -27566, 179 },
    { 0x2fbe86e, -27208, 176 },
    { 0x2f89bad, -26857, 172 },
    { 0x2f559c5, -26513, 168 },
    { 0x2f2227d, -26177, 165 },
    { 0x2eef59a, -25848, 162 },
    { 0x2ebd2e8, -25525, 158 },
    { 0x2e8ba2f, -25209, 154 },
    { 0x2e5ab3a, -24900, 151 },
    { 0x2e2a5d5, -24597, 148 },
    { 0x2dfa9d0, -24300, 145 },
    { 0x2dcb6f8, -24009, 143 },
    { 0x2d9cd26, -23724, 140 },
    { 0x2d6ec25, -23444, 137 },
    { 0x2d413c9, -46337, 533 },
    { 0x2ce7c62, -45272, 513 },
    { 0x2c905a6, -44247, 493 },
    { 0x2c3ae55, -43260, 475 },
    { 0x2be754a, -42310, 459 },
    { 0x2b9596c, -41393, 442 },
    { 0x2b459b1, -40510, 427 },
    { 0x2af7514, -39657, 412 },
    { 0x2aaaaaa, -38834, 398 },
    { 0x2a5f987, -38038, 384 },
    { 0x2a160d5, -37270, 371 },
    { 0x29cdfbd, -36527, 359 },
    { 0x298757d, -35809, 348 },
    { 0x2942152, -35113, 336 },
    { 0x28fe287, -34440, 326 },
    { 0x28bb875, -33789, 316 },
    { 0x287a26b, -33157, 306 },
    { 0x2839fd1, -32545, 297 },
    { 0x27fb010, -31952, 288 },
    { 0x27bd291, -31376, 279 },
    { 0x27806c9, -30817, 271 },
    { 0x2744c37, -30275, 263 },
    { 0x270a257, -29749, 256 },
    { 0x26d08af, -29237, 248 },
    { 0x2697ec7, -28740, 241 },
    { 0x266042e, -28257, 235 },
    { 0x2629879, -27788, 229 },
    { 0x25f3b40, -27331, 222 },
    { 0x25bec17, -26887, 217 },
    { 0x258aaa6, -26454, 210 },
    { 0x2557687, -26033, 205 },
    { 0x2524f67, -25623, 199 },
    { 0x24f34e7, -25224, 195 },
    { 0x24c26bc, -24835, 190 },
    { 0x2492493, -24456, 185 },
    { 0x2462e1a, -24086, 180 },
    { 0x243430a, -23726, 176 },
    { 0x2406319, -23374, 171 },
    { 0x23d8e02, -23031, 167 },
    { 0x23ac382, -22697, 163 },
    { 0x2380354, -22370, 159 },
    { 0x2354d3d, -22051, 155 },
    { 0x232a0fd, -21740, 152 },
    { 0x22ffe5d, -21436, 148 },
    { 0x22d651e, -21139, 145 },
    { 0x22ad50e, -20849, 142 },
    { 0x2284df7, -20565, 138 },
    { 0x225cf9f, -20288, 136 },
    { 0x22359db, -20017, 133 },
    { 0x220ec79, -19752, 130 },
    { 0x21e874a, -19492, 126 },
    { 0x21c2a1d, -19239, 124 },
    { 0x219d4c6, -18991, 122 },
    { 0x217871f, -18748, 119 },
    { 0x21540f6, -18510, 117 },
    { 0x213022c, -18277, 114 },
    { 0x210ca93, -18049, 112 },
    { 0x20e9a08, -17826, 110 },
    { 0x20c7067, -17607, 107 },
    { 0x20a4d88, -17393, 105 },
    { 0x208314a, -17183, 103 },
    { 0x2061b89, -16977, 101 },
    { 0x2040c27, -16775, 99 },
    { 0x2020307, -16578, 97 },
};

/* sin(x * pi/2) on [0, 1): 64 slices */
static const SfuSlice sfu_sin[64] = {
    { 0, 25737, -14 },
    { 0x019214e, 25730, -48 },
    { 0x0323ec8, 25706, -76 },
    { 0x04b547c, 25668, -110 },
    { 0x0645e94, 25613, -137 },
    { 0x07d5934, 25544, -171 },
    { 0x096407a, 25459, -201 },
    { 0x0af109c, 25358, -229 },
    { 0x0c7c5ba, 25243, -262 },
    { 0x0e05c10, 25112, -292 },
    { 0x0f8cfc8, 24966, -322 },
    { 0x1111d24, 24805, -352 },
    { 0x129405e, 24629, -381 },
    { 0x14135ca, 24438, -410 },
    { 0x158f9a2, 24233, -441 },
    { 0x170884c, 24013, -470 },
    { 0x187de2a, 23778, -497 },
    { 0x19ef796, 23529, -525 },
    { 0x1b5d0fe, 23266, -553 },
    { 0x1cc66e8, 22989, -581 },
    { 0x1e2b5d4, 22698, -608 },
    { 0x1f8ba48, 22394, -637 },
    { 0x20e70ec, 22076, -664 },
    { 0x223d66c, 21744, -688 },
    { 0x238e760, 21400, -715 },
    { 0x24da0a8, 21042, -738 },
    { 0x261fefc, 20672, -763 },
    { 0x275ff44, 20290, -790 },
    { 0x2899e5e, 19895, -812 },
    { 0x29cd952, 19489, -839 },
    { 0x2afad20, 19070, -859 },
    { 0x2c216e4, 18640, -881 },
    { 0x2d413ca, 18199, -904 },
    { 0x2e5a104, 17747, -926 },
    { 0x2f6bbe4, 17284, -946 },
    { 0x30761be, 16811, -967 },
    { 0x3179008, 16328, -988 },
    { 0x327444c, 15834, -1004 },
    { 0x3367c04, 15332, -1025 },
    { 0x34534f2, 14820, -1043 },
    { 0x3536cc0, 14299, -1059 },
    { 0x361214e, 13769, -1074 },
    { 0x36e5064, 13232, -1093 },
    { 0x37af812, 12686, -1107 },
    { 0x3871658, 12133, -1123 },
    { 0x392a960, 11572, -1136 },
    { 0x39daf5c, 11004, -1148 },
    { 0x3a82698, 10430, -1162 },
    { 0x3b20d7a, 9849, -1172 },
    { 0x3bb6274, 9263, -1185 },
    { 0x3c4241c, 8671, -1196 },
    { 0x3cc511e, 8073, -1203 },
    { 0x3d3e82c, 7471, -1213 },
    { 0x3dae822, 6864, -1220 },
    { 0x3e14fda, 6254, -1230 },
    { 0x3e71e78, 5639, -1236 },
    { 0x3ec52fc, 5021, -1242 },
    { 0x3f0eca0, 4400, -1247 },
    { 0x3f4eab2, 3776, -1250 },
    { 0x3f84c8e, 3151, -1258 },
    { 0x3fb11b2, 2523, -1260 },
    { 0x3fd39ba, 1893, -1260 },
    { 0x3fec43c, 1263, -1263 },
    { 0x3ffb10c, 632, -1265 },
};

/* 2^x / 2 on [0, 1): 64 slices */
static const SfuSlice sfu_ex2[64] = {
    { 0x2000000, 22713, 494 },
    { 0x2059347, 22960, 501 },
    { 0x20b361b, 23210, 506 },
    { 0x210e8a2, 23463, 511 },
    { 0x216ab0f, 23718, 518 },
    { 0x21c7d86, 23977, 521 },
    { 0x2226039, 24238, 527 },
    { 0x2285356, 24502, 532 },
    { 0x22e5709, 24768, 541 },
    { 0x2346b7e, 25038, 546 },
    { 0x23a90e5, 25311, 551 },
    { 0x240c772, 25586, 559 },
    { 0x2470f4e, 25865, 564 },
    { 0x24d68ad, 26147, 568 },
    { 0x253d3c0, 26431, 577 },
    { 0x25a50b6, 26719, 583 },
    { 0x260dfc2, 27010, 589 },
    { 0x2678117, 27304, 596 },
    { 0x26e34e6, 27602, 600 },
    { 0x274fb67, 27902, 609 },
    { 0x27bd4c9, 28206, 615 },
    { 0x282c145, 28513, 622 },
    { 0x289c10b, 28824, 627 },
    { 0x290d456, 29138, 633 },
    { 0x297fb5a, 29455, 641 },
    { 0x29f364e, 29776, 647 },
    { 0x2a6856a, 30100, 655 },
    { 0x2ade8e7, 30428, 661 },
    { 0x2b560fb, 30759, 670 },
    { 0x2bcede2, 31094, 677 },
    { 0x2c48fd7, 31432, 686 },
    { 0x2cc4710, 31775, 691 },
    { 0x2d413cc, 32121, 699 },
    { 0x2dbf648, 32471, 705 },
    { 0x2e3eebe, 32824, 715 },
    { 0x2ebfd6a, 33182, 721 },
    { 0x2f4228e, 33543, 730 },
    { 0x2fc5e67, 33908, 739 },
    { 0x304b134, 34277, 748 },
    { 0x30d1b33, 34651, 753 },
    { 0x3159ca8, 35028, 763 },
    { 0x31e35d3, 35409, 773 },
    { 0x326e6f7, 35795, 779 },
    { 0x32fb054, 36185, 787 },
    { 0x3389230, 36579, 796 },
    { 0x3418ccf, 36977, 806 },
    { 0x34aa076, 37380, 813 },
    { 0x353cd6a, 37787, 822 },
    { 0x35d13f4, 38198, 833 },
    { 0x3667457, 38614, 842 },
    { 0x36feede, 39035, 849 },
    { 0x37983d3, 39460, 858 },
    { 0x383337d, 39889, 870 },
    { 0x38cfe27, 40324, 877 },
    { 0x396e41c, 40763, 887 },
    { 0x3a0e5aa, 41207, 896 },
    { 0x3ab031d, 41655, 909 },
    { 0x3b53cc1, 42109, 917 },
    { 0x3bf92e7, 42568, 925 },
    { 0x3ca05dd, 43031, 938 },
    { 0x3d495f5, 43500, 946 },
    { 0x3df437f, 43973, 959 },
    { 0x3ea0ecc, 44452, 969 },
    { 0x3f4f831, 44936, 980 },
};

/* log2(x) on [1, 2): 64 slices */
static const SfuSlice sfu_lg2[64] = {
    { 0x0000004, 47272, -727 },
    { 0x016e797, 46545, -705 },
    { 0x02d75ad, 45840, -685 },
    { 0x043ace7, 45156, -665 },
    { 0x0598fe2, 44492, -646 },
    { 0x06f210f, 43847, -627 },
    { 0x08462c9, 43221, -610 },
    { 0x0995750, 42612, -592 },
    { 0x0ae00d8, 42020, -576 },
    { 0x0c26162, 41444, -559 },
    { 0x0d67af5, 40884, -544 },
    { 0x0ea4f76, 40339, -530 },
    { 0x0fde0b9, 39809, -518 },
    { 0x111307c, 39292, -504 },
    { 0x124407c, 38788, -491 },
    { 0x1371251, 38297, -479 },
    { 0x149a786, 37818, -466 },
    { 0x15c01a8, 37351, -455 },
    { 0x16e2222, 36896, -445 },
    { 0x1800a59, 36451, -433 },
    { 0x191bbac, 36018, -425 },
    { 0x1a33760, 35594, -414 },
    { 0x1b47ebe, 35180, -404 },
    { 0x1c592fb, 34776, -396 },
    { 0x1d6753f, 34380, -385 },
    { 0x1e726aa, 33994, -377 },
    { 0x1f7a857, 33616, -368 },
    { 0x207fb52, 33247, -361 },
    { 0x218209f, 32886, -354 },
    { 0x2281942, 32532, -346 },
    { 0x237e627, 32186, -339 },
    { 0x247883b, 31847, -331 },
    { 0x257006a, 31516, -326 },
    { 0x2664f8d, 31191, -319 },
    { 0x2757682, 30872, -311 },
    { 0x2847614, 30561, -307 },
    { 0x2934f0d, 30255, -300 },
    { 0x2a20233, 29955, -293 },
    { 0x2b0904a, 29662, -289 },
    { 0x2befa00, 29374, -283 },
    { 0x2cd4011, 29091, -276 },
    { 0x2db632e, 28814, -271 },
    { 0x2e963fd, 28542, -266 },
    { 0x2f7431d, 28276, -262 },
    { 0x305013a, 28014, -257 },
    { 0x3129eee, 27757, -253 },
    { 0x3201cc6, 27505, -249 },
    { 0x32d7b5d, 27257, -244 },
    { 0x33abb41, 27013, -238 },
    { 0x347dd00, 26774, -234 },
    { 0x354e121, 26540, -232 },
    { 0x361c823, 26309, -227 },
    { 0x36e9293, 26082, -223 },
    { 0x37b40e4, 25859, -219 },
    { 0x387d398, 25640, -216 },
    { 0x3944b1e, 25424, -211 },
    { 0x3a0a7ec, 25213, -209 },
    { 0x3acea7a, 25004, -204 },
    { 0x3b91337, 24799, -201 },
    { 0x3c52285, 24598, -199 },
    { 0x3d118da, 24399, -195 },
    { 0x3dcf690, 24204, -192 },
    { 0x3e8bc12, 24012, -189 },
    { 0x3f469c1, 23823, -186 },
};

/* @v where bit @i of @r is set, else 0 (branch-free: bits are data) */
static inline uint32_t sfu_bit_sel(uint32_t r, unsigned i, uint32_t v)
{
    return v & -((r >> i) & 1);
}

/*
 * The SFU's truncated square of the 17-bit interpolation offset @r: for
 * each bit i of r, r >> (18 - i), summed and halved.  That is the sum of
 * the partial products b_i b_j 2^(i + j - 18) with i + j >= 18 (i, j over
 * r's bits), taken here in three bit groups: g0 = bits 0-5, g1 = 6-11,
 * g2 = 12-16.  g0 x g0 and g0 x g1 never reach 18; g1 x g2 and g2 x g2
 * always do (plain products); g0 x g2 (twice: both orders) and g1 x g1
 * partly, one shifted group per bit of the other.  The same sums as a
 * loop over the 17 bits (checked for every r), at half the work.
 */
static inline uint32_t sfu_square(uint32_t r)
{
    uint32_t g0 = r & 0x3f, g1 = (r >> 6) & 0x3f, g2 = (r >> 12) & 0x1f;
    uint32_t t02 = sfu_bit_sel(r, 13, g0 >> 5) + sfu_bit_sel(r, 14, g0 >> 4) +
                   sfu_bit_sel(r, 15, g0 >> 3) + sfu_bit_sel(r, 16, g0 >> 2);
    uint32_t t11 = sfu_bit_sel(r, 7, g1 >> 5) + sfu_bit_sel(r, 8, g1 >> 4) +
                   sfu_bit_sel(r, 9, g1 >> 3) + sfu_bit_sel(r, 10, g1 >> 2) +
                   sfu_bit_sel(r, 11, g1 >> 1);

    return (2 * t02 + t11 + 2 * g1 * g2 + 64 * g2 * g2) >> 1;
}

static int64_t sfu_poly(const SfuSlice *t, unsigned shift_a, uint32_t r,
                        uint32_t r2, unsigned shift_c)
{
    /* multiplications, not shifts: B and C may be negative */
    return (int64_t)t->a * ((int64_t)1 << shift_a) + (int64_t)t->b * r +
           (int64_t)t->c * r2 * ((int64_t)1 << shift_c);
}

/*
 * Pack sign, biased exponent and a significand in [2^23, 2^24] (or 0):
 * too small -> zero of the same sign, too large -> per @rnd.
 */
static uint32_t sfu_make(bool s, int e, uint32_t f, unsigned rnd)
{
    if (f == 2 * F32_IMPLICIT) {
        f >>= 1;
        e++;
    }
    if (f < F32_IMPLICIT || e <= 0) {
        return (uint32_t)s << 31;
    }
    if (e >= 255) {
        return f32_overflow(s, rnd);
    }
    return ((uint32_t)s << 31) | ((uint32_t)e << 23) | (f & 0x7fffffu);
}

uint32_t tesla_sfu_rcp(uint32_t x)
{
    bool s = x >> 31;
    int e = (x >> 23) & 0xff;
    uint32_t f = x & 0x7fffffu, r;
    const SfuSlice *t;

    x = tesla_f32_ftz(x);
    if (tesla_f32_isnan(x)) {
        return TESLA_F32_NAN;
    }
    if (f32_is_inf(x)) {
        return (uint32_t)s << 31;
    }
    if (f32_is_zero(x)) {
        return ((uint32_t)s << 31) | 0x7f800000u;
    }
    t = &sfu_rcp[f >> 16];
    r = f & 0xffff;
    f = (uint32_t)((sfu_poly(t, 13, r, sfu_square(r << 1), 0) + 0x47e7) >> 15);
    return sfu_make(s, 253 - e, f, TRND_RN);
}

uint32_t tesla_sfu_rsqrt(uint32_t x)
{
    int e, half;
    uint32_t f, r;
    const SfuSlice *t;

    x = tesla_f32_ftz(x);
    if (tesla_f32_isnan(x)) {
        return TESLA_F32_NAN;
    }
    if (f32_is_zero(x)) {
        return (x & 0x80000000u) | 0x7f800000u;     /* rsqrt(-0) = -Inf */
    }
    if (x >> 31) {
        return TESLA_F32_NAN;
    }
    if (f32_is_inf(x)) {
        return 0;
    }
    /* x = 2^(2 * half) * m, m in [1, 4): bit 23 selects [2, 4). */
    e = (int)((x >> 23) & 0xff) - 127;
    f = (x & 0x7fffffu) | ((uint32_t)(e & 1) << 23);
    half = (e - (e & 1)) / 2;
    if (!f) {
        return sfu_make(false, 127 - half, F32_IMPLICIT, TRND_RN);
    }
    t = &sfu_rsqrt[f >> 17];
    r = f & 0x1ffff;
    f = (uint32_t)((sfu_poly(t, 14, r, sfu_square(r), 2) + 0x7fff) >> 16);
    return sfu_make(false, 126 - half, f, TRND_RN);
}

uint32_t tesla_sfu_lg2(uint32_t x)
{
    bool s = false;
    int e, top;
    uint32_t f, r;
    int64_t v;

    x = tesla_f32_ftz(x);
    if (tesla_f32_isnan(x)) {
        return TESLA_F32_NAN;
    }
    if (f32_is_zero(x)) {
        return 0xff800000u;
    }
    if (x >> 31) {
        return TESLA_F32_NAN;
    }
    if (f32_is_inf(x)) {
        return x;
    }
    e = (x >> 23) & 0xff;
    f = x & 0x7fffffu;
    if (!f && e == 127) {
        v = 0;      /* lg2(1) is exactly 0 */
    } else {
        const SfuSlice *t = &sfu_lg2[f >> 17];

        r = f & 0x1ffff;
        v = (sfu_poly(t, 12, r, sfu_square(r), 1) + 0x3345) >> 2;
    }
    /* Integral part from the exponent, in 7.36 fixed point. */
    v += (int64_t)(e - 127) * ((int64_t)1 << 36);
    if (v < 0) {
        s = true;
        v = ~v;     /* one's complement, as the hardware does */
    }
    if (!v) {
        return (uint32_t)s << 31;
    }
    top = f_top_bit((uint64_t)v);
    v <<= 42 - top;
    return sfu_make(s, 127 + 6 - (42 - top), (uint32_t)(v >> 19), TRND_RN);
}

static uint32_t sfu_sincos(uint32_t x, bool cos)
{
    bool s = x >> 31;
    unsigned q = (x >> 23) & 0xff;      /* quadrant in the low 2 bits */
    uint32_t f = x & 0x7fffffu, r;
    const SfuSlice *t;
    int64_t v;
    int top;

    if (q & 0x80) {
        return TESLA_F32_NAN;           /* presin's NaN and Inf */
    }
    if (cos) {
        q++;
        s = false;
    }
    if (q & 1) {
        f = ~f;                         /* odd quadrant: mirror */
    }
    s ^= (q >> 1) & 1;
    t = &sfu_sin[(f >> 17) & 0x3f];
    r = f & 0x1ffff;
    v = sfu_poly(t, 11, r, sfu_square(r), 0);
    if (v <= 0) {
        return (uint32_t)s << 31;
    }
    top = f_top_bit((uint64_t)v);
    v <<= 37 - top;
    return sfu_make(s, 127 - (37 - top), (uint32_t)(v >> 14), TRND_RZ);
}

uint32_t tesla_sfu_sin(uint32_t x)
{
    return sfu_sincos(x, false);
}

uint32_t tesla_sfu_cos(uint32_t x)
{
    return sfu_sincos(x, true);
}

uint32_t tesla_sfu_ex2(uint32_t x)
{
    bool s = x >> 31;
    int e = (x >> 23) & 0xff;           /* integral part */
    uint32_t f = x & 0x7fffffu, r;
    const SfuSlice *t;

    if (e & 0x80) {
        if (e & 1) {
            return s ? 0 : 0x7f800000u; /* 2^+-Inf */
        }
        return TESLA_F32_NAN;
    }
    if (s) {
        /* -(e + f) = (-e - 1) + (1 - f), with 1 - f as ~f (hardware) */
        e = -e - 1;
        if (f) {
            f = ~f;
        } else {
            e++;
        }
    }
    t = &sfu_ex2[(f >> 17) & 0x3f];
    r = f & 0x1ffff;
    f = (uint32_t)((sfu_poly(t, 13, r, sfu_square(r), 0) + 0x77e2) >> 15);
    return sfu_make(false, e + 127, f, TRND_RN);
}

static uint32_t sfu_pre(uint32_t x, bool sin)
{
    uint32_t s = x & 0x80000000u;
    int e;
    uint32_t f;

    x = tesla_f32_ftz(x);
    if (tesla_f32_isnan(x)) {
        return s | 0x40000000u;
    }
    if (f32_is_inf(x)) {
        return s | 0x40800000u;
    }
    e = (x >> 23) & 0xff;
    f = e ? ((x & 0x7fffffu) | F32_IMPLICIT) : 0;
    e = (e ? e : 1) - 127;
    if (sin) {
        /* times 2/pi in 0.24 fixed point: quarter turns */
        f = (uint32_t)(((uint64_t)f * 0xa2f983) >> 16);
        e -= 8;
    }
    if (!sin && e >= 7) {
        return s | 0x40800000u;         /* 2^x overflows anyway */
    }
    if (e >= 0) {
        f = e >= 32 ? 0 : f << e;       /* presin: bits above wrap away */
    } else {
        f = -e >= 32 ? 0 : f >> -e;
    }
    if (sin) {
        f &= 0x1ffffff;                 /* modulo 4 quarter turns */
    }
    return s | f;
}

uint32_t tesla_sfu_presin(uint32_t x)
{
    return sfu_pre(x, true);
}

uint32_t tesla_sfu_preex2(uint32_t x)
{
    return sfu_pre(x, false);
}
