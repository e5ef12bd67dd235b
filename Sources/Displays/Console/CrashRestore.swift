// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import LibC
import Fbdev
import SystemCalls
import Synchronization

/// Leaving the terminal usable when the program crashes.
///
/// A crash handler may only make async-signal-safe calls, so everything it
/// needs is prepared while the session starts: the saved terminal settings in
/// static storage, the descriptors in atomics, the restore bytes as a literal.
/// The handler then does `write` and `tcsetattr` and nothing else.
enum CrashRestore {
    /// What undoes the session on screen: end a half-sent synchronized update,
    /// reset colours, show the cursor, leave the alternate screen.
    static let restoreBytes: StaticString = "\u{1B}[?2026l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// The descriptor whose settings were saved (input), or -1 when disarmed.
    static let inputDescriptor = Atomic<Int32>(-1)
    /// Where the restore bytes go (output).
    static let outputDescriptor = Atomic<Int32>(-1)
    /// The settings from before raw mode.
    nonisolated(unsafe) static let savedAttributes: UnsafeMutablePointer<termios> = {
        let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        attributes.initialize(to: termios())
        return attributes
    }()

    /// Runs the lazy initialisers, so the handler never does.
    static func prepare() {
        _ = savedConsoleModes
        _ = consoleDescriptor.load(ordering: .relaxed)
        _ = savedAttributes
        _ = inputDescriptor.load(ordering: .relaxed)
        _ = outputDescriptor.load(ordering: .relaxed)
    }

    /// Remembers what to restore; from now on a crash restores the terminal.
    static func arm(input: Int32, output: Int32, attributes: termios) {
        prepare()
        savedAttributes.pointee = attributes
        outputDescriptor.store(output, ordering: .releasing)
        inputDescriptor.store(input, ordering: .releasing)
    }

    /// A clean exit is under way; a later crash must not touch the terminal.
    static func disarm() {
        inputDescriptor.store(-1, ordering: .releasing)
        outputDescriptor.store(-1, ordering: .releasing)
    }

    // MARK: The virtual console (framebuffer display)

    /// The console put in graphics mode, or -1; its saved modes.
    static let consoleDescriptor = Atomic<Int32>(-1)
    nonisolated(unsafe) static let savedConsoleModes: UnsafeMutablePointer<Console.Modes> = {
        let modes = UnsafeMutablePointer<Console.Modes>.allocate(capacity: 1)
        modes.initialize(to: Console.Modes())
        return modes
    }()

    /// Remembers how to give the console back; from now on a crash does.
    static func armConsole(descriptor: Int32, modes: Console.Modes) {
        savedConsoleModes.pointee = modes
        consoleDescriptor.store(descriptor, ordering: .releasing)
    }

    static func disarmConsole() { consoleDescriptor.store(-1, ordering: .releasing) }

    /// Puts the console's saved mode and switching back if armed, then
    /// disarms. Async-signal-safe: an atomic exchange and two `ioctl`s.
    static func restoreConsole() {
        let console = consoleDescriptor.exchange(-1, ordering: .acquiring)
        guard console >= 0 else { return }
        Console.restore(descriptor: console, savedConsoleModes)
    }

    /// Restores the terminal if armed, then disarms. Async-signal-safe: two
    /// atomic exchanges, one `write`, one `tcsetattr`.
    static func restoreTerminal() {
        restoreConsole()
        let input = inputDescriptor.exchange(-1, ordering: .acquiring)
        let output = outputDescriptor.exchange(-1, ordering: .acquiring)
        guard input >= 0 else { return }
        if output >= 0 {
            _ = TerminalCalls.writeAll(output, restoreBytes.utf8Start, restoreBytes.utf8CodeUnitCount)
        }
        _ = TerminalCalls.setAttributes(input, when: TCSANOW, savedAttributes)
    }
}
