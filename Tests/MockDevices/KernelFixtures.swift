import Foundation

/// What the real kernel drivers registered in the qemu tier, as recorded in
/// `Tests/Fixtures/kernel/` (see its README): the evdev nodes' descriptions
/// and the IIO devices' sysfs trees in umockdev's format.
public enum KernelFixtures {
    /// The text of `Tests/Fixtures/kernel/NAME`.
    public static func text(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/kernel/\(name)").path
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
