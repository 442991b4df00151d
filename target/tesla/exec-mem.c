/*
 * Tesla warp interpreter: memory spaces, ld/st, s[] lock, g[] atomics and
 * reductions (cuda/data.rst, isa.rst "Memory").
 *
 * Addresses of the 16-bit spaces wrap to 16 bits.  UNVERIFIED: accesses are
 * aligned down to their size (the low address bits are ignored).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "target/tesla/warp.h"

unsigned tesla_type_size(unsigned t)
{
    switch (t) {
    case TTYPE_U8:
    case TTYPE_S8:
        return 1;
    case TTYPE_U16:
    case TTYPE_S16:
    case TTYPE_B16:
    case TTYPE_F16:
        return 2;
    case TTYPE_U64:
    case TTYPE_S64:
    case TTYPE_B64:
    case TTYPE_F64:
        return 8;
    case TTYPE_B128:
        return 16;
    default:
        return 4;
    }
}

uint32_t tesla_mem_addr(const TeslaWarp *w, const TeslaOperand *o,
                        unsigned lane)
{
    uint32_t addr;

    if (o->space == TSPACE_G) {
        return warp_rrow(w, o->reg)[lane] + o->imm;
    }
    addr = w->a[o->areg & 7][lane];
    if (!o->postinc) {
        addr += o->imm;
    }
    return addr & 0xffff;
}

static const char *space_name(unsigned space)
{
    static const char *const names[] = {
        [TSPACE_C] = "c", [TSPACE_S] = "s", [TSPACE_L] = "l",
        [TSPACE_G] = "g", [TSPACE_A] = "a", [TSPACE_P] = "p",
        [TSPACE_O] = "o", [TSPACE_V] = "v",
    };

    return space < ARRAY_SIZE(names) && names[space] ? names[space] : "?";
}

static bool fault(TeslaWarp *w, unsigned space, unsigned idx, uint32_t addr,
                  unsigned size, bool write)
{
    char sp[8];

    if (space == TSPACE_G || space == TSPACE_C) {
        g_snprintf(sp, sizeof(sp), "%s%u", space_name(space), idx);
    } else {
        g_snprintf(sp, sizeof(sp), "%s", space_name(space));
    }
    return tesla_warp_trap(w, TESLA_ERR_MEMORY_FAULT,
                           "%s of %u bytes at %s[0x%x] out of range",
                           write ? "write" : "read", size, sp, addr);
}

/* Words (p[]), 0 beyond what was given. */
static void read_words(const uint32_t *words, uint64_t nwords, uint32_t addr,
                       unsigned size, void *buf)
{
    uint8_t *b = buf;

    for (unsigned i = 0; i < size; i++) {
        uint64_t wi = (addr + i) / 4;
        uint32_t v = words && wi < nwords ? words[wi] : 0;

        b[i] = v >> (((addr + i) & 3) * 8);
    }
}

/* Thread @t's input words (a[] or v[]), 0 beyond what was given. */
static void read_in_words(const TeslaRun *run, unsigned t, uint32_t addr,
                          unsigned size, void *buf)
{
    const TeslaLaunch *l = &run->launch;
    uint8_t *b = buf;

    for (unsigned i = 0; i < size; i++) {
        uint64_t wi = (addr + i) / 4;
        uint32_t v = l->in && t < run->threads && wi < l->in_words
                     ? tesla_launch_in(l, t, wi) : 0;

        b[i] = v >> (((addr + i) & 3) * 8);
    }
}

static bool flat_rw(uint8_t *base, uint64_t size, uint32_t addr, unsigned n,
                    void *buf, bool write)
{
    if (!base || (uint64_t)addr + n > size) {
        return false;
    }
    if (write) {
        memcpy(base + addr, buf, n);
    } else {
        memcpy(buf, base + addr, n);
    }
    return true;
}

/*
 * A space that is a flat host buffer for this warp: lane l's byte a is at
 * base + l * stride + a for a + size <= limit.  False: use space_rw().
 */
typedef struct TeslaFlat {
    uint8_t *base;
    uint64_t limit;
    size_t stride;
} TeslaFlat;

