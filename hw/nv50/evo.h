/*
 * nv50 PDISPLAY internals shared by pdisplay.c (registers, interrupts,
 * supervisors, raster generators) and evo.c, evo-update.c (the EVO
 * channels; their own internals in evo-int.h).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_EVO_H
#define HW_NV50_EVO_H

#include "hw/nv50/nv50.h"

#define NV_PDISP_BASE           0x610000
#define NV_PDISP_INST           0x610010    /* (inst >> 8) | 9 */
#define NV_PDISP_INTR0          0x610020    /* channel errors, awaken */
#define NV_PDISP_INTR1          0x610024    /* vblank, supervisor */
#define NV_PDISP_INTR0_EN       0x610028
#define NV_PDISP_INTR1_EN       0x61002c
#define NV_PDISP_SUPER          0x610030    /* supervisor heads / ack */
#define NV_PDISP_ERR_ADDR(c)    (0x610080 + (c) * 8)
#define NV_PDISP_ERR_DATA(c)    (0x610084 + (c) * 8)
#define NV_PDISP_CHAN_CTRL(c)   (0x610200 + (c) * 0x10)
#define NV_PDISP_CHAN_PUSH(c)   (0x610204 + (c) * 0x10)

#define NV_PDISP_INTR0_AWAKEN(c)    (1u << (c))
#define NV_PDISP_INTR0_ERROR(c)     (0x10000u << (c))
#define NV_PDISP_INTR1_VBLANK(h)    (4u << (h))
#define NV_PDISP_INTR1_SUPER(n)     (0x10u << ((n) - 1))   /* n = 1..3 */

/* 0x610030 bits per head, as nvkm's nv50_disp_super() reads them */
#define NV_PDISP_SUPER_ACTIVE(h)    (0x020u << (h))
#define NV_PDISP_SUPER_MODESET(h)   (0x080u << (h))
#define NV_PDISP_SUPER_VCLK(h)      (0x200u << (h))
#define NV_PDISP_SUPER_PENDING      0x80000000u

/* error types of 0x610080 bits 14:12 (nvkm nv50_disp_intr_error_type) */
#define EVO_ERR_PUSHBUFFER      1
#define EVO_ERR_RESERVED_METHOD 3
#define EVO_ERR_INVALID_ARG     4
#define EVO_ERR_UNRESOLVABLE    7

/* core (cl507d/cl827d) methods of head h */
#define EVO_HEAD(h, m)          (0x800 + (h) * 0x400 + (m))
#define HEAD_SET_PIXEL_CLOCK    0x004   /* FREQUENCY 21:0, kHz */
#define HEAD_SET_CONTROL        0x008
#define HEAD_SET_RASTER_SIZE    0x014   /* total: WIDTH 14:0 HEIGHT 30:16 */
#define HEAD_SET_RASTER_SYNC_END 0x018
#define HEAD_SET_RASTER_BLANK_END 0x01c
#define HEAD_SET_RASTER_BLANK_START 0x020
#define HEAD_SET_RASTER_VERT_BLANK2 0x024
#define HEAD_SET_RASTER_VERT_BLANK_DMI 0x028

static inline uint32_t *nv50_pdisp_reg(NV50State *s, hwaddr addr)
{
    return &s->pdisp->regs[(addr - NV_PDISP_BASE) >> 2];
}

/* pdisplay.c */
void nv50_pdisp_update_irq(NV50State *s);
/*
 * A core UPDATE is ready to take effect: run the supervisor sequence
 * for the heads in @heads (0x610030 bits; 0: none), then call
 * nv50_evo_core_update_done().
 */
void nv50_pdisp_super_start(NV50State *s, uint32_t heads);
/* Core state of head @head was armed: (re)start or stop its raster. */
void nv50_pdisp_head_armed(NV50State *s, int head);
bool nv50_pdisp_head_running(NV50State *s, int head);

/* evo.c */
void nv50_evo_reset(NV50State *s);
/* Channel control bit 0 changed (0x610200 + c * 0x10). */
void nv50_evo_chan_enable(NV50State *s, int c, bool on);
/* The driver acknowledged the channel's error (0x610080 + c * 8). */
void nv50_evo_error_ack(NV50State *s, int c);
/* The supervisor sequence is over: arm the core UPDATE. */
void nv50_evo_core_update_done(NV50State *s);
/* Vertical blank on @head: take the flips that wait for it. */
void nv50_evo_vblank(NV50State *s, int head);

#endif
