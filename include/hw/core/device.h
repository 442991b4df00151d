/*
 * Device objects: a small QOM-like base.  A device has a type (its ops),
 * an id, properties set before realize, and realize/reset/finalize hooks.
 * Concrete devices embed DeviceState as their first member and cast.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HW_CORE_DEVICE_H
#define HW_CORE_DEVICE_H

#include "gemu/osdep.h"

typedef struct DeviceState DeviceState;

typedef struct DeviceOps {
    const char *type_name;
    /* Build what depends on the properties; false with *errp set on error. */
    bool (*realize)(DeviceState *dev, GError **errp);
    /* Power-on state; may be called any number of times after realize. */
    void (*reset)(DeviceState *dev);
    /* Free what realize allocated (the object itself is the caller's). */
    void (*unrealize)(DeviceState *dev);
} DeviceOps;

struct DeviceState {
    const DeviceOps *ops;
    char *id;
    bool realized;
    GHashTable *props;          /* name -> uint64_t value (g_new) */
};

#define DEVICE(obj) ((DeviceState *)(obj))

void device_init(DeviceState *dev, const DeviceOps *ops, const char *id);
bool device_realize(DeviceState *dev, GError **errp);
void device_reset(DeviceState *dev);
/* Unrealize (if realized) and free the base's own storage. */
void device_finalize(DeviceState *dev);

const char *device_type_name(const DeviceState *dev);

/*
 * Integer properties (sizes, ids).  Setting is only allowed before
 * realize; the device reads them in realize with a default.
 */
bool device_set_prop_uint(DeviceState *dev, const char *name, uint64_t val,
                          GError **errp);
uint64_t device_get_prop_uint(const DeviceState *dev, const char *name,
                              uint64_t def);

GQuark gemu_device_error_quark(void);
#define GEMU_DEVICE_ERROR gemu_device_error_quark()

#endif
