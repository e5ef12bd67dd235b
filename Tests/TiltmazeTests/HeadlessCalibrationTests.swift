// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MotionCore
import MotionDevices
import Testing
import TestSupport

/// `tiltmaze calibrate --gyroscope|--accelerometer|--orientation --source
/// replay:FILE --headless` on recordings made with known errors (real
/// BROAD noise, errors put in): the line it prints is within the targets,
/// the result is saved for the device the recording names, and a recording
/// without the stillness needed is refused.
struct HeadlessCalibrationTests {
    static let identity = "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0068"

    /// Writes `recording` as `tiltmaze record` would, in `directory`.
    static func write(_ recording: CalibrationRecording, to directory: TemporaryDirectory, identity: String? = identity,
                      mount: MountMatrix = .identity, scaledByGravity: Bool = false) throws -> String {
        let path = directory.path + "/calibration.tmr"
        var header = recording.recording(identity: identity).header
        header.mount = mount
        header.accelerometerScaledByGravity = scaledByGravity
        let writer = try RecordingWriter(path: path, header: header)
        // What a source delivers: the chip's readings turned by the mount it applied.
        for var sample in recording.samples {
            sample.acceleration = mount.apply(sample.acceleration)
            sample.rotationRate = mount.apply(sample.rotationRate)
            try writer.append(sample)
        }
        try writer.finish()
        return path
    }

    static func calibrate(_ kind: String, _ path: String, home: TemporaryDirectory) throws -> ProgramRunner.Result {
        try ProgramRunner.run(["calibrate", "--\(kind)", "--source", "replay:\(path)", "--headless"],
                              environment: ["XDG_CONFIG_HOME": home.path + "/config"])
    }

