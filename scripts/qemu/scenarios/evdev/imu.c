// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: a motion sensor made through /dev/uinput, as
 * the kernel's game-controller drivers present theirs: INPUT_PROP_ACCELEROMETER,
 * ABS_X/Y/Z at 8192 units per g, MSC_TIMESTAMP in microseconds, one frame
 * every 5 ms. It lies level until it gets SIGUSR1, then (after a burst of
 * BURST frames written at once, to make the reader drop events: SYN_DROPPED)
 * tilts its right edge down by 30 degrees until killed, or with `down` its
 * near edge (the bottom of the screen).
 *
 * Usage: imu BURST [right|down]   (prints the event node, e.g. /dev/input/event3) */
#include <dirent.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int fd;
static volatile sig_atomic_t tilt;

static void start_tilting(int signal) { (void)signal; tilt = 1; }
static unsigned int device_us;

static void emit(int type, int code, int value) {
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.code = code;
    e.value = value;
    if (write(fd, &e, sizeof e) != sizeof e) { perror("write"); exit(1); }
}

/* One frame: specific force in g (board frame: a level board reads +1 g on z).
 * z moves by one count every other frame, as a real sensor's noise would: the
 * input core passes on only values that changed, and a frame with none
 * carries no reading. */
static void frame(double x, double y, double z) {
    emit(EV_ABS, ABS_X, (int)lround(x * 8192));
    emit(EV_ABS, ABS_Y, (int)lround(y * 8192));
    emit(EV_ABS, ABS_Z, (int)lround(z * 8192) + (int)((device_us / 5000) & 1));
    emit(EV_MSC, MSC_TIMESTAMP, (int)device_us);
    emit(EV_SYN, SYN_REPORT, 0);
    device_us += 5000;
}

static void ms_sleep(int ms) {
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
    int burst = argc > 1 ? atoi(argv[1]) : 0;
    int down = argc > 2 && strcmp(argv[2], "down") == 0;
    if (argc > 2 && !down && strcmp(argv[2], "right") != 0) { fprintf(stderr, "usage: imu BURST [right|down]\n"); return 2; }
    signal(SIGUSR1, start_tilting);
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) { perror("/dev/uinput"); return 2; }
    ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_EVBIT, EV_MSC);
    ioctl(fd, UI_SET_MSCBIT, MSC_TIMESTAMP);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER);
    for (int code = ABS_X; code <= ABS_Z; code++) {
        struct uinput_abs_setup abs;
        memset(&abs, 0, sizeof abs);
        abs.code = code;
        abs.absinfo.minimum = -32768;
        abs.absinfo.maximum = 32767;
        abs.absinfo.resolution = 8192;
        if (ioctl(fd, UI_ABS_SETUP, &abs) < 0) { perror("UI_ABS_SETUP"); return 2; }
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    strcpy(setup.name, "TiltMaze test IMU");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) { perror("UI_DEV_CREATE"); return 2; }

    char sysname[64] = "", path[128];
    ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname);
    snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
    DIR *dir = opendir(path);
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
        if (strncmp(entry->d_name, "event", 5) == 0) { printf("/dev/input/%s\n", entry->d_name); break; }
    }
    if (dir) closedir(dir);
    fflush(stdout);

    while (!tilt) { frame(0, 0, 1); ms_sleep(5); }
    /* Specific force in the board frame (x right, y to the far edge, z up
     * out of the screen): the right edge down gives -x; the near edge down
     * gives +y. */
    double s = sin(M_PI / 6), c = cos(M_PI / 6);
    double x = down ? 0 : -s, y = down ? s : 0;
    for (int i = 0; i < burst; i++) frame(i % 2 ? x : x * 0.99, i % 2 ? y : y * 0.99, c);
    for (;;) { frame(x, y, c); ms_sleep(5); }
}
