// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import Testing
import TestSupport
@testable import Displays
@testable import Render

/// How the forked child crashes.
enum Crash: String, CaseIterable, Sendable { case segmentationFault, abort }

/// A real crash, in a forked child that owns a pty: the terminal must come
/// back and the child must still die of its signal. Part of the serialized
/// session suite, since sessions and signal handlers are process-wide.
extension TerminalSessionTests {
    @Test("a segmentation fault restores the terminal and still kills the program")
    func segmentationFaultRestores() throws { try crashRestoresTheTerminalAndStillDiesOfItsSignal(.segmentationFault) }

    @Test("abort() restores the terminal and still kills the program",
          .disabled(if: Emulation.isQemuUser, Comment(rawValue: Emulation.abortSignal)))
    func abortRestores() throws { try crashRestoresTheTerminalAndStillDiesOfItsSignal(.abort) }

    func crashRestoresTheTerminalAndStillDiesOfItsSignal(_ crash: Crash) throws {
        let pty = PseudoTerminal()
        let before = TerminalModes(pty.attributes)
        // Warm up in the parent: the child should need no lazy runtime work
        // that another thread might have been holding a lock for at fork time.
        try TerminalSession.start(input: pty.slave, output: pty.slave).restore()
        _ = pty.drain()

        let pid = fork()
        if pid == 0 {
            // Default actions underneath ours, so the child dies quietly
            // instead of running the Swift backtracer.
            for crashSignal in TerminalSignals.crashSignals { signal(crashSignal, SIG_DFL) }
            guard let session = try? TerminalSession.start(input: pty.slave, output: pty.slave) else { _exit(98) }
            switch crash {
            case .segmentationFault: UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
            case .abort: abort()
            }
            withExtendedLifetime(session) {}
            _exit(99)
        }

        var status: Int32 = 0
        var waited = 0
        while waitpid(pid, &status, WNOHANG) == 0 && waited < 10_000 { usleep(1000); waited += 1 }
        if waited == 10_000 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            Issue.record("the crashing child did not finish within 10 s")
            return
        }
        let signal = status & 0x7F
        #expect(signal == (crash == .abort ? SIGABRT : SIGSEGV), "exit status \(status)")
        #expect(TerminalModes(pty.attributes) == before)
        let shown = pty.drain()
        #expect(shown.contains("\u{1B}[?1049h"))
        #expect(shown.contains("\u{1B}[?1049l"))
        #expect(shown.contains("\u{1B}[?25h"))
    }
}
