// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Foundation
import MockDevices

/// `tiltmaze devices`, `monitor` and `play` on mock evdev devices: a
/// DualSense's motion node and gamepad node (same uniq). The child process
/// inherits the preload and `UMOCKDEV_DIR`; its ioctls are answered by this
/// process's handlers.
@Suite("tiltmaze with mock evdev devices", .serialized, .enabled(if: UmockdevPreload.isActive))
struct EvdevCommandTests {
    static let motionName = "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors"

    /// Counts for a DualSense whose right edge is lowered by about 25°: in its
    /// frame (+X right grip, +Y out of the face, +Z towards the player) the
    /// specific force is −X and +Y.
    static func tiltedRight(device: UInt32, at time: Int64) -> [MockInputEvent] {
        let counts = { (ms2: Double) in Int32((ms2 / 9.80665 * 8192).rounded()) }
        return MockInputEvent.motionFrame(accel: (counts(-4.14), counts(8.89), 0), gyro: (0, 0, 0),
                                          deviceMicroseconds: device, at: time)
    }

    /// A button pressed and released on the gamepad node.
    static func press(_ code: UInt16, at time: Int64) -> [MockInputEvent] {
        [.key(code, 1, at: time), .synReport(at: time), .key(code, 0, at: time + 50_000_000), .synReport(at: time + 50_000_000)]
    }

    /// The D-pad (ABS_HAT0Y) pushed down and back.
    static func dpadDown(at time: Int64) -> [MockInputEvent] {
        [.abs(LinuxInput.ABS_HAT0Y, 1, at: time), .synReport(at: time),
         .abs(LinuxInput.ABS_HAT0Y, 0, at: time + 50_000_000), .synReport(at: time + 50_000_000)]
    }

