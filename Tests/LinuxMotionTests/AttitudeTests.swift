// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import LinuxMotion
import MotionCore
import TestSupport
import MotionDevices

/// `Attitude` reads as CoreMotion's `CMAttitude` does, and the reference
/// frames reach `DeviceMotion` from a recording with a magnetometer.
@Suite("LinuxMotion: attitude as CoreMotion gives it")
struct AttitudeTests {
    static let degree = Double.pi / 180

    /// Yaw about z, then pitch about x, then roll about y.
    static func attitude(yaw: Double, pitch: Double, roll: Double) -> Attitude {
        Attitude((Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
                  * Quaternion(axis: Vector3(0, 1, 0), angle: roll)).normalized)
    }

    @Test("Signs: the top edge raised is positive pitch, the right edge down positive roll, a turn to the left positive yaw")
    func signs() {
        let flat = Attitude(.identity)
        #expect(abs(flat.pitch) + abs(flat.roll) + abs(flat.yaw) < 1e-12)
        let topUp = Attitude(Quaternion(axis: Vector3(1, 0, 0), angle: 30 * Self.degree))
        #expect(abs(topUp.pitch - 30 * Self.degree) < 1e-12)
        #expect(topUp.quaternion.rotate(Vector3(0, 1, 0)).z > 0, "the top edge rose")
        let rightDown = Attitude(Quaternion(axis: Vector3(0, 1, 0), angle: 20 * Self.degree))
        #expect(abs(rightDown.roll - 20 * Self.degree) < 1e-12)
        #expect(rightDown.quaternion.rotate(Vector3(1, 0, 0)).z < 0, "the right edge went down")
        let left = Attitude(Quaternion(axis: Vector3(0, 0, 1), angle: 40 * Self.degree))
        #expect(abs(left.yaw - 40 * Self.degree) < 1e-12)
        let upright = Attitude(Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2))
        #expect(abs(upright.pitch - .pi / 2) < 1e-9, "a board held upright reads π/2")
    }

    @Test("Euler angles read back through their ranges", arguments: [
        (10.0, 20.0, 30.0), (-170.0, 80.0, -120.0), (90.0, -45.0, 175.0), (0.0, -89.0, 0.0), (135.0, 5.0, -5.0),
    ])
    func roundTrip(_ angles: (Double, Double, Double)) {
        let (yaw, pitch, roll) = (angles.0 * Self.degree, angles.1 * Self.degree, angles.2 * Self.degree)
        let a = Self.attitude(yaw: yaw, pitch: pitch, roll: roll)
        #expect(abs(a.yaw - yaw) < 1e-9 && abs(a.pitch - pitch) < 1e-9 && abs(a.roll - roll) < 1e-9,
                "read yaw \(a.yaw / Self.degree), pitch \(a.pitch / Self.degree), roll \(a.roll / Self.degree)")
    }

    @Test("The rotation matrix turns the reference frame into the board's: its third column is up in the board")
    func rotationMatrix() {
        let a = Self.attitude(yaw: 0.3, pitch: -0.7, roll: 1.1)
        let m = a.rotationMatrix
        let up = a.quaternion.conjugate.rotate(Vector3(0, 0, 1))
        #expect((Vector3(m.m13, m.m23, m.m33) - up).length < 1e-12)
        let v = Vector3(0.2, -1.5, 3)
        #expect((m.apply(a.quaternion.rotate(v)) - v).length < 1e-12, "M undoes the attitude's turn")
    }

    @Test("multiply(byInverseOf:) gives the turn since the reference: pitch and roll read from the captured pose")
    func relative() {
        let reference = Self.attitude(yaw: 1.0, pitch: 25 * Self.degree, roll: -10 * Self.degree)
        let turn = Quaternion(axis: Vector3(1, 0, 0), angle: 15 * Self.degree)
        var now = Attitude((reference.quaternion * turn).normalized)
        now.multiply(byInverseOf: reference)
        #expect(abs(now.pitch - 15 * Self.degree) < 1e-9)
        #expect(abs(now.roll) < 1e-9 && abs(now.yaw) < 1e-9)
        #expect(reference.multiplied(byInverseOf: reference).quaternion.w > 1 - 1e-12)
    }

    /// A board turning about a tilted axis, with the Earth's field (x north, 63° dip), as a replay CSV.
    static func writeTurningBoard(to path: String, seconds: Double) throws {
        var text = "t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\n"
        let spin = Vector3(0.2, 0.1, 1) / Vector3(0.2, 0.1, 1).length * (25 * degree)
        let field = Vector3(20, 0, -40)
        for i in 0 ..< Int(seconds * 100) {
            let t = Double(i) / 100
            let q = truth(t, spin: spin)
            let a = q.conjugate.rotate(Vector3(0, 0, 9.80665)), m = q.conjugate.rotate(field)
            text += "\(Int64(t * 1e9)),\(a.x),\(a.y),\(a.z),\(spin.x),\(spin.y),\(spin.z),\(m.x),\(m.y),\(m.z)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func truth(_ t: Double, spin: Vector3) -> Quaternion {
        (Quaternion(axis: Vector3(0, 0, 1), angle: 0.5) * Quaternion(rotationVector: spin * t)).normalized
    }

    @Test("In xMagneticNorthZVertical the heading is the compass's; in the arbitrary frames it is −1")
    func headingThroughTheManager() async throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/turning.csv"
        try Self.writeTurningBoard(to: path, seconds: 6)
        // A replay keeps its recorded pace: the three frames run side by side.
        typealias Final = (frame: AttitudeReferenceFrame, motion: DeviceMotion?, overrun: Int)
        var overruns = 0
        let last = try await withThrowingTaskGroup(of: Final.self) { group in
            for frame in AttitudeReferenceFrame.allCases {
                group.addTask {
                    let manager = MotionManager(source: .replay(path), calibrationStore: nil)
                    defer { manager.stop() }
                    var final: DeviceMotion?
                    for try await motion in try manager.deviceMotionUpdates(using: frame, bufferLimit: 10_000) { final = motion }
                    return Final(frame: frame, motion: final, overrun: manager.samplesOverrun)
                }
            }
            var last: [AttitudeReferenceFrame: DeviceMotion] = [:]
            for try await result in group {
                last[result.frame] = result.motion
                overruns += result.overrun
            }
            return last
        }
        let north = try #require(last[.xMagneticNorthZVertical])
        let field = try #require(north.magneticField)
        #expect(field.accuracy == .uncalibrated)
        #expect(abs(field.field.length - Vector3(20, 0, -40).length) < 1e-6)
        // The truth at the last sample: its top edge's compass heading.
        let t = Double(599) / 100
        let q = Self.truth(t, spin: Vector3(0.2, 0.1, 1) / Vector3(0.2, 0.1, 1).length * (25 * Self.degree))
        let top = q.rotate(Vector3(0, 1, 0))
        var expected = atan2(-top.y, top.x) * 180 / .pi
        if expected < 0 { expected += 360 }
        var difference = abs(north.heading - expected)
        difference = min(difference, 360 - difference)
        #expect(difference < 2, "heading \(north.heading)°, truth \(expected)°")
        #expect(last[.xArbitraryZVertical]?.heading == -1)
        #expect(last[.xArbitraryCorrectedZVertical]?.heading == -1)
        // All three agree on up: exactly, as they read the same samples. On
        // a machine so busy that an update thread did not run for the
        // replay ring's span, that one lost samples the others kept
        // (`samplesOverrun`); then they agree to the filter's accuracy.
        let up = north.attitude.quaternion.conjugate.rotate(Vector3(0, 0, 1))
        for motion in last.values {
            #expect((motion.attitude.quaternion.conjugate.rotate(Vector3(0, 0, 1)) - up).length < (overruns == 0 ? 1e-9 : 0.05),
                    "\(overruns) samples overran the replay rings")
        }
    }
}
