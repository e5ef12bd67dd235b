// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// Makes pread(2) of chosen files fail, as a sysfs attribute of a chip on a
// glitching bus fails: see ReadFaults.c.
#pragma once

/// From now on, `pread` of a file whose path ends with `suffix` fails with
/// `error`: the next `next` such reads, then every `every`-th one (0: none).
void read_faults_arm(const char *suffix, int error, int next, int every);
/// Every read succeeds again.
void read_faults_disarm(void);
/// Reads made to fail since the last arm.
int read_faults_injected(void);

/// From now on, the next `next` calls of `libevdev_next_event` fail with
/// `-error`, as a read of a controller on a flaky link fails.
void evdev_faults_arm(int error, int next);
/// Reads made to fail since the last arm.
int evdev_faults_injected(void);
/// The errno armed (set by evdev_faults_arm).
extern int evdev_fault_errno;
