// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Synchronization
import Testing
import LinuxMotion
import MotionCore
import MotionDevices
import TestSupport

@Suite("LinuxMotion: the motion manager")
struct MotionManagerTests {
    /// `count` samples at `rate` of a board turning slowly about x while it
    /// tilts, with a push along +x in the middle (a shake).
    static func recording(count: Int = 500, rate: Double = 1_000) -> Recording {
        let samples = (0 ..< count).map { i -> MotionSample in
            let t = Double(i) / rate
            let roll = 0.3 * sin(t * 4)
            var specificForce = -TiltBoard.gravity(roll: roll, pitch: 0.1)
            if (count / 2 ..< count / 2 + 5).contains(i) { specificForce.x += 20 }
            return MotionSample(timestamp: 1_000_000_000 + Int64((t * 1e9).rounded()), acceleration: specificForce,
                                rotationRate: Vector3(1.2 * cos(t * 4), 0, 0), fields: [.acceleration, .rotationRate])
        }
        return Recording(header: RecordingHeader(device: "test board", identity: nil, rate: rate, hasGyroscope: true),
                         samples: samples)
    }

    /// What `monitor --json` computes for the same samples: the motion processor fed one by one.
    static func expected(_ recording: Recording) -> [DeviceMotion] {
        var processor = MotionProcessor()
        return recording.samples.map { sample in
            let (motion, shake) = processor.add(sample)
            return DeviceMotion(timestamp: sample.timestamp, attitude: Attitude(motion.attitude), gravity: motion.gravity,
                                userAcceleration: motion.userAcceleration,
                                rotationRate: sample.hasRotationRate ? motion.rotationRate : nil,
                                acceleration: sample.acceleration, shake: shake)
        }
    }

    /// A replay stamps its samples anew (monotonic now, the recording's
    /// spacing kept): compared from the first sample's time.
    static func sameMotion(_ got: [DeviceMotion], _ want: [DeviceMotion]) -> String? {
        guard got.count == want.count else { return "\(got.count) values, not \(want.count)" }
        guard let first = got.first, let wantFirst = want.first else { return nil }
        for i in got.indices {
            var a = got[i], b = want[i]
            a.timestamp -= first.timestamp
            b.timestamp -= wantFirst.timestamp
            a.shake?.timestamp -= first.timestamp
            b.shake?.timestamp -= wantFirst.timestamp
            if a != b { return "value \(i): \(a) is not \(b)" }
        }
        return nil
    }

