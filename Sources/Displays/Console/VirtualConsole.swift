// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev
import Synchronization
import SystemCalls
import SystemPackage
import LibC

/// The Linux virtual console the game draws over, taken the way
/// well-behaved fbdev and KMS programs take it: graphics mode, so the text
/// console does not draw over the game (nor its cursor blink), and switching
/// by request, so a switch to another console (Ctrl-Alt-Fn) asks first: the
/// game stops drawing and lets go, and when the player comes back,
/// acknowledges and redraws everything. `restore()` puts back the console's
/// modes on every way out; a crash handler does the same (`CrashRestore`).
public final class VirtualConsole {
    public let console: Console
    /// The modes found, put back at the end (and while suspended).
    private let saved: Console.Modes
    /// Restores the console if this process is killed outright.
    private var deathGuard: ConsoleGuard?
    private var restored = false
    /// Whether the game may draw: false between a release and the next acquire.
    public private(set) var isActive = true

    /// Set by the switch signals; acted on by `takeSwitch()` on the frame loop's thread.
    static let releaseRequested = Atomic<Bool>(false)
    static let acquireRequested = Atomic<Bool>(false)
    static let releaseSignal = SIGUSR1
    static let acquireSignal = SIGUSR2

    public var descriptor: Int32 { console.descriptor.rawValue }

    /// Whether `descriptor` is a Linux virtual console.
    public static func isVirtualConsole(_ descriptor: Int32) -> Bool {
        Console.isConsole(FileDescriptor(rawValue: descriptor))
    }

    /// Takes over the console on `descriptor` (standard input, normally).
    /// Fails, changing nothing, when it is not a virtual console or cannot be
    /// put in graphics mode; the error names the device and what to do.
    public init(descriptor: Int32 = 0, name: String = "standard input") throws(DisplayError) {
        let console = Console(descriptor: FileDescriptor(rawValue: descriptor), name: name)
        let saved: Console.Modes
        do {
            saved = try console.modes()
        } catch {
            throw .device(path: name, operation: error.operation, errno: error.errno,
                          advice: "a display on the screen needs a Linux virtual console: run it from the console (Ctrl-Alt-F2), or use --display terminal")
        }
        self.console = console
        self.saved = saved
        Self.releaseRequested.store(false, ordering: .relaxed)
        Self.acquireRequested.store(false, ordering: .relaxed)
        SignalActions.install(Self.releaseSignal, { _ in VirtualConsole.releaseRequested.store(true, ordering: .relaxed) },
                              flags: SA_RESTART)
        SignalActions.install(Self.acquireSignal, { _ in VirtualConsole.acquireRequested.store(true, ordering: .relaxed) },
                              flags: SA_RESTART)
        SignalActions.unblock([Self.releaseSignal, Self.acquireSignal])
        CrashRestore.armConsole(descriptor: descriptor, modes: saved)
        // Without a guard a SIGKILL leaves the console in graphics mode; the game still runs.
        deathGuard = try? console.guardModes(saved)
        do {
            try console.askBeforeSwitching(release: Self.releaseSignal, acquire: Self.acquireSignal, from: saved.switching)
        } catch {
            CrashRestore.disarmConsole()
            deathGuard?.dismiss()
            throw .device(path: name, operation: error.operation, errno: error.errno, advice: "another program may control this console")
        }
        do {
            try console.setGraphicsMode()
        } catch {
            CrashRestore.restoreConsole()
            deathGuard?.dismiss()
            throw .device(path: name, operation: error.operation, errno: error.errno,
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
    /// a frame, before drawing. `beforeRelease` runs before the console is
    /// let go (a KMS display finishes its flip and drops DRM master there);
    /// `afterAcquire` after the return is acknowledged (it takes master back).
    public func takeSwitch(beforeRelease: () -> Void = {}, afterAcquire: () -> Void = {}) -> Switch {
        if Self.releaseRequested.exchange(false, ordering: .relaxed) {
            isActive = false
            beforeRelease()
            console.releaseDisplay()
            return .released
        }
        if Self.acquireRequested.exchange(false, ordering: .relaxed) {
            isActive = true
            console.acknowledgeAcquire()
            afterAcquire()
            return .acquired
        }
        return .none
    }

    /// For a suspension (Ctrl-Z): the console's modes as they were found,
    /// so the shell's text shows; `takeAgain()` undoes it.
    public func giveBack() {
        guard !restored else { return }
        CrashRestore.restoreConsole()
    }

    /// After a suspension: graphics mode and switching by request again.
    public func takeAgain() {
        guard !restored else { return }
        CrashRestore.armConsole(descriptor: descriptor, modes: saved)
        try? console.askBeforeSwitching(release: Self.releaseSignal, acquire: Self.acquireSignal, from: saved.switching)
        try? console.setGraphicsMode()
        isActive = true
    }

    /// Puts back the console's mode and its switching as they were. Safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        CrashRestore.restoreConsole()
        deathGuard?.dismiss()
    }
}
