// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev
import SystemCalls
import LibC

/// Why a display (a framebuffer, a KMS card, the Sense HAT's matrix) cannot
/// be drawn on; each says what to do next.
public enum DisplayError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The pixels cannot be written as colours, and why.
    case format(path: String, PixelFormatError)
    /// The device failed a call (open, an ioctl, mmap), with what to do.
    case device(path: String, operation: String, errno: Int32, advice: String?)
    /// A display that is not there, and what to do.
    case missing(String)

    /// A wrapper's failure, with this program's advice where the errno calls for it.
    init(_ error: DeviceError) {
        self = .device(path: error.path, operation: error.operation, errno: error.errno,
                       advice: Self.advice(for: error.errno, operation: error.operation) ?? error.detail)
    }

    public var description: String {
        switch self {
        case .format(let path, let problem):
            let fix = switch problem {
            case .notPackedPixels: "this driver cannot be drawn on"
            case .notTrueColor, .unsupported:
                "set a 16 or 32 bpp true-colour mode (`fbset -depth 16`, or video=…-16 on the kernel command line; hardware.md, \"The framebuffer\")"
            }
            return "\(path): cannot draw \(problem); \(fix)"
        case .device(let path, let operation, let errno, let advice):
            let reason = String(cString: strerror(errno))
            return "\(path): cannot \(operation): \(reason) (errno \(errno))" + (advice.map { "; \($0)" } ?? "")
        case .missing(let text):
            return text
        }
    }

    /// What to do about an errno from a display device.
    static func advice(for code: Int32, operation: String) -> String? {
        guard operation == "open" else { return nil }
        return switch code {
        case EACCES, EPERM:
            "this user may not draw on it: join group video, or install TiltMaze's udev rules (tiltmaze doctor says how) and log in again"
        case ENOENT:
            "no such display device: `ls /dev/fb* /dev/dri`, and see hardware.md (\"The framebuffer\")"
        default: nil
        }
    }

    public static func == (a: DisplayError, b: DisplayError) -> Bool { a.description == b.description }
}
