// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
@testable import MotionDevices

/// The default mount matrices: each controller lying flat, face up, must
/// read +1 g on the board's z (out of the face), and pitching its far edge
/// down must read as tilt towards +y (away from the player).
@Suite("Evdev controller profiles")
struct EvdevControllerProfileTests {
    @Test("names as the drivers build them are recognised", arguments: [
        ("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", EvdevControllerProfile.Kind.dualSense),
        ("DualSense Edge Wireless Controller Motion Sensors", .dualSense),
        ("Sony Interactive Entertainment Wireless Controller Motion Sensors", .dualShock4),
        ("Wireless Controller Motion Sensors", .dualShock4),
        ("Nintendo Switch Left Joy-Con IMU", .joyConLeft),
        ("Nintendo Switch Right Joy-Con IMU", .joyConRight),
        ("Nintendo Switch Pro Controller IMU", .proController),
        // hid-nintendo since Linux 6.4 (Raspberry Pi OS's 6.12): the HID name and " (IMU)",
        // as the arm64 qemu guest's driver registered it (Tests/Fixtures/kernel-6.12-arm64).
        ("Joy-Con (L) (IMU)", .joyConLeft),
        ("Joy-Con (R) (IMU)", .joyConRight),
        ("Pro Controller (IMU)", .proController),
        ("Nintendo Co., Ltd. Pro Controller (IMU)", .proController),
        ("Steam Deck Motion Sensors", .steamDeck),
        ("ST LIS3LV02DL Accelerometer", .other),
    ])
    func recognised(name: String, kind: EvdevControllerProfile.Kind) {
        #expect(EvdevControllerProfile(name: name).kind == kind)
    }

    @Test("flat and face up, every controller reads +1 g on the board's z", arguments: [
        // Device-frame specific force of each driver's convention when lying face up.
        ("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", Vector3(0, 1, 0)),
        ("Steam Deck Motion Sensors", Vector3(0, 1, 0)),
        ("Nintendo Switch Pro Controller IMU", Vector3(0, 0, 1)),
        ("Nintendo Switch Left Joy-Con IMU", Vector3(0, 0, 1)),
        ("Nintendo Switch Right Joy-Con IMU", Vector3(0, 0, 1)),
        ("Joy-Con (L) (IMU)", Vector3(0, 0, 1)),
        ("Joy-Con (R) (IMU)", Vector3(0, 0, 1)),
        ("Some Accelerometer", Vector3(0, 0, 1)),
    ])
    func flat(name: String, device: Vector3) {
        #expect(EvdevControllerProfile(name: name).mount.apply(device) == Vector3(0, 0, 1))
    }

    @Test("the edge away from the player lowered: the board reads specific force towards −y", arguments: [
        // DualSense: away from the player is −Z (the triggers' end).
        ("Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors", Vector3(0, 0, 1)),
        // Pro Controller: away is +X (towards the triggers); lowered, gravity pulls along +X, specific force −X.
        ("Nintendo Switch Pro Controller IMU", Vector3(-1, 0, 0)),
        // Joy-Cons held sideways, rail away: for the left one away is −Y (its right side), for the right one +Y.
        ("Nintendo Switch Left Joy-Con IMU", Vector3(0, 1, 0)),
        ("Nintendo Switch Right Joy-Con IMU", Vector3(0, -1, 0)),
        ("Joy-Con (L) (IMU)", Vector3(0, 1, 0)),
        ("Joy-Con (R) (IMU)", Vector3(0, -1, 0)),
    ])
    func pitched(name: String, device: Vector3) {
        #expect(EvdevControllerProfile(name: name).mount.apply(device) == Vector3(0, -1, 0))
    }

    @Test("every default matrix is a rotation (determinant +1), so the gyro keeps its handedness")
    func rotations() {
        for m in [EvdevControllerProfile.playStationFrame, EvdevControllerProfile.nintendoHeldUpright,
                  EvdevControllerProfile.joyConLeftSideways, EvdevControllerProfile.joyConRightSideways] {
            let (a, b, c) = m.rows
            #expect(a.dot(b.cross(c)) == 1)
        }
    }
}
