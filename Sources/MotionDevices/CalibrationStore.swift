// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import MotionCore
import SystemCalls
import SystemPackage

/// What is remembered of one motion sensor between runs: the player's
/// neutral tilt (and whether it applies) and the gyroscope's bias.
package struct DeviceCalibration: Sendable, Equatable {
    package var reference: TiltReference
    /// rad/s, board frame.
    package var gyroBias: Vector3

    package init(reference: TiltReference = .level, gyroBias: Vector3 = .zero) {
        self.reference = reference
        self.gyroBias = gyroBias
    }

    /// Nothing calibrated: level, correction on, no bias.
    package static let defaults = DeviceCalibration()
}

/// The calibration files, one per device, in `calibration/` of the config
/// directory (`$XDG_CONFIG_HOME/tiltmaze`, else `~/.config/tiltmaze`).
///
/// A file is JSON (docs/sensors.md, "Calibration"), written atomically: a
/// temporary file beside it, synced, renamed over it. A file that cannot
/// be read or is not a calibration is never overwritten: it is renamed
/// aside (`NAME.json.bad`, `-2`, …), the player is told where it went, and
/// the defaults are used.
public struct CalibrationStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The store under the config directory `environment` names; nil when
    /// neither `XDG_CONFIG_HOME` nor `HOME` is an absolute path.
    package static func standard(environment: [String: String]) -> CalibrationStore? {
        ConfigDirectory.path(environment: environment).map { CalibrationStore(directory: $0 + "/calibration") }
    }

    /// What loading found.
    package struct Loaded: Sendable {
        package var calibration: DeviceCalibration
        /// Whether a file was there and read.
        package var fromFile: Bool
        /// Something the player must hear about (a bad file set aside), or nil.
        package var problem: String?
        /// False when a bad file could not be set aside: saving would lose it.
        package var maySave: Bool

        package init(calibration: DeviceCalibration, fromFile: Bool, problem: String?, maySave: Bool) {
            self.calibration = calibration
            self.fromFile = fromFile
            self.problem = problem
            self.maySave = maySave
        }

        /// What to write after a run that ended at `reference`, with the
        /// gyroscope's bias if it was learnt: nil when nothing changed (a
        /// learnt bias is worth a first file even so), or when saving would
        /// lose a bad file. The game and the motion library both ask this.
        package func changed(reference: TiltReference, gyroBias: Vector3?) -> DeviceCalibration? {
            guard maySave else { return nil }
            var updated = calibration
            updated.reference = reference
            if let gyroBias { updated.gyroBias = gyroBias }
            return updated != calibration || (!fromFile && gyroBias != nil) ? updated : nil
        }
    }

    /// The file for the device `identity`: its name made of the identity's
    /// letters and digits (readable) and a hash of all of it (unique).
    public func path(for identity: String) -> String {
        directory + "/" + KeptFile.name(for: identity) + ".json"
    }

    /// The device's calibration, or the defaults when it has none or its file is bad.
    package func load(_ identity: String) -> Loaded {
        switch KeptFile.load(path(for: identity), limit: 64 * 1024, what: "a usable calibration", instead: "started from level",
                             decode: { CalibrationFile.decode($0, identity: identity) }) {
        case .missing:
            return Loaded(calibration: .defaults, fromFile: false, problem: nil, maySave: true)
        case .loaded(let calibration):
            return Loaded(calibration: calibration, fromFile: true, problem: nil, maySave: true)
        case .setAside(let problem, let maySave):
            return Loaded(calibration: .defaults, fromFile: false, problem: problem, maySave: maySave)
        }
    }

    /// Writes the device's calibration atomically, making the directory if needed.
    package func save(_ calibration: DeviceCalibration, for identity: String) -> Result<String, CalibrationSaveError> {
        KeptFile.save(CalibrationFile.encode(calibration, identity: identity), to: path(for: identity),
                      directory: directory, what: "calibration")
            .mapError { CalibrationSaveError(description: $0.description) }
    }
}

package struct CalibrationSaveError: Error, CustomStringConvertible, Sendable {
    package let description: String
}

/// The JSON form of a calibration:
///
///     {
///       "correction" : true,
///       "device" : "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0068",
///       "format" : "tiltmaze-calibration",
///       "gyro_bias_rad_s" : [0.0012, -0.0031, 0.0004],
///       "neutral_up" : [0, 0.42, 0.91],
///       "version" : 1
///     }
///
/// `neutral_up` is the board-frame direction against gravity at the
/// player's neutral (any length; at most 30° from level is used).
enum CalibrationFile {
    static let format = "tiltmaze-calibration"
    static let version = 1

    private struct Contents: Codable {
        var format: String?
        var version: Int?
        var device: String?
        var neutral_up: [Double]?
        var correction: Bool?
        var gyro_bias_rad_s: [Double]?
    }

    typealias Problem = KeptFile.DecodeProblem

    static func encode(_ calibration: DeviceCalibration, identity: String) -> [UInt8] {
        let up = calibration.reference.neutralUp, bias = calibration.gyroBias
        let contents = Contents(format: format, version: version, device: identity,
                                neutral_up: [up.x, up.y, up.z], correction: calibration.reference.isEnabled,
                                gyro_bias_rad_s: [bias.x, bias.y, bias.z])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding finite doubles, strings and Bools cannot fail.
        return Array(try! encoder.encode(contents)) + [0x0A]
    }

    static func decode(_ bytes: [UInt8], identity: String) -> Result<DeviceCalibration, Problem> {
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
        } catch let error as DecodingError {
            return .failure(Problem(describe(error)))
        } catch {
            return .failure(Problem("not JSON: \(error)"))
        }
        guard contents.format == format else {
            return .failure(Problem("\"format\" should be \"\(format)\""))
        }
        guard let v = contents.version else { return .failure(Problem("no \"version\"")) }
        guard v == version else { return .failure(Problem("version \(v); this TiltMaze reads version \(version)")) }
        guard contents.device == identity else {
            return .failure(Problem("it belongs to \"\(contents.device ?? "no device")\", not \"\(identity)\""))
        }
        guard let up = contents.neutral_up, up.count == 3, up.allSatisfy(\.isFinite),
              Vector3(up[0], up[1], up[2]).length > 0.1 else {
            return .failure(Problem("\"neutral_up\" should be three numbers, a direction (not zero)"))
        }
        let maxBias = AttitudeFilter.Parameters().maxBias
        guard let bias = contents.gyro_bias_rad_s, bias.count == 3, bias.allSatisfy({ $0.isFinite && abs($0) <= maxBias }) else {
            return .failure(Problem("\"gyro_bias_rad_s\" should be three numbers of at most \(maxBias) rad/s"))
        }
        guard let enabled = contents.correction else {
            return .failure(Problem("\"correction\" should be true or false"))
        }
        return .success(DeviceCalibration(reference: TiltReference(neutralUp: Vector3(up[0], up[1], up[2]), isEnabled: enabled),
                                          gyroBias: Vector3(bias[0], bias[1], bias[2])))
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? CustomStringConvertible)?.description
            return "not JSON" + (underlying.map { ": " + $0 } ?? "")
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "not JSON: a JSON object was expected"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = context.codingPath.map(\.stringValue).first ?? "the file"
            return "\"\(field)\" should be \(type == Bool.self ? "true or false" : type == String.self ? "a string" : "numbers")"
        case .keyNotFound(let key, _):
            return "no \"\(key.stringValue)\""
        @unknown default:
            return "not a calibration"
        }
    }
}
