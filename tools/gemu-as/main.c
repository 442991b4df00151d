/*
 * gemu-as (being written).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"

int main(int argc, char **argv)
{
    fprintf(stderr, "gemu-as: not built yet\n");
    return 2;
}
