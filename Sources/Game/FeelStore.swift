// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import LibC
import SystemCalls

/// The player's feel between games: `settings.json` in the config directory
/// (`$XDG_CONFIG_HOME/tiltmaze`, else `~/.config/tiltmaze`), beside the
/// calibration. Written atomically when the player changes it in the
/// Settings menu; a file that cannot be read or is not a settings file is
/// kept aside (`settings.json.bad`, …), the player is told, and the game
/// plays as shipped.
public struct FeelStore: Sendable {
    public let directory: String
    public var path: String { directory + "/settings.json" }

    public init(directory: String) { self.directory = directory }

    /// The store the environment names; nil when neither `XDG_CONFIG_HOME`
    /// nor `HOME` is an absolute path, or when root is refused the folder
    /// (`ConfigDirectory.writability` says why).
    public static func standard(environment: [String: String],
                                effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> FeelStore? {
        ConfigDirectory.choose(environment: environment, effectiveUID: effectiveUID).path.map(FeelStore.init(directory:))
    }

    /// The feel kept (`value`), else as shipped, and what was wrong with a bad file.
    public func load() -> KeptFile.Kept<TiltFeel> {
        KeptFile.load(path, limit: 64 * 1024, what: "a settings file", instead: "played as shipped", defaults: .standard,
                      decode: SettingsFile.decode)
    }

    public func save(_ feel: TiltFeel) -> Result<String, KeptFile.SaveProblem> {
        KeptFile.save(SettingsFile.encode(feel), to: path, directory: directory, what: "settings")
    }
}

/// The JSON form:
///
///     {
///       "dead_zone_deg" : 3,
///       "format" : "tiltmaze-settings",
///       "invert_x" : false,
///       "invert_y" : true,
///       "sensitivity" : 1.4,
///       "smoothing_s" : 0.05,
///       "version" : 1
///     }
enum SettingsFile {
    static let format = "tiltmaze-settings"
    static let version = 1

    private struct Contents: VersionedContents {
        var format: String?
        var version: Int?
        var sensitivity: Double?
        var dead_zone_deg: Double?
        var smoothing_s: Double?
        var invert_x: Bool?
        var invert_y: Bool?
    }

    static func encode(_ feel: TiltFeel) -> [UInt8] {
        KeptJSON.encode(Contents(format: format, version: version, sensitivity: feel.sensitivity, dead_zone_deg: feel.deadZone,
                                 smoothing_s: feel.smoothing, invert_x: feel.invertX, invert_y: feel.invertY))
    }

    static func decode(_ bytes: [UInt8]) -> Result<TiltFeel, KeptFile.DecodeProblem> {
        let contents: Contents
        switch KeptJSON.decode(Contents.self, from: bytes, format: format, version: version) {
        case .success(let read): contents = read
        case .failure(let problem): return .failure(problem)
        }
        // A key left out keeps its shipped value: a file written by hand may name one setting alone.
        let shipped = TiltFeel.standard
        let feel = TiltFeel(sensitivity: contents.sensitivity ?? shipped.sensitivity, deadZone: contents.dead_zone_deg ?? shipped.deadZone,
                            smoothing: contents.smoothing_s ?? shipped.smoothing, invertX: contents.invert_x ?? shipped.invertX,
                            invertY: contents.invert_y ?? shipped.invertY)
        if let problem = feel.problem { return .failure(.init(problem)) }
        return .success(feel)
    }
}
