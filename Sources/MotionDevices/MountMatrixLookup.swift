// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import MotionCore

/// The mount matrix a sensor's samples are turned by, and where it came
/// from. One lookup serves the sources and `tiltmaze devices`, so what is
/// listed is what is played.
public struct ChosenMountMatrix: Sendable, Equatable, CustomStringConvertible {
    public enum Origin: Sendable, Equatable {
        /// udev's `ACCEL_MOUNT_MATRIX` for the node (systemd's hwdb or a local rule).
        case udev(node: String)
        /// The driver's attribute (`mount_matrix`, `in_accel_mount_matrix`, …), from the device tree.
        case driver(attribute: String)
        /// What this controller's driver is known to do with its axes.
        case controller(String)
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
        case .udev(let node): "udev ACCEL_MOUNT_MATRIX of \(node)"
        case .driver(let attribute): attribute
        case .controller(let kind): "\(kind) convention"
        case .identity: "none given: identity"
        }
        return "\(matrix) (\(from))" + (ignored.map { "; \($0)" } ?? "")
    }
}

/// iio-sensor-proxy's precedence: udev's `ACCEL_MOUNT_MATRIX` first (it
/// fixes a board the driver describes wrongly), then what the driver says.
/// A singular matrix is passed over, and the choice says so; a mirrored
/// one (determinant -1) is a real mounting and is used.
public enum MountMatrixLookup {
    public static func iio(_ device: IIODevice, udevDirectory: String = UdevDatabase.defaultDirectory) -> ChosenMountMatrix {
        var candidates: [(MountMatrix, ChosenMountMatrix.Origin)] = []
        // udev's database describes this machine's nodes, not a remote iiod's.
        if device.context.isLocal, let udev = udevMatrix(device.devicePath, udevDirectory) { candidates.append((udev, .udev(node: device.devicePath))) }
        if let driver = IIOIMU.driverMountMatrix(of: device) { candidates.append((driver.matrix, .driver(attribute: driver.attribute))) }
        return first(candidates, otherwise: ChosenMountMatrix(matrix: .identity, origin: .identity))
    }

    public static func evdev(_ path: String, profile: EvdevControllerProfile,
                             udevDirectory: String = UdevDatabase.defaultDirectory) -> ChosenMountMatrix {
        let fallback = profile.kind == .other ? ChosenMountMatrix(matrix: profile.mount, origin: .identity)
            : ChosenMountMatrix(matrix: profile.mount, origin: .controller(profile.kind.rawValue))
        return first(udevMatrix(path, udevDirectory).map { [($0, .udev(node: path))] } ?? [], otherwise: fallback)
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
