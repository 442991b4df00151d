/*
 * Tesla ISA variants, program types and error names.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "target/tesla.h"

static const struct {
    const char *name;
    uint32_t features;
} variants[TESLA_NUM_VARIANTS] = {
    [TESLA_G80] = { "g80", 0 },
    [TESLA_G84] = { "g84", TESLA_F_SM11 },
    [TESLA_G200] = { "g200", TESLA_F_SM11 | TESLA_F_SM12 | TESLA_F_FP64 },
    [TESLA_MCP77] = { "mcp77", TESLA_F_SM11 | TESLA_F_SM12 },
    [TESLA_GT215] = { "gt215", TESLA_F_SM11 | TESLA_F_SM12 |
                               TESLA_F_D3D10_1 },
};

bool tesla_variant_parse(const char *name, TeslaVariant *v)
{
    for (int i = 0; i < TESLA_NUM_VARIANTS; i++) {
        if (!g_ascii_strcasecmp(name, variants[i].name)) {
            *v = i;
            return true;
        }
    }
    return false;
}

const char *tesla_variant_name(TeslaVariant v)
{
    return v < TESLA_NUM_VARIANTS ? variants[v].name : "?";
}

uint32_t tesla_variant_features(TeslaVariant v)
{
    return v < TESLA_NUM_VARIANTS ? variants[v].features : 0;
}

const char *tesla_variant_list(void)
{
    static char *list;

    if (!list) {
        GString *s = g_string_new(NULL);

        for (int i = 0; i < TESLA_NUM_VARIANTS; i++) {
            g_string_append_printf(s, "%s%s", i ? ", " : "", variants[i].name);
        }
        list = g_string_free(s, FALSE);
    }
    return list;
}

static const char *const prog_short[TESLA_NUM_PROGS] = {
    "vp", "gp", "fp", "cp"
};
static const char *const prog_long[TESLA_NUM_PROGS] = {
    "vertex", "geometry", "fragment", "compute"
};

bool tesla_prog_parse(const char *name, TeslaProgType *p)
{
    for (int i = 0; i < TESLA_NUM_PROGS; i++) {
        if (!g_ascii_strcasecmp(name, prog_short[i]) ||
            !g_ascii_strcasecmp(name, prog_long[i])) {
            *p = i;
            return true;
        }
    }
    return false;
}

const char *tesla_prog_list(void)
{
    return "vp, gp, fp, cp (or vertex, geometry, fragment, compute)";
}

const char *tesla_prog_name(TeslaProgType p)
{
    return p < TESLA_NUM_PROGS ? prog_short[p] : "?";
}

const char *tesla_error_name(TeslaError e)
{
    switch (e) {
    case TESLA_ERR_NONE: return "NONE";
    case TESLA_ERR_TRAP_INSTRUCTION: return "TRAP_INSTRUCTION";
    case TESLA_ERR_ILLEGAL_OPCODE: return "ILLEGAL_OPCODE";
    case TESLA_ERR_UNALIGNED_LONG_INSTRUCTION:
        return "UNALIGNED_LONG_INSTRUCTION";
    case TESLA_ERR_ILLEGAL_POSTINCR: return "ILLEGAL_POSTINCR";
    case TESLA_ERR_LD_A_ST_O_NON_VP_GP: return "LD_A_ST_O_NON_VP_GP";
    case TESLA_ERR_INTERP_NON_FP: return "INTERP_NON_FP";
    case TESLA_ERR_EMIT_NON_GP: return "EMIT_NON_GP";
    case TESLA_ERR_ILLEGAL_MEMORY_BYTE: return "ILLEGAL_MEMORY_BYTE";
    case TESLA_ERR_ILLEGAL_MEMORY_SIGN: return "ILLEGAL_MEMORY_SIGN";
    case TESLA_ERR_ILLEGAL_MEMORY_SIZE: return "ILLEGAL_MEMORY_SIZE";
    case TESLA_ERR_STACK_UNDERFLOW: return "STACK_UNDERFLOW";
    case TESLA_ERR_STACK_MISMATCH: return "STACK_MISMATCH";
    case TESLA_ERR_QUADON_ACTIVE: return "QUADON_ACTIVE";
    case TESLA_ERR_TIMEOUT: return "TIMEOUT";
    case TESLA_ERR_BREAKPOINT: return "BREAKPOINT";
    case TESLA_ERR_MEMORY_FAULT: return "MEMORY_FAULT";
    default: return "UNKNOWN_ERROR";
    }
}
