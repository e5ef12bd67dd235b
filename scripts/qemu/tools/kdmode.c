// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: prints a console's mode as the kernel keeps it
 * (KDGETMODE): "text" or "graphics". Built static by run.py into every run's
 * /scenario, run in the guest: tiltmaze must switch the console to graphics
 * while it draws on the framebuffer, and back to text when it ends.
 * Usage: kdmode /dev/tty1          prints the mode
 *        kdmode /dev/tty1 text     first puts the console in text mode
 *                                  (KDSETMODE), as guest/init does between
 *                                  scenarios when one left it in graphics */
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/dev/tty1";
    int fd = open(path, O_RDONLY | O_NOCTTY);
    if (fd < 0) { perror(path); return 2; }
    if (argc > 2) {
        if (strcmp(argv[2], "text") != 0) { fprintf(stderr, "usage: kdmode TTY [text]\n"); return 2; }
        if (ioctl(fd, KDSETMODE, KD_TEXT) < 0) { perror("KDSETMODE"); return 2; }
    }
    int mode = -1;
    if (ioctl(fd, KDGETMODE, &mode) < 0) { perror("KDGETMODE"); return 2; }
    puts(mode == KD_GRAPHICS ? "graphics" : mode == KD_TEXT ? "text" : "other");
    close(fd);
    return 0;
}
