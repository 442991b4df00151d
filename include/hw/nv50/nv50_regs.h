/*
 * G84 BAR0 register addresses, absolute, named after envytools rnndb
 * (unit_REG) with the nouveau name in a comment where they differ.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_NV50_REGS_H
#define HW_NV50_NV50_REGS_H

/* PMC 0x000000 */
#define NV_PMC_ID               0x000000    /* nouveau: BOOT_0 */
#define NV_PMC_ENDIAN           0x000004    /* nouveau: BOOT_1 */
#define NV_PMC_INTR_HOST        0x000100
#define NV_PMC_INTR_EN_HOST     0x000140
#define NV_PMC_INTR_LN_HOST     0x000160
#define NV_PMC_ENABLE           0x000200

/* PBUS 0x001000 */
#define NV_PBUS_FUSE_1084       0x001084    /* nvkm fuse/nv50.c */
#define NV_PBUS_INTR            0x001100
#define NV_PBUS_INTR_EN         0x001140
#define NV_PBUS_HWUNITS_0       0x001540
#define NV_PBUS_HWUNITS_1       0x00154c
#define NV_PBUS_HOST_MEM_PMEM   0x001700    /* PRAMIN window base >> 16 */
#define NV_PBUS_HOST_MEM_CHAN   0x001704    /* BAR VM instance >> 12 */
#define NV_PBUS_HOST_MEM_BAR1   0x001708
#define NV_PBUS_HOST_MEM_BAR3   0x00170c
#define NV_PBUS_HOST_MEM_PEEPHOLE 0x001710
#define NV_PBUS_BAR_UNK1900     0x001900    /* ..0x00191c, nvkm bar/nv50.c */

/* PTIMER 0x009000 */
#define NV_PTIMER_INTR          0x009100
#define NV_PTIMER_INTR_ENABLE   0x009140
#define NV_PTIMER_CLOCK_DIV     0x009200    /* nouveau: NUMERATOR */
#define NV_PTIMER_CLOCK_MUL     0x009210    /* nouveau: DENOMINATOR */
#define NV_PTIMER_CLOCK_SOURCE  0x009220
#define NV_PTIMER_TIME_LOW      0x009400
#define NV_PTIMER_TIME_HIGH     0x009410
#define NV_PTIMER_ALARM         0x009420

/* PNVIO 0x00e000 */
#define NV_PNVIO_GPIO_INTR_EN   0x00e050
#define NV_PNVIO_GPIO_INTR      0x00e054
#define NV_PNVIO_I2C_BITBANG0   0x00e138    /* port 0; port 1 at 0x00e150 */

/* PFLUSH 0x070000 */
#define NV_PFLUSH_BAR           0x070000    /* bit 0 trigger, bit 1 busy */

/* PPCI 0x088000: config space mirror */
#define NV_PPCI_BASE            0x088000

/* PFB 0x100000 */
#define NV_PFB_CFG0             0x100200
#define NV_PFB_CFG1             0x100204
#define NV_PFB_MEM_AMOUNT       0x10020c
#define NV_PFB_BANKCFG          0x100250
#define NV_PFB_COMP_MAX_TAG     0x100320
#define NV_PFB_MEM_TYPE         0x100714    /* bits 2:0, nvkm ramnv50.c */
#define NV_PFB_NISO_BASE        0x100c08
#define NV_PFB_MMU_TLB_FLUSH    0x100c80
#define NV_PFB_MMU_VM_FAULT     0x100c90
#define NV_PFB_MMU_VM_FAULT_DATA 0x100c94

/* PSTRAPS 0x101000 */
#define NV_PSTRAPS_STRAPS0      0x101000

/* PROM 0x300000, PRMIO 0x601000, PDISPLAY 0x610000, PMEM 0x700000 */
#define NV_PROM_BASE            0x300000
#define NV_PROM_SIZE            0x100000
#define NV_PRMIO_CRTC_INDEX(h)  (0x6013d4 + (h) * 0x2000)
#define NV_PRMIO_CRTC_DATA(h)   (0x6013d5 + (h) * 0x2000)
#define NV_PDISPLAY_VBIOS_SHADOW 0x619f04   /* PRAMIN VBIOS shadow ctrl */
#define NV_PMEM_BASE            0x700000
#define NV_PMEM_SIZE            0x100000

#endif