static inline bool flat_space(TeslaWarp *w, unsigned space, unsigned idx,
                              TeslaFlat *fs)
{
    TeslaRun *run = w->run;
    const TeslaEnv *env = &run->env;
    const TeslaMemSpace *ms;

    fs->stride = 0;
    switch (space) {
    case TSPACE_S:
        fs->base = run->shared;
        fs->limit = env->shared_bytes;
        return fs->base != NULL;
    case TSPACE_L:
        fs->base = w->local;
        fs->limit = env->local_bytes;
        fs->stride = env->local_bytes;
        return fs->base != NULL;
    case TSPACE_G:
        ms = &env->g[idx & 15];
        break;
    case TSPACE_C:
        ms = &env->c[idx & 15];
        break;
    default:
        return false;
    }
    fs->base = ms->data;
    fs->limit = ms->size;
    return fs->base != NULL;
}

static inline uint8_t *flat_at(const TeslaFlat *fs, uint32_t addr,
                               unsigned size, unsigned lane)
{
    addr &= ~(size - 1);
    return (uint64_t)addr + size <= fs->limit ?
           fs->base + lane * fs->stride + addr : NULL;
}

static bool space_rw(TeslaWarp *w, unsigned space, unsigned idx,
                     uint32_t addr, unsigned size, unsigned lane, void *buf,
                     bool write)
{
    TeslaRun *run = w->run;
    const TeslaEnv *env = &run->env;
    unsigned t = w->first_thread + lane;

    addr &= ~(size - 1);
    switch (space) {
    case TSPACE_C: {
        const TeslaMemSpace *s = &env->c[idx & 15];

        if (write) {
            return fault(w, space, idx, addr, size, true);
        }
        if ((uint64_t)addr + size <= s->size) {
            if (s->data) {
                memcpy(buf, s->data + addr, size);
                return true;
            }
            if (env->mem_read &&
                env->mem_read(env->opaque, TSPACE_C, idx & 15, addr, buf,
                              size)) {
                return true;
            }
        }
        /* UNVERIFIED: reads outside a bound const buffer return 0. */
        memset(buf, 0, size);
        return true;
    }
    case TSPACE_G: {
        const TeslaMemSpace *s = &env->g[idx & 15];

        if ((uint64_t)addr + size > s->size) {
            return fault(w, space, idx, addr, size, write);
        }
        if (s->data) {
            return flat_rw(s->data, s->size, addr, size, buf, write);
        }
        if (write ? (env->mem_write &&
                     env->mem_write(env->opaque, TSPACE_G, idx & 15, addr,
                                    buf, size))
                  : (env->mem_read &&
                     env->mem_read(env->opaque, TSPACE_G, idx & 15, addr,
                                   buf, size))) {
            return true;
        }
        return fault(w, space, idx, addr, size, write);
    }
    case TSPACE_S:
        if (!flat_rw(run->shared, env->shared_bytes, addr, size, buf,
                     write)) {
            return fault(w, space, idx, addr, size, write);
        }
        return true;
    case TSPACE_L:
        if (!flat_rw(w->local ? w->local + (size_t)lane * env->local_bytes
                              : NULL,
                     env->local_bytes, addr, size, buf, write)) {
            return fault(w, space, idx, addr, size, write);
        }
        return true;
    case TSPACE_A:
    case TSPACE_V:
        if (write) {
            return fault(w, space, idx, addr, size, true);
        }
        read_in_words(run, t, addr, size, buf);
        return true;
    case TSPACE_P:
        if (write) {
            return fault(w, space, idx, addr, size, true);
        }
        read_words(run->launch.p, run->launch.p_words, addr, size, buf);
        return true;
    case TSPACE_O: {
        unsigned n = run->launch.out_words;

        if (!write) {
            memset(buf, 0, size);   /* o[] is write-only */
            return true;
        }
        if (w->out && (uint64_t)addr + size <= (uint64_t)n * 4) {
            memcpy((uint8_t *)(w->out + (size_t)lane * n) + addr, buf, size);
        } else {
            gemu_log_mask(LOG_GUEST_ERROR,
                          "tesla: o[0x%x] write beyond %u output words\n",
                          addr, n);
        }
        return true;
    }
    default:
        return fault(w, space, idx, addr, size, write);
    }
}

bool tesla_mem_read(TeslaWarp *w, unsigned space, unsigned idx,
                    uint32_t addr, unsigned size, unsigned lane, void *buf)
{
    return space_rw(w, space, idx, addr, size, lane, buf, false);
}

