/*
 * The EVO channels' internals shared by evo.c (the DMA pusher, methods,
 * errors, context DMAs and notifiers, channel control, the USER area)
 * and evo-update.c (UPDATE: interlocks, supervisors, vblank flips,
 * arming, the 0x610xxx copies of the method state).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_NV50_EVO_INT_H
#define HW_NV50_EVO_INT_H

#include "hw/nv50/evo.h"

/* methods every channel class has */
#define EVO_UPDATE              0x080
#define EVO_UPDATE_INTERLOCK    (1u << 0)   /* base/ovly/PIO: with core */

/* core channel (cl507d) */
#define CORE_SET_NOTIFIER_CONTROL 0x084     /* NOTIFY 31, AWAKEN 30, 11:2 */
#define CORE_SET_CONTEXT_DMA_NOTIFIER 0x088
#define CORE_GET_CAPABILITIES   0x08c
#define CORE_UPDATE_INHIBIT_INTERRUPTS (1u << 29)
#define CORE_NTFY_NOTIFY        (1u << 31)
#define CORE_NTFY_DONE          0x00000001u

/* base (cl507c/cl827c) and overlay (cl507e/cl827e) channels */
#define WNDW_SET_PRESENT_CONTROL 0x084      /* BEGIN_MODE 9:8 */
#define WNDW_SET_SEMAPHORE_CONTROL 0x088    /* OFFSET 11:2 */
#define WNDW_SET_SEMAPHORE_ACQUIRE 0x08c
#define WNDW_SET_SEMAPHORE_RELEASE 0x090
#define WNDW_SET_CONTEXT_DMA_SEMAPHORE 0x094
#define WNDW_SET_NOTIFIER_CONTROL 0x0a0     /* AWAKEN 30, OFFSET 11:2 */
#define WNDW_SET_CONTEXT_DMA_NOTIFIER 0x0a4
#define BASE_BEGIN_IMMEDIATE    1
#define WNDW_NTFY_BEGUN         0x40000000u /* STATUS 31:30 = BEGUN */
/*
 * The overlay's notifier is another format (cl827e NV_DISP_NOTIFICATION_1,
 * 16 bytes): word 3 = STATUS 31:16 (0x8000 NOT_BEGUN, 0xffff BEGUN, 0
 * FINISHED), PRESENT_COUNT 7:0; nouveau waits for BEGUN there
 * (ovly827e_ntfy_wait_begun).
 */
#define OVLY_NTFY_WORD          3
#define OVLY_NTFY_BEGUN         0xffff0000u

static inline bool evo_is_wndw(int c)
{
    return c >= NV50_EVO_BASE(0) && c <= NV50_EVO_OVLY(1);
}

static inline int evo_head(int c)
{
    return c == NV50_EVO_CORE ? -1 : (c - 1) & 1;
}

static inline bool evo_enabled(NV50State *s, int c)
{
    return *nv50_pdisp_reg(s, NV_PDISP_CHAN_CTRL(c)) & 1;
}

/* --- evo.c --- */

/* Run DMA channel c from GET towards PUT, until an UPDATE or an error. */
void nv50_evo_run(NV50State *s, int c);
/*
 * Write one word of a notifier or semaphore: byte @offset of context
 * DMA @handle.  False with a channel error (blamed on @mthd) if the
 * handle or the offset is bad.
 */
bool nv50_evo_dma_write(NV50State *s, int c, uint32_t mthd, uint32_t handle,
                        uint32_t offset, uint32_t val);
/* A notifier write; AWAKEN mode also raises INTR0 bit chid. */
void nv50_evo_notify(NV50State *s, int c, uint32_t mthd, uint32_t ctl,
                     uint32_t handle, uint32_t word, uint32_t val);

/* --- evo-update.c --- */

/* Copy method @mthd's data to its state register (assembly). */
void nv50_evo_mirror(NV50State *s, int c, uint32_t mthd, uint32_t data);
/* Channel c's UPDATE method (@data): pending until it can complete. */
void nv50_evo_update(NV50State *s, int c, uint32_t data);
/* Start what the pending UPDATEs allow. */
void nv50_evo_update_try(NV50State *s);

#endif
