// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import Fbdev

@Suite("Framebuffers from sysfs")
struct FramebufferInfoTests {
    /// A fake sysfs with `/class/graphics/<id>/<attribute>` files.
    func sysfs(_ devices: [String: [String: String]]) throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-graphics-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for (id, attributes) in devices {
            let dir = "\(root)/class/graphics/\(id)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for (name, value) in attributes {
                try (value + "\n").write(toFile: "\(dir)/\(name)", atomically: false, encoding: .utf8)
            }
        }
        return root
    }

    @Test("each fbN with name, size, depth and stride, in number order; others and unreadable ones skipped")
    func lists() throws {
        let root = try sysfs([
            "fb10": ["name": "RPi-Sense FB", "virtual_size": "8,8", "bits_per_pixel": "16", "stride": "16"],
            "fb0": ["name": "vc4drmfb", "virtual_size": "1920,1080", "bits_per_pixel": "32", "stride": "7680"],
            "fb2": ["name": "broken", "bits_per_pixel": "16"],
            "fbcon": ["name": "not a framebuffer"],
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let all = FramebufferInfo.all(sysfs: root)
        #expect(all == [
            FramebufferInfo(id: "fb0", name: "vc4drmfb", width: 1920, height: 1080, bitsPerPixel: 32, stride: 7680),
            FramebufferInfo(id: "fb10", name: "RPi-Sense FB", width: 8, height: 8, bitsPerPixel: 16, stride: 16),
        ])
        #expect(all.map(\.isSenseHatMatrix) == [false, true])
        #expect(all[0].devicePath == "/dev/fb0")
        #expect(FramebufferInfo.all(sysfs: root + "/nothing").isEmpty)
    }
}