bool tesla_mem_write(TeslaWarp *w, unsigned space, unsigned idx,
                     uint32_t addr, unsigned size, unsigned lane,
                     const void *buf)
{
    return space_rw(w, space, idx, addr, size, lane, (void *)buf, true);
}

/* Extend a little-endian value of type t to 32 bits. */
static uint32_t extend(const uint8_t *b, unsigned t)
{
    switch (t) {
    case TTYPE_U8:
        return b[0];
    case TTYPE_S8:
        return (uint32_t)(int32_t)(int8_t)b[0];
    case TTYPE_U16:
    case TTYPE_B16:
    case TTYPE_F16:
        return b[0] | b[1] << 8;
    case TTYPE_S16:
        return (uint32_t)(int32_t)(int16_t)(b[0] | b[1] << 8);
    default:
        return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
               (uint32_t)b[3] << 24;
    }
}

/* A 32-bit a[] or v[] operand: the launch's input words (read_words). */
static void fetch_in_words(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                           uint32_t *buf)
{
    const TeslaRun *run = w->run;
    const uint32_t *in = run->launch.in;
    unsigned iw = run->launch.in_words;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        unsigned t = w->first_thread + l;
        uint32_t wi;

        if (!(m & (1u << l))) {
            buf[l] = 0;
            continue;
        }
        wi = tesla_mem_addr(w, o, l) / 4;
        buf[l] = in && t < run->threads && wi < iw
                 ? tesla_launch_in(&run->launch, t, wi) : 0;
    }
}

bool tesla_fetch_mem(TeslaWarp *w, const TeslaOperand *o, uint32_t m,
                     uint32_t *buf)
{
    unsigned size = tesla_type_size(o->mtype);
    uint8_t b[16];
    TeslaFlat fs = { 0 };
    bool flat;

    if (size > 4) {
        size = 4;
    }
    /* A direct c[] operand is the same for every lane. */
    if (o->space == TSPACE_C && (o->areg & 7) == 0) {
        uint32_t v;

        if (!tesla_mem_read(w, TSPACE_C, o->space_idx, o->imm & 0xffff, size,
                            0, b)) {
            return false;
        }
        v = extend(b, o->mtype);
        for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
            buf[l] = v;
        }
        return true;
    }
    if (size == 4 && (o->space == TSPACE_V || o->space == TSPACE_A)) {
        fetch_in_words(w, o, m, buf);
        return true;
    }
    flat = flat_space(w, o->space, o->space_idx, &fs);
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr;
        const uint8_t *hp;

        if (!(m & (1u << l))) {
            buf[l] = 0;
            continue;
        }
        addr = tesla_mem_addr(w, o, l);
        hp = flat ? flat_at(&fs, addr, size, l) : NULL;
        if (likely(hp)) {
            if (size == 4) {
                uint32_t x;

                memcpy(&x, hp, 4);
                buf[l] = GUINT32_FROM_LE(x);
            } else {
                buf[l] = extend(hp, o->mtype);
            }
            continue;
        }
        if (!tesla_mem_read(w, o->space, o->space_idx, addr, size, l, b)) {
            return false;
        }
        buf[l] = extend(b, o->mtype);
    }
    return true;
}

/* --- ld / st ------------------------------------------------------------ */

/* Registers a register operand covers: 1, 2 (d) or 4 (q). */
static unsigned opnd_regs(const TeslaOperand *o)
{
    return o->kind == TOPND_DREG ? 2 : o->kind == TOPND_QREG ? 4 : 1;
}

static bool exec_ld(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    const TeslaOperand *src = &insn->src[0];
    unsigned size = tesla_type_size(src->mtype);
    unsigned nregs = opnd_regs(&insn->dst);

    if (size <= 4 && nregs == 1) {
        uint32_t buf[TESLA_WARP_SIZE];

        if (!tesla_fetch_mem(w, src, m, buf)) {
            return false;
        }
        return tesla_finish(w, insn, buf, NULL, m);
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint8_t b[16] = { 0 };

        if (!(m & (1u << l))) {
            continue;
        }
        if (!tesla_mem_read(w, src->space, src->space_idx,
                            tesla_mem_addr(w, src, l), size, l, b)) {
            return false;
        }
        for (unsigned i = 0; i < nregs; i++) {
            warp_wrow(w, insn->dst.reg + i)[l] = extend(b + 4 * i,
                                                        TTYPE_B32);
        }
    }
    tesla_postinc(w, insn, m);
    return true;
}

