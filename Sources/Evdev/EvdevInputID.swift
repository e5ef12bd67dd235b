// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The device's `struct input_id`: bus, vendor, product and version, as
/// the driver registered them (`EVIOCGID`).
public struct EvdevInputID: Sendable, Hashable, CustomStringConvertible {
    /// `BUS_USB` (3), `BUS_BLUETOOTH` (5), `BUS_I2C` (0x18), `BUS_HOST` (0x19), …
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    /// "bus 0x0003 vendor 0x054c product 0x0ce6 version 0x0100", as evtest prints it.
    public var description: String {
        "bus 0x\(hex4(bustype)) vendor 0x\(hex4(vendor)) product 0x\(hex4(product)) version 0x\(hex4(version))"
    }
}

/// Four lower-case hex digits.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
