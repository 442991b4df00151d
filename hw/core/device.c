/*
 * Device objects: type, id, integer properties, realize/reset.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/core/device.h"

G_DEFINE_QUARK(gemu-device-error, gemu_device_error)

void device_init(DeviceState *dev, const DeviceOps *ops, const char *id)
{
    dev->ops = ops;
    dev->id = g_strdup(id ? id : ops->type_name);
    dev->realized = false;
    dev->props = g_hash_table_new_full(g_str_hash, g_str_equal,
                                       g_free, g_free);
}

bool device_realize(DeviceState *dev, GError **errp)
{
    if (dev->realized) {
        return true;
    }
    if (dev->ops->realize && !dev->ops->realize(dev, errp)) {
        return false;
    }
    dev->realized = true;
    device_reset(dev);
    return true;
}

void device_reset(DeviceState *dev)
{
    if (dev->realized && dev->ops->reset) {
        dev->ops->reset(dev);
    }
}

void device_finalize(DeviceState *dev)
{
    if (dev->realized && dev->ops->unrealize) {
        dev->ops->unrealize(dev);
    }
    dev->realized = false;
    g_clear_pointer(&dev->props, g_hash_table_destroy);
    g_clear_pointer(&dev->id, g_free);
}

const char *device_type_name(const DeviceState *dev)
{
    return dev->ops->type_name;
}

bool device_set_prop_uint(DeviceState *dev, const char *name, uint64_t val,
                          GError **errp)
{
    uint64_t *v;

    if (dev->realized) {
        g_set_error(errp, GEMU_DEVICE_ERROR, 0,
                    "%s: property '%s' cannot change after realize",
                    dev->id, name);
        return false;
    }
    v = g_new(uint64_t, 1);
    *v = val;
    g_hash_table_insert(dev->props, g_strdup(name), v);
    return true;
}

uint64_t device_get_prop_uint(const DeviceState *dev, const char *name,
                              uint64_t def)
{
    const uint64_t *v = g_hash_table_lookup(dev->props, name);

    return v ? *v : def;
}
