/*
 * Keyboard input: backends (the SDL window) report keys by their QEMU
 * "qcode" names; the machine that registered a key listener passes them
 * on to its guest.  Nothing here knows of SDL or of QEMU.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "ui/console.h"

static struct {
    DisplayKeyFn cb;
    void *opaque;
} display_input;

void display_set_key_handler(DisplayKeyFn cb, void *opaque)
{
    display_input.cb = cb;
    display_input.opaque = cb ? opaque : NULL;
}

void display_key_event(const char *qcode, bool down)
{
    if (qcode && display_input.cb) {
        display_input.cb(display_input.opaque, qcode, down);
    }
}
