// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Runs another program and waits for it: for the commands that hand a step
/// to the system's own tool (`systemctl` for `tiltmaze kiosk`) rather than
/// redo what it does. Not for a hot path: it forks.
public enum ChildProcess {
    /// How a program ended.
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case killed(signal: Int32)
    }

    /// What a program ended with, and what it wrote to standard output when
    /// that was asked for (otherwise it writes to this process's own).
    public struct Outcome: Sendable {
        public var ending: Ending
        public var output: String
    }

    /// Runs `arguments[0]` (looked up on PATH) with `arguments` and waits for
    /// it; with `silencingErrors`, its standard error goes to /dev/null (for
    /// a question whose "no" the program words as an error). It starts with
    /// no signal blocked and every signal at its default, whatever this
    /// process has blocked or ignored. Fails only when it cannot be started.
    public static func run(_ arguments: [String], capturingOutput: Bool = false,
                           silencingErrors: Bool = false) -> Result<Outcome, Errno> {
        var pipeEnds: [Int32] = [-1, -1]
        if capturingOutput, case .failure(let e) = nothingOrErrno({ pipe(&pipeEnds) }) { return .failure(e) }
        defer { for end in pipeEnds where end >= 0 { close(end) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if capturingOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        }
        if silencingErrors {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let pid: pid_t
        switch spawn(arguments, actions: &actions) {
        case .success(let started): pid = started
        case .failure(let e): return .failure(e)
        }

        var bytes: [UInt8] = []
        if capturingOutput {
            // Our copy of the write end goes, so that the read ends when the child's does.
            close(pipeEnds[1])
            pipeEnds[1] = -1
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case .success(let n) = valueOrErrno({ chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) } }), n > 0 {
                bytes += chunk[..<n]
            }
        }
        return wait(pid).map { Outcome(ending: $0, output: String(decoding: bytes, as: UTF8.self)) }
    }

    /// Starts `arguments[0]` (looked up on PATH unless it names a path) with
    /// `actions` applied to its descriptors, no signal blocked and every
    /// signal at its default, whatever this process has blocked or ignored
    /// (a pool thread blocks most). Returns its pid for `wait`.
    public static func spawn(_ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?) -> Result<pid_t, Errno> {
        precondition(!arguments.isEmpty, "a program to run")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, arguments[0], actions, &attributes, cArguments, environ)
        return started == 0 ? .success(pid) : .failure(Errno(rawValue: started))
    }

    /// Waits for the child `pid` to end. The corresponding C function is `waitpid`.
    public static func wait(_ pid: pid_t) -> Result<Ending, Errno> {
        var status: Int32 = 0
        return nothingOrErrno({ waitpid(pid, &status, 0) }).map {
            // WIFEXITED and friends are macros, which Swift does not import.
            let signal = status & 0x7f
            return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
        }
    }
}
