// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionCore
import MotionDevices
import struct LinuxMotion.Attitude
import TestSupport

@Suite("monitor --json: the attitude's angles, gravity from the player's neutral, --realtime")
struct MonitorJSONTests {
    /// A board held still at `up` (the up direction in the board's frame), `count` samples at 100 Hz.
    func stillRecording(up: Vector3, count: Int = 100, in dir: TemporaryDirectory, name: String) throws -> String {
        let path = dir.path + "/\(name).csv"
        var text = "t_ns,ax,ay,az,gx,gy,gz\n"
        for i in 0 ..< count {
            text += "\(1_000_000_000 + Int64(i) * 10_000_000),\(9.80665 * up.x),\(9.80665 * up.y),\(9.80665 * up.z),0,0,0\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func vector(_ object: [String: Any], _ key: String) throws -> Vector3 {
        let v = try #require(object[key] as? [Double], "\(key) in \(object)")
        return Vector3(v[0], v[1], v[2])
    }

    @Test("pitch, roll and yaw are the library's Attitude of the line's own quaternion, with CoreMotion's signs; the old fields come first, as before",
          arguments: [("top edge up 30°", Vector3(0, sin(30 * Double.pi / 180), cos(30 * Double.pi / 180)), 30.0, 0.0),
                      ("right edge down 20°", Vector3(-sin(20 * Double.pi / 180), 0, cos(20 * Double.pi / 180)), 0.0, 20.0)]
                      as [(String, Vector3, Double, Double)])
    func angles(_ pose: String, up: Vector3, pitch: Double, roll: Double) throws {
        let dir = TemporaryDirectory()
        let path = try stillRecording(up: up, in: dir, name: "still")
        let r = try ProgramRunner.run(["monitor", "--json", "--source", "replay:" + path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 100)
        for line in lines {
            // The fields monitor always gave, in their order, then the new ones at the end.
            #expect(line.range(of: #"^\{"t_ns":\d+,"accel":\[.*\],"gyro":\[.*\],"device":".*","gravity":\[.*\],"attitude":\[.*\],"user_accel":\[.*\],"rotation_rate":\[.*\],"pitch":[-0-9.e]+,"roll":[-0-9.e]+,"yaw":[-0-9.e]+,"calibrated_gravity":\[[^]]*\]\}$"#,
                                options: .regularExpression) != nil, "\(line)")
        }
        for object in try objects(r.stdout) {
            let q = try #require(object["attitude"] as? [Double])
            let attitude = Attitude(Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]))
            // Within parsing's last bit: JSONSerialization does not read every double back exactly.
            for (key, value) in [("pitch", attitude.pitch), ("roll", attitude.roll), ("yaw", attitude.yaw)] {
                let shown = try #require(object[key] as? Double, "\(key) in \(object)")
                #expect(abs(shown - value) < 1e-12, "\(key) \(shown), the Attitude's \(value)")
            }
            // A replay keeps no calibration: gravity from a level neutral is gravity.
            #expect(try vector(object, "calibrated_gravity") == vector(object, "gravity"))
        }
        let last = try #require(try objects(r.stdout).last)
        let degrees = { (key: String) in ((last[key] as? Double) ?? .nan) * 180 / .pi }
        #expect(abs(degrees("pitch") - pitch) < 1, "\(pose): pitch \(degrees("pitch"))°")
        #expect(abs(degrees("roll") - roll) < 1, "\(pose): roll \(degrees("roll"))°")
    }

    @Test("calibrated_gravity is gravity from the neutral stored for the sensor: tipped 20°, the level board reads tipped back")
    func calibratedGravity() throws {
        let dir = TemporaryDirectory()
        let tipped = Vector3(0, sin(20 * Double.pi / 180), cos(20 * Double.pi / 180))
        let neutral = TiltReference(neutralUp: tipped)
        let store = try #require(CalibrationStore.standard(environment: ["XDG_CONFIG_HOME": dir.path]))
        _ = try store.save(DeviceCalibration(reference: neutral), for: "simulated board").get()
        let r = try ProgramRunner.run(["monitor", "--json", "--source", "sim", "--samples", "20"],
                                      environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = try objects(r.stdout)
        #expect(objects.count == 20)
        for object in objects {
            let gravity = try vector(object, "gravity"), calibrated = try vector(object, "calibrated_gravity")
            #expect((calibrated - neutral.apply(to: gravity)).length < 1e-9, "\(calibrated) from \(gravity)")
            #expect((calibrated - gravity).length > 3, "the neutral's 20° shows: \(calibrated) against \(gravity)")
        }
        // With none stored, it is gravity.
        let none = try ProgramRunner.run(["monitor", "--json", "--source", "sim", "--samples", "5"],
                                         environment: ["XDG_CONFIG_HOME": TemporaryDirectory().path])
        for object in try self.objects(none.stdout) {
            #expect(try (vector(object, "calibrated_gravity") - vector(object, "gravity")).length < 1e-12)
        }
    }

    @Test("--realtime prints the same lines as a replay as fast as it can be, but no sooner than the recording's own times")
    func realtime() throws {
        let dir = TemporaryDirectory()
        // 60 samples 10 ms apart: the last is due 0.59 s after the first.
        let path = try stillRecording(up: Vector3(0, 0, 1), count: 60, in: dir, name: "short")
        let fast = try ProgramRunner.run(["monitor", "--json", "--source", "replay:" + path])
        let started = Date()
        let paced = try ProgramRunner.run(["monitor", "--json", "--realtime", "--source", "replay:" + path])
        let took = Date().timeIntervalSince(started)
        #expect(fast.status == 0 && paced.status == 0, "\(paced.stderr)")
        #expect(paced.stdout == fast.stdout)
        #expect(paced.stdout.split(separator: "\n").count == 60)
        // A lower bound only: however slow the machine, pacing cannot make it shorter.
        #expect(took >= 0.59, "\(took) s")
    }

    @Test("--realtime without a replay is refused, saying what it needs")
    func realtimeNeedsAReplay() throws {
        for args in [["monitor", "--json", "--realtime", "--source", "sim"], ["monitor", "--realtime"]] {
            let r = try ProgramRunner.run(args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("--realtime") && r.stderr.contains("--source replay:FILE"), "\(r.stderr)")
        }
    }
}
