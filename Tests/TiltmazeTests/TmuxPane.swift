// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import TestSupport
import Render

/// A detached tmux session on a private server: a real terminal of a fixed
/// size that a test can type into and read back, colours included.
final class TmuxPane {
    let socket: String
    let tmux: String
    /// The shell's HOME, fresh for each pane: the game keeps calibration
    /// under it, which must not carry from one test to the next.
    let home: String

    /// - Parameter environment: extra variables for the shell (and so the game),
    ///   e.g. the umockdev preload and testbed directory.
    init(columns: Int, rows: Int, environment: [String: String] = [:]) throws {
        tmux = ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "tmux"
        socket = "tiltmaze-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var template = Array("/tmp/tiltmaze-home-XXXXXX".utf8CString)
        home = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        // A plain shell with a known prompt and truecolour announced, as in a modern terminal.
        try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                 "env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home)", "TERM=tmux-256color", "COLORTERM=truecolor",
                 "PS1=shell$ "] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + ["bash", "--norc", "--noprofile"])
        try run(["set-option", "-g", "status", "off"])
        try run(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    deinit {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Runs a tmux command. tmux itself goes without umockdev's preload,
    /// which it has no use for (the game in the pane gets it through the
    /// shell's environment): under qemu-user, the arm64 tier's emulator, a
    /// tmux server carrying the preload never gets its pane going.
    @discardableResult
    func run(_ args: [String]) throws -> String {
        let r = try ProgramRunner.shell("/usr/bin/env", ["-u", "LD_PRELOAD", tmux, "-L", socket] + args)
        guard r.status == 0 else { throw TmuxError(message: "tmux \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }

    /// Types keys (tmux key names such as "Right" or "Enter", or literal text with `literal`).
    func send(_ keys: String..., literal: Bool = false) throws {
        try send(keys, literal: literal)
    }

    /// The keys in one `send-keys`: they reach the program together, where
    /// one tmux run per key leaves gaps as long as a process start (long
    /// under emulation) between them.
    func send(_ keys: [String], literal: Bool = false) throws {
        try run(["send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen as text (`escapes`: with SGR colour sequences).
    func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// A pane variable such as `alternate_on` or `cursor_flag`.
    func variable(_ name: String) throws -> String {
        try run(["display-message", "-p", "-t", "0", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the screen shows the status line the shell prints after the
    /// game (`echo tiltmaze-exit=$?`): "tiltmaze-exit=" and a digit, not the
    /// typed command, which says "tiltmaze-exit=$?" (and may wrap anywhere).
    static func showsExit(_ screen: String) -> Bool {
        screen.range(of: "tiltmaze-exit=[0-9]", options: .regularExpression) != nil
    }

    /// Polls the screen until `predicate` holds, up to `timeout` seconds.
    func waitFor(timeout: TimeInterval = 60, escapes: Bool = false, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(Emulation.hangBound(timeout))
        var screen = ""
        repeat {
            screen = try capture(escapes: escapes)
            if predicate(screen) { return screen }
            usleep(100_000)
        } while Date() < deadline
        throw TmuxError(message: "timed out waiting; the screen was:\n\(screen)")
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Reads `capture-pane -e` output back into cells with their colours.
struct CapturedScreen {
    struct Color: Equatable { var r, g, b: Int }
    struct Cell {
        var character: Character
        var foreground: Color?
        var background: Color?
        /// Whether `color` is visible in the cell: a blank shows only its
        /// background (its foreground is whatever was last set, and unseen).
        func shows(_ color: Color) -> Bool {
            background == color || (character != " " && foreground == color)
        }
    }

    var rows: [[Cell]] = []

    init(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var fg: Color?, bg: Color?
            var scalars = Array(line.unicodeScalars)[...]
            while let s = scalars.first {
                scalars = scalars.dropFirst()
                if s == "\u{1b}", scalars.first == "[" {
                    scalars = scalars.dropFirst()
                    var params = ""
                    while let c = scalars.first, !(c.value >= 0x40 && c.value <= 0x7e) { params.unicodeScalars.append(c); scalars = scalars.dropFirst() }
                    let final = scalars.first
                    scalars = scalars.dropFirst()
                    if final == "m" { Self.applySGR(params, &fg, &bg) }
                    continue
                }
                cells.append(Cell(character: Character(s), foreground: fg, background: bg))
            }
            rows.append(cells)
        }
    }

    static func applySGR(_ params: String, _ fg: inout Color?, _ bg: inout Color?) {
        let p = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var i = 0
        while i < p.count {
            switch p[i] {
            case 0: fg = nil; bg = nil
            case 39: fg = nil
            case 49: bg = nil
            case 38 where i + 4 < p.count && p[i + 1] == 2: fg = Color(r: p[i + 2], g: p[i + 3], b: p[i + 4]); i += 4
            case 48 where i + 4 < p.count && p[i + 1] == 2: bg = Color(r: p[i + 2], g: p[i + 3], b: p[i + 4]); i += 4
            case 38 where i + 2 < p.count && p[i + 1] == 5: i += 2
            case 48 where i + 2 < p.count && p[i + 1] == 5: i += 2
            default: break
            }
            i += 1
        }
    }

    /// Mean column of the cells showing `color` as either of their colours, or nil.
    func meanColumn(of color: Color) -> Double? {
        var sum = 0, n = 0
        for row in rows {
            for (x, cell) in row.enumerated() where cell.shows(color) {
                sum += x; n += 1
            }
        }
        return n == 0 ? nil : Double(sum) / Double(n)
    }

    func meanRow(of color: Color) -> Double? {
        var sum = 0, n = 0
        for (y, row) in rows.enumerated() {
            for cell in row where cell.shows(color) { sum += y; n += 1 }
        }
        return n == 0 ? nil : Double(sum) / Double(n)
    }
}

extension TmuxPane {
    /// Where the ball is drawn (mean cell of its colour), or nil when it is not on screen.
    func ballPosition() throws -> (column: Double, row: Double)? {
        // Pacman (the default player) or the ball (`--player ball`).
        let screen = CapturedScreen(try capture(escapes: true))
        var ball = CapturedScreen.Color(r: Int(GamePalette.pacman.r), g: Int(GamePalette.pacman.g), b: Int(GamePalette.pacman.b))
        if screen.meanColumn(of: ball) == nil {
            ball = CapturedScreen.Color(r: Int(GamePalette.ball.r), g: Int(GamePalette.ball.g), b: Int(GamePalette.ball.b))
        }
        guard let c = screen.meanColumn(of: ball), let r = screen.meanRow(of: ball) else { return nil }
        return (c, r)
    }

    /// The ball's position once it is drawn; nil if it never is (a hang).
    func waitForBall() throws -> (column: Double, row: Double)? {
        let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
        repeat {
            if let p = try ballPosition() { return p }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}

extension TmuxPane {
    /// A pane whose shell has this process's umockdev preload and testbed
    /// directory, so the game it runs sees the mock devices this test made
    /// (their ioctls answered by this process's handlers); waits for the prompt.
    static func seeingMockDevices(columns: Int, rows: Int) throws -> TmuxPane {
        var env: [String: String] = [:]
        for name in ["LD_PRELOAD", "UMOCKDEV_DIR"] { env[name] = ProcessInfo.processInfo.environment[name] }
        let pane = try TmuxPane(columns: columns, rows: rows, environment: env)
        _ = try pane.waitFor { $0.contains("shell$") }
        return pane
    }

    /// Runs `tiltmaze <arguments>` in the shell; the exit status follows as `tiltmaze-exit=N`.
    func runTiltmaze(_ arguments: String) throws {
        try send("\(ProgramRunner.binary) \(arguments); echo tiltmaze-exit=$?", literal: true)
        try send("Enter")
    }
}
