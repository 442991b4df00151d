/*
 * The VBIOS gemu generates for its card, and PROM, which serves it at
 * BAR0 0x300000 (the PCI expansion ROM BAR serves the same bytes).
 *
 * The image is what nouveau needs and nothing more (nouveau-g84.md §3):
 * a PCI ROM image (0xAA55, PCIR, type 0 = x86, last image, byte sum 0),
 * a BIT table with 'i' (version 60.84.00.00.00, no DAC load table) and 'I'
 * (an empty init-script list, so nothing runs even if nvkm decides to
 * POST), 'C' (a PLL limits table, version 0x40, with the two video PLLs
 * nvkm programs at supervisor 2.1 of a modeset), DCB 4.0 with two
 * outputs, a CCB (I2C) table and a connector table.  The layout (offsets
 * below) is gemu's own choice.
 *
 *   DCB 0: DAC0 (analog), heads 0-1, I2C 0, connector 0 (VGA)
 *   DCB 1: SOR0 link A (TMDS), heads 0-1, I2C 1, connector 1 (DVI-D)
 *   CCB 0/1: NVIO bit-banged ports 0 and 1 (0x00e138, 0x00e150)
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "gemu/log.h"
#include "hw/nv50/nv50.h"
#include "hw/nv50/vbios.h"

static void put8(uint8_t *r, unsigned off, uint8_t v)
{
    r[off] = v;
}

static void put16(uint8_t *r, unsigned off, uint16_t v)
{
    stn_le_p(r + off, 2, v);
}

static void put32(uint8_t *r, unsigned off, uint32_t v)
{
    stn_le_p(r + off, 4, v);
}

static void build_bit(uint8_t *r, uint32_t boot0)
{
    static const uint8_t sig[] = { 0xff, 0xb8, 'B', 'I', 'T', 0x00 };
    unsigned e = VBIOS_BIT + 12;

    memcpy(r + VBIOS_BIT, sig, sizeof(sig));
    put16(r, VBIOS_BIT + 6, 0x0100);        /* BIT version 1.0 */
    put8(r, VBIOS_BIT + 8, 12);             /* header length */
    put8(r, VBIOS_BIT + 9, 6);              /* entry length */
    put8(r, VBIOS_BIT + 10, 3);             /* entries */

    put8(r, e + 0, 'i');
    put8(r, e + 1, 0);
    put16(r, e + 2, VBIOS_BIT_I_LEN);
    put16(r, e + 4, VBIOS_BIT_i);
    e += 6;
    put8(r, e + 0, 'I');
    put8(r, e + 1, 0);
    put16(r, e + 2, VBIOS_BIT_INIT_LEN);
    put16(r, e + 4, VBIOS_BIT_INIT);
    e += 6;
    put8(r, e + 0, 'C');
    put8(r, e + 1, 1);                      /* version 1: table at +8 */
    put16(r, e + 2, VBIOS_BIT_C_LEN);
    put16(r, e + 4, VBIOS_BIT_C);

    /* 'i': version bytes micro, minor, chip, major, patch */
    put8(r, VBIOS_BIT_i + 0, 0x00);
    put8(r, VBIOS_BIT_i + 1, 0x00);
    put8(r, VBIOS_BIT_i + 2, (boot0 >> 20) & 0xff);
    put8(r, VBIOS_BIT_i + 3, 0x60);
    put8(r, VBIOS_BIT_i + 4, 0x00);
    put8(r, VBIOS_BIT_i + 5, 0x00);         /* feature byte: not mobile */
    put16(r, VBIOS_BIT_i + 13, 0x0000);     /* no DAC load-detect table */

    /* 'I': script table pointer, then macro/condition tables (none) */
    put16(r, VBIOS_BIT_INIT, VBIOS_SCRIPTS);
    put16(r, VBIOS_SCRIPTS, 0x0000);        /* empty script list */

    /* 'C' version 1: the PLL limits table pointer at +8 */
    put16(r, VBIOS_BIT_C + 8, VBIOS_PLL);
}

/*
 * PLL limits table version 0x40 (nvbios_pll_parse): header (version,
 * header length, entry length, count); each entry: type, pointer to its
 * limits, register (u32 at +3), reference clock in MHz (u16 at +9); a
 * limits record: VCO min/max and input min/max in MHz (u16 each), then
 * M min/max, N min/max, P min/max (bytes).  Only the video PLLs (types
 * 0x80/0x81 at 0x614100/0x614900, what nvkm's supervisor 2.1 sets for a
 * new pixel clock).  UNVERIFIED: the limits are plausible numbers for a
 * 27 MHz crystal (VCO 400-1100 MHz, 5-27 MHz at the phase comparator, P
 * up to 6: pixel clocks from ~6 to 1100 MHz), not read from a real G84
 * BIOS; gemu does not model the PLLs, so only nvkm's arithmetic uses them.
 */
