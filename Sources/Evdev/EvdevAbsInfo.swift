// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// One absolute axis' `struct input_absinfo` (`EVIOCGABS`).
///
/// For a motion sensor (`INPUT_PROP_ACCELEROMETER`) `resolution` is units
/// per g on ABS_X/Y/Z and units per degree per second on ABS_RX/RY/RZ; 0
/// means the driver did not say.
public struct EvdevAbsInfo: Sendable, Hashable, CustomStringConvertible {
    /// The latest value libevdev has seen (from the kernel at open, then from events).
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    /// Noise the kernel filters out: changes smaller than about this are dropped.
    public var fuzz: Int32
    /// Values within ±flat of the centre are reported as the centre (joysticks).
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// "value 0 min -32768 max 32768 fuzz 16 flat 0 resolution 8192", as evtest prints it.
    public var description: String {
        "value \(value) min \(minimum) max \(maximum) fuzz \(fuzz) flat \(flat) resolution \(resolution)"
    }
}
