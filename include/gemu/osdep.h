/*
 * Common includes and helpers every gemu source file starts with.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_OSDEP_H
#define GEMU_OSDEP_H

#include "config-host.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <errno.h>

#include <glib.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

#ifndef likely
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#define GEMU_NORETURN __attribute__((noreturn))
#define GEMU_PRINTF(a, b) __attribute__((format(printf, a, b)))

#endif
