/*
 * The EDID of the monitor gemu attaches to the TMDS output: EDID 1.3,
 * digital input, one detailed timing (1024x768 at 60 Hz, VESA DMT), a
 * monitor name and range limits.  Read over DDC by nouveau's bit-banged
 * I2C (PNVIO port 1, EEPROM address 0x50).
 *
 * SPDX-License-Identifier: MIT
 */
#include "gemu/osdep.h"
#include "hw/nv50/nv50.h"

/* "GMU" as three 5-bit letters, big endian */
#define EDID_MFG    ((('G' - '@') << 10) | (('M' - '@') << 5) | ('U' - '@'))

static void edid_name(uint8_t *d, const char *name)
{
    size_t n = strlen(name);

    d[3] = 0xfc;                            /* monitor name */
    memset(d + 5, ' ', 13);
    memcpy(d + 5, name, n);
    d[5 + n] = '\n';
}

void nv50_edid_build(uint8_t edid[NV50_EDID_SIZE])
{
    static const uint8_t header[8] = {
        0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00,
    };
    /* 1024x768@60: 65.00 MHz, h 1024+24+136+160, v 768+3+6+29, -h -v */
    static const uint8_t dtd[18] = {
        0x64, 0x19, 0x00, 0x40, 0x41, 0x00, 0x26, 0x30,
        0x18, 0x88, 0x36, 0x00, 0x40, 0x2c, 0x01, 0x00, 0x00, 0x18,
    };
    static const uint8_t range[18] = {
        0x00, 0x00, 0x00, 0xfd, 0x00,
        50, 75, 30, 70, 7,                  /* Hz, kHz, 70 MHz max */
        0x00, 0x0a, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    };
    uint8_t sum = 0;

    memset(edid, 0, NV50_EDID_SIZE);
    memcpy(edid, header, sizeof(header));
    edid[8] = EDID_MFG >> 8;
    edid[9] = EDID_MFG & 0xff;
    edid[10] = 0x84;                        /* product 0x0084 */
    edid[12] = 1;                           /* serial 1 */
    edid[16] = 1;                           /* week 1 */
    edid[17] = 2024 - 1990;
    edid[18] = 1;                           /* EDID 1.3 */
    edid[19] = 3;
    edid[20] = 0x80;                        /* digital input */
    edid[21] = 32;                          /* 32 x 24 cm */
    edid[22] = 24;
    edid[23] = 120;                         /* gamma 2.2 */
    edid[24] = 0x0a;                        /* RGB, preferred timing */
    /* sRGB-ish chromaticity */
    {
        static const uint8_t chroma[10] = {
            0xee, 0x91, 0xa3, 0x54, 0x4c, 0x99, 0x26, 0x0f, 0x50, 0x54,
        };
        memcpy(edid + 25, chroma, sizeof(chroma));
    }
    edid[35] = 0x21;                        /* 640x480@60, 800x600@60 */
    edid[36] = 0x08;                        /* 1024x768@60 */
    for (int i = 38; i < 54; i += 2) {
        edid[i] = 0x01;                     /* no standard timings */
        edid[i + 1] = 0x01;
    }
    memcpy(edid + 54, dtd, sizeof(dtd));
    edid_name(edid + 72, "gemu G84");
    memcpy(edid + 90, range, sizeof(range));
    edid[108 + 3] = 0x10;                   /* dummy descriptor */
    for (int i = 0; i < NV50_EDID_SIZE - 1; i++) {
        sum += edid[i];
    }
    edid[NV50_EDID_SIZE - 1] = -sum;
}
