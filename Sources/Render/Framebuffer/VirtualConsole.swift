import CLinuxDisplay
import Synchronization
import SystemCalls
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The Linux virtual console the game draws over, taken the way
/// well-behaved fbdev programs take it: `KDSETMODE KD_GRAPHICS`, so the text
/// console does not draw over the game (nor its cursor blink), and
/// `VT_SETMODE VT_PROCESS`, so a switch to another console (Ctrl-Alt-Fn)
/// asks first: the game stops drawing and releases it (`VT_RELDISP 1`), and
/// when the player comes back, acknowledges (`VT_RELDISP VT_ACKACQ`) and
/// redraws everything. `restore()` puts back the console's mode and switching
/// on every way out; a crash handler does the same (`CrashRestore`).
public final class VirtualConsole {
    public let descriptor: Int32
    private let savedKDMode: Int32
    private var savedVTMode: vt_mode
    private var restored = false
    /// Whether the game may draw: false between a release and the next acquire.
    public private(set) var isActive = true

    /// Set by the switch signals; acted on by `takeSwitch()` on the frame loop's thread.
    static let releaseRequested = Atomic<Bool>(false)
    static let acquireRequested = Atomic<Bool>(false)
    static let releaseSignal = SIGUSR1
    static let acquireSignal = SIGUSR2

    /// Whether `descriptor` is a Linux virtual console (`KDGETMODE` answers).
    public static func isVirtualConsole(_ descriptor: Int32) -> Bool {
        var mode: Int32 = 0
        if case .success = FileDescriptor(rawValue: descriptor).control(cld_KDGETMODE, &mode) { return true }
        return false
    }

    /// Takes over the console on `descriptor` (standard input, normally).
    /// Fails, changing nothing, when it is not a virtual console or cannot be
    /// put in graphics mode; the error names the device and what to do.
    public init(descriptor: Int32 = 0, name: String = "standard input") throws(FramebufferError) {
        let fd = FileDescriptor(rawValue: descriptor)
        var kdMode: Int32 = 0
        if case .failure(let e) = fd.control(cld_KDGETMODE, &kdMode) {
            throw .device(path: name, operation: "read its console mode (KDGETMODE)", errno: e.rawValue,
                          advice: "the framebuffer display needs a Linux virtual console: run it from the console (Ctrl-Alt-F2), or use --display terminal")
        }
        var vtMode = vt_mode()
        if case .failure(let e) = fd.control(cld_VT_GETMODE, &vtMode) {
            throw .device(path: name, operation: "read its switching mode (VT_GETMODE)", errno: e.rawValue, advice: nil)
        }
        self.descriptor = descriptor
        savedKDMode = kdMode
        savedVTMode = vtMode
        Self.releaseRequested.store(false, ordering: .relaxed)
        Self.acquireRequested.store(false, ordering: .relaxed)
        SignalActions.install(Self.releaseSignal, { _ in VirtualConsole.releaseRequested.store(true, ordering: .relaxed) },
                              flags: SA_RESTART)
        SignalActions.install(Self.acquireSignal, { _ in VirtualConsole.acquireRequested.store(true, ordering: .relaxed) },
                              flags: SA_RESTART)
        SignalActions.unblock([Self.releaseSignal, Self.acquireSignal])
        var process = vtMode
        process.mode = CChar(VT_PROCESS)
        process.relsig = Int16(Self.releaseSignal)
        process.acqsig = Int16(Self.acquireSignal)
        CrashRestore.armConsole(descriptor: descriptor, kdMode: kdMode, vtMode: vtMode)
        if case .failure(let e) = fd.control(cld_VT_SETMODE, &process) {
            CrashRestore.disarmConsole()
            throw .device(path: name, operation: "take over console switching (VT_SETMODE)", errno: e.rawValue,
                          advice: "another program may control this console")
        }
        if case .failure(let e) = fd.control(cld_KDSETMODE, value: Int32(KD_GRAPHICS)) {
            _ = fd.control(cld_VT_SETMODE, &savedVTMode)
            CrashRestore.disarmConsole()
            throw .device(path: name, operation: "put the console in graphics mode (KDSETMODE)", errno: e.rawValue,
                          advice: "run the game from the console itself, not over SSH, or use --display terminal")
        }
    }

    deinit { restore() }

    /// What a console switch asks of the display.
    public enum Switch: Equatable, Sendable {
        /// Nothing happened.
        case none
        /// The player switched away: the display was released; stop drawing.
        case released
        /// The player came back: draw everything again.
        case acquired
    }

    /// Acts on a switch the kernel asked for since the last call. Call once
    /// a frame, before drawing.
    public func takeSwitch() -> Switch {
        if Self.releaseRequested.exchange(false, ordering: .relaxed) {
            isActive = false
            // 1: we let go; the kernel switches now.
            _ = FileDescriptor(rawValue: descriptor).control(cld_VT_RELDISP, value: 1)
            return .released
        }
        if Self.acquireRequested.exchange(false, ordering: .relaxed) {
            isActive = true
            _ = FileDescriptor(rawValue: descriptor).control(cld_VT_RELDISP, value: Int32(VT_ACKACQ))
            return .acquired
        }
        return .none
    }

    /// Puts back the console's mode and its switching as they were. Safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        CrashRestore.restoreConsole()
    }
}
