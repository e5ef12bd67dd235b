// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
//
// A fault injector for sysfs reads. umockdev stands plain files in for sysfs
// attributes, and a plain file never fails a read, while a real attribute
// of a chip on a glitching I²C bus gives the bus's error (EREMOTEIO, EIO…).
// The test binary links this file, so its pread is the one every module in
// the binary calls; it passes each call on to the next pread (umockdev's
// preload, else the C library's), unless a test armed it for the file read.
// Disarmed, the cost is one atomic load per call.
#define _GNU_SOURCE
#include "CReadFaults.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_function)(int, void *, size_t, off_t);

static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;
static int armed;
static char plan_suffix[256];
static int plan_error, plan_next, plan_every, plan_count, plan_injected;

static ssize_t next_pread(int fd, void *buffer, size_t count, off_t offset) {
    static pread_function next;
    pread_function f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = (pread_function)dlsym(RTLD_NEXT, "pread");
        if (f == NULL) return syscall(SYS_pread64, fd, buffer, count, offset);
        __atomic_store_n(&next, f, __ATOMIC_RELEASE);
    }
    return f(fd, buffer, count, offset);
}

// Whether this read of `fd` is one to fail, and with which errno.
static int strikes(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 0) return 0;
    path[length] = 0;
    int error = 0;
    pthread_mutex_lock(&plan_lock);
    size_t suffix_length = strlen(plan_suffix);
    if (armed && (size_t)length >= suffix_length && strcmp(path + length - suffix_length, plan_suffix) == 0) {
        if (plan_next > 0) {
            plan_next--;
            error = plan_error;
        } else if (plan_every > 0 && ++plan_count % plan_every == 0) {
            error = plan_error;
        }
        if (error) plan_injected++;
    }
    pthread_mutex_unlock(&plan_lock);
    return error;
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset) {
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE)) {
        int error = strikes(fd);
        if (error) {
            errno = error;
            return -1;
        }
    }
    return next_pread(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) {
    return pread(fd, buffer, count, offset);
}

void read_faults_arm(const char *suffix, int error, int next, int every) {
    pthread_mutex_lock(&plan_lock);
    snprintf(plan_suffix, sizeof plan_suffix, "%s", suffix);
    plan_error = error;
    plan_next = next;
    plan_every = every;
    plan_count = 0;
    plan_injected = 0;
    pthread_mutex_unlock(&plan_lock);
    __atomic_store_n(&armed, 1, __ATOMIC_RELEASE);
}

void read_faults_disarm(void) {
    __atomic_store_n(&armed, 0, __ATOMIC_RELEASE);
}

int read_faults_injected(void) {
    pthread_mutex_lock(&plan_lock);
    int injected = plan_injected;
    pthread_mutex_unlock(&plan_lock);
    return injected;
}
