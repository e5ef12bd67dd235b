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

    /// "1, 0, 0; 0, -1, 0; 0, 0, -1 (udev ACCEL_MOUNT_MATRIX of /dev/iio:device0)".
    public var description: String {
        let from = switch origin {
        case .udev(let node): "udev ACCEL_MOUNT_MATRIX of \(node)"
        case .driver(let attribute): attribute
        case .controller(let kind): "\(kind) convention"
        case .identity: "none given: identity"
        }
        return "\(matrix) (\(from))"
    }
}

/// iio-sensor-proxy's precedence: udev's `ACCEL_MOUNT_MATRIX` first (it
/// fixes a board the driver describes wrongly), then what the driver says.
public enum MountMatrixLookup {
    public static func iio(_ device: IIODevice, udevDirectory: String = UdevDatabase.defaultDirectory) -> ChosenMountMatrix {
        // udev's database describes this machine's nodes, not a remote iiod's.
        if device.context.isLocal, let udev = udevMatrix(device.devicePath, udevDirectory) { return udev }
        if let driver = IIOIMU.driverMountMatrix(of: device) { return ChosenMountMatrix(matrix: driver.matrix, origin: .driver(attribute: driver.attribute)) }
        return ChosenMountMatrix(matrix: .identity, origin: .identity)
    }

    public static func evdev(_ path: String, profile: EvdevControllerProfile,
                             udevDirectory: String = UdevDatabase.defaultDirectory) -> ChosenMountMatrix {
        if let udev = udevMatrix(path, udevDirectory) { return udev }
        if profile.kind == .other { return ChosenMountMatrix(matrix: profile.mount, origin: .identity) }
        return ChosenMountMatrix(matrix: profile.mount, origin: .controller(profile.kind.rawValue))
    }

    private static func udevMatrix(_ node: String, _ directory: String) -> ChosenMountMatrix? {
        guard let text = UdevDatabase.properties(ofCharacterDevice: node, directory: directory)["ACCEL_MOUNT_MATRIX"],
              let matrix = MountMatrix(parsing: text) else { return nil }
        return ChosenMountMatrix(matrix: matrix, origin: .udev(node: node))
    }
}
