// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO

/// Where an IIO IMU's tilt comes from: its accelerometer, which TiltMaze
/// fuses with the gyroscope itself, or, on a chip that fuses on its own (a
/// BNO055 in fusion mode), the chip's estimate of gravity.
public enum IIOAccelerationChannels: String, Sendable, CaseIterable {
    /// `in_accel_x/y/z`: the specific force, pushes and shakes included.
    case accelerometer = "accel"
    /// `in_gravity_x/y/z`: the chip's own fusion of its three sensors into
    /// the gravity it feels, in m/s² with the accelerometer's sign (+9.81
    /// on z lying flat) and none of the pushes, so no shake is seen in it.
    case chipGravity = "gravity"

    /// The channel ids of the three axes.
    public var channelIDs: [String] { ["x", "y", "z"].map { "\(rawValue)_\($0)" } }
}

extension IIODevice {
    /// What the device makes of its own fusion (a BNO055: gravity, and an
    /// orientation where its driver gives `rot_` channels), and whether it
    /// is running: `fusion_enable` reads 1, or the driver has no such
    /// switch. Nil for a device without gravity channels.
    public var chipFusion: (outputs: [String], isOn: Bool)? {
        guard let gravity = channel(id: "gravity_x"), !gravity.isOutput else { return nil }
        let outputs = ["gravity"] + (channels.contains { $0.id.hasPrefix("rot_") } ? ["orientation"] : [])
        let isOn = !attributeNames.contains("fusion_enable")
            || (try? readAttribute("fusion_enable", as: Int.self)).map { $0 != 0 } == true
        return (outputs, isOn)
    }
}

extension IIOIMU {
    /// Whether one of its devices fuses on its own.
    public var offersChipFusion: Bool { devices.contains { $0.chipFusion != nil } }

    /// Why `--chip-fusion` cannot be had from this IMU, or nil when it can.
    public var chipFusionRefusal: String? {
        guard let device = devices.first(where: { $0.chipFusion != nil }), let fusion = device.chipFusion else {
            return "\(placeDescription) has no fusion of its own (a BNO055 has): without --chip-fusion TiltMaze fuses its readings itself"
        }
        guard fusion.isOn else {
            return "\(placeDescription): the chip's fusion is off (fusion_enable is 0), so its gravity cannot be read; turn it on (echo 1 | sudo tee \(device.sysfsPath)/fusion_enable) or play without --chip-fusion"
        }
        return nil
    }
}
