// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: a HID sensor hub (the kind a laptop's or
 * tablet's Intel ISH / AMD SFH presents) made through /dev/uhid, so that the
 * kernel's real hid-sensor-hub, hid-sensor-accel-3d and hid-sensor-gyro-3d
 * drivers, not our reading of them, decide what the IIO devices look like:
 * their sysfs attributes, scan elements, own trigger and kernel buffer.
 *
 * The device is a USB HID device 1209:0001 (pid.codes' test id: no driver
 * claims it by id) whose report descriptor holds two top-level Physical
 * collections on the Sensors usage page: an Accelerometer 3D (0x200073,
 * report id 1) and a Gyrometer 3D (0x200076, report id 2). A Sensors-page
 * Physical collection is what makes the HID core put the device in
 * HID_GROUP_SENSOR_HUB, the only group hid-sensor-hub matches (hid-generic
 * ignores that group, so nothing else binds it). hid-sensor-hub turns each
 * Physical collection into a platform device HID-SENSOR-<usage>, which the
 * IIO drivers bind by name.
 *
 * Each sensor has one feature report (the properties the drivers read and
 * write: reporting state, power state, report interval, change sensitivity,
 * optionally report latency) and one input report (x, y, z). It answers every
 * GET_REPORT from its current state and takes every SET_REPORT into it, as a
 * sensor's firmware would, and it only sends input reports while the driver
 * has it switched on (power state D0 and reporting state "all events"), which
 * the drivers do when a buffer is enabled or a raw value is read.
 *
 * The sensor starts switched off (D4, no events) and lying flat: a raw read
 * before any report gives accel (0, 0, 1000) and gyro (0, 0, 0).
 *
 * Units (no Unit item: the drivers' defaults): the accelerometer in g with
 * unit exponent -3 (1 count = 1 mg, in_accel_scale 0.009806650 m/s^2), the
 * gyroscope in degrees per second with unit exponent -2 (1 count =
 * 0.01 deg/s, in_anglvel_scale 0.000174532 rad/s).
 *
 * Commands, one per line on standard input (a FIFO in the scenarios):
 *
 *   accel X Y Z   one accelerometer report, raw counts (sent at once if the
 *   gyro X Y Z    sensor is on, else dropped as a real one would not send it)
 *   burst [N]     the known sequence below, N reports of each sensor (default
 *                 8), each sensor paced by its own report interval and only
 *                 while it is on (a tick of a sensor that is off is dropped);
 *                 burst 0 stops one in progress
 *   unplug-after N  destroy the device once N more input reports have been
 *                 sent (counting both sensors), as --unplug-after
 *   state         print each sensor's feature state
 *   quit          destroy the device (an unplug) and exit
 *
 * SIGUSR1 starts `burst` with the default count, for callers with no FIFO.
 * End of input, SIGTERM and SIGINT unplug too (closing /dev/uhid destroys the
 * device in any case, so even SIGKILL is an unplug).
 *
 * The known sequence, report k = 1, 2, ... 100, then from 1 again (so that
 * a long burst still fits 16-bit axes):
 *   accel ( 100k, -100k, 1000 + k)   mg
 *   gyro  (  10k,  -10k,  500 + k)   0.01 deg/s
 *
 * Standard output gets one line per event a scenario may wait for or check:
 * "started" (hid-sensor-hub started the device), "opened"/"closed" (the
 * HID device), "NAME on"/"NAME off" (a sensor switched by the driver),
 * "sent NAME X Y Z", "dropped NAME X Y Z", "burst NAME done", "state ...",
 * "unplugged". Standard error gets each GET/SET_REPORT when -v is given.
 *
 * Usage: sensorhub [-v] [--accel-bits 16|32] [--gyro-bits 16|32] [--latency]
 *                  [--interval MS] [--unplug-after N] [--no-commands]
 *
 *   --accel-bits, --gyro-bits  size of each axis in the input report
 *        (default 32). The drivers store every axis in 32 bits whatever its
 *        size, so 16 gives the scan type le:s16/32>>0 a real 16-bit hub has;
 *        they copy 4 bytes from the report for each axis, so the upper half
 *        of a stored axis holds the report's next bytes, which a reader must
 *        drop (realbits 16).
 *   --latency      also declare Report Latency, which makes the trigger code
 *        add hwfifo_timeout and hwfifo_enabled to the buffer directory.
 *   --interval MS  initial report interval (default 10 ms: 100 Hz).
 *   --unplug-after N  destroy the device once N input reports have been sent
 *        (counting both sensors), to unplug it in the middle of a capture.
 *   --no-commands  ignore standard input (driven by signals only; otherwise
 *        its end, e.g. /dev/null, is an unplug). */
#define _GNU_SOURCE   /* ppoll */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <time.h>

#include "uhid-tool.h"

/* Usages on the Sensors page (0x20), from the HID Usage Tables and the
 * kernel's include/linux/hid-sensor-ids.h. */
enum {
    USAGE_PAGE_SENSORS = 0x20,
    ACCEL_3D = 0x0073, GYRO_3D = 0x0076,
    DATA_ACCELERATION = 0x0452, ACCEL_X = 0x0453,
    DATA_ANGULAR_VELOCITY = 0x0456, ANGULAR_VELOCITY_X = 0x0457,
    PROPERTY_REPORT_INTERVAL = 0x030E,
    PROPERTY_REPORTING_STATE = 0x0316,
    PROPERTY_POWER_STATE = 0x0319,
    PROPERTY_REPORT_LATENCY = 0x031B,
    REPORTING_STATE_FIRST = 0x0840,   /* no events, all events, threshold, wake x3 */
    POWER_STATE_FIRST = 0x0850,       /* undefined, D0 .. D4 */
    /* Modifier of a data field's usage meaning "change sensitivity absolute":
     * the per-field form hid_sensor_parse_common_attributes looks for. */
    MODIFIER_SENSITIVITY_ABS = 0x1000,
};

/* The drivers write an enumerated property as (index of the selector among
 * the field's usages) + 1: they assume Logical Minimum 1, which the
 * descriptor therefore declares. These are those values. */
enum {
    REPORTING_NO_EVENTS = 1, REPORTING_ALL_EVENTS = 2,
    POWER_D0 = 2, POWER_D4 = 6,
};

struct sensor {
    const char *name;          /* in commands and output */
    uint16_t usage;
    uint16_t data_usage;       /* the data field the sensitivity applies to */
    uint16_t x_usage;          /* Y and Z follow */
    int exponent;
    uint8_t report_id;
    int value_bytes;           /* 2 or 4 */
    int32_t step[3], base[3];  /* the known sequence: base + k * step */

    /* Feature state, as the driver last set it. */
    uint8_t reporting, power;
    uint32_t interval_ms, latency_ms;
    uint16_t sensitivity;

    int32_t value[3];          /* the last sample, also what GET_REPORT of the input report returns */

    int burst_left, burst_k;   /* reports still to send, and the next one's k */
    int64_t burst_due_ms;      /* CLOCK_MONOTONIC */
};

static struct sensor sensors[] = {
    { .name = "accel", .usage = ACCEL_3D, .data_usage = DATA_ACCELERATION, .x_usage = ACCEL_X,
      .exponent = -3, .report_id = 1, .value_bytes = 4,
      .step = { 100, -100, 1 }, .base = { 0, 0, 1000 }, .value = { 0, 0, 1000 } },
    { .name = "gyro", .usage = GYRO_3D, .data_usage = DATA_ANGULAR_VELOCITY, .x_usage = ANGULAR_VELOCITY_X,
      .exponent = -2, .report_id = 2, .value_bytes = 4,
      .step = { 10, -10, 1 }, .base = { 0, 0, 500 } },
};
enum { SENSOR_COUNT = sizeof sensors / sizeof sensors[0] };

static int verbose;
static int with_latency;
static long unplug_after = -1;
static long reports_sent;
static volatile sig_atomic_t burst_requested, stop_requested;

static void say(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

static void trace(const char *format, ...) {
    if (!verbose) return;
    va_list args;
    va_start(args, format);
    fputs("sensorhub: ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}

/* ---- The report descriptor, written item by item ---- */

static uint8_t descriptor[1024];
static size_t descriptor_size;

/* A short item: prefix (tag and type, size bits 0) and its data, in the
 * fewest bytes that keep the value's sign (the HID core reads Logical
 * Minimum, and Logical Maximum when the minimum is negative, as signed). */
static void item(uint8_t prefix, int32_t value) {
    int bytes = value >= -128 && value <= 127 ? 1 : value >= -32768 && value <= 32767 ? 2 : 4;
    descriptor[descriptor_size++] = (uint8_t)(prefix | (bytes == 4 ? 3 : bytes));
    for (int i = 0; i < bytes; i++) descriptor[descriptor_size++] = (uint8_t)((uint32_t)value >> (8 * i));
}

static void item0(uint8_t prefix) { descriptor[descriptor_size++] = prefix; }

#define USAGE_PAGE(v)      item(0x04, v)
#define LOGICAL_MIN(v)     item(0x14, v)
#define LOGICAL_MAX(v)     item(0x24, v)
#define UNIT_EXPONENT(v)   item(0x54, (v) & 0x0F)   /* the 4-bit two's complement form devices use */
#define REPORT_SIZE(v)     item(0x74, v)
#define REPORT_ID(v)       item(0x84, v)
#define REPORT_COUNT(v)    item(0x94, v)
#define USAGE(v)           usage16(v)
#define COLLECTION(v)      item(0xA0, v)
#define END_COLLECTION()   item0(0xC0)
#define INPUT(v)           item(0x80, v)
#define FEATURE(v)         item(0xB0, v)
enum { PHYSICAL = 0x00, LOGICAL = 0x02 };
enum { DATA_ARRAY_ABS = 0x00, DATA_VAR_ABS = 0x02 };

/* Usages always as 2 bytes: the HID core then combines them with the
 * current Usage Page (0x20xxxx), as real sensor descriptors are written. */
static void usage16(uint16_t v) {
    descriptor[descriptor_size++] = 0x0A;
    descriptor[descriptor_size++] = (uint8_t)v;
    descriptor[descriptor_size++] = (uint8_t)(v >> 8);
}

/* An enumerated property: a one-byte array field whose selectors sit in a
 * Logical collection named by the property. hid-sensor-hub finds the field
 * by that collection's usage (field->logical), and the trigger code finds a
 * selector's index among the field's usages. */
static void enumerated_property(uint16_t property, uint16_t first_selector, int selectors) {
    USAGE(property);
    LOGICAL_MIN(1);
    LOGICAL_MAX(selectors);
    REPORT_SIZE(8);
    REPORT_COUNT(1);
    COLLECTION(LOGICAL);
    for (int i = 0; i < selectors; i++) USAGE((uint16_t)(first_selector + i));
    FEATURE(DATA_ARRAY_ABS);
    END_COLLECTION();
}

/* One sensor. Every axis is a field of its own (one Usage, one Input item):
 * hid-sensor-hub matches a field by its first usage and hands each field
 * to the driver separately, so X, Y and Z in one field would give only X. */
static void describe(const struct sensor *s) {
    USAGE_PAGE(USAGE_PAGE_SENSORS);
    USAGE(s->usage);
    COLLECTION(PHYSICAL);
    REPORT_ID(s->report_id);

    /* Feature report: byte 1 reporting state, 2 power state, 3-6 report
     * interval (ms: no Unit item means the drivers' default), 7-8 change
     * sensitivity in the data's own units, then 9-12 report latency (ms). */
    enumerated_property(PROPERTY_REPORTING_STATE, REPORTING_STATE_FIRST, 6);
    enumerated_property(PROPERTY_POWER_STATE, POWER_STATE_FIRST, 6);
    USAGE(PROPERTY_REPORT_INTERVAL);
    LOGICAL_MIN(0);
    LOGICAL_MAX(0x7FFFFFFF);
    REPORT_SIZE(32);
    REPORT_COUNT(1);
    UNIT_EXPONENT(0);
    FEATURE(DATA_VAR_ABS);
    USAGE((uint16_t)(s->data_usage | MODIFIER_SENSITIVITY_ABS));
    LOGICAL_MAX(0x7FFF);
    REPORT_SIZE(16);
    UNIT_EXPONENT(s->exponent);
    FEATURE(DATA_VAR_ABS);
    if (with_latency) {
        USAGE(PROPERTY_REPORT_LATENCY);
        LOGICAL_MAX(0x7FFFFFFF);
        REPORT_SIZE(32);
        UNIT_EXPONENT(0);
        FEATURE(DATA_VAR_ABS);
    }

    /* Input report: x, y, z, signed. */
    int bits = 8 * s->value_bytes;
    LOGICAL_MIN(bits == 16 ? -32768 : INT32_MIN);
    LOGICAL_MAX(bits == 16 ? 32767 : INT32_MAX);
    REPORT_SIZE(bits);
    REPORT_COUNT(1);
    UNIT_EXPONENT(s->exponent);
    for (int axis = 0; axis < 3; axis++) {
        USAGE((uint16_t)(s->x_usage + axis));
        INPUT(DATA_VAR_ABS);
    }
    END_COLLECTION();
}

/* ---- Reports ---- */

static size_t feature_size(void) { return with_latency ? 13 : 9; }
static size_t input_size(const struct sensor *s) { return 1 + 3 * (size_t)s->value_bytes; }

static void put(uint8_t *p, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get(const uint8_t *p, int bytes) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static size_t feature_report(const struct sensor *s, uint8_t *out) {
    out[0] = s->report_id;
    out[1] = s->reporting;
    out[2] = s->power;
    put(out + 3, s->interval_ms, 4);
    put(out + 7, s->sensitivity, 2);
    if (with_latency) put(out + 9, s->latency_ms, 4);
    return feature_size();
}

static size_t input_report(const struct sensor *s, uint8_t *out) {
    out[0] = s->report_id;
    for (int axis = 0; axis < 3; axis++)
        put(out + 1 + axis * s->value_bytes, (uint32_t)s->value[axis], s->value_bytes);
    return input_size(s);
}

static const char *reporting_name(uint8_t v) {
    static const char *names[] = { "?", "no-events", "all-events", "threshold-events",
                                   "wake-no-events", "wake-all-events", "wake-threshold-events" };
    return v < 7 ? names[v] : "?";
}

static const char *power_name(uint8_t v) {
    static const char *names[] = { "?", "undefined", "D0", "D1", "D2", "D3", "D4" };
    return v < 7 ? names[v] : "?";
}

static void describe_state(const struct sensor *s, char *out, size_t size) {
    int n = snprintf(out, size, "%s reporting %s power %s interval %u ms sensitivity %u",
                     s->name, reporting_name(s->reporting), power_name(s->power),
                     (unsigned)s->interval_ms, (unsigned)s->sensitivity);
    if (with_latency && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, " latency %u ms", (unsigned)s->latency_ms);
}

static struct sensor *sensor_with_id(uint8_t id) {
    for (int i = 0; i < SENSOR_COUNT; i++) if (sensors[i].report_id == id) return &sensors[i];
    return NULL;
}

static struct sensor *sensor_named(const char *name) {
    for (int i = 0; i < SENSOR_COUNT; i++) if (!strcmp(sensors[i].name, name)) return &sensors[i];
    return NULL;
}

static int is_on(const struct sensor *s) {
    return s->power == POWER_D0 && s->reporting == REPORTING_ALL_EVENTS;
}

static void unplug_and_exit(void) {
    uhid_destroy();
    say("unplugged");
    exit(0);
}

/* One input report with the given values, if the sensor is on. */
static void sample(struct sensor *s, const int32_t v[3]) {
    memcpy(s->value, v, sizeof s->value);
    if (!is_on(s)) {
        say("dropped %s %d %d %d", s->name, v[0], v[1], v[2]);
        return;
    }
    struct uhid_event e;
    memset(&e, 0, sizeof e);
    e.type = UHID_INPUT2;
    e.u.input2.size = (uint16_t)input_report(s, e.u.input2.data);
    uhid_send(&e);
    say("sent %s %d %d %d", s->name, v[0], v[1], v[2]);
    reports_sent++;
    if (unplug_after >= 0 && reports_sent >= unplug_after) unplug_and_exit();
}

/* ---- Requests from the kernel ---- */

static void answer_get_report(const struct uhid_get_report_req *req) {
    struct uhid_event r;
    memset(&r, 0, sizeof r);
    r.type = UHID_GET_REPORT_REPLY;
    r.u.get_report_reply.id = req->id;
    struct sensor *s = sensor_with_id(req->rnum);
    size_t size = 0;
    if (s && req->rtype == UHID_FEATURE_REPORT) size = feature_report(s, r.u.get_report_reply.data);
    else if (s && req->rtype == UHID_INPUT_REPORT) size = input_report(s, r.u.get_report_reply.data);
    r.u.get_report_reply.err = size ? 0 : EIO;
    r.u.get_report_reply.size = (uint16_t)size;
    uhid_send(&r);
    if (!s || !size) {
        trace("GET_REPORT id %u type %u: no such report, EIO", req->rnum, req->rtype);
    } else if (req->rtype == UHID_FEATURE_REPORT) {
        char state[160];
        describe_state(s, state, sizeof state);
        trace("GET_REPORT feature %u: %s", req->rnum, state);
    } else {
        trace("GET_REPORT input %u: %s %d %d %d", req->rnum, s->name, s->value[0], s->value[1], s->value[2]);
    }
}

static void take_set_report(const struct uhid_set_report_req *req) {
    struct uhid_event r;
    memset(&r, 0, sizeof r);
    r.type = UHID_SET_REPORT_REPLY;
    r.u.set_report_reply.id = req->id;
    struct sensor *s = sensor_with_id(req->rnum);
    /* What the HID core sends: the whole feature report, id first. */
    int ok = s && req->rtype == UHID_FEATURE_REPORT && req->size == feature_size() && req->data[0] == req->rnum;
    if (ok) {
        int was_on = is_on(s);
        s->reporting = req->data[1];
        s->power = req->data[2];
        s->interval_ms = get(req->data + 3, 4);
        s->sensitivity = (uint16_t)get(req->data + 7, 2);
        if (with_latency) s->latency_ms = get(req->data + 9, 4);
        char state[160];
        describe_state(s, state, sizeof state);
        trace("SET_REPORT feature %u: %s", req->rnum, state);
        if (is_on(s) != was_on) say("%s %s", s->name, is_on(s) ? "on" : "off");
    } else {
        trace("SET_REPORT id %u type %u size %u: not a report of ours, EIO", req->rnum, req->rtype, req->size);
    }
    r.u.set_report_reply.err = ok ? 0 : EIO;
    uhid_send(&r);
}

static void serve_one(void) {
    struct uhid_event e;
    ssize_t n = read(uhid_fd, &e, sizeof e);
    if (n <= 0) return;
    switch (e.type) {
    case UHID_START: say("started"); break;
    case UHID_STOP: say("stopped"); break;
    case UHID_OPEN: say("opened"); break;
    case UHID_CLOSE: say("closed"); break;
    case UHID_GET_REPORT: answer_get_report(&e.u.get_report); break;
    case UHID_SET_REPORT: take_set_report(&e.u.set_report); break;
    default: trace("event %u ignored", e.type); break;
    }
}

/* ---- The known sequence ---- */

enum { SEQUENCE_LENGTH = 100 };

static int64_t ms_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void start_burst(int count) {
    int64_t now = ms_now();
    if (count < 0) count = 0;
    for (int i = 0; i < SENSOR_COUNT; i++) {
        sensors[i].burst_left = count;
        sensors[i].burst_k = 1;
        sensors[i].burst_due_ms = now;
    }
}

/* Sends what is due; returns the poll time-out until the next tick (-1: none). */
static int run_bursts(void) {
    int timeout = -1;
    int64_t now = ms_now();
    for (int i = 0; i < SENSOR_COUNT; i++) {
        struct sensor *s = &sensors[i];
        if (!s->burst_left) continue;
        if (s->burst_due_ms <= now) {
            int32_t v[3];
            for (int axis = 0; axis < 3; axis++) v[axis] = s->base[axis] + s->burst_k * s->step[axis];
            sample(s, v);
            s->burst_k = s->burst_k % SEQUENCE_LENGTH + 1;
            if (--s->burst_left == 0) { say("burst %s done", s->name); continue; }
            /* From the time it was due, not from now: a late tick (a slow
             * emulated guest) is caught up at once, keeping the mean rate. */
            s->burst_due_ms += s->interval_ms ? s->interval_ms : 1;
        }
        int64_t wait = s->burst_due_ms - now;
        if (wait < 0) wait = 0;
        if (timeout < 0 || wait < timeout) timeout = (int)wait;
    }
    return timeout;
}

/* ---- Commands ---- */

static int command(char *line) {
    char *words[8];
    int n = split_words(line, words, 8);
    if (n == 0) return 1;
    if (!strcmp(words[0], "quit")) return 0;
    struct sensor *s = sensor_named(words[0]);
    if (s && n == 4) {
        int32_t v[3] = { atoi(words[1]), atoi(words[2]), atoi(words[3]) };
        sample(s, v);
        return 1;
    }
    if (!strcmp(words[0], "burst") && n <= 2) {
        start_burst(n == 2 ? atoi(words[1]) : 8);
        return 1;
    }
    if (!strcmp(words[0], "unplug-after") && n == 2) {
        unplug_after = reports_sent + atol(words[1]);
        return 1;
    }
    if (!strcmp(words[0], "state")) {
        for (int i = 0; i < SENSOR_COUNT; i++) {
            char state[160];
            describe_state(&sensors[i], state, sizeof state);
            say("state %s", state);
        }
        return 1;
    }
    fprintf(stderr, "sensorhub: unknown command: %s\n", words[0]);
    return 1;
}

static void on_signal(int signal) {
    if (signal == SIGUSR1) burst_requested = 1;
    else stop_requested = 1;
}

static void usage(void) {
    fprintf(stderr, "usage: sensorhub [-v] [--accel-bits 16|32] [--gyro-bits 16|32] [--latency]\n"
                    "                 [--interval MS] [--unplug-after N] [--no-commands]\n");
    exit(2);
}

int main(int argc, char **argv) {
    uint32_t interval_ms = 10;
    int input_open = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-v")) verbose = 1;
        else if (!strcmp(a, "--latency")) with_latency = 1;
        else if ((!strcmp(a, "--accel-bits") || !strcmp(a, "--gyro-bits")) && next) {
            int bits = atoi(next);
            if (bits != 16 && bits != 32) usage();
            sensors[a[2] == 'a' ? 0 : 1].value_bytes = bits / 8;
            i++;
        } else if (!strcmp(a, "--interval") && next) {
            interval_ms = (uint32_t)atoi(next);
            i++;
        } else if (!strcmp(a, "--no-commands")) {
            input_open = 0;
        } else if (!strcmp(a, "--unplug-after") && next) {
            unplug_after = atol(next);
            i++;
        } else usage();
    }
    /* Switched off until the driver switches it on, as after power-up. */
    for (int i = 0; i < SENSOR_COUNT; i++) {
        sensors[i].reporting = REPORTING_NO_EVENTS;
        sensors[i].power = POWER_D4;
        sensors[i].interval_ms = interval_ms;
        sensors[i].sensitivity = 10;
        describe(&sensors[i]);
    }

    uhid_open("sensorhub");

    /* Signals are blocked except while waiting in ppoll, so one arriving
     * between a check of the flags and the wait is not lost until the next
     * event. */
    sigset_t blocked, waiting;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGUSR1);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGINT);
    sigprocmask(SIG_BLOCK, &blocked, &waiting);
    sigdelset(&waiting, SIGUSR1);
    sigdelset(&waiting, SIGTERM);
    sigdelset(&waiting, SIGINT);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGUSR1, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    uhid_create("TiltMaze test sensor hub", "usb-tiltmaze-qemu/input0", NULL, 0x03 /* BUS_USB */, 0x1209, 0x0001, 0,
                descriptor, descriptor_size);
    trace("created, report descriptor %zu bytes", descriptor_size);

    struct command_input input = { .used = 0 };
    for (;;) {
        if (stop_requested) unplug_and_exit();
        if (burst_requested) { burst_requested = 0; start_burst(8); }
        int timeout_ms = run_bursts();
        struct timespec timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
        struct pollfd fds[2] = { { uhid_fd, POLLIN, 0 }, { input_open ? 0 : -1, POLLIN, 0 } };
        if (ppoll(fds, 2, timeout_ms < 0 ? NULL : &timeout, &waiting) < 0) {
            if (errno == EINTR) continue;
            perror("sensorhub: poll");
            return 1;
        }
        if (fds[0].revents & POLLIN) serve_one();
        if ((fds[1].revents & (POLLIN | POLLHUP)) && !feed_commands(&input, command)) unplug_and_exit();
    }
}
