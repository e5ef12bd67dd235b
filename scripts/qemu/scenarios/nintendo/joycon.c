// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: a left Joy-Con on Bluetooth made through
 * /dev/uhid, so the kernel's real hid-nintendo driver (not our reading of it)
 * decides what its IMU node says and how it turns reports into events.
 *
 * It creates a Bluetooth HID device 057E:2006 and plays the controller's
 * side of the driver's probe: every subcommand arrives as output report 0x01
 * (packet number, rumble block, subcommand id at byte 10, arguments after
 * it) and is answered with input report 0x21 carrying the same id. The 6.1
 * driver asks, in this order: SPI flash reads of the user stick calibration
 * magic (0x8010, 0x801B), the factory stick calibration (0x603D, 0x6046),
 * the user IMU calibration magic (0x8026) and the factory IMU calibration
 * (0x6020, 24 bytes); set report mode 0x30; enable vibration; enable the
 * IMU; device info (type and MAC); player lights. Then it registers the
 * gamepad and IMU nodes. It prints "ready" once the player lights are set.
 *
 * Commands come one per line on standard input (a FIFO in the scenarios):
 *
 *   motion AX AY AZ GX GY GZ   one input report 0x30 whose three IMU samples
 *                              are all these raw counts
 *   motion A1.. G1 A2.. G2 A3.. G3
 *                              18 numbers: one report, three different samples
 *   quit                       destroy the device (an unplug) and exit
 *
 * Raw counts are in the driver's frame: +X towards the triggers, +Y to the
 * left, +Z out of the face. A real controller streams report 0x30 every
 * 15 ms once the mode is set; this one sends only on command, so a test
 * knows exactly which frames the driver saw.
 *
 * The calibration in its flash makes the driver's scaling plain: accel
 * offset 0, scale 16384 (evdev = raw, 4096 per g); gyro offset 0, scale
 * 13371, the real parts' value (evdev = raw x 1000, 14247 per deg/s).
 *
 * Usage: joycon [NAME]   (default: the Bluetooth name a real one has) */
#include "uhid-tool.h"

enum {
    OUTPUT_SUBCOMMAND = 0x01, OUTPUT_RUMBLE = 0x10,   /* host to controller */
    INPUT_REPLY = 0x21, INPUT_FULL = 0x30,            /* controller to host */
    REPORT_SIZE = 49,       /* id included; hid-nintendo ignores anything shorter */
    HEADER_SIZE = 13,       /* id, timer, battery, buttons, sticks, vibrator */
};

enum {
    SUB_DEVICE_INFO = 0x02, SUB_REPORT_MODE = 0x03, SUB_SPI_READ = 0x10,
    SUB_PLAYER_LIGHTS = 0x30, SUB_ENABLE_IMU = 0x40, SUB_ENABLE_VIBRATION = 0x48,
};

/* The driver talks to the device with raw reports only (HID_CONNECT_HIDRAW),
 * but the HID core drops an input report whose id the descriptor does not
 * declare, so 0x21 and 0x30 must be here; the output reports are declared
 * for completeness (uhid passes any output on). Vendor fields, 8 bits each,
 * count = size - 1. */
static const uint8_t descriptor[] = {
    0x05, 0x01,             /* Usage Page (Generic Desktop) */
    0x09, 0x05,             /* Usage (Game Pad) */
    0xA1, 0x01,             /* Collection (Application) */
    0x06, 0x01, 0xFF,       /*   Usage Page (Vendor) */
    0x15, 0x00,             /*   Logical Minimum (0) */
    0x26, 0xFF, 0x00,       /*   Logical Maximum (255) */
    0x75, 0x08,             /*   Report Size (8) */
    0x95, REPORT_SIZE - 1,  /*   Report Count (48) */
    0x85, INPUT_REPLY, 0x09, 0x21, 0x81, 0x02,         /* Input */
    0x85, INPUT_FULL, 0x09, 0x30, 0x81, 0x02,          /* Input */
    0x85, OUTPUT_SUBCOMMAND, 0x09, 0x01, 0x91, 0x02,   /* Output */
    0x85, OUTPUT_RUMBLE, 0x09, 0x10, 0x91, 0x02,       /* Output */
    0xC0,                   /* End Collection */
};

