// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import DRM
import SystemCalls

@Suite("DRM cards from sysfs, and a node that is not one")
struct DRMCardInfoTests {
    /// A fake sysfs `class/drm` as the kernel lays it out: cards, their
    /// connectors beside them, a render node, and `version`.
    func sysfs() throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-drm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let base = root + "/class/drm"
        let files: [String: String] = [
            "card1/dev": "226:1\n",
            "card1-HDMI-A-1/status": "connected\n",
            "card1-HDMI-A-1/modes": "1920x1080\n1280x720\n",
            "card1-HDMI-A-2/status": "disconnected\n",
            "card1-HDMI-A-2/modes": "",
            "card0/dev": "226:0\n",
            "card0-Composite-1/status": "unknown\n",
            "card10/dev": "226:10\n",
            "renderD128/dev": "226:128\n",
            "version": "drm 1.1.0 20060810\n",
        ]
        for (file, text) in files {
            let path = "\(base)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/bus/platform/drivers/vc4-drm/gpu", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(base)/card1/device", withDestinationPath: root + "/bus/platform/drivers/vc4-drm/gpu")
        try FileManager.default.createSymbolicLink(atPath: root + "/bus/platform/drivers/vc4-drm/gpu/driver", withDestinationPath: root + "/bus/platform/drivers/vc4-drm")
        return root
    }

    @Test("cards in number order with their own connectors; render nodes and connectors are not cards")
    func cards() throws {
        let root = try sysfs()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cards = DRMCardInfo.all(sysfs: root)
        #expect(cards.map(\.id) == ["card0", "card1", "card10"])
        #expect(cards[1].connectors == [
            .init(name: "HDMI-A-1", status: "connected", modes: ["1920x1080", "1280x720"]),
            .init(name: "HDMI-A-2", status: "disconnected", modes: []),
        ])
        #expect(cards[1].driver == "vc4-drm")
        #expect(cards[1].hasConnectedDisplay)
        #expect(!cards[0].hasConnectedDisplay)
        #expect(cards[2].connectors.isEmpty)
        #expect(cards[1].devicePath == "/dev/dri/card1")
        #expect(DRMCardInfo.all(sysfs: root + "/nothing").isEmpty)
    }

    @Test("a node that is not a DRM device is refused, naming it")
    func notACard() {
        #expect {
            _ = try DRMCard(path: "/dev/null")
        } throws: { error in
            guard let e = error as? DeviceError else { return false }
            return e.path == "/dev/null" && e.description.contains("not a DRM device")
        }
    }
}
