// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: a DualSense made through /dev/uhid, so the
 * kernel's real hid-playstation driver (not our reading of it) decides what
 * the motion and gamepad nodes say.
 *
 * It creates a USB HID device 054C:0CE6 whose report descriptor declares the
 * reports hid-playstation uses, answers the driver's feature-report requests
 * during probe (pairing info with the MAC, firmware info, IMU calibration),
 * swallows its output reports (lightbar, player LEDs), and sends input
 * report 0x01 on command. Commands come one per line on standard input (a
 * FIFO in the scenarios):
 *
 *   motion AX AY AZ GX GY GZ   raw accelerometer and gyroscope counts in the
 *                              controller's frame (+X right grip, +Y out of
 *                              the face, +Z towards the player); one report
 *   press BUTTON               one report with the button down, one with it
 *                              up: cross circle square triangle options
 *                              create ps up down left right
 *   quit                       destroy the device (an unplug) and exit
 *
 * Every report advances the IMU's clock by 4 ms (12000 ticks of 1/3 us, the
 * controller's unit) and carries the last motion values, so a press is not a
 * jolt. It prints "ready" once the driver has asked for everything probe needs.
 *
 * The calibration it answers makes the driver's scaling plain: gyro bias 0,
 * +/-8640 counts for +/-540 deg/s (so evdev = raw x 64 at 1024 per deg/s),
 * accelerometer +/-8192 per g (evdev = raw at 8192 per g).
 *
 * Usage: dualsense [NAME]   (default: the USB name a real one has) */
#include "uhid-tool.h"

enum {
    INPUT_REPORT = 0x01, INPUT_SIZE = 64,          /* USB input report, id included */
    OUTPUT_REPORT = 0x02, OUTPUT_SIZE = 63,
    CALIBRATION = 0x05, CALIBRATION_SIZE = 41,
    PAIRING = 0x09, PAIRING_SIZE = 20,
    FIRMWARE = 0x20, FIRMWARE_SIZE = 64,
};

/* A vendor-defined game pad: hid-playstation matches the device by its ids
 * and parses nothing but the sizes, which must be exact (it rejects a report
 * of any other length). Each report: id, 8-bit fields, count = size - 1. */
static const uint8_t descriptor[] = {
    0x05, 0x01,             /* Usage Page (Generic Desktop) */
    0x09, 0x05,             /* Usage (Game Pad) */
    0xA1, 0x01,             /* Collection (Application) */
    0x06, 0x00, 0xFF,       /*   Usage Page (Vendor) */
    0x15, 0x00,             /*   Logical Minimum (0) */
    0x26, 0xFF, 0x00,       /*   Logical Maximum (255) */
    0x75, 0x08,             /*   Report Size (8) */
    0x85, INPUT_REPORT, 0x09, 0x20, 0x95, INPUT_SIZE - 1, 0x81, 0x02,            /* Input */
    0x85, OUTPUT_REPORT, 0x09, 0x21, 0x95, OUTPUT_SIZE - 1, 0x91, 0x02,          /* Output */
    0x85, CALIBRATION, 0x09, 0x22, 0x95, CALIBRATION_SIZE - 1, 0xB1, 0x02,      /* Feature */
    0x85, PAIRING, 0x09, 0x23, 0x95, PAIRING_SIZE - 1, 0xB1, 0x02,              /* Feature */
    0x85, FIRMWARE, 0x09, 0x24, 0x95, FIRMWARE_SIZE - 1, 0xB1, 0x02,            /* Feature */
    0xC0,                   /* End Collection */
};

static int16_t accel[3], gyro[3];
static uint32_t imu_ticks = 3000;   /* 1 ms: the driver starts its microsecond count here */
static uint8_t sequence;

/* Feature reports probe reads; byte 0 is the report id, sizes exact. */
static size_t feature(uint8_t id, uint8_t *out) {
    switch (id) {
    case PAIRING:
        out[0] = PAIRING;
        memcpy(out + 1, "\x66\x55\x44\x33\x22\x11", 6);   /* shown as 11:22:33:44:55:66 */
        return PAIRING_SIZE;
    case FIRMWARE:
        out[0] = FIRMWARE;
        put32(out + 24, 0x00000617);                       /* hardware version */
        put32(out + 28, 0x01000306);                       /* firmware version */
        put16(out + 44, 0x0230);                           /* update version */
        return FIRMWARE_SIZE;
    case CALIBRATION: {
        static const int values[] = {
            0, 0, 0,                       /* gyro pitch, yaw, roll bias */
            8640, -8640, 8640, -8640,      /* pitch +/-, yaw +/- */
            8640, -8640,                   /* roll +/- */
            540, 540,                      /* speed +/- (deg/s) */
            8192, -8192, 8192, -8192, 8192, -8192,   /* accel x, y, z +/- */
        };
        out[0] = CALIBRATION;
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) put16(out + 1 + 2 * i, values[i]);
        return CALIBRATION_SIZE;
    }
    default:
        return 0;
    }
}