/* Shown by the driver as the node's uniq, upper case: 98:B6:E9:01:02:03
 * (98:B6:E9 is a Nintendo prefix). */
static const uint8_t mac[6] = { 0x98, 0xB6, 0xE9, 0x01, 0x02, 0x03 };

/* The part of the SPI flash the driver reads; erased (0xFF) elsewhere, so
 * there is no user calibration (its magic is 0xB2 0xA1) and the factory
 * one is used. */
static uint8_t flash[0x9000];

/* Two 12-bit values in three bytes, the way stick positions and stick
 * calibration are packed. */
static void put12x2(uint8_t *p, int a, int b) {
    p[0] = (uint8_t)a;
    p[1] = (uint8_t)((a >> 8) | (b << 4));
    p[2] = (uint8_t)(b >> 4);
}

static void fill_flash(void) {
    memset(flash, 0xFF, sizeof flash);
    /* Factory IMU calibration, 0x6020: accel offsets, accel scales, gyro
     * offsets, gyro scales (int16 LE, x y z). The driver computes
     * accel = raw * scale / (scale - offset) and
     * gyro = 1000 * (raw - offset) * scale / (scale - offset): offsets 0
     * leave raw counts (times 1000 for the gyro) exactly. */
    for (int i = 0; i < 3; i++) {
        put16(flash + 0x6020 + 2 * i, 0);
        put16(flash + 0x6026 + 2 * i, 16384);
        put16(flash + 0x602C + 2 * i, 0);
        put16(flash + 0x6032 + 2 * i, 13371);
    }
    /* Factory left stick calibration, 0x603D: distance above the centre,
     * centre, distance below (x, y each). The right stick's at 0x6046 stays
     * erased: a left Joy-Con has none, and the driver still takes 0xFFF
     * (centre 4095, range 0..8190) as plausible and never uses it. */
    put12x2(flash + 0x603D, 1536, 1536);
    put12x2(flash + 0x6040, 2048, 2048);
    put12x2(flash + 0x6043, 1536, 1536);
}

static uint8_t timer;

/* Every input report starts the same way: the driver reads the battery,
 * buttons and sticks of any 0x21 or 0x30 once probe is done. */
static uint8_t *start_report(struct uhid_event *e, uint8_t id) {
    memset(e, 0, sizeof *e);
    e->type = UHID_INPUT2;
    e->u.input2.size = REPORT_SIZE;
    uint8_t *r = e->u.input2.data;
    r[0] = id;
    r[1] = timer++;
    r[2] = 0x8E;                    /* battery full, not charging; a Joy-Con */
    put12x2(r + 6, 2048, 2048);     /* left stick at its calibrated centre */
    return r;
}

