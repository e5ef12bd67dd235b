// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import SystemCalls

/// Runs the built `tiltmaze` program as a user would, for the whole-program tests.
enum ProgramRunner {
    /// The `tiltmaze` binary built beside this test bundle (the test target
    /// depends on the executable, so `swift test` builds it first).
    static var binary: String {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        // The bundle may be a directory (…/X.xctest/…) on some layouts: walk up to the build folder.
        while !dir.path.isEmpty && dir.path != "/" {
            let candidate = dir.appendingPathComponent("tiltmaze").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return "tiltmaze-binary-not-found-beside-\(testBinary.path)"
    }

    /// The repository's `levels/campaign/02-first-roll.txt`: the games the whole-program
    /// tests drive play it (a fresh player's campaign starts elsewhere, and
    /// these tests were written around its open first corridor).
    static let firstRoll = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("levels/campaign/02-first-roll.txt").path

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `tiltmaze args…` with stdin from /dev/null and stdout/stderr piped (no terminal).
    ///
    /// - Parameter command: how to start it; `[binary]` unless a wrapper
    ///   (setpriv, to run as another user) goes first.
    /// - Parameter environment: variables to set over the test's own (a player's HOME).
    static func run(_ args: [String], command: [String] = [binary], environment: [String: String] = [:],
                    timeout: TimeInterval = 120) throws -> Result {
        let p = Process()
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst()) + args
        // Into files, not pipes: a child that prints more than a pipe holds
        // would block until read, which only happens after it exits, and a
        // SIGTERM it answers by flushing blocks it again: the timeout below
        // then never ended the wait.
        let base = NSTemporaryDirectory() + "tiltmaze-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = base + ".out", errPath = base + ".err"
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
              FileManager.default.createFile(atPath: errPath, contents: nil),
              let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
            throw TmuxError(message: "cannot make \(outPath) for the output of \(command[0])")
        }
        defer { unlink(outPath); unlink(errPath) }
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        try? out.close()
        try? err.close()
        var deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            // One that will not end on SIGTERM is killed: the test fails on
            // its status, it does not hang.
            deadline = Date().addingTimeInterval(10)
            while p.isRunning && Date() < deadline { usleep(10_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        p.waitUntilExit()
        return Result(status: p.terminationStatus,
                      stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
                      stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
    }

    /// Runs any command and returns its output, with `posix_spawn` and
    /// `waitpid`. Output goes through temporary files, not pipes: a daemon the
    /// command starts (the tmux server) inherits them, and a pipe would then
    /// never reach end-of-file.
    @discardableResult
    static func shell(_ executable: String, _ args: [String]) throws -> Result {
        let base = NSTemporaryDirectory() + "tiltmaze-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = base + ".out", errPath = base + ".err"
        defer { unlink(outPath); unlink(errPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // The test runs on a pool thread that blocks most signals; ChildProcess
        // starts the child (a tmux server, and the game inside it) with none
        // blocked and default dispositions, as from a login shell.
        let pid: pid_t
        switch ChildProcess.spawn([executable] + args, actions: &actions) {
        case .success(let started): pid = started
        case .failure(let errno): throw TmuxError(message: "cannot run \(executable): \(errno)")
        }
        let exitStatus: Int32 = switch ChildProcess.wait(pid) {
        case .success(.exited(let status)): status
        case .success(.killed(let signal)): 128 + signal
        case .failure(let errno): throw TmuxError(message: "cannot wait for \(executable): \(errno)")
        }
        return Result(status: exitStatus,
                      stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}
