/// What a kernel driver's motion node is known to do: which controller it
/// is, how its axes lie relative to the board frame the game uses, and about
/// how often it reports.
///
/// Recognised by the node's name, which each driver builds the same way
/// (e.g. hid-playstation: "<HID name> Motion Sensors"). The conventions are
/// documented per case; README.md ("Evdev motion sensors") has the table.
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

    /// The profile for a motion node named `name`.
    public init(name: String) {
        self = Self.known.first { $0.matches(name) }?.profile
            ?? EvdevControllerProfile(kind: .other, mount: .identity, nominalRate: 100)
    }

    private static let known: [(matches: @Sendable (String) -> Bool, profile: EvdevControllerProfile)] = [
        ({ $0.contains("DualSense") }, EvdevControllerProfile(kind: .dualSense, mount: .identity, nominalRate: 250)),
        ({ $0.contains("Wireless Controller Motion Sensors") },
         EvdevControllerProfile(kind: .dualShock4, mount: .identity, nominalRate: 250)),
        ({ $0.contains("Left Joy-Con") }, EvdevControllerProfile(kind: .joyConLeft, mount: .identity, nominalRate: 200)),
        ({ $0.contains("Right Joy-Con") }, EvdevControllerProfile(kind: .joyConRight, mount: .identity, nominalRate: 200)),
        ({ $0.contains("Pro Controller") }, EvdevControllerProfile(kind: .proController, mount: .identity, nominalRate: 200)),
        ({ $0.contains("Steam Deck") }, EvdevControllerProfile(kind: .steamDeck, mount: .identity, nominalRate: 250)),
    ]
}
