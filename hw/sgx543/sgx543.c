/*
 * PowerVR SGX543 device: registers, events and interrupt, the MMU in
 * front of device memory, and the kernel CCB (sgx543.md §3.3, §3.6,
 * §3.7(a)(b)).  The packet stream is cmd.c, the drawing draw.c.
 *
 * A hw/core device (DeviceState, DmaAddressSpace over a GuestRAM,
 * IRQLine, a MemoryRegion for BAR0).  Work runs synchronously inside the
 * EVENT_KICK write.  UNIFY: with a hw/core worker, kicks could queue; the
 * TIMER register still counts accesses (a deterministic stand-in for a
 * clock).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "priv.h"

#include <stdarg.h>

/* ---- events and interrupt ---- */

static void sgx_update_irq(Sgx543State *s)
{
    bool level = (s->event_status & s->event_enable
                  & ~SGX_EVENT_MASTER_INTERRUPT) != 0
                 || (s->event_status2 & s->event_enable2) != 0;

    irq_set_level(&s->irq, level);
}

void sgx_raise_event(Sgx543State *s, uint32_t bits)
{
    s->event_status |= bits;
    sgx_update_irq(s);
}

static uint32_t err_event2(SgxErrCode code)
{
    switch (code) {
    case SGX_ERR_SHADER_TRAP:
        return SGX_EVENT2_ILLEGAL_INSN;
    case SGX_ERR_MMU_FAULT:
        return SGX_EVENT2_MMU_FAULT;
    case SGX_ERR_CCB:
        return SGX_EVENT2_CCB_OVERFLOW;
    default:
        return SGX_EVENT2_BAD_PACKET;
    }
}

void sgx_raise_error(Sgx543State *s, SgxErrCode code, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    gemu_log_mask(LOG_GUEST_ERROR, "sgx543: slot %d packet +0x%x: %s\n",
                  (int)s->cur_slot, s->cur_pkt, msg);
    s->error = true;
    s->err_code = code;
    s->err_info = s->cur_pkt;
    s->err_slot = s->cur_slot;
    s->event_status2 |= err_event2(code);
    sgx_raise_event(s, SGX_EVENT_TA_DPM_FAULT);
}

/* ---- MMU and device memory ---- */

/*
 * Device-physical memory through the DMA address space: a host pointer
 * to [pa, pa + len) when one RAM block holds it all, else NULL.
 */
static uint8_t *phys_ptr(Sgx543State *s, uint64_t pa, uint64_t len)
{
    return s->dma.ram ? guest_ram_ptr(s->dma.ram, pa, len) : NULL;
}

/* Copy to/from device-physical memory; false if any byte is missing. */
static bool phys_rw(Sgx543State *s, uint64_t pa, uint8_t *buf, uint32_t len,
                    bool write)
{
    uint8_t *p = phys_ptr(s, pa, len);

    if (p) {
        if (write) {
            memcpy(p, buf, len);
        } else {
            memcpy(buf, p, len);
        }
        return true;
    }
    /* across blocks, or a hole (the address space logs those) */
    if (!s->dma.ram) {
        return false;
    }
    return write ? dma_write(&s->dma, pa, buf, len)
                 : dma_read(&s->dma, pa, buf, len);
}

static bool phys_ld32(Sgx543State *s, uint64_t pa, uint32_t *v)
{
    uint8_t b[4];

    if (!phys_rw(s, pa, b, 4, false)) {
        return false;
    }
    *v = ldn_le_p(b, 4);
    return true;
}

static void mmu_fault(Sgx543State *s, uint32_t va, const char *why)
{
    s->bif_fault = va;
    s->bif_int_stat |= 1;
    sgx_raise_error(s, SGX_ERR_MMU_FAULT, "MMU fault at 0x%08x: %s", va, why);
}

