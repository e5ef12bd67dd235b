// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Evdev
import MockDevices

/// The ioctls libevdev 1.13 makes to open a node without EV_REP or
/// multitouch, before one EVIOCGABS per axis: the mock must answer these.
let libevdevOpeningRequests = [
    "EVIOCGBIT(0, 8)", "EVIOCGNAME(255)", "EVIOCGPHYS(255)", "EVIOCGUNIQ(255)", "EVIOCGID", "EVIOCGVERSION",
    "EVIOCGPROP(8)", "EVIOCGBIT(EV_REL, 8)", "EVIOCGBIT(EV_ABS, 8)", "EVIOCGBIT(EV_LED, 8)", "EVIOCGBIT(EV_KEY, 96)",
    "EVIOCGBIT(EV_SW, 8)", "EVIOCGBIT(EV_MSC, 8)", "EVIOCGBIT(EV_FF, 16)", "EVIOCGBIT(EV_SND, 8)",
    "EVIOCGKEY(96)", "EVIOCGLED(8)", "EVIOCGSW(8)",
]

/// Event streams as drivers send them.
enum MockDeviceFrames {
    /// A hid-playstation motion frame: accel, gyro, MSC_TIMESTAMP (device µs), SYN_REPORT, all at `time`.
    static func dualSense(_ accel: (Int32, Int32, Int32), _ gyro: (Int32, Int32, Int32), device: UInt32, at time: Int64)
        -> [MockInputEvent] {
        MockInputEvent.motionFrame(accel: accel, gyro: gyro, deviceMicroseconds: device, at: time)
    }
}

/// What a reader should get for events the mock device sent: the same
/// order, types, codes, values and (µs) times.
func expected(_ events: [MockInputEvent]) -> [EvdevEvent] {
    events.map { EvdevEvent(type: EvdevEventType(rawValue: $0.type), code: $0.code, value: $0.value, time: $0.nanoseconds) }
}