static void reply(uint8_t subcommand, const uint8_t *args, size_t nargs) {
    struct uhid_event e;
    uint8_t *r = start_report(&e, INPUT_REPLY);
    uint8_t *data = r + HEADER_SIZE + 2;
    r[HEADER_SIZE] = 0x80;          /* ACK; data-carrying replies set more bits */
    r[HEADER_SIZE + 1] = subcommand;

    switch (subcommand) {
    case SUB_DEVICE_INFO:
        r[HEADER_SIZE] = 0x82;
        data[0] = 0x03; data[1] = 0x48;            /* firmware 3.72 */
        data[2] = 0x01;                            /* type: left Joy-Con */
        data[3] = 0x02;
        memcpy(data + 4, mac, sizeof mac);
        data[10] = 0x01;
        data[11] = 0x01;                           /* colours are in the flash */
        fprintf(stderr, "joycon: device info sent\n");
        break;
    case SUB_SPI_READ: {
        if (nargs < 5) break;
        uint32_t address = args[0] | args[1] << 8 | args[2] << 16 | (uint32_t)args[3] << 24;
        size_t size = args[4];
        /* The reply echoes address and size; a real controller reads at
         * most 0x1D bytes at a time, all a 49-byte report has room for. */
        if (size > REPORT_SIZE - HEADER_SIZE - 2 - 5) size = REPORT_SIZE - HEADER_SIZE - 2 - 5;
        r[HEADER_SIZE] = 0x90;
        memcpy(data, args, 5);
        for (size_t i = 0; i < size; i++)
            data[5 + i] = (address + i < sizeof flash) ? flash[address + i] : 0xFF;
        fprintf(stderr, "joycon: SPI flash read 0x%04x, %zu bytes sent\n", (unsigned)address, size);
        break;
    }
    default:
        /* Report mode, vibration, IMU, lights and the rest only want an ACK. */
        fprintf(stderr, "joycon: subcommand 0x%02x (argument 0x%02x) acknowledged\n",
                subcommand, nargs ? args[0] : 0);
        break;
    }
    uhid_send(&e);
    if (subcommand == SUB_PLAYER_LIGHTS) {
        static int said;
        if (!said++) { printf("ready\n"); fflush(stdout); }
    }
}

static void serve_one(void) {
    struct uhid_event e;
    ssize_t n = read(uhid_fd, &e, sizeof e);
    if (n <= 0) return;
    if (e.type == UHID_OUTPUT) {
        const uint8_t *d = e.u.output.data;
        size_t size = e.u.output.size;
        /* Byte 1 is the packet number, 2-9 rumble; 0x10 (rumble alone)
         * wants no answer. */
        if (size > 10 && d[0] == OUTPUT_SUBCOMMAND) reply(d[10], d + 11, size - 11);
    } else if (e.type == UHID_GET_REPORT || e.type == UHID_SET_REPORT) {
        /* hid-nintendo uses no feature reports on Bluetooth: refuse them
         * rather than leave the caller waiting for uhid's time-out. */
        struct uhid_event r;
        memset(&r, 0, sizeof r);
        if (e.type == UHID_GET_REPORT) {
            r.type = UHID_GET_REPORT_REPLY;
            r.u.get_report_reply.id = e.u.get_report.id;
            r.u.get_report_reply.err = EIO;
        } else {
            r.type = UHID_SET_REPORT_REPLY;
            r.u.set_report_reply.id = e.u.set_report.id;
            r.u.set_report_reply.err = EIO;
        }
        uhid_send(&r);
    }
    /* UHID_START, UHID_OPEN, UHID_CLOSE: nothing to do. */
}

/* One report 0x30: the three samples, oldest first, accel then gyro. */
static void send_motion(const int samples[3][6]) {
    struct uhid_event e;
    uint8_t *r = start_report(&e, INPUT_FULL);
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 6; i++) put16(r + HEADER_SIZE + 12 * s + 2 * i, samples[s][i]);
    uhid_send(&e);
}

static int command(char *line) {
    char *words[20];
    int n = split_words(line, words, 20);
    if (n == 0) return 1;
    if (!strcmp(words[0], "quit")) return 0;
    if (!strcmp(words[0], "motion") && (n == 7 || n == 19)) {
        int samples[3][6];
        for (int s = 0; s < 3; s++)
            for (int i = 0; i < 6; i++) samples[s][i] = atoi(words[1 + (n == 19 ? 6 * s : 0) + i]);
        send_motion(samples);
        return 1;
    }
    fprintf(stderr, "joycon: unknown command: %s\n", words[0]);
    return 1;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "Joy-Con (L)";
    fill_flash();
    uhid_open("joycon");
    /* As hidp sets them: phys is the local adapter's address, uniq the
     * controller's, lower case. BUS_BLUETOOTH: hid-nintendo binds a Joy-Con
     * only there. */
    char uniq[18];
    snprintf(uniq, sizeof uniq, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
    uhid_create(name, "11:22:33:44:55:66", uniq, 0x05, 0x057E, 0x2006, 0x0001, descriptor, sizeof descriptor);

    return uhid_run(serve_one, command);
}
