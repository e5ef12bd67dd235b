// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CReadFaults

/// Sysfs attributes that fail their reads as a chip's do on a glitching
/// bus: a test arms it for one file (by the end of its path), and the next
/// `next` reads of it fail with `errno`, then every `every`-th. The
/// umockdev testbed's attributes are plain files, which never fail.
public enum ReadFaults {
    public static func arm(pathEnding suffix: String, errno: Int32, next: Int = 0, every: Int = 0) {
        read_faults_arm(suffix, errno, Int32(next), Int32(every))
    }

    public static func disarm() { read_faults_disarm() }

    /// Reads made to fail since the last `arm`.
    public static var injected: Int { Int(read_faults_injected()) }
}

/// Evdev reads that fail as a controller's do on a flaky link: the next
/// `next` reads (`libevdev_next_event`) fail with `errno`, whatever node.
public enum EvdevFaults {
    public static func arm(errno: Int32, next: Int) { evdev_faults_arm(errno, Int32(next)) }

    /// Reads made to fail since the last `arm`.
    public static var injected: Int { Int(evdev_faults_injected()) }
}