static bool exec_st(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    const TeslaOperand *dst = &insn->dst;
    const TeslaOperand *src = &insn->src[0];
    unsigned size = tesla_type_size(dst->mtype);
    unsigned nregs = opnd_regs(src);
    uint32_t vbuf[TESLA_WARP_SIZE];
    const uint32_t *v = NULL;
    TeslaFlat fs = { 0 };
    bool flat;

    if (nregs == 1) {
        v = tesla_fetch(w, src, m, vbuf);
        if (!v) {
            return false;
        }
    }
    flat = nregs == 1 && size <= 4 && dst->space != TSPACE_C &&
           flat_space(w, dst->space, dst->space_idx, &fs);
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint8_t b[16];

        if (!(m & (1u << l))) {
            continue;
        }
        if (flat) {
            uint8_t *hp = flat_at(&fs, tesla_mem_addr(w, dst, l), size, l);

            if (likely(hp)) {
                uint32_t x = GUINT32_TO_LE(v[l]);

                if (size == 4) {
                    memcpy(hp, &x, 4);
                } else {
                    memcpy(hp, &x, size);
                }
                continue;
            }
        }
        if (nregs == 1) {
            uint32_t x = GUINT32_TO_LE(v[l]);

            memcpy(b, &x, 4);
        } else {
            for (unsigned i = 0; i < nregs; i++) {
                uint32_t x = GUINT32_TO_LE(warp_rrow(w, src->reg + i)[l]);

                memcpy(b + 4 * i, &x, 4);
            }
        }
        if (!tesla_mem_write(w, dst->space, dst->space_idx,
                             tesla_mem_addr(w, dst, l), MIN(size, 16u), l,
                             b)) {
            return false;
        }
    }
    tesla_postinc(w, insn, m);
    return true;
}

/* --- s[] lock (G200) ---------------------------------------------------- */

static int lock_find(TeslaRun *run, uint32_t addr)
{
    for (unsigned i = 0; i < run->locks->len; i++) {
        if (g_array_index(run->locks, TeslaLockEntry, i).addr == addr) {
            return i;
        }
    }
    return -1;
}

/*
 * UNVERIFIED model: each s[] word can be locked by one thread.  ld lock
 * succeeds (and loads) when the word is free or already this thread's;
 * st unlock stores and frees the word.
 */
static bool exec_ld_lock(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    TeslaRun *run = w->run;
    const TeslaOperand *src = &insn->src[0];
    uint32_t val[TESLA_WARP_SIZE];
    uint8_t fl[TESLA_WARP_SIZE];
    uint32_t got = 0;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr;
        uint8_t b[4];
        int i;

        val[l] = 0;
        fl[l] = TFL_FALSE;
        if (!(m & (1u << l))) {
            continue;
        }
        addr = tesla_mem_addr(w, src, l) & ~3u;
        i = lock_find(run, addr);
        if (i >= 0) {
            TeslaLockEntry *e = &g_array_index(run->locks, TeslaLockEntry, i);

            if (e->warp != w->index || e->lane != l) {
                continue;
            }
        } else {
            TeslaLockEntry e = { .addr = addr, .warp = w->index, .lane = l };

            g_array_append_val(run->locks, e);
        }
        if (!tesla_mem_read(w, TSPACE_S, 0, addr, 4, l, b)) {
            return false;
        }
        val[l] = extend(b, src->mtype);
        fl[l] = TFL_TRUE;
        got |= 1u << l;
    }
    tesla_postinc(w, insn, m);
    if (insn->cdst >= 0) {
        warp_blend8(w->c[insn->cdst & 3], fl, m);
    }
    return tesla_store_dst(w, insn, val, got);
}

static bool exec_st_unlock(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    TeslaRun *run = w->run;

    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr;
        int i;

        if (!(m & (1u << l))) {
            continue;
        }
        addr = tesla_mem_addr(w, &insn->dst, l) & ~3u;
        i = lock_find(run, addr);
        if (i >= 0) {
            TeslaLockEntry *e = &g_array_index(run->locks, TeslaLockEntry, i);

            if (e->warp == w->index && e->lane == l) {
                g_array_remove_index_fast(run->locks, i);
            }
        }
    }
    return exec_st(w, insn, m);
}

/* --- g[] atomics ------------------------------------------------------ */

static bool type_signed(unsigned t)
{
    return t == TTYPE_S8 || t == TTYPE_S16 || t == TTYPE_S32 ||
           t == TTYPE_S64;
}