    @Test("a program tilts the simulated board: gravity follows, and the gyroscope saw the turn")
    func tiltsTheSimulatedBoard() throws {
        let manager = MotionManager(source: .sim, rate: 200, calibrationStore: nil)
        #expect(!manager.tiltSimulatedBoard(rightEdgeDown: 0.1, topEdgeDown: 0), "tilted before the updates ran")
        let latest = Mutex<DeviceMotion?>(nil)
        let turned = Mutex(false)
        try manager.startDeviceMotionUpdates { motion in
            latest.withLock { $0 = motion }
            if let rate = motion.rotationRate, abs(rate.y) > 0.05 { turned.withLock { $0 = true } }
        }
        defer { manager.stop() }
        #expect(eventually { latest.withLock { $0 } != nil })
        // 20° right edge down, then 10° top edge down as well.
        let right = 20 * Double.pi / 180, top = -10 * Double.pi / 180
        #expect(manager.tiltSimulatedBoard(rightEdgeDown: right, topEdgeDown: top))
        // Gravity pulls towards the lower edges: its share along x is sin 20°;
        // along y, the pitch after the roll, sin(−10°) cos 20°.
        let settled = eventually {
            guard let g = latest.withLock({ $0 })?.gravity, g.length > 0 else { return false }
            return abs(g.x / g.length - sin(right)) < 0.01 && abs(g.y / g.length - sin(top) * cos(right)) < 0.01
        }
        #expect(settled, "gravity never reached the tilt: \(String(describing: latest.withLock { $0 }?.gravity))")
        #expect(turned.withLock { $0 }, "the gyroscope saw no turn about y")
        // Beyond 30° it stops at 30°.
        #expect(manager.tiltSimulatedBoard(rightEdgeDown: 1.2, topEdgeDown: 0))
        #expect(eventually {
            guard let g = latest.withLock({ $0 })?.gravity, g.length > 0 else { return false }
            return abs(g.x / g.length - sin(30 * Double.pi / 180)) < 0.01 && abs(g.y / g.length) < 0.01
        })
        manager.stop()
        #expect(!manager.tiltSimulatedBoard(rightEdgeDown: 0, topEdgeDown: 0), "tilted after stop")
    }

    @Test("the callback runs on the manager's thread for every sample of the simulated board")
    func simulatedCallback() throws {
        let manager = MotionManager(source: .sim, rate: 200, calibrationStore: nil)
        let seen = Mutex<[DeviceMotion]>([])
        let threadName = Mutex<String>("")
        try manager.startDeviceMotionUpdates(threadName: "test-motion") { motion in
            seen.withLock { $0.append(motion) }
            if threadName.withLock({ $0.isEmpty }) { threadName.withLock { $0 = currentThreadName() } }
        }
        defer { manager.stop() }
        #expect(eventually { seen.withLock { $0.count } >= 40 })
        #expect(manager.obtainedRate == 200)
        manager.stop()
        let motions = seen.withLock { $0 }
        #expect(manager.sensorDescription?.contains("simulated") == true)
        #expect(zip(motions, motions.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "in order")
        let last = try #require(motions.last)
        #expect((last.gravity - Vector3(0, 0, -standardGravity)).length < 0.5, "a level board: \(last.gravity)")
        #expect(threadName.withLock { $0 } == "test-motion")
        #expect(manager.samplesRead >= motions.count)
    }

    @Test("a replay through the async sequence gives what monitor --json gives, then ends")
    func replayMatchesMonitor() async throws {
        let recording = Self.recording()
        let manager = MotionManager(source: ReplaySource(recording: recording, path: "memory", ringCapacity: 1024), description: "recording")
        var got: [DeviceMotion] = []
        for try await motion in try manager.deviceMotionUpdates(bufferLimit: 1_000) { got.append(motion) }
        manager.stop()
        let differs = Self.sameMotion(got, Self.expected(recording))
        #expect(differs == nil, "\(differs ?? "")")
        #expect(got.contains { $0.shake?.axis == .x && $0.shake?.positive == true }, "the push is a shake")
        #expect(manager.droppedUpdates == 0)
    }

    @Test("a consumer that stalls loses the oldest values, counted; the sensor's thread never waits for it")
    func slowConsumer() async throws {
        let recording = Self.recording(count: 400)
        let manager = MotionManager(source: ReplaySource(recording: recording, path: "memory", ringCapacity: 1024), description: "recording")
        let stream = try manager.deviceMotionUpdates(bufferLimit: 8)
        // Not reading while the whole recording plays: the thread goes on regardless.
        #expect(eventually { manager.samplesRead == 400 })
        var got: [DeviceMotion] = []
        for try await motion in stream { got.append(motion) }
        manager.stop()
        #expect(got.count == 8)
        #expect(manager.droppedUpdates == 400 - 8)
        let newest = Array(Self.expected(recording).suffix(8))
        #expect(got.map(\.acceleration) == newest.map(\.acceleration), "the newest are kept")
    }

    @Test("the callback is told when a recording runs out, and with the sensor's words when it stops")
    func completion() throws {
        let ended = Mutex<[MotionError?]>([])
        let manager = MotionManager(source: ReplaySource(recording: Self.recording(count: 50), path: "memory", ringCapacity: 1024),
                                    description: "recording")
        try manager.startDeviceMotionUpdates(handler: { _ in }, completion: { error in ended.withLock { $0.append(error) } })
        #expect(eventually { ended.withLock { $0.count } == 1 })
        manager.stop()
        #expect(ended.withLock { $0 } == [nil])
    }

    @Test("a sensor that cannot be had is a typed error naming it; starting twice is refused")
    func errors() throws {
        let missing = MotionManager(source: .replay("/nonexistent/ride.tmrec"))
        #expect(throws: MotionError.self) { try missing.startDeviceMotionUpdates { _ in } }
        do {
            try missing.startDeviceMotionUpdates { _ in }
        } catch {
            #expect(error.description.contains("/nonexistent/ride.tmrec"), "\(error)")
        }
        #expect(!missing.isActive)
        let manager = MotionManager(source: .sim, rate: 100, calibrationStore: nil)
        try manager.startDeviceMotionUpdates { _ in }
        defer { manager.stop() }
        #expect(throws: MotionError.alreadyActive) { try manager.startDeviceMotionUpdates { _ in } }
    }

    @Test("a sensor not found is named with where the kernel lists them; TiltMaze's own listing only if TiltMaze is installed")
    func notFoundAdvice() throws {
        let manager = MotionManager(source: .iio("nosuchchip9"), calibrationStore: nil)
        do {
            try manager.startDeviceMotionUpdates { _ in }
            manager.stop()
            Issue.record("an IIO sensor named nosuchchip9 was found")
        } catch {
            let text = error.description
            #expect(text.contains("no IIO motion sensor named nosuchchip9") && text.contains("/sys/bus/iio/devices"), "\(text)")
            // A program's user may have no tiltmaze: every mention of it says so.
            #expect(text.components(separatedBy: "`tiltmaze").count == text.components(separatedBy: "if TiltMaze is installed, `tiltmaze").count,
                    "\(text)")
        }
    }

    @Test("a recording file by name: the request path, as --source replay:FILE")
    func replayFile() async throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/ride.tmrec"
        let recording = Self.recording(count: 100)
        let writer = try RecordingWriter(path: path, header: recording.header)
        for sample in recording.samples { try writer.append(sample) }
        try writer.finish()
        // 100 samples: fewer than the ring holds, so none is lost however late the thread wakes.
        let manager = MotionManager(source: .replay(path))
        var got: [DeviceMotion] = []
        for try await motion in try manager.deviceMotionUpdates(bufferLimit: 1_000) { got.append(motion) }
        manager.stop()
        let differs = Self.sameMotion(got, Self.expected(recording))
        #expect(differs == nil, "\(differs ?? "")")
        #expect(manager.sensorDescription?.contains(path) == true, "\(manager.sensorDescription ?? "nil")")
    }
}

