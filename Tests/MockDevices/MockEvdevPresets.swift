// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Fake input devices shaped like the drivers a TiltMaze player meets
/// (the kernel drivers' input ABI). Names, capabilities and absinfo follow
/// the kernel sources named on each; sysfs parents, phys strings and
/// version numbers are plausible, not copied from hardware, except the
/// DualSense's, which KernelFixtureTests checks against what the real
/// hid-playstation registered in the qemu tier (Tests/Fixtures/kernel).
extension MockEvdevDevice {
    /// The motion node of a DualSense on USB, as hid-playstation registers it
    /// (`ps_sensors_create`): "<hid name> Motion Sensors",
    /// INPUT_PROP_ACCELEROMETER, ABS_X/Y/Z at 8192 per g over ±4 g
    /// (`DS_ACC_RES_PER_G`, `DS_ACC_RANGE`), ABS_RX/RY/RZ at 1024 per °/s
    /// over ±2048 °/s (`DS_GYRO_RES_PER_DEG_S`, `DS_GYRO_RANGE`), fuzz 16,
    /// flat 0, MSC_TIMESTAMP in µs. `uniq` is the controller's MAC as
    /// `%pMR` prints it (lower case); its gamepad node has the same.
    public static func dualSenseMotion(eventNumber: Int = 0, uniq: String = "aa:bb:cc:dd:ee:ff") -> MockEvdevDevice {
        let accel = MockAbsInfo(minimum: -32768, maximum: 32768, fuzz: 16, flat: 0, resolution: 8192)
        let gyro = MockAbsInfo(minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, flat: 0, resolution: 1024)
        return MockEvdevDevice(
            eventNumber: eventNumber,
            name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
            uniq: uniq, id: dualSenseID,
            properties: [LinuxInput.INPUT_PROP_ACCELEROMETER],
            codes: [LinuxInput.EV_ABS: motionAxes, LinuxInput.EV_MSC: [LinuxInput.MSC_TIMESTAMP]],
            absInfo: [LinuxInput.ABS_X: accel, LinuxInput.ABS_Y: accel, LinuxInput.ABS_Z: accel,
                      LinuxInput.ABS_RX: gyro, LinuxInput.ABS_RY: gyro, LinuxInput.ABS_RZ: gyro],
            parent: dualSenseHID,
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "ID_BUS": "usb"])
    }

    /// The gamepad node of the same DualSense (`ps_gamepad_create`): the HID
    /// name, sticks and triggers on ABS_X/Y/Z/RX/RY/RZ (0…255), the D-pad on
    /// ABS_HAT0X/Y (−1…1), the face, shoulder and menu buttons, rumble.
    public static func dualSenseGamepad(eventNumber: Int = 1, uniq: String = "aa:bb:cc:dd:ee:ff") -> MockEvdevDevice {
        let stick = MockAbsInfo(value: 128, minimum: 0, maximum: 255)
        let trigger = MockAbsInfo(minimum: 0, maximum: 255)
        let hat = MockAbsInfo(minimum: -1, maximum: 1)
        return MockEvdevDevice(
            eventNumber: eventNumber,
            name: "Sony Interactive Entertainment DualSense Wireless Controller",
            uniq: uniq, id: dualSenseID,
            codes: [
                LinuxInput.EV_ABS: motionAxes.union([LinuxInput.ABS_HAT0X, LinuxInput.ABS_HAT0Y]),
                LinuxInput.EV_KEY: [LinuxInput.BTN_WEST, LinuxInput.BTN_EAST, LinuxInput.BTN_NORTH, LinuxInput.BTN_SOUTH,
                                    LinuxInput.BTN_TL, LinuxInput.BTN_TR, LinuxInput.BTN_TL2, LinuxInput.BTN_TR2,
                                    LinuxInput.BTN_SELECT, LinuxInput.BTN_START, LinuxInput.BTN_MODE,
                                    LinuxInput.BTN_THUMBL, LinuxInput.BTN_THUMBR],
                // ff-memless (rumble) registers the periodic effects and gain too.
                LinuxInput.EV_FF: [LinuxInput.FF_RUMBLE, LinuxInput.FF_PERIODIC, LinuxInput.FF_SQUARE,
                                   LinuxInput.FF_TRIANGLE, LinuxInput.FF_SINE, LinuxInput.FF_GAIN],
            ],
            absInfo: [LinuxInput.ABS_X: stick, LinuxInput.ABS_Y: stick, LinuxInput.ABS_Z: trigger,
                      LinuxInput.ABS_RX: stick, LinuxInput.ABS_RY: stick, LinuxInput.ABS_RZ: trigger,
                      LinuxInput.ABS_HAT0X: hat, LinuxInput.ABS_HAT0Y: hat],
            parent: dualSenseHID,
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1", "ID_BUS": "usb"])
    }

    /// The IMU node of a left Joy-Con on Bluetooth, as hid-nintendo registers
    /// it: "Nintendo Switch Left Joy-Con IMU", INPUT_PROP_ACCELEROMETER,
    /// ABS_X/Y/Z at 4096 per g over ±32767 (`JC_IMU_ACCEL_RES_PER_G`,
    /// `JC_IMU_MAX_ACCEL_MAG`), ABS_RX/RY/RZ at 14247 per °/s over
    /// ±32767000 (`JC_IMU_GYRO_RES_PER_DPS`, `JC_IMU_MAX_GYRO_MAG`), fuzz
    /// 10, flat 0, MSC_TIMESTAMP. The driver sends three samples per 15 ms
    /// report, each its own frame. `uniq` is the MAC as `%02X:…` prints it (upper case).
    /// Since Linux 6.4 the driver names the gamepad node with the HID
    /// device's own name and the IMU node after it, "Joy-Con (L) (IMU)"
    /// (`.hidName`): Raspberry Pi OS's 6.12 does.
    public static func joyConLeftIMU(eventNumber: Int = 0, uniq: String = "98:B6:E9:01:02:03",
                                     naming: JoyConIMUNaming = .suffixed) -> MockEvdevDevice {
        let accel = MockAbsInfo(minimum: -32767, maximum: 32767, fuzz: 10, flat: 0, resolution: 4096)
        let gyro = MockAbsInfo(minimum: -32_767_000, maximum: 32_767_000, fuzz: 10, flat: 0, resolution: 14247)
        return MockEvdevDevice(
            eventNumber: eventNumber,
            name: naming == .suffixed ? "Nintendo Switch Left Joy-Con IMU" : "Joy-Con (L) (IMU)",
            phys: "11:22:33:44:55:66", uniq: uniq,
            // hid-nintendo ORs 0x8000 into the version, as hid-playstation does.
            id: MockInputID(bustype: LinuxInput.BUS_BLUETOOTH, vendor: 0x057e, product: 0x2006, version: 0x8001),
            properties: [LinuxInput.INPUT_PROP_ACCELEROMETER],
            codes: [LinuxInput.EV_ABS: motionAxes, LinuxInput.EV_MSC: [LinuxInput.MSC_TIMESTAMP]],
            absInfo: [LinuxInput.ABS_X: accel, LinuxInput.ABS_Y: accel, LinuxInput.ABS_Z: accel,
                      LinuxInput.ABS_RX: gyro, LinuxInput.ABS_RY: gyro, LinuxInput.ABS_RZ: gyro],
            parent: "/devices/virtual/misc/uhid/0005:057E:2006.0002",
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "ID_BUS": "bluetooth"])
    }

    /// How hid-nintendo names a controller's IMU node.
    public enum JoyConIMUNaming: Sendable {
        /// "… Joy-Con IMU", up to Linux 6.3 (Debian bookworm's 6.1).
        case suffixed
        /// The HID device's name and " (IMU)", "Joy-Con (L) (IMU)", since 6.4
        /// (Debian trixie's and Raspberry Pi OS's 6.12).
        case hidName
    }

    /// An accelerometer with ABS_X/Y/Z only, no resolution (0), no gyro and
    /// no MSC_TIMESTAMP. Shaped like lis3lv02d's "ST LIS3LV02DL Accelerometer"
    /// (HP laptops: BUS_HOST, phys "lis3lv02d/input0", fuzz and flat 3),
    /// except that it sets INPUT_PROP_ACCELEROMETER (pass `false` for the
    /// real driver, which does not; udev's input_id then tags it by its
    /// three axes). The ±2048 range is a guess.
    public static func accelOnly(eventNumber: Int = 0, accelerometerProperty: Bool = true) -> MockEvdevDevice {
        let axis = MockAbsInfo(minimum: -2048, maximum: 2048, fuzz: 3, flat: 3, resolution: 0)
        return MockEvdevDevice(
            eventNumber: eventNumber,
            name: "ST LIS3LV02DL Accelerometer",
            phys: "lis3lv02d/input0",
            id: MockInputID(bustype: LinuxInput.BUS_HOST),
            properties: accelerometerProperty ? [LinuxInput.INPUT_PROP_ACCELEROMETER] : [],
            codes: [LinuxInput.EV_ABS: [LinuxInput.ABS_X, LinuxInput.ABS_Y, LinuxInput.ABS_Z]],
            absInfo: [LinuxInput.ABS_X: axis, LinuxInput.ABS_Y: axis, LinuxInput.ABS_Z: axis],
            parent: "/devices/platform/lis3lv02d",
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1"])
    }

    /// Which kernel driver registered the Sense HAT joystick; they differ in
    /// the codes (unverified on hardware which one a given Raspberry Pi OS
    /// kernel uses).
    public enum SenseHatJoystickDriver: Sendable {
        /// The Raspberry Pi kernel's `rpisense-js`: KEY_DOWN, KEY_RIGHT,
        /// KEY_UP, KEY_ENTER, KEY_LEFT; phys "rpi-sense-joy/input0". The
        /// codes the Python `sense_hat` library expects.
        case rpisenseJS
        /// Mainline `sensehat-joystick`: BTN_DPAD_DOWN, BTN_DPAD_RIGHT,
        /// BTN_DPAD_UP, BTN_SELECT, BTN_DPAD_LEFT; phys "sensehat-joystick/input0".
        case sensehatJoystick
    }

    /// The Sense HAT joystick: "Raspberry Pi Sense HAT Joystick", BUS_I2C,
    /// EV_KEY and EV_REP (both drivers set `BIT_MASK(EV_KEY) | BIT_MASK(EV_REP)`;
    /// the input core's default repeat is 250 ms delay, 33 ms period).
    /// Five codes, which depend on `driver`. The sysfs parent is a guess.
    public static func senseHatJoystick(eventNumber: Int = 0, driver: SenseHatJoystickDriver = .rpisenseJS) -> MockEvdevDevice {
        let keys: Set<UInt16>
        let phys: String
        var udev = ["ID_INPUT": "1"]
        switch driver {
        case .rpisenseJS:
            keys = [LinuxInput.KEY_DOWN, LinuxInput.KEY_RIGHT, LinuxInput.KEY_UP, LinuxInput.KEY_ENTER, LinuxInput.KEY_LEFT]
            phys = "rpi-sense-joy/input0"
            udev["ID_INPUT_KEY"] = "1"
        case .sensehatJoystick:
            keys = [LinuxInput.BTN_DPAD_DOWN, LinuxInput.BTN_DPAD_RIGHT, LinuxInput.BTN_DPAD_UP, LinuxInput.BTN_SELECT,
                    LinuxInput.BTN_DPAD_LEFT]
            phys = "sensehat-joystick/input0"
            // What systemd's input_id would derive from D-pad buttons (by reading its source, not seen on a Pi).
            udev["ID_INPUT_JOYSTICK"] = "1"
        }
        return MockEvdevDevice(
            eventNumber: eventNumber,
            name: "Raspberry Pi Sense HAT Joystick",
            phys: phys,
            id: MockInputID(bustype: LinuxInput.BUS_I2C),
            codes: [LinuxInput.EV_KEY: keys],
            keyRepeat: (delay: 250, period: 33),
            parent: "/devices/platform/soc/fe804000.i2c/i2c-1/1-0046/rpi-sense-js",
            udevProperties: udev)
    }

    private static let motionAxes: Set<UInt16> = [LinuxInput.ABS_X, LinuxInput.ABS_Y, LinuxInput.ABS_Z,
                                                  LinuxInput.ABS_RX, LinuxInput.ABS_RY, LinuxInput.ABS_RZ]
    /// hid-playstation sets no phys on the nodes it makes (EVIOCGPHYS fails
    /// with ENOENT), and ORs 0x8000 into the version so SDL can tell its nodes
    /// from hid-sony's (both seen on the real driver in the qemu tier).
    private static let dualSenseID = MockInputID(bustype: LinuxInput.BUS_USB, vendor: 0x054c, product: 0x0ce6, version: 0x8100)
    private static let dualSenseHID =
        "/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.3/1-1.3:1.3/0003:054C:0CE6.0003"
}
