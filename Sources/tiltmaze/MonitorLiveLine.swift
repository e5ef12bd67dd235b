// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import MotionCore
import MotionDevices

/// `monitor`'s live line without --json: the newest sample's figures, made
/// to fit the terminal's width (read at each refresh, so a resized window
/// is followed), so that `\r` redraws it in place instead of a wrapped line
/// adding one more each time. Narrower, the labels and units shorten, then
/// the figures that matter least are left out: the CPU time, the bus
/// figures, the rejected and dropped counts, the magnetic field, the rate,
/// the rotation rate; the acceleration stays.
struct MonitorLiveLine {
    var sample: MotionSample
    var field: Vector3?
    /// Shown when the attitude is referred to magnetic north: the heading, or nil before north is found.
    var heading: Double??
    var rate: Double?
    var dropped: Int
    var rejected: Int
    var readFailures: (retried: Int, lost: Int)
    /// i2c-dev's: the samples that went unread and the SMBus transfers per sample.
    var bus: (missed: Int, transfersPerSample: Double)?
    /// µs of CPU per sample since the first, once there are two.
    var cpuPerSample: Double?

    /// The line as wide as it comes (when the output is not a terminal), or fitted to `width` columns.
    func text(width: Int?) -> String {
        let fields = fields()
        guard let width else { return fields.map { $0.forms[0] }.joined(separator: "   ") }
        return FittedLine.fit(fields, width: width)
    }

    /// The terminal's width on standard output now, nil when it is not a terminal (or has none).
    static func terminalWidth() -> Int? {
        TerminalCalls.windowSize(1)?.columns
    }

    func fields() -> [FittedLine.Field] {
        var fields = [
            FittedLine.Field(priority: 0, "accel \(MotionSampleText.fixed(sample.acceleration)) m/s²",
                             "accel\(Self.compact(sample.acceleration, decimals: 3)) m/s²",
                             "accel\(Self.compact(sample.acceleration, decimals: 3))",
                             "accel\(Self.compact(sample.acceleration, decimals: 2))"),
            sample.hasRotationRate
                ? FittedLine.Field(priority: 1, "gyro \(MotionSampleText.fixed(sample.rotationRate)) rad/s",
                                   "gyro\(Self.compact(sample.rotationRate, decimals: 3)) rad/s",
                                   "gyro\(Self.compact(sample.rotationRate, decimals: 3))",
                                   "gyro\(Self.compact(sample.rotationRate, decimals: 2))")
                : FittedLine.Field(priority: 1, "gyro    (none) rad/s", "gyro (none)", "no gyro"),
        ]
        if let field {
            fields.append(FittedLine.Field(priority: 3, "magn \(MotionSampleText.fixed(field, decimals: 1)) µT",
                                           "magn\(Self.compact(field, decimals: 1)) µT",
                                           "magn\(Self.compact(field, decimals: 1))",
                                           "magn\(Self.compact(field, decimals: 0))"))
        }
        if let heading {
            let degrees = heading.map { MotionSampleText.rightAligned(MotionSampleText.decimal($0), width: 5) + "°" }
            fields.append(FittedLine.Field(priority: 2, "heading \(degrees ?? "(no north)")",
                                           "hdg \(degrees ?? "(no north)")", "hdg \(degrees ?? "?")"))
        }
        if let rate {
            let hertz = MotionSampleText.decimal(rate)
            fields.append(FittedLine.Field(priority: 2, "rate \(MotionSampleText.rightAligned(hertz, width: 7)) Hz",
                                           "\(MotionSampleText.rightAligned(hertz, width: 5)) Hz"))
        } else {
            fields.append(FittedLine.Field(priority: 2, "rate  (measuring)", "rate ?"))
        }
        fields.append(FittedLine.Field(priority: 4, "dropped \(dropped)", "drop \(dropped)"))
        fields.append(FittedLine.Field(priority: 5, "rejected \(rejected)", "rej \(rejected)"))
        if readFailures.retried != 0 || readFailures.lost != 0 {
            fields.append(FittedLine.Field(priority: 3, "retried \(readFailures.retried)   lost \(readFailures.lost)",
                                           "retried \(readFailures.retried) lost \(readFailures.lost)"))
        }
        if let bus {
            fields.append(FittedLine.Field(priority: 6, "missed \(bus.missed)   transfers/sample \(MotionSampleText.decimal(bus.transfersPerSample))",
                                           "missed \(bus.missed) xfer/s \(MotionSampleText.decimal(bus.transfersPerSample))"))
        }
        if let cpuPerSample {
            fields.append(FittedLine.Field(priority: 7, "cpu \(MotionSampleText.decimal(cpuPerSample)) µs/sample",
                                           "cpu \(MotionSampleText.rightAligned(MotionSampleText.decimal(cpuPerSample, digits: 0), width: 3))µs"))
        }
        return fields
    }

    /// `v`'s components each right-aligned in a narrow column (sign, digits): " +0.000 +0.000 +9.807".
    static func compact(_ v: Vector3, decimals: Int) -> String {
        [v.x, v.y, v.z].map { value in
            let text = MotionSampleText.decimal(value, digits: decimals)
            return " " + MotionSampleText.rightAligned(text.hasPrefix("-") ? text : "+" + text, width: decimals + 3)
        }.joined()
    }
}
