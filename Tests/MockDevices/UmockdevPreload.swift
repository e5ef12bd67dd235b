#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under umockdev's preload, and running a mock
/// suite in a child process that does, so that a plain `swift test` covers
/// the mock-device tests.
///
/// The pattern, per mock suite file:
/// ```
/// extension MockDeviceSuites {
///     @Suite(.enabled(if: UmockdevPreload.isActive)) struct MPU6050 { … }
/// }
/// @Suite struct MPU6050UnderPreload {
///     @Test(.enabled(if: !UmockdevPreload.isActive)) func passes() throws {
///         let run = try UmockdevPreload.rerun(suite: "IIOTests.MockDeviceSuites/MPU6050")
///         #expect(run.passed, "\(run)")
///     }
/// }
/// ```
public enum UmockdevPreload {
    /// Whether `LD_PRELOAD` holds libumockdev-preload (as `umockdev-wrapper` sets it).
    public static var isActive: Bool {
        guard let preload = getenv("LD_PRELOAD") else { return false }
        return String(cString: preload).contains("libumockdev-preload")
    }

    /// `umockdev-wrapper` found on `PATH`, if installed.
    public static var wrapperPath: String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/umockdev-wrapper"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The outcome of running a suite in a child process.
    public struct Run: CustomStringConvertible, Sendable {
        /// The child's command line.
        public var command: [String]
        /// The exit status (128 + signal when killed).
        public var status: Int32
        /// Standard output and error, interleaved.
        public var output: String
        /// Whether it ran out of time and was killed.
        public var timedOut: Bool

        /// Passed: exit 0, not timed out, and Swift Testing reported at least
        /// one test passing (a filter that matched nothing fails, and so does a
        /// run whose tests were all skipped, e.g. because the preload was not active).
        public var passed: Bool {
            status == 0 && !timedOut && testsRun > 0 && passedTests > 0
        }

        /// Tests reported as passed (`Test "…" passed after …`, or `Test name() passed after …`).
        public var passedTests: Int {
            output.split(separator: "\n").filter { $0.contains("Test ") && $0.contains(" passed after ") && !$0.contains("Test run with") }.count
        }

        /// The number of tests Swift Testing reported ("Test run with N tests …").
        public var testsRun: Int {
            guard let range = output.firstRange(of: "Test run with ") else { return 0 }
            return Int(output[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }

        public var description: String {
            "\(command.joined(separator: " ")) → status \(status)\(timedOut ? " (timed out, killed)" : "")\n\(output)"
        }
    }

    /// Runs this test binary again, under `umockdev-wrapper`, with only the
    /// tests whose id matches `suite` (e.g. "IIOTests.MockDeviceSuites/MPU6050"),
    /// and waits up to `timeout` for it; kills that child (by its pid) if it
    /// overruns. Output goes through a temporary file, not a pipe.
    public static func rerun(suite: String, timeout: Duration = .seconds(120)) throws(TestbedError) -> Run {
        guard let wrapper = wrapperPath else {
            throw TestbedError("umockdev-wrapper is not installed (Debian package umockdev)")
        }
        return try run([wrapper] + testCommand(filter: suite), timeout: timeout)
    }

    /// This test binary's command line running only the tests whose id matches `filter`.
    static func testCommand(filter: String) -> [String] {
        [testBinaryPath, "--testing-library", "swift-testing", "--filter", filter]
    }

    /// Runs `command` (its first word a full path) with standard input empty,
    /// waits up to `timeout`, and kills it (by its pid) if it overruns.
    /// Output goes through a temporary file, not a pipe.
    static func run(_ command: [String], timeout: Duration) throws(TestbedError) -> Run {
        let outPath = "/tmp/tiltmaze-umockdev-rerun-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
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
        return Run(command: command, status: exit, output: readWholeFile(outPath), timedOut: timedOut)
    }

    /// This process's executable: the package's test binary.
    static var testBinaryPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func readWholeFile(_ path: String) -> String {
        guard let f = fopen(path, "re") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