static uint64_t atom_apply(unsigned op, unsigned type, bool wide,
                           uint64_t old, uint64_t v, uint64_t v2)
{
    bool sgn = type_signed(type);

    if (!wide) {
        old = (uint32_t)old;
        v = (uint32_t)v;
        v2 = (uint32_t)v2;
    }
    switch (op) {
    case TATOM_ADD:
        return old + v;
    case TATOM_INC:
        return old >= v ? 0 : old + 1;
    case TATOM_DEC:
        return (old == 0 || old > v) ? v : old - 1;
    case TATOM_MAX:
        if (sgn) {
            return wide ? ((int64_t)old > (int64_t)v ? old : v)
                        : ((int32_t)old > (int32_t)v ? old : v);
        }
        return old > v ? old : v;
    case TATOM_MIN:
        if (sgn) {
            return wide ? ((int64_t)old < (int64_t)v ? old : v)
                        : ((int32_t)old < (int32_t)v ? old : v);
        }
        return old < v ? old : v;
    case TATOM_AND:
        return old & v;
    case TATOM_OR:
        return old | v;
    case TATOM_XOR:
        return old ^ v;
    case TATOM_EXCH:
        return v;
    case TATOM_CAS:
        return old == v ? v2 : old;
    default:
        return old;
    }
}

static uint64_t read_wide(TeslaWarp *w, const TeslaOperand *o, unsigned lane)
{
    uint64_t v = warp_rrow(w, o->reg)[lane];

    if (o->kind == TOPND_DREG) {
        v |= (uint64_t)warp_rrow(w, o->reg + 1)[lane] << 32;
    }
    return v;
}

/*
 * Lanes are applied one after another in lane order, each seeing the
 * previous lane's result.  UNVERIFIED order.
 */
static bool exec_atom(TeslaWarp *w, const TeslaInsn *insn, uint32_t m,
                      bool ret)
{
    const TeslaOperand *mem = &insn->src[0];
    unsigned type = mem->mtype;
    unsigned size = tesla_type_size(type) >= 8 ? 8 : 4;
    bool wide = size == 8;

    if (mem->space != TSPACE_G) {
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "atomic on a space other than g[]");
    }
    for (unsigned l = 0; l < TESLA_WARP_SIZE; l++) {
        uint32_t addr;
        uint8_t b[8];
        uint64_t old, nv, v, v2 = 0;

        if (!(m & (1u << l))) {
            continue;
        }
        addr = tesla_mem_addr(w, mem, l);
        if (!tesla_mem_read(w, TSPACE_G, mem->space_idx, addr, size, l, b)) {
            return false;
        }
        old = extend(b, TTYPE_B32);
        if (wide) {
            old |= (uint64_t)extend(b + 4, TTYPE_B32) << 32;
        }
        v = read_wide(w, &insn->src[1], l);
        if (insn->atomop == TATOM_CAS) {
            v2 = read_wide(w, &insn->src[2], l);
        }
        nv = atom_apply(insn->atomop, type, wide, old, v, v2);
        for (unsigned i = 0; i < size; i++) {
            b[i] = nv >> (8 * i);
        }
        if (!tesla_mem_write(w, TSPACE_G, mem->space_idx, addr, size, l, b)) {
            return false;
        }
        if (ret) {
            warp_wrow(w, insn->dst.reg)[l] = (uint32_t)old;
            if (wide && insn->dst.kind == TOPND_DREG) {
                warp_wrow(w, insn->dst.reg + 1)[l] = (uint32_t)(old >> 32);
            }
        }
    }
    return true;
}

bool tesla_exec_mem(TeslaWarp *w, const TeslaInsn *insn, uint32_t m)
{
    switch (insn->op) {
    case TOP_LD:
        return exec_ld(w, insn, m);
    case TOP_ST:
        return exec_st(w, insn, m);
    case TOP_LD_LOCK:
        return exec_ld_lock(w, insn, m);
    case TOP_ST_UNLOCK:
        return exec_st_unlock(w, insn, m);
    case TOP_ATOM:
        return exec_atom(w, insn, m, true);
    case TOP_RED:
        return exec_atom(w, insn, m, false);
    default:
        return tesla_warp_trap(w, TESLA_ERR_ILLEGAL_OPCODE,
                               "not a memory op: %u", insn->op);
    }
}
