/*
 * A scene (block/sgx-scene.h) put on an SGX543 the way a guest driver
 * would: blobs into device memory, register writes, then one kernel-CCB
 * slot per command buffer and an EVENT_KICK.  The sgx543 machine
 * (system/sgx543.c) and the scene fuzzer (tests/fuzz/) share it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_SGX543_SCENE_H
#define HW_SGX543_SCENE_H

#include "block/sgx-scene.h"
#include "hw/sgx543/sgx543.h"

/* The CCB (256 x 32 bytes) and its control words live in the top 12 KiB. */
#define SGX_SCENE_CCB_AREA  0x3000u

/*
 * Copy the scene's blobs into @ram (scene->mem_size bytes).  False with
 * *err = "line N: ..." when one reaches the CCB area.
 */
bool sgx_scene_load(const SgxScene *scene, uint8_t *ram, char **err);

/*
 * The scene's register writes, then its command buffers, one TA command
 * each, kicked one at a time on @dev, whose memory is @ram.  False with
 * *err when a command buffer did not complete.  Errors the device
 * reports are left in its registers (EVENT_STATUS2, EMU_ERR_*).
 */
bool sgx_scene_submit(const SgxScene *scene, Sgx543State *dev, uint8_t *ram,
                      char **err);

#endif
