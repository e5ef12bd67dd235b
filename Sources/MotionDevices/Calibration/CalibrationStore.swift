// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import MotionCore
import LibC
import SystemCalls
import SystemPackage

/// What is remembered of one motion sensor between runs: the player's
/// neutral tilt (and whether it applies), the gyroscope's bias, and what
/// the calibrations on demand found.
package struct DeviceCalibration: Sendable, Equatable {
    package var reference: TiltReference
    /// rad/s, board frame.
    package var gyroBias: Vector3
    /// The magnetometer's hard and soft iron, when a compass calibration was made.
    package var magnetometer: MagnetometerCalibration?
    /// The accelerometer's bias and scale in the chip's axes (`calibrate --accelerometer`).
    package var accelerometer: AccelerometerCalibration?
    /// The board's axes as this user set them (`calibrate --orientation`):
    /// used instead of udev's or the driver's mount matrix.
    package var mount: MountMatrix?

    package init(reference: TiltReference = .level, gyroBias: Vector3 = .zero, magnetometer: MagnetometerCalibration? = nil,
                 accelerometer: AccelerometerCalibration? = nil, mount: MountMatrix? = nil) {
        self.reference = reference
        self.gyroBias = gyroBias
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.mount = mount
    }

    /// What the sources take from it: the user's mount and the accelerometer's calibration.
    package func chipCorrection(file: String) -> ChipCorrection? {
        guard mount != nil || accelerometer != nil else { return nil }
        return ChipCorrection(mount: mount, accelerometer: accelerometer ?? .none, file: file)
    }

    /// Nothing calibrated: level, correction on, no bias.
    package static let defaults = DeviceCalibration()

    /// The estimator a run with this device starts from.
    package var estimator: TiltEstimator {
        TiltEstimator(reference: reference, gyroBias: gyroBias, magnetometer: magnetometer ?? .none)
    }
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
    /// neither `XDG_CONFIG_HOME` nor `HOME` is an absolute path, or when root
    /// is refused the folder (`ConfigDirectory.writability` says why).
    package static func standard(environment: [String: String],
                                 effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> CalibrationStore? {
        ConfigDirectory.choose(environment: environment, effectiveUID: effectiveUID).path
            .map { CalibrationStore(directory: $0 + "/calibration") }
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
        /// gyroscope's bias if it was learnt and the magnetometer's
        /// calibration if it was refined: nil when nothing changed (a learnt
        /// bias or magnetometer is worth a first file even so), or when
        /// saving would lose a bad file. The game and the motion library
        /// both ask this.
        package func changed(reference: TiltReference, gyroBias: Vector3?,
                             magnetometer: MagnetometerCalibration? = nil) -> DeviceCalibration? {
            guard maySave else { return nil }
            var updated = calibration
            updated.reference = reference
            if let gyroBias { updated.gyroBias = gyroBias }
            if let magnetometer { updated.magnetometer = magnetometer }
            let learnt = gyroBias != nil || magnetometer != nil
            return updated != calibration || (!fromFile && learnt) ? updated : nil
        }

        /// `changed` for the calibration a run ended with: its bias only once learnt.
        package func changed(to state: CalibrationState) -> DeviceCalibration? {
            changed(reference: state.reference, gyroBias: state.hasLearntGyroBias ? state.gyroBias : nil,
                    magnetometer: state.magnetometer)
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

    /// What the device's file says of how its chip is read (the user's
    /// mount, the accelerometer's calibration), for a source opening it or
    /// `devices` listing it. Read-only: a file that cannot be read or is
    /// no calibration counts as none here; the game's own load sets it
    /// aside and says so.
    public func chipCorrection(for identity: String) -> ChipCorrection? {
        let file = path(for: identity)
        guard case .success(let bytes) = FileContents.read(file, limit: 64 * 1024),
              case .success(let calibration) = CalibrationFile.decode(bytes, identity: identity) else { return nil }
        return calibration.chipCorrection(file: file)
    }

    /// Writes the device's calibration atomically, making the directory if needed.
    package func save(_ calibration: DeviceCalibration, for identity: String) -> Result<String, CalibrationSaveError> {
        let bytes = CalibrationFile.encode(calibration, identity: identity)
        // Never write what the next load would set aside (a turned bias past its bound, say): it would lose the rest.
        if case .failure(let problem) = CalibrationFile.decode(bytes, identity: identity) {
            return .failure(CalibrationSaveError(description: "the calibration for \(identity) was not saved: it would not read back "
                                                 + "(\(problem.text)); \(path(for: identity)) is unchanged"))
        }
        return KeptFile.save(bytes, to: path(for: identity), directory: directory, what: "calibration")
            .mapError { CalibrationSaveError(description: $0.description) }
    }
}

/// What a user's calibration changes in how a source turns its chip's
/// readings into the board's: the board's axes (`calibrate --orientation`)
/// and the accelerometer's bias and scale (`calibrate --accelerometer`).
/// A source applies it as it converts each reading: the accelerometer's
/// calibration first, in the chip's axes, then the mount matrix.
public struct ChipCorrection: Sendable, Equatable {
    /// The user's mount matrix; nil leaves udev's or the driver's.
    public var mount: MountMatrix?
    public var accelerometer: AccelerometerCalibration
    /// The calibration file it came from.
    public var file: String

    public init(mount: MountMatrix?, accelerometer: AccelerometerCalibration, file: String) {
        self.mount = mount
        self.accelerometer = accelerometer
        self.file = file
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
///       "magnetometer" : {
///         "accuracy" : "high",
///         "offset_ut" : [18.2, -6.9, 31.1],
///         "soft_iron" : [[1.02, 0.05, 0], [0.05, 1.02, 0], [0, 0, 0.97]]
///       },
///       "neutral_up" : [0, 0.42, 0.91],
///       "version" : 1
///     }
///
/// and, once made by `calibrate --accelerometer` and `--orientation`:
///
///       "accelerometer" : {
///         "bias_m_s2" : [0.981, -2.35, 3.1],
///         "matrix" : [[1.03, 0, 0], [0, 0.97, 0], [0, 0, 1.02]]
///       },
///       "mount_matrix" : "0, -1, 0; 1, 0, 0; 0, 0, 1",
///
/// `neutral_up` is the board-frame direction against gravity at the
/// player's neutral (any length; at most 30° from level is used).
/// `magnetometer` is there only once a compass calibration was made (a file
/// without it is a whole calibration, and a TiltMaze that predates it
/// ignores it): the field is `soft_iron · (reading − offset_ut)`.
/// `accelerometer` is in the chip's axes: a reading is taken as
/// `matrix · (reading − bias_m_s2)` before the mount matrix turns it.
/// `mount_matrix` is the board's axes as the user set them, in udev's form.
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
        var magnetometer: Magnetometer?
        var accelerometer: Accelerometer?
        var mount_matrix: String?
    }

    private struct Accelerometer: Codable {
        var bias_m_s2: [Double]?
        var matrix: [[Double]]?
    }

    private struct Magnetometer: Codable {
        var offset_ut: [Double]?
        var soft_iron: [[Double]]?
        var accuracy: String?
    }

    typealias Problem = KeptFile.DecodeProblem

    static func encode(_ calibration: DeviceCalibration, identity: String) -> [UInt8] {
        let up = calibration.reference.neutralUp, bias = calibration.gyroBias
        let magnetometer = calibration.magnetometer.map { m in
            Magnetometer(offset_ut: [m.offset.x, m.offset.y, m.offset.z],
                         soft_iron: [m.softIron.0, m.softIron.1, m.softIron.2].map { [$0.x, $0.y, $0.z] },
                         accuracy: m.accuracy.name)
        }
        let accelerometer = calibration.accelerometer.map { a in
            Accelerometer(bias_m_s2: [a.bias.x, a.bias.y, a.bias.z], matrix: [a.matrix.0, a.matrix.1, a.matrix.2].map { [$0.x, $0.y, $0.z] })
        }
        let contents = Contents(format: format, version: version, device: identity,
                                neutral_up: [up.x, up.y, up.z], correction: calibration.reference.isEnabled,
                                gyro_bias_rad_s: [bias.x, bias.y, bias.z], magnetometer: magnetometer,
                                accelerometer: accelerometer, mount_matrix: calibration.mount?.propertyText)
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
        var magnetometer: MagnetometerCalibration?
        if let m = contents.magnetometer {
            switch decode(m) {
            case .success(let calibration): magnetometer = calibration
            case .failure(let problem): return .failure(problem)
            }
        }
        var accelerometer: AccelerometerCalibration?
        if let a = contents.accelerometer {
            switch decode(a) {
            case .success(let calibration): accelerometer = calibration
            case .failure(let problem): return .failure(problem)
            }
        }
        var mount: MountMatrix?
        if let text = contents.mount_matrix {
            guard let m = MountMatrix(parsing: text), m.isTurnOrMirror else {
                return .failure(Problem("\"mount_matrix\" should be a rotation in udev's form, \"1, 0, 0; 0, 1, 0; 0, 0, 1\""))
            }
            mount = m
        }
        return .success(DeviceCalibration(reference: TiltReference(neutralUp: Vector3(up[0], up[1], up[2]), isEnabled: enabled),
                                          gyroBias: Vector3(bias[0], bias[1], bias[2]), magnetometer: magnetometer,
                                          accelerometer: accelerometer, mount: mount))
    }

    private static func decode(_ a: Accelerometer) -> Result<AccelerometerCalibration, Problem> {
        let largest = AccelerometerFit.largestBias
        guard let bias = a.bias_m_s2, bias.count == 3, bias.allSatisfy({ $0.isFinite && abs($0) <= largest }) else {
            return .failure(Problem("\"accelerometer\".\"bias_m_s2\" should be three numbers of at most \(MotionSampleText.decimal(largest, digits: 2)) m/s²"))
        }
        guard let rows = a.matrix, rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else {
            return .failure(Problem("\"accelerometer\".\"matrix\" should be three rows of three numbers"))
        }
        // What a fit may give: each scale within its limit of 1, cross-axis terms of a few per cent.
        let limit = AccelerometerFit.largestScaleError
        for i in 0 ..< 3 {
            for j in 0 ..< 3 where abs(rows[i][j] - (i == j ? 1 : 0)) > limit {
                return .failure(Problem("\"accelerometer\".\"matrix\" is no calibration (each entry within \(limit) of the identity's)"))
            }
        }
        return .success(AccelerometerCalibration(bias: Vector3(bias[0], bias[1], bias[2]),
                                                 matrix: (Vector3(rows[0][0], rows[0][1], rows[0][2]), Vector3(rows[1][0], rows[1][1], rows[1][2]),
                                                          Vector3(rows[2][0], rows[2][1], rows[2][2]))))
    }

    /// The largest offset believed, µT: an offset beyond it is a magnet on the chip, not hard iron.
    static let maxOffset = 500.0

    private static func decode(_ m: Magnetometer) -> Result<MagnetometerCalibration, Problem> {
        guard let offset = m.offset_ut, offset.count == 3, offset.allSatisfy({ $0.isFinite && abs($0) <= maxOffset }) else {
            return .failure(Problem("\"magnetometer\".\"offset_ut\" should be three numbers of at most \(Int(maxOffset)) µT"))
        }
        guard let rows = m.soft_iron, rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else {
            return .failure(Problem("\"magnetometer\".\"soft_iron\" should be three rows of three numbers"))
        }
        let soft = (Vector3(rows[0][0], rows[0][1], rows[0][2]), Vector3(rows[1][0], rows[1][1], rows[1][2]),
                    Vector3(rows[2][0], rows[2][1], rows[2][2]))
        // A calibration's soft iron stretches by tens of per cent, never folds: its determinant is well away from 0.
        let determinant = soft.0.dot(soft.1.cross(soft.2))
        guard determinant > 0.2, determinant < 5 else {
            return .failure(Problem("\"magnetometer\".\"soft_iron\" is no calibration (determinant \(determinant))"))
        }
        guard let name = m.accuracy, let accuracy = MagneticFieldAccuracy.allCases.first(where: { $0.name == name }) else {
            return .failure(Problem("\"magnetometer\".\"accuracy\" should be uncalibrated, low, medium or high"))
        }
        return .success(MagnetometerCalibration(offset: Vector3(offset[0], offset[1], offset[2]), softIron: soft,
                                                accuracy: accuracy))
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