/* Device VA -> physical address of that byte; false after a fault. */
static bool mmu_translate(Sgx543State *s, uint32_t va, bool write,
                          uint64_t *pa)
{
    uint64_t pde_pa, pte_pa;
    uint32_t pde, pte;

    if ((s->bif_ctrl & SGX_BIF_CTRL_BYPASS_MASK) == SGX_BIF_CTRL_BYPASS_MASK) {
        *pa = va;
        return true;
    }
    pde_pa = (uint64_t)(s->dir_list_base0 & ~0xfffu) + (va >> 22) * 4;
    if (!phys_ld32(s, pde_pa, &pde)) {
        mmu_fault(s, va, "page directory outside memory");
        return false;
    }
    if (!(pde & SGX_MMU_VALID)) {
        mmu_fault(s, va, "invalid PDE");
        return false;
    }
    if (pde & 0xe) {
        gemu_log_once(LOG_UNIMP, "sgx543-mmu", 1,
                      "sgx543: PDE page sizes other than 4K\n");
    }
    pte_pa = (uint64_t)(pde & ~0xfffu) + ((va >> 12) & 0x3ff) * 4;
    if (!phys_ld32(s, pte_pa, &pte)) {
        mmu_fault(s, va, "page table outside memory");
        return false;
    }
    if (!(pte & SGX_MMU_VALID)) {
        mmu_fault(s, va, "invalid PTE");
        return false;
    }
    if (write ? (pte & SGX_MMU_READONLY) : (pte & SGX_MMU_WRITEONLY)) {
        mmu_fault(s, va, write ? "write to a read-only page"
                               : "read of a write-only page");
        return false;
    }
    *pa = (uint64_t)(pte & ~0xfffu) | (va & 0xfff);
    return true;
}

uint8_t *sgx_dma_map(Sgx543State *s, uint32_t va, uint64_t len, bool write)
{
    uint64_t pa0, pa;
    uint8_t *p;

    if (len > 0x100000000ull || va + len > 0x100000000ull) {
        mmu_fault(s, va, "range wraps the 4 GiB address space");
        return NULL;
    }
    if (!mmu_translate(s, va, write, &pa0)) {
        return NULL;
    }
    if ((s->bif_ctrl & SGX_BIF_CTRL_BYPASS_MASK)
        != SGX_BIF_CTRL_BYPASS_MASK) {
        /* every further page must follow on physically */
        for (uint64_t off = 0x1000 - (va & 0xfff); off < len;
             off += 0x1000) {
            if (!mmu_translate(s, va + off, write, &pa)) {
                return NULL;
            }
            if (pa != pa0 + off) {
                mmu_fault(s, va + off, "range not physically contiguous");
                return NULL;
            }
        }
    }
    p = phys_ptr(s, pa0, len);
    if (!p) {
        mmu_fault(s, va, "outside device memory (or across RAM blocks)");
    }
    return p;
}

static bool dma_rw(Sgx543State *s, uint32_t va, void *buf, uint32_t len,
                   bool write)
{
    uint8_t *p = buf;

    while (len) {
        uint32_t chunk = MIN(len, 0x1000 - (va & 0xfff));
        uint64_t pa;

        if (!mmu_translate(s, va, write, &pa)) {
            return false;
        }
        if (!phys_rw(s, pa, p, chunk, write)) {
            mmu_fault(s, va, "outside device memory");
            return false;
        }
        p += chunk;
        va += chunk;
        len -= chunk;
    }
    return true;
}

bool sgx_dma_read(Sgx543State *s, uint32_t va, void *buf, uint32_t len)
{
    return dma_rw(s, va, buf, len, false);
}

bool sgx_dma_write(Sgx543State *s, uint32_t va, const void *buf,
                   uint32_t len)
{
    return dma_rw(s, va, (void *)buf, len, true);
}

/* ---- the kernel CCB ---- */

static bool ccb_ld32(Sgx543State *s, uint32_t va, uint32_t *v)
{
    if (!sgx_dma_read(s, va, v, 4)) {
        return false;
    }
    *v = GUINT32_FROM_LE(*v);
    return true;
}

static bool ccb_st32(Sgx543State *s, uint32_t va, uint32_t v)
{
    v = GUINT32_TO_LE(v);
    return sgx_dma_write(s, va, &v, 4);
}

/* Finish a slot: the status update and the completion event. */
static void ccb_complete(Sgx543State *s, const uint32_t *cmd)
{
    if (cmd[4]) {
        ccb_st32(s, cmd[4], cmd[5]);
    }
    if (cmd[6] & SGX_CMD_FLAG_SW_EVENT) {
        sgx_raise_event(s, SGX_EVENT_SW_EVENT);
    }
}

/* Run one slot; false if a WAIT stopped it (resume later). */
static bool ccb_execute(Sgx543State *s, const uint32_t *cmd)
{
    /* cmd[0] ServiceAddress (type), [1] CacheControl, [2..7] Data[0..5] */
    s->error = false;
    switch (cmd[0]) {
    case SGX_CMD_TA:
    case SGX_CMD_TRANSFER:
        /* a TRANSFER command is a packet stream too (its TRANSFER_*
           packets), queued on the same ring */
        if ((uint64_t)cmd[2] + cmd[3] > 0x100000000ull) {
            s->cur_pkt = 0;
            sgx_raise_error(s, SGX_ERR_CCB,
                            "command buffer 0x%08x + 0x%x wraps", cmd[2],
                            cmd[3]);
            return true;
        }
        return sgx_cmd_run(s, cmd[2], cmd[2] + cmd[3]);
    case SGX_CMD_POWER:
    case SGX_CMD_PROCESS_QUEUES:
        return true;
    case SGX_CMD_CLEANUP:
        sgx_program_clear(&s->prog[0]);
        sgx_program_clear(&s->prog[1]);
        return true;
    default:
        s->cur_pkt = 0;
        sgx_raise_error(s, SGX_ERR_CCB, "unknown CCB command type %u",
                        cmd[0]);
        return true;
    }
}

