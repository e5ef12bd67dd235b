// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import LibC

/// This test binary run again in a child process, for tests that need what
/// the parent cannot give itself (umockdev's preload, another user), and
/// what became of each test there.
///
/// A child's outcome is judged test by test from its XUnit report, not from
/// its exit status: a child whose tests were all skipped (the preload not
/// active, a guard that took the early way out) exits 0 and says "passed".
/// Each run prints one line into the parent's log, so CI's log shows how
/// many tests ran in children and how they ended.
public struct ChildTestRun: CustomStringConvertible, Sendable {
    /// How one test in the child ended.
    public enum Outcome: Sendable, Equatable {
        case passed
        case skipped
        case failed(String)
    }

    /// One test the child ran, as `Suite.Type/function()`.
    public struct TestResult: Sendable {
        public var id: String
        public var outcome: Outcome
    }

    /// The child's command line.
    public var command: [String]
    /// The exit status (128 + signal when killed).
    public var status: Int32
    /// Standard output and error, interleaved.
    public var output: String
    /// Whether it ran out of time and was killed.
    public var timedOut: Bool
    /// Every test the child reported, in its report's order; empty when it
    /// wrote none (a crash, a filter that matched nothing).
    public var tests: [TestResult]

    /// Passed: exit 0 in time, at least one test, and every test passed.
    public var passed: Bool {
        status == 0 && !timedOut && !tests.isEmpty && notPassed.isEmpty
    }

    /// The tests that were skipped or failed.
    public var notPassed: [TestResult] { tests.filter { $0.outcome != .passed } }

    /// Swift Testing's closing line ("Test run with N tests … passed after …").
    public var summaryLine: String {
        let line = output.split(separator: "\n").last { $0.contains("Test run with ") }.map(String.init) ?? "no summary line"
        return Self.withoutTerminalEscapes(line)
    }

    public var description: String {
        var verdict: [String] = []
        if timedOut { verdict.append("timed out and was killed") }
        if status != 0 { verdict.append("exited with status \(status)") }
        if tests.isEmpty { verdict.append("reported no tests") }
        for test in notPassed {
            switch test.outcome {
            case .skipped: verdict.append("\(test.id) was skipped")
            case .failed(let message): verdict.append("\(test.id) failed: \(message)")
            case .passed: break
            }
        }
        let head = verdict.isEmpty ? "every one of \(tests.count) tests passed" : verdict.joined(separator: "\n")
        return "\(head)\n\(command.joined(separator: " "))\n\(output)"
    }

    /// Runs this test binary with only the tests whose id matches `filter`,
    /// behind `prefix` (a wrapper command, or none), waits up to `timeout`,
    /// and prints the outcome's one line.
    static func run(filter: String, behind prefix: [String], timeout: Duration) throws(TestbedError) -> ChildTestRun {
        let report = "/tmp/tiltmaze-child-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).xml"
        defer { unlink(report) }
        let command = prefix + [testBinaryPath, "--testing-library", "swift-testing", "--filter", filter, "--xunit-output", report]
        let finished = try ChildProcess.run(command, timeout: timeout)
        let run = ChildTestRun(command: command, status: finished.status, output: finished.output, timedOut: finished.timedOut,
                               tests: XUnitReport.results(in: (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""))
        let passedCount = run.tests.count - run.notPassed.count
        print("child run of \(filter)\(prefix.isEmpty ? "" : " under \(prefix[0].split(separator: "/").last ?? "")"): "
              + "\(passedCount) of \(run.tests.count) tests passed\(run.passed ? "" : ", NOT ALL") — \(run.summaryLine)")
        return run
    }

    /// This process's executable: the package's test binary.
    static var testBinaryPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    private static func withoutTerminalEscapes(_ text: String) -> String {
        var result = "", inEscape = false
        for ch in text {
            if inEscape { if ch.isLetter { inEscape = false } } else if ch == "\u{1B}" { inEscape = true } else { result.append(ch) }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }
}

/// Swift Testing's XUnit report, read for each test's outcome: a
/// `<testcase classname="…" name="…">` holding `<skipped/>`, `<failure
/// message="…"/>`, or nothing when it passed.
enum XUnitReport {
    static func results(in xml: String) -> [ChildTestRun.TestResult] {
        xml.components(separatedBy: "<testcase ").dropFirst().map { element in
            let opening = element.prefix { $0 != ">" }
            let body = opening.hasSuffix("/") ? "" : element.components(separatedBy: "</testcase>")[0]
            let id = "\(attribute("classname", in: opening) ?? "?")/\(attribute("name", in: opening) ?? "?")"
            if body.contains("<failure") {
                let message = body.components(separatedBy: "<failure").dropFirst().compactMap { attribute("message", in: Substring($0)) }
                return .init(id: id, outcome: .failed(message.isEmpty ? "(no message)" : message.joined(separator: "; ")))
            }
            return .init(id: id, outcome: body.contains("<skipped") ? .skipped : .passed)
        }
    }

    private static func attribute(_ name: String, in text: Substring) -> String? {
        guard let start = text.range(of: " \(name)=\"") ?? text.range(of: "\(name)=\"") else { return nil }
        return unescaped(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// XML's five named entities and numeric character references (Swift
    /// Testing writes its arrows as `&#8594;`).
    private static func unescaped(_ text: Substring) -> String {
        let named: [Substring: Character] = ["quot": "\"", "apos": "'", "lt": "<", "gt": ">", "amp": "&"]
        var result = "", rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            guard let semicolon = rest[afterAmp...].firstIndex(of: ";") else { break }
            let entity = rest[afterAmp ..< semicolon]
            let code = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
            if let character = named[entity] ?? code.flatMap(Unicode.Scalar.init).map(Character.init) {
                result.append(character == "\n" ? " " : character)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmp...]
            }
        }
        return result + rest
    }
}
