// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
//
// A fault injector for evdev reads. A mock controller's node (umockdev's)
// never fails a read, while a real one on a flaky USB or Bluetooth link can
// (EIO). The test binary links this file, so its libevdev_next_event is the
// one the Evdev module calls; it passes each call on to libevdev's own,
// unless a test armed it. Disarmed, the cost is one atomic load per call.
#define _GNU_SOURCE
#include "CReadFaults.h"
#include <dlfcn.h>
#include <stddef.h>

struct libevdev;
struct input_event;
typedef int (*next_event_function)(struct libevdev *, unsigned int, struct input_event *);

int evdev_fault_errno = 5;  // EIO, until armed
static int evdev_failures_left;
static int evdev_injected;

int libevdev_next_event(struct libevdev *dev, unsigned int flags, struct input_event *ev) {
    int left = __atomic_load_n(&evdev_failures_left, __ATOMIC_ACQUIRE);
    while (left > 0) {
        if (__atomic_compare_exchange_n(&evdev_failures_left, &left, left - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            __atomic_add_fetch(&evdev_injected, 1, __ATOMIC_ACQ_REL);
            return -evdev_fault_errno;
        }
    }
    static next_event_function next;
    next_event_function f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = (next_event_function)dlsym(RTLD_NEXT, "libevdev_next_event");
        __atomic_store_n(&next, f, __ATOMIC_RELEASE);
    }
    return f(dev, flags, ev);
}

void evdev_faults_arm(int error, int next) {
    evdev_fault_errno = error;
    __atomic_store_n(&evdev_injected, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&evdev_failures_left, next, __ATOMIC_RELEASE);
}

int evdev_faults_injected(void) { return __atomic_load_n(&evdev_injected, __ATOMIC_ACQUIRE); }
