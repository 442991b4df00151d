/*
 * make bench: the benchmark runner.  Benchmarks print one line each,
 * "NAME: N UNIT"; they never assert on time.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"

int main(int argc, char **argv)
{
    printf("bench: no benchmarks yet\n");
    return 0;
}
