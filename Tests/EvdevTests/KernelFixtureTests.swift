// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MockDevices
import Testing

/// The mock controllers against what the real drivers registered in the qemu
/// tier (`Tests/Fixtures/kernel/*.evinfo`, recorded by
/// `scripts/qemu/scenarios/controllers`): name, ids, uniq, phys, properties,
/// every event code and every axis's range, fuzz, flat and resolution. A mock
/// that drifts from the driver fails here, not on a player's machine.
@Suite("Mock evdev devices match the real kernel drivers' fixtures")
struct KernelFixtureTests {
    /// One recorded node (the text `evinfo` prints).
    struct Recorded {
        var fields: [String: String] = [:]
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: MockAbsInfo] = [:]

        init(fixture name: String, kernel: KernelFixtures.Kernel = .bookworm61) throws {
            for line in try KernelFixtures.text(name, kernel: kernel).split(separator: "\n") {
                let (key, value) = line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index($0, offsetBy: 1)...]).trimmingCharacters(in: .whitespaces)) }
                    ?? (String(line), "")
                let numbers = value.split(separator: " ").compactMap { Int32($0) }
                if key.hasPrefix("type ") {
                    codes[UInt16(key.dropFirst(5))!] = Set(numbers.map { UInt16($0) })
                } else if key.hasPrefix("abs ") {
                    let n = value.split(separator: " ").enumerated().filter { $0.offset % 2 == 1 }.compactMap { Int32($0.element) }
                    absInfo[UInt16(key.dropFirst(4))!] = MockAbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n[4])
                } else {
                    fields[key] = value
                }
            }
        }

        /// `(none)` when the driver set the string at all.
        func text(_ key: String) -> String? { fields[key] == "(none)" ? nil : fields[key] }
    }

    func expectMatches(_ mock: MockEvdevDevice, _ fixture: String, kernel: KernelFixtures.Kernel = .bookworm61,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let real = try Recorded(fixture: fixture, kernel: kernel)
        #expect(mock.name == real.text("name"), sourceLocation: sourceLocation)
        #expect(mock.phys == real.text("phys"), "phys", sourceLocation: sourceLocation)
        // The MAC differs from controller to controller: its form is what must match.
        #expect(mock.uniq?.count == real.text("uniq")?.count, "uniq \(mock.uniq ?? "nil") vs \(real.text("uniq") ?? "nil")",
                sourceLocation: sourceLocation)
        let id = String(format: "%04x %04x %04x", mock.id.bustype, mock.id.vendor, mock.id.product)
        #expect(real.fields["id"]?.hasPrefix(id) == true, "id \(id) vs \(real.fields["id"] ?? "")", sourceLocation: sourceLocation)
        // The driver ORs 0x8000 into the HID version (hid-playstation's and hid-nintendo's mark for SDL); the rest is the device's own.
        if let version = real.fields["id"]?.split(separator: " ").last.flatMap({ UInt16($0, radix: 16) }) {
            #expect(mock.id.version & 0x8000 == version & 0x8000, "version mark", sourceLocation: sourceLocation)
        }
        let properties = Set((real.fields["properties"] ?? "").split(separator: " ").compactMap { UInt16($0) })
        #expect(mock.properties == properties, sourceLocation: sourceLocation)
        #expect(mock.codes == real.codes, sourceLocation: sourceLocation)
        for (code, info) in real.absInfo {
            var mockInfo = mock.absInfo[code]
            mockInfo?.value = 0   // the current value is state, not what the driver registered
            #expect(mockInfo == info, "axis \(code)", sourceLocation: sourceLocation)
        }
    }

    @Test("the DualSense's motion node is hid-playstation's")
    func dualSenseMotion() throws {
        try expectMatches(MockEvdevDevice.dualSenseMotion(), "dualsense-motion.evinfo")
    }

    @Test("the Joy-Con (L)'s IMU node is hid-nintendo's")
    func joyConIMU() throws {
        try expectMatches(MockEvdevDevice.joyConLeftIMU(), "joycon-left-imu.evinfo")
    }

    @Test("the DualSense's gamepad node is hid-playstation's")
    func dualSenseGamepad() throws {
        try expectMatches(MockEvdevDevice.dualSenseGamepad(), "dualsense-gamepad.evinfo")
    }

    // The same drivers on Debian trixie's 6.12 for arm64, Raspberry Pi OS's
    // series (recorded by `make test-qemu-arm64`).

    @Test("on 6.12 (arm64), the DualSense's nodes are hid-playstation's as on 6.1")
    func dualSenseOn612() throws {
        try expectMatches(MockEvdevDevice.dualSenseMotion(), "dualsense-motion.evinfo", kernel: .trixie612Arm64)
        try expectMatches(MockEvdevDevice.dualSenseGamepad(), "dualsense-gamepad.evinfo", kernel: .trixie612Arm64)
    }

    /// (That name is known as a left Joy-Con's: EvdevControllerProfileTests.)
    @Test("on 6.12 (arm64), the Joy-Con (L)'s nodes carry the HID device's name")
    func joyConIMUOn612() throws {
        let mock = MockEvdevDevice.joyConLeftIMU(naming: .hidName)
        try expectMatches(mock, "joycon-left-imu.evinfo", kernel: .trixie612Arm64)
        let gamepad = try Recorded(fixture: "joycon-left-gamepad.evinfo", kernel: .trixie612Arm64)
        #expect(gamepad.text("name") == "Joy-Con (L)")
        #expect(gamepad.text("uniq") == mock.uniq, "the gamepad pairs with the IMU node by uniq")
    }
}
