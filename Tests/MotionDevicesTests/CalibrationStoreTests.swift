// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionCore
import MotionDevices
import MockDevices
import TestSupport

@Suite("Calibration store")
struct CalibrationStoreTests {
    let tilted = DeviceCalibration(reference: TiltReference(capturing: TiltBoard.gravity(roll: 0.2, pitch: -0.3)),
                                   gyroBias: Vector3(0.004, -0.0125, 0.001))

    @Test("the store lives in $XDG_CONFIG_HOME/tiltmaze/calibration, else ~/.config/tiltmaze/calibration")
    func location() {
        #expect(CalibrationStore.standard(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"])?.directory == "/c/tiltmaze/calibration")
        #expect(CalibrationStore.standard(environment: ["HOME": "/home/pi"], effectiveUID: 1000)?.directory == "/home/pi/.config/tiltmaze/calibration")
        #expect(CalibrationStore.standard(environment: [:]) == nil)
    }

    @Test("what is saved is read back exactly; the directory is made as needed; no temporary file stays")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path + "/config/tiltmaze/calibration")
        #expect(store.load("simulated board").fromFile == false)
        #expect(store.load("simulated board").calibration == .defaults)
        let written = try store.save(tilted, for: "simulated board").get()
        #expect(written == store.path(for: "simulated board"))
        let loaded = store.load("simulated board")
        #expect(loaded.fromFile && loaded.problem == nil && loaded.maySave)
        #expect(loaded.calibration == tilted)
        var off = tilted
        off.reference.isEnabled = false
        _ = try store.save(off, for: "simulated board").get()
        #expect(store.load("simulated board").calibration.reference.isEnabled == false)
        #expect(store.load("simulated board").calibration.reference.neutralUp == tilted.reference.neutralUp)
        #expect(dir.names(in: "config/tiltmaze/calibration") == ["simulated-board-\(hash("simulated board")).json"])
    }

    @Test("a compass calibration is kept beside the neutral and the bias, and a file without one reads as none")
    func magnetometer() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        var calibration = tilted
        calibration.magnetometer = MagnetometerCalibration(
            offset: Vector3(18.25, -6.5, 31), softIron: (Vector3(1.05, 0.02, 0), Vector3(0.02, 0.98, 0.01), Vector3(0, 0.01, 0.97)),
            accuracy: .medium)
        _ = try store.save(calibration, for: "simulated board").get()
        #expect(store.load("simulated board").calibration == calibration)
        let text = try String(contentsOfFile: store.path(for: "simulated board"), encoding: .utf8)
        #expect(text.contains("\"offset_ut\"") && text.contains("\"medium\""), "\(text)")
        _ = try store.save(tilted, for: "simulated board").get()
        #expect(store.load("simulated board").calibration.magnetometer == nil)
    }

    @Test("the accelerometer's calibration and the user's mount are kept, read back exactly, and a game's save keeps them")
    func accelerometerAndMount() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        var calibration = tilted
        calibration.accelerometer = AccelerometerCalibration(bias: Vector3(0.98, -2.35, 3.125),
                                                             matrix: (Vector3(1.03, 0.01, 0), Vector3(0.01, 0.97, 0), Vector3(0, 0, 1.02)))
        calibration.mount = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        _ = try store.save(calibration, for: "simulated board").get()
        #expect(store.load("simulated board").calibration == calibration)
        let text = try String(contentsOfFile: store.path(for: "simulated board"), encoding: .utf8)
        #expect(text.contains("\"mount_matrix\" : \"0, -1, 0; 1, 0, 0; 0, 0, 1\""), "\(text)")
        // The read-only look the sources take.
        let correction = try #require(store.chipCorrection(for: "simulated board"))
        #expect(correction.mount == calibration.mount && correction.accelerometer == calibration.accelerometer)
        #expect(correction.file == store.path(for: "simulated board"))
        #expect(store.chipCorrection(for: "another board") == nil)
        // A game's end changes the neutral and the bias only.
        let loaded = store.load("simulated board")
        let after = try #require(loaded.changed(reference: .level, gyroBias: Vector3(0.01, 0, 0)))
        #expect(after.accelerometer == calibration.accelerometer && after.mount == calibration.mount)
    }

    @Test("what would not read back is not written: the file stays as it was, and the message says why")
    func refusesWhatWouldNotReadBack() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        _ = try store.save(tilted, for: "simulated board").get()
        var wrong = tilted
        wrong.gyroBias = Vector3(0.25, 0, 0)   // past the 0.2 rad/s a file may hold
        guard case .failure(let error) = store.save(wrong, for: "simulated board") else {
            Issue.record("saved a calibration the next load would set aside")
            return
        }
        #expect(error.description.contains("would not read back") && error.description.contains("is unchanged"), "\(error)")
        #expect(store.load("simulated board").calibration == tilted)
    }

    @Test("from a recording made before the user's mount was kept, a bias and a new mount are kept in the frame in force")
    func keptInTheFrameInForce() {
        let quarter = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        let upsideDown = MountMatrix(Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, -1))
        var stored = tilted
        stored.mount = quarter
        // The recording's samples came with no mount: the chip's axes.
        let recorded = OnDemandCalibration.Delivery(mount: .identity)
        let gyro = GyroscopeCalibration(bias: Vector3(0.01, 0.02, 0.03), uncertainty: 0.0001, duration: 3)
        #expect(OnDemandCalibration.kept(.gyroscope(gyro), in: stored, delivery: recorded).gyroBias == quarter.apply(gyro.bias))
        let turned = OnDemandCalibration.kept(.orientation(upsideDown), in: stored, delivery: recorded)
        let expected = upsideDown.composed(after: quarter.inverse!).apply(stored.gyroBias)
        #expect(turned.gyroBias == expected, "turned from the quarter turn in force, not from the recording's axes")
        // Delivered upside down with the quarter turn in force: back to the
        // chip's axes (x, -y, -z), then the quarter turn (-y, x, z), worked by hand.
        let upsideDownDelivery = OnDemandCalibration.Delivery(mount: upsideDown)
        #expect(OnDemandCalibration.kept(.gyroscope(gyro), in: stored, delivery: upsideDownDelivery).gyroBias
                == Vector3(0.02, 0.01, -0.03))
        // Live, the samples come in the frame in force: nothing more to turn.
        let live = OnDemandCalibration.Delivery(mount: quarter)
        #expect(OnDemandCalibration.kept(.gyroscope(gyro), in: stored, delivery: live).gyroBias == gyro.bias)
    }

    @Test("a new accelerometer calibration or mount sets the neutral back to level; a gyroscope bias leaves it")
    func neutralAfterCalibrations() {
        let delivery = OnDemandCalibration.Delivery(mount: .identity)
        let fit = AccelerometerFit(calibration: AccelerometerCalibration(bias: Vector3(1, 0, 0), scale: Vector3(1, 1, 1)), residual: 0.05, poses: 6)
        #expect(OnDemandCalibration.kept(.accelerometer(fit), in: tilted, delivery: delivery).reference.neutralUp == Vector3(0, 0, 1))
        let turned = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        let kept = OnDemandCalibration.kept(.orientation(turned), in: tilted, delivery: delivery)
        #expect(kept.reference.neutralUp == Vector3(0, 0, 1) && kept.mount == turned)
        #expect(kept.gyroBias == turned.apply(tilted.gyroBias), "the bias turned into the new board frame")
        let gyro = GyroscopeCalibration(bias: Vector3(0.01, 0, 0), uncertainty: 0.0001, duration: 3)
        #expect(OnDemandCalibration.kept(.gyroscope(gyro), in: tilted, delivery: delivery).reference == tilted.reference)
    }

    @Test("a magnetometer calibration refined while playing is worth a write, even a first file; the same one again is not")
    func refinedMagnetometer() throws {
        let refined = MagnetometerCalibration(offset: Vector3(3, -4, 12), accuracy: .high)
        let fresh = CalibrationStore.Loaded(calibration: .defaults, fromFile: false, problem: nil, maySave: true)
        let first = try #require(fresh.changed(reference: .level, gyroBias: nil, magnetometer: refined))
        #expect(first.magnetometer == refined && first.reference == .level)
        #expect(fresh.changed(reference: .level, gyroBias: nil) == nil, "nothing learnt, no file")

        let kept = CalibrationStore.Loaded(calibration: first, fromFile: true, problem: nil, maySave: true)
        #expect(kept.changed(reference: .level, gyroBias: nil, magnetometer: refined) == nil, "unchanged")
        #expect(kept.changed(reference: .level, gyroBias: nil, magnetometer: nil) == nil, "none refined keeps the stored one")
        var moved = refined
        moved.offset.z += 2
        #expect(kept.changed(reference: .level, gyroBias: nil, magnetometer: moved)?.magnetometer == moved)
        let bad = CalibrationStore.Loaded(calibration: .defaults, fromFile: false, problem: "bad", maySave: false)
        #expect(bad.changed(reference: .level, gyroBias: nil, magnetometer: refined) == nil, "a bad file is never overwritten")
    }

    @Test("each device has its own file: the same name with other bus paths or ids do not share")
    func perDevice() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        let a = "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0068"
        let b = "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0069"
        let pad = "evdev Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors a0:ab:51:00:00:01"
        #expect(Set([a, b, pad, "simulated board"].map(store.path(for:))).count == 4)
        _ = try store.save(tilted, for: a).get()
        #expect(store.load(b).fromFile == false)
        #expect(store.load(a).calibration == tilted)
        #expect(store.path(for: pad).hasSuffix(".json") && !store.path(for: pad).contains(":"))
    }

    @Test("a corrupt file is reported with its path, kept aside under a new name, never overwritten, and defaults are used",
          arguments: [
            ("{ \"format\": \"tiltmaze-calibration\", ", "not JSON"),
            ("[1, 2, 3]", "not JSON"),
            ("{\"format\":\"other\",\"version\":1}", "\"format\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":7,\"device\":\"simulated board\"}", "version 7"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"someone else\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0]}", "belongs to \"someone else\""),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0]}", "\"neutral_up\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,0],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0]}", "\"neutral_up\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":\"up\",\"correction\":true,\"gyro_bias_rad_s\":[0,0,0]}", "\"neutral_up\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":\"yes\",\"gyro_bias_rad_s\":[0,0,0]}", "\"correction\" should be true or false"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"gyro_bias_rad_s\":[0,0,0]}", "\"correction\" should be true or false"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[3,0,0]}", "\"gyro_bias_rad_s\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"magnetometer\":{\"offset_ut\":[1,2],\"soft_iron\":[[1,0,0],[0,1,0],[0,0,1]],\"accuracy\":\"high\"}}", "\"offset_ut\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"magnetometer\":{\"offset_ut\":[1,2,3],\"soft_iron\":[[1,0,0],[0,1,0]],\"accuracy\":\"high\"}}", "\"soft_iron\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"magnetometer\":{\"offset_ut\":[1,2,3],\"soft_iron\":[[1,0,0],[0,1,0],[0,0,0]],\"accuracy\":\"high\"}}", "is no calibration"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"magnetometer\":{\"offset_ut\":[1,2,3],\"soft_iron\":[[1,0,0],[0,1,0],[0,0,1]],\"accuracy\":\"great\"}}", "\"accuracy\" should be"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"mount_matrix\":\"1, 0, 0; 0, 1, 0\"}", "\"mount_matrix\" should be a rotation"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"mount_matrix\":\"2, 0, 0; 0, 1, 0; 0, 0, 1\"}", "\"mount_matrix\" should be a rotation"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"accelerometer\":{\"bias_m_s2\":[9,0,0],\"matrix\":[[1,0,0],[0,1,0],[0,0,1]]}}", "\"bias_m_s2\" should be three numbers of at most 4.90"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"accelerometer\":{\"bias_m_s2\":[0,0,0],\"matrix\":[[1.5,0,0],[0,1,0],[0,0,1]]}}", "\"matrix\" is no calibration"),
            ("{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,0,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0],\"accelerometer\":{\"bias_m_s2\":[0,0,0],\"matrix\":[[1,0,0],[0,1,0]]}}", "\"matrix\" should be three rows"),
          ])
    func corrupt(text: String, reason: String) throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        let file = store.path(for: "simulated board")
        // A file set aside before must survive too.
        try Data("older".utf8).write(to: URL(fileURLWithPath: file + ".bad"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let loaded = store.load("simulated board")
        #expect(loaded.calibration == .defaults && !loaded.fromFile && loaded.maySave)
        let problem = try #require(loaded.problem)
        #expect(problem.hasPrefix("\(file) is not a usable calibration ("), "\(problem)")
        #expect(problem.contains(reason), "\(problem)")
        #expect(problem.contains("kept it as \(file).bad-2"), "\(problem)")
        #expect(try String(contentsOfFile: file + ".bad-2", encoding: .utf8) == text)
        #expect(try String(contentsOfFile: file + ".bad", encoding: .utf8) == "older")
        #expect(!FileManager.default.fileExists(atPath: file))
        // Saving afterwards writes a fresh file and leaves both aside.
        _ = try store.save(tilted, for: "simulated board").get()
        #expect(store.load("simulated board").calibration == tilted)
        #expect(dir.names().count == 3)
    }

    @Test("an unreadable file that cannot be moved aside is reported and never saved over (as nobody under root)")
    func unreadable() throws {
        guard geteuid() != 0 else {
            // Root reads and renames anything: the same test, as nobody, in a child.
            let run = try UnprivilegedFileAccess.rerunAsNobody("MotionDevicesTests.CalibrationStoreTests/unreadable()")
            #expect(run.passed && run.tests.count == 1, "\(run)")
            return
        }
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path + "/calibration")
        _ = try store.save(tilted, for: "simulated board").get()
        let file = store.path(for: "simulated board")
        chmod(file, 0)
        chmod(dir.path + "/calibration", 0o555)
        defer { chmod(dir.path + "/calibration", 0o755) }
        let loaded = store.load("simulated board")
        #expect(!loaded.maySave && loaded.calibration == .defaults)
        #expect(loaded.problem?.hasPrefix("cannot read \(file): ") == true, "\(loaded.problem ?? "")")
        #expect(loaded.problem?.contains("will not save over it") == true)
    }

    @Test("a save into a directory that cannot be made names it and changes nothing")
    func saveFails() throws {
        let dir = TemporaryDirectory()
        try Data("a file, not a directory".utf8).write(to: URL(fileURLWithPath: dir.path + "/tiltmaze"))
        let store = CalibrationStore(directory: dir.path + "/tiltmaze/calibration")
        guard case .failure(let error) = store.save(tilted, for: "simulated board") else {
            Issue.record("saved into a file")
            return
        }
        #expect(error.description.hasPrefix("cannot make \(dir.path)/tiltmaze/calibration"), "\(error)")
        #expect(dir.names() == ["tiltmaze"])
    }

    @Test("a neutral steeper than 30° in a file is clamped on reading")
    func clampedOnRead() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationStore(directory: dir.path)
        let text = "{\"format\":\"tiltmaze-calibration\",\"version\":1,\"device\":\"simulated board\",\"neutral_up\":[0,1,1],\"correction\":true,\"gyro_bias_rad_s\":[0,0,0]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path(for: "simulated board")))
        let reference = store.load("simulated board").calibration.reference
        #expect(reference.wasClamped && abs(reference.angleFromLevel - TiltReference.maximumAngle) < 1e-9)
    }

    private func hash(_ s: String) -> String {
        var h: UInt32 = 2_166_136_261
        for b in s.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
