// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev

/// An input property (`INPUT_PROP_*`, `EVIOCGPROP`): what kind of device a
/// node is, beyond its event codes.
public struct EvdevProperty: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let pointer = EvdevProperty(rawValue: UInt32(INPUT_PROP_POINTER))
    public static let direct = EvdevProperty(rawValue: UInt32(INPUT_PROP_DIRECT))
    public static let buttonpad = EvdevProperty(rawValue: UInt32(INPUT_PROP_BUTTONPAD))
    /// A motion sensor: ABS_X/Y/Z are acceleration, ABS_RX/RY/RZ angular velocity.
    public static let accelerometer = EvdevProperty(rawValue: UInt32(INPUT_PROP_ACCELEROMETER))
}
