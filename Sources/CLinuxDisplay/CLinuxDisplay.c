/* The console guard: a child process that puts a virtual console back in text
 * mode with automatic switching if its parent dies without doing so (SIGKILL,
 * the OOM killer), which no signal handler can catch.
 *
 * It is written in C because the child of a multithreaded process may only
 * make async-signal-safe calls between fork and _exit: close, read, ioctl. */
#define _GNU_SOURCE /* pipe2 */
#include "CLinuxDisplay.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
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

int cld_console_guard(int console, int kd_mode, const struct vt_mode *vt) {
    struct vt_mode saved = *vt;
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
            ioctl(console, KDSETMODE, kd_mode);
            ioctl(console, VT_SETMODE, &saved);
        }
        _exit(0);
    }
    close(fds[0]);
    return fds[1];
}
