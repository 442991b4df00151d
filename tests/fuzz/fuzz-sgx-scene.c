/*
 * The scene-file reader (block/sgx-scene.c) and the SGX543's command
 * processor behind it: the input is a scene file; one that parses is
 * loaded into device memory and its command buffers are kicked as the
 * sgx543 machine does (hw/sgx543/scene.c), without a display.  Scenes
 * asking for more than FUZZ_SCENE_MEMORY bytes of memory are only
 * parsed (every run would clear hundreds of MiB otherwise).
 *
 * SPDX-License-Identifier: MIT
 */
#include "fuzz.h"
#include "hw/sgx543/scene.h"
#include "hw/sgx543/regs.h"

#define FUZZ_SCENE_MEMORY   (32u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size);
    g_autofree char *err = NULL;
    g_autofree uint8_t *ram = NULL;
    SgxScene *scene;
    GuestRAM *guest_ram;
    Sgx543State *dev;

    fuzz_quiet();
    if (!text) {
        return 0;
    }
    scene = sgx_scene_parse(text, NULL, &err);
    if (!scene) {
        if (!err || strncmp(err, "line ", 5)) {
            fprintf(stderr, "scene error without a line: %s\n",
                    err ? err : "(none)");
            abort();
        }
        return 0;
    }
    if (scene->mem_size > FUZZ_SCENE_MEMORY) {
        sgx_scene_free(scene);
        return 0;
    }
    ram = g_malloc0(scene->mem_size);
    if (sgx_scene_load(scene, ram, &err)) {
        guest_ram = guest_ram_new();
        guest_ram_add(guest_ram, 0, scene->mem_size, ram);
        dev = sgx543_new(guest_ram);
        (void)sgx_scene_submit(scene, dev, ram, &err);
        (void)sgx543_mmio_read(dev, SGX_EVENT_STATUS2);
        sgx543_free(dev);
        guest_ram_free(guest_ram);
    }
    sgx_scene_free(scene);
    return 0;
}