static void ccb_process(Sgx543State *s)
{
    uint32_t woff, roff;

    if (!s->ccb_base || !s->ccb_ctl) {
        s->cur_slot = ~0u;
        s->cur_pkt = 0;
        sgx_raise_error(s, SGX_ERR_CCB, "kick with no CCB configured");
        return;
    }
    if (s->waiting) {
        if (!sgx_cmd_run(s, s->wait_va, s->wait_end)) {
            return;
        }
        ccb_complete(s, s->wait_cmd);
        if (!ccb_ld32(s, s->ccb_ctl + 4, &roff)) {
            return;
        }
        ccb_st32(s, s->ccb_ctl + 4, (roff + 1) % SGX_CCB_SLOTS);
    }
    for (;;) {
        uint32_t cmd[8];

        if (!ccb_ld32(s, s->ccb_ctl, &woff)
            || !ccb_ld32(s, s->ccb_ctl + 4, &roff)) {
            return;
        }
        if (woff >= SGX_CCB_SLOTS || roff >= SGX_CCB_SLOTS) {
            s->cur_slot = roff;
            s->cur_pkt = 0;
            sgx_raise_error(s, SGX_ERR_CCB,
                            "CCB offsets out of range (write %u, read %u)",
                            woff, roff);
            return;
        }
        if (roff == woff) {
            return;
        }
        s->cur_slot = roff;
        if (!sgx_dma_read(s, s->ccb_base + roff * SGX_CCB_SLOT_SIZE, cmd,
                          sizeof(cmd))) {
            return;
        }
        for (int i = 0; i < 8; i++) {
            cmd[i] = GUINT32_FROM_LE(cmd[i]);
        }
        if (!ccb_execute(s, cmd)) {
            /* stopped by a WAIT: the slot stays unread */
            memcpy(s->wait_cmd, cmd, sizeof(cmd));
            return;
        }
        ccb_complete(s, cmd);
        if (!ccb_st32(s, s->ccb_ctl + 4, (roff + 1) % SGX_CCB_SLOTS)) {
            return;
        }
    }
}

bool sgx543_run_commands(Sgx543State *s, uint32_t va, uint32_t size)
{
    s->cur_slot = ~0u;
    s->error = false;
    if ((uint64_t)va + size > 0x100000000ull) {
        s->cur_pkt = 0;
        sgx_raise_error(s, SGX_ERR_CCB, "command buffer wraps");
        return false;
    }
    sgx_cmd_run(s, va, va + size);
    return !s->error;
}

/* ---- registers ---- */

