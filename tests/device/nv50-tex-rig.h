/*
 * What the texture unit suites (test-device-nv50-texture.c, -aniso.c)
 * share on top of nv50-gr-rig.h: a call on the channel's 3D class and
 * the FP's texture unit, sampled through nv50_tex_sample().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_DEVICE_NV50_TEX_RIG_H
#define TESTS_DEVICE_NV50_TEX_RIG_H

#include "nv50-gr-rig.h"
#include "hw/nv50/gr/pipe.h"

static NV50GrCall call;
static NV50TexUnit unit;

/* The rig; TIC/TSC entries at @tic_va/@tsc_va, limits 2047 (Mesa's) */
static inline void tex_rig_init(uint64_t tic_va, uint64_t tsc_va)
{
    gr_rig_init();
    call.s = rig.s;
    call.ctx = gr.ctx;
    call.class_id = 0x8297;
    unit.c = &call;
    unit.prog = NV50_GR_PROG_FP;
    gr.ctx->shared.tic_addr = tic_va;
    gr.ctx->shared.tsc_addr = tsc_va;
    gr.ctx->shared.tic_limit = 2047;
    gr.ctx->shared.tsc_limit = 2047;
}

/* A TIC or TSC entry's eight words at @va */
static inline void tex_rig_entry(uint64_t va, const uint32_t w[8])
{
    for (unsigned i = 0; i < 8; i++) {
        gr_wr32(va + 4 * i, w[i]);
    }
}

#endif
