// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// Where to look for the sensors there are, in an error that may reach the
/// user of any program built on LinuxMotion, who may not have TiltMaze:
/// what the kernel shows first, the TiltMaze command only if it is there.
enum SensorListingHint {
    static let iio = "the kernel lists its IIO devices in /sys/bus/iio/devices; if TiltMaze is installed, `tiltmaze devices` lists the sensors found"
    static let evdev = "the kernel lists its input devices in /proc/bus/input/devices; if TiltMaze is installed, `tiltmaze devices` lists the motion sensors found"
    static let i2c = "if TiltMaze is installed, `tiltmaze devices` lists what answers on each bus"
}
