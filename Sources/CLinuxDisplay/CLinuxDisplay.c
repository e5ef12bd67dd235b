// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/* The console guard: a child process that puts a virtual console back in text
 * mode with automatic switching if its parent dies without doing so (SIGKILL,
 * the OOM killer), which no signal handler can catch.
 *
 * It is written in C because the child of a multithreaded process may only
 * make async-signal-safe calls between fork and _exit: close, read, ioctl,
 * open. (The console's path is worked out before the fork.) */
#define _GNU_SOURCE /* pipe2 */
#include "CLinuxDisplay.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* close_range(2) where the kernel has it (5.9 and later), else one close per
 * possible descriptor (slow under emulation, but only on old kernels). */
static void close_between(unsigned first, unsigned last) {
    if (first > last) return;
    if (syscall(SYS_close_range, first, last, 0) == 0) return;
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (long fd = first; fd < max && fd <= (long)last; fd++) close((int)fd);
}

static void close_all_but(int keep_a, int keep_b) {
    unsigned low = (unsigned)(keep_a < keep_b ? keep_a : keep_b);
    unsigned high = (unsigned)(keep_a < keep_b ? keep_b : keep_a);
    if (low > 0) close_between(0, low - 1);
    close_between(low + 1, high - 1);
    close_between(high + 1, ~0U);
}

/* Puts the modes back on `console`, or on a fresh open of the console it is
 * (/dev/ttyN, named before the fork) when the terminal was hung up: when the
 * game was its session's leader (as under a systemd unit with TTYPath=), its
 * exit hangs the terminal up right after closing its files, and every ioctl
 * on a descriptor opened before then fails with EIO. */
static void restore_modes(int console, const char *path, int kd_mode, struct vt_mode *saved) {
    if (ioctl(console, KDSETMODE, kd_mode) != 0 && path[0] != 0) {
        int fresh = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fresh < 0) return;
        console = fresh;
        ioctl(console, KDSETMODE, kd_mode);
    }
    ioctl(console, VT_SETMODE, saved);
}

/* "/dev/ttyN" for a virtual console's descriptor (major 4, minors 1 to 63),
 * else "". */
static void console_path(int console, char *path, size_t size) {
    struct stat st;
    path[0] = 0;
    if (fstat(console, &st) != 0 || !S_ISCHR(st.st_mode)) return;
    if (major(st.st_rdev) != 4 || minor(st.st_rdev) < 1 || minor(st.st_rdev) > 63) return;
    snprintf(path, size, "/dev/tty%u", minor(st.st_rdev));
}

int cld_console_guard(int console, int kd_mode, const struct vt_mode *vt) {
    struct vt_mode saved = *vt;
    char path[32];
    console_path(console, path, sizeof path);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        /* Nothing of the parent's stays open here (a DRM card held open would
         * stop the kernel giving the display back), and no signal meant for
         * the game's process group ends the guard first. */
        close_all_but(console, fds[0]);
        sigset_t all;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, 0);
        char byte;
        ssize_t n;
        do { n = read(fds[0], &byte, 1); } while (n < 0 && errno == EINTR);
        if (n == 0) {
            /* End of file: the parent is gone without dismissing the guard. */
            restore_modes(console, path, kd_mode, &saved);
        }
        _exit(0);
    }
    close(fds[0]);
    return fds[1];
}
