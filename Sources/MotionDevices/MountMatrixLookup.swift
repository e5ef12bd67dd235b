// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import MotionCore

/// The mount matrix a sensor's samples are turned by, and where it came
/// from. One lookup serves the sources and `tiltmaze devices`, so what is
/// listed is what is played.
public struct ChosenMountMatrix: Sendable, Equatable, CustomStringConvertible {
    public enum Origin: Sendable, Equatable {
        /// This user's calibration file (`calibrate --orientation`).
        case user(file: String)
        /// udev's `ACCEL_MOUNT_MATRIX` for the node (systemd's hwdb or a local rule).
        case udev(node: String)
        /// The driver's attribute (`mount_matrix`, `in_accel_mount_matrix`, …), from the device tree.
        case driver(attribute: String)
        /// What this controller's driver is known to do with its axes.
        case controller(String)
        /// How the chip sits on a board TiltMaze knows (the Sense HAT).
        case board(String)
        /// Nothing says otherwise.
        case identity
    }

    public let matrix: MountMatrix
    public let origin: Origin
    /// A matrix passed over because it is singular, and where it came from.
    public var ignored: String?

    public init(matrix: MountMatrix, origin: Origin, ignored: String? = nil) {
        self.matrix = matrix
        self.origin = origin
        self.ignored = ignored
    }

    /// "1, 0, 0; 0, -1, 0; 0, 0, -1 (udev ACCEL_MOUNT_MATRIX of /dev/iio:device0)".
    public var description: String {
        let from = switch origin {
        case .user(let file): "this user's calibrate --orientation, \(file)"
        case .udev(let node): "udev ACCEL_MOUNT_MATRIX of \(node)"
        case .driver(let attribute): attribute
        case .controller(let kind): "\(kind) convention"
        case .board(let name): "the \(name)'s mounting"
        case .identity: "none given: identity"
        }
        return "\(matrix) (\(from))" + (ignored.map { "; \($0)" } ?? "")
    }
}

/// The user's own (`calibrate --orientation`, kept in their calibration
/// file) first; then iio-sensor-proxy's precedence: udev's
/// `ACCEL_MOUNT_MATRIX` (it fixes a board the driver describes wrongly),
/// then what the driver says.
/// A singular matrix is passed over, and the choice says so; a mirrored
/// one (determinant -1) is a real mounting and is used.
public enum MountMatrixLookup {
    public static func iio(_ device: IIODevice, udevDirectory: String = UdevDatabase.defaultDirectory,
                           user: ChipCorrection? = nil) -> ChosenMountMatrix {
        var candidates = userCandidate(user)
        // udev's database describes this machine's nodes, not a remote iiod's.
        if device.context.isLocal, let udev = udevMatrix(device.devicePath, udevDirectory) { candidates.append((udev, .udev(node: device.devicePath))) }
        if let driver = IIOIMU.driverMountMatrix(of: device) { candidates.append((driver.matrix, .driver(attribute: driver.attribute))) }
        return first(candidates, otherwise: ChosenMountMatrix(matrix: .identity, origin: .identity))
    }

    public static func evdev(_ path: String, profile: EvdevControllerProfile,
                             udevDirectory: String = UdevDatabase.defaultDirectory, user: ChipCorrection? = nil) -> ChosenMountMatrix {
        let fallback = profile.kind == .other ? ChosenMountMatrix(matrix: profile.mount, origin: .identity)
            : ChosenMountMatrix(matrix: profile.mount, origin: .controller(profile.kind.rawValue))
        return first(userCandidate(user) + (udevMatrix(path, udevDirectory).map { [($0, .udev(node: path))] } ?? []), otherwise: fallback)
    }

    /// An I²C chip's: the user's, else what is known of the board it sits on (`builtIn`, from `origin`).
    public static func i2c(builtIn: MountMatrix, origin: ChosenMountMatrix.Origin, user: ChipCorrection? = nil) -> ChosenMountMatrix {
        first(userCandidate(user), otherwise: ChosenMountMatrix(matrix: builtIn, origin: origin))
    }

    private static func userCandidate(_ user: ChipCorrection?) -> [(MountMatrix, ChosenMountMatrix.Origin)] {
        guard let user, let mount = user.mount else { return [] }
        return [(mount, .user(file: user.file))]
    }

    /// The first candidate that is not singular, else `fallback`; either
    /// naming the singular ones passed over.
    public static func first(_ candidates: [(MountMatrix, ChosenMountMatrix.Origin)], otherwise fallback: ChosenMountMatrix) -> ChosenMountMatrix {
        var ignored: [String] = []
        for (matrix, origin) in candidates {
            if !matrix.isSingular { return ChosenMountMatrix(matrix: matrix, origin: origin, ignored: ignoredText(ignored)) }
            ignored.append("\(ChosenMountMatrix(matrix: matrix, origin: origin)) is singular (it would flatten an axis away)")
        }
        var chosen = fallback
        chosen.ignored = ignoredText(ignored)
        return chosen
    }

    private static func ignoredText(_ ignored: [String]) -> String? {
        ignored.isEmpty ? nil : "ignored: " + ignored.joined(separator: "; ") + ": fix the hwdb entry or device tree"
    }

    private static func udevMatrix(_ node: String, _ directory: String) -> MountMatrix? {
        UdevDatabase.properties(ofCharacterDevice: node, directory: directory)["ACCEL_MOUNT_MATRIX"].flatMap { MountMatrix(parsing: $0) }
    }
}
