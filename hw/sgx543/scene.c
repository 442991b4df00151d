/*
 * A scene on an SGX543: the driver's part of the sgx543 machine
 * (include/hw/sgx543/scene.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/sgx543/scene.h"
#include "hw/sgx543/regs.h"

static uint32_t ld32(const uint8_t *ram, uint32_t pa)
{
    uint32_t v;

    memcpy(&v, ram + pa, 4);
    return GUINT32_FROM_LE(v);
}

static void st32(uint8_t *ram, uint32_t pa, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    memcpy(ram + pa, &v, 4);
}

bool sgx_scene_load(const SgxScene *scene, uint8_t *ram, char **err)
{
    uint32_t ccb = scene->mem_size - SGX_SCENE_CCB_AREA;

    for (guint i = 0; i < scene->blobs->len; i++) {
        SgxSceneBlob *b = &g_array_index(scene->blobs, SgxSceneBlob, i);

        if ((uint64_t)b->addr + b->data->len > ccb) {
            *err = g_strdup_printf("line %u: data at 0x%08x reaches the "
                                   "CCB area (the top 0x%x bytes of "
                                   "memory)", b->line, b->addr,
                                   SGX_SCENE_CCB_AREA);
            return false;
        }
        /* an empty block ("usse" then "end") has no data pointer */
        if (b->data->len) {
            memcpy(ram + b->addr, b->data->data, b->data->len);
        }
    }
    return true;
}

bool sgx_scene_submit(const SgxScene *scene, Sgx543State *dev, uint8_t *ram,
                      char **err)
{
    uint32_t ccb = scene->mem_size - SGX_SCENE_CCB_AREA;
    uint32_t ctl = scene->mem_size - 0x1000;

    for (guint i = 0; i < scene->regs->len; i++) {
        SgxSceneReg *r = &g_array_index(scene->regs, SgxSceneReg, i);
        sgx543_mmio_write(dev, r->offset, r->value);
    }
    sgx543_mmio_write(dev, SGX_EMU_CCB_BASE, ccb);
    sgx543_mmio_write(dev, SGX_EMU_CCB_CTL, ctl);
    for (guint i = 0; i < scene->cmds->len; i++) {
        SgxSceneCmd *c = &g_array_index(scene->cmds, SgxSceneCmd, i);
        uint32_t slot = ccb + (i % SGX_CCB_SLOTS) * SGX_CCB_SLOT_SIZE;
        uint32_t woff = (i + 1) % SGX_CCB_SLOTS;

        st32(ram, slot, SGX_CMD_TA);
        st32(ram, slot + 4, 0);
        st32(ram, slot + 8, c->addr);
        st32(ram, slot + 12, c->size);
        st32(ram, slot + 16, ctl + 8);     /* status update: done count */
        st32(ram, slot + 20, i + 1);
        st32(ram, slot + 24, 0);
        st32(ram, ctl, woff);
        sgx543_mmio_write(dev, SGX_EVENT_KICK, SGX_EVENT_KICK_NOW);
        if (ld32(ram, ctl + 4) != woff) {
            *err = g_strdup_printf("command buffer %u did not complete (a "
                                   "WAIT that nothing satisfies?)", i + 1);
            return false;
        }
    }
    return true;
}
