/*
 * Helpers shared by the USSE interpreter tests.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TEST_USSE_EXEC_H
#define TEST_USSE_EXEC_H

#include "target/usse/exec.h"

typedef struct UsseTestSetup {
    UsseStage stage;
    unsigned instances;         /* 0: 1 */
    const uint32_t *pa;
    unsigned pa_words;
    const uint32_t *sa;         /* USSE_MAX_REGS words, or NULL */
    const bool *helper;
    UsseSampleFn sample;
    UsseMemFn mem;
    void *opaque;
    uint64_t budget;            /* 0: 100000 */
} UsseTestSetup;

/* Assemble (aborts the test on an error). */
UsseProgram *ut_usse_prog(const char *src);
/* Free @p at exit. */
void ut_usse_keep(UsseProgram *p);
/* Assemble and run; the status must be @want. */
UsseRun *ut_usse_run(const char *src, const UsseTestSetup *ts,
                     UsseRunStatus want);

uint32_t fbits(float f);
float bitsf(uint32_t w);

#endif