uint32_t sgx543_mmio_read(Sgx543State *s, uint32_t offset)
{
    uint32_t v = 0;

    s->timer++;
    if (offset >= SGX_USE_CODE_BASE(0)
        && offset < SGX_USE_CODE_BASE(SGX_USE_CODE_BASE_NUM)
        && !(offset & 3)) {
        v = s->code_base[(offset - SGX_USE_CODE_BASE(0)) / 4];
        goto out;
    }
    switch (offset) {
    case SGX_CLKGATECTL:
        v = s->clkgatectl;
        break;
    case SGX_CLKGATESTATUS:
        v = 0;
        break;
    case SGX_CORE_ID:
    case SGX_MASTER_BASE + SGX_CORE_ID:
        v = SGX_CORE_ID_VALUE;
        break;
    case SGX_CORE_REVISION:
    case SGX_MASTER_BASE + SGX_CORE_REVISION:
        v = SGX_CORE_REVISION_VALUE;
        break;
    case SGX_SOFT_RESET:
        v = s->soft_reset;
        break;
    case SGX_EVENT_STATUS:
        v = s->event_status & ~SGX_EVENT_MASTER_INTERRUPT;
        if (irq_get_level(&s->irq)) {
            v |= SGX_EVENT_MASTER_INTERRUPT;
        }
        break;
    case SGX_EVENT_HOST_ENABLE:
        v = s->event_enable;
        break;
    case SGX_EVENT_STATUS2:
        v = s->event_status2;
        break;
    case SGX_EVENT_HOST_ENABLE2:
        v = s->event_enable2;
        break;
    case SGX_TIMER:
        v = (uint32_t)s->timer;
        break;
    case SGX_BIF_CTRL:
        v = s->bif_ctrl;
        break;
    case SGX_BIF_INT_STAT:
        v = s->bif_int_stat;
        break;
    case SGX_BIF_FAULT:
        v = s->bif_fault;
        break;
    case SGX_BIF_DIR_LIST_BASE0:
        v = s->dir_list_base0;
        break;
    case SGX_EMU_CCB_BASE:
        v = s->ccb_base;
        break;
    case SGX_EMU_CCB_CTL:
        v = s->ccb_ctl;
        break;
    case SGX_EMU_ERR_INFO:
        v = s->err_info;
        break;
    case SGX_EMU_CAPS:
        v = SGX_EMU_CAPS_VALUE;
        break;
    case SGX_EMU_ERR_SLOT:
        v = s->err_slot;
        break;
    case SGX_EMU_ERR_PC:
        v = s->err_pc;
        break;
    case SGX_EMU_ERR_CODE:
        v = s->err_code;
        break;
    case SGX_EVENT_HOST_CLEAR:
    case SGX_EVENT_HOST_CLEAR2:
    case SGX_EVENT_KICK:
    case SGX_BIF_CTRL_INVAL:
        gemu_log_mask(LOG_GUEST_ERROR,
                      "sgx543: read of write-only register 0x%04x\n",
                      offset);
        break;
    default:
        gemu_log_once(LOG_UNIMP, "sgx543-rd", offset,
                      "sgx543: unimplemented register read 0x%04x\n",
                      offset);
        break;
    }
out:
    gemu_log_mask(LOG_TRACE_MMIO, "sgx543: read  0x%04x -> 0x%08x\n",
                  offset, v);
    return v;
}

void sgx543_mmio_write(Sgx543State *s, uint32_t offset, uint32_t value)
{
    gemu_log_mask(LOG_TRACE_MMIO, "sgx543: write 0x%04x <- 0x%08x\n",
                  offset, value);
    s->timer++;
    if (offset >= SGX_USE_CODE_BASE(0)
        && offset < SGX_USE_CODE_BASE(SGX_USE_CODE_BASE_NUM)
        && !(offset & 3)) {
        s->code_base[(offset - SGX_USE_CODE_BASE(0)) / 4] = value;
        return;
    }
    switch (offset) {
    case SGX_CLKGATECTL:
        s->clkgatectl = value;
        break;
    case SGX_SOFT_RESET:
        s->soft_reset = value;
        if (value) {
            /* abort work, drop queue state and pending events */
            sgx_cmd_reset(s);
            s->event_status = 0;
            s->event_status2 = 0;
            sgx_update_irq(s);
        }
        break;
    case SGX_EVENT_HOST_ENABLE:
        s->event_enable = value;
        sgx_update_irq(s);
        break;
    case SGX_EVENT_HOST_CLEAR:
        s->event_status &= ~value;
        sgx_update_irq(s);
        break;
    case SGX_EVENT_HOST_ENABLE2:
        s->event_enable2 = value;
        sgx_update_irq(s);
        break;
    case SGX_EVENT_HOST_CLEAR2:
        s->event_status2 &= ~value;
        sgx_update_irq(s);
        break;
    case SGX_EVENT_KICK:
        if (!(value & SGX_EVENT_KICK_NOW)) {
            break;
        }
        if (s->soft_reset) {
            gemu_log_mask(LOG_GUEST_ERROR,
                          "sgx543: EVENT_KICK while in soft reset\n");
            break;
        }
        ccb_process(s);
        break;
    case SGX_BIF_CTRL:
        s->bif_ctrl = value & ~SGX_BIF_CTRL_CLEAR_FAULT;
        if (value & SGX_BIF_CTRL_CLEAR_FAULT) {
            s->bif_int_stat = 0;
            s->bif_fault = 0;
        }
        break;
    case SGX_BIF_CTRL_INVAL:
        /* no TLB is cached: nothing to invalidate */
        break;
    case SGX_BIF_DIR_LIST_BASE0:
        s->dir_list_base0 = value;
        break;
    case SGX_EMU_CCB_BASE:
        s->ccb_base = value;
        break;
    case SGX_EMU_CCB_CTL:
        s->ccb_ctl = value;
        break;
    case SGX_CLKGATESTATUS:
    case SGX_CORE_ID:
    case SGX_CORE_REVISION:
    case SGX_EVENT_STATUS:
    case SGX_EVENT_STATUS2:
    case SGX_TIMER:
    case SGX_BIF_INT_STAT:
    case SGX_BIF_FAULT:
    case SGX_EMU_ERR_INFO:
    case SGX_EMU_CAPS:
    case SGX_EMU_ERR_SLOT:
    case SGX_EMU_ERR_PC:
    case SGX_EMU_ERR_CODE:
        gemu_log_mask(LOG_GUEST_ERROR,
                      "sgx543: write to read-only register 0x%04x\n",
                      offset);
        break;
    default:
        gemu_log_once(LOG_UNIMP, "sgx543-wr", offset,
                      "sgx543: unimplemented register write 0x%04x\n",
                      offset);
        break;
    }
}