    @Test("devices lists the DualSense motion node with its units, clock, axis convention, gamepad and access")
    func devicesListsController() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 0))
            try testbed.add(MockEvdevDevice.dualSenseGamepad(eventNumber: 1))
            let r = try ProgramRunner.run(["devices"])
            #expect(r.status == 0, "\(r)")
            #expect(r.stdout.contains("\(Self.motionName)  (evdev, use --source evdev:/dev/input/event0)"))
            #expect(r.stdout.contains("accelerometer: ABS_X/Y/Z, 8192 per g"))
            #expect(r.stdout.contains("gyroscope: ABS_RX/RY/RZ, 1024 per °/s"))
            #expect(r.stdout.contains("timestamps: MSC_TIMESTAMP"))
            #expect(r.stdout.contains("axes: DualSense convention, mount matrix 1, 0, 0; 0, 0, -1; 0, 1, 0"))
            #expect(r.stdout.contains("gamepad: Sony Interactive Entertainment DualSense Wireless Controller (/dev/input/event1)"))
            #expect(r.stdout.contains("access: /dev/input/event0: ok"))
        }
    }

    @Test("monitor --source evdev --json prints the frames in SI units in the board frame, timed by MSC_TIMESTAMP")
    func monitorJSON() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let motion = MockEvdevDevice.dualSenseMotion(eventNumber: 0)
            try testbed.add(motion)
            // Queued before the monitor opens the node: it reads them first.
            let frames = MockInputEvent.motionFrame(accel: (0, 8192, 0), gyro: (1024, 0, -2048), deviceMicroseconds: 1000, at: 5_000_000_000)
                + MockInputEvent.motionFrame(accel: (4096, 8192, -4096), gyro: (0, 0, 0), deviceMicroseconds: 5000, at: 5_004_300_000)
            try testbed.writeEvents(frames, to: motion.devicePath)
            let r = try ProgramRunner.run(["monitor", "--source", "evdev:event0", "--json", "--samples", "2"])
            #expect(r.status == 0, "\(r)")
            let g = 9.80665, d = Double.pi / 180
            let device = "\(Self.motionName) on /dev/input/event0"
            // Board = (X, −Z, Y) of the device; the second frame is 4 ms after the first by the controller's clock.
            // Each row is the raw sample's fields, then the fused ones.
            #expect(r.stdout.split(separator: "\n").map(rawPart) == [
                "{\"t_ns\":5000000000,\"accel\":[0.0,0.0,\(8192 * (g / 8192))],\"gyro\":[\(1024.0 / 1024 * d),\(-(-2048.0 / 1024 * d)),0.0],\"device\":\"\(device)\"}",
                "{\"t_ns\":5004000000,\"accel\":[\(4096 * (g / 8192)),\(-(-4096 * (g / 8192))),\(8192 * (g / 8192))],\"gyro\":[0.0,0.0,0.0],\"device\":\"\(device)\"}",
            ])
        }
    }

    @Test("play: the tilted controller rolls the ball; its gamepad opens and closes the menu; unplugged, the game pauses and resumes when it is back; the menu quits")
    func playsWithController() throws {
        let motion = MockEvdevDevice.dualSenseMotion(eventNumber: 0)
        let gamepad = MockEvdevDevice.dualSenseGamepad(eventNumber: 1)
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(motion)
            try testbed.add(gamepad)
            let pane = try TmuxPane.seeingMockDevices(columns: 100, rows: 24)
            try pane.runTiltmaze("play --source evdev --level \(ProgramRunner.firstRoll)")
            _ = try pane.waitFor { $0.contains("sensor: Sony Interactive") }
            let start = try #require(try pane.ballPosition())

            var t: Int64 = 1_000_000_000
            var device: UInt32 = 0
            // Stops as soon as the ball has moved; the bound only catches a hang.
            let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
            var moved = start
            while Date() < deadline {
                var batch: [MockInputEvent] = []
                for _ in 0..<10 { batch += Self.tiltedRight(device: device, at: t); t += 4_000_000; device &+= 4000 }
                try testbed.writeEvents(batch, to: motion.devicePath, waitUntilQueued: false)
                usleep(50_000)
                if let p = try pane.ballPosition() { moved = p }
                if moved.column > start.column + 8 { break }
            }
            #expect(moved.column > start.column + 8, "ball went from \(start) to \(moved)")

            try testbed.writeEvents(Self.press(LinuxInput.BTN_START, at: t), to: gamepad.devicePath, waitUntilQueued: false)
            let menu = try pane.waitFor { $0.contains("Resume") }
            #expect(menu.contains("PAUSED") && menu.contains("Restart") && menu.contains("Quit"))
            try testbed.writeEvents(Self.press(LinuxInput.BTN_EAST, at: t), to: gamepad.devicePath, waitUntilQueued: false)
            _ = try pane.waitFor { !$0.contains("Resume") }

            try testbed.unplug(motion)
            let away = try pane.waitFor { $0.contains("disconnected") }
            #expect(away.contains("PAUSED") == false, "the notice replaces PAUSED on the status line")
            #expect(!TmuxPane.showsExit(away))
            #expect(try pane.variable("alternate_on") == "1")

            try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 3))
            _ = try pane.waitFor { !$0.contains("disconnected") }

            try testbed.writeEvents(Self.press(LinuxInput.BTN_START, at: t), to: gamepad.devicePath, waitUntilQueued: false)
            _ = try pane.waitFor { $0.contains("Resume") }
            for _ in 0..<4 {   // Restart, Calibrate here, Settings, Quit
                try testbed.writeEvents(Self.dpadDown(at: t), to: gamepad.devicePath, waitUntilQueued: false)
                usleep(100_000)
            }
            try testbed.writeEvents(Self.press(LinuxInput.BTN_SOUTH, at: t), to: gamepad.devicePath, waitUntilQueued: false)
            let after = try pane.waitFor(timeout: 10) { TmuxPane.showsExit($0) }
            #expect(after.contains("tiltmaze-exit=0"))
            #expect(try pane.variable("alternate_on") == "0")
        }
    }

    @Test("play with the Sense HAT joystick alone: it is grabbed, its press opens the menu, down four times and press quits", arguments: [
        MockEvdevDevice.SenseHatJoystickDriver.rpisenseJS, .sensehatJoystick,
    ])
    func senseHatJoystick(driver: MockEvdevDevice.SenseHatJoystickDriver) throws {
        let joystick = MockEvdevDevice.senseHatJoystick(eventNumber: 0, driver: driver)
        let (down, press) = driver == .rpisenseJS ? (LinuxInput.KEY_DOWN, LinuxInput.KEY_ENTER) : (LinuxInput.BTN_DPAD_DOWN, LinuxInput.BTN_SELECT)
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let handler = try testbed.add(joystick)
            let pane = try TmuxPane.seeingMockDevices(columns: 80, rows: 24)
            try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
            _ = try pane.waitFor { $0.contains("sensor: simulated") }
            #expect(handler.isGrabbed, "the joystick must be grabbed so the console does not type its keys too")
            var t: Int64 = 1_000_000_000
            try testbed.writeEvents(Self.press(press, at: t), to: joystick.devicePath, waitUntilQueued: false)
            _ = try pane.waitFor { $0.contains("Resume") }
            for _ in 0..<4 {   // Restart, Calibrate here, Settings, Quit
                t += 200_000_000
                try testbed.writeEvents(Self.press(down, at: t), to: joystick.devicePath, waitUntilQueued: false)
                usleep(100_000)
            }
            _ = try pane.waitFor { $0.contains("\u{25B6} Quit") }
            try testbed.writeEvents(Self.press(press, at: t + 200_000_000), to: joystick.devicePath, waitUntilQueued: false)
            let after = try pane.waitFor(timeout: 10) { TmuxPane.showsExit($0) }
            #expect(after.contains("tiltmaze-exit=0"))
        }
    }
}

@Suite("tiltmaze with mock evdev devices, under umockdev-wrapper")
struct EvdevCommandTestsUnderPreload {
    @Test("the mock evdev command suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.EvdevCommandTests/")
        #expect(run.passed, "\(run)")
    }
}

/// A `monitor --json` row without its fused fields: the sample as read,
/// closed as the row would be without them.
func rawPart(_ line: some StringProtocol) -> String {
    guard let fused = line.range(of: ",\"gravity\":") else { return String(line) }
    return String(line[..<fused.lowerBound]) + "}"
}
