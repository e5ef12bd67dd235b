// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#define _GNU_SOURCE
#include <pthread.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "CSystemCalls.h"

int csc_set_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int csc_poll_nanoseconds(struct pollfd *fds, nfds_t count, int64_t timeout_ns) {
    if (timeout_ns < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000 };
    return ppoll(fds, count, &timeout, NULL);
}

int csc_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

/* Why no wake-up is lost: every access is sequentially consistent, so in
 * their one total order either the waiter's load of `rings` comes after the
 * ringer's increment (it sees the change and does not sleep), or the
 * ringer's load of `sleepers` comes after the waiter's increment (it wakes
 * the futex). A wake that arrives before futex_wait finds `rings` no longer
 * `seen`, and the kernel returns at once. */
void csc_doorbell_ring(struct csc_doorbell *bell) {
    atomic_fetch_add(&bell->rings, 1);
    if (atomic_load(&bell->sleepers) != 0)
        syscall(SYS_futex, &bell->rings, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

uint32_t csc_doorbell_rings(struct csc_doorbell *bell) {
    return atomic_load(&bell->rings);
}

void csc_doorbell_wait(struct csc_doorbell *bell, uint32_t seen, int64_t timeout_ns) {
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000 };
    atomic_fetch_add(&bell->sleepers, 1);
    if (atomic_load(&bell->rings) == seen)
        syscall(SYS_futex, &bell->rings, FUTEX_WAIT_PRIVATE, seen, &timeout, NULL, 0);
    atomic_fetch_sub(&bell->sleepers, 1);
}
