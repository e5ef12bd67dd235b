// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import Game
import Displays
import Render
import SystemCalls

/// The displays `--display` asks for, opened: the screen (terminal or
/// framebuffer) and the Sense HAT matrix, alone or together.
struct OpenDisplays {
    let all: [any DisplayBackEnd]
    /// The screen's choice, for the status line ("· terminal (not a console)").
    let label: String
    /// What the session draws on and takes keys from: the one display, or a group.
    var display: any DisplayBackEnd { all.count == 1 ? all[0] : DisplayGroup(all) }
    /// The screen's size in pixels when it is one (pictures are drawn at it).
    var framebufferSize: (width: Int, height: Int)? {
        (all.first as? PixelDisplay).map { ($0.output.width, $0.output.height) }
    }

    /// What the screens' outputs say of the whole game (KMS's frames and flips), for `--stats`.
    var summaries: [String] {
        all.compactMap { ($0 as? PixelDisplay)?.output.summary }
    }

    /// Opens them; `level` nil opens them for panels only. Nothing is left
    /// taken when one fails: the ones opened before it are restored.
    init(_ selection: DisplaySelection, level: Level?, sensorDescription: String, showStatistics: Bool) throws {
        let choice = selection.screen?.choose()
        label = choice?.label ?? ""
        let sensorLabel = sensorDescription + label
        var opened: [any DisplayBackEnd] = []
        do {
            switch choice {
            case .terminal?:
                opened.append(try TerminalDisplay(level: level, sensorName: sensorLabel,
                                                  colorMode: ColorMode.detect(environment: ProcessInfo.processInfo.environment),
                                                  showStatistics: showStatistics))
            case .kms(let path, _)?:
                opened.append(try PixelDisplay(level: level, sensorName: sensorLabel, output: try KMSOutput(path: path),
                                                showStatistics: showStatistics))
            case .framebuffer(let path, _)?:
                opened.append(try PixelDisplay(level: level, sensorName: sensorLabel, output: try FbdevOutput(path: path),
                                                showStatistics: showStatistics))
            case nil:
                break
            }
            if selection.senseHat != nil {
                guard let path = selection.senseHatPath() else {
                    throw DisplayError.missing("no Sense HAT LED matrix found (no framebuffer named \"\(SenseHatDisplay.framebufferName)\" in /sys/class/graphics): is the HAT on and its overlay loaded? Or name the node: --display sensehat:/dev/fbN")
                }
                opened.append(try SenseHatDisplay(level: level, path: path, takesSignals: opened.isEmpty))
            }
        } catch {
            for d in opened.reversed() { d.restore() }
            throw error
        }
        all = opened
        // A screen (not the LED matrix alone) takes standard error until it is restored.
        stderrCapture = choice != nil ? StandardErrorCapture() : nil
    }

    private let stderrCapture: StandardErrorCapture?

    /// Restores the displays, then passes on what was written to standard
    /// error meanwhile, less libiio's known chatter (see `LibiioChatter`).
    func restore() {
        for d in all.reversed() { d.restore() }
        for line in stderrCapture?.finish() ?? [] where !LibiioChatter.isHarmless(line) {
            StandardStream.error.write(line + "\n")
        }
    }
}

/// Lines libiio 0.24 writes to standard error that tell a player nothing:
/// its fallback from the high-speed interface every kernel driver here
/// lacks, and, when a device was unplugged, one failure per sysfs file it
/// can no longer write while tearing the buffer down (the game says which
/// device went, once).
enum LibiioChatter {
    static func isHarmless(_ line: String) -> Bool {
        line == "WARNING: High-speed mode not enabled"
            || line.hasPrefix("ERROR: Error during buffer disable: No such file or directory")
            || (line.hasPrefix("ERROR: Error during channel[") && line.hasSuffix("disable: No such file or directory (2)"))
    }
}
