#if canImport(Glibc)
import Glibc
#endif

/// A motion sensor found on this machine.
public struct DiscoveredSensor: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case iio, evdev }
    public var kind: Kind
    /// Driver or device name: "mpu6050", "… Motion Sensors".
    public var name: String
    /// Where it lives: "iio:device0", "/dev/input/event7".
    public var location: String

    public var description: String { "\(name) (\(location))" }
}

/// Finds evdev motion sensors without opening them, so it works for any user.
/// (IIO IMUs are found through libiio: `IIOIMU.find(in:)`.)
public enum SensorDiscovery {
    /// Input nodes whose sysfs `properties` bitmap has `INPUT_PROP_ACCELEROMETER`
    /// (bit 6). Read from sysfs, which any user may read, not from the node.
    public static func evdevSensors(sysfs: String = "/sys") -> [DiscoveredSensor] {
        let base = sysfs + "/class/input"
        guard let dir = opendir(base) else { return [] }
        defer { closedir(dir) }
        var found: [DiscoveredSensor] = []
        while let entry = readdir(dir) {
            let node = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard node.hasPrefix("event"),
                  let properties = readLine(base + "/" + node + "/device/properties"),
                  let bits = UInt64(properties.split(separator: " ").last ?? "", radix: 16),
                  bits & (1 << 6) != 0 else { continue }
            let name = readLine(base + "/" + node + "/device/name") ?? node
            found.append(DiscoveredSensor(kind: .evdev, name: name, location: "/dev/input/" + node))
        }
        return found.sorted { $0.location < $1.location }
    }

    /// The first line of a small sysfs file, or nil when it cannot be read.
    static func readLine(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), f) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line
    }
}
