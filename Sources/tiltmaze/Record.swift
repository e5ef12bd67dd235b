// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import MotionCore
import MotionDevices
import SystemCalls
import Handoff

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a motion sensor's samples to a file, to replay with --source replay:FILE.",
        discussion: """
            The file is a TiltMaze recording (docs/sensors.md, "Recordings"): a text
            header naming the device, its rate, scales and mount matrix, then
            every sample exactly as the game received it. Ctrl-C (or
            --seconds) ends the recording and saves it; until then it is
            written beside FILE under a temporary name (FILE.tmp-PID, marked
            unfinished: no replay takes it), so FILE never holds half a
            recording. A record killed before it saved leaves that file
            behind; the next record to FILE removes it and says so. An
            existing FILE is not replaced unless --force is given. With the
            simulated board, the arrows (or WASD) tilt it and space levels it,
            as in the game, when standard input is a terminal; otherwise it
            stays level, and standard error says so once.
            """
    )

    @Argument(help: ArgumentHelp("Where to save the recording.", valueName: "file"))
    var file: String

    @OptionGroup(title: "Sensor")
    var sensor: SourceOptions

    @Option(parsing: .unconditional, help: "Stop after this many seconds (default: until Ctrl-C).")
    var seconds: Double?

    @Flag(help: "Replace FILE if it exists (without it, an existing file is kept and nothing is recorded).")
    var force = false

    func validate() throws {
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be more than 0") }
        try sensor.requireLive("record reads a sensor; to convert a recording, replay it with monitor --json")
    }

    func run() throws {
        // Before the sensor is opened: a name that is taken needs no sensor to be refused.
        if !force, FileManager.default.fileExists(atPath: file) {
            throw ExitStatus.report(RecordingTemporary.existsMessage(file), as: .cannotWrite)
        }
        for stale in RecordingTemporary.removeStale(beside: file) {
            printError("removed \(stale.path): a recording never saved, left by a record that was stopped before it "
                       + "could finish (process \(stale.pid) is gone)")
        }
        let chosen = try startedSource(sensor, defaultRate: 200)
        let sensor = chosen.source
        defer { sensor.stop() }
        let writer = try reportingFailure {
            try RecordingWriter(path: file, header: RecordingHeader(recording: sensor), replacing: force)
        }
        printError("recording \(chosen.description) to \(file); Ctrl-C stops and saves")
        let boardKeys = SimulatedBoardKeys(chosen)
        defer { boardKeys.restore() }

        let isTTY = StandardStream.error.isTerminal
        let started = MonotonicClock.now()
        let end = seconds.map { started + Int64($0 * 1e9) }
        var nextProgress = started + 1_000_000_000
        var failure: String?
        var first: Int64?
        var last: Int64 = 0
        func progress() -> String {
            let span = first.map { Double(last - $0) / 1e9 } ?? 0
            let kilobytes = Int((Double(writer.samplesWritten * writer.header.sampleSize) / 1024).rounded())
            return "\(writer.samplesWritten) samples, \(MotionSampleText.decimal(span)) s of motion, \(kilobytes) KB"
        }
        do {
            var reader = SampleReader(sensor)
            reading: while !StopSignals.isRequested {
                let now = MonotonicClock.now()
                if let end, now >= end { break }
                var appendError: SourceError?
                // At most a quarter second: how soon Ctrl-C is heeded while no sample comes.
                let stop = reader.read(until: min(now + 250_000_000, end ?? .max)) { sample in
                    guard appendError == nil else { return }
                    do {
                        try writer.append(sample)
                        if first == nil { first = sample.timestamp }
                        last = sample.timestamp
                    } catch { appendError = error as? SourceError ?? SourceError(description: "\(error)", kind: .unwritable) }
                }
                if let appendError { throw appendError }
                if MonotonicClock.now() >= nextProgress {
                    nextProgress += 1_000_000_000
                    let line = progress()
                    StandardStream.error.write(isTTY ? "\r\u{1b}[K" + line : line + "\n")
                }
                switch stop {
                case .failed(let f): failure = f; break reading
                case .ended: break reading
                case nil, .deadline, .interrupted: continue
                }
            }
            if sensor.samples.droppedCount > 0 {
                printError("\(sensor.samples.droppedCount) samples were dropped (the recorder fell behind)")
            }
            try writer.finish()
        } catch {
            writer.abandon()
            if isTTY { StandardStream.error.write("\n") }
            throw ExitStatus.report(error)
        }
        if isTTY { StandardStream.error.write("\n") }
        if let reason = failure {
            throw ExitStatus.report("\(reason); the \(writer.samplesWritten) samples before it are saved in \(file)", as: .sensorFailed)
        }
        printError("saved \(file): \(progress())")
    }
}
