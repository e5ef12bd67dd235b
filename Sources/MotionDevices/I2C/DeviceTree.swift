// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage

/// What the running kernel's device tree says about the board, read where
/// the kernel shows it (`<sysfs>/firmware/devicetree/base`, which
/// `/proc/device-tree` links to): the model, the HAT its EEPROM names, and
/// the labels `__symbols__` maps to node paths. A PC has none: `read`
/// gives nil there.
///
/// On a Raspberry Pi the firmware reads a HAT's ID EEPROM at boot and adds
/// what it holds under `hat/` (`product`, `vendor`, `uuid`, …): the Sense
/// HAT's `product` is "Sense HAT". Strings in the tree end with a NUL byte.
public struct DeviceTree: Sendable {
    /// `<sysfs>/firmware/devicetree/base`.
    public let base: String

    /// The tree under `sysfs`, nil when this machine has none.
    public static func read(sysfs: String = "/sys") -> DeviceTree? {
        let base = sysfs + "/firmware/devicetree/base"
        return FilePath(base).isAccessible(.exists) ? DeviceTree(base: base) : nil
    }

    /// A property as text, without its closing NUL; nil when it is not there.
    public func string(_ property: String) -> String? {
        Sysfs.text(of: base + "/" + property).map { String($0.prefix { $0 != "\0" && $0 != "\n" }) }
    }

    /// "Raspberry Pi 4 Model B Rev 1.4".
    public var model: String? { string("model") }

    public var isRaspberryPi: Bool { model?.hasPrefix("Raspberry Pi") ?? false }

    /// The fitted HAT's product, from its EEPROM ("Sense HAT"); nil without one.
    public var hatProduct: String? { string("hat/product") }

    /// The node path a label names ("i2c_arm" → "/soc/i2c@7e804000"), nil when not defined.
    public func symbol(_ label: String) -> String? { string("__symbols__/" + label) }

    /// Every label naming `node`, sorted ("ddc0", "i2c20"…).
    public func labels(of node: String) -> [String] {
        Sysfs.entries(of: base + "/__symbols__").filter { symbol($0) == node }.sorted()
    }

    /// Its `compatible` strings ("brcm,bcm2711-i2c", "i2c-gpio"…).
    public func compatible(of node: String) -> [String] {
        (Sysfs.text(of: base + node + "/compatible") ?? "").split(separator: "\0").map(String.init)
    }
}
