// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import SystemCalls
import TestSupport

/// Paths inside a system image (`kiosk --root DIR`) resolved as
/// `systemctl --root` resolves them: nothing may lead out of DIR.
@Suite("a path resolved inside an image's root")
struct PathInsideRootTests {
    /// An image with etc/systemd/system made, and `links` (name inside → target) beside it.
    static func image(_ links: [String: String] = [:]) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory("tiltmaze-image")
        try FileManager.default.createDirectory(atPath: dir.path + "/etc/systemd/system", withIntermediateDirectories: true)
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: dir.path + name, withDestinationPath: target)
        }
        return dir
    }

    static func resolve(_ path: String, in image: TemporaryDirectory) -> Result<PathInsideRoot.Resolved, PathInsideRoot.Failure> {
        PathInsideRoot.resolve(path, inside: image.path)
    }

    @Test("an absolute link is taken from the image's root, not this machine's")
    func absoluteLink() throws {
        let host = TemporaryDirectory("tiltmaze-host")
        let image = try Self.image(["/etc/alt": "/etc/systemd", "/etc/out": host.path])
        let resolved = try Self.resolve("/etc/alt/system/unit.d/kiosk.conf", in: image).get()
        #expect(resolved == .init(path: image.path + "/etc/systemd/system/unit.d/kiosk.conf", exists: false,
                                  existing: image.path + "/etc/systemd/system"))
        // A link to a folder of this machine's names the image's folder of that name, made or not.
        #expect(try Self.resolve("/etc/out/kiosk.conf", in: image).get().path == image.path + host.path + "/kiosk.conf")
    }

    @Test("a relative link is taken from the folder that holds it")
    func relativeLink() throws {
        let image = try Self.image(["/etc/rel": "systemd/system", "/etc/systemd/up": "../systemd/./system"])
        #expect(try Self.resolve("/etc/rel", in: image).get() == .init(path: image.path + "/etc/systemd/system", exists: true,
                                                                         existing: image.path + "/etc/systemd/system"))
        #expect(try Self.resolve("etc/systemd/up/", in: image).get().path == image.path + "/etc/systemd/system")
    }

    @Test("'..' never climbs above the root, in the path or in a link")
    func noEscape() throws {
        let image = try Self.image(["/etc/up": "../../../../../etc/systemd", "/etc/top": "/.."])
        #expect(try Self.resolve("/../../etc/systemd", in: image).get().path == image.path + "/etc/systemd")
        #expect(try Self.resolve("/etc/up/system", in: image).get().path == image.path + "/etc/systemd/system")
        #expect(try Self.resolve("/etc/top", in: image).get().path == image.path)
        // A root given with a slash at its end is the same root.
        #expect(try PathInsideRoot.resolve("/etc/top/etc", inside: image.path + "/").get().path == image.path + "/etc")
    }

    @Test("a loop of links is an error naming a link in it, not a hang")
    func loop() throws {
        let image = try Self.image(["/etc/a": "b", "/etc/b": "/etc/a"])
        // The 41st link followed is a again (a, b, a, …).
        #expect(Self.resolve("/etc/a/x", in: image) == .failure(.linkLoop(path: image.path + "/etc/a")))
        let said = PathInsideRoot.Failure.linkLoop(path: image.path + "/etc/b").description
        #expect(said.hasPrefix(image.path + "/etc/b: more than 40 links followed"), "\(said)")
    }

    @Test("a file with more path beneath it, and a '..' out of a folder that does not exist, are errors")
    func badPaths() throws {
        let image = try Self.image()
        try "x".write(toFile: image.path + "/etc/file", atomically: false, encoding: .utf8)
        #expect(Self.resolve("/etc/file/x", in: image) == .failure(.notDirectory(path: image.path + "/etc/file")))
        #expect(try Self.resolve("/etc/file", in: image).get().exists)
        #expect(Self.resolve("/etc/missing/../systemd", in: image) == .failure(.climbsOutOfMissing(path: image.path + "/etc/missing")))
    }
}
