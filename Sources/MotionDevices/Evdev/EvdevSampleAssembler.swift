// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
/// Builds `MotionSample`s from an evdev motion node's events, one per
/// `SYN_REPORT`, in SI units.
///
/// Evdev reports only the axes that changed, so the assembler keeps the last
/// value of each. Units (kernel input ABI for `INPUT_PROP_ACCELEROMETER`):
/// ABS_X/Y/Z resolution is units per g, ABS_RX/RY/RZ units per degree per
/// second. An accelerometer whose resolution is 0 (units not given) is scaled
/// by gravity itself: see `GravityScaleEstimator`. A gyroscope with resolution
/// 0 cannot be scaled by anything the device says, and is left out.
public struct EvdevSampleAssembler: Sendable {
    /// Event codes from <linux/input-event-codes.h>.
    public enum Code {
        public static let synReport: UInt16 = 0
        public static let absX: UInt16 = 0x00, absY: UInt16 = 0x01, absZ: UInt16 = 0x02
        public static let absRX: UInt16 = 0x03, absRY: UInt16 = 0x04, absRZ: UInt16 = 0x05
        public static let mscTimestamp: UInt16 = 0x05
        public static let evSyn: UInt16 = 0x00, evAbs: UInt16 = 0x03, evMsc: UInt16 = 0x04
    }

    /// Units per g on ABS_X/Y/Z (nil: the device has no accelerometer axes; 0: unknown).
    public let accelResolution: Int32?
    /// Units per °/s on ABS_RX/RY/RZ (nil or 0: no usable gyroscope).
    public let gyroResolution: Int32?
    /// Device axes to board axes.
    public let mount: MountMatrix
    /// The accelerometer's bias and scale, in the device's axes (before `mount`).
    public let accelerometer: AccelerometerCalibration

    private var raw: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
    private var pendingTimestamp: Int32?
    private var clock = MSCTimestampClock()
    private var gravityScale = GravityScaleEstimator()
    private var changed = false
    private var lastTimestamp: Int64 = .min

    public init(accelResolution: Int32?, gyroResolution: Int32?, mount: MountMatrix = .identity,
                accelerometer: AccelerometerCalibration = .none) {
        self.accelerometer = accelerometer
        self.accelResolution = accelResolution
        self.gyroResolution = gyroResolution
        self.mount = mount
    }

    /// Starting values (from the device's absinfo), so the first sample is right
    /// even if the first report changes only some axes.
    public mutating func setInitial(code: UInt16, value: Int32) {
        set(code, value)
    }

    /// Folds in one event (kernel time `time`, monotonic ns); returns a sample at `SYN_REPORT`.
    public mutating func add(type: UInt16, code: UInt16, value: Int32, time: Int64) -> MotionSample? {
        switch type {
        case Code.evAbs:
            set(code, value)
            changed = true
        case Code.evMsc where code == Code.mscTimestamp:
            pendingTimestamp = value
        case Code.evSyn where code == Code.synReport:
            defer { pendingTimestamp = nil; changed = false }
            // A frame with MSC_TIMESTAMP and no axis is a sample too: the
            // device measured again and nothing moved by more than the
            // driver's fuzz, so the input core passed no value on (a
            // controller lying still sends little else; seen on the real
            // hid-nintendo in the qemu tier). Without a timestamp an empty
            // frame carries nothing.
            guard changed || pendingTimestamp != nil else { return nil }
            var t = pendingTimestamp.map { clock.time(raw: $0, eventTime: time) } ?? time
            // A frame without MSC_TIMESTAMP (a resync after SYN_DROPPED) falls
            // back to the kernel's time, which can lie a little behind the
            // device-clock times before it: time must still only go forward.
            t = max(t, lastTimestamp)
            lastTimestamp = t
            return makeSample(timestamp: t)
        default:
            break
        }
        return nil
    }

    /// After `SYN_DROPPED`: the next report may follow a gap; keep the axis values
    /// (libevdev resyncs them) but forget the half-built report.
    public mutating func dropped() {
        pendingTimestamp = nil
        changed = false
    }

    private mutating func set(_ code: UInt16, _ value: Int32) {
        switch code {
        case Code.absX: raw.0 = value
        case Code.absY: raw.1 = value
        case Code.absZ: raw.2 = value
        case Code.absRX: raw.3 = value
        case Code.absRY: raw.4 = value
        case Code.absRZ: raw.5 = value
        default: break
        }
    }

    private mutating func makeSample(timestamp: Int64) -> MotionSample? {
        var sample = MotionSample(timestamp: timestamp, fields: [])
        if let resolution = accelResolution {
            let counts = Vector3(Double(raw.0), Double(raw.1), Double(raw.2))
            let unitsPerG: Double?
            if resolution > 0 {
                unitsPerG = Double(resolution)
            } else {
                unitsPerG = gravityScale.add(counts)
            }
            if let unitsPerG {
                sample.acceleration = mount.apply(accelerometer.apply(counts * (standardGravity / unitsPerG)))
                sample.fields.insert(.acceleration)
            }
        }
        if let resolution = gyroResolution, resolution > 0 {
            let degreesPerSecond = Vector3(Double(raw.3), Double(raw.4), Double(raw.5)) / Double(resolution)
            sample.rotationRate = mount.apply(degreesPerSecond * (.pi / 180))
            sample.fields.insert(.rotationRate)
        }
        return sample.fields.isEmpty ? nil : sample
    }
}

/// Finds an accelerometer's units per g from gravity, for devices that do not
/// say (absinfo resolution 0): while the device is held still, the reading's
/// length is 1 g. Needs `window` readings in a row whose lengths stay within
/// `tolerance` of their mean; until then it answers nil (no samples), after
/// that the scale is fixed.
public struct GravityScaleEstimator: Sendable {
    public var window = 50
    public var tolerance = 0.03
    private var lengths: [Double] = []
    public private(set) var unitsPerG: Double?

    public init() {
        lengths.reserveCapacity(window + 1)
    }

    /// Adds a reading in device units; returns the scale once known.
    public mutating func add(_ counts: Vector3) -> Double? {
        if let unitsPerG { return unitsPerG }
        let length = counts.length
        guard length > 0 else { lengths.removeAll(keepingCapacity: true); return nil }
        lengths.append(length)
        if lengths.count > window { lengths.removeFirst(lengths.count - window) }
        guard lengths.count == window else { return nil }
        let mean = lengths.reduce(0, +) / Double(window)
        if lengths.allSatisfy({ abs($0 - mean) <= tolerance * mean }) {
            unitsPerG = mean
        }
        return unitsPerG
    }
}
