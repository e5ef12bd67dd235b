// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Synchronization
import LinuxMotion
import MotionCore
import MotionDevices
import Testing
import TestSupport

/// `MotionManager.calibrateGyroscope(duration:)`: the bias of a board kept
/// still, within Android's 0.002 rad/s; refused when it moves; kept for
/// the device; and the filter's own flags (rest, bias uncertainty) as a
/// program reads them.
@Suite("LinuxMotion: the gyroscope calibrated on demand")
struct GyroscopeCalibrationTests {
    /// A replay of `recording` (in real time, as a sensor would give it).
    static func manager(_ recording: CalibrationRecording, store: CalibrationStore? = nil) -> MotionManager {
        MotionManager(source: ReplaySource(recording: recording.recording(identity: nil), path: "memory", ringCapacity: 4_096),
                      description: "recording", calibrationStore: store)
    }

    @Test("a board put down and kept still: the bias put in, within 0.002 rad/s, with its uncertainty")
    func measures() async throws {
        let truth = Vector3(-0.027, 0.041, 0.008)
        var r = try CalibrationRecording(gyroBias: truth)
        r.turn(from: CalibrationRecording.pose(Vector3(1, 0, 0), degrees: 30), to: CalibrationRecording.flat)
        r.hold(CalibrationRecording.flat, seconds: 6)
        let manager = Self.manager(r)
        let result = try await manager.calibrateGyroscope()
        #expect((result.bias - truth).length < 0.002, "\(result.line)")
        #expect(result.uncertainty > 0 && result.uncertainty < 0.002)
        #expect(result.duration >= 3)
        #expect(!manager.isActive, "the sensor is stopped again")
    }

    @Test("a board that keeps moving is refused with what to do")
    func refusesMotion() async throws {
        var r = try CalibrationRecording(gyroBias: Vector3(0.01, 0, 0))
        for i in 0 ..< 8 {
            r.turn(from: CalibrationRecording.pose(Vector3(0, 1, 0), degrees: i % 2 == 0 ? 0 : 35),
                   to: CalibrationRecording.pose(Vector3(0, 1, 0), degrees: i % 2 == 0 ? 35 : 0), seconds: 1.2)
        }
        await #expect {
            try await Self.manager(r).calibrateGyroscope(duration: .seconds(2))
        } throws: { error in
            guard case MotionError.calibrationRefused(let why) = error else { return false }
            return why.contains("keep it still")
        }
    }

    @Test("the bias is kept for the device, and refused while updates run")
    func keptForTheDevice() async throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        let manager = MotionManager(source: SimulatedSource(rate: 200), description: "board", calibrationStore: store)
        try manager.startDeviceMotionUpdates { _ in }
        await #expect(throws: MotionError.alreadyActive) { try await manager.calibrateGyroscope() }
        manager.stop()
        await #expect(throws: MotionError.calibrationRefused("a gyroscope calibration needs at least a second of stillness")) {
            try await manager.calibrateGyroscope(duration: .milliseconds(500))
        }
        let result = try await manager.calibrateGyroscope(duration: .seconds(1))
        #expect(result.bias.length < 1e-9, "the simulated board has no bias")
        let file = try #require(dir.names().first)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path + "/" + file))) as! [String: Any]
        #expect(json["gyro_bias_rad_s"] as? [Double] == [0, 0, 0])
        #expect(json["device"] as? String == "simulated board")
    }

    @Test("restDetected and the bias's uncertainty as a program reads them: never at rest while turning, at rest by the end of a hold, the uncertainty falling")
    func restFlags() throws {
        var r = try CalibrationRecording(gyroBias: Vector3(0.02, -0.01, 0))
        r.turn(from: CalibrationRecording.flat, to: CalibrationRecording.pose(Vector3(1, 0, 0), degrees: 40), seconds: 1)
        r.hold(CalibrationRecording.pose(Vector3(1, 0, 0), degrees: 40), seconds: 4)
        let manager = Self.manager(r)
        let rests = Mutex<[Bool]>([])
        let ended = Mutex(false)
        try manager.startDeviceMotionUpdates(handler: { motion in
            rests.withLock { $0.append(motion.restDetected) }
        }, completion: { _ in ended.withLock { $0 = true } })
        defer { manager.stop() }
        #expect(eventually { manager.samplesRead > 20 })
        let initial = manager.calibration.gyroBiasUncertainty
        #expect(eventually(within: 60) { ended.withLock { $0 } })
        let seen = rests.withLock { $0 }
        let turning = Int(r.rate)
        try #require(seen.count == r.samples.count)
        #expect(!seen[..<turning].contains(true), "never at rest while turning")
        #expect(seen.suffix(Int(r.rate / 2)).allSatisfy { $0 }, "at rest by the end of the hold")
        #expect(initial > 0.005, "0.5 °/s at the start: \(initial)")
        #expect(manager.calibration.gyroBiasUncertainty < initial / 4, "learnt at rest: \(manager.calibration.gyroBiasUncertainty)")
    }
}
