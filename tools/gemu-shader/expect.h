/*
 * gemu-shader (sgx543): the expectations of a state file ("expect oN=B",
 * "tolerance N", "rig corners W H"), checked against a run's outputs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef GEMU_SHADER_EXPECT_H
#define GEMU_SHADER_EXPECT_H

#include "target/usse/exec.h"

/* "T expect oN=B": output N of thread T read as a colour byte is B. */
typedef struct UsseExpect {
    uint32_t thread, reg;
    uint8_t byte;
} UsseExpect;

typedef struct UsseExpects {
    GArray *items;          /* UsseExpect, in file order */
    unsigned tolerance;
    unsigned rig_w, rig_h;  /* "rig corners W H"; 0: the outputs as they are */
} UsseExpects;

/* Print every expectation against @run's outputs; are all met? */
bool usse_expects_check(const UsseExpects *s, const UsseRun *run);

#endif
