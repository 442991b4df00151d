/*
 * SGX543 register offsets and bits (sgx543.md §3.3, §3.7(a)).  Names
 * follow the PowerVR EUR_CR_* names without the prefix; the EMU_*
 * registers at 0x3F00.. are gemu's own (no SGX543 register lives there).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_REGS_H
#define HW_SGX543_REGS_H

#define SGX_MMIO_SIZE               0x10000
#define SGX_MASTER_BASE             0x4000  /* MP master bank mirror (IDs) */

#define SGX_CLKGATECTL              0x0000
#define SGX_CLKGATESTATUS           0x0008
#define SGX_POWER                   0x001C
#define SGX_CORE_ID                 0x0020
#define SGX_CORE_REVISION           0x0024
#define SGX_SOFT_RESET              0x0080
#define SGX_EVENT_HOST_ENABLE2      0x0110
#define SGX_EVENT_HOST_CLEAR2       0x0114
#define SGX_EVENT_STATUS2           0x0118
#define SGX_EVENT_STATUS            0x012C
#define SGX_EVENT_HOST_ENABLE       0x0130
#define SGX_EVENT_HOST_CLEAR        0x0134
#define SGX_TIMER                   0x0144
#define SGX_USE_CODE_BASE(n)        (0x0A0C + 4 * (n))     /* n < 16 */
#define SGX_USE_CODE_BASE_NUM       16
#define SGX_EVENT_KICK              0x0AC8
#define SGX_BIF_CTRL                0x0C00
#define SGX_BIF_INT_STAT            0x0C04
#define SGX_BIF_FAULT               0x0C08
#define SGX_BIF_CTRL_INVAL          0x0C34
#define SGX_BIF_DIR_LIST_BASE0      0x0C84

#define SGX_EMU_CCB_BASE            0x3F00
#define SGX_EMU_CCB_CTL             0x3F04
#define SGX_EMU_ERR_INFO            0x3F08  /* byte offset of the packet */
#define SGX_EMU_CAPS                0x3F0C
#define SGX_EMU_ERR_SLOT            0x3F10  /* CCB slot of the error */
#define SGX_EMU_ERR_PC              0x3F14  /* USSE PC of a shader trap */
#define SGX_EMU_ERR_CODE            0x3F18  /* SgxErrCode */

/* CORE_ID / CORE_REVISION values.  UNVERIFIED: the ID gemu reports. */
#define SGX_CORE_ID_VALUE           0x01140000  /* ID 0x0114, 1 core */
#define SGX_CORE_REVISION_VALUE     0x00020106  /* rev 2.1.6 ("216") */

/* EVENT_STATUS / EVENT_HOST_ENABLE / EVENT_HOST_CLEAR */
#define SGX_EVENT_MASTER_INTERRUPT  (1u << 31)
#define SGX_EVENT_TIMER             (1u << 29)
#define SGX_EVENT_TA_DPM_FAULT      (1u << 28)  /* gemu: any device error */
#define SGX_EVENT_PIXELBE_END_RENDER (1u << 18)
#define SGX_EVENT_SW_EVENT          (1u << 14)
#define SGX_EVENT_TA_FINISHED       (1u << 13)

/* EVENT_STATUS2: error detail (gemu) */
#define SGX_EVENT2_BAD_PACKET       (1u << 0)
#define SGX_EVENT2_ILLEGAL_INSN     (1u << 1)
#define SGX_EVENT2_MMU_FAULT        (1u << 2)
#define SGX_EVENT2_CCB_OVERFLOW     (1u << 3)

#define SGX_EVENT_KICK_NOW          (1u << 0)

/* BIF_CTRL */
#define SGX_BIF_CTRL_CLEAR_FAULT    (1u << 4)
#define SGX_BIF_CTRL_BYPASS_MASK    0x000FFE00u     /* bits 9..19 */

/* MMU entries (§3.6) */
#define SGX_MMU_VALID               (1u << 0)
#define SGX_MMU_WRITEONLY           (1u << 1)
#define SGX_MMU_READONLY            (1u << 2)

/*
 * EMU_CAPS: bits 0..3 colour formats, 4 tiled and swizzled surfaces,
 * 5 MSAA 2x/4x, 6 TRANSFER_* packets, 7 lines and points, 8 SceGxmTexture
 * words (mips, all layouts); [23:16] max surface size / 256
 */
#define SGX_EMU_CAPS_VALUE          0x001001ffu

/* The kernel CCB: 256 slots of 32 bytes (SGXMKIF_COMMAND) */
#define SGX_CCB_SLOTS               256
#define SGX_CCB_SLOT_SIZE           32

/* SGXMKIF_COMMAND.ServiceAddress, reinterpreted as the command type */
#define SGX_CMD_TA                  0   /* execute a command buffer */
#define SGX_CMD_TRANSFER            1
#define SGX_CMD_POWER               3
#define SGX_CMD_CLEANUP             5
#define SGX_CMD_PROCESS_QUEUES      7

#define SGX_CMD_FLAG_SW_EVENT       (1u << 0)   /* Data[4] */

#endif
