// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The bundled campaign: levels of rising difficulty, played in order.
/// The same text is in `levels/campaign/` (a test keeps them identical).
public enum Campaign {
    public struct BundledLevel: Sendable {
        /// The file name without `.txt`: `01-warm-up`.
        public let id: String
        public let level: Level
        public var key: String { LevelKey.campaign(id) }
    }

    /// Every level, parsed (they are small: parsing all of them takes well under a millisecond).
    public static let levels: [BundledLevel] = bundled.map { entry in
        do {
            return BundledLevel(id: entry.id, level: try LevelParser(file: "<bundled \(entry.id)>").parse(entry.text))
        } catch {
            // Only a broken build can get here: the tests parse every bundled level.
            fatalError("bundled level does not parse: \(error)")
        }
    }
}