@Suite("LinuxMotion: the device's calibration")
struct MotionCalibrationTests {
    @Test("a neutral captured is saved per device, and the next manager of that device starts from it")
    func savedAndLoaded() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        let board = SimulatedSource(rate: 200)
        let manager = MotionManager(source: board, description: "board", calibrationStore: store)
        let gravity = Mutex(Vector3.zero)
        let calibrated = Mutex(Vector3.zero)
        try manager.startDeviceMotionUpdates { motion in
            gravity.withLock { $0 = motion.gravity }
            calibrated.withLock { $0 = motion.calibratedGravity }
        }
        defer { manager.stop() }
        #expect(manager.calibration.reference == .level)
        #expect(try manager.saveCalibration() == nil, "nothing changed: nothing written")
        board.nudge(right: 3, up: 0)
        // Three steps of 3°: wait until the board is nearly there (sin 8.5° of g), so it is still when captured.
        #expect(eventually { gravity.withLock { abs($0.x) } > standardGravity * sin(8.5 * .pi / 180) }, "the board never tilted")
        manager.changeReference(.captureCurrent)
        #expect(eventually { manager.calibration.reference != .level })
        let captured = manager.calibration.reference
        // Held at its neutral, the board reads level from it, and still tilted from level.
        #expect(eventually { abs(calibrated.withLock { $0.x }) < 0.15 }, "\(calibrated.withLock { $0 })")
        #expect(abs(gravity.withLock { $0.x }) > 1)
        let path = try #require(try manager.saveCalibration())
        #expect(FileManager.default.fileExists(atPath: path) && path.hasPrefix(dir.path))
        #expect(try manager.saveCalibration() == nil, "saved already")
        manager.stop()

        let again = MotionManager(source: SimulatedSource(rate: 200), description: "board", calibrationStore: store)
        try again.startDeviceMotionUpdates { _ in }
        defer { again.stop() }
        #expect(again.calibration.reference == captured)
        #expect(again.calibrationProblem == nil)
    }

    @Test("a recording keeps no calibration: nothing is read or written for it")
    func recordingKeepsNone() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        // Two seconds of a board pitched 0.1 rad: time to take the neutral while it plays.
        let manager = MotionManager(source: ReplaySource(recording: MotionManagerTests.recording(count: 2_000), path: "memory",
                                                         ringCapacity: 4_096),
                                    description: "recording", calibrationStore: store)
        try manager.startDeviceMotionUpdates { _ in }
        defer { manager.stop() }
        // A neutral taken before any sample is level: there is no gravity to take yet.
        #expect(eventually { manager.samplesRead > 100 })
        manager.changeReference(.captureCurrent)
        #expect(eventually { manager.calibration.reference != .level })
        #expect(try manager.saveCalibration() == nil)
        #expect(dir.names().isEmpty)
    }
}

/// The calling thread's name as the kernel has it (Foundation's Thread does
/// not know threads it did not start).
func currentThreadName() -> String {
    (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}
