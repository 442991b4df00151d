/*
 * Tesla warp interpreter: predicates, the condition an instruction's
 * predicate field names on the flags of a $c register.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla/warp-pred.h"

/* Whether predicate p holds for flags value f (one lane). */
static bool pred_eval(unsigned p, unsigned f)
{
    bool z = f & TFL_Z, s = f & TFL_S, c = f & TFL_C, o = f & TFL_O;

    switch (p) {
    case 0x00: return false;
    case 0x01: return (s && !z) ^ o;            /* l */
    case 0x02: return z && !s;                  /* e */
    case 0x03: return s ^ (z || o);             /* le */
    case 0x04: return !z && !(s ^ o);           /* g */
    case 0x05: return !z;                       /* lg */
    case 0x06: return !(s ^ o);                 /* ge */
    case 0x07: return !z || !s;                 /* lge */
    case 0x08: return z && s;                   /* u */
    case 0x09: return s ^ o;                    /* lu */
    case 0x0a: return z;                        /* eu */
    case 0x0b: return z || (s ^ o);             /* leu */
    case 0x0c: return !s ^ (z || o);            /* gu */
    case 0x0d: return !z || s;                  /* lgu */
    case 0x0e: return (!s || z) ^ o;            /* geu */
    case 0x0f: return true;
    case 0x10: return o;
    case 0x11: return c;
    case 0x12: return !z && c;                  /* a */
    case 0x13: return s;
    case 0x1c: return !s;
    case 0x1d: return z || !c;                  /* na */
    case 0x1e: return !c;
    case 0x1f: return !o;
    default:
        /* 0x14-0x1b: no known meaning.  UNVERIFIED: never true. */
        return false;
    }
}

uint8_t tesla_pred_bytes[32][16];

void tesla_pred_init(void)
{
    static bool done;

    if (done) {
        return;
    }
    for (unsigned p = 0; p < 32; p++) {
        for (unsigned f = 0; f < 16; f++) {
            tesla_pred_bytes[p][f] = pred_eval(p, f) ? 0xff : 0;
        }
    }
    done = true;
}

uint32_t tesla_pred_mask(const TeslaWarp *w, unsigned pred, unsigned c)
{
    return warp_pred_mask(w, pred, c);
}
