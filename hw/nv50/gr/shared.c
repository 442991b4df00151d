/*
 * The state the 3D and compute objects of a channel share
 * (NV50GrShared, gr.h: code segments, the constant buffer table and its
 * upload port, c[] slot bindings, TIC/TSC state): one copy per channel,
 * written by whichever class's method names it.  The classes decode
 * their own method numbers (g80_3d.xml, g80_compute.xml) and call these.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "gr.h"

/* PFB VM trap client of constant buffer writes (nvkm fb/nv50.c) */
#define VM_CLIENT_CCACHE        0x5
#define VM_SUBCLIENT_CB         0x0

void nv50_gr_cb_def_set(NV50GrCall *c, uint64_t addr, uint32_t data)
{
    NV50GrCb *cb = &c->ctx->shared.cb[(data >> 16) & 0x7f];

    cb->addr = addr;
    /* Mesa defines its 64 KiB buffers with SIZE 0 */
    cb->size = (data & 0xffff) ? (data & 0xffff) : 0x10000;
    cb->valid = true;
}

void nv50_gr_cb_data(NV50GrCall *c, const char *cls, uint32_t data)
{
    NV50GrShared *sh = &c->ctx->shared;
    unsigned buf = sh->cb_addr & 0x7f;
    unsigned id = (sh->cb_addr >> 8) & 0x3fff;
    const NV50GrCb *cb = &sh->cb[buf];
    NV50CtxDma d;
    uint8_t b[4];

    /* ID counts on whatever happens to the word (UNVERIFIED) */
    sh->cb_addr = (sh->cb_addr & ~0x3fff00u) | ((id + 1) & 0x3fff) << 8;
    if (!cb->valid || id * 4u >= cb->size) {
        /* UNVERIFIED: the hardware's reaction is unknown; dropped */
        gemu_log_mask(LOG_GUEST_ERROR, "nv50: %s CB_DATA: word %u of "
                      "constant buffer %u (%s), dropped\n", cls, id, buf,
                      cb->valid ? "past its size" : "not defined");
        return;
    }
    stn_le_p(b, 4, data);
    /* UNVERIFIED: no DMA_CODE_CB bound, the addresses are VAs */
    if (!sh->dma_code_cb) {
        nv50_gr_vm_rw(c, cb->addr + id * 4u, b, 4, true, VM_CLIENT_CCACHE,
                      VM_SUBCLIENT_CB, NV50_GR_TRAP_CCACHE);
    } else if (nv50_gr_ctxdma(c, sh->dma_code_cb, &d)) {
        nv50_gr_rw(c, &d, cb->addr + id * 4u, b, 4, true, VM_CLIENT_CCACHE,
                   VM_SUBCLIENT_CB, NV50_GR_TRAP_CCACHE);
    }
}

void nv50_gr_set_program_cb(NV50GrCall *c, unsigned prog, uint32_t data)
{
    unsigned slot = (data >> 8) & 0xf;

    c->ctx->shared.prog_cb[prog][slot] =
        (data & 1) ? NV50_GR_BIND_VALID | ((data >> 12) & 0x7f) : 0;
}

void nv50_gr_bind_tic(NV50GrCall *c, unsigned prog, uint32_t data)
{
    unsigned slot = (data >> 1) & 0xff;

    c->ctx->shared.bind_tic[prog][slot] =
        (data & 1) ? NV50_GR_BIND_VALID | ((data >> 9) & 0x3fffff) : 0;
}

void nv50_gr_bind_tsc(NV50GrCall *c, unsigned prog, uint32_t data)
{
    unsigned slot = (data >> 4) & 0xf;

    c->ctx->shared.bind_tsc[prog][slot] =
        (data & 1) ? NV50_GR_BIND_VALID | ((data >> 12) & 0x1ff) : 0;
}

const NV50GrCb *nv50_gr_prog_cb(const NV50GrShared *sh, unsigned prog,
                                unsigned slot)
{
    uint32_t bind = sh->prog_cb[prog][slot];
    const NV50GrCb *cb = &sh->cb[bind & 0x7f];

    return (bind & NV50_GR_BIND_VALID) && cb->valid ? cb : NULL;
}
