// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import Game
import MotionDevices
import Realtime
import Displays
import Render
import SystemCalls
import LibC

/// How `tiltmaze` ends when it cannot do what was asked, one status per kind
/// of failure, so that a script or a unit (`RestartPreventExitStatus=`) can
/// tell a missing sensor from a bad level file without reading the message.
///
/// The numbers are BSD's `sysexits.h`: swift-argument-parser already ends a
/// bad option with its 64, and the rest of that table names the other kinds
/// this program meets. The message on standard error always says which file
/// or device and what to do; the status only sorts it.
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// `doctor` found no sensor the game can use.
    case problemsFound = 1
    /// EX_USAGE: options that do not parse or do not go together.
    case usage = 64
    /// EX_DATAERR: a level, campaign or recording file that does not parse,
    /// or a calibration refused for what its data showed (the board moved).
    case badInput = 65
    /// EX_NOINPUT: a file or folder named that cannot be read.
    case unreadable = 66
    /// EX_UNAVAILABLE: the sensor, screen or service asked for is not there or cannot be used.
    case unavailable = 69
    /// EX_SOFTWARE: the program itself failed (a thread it could not start).
    case internalError = 70
    /// EX_CANTCREAT: an output file (recording, level, picture, unit drop-in) cannot be written.
    case cannotWrite = 73
    /// EX_IOERR: a sensor that was working failed (unplugged, a bus that stopped answering).
    case sensorFailed = 74
    /// EX_NOPERM: this user may not open the device, or `kiosk` was not run as root.
    case noPermission = 77

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// One line of the manual page's list, short enough not to wrap.
    var meaning: String {
        switch self {
        case .problemsFound: "doctor found no sensor the game can use"
        case .usage: "an option is wrong, or does not go with another"
        case .badInput: "a level, campaign or recording does not parse, or a calibration was refused"
        case .unreadable: "a level file, campaign folder or recording cannot be read"
        case .unavailable: "the sensor, display or service asked for cannot be used"
        case .internalError: "TiltMaze itself failed (a thread could not start)"
        case .cannotWrite: "an output file cannot be written"
        case .sensorFailed: "a sensor failed while in use (unplugged, its bus silent)"
        case .noPermission: "no permission for the device, or kiosk not run as root"
        }
    }

    /// The list as the root command's discussion, and so the manual page, gives it.
    static var listing: String {
        "Exit status: 0 on success; otherwise, numbered as in sysexits.h:\n"
            + allCases.map { status in
                let number = String(status.rawValue)
                return String(repeating: " ", count: 4 - number.count) + number + "  " + status.meaning
            }.joined(separator: "\n")
    }

    /// The status a failure of this kind ends the program with; nil for an
    /// error of a kind this program does not make (ArgumentParser's own).
    init?(for error: any Error) {
        switch error {
        case let error as SourceError:
            self = switch error.kind {
            case .unavailable: .unavailable
            case .misuse: .usage
            case .permissionDenied: .noPermission
            case .unreadable: .unreadable
            case .malformed: .badInput
            case .unwritable: .cannotWrite
            }
        case let error as DeviceError:
            self = error.isPermissionDenied ? .noPermission : .unavailable
        case let error as DisplayError:
            if case .device(_, _, let errno, _) = error, errno == EACCES || errno == EPERM {
                self = .noPermission
            } else {
                self = .unavailable
            }
        case is TerminalError, is PictureTooSmall:
            self = .unavailable
        case is LevelError:
            self = .badInput
        case is MazeGenerator.SizeError:
            self = .usage
        case let error as LevelFileError:
            self = error.isNotText ? .badInput : .unreadable
        case is LevelFolderError:
            self = .unreadable
        case is ThreadError:
            self = .internalError
        default:
            return nil
        }
    }

    /// Says `error` in one line on standard error; throw what it returns to
    /// end the program with the status its kind calls for.
    static func report(_ error: any Error) -> ExitCode {
        printError("\(error)")
        return (ExitStatus(for: error) ?? .internalError).exitCode
    }

    /// Says `message` in one line on standard error; throw what it returns
    /// to end the program with `status`.
    static func report(_ message: String, as status: ExitStatus) -> ExitCode {
        printError(message)
        return status.exitCode
    }
}

/// Runs `body`; an error it throws is said in one line on standard error
/// and ends the program with the status its kind calls for. An exit status
/// already reported inside passes through as it is.
func reportingFailure<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let reported as ExitCode {
        throw reported
    } catch {
        throw ExitStatus.report(error)
    }
}
