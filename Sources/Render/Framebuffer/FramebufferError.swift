#if canImport(Glibc)
import Glibc
#endif

/// Why a framebuffer cannot be drawn on; each says what to do next.
public enum FramebufferError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The pixel format (named by its bitfields) cannot be drawn, and why.
    case unsupportedFormat(String, String)
    /// A palette (pseudocolour) or monochrome visual: colours are not stored in the pixels.
    case notTrueColor(path: String, visual: String)
    /// Not a packed-pixel framebuffer (planes, interleaved, text).
    case notPackedPixels(path: String, type: UInt32)
    /// The device failed a call (open, an ioctl, mmap), with what to do.
    case device(path: String, operation: String, errno: Int32, advice: String?)
    /// A display that is not there, and what to do.
    case missing(String)
    /// Too small to draw the maze with at least one pixel per cell.
    case tooSmall(path: String, width: Int, height: Int, needed: (width: Int, height: Int))

    public var description: String {
        switch self {
        case .unsupportedFormat(let format, let problem):
            return "cannot draw pixel format \(format): \(problem); set a 16 or 32 bpp true-colour mode (hardware.md, \"The framebuffer\")"
        case .notTrueColor(let path, let visual):
            return "\(path): a \(visual) framebuffer stores palette indices, not colours: set a 16 or 32 bpp mode (e.g. `fbset -depth 16`, or video=…-16 on the kernel command line)"
        case .notPackedPixels(let path, let type):
            return "\(path): framebuffer type \(type) is not packed pixels: this driver cannot be drawn on"
        case .device(let path, let operation, let errno, let advice):
            let reason = String(cString: strerror(errno))
            return "\(path): cannot \(operation): \(reason) (errno \(errno))" + (advice.map { "; \($0)" } ?? "")
        case .missing(let text):
            return text
        case .tooSmall(let path, let width, let height, let needed):
            return "\(path): \(width)×\(height) is too small for this maze (it needs at least \(needed.width)×\(needed.height) pixels)"
        }
    }

    public static func == (a: FramebufferError, b: FramebufferError) -> Bool { a.description == b.description }
}
