/*
 * The generated VBIOS, parsed the way nouveau 6.1 parses it: PCI ROM
 * image and checksum (bios/image.c, pcir.c, shadow.c), BIT 'i' and 'I'
 * (bios/base.c, bit.c, nouveau_bios.c), DCB 4.0 outputs (bios/dcb.c,
 * nouveau_bios.c parse_dcb20_entry), CCB (bios/i2c.c), connectors
 * (bios/conn.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"
#include <check.h>
#include <math.h>

static uint8_t *rom;
static size_t rom_size;

static unsigned rd8(unsigned off)
{
    ck_assert_uint_lt(off, rom_size);
    return rom[off];
}

static unsigned rd16(unsigned off)
{
    return rd8(off) | rd8(off + 1) << 8;
}

static uint32_t rd32(unsigned off)
{
    return rd16(off) | (uint32_t)rd16(off + 2) << 16;
}

/* nvbios_findstr: first offset of the string, 0 if absent */
static unsigned findstr(const char *str, unsigned len)
{
    for (unsigned i = 0; i + len <= rom_size; i++) {
        if (!memcmp(rom + i, str, len)) {
            return i;
        }
    }
    return 0;
}

static bool bit_entry(char id, unsigned *ver, unsigned *len, unsigned *off)
{
    unsigned bit = findstr("\xff\xb8" "BIT", 5);
    unsigned n = rd8(bit + 10), e = bit + 12;

    while (n--) {
        if (rd8(e) == (unsigned)id) {
            *ver = rd8(e + 1);
            *len = rd16(e + 2);
            *off = rd16(e + 4);
            return true;
        }
        e += rd8(bit + 9);
    }
    return false;
}

static void setup(void)
{
    rom = nv50_vbios_build(NV50_G84_BOOT0, NV50_G84_DEVICE_ID, &rom_size);
}

static void teardown(void)
{
    g_free(rom);
}

START_TEST(pci_rom_image)
{
    unsigned pcir = rd16(0x18);
    uint8_t sum = 0;

    ck_assert_uint_eq(rd16(0), 0xaa55);
    ck_assert(!memcmp(rom + pcir, "PCIR", 4));
    ck_assert_uint_eq(rd16(pcir + 4), 0x10de);
    ck_assert_uint_eq(rd16(pcir + 6), 0x0400);
    ck_assert_uint_eq(rd16(pcir + 0x10) * 512, rom_size);
    ck_assert_uint_eq(rd8(pcir + 0x14), 0);          /* x86 image */
    ck_assert_uint_eq(rd8(pcir + 0x15) & 0x80, 0x80); /* last image */
    /* no NPDE override after PCIR */
    ck_assert(memcmp(rom + ((pcir + rd16(pcir + 0x0a) + 0xf) & ~0xf),
                     "NPDE", 4));
    for (size_t i = 0; i < rom_size; i++) {
        sum += rom[i];
    }
    ck_assert_uint_eq(sum, 0);
}
END_TEST

START_TEST(bit_tables)
{
    unsigned ver, len, off;

    ck_assert_uint_ne(findstr("\xff\xb8" "BIT", 5), 0);
    ck_assert_uint_eq(findstr("\xff\x7f" "NV\0", 5), 0);  /* not BMP */

    ck_assert(bit_entry('i', &ver, &len, &off));
    ck_assert_uint_ge(len, 15);
    /* bios: version 60.84.00.00.00 (major, chip, minor, micro, patch) */
    ck_assert_uint_eq(rd8(off + 3), 0x60);
    ck_assert_uint_eq(rd8(off + 2), 0x84);
    ck_assert_uint_eq(rd8(off + 5) & 0x10, 0);        /* not mobile */
    ck_assert_uint_eq(rd16(off + 13), 0);             /* no DAC cmp */

    ck_assert(bit_entry('I', &ver, &len, &off));
    ck_assert_uint_ge(len, 14);
    ck_assert_uint_lt(len, 16);             /* no "unknown" script */
    /* init_script(bios, 0) == 0: the script list is empty */
    ck_assert_uint_ne(rd16(off), 0);
    ck_assert_uint_eq(rd16(rd16(off)), 0);
}
END_TEST

/*
 * BIT 'C' as nvbios_pll_parse reads it (version 1, table at +8; table
 * version 0x40): both video PLLs, with limits under which a 65 MHz pixel
 * clock (the EDID's 1024x768) can be made the way nvkm's single-stage
 * search makes it: ref / M within the input range, VCO = ref * N / M
 * within the VCO range, clock = VCO >> P.
 */
