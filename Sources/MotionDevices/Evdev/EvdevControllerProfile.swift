// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
/// What a kernel driver's motion node is known to do: which controller it
/// is, how its axes lie relative to the board frame the game uses, and about
/// how often it reports.
///
/// Recognised by the node's name, which each driver builds the same way
/// (e.g. hid-playstation: "<HID name> Motion Sensors"). The conventions are
/// documented per case; docs/sensors.md ("Evdev motion sensors") has the table.
public struct EvdevControllerProfile: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case dualSense = "DualSense"
        case dualShock4 = "DualShock 4"
        case joyConLeft = "Joy-Con (L)"
        case joyConRight = "Joy-Con (R)"
        case proController = "Switch Pro Controller"
        case steamDeck = "Steam Deck"
        /// Anything else: axes taken as the kernel documents them.
        case other
    }

    public var kind: Kind
    /// Device axes to board axes (+x right, +y away from the player, +z up
    /// out of the face), used when udev gives no `ACCEL_MOUNT_MATRIX`.
    public var mount: MountMatrix
    /// Samples per second the driver usually sends (nominal: the controller sets the pace).
    public var nominalRate: Double

    public init(kind: Kind, mount: MountMatrix, nominalRate: Double) {
        self.kind = kind
        self.mount = mount
        self.nominalRate = nominalRate
    }

    /// Where the node's MSC_TIMESTAMP comes from, as `devices` says it.
    /// hid-playstation passes on the controller's own sensor clock;
    /// hid-nintendo ignores the controller's timer and counts itself: 5 ms
    /// a sample, then the measured average gap once 300 reports have come
    /// (seen on the real driver in the qemu tier).
    public var timestampSource: String {
        switch kind {
        case .joyConLeft, .joyConRight, .proController: "counted by hid-nintendo, not the controller's clock"
        default: "the controller's clock"
        }
    }

    /// The profile for a motion node named `name`.
    public init(name: String) {
        self = Self.known.first { $0.matches(name) }?.profile
            ?? EvdevControllerProfile(kind: .other, mount: .identity, nominalRate: 100)
    }

    /// hid-playstation (DualSense, DS4) and hid-steam (whose author matched
    /// the DualSense) pass the IMU's axes through: +X towards the right grip,
    /// +Y out of the face, +Z towards the player (lying flat face up, ABS_Y
    /// reads +1 g). Board x = X, y = −Z, z = Y.
    static let playStationFrame = MountMatrix(Vector3(1, 0, 0), Vector3(0, 0, -1), Vector3(0, 1, 0))
    /// hid-nintendo turns every controller into one frame (it negates a right
    /// Joy-Con's Y and Z to match): +X towards the triggers, +Y to the left,
    /// +Z out of the face. A Pro Controller is held triggers away: board
    /// x = −Y, y = X, z = Z.
    static let nintendoHeldUpright = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
    /// A lone Joy-Con is held sideways, rail (SL/SR) away from the player:
    /// the left one turned a quarter anticlockwise from upright (triggers to
    /// the left: board x = −X, y = −Y), the right one clockwise (triggers to
    /// the right: the identity).
    static let joyConLeftSideways = MountMatrix(Vector3(-1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1))
    static let joyConRightSideways = MountMatrix.identity

    /// Names as the drivers build them: hid-playstation "<HID name> Motion
    /// Sensors" (a DS4's HID name is "… Wireless Controller"; the older
    /// hid-sony says "Sony Computer Entertainment …"), hid-nintendo
    /// "Nintendo Switch Left Joy-Con IMU" etc. up to Linux 6.3, and since 6.4
    /// (Raspberry Pi OS's 6.12) the HID device's own name and " (IMU)":
    /// "Joy-Con (L) (IMU)", "Pro Controller (IMU)"; hid-steam "Steam Deck Motion Sensors".
    /// Rates: DualSense and DS4 report every 4 ms over Bluetooth (faster on
    /// USB); hid-nintendo sends three samples per 15 ms report; hid-steam
    /// stamps 4 ms per report.
    private static let known: [(matches: @Sendable (String) -> Bool, profile: EvdevControllerProfile)] = [
        ({ $0.contains("DualSense") }, EvdevControllerProfile(kind: .dualSense, mount: playStationFrame, nominalRate: 250)),
        ({ $0.contains("Wireless Controller Motion Sensors") },
         EvdevControllerProfile(kind: .dualShock4, mount: playStationFrame, nominalRate: 250)),
        ({ $0.contains("Left Joy-Con") || $0.contains("Joy-Con (L)") },
         EvdevControllerProfile(kind: .joyConLeft, mount: joyConLeftSideways, nominalRate: 200)),
        ({ $0.contains("Right Joy-Con") || $0.contains("Joy-Con (R)") },
         EvdevControllerProfile(kind: .joyConRight, mount: joyConRightSideways, nominalRate: 200)),
        ({ $0.contains("Pro Controller") }, EvdevControllerProfile(kind: .proController, mount: nintendoHeldUpright, nominalRate: 200)),
        // Joy-Cons in the grip, and any other hid-nintendo node: held upright.
        ({ $0.contains("Nintendo Switch") }, EvdevControllerProfile(kind: .proController, mount: nintendoHeldUpright, nominalRate: 200)),
        ({ $0.contains("Steam Deck") }, EvdevControllerProfile(kind: .steamDeck, mount: playStationFrame, nominalRate: 250)),
    ]
}
