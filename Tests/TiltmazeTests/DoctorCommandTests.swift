// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MockDevices

/// `tiltmaze doctor` on umockdev testbeds. It runs as `nobody` when the tests
/// run as root (root may write anything, so its access checks would say
/// nothing), and the testbed's files are opened or closed to that user the
/// way installed udev rules, or their absence, would leave them.
@Suite("tiltmaze doctor with mock devices", .serialized, .enabled(if: UmockdevPreload.isActive))
struct DoctorCommandTests {
    struct Outcome {
        var status: Int32
        var lines: [String]
        var output: String

        func has(_ line: String) -> Bool { lines.contains(line) }
        func has(prefix: String) -> Bool { lines.contains { $0.hasPrefix(prefix) } }
        var failures: [String] { lines.filter { $0.hasPrefix("FAIL") } }
    }

    /// Runs `tiltmaze doctor` as a player would, against `testbed`; without
    /// its live read unless `live` (the checks here are of what it finds).
    func doctor(_ testbed: Testbed, live: Bool = false) throws -> Outcome {
        UnprivilegedFileAccess.share(testbed)
        let r = try ProgramRunner.run(live ? ["doctor"] : ["doctor", "--no-live"], command: UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary]))
        return Outcome(status: r.status, lines: r.stdout.split(separator: "\n").map(String.init),
                       output: r.stdout + r.stderr)
    }

    /// What udev/70-tiltmaze.rules grants, granted to everyone instead of a
    /// group (the test cannot make groups): the node and every file capture writes.
    func grantCapture(_ testbed: Testbed, _ device: MockIIODevice) throws {
        try testbed.setPermissions(device.devicePath, 0o666)
        let writes = device.channels.filter { $0.scan != nil }.map { "scan_elements/\($0.direction)_\($0.id)_en" }
            + ["buffer/enable", "buffer/length", "buffer/watermark", "trigger/current_trigger",
               "sampling_frequency", "current_timestamp_clock"]
        for file in writes {
            let path = "\(device.sysfsPath)/\(file)"
            if testbed.readFile(path) != nil { try testbed.setPermissions(path, 0o666) }
        }
    }

    /// A testbed holding `device`, open to the player as the rules would leave it.
    func withGrantedIMU(_ device: MockIIODevice, _ body: (Testbed, MockIIODevice) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(device)
            try grantCapture(testbed, device)
            try body(testbed, device)
        }
    }

    @Test("healthy: an MPU-6050 with its data-ready trigger, open to the player, and a framebuffer: exit 0")
    func healthy() throws {
        try withGrantedIMU(mpu6050()) { testbed, mpu in
            try testbed.add(MockFramebuffer.piHDMI())
            try testbed.setPermissions("/dev/fb0", 0o666)
            let d = try doctor(testbed)
            #expect(d.status == 0, "\(d.output)")
            #expect(d.failures.isEmpty, "\(d.output)")
            #expect(d.has(prefix: "OK   libraries: libiio 0."))
            #expect(d.has("OK   IIO: mpu6050 on iio:device0 (accel, anglvel)"), "\(d.output)")
            #expect(d.has("OK   IIO access: iio:device0 (mpu6050): /dev/iio:device0 and its 14 attributes are yours to read and write"), "\(d.output)")
            #expect(d.has("OK   trigger: iio:device0 (mpu6050) uses its data-ready trigger mpu6050-dev0"), "\(d.output)")
            #expect(d.has("OK   framebuffer: fb0 \"vc4drmfb\" 1920×1080, RGB565, line length 3840 bytes, /dev/fb0 readable and writable"), "\(d.output)")
            #expect(d.lines.last == "OK   ready: tiltmaze play will use mpu6050 on iio:device0", "\(d.output)")
            // No trigger to make, so missing hrtimer support is only noted.
            #expect(d.has(prefix: "OK   trigger: no hrtimer triggers: configfs is not mounted"), "\(d.output)")
        }
    }

    @Test("live: an MPU-6050 whose data-ready trigger never fires is read by polling, and the live line says why; exit 0")
    func liveSilentTrigger() throws {
        try withGrantedIMU(mpu6050()) { testbed, _ in
            let d = try doctor(testbed, live: true)
            #expect(d.status == 0, "\(d.output)")
            let live = try #require(d.lines.last, "\(d.output)")
            #expect(live.hasPrefix("WARN live: mpu6050 on iio:device0: ") && live.contains(" samples")
                    && live.hasSuffix("; the data-ready interrupt never fired (is INT wired to GPIO4, or `int_pin=` set?): polling instead"),
                    "\(d.output)")
            // Put back as found: the trigger, the rate, the buffer off.
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "0")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
        }
    }

    @Test("attributes the game writes that the player may not: each named with the fix; exit 1")
    func unwritableAttributes() throws {
        try withGrantedIMU(mpu6050()) { testbed, mpu in
            for file in ["buffer/enable", "trigger/current_trigger"] {
                try testbed.setPermissions("\(mpu.sysfsPath)/\(file)", 0o644)
            }
            let d = try doctor(testbed)
            #expect(d.status == 1, "\(d.output)")
            let refused = d.lines.filter { $0.hasPrefix("FAIL IIO access: iio:device0 (mpu6050): ") }
            #expect(refused.count == 2, "\(d.output)")
            for file in ["buffer/enable", "trigger/current_trigger"] {
                let line = refused.first { $0.contains("/sys/bus/iio/devices/iio:device0/\(file): ") }
                #expect(line?.contains("not readable and writable by you") == true, "\(d.output)")
                #expect(line?.contains("mode 644") == true, "\(d.output)")
                #expect(line?.contains("udev/README.md") == true, "\(d.output)")
            }
            #expect(d.lines.last?.hasPrefix("FAIL ready: no motion sensor you can use") == true, "\(d.output)")
            #expect(d.lines.last?.contains("Fix the FAIL lines above") == true, "\(d.output)")
        }
    }

    /// An MPU-6050 as the kernel shows it before anyone captured: with its
    /// buffer directory (the preset leaves it for libiio to make).
    func mpu6050() -> MockIIODevice {
        var mpu = MockIIODevice.mpu6050()
        mpu.buffer = (length: 1, watermark: 1, enabled: false)
        return mpu
    }

    /// A chip that takes a trigger but has no data-ready trigger (as bmi270).
    func triggerlessChip() -> MockIIODevice {
        var chip = mpu6050()
        chip.name = "bmi270"
        chip.trigger = nil
        return chip
    }

    @Test("no data-ready trigger and no configfs: the trigger line fails with how to get one; exit 1")
    func missingTrigger() throws {
        try withGrantedIMU(triggerlessChip()) { testbed, chip in
            let d = try doctor(testbed)
            #expect(d.status == 1, "\(d.output)")
            #expect(d.has("OK   IIO access: iio:device0 (bmi270): /dev/iio:device0 and its 14 attributes are yours to read and write"), "\(d.output)")
            let trigger = d.lines.first { $0.hasPrefix("FAIL trigger: iio:device0 (bmi270) has no data-ready trigger (a driver that has one makes it only when the chip's interrupt pin is wired and declared: hardware.md) and no hrtimer trigger can be had: ") }
            #expect(trigger?.contains("configfs is not mounted") == true, "\(d.output)")
            #expect(trigger?.contains("sudo udev/install.sh --hrtimer") == true, "\(d.output)")
            #expect(d.has(prefix: "WARN trigger: no hrtimer triggers: configfs is not mounted"), "\(d.output)")
            #expect(!d.has(prefix: "FAIL IIO access"), "\(d.output)")
            #expect(d.lines.last?.hasPrefix("FAIL ready:") == true, "\(d.output)")
        }
    }

    @Test("no data-ready trigger, but hrtimer triggers can be made (the rules' configfs grant): exit 0")
    func hrtimerCanBeMade() throws {
        try withGrantedIMU(triggerlessChip()) { testbed, chip in
            let hrtimer = testbed.realPath("/sys/kernel/config/iio/triggers/hrtimer")
            try FileManager.default.createDirectory(atPath: hrtimer, withIntermediateDirectories: true)
            try testbed.setPermissions("/sys/kernel/config/iio/triggers/hrtimer", 0o777)
            let d = try doctor(testbed)
            #expect(d.status == 0, "\(d.output)")
            #expect(d.has("OK   trigger: iio:device0 (bmi270) has no data-ready trigger; the game makes hrtimer trigger tiltmaze in configfs"), "\(d.output)")
            #expect(d.has("OK   trigger: hrtimer triggers can be made by you (/sys/kernel/config/iio/triggers/hrtimer)"), "\(d.output)")
        }
    }

    @Test("an hrtimer trigger made at boot is used, and its rate said with whose it is: exit 0")
    func hrtimerMadeAtBoot() throws {
        try withGrantedIMU(triggerlessChip()) { testbed, chip in
            try testbed.add(MockIIOTrigger(id: "trigger3", name: "tiltmaze", attributes: ["sampling_frequency": "100"]))
            let d = try doctor(testbed)
            #expect(d.status == 0, "\(d.output)")
            #expect(d.has("OK   trigger: iio:device0 (bmi270) has no data-ready trigger; uses hrtimer trigger tiltmaze at 100 Hz (root's to change: hardware.md)"), "\(d.output)")
        }
    }

    @Test("no devices at all: says where to look; exit 1")
    func noDevices() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let d = try doctor(testbed)
            #expect(d.status == 1, "\(d.output)")
            #expect(d.has("WARN IIO: no IIO devices: no I²C IMU is bound (wiring and config.txt: hardware.md)"), "\(d.output)")
            #expect(d.has("WARN evdev: no input node with INPUT_PROP_ACCELEROMETER: no motion controller connected (pairing: hardware.md)"), "\(d.output)")
            #expect(d.has("WARN framebuffer: none (no fb* in /sys/class/graphics): the game draws in the terminal"), "\(d.output)")
            #expect(!d.has(prefix: "OK   trigger"), "\(d.output)")
            #expect(d.failures == [d.lines.last], "\(d.output)")
            #expect(d.lines.last?.contains("wire an IMU or connect a controller") == true, "\(d.output)")
        }
    }

    @Test("a framebuffer whose layout cannot be drawn (8 bpp) is named with what to do, from the driver's own layout")
    func undrawableFramebuffer() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockFramebuffer(number: 0, name: "oldfb", width: 640, height: 480, bitsPerPixel: 8))
            try testbed.setPermissions("/dev/fb0", 0o666)
            let d = try doctor(testbed)
            let line = d.lines.first { $0.hasPrefix("WARN framebuffer: fb0 \"oldfb\" 640×480: cannot draw pixel format") }
            #expect(line?.contains("only 16, 24 and 32") == true, "\(d.output)")
            #expect(line?.contains("16 or 32 bpp") == true, "\(d.output)")
        }
    }

    @Test("a DualSense the player may read (no IIO): its motion node and buttons; exit 0")
    func readableController() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 4))
            try testbed.add(MockEvdevDevice.dualSenseGamepad(eventNumber: 3))
            try testbed.setPermissions("/dev/input/event4", 0o644)
            try testbed.setPermissions("/dev/input/event3", 0o644)
            let d = try doctor(testbed)
            #expect(d.status == 0, "\(d.output)")
            #expect(d.has("OK   IIO: no IIO devices: no I²C IMU is bound (wiring and config.txt: hardware.md)"), "\(d.output)")
            #expect(d.has("OK   evdev: Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors (/dev/input/event4): readable"), "\(d.output)")
            #expect(d.has("OK   evdev: Sony Interactive Entertainment DualSense Wireless Controller (/dev/input/event3): readable (its buttons pause and restart)"), "\(d.output)")
            #expect(d.lines.last == "OK   ready: tiltmaze play will use Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors on /dev/input/event4", "\(d.output)")
        }
    }

    @Test("a motion node the player may not read, and a Sense HAT matrix not writable: named with the fix; exit 1")
    func unreadableController() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 4))
            try testbed.setPermissions("/dev/input/event4", 0o600)
            try testbed.add(MockEvdevDevice.senseHatJoystick(eventNumber: 2))
            try testbed.setPermissions("/dev/input/event2", 0o644)
            try testbed.add(MockFramebuffer.senseHatMatrix(number: 1))
            try testbed.setPermissions("/dev/fb1", 0o644)
            let d = try doctor(testbed)
            #expect(d.status == 1, "\(d.output)")
            let motion = d.lines.first { $0.hasPrefix("FAIL evdev: Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors: /dev/input/event4: not readable by you") }
            #expect(motion?.contains("mode 600") == true, "\(d.output)")
            #expect(motion?.contains("udev/README.md") == true, "\(d.output)")
            #expect(d.has("OK   evdev: Raspberry Pi Sense HAT Joystick (/dev/input/event2): readable (menus, and tilt without a sensor)"), "\(d.output)")
            #expect(d.has(prefix: "WARN framebuffer: fb1 \"RPi-Sense FB\" (Sense HAT LED matrix) 8×8, 16 bpp: /dev/fb1: not readable and writable by you"), "\(d.output)")
            #expect(d.lines.last?.hasPrefix("FAIL ready:") == true, "\(d.output)")
        }
    }

    @Test("--source auto passes over the IMUs doctor fails, saying why, as doctor's ready line does")
    func autoAgrees() throws {
        try withGrantedIMU(triggerlessChip()) { testbed, chip in
            UnprivilegedFileAccess.share(testbed)
            let command = UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary])
            let noTrigger = try ProgramRunner.run(["monitor", "--source", "auto", "--samples", "1"], command: command)
            #expect(noTrigger.status == 0, "\(noTrigger.stderr)")
            #expect(noTrigger.stderr.contains("reading simulated board (bmi270 has no trigger: `tiltmaze doctor` says why)"), "\(noTrigger.stderr)")

            try testbed.add(MockIIOTrigger(id: "trigger3", name: "tiltmaze", attributes: ["sampling_frequency": "100"]))
            try testbed.setPermissions("\(chip.sysfsPath)/trigger/current_trigger", 0o644)
            let refused = try ProgramRunner.run(["monitor", "--source", "auto", "--samples", "1"], command: command)
            #expect(refused.stderr.contains("reading simulated board (no permission for /sys/bus/iio/devices/iio:device0/trigger/current_trigger: `tiltmaze doctor` says why)"), "\(refused.stderr)")
        }
    }

    @Test("--wait-for-sensor looks again while no sensor is there, then falls back to the simulated board")
    func waitForSensorNone() throws {
        let empty = Testbed()
        try withExtendedLifetime(empty) {
            UnprivilegedFileAccess.share(empty)
            let command = UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary])
            let r = try ProgramRunner.run(["monitor", "--source", "auto", "--wait-for-sensor", "1", "--samples", "1"], command: command)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("no motion sensor yet: looking again for up to 1 s (--wait-for-sensor)"), "\(r.stderr)")
            #expect(r.stderr.contains("reading simulated board (no IMU found)"), "\(r.stderr)")
        }
    }

    @Test("--wait-for-sensor takes a sensor that is already there at once")
    func waitForSensorPresent() throws {
        let present = Testbed()
        try withExtendedLifetime(present) {
            try present.add(MockEvdevDevice.dualSenseMotion(eventNumber: 4))
            try present.setPermissions("/dev/input/event4", 0o644)
            UnprivilegedFileAccess.share(present)
            let command = UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary])
            let r = try ProgramRunner.run(["monitor", "--source", "auto", "--wait-for-sensor", "30", "--samples", "1"], command: command, timeout: 4)
            #expect(!r.stderr.contains("looking again"), "\(r.stderr)")
            #expect(r.stderr.contains("reading Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors on /dev/input/event4"), "\(r.stderr)")
        }
    }

    /// What `doctor`, `devices` and `monitor --source auto` each say `--source auto`
    /// uses, run as the player on `testbed`.
    func autoAnswers(_ testbed: Testbed) throws -> (doctor: String?, devices: String?, monitor: String?) {
        UnprivilegedFileAccess.share(testbed)
        let command = UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary])
        let d = try doctor(testbed)
        let devices = try ProgramRunner.run(["devices"], command: command)
        // A real sensor that sends nothing keeps monitor waiting (an IIO one
        // gives up after 2 s): the first line is all this needs, so a short bound.
        let monitor = try ProgramRunner.run(["monitor", "--source", "auto", "--samples", "1"], command: command, timeout: 4)
        let ready = d.lines.last.flatMap { line in
            line.hasPrefix("OK   ready: tiltmaze play will use ") ? String(line.dropFirst(35)) : nil
        }
        let listed = devices.stdout.split(separator: "\n").last { $0.hasPrefix("--source auto uses: ") }.map { String($0.dropFirst(20)) }
        let reading = monitor.stderr.split(separator: "\n").first { $0.hasPrefix("tiltmaze: reading ") }
            .map { String($0.dropFirst(18).prefix { $0 != ";" }) }
        return (ready, listed, reading)
    }

    @Test("doctor, devices and --source auto name the same sensor, or the same reasons for the simulated board")
    func oneSelection() throws {
        try withGrantedIMU(mpu6050()) { testbed, _ in
            let a = try autoAnswers(testbed)
            #expect(a.doctor == "mpu6050 on iio:device0")
            #expect(a.devices == a.doctor && a.monitor == a.doctor, "\(a)")
        }
        try withGrantedIMU(triggerlessChip()) { testbed, _ in
            let a = try autoAnswers(testbed)
            #expect(a.doctor == nil)
            #expect(a.devices == "simulated board (bmi270 has no trigger: `tiltmaze doctor` says why)", "\(a)")
            #expect(a.monitor == a.devices, "\(a)")
        }
        for mode in [0o644, 0o600] as [mode_t] {
            let testbed = Testbed()
            try withExtendedLifetime(testbed) {
                try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 4))
                try testbed.setPermissions("/dev/input/event4", mode)
                let a = try autoAnswers(testbed)
                if mode == 0o644 {
                    #expect(a.doctor == "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors on /dev/input/event4")
                    #expect(a.devices == a.doctor && a.monitor == a.doctor, "\(a)")
                } else {
                    #expect(a.doctor == nil)
                    #expect(a.devices == "simulated board (no permission for /dev/input/event4: `tiltmaze doctor` says why)", "\(a)")
                    #expect(a.monitor == a.devices, "\(a)")
                }
            }
        }
    }
}

@Suite("tiltmaze doctor with mock devices, under umockdev-wrapper")
struct DoctorCommandTestsUnderPreload {
    @Test("the doctor suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.DoctorCommandTests/")
        #expect(run.passed, "\(run)")
    }
}
