// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#ifndef TILTMAZE_CSYSTEMCALLS_H
#define TILTMAZE_CSYSTEMCALLS_H
/* Linux calls Glibc's Swift module does not export (they need _GNU_SOURCE or
 * <sys/prctl.h>). One wrapper each, nothing else. */

/* pthread_setname_np(pthread_self(), name); returns 0 or an errno value. */
int csc_set_thread_name(const char *name);

/* prctl(PR_SET_TIMERSLACK, ns); returns 0 or -1 with errno set. */
int csc_set_timer_slack(unsigned long nanoseconds);

/* ppoll(fds, count, timeout) with the timeout in nanoseconds (negative:
 * none); returns as ppoll does, -1 with errno set on failure. poll's
 * milliseconds would make a wait to a frame's deadline end early and need
 * a second sleep: two wake-ups a frame instead of one. */
#include <poll.h>
#include <stdint.h>
int csc_poll_nanoseconds(struct pollfd *fds, nfds_t count, int64_t timeout_ns);

/* A doorbell: a consumer sleeps until a producer rings, without either
 * taking a lock, and a ring costs a system call only while someone sleeps.
 * `rings` counts rings (the futex word); `sleepers` counts threads that may
 * be in futex_wait. Both are C11 atomics: Swift's Synchronization.Atomic
 * has no address to give the kernel. */
#include <stdint.h>
struct csc_doorbell {
    _Atomic uint32_t rings;
    _Atomic uint32_t sleepers;
};

/* Counts a ring and wakes every sleeper, if any. */
void csc_doorbell_ring(struct csc_doorbell *bell);

/* The ring count now; pass it to csc_doorbell_wait after finding nothing to do. */
uint32_t csc_doorbell_rings(struct csc_doorbell *bell);

/* Sleeps until the ring count differs from `seen` or `timeout_ns` passed
 * (relative). Returns at once when it already differs. */
void csc_doorbell_wait(struct csc_doorbell *bell, uint32_t seen, int64_t timeout_ns);

/* i2c-dev: the I2C_SLAVE, I2C_FUNCS and I2C_SMBUS requests, struct
 * i2c_smbus_ioctl_data and union i2c_smbus_data, which Glibc's module does
 * not export. */
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#endif
