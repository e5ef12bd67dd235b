// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import LibC
import SystemCalls

@Suite("Attribute values: typed text")
struct AttributeValueTests {
    @Test("integers and decimal numbers parse as the kernel prints them")
    func numbers() {
        #expect(Int(attributeText: "50") == 50)
        #expect(Int(attributeText: "-12") == -12)
        #expect(Double(attributeText: "0.000598") == 0.000598)
        #expect(Double(attributeText: "12420.588235") == 12420.588235)
        #expect(Double(attributeText: "-3") == -3)
    }

    @Test("garbage is not a number", arguments: ["", "abc", "1.5.2", "12 Hz", "nan", "inf", "0x"])
    func garbageIsNotANumber(_ text: String) {
        #expect(Double(attributeText: text) == nil)
        #expect(Int(attributeText: text) == nil)
    }

    @Test("flags are 1/0 (or Y/N)")
    func flags() {
        #expect(Bool(attributeText: "1") == true)
        #expect(Bool(attributeText: "0") == false)
        #expect(Bool(attributeText: "Y") == true)
        #expect(Bool(attributeText: "yes") == nil)
        #expect(true.attributeText == "1")
    }

    @Test("a mount matrix parses from the kernel's text and prints back")
    func mountMatrix() throws {
        let m = try #require(IIOMountMatrix(attributeText: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        #expect(m.rows == [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
        #expect(IIOMountMatrix(attributeText: "1,0,0;0,1,0;0,0,1") == .identity)
        #expect(IIOMountMatrix(attributeText: m.attributeText) == m)
        #expect(IIOMountMatrix(attributeText: "0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1")?.rows[0][1] == -0.7071)
    }

    @Test("a malformed mount matrix is refused",
          arguments: ["", "1, 0; 0, 1", "1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0, x", "1, 0, 0, 0; 0, 1, 0; 0, 0, 1"])
    func malformedMountMatrix(_ text: String) {
        #expect(IIOMountMatrix(attributeText: text) == nil)
    }
}

@Suite("Errors say what, where and what next")
struct IIOErrorTests {
    @Test("the description names the subject, the operation and the errno")
    func describes() {
        let e = IIOError(errno: ENOENT, operation: "read in_accel_scale", path: "/sys/bus/iio/devices/iio:device0/in_accel_scale")
        #expect(e.description.hasPrefix("/sys/bus/iio/devices/iio:device0/in_accel_scale: cannot read in_accel_scale: "))
        #expect(e.description.contains("errno \(ENOENT)"))
    }

    @Test("permission errors say this user may not use the file, unless a detail says more; nothing of this program's set-up")
    func permissionHint() {
        let plain = IIOError(errno: EACCES, operation: "open", path: "/dev/iio:device0").description
        #expect(plain.hasSuffix("; this user may not use it"))
        #expect(!plain.contains("udev"))
        let e = IIOError(errno: EACCES, operation: "mkdir", path: "/sys/kernel/config/iio", detail: "needs root")
        #expect(e.description.hasSuffix("; needs root"))
        #expect(!e.description.contains("udev"))
    }
}
