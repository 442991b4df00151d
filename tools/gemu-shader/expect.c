/*
 * gemu-shader (sgx543): checking a run's outputs against the bytes a
 * console wrote (tests/data/usse-hw/, docs/tools/gemu-shader.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include <math.h>
#include "gemu/bitops.h"
#include "expect.h"

/* A colour output's byte, as the fragment stage writes an UCHAR4 target. */
static int colour_byte(double f)
{
    if (!(f > 0)) {         /* also NaN */
        return 0;
    }
    return f >= 1 ? 255 : (int)lrint(f * 255);
}

/*
 * The rig the hardware cases were read with (docs/tools/gemu-shader.md):
 * the four vertices, at o0/o1 in clip space (w = 1), drawn as the strip
 * 0 1 2, 1 2 3 over a W x H target, each case byte read from the pixel
 * at its vertex's corner, half a pixel inside: what the rasteriser
 * interpolates there from its triangle's three vertices.  (Console
 * bytes show it: a vertex at 0 next to one at 255.0 reads 26 or 60.)
 */
static double corner_value(const UsseExpects *s, const UsseRun *run,
                           unsigned reg, unsigned v)
{
    static const unsigned tri[2][3] = { { 0, 1, 2 }, { 1, 2, 3 } };
    double x[4], y[4], val[4], cx = 0, cy = 0, px, py;

    for (unsigned k = 0; k < 4; k++) {
        x[k] = (bits_to_f32(usse_run_reg(run, k, USSE_BANK_OUTPUT, 0)) + 1) *
               s->rig_w / 2;
        y[k] = (bits_to_f32(usse_run_reg(run, k, USSE_BANK_OUTPUT, 1)) + 1) *
               s->rig_h / 2;
        val[k] = bits_to_f32(usse_run_reg(run, k, USSE_BANK_OUTPUT, reg));
        cx += x[k] / 4;
        cy += y[k] / 4;
    }
    px = x[v] + (x[v] < cx ? 0.5 : -0.5);
    py = y[v] + (y[v] < cy ? 0.5 : -0.5);
    for (unsigned t = 0; t < 2; t++) {
        const unsigned *i = tri[t];
        double d = (y[i[1]] - y[i[2]]) * (x[i[0]] - x[i[2]]) +
                   (x[i[2]] - x[i[1]]) * (y[i[0]] - y[i[2]]);
        double l0, l1, l2;

        if (!isfinite(d) || d == 0) {
            continue;
        }
        l0 = ((y[i[1]] - y[i[2]]) * (px - x[i[2]]) +
              (x[i[2]] - x[i[1]]) * (py - y[i[2]])) / d;
        l1 = ((y[i[2]] - y[i[0]]) * (px - x[i[2]]) +
              (x[i[0]] - x[i[2]]) * (py - y[i[2]])) / d;
        l2 = 1 - l0 - l1;
        if (l0 >= -1e-9 && l1 >= -1e-9 && l2 >= -1e-9) {
            return l0 * val[i[0]] + l1 * val[i[1]] + l2 * val[i[2]];
        }
    }
    return val[v];          /* not a quad: the vertex's own value */
}

bool usse_expects_check(const UsseExpects *s, const UsseRun *run)
{
    unsigned met = 0, missed = 0;

    for (guint i = 0; i < s->items->len; i++) {
        const UsseExpect *e = &g_array_index(s->items, UsseExpect, i);
        uint32_t w = usse_run_reg(run, e->thread, USSE_BANK_OUTPUT, e->reg);
        int b = colour_byte(s->rig_w ? corner_value(s, run, e->reg,
                                                    e->thread)
                                     : bits_to_f32(w));
        int d = abs(b - e->byte);

        printf("thread %u o[%u] = 0x%08x byte %d expect %d: %s\n",
               e->thread, e->reg, w, b, e->byte,
               d <= (int)s->tolerance ? "ok" : "MISSED");
        if (d <= (int)s->tolerance) {
            met++;
        } else {
            missed++;
        }
    }
    printf("expect: %u met, %u missed (tolerance %u)\n", met, missed,
           s->tolerance);
    return missed == 0;
}
