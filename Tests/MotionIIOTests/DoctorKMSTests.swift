// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
@testable import Diagnostics
import LibC

@Suite("doctor's KMS lines: a card that only renders is no warning")
struct DoctorKMSTests {
    /// A fake sysfs `class/drm` shaped like a Raspberry Pi 4's: card0 is v3d,
    /// the GPU, with no outputs; card1 is vc4, with its two HDMI ports.
    func sysfs(withDisplayCard: Bool) throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-kms-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var files = ["class/drm/card0/dev": "226:0\n", "class/drm/version": "drm 1.1.0 20060810\n"]
        if withDisplayCard {
            files["class/drm/card1/dev"] = "226:1\n"
            files["class/drm/card1-HDMI-A-1/status"] = "connected\n"
            files["class/drm/card1-HDMI-A-1/modes"] = "1920x1080\n"
            files["class/drm/card1-HDMI-A-2/status"] = "disconnected\n"
            files["class/drm/card1-HDMI-A-2/modes"] = ""
        }
        for (file, text) in files {
            let path = "\(root)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let driver = root + "/bus/platform/drivers/v3d"
        try FileManager.default.createDirectory(atPath: driver + "/gpu", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/class/drm/card0/device", withDestinationPath: driver + "/gpu")
        try FileManager.default.createSymbolicLink(atPath: driver + "/gpu/driver", withDestinationPath: driver)
        return root
    }

    @Test("beside a card with a display, the card without outputs gets no line")
    func renderOnlyCardLeftOut() throws {
        let root = try sysfs(withDisplayCard: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lines = DoctorReport.kmsCards(sysfs: root).map(\.text)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("card1") && !$0.contains("no display connected") }, "\(lines)")
    }

    @Test("cards that only render: one warning that names them, not 'no display connected'")
    func onlyRenderOnlyCards() throws {
        let root = try sysfs(withDisplayCard: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let lines = DoctorReport.kmsCards(sysfs: root).map(\.text)
        #expect(lines == ["no DRM card has display outputs (card0 (v3d) only render): --display kms cannot be used; the framebuffer or the terminal can"])
    }
}