static int answered_all;

static void serve_one(void) {
    struct uhid_event e;
    ssize_t n = read(uhid_fd, &e, sizeof e);
    if (n <= 0) return;
    if (e.type == UHID_GET_REPORT) {
        struct uhid_event r;
        memset(&r, 0, sizeof r);
        r.type = UHID_GET_REPORT_REPLY;
        r.u.get_report_reply.id = e.u.get_report.id;
        size_t size = feature(e.u.get_report.rnum, r.u.get_report_reply.data);
        r.u.get_report_reply.err = size ? 0 : EIO;
        r.u.get_report_reply.size = (uint16_t)size;
        uhid_send(&r);
        fprintf(stderr, "dualsense: feature report 0x%02x asked, %zu bytes sent\n", e.u.get_report.rnum, size);
        answered_all |= e.u.get_report.rnum == CALIBRATION ? 1 : e.u.get_report.rnum == PAIRING ? 2
                      : e.u.get_report.rnum == FIRMWARE ? 4 : 0;
        if (answered_all == 7) { printf("ready\n"); fflush(stdout); answered_all = 8; }
    } else if (e.type == UHID_SET_REPORT) {
        struct uhid_event r;
        memset(&r, 0, sizeof r);
        r.type = UHID_SET_REPORT_REPLY;
        r.u.set_report_reply.id = e.u.set_report.id;
        uhid_send(&r);
    }
    /* UHID_START, UHID_OPEN, UHID_CLOSE, UHID_OUTPUT (LEDs): nothing to do. */
}

/* Buttons as input report 0x01 carries them: byte 8 holds the hat (0 up,
 * clockwise, 8 released) and square/cross/circle/triangle in bits 4-7;
 * byte 9 bit 4 create, bit 5 options; byte 10 bit 0 the PS button. */
struct button { const char *name; int byte; uint8_t bits; };
static const struct button buttons[] = {
    { "square", 8, 0x10 }, { "cross", 8, 0x20 }, { "circle", 8, 0x40 }, { "triangle", 8, 0x80 },
    { "create", 9, 0x10 }, { "options", 9, 0x20 }, { "ps", 10, 0x01 },
    { "up", 8, 0 }, { "right", 8, 2 }, { "down", 8, 4 }, { "left", 8, 6 },
};

static void send_report(const struct button *held) {
    struct uhid_event e;
    memset(&e, 0, sizeof e);
    e.type = UHID_INPUT2;
    e.u.input2.size = INPUT_SIZE;
    uint8_t *r = e.u.input2.data;
    r[0] = INPUT_REPORT;
    r[1] = r[2] = r[3] = r[4] = 0x80;      /* sticks centred */
    r[7] = sequence++;
    r[8] = 8;                              /* hat released */
    if (held) {
        if (held->bits >= 0x10 || held->byte != 8) r[held->byte] |= held->bits;
        else r[8] = held->bits;            /* a hat direction replaces "released" */
    }
    for (int i = 0; i < 3; i++) put16(r + 16 + 2 * i, gyro[i]);
    for (int i = 0; i < 3; i++) put16(r + 22 + 2 * i, accel[i]);
    put32(r + 28, imu_ticks);
    imu_ticks += 12000;
    uhid_send(&e);
}

static int command(char *line) {
    char *words[8];
    int n = split_words(line, words, 8);
    if (n == 0) return 1;
    if (!strcmp(words[0], "quit")) return 0;
    if (!strcmp(words[0], "motion") && n == 7) {
        for (int i = 0; i < 3; i++) accel[i] = (int16_t)atoi(words[1 + i]);
        for (int i = 0; i < 3; i++) gyro[i] = (int16_t)atoi(words[4 + i]);
        send_report(NULL);
        return 1;
    }
    if (!strcmp(words[0], "press") && n == 2) {
        for (size_t i = 0; i < sizeof buttons / sizeof buttons[0]; i++) {
            if (strcmp(words[1], buttons[i].name)) continue;
            send_report(&buttons[i]);
            usleep(60000);
            send_report(NULL);
            return 1;
        }
    }
    fprintf(stderr, "dualsense: unknown command: %s\n", words[0]);
    return 1;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "Sony Interactive Entertainment DualSense Wireless Controller";
    uhid_open("dualsense");
    /* BUS_USB: the driver reads USB-sized reports. */
    uhid_create(name, "usb-tiltmaze-qemu/input0", NULL, 0x03, 0x054C, 0x0CE6, 0, descriptor, sizeof descriptor);

    return uhid_run(serve_one, command);
}
