// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The part of a board's device tree TiltMaze reads, laid out as the
/// kernel shows it under `/sys/firmware/devicetree/base`: the model, a
/// HAT's EEPROM (`hat/product`), `__symbols__` (label → node path) and the
/// nodes with their `compatible` strings. Strings end with a NUL byte.
public struct MockDeviceTree: Sendable {
    public var model: String
    public var hatProduct: String?
    public var symbols: [String: String]
    public var compatible: [String: [String]]

    public init(model: String, hatProduct: String? = nil, symbols: [String: String], compatible: [String: [String]]) {
        self.model = model
        self.hatProduct = hatProduct
        self.symbols = symbols
        self.compatible = compatible
    }

    func install(in testbed: Testbed) throws(TestbedError) {
        let base = "/sys/firmware/devicetree/base"
        try testbed.makeDirectory(base + "/__symbols__")
        try testbed.writeFile(base + "/model", model + "\0")
        if let hatProduct {
            try testbed.makeDirectory(base + "/hat")
            try testbed.writeFile(base + "/hat/product", hatProduct + "\0")
        }
        for (label, node) in symbols { try testbed.writeFile(base + "/__symbols__/" + label, node + "\0") }
        for (node, strings) in compatible {
            try testbed.makeDirectory(base + node)
            try testbed.writeFile(base + node + "/compatible", strings.map { $0 + "\0" }.joined())
        }
    }
}

extension Testbed {
    public func add(_ tree: MockDeviceTree) throws(TestbedError) { try tree.install(in: self) }

    /// Makes a directory and its parents in the fake tree.
    public func makeDirectory(_ path: String) throws(TestbedError) {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(realPath(built), 0o755) != 0 && errno != EEXIST {
                throw TestbedError("cannot make \(built): \(String(cString: strerror(errno)))")
            }
        }
    }
}
