// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* What the qemu tier's uhid test devices (dualsense, joycon, sensorhub)
 * share: the /dev/uhid descriptor and sending events to it, little-endian
 * report fields, commands read one per line from standard input (a FIFO in
 * the scenarios) and split into words, and the loop of a tool that waits on
 * nothing else (sensorhub has its own: it also keeps time and signals).
 * Header-only: every tool is one static binary built from one .c file
 * (`cc -I scripts/qemu/tools`). */
#ifndef TILTMAZE_UHID_TOOL_H
#define TILTMAZE_UHID_TOOL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int uhid_fd = -1;
/* The tool's name, for its error messages. */
static const char *uhid_tool = "uhid-tool";

static inline void uhid_open(const char *tool) {
    uhid_tool = tool;
    uhid_fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (uhid_fd < 0) { fprintf(stderr, "%s: ", tool); perror("/dev/uhid"); exit(2); }
}

/* A write that does not take the whole event means the device is gone. */
static inline void uhid_send(const struct uhid_event *e) {
    if (write(uhid_fd, e, sizeof *e) != (ssize_t)sizeof *e) {
        fprintf(stderr, "%s: ", uhid_tool);
        perror("write /dev/uhid");
        exit(1);
    }
}

/* Creates the device (UHID_CREATE2). `phys` and `uniq` may be NULL. */
static inline void uhid_create(const char *name, const char *phys, const char *uniq, uint16_t bus, uint32_t vendor,
                        uint32_t product, uint32_t version, const uint8_t *descriptor, size_t descriptor_size) {
    struct uhid_event e;
    memset(&e, 0, sizeof e);
    e.type = UHID_CREATE2;
    snprintf((char *)e.u.create2.name, sizeof e.u.create2.name, "%s", name);
    if (phys) snprintf((char *)e.u.create2.phys, sizeof e.u.create2.phys, "%s", phys);
    if (uniq) snprintf((char *)e.u.create2.uniq, sizeof e.u.create2.uniq, "%s", uniq);
    memcpy(e.u.create2.rd_data, descriptor, descriptor_size);
    e.u.create2.rd_size = (uint16_t)descriptor_size;
    e.u.create2.bus = bus;
    e.u.create2.vendor = vendor;
    e.u.create2.product = product;
    e.u.create2.version = version;
    uhid_send(&e);
}

/* Destroying the device is the unplug the scenarios test. */
static inline void uhid_destroy(void) {
    struct uhid_event e;
    memset(&e, 0, sizeof e);
    e.type = UHID_DESTROY;
    uhid_send(&e);
}

static inline void put16(uint8_t *p, int v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put32(uint8_t *p, uint32_t v) { put16(p, (int)(v & 0xFFFF)); put16(p + 2, (int)(v >> 16)); }

/* Splits `line` in place into at most `max` words; returns how many. */
static inline int split_words(char *line, char **words, int max) {
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w && n < max; w = strtok(NULL, " \t\r\n")) words[n++] = w;
    return n;
}

/* What has arrived on standard input and is not yet a whole line. */
struct command_input {
    char line[512];
    size_t used;
};

/* Reads what standard input has (call when poll says it is readable) and
 * hands each whole line to `command`, which returns 0 to stop. Returns 0
 * when a command asked to stop or the input ended (the FIFO's writers are
 * gone): either way the tool should unplug. */
static inline int feed_commands(struct command_input *in, int (*command)(char *line)) {
    ssize_t n = read(0, in->line + in->used, sizeof in->line - 1 - in->used);
    if (n <= 0) return 0;
    in->used += (size_t)n;
    in->line[in->used] = 0;
    char *end;
    while ((end = strchr(in->line, '\n'))) {
        *end = 0;
        size_t taken = (size_t)(end + 1 - in->line);
        int go_on = command(in->line);
        memmove(in->line, in->line + taken, in->used - taken + 1);
        in->used -= taken;
        if (!go_on) return 0;
    }
    if (in->used == sizeof in->line - 1) in->used = 0;   /* a line too long to be a command */
    return 1;
}

/* The loop of a device that answers the driver and takes commands, and
 * nothing else: serves the driver's events (`serve`, when /dev/uhid is
 * readable) and feeds standard input's lines to `command` until a command
 * says stop or the input ends, then unplugs. Returns the exit status. */
static inline int uhid_run(void (*serve)(void), int (*command)(char *line)) {
    struct command_input input = { .used = 0 };
    for (;;) {
        struct pollfd fds[2] = { { uhid_fd, POLLIN, 0 }, { 0, POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "%s: ", uhid_tool);
            perror("poll");
            return 1;
        }
        if (fds[0].revents & POLLIN) serve();
        if ((fds[1].revents & (POLLIN | POLLHUP)) && !feed_commands(&input, command)) break;
    }
    uhid_destroy();
    return 0;
}

#endif
