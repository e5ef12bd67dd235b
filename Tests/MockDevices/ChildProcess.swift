// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import LibC

/// Running a command to its end with a time limit, its output kept.
enum ChildProcess {
    struct Finished {
        /// The exit status (128 + signal when killed).
        var status: Int32
        /// Standard output and error, interleaved.
        var output: String
        var timedOut: Bool
    }

    /// Runs `command` (its first word a full path) with standard input empty,
    /// waits up to `timeout`, and kills it (by its pid) if it overruns.
    /// Output goes through a temporary file, not a pipe, so a child that
    /// writes much cannot block on a pipe nobody reads while we wait.
    static func run(_ command: [String], timeout: Duration) throws(TestbedError) -> Finished {
        let outPath = "/tmp/tiltmaze-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(outPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        guard rc == 0 else { throw TestbedError("cannot run \(command[0]): \(String(cString: strerror(rc)))") }

        let (seconds, attoseconds) = timeout.components
        let deadline = monotonicSeconds() + Double(seconds) + Double(attoseconds) / 1e18
        var status: Int32 = 0
        var timedOut = false
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { break }
            if monotonicSeconds() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        let exit: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outPath))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Finished(status: exit, output: output, timedOut: timedOut)
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