static void build_pll_limits(uint8_t *r)
{
    static const struct {
        uint8_t type;
        uint32_t reg;
    } plls[] = { { 0x80, 0x614100 }, { 0x81, 0x614900 } };
    unsigned e = VBIOS_PLL + 4;

    put8(r, VBIOS_PLL + 0, 0x40);
    put8(r, VBIOS_PLL + 1, 4);
    put8(r, VBIOS_PLL + 2, VBIOS_PLL_ENTRY_LEN);
    put8(r, VBIOS_PLL + 3, ARRAY_SIZE(plls));
    for (unsigned i = 0; i < ARRAY_SIZE(plls); i++) {
        unsigned lim = VBIOS_PLL_LIMITS + i * 16;

        put8(r, e + 0, plls[i].type);
        put16(r, e + 1, lim);
        put32(r, e + 3, plls[i].reg);
        put16(r, e + 9, 27);                /* reference clock, MHz */
        put16(r, lim + 0, 400);             /* VCO min, MHz */
        put16(r, lim + 2, 1100);            /* VCO max */
        put16(r, lim + 4, 5);               /* input (ref / M) min */
        put16(r, lim + 6, 27);              /* input max */
        put8(r, lim + 8, 1);                /* M */
        put8(r, lim + 9, 5);
        put8(r, lim + 10, 1);               /* N */
        put8(r, lim + 11, 255);
        put8(r, lim + 12, 0);               /* P (log2 divider) */
        put8(r, lim + 13, 6);
        e += VBIOS_PLL_ENTRY_LEN;
    }
}

static void build_dcb(uint8_t *r)
{
    unsigned e = VBIOS_DCB + VBIOS_DCB_HDR_LEN;

    put8(r, VBIOS_DCB + 0, 0x40);           /* DCB 4.0 */
    put8(r, VBIOS_DCB + 1, VBIOS_DCB_HDR_LEN);
    put8(r, VBIOS_DCB + 2, VBIOS_NUM_OUTPUTS);
    put8(r, VBIOS_DCB + 3, 8);              /* entry length */
    put16(r, VBIOS_DCB + 4, VBIOS_CCB);
    put32(r, VBIOS_DCB + 6, VBIOS_DCB_SIGNATURE);
    put16(r, VBIOS_DCB + 0x0a, 0x0000);     /* no GPIO table */
    put16(r, VBIOS_DCB + 0x14, VBIOS_CONN);

    /* entry: type 3:0, i2c 7:4, heads 11:8, conn 15:12, bus 19:16, OR */
    put32(r, e + 0, 0x01000300);            /* ANALOG, DAC0 */
    put32(r, e + 4, 0x00000000);
    put32(r, e + 8, 0x01011312);            /* TMDS, SOR0 */
    put32(r, e + 12, 0x00000010);           /* link A */

    put8(r, VBIOS_CCB + 0, 0x40);           /* CCB 4.0 */
    put8(r, VBIOS_CCB + 1, 5);
    put8(r, VBIOS_CCB + 2, 2);
    put8(r, VBIOS_CCB + 3, 4);
    /* entry: drive port, share flags, -, type 5 = NVIO bit-bang */
    put32(r, VBIOS_CCB + 5, 0x05000000);
    put32(r, VBIOS_CCB + 9, 0x05000001);

    put8(r, VBIOS_CONN + 0, 0x40);          /* connector table 4.0 */
    put8(r, VBIOS_CONN + 1, 5);
    put8(r, VBIOS_CONN + 2, 2);
    put8(r, VBIOS_CONN + 3, 4);
    put32(r, VBIOS_CONN + 5, 0x00000000);   /* VGA, no hot-plug */
    put32(r, VBIOS_CONN + 9, 0x00000031);   /* DVI-D, no hot-plug */
}

uint8_t *nv50_vbios_build(uint32_t boot0, uint16_t device_id, size_t *size)
{
    uint8_t *r = g_malloc0(VBIOS_SIZE);
    uint8_t sum = 0;

    put16(r, 0x00, 0xaa55);
    put8(r, 0x02, VBIOS_SIZE / 512);
    put16(r, 0x18, VBIOS_PCIR);
    put16(r, 0x36, VBIOS_DCB);

    memcpy(r + VBIOS_PCIR, "PCIR", 4);
    put16(r, VBIOS_PCIR + 0x04, 0x10de);
    put16(r, VBIOS_PCIR + 0x06, device_id);
    put16(r, VBIOS_PCIR + 0x0a, 0x18);      /* structure length */
    put8(r, VBIOS_PCIR + 0x0d, 0x00);       /* class 03 00 00 */
    put8(r, VBIOS_PCIR + 0x0e, 0x00);
    put8(r, VBIOS_PCIR + 0x0f, 0x03);
    put16(r, VBIOS_PCIR + 0x10, VBIOS_SIZE / 512);
    put8(r, VBIOS_PCIR + 0x14, 0x00);       /* x86 image */
    put8(r, VBIOS_PCIR + 0x15, 0x80);       /* last image */

    build_bit(r, boot0);
    build_dcb(r);
    build_pll_limits(r);

    for (size_t i = 0; i < VBIOS_SIZE - 1; i++) {
        sum += r[i];
    }
    r[VBIOS_SIZE - 1] = -sum;
    *size = VBIOS_SIZE;
    return r;
}

uint64_t nv50_prom_read(NV50State *s, hwaddr addr, unsigned size)
{
    hwaddr off = addr - NV_PROM_BASE;
    uint8_t b[8] = { 0 };

    /*
     * UNVERIFIED: PROM ignores the ROM-shadow bit in PCI config 0x50
     * (nvkm clears it before reading); past the image it reads 0.
     */
    for (unsigned i = 0; i < size; i++) {
        if (off + i < s->vbios_size) {
            b[i] = s->vbios[off + i];
        }
    }
    return ldn_le_p(b, size);
}

void nv50_prom_write(NV50State *s, hwaddr addr, uint64_t val, unsigned size)
{
    gemu_log_mask(LOG_GUEST_ERROR, "nv50: write 0x%" PRIx64 " to PROM at "
                  "0x%06" PRIx64 " (read-only)\n", val, addr);
}
