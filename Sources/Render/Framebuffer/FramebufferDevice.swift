import CLinuxDisplay
import SystemCalls
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An open framebuffer device (`/dev/fbN`): its layout as the kernel reports
/// it (`FBIOGET_VSCREENINFO`, `FBIOGET_FSCREENINFO`), its memory mapped, and
/// a `FramebufferSurface` over the visible part. Unmapped and closed in `deinit`.
///
/// Only what the driver says is used: the pixel format from the bitfields,
/// `line_length` as the stride, the visible resolution. Palette and
/// monochrome visuals and non-packed types are refused with the reason.
public final class FramebufferDevice {
    public let path: String
    /// The driver's name for it (`fb_fix_screeninfo.id`): "bochs-drmdrmfb", "RPi-Sense FB".
    public let name: String
    public let layout: Layout
    public let surface: FramebufferSurface
    private let descriptor: FileDescriptor
    private let mapping: UnsafeMutableRawPointer
    private let mappingLength: Int
    /// FBIO_WAITFORVSYNC answered once; nil until tried.
    private var vsyncWorks: Bool?

    /// What the two ioctls say, in the units a user sees.
    public struct Layout: Equatable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var virtualWidth: Int
        public var virtualHeight: Int
        public var lineLength: Int
        public var memoryLength: Int
        /// The pixel format, or why there is none that can be drawn.
        public var format: Result<PixelFormat, FramebufferError>

        public var description: String {
            let what: String
            switch format {
            case .success(let f): what = "\(f)"
            case .failure(let e): what = "not drawable (\(e))"
            }
            return "\(width)×\(height), \(what), line length \(lineLength) bytes"
        }

        public static func == (a: Layout, b: Layout) -> Bool { a.description == b.description }
    }

    /// Opens `path` read-write, reads its layout and maps its memory. Fails,
    /// naming the node, when it cannot be opened (EACCES: the video group or
    /// the udev rules), is not a framebuffer (ENOTTY on the ioctls), or holds
    /// a format that cannot be drawn.
    public init(path: String) throws(FramebufferError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec])
        } catch {
            let code = (error as? Errno)?.rawValue ?? EIO
            throw .device(path: path, operation: "open", errno: code, advice: Self.advice(for: code))
        }
        let fixed: fb_fix_screeninfo
        let layout: Layout
        do {
            (fixed, layout) = try Self.readLayout(fd, path: path)
        } catch {
            try? fd.close()
            throw error
        }
        let format: PixelFormat
        switch layout.format {
        case .success(let f): format = f
        case .failure(let e):
            try? fd.close()
            throw e
        }
        let length = Int(fixed.smem_len)
        guard let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0), map != MAP_FAILED else {
            let code = errno
            try? fd.close()
            throw .device(path: path, operation: "map its memory (\(length) bytes)", errno: code, advice: nil)
        }
        guard layout.lineLength * layout.height <= length else {
            munmap(map, length)
            try? fd.close()
            throw .device(path: path, operation: "use its memory", errno: EINVAL,
                          advice: "the driver reports \(layout.height) rows of \(layout.lineLength) bytes but maps only \(length)")
        }
        self.path = path
        name = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.layout = layout
        descriptor = fd
        mapping = map
        mappingLength = length
        surface = FramebufferSurface(base: map, width: layout.width, height: layout.height, lineLength: layout.lineLength,
                                     format: format)
    }

    deinit {
        munmap(mapping, mappingLength)
        try? descriptor.close()
    }

    /// The layout of the framebuffer at `path`, from the ioctls (for
    /// `doctor`): opened read-only, nothing mapped.
    public static func describe(path: String) -> Result<(name: String, layout: Layout), FramebufferError> {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            let code = (error as? Errno)?.rawValue ?? EIO
            return .failure(.device(path: path, operation: "open", errno: code, advice: advice(for: code)))
        }
        defer { try? fd.close() }
        do {
            let (fixed, layout) = try readLayout(fd, path: path)
            return .success((withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }, layout))
        } catch {
            return .failure(error)
        }
    }

    /// Waits for the next vertical blank where the driver supports it
    /// (`FBIO_WAITFORVSYNC`); false, at once, where it does not.
    @discardableResult
    public func waitForVerticalBlank() -> Bool {
        guard vsyncWorks != false else { return false }
        var crtc: UInt32 = 0
        let works: Bool
        if case .success = descriptor.control(cld_FBIO_WAITFORVSYNC, &crtc) { works = true } else { works = false }
        vsyncWorks = works
        return works
    }

    private static func readLayout(_ fd: FileDescriptor, path: String) throws(FramebufferError) -> (fb_fix_screeninfo, Layout) {
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        for (request, name) in [(cld_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO"), (cld_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO")] {
            let result = request == cld_FBIOGET_VSCREENINFO ? fd.control(request, &variable) : fd.control(request, &fixed)
            if case .failure(let e) = result {
                let advice = e == .inappropriateIOCTLForDevice ? "it is not a framebuffer (expected /dev/fbN)" : nil
                throw .device(path: path, operation: "read its layout (\(name))", errno: e.rawValue, advice: advice)
            }
        }
        let format: Result<PixelFormat, FramebufferError>
        if fixed.type != UInt32(FB_TYPE_PACKED_PIXELS) {
            format = .failure(.notPackedPixels(path: path, type: fixed.type))
        } else if fixed.visual != UInt32(FB_VISUAL_TRUECOLOR) && fixed.visual != UInt32(FB_VISUAL_DIRECTCOLOR) {
            let visual = switch Int32(fixed.visual) {
            case FB_VISUAL_MONO01, FB_VISUAL_MONO10: "monochrome"
            case FB_VISUAL_PSEUDOCOLOR, FB_VISUAL_STATIC_PSEUDOCOLOR: "palette (pseudocolour)"
            default: "visual \(fixed.visual)"
            }
            format = .failure(.notTrueColor(path: path, visual: visual))
        } else {
            func channel(_ b: fb_bitfield) -> PixelFormat.Channel { .init(offset: Int(b.offset), length: Int(b.length)) }
            do {
                format = .success(try PixelFormat(bitsPerPixel: Int(variable.bits_per_pixel), red: channel(variable.red),
                                                  green: channel(variable.green), blue: channel(variable.blue),
                                                  alpha: variable.transp.length > 0 ? channel(variable.transp) : nil))
            } catch {
                format = .failure(error)
            }
        }
        let layout = Layout(width: Int(variable.xres), height: Int(variable.yres), virtualWidth: Int(variable.xres_virtual),
                            virtualHeight: Int(variable.yres_virtual), lineLength: Int(fixed.line_length),
                            memoryLength: Int(fixed.smem_len), format: format)
        return (fixed, layout)
    }

    /// What to do about an errno from opening a framebuffer.
    static func advice(for code: Int32) -> String? {
        switch code {
        case EACCES, EPERM: "this user may not draw on it: join group video, or install the udev rules in udev/ (udev/README.md) and log in again"
        case ENOENT: "no such framebuffer: `ls /dev/fb*`, and see hardware.md (\"The framebuffer\")"
        default: nil
        }
    }
}
