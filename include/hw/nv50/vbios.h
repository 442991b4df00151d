/*
 * Layout of the VBIOS image gemu generates (hw/nv50/vbios.c), shared
 * with the tests that parse it the way nouveau does.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_VBIOS_H
#define HW_NV50_VBIOS_H

#define VBIOS_SIZE              0x10000     /* 64 KiB, one image */
#define VBIOS_PCIR              0x0060
#define VBIOS_BIT               0x0100
#define VBIOS_BIT_i             0x0180
#define VBIOS_BIT_I_LEN         0x0012
#define VBIOS_BIT_INIT          0x01a0
#define VBIOS_BIT_INIT_LEN      0x000e
#define VBIOS_SCRIPTS           0x01c0
#define VBIOS_BIT_C             0x01e0      /* 'C': +8 PLL limits table */
#define VBIOS_BIT_C_LEN         0x000a
#define VBIOS_DCB               0x0200
#define VBIOS_DCB_HDR_LEN       0x17
#define VBIOS_DCB_SIGNATURE     0x4edcbdcbu
#define VBIOS_NUM_OUTPUTS       2
#define VBIOS_CCB               0x0280
#define VBIOS_CONN              0x02c0
#define VBIOS_PLL               0x0300      /* PLL limits table 0x40 */
#define VBIOS_PLL_ENTRY_LEN     11
#define VBIOS_PLL_LIMITS        0x0330      /* one 14-byte record a PLL */

#endif
