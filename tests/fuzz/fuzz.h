/*
 * What the libFuzzer harnesses of tests/fuzz/ share: the entry points
 * libFuzzer calls, the input as NUL-terminated text, and a reader that
 * takes numbers off the front of the input (never past its end).
 * docs/devel/fuzzing.md says which surface each harness covers.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include "gemu/osdep.h"
#include "gemu/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input as text (g_free); NULL if it holds a NUL byte. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    if (memchr(data, 0, size)) {
        return NULL;
    }
    return g_strndup((const char *)data, size);
}

/* The bytes a harness has not taken yet. */
typedef struct FuzzIn {
    const uint8_t *p;
    size_t left;
} FuzzIn;

static inline uint32_t fuzz_take(FuzzIn *in, unsigned bytes)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < bytes && in->left; i++, in->left--) {
        v |= (uint32_t)*in->p++ << (8 * i);
    }
    return v;
}

/*
 * Output the harnesses do not look at (disassembly, gemu-shader's dumps,
 * logs) goes to /dev/null: printing is not what is tested, and the
 * terminal would slow the run down.
 */
static inline void fuzz_quiet(void)
{
    static FILE *null;

    if (!null) {
        null = fopen("/dev/null", "w");
        if (getenv("FUZZ_VERBOSE")) {
            return;
        }
        gemu_log_set_file(null);
        if (!freopen("/dev/null", "w", stdout)) {
            abort();
        }
    }
}

#endif
