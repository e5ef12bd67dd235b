// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices
import SystemCalls

/// `doctor`'s `live` line: the sensor `play` would use, read for a moment
/// as the game reads it, so what only shows while reading shows here too: a
/// data-ready interrupt that never fires (polled instead), a bus that
/// glitches (reads retried, samples lost), a device that fails outright.
///
/// The source puts back what it changed when it stops, as it does after a game.
enum LiveCheck {
    /// How long the read may take at most, and how many samples end it sooner.
    static let longest: Duration = .seconds(3)
    static let enough = 50

    static func line(_ selection: SensorSelection, rate: Double = 100) -> DoctorLine {
        guard let choice = selection.choice else { return .warn("live", "no sensor to read") }
        let source = selection.autoSource(rate: rate).source
        let name = choice.description
        do {
            try source.start()
        } catch {
            return .fail("live", "\(name) could not start: \(error)")
        }
        let deadline = MonotonicClock.now() + longest.nanoseconds
        var count = 0
        var first: Int64?, last: Int64?
        var reader = SampleReader(source)
        reading: while count < enough {
            let stop = reader.read(until: deadline) { sample in
                count += 1
                if first == nil { first = sample.timestamp }
                last = sample.timestamp
            }
            switch stop {
            case nil, .interrupted: continue    // a controller away may come back before the deadline
            case .deadline, .failed, .ended: break reading
            }
        }
        source.stop()
        return judge(name: name, count: count, span: (first.flatMap { f in last.map { $0 - f } }) ?? 0,
                     failure: source.failure, notice: source.notice,
                     retried: source.retryCount, lost: source.failedSampleCount)
    }

    /// The line for what a read of `name` gave; `span` is from the first
    /// sample's stamp to the last's, ns.
    static func judge(name: String, count: Int, span: Int64, failure: String?, notice: String?, retried: Int, lost: Int) -> DoctorLine {
        if let failure { return .fail("live", failure) }
        guard count > 0 else {
            return .warn("live", "\(name) gave no sample in \(longest): a controller lying still may send none (move it and run doctor again); an IMU should (hardware.md, Troubleshooting)")
        }
        var text = "\(name): \(count) samples"
        if count > 1, span > 0 { text += ", about \(Int((Double(count - 1) * 1e9 / Double(span)).rounded())) Hz" }
        var concerns: [String] = []
        if let notice { concerns.append(notice) }
        if retried > 0 || lost > 0 {
            concerns.append("the bus glitched: \(retried) reads retried, \(lost) samples lost (short wires, pull-ups, a slower i2c_arm_baudrate: hardware.md, Troubleshooting)")
        }
        return concerns.isEmpty ? .ok("live", text) : .warn("live", text + "; " + concerns.joined(separator: "; "))
    }
}
