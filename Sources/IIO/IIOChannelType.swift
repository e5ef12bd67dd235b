// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO

/// What a channel measures, by the kernel's sysfs name for it (the `accel`
/// of `in_accel_x_raw`). Types this libiio does not know are `.other` with
/// the name taken from the channel id.
public enum IIOChannelType: Hashable, Sendable, CustomStringConvertible {
    case voltage, current, power, accel, anglvel, magn, light, intensity, proximity, temp
    case incli, rot, angl, timestamp, capacitance, altvoltage, cct, pressure, humidityrelative
    case activity, steps, energy, distance, velocity, concentration, resistance, ph, uvindex
    case electricalconductivity, count, index, gravity, positionrelative, phase, massconcentration
    case other(String)

    /// libiio's `enum iio_chan_type` order (0.24), which follows the kernel's.
    static let libiioOrder: [IIOChannelType] = [
        .voltage, .current, .power, .accel, .anglvel, .magn, .light, .intensity, .proximity, .temp,
        .incli, .rot, .angl, .timestamp, .capacitance, .altvoltage, .cct, .pressure, .humidityrelative,
        .activity, .steps, .energy, .distance, .velocity, .concentration, .resistance, .ph, .uvindex,
        .electricalconductivity, .count, .index, .gravity, .positionrelative, .phase, .massconcentration,
    ]

    /// From libiio's `iio_chan_type`; `idPrefix` names an unknown type.
    init(_ type: iio_chan_type, idPrefix: String) {
        let i = Int(type.rawValue)
        self = i < Self.libiioOrder.count ? Self.libiioOrder[i] : .other(idPrefix)
    }

    /// The kernel's names, in `libiioOrder`.
    static let kernelNames = [
        "voltage", "current", "power", "accel", "anglvel", "magn", "illuminance", "intensity", "proximity", "temp",
        "incli", "rot", "angl", "timestamp", "capacitance", "altvoltage", "cct", "pressure", "humidityrelative",
        "activity", "steps", "energy", "distance", "velocity", "concentration", "resistance", "ph", "uvindex",
        "electricalconductivity", "count", "index", "gravity", "positionrelative", "phase", "massconcentration",
    ]

    /// The kernel's name: "accel", "anglvel", "illuminance" for `.light`, …
    public var description: String {
        if case .other(let name) = self { return name }
        return Self.libiioOrder.firstIndex(of: self).map { Self.kernelNames[$0] } ?? ""
    }
}

/// The channel modifier: for motion sensors the axis (`x` of `accel_x`).
public enum IIOChannelModifier: Hashable, Sendable, CustomStringConvertible {
    case x, y, z
    /// Any other kernel modifier by its sysfs name ("quaternion", "ir", "x&y", …).
    case other(String)

    /// The kernel's `iio_modifier_names`, in libiio 0.24's `enum iio_modifier`
    /// order starting at `IIO_MOD_X` (1).
    static let libiioNames = [
        "x", "y", "z", "x&y", "x&z", "y&z", "x&y&z", "x|y", "x|z", "y|z", "x|y|z", "both", "ir",
        "sqrt(x^2+y^2)", "x^2+y^2+z^2", "clear", "red", "green", "blue", "quaternion", "ambient",
        "object", "from_north_magnetic", "from_north_true", "from_north_magnetic_tilt_comp",
        "from_north_true_tilt_comp", "running", "jogging", "walking", "still", "sqrt(x^2+y^2+z^2)",
        "i", "q", "co2", "voc", "uv", "duv", "pm1", "pm2p5", "pm4", "pm10", "ethanol", "h2", "o2",
    ]

    /// From libiio's `iio_modifier`; nil for `IIO_NO_MOD`.
    init?(_ modifier: iio_modifier) {
        let i = Int(modifier.rawValue)
        guard i > 0 else { return nil }
        switch i {
        case 1: self = .x
        case 2: self = .y
        case 3: self = .z
        default: self = .other(i - 1 < Self.libiioNames.count ? Self.libiioNames[i - 1] : "modifier\(i)")
        }
    }

    public var description: String {
        switch self {
        case .x: "x"
        case .y: "y"
        case .z: "z"
        case .other(let name): name
        }
    }
}