    static func saved(_ home: TemporaryDirectory) throws -> [String: Any] {
        let directory = home.path + "/config/tiltmaze/calibration"
        let name = try #require(home.names(in: "config/tiltmaze/calibration").first { $0.hasPrefix("iio-mpu6050") })
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) as! [String: Any]
    }

    /// The numbers of a printed line, in order.
    static func numbers(_ line: String) -> [Double] {
        line.split(whereSeparator: { " ;,:±".contains($0) }).compactMap { Double($0) }
    }

    @Test("--gyroscope: the bias put in, within 0.002 rad/s, and saved")
    func gyroscope() throws {
        let home = TemporaryDirectory()
        let truth = Vector3(0.034, -0.021, 0.012)
        var r = try CalibrationRecording(gyroBias: truth)
        r.hold(CalibrationRecording.flat, seconds: 5)
        let result = try Self.calibrate("gyroscope", try Self.write(r, to: home), home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("gyroscope bias: ") && line.hasSuffix(line.split(separator: "±").last.map(String.init) ?? "") && line.contains(" rad/s ± "), "\(line)")
        let n = Self.numbers(line)
        try #require(n.count == 4, "\(line)")
        #expect((Vector3(n[0], n[1], n[2]) - truth).length < 0.002, "\(line)")
        let bias = try #require(try Self.saved(home)["gyro_bias_rad_s"] as? [Double])
        #expect((Vector3(bias[0], bias[1], bias[2]) - truth).length < 0.002)
        #expect(result.stderr.contains("saved for \(Self.identity)"))
    }

    @Test("--gyroscope on a board that never lies still is refused (status 65), and nothing is saved")
    func gyroscopeRefused() throws {
        let home = TemporaryDirectory()
        var r = try CalibrationRecording(gyroBias: Vector3(0.02, 0, 0))
        // Turning back and forth, never still for long.
        for i in 0 ..< 6 {
            r.turn(from: CalibrationRecording.pose(Vector3(1, 0, 0), degrees: i % 2 == 0 ? 0 : 40),
                   to: CalibrationRecording.pose(Vector3(1, 0, 0), degrees: i % 2 == 0 ? 40 : 0), seconds: 1.5)
        }
        let result = try Self.calibrate("gyroscope", try Self.write(r, to: home), home: home)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("gyroscope calibration refused: the board moved"), "\(result.stderr)")
        #expect(home.names(in: "config/tiltmaze/calibration").isEmpty)
    }

    @Test("--accelerometer: a 0.1–0.4 g bias and 3 % scales found within 0.02 m/s² and 0.2 %, and saved in the chip's axes")
    func accelerometer() throws {
        let home = TemporaryDirectory()
        let bias = Vector3(1.1, -3.6, 2.4), scale = Vector3(0.97, 1.03, 1.025)
        // Mounted upside down: the recording's samples were turned by that mount; the fit undoes it.
        let mount = MountMatrix(Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, -1))
        var r = try CalibrationRecording(accelerometer: AccelerometerCalibration(bias: bias, scale: scale))
        r.hold(each: CalibrationRecording.sixFaces, seconds: 3)
        let result = try Self.calibrate("accelerometer", try Self.write(r, to: home, mount: mount), home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("accelerometer bias: ") && line.contains(" m/s²; scale: ") && line.contains("; residual: ")
                && line.hasSuffix(" m/s²"), "\(line)")
        let n = Self.numbers(line.replacingOccurrences(of: "m/s²", with: ""))
        try #require(n.count == 7, "\(line)")
        #expect((Vector3(n[0], n[1], n[2]) - bias).length < 0.02, "\(line)")
        for (found, want) in zip(n[3 ..< 6], [scale.x, scale.y, scale.z]) { #expect(abs(found / want - 1) < 0.002, "\(line)") }
        let saved = try #require(try Self.saved(home)["accelerometer"] as? [String: Any])
        let savedBias = try #require(saved["bias_m_s2"] as? [Double])
        #expect((Vector3(savedBias[0], savedBias[1], savedBias[2]) - bias).length < 0.02)
    }

    @Test("--orientation: a sensor turned 90° about z is found exactly, printed with its udev line, and kept for this user")
    func orientation() throws {
        let home = TemporaryDirectory()
        let mount = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        var r = try CalibrationRecording(mount: mount)
        r.hold(each: [CalibrationRecording.flat, CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 30)], seconds: 3)
        // Recorded with no mount matrix known (identity): the samples are the chip's axes.
        let result = try Self.calibrate("orientation", try Self.write(r, to: home), home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "orientation: 0, -1, 0; 1, 0, 0; 0, 0, 1\n")
        #expect(result.stderr.contains("ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1"))
        #expect(try Self.saved(home)["mount_matrix"] as? String == "0, -1, 0; 1, 0, 0; 0, 0, 1")
    }

    @Test("--orientation with only one pose says what to do next")
    func orientationOnePose() throws {
        let home = TemporaryDirectory()
        var r = try CalibrationRecording()
        r.hold(CalibrationRecording.flat, seconds: 4)
        let result = try Self.calibrate("orientation", try Self.write(r, to: home), home: home)
        #expect(result.status == 65)
        #expect(result.stderr.contains("tip the right edge down"), "\(result.stderr)")
    }

    @Test("a recording that names no device prints the result and says nothing was saved")
    func noIdentity() throws {
        let home = TemporaryDirectory()
        var r = try CalibrationRecording(gyroBias: Vector3(0.01, 0.02, 0.03))
        r.hold(CalibrationRecording.flat, seconds: 4)
        let result = try Self.calibrate("gyroscope", try Self.write(r, to: home, identity: nil), home: home)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("gyroscope bias: 0.01"))
        #expect(result.stderr.contains("nothing saved: the recording names no device"))
    }

    @Test("--accelerometer on the simulated board is refused at once, screen or not, saying what to do; nothing is saved",
          arguments: [["--headless"], ["--display", "terminal"]])
    func accelerometerOnTheSimulatedBoard(_ extra: [String]) throws {
        let home = TemporaryDirectory()
        let result = try ProgramRunner.run(["calibrate", "--accelerometer", "--source", "sim"] + extra,
                                           environment: ["XDG_CONFIG_HOME": home.path + "/config"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("simulated board") && result.stderr.contains("nothing to calibrate")
            && result.stderr.contains("--source replay:FILE"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/config/tiltmaze"))
    }

    @Test("--orientation --headless on the simulated board ends at once, refused (69), saying why and what to do: no key can tip it")
    func headlessOrientationOnTheSimulatedBoard() throws {
        let home = TemporaryDirectory()
        // The bound is the runner's: only a wait for a pose that never comes reaches it.
        let result = try ProgramRunner.run(["calibrate", "--orientation", "--headless", "--source", "sim"],
                                           environment: ["XDG_CONFIG_HOME": home.path + "/config"], timeout: 60)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("orientation calibration refused") && result.stderr.contains("--headless reads none")
            && result.stderr.contains("the arrows tip it") && result.stderr.contains("--source replay:FILE"), "\(result.stderr)")
        #expect(!result.stderr.contains("keep it there"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/config/tiltmaze"))
    }

    @Test("a recording of an accelerometer scaled by gravity is refused for --accelerometer (status 69), still used for --gyroscope")
    func unitlessRecording() throws {
        let home = TemporaryDirectory()
        var r = try CalibrationRecording(gyroBias: Vector3(0.01, 0, 0))
        r.hold(CalibrationRecording.flat, seconds: 5)
        r.hold(each: CalibrationRecording.sixFaces, seconds: 3)
        let path = try Self.write(r, to: home, scaledByGravity: true)
        let refused = try Self.calibrate("accelerometer", path, home: home)
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("evdev resolution is 0") && refused.stderr.contains("--gyroscope, --orientation"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/config/tiltmaze"))
        let gyroscope = try Self.calibrate("gyroscope", path, home: home)
        #expect(gyroscope.status == 0, "\(gyroscope.stderr)")
    }

    @Test("--headless wants a calibration on demand, one at a time; the neutral's screen still wants a live sensor")
    func options() throws {
        let replay = try ProgramRunner.run(["calibrate", "--source", "replay:/nonexistent.tmr"])
        #expect(replay.status == 64)
        #expect(replay.stderr.contains("a replay keeps no calibration"))
        let bare = try ProgramRunner.run(["calibrate", "--headless"])
        #expect(bare.status == 64)
        let two = try ProgramRunner.run(["calibrate", "--gyroscope", "--orientation", "--headless"])
        #expect(two.stderr.contains("choose one of"))
    }
}

/// The same calibrations on their screens, in a real terminal: a replay of
/// a recording plays in real time while the screen fills in; s saves.
@Suite("calibrations on demand: the screen in a terminal", .serialized)
struct OnDemandTerminalTests {
    @Test("--orientation in tmux: the two poses tick off, the axes are shown, s saves them and prints the udev line")
    func orientationScreen() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        let directory = TemporaryDirectory()
        let mount = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        var r = try CalibrationRecording(mount: mount)
        r.hold(each: [CalibrationRecording.flat, CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 30)], seconds: 3)
        let path = try HeadlessCalibrationTests.write(r, to: directory)
        try pane.runTiltmaze("calibrate --orientation --source replay:\(path) --display terminal")
        let partway = try pane.waitFor { $0.contains("[x] flat, face up") }
        #expect(partway.contains("TiltMaze · Board axes"), "\(partway)")
        let done = try pane.waitFor { $0.contains("Axes  0, -1, 0; 1, 0, 0; 0, 0, 1") }
        #expect(done.contains("[x] right edge down"), "\(done)")
        try pane.send("s")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"), "\(after)")
        #expect(after.contains("orientation: 0, -1, 0; 1, 0, 0; 0, 0, 1"))
        #expect(after.contains("ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1"))
        let files = try FileManager.default.contentsOfDirectory(atPath: pane.home + "/.config/tiltmaze/calibration")
        #expect(files.contains { $0.hasPrefix("iio-mpu6050") }, "saved for the recording's device: \(files)")
    }

    @Test("--orientation in tmux on the simulated board: the arrows tip it, both poses tick off, s saves the board's own axes")
    func orientationScreenOnTheSimulatedBoard() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("calibrate --orientation --source sim --display terminal")
        let flat = try pane.waitFor { $0.contains("[x] flat, face up") }
        #expect(flat.contains("arrows tilt"), "\(flat)")
        // Ten steps of 3°: the right edge 30° down, where the board stops.
        try pane.send(Array(repeating: "Right", count: 10))
        let done = try pane.waitFor { $0.contains("Axes  1, 0, 0; 0, 1, 0; 0, 0, 1") }
        #expect(done.contains("[x] right edge down"), "\(done)")
        try pane.send("s")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0") && after.contains("orientation: 1, 0, 0; 0, 1, 0; 0, 0, 1"), "\(after)")
    }

    @Test("--gyroscope in tmux on the simulated board: the stillness bar fills, the bias is shown, s prints and keeps it")
    func gyroscopeScreen() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("calibrate --gyroscope --source sim --display terminal")
        let shown = try pane.waitFor { $0.contains("Save keeps it for this sensor.") }
        #expect(shown.contains("TiltMaze · Gyroscope") && shown.contains("Bias  0.0000 0.0000 0.0000 rad/s"), "\(shown)")
        #expect(shown.contains("Still [####################] 3.0 s"))
        try pane.send("s")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0") && after.contains("gyroscope bias: 0.00000 0.00000 0.00000 rad/s ± 0.00000"), "\(after)")
        let files = try FileManager.default.contentsOfDirectory(atPath: pane.home + "/.config/tiltmaze/calibration")
        #expect(files.contains { $0.hasPrefix("simulated-board") })
    }
}