START_TEST(pll_limits)
{
    static const struct {
        uint8_t type;
        uint32_t reg;
    } want[] = { { 0x80, 0x614100 }, { 0x81, 0x614900 } };
    unsigned ver, len, off, tab, hdr, elen, cnt;

    ck_assert(bit_entry('C', &ver, &len, &off));
    ck_assert_uint_eq(ver, 1);
    ck_assert_uint_ge(len, 10);
    tab = rd16(off + 8);
    ck_assert_uint_eq(rd8(tab), 0x40);
    hdr = rd8(tab + 1);
    elen = rd8(tab + 2);
    cnt = rd8(tab + 3);
    ck_assert_uint_ge(elen, 11);
    ck_assert_uint_eq(cnt, 2);
    for (unsigned i = 0; i < cnt; i++) {
        unsigned e = tab + hdr + i * elen, lim = rd16(e + 1);
        unsigned ref = rd16(e + 9) * 1000;
        double best = 1e9;

        ck_assert_uint_eq(rd8(e), want[i].type);
        ck_assert_uint_eq(rd32(e + 3), want[i].reg);
        ck_assert_uint_eq(ref, 27000);
        for (unsigned m = rd8(lim + 8); m <= rd8(lim + 9); m++) {
            unsigned in = ref / m;

            if (in < rd16(lim + 4) * 1000u || in > rd16(lim + 6) * 1000u) {
                continue;
            }
            for (unsigned n = rd8(lim + 10); n <= rd8(lim + 11); n++) {
                double vco = (double)ref * n / m;

                if (vco < rd16(lim + 0) * 1000.0 ||
                    vco > rd16(lim + 2) * 1000.0) {
                    continue;
                }
                for (unsigned p = rd8(lim + 12); p <= rd8(lim + 13); p++) {
                    best = MIN(best, fabs(vco / (1u << p) - 65000.0));
                }
            }
        }
        ck_assert(best < 65.0);         /* within 0.1% */
    }
}
END_TEST

START_TEST(dcb_outputs)
{
    unsigned dcb = rd16(0x36), hdr, cnt, len;
    uint32_t conn, conf;

    ck_assert_uint_eq(rd8(dcb), 0x40);
    ck_assert_uint_eq(rd32(dcb + 6), 0x4edcbdcb);
    hdr = rd8(dcb + 1);
    cnt = rd8(dcb + 2);
    len = rd8(dcb + 3);
    ck_assert_uint_ge(hdr, 0x16);           /* has a connector table */
    ck_assert_uint_eq(cnt, 2);
    ck_assert_uint_eq(len, 8);

    /* entry 0: ANALOG on DAC0, i2c 0, both heads, connector 0 */
    conn = rd32(dcb + hdr);
    ck_assert_uint_eq(conn & 0xf, 0);
    ck_assert_uint_eq((conn >> 4) & 0xf, 0);
    ck_assert_uint_eq((conn >> 8) & 0xf, 3);
    ck_assert_uint_eq((conn >> 12) & 0xf, 0);
    ck_assert_uint_eq((conn >> 20) & 3, 0);          /* on chip */
    ck_assert_uint_eq((conn >> 24) & 0xf, 1);        /* DAC0 */

    /* entry 1: TMDS on SOR0 link A, i2c 1, connector 1 */
    conn = rd32(dcb + hdr + len);
    conf = rd32(dcb + hdr + len + 4);
    ck_assert_uint_eq(conn & 0xf, 2);
    ck_assert_uint_eq((conn >> 4) & 0xf, 1);
    ck_assert_uint_eq((conn >> 8) & 0xf, 3);
    ck_assert_uint_eq((conn >> 12) & 0xf, 1);
    ck_assert_uint_eq((conn >> 24) & 0xf, 1);        /* SOR0 */
    ck_assert_uint_eq((conf >> 4) & 3, 1);           /* link A */
}
END_TEST

START_TEST(ccb_and_connectors)
{
    unsigned dcb = rd16(0x36);
    unsigned ccb = rd16(dcb + 4), conn = rd16(dcb + 0x14);

    /* CCB 4.0, entries of 4 bytes: port in byte 0, type in byte 3 */
    ck_assert_uint_eq(rd8(ccb), 0x40);
    ck_assert_uint_eq(rd8(ccb + 2), 2);
    ck_assert_uint_eq(rd8(ccb + 3), 4);
    for (unsigned i = 0; i < 2; i++) {
        unsigned e = ccb + rd8(ccb + 1) + i * 4;

        ck_assert_uint_eq(rd8(e + 3), 0x05);         /* NVIO bit-bang */
        ck_assert_uint_eq(rd8(e) & 0xf, i);          /* 0x00e138, e150 */
        ck_assert_uint_eq(rd8(e + 1) & 1, 0);        /* not shared */
    }

    ck_assert_uint_eq(rd8(conn), 0x40);
    ck_assert_uint_eq(rd8(conn + 2), 2);
    ck_assert_uint_ge(rd8(conn + 3), 4);
    ck_assert_uint_eq(rd8(conn + rd8(conn + 1)), 0x00);       /* VGA */
    ck_assert_uint_eq(rd8(conn + rd8(conn + 1) + 4), 0x31);   /* DVI-D */
    /* no hot-plug GPIO: DRM polls */
    ck_assert_uint_eq(rd8(conn + rd8(conn + 1) + 1) & 0x30, 0);
}
END_TEST

Suite *hw_vbios_suite(void)
{
    Suite *s = suite_create("hw-vbios");
    TCase *tc = tcase_create("vbios");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, pci_rom_image);
    tcase_add_test(tc, pll_limits);
    tcase_add_test(tc, bit_tables);
    tcase_add_test(tc, dcb_outputs);
    tcase_add_test(tc, ccb_and_connectors);
    suite_add_tcase(s, tc);
    return s;
}
