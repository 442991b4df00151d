/*
 * PNVIO: GPIO and the bit-banged I2C ports nvkm drives for DDC.
 *
 * Each I2C port register (0x00e138 + 0x18 * n, ports 0-3) takes the
 * card's SCL in bit 0 and SDA in bit 1 (1 = released); reading returns
 * the wires: open drain, so SDA is low if the card or the slave pulls it.
 * Port 1 (CCB entry 1, the TMDS output) has a DDC EEPROM at 0x50 holding
 * gemu's EDID; port 0 (the DAC) has no slave, so nouveau falls back to
 * load detection there.  The slave never stretches SCL.
 * GPIO registers are storage; the GPIO/I2C interrupt pair feeds PMC.
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"

#define NVIO_BASE       0x00e000
#define DDC_ADDR        0x50

enum {
    I2C_IDLE,           /* no transfer for us: wait for START */
    I2C_RECV,           /* receiving a byte (address or data) */
    I2C_ACK,            /* slave drives ACK during the 9th clock */
    I2C_SEND,           /* slave sends a byte */
    I2C_MACK,           /* master ACKs/NACKs the 9th clock */
};

static int i2c_port(hwaddr addr)
{
    for (int n = 0; n < NV50_I2C_PORTS; n++) {
        if (addr == NV_PNVIO_I2C_BITBANG0 + 0x18 * n) {
            return n;
        }
    }
    return -1;
}

static uint32_t *nvio_reg(NV50State *s, hwaddr addr)
{
    return &s->nvio.regs[(addr - NVIO_BASE) / 4];
}

static bool sda_wire(const NV50I2CBus *b)
{
    return b->sda && b->slave_sda;
}

static void i2c_start(NV50I2CBus *b)
{
    b->state = I2C_RECV;
    b->bit = 0;
    b->shift = 0;
    b->reading = false;
    b->slave_sda = true;
    b->offset_set = false;
}

static void i2c_scl_rise(NV50I2CBus *b)
{
    switch (b->state) {
    case I2C_RECV:
        b->shift = (b->shift << 1) | sda_wire(b);
        b->bit++;
        break;
    case I2C_MACK:
        if (sda_wire(b)) {
            b->state = I2C_IDLE;        /* NACK: master wants no more */
        }
        break;
    default:
        break;
    }
}

static void i2c_send_bit(NV50I2CBus *b)
{
    b->slave_sda = (b->shift >> (7 - b->bit)) & 1;
}

static void i2c_scl_fall(NV50I2CBus *b)
{
    switch (b->state) {
    case I2C_RECV:
        if (b->bit < 8) {
            break;
        }
        b->state = I2C_ACK;
        b->slave_sda = false;
        break;
    case I2C_ACK:
        b->slave_sda = true;
        b->bit = 0;
        if (b->reading) {
            b->shift = b->eeprom[b->offset++];
            b->state = I2C_SEND;
            i2c_send_bit(b);
        } else {
            b->state = I2C_RECV;
            b->shift = 0;
        }
        break;
    case I2C_SEND:
        b->bit++;
        if (b->bit < 8) {
            i2c_send_bit(b);
        } else {
            b->slave_sda = true;
            b->state = I2C_MACK;
        }
        break;
    case I2C_MACK:
        b->bit = 0;
        b->shift = b->eeprom[b->offset++];
        b->state = I2C_SEND;
        i2c_send_bit(b);
        break;
    default:
        break;
    }
}

/*
 * A received byte is complete (8 bits, SCL about to fall): decide whether
 * to ACK it.  Called before i2c_scl_fall moves to I2C_ACK.
 */
static bool i2c_accept(NV50I2CBus *b, bool first)
{
    if (first) {
        if (b->shift >> 1 != DDC_ADDR) {
            return false;
        }
        b->reading = b->shift & 1;
        return true;
    }
    /* a data byte written to the EEPROM: the address pointer */
    b->offset = b->shift;
    b->offset_set = true;
    return true;
}

static void i2c_update(NV50I2CBus *b, bool scl, bool sda)
{
    bool old_scl = b->scl, old_sda = b->sda;

    b->scl = scl;
    b->sda = sda;
    if (!b->eeprom) {
        return;
    }
    if (old_scl && scl && old_sda != sda) {
        if (!sda) {
            i2c_start(b);               /* START (or repeated START) */
            b->addr_phase = true;
        } else {
            b->state = I2C_IDLE;        /* STOP */
            b->slave_sda = true;
        }
        return;
    }
    if (!old_scl && scl) {
        i2c_scl_rise(b);
    } else if (old_scl && !scl) {
        if (b->state == I2C_RECV && b->bit == 8) {
            if (!i2c_accept(b, b->addr_phase)) {
                b->state = I2C_IDLE;    /* not for us: no ACK */
                return;
            }
            b->addr_phase = false;
        }
        i2c_scl_fall(b);
    }
}

void nv50_nvio_reset(NV50State *s)
{
    NV50NVIO *n = &s->nvio;

    memset(n->regs, 0, sizeof(n->regs));
    n->intr = 0;
    n->intr_en = 0;
    memset(n->edid, 0, sizeof(n->edid));
    nv50_edid_build(n->edid);
    for (int p = 0; p < NV50_I2C_PORTS; p++) {
        NV50I2CBus *b = &n->i2c[p];

        memset(b, 0, sizeof(*b));
        b->scl = b->sda = b->slave_sda = true;
        b->state = I2C_IDLE;
        b->eeprom = p == 1 ? n->edid : NULL;
        *nvio_reg(s, NV_PNVIO_I2C_BITBANG0 + 0x18 * p) = 3;
    }
    nv50_pmc_set_source(s, NV50_INTR_PNVIO, false);
}

static void nvio_update_irq(NV50State *s)
{
    nv50_pmc_set_source(s, NV50_INTR_PNVIO, s->nvio.intr & s->nvio.intr_en);
}

uint64_t nv50_nvio_read(NV50State *s, hwaddr addr, unsigned size)
{
    int port = i2c_port(addr);

    if (port >= 0) {
        NV50I2CBus *b = &s->nvio.i2c[port];

        return (*nvio_reg(s, addr) & ~3u) | b->scl | sda_wire(b) << 1;
    }
    switch (addr) {
    case NV_PNVIO_GPIO_INTR_EN:
        return s->nvio.intr_en;
    case NV_PNVIO_GPIO_INTR:
        return s->nvio.intr;
    default:
        if (addr >= 0x00e100 && addr < 0x00e130) {
            return *nvio_reg(s, addr);      /* GPIO lines: storage */
        }
        nv50_unimp(s, addr, false, 0);
        return *nvio_reg(s, addr);
    }
}

void nv50_nvio_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    int port = i2c_port(addr);

    if (port >= 0) {
        *nvio_reg(s, addr) = val;
        i2c_update(&s->nvio.i2c[port], val & 1, (val >> 1) & 1);
        return;
    }
    switch (addr) {
    case NV_PNVIO_GPIO_INTR_EN:
        s->nvio.intr_en = val;
        nvio_update_irq(s);
        break;
    case NV_PNVIO_GPIO_INTR:
        s->nvio.intr &= ~val;
        nvio_update_irq(s);
        break;
    default:
        if (!(addr >= 0x00e100 && addr < 0x00e130)) {
            nv50_unimp(s, addr, true, val);
        }
        *nvio_reg(s, addr) = val;
        break;
    }
}
