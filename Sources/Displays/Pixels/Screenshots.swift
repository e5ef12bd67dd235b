// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Game
import PNG
import SystemCalls
import LibC
import Fbdev
import SystemPackage

/// F12 in the game: the frame on screen drawn by the framebuffer renderer
/// (whatever display is in use) and saved as a PNG in `directory`, named
/// `tiltmaze-<seconds since 1970>-<n>.png` so pictures sort by time. With a
/// `limit`, no more are saved once the directory holds that many (a kiosk's
/// state directory must not fill the card, however often F12 is pressed).
public final class Screenshots {
    public let directory: String
    public let limit: Int?
    /// The pictures in the directory, counted at the first F12 and kept up to date after.
    private var held: Int?
    private var level: Level
    private var banner: LevelBanner
    let sensorName: String
    let width: Int, height: Int
    /// Made at the first picture, not at start: most games take none.
    private var renderer: (screen: PixelGameView, surface: PixelSurface)?
    private var taken = 0

    /// - Parameters:
    ///   - width, height: the picture's size (a framebuffer's own, or 1280×800 for a terminal).
    public init(directory: String, level: Level, sensorName: String, width: Int = 1280, height: Int = 800, limit: Int? = nil) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.limit = limit
        self.level = level
        self.banner = LevelBanner(title: level.title)
        self.sensorName = sensorName
        self.width = width
        self.height = height
    }

    /// Pictures from now on are of `level`, with `banner`.
    public func show(_ level: Level, banner: LevelBanner) {
        if level !== self.level { renderer = nil }
        self.level = level
        self.banner = banner
        renderer?.screen.setBanner(banner)
    }

    /// Draws `snapshot` (with `menu`) and writes it; what the player is told:
    /// the file written, or why it could not be.
    public func save(_ snapshot: WorldSnapshot, menu: MenuState?) -> String {
        if let limit {
            // Those of earlier games count too: the limit is on the directory, not on one game.
            let count = held ?? ((try? DirectoryListing.names(in: directory).get()) ?? [])
                .filter { $0.hasPrefix("tiltmaze-") && $0.hasSuffix(".png") }.count
            held = count
            if count >= limit { return "screenshot not saved: \(directory) holds \(count) already, the most kept (--screenshot-limit)" }
        }
        if renderer == nil {
            do {
                renderer = (try PixelGameView(level: level, sensorName: sensorName, width: width, height: height, banner: banner),
                            PixelSurface(width: width, height: height, format: .xrgb8888))
            } catch {
                return "screenshot not saved: \(error)"
            }
        }
        let (screen, surface) = renderer!
        screen.forceFullRepaint()
        for rect in screen.compose(snapshot, menu: menu) { surface.copy(rect, from: screen.picture) }
        let bytes: [UInt8]
        do {
            bytes = try Snapshot.image(of: surface).encoded()
        } catch {
            return "screenshot not saved: \(error)"
        }
        // Never over a picture already there (one of another game in the same second): the next number instead.
        let second = time(nil)
        for _ in 0 ..< 100 {
            taken += 1
            let path = "\(directory)/tiltmaze-\(second)-\(taken).png"
            switch bytes.withUnsafeBytes({ AtomicFile.write($0, to: path, replacing: false) }) {
            case .success:
                held? += 1
                return "saved \(path)"
            case .failure(.fileExists):
                continue
            case .failure(let errno):
                return "screenshot not saved: \(path): cannot write the PNG: \(errno)"
            }
        }
        return "screenshot not saved: \(directory) holds tiltmaze-\(second)-1.png to -\(taken).png already"
    }
}
