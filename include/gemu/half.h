/*
 * IEEE 754 binary16 ("half") to and from binary32, the one conversion the
 * units that store halves share (the USSE's f16 registers, the G84's
 * 2D/render formats, UI surfaces).  Shader ISAs with their own rounding
 * modes and flush rules (target/tesla) keep theirs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_HALF_H
#define GEMU_HALF_H

#include "gemu/osdep.h"

/* Exact: every half is a float (NaN payloads kept, subnormals exact). */
float gemu_half_to_float(uint16_t h);
/*
 * Round to nearest even; overflow to infinity; NaN stays NaN (quiet,
 * the top 9 payload bits kept).
 */
uint16_t gemu_float_to_half(float f);

#endif
