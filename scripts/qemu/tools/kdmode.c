// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: prints a console's mode as the kernel keeps it
 * (KDGETMODE): "text" or "graphics". Built static by host-prepare, run in the
 * guest: tiltmaze must switch the console to graphics while it draws on the
 * framebuffer, and back to text when it ends. Usage: kdmode /dev/tty1 */
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/dev/tty1";
    int fd = open(path, O_RDONLY | O_NOCTTY);
    if (fd < 0) { perror(path); return 2; }
    int mode = -1;
    if (ioctl(fd, KDGETMODE, &mode) < 0) { perror("KDGETMODE"); return 2; }
    puts(mode == KD_GRAPHICS ? "graphics" : mode == KD_TEXT ? "text" : "other");
    close(fd);
    return 0;
}
