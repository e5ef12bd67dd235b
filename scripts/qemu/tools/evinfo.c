// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* Test tool for the qemu tier: what an evdev node tells a reader, in the
 * plain text form the fixtures in Tests/Fixtures/kernel/ keep (so the mock
 * devices can be checked against what a real driver registered):
 *
 *   name: ...            EVIOCGNAME
 *   phys: ... / uniq: ...   "(none)" when the driver set none
 *   id: BUS VENDOR PRODUCT VERSION   (hex, EVIOCGID)
 *   properties: N ...    INPUT_PROP_* numbers set (EVIOCGPROP)
 *   type T: C ...        event codes of each type (EVIOCGBIT), types 1..0x1f
 *   abs C: min MIN max MAX fuzz F flat F resolution R   (EVIOCGABS)
 *
 * Usage: evinfo /dev/input/eventN */
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BITS_LONG (8 * sizeof(long))
#define WORDS(n) (((n) + BITS_LONG - 1) / BITS_LONG)
static int bit(const unsigned long *bits, int n) { return (bits[n / BITS_LONG] >> (n % BITS_LONG)) & 1; }

/* A driver that sets no phys or uniq leaves the ioctl failing (ENOENT),
 * which is not the same as an empty string: "(none)" says so. */
static void text(int fd, unsigned long request, const char *label) {
    char buf[256] = "";
    if (ioctl(fd, request, buf) < 0) printf("%s: (none)\n", label);
    else printf("%s: %s\n", label, buf);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: evinfo /dev/input/eventN\n"); return 2; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 1; }
    text(fd, EVIOCGNAME(255), "name");
    text(fd, EVIOCGPHYS(255), "phys");
    text(fd, EVIOCGUNIQ(255), "uniq");
    struct input_id id;
    ioctl(fd, EVIOCGID, &id);
    printf("id: %04x %04x %04x %04x\n", id.bustype, id.vendor, id.product, id.version);

    unsigned long props[WORDS(INPUT_PROP_CNT)] = { 0 };
    ioctl(fd, EVIOCGPROP(sizeof props), props);
    printf("properties:");
    for (int p = 0; p < INPUT_PROP_CNT; p++) if (bit(props, p)) printf(" %d", p);
    printf("\n");

    unsigned long types[WORDS(EV_CNT)] = { 0 };
    ioctl(fd, EVIOCGBIT(0, sizeof types), types);
    for (int t = 1; t < EV_CNT; t++) {
        if (!bit(types, t)) continue;
        unsigned long codes[WORDS(KEY_CNT)] = { 0 };
        ioctl(fd, EVIOCGBIT(t, sizeof codes), codes);
        printf("type %d:", t);
        for (int c = 0; c < KEY_CNT; c++) if (bit(codes, c)) printf(" %d", c);
        printf("\n");
        if (t != EV_ABS) continue;
        for (int c = 0; c < ABS_CNT; c++) {
            if (!bit(codes, c)) continue;
            struct input_absinfo a;
            if (ioctl(fd, EVIOCGABS(c), &a) < 0) continue;
            printf("abs %d: min %d max %d fuzz %d flat %d resolution %d\n",
                   c, a.minimum, a.maximum, a.fuzz, a.flat, a.resolution);
        }
    }
    close(fd);
    return 0;
}