/* ---- life cycle ---- */

static void sgx543_do_reset(Sgx543State *s)
{
    sgx_cmd_reset(s);
    s->clkgatectl = 0;
    s->soft_reset = 0;
    s->event_status = s->event_enable = 0;
    s->event_status2 = s->event_enable2 = 0;
    s->timer = 0;
    memset(s->code_base, 0, sizeof(s->code_base));
    s->bif_ctrl = SGX_BIF_CTRL_BYPASS_MASK;     /* flat addressing */
    s->bif_int_stat = s->bif_fault = 0;
    s->dir_list_base0 = 0;
    s->ccb_base = s->ccb_ctl = 0;
    s->err_info = s->err_slot = s->err_pc = s->err_code = 0;
    s->cur_slot = ~0u;
    sgx_update_irq(s);
}

/* BAR0 through the memory API: 32-bit accesses (others split/widened) */
static uint64_t sgx543_bar_read(void *opaque, hwaddr addr, unsigned size)
{
    return sgx543_mmio_read(opaque, addr);
}

static void sgx543_bar_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    sgx543_mmio_write(opaque, addr, val);
}

static const MemoryRegionOps sgx543_bar_ops = {
    .read = sgx543_bar_read,
    .write = sgx543_bar_write,
    .impl_min = 4,
    .impl_max = 4,
};

static bool sgx543_realize(DeviceState *dev, GError **errp)
{
    Sgx543State *s = (Sgx543State *)dev;

    memory_region_init_io(&s->mmio, "sgx543-bar0", SGX_MMIO_SIZE,
                          &sgx543_bar_ops, s);
    sgx543_do_reset(s);
    return true;
}

static void sgx543_dev_reset(DeviceState *dev)
{
    sgx543_do_reset((Sgx543State *)dev);
}

static void sgx543_unrealize(DeviceState *dev)
{
    Sgx543State *s = (Sgx543State *)dev;

    sgx_cmd_reset(s);
    memory_region_destroy(&s->mmio);
    g_clear_pointer(&s->shadow, g_free);
    g_clear_pointer(&s->samples, g_free);
    s->shadow_size = s->samples_size = 0;
}

static const DeviceOps sgx543_ops = {
    .type_name = TYPE_SGX543,
    .realize = sgx543_realize,
    .reset = sgx543_dev_reset,
    .unrealize = sgx543_unrealize,
};

Sgx543State *sgx543_new(GuestRAM *ram)
{
    Sgx543State *s = g_new0(Sgx543State, 1);

    device_init(DEVICE(s), &sgx543_ops, "sgx543");
    dma_as_init(&s->dma, "sgx543-dma", ram);
    irq_line_init(&s->irq, NULL, NULL, 0);
    /* realize has nothing that can fail */
    device_realize(DEVICE(s), NULL);
    return s;
}

void sgx543_free(Sgx543State *s)
{
    if (s) {
        device_finalize(DEVICE(s));
        g_free(s);
    }
}

void sgx543_reset(Sgx543State *s)
{
    device_reset(DEVICE(s));
}

void sgx543_set_guest_ram(Sgx543State *s, GuestRAM *ram)
{
    s->dma.ram = ram;
}

MemoryRegion *sgx543_mmio_region(Sgx543State *s)
{
    return &s->mmio;
}

IRQLine *sgx543_irq_line(Sgx543State *s)
{
    return &s->irq;
}

bool sgx543_irq_level(const Sgx543State *s)
{
    return irq_get_level(&s->irq);
}

void sgx543_set_console(Sgx543State *s, DisplayConsole *con)
{
    s->con = con;
}

uint64_t sgx543_draws(const Sgx543State *s)
{
    return s->draws;
}

uint64_t sgx543_frames(const Sgx543State *s)
{
    return s->frames;
}
