// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import IIO

/// Turns one raw IIO scan into a `MotionSample` in SI units and the board's
/// frame: raw integer (byte order, shift, sign: `IIOScanLayout`), plus the
/// channel's offset, times its scale (libiio applies neither), then the mount
/// matrix. IIO's ABI puts accelerations in m/s², angular rates in rad/s
/// and magnetic fields in gauss (µT here: `IIOMagnetometer`) after scaling,
/// and timestamps in nanoseconds.
///
/// Built once per capture; `sample(from:)` allocates nothing.
public struct IIOScanConverter: Sendable {
    /// One vector's three elements in the layout, with their calibration.
    public struct Axes: Sendable, Equatable {
        public var elements: (Int, Int, Int)
        public var scale: Vector3
        public var offset: Vector3
        public init(elements: (Int, Int, Int), scale: Vector3, offset: Vector3) {
            self.elements = elements; self.scale = scale; self.offset = offset
        }
        public static func == (a: Axes, b: Axes) -> Bool {
            a.elements == b.elements && a.scale == b.scale && a.offset == b.offset
        }
    }

    public let layout: IIOScanLayout
    public let accel: Axes?
    public let gyro: Axes?
    /// The magnetometer's axes, their scale in µT per count.
    public let magn: Axes?
    /// The layout element holding the timestamp, if enabled.
    public let timestamp: Int?
    public let mount: MountMatrix
    /// The magnetometer's own (`IIOMagnetometer.mount`).
    public let magnMount: MountMatrix
    /// The accelerometer's bias and scale, in the chip's axes (before `mount`).
    public let accelerometer: AccelerometerCalibration

    public init(layout: IIOScanLayout, accel: Axes?, gyro: Axes?, magn: Axes? = nil, timestamp: Int?,
                mount: MountMatrix, magnMount: MountMatrix? = nil, accelerometer: AccelerometerCalibration = .none) {
        self.accelerometer = accelerometer
        self.layout = layout
        self.accel = accel
        self.gyro = gyro
        self.magn = magn
        self.timestamp = timestamp
        self.mount = mount
        self.magnMount = magnMount ?? mount
    }

    /// Reads scale and offset for the enabled `accel_*` (or, for the chip's
    /// fusion, `gravity_*`), `anglvel_*` and `magn_*` channels of `device`.
    public init(device: IIODevice, layout: IIOScanLayout, mount: MountMatrix,
                acceleration: IIOAccelerationChannels = .accelerometer,
                accelerometer: AccelerometerCalibration = .none) throws(IIOError) {
        /// `perCount` turns a channel's IIO scale into the unit its vector is kept in.
        func axes(_ type: String, perCount: (Double) -> Double = { $0 }) throws(IIOError) -> Axes? {
            var found: [(Int, Double, Double)] = []
            for axis in ["x", "y", "z"] {
                let id = "\(type)_\(axis)"
                guard let element = layout.elementIndex(of: id), let channel = device.channel(id: id) else { return nil }
                let scale = channel.attributeNames.contains("scale") ? try channel.readAttribute("scale", as: Double.self) : 1
                let offset = channel.attributeNames.contains("offset") ? try channel.readAttribute("offset", as: Double.self) : 0
                found.append((element, perCount(scale), offset))
            }
            return Axes(elements: (found[0].0, found[1].0, found[2].0),
                        scale: Vector3(found[0].1, found[1].1, found[2].1),
                        offset: Vector3(found[0].2, found[1].2, found[2].2))
        }
        let name = device.name
        let magn = try axes("magn") { IIOMagnetometer.microteslaPerCount(deviceName: name, scale: $0) }
        self.init(layout: layout, accel: try axes(acceleration.rawValue), gyro: try axes("anglvel"), magn: magn,
                  timestamp: layout.elementIndex(of: "timestamp"), mount: mount,
                  magnMount: magn == nil ? mount : IIOMagnetometer.mount(of: device, accelMount: mount),
                  accelerometer: acceleration == .accelerometer ? accelerometer : .none)
    }

    /// The sample one scan holds. `fallbackTime` stamps scans without a timestamp element.
    @inlinable
    public func sample(from scan: UnsafeRawBufferPointer, fallbackTime: Int64) -> MotionSample {
        var s = MotionSample(timestamp: fallbackTime, fields: [])
        if let t = timestamp { s.timestamp = layout.rawValue(of: t, in: scan) }
        if let a = accel {
            s.acceleration = mount.apply(accelerometer.apply(convert(a, scan)))
            s.fields.insert(.acceleration)
        }
        if let g = gyro {
            s.rotationRate = mount.apply(convert(g, scan))
            s.fields.insert(.rotationRate)
        }
        if let m = magn {
            s.magneticField = magnMount.apply(convert(m, scan))
            s.fields.insert(.magneticField)
        }
        return s
    }

    @inlinable
    func convert(_ axes: Axes, _ scan: UnsafeRawBufferPointer) -> Vector3 {
        Vector3((Double(layout.rawValue(of: axes.elements.0, in: scan)) + axes.offset.x) * axes.scale.x,
                (Double(layout.rawValue(of: axes.elements.1, in: scan)) + axes.offset.y) * axes.scale.y,
                (Double(layout.rawValue(of: axes.elements.2, in: scan)) + axes.offset.z) * axes.scale.z)
    }
}
