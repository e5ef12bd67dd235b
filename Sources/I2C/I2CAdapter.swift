// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage

/// An I²C bus that has an i2c-dev node, as sysfs describes it (readable by
/// any user: nothing is opened).
public struct I2CAdapter: Sendable, Equatable, CustomStringConvertible {
    /// The bus number N of `/dev/i2c-N`.
    public var number: Int
    /// The adapter's driver name: "bcm2835 (i2c@7e804000)", "SMBus stub driver".
    public var name: String

    /// "/dev/i2c-1".
    public var node: String { "/dev/i2c-\(number)" }

    public var description: String { "\(node) (\(name))" }

    public init(number: Int, name: String) {
        self.number = number
        self.name = name
    }

    /// Every bus with an i2c-dev node, by number: `<sysfs>/class/i2c-dev`.
    /// Empty when the i2c-dev module is not loaded.
    public static func all(sysfs: String = "/sys") -> [I2CAdapter] {
        let base = sysfs + "/class/i2c-dev"
        return Sysfs.entries(of: base).compactMap { entry -> I2CAdapter? in
            guard entry.hasPrefix("i2c-"), let number = Int(entry.dropFirst(4)) else { return nil }
            return I2CAdapter(number: number, name: Sysfs.firstLine(of: "\(base)/\(entry)/name") ?? entry)
        }.sorted { $0.number < $1.number }
    }

    /// Whether the kernel has the bus at all, i2c-dev or not
    /// (`<sysfs>/bus/i2c/devices/i2c-N`).
    public static func busExists(_ number: Int, sysfs: String = "/sys") -> Bool {
        FilePath("\(sysfs)/bus/i2c/devices/i2c-\(number)").isAccessible(.exists)
    }

    /// The kernel driver bound to the chip at `address` on this bus (the
    /// name of `<sysfs>/bus/i2c/devices/N-00AA/driver`'s target), if any;
    /// and the device's own name when it is declared but unbound.
    public func claim(of address: UInt8, sysfs: String = "/sys") -> (driver: String?, device: String?) {
        let client = "\(sysfs)/bus/i2c/devices/\(number)-\(I2CDevice.hexDigits(address, width: 4))"
        let device = Sysfs.firstLine(of: client + "/name")
        guard case .success(let target) = FilePath(client + "/driver").resolved() else { return (nil, device) }
        return (target.lastComponent?.string, device)
    }

    /// The adapter's device-tree node ("/soc/i2c@7e804000"), from where
    /// its `of_node` link points under `<sysfs>/firmware/devicetree/base`;
    /// nil on a machine without a device tree, or for a bus that has no node.
    public func deviceTreeNode(sysfs: String = "/sys") -> String? {
        guard case .success(let target) = FilePath("\(sysfs)/bus/i2c/devices/i2c-\(number)/of_node").resolved() else { return nil }
        let parts = target.components.map(\.string), marker = ["firmware", "devicetree", "base"]
        guard let at = parts.indices.first(where: { Array(parts[$0...].prefix(3)) == marker }) else { return nil }
        return "/" + parts[(at + 3)...].joined(separator: "/")
    }

    /// The bus number of a node path ("/dev/i2c-1" → 1), nil for anything else.
    public static func number(ofNode path: String) -> Int? {
        guard path.hasPrefix("/dev/i2c-") else { return nil }
        return Int(path.dropFirst("/dev/i2c-".count))
    }
}
