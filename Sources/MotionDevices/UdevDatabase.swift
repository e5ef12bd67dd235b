import MotionCore
#if canImport(Glibc)
import Glibc
#endif

/// Properties udev recorded for a device node (`/run/udev/data/c<major>:<minor>`),
/// such as `ACCEL_MOUNT_MATRIX` from systemd's `60-sensor.hwdb`. Read from the
/// file rather than through libudev: one small file, no extra library.
public enum UdevDatabase {
    public static let defaultDirectory = "/run/udev/data"

    /// The `E:` properties of the character device at `path`; empty when the
    /// node or its record does not exist.
    public static func properties(ofCharacterDevice path: String, directory: String = defaultDirectory) -> [String: String] {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return [:] }
        let (major, minor) = split(UInt64(info.st_rdev))
        guard let file = fopen("\(directory)/c\(major):\(minor)", "re") else { return [:] }
        defer { fclose(file) }
        var properties: [String: String] = [:]
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("E:"), let equals = text.firstIndex(of: "=") else { continue }
            let key = String(text[text.index(text.startIndex, offsetBy: 2)..<equals])
            let value = text[text.index(after: equals)...].trimmingCharacters(in: "\n")
            properties[key] = String(value)
        }
        return properties
    }

    /// glibc's `gnu_dev_major`/`gnu_dev_minor` (macros Swift cannot import).
    static func split(_ rdev: UInt64) -> (major: UInt64, minor: UInt64) {
        let major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & ~UInt64(0xfff))
        let minor = (rdev & 0xff) | ((rdev >> 12) & ~UInt64(0xff))
        return (major, minor)
    }
}
